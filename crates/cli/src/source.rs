//! Finding a scenario: a file on disk, or a shipped scenario by name.

use anyhow::{Context, Result};
use pacw_engine::offered_scenarios;
use pacw_engine::system::CombatSystem;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The text and file name of a scenario given as a path or a shipped name (`bloody-lane`).
///
/// # Errors
/// When `arg` is neither a file that can be read nor a shipped scenario's name.
pub fn scenario_text(arg: &str) -> Result<(String, String)> {
    let shipped =
        offered_scenarios().find(|s| arg == s.name || arg == s.file || arg.strip_prefix("scenarios/") == Some(s.file));
    match (std::fs::read_to_string(arg), shipped) {
        (Ok(text), _) => Ok((text, arg.to_string())),
        (Err(_), Some(shipped)) => Ok((shipped.text.to_string(), shipped.file.to_string())),
        (Err(e), None) => {
            let names: Vec<&str> = offered_scenarios().map(|s| s.name).collect();
            Err(e).with_context(|| format!("cannot read scenario '{arg}' (shipped scenarios: {})", names.join(", ")))
        }
    }
}

/// The combat system of the variant files given (`--variant FILE`, repeatable, docs/variants.md), laid over the
/// standard rules in the order given; `None` without one. A bad file is refused with every problem at its line and
/// column in it.
///
/// # Errors
/// When a file cannot be read or is not a good variant file over the rules below it.
pub fn variant_system(paths: &[PathBuf]) -> Result<Option<Arc<CombatSystem>>> {
    if paths.is_empty() {
        return Ok(None);
    }
    Ok(Some(Arc::new(layered(CombatSystem::standard(), paths)?)))
}

/// `below` with the variant files at `paths` laid over it, in order (docs/variants.md, "Variants that combine").
///
/// # Errors
/// When a file cannot be read or is not a good variant file over the rules below it.
pub fn layered(below: CombatSystem, paths: &[PathBuf]) -> Result<CombatSystem> {
    let mut system = below;
    for path in paths {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read variant file {}", path.display()))?;
        system = system.with_layer(&text, &path.display().to_string())?;
    }
    Ok(system)
}

/// The rules a game of the scenario `text` (named `file`) is played by when variant files are given: the rules it
/// names for itself (a shipped variant, or a file beside it), then each file at `paths` laid over them in order;
/// `None` without a file given, when the scenario's own rules alone apply.
///
/// # Errors
/// When the variant the scenario names, or a file given, cannot be read or is not a good one.
pub fn rules_for(text: &str, file: &str, paths: &[PathBuf]) -> Result<Option<Arc<CombatSystem>>> {
    if paths.is_empty() {
        return Ok(None);
    }
    let own = pacw_engine::Scenario::own_rules(text, file, Some(&beside(file)))?;
    Ok(Some(Arc::new(layered(own, paths)?)))
}

/// The variant a game of `scenario` is played by, for a header: its name and file (`Close combat
/// (close-combat.toml)`); `None` under the standard rules.
pub fn variant_words(scenario: &pacw_engine::Scenario) -> Option<String> {
    system_words(scenario.variant()?)
}

/// A variant's combat system named for a header, as [`variant_words`] (variant files laid together are named
/// together: `Close combat + Hard cover (close-combat.toml + hard-cover.toml)`); `None` for the standard rules, which
/// are read from no variant file.
pub fn system_words(system: &CombatSystem) -> Option<String> {
    let (file, _) = system.source()?;
    Some(format!("{} ({file})", system.name))
}

/// The scenario `text` (named `file`), played by its own rules (its `variant` may name a variant file beside it)
/// with the variant files at `paths` laid over them ([`rules_for`]): read for those rules, so that its units may be
/// of their own arms ([`pacw_engine::Scenario::parse_with`]).
///
/// # Errors
/// When a variant file cannot be read or is not a good one, or the scenario is not a good one under the rules.
pub fn scenario_for(text: &str, file: &str, paths: &[PathBuf]) -> Result<pacw_engine::Scenario> {
    match rules_for(text, file, paths)? {
        Some(system) => Ok(pacw_engine::Scenario::parse_with(text, file, system)?),
        None => Ok(pacw_engine::Scenario::parse_reading(text, file, &beside(file))?),
    }
}

/// Reads a variant file a scenario names (`variant = "my-rules.toml"`), relative to the scenario file's folder: in
/// it or below it, so that a scenario from elsewhere cannot make pacw read any file it likes.
pub fn beside(scenario_file: &str) -> impl Fn(&str) -> Result<String, String> + use<> {
    let folder = Path::new(scenario_file).parent().map(Path::to_path_buf).unwrap_or_default();
    move |name| {
        let relative = Path::new(name);
        if !relative.components().all(|c| matches!(c, std::path::Component::Normal(_))) {
            return Err(format!("'{name}' must be a path within the scenario's folder (no '..', not absolute)"));
        }
        let path = folder.join(relative);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    }
}
