//! The arithmetic of an attack: to-hit modifiers and hit results (docs/rules.md R6.4, R7.1).
//!
//! These pure functions are the one place these rules live: the battle resolves real attacks with them and the
//! odds are computed from them.

use crate::map::Terrain;
use crate::options::{BlockedRetreat, StandardModifier};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a target is in cover (R6.3); cover is never counted twice.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    /// (a) it stands in woods, town or sunken road.
    Terrain(Terrain),
    /// (b) a charge against a target standing higher.
    Uphill,
    /// (c) shooting across a fence on the target's edge.
    Fence,
}

/// One to-hit modifier (R6.4).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Modifier {
    /// +1 the attacker has not moved this activation (not artillery).
    DidNotMove,
    /// +1 artillery at distance 1.
    Canister,
    /// +1 artillery firing again at the same unit in the same square, neither having moved.
    Ranging,
    /// +1 a charge from the target's flank square.
    FlankCharge,
    /// +1 a charge from the target's rear square.
    RearCharge,
    /// −1 the target is in cover.
    Cover(Cover),
    /// A modifier of a variant's own, by its place in the combat system's modifiers
    /// ([`crate::system::CombatSystem::modifiers`]): what it is and which rule it cites are the system's.
    Own(u8),
}

impl Modifier {
    /// Its value under `options` (their `modifier.*`, R6.4); `None` for a variant's own, whose value its combat
    /// system gives.
    pub const fn value_under(self, options: &crate::Options) -> Option<i8> {
        match self.standard() {
            Some(m) => Some(options.modifier.get(m)),
            None => None,
        }
    }

    /// Its effect on the die by the rules as written (R6.4); the options `modifier.*` may set another
    /// ([`Modifier::value_under`]), which [`Modifiers`] records with it.
    pub const fn default_value(self) -> i8 {
        match self {
            Modifier::Cover(_) => -1,
            _ => 1,
        }
    }

    /// The standard modifier it is, whose option `modifier.<id>` sets its value (R11); `None` for a variant's own.
    pub const fn standard(self) -> Option<StandardModifier> {
        Some(match self {
            Modifier::DidNotMove => StandardModifier::NotMoved,
            Modifier::Canister => StandardModifier::Canister,
            Modifier::Ranging => StandardModifier::Ranging,
            Modifier::FlankCharge | Modifier::RearCharge => StandardModifier::FlankRear,
            Modifier::Cover(_) => StandardModifier::Cover,
            Modifier::Own(_) => return None,
        })
    }

    /// The rule it cites (docs/rules.md); a variant's own modifier cites the id its file gives it, which only its
    /// combat system knows ([`crate::system::CombatSystem::describe`]): here `variant`.
    pub const fn rule(self) -> &'static str {
        match self {
            Modifier::Cover(Cover::Terrain(_)) => "R6.3a",
            Modifier::Cover(Cover::Uphill) => "R6.3b",
            Modifier::Cover(Cover::Fence) => "R6.3c",
            Modifier::Own(_) => "variant",
            _ => "R6.4",
        }
    }

    /// What it is, in words.
    pub fn reason(self) -> String {
        match self {
            Modifier::DidNotMove => "attacker did not move".into(),
            Modifier::Canister => "artillery at distance 1 (canister)".into(),
            Modifier::Ranging => "artillery ranging on the same target".into(),
            Modifier::FlankCharge => "charge from the target's flank".into(),
            Modifier::RearCharge => "charge from the target's rear".into(),
            Modifier::Cover(Cover::Terrain(t)) => format!("cover: {}", t.name()),
            Modifier::Cover(Cover::Uphill) => "cover: target uphill of the charge".into(),
            Modifier::Cover(Cover::Fence) => "cover: fence".into(),
            Modifier::Own(i) => format!("the variant's modifier {}", i + 1),
        }
    }
}

/// A modifier with the value it has in an attack: "R6.4 +1 attacker did not move".
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Applied {
    /// The modifier.
    pub modifier: Modifier,
    /// Its effect on the die (R6.4 or the options `modifier.*`).
    pub value: i8,
}

impl fmt::Display for Applied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:+} {}", self.modifier.rule(), self.value, self.modifier.reason())
    }
}

/// The most modifiers one attack can have: the standard rules apply at most four at once, a variant's system has at
/// most [`crate::system::MAX_MODIFIERS`].
pub const MAX_APPLIED: usize = crate::options::MAX_OWN_MODIFIERS;

/// The modifiers of one attack with their values, kept without allocation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Modifiers {
    items: [Option<(Modifier, i8)>; MAX_APPLIED],
}

impl Modifiers {
    /// Adds one at its value under the rules as written.
    pub fn push(&mut self, m: Modifier) {
        self.push_valued(m, m.default_value());
    }

    /// Adds one at `value`; a modifier worth 0 is not there at all (an option set it to 0 to remove it).
    pub fn push_valued(&mut self, m: Modifier, value: i8) {
        if value == 0 {
            return;
        }
        if let Some(slot) = self.items.iter_mut().find(|s| s.is_none()) {
            *slot = Some((m, value));
        }
    }

    /// The modifiers in the order they were found.
    pub fn iter(&self) -> impl Iterator<Item = Modifier> + '_ {
        self.items.iter().map_while(|m| m.map(|(m, _)| m))
    }

    /// The modifiers with their values.
    pub fn applied(&self) -> impl Iterator<Item = Applied> + '_ {
        self.items.iter().map_while(|m| m.map(|(modifier, value)| Applied { modifier, value }))
    }

    /// Their sum.
    pub fn total(&self) -> i8 {
        self.applied().map(|a| a.value).sum()
    }

    /// Whether `m` is among them.
    pub fn contains(&self, m: Modifier) -> bool {
        self.iter().any(|x| x == m)
    }
}

/// A modifier as events write it: its name alone at its rules' value (as saves always had it), or with the value
/// an option gave it.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum AppliedJson {
    Plain(Modifier),
    Valued { modifier: Modifier, value: i8 },
}

impl Serialize for Modifiers {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.applied().map(|a| {
            if a.value == a.modifier.default_value() {
                AppliedJson::Plain(a.modifier)
            } else {
                AppliedJson::Valued { modifier: a.modifier, value: a.value }
            }
        }))
    }
}

impl<'de> Deserialize<'de> for Modifiers {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let list = Vec::<AppliedJson>::deserialize(d)?;
        if list.len() > MAX_APPLIED {
            return Err(serde::de::Error::custom(format!("at most {MAX_APPLIED} modifiers")));
        }
        let mut m = Modifiers::default();
        for x in list {
            match x {
                AppliedJson::Plain(kind) => m.push(kind),
                AppliedJson::Valued { modifier, value } => m.push_valued(modifier, value),
            }
        }
        Ok(m)
    }
}

/// The number needed on a D6: the base (option `to_hit`, default 5) less the modifiers, kept within 2..=6
/// because a 6 always hits and a 1 always misses (R6.4).
///
/// ```
/// use pacw_engine::odds::needed;
/// assert_eq!(needed(5, 1), 4);
/// assert_eq!(needed(5, -2), 6);
/// assert_eq!(needed(5, 4), 2);
/// ```
pub fn needed(base: u8, total: i8) -> u8 {
    (base as i16 - total as i16).clamp(2, 6) as u8
}

/// Whether a roll hits when `needed` is required (R6.4).
pub fn hits(roll: u8, needed: u8) -> bool {
    roll >= needed
}

/// The result of a hit (R7.1), mildest first.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitResult {
    /// The hit changes nothing: never under the standard table, a variant's table may say so (`none`).
    NoEffect,
    /// The target becomes shaken.
    Shaken,
    /// The target retreats (and becomes shaken, R7.2).
    Retreat,
    /// The target is destroyed.
    Destroyed,
}

impl HitResult {
    /// Every result, mildest first.
    pub const ALL: [HitResult; 4] = [HitResult::NoEffect, HitResult::Shaken, HitResult::Retreat, HitResult::Destroyed];

    /// Its word in a variant file's `[results]` table.
    pub const fn file_name(self) -> &'static str {
        match self {
            HitResult::NoEffect => "none",
            other => other.name(),
        }
    }

    /// In words.
    pub const fn name(self) -> &'static str {
        match self {
            HitResult::NoEffect => "no effect",
            HitResult::Shaken => "shaken",
            HitResult::Retreat => "retreat",
            HitResult::Destroyed => "destroyed",
        }
    }
}

/// How an attack reaches its target (R6.1): fire from a distance, or a charge into the next square.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// Fire, from two or more squares away.
    Fire,
    /// A charge, at distance 1.
    Charge,
}

impl AttackKind {
    /// The kind of an attack that is a `charge` or not.
    pub const fn of(charge: bool) -> AttackKind {
        if charge { AttackKind::Charge } else { AttackKind::Fire }
    }

    /// Whether this is a charge.
    pub const fn is_charge(self) -> bool {
        matches!(self, AttackKind::Charge)
    }
}

/// Whether a unit is steady or shaken (R2.4).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Steadiness {
    /// Steady.
    Steady,
    /// Shaken: it rallies when next activated (R4.1).
    Shaken,
}

impl Steadiness {
    /// The state of a unit that is `shaken` or not.
    pub const fn of(shaken: bool) -> Steadiness {
        if shaken { Steadiness::Shaken } else { Steadiness::Steady }
    }

    /// Whether it is shaken.
    pub const fn is_shaken(self) -> bool {
        matches!(self, Steadiness::Shaken)
    }
}

/// Whether a target made to retreat has a square to go to (R7.3, R7.4).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetreatPath {
    /// It has one.
    Open,
    /// It has none: the retreat becomes what `blocked_retreat` says (R7.4).
    Blocked,
}

impl RetreatPath {
    /// The path of a target whose retreat is `blocked` or not.
    pub const fn of(blocked: bool) -> RetreatPath {
        if blocked { RetreatPath::Blocked } else { RetreatPath::Open }
    }

    /// Whether the retreat is blocked.
    pub const fn is_blocked(self) -> bool {
        matches!(self, RetreatPath::Blocked)
    }
}

/// Whether the target suffers the severe column of R7.1: it is shaken, or the attack is a charge.
pub const fn severe(target: Steadiness, kind: AttackKind) -> bool {
    target.is_shaken() || kind.is_charge()
}

/// The standard hit-result table's row for a target hit by fire or a charge (R7.1): [the result when its roll is
/// at most its strength, when above]. A variant's table may say otherwise ([`crate::system::ResultTable`]); the
/// battle finds the row once, when it assesses the attack.
pub const fn standard_row(target: Steadiness, kind: AttackKind) -> [HitResult; 2] {
    if severe(target, kind) {
        [HitResult::Retreat, HitResult::Destroyed]
    } else {
        [HitResult::Shaken, HitResult::Retreat]
    }
}

/// The target's D6 against its strength, on its row of the hit-result table (R7.1).
///
/// ```
/// use pacw_engine::odds::{result_on_row, standard_row};
/// use pacw_engine::{AttackKind, HitResult, Steadiness};
/// assert_eq!(result_on_row(standard_row(Steadiness::Steady, AttackKind::Fire), 4, 4), HitResult::Shaken);
/// assert_eq!(result_on_row(standard_row(Steadiness::Steady, AttackKind::Charge), 4, 5), HitResult::Destroyed);
/// ```
pub const fn result_on_row(row: [HitResult; 2], strength: u8, roll: u8) -> HitResult {
    if roll <= strength { row[0] } else { row[1] }
}

/// The target's D6 against its strength under the standard table (R7.1).
///
/// ```
/// use pacw_engine::odds::hit_result;
/// use pacw_engine::{AttackKind, HitResult, Steadiness};
/// use Steadiness::{Shaken, Steady};
/// assert_eq!(hit_result(4, Steady, AttackKind::Fire, 4), HitResult::Shaken);
/// assert_eq!(hit_result(4, Steady, AttackKind::Fire, 5), HitResult::Retreat);
/// assert_eq!(hit_result(4, Shaken, AttackKind::Fire, 3), HitResult::Retreat);
/// assert_eq!(hit_result(4, Steady, AttackKind::Charge, 6), HitResult::Destroyed);
/// ```
pub const fn hit_result(strength: u8, target: Steadiness, kind: AttackKind, roll: u8) -> HitResult {
    result_on_row(standard_row(target, kind), strength, roll)
}

/// One result of an attack (R6.4, R7).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackResult {
    /// The to-hit die failed (R6.4).
    Miss,
    /// A hit that changed nothing (a variant's table: never under the standard one).
    NoEffect,
    /// The target became shaken (R7.1).
    Shaken,
    /// The target retreated one square, and is shaken (R7.1–R7.3).
    Retreat,
    /// The target was destroyed (R7.1), also when its retreat was blocked under `blocked_retreat = destroyed` (R7.4).
    Destroyed,
    /// The target had to retreat and could not: under `blocked_retreat = stand` it stays, shaken (R7.4).
    Stand,
}

/// What a hit does to its target once it is known whether the target can retreat (R7.1, R7.4): the hit result,
/// except that a retreat with no square to go to becomes destruction or a stand, as `blocked_retreat` says.
/// The battle resolves hits with this, and the odds weigh the die faces with it.
///
/// ```
/// use pacw_engine::odds::after_hit;
/// use pacw_engine::{AttackResult, HitResult, RetreatPath};
/// use pacw_engine::BlockedRetreat;
/// assert_eq!(after_hit(HitResult::Retreat, RetreatPath::Open, BlockedRetreat::Destroyed), AttackResult::Retreat);
/// assert_eq!(after_hit(HitResult::Retreat, RetreatPath::Blocked, BlockedRetreat::Destroyed), AttackResult::Destroyed);
/// assert_eq!(after_hit(HitResult::Retreat, RetreatPath::Blocked, BlockedRetreat::Stand), AttackResult::Stand);
/// ```
pub const fn after_hit(result: HitResult, path: RetreatPath, rule: BlockedRetreat) -> AttackResult {
    match (result, path, rule) {
        (HitResult::NoEffect, _, _) => AttackResult::NoEffect,
        (HitResult::Shaken, _, _) => AttackResult::Shaken,
        (HitResult::Retreat, RetreatPath::Open, _) => AttackResult::Retreat,
        (HitResult::Retreat, RetreatPath::Blocked, BlockedRetreat::Destroyed) => AttackResult::Destroyed,
        (HitResult::Retreat, RetreatPath::Blocked, BlockedRetreat::Stand) => AttackResult::Stand,
        (HitResult::Destroyed, _, _) => AttackResult::Destroyed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r6_4_six_always_hits_and_one_always_misses() {
        assert_eq!(needed(5, -3), 6);
        assert!(hits(6, needed(6, -1)));
        assert_eq!(needed(2, 3), 2);
        assert!(!hits(1, needed(2, 3)));
    }

    #[test]
    fn r7_1_hit_results_follow_the_table() {
        for strength in 1..=5 {
            for roll in 1..=6u8 {
                let low = roll <= strength;
                let steady_fire = hit_result(strength, Steadiness::Steady, AttackKind::Fire, roll);
                assert_eq!(steady_fire, if low { HitResult::Shaken } else { HitResult::Retreat });
                assert_eq!(
                    hit_result(strength, Steadiness::Shaken, AttackKind::Fire, roll),
                    if low { HitResult::Retreat } else { HitResult::Destroyed }
                );
            }
        }
    }
}
