//! The report as plain text for the terminal: the summary tables side by side, then the differences; with several
//! scenarios, all pooled first, then each.

use super::table::{differences_table, sections};
use super::{Part, Report};

/// Pads `s` to `width` characters (counting characters, not bytes).
fn pad(s: &str, width: usize) -> String {
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(width.saturating_sub(n)))
}

/// The whole report as text.
pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    let players = report.player_names.join(" vs ");
    let sides = if report.fixed_sides { "fixed sides" } else { "sides swap every other game" };
    out.push_str(&format!("{} ({})\n", report.main.scenario, report.main.scenario_file));
    if let Some(pooling) = &report.pooling {
        out.push_str(&format!("pooled {pooling}\n"));
    }
    let variants = report.main.variants.len();
    out.push_str(&format!(
        "{} games{}, seed {}, {players} ({sides})\n",
        report.games_per_variant,
        if variants == 0 { String::new() } else { format!(" a variant × {variants}") },
        report.seed
    ));
    if let Some(v) = &report.variant_file {
        out.push_str(&format!(
            "variant: {}{}\n",
            v.name,
            if v.description.is_empty() { String::new() } else { format!(" ({})", v.description) }
        ));
    }
    let options: Vec<String> = report.main.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    out.push_str(&format!("options: {}\n", options.join(" ")));
    out.push_str(&format!(
        "{:.2} s on {} thread{} ({})\n",
        report.seconds,
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        super::pace_words(report.games_per_second)
    ));
    render_part(&mut out, &report.main, &report.test);
    for part in &report.scenarios {
        out.push_str(&format!("\n== {} ({})\n", part.scenario, part.scenario_file));
        render_part(&mut out, part, &report.test);
    }
    let mut trimmed: String = out.lines().map(|l| format!("{}\n", l.trim_end())).collect();
    if trimmed.is_empty() {
        trimmed.push('\n');
    }
    trimmed
}

/// Writes `rows` under `header` in columns.
fn columns(out: &mut String, header: &[String], rows: &[Vec<String>]) {
    let widths: Vec<usize> = (0..header.len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).chain([header[i].chars().count()]).max().unwrap_or(0) + 2)
        .collect();
    for line in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        out.push_str("  ");
        for (cell, w) in line.iter().zip(&widths) {
            out.push_str(&pad(cell, *w));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
}

/// One part's tables and differences.
fn render_part(out: &mut String, part: &Part, tests: &str) {
    let columns_of = part.columns();
    let sections = sections(part);
    let label_width = sections.iter().flat_map(|s| &s.rows).map(|(l, _)| l.chars().count() + 2).max().unwrap_or(0) + 2;
    let widths: Vec<usize> = (0..columns_of.len())
        .map(|i| {
            let cells = sections.iter().flat_map(|s| &s.rows).map(|(_, c)| c[i].chars().count());
            cells.chain(std::iter::once(columns_of[i].0.chars().count())).max().unwrap_or(0) + 3
        })
        .collect();
    for section in &sections {
        out.push('\n');
        out.push_str(&pad(&section.title, label_width));
        for ((label, _), w) in columns_of.iter().zip(&widths) {
            out.push_str(&pad(label, *w));
        }
        out.push('\n');
        for (label, cells) in &section.rows {
            out.push_str(&pad(&format!("  {label}"), label_width));
            for (cell, w) in cells.iter().zip(&widths) {
                out.push_str(&pad(cell, *w));
            }
            out.push('\n');
        }
    }
    if !part.differences.is_empty() {
        out.push_str(&format!("\nDifferences between variants ({tests}; significant when the Holm p < 0.05)\n"));
        let (header, rows) = differences_table(part);
        columns(out, &header, &rows);
    }
}
