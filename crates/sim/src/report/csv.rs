//! `games.csv`: one row per game, enough to redo any statistic, replay a game from its seed or open its save.

use crate::error::SimError;
use crate::record::TargetOutcome;
use crate::run::Simulation;
use pacw_engine::AttackKind;
use pacw_engine::{EndReason, Side};
use serde::Serialize;

/// One row of `games.csv`: its columns are these fields, in this order, under these names.
#[derive(Serialize)]
struct GameRow<'a> {
    scenario: &'a str,
    variant: String,
    game: usize,
    seed: u64,
    player_a: &'a str,
    player_b: &'a str,
    winner: String,
    winning_player: &'a str,
    reason: String,
    points_a: u16,
    points_b: u16,
    turns: u8,
    activations: u32,
    activations_a: u32,
    activations_b: u32,
    destroyed_a: u32,
    destroyed_b: u32,
    shaken_a: u32,
    shaken_b: u32,
    retreats_a: u32,
    retreats_b: u32,
    shots: u32,
    shots_hit: u32,
    shots_destroyed: u32,
    charges: u32,
    charges_hit: u32,
    charges_destroyed: u32,
    shaken_spells: u32,
    shaken_hit_again: u32,
    first_mover: String,
    double_activations_a: u32,
    double_activations_b: u32,
    doubles_across_turns_a: u32,
    doubles_across_turns_b: u32,
    side_doubles_a: u32,
    side_doubles_b: u32,
    second_activation_kills_a: u32,
    second_activation_kills_b: u32,
    shoot_then_charge_a: u32,
    shoot_then_charge_b: u32,
    save: &'a str,
    /// The first side's luck, a share of a game (empty unless reviewed: `simulate --luck`).
    luck_a: Option<f64>,
}

/// Every game of the simulation as CSV (RFC 4180, through the `csv` crate), with a header line.
///
/// # Errors
/// When the `csv` crate cannot write a row.
pub fn games_csv(sim: &Simulation) -> Result<String, SimError> {
    let c = &sim.config;
    let mut w = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| SimError::Csv(e.to_string());
    for g in &sim.records {
        let scenario = &c.scenarios[g.scenario];
        let side_id = |s: Side| scenario.scenario.sides[s.index()].id.clone();
        let variant = &sim.variants[g.variant];
        let labels = crate::config::player_labels(&variant.players);
        let s = &g.stats;
        let attacks = |k: AttackKind| s.attacks[k].total();
        let hits = |k: AttackKind| s.attacks[k].effective();
        let row = GameRow {
            scenario: &scenario.file,
            variant: variant.label(),
            game: g.index,
            seed: g.seed,
            player_a: &labels[g.player_of(Side::A)],
            player_b: &labels[g.player_of(Side::B)],
            winner: s.winner.map_or("draw".into(), side_id),
            winning_player: g.winning_player().map_or("", |p| labels[p].as_str()),
            reason: match s.reason {
                EndReason::TurnLimit => "turn_limit".into(),
                EndReason::Exhaustion(side) => format!("exhaustion:{}", side_id(side)),
                EndReason::Resigned(side) => format!("resigned:{}", side_id(side)),
                EndReason::OutOfTime(side) => format!("out_of_time:{}", side_id(side)),
                EndReason::DrawAgreed => "draw_agreed".into(),
            },
            points_a: s.points[0],
            points_b: s.points[1],
            turns: s.turns,
            activations: s.activations,
            activations_a: s.side_activations[0],
            activations_b: s.side_activations[1],
            destroyed_a: s.destroyed[0],
            destroyed_b: s.destroyed[1],
            shaken_a: s.shaken[0],
            shaken_b: s.shaken[1],
            retreats_a: s.retreats[0],
            retreats_b: s.retreats[1],
            shots: attacks(AttackKind::Fire),
            shots_hit: hits(AttackKind::Fire),
            shots_destroyed: s.attacks[AttackKind::Fire][TargetOutcome::Destroyed],
            charges: attacks(AttackKind::Charge),
            charges_hit: hits(AttackKind::Charge),
            charges_destroyed: s.attacks[AttackKind::Charge][TargetOutcome::Destroyed],
            shaken_spells: s.spells.spells,
            shaken_hit_again: s.spells.hit_again,
            first_mover: s.first_mover.map_or(String::new(), side_id),
            double_activations_a: s.double_activations[0],
            double_activations_b: s.double_activations[1],
            doubles_across_turns_a: s.doubles_across_turns[0],
            doubles_across_turns_b: s.doubles_across_turns[1],
            side_doubles_a: s.side_doubles[0],
            side_doubles_b: s.side_doubles[1],
            second_activation_kills_a: s.second_activation_kills[0],
            second_activation_kills_b: s.second_activation_kills[1],
            shoot_then_charge_a: s.shoot_then_charge[0],
            shoot_then_charge_b: s.shoot_then_charge[1],
            save: g.save.as_deref().unwrap_or_default(),
            luck_a: g.luck.map(|luck| f64::from(luck) / 1e6),
        };
        w.serialize(row).map_err(fail)?;
    }
    let bytes = w.into_inner().map_err(|e| SimError::Csv(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| SimError::Csv(e.to_string()))
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
        let headers = reader.headers().unwrap().clone();
        assert_eq!(headers.len(), 42);
        assert_eq!((&headers[0], &headers[6], &headers[40], &headers[41]), ("scenario", "winner", "save", "luck_a"));
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 10);
        assert_eq!(&rows[5][1], "to_hit=5 initiative=cards");
        assert_eq!(rows[3][3].parse::<u64>().unwrap(), sim.records[3].seed);
        assert!(rows.iter().all(|r| r[41].is_empty()), "no luck unless the games were reviewed for it");
    }
}
