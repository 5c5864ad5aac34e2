//! Validated scenarios (SCENARIO_FORMAT.md): a battlefield, two sides, their units, objectives, turns and options.
//!
//! A [`Scenario`] is only made by [`Scenario::parse`], which checks everything once; the battle then trusts it.

mod parse;

pub use parse::{Problem, ScenarioError};

use crate::geometry::{Dir, Square};
use crate::map::Map;
use crate::options::Options;
use crate::unit::{Side, UnitInfo};
use serde::{Deserialize, Serialize};

/// The most units a scenario may hold (the battle keeps them in a fixed array).
pub const MAX_UNITS: usize = 64;
/// The most objectives a scenario may hold.
pub const MAX_OBJECTIVES: usize = 16;
/// The longest turn limit.
pub const MAX_TURNS: u8 = 99;

/// A card colour (R2.1, R3.2).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Red cards.
    Red,
    /// Black cards.
    Black,
}

/// A side as the scenario describes it (R2.1).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SideInfo {
    /// The id units and objectives use.
    pub id: String,
    /// The name shown to players.
    pub name: String,
    /// The board edge it comes from.
    pub home: Dir,
    /// Its card colour.
    pub colour: Colour,
    /// Destroyed units at which it is exhausted (R8.1).
    pub exhaustion: u8,
}

/// An objective square (R8.2).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Objective {
    /// Where it is.
    pub at: Square,
    /// What holding it at the end scores.
    pub points: u8,
    /// Who holds it at the start, if anyone.
    pub holder: Option<Side>,
}

/// A checked scenario: everything in it is legal (SCENARIO_FORMAT.md).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Scenario {
    /// Its title.
    pub name: String,
    /// Free text: history and how to win.
    pub description: String,
    /// The turn limit (R8.2).
    pub turns: u8,
    /// Points for each destroyed enemy unit (R8.2).
    pub points_per_destroyed: u8,
    /// The battlefield.
    pub map: Map,
    /// The two sides, in file order ([`Side::A`], [`Side::B`]).
    pub sides: [SideInfo; 2],
    /// Every unit, in file order (index = [`crate::UnitId`]).
    pub units: Vec<UnitInfo>,
    /// The objective squares.
    pub objectives: Vec<Objective>,
    /// The options the scenario sets over the defaults (R11).
    pub options: Options,
}

impl Scenario {
    /// The side description.
    pub fn side(&self, side: Side) -> &SideInfo {
        &self.sides[side.index()]
    }

    /// How many units a side starts with.
    pub fn starting_units(&self, side: Side) -> usize {
        self.units.iter().filter(|u| u.side == side).count()
    }

    /// The side whose id is `id`.
    pub fn side_by_id(&self, id: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|s| self.sides[s.index()].id == id)
    }
}
