//! The `greedy` player: each decision by its immediate expected value from the exact odds, plus a positional
//! judgement of the square it leads to (cover, objectives, flanks, guns out of charge range).

use crate::Player;
use crate::evaluate::{OrderJudge, View, Weights};
use pacw_engine::{Action, ActivationOrders, AttackAssessment, Battle, Side, ToAct, UnitId};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::borrow::Cow;

/// Picks the action of greatest immediate value; ties are broken at random from its seed.
#[derive(Clone, Debug)]
pub struct GreedyPlayer {
    rng: ChaCha8Rng,
    buffer: Vec<(Action, Option<AttackAssessment>)>,
    /// Each side's judgement (the same for both unless a search plays one side differently).
    weights: [Weights; 2],
    /// The orders of every unit judged for the last activation decision, each with its value (before the
    /// tie-break), in the order judged.
    judged: Vec<(UnitId, Action, f32)>,
    /// The battle just after the unit chosen last was activated, and its orders as they were judged then: when
    /// the next decision is in that very battle, its orders are not judged again (activating changes nothing
    /// they are judged on).
    activated: Option<(Battle, Vec<(Action, f32)>)>,
    /// Each side's last view, renewed for the next decision so that the squares it scored are kept while the
    /// enemies stand as they were ([`View::renew`]).
    views: [Option<View>; 2],
    /// Buffers reused from decision to decision: the legal actions, and the gain of each activation.
    actions: Vec<Action>,
    gains: Vec<(Action, f32)>,
}

impl GreedyPlayer {
    /// A greedy player seeded for its tie-breaks.
    pub fn new(seed: u64) -> Self {
        GreedyPlayer::with_weights(seed, [Weights::GREEDY; 2])
    }

    /// A player that judges each side's decisions by that side's weights.
    pub fn with_weights(seed: u64, weights: [Weights; 2]) -> Self {
        GreedyPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
            buffer: Vec::new(),
            weights,
            judged: Vec::new(),
            activated: None,
            views: [None, None],
            actions: Vec::new(),
            gains: Vec::new(),
        }
    }

    /// The view of `side` of the battle, judged by its weights (give it back with [`GreedyPlayer::keep_view`]).
    fn view(&mut self, b: &Battle, side: Side) -> View {
        let weights = &self.weights[side.index()];
        match self.views[side.index()].take() {
            Some(mut view) => {
                view.renew(b, side, weights);
                view
            }
            None => View::new(b, side, weights),
        }
    }

    /// Keeps a view of `side` for the next decision.
    fn keep_view(&mut self, side: Side, view: View) {
        self.views[side.index()] = Some(view);
    }

    /// Every legal action, best first by the greedy judgement (the order in which a search considers them).
    pub fn ranked(&mut self, b: &Battle) -> Vec<Action> {
        ranked_actions(self, b)
    }

    /// The best of the orders of `unit` in the buffer and its value, judged from its side's `view`; each order's
    /// value is kept in `judged`.
    fn best_order(&mut self, b: &Battle, view: &View, unit: UnitId) -> (Action, f32) {
        let mut judge = OrderJudge::new(b, view, unit);
        let first = self.judged.len();
        for (a, assessment) in &self.buffer {
            self.judged.push((unit, *a, judge.value(a, assessment.as_ref())));
        }
        self.best_since(first)
    }

    /// The best of the orders judged from `first` on in `judged`, with its value and tie-break.
    fn best_since(&mut self, first: usize) -> (Action, f32) {
        pick_best(&mut self.rng, self.judged[first..].iter().map(|&(_, a, value)| (a, value)))
    }

    /// Keeps the orders judged for `unit`, with the battle after activating it, for the decision that follows.
    fn remember_activation(&mut self, b: &Battle, unit: UnitId) {
        let mut after = b.clone();
        after.apply(Action::Activate(unit)).expect("listed activations are legal");
        let mut orders = self.activated.take().map(|(_, o)| o).unwrap_or_default();
        orders.clear();
        orders.extend(self.judged.iter().filter(|j| j.0 == unit).map(|&(_, a, v)| (a, v)));
        self.activated = Some((after, orders));
    }
}

/// The best of `orders` by value, each with a small random jitter drawn in turn: it breaks ties without favouring
/// the order actions are listed in. Returns the order with its jittered value.
fn pick_best(rng: &mut ChaCha8Rng, orders: impl Iterator<Item = (Action, f32)>) -> (Action, f32) {
    let mut best = (Action::Hold, f32::MIN);
    for (a, value) in orders {
        let v = value + rng.random_range(0.0..1e-3);
        if v > best.1 {
            best = (a, v);
        }
    }
    best
}

/// The best immediate choice for the side to act in `b` (used by `greedy` and by the search's rollouts).
pub(crate) fn greedy_choice(p: &mut GreedyPlayer, b: &Battle) -> Action {
    match b.active_unit() {
        Some(unit) => match p.activated.take() {
            Some((after, orders)) if after == *b => {
                let choice = pick_best(&mut p.rng, orders.iter().copied()).0;
                p.activated = Some((after, orders));
                choice
            }
            _ => {
                b.assessed_actions_into(&mut p.buffer);
                p.judged.clear();
                let side = b.info(unit).side;
                let view = p.view(b, side);
                let best = p.best_order(b, &view, unit).0;
                p.keep_view(side, view);
                best
            }
        },
        None => {
            let ToAct::Side(side) = b.to_act() else { return Action::EndActivations };
            let mut best = (Action::EndActivations, p.weights[side.index()].worth_activating);
            let mut gains = std::mem::take(&mut p.gains);
            activation_gains(p, b, &mut gains);
            for &(a, gain) in &gains {
                if gain > best.1 {
                    best = (a, gain);
                }
            }
            p.gains = gains;
            if let Action::Activate(unit) = best.0 {
                p.remember_activation(b, unit);
            }
            best.0
        }
    }
}

/// Lists in the player's buffer the orders `unit` could be given were it activated, and gives the battle to judge
/// them on with the bonus for activating it: the battle itself, or for a shaken unit a copy where the activation has
/// rallied it (R4.1), so that its orders are judged as a steady unit's, and `rally`.
fn orders_if_activated<'a>(
    p: &mut GreedyPlayer,
    b: &'a Battle,
    orders: &ActivationOrders,
    unit: UnitId,
    rally: f32,
) -> (Cow<'a, Battle>, f32) {
    if b.unit(unit).shaken {
        let mut after = b.clone();
        after.apply(Action::Activate(unit)).expect("listed activations are legal");
        after.assessed_actions_into(&mut p.buffer);
        (Cow::Owned(after), rally)
    } else {
        orders.assessed_into(unit, &mut p.buffer);
        (Cow::Borrowed(b), 0.0)
    }
}

/// For each unit the side may activate, the gain of its best order (rallying a shaken unit counts), into `gains`
/// (cleared first).
fn activation_gains(p: &mut GreedyPlayer, b: &Battle, gains: &mut Vec<(Action, f32)>) {
    gains.clear();
    let ToAct::Side(side) = b.to_act() else { return };
    // Activating a unit changes neither the enemies nor the objectives: one view serves every candidate.
    let view = p.view(b, side);
    let rally = p.weights[side.index()].rally;
    let orders = b.activation_orders();
    p.judged.clear();
    let mut actions = std::mem::take(&mut p.actions);
    b.legal_actions_into(&mut actions);
    for &a in &actions {
        let Action::Activate(unit) = a else { continue };
        let gain = if b.unit(unit).shaken {
            let (judged, bonus) = orders_if_activated(p, b, &orders, unit, rally);
            p.best_order(&judged, &view, unit).1 + bonus
        } else {
            // Judged as they are listed, without a buffer between (as `best_order` judges them).
            let (first, mut judge) = (p.judged.len(), OrderJudge::new(b, &view, unit));
            let judged = &mut p.judged;
            orders.for_each(unit, |order, assessment| {
                judged.push((unit, order, judge.value(&order, assessment.as_ref())))
            });
            p.best_since(first).1 + 0.0
        };
        gains.push((a, gain));
    }
    p.actions = actions;
    p.keep_view(side, view);
}

/// For each unit the side to act may activate, its `per_unit` best orders and their gains (rallying a shaken unit
/// counts), best first over all the units: activating a unit and ordering it taken as one choice, as the search
/// compares them.
pub(crate) fn ranked_unit_orders(p: &mut GreedyPlayer, b: &Battle, per_unit: usize) -> Vec<(UnitId, Action, f32)> {
    let mut ranked = Vec::new();
    let ToAct::Side(side) = b.to_act() else { return ranked };
    let view = p.view(b, side);
    let rally = p.weights[side.index()].rally;
    let orders = b.activation_orders();
    let mut scored = Vec::new();
    for a in b.legal_actions() {
        let Action::Activate(unit) = a else { continue };
        let (judged, bonus) = orders_if_activated(p, b, &orders, unit, rally);
        let mut judge = OrderJudge::new(&judged, &view, unit);
        scored.clear();
        scored.extend(
            p.buffer.iter().map(|(order, assessment)| (*order, judge.value(order, assessment.as_ref()) + bonus)),
        );
        scored.sort_by(|x, y| y.1.total_cmp(&x.1));
        ranked.extend(scored.iter().take(per_unit).map(|&(order, gain)| (unit, order, gain)));
    }
    p.keep_view(side, view);
    ranked.sort_by(|x, y| y.2.total_cmp(&x.2));
    ranked
}

/// Every legal action with its immediate value, best first: the search's order of expansion.
pub(crate) fn ranked_actions(p: &mut GreedyPlayer, b: &Battle) -> Vec<Action> {
    let mut scored: Vec<(Action, f32)> = match b.active_unit() {
        Some(unit) => {
            let side = b.info(unit).side;
            let view = p.view(b, side);
            let mut judge = OrderJudge::new(b, &view, unit);
            b.assessed_actions_into(&mut p.buffer);
            let scored = p.buffer.iter().map(|(a, assessment)| (*a, judge.value(a, assessment.as_ref()))).collect();
            p.keep_view(side, view);
            scored
        }
        None => {
            let mut gains = Vec::new();
            activation_gains(p, b, &mut gains);
            let ToAct::Side(side) = b.to_act() else { return Vec::new() };
            gains.push((Action::EndActivations, p.weights[side.index()].worth_activating));
            gains
        }
    };
    scored.sort_by(|x, y| y.1.total_cmp(&x.1));
    scored.into_iter().map(|(a, _)| a).collect()
}

impl Player for GreedyPlayer {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, battle: &Battle) -> Action {
        greedy_choice(self, battle)
    }
}
