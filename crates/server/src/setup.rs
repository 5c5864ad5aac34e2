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
}
