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
pub mod leaf;
mod model;

pub use features::{FEATURE_NAMES, FEATURES, Features, features};
pub(crate) use features::{activations_left, next_to_act, time_left};
pub(crate) use model::bounded;
pub use model::{MAX_HIDDEN, MAX_WEIGHT, MODEL_FORMAT, Model, ModelError, ModelFile, sigmoid};

use crate::network::encoding::{Encoding, encode};
use crate::network::{EMBEDDED_NETWORK, NETWORK_FORMAT, Network, Scratch};
use model::Net;
use pacw_engine::{Battle, Event, GameResult, ScenarioRef, Side, ToAct};
use std::cell::RefCell;
use std::sync::Arc;

/// The fitted model of the twenty features (written by `pacw train fit`): the reference the value network is
/// measured against, and the yardstick of its learning curve.
pub const EMBEDDED_WEIGHTS: &str = include_str!("../../weights/evaluator.json");

/// The weights this build judges by: the review (its chances, luck and better orders), the barometer, the
/// editor's estimate and the laboratory's luck. A value network from self-play alone (network-240200): its review's
/// better orders hold up when played on (`pacw advice`, docs/findings.md §10) where the fitted evaluator's mostly do
/// not. The network the computer players play by ([`EMBEDDED_NETWORK`]: `td`, the general's leaves) is a later one
/// that also learnt from games against greedy: it plays better, and judges no better (docs/findings.md §10), and a
/// judge's better orders should not lean towards what beats greedy.
pub const JUDGE_WEIGHTS: &str = include_str!("../../weights/judge.json");

/// The judge of grand battles (more than [`GRAND_BATTLE_UNITS`] units): the judge's network taught further on
/// greedy's games of the grand battle, Antietam, each position by the game's result (λ = 1). A grand battle lasts
/// about ten times the decisions of a shipped one, and TD(λ) at λ = 0.7 carries a result back only a few of them,
/// so the judge of the small battles stays timid about a grand one; taught so, a network judges the grand battle
/// better than the baseline the calibration measures by, and the small ones much worse (docs/findings.md §10), so
/// each size has its own, as GNU Backgammon has a network for each class of position.
pub const JUDGE_GRAND_WEIGHTS: &str = include_str!("../../weights/judge-grand.json");

/// A battle of more units than this is judged by the grand battles' judge ([`JUDGE_GRAND_WEIGHTS`]). The judge of
/// the small battles learnt on battles of up to 32 units, the grand one on Antietam's 128: between the two, the one
/// whose games are nearer in length.
pub const GRAND_BATTLE_UNITS: usize = 64;

/// How many chance events in a row [`Evaluator::value`] averages over before it judges the position as it stands
/// (a tie of initiative dice is rolled again, R3.7, so a chain of chance events has no bound of its own).
pub const CHANCE_DEPTH: u8 = 4;

/// The judge of positions: a checked model and what it was trained on.
#[derive(Clone, Debug)]
pub struct Evaluator {
    version: String,
    trained: String,
    model: Judging,
    /// The judge of battles of more than [`GRAND_BATTLE_UNITS`] units, when it is not this one.
    grand: Option<Arc<Evaluator>>,
}

/// What an evaluator judges by.
#[derive(Clone, Debug)]
enum Judging {
    /// A model fitted to the twenty features ([`features`]).
    Features(Net),
    /// The value network, learnt by self-play ([`crate::network`]).
    Network(Arc<Network>),
}

thread_local! {
    /// The network's buffers, one set a thread: judging allocates nothing once warmed up.
    static BUFFERS: RefCell<(Encoding, Scratch)> = RefCell::default();
}

impl Evaluator {
    /// The evaluator this build judges by ([`JUDGE_WEIGHTS`]).
    ///
    /// # Panics
    /// If the embedded weights are not a valid weights file, which a test rules out.
    pub fn embedded() -> Evaluator {
        let grand = Evaluator::parse(JUDGE_GRAND_WEIGHTS).expect("the embedded weights are checked by a test");
        Evaluator::parse(JUDGE_WEIGHTS).expect("the embedded weights are checked by a test").with_grand(grand)
    }

    /// This evaluator with `grand` judging the battles of more than [`GRAND_BATTLE_UNITS`] units in its place; its
    /// version and how it was trained then name both.
    pub fn with_grand(self, grand: Evaluator) -> Evaluator {
        Evaluator {
            version: format!("{} (grand battles: {})", self.version, grand.version),
            trained: format!("{} (grand battles: {})", self.trained, grand.trained),
            grand: Some(Arc::new(grand)),
            ..self
        }
    }

    /// The fitted model of the twenty features ([`EMBEDDED_WEIGHTS`]): the reference the value network is measured
    /// against.
    ///
    /// # Panics
    /// If the embedded weights are not a valid weights file, which a test rules out.
    pub fn reference() -> Evaluator {
        Evaluator::parse(EMBEDDED_WEIGHTS).expect("the embedded weights are checked by a test")
    }

    /// The value network this build embeds ([`EMBEDDED_NETWORK`]), as an evaluator.
    ///
    /// # Panics
    /// If the embedded network is not a valid weights file, which a test rules out.
    pub fn network() -> Evaluator {
        Evaluator::parse(EMBEDDED_NETWORK).expect("the embedded network is checked by a test")
    }

    /// The evaluator of a weights file's text: a fitted model of the features (`pacw train fit`) or a value network
    /// (`pacw train selfplay`).
    ///
    /// # Errors
    /// When the text is neither kind of weights file of this build, or a number in it does not fit the model.
    pub fn parse(text: &str) -> Result<Evaluator, ModelError> {
        #[derive(serde::Deserialize)]
        struct Format {
            format: String,
        }
        if serde_json::from_str::<Format>(text).is_ok_and(|f| f.format == NETWORK_FORMAT) {
            let file: crate::network::NetworkFile = serde_json::from_str(text)?;
            let network = Network::from_file(&file).map_err(|e| ModelError::Shape(e.to_string()))?;
            return Ok(Evaluator {
                version: file.version,
                trained: file.trained,
                model: Judging::Network(Arc::new(network)),
                grand: None,
            });
        }
        Evaluator::from_file(&ModelFile::parse(text)?)
    }

    /// The evaluator of a fitted model's weights file.
    ///
    /// # Errors
    /// When its numbers do not fit its model.
    pub fn from_file(file: &ModelFile) -> Result<Evaluator, ModelError> {
        Ok(Evaluator {
            version: file.version.clone(),
            trained: file.trained.clone(),
            model: Judging::Features(file.net()?),
            grand: None,
        })
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
        chance_average(b, |after, events| self.value_within(after, depth - 1, events), events)
    }

    /// The model's judgement of the position as it stands (its result once the battle is over), with no average
    /// over a pending chance event.
    pub fn model_value<S: ScenarioRef>(&self, b: &Battle<S>) -> f32 {
        if let Some(grand) = self.grand.as_ref().filter(|_| b.scenario_ref().units.len() > GRAND_BATTLE_UNITS) {
            return grand.model_value(b);
        }
        match (b.result(), &self.model) {
            (Some(result), _) => result_value(result),
            (None, Judging::Features(net)) => net.value(&features(b)),
            (None, Judging::Network(network)) => BUFFERS.with_borrow_mut(|(encoding, scratch)| {
                encode(b, encoding);
                crate::network::sigmoid(network.logit(encoding, scratch))
            }),
        }
    }
}

/// The average of `value` over the outcomes of the chance event pending in `b`, weighted by their exact
/// probabilities; outcomes that lead to the same position (every miss of a to-hit die) are judged once.
pub fn chance_average<S: ScenarioRef>(
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

/// This build's embedded evaluator, parsed once and shared (for callers that judge often and hold no evaluator of
/// their own, such as the web server's views).
pub fn shared() -> &'static Evaluator {
    static SHARED: std::sync::OnceLock<Evaluator> = std::sync::OnceLock::new();
    SHARED.get_or_init(Evaluator::embedded)
}

/// The fitted evaluator this build embeds ([`Evaluator::reference`]), parsed once and shared: the search's `:e3`
/// leaves, so that the general plays the same whichever judge the review is made by.
pub fn shared_reference() -> &'static Evaluator {
    static SHARED: std::sync::OnceLock<Evaluator> = std::sync::OnceLock::new();
    SHARED.get_or_init(Evaluator::reference)
}

/// The value network in play ([`crate::network::in_play`]: the embedded one unless the process chose another) as an
/// evaluator, shared (the search's `:e4` leaves, for comparing it with the judge in force).
pub fn shared_network() -> &'static Evaluator {
    static SHARED: std::sync::OnceLock<Evaluator> = std::sync::OnceLock::new();
    SHARED.get_or_init(|| {
        let in_play = crate::network::in_play();
        Evaluator {
            version: in_play.version.clone(),
            trained: in_play.trained.clone(),
            model: Judging::Network(in_play.network.clone()),
            grand: None,
        }
    })
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
