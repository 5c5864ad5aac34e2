//! Perft: every path of decisions and chance outcomes from a battle to a depth, counted, as chess engines count
//! move paths to test a move generator. A card draw branches once per kind of card left and a die once per face,
//! as [`Battle::chance_outcomes`] lists them, so the counts pin the rules (which actions are legal, what each
//! outcome leads to) while the engine is made faster.

use crate::action::Action;
use crate::battle::{Battle, LegalActions, ScenarioRef, ToAct};
use crate::chance::Outcome;
use crate::event::Event;
use crate::scenario::Scenario;
use serde::Serialize;

/// One step of a walk: a side's decision or a chance outcome.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// A side's action.
    Decision(Action),
    /// The outcome of a card draw or a die.
    Chance(Outcome),
}

/// What a walk counted.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug, Serialize)]
pub struct PerftCount {
    /// Steps applied: decisions and chance outcomes.
    pub nodes: u64,
    /// Decisions applied.
    pub decisions: u64,
    /// Chance outcomes applied.
    pub chance: u64,
    /// Battles reached at the full depth (chess's perft number).
    pub leaves: u64,
}

impl std::ops::AddAssign for PerftCount {
    fn add_assign(&mut self, other: PerftCount) {
        self.nodes += other.nodes;
        self.decisions += other.decisions;
        self.chance += other.chance;
        self.leaves += other.leaves;
    }
}

/// Counts every path of `depth` steps from `battle` (a finished game ends a path early).
pub fn perft(battle: &Battle, depth: u32) -> PerftCount {
    let mut walk = Walk::default();
    walk.count(&battle.borrowed(), depth);
    walk.total
}

/// As [`perft`], per first step: each step the battle allows now with the counts of the paths that begin with it
/// (the step itself included), so the parts add up to the whole.
pub fn divide(battle: &Battle, depth: u32) -> Vec<(Step, PerftCount)> {
    let mut parts = Vec::new();
    if depth == 0 {
        return parts;
    }
    let battle = battle.borrowed();
    for step in steps(&battle) {
        let mut walk = Walk::default();
        let mut child = battle.clone();
        walk.apply(&mut child, step);
        walk.count(&child, depth - 1);
        parts.push((step, walk.total));
    }
    parts
}

/// The steps the battle allows now: the legal actions of the side to act, or the outcomes of chance.
pub fn steps<S: ScenarioRef>(battle: &Battle<S>) -> Vec<Step> {
    match battle.to_act() {
        ToAct::Side(_) => battle.legal_actions().into_iter().map(Step::Decision).collect(),
        ToAct::Chance(_) => battle.chance_branches().map(Step::Chance).collect(),
        ToAct::Over(_) => Vec::new(),
    }
}

/// A step of a walk through a whole game that fights it out, for tests: an attack two steps in three when there is
/// one, else any step, chosen from `options` by the walk's step number `k` and a `salt` (one walk from another).
#[cfg(test)]
pub(crate) fn fighting_step(options: &[Step], k: usize, salt: usize) -> Step {
    let attacks: Vec<Step> =
        options.iter().copied().filter(|s| matches!(s, Step::Decision(a) if a.target().is_some())).collect();
    let pick = if attacks.is_empty() || k.is_multiple_of(3) { options } else { &attacks };
    pick[(k * 7 + salt) % pick.len()]
}

/// A walk's counts and its reused buffers: one list of legal actions per depth.
#[derive(Default)]
struct Walk {
    total: PerftCount,
    events: Vec<Event>,
    lists: Vec<LegalActions>,
}

impl Walk {
    fn apply(&mut self, battle: &mut Battle<&Scenario>, step: Step) {
        self.events.clear();
        self.total.nodes += 1;
        let applied = match step {
            Step::Decision(a) => {
                self.total.decisions += 1;
                battle.apply_into(a, &mut self.events)
            }
            Step::Chance(o) => {
                self.total.chance += 1;
                battle.apply_chance_into(o, &mut self.events)
            }
        };
        applied.expect("a listed step is always legal");
    }

    /// Walks a battle that borrows its scenario: a clone is then a copy, with no reference to count.
    fn count(&mut self, battle: &Battle<&Scenario>, depth: u32) {
        if depth == 0 {
            self.total.leaves += 1;
            return;
        }
        match battle.to_act() {
            ToAct::Side(_) => {
                // Listed once, applied without judging each again (the walk measures the engine as search uses it).
                let mut list = self.lists.pop().unwrap_or_default();
                battle.list_legal(&mut list);
                for action in list.iter() {
                    let mut child = battle.clone();
                    self.events.clear();
                    child.apply_unchecked(action, &mut self.events);
                    self.total.nodes += 1;
                    self.total.decisions += 1;
                    self.count(&child, depth - 1);
                }
                self.lists.push(list);
            }
            ToAct::Chance(_) => {
                for outcome in battle.chance_branches() {
                    let mut child = battle.clone();
                    self.apply(&mut child, Step::Chance(outcome));
                    self.count(&child, depth - 1);
                }
            }
            ToAct::Over(_) => {}
        }
    }
}
