//! Does the review's advice hold up? Each decision the review labels (an inaccuracy, a mistake or a blunder) is
//! played both ways from the position where it was made — the order played and the review's better order — and each
//! is continued many times to the end by greedy against greedy with fresh dice, the same dice for both orders in
//! each continuation (common random numbers, so that the difference is the orders', not the dice's). The better
//! order holds up where it does better beyond the continuations' own noise.

use pacw_ai::evaluator::result_value;
use pacw_ai::review::{Review, StepKind};
use pacw_ai::{GreedyPlayer, Player};
use pacw_engine::{Action, Battle, Game, Side, ToAct};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

/// Standard errors a real gain must be from 0 to count as better or worse (a two-sided 95% test).
const Z: f64 = 1.96;

/// The most decisions a continuation may take (every game ends by its turn limit long before).
const MAX_DECISIONS: usize = 200_000;

/// What the continuations said of one piece of advice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The better order did better, beyond the noise.
    Better,
    /// It did worse, beyond the noise.
    Worse,
    /// The continuations cannot tell the two apart.
    Unclear,
}

/// One labelled decision, checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdviceCheck {
    /// The review's step of the decision.
    pub step: usize,
    /// The side that decided.
    pub side: Side,
    /// The order played, in words.
    pub played: String,
    /// The review's better order, in words.
    pub better: String,
    /// What the review said the better order would have gained, in the deciding side's winning chances.
    pub claimed: f64,
    /// What it gained over the continuations: its mean score less the played order's, in the deciding side's terms.
    pub gain: f64,
    /// The standard error of that gain (paired by continuation).
    pub standard_error: f64,
    /// Whether it held up.
    pub verdict: Verdict,
}

/// Checks every labelled decision of `game` (reviewed as `review`) with `continuations` continuations each, the
/// dice of continuation `k` drawn from `seed` and `k`, on the threads of the current rayon pool.
pub fn check_advice(game: &Game, review: &Review, continuations: u32, seed: u64) -> Vec<AdviceCheck> {
    labelled(game, review)
        .into_par_iter()
        .map(|d| {
            let side = match d.before.to_act() {
                ToAct::Side(side) => side,
                _ => Side::A, // never: a decision step starts where a side acts
            };
            let differences: Vec<f64> = (0..continuations)
                .map(|k| {
                    let world = continuation_seed(seed, d.step, k);
                    continued(&d.before, &d.better, side, world) - continued(&d.before, &d.played, side, world)
                })
                .collect();
            let (gain, standard_error) = mean_and_error(&differences);
            let verdict = if gain > Z * standard_error && gain > 0.0 {
                Verdict::Better
            } else if gain < -Z * standard_error && gain < 0.0 {
                Verdict::Worse
            } else {
                Verdict::Unclear
            };
            let (played, better) = (d.played_text, d.better_text);
            AdviceCheck { step: d.step, side, played, better, claimed: d.claimed, gain, standard_error, verdict }
        })
        .collect()
}

/// A labelled decision to check: where it was made, the order played and the better one.
struct Labelled {
    step: usize,
    before: Battle,
    played: Vec<Action>,
    better: Vec<Action>,
    claimed: f64,
    played_text: String,
    better_text: String,
}

/// The decisions of `review` with a label and a better order than the one played.
fn labelled(game: &Game, review: &Review) -> Vec<Labelled> {
    let made = game.actions().len();
    let decisions = review.steps.iter().enumerate().filter(|(_, s)| s.kind == StepKind::Decision);
    decisions
        .filter_map(|(step, s)| {
            let judged = s.judged.as_ref().filter(|j| j.label.is_some())?;
            let better = judged.best.as_ref().filter(|b| b.actions != s.actions)?;
            let undone = made.checked_sub(s.decision.checked_sub(s.actions.len())?)?;
            Some(Labelled {
                step,
                before: game.undo(undone).battle().clone(),
                played: s.actions.clone(),
                better: better.actions.clone(),
                claimed: f64::from(judged.loss),
                played_text: s.text.clone(),
                better_text: better.text.clone(),
            })
        })
        .collect()
}

/// The seed of continuation `k` of the decision at `step`.
fn continuation_seed(seed: u64, step: usize, k: u32) -> u64 {
    crate::seed::game_seed(seed ^ (step as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15), u64::from(k))
}

/// `side`'s score after `plan` is played from `before` and the game is continued by greedy on both sides, the dice
/// and the players' ties drawn from `world`. An illegal plan (a damaged review) scores as a loss for the side.
fn continued(before: &Battle, plan: &[Action], side: Side, world: u64) -> f64 {
    let mut b = before.clone();
    for &a in plan {
        if b.apply(a).is_err() {
            return 0.0;
        }
    }
    let mut dice = ChaCha8Rng::seed_from_u64(world);
    let mut players = [GreedyPlayer::new(world ^ 1), GreedyPlayer::new(world ^ 2)];
    let mut events = Vec::new();
    for _ in 0..MAX_DECISIONS {
        match b.to_act() {
            ToAct::Side(s) => {
                let action = players[s.index()].choose(&b);
                b.apply_unchecked(action, &mut events);
            }
            ToAct::Chance(_) => {
                let Some(outcome) = b.sample_chance(&mut dice) else { break };
                if b.apply_chance_into(outcome, &mut events).is_err() {
                    break;
                }
            }
            ToAct::Over(_) => break,
        }
    }
    let first = f64::from(b.result().map_or(0.5, result_value));
    if side == Side::A { first } else { 1.0 - first }
}

/// The mean of `xs` and its standard error.
fn mean_and_error(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.len() < 2 {
        return (xs.first().copied().unwrap_or(0.0), f64::INFINITY);
    }
    let mean = xs.iter().sum::<f64>() / n;
    let variance = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (variance / n).sqrt())
}

/// What the checks of many decisions add up to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdviceSummary {
    /// Decisions checked.
    pub checked: usize,
    /// The share whose better order did better.
    pub better: f64,
    /// The share whose better order did worse.
    pub worse: f64,
    /// The share the continuations could not tell apart.
    pub unclear: f64,
    /// The mean gain the review claimed.
    pub claimed: f64,
    /// The mean gain the continuations measured.
    pub gain: f64,
    /// The standard error of the mean gain.
    pub standard_error: f64,
}

/// Sums up `checks`.
pub fn summarise(checks: &[AdviceCheck]) -> AdviceSummary {
    let n = checks.len().max(1) as f64;
    let share = |v: Verdict| checks.iter().filter(|c| c.verdict == v).count() as f64 / n;
    let gains: Vec<f64> = checks.iter().map(|c| c.gain).collect();
    let (gain, standard_error) = mean_and_error(&gains);
    AdviceSummary {
        checked: checks.len(),
        better: share(Verdict::Better),
        worse: share(Verdict::Worse),
        unclear: share(Verdict::Unclear),
        claimed: checks.iter().map(|c| c.claimed).sum::<f64>() / n,
        gain,
        standard_error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pacw_ai::Evaluator;
    use pacw_ai::review::{ReviewConfig, review};
    use pacw_engine::{DEFAULT_SCENARIO, Scenario};
    use std::sync::Arc;

    fn greedy_game(seed: u64) -> Game {
        let scenario = Arc::new(Scenario::parse(DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut game = Game::with_scenario(scenario, DEFAULT_SCENARIO, "m.toml", None, seed);
        let mut players = [GreedyPlayer::new(seed), GreedyPlayer::new(seed + 1)];
        while let ToAct::Side(side) = game.battle().to_act() {
            let action = players[side.index()].choose(game.battle());
            game.act_unchecked(action);
        }
        game
    }

    #[test]
    fn every_labelled_decision_is_checked_the_same_way_each_time() {
        let config = ReviewConfig { threads: 1, ..ReviewConfig::default() };
        let evaluator = Evaluator::embedded();
        let (game, reviewed) = (0..20)
            .map(|seed| {
                let game = greedy_game(seed);
                let reviewed = review(&game, &evaluator, &config, &|_, _| {});
                (game, reviewed)
            })
            .find(|(_, r)| r.steps.iter().any(|s| s.judged.as_ref().is_some_and(|j| j.label.is_some())))
            .expect("greedy makes a labelled decision in one of twenty games");
        let checks = check_advice(&game, &reviewed, 12, 7);
        let labelled = reviewed
            .steps
            .iter()
            .filter(|s| s.judged.as_ref().is_some_and(|j| j.label.is_some() && j.best.is_some()))
            .count();
        assert!(!checks.is_empty() && checks.len() <= labelled);
        for c in &checks {
            assert!(c.claimed >= 0.05, "only labelled decisions: {c:?}");
            assert_eq!(reviewed.steps[c.step].text, c.played);
            match c.verdict {
                Verdict::Better => assert!(c.gain > 1.96 * c.standard_error),
                Verdict::Worse => assert!(c.gain < -1.96 * c.standard_error),
                Verdict::Unclear => assert!(c.gain.abs() <= 1.96 * c.standard_error),
            }
        }
        assert_eq!(check_advice(&game, &reviewed, 12, 7), checks, "the same seed gives the same checks");
        let summary = summarise(&checks);
        assert_eq!(summary.checked, checks.len());
        assert!((summary.better + summary.worse + summary.unclear - 1.0).abs() < 1e-9);
    }

    #[test]
    fn an_order_continued_against_itself_gains_nothing_and_an_illegal_one_loses() {
        let game = greedy_game(3);
        let before = game.undo(game.actions().len()).battle().clone();
        let ToAct::Side(side) = before.to_act() else { panic!("a side acts first") };
        let plan = [before.legal_actions()[0]];
        let same: Vec<f64> =
            (0..6).map(|k| continued(&before, &plan, side, k) - continued(&before, &plan, side, k)).collect();
        assert_eq!(mean_and_error(&same), (0.0, 0.0));
        assert_eq!(continued(&before, &[Action::EndActivations, Action::EndActivations], side, 1), 0.0);
        let (mean, error) = mean_and_error(&[1.0, 0.0, 1.0, 0.0]);
        assert_eq!(mean, 0.5);
        assert!((error - (1.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
    }
}
