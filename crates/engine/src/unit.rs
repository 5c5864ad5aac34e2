//! Sides, arms, qualities and the static description of a unit (docs/rules.md R2).

use crate::geometry::{Dir, Square};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the two sides: the scenario's first (`Side::A`) or second (`Side::B`) `[[sides]]` entry.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Side {
    /// The first side of the scenario.
    A,
    /// The second side of the scenario.
    B,
}

impl Side {
    /// Both sides, first then second.
    pub const BOTH: [Side; 2] = [Side::A, Side::B];

    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }

    /// 0 for the first side, 1 for the second.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The arm of service (R2.2).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arm {
    /// Foot.
    Infantry,
    /// Horse.
    Cavalry,
    /// Guns.
    Artillery,
}

impl Arm {
    /// All arms.
    pub const ALL: [Arm; 3] = [Arm::Infantry, Arm::Cavalry, Arm::Artillery];

    /// The base strength: artillery 2, cavalry 3, infantry 4 (R2.2).
    pub const fn base_strength(self) -> u8 {
        match self {
            Arm::Infantry => 4,
            Arm::Cavalry => 3,
            Arm::Artillery => 2,
        }
    }

    /// Short notation (R10).
    pub const fn short(self) -> &'static str {
        match self {
            Arm::Infantry => "inf",
            Arm::Cavalry => "cav",
            Arm::Artillery => "art",
        }
    }

    /// Full name.
    pub const fn name(self) -> &'static str {
        match self {
            Arm::Infantry => "infantry",
            Arm::Cavalry => "cavalry",
            Arm::Artillery => "artillery",
        }
    }

    /// Index 0..3 in the order of [`Arm::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses `infantry`/`inf`, `cavalry`/`cav`, `artillery`/`art`.
    pub fn parse(s: &str) -> Option<Arm> {
        match s {
            "infantry" | "inf" => Some(Arm::Infantry),
            "cavalry" | "cav" => Some(Arm::Cavalry),
            "artillery" | "art" => Some(Arm::Artillery),
            _ => None,
        }
    }
}

impl fmt::Display for Arm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Troop quality (R2.2).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Quality {
    /// −1 strength.
    Green,
    /// No change.
    Regular,
    /// +1 strength.
    Veteran,
}

impl Quality {
    /// All qualities.
    pub const ALL: [Quality; 3] = [Quality::Green, Quality::Regular, Quality::Veteran];

    /// Its name (R10).
    pub const fn name(self) -> &'static str {
        match self {
            Quality::Green => "green",
            Quality::Regular => "regular",
            Quality::Veteran => "veteran",
        }
    }

    /// Parses `green`, `regular`, `veteran`.
    pub fn parse(s: &str) -> Option<Quality> {
        match s {
            "green" => Some(Quality::Green),
            "regular" => Some(Quality::Regular),
            "veteran" => Some(Quality::Veteran),
            _ => None,
        }
    }
}

impl fmt::Display for Quality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A unit's strength: the arm's base, +1 veteran, −1 green (R2.2).
pub const fn strength(arm: Arm, quality: Quality) -> u8 {
    match quality {
        Quality::Green => arm.base_strength() - 1,
        Quality::Regular => arm.base_strength(),
        Quality::Veteran => arm.base_strength() + 1,
    }
}

/// The most units a scenario may hold: a unit's id is a byte, and the battle keeps its units in a fixed array.
pub const MAX_UNITS: usize = 128;

/// Index of a unit in its scenario (its order in the file).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(transparent)]
pub struct UnitId(pub u8);

impl UnitId {
    /// The id of the unit at `index` in its scenario's file order, if a scenario can have so many units
    /// ([`crate::MAX_UNITS`]); whether this scenario has it, [`crate::Scenario::units`] says.
    ///
    /// ```
    /// use pacw_engine::UnitId;
    /// assert_eq!(UnitId::try_new(5), Some(UnitId(5)));
    /// assert_eq!(UnitId::try_new(128), None);
    /// ```
    pub const fn try_new(index: usize) -> Option<UnitId> {
        if index < MAX_UNITS { Some(UnitId(index as u8)) } else { None }
    }

    /// As an array index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The fixed description of a unit, as the scenario gives it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct UnitInfo {
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Its arm.
    pub arm: Arm,
    /// Its quality.
    pub quality: Quality,
    /// Where it starts.
    pub at: Square,
    /// Which way it faces at the start.
    pub facing: Dir,
    /// A variant's own arm it is of, by its index among the combat system's arms (docs/variants.md): it moves,
    /// fires and is fired at as `arm` (the own arm's `like`), with the own arm's strength, move and range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_arm: Option<u8>,
    /// Its strength, move and range as the game plays them: filled by the scenario and by [`crate::Battle::new`]
    /// from the combat system and the options, so a struct literal may leave them `UnitNumbers::default()`.
    #[serde(skip)]
    pub numbers: UnitNumbers,
}

/// A unit's numbers in a game (R2.2, R2.6, R11): its arm's as the options set them (`strength.infantry`,
/// `range.skirmishers`, …; a variant's own arm's, when no option sets one, as its file gives it), its strength with
/// its quality's adjustment. Held with the unit, resolved once for a battle's options, so that a unit's strength,
/// move and range, asked at every step of a search, are one read (docs/PERFORMANCE.md).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct UnitNumbers {
    /// Its strength, its quality's adjustment made (R2.2).
    pub strength: u8,
    /// Squares a move covers (R2.6).
    pub movement: u8,
    /// Its range in squares (R2.6).
    pub range: u8,
}

impl UnitInfo {
    /// Its arm's place among the combat system's arms: a variant's own arm's, else its standard arm's (the standard
    /// three come first). Conditions name arms by it, and the terrain's movement table is by it.
    pub const fn arm_place(&self) -> u8 {
        match self.own_arm {
            Some(i) => i,
            None => self.arm.index() as u8,
        }
    }

    /// Its strength (R2.2).
    pub fn strength(&self) -> u8 {
        strength(self.arm, self.quality)
    }
}
