//! Every shipped battle, the grand battle too, has its measured balance in scenarios/balance.json, the lobby's
//! figures, and each holds: the run is played again (greedy against greedy, as the file says) and must give the
//! very numbers. Every battle is balanced: the first side scores between 40% and 60%.

use pacw_engine::offered_scenarios;
use pacw_sim::shipped_balance::{Figure, figure, table};
use pacw_sim::{ScenarioSource, SimConfig, run};

#[test]
fn every_shipped_battle_s_balance_is_measured_holds_and_is_even() {
    let table = table().expect("scenarios/balance.json reads");
    assert_eq!(table.scenarios.len(), offered_scenarios().count(), "one figure a battle, no more");
    let mut stale = Vec::new();
    for pacw_engine::Shipped { name, file, text } in offered_scenarios() {
        let recorded = table.scenarios.get(name).unwrap_or_else(|| panic!("no balance figure for {name}"));
        let mut config = SimConfig::of(vec![ScenarioSource::parse(text, file).unwrap()]);
        config.games = table.games;
        config.seed = table.seed;
        config.players = table.players.clone();
        let measured = figure(&run(&config, &|| {}).unwrap());
        let round = |x: f64| (x * 10_000.0).round() / 10_000.0;
        let rounded = Figure {
            first_side_score: round(measured.first_side_score),
            low: round(measured.low),
            high: round(measured.high),
            first_side_wins: round(measured.first_side_wins),
            draws: round(measured.draws),
        };
        if &rounded != recorded {
            stale.push(format!("\"{name}\": {}", serde_json::to_string(&rounded).unwrap()));
        }
        assert!(
            (0.40..=0.60).contains(&recorded.first_side_score),
            "{name} is not balanced: the first side scores {:.1}%",
            100.0 * recorded.first_side_score
        );
    }
    assert!(
        stale.is_empty(),
        "figures that no longer hold; put these in scenarios/balance.json:\n{}",
        stale.join("\n")
    );
}
