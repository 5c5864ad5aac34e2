//! docs/rules.md R7 (hit results, retreats) and R8 (end of the game and victory).

use crate::common::*;
use pacw_engine::HitResult;
use pacw_engine::{Action, Battle, ChanceKind, Dir, EndReason, Event, GameResult, Side, ToAct};

fn fire(target: u8, facing: Dir) -> Action {
    Action::Fire { target: u(target), facing }
}

/// The unit `attacker` (already activated) fires at `target` with its facing, the die hits, and the target rolls
/// `result`. Returns the events from the hit-result roll.
fn hit(b: &mut Battle, attacker: u8, target: u8, result: u8) -> Vec<Event> {
    let facing = b.unit(u(attacker)).facing;
    act(b, fire(target, facing));
    roll(b, 6);
    roll(b, result)
}

fn result_of(events: &[Event]) -> HitResult {
    events
        .iter()
        .find_map(|e| match e {
            Event::HitResultRolled { result, .. } => Some(*result),
            _ => None,
        })
        .expect("a hit result")
}

// ---------------------------------------------------------------- R7.1

#[test]
fn r7_1_a_steady_target_shot_is_shaken_within_its_strength_and_retreats_above_it() {
    for (die, expected) in
        [(1, HitResult::Shaken), (4, HitResult::Shaken), (5, HitResult::Retreat), (6, HitResult::Retreat)]
    {
        let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
        start(&mut b, u(0));
        let events = hit(&mut b, 0, 1, die);
        assert_eq!(result_of(&events), expected, "die {die}");
        assert!(b.unit(u(1)).alive);
        assert!(b.unit(u(1)).shaken);
        let at = if expected == HitResult::Shaken { "c3" } else { "c4" };
        assert_eq!(b.unit(u(1)).at, sq(at), "die {die}");
    }
}

#[test]
fn r7_1_a_shaken_target_retreats_within_its_strength_and_is_destroyed_above_it() {
    for (die, expected) in [(4, HitResult::Retreat), (5, HitResult::Destroyed)] {
        let mut b = ScenarioBuilder::open(5, 6)
            .exhaustion(Side::B, 2)
            .unit("A inf c1 N")
            .unit("B inf c3 S")
            .unit("B inf a6 S")
            .battle();
        start(&mut b, u(0));
        hit(&mut b, 0, 1, 1);
        assert!(b.unit(u(1)).shaken);
        start(&mut b, u(0));
        let events = hit(&mut b, 0, 1, die);
        assert_eq!(result_of(&events), expected, "die {die}");
        match expected {
            HitResult::Retreat => {
                assert!(events.contains(&Event::Retreated { unit: u(1), from: sq("c3"), to: sq("c4") }));
            }
            _ => {
                assert!(events.contains(&Event::Destroyed { unit: u(1) }));
                assert!(!b.unit(u(1)).alive);
                assert_eq!(b.unit_at(sq("c3")), None);
                assert_eq!(b.destroyed(Side::B), 1);
            }
        }
    }
}

#[test]
fn r7_1_a_charged_target_retreats_within_its_strength_and_is_destroyed_above_it() {
    for (die, expected) in [(1, HitResult::Retreat), (4, HitResult::Retreat), (5, HitResult::Destroyed)] {
        let mut b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit("B inf c3 S").battle();
        start(&mut b, u(0));
        let events = hit(&mut b, 0, 1, die);
        assert_eq!(result_of(&events), expected, "die {die}");
        assert_eq!(b.unit(u(1)).alive, expected == HitResult::Retreat);
    }
}

#[test]
fn r7_1_the_roll_is_against_the_target_strength() {
    // Green cavalry (strength 2) charged: a 3 destroys it. Veteran infantry (5): a 5 only makes it retreat.
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit("B cav c3 S green").battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 1, 3);
    assert!(events.contains(&Event::HitResultRolled {
        unit: u(1),
        roll: 3,
        strength: 2,
        result: HitResult::Destroyed
    }));
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit("B inf c3 S veteran").battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 1, 5);
    assert!(events.contains(&Event::HitResultRolled { unit: u(1), roll: 5, strength: 5, result: HitResult::Retreat }));
}

#[test]
fn r7_1_a_miss_has_no_result() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    let before = *b.unit(u(1));
    let events = roll(&mut b, 3);
    assert_eq!(events[0], Event::ToHitRolled { roll: 3, hit: false });
    assert!(!events.iter().any(|e| matches!(e, Event::HitResultRolled { .. })));
    assert_eq!(b.unit(u(1)).at, before.at);
    assert!(!b.unit(u(1)).shaken);
    assert_ne!(b.to_act(), ToAct::Chance(ChanceKind::HitResult));
}

// ---------------------------------------------------------------- R7.2

#[test]
fn r7_2_a_unit_that_retreats_also_becomes_shaken() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 1, 2);
    let retreat = events.iter().position(|e| matches!(e, Event::Retreated { .. })).expect("retreat");
    let shaken = events.iter().position(|e| *e == Event::Shaken { unit: u(1) }).expect("shaken");
    assert!(retreat < shaken);
    assert!(b.unit(u(1)).shaken);
}

#[test]
fn r7_2_an_already_shaken_unit_that_retreats_stays_shaken() {
    let mut b = ScenarioBuilder::open(5, 6).unit("A inf c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    hit(&mut b, 0, 1, 1);
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 1, 1);
    assert!(events.iter().any(|e| matches!(e, Event::Retreated { .. })));
    assert!(!events.contains(&Event::Shaken { unit: u(1) }), "no second shaken: {events:?}");
    assert!(b.unit(u(1)).shaken);
}

// ---------------------------------------------------------------- R7.3

/// Charges the target on c3 from c2 and makes it retreat; returns where it went, or None if it was destroyed.
fn charged_from_south(setup: ScenarioBuilder) -> Option<String> {
    let mut b = setup.battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 1, 1);
    events.iter().find_map(|e| match e {
        Event::Retreated { unit, to, .. } if *unit == u(1) => Some(to.to_string()),
        _ => None,
    })
}

#[test]
fn r7_3_retreat_prefers_straight_away_then_home_edge() {
    let base = |home_b: &str| ScenarioBuilder::open(5, 5).homes("south", home_b).unit("A inf c2 N").unit("B inf c3 S");
    // Straight away (north) wins even though the unit's home is east.
    assert_eq!(charged_from_south(base("east")).as_deref(), Some("c4"));
    // Straight away blocked: toward the home edge, east or west.
    assert_eq!(charged_from_south(base("east").unit("B inf c4 S")).as_deref(), Some("d3"));
    assert_eq!(charged_from_south(base("west").unit("B inf c4 S")).as_deref(), Some("b3"));
    // Home north: neither d3 nor b3 is nearer to it: the fixed order N, E, S, W gives east.
    assert_eq!(charged_from_south(base("north").unit("B inf c4 S")).as_deref(), Some("d3"));
}

#[test]
fn r7_3_straight_away_is_along_the_axis_of_the_larger_offset() {
    // A gun on a1 hits b4 (offset 1 east, 3 north): straight away is north (b5), even with the home edge east.
    let mut b = ScenarioBuilder::open(5, 5).homes("south", "east").unit("A art a1 N").unit("B inf b4 S").battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 1, 6);
    assert!(events.contains(&Event::Retreated { unit: u(1), from: sq("b4"), to: sq("b5") }), "{events:?}");
    // Offset 3 east, 1 north from the gun on a2 facing east: straight away is east.
    let mut b = ScenarioBuilder::open(6, 5).homes("south", "north").unit("A art a2 E").unit("B inf d3 W").battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 1, 6);
    assert!(events.contains(&Event::Retreated { unit: u(1), from: sq("d3"), to: sq("e3") }), "{events:?}");
}

#[test]
fn r7_3_at_an_exact_diagonal_either_axis_is_straight_away() {
    // A gun on a1 hits c3 (offset 2, 2): c4 (north) and d3 (east) are both straight away.
    let hit_c3 = |home_b: &str, extra: Option<&str>| {
        let mut setup = ScenarioBuilder::open(5, 5).homes("south", home_b).unit("A art a1 N").unit("B inf c3 S");
        if let Some(e) = extra {
            setup = setup.unit(e);
        }
        let mut b = setup.battle();
        start(&mut b, u(0));
        let events = hit(&mut b, 0, 1, 6);
        events
            .iter()
            .find_map(|e| match e {
                Event::Retreated { unit, to, .. } if *unit == u(1) => Some(to.to_string()),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(hit_c3("east", None), "d3", "both straight; east is toward home");
    assert_eq!(hit_c3("north", None), "c4", "both straight; north is toward home");
    assert_eq!(hit_c3("west", None), "c4", "both straight, neither toward home: N before E");
    // With c4 held, the other straight square is taken.
    assert_eq!(hit_c3("west", Some("B inf c4 S")), "d3");
}

#[test]
fn r7_3_a_retreat_square_must_be_farther_from_the_attacker() {
    // Shot from b1 at c2 (offset 1, 1): c3 and d2 are farther; c1 and b2 are not. With c3 and d2 held, the unit
    // cannot retreat even though c1 and b2 are empty.
    let mut b = ScenarioBuilder::open(5, 5)
        .exhaustion(Side::B, 3)
        .unit("A inf b1 N")
        .unit("B inf c2 S")
        .unit("B inf c3 S")
        .unit("B inf d2 S")
        .battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 1, 6);
    assert!(events.contains(&Event::RetreatBlocked { unit: u(1) }), "{events:?}");
    assert!(events.contains(&Event::Destroyed { unit: u(1) }));
}

#[test]
fn r7_3_a_retreat_is_never_off_the_board_or_into_a_river() {
    // Charged from c3 at c4 on the north edge: c5 is off the board, d4 is river: b4, though the home is east.
    let mut b = ScenarioBuilder::open(5, 4)
        .terrain_at(&["d4"], '~')
        .homes("south", "east")
        .unit("A inf c3 N")
        .unit("B inf c4 S")
        .battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 1, 1);
    assert!(events.contains(&Event::Retreated { unit: u(1), from: sq("c4"), to: sq("b4") }), "{events:?}");
}

#[test]
fn r7_3_a_retreat_keeps_the_facing_and_ignores_zone_of_control() {
    // c3 retreats to c4, next to the attacker's friend on d4 and b4, keeping its facing south.
    let mut b = ScenarioBuilder::open(5, 5)
        .unit("A inf c2 N")
        .unit("A inf d4 W")
        .unit("A inf b4 E")
        .unit("B inf c3 S")
        .battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 3, 1);
    assert!(events.contains(&Event::Retreated { unit: u(3), from: sq("c3"), to: sq("c4") }), "{events:?}");
    assert_eq!(b.unit(u(3)).facing, Dir::S);
}

// ---------------------------------------------------------------- R7.4

#[test]
fn r7_4_a_unit_that_must_retreat_and_cannot_is_destroyed() {
    // The target in the corner a4, charged from a3: b4 is held by a friend.
    let mut b = ScenarioBuilder::open(4, 4)
        .exhaustion(Side::B, 2)
        .unit("A inf a3 N")
        .unit("B inf a4 S")
        .unit("B inf b4 S")
        .battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 1, 1);
    let blocked = events.iter().position(|e| *e == Event::RetreatBlocked { unit: u(1) }).expect("blocked");
    let destroyed = events.iter().position(|e| *e == Event::Destroyed { unit: u(1) }).expect("destroyed");
    assert!(blocked < destroyed);
    assert!(!b.unit(u(1)).alive);
    assert_eq!(b.destroyed(Side::B), 1);
}

// ---------------------------------------------------------------- R8.1

#[test]
fn r8_1_default_exhaustion_point_is_half_the_starting_units_rounded_up() {
    let s = ScenarioBuilder::open(6, 6)
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("A inf c1 N")
        .unit("B inf a6 S")
        .unit("B inf b6 S")
        .unit("B inf c6 S")
        .unit("B inf d6 S")
        .scenario();
    assert_eq!(s.sides[0].exhaustion, 2);
    assert_eq!(s.sides[1].exhaustion, 2);
    let s = ScenarioBuilder::open(6, 6)
        .exhaustion(Side::A, 3)
        .unit("A inf a1 N")
        .unit("A inf b1 N")
        .unit("A inf c1 N")
        .unit("B inf a6 S")
        .scenario();
    assert_eq!(s.sides[0].exhaustion, 3);
    assert_eq!(s.sides[1].exhaustion, 1);
}

#[test]
fn r8_1_exhaustion_ends_the_game_after_the_attack() {
    // B has three units (exhaustion 2). A first loss does not end the game; the second, by a Fire & Move charge,
    // ends it at once: no move after the attack, and A wins.
    let mut b = ScenarioBuilder::open(5, 5)
        .unit("A inf c2 N")
        .unit("A inf a3 N")
        .unit("B inf c3 S")
        .unit("B inf e5 S")
        .unit("B inf a5 S")
        .battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 2, 6);
    assert!(events.contains(&Event::Destroyed { unit: u(2) }));
    assert!(b.result().is_none(), "one loss of two: not exhausted yet");
    start(&mut b, u(1));
    act(&mut b, Action::Move { to: sq("a4"), facing: Dir::N });
    start(&mut b, u(1));
    act(&mut b, Action::FireMove { target: u(4) });
    roll(&mut b, 6);
    let events = roll(&mut b, 6);
    assert!(events.contains(&Event::Destroyed { unit: u(4) }));
    let result = match events.last() {
        Some(Event::GameOver { result }) => *result,
        other => panic!("the game must end with the attack, last event {other:?}"),
    };
    assert_eq!((result.winner, result.reason), (Some(Side::A), EndReason::Exhaustion(Side::B)));
    assert_eq!(b.to_act(), ToAct::Over(result));
    assert!(b.legal_actions().is_empty(), "no Advance after the attack");
    refused(&mut b, Action::Advance { to: sq("a5"), facing: Dir::N }, "R8");
    assert_eq!(b.unit(u(1)).at, sq("a4"));
}

#[test]
fn r8_1_the_exhaustion_point_is_set_by_the_scenario() {
    // B, two units, exhaustion 2: the first loss does not end the game.
    let mut b = ScenarioBuilder::open(5, 5)
        .exhaustion(Side::B, 2)
        .unit("A inf c2 N")
        .unit("B inf c3 S")
        .unit("B inf e5 S")
        .battle();
    start(&mut b, u(0));
    hit(&mut b, 0, 1, 6);
    assert_eq!(b.destroyed(Side::B), 1);
    assert_eq!(b.result(), None);
    // With exhaustion 1 it does.
    let mut b = ScenarioBuilder::open(5, 5)
        .exhaustion(Side::B, 1)
        .unit("A inf c2 N")
        .unit("B inf c3 S")
        .unit("B inf e5 S")
        .battle();
    start(&mut b, u(0));
    hit(&mut b, 0, 1, 6);
    assert_eq!(b.result().map(|r| (r.winner, r.reason)), Some((Some(Side::A), EndReason::Exhaustion(Side::B))));
}

// ---------------------------------------------------------------- R8.2

#[test]
fn r8_2_the_game_ends_on_points_when_the_last_turn_ends() {
    // Two turns; an objective held by A from the start scores 3.
    let mut b = ScenarioBuilder::open(5, 5)
        .turns(2)
        .objective("c3", 3, Some(Side::A))
        .unit("A inf a1 N")
        .unit("B inf e5 S")
        .battle();
    let events = joker(&mut b);
    assert!(events.contains(&Event::TurnStarted { turn: 2, iv: [1, 1] }));
    assert_eq!(b.result(), None);
    let events = joker(&mut b);
    let result = GameResult { winner: Some(Side::A), reason: EndReason::TurnLimit, points: [3, 0] };
    assert_eq!(
        events,
        vec![
            Event::CardDrawn { card: pacw_engine::Card::Joker, left: 12 },
            Event::TurnEnded { turn: 2 },
            Event::GameOver { result }
        ]
    );
    assert_eq!(b.to_act(), ToAct::Over(result));
}

#[test]
fn r8_2_objective_held_by_last_side_to_end_an_activation_on_it() {
    let mut b =
        ScenarioBuilder::open(5, 5).turns(1).objective("c2", 1, None).unit("A cav c1 N").unit("B inf e5 S").battle();
    assert_eq!(b.objective_holders(), vec![None]);
    // Passing through does not take it.
    start(&mut b, u(0));
    act(&mut b, Action::Move { to: sq("c3"), facing: Dir::N });
    assert_eq!(b.objective_holders(), vec![None]);
    // Ending an activation on it does, and it stays A's after A leaves.
    start(&mut b, u(0));
    let events = act(&mut b, Action::Move { to: sq("c2"), facing: Dir::N });
    assert!(events.contains(&Event::ObjectiveTaken { at: sq("c2"), side: Side::A }));
    start(&mut b, u(0));
    act(&mut b, Action::Move { to: sq("a2"), facing: Dir::N });
    assert_eq!(b.objective_holders(), vec![Some(Side::A)]);
    assert_eq!(b.points(), [1, 0]);
    let events = joker(&mut b);
    assert!(events.contains(&Event::GameOver {
        result: GameResult { winner: Some(Side::A), reason: EndReason::TurnLimit, points: [1, 0] }
    }));
}

#[test]
fn r8_2_an_objective_is_held_by_the_side_occupying_it() {
    // Scenario holder A, but a B unit stands on it: B holds it while there.
    let b =
        ScenarioBuilder::open(5, 5).objective("c3", 2, Some(Side::A)).unit("A inf a1 N").unit("B inf c3 S").battle();
    assert_eq!(b.objective_holders(), vec![Some(Side::B)]);
    assert_eq!(b.points(), [0, 2]);
}

#[test]
fn r8_2_a_retreat_ending_on_an_objective_takes_it() {
    let mut b =
        ScenarioBuilder::open(5, 5).objective("c4", 1, Some(Side::A)).unit("A inf c2 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    let events = hit(&mut b, 0, 1, 1);
    assert!(events.contains(&Event::ObjectiveTaken { at: sq("c4"), side: Side::B }), "{events:?}");
    // The retreating unit is then destroyed elsewhere... here it simply moves off: B still holds it.
    start(&mut b, u(1));
    act(&mut b, Action::Move { to: sq("d4"), facing: Dir::S });
    assert_eq!(b.objective_holders(), vec![Some(Side::B)]);
}

#[test]
fn r8_2_an_objective_nobody_ended_on_is_held_by_the_scenario_holder_if_any() {
    // A unit that merely starts on the objective and leaves it does not change the holder.
    let mut b = ScenarioBuilder::open(5, 5)
        .objective("c3", 1, Some(Side::B))
        .objective("a3", 1, None)
        .unit("A inf c3 N")
        .unit("B inf e5 S")
        .battle();
    start(&mut b, u(0));
    act(&mut b, Action::Move { to: sq("b3"), facing: Dir::N });
    assert_eq!(b.objective_holders(), vec![Some(Side::B), None]);
}

#[test]
fn r8_2_destroyed_enemies_score_and_equal_points_is_a_draw() {
    // A destroys one B unit (2 points each); B holds an objective worth 2: a draw.
    let mut b = ScenarioBuilder::open(5, 5)
        .turns(1)
        .points_per_destroyed(2)
        .exhaustion(Side::B, 2)
        .objective("e5", 2, Some(Side::B))
        .unit("A inf c2 N")
        .unit("B inf c3 S")
        .unit("B inf a5 S")
        .battle();
    start(&mut b, u(0));
    hit(&mut b, 0, 1, 6);
    assert_eq!(b.points(), [2, 2]);
    let events = joker(&mut b);
    assert!(
        events.contains(&Event::GameOver {
            result: GameResult { winner: None, reason: EndReason::TurnLimit, points: [2, 2] }
        }),
        "{events:?}"
    );
}

#[test]
fn r8_2_points_per_destroyed_defaults_to_one() {
    let mut b = ScenarioBuilder::open(5, 5)
        .turns(1)
        .exhaustion(Side::B, 2)
        .unit("A inf c2 N")
        .unit("B inf c3 S")
        .unit("B inf a5 S")
        .battle();
    start(&mut b, u(0));
    hit(&mut b, 0, 1, 6);
    assert_eq!(b.points(), [1, 0]);
    let events = joker(&mut b);
    assert!(events.contains(&Event::GameOver {
        result: GameResult { winner: Some(Side::A), reason: EndReason::TurnLimit, points: [1, 0] }
    }));
}

#[test]
fn r8_2_without_cards_the_last_turn_ends_when_every_unit_has_been_activated() {
    let options = pacw_engine::Options { initiative: pacw_engine::Initiative::Igougo, ..Default::default() };
    let mut b = ScenarioBuilder::open(5, 5)
        .turns(1)
        .objective("a2", 1, None)
        .unit("A inf a1 N")
        .unit("B inf e5 S")
        .battle_with(options);
    roll(&mut b, 6);
    roll(&mut b, 2);
    activate(&mut b, u(0));
    act(&mut b, Action::Move { to: sq("a2"), facing: Dir::N });
    assert_eq!(b.result(), None);
    activate(&mut b, u(1));
    let events = act(&mut b, Action::Hold);
    assert!(
        events.contains(&Event::GameOver {
            result: GameResult { winner: Some(Side::A), reason: EndReason::TurnLimit, points: [1, 0] }
        }),
        "{events:?}"
    );
}
