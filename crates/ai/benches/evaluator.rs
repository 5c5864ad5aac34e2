//! The evaluator's speed: one position judged (its features and the model's forward pass), on mid-game positions
//! of the 12-unit default scenario and of the 128-unit grand battle, and the forward pass alone.
//! Run: `cargo bench -p pacw-ai --bench evaluator`.

use criterion::{Criterion, criterion_group, criterion_main};
use pacw_ai::evaluator::features;
use pacw_ai::{Evaluator, GreedyPlayer, Player};
use pacw_engine::{Battle, DEFAULT_SCENARIO, Game, ToAct};
use std::hint::black_box;

/// The position after `decisions` greedy decisions (or at the end).
fn position(text: &str, decisions: usize) -> Battle {
    let mut game = Game::new(text, "bench.toml", None, 3).unwrap();
    let mut greedy = GreedyPlayer::new(3);
    while let ToAct::Side(_) = game.battle().to_act() {
        if game.actions().len() >= decisions && game.battle().active_unit().is_none() {
            break;
        }
        let a = greedy.choose(game.battle());
        game.act(a).unwrap();
    }
    game.battle().clone()
}

fn benches(c: &mut Criterion) {
    let evaluator = Evaluator::embedded();
    let small = position(DEFAULT_SCENARIO, 40);
    let grand = position(include_str!("../../../scenarios/antietam.toml"), 400);
    eprintln!(
        "12 units: {} on the board; 128 units: {} on the board",
        small.alive_units().count(),
        grand.alive_units().count()
    );
    c.bench_function("evaluator_12_units", |b| b.iter(|| black_box(evaluator.model_value(black_box(&small)))));
    c.bench_function("evaluator_128_units", |b| b.iter(|| black_box(evaluator.model_value(black_box(&grand)))));
    let x = features(&small);
    c.bench_function("forward_pass", |b| b.iter(|| black_box(evaluator.value_of_features(black_box(&x)))));
}

criterion_group!(evaluator, benches);
criterion_main!(evaluator);
