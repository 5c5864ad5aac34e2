//! Ratings: Glicko-2 (the `skillratings` crate), one rating per player over every battle, moved by each rated game
//! when it ends (an observer of change.rs, so every ending passes it once). Accounts and computer players are
//! rated; a guest is not (a guest's seat has nobody to carry a rating to the next game).
//!
//! One rating overall, not one per battle size: a club plays a few games a week spread over a dozen battles, and
//! ratings split by size would each rest on a handful of games, their deviations staying near the start's 350.
//! Glicko-2's deviation already says how sure a rating is; the battles differ less between them than players do.

use super::Games;
use super::change::{GameEnded, GameObserver};
use crate::setup::Rating;
use crate::store::PlayerRating;
use pacw_engine::Side;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use std::sync::{Arc, Weak};

/// A player's rating before their first rated game.
pub fn first_rating(player: &str) -> PlayerRating {
    let start = Glicko2Rating::new();
    PlayerRating {
        player: player.to_string(),
        rating: start.rating,
        deviation: start.deviation,
        volatility: start.volatility,
        wins: 0,
        losses: 0,
        draws: 0,
    }
}

/// Both players' ratings after a game between them; `winner` by [`Side::index`] of `before`, `None` for a draw.
pub fn rate(before: &[PlayerRating; 2], winner: Option<Side>) -> [PlayerRating; 2] {
    let glicko =
        |r: &PlayerRating| Glicko2Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility };
    let outcome = match winner {
        Some(Side::A) => Outcomes::WIN,
        Some(Side::B) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (a, b) = glicko2(&glicko(&before[0]), &glicko(&before[1]), &outcome, &Glicko2Config::new());
    let after = |r: &PlayerRating, g: Glicko2Rating, side: Side| {
        let mut next = PlayerRating { rating: g.rating, deviation: g.deviation, volatility: g.volatility, ..r.clone() };
        match winner {
            Some(w) if w == side => next.wins += 1,
            Some(_) => next.losses += 1,
            None => next.draws += 1,
        }
        next
    };
    [after(&before[0], a, Side::A), after(&before[1], b, Side::B)]
}

/// Moves the ratings of a rated game's players when it ends.
pub struct RatingsObserver {
    games: Weak<Games>,
}

impl RatingsObserver {
    /// The observer for these games' ratings.
    pub fn new(games: &Arc<Games>) -> RatingsObserver {
        RatingsObserver { games: Arc::downgrade(games) }
    }
}

impl GameObserver for RatingsObserver {
    fn ended(&self, ended: &GameEnded) {
        if ended.rating != Rating::Rated {
            return;
        }
        let Some(games) = self.games.upgrade() else { return };
        let [Some(a), Some(b)] = ended.seats.each_ref().map(|s| s.rating_key()) else { return };
        if a == b {
            return; // one player on both sides: nothing to learn
        }
        let store = &games.store;
        let before = [&a, &b].map(|key| store.rating(key).ok().flatten().unwrap_or_else(|| first_rating(key)));
        let after = rate(&before, ended.result.winner);
        if let Err(e) = store.save_ratings(&after) {
            eprintln!("pacw server: game {}: the ratings could not be stored: {e}", ended.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_gains_what_the_loser_loses_near_enough_and_a_draw_between_equals_moves_no_rating() {
        let before = [first_rating("account:1"), first_rating("computer:general")];
        let [a, b] = rate(&before, Some(Side::A));
        assert!(a.rating > 1500.0 && b.rating < 1500.0, "{a:?} {b:?}");
        assert!((a.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-6, "equal players move alike");
        assert!(a.deviation < 350.0, "a game makes a rating surer");
        assert_eq!((a.wins, a.losses, b.wins, b.losses), (1, 0, 0, 1));
        let [c, d] = rate(&before, None);
        assert!((c.rating - 1500.0).abs() < 1e-6 && (d.rating - 1500.0).abs() < 1e-6);
        assert_eq!((c.draws, d.draws), (1, 1));
        // An upset moves more than the expected result.
        let strong = PlayerRating { rating: 1900.0, deviation: 80.0, ..first_rating("computer:general") };
        let weak = PlayerRating { rating: 1400.0, deviation: 80.0, ..first_rating("account:2") };
        let [s1, _] = rate(&[strong.clone(), weak.clone()], Some(Side::A));
        let [s2, _] = rate(&[strong.clone(), weak], Some(Side::B));
        assert!(strong.rating - s2.rating > s1.rating - strong.rating);
    }
}
