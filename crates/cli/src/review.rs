//! `pacw review`: a saved game judged step by step — who was winning, which decisions lost it, how much was luck.

use crate::progress::progress_bar;
use anyhow::{Context, Result};
use clap::Args;
use pacw_ai::Evaluator;
use pacw_ai::review::{Budget, DEFAULT_BUDGET, Judged, Review, ReviewConfig, StepKind, review};
use pacw_engine::Game;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// A chance step whose luck is at least this large is shown in the table (every step is in the JSON).
const SHOWN_LUCK: f32 = 0.05;

/// `pacw review SAVE`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  pacw review game.json                 # every decision searched (about 5 s for a 200-decision game)
  pacw review game.json --quick         # the evaluator's winning chances and the luck only
  pacw review game.json --json            # every step and the summary, as JSON")]
pub struct ReviewArgs {
    /// The save file (JSON), as `pacw play --save` or the web app's download writes it.
    file: PathBuf,
    /// Print the whole review as JSON: every step with its chances, luck, best order and loss, and each side's
    /// summary.
    #[arg(long)]
    json: bool,
    /// The evaluator alone: the winning chances and the luck of every step, without searching for better
    /// decisions (no losses or labels).
    #[arg(long)]
    quick: bool,
    /// What the search may do at each decision: N positions judged (the same review every time), or Ns seconds
    /// (depends on the machine).
    #[arg(long, value_name = "N|Ns", value_parser = budget)]
    budget: Option<Budget>,
    /// Threads to search on (default: all cores); the review does not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: Option<u64>,
}

/// `--budget`: a number of positions, or of seconds with `s`.
fn budget(text: &str) -> Result<Budget, String> {
    let bad = || format!("'{text}' is not a budget: give a number of positions (4000) or seconds (2s)");
    match text.strip_suffix('s') {
        Some(s) => s.parse::<f64>().ok().filter(|s| *s > 0.0 && s.is_finite()).map(Budget::Seconds).ok_or_else(bad),
        None => text.parse::<u64>().ok().filter(|n| *n > 0).map(Budget::Positions).ok_or_else(bad),
    }
}

/// Reviews a save.
///
/// # Errors
/// When the save cannot be read, or standard output cannot be written; a save that is not a good one is reported, and
/// the exit code is 1.
///
/// # Panics
/// If indicatif refuses the progress bar's template, a constant it accepts.
pub fn run(args: ReviewArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let game = match Game::load(&text) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{}: cannot be reviewed: {e}", args.file.display());
            return Ok(ExitCode::FAILURE);
        }
    };
    let threads =
        args.threads.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |t| t as usize);
    let config = ReviewConfig { quick: args.quick, budget: args.budget.unwrap_or(DEFAULT_BUDGET), threads };
    let bar = progress_bar(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} decisions searched  {elapsed} elapsed, {eta} left",
        )
        .expect("a valid template"),
    );
    let evaluator = Evaluator::embedded();
    let review = review(&game, &evaluator, &config, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&review)?)?;
    } else {
        print_review(&mut out, &review)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn percent(p: f32) -> String {
    format!("{:.0}%", 100.0 * p)
}

fn signed(points: f32) -> String {
    format!("{:+.1}", 100.0 * points)
}

fn print_review(out: &mut impl Write, r: &Review) -> std::io::Result<()> {
    writeln!(out, "{} — reviewed by {} ({})", r.scenario, r.evaluator, r.budget)?;
    if r.rules != "Standard" {
        writeln!(
            out,
            "Played by the variant \"{}\"; the evaluator was trained on the standard rules, so its chances are a guess.",
            r.rules
        )?;
    }
    writeln!(
        out,
        "The chances are {}'s, the first side's; losses and luck are in points of winning chances.",
        r.sides[0]
    )?;
    writeln!(out, "At the start: {}.\n", percent(r.start))?;
    if !r.decided.swings.is_empty() {
        writeln!(out, "Why the game was decided — the biggest swings of the chances, the biggest first:")?;
        for (i, swing) in r.decided.swings.iter().enumerate() {
            writeln!(out, "  {}. {} (step {})", i + 1, swing.text, swing.step + 1)?;
        }
    }
    writeln!(out, "{}\n", r.decided.luck)?;
    writeln!(out, "{:>4} {:>4}  {:<13} {:>7}  {:<58} judged", "step", "turn", "who", "chances", "what")?;
    let mut left_out = 0;
    for (i, s) in r.steps.iter().enumerate() {
        let luck = s.luck.unwrap_or(0.0);
        if s.kind == StepKind::Chance && luck.abs() < SHOWN_LUCK {
            left_out += 1;
            continue;
        }
        let who = s.side.map_or("chance", |side| r.sides[side.index()].as_str());
        let judged = match (s.kind, &s.judged) {
            (StepKind::Chance, _) => format!("luck {} for {}", signed(luck.abs()), r.sides[(luck < 0.0) as usize]),
            (_, Some(Judged { label: Some(label), loss, best, .. })) => {
                let best = best.as_ref().map_or(String::new(), |b| format!("; better: {}", b.text));
                format!("{} (−{:.1}){best}", label.name(), 100.0 * loss)
            }
            _ => String::new(),
        };
        writeln!(out, "{:>4} {:>4}  {:<13} {:>7}  {:<58} {judged}", i + 1, s.turn, who, percent(s.after), s.text)?;
        // A flagged decision says what the better order does, and what it would have gained.
        if let Some(Judged { label: Some(_), loss, why: Some(why), .. }) = &s.judged {
            writeln!(out, "{:>36}better by {:.1} points: {why}", "", 100.0 * loss)?;
        }
    }
    if left_out > 0 {
        writeln!(out, "({left_out} cards and dice of less than 5 points of luck left out; --json has every step)")?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:<13} {:>9} {:>6} {:>13} {:>9} {:>9} {:>8} {:>7} {:>9} {:>14}",
        "",
        "decisions",
        "loss",
        "inaccuracies",
        "mistakes",
        "blunders",
        "accuracy",
        "luck",
        "net luck",
        "luck-adjusted"
    )?;
    for s in &r.summary {
        let opt = |x: Option<f32>, f: &dyn Fn(f32) -> String| x.map_or("—".to_string(), f);
        writeln!(
            out,
            "{:<13} {:>9} {:>6} {:>13} {:>9} {:>9} {:>8} {:>7} {:>9} {:>14}",
            r.sides[s.side.index()],
            s.decisions,
            opt(s.loss, &|l| format!("{:.1}", 100.0 * l)),
            s.inaccuracies,
            s.mistakes,
            s.blunders,
            opt(s.accuracy, &|a| format!("{a:.0}")),
            signed(s.luck),
            signed(s.net_luck),
            opt(s.luck_adjusted, &|a| format!("{a:.2}")),
        )?;
    }
    match r.result {
        Some(result) => writeln!(out, "\nResult for {}: {result} (1 a win, ½ a draw).", r.sides[0])?,
        None => writeln!(out, "\nThe game is not finished.")?,
    }
    Ok(())
}
