//! The anchor: pacw's perft walk against shakmaty's chess move generator, in the same run (issue 16). Both walks
//! apply every step they count (pacw: decisions and chance outcomes, on a clone of the parent; shakmaty: every
//! legal move, on a clone of the parent position), so "applied per second" means the same work for both.
//! Run: `cargo bench -p pacw-engine --bench perft`; the ratios it prints at the end are in docs/PERFORMANCE.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pacw_engine::perft::perft;
use pacw_engine::{Battle, SHIPPED_SCENARIOS, Scenario};
use shakmaty::{Chess, Position};
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The walks compared: pacw's scenario and depth (each about a million steps or more).
const WALKS: &[(&str, u32)] = &[("meeting-engagement", 7), ("bloody-lane", 6)];
/// Chess from the initial position to depth 5: 5.1 million moves applied.
const CHESS_DEPTH: u32 = 5;

fn battle(name: &str) -> Battle {
    let pacw_engine::Shipped { file, text, .. } =
        pacw_engine::shipped_named(SHIPPED_SCENARIOS.iter().copied(), name).expect("a shipped scenario");
    Battle::from_scenario(Arc::new(Scenario::parse(text, file).expect("a shipped scenario parses")))
}

/// Every legal move applied, to `depth`: the moves applied.
fn chess_walk(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 0;
    }
    let mut applied = 0;
    for m in &pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        applied += 1 + chess_walk(&child, depth - 1);
    }
    applied
}

/// The best of `runs` timings of `walk`, in steps applied per second.
fn rate(runs: usize, mut walk: impl FnMut() -> u64) -> f64 {
    let mut best = Duration::MAX;
    let mut steps = 0;
    for _ in 0..runs {
        let started = Instant::now();
        steps = black_box(walk());
        best = best.min(started.elapsed());
    }
    steps as f64 / best.as_secs_f64()
}

fn benches(c: &mut Criterion) {
    let chess = Chess::default();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.throughput(Throughput::Elements(chess_walk(&chess, CHESS_DEPTH)));
    g.bench_function(format!("shakmaty/chess/depth-{CHESS_DEPTH}"), |b| {
        b.iter(|| black_box(chess_walk(&chess, CHESS_DEPTH)))
    });
    for &(name, depth) in WALKS {
        let start = battle(name);
        g.throughput(Throughput::Elements(perft(&start, depth).nodes));
        g.bench_function(format!("pacw/{name}/depth-{depth}"), |b| b.iter(|| black_box(perft(&start, depth).nodes)));
    }
    g.finish();

    // The ratio, timed here in turns so that both see the same machine: best of five each.
    let mut chess_rates = Vec::new();
    let mut pacw_rates = vec![Vec::new(); WALKS.len()];
    for _ in 0..3 {
        chess_rates.push(rate(5, || chess_walk(&chess, CHESS_DEPTH)));
        for (i, &(name, depth)) in WALKS.iter().enumerate() {
            let start = battle(name);
            pacw_rates[i].push(rate(5, || perft(&start, depth).nodes));
        }
    }
    let best = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    let chess_rate = best(&chess_rates);
    eprintln!("anchor: shakmaty applies {:.1} M moves/s (chess, depth {CHESS_DEPTH})", chess_rate / 1e6);
    for (i, &(name, depth)) in WALKS.iter().enumerate() {
        let r = best(&pacw_rates[i]);
        eprintln!("anchor: pacw {name} depth {depth}: {:.1} M steps/s = {:.2}x shakmaty", r / 1e6, r / chess_rate);
    }
}

criterion_group!(anchor, benches);
criterion_main!(anchor);
