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
        }
    }
}

/// An option name or value that is not allowed (R11).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No such option.
    #[error(
        "unknown option '{0}' (known: initiative, once_per_turn, blocked_retreat, pivot_is_move, to_hit, move.ARM, range.ARM)"
    )]
    Unknown(String),
    /// The value is outside the option's range.
    #[error("option {name}: {value:?} is not allowed ({allowed}) (R11)")]
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
            _ => {
                let Some((table, arm)) = name.split_once('.') else {
                    return Err(OptionError::Unknown(name.to_string()));
                };
                let Some(arm) = Arm::parse(arm) else {
                    return Err(OptionError::Unknown(name.to_string()));
                };
                let target = match table {
                    "move" => &mut self.movement,
                    "range" => &mut self.range,
                    _ => return Err(OptionError::Unknown(name.to_string())),
                };
                match value.parse::<u8>() {
                    Ok(n @ 1..=MAX_MOVE_OR_RANGE) => target.set(arm, n),
                    _ => return Err(bad("a whole number from 1 to 26")),
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
        v
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.pairs().into_iter().map(|(k, v)| format!("{k}={v}")).collect();
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
        }
        Ok(())
    }
}
