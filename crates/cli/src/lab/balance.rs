//! `pacw balance`: a scenario's turn limit, exhaustion points and objective points tuned toward an even game
//! (pacw-sim's `balance`).

use super::sim_error;
use crate::progress::progress_bar;
use crate::source::scenario_text;
use anyhow::{Context, Result};
use clap::Args;
use pacw_sim::balance::{BalanceConfig, TUNABLE, balance, max_games, render_text};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pacw balance`.
#[derive(Args, Debug)]
#[command(
    after_help = "The search races candidate values on the same games (seeds and sides), dropping a candidate once \
                  it is surely farther from an even game than the best, and doubling the games of the others up to \
                  --games. The balanced scenario is the same text with only the tuned numbers changed.\n\nExamples:\n  \
                  pacw balance mcpherson-ridge --players greedy,greedy --games 2000 --out balanced.toml\n  pacw \
                  balance scenarios/bloody-lane.toml --tune turns,exhaustion,points --games 1000\n\nExit status: 0 done, 1 \
                  failed while running or writing, 2 bad usage."
)]
pub struct BalanceArgs {
    /// A scenario file (TOML), or the name of a shipped scenario.
    pub scenario: String,
    /// The two computer players, as A,B; they swap sides every other game.
    #[arg(long, value_name = "A,B", default_value = "greedy,greedy", value_parser = crate::args::players)]
    pub players: [String; 2],
    /// What to tune, comma-separated: turns, exhaustion (both sides), points (every objective).
    #[arg(long, value_name = "LIST", default_value = "turns,exhaustion", value_delimiter = ',', value_parser = tunable)]
    pub tune: Vec<String>,
    /// The most games a candidate plays (the search stops earlier where it can).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = crate::args::games)]
    pub games: u64,
    /// The seed.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Threads to play on (default: all cores).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Write the balanced scenario to this file.
    #[arg(long, value_name = "FILE.toml")]
    pub out: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Play every candidate by a variant file's rules (docs/variants.md), laid over the battle's own variant if it
    /// names one; give it again to lay more files over it, in order.
    #[arg(long, value_name = "FILE.toml")]
    pub variant: Vec<PathBuf>,
    /// Set a rule option for every candidate, as NAME=VALUE (not one of the numbers being tuned).
    #[arg(long = "set", value_name = "OPTION=VALUE", value_parser = crate::args::set)]
    pub set: Vec<(String, String)>,
}

fn tunable(text: &str) -> Result<String, String> {
    let t = text.trim();
    if TUNABLE.contains(&t) {
        Ok(t.to_string())
    } else {
        Err(format!("'{t}' cannot be tuned (known: {})", TUNABLE.join(", ")))
    }
}

/// Runs the search and prints the result.
///
/// # Errors
/// When the scenario or the variant file cannot be read or is not a good one, the search's settings are refused (bad
/// usage) or it fails ([`pacw_sim::balance`]), or the balanced scenario or standard output cannot be written.
pub fn run(args: BalanceArgs) -> Result<ExitCode> {
    let (text, file) = scenario_text(&args.scenario)?;
    let rules = crate::source::rules_for(&text, &file, &args.variant)?;
    let scenario = match &rules {
        Some(rules) => pacw_engine::Scenario::parse_with(&text, &file, rules.clone())?,
        None => pacw_engine::Scenario::parse_reading(&text, &file, &crate::source::beside(&file))?,
    };
    // A number being tuned cannot also be set: the search would race candidates that all play the same.
    let tuned = |name: &str| match name.split('.').next() {
        Some("turns") => args.tune.iter().any(|t| t == "turns"),
        Some("exhaustion") => args.tune.iter().any(|t| t == "exhaustion"),
        _ => false,
    };
    if let Some((name, _)) = args.set.iter().find(|(name, _)| tuned(name)) {
        eprintln!("error: --set {name} sets a number --tune tunes; leave it to the search or tune something else");
        return Ok(ExitCode::from(2));
    }
    let config = BalanceConfig {
        players: args.players.clone(),
        tune: args.tune.clone(),
        games: args.games as usize,
        seed: args.seed,
        threads: args.threads.map(|t| t as usize),
        // The variant given, else the one the scenario names (perhaps a file beside it, which the search's
        // rewritten copies could not read again).
        rules: rules.or_else(|| scenario.variant().is_some().then(|| scenario.combat_system())),
        sets: args.set.clone(),
    };
    let bar = progress_bar(max_games(&scenario, &config).map_err(sim_error)?);
    let result = balance(&text, &file, &config, &|| bar.inc(1));
    bar.finish_and_clear();
    let b = result.map_err(sim_error)?;
    let mut out = std::io::stdout().lock();
    if let Some(path) = &args.out {
        std::fs::write(path, &b.text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&b)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    write!(out, "{}", render_text(&b, &file, &config, args.out.as_deref()))?;
    Ok(ExitCode::SUCCESS)
}
