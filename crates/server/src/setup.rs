//! How a game is set up: its mode and who plays each side. Below the store, the views and the sessions, which all
//! use these types (so the dependencies between them run one way).

use serde::{Deserialize, Serialize};

/// How a game is played.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// One human against the computer.
    Computer,
    /// Two humans on one screen: one token acts for both sides.
    Hotseat,
    /// Two humans on two machines: a token per side.
    TwoPlayers,
    /// The computer against itself; only a spectator token.
    Watch,
}

impl Mode {
    /// Its name in the API: `computer`, `hotseat`, `two_players` or `watch`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Computer => "computer",
            Mode::Hotseat => "hotseat",
            Mode::TwoPlayers => "two_players",
            Mode::Watch => "watch",
        }
    }
}

/// Who plays a side.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlayerKind {
    /// A person, through a token.
    Human,
    /// A computer player of `pacw_ai::player`.
    Computer {
        /// Its name, such as `greedy` or `mcts:500`.
        name: String,
    },
}
