//! End-to-end tests of the `pacw` binary: check, show, play, save, load, replay and rules.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn pacw(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pacw runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory, removed with everything in it when dropped.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("pacw-cli-{name}-")).tempdir().unwrap()
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path).to_string_lossy().into_owned()
}

#[test]
fn check_accepts_every_shipped_scenario() {
    let files: Vec<String> =
        pacw_engine::SHIPPED_SCENARIOS.iter().map(|s| repo(&format!("scenarios/{}", s.file))).collect();
    assert_eq!(files.len(), 12, "twelve battles ship");
    let args: Vec<&str> = std::iter::once("check").chain(files.iter().map(String::as_str)).collect();
    let out = pacw(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).matches(": ok").count(), files.len());
    assert!(!text(&out.stderr).contains("warning"), "{}", text(&out.stderr));
}

#[test]
fn the_grand_battle_is_offered_by_name_after_the_twelve() {
    let out = pacw(&["scenarios"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed = text(&out.stdout);
    let names: Vec<&str> = listed.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(names.len(), 13, "{listed}");
    assert_eq!(names[12], "antietam", "{listed}");
    let out = pacw(&["check", "antietam"], "");
    assert!(
        text(&out.stdout).contains("antietam.toml: ok (Antietam (grand battle), 26×26, 128 units)"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn check_warns_of_a_misspelt_key_and_names_the_key_it_means() {
    let scratch = temp_dir("check-ignored");
    let dir = scratch.path().to_path_buf();
    let good = pacw_engine::DEFAULT_SCENARIO.replacen("quality = ", "qualty = ", 1);
    let line = good.lines().position(|l| l.starts_with("qualty")).unwrap() + 1;
    let file = dir.join("typo.toml");
    std::fs::write(&file, &good).unwrap();
    let out = pacw(&["check", file.to_str().unwrap()], "");
    assert!(out.status.success(), "a key nothing reads does not make the file bad: {}", text(&out.stderr));
    let err = text(&out.stderr);
    let expected = format!(":{line}:1: warning: unit ");
    assert!(
        err.contains(&expected) && err.contains("unknown key 'qualty' is ignored: did you mean 'quality'?"),
        "{err}"
    );
    // A misspelt required key: the error says what is missing, the warning what was written instead.
    let bad = dir.join("turn.toml");
    std::fs::write(&bad, pacw_engine::DEFAULT_SCENARIO.replacen("turns = ", "turn = ", 1)).unwrap();
    let json = pacw(&["check", "--json", bad.to_str().unwrap()], "");
    assert_eq!(json.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v[0]["ok"], false);
    let warning = v[0]["warnings"][0]["message"].as_str().unwrap();
    assert_eq!(warning, "the scenario: unknown key 'turn' is ignored: did you mean 'turns'?");
    assert_eq!(
        v[0]["warnings"][0]["line"],
        1 + pacw_engine::DEFAULT_SCENARIO.lines().position(|l| l.starts_with("turns")).unwrap()
    );
}

#[test]
fn check_reports_every_mistake_with_line_and_column() {
    let scratch = temp_dir("check");
    let dir = scratch.path().to_path_buf();
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        r#"name = "Bad"
turns = 0
[map]
terrain = """
..X.
....
..~.
....
"""
fences = ["a1-c3"]
[[sides]]
id = "blue"
home = "south"
[[sides]]
id = "grey"
home = "south"
[[units]]
side = "blue"
arm = "dragoons"
at = "b1"
[[units]]
side = "green"
arm = "inf"
at = "c2"
[[units]]
side = "grey"
arm = "inf"
at = "q9"
[options]
to_hit = 9
fog = true
"#,
    )
    .unwrap();
    let out = pacw(&["check", bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    for expected in [
        "bad.toml:2:9: turns = 0",
        "unknown terrain character 'X' at c4",
        "fence a1-c3: the squares are not adjacent",
        "same home edge",
        "unknown arm 'dragoons'",
        "unknown side 'green'",
        "c2: a unit cannot stand on a river",
        "square q9 is off the board",
        "to_hit",
        "unknown option 'fog'",
    ] {
        assert!(err.contains(expected), "missing «{expected}» in:\n{err}");
    }
    let json = pacw(&["check", "--json", bad.to_str().unwrap()], "");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v[0]["ok"], false);
    assert!(v[0]["problems"].as_array().unwrap().len() >= 10);
}

#[test]
fn show_draws_the_board_with_units() {
    let out = pacw(&["show", "bloody-lane"], "");
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert!(s.contains("Bloody Lane"));
    assert!(
        s.contains("S1#@i+^"),
        "a veteran Confederate brigade on the sunken road (a road, an objective) facing north:\n{s}"
    );
    assert!(s.contains("Rodes' Brigade"));
}

#[test]
fn a_whole_game_is_played_saved_and_replayed_identically() {
    let scratch = temp_dir("play");
    let dir = scratch.path().to_path_buf();
    let save = dir.join("game.json");
    // Always the next unit ready, then the first listed order (hold), until the turn limit.
    let input = "n\n1\n".repeat(5000);
    let out = pacw(&["play", "bloody-lane", "--seed", "11", "--save", save.to_str().unwrap()], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let played = text(&out.stdout);
    assert!(played.contains("Game over"), "the game ends:\n{}", &played[played.len().saturating_sub(2000)..]);
    let replay = pacw(&["replay", save.to_str().unwrap()], "");
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    let replayed = text(&replay.stdout);
    // Every event line of the game appears in the replay, in order.
    let game_events: Vec<&str> = played.lines().filter(|l| l.starts_with("Card:") || l.contains("rolls")).collect();
    let replay_events: Vec<&str> = replayed.lines().filter(|l| l.starts_with("Card:") || l.contains("rolls")).collect();
    assert_eq!(game_events, replay_events);
    assert!(replayed.contains("Game over"));
}

#[test]
fn a_saved_game_continues_where_it_stopped() {
    let scratch = temp_dir("resume");
    let dir = scratch.path().to_path_buf();
    let save = dir.join("game.json");
    let out = pacw(&["play", "--seed", "5", "--save", save.to_str().unwrap()], "1\n1\nq\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let before: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(before["actions"].as_array().unwrap().len(), 2);
    let out = pacw(&["play", "--load", save.to_str().unwrap()], "n\nq\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let after: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(after["actions"].as_array().unwrap().len(), 3);
    assert_eq!(after["actions"][0], before["actions"][0]);
}

#[test]
fn a_damaged_or_altered_save_gets_a_clear_message() {
    let scratch = temp_dir("damaged");
    let dir = scratch.path().to_path_buf();
    let save = dir.join("game.json");
    pacw(&["play", "--seed", "9", "--save", save.to_str().unwrap()], &"n\n1\n".repeat(20));
    let good = std::fs::read_to_string(&save).unwrap();
    let cases = [
        ("truncated", good[..good.len() / 2].to_string(), "damaged"),
        ("seed", good.replace("\"seed\": 9", "\"seed\": 10"), "altered"),
        ("illegal", good.replacen("\"hold\"", "{\"activate\": 40}", 1), "illegal"),
        ("format", good.replace("pacw-save", "chess"), "not a pacw save"),
    ];
    for (name, content, expected) in cases {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, content).unwrap();
        let out = pacw(&["replay", path.to_str().unwrap()], "");
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = text(&out.stderr);
        assert!(err.contains(expected), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

#[test]
fn playing_against_the_random_player_reaches_the_end() {
    let out =
        pacw(&["play", "maryes-heights", "--seed", "3", "--vs", "random", "--side", "second"], &"n\n1\n".repeat(5000));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("Union (random):"), "the computer plays the Union");
    assert!(s.contains("Game over"));
}

#[test]
fn bad_usage_exits_with_two() {
    assert_eq!(pacw(&["play", "--vs", "nobody"], "").status.code(), Some(2));
    assert_eq!(pacw(&["frobnicate"], "").status.code(), Some(2));
    let out = pacw(&["play", "--set", "to_hit=9", "--seed", "1"], "");
    assert_eq!(out.status.code(), Some(2), "a bad --set is bad usage, as in every subcommand");
    assert!(text(&out.stderr).contains("to_hit"));
}

#[test]
fn perft_counts_paths_divides_them_and_starts_from_a_save() {
    let json = |args: &[&str]| -> serde_json::Value {
        let out = pacw(args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let whole = json(&["perft", "meeting-engagement", "--depth", "4", "--json"]);
    // The engine's golden counts (crates/engine/tests/rules/perft.rs pins deeper ones).
    assert_eq!(whole["nodes"], 4948);
    assert_eq!(whole["decisions"].as_u64().unwrap() + whole["chance"].as_u64().unwrap(), 4948);
    assert!(whole["seconds"].as_f64().unwrap() >= 0.0);
    let divided = json(&["perft", "meeting-engagement", "--depth", "4", "--divide", "--json"]);
    let parts = divided["divide"].as_array().unwrap();
    assert!(parts.len() > 1, "one entry per card kind");
    assert_eq!(parts.iter().map(|p| p["nodes"].as_u64().unwrap()).sum::<u64>(), 4948);
    assert!(parts[0]["words"].as_str().unwrap().starts_with("card"), "{}", parts[0]);
    let text_out = pacw(&["perft", "bloody-lane", "--depth", "2", "--divide"], "");
    assert!(text(&text_out.stdout).contains("Bloody Lane, depth 2:"), "{}", text(&text_out.stdout));

    // From a save: the walk starts where the game stopped (a unit is to be chosen, not a card).
    let scratch = temp_dir("perft");
    let dir = scratch.path().to_path_buf();
    let save = dir.join("game.json");
    let out = pacw(&["play", "--seed", "5", "--save", save.to_str().unwrap()], "1\nq\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let from_save = json(&["perft", "--load", save.to_str().unwrap(), "--depth", "1", "--json"]);
    assert_eq!(from_save["chance"], 0, "{from_save}");
    assert!(from_save["decisions"].as_u64().unwrap() > 1);

    for bad in [
        &["perft", "meeting-engagement"][..],
        &["perft", "meeting-engagement", "--depth", "99"],
        &["perft", "--depth", "2"],
    ] {
        let out = pacw(bad, "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", text(&out.stderr));
    }
    let missing = pacw(&["perft", "no-such-battle", "--depth", "1"], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("cannot read scenario"), "{}", text(&missing.stderr));
}

#[test]
fn rules_prints_the_combat_system_as_a_variant_file_that_reads_back() {
    let out = pacw(&["rules"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let standard = text(&out.stdout);
    assert!(standard.starts_with("name = \"Standard\""), "{standard}");
    assert!(standard.contains("when = \"charge and (flank or rear)\""), "{standard}");
    // Printed, edited a little, and read back as a variant.
    let dir = temp_dir("rules");
    let edited = dir.path().join("elan.toml");
    let elan = standard.replace("name = \"Standard\"", "name = \"Elan\"")
        + "\n[[modifiers]]\nid = \"V1\"\nname = \"veteran élan\"\nvalue = 1\nwhen = \"charge and attacker.quality == 'veteran'\"\n";
    std::fs::write(&edited, elan).unwrap();
    let out = pacw(&["rules", "--variant", edited.to_str().unwrap(), "--json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["name"], "Elan");
    assert_eq!(json["modifiers"].as_array().unwrap().len(), 6);
    assert_eq!(json["modifiers"][5]["rule"], "V1");
    // The shipped variants read as they are.
    for v in ["variants/no-cover.toml", "variants/hard-hitting.toml"] {
        let out = pacw(&["rules", "--variant", &repo(v)], "");
        assert!(out.status.success(), "{v}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("modifier.cover = "), "{v}");
    }
    // A mistake is refused at its place, with exit 1.
    std::fs::write(&edited, "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"distance == 'woods'\"\n")
        .unwrap();
    let out = pacw(&["rules", "--variant", edited.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("elan.toml:5:21: when: cannot compare a 'string' with a number"),
        "{}",
        text(&out.stderr)
    );
}

/// A variant's own rules are played, cited and kept: `play --variant` logs its modifier by its id, the save keeps the
/// variant so that `replay` tells the same game, `odds --variant` gives a hit with no effect its own result, and
/// `perft --variant` walks the game under it.
#[test]
fn a_variant_is_played_cited_saved_and_replayed_and_its_odds_told() {
    let scratch = temp_dir("variant-play");
    let variant = scratch.path().join("nerves.toml");
    std::fs::write(
        &variant,
        "name = \"Nerves\"\n[[modifiers]]\nid = \"N1\"\nname = \"steady nerves\"\nvalue = 1\nwhen = \"true\"\n\
         [results]\nsteady_fire = [\"none\", \"shaken\"]\n",
    )
    .unwrap();
    let v = variant.to_str().unwrap();
    let save = scratch.path().join("game.json");
    let s = save.to_str().unwrap();
    let args = ["play", "meeting-engagement", "--players", "greedy,greedy", "--pace-ms", "0", "--seed", "4"];
    let out = pacw(&[&args[..], &["--variant", v, "--save", s]].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let played = text(&out.stdout);
    assert!(played.contains("N1 +1 steady nerves"), "every attack cites the variant's modifier");
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(saved["variant"]["file"], v);
    let replay = pacw(&["replay", s], "");
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    let rolls = |t: &str| t.lines().filter(|l| l.contains("rolls")).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(rolls(&played), rolls(&text(&replay.stdout)), "the save replays by the variant");
    let review = pacw(&["review", s, "--quick"], "");
    assert!(review.status.success(), "{}", text(&review.stderr));
    assert!(text(&review.stdout).contains("Played by the variant \"Nerves\""), "the review says its evaluator's rules");
    // The odds under it: the modifier by its id, and the hit that changes nothing.
    let out = pacw(&["odds", "--attacker", "infantry", "--target", "infantry", "--variant", v, "--json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let odds: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(odds["needed"], 3, "5, less 1 for not moving and 1 for N1");
    assert!(odds["modifiers"].as_array().unwrap().iter().any(|m| m["rule"] == "N1" && m["reason"] == "steady nerves"));
    assert_eq!(odds["fractions"]["no_effect"], "4/9", "a hit (2/3) with the target's roll at most 4 (4/6)");
    // Its own modifier is an option of games under it, and only of those.
    let base = ["odds", "--attacker", "infantry", "--target", "infantry", "--json", "--set", "modifier.N1=0"];
    let out = pacw(&[&base[..], &["--variant", v]].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["needed"], 4, "N1 switched off");
    assert_eq!(pacw(&base, "").status.code(), Some(2), "without the variant modifier.N1 is unknown");
    let standard = pacw(&["odds", "--attacker", "infantry", "--target", "infantry", "--json"], "");
    let standard: serde_json::Value = serde_json::from_slice(&standard.stdout).unwrap();
    assert!(standard["fractions"].get("no_effect").is_none(), "the standard table has no such result");
    let out = pacw(&["perft", "meeting-engagement", "--depth", "3", "--variant", v, "--json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A bad variant is refused at its line and column, exit 1.
    std::fs::write(&variant, "name = \"x\"\n[results]\nsteady_fire = [\"nothing\", \"shaken\"]\n").unwrap();
    let out = pacw(&["play", "meeting-engagement", "--players", "greedy,greedy", "--variant", v], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("nerves.toml:3:"), "{}", text(&out.stderr));
}

/// A scenario file may name a variant file beside it (`variant = "nerves.toml"`): checked, played and simulated
/// by it; a name that is neither shipped nor a file is refused at its line.
#[test]
fn a_scenario_names_its_own_variant_file_beside_it() {
    let scratch = temp_dir("variant-beside");
    std::fs::write(
        scratch.path().join("nerves.toml"),
        "name = \"Nerves\"\n[[modifiers]]\nid = \"N1\"\nname = \"steady nerves\"\nvalue = 1\nwhen = \"true\"\n",
    )
    .unwrap();
    let battle = scratch.path().join("battle.toml");
    let named = pacw_engine::DEFAULT_SCENARIO.replacen("turns = ", "variant = \"nerves.toml\"\nturns = ", 1);
    std::fs::write(&battle, &named).unwrap();
    let b = battle.to_str().unwrap();
    let out = pacw(&["check", b], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = pacw(&["play", b, "--players", "greedy,greedy", "--pace-ms", "0", "--seed", "4"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("N1 +1 steady nerves"), "played by the variant it names");
    let out = pacw(&["simulate", b, "--games", "2", "--json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Balanced by it (the search's rewritten copies keep its rules), and shards keep its text for the merge.
    let out = pacw(&["balance", b, "--games", "20", "--tune", "turns"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shards: Vec<String> = (1..=2).map(|k| scratch.path().join(format!("s{k}")).display().to_string()).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        let out = pacw(&["simulate", b, "--games", "4", "--shard", &shard, "--out", dir], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    std::fs::remove_file(scratch.path().join("nerves.toml")).unwrap();
    let out = pacw(&["merge", &shards[0], &shards[1]], "");
    assert!(out.status.success(), "merged without the file beside: {}", text(&out.stderr));
    // Only a file within the scenario's folder is read.
    std::fs::write(&battle, named.replace("nerves.toml", "../nerves.toml")).unwrap();
    let out = pacw(&["check", b], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("within the scenario's folder"), "{}", text(&out.stderr));
    std::fs::write(&battle, named.replace("nerves.toml", "calm.toml")).unwrap();
    let out = pacw(&["check", b], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("battle.toml:") && err.contains("calm.toml") && err.contains("close-combat"), "{err}");
}

/// The variant in force is named wherever a game's rules are told: the odds (abstract, on a board, the table), the
/// board shown, a replay's header, and `simulate --help` says what a variant file holds.
#[test]
fn the_variant_in_force_is_named_by_odds_show_and_replay() {
    let scratch = temp_dir("variant-named");
    let battle = scratch.path().join("battle.toml");
    let named = pacw_engine::DEFAULT_SCENARIO.replacen("turns = ", "variant = \"close-combat\"\nturns = ", 1);
    std::fs::write(&battle, &named).unwrap();
    let b = battle.to_str().unwrap();
    let close = repo("variants/close-combat.toml");
    let said = "Close combat (close-combat.toml)";
    let out = pacw(&["show", b], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let options = text(&out.stdout).lines().find(|l| l.starts_with("Options:")).unwrap_or_default().to_string();
    assert!(options.ends_with(&format!("; variant: {said}")), "{options}");
    let out = pacw(&["show", "meeting-engagement"], "");
    assert!(!text(&out.stdout).contains("variant:"), "the standard rules need no word");
    let abstract_odds = ["odds", "--attacker", "inf", "--target", "inf"];
    let out = pacw(&[&abstract_odds[..], &["--variant", &close]].concat(), "");
    assert!(text(&out.stdout).contains(&format!("Variant: Close combat ({close})")), "{}", text(&out.stdout));
    let out = pacw(&[&abstract_odds[..], &["--variant", &close, "--json"]].concat(), "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["variant"]["name"], "Close combat");
    let out = pacw(&abstract_odds, "");
    assert!(!text(&out.stdout).contains("Variant:"), "the standard rules need no word");
    let out = pacw(&["odds", "--table", "--variant", &close], "");
    assert!(text(&out.stdout).contains("Variant: Close combat"), "{}", text(&out.stdout));
    let duel = scratch.path().join("duel.toml");
    std::fs::write(
        &duel,
        "name = \"Duel\"\nvariant = \"close-combat\"\nturns = 3\n[map]\nterrain = \"\"\"\n....\n....\n....\n....\n\"\"\"\n\
         [[sides]]\nid = \"blue\"\nname = \"Blue\"\nhome = \"south\"\n[[sides]]\nid = \"grey\"\nname = \"Grey\"\n\
         home = \"north\"\n[[units]]\nside = \"blue\"\narm = \"infantry\"\nat = \"b1\"\n[[units]]\nside = \"grey\"\n\
         arm = \"infantry\"\nat = \"b3\"\n",
    )
    .unwrap();
    let out = pacw(&["odds", "--scenario", duel.to_str().unwrap(), "--attacker", "b1", "--target", "b3"], "");
    assert!(text(&out.stdout).contains(&format!("Variant: {said}")), "{}{}", text(&out.stdout), text(&out.stderr));
    let save = scratch.path().join("game.json");
    let s = save.to_str().unwrap();
    let out = pacw(&["play", b, "--players", "greedy,greedy", "--pace-ms", "0", "--seed", "1", "--save", s], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = pacw(&["replay", s], "");
    let header = text(&out.stdout).lines().next().unwrap_or_default().to_string();
    assert!(header.ends_with(&format!("; variant: {said}")), "{header}");
    let out = pacw(&["simulate", "--help"], "");
    assert!(text(&out.stdout).contains("hit-result table"), "{}", text(&out.stdout));
}

/// A unit of a variant's own arm is named by its arm, not the arm it acts as: in the unit list and the board's odds.
#[test]
fn a_variant_s_own_arm_is_named_by_show_and_the_board_s_odds() {
    let scratch = temp_dir("own-arm");
    std::fs::write(
        scratch.path().join("skirmishers.toml"),
        "name = \"Skirmishers\"\n[[arms]]\nid = \"skirmishers\"\nlike = \"infantry\"\nstrength = 2\n",
    )
    .unwrap();
    let battle = scratch.path().join("battle.toml");
    std::fs::write(
        &battle,
        "name = \"Skirmish\"\nvariant = \"skirmishers.toml\"\nturns = 3\n[map]\nterrain = \"\"\"\n....\n....\n....\n....\n\"\"\"\n\
         [[sides]]\nid = \"blue\"\nname = \"Blue\"\nhome = \"south\"\n[[sides]]\nid = \"grey\"\nname = \"Grey\"\n\
         home = \"north\"\n[[units]]\nside = \"blue\"\nname = \"Sharpshooters\"\narm = \"skirmishers\"\nat = \"b1\"\n\
         [[units]]\nside = \"grey\"\nname = \"Line\"\narm = \"infantry\"\nat = \"b3\"\n",
    )
    .unwrap();
    let b = battle.to_str().unwrap();
    let out = pacw(&["show", b], "");
    assert!(text(&out.stdout).contains("regular skirmishers, strength 2"), "{}", text(&out.stdout));
    let out = pacw(&["odds", "--scenario", b, "--attacker", "b3", "--target", "b1"], "");
    assert!(text(&out.stdout).contains("Sharpshooters (regular skirmishers, b1, strength 2)"), "{}", text(&out.stdout));
}

#[test]
fn static_writes_the_offline_app_and_refuses_what_is_not_a_module() {
    let dir = temp_dir("static");
    let out = dir.path().join("site");
    let fake = dir.path().join("pacw.wasm");
    std::fs::write(&fake, b"not a module").unwrap();
    let refused = pacw(&["static", out.to_str().unwrap(), "--wasm", fake.to_str().unwrap()], "");
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("is not a WebAssembly module"), "{}", text(&refused.stderr));
    assert!(!out.exists(), "nothing is written for a bad module");
    std::fs::write(&fake, b"\0asm\x01\0\0\0").unwrap();
    let written = pacw(&["static", out.to_str().unwrap(), "--wasm", fake.to_str().unwrap()], "");
    assert!(written.status.success(), "{}", text(&written.stderr));
    assert!(text(&written.stdout).contains("serve the folder from any static web host"));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains(r#"<meta name="pacw-games" content="browser">"#));
    assert_eq!(std::fs::read(out.join("pacw.wasm")).unwrap(), b"\0asm\x01\0\0\0");
}

/// A battle naming a variant with terrain of its own: `show` draws the new letters and names them under the map,
/// `rules` prints the kinds; the same map without the variant is refused at each unknown letter.
#[test]
fn a_variants_own_terrain_is_drawn_by_show_and_refused_without_the_variant() {
    let dir = temp_dir("terrain");
    let variant = "name = \"Swamps\"\n[[terrain]]\nid = \"swamp\"\nletter = \"M\"\nmove = \"stop\"\n\
                   [[terrain]]\nid = \"woods\"\nmove_by_arm = { cavalry = 2 }\n";
    std::fs::write(dir.path().join("swamps.toml"), variant).unwrap();
    let battle = "name = \"Swamp fight\"\nvariant = \"swamps.toml\"\nturns = 3\n[map]\nterrain = \"\"\"\n..M.\n....\n....\n....\n\"\"\"\n\
                  [[sides]]\nid = \"a\"\nhome = \"south\"\n[[sides]]\nid = \"b\"\nhome = \"north\"\n\
                  [[units]]\nside = \"a\"\narm = \"inf\"\nat = \"a1\"\n[[units]]\nside = \"b\"\narm = \"inf\"\nat = \"d4\"\n";
    let with = dir.path().join("battle.toml");
    std::fs::write(&with, battle).unwrap();
    let out = pacw(&["show", with.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains(" M0 ") && shown.contains("F ford, M swamp;"), "{shown}");
    let without = dir.path().join("plain.toml");
    std::fs::write(&without, battle.replace("variant = \"swamps.toml\"\n", "")).unwrap();
    let out = pacw(&["show", without.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let e = text(&out.stderr);
    assert!(e.contains("plain.toml:5:3: unknown terrain character 'M' at c4 (expected . W T S ~ F)"), "{e}");
    let out = pacw(&["rules", "--variant", dir.path().join("swamps.toml").to_str().unwrap()], "");
    let rules = text(&out.stdout);
    assert!(rules.contains("id = \"swamp\"\nname = \"swamp\"\nletter = \"M\"\nmove = \"stop\""), "{rules}");
    assert!(rules.contains("move_by_arm = { cavalry = 2 }") && rules.contains("[movement]\nroad_bonus = 1"), "{rules}");
}

#[test]
fn show_lists_a_battles_reinforcements_and_timed_changes() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples/reinforcements.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_pacw")).args(["show", example]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("Lane's Brigade") && shown.contains("arrives at d1 on turn 3 (reinforcement)"), "{shown}");
    assert!(
        shown.contains("turn 4: Union cavalry (E2, Union) arrive: 6th Michigan Cavalry (cavalry) at a8"),
        "{shown}"
    );
    assert!(shown.contains("turn 5: the objective d5 is worth 3 points (C2)"), "{shown}");
    // The reinforcements are not on the board at the start: d1 is empty.
    assert!(shown.lines().any(|l| l.starts_with(" 1 ") && !l.contains('i')), "{shown}");
}

/// Several `--variant` files are laid in the order given, each read over those before it (the second may name the
/// first's arm, and not the other way round), and `pacw rules` says which file wrote each rule; printed, the rules
/// laid together read back the same.
#[test]
fn several_variant_files_are_laid_in_order_and_rules_says_which_wrote_each_rule() {
    let (skirmishers, fences) = (repo("docs/examples/skirmishers.toml"), repo("docs/examples/fences.toml"));
    let out = pacw(&["rules", "--variant", &skirmishers, "--variant", &fences], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.contains(&format!("#   {skirmishers} (Skirmishers), --variant")), "{printed}");
    assert!(printed.contains(&format!("[[modifiers]]\n# from {fences}\nid = \"F1\"")), "{printed}");
    assert!(printed.contains(&format!("[[modifiers]]\n# from {fences}\nid = \"cover\"")), "{printed}");
    assert!(printed.contains(&format!("[[arms]]\n# from {skirmishers}\nid = \"skirmishers\"")), "{printed}");
    assert!(printed.contains("[[modifiers]]\n# from standard\nid = \"canister\""), "{printed}");
    assert!(printed.contains("name = \"Skirmishers + Fences\""), "{printed}");
    let out = pacw(&["rules", "--variant", &skirmishers, "--variant", &fences, "--json"], "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["layers"][0]["file"], skirmishers.as_str());
    assert_eq!(json["layers"][1]["given_as"], "--variant");
    let f1 = json["modifiers"].as_array().unwrap().iter().find(|m| m["id"] == "F1").unwrap();
    assert_eq!(f1["from"], fences.as_str());
    assert_eq!(json["from"]["results"]["steady_fire"], "standard");
    // Printed and read back as one file: the same rules.
    let dir = temp_dir("layers");
    let one = dir.path().join("one.toml");
    std::fs::write(&one, &printed).unwrap();
    let back = pacw(&["rules", "--variant", one.to_str().unwrap(), "--json"], "");
    assert!(back.status.success(), "{}", text(&back.stderr));
    let back: serde_json::Value = serde_json::from_slice(&back.stdout).unwrap();
    for key in ["name", "results", "terms", "options", "movement"] {
        assert_eq!(back[key], json[key], "{key}");
    }
    let said = |j: &serde_json::Value, key: &str| {
        j[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["id"].clone(), m["name"].clone(), m["when"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(said(&back, "modifiers"), said(&json, "modifiers"));
    assert_eq!(said(&back, "arms"), said(&json, "arms"));
    // The other way round, the fences cannot name an arm not yet there: refused in their own file, exit 1.
    let out = pacw(&["rules", "--variant", &fences, "--variant", &skirmishers], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains(&format!("{fences}:10:")) && err.contains("skirmishers"), "{err}");
    // A single file is printed as before, with the file it came from.
    let out = pacw(&["rules", "--variant", &repo("variants/hard-cover.toml")], "");
    assert!(text(&out.stdout).contains("# from standard\nid = \"not_moved\""), "{}", text(&out.stdout));
    let out = pacw(&["rules"], "");
    assert!(!text(&out.stdout).contains("# from"), "the standard alone needs no word");
}

/// A battle's own variant is the lowest layer, `--variant` files are laid over it: a file may name the battle's own
/// arm; the game is played, named, saved and replayed by the rules laid together; the laboratory lays them the same.
#[test]
fn variant_files_are_laid_over_the_battle_s_own_variant_and_the_save_replays_by_them() {
    let battle = repo("docs/examples/skirmish.toml");
    let (fences, hard) = (repo("docs/examples/fences.toml"), repo("variants/hard-cover.toml"));
    let out = pacw(&["rules", &battle, "--variant", &fences], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.contains("#   skirmishers.toml (Skirmishers), the battle's variant"), "{printed}");
    assert!(printed.contains(&format!("#   {fences} (Fences), --variant")), "{printed}");
    let out = pacw(&["rules", &battle, "--variant", &fences, "--json"], "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["layers"][0]["given_as"], "the battle's variant");
    assert_eq!(json["arms"][3]["from"], "skirmishers.toml");
    // Alone over the standard, the fences cannot name the battle's arm.
    let out = pacw(&["play", "meeting-engagement", "--players", "greedy,greedy", "--variant", &fences], "");
    assert_eq!(out.status.code(), Some(1));
    // Played by the three.
    let scratch = temp_dir("layers-play");
    let save = scratch.path().join("game.json");
    let s = save.to_str().unwrap();
    let args = ["play", &battle, "--players", "greedy,greedy", "--pace-ms", "0", "--seed", "4", "--save", s];
    let out = pacw(&[&args[..], &["--variant", &fences, "--variant", &hard]].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let played = text(&out.stdout);
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    let file = format!("skirmishers.toml + {fences} + {hard}");
    assert_eq!(saved["variant"]["file"], file.as_str());
    assert!(saved["variant"]["text"].as_str().unwrap().contains("name = \"Skirmishers + Fences + Hard cover\""));
    let replay = pacw(&["replay", s], "");
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    let told = text(&replay.stdout);
    let header = told.lines().next().unwrap_or_default();
    assert!(header.ends_with(&format!("; variant: Skirmishers + Fences + Hard cover ({file})")), "{header}");
    let rolls = |t: &str| t.lines().filter(|l| l.contains("rolls")).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(rolls(&played), rolls(&told), "the save replays by the rules laid together");
    assert!(!rolls(&played).is_empty());
    // The laboratory and the odds lay them the same way; the single-file form over a battle naming none is as before.
    let out = pacw(&["simulate", &battle, "--games", "2", "--variant", &fences, "--variant", &hard, "--json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["variant_file"]["name"], "Fences + Hard cover");
    let out = pacw(&["perft", &battle, "--depth", "2", "--variant", &fences, "--json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = pacw(
        &[
            "odds",
            "--attacker",
            "inf",
            "--target",
            "inf",
            "--variant",
            &hard,
            "--variant",
            &repo("variants/close-combat.toml"),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Variant: Hard cover + Close combat ("), "{}", text(&out.stdout));
    let out = pacw(&["play", "--help"], "");
    assert!(text(&out.stdout).contains("laid over the battle's own variant"), "{}", text(&out.stdout));
}
