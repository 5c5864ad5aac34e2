//! What to simulate: the scenarios, a variant file and `--set` over their options, the variants to compare, the
//! players, how many games, the seed and the shard. Parsed from the command line's words and checked before any
//! game is played.

use crate::error::SimError;
use pacw_engine::system::CombatSystem;
use pacw_engine::{Initiative, Options, Scenario};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The name of the axis that compares computer players instead of a rule option (`--compare players=…`).
pub const PLAYERS_AXIS: &str = "players";

/// The name of the axis that compares whole rule sets: variant files, or `standard` for the standard rules
/// (`--compare rules=standard,variants/close-combat.toml`). Each file is read into [`SimConfig::rule_sets`].
pub const RULES_AXIS: &str = "rules";

/// The value of [`RULES_AXIS`] that stands for the standard rules.
pub const STANDARD_RULES: &str = "standard";

/// The most `--compare` axes a simulation takes (two make a grid).
pub const MAX_AXES: usize = 2;

/// A scenario to simulate: checked, with its text and file name (kept with each game, as a save would).
#[derive(Clone, Debug)]
pub struct ScenarioSource {
    /// The checked scenario.
    pub scenario: Arc<Scenario>,
    /// Its text.
    pub text: String,
    /// Its file name, for messages and reports.
    pub file: String,
    /// The rules the scenario names for itself (its `variant`), which variant files are laid over; `None` for the
    /// standard.
    pub own_rules: Option<Arc<CombatSystem>>,
}

impl ScenarioSource {
    /// A checked scenario played by the rules it names for itself, with its text and file name.
    pub fn new(scenario: Arc<Scenario>, text: &str, file: &str) -> ScenarioSource {
        let own_rules = scenario.variant().is_some().then(|| scenario.combat_system());
        ScenarioSource { scenario, text: text.to_string(), file: file.to_string(), own_rules }
    }

    /// Parses and checks a scenario's text.
    ///
    /// # Errors
    /// When the text is not a good scenario ([`Scenario::parse`]).
    pub fn parse(text: &str, file: &str) -> Result<ScenarioSource, pacw_engine::ScenarioError> {
        let scenario = Scenario::parse(text, file)?;
        Ok(ScenarioSource::new(Arc::new(scenario), text, file))
    }

    /// Parses and checks a scenario's text whose `variant` may name a variant file of its own, which `read` gives
    /// ([`Scenario::parse_reading`]).
    ///
    /// # Errors
    /// As [`Scenario::parse_reading`]: a problem of the text, or a variant file the scenario names that `read` cannot
    /// give or that is not a good one.
    pub fn parse_reading(
        text: &str,
        file: &str,
        read: &dyn Fn(&str) -> Result<String, String>,
    ) -> Result<ScenarioSource, pacw_engine::ScenarioError> {
        let scenario = Scenario::parse_reading(text, file, read)?;
        Ok(ScenarioSource::new(Arc::new(scenario), text, file))
    }

    /// Parses and checks a scenario's text played by the variant files `variants` laid over the rules it names for
    /// itself, in order (docs/variants.md, "Variants that combine"): its units may be of their own arms. `read`
    /// gives a variant file the scenario names, as for [`ScenarioSource::parse_reading`].
    ///
    /// # Errors
    /// When the variant the scenario names cannot be read or is not a good one, a variant file is not a good one
    /// over the rules below it, or the text is not a good scenario under the rules laid together.
    pub fn parse_for(
        text: &str,
        file: &str,
        variants: &[VariantFile],
        read: &dyn Fn(&str) -> Result<String, String>,
    ) -> Result<ScenarioSource, SimError> {
        let scenario_error = |e: pacw_engine::ScenarioError| SimError::BadScenario(e.to_string());
        if variants.is_empty() {
            return ScenarioSource::parse_reading(text, file, read).map_err(scenario_error);
        }
        let own = Scenario::own_rules(text, file, Some(read)).map_err(scenario_error)?;
        let own_rules = (!own.layers().is_empty()).then(|| Arc::new(own.clone()));
        let system = layered(own, variants)?;
        let scenario = Scenario::parse_with(text, file, Arc::new(system)).map_err(scenario_error)?;
        Ok(ScenarioSource { scenario: Arc::new(scenario), text: text.to_string(), file: file.to_string(), own_rules })
    }
}

/// `below` with the variant files `variants` laid over it, in order.
fn layered(below: CombatSystem, variants: &[VariantFile]) -> Result<CombatSystem, SimError> {
    variants.iter().try_fold(below, |system, v| {
        system
            .with_layer(&v.text, &v.file)
            .map_err(|e| SimError::BadVariant { file: v.file.clone(), message: e.to_string() })
    })
}

/// One `--compare` axis: an option (or [`PLAYERS_AXIS`]) and the values it takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Axis {
    /// The option's name (docs/rules.md R11), or `players`.
    pub option: String,
    /// Its values, in the order given, ranges expanded.
    pub values: Vec<String>,
}

impl Axis {
    /// Parses `OPTION=V1,V2,...`, where a value may be an integer range `LO..HI` (both ends included):
    /// `modifier.cover=-2..0` is `-2,-1,0`. The values are checked against the engine by [`SimConfig::validate`].
    ///
    /// # Errors
    /// When the text has no `=` or no option name, a value is empty, a range is not `LO..HI` of integers with at most
    /// 100 values, or a value is given twice.
    ///
    /// ```
    /// let a = pacw_sim::Axis::parse("to_hit=3..5,6").unwrap();
    /// assert_eq!(a.values, ["3", "4", "5", "6"]);
    /// assert!(a.is_numeric());
    /// assert_eq!(pacw_sim::Axis::parse("initiative=cards,igougo").unwrap().values, ["cards", "igougo"]);
    /// ```
    pub fn parse(text: &str) -> Result<Axis, SimError> {
        let bad = || SimError::BadCompare(text.to_string());
        let (option, list) = text.split_once('=').ok_or_else(bad)?;
        let option = option.trim();
        let mut values = Vec::new();
        let rules = option.trim() == RULES_AXIS; // file names, never ranges
        for item in list.split(',').map(str::trim) {
            match item.split_once("..").filter(|_| !rules) {
                Some((lo, hi)) => {
                    let (lo, hi) = (lo.trim().parse::<i64>(), hi.trim().parse::<i64>());
                    let (Ok(lo), Ok(hi)) = (lo, hi) else { return Err(bad()) };
                    if lo > hi || hi - lo >= 100 {
                        return Err(bad());
                    }
                    values.extend((lo..=hi).map(|v| v.to_string()));
                }
                None if item.is_empty() => return Err(bad()),
                None => values.push(item.to_string()),
            }
        }
        if option.is_empty() {
            return Err(bad());
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(twice) = values.iter().find(|v| !seen.insert(v.as_str())) {
            return Err(SimError::RepeatedValue { option: option.to_string(), value: twice.clone() });
        }
        Ok(Axis { option: option.to_string(), values })
    }

    /// Whether every value is a whole number: the statistics are then charted against the value.
    pub fn is_numeric(&self) -> bool {
        self.option != PLAYERS_AXIS && self.option != RULES_AXIS && self.values.iter().all(|v| v.parse::<i64>().is_ok())
    }
}

/// A variant file (`--variant FILE.toml`, docs/variants.md): a name, a description, the combat system's changes
/// (modifiers, arms, the hit-result table, terms) and an `[options]` table shaped like a scenario's, applied to
/// every scenario of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantFile {
    /// Its name, as reports print it.
    pub name: String,
    /// What it changes and why.
    pub description: String,
    /// Its options as `name=value` pairs (`modifier.cover`, `exhaustion.<side id>` …), in the file's order.
    pub options: Vec<(String, String)>,
    /// Its file name, for messages.
    #[serde(default)]
    pub file: String,
    /// Its whole text: the games are played by the combat system it describes (and a shard reads it again).
    #[serde(default)]
    pub text: String,
}

impl VariantFile {
    /// Reads a variant file's text; `file` names it in messages. Unknown keys are refused; the options are checked
    /// against each scenario when the run is set up.
    ///
    /// # Errors
    /// When the engine refuses the file's combat system, the file is not TOML of a variant's keys (`name` missing, a
    /// key unknown), or an option's value is not a number, a word or true/false.
    ///
    /// ```
    /// let v = pacw_sim::VariantFile::parse("name = \"No cover\"\ndescription = \"\"\n[options]\nto_hit = 4\nmodifier = { cover = 0 }\n", "v.toml").unwrap();
    /// assert_eq!(v.options, [("modifier.cover".to_string(), "0".to_string()), ("to_hit".to_string(), "4".to_string())]);
    /// ```
    pub fn parse(text: &str, file: &str) -> Result<VariantFile, SimError> {
        Ok(VariantFile::parse_over(text, file, &CombatSystem::standard())?.0)
    }

    /// Reads a variant file's text to be laid over `below` (the standard, or other variant files laid over it,
    /// which it may name: docs/variants.md, "Variants that combine"), as [`VariantFile::parse`]; with the rules
    /// laid together.
    ///
    /// # Errors
    /// As [`VariantFile::parse`], the file read over `below`.
    pub fn parse_over(text: &str, file: &str, below: &CombatSystem) -> Result<(VariantFile, CombatSystem), SimError> {
        // The engine reads and checks the whole file, every problem at its line and column: its name, description
        // and options are the system's, so that a section the engine learns is known here too.
        let system = below
            .with_layer(text, file)
            .map_err(|e| SimError::BadVariant { file: file.to_string(), message: e.to_string() })?;
        // The file is the top layer; its own options are those it wrote last.
        let layer = system.layers().last();
        let own = |name: &str| {
            let by = system.written_by(pacw_engine::system::Part::Option, name);
            by.zip(layer).is_some_and(|(by, top)| std::ptr::eq(by, top))
        };
        let variant = VariantFile {
            name: layer.map_or_else(|| system.name.clone(), |l| l.name.clone()),
            description: layer.map_or_else(|| system.description.clone(), |l| l.description.clone()),
            options: system.options().iter().filter(|(name, _)| own(name)).cloned().collect(),
            file: file.to_string(),
            text: text.to_string(),
        };
        Ok((variant, system))
    }

    /// The combat system it describes, laid over the standard alone.
    ///
    /// # Errors
    ///
    /// The file's problems (never for a file [`VariantFile::parse`] accepted).
    pub fn system(&self) -> Result<CombatSystem, SimError> {
        CombatSystem::with_variant(&self.text, &self.file)
            .map_err(|e| SimError::BadVariant { file: self.file.clone(), message: e.to_string() })
    }
}

/// One variant to simulate: the options it sets over the base, and the two players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    /// `(option, value)` set over the base options, one per `--compare` axis (`players` included); empty for the
    /// base itself.
    pub settings: Vec<(String, String)>,
    /// The two computer players, in `--players` order.
    pub players: [String; 2],
}

impl Variant {
    /// `to_hit=4 initiative=igougo`, or `base` for the base options.
    pub fn label(&self) -> String {
        if self.settings.is_empty() {
            return "base".to_string();
        }
        self.settings.iter().map(|(o, v)| format!("{o}={v}")).collect::<Vec<_>>().join(" ")
    }

    /// The value this variant gives `option`, if it sets it.
    pub fn value_of(&self, option: &str) -> Option<&str> {
        self.settings.iter().find(|(o, _)| o == option).map(|(_, v)| v.as_str())
    }
}

/// What "drawing first" means under an initiative system: the side that acts first in turn 1.
pub fn first_mover_rule(initiative: Initiative) -> &'static str {
    match initiative {
        Initiative::Cards => "the side that drew the first side card of turn 1",
        Initiative::Igougo | Initiative::Alternate => "the side that won the first initiative roll",
    }
}

/// Parses `--players A,B` (one name alone means the same player on both sides) and checks that both exist.
///
/// # Errors
/// When the text is not one or two names, or [`pacw_ai::player`] does not know a name.
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

/// Checks that [`pacw_ai::player`] knows a player ([`pacw_ai::is_player`]).
///
/// # Errors
/// When [`pacw_ai::player`] does not know the name.
pub fn check_player(name: &str) -> Result<(), SimError> {
    if pacw_ai::is_player(name) {
        Ok(())
    } else {
        Err(SimError::UnknownPlayer { name: name.to_string(), known: pacw_ai::PLAYERS.join(", ") })
    }
}

/// `--shard K/N`: the games whose index is K−1 modulo N. Every variant and scenario of a game index falls in the
/// same shard, so a shard's games stay paired.
///
/// A shard read from a file is checked as one given on the command line is, so that a damaged file cannot ask for
/// more than [`MAX_SHARDS`] (which merging would allocate) or a shard that does not exist.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawShard")]
pub struct Shard {
    /// Which shard, from 1.
    pub k: usize,
    /// Of how many.
    pub n: usize,
}

/// The most shards a simulation may be cut into.
pub const MAX_SHARDS: usize = 100_000;

/// A shard as written in a file, before it is checked.
#[derive(Deserialize)]
struct RawShard {
    k: usize,
    n: usize,
}

impl TryFrom<RawShard> for Shard {
    type Error = String;

    fn try_from(raw: RawShard) -> Result<Shard, String> {
        match (raw.k, raw.n) {
            (k, n) if k == 0 || k > n || n > MAX_SHARDS => {
                Err(format!("shard {k}/{n} does not exist (1 ≤ K ≤ N ≤ {MAX_SHARDS})"))
            }
            (k, n) => Ok(Shard { k, n }),
        }
    }
}

impl Shard {
    /// Parses `K/N` with 1 ≤ K ≤ N.
    ///
    /// # Errors
    /// When the text is not `K/N` with 1 ≤ K ≤ N ≤ [`MAX_SHARDS`].
    ///
    /// ```
    /// let s = pacw_sim::Shard::parse("2/3").unwrap();
    /// assert!(s.includes(1) && s.includes(4) && !s.includes(2));
    /// assert!(pacw_sim::Shard::parse("4/3").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Shard, SimError> {
        let bad = || SimError::BadShard(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n) = (k.trim().parse::<usize>().map_err(|_| bad())?, n.trim().parse::<usize>().map_err(|_| bad())?);
        Shard::try_from(RawShard { k, n }).map_err(|_| bad())
    }

    /// Whether game `index` belongs to this shard.
    pub fn includes(&self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

/// Everything a simulation needs. Build it with [`SimConfig::new`] and set the public fields.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The scenarios, each played under every variant.
    pub scenarios: Vec<ScenarioSource>,
    /// The variant files laid over every scenario's own rules, in order, before `--set`.
    pub variant_files: Vec<VariantFile>,
    /// The variant files a [`RULES_AXIS`] compares, each named by its `file` as the axis gives it.
    pub rule_sets: Vec<VariantFile>,
    /// `--set OPTION=VALUE` pairs, applied to every scenario after the variant file.
    pub sets: Vec<(String, String)>,
    /// The `--compare` axes the variants were built from (none, one, or two for a grid): kept for the charts.
    pub axes: Vec<Axis>,
    /// The variants, the first the reference the others are compared with when they are many. Empty: the base
    /// options alone. [`SimConfig::compare`] fills it from axes; `pacw sensitivity` builds its own.
    pub variants: Vec<Variant>,
    /// Games per variant and scenario.
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
    /// Only this share of the games (`--shard K/N`).
    pub shard: Option<Shard>,
    /// Whether each game is reviewed by the evaluator for the luck of its dice and cards (`--luck`), so that the
    /// reports give luck-adjusted scores ([`crate::GameRecord::luck`]).
    pub luck: bool,
}

impl SimConfig {
    /// A simulation of 100 games of one scenario under its own options, random against random, seed 0.
    pub fn new(scenario: Arc<Scenario>, text: &str, file: &str) -> SimConfig {
        SimConfig::of(vec![ScenarioSource::new(scenario, text, file)])
    }

    /// A simulation of 100 games of each scenario, random against random, seed 0.
    pub fn of(scenarios: Vec<ScenarioSource>) -> SimConfig {
        SimConfig {
            scenarios,
            variant_files: Vec::new(),
            rule_sets: Vec::new(),
            sets: Vec::new(),
            axes: Vec::new(),
            variants: Vec::new(),
            games: 100,
            seed: 0,
            players: ["random".to_string(), "random".to_string()],
            fixed_sides: false,
            threads: None,
            shard: None,
            luck: false,
        }
    }

    /// Compares the values of up to two axes: one variant per value, or per pair of values (a grid, the first
    /// axis outermost). A `players` axis replaces the first player of [`SimConfig::players`].
    ///
    /// # Errors
    /// When more than two axes are given, or two of the same option.
    pub fn compare(&mut self, axes: Vec<Axis>) -> Result<(), SimError> {
        if axes.len() > MAX_AXES {
            return Err(SimError::TooManyAxes(axes.len()));
        }
        if axes.len() == 2 && axes[0].option == axes[1].option {
            return Err(SimError::SameAxisTwice(axes[0].option.clone()));
        }
        let mut variants = vec![Vec::new()];
        for axis in &axes {
            variants = variants
                .into_iter()
                .flat_map(|settings: Vec<(String, String)>| {
                    axis.values.iter().map(move |v| {
                        let mut s = settings.clone();
                        s.push((axis.option.clone(), v.clone()));
                        s
                    })
                })
                .collect();
        }
        self.variants = if axes.is_empty() {
            Vec::new()
        } else {
            variants.into_iter().map(|settings| self.variant(settings)).collect()
        };
        self.axes = axes;
        Ok(())
    }

    /// A variant that sets `settings` over the base, with this simulation's players (the first replaced by a
    /// `players` setting).
    pub fn variant(&self, settings: Vec<(String, String)>) -> Variant {
        let mut players = self.players.clone();
        if let Some((_, p)) = settings.iter().find(|(o, _)| o == PLAYERS_AXIS) {
            players[0] = p.clone();
        }
        Variant { settings, players }
    }

    /// The variants to play, in order: those given, or the base alone.
    pub fn variant_list(&self) -> Vec<Variant> {
        if self.variants.is_empty() {
            vec![Variant { settings: Vec::new(), players: self.players.clone() }]
        } else {
            self.variants.clone()
        }
    }

    /// Reads a variant file a [`RULES_AXIS`] compares (`file` as the axis names it) and checks it as it will be
    /// played: laid over each scenario's own rules (the variant a battle names, else the standard), so that it may
    /// name what they define (docs/variants.md, "Variants that combine").
    ///
    /// # Errors
    /// When the file is not a good one over one of the scenarios' own rules: each problem at its line and column.
    pub fn read_rule_set(&self, text: &str, file: &str) -> Result<VariantFile, SimError> {
        let standard = CombatSystem::shared_standard();
        let mut read = None;
        for source in &self.scenarios {
            let below = source.own_rules.as_ref().unwrap_or(&standard);
            let (variant, _) = VariantFile::parse_over(text, file, below)?;
            read.get_or_insert(variant);
        }
        match read {
            Some(variant) => Ok(variant),
            None => VariantFile::parse(text, file),
        }
    }

    /// Scenario `s` as its games are played: by the variant files laid over its own rules when there are some
    /// ([`Scenario::with_system`]: their numbers of the standard and their `[options]` become the scenario's
    /// options).
    ///
    /// # Errors
    /// When a variant file's combat system cannot be read, or the scenario is not a good one under them.
    pub fn played_scenario(&self, s: usize) -> Result<Arc<Scenario>, SimError> {
        match self.variant_files.as_slice() {
            [] => Ok(self.scenarios[s].scenario.clone()),
            files => played_by(&self.scenarios[s], files),
        }
    }

    /// Scenario `s` as `variant`'s games are played: by the rule set a [`RULES_AXIS`] gives it (`standard`: the
    /// standard rules alone; a file: laid over the scenario's own rules, in place of the variant files), else as
    /// [`SimConfig::played_scenario`].
    ///
    /// # Errors
    /// When the rule set the variant compares was not read into [`SimConfig::rule_sets`], or the scenario is refused
    /// under the rules it is played by (as [`SimConfig::played_scenario`]).
    pub fn variant_scenario(&self, s: usize, variant: &Variant) -> Result<Arc<Scenario>, SimError> {
        let Some((_, rules)) = variant.settings.iter().find(|(o, _)| o == RULES_AXIS) else {
            return self.played_scenario(s);
        };
        if rules == STANDARD_RULES {
            let source = &self.scenarios[s];
            if source.scenario.variant().is_none() {
                return Ok(source.scenario.clone());
            }
            // The scenario names a variant of its own: `standard` is the standard rules all the same.
            let standard = Scenario::parse_standard(&source.text, &source.file).map_err(|e| SimError::BadVariant {
                file: STANDARD_RULES.to_string(),
                message: format!("under the standard rules: {e}"),
            })?;
            return Ok(Arc::new(standard));
        }
        let file = self.rule_sets.iter().find(|f| f.file == *rules).ok_or_else(|| SimError::BadVariant {
            file: rules.clone(),
            message: format!("{rules}: not read: give the file's name as --compare {RULES_AXIS}= names it"),
        })?;
        played_by(&self.scenarios[s], std::slice::from_ref(file))
    }

    /// The base options of scenario `s`: its own, then the variant file's, then `--set`.
    ///
    /// # Errors
    /// As [`SimConfig::played_scenario`], or when the scenario refuses a `--set`.
    pub fn base_options(&self, s: usize) -> Result<Options, SimError> {
        let scenario = self.played_scenario(s)?;
        self.options_over(&scenario)
    }

    /// `scenario`'s options (a scenario as played) with `--set` over them.
    fn options_over(&self, scenario: &Scenario) -> Result<Options, SimError> {
        let mut options = scenario.options;
        for (name, value) in &self.sets {
            scenario.set_option(&mut options, name, value).map_err(|source| SimError::Option {
                flag: "--set",
                given: format!("{name}={value}"),
                source,
            })?;
        }
        Ok(options)
    }

    /// The options of `variant` in scenario `s`.
    ///
    /// # Errors
    /// As [`SimConfig::variant_scenario`], or when the scenario refuses a `--set` or one of the variant's settings.
    pub fn variant_options(&self, s: usize, variant: &Variant) -> Result<Options, SimError> {
        let scenario = self.variant_scenario(s, variant)?;
        let mut options = self.options_over(&scenario)?;
        for (name, value) in variant.settings.iter().filter(|(o, _)| o != PLAYERS_AXIS && o != RULES_AXIS) {
            scenario.set_option(&mut options, name, value).map_err(|source| SimError::Option {
                flag: "--compare",
                given: format!("{name}={value}"),
                source,
            })?;
        }
        Ok(options)
    }

    /// The options of every variant in every scenario: `table[s][v]`.
    ///
    /// # Errors
    /// As [`SimConfig::variant_options`], for the first variant of a scenario that fails.
    pub fn option_table(&self) -> Result<Vec<Vec<Options>>, SimError> {
        let variants = self.variant_list();
        (0..self.scenarios.len()).map(|s| variants.iter().map(|v| self.variant_options(s, v)).collect()).collect()
    }

    /// Checks the settings: a scenario, at least one game, known players, options every scenario accepts.
    ///
    /// # Errors
    /// When there is no scenario or no game, a variant's player is unknown, or a scenario refuses an option
    /// ([`SimConfig::option_table`]).
    pub fn validate(&self) -> Result<(), SimError> {
        if self.scenarios.is_empty() {
            return Err(SimError::NoScenario);
        }
        if self.games == 0 {
            return Err(SimError::NoGames);
        }
        for variant in self.variant_list() {
            for name in &variant.players {
                check_player(name)?;
            }
        }
        self.option_table().map(|_| ())
    }

    /// The players' names for reports: `random (1)` and `random (2)` when both have the same name.
    pub fn player_labels(&self) -> [String; 2] {
        player_labels(&self.players)
    }

    /// Whether player 2 (`--players`' second name) plays the scenario's first side in game `index`.
    pub fn swapped(&self, index: usize) -> bool {
        !self.fixed_sides && index % 2 == 1
    }
}

/// `source` played by the variant files `variants` laid over its own rules: read again for them, since its units
/// may be of their own arms.
fn played_by(source: &ScenarioSource, variants: &[VariantFile]) -> Result<Arc<Scenario>, SimError> {
    let own = source.own_rules.as_deref().cloned().unwrap_or_else(CombatSystem::standard);
    let system = Arc::new(layered(own, variants)?);
    let top = variants.last().map_or(String::new(), |v| v.file.clone());
    let played = Scenario::parse_with(&source.text, &source.file, system)
        .map_err(|e| SimError::BadVariant { file: top, message: e.to_string() })?;
    Ok(Arc::new(played))
}

/// Two players' names for reports: `random (1)` and `random (2)` when both have the same name.
pub fn player_labels(players: &[String; 2]) -> [String; 2] {
    let [a, b] = players;
    if a == b { [format!("{a} (1)"), format!("{b} (2)")] } else { [a.clone(), b.clone()] }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> SimConfig {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml")
    }

    #[test]
    fn an_axis_takes_lists_and_inclusive_ranges() {
        assert_eq!(
            Axis::parse("initiative = cards, igougo,alternate").unwrap().values,
            ["cards", "igougo", "alternate"]
        );
        assert_eq!(Axis::parse("modifier.cover=-2..0").unwrap().values, ["-2", "-1", "0"]);
        assert!(!Axis::parse("initiative=cards").unwrap().is_numeric());
        for bad in ["initiative", "initiative=cards,", "=1,2", "to_hit=5..3", "to_hit=a..3", "to_hit=0..1000"] {
            assert!(Axis::parse(bad).is_err(), "{bad}");
        }
        assert!(matches!(Axis::parse("to_hit=3..5,4"), Err(SimError::RepeatedValue { .. })));
    }

    #[test]
    fn two_axes_make_a_grid_first_axis_outermost() {
        let mut c = config();
        c.compare(vec![Axis::parse("to_hit=4,5").unwrap(), Axis::parse("initiative=cards,igougo,alternate").unwrap()])
            .unwrap();
        let labels: Vec<String> = c.variants.iter().map(Variant::label).collect();
        assert_eq!(labels.len(), 6);
        assert_eq!(labels[0], "to_hit=4 initiative=cards");
        assert_eq!(labels[5], "to_hit=5 initiative=alternate");
        let table = c.option_table().unwrap();
        assert_eq!(table[0][4].to_hit, 5);
        assert_eq!(table[0][4].initiative, Initiative::Igougo);
        assert!(c.compare(vec![Axis::parse("to_hit=4").unwrap(); 3]).is_err());
        assert!(c.compare(vec![Axis::parse("to_hit=4").unwrap(), Axis::parse("to_hit=5").unwrap()]).is_err());
    }

    #[test]
    fn values_are_checked_against_the_engine_and_players_against_the_ai() {
        let mut c = config();
        c.compare(vec![Axis::parse("initiative=cards,dice").unwrap()]).unwrap();
        assert!(matches!(c.validate(), Err(SimError::Option { .. })));
        c.compare(vec![Axis::parse("players=greedy,nobody").unwrap()]).unwrap();
        assert!(matches!(c.validate(), Err(SimError::UnknownPlayer { .. })));
        c.compare(vec![Axis::parse("players=greedy,random").unwrap()]).unwrap();
        c.validate().unwrap();
        assert_eq!(c.variants[0].players, ["greedy", "random"]);
        c.sets = vec![("exhaustion.nobody".into(), "2".into())];
        assert!(matches!(c.validate(), Err(SimError::Option { flag: "--set", .. })));
    }

    #[test]
    fn the_variant_file_applies_before_set() {
        let mut c = config();
        c.variant_files = vec![
            VariantFile::parse("name = \"v\"\n[options]\nto_hit = 4\ninitiative = \"igougo\"\n", "v.toml").unwrap(),
        ];
        c.sets = vec![("to_hit".into(), "6".into())];
        let o = c.base_options(0).unwrap();
        assert_eq!((o.to_hit, o.initiative), (6, Initiative::Igougo));
        assert!(VariantFile::parse("name = \"v\"\ncolour = 1\n", "v.toml").is_err());
        assert!(VariantFile::parse("description = \"no name\"\n", "v.toml").is_err());
        // A combat system of its own is played: its mistakes are refused at their line and column.
        let own =
            "name = \"v\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"charge\"\n[terms]\ncharge = \"melee\"\n";
        c.variant_files = vec![VariantFile::parse(own, "v.toml").unwrap()];
        let played = c.played_scenario(0).unwrap();
        assert_eq!(played.variant().unwrap().modifier("V1").unwrap().value, 1);
        let e = VariantFile::parse(&own.replace("charge\"\n[terms]", "charj\"\n[terms]"), "v.toml").unwrap_err();
        assert!(e.to_string().contains("v.toml:5:"), "{e}");
    }

    #[test]
    fn standard_in_a_rules_axis_is_the_standard_rules_even_for_a_battle_naming_its_own_variant() {
        // The battle is played by hard hitting (to_hit 4) of its own; `rules=standard` compares the standard with it.
        let text = format!("variant = \"hard-hitting\"\n{}", pacw_engine::DEFAULT_SCENARIO);
        let scenario = Arc::new(Scenario::parse(&text, "m.toml").unwrap());
        assert_eq!(scenario.options.to_hit, 4, "the battle's own variant");
        let mut c = SimConfig::new(scenario, &text, "m.toml");
        c.compare(vec![Axis::parse("rules=standard").unwrap()]).unwrap();
        let standard = c.variant_scenario(0, &c.variants[0]).unwrap();
        assert!(standard.variant().is_none(), "played by the standard rules");
        assert_eq!(c.variant_options(0, &c.variants[0]).unwrap().to_hit, 5, "R6.4's 5, not the variant's 4");
        assert_eq!(c.base_options(0).unwrap().to_hit, 4, "without the axis, the battle's own variant");
    }

    #[test]
    fn variant_files_and_a_rules_axis_file_are_laid_over_the_battle_s_own_variant() {
        // The battle names hard hitting (to_hit 4); the files given add a modifier and name it in their options.
        let text = format!("variant = \"hard-hitting\"\n{}", pacw_engine::DEFAULT_SCENARIO);
        let scenario = Arc::new(Scenario::parse(&text, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, &text, "m.toml");
        let (first, below) = VariantFile::parse_over(
            "name = \"E\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"charge\"\n",
            "e.toml",
            &CombatSystem::standard(),
        )
        .unwrap();
        // The second names the first's modifier: alone over the standard it is refused.
        let second = "name = \"F\"\n[options]\nmodifier.V1 = 2\ninitiative = \"igougo\"\n";
        assert!(VariantFile::parse(second, "f.toml").is_err());
        let (second, _) = VariantFile::parse_over(second, "f.toml", &below).unwrap();
        assert_eq!(second.options.len(), 2, "its own options only");
        c.variant_files = vec![first, second.clone()];
        let played = c.played_scenario(0).unwrap();
        let system = played.variant().unwrap();
        assert_eq!(system.name, "Hard hitting + E + F");
        let o = c.base_options(0).unwrap();
        assert_eq!((o.to_hit, o.initiative), (4, Initiative::Igougo), "the battle's to_hit, the top file's initiative");
        // A file compared by the rules axis stands in place of the variant files, over the battle's own variant.
        let mine = VariantFile::parse("name = \"Mine\"\n[options]\ninitiative = \"alternate\"\n", "mine.toml").unwrap();
        c.rule_sets = vec![mine];
        c.compare(vec![Axis::parse("rules=standard,mine.toml").unwrap()]).unwrap();
        let mine = c.variant_scenario(0, &c.variants[1]).unwrap();
        assert_eq!(mine.variant().unwrap().name, "Hard hitting + Mine");
        let o = c.variant_options(0, &c.variants[1]).unwrap();
        assert_eq!((o.to_hit, o.initiative), (4, Initiative::Alternate));
        assert_eq!(c.variant_options(0, &c.variants[0]).unwrap().to_hit, 5, "standard is the standard alone");
        // Kept by a shard and read back: the battle's own variant and the files, in order.
        let saved = crate::shard::SavedConfig::of(&c);
        assert_eq!(saved.scenarios[0].variant.as_ref().unwrap().file, "hard-hitting.toml");
        let back = saved.config().unwrap();
        assert_eq!(back.variant_files.len(), 2);
        assert_eq!(back.played_scenario(0).unwrap().variant(), Some(system));
    }

    #[test]
    fn a_rules_axis_file_is_read_over_the_battle_s_own_variant_and_may_name_what_it_defines() {
        // Close combat defines the modifier V1: a file that sets it is good over that battle, not over a plain one.
        let mine = "name = \"Mine\"\n[options]\nmodifier.V1 = 2\n";
        let text = format!("variant = \"close-combat\"\n{}", pacw_engine::DEFAULT_SCENARIO);
        let c = SimConfig::new(Arc::new(Scenario::parse(&text, "m.toml").unwrap()), &text, "m.toml");
        assert_eq!(c.read_rule_set(mine, "mine.toml").unwrap().name, "Mine");
        let plain = pacw_engine::DEFAULT_SCENARIO;
        let c = SimConfig::new(Arc::new(Scenario::parse(plain, "p.toml").unwrap()), plain, "p.toml");
        let refused = c.read_rule_set(mine, "mine.toml").unwrap_err().to_string();
        assert!(refused.starts_with("mine.toml:3:") && !refused.contains("mine.toml: mine.toml"), "{refused}");
    }

    #[test]
    fn players_are_checked_labels_distinguish_namesakes_and_sides_alternate() {
        assert_eq!(parse_players("random").unwrap(), ["random", "random"]);
        assert!(matches!(parse_players("random,nobody"), Err(SimError::UnknownPlayer { .. })));
        assert!(parse_players("a,b,c").is_err());
        let mut c = config();
        assert_eq!(c.player_labels(), ["random (1)", "random (2)"]);
        assert!(!c.swapped(0) && c.swapped(1) && !c.swapped(2));
        c.fixed_sides = true;
        assert!(!c.swapped(1));
    }
}
