//! The cards of the initiative deck (docs/rules.md R3.1–R3.3, R3.6): what chance draws and events report, apart
//! from the deck that deals them ([`crate::Deck`]), so that neither needs the battle.

use crate::unit::Side;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A card of the initiative deck.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Card {
    /// A side's card: that side activates up to `value` units (R3.4).
    Side {
        /// Whose colour.
        side: Side,
        /// How many activations.
        value: u8,
    },
    /// Ends the turn (R3.6).
    Joker,
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Side { side, value } => write!(f, "{side:?}{value}"),
            Card::Joker => f.write_str("Joker"),
        }
    }
}
