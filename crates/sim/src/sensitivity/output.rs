//! A sensitivity run's output: the ranked table and the verdicts as text, and the report folder (`--out DIR`):
//! `sensitivity.json`, `games.csv`, one tornado chart per statistic and `index.html`.

use super::{JUDGED_ON, Row, Table, metric_in};
use crate::charts::tornado;
use crate::error::SimError;
use crate::report::text::{WIDTH, wrap, wrap_after};
use crate::report::{Part, Report, games_csv, pct};
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

/// An effect as the text's cell, without its interval: `+3.1*`.
fn short_cell(row: &Row, metric: &str) -> String {
    let Some(e) = row.effects.iter().find(|e| e.metric == metric) else { return "—".into() };
    let d = &e.difference;
    let value = if d.is_rate { format!("{:+.1}", 100.0 * d.difference) } else { format!("{:+.2}", d.difference) };
    format!("{value}{}", if d.significant { "*" } else { "" })
}

/// The judged statistics as `part` names them (the attacker's, pooled by attacker; a variant's word for a charge).
fn metrics(part: &Part) -> Vec<String> {
    JUDGED_ON.iter().map(|m| metric_in(part, m)).collect()
}

/// The header of the ranked table.
fn header(part: &Part) -> Vec<String> {
    ["option", "change"].into_iter().map(String::from).chain(metrics(part)).collect()
}

/// A change in words: `removed (-1 → 0)`.
fn change(row: &Row) -> String {
    format!("{} ({} → {})", row.change.kind, row.change.from, row.change.to)
}

/// The ranked table's rows as text cells.
fn rows(table: &Table) -> Vec<Vec<String>> {
    table
        .rows
        .iter()
        .map(|r| [r.change.option.clone(), change(r)].into_iter().chain(JUDGED_ON.iter().map(|m| cell(r, m))).collect())
        .collect()
}

/// The base's values of the judged statistics, for the text and page.
fn base_line(report: &Report, part: usize) -> String {
    let Some(p) = report.parts().nth(part) else { return String::new() };
    let Some(base) = p.variants.first() else { return String::new() };
    let s = &base.summary;
    let line = format!(
        "base: {} wins {}, turns {:.2}, losses to shooting {}, charges {} of attacks, shaken units hit again {}",
        s.sides[0].name,
        pct(s.sides[0].results.win_rate),
        s.length.turns_mean,
        pct(s.attacks.losses_to_shooting.rate),
        pct(s.attacks.charge_share.rate),
        pct(s.shaken.hit_again.rate)
    );
    p.terms.as_ref().map_or_else(|| line.clone(), |words| words.say(&line))
}

const NOTE: &str = "Each change played on the same games (seeds and sides) as the base; the change in each statistic \
                    with its 95% interval, in points of percentage for rates (turns in turns). * marks a change \
                    significant after Holm's adjustment over all the changes of that statistic. Rows are ranked by \
                    the strongest evidence of any effect. A verdict's \"moves\" needs a significant change of at \
                    least 2 points (rates) or 0.2 turns; a smaller significant one \"barely moves\".";

/// The note under the text's tables: as [`NOTE`], the intervals left to the JSON and the HTML report.
const TEXT_NOTE: &str = "Each change played on the same games (seeds and sides) as the base; the change in each \
                         statistic, in points of percentage for rates (turns in turns), ranked by the strongest \
                         evidence of any effect; * marks a change significant after Holm's adjustment over all the \
                         changes of that statistic. The 95% intervals are left to --json and to the report --out DIR \
                         writes (index.html, sensitivity.json). A verdict's \"moves\" needs a significant change of at \
                         least 2 points (rates) or 0.2 turns; a smaller significant one \"barely moves\".";

/// A statistic's name as two lines of a header, broken between words where the longer line is shortest.
fn two_lines(name: &str) -> [String; 2] {
    let words: Vec<&str> = name.split(' ').collect();
    (0..=words.len())
        .map(|at| [words[..at].join(" "), words[at..].join(" ")])
        .min_by_key(|[a, b]| (a.chars().count().max(b.chars().count()), b.is_empty()))
        .unwrap_or_default()
}

/// Writes `lines` (cells in columns) indented by `indent`, each column as wide as its widest cell and a gap of two.
fn columns(out: &mut String, indent: usize, lines: &[Vec<String>]) {
    let count = lines.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..count)
        .map(|c| lines.iter().filter_map(|l| l.get(c)).map(|x| x.chars().count()).max().unwrap_or(0) + 2)
        .collect();
    for line in lines {
        let mut text = " ".repeat(indent);
        for (cell, w) in line.iter().zip(&widths) {
            text.push_str(cell);
            text.push_str(&" ".repeat(w.saturating_sub(cell.chars().count())));
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
}

/// The ranked table as text within [`WIDTH`]: a row per change, its option and change, then each statistic's
/// change and significance mark under a header of two lines; where the options' names are too long for that, each
/// change on a line of its own above its statistics.
fn ranked_text(out: &mut String, table: &Table, part: &Part) {
    let names: Vec<[String; 2]> = metrics(part).iter().map(|m| two_lines(m)).collect();
    let cells: Vec<Vec<String>> =
        table.rows.iter().map(|r| JUDGED_ON.iter().map(|m| short_cell(r, m)).collect()).collect();
    let head = |i: usize| names.iter().map(|n| n[i].clone()).collect::<Vec<_>>();
    let mut side: Vec<Vec<String>> = vec![
        [String::new(), String::new()].into_iter().chain(head(0)).collect(),
        ["option".to_string(), "change".to_string()].into_iter().chain(head(1)).collect(),
    ];
    for (r, c) in table.rows.iter().zip(&cells) {
        side.push([r.change.option.clone(), change(r)].into_iter().chain(c.iter().cloned()).collect());
    }
    let mut wide = String::new();
    columns(&mut wide, 2, &side);
    if wide.lines().all(|l| l.chars().count() <= WIDTH) {
        out.push_str(&wide);
        return;
    }
    // Each change above its statistics' changes, these in columns under the header.
    let mut below = String::new();
    let mut lines = vec![head(0), head(1)];
    lines.extend(cells.iter().cloned());
    columns(&mut below, 4, &lines);
    let mut below = below.lines();
    out.push_str("  option, change\n");
    for line in below.by_ref().take(2) {
        out.push_str(line);
        out.push('\n');
    }
    for (r, line) in table.rows.iter().zip(below) {
        out.push_str(&wrap_after("  ", &format!("{} {}", r.change.option, change(r)), 4));
        out.push_str(line);
        out.push('\n');
    }
}

/// The whole result as text, every line within 120 columns: the effects with their significance marks, their
/// intervals left to the JSON and the HTML report.
pub fn render_text(result: &SensitivityReport) -> String {
    let mut out = String::new();
    let r = &result.report;
    out.push_str(&wrap(
        &format!(
            "Sensitivity of {} ({}): {} games a change, seed {}, {}",
            r.main.scenario,
            r.main.scenario_file,
            r.games_per_variant,
            r.seed,
            r.player_names.join(" vs ")
        ),
        2,
    ));
    if let Some(variant) = &r.main.variant {
        out.push_str(&wrap(&format!("variant: {variant}"), 2));
    }
    out.push_str(&format!(
        "{:.1} s on {} threads ({})\n",
        r.seconds,
        r.threads,
        crate::report::pace_words(r.games_per_second)
    ));
    for (i, (table, part)) in result.tables.iter().zip(r.parts()).enumerate() {
        out.push('\n');
        out.push_str(&wrap(&format!("== {}", table.scenario), 3));
        out.push_str(&wrap(&base_line(r, i), 2));
        out.push('\n');
        ranked_text(&mut out, table, part);
        out.push_str("\n  Verdicts:\n");
        for v in &table.verdicts {
            let words = part.terms.as_ref().map_or_else(|| v.words(), |t| t.say(&v.words()));
            let prefix = format!("    {:<20} ", v.option);
            out.push_str(&wrap_after(&prefix, &words, prefix.chars().count().min(25)));
        }
    }
    out.push('\n');
    out.push_str(&wrap(TEXT_NOTE, 0));
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
            let named = metric_in(part, metric);
            let differences: Vec<_> = part.differences.iter().filter(|d| d.metric == named).collect();
            let file = format!(
                "tornado-{}{}.svg",
                if i == 0 { String::new() } else { format!("{i}-") },
                metric.replace([' ', '\''], "_")
            );
            let title = format!("{named}: change from the base");
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
            header: header(part),
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
