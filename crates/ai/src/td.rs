//! The `td` player: the value network's own choice at one ply, as TD-Gammon played. Every plan the side could
//! make (an activation with one of the unit's orders, or a lone action) is judged by the network after it, with the
//! exact average over its dice; the best is played. It sees only the battle, never the seed.

use crate::Player;
use crate::choices::{Choice, each_choice};
use crate::network::Network;
use crate::network::judge::Judge;
use pacw_engine::{Action, Battle, Side, ToAct};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The network's one-ply player.
#[derive(Clone, Debug)]
pub struct TdPlayer {
    judge: Judge,
    rng: ChaCha8Rng,
    /// The share of decisions made at random among the plans (training's exploration; 0 in play).
    exploration: f64,
    /// The order chosen with the last activation, and the state the activation leads to.
    planned: Option<(Battle, Action)>,
    /// The plans judged at the last decision, each with the acting side's expected score.
    judged: Vec<(Choice, f32)>,
}

impl TdPlayer {
    /// A player judging by `network`, seeded for its ties (and its exploration).
    pub fn new(network: Arc<Network>, seed: u64) -> TdPlayer {
        TdPlayer {
            judge: Judge::new(network),
            rng: ChaCha8Rng::seed_from_u64(seed),
            exploration: 0.0,
            planned: None,
            judged: Vec::new(),
        }
    }

    /// This player averaging over the card to be drawn after a plan that ends its side's activations, rather than
    /// taking the network's estimate before the draw (slower, for the laboratory: `td:cards`).
    pub fn averaging_cards(mut self) -> TdPlayer {
        self.judge = self.judge.averaging_cards();
        self
    }

    /// This player choosing a plan at random in `share` of its decisions (for training).
    pub fn exploring(mut self, share: f64) -> TdPlayer {
        self.exploration = share.clamp(0.0, 1.0);
        self
    }

    /// The judge it plays by.
    pub fn judge(&mut self) -> &mut Judge {
        &mut self.judge
    }

    /// Every choice of the side to act in `b`, each with that side's expected score after it, in the order the
    /// engine lists them.
    pub fn judge_plans(&mut self, b: &Battle, side: Side) -> &[(Choice, f32)] {
        self.judged.clear();
        let (judge, judged) = (&mut self.judge, &mut self.judged);
        each_choice(b, |choice, after| judged.push((choice, of(side, judge.value(after)))));
        &self.judged
    }

    /// The plan to play in `b`: the best judged (ties broken at random), or with the exploration's chance any.
    fn pick(&mut self, b: &Battle, side: Side) -> Option<Choice> {
        self.judge_plans(b, side);
        if self.judged.is_empty() {
            return None;
        }
        if self.exploration > 0.0 && self.rng.random_bool(self.exploration) {
            let i = self.rng.random_range(0..self.judged.len());
            return Some(self.judged[i].0);
        }
        let mut best: Option<(Choice, f32)> = None;
        for &(plan, v) in &self.judged {
            let v = v + self.rng.random_range(0.0..1e-6);
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((plan, v));
            }
        }
        best.map(|(plan, _)| plan)
    }
}

/// The acting side's share of the first side's expected score.
fn of(side: Side, first: f32) -> f32 {
    if side == Side::A { first } else { 1.0 - first }
}

impl Player for TdPlayer {
    fn name(&self) -> &str {
        "td"
    }

    fn choose(&mut self, b: &Battle) -> Action {
        if let Some((after_activation, order)) = self.planned.take()
            && after_activation == *b
        {
            return order;
        }
        let ToAct::Side(side) = b.to_act() else {
            return Action::EndActivations; // never: a player is asked only where its side acts
        };
        match self.pick(b, side) {
            Some(Choice { first, then: Some(then) }) => {
                let mut activated = b.clone();
                activated.apply_unchecked(first, &mut Vec::new());
                self.planned = Some((activated, then));
                first
            }
            Some(Choice { first, then: None }) => first,
            None => b.legal_actions().first().copied().unwrap_or(Action::EndActivations),
        }
    }
}
