//! The review's short search: every order the side could have given, judged by the evaluator after it (the exact
//! average over its dice), then the best few and the one played looked at one decision deeper (the next side to act
//! answering with its best order, again averaged over the dice), as the budget allows.

use super::of;
use crate::choices::each_choice;
use crate::clock::Instant;
use crate::evaluator::{CHANCE_DEPTH, Evaluator, chance_average};
use pacw_engine::{Action, Battle, Event, Side, ToAct};

/// How much the search may do for one decision.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Budget {
    /// At most this many positions judged (the orders themselves are always judged): the same review every time.
    Positions(u64),
    /// Stop looking deeper after this many seconds (the orders themselves are always judged): the review then
    /// depends on the machine's speed.
    Seconds(f64),
}

/// The default budget: enough to look one decision deeper at the best four orders in the shipped battles.
pub const DEFAULT_BUDGET: Budget = Budget::Positions(4_000);

/// How many orders (the played one among them) are looked at one decision deeper.
const DEEPER: usize = 4;

/// One order a side could give: an activation with its order (one step of the review), or a lone action (ending
/// the activations, the move after Fire & Move).
pub type Plan = Vec<Action>;

/// What the search found at one decision.
#[derive(Clone, Debug)]
pub struct Judgement {
    /// The best plan found.
    pub best: Plan,
    /// How much the plan played gave away against it, in the acting side's terms (never negative).
    pub loss: f32,
    /// How many plans the side had to choose from.
    pub choices: usize,
    /// Positions judged.
    pub positions: u64,
}

/// Every plan of the side to act in `b`: each activation with each of the unit's orders, and the lone actions.
pub fn plans(b: &Battle) -> Vec<Plan> {
    let mut plans = Vec::new();
    each_choice(b, |choice, _| plans.push(choice.actions()));
    plans
}

/// The battle after a plan, or `None` if it is not legal there.
pub fn after(b: &Battle, plan: &[Action]) -> Option<Battle> {
    let mut after = b.clone();
    for &a in plan {
        after.apply(a).ok()?;
    }
    Some(after)
}

/// Judges the decision of `side` in `b`, where it played `played`.
pub fn judge(evaluator: &Evaluator, b: &Battle, side: Side, played: &[Action], budget: Budget) -> Option<Judgement> {
    let started = Instant::now();
    let mut judged = 0u64;
    let mut first: Vec<(Plan, f32)> = Vec::new();
    each_choice(b, |choice, after| first.push((choice.actions(), of(side, evaluator.value(after)))));
    judged += first.len() as u64;
    let choices = first.len();
    // The best first; the plan played is compared wherever it ranks.
    first.sort_by(|a, b| b.1.total_cmp(&a.1));
    let played_at = first.iter().position(|(p, _)| p.as_slice() == played);
    let mut deeper: Vec<usize> = (0..choices.min(DEEPER)).collect();
    deeper.extend(played_at.filter(|i| !deeper.contains(i)));
    let affordable = match budget {
        Budget::Positions(n) => judged.saturating_mul(3 * deeper.len() as u64 + 1) <= n,
        Budget::Seconds(_) => true,
    };
    // The values compared: the deeper look's for the few, if it could be afforded (and finished in time), else the
    // first look's for every plan.
    let mut compared: Vec<(usize, f32)> = Vec::new();
    if affordable && choices > 1 {
        let mut events = Vec::new();
        for &i in &deeper {
            if matches!(budget, Budget::Seconds(s) if started.elapsed().as_secs_f64() > s) {
                compared.clear();
                break;
            }
            let Some(next) = after(b, &first[i].0) else { continue };
            compared.push((i, of(side, deeper_value(evaluator, &next, CHANCE_DEPTH, &mut judged, &mut events))));
        }
    }
    if compared.is_empty() {
        compared = first.iter().enumerate().map(|(i, (_, v))| (i, *v)).collect();
    }
    let &(best_i, best_v) = compared.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let played_v = played_at.and_then(|i| compared.iter().find(|(j, _)| *j == i)).map_or(best_v, |&(_, v)| v);
    // Where the played plan is as good as any, it is the best.
    let best = if played_v >= best_v { played.to_vec() } else { first[best_i].0.clone() };
    Some(Judgement { best, loss: (best_v - played_v).max(0.0), choices, positions: judged })
}

/// The first side's value of `b` one decision deeper: chance averaged over (at most `depth` events in a row), then
/// the side to act choosing its best plan by the evaluator.
fn deeper_value(evaluator: &Evaluator, b: &Battle, depth: u8, judged: &mut u64, events: &mut Vec<Event>) -> f32 {
    match b.to_act() {
        ToAct::Chance(_) if depth > 0 => {
            chance_average(b, |next, events| deeper_value(evaluator, next, depth - 1, judged, events), events)
        }
        ToAct::Side(side) => {
            let mut best: Option<f32> = None;
            each_choice(b, |_, next| {
                *judged += 1;
                let v = of(side, evaluator.value(next));
                best = Some(best.map_or(v, |b: f32| b.max(v)));
            });
            best.map_or_else(|| evaluator.model_value(b), |v| of(side, v))
        }
        _ => evaluator.model_value(b),
    }
}
