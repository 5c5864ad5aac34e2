//! A game: a scenario, options, a seed and the sides' decisions (docs/architecture.md). Chance is sampled from a ChaCha
//! generator seeded with the seed, so the same decisions always give the same game; saves hold exactly that.

use crate::action::{Action, Illegal};
use crate::battle::{Battle, ToAct};
use crate::chance::Outcome;
use crate::event::{Declared, Event};
use crate::options::Options;
use crate::scenario::{Scenario, ScenarioError};
use crate::system::CombatSystem;
use crate::unit::Side;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The `format` field of every save file.
pub const SAVE_FORMAT: &str = "pacw-save";
/// The save format version this build writes and reads.
pub const SAVE_VERSION: u32 = 1;

/// A game driven from a seed: the battle, its random source and the record of decisions and events.
#[derive(Clone, Debug)]
pub struct Game {
    scenario_file: String,
    scenario_text: String,
    seed: u64,
    actions: Vec<Action>,
    battle: Battle,
    rng: ChaCha8Rng,
    log: Vec<Event>,
    /// Every chance outcome drawn, in order: with the decisions, the whole path of the game through its states.
    outcomes: Vec<Outcome>,
    /// How the game was ended off the board after its last decision, if it was ([`Game::conclude`]).
    declared: Option<Declared>,
}

/// A variant file as a save keeps it: its name and whole text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedVariant {
    /// The file's name, for messages.
    pub file: String,
    /// Its text.
    pub text: String,
}

/// A saved game as written to disk: readable JSON (see [`Game::save`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    /// Always `pacw-save`.
    pub format: String,
    /// The save format version.
    pub version: u32,
    /// The scenario's file name, for messages.
    pub scenario_file: String,
    /// The scenario's full text, so a save does not depend on files that may change.
    pub scenario: String,
    /// The options in force (R11).
    pub options: Options,
    /// The seed of the chance events.
    pub seed: u64,
    /// The sides' decisions in order.
    pub actions: Vec<Action>,
    /// The side that resigned after the last decision, if one did ([`Game::resign`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<Side>,
    /// Any other ending declared after the last decision: a side out of time, or a draw agreed ([`Game::conclude`]).
    /// A resignation stays in `resigned`, as saves have always written it; a save before these endings has neither
    /// field and loads as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared: Option<Declared>,
    /// Who played each side, first side first: `human` or a computer player's name, as the program that wrote the
    /// save records it (`pacw play`); the engine does not read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<[String; 2]>,
    /// The variant file the game is played by, if not the standard rules (docs/variants.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<SavedVariant>,
    /// The variant files the rules were laid from, bottom first, each its name and whole text, when there are
    /// several (docs/variants.md, "Variants that combine"): loaded, they are laid again in that order, so that each
    /// rule names the file that last wrote it, as it did before the save. `variant` still holds them written as one
    /// file, and they must make the rules it says; a save of one variant or none has no layers, and a save written
    /// before they were kept has `variant` alone and loads by it, as it always did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layers: Option<Vec<SavedVariant>>,
    /// How many events the game had when saved, and a fingerprint of them, to detect a save that was edited.
    pub events: usize,
    /// FNV-1a hash of the event log's JSON, in hex.
    pub fingerprint: String,
}

/// Why a save could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Not JSON of the save's shape.
    #[error("the save is damaged: {0}")]
    Json(#[from] serde_json::Error),
    /// JSON, but not a pacw save of this version.
    #[error("not a pacw save (format '{format}', version {version}; expected '{SAVE_FORMAT}', version {SAVE_VERSION})")]
    Format {
        /// The format field found.
        format: String,
        /// The version found.
        version: u32,
    },
    /// Its scenario no longer passes the checks.
    #[error("the save's scenario is not valid:\n{0}")]
    Scenario(#[from] ScenarioError),
    /// Its variant file is not valid.
    #[error("the save's variant is not valid:\n{0}")]
    Variant(#[from] crate::system::SystemError),
    /// Its layers do not make the rules its variant file says, or it has layers without that file: one of the two
    /// was altered.
    #[error("{0}; the save was altered or damaged")]
    Layers(String),
    /// Its options are out of range.
    #[error("the save's options are not valid: {0}")]
    Options(#[from] crate::options::OptionError),
    /// A decision is not legal when replayed.
    #[error(
        "decision {index} of the save ({}) is illegal: {error}; the save was altered or damaged",
        serde_json::to_string(action).unwrap_or_default()
    )]
    Illegal {
        /// Its position, from 1.
        index: usize,
        /// The decision.
        action: Action,
        /// Why.
        error: Illegal,
    },
    /// The save says a side resigned (or declares another ending) after the game had ended, or declares two endings.
    #[error("the save says a side resigned after the game was over; the save was altered or damaged")]
    ResignedAfterEnd,
    /// The replay does not give the events the save recorded.
    #[error(
        "the save was altered: replaying its decisions gives {found} events with fingerprint {found_hash}, the save says {expected} with {expected_hash}"
    )]
    Tampered {
        /// Events the save recorded.
        expected: usize,
        /// Fingerprint it recorded.
        expected_hash: String,
        /// Events the replay made.
        found: usize,
        /// Their fingerprint.
        found_hash: String,
    },
}

impl Game {
    /// A new game of the scenario `text` (named `file` in messages), under `options` (the scenario's own when
    /// `None`), with chance drawn from `seed`.
    ///
    /// # Errors
    /// When the scenario is not valid: every problem at its line and column.
    pub fn new(text: &str, file: &str, options: Option<Options>, seed: u64) -> Result<Game, ScenarioError> {
        let scenario = Arc::new(Scenario::parse(text, file)?);
        Ok(Game::with_scenario(scenario, text, file, options, seed))
    }

    /// A new game of an already parsed scenario (`text` is kept for saves).
    pub fn with_scenario(scenario: Arc<Scenario>, text: &str, file: &str, options: Option<Options>, seed: u64) -> Game {
        let options = options.unwrap_or(scenario.options);
        let battle = Battle::new(scenario, options);
        let mut game = Game {
            scenario_file: file.to_string(),
            scenario_text: text.to_string(),
            seed,
            actions: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            log: vec![Event::TurnStarted { turn: 1, iv: battle.initiative_values() }],
            outcomes: Vec::new(),
            battle,
            declared: None,
        };
        let mut events = Vec::new();
        game.run_chance(&mut events);
        game.log.extend(events);
        game
    }

    /// The battle as it stands.
    pub fn battle(&self) -> &Battle {
        &self.battle
    }

    /// Every event so far.
    pub fn log(&self) -> &[Event] {
        &self.log
    }

    /// The sides' decisions so far.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// Every chance outcome so far (cards drawn, dice rolled), in order. With [`Game::actions`] it is the game's
    /// path: from the scenario's first position, apply the next outcome whenever chance is to act and the next
    /// action whenever a side is ([`Game::path`]).
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// The game's path from its first position: each step a side's action or a chance outcome, in the order they
    /// were applied, then the ending declared off the board if there was one.
    ///
    /// # Panics
    /// If the game's own decisions did not replay, which would be a bug in the engine: each was checked when played.
    pub fn path(&self) -> Vec<Step> {
        let mut battle = Battle::new(self.battle.scenario().clone(), *self.battle.options());
        let (mut actions, mut outcomes) = (self.actions.iter(), self.outcomes.iter());
        let mut path = Vec::with_capacity(self.actions.len() + self.outcomes.len() + 1);
        loop {
            let step = match battle.to_act() {
                ToAct::Side(side) => match actions.next() {
                    Some(&a) => {
                        battle.apply(a).expect("a game's own decisions replay");
                        Step::Action(side, a)
                    }
                    None => break,
                },
                ToAct::Chance(_) => match outcomes.next() {
                    Some(&o) => {
                        battle.apply_chance(o).expect("a game's own chance outcomes replay");
                        Step::Chance(o)
                    }
                    None => break,
                },
                ToAct::Over(_) => break,
            };
            path.push(step);
        }
        path.extend(self.declared.map(Step::Declared));
        path
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The scenario's file name.
    pub fn scenario_file(&self) -> &str {
        &self.scenario_file
    }

    /// Applies a side's action, then resolves chance until a side must act or the game ends.
    /// Returns the events; on error nothing changes.
    ///
    /// # Errors
    /// When the action is not legal now, citing the rule it breaks.
    pub fn act(&mut self, action: Action) -> Result<Vec<Event>, Illegal> {
        let mut events = self.battle.apply(action)?;
        self.actions.push(action);
        self.run_chance(&mut events);
        self.log.extend_from_slice(&events);
        Ok(events)
    }

    /// As [`Game::act`], for an action just listed in the battle as it stands (a computer player's choice): not
    /// judged again ([`Battle::apply_unchecked`]). Returns the new events, at the end of the log (no allocation:
    /// simulations play millions of these).
    ///
    /// # Panics
    ///
    /// In a debug build, when the action is not legal (see [`Battle::apply_unchecked`]).
    pub fn act_unchecked(&mut self, action: Action) -> &[Event] {
        let start = self.log.len();
        let mut log = std::mem::take(&mut self.log);
        self.battle.apply_unchecked(action, &mut log);
        self.actions.push(action);
        self.run_chance(&mut log);
        self.log = log;
        &self.log[start..]
    }

    /// `side` resigns: the game ends and the other side wins ([`Battle::resign`]). Returns the events; on error
    /// (the game is over) nothing changes.
    ///
    /// # Errors
    /// When the game is already over (R8).
    pub fn resign(&mut self, side: Side) -> Result<Vec<Event>, Illegal> {
        self.conclude(Declared::Resigned(side))
    }

    /// The game ends as declared off the board: a resignation, a side out of time, or a draw agreed
    /// ([`Battle::conclude`]). Returns the events; on error (the game is over) nothing changes.
    ///
    /// # Errors
    /// When the game is already over (R8).
    pub fn conclude(&mut self, how: Declared) -> Result<Vec<Event>, Illegal> {
        let events = self.battle.conclude(how)?;
        self.declared = Some(how);
        self.log.extend_from_slice(&events);
        Ok(events)
    }

    /// The side that resigned, if one did.
    pub fn resigned(&self) -> Option<Side> {
        match self.declared {
            Some(Declared::Resigned(side)) => Some(side),
            _ => None,
        }
    }

    /// How the game was ended off the board, if it was: resigned, out of time, or a draw agreed.
    pub fn declared(&self) -> Option<Declared> {
        self.declared
    }

    fn run_chance(&mut self, events: &mut Vec<Event>) {
        while let Some(outcome) = self.battle.sample_chance(&mut self.rng) {
            self.battle.apply_chance_into(outcome, events).expect("a sampled outcome is always legal");
            self.outcomes.push(outcome);
        }
    }

    /// The game as a save: scenario text, options, seed, decisions and a fingerprint of the events.
    pub fn save(&self) -> SaveFile {
        SaveFile {
            format: SAVE_FORMAT.to_string(),
            version: SAVE_VERSION,
            scenario_file: self.scenario_file.clone(),
            scenario: self.scenario_text.clone(),
            options: *self.battle.options(),
            seed: self.seed,
            actions: self.actions.clone(),
            resigned: self.resigned(),
            declared: self.declared.filter(|d| !matches!(d, Declared::Resigned(_))),
            players: None,
            variant: self.saved_variant(),
            layers: self.saved_layers(),
            events: self.log.len(),
            fingerprint: fingerprint(&self.log),
        }
    }

    /// The rules as a save keeps them: the variant file the game is played by, if any. A game by the standard rules
    /// of a battle that names a variant (the laboratory's `--compare rules=standard`) keeps the standard rules'
    /// file, or its replay would play by the battle's variant.
    fn saved_variant(&self) -> Option<SavedVariant> {
        match self.battle.scenario().system().source() {
            Some((file, text)) => Some(SavedVariant { file: file.to_string(), text: text.to_string() }),
            None if Scenario::names_variant(&self.scenario_text) => Some(SavedVariant {
                file: "rules/standard.toml".to_string(),
                text: crate::system::STANDARD.to_string(),
            }),
            None => None,
        }
    }

    /// The variant files the rules were laid from, as a save keeps them, when there are several.
    fn saved_layers(&self) -> Option<Vec<SavedVariant>> {
        let layers = self.battle.scenario().system().layers();
        let saved = |l: &crate::system::Layer| SavedVariant { file: l.file.clone(), text: l.text().to_string() };
        (layers.len() > 1).then(|| layers.iter().map(saved).collect())
    }

    /// The rules of a save that keeps its layers: each file laid again over the ones below it, bottom first, which
    /// must make the rules that its variant file says.
    fn laid_again(variant: Option<&SavedVariant>, layers: &[SavedVariant]) -> Result<CombatSystem, SaveError> {
        let Some(variant) = variant else {
            let message =
                "the save keeps the variant files its rules were laid from (layers) without the one that says them all";
            return Err(SaveError::Layers(message.to_string()));
        };
        let mut system = CombatSystem::standard();
        for layer in layers {
            system = system.with_layer(&layer.text, &layer.file)?;
        }
        if system != CombatSystem::with_variant(&variant.text, &variant.file)? {
            let files: Vec<&str> = layers.iter().map(|l| l.file.as_str()).collect();
            let files = if files.is_empty() { "none".to_string() } else { files.join(", ") };
            let message = format!(
                "the save's layers ({files}, laid in order) do not make the rules its variant file {} says",
                variant.file
            );
            return Err(SaveError::Layers(message));
        }
        Ok(system)
    }

    /// The save as pretty JSON.
    ///
    /// # Panics
    /// Never for a save this library made: every field of a save is plain JSON.
    pub fn save_json(&self) -> String {
        serde_json::to_string_pretty(&self.save()).expect("a save always serialises")
    }

    /// Loads a save and replays it, checking every decision and the events' fingerprint.
    ///
    /// # Errors
    /// As [`Game::from_save`], and when the text is not JSON of a save's shape.
    pub fn load(json: &str) -> Result<Game, SaveError> {
        let save: SaveFile = serde_json::from_str(json)?;
        Game::from_save(&save)
    }

    /// Replays a parsed save.
    ///
    /// # Errors
    /// When the save is of another format or version, its scenario, variant, layers or options are no longer valid
    /// (its layers not making the rules its variant says), a decision is not legal when replayed, or the events do not
    /// match its fingerprint (it was altered).
    pub fn from_save(save: &SaveFile) -> Result<Game, SaveError> {
        if save.format != SAVE_FORMAT || save.version != SAVE_VERSION {
            return Err(SaveError::Format { format: save.format.clone(), version: save.version });
        }
        save.options.validate()?;
        let system = match (&save.variant, &save.layers) {
            (_, Some(layers)) => Some(Game::laid_again(save.variant.as_ref(), layers)?),
            (Some(v), None) => Some(CombatSystem::with_variant(&v.text, &v.file)?),
            (None, None) => None,
        };
        let scenario = match system {
            Some(system) => Scenario::parse_with(&save.scenario, &save.scenario_file, Arc::new(system))?,
            None => Scenario::parse(&save.scenario, &save.scenario_file)?,
        };
        let mut game =
            Game::with_scenario(Arc::new(scenario), &save.scenario, &save.scenario_file, Some(save.options), save.seed);
        let scenario = game.battle.scenario().clone();
        for side in Side::BOTH {
            if save.options.exhaustion[side.index()].is_some_and(|e| e as usize > scenario.starting_units(side)) {
                let name = format!("exhaustion.{}", scenario.side(side).id);
                let allowed = "a whole number from 1 to the side's number of units";
                let value = save.options.exhaustion[side.index()].unwrap_or(0).to_string();
                return Err(crate::options::OptionError::BadValue { name, value, allowed: allowed.to_string() }.into());
            }
        }
        for (i, &action) in save.actions.iter().enumerate() {
            game.act(action).map_err(|error| SaveError::Illegal { index: i + 1, action, error })?;
        }
        let declared = match (save.resigned, save.declared) {
            (Some(_), Some(_)) => return Err(SaveError::ResignedAfterEnd),
            (Some(side), None) => Some(Declared::Resigned(side)),
            (None, other) => other,
        };
        if let Some(how) = declared {
            game.conclude(how).map_err(|_| SaveError::ResignedAfterEnd)?;
        }
        let found_hash = fingerprint(&game.log);
        if game.log.len() != save.events || found_hash != save.fingerprint {
            return Err(SaveError::Tampered {
                expected: save.events,
                expected_hash: save.fingerprint.clone(),
                found: game.log.len(),
                found_hash,
            });
        }
        Ok(game)
    }

    /// The same game with its last `n` decisions taken back (replayed from the start without them).
    ///
    /// # Panics
    /// If the game's own decisions did not replay, which would be a bug in the engine: each was checked when played.
    pub fn undo(&self, n: usize) -> Game {
        let keep = self.actions.len().saturating_sub(n);
        let mut game = Game::with_scenario(
            self.battle.scenario().clone(),
            &self.scenario_text,
            &self.scenario_file,
            Some(*self.battle.options()),
            self.seed,
        );
        for &a in &self.actions[..keep] {
            game.act(a).expect("a prefix of legal decisions stays legal");
        }
        game
    }

    /// Whether the game is waiting for a side (not over).
    pub fn waiting_for_side(&self) -> bool {
        matches!(self.battle.to_act(), ToAct::Side(_))
    }
}

/// One step of a game's path ([`Game::path`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Step {
    /// A side's decision.
    Action(Side, Action),
    /// A chance outcome: a card drawn or a die rolled.
    Chance(Outcome),
    /// The game was ended off the board: a side resigned, ran out of time, or a draw was agreed (the last step).
    Declared(Declared),
}

/// FNV-1a over the events' JSON: stable, dependency-free, enough to notice an edited save.
fn fingerprint(events: &[Event]) -> String {
    let json = serde_json::to_vec(events).expect("events always serialise");
    let hash = json.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3));
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_holds_every_decision_and_chance_outcome_in_order_and_leads_to_the_same_battle() {
        let mut game = Game::new(crate::DEFAULT_SCENARIO, "m.toml", None, 11).unwrap();
        // The first listed action each time (activate, then hold or end) until a unit is left to move.
        while game.waiting_for_side() && game.actions().len() < 30 {
            let first = game.battle().legal_actions()[0];
            game.act(first).unwrap();
        }
        assert!(game.waiting_for_side(), "the game is still on after 30 decisions");
        game.resign(Side::B).unwrap();
        let path = game.path();
        assert_eq!(path.len(), game.actions().len() + game.outcomes().len() + 1);
        assert!(matches!(path[0], Step::Chance(Outcome::Card(_))), "the game opens with a card drawn (R3.3)");
        assert_eq!(path.last(), Some(&Step::Declared(Declared::Resigned(Side::B))));
        let mut b = Battle::new(game.battle().scenario().clone(), *game.battle().options());
        for step in &path {
            match *step {
                Step::Action(side, a) => {
                    assert_eq!(b.to_act(), ToAct::Side(side));
                    b.apply(a).unwrap();
                }
                Step::Chance(o) => {
                    b.apply_chance(o).unwrap();
                }
                Step::Declared(how) => {
                    b.conclude(how).unwrap();
                }
            }
        }
        assert_eq!(b.result(), game.battle().result());
        assert_eq!(b.points(), game.battle().points());
    }

    #[test]
    fn a_win_on_time_and_a_draw_agreed_end_the_game_and_survive_a_save_and_a_resignation_saves_as_before() {
        let fresh = || {
            let mut game = Game::new(crate::DEFAULT_SCENARIO, "m.toml", None, 5).unwrap();
            let first = game.battle().legal_actions()[0];
            game.act(first).unwrap();
            game
        };
        for (how, winner, reason) in [
            (Declared::OutOfTime(Side::A), Some(Side::B), crate::EndReason::OutOfTime(Side::A)),
            (Declared::DrawAgreed, None, crate::EndReason::DrawAgreed),
            (Declared::Resigned(Side::B), Some(Side::A), crate::EndReason::Resigned(Side::B)),
        ] {
            let mut game = fresh();
            let events = game.conclude(how).unwrap();
            let result = game.battle().result().expect("over");
            assert_eq!((result.winner, result.reason), (winner, reason));
            assert_eq!(events, vec![Event::GameOver { result }]);
            assert!(game.conclude(Declared::DrawAgreed).is_err(), "once over, nothing more is declared");
            let save = game.save();
            // A resignation is written as saves always wrote it; the others in `declared`.
            match how {
                Declared::Resigned(side) => assert_eq!((save.resigned, save.declared), (Some(side), None)),
                other => assert_eq!((save.resigned, save.declared), (None, Some(other))),
            }
            let loaded = Game::load(&game.save_json()).unwrap();
            assert_eq!((loaded.declared(), loaded.log()), (Some(how), game.log()));
            assert_eq!(loaded.path().last(), Some(&Step::Declared(how)));
        }
        // A save that declares two endings was altered.
        let mut game = fresh();
        game.conclude(Declared::DrawAgreed).unwrap();
        let mut both = game.save();
        both.resigned = Some(Side::A);
        assert!(matches!(Game::from_save(&both), Err(SaveError::ResignedAfterEnd)));
        // A save from before these endings has no `declared` field and loads as it did.
        let json = fresh().save_json();
        assert!(!json.contains("declared"));
        assert!(Game::load(&json).unwrap().declared().is_none());
    }
}
