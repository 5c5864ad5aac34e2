//! Orders a variant forbids (`[[restrictions]]`): an attack whose facts before the dice meet a restriction's
//! condition, or an order whose facts do (a move that closes on the enemy, a Hold in the open), is refused with the
//! designer's id and name, and left out of the legal actions (docs/variants.md). The battle asks one predicate for
//! both ([`first_forbidding`] for attacks, [`first_forbidding_order`] for orders), so that a restriction is written
//! once. Which of the two a restriction forbids is settled by the facts its condition names ([`Over`]).

use super::condition::{AttackFacts, Condition, OrderFacts, Over};

/// The most `[[restrictions]]` a combat system may have.
pub const MAX_RESTRICTIONS: usize = 8;

/// A restriction: an attack is not allowed when `when` holds before its dice, or (a condition over an order's
/// facts) an order is not allowed when `when` holds of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restriction {
    /// Its id, cited when an order is refused (`M1`).
    pub id: String,
    /// What it says, in words ("shaken troops will not charge").
    pub name: String,
    /// When an attack or an order is forbidden: a condition over the attack's facts, or over the order's.
    pub when: Condition,
    /// The condition as written.
    pub when_text: String,
    /// What it forbids: attacks or orders, as its condition's facts say.
    pub over: Over,
}

impl Restriction {
    /// What it forbids, in words for the rules pages: `attacks` or `orders`.
    pub const fn forbids(&self) -> &'static str {
        match self.over {
            Over::Attack => "attacks",
            Over::Order => "orders",
        }
    }
}

/// The place of the first of `restrictions` that forbids an attack with these facts, if any (restrictions on orders
/// are not asked).
pub fn first_forbidding(restrictions: &[Restriction], facts: &AttackFacts) -> Option<u8> {
    restrictions.iter().position(|r| r.over == Over::Attack && r.when.holds(facts)).map(|i| i as u8)
}

/// The place of the first of `restrictions` that forbids an order with these facts, if any (restrictions on attacks
/// are not asked).
pub fn first_forbidding_order(restrictions: &[Restriction], facts: &OrderFacts) -> Option<u8> {
    restrictions.iter().position(|r| r.over == Over::Order && r.when.holds_for_order(facts)).map(|i| i as u8)
}
