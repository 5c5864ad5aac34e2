//! `pacw`: the Portable ACW Wargame on the command line.
//!
//! Every command writes with `writeln!` and returns its errors, never `print!`, which panics when the reader of a
//! pipe has gone (`pacw odds --table | head`); [`report`] ends such a command quietly with exit 0. The lint below
//! keeps it so.
#![deny(clippy::print_stdout)]
#![deny(missing_docs)]
// A binary exports nothing, so clippy checks the next two lints here only with `check-private-items`: the `pub`
// functions' # Errors and # Panics sections are kept by hand.
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]
// The doc comments of the arguments are the commands' --help, written for a terminal (ARM[:QUALITY], DIR/<id>.json):
// rustdoc does not read them as Markdown.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags, rustdoc::bare_urls)]

mod args;
mod backup;
mod board;
mod calibrate;
mod check;
mod games;
mod lab;
mod odds;
mod perft;
mod play;
mod progress;
mod replay;
mod review;
mod rules;
mod selfplay;
mod serve;
mod source;
mod static_site;
mod tactics;
mod train;
mod users;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// The Portable ACW Wargame: play it, know the odds, test the rules.
#[derive(Parser)]
#[command(name = "pacw", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The value network that `td` and the search's `:e4` play by in this command: a weights file written by `pacw
    /// train selfplay --export` (default: the one this build embeds). The review and the luck keep the judge in force.
    #[arg(long, global = true, value_name = "FILE")]
    network: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Check scenario files and report every mistake in them (exit 1 if any is bad).
    Check {
        /// Scenario files (TOML), or names of shipped scenarios.
        #[arg(required = true)]
        files: Vec<String>,
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Draw a scenario's board as text: terrain, elevation, fences, objectives and units.
    Show {
        /// A scenario file, or the name of a shipped scenario (see `pacw scenarios`).
        scenario: String,
        /// Print the checked scenario as JSON instead.
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal: hot-seat, or against the computer with --vs.
    Play(play::PlayArgs),
    /// The exact odds of an attack before the dice are rolled: abstract, on a scenario's board, or the full table.
    Odds(odds::OddsArgs),
    /// Replay a saved game and print its full event log.
    #[command(after_help = "Examples:\n  pacw replay game.json\n  pacw replay game.json --json --legal")]
    Replay {
        /// The save file (JSON) written by `pacw play --save`.
        file: PathBuf,
        /// Print the events as JSON.
        #[arg(long)]
        json: bool,
        /// With --json: print {"events": [...], "legal": [...]}, the legal actions at the save's end as the web
        /// API gives them (index, action, words, exact odds), for scripts.
        #[arg(long, requires = "json")]
        legal: bool,
    },
    /// Review a saved game: who was winning at every step, which decisions lost it and how much was luck.
    Review(review::ReviewArgs),
    /// Simulate many computer-vs-computer games, with statistics, intervals, charts and reports.
    Simulate(lab::simulate::SimulateArgs),
    /// Combine the shards of a simulation (`simulate --shard K/N`) into its report.
    Merge(lab::merge::MergeArgs),
    /// Which numbers of the combat system matter: each modifier, strength and quality changed in turn.
    Sensitivity(lab::sensitivity::SensitivityArgs),
    /// Tune a scenario's turn limit, exhaustion and objective points toward an even game.
    Balance(lab::balance::BalanceArgs),
    /// A round robin between computer players on the shipped battles, with Elo ratings and their intervals.
    Tournament(lab::tournament::TournamentArgs),
    /// Check the review's advice: each labelled decision of the saves played both ways and continued by greedy.
    Advice(lab::advice::AdviceArgs),
    /// Put the tactics suite (crates/ai/tactics/) to the computer players: which find each position's best order.
    Tactics(tactics::TacticsArgs),
    /// Count every path of decisions and chance outcomes to a depth, as chess engines' perft does.
    Perft(perft::PerftArgs),
    /// Train the evaluator, the judgement of a position the review and the computer players use.
    Train(train::TrainArgs),
    /// List the shipped scenarios.
    Scenarios,
    /// Print the combat system in force (the standard, or with --variant variant files laid over it, or a battle's)
    /// as a variant file, each rule with the file it came from.
    Rules(rules::RulesArgs),
    /// Start the web app (also what `pacw` alone does): play in the browser, solo, hot-seat or on two machines.
    Serve(serve::ServeArgs),
    /// List the games of a data folder with their links (for the operator), or save them as save files.
    Games(games::GamesArgs),
    /// Write the static build: the app as plain files for any static web host, playing offline in the browser.
    Static(static_site::StaticArgs),
    /// Manage the accounts of a data folder: list, rename, reset a password, disable or enable.
    Users(users::UsersArgs),
    /// Copy a data folder's database to a file while the server serves from it.
    Backup(backup::BackupArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(path) = &cli.network
        && let Err(e) = play_by(path)
    {
        return report(&e);
    }
    let result = match cli.command {
        Some(Command::Check { files, json }) => check::run(&files, json),
        Some(Command::Show { scenario, json }) => check::show(&scenario, json),
        Some(Command::Play(args)) => play::run(args),
        Some(Command::Odds(args)) => odds::run(args),
        Some(Command::Replay { file, json, legal }) => replay::run(&file, json, legal),
        Some(Command::Review(args)) => review::run(args),
        Some(Command::Simulate(args)) => lab::simulate::run_simulate(args),
        Some(Command::Merge(args)) => lab::merge::run(args),
        Some(Command::Sensitivity(args)) => lab::sensitivity::run_sensitivity(args),
        Some(Command::Balance(args)) => lab::balance::run(args),
        Some(Command::Tournament(args)) => lab::tournament::run(args),
        Some(Command::Advice(args)) => lab::advice::run(args),
        Some(Command::Tactics(args)) => tactics::run(args),
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Train(args)) => train::run(args),
        Some(Command::Scenarios) => scenarios(),
        Some(Command::Rules(args)) => rules::run(args),
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Games(args)) => games::run(args, &mut std::io::stdout().lock()),
        Some(Command::Static(args)) => static_site::run(args),
        Some(Command::Users(args)) => users::run(args, &mut std::io::stdout().lock(), &mut std::io::stdin().lock()),
        Some(Command::Backup(args)) => backup::run(args, &mut std::io::stdout().lock()),
        None => serve::run(serve::ServeArgs::default()),
    };
    match result {
        Ok(code) => code,
        Err(e) => report(&e),
    }
}

/// Plays this process's `td` and `:e4` by the network of the file at `path`.
fn play_by(path: &std::path::Path) -> anyhow::Result<()> {
    use anyhow::Context;
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read network file {}", path.display()))?;
    pacw_ai::network::play_by(&text).with_context(|| format!("network file {}", path.display()))?;
    Ok(())
}

fn scenarios() -> anyhow::Result<ExitCode> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    for pacw_engine::Shipped { name, text, .. } in pacw_engine::offered_scenarios() {
        let title = pacw_engine::Scenario::parse(text, name).map(|s| s.name).unwrap_or_default();
        writeln!(out, "{name:<20} {title}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a failure once and chooses the exit code: 2 for bad usage, 1 for anything else (a bad file, a failed
/// check). Output cut short by a closed pipe (`pacw replay game.json | head`) is no failure: exit 0, quietly.
fn report(e: &anyhow::Error) -> ExitCode {
    let broken_pipe = e
        .chain()
        .any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe));
    if broken_pipe {
        return ExitCode::SUCCESS;
    }
    // Each cause once: a context that already quotes its cause is not followed by it again.
    let mut message = String::new();
    for cause in e.chain().map(|c| c.to_string()) {
        if !message.contains(&cause) {
            if !message.is_empty() {
                message.push_str(": ");
            }
            message.push_str(&cause);
        }
    }
    eprintln!("error: {message}");
    if e.downcast_ref::<args::Usage>().is_some() { ExitCode::from(2) } else { ExitCode::FAILURE }
}
