//! `pacw simulate`: many computer-vs-computer games, with statistics, intervals, charts and reports (pacw-sim).

use crate::args::Usage;
use crate::source::scenario_text;
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use pacw_engine::Scenario;
use pacw_sim::{Compare, Report, SimConfig, SimError, render_text, run, write_dir};
use std::io::IsTerminal;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `pacw simulate`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  pacw simulate bloody-lane --games 2000\n  pacw simulate meeting-engagement --games 2000 \
                  --compare initiative=cards,igougo,alternate --out report/\n\nExit status: 0 done, 1 failed while \
                  running or writing, 2 bad usage."
)]
pub struct SimulateArgs {
    /// A scenario file (TOML), or the name of a shipped scenario (see `pacw scenarios`).
    pub scenario: String,
    /// Games to play (for each value with --compare), at least 1.
    #[arg(long, value_name = "N", value_parser = crate::args::games)]
    pub games: u64,
    /// The seed: the same seed and arguments give the same games and statistics on any number of threads.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The two computer players, as A,B; they swap sides every other game.
    #[arg(long, value_name = "A,B", default_value = "random,random", help = players_help(), value_parser = crate::args::players)]
    pub players: [String; 2],
    /// Set a rule option for every game, as OPTION=VALUE (RULES.md R11); may be repeated.
    #[arg(long = "set", value_name = "OPTION=VALUE", value_parser = crate::args::set)]
    pub set: Vec<(String, String)>,
    /// Compare values of one option side by side, as OPTION=V1,V2,... (e.g. initiative=cards,igougo,alternate);
    /// each value gets --games games and the differences are tested for significance.
    #[arg(long, value_name = "OPTION=V1,V2,...", value_parser = crate::args::compare)]
    pub compare: Option<Compare>,
    /// Threads to play on (default: all cores); the results do not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Write results.json, games.csv, SVG charts and index.html into this folder (created if needed).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the results as one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Keep the first player on the scenario's first side in every game (by default they swap every other game).
    #[arg(long)]
    pub fixed_sides: bool,
}

/// The help of `--players`, naming the players this build knows.
fn players_help() -> String {
    format!(
        "The two computer players, as A,B (known: {}); they swap sides every other game",
        pacw_ai::PLAYERS.join(", ")
    )
}

/// The settings from the arguments: a scenario that cannot be read or checked is a bad file (exit 1), a
/// combination the options do not allow is bad usage (exit 2).
fn config(args: &SimulateArgs) -> Result<SimConfig> {
    let (text, file) = scenario_text(&args.scenario)?;
    let scenario = Scenario::parse(&text, &file)?;
    let scenario = Arc::new(scenario);
    let mut config = SimConfig::new(scenario.clone(), &text, &file);
    crate::args::apply_sets(&scenario, &mut config.options, &args.set).map_err(|e| Usage(e.to_string()))?;
    config.compare = args.compare.clone();
    config.players = args.players.clone();
    config.games = args.games as usize;
    config.seed = args.seed;
    config.fixed_sides = args.fixed_sides;
    config.threads = args.threads.map(|t| t as usize);
    config.validate().map_err(|e: SimError| Usage(e.to_string()))?;
    Ok(config)
}

/// The command line as typed, for the report.
fn command_line() -> String {
    let words = std::env::args().skip(1).map(|a| {
        if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"$`\\".contains(c)) {
            format!("'{}'", a.replace('\'', r"'\''"))
        } else {
            a
        }
    });
    std::iter::once("pacw".to_string()).chain(words).collect::<Vec<_>>().join(" ")
}

/// Runs the simulation and prints or writes its report.
pub fn run_simulate(args: SimulateArgs) -> Result<ExitCode> {
    let config = config(&args)?;
    let variants = config.compare.as_ref().map_or(1, |c| c.values.len());
    let total = (config.games * variants) as u64;
    let bar = if std::io::stderr().is_terminal() && std::io::stdout().is_terminal() {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {rate}  {elapsed} elapsed, {eta} left")
                .expect("a valid template")
                .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0} games/s", state.per_sec());
                }),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let result = run(&config, &|| bar.inc(1));
    bar.finish_and_clear();
    let sim = match result {
        Ok(sim) => sim,
        Err(e) if e.is_usage() => return Err(Usage(e.to_string()).into()),
        Err(e) => return Err(e.into()),
    };
    let report = Report::new(&sim, Some(command_line()));
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", report.to_json())?;
    } else {
        write!(out, "{}", render_text(&report))?;
    }
    if let Some(dir) = &args.out {
        write_dir(&report, &sim, dir)?;
        if !args.json {
            writeln!(out, "\nReport: {}", dir.join(pacw_sim::report::INDEX_HTML).display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
