//! What a player may ask before deciding, as the board shows it: a unit's orders before it is activated, why an
//! order is refused, the path of a move, the square that blocks a line of sight, and resigning.

use crate::common::*;
use pacw_engine::{Action, Dir, EndReason, Event, Game, Side, ToAct};

#[test]
fn r3_4_the_orders_of_a_unit_not_yet_activated_are_those_it_would_have_once_activated() {
    let mut b = ScenarioBuilder::open(6, 6).unit("A inf c2 N").unit("A cav e2 N").unit("B inf c4 S").battle();
    draw(&mut b, Side::A, 2);
    let before: Vec<Action> = b.orders_for(u(0)).into_iter().map(|(a, _)| a).collect();
    assert!(before.contains(&Action::Hold) && before.contains(&Action::Fire { target: u(2), facing: Dir::N }));
    // Asking changes nothing.
    assert_eq!(b.active_unit(), None);
    activate(&mut b, u(0));
    assert_eq!(before, b.legal_actions(), "the same orders, in the same order");
    // While it gives its order, the other unit has none (one activation at a time, R3.4) and says why.
    assert!(b.orders_for(u(1)).is_empty());
    let why = b.check_order_for(u(1), Action::Hold).unwrap_err();
    assert_eq!(why.rule, "R3.4");
    assert!(why.reason.contains("carrying out its order"), "{why}");
}

#[test]
fn r3_4_an_order_is_checked_before_activation_with_the_activation_first() {
    let mut b = ScenarioBuilder::open(6, 6).unit("A inf c2 N").unit("B inf c5 S").unit("A inf a1 N").battle();
    draw(&mut b, Side::A, 2);
    // An enemy unit on the first side's card: refused with the card named.
    let why = b.check_order_for(u(1), Action::Hold).unwrap_err();
    assert_eq!(why.rule, "R3.4");
    assert!(why.reason.contains("card drawn is BLUE's"), "{why}");
    // Out of range (R6.1) before the unit is activated, and no change to the battle.
    let snapshot = b.clone();
    let why = b.check_order_for(u(0), Action::Fire { target: u(1), facing: Dir::N }).unwrap_err();
    assert_eq!(why.rule, "R6.1");
    assert!(why.reason.contains("3 squares away"), "{why}");
    assert_eq!(b, snapshot);
    // Already activated on this card: the activation's own rule.
    activate(&mut b, u(0));
    act(&mut b, Action::Hold);
    assert!(b.activated_this_card(u(0)) && !b.activated_this_card(u(2)));
    let why = b.check_order_for(u(0), Action::Hold).unwrap_err();
    assert_eq!(why.rule, "R3.4");
    assert!(why.reason.contains("already activated on this card"), "{why}");
}

#[test]
fn r5_1_a_move_path_goes_square_by_square_around_a_river_and_through_friends() {
    // Cavalry (move 2) on a1; b1 is a river; a friend stands on a2. The way to b2 goes through a2.
    let b = ScenarioBuilder::open(5, 5)
        .terrain_at(&["b1"], '~')
        .unit("A cav a1 N")
        .unit("A inf a2 N")
        .unit("B inf e5 S")
        .battle();
    assert_eq!(b.move_path(u(0), sq("b2")), Some(vec![sq("a1"), sq("a2"), sq("b2")]));
    assert_eq!(b.move_path(u(0), sq("a1")), Some(vec![sq("a1")]), "staying put");
    assert_eq!(b.move_path(u(0), sq("a2")), None, "a move ends on an empty square");
    assert_eq!(b.move_path(u(0), sq("c1")), None, "three steps around the river");
}

#[test]
fn r1_6_a_move_path_along_a_road_takes_the_extra_square() {
    let b = ScenarioBuilder::open(5, 5).road_at(&["a1", "a2", "a3"]).unit("A inf a1 N").unit("B inf e5 S").battle();
    assert_eq!(b.move_path(u(0), sq("a3")), Some(vec![sq("a1"), sq("a2"), sq("a3")]));
    assert_eq!(b.move_path(u(0), sq("b2")), None, "off the road the move is one square");
}

#[test]
fn r6_2_the_line_of_sight_names_the_square_that_blocks_it() {
    let mut b = ScenarioBuilder::open(5, 6).terrain_at(&["c3"], 'W').unit("A art c1 N").unit("B inf c5 S").battle();
    assert_eq!(b.line_of_sight(u(0), sq("c1"), sq("c5")), Err(sq("c3")));
    assert_eq!(b.line_of_sight(u(0), sq("c1"), sq("c2")), Ok(()));
    assert_eq!(b.line_of_sight(u(0), sq("c1"), sq("c3")), Ok(()), "woods at the far end do not block");
    start(&mut b, u(0));
    let why = refused(&mut b, Action::Fire { target: u(1), facing: Dir::N }, "R6.2");
    assert!(why.reason.contains("c3 blocks it (woods"), "{why}");
}

#[test]
fn resigning_ends_the_game_for_the_other_side_and_survives_a_save() {
    let mut game = Game::new(pacw_engine::DEFAULT_SCENARIO, "meeting-engagement.toml", None, 3).unwrap();
    let first = game.battle().legal_actions()[0];
    game.act(first).unwrap();
    let events = game.resign(Side::B).unwrap();
    let result = game.battle().result().expect("over");
    assert_eq!((result.winner, result.reason), (Some(Side::A), EndReason::Resigned(Side::B)));
    assert_eq!(events, vec![Event::GameOver { result }]);
    assert!(matches!(game.battle().to_act(), ToAct::Over(_)));
    assert!(game.resign(Side::A).is_err(), "once over, nobody can resign");
    let loaded = Game::load(&game.save_json()).unwrap();
    assert_eq!(loaded.log(), game.log());
    assert_eq!(loaded.resigned(), Some(Side::B));
    // A save from before resignations existed has no `resigned` field and still loads.
    let mut old = game.save();
    old.resigned = None;
    old.events -= 1;
    let json = serde_json::to_string(&old).unwrap();
    assert!(!json.contains("resigned"));
    assert!(Game::load(&json).is_err(), "the fingerprint still covers the resignation's event");
}

#[test]
fn r6_1_refusals_name_both_units_with_their_side_and_a_turn_in_place_reads_as_one() {
    // Out of range: both units named with their side (two armies may have units of the same name).
    let mut b = ScenarioBuilder::open(6, 6).unit("A inf c2 N").unit("B inf c5 S").unit("B inf d2 S").battle();
    draw(&mut b, Side::A, 2);
    let why = b.check_order_for(u(0), Action::Fire { target: u(1), facing: Dir::N }).unwrap_err();
    let (mine, theirs) = (b.side_and_name(u(0)), b.side_and_name(u(1)));
    assert!(mine.starts_with(&b.scenario().side(Side::A).name) && theirs.starts_with(&b.scenario().side(Side::B).name));
    assert!(why.reason.contains(&format!("{theirs} is 3 squares away; {mine}'s range is 2")), "{why}");
    // The enemy beside it on d2 is outside its front arc; turning east on c2 to charge it is a turn, not a move.
    activate(&mut b, u(0));
    let turn = Action::MoveFire { to: sq("c2"), facing: Dir::E, target: u(2) };
    assert!(b.legal_actions().contains(&turn));
    let words = pacw_engine::narrate::order(&b, Some(u(0)), &turn);
    assert!(words.starts_with("Turn in place to face E, charge"), "{words}");
}
