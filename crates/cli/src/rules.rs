//! `pacw rules`: the combat system in force — the standard one, or variant files laid over it, perhaps over a
//! battle's own variant — printed as a variant file, so that a designer can start from it and edit. When variant
//! files are laid together, each rule says which file wrote it last.

use crate::source::{layered, scenario_text};
use anyhow::Result;
use clap::Args;
use pacw_engine::system::CombatSystem;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pacw rules`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  pacw rules > my-variant.toml     # the standard rules, to edit\n  pacw rules \
                        --variant variants/no-cover.toml --json\n  pacw rules bloody-lane --variant \
                        variants/hard-cover.toml --variant variants/close-combat.toml\n\nThe order: the standard \
                        rules, then the battle's own variant (if it names one), then each --variant file in the \
                        order given; each says only what it changes of the rules below it, and each rule printed \
                        says which file wrote it last.\n\nExit status: 0 done, 1 a bad variant file or battle.")]
pub struct RulesArgs {
    /// A battle (a scenario file or a shipped scenario's name): the rules its games are played by, its own variant
    /// first if it names one.
    #[arg(value_name = "BATTLE")]
    battle: Option<String>,
    /// A variant file laid over the rules below it (what it leaves out stays as it was); give it again to lay more
    /// files over it, in order.
    #[arg(long, value_name = "FILE.toml")]
    variant: Vec<PathBuf>,
    /// Print the combat system as JSON instead.
    #[arg(long)]
    json: bool,
}

/// Prints the combat system.
///
/// # Errors
/// When the battle or a variant file cannot be read or is not a good one, or standard output cannot be written.
pub fn run(args: RulesArgs) -> Result<ExitCode> {
    let own = match &args.battle {
        Some(battle) => {
            let (text, file) = scenario_text(battle)?;
            pacw_engine::Scenario::own_rules(&text, &file, Some(&crate::source::beside(&file)))?
        }
        None => CombatSystem::standard(),
    };
    // How each layer came to be there: the battle's own variant is the first when it names one.
    let own_layers = own.layers().len();
    let given_as = |i: usize| if i < own_layers { "the battle's variant" } else { "--variant" };
    let system = layered(own, &args.variant)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut json = system.to_json();
        if let Some(layers) = json["layers"].as_array_mut() {
            for (i, layer) in layers.iter_mut().enumerate() {
                layer["given_as"] = serde_json::json!(given_as(i));
            }
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else if system.layers().is_empty() {
        write!(out, "{}", system.to_toml())?;
    } else {
        match &args.battle {
            Some(battle) => writeln!(out, "# The rules of {battle}: the standard rules, then, bottom first:")?,
            None => writeln!(out, "# The standard rules, then, bottom first:")?,
        }
        for (i, layer) in system.layers().iter().enumerate() {
            writeln!(out, "#   {} ({}), {}", layer.file, layer.name, given_as(i))?;
        }
        writeln!(out, "# Each rule says which file wrote it last (`standard`: as the standard rules have it).\n")?;
        write!(out, "{}", system.to_toml_annotated())?;
    }
    Ok(ExitCode::SUCCESS)
}
