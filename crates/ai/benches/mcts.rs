//! Search speed: iterations per second of `mcts` (both searches, and with the evaluator judging each play-out's last
//! position: positions judged per second), and the time of one decision of `greedy` and of each level, on a mid-game
//! position of the default scenario, and of one assignment of scripts improved by Portfolio Greedy Search (`:pgs50`);
//! and one decision of the general on two threads at mid-game on every shipped battle, the grand battle included.
//! Run: `cargo bench -p pacw-ai --bench mcts`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pacw_ai::{Budget, GreedyPlayer, Leaf, MctsConfig, MctsPlayer, Player};
use pacw_engine::{Battle, DEFAULT_SCENARIO, GRAND_BATTLE, Game, SHIPPED_SCENARIOS, ToAct};
use std::hint::black_box;

/// A position of `text` after greedy play where a side chooses which unit to activate, after `after` decisions.
fn activation_choice(text: &str, after: usize) -> Battle {
    let mut game = Game::new(text, "bench", None, 3).unwrap();
    let mut greedy = GreedyPlayer::new(3);
    while let ToAct::Side(_) = game.battle().to_act() {
        let b = game.battle();
        if game.actions().len() >= after && b.active_unit().is_none() && b.legal_actions().len() > 2 {
            return b.clone();
        }
        let a = greedy.choose(b);
        game.act(a).unwrap();
    }
    panic!("no choice of a unit to activate after {after} decisions")
}

/// The first choice of a unit to activate in `text` after greedy play of half as many decisions as the battle's
/// units times its turns (about mid-game).
fn mid_game(text: &str) -> Battle {
    let b = Game::new(text, "bench", None, 3).unwrap().battle().clone();
    activation_choice(text, b.scenario().units.len() * b.turn_limit().max(1) as usize / 2)
}

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
    // The general's decision as it plays, on two threads, at mid-game on every shipped battle (the goal: at most a
    // second each).
    let mut battles = c.benchmark_group("general_mid_game_2_threads");
    battles.sample_size(10);
    for shipped in SHIPPED_SCENARIOS.iter().chain([&GRAND_BATTLE]) {
        let battle = mid_game(shipped.text);
        battles.bench_function(shipped.name, |b| {
            b.iter(|| black_box(pacw_ai::player("general:t2", 1).expect("a level").choose(&battle)))
        });
    }
    battles.finish();
    // Portfolio Greedy Search's assignment of scripts, improved at a choice of the unit to activate (`:k1`: the
    // scripts alone choose), every script played on its 50 worlds (no early stop): play-outs judged per second.
    let activation = activation_choice(DEFAULT_SCENARIO, 20);
    let mut portfolio = c.benchmark_group("portfolio");
    portfolio.sample_size(10);
    for threads in [1, 2] {
        let config = MctsConfig {
            max_children: 1,
            portfolio_worlds: 50,
            stop_early: None,
            leaf: Leaf::Evaluator,
            threads,
            ..MctsConfig::default()
        };
        portfolio.bench_function(format!("pgs50_decision_{threads}_threads"), |b| {
            b.iter(|| black_box(MctsPlayer::new(config, 1).choose(&activation)))
        });
    }
    portfolio.finish();
}

criterion_group!(search, benches);
criterion_main!(search);
