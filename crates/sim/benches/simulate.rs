//! Simulation speed: whole games per second through `pacw_sim::run`, on 1 and on 2 threads, on the default
//! scenario (the 8×8 meeting engagement). Each player that `pacw_ai::player` knows from the list below is measured
//! against itself; players not yet built are skipped.
//! The `sensitivity` group measures the shape of a `pacw sensitivity` run: the base and every change of the ten
//! numbers (21 variants on the default scenario), greedy against greedy, 20 games a variant on two threads, with
//! the report that ranks the changes.
//! Run: `cargo bench -p pacw-sim --bench simulate`; figures in docs/PERFORMANCE.md ("Simulation").

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pacw_engine::{DEFAULT_SCENARIO, Scenario};
use pacw_sim::sensitivity::{plan, tables};
use pacw_sim::{Report, SimConfig, run};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

/// Players to measure, with the games per measured run (fewer for slower players).
const PLAYERS: &[(&str, usize)] = &[("random", 256), ("greedy", 64)];

fn simulate(c: &mut Criterion) {
    let scenario = Arc::new(Scenario::parse(DEFAULT_SCENARIO, "meeting-engagement.toml").unwrap());
    let mut group = c.benchmark_group("simulate");
    group.sample_size(20).measurement_time(Duration::from_secs(8));
    for &(player, games) in PLAYERS {
        if pacw_ai::player(player, 0).is_none() {
            continue;
        }
        group.throughput(Throughput::Elements(games as u64));
        for threads in [1, 2] {
            let mut config = SimConfig::new(scenario.clone(), DEFAULT_SCENARIO, "meeting-engagement.toml");
            config.players = [player.to_string(), player.to_string()];
            config.games = games;
            config.threads = Some(threads);
            let mut seed = 0;
            group.bench_function(format!("{player}-vs-{player}/{threads}-thread"), |b| {
                b.iter(|| {
                    seed += 1;
                    config.seed = seed;
                    black_box(run(&config, &|| {}).unwrap().records.len())
                })
            });
        }
    }
    group.finish();
}

fn sensitivity(c: &mut Criterion) {
    let scenario = Arc::new(Scenario::parse(DEFAULT_SCENARIO, "meeting-engagement.toml").unwrap());
    let mut config = SimConfig::new(scenario, DEFAULT_SCENARIO, "meeting-engagement.toml");
    config.players = ["greedy".to_string(), "greedy".to_string()];
    config.games = 20;
    config.threads = Some(2);
    let changes = plan(&mut config).unwrap();
    let games = (config.variants.len() * config.games) as u64;
    let mut group = c.benchmark_group("sensitivity");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(games));
    let mut seed = 0;
    group.bench_function(format!("greedy-{}-variants-x-20-games/2-threads", config.variants.len()), |b| {
        b.iter(|| {
            seed += 1;
            config.seed = seed;
            let sim = run(&config, &|| {}).unwrap();
            black_box(tables(&sim, &Report::against_first(&sim, None), &changes).len())
        })
    });
    group.finish();
}

criterion_group!(benches, simulate, sensitivity);
criterion_main!(benches);
