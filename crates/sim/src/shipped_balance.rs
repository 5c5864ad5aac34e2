//! The measured balance of the shipped battles (`scenarios/balance.json`), as the lobby shows it: the first side's
//! score over a fixed greedy-against-greedy run of each. `tests/shipped_balance.rs` plays the runs again, so a
//! figure that no longer holds (a scenario or the greedy player changed) fails the tests instead of going stale.

use crate::record::first_side_score;
use crate::run::Simulation;
use crate::significance::mean_interval;
use pacw_engine::Side;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The table's text, as shipped.
pub const TABLE: &str = include_str!("../../../scenarios/balance.json");

/// One battle's measured balance (rates from 0 to 1, rounded to 4 decimals in the file).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// The first side's mean score: a win 1, a draw ½.
    pub first_side_score: f64,
    /// The 95% t interval of the score: its low end.
    pub low: f64,
    /// Its high end.
    pub high: f64,
    /// The share of games the first side won.
    pub first_side_wins: f64,
    /// The share of drawn games.
    pub draws: f64,
}

/// The whole table: how the figures were measured, and one per shipped battle (by its short name).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// What the file is.
    pub about: String,
    /// The command that measures a battle.
    pub command: String,
    /// Games a battle.
    pub games: usize,
    /// The simulation seed.
    pub seed: u64,
    /// The players.
    pub players: [String; 2],
    /// The figures, by the battle's short name.
    pub scenarios: BTreeMap<String, Figure>,
}

/// The shipped table (`None` only if the file were damaged, which a test rules out).
pub fn table() -> Option<Table> {
    serde_json::from_str(TABLE).ok()
}

/// The figure of a simulation's games (all of them, whatever their scenario).
pub fn figure(sim: &Simulation) -> Figure {
    let n = sim.records.len().max(1) as f64;
    let scores: Vec<f64> = sim.records.iter().map(|r| first_side_score(r.stats.winner)).collect();
    let (score, interval) = mean_interval(&scores);
    let count = |w: Option<Side>| sim.records.iter().filter(|r| r.stats.winner == w).count() as f64 / n;
    Figure {
        first_side_score: score,
        low: interval.low,
        high: interval.high,
        first_side_wins: count(Some(Side::A)),
        draws: count(None),
    }
}
