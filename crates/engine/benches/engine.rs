//! Engine speed on the default scenario, one thread: whole random games (listed and checked), apply, legal_actions,
//! clone.
//! Run: `cargo bench -p pacw-engine --bench engine`; figures in docs/PERFORMANCE.md.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pacw_engine::{Action, Battle, DEFAULT_SCENARIO, LegalActions, Outcome, Scenario, ToAct};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::sync::Arc;

#[derive(Clone, Copy)]
enum Step {
    Side(Action),
    Chance(Outcome),
}

fn start() -> Battle {
    Battle::from_scenario(Arc::new(Scenario::parse(DEFAULT_SCENARIO, "default").unwrap()))
}

/// Plays one uniform-random game to the end, each action applied from the list without judging it again
/// ([`Battle::apply_listed`]); returns the number of steps applied.
fn random_game_listed(
    mut battle: Battle,
    rng: &mut ChaCha8Rng,
    list: &mut LegalActions,
    events: &mut Vec<pacw_engine::Event>,
) -> usize {
    let mut steps = 0;
    loop {
        events.clear();
        match battle.to_act() {
            ToAct::Side(_) => {
                battle.list_legal(list);
                let a = list.get(rng.random_range(0..list.len())).unwrap();
                battle.apply_listed(a, events).unwrap();
            }
            ToAct::Chance(_) => {
                let o = battle.sample_chance(rng).unwrap();
                battle.apply_chance_into(o, events).unwrap();
            }
            ToAct::Over(_) => return steps,
        }
        steps += 1;
    }
}

/// As [`random_game_listed`], each action checked again by [`Battle::apply_into`] (the way before 2026-12-01).
fn random_game(
    mut battle: Battle,
    rng: &mut ChaCha8Rng,
    buf: &mut Vec<Action>,
    events: &mut Vec<pacw_engine::Event>,
) -> usize {
    let mut steps = 0;
    loop {
        events.clear();
        match battle.to_act() {
            ToAct::Side(_) => {
                battle.legal_actions_into(buf);
                let a = buf[rng.random_range(0..buf.len())];
                battle.apply_into(a, events).unwrap();
            }
            ToAct::Chance(_) => {
                let o = battle.sample_chance(rng).unwrap();
                battle.apply_chance_into(o, events).unwrap();
            }
            ToAct::Over(_) => return steps,
        }
        steps += 1;
    }
}

/// A recorded game: its steps, and the battles where a side was to act.
fn recorded_game(seed: u64) -> (Vec<Step>, Vec<Battle>) {
    let mut battle = start();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut steps, mut states) = (Vec::new(), Vec::new());
    loop {
        match battle.to_act() {
            ToAct::Side(_) => {
                states.push(battle.clone());
                let actions = battle.legal_actions();
                let a = actions[rng.random_range(0..actions.len())];
                battle.apply(a).unwrap();
                steps.push(Step::Side(a));
            }
            ToAct::Chance(_) => {
                let o = battle.sample_chance(&mut rng).unwrap();
                battle.apply_chance(o).unwrap();
                steps.push(Step::Chance(o));
            }
            ToAct::Over(_) => return (steps, states),
        }
    }
}

fn benches(c: &mut Criterion) {
    eprintln!("size of a Battle: {} bytes", std::mem::size_of::<Battle>());
    let battle = start();

    let mut g = c.benchmark_group("games");
    g.throughput(Throughput::Elements(1));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let (mut buf, mut events) = (Vec::new(), Vec::new());
    g.bench_function("uniform_random_game", |b| {
        b.iter(|| black_box(random_game(battle.clone(), &mut rng, &mut buf, &mut events)))
    });
    let mut list = LegalActions::new();
    g.bench_function("uniform_random_game_listed", |b| {
        b.iter(|| black_box(random_game_listed(battle.clone(), &mut rng, &mut list, &mut events)))
    });
    g.finish();

    let (steps, states) = recorded_game(7);
    let mut g = c.benchmark_group("apply");
    g.throughput(Throughput::Elements(steps.len() as u64));
    g.bench_function("apply_recorded_game", |b| {
        b.iter_batched_ref(
            || (battle.clone(), Vec::with_capacity(16)),
            |(battle, events)| {
                for step in &steps {
                    events.clear();
                    match *step {
                        Step::Side(a) => battle.apply_into(a, events).unwrap(),
                        Step::Chance(o) => battle.apply_chance_into(o, events).unwrap(),
                    }
                }
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();

    let mut g = c.benchmark_group("legal_actions");
    g.throughput(Throughput::Elements(states.len() as u64));
    let mut out = Vec::with_capacity(256);
    g.bench_function("legal_actions_into", |b| {
        b.iter(|| {
            for s in &states {
                s.legal_actions_into(&mut out);
                black_box(out.len());
            }
        })
    });
    g.finish();

    c.bench_function("clone_battle", |b| b.iter(|| black_box(black_box(&battle).clone())));
}

criterion_group!(engine, benches);
criterion_main!(engine);
