//! `pacw replay`: a saved game's events, reproduced from its seed and decisions.

use anyhow::{Context, Result};
use pacw_engine::{Game, narrate};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Loads, replays and prints a save; with `legal` (and `as_json`) also the legal actions at its end.
///
/// # Errors
/// When the save cannot be read, or standard output cannot be written; a save that is not a good one is reported, and
/// the exit code is 1.
pub fn run(file: &Path, as_json: bool, legal: bool) -> Result<ExitCode> {
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let game = match Game::load(&text) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return Ok(ExitCode::FAILURE);
        }
    };
    let mut out = std::io::stdout().lock();
    if as_json {
        let events = serde_json::to_value(game.log())?;
        let json = if legal {
            // As the web API lists them: index, action, order, unit, words and exact odds.
            let legal = pacw_server::view::action_views(game.battle());
            serde_json::json!({ "events": events, "legal": legal })
        } else {
            events
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let scenario = game.battle().scenario();
    let variant = crate::source::variant_words(scenario).map_or(String::new(), |v| format!("; variant: {v}"));
    writeln!(
        out,
        "{} — seed {}, {} decisions, options: {}{variant}",
        scenario.name,
        game.seed(),
        game.actions().len(),
        scenario.options_text(game.battle().options())
    )?;
    for event in game.log() {
        writeln!(out, "{}", narrate::event(scenario, event))?;
    }
    if game.battle().result().is_none() {
        writeln!(out, "(the game is not finished)")?;
    }
    Ok(ExitCode::SUCCESS)
}
