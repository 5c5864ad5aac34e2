//! Calibration, measured rather than assumed: games the evaluator never saw (new seeds, any players, the shipped
//! battles including those held out of training), each judged at 25%, 50% and 75% of its decisions, and the
//! chances compared with what happened — the Brier score beside a baseline fitted to material and shaken strength
//! alone, and a reliability table by tenths of the chance.

use crate::LearnError;
use crate::fit::{FitConfig, Kind, fit};
use crate::positions::Row;
use pacw_ai::Evaluator;
use pacw_ai::evaluator::{FEATURE_NAMES, result_value};
use pacw_engine::{Battle, Scenario, ToAct};
use pacw_sim::seed::{game_seed, player_seed, splitmix64};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;

/// The points of a game at which it is judged: shares of its decisions.
pub const CHECKPOINTS: [f32; 3] = [0.25, 0.5, 0.75];

/// The features the baseline may use: material and shaken strength.
pub const BASELINE_FEATURES: [&str; 2] = ["strength", "shaken_strength"];

/// One game of the measurement.
#[derive(Clone, Debug)]
pub struct CalibrationGame {
    /// The battle's name.
    pub battle: String,
    /// The battle.
    pub scenario: Arc<Scenario>,
    /// The first side's player, then the second's.
    pub players: [String; 2],
    /// The seed of its dice.
    pub seed: u64,
}

/// One judged position.
#[derive(Clone, Debug, Serialize)]
pub struct Judged {
    /// The battle.
    pub battle: String,
    /// The players, first side first.
    pub players: [String; 2],
    /// The share of the game's decisions made.
    pub checkpoint: f32,
    /// The evaluator's chance for the first side.
    pub evaluator: f32,
    /// The baseline's.
    pub baseline: f32,
    /// The game's result for the first side.
    pub result: f32,
}

/// The games of a measurement: `games[p]` on each battle for pair of players `p`, the players swapping sides every
/// other game, seeds drawn from `seed` under a key of their own (never a training game's).
pub fn games(
    battles: &[(String, Arc<Scenario>)],
    pairs: &[[String; 2]],
    games: &[u64],
    seed: u64,
) -> Vec<CalibrationGame> {
    let mut out = Vec::new();
    for (b, (name, scenario)) in battles.iter().enumerate() {
        for (p, (pair, &count)) in pairs.iter().zip(games).enumerate() {
            for g in 0..count {
                let index = ((b * pairs.len() + p) as u64) << 32 | g;
                let players = if g % 2 == 0 { pair.clone() } else { [pair[1].clone(), pair[0].clone()] };
                out.push(CalibrationGame {
                    battle: name.clone(),
                    scenario: scenario.clone(),
                    players,
                    seed: game_seed(splitmix64(seed ^ 0x6361_6c69_6272_6174), index),
                });
            }
        }
    }
    out
}

/// The baseline: a logistic regression on material and shaken strength, fitted to the same positions as the
/// evaluator.
///
/// # Errors
/// When the fit fails.
pub fn baseline(rows: &[Row]) -> Result<Evaluator, LearnError> {
    let columns = BASELINE_FEATURES.iter().filter_map(|f| FEATURE_NAMES.iter().position(|n| n == f)).collect();
    let config = FitConfig { columns, ..FitConfig::new(Kind::Logistic) };
    let fitted = fit(rows, &config, "baseline", "material and shaken strength")?;
    Evaluator::from_file(&fitted.file).map_err(|e| LearnError::Fit(e.to_string()))
}

/// Plays `game` and judges it at each checkpoint; `None` if a player name is unknown.
pub fn judge_game(game: &CalibrationGame, evaluator: &Evaluator, baseline: &Evaluator) -> Option<Vec<Judged>> {
    let mut players = [
        pacw_ai::player(&game.players[0], player_seed(game.seed, 0))?,
        pacw_ai::player(&game.players[1], player_seed(game.seed, 1))?,
    ];
    let mut dice = ChaCha8Rng::seed_from_u64(game.seed);
    let mut b = Battle::from_scenario(game.scenario.clone());
    let mut before_decisions: Vec<Battle> = Vec::new();
    loop {
        match b.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance(_) => {
                let outcome = b.sample_chance(&mut dice)?;
                b.apply_chance(outcome).ok()?;
            }
            ToAct::Side(side) => {
                before_decisions.push(b.clone());
                let action = players[side.index()].choose(&b);
                b.apply(action).ok()?;
            }
        }
    }
    let result = result_value(b.result()?);
    let n = before_decisions.len();
    Some(
        CHECKPOINTS
            .iter()
            .filter(|_| n > 0)
            .map(|&c| {
                let at = &before_decisions[((c * n as f32) as usize).min(n - 1)];
                Judged {
                    battle: game.battle.clone(),
                    players: game.players.clone(),
                    checkpoint: c,
                    evaluator: evaluator.value(at),
                    baseline: baseline.model_value(at),
                    result,
                }
            })
            .collect(),
    )
}

/// Plays and judges every game on the current rayon pool, `progress` called after each.
///
/// # Errors
/// When a player name is unknown.
pub fn judge_games(
    games: &[CalibrationGame],
    evaluator: &Evaluator,
    baseline: &Evaluator,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Judged>, LearnError> {
    let judged: Option<Vec<Vec<Judged>>> = games
        .par_iter()
        .map(|g| {
            let j = judge_game(g, evaluator, baseline);
            progress();
            j
        })
        .collect();
    judged.map(|j| j.concat()).ok_or_else(|| LearnError::Config("a player name is unknown".into()))
}

/// The Brier scores of one set of positions.
#[derive(Clone, Debug, Serialize)]
pub struct BrierRow {
    /// What the positions are (a checkpoint, a battle).
    pub what: String,
    /// Positions.
    pub positions: usize,
    /// The evaluator's Brier score.
    pub evaluator: f64,
    /// The baseline's.
    pub baseline: f64,
    /// How much lower the evaluator's is, as a share of the baseline's.
    pub improvement: f64,
}

/// One tenth of the chance: the positions judged in it, the mean chance given and the share won.
#[derive(Clone, Debug, Serialize)]
pub struct Decile {
    /// Its lower bound (0.0, 0.1, …).
    pub from: f64,
    /// Positions.
    pub positions: usize,
    /// The evaluator's mean chance over them.
    pub predicted: f64,
    /// Their mean result.
    pub observed: f64,
}

/// The whole measurement.
#[derive(Clone, Debug, Serialize)]
pub struct Calibration {
    /// Games played.
    pub games: usize,
    /// Brier scores at each checkpoint, then over all of them, then on each battle.
    pub brier: Vec<BrierRow>,
    /// The evaluator's reliability table, over every judged position.
    pub reliability: Vec<Decile>,
}

/// Summarises judged positions.
pub fn summarise(judged: &[Judged], games: usize) -> Calibration {
    let brier = |what: String, set: Vec<&Judged>| {
        let n = set.len().max(1) as f64;
        let score =
            |f: fn(&Judged) -> f32| set.iter().map(|j| (f(j) as f64 - j.result as f64).powi(2)).sum::<f64>() / n;
        let (e, b) = (score(|j| j.evaluator), score(|j| j.baseline));
        BrierRow {
            what,
            positions: set.len(),
            evaluator: e,
            baseline: b,
            improvement: if b > 0.0 { 1.0 - e / b } else { 0.0 },
        }
    };
    let mut rows: Vec<BrierRow> = CHECKPOINTS
        .iter()
        .map(|&c| {
            brier(format!("{:.0}% of the game", c * 100.0), judged.iter().filter(|j| j.checkpoint == c).collect())
        })
        .collect();
    rows.push(brier("all three".into(), judged.iter().collect()));
    let mut battles: Vec<&str> = judged.iter().map(|j| j.battle.as_str()).collect();
    battles.sort_unstable();
    battles.dedup();
    for battle in battles {
        rows.push(brier(battle.to_string(), judged.iter().filter(|j| j.battle == battle).collect()));
    }
    let reliability = (0..10)
        .map(|d| {
            let set: Vec<&Judged> = judged.iter().filter(|j| ((j.evaluator * 10.0) as usize).min(9) == d).collect();
            let n = set.len().max(1) as f64;
            Decile {
                from: d as f64 / 10.0,
                positions: set.len(),
                predicted: set.iter().map(|j| j.evaluator as f64).sum::<f64>() / n,
                observed: set.iter().map(|j| j.result as f64).sum::<f64>() / n,
            }
        })
        .collect();
    Calibration { games, brier: rows, reliability }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(evaluator: f32, baseline: f32, result: f32, checkpoint: f32) -> Judged {
        Judged {
            battle: "b".into(),
            players: ["greedy".into(), "greedy".into()],
            checkpoint,
            evaluator,
            baseline,
            result,
        }
    }

    #[test]
    fn brier_scores_and_deciles_are_counted_by_checkpoint_and_by_tenth() {
        let j = vec![judged(0.9, 0.5, 1.0, 0.5), judged(0.15, 0.5, 0.0, 0.5), judged(0.95, 0.6, 0.0, 0.25)];
        let c = summarise(&j, 3);
        let mid = c.brier.iter().find(|r| r.what == "50% of the game").unwrap();
        assert_eq!(mid.positions, 2);
        assert!((mid.evaluator - (0.01 + 0.0225) / 2.0).abs() < 1e-6);
        assert!((mid.baseline - 0.25).abs() < 1e-6);
        assert!((mid.improvement - (1.0 - 0.01625 / 0.25)).abs() < 1e-6);
        assert_eq!(c.reliability[9].positions, 2);
        assert!((c.reliability[9].observed - 0.5).abs() < 1e-9);
        assert_eq!(c.reliability[1].positions, 1);
    }

    #[test]
    fn a_calibration_game_is_judged_at_each_checkpoint_with_its_result() {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let pairs = [["greedy".to_string(), "random".to_string()]];
        let games = games(&[("me".into(), scenario)], &pairs, &[2], 5);
        assert_eq!(games[1].players, ["random".to_string(), "greedy".to_string()], "the sides swap");
        let e = Evaluator::embedded();
        let j = judge_game(&games[0], &e, &e).unwrap();
        assert_eq!(j.iter().map(|j| j.checkpoint).collect::<Vec<_>>(), CHECKPOINTS);
        assert!(j.iter().all(|j| j.result == j.result.clamp(0.0, 1.0) && (0.0..=1.0).contains(&j.evaluator)));
    }
}
