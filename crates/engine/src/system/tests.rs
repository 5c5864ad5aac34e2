//! The combat system as data: the standard file describes the built-in rules, a variant is laid over it, and every
//! mistake in a variant file is refused at its place.

use super::condition::{AttackFacts, UnitFacts};
use super::*;
use crate::Prob;
use crate::attack::{AttackKind, Steadiness, hit_result};
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
    let standard = file::VariantText::parse(STANDARD, "rules/standard.toml", &CombatSystem::standard());
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
    for target in [Steadiness::Steady, Steadiness::Shaken] {
        for kind in [AttackKind::Fire, AttackKind::Charge] {
            for held in [true, false] {
                let roll = if held { 1 } else { 6 };
                let engine = hit_result(4, target, kind, roll);
                assert_eq!(s.results().effect(target, kind, held), engine, "{target:?} {kind:?}");
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
    assert_eq!(s.results().effect(Steadiness::Steady, AttackKind::Fire, true), HitResult::NoEffect);
    assert_eq!(
        s.results().effect(Steadiness::Shaken, AttackKind::Charge, false),
        HitResult::Destroyed,
        "the other rows stay"
    );
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
        ("name = \"x\"\n[options]\nmodifier.nope = 1\n", "v.toml:3:10: unknown option 'modifier.nope' (known: "),
        ("name = \"x\"\n[options]\nmodifier = { nope = 1 }\n", "v.toml:3:14: unknown option 'modifier.nope'"),
        ("name = \"x\"\n[options]\nto_hti = 4\n", "v.toml:3:1: unknown option 'to_hti': did you mean 'to_hit'?"),
        (
            "name = \"x\"\n[options]\nmodifier.covr = 1\n",
            "v.toml:3:10: unknown option 'modifier.covr': did you mean 'modifier.cover'?",
        ),
        ("name = \"x\"\n[options]\nto_hit = 9\n", "v.toml:3:10: option to_hit: '9' is not allowed"),
        ("name = \"x\"\n[options]\nmodifier = { cover = 4 }\n", "v.toml:3:22: option modifier.cover: '4'"),
        (
            "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"charge\"\n[options]\nmodifier.V1 = 7\n",
            "v.toml:7:15: option modifier.V1: '7' is not allowed",
        ),
        (
            "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"charge\"\nwhen2 = \"x\"\n",
            "unknown field `when2`",
        ),
    ] {
        let got = problems(text);
        assert!(got.contains(expected), "{text}\nexpected {expected}\ngot {got}");
    }
    // The options a variant may set: the rules', its own modifiers', and each side's exhaustion by the scenario's ids.
    let own = "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"charge\"\n[options]\nmodifier = { V1 = 2, cover = -2 }\nexhaustion.union = 3\nto_hit = 4\n";
    let read = variant(own).unwrap();
    assert_eq!(read.options().len(), 4, "{:?}", read.options());
    // Every problem of a file at once, not only the first.
    let two = problems("name = \"x\"\n[results]\nsteady_fire = [\"none\", \"routed\"]\n[terms]\nmelee = \"y\"\n");
    assert_eq!(two.lines().count(), 2, "{two}");
    // Bounds: size, modifiers, arms.
    assert!(problems(&format!("name = \"x\"\n#{}\n", "x".repeat(70_000))).contains("at most 64 KiB"));
    let many: String =
        (0..17).map(|i| format!("[[modifiers]]\nid = \"M{i}\"\nvalue = 1\nwhen = \"charge\"\n")).collect();
    assert!(problems(&format!("name = \"x\"\n{many}")).contains("at most 16 modifiers"));
    // Eleven new ones fill the sixteen places beside the standard's five; a twelfth is refused at its place.
    let new = |n: usize| -> String {
        (0..n).map(|i| format!("[[modifiers]]\nid = \"N{i}\"\nvalue = 1\nwhen = \"charge\"\n")).collect()
    };
    let full = variant(&format!("name = \"x\"\n{}", new(11))).unwrap();
    assert_eq!(full.modifiers().len(), 16);
    let twelve = problems(&format!("name = \"x\"\n{}", new(12)));
    assert!(
        twelve.contains("at most 11 new modifiers beside the standard's 5") && twelve.contains(":46:1:"),
        "{twelve}"
    );
    // A standard id changed does not take a place.
    let changed = format!("name = \"x\"\n[[modifiers]]\nid = \"cover\"\nvalue = -2\n{}", new(11));
    assert_eq!(variant(&changed).unwrap().modifiers().len(), 16);
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

/// The shipped battle `name`, played by the built-in rules (`None`) or by `system`.
fn battle(name: &str, system: Option<CombatSystem>) -> crate::Battle {
    let crate::Shipped { file, text, .. } =
        crate::shipped_named(crate::offered_scenarios(), name).expect("a shipped battle");
    let mut scenario = crate::Scenario::parse(text, file).expect("it reads");
    if let Some(system) = system {
        scenario = scenario.with_system(std::sync::Arc::new(system)).expect("the system's options fit");
    }
    crate::Battle::from_scenario(std::sync::Arc::new(scenario))
}

/// A scenario given the standard system is played exactly as one without a system: the same legal actions, the same
/// odds of every attack, the same chances and the same events at every step of whole games (a step chosen by a fixed
/// rule, so that the walk reaches charges, cover, ranging and blocked retreats), and the same perft counts.
#[test]
fn a_battle_given_the_standard_system_plays_exactly_as_one_without() {
    use crate::perft::{Step, perft, steps};
    let (mut shots, mut charges, mut in_cover, mut steps_played) = (0, 0, 0, 0);
    for name in ["meeting-engagement", "bloody-lane", "maryes-heights", "mcpherson-ridge", "brandy-station"] {
        for game in 0..3usize {
            let mut built_in = battle(name, None);
            let mut as_data = battle(name, Some(CombatSystem::standard()));
            for k in 0..3000usize {
                let options = steps(&built_in);
                assert_eq!(options, steps(&as_data), "{name} game {game} step {k}: the same choices");
                if options.is_empty() {
                    break;
                }
                if matches!(built_in.to_act(), crate::ToAct::Chance(_)) {
                    assert_eq!(built_in.chance_outcomes(), as_data.chance_outcomes(), "{name} step {k}: chances");
                } else if let Some(unit) = built_in.active_unit() {
                    for action in built_in.legal_actions().into_iter().filter(|a| a.target().is_some()) {
                        let odds = built_in
                            .attack_odds(unit, &action)
                            .map(|o| (o, o.probability(crate::odds::AttackResult::Shaken)));
                        assert_eq!(
                            odds,
                            as_data
                                .attack_odds(unit, &action)
                                .map(|o| (o, o.probability(crate::odds::AttackResult::Shaken))),
                            "{name} step {k}: odds of {action:?}"
                        );
                    }
                }
                let step = crate::perft::fighting_step(&options, k, game * 5 + 3);
                let (a, b) = match step {
                    Step::Decision(action) => (built_in.apply(action), as_data.apply(action)),
                    Step::Chance(outcome) => (built_in.apply_chance(outcome), as_data.apply_chance(outcome)),
                };
                assert_eq!(a, b, "{name} game {game} step {k}: the same events");
                steps_played += 1;
                for e in a.iter().flatten() {
                    if let crate::Event::Attack { charge, modifiers, .. } = e {
                        *(if *charge { &mut charges } else { &mut shots }) += 1;
                        in_cover += modifiers.iter().any(|m| matches!(m, crate::attack::Modifier::Cover(_))) as u32;
                    }
                }
            }
        }
        let (built_in, as_data) = (battle(name, None), battle(name, Some(CombatSystem::standard())));
        assert_eq!(perft(&built_in, 4), perft(&as_data, 4), "{name}: perft 4");
    }
    eprintln!("{steps_played} steps, {shots} shots, {charges} charges, {in_cover} in cover");
    assert!(shots > 20 && charges > 20 && in_cover > 10, "the walk reached the attacks it is meant to compare");
}

const ELAN_AND_NO_EFFECT: &str = r#"
name = "Elan"
[[modifiers]]
id = "V1"
name = "veteran élan"
value = 1
when = "charge and attacker.quality == 'veteran'"

[results]
steady_fire = ["none", "shaken"]

[terms]
charge = "close combat"
shaken = "disordered"
"#;

/// Deals the first card of each draw and ends activations until `unit` may be activated, then activates it.
fn activated(b: &mut crate::Battle, unit: crate::UnitId) {
    while !b.legal_actions().contains(&crate::Action::Activate(unit)) {
        match b.to_act() {
            crate::ToAct::Chance(_) => {
                let outcome = b.chance_branches().next().expect("an outcome");
                b.apply_chance(outcome).unwrap();
            }
            _ => {
                let end = *b.legal_actions().last().expect("an action");
                b.apply(end).unwrap();
            }
        }
    }
    b.apply(crate::Action::Activate(unit)).unwrap();
}

/// Two infantry units facing each other `gap` squares apart on an open board, the first veteran, played by `system`.
fn duel(gap: u8, system: Option<CombatSystem>) -> crate::Battle {
    duel_with(gap, system, &[])
}

/// [`duel`] with these options set.
fn duel_with(gap: u8, system: Option<CombatSystem>, set: &[(&str, &str)]) -> crate::Battle {
    use crate::geometry::{Dir, Square};
    use crate::unit::{Arm, Side, UnitInfo};
    let unit = |side, quality, y, facing| UnitInfo {
        name: format!("{side:?}"),
        side,
        arm: Arm::Infantry,
        quality,
        at: Square::new(2, y),
        facing,
        own_arm: None,
        numbers: Default::default(),
    };
    let units = vec![unit(Side::A, Quality::Veteran, 0, Dir::N), unit(Side::B, Quality::Regular, gap, Dir::S)];
    let mut s = crate::Scenario::synthetic("duel", crate::map::Map::open(5, 6), units, crate::Options::default())
        .expect("a valid duel");
    if let Some(system) = system {
        s = s.with_system(std::sync::Arc::new(system)).unwrap();
    }
    let mut options = s.options;
    for (name, value) in set {
        s.set_option(&mut options, name, value).unwrap();
    }
    s.options = options;
    let mut b = crate::Battle::from_scenario(std::sync::Arc::new(s));
    activated(&mut b, crate::UnitId(0));
    b
}

/// [`duel`] before the first unit, the veteran, is activated: it stands shaken, and its side is to activate a unit.
fn shaken_duel(gap: u8, system: Option<CombatSystem>) -> crate::Battle {
    let mut b = duel(gap, system);
    let (unit, others) = (crate::UnitId(0), b.clone());
    b = crate::Battle::from_scenario(others.scenario().clone());
    b.set_shaken(unit);
    while !b.legal_actions().contains(&crate::Action::Activate(unit)) {
        match b.to_act() {
            crate::ToAct::Chance(_) => {
                let outcome = b.chance_branches().next().expect("an outcome");
                b.apply_chance(outcome).unwrap();
            }
            _ => {
                let end = *b.legal_actions().last().expect("an action");
                b.apply(end).unwrap();
            }
        }
    }
    b
}

#[test]
fn a_variant_s_own_modifier_is_played_and_cited_by_its_id() {
    let elan = variant(ELAN_AND_NO_EFFECT).unwrap();
    let charge = |b: &crate::Battle| {
        let action = b.legal_actions().into_iter().find(|a| a.target().is_some()).expect("an attack");
        b.attack_odds(crate::UnitId(0), &action).unwrap()
    };
    let (standard, varied) = (charge(&duel(1, None)), charge(&duel(1, Some(elan))));
    assert!(standard.assessment.charge && varied.assessment.charge);
    assert_eq!(varied.to_hit() + 1, standard.to_hit(), "élan adds 1 to a veteran's charge");
    let own: Vec<_> =
        varied.modifiers().applied().filter(|m| matches!(m.modifier, crate::attack::Modifier::Own(_))).collect();
    assert_eq!(own.len(), 1);
    let b = duel(1, Some(variant(ELAN_AND_NO_EFFECT).unwrap()));
    assert_eq!(b.scenario().describe_modifier(own[0].modifier), ("V1".to_string(), "veteran élan".to_string()));
    // The log cites it as the standard modifiers are cited.
    let mut b = b;
    let action = b.legal_actions().into_iter().find(|a| a.target().is_some()).unwrap();
    let events = b.apply(action).unwrap();
    let said: Vec<String> = events.iter().map(|e| crate::narrate::event(b.scenario(), e)).collect();
    assert!(said.iter().any(|l| l.contains("V1 +1 veteran élan")), "{said:?}");
    assert!(
        said[0].contains("attacks Side B") && said[0].contains("(close combat): needs"),
        "the variant's word: {said:?}"
    );
    // The order offered says the variant's word too (the terminal's list and the API's text are these words).
    let fresh = duel(1, Some(variant(ELAN_AND_NO_EFFECT).unwrap()));
    let offered: Vec<String> = fresh.legal_actions().iter().map(|a| crate::narrate::action(&fresh, a)).collect();
    assert!(offered.iter().any(|o| o.starts_with("Close combat against Side B")), "{offered:?}");
    assert!(!offered.iter().any(|o| o.contains("harge")), "{offered:?}");
    let standard = duel(1, None);
    let offered: Vec<String> = standard.legal_actions().iter().map(|a| crate::narrate::action(&standard, a)).collect();
    assert!(offered.iter().any(|o| o.starts_with("Charge Side B")), "{offered:?}");
    // The standard words stay where a variant keeps them, and a renamed state reads as renamed.
    let shaken = crate::Event::Shaken { unit: crate::UnitId(1) };
    assert!(crate::narrate::event(b.scenario(), &shaken).contains("is disordered"));
    let standard = duel(1, None);
    assert!(crate::narrate::event(standard.scenario(), &shaken).contains("is shaken"));
}

#[test]
fn a_variant_s_own_modifier_is_an_option_of_its_games() {
    let charge_needs = |b: crate::Battle| {
        let action = b.legal_actions().into_iter().find(|a| a.target().is_some()).expect("an attack");
        b.attack_odds(crate::UnitId(0), &action).unwrap().to_hit()
    };
    let elan = || Some(variant(ELAN_AND_NO_EFFECT).unwrap());
    let (standard, file) = (charge_needs(duel(1, None)), charge_needs(duel(1, elan())));
    assert_eq!(charge_needs(duel_with(1, elan(), &[("modifier.V1", "2")])), standard - 2);
    assert_eq!(charge_needs(duel_with(1, elan(), &[("modifier.V1", "0")])), standard, "0 switches it off");
    assert_eq!(file, standard - 1, "unset, it is worth what the file says");
    // The variant's own [options] may set it too.
    let off = variant(&format!("{ELAN_AND_NO_EFFECT}\n[options]\nmodifier.V1 = 0\n")).unwrap();
    assert_eq!(charge_needs(duel(1, Some(off))), standard);
    // Named in records, bounded, and unknown to a game not played by the variant.
    let s = duel_with(1, elan(), &[("modifier.V1", "2")]).scenario().clone();
    let pairs = s.option_pairs(&s.options);
    assert!(pairs.contains(&("modifier.V1".to_string(), "2".to_string())), "{pairs:?}");
    let mut o = s.options;
    let e = s.set_option(&mut o, "modifier.V1", "4").unwrap_err().to_string();
    assert!(e.contains("modifier.V1") && e.contains("-3 to 3"), "{e}");
    assert_eq!(o, s.options, "a refused option changes nothing");
    let plain = duel(1, None).scenario().clone();
    assert!(plain.set_option(&mut plain.options.clone(), "modifier.V1", "1").is_err());
}

#[test]
fn a_hit_with_no_effect_is_its_own_outcome_in_the_odds_and_changes_nothing_on_the_board() {
    let fire = |b: &crate::Battle| {
        let action = b.legal_actions().into_iter().find(|a| a.target().is_some()).expect("a shot");
        (action, b.attack_odds(crate::UnitId(0), &action).unwrap())
    };
    let (_, standard) = fire(&duel(2, None));
    let mut b = duel(2, Some(variant(ELAN_AND_NO_EFFECT).unwrap()));
    let (action, odds) = fire(&b);
    assert!(!odds.assessment.charge && !standard.has_no_effect() && odds.has_no_effect());
    // Strength 4: a hit changes nothing on 1-4, shakes on 5-6 (the variant's steady_fire row).
    assert_eq!(odds.no_effect, odds.hit() * crate::Prob::new(4, 6));
    assert_eq!(odds.shaken, odds.hit() * crate::Prob::new(2, 6));
    assert_eq!(odds.no_effect + odds.shaken, standard.shaken + standard.retreat, "the same hits, milder");
    assert_eq!(
        odds.results().map(|(r, _)| r.name()).collect::<Vec<_>>(),
        ["miss", "no_effect", "shaken", "retreat", "destroyed"]
    );
    // The battle: a 6 to hit, a 1 on the target's die: nothing happens to it.
    b.apply(action).unwrap();
    b.apply_chance(crate::chance::Outcome::Die(6)).unwrap();
    let events = b.apply_chance(crate::chance::Outcome::Die(1)).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, crate::Event::HitResultRolled { result: crate::attack::HitResult::NoEffect, .. }))
    );
    assert!(!b.unit(crate::UnitId(1)).shaken, "a hit with no effect does not shake");
    assert_eq!(crate::odds::AttackResult::from_events(&events), Some(crate::odds::AttackResult::NoEffect));
}

#[test]
fn a_variant_s_numbers_of_the_standard_become_the_scenario_s_options() {
    let text = "name = \"Hard\"\n[[modifiers]]\nid = \"cover\"\nvalue = -2\n[[arms]]\nid = \"cavalry\"\nstrength = 5\n[options]\nto_hit = 4\n";
    let b = battle("meeting-engagement", Some(variant(text).unwrap()));
    let o = b.options();
    assert_eq!((o.modifier.cover, o.strength.get(crate::Arm::Cavalry), o.to_hit), (-2, 5, 4));
}

const SKIRMISHERS: &str = r#"
name = "Skirmishers"
[[arms]]
id = "skirmishers"
name = "Skirmishers"
like = "infantry"
strength = 2
move = 2
range = 3

[[modifiers]]
id = "S1"
name = "skirmishers are hard to hit"
value = -1
when = "not charge and target.arm == 'skirmishers'"
"#;

/// A scenario with a unit of the variant's own arm: Blue skirmishers on c2 facing Grey infantry on c4.
const SKIRMISH: &str = r#"
name = "Skirmish"
turns = 5
[map]
terrain = """
.....
.....
.....
.....
.....
"""
[[sides]]
id = "blue"
name = "Blue"
home = "south"
[[sides]]
id = "grey"
name = "Grey"
home = "north"
[[units]]
side = "blue"
name = "Sharpshooters"
arm = "skirmishers"
at = "c2"
[[units]]
side = "grey"
name = "Line"
arm = "infantry"
at = "c4"
"#;

#[test]
fn units_of_a_variant_s_own_arm_have_its_numbers_and_its_name_and_conditions_see_it() {
    let refused = crate::Scenario::parse(SKIRMISH, "skirmish.toml").unwrap_err().to_string();
    assert!(refused.contains("unknown arm 'skirmishers' (infantry, cavalry, artillery)"), "{refused}");
    let system = std::sync::Arc::new(variant(SKIRMISHERS).unwrap());
    let scenario = crate::Scenario::parse_with(SKIRMISH, "skirmish.toml", system).unwrap();
    let (skirmishers, line) = (crate::UnitId(0), crate::UnitId(1));
    assert_eq!(scenario.units[0].arm, crate::Arm::Infantry, "it acts as its `like`");
    assert_eq!(scenario.arm_name(&scenario.units[0]), "skirmishers");
    let mut b = crate::Battle::from_scenario(std::sync::Arc::new(scenario));
    assert_eq!((b.strength(skirmishers), b.movement(skirmishers), b.range(skirmishers)), (2, 2, 3));
    assert_eq!((b.strength(line), b.movement(line), b.range(line)), (4, 1, 2), "the standard arms as they were");
    assert!(crate::narrate::unit(b.scenario(), skirmishers).contains("(regular skirmishers)"));
    // The Grey line fires at them two squares away: the variant's own modifier sees their arm.
    activated(&mut b, line);
    let fire = b.legal_actions().into_iter().find(|a| a.target() == Some(skirmishers)).expect("in range");
    let odds = b.attack_odds(line, &fire).unwrap();
    let cited: Vec<(String, String)> = odds.modifiers().iter().map(|m| b.scenario().describe_modifier(m)).collect();
    assert!(cited.contains(&("S1".to_string(), "skirmishers are hard to hit".to_string())), "{cited:?}");
    assert_eq!(odds.assessment.strength, 2, "fired at with their own strength");
}

/// [`SKIRMISH`] played by [`SKIRMISHERS`], with these options set.
fn skirmish_with(set: &[(&str, &str)]) -> crate::Battle {
    let system = std::sync::Arc::new(variant(SKIRMISHERS).unwrap());
    let mut s = crate::Scenario::parse_with(SKIRMISH, "skirmish.toml", system).unwrap();
    let mut options = s.options;
    for (name, value) in set {
        s.set_option(&mut options, name, value).unwrap();
    }
    s.options = options;
    crate::Battle::from_scenario(std::sync::Arc::new(s))
}

#[test]
fn a_variant_s_own_arm_s_numbers_are_options_of_its_games() {
    let (skirmishers, line) = (crate::UnitId(0), crate::UnitId(1));
    let b = skirmish_with(&[("range.skirmishers", "1"), ("move.skirmishers", "4"), ("strength.skirmishers", "5")]);
    assert_eq!((b.strength(skirmishers), b.movement(skirmishers), b.range(skirmishers)), (5, 4, 1));
    assert_eq!((b.strength(line), b.movement(line), b.range(line)), (4, 1, 2), "the standard arms as they were");
    // In play: the line stands two squares away, within the file's range of 3 and beyond an option's 1 (they may
    // still step up and charge it).
    let fires_at_the_line = |mut b: crate::Battle| {
        activated(&mut b, skirmishers);
        b.legal_actions().iter().any(|a| matches!(a, crate::Action::Fire { target, .. } if *target == line))
    };
    assert!(fires_at_the_line(skirmish_with(&[])));
    assert!(!fires_at_the_line(skirmish_with(&[("range.skirmishers", "1")])));
    assert!(fires_at_the_line(skirmish_with(&[("range.skirmishers", "1"), ("range.skirmishers", "2")])));
    // Fired at with the strength an option gives them.
    let fired_at = |mut b: crate::Battle| {
        activated(&mut b, line);
        let fire = b.legal_actions().into_iter().find(|a| a.target() == Some(skirmishers)).expect("in range");
        b.attack_odds(line, &fire).unwrap().assessment.strength
    };
    assert_eq!(fired_at(skirmish_with(&[])), 2, "the file's strength");
    assert_eq!(fired_at(skirmish_with(&[("strength.skirmishers", "5")])), 5);
    // Named in records as the scenario names the arm, the numbers no option sets left out as the file says them.
    let s = b.scenario().clone();
    let pairs = s.option_pairs(b.options());
    for pair in [("strength.skirmishers", "5"), ("move.skirmishers", "4"), ("range.skirmishers", "1")] {
        assert!(pairs.contains(&(pair.0.to_string(), pair.1.to_string())), "{pair:?} in {pairs:?}");
    }
    let plain = skirmish_with(&[]);
    assert!(!plain.scenario().option_pairs(plain.options()).iter().any(|(k, _)| k.ends_with("skirmishers")));
    // Refused out of the bounds of a file's [[arms]], and for an arm the rules in force lack: nothing changes.
    let mut o = s.options;
    for (name, value, allowed) in [
        ("range.skirmishers", "27", "from 1 to 26"),
        ("range.skirmishers", "0", "from 1 to 26"),
        ("move.skirmishers", "two", "from 1 to 26"),
        ("strength.skirmishers", "7", "from 1 to 6"),
    ] {
        let e = s.set_option(&mut o, name, value).unwrap_err().to_string();
        assert!(e.contains(name) && e.contains(allowed) && e.contains("(R11)"), "{e}");
    }
    let e = s.set_option(&mut o, "range.skirmisher", "2").unwrap_err().to_string();
    assert!(e.contains("'range.skirmisher'") && e.contains("infantry, cavalry, artillery, skirmishers"), "{e}");
    assert_eq!(o, s.options, "a refused option changes nothing");
    let plain = crate::Scenario::parse(crate::DEFAULT_SCENARIO, "m.toml").unwrap();
    let e = plain.set_option(&mut plain.options.clone(), "range.skirmishers", "2").unwrap_err().to_string();
    assert!(e.contains("(their arms: infantry, cavalry, artillery)"), "{e}");
    // The variant's own [options] may set them, checked at their place as the file is read.
    let short = variant(&format!("{SKIRMISHERS}\n[options]\nrange.skirmishers = 1\n")).unwrap();
    let s = crate::Scenario::parse_with(SKIRMISH, "skirmish.toml", std::sync::Arc::new(short)).unwrap();
    assert_eq!(crate::Battle::from_scenario(std::sync::Arc::new(s)).range(skirmishers), 1);
    let e = variant(&format!("{SKIRMISHERS}\n[options]\nrange.skirmishers = 30\n")).unwrap_err().to_string();
    assert!(e.contains("option range.skirmishers: '30' is not allowed (a whole number from 1 to 26)"), "{e}");
    let e = variant(&format!("{SKIRMISHERS}\n[options]\nrange.skirmisher = 2\n")).unwrap_err().to_string();
    assert!(e.contains("did you mean 'range.skirmishers'?"), "{e}");
}

#[test]
fn a_game_with_an_own_arm_s_number_set_saves_it_and_replays_by_it() {
    let b = skirmish_with(&[("range.skirmishers", "1"), ("strength.skirmishers", "6")]);
    let (scenario, options) = (b.scenario().clone(), *b.options());
    let mut game = crate::Game::with_scenario(scenario, SKIRMISH, "skirmish.toml", Some(options), 7);
    for _ in 0..12 {
        let Some(&action) = game.battle().legal_actions().first() else { break };
        game.act(action).unwrap();
    }
    let json = game.save_json();
    assert!(json.contains("\"own_arm\""), "{json}");
    let loaded = crate::Game::load(&json).unwrap();
    assert_eq!(*loaded.battle().options(), options);
    assert_eq!(loaded.battle().range(crate::UnitId(0)), 1);
    assert_eq!(loaded.battle().strength(crate::UnitId(0)), 6);
    assert_eq!(loaded.log(), game.log());
    // A save of a game that sets none says nothing of them, as before.
    let plain = skirmish_with(&[]);
    let game = crate::Game::with_scenario(plain.scenario().clone(), SKIRMISH, "skirmish.toml", None, 7);
    assert!(!game.save_json().contains("own_arm"));
}

#[test]
fn a_scenario_may_name_a_shipped_variant_and_is_played_by_it() {
    let text = crate::DEFAULT_SCENARIO.replacen("turns = ", "variant = \"close-combat\"\nturns = ", 1);
    let s = crate::Scenario::parse(&text, "m.toml").unwrap();
    assert_eq!(s.variant().map(|s| s.name.as_str()), Some("Close combat"));
    // A variant given overrides the one named.
    let given = std::sync::Arc::new(variant(SKIRMISHERS).unwrap());
    assert_eq!(crate::Scenario::parse_with(&text, "m.toml", given).unwrap().variant().unwrap().name, "Skirmishers");
    let bad = crate::Scenario::parse(&text.replace("close-combat", "chess"), "m.toml").unwrap_err().to_string();
    assert!(bad.contains("variant 'chess' is not a shipped variant (close-combat,"), "{bad}");
    assert!(bad.starts_with("m.toml:"), "at its line and column: {bad}");
    // A variant file of the author's, read by the caller (beside the scenario file, on the command line).
    let own = text.replace("close-combat", "skirmishers.toml");
    let read = |name: &str| if name == "skirmishers.toml" { Ok(SKIRMISHERS.to_string()) } else { Err("no".into()) };
    let s = crate::Scenario::parse_reading(&own, "m.toml", &read).unwrap();
    assert_eq!(s.variant().map(|s| s.name.as_str()), Some("Skirmishers"));
    assert_eq!(s.variant().unwrap().source().map(|(file, _)| file), Some("skirmishers.toml"), "a save keeps its text");
    let missing = |_: &str| Err("no such file".to_string());
    let bad = crate::Scenario::parse_reading(&own, "m.toml", &missing).unwrap_err().to_string();
    assert!(bad.contains("skirmishers.toml") && bad.contains("no such file"), "{bad}");
    let broken = |_: &str| Ok("[[modifiers]]\nid = \"X\"\nvalue = 9\nwhen = \"charge\"\n".to_string());
    let bad = crate::Scenario::parse_reading(&own, "m.toml", &broken).unwrap_err().to_string();
    assert!(bad.contains("skirmishers.toml:") && bad.contains("-3"), "the variant's own problem, placed: {bad}");
    // Parsed without a reader (the web app), a file name is refused with what to do instead.
    let bad = crate::Scenario::parse(&own, "m.toml").unwrap_err().to_string();
    assert!(bad.contains("variant_text") && bad.contains("--variant"), "{bad}");
    // Every shipped variant reads.
    for &crate::Shipped { name, .. } in crate::SHIPPED_VARIANTS {
        let named = crate::DEFAULT_SCENARIO.replacen("turns = ", &format!("variant = \"{name}\"\nturns = "), 1);
        assert!(crate::Scenario::parse(&named, "m.toml").unwrap().variant().is_some(), "{name}");
    }
}

/// A variant whose charges carry the attacker with them: a failed charge shakes it, a charge that drives its target
/// off (retreat or destroyed) advances into the square (docs/variants.md, "What an attack does to the attacker").
const CHARGE_HOME: &str = r#"
name = "Charge home"
[[after_attack]]
id = "A1"
name = "failed charge"
when = "charge and result == 'miss'"
attacker = "shaken"

[[after_attack]]
id = "A2"
name = "charge home"
when = "charge and (result == 'retreat' or result == 'destroyed')"
attacker = "advance"
"#;

/// The first attack listed for the unit choosing its order.
fn first_attack(b: &crate::Battle) -> crate::Action {
    b.legal_actions().into_iter().find(|a| a.target().is_some()).expect("an attack")
}

#[test]
fn after_attack_rules_are_read_printed_and_refused_at_their_place() {
    let home = variant(CHARGE_HOME).unwrap();
    assert_eq!(home.after_attack().len(), 2);
    assert_eq!(home.after_attack()[1].effect, AttackerEffect::Advance);
    assert!(CombatSystem::standard().after_attack().is_empty(), "the standard rules have none");
    assert_eq!(variant(&home.to_toml()).unwrap(), home, "{}", home.to_toml());
    assert_eq!(home.to_json()["after_attack"][0]["attacker"], "shaken");
    for (text, expected) in [
        (
            "name = \"x\"\n[[after_attack]]\nid = \"A1\"\nwhen = \"charge\"\nattacker = \"routed\"\n",
            "v.toml:5:12: attacker: unknown effect 'routed' (known: shaken, destroyed, advance)",
        ),
        (
            "name = \"x\"\n[[after_attack]]\nid = \"A1\"\nattacker = \"shaken\"\n",
            "v.toml:2:1: after_attack 'A1' needs `when`",
        ),
        (
            "name = \"x\"\n[[after_attack]]\nid = \"A1\"\nwhen = \"charge\"\n",
            "v.toml:2:1: after_attack 'A1' needs `attacker`",
        ),
        (
            "name = \"x\"\n[[after_attack]]\nid = \"A1\"\nwhen = \"result == 'routed'\"\nattacker = \"shaken\"\n",
            "v.toml:4:19: when: unknown result 'routed' (known: miss, no_effect, shaken, retreat, destroyed, stand)",
        ),
        (
            "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"result == 'miss'\"\n",
            "v.toml:5:9: when: 'result' is known only after the dice",
        ),
        (
            "name = \"x\"\n[[after_attack]]\nid = \"A1\"\nwhen = \"charge\"\nattacker = \"shaken\"\nwhen2 = 1\n",
            "unknown field `when2`",
        ),
        (
            "name = \"x\"\n[[after_attack]]\nid = \"A1\"\nwhen = \"charge\"\nattacker = \"shaken\"\n\
             [[after_attack]]\nid = \"A1\"\nwhen = \"charge\"\nattacker = \"shaken\"\n",
            "v.toml:7:6: after_attack id 'A1' is given twice",
        ),
    ] {
        let said = problems(text);
        assert!(said.contains(expected), "{text}\n{said}");
    }
    let many: String = (0..9)
        .map(|i| format!("[[after_attack]]\nid = \"A{i}\"\nwhen = \"charge\"\nattacker = \"shaken\"\n"))
        .collect();
    assert!(problems(&format!("name = \"x\"\n{many}")).contains("at most 8 [[after_attack]] rules"));
}

#[test]
fn a_failed_charge_shakes_the_attacker_and_a_charge_home_advances_into_the_square_cited_by_their_ids() {
    use crate::chance::Outcome::Die;
    use crate::{Event, UnitId};
    // A miss: A1 shakes the attacker, and the log cites it.
    let mut b = duel(1, Some(variant(CHARGE_HOME).unwrap()));
    let charge = first_attack(&b);
    b.apply(charge).unwrap();
    let events = b.apply_chance(Die(1)).unwrap();
    assert!(b.unit(UnitId(0)).shaken, "{events:?}");
    let said: Vec<String> = events.iter().map(|e| crate::narrate::event(b.scenario(), e)).collect();
    assert!(said.iter().any(|l| l.contains("A1 failed charge: Side A") && l.ends_with("is shaken")), "{said:?}");
    // A hit that destroys (6, then 6 against strength 4): A2 carries the attacker into the square.
    let mut b = duel(1, Some(variant(CHARGE_HOME).unwrap()));
    let target_at = b.unit(UnitId(1)).at;
    b.apply(first_attack(&b)).unwrap();
    b.apply_chance(Die(6)).unwrap();
    let events = b.apply_chance(Die(6)).unwrap();
    assert!(!b.unit(UnitId(1)).alive && b.unit(UnitId(0)).at == target_at, "{events:?}");
    assert!(!b.unit(UnitId(0)).shaken);
    let said: Vec<String> = events.iter().map(|e| crate::narrate::event(b.scenario(), e)).collect();
    assert!(
        said.iter().any(|l| l.contains("A2 charge home: Side A") && l.contains(&format!("advances into {target_at}"))),
        "{said:?}"
    );
    // Fire changes nothing for the attacker, and the standard rules never do.
    for mut b in [duel(2, Some(variant(CHARGE_HOME).unwrap())), duel(1, None)] {
        b.apply(first_attack(&b)).unwrap();
        let events = b.apply_chance(Die(1)).unwrap();
        assert!(!events.iter().any(|e| matches!(e, Event::AfterAttack { .. })) && !b.unit(UnitId(0)).shaken);
    }
}

#[test]
fn an_attacker_destroyed_by_its_own_attack_ends_its_activation_and_counts_for_exhaustion() {
    use crate::chance::Outcome::Die;
    use crate::{Event, ToAct, UnitId};
    let overrun = "name = \"Overrun\"\n[[after_attack]]\nid = \"A3\"\nname = \"overrun\"\n\
                   when = \"charge and result == 'miss'\"\nattacker = \"destroyed\"\n";
    let mut b = duel(1, Some(variant(overrun).unwrap()));
    b.apply(first_attack(&b)).unwrap();
    let events = b.apply_chance(Die(1)).unwrap();
    assert!(!b.unit(UnitId(0)).alive, "{events:?}");
    let at = events.iter().position(|e| matches!(e, Event::AfterAttack { rule: 0, .. })).expect("cited");
    assert_eq!(events[at + 1], Event::Destroyed { unit: UnitId(0) });
    // One unit a side: its loss exhausts side A, and the game is over.
    assert!(matches!(b.to_act(), ToAct::Over(_)), "{events:?}");
    assert!(matches!(events.last(), Some(Event::GameOver { .. })));
}

/// Every face of both dice of an attack, played through the battle: what befell the attacker, weighed by the dice,
/// is what the odds say, to the fraction.
fn attacker_outcomes_by_the_dice(b: &crate::Battle, attack: crate::Action) -> crate::odds::AttackerOdds {
    use crate::chance::Outcome::Die;
    use crate::{Prob, UnitId};
    let zero = Prob::from_integer(0);
    let mut o = crate::odds::AttackerOdds { shaken: zero, advances: zero, destroyed: zero, unchanged: zero };
    let (start, unit) = (*b.unit(UnitId(0)), UnitId(0));
    for to_hit in 1..=6 {
        for result in 1..=6 {
            let mut b = b.clone();
            b.apply(attack).unwrap();
            b.apply_chance(Die(to_hit)).unwrap();
            let mut p = Prob::new(1, 6);
            if matches!(b.to_act(), crate::ToAct::Chance(crate::ChanceKind::HitResult)) {
                b.apply_chance(Die(result)).unwrap();
                p = Prob::new(1, 36);
            } else if result > 1 {
                continue; // a miss rolls one die
            }
            let now = b.unit(unit);
            let (shaken, advanced, destroyed) = (now.shaken, now.alive && now.at != start.at, !now.alive);
            for (happened, chance) in [
                (shaken && !destroyed, &mut o.shaken),
                (advanced, &mut o.advances),
                (destroyed, &mut o.destroyed),
                (!shaken && !advanced && !destroyed, &mut o.unchanged),
            ] {
                if happened {
                    *chance += p;
                }
            }
        }
    }
    o
}

#[test]
fn the_odds_give_the_attacker_s_outcomes_exactly_as_the_battle_plays_them() {
    use crate::Prob;
    let b = duel(1, Some(variant(CHARGE_HOME).unwrap()));
    let charge = first_attack(&b);
    let odds = b.attack_odds(crate::UnitId(0), &charge).unwrap();
    // Worked by hand (docs/variants.md): the veteran did not move, 4+ to hit (1/2); the target, regular infantry of
    // strength 4, steady and charged, retreats on 1-4 and is destroyed on 5-6. A1: shaken on a miss, 1/2. A2:
    // advances on a hit, 1/2 (retreat 1/3 + destroyed 1/6).
    assert_eq!((odds.miss, odds.retreat, odds.destroyed), (Prob::new(1, 2), Prob::new(1, 3), Prob::new(1, 6)));
    assert_eq!(odds.attacker.shaken, Prob::new(1, 2));
    assert_eq!(odds.attacker.advances, Prob::new(1, 2));
    assert_eq!(odds.attacker.unchanged, Prob::from_integer(0));
    assert_eq!(attacker_outcomes_by_the_dice(&b, charge), odds.attacker);
    let report = odds.report(Some(&b.scenario().combat_system()));
    let attacker = report.attacker.expect("the attacker's outcomes");
    assert_eq!(attacker.fractions["advances"], "1/2");
    assert_eq!(attacker.rules, ["A1 failed charge", "A2 charge home"]);
    // The standard rules: nothing befalls the attacker, and the report says nothing of it.
    let plain = duel(1, None);
    let odds = plain.attack_odds(crate::UnitId(0), &first_attack(&plain)).unwrap();
    assert!(!odds.attacker.any() && odds.report(None).attacker.is_none());
    // A destroying rule and a shaking one on overlapping results: the battle and the odds agree face by face.
    let mixed = "name = \"Mixed\"\n[[after_attack]]\nid = \"S\"\nwhen = \"result != 'destroyed'\"\nattacker = \"shaken\"\n\
                 [[after_attack]]\nid = \"D\"\nwhen = \"charge and result == 'retreat'\"\nattacker = \"destroyed\"\n\
                 [[after_attack]]\nid = \"H\"\nwhen = \"charge\"\nattacker = \"advance\"\n";
    let b = duel(1, Some(variant(mixed).unwrap()));
    let charge = first_attack(&b);
    let odds = b.attack_odds(crate::UnitId(0), &charge).unwrap();
    assert_eq!(attacker_outcomes_by_the_dice(&b, charge), odds.attacker);
    assert_eq!(odds.attacker.destroyed, Prob::new(1, 3));
    assert_eq!(odds.attacker.advances, Prob::new(1, 6));
}

/// Pieces of a variant file, new sections among them, for texts built at random.
const VARIANT_PIECES: [&str; 45] = [
    "name = \"x\"\n",
    "[[arms]]\nid = \"skirmishers\"\nlike = \"infantry\"\n",
    "when = \"target.arm == 'skirmishers'\"\n",
    "[options]\nmodifier.V1 = 2\nto_hit = 5\n",
    "[[after_attack]]\n",
    "id = \"A1\"\n",
    "name = \"failed charge\"\n",
    "when = \"charge and result == 'miss'\"\n",
    "when = \"result == 'retreat' or target.shaken\"\n",
    "when = \"result < 2\"\n",
    "attacker = \"shaken\"\n",
    "attacker = \"advance\"\n",
    "attacker = \"destroyed\"\n",
    "attacker = 3\n",
    "[[modifiers]]\nid = \"V1\"\nvalue = 1\n",
    "when = \"result == 'miss'\"\n",
    "[results]\nsteady_fire = [\"none\", \"shaken\"]\n",
    "[[restrictions]]\n",
    "when = \"charge and not target.shaken\"\n",
    "when = \"unit.shaken and closer or order == 'hold'\"\n",
    "when = \"order == 'move' and charge\"\n",
    "[rally]\nid = \"MR1\"\n",
    "needed = 4\n",
    "needed = \"strength\"\n",
    "needed = 9\n",
    "[[rally_modifiers]]\nid = \"R1\"\nvalue = 1\n",
    "when = \"unit.quality == 'veteran'\"\n",
    "when = \"enemy_adjacent or friends_adjacent >= 2\"\n",
    "value = -2\n",
    "[[terrain]]\n",
    "id = \"swamp\"\n",
    "id = \"woods\"\n",
    "letter = \"M\"\n",
    "letter = \"W\"\n",
    "move = \"stop\"\n",
    "move = 0\n",
    "move_by_arm = { cavalry = 2, infantry = \"impassable\" }\n",
    "cover = true\nblocks_sight = true\n",
    "[movement]\nroad_bonus = 3\n",
    "when = \"target.terrain == 'swamp'\"\n",
    "[[result_modifiers]]\nid = \"H1\"\nvalue = 1\n",
    "when = \"target.quality == 'veteran' and target.cover\"\n",
    "[terms]\ncharge = \"close combat\"\n",
    "fire = \"volley\"\nshaken = \"wavering\"\n",
    "retreat = \"fall back\"\ndestroyed = \"broken\"\n",
];

/// Every section a variant file may have (the ones an unknown key's refusal lists) has a piece above, so that the
/// texts built at random exercise them all.
#[test]
fn the_variant_pieces_have_every_section_of_a_variant_file() {
    let e = variant("unknown = 1\n").unwrap_err().to_string();
    let expected = e.split("expected one of").nth(1).unwrap_or_else(|| panic!("{e}"));
    let sections: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    assert!(sections.contains(&"rally_modifiers"), "{e}");
    for section in sections.into_iter().filter(|s| !["name", "description"].contains(s)) {
        let header = |p: &&str| p.starts_with(&format!("[{section}]")) || p.starts_with(&format!("[[{section}]]"));
        assert!(VARIANT_PIECES.iter().any(header), "no piece has [{section}]");
    }
}

proptest::proptest! {
    /// A variant file made of its sections' pieces in any order is read, or refused with every problem at a line
    /// and column inside the text, never a panic; a file read plays an attack through to its end.
    #[test]
    fn variant_sections_in_any_order_are_read_or_refused_at_their_place(
        pieces in proptest::collection::vec(proptest::sample::select(VARIANT_PIECES.to_vec()), 0..14),
        dice in proptest::collection::vec(1u8..=6, 2),
    ) {
        let text: String = pieces.concat();
        match variant(&text) {
            Err(e) => {
                let lines = text.lines().count().max(1);
                for p in &e.problems {
                    if let Some(line) = p.line {
                        proptest::prop_assert!(line >= 1 && line <= lines + 1, "{text}\n{e}");
                    }
                }
            }
            Ok(system) => {
                let mut b = duel(1, Some(system));
                let Some(charge) = b.legal_actions().into_iter().find(|a| a.target().is_some()) else {
                    return Ok(()); // a restriction may forbid every attack here
                };
                // A shaken unit activated rolls to rally if the file says so, and is given its order either way.
                let mut rallying = shaken_duel(1, Some(b.scenario().system().clone()));
                rallying.apply(crate::Action::Activate(crate::UnitId(0))).unwrap();
                if rallying.to_act() == crate::ToAct::Chance(crate::ChanceKind::Rally) {
                    rallying.apply_chance(crate::chance::Outcome::Die(dice[0])).unwrap();
                }
                proptest::prop_assert_eq!(rallying.to_act(), crate::ToAct::Side(crate::unit::Side::A));
                b.apply(charge).unwrap();
                let dice_of_the_attack =
                    |b: &crate::Battle| matches!(b.to_act(), crate::ToAct::Chance(crate::ChanceKind::ToHit | crate::ChanceKind::HitResult));
                for &d in &dice {
                    if dice_of_the_attack(&b) {
                        b.apply_chance(crate::chance::Outcome::Die(d)).unwrap();
                    }
                }
                proptest::prop_assert!(!dice_of_the_attack(&b));
            }
        }
    }
}

/// Whole games by random choices on shipped battles under after-attack rules of every kind: every action listed is
/// accepted, every chance outcome applies, and the games end.
#[test]
fn games_under_after_attack_rules_play_through_with_every_listed_action_accepted() {
    use rand::{RngExt, SeedableRng};
    let rules = "name = \"Every effect\"\n\
        [[after_attack]]\nid = \"A1\"\nwhen = \"charge and result == 'miss'\"\nattacker = \"shaken\"\n\
        [[after_attack]]\nid = \"A2\"\nwhen = \"charge\"\nattacker = \"advance\"\n\
        [[after_attack]]\nid = \"A3\"\nwhen = \"attacker.arm == 'artillery' and result == 'miss'\"\nattacker = \"destroyed\"\n";
    let mut fired = [0u32; 3];
    for (seed, name) in ["bloody-lane", "meeting-engagement", "maryes-heights"].into_iter().enumerate() {
        for game in 0..4u64 {
            let mut b = battle(name, Some(variant(rules).unwrap()));
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed as u64 * 100 + game);
            for _ in 0..20_000 {
                match b.to_act() {
                    crate::ToAct::Over(_) => break,
                    crate::ToAct::Chance(_) => {
                        let outcome = b.sample_chance(&mut rng).expect("an outcome");
                        for e in b.apply_chance(outcome).unwrap() {
                            if let crate::Event::AfterAttack { rule, .. } = e {
                                fired[rule as usize] += 1;
                            }
                        }
                    }
                    crate::ToAct::Side(_) => {
                        let legal = b.legal_actions();
                        let action = legal[rng.random_range(0..legal.len())];
                        b.apply(action).expect("a listed action is accepted");
                    }
                }
            }
            assert!(matches!(b.to_act(), crate::ToAct::Over(_)), "{name}: the game ends");
        }
    }
    assert!(fired[0] > 0 && fired[1] > 0, "the rules were played: {fired:?}");
}

/// A variant forbidding charges on steady troops and the guns' long shots.
const HOLD_THE_LINE: &str = r#"
name = "Hold the line"
[[restrictions]]
id = "M1"
name = "troops will not charge a steady line"
when = "charge and not target.shaken"

[[restrictions]]
id = "M2"
name = "guns spare their shot"
when = "attacker.arm == 'artillery' and distance >= 3"
"#;

#[test]
fn a_restriction_refuses_an_order_with_its_id_and_name_and_leaves_it_out_of_the_legal_actions() {
    let home = variant(HOLD_THE_LINE).unwrap();
    assert_eq!(home.restrictions().len(), 2);
    assert_eq!(variant(&home.to_toml()).unwrap(), home, "{}", home.to_toml());
    let standard = duel(1, None);
    let charge = first_attack(&standard);
    let b = duel(1, Some(home));
    let refused = b.check(charge).unwrap_err();
    assert_eq!((refused.rule, refused.variant_rule.as_deref()), (crate::rule::Rule::R4_2, Some("M1")));
    let said = refused.to_string();
    assert!(said.starts_with("troops will not charge a steady line: ") && said.ends_with(" (M1)"), "{said}");
    let listed = b.legal_actions();
    assert!(!listed.contains(&charge), "the charge is not listed");
    let charges = listed.iter().filter(|a| b.assess_order(crate::UnitId(0), a).is_ok_and(|x| x.charge));
    assert_eq!(charges.count(), 0, "nor any other charge");
    assert!(listed.iter().any(|a| a.target().is_some()), "a step back and fire is: {listed:?}");
    assert!(b.attack_odds(crate::UnitId(0), &charge).is_err(), "nor are its odds given");
    // Fire is not restricted.
    let far = duel(2, Some(variant(HOLD_THE_LINE).unwrap()));
    assert!(far.legal_actions().iter().any(|a| a.target().is_some()));
    for (text, expected) in [
        ("name = \"x\"\n[[restrictions]]\nid = \"M1\"\n", "v.toml:2:1: restriction 'M1' needs `when`"),
        (
            "name = \"x\"\n[[restrictions]]\nid = \"M1\"\nwhen = \"result == 'miss'\"\n",
            "v.toml:4:9: when: 'result' is known only after the dice",
        ),
        (
            "name = \"x\"\n[[restrictions]]\nid = \"M1\"\nwhen = \"charge\"\nattacker = \"shaken\"\n",
            "unknown field `attacker`",
        ),
    ] {
        let said = problems(text);
        assert!(said.contains(expected), "{text}\n{said}");
    }
}

/// Every attacking order a unit choosing its order could be given: each target, facing and neighbouring square.
fn every_attack(b: &crate::Battle, unit: crate::UnitId) -> Vec<crate::Action> {
    use crate::Action;
    use crate::geometry::Dir;
    let at = b.unit(unit).at;
    let mut squares = vec![at];
    squares.extend(Dir::ALL.into_iter().filter_map(|d| b.scenario().map.step(at, d)));
    let mut out = Vec::new();
    for target in (0..b.scenario().units.len() as u8).map(crate::UnitId) {
        out.push(Action::FireMove { target });
        for facing in Dir::ALL {
            out.push(Action::Fire { target, facing });
            for &to in &squares {
                out.push(Action::MoveFire { to, facing, target });
            }
        }
    }
    out
}

/// Under restrictions, the attacks listed are exactly the attacks the rules accept, at every order of whole random
/// games (the listing and the judge share the restriction's predicate).
#[test]
fn under_restrictions_the_listed_attacks_are_exactly_the_accepted_ones() {
    use rand::{RngExt, SeedableRng};
    let mut refused = 0;
    for (seed, name) in ["bloody-lane", "meeting-engagement", "maryes-heights"].into_iter().enumerate() {
        let mut b = battle(name, Some(variant(HOLD_THE_LINE).unwrap()));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed as u64);
        for _ in 0..3_000 {
            match b.to_act() {
                crate::ToAct::Over(_) => break,
                crate::ToAct::Chance(_) => {
                    b.apply_chance(b.sample_chance(&mut rng).unwrap()).unwrap();
                }
                crate::ToAct::Side(_) => {
                    let legal = b.legal_actions();
                    if let Some(unit) = b.active_unit().filter(|_| b.is_legal(crate::Action::Hold)) {
                        for a in every_attack(&b, unit) {
                            let accepted = b.check(a);
                            assert_eq!(accepted.is_ok(), legal.contains(&a), "{a:?}: {accepted:?}");
                            refused += accepted.is_err_and(|e| e.variant_rule.is_some()) as u32;
                        }
                    }
                    b.apply(legal[rng.random_range(0..legal.len())]).unwrap();
                }
            }
        }
    }
    assert!(refused > 0, "the restrictions were met");
}

/// docs/variants.md's worked example ("Restrictions on orders"): under a rally roll a unit that fails it gives its
/// order shaken, and then will not advance.
const SHAKEN_WILL_NOT_ADVANCE: &str = include_str!("../../../../docs/examples/shaken-will-not-advance.toml");

#[test]
fn a_restriction_is_over_orders_or_attacks_by_the_facts_it_names_and_one_mixing_both_is_refused_at_its_place() {
    use condition::Over;
    let over = |when: &str| {
        let text = format!("name = \"x\"\n[[restrictions]]\nid = \"M1\"\nwhen = \"{when}\"\n");
        variant(&text).unwrap_or_else(|e| panic!("{when}: {e}")).restrictions()[0].over
    };
    for when in [
        "unit.shaken and closer",
        "order == 'hold' and unit.quality == 'green' and unit.terrain == 'open'",
        "order == 'move and fire' or order == 'fire_and_move' and squares >= 1",
        "ends_adjacent and unit.arm == 'cavalry' and not unit.cover",
        "into.terrain == 'woods' or enemy_adjacent or friends_adjacent < 2",
    ] {
        assert_eq!(over(when), Over::Order, "{when}");
    }
    for when in ["charge and not target.shaken", "attacker.shaken and charge", "true"] {
        assert_eq!(over(when), Over::Attack, "{when}: as every restriction was before orders had facts");
    }
    let home = variant(SHAKEN_WILL_NOT_ADVANCE).unwrap();
    assert!(home.restricts_orders() && !home.restricts_attacks());
    assert_eq!(variant(&home.to_toml()).unwrap(), home, "printed and read back the same");
    assert_eq!(home.to_json()["restrictions"][0]["forbids"], "orders");
    for (text, expected) in [
        (
            "name = \"x\"\n[[restrictions]]\nid = \"M1\"\nwhen = \"charge and closer\"\n",
            "v.toml:4:20: when: a restriction forbids attacks or orders, not both: 'charge' is a fact of an attack \
             (before its dice) and 'closer' of an order",
        ),
        (
            "name = \"x\"\n[[restrictions]]\nid = \"M1\"\nwhen = \"(order == 'move') or target.shaken\"\n",
            "v.toml:4:30: when: a restriction forbids attacks or orders, not both: 'target.shaken' is a fact of an \
             attack (before its dice) and 'order' of an order",
        ),
        (
            "name = \"x\"\n[[restrictions]]\nid = \"M1\"\nwhen = \"order == 'charge'\"\n",
            "v.toml:4:18: when: unknown order 'charge' (known: hold, move, fire, move_and_fire, fire_and_move)",
        ),
        (
            "name = \"x\"\n[[restrictions]]\nid = \"M1\"\nwhen = \"squares == 'woods'\"\n",
            "v.toml:4:20: when: cannot compare a 'string' with a number",
        ),
        (
            "name = \"x\"\n[[restrictions]]\nid = \"M1\"\nwhen = \"order < 'move'\"\n",
            "v.toml:4:15: when: an order has no order",
        ),
        (
            "name = \"x\"\n[[restrictions]]\nid = \"M1\"\nwhen = \"unit.shakn\"\n",
            "v.toml:4:9: when: unknown fact 'unit.shakn': did you mean 'unit.shaken'?",
        ),
        (
            "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"charge and closer\"\n",
            "v.toml:5:20: when: 'closer' is a fact of an order, asked only in [[restrictions]]",
        ),
        (
            "name = \"x\"\n[rally]\nid = \"MR1\"\nneeded = 4\n[[rally_modifiers]]\nid = \"R1\"\nvalue = 1\n\
             when = \"order == 'hold'\"\n",
            "v.toml:8:9: when: a rally modifier asks about the unit rallying",
        ),
    ] {
        let said = problems(text);
        assert!(said.contains(expected), "{text}\n{said}");
    }
}

#[test]
fn a_restriction_on_orders_refuses_a_move_with_its_id_and_name_leaves_it_out_of_the_legal_actions_and_the_state_unchanged()
 {
    use crate::Action;
    use crate::chance::Outcome;
    use crate::geometry::{Dir, Square};
    let unit = crate::UnitId(0);
    // Three squares apart: a step forward closes on the enemy, a step aside does not.
    let (forward, aside) = (
        Action::Move { to: Square::new(2, 1), facing: Dir::S },
        Action::Move { to: Square::new(1, 0), facing: Dir::S },
    );
    let shaken_and_ordered = |roll: u8| {
        let mut b = shaken_duel(3, Some(variant(SHAKEN_WILL_NOT_ADVANCE).unwrap()));
        b.apply(Action::Activate(unit)).unwrap();
        b.apply_chance(Outcome::Die(roll)).unwrap();
        b
    };
    let mut b = shaken_and_ordered(1);
    assert!(b.unit(unit).shaken, "the rally failed");
    let before = b.clone();
    let refused = b.apply(forward).unwrap_err();
    assert_eq!(b, before, "a refused order changes nothing");
    assert_eq!((refused.rule, refused.variant_rule.as_deref()), (crate::rule::Rule::R4_2, Some("M3")));
    assert_eq!(
        refused.to_string(),
        "shaken troops will not advance: this variant forbids Side A A this move (M3)",
        "the restriction's name and id, as an attack's refusal"
    );
    let listed = b.legal_actions();
    assert!(listed.contains(&Action::Hold) && listed.contains(&aside), "{listed:?}");
    for a in &listed {
        let facts = b.order_facts(unit, *a).expect("an order");
        assert!(!facts.closer, "no order listed closes on the enemy: {a:?}");
    }
    assert!(!listed.iter().any(|a| matches!(a, Action::Move { to, .. } if *to == Square::new(2, 1))));
    let step_and_fire = *shaken_and_ordered(4)
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::MoveFire { to, .. } if *to == Square::new(2, 1)))
        .expect("steady, it may step forward and fire");
    assert_eq!(b.check(step_and_fire).unwrap_err().variant_rule.as_deref(), Some("M3"), "nor a Move & Fire closer");
    assert!(!listed.contains(&step_and_fire));
    assert!(b.orders_for(unit).iter().all(|(a, _)| listed.contains(a)), "the orders a player sees are the same");
    b.apply(aside).expect("a step aside is allowed");
    // Rallied, the same unit may advance; under the standard rally (R4.1) it is never shaken when ordered.
    let mut rallied = shaken_and_ordered(4);
    assert!(rallied.legal_actions().contains(&forward));
    rallied.apply(forward).expect("a steady unit advances");
    let no_roll = "name = \"x\"\n[[restrictions]]\nid = \"M3\"\nwhen = \"unit.shaken and closer\"\n";
    let mut standard_rally = shaken_duel(3, Some(variant(no_roll).unwrap()));
    // Asked before it is activated, the order is judged and listed as the unit will stand, rallied.
    assert_eq!(standard_rally.check_order_for(unit, forward), Ok(()));
    assert!(standard_rally.orders_for(unit).iter().any(|(a, _)| *a == forward));
    standard_rally.apply(Action::Activate(unit)).unwrap();
    assert!(!standard_rally.unit(unit).shaken);
    standard_rally.apply(forward).expect("rallied on activation (R4.1), it is not shaken when ordered");
}

#[test]
fn an_old_restriction_on_attacks_forbids_as_before_beside_one_on_orders() {
    // M1 of "Hold the line" and an order restriction that forbids every Hold.
    let both =
        format!("{HOLD_THE_LINE}\n[[restrictions]]\nid = \"M4\"\nname = \"no idling\"\nwhen = \"order == 'hold'\"\n");
    let system = variant(&both).unwrap();
    assert!(system.restricts_attacks() && system.restricts_orders());
    let charge = first_attack(&duel(1, None));
    let b = duel(1, Some(system));
    assert_eq!(b.check(charge).unwrap_err().variant_rule.as_deref(), Some("M1"), "the charge refused by M1 still");
    let refused = b.check(crate::Action::Hold).unwrap_err();
    assert_eq!(refused.to_string(), "no idling: this variant forbids Side A A this Hold order (M4)");
    assert!(!b.legal_actions().contains(&crate::Action::Hold));
    assert!(b.legal_actions().iter().any(|a| a.target().is_some()), "fire after a step back is neither's");
}

#[test]
fn a_unit_every_order_of_which_is_forbidden_may_still_hold() {
    let nothing =
        "name = \"x\"\n[[restrictions]]\nid = \"M5\"\nname = \"frozen\"\nwhen = \"true or order == 'hold'\"\n";
    let b = duel(1, Some(variant(nothing).unwrap()));
    assert_eq!(b.legal_actions(), [crate::Action::Hold], "Hold, forbidden, is all that is left");
    assert!(b.check(crate::Action::Hold).is_ok());
    let mut b = b;
    b.apply(crate::Action::Hold).expect("and it is accepted");
}

/// A restriction on orders that never holds lists the standard's orders exactly: the same perft counts.
#[test]
fn a_restriction_on_orders_that_never_holds_changes_no_listing() {
    use crate::perft::perft;
    let never = "name = \"x\"\n[[restrictions]]\nid = \"M6\"\nwhen = \"order == 'hold' and squares > 0\"\n";
    for name in ["meeting-engagement", "bloody-lane"] {
        let (standard, restricted) = (battle(name, None), battle(name, Some(variant(never).unwrap())));
        assert!(restricted.scenario().system().restricts_orders());
        assert_eq!(perft(&standard, 3), perft(&restricted, 3), "{name}");
    }
}

/// Conditions over orders for random restrictions, some forbidding often (every Hold, every Fire), with an attack's
/// beside them.
const ORDER_CONDITIONS: [&str; 10] = [
    "unit.shaken and closer",
    "order == 'hold' and unit.terrain == 'open'",
    "order == 'move' and squares >= 2",
    "ends_adjacent and unit.arm == 'cavalry'",
    "into.terrain == 'woods' and order != 'hold'",
    "order == 'fire_and_move' and closer",
    "order == 'hold' or order == 'fire'",
    "not enemy_adjacent and order == 'move_and_fire'",
    "friends_adjacent >= 2 and order != 'move'",
    "charge and not target.shaken",
];

/// Every order the unit choosing its order could be given: Hold, a move to every square near it with each facing,
/// and every attack; or, after a Fire & Move attack, every advance.
fn every_order(b: &crate::Battle, unit: crate::UnitId) -> Vec<crate::Action> {
    use crate::Action;
    use crate::geometry::{Dir, Square};
    let at = b.unit(unit).at;
    let map = &b.scenario().map;
    let near: Vec<Square> = (0..map.height())
        .flat_map(|y| (0..map.width()).map(move |x| Square::new(x, y)))
        .filter(|s| s.distance(at) <= 3)
        .collect();
    let moves = |make: fn(Square, Dir) -> Action| {
        near.iter().flat_map(move |&to| Dir::ALL.into_iter().map(move |facing| make(to, facing))).collect::<Vec<_>>()
    };
    if b.is_legal(Action::Hold) || b.check(Action::Hold).is_err_and(|e| e.variant_rule.is_some()) {
        let mut out = vec![Action::Hold];
        out.extend(moves(|to, facing| Action::Move { to, facing }));
        out.extend(every_attack(b, unit));
        out
    } else {
        moves(|to, facing| Action::Advance { to, facing })
    }
}

/// Under random restrictions on orders (with a rally roll, so that units are ordered shaken), the orders listed are
/// exactly the orders the rules accept, at every order of whole random games, and a side to act always has one.
#[test]
fn under_restrictions_on_orders_the_listed_orders_are_exactly_the_accepted_ones() {
    use rand::{RngExt, SeedableRng};
    let mut refused = [0u32; 8];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(40);
    for (round, name) in ["bloody-lane", "meeting-engagement", "brandy-station", "maryes-heights"]
        .into_iter()
        .cycle()
        .take(8)
        .enumerate()
    {
        let mut text = "name = \"Random orders\"\n[rally]\nid = \"MR1\"\nneeded = 5\n".to_string();
        let mut chosen = Vec::new();
        while chosen.len() < 3 {
            let c = ORDER_CONDITIONS[rng.random_range(0..ORDER_CONDITIONS.len())];
            if !chosen.contains(&c) {
                chosen.push(c);
            }
        }
        for (i, when) in chosen.iter().enumerate() {
            text += &format!("[[restrictions]]\nid = \"M{i}\"\nwhen = \"{when}\"\n");
        }
        let mut b = battle(name, Some(variant(&text).unwrap()));
        for _ in 0..600 {
            match b.to_act() {
                crate::ToAct::Over(_) => break,
                crate::ToAct::Chance(_) => {
                    b.apply_chance(b.sample_chance(&mut rng).unwrap()).unwrap();
                }
                crate::ToAct::Side(_) => {
                    let legal = b.legal_actions();
                    assert!(!legal.is_empty(), "{name} {chosen:?}: a side to act has an action");
                    if let Some(unit) = b.active_unit() {
                        for a in every_order(&b, unit) {
                            let accepted = b.check(a);
                            assert_eq!(accepted.is_ok(), legal.contains(&a), "{name} {chosen:?} {a:?}: {accepted:?}");
                            if let Err(e) = accepted
                                && let Some(id) = &e.variant_rule
                            {
                                refused[round] += 1;
                                assert!(id.starts_with('M'), "{e}");
                            }
                        }
                    }
                    b.apply(legal[rng.random_range(0..legal.len())]).unwrap();
                }
            }
        }
    }
    assert!(refused.iter().filter(|&&n| n > 0).count() >= 6, "the restrictions were met: {refused:?}");
}

/// Veterans in cover test their strength at +1 (docs/variants.md, "The hit-result roll").
const STEADY_VETERANS: &str = r#"
name = "Steady veterans"
[[result_modifiers]]
id = "H1"
name = "veterans in cover stand firm"
value = 1
when = "target.quality == 'veteran' and target.cover"
"#;

#[test]
fn a_result_modifier_changes_the_strength_tested_in_the_battle_and_the_odds_alike() {
    use crate::Prob;
    use crate::Terrain;
    use crate::odds::{Situation, TargetState};
    use crate::unit::{Arm, Quality};
    let system = std::sync::Arc::new(variant(STEADY_VETERANS).unwrap());
    assert_eq!(variant(&system.to_toml()).unwrap(), *system, "{}", system.to_toml());
    let situation = Situation {
        target_quality: Quality::Veteran,
        terrain: Terrain::Woods,
        ..Situation::new(Arm::Infantry, Arm::Infantry)
    };
    // Worked by hand: 5 less 1 (did not move) plus 1 (cover) is 5+, a hit 1/3; the veteran's strength 5 tested at
    // 6 holds on every face: shaken 1/3, never a retreat (the standard: shaken 5/18, retreat 1/18).
    let plain = situation.odds(&crate::Options::default()).unwrap();
    assert_eq!((plain.shaken, plain.retreat), (Prob::new(5, 18), Prob::new(1, 18)));
    let odds = situation.odds_under(&crate::Options::default(), Some(&system)).unwrap();
    assert_eq!((odds.assessment.strength, odds.assessment.tested_strength()), (5, 6));
    assert_eq!((odds.shaken, odds.retreat), (Prob::new(1, 3), Prob::from_integer(0)));
    // Tested at 6 it always holds, shaken too (a retreat at worst, which a run counts as shaken): never destroyed.
    assert!(plain.sequence().expected_attacks_to_destroy(TargetState::Steady).is_some());
    assert!(odds.sequence().expected_attacks_to_destroy(TargetState::Steady).is_none());
    let report = odds.report(Some(&system));
    assert_eq!(report.result_modifiers.len(), 1);
    assert_eq!(report.result_modifiers[0].rule, "H1");
    // The battle: a hit, then a 6 against strength 5 tested at 6: shaken, not a retreat; the log cites H1.
    let s = situation.setup_under(&crate::Options::default(), Some(&system)).unwrap();
    let mut b = s.battle;
    b.apply(s.order).unwrap();
    b.apply_chance(crate::chance::Outcome::Die(6)).unwrap();
    let events = b.apply_chance(crate::chance::Outcome::Die(6)).unwrap();
    assert!(b.unit(s.target).shaken, "{events:?}");
    assert!(!events.iter().any(|e| matches!(e, crate::Event::Retreated { .. })), "{events:?}");
    let said: Vec<String> = events.iter().map(|e| crate::narrate::event(b.scenario(), e)).collect();
    assert!(said.iter().any(|l| l.contains("H1 +1 veterans in cover stand firm")), "{said:?}");
    assert!(said.iter().any(|l| l.contains("rolls 6 ≤ strength 6")), "{said:?}");
    // A regular target in the open is tested at its own strength.
    let open = Situation::new(Arm::Infantry, Arm::Infantry).odds_under(&crate::Options::default(), Some(&system));
    assert_eq!(open.unwrap().assessment.tested_strength(), 4);
}

/// A variant where rally is a roll of 4 or more, veterans +1, an enemy next to the unit −1.
const RALLY_ON_FOUR: &str = r#"
name = "Rally on four"
[rally]
id = "MR1"
name = "rally test"
needed = 4

[[rally_modifiers]]
id = "R1"
name = "veterans"
value = 1
when = "unit.quality == 'veteran'"

[[rally_modifiers]]
id = "R2"
name = "enemy adjacent"
value = -1
when = "enemy_adjacent"
"#;

#[test]
fn rally_rules_are_read_printed_and_refused_at_their_place() {
    let system = variant(RALLY_ON_FOUR).unwrap();
    let rule = system.rally().expect("a rally roll");
    assert_eq!((rule.id.as_str(), rule.name.as_str(), rule.needed), ("MR1", "rally test", RallyNeed::AtLeast(4)));
    assert_eq!(system.rally_modifiers().len(), 2);
    assert_eq!(variant(&system.to_toml()).unwrap(), system, "{}", system.to_toml());
    assert_eq!(system.to_json()["rally"]["needed"], 4);
    let strength = variant("name = \"x\"\n[rally]\nid = \"MR1\"\nneeded = \"strength\"\n").unwrap();
    assert_eq!(strength.rally().unwrap().needed, RallyNeed::Strength);
    assert_eq!(variant(&strength.to_toml()).unwrap(), strength, "{}", strength.to_toml());
    assert!(CombatSystem::standard().rally().is_none(), "the standard rules rally on activation (R4.1)");
    for (text, expected) in [
        ("name = \"x\"\n[rally]\nid = \"MR1\"\nneeded = 7\n", "4:10: needed: a number from 2 to 6"),
        ("name = \"x\"\n[rally]\nid = \"MR1\"\nneeded = \"morale\"\n", "4:10: needed: a number from 2 to 6"),
        ("name = \"x\"\n[rally]\nid = \"MR1\"\n", "2:1: [rally] 'MR1' needs `needed`"),
        ("name = \"x\"\n[rally]\nid = \"M R\"\nneeded = 4\n", "3:6: rally id 'M R'"),
        ("name = \"x\"\n[rally]\nneeded = 4\nroll = 2\n", "unknown field `roll`"),
        (
            "name = \"x\"\n[[rally_modifiers]]\nid = \"R1\"\nvalue = 1\nwhen = \"enemy_adjacent\"\n",
            "2:1: [[rally_modifiers]] modify a rally roll: give it in [rally]",
        ),
        (
            "name = \"x\"\n[rally]\nid = \"MR1\"\nneeded = 4\n[[rally_modifiers]]\nid = \"R1\"\nvalue = 1\nwhen = \"charge\"\n",
            "8:9: when: a rally modifier asks about the unit rallying, not an attack: known: unit.arm",
        ),
        (
            "name = \"x\"\n[rally]\nid = \"MR1\"\nneeded = 4\n[[rally_modifiers]]\nid = \"R1\"\nvalue = 1\nwhen = \"unit.qualty == 'green'\"\n",
            "8:9: when: unknown fact 'unit.qualty': did you mean 'unit.quality'?",
        ),
        (
            "name = \"x\"\n[rally]\nid = \"MR1\"\nneeded = 4\n[[rally_modifiers]]\nid = \"R1\"\nvalue = 4\nwhen = \"unit.cover\"\n",
            "7:9: value must be from -3 to 3",
        ),
        (
            "name = \"x\"\n[rally]\nid = \"MR1\"\nneeded = 4\n[[rally_modifiers]]\nid = \"R1\"\nwhen = \"unit.cover\"\n",
            "5:1: rally modifier 'R1' needs `value`",
        ),
        (
            "name = \"x\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"enemy_adjacent\"\n",
            "5:9: when: 'enemy_adjacent' is a fact of a rally roll, asked only in [[rally_modifiers]]",
        ),
    ] {
        let said = problems(text);
        assert!(said.contains(expected), "{text}\n{said}");
    }
}

/// The narration of events, one a line.
fn said(b: &crate::Battle, events: &[crate::Event]) -> Vec<String> {
    events.iter().map(|e| crate::narrate::event(b.scenario(), e)).collect()
}

#[test]
fn under_a_rally_roll_of_four_a_shaken_unit_stays_shaken_on_one_to_three_and_rallies_on_four_to_six() {
    use crate::chance::Outcome;
    // Two squares apart, no enemy adjacent; the rallying unit a regular here (R1 left out): 4+, exactly a half.
    let plain = "name = \"Four\"\n[rally]\nid = \"MR1\"\nname = \"rally test\"\nneeded = 4\n";
    let unit = crate::UnitId(0);
    let b = shaken_duel(2, Some(variant(plain).unwrap()));
    assert_eq!(b.rally_chance(unit), Prob::new(1, 2));
    let mut activated = b.clone();
    let events = activated.apply(crate::Action::Activate(unit)).unwrap();
    assert_eq!(events, [crate::Event::Activated { unit, rallied: false }]);
    assert!(activated.unit(unit).shaken, "not yet rallied: the die decides");
    assert_eq!(activated.to_act(), crate::ToAct::Chance(crate::ChanceKind::Rally));
    assert_eq!(activated.pending_rally(), Some((unit, RallyTest::AtLeast(4))));
    assert_eq!(activated.active_unit(), Some(unit));
    assert!(activated.legal_actions().is_empty(), "chance acts, not a side");
    let refused = activated.apply(crate::Action::Hold).unwrap_err().to_string();
    assert!(refused.contains("MR1 rally test: the rally die of Side A A is rolled first"), "{refused}");
    let outcomes = activated.chance_outcomes();
    assert_eq!(outcomes, crate::chance::d6().collect::<Vec<_>>(), "six faces, each exactly 1/6");
    assert_eq!(activated.chance_branches().count(), 6);
    let mut rallied = Prob::new(0, 1);
    for (outcome, p) in outcomes {
        let Outcome::Die(roll) = outcome else { unreachable!() };
        let mut after = activated.clone();
        let events = after.apply_chance(outcome).unwrap();
        let rallies = roll >= 4;
        assert_eq!(!after.unit(unit).shaken, rallies, "roll {roll}");
        assert_eq!(events, [crate::Event::RallyRolled { unit, roll, test: RallyTest::AtLeast(4), rallied: rallies }]);
        let line = &said(&after, &events)[0];
        let what = if rallies { "rallies, no longer shaken" } else { "stays shaken" };
        assert!(line.contains("MR1 rally test") && line.contains("needing 4 or more") && line.contains(what), "{line}");
        // The unit is given its order, steady or shaken.
        assert_eq!(after.to_act(), crate::ToAct::Side(crate::unit::Side::A));
        assert!(after.legal_actions().contains(&crate::Action::Hold));
        if rallies {
            rallied += p;
        }
    }
    assert_eq!(rallied, b.rally_chance(unit), "the odds are the battle's faces");
    // Under the standard rules the same unit rallies at once (R4.1), with no die.
    let mut standard = shaken_duel(2, None);
    assert_eq!(standard.rally_chance(unit), Prob::new(1, 1));
    let events = standard.apply(crate::Action::Activate(unit)).unwrap();
    assert_eq!(events, [crate::Event::Activated { unit, rallied: true }]);
    assert_eq!(standard.to_act(), crate::ToAct::Side(crate::unit::Side::A));
}

#[test]
fn rally_modifiers_apply_by_the_unit_s_facts_and_are_cited_by_their_ids() {
    let unit = crate::UnitId(0);
    let system = variant(RALLY_ON_FOUR).unwrap();
    // Apart, the veteran rallies on 3+ (R1): 2/3.
    let apart = shaken_duel(2, Some(system.clone()));
    assert_eq!(apart.rally_test(unit), Some((0b01, RallyTest::AtLeast(3))));
    assert_eq!(apart.rally_chance(unit), Prob::new(2, 3));
    // Next to the enemy, R2 takes that back: 4+, a half; both cited before the roll.
    let mut pressed = shaken_duel(1, Some(system));
    assert!(pressed.rally_facts(unit).enemy_adjacent);
    assert_eq!(pressed.rally_chance(unit), Prob::new(1, 2));
    let events = pressed.apply(crate::Action::Activate(unit)).unwrap();
    let lines = said(&pressed, &events);
    assert!(lines.iter().any(|l| l.contains("R1 +1 veterans")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("R2 -1 enemy adjacent")), "{lines:?}");
    let events = pressed.apply_chance(crate::chance::Outcome::Die(3)).unwrap();
    assert!(pressed.unit(unit).shaken, "{events:?}");
    // Against strength: the veteran infantry's 5, −1 adjacent: at most 4, two thirds.
    let strength = "name = \"Strength\"\n[rally]\nid = \"MR2\"\nneeded = \"strength\"\n\
                    [[rally_modifiers]]\nid = \"R2\"\nvalue = -1\nwhen = \"enemy_adjacent\"\n";
    let b = shaken_duel(1, Some(variant(strength).unwrap()));
    assert_eq!(b.rally_test(unit), Some((0b1, RallyTest::AtMost(4))));
    assert_eq!(b.rally_chance(unit), Prob::new(2, 3));
}

/// Whole games by random choices on shipped battles under a rally roll: every action listed is accepted, every
/// chance outcome applies, units both rally and stay shaken, and the games end.
#[test]
fn games_under_a_rally_roll_play_through_with_every_listed_action_accepted() {
    use rand::{RngExt, SeedableRng};
    let mut rolled = [0u32; 2];
    for (seed, name) in ["bloody-lane", "meeting-engagement"].into_iter().enumerate() {
        for game in 0..3u64 {
            let mut b = battle(name, Some(variant(RALLY_ON_FOUR).unwrap()));
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed as u64 * 100 + game);
            for _ in 0..20_000 {
                match b.to_act() {
                    crate::ToAct::Over(_) => break,
                    crate::ToAct::Chance(kind) => {
                        let outcome = b.sample_chance(&mut rng).expect("an outcome");
                        let rally = b.pending_rally();
                        assert_eq!(rally.is_some(), kind == crate::ChanceKind::Rally);
                        for e in b.apply_chance(outcome).unwrap() {
                            if let crate::Event::RallyRolled { unit, rallied, .. } = e {
                                rolled[rallied as usize] += 1;
                                assert_eq!(b.unit(unit).shaken, !rallied);
                            }
                        }
                    }
                    crate::ToAct::Side(_) => {
                        let legal = b.legal_actions();
                        let action = legal[rng.random_range(0..legal.len())];
                        b.apply(action).expect("a listed action is accepted");
                    }
                }
            }
            assert!(matches!(b.to_act(), crate::ToAct::Over(_)), "{name}: the game ends");
        }
    }
    assert!(rolled[0] > 0 && rolled[1] > 0, "units stayed shaken and rallied: {rolled:?}");
}

/// The worked example of docs/variants.md ("Rally"), its numbers as the engine gives them.
#[test]
fn the_rally_example_of_the_docs_gives_its_worked_numbers() {
    use super::condition::RallyFacts;
    let docs = include_str!("../../../../docs/variants.md");
    let example = docs.split("## Rally").nth(1).and_then(|s| s.split("```toml\n").nth(1)).expect("the example");
    let example = example.split("```").next().unwrap();
    let system = variant(example).unwrap();
    let rule = system.rally().unwrap();
    let chance = |facts: RallyFacts, strength: u8| {
        let (_, total) = rally_modifiers(system.rally_modifiers(), &facts);
        RallyTest::of(rule.needed, strength, total).chance()
    };
    let open = RallyFacts::default();
    assert_eq!(chance(open, 4), Prob::new(1, 2));
    let woods = crate::map::Terrain::Woods;
    let veteran_in_woods = RallyFacts { quality: Quality::Veteran, cover: true, terrain: woods, ..open };
    assert_eq!(chance(veteran_in_woods, 5), Prob::new(5, 6));
    assert_eq!(chance(RallyFacts { enemy_adjacent: true, ..open }, 4), Prob::new(1, 3));
    // Against strength: regular infantry, strength 4, next to an enemy: at most 3.
    assert_eq!(RallyTest::of(RallyNeed::Strength, 4, -1).chance(), Prob::new(1, 2));
}

#[test]
fn terrain_sections_are_refused_at_their_place_and_conditions_may_name_a_new_terrain() {
    let p = problems(
        "name = \"x\"\n\
         [[terrain]]\nid = \"swamp\"\nletter = \"W\"\n\
         [[terrain]]\nid = \"woods\"\nletter = \"Q\"\nmove_by_arm = { cavlry = 2, infantry = \"impassable\" }\n\
         [[terrain]]\nid = \"bog\"\nmove = 0\n\
         [movement]\nroad_bonus = 9\n",
    );
    assert!(p.contains("v.toml:4:10: letter 'W' is already a terrain's"), "{p}");
    assert!(p.contains("v.toml:7:10: the standard terrain 'woods' keeps its letter 'W' in maps"), "{p}");
    assert!(p.contains("v.toml:8:17: move_by_arm: unknown arm 'cavlry': did you mean 'cavalry'?"), "{p}");
    assert!(p.contains("v.toml:8:40: move_by_arm.infantry: a number of squares from 1 to 26 or \"stop\""), "{p}");
    assert!(p.contains("v.toml:9:1: terrain 'bog' is new: it needs `letter`"), "{p}");
    assert!(
        p.contains("v.toml:11:8: move: a number of squares from 1 to 26, \"stop\" or \"impassable\", not 0"),
        "{p}"
    );
    assert!(p.contains("v.toml:13:14: road_bonus must be from 0 to 6, not 9"), "{p}");
    // A condition may name the file's own terrain; another file's is unknown.
    let swamp = "name = \"x\"\n[[terrain]]\nid = \"swamp\"\nletter = \"M\"\n\
                 [[modifiers]]\nid = \"V1\"\nvalue = -1\nwhen = \"target.terrain == 'swamp'\"\n";
    let s = variant(swamp).unwrap();
    let in_swamp = AttackFacts { target_terrain: crate::Terrain::Own(0), ..AttackFacts::default() };
    assert!(s.modifier("V1").unwrap().when.holds(&in_swamp));
    let bog = swamp.replace("'swamp'", "'bog'");
    assert!(
        problems(&bog).contains("unknown terrain 'bog' (known: open, woods, town, sunken_road, river, ford, swamp)")
    );
}

/// The example files of docs/variants.md, "Variants that combine": a battle's own variant with an arm of its own,
/// and a file laid over it that names that arm.
const EXAMPLE_SKIRMISHERS: &str = include_str!("../../../../docs/examples/skirmishers.toml");
const EXAMPLE_FENCES: &str = include_str!("../../../../docs/examples/fences.toml");
const EXAMPLE_SKIRMISH: &str = include_str!("../../../../docs/examples/skirmish.toml");

fn skirmishers_with_fences() -> CombatSystem {
    let below = CombatSystem::with_variant(EXAMPLE_SKIRMISHERS, "skirmishers.toml").expect("the example reads");
    below.with_layer(EXAMPLE_FENCES, "fences.toml").expect("the example reads over it")
}

#[test]
fn a_layer_replaces_what_the_rules_below_have_adds_what_they_lack_and_names_what_they_define() {
    let system = skirmishers_with_fences();
    assert_eq!(system.name, "Skirmishers + Fences");
    assert!(system.description.starts_with("A screen of light infantry") && system.description.contains("by fire"));
    // Added: F1, whose condition names the arm the layer below defines.
    let ids: Vec<&str> = system.modifiers().iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["not_moved", "canister", "ranging", "flank_rear", "cover", "F1"]);
    assert_eq!(system.modifier("F1").unwrap().value, -1);
    assert_eq!(system.arm("skirmishers").unwrap().strength, 3, "the layer below's arm stays");
    // Replaced: the standard cover's condition, its value and name kept.
    let cover = system.modifier("cover").unwrap();
    assert_eq!(
        (cover.when_text.as_str(), cover.value, cover.rule.as_str()),
        ("target.cover and not charge", -1, "R6.3")
    );
    // Alone, over the standard, the top file cannot name that arm.
    let alone = CombatSystem::with_variant(EXAMPLE_FENCES, "fences.toml").unwrap_err().to_string();
    assert!(alone.contains("fences.toml:10:") && alone.contains("skirmishers"), "{alone}");
    // Which file wrote each rule last.
    let file = |part, id| system.written_by(part, id).map(|l| l.file.as_str());
    assert_eq!(file(Part::Arm, "skirmishers"), Some("skirmishers.toml"));
    assert_eq!(file(Part::Modifier, "F1"), Some("fences.toml"));
    assert_eq!(file(Part::Modifier, "cover"), Some("fences.toml"));
    assert_eq!(file(Part::Modifier, "canister"), None, "the standard's");
    assert_eq!(file(Part::Arm, "infantry"), None);
    let layers: Vec<(&str, &str)> = system.layers().iter().map(|l| (l.file.as_str(), l.name.as_str())).collect();
    assert_eq!(layers, [("skirmishers.toml", "Skirmishers"), ("fences.toml", "Fences")]);
    let json = system.to_json();
    assert_eq!(json["modifiers"][5]["from"], "fences.toml");
    assert_eq!(json["modifiers"][1]["from"], "standard");
    assert_eq!(json["arms"][3]["from"], "skirmishers.toml");
    assert_eq!(json["layers"][1]["file"], "fences.toml");
    let text = system.to_toml_annotated();
    assert!(text.contains("[[modifiers]]\n# from fences.toml\nid = \"F1\""), "{text}");
    assert!(text.contains("[[arms]]\n# from skirmishers.toml\nid = \"skirmishers\""), "{text}");
    assert!(text.contains("[[modifiers]]\n# from standard\nid = \"canister\""), "{text}");
}

#[test]
fn one_layer_over_the_standard_is_a_variant_as_it_always_was() {
    let text = "name = \"Hard\"\n[[modifiers]]\nid = \"cover\"\nvalue = -2\n";
    let one = CombatSystem::with_variant(text, "hard.toml").unwrap();
    assert_eq!(one.source(), Some(("hard.toml", text)), "a save keeps the file itself");
    assert_eq!(one.name, "Hard");
    assert_eq!(CombatSystem::standard().with_layer(text, "hard.toml").unwrap(), one);
    assert!(CombatSystem::standard().layers().is_empty() && CombatSystem::standard().source().is_none());
}

#[test]
fn an_error_in_a_layer_is_cited_in_its_own_file_and_nothing_of_it_is_applied() {
    let below = CombatSystem::with_variant(EXAMPLE_SKIRMISHERS, "skirmishers.toml").unwrap();
    let before = below.clone();
    let bad =
        EXAMPLE_FENCES.replace("target.behind_fence", "target.behind_fences").replace("id = \"cover\"", "id = \"c!\"");
    let e = below.with_layer(&bad, "fences.toml").unwrap_err();
    assert_eq!(e.file, "fences.toml");
    let text = e.to_string();
    assert!(text.contains("fences.toml:10:") && text.contains("behind_fences"), "{text}");
    assert!(text.contains("fences.toml:13:6: modifier id 'c!'"), "{text}");
    assert_eq!(below, before);
    assert_eq!(below.layers().len(), 1);
    // A standard arm keeps what it is, and so does an arm of the rules below.
    let like = "name = \"L\"\n[[arms]]\nid = \"skirmishers\"\nlike = \"cavalry\"\n";
    let e = below.with_layer(like, "like.toml").unwrap_err().to_string();
    assert!(e.contains("like.toml:4:8: the arm 'skirmishers' is like infantry in the rules below"), "{e}");
}

#[test]
fn the_limits_count_the_rules_of_every_layer() {
    let modifier = |i: usize| format!("[[modifiers]]\nid = \"M{i}\"\nvalue = 1\nwhen = \"charge\"\n");
    let six: String = (0..6).map(modifier).collect();
    let below = CombatSystem::with_variant(&format!("name = \"six\"\n{six}"), "six.toml").unwrap();
    let five_more: String = (6..11).map(modifier).collect();
    let full = below.with_layer(&format!("name = \"five\"\n{five_more}"), "five.toml").unwrap();
    assert_eq!(full.modifiers().len(), MAX_MODIFIERS);
    let e = full.with_layer(&format!("name = \"one\"\n{}", modifier(11)), "one.toml").unwrap_err().to_string();
    assert!(e.contains("one.toml:2:1: at most 0 new modifiers beside the 16 of the rules below"), "{e}");
    // A change to one of them is no new one.
    let changed = full.with_layer("name = \"c\"\n[[modifiers]]\nid = \"M3\"\nvalue = -1\n", "c.toml").unwrap();
    assert_eq!(changed.modifier("M3").unwrap().value, -1);
    let rule = |i: usize| format!("[[restrictions]]\nid = \"R{i}\"\nwhen = \"charge and distance > {i}\"\n");
    let eight: String = (0..MAX_RESTRICTIONS).map(rule).collect();
    let below = CombatSystem::with_variant(&format!("name = \"r\"\n{eight}"), "r.toml").unwrap();
    let e = below.with_layer(&format!("name = \"r9\"\n{}", rule(9)), "r9.toml").unwrap_err().to_string();
    assert!(
        e.contains("r9.toml:2:1: at most 8 [[restrictions]] in the rules laid together (the rules below have 8)"),
        "{e}"
    );
    let swamps = |from: usize, n: usize| -> String {
        (from..from + n)
            .map(|i| format!("[[terrain]]\nid = \"t{i}\"\nletter = \"{}\"\n", (b'a' + i as u8) as char))
            .collect()
    };
    let below = CombatSystem::with_variant(&format!("name = \"t\"\n{}", swamps(0, 8)), "t.toml").unwrap();
    assert!(below.with_layer(&format!("name = \"u\"\n{}", swamps(8, 2)), "u.toml").is_ok());
    let e = below.with_layer(&format!("name = \"u\"\n{}", swamps(8, 3)), "u.toml").unwrap_err().to_string();
    assert!(e.contains("at most 10 new terrains beside the standard six (the rules below add 8)"), "{e}");
    // A letter taken below is taken.
    let e = below.with_layer("name = \"u\"\n[[terrain]]\nid = \"x\"\nletter = \"a\"\n", "u.toml").unwrap_err();
    assert!(e.to_string().contains("u.toml:4:10: letter 'a' is already a terrain's"), "{e}");
}

#[test]
fn options_terms_results_rally_and_terrain_of_a_layer_override_those_below_entry_by_entry() {
    let below = "name = \"B\"\n[[modifiers]]\nid = \"V1\"\nvalue = 1\nwhen = \"charge\"\n\
                 [options]\nto_hit = 4\ninitiative = \"igougo\"\n[terms]\ncharge = \"melee\"\nfire = \"volley\"\n\
                 [results]\nsteady_fire = [\"none\", \"shaken\"]\n[rally]\nid = \"MR\"\nneeded = 4\n\
                 [[rally_modifiers]]\nid = \"R1\"\nvalue = 1\nwhen = \"enemy_adjacent\"\n\
                 [[terrain]]\nid = \"swamp\"\nletter = \"M\"\nmove = \"stop\"\n";
    let top = "name = \"T\"\n[options]\nto_hit = 5\nmodifier.V1 = 2\n[terms]\ncharge = \"close combat\"\n\
               [results]\nshaken_fire = [\"shaken\", \"retreat\"]\n\
               [[rally_modifiers]]\nid = \"R2\"\nvalue = -1\nwhen = \"unit.quality == 'green'\"\n\
               [[terrain]]\nid = \"swamp\"\ncover = true\n\
               [[modifiers]]\nid = \"S1\"\nvalue = -1\nwhen = \"target.terrain == 'swamp'\"\n";
    let b = CombatSystem::with_variant(below, "b.toml").unwrap();
    let s = b.with_layer(top, "t.toml").unwrap();
    let options: Vec<(&str, &str)> = s.options().iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(options, [("initiative", "igougo"), ("modifier.V1", "2"), ("to_hit", "5")]);
    assert_eq!((s.terms().charge.as_str(), s.terms().fire.as_str()), ("close combat", "volley"));
    assert_eq!(s.results().steady_fire, [HitResult::NoEffect, HitResult::Shaken], "the layer below's row");
    assert_eq!(s.results().shaken_fire, [HitResult::Shaken, HitResult::Retreat]);
    let rally: Vec<&str> = s.rally_modifiers().iter().map(|m| m.id.as_str()).collect();
    assert_eq!((s.rally().unwrap().id.as_str(), rally), ("MR", vec!["R1", "R2"]));
    let swamp = s.terrain_rules().kinds().iter().find(|k| k.id == "swamp").unwrap();
    assert!(swamp.cover && swamp.entry == crate::terrain::Entry::Stop && swamp.letter == 'M');
    assert_eq!(s.written_by(Part::Option, "to_hit").unwrap().file, "t.toml");
    assert_eq!(s.written_by(Part::Option, "initiative").unwrap().file, "b.toml");
    assert_eq!(s.written_by(Part::Term, "fire").unwrap().file, "b.toml");
    assert_eq!(s.written_by(Part::Result, "shaken_fire").unwrap().file, "t.toml");
    assert_eq!(s.written_by(Part::Terrain, "swamp").unwrap().file, "t.toml");
    // Written as one file, as a save keeps it, the rules read back the same.
    let (file, text) = s.source().unwrap();
    assert_eq!(file, "b.toml + t.toml");
    assert_eq!(CombatSystem::with_variant(text, file).unwrap(), s);
    // And the rally modifiers of a file without a rally roll, over rules without one, are refused as before.
    let e = CombatSystem::with_variant(
        "name = \"x\"\n[[rally_modifiers]]\nid = \"R\"\nvalue = 1\nwhen = \"enemy_adjacent\"\n",
        "x.toml",
    );
    assert!(e.unwrap_err().to_string().contains("modify a rally roll"));
}

#[test]
fn a_game_under_layered_variants_saves_and_replays_by_the_same_rules() {
    use rand::{RngExt, SeedableRng};
    let system = std::sync::Arc::new(skirmishers_with_fences());
    let scenario =
        crate::Scenario::parse_with(EXAMPLE_SKIRMISH, "skirmish.toml", system.clone()).expect("the example reads");
    let mut game =
        crate::Game::with_scenario(std::sync::Arc::new(scenario), EXAMPLE_SKIRMISH, "skirmish.toml", None, 11);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..120 {
        let actions = game.battle().legal_actions();
        if actions.is_empty() {
            break;
        }
        game.act(actions[rng.random_range(0..actions.len())]).unwrap();
    }
    let save = game.save();
    assert_eq!(save.variant.as_ref().map(|v| v.file.as_str()), Some("skirmishers.toml + fences.toml"));
    let back = crate::Game::load(&game.save_json()).expect("the save replays");
    assert_eq!(back.battle().scenario().system(), &*system);
    assert_eq!(back.log(), game.log());
    // The scenario's own line names the file below; the save's rules stand in for it.
    assert!(EXAMPLE_SKIRMISH.contains("variant = \"skirmishers.toml\""));
}

/// A game of the example's layers, a few random decisions in.
fn a_layered_game(system: CombatSystem) -> crate::Game {
    use rand::{RngExt, SeedableRng};
    let scenario = crate::Scenario::parse_with(EXAMPLE_SKIRMISH, "skirmish.toml", std::sync::Arc::new(system))
        .expect("the example reads");
    let mut game =
        crate::Game::with_scenario(std::sync::Arc::new(scenario), EXAMPLE_SKIRMISH, "skirmish.toml", None, 11);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..30 {
        let actions = game.battle().legal_actions();
        if actions.is_empty() {
            break;
        }
        game.act(actions[rng.random_range(0..actions.len())]).unwrap();
    }
    game
}

/// Issue 40: a game of layered variants loaded from its save names the files it was laid from and which wrote each
/// rule, as the game did before it was saved (`pacw rules --json`, the API's `scenario.rules`).
#[test]
fn a_layered_games_save_keeps_each_file_and_which_wrote_each_rule() {
    let game = a_layered_game(skirmishers_with_fences());
    let save = game.save();
    let kept: Vec<(&str, &str)> = save.layers.iter().flatten().map(|l| (l.file.as_str(), l.text.as_str())).collect();
    assert_eq!(kept, [("skirmishers.toml", EXAMPLE_SKIRMISHERS), ("fences.toml", EXAMPLE_FENCES)], "in order");
    let back = crate::Game::load(&game.save_json()).expect("the save replays");
    let (before, after) = (game.battle().scenario().system(), back.battle().scenario().system());
    assert_eq!(after.to_json(), before.to_json());
    assert_eq!(after.to_json()["layers"][1]["file"], "fences.toml");
    assert_eq!(after.written_by(Part::Arm, "skirmishers").map(|l| l.file.as_str()), Some("skirmishers.toml"));
    assert_eq!(after.source(), before.source(), "the one file that says them all, as before");
    assert_eq!(back.log(), game.log());
    // Saved again, it keeps them again.
    assert_eq!(back.save(), save);
    // A single variant's save is as it was: its one file, no layers.
    let single = CombatSystem::with_variant(EXAMPLE_SKIRMISHERS, "skirmishers.toml").unwrap();
    let json = a_layered_game(single).save_json();
    assert!(!json.contains("\"layers\"") && json.contains("\"file\": \"skirmishers.toml\""), "{json}");
}

/// The save of a layered game without its layers, as saves were written before they were kept, loads as it did: by
/// its one file, which its rules name as the file that wrote them (tests/rules/upgrades.rs loads one written then).
#[test]
fn a_layered_save_without_its_layers_loads_by_its_one_file() {
    let game = a_layered_game(skirmishers_with_fences());
    let mut json: serde_json::Value = serde_json::from_str(&game.save_json()).unwrap();
    json.as_object_mut().unwrap().remove("layers").expect("the save keeps them");
    let back = crate::Game::load(&json.to_string()).expect("the old form loads");
    let system = back.battle().scenario().system();
    assert_eq!(system, game.battle().scenario().system(), "the same rules");
    assert_eq!(back.log(), game.log());
    let rules = system.to_json();
    let one = serde_json::json!([{"file": "skirmishers.toml + fences.toml", "name": "Skirmishers + Fences"}]);
    assert_eq!(rules["layers"], one);
    assert_eq!(
        system.written_by(Part::Modifier, "F1").map(|l| l.file.as_str()),
        Some("skirmishers.toml + fences.toml")
    );
    // Saved again, it is the same old form: nothing it did not keep is made up.
    assert_eq!(serde_json::from_str::<serde_json::Value>(&back.save_json()).unwrap(), json);
}

/// A save whose layers are damaged is refused with a message that says so, never loaded by other rules nor a panic:
/// a layer that is not a good variant file, layers that do not make the rules the save's one file says, layers
/// without that file.
#[test]
fn a_save_with_damaged_layers_is_refused_with_a_clear_message() {
    let game = a_layered_game(skirmishers_with_fences());
    let good: serde_json::Value = serde_json::from_str(&game.save_json()).unwrap();
    let refused = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut json = good.clone();
        edit(&mut json);
        match crate::Game::load(&json.to_string()) {
            Ok(_) => panic!("loaded: {json}"),
            Err(e) => e.to_string(),
        }
    };
    let e = refused(&|j| j["layers"][1]["text"] = "name = \"Fences\"\n[[modifiers]]\nid = 3\n".into());
    assert!(e.contains("variant is not valid") && e.contains("fences.toml:"), "{e}");
    let e = refused(&|j| {
        j["layers"][1]["text"] = EXAMPLE_FENCES.replace("value = -1", "value = -2").into();
    });
    assert!(e.contains("layers") && e.contains("do not make"), "{e}");
    let e = refused(&|j| {
        j["layers"].as_array_mut().unwrap().pop();
    });
    assert!(e.contains("layers"), "{e}");
    let e = refused(&|j| {
        j.as_object_mut().unwrap().remove("variant");
    });
    assert!(e.contains("layers") && e.contains("variant"), "{e}");
    let e = refused(&|j| j["layers"] = serde_json::json!([]));
    assert!(e.contains("layers"), "{e}");
    let e = refused(&|j| j["layers"][0] = serde_json::json!({"file": "skirmishers.toml"}));
    assert!(e.contains("damaged"), "{e}");
}

/// A standard modifier renamed by a variant, its condition kept or changed, is named as the variant says wherever
/// an attack is described (the log, the odds); not renamed, it keeps the engine's words.
#[test]
fn a_renamed_standard_modifier_is_named_as_the_variant_says() {
    use crate::attack::Modifier;
    let kept = "name = \"Steady\"\n[[modifiers]]\nid = \"not_moved\"\nrule = \"R6.4\"\nname = \"steady aim\"\nvalue = 1\nwhen = \"not attacker.moved and attacker.arm != 'artillery'\"\n";
    let changed = kept.replace("not attacker.moved and attacker.arm != 'artillery'", "not attacker.moved");
    for text in [kept.to_string(), changed] {
        let system = variant(&text).unwrap();
        assert_eq!(system.describe(Modifier::DidNotMove), ("R6.4".to_string(), "steady aim".to_string()), "{text}");
        assert_eq!(system.describe(Modifier::Canister).1, "artillery at distance 1 (canister)");
    }
    let standard = CombatSystem::standard();
    assert_eq!(standard.describe(Modifier::RearCharge).1, "charge from the target's rear");
}

/// A game by the standard rules of a battle that names a variant (as the laboratory plays `rules=standard`) saves
/// them, and replays by them rather than by the battle's variant.
#[test]
fn a_standard_game_of_a_battle_that_names_a_variant_replays_by_the_standard_rules() {
    use rand::{RngExt, SeedableRng};
    let text = format!("variant = \"close-combat\"\n{}", crate::DEFAULT_SCENARIO);
    let scenario = crate::Scenario::parse_standard(&text, "cc.toml").expect("the battle reads");
    let mut game = crate::Game::with_scenario(std::sync::Arc::new(scenario), &text, "cc.toml", None, 5);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    while !game.battle().legal_actions().is_empty() {
        let actions = game.battle().legal_actions();
        game.act(actions[rng.random_range(0..actions.len())]).unwrap();
    }
    let back = crate::Game::load(&game.save_json()).expect("the save replays");
    assert_eq!(back.log(), game.log());
    assert_eq!(back.battle().scenario().system().name, "Standard");
    // Without the battle's variant line, nothing changes: the save names no variant.
    let plain = crate::Game::new(crate::DEFAULT_SCENARIO, "m.toml", None, 5).unwrap();
    assert!(plain.save().variant.is_none());
}

proptest::proptest! {
    /// Two variant files made of their sections' pieces, the second laid over the first: read, or the second
    /// refused with every problem in its own file at a line inside it, never a panic; read, the rules laid
    /// together are what their one file, as a save keeps it, reads back to.
    #[test]
    fn a_layer_over_any_variant_is_read_or_refused_in_its_own_file(
        below in proptest::collection::vec(proptest::sample::select(VARIANT_PIECES.to_vec()), 0..10),
        top in proptest::collection::vec(proptest::sample::select(VARIANT_PIECES.to_vec()), 0..10),
    ) {
        let Ok(below) = CombatSystem::with_variant(&below.concat(), "below.toml") else { return Ok(()) };
        let text = top.concat();
        match below.with_layer(&text, "top.toml") {
            Err(e) => {
                proptest::prop_assert_eq!(e.file.as_str(), "top.toml");
                let lines = text.lines().count().max(1);
                for p in &e.problems {
                    if let Some(line) = p.line {
                        proptest::prop_assert!(line >= 1 && line <= lines + 1, "{text}\n{e}");
                    }
                }
            }
            Ok(system) => {
                let (file, written) = system.source().expect("two layers");
                let back = CombatSystem::with_variant(written, file);
                proptest::prop_assert_eq!(back.as_ref(), Ok(&system));
                let mut b = duel(1, Some(system));
                if let Some(attack) = b.legal_actions().into_iter().find(|a| a.target().is_some()) {
                    b.apply(attack).unwrap();
                }
            }
        }
    }
}

/// A battle's units have the numbers of its own options, whatever options its scenario was read with: two battles
/// of one scenario under different options do not share them. A variant's own arm keeps its quality's adjustment
/// even where the arm it acts as is at the most strength.
#[test]
fn a_battle_s_units_have_the_numbers_of_its_own_options() {
    let (skirmishers, line) = (crate::UnitId(0), crate::UnitId(1));
    let system = std::sync::Arc::new(variant(SKIRMISHERS).unwrap());
    let veterans = SKIRMISH.replace("name = \"Sharpshooters\"", "name = \"Sharpshooters\"\nquality = \"veteran\"");
    let s = std::sync::Arc::new(crate::Scenario::parse_with(&veterans, "skirmish.toml", system).unwrap());
    let mut options = s.options;
    for (name, value) in [("range.infantry", "3"), ("strength.infantry", "6"), ("range.skirmishers", "1")] {
        s.set_option(&mut options, name, value).unwrap();
    }
    let set = crate::Battle::new(s.clone(), options);
    let plain = crate::Battle::from_scenario(s.clone());
    assert_eq!((set.range(line), set.strength(line), set.range(skirmishers)), (3, 6, 1));
    assert_eq!((plain.range(line), plain.strength(line), plain.range(skirmishers)), (2, 4, 3), "not shared");
    assert_eq!((set.strength(skirmishers), plain.strength(skirmishers)), (3, 3), "the file's 2, and a veteran's +1");
    assert!(std::sync::Arc::ptr_eq(plain.scenario(), &s), "under the scenario's own options, the scenario itself");
}
