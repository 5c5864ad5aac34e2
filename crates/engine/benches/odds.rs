//! Benchmarks of the exact odds (docs/PERFORMANCE.md, "Odds"): one attack's distribution, an abstract situation
//! end to end, a run of attacks, and the whole reference table.
//!
//! `cargo bench -p pacw-engine --bench odds`

use criterion::{Criterion, criterion_group, criterion_main};
use pacw_engine::Steadiness;
use pacw_engine::odds::{AttackOdds, Situation, TargetState, table};
use pacw_engine::{Arm, BlockedRetreat, Options, Quality, Terrain};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let options = Options::default();
    let situation = Situation {
        terrain: Terrain::Woods,
        target_quality: Quality::Veteran,
        ..Situation::new(Arm::Infantry, Arm::Infantry)
    };
    let setup = situation.setup(&options).unwrap();
    let odds = setup.battle.attack_odds(setup.attacker, &setup.order).unwrap();

    let mut g = c.benchmark_group("odds");
    // The distribution alone, from the battle's assessment.
    g.bench_function("from_assessment", |b| {
        b.iter(|| {
            AttackOdds::from_assessment(
                black_box(&odds.assessment),
                pacw_engine::RetreatPath::Open,
                BlockedRetreat::Destroyed,
            )
        })
    });
    // One attack's distribution on a board: the legality check and assessment, the retreat square, the dice.
    g.bench_function("attack_odds_fire", |b| {
        b.iter(|| black_box(&setup.battle).attack_odds(setup.attacker, black_box(&setup.order)).unwrap())
    });
    // An abstract situation end to end: building its battle (with the scripted earlier hit of a shaken target).
    let shaken = Situation { target_state: Steadiness::Shaken, ..situation };
    g.bench_function("situation_shaken_end_to_end", |b| b.iter(|| black_box(shaken).odds(&options).unwrap()));
    // A run of ten attacks and the expected number to destroy.
    let run = odds.sequence();
    g.bench_function("sequence_10_attacks", |b| {
        b.iter(|| {
            let run = black_box(&run);
            (run.after(TargetState::Steady, 10), run.expected_attacks_to_destroy(TargetState::Steady))
        })
    });
    // The whole reference table (72 situations).
    g.bench_function("table", |b| b.iter(|| table(Arm::Infantry, black_box(false), &options).unwrap()));
    g.finish();
}

criterion_group!(odds, benches);
criterion_main!(odds);
