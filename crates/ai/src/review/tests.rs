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
fn a_draw_agreed_and_a_win_on_time_end_the_review_on_the_result_judging_nobody() {
    let e = Evaluator::embedded();
    let g = game(5, 30);
    for (how, side, words) in [
        (Declared::DrawAgreed, None, "the players agreed to a draw"),
        (Declared::OutOfTime(Side::A), Some(Side::A), "Union did not move by the deadline"),
    ] {
        let mut ended = g.clone();
        ended.conclude(how).unwrap();
        let r = review(&ended, &e, &ReviewConfig::default(), &|_, _| {});
        assert!(r.finished);
        let last = r.steps.last().unwrap();
        assert_eq!((last.kind, last.side, Some(last.after)), (StepKind::Decision, side, r.result));
        assert!(last.text.contains(words), "{}", last.text);
        assert!(last.judged.is_none(), "nobody's move to judge");
    }
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
                    Step::Declared(_) => unreachable!(),
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

/// A small board for the sentences: Blue's Iron Brigade (regular infantry) at d4 facing N, a Grey battery beside it
/// at d5 (a charge), Grey Foot in woods at c5 two squares off (fire, R6.1, with cover), Blue's Horse far off at a1;
/// Blue to choose.
fn sentence_board() -> Battle {
    let text = r#"
name = "Sentences"
turns = 6
[map]
terrain = """
......
..W...
......
......
......
......
"""
[[sides]]
id = "blue"
name = "Union"
home = "south"
[[sides]]
id = "grey"
name = "Confederate"
home = "north"
[[units]]
side = "blue"
name = "Iron Brigade"
arm = "infantry"
at = "d4"
facing = "N"
[[units]]
side = "blue"
name = "Horse"
arm = "cavalry"
at = "a1"
facing = "N"
[[units]]
side = "grey"
name = "Battery"
arm = "artillery"
at = "d5"
facing = "S"
[[units]]
side = "grey"
name = "Foot"
arm = "infantry"
at = "c5"
facing = "S"
"#;
    let scenario = pacw_engine::Scenario::parse(text, "sentences.toml").unwrap();
    let mut b = Battle::from_scenario(std::sync::Arc::new(scenario));
    // Draw Union cards (or roll the Union the initiative) until the Union is to act.
    while let ToAct::Chance(_) = b.to_act() {
        let outcomes = b.chance_outcomes();
        let union = outcomes
            .iter()
            .map(|&(o, _)| o)
            .find(|o| matches!(o, Outcome::Card(pacw_engine::Card::Side { side: Side::A, .. })))
            .unwrap_or(outcomes.last().unwrap().0);
        b.apply_chance(union).unwrap();
    }
    assert_eq!(b.to_act(), ToAct::Side(Side::A));
    b
}

const IRON: pacw_engine::UnitId = pacw_engine::UnitId(0);
const HORSE: pacw_engine::UnitId = pacw_engine::UnitId(1);
const BATTERY: pacw_engine::UnitId = pacw_engine::UnitId(2);
const FOOT: pacw_engine::UnitId = pacw_engine::UnitId(3);

#[test]
fn an_attacks_odds_are_the_engines_and_a_charge_is_an_attack_on_an_adjacent_unit() {
    let b = sentence_board();
    let charge = [Action::Activate(IRON), Action::Fire { target: BATTERY, facing: pacw_engine::Dir::N }];
    let fire = [Action::Activate(IRON), Action::Fire { target: FOOT, facing: pacw_engine::Dir::N }];
    let note = explain::attack_note(&b, &charge).unwrap();
    assert!(note.charge && note.target == BATTERY);
    assert_eq!(note.hit, (7 - note.needed) as f32 / 6.0);
    let far = explain::attack_note(&b, &fire).unwrap();
    assert!(!far.charge && far.target == FOOT);
    // Charged, the battery can be destroyed outright; shot at, steady infantry cannot (R7.1).
    assert!(note.destroyed > 0.0 && far.destroyed == 0.0, "{note:?} {far:?}");
    let move_only = [Action::Activate(IRON), Action::Move { to: "d3".parse().unwrap(), facing: pacw_engine::Dir::S }];
    assert_eq!(explain::attack_note(&b, &move_only), None);
    assert_eq!(explain::attack_note(&b, &[Action::EndActivations]), None);
}

#[test]
fn the_better_orders_sentence_says_what_it_does_that_the_one_played_did_not() {
    use pacw_engine::Dir;
    let b = sentence_board();
    let charge = [Action::Activate(IRON), Action::Fire { target: BATTERY, facing: Dir::N }];
    let fire = [Action::Activate(IRON), Action::Fire { target: FOOT, facing: Dir::N }];
    let fire_move = [Action::Activate(IRON), Action::FireMove { target: BATTERY }];
    let back = [Action::Activate(IRON), Action::Move { to: "d3".parse().unwrap(), facing: Dir::S }];
    let horse = [Action::Activate(HORSE), Action::Move { to: "a3".parse().unwrap(), facing: Dir::N }];
    let (c, f) = (explain::attack_note(&b, &charge).unwrap(), explain::attack_note(&b, &fire).unwrap());
    let pct = |p: f32| format!("{:.0}%", 100.0 * p);
    // The same unit: named once, each attack with its number and chances.
    assert_eq!(
        explain::why(&b, &fire, &charge).unwrap(),
        format!(
            "The Iron Brigade (d4) charges the Confederate Battery (regular artillery) at d5 at {}+ ({} to hit, {} to \
             destroy it) instead of firing at the Confederate Foot (regular infantry) at c5 at {}+ ({} to hit) (R6.1, \
             R6.4, R7.1).",
            c.needed,
            pct(c.hit),
            pct(c.destroyed),
            f.needed,
            pct(f.hit)
        )
    );
    // A charge and a Fire & Move at the same target are told apart.
    let fm = explain::why(&b, &charge, &fire_move).unwrap();
    assert!(fm.contains("by Fire & Move instead of charging the Confederate Battery"), "{fm}");
    assert!(fm.ends_with("(R4.4, R6.1, R6.4, R7.1)."), "{fm}");
    // Another unit: both named; a move says where and how it faces; ending the activations is the side's.
    assert_eq!(
        explain::why(&b, &back, &horse).unwrap(),
        "The Horse (a1) moves to a3, facing N, instead of the Iron Brigade (d4) moving to d3, facing S (R5)."
    );
    assert_eq!(
        explain::why(&b, &[Action::EndActivations], &back).unwrap(),
        "The Iron Brigade (d4) moves to d3, facing S, instead of the Union ending its activations (R3.4, R5)."
    );
    let hold = [Action::Activate(IRON), Action::Hold];
    assert_eq!(
        explain::why(&b, &charge, &hold).unwrap(),
        format!(
            "The Iron Brigade (d4) holds instead of charging the Confederate Battery (regular artillery) at d5 at {}+ \
             ({} to hit, {} to destroy it) (R4.2, R6.1, R6.4, R7.1).",
            c.needed,
            pct(c.hit),
            pct(c.destroyed)
        )
    );
    // Nothing to say when the order given was the best, or about a plan the engine would not take.
    assert_eq!(explain::why(&b, &charge, &charge), None);
    let illegal = [Action::Activate(BATTERY), Action::Hold];
    assert_eq!(explain::why(&b, &charge, &illegal), None);
}

#[test]
fn a_flagged_decision_of_a_full_review_says_why_the_better_order_is_better() {
    let e = Evaluator::embedded();
    let r = review(&game(7, 120), &e, &ReviewConfig::default(), &|_, _| {});
    let mut flagged = 0;
    for s in r.steps.iter().filter(|s| s.kind == StepKind::Decision) {
        let j = s.judged.as_ref().unwrap();
        let best = j.best.as_ref().unwrap();
        assert_eq!(j.why.is_none(), best.actions == s.actions, "{}: {:?}", s.text, j.why);
        if j.label.is_some() {
            flagged += 1;
            let why = j.why.as_ref().unwrap();
            assert!(why.contains(" instead of ") && why.ends_with(")."), "{why}");
        }
        // An order's odds are there exactly when it attacks.
        assert_eq!(best.attack.is_some(), best.actions.iter().any(|a| a.target().is_some()), "{}", best.text);
        assert_eq!(s.attack.is_some(), s.actions.iter().any(|a| a.target().is_some()), "{}", s.text);
    }
    assert!(flagged > 0, "the random player's decisions are flagged");
}

/// A decision step of a made-up review, from `before` to `after`, in turn `turn`.
fn made_up(turn: u8, before: f32, after: f32) -> ReviewStep {
    step(StepKind::Decision, Some(Side::A), String::new(), turn, 0, before, after)
}

/// Why a made-up game of Union decisions moving the chances through `values` was decided, with its sides and summary.
fn decided_of(values: &[f32]) -> (decided::Decided, [String; 2], [summary::SideSummary; 2]) {
    let steps: Vec<ReviewStep> = values.windows(2).enumerate().map(|(i, w)| made_up(i as u8 + 1, w[0], w[1])).collect();
    let mut moments = decided::Moments::default();
    for i in 0..steps.len() {
        moments.decision(i, Side::A, format!("the Union did thing {i}"));
    }
    let sides = ["Union".to_string(), "Confederate".to_string()];
    let summary = summary::summarise(&steps, None, true);
    (decided::decided(&steps, &moments, &sides, &summary), sides, summary)
}

#[test]
fn the_swings_are_the_three_largest_by_their_size_the_biggest_first_in_words() {
    // Changes +2, −15, +8, −8 (the later of two ties), +30 and none.
    let values = [0.5, 0.52, 0.37, 0.45, 0.37, 0.67, 0.67];
    let (d, sides, summary) = decided_of(&values);
    let texts: Vec<&str> = d.swings.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "Turn 5: the Union did thing 4: Union chances 37% → 67%",
            "Turn 2: the Union did thing 1: Confederate chances 48% → 63%",
            "Turn 3: the Union did thing 2: Union chances 37% → 45%",
        ]
    );
    assert_eq!(d.swings.iter().map(|s| (s.step, s.last)).collect::<Vec<_>>(), [(4, 4), (1, 1), (2, 2)]);
    assert!(d.swings.iter().all(|s| s.kind == MomentKind::Decision && s.side == Some(Side::A)));
    // A moment that moves nothing is no swing.
    let still = [made_up(1, 0.6, 0.6)];
    let mut one = decided::Moments::default();
    one.decision(0, Side::B, "the Confederate held".to_string());
    assert_eq!(decided::decided(&still, &one, &sides, &summary).swings, []);
}

/// Two swings of nearly one size read biggest first in their words' whole percents: +9.8 points said "31% → 40%"
/// comes after +9.2 said "40% → 50%".
#[test]
fn the_swings_read_biggest_first_as_rounded_in_words() {
    let values = [0.306, 0.404, 0.496];
    let (d, ..) = decided_of(&values);
    let texts: Vec<&str> = d.swings.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "Turn 2: the Union did thing 1: Union chances 40% → 50%",
            "Turn 1: the Union did thing 0: Union chances 31% → 40%"
        ]
    );
}

#[test]
fn a_reviews_swings_are_its_biggest_moments_and_an_attacks_dice_are_one() {
    let e = Evaluator::embedded();
    for seed in [3, 11] {
        let r = review(&game(seed, usize::MAX), &e, &quick(), &|_, _| {});
        let swings = &r.decided.swings;
        assert_eq!(swings.len(), SWINGS);
        let size = |s: &Swing| (s.after - s.before).abs();
        assert!(swings.windows(2).all(|w| size(&w[0]) >= size(&w[1])), "the biggest first");
        let smallest = size(&swings[2]);
        for s in swings {
            assert_eq!((s.before, s.after), (r.steps[s.step].before, r.steps[s.last].after));
            assert!(s.text.starts_with(&format!("Turn {}: ", r.steps[s.step].turn)), "{}", s.text);
            let favoured = &r.sides[usize::from(s.after < s.before)];
            assert!(s.text.contains(&format!(": {favoured} chances ")), "{}", s.text);
            if s.kind == MomentKind::Dice {
                assert!(r.steps[s.step].text.starts_with("To hit"), "{}", s.text);
                assert!(s.text.contains(" hit") || s.text.contains(" missed"), "{}", s.text);
            }
        }
        // No other moment swung more: each decision, card and initiative roll alone, an attack's dice together.
        let mut i = 0;
        while i < r.steps.len() {
            let mut last = i;
            if r.steps[i].text.starts_with("To hit") && r.steps.get(i + 1).is_some_and(|n| n.text.contains("strength"))
            {
                last = i + 1;
            }
            let change = (r.steps[last].after - r.steps[i].before).abs();
            assert!(
                change <= smallest + 1e-6 || swings.iter().any(|s| s.step == i),
                "step {i} ({}) swung {change}, more than {smallest}",
                r.steps[i].text
            );
            i = last + 1;
        }
    }
}

#[test]
fn net_luck_is_own_less_the_opponents_and_the_sentence_names_the_luckier_side() {
    let e = Evaluator::embedded();
    let r = review(&game(11, usize::MAX), &e, &quick(), &|_, _| {});
    let [a, b] = &r.summary;
    assert!((a.net_luck - (a.luck - b.luck)).abs() < 1e-6 && (b.net_luck - (b.luck - a.luck)).abs() < 1e-6);
    assert!((a.net_luck + b.net_luck).abs() < 1e-6);
    // The luck-adjusted result is the result less the net luck.
    assert!((a.luck_adjusted.unwrap() - (a.result.unwrap() - a.net_luck)).abs() < 1e-5);
    let luckier = &r.sides[usize::from(a.net_luck < 0.0)];
    assert!(r.decided.luck.starts_with(&format!("{luckier} was the luckier side, by ")), "{}", r.decided.luck);
    // The brief's example: both sides lucky, one more than the other.
    let mut made = r.summary.clone();
    made[0].luck = 0.158;
    made[1].luck = 0.255;
    made[0].net_luck = 0.158 - 0.255;
    made[1].net_luck = 0.255 - 0.158;
    assert_eq!(
        decided::luck_words(&r.sides, &made),
        "Confederate was the luckier side, by 9.7 points of winning chances: luck Union +15.8, Confederate +25.5; \
         net luck (own less the opponent's) Union −9.7, Confederate +9.7."
    );
    made[0].net_luck = 0.0;
    made[1].net_luck = 0.0;
    assert!(decided::luck_words(&r.sides, &made).starts_with("Neither side was the luckier: luck Union +15.8"));
}
