//! Labelled positions, the slow part of training: training games played by exploring greedy players on the shipped
//! battles (but those held out) and on random ones, under the standard rules or a random variant; a few positions
//! of each game, each labelled with the mean result of greedy play-outs from it (as the backgammon engine wildbg
//! labels its positions by rollouts) and with the game's own result.
//!
//! Game `i` depends only on the seed and `i`, so the games split by index into shards ([`Shard`]) that any batch
//! system can spread over machines; each shard is a CSV file, and fitting reads the merged parts.

use crate::LearnError;
use crate::explore::Explorer;
use crate::generate;
use pacw_ai::evaluator::{FEATURE_NAMES, FEATURES, Features, features, result_value};
use pacw_ai::{GreedyPlayer, Player};
use pacw_engine::system::CombatSystem;
use pacw_engine::{Battle, GRAND_BATTLE, Options, SHIPPED_SCENARIOS, Scenario, ToAct};
use pacw_sim::Shard;
use pacw_sim::seed::{game_seed, player_seed, splitmix64};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The `format` of a positions file, on its first line.
pub const POSITIONS_FORMAT: &str = "pacw-positions";
/// Its version.
pub const POSITIONS_VERSION: u32 = 1;

/// The most decisions a training game may take (a guard: every game ends by its turn limit long before).
const MAX_DECISIONS: usize = 200_000;

/// The shipped battle that training leaves out by default, so that calibration can be measured on a battle the
/// evaluator never saw.
pub const DEFAULT_HELD_OUT: &str = "franklin";

/// What decides the labelled positions: the same in every shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionsConfig {
    /// Training games.
    pub games: u64,
    /// The seed every game, play-out and choice is drawn from.
    pub seed: u64,
    /// Play-outs labelling each position.
    pub rollouts: u32,
    /// Positions taken from each game (at most).
    pub per_game: u32,
    /// Shipped battles never played in training.
    pub held_out: Vec<String>,
    /// The share of games on random battles ([`generate::battle`]).
    pub generated: f64,
    /// The share of games on the grand battle, Antietam ([`GRAND_BATTLE`]), taken from the shipped battles' share.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub grand: f64,
    /// The share of games under a random rule variant.
    pub variants: f64,
    /// The combat system every game is played by, as a variant file (name, text); `None` for the standard rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<(String, String)>,
}

impl Default for PositionsConfig {
    fn default() -> Self {
        PositionsConfig {
            games: 24_000,
            seed: 1,
            rollouts: 16,
            per_game: 6,
            held_out: vec![DEFAULT_HELD_OUT.to_string()],
            generated: 0.25,
            grand: 0.0,
            variants: 0.2,
            rules: None,
        }
    }
}

/// Rule variants a training game may be played under (R11), so that the evaluator has seen positions of each.
const VARIANTS: &[&[(&str, &str)]] = &[
    &[("initiative", "igougo")],
    &[("initiative", "alternate")],
    &[("to_hit", "4")],
    &[("to_hit", "6")],
    &[("blocked_retreat", "stand")],
    &[("once_per_turn", "true")],
    &[("pivot_is_move", "false")],
    &[("modifier.cover", "0")],
    &[("range.artillery", "3"), ("range.infantry", "3")],
    &[("strength.infantry", "5"), ("strength.cavalry", "4")],
];

/// One training game: its battle, rules, seed and how boldly each side explores.
#[derive(Clone, Debug)]
pub struct TrainingGame {
    /// Its index, from 0.
    pub index: u64,
    /// `shipped:NAME` or `generated:SEED`.
    pub battle: String,
    /// The battle.
    pub scenario: Arc<Scenario>,
    /// The rules it is played under.
    pub options: Options,
    /// The variant's changes (`name=value;…`), or `-`.
    pub variant: String,
    /// The seed of its dice and cards.
    pub seed: u64,
    /// Each side's chance of trying a random action.
    pub explore: [f64; 2],
}

impl PositionsConfig {
    /// The shipped battles training plays.
    pub fn training_battles(&self) -> Vec<(&'static str, &'static str)> {
        SHIPPED_SCENARIOS
            .iter()
            .filter(|s| !self.held_out.iter().any(|h| h == s.name))
            .map(|s| (s.name, s.text))
            .collect()
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// A count of 0, a share outside 0..=1, a held-out name that is no shipped battle, or every battle held out
    /// with no random ones.
    pub fn check(&self) -> Result<(), LearnError> {
        let bad = |what: String| Err(LearnError::Config(what));
        if self.games == 0 || self.rollouts == 0 || self.per_game == 0 {
            return bad("games, rollouts and positions per game must each be at least 1".into());
        }
        for (name, share) in [("generated", self.generated), ("grand battle", self.grand), ("variants", self.variants)]
        {
            if !(0.0..=1.0).contains(&share) {
                return bad(format!("the share of {name} games must be from 0 to 1, not {share}"));
            }
        }
        if let Some(h) = self.held_out.iter().find(|h| !SHIPPED_SCENARIOS.iter().any(|s| s.name == h.as_str())) {
            return bad(format!("'{h}' is not a shipped battle (see `pacw scenarios`)"));
        }
        if let Some((file, text)) = &self.rules {
            CombatSystem::with_variant(text, file).map_err(|e| LearnError::Config(e.to_string()))?;
        }
        if self.training_battles().is_empty() && self.generated < 1.0 {
            return bad("every shipped battle is held out: set the share of generated battles to 1".into());
        }
        Ok(())
    }

    /// Whether game `index` is on the grand battle: the first draw [`PositionsConfig::game`] makes.
    pub fn on_grand_battle(&self, index: u64) -> bool {
        self.grand_drawn(&mut self.battle_draws(index))
    }

    /// The draws that choose game `index`'s battle.
    fn battle_draws(&self, index: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(splitmix64(game_seed(self.seed, index) ^ 0x7261_696e))
    }

    /// Draws whether a game is on the grand battle, only when it has a share, so that the games of settings
    /// without it stay what they were.
    fn grand_drawn(&self, rng: &mut ChaCha8Rng) -> bool {
        self.grand > 0.0 && rng.random_bool(self.grand)
    }

    /// Training game `index`.
    ///
    /// # Panics
    /// If a share is outside 0 to 1 ([`PositionsConfig::check`] refuses that), or the engine refuses a training battle
    /// or one of the training variants, which the tests rule out.
    pub fn game(&self, index: u64) -> TrainingGame {
        let mut rng = self.battle_draws(index);
        let shipped = self.training_battles();
        let (battle, text) = if self.grand_drawn(&mut rng) {
            (format!("shipped:{}", GRAND_BATTLE.name), GRAND_BATTLE.text.to_string())
        } else if shipped.is_empty() || rng.random_bool(self.generated) {
            let battle_seed = rng.random::<u64>();
            (format!("generated:{battle_seed}"), generate::battle(battle_seed))
        } else {
            let (name, text) = shipped[rng.random_range(0..shipped.len())];
            (format!("shipped:{name}"), text.to_string())
        };
        let scenario = match &self.rules {
            // The variant was checked with the config; a battle it cannot play (an option it sets that the battle
            // refuses) is played by the standard rules rather than not at all.
            Some((file, rules)) => CombatSystem::with_variant(rules, file)
                .ok()
                .and_then(|system| Scenario::parse_with(&text, &battle, Arc::new(system)).ok())
                .unwrap_or_else(|| Scenario::parse(&text, &battle).expect("training battles are valid")),
            None => Scenario::parse(&text, &battle).expect("training battles are valid"),
        };
        let scenario = Arc::new(scenario);
        let mut options = scenario.options;
        let mut variant = "-".to_string();
        if rng.random_bool(self.variants) {
            let changes = VARIANTS[rng.random_range(0..VARIANTS.len())];
            for (name, value) in changes {
                scenario.set_option(&mut options, name, value).expect("the training variants are valid");
            }
            variant = changes.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(";");
        }
        let explore = [0.0, 0.0, 0.05, 0.2];
        let explore = [explore[rng.random_range(0..4)], explore[rng.random_range(0..4)]];
        TrainingGame { index, battle, scenario, options, variant, seed: game_seed(self.seed, index), explore }
    }
}

fn is_zero(share: &f64) -> bool {
    *share == 0.0
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The training game's index.
    pub game: u64,
    /// Its battle (`shipped:NAME` or `generated:SEED`).
    pub battle: String,
    /// Its rule variant, or `-`.
    pub variant: String,
    /// Decisions made before the position.
    pub decision: u32,
    /// The turn.
    pub turn: u8,
    /// The position's features.
    pub features: Features,
    /// Play-outs from it.
    pub rollouts: u32,
    /// Their mean result for the first side (a win 1, a draw ½).
    pub mean: f32,
    /// The training game's own result for the first side.
    pub result: f32,
}

/// Plays training game `game` and labels positions of it.
///
/// # Panics
/// If a player chooses an illegal action, or the engine cannot sample the chance event it says is pending: the players'
/// and the engine's tests rule both out.
pub fn label_game(config: &PositionsConfig, game: &TrainingGame) -> Vec<Row> {
    let mut dice = ChaCha8Rng::seed_from_u64(game.seed);
    let mut pick = ChaCha8Rng::seed_from_u64(splitmix64(game.seed ^ 0x706f_7369));
    let mut players: Vec<Explorer> =
        (0..2).map(|slot| Explorer::new(game.explore[slot], player_seed(game.seed, slot))).collect();
    let mut b = Battle::new(game.scenario.clone(), game.options);
    // A reservoir of positions where a side is to choose a unit (between activations), uniform over the game.
    let mut kept: Vec<(u32, Battle)> = Vec::new();
    let (mut seen, mut decisions) = (0u64, 0u32);
    while (decisions as usize) < MAX_DECISIONS {
        match b.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance(_) => {
                let outcome = b.sample_chance(&mut dice).expect("chance is to act");
                b.apply_chance(outcome).expect("a sampled outcome is legal");
            }
            ToAct::Side(side) => {
                if b.active_unit().is_none() {
                    seen += 1;
                    if kept.len() < config.per_game as usize {
                        kept.push((decisions, b.clone()));
                    } else {
                        let j = pick.random_range(0..seen);
                        if (j as usize) < kept.len() {
                            kept[j as usize] = (decisions, b.clone());
                        }
                    }
                }
                let action = players[side.index()].choose(&b);
                b.apply(action).expect("players choose legal actions");
                decisions += 1;
            }
        }
    }
    let result = b.result().map_or(0.5, result_value);
    kept.sort_by_key(|(d, _)| *d);
    kept.into_iter()
        .enumerate()
        .map(|(j, (decision, position))| {
            let total: f32 = (0..config.rollouts)
                .map(|r| play_out(&position, splitmix64(game.seed ^ ((j as u64) << 32 | r as u64))))
                .sum();
            Row {
                game: game.index,
                battle: game.battle.clone(),
                variant: game.variant.clone(),
                decision,
                turn: position.turn(),
                features: features(&position),
                rollouts: config.rollouts,
                mean: total / config.rollouts as f32,
                result,
            }
        })
        .collect()
}

/// The result for the first side of greedy against greedy from `b` to the end, with dice and choices from `seed`.
///
/// # Panics
/// As [`play_out_by`].
pub fn play_out(b: &Battle, seed: u64) -> f32 {
    let mut players = [GreedyPlayer::new(player_seed(seed, 0)), GreedyPlayer::new(player_seed(seed, 1))];
    let [first, second] = &mut players;
    play_out_by(b, seed, [first, second])
}

/// The result for the first side of `b` played to its end by `players` (the first side's first), the dice drawn
/// from `seed`; a draw if it has not ended within the guard on a game's decisions.
///
/// # Panics
/// If a player chooses an illegal action, or the engine cannot sample the chance event it says is pending: the
/// players' and the engine's tests rule both out.
pub fn play_out_by(b: &Battle, seed: u64, players: [&mut dyn Player; 2]) -> f32 {
    let mut dice = ChaCha8Rng::seed_from_u64(seed);
    let mut b = b.clone();
    for _ in 0..MAX_DECISIONS {
        match b.to_act() {
            ToAct::Over(result) => return result_value(result),
            ToAct::Chance(_) => {
                let outcome = b.sample_chance(&mut dice).expect("chance is to act");
                b.apply_chance(outcome).expect("a sampled outcome is legal");
            }
            ToAct::Side(side) => {
                let action = players[side.index()].choose(&b);
                b.apply(action).expect("players choose legal actions");
            }
        }
    }
    0.5
}

/// The labelled positions of one shard's games (all of them with `shard` `None`), in game order, on the
/// threads of the current rayon pool; `progress` is called after each game.
pub fn label_games(config: &PositionsConfig, shard: Option<Shard>, progress: &(dyn Fn() + Sync)) -> Vec<Row> {
    let indices: Vec<u64> = (0..config.games).filter(|&i| shard.is_none_or(|s| s.includes(i as usize))).collect();
    indices
        .par_iter()
        .map(|&i| {
            let rows = label_game(config, &config.game(i));
            progress();
            rows
        })
        .collect::<Vec<_>>()
        .concat()
}

/// The games of a shard (all with `None`).
pub fn shard_games(config: &PositionsConfig, shard: Option<Shard>) -> u64 {
    (0..config.games).filter(|&i| shard.is_none_or(|s| s.includes(i as usize))).count() as u64
}

/// The file name of a shard's positions.
pub fn file_name(shard: Shard) -> String {
    format!("positions-{}-of-{}.csv", shard.k, shard.n)
}

/// The first line of a positions file: its format, version, shard and config.
#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    version: u32,
    shard: Shard,
    config: PositionsConfig,
}

/// Writes a shard's positions as CSV (a `#` line with the format and config first).
///
/// # Errors
/// When the file cannot be written.
pub fn write(path: &Path, config: &PositionsConfig, shard: Shard, rows: &[Row]) -> Result<(), LearnError> {
    let io = |e: std::io::Error| LearnError::Io(path.to_path_buf(), e);
    let header = Header { format: POSITIONS_FORMAT.into(), version: POSITIONS_VERSION, shard, config: config.clone() };
    let mut text = format!("# {}\n", serde_json::to_string(&header).map_err(|e| io(e.into()))?);
    let mut out = csv::Writer::from_writer(Vec::new());
    let mut columns = vec!["game", "battle", "variant", "decision", "turn"];
    columns.extend(FEATURE_NAMES);
    columns.extend(["rollouts", "mean", "result"]);
    out.write_record(&columns).map_err(|e| LearnError::Csv(path.to_path_buf(), e))?;
    for r in rows {
        let mut record =
            vec![r.game.to_string(), r.battle.clone(), r.variant.clone(), r.decision.to_string(), r.turn.to_string()];
        record.extend(r.features.iter().map(|x| x.to_string()));
        record.extend([r.rollouts.to_string(), r.mean.to_string(), r.result.to_string()]);
        out.write_record(&record).map_err(|e| LearnError::Csv(path.to_path_buf(), e))?;
    }
    let body = out.into_inner().map_err(|e| io(e.into_error()))?;
    text.push_str(&String::from_utf8_lossy(&body));
    std::fs::write(path, text).map_err(io)
}

/// Reads the positions files of every shard of one run: the config they share and their rows, in game order.
///
/// # Errors
/// A file that cannot be read or is not a positions file of this build's features, files of different runs, or a
/// shard missing or given twice.
pub fn read(paths: &[PathBuf]) -> Result<(PositionsConfig, Vec<Row>), LearnError> {
    let mut parts: Vec<(Header, Vec<Row>)> = Vec::new();
    for path in paths {
        parts.push(read_one(path)?);
    }
    let Some((first, _)) = parts.first() else {
        return Err(LearnError::Config("no positions files given".into()));
    };
    let (config, n) = (first.config.clone(), first.shard.n);
    let mut have = vec![false; n];
    for ((h, _), path) in parts.iter().zip(paths) {
        if h.config != config || h.shard.n != n {
            return Err(LearnError::Mismatch(path.clone()));
        }
        if std::mem::replace(&mut have[h.shard.k - 1], true) {
            return Err(LearnError::Config(format!("shard {}/{n} is given twice", h.shard.k)));
        }
    }
    if let Some(k) = have.iter().position(|h| !h) {
        return Err(LearnError::Config(format!("shard {}/{n} is missing: give every shard of the run", k + 1)));
    }
    let mut rows: Vec<Row> = parts.into_iter().flat_map(|(_, rows)| rows).collect();
    rows.sort_by_key(|r| (r.game, r.decision));
    Ok((config, rows))
}

fn read_one(path: &Path) -> Result<(Header, Vec<Row>), LearnError> {
    let text = std::fs::read_to_string(path).map_err(|e| LearnError::Io(path.to_path_buf(), e))?;
    let not = |why: &str| LearnError::NotPositions(path.to_path_buf(), why.to_string());
    let first = text.lines().next().and_then(|l| l.strip_prefix("# ")).ok_or_else(|| not("no '# ' header line"))?;
    let header: Header = serde_json::from_str(first).map_err(|e| not(&e.to_string()))?;
    if header.format != POSITIONS_FORMAT || header.version != POSITIONS_VERSION {
        return Err(not(&format!("format '{}' version {}", header.format, header.version)));
    }
    if header.shard.k == 0 || header.shard.k > header.shard.n {
        return Err(not("a shard number out of range"));
    }
    let mut reader = csv::ReaderBuilder::new().comment(Some(b'#')).from_reader(text.as_bytes());
    let columns = reader.headers().map_err(|e| LearnError::Csv(path.to_path_buf(), e))?.clone();
    let features: Vec<&str> = columns.iter().skip(5).take(FEATURES).collect();
    if features != FEATURE_NAMES || columns.len() != 5 + FEATURES + 3 {
        return Err(not("its columns are not this build's features: make the positions again"));
    }
    let mut rows = Vec::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.map_err(|e| LearnError::Csv(path.to_path_buf(), e))?;
        let bad = || not(&format!("row {} is not a position", line + 1));
        let num =
            |i: usize| record.get(i).and_then(|x| x.parse::<f64>().ok()).filter(|x| x.is_finite()).ok_or_else(bad);
        let mut x = [0.0f32; FEATURES];
        for (i, v) in x.iter_mut().enumerate() {
            *v = num(5 + i)? as f32;
        }
        let tail = 5 + FEATURES;
        rows.push(Row {
            game: num(0)? as u64,
            battle: record.get(1).ok_or_else(bad)?.to_string(),
            variant: record.get(2).ok_or_else(bad)?.to_string(),
            decision: num(3)? as u32,
            turn: num(4)? as u8,
            features: x,
            rollouts: num(tail)? as u32,
            mean: (num(tail + 1)? as f32).clamp(0.0, 1.0),
            result: (num(tail + 2)? as f32).clamp(0.0, 1.0),
        });
    }
    Ok((header, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> PositionsConfig {
        PositionsConfig { games: 6, rollouts: 2, per_game: 3, ..PositionsConfig::default() }
    }

    #[test]
    fn a_training_game_depends_on_the_seed_and_its_index_only() {
        let c = small();
        let (a, b) = (label_game(&c, &c.game(3)), label_game(&c, &c.game(3)));
        assert_eq!(a, b);
        assert!(!a.is_empty() && a.len() <= 3);
        assert!(a.iter().all(|r| (0.0..=1.0).contains(&r.mean) && r.rollouts == 2));
        assert_ne!(label_game(&c, &c.game(4)), a);
        assert!((0..50).all(|i| !c.game(i).battle.contains(DEFAULT_HELD_OUT)), "the held-out battle is never played");
    }

    #[test]
    fn shards_written_and_read_back_are_the_whole_run() {
        let c = small();
        let dir = tempfile::tempdir().unwrap();
        let all = label_games(&c, None, &|| {});
        let mut paths = Vec::new();
        for k in 1..=2 {
            let shard = Shard { k, n: 2 };
            let path = dir.path().join(file_name(shard));
            write(&path, &c, shard, &label_games(&c, Some(shard), &|| {})).unwrap();
            paths.push(path);
        }
        let (config, rows) = read(&paths).unwrap();
        assert_eq!(config, c);
        assert_eq!(rows.len(), all.len());
        for (r, a) in rows.iter().zip(&all) {
            assert_eq!((r.game, r.decision, &r.battle), (a.game, a.decision, &a.battle));
            assert!((r.mean - a.mean).abs() < 1e-6);
        }
        let e = read(&paths[..1]).unwrap_err().to_string();
        assert!(e.contains("shard 2/2 is missing"), "{e}");
        let e = read(&[paths[0].clone(), paths[0].clone()]).unwrap_err().to_string();
        assert!(e.contains("given twice"), "{e}");
        std::fs::write(&paths[1], "game,battle\n1,2\n").unwrap();
        assert!(read(&paths).unwrap_err().to_string().contains("not a positions file"));
    }
}
