//! Value parsers shared by the subcommands, so that the same mistake reads the same and exits with 2 (bad usage)
//! in every one: `--set`, `--players`, `--compare`, `--games`, `--shard`, `--save-only`.

use pacw_engine::OptionError;
use pacw_engine::{ArmNumber, Options, Scenario};
use pacw_sim::{Axis, Shard};

/// `--set OPTION=VALUE`: a rule option (R11), checked against the engine's ranges (an exhaustion point names a side
/// of the scenario, `modifier.ID` may be a variant's own modifier and `strength.ID`, `move.ID` and `range.ID` a
/// variant's own arm's number: those are checked with the scenario and its variant, by [`apply_sets`], their values
/// here against the bounds of the standard's).
///
/// # Errors
/// When the text is not `OPTION=VALUE`, or the engine does not know the option or refuses the value.
pub fn set(text: &str) -> Result<(String, String), String> {
    let (name, value) = text.split_once('=').ok_or_else(|| format!("'{text}' is not OPTION=VALUE"))?;
    let (name, value) = (name.trim(), value.trim());
    let probe = if name.starts_with("exhaustion.") { "exhaustion.A" } else { name };
    // An option the variant in force may have: its value is checked as the standard one of its kind.
    let like =
        |standard: &str| Options::default().set(standard, value).map_err(|e| e.to_string().replace(standard, name));
    let table = name.split_once('.').map(|(table, _)| table);
    match (Options::default().set(probe, value), table.and_then(ArmNumber::of)) {
        (Err(OptionError::Unknown(_)), _) if table == Some("modifier") => like("modifier.cover")?,
        (Err(OptionError::Unknown(_)), Some(number)) => like(&format!("{}.infantry", number.name()))?,
        (checked, _) => checked.map_err(|e| e.to_string().replace("exhaustion.A", name))?,
    }
    Ok((name.to_string(), value.to_string()))
}

/// Applies `--set` pairs (already checked by [`set`]) to the options of a game of `scenario`.
///
/// # Errors
/// When the scenario refuses a pair (an exhaustion point of a side it does not have, say).
pub fn apply_sets(scenario: &Scenario, options: &mut Options, sets: &[(String, String)]) -> anyhow::Result<()> {
    for (name, value) in sets {
        scenario.set_option(options, name, value)?;
    }
    Ok(())
}

/// `--players A,B`: two computer players (one name alone: the same on both sides).
///
/// # Errors
/// When the text is not one or two names, or a name is not a known player.
pub fn players(text: &str) -> Result<[String; 2], String> {
    pacw_sim::parse_players(text).map_err(|e| e.to_string())
}

/// `--compare OPTION=V1,V2,...` or `OPTION=LO..HI`.
///
/// # Errors
/// When the text is not `OPTION=V1,V2,...` with its ranges and values right ([`Axis::parse`]).
pub fn compare(text: &str) -> Result<Axis, String> {
    Axis::parse(text).map_err(|e| e.to_string())
}

/// `--shard K/N`.
///
/// # Errors
/// When the text is not `K/N` with 1 ≤ K ≤ N.
pub fn shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).map_err(|e| e.to_string())
}

/// Game numbers and ranges, as `--save-only 0-9,42` gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameList(pub Vec<std::ops::RangeInclusive<usize>>);

/// `--save-only 0-9,42`.
///
/// # Errors
/// When an item is not a game number or a range `LO-HI` with LO ≤ HI.
pub fn save_only(text: &str) -> Result<GameList, String> {
    pacw_sim::SaveGames::parse_only(text).map(GameList).map_err(|e| e.to_string())
}

/// A count of games: a whole number, at least 1.
///
/// # Errors
/// When the text is not a whole number, or is 0.
pub fn games(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err("give at least 1 game".to_string()),
        Err(_) => Err(format!("'{text}' is not a whole number of games (at least 1)")),
    }
}

/// Bad usage found after the arguments were parsed (a combination they do not allow): exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(pub String);
