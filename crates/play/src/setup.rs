//! How a game is set up: its mode, who plays each side, and what a player (a link, or the browser's own game) may
//! do.

use pacw_engine::Side;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The seed a computer player gets for the decision after `decisions`: fixed by the game, so a restart plays on
/// the same way, but drawn through ChaCha under a key of its own, so the computer's choices reveal nothing of the
/// dice's seed.
pub fn player_seed(game_seed: u64, decisions: usize) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed ^ 0x243f_6a88_85a3_08d3);
    rng.set_stream(decisions as u64);
    rng.random()
}

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

/// What a player may do in a game: a token's role on the server, or the browser's own game's.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Acts for one side.
    Side(Side),
    /// Acts for both sides (hot-seat).
    Both,
    /// Only watches.
    Spectator,
}

impl Role {
    /// Whether this token acts for `side`.
    pub fn controls(self, side: Side) -> bool {
        match self {
            Role::Side(s) => s == side,
            Role::Both => true,
            Role::Spectator => false,
        }
    }

    /// The sides it acts for.
    pub fn sides(self) -> Vec<Side> {
        Side::BOTH.into_iter().filter(|&s| self.controls(s)).collect()
    }

    /// Its name in the API: `A`, `B` (a side), `hotseat` or `spectator`.
    pub fn name(self) -> &'static str {
        match self {
            Role::Side(Side::A) => "A",
            Role::Side(Side::B) => "B",
            Role::Both => "hotseat",
            Role::Spectator => "spectator",
        }
    }
}
