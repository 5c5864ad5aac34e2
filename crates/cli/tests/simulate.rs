//! End-to-end tests of the laboratory's commands: `pacw simulate` (JSON fields, reports on disk, determinism
//! across threads, grids, shards and `pacw merge`, saved games, variant files, several scenarios, bad usage),
//! `pacw sensitivity`, `pacw balance` and `pacw tournament`.

use serde_json::Value;
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

/// A fresh directory, removed with everything in it when dropped; the tests' own directory is `run` inside it,
/// not made yet (pacw makes it).
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("pacw-simulate-{name}-")).tempdir().unwrap()
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
fn luck_reviews_every_game_for_luck_adjusted_scores_in_every_report() {
    let base = ["simulate", "meeting-engagement", "--games", "12", "--seed", "5", "--players", "greedy,random"];
    let plain = json(&[&base[..], &["--json"]].concat());
    assert!(plain["players"][0].get("luck_adjusted").is_none(), "only when asked");
    let v = json(&[&base[..], &["--luck", "--json"]].concat());
    let adjusted: Vec<f64> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let l = &p["luck_adjusted"];
            let (x, low, high) = (
                l["adjusted"].as_f64().unwrap(),
                l["adjusted_ci"]["low"].as_f64().unwrap(),
                l["adjusted_ci"]["high"].as_f64().unwrap(),
            );
            assert!(low <= x && x <= high, "{l}");
            x
        })
        .collect();
    assert!((adjusted[0] + adjusted[1] - 1.0).abs() < 1e-9, "the two players' adjusted scores share one point a game");
    assert!(v["sides"][0]["luck_adjusted"]["score"].is_f64());

    // The text report, the comparison of variants and games.csv give it too.
    let dir = temp_dir("luck");
    let out_dir = dir.path().join("run");
    let out = pacw(&[&base[..], &["--luck", "--compare", "to_hit=4,5", "--out", out_dir.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("greedy score, luck-adjusted"), "{report}");
    assert!(report.contains("first side's score, luck-adjusted"), "{report}");
    let csv = std::fs::read_to_string(out_dir.join("games.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let column = header.iter().position(|h| *h == "luck_a").expect("a luck_a column");
    assert!(csv.lines().skip(1).all(|row| row.split(',').nth(column).is_some_and(|x| x.parse::<f64>().is_ok())));
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
    assert_eq!(differences.len(), 3 * 8, "3 pairs × 8 statistics");
    assert!(
        differences
            .iter()
            .all(|d| d["p_value"].is_number() && d["p_holm"].is_number() && d["significant"].is_boolean())
    );
    let wins = &differences[0];
    assert_eq!((wins["metric"].as_str(), wins["test"].as_str()), (Some("first side wins"), Some("McNemar")));
    assert!(wins["paired"]["low"].is_number() && wins["unpaired"]["high"].is_number());
    assert!(v["test"].as_str().unwrap().contains("Holm"));
}

#[test]
fn a_range_and_a_second_compare_make_a_grid_with_a_sweep_chart() {
    let scratch = temp_dir("grid");
    let dir = scratch.path().join("run");
    let d = dir.to_string_lossy().into_owned();
    let args = [
        "simulate",
        "meeting-engagement",
        "--games",
        "6",
        "--compare",
        "to_hit=4..6",
        "--compare",
        "once_per_turn=false,true",
        "--out",
        &d,
        "--json",
    ];
    let v = json(&args);
    let labels: Vec<&str> = v["variants"].as_array().unwrap().iter().map(|x| x["label"].as_str().unwrap()).collect();
    assert_eq!(labels.len(), 6);
    assert_eq!(labels[1], "to_hit=4 once_per_turn=true");
    assert_eq!(v["variants"][5]["settings"]["to_hit"], "6");
    // More than four variants: each is compared with the first.
    assert_eq!(v["differences"].as_array().unwrap().len(), 5 * 8);
    let sweep = std::fs::read_to_string(dir.join("sweep.svg")).unwrap();
    assert!(sweep.contains("once_per_turn=true") && sweep.contains("to_hit"));
    assert!(std::fs::read_to_string(dir.join("index.html")).unwrap().contains("src=\"sweep.svg\""));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_merge_into_exactly_the_unsharded_report() {
    let scratch = temp_dir("shards");
    let dir = scratch.path().join("run");
    // With the luck of each game, which the shards keep with their records.
    let base = ["simulate", "bloody-lane", "--games", "10", "--seed", "4", "--compare", "to_hit=4,5", "--luck"];
    let mut whole = json(&[&base[..], &["--json"]].concat());
    assert!(whole["players"][0]["luck_adjusted"]["adjusted"].is_f64());
    let mut shards = Vec::new();
    for k in 1..=3 {
        let out_dir = dir.join(format!("s{k}")).to_string_lossy().into_owned();
        let shard = format!("{k}/3");
        let out = pacw(&[&base[..], &["--shard", &shard, "--out", &out_dir]].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("pacw merge"));
        shards.push(out_dir);
    }
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(String::as_str));
    args.push("--json");
    let mut merged = json(&args);
    for v in [&mut whole, &mut merged] {
        for volatile in ["seconds", "games_per_second", "threads", "command"] {
            v.as_object_mut().unwrap().remove(volatile);
        }
    }
    assert_eq!(merged, whole);
    let out = pacw(&["merge", &shards[0], &shards[1]]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("missing shards 3/3"), "{}", text(&out.stderr));
    let out = pacw(&[&base[..], &["--shard", "4/3", "--out", &shards[0]]].concat());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn saved_games_open_in_replay_and_games_csv_names_them() {
    let scratch = temp_dir("saves");
    let dir = scratch.path().join("run");
    let (saves, report) = (dir.join("saves"), dir.join("report"));
    let out = pacw(&[
        "simulate",
        "meeting-engagement",
        "--games",
        "4",
        "--players",
        "greedy,random",
        "--save-games",
        &saves.to_string_lossy(),
        "--save-only",
        "1-2",
        "--out",
        &report.to_string_lossy(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Saved 2 games"));
    let csv = std::fs::read_to_string(report.join("games.csv")).unwrap();
    let save = csv.lines().next().unwrap().split(',').position(|h| h == "save").unwrap();
    let named: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').nth(save).unwrap()).collect();
    assert_eq!(named, ["", "meeting-engagement-base-00001.json", "meeting-engagement-base-00002.json", ""]);
    let replay = pacw(&["replay", &saves.join(named[1]).to_string_lossy()]);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert!(text(&replay.stdout).contains("wins") || text(&replay.stdout).contains("draw"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_variant_file_applies_to_every_scenario_and_the_report_names_it() {
    let scratch = temp_dir("variant");
    let dir = scratch.path().join("run");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("no-cover.toml");
    std::fs::write(
        &file,
        "name = \"No cover\"\ndescription = \"Cover gives nothing.\"\n[options]\nmodifier = { cover = 0 }\n",
    )
    .unwrap();
    let v = json(&[
        "simulate",
        "meeting-engagement",
        "bloody-lane",
        "--games",
        "4",
        "--variant",
        &file.to_string_lossy(),
        "--json",
    ]);
    assert_eq!(v["variant_file"]["name"], "No cover");
    assert_eq!(v["scenario"], "all 2 scenarios");
    assert_eq!(v["games"], 8);
    let scenarios = v["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), 2);
    assert_eq!(scenarios[1]["scenario"], "Bloody Lane");
    assert!(scenarios.iter().all(|s| s["options"]["modifier.cover"] == "0"));
    std::fs::write(&file, "name = \"Bad\"\ncolour = \"red\"\n").unwrap();
    let out = pacw(&["simulate", "meeting-engagement", "--games", "4", "--variant", &file.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("colour"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_players_replaces_the_first_player() {
    let v = json(&[
        "simulate",
        "meeting-engagement",
        "--games",
        "4",
        "--players",
        "random,greedy",
        "--compare",
        "players=random,greedy",
        "--json",
    ]);
    let variants = v["variants"].as_array().unwrap();
    assert_eq!(variants[1]["player_names"], serde_json::json!(["greedy", "greedy"]));
    assert_eq!(variants[0]["player_names"], serde_json::json!(["random", "greedy"]));
    assert_eq!(variants[1]["players"][0]["name"], "greedy (1)");
    // The tables and charts name each player by its place, since the columns' players differ.
    let dir = temp_dir("players");
    let out_dir = dir.path().join("run");
    let args = ["simulate", "meeting-engagement", "--games", "4", "--players", "random,greedy"];
    let out = pacw(&[&args[..], &["--compare", "players=random,greedy", "--out", out_dir.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("first player wins") && report.contains("second player wins"), "{report}");
    assert!(!report.contains("random wins"), "{report}");
    let chart = std::fs::read_to_string(out_dir.join("win_rates.svg")).unwrap();
    assert!(chart.contains("first player wins"), "the chart's legend too");
}

#[test]
fn sensitivity_ranks_every_change_of_the_ten_numbers() {
    let v = json(&["sensitivity", "meeting-engagement", "--games", "10", "--json"]);
    let table = &v["tables"][0];
    let rows = table["rows"].as_array().unwrap();
    assert!(rows.len() >= 20, "{} changes", rows.len());
    assert_eq!(table["verdicts"].as_array().unwrap().len(), 10);
    let evidence: Vec<f64> = rows.iter().map(|r| r["evidence"].as_f64().unwrap()).collect();
    assert!(evidence.windows(2).all(|w| w[0] >= w[1]));
    let out = pacw(&["sensitivity", "meeting-engagement", "--games", "4"]);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("Verdicts"));
    within_120_columns(&text(&out.stdout));
}

/// Every line of a text report is within 120 columns: a designer pastes it.
fn within_120_columns(text: &str) {
    for line in text.lines() {
        assert!(line.chars().count() <= 120, "{} columns: {line}\n{text}", line.chars().count());
    }
}

#[test]
fn balance_writes_the_scenario_with_only_its_numbers_changed() {
    let scratch = temp_dir("balance");
    let dir = scratch.path().join("run");
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("balanced.toml");
    let out = pacw(&[
        "balance",
        "meeting-engagement",
        "--games",
        "64",
        "--tune",
        "turns",
        "--out",
        &out_file.to_string_lossy(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("first side's score"), "{}", text(&out.stdout));
    within_120_columns(&text(&out.stdout));
    let balanced = std::fs::read_to_string(&out_file).unwrap();
    let original =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/meeting-engagement.toml"))
            .unwrap();
    let differing = original.lines().zip(balanced.lines()).filter(|(a, b)| a != b).count();
    assert!(differing <= 1, "only the turns line may differ");
    // Numbers raced one at a time (the grid of turns and both exhaustion points is too large): a race a line.
    let out = pacw(&["balance", "bloody-lane", "--games", "8", "--players", "random,random"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("races:\n  turns ("), "{}", text(&out.stdout));
    within_120_columns(&text(&out.stdout));
    let out = pacw(&["balance", "meeting-engagement", "--tune", "weather"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
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
    let scratch = temp_dir("out");
    let dir = scratch.path().join("run");
    let d = dir.to_string_lossy().into_owned();
    let out = pacw(&["simulate", "meeting-engagement", "--games", "20", "--compare", "to_hit=4,5", "--out", &d]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("to_hit=4"));
    assert!(out.stderr.is_empty(), "no progress bar when piped: {}", text(&out.stderr));
    let results: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["variants"].as_array().unwrap().len(), 2);
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 41, "a header and 40 games");
    assert!(csv.starts_with("scenario,variant,game,seed,player_a,player_b,winner"));
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for svg in ["win_rates.svg", "game_length.svg", "outcomes.svg", "attack_outcomes.svg", "shaken_again.svg"] {
        assert!(html.contains(&format!("src=\"{svg}\"")), "index.html shows {svg}");
        let chart = std::fs::read_to_string(dir.join(svg)).unwrap();
        assert!(chart.starts_with("<svg") && chart.contains("<text"), "{svg} has text");
    }
    assert!(html.contains("McNemar"));
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
        (vec!["--games", "5", "--compare", "to_hit=6..3"], "--compare"),
        (vec!["--games", "5", "--compare", "to_hit=3,4", "--compare", "to_hit=5"], "twice"),
        (vec!["--games", "5", "--compare", "a=1", "--compare", "b=1", "--compare", "c=1"], "at most twice"),
        (vec!["--games", "5", "--shard", "1/2"], "--out"),
        (vec!["--games", "5", "--save-only", "1-2"], "--save-games"),
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
    let scratch = temp_dir("blocked");
    let dir = scratch.path().join("run");
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
    for flag in [
        "--games",
        "--seed",
        "--players",
        "--set",
        "--compare",
        "--threads",
        "--out",
        "--json",
        "--fixed-sides",
        "--variant",
        "--shard",
        "--save-games",
        "--save-only",
        "--luck",
    ] {
        assert!(help.contains(flag), "{flag} in --help");
    }
}

#[test]
fn a_tournament_rates_every_player_and_refuses_bad_usage() {
    let v = json(&["tournament", "--players", "random,recruit,greedy", "--games", "2", "meeting-engagement", "--json"]);
    assert_eq!(v["anchor"], "greedy", "greedy is rated 0 when it plays");
    assert_eq!(v["pairings"].as_array().unwrap().len(), 3);
    let ratings = v["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 3);
    for r in ratings {
        assert!(r["low"].as_f64().unwrap() <= r["elo"].as_f64().unwrap(), "{r}");
        assert!(r["elo"].as_f64().unwrap() <= r["high"].as_f64().unwrap(), "{r}");
        assert_eq!(r["games"], 4);
    }
    assert_eq!(v["luck_adjusted"], false);
    let luck =
        json(&["tournament", "--players", "random,greedy", "--games", "2", "meeting-engagement", "--luck", "--json"]);
    assert_eq!(luck["luck_adjusted"], true);
    assert!(luck["pairings"][0]["luck_adjusted"].is_f64(), "{luck}");
    for (args, expect) in [
        (
            vec!["--players", "greedy,colonel", "--games", "1"],
            "unknown player 'colonel' (known players: recruit, veteran",
        ),
        (vec!["--players", "greedy", "--games", "1"], "at least two"),
        (vec!["--players", "greedy,greedy", "--games", "1"], "named twice"),
        (vec!["--players", "greedy,random", "--games", "1", "--anchor", "mcts"], "anchor 'mcts'"),
    ] {
        let all: Vec<&str> = ["tournament"].into_iter().chain(args.iter().copied()).collect();
        let out = pacw(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(expect), "{all:?}: {}", text(&out.stderr));
    }
}

/// A variant file, in `dir`, whose hit-result table lets no hit change anything.
fn blanks(dir: &std::path::Path) -> std::path::PathBuf {
    let file = dir.join("blanks.toml");
    let none = "[\"none\", \"none\"]";
    let rows = ["steady_fire", "steady_charge", "shaken_fire", "shaken_charge"].map(|r| format!("{r} = {none}\n"));
    std::fs::write(&file, format!("name = \"Blanks\"\n[results]\n{}", rows.concat())).unwrap();
    file
}

/// Units destroyed in a simulation's (or one variant's) games, both sides.
fn destroyed(v: &Value) -> u64 {
    v["sides"].as_array().unwrap().iter().map(|s| s["destroyed"]["total"].as_u64().unwrap()).sum()
}

/// The laboratory plays by a variant's own hit-result table (every hit changes nothing: no unit is ever shaken or
/// destroyed), and every shipped variant plays.
#[test]
fn the_laboratory_plays_by_a_variant_s_own_rules_and_every_shipped_variant_plays() {
    let scratch = temp_dir("variant-rules");
    let file = blanks(scratch.path());
    let run = |variant: Option<&str>| {
        let mut args = vec!["simulate", "meeting-engagement", "--games", "4", "--players", "greedy,greedy", "--json"];
        if let Some(v) = variant {
            args.extend(["--variant", v]);
        }
        json(&args)
    };
    let blanks = run(Some(&file.to_string_lossy()));
    assert_eq!(destroyed(&blanks), 0, "no hit destroys under the variant's table");
    assert!(blanks["attacks"]["charges"]["attacks"].as_u64().unwrap() > 0, "the units still fought");
    assert!(destroyed(&run(None)) > 0, "they do under the standard one");
    let variants = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants")).unwrap();
    for entry in variants {
        let path = entry.unwrap().path();
        let v = run(Some(&path.to_string_lossy()));
        assert_eq!(v["games"], 4, "{}", path.display());
    }
    // `pacw balance` plays its candidates by the variant, with --set over them, and never sets what it tunes.
    let f = file.to_string_lossy();
    let b = json(&["balance", "meeting-engagement", "--games", "8", "--variant", &f, "--set", "to_hit=4", "--json"]);
    assert!(b["games"].as_u64().unwrap() >= 8, "{b}");
    let out = pacw(&["balance", "meeting-engagement", "--games", "8", "--tune", "turns", "--set", "turns=5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--set turns"), "{}", text(&out.stderr));
}

/// `--compare rules=standard,FILE` plays the same games under two whole rule sets and tests the difference.
#[test]
fn compare_rules_plays_the_same_games_under_two_rule_sets() {
    let scratch = temp_dir("compare-rules");
    let file = blanks(scratch.path());
    let axis = format!("rules=standard,{}", file.to_string_lossy());
    let v = json(&[
        "simulate",
        "meeting-engagement",
        "--games",
        "6",
        "--players",
        "greedy,greedy",
        "--compare",
        &axis,
        "--json",
    ]);
    let variants = v["variants"].as_array().unwrap_or_else(|| panic!("two variants: {v}"));
    assert_eq!(variants.len(), 2);
    assert!(destroyed(&variants[0]) > 0, "the standard rules destroy units");
    assert_eq!(destroyed(&variants[1]), 0, "the blank table never does");
    let out = pacw(&["simulate", "meeting-engagement", "--games", "2", "--compare", "rules=standard,missing.toml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("missing.toml"), "{}", text(&out.stderr));
}

/// A scenario whose units are of a variant's own arm plays with that variant, in the laboratory and at the terminal,
/// and its save replays; without the variant it is refused, naming the arms it knows.
#[test]
fn a_scenario_of_a_variant_s_own_arms_plays_with_it_and_its_save_replays() {
    let scratch = temp_dir("own-arms");
    let variant = scratch.path().join("skirmishers.toml");
    std::fs::write(
        &variant,
        "name = \"Skirmishers\"\n[[arms]]\nid = \"skirmishers\"\nname = \"Skirmishers\"\nlike = \"infantry\"\nstrength = 2\nmove = 2\nrange = 3\n",
    )
    .unwrap();
    let scenario = scratch.path().join("skirmish.toml");
    let battle =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/meeting-engagement.toml"))
            .unwrap()
            .replacen("arm = \"infantry\"", "arm = \"skirmishers\"", 2);
    std::fs::write(&scenario, battle).unwrap();
    let (v, s) = (variant.to_string_lossy(), scenario.to_string_lossy());
    let run = json(&["simulate", &s, "--games", "4", "--players", "greedy,greedy", "--variant", &v, "--json"]);
    assert_eq!(run["games"], 4);
    let out = pacw(&["simulate", &s, "--games", "4"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("unknown arm 'skirmishers'"), "{}", text(&out.stderr));
    let save = scratch.path().join("game.json");
    let play = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .args(["play", &s, "--players", "greedy,greedy", "--pace-ms", "0", "--seed", "2", "--variant", &v])
        .args(["--save", &save.to_string_lossy()])
        .output()
        .unwrap();
    assert!(play.status.success(), "{}", text(&play.stderr));
    assert!(text(&play.stdout).contains("skirmishers)"), "the log names the arm");
    let replay = pacw(&["replay", &save.to_string_lossy()]);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
}

/// A variant's own arm's numbers are options of the laboratory as a standard arm's are: compared, set and named in
/// the records as the battle names the arm, refused out of their bounds or for an arm the rules lack; and a
/// variant's own modifier is compared too. `docs/examples/skirmish.toml` names `skirmishers.toml` (range 3).
#[test]
fn compare_and_set_sweep_a_variant_s_own_arm_s_numbers_and_its_own_modifiers() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples");
    let battle = format!("{examples}/skirmish.toml");
    let base = ["simulate", &battle, "--games", "6", "--seed", "3", "--players", "greedy,greedy"];
    let v = json(&[&base[..], &["--compare", "range.skirmishers=1,3", "--json"]].concat());
    let variants = v["variants"].as_array().unwrap();
    assert_eq!((variants[0]["option"].as_str(), variants[0]["value"].as_str()), (Some("range.skirmishers"), Some("1")));
    assert_eq!(variants[0]["options"]["range.skirmishers"], "1");
    assert_eq!(variants[1]["options"]["range.skirmishers"], "3");
    assert_ne!(variants[0]["attacks"], variants[1]["attacks"], "skirmishers that reach 1 square fight otherwise");
    // The text report's columns say it as the command did.
    let out = pacw(&[&base[..], &["--compare", "range.skirmishers=1,3"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("range.skirmishers=1"), "{}", text(&out.stdout));
    // Set for a whole run, its column the same games as the compared value's.
    let set = json(&[&base[..], &["--set", "range.skirmishers=1", "--json"]].concat());
    assert_eq!(set["options"]["range.skirmishers"], "1", "{}", set["options"]);
    assert_eq!(set["attacks"], variants[0]["attacks"]);
    for (given, said) in [
        ("range.skirmishers=27", "option range.skirmishers: '27' is not allowed (a whole number from 1 to 26)"),
        ("strength.skirmishers=7", "option strength.skirmishers: '7' is not allowed (a whole number from 1 to 6)"),
        ("range.skirmisher=2", "(their arms: infantry, cavalry, artillery, skirmishers)"),
    ] {
        let out = pacw(&[&base[..], &["--set", given]].concat());
        assert_eq!(out.status.code(), Some(2), "{given}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(said), "{given}: {}", text(&out.stderr));
        let out = pacw(&[&base[..], &["--compare", &given.replace('=', "=1,")]].concat());
        assert_eq!(out.status.code(), Some(2), "{given}: {}", text(&out.stderr));
    }
    let standard = pacw(&["simulate", "meeting-engagement", "--games", "2", "--set", "range.skirmishers=2"]);
    assert_eq!(standard.status.code(), Some(2));
    assert!(
        text(&standard.stderr).contains("(their arms: infantry, cavalry, artillery)"),
        "{}",
        text(&standard.stderr)
    );
    // A variant's own modifier compares as well (fences.toml's F1, laid over the battle's variant).
    let fences = format!("{examples}/fences.toml");
    let v = json(&[&base[..], &["--variant", &fences, "--compare", "modifier.F1=0,-2", "--json"]].concat());
    let variants = v["variants"].as_array().unwrap();
    assert_eq!(
        (variants[0]["options"]["modifier.F1"].as_str(), variants[1]["options"]["modifier.F1"].as_str()),
        (Some("0"), Some("-2"))
    );
}

/// A game of a variant's own arm with its number set at the terminal saves it and replays by it, and says so.
#[test]
fn play_sets_a_variant_s_own_arm_s_number_and_its_save_replays_by_it() {
    let scratch = temp_dir("own-arm-set");
    let battle = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples/skirmish.toml");
    let save = scratch.path().join("game.json");
    let play = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .args(["play", battle, "--players", "greedy,greedy", "--pace-ms", "0", "--seed", "2"])
        .args(["--set", "range.skirmishers=1", "--save", &save.to_string_lossy()])
        .output()
        .unwrap();
    assert!(play.status.success(), "{}", text(&play.stderr));
    assert!(text(&play.stdout).lines().next().unwrap().contains("range.skirmishers=1"), "{}", text(&play.stdout));
    let replay = pacw(&["replay", &save.to_string_lossy()]);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert!(text(&replay.stdout).lines().next().unwrap().contains("range.skirmishers=1"), "{}", text(&replay.stdout));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(saved["options"]["own_arm"][3], serde_json::json!([null, null, 1]), "{}", saved["options"]);
}

/// A variant's rules counted in the report (`variant`, a variant file's text with one such rule): the table
/// `title` has its row `row` (its id and name) beside the standard rules (which have none: a dash), and the JSON's
/// counts `key` have it applied at least once in 30 greedy games of Bloody Lane.
fn a_variant_s_rule_is_counted(variant: &str, title: &str, row: &str, key: &str) {
    let dir = temp_dir("counted");
    let file = dir.path().join("counted.toml");
    std::fs::write(&file, variant).unwrap();
    let file = file.to_string_lossy();
    let rules = format!("rules=standard,{file}");
    let out =
        pacw(&["simulate", "bloody-lane", "--games", "30", "--seed", "2", "--players", "greedy", "--compare", &rules]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains(title), "{said}");
    let line = said.lines().find(|l| l.trim_start().starts_with(row)).unwrap_or_else(|| panic!("{said}"));
    assert!(line.contains('—'), "the standard rules have no such rule: {line}");
    let v = json(&[
        "simulate",
        "bloody-lane",
        "--games",
        "30",
        "--seed",
        "2",
        "--players",
        "greedy",
        "--variant",
        &file,
        "--json",
    ]);
    assert!(v[key][0]["total"].as_u64().unwrap() > 0, "{}", v[key]);
}

/// A variant's after-attack rules are counted in the report, each by its id and name.
#[test]
fn the_report_counts_what_attacks_did_to_their_attackers() {
    a_variant_s_rule_is_counted(
        "name = \"Charge home\"\n[[after_attack]]\nid = \"A1\"\nname = \"failed charge\"\n\
         when = \"charge and result == 'miss'\"\nattacker = \"shaken\"\n",
        "What attacks did to their attackers",
        "A1 failed charge",
        "after_attack",
    );
}

/// A variant's modifiers to the hit-result roll are counted in the report, each by its id and name.
#[test]
fn the_report_counts_how_often_the_hit_result_roll_was_modified() {
    a_variant_s_rule_is_counted(
        "name = \"Stand firm\"\n[[result_modifiers]]\nid = \"H1\"\nname = \"in cover stand firm\"\nvalue = 1\n\
         when = \"target.cover\"\n",
        "The hit-result roll modified",
        "H1 in cover stand firm",
        "result_modified",
    );
}

/// A variant's restrictions are counted in the report, each by its id and name: the orders given at which it took
/// an attack away.
#[test]
fn the_report_counts_the_orders_the_restrictions_took_away() {
    a_variant_s_rule_is_counted(
        "name = \"Hold the line\"\n[[restrictions]]\nid = \"M1\"\nname = \"troops will not charge a steady line\"\n\
         when = \"charge and not target.shaken\"\n",
        "Orders the restrictions took away",
        "M1 troops will not charge a steady line",
        "restricted_decisions",
    );
}

/// Battles pooled in one report whose own variants have different after-attack rules: the pooled counts are not
/// named by the first battle's rules; each battle's part names its own.
#[test]
fn pooled_battles_with_different_after_attack_rules_name_them_only_battle_by_battle() {
    let dir = temp_dir("pooled-after-attack");
    let standard = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/bloody-lane.toml"));
    let standard = standard.unwrap();
    let mut battles = Vec::new();
    for (n, name) in [(1, "failed charge"), (2, "repulsed charge")] {
        let variant = format!(
            "name = \"V{n}\"\n[[after_attack]]\nid = \"A1\"\nname = \"{name}\"\n\
             when = \"charge and result == 'miss'\"\nattacker = \"shaken\"\n"
        );
        std::fs::write(dir.path().join(format!("v{n}.toml")), variant).unwrap();
        let battle = dir.path().join(format!("b{n}.toml"));
        std::fs::write(&battle, format!("variant = \"v{n}.toml\"\n{standard}")).unwrap();
        battles.push(battle.to_string_lossy().into_owned());
    }
    let v =
        json(&["simulate", &battles[0], &battles[1], "--games", "4", "--seed", "2", "--players", "greedy", "--json"]);
    assert_eq!(v["after_attack_rules"].as_array().map_or(0, Vec::len), 0, "{}", v["after_attack_rules"]);
    assert_eq!(v["scenarios"][0]["after_attack_rules"][0][0], "A1 failed charge");
    assert_eq!(v["scenarios"][1]["after_attack_rules"][0][0], "A1 repulsed charge");
}

/// A variant's rally roll is counted in the report (dice a game and the share that failed), by its id and name,
/// beside the standard rules (which rally without a die: a dash); `pacw rules` prints it so that it reads back.
#[test]
fn the_report_counts_rally_rolls_and_rules_prints_them() {
    let dir = temp_dir("rally");
    let file = dir.path().join("rally.toml");
    std::fs::write(
        &file,
        "name = \"Rally on four\"\n[rally]\nid = \"MR1\"\nname = \"rally test\"\nneeded = 4\n\
         [[rally_modifiers]]\nid = \"R1\"\nname = \"veterans\"\nvalue = 1\nwhen = \"unit.quality == 'veteran'\"\n",
    )
    .unwrap();
    let printed = pacw(&["rules", "--variant", &file.to_string_lossy()]);
    assert!(printed.status.success(), "{}", text(&printed.stderr));
    let said = text(&printed.stdout);
    // Each rule with the file that wrote it (docs/variants.md, "Variants that combine").
    let from = format!("# from {}\n", file.to_string_lossy());
    assert!(said.contains(&format!("[rally]\n{from}id = \"MR1\"\nname = \"rally test\"\nneeded = 4\n")), "{said}");
    assert!(said.contains(&format!("[[rally_modifiers]]\n{from}id = \"R1\"")), "{said}");
    let rules = format!("rules=standard,{}", file.to_string_lossy());
    let out =
        pacw(&["simulate", "bloody-lane", "--games", "20", "--seed", "2", "--players", "greedy", "--compare", &rules]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("Rally rolls"), "{said}");
    let rule = said.lines().find(|l| l.trim_start().starts_with("rule ")).unwrap_or_else(|| panic!("{said}"));
    assert!(rule.contains("MR1 rally test") && rule.contains('—'), "the standard rules roll no die: {rule}");
    let v = json(&[
        "simulate",
        "bloody-lane",
        "--games",
        "20",
        "--seed",
        "2",
        "--players",
        "greedy",
        "--variant",
        &file.to_string_lossy(),
        "--json",
    ]);
    let rolls = v["rally_rolls"]["total"].as_u64().unwrap_or(0);
    assert!(rolls > 0, "{v}");
    assert!(v["rallies_failed"]["total"].as_u64().unwrap_or(0) <= rolls, "{v}");
}

/// A variant's own terrain is counted in the report by the kind's name (attacks on units in it and what they did,
/// moves ending in it); the standard rules' report has no such table.
#[test]
fn the_report_counts_the_fighting_in_a_variant_s_own_terrain() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples/entrenched.toml");
    let variant = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples/entrenchments.toml");
    // The battle without its `variant` line, played with `--variant`: the same rules, the same report.
    let dir = temp_dir("terrain");
    let battle = dir.path().join("entrenched.toml");
    let written = std::fs::read_to_string(example).unwrap();
    std::fs::write(&battle, written.strip_prefix("variant = \"entrenchments.toml\"\n").unwrap()).unwrap();
    let b = battle.to_string_lossy();
    let out = pacw(&["simulate", &b, "--variant", variant, "--games", "6", "--seed", "2", "--players", "greedy"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("Fighting in the variant's terrain"), "{said}");
    for row in ["attacks on units in it, a game", "miss / shaken / retreat / destroyed", "moves ending in it, a game"] {
        assert!(said.contains(&format!("entrenchments: {row}")), "{said}");
    }
    let named = pacw(&["simulate", example, "--games", "6", "--seed", "2", "--players", "greedy"]);
    assert!(named.status.success(), "{}", text(&named.stderr));
    let attacks_row = |report: &str| report.lines().find(|l| l.contains("entrenchments: attacks")).map(str::to_string);
    assert_eq!(attacks_row(&text(&named.stdout)), attacks_row(&said), "named by the battle or given: the same games");
    let v = json(&["simulate", example, "--games", "6", "--seed", "2", "--players", "greedy", "--json"]);
    assert_eq!(v["own_terrains"][0][0]["name"], "entrenchments", "{v}");
    let attacks = v["terrain"][0]["attacks"]["attacks"].as_u64().unwrap_or(0);
    assert!(attacks > 0, "greedy players fight over the entrenchments: {}", v["terrain"]);
    let plain = text(&pacw(&["simulate", "meeting-engagement", "--games", "2"]).stdout);
    assert!(!plain.contains("variant's terrain"), "{plain}");
}

#[test]
fn compare_events_plays_a_battle_with_and_without_its_reinforcements_and_counts_the_arrivals() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples/reinforcements.toml");
    let args = ["simulate", example, "--games", "6", "--seed", "3", "--compare", "events=on,off"];
    let v = json(&[&args[..], &["--json"]].concat());
    let variants = v["variants"].as_array().unwrap();
    assert_eq!((variants[0]["value"].as_str(), variants[1]["value"].as_str()), (Some("on"), Some("off")));
    let arrived = |i: usize| {
        variants[i]["arrivals"].as_array().map_or(0, |a| a.iter().map(|s| s["total"].as_u64().unwrap()).sum())
    };
    assert!(arrived(0) >= 6, "every game with events sees the Confederate brigade arrive: {}", variants[0]["arrivals"]);
    assert_eq!(arrived(1), 0, "none without: {}", variants[1]["arrivals"]);
    assert_eq!(variants[1]["options"]["events"], "off");
    let out = pacw(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("Reinforcements") && report.contains("units arrived (Union / Confederate)"), "{report}");
    // A battle without events has no such section, and refuses a value that is not on or off.
    let plain = text(&pacw(&["simulate", "meeting-engagement", "--games", "2"]).stdout);
    assert!(!plain.contains("units arrived"), "{plain}");
    let bad = pacw(&["simulate", example, "--games", "2", "--compare", "events=on,maybe"]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
    assert!(text(&bad.stderr).contains("events"), "{}", text(&bad.stderr));
}
