//! Reports of a finished simulation: the [`Report`] (serialised as the `--json` output and `results.json`), a
//! text table for the terminal, a CSV of every game, SVG charts and an HTML page that shows them.

mod csv;
mod html;
mod table;
mod text;

pub use csv::games_csv;
pub use html::index_html;
pub use table::{Section, sections};
pub use text::render_text;

use crate::charts;
use crate::compare::{Difference, differences};
use crate::config::first_mover_rule;
use crate::error::SimError;
use crate::run::Simulation;
use crate::significance::TWO_PROPORTION_TEST;
use crate::stats::{Names, Summary};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The compared option and its values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompareReport {
    /// The option.
    pub option: String,
    /// Its values, in order.
    pub values: Vec<String>,
}

/// One variant's statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantReport {
    /// The compared option.
    pub option: String,
    /// Its value here.
    pub value: String,
    /// `option=value`.
    pub label: String,
    /// Every option in force.
    pub options: BTreeMap<String, String>,
    /// The statistics.
    #[serde(flatten)]
    pub summary: Summary,
}

/// Everything a simulation found, ready to print or serialise. Its JSON form has at least `games`, `draws`,
/// `seconds` and `players` (per player: `name`, `wins`, `win_rate`, `ci_low`, `ci_high`); with `--compare`, also
/// `variants` (each with `option` and `value`) and `differences`. Without `--compare` the top-level statistics are
/// those of the simulation; with it, of all variants pooled.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The scenario's name.
    pub scenario: String,
    /// Its file.
    pub scenario_file: String,
    /// The command that produced the report, to reproduce it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The simulation's seed.
    pub seed: u64,
    /// Games per variant.
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
    /// The base options (the scenario's, with `--set`).
    pub options: BTreeMap<String, String>,
    /// The compared option, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<CompareReport>,
    /// The significance test used for differences.
    pub test: String,
    /// The statistics of all games.
    #[serde(flatten)]
    pub all: Summary,
    /// Per variant, with `--compare`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<VariantReport>,
    /// Differences between variants, with `--compare`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<Difference>,
}

fn option_map(options: &pacw_engine::Options) -> BTreeMap<String, String> {
    options.pairs().into_iter().collect()
}

impl Report {
    /// The report of a simulation; `command` is the command line, if it should be recorded.
    pub fn new(sim: &Simulation, command: Option<String>) -> Report {
        let c = &sim.config;
        let sides = [0, 1].map(|i| (c.scenario.sides[i].id.clone(), c.scenario.sides[i].name.clone()));
        let names =
            |rule: &str| Names { players: c.player_labels(), sides: sides.clone(), first_mover_rule: rule.into() };
        let rules: Vec<&str> = sim.variants.iter().map(|v| v.first_mover_rule()).collect();
        let pooled_rule = if rules.iter().all(|r| *r == rules[0]) {
            rules[0].to_string()
        } else {
            "the side that acted first in turn 1 (first side card, or first initiative roll)".to_string()
        };
        let all = Summary::new(&sim.records, &names(&pooled_rule));
        let variants: Vec<VariantReport> = match &c.compare {
            None => Vec::new(),
            Some(_) => sim
                .variants
                .iter()
                .enumerate()
                .map(|(i, v)| VariantReport {
                    option: v.option.clone().unwrap_or_default(),
                    value: v.value.clone().unwrap_or_default(),
                    label: v.label(),
                    options: option_map(&v.options),
                    summary: Summary::new(sim.variant_records(i), &names(first_mover_rule(v.options.initiative))),
                })
                .collect(),
        };
        let labelled: Vec<(String, &Summary)> = variants.iter().map(|v| (v.label.clone(), &v.summary)).collect();
        let differences = differences(&labelled);
        Report {
            scenario: c.scenario.name.clone(),
            scenario_file: c.scenario_file.clone(),
            command,
            seed: c.seed,
            games_per_variant: c.games as u64,
            seconds: sim.seconds,
            games_per_second: sim.records.len() as f64 / sim.seconds.max(1e-9),
            threads: sim.threads,
            player_names: c.players.clone(),
            fixed_sides: c.fixed_sides,
            options: option_map(&c.options),
            compare: c.compare.as_ref().map(|x| CompareReport { option: x.option.clone(), values: x.values.clone() }),
            test: TWO_PROPORTION_TEST.to_string(),
            all,
            variants,
            differences,
        }
    }

    /// The columns of the summary tables: each variant with its label, or the whole simulation alone.
    pub fn columns(&self) -> Vec<(String, &Summary)> {
        if self.variants.is_empty() {
            vec![("all games".to_string(), &self.all)]
        } else {
            self.variants.iter().map(|v| (v.label.clone(), &v.summary)).collect()
        }
    }

    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serialises")
    }
}

/// The files [`write_dir`] writes, besides the charts.
pub const RESULTS_JSON: &str = "results.json";
/// The CSV of every game.
pub const GAMES_CSV: &str = "games.csv";
/// The HTML report.
pub const INDEX_HTML: &str = "index.html";

/// Writes the report to `dir` (created if needed): `results.json`, `games.csv`, the SVG charts and `index.html`.
/// Returns the paths written.
pub fn write_dir(report: &Report, sim: &Simulation, dir: &Path) -> Result<Vec<PathBuf>, SimError> {
    let write = |name: &str, text: &str| -> Result<PathBuf, SimError> {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|source| SimError::Write { path: path.clone(), source })?;
        Ok(path)
    };
    std::fs::create_dir_all(dir).map_err(|source| SimError::Write { path: dir.to_path_buf(), source })?;
    let mut written = vec![write(RESULTS_JSON, &report.to_json())?, write(GAMES_CSV, &games_csv(sim))?];
    let charts = charts::all(report, sim)?;
    for chart in &charts {
        written.push(write(chart.file, &chart.svg)?);
    }
    written.push(write(INDEX_HTML, &index_html(report, &charts))?);
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Compare, SimConfig};
    use crate::run::run;
    use pacw_engine::Scenario;
    use std::sync::Arc;

    fn sim(compare: Option<&str>) -> Simulation {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = 12;
        c.compare = compare.map(|x| Compare::parse(x).unwrap());
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
        assert!(v.get("variants").is_none() && v.get("differences").is_none());
        let text = render_text(&report);
        assert!(text.contains("all games") && text.contains("Shaken units hit again"));
        assert!(!text.contains("Differences"));
        let csv = games_csv(&sim);
        assert_eq!(csv.lines().count(), 13);
        let columns = csv.lines().next().unwrap().split(',').count();
        assert!(csv.lines().all(|l| l.split(',').count() == columns), "no field needs quoting here");
    }

    #[test]
    fn a_comparison_has_one_column_per_variant() {
        let report = Report::new(&sim(Some("to_hit=4,5")), None);
        let columns = report.columns();
        assert_eq!(columns.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(), ["to_hit=4", "to_hit=5"]);
        assert_eq!(report.all.games, 24);
        let text = render_text(&report);
        assert!(text.contains("Differences between variants") && text.contains("z-test"));
        for section in sections(&report) {
            assert!(section.rows.iter().all(|(_, cells)| cells.len() == 2), "{}", section.title);
        }
    }
}
