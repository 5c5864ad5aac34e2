//! What to simulate: the scenario, the rule options and the variants to compare, the players, how many games and
//! the seed. Parsed from the command line's words and checked before any game is played.

use crate::error::SimError;
use pacw_engine::{Initiative, Options, Scenario};
use std::sync::Arc;

/// One rule variant to simulate: the base options with at most one option changed (`--compare`).
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// The compared option's name, or `None` for a simulation without `--compare`.
    pub option: Option<String>,
    /// Its value in this variant.
    pub value: Option<String>,
    /// The full options in force.
    pub options: Options,
}

impl Variant {
    /// `OPTION=VALUE`, or `all` for the single variant of a plain simulation.
    pub fn label(&self) -> String {
        match (&self.option, &self.value) {
            (Some(o), Some(v)) => format!("{o}={v}"),
            _ => "all".to_string(),
        }
    }

    /// What "drawing first" means under this variant's initiative system (R3, R3.7).
    pub fn first_mover_rule(&self) -> &'static str {
        first_mover_rule(self.options.initiative)
    }
}

/// What "drawing first" means under an initiative system: the side that acts first in turn 1.
pub fn first_mover_rule(initiative: Initiative) -> &'static str {
    match initiative {
        Initiative::Cards => "the side that drew the first side card of turn 1",
        Initiative::Igougo | Initiative::Alternate => "the side that won the first initiative roll",
    }
}

/// `--compare OPTION=V1,V2,...`: one option and the values to compare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compare {
    /// The option's name (RULES.md R11).
    pub option: String,
    /// Its values, in the order given.
    pub values: Vec<String>,
}

impl Compare {
    /// Parses `OPTION=V1,V2,...`; the values are checked against the engine by [`SimConfig::variants`].
    ///
    /// ```
    /// let c = pacw_sim::Compare::parse("initiative=cards,igougo").unwrap();
    /// assert_eq!(c.values, ["cards", "igougo"]);
    /// ```
    pub fn parse(text: &str) -> Result<Compare, SimError> {
        let bad = || SimError::BadCompare(text.to_string());
        let (option, values) = text.split_once('=').ok_or_else(bad)?;
        let option = option.trim();
        let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
        if option.is_empty() || values.iter().any(String::is_empty) {
            return Err(bad());
        }
        Ok(Compare { option: option.to_string(), values })
    }
}

/// Applies one `--set OPTION=VALUE` to `options`.
pub fn apply_set(options: &mut Options, pair: &str) -> Result<(), SimError> {
    let (name, value) = pair.split_once('=').ok_or_else(|| SimError::BadSet(pair.to_string()))?;
    options.set(name.trim(), value.trim()).map_err(|source| SimError::Option {
        flag: "--set",
        given: pair.to_string(),
        source,
    })
}

/// Parses `--players A,B` (one name alone means the same player on both sides) and checks that both exist.
pub fn parse_players(text: &str) -> Result<[String; 2], SimError> {
    let names: Vec<&str> = text.split(',').map(str::trim).collect();
    let players = match names.as_slice() {
        [one] if !one.is_empty() => [one.to_string(), one.to_string()],
        [a, b] if !a.is_empty() && !b.is_empty() => [a.to_string(), b.to_string()],
        _ => return Err(SimError::BadPlayers(text.to_string())),
    };
    for name in &players {
        check_player(name)?;
    }
    Ok(players)
}

fn check_player(name: &str) -> Result<(), SimError> {
    match pacw_ai::player(name, 0) {
        Some(_) => Ok(()),
        None => Err(SimError::UnknownPlayer { name: name.to_string(), known: pacw_ai::PLAYERS.join(", ") }),
    }
}

/// Everything a simulation needs. Build it with [`SimConfig::new`] and set the public fields.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The checked scenario.
    pub scenario: Arc<Scenario>,
    /// Its text (kept with each game, as a save would).
    pub scenario_text: String,
    /// Its file name, for messages and reports.
    pub scenario_file: String,
    /// The base options: the scenario's, with `--set` applied.
    pub options: Options,
    /// The option to compare, if any.
    pub compare: Option<Compare>,
    /// Games per variant.
    pub games: usize,
    /// The simulation's seed.
    pub seed: u64,
    /// The two computer players' names, as [`pacw_ai::player`] knows them.
    pub players: [String; 2],
    /// When false (the default) the players swap sides every other game; when true the first player is always
    /// the scenario's first side.
    pub fixed_sides: bool,
    /// Threads to use; `None` for all cores (rayon's global pool).
    pub threads: Option<usize>,
}

impl SimConfig {
    /// A simulation of 100 games of `scenario` under its own options, random against random, seed 0.
    pub fn new(scenario: Arc<Scenario>, text: &str, file: &str) -> SimConfig {
        SimConfig {
            options: scenario.options,
            scenario,
            scenario_text: text.to_string(),
            scenario_file: file.to_string(),
            compare: None,
            games: 100,
            seed: 0,
            players: ["random".to_string(), "random".to_string()],
            fixed_sides: false,
            threads: None,
        }
    }

    /// The variants to play, in order: one per compared value, or the base options alone.
    pub fn variants(&self) -> Result<Vec<Variant>, SimError> {
        let Some(compare) = &self.compare else {
            return Ok(vec![Variant { option: None, value: None, options: self.options }]);
        };
        compare
            .values
            .iter()
            .map(|value| {
                let mut options = self.options;
                self.scenario.set_option(&mut options, &compare.option, value).map_err(|source| SimError::Option {
                    flag: "--compare",
                    given: format!("{}={value}", compare.option),
                    source,
                })?;
                Ok(Variant { option: Some(compare.option.clone()), value: Some(value.clone()), options })
            })
            .collect()
    }

    /// Checks the settings: at least one game, known players, valid variants.
    pub fn validate(&self) -> Result<(), SimError> {
        if self.games == 0 {
            return Err(SimError::NoGames);
        }
        for name in &self.players {
            check_player(name)?;
        }
        self.variants().map(|_| ())
    }

    /// The players' names for reports: `random (1)` and `random (2)` when both have the same name.
    pub fn player_labels(&self) -> [String; 2] {
        let [a, b] = &self.players;
        if a == b { [format!("{a} (1)"), format!("{b} (2)")] } else { [a.clone(), b.clone()] }
    }

    /// Whether player 2 (`--players`' second name) plays the scenario's first side in game `index` of a variant.
    pub fn swapped(&self, index: usize) -> bool {
        !self.fixed_sides && index % 2 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> SimConfig {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml")
    }

    #[test]
    fn compare_parses_and_checks_values() {
        let mut c = config();
        c.compare = Some(Compare::parse("initiative = cards, igougo,alternate").unwrap());
        let v = c.variants().unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v[1].label(), "initiative=igougo");
        assert_eq!(v[2].options.initiative, Initiative::Alternate);
        c.compare = Some(Compare::parse("initiative=cards,dice").unwrap());
        assert!(matches!(c.variants(), Err(SimError::Option { .. })));
        assert!(Compare::parse("initiative").is_err());
        assert!(Compare::parse("initiative=cards,").is_err());
    }

    #[test]
    fn set_and_players_are_checked() {
        let mut o = Options::default();
        apply_set(&mut o, "to_hit=4").unwrap();
        assert_eq!(o.to_hit, 4);
        assert!(apply_set(&mut o, "to_hit").unwrap_err().is_usage());
        assert!(apply_set(&mut o, "nonsense=1").unwrap_err().is_usage());
        assert_eq!(parse_players("random").unwrap(), ["random", "random"]);
        assert!(matches!(parse_players("random,nobody"), Err(SimError::UnknownPlayer { .. })));
        assert!(parse_players("a,b,c").is_err());
    }

    #[test]
    fn labels_distinguish_namesakes_and_sides_alternate() {
        let mut c = config();
        assert_eq!(c.player_labels(), ["random (1)", "random (2)"]);
        assert!(!c.swapped(0) && c.swapped(1) && !c.swapped(2));
        c.fixed_sides = true;
        assert!(!c.swapped(1));
    }
}
