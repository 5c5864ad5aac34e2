//! Rule variants and their defaults (RULES.md R11).

use crate::unit::Arm;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The initiative system (R3, R3.7).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Initiative {
    /// The card deck of R3.1–R3.6.
    #[default]
    Cards,
    /// Both sides roll; the higher activates all its units, then the other (R3.7).
    Igougo,
    /// The winner of a roll activates one unit, then the sides alternate (R3.7).
    Alternate,
}

impl Initiative {
    /// The option value's name.
    pub const fn name(self) -> &'static str {
        match self {
            Initiative::Cards => "cards",
            Initiative::Igougo => "igougo",
            Initiative::Alternate => "alternate",
        }
    }
}

/// What happens to a unit that must retreat and cannot (R7.4).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum BlockedRetreat {
    /// It is destroyed.
    #[default]
    Destroyed,
    /// It stays in place, shaken.
    Stand,
}

impl BlockedRetreat {
    /// The option value's name.
    pub const fn name(self) -> &'static str {
        match self {
            BlockedRetreat::Destroyed => "destroyed",
            BlockedRetreat::Stand => "stand",
        }
    }
}

/// A value per arm, in the order infantry, cavalry, artillery.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct PerArm {
    /// For infantry.
    pub infantry: u8,
    /// For cavalry.
    pub cavalry: u8,
    /// For artillery.
    pub artillery: u8,
}

impl PerArm {
    /// The value for one arm.
    pub const fn get(&self, arm: Arm) -> u8 {
        match arm {
            Arm::Infantry => self.infantry,
            Arm::Cavalry => self.cavalry,
            Arm::Artillery => self.artillery,
        }
    }

    /// Sets the value for one arm.
    pub fn set(&mut self, arm: Arm, value: u8) {
        match arm {
            Arm::Infantry => self.infantry = value,
            Arm::Cavalry => self.cavalry = value,
            Arm::Artillery => self.artillery = value,
        }
    }
}

/// The largest move or range an option may set (R11): the side of the largest board.
pub const MAX_MOVE_OR_RANGE: u8 = 26;

/// The value of each to-hit modifier (R6.4), as the options `modifier.*` set them: from −3 to 3, 0 removing it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModifierValues {
    /// +1 the attacker has not moved (not artillery).
    pub not_moved: i8,
    /// +1 artillery at distance 1.
    pub canister: i8,
    /// +1 artillery firing again at the same unit, neither having moved.
    pub ranging: i8,
    /// +1 a charge from the target's flank or rear.
    pub flank_rear: i8,
    /// −1 the target is in cover (R6.3).
    pub cover: i8,
}

impl Default for ModifierValues {
    fn default() -> Self {
        ModifierValues { not_moved: 1, canister: 1, ranging: 1, flank_rear: 1, cover: -1 }
    }
}

/// What a unit's quality adds to its strength (R2.2), as the options `quality.*` set it: from −2 to 2.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QualityValues {
    /// +1 for a veteran unit.
    pub veteran: i8,
    /// −1 for a green unit.
    pub green: i8,
}

impl Default for QualityValues {
    fn default() -> Self {
        QualityValues { veteran: 1, green: -1 }
    }
}

/// The longest turn limit the option `turns` may set.
pub const MAX_TURNS_OPTION: u8 = 99;

/// The highest exhaustion point an option may set before the scenario's own bound (a side's units) is known.
pub const MAX_EXHAUSTION: u8 = 255;

/// The rule options in force for a battle (R11). Every game and simulation records them.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// R3.7.
    pub initiative: Initiative,
    /// R3.5: a unit may be activated at most once a turn.
    pub once_per_turn: bool,
    /// R7.4.
    pub blocked_retreat: BlockedRetreat,
    /// R5.5: a change of facing alone is a move.
    pub pivot_is_move: bool,
    /// R6.4: the base number needed to hit, 2..=6.
    pub to_hit: u8,
    /// R2.6: squares a Move order may cover, per arm.
    #[serde(rename = "move")]
    pub movement: PerArm,
    /// R2.6: attack range in squares, per arm.
    pub range: PerArm,
    /// R6.4: the value of each to-hit modifier.
    pub modifier: ModifierValues,
    /// R2.2: each arm's base strength, 1..=6.
    pub strength: PerArm,
    /// R2.2: what veteran and green add to the strength.
    pub quality: QualityValues,
    /// R8.2: the turn limit, over the scenario's own (`None`: the scenario's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turns: Option<u8>,
    /// R8.1: each side's exhaustion point, first side first, over the scenario's own (`None`: the scenario's).
    #[serde(skip_serializing_if = "no_exhaustion")]
    pub exhaustion: [Option<u8>; 2],
}

fn no_exhaustion(e: &[Option<u8>; 2]) -> bool {
    e.iter().all(Option::is_none)
}

impl Default for Options {
    fn default() -> Self {
        Options {
            initiative: Initiative::Cards,
            once_per_turn: false,
            blocked_retreat: BlockedRetreat::Destroyed,
            pivot_is_move: true,
            to_hit: 5,
            movement: PerArm { infantry: 1, cavalry: 2, artillery: 1 },
            range: PerArm { infantry: 2, cavalry: 1, artillery: 4 },
            modifier: ModifierValues::default(),
            strength: PerArm { infantry: 4, cavalry: 3, artillery: 2 },
            quality: QualityValues::default(),
            turns: None,
            exhaustion: [None, None],
        }
    }
}

/// An option name or value that is not allowed (R11).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No such option.
    #[error(
        "unknown option '{0}' (known: initiative, once_per_turn, blocked_retreat, pivot_is_move, to_hit, move.ARM, \
         range.ARM, modifier.not_moved|canister|ranging|flank_rear|cover, strength.ARM, quality.veteran|green, turns, \
         exhaustion.SIDE)"
    )]
    Unknown(String),
    /// `exhaustion.SIDE` names no side.
    #[error("option exhaustion.{0}: no such side (use the scenario's side ids)")]
    UnknownSide(String),
    /// The value is outside the option's range.
    #[error("option {name}: '{value}' is not allowed ({allowed}) (R11)")]
    BadValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// What is allowed.
        allowed: &'static str,
    },
}

impl Options {
    /// Sets one option from its name and a textual value, as in `--set to_hit=4` or `move.cavalry=3`.
    /// On error the options are unchanged.
    ///
    /// ```
    /// use pacw_engine::{Options, Initiative};
    /// let mut o = Options::default();
    /// o.set("initiative", "igougo").unwrap();
    /// o.set("range.artillery", "3").unwrap();
    /// assert_eq!(o.initiative, Initiative::Igougo);
    /// assert!(o.set("to_hit", "7").is_err());
    /// ```
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let bad =
            |allowed: &'static str| OptionError::BadValue { name: name.to_string(), value: value.to_string(), allowed };
        let boolean = |v: &str| match v {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(bad("true or false")),
        };
        match name {
            "initiative" => {
                self.initiative = match value {
                    "cards" => Initiative::Cards,
                    "igougo" => Initiative::Igougo,
                    "alternate" => Initiative::Alternate,
                    _ => return Err(bad("cards, igougo or alternate")),
                }
            }
            "once_per_turn" => self.once_per_turn = boolean(value)?,
            "pivot_is_move" => self.pivot_is_move = boolean(value)?,
            "blocked_retreat" => {
                self.blocked_retreat = match value {
                    "destroyed" => BlockedRetreat::Destroyed,
                    "stand" => BlockedRetreat::Stand,
                    _ => return Err(bad("destroyed or stand")),
                }
            }
            "to_hit" => match value.parse::<u8>() {
                Ok(n @ 2..=6) => self.to_hit = n,
                _ => return Err(bad("a whole number from 2 to 6")),
            },
            "turns" => match value.parse::<u8>() {
                Ok(n @ 1..=MAX_TURNS_OPTION) => self.turns = Some(n),
                _ => return Err(bad("a whole number from 1 to 99")),
            },
            _ => {
                let Some((table, key)) = name.split_once('.') else {
                    return Err(OptionError::Unknown(name.to_string()));
                };
                let number = |lo: i8, hi: i8, allowed| match value.parse::<i8>() {
                    Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                    _ => Err(bad(allowed)),
                };
                match (table, key) {
                    ("modifier", _) => {
                        let m = &mut self.modifier;
                        let slot = match key {
                            "not_moved" => &mut m.not_moved,
                            "canister" => &mut m.canister,
                            "ranging" => &mut m.ranging,
                            "flank_rear" => &mut m.flank_rear,
                            "cover" => &mut m.cover,
                            _ => return Err(OptionError::Unknown(name.to_string())),
                        };
                        *slot = number(-3, 3, "a whole number from -3 to 3 (0 removes the modifier)")?;
                        return Ok(());
                    }
                    ("quality", "veteran") => {
                        self.quality.veteran = number(-2, 2, "a whole number from -2 to 2")?;
                        return Ok(());
                    }
                    ("quality", "green") => {
                        self.quality.green = number(-2, 2, "a whole number from -2 to 2")?;
                        return Ok(());
                    }
                    ("exhaustion", side) => {
                        // The scenario's side ids are resolved by `Scenario`; here the sides are A and B.
                        let i = match side {
                            "A" | "a" | "first" => 0,
                            "B" | "b" | "second" => 1,
                            _ => return Err(OptionError::UnknownSide(side.to_string())),
                        };
                        match value.parse::<u8>() {
                            Ok(n @ 1..=MAX_EXHAUSTION) => self.exhaustion[i] = Some(n),
                            _ => return Err(bad("a whole number from 1 to the side's number of units")),
                        }
                        return Ok(());
                    }
                    _ => {}
                }
                let arm = key;
                let Some(arm) = Arm::parse(arm) else {
                    return Err(OptionError::Unknown(name.to_string()));
                };
                let (target, hi, allowed) = match table {
                    "move" => (&mut self.movement, MAX_MOVE_OR_RANGE, "a whole number from 1 to 26"),
                    "range" => (&mut self.range, MAX_MOVE_OR_RANGE, "a whole number from 1 to 26"),
                    "strength" => (&mut self.strength, 6, "a whole number from 1 to 6"),
                    _ => return Err(OptionError::Unknown(name.to_string())),
                };
                match value.parse::<u8>() {
                    Ok(n) if (1..=hi).contains(&n) => target.set(arm, n),
                    _ => return Err(bad(allowed)),
                }
            }
        }
        Ok(())
    }

    /// Every option as `name=value` pairs, in a fixed order (for records and reports).
    pub fn pairs(&self) -> Vec<(String, String)> {
        let mut v = vec![
            ("initiative".to_string(), self.initiative.name().to_string()),
            ("once_per_turn".to_string(), self.once_per_turn.to_string()),
            ("blocked_retreat".to_string(), self.blocked_retreat.name().to_string()),
            ("pivot_is_move".to_string(), self.pivot_is_move.to_string()),
            ("to_hit".to_string(), self.to_hit.to_string()),
        ];
        for arm in Arm::ALL {
            v.push((format!("move.{}", arm.name()), self.movement.get(arm).to_string()));
        }
        for arm in Arm::ALL {
            v.push((format!("range.{}", arm.name()), self.range.get(arm).to_string()));
        }
        let m = self.modifier;
        for (name, value) in [
            ("not_moved", m.not_moved),
            ("canister", m.canister),
            ("ranging", m.ranging),
            ("flank_rear", m.flank_rear),
            ("cover", m.cover),
        ] {
            v.push((format!("modifier.{name}"), value.to_string()));
        }
        for arm in Arm::ALL {
            v.push((format!("strength.{}", arm.name()), self.strength.get(arm).to_string()));
        }
        v.push(("quality.veteran".to_string(), self.quality.veteran.to_string()));
        v.push(("quality.green".to_string(), self.quality.green.to_string()));
        if let Some(t) = self.turns {
            v.push(("turns".to_string(), t.to_string()));
        }
        for (side, e) in ["A", "B"].iter().zip(self.exhaustion) {
            if let Some(e) = e {
                v.push((format!("exhaustion.{side}"), e.to_string()));
            }
        }
        v
    }

    /// The pairs that differ from the defaults: what a variant changes.
    pub fn changed(&self) -> Vec<(String, String)> {
        let defaults: std::collections::BTreeMap<String, String> = Options::default().pairs().into_iter().collect();
        self.pairs().into_iter().filter(|(k, v)| defaults.get(k) != Some(v)).collect()
    }

    /// A unit's strength (R2.2): its arm's base plus its quality's adjustment, kept within 0..=6.
    pub fn strength_of(&self, arm: Arm, quality: crate::unit::Quality) -> u8 {
        let adjust = match quality {
            crate::unit::Quality::Green => self.quality.green,
            crate::unit::Quality::Regular => 0,
            crate::unit::Quality::Veteran => self.quality.veteran,
        };
        (self.strength.get(arm) as i8 + adjust).clamp(0, 6) as u8
    }

    /// The value a to-hit modifier has under these options (R6.4).
    pub fn modifier_value(&self, m: crate::attack::Modifier) -> i8 {
        use crate::attack::Modifier;
        match m {
            Modifier::DidNotMove => self.modifier.not_moved,
            Modifier::Canister => self.modifier.canister,
            Modifier::Ranging => self.modifier.ranging,
            Modifier::FlankCharge | Modifier::RearCharge => self.modifier.flank_rear,
            Modifier::Cover(_) => self.modifier.cover,
        }
    }
}

/// The options of the initiative, movement and range: a person reading a game's options always sees them; the
/// numbers of the combat system (`modifier.*`, `strength.*`, `quality.*`) and `turns` and `exhaustion.*` only
/// where a variant changes them ([`Options::pairs`] gives them all, for records).
fn always_shown(name: &str) -> bool {
    !["modifier.", "strength.", "quality.", "turns", "exhaustion."].iter().any(|p| name.starts_with(p))
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let defaults: std::collections::BTreeMap<String, String> = Options::default().pairs().into_iter().collect();
        let parts: Vec<String> = self
            .pairs()
            .into_iter()
            .filter(|(k, v)| always_shown(k) || defaults.get(k) != Some(v))
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

impl Options {
    /// Checks that every value is within its range (R11), as options read from a save or a request may not be.
    pub fn validate(&self) -> Result<(), OptionError> {
        let bad =
            |name: String, value: u8, allowed| Err(OptionError::BadValue { name, value: value.to_string(), allowed });
        if !(2..=6).contains(&self.to_hit) {
            return bad("to_hit".into(), self.to_hit, "a whole number from 2 to 6");
        }
        for arm in Arm::ALL {
            for (table, v) in [("move", self.movement.get(arm)), ("range", self.range.get(arm))] {
                if !(1..=MAX_MOVE_OR_RANGE).contains(&v) {
                    return bad(format!("{table}.{}", arm.name()), v, "a whole number from 1 to 26");
                }
            }
            let v = self.strength.get(arm);
            if !(1..=6).contains(&v) {
                return bad(format!("strength.{}", arm.name()), v, "a whole number from 1 to 6");
            }
        }
        let signed = |name: &str, value: i8, limit: i8, allowed| {
            if (-limit..=limit).contains(&value) {
                Ok(())
            } else {
                Err(OptionError::BadValue { name: name.to_string(), value: value.to_string(), allowed })
            }
        };
        let m = self.modifier;
        for (name, value) in [
            ("modifier.not_moved", m.not_moved),
            ("modifier.canister", m.canister),
            ("modifier.ranging", m.ranging),
            ("modifier.flank_rear", m.flank_rear),
            ("modifier.cover", m.cover),
        ] {
            signed(name, value, 3, "a whole number from -3 to 3")?;
        }
        signed("quality.veteran", self.quality.veteran, 2, "a whole number from -2 to 2")?;
        signed("quality.green", self.quality.green, 2, "a whole number from -2 to 2")?;
        if let Some(t) = self.turns.filter(|t| !(1..=MAX_TURNS_OPTION).contains(t)) {
            return bad("turns".into(), t, "a whole number from 1 to 99");
        }
        for (i, e) in self.exhaustion.iter().enumerate() {
            if let Some(e) = e.filter(|e| !(1..=MAX_EXHAUSTION).contains(e)) {
                return bad(format!("exhaustion.{}", ["A", "B"][i]), e, "a whole number from 1 to the side's units");
            }
        }
        Ok(())
    }
}
