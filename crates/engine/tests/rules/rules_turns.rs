//! docs/rules.md R3 (turns and initiative) and R4 (activation).

use crate::common::*;
use pacw_engine::Modifier;
use pacw_engine::{Action, Card, ChanceKind, Dir, Event, Options, Outcome, Prob, Side, ToAct};

fn fire(target: u8, facing: Dir) -> Action {
    Action::Fire { target: u(target), facing }
}

fn card(side: Side, value: u8) -> Card {
    Card::Side { side, value }
}

// ---------------------------------------------------------------- R3.1

#[test]
fn r3_1_initiative_value_is_half_the_units_on_the_board_rounded_up() {
    let b = ScenarioBuilder::open(6, 6)
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("A inf c1 N")
        .unit("A inf d1 N")
        .unit("A inf e1 N")
        .unit("B inf a6 S")
        .unit("B inf b6 S")
        .battle();
    assert_eq!(b.initiative_values(), [3, 1]);
    let b = ScenarioBuilder::open(6, 6)
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("A inf c1 N")
        .unit("A inf d1 N")
        .unit("B inf a6 S")
        .battle();
    assert_eq!(b.initiative_values(), [2, 1], "one unit still gives 1");
}

// ---------------------------------------------------------------- R3.2

#[test]
fn r3_2_the_deck_holds_two_cards_of_iv_minus_1_iv_and_iv_plus_1_a_side_and_one_joker() {
    let b = ScenarioBuilder::open(6, 6)
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("A inf c1 N")
        .unit("A inf d1 N")
        .unit("A inf e1 N")
        .unit("B inf a6 S")
        .unit("B inf b6 S")
        .battle();
    assert_eq!(b.deck().len(), 13);
    let mut outcomes = b.chance_outcomes();
    outcomes.sort_by_key(|(o, _)| format!("{o}"));
    let mut expected = vec![
        (Outcome::Card(card(Side::A, 2)), Prob::new(2, 13)),
        (Outcome::Card(card(Side::A, 3)), Prob::new(2, 13)),
        (Outcome::Card(card(Side::A, 4)), Prob::new(2, 13)),
        // IV 1: max(IV−1, 1) = 1 = IV, so four 1s, and two 2s.
        (Outcome::Card(card(Side::B, 1)), Prob::new(4, 13)),
        (Outcome::Card(card(Side::B, 2)), Prob::new(2, 13)),
        (Outcome::Card(Card::Joker), Prob::new(1, 13)),
    ];
    expected.sort_by_key(|(o, _)| format!("{o}"));
    assert_eq!(outcomes, expected);
}

// ---------------------------------------------------------------- R3.3

#[test]
fn r3_3_cards_are_drawn_one_at_a_time_at_random_from_those_left() {
    let mut b = ScenarioBuilder::open(4, 4).unit("A inf a1 N").unit("A inf b1 N").unit("B inf d4 S").battle();
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card));
    assert!(b.legal_actions().is_empty(), "no side acts while a card is to be drawn");
    let events = draw(&mut b, Side::A, 2);
    assert_eq!(events[0], Event::CardDrawn { card: card(Side::A, 2), left: 12 });
    act(&mut b, Action::EndActivations);
    // The drawn card is gone: one A2 is left out of twelve.
    let outcomes = b.chance_outcomes();
    assert!(outcomes.contains(&(Outcome::Card(card(Side::A, 2)), Prob::new(1, 12))), "{outcomes:?}");
    let total: Prob = outcomes.iter().map(|(_, p)| *p).sum();
    assert_eq!(total, Prob::new(1, 1));
    draw(&mut b, Side::A, 2);
    act(&mut b, Action::EndActivations);
    // No A2 is left: drawing one is refused and nothing changes.
    assert!(!b.chance_outcomes().iter().any(|(o, _)| *o == Outcome::Card(card(Side::A, 2))));
    chance_refused(&mut b, Outcome::Card(card(Side::A, 2)), "R3.3");
    chance_refused(&mut b, Outcome::Card(card(Side::A, 7)), "R3.3");
}

// ---------------------------------------------------------------- R3.4

#[test]
fn r3_4_a_card_of_value_n_activates_up_to_n_different_units() {
    let mut b = ScenarioBuilder::open(5, 5)
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("A inf c1 N")
        .unit("B inf e5 S")
        .battle();
    draw(&mut b, Side::A, 2);
    assert_eq!(b.to_act(), ToAct::Side(Side::A));
    assert_eq!(b.activations_left(), 2);
    let legal = b.legal_actions();
    for unit in [0, 1, 2] {
        assert!(legal.contains(&Action::Activate(u(unit))));
    }
    assert!(legal.contains(&Action::EndActivations));
    activate(&mut b, u(0));
    act(&mut b, Action::Hold);
    assert_eq!(b.activations_left(), 1);
    // The same unit a second time on the same card is refused: the units must be different.
    refused(&mut b, Action::Activate(u(0)), "R3.4");
    activate(&mut b, u(1));
    act(&mut b, Action::Hold);
    // Two activations used: the next card is drawn, the third unit waits.
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card));
    assert!(!b.activated_this_turn(u(2)));
}

#[test]
fn r3_4_only_the_side_of_the_card_activates() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf a1 N").unit("B inf e5 S").battle();
    draw(&mut b, Side::A, 1);
    refused(&mut b, Action::Activate(u(1)), "R3.4");
    assert!(!b.legal_actions().contains(&Action::Activate(u(1))));
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf a1 N").unit("B inf e5 S").battle();
    draw(&mut b, Side::B, 1);
    assert_eq!(b.to_act(), ToAct::Side(Side::B));
    refused(&mut b, Action::Activate(u(0)), "R3.4");
}

#[test]
fn r3_4_a_side_may_stop_early() {
    let mut b = ScenarioBuilder::open(5, 5)
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("A inf c1 N")
        .unit("B inf e5 S")
        .battle();
    draw(&mut b, Side::A, 3);
    activate(&mut b, u(0));
    act(&mut b, Action::Hold);
    let events = act(&mut b, Action::EndActivations);
    assert_eq!(events, vec![Event::ActivationsEnded { side: Side::A }]);
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card));
    // Even before activating anyone.
    draw(&mut b, Side::B, 1);
    act(&mut b, Action::EndActivations);
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card));
}

#[test]
fn r3_4_each_activation_is_finished_before_the_next_begins() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf a1 N").unit("A inf b1 N").unit("B inf e5 S").battle();
    draw(&mut b, Side::A, 2);
    activate(&mut b, u(0));
    assert_eq!(b.active_unit(), Some(u(0)));
    let legal = b.legal_actions();
    assert!(!legal.iter().any(|a| matches!(a, Action::Activate(_) | Action::EndActivations)), "{legal:?}");
    refused(&mut b, Action::Activate(u(1)), "R4.2");
    refused(&mut b, Action::EndActivations, "R4.2");
}

#[test]
fn r3_4_a_side_with_fewer_units_than_the_card_stops_when_all_are_activated() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf a1 N").unit("B inf e5 S").battle();
    draw(&mut b, Side::A, 2);
    activate(&mut b, u(0));
    act(&mut b, Action::Hold);
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card));
}

// ---------------------------------------------------------------- R3.5

#[test]
fn r3_5_a_unit_may_be_activated_again_on_a_later_card() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf a1 N").unit("B inf e5 S").battle();
    assert!(!b.options().once_per_turn, "the default is off");
    draw(&mut b, Side::A, 1);
    activate(&mut b, u(0));
    act(&mut b, Action::Move { to: sq("a2"), facing: Dir::N });
    draw(&mut b, Side::A, 1);
    assert!(b.legal_actions().contains(&Action::Activate(u(0))));
    activate(&mut b, u(0));
    act(&mut b, Action::Move { to: sq("a3"), facing: Dir::N });
    assert_eq!(b.unit(u(0)).at, sq("a3"));
    assert_eq!(b.turn(), 1);
}

// ---------------------------------------------------------------- R3.6

#[test]
fn r3_6_the_joker_ends_the_turn_recomputes_iv_and_rebuilds_the_deck() {
    // A starts with 3 units (IV 2); B charges and destroys one, leaving 2 (IV 1).
    let mut b = ScenarioBuilder::open(5, 5)
        .exhaustion(Side::A, 3)
        .unit("A inf c2 N")
        .unit("A inf a1 N")
        .unit("A inf e1 N")
        .unit("B inf c3 S")
        .battle();
    assert_eq!(b.initiative_values(), [2, 1]);
    draw(&mut b, Side::A, 3);
    activate(&mut b, u(1));
    act(&mut b, Action::Hold);
    act(&mut b, Action::EndActivations);
    start(&mut b, u(3));
    act(&mut b, fire(0, Dir::S));
    roll(&mut b, 6);
    let events = roll(&mut b, 6);
    assert!(events.contains(&Event::Destroyed { unit: u(0) }));
    assert_eq!(b.turn(), 1);
    assert_eq!(b.deck().len(), 11);
    let events = joker(&mut b);
    assert_eq!(
        events,
        vec![
            Event::CardDrawn { card: Card::Joker, left: 10 },
            Event::TurnEnded { turn: 1 },
            Event::TurnStarted { turn: 2, iv: [1, 1] }
        ]
    );
    assert_eq!(b.turn(), 2);
    assert_eq!(b.deck().len(), 13);
    assert_eq!(b.deck().count(card(Side::A, 1)), 4);
    assert_eq!(b.deck().count(card(Side::A, 2)), 2);
    assert_eq!(b.deck().count(card(Side::A, 3)), 0);
    assert_eq!(b.deck().count(Card::Joker), 1);
    assert!(!b.activated_this_turn(u(1)));
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card));
}

// ---------------------------------------------------------------- R3.7

fn igougo() -> Options {
    Options { initiative: pacw_engine::Initiative::Igougo, ..Options::default() }
}

fn alternate() -> Options {
    Options { initiative: pacw_engine::Initiative::Alternate, ..Options::default() }
}

#[test]
fn r3_7_igougo_the_higher_roll_activates_each_unit_once_then_the_other_side() {
    let mut b = ScenarioBuilder::open(5, 5)
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("B inf d5 S")
        .unit("B inf e5 S")
        .battle_with(igougo());
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Initiative(Side::A)));
    roll(&mut b, 3);
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Initiative(Side::B)));
    // A tie is rolled again.
    roll(&mut b, 3);
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Initiative(Side::A)));
    roll(&mut b, 2);
    let events = roll(&mut b, 5);
    assert_eq!(
        events,
        vec![Event::InitiativeRolled { side: Side::B, roll: 5 }, Event::InitiativeWon { side: Side::B }]
    );
    assert_eq!(b.to_act(), ToAct::Side(Side::B));
    assert_eq!(b.legal_actions(), vec![Action::Activate(u(2)), Action::Activate(u(3)), Action::EndActivations]);
    activate(&mut b, u(2));
    act(&mut b, Action::Hold);
    // Each unit once only.
    refused(&mut b, Action::Activate(u(2)), "R3.7");
    refused(&mut b, Action::Activate(u(0)), "R3.4");
    activate(&mut b, u(3));
    act(&mut b, Action::Hold);
    // Then the other side, all its units.
    assert_eq!(b.to_act(), ToAct::Side(Side::A));
    activate(&mut b, u(0));
    act(&mut b, Action::Hold);
    assert_eq!(b.to_act(), ToAct::Side(Side::A));
    activate(&mut b, u(1));
    let events = act(&mut b, Action::Hold);
    // Every unit has been activated: the turn ends and the next begins with new rolls.
    assert!(events.contains(&Event::TurnEnded { turn: 1 }), "{events:?}");
    assert_eq!(b.turn(), 2);
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Initiative(Side::A)));
}

#[test]
fn r3_7_igougo_a_side_that_passes_hands_over_and_the_turn_ends_when_both_are_done() {
    let mut b =
        ScenarioBuilder::open(5, 5).unit("A inf a1 N").unit("A inf b1 N").unit("B inf e5 S").battle_with(igougo());
    roll(&mut b, 6);
    roll(&mut b, 1);
    assert_eq!(b.to_act(), ToAct::Side(Side::A));
    activate(&mut b, u(0));
    act(&mut b, Action::Hold);
    act(&mut b, Action::EndActivations);
    assert_eq!(b.to_act(), ToAct::Side(Side::B));
    activate(&mut b, u(2));
    let events = act(&mut b, Action::Hold);
    assert!(events.contains(&Event::TurnEnded { turn: 1 }), "{events:?}");
    assert_eq!(b.turn(), 2);
}

#[test]
fn r3_7_alternate_the_winner_activates_one_unit_then_the_sides_alternate() {
    let mut b = ScenarioBuilder::open(5, 5)
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("A inf c1 N")
        .unit("B inf e5 S")
        .battle_with(alternate());
    roll(&mut b, 4);
    roll(&mut b, 4); // tie: again
    roll(&mut b, 5);
    let events = roll(&mut b, 2);
    assert!(events.contains(&Event::InitiativeWon { side: Side::A }));
    assert_eq!(b.to_act(), ToAct::Side(Side::A));
    activate(&mut b, u(0));
    act(&mut b, Action::Hold);
    assert_eq!(b.to_act(), ToAct::Side(Side::B), "one unit, then the other side");
    activate(&mut b, u(3));
    act(&mut b, Action::Hold);
    // B has no unit left to activate: it passes, A goes on one unit at a time.
    assert_eq!(b.to_act(), ToAct::Side(Side::A));
    refused(&mut b, Action::Activate(u(0)), "R3.7");
    activate(&mut b, u(1));
    act(&mut b, Action::Hold);
    assert_eq!(b.to_act(), ToAct::Side(Side::A));
    activate(&mut b, u(2));
    let events = act(&mut b, Action::Hold);
    assert!(events.contains(&Event::TurnEnded { turn: 1 }), "{events:?}");
    assert_eq!(b.turn(), 2);
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Initiative(Side::A)));
}

#[test]
fn r3_7_alternate_a_side_that_passes_lets_the_other_finish() {
    let mut b = ScenarioBuilder::open(5, 5)
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("B inf d5 S")
        .unit("B inf e5 S")
        .battle_with(alternate());
    roll(&mut b, 1);
    roll(&mut b, 6);
    assert_eq!(b.to_act(), ToAct::Side(Side::B));
    activate(&mut b, u(2));
    act(&mut b, Action::Hold);
    assert_eq!(b.to_act(), ToAct::Side(Side::A));
    act(&mut b, Action::EndActivations);
    assert_eq!(b.to_act(), ToAct::Side(Side::B));
    activate(&mut b, u(3));
    let events = act(&mut b, Action::Hold);
    assert!(events.contains(&Event::TurnEnded { turn: 1 }), "{events:?}");
}

// ---------------------------------------------------------------- R4.1

#[test]
fn r4_1_activation_removes_shaken_at_once_before_the_order() {
    let mut b = ScenarioBuilder::open(4, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    roll(&mut b, 6);
    roll(&mut b, 1);
    assert!(b.unit(u(1)).shaken);
    let events = start(&mut b, u(1));
    assert!(events.contains(&Event::Activated { unit: u(1), rallied: true }));
    // Already steady while it is choosing its order.
    assert_eq!(b.active_unit(), Some(u(1)));
    assert!(!b.unit(u(1)).shaken);
    act(&mut b, Action::Hold);
    assert!(!b.unit(u(1)).shaken);
    // A steady unit is not "rallied".
    let events = start(&mut b, u(0));
    assert!(events.contains(&Event::Activated { unit: u(0), rallied: false }));
}

// ---------------------------------------------------------------- R4.2

#[test]
fn r4_2_hold_does_nothing() {
    let mut b = ScenarioBuilder::open(4, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    let before = *b.unit(u(0));
    let events = act(&mut b, Action::Hold);
    assert_eq!(events, vec![Event::Held { unit: u(0) }]);
    assert_eq!(*b.unit(u(0)), before);
    assert_eq!(*b.unit(u(1)), *ScenarioBuilder::open(4, 5).unit("A inf c1 N").unit("B inf c3 S").battle().unit(u(1)));
}

#[test]
fn r4_2_every_order_is_open_to_all_arms_except_that_artillery_does_not_move_and_fire() {
    for (arm, attacks_moving) in [("inf", true), ("cav", true), ("art", false)] {
        // The enemy is straight ahead at distance 1 so that every arm can attack it without moving.
        let mut b = ScenarioBuilder::open(5, 5).unit(&format!("A {arm} c2 N")).unit("B inf c3 S").battle();
        start(&mut b, u(0));
        let legal = b.legal_actions();
        assert!(legal.contains(&Action::Hold), "{arm}");
        assert!(legal.iter().any(|a| matches!(a, Action::Move { .. })), "{arm}");
        assert!(legal.contains(&fire(1, Dir::N)), "{arm}");
        assert_eq!(legal.contains(&Action::FireMove { target: u(1) }), attacks_moving, "{arm}");
        // Two squares away, a step forward brings every arm into range.
        let mut b = ScenarioBuilder::open(5, 5).unit(&format!("A {arm} c1 N")).unit("B inf c3 S").battle();
        start(&mut b, u(0));
        let step_and_fire = Action::MoveFire { to: sq("c2"), facing: Dir::N, target: u(1) };
        assert_eq!(b.legal_actions().contains(&step_and_fire), attacks_moving, "{arm}");
    }
}

#[test]
fn r4_2_move_moves_up_to_the_allowance_then_chooses_the_facing() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A cav c1 N").unit("B inf a5 S").battle();
    start(&mut b, u(0));
    let events = act(&mut b, Action::Move { to: sq("d2"), facing: Dir::W });
    assert_eq!(events[0], Event::Moved { unit: u(0), from: sq("c1"), to: sq("d2"), facing: Dir::W });
    assert_eq!((b.unit(u(0)).at, b.unit(u(0)).facing), (sq("d2"), Dir::W));
    // A move of less than the allowance, or only a change of facing, is a Move too.
    start(&mut b, u(0));
    act(&mut b, Action::Move { to: sq("d2"), facing: Dir::S });
    assert_eq!((b.unit(u(0)).at, b.unit(u(0)).facing), (sq("d2"), Dir::S));
}

#[test]
fn r4_2_fire_stays_in_place_keeps_its_facing_and_has_the_did_not_move_bonus() {
    let mut b = ScenarioBuilder::open(4, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    let events = act(&mut b, fire(1, Dir::N));
    let (charge, needed, mods) = attack(&events);
    assert!(!charge);
    assert_mods(&mods, &[Modifier::DidNotMove]);
    assert_eq!(needed, 4);
    assert!(!events.iter().any(|e| matches!(e, Event::Moved { .. })));
    assert_eq!((b.unit(u(0)).at, b.unit(u(0)).facing), (sq("c1"), Dir::N));
    // With pivot_is_move (the default) Fire may not change facing.
    let mut b = ScenarioBuilder::open(4, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    refused(&mut b, fire(1, Dir::E), "R5.5");
}

#[test]
fn r4_2_fire_gives_artillery_no_did_not_move_bonus() {
    let mut b = ScenarioBuilder::open(4, 6).unit("A art c1 N").unit("B inf c4 S").battle();
    start(&mut b, u(0));
    let (_, needed, mods) = attack(&act(&mut b, fire(1, Dir::N)));
    assert_mods(&mods, &[]);
    assert_eq!(needed, 5);
}

#[test]
fn r4_2_move_and_fire_moves_at_most_one_square_or_turns_then_attacks_without_the_bonus() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c4 S").battle();
    start(&mut b, u(0));
    refused(&mut b, Action::MoveFire { to: sq("c3"), facing: Dir::N, target: u(1) }, "R2.6");
    let events = act(&mut b, Action::MoveFire { to: sq("c2"), facing: Dir::N, target: u(1) });
    assert_eq!(events[0], Event::Moved { unit: u(0), from: sq("c1"), to: sq("c2"), facing: Dir::N });
    let (charge, needed, mods) = attack(&events);
    assert!(!charge);
    assert_mods(&mods, &[]);
    assert_eq!(needed, 5);
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::ToHit));
    // A change of facing alone, then an attack.
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 E").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    let events = act(&mut b, Action::MoveFire { to: sq("c1"), facing: Dir::N, target: u(1) });
    assert_eq!(events[0], Event::Moved { unit: u(0), from: sq("c1"), to: sq("c1"), facing: Dir::N });
    let (_, needed, mods) = attack(&events);
    assert_mods(&mods, &[]);
    assert_eq!(needed, 5);
}

#[test]
fn r4_2_fire_and_move_attacks_first_then_may_move_one_square_and_counts_as_moved() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    let events = act(&mut b, Action::FireMove { target: u(1) });
    assert!(!events.iter().any(|e| matches!(e, Event::Moved { .. })), "the attack comes first");
    let (_, needed, mods) = attack(&events);
    assert_mods(&mods, &[]);
    assert_eq!(needed, 5, "no did-not-move bonus");
    assert_eq!(b.unit(u(0)).at, sq("c1"));
    roll(&mut b, 2); // a miss
    assert_eq!(b.to_act(), ToAct::Side(Side::A));
    assert_eq!(b.active_unit(), Some(u(0)));
    let legal = b.legal_actions();
    assert!(legal.iter().all(|a| matches!(a, Action::Advance { .. })), "{legal:?}");
    // One square (c2 is next to the enemy, so it must face it), or stay.
    assert_eq!(advance_squares(&b), names(&["b1", "c1", "c2", "d1"]));
    refused(&mut b, Action::Advance { to: sq("c2"), facing: Dir::E }, "R5.4");
    refused_any(&mut b, Action::Advance { to: sq("b2"), facing: Dir::N }, &["R2.6", "R4.2", "R5", "R5.1"]);
    let events = act(&mut b, Action::Advance { to: sq("c2"), facing: Dir::N });
    assert_eq!(events[0], Event::Moved { unit: u(0), from: sq("c1"), to: sq("c2"), facing: Dir::N });
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card), "the activation is over");
}

#[test]
fn r4_2_fire_and_move_needs_an_enemy_it_could_attack_in_its_front_arc() {
    // The enemy is beside the unit, not in its front arc.
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf e1 W").battle();
    start(&mut b, u(0));
    assert!(!b.legal_actions().iter().any(|a| matches!(a, Action::FireMove { .. })));
    refused(&mut b, Action::FireMove { target: u(1) }, "R6.1");
}

#[test]
fn r4_2_a_unit_carries_out_exactly_one_order() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("A inf a1 N").unit("B inf c3 S").battle();
    draw(&mut b, Side::A, 2);
    activate(&mut b, u(0));
    act(&mut b, Action::Move { to: sq("b1"), facing: Dir::N });
    // The activation is over: no further order for it on this card.
    assert_eq!(b.active_unit(), None);
    refused(&mut b, fire(2, Dir::N), "R3.4");
    refused(&mut b, Action::Activate(u(0)), "R3.4");
}

// ---------------------------------------------------------------- R4.3

#[test]
fn r4_3_artillery_never_moves_and_fires_in_the_same_activation() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A art c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    let legal = b.legal_actions();
    assert!(legal.contains(&fire(1, Dir::N)));
    assert!(!legal.iter().any(|a| matches!(a, Action::MoveFire { .. } | Action::FireMove { .. })));
    refused(&mut b, Action::MoveFire { to: sq("c2"), facing: Dir::N, target: u(1) }, "R4.3");
    refused(&mut b, Action::MoveFire { to: sq("c1"), facing: Dir::E, target: u(1) }, "R4.3");
    refused(&mut b, Action::FireMove { target: u(1) }, "R4.3");
    // A Move ends the activation without an attack.
    let events = act(&mut b, Action::Move { to: sq("b1"), facing: Dir::N });
    assert!(!events.iter().any(|e| matches!(e, Event::Attack { .. })));
    assert_eq!(b.active_unit(), None);
}

#[test]
fn r4_3_there_is_no_artillery_phase_guns_fire_only_when_activated() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A art c1 N").unit("A inf a1 N").unit("B inf c3 S").battle();
    draw(&mut b, Side::A, 1);
    let legal = b.legal_actions();
    assert!(legal.iter().all(|a| matches!(a, Action::Activate(_) | Action::EndActivations)), "{legal:?}");
    refused(&mut b, fire(2, Dir::N), "R3.4");
    activate(&mut b, u(1));
    let events = act(&mut b, Action::Hold);
    assert!(!events.iter().any(|e| matches!(e, Event::Attack { .. })), "{events:?}");
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card));
}

// ---------------------------------------------------------------- R4.4

#[test]
fn r4_4_fire_and_move_may_take_the_ground_its_target_left() {
    // A on c2 charges c3; the target retreats to c4. A is still in contact with the enemy on d2, so by R5.3 it could
    // not move to c3 (next to c4) — but taking ground is allowed.
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit("B inf c3 S").unit("B inf d2 W").battle();
    start(&mut b, u(0));
    act(&mut b, Action::FireMove { target: u(1) });
    roll(&mut b, 6);
    let events = roll(&mut b, 2);
    assert!(events.contains(&Event::Retreated { unit: u(1), from: sq("c3"), to: sq("c4") }), "{events:?}");
    let squares = advance_squares(&b);
    assert!(squares.contains("c3"), "{squares:?}");
    assert_eq!(squares, names(&["b2", "c1", "c2", "c3"]));
    let events = act(&mut b, Action::Advance { to: sq("c3"), facing: Dir::N });
    assert_eq!(events[0], Event::Moved { unit: u(0), from: sq("c2"), to: sq("c3"), facing: Dir::N });
}

#[test]
fn r4_4_the_square_of_a_destroyed_target_may_be_taken() {
    let mut b = ScenarioBuilder::open(5, 5)
        .exhaustion(Side::B, 2)
        .unit("A inf c2 N")
        .unit("B inf c3 S")
        .unit("B inf d2 W")
        .battle();
    start(&mut b, u(0));
    act(&mut b, Action::FireMove { target: u(1) });
    roll(&mut b, 6);
    let events = roll(&mut b, 6);
    assert!(events.contains(&Event::Destroyed { unit: u(1) }));
    assert!(advance_squares(&b).contains("c3"));
    act(&mut b, Action::Advance { to: sq("c3"), facing: Dir::E });
    assert_eq!(b.unit(u(0)).at, sq("c3"));
}

#[test]
fn r4_4_without_a_vacated_square_a_unit_in_contact_keeps_to_r5_3() {
    // A miss: the target stays; c3 is held, b3/d3 are next to the enemy, so only squares out of contact remain.
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    act(&mut b, Action::FireMove { target: u(1) });
    roll(&mut b, 1);
    assert_eq!(advance_squares(&b), names(&["b2", "c1", "c2", "d2"]));
    // A plain Fire never takes ground: the activation ends with the attack.
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    roll(&mut b, 6);
    roll(&mut b, 2);
    assert_eq!(b.unit(u(1)).at, sq("c4"));
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::Card));
}

// ---------------------------------------------------------------- R4.5

#[test]
fn r4_5_move_and_fire_needs_a_destination_and_facing_from_which_the_target_can_be_attacked() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf e2 W").battle();
    start(&mut b, u(0));
    // d1 facing N: e2 is forward 1, sideways 1, distance 2.
    assert!(b.legal_actions().contains(&Action::MoveFire { to: sq("d1"), facing: Dir::N, target: u(1) }));
    // c2 facing N: e2 is beside, not in the arc; facing E it is straight ahead.
    refused(&mut b, Action::MoveFire { to: sq("c2"), facing: Dir::N, target: u(1) }, "R6.1");
    assert!(b.legal_actions().contains(&Action::MoveFire { to: sq("c2"), facing: Dir::E, target: u(1) }));
    // b1: out of range.
    refused(&mut b, Action::MoveFire { to: sq("b1"), facing: Dir::E, target: u(1) }, "R6.1");
}

#[test]
fn r4_5_fire_and_move_names_its_target_first_and_its_move_after_the_dice() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    act(&mut b, Action::FireMove { target: u(1) });
    assert_eq!(b.pending_attack().map(|(a, t, _)| (a, t)), Some((u(0), u(1))));
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::ToHit));
    refused(&mut b, Action::Advance { to: sq("c2"), facing: Dir::N }, "R9.1");
    roll(&mut b, 1);
    assert!(b.is_legal(Action::Advance { to: sq("c2"), facing: Dir::N }));
}
