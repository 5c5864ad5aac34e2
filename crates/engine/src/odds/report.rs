//! The odds of an attack as every program of pacw writes them (the API, the web app, `pacw odds --json`): one
//! serialised shape, with the modifiers named as the game's combat system names them.

use super::{AttackOdds, AttackResult};
use crate::chance::Prob;
use crate::system::CombatSystem;
use serde::Serialize;
use std::collections::BTreeMap;

/// A to-hit modifier as written out.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct ModifierReport {
    /// The id of the rule it comes from (a variant's own modifier: the id its file gives it).
    pub rule: String,
    /// Its effect on the die: +1 or −1 by the rules, or what the options `modifier.*` set.
    pub value: i8,
    /// In words.
    pub reason: String,
}

/// The exact odds of an attack, as written out (R6.4, R7).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct OddsReport {
    /// The target's unit id.
    pub target: u8,
    /// Whether it is a charge (R6.1).
    pub charge: bool,
    /// The distance.
    pub distance: u8,
    /// The number needed on the die (R6.4).
    pub needed: u8,
    /// The modifiers with their rule ids.
    pub modifiers: Vec<ModifierReport>,
    /// The target's strength (R2.2).
    pub target_strength: u8,
    /// A variant's modifiers to the hit-result roll that apply (`[[result_modifiers]]`), each added to the strength
    /// the target's roll is tested against; absent where none does.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub result_modifiers: Vec<ModifierReport>,
    /// The number the target's hit-result roll is tested against (R7.1): its strength with the result modifiers
    /// added, at least 0; the strength itself where none applies.
    pub tested_strength: u8,
    /// Whether the target is shaken now.
    pub target_shaken: bool,
    /// Whether the target has no square to retreat to (R7.3, R7.4).
    pub retreat_blocked: bool,
    /// What a blocked retreat becomes (option `blocked_retreat`, R7.4).
    pub blocked_retreat: &'static str,
    /// Exact fractions such as `"1/6"`: `miss`, `shaken`, `retreat`, `destroyed`, `stand` and, where a variant's table
    /// has hits that change nothing, `no_effect` (these sum to 1), and `hit`.
    pub fractions: BTreeMap<&'static str, String>,
    /// The same as decimals, for bars and sorting.
    pub decimals: BTreeMap<&'static str, f64>,
    /// What may befall the attacker (a variant's `[[after_attack]]`), as exact fractions of `shaken`, `advances`,
    /// `destroyed` and `unchanged`, with the rules that may apply; absent where nothing can.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attacker: Option<AttackerReport>,
}

/// What may befall the attacker, as written out.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct AttackerReport {
    /// Exact fractions: `shaken`, `advances`, `destroyed`, `unchanged` (shaken and advances may come together).
    pub fractions: BTreeMap<&'static str, String>,
    /// The same as decimals.
    pub decimals: BTreeMap<&'static str, f64>,
    /// The after-attack rules that may apply to this attack, as "A1 failed charge".
    pub rules: Vec<String>,
}

/// A probability as a decimal.
pub fn decimal(p: Prob) -> f64 {
    *p.numer() as f64 / *p.denom() as f64
}

impl AttackOdds {
    /// The odds as written out, the modifiers named by `system` (a variant's own by the names its file gives them;
    /// `None`: the standard rules).
    pub fn report(&self, system: Option<&CombatSystem>) -> OddsReport {
        let a = &self.assessment;
        let mut pairs = vec![
            ("miss", self.miss),
            ("shaken", self.shaken),
            ("retreat", self.retreat),
            ("destroyed", self.destroyed),
            ("stand", self.stand),
            ("hit", self.hit()),
        ];
        if self.has_no_effect() {
            pairs.push(("no_effect", self.no_effect));
        }
        OddsReport {
            target: a.target.0,
            charge: a.charge,
            distance: a.distance,
            needed: a.needed,
            modifiers: a
                .modifiers
                .applied()
                .map(|m| {
                    let (rule, reason) = match system {
                        Some(system) => system.describe(m.modifier),
                        None => (m.modifier.rule().to_string(), m.modifier.reason()),
                    };
                    ModifierReport { rule, value: m.value, reason }
                })
                .collect(),
            target_strength: a.strength,
            result_modifiers: self.result_modifiers(system),
            tested_strength: a.tested_strength(),
            target_shaken: a.target_shaken,
            retreat_blocked: self.retreat_path.is_blocked(),
            blocked_retreat: self.blocked_retreat.name(),
            fractions: pairs.iter().map(|&(k, p)| (k, p.to_string())).collect(),
            decimals: pairs.iter().map(|&(k, p)| (k, decimal(p))).collect(),
            attacker: self.attacker.any().then(|| {
                let o = &self.attacker;
                let pairs = [
                    ("shaken", o.shaken),
                    ("advances", o.advances),
                    ("destroyed", o.destroyed),
                    ("unchanged", o.unchanged),
                ];
                AttackerReport {
                    fractions: pairs.iter().map(|&(k, p)| (k, p.to_string())).collect(),
                    decimals: pairs.iter().map(|&(k, p)| (k, decimal(p))).collect(),
                    rules: self.attacker_rules(system),
                }
            }),
        }
    }

    /// The result modifiers of `system` that apply to this attack (`[[result_modifiers]]`), as reported.
    pub fn result_modifiers(&self, system: Option<&CombatSystem>) -> Vec<ModifierReport> {
        let mask = self.assessment.result_modifiers;
        let all = system.map_or(&[][..], |s| s.result_modifiers());
        all.iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, m)| ModifierReport { rule: m.id.clone(), value: m.value, reason: m.name.clone() })
            .collect()
    }

    /// The after-attack rules of `system` that may apply to this attack, whatever its dice, as "A1 failed charge".
    pub fn attacker_rules(&self, system: Option<&CombatSystem>) -> Vec<String> {
        let rules = system.map_or(&[][..], |s| s.after_attack());
        let mut places: Vec<u8> =
            AttackResult::ALL.into_iter().flat_map(|r| self.assessment.aftermath.rules(r)).collect();
        places.sort_unstable();
        places.dedup();
        places.iter().filter_map(|&i| rules.get(i as usize)).map(|r| format!("{} {}", r.id, r.name)).collect()
    }
}
