//! `pacw check` and `pacw show`.

use crate::board;
use crate::source::scenario_text;
use anyhow::Result;
use pacw_engine::{Battle, Problem, Scenario};
use serde_json::{Value, json};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

/// The rule id a message cites at its end, as in "... (R5.1)".
fn cited_rule(message: &str) -> Option<&str> {
    let inner = message.trim_end().strip_suffix(')')?.rsplit_once('(')?.1;
    let id = inner.rsplit([',', ' ']).next()?;
    (id.starts_with('R') && id[1..].chars().next().is_some_and(|c| c.is_ascii_digit())).then_some(id)
}

/// A problem as JSON: line, column, message and rule as fields (null where there is none).
fn problem_json(line: Option<usize>, column: Option<usize>, message: &str) -> Value {
    json!({ "line": line, "column": column, "message": message, "rule": cited_rule(message) })
}

/// The keys of a scenario text that nothing reads, as JSON; and printed to standard error as warnings unless
/// `as_json` (`file:line:column: warning: ...`).
fn warn_of_ignored_keys(text: &str, name: &str, as_json: bool) -> Vec<Value> {
    let ignored = Scenario::ignored_keys(text);
    if !as_json {
        for p in &ignored {
            match (p.line, p.column) {
                (Some(l), Some(c)) => eprintln!("{name}:{l}:{c}: warning: {}", p.message),
                _ => eprintln!("{name}: warning: {}", p.message),
            }
        }
    }
    problems_json(&ignored)
}

/// Problems as JSON, one per entry.
fn problems_json(problems: &[Problem]) -> Vec<Value> {
    problems.iter().map(|p| problem_json(p.line, p.column, &p.message)).collect()
}

/// Checks every file; prints each one's problems, or "ok", and warns of keys nothing reads. Exit 1 if any is bad.
///
/// # Errors
/// When standard output cannot be written; a file that cannot be read or is not a good scenario is reported, and the
/// exit code is 1.
pub fn run(files: &[String], as_json: bool) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut all_ok = true;
    let mut report = Vec::new();
    for file in files {
        let (text, name) = match scenario_text(file) {
            Ok(found) => found,
            Err(e) => {
                all_ok = false;
                if !as_json {
                    eprintln!("{e:#}");
                }
                let problems = [problem_json(None, None, &format!("{e:#}"))];
                report.push(json!({ "file": file, "ok": false, "problems": problems, "warnings": [] }));
                continue;
            }
        };
        let parsed = Scenario::parse_reading(&text, &name, &crate::source::beside(&name));
        match (&parsed, as_json) {
            (Ok(s), false) => {
                let size = format!("{}×{}, {} units", s.map.width(), s.map.height(), s.units.len());
                writeln!(out, "{name}: ok ({}, {size})", s.name)?;
            }
            (Err(e), false) => eprintln!("{e}"),
            (_, true) => {}
        }
        let warnings = warn_of_ignored_keys(&text, &name, as_json);
        let problems = parsed.as_ref().err().map_or_else(Vec::new, |e| problems_json(&e.problems));
        all_ok &= parsed.is_ok();
        report.push(json!({ "file": name, "ok": parsed.is_ok(), "problems": problems, "warnings": warnings }));
    }
    if as_json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    }
    Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Draws a scenario's board.
///
/// # Errors
/// When the scenario cannot be read, or standard output cannot be written; a scenario that is not a good one is
/// reported, and the exit code is 1.
pub fn show(arg: &str, as_json: bool) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let (text, name) = scenario_text(arg)?;
    warn_of_ignored_keys(&text, &name, false);
    let scenario = match Scenario::parse_reading(&text, &name, &crate::source::beside(&name)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    if as_json {
        writeln!(out, "{}", serde_json::to_string_pretty(&scenario)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "{} ({} turns)\n", scenario.name, scenario.turns)?;
    writeln!(out, "{}\n", scenario.description.trim())?;
    let variant = crate::source::variant_words(&scenario).map_or(String::new(), |v| format!("; variant: {v}"));
    let options = scenario.options_text(&scenario.options);
    let battle = Battle::from_scenario(Arc::new(scenario));
    write!(out, "{}", board::render(&battle))?;
    writeln!(out)?;
    write!(out, "{}", board::unit_list(&battle))?;
    writeln!(out, "Options: {options}{variant}")?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_a_message_cites_is_its_field() {
        assert_eq!(cited_rule("unit 2 (Iron Brigade): a1 is a river (R5.1)"), Some("R5.1"));
        assert_eq!(cited_rule("no line of sight (woods, R6.2a)"), Some("R6.2a"));
        assert_eq!(cited_rule("missing [map]"), None);
        assert_eq!(cited_rule("the map (oops)"), None);
    }
}
