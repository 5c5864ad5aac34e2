//! End-to-end tests of `pacw simulate`: JSON fields, reports on disk, determinism across threads, bad usage.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn pacw(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pacw")).args(args).output().expect("pacw runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn json(args: &[&str]) -> Value {
    let out = pacw(args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pacw-simulate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn json_has_games_draws_seconds_and_players_with_intervals() {
    let v = json(&["simulate", "meeting-engagement", "--games", "20", "--seed", "3", "--json"]);
    assert_eq!(v["games"], 20);
    let draws = v["draws"].as_u64().unwrap();
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    assert_eq!(players[0]["name"], "random (1)");
    assert_eq!(players[1]["name"], "random (2)");
    let mut wins = 0;
    for p in players {
        let (rate, low, high) =
            (p["win_rate"].as_f64().unwrap(), p["ci_low"].as_f64().unwrap(), p["ci_high"].as_f64().unwrap());
        assert!(0.0 <= low && low <= rate && rate <= high && high <= 1.0, "{p}");
        wins += p["wins"].as_u64().unwrap();
    }
    assert_eq!(wins + draws, 20);
    assert!(v.get("variants").is_none());
    for key in ["sides", "length", "attacks", "shaken", "first_mover", "doubles"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
}

#[test]
fn compare_gives_variants_side_by_side_with_tested_differences() {
    let v = json(&[
        "simulate",
        "meeting-engagement",
        "--games",
        "20",
        "--compare",
        "initiative=cards,igougo,alternate",
        "--json",
    ]);
    let variants = v["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 3);
    assert_eq!(variants[1]["option"], "initiative");
    assert_eq!(variants[1]["value"], "igougo");
    assert_eq!(variants[2]["options"]["initiative"], "alternate");
    for variant in variants {
        assert_eq!(variant["games"], 20);
        assert!(variant["players"][0]["ci_high"].is_number());
    }
    assert_eq!(v["games"], 60);
    let differences = v["differences"].as_array().unwrap();
    assert_eq!(differences.len(), 9, "3 pairs × (first side wins, draws, shaken units hit again)");
    assert!(differences.iter().all(|d| d["p_value"].is_number() && d["significant"].is_boolean()));
    assert!(v["test"].as_str().unwrap().contains("z-test"));
}

#[test]
fn the_same_seed_gives_the_same_statistics_on_one_or_two_threads() {
    let run = |threads: &str| {
        let mut v = json(&["simulate", "bloody-lane", "--games", "30", "--seed", "9", "--threads", threads, "--json"]);
        let o = v.as_object_mut().unwrap();
        for volatile in ["seconds", "games_per_second", "threads", "command"] {
            o.remove(volatile);
        }
        v
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn fixed_sides_keeps_the_first_player_on_the_first_side() {
    let v =
        json(&["simulate", "bloody-lane", "--games", "20", "--players", "random,random", "--fixed-sides", "--json"]);
    assert_eq!(v["players"][0]["wins"], v["sides"][0]["wins"]);
    assert_eq!(v["fixed_sides"], true);
}

#[test]
fn out_writes_json_csv_charts_and_an_html_report_that_shows_them() {
    let dir = temp_dir("out");
    let d = dir.to_string_lossy().into_owned();
    let out = pacw(&["simulate", "meeting-engagement", "--games", "20", "--compare", "to_hit=4,5", "--out", &d]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("to_hit=4"));
    assert!(out.stderr.is_empty(), "no progress bar when piped: {}", text(&out.stderr));
    let results: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["variants"].as_array().unwrap().len(), 2);
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 41, "a header and 40 games");
    assert!(csv.starts_with("variant,game,seed,player_a,player_b,winner"));
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for svg in ["win_rates.svg", "game_length.svg", "outcomes.svg"] {
        assert!(html.contains(&format!("src=\"{svg}\"")), "index.html shows {svg}");
        let chart = std::fs::read_to_string(dir.join(svg)).unwrap();
        assert!(chart.starts_with("<svg") && chart.contains("<text"), "{svg} has text");
    }
    assert!(html.contains("z-test"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_usage_exits_2_with_a_clear_message() {
    for (args, expect) in [
        (vec!["--games", "5", "--players", "random,nobody"], "unknown player 'nobody'"),
        (vec!["--games", "5", "--players", "a,b,c"], "--players"),
        (vec!["--games", "5", "--set", "to_hit"], "not OPTION=VALUE"),
        (vec!["--games", "5", "--set", "to_hit=9"], "to_hit"),
        (vec!["--games", "5", "--compare", "initiative=cards,dice"], "initiative"),
        (vec!["--games", "5", "--compare", "nonsense=1,2"], "unknown option 'nonsense'"),
        (vec!["--games", "0"], "--games"),
        (vec!["--games", "5", "--threads", "0"], "--threads"),
    ] {
        let all: Vec<&str> = ["simulate", "meeting-engagement"].into_iter().chain(args.iter().copied()).collect();
        let out = pacw(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(expect), "{all:?}: {}", text(&out.stderr));
        assert!(out.stdout.is_empty(), "{all:?}");
    }
    // A scenario that cannot be read is a bad file, as in every subcommand: 1.
    let out = pacw(&["simulate", "no-such-scenario", "--games", "5"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no-such-scenario"));
}

#[test]
fn a_report_that_cannot_be_written_exits_1() {
    let dir = temp_dir("blocked");
    std::fs::write(&dir, "a file, not a folder").unwrap();
    let out = pacw(&["simulate", "meeting-engagement", "--games", "4", "--out", &dir.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("cannot write"));
    std::fs::remove_file(&dir).unwrap();
}

#[test]
fn help_describes_every_flag() {
    let out = pacw(&["simulate", "--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    for flag in
        ["--games", "--seed", "--players", "--set", "--compare", "--threads", "--out", "--json", "--fixed-sides"]
    {
        assert!(help.contains(flag), "{flag} in --help");
    }
}
