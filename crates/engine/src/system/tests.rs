//! The combat system as data: the standard file describes the built-in rules, a variant is laid over it, and every
//! mistake in a variant file is refused at its place.

use super::condition::{AttackFacts, UnitFacts};
use super::*;
use crate::attack::{HitResult, hit_result, severe};
use crate::unit::Quality;

fn variant(text: &str) -> Result<CombatSystem, SystemError> {
    CombatSystem::with_variant(text, "v.toml")
}

/// Every problem's `line:col: message`, one a line.
fn problems(text: &str) -> String {
    variant(text).expect_err("a bad file").to_string()
}

#[test]
fn the_standard_file_is_read_without_a_problem_and_says_what_the_engine_does() {
    let standard = VariantText::parse(STANDARD, "rules/standard.toml");
    assert!(standard.is_ok(), "{}", standard.unwrap_err());
    let s = CombatSystem::standard();
    assert_eq!(s.name, "Standard");
    let ids: Vec<&str> = s.modifiers().iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["not_moved", "canister", "ranging", "flank_rear", "cover"], "R6.4's five, as options name them");
    // The values the options give the modifiers by default (R6.4, R11), and the arms' numbers (R2.2, R2.6).
    let o = crate::Options::default();
    let values =
        [o.modifier.not_moved, o.modifier.canister, o.modifier.ranging, o.modifier.flank_rear, o.modifier.cover];
    assert_eq!(s.modifiers().iter().map(|m| m.value).collect::<Vec<_>>(), values);
    for (arm, rule) in Arm::ALL.iter().zip(s.arms()) {
        assert_eq!((rule.id.as_str(), rule.like), (arm.name(), *arm));
        assert_eq!(
            (rule.strength, rule.movement, rule.range),
            (o.strength.get(*arm), o.movement.get(*arm), o.range.get(*arm))
        );
    }
    // The R7.1 table, row by row, as the engine's own hit_result.
    for shaken in [false, true] {
        for charge in [false, true] {
            for held in [true, false] {
                let roll = if held { 1 } else { 6 };
                let engine = match hit_result(4, severe(shaken, charge), roll) {
                    HitResult::Shaken => Effect::Shaken,
                    HitResult::Retreat => Effect::Retreat,
                    HitResult::Destroyed => Effect::Destroyed,
                };
                assert_eq!(s.results().effect(shaken, charge, held), engine, "shaken {shaken} charge {charge}");
            }
        }
    }
}

#[test]
fn the_standard_conditions_apply_as_the_engine_applies_its_modifiers() {
    let s = CombatSystem::standard();
    let holds = |id: &str, f: AttackFacts| s.modifier(id).unwrap().when.holds(&f);
    let gun = UnitFacts { arm: 2, ..UnitFacts::default() };
    let moved = UnitFacts { moved: true, ..UnitFacts::default() };
    // R6.4: not moved (not artillery), canister (artillery at distance 1), ranging, flank or rear charges, cover.
    assert!(holds("not_moved", AttackFacts::default()));
    assert!(!holds("not_moved", AttackFacts { attacker: moved, ..AttackFacts::default() }));
    assert!(!holds("not_moved", AttackFacts { attacker: gun, ..AttackFacts::default() }));
    assert!(holds("canister", AttackFacts { attacker: gun, charge: true, ..AttackFacts::default() }));
    assert!(!holds("canister", AttackFacts { attacker: gun, distance: 3, ..AttackFacts::default() }));
    assert!(holds("ranging", AttackFacts { ranging: true, ..AttackFacts::default() }));
    assert!(holds("flank_rear", AttackFacts { charge: true, rear: true, ..AttackFacts::default() }));
    assert!(!holds("flank_rear", AttackFacts { flank: true, ..AttackFacts::default() }), "only a charge");
    assert!(holds("cover", AttackFacts { target_cover: true, ..AttackFacts::default() }));
}

#[test]
fn a_variant_adds_and_changes_modifiers_arms_results_and_terms() {
    let s = variant(
        r#"
name = "Close combat"
description = "Veterans charge harder; skirmishers are hard to hit; long-range fire rarely decides."

[[modifiers]]
id = "V1"
name = "veteran élan"
value = 1
when = "charge and attacker.quality == 'veteran'"

[[modifiers]]
id = "cover"
when = "target.cover or (target.higher and not charge)"

[[arms]]
id = "skirmishers"
name = "Skirmishers"
like = "infantry"
strength = 2
move = 2

[[arms]]
id = "cavalry"
strength = 4

[results]
steady_fire = ["none", "shaken"]

[terms]
charge = "close combat"

[options]
to_hit = 4
"#,
    )
    .unwrap();
    assert_eq!(s.name, "Close combat");
    let v1 = s.modifier("V1").unwrap();
    assert_eq!((v1.rule.as_str(), v1.value), ("V1", 1), "a designer's modifier cites its own id");
    let veteran = UnitFacts { quality: Quality::Veteran, ..UnitFacts::default() };
    assert!(v1.when.holds(&AttackFacts { charge: true, attacker: veteran, ..AttackFacts::default() }));
    let cover = s.modifier("cover").unwrap();
    assert_eq!((cover.value, cover.rule.as_str()), (-1, "R6.3"), "what a change leaves out stays");
    let higher = UnitFacts { higher: true, ..UnitFacts::default() };
    assert!(cover.when.holds(&AttackFacts { target: higher, ..AttackFacts::default() }), "the crest covers");
    let skirmishers = s.arm("skirmishers").unwrap();
    assert_eq!((skirmishers.like, skirmishers.strength, skirmishers.movement), (Arm::Infantry, 2, 2));
    assert_eq!(skirmishers.range, 2, "what a new arm leaves out is its standard arm's");
    assert_eq!(s.arm("cavalry").unwrap().strength, 4);
    assert_eq!(s.arm("cavalry").unwrap().movement, 2, "a changed standard arm keeps the rest");
    assert_eq!(s.results().effect(false, false, true), Effect::None);
    assert_eq!(s.results().effect(true, true, false), Effect::Destroyed, "the other rows stay");
    assert_eq!(s.terms().charge, "close combat");
    assert_eq!(s.options(), [("to_hit".to_string(), "4".to_string())]);
}

#[test]
fn a_system_printed_as_a_variant_file_reads_back_the_same() {
    let standard = CombatSystem::standard();
    assert_eq!(variant(&standard.to_toml()).unwrap(), standard);
    let elan = variant(
        "name = \"Élan\"\ndescription = \"a \\\"quote\\\"\"\n[[modifiers]]\nid = \"V1\"\nvalue = 2\nwhen = \"charge\"\n\
         [[arms]]\nid = \"horse_artillery\"\nlike = \"artillery\"\nmove = 2\n[options]\nto_hit = 4\ninitiative = \"igougo\"\n",
    )
    .unwrap();
    assert_eq!(variant(&elan.to_toml()).unwrap(), elan, "{}", elan.to_toml());
}

#[test]
fn each_mistake_in_a_variant_file_is_refused_at_its_place() {
    for (text, expected) in [
        ("description = \"x\"\n", "v.toml:1:1: a variant file needs a name"),
        (
            "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"charge and atacker.shaken\"\n",
            "v.toml:5:20: when: unknown fact 'atacker.shaken'",
        ),
        (
            "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"distance == 'woods'\"\n",
            "v.toml:5:21: when: cannot compare a 'string' with a number",
        ),
        (
            "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"target.arm == 'dragoons'\"\n",
            "unknown arm 'dragoons' (known: infantry, cavalry, artillery)",
        ),
        (
            "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 5\nwhen = \"charge\"\n",
            "v.toml:4:9: value must be from -3 to 3, not 5",
        ),
        (
            "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"charge\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"flank\"\n",
            "v.toml:7:6: modifier id 'V1' is given twice",
        ),
        ("name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\n", "modifier 'V1' is new: it needs `when`"),
        ("name = \"x\"\n[[arms]]\nid = \"skirmishers\"\nstrength = 2\n", "arm 'skirmishers' is new: it needs `like`"),
        (
            "name = \"x\"\n[[arms]]\nid = \"lancers\"\nlike = \"dragoons\"\n",
            "v.toml:4:8: like: 'dragoons' is not a standard arm",
        ),
        ("name = \"x\"\n[[arms]]\nid = \"cavalry\"\nlike = \"infantry\"\n", "cannot be like another"),
        (
            "name = \"x\"\n[[arms]]\nid = \"x\"\nlike = \"infantry\"\nstrength = 9\n",
            "v.toml:5:12: strength must be from 1 to 6",
        ),
        ("name = \"x\"\n[results]\nsteady_fire = [\"none\", \"routed\"]\n", "v.toml:3:24: unknown outcome 'routed'"),
        ("name = \"x\"\n[results]\nsteady_fire = [\"none\"]\n", "steady_fire: two outcomes"),
        ("name = \"x\"\n[results]\nfire = [\"none\", \"shaken\"]\n", "v.toml:3:1: unknown row 'fire' of [results]"),
        ("name = \"x\"\n[terms]\nmelee = \"close combat\"\n", "v.toml:3:1: unknown term 'melee'"),
        ("name = \"x\"\n[[modifiers]]\nid = \"a b\"\nvalue = 1\nwhen = \"charge\"\n", "modifier id 'a b'"),
        ("name = \"x\"\nmodifier.hill = 1\n", "unknown field `modifier`"),
        ("name = \"x\"\n[options]\nto_hit = [4]\n", "v.toml:3:10: option to_hit must be a number"),
        (
            "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"charge\"\nwhen2 = \"x\"\n",
            "unknown field `when2`",
        ),
    ] {
        let got = problems(text);
        assert!(got.contains(expected), "{text}\nexpected {expected}\ngot {got}");
    }
    // Every problem of a file at once, not only the first.
    let two = problems("name = \"x\"\n[results]\nsteady_fire = [\"none\", \"routed\"]\n[terms]\nmelee = \"y\"\n");
    assert_eq!(two.lines().count(), 2, "{two}");
    // Bounds: size, modifiers, arms.
    assert!(problems(&format!("name = \"x\"\n#{}\n", "x".repeat(70_000))).contains("at most 64 KiB"));
    let many: String =
        (0..17).map(|i| format!("[[modifiers]]\nid = \"M{i}\"\nvalue = 1\nwhen = \"charge\"\n")).collect();
    assert!(problems(&format!("name = \"x\"\n{many}")).contains("at most 16 modifiers"));
    let arms: String = (0..6).map(|i| format!("[[arms]]\nid = \"A{i}\"\nlike = \"infantry\"\n")).collect();
    assert!(problems(&format!("name = \"x\"\n{arms}")).contains("at most 5 new arms"));
}

proptest::proptest! {
    /// Whatever a variant file holds, it is read or refused with a message, never a panic.
    #[test]
    fn any_variant_text_is_read_or_refused(text in "[a-z_=\"'\\[\\]\n .0-9-]{0,200}") {
        let _ = variant(&text);
    }
}
