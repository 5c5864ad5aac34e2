//! How a game is set up: its mode and who plays each side (shared with the browser build, in `pacw_play::setup`),
//! and who holds each seat. Below the store and the sessions, which all use these types (so the dependencies between
//! them run one way).

use serde::{Deserialize, Serialize};

pub use pacw_play::setup::{Mode, PlayerKind};

/// Who holds a side's seat in a game: the identity behind a [`PlayerKind`]. A person is a guest, known only by the
/// secret token they play through, or an account (which still plays through the token, so links keep working), so
/// that ratings and "your games" follow a person across games and devices. Stored with the game (the `seats`
/// column), never shown by the API (a seat holds its token).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Seat {
    /// A person without an account, who plays through this token (a side's, or the hot-seat's for both seats).
    Guest {
        /// The token.
        token: String,
    },
    /// A person with an account (accounts.rs), who plays through this token.
    Account {
        /// The account.
        account: AccountId,
        /// The token that plays the side.
        token: String,
    },
    /// A computer player of `pacw_ai::player`.
    Computer {
        /// Its name, such as `greedy`.
        name: String,
    },
}

/// An account's number in the database.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(transparent)]
pub struct AccountId(pub i64);

/// Whether a game counts for the ratings (Glicko-2, ratings.rs).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rating {
    /// Played for fun: no rating moves, and a take-back is allowed.
    #[default]
    Casual,
    /// Rated: the result moves the ratings of both players (accounts and computers, never guests); nothing is taken
    /// back.
    Rated,
}

/// How fast a two-player game is played, chosen when it is posted or made: live (both at the board, no deadline), or
/// a number of days for each move (the stretch of decisions a side makes before the move passes to the other).
/// When a move's days have passed the waiting player may claim the win (session/deadline.rs). Stored with the game
/// (the `pace` column); a game of before paces were kept is live.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub enum Pace {
    /// Both players at the board at once: no deadline.
    #[default]
    #[serde(rename = "live")]
    Live,
    /// A day for each move (a posting of before, `daily`, is this).
    #[serde(rename = "1d", alias = "daily")]
    OneDay,
    /// Three days for each move (a posting of before, `slow`, is this).
    #[serde(rename = "3d", alias = "slow")]
    ThreeDays,
    /// A week for each move.
    #[serde(rename = "7d")]
    SevenDays,
}

/// A day in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

impl Pace {
    /// Every pace, quickest first.
    pub const ALL: [Pace; 4] = [Pace::Live, Pace::OneDay, Pace::ThreeDays, Pace::SevenDays];

    /// The days a player has for each move; `None` when live.
    pub fn days(self) -> Option<u32> {
        match self {
            Pace::Live => None,
            Pace::OneDay => Some(1),
            Pace::ThreeDays => Some(3),
            Pace::SevenDays => Some(7),
        }
    }

    /// The time a player has for each move, in milliseconds; `None` when live.
    pub fn allowance_ms(self) -> Option<i64> {
        self.days().map(|d| i64::from(d) * DAY_MS)
    }

    /// How long before the deadline the player to move is reminded: a quarter of the allowance (6 hours of a day, 18
    /// of three days), at most a day.
    pub fn reminder_ms(self) -> Option<i64> {
        self.allowance_ms().map(|a| (a / 4).min(DAY_MS))
    }

    /// The name the API and the database use: `live`, `1d`, `3d` or `7d`.
    pub fn name(self) -> &'static str {
        match self {
            Pace::Live => "live",
            Pace::OneDay => "1d",
            Pace::ThreeDays => "3d",
            Pace::SevenDays => "7d",
        }
    }

    /// The pace of a name as [`Pace::name`] gives it (or as postings of before wrote it).
    pub fn named(name: &str) -> Option<Pace> {
        match name {
            "daily" => Some(Pace::OneDay),
            "slow" => Some(Pace::ThreeDays),
            _ => Pace::ALL.into_iter().find(|p| p.name() == name),
        }
    }

    /// In words: `live`, `1 day a move`, `3 days a move`.
    pub fn words(self) -> String {
        match self.days() {
            None => "live".to_string(),
            Some(1) => "1 day a move".to_string(),
            Some(d) => format!("{d} days a move"),
        }
    }
}

impl Seat {
    /// Who plays it: a person or the computer.
    pub fn kind(&self) -> PlayerKind {
        match self {
            Seat::Guest { .. } | Seat::Account { .. } => PlayerKind::Human,
            Seat::Computer { name } => PlayerKind::Computer { name: name.clone() },
        }
    }

    /// The account holding this seat, if one does.
    pub fn account(&self) -> Option<AccountId> {
        match self {
            Seat::Account { account, .. } => Some(*account),
            _ => None,
        }
    }

    /// The key of this seat's rating: `account:7` or `computer:greedy`; a guest has none.
    pub fn rating_key(&self) -> Option<String> {
        match self {
            Seat::Guest { .. } => None,
            Seat::Account { account, .. } => Some(format!("account:{}", account.0)),
            Seat::Computer { name } => Some(format!("computer:{name}")),
        }
    }

    /// The seats of a game as made before seats were stored: a person's seat is held by the token that plays that
    /// side (its own, else the hot-seat's). `None` when a person's side has no such token, which no game has.
    pub fn of(players: &[PlayerKind; 2], tokens: &crate::tokens::Tokens) -> Option<[Seat; 2]> {
        let seat = |i: usize| match &players[i] {
            PlayerKind::Computer { name } => Some(Seat::Computer { name: name.clone() }),
            PlayerKind::Human => {
                let own = if i == 0 { &tokens.a } else { &tokens.b };
                own.as_ref().or(tokens.hotseat.as_ref()).map(|t| Seat::Guest { token: t.clone() })
            }
        };
        Some([seat(0)?, seat(1)?])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Tokens;

    #[test]
    fn a_person_s_seat_is_held_by_the_token_that_plays_it() {
        let computer = PlayerKind::Computer { name: "greedy".into() };
        let tokens = Tokens { b: Some("b".into()), spectator: "s".into(), ..Tokens::default() };
        let seats = Seat::of(&[computer.clone(), PlayerKind::Human], &tokens).unwrap();
        assert_eq!(seats, [Seat::Computer { name: "greedy".into() }, Seat::Guest { token: "b".into() }]);
        assert_eq!(seats.each_ref().map(Seat::kind), [computer, PlayerKind::Human]);
        let hotseat = Tokens { hotseat: Some("h".into()), spectator: "s".into(), ..Tokens::default() };
        let seats = Seat::of(&[PlayerKind::Human, PlayerKind::Human], &hotseat).unwrap();
        assert_eq!(seats[0], seats[1]);
        // A person's side without a token to hold it: no seats (the row is reported, not guessed).
        assert_eq!(Seat::of(&[PlayerKind::Human, PlayerKind::Human], &tokens), None);
    }

    #[test]
    fn a_pace_is_named_as_the_api_writes_it_and_the_postings_of_before_still_read() {
        for pace in Pace::ALL {
            assert_eq!(Pace::named(pace.name()), Some(pace));
            assert_eq!(serde_json::to_string(&pace).unwrap(), format!("\"{}\"", pace.name()));
        }
        assert_eq!(serde_json::from_str::<Pace>("\"daily\"").unwrap(), Pace::OneDay);
        assert_eq!(serde_json::from_str::<Pace>("\"slow\"").unwrap(), Pace::ThreeDays);
        assert!(serde_json::from_str::<Pace>("\"2d\"").is_err());
        assert_eq!(Pace::Live.allowance_ms(), None);
        assert_eq!(Pace::ThreeDays.allowance_ms(), Some(3 * DAY_MS));
        assert_eq!(Pace::OneDay.reminder_ms(), Some(DAY_MS / 4));
        assert_eq!(Pace::SevenDays.reminder_ms(), Some(DAY_MS), "at most a day ahead");
        assert_eq!(Pace::SevenDays.words(), "7 days a move");
    }
}
