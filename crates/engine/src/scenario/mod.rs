//! Validated scenarios (docs/scenario-format.md): a battlefield, two sides, their units, objectives, turns and options.
//!
//! A [`Scenario`] is made by [`Scenario::parse`], which checks everything once, or built in code by
//! [`Scenario::synthetic`], which checks what it is given; the battle then trusts it.

mod counter;
mod events;
mod ignored;
mod parse;
mod parse_events;

pub use counter::CounterColour;
pub use events::{ChangeKind, Reinforcement, TimedChange};
pub use parse::{Problem, ReadVariant, ScenarioError};

use crate::geometry::{Dir, MAX_SIDE, MIN_SIDE, Square};
use crate::map::Map;
use crate::options::{ArmNumber, OptionError, Options};
use crate::system::CombatSystem;
use crate::unit::{Side, UnitInfo, UnitNumbers};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

use crate::unit::MAX_UNITS;
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

impl Colour {
    /// Its name, as a scenario writes it: `red` or `black`.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Black => "black",
        }
    }
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
    /// Its display colour on the board (the scenario key `counter`).
    pub counter: CounterColour,
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

/// A checked scenario: everything in it is legal (docs/scenario-format.md).
///
/// It is made only by its checks ([`Scenario::parse`], [`Scenario::parse_with`], [`Scenario::parse_reading`],
/// [`Scenario::synthetic`]) and changed only through them ([`Scenario::with_system`]):
/// its fields are there to be read, and no program outside the engine can build one field by field or read one
/// from JSON without the checks. (An owned scenario's fields can still be assigned; a battle holds its scenario
/// shared and unchangeable.)
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
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
    /// The groups of units that arrive during the battle (their units are the last of [`Scenario::units`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reinforcements: Vec<Reinforcement>,
    /// The values that change at the start of a turn: an objective's points, a side's exhaustion point.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<TimedChange>,
    /// The side that attacks, when the scenario says (the key `attacker`): reports that pool several scenarios
    /// count by attacker and defender when every scenario names one.
    #[serde(default)]
    pub attacker: Option<Side>,
    /// The options the scenario sets over the defaults (R11).
    pub options: Options,
    /// The combat system it is played by: the standard rules, or a variant laid over them
    /// ([`Scenario::with_system`]). Not written with the scenario: a save keeps the variant's text beside it.
    #[serde(skip)]
    system: Arc<CombatSystem>,
    /// Proof that the checks made it: private, so that no struct literal outside the engine can.
    #[serde(skip)]
    checked: Checked,
}

/// A [`Scenario`]'s proof of having been checked.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct Checked;

impl Scenario {
    /// The side description.
    pub fn side(&self, side: Side) -> &SideInfo {
        &self.sides[side.index()]
    }

    /// How many units a side has in the battle: those on the board at the start and its reinforcements.
    pub fn starting_units(&self, side: Side) -> usize {
        self.units.iter().filter(|u| u.side == side).count()
    }

    /// The side whose id is `id`.
    pub fn side_by_id(&self, id: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|s| self.sides[s.index()].id == id)
    }

    /// Sets one option (R11) for a game of this scenario, as `--set` and the lobby give them: as
    /// [`Options::set`], with `exhaustion.<side id>` named by this scenario's side ids (or `A`/`B`) and kept from 1 to
    /// the side's number of units. On error `options` is unchanged.
    ///
    /// ```
    /// use pacw_engine::{Options, Scenario};
    /// let s = Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap();
    /// let mut o = s.options;
    /// s.set_option(&mut o, "exhaustion.confederate", "2").unwrap();
    /// assert_eq!(o.exhaustion, [None, Some(2)]);
    /// assert!(s.set_option(&mut o, "exhaustion.prussia", "2").is_err());
    /// assert!(s.set_option(&mut o, "exhaustion.union", "7").is_err(), "the Union has 6 units");
    /// ```
    ///
    /// The numbers of a variant's own arm are options too (`range.skirmishers`, within the bounds of its file's
    /// `[[arms]]`), as are its own modifiers (`modifier.V1`).
    ///
    /// # Errors
    /// When there is no such option for this scenario (a side it does not have, a modifier or an arm its variant
    /// does not add), or the value is not one the option takes: `options` is then unchanged.
    pub fn set_option(&self, options: &mut Options, name: &str, value: &str) -> Result<(), OptionError> {
        if let Some(set) = self.system.set_own_option(options, name, value) {
            return set;
        }
        let Some(id) = name.strip_prefix("exhaustion.") else { return options.set(name, value) };
        let side = self.side_by_id(id).or(match id {
            "A" | "first" => Some(Side::A),
            "B" | "second" => Some(Side::B),
            _ => None,
        });
        let Some(side) = side else {
            let known = format!("{} or {}", self.sides[0].id, self.sides[1].id);
            return Err(OptionError::UnknownSide(format!("{id} (this scenario's sides are {known})")));
        };
        let units = self.starting_units(side);
        let mut next = *options;
        next.set(&format!("exhaustion.{}", ["A", "B"][side.index()]), value)?;
        if next.exhaustion[side.index()].is_some_and(|e| e as usize > units) {
            return Err(OptionError::BadValue {
                name: name.to_string(),
                value: value.to_string(),
                allowed: "a whole number from 1 to the side's number of units".to_string(),
            });
        }
        *options = next;
        Ok(())
    }

    /// The options' values named as this scenario names things (`exhaustion.<side id>`, `modifier.<a variant's own
    /// id>`, and `strength.`, `move.` and `range.<a variant's own arm>` where an option sets them), for records and
    /// reports.
    pub fn option_pairs(&self, options: &Options) -> Vec<(String, String)> {
        let mut pairs: Vec<(String, String)> = options
            .pairs()
            .into_iter()
            .map(|(k, v)| match k.as_str() {
                "exhaustion.A" => (format!("exhaustion.{}", self.sides[0].id), v),
                "exhaustion.B" => (format!("exhaustion.{}", self.sides[1].id), v),
                _ => (k, v),
            })
            .collect();
        for (i, rule) in self.system.modifiers().iter().enumerate() {
            if let Some(value) = options.own_modifier.get(i).filter(|_| rule.is_own()) {
                pairs.push((format!("modifier.{}", rule.id), value.to_string()));
            }
        }
        for (place, arm) in self.system.arms().iter().enumerate().skip(crate::unit::Arm::ALL.len()) {
            for number in crate::options::ArmNumber::ALL {
                if let Some(value) = options.own_arm.get(place, number) {
                    pairs.push((format!("{}.{}", number.name(), arm.id), value.to_string()));
                }
            }
        }
        pairs
    }

    /// The options as a person reads them, as [`Options`]' `Display` gives them (the initiative, moves and ranges
    /// always, the other numbers where they differ from the defaults), then those of the variant's own modifiers and
    /// arms that an option sets, named as this scenario names them (`range.skirmishers=1`): for the headers of a
    /// game and of a scenario shown.
    pub fn options_text(&self, options: &Options) -> String {
        let own = self.option_pairs(options).into_iter().skip(options.pairs().len());
        let mut text = options.to_string();
        for (name, value) in own {
            text += &format!(" {name}={value}");
        }
        text
    }
}

impl Scenario {
    /// A scenario built in code instead of read from a file: for the odds of abstract situations
    /// ([`crate::odds::Situation`]), tests and examples.
    ///
    /// It has two sides, `a` ("Side A", home edge south, red cards) and `b` ("Side B", home edge north, black
    /// cards), each exhausted at half its starting units rounded up (R8.1); no objectives, one point per destroyed
    /// unit and the longest turn limit. The units' `side` fields say which side each is on. The checks of
    /// docs/scenario-format.md that concern these parts are made: the board size (R1.1), every unit on a passable
    /// square of the board (R5.1), at most one unit per square (R2.5), each side at least one unit, at most
    /// [`MAX_UNITS`] units, and the options' ranges (R11). Every problem is reported, under the file name `name`.
    ///
    /// ```
    /// use pacw_engine::{Arm, Dir, Map, Options, Quality, Scenario, Side, Square, UnitInfo};
    /// let unit = |side, x, y, facing| UnitInfo {
    ///     name: format!("{side:?}"), side, arm: Arm::Infantry, quality: Quality::Regular,
    ///     at: Square::new(x, y), facing, own_arm: None, numbers: Default::default(),
    /// };
    /// let units = vec![unit(Side::A, 2, 0, Dir::N), unit(Side::B, 2, 2, Dir::S)];
    /// let s = Scenario::synthetic("two brigades", Map::open(5, 4), units, Options::default()).unwrap();
    /// assert_eq!(s.side(Side::B).home, Dir::N);
    /// assert!(Scenario::synthetic("bad", Map::open(5, 4), vec![], Options::default()).is_err());
    /// ```
    ///
    /// # Errors
    /// When the battle described is not valid (no units, a unit off the map, two on a square, …): every problem.
    pub fn synthetic(name: &str, map: Map, units: Vec<UnitInfo>, options: Options) -> Result<Scenario, ScenarioError> {
        let mut problems = Vec::new();
        let mut problem =
            |message: String| problems.push(Problem { line: None, column: None, message, square: None, unit: None });
        for (what, n) in [("width", map.width()), ("height", map.height())] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&n) {
                problem(format!("the map's {what} is {n}; it must be from {MIN_SIDE} to {MAX_SIDE} (R1.1)"));
            }
        }
        if units.len() > MAX_UNITS {
            problem(format!("{} units: at most {MAX_UNITS} are allowed", units.len()));
        }
        for (i, u) in units.iter().enumerate() {
            if !map.contains(u.at) {
                problem(format!("unit {} ({}): {} is off the board (R1.1)", i + 1, u.name, u.at));
            } else if !map.passable(u.at) {
                problem(format!("unit {} ({}): {} is {} (R5.1)", i + 1, u.name, u.at, map.impassable_words(u.at)));
            }
            if let Some(other) = units[..i].iter().position(|o| o.at == u.at) {
                problem(format!(
                    "unit {} ({}): square {} already holds unit {} (R2.5)",
                    i + 1,
                    u.name,
                    u.at,
                    other + 1
                ));
            }
        }
        let counts = Side::BOTH.map(|side| units.iter().filter(|u| u.side == side).count());
        for side in Side::BOTH {
            if counts[side.index()] == 0 {
                problem(format!("side {side:?} has no units"));
            }
        }
        if let Err(e) = options.validate() {
            problem(e.to_string());
        }
        if !problems.is_empty() {
            return Err(ScenarioError { file: name.to_string(), problems });
        }
        let side = |side: Side, id: &str, home, colour| SideInfo {
            id: id.to_string(),
            name: format!("Side {}", id.to_uppercase()),
            home,
            colour,
            counter: CounterColour::default_for(side),
            exhaustion: counts[side.index()].div_ceil(2) as u8,
        };
        let mut scenario = Scenario {
            name: name.to_string(),
            description: String::new(),
            turns: MAX_TURNS,
            points_per_destroyed: 1,
            map,
            sides: [side(Side::A, "a", Dir::S, Colour::Red), side(Side::B, "b", Dir::N, Colour::Black)],
            units,
            objectives: Vec::new(),
            reinforcements: Vec::new(),
            changes: Vec::new(),
            attacker: None,
            options,
            system: CombatSystem::shared_standard(),
            checked: Checked,
        };
        scenario.resolve_numbers(&options);
        Ok(scenario)
    }

    /// This scenario played by `system` (a variant laid over the standard rules): its modifiers and hit-result
    /// table decide the attacks, the numbers it changes of the standard (a standard modifier's value, a standard
    /// arm's strength, move or range) become this scenario's options, and its `[options]` are set over them.
    ///
    /// ```
    /// use pacw_engine::{Scenario, DEFAULT_SCENARIO, system::CombatSystem};
    /// use std::sync::Arc;
    /// let text = "name = \"Hard cover\"\n[[modifiers]]\nid = \"cover\"\nvalue = -2\n";
    /// let system = Arc::new(CombatSystem::with_variant(text, "hard-cover.toml").unwrap());
    /// let s = Scenario::parse(DEFAULT_SCENARIO, "meeting-engagement.toml").unwrap().with_system(system).unwrap();
    /// assert_eq!(s.options.modifier.cover, -2);
    /// ```
    ///
    /// # Errors
    ///
    /// An option of the variant's that this scenario refuses (an exhaustion point beyond a side's units, say).
    pub fn with_system(mut self, system: Arc<CombatSystem>) -> Result<Scenario, OptionError> {
        let changed = system.changes_to_standard();
        // Played by it first, so that its options may set its own modifiers (`modifier.V1`).
        self.take_system(system.clone())?;
        let mut options = self.options;
        for (name, value) in changed.iter().chain(system.options()) {
            self.set_option(&mut options, name, value)?;
        }
        self.options = options;
        self.resolve_numbers(&options);
        Ok(self)
    }

    /// Each unit's numbers under `options` ([`UnitInfo::numbers`]): its arm's as the options set them (a variant's
    /// own arm's, when none does, as its file gives them), its strength with its quality's adjustment (R2.2, R2.6,
    /// R11).
    fn numbers_under<'a>(&'a self, options: &'a Options) -> impl Iterator<Item = UnitNumbers> + 'a {
        let arms = self.system.arms();
        self.units.iter().map(move |info| {
            let place = info.arm_place() as usize;
            let number = |n| match arms.get(place) {
                Some(arm) => arm.number_under(place, n, options),
                None => options.per_arm(n).get(info.arm),
            };
            UnitNumbers {
                strength: options.adjusted_strength(number(ArmNumber::Strength), info.quality),
                movement: number(ArmNumber::Move),
                range: number(ArmNumber::Range),
            }
        })
    }

    /// Gives its units their numbers under `options` ([`UnitInfo::numbers`]).
    fn resolve_numbers(&mut self, options: &Options) {
        let numbers: Vec<UnitNumbers> = self.numbers_under(options).collect();
        for (info, numbers) in self.units.iter_mut().zip(numbers) {
            info.numbers = numbers;
        }
    }

    /// This scenario with its units' numbers under `options` ([`UnitInfo::numbers`]): itself when they are so
    /// already (under the scenario's own options), else a copy. A battle reads a unit's numbers from its scenario,
    /// so that they are one read at every step of a search.
    pub(crate) fn under(self: &Arc<Scenario>, options: &Options) -> Arc<Scenario> {
        if self.numbers_under(options).zip(&self.units).all(|(numbers, info)| numbers == info.numbers) {
            return Arc::clone(self);
        }
        let mut scenario = Scenario::clone(self);
        scenario.resolve_numbers(options);
        Arc::new(scenario)
    }

    /// The rule a modifier cites and what it is, in words ("R6.4", "attacker did not move"): a variant's own
    /// modifier as its file gives them.
    pub fn describe_modifier(&self, modifier: crate::attack::Modifier) -> (String, String) {
        self.system.describe(modifier)
    }

    /// The name of a unit's arm: a standard arm's (`infantry`), or the variant's own arm's id (`skirmishers`).
    pub fn arm_name<'a>(&'a self, info: &'a UnitInfo) -> &'a str {
        let own = info.own_arm.and_then(|i| self.system.arms().get(i as usize));
        own.map_or(info.arm.name(), |a| a.id.as_str())
    }

    /// The combat system it is played by: the standard rules, or a variant laid over them. Every battle is played
    /// by its scenario's, the standard rules and a variant the same way.
    pub fn system(&self) -> &CombatSystem {
        &self.system
    }

    /// The variant it is played by, if it is not played by the standard rules: a combat system read from a variant
    /// file.
    pub fn variant(&self) -> Option<&CombatSystem> {
        self.system.source().is_some().then_some(&*self.system)
    }

    /// Plays it by `system` as it stands, its options left as they are: for the odds of an abstract situation,
    /// which set the options themselves. Its map is read under the system's terrain rules, as
    /// [`Scenario::with_system`] reads it.
    ///
    /// # Errors
    /// As [`Scenario::take_system`]: the scenario is then unchanged.
    pub(crate) fn set_system(&mut self, system: Arc<CombatSystem>) -> Result<(), OptionError> {
        self.take_system(system)?;
        let options = self.options;
        self.resolve_numbers(&options);
        Ok(())
    }

    /// Takes `system` as the rules it is played by: its attacks decided by the system, and its map read under the
    /// system's terrain rules (R1.5: what each kind costs a move, whether it covers, whether it blocks sight). The
    /// one place a scenario takes a combat system, so that [`Scenario::with_system`] and [`Scenario::set_system`]
    /// read a battle alike.
    ///
    /// # Errors
    /// When the map has a terrain of a variant's own that `system` lacks: the scenario is then unchanged.
    fn take_system(&mut self, system: Arc<CombatSystem>) -> Result<(), OptionError> {
        if !self.map.set_terrain_rules(system.terrain_rules().clone()) {
            return Err(OptionError::Terrain(system.name.clone()));
        }
        self.system = system;
        Ok(())
    }

    /// The combat system it is played by, to keep.
    pub fn combat_system(&self) -> Arc<CombatSystem> {
        self.system.clone()
    }
}
