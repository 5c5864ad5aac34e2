//! `pacw sensitivity`: which numbers of the combat system change outcomes (pacw-sim's `sensitivity`).

use super::{LabArgs, command_line, config, sim_error};
use crate::progress::progress_bar;
use anyhow::Result;
use clap::Args;
use pacw_sim::run::game_count;
use pacw_sim::sensitivity::{SensitivityReport, plan, render_text, tables, write_dir};
use pacw_sim::{Report, run};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pacw sensitivity`.
#[derive(Args, Debug)]
#[command(
    after_help = "Each of the five modifiers, the three strengths and the two quality steps is removed (set to 0, \
                  for modifiers and quality) and moved one step down and up; every change plays the same games as \
                  the base, and its effect on the first side's win rate, game length, losses to shooting, the share \
                  of charges and shaken units hit again is measured with its 95% interval.\n\nExamples:\n  pacw \
                  sensitivity meeting-engagement --games 2000 --players greedy,greedy\n  pacw sensitivity \
                  scenarios/*.toml --games 1000 --players greedy,greedy --out sensitivity/\n\nExit status: 0 done, 1 \
                  failed while running or writing, 2 bad usage."
)]
pub struct SensitivityArgs {
    #[command(flatten)]
    pub lab: LabArgs,
    /// Write sensitivity.json, games.csv, tornado charts and index.html into this folder.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Runs the changes and prints or writes the ranked tables.
///
/// # Errors
/// When the scenarios or the variant file cannot be read or are not good ones, the settings are refused (bad usage), a
/// game fails, or the report cannot be written.
pub fn run_sensitivity(args: SensitivityArgs) -> Result<ExitCode> {
    let mut config = config(&args.lab)?;
    let changes = plan(&mut config).map_err(sim_error)?;
    config.validate().map_err(sim_error)?;
    let bar = progress_bar(game_count(&config) as u64);
    let result = run(&config, &|| bar.inc(1));
    bar.finish_and_clear();
    let sim = result.map_err(sim_error)?;
    let report = Report::against_first(&sim, Some(command_line()));
    let result = SensitivityReport { tables: tables(&sim, &report, &changes), report };
    let mut out = std::io::stdout().lock();
    if args.lab.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&result)?)?;
    } else {
        write!(out, "{}", render_text(&result))?;
    }
    if let Some(dir) = &args.out {
        write_dir(&result, &sim, dir)?;
        if !args.lab.json {
            writeln!(out, "\nReport: {}", dir.join(pacw_sim::site::INDEX_HTML).display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
