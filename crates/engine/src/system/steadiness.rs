//! Modifiers to the hit-result roll (`[[result_modifiers]]`): a variant's numbers added to the strength a hit
//! target's roll is tested against when their conditions hold ("veterans in cover test at +1"), decided when the
//! attack is assessed, so that the battle and the odds test the same number (docs/variants.md).

use super::condition::{AttackFacts, Condition};

/// The most `[[result_modifiers]]` a combat system may have (one bit each in an assessment's record of them).
pub const MAX_RESULT_MODIFIERS: usize = 8;

/// A modifier to the hit-result roll: `value` added to the strength the target's roll is tested against (R7.1)
/// when `when` holds; +1 helps the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultModifier {
    /// Its id, cited in the log and the odds (`H1`).
    pub id: String,
    /// What it is, in words.
    pub name: String,
    /// What it adds to the strength tested, −3..=3.
    pub value: i8,
    /// When it applies: a condition over the attack's facts, before the dice.
    pub when: Condition,
    /// The condition as written.
    pub when_text: String,
}

/// The result modifiers of `modifiers` that apply to an attack with these facts: a bit per modifier, by its place,
/// and their sum.
pub fn result_modifiers(modifiers: &[ResultModifier], facts: &AttackFacts) -> (u8, i8) {
    let mut applied = 0u8;
    let mut total = 0i8;
    for (i, m) in modifiers.iter().enumerate().take(MAX_RESULT_MODIFIERS) {
        if m.when.holds(facts) {
            applied |= 1 << i;
            total += m.value;
        }
    }
    (applied, total)
}
