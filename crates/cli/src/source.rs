//! Finding a scenario: a file on disk, or a shipped scenario by name.

use anyhow::{Context, Result};
use pacw_engine::offered_scenarios;

/// The text and file name of a scenario given as a path or a shipped name (`bloody-lane`).
pub fn scenario_text(arg: &str) -> Result<(String, String)> {
    let shipped = offered_scenarios()
        .find(|(name, file, _)| arg == *name || arg == *file || arg.strip_prefix("scenarios/") == Some(file));
    match std::fs::read_to_string(arg) {
        Ok(text) => Ok((text, arg.to_string())),
        Err(_) if shipped.is_some() => {
            let (_, file, text) = shipped.expect("checked");
            Ok((text.to_string(), file.to_string()))
        }
        Err(e) => {
            let names: Vec<&str> = offered_scenarios().map(|s| s.0).collect();
            Err(e).with_context(|| format!("cannot read scenario '{arg}' (shipped scenarios: {})", names.join(", ")))
        }
    }
}
