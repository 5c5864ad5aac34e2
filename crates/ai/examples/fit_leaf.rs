//! Fits the leaf value the search can use after its play-outs (`evaluator::leaf::fitted_value`): a logistic model of who
//! wins a greedy-against-greedy game from how the position's `evaluator::leaf::leaf_features` have changed since the start,
//! which is what a greedy play-out would go on to decide. Each scenario gets its own intercept (its balance), so
//! that the weights do not learn which scenario they are in. `cargo run --release -p pacw-ai --example fit_leaf --
//! GAMES` plays GAMES games over the shipped scenarios, fits on the first four fifths, and prints the weights, the
//! intercepts and the log-loss on the last fifth beside `evaluate`'s.

use pacw_ai::evaluator::leaf::{LEAF_FEATURES, hand_value, leaf_features};
use pacw_ai::{GreedyPlayer, Player};
use pacw_engine::{Battle, Game, SHIPPED_SCENARIOS, ToAct};

const SCENARIOS: usize = SHIPPED_SCENARIOS.len();
const N: usize = LEAF_FEATURES + SCENARIOS;

/// One position at an activation boundary: its features (then the scenario, one-hot), `evaluate`'s value, and the
/// game's outcome for the first side (1, ½ or 0).
type Row = ([f64; N], f64, f64);

fn play(g: u64) -> Vec<Row> {
    let scenario = g as usize % SCENARIOS;
    let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[scenario];
    let mut game = Game::new(text, file, None, g * 7919 + 3).expect("shipped scenarios are valid");
    let b = game.battle();
    let start = leaf_features(&Battle::new(b.scenario().clone(), *b.options()));
    let mut players = [GreedyPlayer::new(g), GreedyPlayer::new(g + 1_000_000)];
    let mut rows = Vec::new();
    while let ToAct::Side(side) = game.battle().to_act() {
        let b = game.battle();
        if b.active_unit().is_none() {
            let features = leaf_features(b);
            let mut x = [0.0f64; N];
            (0..LEAF_FEATURES).for_each(|i| x[i] = (features[i] - start[i]) as f64);
            x[LEAF_FEATURES + scenario] = 1.0;
            rows.push((x, hand_value(b, false) as f64, 0.0));
        }
        let action = players[side.index()].choose(b);
        game.act(action).expect("greedy chooses legal actions");
    }
    // `evaluate` of a finished battle is its result: 1, ½ or 0 for the first side.
    let outcome = hand_value(game.battle(), false) as f64;
    rows.iter_mut().for_each(|r| r.2 = outcome);
    rows
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn log_loss(rows: &[Row], p: impl Fn(&Row) -> f64) -> f64 {
    let loss = |r: &Row| {
        let p = p(r).clamp(1e-6, 1.0 - 1e-6);
        -(r.2 * p.ln() + (1.0 - r.2) * (1.0 - p).ln())
    };
    rows.iter().map(loss).sum::<f64>() / rows.len() as f64
}

/// Newton's method on the mean log-loss, with a little ridge to keep it well posed.
fn fit(rows: &[Row]) -> [f64; N] {
    let mut w = [0.0f64; N];
    for _ in 0..25 {
        let mut grad = [0.0f64; N];
        let mut hess = [[0.0f64; N]; N];
        for (x, _, y) in rows {
            let p = sigmoid((0..N).map(|i| w[i] * x[i]).sum());
            for i in 0..N {
                grad[i] += (p - y) * x[i];
                for j in 0..N {
                    hess[i][j] += p * (1.0 - p) * x[i] * x[j];
                }
            }
        }
        for i in 0..N {
            grad[i] += 1e-3 * w[i] * rows.len() as f64;
            hess[i][i] += 1e-3 * rows.len() as f64;
        }
        let step = solve(hess, grad);
        (0..N).for_each(|i| w[i] -= step[i]);
    }
    w
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; N]; N], mut b: [f64; N]) -> [f64; N] {
    for c in 0..N {
        let p = (c..N).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs())).expect("rows left");
        a.swap(c, p);
        b.swap(c, p);
        let pivot = a[c];
        for r in c + 1..N {
            let f = a[r][c] / pivot[c];
            a[r][c..].iter_mut().zip(&pivot[c..]).for_each(|(x, p)| *x -= f * p);
            b[r] -= f * b[c];
        }
    }
    let mut x = [0.0; N];
    for r in (0..N).rev() {
        x[r] = (b[r] - (r + 1..N).map(|k| a[r][k] * x[k]).sum::<f64>()) / a[r][r];
    }
    x
}

fn main() {
    let games: u64 = std::env::args().nth(1).map_or(8000, |s| s.parse().expect("GAMES is a number"));
    let split = games * 4 / 5;
    let train: Vec<Row> = (0..split).flat_map(play).collect();
    let test: Vec<Row> = (split..games).flat_map(play).collect();
    let w = fit(&train);
    let fitted = |r: &Row| sigmoid((0..N).map(|i| w[i] * r.0[i]).sum());
    let even_starts = |r: &Row| sigmoid((0..LEAF_FEATURES).map(|i| w[i] * r.0[i]).sum());
    let round = |x: &[f64]| x.iter().map(|x| format!("{x:.4}")).collect::<Vec<_>>().join(", ");
    println!("{} training positions, {} test positions", train.len(), test.len());
    println!("weights: [{}]", round(&w[..LEAF_FEATURES]));
    println!("scenario intercepts: [{}]", round(&w[LEAF_FEATURES..]));
    println!(
        "test log-loss: fitted {:.4}, without the intercepts {:.4}, evaluate {:.4}",
        log_loss(&test, fitted),
        log_loss(&test, even_starts),
        log_loss(&test, |r| r.1)
    );
}
