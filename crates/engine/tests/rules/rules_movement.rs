//! docs/rules.md R5 (movement).

use crate::common::*;
use pacw_engine::Modifier;
use pacw_engine::{Action, Dir, Event};
use std::collections::BTreeSet;

fn fire(target: u8, facing: Dir) -> Action {
    Action::Fire { target: u(target), facing }
}

fn all_facings() -> BTreeSet<Dir> {
    Dir::ALL.into_iter().collect()
}

// ---------------------------------------------------------------- R5.1

#[test]
fn r5_1_a_move_goes_square_to_square_through_adjacent_squares() {
    // Cavalry (2) reaches the diagonal d4 by two orthogonal steps, but not e5 (four steps).
    let mut b = ScenarioBuilder::open(5, 5).unit("A cav c3 N").unit("B inf a1 N").battle();
    start(&mut b, u(0));
    let reach = move_squares(&b);
    assert_eq!(reach, names(&["a3", "b2", "b3", "b4", "c1", "c2", "c4", "c5", "d2", "d3", "d4", "e3"]));
    // The same, with d3 and c4 both rivers: d4 is now three steps away.
    let mut b =
        ScenarioBuilder::open(5, 5).terrain_at(&["d3", "c4"], '~').unit("A cav c3 N").unit("B inf a1 N").battle();
    start(&mut b, u(0));
    assert!(!move_squares(&b).contains("d4"));
}

#[test]
fn r5_1_never_into_a_square_held_by_an_enemy() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A cav c1 N").unit("B inf c2 S").battle();
    start(&mut b, u(0));
    assert!(!move_squares(&b).contains("c2"));
    refused(&mut b, Action::Move { to: sq("c2"), facing: Dir::N }, "R5.1");
}

#[test]
fn r5_1_never_through_a_square_held_by_an_enemy() {
    // A corridor beside a river: the only way north from a1 is through a3, held by an enemy. Even with a long move
    // the cavalry never gets into or past it.
    let mut b = ScenarioBuilder::new(
        ".~..
         .~..
         .~..
         .~..",
    )
    .option("move = { cavalry = 4 }")
    .unit("A cav a1 N")
    .unit("B inf a3 S")
    .battle();
    start(&mut b, u(0));
    let reach = move_squares(&b);
    assert!(reach.contains("a2"), "next to the enemy: must stop there");
    assert!(!reach.contains("a3") && !reach.contains("a4"), "{reach:?}");
}

#[test]
fn r5_1_never_through_a_river() {
    let mut b = ScenarioBuilder::new(
        "....
         ....
         ~~F~
         ....",
    )
    .option("move = { cavalry = 3 }")
    .unit("A cav a1 N")
    .unit("B inf d4 S")
    .battle();
    start(&mut b, u(0));
    let reach = move_squares(&b);
    // Only the ford crosses the river, and entering it ends the move (R1.5).
    assert!(reach.contains("c2"));
    for s in ["a2", "b2", "d2", "a3", "b3", "c3"] {
        assert!(!reach.contains(s), "{s} in {reach:?}");
    }
}

#[test]
fn r5_1_friends_may_be_passed_through_but_the_move_ends_on_an_empty_square() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A cav c1 N").unit("A inf c2 N").unit("B inf a5 S").battle();
    start(&mut b, u(0));
    let reach = move_squares(&b);
    assert!(reach.contains("c3"), "through the friend on c2: {reach:?}");
    assert!(!reach.contains("c2"));
    refused(&mut b, Action::Move { to: sq("c2"), facing: Dir::N }, "R5.1");
    act(&mut b, Action::Move { to: sq("c3"), facing: Dir::N });
    assert_eq!(b.unit(u(0)).at, sq("c3"));
    assert_eq!(b.unit(u(1)).at, sq("c2"));
}

// ---------------------------------------------------------------- R5.2

#[test]
fn r5_2_zone_of_control_stops_a_move() {
    // Cavalry on c1, an enemy on d2: c2 and d1 are next to it, so a move stops on entering them.
    let mut b = ScenarioBuilder::open(5, 5).unit("A cav c1 N").unit("B inf d2 W").battle();
    start(&mut b, u(0));
    assert_eq!(move_squares(&b), names(&["a1", "b1", "b2", "c2", "d1"]));
    // c3 is two steps away only through c2; e1 only through d1.
    refused(&mut b, Action::Move { to: sq("c3"), facing: Dir::N }, "R5.2");
    refused(&mut b, Action::Move { to: sq("e1"), facing: Dir::N }, "R5.2");
}

#[test]
fn r5_2_a_diagonal_enemy_does_not_stop_a_move() {
    // The enemy on d3 is diagonal to c2, not adjacent: cavalry from b2 passes c2 and goes on to d2 (which is
    // adjacent to d3, so the move ends there). d2 is two steps from b2 only through c2.
    let mut b = ScenarioBuilder::open(5, 5).unit("A cav b2 N").unit("B inf d3 W").battle();
    start(&mut b, u(0));
    let reach = move_squares(&b);
    assert!(reach.contains("d2"), "{reach:?}");
    assert!(reach.contains("c1"), "{reach:?}");
}

// ---------------------------------------------------------------- R5.3

#[test]
fn r5_3_a_unit_starting_in_contact_may_only_move_to_squares_not_adjacent_to_an_enemy() {
    // A on c2 touches the enemies on c3 and d2. b2 is next to the enemy on a2; c1 touches nobody.
    let mut b = ScenarioBuilder::open(5, 5)
        .unit("A inf c2 N")
        .unit("B inf c3 S")
        .unit("B inf d2 W")
        .unit("B inf a2 E")
        .battle();
    start(&mut b, u(0));
    assert_eq!(move_squares(&b), names(&["c1"]));
    refused(&mut b, Action::Move { to: sq("b2"), facing: Dir::W }, "R5.3");
    // It may always stay and change facing (toward an adjacent enemy, R5.4).
    assert!(b.legal_actions().contains(&Action::Move { to: sq("c2"), facing: Dir::E }));
    act(&mut b, Action::Move { to: sq("c2"), facing: Dir::E });
    assert_eq!((b.unit(u(0)).at, b.unit(u(0)).facing), (sq("c2"), Dir::E));
}

#[test]
fn r5_3_cavalry_in_contact_may_not_pass_through_squares_next_to_an_enemy() {
    // Cavalry on c2 touches c3. b2 and d2 touch no enemy, b3 and d3 touch c3: it may go on through b2 and d2,
    // never into b3 or d3.
    let mut b = ScenarioBuilder::open(5, 5).unit("A cav c2 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    let reach = move_squares(&b);
    assert_eq!(reach, names(&["a2", "b1", "b2", "c1", "d1", "d2", "e2"]));
}

// ---------------------------------------------------------------- R5.4

#[test]
fn r5_4_a_unit_ending_next_to_an_enemy_must_face_one_of_them() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf d2 W").unit("B inf b2 E").battle();
    start(&mut b, u(0));
    // c2 touches both enemies: it may face either, nothing else.
    assert_eq!(move_facings(&b, "c2"), [Dir::E, Dir::W].into_iter().collect());
    refused(&mut b, Action::Move { to: sq("c2"), facing: Dir::N }, "R5.4");
    refused(&mut b, Action::Move { to: sq("c2"), facing: Dir::S }, "R5.4");
    // d1 touches d2 only.
    assert_eq!(move_facings(&b, "d1"), [Dir::N].into_iter().collect());
}

#[test]
fn r5_4_otherwise_the_facing_is_free() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf a5 S").battle();
    start(&mut b, u(0));
    for s in ["b1", "c2", "d1"] {
        assert_eq!(move_facings(&b, s), all_facings(), "{s}");
    }
    act(&mut b, Action::Move { to: sq("c2"), facing: Dir::S });
    assert_eq!(b.unit(u(0)).facing, Dir::S);
}

// ---------------------------------------------------------------- R5.5

#[test]
fn r5_5_a_change_of_facing_alone_is_a_move_and_cancels_the_did_not_move_bonus() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 E").unit("B inf c3 S").battle();
    assert!(b.options().pivot_is_move, "the default");
    start(&mut b, u(0));
    // Fire keeps the facing: turning to fire is not a Fire order.
    refused(&mut b, fire(1, Dir::N), "R5.5");
    let a = b.assess_order(u(0), &Action::MoveFire { to: sq("c1"), facing: Dir::N, target: u(1) }).unwrap();
    assert!(!a.modifiers.contains(Modifier::DidNotMove));
    assert_eq!(a.needed, 5);
}

/// An artillery piece on c1 facing north, a target on e3 (on the diagonal: in the arc facing north or east), and a
/// second enemy far off. The gun fires at e3 once (a miss); returns the battle ready for its next card.
fn ranged_gun() -> pacw_engine::Battle {
    let mut b = ScenarioBuilder::open(6, 6).unit("A art c1 N").unit("B inf e3 W").unit("B inf a6 S").battle();
    start(&mut b, u(0));
    let (_, _, mods) = attack(&act(&mut b, fire(1, Dir::N)));
    assert!(!mods.contains(Modifier::Ranging), "no previous attack");
    roll(&mut b, 1);
    assert_eq!(b.unit(u(0)).ranging_on(), Some(u(1)));
    b
}

#[test]
fn r5_5_a_gun_that_pivots_loses_its_ranging() {
    // Control: no move in between, the bonus applies.
    let mut b = ranged_gun();
    start(&mut b, u(0));
    assert!(attack(&act(&mut b, fire(1, Dir::N))).2.contains(Modifier::Ranging));
    // A pivot is a move (pivot_is_move = true).
    let mut b = ranged_gun();
    start(&mut b, u(0));
    act(&mut b, Action::Move { to: sq("c1"), facing: Dir::E });
    assert_eq!(b.unit(u(0)).ranging_on(), None);
    start(&mut b, u(0));
    let (_, needed, mods) = attack(&act(&mut b, fire(1, Dir::E)));
    assert_mods(&mods, &[]);
    assert_eq!(needed, 5);
}

#[test]
fn r5_5_a_target_that_moves_cancels_the_ranging_bonus() {
    let mut b = ranged_gun();
    // The target steps away and back to the same square.
    start(&mut b, u(1));
    act(&mut b, Action::Move { to: sq("e4"), facing: Dir::W });
    start(&mut b, u(1));
    act(&mut b, Action::Move { to: sq("e3"), facing: Dir::W });
    start(&mut b, u(0));
    assert!(!attack(&act(&mut b, fire(1, Dir::N))).2.contains(Modifier::Ranging));
}

#[test]
fn r5_5_a_target_that_only_turns_has_moved() {
    let mut b = ranged_gun();
    start(&mut b, u(1));
    act(&mut b, Action::Move { to: sq("e3"), facing: Dir::S });
    start(&mut b, u(0));
    assert!(!attack(&act(&mut b, fire(1, Dir::N))).2.contains(Modifier::Ranging));
}

#[test]
fn r5_5_a_retreat_counts_as_a_move_for_the_bonuses() {
    // The gun hits, the target retreats one square; firing again at it is not ranging.
    let mut b = ScenarioBuilder::open(6, 6).unit("A art c1 N").unit("B inf c4 S").unit("B inf a6 S").battle();
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    roll(&mut b, 6);
    let events = roll(&mut b, 6);
    assert!(events.contains(&Event::Retreated { unit: u(1), from: sq("c4"), to: sq("c5") }), "{events:?}");
    assert_eq!(b.unit(u(0)).ranging_on(), None);
    start(&mut b, u(0));
    assert!(!attack(&act(&mut b, fire(1, Dir::N))).2.contains(Modifier::Ranging));
}

#[test]
fn r5_5_a_retreat_is_not_bound_by_the_movement_rules() {
    // The target on c3 retreats to c4, next to another enemy on d4 (zone of control does not stop it),
    // and keeps its facing (not toward the enemy it now touches, R5.4 does not apply).
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit("A inf d4 W").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    act(&mut b, fire(2, Dir::N));
    roll(&mut b, 6);
    let events = roll(&mut b, 1);
    assert!(events.contains(&Event::Retreated { unit: u(2), from: sq("c3"), to: sq("c4") }), "{events:?}");
    assert_eq!(b.unit(u(2)).facing, Dir::S);
}

#[test]
fn r5_5_a_gun_that_retreats_loses_its_own_ranging() {
    // The gun on c1 ranges on c3; the infantry on c3 shoots back on its own card and the gun retreats to d1
    // (south is off the board; east comes before west). Firing again at c3 from d1 is not ranging.
    let mut b = ScenarioBuilder::open(5, 5).unit("A art c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    roll(&mut b, 1);
    assert_eq!(b.unit(u(0)).ranging_on(), Some(u(1)));
    start(&mut b, u(1));
    act(&mut b, fire(0, Dir::S));
    roll(&mut b, 6);
    let events = roll(&mut b, 3);
    assert!(events.contains(&Event::Retreated { unit: u(0), from: sq("c1"), to: sq("d1") }), "{events:?}");
    assert_eq!(b.unit(u(0)).ranging_on(), None);
    start(&mut b, u(0));
    let (_, needed, mods) = attack(&act(&mut b, fire(1, Dir::N)));
    assert_mods(&mods, &[]);
    assert_eq!(needed, 5);
}

#[test]
fn r5_4_after_fire_and_move_a_unit_may_stay_keeping_its_facing_with_an_enemy_on_its_flank() {
    // Blue infantry on c2 facing N fires at c3 and stays; Grey's d2 is on its east flank. Staying as it is keeps
    // both its square and its facing: it is never forced to turn (R5.4). Turning in place must face an enemy.
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit("B inf c4 S").unit("B inf d2 W").battle();
    start(&mut b, u(0));
    act(&mut b, Action::FireMove { target: u(1) });
    roll(&mut b, 1); // a miss: the target stays, nothing vacated
    let legal = b.legal_actions();
    assert!(legal.contains(&Action::Advance { to: sq("c2"), facing: Dir::N }), "stay, keep facing: {legal:?}");
    assert!(legal.contains(&Action::Advance { to: sq("c2"), facing: Dir::E }), "or turn to the enemy on d2");
    assert!(!legal.contains(&Action::Advance { to: sq("c2"), facing: Dir::W }), "but not away from it (R5.4)");
    refused(&mut b, Action::Advance { to: sq("c2"), facing: Dir::S }, "R5.4");
    act(&mut b, Action::Advance { to: sq("c2"), facing: Dir::N });
    assert_eq!(b.unit(u(0)).facing, Dir::N);
}
