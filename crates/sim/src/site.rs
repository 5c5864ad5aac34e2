//! The report folder (`--out DIR`): `results.json`, `games.csv`, the SVG charts and `index.html`, a page rendered
//! from the `templates/report.html` template (minijinja, which escapes every value).

use crate::charts::{self, Chart};
use crate::error::SimError;
use crate::report::{Part, Report, Section, differences_table, games_csv, sections};
use crate::run::Simulation;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The report as JSON.
pub const RESULTS_JSON: &str = "results.json";
/// The CSV of every game.
pub const GAMES_CSV: &str = "games.csv";
/// The HTML report.
pub const INDEX_HTML: &str = "index.html";

const TEMPLATE: &str = include_str!("../templates/report.html");

/// A table of the page: a title, a note, a header and rows of cells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// Its title.
    pub title: String,
    /// A sentence explaining it (may be empty).
    pub note: String,
    /// The header cells.
    pub header: Vec<String>,
    /// The rows.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A summary section as a table whose columns are `columns`.
    pub fn of_section(section: &Section, columns: &[String]) -> Table {
        Table {
            title: section.title.clone(),
            note: section.note.clone(),
            header: std::iter::once(String::new()).chain(columns.iter().cloned()).collect(),
            rows: section
                .rows
                .iter()
                .map(|(label, cells)| {
                    std::iter::once(label.trim_start().to_string()).chain(cells.iter().cloned()).collect()
                })
                .collect(),
        }
    }
}

/// One line of the facts at the top of the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fact {
    /// What it is.
    pub label: String,
    /// Its value.
    pub value: String,
    /// Whether the value is code (a command, options).
    pub code: bool,
}

impl Fact {
    /// A fact in words.
    pub fn text(label: &str, value: impl Into<String>) -> Fact {
        Fact { label: label.into(), value: value.into(), code: false }
    }

    /// A fact that is code.
    pub fn code(label: &str, value: impl Into<String>) -> Fact {
        Fact { label: label.into(), value: value.into(), code: true }
    }
}

/// A part of the page: tables before the charts (`lead`), the charts, and tables after them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PagePart {
    /// Its heading (shown when there are several parts).
    pub title: String,
    /// Tables shown before the charts.
    pub lead: Vec<Table>,
    /// The charts (file, title, caption).
    pub charts: Vec<ChartRef>,
    /// Tables shown after the charts.
    pub tables: Vec<Table>,
}

/// A chart as the page links it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChartRef {
    /// Its SVG file, beside the page.
    pub file: String,
    /// Its title (the image's alternative text).
    pub title: String,
    /// Its caption.
    pub caption: String,
}

impl From<&Chart> for ChartRef {
    fn from(c: &Chart) -> ChartRef {
        ChartRef { file: c.file.clone(), title: c.title.clone(), caption: c.caption.clone() }
    }
}

/// A whole page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Page {
    /// `simulation` or `sensitivity`.
    pub kind: String,
    /// What it is about.
    pub title: String,
    /// Facts at the top.
    pub facts: Vec<Fact>,
    /// The data files beside it.
    pub data: Vec<String>,
    /// Its parts.
    pub parts: Vec<PagePart>,
}

/// Renders a page with the report template.
///
/// # Errors
/// When the template cannot be rendered (a bug: the template ships with pacw).
pub fn render_page(page: &Page) -> Result<String, SimError> {
    let mut env = minijinja::Environment::new();
    let fail = |e: minijinja::Error| SimError::Template(e.to_string());
    env.add_template("report.html", TEMPLATE).map_err(fail)?;
    env.get_template("report.html").map_err(fail)?.render(minijinja::value::Serde(page)).map_err(fail)
}

/// The facts every report shows: scenarios, command, games, players, options, time.
pub fn facts(report: &Report) -> Vec<Fact> {
    let mut out = vec![Fact::code("Scenario files", report.main.scenario_file.clone())];
    if let Some(cmd) = &report.command {
        out.push(Fact::code("Command", cmd.clone()));
    }
    let sides = if report.fixed_sides { "fixed sides" } else { "the players swap sides every other game" };
    let variants = report.main.variants.len();
    out.push(Fact::text(
        "Games",
        format!(
            "{}{}, seed {}; players {} ({sides}); games of the same number share their seed in every variant",
            report.games_per_variant,
            if variants == 0 { String::new() } else { format!(" per variant, {variants} variants") },
            report.seed,
            report.player_names.join(" vs ")
        ),
    ));
    let rules = report.rules_compared();
    match &report.variant_file {
        Some(v) if !rules.is_empty() => out.push(Fact::text(
            "Variant",
            format!("{} (--variant), not played: each column is played by its rules", v.name),
        )),
        Some(v) => out.push(Fact::text("Variant", format!("{}: {}", v.name, v.description))),
        None => {}
    }
    if !rules.is_empty() {
        out.push(Fact::text("Rules by column", crate::report::text::rules_words(report, &rules)));
    }
    let (alike, differ) = report.options_by_column();
    if differ.is_empty() {
        out.push(Fact::code("Options", alike.join(" ")));
    } else {
        out.push(Fact::code("Options alike in every column", alike.join(" ")));
        out.push(Fact::code("Options that differ by column", differ.join(" ")));
    }
    for axis in &report.compare {
        out.push(Fact::code("Compared", format!("{} = {}", axis.option, axis.values.join(", "))));
    }
    out.push(Fact::text(
        "Time",
        format!(
            "{:.2} s on {} threads ({})",
            report.seconds,
            report.threads,
            crate::report::pace_words(report.games_per_second)
        ),
    ));
    out
}

/// The tables of a simulation's part: the summary sections, then the differences.
fn part_tables(part: &Part, tests: &str) -> Vec<Table> {
    let columns: Vec<String> = part.columns().into_iter().map(|(l, _)| l).collect();
    let mut tables: Vec<Table> = sections(part).iter().map(|s| Table::of_section(s, &columns)).collect();
    if !part.differences.is_empty() {
        let (header, rows) = differences_table(part);
        tables.push(Table {
            title: "Differences between variants".into(),
            note: format!(
                "Changes are in points of percentage for rates. Tests: {tests}; significant when the Holm p < 0.05."
            ),
            header,
            rows,
        });
    }
    tables
}

/// The HTML report of a simulation, showing `charts` (written beside it).
///
/// # Errors
/// As [`render_page`].
pub fn index_html(report: &Report, charts: &[Chart]) -> Result<String, SimError> {
    let parts = report
        .parts()
        .enumerate()
        .map(|(i, part)| {
            let shows = if i == 0 { None } else { Some(i - 1) };
            let mine: Vec<ChartRef> = charts.iter().filter(|c| c.part == shows).map(ChartRef::from).collect();
            PagePart {
                title: format!("{} ({})", part.scenario, part.scenario_file),
                lead: Vec::new(),
                charts: mine,
                tables: part_tables(part, &report.test),
            }
        })
        .collect();
    render_page(&Page {
        kind: "simulation".into(),
        title: report.main.scenario.clone(),
        facts: facts(report),
        data: vec![RESULTS_JSON.into(), GAMES_CSV.into()],
        parts,
    })
}

/// Writes `text` to `dir/name`.
///
/// # Errors
/// When the file or a folder above it cannot be written.
pub fn write_file(dir: &Path, name: &str, text: &str) -> Result<PathBuf, SimError> {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|source| SimError::Write { path: parent.to_path_buf(), source })?;
    }
    std::fs::write(&path, text).map_err(|source| SimError::Write { path: path.clone(), source })?;
    Ok(path)
}

/// Writes the report to `dir` (created if needed): `results.json`, `games.csv`, the SVG charts and `index.html`.
/// Returns the paths written.
///
/// # Errors
/// When a file or the folder cannot be written, the CSV of the games cannot be made, a chart cannot be drawn, or the
/// page cannot be rendered.
pub fn write_dir(report: &Report, sim: &Simulation, dir: &Path) -> Result<Vec<PathBuf>, SimError> {
    std::fs::create_dir_all(dir).map_err(|source| SimError::Write { path: dir.to_path_buf(), source })?;
    let mut written =
        vec![write_file(dir, RESULTS_JSON, &report.to_json())?, write_file(dir, GAMES_CSV, &games_csv(sim)?)?];
    let charts = charts::all(report, sim)?;
    for chart in &charts {
        written.push(write_file(dir, &chart.file, &chart.svg)?);
    }
    written.push(write_file(dir, INDEX_HTML, &index_html(report, &charts)?)?);
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Axis, SimConfig};
    use crate::run::run;
    use std::sync::Arc;

    #[test]
    fn the_page_escapes_what_it_shows_and_links_every_chart() {
        let scenario = Arc::new(pacw_engine::Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = 6;
        c.compare(vec![Axis::parse("to_hit=4,5").unwrap()]).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        let report = Report::new(&sim, Some("pacw simulate <m> --games 6".into()));
        let charts = charts::all(&report, &sim).unwrap();
        let html = index_html(&report, &charts).unwrap();
        assert!(html.contains("pacw simulate &lt;m&gt; --games 6"), "the command is escaped");
        // minijinja's HTML escaping.
        let escaped = |s: &str| {
            s.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;")
                .replace('\'', "&#x27;")
                .replace('/', "&#x2f;")
        };
        for chart in &charts {
            assert!(html.contains(&format!("src=\"{}\"", chart.file)), "{}", chart.file);
            assert!(html.contains(&escaped(&chart.caption)), "{}", chart.file);
        }
        assert!(html.contains("Differences between variants") && html.contains("Holm"));
        assert!(html.contains("<td class=\"n\">to_hit=4 → to_hit=5</td>"));
    }
}
