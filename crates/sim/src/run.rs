//! The parallel runner: plays every game of every scenario and variant (of the shard, if any) on a rayon pool and
//! collects the records in order, so the same seed and settings give the same records on any number of threads.
//!
//! Games are *paired*: game `i` has the same seed, the same sides and the same players' seeds in every variant and
//! scenario, so two variants differ only by the rule that differs (and the dice it changes).

use crate::config::{SimConfig, Variant};
use crate::error::SimError;
use crate::record::{GameRecord, GameStats, restricted_in};
use crate::seed::{game_seed, player_seed};
use pacw_ai::Evaluator;
use pacw_ai::review::{ReviewConfig, review};
use pacw_engine::{Game, Options, Scenario, Side, ToAct};
use rayon::prelude::*;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// More decisions than any game can need (a few hundred is typical): a game past it is reported as a runaway.
pub const MAX_DECISIONS: usize = 1_000_000;

/// `--save-games DIR [--save-only LIST]`: which games to write as saves, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveGames {
    /// The folder (created if needed).
    pub dir: PathBuf,
    /// The game indexes to save (in every variant and scenario); `None` saves every game.
    pub only: Option<Vec<RangeInclusive<usize>>>,
}

impl SaveGames {
    /// Parses a list of game indexes and ranges, as `0-9,42`.
    ///
    /// # Errors
    /// When an item is not a game number or a range `LO-HI` with LO ≤ HI.
    ///
    /// ```
    /// let only = pacw_sim::run::SaveGames::parse_only("0-2,7").unwrap();
    /// assert_eq!(only, [0..=2, 7..=7]);
    /// assert!(pacw_sim::run::SaveGames::parse_only("3-1").is_err());
    /// ```
    pub fn parse_only(text: &str) -> Result<Vec<RangeInclusive<usize>>, SimError> {
        let bad = || SimError::BadSaveOnly(text.to_string());
        text.split(',')
            .map(|item| {
                let item = item.trim();
                let (lo, hi) = item.split_once('-').unwrap_or((item, item));
                let (lo, hi) =
                    (lo.trim().parse::<usize>().map_err(|_| bad())?, hi.trim().parse::<usize>().map_err(|_| bad())?);
                if lo > hi { Err(bad()) } else { Ok(lo..=hi) }
            })
            .collect()
    }

    /// Whether game `index` is saved.
    pub fn includes(&self, index: usize) -> bool {
        self.only.as_ref().is_none_or(|ranges| ranges.iter().any(|r| r.contains(&index)))
    }
}

/// A finished simulation: its settings, variants and every game's record.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// The settings it ran with.
    pub config: SimConfig,
    /// The variants, in order.
    pub variants: Vec<Variant>,
    /// The options of each variant in each scenario: `options[scenario][variant]`.
    pub options: Vec<Vec<Options>>,
    /// Every game's record, by scenario, then variant, then game index.
    pub records: Vec<GameRecord>,
    /// The same records with the attacker as first side, when several scenarios are pooled and every one names its
    /// attacker ([`Simulation::pooled_by_attacker`]); else empty.
    by_attacker: Vec<GameRecord>,
    /// Wall-clock time of the games, in seconds.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
}

impl Simulation {
    /// A finished simulation of `records`, played with `config`.
    pub fn new(
        config: SimConfig,
        variants: Vec<Variant>,
        options: Vec<Vec<Options>>,
        records: Vec<GameRecord>,
        seconds: f64,
        threads: usize,
    ) -> Simulation {
        let attackers: Option<Vec<Side>> = config.scenarios.iter().map(|s| s.scenario.attacker).collect();
        let by_attacker = match attackers {
            Some(attackers) if config.scenarios.len() > 1 => {
                records.iter().map(|r| r.with_first(attackers[r.scenario])).collect()
            }
            _ => Vec::new(),
        };
        Simulation { config, variants, options, records, by_attacker, seconds, threads }
    }

    /// Whether the scenarios pooled are counted by attacker and defender (several scenarios, every one naming its
    /// `attacker`) rather than by first and second side, which would mix attackers with defenders.
    pub fn pooled_by_attacker(&self) -> bool {
        !self.by_attacker.is_empty()
    }

    /// The records of scenario `s`, or (`None`) of all scenarios, pooled by attacker when they can be.
    fn records(&self, s: Option<usize>) -> impl Iterator<Item = &GameRecord> {
        let pool = if s.is_none() && self.pooled_by_attacker() { &self.by_attacker } else { &self.records };
        pool.iter().filter(move |r| s.is_none_or(|s| r.scenario == s))
    }

    /// The records of variant `v`, in scenario `s` or (`None`) in all scenarios (by attacker first when
    /// [`Simulation::pooled_by_attacker`]).
    pub fn records_of(&self, s: Option<usize>, v: usize) -> Vec<&GameRecord> {
        self.records(s).filter(|r| r.variant == v).collect()
    }

    /// The records of every variant, in scenario `s` or (`None`) in all scenarios (by attacker first when
    /// [`Simulation::pooled_by_attacker`]).
    pub fn records_in(&self, s: Option<usize>) -> Vec<&GameRecord> {
        self.records(s).collect()
    }
}

/// One game to play: everything that decides it.
#[derive(Clone, Debug)]
pub struct GameSpec<'a> {
    /// The scenario.
    pub scenario: &'a Arc<Scenario>,
    /// Its text and file name (kept with the game as a save would).
    pub text: &'a str,
    /// Its file name.
    pub file: &'a str,
    /// The options in force.
    pub options: Options,
    /// The seed of the dice and cards.
    pub seed: u64,
    /// The players' names, in `--players` order, with the seed of each.
    pub players: [(&'a str, u64); 2],
    /// Whether player 2 plays the scenario's first side.
    pub swapped: bool,
}

impl GameSpec<'_> {
    /// The player's name on each side, first side first.
    pub fn players_by_side(&self) -> [String; 2] {
        let [a, b] = self.players.map(|(name, _)| name.to_string());
        if self.swapped { [b, a] } else { [a, b] }
    }
}

/// Plays one game to its end. `index` is only for messages.
///
/// # Errors
/// When a player's name is unknown, or the game has not ended after [`MAX_DECISIONS`] decisions.
pub fn play_game(spec: &GameSpec<'_>, index: usize) -> Result<Game, SimError> {
    let make = |slot: usize| {
        let (name, seed) = spec.players[slot];
        pacw_ai::player(name, seed)
            .ok_or_else(|| SimError::UnknownPlayer { name: name.to_string(), known: pacw_ai::PLAYERS.join(", ") })
    };
    let mut players = [make(0)?, make(1)?];
    let mut game = Game::with_scenario(spec.scenario.clone(), spec.text, spec.file, Some(spec.options), spec.seed);
    let mut decisions = 0;
    while let ToAct::Side(side) = game.battle().to_act() {
        let slot = side.index() ^ spec.swapped as usize;
        // A player chooses among the legal actions: applied without judging it again (a debug build checks it).
        let action = players[slot].choose(game.battle());
        game.act_unchecked(action);
        decisions += 1;
        if decisions >= MAX_DECISIONS {
            return Err(SimError::Runaway { index, seed: spec.seed, decisions });
        }
    }
    Ok(game)
}

/// The first side's luck in a finished game, in millionths of a game ([`GameRecord::luck`]): the evaluator's own
/// review of it (`pacw review --quick`), on this thread.
pub fn luck_of(game: &Game, evaluator: &Evaluator) -> i32 {
    let config = ReviewConfig { quick: true, threads: 1, ..ReviewConfig::default() };
    let [a, b] = review(game, evaluator, &config, &|_, _| {}).summary;
    (f64::from(a.luck - b.luck) * 1e6).round() as i32
}

/// A file name's safe form of a label: letters, digits, `.` and `-`.
fn slug(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '-' }).collect()
}

/// The file a saved game is written to: scenario, variant and game index.
pub fn save_name(file: &str, variant: &Variant, index: usize) -> String {
    let stem = std::path::Path::new(file).file_stem().map_or("scenario".into(), |s| s.to_string_lossy().to_string());
    format!("{}-{}-{index:05}.json", slug(&stem), slug(&variant.label()))
}

/// Runs the simulation: `config.games` games of each scenario and variant (those of `config.shard` only, if set),
/// on `config.threads` threads (all cores by default), saving those `save` asks for. `progress` is called once
/// after each game, from whichever thread played it.
///
/// # Errors
/// When the settings do not check ([`SimConfig::validate`]), a scenario as a variant plays it is refused, the thread
/// pool cannot be started, a game has not ended after [`MAX_DECISIONS`] decisions, or the save folder or a save cannot
/// be written.
pub fn run_saving(
    config: &SimConfig,
    save: Option<&SaveGames>,
    progress: &(dyn Fn() + Sync),
) -> Result<Simulation, SimError> {
    run_stopping(config, save, progress, &|| false)
}

/// [`run`], stopped early with [`SimError::Stopped`] once `stop` says so (it is asked before each game): for a
/// caller whose reader may go away, such as the editor's balance test.
///
/// # Errors
/// As [`run_saving`]; [`SimError::Stopped`] once `stop` says so.
pub fn run_until(
    config: &SimConfig,
    progress: &(dyn Fn() + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Simulation, SimError> {
    run_stopping(config, None, progress, stop)
}

fn run_stopping(
    config: &SimConfig,
    save: Option<&SaveGames>,
    progress: &(dyn Fn() + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Simulation, SimError> {
    config.validate()?;
    let variants = config.variant_list();
    let options = config.option_table()?;
    // Each scenario as each variant plays it (a variant file, or a rule set the variant compares).
    let played = (0..config.scenarios.len())
        .map(|s| variants.iter().map(|v| config.variant_scenario(s, v)).collect::<Result<Vec<_>, _>>())
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(save) = save {
        std::fs::create_dir_all(&save.dir).map_err(|source| SimError::Write { path: save.dir.clone(), source })?;
    }
    let evaluator = config.luck.then(Evaluator::embedded);
    let indexes: Vec<usize> = (0..config.games).filter(|&i| config.shard.is_none_or(|s| s.includes(i))).collect();
    let per = indexes.len();
    let jobs: Vec<(usize, usize, usize)> = (0..config.scenarios.len())
        .flat_map(|s| (0..variants.len()).flat_map(move |v| (0..per).map(move |i| (s, v, i))))
        .collect();
    let work = || -> Result<(Vec<GameRecord>, f64, usize), SimError> {
        let start = Instant::now();
        let records = jobs
            .par_iter()
            .map(|&(s, v, i)| {
                if stop() {
                    return Err(SimError::Stopped);
                }
                let index = indexes[i];
                let source = &config.scenarios[s];
                let variant = &variants[v];
                let seed = game_seed(config.seed, index as u64);
                let spec = GameSpec {
                    scenario: &played[s][v],
                    text: &source.text,
                    file: &source.file,
                    options: options[s][v],
                    seed,
                    players: [
                        (variant.players[0].as_str(), player_seed(seed, 0)),
                        (variant.players[1].as_str(), player_seed(seed, 1)),
                    ],
                    swapped: config.swapped(index),
                };
                let game = play_game(&spec, index)?;
                let mut stats =
                    GameStats::from_events(&played[s][v], game.log()).expect("a game that no side waits on is over");
                stats.restricted = restricted_in(&game);
                let save = match save.filter(|s| s.includes(index)) {
                    None => None,
                    Some(save) => {
                        let name = save_name(&source.file, variant, index);
                        let mut file = game.save();
                        file.players = Some(spec.players_by_side());
                        let text = serde_json::to_string_pretty(&file).expect("a save always serialises");
                        let path = save.dir.join(&name);
                        std::fs::write(&path, text).map_err(|source| SimError::Write { path, source })?;
                        Some(name)
                    }
                };
                let luck = evaluator.as_ref().map(|e| luck_of(&game, e));
                progress();
                Ok(GameRecord { scenario: s, variant: v, index, seed, swapped: spec.swapped, save, luck, stats })
            })
            .collect::<Result<Vec<_>, SimError>>()?;
        Ok((records, start.elapsed().as_secs_f64(), rayon::current_num_threads()))
    };
    let (records, seconds, threads) = match config.threads {
        None => work()?,
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| SimError::Threads { threads, message: e.to_string() })?
            .install(work)?,
    };
    Ok(Simulation::new(config.clone(), variants, options, records, seconds, threads))
}

/// Runs the simulation without saving any game: see [`run_saving`].
///
/// # Errors
/// As [`run_saving`].
pub fn run(config: &SimConfig, progress: &(dyn Fn() + Sync)) -> Result<Simulation, SimError> {
    run_saving(config, None, progress)
}

/// The number of games [`run`] plays.
pub fn game_count(config: &SimConfig) -> usize {
    let per = (0..config.games).filter(|&i| config.shard.is_none_or(|s| s.includes(i))).count();
    per * config.scenarios.len() * config.variant_list().len()
}

/// The side player `slot` (0 or 1) plays in a game.
pub fn side_of(record: &GameRecord, slot: usize) -> Side {
    if (slot == 1) != record.swapped { Side::B } else { Side::A }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Axis, Shard};

    fn config(games: usize) -> SimConfig {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = games;
        c.seed = 42;
        c
    }

    #[test]
    fn the_same_seed_gives_the_same_records_on_one_and_two_threads() {
        let mut c = config(24);
        c.compare(vec![Axis::parse("initiative=cards,alternate").unwrap()]).unwrap();
        c.threads = Some(1);
        let one = run(&c, &|| {}).unwrap();
        c.threads = Some(2);
        let two = run(&c, &|| {}).unwrap();
        assert_eq!(one.threads, 1);
        assert_eq!(two.threads, 2);
        assert_eq!(one.records.len(), 48);
        assert_eq!(one.records, two.records);
        c.seed = 43;
        let other = run(&c, &|| {}).unwrap();
        assert_ne!(one.records, other.records);
    }

    #[test]
    fn variants_are_paired_game_by_game() {
        let mut c = config(6);
        // The same rules twice (an axis the parser would refuse for its repeated value).
        c.compare(vec![Axis { option: "to_hit".into(), values: vec!["5".into(), "5".into()] }]).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        // The same seeds and sides give the same games.
        let (a, b) = (sim.records_of(None, 0), sim.records_of(None, 1));
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((x.seed, x.swapped, &x.stats), (y.seed, y.swapped, &y.stats));
        }
    }

    #[test]
    fn shards_split_the_games_by_index() {
        let mut c = config(7);
        let all = run(&c, &|| {}).unwrap();
        let mut parts = Vec::new();
        for k in 1..=3 {
            c.shard = Some(Shard { k, n: 3 });
            assert_eq!(game_count(&c), [3, 2, 2][k - 1]);
            parts.extend(run(&c, &|| {}).unwrap().records);
        }
        parts.sort_by_key(|r| (r.scenario, r.variant, r.index));
        assert_eq!(parts, all.records);
    }

    #[test]
    fn players_swap_sides_every_other_game_unless_fixed() {
        let mut c = config(4);
        c.threads = Some(1);
        let sim = run(&c, &|| {}).unwrap();
        let sides: Vec<Side> = sim.records.iter().map(|r| side_of(r, 0)).collect();
        assert_eq!(sides, [Side::A, Side::B, Side::A, Side::B]);
        assert!(sim.records.iter().all(|r| side_of(r, 1) != side_of(r, 0)));
        assert_eq!(sim.records[1].player_of(Side::A), 1);
        c.fixed_sides = true;
        let sim = run(&c, &|| {}).unwrap();
        assert!(sim.records.iter().all(|r| side_of(r, 0) == Side::A && r.player_of(Side::A) == 0));
    }

    #[test]
    fn saved_games_replay_to_the_same_end() {
        let dir = std::env::temp_dir().join(format!("pacw-sim-saves-{}", std::process::id()));
        let c = config(3);
        let save = SaveGames { dir: dir.clone(), only: Some(vec![1..=1]) };
        let sim = run_saving(&c, Some(&save), &|| {}).unwrap();
        let saved: Vec<&GameRecord> = sim.records.iter().filter(|r| r.save.is_some()).collect();
        assert_eq!(saved.len(), 1);
        assert_eq!(saved[0].save.as_deref(), Some("m-base-00001.json"));
        let text = std::fs::read_to_string(dir.join("m-base-00001.json")).unwrap();
        let game = Game::load(&text).unwrap();
        let stats = GameStats::from_events(&c.scenarios[0].scenario, game.log()).unwrap();
        assert_eq!(stats, saved[0].stats);
        let file: pacw_engine::SaveFile = serde_json::from_str(&text).unwrap();
        assert_eq!(file.players, Some(["random".to_string(), "random".to_string()]));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn progress_is_reported_once_a_game_and_bad_settings_are_refused() {
        let count = std::sync::atomic::AtomicUsize::new(0);
        let c = config(6);
        run(&c, &|| {
            count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(count.into_inner(), 6);
        let mut bad = config(6);
        bad.players[1] = "nobody".into();
        assert!(run(&bad, &|| {}).unwrap_err().is_usage());
    }

    #[test]
    fn luck_is_recorded_when_asked_as_the_review_counts_it() {
        let dir = std::env::temp_dir().join(format!("pacw-sim-luck-{}", std::process::id()));
        let mut c = config(4);
        c.players = ["greedy".into(), "greedy".into()];
        assert!(run(&c, &|| {}).unwrap().records.iter().all(|r| r.luck.is_none() && r.luck_adjusted().is_none()));
        c.luck = true;
        let save = SaveGames { dir: dir.clone(), only: None };
        let sim = run_saving(&c, Some(&save), &|| {}).unwrap();
        for r in &sim.records {
            let text = std::fs::read_to_string(dir.join(r.save.as_ref().unwrap())).unwrap();
            let quick = ReviewConfig { quick: true, ..ReviewConfig::default() };
            let review = review(&Game::load(&text).unwrap(), &Evaluator::embedded(), &quick, &|_, _| {});
            let first = &review.summary[0];
            // The review's own luck-adjusted result of the first side, and the record's, agree.
            let adjusted = r.luck_adjusted().unwrap();
            assert!((adjusted - f64::from(first.luck_adjusted.unwrap())).abs() < 1e-5, "{adjusted} {first:?}");
            // Seen from the other side, the luck and the adjusted score turn over.
            let turned = r.with_first(Side::B);
            assert_eq!(turned.luck, r.luck.map(|l| -l));
            assert!((turned.luck_adjusted().unwrap() - (1.0 - adjusted)).abs() < 1e-12);
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
