//! `pacw advice`: does the review's advice hold up? Each labelled decision of the saves played both ways and
//! continued by greedy against greedy with the same dice for both.

use crate::args::Usage;
use anyhow::{Context, Result};
use clap::Args;
use pacw_ai::Evaluator;
use pacw_ai::review::{Budget, DEFAULT_BUDGET, ReviewConfig, review};
use pacw_engine::Game;
use pacw_sim::advice::{AdviceCheck, check_advice, summarise};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// `pacw advice SAVES…`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  pacw simulate bloody-lane --games 10 --players greedy,greedy --save-games saves/
  pacw advice saves/*.json                                    # the review's advice, checked by 400 continuations
  pacw advice saves/*.json --weights crates/ai/weights/judge.json --continuations 1000 --json")]
pub struct AdviceArgs {
    /// Save files (JSON), as `pacw play --save`, `simulate --save-games` or the web app's download write them.
    #[arg(required = true, value_name = "SAVE")]
    files: Vec<PathBuf>,
    /// Continuations of each decision, both ways (the same dice for both).
    #[arg(long, value_name = "N", default_value_t = 400, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    continuations: u32,
    /// The judge the review is made by: a weights file (the fitted evaluator's or the value network's); by default
    /// the one this build judges by.
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// The review's search at each decision, as for `pacw review` (positions judged).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    budget: Option<u64>,
    /// The seed of the continuations' dice.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Threads (default: all cores); the results do not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Print every check and the summary as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `pacw advice`.
///
/// # Errors
/// When a save or the weights cannot be read or are refused, or the thread pool cannot start.
pub fn run(args: AdviceArgs) -> Result<ExitCode> {
    let evaluator = match &args.weights {
        None => Evaluator::embedded(),
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            Evaluator::parse(&text).map_err(|e| Usage(format!("{}: {e}", path.display())))?
        }
    };
    let threads = args.threads.map_or(0, |t| t as usize);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let config = ReviewConfig {
        quick: false,
        budget: args.budget.map_or(DEFAULT_BUDGET, Budget::Positions),
        threads: pool.current_num_threads(),
    };
    let mut checks: Vec<(String, AdviceCheck)> = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let game = Game::load(&text).map_err(|e| Usage(format!("{}: cannot be checked: {e}", path.display())))?;
        let reviewed = review(&game, &evaluator, &config, &|_, _| {});
        let found = pool.install(|| check_advice(&game, &reviewed, args.continuations, args.seed));
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
        checks.extend(found.into_iter().map(|c| (name.clone(), c)));
    }
    let mut out = std::io::stdout().lock();
    let only: Vec<AdviceCheck> = checks.iter().map(|(_, c)| c.clone()).collect();
    let summary = summarise(&only);
    if args.json {
        let checks: Vec<_> = checks.iter().map(|(file, c)| serde_json::json!({ "file": file, "check": c })).collect();
        let all = serde_json::json!({ "judge": evaluator.version(), "continuations": args.continuations,
            "checks": checks, "summary": summary });
        writeln!(out, "{}", serde_json::to_string_pretty(&all)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "The review's advice by {}, each labelled decision played both ways", evaluator.version())?;
    writeln!(out, "and continued {} times by greedy against greedy (the same dice for both):", args.continuations)?;
    for (file, c) in &checks {
        writeln!(out, "  {file}, step {}: {}", c.step, c.better)?;
        writeln!(out, "    instead of {}", c.played)?;
        writeln!(
            out,
            "    claimed {:+.1}, measured {:+.1} ± {:.1} points: {}",
            c.claimed * 100.0,
            c.gain * 100.0,
            1.96 * c.standard_error * 100.0,
            match c.verdict {
                pacw_sim::advice::Verdict::Better => "better",
                pacw_sim::advice::Verdict::Worse => "worse",
                pacw_sim::advice::Verdict::Unclear => "cannot tell",
            }
        )?;
    }
    writeln!(
        out,
        "{} decisions: the better order did better in {:.0}%, worse in {:.0}%, could not be told apart in {:.0}%;",
        summary.checked,
        summary.better * 100.0,
        summary.worse * 100.0,
        summary.unclear * 100.0
    )?;
    writeln!(
        out,
        "it gained {:+.1} ± {:.1} points on average where the review claimed {:+.1}",
        summary.gain * 100.0,
        1.96 * summary.standard_error * 100.0,
        summary.claimed * 100.0
    )?;
    Ok(ExitCode::SUCCESS)
}
