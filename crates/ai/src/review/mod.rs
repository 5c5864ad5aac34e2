//! The review of a game: who was winning at every step, which decisions threw the game away and how much was luck,
//! as the evaluator judges it.
//!
//! The game is walked step by step along its path ([`pacw_engine::Game::path`]): each decision (an activation with
//! its order is one) and each chance outcome (a card, a die). Every step has the first side's expected score
//! before and after it, each step's after being the next one's before, the last one's the result. A chance step's
//! **luck** is its after less the average of the after over every outcome of that chance event, weighted by their
//! exact probabilities (as GNU Backgammon measures a roll's luck), so that it averages to zero at every event. A
//! decision's **loss** is how much the order played gave away against the best a short search found, in the
//! acting side's terms ([`search`]); losses of 5, 10 and 15 points of winning chances are an inaccuracy, a mistake
//! and a blunder (lichess's thresholds).
//!
//! The review also explains: the biggest swings of the chances in words and the net luck of the game
//! ([`Decided`]), and beside each better order a sentence saying what it does that the one played did not
//! ([`explain::why`]), with the engine's odds.

mod decided;
pub mod explain;
pub mod search;
mod summary;

pub use decided::{Decided, MomentKind, SWINGS, Swing};
pub use explain::AttackNote;
pub use search::{Budget, DEFAULT_BUDGET, Judgement, Plan};
pub use summary::{SideSummary, accuracy_of_move};

use crate::evaluator::{Evaluator, result_value};
use pacw_engine::narrate;
use pacw_engine::{Action, Battle, ChanceKind, Declared, Event, Game, Outcome, Side, Step, ToAct};
use serde::Serialize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The `format` of a review.
pub const REVIEW_FORMAT: &str = "pacw-review";
/// Its version: 2 added why the game was decided, the net luck, the orders' odds and the better order's sentence.
pub const REVIEW_VERSION: u32 = 2;

/// A decision's loss from which it is an inaccuracy, a mistake, a blunder (points of winning chances / 100).
pub const THRESHOLDS: [(f32, Label); 3] = [(0.15, Label::Blunder), (0.10, Label::Mistake), (0.05, Label::Inaccuracy)];

/// What a decision's loss makes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    /// A loss of 5 points of winning chances or more.
    Inaccuracy,
    /// 10 or more.
    Mistake,
    /// 15 or more.
    Blunder,
}

impl Label {
    /// Its name: `inaccuracy`, `mistake`, `blunder`.
    pub const fn name(self) -> &'static str {
        match self {
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }

    /// The label of a loss, if it earns one.
    pub fn of(loss: f32) -> Option<Label> {
        THRESHOLDS.iter().find(|(at, _)| loss >= *at).map(|&(_, label)| label)
    }
}

/// How to review.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ReviewConfig {
    /// The evaluator alone: no search for better decisions (no losses, labels or accuracy).
    pub quick: bool,
    /// What the search may do at each decision.
    pub budget: Budget,
    /// Threads to search on.
    pub threads: usize,
}

impl Default for ReviewConfig {
    fn default() -> Self {
        ReviewConfig { quick: false, budget: DEFAULT_BUDGET, threads: 2 }
    }
}

/// A step's kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// A side's decision.
    Decision,
    /// A card drawn or a die rolled.
    Chance,
}

/// An order in words and as the engine's actions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Order {
    /// In words.
    pub text: String,
    /// The actions, as the engine's legal actions write them (an activation, then its order).
    pub actions: Vec<Action>,
    /// Its attack's odds, if it attacks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack: Option<AttackNote>,
}

/// One step of the game, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewStep {
    /// A decision or chance.
    pub kind: StepKind,
    /// The side deciding (none for chance).
    pub side: Option<Side>,
    /// The order or the outcome in words.
    pub text: String,
    /// The turn it happened in.
    pub turn: u8,
    /// The decisions made once this step is done: the replay's position that shows it.
    pub decision: usize,
    /// The actions of a decision.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
    /// The odds of a decision's attack, if it made one, as they stood when it was ordered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack: Option<AttackNote>,
    /// The first side's expected score before the step.
    pub before: f32,
    /// After it.
    pub after: f32,
    /// A chance step's luck, in the first side's terms: `after` less the average over the event's outcomes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub luck: Option<f32>,
    /// The side whose luck it counts as: the attacker's for an attack's dice, the roller's for initiative, nobody's
    /// (shared half and half) for a card.
    #[serde(skip)]
    pub luck_of: Option<Side>,
    /// A decision's judgement by the search (not with a quick review).
    #[serde(flatten)]
    pub judged: Option<Judged>,
}

/// What the search made of a decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judged {
    /// The best order found (none for a resignation: playing on).
    pub best: Option<Order>,
    /// The first side's expected score had the best order been given.
    pub best_after: f32,
    /// How much the order given lost against the best, in the deciding side's terms (never negative).
    pub loss: f32,
    /// What the loss makes the decision, if anything (null below 5 points, or with no choice).
    pub label: Option<Label>,
    /// How many orders the side had to choose from (1: no choice, never labelled).
    pub choices: usize,
    /// What the best order does that the one given did not, in a sentence with its odds and rules (none when the
    /// order given was the best).
    pub why: Option<String>,
}

/// A whole review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Review {
    /// Always [`REVIEW_FORMAT`].
    pub format: &'static str,
    /// [`REVIEW_VERSION`].
    pub version: u32,
    /// The evaluator's version.
    pub evaluator: String,
    /// What the evaluator was trained on.
    pub trained: String,
    /// The rules the game was played by: `Standard`, or a variant's name (docs/variants.md). The evaluator was
    /// trained on the standard rules; under a variant its chances are a guess from them.
    pub rules: String,
    /// The battle's title.
    pub scenario: String,
    /// The sides' names, first side first.
    pub sides: [String; 2],
    /// Whether the game is over.
    pub finished: bool,
    /// The first side's score, once over (a win 1, a draw ½, a loss 0).
    pub result: Option<f32>,
    /// Whether the review is the evaluator's alone.
    pub quick: bool,
    /// The search's budget per decision, in words.
    pub budget: String,
    /// The first side's expected score at the start.
    pub start: f32,
    /// Why the game was decided: its biggest swings in words, and the net luck.
    pub decided: Decided,
    /// Every step.
    pub steps: Vec<ReviewStep>,
    /// Each side's summary, first side first.
    pub summary: [SideSummary; 2],
}

/// Reviews a game (finished or not) on `config.threads` threads; `progress(done, total)` is called as the decisions
/// are searched.
pub fn review(
    game: &Game,
    evaluator: &Evaluator,
    config: &ReviewConfig,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Review {
    let mut job = ReviewJob::new(game, evaluator, config);
    let judged = search_all(evaluator, &job.steps, &job.decisions[job.searched..], config, progress);
    for (index, judgement) in judged {
        job.record(index, judgement);
    }
    job.searched = job.decisions.len();
    job.finish()
}

/// A review under way, for a caller that shares its thread with other work: the walk along the game is done at
/// once ([`ReviewJob::new`], fast), the search a few decisions at a time ([`ReviewJob::search`]).
#[derive(Clone, Debug)]
pub struct ReviewJob {
    evaluator: Evaluator,
    config: ReviewConfig,
    scenario: std::sync::Arc<pacw_engine::Scenario>,
    start: f32,
    result: Option<f32>,
    steps: Vec<ReviewStep>,
    /// The game's moments (decisions, attacks' dice, cards, initiative dice), for its biggest swings.
    moments: decided::Moments,
    /// The position before each decision step to search, with the step's index.
    decisions: Vec<(usize, Battle)>,
    /// How many of them are searched.
    searched: usize,
}

impl ReviewJob {
    /// Walks the game, judging every step by the evaluator (and every chance event's luck).
    pub fn new(game: &Game, evaluator: &Evaluator, config: &ReviewConfig) -> ReviewJob {
        let scenario = game.battle().scenario().clone();
        let mut b = Battle::new(scenario.clone(), *game.battle().options());
        let path = game.path();
        let mut steps: Vec<ReviewStep> = Vec::with_capacity(path.len());
        // The position before each decision step, with its index among the steps, for the search.
        let mut decisions: Vec<(usize, Battle)> = Vec::new();
        let mut events = Vec::new();
        let mut made = 0usize;
        let mut moments = decided::Moments::default();
        let start = evaluator.value(&b);
        let mut i = 0;
        while i < path.len() {
            let before = evaluator.value(&b);
            let turn = b.turn();
            match path[i] {
                Step::Chance(outcome) => {
                    let kind = b.to_act();
                    let luck_of = match kind {
                        ToAct::Chance(ChanceKind::Initiative(side)) => Some(side),
                        ToAct::Chance(ChanceKind::ToHit | ChanceKind::HitResult) => {
                            b.pending_attack().map(|(attacker, _, _)| b.info(attacker).side)
                        }
                        ToAct::Chance(ChanceKind::Rally) => b.pending_rally().map(|(unit, _)| b.info(unit).side),
                        _ => None,
                    };
                    let average = outcome_average(evaluator, &b);
                    let needed = b.pending_attack().map(|(_, _, n)| n);
                    let chance_before = b.clone();
                    events.clear();
                    if b.apply_chance_into(outcome, &mut events).is_err() {
                        break; // never: the path is the game's own
                    }
                    if let ToAct::Chance(kind) = kind {
                        moments.chance(steps.len(), &chance_before, kind, &events);
                    }
                    let after = evaluator.value(&b);
                    steps.push(ReviewStep {
                        luck: Some(after - average),
                        luck_of,
                        ..step(
                            StepKind::Chance,
                            None,
                            chance_text(&b, outcome, needed, &events),
                            turn,
                            made,
                            before,
                            after,
                        )
                    });
                    i += 1;
                }
                Step::Action(side, action) => {
                    // An activation and the order that follows it are one decision.
                    let mut plan = vec![action];
                    if let (Action::Activate(_), Some(&Step::Action(_, order))) = (action, path.get(i + 1)) {
                        plan.push(order);
                    }
                    let position = b.clone();
                    let text = plan_text(&b, &plan);
                    let attack = explain::attack_note(&b, &plan);
                    moments.decision(steps.len(), side, decided::decision_words(&b, &plan, &text));
                    if search::after(&b, &plan).map(|a| b = a).is_none() {
                        break; // never: the path is the game's own
                    }
                    made += plan.len();
                    let after = evaluator.value(&b);
                    decisions.push((steps.len(), position));
                    steps.push(ReviewStep {
                        actions: plan.clone(),
                        attack,
                        ..step(StepKind::Decision, Some(side), text, turn, made, before, after)
                    });
                    i += plan.len();
                }
                Step::Declared(how @ (Declared::OutOfTime(_) | Declared::DrawAgreed)) => {
                    // Decided by the clock or by both players: nobody's move to judge.
                    let _ = b.conclude(how);
                    let after = b.result().map_or(before, result_value);
                    let text = b
                        .result()
                        .map_or_else(String::new, |r| narrate::event(&scenario, &Event::GameOver { result: r }));
                    let side = match how {
                        Declared::OutOfTime(side) => Some(side),
                        _ => None,
                    };
                    steps.push(step(StepKind::Decision, side, text, turn, made, before, after));
                    i += 1;
                }
                Step::Declared(Declared::Resigned(side)) => {
                    let _ = b.resign(side);
                    let after = b.result().map_or(before, result_value);
                    let text = format!("{} resigns", scenario.side(side).name);
                    moments.decision(steps.len(), side, format!("the {} resigned", scenario.side(side).name));
                    let mut resigned = step(StepKind::Decision, Some(side), text, turn, made, before, after);
                    if !config.quick {
                        let loss = (of(side, before) - of(side, after)).max(0.0);
                        resigned.judged = Some(Judged {
                            best: None,
                            best_after: before,
                            loss,
                            label: Label::of(loss),
                            choices: 2,
                            why: Some(explain::why_not_resign(side, &b)),
                        });
                    }
                    steps.push(resigned);
                    i += 1;
                }
            }
        }
        let result = b.result().map(result_value);
        let decisions = if config.quick { Vec::new() } else { decisions };
        ReviewJob {
            evaluator: evaluator.clone(),
            config: *config,
            scenario,
            start,
            result,
            steps,
            moments,
            decisions,
            searched: 0,
        }
    }

    /// How many decisions the search has to judge (none for a quick review).
    pub fn total(&self) -> usize {
        self.decisions.len()
    }

    /// How many it has judged.
    pub fn searched(&self) -> usize {
        self.searched
    }

    /// Searches up to `n` more decisions on this thread; true once every decision is searched.
    pub fn search(&mut self, n: usize) -> bool {
        let to = (self.searched + n).min(self.decisions.len());
        for k in self.searched..to {
            let (index, position) = &self.decisions[k];
            let s = &self.steps[*index];
            let judgement =
                s.side.and_then(|side| search::judge(&self.evaluator, position, side, &s.actions, self.config.budget));
            let index = *index;
            self.record(index, judgement);
        }
        self.searched = to;
        self.searched == self.decisions.len()
    }

    /// Writes the search's judgement of step `index`.
    fn record(&mut self, index: usize, judgement: Option<Judgement>) {
        let Some(j) = judgement else { return };
        let Some(position) = self.decisions.iter().find(|(i, _)| *i == index).map(|(_, b)| b) else { return };
        let why = explain::why(position, &self.steps[index].actions, &j.best);
        let attack = explain::attack_note(position, &j.best);
        let best = Order { text: plan_text(position, &j.best), actions: j.best, attack };
        let s = &mut self.steps[index];
        let (side, after) = (s.side.unwrap_or(Side::A), s.after);
        let best_after = if side == Side::A { after + j.loss } else { after - j.loss };
        s.judged = Some(Judged {
            best: Some(best),
            best_after: best_after.clamp(0.0, 1.0),
            loss: j.loss,
            label: if j.choices > 1 { Label::of(j.loss) } else { None },
            choices: j.choices,
            why,
        });
    }

    /// The review (the decisions not yet searched stay unjudged).
    pub fn finish(self) -> Review {
        let config = self.config;
        let summary = summary::summarise(&self.steps, self.result, config.quick);
        let scenario = &self.scenario;
        let sides = [scenario.side(Side::A).name.clone(), scenario.side(Side::B).name.clone()];
        let decided = decided::decided(&self.steps, &self.moments, &sides, &summary);
        Review {
            format: REVIEW_FORMAT,
            version: REVIEW_VERSION,
            evaluator: self.evaluator.version().to_string(),
            trained: self.evaluator.trained().to_string(),
            rules: scenario.variant().map_or("Standard".to_string(), |s| s.name.clone()),
            scenario: scenario.name.clone(),
            sides,
            finished: self.result.is_some(),
            result: self.result,
            quick: config.quick,
            budget: match config.budget {
                _ if config.quick => "none (the evaluator alone)".to_string(),
                Budget::Positions(n) => format!("{n} positions a decision"),
                Budget::Seconds(s) => format!("{s} s a decision"),
            },
            start: self.start,
            decided,
            steps: self.steps,
            summary,
        }
    }
}

/// A step with what every step has.
fn step(
    kind: StepKind,
    side: Option<Side>,
    text: String,
    turn: u8,
    decision: usize,
    before: f32,
    after: f32,
) -> ReviewStep {
    ReviewStep {
        kind,
        side,
        text,
        turn,
        decision,
        actions: Vec::new(),
        attack: None,
        before,
        after,
        luck: None,
        luck_of: None,
        judged: None,
    }
}

/// A value in `side`'s terms.
fn of(side: Side, first: f32) -> f32 {
    if side == Side::A { first } else { 1.0 - first }
}

/// The average of the evaluator's value after each outcome of the chance event pending in `b`, weighted by the
/// outcomes' exact probabilities: what a chance step's luck is measured from.
pub fn outcome_average(evaluator: &Evaluator, b: &Battle) -> f32 {
    b.chance_outcomes()
        .into_iter()
        .filter_map(|(outcome, p)| {
            let mut after = b.clone();
            after.apply_chance(outcome).ok()?;
            Some(*p.numer() as f32 / *p.denom() as f32 * evaluator.value(&after))
        })
        .sum()
}

/// Searches every decision with a choice on `config.threads` threads: (step index, judgement) in any order.
fn search_all(
    evaluator: &Evaluator,
    steps: &[ReviewStep],
    decisions: &[(usize, Battle)],
    config: &ReviewConfig,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<(usize, Option<Judgement>)> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(decisions.len()));
    let total = decisions.len();
    let work = || {
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some((index, position)) = decisions.get(k) else { break };
            let s = &steps[*index];
            let judgement = s.side.and_then(|side| search::judge(evaluator, position, side, &s.actions, config.budget));
            results.lock().unwrap_or_else(|p| p.into_inner()).push((*index, judgement));
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        }
    };
    // One thread searches here: where no thread can be started (the browser), one is all there is.
    if config.threads <= 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..config.threads.min(64) {
                scope.spawn(work);
            }
        });
    }
    results.into_inner().unwrap_or_else(|p| p.into_inner())
}

/// A decision in words: "1st Brigade (c2): Move to c3, face N".
pub fn plan_text(b: &Battle, plan: &[Action]) -> String {
    match plan {
        [Action::Activate(unit), order, ..] => {
            let mut activated = b.clone();
            let order_text = match activated.apply(plan[0]) {
                Ok(_) => narrate::order(&activated, Some(*unit), order),
                Err(_) => order.order_name().to_string(),
            };
            format!("{} ({}): {order_text}", b.info(*unit).name, b.unit(*unit).at)
        }
        [Action::Activate(unit)] => format!("Activate {} ({})", b.info(*unit).name, b.unit(*unit).at),
        [action, ..] => match b.active_unit() {
            Some(unit) => format!("{} ({}): {}", b.info(unit).name, b.unit(unit).at, narrate::action(b, action)),
            None => narrate::action(b, action),
        },
        [] => String::new(),
    }
}

/// A chance outcome in words, from the events it caused (`needed`: the number the to-hit die needed).
fn chance_text(b: &Battle, outcome: Outcome, needed: Option<u8>, events: &[Event]) -> String {
    let s = b.scenario();
    for e in events {
        match *e {
            Event::CardDrawn { card, .. } => return format!("Card: {}", narrate::card(s, card)),
            Event::InitiativeRolled { side, roll } => {
                return format!("{} rolls {roll} for initiative", s.side(side).name);
            }
            Event::ToHitRolled { roll, hit } => {
                let needs = needed.map_or(String::new(), |n| format!(" (needs {n}+)"));
                return format!("To hit{needs}: rolled {roll}, {}", if hit { "a hit" } else { "a miss" });
            }
            Event::HitResultRolled { unit, roll, strength, result } => {
                let cmp = if roll <= strength { "≤" } else { ">" };
                let side = &s.side(s.units[unit.index()].side).name;
                let name = &s.units[unit.index()].name;
                return format!("{side} {name} rolls {roll} {cmp} strength {strength}: {}", result.name());
            }
            _ => {}
        }
    }
    outcome.to_string()
}

#[cfg(test)]
mod tests;
