//! The evaluator: the first side's expected score (a win 1, a draw ½, a loss 0) of any position of any battle, from
//! the position alone — never the seed.
//!
//! A finished battle is worth its result. Where a side is to act, a model fitted to games judges the position's
//! [`features`]; where chance is, the value is the exact average over the outcomes, weighted by their
//! probabilities (R9.2), so that the luck of a die or a card is exactly the value after it less the value before
//! (see the review). The model's weights are fitted by `pacw train` and embedded in the binary
//! ([`Evaluator::embedded`]); each file carries a version that every review records.
//!
//! ```
//! use pacw_ai::Evaluator;
//! use pacw_engine::{Battle, Scenario};
//! use std::sync::Arc;
//! let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
//! let evaluator = Evaluator::embedded();
//! let p = evaluator.value(&Battle::from_scenario(scenario));
//! assert!((0.0..=1.0).contains(&p));
//! ```

mod features;
mod model;

pub use features::{FEATURE_NAMES, FEATURES, Features, features};
pub(crate) use features::{activations_left, next_to_act, time_left};
pub use model::{MAX_HIDDEN, MODEL_FORMAT, Model, ModelError, ModelFile, sigmoid};

use model::Net;
use pacw_engine::{Battle, Event, GameResult, ScenarioRef, Side, ToAct};

/// The weights this build judges by (written by `pacw train fit`).
pub const EMBEDDED_WEIGHTS: &str = include_str!("../../weights/evaluator.json");

/// How many chance events in a row [`Evaluator::value`] averages over before it judges the position as it stands
/// (a tie of initiative dice is rolled again, R3.7, so a chain of chance events has no bound of its own).
pub const CHANCE_DEPTH: u8 = 4;

/// The judge of positions: a checked model and what it was trained on.
#[derive(Clone, Debug)]
pub struct Evaluator {
    version: String,
    trained: String,
    net: Net,
}

impl Evaluator {
    /// The evaluator of this build's embedded weights.
    ///
    /// # Panics
    /// If the embedded weights are not a valid weights file, which a test rules out.
    pub fn embedded() -> Evaluator {
        Evaluator::parse(EMBEDDED_WEIGHTS).expect("the embedded weights are checked by a test")
    }

    /// The evaluator of a weights file's text.
    ///
    /// # Errors
    /// When the text is not a weights file of this build's features, or a number in it does not fit the model.
    pub fn parse(text: &str) -> Result<Evaluator, ModelError> {
        Evaluator::from_file(&ModelFile::parse(text)?)
    }

    /// The evaluator of a weights file.
    ///
    /// # Errors
    /// When its numbers do not fit its model.
    pub fn from_file(file: &ModelFile) -> Result<Evaluator, ModelError> {
        Ok(Evaluator { version: file.version.clone(), trained: file.trained.clone(), net: file.net()? })
    }

    /// The weights' version, as a review records it.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// How the weights were made: the training command and what it was trained on.
    pub fn trained(&self) -> &str {
        &self.trained
    }

    /// The first side's expected score of the position: its result once the battle is over, the exact average over
    /// the outcomes where chance is to act (up to [`CHANCE_DEPTH`] events in a row), the model's judgement where a
    /// side is.
    pub fn value<S: ScenarioRef>(&self, b: &Battle<S>) -> f32 {
        self.value_within(b, CHANCE_DEPTH, &mut Vec::new())
    }

    fn value_within<S: ScenarioRef>(&self, b: &Battle<S>, depth: u8, events: &mut Vec<Event>) -> f32 {
        if depth == 0 || !matches!(b.to_act(), ToAct::Chance(_)) {
            return self.model_value(b);
        }
        self.chance_average(b, |after, events| self.value_within(after, depth - 1, events), events)
    }

    /// The average of `value` over the outcomes of the chance event pending in `b`, weighted by their exact
    /// probabilities; outcomes that lead to the same position (every miss of a to-hit die) are judged once.
    pub fn chance_average<S: ScenarioRef>(
        &self,
        b: &Battle<S>,
        mut value: impl FnMut(&Battle<S>, &mut Vec<Event>) -> f32,
        events: &mut Vec<Event>,
    ) -> f32 {
        let mut seen: Vec<(Battle<S>, f32)> = Vec::with_capacity(6);
        let mut total = 0.0;
        for (outcome, p) in b.chance_outcomes() {
            let p = *p.numer() as f32 / *p.denom() as f32;
            let mut after = b.clone();
            events.clear();
            if after.apply_chance_into(outcome, events).is_err() {
                continue; // never: the outcomes listed are the legal ones
            }
            let v = match seen.iter().find(|(s, _)| s.same_position(&after)) {
                Some(&(_, v)) => v,
                None => {
                    let v = value(&after, events);
                    seen.push((after, v));
                    v
                }
            };
            total += p * v;
        }
        total
    }

    /// The model's judgement of the position as it stands (its result once the battle is over), with no average
    /// over a pending chance event.
    pub fn model_value<S: ScenarioRef>(&self, b: &Battle<S>) -> f32 {
        match b.result() {
            Some(result) => result_value(result),
            None => self.net.value(&features(b)),
        }
    }

    /// The model's value of a position's features (the forward pass alone).
    pub fn value_of_features(&self, x: &Features) -> f32 {
        self.net.value(x)
    }
}

/// This build's embedded evaluator, parsed once and shared (for callers that judge often and hold no evaluator of
/// their own, such as the web server's views).
pub fn shared() -> &'static Evaluator {
    static SHARED: std::sync::OnceLock<Evaluator> = std::sync::OnceLock::new();
    SHARED.get_or_init(Evaluator::embedded)
}

/// A result as the first side's score: a win 1, a draw ½, a loss 0.
pub fn result_value(result: GameResult) -> f32 {
    match result.winner {
        Some(Side::A) => 1.0,
        Some(Side::B) => 0.0,
        None => 0.5,
    }
}

#[cfg(test)]
mod tests;
