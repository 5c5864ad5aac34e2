//! `pacw replay`: a saved game's events, reproduced from its seed and decisions.

use anyhow::{Context, Result};
use pacw_engine::{Game, narrate};
use std::path::Path;
use std::process::ExitCode;

/// Loads, replays and prints a save.
pub fn run(file: &Path, as_json: bool) -> Result<ExitCode> {
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let game = match Game::load(&text) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return Ok(ExitCode::FAILURE);
        }
    };
    if as_json {
        println!("{}", serde_json::to_string_pretty(game.log())?);
        return Ok(ExitCode::SUCCESS);
    }
    let scenario = game.battle().scenario();
    println!(
        "{} — seed {}, {} decisions, options: {}",
        scenario.name,
        game.seed(),
        game.actions().len(),
        game.battle().options()
    );
    for event in game.log() {
        println!("{}", narrate::event(scenario, event));
    }
    if game.battle().result().is_none() {
        println!("(the game is not finished)");
    }
    Ok(ExitCode::SUCCESS)
}
