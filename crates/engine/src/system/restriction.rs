//! Orders a variant forbids (`[[restrictions]]`): an attack whose facts meet a restriction's condition is refused
//! with the designer's id and name, and left out of the legal actions (docs/variants.md). The battle asks one
//! predicate for both ([`first_forbidding`]), so that a restriction is written once.

use super::condition::{AttackFacts, Condition};

/// The most `[[restrictions]]` a combat system may have.
pub const MAX_RESTRICTIONS: usize = 8;

/// A restriction: an attack is not allowed when `when` holds before its dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restriction {
    /// Its id, cited when an order is refused (`M1`).
    pub id: String,
    /// What it says, in words ("shaken troops will not charge").
    pub name: String,
    /// When an attack is forbidden: a condition over the attack's facts.
    pub when: Condition,
    /// The condition as written.
    pub when_text: String,
}

/// The place of the first of `restrictions` that forbids an attack with these facts, if any.
pub fn first_forbidding(restrictions: &[Restriction], facts: &AttackFacts) -> Option<u8> {
    restrictions.iter().position(|r| r.when.holds(facts)).map(|i| i as u8)
}
