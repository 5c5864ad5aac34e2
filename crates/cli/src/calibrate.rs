//! `pacw train calibrate`: how well the evaluator's chances match what happens in games it never saw.

use crate::args::Usage;
use crate::progress::progress_bar;
use crate::source::scenario_text;
use anyhow::{Context, Result};
use clap::Args;
use pacw_ai::Evaluator;
use pacw_engine::Scenario;
use pacw_learn::calibrate::{self, Calibration};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// The measurement's settings.
#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// The weights to measure (default: this build's own).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Battles to play: shipped names or scenario files (default: every shipped battle).
    #[arg(long = "battle", value_name = "SCENARIO")]
    battles: Vec<String>,
    /// A pair of players, as A,B; may be repeated (default greedy,greedy). They swap sides every other game.
    #[arg(long = "players", value_name = "A,B", value_parser = crate::args::players)]
    players: Vec<[String; 2]>,
    /// Games on each battle for each pair of players: one number for every pair, or one a pair (`150,20`). Half of
    /// them fit the baseline (a logistic regression on material and shaken strength, per battle and point of the
    /// game), the other half are scored.
    #[arg(long, value_name = "N[,N…]", default_value = "80", value_delimiter = ',', value_parser = crate::args::games)]
    games: Vec<u64>,
    /// The seed of the games' dice (never a training game's).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Threads (default: all cores).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Also write every judged position to this CSV file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Also play each scored position out this many times by the game's own players with fresh dice, and score the
    /// play-outs' mean beside the judges: about as near the truth as a judge of these players' games can come.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    playouts: u32,
    /// Print the measurement as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the measurement.
///
/// # Errors
/// When the weights or a battle cannot be read or are not good ones, the baseline cannot be fitted (fewer than four
/// games a battle), a player is unknown or `--games` does not fit the pairs of players (bad usage), the thread pool cannot be
/// started, or the CSV file or standard output cannot be written.
pub fn run(args: CalibrateArgs) -> Result<ExitCode> {
    let evaluator = match &args.weights {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            Evaluator::parse(&text).with_context(|| path.display().to_string())?
        }
        None => Evaluator::embedded(),
    };
    let names: Vec<String> = if args.battles.is_empty() {
        pacw_engine::SHIPPED_SCENARIOS.iter().map(|s| s.name.to_string()).collect()
    } else {
        args.battles.clone()
    };
    let battles = names
        .iter()
        .map(|name| {
            let (text, file) = scenario_text(name)?;
            Ok((name.clone(), Arc::new(Scenario::parse_reading(&text, &file, &crate::source::beside(&file))?)))
        })
        .collect::<Result<Vec<_>>>()?;
    let pairs = if args.players.is_empty() { vec![["greedy".to_string(), "greedy".to_string()]] } else { args.players };
    for name in pairs.iter().flatten() {
        pacw_sim::config::check_player(name).map_err(crate::lab::sim_error)?;
    }
    let counts = match args.games.len() {
        1 => vec![args.games[0]; pairs.len()],
        n if n == pairs.len() => args.games.clone(),
        n => return Err(Usage(format!("--games gives {n} counts for {} pairs of players", pairs.len())).into()),
    };
    let games = calibrate::games(&battles, &pairs, &counts, args.seed);
    let bar = progress_bar(games.len() as u64);
    let work = || calibrate::judge_games(&games, &evaluator, args.playouts, &|| bar.inc(1));
    let positions = match args.threads {
        None => work(),
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t as usize).build()?.install(work),
    }?;
    bar.finish_and_clear();
    let judged = calibrate::score(&positions)?;
    if let Some(path) = &args.out {
        let mut out = csv::Writer::from_path(path).with_context(|| format!("cannot write {}", path.display()))?;
        for j in &judged {
            let row = (&j.battle, &j.players[0], &j.players[1], j.checkpoint, j.evaluator, j.baseline, j.playouts);
            out.serialize((row, j.result))?;
        }
        out.flush()?;
    }
    let calibration = calibrate::summarise(&judged, games.len());
    let mut stdout = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({"evaluator": evaluator.version(), "calibration": calibration});
        writeln!(stdout, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        print_tables(&mut stdout, evaluator.version(), &calibration)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_tables(out: &mut impl Write, version: &str, c: &Calibration) -> std::io::Result<()> {
    writeln!(out, "{version}: {} games, half of them scored (the baseline is fitted to the other half)\n", c.games)?;
    let played_out = c.brier.iter().all(|r| r.playouts.is_some());
    let heading = if played_out { format!(" {:>10}", "play-outs") } else { String::new() };
    writeln!(
        out,
        "{:<34} {:>9} {:>10} {:>10} {:>12}{heading}",
        "positions", "judged", "evaluator", "baseline", "improvement"
    )?;
    for r in &c.brier {
        let playouts = r.playouts.map_or(String::new(), |p| format!(" {p:>10.4}"));
        writeln!(
            out,
            "{:<34} {:>9} {:>10.4} {:>10.4} {:>11.1}%{playouts}",
            r.what,
            r.positions,
            r.evaluator,
            r.baseline,
            100.0 * r.improvement
        )?;
    }
    writeln!(out, "\n{:<10} {:>9} {:>10} {:>10}", "chance", "judged", "predicted", "observed")?;
    for d in &c.reliability {
        let share = |x: f64| if d.positions == 0 { "—".to_string() } else { format!("{:.1}%", 100.0 * x) };
        writeln!(
            out,
            "{:<10} {:>9} {:>10} {:>10}",
            format!("{:.0}–{:.0}%", d.from * 100.0, d.from * 100.0 + 10.0),
            d.positions,
            share(d.predicted),
            share(d.observed)
        )?;
    }
    writeln!(
        out,
        "\nworst decile (of those with {} positions or more): off by {:.1} points",
        calibrate::DECILE_MIN_POSITIONS,
        100.0 * c.worst_decile
    )?;
    Ok(())
}
