//! `index.html`: the charts and the summary tables on one self-contained page (the charts are the SVG files beside
//! it).

use super::table::{differences_table, sections};
use super::{GAMES_CSV, RESULTS_JSON, Report};
use crate::charts::Chart;
use crate::significance::ALPHA;

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{padding:.25em .8em;border-bottom:1px solid #ddd;\
text-align:left;vertical-align:top}td.n{font-variant-numeric:tabular-nums;white-space:nowrap}\
th{background:#f3f3f3}p.note{color:#555;max-width:60em}figure{display:inline-block;margin:0 1em 1em 0}\
figcaption{color:#555}code{background:#f3f3f3;padding:0 .3em}.yes{color:#a00;font-weight:bold}";

/// The HTML report, showing `charts` (written beside it) and the tables of `report`.
pub fn index_html(report: &Report, charts: &[Chart]) -> String {
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str(&format!("<title>pacw simulation: {}</title>\n", esc(&report.scenario)));
    h.push_str(&format!("<style>{STYLE}</style>\n</head>\n<body>\n"));
    h.push_str(&format!("<h1>Simulation: {}</h1>\n<ul>\n", esc(&report.scenario)));
    h.push_str(&format!("<li>Scenario file: <code>{}</code></li>\n", esc(&report.scenario_file)));
    if let Some(cmd) = &report.command {
        h.push_str(&format!("<li>Command: <code>{}</code></li>\n", esc(cmd)));
    }
    let sides = if report.fixed_sides { "fixed sides" } else { "the players swap sides every other game" };
    h.push_str(&format!(
        "<li>{} games{}, seed {}; players {} ({sides})</li>\n",
        report.games_per_variant,
        if report.variants.is_empty() {
            String::new()
        } else {
            format!(" per variant, {} variants", report.variants.len())
        },
        report.seed,
        esc(&report.player_names.join(" vs "))
    ));
    let options: Vec<String> = report.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    h.push_str(&format!("<li>Options: <code>{}</code></li>\n", esc(&options.join(" "))));
    if let Some(c) = &report.compare {
        h.push_str(&format!("<li>Compared: <code>{}</code> = {}</li>\n", esc(&c.option), esc(&c.values.join(", "))));
    }
    h.push_str(&format!(
        "<li>{:.2} s on {} threads ({:.0} games/s)</li>\n",
        report.seconds, report.threads, report.games_per_second
    ));
    h.push_str(&format!(
        "<li>Data: <a href=\"{RESULTS_JSON}\">{RESULTS_JSON}</a>, <a href=\"{GAMES_CSV}\">{GAMES_CSV}</a></li>\n</ul>\n"
    ));

    h.push_str("<section>\n");
    for chart in charts {
        h.push_str(&format!(
            "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>\n",
            chart.file,
            esc(&chart.title),
            esc(&chart.title)
        ));
    }
    h.push_str("</section>\n");

    let columns = report.columns();
    for section in sections(report) {
        h.push_str(&format!("<h2>{}</h2>\n", esc(&section.title)));
        if !section.note.is_empty() {
            h.push_str(&format!("<p class=\"note\">{}</p>\n", esc(&section.note)));
        }
        h.push_str("<table>\n<tr><th></th>");
        for (label, _) in &columns {
            h.push_str(&format!("<th>{}</th>", esc(label)));
        }
        h.push_str("</tr>\n");
        for (label, cells) in &section.rows {
            h.push_str(&format!("<tr><td>{}</td>", esc(label.trim_start())));
            for cell in cells {
                h.push_str(&format!("<td class=\"n\">{}</td>", esc(cell)));
            }
            h.push_str("</tr>\n");
        }
        h.push_str("</table>\n");
    }

    if !report.differences.is_empty() {
        h.push_str("<h2>Differences between variants</h2>\n");
        h.push_str(&format!(
            "<p class=\"note\">Each pair of variants, tested with the {}; significant when p &lt; {ALPHA}.</p>\n",
            esc(&report.test)
        ));
        let (header, rows) = differences_table(report);
        h.push_str("<table>\n<tr>");
        for cell in &header {
            h.push_str(&format!("<th>{}</th>", esc(cell)));
        }
        h.push_str("</tr>\n");
        for row in rows {
            h.push_str("<tr>");
            for (i, cell) in row.iter().enumerate() {
                let class = if i == row.len() - 1 && cell == "yes" { " class=\"n yes\"" } else { " class=\"n\"" };
                h.push_str(&format!("<td{class}>{}</td>", esc(cell)));
            }
            h.push_str("</tr>\n");
        }
        h.push_str("</table>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}
