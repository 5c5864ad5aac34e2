//! `pacw simulate`: many computer-vs-computer games, with statistics, intervals, charts and reports (pacw-sim).

use super::{LabArgs, command_line, config, sim_error};
use crate::args::Usage;
use crate::progress::progress_bar;
use anyhow::Result;
use clap::Args;
use pacw_sim::run::{SaveGames, game_count};
use pacw_sim::shard::write_shard;
use pacw_sim::{Axis, Report, Shard, render_text, run_saving, write_dir};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pacw simulate`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  pacw simulate bloody-lane --games 2000\n  pacw simulate meeting-engagement --games 2000 \
                  --compare initiative=cards,igougo,alternate --out report/\n  pacw simulate meeting-engagement \
                  --games 1000 --players greedy,greedy --compare to_hit=3..6 --compare once_per_turn=false,true \
                  --out grid/\n  pacw simulate scenarios/*.toml --games 500 --variant variants/no-cover.toml\n  \
                  pacw simulate bloody-lane --games 2000 --save-games saves/ --save-only 0-9\n  pacw simulate bloody-lane --games 200 --players general,greedy --luck\n  pacw simulate \
                  meeting-engagement --games 1000 --players greedy,greedy --compare players=greedy,mcts:400\n  \
                  pacw simulate bloody-lane --games 2000 --shard 2/4 --out shard2/\n\nExit status: 0 done, 1 failed while running or writing, 2 bad usage."
)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub lab: LabArgs,
    /// Compare values of an option, as OPTION=V1,V2,... or OPTION=LO..HI (both ends included, e.g. to_hit=3..6);
    /// players=A,B,... compares computer players (each replaces the first of --players); rules=standard,FILE,...
    /// compares whole rule sets (standard: the standard rules alone; a variant file: laid over the battle's own
    /// variant in place of --variant, docs/variants.md). Give it twice for a grid.
    /// Every variant plays the same games (seeds and sides), and differences are tested game by game.
    #[arg(long, value_name = "OPTION=VALUES", value_parser = crate::args::compare)]
    pub compare: Vec<Axis>,
    /// Write results.json, games.csv, SVG charts and index.html into this folder (created if needed); with
    /// --shard, the shard's results for `pacw merge`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Keep the first player on the scenario's first side in every game (by default they swap every other game).
    #[arg(long)]
    pub fixed_sides: bool,
    /// Play only shard K of N (the games whose number is K−1 modulo N) and write them to --out for `pacw merge`.
    #[arg(long, value_name = "K/N", value_parser = crate::args::shard, requires = "out")]
    pub shard: Option<Shard>,
    /// Write games as saves into this folder, for `pacw replay` and the web app's "open a save"; games.csv names
    /// each save.
    #[arg(long, value_name = "DIR")]
    pub save_games: Option<PathBuf>,
    /// With --save-games: only these game numbers (from 0, in every variant), as 0-9,42.
    #[arg(long, value_name = "LIST", requires = "save_games", value_parser = crate::args::save_only)]
    pub save_only: Option<crate::args::GameList>,
    /// Review each game by the evaluator for the luck of its dice and cards (as `pacw review --quick` does) and
    /// report each side's and player's luck-adjusted score: its result less its luck. Luck averages nought, so
    /// the adjusted score measures the same strength or balance with a narrower interval (docs/laboratory.md).
    #[arg(long)]
    pub luck: bool,
}

/// Runs the simulation and prints or writes its report.
///
/// # Errors
/// When the scenarios or a variant file cannot be read or are not good ones, the settings are refused (bad usage), a
/// game fails, or the report, the shard file or a save cannot be written.
pub fn run_simulate(args: SimulateArgs) -> Result<ExitCode> {
    let mut config = config(&args.lab)?;
    config.compare(args.compare.clone()).map_err(sim_error)?;
    super::read_rule_sets(&mut config)?;
    config.fixed_sides = args.fixed_sides;
    config.shard = args.shard;
    config.luck = args.luck;
    config.validate().map_err(sim_error)?;
    let save = args.save_games.clone().map(|dir| SaveGames { dir, only: args.save_only.clone().map(|l| l.0) });
    let bar = progress_bar(game_count(&config) as u64);
    let result = run_saving(&config, save.as_ref(), &|| bar.inc(1));
    bar.finish_and_clear();
    let sim = result.map_err(sim_error)?;
    let mut out = std::io::stdout().lock();
    if let Some(shard) = config.shard {
        let dir = args.out.as_ref().ok_or_else(|| Usage("--shard needs --out".into()))?;
        let path = write_shard(&sim, dir)?;
        writeln!(
            out,
            "shard {}/{}: {} games in {:.1} s, written to {}; combine the {} shards with pacw merge",
            shard.k,
            shard.n,
            sim.records.len(),
            sim.seconds,
            path.display(),
            shard.n
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let report = Report::new(&sim, Some(command_line()));
    if args.lab.json {
        writeln!(out, "{}", report.to_json())?;
    } else {
        write!(out, "{}", render_text(&report))?;
    }
    if let Some(dir) = &args.out {
        write_dir(&report, &sim, dir)?;
        if !args.lab.json {
            writeln!(out, "\nReport: {}", dir.join(pacw_sim::site::INDEX_HTML).display())?;
        }
    }
    if let (Some(save), false) = (&save, args.lab.json) {
        let saved = sim.records.iter().filter(|r| r.save.is_some()).count();
        writeln!(out, "Saved {saved} games in {}", save.dir.display())?;
    }
    Ok(ExitCode::SUCCESS)
}
