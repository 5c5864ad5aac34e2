//! The report as plain text for the terminal: the summary tables side by side, then the differences; with several
//! scenarios, all pooled first, then each.

use super::table::{Section, differences_table, sections};
use super::{Part, Report};

/// Pads `s` to `width` characters (counting characters, not bytes).
fn pad(s: &str, width: usize) -> String {
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(width.saturating_sub(n)))
}

/// The widest line of the text report, so that it reads in a terminal: a table too wide for it is set out one
/// variant under another, and the differences leave the columns the HTML report and `--json` carry (the unpaired
/// interval, the test, the p-value before Holm's adjustment).
pub const WIDTH: usize = 120;

/// `text` wrapped on spaces within [`WIDTH`], each line after the first indented by `indent` spaces.
pub(crate) fn wrap(text: &str, indent: usize) -> String {
    wrap_after("", text, indent)
}

/// `text` after `prefix` on its first line, wrapped on spaces within [`WIDTH`], each line after the first indented
/// by `indent` spaces.
pub(crate) fn wrap_after(prefix: &str, text: &str, indent: usize) -> String {
    let mut lines = vec![prefix.to_string()];
    // Whether the line being filled has a word yet (a line is never broken before its first word).
    let mut started = false;
    for word in text.split_whitespace() {
        let Some(last) = lines.last_mut() else { break };
        if started && last.chars().count() + 1 + word.chars().count() > WIDTH {
            lines.push(format!("{}{word}", " ".repeat(indent)));
        } else {
            if started {
                last.push(' ');
            }
            last.push_str(word);
            started = true;
        }
    }
    lines.join("\n") + "\n"
}

/// The whole report as text, every line within 120 characters.
pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    let players = report.player_names.join(" vs ");
    let sides = if report.fixed_sides { "fixed sides" } else { "sides swap every other game" };
    out.push_str(&wrap(&format!("{} ({})", report.main.scenario, report.main.scenario_file), 2));
    if let Some(pooling) = &report.pooling {
        out.push_str(&wrap(&format!("pooled {pooling}"), 2));
    }
    let variants = report.main.variants.len();
    out.push_str(&wrap(
        &format!(
            "{} games{}, seed {}, {players} ({sides})",
            report.games_per_variant,
            if variants == 0 { String::new() } else { format!(" a variant × {variants}") },
            report.seed
        ),
        2,
    ));
    let rules = report.rules_compared();
    match (&report.variant_file, &report.main.variant) {
        // Compared rule sets replace the variant files in every column: they are named, and not said to be played.
        (Some(v), _) if !rules.is_empty() => out.push_str(&wrap(
            &format!("variant: {} (--variant), not played: each column is played by its rules, below", v.name),
            2,
        )),
        _ if !rules.is_empty() => {}
        // The variant files laid over a battle's own variant are named with it (`Skirmishers + Fences`).
        (Some(v), played) => out.push_str(&wrap(
            &format!(
                "variant: {}{}",
                played.as_deref().unwrap_or(&v.name),
                if v.description.is_empty() { String::new() } else { format!(" ({})", v.description) }
            ),
            2,
        )),
        (None, Some(named)) => out.push_str(&wrap(&format!("variant: {named} (named by the battle)"), 2)),
        (None, None) => {}
    }
    if !rules.is_empty() {
        out.push_str(&wrap(&format!("rules by column: {}", rules_words(report, &rules)), 2));
    }
    let (alike, differ) = report.options_by_column();
    if differ.is_empty() {
        out.push_str(&wrap(&format!("options: {}", alike.join(" ")), 2));
    } else {
        out.push_str(&wrap(&format!("options alike in every column: {}", alike.join(" ")), 2));
        out.push_str(&wrap(&format!("options that differ by column: {}", differ.join(" ")), 2));
    }
    out.push_str(&format!(
        "{:.2} s on {} thread{} ({})\n",
        report.seconds,
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        super::pace_words(report.games_per_second)
    ));
    render_part(&mut out, &report.main, &report.test);
    for part in &report.scenarios {
        // With rule sets compared, the variant a battle names is what a file is laid over, not what every column
        // plays by; with variant files too, no column plays by it.
        let variant = match (&part.variant, rules.is_empty(), &report.variant_file) {
            (Some(v), true, _) => format!(", variant: {v}"),
            (Some(v), false, None) => format!(", the battle's variant: {v}"),
            _ => String::new(),
        };
        out.push('\n');
        out.push_str(&wrap(&format!("== {} ({}{variant})", part.scenario, part.scenario_file), 3));
        render_part(&mut out, part, &report.test);
    }
    let mut trimmed: String = out.lines().map(|l| format!("{}\n", l.trim_end())).collect();
    if trimmed.is_empty() {
        trimmed.push('\n');
    }
    trimmed
}

/// The rule sets compared (`rules`, from [`Report::rules_compared`]) in words: "standard: the standard rules alone;
/// variants/close-combat.toml: Close combat, laid over the battle's own rules (Hard cover)".
pub(crate) fn rules_words(report: &Report, rules: &[(String, String)]) -> String {
    // What a file is laid over: the battle's own rules, named where the battle names a variant (the variant files
    // are not laid under it: a rule set replaces them).
    let battle = if report.scenarios.is_empty() { "the battle's" } else { "each battle's" };
    let below = match (&report.variant_file, &report.main.variant) {
        (None, Some(named)) => format!("{battle} own rules ({named})"),
        (None, None) => "the standard rules".to_string(),
        (Some(_), _) => format!("{battle} own rules"),
    };
    rules
        .iter()
        .map(|(value, name)| match value.as_str() {
            crate::config::STANDARD_RULES => format!("{value}: the standard rules alone"),
            _ => format!("{value}: {name}, laid over {below}"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Writes `rows` under `header` in columns, each line indented by `indent` spaces.
fn columns(out: &mut String, indent: usize, header: &[String], rows: &[Vec<String>]) {
    let widths: Vec<usize> = (0..header.len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).chain([header[i].chars().count()]).max().unwrap_or(0) + 2)
        .collect();
    for line in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        out.push_str(&" ".repeat(indent));
        for (cell, w) in line.iter().zip(&widths) {
            out.push_str(&pad(cell, *w));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
}

/// The width of each column of `sections` (its widest cell or label, and a gap).
fn column_widths(sections: &[&Section], labels: &[String]) -> Vec<usize> {
    (0..labels.len())
        .map(|i| {
            let cells = sections.iter().flat_map(|s| &s.rows).map(|(_, c)| c[i].chars().count());
            cells.chain(std::iter::once(labels[i].chars().count())).max().unwrap_or(0) + 3
        })
        .collect()
}

/// The width of the labels of `sections`, indented by two and with a gap (and of their titles, which head the
/// labels' column).
fn label_width(sections: &[&Section]) -> usize {
    let labels = sections.iter().flat_map(|s| &s.rows).map(|(l, _)| l.chars().count() + 2);
    labels.chain(sections.iter().map(|s| s.title.chars().count())).max().unwrap_or(0) + 2
}

/// A section with its variants side by side, labels `label_width` wide and columns `widths`.
fn side_by_side(out: &mut String, section: &Section, labels: &[String], label_width: usize, widths: &[usize]) {
    out.push('\n');
    out.push_str(&pad(&section.title, label_width));
    for (label, w) in labels.iter().zip(widths) {
        out.push_str(&pad(label, *w));
    }
    out.push('\n');
    for (label, cells) in &section.rows {
        out.push_str(&pad(&format!("  {label}"), label_width));
        for (cell, w) in cells.iter().zip(widths) {
            out.push_str(&pad(cell, *w));
        }
        out.push('\n');
    }
}

/// A section too wide for its variants side by side: each variant's column under its label, a cell too long for
/// the line wrapped under its own start.
fn stacked(out: &mut String, section: &Section, labels: &[String]) {
    let label_width = section.rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0) + 6;
    out.push_str(&format!("\n{}\n", section.title));
    for (i, variant) in labels.iter().enumerate() {
        out.push_str(&wrap_after("  ", variant, 4));
        for (label, cells) in &section.rows {
            out.push_str(&wrap_after(&pad(&format!("    {label}"), label_width), &cells[i], label_width));
        }
    }
}

/// One part's tables and differences.
fn render_part(out: &mut String, part: &Part, tests: &str) {
    let labels: Vec<String> = part.columns().into_iter().map(|(l, _)| l).collect();
    let sections = sections(part);
    let all: Vec<&Section> = sections.iter().collect();
    let (width, widths) = (label_width(&all), column_widths(&all, &labels));
    let fits = |label: usize, widths: &[usize]| label + widths.iter().sum::<usize>() <= WIDTH;
    for section in &sections {
        if fits(width, &widths) {
            // Every section's columns aligned with every other's, as long as the widest fits.
            side_by_side(out, section, &labels, width, &widths);
        } else {
            let (own, own_widths) = (label_width(&[section]), column_widths(&[section], &labels));
            if fits(own, &own_widths) {
                side_by_side(out, section, &labels, own, &own_widths);
            } else {
                stacked(out, section, &labels);
            }
        }
    }
    if !part.differences.is_empty() {
        out.push('\n');
        out.push_str(&wrap(
            &format!(
                "Differences between variants ({tests}; significant when the Holm p < 0.05; the 95% interval is the \
                 paired one where games pair, and the HTML report and --json add the unpaired one, the test and the p \
                 before Holm's adjustment)"
            ),
            2,
        ));
        let (_, rows) = differences_table(part);
        let header: Vec<String> =
            ["statistic", "values", "change", "95% interval", "p (Holm)", "significant"].map(String::from).to_vec();
        // One table for each pair of variants, under its "from → to".
        let mut pairs: Vec<&str> = Vec::new();
        for row in &rows {
            if !pairs.contains(&row[1].as_str()) {
                pairs.push(&row[1]);
            }
        }
        for pair in pairs {
            out.push_str(&wrap_after("  ", pair, 4));
            let mine: Vec<Vec<String>> = rows
                .iter()
                .filter(|r| r[1] == pair)
                .map(|r| {
                    let interval = if r[4] == "—" { r[5].clone() } else { r[4].clone() };
                    vec![r[0].clone(), r[2].clone(), r[3].clone(), interval, r[8].clone(), r[9].clone()]
                })
                .collect();
            columns(out, 4, &header, &mine);
        }
    }
}
