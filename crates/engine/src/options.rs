//! Rule variants and their defaults (docs/rules.md R11).

use crate::rule::Rule;
use crate::unit::Arm;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::num::NonZeroU8;

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

/// Whether a scenario's events happen (its reinforcements and timed changes, docs/scenario-format.md#events): the
/// laboratory compares a battle with and without them (`--compare events=on,off`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Events {
    /// They happen as the scenario says.
    #[default]
    On,
    /// None happens: the reinforcements never arrive and no value changes.
    Off,
}

impl Events {
    /// The option value's name.
    pub const fn name(self) -> &'static str {
        match self {
            Events::On => "on",
            Events::Off => "off",
        }
    }

    /// Whether they happen (the default, left out of records and saves).
    pub fn is_on(&self) -> bool {
        *self == Events::On
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

impl ModifierValues {
    /// The value of one standard modifier.
    pub const fn get(&self, m: StandardModifier) -> i8 {
        match m {
            StandardModifier::NotMoved => self.not_moved,
            StandardModifier::Canister => self.canister,
            StandardModifier::Ranging => self.ranging,
            StandardModifier::FlankRear => self.flank_rear,
            StandardModifier::Cover => self.cover,
        }
    }

    fn get_mut(&mut self, m: StandardModifier) -> &mut i8 {
        match m {
            StandardModifier::NotMoved => &mut self.not_moved,
            StandardModifier::Canister => &mut self.canister,
            StandardModifier::Ranging => &mut self.ranging,
            StandardModifier::FlankRear => &mut self.flank_rear,
            StandardModifier::Cover => &mut self.cover,
        }
    }
}

/// The standard to-hit modifiers (R6.3, R6.4), each set by the option `modifier.<its id>` (R11): the one list of
/// them, which the options, the combat system's file (`rules/standard.toml` names them by these ids) and the
/// battle share.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum StandardModifier {
    /// The attacker has not moved (not artillery).
    NotMoved,
    /// Artillery at distance 1.
    Canister,
    /// Artillery firing again at the same unit, neither having moved.
    Ranging,
    /// A charge from the target's flank or rear.
    FlankRear,
    /// The target is in cover (R6.3).
    Cover,
}

impl StandardModifier {
    /// All five, in the order of the standard file.
    pub const ALL: [StandardModifier; 5] = [
        StandardModifier::NotMoved,
        StandardModifier::Canister,
        StandardModifier::Ranging,
        StandardModifier::FlankRear,
        StandardModifier::Cover,
    ];

    /// Its id, in the standard file and in its option `modifier.<id>`.
    pub const fn id(self) -> &'static str {
        match self {
            StandardModifier::NotMoved => "not_moved",
            StandardModifier::Canister => "canister",
            StandardModifier::Ranging => "ranging",
            StandardModifier::FlankRear => "flank_rear",
            StandardModifier::Cover => "cover",
        }
    }

    /// The standard modifier of this id.
    pub fn of(id: &str) -> Option<StandardModifier> {
        StandardModifier::ALL.into_iter().find(|m| m.id() == id)
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
    /// R8.2: the turn limit, over the scenario's own (`None`: the scenario's). Never 0, which lets the options
    /// keep their 32 bytes with the switch `events` (a battle, which perft and the searches copy at every step,
    /// holds them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turns: Option<NonZeroU8>,
    /// R8.1: each side's exhaustion point, first side first, over the scenario's own (`None`: the scenario's).
    #[serde(skip_serializing_if = "no_exhaustion")]
    pub exhaustion: [Option<u8>; 2],
    /// The values of a variant's own to-hit modifiers, as the options `modifier.<its id>` set them over its file's;
    /// set through [`crate::Scenario::set_option`], which knows the variant.
    #[serde(skip_serializing_if = "OwnModifierValues::is_empty")]
    pub own_modifier: OwnModifierValues,
    /// Whether the scenario's events happen (reinforcements, timed changes).
    #[serde(skip_serializing_if = "Events::is_on")]
    pub events: Events,
    /// The numbers of a variant's own arms, as the options `strength.<its id>`, `move.<its id>` and
    /// `range.<its id>` set them over its file's; set through [`crate::Scenario::set_option`], which knows the
    /// variant.
    #[serde(skip_serializing_if = "OwnArmValues::is_empty")]
    pub own_arm: OwnArmValues,
}

/// The most modifiers a combat system has, and so of its own modifiers an option may set.
pub const MAX_OWN_MODIFIERS: usize = 16;

fn no_exhaustion(e: &[Option<u8>; 2]) -> bool {
    e.iter().all(Option::is_none)
}

/// The places of the standard's modifiers among a combat system's, which come first: a variant's own modifiers
/// have the places after them.
const STANDARD_MODIFIERS: usize = StandardModifier::ALL.len();

/// The values options give a variant's own to-hit modifiers, by their place among its modifiers (`None`: the
/// file's value). Three bits a modifier (−3..=3, or unset), so that a battle, which holds its options, stays small;
/// written as a list of sixteen values or nulls (the standard's five places always null).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(from = "[Option<i8>; MAX_OWN_MODIFIERS]", into = "[Option<i8>; MAX_OWN_MODIFIERS]")]
pub struct OwnModifierValues([u8; ((MAX_OWN_MODIFIERS - STANDARD_MODIFIERS) * 3).div_ceil(8)]);

impl OwnModifierValues {
    /// The bit offset of place `i`, if it is a place of an own modifier.
    fn shift(i: usize) -> Option<usize> {
        (STANDARD_MODIFIERS..MAX_OWN_MODIFIERS).contains(&i).then(|| 3 * (i - STANDARD_MODIFIERS))
    }

    /// The value set for the modifier at place `i`, if any.
    pub fn get(&self, i: usize) -> Option<i8> {
        let bits = (u64::from_le_bytes(self.padded()) >> Self::shift(i)?) & 0b111;
        (bits != 0).then(|| bits as i8 - 4)
    }

    /// Sets the modifier at place `i` to `value`, which is kept within −3..=3 (`None` unsets it); a place that is
    /// not an own modifier's (one of the standard's five, or beyond [`MAX_OWN_MODIFIERS`]) is ignored.
    pub fn set(&mut self, i: usize, value: Option<i8>) {
        let Some(shift) = Self::shift(i) else { return };
        let code = value.map_or(0, |v| (v.clamp(-3, 3) + 4) as u64);
        let all = (u64::from_le_bytes(self.padded()) & !(0b111 << shift)) | (code << shift);
        let n = self.0.len();
        self.0.copy_from_slice(&all.to_le_bytes()[..n]);
    }

    /// Whether no value is set.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&b| b == 0)
    }

    fn padded(&self) -> [u8; 8] {
        let mut bytes = [0; 8];
        bytes[..self.0.len()].copy_from_slice(&self.0);
        bytes
    }
}

impl From<[Option<i8>; MAX_OWN_MODIFIERS]> for OwnModifierValues {
    fn from(values: [Option<i8>; MAX_OWN_MODIFIERS]) -> Self {
        let mut out = OwnModifierValues::default();
        for (i, v) in values.into_iter().enumerate() {
            out.set(i, v);
        }
        out
    }
}

impl From<OwnModifierValues> for [Option<i8>; MAX_OWN_MODIFIERS] {
    fn from(values: OwnModifierValues) -> Self {
        std::array::from_fn(|i| values.get(i))
    }
}

/// The most arms a combat system has (the standard's three included), and so the last place among them whose own arm
/// an option may set.
pub const MAX_ARMS: usize = 8;

/// The places of the standard arms among a combat system's, which come first: a variant's own arms have the places
/// after them.
const STANDARD_ARMS: usize = Arm::ALL.len();

/// One of an arm's numbers (R2.2, R2.6), each an option of every arm: `strength.<arm>`, `move.<arm>` and
/// `range.<arm>`, within the bounds a variant file's `[[arms]]` gives them too.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ArmNumber {
    /// Its strength, 1..=6 (R2.2).
    Strength,
    /// Squares a move covers, 1..=26 (R2.6).
    Move,
    /// Its range in squares, 1..=26 (R2.6).
    Range,
}

impl ArmNumber {
    /// All three, in the order of a variant file's `[[arms]]`.
    pub const ALL: [ArmNumber; 3] = [ArmNumber::Strength, ArmNumber::Move, ArmNumber::Range];

    /// The option's name before the arm's (`range` of `range.infantry`), as a variant file names the number too.
    pub const fn name(self) -> &'static str {
        match self {
            ArmNumber::Strength => "strength",
            ArmNumber::Move => "move",
            ArmNumber::Range => "range",
        }
    }

    /// The number of this name.
    pub fn of(name: &str) -> Option<ArmNumber> {
        ArmNumber::ALL.into_iter().find(|n| n.name() == name)
    }

    /// The least and the most it may be.
    pub const fn bounds(self) -> (u8, u8) {
        match self {
            ArmNumber::Strength => (1, 6),
            ArmNumber::Move | ArmNumber::Range => (1, MAX_MOVE_OR_RANGE),
        }
    }

    /// How many codes its value takes in [`OwnArmValues`]: 0 for unset, then each value.
    const fn codes(self) -> u64 {
        self.bounds().1 as u64 + 1
    }

    /// What a code of it is worth within an arm's code: the product of the codes of the numbers before it.
    const fn weight(self) -> u64 {
        match self {
            ArmNumber::Strength => 1,
            ArmNumber::Move => ArmNumber::Strength.codes(),
            ArmNumber::Range => ArmNumber::Strength.codes() * ArmNumber::Move.codes(),
        }
    }
}

/// The values options give a variant's own arms' numbers, by the arm's place among its system's arms (`None`: the
/// file's number). An arm's three numbers are one code from 0 to 7 × 27 × 27 − 1 (each number's 0 unset), and the
/// five own arms' codes the digits of one number of 64 bits, so that a battle, which holds its options, stays
/// small; written as a list of eight arms, each `[strength, move, range]` of values or nulls (the standard's three
/// always nulls).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(from = "[[Option<u8>; 3]; MAX_ARMS]", into = "[[Option<u8>; 3]; MAX_ARMS]")]
pub struct OwnArmValues([u8; 8]);

impl OwnArmValues {
    /// How many codes one arm's numbers take together.
    const ARM: u64 = ArmNumber::Range.weight() * ArmNumber::Range.codes();

    /// What a code of the arm at place `place` is worth, if it is a place of an own arm.
    fn weight(place: usize) -> Option<u64> {
        (STANDARD_ARMS..MAX_ARMS).contains(&place).then(|| Self::ARM.pow((place - STANDARD_ARMS) as u32))
    }

    /// The value set for `number` of the arm at place `place`, if any.
    pub fn get(&self, place: usize, number: ArmNumber) -> Option<u8> {
        let arm = u64::from_le_bytes(self.0) / Self::weight(place)? % Self::ARM;
        let code = arm / number.weight() % number.codes();
        (code != 0).then_some(code as u8)
    }

    /// Sets `number` of the arm at place `place` to `value`, which is kept within the number's bounds (`None` unsets
    /// it); a place that is not an own arm's (one of the standard's three, or beyond [`MAX_ARMS`]) is ignored.
    pub fn set(&mut self, place: usize, number: ArmNumber, value: Option<u8>) {
        let Some(weight) = Self::weight(place) else { return };
        let (least, most) = number.bounds();
        let all = u64::from_le_bytes(self.0);
        let old = all / weight / number.weight() % number.codes();
        let new = value.map_or(0, |v| v.clamp(least, most) as u64);
        // The digit of that number is replaced: the others, below and above it, stay.
        let all = all - old * weight * number.weight() + new * weight * number.weight();
        self.0 = all.to_le_bytes();
    }

    /// Whether no value is set.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 8]
    }
}

impl From<[[Option<u8>; 3]; MAX_ARMS]> for OwnArmValues {
    fn from(arms: [[Option<u8>; 3]; MAX_ARMS]) -> Self {
        let mut out = OwnArmValues::default();
        for (place, values) in arms.into_iter().enumerate() {
            for (number, value) in ArmNumber::ALL.into_iter().zip(values) {
                out.set(place, number, value);
            }
        }
        out
    }
}

impl From<OwnArmValues> for [[Option<u8>; 3]; MAX_ARMS] {
    fn from(values: OwnArmValues) -> Self {
        std::array::from_fn(|place| ArmNumber::ALL.map(|number| values.get(place, number)))
    }
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
            own_modifier: OwnModifierValues::default(),
            events: Events::On,
            own_arm: OwnArmValues::default(),
        }
    }
}

/// An option name or value that is not allowed (R11).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No such option.
    #[error("unknown option '{0}' (known: {known})", known = option_names())]
    Unknown(String),
    /// `strength.ARM`, `move.ARM` or `range.ARM` names an arm the rules in force lack.
    #[error("unknown option '{name}': no such arm in the rules in force (their arms: {arms})")]
    UnknownArm {
        /// The option.
        name: String,
        /// The arms of the rules in force, by their ids.
        arms: String,
    },
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
        allowed: String,
    },
    /// The map has a terrain of a variant's own that the rules given (named here) do not have.
    #[error("the map has a terrain of a variant's own that the rules '{0}' do not have: read it with that variant")]
    Terrain(String),
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
    ///
    /// # Errors
    /// When there is no such option, or the value is not one it takes: the options are then unchanged.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        // The value is checked against the one list of options first: every range and word is there.
        let spec = option_spec(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let bad =
            || OptionError::BadValue { name: name.to_string(), value: value.to_string(), allowed: spec.allowed() };
        let fits = match spec.values {
            OptionValues::Choice { choices } => choices.iter().any(|(w, _)| *w == value),
            OptionValues::Switch { .. } => value == "true" || value == "false",
            OptionValues::Whole { min, max } => value.parse::<i16>().is_ok_and(|n| (min..=max).contains(&n)),
        };
        if !fits {
            return Err(bad());
        }
        // Within its bounds, checked above: what is left is to put the value in its place.
        let small = || value.parse::<u8>().map_err(|_| bad());
        let signed = || value.parse::<i8>().map_err(|_| bad());
        match name {
            "initiative" => {
                self.initiative = match value {
                    "igougo" => Initiative::Igougo,
                    "alternate" => Initiative::Alternate,
                    _ => Initiative::Cards,
                }
            }
            "once_per_turn" => self.once_per_turn = value == "true",
            "pivot_is_move" => self.pivot_is_move = value == "true",
            "blocked_retreat" => {
                self.blocked_retreat = if value == "stand" { BlockedRetreat::Stand } else { BlockedRetreat::Destroyed }
            }
            "to_hit" => self.to_hit = small()?,
            "events" => self.events = if value == "off" { Events::Off } else { Events::On },
            "turns" => self.turns = Some(NonZeroU8::new(small()?).ok_or_else(bad)?),
            _ => {
                let Some((table, key)) = name.split_once('.') else {
                    return Err(OptionError::Unknown(name.to_string()));
                };
                match (table, key) {
                    ("modifier", _) => {
                        let Some(m) = StandardModifier::of(key) else {
                            return Err(OptionError::Unknown(name.to_string()));
                        };
                        *self.modifier.get_mut(m) = signed()?;
                    }
                    ("quality", "veteran") => self.quality.veteran = signed()?,
                    ("quality", "green") => self.quality.green = signed()?,
                    ("exhaustion", side) => {
                        // The scenario's side ids are resolved by `Scenario`; here the sides are A and B.
                        let i = match side {
                            "A" | "a" | "first" => 0,
                            "B" | "b" | "second" => 1,
                            _ => return Err(OptionError::UnknownSide(side.to_string())),
                        };
                        self.exhaustion[i] = Some(small()?);
                    }
                    (table, arm) => {
                        let Some(arm) = Arm::parse(arm) else {
                            return Err(OptionError::Unknown(name.to_string()));
                        };
                        let target = match table {
                            "move" => &mut self.movement,
                            "range" => &mut self.range,
                            "strength" => &mut self.strength,
                            _ => return Err(OptionError::Unknown(name.to_string())),
                        };
                        target.set(arm, small()?);
                    }
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
        for m in StandardModifier::ALL {
            v.push((format!("modifier.{}", m.id()), self.modifier.get(m).to_string()));
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
        if !self.events.is_on() {
            v.push(("events".to_string(), self.events.name().to_string()));
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
        self.adjusted_strength(self.strength.get(arm), quality)
    }

    /// The arms' values of `number`: `strength`, `movement` or `range`.
    pub const fn per_arm(&self, number: ArmNumber) -> &PerArm {
        match number {
            ArmNumber::Strength => &self.strength,
            ArmNumber::Move => &self.movement,
            ArmNumber::Range => &self.range,
        }
    }

    /// A strength of `base` with `quality`'s adjustment (R2.2), kept within 0..=6.
    pub fn adjusted_strength(&self, base: u8, quality: crate::unit::Quality) -> u8 {
        let adjust = match quality {
            crate::unit::Quality::Green => self.quality.green,
            crate::unit::Quality::Regular => 0,
            crate::unit::Quality::Veteran => self.quality.veteran,
        };
        (base as i8 + adjust).clamp(0, 6) as u8
    }
}

/// The options of the initiative, movement and range: a person reading a game's options always sees them; the
/// numbers of the combat system (`modifier.*`, `strength.*`, `quality.*`) and `turns` and `exhaustion.*` only
/// where a variant changes them ([`Options::pairs`] gives them all, for records).
fn always_shown(name: &str) -> bool {
    !["modifier.", "strength.", "quality.", "turns", "exhaustion.", "events"].iter().any(|p| name.starts_with(p))
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
    ///
    /// # Errors
    /// The first option whose value is out of its range.
    pub fn validate(&self) -> Result<(), OptionError> {
        for (name, value) in self.pairs() {
            // Setting each pair on the defaults checks it against the one list of options.
            Options::default().set(&name, &value)?;
        }
        Ok(())
    }
}

/// Where an option belongs when it is offered: the rules of play, the numbers of the combat system, or the
/// scenario's own settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionGroup {
    /// How the game is played: initiative, double activations, blocked retreats, pivots, the number to hit.
    Rules,
    /// The combat system's numbers (R11): moves, ranges, strengths, quality, modifiers.
    Numbers,
    /// The scenario's own settings: the turn limit, each side's exhaustion point, whether its events happen.
    Scenario,
}

/// The values an option takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OptionValues {
    /// One of these words, each with what it means.
    Choice {
        /// The words and their meanings.
        choices: &'static [(&'static str, &'static str)],
    },
    /// `true` or `false`.
    Switch {
        /// What `true` means.
        on: &'static str,
        /// What `false` means.
        off: &'static str,
    },
    /// A whole number from `min` to `max`.
    Whole {
        /// The least.
        min: i16,
        /// The most.
        max: i16,
    },
}

/// One rule option (R11): its name, the rule it comes from, a label, where it belongs and the values it takes. The
/// one list of options ([`OPTION_SPECS`]) that parsing, error messages, `pacw rules`, the laboratory and the
/// lobby's form (through `/api/info`) all read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OptionSpec {
    /// Its name, as `--set NAME=VALUE` and a scenario's `[options]` write it (`exhaustion.SIDE` stands for one a
    /// side).
    pub name: &'static str,
    /// The rule it changes.
    pub rule: Rule,
    /// A short label for a form.
    pub label: &'static str,
    /// Where it belongs.
    pub group: OptionGroup,
    /// The values it takes.
    pub values: OptionValues,
}

impl OptionSpec {
    /// The values allowed, in words.
    pub fn allowed(&self) -> String {
        match self.values {
            OptionValues::Choice { choices } => {
                let words: Vec<&str> = choices.iter().map(|(w, _)| *w).collect();
                match words.split_last() {
                    Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
                    _ => words.join(""),
                }
            }
            OptionValues::Switch { .. } => "true or false".to_string(),
            OptionValues::Whole { min, max } => format!("a whole number from {min} to {max}"),
        }
    }
}

const fn whole(name: &'static str, rule: Rule, label: &'static str, min: i16, max: i16) -> OptionSpec {
    OptionSpec { name, rule, label, group: OptionGroup::Numbers, values: OptionValues::Whole { min, max } }
}

/// Every rule option, in the order [`Options::pairs`] lists them.
pub const OPTION_SPECS: [OptionSpec; 24] = [
    OptionSpec {
        name: "initiative",
        rule: Rule::R3_7,
        label: "Initiative",
        group: OptionGroup::Rules,
        values: OptionValues::Choice {
            choices: &[
                (
                    "cards",
                    "a deck of cards decides which side activates units and how many (the designer's system, R3)",
                ),
                ("igougo", "each turn the winner of a die roll activates all its units, then the other side"),
                ("alternate", "the sides activate one unit at a time, in turn"),
            ],
        },
    },
    OptionSpec {
        name: "once_per_turn",
        rule: Rule::R3_5,
        label: "Once per turn",
        group: OptionGroup::Rules,
        values: OptionValues::Switch {
            on: "each unit at most once a turn",
            off: "a unit may be activated again on a later card of the same turn (the double activation)",
        },
    },
    OptionSpec {
        name: "blocked_retreat",
        rule: Rule::R7_4,
        label: "Blocked retreat",
        group: OptionGroup::Rules,
        values: OptionValues::Choice {
            choices: &[
                ("destroyed", "a unit that must retreat and cannot is destroyed"),
                ("stand", "it stays where it is, shaken"),
            ],
        },
    },
    OptionSpec {
        name: "pivot_is_move",
        rule: Rule::R5_5,
        label: "Pivot is a move",
        group: OptionGroup::Rules,
        values: OptionValues::Switch {
            on: "turning counts as moving: it loses the \u{201c}did not move\u{201d} bonus",
            off: "a unit may turn before it fires and still count as not moved",
        },
    },
    OptionSpec {
        name: "to_hit",
        rule: Rule::R6_4,
        label: "To hit",
        group: OptionGroup::Rules,
        values: OptionValues::Choice {
            choices: &[
                ("2", "needs 2: very bloody"),
                ("3", "needs 3: bloody"),
                ("4", "needs 4: bloodier than usual"),
                ("5", "the number needed on the die before modifiers (5 by the rules)"),
                ("6", "needs 6: hardly anyone hits"),
            ],
        },
    },
    whole("move.infantry", Rule::R2_6, "Infantry moves", 1, MAX_MOVE_OR_RANGE as i16),
    whole("move.cavalry", Rule::R2_6, "Cavalry moves", 1, MAX_MOVE_OR_RANGE as i16),
    whole("move.artillery", Rule::R2_6, "Artillery moves", 1, MAX_MOVE_OR_RANGE as i16),
    whole("range.infantry", Rule::R2_6, "Infantry range", 1, MAX_MOVE_OR_RANGE as i16),
    whole("range.cavalry", Rule::R2_6, "Cavalry range", 1, MAX_MOVE_OR_RANGE as i16),
    whole("range.artillery", Rule::R2_6, "Artillery range", 1, MAX_MOVE_OR_RANGE as i16),
    whole("modifier.not_moved", Rule::R6_4, "Not moved", -3, 3),
    whole("modifier.canister", Rule::R6_4, "Canister", -3, 3),
    whole("modifier.ranging", Rule::R6_4, "Ranging fire", -3, 3),
    whole("modifier.flank_rear", Rule::R6_4, "Flank or rear charge", -3, 3),
    whole("modifier.cover", Rule::R6_3, "Cover", -3, 3),
    whole("strength.infantry", Rule::R2_2, "Infantry strength", 1, 6),
    whole("strength.cavalry", Rule::R2_2, "Cavalry strength", 1, 6),
    whole("strength.artillery", Rule::R2_2, "Artillery strength", 1, 6),
    whole("quality.veteran", Rule::R2_2, "Veteran adds", -2, 2),
    whole("quality.green", Rule::R2_2, "Green adds", -2, 2),
    OptionSpec {
        name: "turns",
        rule: Rule::R8_2,
        label: "Turns",
        group: OptionGroup::Scenario,
        values: OptionValues::Whole { min: 1, max: MAX_TURNS_OPTION as i16 },
    },
    OptionSpec {
        name: "exhaustion.SIDE",
        rule: Rule::R8_1,
        label: "Exhaustion point",
        group: OptionGroup::Scenario,
        values: OptionValues::Whole { min: 1, max: MAX_EXHAUSTION as i16 },
    },
    OptionSpec {
        name: "events",
        rule: Rule::R8,
        label: "Events",
        group: OptionGroup::Scenario,
        values: OptionValues::Choice {
            choices: &[
                ("on", "the scenario's reinforcements arrive and its timed changes happen"),
                ("off", "none of them: the reinforcements never arrive and no value changes"),
            ],
        },
    },
];

/// The option of this name (`exhaustion.<side>` is [`OPTION_SPECS`]' `exhaustion.SIDE`).
pub fn option_spec(name: &str) -> Option<&'static OptionSpec> {
    let name = if name.starts_with("exhaustion.") { "exhaustion.SIDE" } else { name };
    OPTION_SPECS.iter().find(|s| s.name == name)
}

/// Every option's name, as an unknown option's message lists them.
pub fn option_names() -> String {
    OPTION_SPECS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod spec_tests {
    use super::*;

    #[test]
    fn r11_every_option_of_the_list_is_set_within_its_bounds_and_refused_outside() {
        let defaults = Options::default().pairs();
        for spec in &OPTION_SPECS {
            let name = spec.name.replace("SIDE", "A");
            let mut o = Options::default();
            match spec.values {
                OptionValues::Choice { choices } => {
                    for (word, meaning) in choices {
                        assert!(o.set(&name, word).is_ok(), "{name}={word}");
                        assert!(!meaning.is_empty());
                    }
                    assert!(o.set(&name, "sometimes").is_err(), "{name}");
                }
                OptionValues::Switch { .. } => {
                    assert!(o.set(&name, "true").is_ok() && o.set(&name, "false").is_ok(), "{name}");
                    assert!(o.set(&name, "maybe").is_err(), "{name}");
                }
                OptionValues::Whole { min, max } => {
                    assert!(o.set(&name, &min.to_string()).is_ok(), "{name}={min}");
                    assert!(o.set(&name, &max.to_string()).is_ok(), "{name}={max}");
                    for outside in [min - 1, max + 1] {
                        let e = o.set(&name, &outside.to_string()).expect_err(&format!("{name}={outside}"));
                        assert!(e.to_string().contains(&spec.allowed()), "{name}: {e}");
                    }
                }
            }
        }
        // The list and the options' own pairs name the same options, in the same order.
        let listed: Vec<&str> = OPTION_SPECS
            .iter()
            .map(|s| s.name)
            .filter(|n| !n.contains('.') || !n.ends_with("SIDE"))
            .filter(|n| *n != "turns" && *n != "events")
            .collect();
        let pairs: Vec<&str> = defaults.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(listed, pairs);
        let e = Options::default().set("modifier.hill", "1").unwrap_err().to_string();
        assert!(e.contains("modifier.hill") && e.contains(&option_names()), "{e}");
    }
}

#[cfg(test)]
mod own_arm_tests {
    use super::*;

    #[test]
    fn own_arm_values_keep_each_number_of_each_arm_apart_and_read_back_from_their_list() {
        let mut v = OwnArmValues::default();
        assert!(v.is_empty());
        // Every place of an own arm and every number, at both its bounds: the others stay as they were.
        for place in STANDARD_ARMS..MAX_ARMS {
            for number in ArmNumber::ALL {
                let (least, most) = number.bounds();
                v.set(place, number, Some(most));
                assert_eq!(v.get(place, number), Some(most), "{place} {number:?}");
                v.set(place, number, Some(least));
                assert_eq!(v.get(place, number), Some(least), "{place} {number:?}");
                v.set(place, number, Some(most));
            }
        }
        for place in STANDARD_ARMS..MAX_ARMS {
            assert_eq!(ArmNumber::ALL.map(|n| v.get(place, n)), [Some(6), Some(26), Some(26)]);
        }
        v.set(4, ArmNumber::Move, None);
        v.set(7, ArmNumber::Strength, Some(9)); // kept within its bounds
        v.set(1, ArmNumber::Range, Some(3)); // a standard arm's place: not an own one's
        v.set(8, ArmNumber::Range, Some(3)); // beyond the last
        assert_eq!(
            (v.get(4, ArmNumber::Move), v.get(4, ArmNumber::Range), v.get(7, ArmNumber::Strength)),
            (None, Some(26), Some(6))
        );
        assert_eq!((v.get(1, ArmNumber::Range), v.get(8, ArmNumber::Range)), (None, None));
        let list: [[Option<u8>; 3]; MAX_ARMS] = v.into();
        assert_eq!(OwnArmValues::from(list), v);
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(serde_json::from_str::<OwnArmValues>(&json).unwrap(), v);
        let mut o = Options::default();
        o.own_arm.set(3, ArmNumber::Range, Some(1));
        let json = serde_json::to_string(&o).unwrap();
        assert!(
            json.contains("\"own_arm\":[[null,null,null],[null,null,null],[null,null,null],[null,null,1],"),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Options>(&json).unwrap(), o);
        assert!(!serde_json::to_string(&Options::default()).unwrap().contains("own_arm"), "left out when unset");
    }
}

#[cfg(test)]
mod own_modifier_tests {
    use super::*;

    #[test]
    fn own_modifier_values_keep_each_place_apart_and_read_back_from_their_list() {
        let mut v = OwnModifierValues::default();
        assert!(v.is_empty());
        v.set(5, Some(-3));
        v.set(15, Some(3));
        v.set(9, Some(0));
        v.set(2, Some(1)); // a standard modifier's place: not an own one's
        assert_eq!((v.get(5), v.get(15), v.get(9), v.get(2), v.get(6)), (Some(-3), Some(3), Some(0), None, None));
        v.set(15, None);
        assert_eq!(v.get(15), None);
        let list: [Option<i8>; MAX_OWN_MODIFIERS] = v.into();
        assert_eq!(OwnModifierValues::from(list), v);
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(serde_json::from_str::<OwnModifierValues>(&json).unwrap(), v);
    }
}
