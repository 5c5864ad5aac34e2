//! What one player of a two-player game has put to the other and waits to hear back on: a draw offered
//! (session/draw.rs) and a take-back asked for (session/takeback.rs). Stored with the game (the `offers` column,
//! schema 10) whenever it changes, so that a restart forgets no offer. Below the store and the sessions, which both
//! use these types.

use pacw_engine::Side;
use serde::{Deserialize, Serialize};

/// A draw offered and not yet answered.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct DrawOffer {
    /// The side whose player offered it.
    pub by: Side,
}

/// A take-back asked for and not yet answered.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Takeback {
    /// The side that asked.
    pub by: Side,
    /// How many decisions it takes back (the asker's last, and the other's after it).
    pub remove: usize,
    /// The game's decisions when it was asked: any move since makes it stale.
    pub at: usize,
}

/// The offers of a game waiting for an answer.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Offers {
    /// A draw offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawOffer>,
    /// A take-back asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback: Option<Takeback>,
}

impl Offers {
    /// Whether nothing waits for an answer (stored as no offers at all).
    pub fn is_empty(&self) -> bool {
        self.draw.is_none() && self.takeback.is_none()
    }
}
