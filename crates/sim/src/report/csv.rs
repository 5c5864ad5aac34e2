//! `games.csv`: one row per game, enough to redo any statistic or replay a game from its seed.

use crate::record::{CHARGE, GameRecord, SHOOTING};
use crate::run::Simulation;
use pacw_engine::{EndReason, Side};

/// The column names of `games.csv`.
pub const COLUMNS: &[&str] = &[
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
];

/// Quotes a field if it needs it (RFC 4180).
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// Every game of the simulation as CSV, with a header line.
pub fn games_csv(sim: &Simulation) -> String {
    let c = &sim.config;
    let labels = c.player_labels();
    let side_id = |s: Side| c.scenario.sides[s.index()].id.clone();
    let mut out = COLUMNS.join(",");
    out.push('\n');
    for r in &sim.records {
        let g: &GameRecord = r;
        let s = &g.stats;
        let hits = |k: usize| s.attacks[k][1..].iter().sum::<u32>();
        let row: Vec<String> = vec![
            sim.variants[g.variant].label(),
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
        ];
        let fields: Vec<String> = row.iter().map(|f| field(f)).collect();
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}
