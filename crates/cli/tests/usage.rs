//! The command line when it is used wrongly or cut short (the hardening issue): a closed pipe ends quietly, the
//! same mistake gives the same exit code in every subcommand, causes are printed once, no Rust debug text, saves
//! keep their players, and the examples of `--help` and the README work as printed.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_pacw")
}

fn pacw_in(dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pacw runs");
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn pacw(args: &[&str], stdin: &str) -> Output {
    pacw_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, stdin)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory, removed with everything in it when dropped.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("pacw-usage-{name}-")).tempdir().unwrap()
}

/// Runs pacw with its output read only up to the first line, then the pipe closed (as `| head -1` does).
fn first_line_only(args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let mut stdout = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    while stdout.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {}
    drop(stdout);
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (child.wait().unwrap().code(), err)
}

#[test]
fn a_closed_pipe_ends_quietly_with_exit_0() {
    let scratch = temp_dir("pipe");
    let dir = scratch.path().to_path_buf();
    let save = dir.join("long.json");
    let out =
        pacw(&["play", "meeting-engagement", "--seed", "5", "--save", save.to_str().unwrap()], &"n\n1\n".repeat(2000));
    assert!(out.status.success(), "{}", text(&out.stderr));
    for args in [
        vec!["replay", save.to_str().unwrap()],
        vec!["play", "meeting-engagement", "--seed", "1"],
        vec!["show", "bloody-lane"],
        vec!["odds", "--table"],
    ] {
        let (code, err) = first_line_only(&args, &"1\n".repeat(100));
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?} printed: {err}");
    }
}

#[test]
fn the_same_mistake_has_the_same_exit_code_in_every_subcommand() {
    // A scenario that does not exist is a bad file: 1.
    for args in [
        vec!["check", "no-such.toml"],
        vec!["show", "no-such.toml"],
        vec!["play", "no-such.toml"],
        vec!["simulate", "no-such.toml", "--games", "1"],
        vec!["odds", "--scenario", "no-such.toml", "--attacker", "a1", "--target", "b2"],
    ] {
        let out = pacw(&args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("no-such.toml"), "{args:?}");
    }
    // A bad --set is bad usage: 2, with the same words everywhere.
    let mut messages = Vec::new();
    for args in [
        vec!["play", "--set", "to_hit=9"],
        vec!["simulate", "meeting-engagement", "--games", "1", "--set", "to_hit=9"],
        vec!["odds", "--attacker", "inf", "--target", "inf", "--set", "to_hit=9"],
    ] {
        let out = pacw(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        let err = text(&out.stderr);
        messages.push(err[err.find("to_hit").unwrap()..].lines().next().unwrap().to_string());
    }
    assert!(messages.windows(2).all(|w| w[0] == w[1]), "{messages:?}");
    // --players, --compare and --games read the same way.
    for (args, words) in [
        (vec!["simulate", "meeting-engagement", "--games", "0"], "at least 1"),
        (vec!["simulate", "meeting-engagement", "--games", "1", "--players", "chess"], "chess"),
        (vec!["simulate", "meeting-engagement", "--games", "1", "--compare", "nonsense"], "nonsense"),
        (vec!["play", "--side", "second"], "--vs"),
    ] {
        let out = pacw(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(words), "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn causes_are_printed_once_and_no_rust_debug_text_reaches_a_person() {
    let scratch = temp_dir("causes");
    let dir = scratch.path().to_path_buf();
    let file = dir.join("file");
    std::fs::write(&file, "x").unwrap();
    // --out on a file: the folder cannot be made.
    let out =
        pacw(&["simulate", "meeting-engagement", "--games", "1", "--out", file.join("sub").to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    let cause = lines[0].rsplit(": ").next().unwrap();
    assert_eq!(lines[0].matches(cause).count(), 1, "the cause once: {err}");
    // A damaged save names its decision in words, not as a Rust value.
    let save = dir.join("g.json");
    let out = pacw(&["play", "meeting-engagement", "--seed", "2", "--save", save.to_str().unwrap()], "2\n2\n1\n");
    assert!(out.status.success());
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    json["actions"][0] = serde_json::json!({"activate": 40});
    std::fs::write(&save, json.to_string()).unwrap();
    let out = pacw(&["replay", save.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains(r#"{"activate":40}"#) && !err.contains("Activate(UnitId"), "{err}");
}

#[test]
fn check_json_gives_line_column_and_rule_as_fields() {
    let scratch = temp_dir("json");
    let dir = scratch.path().to_path_buf();
    let bad = dir.join("bad.toml");
    let text_ =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/meeting-engagement.toml"))
            .unwrap();
    std::fs::write(&bad, text_.replacen("turns = 6", "turns = 0", 1)).unwrap();
    let out = pacw(&["check", "--json", bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = &v[0]["problems"][0];
    assert!(p["line"].is_u64() && p["column"].is_u64(), "{p}");
    assert!(p["message"].as_str().unwrap().contains("turns"));
    assert!(p.get("rule").is_some());
}

#[test]
fn a_save_keeps_its_players_and_set_or_side_out_of_place_are_refused() {
    let scratch = temp_dir("players");
    let dir = scratch.path().to_path_buf();
    let save = dir.join("g.json");
    let s = save.to_str().unwrap();
    let out =
        pacw(&["play", "maryes-heights", "--vs", "greedy", "--side", "second", "--seed", "4", "--save", s], "q\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(json["players"], serde_json::json!(["greedy", "human"]));
    // Loaded, the computer still plays the Union.
    let out = pacw(&["play", "--load", s], &"n\n1\n".repeat(20));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let played = text(&out.stdout);
    assert!(played.contains("Union: greedy") && played.contains("Union (greedy):"), "{played}");
    let out = pacw(&["play", "--load", s, "--set", "to_hit=4"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--set"));
}

#[test]
fn the_terminal_game_labels_charges_shows_odds_asks_the_facing_undoes_and_keeps_the_score() {
    // Skirmish-like: Blue infantry two squares from Grey infantry, so Fire has odds.
    let out = pacw(&["play", "maryes-heights", "--seed", "9"], &"n\n1\n".repeat(15));
    let s = text(&out.stdout);
    assert!(s.contains("Points Union"), "the score is shown");
    let attack = s.lines().find(|l| l.contains(": hit ") && l.contains("% —"));
    assert!(attack.is_some(), "an attack is offered with its odds");
    // A move asks its facing after the square.
    let out = pacw(&["play", "meeting-engagement", "--seed", "3"], "2\n3\nX\nN\nz\nq\n");
    let s = text(&out.stdout);
    assert!(s.contains("Move to d3 (face N/E/S/W)"), "{s}");
    assert!(s.contains("which facing (N, E, S, W)?"), "{s}");
    assert!(s.contains("'X' is not one of N, E, S, W (R5.4)"), "{s}");
    assert!(s.contains("moves d2 → d3, facing N"), "{s}");
    assert!(s.contains("taken back: 1 decision(s)"), "{s}");
    // A game played to the end ends with the luck ledger.
    let out =
        pacw(&["play", "maryes-heights", "--seed", "3", "--vs", "random", "--side", "second"], &"n\n1\n".repeat(5000));
    let s = text(&out.stdout);
    assert!(s.contains("Game over") && s.contains("Luck ledger (expected / actual)"), "{s}");
}

#[test]
fn odds_can_be_asked_in_a_saved_position_and_replay_lists_the_legal_actions() {
    let scratch = temp_dir("odds-load");
    let dir = scratch.path().to_path_buf();
    let save = dir.join("g.json");
    let s = save.to_str().unwrap();
    assert!(pacw(&["play", "maryes-heights", "--seed", "1", "--save", s], "q\n").status.success());
    let out = pacw(&["odds", "--load", s, "--attacker", "b4", "--target", "f4"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("To hit: "), "{}", text(&out.stdout));
    let out = pacw(&["replay", s, "--json", "--legal"], "");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["events"].is_array());
    let legal = v["legal"].as_array().unwrap();
    assert!(legal.iter().any(|a| a["action"] == "end_activations" || a["action"].get("activate").is_some()));
    assert!(legal[0]["text"].is_string() && legal[0]["index"] == 0);
}

/// The examples of a text: the lines of `pacw …` commands in its "Examples:" part or in a ```sh block.
fn examples(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut on = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Examples:") || t.starts_with("```sh") {
            on = true;
            continue;
        }
        if on && (t.is_empty() && !out.is_empty() || t.starts_with("```")) {
            on = false;
        }
        if on && t.starts_with("pacw ") {
            out.push(t.split("  #").next().unwrap().split(" # ").next().unwrap().trim().to_string());
        }
    }
    out
}

/// Runs an example command line (no shell features) from `dir`; `pacw serve` and the bare `pacw` start a server
/// and are not run. A long one (two computers watched, a big simulation) that is still going after a few seconds
/// without an error has worked: it is stopped.
fn run_example(dir: &Path, line: &str) -> Option<(bool, String)> {
    let mut words: Vec<String> = Vec::new();
    for word in line.split_whitespace().skip(1) {
        match word.split_once("/*") {
            // A shell would expand `folder/*.ext`: so does this.
            Some((folder, ext)) => {
                let mut found: Vec<String> = std::fs::read_dir(dir.join(folder))
                    .unwrap()
                    .map(|e| format!("{folder}/{}", e.unwrap().file_name().to_string_lossy()))
                    .filter(|name| name.ends_with(ext))
                    .collect();
                found.sort();
                words.extend(found);
            }
            None => words.push(word.to_string()),
        }
    }
    if words.is_empty() || words[0] == "serve" {
        return None;
    }
    let mut child = Command::new(bin())
        .args(&words)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pacw runs");
    let _ = child.stdin.take().unwrap().write_all(b"q\n");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(8);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            return Some((status.success(), err));
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Some((true, String::new()));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn the_examples_of_help_and_the_readme_work_as_printed() {
    let scratch = temp_dir("examples");
    let dir = scratch.path().to_path_buf();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // The README's commands run from the repository's own files.
    for entry in ["scenarios", "variants"] {
        let to = dir.join(entry);
        std::fs::create_dir_all(&to).unwrap();
        for f in std::fs::read_dir(root.join(entry)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
        }
    }
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut lines = examples(&readme);
    for sub in [
        "check",
        "show",
        "play",
        "odds",
        "replay",
        "review",
        "simulate",
        "merge",
        "sensitivity",
        "balance",
        "perft",
        "games",
        "train",
    ] {
        let help = pacw_in(&dir, &[sub, "--help"], "");
        lines.extend(examples(&text(&help.stdout)));
    }
    assert!(lines.len() > 15, "{lines:?}");
    for line in &lines {
        if let Some((ok, err)) = run_example(&dir, line) {
            assert!(ok, "`{line}` failed:\n{err}");
        }
    }
}

#[test]
fn every_command_into_a_pipe_whose_reader_has_gone_ends_quietly() {
    let scratch = temp_dir("pipe");
    let dir = scratch.path().to_path_buf();
    let save = dir.join("g.json");
    assert!(
        pacw(&["play", "meeting-engagement", "--seed", "2", "--save", save.to_str().unwrap()], "1\n1\nq\n")
            .status
            .success()
    );
    let save = save.to_str().unwrap();
    let commands: &[&[&str]] = &[
        &["odds", "--table"],
        &["odds", "--attacker", "inf", "--target", "inf", "--distance", "2"],
        &["scenarios"],
        &["show", "bloody-lane"],
        &["show", "bloody-lane", "--json"],
        &["check", "meeting-engagement", "bloody-lane"],
        &["replay", save],
        &["review", save],
        &["review", save, "--json"],
        &["perft", "meeting-engagement", "--depth", "3", "--divide"],
        &["simulate", "meeting-engagement", "--games", "4"],
        &["--help"],
    ];
    for args in commands {
        let mut child = Command::new(bin())
            .args(*args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("pacw runs");
        drop(child.stdout.take()); // the reader goes before anything is written
        let out = child.wait_with_output().unwrap();
        let err = text(&out.stderr);
        assert!(err.is_empty(), "pacw {}: {err}", args.join(" "));
        assert_eq!(out.status.code(), Some(0), "pacw {}", args.join(" "));
    }
}

#[test]
fn the_terminal_menu_keeps_each_units_number_and_asks_before_ending_the_card_or_quitting_unsaved() {
    // The issue's game: after units 2 and 5 act, 6 is still the battery, never "End activations".
    let menu_lines = |s: &str, from: usize| -> Vec<String> {
        s[from..]
            .lines()
            .skip_while(|l| !l.contains("1. Activate"))
            .take_while(|l| l.starts_with("  "))
            .map(String::from)
            .collect()
    };
    let out = pacw(&["play", "meeting-engagement", "--vs", "greedy", "--seed", "7"], "2\n3\nN\n5\n1\n");
    let s = text(&out.stdout);
    let first = menu_lines(&s, 0);
    let battery = first.iter().find(|l| l.contains("Divisional Battery")).expect("the battery is offered").clone();
    assert!(battery.trim_start().starts_with("6."), "{first:?}");
    assert!(first.iter().any(|l| l.trim_start().starts_with("e. End activations")), "{first:?}");
    let later = menu_lines(&s, s.find("moves d2 → d3").expect("the move was made"));
    assert!(later.iter().any(|l| l.trim_start() == battery.trim_start()), "the battery keeps 6: {later:?}");
    assert!(!later.iter().any(|l| l.trim_start().starts_with("2.")), "the unit used has no number: {later:?}");
    // `e` asks first; no keeps the card; yes ends it. `q` without a save asks too.
    let out = pacw(&["play", "meeting-engagement", "--seed", "3"], "e\nn\ne\ny\nq\nn\nq\ny\n");
    let s = text(&out.stdout);
    assert_eq!(s.matches("activations on this card, with").count(), 2, "{s}");
    assert_eq!(s.matches("ends its activations").count() + s.matches("ends activations").count(), 1, "{s}");
    assert_eq!(s.matches("Quit without saving").count(), 2, "{s}");
    assert!(out.status.success());
    // With a save there is nothing to lose: q quits at once.
    let scratch = temp_dir("menu");
    let save = scratch.path().join("g.json");
    let out = pacw(&["play", "meeting-engagement", "--seed", "3", "--save", save.to_str().unwrap()], "n\n1\nq\n");
    assert!(!text(&out.stdout).contains("Quit without saving"));
}
