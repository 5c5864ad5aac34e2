//! `pacw tournament`: a round robin between computer players on the shipped battles, with Elo ratings
//! (pacw-sim's `tournament`).

use super::{read_scenarios, sim_error};
use crate::args::Usage;
use crate::progress::progress_bar;
use anyhow::Result;
use clap::Args;
use pacw_engine::SHIPPED_SCENARIOS;
use pacw_sim::tournament::{TournamentConfig, game_count, play, render_text};
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `pacw tournament`.
#[derive(Args, Debug)]
#[command(after_help = "Every two players play the same games on every battle, sides swapping every other game; \
                  the ratings are the Bradley–Terry (Elo) model fitted to all the games, a draw half a win, with 95% \
                  bootstrap intervals.\n\nExamples:\n  pacw tournament --players random,recruit,greedy --games 20\n  \
                  pacw tournament --players greedy,veteran,general --games 4 bloody-lane franklin --json\n  \
                  pacw tournament --players recruit,greedy,veteran,general --games 4 --luck\n\nExit \
                  status: 0 done, 1 failed while running, 2 bad usage.")]
pub struct TournamentArgs {
    /// Battles: scenario files or shipped names (default: the twelve shipped battles).
    #[arg(value_name = "SCENARIO")]
    pub scenarios: Vec<String>,
    /// The players, as A,B,C… (at least two, all different).
    #[arg(long, value_name = "A,B,…", value_delimiter = ',', required = true)]
    pub players: Vec<String>,
    /// Games of each pairing on each battle.
    #[arg(long, value_name = "N", value_parser = crate::args::games)]
    pub games: u64,
    /// The seed of the games (every pairing plays the same ones).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The player rated 0 (default: greedy if playing, else the first).
    #[arg(long, value_name = "PLAYER")]
    pub anchor: Option<String>,
    /// Threads to play on (default: all cores); the results do not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Count each game by its luck-adjusted score (each game reviewed by the evaluator for the luck of its dice
    /// and cards, as `pacw simulate --luck`): the same ratings in expectation, with narrower intervals.
    #[arg(long)]
    pub luck: bool,
    /// Print the results as one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Plays the round robin and prints the ratings.
///
/// # Errors
/// When fewer than two players are given, a player is named twice or is unknown, or the anchor is not playing (bad
/// usage), a battle cannot be read or is not a good one, a game fails, or standard output cannot be written.
pub fn run(args: TournamentArgs) -> Result<ExitCode> {
    let players = args.players;
    if players.len() < 2 {
        return Err(Usage("a tournament needs at least two players".into()).into());
    }
    if let Some(twice) = players.iter().enumerate().find(|(i, p)| players[..*i].contains(p)) {
        return Err(Usage(format!("player '{}' is named twice", twice.1)).into());
    }
    for name in &players {
        pacw_sim::config::check_player(name).map_err(sim_error)?;
    }
    let anchor = match &args.anchor {
        Some(a) => {
            players.iter().position(|p| p == a).ok_or_else(|| Usage(format!("the anchor '{a}' is not playing")))?
        }
        None => players.iter().position(|p| p == "greedy").unwrap_or(0),
    };
    let names: Vec<String> = if args.scenarios.is_empty() {
        SHIPPED_SCENARIOS.iter().map(|s| s.name.to_string()).collect()
    } else {
        args.scenarios
    };
    let config = TournamentConfig {
        scenarios: read_scenarios(&names, &[])?,
        players,
        games: args.games as usize,
        seed: args.seed,
        anchor,
        threads: args.threads.map(|t| t as usize),
        luck: args.luck,
    };
    let bar = progress_bar(game_count(&config) as u64);
    let result = play(&config, &|| bar.inc(1));
    bar.finish_and_clear();
    let tournament = result.map_err(sim_error)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&tournament)?)?;
    } else {
        write!(out, "{}", render_text(&tournament))?;
    }
    Ok(ExitCode::SUCCESS)
}
