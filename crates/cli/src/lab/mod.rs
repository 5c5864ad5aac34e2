//! The laboratory's commands (pacw-sim): `simulate`, `merge`, `sensitivity`, `balance` and `tournament`, with what
//! they share: the scenarios, players and options.

pub mod advice;
pub mod balance;
pub mod merge;
pub mod sensitivity;
pub mod simulate;
pub mod tournament;

use crate::args::Usage;
use crate::source::scenario_text;
use anyhow::{Context, Result};
use clap::Args;
use pacw_sim::{ScenarioSource, SimConfig, SimError, VariantFile};
use std::path::PathBuf;

/// What every simulation of the laboratory is told: scenarios, players, options, games, seed, threads.
#[derive(Args, Debug)]
pub struct LabArgs {
    /// Scenario files (TOML) or names of shipped scenarios (see `pacw scenarios`); several give one combined
    /// report with a section for each.
    #[arg(required = true, value_name = "SCENARIO")]
    pub scenarios: Vec<String>,
    /// Games to play (for each variant and scenario), at least 1.
    #[arg(long, value_name = "N", value_parser = crate::args::games)]
    pub games: u64,
    /// The seed: the same seed and arguments give the same games and statistics on any number of threads.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The two computer players, as A,B; they swap sides every other game.
    #[arg(long, value_name = "A,B", default_value = "random,random", help = players_help(), value_parser = crate::args::players)]
    pub players: [String; 2],
    /// A variant file (docs/variants.md: to-hit modifiers, arms, the hit-result table and its modifiers, what attacks
    /// do to attackers, restrictions, a rally roll, terrain, words and options) whose combat system
    /// plays every scenario, laid over any variant a scenario names; its options apply before --set. Give it again
    /// to lay more files over it, in order.
    #[arg(long, value_name = "FILE.toml")]
    pub variant: Vec<PathBuf>,
    /// Set a rule option for every game, as OPTION=VALUE (docs/rules.md R11); may be repeated.
    #[arg(long = "set", value_name = "OPTION=VALUE", value_parser = crate::args::set)]
    pub set: Vec<(String, String)>,
    /// Threads to play on (default: all cores); the results do not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Print the results as one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// The help of `--players`, naming the players this build knows.
fn players_help() -> String {
    format!(
        "The two computer players, as A,B (known: {}); they swap sides every other game",
        pacw_ai::PLAYERS.join(", ")
    )
}

/// Reads the scenarios, for the variant files' rules laid over each one's own (its units may be of their own
/// arms): one that cannot be read or checked is a bad file (exit 1).
///
/// # Errors
/// When a scenario cannot be read, or is not a good one (under the variant files' rules, if some are given).
pub fn read_scenarios(names: &[String], variants: &[VariantFile]) -> Result<Vec<ScenarioSource>> {
    names
        .iter()
        .map(|name| {
            let (text, file) = scenario_text(name)?;
            Ok(ScenarioSource::parse_for(&text, &file, variants, &crate::source::beside(&file))?)
        })
        .collect()
}

/// The configuration the arguments describe, before any variant: a bad file is exit 1, a combination the options
/// do not allow exit 2.
///
/// # Errors
/// When the variant file or a scenario cannot be read or is not a good one.
pub fn config(args: &LabArgs) -> Result<SimConfig> {
    // Each file is read over those before it, laid over the first battle's own variant (a file may name what they
    // define), then laid over each battle's own and checked with it as the scenarios are read.
    let mut variants = Vec::new();
    let mut below = match args.scenarios.first().filter(|_| !args.variant.is_empty()) {
        Some(name) => {
            let (text, file) = scenario_text(name)?;
            pacw_engine::Scenario::own_rules(&text, &file, Some(&crate::source::beside(&file)))?
        }
        None => pacw_engine::system::CombatSystem::standard(),
    };
    for path in &args.variant {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read variant file {}", path.display()))?;
        let (variant, system) = VariantFile::parse_over(&text, &path.display().to_string(), &below)?;
        variants.push(variant);
        below = system;
    }
    let mut config = SimConfig::of(read_scenarios(&args.scenarios, &variants)?);
    config.variant_files = variants;
    config.sets = args.set.clone();
    config.players = args.players.clone();
    config.games = args.games as usize;
    config.seed = args.seed;
    config.threads = args.threads.map(|t| t as usize);
    Ok(config)
}

/// Reads the variant files a `--compare rules=…` axis names (`standard` is the standard rules) into the
/// configuration, each named as the axis names it.
///
/// # Errors
/// When a variant file the axis names cannot be read or is not a good one.
pub fn read_rule_sets(config: &mut SimConfig) -> Result<()> {
    let names: Vec<String> = config
        .axes
        .iter()
        .filter(|a| a.option == pacw_sim::RULES_AXIS)
        .flat_map(|a| a.values.clone())
        .filter(|v| v != pacw_sim::STANDARD_RULES)
        .collect();
    for name in names {
        let text = std::fs::read_to_string(&name).with_context(|| format!("cannot read variant file {name}"))?;
        let rules = config.read_rule_set(&text, &name)?;
        config.rule_sets.push(rules);
    }
    Ok(())
}

/// A failed check of the settings: bad usage (exit 2) or a failure (exit 1).
pub fn sim_error(e: SimError) -> anyhow::Error {
    if e.is_usage() { Usage(e.to_string()).into() } else { e.into() }
}

/// The command line as typed, for the report.
pub fn command_line() -> String {
    quoted(std::env::args().skip(1))
}

/// The command line with every absolute path made relative (to the current folder where it lies below it, else its
/// last part): what shipped files record of how they were made, telling nothing of the machine they were made on.
pub fn portable_command_line() -> String {
    let here = std::env::current_dir().unwrap_or_default();
    quoted(std::env::args().skip(1).map(|a| portable(&a, &here)))
}

/// `arg` (or the value of `--flag=VALUE`) made relative if it is an absolute path.
fn portable(arg: &str, here: &std::path::Path) -> String {
    let (flag, value) = match arg.split_once('=') {
        Some((flag, value)) if flag.starts_with("--") => (format!("{flag}="), value),
        _ => (String::new(), arg),
    };
    let path = std::path::Path::new(value);
    if !path.is_absolute() {
        return arg.to_string();
    }
    let relative = match path.strip_prefix(here) {
        Ok(below) if !below.as_os_str().is_empty() => below.to_path_buf(),
        _ => path.file_name().map(std::path::PathBuf::from).unwrap_or_else(|| ".".into()),
    };
    format!("{flag}{}", relative.display())
}

/// `pacw` and the words, each quoted for a shell where it needs to be.
fn quoted(words: impl Iterator<Item = String>) -> String {
    let words = words.map(|a| {
        if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"$`\\".contains(c)) {
            format!("'{}'", a.replace('\'', r"'\''"))
        } else {
            a
        }
    });
    std::iter::once("pacw".to_string()).chain(words).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::portable;
    use std::path::Path;

    #[test]
    fn a_shipped_command_line_holds_no_absolute_path() {
        let here = Path::new("/work/main");
        assert_eq!(portable("/work/main/runs/v1", here), "runs/v1");
        assert_eq!(portable("--out=/work/main/runs/e.json", here), "--out=runs/e.json");
        assert_eq!(portable("/tmp/runs/v1", here), "v1");
        assert_eq!(portable("/", here), ".");
        assert_eq!(portable("runs/v1", here), "runs/v1");
        assert_eq!(portable("--games", here), "--games");
    }
}
