//! Chance events and their exact probabilities (docs/rules.md R9).

use crate::card::Card;
use num_rational::Ratio;
use serde::{Deserialize, Serialize};
use std::fmt;

/// An exact probability.
pub type Prob = Ratio<u32>;

/// The outcome of a chance event (R9.1).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A D6 came up this number.
    Die(u8),
    /// This card was drawn.
    Card(Card),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Die(n) => write!(f, "die {n}"),
            Outcome::Card(c) => write!(f, "card {c}"),
        }
    }
}

/// The six faces of a D6, each 1/6.
pub fn d6() -> impl Iterator<Item = (Outcome, Prob)> {
    (1..=6).map(|n| (Outcome::Die(n), Prob::new(1, 6)))
}
