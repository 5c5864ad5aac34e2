//! The exact odds of an attack as the API gives them (R6.4, R7): the number needed, the modifiers with their rule
//! ids, and each result's chance as a fraction and a decimal. Used by the views, the board and the luck ledger.

use pacw_engine::odds::AttackOdds;
use pacw_engine::{Prob, Scenario};
use serde::Serialize;
use std::collections::BTreeMap;

/// A to-hit modifier.
#[derive(Serialize, Clone, Debug)]
pub struct ModifierView {
    /// The id of the rule it comes from (a variant's own modifier: the id its file gives it).
    pub rule: String,
    /// Its effect on the die: +1 or −1 by the rules, or what the options `modifier.*` set.
    pub value: i8,
    /// In words.
    pub reason: String,
}

/// The exact odds of an attacking order (R6.4, R7).
#[derive(Serialize, Clone, Debug)]
pub struct OddsView {
    /// The target.
    pub target: u8,
    /// Whether it is a charge (R6.1).
    pub charge: bool,
    /// The distance.
    pub distance: u8,
    /// The number needed on the die (R6.4).
    pub needed: u8,
    /// The modifiers with their rule ids.
    pub modifiers: Vec<ModifierView>,
    /// The target's strength (R2.2).
    pub target_strength: u8,
    /// Whether the target is shaken now.
    pub target_shaken: bool,
    /// Whether the target has no square to retreat to (R7.3, R7.4).
    pub retreat_blocked: bool,
    /// Exact fractions: `miss`, `shaken`, `retreat`, `destroyed`, `stand` (summing to 1) and `hit`.
    pub fractions: BTreeMap<&'static str, String>,
    /// The same as decimals, for bars and sorting.
    pub decimals: BTreeMap<&'static str, f64>,
}

/// A probability as a decimal.
pub fn decimal(p: Prob) -> f64 {
    *p.numer() as f64 / *p.denom() as f64
}

/// The view of an attack's odds in a game of `scenario` (whose combat system names its modifiers).
pub fn odds_view(o: &AttackOdds, scenario: &Scenario) -> OddsView {
    let a = &o.assessment;
    let mut pairs = vec![
        ("miss", o.miss),
        ("shaken", o.shaken),
        ("retreat", o.retreat),
        ("destroyed", o.destroyed),
        ("stand", o.stand),
        ("hit", o.hit()),
    ];
    if o.has_no_effect() {
        pairs.push(("no_effect", o.no_effect));
    }
    OddsView {
        target: a.target.0,
        charge: a.charge,
        distance: a.distance,
        needed: a.needed,
        modifiers: a
            .modifiers
            .applied()
            .map(|m| {
                let (rule, reason) = scenario.describe_modifier(m.modifier);
                ModifierView { rule, value: m.value, reason }
            })
            .collect(),
        target_strength: a.strength,
        target_shaken: a.target_shaken,
        retreat_blocked: o.retreat_path.is_blocked(),
        fractions: pairs.iter().map(|&(k, p)| (k, p.to_string())).collect(),
        decimals: pairs.iter().map(|&(k, p)| (k, decimal(p))).collect(),
    }
}
