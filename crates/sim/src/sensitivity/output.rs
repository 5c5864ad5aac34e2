//! A sensitivity run's output: the ranked table and the verdicts as text, and the report folder (`--out DIR`):
//! `sensitivity.json`, `games.csv`, one tornado chart per statistic and `index.html`.

use super::{JUDGED_ON, Row, Table};
use crate::charts::tornado;
use crate::error::SimError;
use crate::report::{Report, games_csv, pct};
use crate::run::Simulation;
use crate::site::{self, ChartRef, Fact, Page, PagePart, write_file};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The JSON file of a sensitivity run.
pub const SENSITIVITY_JSON: &str = "sensitivity.json";

/// Everything a sensitivity run found: the ranked tables (pooled first with several scenarios) and the full
/// report of its variants.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SensitivityReport {
    /// The ranked tables.
    pub tables: Vec<Table>,
    /// The simulation's report (variants, differences).
    pub report: Report,
}

/// An effect as a cell: `+3.1 [+0.4 … +5.8]*` (points of percentage for rates; `*` when significant after Holm).
fn cell(row: &Row, metric: &str) -> String {
    let Some(e) = row.effects.iter().find(|e| e.metric == metric) else { return "—".into() };
    let d = &e.difference;
    let i = d.interval();
    let f = |x: f64| if d.is_rate { format!("{:+.1}", 100.0 * x) } else { format!("{x:+.2}") };
    format!("{} [{} … {}]{}", f(d.difference), f(i.low), f(i.high), if d.significant { "*" } else { "" })
}

/// The header of the ranked table.
fn header() -> Vec<String> {
    ["option", "change"].into_iter().map(String::from).chain(JUDGED_ON.iter().map(|m| m.to_string())).collect()
}

/// The ranked table's rows as text cells.
fn rows(table: &Table) -> Vec<Vec<String>> {
    table
        .rows
        .iter()
        .map(|r| {
            let change = format!("{} ({} → {})", r.change.kind, r.change.from, r.change.to);
            [r.change.option.clone(), change].into_iter().chain(JUDGED_ON.iter().map(|m| cell(r, m))).collect()
        })
        .collect()
}

/// The base's values of the judged statistics, for the text and page.
fn base_line(report: &Report, part: usize) -> String {
    let Some(p) = report.parts().nth(part) else { return String::new() };
    let Some(base) = p.variants.first() else { return String::new() };
    let s = &base.summary;
    format!(
        "base: {} wins {}, turns {:.2}, losses to shooting {}, charges {} of attacks, shaken units hit again {}",
        s.sides[0].name,
        pct(s.sides[0].results.win_rate),
        s.length.turns_mean,
        pct(s.attacks.losses_to_shooting.rate),
        pct(s.attacks.charge_share.rate),
        pct(s.shaken.hit_again.rate)
    )
}

const NOTE: &str = "Each change played on the same games (seeds and sides) as the base; the change in each statistic \
                    with its 95% interval, in points of percentage for rates (turns in turns). * marks a change \
                    significant after Holm's adjustment over all the changes of that statistic. Rows are ranked by \
                    the strongest evidence of any effect. A verdict's \"moves\" needs a significant change of at \
                    least 2 points (rates) or 0.2 turns; a smaller significant one \"barely moves\".";

/// The whole result as text.
pub fn render_text(result: &SensitivityReport) -> String {
    let mut out = String::new();
    let r = &result.report;
    out.push_str(&format!(
        "Sensitivity of {} ({}): {} games a change, seed {}, {}\n",
        r.main.scenario,
        r.main.scenario_file,
        r.games_per_variant,
        r.seed,
        r.player_names.join(" vs ")
    ));
    out.push_str(&format!(
        "{:.1} s on {} threads ({})\n",
        r.seconds,
        r.threads,
        crate::report::pace_words(r.games_per_second)
    ));
    for (i, table) in result.tables.iter().enumerate() {
        out.push_str(&format!("\n== {}\n{}\n\n", table.scenario, base_line(r, i)));
        let header = header();
        let rows = rows(table);
        let widths: Vec<usize> = (0..header.len())
            .map(|c| {
                rows.iter().map(|row| row[c].chars().count()).chain([header[c].chars().count()]).max().unwrap_or(0) + 2
            })
            .collect();
        for line in std::iter::once(&header).chain(&rows) {
            let mut text = String::from("  ");
            for (cell, w) in line.iter().zip(&widths) {
                text.push_str(cell);
                text.push_str(&" ".repeat(w.saturating_sub(cell.chars().count())));
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }
        out.push_str("\n  Verdicts:\n");
        for v in &table.verdicts {
            out.push_str(&format!("    {:<20} {}\n", v.option, v.words()));
        }
    }
    out.push_str(&format!("\n{NOTE}\n"));
    out
}

/// Writes the report folder; returns the paths written.
///
/// # Errors
/// When a file or the folder cannot be written, the CSV of the games cannot be made, a chart cannot be drawn, or the
/// page cannot be rendered.
pub fn write_dir(result: &SensitivityReport, sim: &Simulation, dir: &Path) -> Result<Vec<PathBuf>, SimError> {
    let json = serde_json::to_string_pretty(result)
        .map_err(|e| SimError::Write { path: dir.join(SENSITIVITY_JSON), source: e.into() })?;
    let mut written =
        vec![write_file(dir, SENSITIVITY_JSON, &json)?, write_file(dir, site::GAMES_CSV, &games_csv(sim)?)?];
    let mut parts = Vec::new();
    for (i, (part, table)) in result.report.parts().zip(&result.tables).enumerate() {
        let mut charts = Vec::new();
        for metric in JUDGED_ON {
            let differences: Vec<_> = part.differences.iter().filter(|d| d.metric == metric).collect();
            let file = format!(
                "tornado-{}{}.svg",
                if i == 0 { String::new() } else { format!("{i}-") },
                metric.replace([' ', '\''], "_")
            );
            let title = format!("{metric}: change from the base");
            written.push(write_file(dir, &file, &tornado(&file, &title, &differences)?)?);
            charts.push(ChartRef {
                file,
                title,
                caption: "Largest change at the top; the whisker is the 95% interval, faded bars are not significant \
                          after Holm's adjustment."
                    .into(),
            });
        }
        let verdicts = site::Table {
            title: "Verdicts".into(),
            note: "An option none of whose changes moved a statistic beyond chance is a candidate to drop, at this \
                   number of games; one that never changed a game is simply not used by the scenario (no unit of \
                   that arm, no such terrain)."
                .into(),
            header: vec!["option".into(), "verdict".into()],
            rows: table.verdicts.iter().map(|v| vec![v.option.clone(), v.words()]).collect(),
        };
        let ranked = site::Table {
            title: "Ranked changes".into(),
            note: format!("{} {NOTE}", base_line(&result.report, i)),
            header: header(),
            rows: rows(table),
        };
        parts.push(PagePart {
            title: format!("{} ({})", part.scenario, part.scenario_file),
            lead: vec![verdicts, ranked],
            charts,
            tables: Vec::new(),
        });
    }
    let mut facts = site::facts(&result.report);
    facts.retain(|f| f.label != "Compared");
    facts.push(Fact::text(
        "Changes",
        format!("{} changes of {} options", result.tables[0].rows.len(), result.tables[0].verdicts.len()),
    ));
    let page = Page {
        kind: "sensitivity".into(),
        title: result.report.main.scenario.clone(),
        facts,
        data: vec![SENSITIVITY_JSON.into(), site::GAMES_CSV.into()],
        parts,
    };
    written.push(write_file(dir, site::INDEX_HTML, &site::render_page(&page)?)?);
    Ok(written)
}
