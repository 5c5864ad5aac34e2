//! docs/rules.md R9 (chance and determinism), R10 (notation) and R11 (options).

use crate::common::*;
use pacw_engine::PerArm;
use pacw_engine::{
    Action, Arm, BlockedRetreat, Card, ChanceKind, Dir, Event, Game, Initiative, Options, Outcome, Prob, Quality, Side,
    Square, ToAct,
};
use pacw_engine::{Cover, Modifier};
use std::sync::Arc;

fn fire(target: u8, facing: Dir) -> Action {
    Action::Fire { target: u(target), facing }
}

// ---------------------------------------------------------------- R9.1

#[test]
fn r9_1_chance_is_a_d6_roll_or_a_card_draw() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    // A card draw.
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card));
    assert!(b.chance_outcomes().iter().all(|(o, _)| matches!(o, Outcome::Card(_))));
    chance_refused(&mut b, Outcome::Die(3), "R9.1");
    start(&mut b, u(0));
    // A side acts: no chance event.
    assert!(b.chance_outcomes().is_empty());
    chance_refused(&mut b, Outcome::Die(3), "R9.1");
    chance_refused(&mut b, Outcome::Card(Card::Joker), "R9.1");
    // The to-hit die.
    act(&mut b, fire(1, Dir::N));
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::ToHit));
    let faces: Vec<Outcome> = b.chance_outcomes().into_iter().map(|(o, _)| o).collect();
    assert_eq!(faces, (1..=6).map(Outcome::Die).collect::<Vec<_>>());
    chance_refused(&mut b, Outcome::Card(Card::Joker), "R9.1");
    chance_refused(&mut b, Outcome::Die(0), "R9.1");
    chance_refused(&mut b, Outcome::Die(7), "R9.1");
    // The hit-result die.
    roll(&mut b, 6);
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::HitResult));
    assert_eq!(b.chance_outcomes().len(), 6);
    // Initiative dice (R3.7).
    let b = ScenarioBuilder::open(5, 5)
        .unit("A inf c1 N")
        .unit("B inf c3 S")
        .battle_with(Options { initiative: Initiative::Igougo, ..Options::default() });
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Initiative(Side::A)));
    assert_eq!(b.chance_outcomes().len(), 6);
    assert!(b.chance_outcomes().iter().all(|(o, _)| matches!(o, Outcome::Die(1..=6))));
}

// ---------------------------------------------------------------- R9.2

#[test]
fn r9_2_every_chance_event_has_exact_probabilities() {
    let mut b = ScenarioBuilder::open(5, 5)
        .unit("A inf c1 N")
        .unit("A inf a1 N")
        .unit("A inf e1 N")
        .unit("B inf c3 S")
        .battle();
    // Cards: IV A = 2 (cards 1, 2, 3), B = 1 (cards 1 ×4, 2 ×2), Joker.
    let cards = b.chance_outcomes();
    assert_eq!(cards.iter().map(|(_, p)| *p).sum::<Prob>(), Prob::new(1, 1));
    let p = |b: &pacw_engine::Battle, card: Card| {
        b.chance_outcomes().into_iter().find(|(o, _)| *o == Outcome::Card(card)).map(|(_, p)| p)
    };
    assert_eq!(p(&b, Card::Side { side: Side::B, value: 1 }), Some(Prob::new(4, 13)));
    assert_eq!(p(&b, Card::Joker), Some(Prob::new(1, 13)));
    draw(&mut b, Side::B, 1);
    act(&mut b, Action::EndActivations);
    assert_eq!(p(&b, Card::Side { side: Side::B, value: 1 }), Some(Prob::new(3, 12)));
    assert_eq!(p(&b, Card::Side { side: Side::A, value: 2 }), Some(Prob::new(2, 12)));
    assert_eq!(b.chance_outcomes().iter().map(|(_, p)| *p).sum::<Prob>(), Prob::new(1, 1));
    // Dice: 1/6 each.
    start(&mut b, u(0));
    act(&mut b, fire(3, Dir::N));
    let dice = b.chance_outcomes();
    assert_eq!(dice.len(), 6);
    assert!(dice.iter().all(|(_, p)| *p == Prob::new(1, 6)));
}

/// Plays a game with a fixed policy (the `k`-th legal action, k cycling) for `steps` decisions.
fn play(seed: u64, steps: usize) -> Game {
    let text = ScenarioBuilder::open(6, 6)
        .unit("A inf b1 N")
        .unit("A cav c1 N")
        .unit("A art d1 N")
        .unit("B inf b6 S")
        .unit("B cav c6 S")
        .unit("B art d6 S")
        .toml();
    let mut game = Game::new(&text, "replay.toml", None, seed).unwrap();
    for k in 0..steps {
        if !game.waiting_for_side() {
            break;
        }
        let legal = game.battle().legal_actions();
        game.act(legal[(k * 7) % legal.len()]).unwrap();
    }
    game
}

#[test]
fn r9_2_a_game_replayed_from_the_same_seed_and_decisions_is_identical() {
    let a = play(11, 200);
    let b = play(11, 200);
    assert_eq!(a.log(), b.log());
    assert_eq!(a.actions(), b.actions());
    assert_eq!(a.battle(), b.battle());
    // Replaying the recorded decisions gives the same game, event for event.
    let replayed = Game::load(&a.save_json()).unwrap();
    assert_eq!(replayed.log(), a.log());
    assert_eq!(replayed.battle(), a.battle());
    // The seed matters.
    let others: Vec<_> = (12..16).map(|s| play(s, 200)).collect();
    assert!(others.iter().any(|g| g.log() != a.log()));
}

// ---------------------------------------------------------------- R10

#[test]
fn r10_notation_squares_facings_arms_and_qualities() {
    assert_eq!(sq("d4"), Square::new(3, 3));
    assert_eq!(Square::new(3, 3).to_string(), "d4");
    assert_eq!(Square::new(25, 25).to_string(), "z26");
    for (s, d) in [("N", Dir::N), ("E", Dir::E), ("S", Dir::S), ("W", Dir::W)] {
        assert_eq!(s.parse::<Dir>().unwrap(), d);
        assert_eq!(d.to_string(), s);
    }
    assert!("X".parse::<Dir>().is_err());
    for (s, a) in [("inf", Arm::Infantry), ("cav", Arm::Cavalry), ("art", Arm::Artillery)] {
        assert_eq!(Arm::parse(s), Some(a));
        assert_eq!(a.short(), s);
    }
    for (s, q) in [("green", Quality::Green), ("regular", Quality::Regular), ("veteran", Quality::Veteran)] {
        assert_eq!(Quality::parse(s), Some(q));
        assert_eq!(q.name(), s);
    }
    // The same notation in a scenario file.
    let s =
        ScenarioBuilder::open(4, 4).unit("A inf a1 N green").unit("A cav b1 E veteran").unit("B art d4 W").scenario();
    assert_eq!(
        (s.units[0].arm, s.units[0].quality, s.units[0].facing, s.units[0].at),
        (Arm::Infantry, Quality::Green, Dir::N, sq("a1"))
    );
    assert_eq!((s.units[1].arm, s.units[1].quality, s.units[1].facing), (Arm::Cavalry, Quality::Veteran, Dir::E));
    assert_eq!((s.units[2].arm, s.units[2].quality, s.units[2].facing), (Arm::Artillery, Quality::Regular, Dir::W));
}

// ---------------------------------------------------------------- R11

#[test]
fn r11_defaults_are_those_of_the_rules() {
    let o = Options::default();
    assert_eq!(o.initiative, Initiative::Cards);
    assert!(!o.once_per_turn);
    assert_eq!(o.blocked_retreat, BlockedRetreat::Destroyed);
    assert!(o.pivot_is_move);
    assert_eq!(o.to_hit, 5);
    assert_eq!(o.movement, PerArm { infantry: 1, cavalry: 2, artillery: 1 });
    assert_eq!(o.range, PerArm { infantry: 2, cavalry: 1, artillery: 4 });
    let s = ScenarioBuilder::open(4, 4).unit("A inf a1 N").unit("B inf d4 S").scenario();
    assert_eq!(s.options, o, "a scenario without [options] plays the defaults");
}

#[test]
fn r11_a_scenario_sets_options_and_a_game_setup_may_override_them() {
    let s = ScenarioBuilder::open(4, 4)
        .option("initiative = \"alternate\"")
        .option("once_per_turn = true")
        .option("blocked_retreat = \"stand\"")
        .option("pivot_is_move = false")
        .option("to_hit = 4")
        .option("move = { cavalry = 3 }")
        .option("range = { artillery = 5, infantry = 3 }")
        .unit("A inf a1 N")
        .unit("B inf d4 S")
        .scenario();
    let o = s.options;
    assert_eq!(o.initiative, Initiative::Alternate);
    assert!(o.once_per_turn);
    assert_eq!(o.blocked_retreat, BlockedRetreat::Stand);
    assert!(!o.pivot_is_move);
    assert_eq!(o.to_hit, 4);
    assert_eq!(o.movement, PerArm { infantry: 1, cavalry: 3, artillery: 1 }, "arms left out keep their default");
    assert_eq!(o.range, PerArm { infantry: 3, cavalry: 1, artillery: 5 });
    let s = Arc::new(s);
    // The battle records the options in force: the scenario's, or an override.
    let b = pacw_engine::Battle::from_scenario(s.clone());
    assert_eq!(*b.options(), o);
    let mut over = o;
    over.set("to_hit", "6").unwrap();
    over.set("initiative", "cards").unwrap();
    let b = pacw_engine::Battle::new(s, over);
    assert_eq!(b.options().to_hit, 6);
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card));
    // Every game records them.
    let text = ScenarioBuilder::open(4, 4).option("to_hit = 3").unit("A inf a1 N").unit("B inf d4 S").toml();
    let game = Game::new(&text, "o.toml", None, 1).unwrap();
    assert_eq!(game.save().options.to_hit, 3);
}

#[test]
fn r11_initiative_option_selects_the_system() {
    for (value, first) in [
        ("cards", ChanceKind::Card),
        ("igougo", ChanceKind::Initiative(Side::A)),
        ("alternate", ChanceKind::Initiative(Side::A)),
    ] {
        let b = ScenarioBuilder::open(4, 4)
            .option(&format!("initiative = \"{value}\""))
            .unit("A inf a1 N")
            .unit("B inf d4 S")
            .battle();
        assert_eq!(b.to_act(), ToAct::Chance(first), "{value}");
    }
}

#[test]
fn r11_once_per_turn_allows_one_activation_a_turn() {
    let mut b = ScenarioBuilder::open(5, 5)
        .option("once_per_turn = true")
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("B inf e5 S")
        .battle();
    draw(&mut b, Side::A, 1);
    activate(&mut b, u(0));
    act(&mut b, Action::Hold);
    draw(&mut b, Side::A, 1);
    assert!(!b.legal_actions().contains(&Action::Activate(u(0))));
    refused(&mut b, Action::Activate(u(0)), "R3.5");
    activate(&mut b, u(1));
    act(&mut b, Action::Hold);
    // Every A unit has been activated this turn: an A card brings no activation.
    draw(&mut b, Side::A, 2);
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card));
    // The next turn, both may act again.
    joker(&mut b);
    draw(&mut b, Side::A, 1);
    assert!(b.legal_actions().contains(&Action::Activate(u(0))));
}

#[test]
fn r11_blocked_retreat_stand_leaves_the_unit_in_place_shaken() {
    let mut b = ScenarioBuilder::open(4, 4)
        .option("blocked_retreat = \"stand\"")
        .unit("A inf a3 N")
        .unit("B inf a4 S")
        .unit("B inf b4 S")
        .battle();
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    roll(&mut b, 6);
    let events = roll(&mut b, 1);
    assert!(events.contains(&Event::RetreatBlocked { unit: u(1) }), "{events:?}");
    assert!(!events.iter().any(|e| matches!(e, Event::Destroyed { .. })));
    assert!(events.contains(&Event::Shaken { unit: u(1) }));
    assert_eq!((b.unit(u(1)).alive, b.unit(u(1)).at, b.unit(u(1)).shaken), (true, sq("a4"), true));
    assert_eq!(b.destroyed(Side::B), 0);
}

#[test]
fn r11_blocked_retreat_stand_then_a_destroyed_result_still_destroys() {
    // Standing shaken, the unit is hit again by a charge and rolls above its strength.
    let mut b = ScenarioBuilder::open(4, 4)
        .option("blocked_retreat = \"stand\"")
        .exhaustion(Side::B, 2)
        .unit("A inf a3 N")
        .unit("B inf a4 S")
        .unit("B inf b4 S")
        .battle();
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    roll(&mut b, 6);
    roll(&mut b, 6);
    assert!(!b.unit(u(1)).alive);
}

#[test]
fn r11_pivot_is_move_false_lets_fire_begin_with_a_pivot_keeping_the_did_not_move_bonus() {
    let mut b =
        ScenarioBuilder::open(5, 5).option("pivot_is_move = false").unit("A inf c1 E").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    assert!(b.legal_actions().contains(&fire(1, Dir::N)));
    let events = act(&mut b, fire(1, Dir::N));
    assert_eq!(events[0], Event::Moved { unit: u(0), from: sq("c1"), to: sq("c1"), facing: Dir::N });
    let (_, needed, mods) = attack(&events);
    assert_mods(&mods, &[Modifier::DidNotMove]);
    assert_eq!(needed, 4);
    assert_eq!(b.unit(u(0)).facing, Dir::N);
}

#[test]
fn r11_pivot_is_move_false_artillery_fire_with_a_pivot_keeps_the_bonuses_of_not_moving() {
    // The gun on c1 faces north and ranges on e3 (on the diagonal). Next time it turns east and fires at e3 again:
    // with pivot_is_move = false the pivot is not a move, so Fire may begin with it, and the ranging bonus stays.
    let mut b =
        ScenarioBuilder::open(6, 6).option("pivot_is_move = false").unit("A art c1 N").unit("B inf e3 W").battle();
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    roll(&mut b, 1);
    start(&mut b, u(0));
    assert!(b.legal_actions().contains(&fire(1, Dir::E)), "artillery may pivot and fire (not a move, R4.3)");
    let events = act(&mut b, fire(1, Dir::E));
    let (_, needed, mods) = attack(&events);
    assert_mods(&mods, &[Modifier::Ranging]);
    assert_eq!(needed, 4);
    assert_eq!(b.unit(u(0)).facing, Dir::E);
    // A pivot by a Move order does not cancel it either.
    roll(&mut b, 1);
    start(&mut b, u(0));
    act(&mut b, Action::Move { to: sq("c1"), facing: Dir::N });
    assert_eq!(b.unit(u(0)).ranging_on(), Some(u(1)));
    // Nor does the target turning in place.
    start(&mut b, u(1));
    act(&mut b, Action::Move { to: sq("e3"), facing: Dir::S });
    start(&mut b, u(0));
    assert_mods(&attack(&act(&mut b, fire(1, Dir::N))).2, &[Modifier::Ranging]);
}

#[test]
fn r11_pivot_is_move_true_refuses_a_pivot_in_a_fire_order() {
    let mut b = ScenarioBuilder::open(6, 6).unit("A art c1 N").unit("B inf e3 W").battle();
    start(&mut b, u(0));
    refused(&mut b, fire(1, Dir::E), "R5.5");
}

#[test]
fn r11_to_hit_sets_the_base_number_needed() {
    for base in 2..=6u8 {
        let mut b = ScenarioBuilder::open(5, 6)
            .option(&format!("to_hit = {base}"))
            .unit("A art c1 N")
            .unit("B inf c4 S")
            .battle();
        start(&mut b, u(0));
        let (_, needed, _) = attack(&act(&mut b, fire(1, Dir::N)));
        assert_eq!(needed, base);
        let mut miss = b.clone();
        assert_eq!(roll(&mut miss, base - 1)[0], Event::ToHitRolled { roll: base - 1, hit: false });
        assert_eq!(roll(&mut b, base)[0], Event::ToHitRolled { roll: base, hit: true });
    }
    // With cover: base 4 − (−1) = 5.
    let b = ScenarioBuilder::open(5, 6)
        .option("to_hit = 4")
        .terrain_at(&["c4"], 'T')
        .unit("A art c1 N")
        .unit("B inf c4 S")
        .battle();
    let a = b.assess_order(u(0), &fire(1, Dir::N)).unwrap();
    assert_mods(&a.modifiers, &[Modifier::Cover(Cover::Terrain(pacw_engine::Terrain::Town))]);
    assert_eq!(a.needed, 5);
}

#[test]
fn r11_move_and_range_are_set_per_arm() {
    let setup = ScenarioBuilder::open(7, 7)
        .option("move = { infantry = 2, artillery = 2 }")
        .option("range = { cavalry = 2, infantry = 1 }")
        .unit("A inf d1 N")
        .unit("A cav a1 N")
        .unit("A art g1 N")
        .unit("B inf d4 S")
        .unit("B inf a3 S");
    let mut b = setup.battle();
    draw(&mut b, Side::A, 2);
    activate(&mut b, u(0));
    assert!(move_squares(&b).contains("d3"), "infantry moves 2");
    // Infantry range 1: d4 at distance 3 cannot be shot from d1, nor from d2 (distance 2).
    assert!(!b.legal_actions().iter().any(|a| a.target().is_some() && !matches!(a, Action::MoveFire { .. })));
    refused(&mut b, Action::MoveFire { to: sq("d2"), facing: Dir::N, target: u(3) }, "R6.1");
    act(&mut b, Action::Hold);
    activate(&mut b, u(1));
    // Cavalry range 2: a3 at distance 2 is shot, not charged.
    let a = b.assess_order(u(1), &fire(4, Dir::N)).unwrap();
    assert_eq!((a.distance, a.charge), (2, false));
    act(&mut b, Action::Hold);
    draw(&mut b, Side::A, 1);
    activate(&mut b, u(2));
    assert!(move_squares(&b).contains("g3"), "artillery moves 2");
}

#[test]
fn r11_exhaustion_point_is_per_scenario_and_side() {
    let s = ScenarioBuilder::open(5, 5)
        .exhaustion(Side::A, 1)
        .exhaustion(Side::B, 3)
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("B inf a5 S")
        .unit("B inf b5 S")
        .unit("B inf c5 S")
        .scenario();
    assert_eq!((s.sides[0].exhaustion, s.sides[1].exhaustion), (1, 3));
}
