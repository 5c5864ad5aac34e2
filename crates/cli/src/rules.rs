//! `pacw rules`: the combat system in force — the standard one, or a variant laid over it — printed as a variant
//! file, so that a designer can start from it and edit.

use anyhow::{Context, Result};
use clap::Args;
use pacw_engine::system::CombatSystem;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pacw rules`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  pacw rules > my-variant.toml     # the standard rules, to edit\n  pacw rules \
                        --variant variants/no-cover.toml --json\n\nExit status: 0 done, 1 a bad variant file.")]
pub struct RulesArgs {
    /// A variant file laid over the standard rules (what it leaves out stays standard).
    #[arg(long, value_name = "FILE.toml")]
    variant: Option<PathBuf>,
    /// Print the combat system as JSON instead.
    #[arg(long)]
    json: bool,
}

/// Prints the combat system.
///
/// # Errors
/// When the variant file cannot be read or is not a good one, or standard output cannot be written.
pub fn run(args: RulesArgs) -> Result<ExitCode> {
    let system = match &args.variant {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read variant file {}", path.display()))?;
            CombatSystem::with_variant(&text, &path.display().to_string())?
        }
        None => CombatSystem::standard(),
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&system.to_json())?)?;
    } else {
        write!(out, "{}", system.to_toml())?;
    }
    Ok(ExitCode::SUCCESS)
}
