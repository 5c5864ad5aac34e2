//! The review's speed: a whole game of about 150 decisions (greedy against greedy on Marye's Heights, seed 4)
//! reviewed with the judge alone (`--quick`: by the judge in force, the value network, and by the fitted evaluator
//! it replaced), and fully at the default budget on one and on two threads.
//! Run: `cargo bench -p pacw-ai --bench review`.

use criterion::{Criterion, criterion_group, criterion_main};
use pacw_ai::review::{ReviewConfig, review};
use pacw_ai::{Evaluator, GreedyPlayer, Player};
use pacw_engine::{Game, SHIPPED_SCENARIOS, ToAct};
use std::hint::black_box;

/// A finished greedy game of Marye's Heights.
fn game() -> Game {
    let pacw_engine::Shipped { file, text, .. } =
        pacw_engine::shipped_named(SHIPPED_SCENARIOS.iter().copied(), "maryes-heights").unwrap();
    let mut game = Game::new(text, file, None, 4).unwrap();
    let mut players = [GreedyPlayer::new(4), GreedyPlayer::new(5)];
    while let ToAct::Side(side) = game.battle().to_act() {
        let action = players[side.index()].choose(game.battle());
        game.act(action).unwrap();
    }
    game
}

fn benches(c: &mut Criterion) {
    let evaluator = Evaluator::embedded();
    let game = game();
    let steps = game.actions().len() + game.outcomes().len();
    eprintln!("the game: {} decisions, {steps} steps", game.actions().len());
    let mut g = c.benchmark_group("review");
    g.sample_size(10);
    let quick = ReviewConfig { quick: true, ..ReviewConfig::default() };
    g.bench_function("quick", |b| b.iter(|| black_box(review(&game, &evaluator, &quick, &|_, _| {}))));
    let reference = Evaluator::reference();
    g.bench_function("quick_fitted_evaluator", |b| b.iter(|| black_box(review(&game, &reference, &quick, &|_, _| {}))));
    for threads in [1, 2] {
        let full = ReviewConfig { threads, ..ReviewConfig::default() };
        g.bench_function(format!("full_{threads}_threads"), |b| {
            b.iter(|| black_box(review(&game, &evaluator, &full, &|_, _| {})))
        });
    }
    g.finish();
}

criterion_group!(review_speed, benches);
criterion_main!(review_speed);
