//! What an attack does to its attacker (`[[after_attack]]`): a variant's rules with a condition over the attack's
//! facts and its result ("a failed charge shakes the attacker"), decided once per attack when it is assessed, for
//! every result its dice may have, so that neither the battle nor the odds read a condition while the dice roll.

use super::condition::{AttackFacts, Condition};
use crate::attack::AttackResult;
use serde::{Deserialize, Serialize};

/// The most `[[after_attack]]` rules a combat system may have (one bit each in an [`Aftermath`]).
pub const MAX_AFTER_ATTACK: usize = 8;

/// What an after-attack rule does to the attacker.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackerEffect {
    /// It becomes shaken (R2.4).
    Shaken,
    /// It is destroyed, and counts towards its side's exhaustion (R8.1).
    Destroyed,
    /// After a charge whose target left its square (retreated or destroyed), it moves into that square, keeping its
    /// facing; after fire, or when the target is still there, nothing.
    Advance,
}

impl AttackerEffect {
    /// Every effect, in the order a variant file's messages list them.
    pub const ALL: [AttackerEffect; 3] = [AttackerEffect::Shaken, AttackerEffect::Destroyed, AttackerEffect::Advance];

    /// Its word in a variant file (`attacker = "shaken"`).
    pub const fn file_name(self) -> &'static str {
        match self {
            AttackerEffect::Shaken => "shaken",
            AttackerEffect::Destroyed => "destroyed",
            AttackerEffect::Advance => "advance",
        }
    }
}

/// An after-attack rule: when `when` holds after an attack's dice, `effect` befalls the attacker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AfterAttackRule {
    /// Its id, cited in the log, the odds and the reports as the standard rules' ids are (`A1`).
    pub id: String,
    /// What it is, in words.
    pub name: String,
    /// When it applies: a condition over the attack's facts and its `result`.
    pub when: Condition,
    /// The condition as written.
    pub when_text: String,
    /// What it does to the attacker.
    pub effect: AttackerEffect,
}

/// What one attack does to its attacker, for each result its dice may have: which after-attack rules change it
/// (a bit per rule, by its place among the system's) and what it comes to. Decided when the attack is assessed:
/// the rules in their order, the first that destroys the attacker ending the list, an advance only after a charge
/// whose target left its square (retreated or destroyed). Empty under the standard rules, which have none.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Aftermath {
    rules: [u8; AttackResult::ALL.len()],
    fates: [u8; AttackResult::ALL.len()],
}

const SHAKEN: u8 = 1;
const ADVANCES: u8 = 2;
const DESTROYED: u8 = 4;

impl Aftermath {
    /// What the rules of `rules` do to the attacker of an attack with these facts, for each result.
    pub fn of(rules: &[AfterAttackRule], facts: &AttackFacts) -> Aftermath {
        let mut aftermath = Aftermath::default();
        for (r, result) in AttackResult::ALL.into_iter().enumerate() {
            let facts = AttackFacts { result: Some(result), ..*facts };
            let vacated = matches!(result, AttackResult::Retreat | AttackResult::Destroyed);
            for (i, rule) in rules.iter().enumerate().take(MAX_AFTER_ATTACK) {
                if !rule.when.holds(&facts) {
                    continue;
                }
                let fate = match rule.effect {
                    AttackerEffect::Advance if !(facts.charge && vacated) => continue,
                    AttackerEffect::Advance => ADVANCES,
                    AttackerEffect::Shaken => SHAKEN,
                    AttackerEffect::Destroyed => DESTROYED,
                };
                aftermath.rules[r] |= 1 << i;
                if fate == DESTROYED {
                    aftermath.fates[r] = DESTROYED;
                    break;
                }
                aftermath.fates[r] |= fate;
            }
        }
        aftermath
    }

    /// Whether nothing befalls the attacker whatever the dice.
    pub fn is_empty(&self) -> bool {
        self.rules.iter().all(|&m| m == 0)
    }

    /// The places of the rules that change the attacker after `result`, in the system's order.
    pub fn rules(&self, result: AttackResult) -> impl Iterator<Item = u8> + use<> {
        let mask = self.rules[result as usize];
        (0..MAX_AFTER_ATTACK as u8).filter(move |i| mask & (1 << i) != 0)
    }

    /// What the attacker comes to after `result`.
    pub fn fate(&self, result: AttackResult) -> AttackerFate {
        let bits = self.fates[result as usize];
        AttackerFate { shaken: bits & SHAKEN != 0, advances: bits & ADVANCES != 0, destroyed: bits & DESTROYED != 0 }
    }
}

/// What becomes of an attacker after an attack's dice, by the after-attack rules. The default: nothing.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct AttackerFate {
    /// It is shaken (and not destroyed).
    pub shaken: bool,
    /// It advanced into its target's square (and is not destroyed).
    pub advances: bool,
    /// It is destroyed.
    pub destroyed: bool,
}

impl AttackerFate {
    /// Whether nothing befalls it.
    pub fn unchanged(&self) -> bool {
        *self == AttackerFate::default()
    }
}
