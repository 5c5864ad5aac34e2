//! `games.csv`: one row per game, enough to redo any statistic, replay a game from its seed or open its save.

use crate::error::SimError;
use crate::record::{CHARGE, SHOOTING};
use crate::run::Simulation;
use pacw_engine::{EndReason, Side};

/// The column names of `games.csv`.
pub const COLUMNS: &[&str] = &[
    "scenario",
    "variant",
    "game",
    "seed",
    "player_a",
    "player_b",
    "winner",
    "winning_player",
    "reason",
    "points_a",
    "points_b",
    "turns",
    "activations",
    "activations_a",
    "activations_b",
    "destroyed_a",
    "destroyed_b",
    "shaken_a",
    "shaken_b",
    "retreats_a",
    "retreats_b",
    "shots",
    "shots_hit",
    "shots_destroyed",
    "charges",
    "charges_hit",
    "charges_destroyed",
    "shaken_spells",
    "shaken_hit_again",
    "first_mover",
    "double_activations_a",
    "double_activations_b",
    "doubles_across_turns_a",
    "doubles_across_turns_b",
    "side_doubles_a",
    "side_doubles_b",
    "second_activation_kills_a",
    "second_activation_kills_b",
    "shoot_then_charge_a",
    "shoot_then_charge_b",
    "save",
];

/// Every game of the simulation as CSV (RFC 4180, through the `csv` crate), with a header line.
pub fn games_csv(sim: &Simulation) -> Result<String, SimError> {
    let c = &sim.config;
    let mut w = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| SimError::Csv(e.to_string());
    w.write_record(COLUMNS).map_err(fail)?;
    for g in &sim.records {
        let scenario = &c.scenarios[g.scenario];
        let side_id = |s: Side| scenario.scenario.sides[s.index()].id.clone();
        let variant = &sim.variants[g.variant];
        let labels = crate::config::player_labels(&variant.players);
        let s = &g.stats;
        let hits = |k: usize| s.attacks[k][1..].iter().sum::<u32>();
        let row: Vec<String> = vec![
            scenario.file.clone(),
            variant.label(),
            g.index.to_string(),
            g.seed.to_string(),
            labels[g.player_of(Side::A)].clone(),
            labels[g.player_of(Side::B)].clone(),
            s.winner.map_or("draw".into(), side_id),
            g.winning_player().map_or(String::new(), |p| labels[p].clone()),
            match s.reason {
                EndReason::TurnLimit => "turn_limit".into(),
                EndReason::Exhaustion(side) => format!("exhaustion:{}", side_id(side)),
                EndReason::Resigned(side) => format!("resigned:{}", side_id(side)),
            },
            s.points[0].to_string(),
            s.points[1].to_string(),
            s.turns.to_string(),
            s.activations.to_string(),
            s.side_activations[0].to_string(),
            s.side_activations[1].to_string(),
            s.destroyed[0].to_string(),
            s.destroyed[1].to_string(),
            s.shaken[0].to_string(),
            s.shaken[1].to_string(),
            s.retreats[0].to_string(),
            s.retreats[1].to_string(),
            s.attacks[SHOOTING].iter().sum::<u32>().to_string(),
            hits(SHOOTING).to_string(),
            s.attacks[SHOOTING][3].to_string(),
            s.attacks[CHARGE].iter().sum::<u32>().to_string(),
            hits(CHARGE).to_string(),
            s.attacks[CHARGE][3].to_string(),
            s.spells.spells.to_string(),
            s.spells.hit_again.to_string(),
            s.first_mover.map_or(String::new(), side_id),
            s.double_activations[0].to_string(),
            s.double_activations[1].to_string(),
            s.doubles_across_turns[0].to_string(),
            s.doubles_across_turns[1].to_string(),
            s.side_doubles[0].to_string(),
            s.side_doubles[1].to_string(),
            s.second_activation_kills[0].to_string(),
            s.second_activation_kills[1].to_string(),
            s.shoot_then_charge[0].to_string(),
            s.shoot_then_charge[1].to_string(),
            g.save.clone().unwrap_or_default(),
        ];
        w.write_record(&row).map_err(fail)?;
    }
    let bytes = w.into_inner().map_err(|e| SimError::Csv(e.to_string()))?;
    Ok(String::from_utf8(bytes).expect("the rows are UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Axis, SimConfig};
    use crate::run::run;
    use std::sync::Arc;

    #[test]
    fn a_row_per_game_read_back_by_a_csv_reader() {
        let scenario = Arc::new(pacw_engine::Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = 5;
        // A label with a space (a grid) and a comma-free value: read back as one field.
        c.compare(vec![Axis::parse("to_hit=4,5").unwrap(), Axis::parse("initiative=cards").unwrap()]).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        let text = games_csv(&sim).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(reader.headers().unwrap().len(), COLUMNS.len());
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 10);
        assert_eq!(&rows[5][1], "to_hit=5 initiative=cards");
        assert_eq!(rows[3][3].parse::<u64>().unwrap(), sim.records[3].seed);
    }
}
