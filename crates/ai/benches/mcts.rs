//! Search speed: iterations per second of `mcts` (both searches, and with the evaluator judging each play-out's last
//! position: positions judged per second), and the time of one decision of `greedy` and of each level, on a mid-game
//! position of the default scenario. Run: `cargo bench -p pacw-ai --bench mcts`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pacw_ai::{Budget, GreedyPlayer, Leaf, MctsConfig, MctsPlayer, Player};
use pacw_engine::{Battle, DEFAULT_SCENARIO, Game, ToAct};
use std::hint::black_box;

/// A position after greedy play where a unit has many orders to choose from.
fn position() -> Battle {
    let mut game = Game::new(DEFAULT_SCENARIO, "default", None, 3).unwrap();
    let mut greedy = GreedyPlayer::new(3);
    let mut best: Option<Battle> = None;
    while let ToAct::Side(_) = game.battle().to_act() {
        let b = game.battle();
        if b.active_unit().is_some() && b.legal_actions().len() > best.as_ref().map_or(0, |x| x.legal_actions().len()) {
            best = Some(b.clone());
        }
        if game.actions().len() > 60 {
            break;
        }
        let a = greedy.choose(b);
        game.act(a).unwrap();
    }
    best.expect("a decision with orders")
}

fn benches(c: &mut Criterion) {
    let battle = position();
    eprintln!("position: {} legal actions", battle.legal_actions().len());
    let iterations = 200;
    let mut g = c.benchmark_group("mcts");
    g.sample_size(10);
    g.throughput(Throughput::Elements(iterations as u64));
    for (name, common_worlds, threads, leaf) in [
        ("common_worlds_1_thread", true, 1, Leaf::Material),
        ("common_worlds_2_threads", true, 2, Leaf::Material),
        ("tree", false, 1, Leaf::Material),
        ("evaluator_leaf_2_threads", true, 2, Leaf::Evaluator),
    ] {
        // Every play-out is played (no early stop), so that the time measures play-outs.
        let budget = Budget::Iterations(iterations);
        let config = MctsConfig { budget, common_worlds, threads, stop_early: None, leaf, ..MctsConfig::default() };
        g.bench_function(format!("{name}_{iterations}_iterations"), |b| {
            b.iter(|| black_box(MctsPlayer::new(config, 1).choose(&battle)))
        });
    }
    g.finish();
    let mut greedy = GreedyPlayer::new(1);
    c.bench_function("greedy_decision", |b| b.iter(|| black_box(greedy.choose(&battle))));
    // A level's decision as it plays (its own budget, early stop and threads): decisions per second.
    let mut levels = c.benchmark_group("levels");
    levels.sample_size(10);
    for level in ["recruit", "veteran", "general"] {
        levels.bench_function(format!("{level}_decision"), |b| {
            b.iter(|| black_box(pacw_ai::player(level, 1).expect("a level").choose(&battle)))
        });
    }
    levels.finish();
}

criterion_group!(search, benches);
criterion_main!(search);
