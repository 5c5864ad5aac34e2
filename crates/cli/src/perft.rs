//! `pacw perft`: every path of decisions and chance outcomes to a depth, counted (the engine's `perft`), to pin the
//! rules while the engine is made faster and to compare engines' speed.

use crate::args::Usage;
use crate::source::{scenario_for, scenario_text};
use anyhow::{Context, Result};
use clap::Args;
use pacw_engine::perft::{PerftCount, Step, divide, perft};
use pacw_engine::{Battle, Game, narrate};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// The deepest walk asked for: the counts grow about tenfold a step, so deeper never finishes.
const MAX_DEPTH: u32 = 40;

/// Arguments of `pacw perft`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  pacw perft meeting-engagement --depth 5
  pacw perft bloody-lane --depth 4 --divide
  pacw perft --load game.json --depth 3 --json

A card draw branches once per kind of card left and a die once per face. Nodes are the steps applied (decisions
and chance outcomes); leaves the battles reached at the full depth (a finished game ends a path sooner).")]
pub struct PerftArgs {
    /// A scenario file or the name of a shipped scenario; the walk starts at its beginning.
    #[arg(required_unless_present = "load", conflicts_with = "load")]
    pub scenario: Option<String>,
    /// A saved game (pacw play --save): the walk starts where it ends.
    #[arg(long, value_name = "SAVE")]
    pub load: Option<PathBuf>,
    /// How many steps deep (decisions and chance outcomes both count).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
    pub depth: u32,
    /// Also the counts under each first step.
    #[arg(long)]
    pub divide: bool,
    /// Print JSON: nodes, decisions, chance, leaves, seconds (and divide: one entry per first step).
    #[arg(long)]
    pub json: bool,
    /// Walk the game under a variant file's combat system (docs/variants.md), laid over the battle's own variant if
    /// it names one; give it again to lay more files over it, in order.
    #[arg(long, value_name = "FILE", conflicts_with = "load")]
    pub variant: Vec<PathBuf>,
}

/// Runs `pacw perft`.
///
/// # Errors
/// When neither a scenario nor a save is given (bad usage), the one given or the variant file cannot be read or is not
/// a good one, or standard output cannot be written.
pub fn run(args: PerftArgs) -> Result<ExitCode> {
    let battle = start(&args)?;
    let started = Instant::now();
    let (total, parts) = if args.divide {
        let parts = divide(&battle, args.depth);
        let mut total = PerftCount::default();
        parts.iter().for_each(|(_, c)| total += *c);
        (if args.depth == 0 { perft(&battle, 0) } else { total }, parts)
    } else {
        (perft(&battle, args.depth), Vec::new())
    };
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut report = json!({
            "scenario": battle.scenario().name,
            "depth": args.depth,
            "nodes": total.nodes,
            "decisions": total.decisions,
            "chance": total.chance,
            "leaves": total.leaves,
            "seconds": seconds,
        });
        if args.divide {
            let parts: Vec<_> = parts
                .iter()
                .map(|(step, c)| {
                    json!({ "step": step, "words": words(&battle, step), "nodes": c.nodes, "decisions": c.decisions,
                            "chance": c.chance, "leaves": c.leaves })
                })
                .collect();
            report["divide"] = parts.into();
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    for (step, c) in &parts {
        writeln!(out, "{:<60} {:>12} nodes {:>12} leaves", words(&battle, step), c.nodes, c.leaves)?;
    }
    let rate = if seconds > 0.0 { total.nodes as f64 / seconds / 1e6 } else { 0.0 };
    writeln!(
        out,
        "{}, depth {}: {} nodes ({} decisions, {} chance outcomes), {} leaves; {seconds:.3} s, {rate:.1} M nodes/s",
        battle.scenario().name,
        args.depth,
        total.nodes,
        total.decisions,
        total.chance,
        total.leaves
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The battle the walk starts from: a scenario's beginning or a save's end.
fn start(args: &PerftArgs) -> Result<Battle> {
    if let Some(save) = &args.load {
        let text = std::fs::read_to_string(save).with_context(|| format!("cannot read {}", save.display()))?;
        let game = Game::load(&text).with_context(|| format!("cannot load {}", save.display()))?;
        return Ok(game.battle().clone());
    }
    let name = args.scenario.as_deref().ok_or_else(|| Usage("give a scenario or --load SAVE".into()))?;
    let (text, file) = scenario_text(name)?;
    let scenario = scenario_for(&text, &file, &args.variant)?;
    Ok(Battle::from_scenario(Arc::new(scenario)))
}

/// A step in words, for people.
fn words(battle: &Battle, step: &Step) -> String {
    match step {
        Step::Decision(a) => narrate::action(battle, a),
        Step::Chance(o) => o.to_string(),
    }
}
