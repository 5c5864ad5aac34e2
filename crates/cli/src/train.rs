//! `pacw train`: the evaluator's training — labelled positions (sharded), the fit, and its calibration.

use crate::args::Usage;
use crate::lab::portable_command_line;
use crate::progress::progress_bar;
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use pacw_engine::system::CombatSystem;
use pacw_learn::fit::{FitConfig, Fitted, Kind, Metrics, fit_with_progress};
use pacw_learn::positions::{self, PositionsConfig};
use pacw_sim::Shard;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `pacw train`: with no step named, labels every position and fits in one run.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  pacw train --out crates/ai/weights/evaluator.json          # the whole training (about 9 minutes on 2 cores)
  pacw train positions --shard 1/4 --out parts/              # one machine's share of the labelled positions
  pacw train fit parts/*.csv --out weights.json              # the fit, from every shard's file
  pacw train calibrate --weights weights.json --games 160   # per-battle baseline fitted to half the games
  pacw train selfplay --checkpoint selfplay.json --games 200000   # the value network, by self-play")]
pub struct TrainArgs {
    #[command(subcommand)]
    step: Option<Step>,
    #[command(flatten)]
    positions: PositionArgs,
    #[command(flatten)]
    fit: FitArgs,
    /// Also keep the labelled positions, as DIR/positions-1-of-1.csv.
    #[arg(long, value_name = "DIR")]
    keep_positions: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Step {
    /// Play training games and label positions of them with play-outs (one shard of them with --shard K/N).
    Positions {
        #[command(flatten)]
        positions: PositionArgs,
        /// This machine's share of the games: those whose index is K−1 modulo N.
        #[arg(long, value_name = "K/N", value_parser = crate::args::shard, default_value = "1/1")]
        shard: Shard,
        /// The folder to write positions-K-of-N.csv into.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Fit the model to labelled positions: every shard's file of one run.
    Fit {
        /// The positions files (positions-K-of-N.csv), every shard of one run.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        fit: FitArgs,
    },
    /// How well a model's chances match what happens in games it never saw: Brier scores and a reliability table.
    Calibrate(crate::calibrate::CalibrateArgs),
    /// Train the value network by self-play (TD(λ)), checkpointing after every round; resumable.
    Selfplay(Box<crate::selfplay::SelfPlayArgs>),
}

/// What decides the labelled positions.
#[derive(Args, Debug, Clone)]
struct PositionArgs {
    /// Training games to play.
    #[arg(long, value_name = "N", default_value_t = PositionsConfig::default().games)]
    games: u64,
    /// The seed of every game, play-out and choice: the same seed gives the same positions on any threads.
    #[arg(long, value_name = "S", default_value_t = PositionsConfig::default().seed)]
    seed: u64,
    /// Greedy play-outs labelling each position.
    #[arg(long, value_name = "R", default_value_t = PositionsConfig::default().rollouts)]
    rollouts: u32,
    /// Positions taken from each game.
    #[arg(long, value_name = "M", default_value_t = PositionsConfig::default().per_game)]
    per_game: u32,
    /// A shipped battle training never plays, so that calibration can be measured on it; may be repeated.
    #[arg(long = "hold-out", value_name = "NAME", default_values_t = PositionsConfig::default().held_out)]
    held_out: Vec<String>,
    /// The share of games on random battles.
    #[arg(long, value_name = "F", default_value_t = PositionsConfig::default().generated)]
    generated: f64,
    /// The share of games under a random rule variant.
    #[arg(long, value_name = "F", default_value_t = PositionsConfig::default().variants)]
    variants: f64,
    /// Threads (default: all cores); the positions do not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Train for a variant: every game played by this variant file's rules (docs/variants.md); give it again to lay
    /// more files over it, in order.
    #[arg(long, value_name = "FILE")]
    variant: Vec<PathBuf>,
}

/// How to fit.
#[derive(Args, Debug, Clone)]
struct FitArgs {
    /// The model: `logistic`, or `mlp:H` (the odd network with H hidden units).
    #[arg(long, value_name = "KIND", default_value = "mlp:32", value_parser = model_kind)]
    model: Kind,
    /// Full-batch steps of the optimiser (default: 1500 for logistic, 1000 for mlp).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    steps: Option<u64>,
    /// The optimiser's learning rate (default: 0.05 for logistic, 0.03 for mlp).
    #[arg(long, value_name = "RATE")]
    learning_rate: Option<f64>,
    /// The weights' version, recorded by every review that uses them.
    #[arg(long, value_name = "NAME", default_value = "evaluator-1")]
    version: String,
    /// Where to write the weights file (JSON); without it they are printed.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print the fit's figures as JSON.
    #[arg(long)]
    json: bool,
}

fn model_kind(text: &str) -> Result<Kind, String> {
    match text {
        "logistic" => Ok(Kind::Logistic),
        _ => match text.strip_prefix("mlp:").map(str::parse::<usize>) {
            Some(Ok(h)) if (1..=pacw_ai::evaluator::MAX_HIDDEN).contains(&h) => Ok(Kind::Mlp(h)),
            _ => Err(format!("'{text}' is not a model: use logistic or mlp:H, H from 1 to 256")),
        },
    }
}

impl PositionArgs {
    fn config(&self) -> Result<PositionsConfig> {
        let config = PositionsConfig {
            games: self.games,
            seed: self.seed,
            rollouts: self.rollouts,
            per_game: self.per_game,
            held_out: self.held_out.clone(),
            generated: self.generated,
            grand: 0.0,
            variants: self.variants,
            rules: self.rules()?,
        };
        config.check().map_err(|e| Usage(e.to_string()))?;
        Ok(config)
    }

    /// The `--variant` files laid over the standard in order, as (file, text): several are kept as the one file that
    /// says them all ([`CombatSystem::source`]). A file that cannot be read is a failure, a bad one bad usage, as
    /// the settings are.
    fn rules(&self) -> Result<Option<(String, String)>> {
        let mut system: Option<CombatSystem> = None;
        for path in &self.variant {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read variant file {}", path.display()))?;
            let below = system.unwrap_or_else(CombatSystem::standard);
            system = Some(below.with_layer(&text, &path.display().to_string()).map_err(|e| Usage(e.to_string()))?);
        }
        Ok(system.as_ref().and_then(CombatSystem::source).map(|(file, text)| (file.to_string(), text.to_string())))
    }
}

/// Runs `pacw train`.
///
/// # Errors
/// When the settings are refused (bad usage), a variant file or the positions files cannot be read or are not good
/// ones, the thread pool cannot be started, the fit fails, or a file cannot be written.
pub fn run(args: TrainArgs) -> Result<ExitCode> {
    match args.step {
        Some(Step::Positions { positions, shard, out }) => {
            let config = positions.config()?;
            let rows = label(&config, Some(shard), positions.threads)?;
            std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
            let path = out.join(positions::file_name(shard));
            positions::write(&path, &config, shard, &rows)?;
            eprintln!("{} positions written to {}", rows.len(), path.display());
            Ok(ExitCode::SUCCESS)
        }
        Some(Step::Fit { files, fit }) => {
            let (config, rows) = positions::read(&files)?;
            fit_and_write(&config, &rows, &fit)
        }
        Some(Step::Calibrate(c)) => crate::calibrate::run(c),
        Some(Step::Selfplay(s)) => crate::selfplay::run(*s),
        None => {
            let config = args.positions.config()?;
            let rows = label(&config, None, args.positions.threads)?;
            if let Some(dir) = &args.keep_positions {
                std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
                let whole = Shard { k: 1, n: 1 };
                positions::write(&dir.join(positions::file_name(whole)), &config, whole, &rows)?;
            }
            fit_and_write(&config, &rows, &args.fit)
        }
    }
}

/// Labels the positions of a shard's games (all with `None`) with a progress bar.
fn label(config: &PositionsConfig, shard: Option<Shard>, threads: Option<u64>) -> Result<Vec<positions::Row>> {
    let bar = progress_bar(positions::shard_games(config, shard));
    let work = || positions::label_games(config, shard, &|| bar.inc(1));
    let rows = match threads {
        None => work(),
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t as usize).build()?.install(work),
    };
    bar.finish_and_clear();
    Ok(rows)
}

fn fit_and_write(config: &PositionsConfig, rows: &[positions::Row], args: &FitArgs) -> Result<ExitCode> {
    let trained = format!(
        "{} ({} positions of {} games, {} play-outs each, held out: {}; rules: {})",
        portable_command_line(),
        rows.len(),
        config.games,
        config.rollouts,
        if config.held_out.is_empty() { "none".to_string() } else { config.held_out.join(", ") },
        config.rules.as_ref().map_or("standard", |(file, _)| file.as_str())
    );
    let mut config = FitConfig::new(args.model);
    config.steps = args.steps.map_or(config.steps, |s| s as usize);
    config.learning_rate = args.learning_rate.filter(|r| *r > 0.0 && r.is_finite()).unwrap_or(config.learning_rate);
    let bar = progress_bar(config.steps as u64).with_message("steps of the fit");
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}  {elapsed} elapsed, {eta} left")
            .expect("a valid template"),
    );
    let fitted = fit_with_progress(rows, &config, &args.version, &trained, &|step| bar.set_position(step as u64))?;
    bar.finish_and_clear();
    let json = serde_json::to_string_pretty(&fitted.file)? + "\n";
    match &args.out {
        Some(path) => write_file(path, &json)?,
        None => std::io::Write::write_all(&mut std::io::stdout().lock(), json.as_bytes())?,
    }
    report(&fitted, args.json)?;
    Ok(ExitCode::SUCCESS)
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn report(fitted: &Fitted, json: bool) -> Result<()> {
    let mut err = std::io::stderr().lock();
    if json {
        let figures =
            serde_json::json!({"version": fitted.file.version, "train": fitted.train, "validation": fitted.validation});
        writeln!(err, "{}", serde_json::to_string_pretty(&figures)?)?;
        return Ok(());
    }
    let line = |name: &str, m: &Metrics| {
        format!(
            "{name:<11} {:>8} positions  log-loss {:.4}  Brier {:.4} against the play-outs, {:.4} against the games",
            m.positions, m.log_loss, m.brier_rollouts, m.brier_results
        )
    };
    writeln!(
        err,
        "{}\n{}\n{}",
        fitted.file.version,
        line("fitted", &fitted.train),
        line("kept out", &fitted.validation)
    )?;
    Ok(())
}
