//! docs/rules.md R11: every number of the combat system is an option — the modifiers (R6.4), the strengths and the
//! quality adjustments (R2.2), the turn limit (R8.2) and the exhaustion points (R8.1) — and at their defaults the
//! rules are exactly R2.2 and R6.4.

use crate::common::*;
use pacw_engine::Terrain;
use pacw_engine::{Action, Dir, EndReason, Event, Game, Options, Scenario, Side};
use pacw_engine::{Cover, Modifier};

fn fire(target: u8) -> Action {
    Action::Fire { target: u(target), facing: Dir::N }
}

fn with(sets: &[(&str, &str)]) -> Options {
    let mut o = Options::default();
    for (k, v) in sets {
        o.set(k, v).unwrap();
    }
    o
}

#[test]
fn r11_a_modifier_set_to_0_is_gone_and_another_value_counts_as_given() {
    let setup = ScenarioBuilder::open(5, 5).terrain_at(&["c3"], 'W').unit("A inf c1 N").unit("B inf c3 S");
    // The rules as written: +1 not moved, −1 woods: 5+.
    let b = setup.battle();
    let a = b.assess_order(u(0), &fire(1)).unwrap();
    assert_eq!(a.needed, 5);
    assert_mods(&a.modifiers, &[Modifier::DidNotMove, Modifier::Cover(Cover::Terrain(Terrain::Woods))]);
    // No cover modifier: 4+, and it is not listed.
    let b = setup.battle_with(with(&[("modifier.cover", "0")]));
    let a = b.assess_order(u(0), &fire(1)).unwrap();
    assert_eq!(a.needed, 4);
    assert_mods(&a.modifiers, &[Modifier::DidNotMove]);
    // "Did not move" worth 2 and cover −2: 5 − 2 + 2 = 5, each shown at its value.
    let b = setup.battle_with(with(&[("modifier.not_moved", "2"), ("modifier.cover", "-2")]));
    let a = b.assess_order(u(0), &fire(1)).unwrap();
    assert_eq!(a.needed, 5);
    let shown: Vec<String> = a.modifiers.applied().map(|m| m.to_string()).collect();
    assert_eq!(shown, ["R6.4 +2 attacker did not move", "R6.3a -2 cover: woods"]);
}

#[test]
fn r11_flank_charges_canister_and_ranging_take_their_options() {
    let b = ScenarioBuilder::open(5, 5)
        .unit("A cav c2 E")
        .unit("B inf d2 N")
        .battle_with(with(&[("modifier.flank_rear", "3")]));
    let mut b = b;
    start(&mut b, u(0));
    let a = b.assess_order(u(0), &Action::Fire { target: u(1), facing: Dir::E }).unwrap();
    // 5 − (1 not moved + 3 flank) = 1, kept at 2: a 1 always misses (R6.4).
    assert_eq!(a.needed, 2);
    let b = ScenarioBuilder::open(5, 5)
        .unit("A art c1 N")
        .unit("B inf c2 S")
        .battle_with(with(&[("modifier.canister", "-1")]));
    let a = b.assess_order(u(0), &fire(1)).unwrap();
    assert_eq!(a.needed, 6, "canister worth −1: 5 + 1");
}

#[test]
fn r11_strengths_and_quality_adjustments_set_the_hit_result_roll() {
    let setup = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 S veteran").unit("B inf e3 S green");
    let b = setup.battle();
    assert_eq!((b.strength(u(1)), b.strength(u(2))), (5, 3), "R2.2 as written");
    let b = setup.battle_with(with(&[("strength.infantry", "6"), ("quality.green", "0")]));
    assert_eq!(b.strength(u(1)), 6, "6 + 1 kept within 0..=6");
    assert_eq!(b.strength(u(2)), 6, "green adds nothing");
    assert_eq!(b.assess_order(u(0), &fire(1)).unwrap().strength, 6);
    let b = setup.battle_with(with(&[("strength.infantry", "1"), ("quality.green", "-2")]));
    assert_eq!(b.strength(u(2)), 0, "1 − 2 kept at 0: every hit result is worse");
    // The die is rolled against it.
    let mut b = setup.battle_with(with(&[("strength.infantry", "1"), ("quality.veteran", "0")]));
    start(&mut b, u(0));
    act(&mut b, fire(1));
    roll(&mut b, 6);
    let events = roll(&mut b, 2);
    assert!(events.iter().any(|e| matches!(e, Event::HitResultRolled { strength: 1, roll: 2, .. })), "{events:?}");
}

#[test]
fn r11_turns_and_exhaustion_override_the_scenario() {
    let text = pacw_engine::DEFAULT_SCENARIO;
    let s = Scenario::parse(text, "m.toml").unwrap();
    let mut o = s.options;
    s.set_option(&mut o, "turns", "1").unwrap();
    s.set_option(&mut o, "exhaustion.confederate", "1").unwrap();
    assert!(s.set_option(&mut o, "exhaustion.prussia", "1").is_err(), "an unknown side id is an error");
    let mut game = Game::new(text, "m.toml", Some(o), 4).unwrap();
    assert_eq!(game.battle().turn_limit(), 1);
    assert_eq!(game.battle().exhaustion_point(Side::B), 1);
    assert_eq!(game.battle().exhaustion_point(Side::A), 3, "the scenario's own");
    // The narration says the option's turn limit.
    assert!(pacw_engine::narrate::event_with(&s, &o, &game.log()[0]).contains("Turn 1 of 1 begins"));
    let mut steps = 0;
    while let pacw_engine::ToAct::Side(_) = game.battle().to_act() {
        let a = game.battle().legal_actions()[steps % 2 % game.battle().legal_actions().len()];
        game.act(a).unwrap();
        steps += 1;
    }
    let r = game.battle().result().unwrap();
    assert!(matches!(r.reason, EndReason::TurnLimit | EndReason::Exhaustion(Side::B)), "{r:?}");
    assert_eq!(game.battle().turn(), 1);
}

#[test]
fn r11_a_scenario_sets_every_number_in_its_options_table() {
    let text = pacw_engine::DEFAULT_SCENARIO.to_string()
        + "\n[options]\nturns = 4\nmodifier = { cover = 0, not_moved = 2 }\nstrength = { cavalry = 5 }\n\
           quality = { veteran = 2 }\nexhaustion = { union = 2 }\n";
    let s = Scenario::parse(&text, "variant.toml").unwrap();
    assert_eq!(s.options.turns.map(|t| t.get()), Some(4));
    assert_eq!((s.options.modifier.cover, s.options.modifier.not_moved), (0, 2));
    assert_eq!((s.options.strength.cavalry, s.options.quality.veteran), (5, 2));
    assert_eq!(s.options.exhaustion, [Some(2), None]);
    let bad = pacw_engine::DEFAULT_SCENARIO.to_string()
        + "\n[options]\nexhaustion = { prussia = 2, union = 9 }\nmodifier = { cover = 4 }\n";
    let e = Scenario::parse(&bad, "bad.toml").unwrap_err().to_string();
    assert!(e.contains("no side 'prussia'"), "{e}");
    assert!(e.contains("more than the side's 6 units"), "{e}");
    assert!(e.contains("modifier.cover"), "{e}");
}

#[test]
fn r11_at_their_defaults_the_options_leave_events_as_saves_always_had_them() {
    let b = ScenarioBuilder::open(5, 5).terrain_at(&["c3"], 'W').unit("A inf c1 N").unit("B inf c3 S").battle();
    let a = b.assess_order(u(0), &fire(1)).unwrap();
    assert_eq!(serde_json::to_string(&a.modifiers).unwrap(), r#"["did_not_move",{"cover":{"terrain":"woods"}}]"#);
    let v = ScenarioBuilder::open(5, 5).terrain_at(&["c3"], 'W').unit("A inf c1 N").unit("B inf c3 S");
    let b = v.battle_with(with(&[("modifier.cover", "-2")]));
    let json = serde_json::to_string(&b.assess_order(u(0), &fire(1)).unwrap().modifiers).unwrap();
    assert_eq!(json, r#"["did_not_move",{"modifier":{"cover":{"terrain":"woods"}},"value":-2}]"#);
    let back: pacw_engine::Modifiers = serde_json::from_str(&json).unwrap();
    assert_eq!(back.total(), -1);
    // Every option is recorded; the display shows the new ones only when they differ.
    let o = with(&[("strength.cavalry", "5")]);
    assert!(o.pairs().iter().any(|(k, v)| k == "modifier.cover" && v == "-1"));
    assert!(o.to_string().contains("strength.cavalry=5") && !o.to_string().contains("modifier.cover"));
    assert!(Options::default().set("modifier.cover", "4").is_err());
    assert!(Options::default().set("quality.veteran", "3").is_err());
    assert!(Options::default().set("strength.infantry", "7").is_err());
    assert!(Options::default().set("turns", "0").is_err());
}
