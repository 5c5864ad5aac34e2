//! The `recruit` level: greedy's judgement, with a newcomer's mistakes. Each decision is drawn among the legal ones
//! with a chance that grows with how good greedy judges it (a softmax of the values at a temperature): the best order
//! is the likeliest, one nearly as good is often taken instead, a clearly bad one hardly ever. So its mistakes are
//! those of a player who sees roughly what matters but misjudges close calls, not those of a random one.

use crate::Player;
use crate::greedy::{GreedyPlayer, scored_actions};
use pacw_engine::{Action, Battle};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The temperature `recruit` plays at by default, in the units of greedy's values (about a point of the score):
/// chosen by measurement to lose to greedy more often than it wins and beat random nearly always (docs/findings.md).
pub const RECRUIT_TEMPERATURE: f32 = 0.5;

/// A greedy player that misjudges close calls: see the module.
#[derive(Clone, Debug)]
pub struct RecruitPlayer {
    greedy: GreedyPlayer,
    rng: ChaCha8Rng,
    temperature: f32,
}

impl RecruitPlayer {
    /// A recruit playing at `temperature` (greater: more mistakes; towards 0: greedy), seeded for its choices.
    pub fn new(temperature: f32, seed: u64) -> Self {
        RecruitPlayer {
            greedy: GreedyPlayer::new(seed),
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x7265_6372_7569_7400),
            temperature: temperature.max(1e-6),
        }
    }
}

impl Player for RecruitPlayer {
    fn name(&self) -> &str {
        "recruit"
    }

    fn choose(&mut self, battle: &Battle) -> Action {
        let scored = scored_actions(&mut self.greedy, battle);
        let Some(&(_, best)) = scored.first() else { return Action::EndActivations };
        // Weights relative to the best, so that no value overflows; a value that is not a number weighs nothing.
        let weights: Vec<f32> = scored
            .iter()
            .map(|&(_, v)| ((v - best) / self.temperature).exp())
            .map(|w| if w.is_finite() { w } else { 0.0 })
            .collect();
        let total: f32 = weights.iter().sum();
        if total.is_nan() || total <= 0.0 {
            return scored[0].0;
        }
        let mut draw = self.rng.random_range(0.0..total);
        for (&(action, _), w) in scored.iter().zip(&weights) {
            if draw < *w {
                return action;
            }
            draw -= w;
        }
        scored[0].0
    }
}
