//! Engine speed on the default scenario, one thread: whole random games (listed and checked), apply, legal_actions,
//! clone.
//! Run: `cargo bench -p pacw-engine --bench engine`; figures in docs/PERFORMANCE.md.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pacw_engine::perft::Step;
use pacw_engine::{Battle, DEFAULT_SCENARIO, LegalActions, Scenario, ToAct};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::sync::Arc;

fn start() -> Battle {
    Battle::from_scenario(Arc::new(Scenario::parse(DEFAULT_SCENARIO, "default").unwrap()))
}

/// Plays one game to the end, chance sampled from `rng` and each decision made by `decide`; returns the number of
/// steps applied.
fn random_game(
    mut battle: Battle,
    rng: &mut ChaCha8Rng,
    events: &mut Vec<pacw_engine::Event>,
    mut decide: impl FnMut(&mut Battle, &mut ChaCha8Rng, &mut Vec<pacw_engine::Event>),
) -> usize {
    let mut steps = 0;
    loop {
        events.clear();
        match battle.to_act() {
            ToAct::Side(_) => decide(&mut battle, rng, events),
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
                steps.push(Step::Decision(a));
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
    let (mut buf, mut events) = (LegalActions::new(), Vec::new());
    // Uniformly random decisions, each checked again by `apply_into` (the way before 2026-12-01)…
    g.bench_function("uniform_random_game", |b| {
        b.iter(|| {
            black_box(random_game(battle.clone(), &mut rng, &mut events, |battle, rng, events| {
                battle.list_legal(&mut buf);
                let a = buf.actions()[rng.random_range(0..buf.len())];
                battle.apply_into(a, events).unwrap();
            }))
        })
    });
    // …and applied from the list without being judged again (`apply_unchecked`).
    let mut list = LegalActions::new();
    g.bench_function("uniform_random_game_listed", |b| {
        b.iter(|| {
            black_box(random_game(battle.clone(), &mut rng, &mut events, |battle, rng, events| {
                battle.list_legal(&mut list);
                let a = list.get(rng.random_range(0..list.len())).unwrap();
                battle.apply_unchecked(a, events);
            }))
        })
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
                        Step::Decision(a) => battle.apply_into(a, events).unwrap(),
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
    let mut out = LegalActions::new();
    g.bench_function("list_legal", |b| {
        b.iter(|| {
            for s in &states {
                s.list_legal(&mut out);
                black_box(out.len());
            }
        })
    });
    g.finish();

    c.bench_function("clone_battle", |b| b.iter(|| black_box(black_box(&battle).clone())));
}

criterion_group!(engine, benches);
criterion_main!(engine);
