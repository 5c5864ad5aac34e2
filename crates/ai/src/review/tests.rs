use super::*;
use crate::{GreedyPlayer, Player, RandomPlayer};
use proptest::prelude::*;

/// A game of the default scenario between random (first side) and greedy, to its end or `decisions` decisions.
fn game(seed: u64, decisions: usize) -> Game {
    let mut game = Game::new(pacw_engine::DEFAULT_SCENARIO, "m.toml", None, seed).unwrap();
    let mut players: [Box<dyn Player>; 2] = [Box::new(RandomPlayer::new(seed)), Box::new(GreedyPlayer::new(seed))];
    while let ToAct::Side(side) = game.battle().to_act() {
        if game.actions().len() >= decisions {
            break;
        }
        let action = players[side.index()].choose(game.battle());
        game.act(action).unwrap();
    }
    game
}

fn quick() -> ReviewConfig {
    ReviewConfig { quick: true, ..ReviewConfig::default() }
}

#[test]
fn each_steps_after_is_the_next_ones_before_and_the_last_is_the_result() {
    let e = Evaluator::embedded();
    let g = game(3, usize::MAX);
    let r = review(&g, &e, &quick(), &|_, _| {});
    assert!(r.finished);
    assert_eq!(r.steps.first().unwrap().before, r.start);
    for pair in r.steps.windows(2) {
        assert_eq!(pair[0].after.to_bits(), pair[1].before.to_bits(), "{} then {}", pair[0].text, pair[1].text);
    }
    assert_eq!(Some(r.steps.last().unwrap().after), r.result);
    // One step a decision (an activation with its order is one) and one a chance outcome.
    let decisions: usize = r.steps.iter().filter(|s| s.kind == StepKind::Decision).map(|s| s.actions.len()).sum();
    assert_eq!(decisions, g.actions().len());
    assert_eq!(r.steps.iter().filter(|s| s.kind == StepKind::Chance).count(), g.outcomes().len());
    assert_eq!(r.steps.last().unwrap().decision, g.actions().len());
}

#[test]
fn an_unfinished_game_ends_on_the_evaluators_judgement_and_a_resignation_on_the_result() {
    let e = Evaluator::embedded();
    let g = game(5, 30);
    let r = review(&g, &e, &quick(), &|_, _| {});
    assert!(!r.finished && r.result.is_none());
    assert_eq!(r.steps.last().unwrap().after, e.value(g.battle()));
    assert!(r.summary.iter().all(|s| s.result.is_none() && s.luck_adjusted.is_none()));
    let mut resigned = g.clone();
    resigned.resign(Side::A).unwrap();
    let r = review(&resigned, &e, &ReviewConfig::default(), &|_, _| {});
    let last = r.steps.last().unwrap();
    assert_eq!((last.kind, last.side, last.after), (StepKind::Decision, Some(Side::A), 0.0));
    assert_eq!(last.text, "Union resigns");
    let judged = last.judged.as_ref().unwrap();
    assert!((judged.loss - last.before).abs() < 1e-6, "resigning gives away all the side had");
}

#[test]
fn labels_follow_the_thresholds() {
    assert_eq!(Label::of(0.0), None);
    assert_eq!(Label::of(0.049), None);
    assert_eq!(Label::of(0.05), Some(Label::Inaccuracy));
    assert_eq!(Label::of(0.099), Some(Label::Inaccuracy));
    assert_eq!(Label::of(0.10), Some(Label::Mistake));
    assert_eq!(Label::of(0.15), Some(Label::Blunder));
    assert_eq!(Label::of(0.9), Some(Label::Blunder));
    assert_eq!(accuracy_of_move(0.0), 100.0);
    assert!(accuracy_of_move(0.1) < accuracy_of_move(0.05) && accuracy_of_move(1.0) < 2.0);
}

#[test]
fn a_full_review_searches_every_decision_and_the_best_order_is_never_worse_than_the_one_given() {
    let e = Evaluator::embedded();
    let g = game(7, 120);
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let r = review(&g, &e, &ReviewConfig::default(), &|_, _| {
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    let decisions: Vec<&ReviewStep> = r.steps.iter().filter(|s| s.kind == StepKind::Decision).collect();
    assert_eq!(calls.into_inner(), decisions.len());
    for s in &decisions {
        let j = s.judged.as_ref().unwrap();
        let (loss, best_after) = (j.loss, j.best_after);
        assert!(loss >= 0.0, "{}: {loss}", s.text);
        let gain = if s.side == Some(Side::A) { best_after - s.after } else { s.after - best_after };
        assert!(gain >= -1e-6, "{}", s.text);
        assert_eq!(j.label, if j.choices > 1 { Label::of(loss) } else { None }, "{}", s.text);
        let best = j.best.as_ref().unwrap();
        assert!(!best.actions.is_empty() && !best.text.is_empty());
        if best.actions == s.actions {
            assert_eq!(loss, 0.0, "{}: the order given was the best", s.text);
        }
    }
    // The random player's decisions are judged worse than greedy's.
    let [a, b] = &r.summary;
    assert!(a.loss.unwrap() > b.loss.unwrap(), "random lost {:?}, greedy {:?}", a.loss, b.loss);
    assert!(a.accuracy.unwrap() < b.accuracy.unwrap());
    // The review is the same every time, on any number of threads.
    let one = review(&g, &e, &ReviewConfig { threads: 1, ..ReviewConfig::default() }, &|_, _| {});
    assert_eq!(one, r);
}

#[test]
fn luck_and_skill_add_up_to_the_result() {
    let e = Evaluator::embedded();
    let r = review(&game(11, usize::MAX), &e, &quick(), &|_, _| {});
    let [a, b] = &r.summary;
    let (a_adj, b_adj) = (a.luck_adjusted.unwrap(), b.luck_adjusted.unwrap());
    assert!((a_adj + b_adj - 1.0).abs() < 1e-4, "{a_adj} + {b_adj}");
    // The first side's result is its start, plus what the decisions moved, plus all the luck.
    let drift: f32 = r.steps.iter().filter(|s| s.kind == StepKind::Decision).map(|s| s.after - s.before).sum();
    let chance: f32 = r.steps.iter().filter(|s| s.kind == StepKind::Chance).map(|s| s.after - s.before).sum();
    assert!((r.start + drift + chance - r.result.unwrap()).abs() < 1e-4);
    assert!((a_adj - (r.result.unwrap() - (a.luck - b.luck))).abs() < 1e-4);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Luck averages to zero at every chance event of random games: the luck the review gives each step is the
    /// value after the outcome less the exact average, and over all outcomes of the event it sums to nothing.
    #[test]
    fn luck_averages_to_zero_at_every_chance_event(seed in 0u64..10_000) {
        let e = Evaluator::embedded();
        let g = game(seed, 60);
        let r = review(&g, &e, &quick(), &|_, _| {});
        let mut b = Battle::new(g.battle().scenario().clone(), *g.battle().options());
        let chance_steps = r.steps.iter().filter(|s| s.kind == StepKind::Chance);
        let mut path = g.path().into_iter();
        let mut checked = 0;
        for s in chance_steps {
            // Walk to the chance event of this step.
            let outcome = loop {
                match path.next().unwrap() {
                    Step::Chance(o) => break o,
                    Step::Action(_, a) => { b.apply(a).unwrap(); }
                    Step::Resigned(_) => unreachable!(),
                }
            };
            let outcomes = b.chance_outcomes();
            let values: Vec<(Outcome, f32, f32)> = outcomes.iter().map(|&(o, p)| {
                let mut after = b.clone();
                after.apply_chance(o).unwrap();
                (o, *p.numer() as f32 / *p.denom() as f32, e.value(&after))
            }).collect();
            let average: f32 = values.iter().map(|(_, p, v)| p * v).sum();
            let zero: f32 = values.iter().map(|(_, p, v)| p * (v - average)).sum();
            prop_assert!(zero.abs() < 1e-5, "luck averages {} at {}", zero, s.text);
            let actual = values.iter().find(|(o, _, _)| *o == outcome).unwrap().2;
            prop_assert!((s.luck.unwrap() - (actual - average)).abs() < 1e-5, "{}", s.text);
            b.apply_chance(outcome).unwrap();
            checked += 1;
        }
        prop_assert!(checked > 0);
    }
}

#[test]
fn a_review_searched_a_few_decisions_at_a_time_is_the_whole_review() {
    let e = Evaluator::embedded();
    let g = game(13, 80);
    let config = ReviewConfig::default();
    let mut job = ReviewJob::new(&g, &e, &config);
    assert!(job.total() > 3 && job.searched() == 0);
    let mut slices = 0;
    while !job.search(3) {
        slices += 1;
        assert_eq!(job.searched(), 3 * slices);
    }
    assert_eq!(job.searched(), job.total());
    assert_eq!(job.finish(), review(&g, &e, &config, &|_, _| {}));
    let quick = ReviewJob::new(&g, &e, &ReviewConfig { quick: true, ..config });
    assert_eq!(quick.total(), 0);
}
