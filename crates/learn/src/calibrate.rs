//! Calibration, measured rather than assumed: games the evaluator never saw (new seeds, any players, the shipped
//! battles including those held out of training), each judged at 25%, 50% and 75% of its decisions, and the
//! chances compared with what happened — the Brier score beside a baseline that knows the battle: a logistic
//! regression on material and shaken strength (three numbers: an intercept and a weight each) fitted for each battle
//! and each point of the game to half of the games, both scored on the other half — and a reliability table by
//! tenths of the chance. On request each scored position is also played out many times from where it stands by the
//! game's own players with fresh dice: the mean of those play-outs is as near the true chance as any judge of these
//! players' games can come, so its Brier score shows how much of the judges' error is the dice's and not theirs.

use crate::LearnError;
use crate::fit::fit_logistic;
use pacw_ai::Evaluator;
use pacw_ai::evaluator::{FEATURE_NAMES, features, result_value};
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

/// A reliability decile counts toward the worst one only with at least this many positions: fewer are mostly noise.
pub const DECILE_MIN_POSITIONS: usize = 20;

/// Which half of the games a game is in: the baseline is fitted to one and both judges are scored on the other.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Half {
    /// The baseline is fitted to it.
    Fit,
    /// Both are scored on it.
    Score,
}

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
    /// Its half.
    pub half: Half,
}

/// A position the evaluator judged, with what the baseline reads of it.
#[derive(Clone, Debug, Serialize)]
pub struct Position {
    /// The battle.
    pub battle: String,
    /// The players, first side first.
    pub players: [String; 2],
    /// The share of the game's decisions made.
    pub checkpoint: f32,
    /// Its game's half.
    pub half: Half,
    /// The evaluator's chance for the first side.
    pub evaluator: f32,
    /// The baseline's inputs ([`BASELINE_FEATURES`]).
    pub baseline_inputs: [f32; 2],
    /// The first side's mean result over the play-outs from this position, when asked for ([`judge_game`]).
    pub playouts: Option<f32>,
    /// The game's result for the first side.
    pub result: f32,
}

/// One scored position: the evaluator's and the baseline's chance beside what happened.
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
    /// The play-outs' mean, when asked for.
    pub playouts: Option<f32>,
    /// The game's result for the first side.
    pub result: f32,
}

/// The games of a measurement: `games[p]` on each battle for pair of players `p`, the players swapping sides every
/// other game, seeds drawn from `seed` under a key of their own (never a training game's), the halves alternating
/// every two games so that each holds both seatings.
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
                    half: if (g / 2) % 2 == 0 { Half::Fit } else { Half::Score },
                });
            }
        }
    }
    out
}

/// Plays `game` and judges it at each checkpoint, and when it is a scored game plays each judged position out
/// `playouts` times (0: never); `None` if a player name is unknown.
pub fn judge_game(game: &CalibrationGame, evaluator: &Evaluator, playouts: u32) -> Option<Vec<Position>> {
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
    let columns = BASELINE_FEATURES.map(|f| FEATURE_NAMES.iter().position(|n| *n == f).unwrap_or(0));
    Some(
        CHECKPOINTS
            .iter()
            .filter(|_| n > 0)
            .map(|&c| {
                let at = &before_decisions[((c * n as f32) as usize).min(n - 1)];
                let x = features(at);
                let playouts = (playouts > 0 && game.half == Half::Score).then(|| {
                    let key = splitmix64(game.seed ^ (c * 100.0) as u64 ^ 0x706c_6179);
                    let sum: f32 = (0..u64::from(playouts)).map(|k| play_out(game, at, game_seed(key, k))).sum();
                    sum / playouts as f32
                });
                Position {
                    battle: game.battle.clone(),
                    players: game.players.clone(),
                    checkpoint: c,
                    half: game.half,
                    evaluator: evaluator.value(at),
                    baseline_inputs: columns.map(|i| x[i]),
                    playouts,
                    result,
                }
            })
            .collect(),
    )
}

/// The first side's result of `at` played to its end by `game`'s players, they and the dice seeded by `seed`; a
/// draw if a player's name is unknown (never: the game itself was played by them).
fn play_out(game: &CalibrationGame, at: &Battle, seed: u64) -> f32 {
    let players = [0, 1].map(|i| pacw_ai::player(&game.players[i], player_seed(seed, i)));
    let [Some(mut first), Some(mut second)] = players else { return 0.5 };
    crate::positions::play_out_by(at, seed, [first.as_mut(), second.as_mut()])
}

/// Fits the baseline for each battle and checkpoint to the positions of the fitting half, and scores both judges on
/// the other half.
///
/// # Errors
/// When a battle has no position at a checkpoint in one of the halves (too few games), or a fit fails.
pub fn score(positions: &[Position]) -> Result<Vec<Judged>, LearnError> {
    let mut groups: Vec<(&str, f32)> = positions.iter().map(|p| (p.battle.as_str(), p.checkpoint)).collect();
    groups.sort_by(|a, b| a.0.cmp(b.0).then(a.1.total_cmp(&b.1)));
    groups.dedup();
    let mut judged = Vec::new();
    for (battle, checkpoint) in groups {
        let group = || positions.iter().filter(move |p| p.battle == battle && p.checkpoint == checkpoint);
        let fitting: Vec<&Position> = group().filter(|p| p.half == Half::Fit).collect();
        if fitting.is_empty() || fitting.len() == group().count() {
            return Err(LearnError::Config(format!(
                "{battle}: too few games to fit the baseline to half of them and score the other half (play at least \
                 four games on each battle)"
            )));
        }
        let x: Vec<Vec<f32>> = fitting.iter().map(|p| p.baseline_inputs.to_vec()).collect();
        let y: Vec<f32> = fitting.iter().map(|p| p.result).collect();
        let w = fit_logistic(&x, &y)?;
        for p in group().filter(|p| p.half == Half::Score) {
            let z = w[0] + w[1] * p.baseline_inputs[0] + w[2] * p.baseline_inputs[1];
            judged.push(Judged {
                battle: p.battle.clone(),
                players: p.players.clone(),
                checkpoint: p.checkpoint,
                evaluator: p.evaluator,
                baseline: pacw_ai::evaluator::sigmoid(z),
                playouts: p.playouts,
                result: p.result,
            });
        }
    }
    Ok(judged)
}

/// Plays and judges every game on the current rayon pool, `progress` called after each.
///
/// # Errors
/// When a player name is unknown.
pub fn judge_games(
    games: &[CalibrationGame],
    evaluator: &Evaluator,
    playouts: u32,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Position>, LearnError> {
    let judged: Option<Vec<Vec<Position>>> = games
        .par_iter()
        .map(|g| {
            let j = judge_game(g, evaluator, playouts);
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
    /// The play-outs' Brier score, when every position was played out.
    pub playouts: Option<f64>,
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
    /// Games played (half of them scored).
    pub games: usize,
    /// Brier scores at each checkpoint, then over all of them, then on each battle at each checkpoint.
    pub brier: Vec<BrierRow>,
    /// The evaluator's reliability table, over every scored position.
    pub reliability: Vec<Decile>,
    /// The largest gap between the chance said and what happened over the deciles with at least
    /// [`DECILE_MIN_POSITIONS`] positions.
    pub worst_decile: f64,
}

/// Summarises judged positions.
pub fn summarise(judged: &[Judged], games: usize) -> Calibration {
    let brier = |what: String, set: Vec<&Judged>| {
        let n = set.len().max(1) as f64;
        let score =
            |f: fn(&Judged) -> f32| set.iter().map(|j| (f(j) as f64 - j.result as f64).powi(2)).sum::<f64>() / n;
        let (e, b) = (score(|j| j.evaluator), score(|j| j.baseline));
        let playouts = set.iter().all(|j| j.playouts.is_some()).then(|| score(|j| j.playouts.unwrap_or(0.5)));
        BrierRow {
            what,
            positions: set.len(),
            evaluator: e,
            baseline: b,
            improvement: if b > 0.0 { 1.0 - e / b } else { 0.0 },
            playouts,
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
        for &c in &CHECKPOINTS {
            let set = judged.iter().filter(|j| j.battle == battle && j.checkpoint == c).collect();
            rows.push(brier(format!("{battle} at {:.0}%", c * 100.0), set));
        }
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
        .collect::<Vec<Decile>>();
    let worst_decile = reliability
        .iter()
        .filter(|d| d.positions >= DECILE_MIN_POSITIONS)
        .map(|d| (d.predicted - d.observed).abs())
        .fold(0.0, f64::max);
    Calibration { games, brier: rows, reliability, worst_decile }
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
            playouts: None,
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
        assert_eq!(c.brier.iter().find(|r| r.what == "b at 50%").map(|r| r.positions), Some(2));
        assert_eq!(c.worst_decile, 0.0, "no decile holds enough positions to count");
    }

    #[test]
    fn a_calibration_game_is_judged_at_each_checkpoint_with_its_result() {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let pairs = [["greedy".to_string(), "random".to_string()]];
        let games = games(&[("me".into(), scenario)], &pairs, &[4], 5);
        assert_eq!(games[1].players, ["random".to_string(), "greedy".to_string()], "the sides swap");
        let halves: Vec<Half> = games.iter().map(|g| g.half).collect();
        assert_eq!(halves, [Half::Fit, Half::Fit, Half::Score, Half::Score], "each half holds both seatings");
        let e = Evaluator::embedded();
        let j = judge_game(&games[0], &e, 0).unwrap();
        assert_eq!(j.iter().map(|j| j.checkpoint).collect::<Vec<_>>(), CHECKPOINTS);
        assert!(j.iter().all(|j| j.result == j.result.clamp(0.0, 1.0) && (0.0..=1.0).contains(&j.evaluator)));
        assert!(j.iter().all(|j| j.playouts.is_none()), "no play-outs unless asked");
        assert!(judge_game(&games[0], &e, 8).unwrap().iter().all(|j| j.playouts.is_none()), "a fitting game: none");
        let scored = judge_game(&games[2], &e, 8).unwrap();
        assert_eq!(scored[0].players[0], "greedy", "greedy plays first in the scored game");
        for (p, again) in scored.iter().zip(judge_game(&games[2], &e, 8).unwrap()) {
            let mean = p.playouts.unwrap();
            assert!((mean * 16.0 - (mean * 16.0).round()).abs() < 1e-4, "a mean of eight results: {mean}");
            assert!(mean > 0.5, "greedy wins most play-outs against random: {mean}");
            assert_eq!(p.playouts, again.playouts, "the same play-outs for the same seed");
        }
    }

    fn position(battle: &str, half: Half, material: f32, result: f32) -> Position {
        Position {
            battle: battle.into(),
            players: ["greedy".into(), "greedy".into()],
            checkpoint: 0.5,
            half,
            evaluator: 0.5,
            baseline_inputs: [material, 0.0],
            playouts: None,
            result,
        }
    }

    #[test]
    fn the_baseline_is_fitted_per_battle_to_one_half_and_scored_on_the_other() {
        // On "a" the first side wins whatever the material; on "b" the side with more material wins.
        let mut p = Vec::new();
        for i in 0..40 {
            let m = if i % 2 == 0 { 0.3 } else { -0.3 };
            let half = if i < 20 { Half::Fit } else { Half::Score };
            p.push(position("a", half, m, 1.0));
            p.push(position("b", half, m, if m > 0.0 { 1.0 } else { 0.0 }));
        }
        let judged = score(&p).unwrap();
        assert_eq!(judged.len(), 40, "only the scoring half is scored");
        for j in &judged {
            match j.battle.as_str() {
                "a" => assert!(j.baseline > 0.9, "a battle's own intercept: {}", j.baseline),
                _ => assert!((j.baseline > 0.8) == (j.result == 1.0), "material read: {}", j.baseline),
            }
        }
        let scoring: Vec<Position> = p.iter().filter(|p| p.half == Half::Score).cloned().collect();
        assert!(score(&scoring).is_err(), "nothing to fit to is refused");
        p.retain(|p| p.half == Half::Fit);
        assert!(score(&p).is_err(), "nothing to score is refused");
    }
}
