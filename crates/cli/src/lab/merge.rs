//! `pacw merge`: the shards of a simulation (`simulate --shard K/N`) combined into the report the unsharded run
//! gives.

use super::command_line;
use anyhow::Result;
use clap::Args;
use pacw_sim::shard::{merge, read_shards};
use pacw_sim::{Report, render_text, write_dir};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pacw merge`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples (each shard can run on another machine; docs/laboratory.md shows GNU parallel, Slurm and \
                  Kubernetes):\n  pacw simulate bloody-lane --games 400 --shard 1/2 --out shard1\n  pacw simulate \
                  bloody-lane --games 400 --shard 2/2 --out shard2\n  pacw merge shard1 shard2 --out report/\n\nExit status: 0 done, 1 a shard is missing, \
                  repeated, unreadable or of another simulation, 2 bad usage."
)]
pub struct MergeArgs {
    /// Folders written by `simulate --shard K/N --out DIR`, or their shard-K-of-N.json files.
    #[arg(required = true, value_name = "DIR")]
    pub shards: Vec<PathBuf>,
    /// Write results.json, games.csv, SVG charts and index.html into this folder.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the results as one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Merges the shards and prints or writes the report.
///
/// # Errors
/// When the shards cannot be read or merged, or the report cannot be written.
pub fn run(args: MergeArgs) -> Result<ExitCode> {
    let sim = merge(read_shards(&args.shards)?)?;
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
            writeln!(out, "\nReport: {}", dir.join(pacw_sim::site::INDEX_HTML).display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
