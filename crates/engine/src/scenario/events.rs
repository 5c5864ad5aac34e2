//! A battle's events (docs/scenario-format.md#events): reinforcements that enter on a given turn, and timed changes
//! of an objective's points or a side's exhaustion point. They happen at the start of their turn, in a fixed order
//! and without chance, so a game with events replays exactly as one without.

use super::Scenario;
use crate::geometry::Square;
use crate::unit::{Side, UnitId};
use serde::Serialize;

/// The most reinforcement groups a scenario may have.
pub const MAX_REINFORCEMENTS: usize = 32;
/// The most timed changes a scenario may have.
pub const MAX_CHANGES: usize = 64;
/// The longest id of an event.
pub const MAX_EVENT_ID: usize = 16;

/// A group of units that enters the battle for a side at the start of a turn (`[[reinforcements]]`).
///
/// Its units are the scenario's units `first..first + count` (after the units on the board at the start); each
/// unit's `at` is its entry square. Until it arrives a unit is not on the board: it cannot act or be attacked,
/// counts for no initiative value, and is neither on the board nor lost for exhaustion and points (R8).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Reinforcement {
    /// Its id, which the log cites (`E1`, or the file's `id`).
    pub id: String,
    /// Its name (the file's, else "reinforcements").
    pub name: String,
    /// The side it joins.
    pub side: Side,
    /// The turn at whose start it is due, from 2.
    pub turn: u8,
    /// The index of its first unit among the scenario's units.
    pub first: u8,
    /// How many units it has.
    pub count: u8,
}

impl Reinforcement {
    /// Its units, in file order.
    pub fn units(&self) -> impl Iterator<Item = UnitId> + use<> {
        (self.first..self.first + self.count).map(UnitId)
    }
}

/// What a timed change sets.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChangeKind {
    /// The scenario's objective at this index is worth these points (R8.2).
    ObjectivePoints {
        /// The objective's index among the scenario's objectives.
        objective: u8,
        /// Its square.
        at: Square,
        /// What holding it scores from the change on.
        points: u8,
    },
    /// A side's exhaustion point becomes this (R8.1).
    Exhaustion {
        /// The side.
        side: Side,
        /// Its exhaustion point from the change on.
        point: u8,
    },
}

/// A value that changes at the start of a turn (`[[changes]]`) and holds until a later change of the same value.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct TimedChange {
    /// Its id, which the log cites (`C1`, or the file's `id`).
    pub id: String,
    /// Its name (the file's; may be empty).
    pub name: String,
    /// The turn from whose start it holds, from 2.
    pub turn: u8,
    /// What it sets.
    pub what: ChangeKind,
}

impl Scenario {
    /// Whether the scenario has events (reinforcements or timed changes): a battle without them takes none of
    /// their paths.
    pub fn has_events(&self) -> bool {
        !self.reinforcements.is_empty() || !self.changes.is_empty()
    }

    /// The reinforcement group a unit belongs to, if it is not on the board at the start.
    pub fn reinforcement_of(&self, unit: UnitId) -> Option<&Reinforcement> {
        self.reinforcements.iter().find(|r| (r.first..r.first + r.count).contains(&unit.0))
    }

    /// The units on the board at the start of the battle (every unit but the reinforcements').
    pub fn units_at_start(&self, side: Side) -> usize {
        let late: usize = self.reinforcements.iter().filter(|r| r.side == side).map(|r| r.count as usize).sum();
        self.starting_units(side) - late
    }

    /// The points of objective `i` in force on `turn`: the latest timed change of it up to that turn (whatever the
    /// file's order of the changes), else the file's (R8.2). 0 for no such objective.
    pub fn objective_points_on(&self, i: usize, turn: u8) -> u8 {
        let file = self.objectives.get(i).map_or(0, |o| o.points);
        self.changes
            .iter()
            .filter(|c| c.turn <= turn)
            .filter_map(|c| match c.what {
                ChangeKind::ObjectivePoints { objective, points, .. } if objective as usize == i => {
                    Some((c.turn, points))
                }
                _ => None,
            })
            .max_by_key(|&(turn, _)| turn)
            .map_or(file, |(_, points)| points)
    }

    /// A side's exhaustion point as the timed changes set it on `turn`, if one has by then (R8.1).
    pub fn exhaustion_changed_on(&self, side: Side, turn: u8) -> Option<u8> {
        self.changes
            .iter()
            .filter(|c| c.turn <= turn)
            .filter_map(|c| match c.what {
                ChangeKind::Exhaustion { side: s, point } if s == side => Some((c.turn, point)),
                _ => None,
            })
            .max_by_key(|&(turn, _)| turn)
            .map(|(_, point)| point)
    }

    /// The events in words, one a line (reinforcements first, then timed changes, each in file order): for
    /// `pacw show` and the battle's briefing.
    pub fn event_summary(&self) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        for r in &self.reinforcements {
            let units: Vec<String> = r.units().map(|u| self.describe_arrival(u)).collect();
            lines.push(format!(
                "turn {}: {} ({}, {}) arrive: {}",
                r.turn,
                r.name,
                r.id,
                self.side(r.side).name,
                units.join("; ")
            ));
        }
        for c in &self.changes {
            lines.push(format!("turn {}: {}", c.turn, self.describe_change(c)));
        }
        lines
    }

    /// A reinforcement unit as the briefing lists it: "Buford's Cavalry (cavalry) at a4".
    fn describe_arrival(&self, unit: UnitId) -> String {
        let info = &self.units[unit.index()];
        format!("{} ({}) at {}", info.name, self.arm_name(info), info.at)
    }

    /// What a timed change does, in words, with its id: "the objective d5 is worth 3 points (C1)".
    pub fn describe_change(&self, change: &TimedChange) -> String {
        let what = match change.what {
            ChangeKind::ObjectivePoints { at, points, .. } => {
                format!("the objective {at} is worth {points} point{}", if points == 1 { "" } else { "s" })
            }
            ChangeKind::Exhaustion { side, point } => {
                format!("{} is exhausted at {point} units lost (R8.1)", self.side(side).name)
            }
        };
        match change.name.as_str() {
            "" => format!("{what} ({})", change.id),
            name => format!("{name}: {what} ({})", change.id),
        }
    }
}
