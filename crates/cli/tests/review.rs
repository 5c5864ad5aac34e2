//! End-to-end tests of `pacw review` and `pacw train`.

use std::process::{Command, Output};

fn pacw(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pacw")).args(args).output().expect("pacw runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A finished game between two computer players, saved in `dir`.
fn finished_save(dir: &std::path::Path) -> std::path::PathBuf {
    let save = dir.join("game.json");
    let out = pacw(&[
        "play",
        "meeting-engagement",
        "--players",
        "random,greedy",
        "--pace-ms",
        "0",
        "--seed",
        "6",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    save
}

#[test]
fn a_review_as_json_chains_its_steps_to_the_result_and_judges_every_decision() {
    let dir = tempfile::tempdir().unwrap();
    let save = finished_save(dir.path());
    let out = pacw(&["review", save.to_str().unwrap(), "--json", "--threads", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["format"], "pacw-review");
    assert!(r["evaluator"].as_str().unwrap().starts_with("network-"));
    let steps = r["steps"].as_array().unwrap();
    for pair in steps.windows(2) {
        assert_eq!(pair[0]["after"], pair[1]["before"]);
    }
    assert_eq!(steps.last().unwrap()["after"], r["result"]);
    for s in steps {
        match s["kind"].as_str().unwrap() {
            "chance" => assert!(s["side"].is_null() && s["luck"].is_number()),
            "decision" => {
                assert!(s["side"] == "A" || s["side"] == "B");
                assert!(s["loss"].as_f64().unwrap() >= 0.0);
                assert!(s["best"]["text"].is_string() && s["best"]["actions"].is_array());
                assert!(s.get("label").is_some(), "every judged decision has a label, null or not");
            }
            kind => panic!("a step of kind {kind}"),
        }
    }
    for side in r["summary"].as_array().unwrap() {
        assert!(side["accuracy"].as_f64().unwrap() <= 100.0);
        assert!(side["luck_adjusted"].is_number());
    }
    // Why the game was decided: three swings in words, and the net luck, the sides' opposite.
    let swings = r["decided"]["swings"].as_array().unwrap();
    assert_eq!(swings.len(), 3);
    assert!(swings.iter().all(|s| s["text"].as_str().unwrap().starts_with("Turn ")));
    let net: Vec<f64> = r["summary"].as_array().unwrap().iter().map(|s| s["net_luck"].as_f64().unwrap()).collect();
    assert!((net[0] + net[1]).abs() < 1e-6);
    assert!(r["decided"]["luck"].as_str().unwrap().contains("net luck"));
    // A flagged decision says why the better order is better.
    let flagged: Vec<&serde_json::Value> = steps.iter().filter(|s| s["label"].is_string()).collect();
    assert!(!flagged.is_empty() && flagged.iter().all(|s| s["why"].as_str().unwrap().contains(" instead of ")));
    // The table on a terminal-less stdout, and the quick review.
    let out = pacw(&["review", save.to_str().unwrap()]);
    assert!(out.status.success());
    let table = text(&out.stdout);
    assert!(
        table.contains("Meeting Engagement — reviewed by network-")
            && table.contains("luck-adjusted")
            && table.contains("Why the game was decided")
            && table.contains("  1. Turn ")
            && table.contains("net luck")
            && table.contains("better by "),
        "{table}"
    );
    let out = pacw(&["review", save.to_str().unwrap(), "--quick", "--json"]);
    let q: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(q["steps"].as_array().unwrap().iter().all(|s| s.get("loss").is_none() && s.get("best").is_none()));
    assert_eq!(q["steps"].as_array().unwrap().len(), steps.len());
}

#[test]
fn a_damaged_save_or_a_bad_budget_is_refused_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let save = finished_save(dir.path());
    let good = std::fs::read_to_string(&save).unwrap();
    for (name, content, expected) in [
        ("truncated", good[..good.len() / 2].to_string(), "damaged"),
        ("old", good.replace("\"version\": 1", "\"version\": 0"), "not a pacw save"),
        ("altered", good.replace("\"seed\": 6", "\"seed\": 5"), "altered"),
    ] {
        let path = dir.path().join(format!("{name}.json"));
        std::fs::write(&path, content).unwrap();
        let out = pacw(&["review", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = text(&out.stderr);
        assert!(err.contains("cannot be reviewed") && err.contains(expected), "{name}: {err}");
        assert!(!err.contains("panicked"));
    }
    let out = pacw(&["review", save.to_str().unwrap(), "--budget", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a budget"));
    assert_eq!(pacw(&["review", "/nonexistent/game.json"]).status.code(), Some(1));
}

#[test]
fn training_in_shards_fits_a_model_the_evaluator_loads() {
    let dir = tempfile::tempdir().unwrap();
    let parts = dir.path().join("parts");
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let out = pacw(&[
            "train",
            "positions",
            "--games",
            "6",
            "--rollouts",
            "1",
            "--per-game",
            "2",
            "--shard",
            &shard,
            "--out",
            parts.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let weights = dir.path().join("w.json");
    let files = [parts.join("positions-1-of-2.csv"), parts.join("positions-2-of-2.csv")];
    let out = pacw(&[
        "train",
        "fit",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
        "--steps",
        "50",
        "--version",
        "evaluator-test",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("kept out"));
    let w = pacw_ai::Evaluator::parse(&std::fs::read_to_string(&weights).unwrap()).unwrap();
    assert_eq!(w.version(), "evaluator-test");
    assert!(w.trained().contains("positions of 6 games"), "{}", w.trained());
    // One shard alone is refused; settings that cannot work are bad usage.
    let out = pacw(&["train", "fit", files[0].to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("missing"));
    assert_eq!(pacw(&["train", "positions", "--hold-out", "atlantis", "--out", "x"]).status.code(), Some(2));
    assert_eq!(pacw(&["train", "--model", "forest"]).status.code(), Some(2));
}

/// `pacw train --variant` plays every training game by the variant and the weights say which rules they learnt.
#[test]
fn training_for_a_variant_plays_by_it_and_the_weights_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let variant = concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/close-combat.toml");
    let weights = dir.path().join("w.json");
    let out = pacw(&[
        "train",
        "--games",
        "4",
        "--rollouts",
        "1",
        "--per-game",
        "2",
        "--steps",
        "20",
        "--variant",
        variant,
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let w = pacw_ai::Evaluator::parse(&std::fs::read_to_string(&weights).unwrap()).unwrap();
    assert!(w.trained().contains("rules: ") && w.trained().contains("close-combat.toml"), "{}", w.trained());
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "name = \"x\"\n[results]\nsteady_fire = [\"routed\", \"none\"]\n").unwrap();
    let out = pacw(&["train", "--games", "4", "--variant", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("bad.toml:3:"), "{}", text(&out.stderr));
}

/// `pacw advice` checks the review's labelled decisions of saves by continuations, by the judge asked for, and
/// refuses a damaged save or weights file with a message.
#[test]
fn advice_is_checked_by_continuations_with_either_judge() {
    let dir = tempfile::tempdir().unwrap();
    let save = finished_save(dir.path());
    let save = save.to_str().unwrap();
    let run = |more: &[&str]| {
        let mut args = vec!["advice", save, "--continuations", "4", "--threads", "1", "--json"];
        args.extend(more);
        pacw(&args)
    };
    let out = run(&[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["judge"].as_str().unwrap().starts_with("network-"), "the judge in force");
    let checks = json["checks"].as_array().unwrap();
    assert_eq!(json["summary"]["checked"], checks.len());
    assert!(!checks.is_empty(), "random's game has labelled decisions");
    let out = run(&["--weights", concat!(env!("CARGO_MANIFEST_DIR"), "/../ai/weights/evaluator.json")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["judge"].as_str().unwrap().starts_with("evaluator-"));

    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{ damaged").unwrap();
    let out = pacw(&["advice", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot be checked"), "{}", text(&out.stderr));
    let out = run(&["--weights", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}

/// `pacw train selfplay` writes a checkpoint after each round, resumes from it, exports weights the evaluator
/// loads (saying how they were made with relative paths only), and refuses bad settings and a damaged checkpoint.
#[test]
fn self_play_checkpoints_resumes_and_exports_a_network() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("run.json");
    let weights = dir.path().join("network.json");
    let run = |games: &str| {
        pacw(&[
            "train",
            "selfplay",
            "--checkpoint",
            checkpoint.to_str().unwrap(),
            "--games",
            games,
            "--games-per-round",
            "2",
            "--hidden",
            "4,3",
            "--generated",
            "1",
            "--curve-games",
            "0",
            "--export",
            weights.to_str().unwrap(),
        ])
    };
    let out = run("2");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(first["rounds"], 1);
    let out = run("4");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("resuming"), "{}", text(&out.stderr));
    let second: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(second["rounds"], 2);
    let e = pacw_ai::Evaluator::parse(&std::fs::read_to_string(&weights).unwrap()).unwrap();
    assert_eq!(e.version(), "network-4");
    assert!(e.trained().starts_with("pacw train selfplay --seed 1"), "{}", e.trained());
    assert!(!e.trained().contains(dir.path().to_str().unwrap()), "relative paths only: {}", e.trained());

    // `--network` makes `td` play by the exported network instead of the embedded one; a bad file is refused.
    let games = |network: Option<&str>| {
        let mut args = vec!["simulate", "meeting-engagement", "--games", "2", "--players", "td,greedy", "--json"];
        args.extend(network.map(|n| ["--network", n]).into_iter().flatten());
        let out = pacw(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    assert_ne!(games(None), games(Some(weights.to_str().unwrap())), "the exported network plays otherwise");
    let out = pacw(&["simulate", "meeting-engagement", "--games", "1", "--network", checkpoint.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("network file"), "{}", text(&out.stderr));

    assert_eq!(pacw(&["train", "selfplay", "--checkpoint", "x.json", "--lambda", "2"]).status.code(), Some(2));
    assert_eq!(pacw(&["train", "selfplay", "--checkpoint", "x.json", "--hidden", "0,4"]).status.code(), Some(2));
    std::fs::write(&checkpoint, "{ damaged").unwrap();
    let out = run("6");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not a self-play checkpoint"), "{}", text(&out.stderr));
}

/// A self-play round spread over shards (`--shard K/N --out DIR`, then `--merge`) ends with the weights of the round
/// played in one place; a schedule of learning rates, and a wider network, given on resuming are kept in the
/// checkpoint and its record.
#[test]
fn self_play_shards_merge_into_the_round_played_in_one_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let settings = ["--games-per-round", "3", "--hidden", "4,3", "--generated", "1", "--curve-games", "0"];
    let train = |checkpoint: &str, more: &[&str]| {
        let mut args = vec!["train", "selfplay", "--checkpoint", checkpoint, "--threads", "1"];
        args.extend(settings);
        args.extend(more);
        pacw(&args)
    };
    let whole = path("whole.json");
    assert!(train(&whole, &["--games", "3"]).status.success());

    let split = path("split.json");
    let parts = path("parts");
    for k in ["1/2", "2/2"] {
        let out = train(&split, &["--shard", k, "--out", &parts]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    assert!(!std::path::Path::new(&split).exists(), "a shard leaves the checkpoint alone");
    let (one, two) = (path("parts/round-1-shard-1-of-2.json"), path("parts/round-1-shard-2-of-2.json"));
    let out = train(&split, &["--merge", &one]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("shard 2/2 is missing"), "{}", text(&out.stderr));
    let out = train(&split, &["--merge", &two, &one]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let read = |p: &str| -> serde_json::Value { serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap() };
    assert_eq!(read(&split)["network"]["weights"], read(&whole)["network"]["weights"]);
    let out = train(&split, &["--merge", &one, &two]);
    assert_eq!(out.status.code(), Some(2), "the shards belong to the round before");
    std::fs::write(&one, "{ damaged").unwrap();
    let out = train(&whole, &["--merge", &one, &two]);
    assert!(text(&out.stderr).contains("is not a self-play shard"), "{}", text(&out.stderr));

    let out = train(&whole, &["--games", "6", "--rate-from", "3=0.01"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let run = read(&whole);
    assert_eq!(run["config"]["rate_steps"][0]["games"], 3);
    assert!(run["network"]["trained"].as_str().unwrap().contains("--rate-from 3=0.01"), "{}", run["network"]);
    let out = train(&whole, &["--games", "9", "--rate-from", "0=0.5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("already played"), "{}", text(&out.stderr));

    let out = train(&whole, &["--games", "9", "--widen-from", "6=8,7"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let run = read(&whole);
    assert_eq!((run["network"]["unit_hidden"].as_u64(), run["network"]["side_hidden"].as_u64()), (Some(8), Some(7)));
    assert!(run["network"]["trained"].as_str().unwrap().contains("--widen-from 6=8,7"), "{}", run["network"]);
    let out = train(&whole, &["--games", "12", "--widen-from", "12=4,4"]);
    assert_eq!(out.status.code(), Some(2), "a layer may not shrink");
}

/// `pacw train calibrate` fits its baseline to half of the games of each battle and scores both judges on the other
/// half, with a row for each battle at each point of the game; too few games to fit the baseline are refused.
#[test]
fn calibration_scores_the_evaluator_against_a_baseline_fitted_per_battle() {
    let out =
        pacw(&["train", "calibrate", "--battle", "meeting-engagement", "--games", "4", "--threads", "1", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &json["calibration"];
    assert_eq!(c["games"], 4);
    let rows = c["brier"].as_array().unwrap();
    let mid = rows.iter().find(|r| r["what"] == "meeting-engagement at 50%").expect("a battle's row at mid-game");
    assert_eq!(mid["positions"], 2, "half of the four games are scored");
    let out = pacw(&["train", "calibrate", "--battle", "meeting-engagement", "--games", "2", "--threads", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("too few games to fit the baseline"), "{}", text(&out.stderr));
}
