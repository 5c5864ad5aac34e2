//! Reports of a finished simulation: the [`Report`] (serialised as the `--json` output and `results.json`), the
//! summary tables, the text for the terminal and the CSV of every game. Charts ([`crate::charts`]) and the HTML
//! page ([`crate::site`]) are drawn from a report; this module knows nothing of them.

mod csv;
mod table;
pub(crate) mod text;

pub use csv::games_csv;
pub use table::{Section, differences_table, effectiveness_table, pct, rate_ci, sections};
pub use text::render_text;

use crate::compare::{Difference, TESTS, contrasts, differences};
use crate::config::{Axis, RULES_AXIS, first_mover_rule, player_labels};
use crate::run::Simulation;
use crate::stats::{Names, Summary};
use serde::Serialize;
use std::collections::BTreeMap;

/// One variant's statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantReport {
    /// The compared options, joined by ` × ` for a grid (empty for the base).
    pub option: String,
    /// Their values here, joined the same way.
    pub value: String,
    /// `option=value`, or `base`.
    pub label: String,
    /// The label as charts' legends print it: a rule set compared (`rules=variants/close-combat.toml`) by its
    /// variant's name (`rules=Close combat`).
    pub legend: String,
    /// The name of the rule set a `--compare rules=…` axis plays it by (`standard` for the standard rules).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// The settings over the base, by option.
    pub settings: BTreeMap<String, String>,
    /// The two computer players, as named (the statistics' `players` label them).
    pub player_names: [String; 2],
    /// Every option in force (in the first scenario, with several).
    pub options: BTreeMap<String, String>,
    /// The statistics.
    #[serde(flatten)]
    pub summary: Summary,
}

/// The findings over one scenario's games, or over all scenarios' games pooled.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Part {
    /// The scenario's name (with several pooled: `all 3 scenarios`).
    pub scenario: String,
    /// Its file (pooled: the files, comma-separated).
    pub scenario_file: String,
    /// The base options: the scenario's, with the variant files and `--set` (pooled: the first scenario's), named
    /// by the rules the games are played by (a variant file's own modifiers and arms among them); before any
    /// compared setting, which each column's own [`VariantReport::options`] hold.
    pub options: BTreeMap<String, String>,
    /// The name of the variant its games are played by (`--variant`, or the one the battle names), when it is not
    /// the standard rules; pooled, each scenario's when they differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The statistics of all its games.
    #[serde(flatten)]
    pub all: Summary,
    /// The words of a variant's `[terms]` for the attacks, when every game of the part is played by rules that
    /// rename them alike: the tables and the differences say them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terms: Option<AttackWords>,
    /// The after-attack rules of each column's rules (`[[after_attack]]`), as "A1 failed charge", in the order of
    /// [`Summary::after_attack`]: what the tables name its counts by. Empty where no column's rules have any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub after_attack_rules: Vec<Vec<String>>,
    /// The modifiers to the hit-result roll of each column's rules (`[[result_modifiers]]`), as "H1 veterans in
    /// cover stand firm", in the order of [`Summary::result_modified`]. Empty where no column's rules have any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub result_modifier_rules: Vec<Vec<String>>,
    /// The restrictions on orders of each column's rules (`[[restrictions]]`), as "M1 troops will not charge a
    /// steady line", in the order of [`Summary::restricted_decisions`]. Empty where no column's rules have any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restriction_rules: Vec<Vec<String>>,
    /// Those of [`Part::restriction_rules`] that forbid orders, not only attacks (a condition over an order's facts,
    /// docs/variants.md): what they left out counts Holds and Moves too.
    #[serde(skip)]
    pub order_restriction_rules: Vec<String>,
    /// The rally roll of each column's rules (`[rally]`), as "MR1 rally test", in the order of [`Part::columns`];
    /// `None` where a column's rules rally without a die (R4.1). Empty where no column's rules have one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rally_rules: Vec<Option<String>>,
    /// The modifiers to the rally roll of each column's rules (`[[rally_modifiers]]`), as "R1 veterans", in the
    /// order of [`Summary::rally_modified`]. Empty where no column's rules have any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rally_modifier_rules: Vec<Vec<String>>,
    /// The terrain kinds of each column's rules of their own (a variant's `[[terrain]]`, new or a standard kind
    /// changed; [`crate::record::own_terrains`]), in the order of [`Part::columns`]: what the tables name the counts
    /// of [`Summary::terrain`] by. Empty where no column's rules have any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub own_terrains: Vec<Vec<TerrainName>>,
    /// Per variant, when there are variants.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<VariantReport>,
    /// Differences between variants, paired game by game.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<Difference>,
}

impl Part {
    /// The columns of the summary tables: each variant with its label, or all games alone.
    pub fn columns(&self) -> Vec<(String, &Summary)> {
        if self.variants.is_empty() {
            vec![("all games".to_string(), &self.all)]
        } else {
            self.variants.iter().map(|v| (v.label.clone(), &v.summary)).collect()
        }
    }

    /// The columns as charts' legends name them: [`Part::columns`] with each rule set by its variant's name.
    pub fn legend_columns(&self) -> Vec<(String, &Summary)> {
        if self.variants.is_empty() {
            self.columns()
        } else {
            self.variants.iter().map(|v| (v.legend.clone(), &v.summary)).collect()
        }
    }

    /// How the tables and charts name player `slot` (0 or 1): its name, or with players compared (the columns'
    /// players differ) its place in `--players`.
    pub fn player_name(&self, slot: usize) -> String {
        let columns = self.columns();
        let name = &columns[0].1.players[slot].name;
        if columns.iter().all(|(_, s)| &s.players[slot].name == name) {
            name.clone()
        } else {
            ["first player", "second player"][slot].to_string()
        }
    }
}

/// A terrain kind of a column's rules' own, as the report names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TerrainName {
    /// Its place in the rules' terrain table ([`crate::stats::TerrainSummary::place`]).
    pub place: usize,
    /// Its name, as the variant gives it ("swamp").
    pub name: String,
}

/// The words for fire and a charge (a variant's `[terms]`, docs/variants.md) that the reports' tables say for the
/// attacks of a part's columns: one word where every column's rules say it alike, each column's word where they
/// differ ("charges / close combat").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AttackWords {
    /// The word for fire (`fire` where the rules keep it); where columns' rules differ in it, each one, in the
    /// columns' order, joined by ` / ` (`fire / volley`).
    pub fire: String,
    /// The word for a charge, likewise (`charge / close combat`).
    pub charge: String,
    /// Each distinct word for fire, in the columns' order.
    #[serde(skip)]
    fires: Vec<String>,
    /// Each distinct word for a charge, in the columns' order.
    #[serde(skip)]
    charges: Vec<String>,
}

impl AttackWords {
    /// The words of columns whose rules say fire and a charge as `columns` give them (one (fire, charge) pair per
    /// column); `None` when every column says the standard words.
    pub fn of_columns(columns: &[(String, String)]) -> Option<AttackWords> {
        let mut fires: Vec<String> = Vec::new();
        let mut charges: Vec<String> = Vec::new();
        for (fire, charge) in columns {
            if !fires.contains(fire) {
                fires.push(fire.clone());
            }
            if !charges.contains(charge) {
                charges.push(charge.clone());
            }
        }
        let standard = fires.iter().all(|f| f == "fire") && charges.iter().all(|c| c == "charge");
        (!standard).then(|| AttackWords { fire: fires.join(" / "), charge: charges.join(" / "), fires, charges })
    }

    /// `text` with the standard words for attacks in these: "charges (distance 1)" becomes "close combat (distance
    /// 1)"; "shooting" and "shoot" become the word for fire where it is renamed. Where columns differ in a word,
    /// each column's is said, the standard one as `text` has it: "charges / close combat (distance 1)".
    pub fn say(&self, text: &str) -> String {
        // One pass, so that a word containing the standard one ("bayonet charge") is not renamed again.
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        let fire = self.fires.iter().any(|f| f != "fire");
        loop {
            let next_charge = rest.find("charge");
            let next_shoot = if fire { rest.find("shoot").or_else(|| rest.find("Shoot")) } else { None };
            let (at, charge) = match (next_charge, next_shoot) {
                (Some(c), Some(f)) if f < c => (f, false),
                (Some(c), _) => (c, true),
                (None, Some(f)) => (f, false),
                (None, None) => break,
            };
            out.push_str(&rest[..at]);
            rest = &rest[at..];
            // The standard word as the text has it ("charges", "Shooting"), and the text after it.
            let (standard, after) = if charge {
                let after = &rest["charge".len()..];
                let after = after.strip_prefix('s').unwrap_or(after);
                (&rest[..rest.len() - after.len()], after)
            } else {
                let after = &rest["shoot".len()..];
                let after = after.strip_prefix("ing").unwrap_or(after);
                (&rest[..rest.len() - after.len()], after)
            };
            let capital = standard.starts_with('S');
            let (words, kept) = if charge { (&self.charges, "charge") } else { (&self.fires, "fire") };
            // A capital only where the text had one: on the first word said.
            let said: Vec<String> = words
                .iter()
                .enumerate()
                .map(|(i, w)| match (w == kept, capital && i == 0) {
                    (true, true) => standard.to_string(),
                    (true, false) => standard.to_lowercase(),
                    (false, true) => capitalised(w),
                    (false, false) => w.clone(),
                })
                .collect();
            out.push_str(&said.join(" / "));
            rest = after;
        }
        out.push_str(rest);
        out
    }
}

fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// The words for the attacks of scenario `s`'s (or, `None`, of all scenarios') columns: every column's rules'
/// words, in the columns' order ([`AttackWords::of_columns`]); `None` where all say the standard words.
fn attack_words(sim: &Simulation, s: Option<usize>) -> Option<AttackWords> {
    let c = &sim.config;
    let scenarios: Vec<usize> = s.map_or_else(|| (0..c.scenarios.len()).collect(), |i| vec![i]);
    let mut columns = Vec::new();
    for v in c.variant_list() {
        for &i in &scenarios {
            let played = c.variant_scenario(i, &v).ok()?;
            let terms = played.system().terms();
            columns.push((terms.fire.clone(), terms.charge.clone()));
        }
    }
    AttackWords::of_columns(&columns)
}

/// The same rules of every battle pooled in a part (`s` is `None`), or of battle `s`: the pooled counts are by each
/// rule's place, so they are named only where every battle's rules are the same; else no names (each battle's own
/// part names its own).
fn same_in_every_battle<T: PartialEq + Default>(
    sim: &Simulation,
    s: Option<usize>,
    of: fn(&Simulation, usize) -> T,
) -> T {
    let Some(s) = s else {
        let mut each = (0..sim.config.scenarios.len()).map(|s| of(sim, s));
        let first = each.next().unwrap_or_default();
        return if each.all(|rules| rules == first) { first } else { T::default() };
    };
    of(sim, s)
}

/// The after-attack rules of each column's rules for scenario `s`, as "A1 failed charge"; empty when none has any.
fn after_attack_rules(sim: &Simulation, s: usize) -> Vec<Vec<String>> {
    rules_by_column(sim, s, |system| system.after_attack().iter().map(|r| format!("{} {}", r.id, r.name)).collect())
}

/// The modifiers to the hit-result roll of each column's rules for scenario `s`, as "H1 veterans in cover stand
/// firm"; empty when none has any.
fn result_modifier_rules(sim: &Simulation, s: usize) -> Vec<Vec<String>> {
    rules_by_column(sim, s, |system| system.result_modifiers().iter().map(|m| format!("{} {}", m.id, m.name)).collect())
}

/// The modifiers to the rally roll of each column's rules for scenario `s`, as "R1 veterans"; empty when none has
/// any.
fn rally_modifier_rules(sim: &Simulation, s: usize) -> Vec<Vec<String>> {
    rules_by_column(sim, s, |system| system.rally_modifiers().iter().map(|m| format!("{} {}", m.id, m.name)).collect())
}

/// The restrictions on orders of each column's rules for scenario `s`, as "M1 troops will not charge a steady line";
/// empty when none has any.
fn restriction_rules(sim: &Simulation, s: usize) -> Vec<Vec<String>> {
    rules_by_column(sim, s, |system| system.restrictions().iter().map(|r| format!("{} {}", r.id, r.name)).collect())
}

/// The restrictions of [`restriction_rules`] that forbid orders, by the same names, of every column's rules for
/// scenario `s`.
fn order_restriction_rules(sim: &Simulation, s: usize) -> Vec<String> {
    let on_orders = |system: &pacw_engine::system::CombatSystem| {
        let over_orders =
            system.restrictions().iter().filter(|r| r.over == pacw_engine::system::condition::Over::Order);
        over_orders.map(|r| format!("{} {}", r.id, r.name)).collect()
    };
    rules_by_column(sim, s, on_orders).into_iter().flatten().collect()
}

/// Some rules of each column's rules for scenario `s`, as `named` names them; empty when no column has any.
fn rules_by_column(
    sim: &Simulation,
    s: usize,
    named: impl Fn(&pacw_engine::system::CombatSystem) -> Vec<String>,
) -> Vec<Vec<String>> {
    let c = &sim.config;
    let columns: Vec<Vec<String>> = c
        .variant_list()
        .iter()
        .map(|v| c.variant_scenario(s, v).ok().map_or_else(Vec::new, |p| named(p.system())))
        .collect();
    if columns.iter().all(Vec::is_empty) { Vec::new() } else { columns }
}

/// The rally roll of each column's rules for scenario `s`, as "MR1 rally test"; empty when none has one.
fn rally_rules(sim: &Simulation, s: usize) -> Vec<Option<String>> {
    let c = &sim.config;
    let columns: Vec<Option<String>> = c
        .variant_list()
        .iter()
        .map(|v| {
            let played = c.variant_scenario(s, v).ok();
            let rule = played.as_ref().and_then(|p| p.system().rally());
            rule.map(|r| format!("{} {}", r.id, r.name))
        })
        .collect();
    if columns.iter().all(Option::is_none) { Vec::new() } else { columns }
}

/// The terrain kinds of each column's rules' own for scenario `s`; empty when none has any.
fn own_terrains(sim: &Simulation, s: usize) -> Vec<Vec<TerrainName>> {
    let c = &sim.config;
    let columns: Vec<Vec<TerrainName>> = c
        .variant_list()
        .iter()
        .map(|v| {
            let Ok(played) = c.variant_scenario(s, v) else { return Vec::new() };
            let own = crate::record::own_terrains(played.map.terrain_rules());
            own.into_iter().map(|(place, kind)| TerrainName { place, name: kind.name.clone() }).collect()
        })
        .collect();
    if columns.iter().all(Vec::is_empty) { Vec::new() } else { columns }
}

/// A variant file's name and description, as reports print them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantInfo {
    /// Its name.
    pub name: String,
    /// Its description.
    pub description: String,
    /// The file's options.
    pub options: Vec<(String, String)>,
}

/// Everything a simulation found, ready to print or serialise. Its JSON form has at least `games`, `draws`,
/// `seconds` and `players` (per player: `name`, `wins`, `win_rate`, `ci_low`, `ci_high`); with `--compare`, also
/// `variants` (each with `option`, `value` and `label`) and `differences`. The top-level statistics are those of
/// the one scenario, or with several of all scenarios pooled, each scenario then also in `scenarios`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The command that produced the report, to reproduce it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The simulation's seed.
    pub seed: u64,
    /// Games per variant and scenario.
    pub games_per_variant: u64,
    /// Wall-clock seconds the games took.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
    /// Threads used.
    pub threads: usize,
    /// The players as named on the command line.
    pub player_names: [String; 2],
    /// Whether the players kept their sides (otherwise they swap every other game).
    pub fixed_sides: bool,
    /// The variant files laid over every scenario's own rules, if any, as one: their names joined by ` + `, their
    /// descriptions one after another, their options in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant_file: Option<VariantInfo>,
    /// The `--compare` axes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compare: Vec<Axis>,
    /// The tests used for differences.
    pub test: String,
    /// With several scenarios, how their games are pooled: by attacker and defender when every scenario names its
    /// attacker, else by first and second side, naming the scenarios that do not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pooling: Option<String>,
    /// The one scenario's findings, or all scenarios' pooled.
    #[serde(flatten)]
    pub main: Part,
    /// Each scenario's findings, when there are several.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scenarios: Vec<Part>,
}

/// The sides of several scenarios pooled, as (id, name): attacker and defender when every scenario names its
/// attacker, else the first and second sides of the files.
pub fn pooled_sides(by_attacker: bool) -> [(&'static str, &'static str); 2] {
    if by_attacker { [("attacker", "attacker"), ("defender", "defender")] } else { POOLED_BY_ORDER }
}

/// The sides of several scenarios pooled when some scenario does not name its attacker.
const POOLED_BY_ORDER: [(&str, &str); 2] = [("A", "first side"), ("B", "second side")];

/// How fast games go, in words that suit the pace: "120 games/s" for quick games, "8.5 s a game" for slow ones
/// (never "0 games/s"), "starting" before the first.
///
/// ```
/// assert_eq!(pacw_sim::report::pace_words(250.4), "250 games/s");
/// assert_eq!(pacw_sim::report::pace_words(0.1176), "8.5 s a game");
/// assert_eq!(pacw_sim::report::pace_words(0.0), "starting");
/// ```
pub fn pace_words(games_per_second: f64) -> String {
    if !games_per_second.is_finite() || games_per_second <= 0.0 {
        "starting".to_string()
    } else if games_per_second >= 1.0 {
        format!("{games_per_second:.0} games/s")
    } else {
        format!("{:.1} s a game", 1.0 / games_per_second)
    }
}

/// How several scenarios' games are pooled, in words.
fn pooling(sim: &Simulation) -> String {
    if sim.pooled_by_attacker() {
        return "by attacker and defender (each scenario names its attacker)".to_string();
    }
    let silent: Vec<&str> =
        sim.config.scenarios.iter().filter(|s| s.scenario.attacker.is_none()).map(|s| s.file.as_str()).collect();
    format!(
        "by first and second side, which may mix attackers with defenders: {} name{} no attacker (the scenario key \
         `attacker`)",
        silent.join(", "),
        if silent.len() == 1 { "s" } else { "" }
    )
}

/// The name of the rule set `file` of a `--compare rules=…` axis: its variant's, or `standard`.
fn rule_set_name(sim: &Simulation, file: &str) -> String {
    sim.config.rule_sets.iter().find(|f| f.file == file).map_or_else(|| file.to_string(), |f| f.name.clone())
}

/// The name of the variant scenario `s`'s games are played by, or (`None`) all scenarios': `None` for the standard
/// rules; several scenarios played by different rules are named each with its own (`a.toml: Close combat, b.toml:
/// standard`).
fn played_variant(sim: &Simulation, s: Option<usize>) -> Option<String> {
    let c = &sim.config;
    let of = |i: usize| c.played_scenario(i).ok().and_then(|p| p.variant().map(|system| system.name.clone()));
    match s {
        Some(i) => of(i),
        None => {
            let each: Vec<Option<String>> = (0..c.scenarios.len()).map(of).collect();
            if each.iter().all(|v| *v == each[0]) {
                return each[0].clone();
            }
            let named = c.scenarios.iter().zip(&each).map(|(source, v)| {
                format!("{}: {}", source.file, v.as_deref().unwrap_or(crate::config::STANDARD_RULES))
            });
            Some(named.collect::<Vec<_>>().join(", "))
        }
    }
}

fn option_map(pairs: Vec<(String, String)>) -> BTreeMap<String, String> {
    pairs.into_iter().collect()
}

/// Builds the [`Part`] of scenario `s`, or (`None`) of all scenarios pooled.
fn part(sim: &Simulation, s: Option<usize>, against_first: bool) -> Part {
    let c = &sim.config;
    let first = &c.scenarios[0].scenario;
    let (name, file, sides) = match s {
        Some(s) => {
            let sc = &c.scenarios[s].scenario;
            let sides = [0, 1].map(|i| (sc.sides[i].id.clone(), sc.sides[i].name.clone()));
            (sc.name.clone(), c.scenarios[s].file.clone(), sides)
        }
        None if c.scenarios.len() == 1 => {
            let sides = [0, 1].map(|i| (first.sides[i].id.clone(), first.sides[i].name.clone()));
            (first.name.clone(), c.scenarios[0].file.clone(), sides)
        }
        None => (
            format!("all {} scenarios", c.scenarios.len()),
            c.scenarios.iter().map(|x| x.file.as_str()).collect::<Vec<_>>().join(", "),
            pooled_sides(sim.pooled_by_attacker()).map(|(id, name)| (id.to_string(), name.to_string())),
        ),
    };
    let scenario_index = s.unwrap_or(0);
    let names = |players: &[String; 2], rule: &str| Names {
        players: player_labels(players),
        sides: sides.clone(),
        first_mover_rule: rule.into(),
    };
    let rules: Vec<&str> = sim.options[scenario_index].iter().map(|o| first_mover_rule(o.initiative)).collect();
    let pooled_rule = if rules.iter().all(|r| *r == rules[0]) {
        rules[0].to_string()
    } else {
        "the side that acted first in turn 1 (first side card, or first initiative roll)".to_string()
    };
    let all = Summary::new(&sim.records_in(s), &names(&c.players, &pooled_rule));
    let sc = &c.scenarios[scenario_index].scenario;
    let variants: Vec<VariantReport> = if c.variants.is_empty() {
        Vec::new()
    } else {
        sim.variants
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let options = &sim.options[scenario_index][i];
                let rules = v.value_of(RULES_AXIS).map(|file| rule_set_name(sim, file));
                let legend = v
                    .settings
                    .iter()
                    .map(|(o, x)| match (o == RULES_AXIS, &rules) {
                        (true, Some(name)) => format!("{o}={name}"),
                        _ => format!("{o}={x}"),
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                VariantReport {
                    legend,
                    rules,
                    option: v.settings.iter().map(|(o, _)| o.as_str()).collect::<Vec<_>>().join(" × "),
                    value: v.settings.iter().map(|(_, x)| x.as_str()).collect::<Vec<_>>().join(" × "),
                    label: v.label(),
                    settings: v.settings.iter().cloned().collect(),
                    player_names: v.players.clone(),
                    // Named by the rules the column is played by (a rule set's own modifiers).
                    options: option_map(match c.variant_scenario(scenario_index, v) {
                        Ok(played) => played.option_pairs(options),
                        Err(_) => sc.option_pairs(options),
                    }),
                    summary: Summary::new(
                        &sim.records_of(s, i),
                        &names(&v.players, first_mover_rule(options.initiative)),
                    ),
                }
            })
            .collect()
    };
    let terms = attack_words(sim, s);
    let after_attack = same_in_every_battle(sim, s, after_attack_rules);
    let mut differences =
        if variants.is_empty() { Vec::new() } else { differences(sim, s, &contrasts(variants.len(), against_first)) };
    if let Some(words) = &terms {
        for d in &mut differences {
            d.metric = words.say(&d.metric);
        }
    }
    // Named by the rules the games are played by, the variant files laid: their own modifiers and arms are options.
    let played = c.played_scenario(scenario_index).unwrap_or_else(|_| sc.clone());
    let base = c.base_options(scenario_index).unwrap_or(played.options);
    Part {
        scenario: name,
        scenario_file: file,
        options: option_map(played.option_pairs(&base)),
        variant: played_variant(sim, s),
        terms,
        after_attack_rules: after_attack,
        result_modifier_rules: same_in_every_battle(sim, s, result_modifier_rules),
        restriction_rules: same_in_every_battle(sim, s, restriction_rules),
        order_restriction_rules: same_in_every_battle(sim, s, order_restriction_rules),
        rally_rules: same_in_every_battle(sim, s, rally_rules),
        rally_modifier_rules: same_in_every_battle(sim, s, rally_modifier_rules),
        own_terrains: same_in_every_battle(sim, s, own_terrains),
        all,
        variants,
        differences,
    }
}

impl Report {
    /// The report of a simulation; `command` is the command line, if it should be recorded. Variants are
    /// compared pair by pair when there are at most four, else each against the first.
    pub fn new(sim: &Simulation, command: Option<String>) -> Report {
        Report::build(sim, command, false)
    }

    /// The report of a simulation whose first variant is the reference every other is compared with
    /// (`pacw sensitivity`).
    pub fn against_first(sim: &Simulation, command: Option<String>) -> Report {
        Report::build(sim, command, true)
    }

    fn build(sim: &Simulation, command: Option<String>, against_first: bool) -> Report {
        let c = &sim.config;
        let several = c.scenarios.len() > 1;
        Report {
            command,
            seed: c.seed,
            games_per_variant: c.games as u64,
            seconds: sim.seconds,
            games_per_second: sim.records.len() as f64 / sim.seconds.max(1e-9),
            threads: sim.threads,
            player_names: c.players.clone(),
            fixed_sides: c.fixed_sides,
            variant_file: (!c.variant_files.is_empty()).then(|| VariantInfo {
                name: c.variant_files.iter().map(|v| v.name.as_str()).collect::<Vec<_>>().join(" + "),
                description: c
                    .variant_files
                    .iter()
                    .map(|v| v.description.as_str())
                    .filter(|d| !d.is_empty())
                    .collect::<Vec<_>>()
                    .join(" "),
                options: c.variant_files.iter().flat_map(|v| v.options.clone()).collect(),
            }),
            compare: c.axes.clone(),
            test: TESTS.to_string(),
            pooling: several.then(|| pooling(sim)),
            main: part(sim, None, against_first),
            scenarios: if several {
                (0..c.scenarios.len()).map(|s| part(sim, Some(s), against_first)).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// The rule sets a `--compare rules=…` axis compares, in the axis's order: each as the axis gives it
    /// (`standard`, a file) with the name of its rules (`standard`, or the file's variant's name); empty without
    /// such an axis.
    pub fn rules_compared(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for v in &self.main.variants {
            if let (Some(value), Some(name)) = (v.settings.get(RULES_AXIS), &v.rules)
                && !out.iter().any(|(x, _)| x == value)
            {
                out.push((value.clone(), name.clone()));
            }
        }
        out
    }

    /// The options in force alike in every column, as `name=value` (all of them, without columns), and the names of
    /// those that differ from column to column (a compared option, or a number the rule sets compared set each
    /// their own way); of the first scenario, with several.
    pub fn options_by_column(&self) -> (Vec<String>, Vec<String>) {
        let columns: Vec<&BTreeMap<String, String>> = self.main.variants.iter().map(|v| &v.options).collect();
        let Some(first) = columns.first() else {
            return (self.main.options.iter().map(|(k, v)| format!("{k}={v}")).collect(), Vec::new());
        };
        let mut names: Vec<&String> = columns.iter().flat_map(|c| c.keys()).collect();
        names.sort();
        names.dedup();
        let (mut alike, mut differ) = (Vec::new(), Vec::new());
        for name in names {
            match first.get(name) {
                Some(value) if columns.iter().all(|c| c.get(name) == Some(value)) => {
                    alike.push(format!("{name}={value}"))
                }
                _ => differ.push(name.clone()),
            }
        }
        (alike, differ)
    }

    /// Every part: the main one, then each scenario's when there are several.
    pub fn parts(&self) -> impl Iterator<Item = &Part> {
        std::iter::once(&self.main).chain(&self.scenarios)
    }

    /// The report as pretty JSON.
    ///
    /// # Panics
    /// If serde_json refuses the report, which its types rule out (every map in it is keyed by strings).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Axis, ScenarioSource, SimConfig};
    use crate::run::run;

    fn source(name: &str) -> ScenarioSource {
        let pacw_engine::Shipped { file, text, .. } =
            pacw_engine::shipped_named(pacw_engine::SHIPPED_SCENARIOS.iter().copied(), name).unwrap();
        ScenarioSource::parse(text, file).unwrap()
    }

    fn sim(compare: Option<&str>) -> Simulation {
        let mut c = SimConfig::of(vec![source("meeting-engagement")]);
        c.games = 12;
        if let Some(x) = compare {
            c.compare(vec![Axis::parse(x).unwrap()]).unwrap();
        }
        run(&c, &|| {}).unwrap()
    }

    #[test]
    fn json_text_and_csv_of_a_plain_simulation() {
        let sim = sim(None);
        let report = Report::new(&sim, Some("pacw simulate m --games 12".into()));
        let v: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(v["games"], 12);
        assert!(v["seconds"].is_number() && v["draws"].is_number());
        assert_eq!(v["players"][0]["name"], "random (1)");
        assert!(v.get("variants").is_none() && v.get("differences").is_none() && v.get("scenarios").is_none());
        let text = render_text(&report);
        assert!(text.contains("all games") && text.contains("Shaken units hit again"));
        assert!(!text.contains("Differences"));
        let csv = games_csv(&sim).unwrap();
        assert_eq!(csv.lines().count(), 13);
    }

    /// results.json's options: the part's are the base options named by the rules played, the variant file's own
    /// modifier among them (they were named by the battle's own rules, which left it out); each column's are the
    /// options it was played under, its compared arm's range or modifier's value.
    #[test]
    fn the_part_names_the_variant_files_options_and_each_column_keeps_its_own() {
        let mut c = SimConfig::of(vec![source("meeting-engagement")]);
        c.games = 2;
        let own = "name = \"Sk\"\n[[arms]]\nid = \"skirmishers\"\nlike = \"infantry\"\nrange = 3\n\
                   [[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"charge\"\n[options]\nmodifier.V1 = 2\n";
        c.variant_files = vec![crate::config::VariantFile::parse(own, "sk.toml").unwrap()];
        let option = |options: &BTreeMap<String, String>, name: &str| options.get(name).cloned();
        let report = Report::new(&run(&c, &|| {}).unwrap(), None);
        assert_eq!(option(&report.main.options, "modifier.V1").as_deref(), Some("2"), "{:?}", report.main.options);
        assert!(render_text(&report).contains("modifier.V1=2"));
        for (axis, name, values) in [
            ("range.skirmishers=1,2", "range.skirmishers", ["1", "2"]),
            ("modifier.V1=-1,3", "modifier.V1", ["-1", "3"]),
        ] {
            c.compare(vec![Axis::parse(axis).unwrap()]).unwrap();
            let report = Report::new(&run(&c, &|| {}).unwrap(), None);
            let columns: Vec<Option<String>> = report.main.variants.iter().map(|v| option(&v.options, name)).collect();
            assert_eq!(columns, values.map(|v| Some(v.to_string())), "{axis}");
            assert_eq!(option(&report.main.options, "modifier.V1").as_deref(), Some("2"), "the base: {axis}");
            let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
            assert_eq!(json["variants"][1]["options"][name], values[1], "{axis}");
        }
    }

    /// The tables' notes read as the sentences they are: single spaces, the reinforcements' note among them (its
    /// literal once kept the indentation of its continuation lines).
    #[test]
    fn the_tables_notes_have_single_spaces() {
        let text = include_str!("../../../../docs/examples/reinforcements.toml");
        let mut c = SimConfig::of(vec![ScenarioSource::parse(text, "reinforcements.toml").unwrap()]);
        c.games = 4;
        let report = Report::new(&run(&c, &|| {}).unwrap(), None);
        let sections = sections(&report.main);
        let arrivals = sections.iter().find(|s| s.title == "Reinforcements").expect("the battle's reinforcements");
        assert!(arrivals.note.contains("a unit due found its entry square held"), "{}", arrivals.note);
        for section in &sections {
            assert!(!section.note.contains("  "), "{}: {}", section.title, section.note);
        }
    }

    #[test]
    fn a_comparison_has_one_column_per_variant() {
        let report = Report::new(&sim(Some("to_hit=4,5")), None);
        let columns = report.main.columns();
        assert_eq!(columns.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(), ["to_hit=4", "to_hit=5"]);
        assert_eq!(report.main.all.games, 24);
        let text = render_text(&report);
        assert!(text.contains("Differences between variants") && text.contains("McNemar") && text.contains("Holm"));
        for section in sections(&report.main) {
            assert!(section.rows.iter().all(|(_, cells)| cells.len() == 2), "{}", section.title);
        }
    }

    #[test]
    fn the_text_report_keeps_within_120_columns_and_names_the_battle_s_own_variant() {
        // A battle of its own variant, compared with the standard and a rule set of a long file name, pooled with
        // another: the widest report the laboratory writes.
        let named = format!("variant = \"close-combat\"\n{}", pacw_engine::DEFAULT_SCENARIO);
        let own = ScenarioSource::parse(&named, "own-rules.toml").unwrap();
        let mut c = SimConfig::of(vec![own, source("bloody-lane")]);
        c.games = 4;
        let close = pacw_engine::shipped_named(pacw_engine::SHIPPED_VARIANTS.iter().copied(), "hard-cover").unwrap();
        let file = "a/folder/of/variants/with/a/long/name/hard-cover-for-the-defenders-of-the-heights.toml";
        c.rule_sets.push(crate::config::VariantFile::parse(close.text, file).unwrap());
        c.compare(vec![Axis::parse(&format!("rules=standard,{file}")).unwrap()]).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        let report = Report::new(&sim, None);
        let text = render_text(&report);
        for line in text.lines() {
            assert!(line.chars().count() <= text::WIDTH, "{} columns: {line}", line.chars().count());
        }
        assert!(text.contains("95% interval") && text.contains(&format!("rules=standard → rules={file}")), "{text}");
        // The rules of each column are named, and what a file is laid over: each battle's own rules.
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains(&format!(
                "rules by column: standard: the standard rules alone; {file}: Hard cover, laid over each battle's own \
                 rules (own-rules.toml: Close combat, bloody-lane.toml: standard)"
            )),
            "{text}"
        );
        assert_eq!(report.scenarios[0].variant.as_deref(), Some("Close combat"));
        assert!(text.contains("== Meeting Engagement (own-rules.toml, the battle's variant: Close combat)"), "{text}");
        assert_eq!(report.scenarios[1].variant, None, "the standard rules");
    }

    #[test]
    fn a_variant_s_own_terrain_gets_a_table_by_the_kind_s_name_and_the_standard_rules_none() {
        let scenario = crate::record::tests::entrenched();
        let mut c = SimConfig::new(scenario, crate::record::tests::ENTRENCHED, "entrenched.toml");
        c.games = 8;
        let played = run(&c, &|| {}).unwrap();
        let report = Report::new(&played, None);
        let trench = 6;
        assert_eq!(report.main.own_terrains, [vec![TerrainName { place: trench, name: "entrenchments".into() }]]);
        // The counts are the games' own, summed.
        let attacks: u32 = played.records.iter().map(|r| r.stats.terrain[trench].attacks.total()).sum();
        let moves: u32 = played.records.iter().map(|r| r.stats.terrain[trench].moves_ended).sum();
        assert!(moves > 0, "units step into the entrenchments across their way");
        let counted = report.main.all.terrain_at(trench).unwrap();
        assert_eq!((counted.attacks.attacks, counted.moves_ended.total), (attacks as u64, moves as u64));
        let tables = sections(&report.main);
        let table = tables.iter().find(|t| t.title == "Fighting in the variant's terrain").unwrap();
        let labels: Vec<&str> = table.rows.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(
            labels,
            [
                "entrenchments: attacks on units in it, a game",
                "entrenchments: miss / shaken / retreat / destroyed",
                "entrenchments: moves ending in it, a game"
            ]
        );
        assert_eq!(table.rows[0].1, [format!("{:.2}", attacks as f64 / 8.0)]);
        assert_eq!(table.rows[2].1, [format!("{:.2}", moves as f64 / 8.0)]);
        assert!(render_text(&report).contains("entrenchments: moves ending in it, a game"));
        let v: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(v["own_terrains"][0][0]["name"], "entrenchments");
        assert_eq!(v["terrain"][0]["moves_ended"]["total"], moves);

        // The standard rules have no terrain of their own: no table, and the JSON keeps its shape.
        let standard = Report::new(&sim(None), None);
        assert!(standard.main.own_terrains.is_empty() && standard.main.all.terrain.is_empty());
        assert!(!sections(&standard.main).iter().any(|t| t.title.contains("terrain")));
        let v: serde_json::Value = serde_json::from_str(&standard.to_json()).unwrap();
        assert!(v.get("terrain").is_none() && v.get("own_terrains").is_none());
    }

    #[test]
    fn battles_of_different_terrain_rules_pooled_name_their_kinds_only_battle_by_battle() {
        let read = |_: &str| Ok(crate::record::tests::ENTRENCHMENTS.to_string());
        let own = ScenarioSource::parse_reading(crate::record::tests::ENTRENCHED, "entrenched.toml", &read).unwrap();
        let mut c = SimConfig::of(vec![own, source("meeting-engagement")]);
        c.games = 4;
        let report = Report::new(&run(&c, &|| {}).unwrap(), None);
        assert!(report.main.own_terrains.is_empty(), "pooled counts by place name no kind");
        assert!(!sections(&report.main).iter().any(|t| t.title == "Fighting in the variant's terrain"));
        assert_eq!(report.scenarios[0].own_terrains, [vec![TerrainName { place: 6, name: "entrenchments".into() }]]);
        assert!(sections(&report.scenarios[0]).iter().any(|t| t.title == "Fighting in the variant's terrain"));
        assert!(report.scenarios[1].own_terrains.is_empty());
    }

    #[test]
    fn a_restriction_on_orders_is_reported_with_the_orders_it_left_out_holds_and_moves_among_them() {
        let mut c = SimConfig::of(vec![source("meeting-engagement")]);
        c.games = 4;
        let file = "no-idling.toml";
        let text = "name = \"No idling\"\n[[restrictions]]\nid = \"M1\"\nname = \"no charge\"\nwhen = \"charge\"\n\
                    [[restrictions]]\nid = \"M2\"\nname = \"no idling\"\nwhen = \"order == 'hold'\"\n";
        c.rule_sets.push(crate::config::VariantFile::parse(text, file).unwrap());
        c.compare(vec![Axis::parse(&format!("rules=standard,{file}")).unwrap()]).unwrap();
        let played = run(&c, &|| {}).unwrap();
        let report = Report::new(&played, None);
        assert_eq!(report.main.order_restriction_rules, ["M2 no idling"]);
        let tables = sections(&report.main);
        let table = tables.iter().find(|t| t.title == "Orders the restrictions took away").unwrap();
        let labels: Vec<&str> = table.rows.iter().map(|(label, _)| label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "M1 no charge",
                "  attacking orders it left out",
                "M2 no idling",
                "  orders it left out (Holds, Moves, attacks)"
            ]
        );
        let holds: u32 = played.records.iter().filter(|r| r.variant == 1).map(|r| r.stats.restricted[1].orders).sum();
        assert!(holds > 0, "Holds were taken away");
    }

    #[test]
    fn a_standard_kind_a_variant_changes_is_counted_under_it_and_not_under_the_standard_rules() {
        let mut c = SimConfig::of(vec![source("meeting-engagement")]);
        c.games = 8;
        let file = "thick-woods.toml";
        let thick = "name = \"Thick woods\"\n[[terrain]]\nid = \"woods\"\nname = \"thick woods\"\nmove = 2\n";
        c.rule_sets.push(crate::config::VariantFile::parse(thick, file).unwrap());
        c.compare(vec![Axis::parse(&format!("rules=standard,{file}")).unwrap()]).unwrap();
        let report = Report::new(&run(&c, &|| {}).unwrap(), None);
        assert_eq!(report.main.own_terrains, [vec![], vec![TerrainName { place: 1, name: "thick woods".into() }]]);
        let tables = sections(&report.main);
        let table = tables.iter().find(|t| t.title == "Fighting in the variant's terrain").unwrap();
        assert_eq!(table.rows[0].0, "thick woods: attacks on units in it, a game");
        for (label, cells) in &table.rows {
            assert_eq!(cells[0], "—", "the standard rules have no woods of their own: {label}");
            assert_ne!(cells[1], "—", "{label}");
        }
        assert!(report.main.variants[0].summary.terrain.is_empty());
    }

    #[test]
    fn a_variant_s_restrictions_get_a_table_of_what_they_took_away_and_the_standard_rules_a_dash() {
        let mut c = SimConfig::of(vec![source("meeting-engagement")]);
        c.games = 8;
        let file = "hold.toml";
        let hold = "name = \"Hold the line\"\n[[restrictions]]\nid = \"M1\"\n\
                    name = \"troops will not charge a steady line\"\nwhen = \"charge and not target.shaken\"\n";
        c.rule_sets.push(crate::config::VariantFile::parse(hold, file).unwrap());
        c.compare(vec![Axis::parse(&format!("rules=standard,{file}")).unwrap()]).unwrap();
        let played = run(&c, &|| {}).unwrap();
        let report = Report::new(&played, None);
        let m1 = "M1 troops will not charge a steady line".to_string();
        assert_eq!(report.main.restriction_rules, [vec![], vec![m1.clone()]]);
        // The counts are the games' own, summed; the standard rules' games count nothing.
        let of = |v: usize| played.records.iter().filter(move |r| r.variant == v);
        assert!(of(0).all(|r| r.stats.restricted.is_empty()));
        let decisions: u32 = of(1).map(|r| r.stats.restricted[0].decisions).sum();
        let orders: u32 = of(1).map(|r| r.stats.restricted[0].orders).sum();
        assert!(decisions > 0 && orders >= decisions, "charges on steady troops were offered: {decisions}, {orders}");
        let tables = sections(&report.main);
        let table = tables.iter().find(|t| t.title == "Orders the restrictions took away").unwrap();
        let per_game = |n: u32| format!("{:.2}", f64::from(n) / 8.0);
        assert_eq!(
            table.rows,
            [
                (m1, vec!["—".to_string(), per_game(decisions)]),
                ("  attacking orders it left out".to_string(), vec!["—".to_string(), per_game(orders)]),
            ]
        );
        let v: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(v["variants"][1]["restricted_decisions"][0]["total"], decisions);
        assert_eq!(v["variants"][1]["restricted_orders"][0]["total"], orders);
        assert!(v["variants"][0].get("restricted_decisions").is_none(), "none under the standard rules");
        // The standard rules alone: no table, and the JSON keeps its shape.
        let standard = Report::new(&sim(None), None);
        assert!(!sections(&standard.main).iter().any(|t| t.title == "Orders the restrictions took away"));
        let v: serde_json::Value = serde_json::from_str(&standard.to_json()).unwrap();
        assert!(v.get("restricted_decisions").is_none() && v.get("restriction_rules").is_none());
    }

    #[test]
    fn a_variant_s_rally_modifiers_are_counted_under_its_rally_rolls_by_their_ids() {
        let mut c = SimConfig::of(vec![source("bloody-lane")]);
        c.games = 8;
        let file = "rally.toml";
        // Every roll is a veteran's or not: the two modifiers' counts share out the rolls.
        let rally = "name = \"Rally on four\"\n[rally]\nid = \"MR1\"\nname = \"rally test\"\nneeded = 4\n\
                     [[rally_modifiers]]\nid = \"R1\"\nname = \"veterans\"\nvalue = 1\n\
                     when = \"unit.quality == 'veteran'\"\n\
                     [[rally_modifiers]]\nid = \"R2\"\nname = \"not veterans\"\nvalue = -1\n\
                     when = \"unit.quality != 'veteran'\"\n";
        c.rule_sets.push(crate::config::VariantFile::parse(rally, file).unwrap());
        c.compare(vec![Axis::parse(&format!("rules=standard,{file}")).unwrap()]).unwrap();
        let played = run(&c, &|| {}).unwrap();
        let report = Report::new(&played, None);
        let (r1, r2) = ("R1 veterans".to_string(), "R2 not veterans".to_string());
        assert_eq!(report.main.rally_modifier_rules, [vec![], vec![r1.clone(), r2.clone()]]);
        let of = |v: usize| played.records.iter().filter(move |r| r.variant == v);
        assert!(of(0).all(|r| r.stats.rally_modified == [0; pacw_engine::system::MAX_RALLY_MODIFIERS]));
        let rolls: u32 = of(1).map(|r| r.stats.rally_rolls).sum();
        let applied = |m: usize| of(1).map(|r| r.stats.rally_modified[m]).sum::<u32>();
        assert!(rolls > 0, "shaken units were activated");
        assert_eq!(applied(0) + applied(1), rolls, "each roll is a veteran's or not");
        let tables = sections(&report.main);
        let table = tables.iter().find(|t| t.title == "Rally rolls").unwrap();
        let per_game = |n: u32| format!("{:.2}", f64::from(n) / 8.0);
        assert_eq!(
            table.rows[3..],
            [
                (format!("  {r1}: dice it applied to"), vec!["—".to_string(), per_game(applied(0))]),
                (format!("  {r2}: dice it applied to"), vec!["—".to_string(), per_game(applied(1))]),
            ]
        );
        let v: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(v["variants"][1]["rally_modified"][0]["total"], applied(0));
        assert_eq!(v["variants"][1]["rally_modified"][1]["total"], applied(1));
        assert_eq!(v["rally_modifier_rules"][1], serde_json::json!([r1, r2]));
        assert!(v["variants"][0].get("rally_modified").is_none(), "none under the standard rules");
        let text = render_text(&report);
        assert!(text.contains("R1 veterans: dice it applied to"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 120), "{text}");
        let html = crate::site::index_html(&report, &[]).unwrap();
        assert!(html.contains("R1 veterans: dice it applied to"), "the page's tables are the report's");
        // The standard rules alone: no such rows, and the JSON keeps its shape.
        let standard = Report::new(&sim(None), None);
        let v: serde_json::Value = serde_json::from_str(&standard.to_json()).unwrap();
        assert!(v.get("rally_modified").is_none() && v.get("rally_modifier_rules").is_none());
    }

    #[test]
    fn the_tables_say_a_variant_s_words_for_the_attacks() {
        let words = AttackWords::of_columns(&[("volley".into(), "close combat".into())]).unwrap();
        assert_eq!(words.say("Shooting versus charges"), "Volley versus close combat");
        assert_eq!(
            words.say("shoot, then charge on the next activation"),
            "volley, then close combat on the next activation"
        );
        let bayonets = AttackWords::of_columns(&[("fire".into(), "bayonet charge".into())]).unwrap();
        assert_eq!(bayonets.say("share of charges; shooting"), "share of bayonet charge; shooting");
        // A battle of close combat: its tables and differences say it, never "charge".
        let named = format!("variant = \"close-combat\"\n{}", pacw_engine::DEFAULT_SCENARIO);
        let mut c = SimConfig::of(vec![ScenarioSource::parse(&named, "own.toml").unwrap()]);
        c.games = 4;
        c.compare(vec![Axis::parse("to_hit=4,5").unwrap()]).unwrap();
        let report = Report::new(&run(&c, &|| {}).unwrap(), None);
        let text = render_text(&report);
        assert!(text.contains("close combat (distance 1): attacks a game") && !text.contains("charge"), "{text}");
        assert!(report.main.differences.iter().any(|d| d.metric == "share of close combat"));
        // Played by the standard rules (rules=standard), the tables keep the standard words.
        let mut c = SimConfig::of(vec![ScenarioSource::parse(&named, "own.toml").unwrap()]);
        c.games = 2;
        c.compare(vec![Axis::parse("rules=standard").unwrap()]).unwrap();
        assert_eq!(Report::new(&run(&c, &|| {}).unwrap(), None).main.terms, None);
    }

    /// A shipped variant, read as a `--compare rules=…` axis names it (`variants/NAME.toml`).
    fn rule_set(name: &str) -> crate::config::VariantFile {
        let shipped = pacw_engine::shipped_named(pacw_engine::SHIPPED_VARIANTS.iter().copied(), name).unwrap();
        crate::config::VariantFile::parse(shipped.text, &format!("variants/{name}.toml")).unwrap()
    }

    /// A simulation of `scenarios` comparing the rule sets `rules` (`standard`, or shipped variants by name).
    fn compare_rules(scenarios: Vec<ScenarioSource>, rules: &[&str]) -> Report {
        let mut c = SimConfig::of(scenarios);
        c.games = 4;
        let mut values = Vec::new();
        for name in rules {
            if *name == crate::config::STANDARD_RULES {
                values.push(name.to_string());
            } else {
                c.rule_sets.push(rule_set(name));
                values.push(format!("variants/{name}.toml"));
            }
        }
        c.compare(vec![Axis::parse(&format!("rules={}", values.join(","))).unwrap()]).unwrap();
        Report::new(&run(&c, &|| {}).unwrap(), None)
    }

    #[test]
    fn columns_of_different_words_for_the_attacks_say_each_column_s() {
        let mixed = |columns: &[(&str, &str)]| {
            let columns: Vec<(String, String)> = columns.iter().map(|(f, c)| (f.to_string(), c.to_string())).collect();
            AttackWords::of_columns(&columns)
        };
        assert_eq!(mixed(&[("fire", "charge"), ("fire", "charge")]), None, "the standard words");
        let words = mixed(&[("fire", "charge"), ("fire", "close combat")]).unwrap();
        assert_eq!((words.fire.as_str(), words.charge.as_str()), ("fire", "charge / close combat"));
        assert_eq!(words.say("Shooting versus charges"), "Shooting versus charges / close combat");
        assert_eq!(words.say("shoot, then charge on the next"), "shoot, then charge / close combat on the next");
        let words = mixed(&[("volley", "charge"), ("fire", "charge")]).unwrap();
        assert_eq!(words.say("Shooting versus charges"), "Volley / shooting versus charges");
        assert_eq!(words.say("  infantry shooting"), "  infantry volley / shooting");

        // The standard rules beside close combat: every row says both words, the standard one first, as the
        // columns come.
        let report = compare_rules(vec![source("meeting-engagement")], &["standard", "close-combat"]);
        assert_eq!(report.main.terms.as_ref().map(|t| t.charge.as_str()), Some("charge / close combat"));
        let text = render_text(&report);
        assert!(text.contains("Shooting versus charges / close combat"), "{text}");
        assert!(text.contains("  charges / close combat (distance 1): attacks a game"), "{text}");
        assert!(!text.contains("  charges (distance 1)"), "no row names one column's word alone: {text}");
        assert!(report.main.differences.iter().any(|d| d.metric == "share of charges / close combat"));
        let v: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(v["terms"]["charge"], "charge / close combat");

        // Columns that agree (two files laid over a battle of close combat) say their one word.
        let named = format!("variant = \"close-combat\"\n{}", pacw_engine::DEFAULT_SCENARIO);
        let own = ScenarioSource::parse(&named, "own.toml").unwrap();
        let report = compare_rules(vec![own], &["hard-cover", "no-cover"]);
        let text = render_text(&report);
        assert!(text.contains("  close combat (distance 1): attacks a game") && !text.contains("charge"), "{text}");
    }

    #[test]
    fn the_header_of_a_comparison_of_rules_names_each_column_s_rules_and_the_options_they_share() {
        let named = format!("variant = \"close-combat\"\n{}", pacw_engine::DEFAULT_SCENARIO);
        let own = ScenarioSource::parse(&named, "own.toml").unwrap();
        let report = compare_rules(vec![own], &["standard", "hard-hitting"]);
        assert_eq!(
            report.rules_compared(),
            [
                ("standard".to_string(), "standard".to_string()),
                ("variants/hard-hitting.toml".to_string(), "Hard hitting".to_string())
            ]
        );
        let text = render_text(&report);
        let header: Vec<&str> = text.lines().take_while(|l| !l.starts_with("Results")).collect();
        let header = header.join(" ").split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            header.contains(
                "rules by column: standard: the standard rules alone; variants/hard-hitting.toml: Hard hitting, laid \
                 over the battle's own rules (Close combat)"
            ),
            "{header}"
        );
        assert!(
            !header.contains("variant: Close combat"),
            "no column is played by the battle's variant alone: {header}"
        );
        // The options every column shares, and the names of those the rule sets set each their own way.
        let (alike, differ) = report.options_by_column();
        let columns: Vec<&BTreeMap<String, String>> = report.main.variants.iter().map(|v| &v.options).collect();
        assert!(!differ.is_empty(), "the hard hitting rules set numbers of their own");
        for name in &differ {
            assert_ne!(columns[0].get(name), columns[1].get(name), "{name}");
            assert!(!header.contains(&format!(" {name}=")), "{name} is not given one value: {header}");
        }
        for pair in &alike {
            let (name, value) = pair.split_once('=').unwrap();
            assert!(columns.iter().all(|c| c.get(name).map(String::as_str) == Some(value)), "{pair}");
        }
        assert!(header.contains(&format!("options alike in every column: {}", alike[0])), "{header}");
        assert!(header.contains(&format!("options that differ by column: {}", differ.join(" "))), "{header}");
        // Not a comparison of rules: the options line is as it was, the variant named.
        let plain = render_text(&Report::new(&sim(None), None));
        assert!(plain.contains("\noptions: ") && !plain.contains("rules by column"), "{plain}");
    }

    #[test]
    fn several_scenarios_give_a_pooled_part_and_one_part_each() {
        let mut c = SimConfig::of(vec![source("meeting-engagement"), source("bloody-lane")]);
        c.games = 6;
        c.compare(vec![Axis::parse("to_hit=4,5").unwrap()]).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        let report = Report::new(&sim, None);
        assert_eq!(report.main.scenario, "all 2 scenarios");
        assert_eq!(report.main.all.games, 24);
        assert_eq!(report.scenarios.len(), 2);
        assert_eq!(report.scenarios[1].all.games, 12);
        assert_eq!(report.scenarios[0].variants[1].summary.games, 6);
        let pooled: u64 = report.scenarios.iter().map(|p| p.all.sides[0].results.wins).sum();
        assert_eq!(report.main.all.sides[0].results.wins, pooled);
        let text = render_text(&report);
        assert!(text.contains("Bloody Lane") && text.contains("all 2 scenarios"));
        // The meeting engagement names no attacker, so the pool is by first and second side, and says why.
        assert_eq!(report.main.all.sides[0].name, "first side");
        assert!(text.contains("pooled by first and second side") && text.contains("meeting-engagement.toml"), "{text}");
    }

    #[test]
    fn scenarios_that_name_their_attackers_pool_by_attacker_and_defender() {
        // The Union attacks at Marye's Heights (the first side), the Confederates at Franklin (the second).
        let mut c = SimConfig::of(vec![source("maryes-heights"), source("franklin")]);
        c.games = 8;
        c.compare(vec![Axis::parse("to_hit=4,5").unwrap()]).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        assert!(sim.pooled_by_attacker());
        let report = Report::new(&sim, None);
        let names: Vec<&str> = report.main.all.sides.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["attacker", "defender"]);
        let [mh, franklin] = [&report.scenarios[0].all, &report.scenarios[1].all];
        let attacker_wins = mh.sides[0].results.wins + franklin.sides[1].results.wins;
        let defender_wins = mh.sides[1].results.wins + franklin.sides[0].results.wins;
        assert_eq!(report.main.all.sides[0].results.wins, attacker_wins);
        assert_eq!(report.main.all.sides[1].results.wins, defender_wins);
        let lost = |s: &Summary, i: usize| s.sides[i].destroyed.total;
        assert_eq!(lost(&report.main.all, 0), lost(mh, 0) + lost(franklin, 1));
        assert_eq!(lost(&report.main.all, 1), lost(mh, 1) + lost(franklin, 0));
        // Each player's results do not depend on how the sides are named.
        let player_wins = |s: &Summary| s.players[0].results.wins;
        assert_eq!(player_wins(&report.main.all), player_wins(mh) + player_wins(franklin));
        let text = render_text(&report);
        assert!(text.contains("pooled by attacker and defender") && text.contains("attacker wins"), "{text}");
        // The differences pooled are the attacker's too; each scenario's are its first side's.
        let metrics = |p: &Part| p.differences.iter().map(|d| d.metric.clone()).collect::<Vec<_>>();
        assert_eq!(metrics(&report.main)[..2], ["attacker wins", "attacker's score (a draw counts half)"]);
        assert!(!metrics(&report.main).iter().any(|m| m.contains("first side")));
        assert_eq!(metrics(&report.scenarios[1])[0], "first side wins");
    }
}
