//! Simulation speed: whole games per second through `pacw_sim::run`, on 1 and on 2 threads, on the default
//! scenario (the 8×8 meeting engagement). Each player that `pacw_ai::player` knows from the list below is measured
//! against itself; players not yet built are skipped.
//! Run: `cargo bench -p pacw-sim --bench simulate`; figures in docs/PERFORMANCE.md ("Simulation").

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pacw_engine::{DEFAULT_SCENARIO, Scenario};
use pacw_sim::{SimConfig, run};
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

criterion_group!(benches, simulate);
criterion_main!(benches);
