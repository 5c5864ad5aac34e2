//! The parallel runner: plays every game of every variant on a rayon pool and collects the records in game order,
//! so the same seed and settings give the same records on any number of threads.

use crate::config::{SimConfig, Variant};
use crate::error::SimError;
use crate::record::{GameRecord, GameStats};
use crate::seed::{game_seed, player_seed};
use pacw_engine::{Game, Options, Scenario, Side, ToAct};
use rayon::prelude::*;
use std::sync::Arc;
use std::time::Instant;

/// More decisions than any game can need (a few hundred is typical): a game past it is reported as a runaway.
pub const MAX_DECISIONS: usize = 1_000_000;

/// A finished simulation: its settings, variants and every game's record.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// The settings it ran with.
    pub config: SimConfig,
    /// The variants, in order.
    pub variants: Vec<Variant>,
    /// Every game's record, variant by variant, each in game order.
    pub records: Vec<GameRecord>,
    /// Wall-clock time of the games, in seconds.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
}

impl Simulation {
    /// The records of variant `v`.
    pub fn variant_records(&self, v: usize) -> &[GameRecord] {
        let n = self.config.games;
        &self.records[v * n..(v + 1) * n]
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

/// Plays one game to its end and reads its record from the event log. `index` is only for messages.
pub fn play_game(spec: &GameSpec<'_>, index: usize) -> Result<GameStats, SimError> {
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
        let action = players[slot].choose(game.battle());
        game.act(action).map_err(|e| SimError::IllegalChoice {
            index,
            seed: spec.seed,
            player: spec.players[slot].0.to_string(),
            reason: e.to_string(),
        })?;
        decisions += 1;
        if decisions >= MAX_DECISIONS {
            return Err(SimError::Runaway { index, seed: spec.seed, decisions });
        }
    }
    Ok(GameStats::from_events(spec.scenario, game.log()).expect("a game that no side waits on is over"))
}

/// Runs the simulation: `config.games` games of each variant, on `config.threads` threads (all cores by default).
/// `progress` is called once after each game, from whichever thread played it.
pub fn run(config: &SimConfig, progress: &(dyn Fn() + Sync)) -> Result<Simulation, SimError> {
    config.validate()?;
    let variants = config.variants()?;
    let work = || -> Result<(Vec<GameRecord>, f64, usize), SimError> {
        let start = Instant::now();
        let total = variants.len() * config.games;
        let records = (0..total)
            .into_par_iter()
            .map(|g| {
                let (variant, index) = (g / config.games, g % config.games);
                let seed = game_seed(config.seed, g as u64);
                let swapped = config.swapped(index);
                let spec = GameSpec {
                    scenario: &config.scenario,
                    text: &config.scenario_text,
                    file: &config.scenario_file,
                    options: variants[variant].options,
                    seed,
                    players: [
                        (config.players[0].as_str(), player_seed(seed, 0)),
                        (config.players[1].as_str(), player_seed(seed, 1)),
                    ],
                    swapped,
                };
                let stats = play_game(&spec, index)?;
                progress();
                Ok(GameRecord { variant, index, seed, swapped, stats })
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
    Ok(Simulation { config: config.clone(), variants, records, seconds, threads })
}

/// The side player `slot` (0 or 1) plays in a game.
pub fn side_of(record: &GameRecord, slot: usize) -> Side {
    if (slot == 1) != record.swapped { Side::B } else { Side::A }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Compare;

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
        c.compare = Some(Compare::parse("initiative=cards,alternate").unwrap());
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
}
