//! The search's measurements distilled into a cheap judgement of orders (one step of policy iteration):
//!
//! - `cargo run --release -p pacw-ai --example distil -- record FROM..TO FILE.csv`: plays games `FROM..TO` as the
//!   arena does (the shipped battles in turn, sides swapping), the general against greedy, and writes for every
//!   candidate of every decision the general searched how much better than greedy's choice the search measured it
//!   (the mean paired difference of their play-outs and its standard error, [`pacw_ai::MctsPlayer::measured`]) and
//!   what the candidate changes ([`describe`]).
//! - `cargo run --release -p pacw-ai --example distil -- fit FILE.csv...`: fits the measured difference by weighted
//!   least squares (each candidate weighed by the inverse of its measurement's variance) on the decisions of four
//!   games in five, and on the fifth kept out says how much of the search's gain its best candidate takes; prints
//!   the weights.
//! - `cargo run --release -p pacw-ai --example distil -- play WEIGHTS THRESHOLD FROM..TO`: greedy's choice
//!   corrected by the fitted judgement where it predicts a gain above THRESHOLD, against greedy over the arena's
//!   games `FROM..TO` (WEIGHTS as `fit` prints them, comma separated).

// Each example compiles the shared module for itself; this one needs only its loop over games.
#[allow(dead_code)]
mod shared;

use nalgebra::{DMatrix, DVector};
use pacw_ai::evaluator::{CHANCE_DEPTH, FEATURES, Features, features, shared};
use pacw_ai::{Budget, GreedyPlayer, Leaf, MctsConfig, MctsPlayer, Player};
use pacw_engine::{Action, Battle, Game, SHIPPED_SCENARIOS, Side, ToAct};
use shared::over_games;
use std::ops::Range;

/// What describes a candidate: the change of each evaluator feature, of the evaluator's value and of greedy's own
/// value from greedy's choice, and whether it leaves greedy's choice with an activation, an order, or an end of the
/// activations (the model's constant for each kind).
const INPUTS: usize = FEATURES + 5;

/// The arena's game `g` and the general's side in it.
fn game(g: u64) -> (Game, Side) {
    let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[(g / 2) as usize % SHIPPED_SCENARIOS.len()];
    let game = Game::new(text, file, None, g * 7919).expect("shipped battles are valid");
    (game, if g.is_multiple_of(2) { Side::A } else { Side::B })
}

/// The general as it played until 2026-12-07 (`mcts:g3200:e3:f0`, the fitted evaluator at its leaves) on one thread.
fn general(seed: u64) -> MctsPlayer {
    let config = MctsConfig {
        budget: Budget::Scaled(3200),
        leaf: Leaf::Evaluator,
        scaled_floor: 0,
        threads: 1,
        ..Default::default()
    };
    MctsPlayer::new(config, seed)
}

/// The features after `b`'s pending chance events, averaged over their outcomes by the engine's probabilities (up to
/// `depth` events in a row; outcomes that lead to the same position are judged once): as the evaluator's value
/// averages its judgement (`Evaluator::value`), for the twenty features at once.
fn expected_features(b: &Battle, depth: u8) -> Features {
    if depth == 0 || !matches!(b.to_act(), ToAct::Chance(_)) {
        return features(b);
    }
    let mut seen: Vec<(Battle, Features)> = Vec::new();
    let mut total = [0.0; FEATURES];
    for (outcome, p) in b.chance_outcomes() {
        let p = *p.numer() as f32 / *p.denom() as f32;
        let mut after = b.clone();
        if after.apply_chance(outcome).is_err() {
            continue;
        }
        let x = match seen.iter().find(|(s, _)| s.same_position(&after)) {
            Some((_, x)) => *x,
            None => {
                let x = expected_features(&after, depth - 1);
                seen.push((after, x));
                x
            }
        };
        total.iter_mut().zip(x).for_each(|(t, x)| *t += p * x);
    }
    total
}

/// A candidate as the model sees it, before it is compared with greedy's choice: the expected features and the
/// evaluator's value after it, for the side choosing (an activation is followed by the order searched with it, or
/// else its unit's best order by greedy's judgement, so that it is judged by what it does), greedy's value of it,
/// and its kind (0 an activation, 1 an order, 2 the end of the activations).
struct Described {
    features: Features,
    value: f32,
    greedy: f32,
    kind: usize,
}

/// The candidate `action` of `b` (with the `order` searched with it, if any), which greedy values at
/// `greedy_value`, as [`Described`] for `side`.
fn describe(b: &Battle, action: Action, order: Option<Action>, greedy_value: f32, side: Side) -> Described {
    let mut after = b.clone();
    after.apply(action).expect("candidates are legal");
    let kind = match action {
        Action::Activate(_) => {
            let order = order.or_else(|| GreedyPlayer::new(0).scored(&after).first().map(|&(order, _)| order));
            if let Some(order) = order {
                after.apply(order).expect("the orders searched and greedy's are legal");
            }
            0
        }
        Action::EndActivations => 2,
        _ => 1, // every other action is an order to the active unit
    };
    let sign = if side == Side::A { 1.0 } else { -1.0 };
    let mut features = expected_features(&after, CHANCE_DEPTH);
    features.iter_mut().for_each(|x| *x *= sign);
    let value = sign * (shared().value(&after) - 0.5);
    Described { features, value, greedy: greedy_value, kind }
}

/// The model's inputs for a candidate against greedy's choice `first`.
fn inputs(candidate: &Described, first: &Described) -> [f64; INPUTS] {
    let mut x = [0.0; INPUTS];
    for ((x, c), f) in x.iter_mut().zip(candidate.features).zip(first.features) {
        *x = (c - f) as f64;
    }
    x[FEATURES] = (candidate.value - first.value) as f64;
    x[FEATURES + 1] = (candidate.greedy - first.greedy) as f64;
    x[FEATURES + 2 + candidate.kind] = 1.0;
    x
}

/// One game's rows: game, decision, candidate, worlds, measured mean, its standard error, then the inputs.
fn record_game(g: u64) -> Vec<Vec<String>> {
    let (mut game, general_side) = game(g);
    let mut searcher = general(g);
    let mut greedy = GreedyPlayer::new(g + 1_000_000);
    let mut rows = Vec::new();
    let mut decision = 0;
    while let ToAct::Side(side) = game.battle().to_act() {
        let b = game.battle().clone();
        let action = if side == general_side {
            let action = searcher.choose(&b);
            let measured = searcher.measured();
            if measured.len() > 1 {
                decision += 1;
                let values = GreedyPlayer::new(0).scored(&b);
                let greedy_value = |a: Action| values.iter().find(|(x, _)| *x == a).map_or(0.0, |(_, v)| *v);
                let described: Vec<Described> =
                    measured.iter().map(|m| describe(&b, m.action, m.order, greedy_value(m.action), side)).collect();
                for (i, (j, d)) in measured.iter().zip(&described).enumerate().skip(1) {
                    let head = [g as f64, decision as f64, i as f64, j.worlds as f64, j.mean, j.standard_error];
                    let row = head.into_iter().chain(inputs(d, &described[0])).map(|x| x.to_string()).collect();
                    rows.push(row);
                }
            }
            action
        } else {
            greedy.choose(&b)
        };
        game.act(action).expect("players choose legal actions");
    }
    eprintln!("game {g}: {decision} decisions searched");
    rows
}

fn record(games: Range<u64>, out: &str) {
    let mut file = csv::Writer::from_path(out).expect("the file can be written");
    for row in over_games(games, record_game).into_iter().flatten() {
        file.write_record(row).expect("the file can be written");
    }
    file.flush().expect("the file can be written");
}

/// A measured candidate.
struct Row {
    game: u64,
    decision: u64,
    mean: f64,
    standard_error: f64,
    x: [f64; INPUTS],
}

fn read(files: &[String]) -> Vec<Row> {
    let mut rows = Vec::new();
    for f in files {
        let mut reader = csv::ReaderBuilder::new().has_headers(false).from_path(f).expect("the file can be read");
        for record in reader.records() {
            let record = record.expect("a whole row");
            let cell = |i: usize| -> f64 { record.get(i).expect("every column").parse().expect("a number") };
            rows.push(Row {
                game: cell(0) as u64,
                decision: cell(1) as u64,
                mean: cell(4),
                standard_error: cell(5),
                x: std::array::from_fn(|k| cell(6 + k)),
            });
        }
    }
    rows
}

/// The weight of a measurement: the inverse of its variance, with a floor on the standard error (a candidate that
/// played as greedy's choice in every world measured no spread at all).
fn weight(r: &Row) -> f64 {
    1.0 / (r.standard_error.powi(2) + 0.01f64.powi(2))
}

fn fit(files: &[String]) {
    let rows = read(files);
    let (train, test): (Vec<&Row>, Vec<&Row>) = rows.iter().partition(|r| !r.game.is_multiple_of(5));
    // Weighted least squares with a little ridge: (XᵀWX + λI) β = XᵀWy.
    let mut xtx = DMatrix::<f64>::zeros(INPUTS, INPUTS);
    let mut xty = DVector::<f64>::zeros(INPUTS);
    for r in &train {
        let w = weight(r);
        let x = DVector::from_row_slice(&r.x);
        xtx += w * &x * x.transpose();
        xty += w * r.mean * &x;
    }
    let ridge = 1e-6 * xtx.trace() / INPUTS as f64;
    xtx += DMatrix::identity(INPUTS, INPUTS) * ridge;
    let beta = xtx.cholesky().expect("positive definite with the ridge").solve(&xty);
    let predict = |r: &Row| r.x.iter().zip(beta.iter()).map(|(x, b)| x * b).sum::<f64>();
    for (name, set) in [("fitted on", &train), ("kept out", &test)] {
        let (mut residual, mut total, mut weights) = (0.0, 0.0, 0.0);
        for r in set.iter() {
            let w = weight(r);
            residual += w * (r.mean - predict(r)).powi(2);
            total += w * r.mean.powi(2);
            weights += w;
        }
        // Per decision: the measured gain of the general's choice (a candidate confidently better, if any) and of
        // the best measured candidate (an upper bound, raised by the noise it is the maximum of).
        let mut decisions = std::collections::BTreeMap::<(u64, u64), Vec<&Row>>::new();
        set.iter().for_each(|r| decisions.entry((r.game, r.decision)).or_default().push(r));
        let n = decisions.len().max(1) as f64;
        let confidence = MctsConfig::default().confidence as f64;
        let margin = |r: &&Row| r.mean - confidence * r.standard_error;
        let (mut general, mut best) = (0.0, 0.0);
        for candidates in decisions.values() {
            let confident = candidates.iter().filter(|r| margin(r) > 0.0);
            general += confident.max_by(|a, b| margin(a).total_cmp(&margin(b))).map_or(0.0, |r| r.mean);
            best += candidates.iter().map(|r| r.mean).fold(0.0, f64::max);
        }
        // R² against predicting no difference at all (greedy's choice is as good as any), not against the mean.
        println!(
            "{name}: {} candidates, {} decisions; weighted R² {:.3} (rms {:.4}); gain a decision: the general {:.4}, \
             best measured {:.4}",
            set.len(),
            decisions.len(),
            1.0 - residual / total,
            (residual / weights).sqrt(),
            general / n,
            best / n
        );
        // The model's best candidate played where it predicts a gain above a threshold: above 0 the best of seven
        // predictions is too high on average (the winner's curse).
        for threshold in [0.0, 0.002, 0.005, 0.01, 0.02, 0.04] {
            let (mut gain, mut left) = (0.0, 0);
            for candidates in decisions.values() {
                let pick = candidates.iter().max_by(|a, b| predict(a).total_cmp(&predict(b)));
                if let Some(r) = pick.filter(|r| predict(r) > threshold) {
                    gain += r.mean;
                    left += 1;
                }
            }
            let left = 100.0 * left as f64 / n;
            println!(
                "  the model above {threshold}: gain {:.4} a decision, leaving greedy's choice at {left:.1}%",
                gain / n
            );
        }
    }
    let list: Vec<String> = beta.iter().map(|b| format!("{b:.6}")).collect();
    println!("weights: {}", list.join(","));
}

/// Greedy's choice, unless the fitted judgement predicts another of its best candidates (as many as the general
/// compares) better by more than `threshold`.
struct Distilled {
    weights: [f64; INPUTS],
    threshold: f64,
    greedy: GreedyPlayer,
}

impl Distilled {
    fn choose(&mut self, b: &Battle) -> Action {
        let ToAct::Side(side) = b.to_act() else { unreachable!("asked only where a side acts") };
        let scored: Vec<(Action, f32)> =
            self.greedy.scored(b).into_iter().take(MctsConfig::default().max_children).collect();
        if scored.len() == 1 {
            return scored[0].0;
        }
        let first = describe(b, scored[0].0, None, scored[0].1, side);
        let mut best = (scored[0].0, self.threshold);
        for &(action, value) in &scored[1..] {
            let x = inputs(&describe(b, action, None, value, side), &first);
            let predicted: f64 = x.iter().zip(&self.weights).map(|(x, w)| x * w).sum();
            if predicted > best.1 {
                best = (action, predicted);
            }
        }
        best.0
    }
}

fn play(weights: &str, threshold: f64, games: Range<u64>) {
    let list: Vec<f64> = weights.split(',').map(|w| w.parse().expect("weights are numbers")).collect();
    let weights: [f64; INPUTS] = list.try_into().expect("one weight an input");
    let results = over_games(games, |g| {
        let (mut game, distilled_side) = game(g);
        let mut distilled = Distilled { weights, threshold, greedy: GreedyPlayer::new(g) };
        let mut greedy = GreedyPlayer::new(g + 1_000_000);
        while let ToAct::Side(side) = game.battle().to_act() {
            let b = game.battle();
            let action = if side == distilled_side { distilled.choose(b) } else { greedy.choose(b) };
            game.act(action).expect("players choose legal actions");
        }
        let r = game.battle().result().expect("the game is over");
        eprintln!("game {g}: distilled as {distilled_side:?} -> {:?} {:?}", r.winner, r.reason);
        match r.winner {
            Some(w) if w == distilled_side => 0,
            Some(_) => 1,
            None => 2,
        }
    });
    let wins: [usize; 3] = std::array::from_fn(|i| results.iter().filter(|&&r| r == i).count());
    println!("distilled {} - greedy {} - draws {}", wins[0], wins[1], wins[2]);
}

fn range(text: &str) -> Range<u64> {
    let (from, to) = text.split_once("..").expect("games as FROM..TO");
    from.parse().expect("a number")..to.parse().expect("a number")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("record") => record(range(&args[2]), &args[3]),
        Some("fit") => fit(&args[2..]),
        Some("play") => play(&args[2], args[3].parse().expect("THRESHOLD is a number"), range(&args[4])),
        _ => {
            eprintln!(
                "usage: distil record FROM..TO FILE.csv | distil fit FILE.csv... | distil play WEIGHTS THRESHOLD FROM..TO"
            )
        }
    }
}
