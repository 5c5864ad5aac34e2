//! The `greedy` player: each decision by its immediate expected value from the exact odds, plus a positional
//! judgement of the square it leads to (cover, objectives, flanks, guns out of charge range).

pub mod judgement;
pub mod scripts;

use judgement::{OrderJudge, View, Weights};
use scripts::{Assignment, Script};

use crate::Player;
use pacw_engine::{Action, AttackAssessment, Battle, Illegal, LegalActions, Outcome, Side, ToAct, UnitId};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::ops::Range;

/// The views a player keeps: each side's own judgement, and the other scripts of the side given an assignment.
const SLOTS: usize = 1 + Script::ALL.len();

/// Picks the action of greatest immediate value; ties are broken at random from its seed.
#[derive(Clone, Debug)]
pub struct GreedyPlayer {
    rng: ChaCha8Rng,
    /// A unit's orders with their assessments, for ranking them.
    buffer: Vec<(Action, Option<AttackAssessment>)>,
    /// Each side's judgement (the same for both unless a search plays one side differently).
    weights: [Weights; 2],
    /// The orders judged for the last decision, each with its value (before the tie-break), in the order judged:
    /// each unit's one after another.
    judged: Vec<(Action, f32)>,
    /// The orders of the unit chosen last as they were judged before it was activated, and the state activating it
    /// leads to: when the next decision is in that state, they are not judged again (activating changes nothing
    /// they are judged on).
    activated: Vec<(Action, f32)>,
    after_activation: Option<Battle>,
    /// Scripts assigned to one side's units: each judged by its script's weights ([`scripts`]).
    assignment: Option<Assignment>,
    /// The last view of each way of judging ([`GreedyPlayer::slot`]: each side's own, then the assigned side's other
    /// scripts), renewed for the next decision so that the squares it scored are kept while the enemies stand as
    /// they were ([`View::renew`]).
    views: [Option<View>; SLOTS],
    /// Buffers reused from decision to decision: the legal actions, and the gain of each activation.
    legal: LegalActions,
    gains: Vec<Activation>,
    /// The tie-breaks of the orders a value is taken the best of ([`GreedyPlayer::best_value_since`]).
    jitters: Vec<f32>,
}

/// An activation the side may choose, with the gain of its unit's best order and where the unit's orders are in
/// [`GreedyPlayer::judged`].
#[derive(Clone, Debug)]
struct Activation {
    activate: Action,
    gain: f32,
    orders: Range<usize>,
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
            activated: Vec::new(),
            after_activation: None,
            assignment: None,
            views: Default::default(),
            legal: LegalActions::new(),
            gains: Vec::new(),
            jitters: Vec::new(),
        }
    }

    /// This player with the units `assignment` names judged by their scripts (the side's other units, and the other
    /// side, as before).
    pub fn with_assignment(mut self, assignment: Assignment) -> Self {
        self.assignment = (!assignment.is_greedy()).then_some(assignment);
        self
    }

    /// Where the view `unit` of `side` is judged by is kept: `side`'s own, or its script's in the assignment.
    fn slot(&self, side: Side, unit: UnitId) -> usize {
        match &self.assignment {
            Some(assignment) if assignment.side() == side && assignment.script(unit) != Script::Greedy => {
                1 + assignment.script(unit).index()
            }
            _ => side.index(),
        }
    }

    /// The side and the weights of a view's `slot`.
    fn slot_judge(&self, slot: usize) -> (Side, Weights) {
        match &self.assignment {
            Some(assignment) if slot >= 2 => {
                (assignment.side(), Script::ALL[slot - 1].weights(&self.weights[assignment.side().index()]))
            }
            _ => (Side::BOTH[slot], self.weights[slot]),
        }
    }

    /// The view of `slot` of the battle (give it back with [`GreedyPlayer::keep_view`]).
    fn view(&mut self, b: &Battle, slot: usize) -> View {
        let (side, weights) = self.slot_judge(slot);
        match self.views[slot].take() {
            Some(mut view) => {
                view.renew(b, side, &weights);
                view
            }
            None => View::new(b, side, &weights),
        }
    }

    /// Keeps the view of `slot` for the next decision.
    fn keep_view(&mut self, slot: usize, view: View) {
        self.views[slot] = Some(view);
    }

    /// Renews the view of `slot` for `b` (kept in [`GreedyPlayer::views`]) unless `ready` says it was in this
    /// decision already.
    fn make_ready(&mut self, b: &Battle, slot: usize, ready: &mut [bool; SLOTS]) {
        if !ready[slot] {
            let view = self.view(b, slot);
            self.keep_view(slot, view);
            ready[slot] = true;
        }
    }

    /// Every legal action, best first by the greedy judgement (the order in which a search considers them).
    pub fn ranked(&mut self, b: &Battle) -> Vec<Action> {
        ranked_actions(self, b)
    }

    /// Every legal action with its value by the greedy judgement, best first (an activation is worth its unit's best
    /// order; the end of the activations, the least gain worth an activation).
    pub fn scored(&mut self, b: &Battle) -> Vec<(Action, f32)> {
        scored_actions(self, b)
    }

    /// The best of the orders judged from `first` on in `judged`, with its value and tie-break.
    fn best_since(&mut self, first: usize) -> (Option<Action>, f32) {
        pick_best(&mut self.rng, self.judged[first..].iter().copied())
    }

    /// The value of the best of the orders judged from `first` on, with its tie-break: [`GreedyPlayer::best_since`]'s
    /// value, drawing the same tie-breaks. Drawn first and compared after: a loop that does both keeps the best value
    /// in memory around the generator's refills, a chain of stores and loads as long as the orders.
    fn best_value_since(&mut self, first: usize) -> f32 {
        let orders = &self.judged[first..];
        let rng = &mut self.rng;
        self.jitters.clear();
        self.jitters.extend(orders.iter().map(|_| rng.random_range(0.0..1e-3)));
        let values = orders.iter().zip(&self.jitters).map(|(&(_, value), jitter)| value + jitter);
        values.fold(f32::MIN, |best, v| if v > best { v } else { best })
    }

    /// Keeps the orders judged for the unit chosen in `b`, at `orders` in `judged`, for the decision that follows
    /// its activation, with the state that activation leads to.
    fn remember_activation(&mut self, b: &Battle, unit: UnitId, orders: Range<usize>) {
        self.activated.clear();
        self.activated.extend_from_slice(&self.judged[orders]);
        let after = match &mut self.after_activation {
            Some(after) => {
                after.clone_from(b);
                after
            }
            none => none.insert(b.clone()),
        };
        after.apply_unchecked(Action::Activate(unit), &mut Vec::new());
    }

    /// Whether `b` is the state the last activation chosen leads to, where its orders were judged already.
    fn judged_already(&self, b: &Battle) -> bool {
        !self.activated.is_empty() && self.after_activation.as_ref().is_some_and(|after| after == b)
    }
}

/// The best of `orders` by value, each with a small random jitter drawn in turn: it breaks ties without favouring
/// the order actions are listed in. Returns the order with its jittered value (none, and the least value, if no
/// order is worth more).
fn pick_best<T>(rng: &mut ChaCha8Rng, orders: impl Iterator<Item = (T, f32)>) -> (Option<T>, f32) {
    let mut best = (None, f32::MIN);
    for (order, value) in orders {
        let v = value + rng.random_range(0.0..1e-3);
        if v > best.1 {
            best = (Some(order), v);
        }
    }
    best
}

/// The best immediate choice for the side to act in `b`, a legal action (used by `greedy` and by the search's
/// rollouts, which apply it unchecked); refused if no side is to act.
pub(crate) fn greedy_choice(p: &mut GreedyPlayer, b: &Battle) -> Result<Action, Illegal> {
    // Hold is always among the orders and the end of activations among the activations: the fallbacks are for
    // no order worth anything at all (a value that is not a number).
    let (best, fallback) = match b.active_unit() {
        Some(_) if p.judged_already(b) => (pick_best(&mut p.rng, p.activated.iter().copied()).0, Action::Hold),
        Some(unit) => {
            let mut legal = std::mem::take(&mut p.legal);
            b.list_assessed(&mut legal);
            p.judged.clear();
            let slot = p.slot(b.info(unit).side, unit);
            let view = p.view(b, slot);
            let mut judge = OrderJudge::new(b, &view, unit);
            for (i, order) in legal.iter().enumerate() {
                p.judged.push((order, judge.value(&order, legal.assessment(i))));
            }
            p.keep_view(slot, view);
            p.legal = legal;
            (p.best_since(0).0, Action::Hold)
        }
        None => {
            let ToAct::Side(side) = b.to_act() else {
                return b.check(Action::EndActivations).map(|()| Action::EndActivations);
            };
            let mut gains = std::mem::take(&mut p.gains);
            let end = activation_gains(p, b, &mut gains);
            let mut best = (None, p.weights[side.index()].worth_activating);
            for candidate in &gains {
                if candidate.gain > best.1 {
                    best = (Some(candidate), candidate.gain);
                }
            }
            let choice = match best.0 {
                Some(candidate) => {
                    let (activate, orders) = (candidate.activate, candidate.orders.clone());
                    if let Action::Activate(unit) = activate {
                        p.remember_activation(b, unit, orders);
                    }
                    Some(activate)
                }
                None => end,
            };
            p.gains = gains;
            (choice, Action::EndActivations)
        }
    };
    // No order worth anything at all: the fallback, or (should it not be legal here) the first legal action, so that
    // what greedy returns is always legal.
    best.map_or_else(
        || match b.check(fallback) {
            Ok(()) => Ok(fallback),
            Err(refused) => b.legal_actions().first().copied().ok_or(refused),
        },
        Ok,
    )
}

/// The battle to judge `unit`'s orders on were it activated, with the bonus for activating it: the battle itself,
/// or for a shaken unit a copy (kept in `rallied`) where the activation has rallied it (R4.1), so that its orders
/// are judged as a steady unit's, and `rally`. (The orders themselves are the same: [`Battle::activation_orders`].)
/// A reference rather than a copy-on-write battle, which would copy a whole battle's room for every unit.
fn judged_as_activated<'a>(
    b: &'a Battle,
    unit: UnitId,
    rally: f32,
    rallied: &'a mut Option<Battle>,
) -> (&'a Battle, f32) {
    if b.unit(unit).shaken {
        let mut after = b.clone();
        after.apply(Action::Activate(unit)).expect("listed activations are legal");
        (rallied.insert(after), rally)
    } else {
        (b, 0.0)
    }
}

/// The gain of activating `unit` when a variant's rally roll decides whether it rallies (`[rally]`; `None` when no
/// roll is to come: the unit is steady, or the rules rally it as it is activated, R4.1): its best order were it to
/// rally, with the bonus `rally`, and were it to stay shaken, averaged by the exact chance of each, so that a unit
/// is not counted on to rally. Each way its orders are those the battle lists after that die, judged from `view`.
fn rally_roll_gain(b: &Battle, unit: UnitId, view: &View, rally: f32) -> Option<f32> {
    if !b.unit(unit).shaken {
        return None;
    }
    let (_, test) = b.rally_test(unit)?;
    let mut activated = b.clone();
    activated.apply(Action::Activate(unit)).ok()?;
    let chance = test.chance();
    let rallies = *chance.numer() as f32 / *chance.denom() as f32;
    let mut legal = LegalActions::new();
    let mut gain = 0.0;
    for (rallied, weight, bonus) in [(true, rallies, rally), (false, 1.0 - rallies, 0.0)] {
        // A face that gives this way, if any does: the orders are the same whichever it is.
        let Some(roll) = (1..=6).find(|&roll| test.rallies(roll) == rallied) else { continue };
        let mut after = activated.clone();
        after.apply_chance(Outcome::Die(roll)).ok()?;
        after.list_assessed(&mut legal);
        let mut judge = OrderJudge::new(&after, view, unit);
        let best = legal.iter().enumerate().map(|(i, order)| judge.value(&order, legal.assessment(i)));
        gain += weight * (best.fold(f32::MIN, f32::max).max(0.0) + bonus);
    }
    Some(gain)
}

/// For each unit the side may activate, its activation with the gain of its best order (rallying a shaken unit
/// counts, by its chance under a variant's rally roll), into `gains` (cleared first); returns the listed end of the
/// activations.
fn activation_gains(p: &mut GreedyPlayer, b: &Battle, gains: &mut Vec<Activation>) -> Option<Action> {
    gains.clear();
    let ToAct::Side(side) = b.to_act() else { return None };
    // Activating a unit changes neither the enemies nor the objectives: one view serves every candidate judged
    // the same way.
    let mut ready = [false; SLOTS];
    let rally = p.weights[side.index()].rally;
    let orders = b.activation_orders();
    p.judged.clear();
    let mut legal = std::mem::take(&mut p.legal);
    b.list_legal(&mut legal);
    let mut end = None;
    for activate in legal.iter() {
        let Action::Activate(unit) = activate else {
            end = end.or(Some(activate).filter(|&a| a == Action::EndActivations));
            continue;
        };
        let slot = p.slot(side, unit);
        p.make_ready(b, slot, &mut ready);
        let view = p.views[slot].as_ref().expect("made ready just now or earlier in the decision");
        // A steady unit has no rally die to weigh (the common case, asked here without a call).
        if b.unit(unit).shaken
            && let Some(gain) = rally_roll_gain(b, unit, view, rally)
        {
            // Its orders are judged again after the die: none are kept for the decision after the activation.
            let first = p.judged.len();
            gains.push(Activation { activate, gain, orders: first..first });
            continue;
        }
        let mut rallied = None;
        let (judged_on, bonus) = judged_as_activated(b, unit, rally, &mut rallied);
        // Judged as they are listed, without a buffer between.
        let (first, mut judge) = (p.judged.len(), OrderJudge::new(judged_on, view, unit));
        let judged = &mut p.judged;
        orders.for_each(unit, |order, assessment| judged.push((order, judge.value(&order, assessment))));
        let gain = p.best_value_since(first) + bonus;
        gains.push(Activation { activate, gain, orders: first..p.judged.len() });
    }
    p.legal = legal;
    end
}

/// For each unit the side to act may activate, its `per_unit` best orders and their gains (rallying a shaken unit
/// counts), best first over all the units: activating a unit and ordering it taken as one choice, as the search
/// compares them. A unit whose rally die is to come (a variant's `[rally]`) is given no order: its activation alone,
/// with its gain averaged over the die ([`rally_roll_gain`]), the order chosen once the die has spoken.
pub(crate) fn ranked_unit_orders(
    p: &mut GreedyPlayer,
    b: &Battle,
    per_unit: usize,
) -> Vec<(UnitId, Option<Action>, f32)> {
    let mut ranked = Vec::new();
    let ToAct::Side(side) = b.to_act() else { return ranked };
    let mut ready = [false; SLOTS];
    let rally = p.weights[side.index()].rally;
    let orders = b.activation_orders();
    let mut scored = Vec::new();
    for a in b.legal_actions() {
        let Action::Activate(unit) = a else { continue };
        p.buffer.clear();
        let buffer = &mut p.buffer;
        orders.for_each(unit, |order, assessment| buffer.push((order, assessment.copied())));
        let slot = p.slot(side, unit);
        p.make_ready(b, slot, &mut ready);
        let view = p.views[slot].as_ref().expect("made ready just now or earlier in the decision");
        if let Some(gain) = rally_roll_gain(b, unit, view, rally) {
            ranked.push((unit, None, gain));
            continue;
        }
        let mut rallied = None;
        let (judged, bonus) = judged_as_activated(b, unit, rally, &mut rallied);
        let mut judge = OrderJudge::new(judged, view, unit);
        scored.clear();
        scored.extend(
            p.buffer.iter().map(|(order, assessment)| (*order, judge.value(order, assessment.as_ref()) + bonus)),
        );
        scored.sort_by(|x, y| y.1.total_cmp(&x.1));
        ranked.extend(scored.iter().take(per_unit).map(|&(order, gain)| (unit, Some(order), gain)));
    }
    ranked.sort_by(|x, y| y.2.total_cmp(&x.2));
    ranked
}

/// Every legal action, best first by its immediate value: the search's order of expansion.
pub(crate) fn ranked_actions(p: &mut GreedyPlayer, b: &Battle) -> Vec<Action> {
    scored_actions(p, b).into_iter().map(|(a, _)| a).collect()
}

/// Every legal action with its immediate value (an activation: its unit's best order), best first.
pub(crate) fn scored_actions(p: &mut GreedyPlayer, b: &Battle) -> Vec<(Action, f32)> {
    let mut scored: Vec<(Action, f32)> = match b.active_unit() {
        Some(unit) => {
            let slot = p.slot(b.info(unit).side, unit);
            let view = p.view(b, slot);
            let mut judge = OrderJudge::new(b, &view, unit);
            b.list_assessed(&mut p.legal);
            let legal = &p.legal;
            let scored = legal.iter().enumerate().map(|(i, a)| (a, judge.value(&a, legal.assessment(i)))).collect();
            p.keep_view(slot, view);
            scored
        }
        None => {
            let mut gains = Vec::new();
            activation_gains(p, b, &mut gains);
            let ToAct::Side(side) = b.to_act() else { return Vec::new() };
            let mut gains: Vec<(Action, f32)> = gains.into_iter().map(|a| (a.activate, a.gain)).collect();
            gains.push((Action::EndActivations, p.weights[side.index()].worth_activating));
            gains
        }
    };
    scored.sort_by(|x, y| y.1.total_cmp(&x.1));
    scored
}

impl Player for GreedyPlayer {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, battle: &Battle) -> Action {
        greedy_choice(self, battle).unwrap_or(Action::EndActivations)
    }
}
