//! End-to-end tests of `pacw odds`: the abstract form, attacks on a scenario's board, the reference table, the
//! JSON shape and the refusals (exit code 2) of impossible combinations, citing docs/rules.md ids.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn pacw(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pacw")).arg("odds").args(args).output().expect("pacw runs")
}

fn ok_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = pacw(&all);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Runs a command that must be refused with exit code 2; returns its message.
fn refused(args: &[&str]) -> String {
    let out = pacw(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?} should be refused: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed {}", String::from_utf8_lossy(&out.stdout));
    err
}

fn results(v: &Value) -> [&str; 4] {
    ["miss", "shaken", "retreat", "destroyed"]
        .map(|k| v["fractions"][k].as_str().unwrap_or_else(|| panic!("{k} in {v}")))
}

#[test]
fn odds_abstract_r6_4_r7_1_shooting_in_the_open() {
    let v = ok_json(&["--attacker", "inf", "--target", "infantry"]);
    assert_eq!(results(&v), ["1/2", "1/3", "1/6", "0"]);
    assert_eq!(v["needed"], 4);
    assert_eq!(v["modifiers"], serde_json::json!([{"rule": "R6.4", "value": 1, "reason": "attacker did not move"}]));
    assert_eq!((&v["fractions"]["stand"], &v["retreat_blocked"]), (&"0".into(), &false.into()));
    assert!(v.get("after").is_none());
    assert!(v.get("target").is_none(), "a described attack has no unit id");
}

#[test]
fn odds_abstract_r6_3a_cover_and_quality() {
    let v = ok_json(&["--attacker", "infantry:green", "--target", "cav:veteran", "--cover"]);
    // +1 did not move, −1 woods: needs 5 (1/3). Veteran cavalry, strength 4: 1–4 shaken, 5–6 retreat.
    assert_eq!(v["needed"], 5);
    let rules: Vec<(&str, i64, &str)> = v["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["rule"].as_str().unwrap(), m["value"].as_i64().unwrap(), m["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(rules, [("R6.4", 1, "attacker did not move"), ("R6.3a", -1, "cover: woods")]);
    assert_eq!(results(&v), ["2/3", "2/9", "1/9", "0"]);
}

#[test]
fn odds_abstract_charges_canister_and_ranging() {
    // R6.4: cavalry charge from the rear, having moved: +1 rear only; needs 4. Green artillery, strength 1.
    let v = ok_json(&["--attacker", "cav", "--target", "art:green", "--distance", "1", "--rear", "--moved"]);
    assert_eq!(v["charge"], true);
    assert_eq!(v["needed"], 4);
    assert_eq!(v["modifiers"][0]["reason"], "charge from the target's rear");
    assert_eq!(results(&v), ["1/2", "0", "1/12", "5/12"]);
    // R6.4: canister at distance 1, and the ranging bonus at distance 4.
    let v = ok_json(&["--attacker", "art", "--target", "inf", "--distance", "1"]);
    assert_eq!(v["modifiers"][0]["reason"], "artillery at distance 1 (canister)");
    let v = ok_json(&["--attacker", "art", "--target", "inf", "--distance", "4", "--ranging", "--shaken"]);
    assert_eq!(v["modifiers"][0]["reason"], "artillery ranging on the same target");
    assert_eq!(v["needed"], 4);
    assert_eq!(v["target_shaken"], true);
    assert_eq!(results(&v), ["1/2", "0", "1/3", "1/6"]);
}

#[test]
fn odds_abstract_r7_4_blocked_retreat_destroyed_or_stand() {
    let v = ok_json(&["--attacker", "inf", "--target", "inf", "--blocked"]);
    assert_eq!(results(&v), ["1/2", "1/3", "0", "1/6"]);
    assert_eq!((&v["fractions"]["stand"], &v["retreat_blocked"]), (&"0".into(), &true.into()));
    assert_eq!(v["blocked_retreat"], "destroyed");
    let v = ok_json(&["--attacker", "inf", "--target", "inf", "--blocked", "--set", "blocked_retreat=stand"]);
    assert_eq!(results(&v), ["1/2", "1/3", "0", "0"]);
    assert_eq!(v["fractions"]["stand"], "1/6");
}

#[test]
fn odds_abstract_sequence_of_attacks() {
    let v = ok_json(&["--attacker", "inf", "--target", "inf", "--attacks", "2"]);
    assert_eq!(v["after"], serde_json::json!({"steady": "1/4", "shaken": "2/3", "destroyed": "1/12"}));
    assert_eq!(v["expected_attacks_to_destroy"], "8");
    let v = ok_json(&["--attacker", "inf", "--target", "inf", "--attacks", "0", "--shaken"]);
    assert_eq!(v["after"]["shaken"], "1");
    assert_eq!(v["expected_attacks_to_destroy"], "6");
}

#[test]
fn odds_abstract_prints_a_readable_table() {
    let out = pacw(&["--attacker", "inf", "--target", "inf", "--cover", "--attacks", "3"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for want in ["R6.4", "+1  attacker did not move", "R6.3a", "-1  cover: woods", "5+", "destroyed", "After 3 attacks"]
    {
        assert!(text.contains(want), "{want:?} missing from:\n{text}");
    }
    assert!(text.contains("Expected attacks to destroy it: 12"), "{text}");
}

#[test]
fn odds_refuses_impossible_combinations_with_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["--attacker", "inf", "--target", "inf", "--flank"], "R6.4"),
        (&["--attacker", "inf", "--target", "inf", "--rear", "--distance", "2"], "R6.4"),
        (&["--attacker", "inf", "--target", "inf", "--ranging"], "artillery only"),
        (&["--attacker", "art", "--target", "inf", "--ranging", "--distance", "1"], "canister"),
        (&["--attacker", "inf", "--target", "inf", "--distance", "3"], "range"),
        (&["--attacker", "cav", "--target", "inf"], "R6.1"),
        (&["--attacker", "art", "--target", "inf", "--moved"], "R4.3"),
        (&["--attacker", "inf", "--target", "inf", "--distance", "0"], "R6.1"),
        (&["--attacker", "horse", "--target", "inf"], "not an arm"),
        (&["--attacker", "inf:elite", "--target", "inf"], "not a quality"),
        (&["--attacker", "inf", "--target", "inf", "--order", "fire"], "--scenario"),
        (&["--attacker", "inf", "--target", "inf", "--attacks", "5000"], "at most"),
        (&["--attacker", "inf", "--target", "inf", "--set", "to_hit=9"], "to_hit"),
        (&["--attacker", "inf"], "--target"),
        (&["--attacker", "inf", "--target", "inf", "--flank", "--rear", "--distance", "1"], "cannot be used with"),
        (&["--table", "--cover"], "--table"),
    ];
    for (args, want) in cases {
        let err = refused(args);
        assert!(err.contains(want), "{args:?}: {want:?} not in {err}");
    }
}

#[test]
fn odds_table_covers_every_case() {
    let v = ok_json(&["--table"]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3 * 3 * 2 * 2 * 2); // target arm × quality × shooting/charge × cover × steady/shaken
    for r in rows {
        for key in ["target_arm", "quality", "attack", "cover", "target_state", "needed", "modifiers", "fractions"] {
            assert!(r.get(key).is_some(), "{key} missing in {r}");
        }
        assert!(r.get("target").is_none(), "no unit id for a described attack: {r}");
        results(r);
    }
    let green_inf_shooting_open_steady = &rows[0];
    assert_eq!(results(green_inf_shooting_open_steady), ["1/2", "1/4", "1/4", "0"]);
    let out = pacw(&["--table"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines().filter(|l| l.contains("infantry") || l.contains("cavalry") || l.contains("artillery")).count(),
        73
    );
    // Cavalry only charges (range 1): half the rows.
    assert_eq!(ok_json(&["--table", "--attacker", "cav"])["rows"].as_array().unwrap().len(), 36);
}

/// A small board: a battery on c1, infantry on d2; enemy infantry in woods on c4, cavalry behind a fence on d4. In
/// a folder of its own for each test (tests run at once: one must not read the file while another writes it),
/// removed when the returned folder is dropped.
fn scenario() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new().prefix("pacw-odds-").tempdir().unwrap();
    let path = dir.path().join("odds.toml");
    let text = r#"
name = "Odds on a board"
turns = 3
[map]
terrain = """
......
......
..W...
......
......
......
"""
fences = ["d3-d4"]
[[sides]]
id = "union"
name = "Union"
home = "south"
[[sides]]
id = "confederate"
name = "Confederate"
home = "north"
[[units]]
side = "union"
arm = "artillery"
at = "c1"
facing = "N"
[[units]]
side = "union"
arm = "infantry"
at = "d2"
facing = "N"
[[units]]
side = "confederate"
arm = "infantry"
at = "c4"
facing = "S"
[[units]]
side = "confederate"
arm = "cavalry"
at = "d4"
facing = "S"
"#;
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn odds_on_a_board_use_its_terrain_fences_and_orders() {
    let (_dir, file) = scenario();
    let file = file.to_str().unwrap();
    // The battery at c1 fires at infantry in woods 3 squares away: no bonus for guns, −1 woods (R6.3a): needs 6.
    let v = ok_json(&["--scenario", file, "--attacker", "c1", "--target", "c4"]);
    assert_eq!(v["needed"], 6);
    assert_eq!(v["modifiers"][0]["rule"], "R6.3a");
    assert_eq!(results(&v), ["5/6", "1/9", "1/18", "0"]);
    // Infantry at d2 fires across the fence on d4's edge (R6.3c): +1 −1, needs 5; regular cavalry, strength 3.
    let v = ok_json(&["--scenario", file, "--attacker", "d2", "--target", "d4"]);
    let rules: Vec<&str> = v["modifiers"].as_array().unwrap().iter().map(|m| m["rule"].as_str().unwrap()).collect();
    assert_eq!(rules, ["R6.4", "R6.3c"]);
    assert_eq!(results(&v), ["2/3", "1/6", "1/6", "0"]);
    // Move & Fire to d3 makes it a charge: moved (no bonus), the fence does not count for a charge: needs 5.
    let v = ok_json(&[
        "--scenario",
        file,
        "--attacker",
        "d2",
        "--target",
        "d4",
        "--order",
        "move-fire",
        "--to",
        "d3",
        "--facing",
        "N",
    ]);
    assert_eq!(v["charge"], true);
    assert_eq!(v["modifiers"], serde_json::json!([]));
    assert_eq!(results(&v), ["2/3", "0", "1/6", "1/6"]);
    // Fire & Move counts as moved (R4.2); --attacks works on a board too.
    let v =
        ok_json(&["--scenario", file, "--attacker", "d2", "--target", "d4", "--order", "fire-move", "--attacks", "1"]);
    assert_eq!(v["needed"], 6);
    assert_eq!(v["after"]["steady"], "5/6");
    let out = pacw(&["--scenario", file, "--attacker", "d2", "--target", "d4"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("R6.3c  -1  cover: fence"));
}

#[test]
fn odds_on_a_board_say_why_an_attack_is_not_legal() {
    let (_dir, file) = scenario();
    let file = file.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["--attacker", "d2", "--target", "c4"], "range is 2 (R6.1)"),
        (&["--attacker", "c1", "--target", "c4", "--order", "fire-move"], "R4.3"),
        (&["--attacker", "d2", "--target", "d4", "--order", "move-fire"], "--to"),
        (&["--attacker", "d2", "--target", "d4", "--order", "move-fire", "--to", "e2", "--facing", "N"], "R6.1"),
        (&["--attacker", "d2", "--target", "d4", "--order", "move-fire", "--to", "d4", "--facing", "N"], "R5.1"),
        (&["--attacker", "e5", "--target", "d4"], "no unit on e5"),
        (&["--attacker", "d2", "--target", "d4", "--cover"], "--cover"),
        (&["--attacker", "d2", "--target", "z9"], "off the board"),
    ];
    for (args, want) in cases {
        let mut all = vec!["--scenario", file];
        all.extend_from_slice(args);
        let err = refused(&all);
        assert!(err.contains(want), "{args:?}: {want:?} not in {err}");
    }
    // Both armies have a Divisional Battery: each is named with its side.
    let err = refused(&["--scenario", "meeting-engagement", "--attacker", "d1", "--target", "e8"]);
    assert!(
        err.contains(
            "Union Divisional Battery cannot make this attack: Confederate Divisional Battery is 8 squares away; \
                      Union Divisional Battery's range is 4 (R6.1)"
        ),
        "{err}"
    );
}

/// A variant's `[terms]` are the words of the odds, as of the log: abstract, on a board and in the table.
#[test]
fn odds_use_the_variant_s_words() {
    let close = concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/close-combat.toml");
    let text = |args: &[&str]| {
        let out = pacw(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let charge = text(&["--attacker", "inf", "--target", "inf", "--distance", "1", "--variant", close]);
    assert!(charge.starts_with("regular infantry attacks regular infantry (close combat, strength 4)"), "{charge}");
    let table = text(&["--table", "--variant", close]);
    assert!(table.contains("close combat at distance 1") && table.contains("  close combat "), "{table}");
    assert!(!table.contains("charge"), "{table}");
    let (dir, scenario) = scenario();
    let named = std::fs::read_to_string(&scenario).unwrap().replacen("[map]", "variant = \"close-combat\"\n[map]", 1);
    let battle = dir.path().join("close.toml");
    std::fs::write(&battle, named).unwrap();
    let b = battle.to_str().unwrap();
    let board = text(&["--scenario", b, "--attacker", "d2", "--target", "d4", "--order", "move-fire", "--to", "d3"]);
    assert!(board.contains("distance 1 (close combat)") && !board.contains("charge"), "{board}");
    // The standard words where no variant renames them.
    assert!(text(&["--attacker", "inf", "--target", "inf", "--distance", "1"]).contains("charges regular infantry"));
}

/// A variant's own arm is an arm of the odds: described, named and given its rows.
#[test]
fn odds_know_a_variant_s_own_arms() {
    let dir = tempfile::Builder::new().prefix("pacw-odds-own-").tempdir().unwrap();
    let variant = dir.path().join("skirmishers.toml");
    std::fs::write(
        &variant,
        "name = \"Skirmishers\"\n[[arms]]\nid = \"skirmishers\"\nlike = \"infantry\"\nstrength = 2\nrange = 3\n",
    )
    .unwrap();
    let v = variant.to_str().unwrap();
    let out = pacw(&["--attacker", "skirmishers", "--target", "inf:veteran", "--distance", "3", "--variant", v]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // Named by its id, often a plural: "a unit of" lets the verb agree; a standard arm is said as it always was.
    let own = "a unit of regular skirmishers shoots at veteran infantry (strength 5) 3 squares away";
    assert!(said.starts_with(own), "{said}");
    let out = pacw(&["--attacker", "inf", "--target", "skirmishers", "--distance", "2", "--variant", v]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("regular infantry shoots at regular skirmishers (strength 2) 2 squares away"), "{said}");
    let v2 = ok_json(&["--attacker", "inf", "--target", "skirmishers", "--variant", v]);
    assert_eq!(v2["target_strength"], 2, "{v2}");
    let table = ok_json(&["--table", "--attacker", "skirmishers", "--variant", v]);
    let rows = table["rows"].as_array().unwrap();
    assert_eq!(table["attacker"], "skirmishers");
    assert_eq!(rows.iter().filter(|r| r["target_arm"] == "skirmishers").count(), 24);
    let refused = refused(&["--attacker", "skirmishers", "--target", "inf"]);
    assert!(refused.contains("'skirmishers' is not an arm"), "{refused}");
}

/// A variant's own arm's numbers are options of the odds, as a standard arm's are (`--set strength.skirmishers=5`).
#[test]
fn odds_set_a_variant_s_own_arm_s_numbers() {
    let v = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples/skirmishers.toml");
    let file = ok_json(&["--attacker", "inf", "--target", "skirmishers", "--variant", v]);
    let set =
        ok_json(&["--attacker", "inf", "--target", "skirmishers", "--variant", v, "--set", "strength.skirmishers=5"]);
    assert_eq!((file["target_strength"].as_u64(), set["target_strength"].as_u64()), (Some(3), Some(5)));
    assert_ne!(results(&file), results(&set), "a stronger target holds more often");
    // Their range of 3 reaches 3 squares; an option's 2 does not.
    let far = ["--attacker", "skirmishers", "--target", "inf", "--distance", "3", "--variant", v];
    ok_json(&far);
    let short = refused(&[&far[..], &["--set", "range.skirmishers=2"]].concat());
    assert!(short.contains("distance 3 is beyond the range of skirmishers, 2"), "{short}");
    let table = ok_json(&["--table", "--attacker", "skirmishers", "--variant", v, "--set", "range.skirmishers=1"]);
    let rows = table["rows"].as_array().unwrap();
    assert!(rows.iter().all(|r| r["attack"] == "charge"), "a range of 1 leaves only charges");
    for (given, said) in [
        ("range.skirmishers=27", "option range.skirmishers: '27' is not allowed (a whole number from 1 to 26)"),
        ("move.skirmishers=0", "option move.skirmishers: '0' is not allowed (a whole number from 1 to 26)"),
        ("range.skirmisher=2", "(their arms: infantry, cavalry, artillery, skirmishers)"),
    ] {
        let e = refused(&["--attacker", "inf", "--target", "skirmishers", "--variant", v, "--set", given]);
        assert!(e.contains(said), "{given}: {e}");
    }
}

/// The worked example of docs/variants.md ("What an attack does to the attacker"): a veteran's charge into woods
/// under rules that shake a failed charge and carry a successful one into the square, worked by hand.
#[test]
fn odds_give_the_attacker_s_outcomes_beside_the_target_s_as_worked_by_hand() {
    let dir = tempfile::Builder::new().prefix("pacw-odds-after-").tempdir().unwrap();
    let variant = dir.path().join("charge-home.toml");
    std::fs::write(
        &variant,
        "name = \"Charge home\"\n\
         [[after_attack]]\nid = \"A1\"\nname = \"failed charge\"\nwhen = \"charge and result == 'miss'\"\nattacker = \"shaken\"\n\
         [[after_attack]]\nid = \"A2\"\nname = \"charge home\"\n\
         when = \"charge and (result == 'retreat' or result == 'destroyed')\"\nattacker = \"advance\"\n",
    )
    .unwrap();
    let v = variant.to_str().unwrap();
    let args = ["--attacker", "inf:veteran", "--target", "inf", "--distance", "1", "--cover", "--variant", v];
    // 5 less 1 (did not move) plus 1 (cover): 5+, a hit 1/3. Strength 4 charged: retreat on 1-4, destroyed on 5-6.
    let json = ok_json(&args);
    assert_eq!(results(&json), ["2/3", "0", "2/9", "1/9"]);
    assert_eq!(json["attacker"]["fractions"]["shaken"], "2/3", "{json}");
    assert_eq!(json["attacker"]["fractions"]["advances"], "1/3", "{json}");
    assert_eq!(json["attacker"]["fractions"]["unchanged"], "0", "{json}");
    assert_eq!(json["attacker"]["rules"], serde_json::json!(["A1 failed charge", "A2 charge home"]));
    let out = pacw(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("The attacker (A1 failed charge; A2 charge home):"), "{text}");
    assert!(text.contains("  shaken                                2/3"), "{text}");
    assert!(text.contains("  advances into the target's square     1/3"), "{text}");
    // Fire: nothing befalls the attacker, and the odds say nothing of it.
    let fire = ok_json(&["--attacker", "inf", "--target", "inf", "--variant", v]);
    assert!(fire.get("attacker").is_none(), "{fire}");
}

/// The worked example of docs/variants.md ("The hit-result roll"): veterans in cover tested at +1.
#[test]
fn odds_test_the_hit_result_roll_with_a_variant_s_result_modifiers_as_worked_by_hand() {
    let dir = tempfile::Builder::new().prefix("pacw-odds-steady-").tempdir().unwrap();
    let variant = dir.path().join("steady-veterans.toml");
    std::fs::write(
        &variant,
        "name = \"Steady veterans\"\n[[result_modifiers]]\nid = \"H1\"\nname = \"veterans in cover stand firm\"\n\
         value = 1\nwhen = \"target.quality == 'veteran' and target.cover\"\n",
    )
    .unwrap();
    let v = variant.to_str().unwrap();
    let json = ok_json(&["--attacker", "inf", "--target", "inf:veteran", "--cover", "--variant", v]);
    assert_eq!(results(&json), ["2/3", "1/3", "0", "0"]);
    assert_eq!(json["result_modifiers"][0]["rule"], "H1", "{json}");
    let standard = ok_json(&["--attacker", "inf", "--target", "inf:veteran", "--cover"]);
    assert_eq!(results(&standard), ["2/3", "5/18", "1/18", "0"]);
    assert!(standard.get("result_modifiers").is_none());
}

/// A variant file written in a folder of its own, removed when the returned folder is dropped.
fn variant_file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new().prefix("pacw-odds-variant-").tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

/// docs/variants.md's restriction M1 ("Orders forbidden") forbids a charge on a steady unit: the table shows those
/// rows forbidden, citing its id and name, and computes the others as usual, in the text (within 120 columns) and in
/// the JSON.
#[test]
fn odds_table_shows_the_rows_a_variant_s_restriction_forbids() {
    let m1 = "name = \"Steady lines\"\n[[restrictions]]\nid = \"M1\"\nname = \"troops will not charge a steady line\"\n\
              when = \"charge and not target.shaken\"\n";
    let (_dir, file) = variant_file("m1.toml", m1);
    let v = file.to_str().unwrap();
    let out = pacw(&["--table", "--variant", v]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let forbidden: Vec<&str> = text.lines().filter(|l| l.contains("forbidden: M1")).collect();
    assert_eq!(forbidden.len(), 3 * 3 * 2, "{text}");
    assert!(forbidden.iter().all(|l| l.contains(" charge ") && l.contains(" steady ")), "{text}");
    assert!(
        text.lines().any(|l| l
            == "regular infantry      4  charge   no    steady  forbidden: M1 troops will not charge a steady line"),
        "{text}"
    );
    // The rows M1 leaves alone, as the standard's.
    assert!(
        text.contains("regular infantry      4  charge   no    shaken      4+     1/2       0     1/3       1/6\n")
    );
    assert!(
        text.contains("regular infantry      4  shooting no    steady      4+     1/2     1/3     1/6         0\n")
    );
    assert!(text.contains("(R4.2), the attacks are refused in play:\n  M1 troops will not charge a steady line\n"));
    assert!(text.lines().all(|l| l.chars().count() <= 120), "{text}");
    let json = ok_json(&["--table", "--variant", v]);
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 72);
    for r in rows {
        let refused = r["attack"] == "charge" && r["target_state"] == "steady";
        if refused {
            let said = serde_json::json!({"rule": "M1", "name": "troops will not charge a steady line"});
            assert_eq!(r["forbidden"], said, "{r}");
            assert!(r.get("fractions").is_none(), "{r}");
            assert!(r["target_strength"].is_u64() && r["target_arm"].is_string(), "{r}");
        } else {
            assert!(r.get("forbidden").is_none(), "{r}");
            results(r);
        }
    }
    // A long name is cut in its rows to keep them within 120 columns, and given whole below the table.
    let long = m1.replace("troops will not charge a steady line", &"a steady line stands ".repeat(8));
    let (_dir, file) = variant_file("long.toml", &long);
    let out = pacw(&["--table", "--variant", file.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().all(|l| l.chars().count() <= 120), "{text}");
    assert!(text.lines().any(|l| l.contains("forbidden: M1 a steady line stands") && l.ends_with('…')), "{text}");
    let whole: String =
        text.split("refused in play:\n").nth(1).unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(whole, format!("M1 {}", "a steady line stands ".repeat(8).trim_end()));
}

/// The abstract situation's terrain is read by the variant's terrain rules (docs/variants.md, "Terrain and
/// movement"): woods that give no cover give none, and `--cover` names the variant's own kinds.
#[test]
fn odds_cover_is_read_by_the_variant_s_terrain() {
    let (_dir, file) = variant_file(
        "open-woods.toml",
        "name = \"Open woods\"\n[[terrain]]\nid = \"woods\"\ncover = false\n\
         [[terrain]]\nid = \"thicket\"\nletter = \"K\"\nmove = 2\ncover = true\nblocks_sight = true\n",
    );
    let v = file.to_str().unwrap();
    let reasons = |j: &Value| -> Vec<String> {
        j["modifiers"].as_array().unwrap().iter().map(|m| m["reason"].as_str().unwrap().to_string()).collect()
    };
    // --cover alone is woods, which give no cover here: +1 did not move only, 4+.
    for args in [&["--cover"][..], &["--cover", "woods"]] {
        let j = ok_json(&[&["--attacker", "inf", "--target", "inf", "--variant", v][..], args].concat());
        assert_eq!(reasons(&j), ["attacker did not move"], "{args:?}");
        assert_eq!(j["needed"], 4);
        assert_eq!(results(&j), ["1/2", "1/3", "1/6", "0"]);
    }
    let out = pacw(&["--attacker", "inf", "--target", "inf", "--cover", "--variant", v]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().next().unwrap().ends_with("target steady, in woods (no cover, R1.5)"), "{text}");
    assert!(!text.contains("cover: woods"), "{text}");
    // Its own kind that gives cover, by its id.
    let j = ok_json(&["--attacker", "inf", "--target", "inf", "--cover", "thicket", "--variant", v]);
    assert_eq!(reasons(&j), ["attacker did not move", "cover: thicket"]);
    assert_eq!(j["needed"], 5);
    // The standard's kinds by name, and a kind the rules lack refused with theirs.
    let j = ok_json(&["--attacker", "inf", "--target", "inf", "--cover", "sunken_road"]);
    assert_eq!(reasons(&j), ["attacker did not move", "cover: sunken road"]);
    let e = refused(&["--attacker", "inf", "--target", "inf", "--cover", "thicket"]);
    assert!(
        e.contains(
            "--cover thicket: not a terrain of the rules in force (open, woods, town, sunken_road, river, ford)"
        ),
        "{e}"
    );
    let e = refused(&["--attacker", "inf", "--target", "inf", "--cover", "swamp", "--variant", v]);
    assert!(e.contains("(open, woods, town, sunken_road, river, ford, thicket)"), "{e}");
    let e = refused(&["--attacker", "inf", "--target", "inf", "--cover", "river"]);
    assert!(e.contains("the target cannot stand in river: it is impassable (R1.5)"), "{e}");
    // The table's cover is the first kind that gives it: here the town.
    let table = ok_json(&["--table", "--variant", v]);
    let covered: Vec<&Value> = table["rows"].as_array().unwrap().iter().filter(|r| r["cover"] == true).collect();
    assert_eq!(covered.len(), 36);
    assert!(covered.iter().all(|r| r["terrain"] == "town" && reasons(r).contains(&"cover: town".to_string())));
    let out = pacw(&["--table", "--variant", v]);
    assert!(String::from_utf8_lossy(&out.stdout).lines().next().unwrap().ends_with("; cover: town (R6.3a)"));
}

/// A shaken attacker is asked under a variant's rally roll (`--attacker-shaken`), said so, and its own modifiers and
/// restrictions apply; where activation rallies it (R4.1), or on a board, the question is refused.
#[test]
fn odds_ask_a_shaken_attacker_under_a_rally_roll() {
    let dir = tempfile::Builder::new().prefix("pacw-odds-shaken-").tempdir().unwrap();
    let variant = dir.path().join("shaken.toml");
    std::fs::write(
        &variant,
        "name = \"Shaken orders\"\n[rally]\nid = \"MR1\"\nname = \"rally test\"\nneeded = 4\n[[modifiers]]\n\
         id = \"S1\"\nname = \"shaken troops shoot wild\"\nvalue = -1\nwhen = \"attacker.shaken\"\n",
    )
    .unwrap();
    let v = variant.to_str().unwrap();
    let out = pacw(&["--attacker", "inf", "--target", "inf", "--attacker-shaken", "--variant", v]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.starts_with("shaken regular infantry shoots at regular infantry (strength 4)"), "{said}");
    assert!(said.contains("shaken troops shoot wild"), "{said}");
    let wild = ok_json(&["--attacker", "inf", "--target", "inf", "--attacker-shaken", "--variant", v]);
    let calm = ok_json(&["--attacker", "inf", "--target", "inf", "--variant", v]);
    assert_eq!((wild["needed"].as_u64(), calm["needed"].as_u64()), (Some(5), Some(4)));
    std::fs::write(
        &variant,
        "name = \"Shaken orders\"\n[rally]\nid = \"MR1\"\nname = \"rally test\"\nneeded = 4\n[[restrictions]]\n\
         id = \"M1\"\nname = \"shaken troops will not charge\"\nwhen = \"attacker.shaken and charge\"\n",
    )
    .unwrap();
    let forbidden =
        refused(&["--attacker", "inf", "--target", "inf", "--distance", "1", "--attacker-shaken", "--variant", v]);
    let said = "forbidden by the variant's restrictions on orders (R4.2): M1 shaken troops will not charge";
    assert!(forbidden.contains(said), "{forbidden}");
    let standard = refused(&["--attacker", "inf", "--target", "inf", "--attacker-shaken"]);
    assert!(standard.contains("R4.1") && standard.contains("rallied when it is activated"), "{standard}");
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/maryes-heights.toml");
    let board = refused(&["--scenario", scenario, "--attacker", "b4", "--target", "f4", "--attacker-shaken"]);
    assert!(board.contains("--attacker-shaken"), "{board}");
}
