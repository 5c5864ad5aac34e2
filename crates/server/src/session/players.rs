//! A player's page (their games on any device, finished and unfinished, their rating and results) and the
//! leaderboard (every rated player, accounts and computers).

use super::{Games, VacationView, link};
use crate::error::{ApiError, ApiResult};
use crate::setup::{Pace, Rating, Seat};
use crate::store::{AccountRecord, PlayerRating};
use pacw_engine::Side;
use serde::Serialize;

/// A rating as shown: rounded, with the player's record.
#[derive(Serialize, Debug, Clone)]
pub struct RatingView {
    /// The Glicko-2 rating, rounded.
    pub rating: i64,
    /// Its deviation, rounded: the rating is within about twice this, 95 times in 100.
    pub deviation: i64,
    /// Rated games won.
    pub wins: u32,
    /// Rated games lost.
    pub losses: u32,
    /// Rated games drawn.
    pub draws: u32,
}

impl RatingView {
    fn of(r: &PlayerRating) -> RatingView {
        RatingView {
            rating: r.rating.round() as i64,
            deviation: r.deviation.round() as i64,
            wins: r.wins,
            losses: r.losses,
            draws: r.draws,
        }
    }
}

/// One of a player's games.
#[derive(Serialize, Debug)]
pub struct PlayerGame {
    /// The game's id.
    pub id: String,
    /// The battle's title.
    pub title: String,
    /// The player's side and its name.
    pub side: Side,
    /// The side's name.
    pub side_name: String,
    /// The opponent: an account's name, `computer (NAME)`, or `a guest`.
    pub opponent: String,
    /// `in_progress` or `finished`.
    pub status: &'static str,
    /// Whether the game stands at the move of the page's player (whoever looks at the page).
    pub your_move: bool,
    /// `won`, `lost` or `drawn`, once finished.
    pub outcome: Option<&'static str>,
    /// The result in words, once finished.
    pub result_text: Option<String>,
    /// Rated or casual.
    pub rating: Rating,
    /// Last change (ms since 1970).
    pub updated_at: i64,
    /// `live`, or days for each move: `1d`, `3d`, `7d`.
    pub pace: Pace,
    /// What the clock of the side to act holds before its deadline (ms; 0 once passed): only with a pace of days.
    pub left_ms: Option<i64>,
    /// While the player of the side to act is on vacation (their clock stands still): when it ends.
    pub vacation_until: Option<i64>,
    /// The player's own link: shown to the player only.
    pub link: Option<String>,
}

/// A player's page.
#[derive(Serialize, Debug)]
pub struct PlayerPage {
    /// The name.
    pub name: String,
    /// Whether the viewer is this player.
    pub yours: bool,
    /// The rating, once they have played a rated game.
    pub rating: Option<RatingView>,
    /// While they are on vacation: when it ends (ms since 1970). Shown to everyone.
    pub vacation_until: Option<i64>,
    /// Their vacation days this year: shown to themselves only.
    pub vacation: Option<VacationView>,
    /// Their games, the most recently changed first.
    pub games: Vec<PlayerGame>,
}

/// A row of the leaderboard.
#[derive(Serialize, Debug)]
pub struct LeaderRow {
    /// The player's name (an account's, or a computer player's).
    pub name: String,
    /// `account` or `computer`.
    pub kind: &'static str,
    /// The rating and record.
    #[serde(flatten)]
    pub rating: RatingView,
}

impl Games {
    /// The name an opponent's seat is shown by.
    fn seat_name(&self, seat: &Seat) -> String {
        match seat {
            Seat::Guest { .. } => "a guest".into(),
            Seat::Computer { name } => format!("computer ({name})"),
            Seat::Account { account, .. } => {
                self.store.account(*account).ok().flatten().map_or_else(|| "an account".into(), |a| a.name)
            }
        }
    }

    /// The page of the player called `name`; their own links only when `viewer` is them.
    ///
    /// # Errors
    /// When no account has the name (404), or SQLite fails (500).
    pub fn player_page(&self, name: &str, viewer: Option<&AccountRecord>) -> ApiResult<PlayerPage> {
        let account = self
            .store
            .account_named(name)
            .map_err(|e| ApiError::Internal(e.to_string()))?
            .ok_or_else(|| ApiError::NotFound(format!("no player is called '{name}'")))?;
        let yours = viewer.is_some_and(|v| v.id == account.id);
        let rating = self
            .store
            .rating(&format!("account:{}", account.id.0))
            .map_err(|e| ApiError::Internal(e.to_string()))?
            .map(|r| RatingView::of(&r));
        let entries: Vec<_> = self.by_id.read().unwrap_or_else(|p| p.into_inner()).values().cloned().collect();
        let mut games = Vec::new();
        for e in entries {
            let (seats, summary, clock) = {
                let st = e.lock();
                (st.seats.clone(), st.summary.clone(), self.time_left(&e, &st))
            };
            let Some(side) = Side::BOTH.into_iter().find(|s| seats[s.index()].account() == Some(account.id)) else {
                continue;
            };
            let token = match &seats[side.index()] {
                Seat::Account { token, .. } => token.clone(),
                _ => continue,
            };
            let outcome = summary.result.map(|r| match r.winner {
                Some(w) if w == side => "won",
                Some(_) => "lost",
                None => "drawn",
            });
            games.push(PlayerGame {
                id: e.id.clone(),
                title: summary.title.clone(),
                side,
                side_name: summary.players[side.index()].name.clone(),
                opponent: self.seat_name(&seats[side.other().index()]),
                status: if summary.result.is_some() { "finished" } else { "in_progress" },
                your_move: summary.to_act == Some(side),
                outcome,
                result_text: summary.result_text.clone(),
                rating: e.rating,
                updated_at: summary.updated_at,
                pace: e.pace,
                left_ms: clock.map(|(left, _)| left),
                vacation_until: clock.and_then(|(_, until)| until),
                link: yours.then(|| link(&token)),
            });
        }
        games.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then_with(|| a.id.cmp(&b.id)));
        let vacation = yours.then(|| self.vacation_view(account.id));
        let vacation_until = self.on_vacation_until(account.id);
        Ok(PlayerPage { name: account.name, yours, rating, vacation_until, vacation, games })
    }

    /// Every rated player, the highest first.
    ///
    /// # Errors
    /// When SQLite fails (500).
    pub fn leaderboard(&self) -> ApiResult<Vec<LeaderRow>> {
        let ratings = self.store.ratings().map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(ratings
            .iter()
            .filter_map(|r| {
                let (kind, name) = match r.player.split_once(':')? {
                    ("computer", name) => ("computer", name.to_string()),
                    ("account", id) => {
                        let account = self.store.account(crate::setup::AccountId(id.parse().ok()?)).ok()??;
                        ("account", account.name)
                    }
                    _ => return None,
                };
                Some(LeaderRow { name, kind, rating: RatingView::of(r) })
            })
            .collect())
    }
}
