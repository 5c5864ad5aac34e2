//! docs/rules.md R6 (attacks: range, arc, line of sight, cover, to-hit modifiers).

use crate::common::*;
use pacw_engine::Terrain;
use pacw_engine::{Action, Battle, ChanceKind, Dir, Event, Side, ToAct};
use pacw_engine::{Cover, HitResult, Modifier};

fn fire(target: u8, facing: Dir) -> Action {
    Action::Fire { target: u(target), facing }
}

/// Whether the unit being activated may Fire at `target` with its own facing.
fn can_fire(b: &Battle, target: u8) -> bool {
    let unit = b.active_unit().expect("a unit is active");
    b.legal_actions().contains(&fire(target, b.unit(unit).facing))
}

// ---------------------------------------------------------------- R6.1

#[test]
fn r6_1_an_attack_needs_an_enemy_in_range_in_the_front_arc_and_in_sight() {
    let mut b = ScenarioBuilder::open(5, 6)
        .unit("A inf c2 N")
        .unit("B inf d3 S") // in range 2, in the arc: legal
        .unit("B inf c5 S") // distance 3: out of range
        .unit("B inf e2 W") // distance 2, beside: out of the arc
        .unit("A inf a1 N") // a friend
        .battle();
    start(&mut b, u(0));
    assert!(can_fire(&b, 1));
    refused(&mut b, fire(2, Dir::N), "R6.1");
    refused(&mut b, fire(3, Dir::N), "R6.1");
    refused(&mut b, fire(4, Dir::N), "R6.1");
    let fire_targets: Vec<_> = b
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Fire { target, .. } => Some(target),
            _ => None,
        })
        .collect();
    assert_eq!(fire_targets, vec![u(1)]);
}

#[test]
fn r6_1_an_attack_at_distance_one_is_a_charge_with_the_charge_results() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    let (charge, needed, mods) = attack(&act(&mut b, fire(1, Dir::N)));
    assert!(charge);
    assert_mods(&mods, &[Modifier::DidNotMove]);
    assert_eq!(needed, 4);
    roll(&mut b, 4);
    // A steady target charged: a roll within its strength makes it retreat (not merely shaken).
    let events = roll(&mut b, 3);
    assert!(events.contains(&Event::HitResultRolled { unit: u(1), roll: 3, strength: 4, result: HitResult::Retreat }));
    assert!(events.contains(&Event::Retreated { unit: u(1), from: sq("c3"), to: sq("c4") }));
    // At distance 2 it is shooting.
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    assert!(!attack(&act(&mut b, fire(1, Dir::N))).0);
}

#[test]
fn r6_1_artillery_at_distance_one_is_a_canister_charge() {
    // Canister: a charge, +1; charge results.
    let mut b = ScenarioBuilder::open(5, 5).unit("A art c2 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    let (charge, needed, mods) = attack(&act(&mut b, fire(1, Dir::N)));
    assert!(charge);
    assert_mods(&mods, &[Modifier::Canister]);
    assert_eq!(needed, 4);
    roll(&mut b, 4);
    let events = roll(&mut b, 5);
    assert!(events.contains(&Event::Destroyed { unit: u(1) }), "{events:?}");
    // The flank/rear bonus applies to canister.
    let b = ScenarioBuilder::open(5, 5).unit("A art c2 N").unit("B inf c3 E").battle();
    let a = b.assess_order(u(0), &fire(1, Dir::N)).unwrap();
    assert_mods(&a.modifiers, &[Modifier::Canister, Modifier::FlankCharge]);
    assert_eq!(a.needed, 3);
    // Uphill cover applies to canister.
    let b = ScenarioBuilder::open(5, 5).elevation_at(&["c3"], 1).unit("A art c2 N").unit("B inf c3 S").battle();
    let a = b.assess_order(u(0), &fire(1, Dir::N)).unwrap();
    assert!(a.charge);
    assert_mods(&a.modifiers, &[Modifier::Canister, Modifier::Cover(Cover::Uphill)]);
    assert_eq!(a.needed, 5);
}

#[test]
fn r6_1_a_charge_is_always_made_straight_ahead() {
    // Enemies on the flank and behind are adjacent but not in the front arc.
    let mut b = ScenarioBuilder::open(5, 5)
        .unit("A inf c2 N")
        .unit("B inf d2 W")
        .unit("B inf c1 N")
        .unit("B inf b2 E")
        .battle();
    start(&mut b, u(0));
    for t in [1, 2, 3] {
        refused(&mut b, fire(t, Dir::N), "R6.1");
        refused(&mut b, Action::FireMove { target: u(t) }, "R6.1");
    }
    let b = ScenarioBuilder::open(5, 5).unit("A cav c2 N").unit("B inf d3 W").battle();
    // Cavalry (range 1): d3 is forward 1, sideways 1 but at distance 2.
    assert!(b.assess_order(u(0), &fire(1, Dir::N)).is_err());
}

// ---------------------------------------------------------------- R6.2

#[test]
fn r6_2_woods_or_town_between_the_two_squares_blocks_sight_but_not_at_either_end() {
    for c in ['W', 'T'] {
        let mut b = ScenarioBuilder::open(5, 6).terrain_at(&["c3"], c).unit("A art c1 N").unit("B inf c5 S").battle();
        start(&mut b, u(0));
        refused(&mut b, fire(1, Dir::N), "R6.2");
        // The attacker's own square and the target's square do not block.
        let mut b =
            ScenarioBuilder::open(5, 6).terrain_at(&["c1", "c5"], c).unit("A art c1 N").unit("B inf c5 S").battle();
        start(&mut b, u(0));
        assert!(can_fire(&b, 1), "{c}");
    }
}

#[test]
fn r6_2_a_unit_between_blocks_sight_unless_artillery_fires_from_higher_ground() {
    for friend in [true, false] {
        let blocker = if friend { "A inf c2 N" } else { "B inf c2 S" };
        // Infantry: blocked by any unit between.
        let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 S").unit(blocker).battle();
        start(&mut b, u(0));
        refused(&mut b, fire(1, Dir::N), "R6.2");
        // Artillery on the same level: blocked.
        let mut b = ScenarioBuilder::open(5, 5).unit("A art c1 N").unit("B inf c3 S").unit(blocker).battle();
        start(&mut b, u(0));
        refused(&mut b, fire(1, Dir::N), "R6.2");
        // Artillery higher than the square of the unit between: fires over it.
        let mut b = ScenarioBuilder::open(5, 5)
            .elevation_at(&["c1"], 1)
            .unit("A art c1 N")
            .unit("B inf c3 S")
            .unit(blocker)
            .battle();
        start(&mut b, u(0));
        assert!(can_fire(&b, 1), "artillery on a hill fires over a unit (friend {friend})");
        // Artillery as high as the square between: blocked.
        let mut b = ScenarioBuilder::open(5, 5)
            .elevation_at(&["c1", "c2"], 1)
            .unit("A art c1 N")
            .unit("B inf c3 S")
            .unit(blocker)
            .battle();
        start(&mut b, u(0));
        refused(&mut b, fire(1, Dir::N), "R6.2");
        // Infantry on a hill does not fire over units.
        let mut b = ScenarioBuilder::open(5, 5)
            .elevation_at(&["c1"], 1)
            .unit("A inf c1 N")
            .unit("B inf c3 S")
            .unit(blocker)
            .battle();
        start(&mut b, u(0));
        refused(&mut b, fire(1, Dir::N), "R6.2");
    }
}

#[test]
fn r6_2_a_square_higher_than_both_ends_blocks_sight() {
    let case = |attacker: u8, middle: u8, target: u8| {
        let mut b = ScenarioBuilder::open(5, 6)
            .elevation_at(&["c1"], attacker)
            .elevation_at(&["c3"], middle)
            .elevation_at(&["c5"], target)
            .unit("A art c1 N")
            .unit("B inf c5 S")
            .battle();
        start(&mut b, u(0));
        can_fire(&b, 1)
    };
    assert!(!case(0, 1, 0), "a hill between two low squares blocks");
    assert!(!case(1, 2, 0));
    assert!(case(1, 1, 0), "not higher than the attacker");
    assert!(case(0, 1, 1), "not higher than the target");
    assert!(case(2, 1, 0));
    assert!(case(0, 0, 0));
}

#[test]
fn r6_2_at_an_exact_corner_sight_is_blocked_only_if_both_squares_beside_it_block() {
    // a1 to b2 passes exactly through the corner shared with b1 and a2.
    let case = |woods: &[&str]| {
        let mut b = ScenarioBuilder::open(4, 4).terrain_at(woods, 'W').unit("A inf a1 N").unit("B inf b2 S").battle();
        start(&mut b, u(0));
        can_fire(&b, 1)
    };
    assert!(case(&[]));
    assert!(case(&["b1"]));
    assert!(case(&["a2"]));
    assert!(!case(&["b1", "a2"]));
    // A unit and a wood together block too.
    let mut b = ScenarioBuilder::open(4, 4)
        .terrain_at(&["a2"], 'W')
        .unit("A inf a1 N")
        .unit("B inf b2 S")
        .unit("A inf b1 N")
        .battle();
    start(&mut b, u(0));
    refused(&mut b, fire(1, Dir::N), "R6.2");
}

#[test]
fn r6_2_a_long_diagonal_passes_through_corners_and_square_centres() {
    // a1 to c3: the corner of b1/a2, the centre of b2, the corner of c2/b3.
    let case = |woods: &[&str]| {
        let mut b = ScenarioBuilder::open(5, 5).terrain_at(woods, 'W').unit("A art a1 N").unit("B inf c3 S").battle();
        start(&mut b, u(0));
        can_fire(&b, 1)
    };
    assert!(case(&[]));
    assert!(!case(&["b2"]));
    assert!(case(&["b1"]));
    assert!(!case(&["b1", "a2"]));
    assert!(case(&["c2"]));
    assert!(case(&["b3"]));
    assert!(!case(&["c2", "b3"]));
    assert!(case(&["b1", "b3"]), "one square at each of two corners");
}

#[test]
fn r6_2_the_segment_is_traced_through_every_square_it_crosses() {
    // c1 to d3: the segment crosses c2 and d2 (not only the squares of a straight line).
    for (woods, blocked) in [("c2", true), ("d2", true), ("b2", false), ("c3", false)] {
        let mut b =
            ScenarioBuilder::open(5, 5).terrain_at(&[woods], 'W').unit("A art c1 N").unit("B inf d3 S").battle();
        start(&mut b, u(0));
        assert_eq!(!can_fire(&b, 1), blocked, "woods on {woods}");
    }
}

// ---------------------------------------------------------------- R6.3

#[test]
fn r6_3_a_target_in_woods_town_or_sunken_road_is_in_cover() {
    for (c, t) in [('W', Terrain::Woods), ('T', Terrain::Town), ('S', Terrain::SunkenRoad)] {
        for (attacker, distance) in [("c1", 2), ("c2", 1)] {
            let b = ScenarioBuilder::open(5, 5)
                .terrain_at(&["c3"], c)
                .unit(&format!("A inf {attacker} N"))
                .unit("B inf c3 S")
                .battle();
            let a = b.assess_order(u(0), &fire(1, Dir::N)).unwrap();
            assert_eq!(a.distance, distance);
            assert_mods(&a.modifiers, &[Modifier::DidNotMove, Modifier::Cover(Cover::Terrain(t))]);
            assert_eq!(a.needed, 5);
        }
    }
}

#[test]
fn r6_3_a_charge_against_a_higher_target_is_in_cover_shooting_uphill_is_not() {
    let setup = |attacker: &str| {
        ScenarioBuilder::open(5, 5)
            .elevation_at(&["c3"], 1)
            .unit(&format!("A inf {attacker} N"))
            .unit("B inf c3 S")
            .battle()
    };
    let charge = setup("c2").assess_order(u(0), &fire(1, Dir::N)).unwrap();
    assert_mods(&charge.modifiers, &[Modifier::DidNotMove, Modifier::Cover(Cover::Uphill)]);
    let shot = setup("c1").assess_order(u(0), &fire(1, Dir::N)).unwrap();
    assert_mods(&shot.modifiers, &[Modifier::DidNotMove]);
    // Charging downhill, or on the level, gives no cover.
    let b = ScenarioBuilder::open(5, 5).elevation_at(&["c2"], 1).unit("A inf c2 N").unit("B inf c3 S").battle();
    assert_mods(&b.assess_order(u(0), &fire(1, Dir::N)).unwrap().modifiers, &[Modifier::DidNotMove]);
}

#[test]
fn r6_3_fence_gives_cover_only_against_shooting() {
    let shot = ScenarioBuilder::open(5, 5).fence("c2-c3").unit("A inf c1 N").unit("B inf c3 S").battle();
    let a = shot.assess_order(u(0), &fire(1, Dir::N)).unwrap();
    assert_mods(&a.modifiers, &[Modifier::DidNotMove, Modifier::Cover(Cover::Fence)]);
    assert_eq!(a.needed, 5);
    let charge = ScenarioBuilder::open(5, 5).fence("c2-c3").unit("A inf c2 N").unit("B inf c3 S").battle();
    let a = charge.assess_order(u(0), &fire(1, Dir::N)).unwrap();
    assert!(a.charge);
    assert_mods(&a.modifiers, &[Modifier::DidNotMove]);
}

#[test]
fn r6_3_the_fence_must_be_on_the_target_edge_the_line_of_sight_enters_by() {
    let cover = |fence: &str, target: &str| {
        let b = ScenarioBuilder::open(5, 5).fence(fence).unit("A art c1 N").unit(&format!("B inf {target} S")).battle();
        b.assess_order(u(0), &fire(1, Dir::N)).unwrap().modifiers.contains(Modifier::Cover(Cover::Fence))
    };
    assert!(cover("c2-c3", "c3"));
    assert!(!cover("c3-c4", "c3"), "the far edge of the target");
    assert!(!cover("c1-c2", "c3"), "an edge at the attacker's end");
    assert!(!cover("b3-c3", "c3"), "a side edge the line does not cross");
    // c1 to d3 enters d3 from the south (through d2).
    assert!(cover("d2-d3", "d3"));
    assert!(!cover("c3-d3", "d3"));
}

#[test]
fn r6_3_at_an_exact_corner_either_edge_of_the_target_there_counts() {
    let cover = |fence: &str| {
        let b = ScenarioBuilder::open(4, 4).fence(fence).unit("A inf a1 N").unit("B inf b2 S").battle();
        b.assess_order(u(0), &fire(1, Dir::N)).unwrap().modifiers.contains(Modifier::Cover(Cover::Fence))
    };
    assert!(cover("b1-b2"));
    assert!(cover("a2-b2"));
    assert!(!cover("b2-c2"));
    assert!(!cover("b2-b3"));
}

#[test]
fn r6_3_cover_is_never_counted_twice() {
    // In woods, behind a fence: one −1.
    let b = ScenarioBuilder::open(5, 5)
        .terrain_at(&["c3"], 'W')
        .fence("c2-c3")
        .unit("A inf c1 N")
        .unit("B inf c3 S")
        .battle();
    let a = b.assess_order(u(0), &fire(1, Dir::N)).unwrap();
    assert_eq!(a.modifiers.iter().filter(|m| matches!(m, Modifier::Cover(_))).count(), 1, "{:?}", a.modifiers);
    assert_eq!(a.needed, 5);
    // In woods, uphill of a charge: one −1.
    let b = ScenarioBuilder::open(5, 5)
        .terrain_at(&["c3"], 'W')
        .elevation_at(&["c3"], 1)
        .unit("A inf c2 N")
        .unit("B inf c3 S")
        .battle();
    let a = b.assess_order(u(0), &fire(1, Dir::N)).unwrap();
    assert_eq!(a.modifiers.iter().filter(|m| matches!(m, Modifier::Cover(_))).count(), 1, "{:?}", a.modifiers);
    assert_eq!(a.needed, 5);
}

// ---------------------------------------------------------------- R6.4

#[test]
fn r6_4_to_hit_is_five_or_more_on_a_d6_after_modifiers() {
    // Artillery shooting at an open target: no modifier, 5 needed.
    let mut b = ScenarioBuilder::open(5, 6).unit("A art c1 N").unit("B inf c4 S").battle();
    start(&mut b, u(0));
    let (_, needed, mods) = attack(&act(&mut b, fire(1, Dir::N)));
    assert_mods(&mods, &[]);
    assert_eq!(needed, 5);
    assert_eq!(b.pending_attack(), Some((u(0), u(1), 5)));
    let mut miss = b.clone();
    assert_eq!(roll(&mut miss, 4)[0], Event::ToHitRolled { roll: 4, hit: false });
    assert_eq!(miss.to_act(), ToAct::Chance(ChanceKind::Card));
    assert_eq!(roll(&mut b, 5)[0], Event::ToHitRolled { roll: 5, hit: true });
    assert_eq!(b.to_act(), ToAct::Chance(ChanceKind::HitResult));
}

#[test]
fn r6_4_a_six_always_hits_and_a_one_always_misses() {
    // Base 6, moved, target in woods: 6 + 1 = 7 would be needed; a 6 still hits.
    let mut b = ScenarioBuilder::open(5, 5)
        .option("to_hit = 6")
        .terrain_at(&["c4"], 'W')
        .unit("A inf c1 N")
        .unit("B inf c4 S")
        .battle();
    start(&mut b, u(0));
    let (_, needed, _) = attack(&act(&mut b, Action::MoveFire { to: sq("c2"), facing: Dir::N, target: u(1) }));
    assert_eq!(needed, 6);
    assert_eq!(roll(&mut b, 6)[0], Event::ToHitRolled { roll: 6, hit: true });
    // Base 2, did not move, flank charge: 2 − 2 = 0 would be needed; a 1 still misses.
    let mut b = ScenarioBuilder::open(5, 5).option("to_hit = 2").unit("A inf c2 N").unit("B inf c3 E").battle();
    start(&mut b, u(0));
    let (_, needed, _) = attack(&act(&mut b, fire(1, Dir::N)));
    assert_eq!(needed, 2);
    assert_eq!(roll(&mut b, 1)[0], Event::ToHitRolled { roll: 1, hit: false });
}

#[test]
fn r6_4_did_not_move_bonus_for_fire_only_and_never_for_artillery() {
    let b = ScenarioBuilder::open(5, 5)
        .unit("A inf c1 N")
        .unit("B inf c4 S")
        .unit("A art e1 N")
        .unit("B inf e4 S")
        .battle();
    let fire_ = b.assess_order(u(0), &Action::MoveFire { to: sq("c2"), facing: Dir::N, target: u(1) }).unwrap();
    assert_mods(&fire_.modifiers, &[]);
    let gun = b.assess_order(u(2), &fire(3, Dir::N)).unwrap();
    assert_mods(&gun.modifiers, &[]);
    let b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    assert_mods(&b.assess_order(u(0), &fire(1, Dir::N)).unwrap().modifiers, &[Modifier::DidNotMove]);
    assert_mods(&b.assess_order(u(0), &Action::FireMove { target: u(1) }).unwrap().modifiers, &[]);
}

#[test]
fn r6_4_canister_bonus_is_for_artillery_at_distance_one_only() {
    let b = ScenarioBuilder::open(5, 5).unit("A art c2 N").unit("B inf c3 S").battle();
    assert_mods(&b.assess_order(u(0), &fire(1, Dir::N)).unwrap().modifiers, &[Modifier::Canister]);
    let b = ScenarioBuilder::open(5, 5).unit("A art c1 N").unit("B inf c3 S").battle();
    assert_mods(&b.assess_order(u(0), &fire(1, Dir::N)).unwrap().modifiers, &[]);
}

#[test]
fn r6_4_ranging_bonus_needs_same_target_same_square_no_move() {
    // A gun on c1; enemy X on c5, enemy Y on e3. All its shots miss (a 1) so nothing else changes.
    let mut b = ScenarioBuilder::open(6, 6).unit("A art c1 N").unit("B inf c5 S").unit("B inf e3 W").battle();
    fn gun_fires(b: &mut Battle, target: u8) -> bool {
        start(b, u(0));
        let (_, needed, mods) = attack(&act(b, fire(target, Dir::N)));
        roll(b, 1);
        assert_eq!(needed, if mods.contains(Modifier::Ranging) { 4 } else { 5 });
        mods.contains(Modifier::Ranging)
    }
    assert!(!gun_fires(&mut b, 1), "first shot at X");
    assert!(gun_fires(&mut b, 1), "again at X, nobody moved");
    assert!(gun_fires(&mut b, 1), "and again");
    assert!(!gun_fires(&mut b, 2), "a different target");
    assert!(!gun_fires(&mut b, 1), "X, but the previous attack was at Y");
    assert!(gun_fires(&mut b, 1));
    // X moves away and back into the same square: it has moved since.
    start(&mut b, u(1));
    act(&mut b, Action::Move { to: sq("c6"), facing: Dir::S });
    start(&mut b, u(1));
    act(&mut b, Action::Move { to: sq("c5"), facing: Dir::S });
    assert!(!gun_fires(&mut b, 1), "X moved since the previous attack");
    assert!(gun_fires(&mut b, 1));
    // Another unit moving does not matter; the gun holding does not matter.
    start(&mut b, u(2));
    act(&mut b, Action::Move { to: sq("e4"), facing: Dir::W });
    start(&mut b, u(0));
    act(&mut b, Action::Hold);
    assert!(gun_fires(&mut b, 1));
}

#[test]
fn r6_4_ranging_bonus_is_not_for_a_charge() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A art c2 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    roll(&mut b, 1);
    start(&mut b, u(0));
    let (_, needed, mods) = attack(&act(&mut b, fire(1, Dir::N)));
    assert_mods(&mods, &[Modifier::Canister]);
    assert_eq!(needed, 4);
}

#[test]
fn r6_4_ranging_bonus_is_for_artillery_only() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    roll(&mut b, 1);
    start(&mut b, u(0));
    let (_, needed, mods) = attack(&act(&mut b, fire(1, Dir::N)));
    assert_mods(&mods, &[Modifier::DidNotMove]);
    assert_eq!(needed, 4);
}

#[test]
fn r6_4_a_charge_from_the_flank_or_rear_gets_plus_one() {
    for (target_facing, bonus) in [
        ("S", None),
        ("E", Some(Modifier::FlankCharge)),
        ("W", Some(Modifier::FlankCharge)),
        ("N", Some(Modifier::RearCharge)),
    ] {
        let b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit(&format!("B inf c3 {target_facing}")).battle();
        let a = b.assess_order(u(0), &fire(1, Dir::N)).unwrap();
        let mut expected = vec![Modifier::DidNotMove];
        expected.extend(bonus);
        assert_mods(&a.modifiers, &expected);
        assert_eq!(a.needed, 5 - expected.len() as u8);
    }
    // Not for shooting at the rear.
    let b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 N").battle();
    assert_mods(&b.assess_order(u(0), &fire(1, Dir::N)).unwrap().modifiers, &[Modifier::DidNotMove]);
}

#[test]
fn r6_4_modifiers_add_up() {
    // Rear charge, did not move, into woods: +1 +1 −1 = +1, 4 needed.
    let b = ScenarioBuilder::open(5, 5).terrain_at(&["c3"], 'W').unit("A inf c2 N").unit("B inf c3 N").battle();
    let a = b.assess_order(u(0), &fire(1, Dir::N)).unwrap();
    assert_mods(
        &a.modifiers,
        &[Modifier::DidNotMove, Modifier::RearCharge, Modifier::Cover(Cover::Terrain(Terrain::Woods))],
    );
    assert_eq!(a.needed, 4);
}

// ---------------------------------------------------------------- R6.5

#[test]
fn r6_5_a_unit_attacks_at_most_once_per_activation() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("A inf e1 N").unit("B inf c3 S").battle();
    draw(&mut b, Side::A, 2);
    activate(&mut b, u(0));
    let events = act(&mut b, fire(2, Dir::N));
    let mut all = events.clone();
    all.extend(roll(&mut b, 1));
    assert_eq!(all.iter().filter(|e| matches!(e, Event::Attack { .. })).count(), 1);
    assert_eq!(b.active_unit(), None, "the activation ended with its attack");
    refused(&mut b, fire(2, Dir::N), "R3.4");
    refused(&mut b, Action::Activate(u(0)), "R3.4");
    // After a Fire & Move attack only the move remains.
    let mut b2 = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf c3 S").battle();
    start(&mut b2, u(0));
    act(&mut b2, Action::FireMove { target: u(1) });
    roll(&mut b2, 1);
    assert!(b2.legal_actions().iter().all(|a| matches!(a, Action::Advance { .. })));
    refused(&mut b2, fire(1, Dir::N), "R4.2");
    refused(&mut b2, Action::FireMove { target: u(1) }, "R4.2");
}

#[test]
fn r6_5_the_target_never_fires_back() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c2 N").unit("B inf c3 S").battle();
    start(&mut b, u(0));
    let mut events = act(&mut b, fire(1, Dir::N));
    events.extend(roll(&mut b, 6));
    events.extend(roll(&mut b, 1));
    let attacks: Vec<_> = events.iter().filter(|e| matches!(e, Event::Attack { .. })).collect();
    assert_eq!(attacks.len(), 1);
    assert!(matches!(attacks[0], Event::Attack { attacker, .. } if *attacker == u(0)));
    assert!(!b.unit(u(0)).shaken);
    assert_eq!(b.unit(u(0)).at, sq("c2"));
    assert!(
        !events.iter().any(|e| matches!(e, Event::Shaken { unit } | Event::Retreated { unit, .. } if *unit == u(0)))
    );
}
