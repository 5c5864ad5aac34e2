//! Elo ratings from a round robin: the Bradley–Terry model (a player of rating r beats one of rating s with chance
//! 1 / (1 + 10^((s − r)/400))), fitted to every game by maximum likelihood with a draw counted half a win, and 95%
//! intervals by the bootstrap (the games of each pairing resampled with replacement, the fit done again).
//!
//! The fit is Hunter's minorization–maximization (2004). So that a player who won or lost every game still has a
//! finite rating, each player is given one drawn game against every other (a weak prior, negligible once the
//! pairings have tens of games each).

use crate::seed::splitmix64;
use serde::Serialize;

/// One game's result between two players (their indices), as the first player's score: 1 a win, ½ a draw, 0 a loss.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Played {
    /// The first player.
    pub first: usize,
    /// The second player.
    pub second: usize,
    /// The first player's score.
    pub score: f64,
}

/// A player's rating, with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The player's name.
    pub player: String,
    /// Its Elo rating, the anchor's being 0.
    pub elo: f64,
    /// The 2.5th percentile of the bootstrap's ratings.
    pub low: f64,
    /// The 97.5th percentile.
    pub high: f64,
    /// Games it played.
    pub games: usize,
    /// Its score in them (a draw half), as a share.
    pub score: f64,
}

/// The maximum-likelihood Elo ratings of `players` players from `games`, the `anchor`'s being 0.
pub fn fit(players: usize, games: &[Played], anchor: usize) -> Vec<f64> {
    // Wins (a draw half) and games of each pairing, with the prior's drawn game between every two players.
    let others = players.saturating_sub(1) as f64;
    let mut met: Vec<Vec<f64>> =
        (0..players).map(|i| (0..players).map(|j| if i == j { 0.0 } else { 1.0 }).collect()).collect();
    let mut scored = vec![vec![0.0; players]; players];
    for g in games {
        met[g.first][g.second] += 1.0;
        met[g.second][g.first] += 1.0;
        scored[g.first][g.second] += g.score;
        scored[g.second][g.first] += 1.0 - g.score;
    }
    // A pairing's score lies between none and all of its games; a game's luck-adjusted score may not (a player who
    // lost every game by a little bad luck scores below nothing), and the fit needs what a score can be.
    let wins: Vec<f64> = (0..players)
        .map(|i| 0.5 * others + (0..players).map(|j| scored[i][j].clamp(0.0, (met[i][j] - 1.0).max(0.0))).sum::<f64>())
        .collect();
    let mut gamma = vec![1.0; players];
    for _ in 0..10_000 {
        let mut change: f64 = 0.0;
        for i in 0..players {
            let denominator: f64 = (0..players).filter(|&j| j != i).map(|j| met[i][j] / (gamma[i] + gamma[j])).sum();
            let next = if denominator > 0.0 { wins[i] / denominator } else { gamma[i] };
            change = change.max((next / gamma[i]).ln().abs());
            gamma[i] = next;
        }
        // The model fixes ratings up to a common factor: keep the anchor at 1 so the numbers stay tame.
        let a = gamma.get(anchor).copied().unwrap_or(1.0);
        gamma.iter_mut().for_each(|g| *g /= a);
        if change < 1e-10 {
            break;
        }
    }
    gamma.iter().map(|g| 400.0 * g.log10()).collect()
}

/// Every player's rating with its 95% bootstrap interval (`resamples` resamplings, seeded by `seed`), the
/// `anchor`'s rating being 0.
pub fn ratings(names: &[String], games: &[Played], anchor: usize, resamples: usize, seed: u64) -> Vec<Rating> {
    let players = names.len();
    let elo = fit(players, games, anchor);
    // The games of each pairing, resampled within the pairing so that every bootstrap has the same schedule.
    let mut pairings: Vec<Vec<Played>> = Vec::new();
    for g in games {
        match pairings.iter_mut().find(|p| p[0].first == g.first && p[0].second == g.second) {
            Some(p) => p.push(*g),
            None => pairings.push(vec![*g]),
        }
    }
    let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); players];
    let mut state = seed;
    let mut sample = Vec::with_capacity(games.len());
    for _ in 0..resamples {
        sample.clear();
        for p in &pairings {
            for _ in 0..p.len() {
                state = splitmix64(state);
                sample.push(p[(state % p.len() as u64) as usize]);
            }
        }
        for (i, r) in fit(players, &sample, anchor).into_iter().enumerate() {
            draws[i].push(r);
        }
    }
    (0..players)
        .map(|i| {
            let (played, score) = games.iter().fold((0, 0.0), |(n, s), g| {
                if g.first == i {
                    (n + 1, s + g.score)
                } else if g.second == i {
                    (n + 1, s + 1.0 - g.score)
                } else {
                    (n, s)
                }
            });
            draws[i].sort_by(f64::total_cmp);
            let at = |q: f64| draws[i].get(((draws[i].len() as f64 - 1.0) * q).round() as usize).copied();
            Rating {
                player: names[i].clone(),
                elo: elo[i],
                low: at(0.025).unwrap_or(elo[i]),
                high: at(0.975).unwrap_or(elo[i]),
                games: played,
                // Within what a score can be (luck-adjusted games may fall outside it).
                score: if played > 0 { (score / played as f64).clamp(0.0, 1.0) } else { 0.0 },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` games between two players, the first scoring `wins` of them (the rest losses).
    fn pairing(first: usize, second: usize, n: usize, wins: usize) -> Vec<Played> {
        (0..n).map(|k| Played { first, second, score: if k < wins { 1.0 } else { 0.0 } }).collect()
    }

    #[test]
    fn a_three_to_one_score_is_about_191_elo() {
        // 1 / (1 + 10^(−d/400)) = 0.75 gives d = 400 log10 3 ≈ 190.8; the prior's draw pulls it in a little.
        let elo = fit(2, &pairing(0, 1, 400, 300), 1);
        assert_eq!(elo[1], 0.0, "the anchor");
        assert!((elo[0] - 190.8).abs() < 2.0, "{elo:?}");
    }

    #[test]
    fn ratings_order_the_players_and_intervals_hold_the_estimate() {
        let names = ["weak", "middling", "strong"].map(String::from);
        let mut games = pairing(1, 0, 60, 45);
        games.extend(pairing(2, 1, 60, 45));
        games.extend(pairing(2, 0, 60, 57));
        let r = ratings(&names, &games, 0, 200, 7);
        assert_eq!(r[0].elo, 0.0);
        assert!(r[0].elo < r[1].elo && r[1].elo < r[2].elo, "{r:?}");
        for x in &r {
            assert!(x.low <= x.elo && x.elo <= x.high, "{x:?}");
            assert_eq!(x.games, 120);
        }
        assert!(r[2].high - r[2].low > 20.0, "sixty games a pairing leave a wide interval: {r:?}");
        assert_eq!(ratings(&names, &games, 0, 200, 7), r, "the same seed, the same intervals");
    }

    #[test]
    fn a_player_who_won_every_game_is_rated_finitely() {
        let elo = fit(2, &pairing(0, 1, 20, 20), 1);
        assert!(elo[0].is_finite() && elo[0] > 300.0, "{elo:?}");
    }

    #[test]
    fn scores_below_nothing_are_held_to_what_a_pairing_can_score() {
        // Luck-adjusted games: the first player lost every game and its luck-adjusted scores fall below nothing.
        let games: Vec<Played> = (0..20).map(|_| Played { first: 0, second: 1, score: -0.1 }).collect();
        let elo = fit(2, &games, 1);
        assert!(elo[0].is_finite() && elo[0] < -300.0, "{elo:?}");
        assert_eq!(elo, fit(2, &pairing(0, 1, 20, 0), 1), "as if it had scored nothing");
        let r = ratings(&["a".into(), "b".into()], &games, 1, 50, 3);
        assert!(r.iter().all(|x| x.elo.is_finite() && x.low.is_finite() && x.high.is_finite()), "{r:?}");
        assert_eq!((r[0].score, r[1].score), (0.0, 1.0), "scores within what a score can be");
    }
}
