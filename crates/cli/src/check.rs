//! `pacw check` and `pacw show`.

use crate::board;
use crate::source::scenario_text;
use anyhow::Result;
use pacw_engine::{Battle, Scenario};
use serde_json::json;
use std::process::ExitCode;
use std::sync::Arc;

/// Checks every file; prints each one's problems, or "ok".
pub fn run(files: &[String], as_json: bool) -> Result<ExitCode> {
    let mut all_ok = true;
    let mut report = Vec::new();
    for file in files {
        let outcome = scenario_text(file)
            .map_err(|e| format!("{e:#}"))
            .and_then(|(text, name)| Scenario::parse(&text, &name).map_err(|e| e.to_string()).map(|s| (s, name)));
        match outcome {
            Ok((s, name)) => {
                if !as_json {
                    println!("{name}: ok ({}, {}×{}, {} units)", s.name, s.map.width(), s.map.height(), s.units.len());
                }
                report.push(json!({ "file": name, "ok": true, "problems": [] }));
            }
            Err(message) => {
                all_ok = false;
                if !as_json {
                    eprintln!("{message}");
                }
                report.push(json!({ "file": file, "ok": false, "problems": message.lines().collect::<Vec<_>>() }));
            }
        }
    }
    if as_json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    }
    Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Draws a scenario's board.
pub fn show(arg: &str, as_json: bool) -> Result<ExitCode> {
    let (text, name) = scenario_text(arg)?;
    let scenario = match Scenario::parse(&text, &name) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    if as_json {
        println!("{}", serde_json::to_string_pretty(&scenario)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("{} ({} turns)\n", scenario.name, scenario.turns);
    println!("{}\n", scenario.description.trim());
    let battle = Battle::from_scenario(Arc::new(scenario));
    print!("{}", board::render(&battle));
    println!();
    print!("{}", board::unit_list(&battle));
    println!("Options: {}", battle.options());
    Ok(ExitCode::SUCCESS)
}
