//! The evaluator's speed: one position judged (its features and the model's forward pass), on mid-game positions
//! of the 12-unit default scenario and of the 128-unit grand battle, and the forward pass alone; for the fitted model
//! of the features and for the value network (whose forward pass is measured on 32 units, 16 a side, as embedded
//! and widened to 64 hidden units a layer).
//! Run: `cargo bench -p pacw-ai --bench evaluator`.

use criterion::{Criterion, criterion_group, criterion_main};
use pacw_ai::evaluator::{EMBEDDED_WEIGHTS, ModelFile, features};
use pacw_ai::network::encoding::{Encoding, UNIT_INPUTS, encode};
use pacw_ai::network::{Scratch, shared};
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
    let evaluator = Evaluator::reference();
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
    let judge = ModelFile::parse(EMBEDDED_WEIGHTS).unwrap().judge().unwrap();
    c.bench_function("forward_pass", |b| b.iter(|| black_box(judge(black_box(&x)))));

    let network = Evaluator::network();
    c.bench_function("network_12_units", |b| b.iter(|| black_box(network.model_value(black_box(&small)))));
    c.bench_function("network_128_units", |b| b.iter(|| black_box(network.model_value(black_box(&grand)))));
    let mut x = Encoding::default();
    encode(&grand, &mut x);
    for side in &mut x.units {
        side.truncate(16 * UNIT_INPUTS);
    }
    assert_eq!(x.units_of(0) + x.units_of(1), 32);
    let (net, mut scratch) = (shared(), Scratch::default());
    c.bench_function("network_forward_32_units", |b| b.iter(|| black_box(net.logit(black_box(&x), &mut scratch))));
    // The same position through the network widened to 64 and 64 hidden units (`train selfplay --widen-from`).
    let wide = net.widened(64, 64, 1).unwrap();
    c.bench_function("network_forward_32_units_64_hidden", |b| {
        b.iter(|| black_box(wide.logit(black_box(&x), &mut scratch)))
    });
}

criterion_group!(evaluator, benches);
criterion_main!(evaluator);
