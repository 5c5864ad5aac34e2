//! `pacw tactics`: the tactics suite (crates/ai/tactics/, `pacw_ai::tactics`) put to the computer players: each
//! position, its best order, and which players find it.

use crate::args::Usage;
use anyhow::Result;
use clap::Args;
use pacw_ai::review::Label;
use pacw_ai::tactics::{self, Position, plan_text};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pacw tactics`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  pacw tactics                                  # the suite, put to general, veteran, greedy and td
  pacw tactics --players greedy,td --json       # as JSON
  pacw tactics crates/ai/tactics --review       # also what the review makes of each best order

A bad position file is reported with its reason and the exit code is 1; a player missing positions is not a failure.")]
pub struct TacticsArgs {
    /// The suite's folder (default: the repository's crates/ai/tactics, where this binary was built).
    dir: Option<PathBuf>,
    /// The players to ask, by name as `pacw play --vs` takes them, separated by commas.
    #[arg(long, value_delimiter = ',', default_value = "general,veteran,greedy,td")]
    players: Vec<String>,
    /// The players' seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also judge each best order with the review's search, and say whether the review would flag it.
    #[arg(long)]
    review: bool,
    /// Print JSON: each position with each player's choice, and the totals.
    #[arg(long)]
    json: bool,
}

/// Runs `pacw tactics`.
///
/// # Errors
/// When a player's name is unknown (bad usage), or standard output cannot be written.
pub fn run(args: TacticsArgs) -> Result<ExitCode> {
    if let Some(bad) = args.players.iter().find(|p| !pacw_ai::is_player(p)) {
        return Err(Usage(format!("'{bad}' is not a computer player (see pacw play --help)")).into());
    }
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from(tactics::SUITE_DIR));
    let (positions, errors) = tactics::load_dir(&dir);
    let mut out = std::io::stdout().lock();
    let mut found = vec![0usize; args.players.len()];
    let mut rows = Vec::new();
    for p in &positions {
        let mut choices = Vec::new();
        for (i, name) in args.players.iter().enumerate() {
            let plan = tactics::player_choice(p, name, args.seed).unwrap_or_default();
            let hit = p.is_best(&plan);
            found[i] += usize::from(hit);
            choices.push((name.as_str(), plan, hit));
        }
        let judged = if args.review { tactics::review(p) } else { None };
        if args.json {
            rows.push(json!({
                "id": p.id,
                "title": p.title,
                "battle": p.battle,
                "side": p.battle().scenario().side(p.side).id,
                "best": p.best,
                "best_text": p.best_text(),
                "why": p.why,
                "rules": p.rules,
                "margin": p.margin,
                "players": choices.iter().map(|(name, plan, hit)| json!({
                    "player": name, "choice": plan, "text": plan_text(p.battle(), plan), "found": hit,
                })).collect::<Vec<_>>(),
                "review": judged.as_ref().map(|j| json!({
                    "loss": j.loss, "label": Label::of(j.loss).map(Label::name), "best": j.best,
                })),
            }));
        } else {
            print_position(&mut out, p, &choices, judged.as_ref())?;
        }
    }
    if args.json {
        let totals: Vec<_> =
            args.players.iter().zip(&found).map(|(name, n)| json!({"player": name, "found": n})).collect();
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        let report = json!({"positions": rows, "totals": totals, "errors": errors});
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        for e in &errors {
            writeln!(out, "bad position: {e}")?;
        }
        for (name, n) in args.players.iter().zip(&found) {
            writeln!(out, "{name:<10} found {n} of {}", positions.len())?;
        }
    }
    Ok(if errors.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// One position in words: the best order and why, the margin, each player's choice.
fn print_position(
    out: &mut impl Write,
    p: &Position,
    choices: &[(&str, Vec<pacw_engine::Action>, bool)],
    judged: Option<&pacw_ai::review::Judgement>,
) -> Result<()> {
    let b = p.battle();
    writeln!(
        out,
        "{} — {} ({}, turn {}, {} to move)",
        p.id,
        p.title,
        p.battle,
        b.turn(),
        b.scenario().side(p.side).name
    )?;
    writeln!(out, "  best: {}", p.best_text())?;
    writeln!(out, "  why: {}", p.why)?;
    let m = &p.margin;
    writeln!(
        out,
        "  margin: {:.3} against {:.3} ({}), ± {:.3}, {} play-outs each, {} orders",
        m.best,
        m.runner_up,
        plan_text(b, &m.runner_up_order),
        m.standard_error,
        m.playouts,
        m.orders
    )?;
    for (name, plan, hit) in choices {
        if *hit {
            writeln!(out, "  {name:<10} finds it")?;
        } else {
            writeln!(out, "  {name:<10} misses: {}", plan_text(b, plan))?;
        }
    }
    if let Some(j) = judged {
        let label = Label::of(j.loss).map_or("not flagged".to_string(), |l| format!("flagged as a {}", l.name()));
        writeln!(out, "  review: {label} (loss {:.3}; its best: {})", j.loss, plan_text(b, &j.best))?;
    }
    Ok(())
}
