//! docs/rules.md R1 (battlefield) and R2 (sides and units), each proved on a small board written for it.

use crate::common::*;
use pacw_engine::Colour;
use pacw_engine::HitResult;
use pacw_engine::Terrain;
use pacw_engine::{Action, Arm, Dir, Event, Quality, Scenario, Side, Square};
use pacw_engine::{Cover, Modifier};

fn fire(target: u8, facing: Dir) -> Action {
    Action::Fire { target: u(target), facing }
}

// ---------------------------------------------------------------- R1.1

#[test]
fn r1_1_a1_is_the_south_west_corner_columns_run_west_to_east_rows_south_to_north() {
    // The map text is written north first: its first line is row 4, its last line row 1.
    let s = ScenarioBuilder::new(
        "W...~
         .....
         .....
         T...S",
    )
    .unit("A inf b1 N")
    .unit("B inf b4 S")
    .scenario();
    assert_eq!((s.map.width(), s.map.height()), (5, 4));
    assert_eq!(s.map.terrain(sq("a4")), Terrain::Woods, "north-west corner");
    assert_eq!(s.map.terrain(sq("e4")), Terrain::River, "north-east corner");
    assert_eq!(s.map.terrain(sq("a1")), Terrain::Town, "south-west corner");
    assert_eq!(s.map.terrain(sq("e1")), Terrain::SunkenRoad, "south-east corner");
    assert_eq!(sq("a1"), Square::new(0, 0));
    assert_eq!(sq("e4"), Square::new(4, 3));
    assert!(s.map.contains(sq("e4")));
    assert!(!s.map.contains(sq("f4")));
    assert!(!s.map.contains(sq("a5")));
}

#[test]
fn r1_1_each_side_of_the_board_is_from_4_to_26_squares() {
    let board = |w: usize, h: usize| {
        let text = ScenarioBuilder::open(w, h).unit("A inf a1 N").unit("B inf b1 N").toml();
        Scenario::parse(&text, "size.toml")
    };
    assert!(board(4, 4).is_ok());
    assert!(board(26, 26).is_ok());
    assert!(board(4, 26).is_ok());
    for (w, h) in [(3, 4), (4, 3), (27, 4), (4, 27)] {
        let err = board(w, h).expect_err("size outside 4 to 26 must be refused");
        assert!(err.to_string().contains("outside 4 to 26"), "{w}×{h}: {err}");
    }
}

#[test]
fn r1_1_a_move_off_the_board_is_refused() {
    let mut b = ScenarioBuilder::open(4, 4).unit("A cav d1 E").unit("B inf a4 S").battle();
    start(&mut b, u(0));
    let off = Square::new(4, 0); // "e1", one column east of a 4-wide board
    refused(&mut b, Action::Move { to: off, facing: Dir::E }, "R1.1");
    assert!(move_squares(&b).iter().all(|s| b.scenario().map.contains(sq(s))));
}

// ---------------------------------------------------------------- R1.2

#[test]
fn r1_2_adjacent_squares_share_an_edge_diagonals_are_not_adjacent() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c3 N").unit("B inf a5 S").battle();
    start(&mut b, u(0));
    // An infantry move of one square reaches exactly the four edge neighbours.
    assert_eq!(move_squares(&b), names(&["b3", "c2", "c4", "d3"]));
    refused_any(&mut b, Action::Move { to: sq("d4"), facing: Dir::N }, &["R1.2", "R2.6", "R5", "R5.1"]);
    assert!(sq("c3").is_adjacent(sq("c4")));
    assert!(!sq("c3").is_adjacent(sq("d4")));
}

#[test]
fn r1_2_distance_is_the_number_of_orthogonal_steps() {
    assert_eq!(sq("c1").distance(sq("d2")), 2);
    assert_eq!(sq("a1").distance(sq("c4")), 5);
    // Infantry range 2: a diagonal neighbour-but-one (two steps) is in range, a knight's move (three) is not.
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("B inf d2 S").unit("B inf d3 S").battle();
    start(&mut b, u(0));
    assert!(b.legal_actions().contains(&fire(1, Dir::N)));
    let a = b.assess_order(u(0), &fire(1, Dir::N)).unwrap();
    assert_eq!((a.distance, a.charge), (2, false));
    refused(&mut b, fire(2, Dir::N), "R6.1");
}

// ---------------------------------------------------------------- R1.3

#[test]
fn r1_3_each_square_has_a_terrain_may_carry_a_road_and_has_an_elevation() {
    let s = ScenarioBuilder::new(
        "......
         ......
         ......
         .WTS~F",
    )
    .elevation(
        "000000
         000000
         000000
         012300",
    )
    .roads(
        "......
         ......
         ......
         #.#...",
    )
    .unit("A inf a1 N")
    .unit("B inf a4 S")
    .scenario();
    let expect = [
        ("a1", Terrain::Open, 0, true),
        ("b1", Terrain::Woods, 1, false),
        ("c1", Terrain::Town, 2, true),
        ("d1", Terrain::SunkenRoad, 3, false),
        ("e1", Terrain::River, 0, false),
        ("f1", Terrain::Ford, 0, false),
    ];
    for (at, terrain, elevation, road) in expect {
        assert_eq!(s.map.terrain(sq(at)), terrain, "{at}");
        assert_eq!(s.map.elevation(sq(at)), elevation, "{at}");
        assert_eq!(s.map.road(sq(at)), road, "{at}");
    }
    assert_eq!(s.map.elevation(sq("a4")), 0, "elevation 0 is the plain, the default");
}

// ---------------------------------------------------------------- R1.4

#[test]
fn r1_4_a_fence_lies_on_the_edge_between_two_adjacent_squares() {
    let setup = ScenarioBuilder::open(4, 4).fence("b2-b3").unit("A inf b2 N").unit("B inf d4 S");
    let s = setup.scenario();
    assert!(s.map.fence(sq("b2"), Dir::N));
    assert!(s.map.fence(sq("b3"), Dir::S));
    assert!(!s.map.fence(sq("b2"), Dir::E));
    assert!(!s.map.fence(sq("b2"), Dir::S));
    assert!(!s.map.fence(sq("b3"), Dir::N));
    // A fence is an obstacle to shooting only (R6.3c): it does not stop a move across it (R1.5, R5).
    let mut b = setup.battle();
    start(&mut b, u(0));
    assert!(move_squares(&b).contains("b3"));
    act(&mut b, Action::Move { to: sq("b3"), facing: Dir::N });
    assert_eq!(b.unit(u(0)).at, sq("b3"));
}

// ---------------------------------------------------------------- R1.5

#[test]
fn r1_5_woods_town_and_sunken_road_give_cover_open_and_ford_do_not() {
    for (c, cover) in [
        ('.', None),
        ('W', Some(Terrain::Woods)),
        ('T', Some(Terrain::Town)),
        ('S', Some(Terrain::SunkenRoad)),
        ('F', None),
    ] {
        let mut b = ScenarioBuilder::open(4, 4).terrain_at(&["c3"], c).unit("A inf c1 N").unit("B inf c3 S").battle();
        start(&mut b, u(0));
        let (_, needed, mods) = attack(&act(&mut b, fire(1, Dir::N)));
        match cover {
            Some(t) => {
                assert_mods(&mods, &[Modifier::DidNotMove, Modifier::Cover(Cover::Terrain(t))]);
                assert_eq!(needed, 5, "terrain {c}");
            }
            None => {
                assert_mods(&mods, &[Modifier::DidNotMove]);
                assert_eq!(needed, 4, "terrain {c}");
            }
        }
    }
}

#[test]
fn r1_5_woods_and_town_block_sight_through_them_other_terrain_does_not() {
    for (c, blocks) in [('.', false), ('W', true), ('T', true), ('S', false), ('~', false), ('F', false)] {
        let mut b = ScenarioBuilder::open(4, 4).terrain_at(&["c2"], c).unit("A inf c1 N").unit("B inf c3 S").battle();
        start(&mut b, u(0));
        if blocks {
            refused(&mut b, fire(1, Dir::N), "R6.2");
        } else {
            assert!(b.legal_actions().contains(&fire(1, Dir::N)), "terrain {c} must not block sight");
        }
    }
}

#[test]
fn r1_5_entering_woods_town_or_ford_ends_the_move() {
    for (c, ends) in [('.', false), ('W', true), ('T', true), ('S', false), ('F', true)] {
        // Cavalry moves two; c3 can only be reached through c2 in two steps.
        let mut b = ScenarioBuilder::open(5, 5).terrain_at(&["c2"], c).unit("A cav c1 N").unit("B inf a5 S").battle();
        start(&mut b, u(0));
        let reach = move_squares(&b);
        assert!(reach.contains("c2"), "terrain {c} may be entered");
        assert_eq!(!reach.contains("c3"), ends, "terrain {c}: {reach:?}");
    }
}

#[test]
fn r1_5_river_is_impassable() {
    let mut b = ScenarioBuilder::open(5, 5).terrain_at(&["c2"], '~').unit("A cav c1 N").unit("B inf a5 S").battle();
    start(&mut b, u(0));
    let reach = move_squares(&b);
    assert!(!reach.contains("c2"));
    assert!(!reach.contains("c3"), "c3 is two steps away only through the river");
    refused(&mut b, Action::Move { to: sq("c2"), facing: Dir::N }, "R5.1");
}

// ---------------------------------------------------------------- R1.6

#[test]
fn r1_6_a_road_gives_one_more_square_to_a_move_order() {
    let setup = ScenarioBuilder::open(5, 5).road_at(&["c1", "c2", "c3", "c4", "c5"]);
    let mut b = setup.clone().unit("A inf c1 N").unit("B inf a5 S").battle();
    start(&mut b, u(0));
    let reach = move_squares(&b);
    assert!(reach.contains("c3"), "infantry moves 1 + 1 along the road: {reach:?}");
    assert!(!reach.contains("c4"));
    act(&mut b, Action::Move { to: sq("c3"), facing: Dir::N });
    assert_eq!(b.unit(u(0)).at, sq("c3"));

    let mut b = setup.unit("A cav c1 N").unit("B inf a5 S").battle();
    start(&mut b, u(0));
    let reach = move_squares(&b);
    assert!(reach.contains("c4"), "cavalry moves 2 + 1 along the road: {reach:?}");
    assert!(!reach.contains("c5"));
}

#[test]
fn r1_6_the_road_bonus_needs_a_start_on_the_road() {
    let mut b = ScenarioBuilder::open(5, 5).road_at(&["c1", "c2", "c3"]).unit("A inf b1 N").unit("B inf a5 S").battle();
    start(&mut b, u(0));
    assert_eq!(move_squares(&b), names(&["a1", "b2", "c1"]));
}

#[test]
fn r1_6_the_road_bonus_needs_every_entered_square_on_the_road() {
    // Road c1-c2 only: infantry starting on c1 may go c2 (its normal move) but not on to c3 or d2, which are off the road.
    let mut b = ScenarioBuilder::open(5, 5).road_at(&["c1", "c2"]).unit("A inf c1 N").unit("B inf a5 S").battle();
    start(&mut b, u(0));
    assert_eq!(move_squares(&b), names(&["b1", "c2", "d1"]));
    refused(&mut b, Action::Move { to: sq("c3"), facing: Dir::N }, "R2.6");
}

#[test]
fn r1_6_the_road_bonus_is_for_the_move_order_only() {
    // Move & Fire moves at most one square even along a road.
    let mut b = ScenarioBuilder::open(5, 5)
        .road_at(&["c1", "c2", "c3", "c4", "c5"])
        .unit("A inf c1 N")
        .unit("B inf c5 S")
        .battle();
    start(&mut b, u(0));
    assert!(b.legal_actions().contains(&Action::Move { to: sq("c3"), facing: Dir::N }));
    refused(&mut b, Action::MoveFire { to: sq("c3"), facing: Dir::N, target: u(1) }, "R2.6");
    assert!(!b.legal_actions().iter().any(|a| matches!(a, Action::MoveFire { to, .. } if *to == sq("c3"))));
}

#[test]
fn r1_6_the_road_does_not_cancel_entering_ends_the_move() {
    let mut b = ScenarioBuilder::open(5, 5)
        .road_at(&["c1", "c2", "c3", "c4"])
        .terrain_at(&["c2"], 'W')
        .unit("A inf c1 N")
        .unit("B inf a5 S")
        .battle();
    start(&mut b, u(0));
    let reach = move_squares(&b);
    assert!(reach.contains("c2"));
    assert!(!reach.contains("c3"), "the road through woods still stops the move in the woods");
}

// ---------------------------------------------------------------- R2.1

#[test]
fn r2_1_two_sides_each_with_a_name_a_home_edge_and_a_card_colour() {
    let s = ScenarioBuilder::open(4, 4).homes("west", "east").unit("A inf a1 E").unit("B inf d4 W").scenario();
    assert_eq!(s.sides[0].name, "BLUE");
    assert_eq!(s.sides[0].home, Dir::W);
    assert_eq!(s.sides[0].colour, Colour::Red);
    assert_eq!(s.sides[1].name, "GREY");
    assert_eq!(s.sides[1].home, Dir::E);
    assert_eq!(s.sides[1].colour, Colour::Black);
    assert_eq!(s.side_by_id("blue"), Some(Side::A));
    assert_eq!(s.side_by_id("grey"), Some(Side::B));
    assert_eq!(s.units[0].side, Side::A);
    assert_eq!(s.units[1].side, Side::B);
}

#[test]
fn r2_1_colour_may_be_left_out_first_side_red_second_black() {
    let text = ScenarioBuilder::open(4, 4).unit("A inf a1 N").unit("B inf d4 S").toml();
    let text = text.replace("colour = \"red\"\n", "").replace("colour = \"black\"\n", "");
    let s = Scenario::parse(&text, "c.toml").unwrap();
    assert_eq!(s.sides[0].colour, Colour::Red);
    assert_eq!(s.sides[1].colour, Colour::Black);
    // Swapped explicitly.
    let text = ScenarioBuilder::open(4, 4).unit("A inf a1 N").unit("B inf d4 S").toml();
    let text = text.replace("\"red\"", "\"X\"").replace("\"black\"", "\"red\"").replace("\"X\"", "\"black\"");
    let s = Scenario::parse(&text, "c.toml").unwrap();
    assert_eq!(s.sides[0].colour, Colour::Black);
    assert_eq!(s.sides[1].colour, Colour::Red);
}

#[test]
fn r2_1_home_edge_gives_the_default_facing_toward_the_enemy() {
    // docs/scenario-format.md: facing defaults to the enemy's home edge.
    let text = ScenarioBuilder::open(4, 4).homes("west", "east").unit("A inf a1 N").unit("B inf d4 N").toml();
    let text = text.replace("facing = \"N\"\n", "");
    let s = Scenario::parse(&text, "f.toml").unwrap();
    assert_eq!(s.units[0].facing, Dir::E);
    assert_eq!(s.units[1].facing, Dir::W);
}

// ---------------------------------------------------------------- R2.2

#[test]
fn r2_2_strength_is_the_arm_base_plus_one_veteran_minus_one_green() {
    let s = ScenarioBuilder::open(6, 6)
        .unit("A inf a1 N green")
        .unit("A inf b1 N")
        .unit("A inf c1 N veteran")
        .unit("A cav a2 N green")
        .unit("A cav b2 N")
        .unit("A cav c2 N veteran")
        .unit("A art a3 N green")
        .unit("A art b3 N")
        .unit("A art c3 N veteran")
        .unit("B inf f6 S")
        .scenario();
    let expected = [
        (Arm::Infantry, Quality::Green, 3),
        (Arm::Infantry, Quality::Regular, 4),
        (Arm::Infantry, Quality::Veteran, 5),
        (Arm::Cavalry, Quality::Green, 2),
        (Arm::Cavalry, Quality::Regular, 3),
        (Arm::Cavalry, Quality::Veteran, 4),
        (Arm::Artillery, Quality::Green, 1),
        (Arm::Artillery, Quality::Regular, 2),
        (Arm::Artillery, Quality::Veteran, 3),
    ];
    for (i, (arm, quality, strength)) in expected.into_iter().enumerate() {
        let info = &s.units[i];
        assert_eq!((info.arm, info.quality, info.strength()), (arm, quality, strength), "unit {i}");
    }
}

#[test]
fn r2_2_the_hit_result_die_is_rolled_against_the_strength() {
    // Shooting a steady unit: a roll of 5 shakes a veteran infantry (strength 5) but makes a regular one retreat.
    for (quality, strength, result) in [("veteran", 5, HitResult::Shaken), ("regular", 4, HitResult::Retreat)] {
        let mut b = ScenarioBuilder::open(4, 5).unit("A inf c1 N").unit(&format!("B inf c3 S {quality}")).battle();
        start(&mut b, u(0));
        act(&mut b, fire(1, Dir::N));
        roll(&mut b, 6);
        let events = roll(&mut b, 5);
        assert!(
            events.contains(&Event::HitResultRolled { unit: u(1), roll: 5, strength, result }),
            "{quality}: {events:?}"
        );
    }
}

// ---------------------------------------------------------------- R2.3

#[test]
fn r2_3_the_front_arc_is_the_cone_between_the_two_forward_diagonals() {
    // Artillery (range 4) on d1 facing north.
    let mut b = ScenarioBuilder::open(7, 5)
        .unit("A art d1 N")
        .unit("B inf b3 S") // forward 2, sideways 2: in the arc (distance 4)
        .unit("B inf a2 S") // forward 1, sideways 3: outside (distance 4)
        .unit("B inf f3 S") // forward 2, sideways 2: in the arc (distance 4)
        .unit("B inf g1 W") // forward 0: outside (distance 3)
        .unit("B inf d5 S") // straight ahead (distance 4)
        .battle();
    start(&mut b, u(0));
    let legal = b.legal_actions();
    assert!(legal.contains(&fire(1, Dir::N)));
    assert!(legal.contains(&fire(3, Dir::N)));
    assert!(legal.contains(&fire(5, Dir::N)));
    refused(&mut b, fire(2, Dir::N), "R6.1");
    refused(&mut b, fire(4, Dir::N), "R6.1");
}

#[test]
fn r2_3_the_front_arc_turns_with_the_facing() {
    let mut b = ScenarioBuilder::open(6, 6)
        .unit("A art c3 E")
        .unit("B inf e2 W")
        .unit("B inf c5 S")
        .unit("B inf a3 E")
        .battle();
    start(&mut b, u(0));
    assert!(b.legal_actions().contains(&fire(1, Dir::E)), "e2: forward 2, sideways 1 when facing east");
    refused(&mut b, fire(2, Dir::E), "R6.1"); // c5: to the left
    refused(&mut b, fire(3, Dir::E), "R6.1"); // a3: behind
}

#[test]
fn r2_3_front_flanks_and_rear_are_relative_to_the_facing() {
    // The target on c3 faces east: d3 is its front, c4 and c2 its flanks, b3 its rear.
    let b = ScenarioBuilder::open(5, 5)
        .unit("B inf c3 E")
        .unit("A inf d3 W")
        .unit("A inf c4 S")
        .unit("A inf c2 N")
        .unit("A inf b3 E")
        .battle();
    let charge = |attacker: u8, facing: Dir| b.assess_order(u(attacker), &fire(0, facing)).unwrap();
    assert_mods(&charge(1, Dir::W).modifiers, &[Modifier::DidNotMove]);
    assert_mods(&charge(2, Dir::S).modifiers, &[Modifier::DidNotMove, Modifier::FlankCharge]);
    assert_mods(&charge(3, Dir::N).modifiers, &[Modifier::DidNotMove, Modifier::FlankCharge]);
    assert_mods(&charge(4, Dir::E).modifiers, &[Modifier::DidNotMove, Modifier::RearCharge]);
}

// ---------------------------------------------------------------- R2.4

#[test]
fn r2_4_a_unit_is_steady_or_shaken_and_shaken_is_not_cumulative() {
    let mut b = ScenarioBuilder::open(4, 6).unit("A inf c1 N").unit("B inf c3 S veteran").battle();
    assert!(!b.unit(u(1)).shaken, "units start steady");
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    roll(&mut b, 6);
    let events = roll(&mut b, 2);
    assert!(events.contains(&Event::Shaken { unit: u(1) }));
    assert!(b.unit(u(1)).shaken);
    // Hit again while shaken: it retreats and stays shaken, with no second "shaken".
    start(&mut b, u(0));
    act(&mut b, fire(1, Dir::N));
    roll(&mut b, 6);
    let events = roll(&mut b, 2);
    assert!(events.iter().any(|e| matches!(e, Event::Retreated { unit, .. } if *unit == u(1))), "{events:?}");
    assert!(!events.contains(&Event::Shaken { unit: u(1) }), "{events:?}");
    assert!(b.unit(u(1)).shaken);
    // A single activation removes it (R4.1).
    let events = start(&mut b, u(1));
    assert!(events.contains(&Event::Activated { unit: u(1), rallied: true }));
    assert!(!b.unit(u(1)).shaken);
}

// ---------------------------------------------------------------- R2.5

#[test]
fn r2_5_at_most_one_unit_per_square() {
    let mut b = ScenarioBuilder::open(5, 5).unit("A inf c1 N").unit("A inf c2 N").unit("B inf a5 S").battle();
    start(&mut b, u(0));
    assert!(!move_squares(&b).contains("c2"));
    refused(&mut b, Action::Move { to: sq("c2"), facing: Dir::N }, "R5.1");
    let text = ScenarioBuilder::open(4, 4).unit("A inf b2 N").unit("B inf b2 S").toml();
    assert!(Scenario::parse(&text, "two.toml").is_err());
}

// ---------------------------------------------------------------- R2.6

#[test]
fn r2_6_move_allowance_is_infantry_1_cavalry_2_artillery_1() {
    for (arm, allowance) in [("inf", 1), ("cav", 2), ("art", 1)] {
        let mut b = ScenarioBuilder::open(7, 7).unit(&format!("A {arm} d4 N")).unit("B inf a7 S").battle();
        start(&mut b, u(0));
        let reach = move_squares(&b);
        let far = reach.iter().map(|s| sq(s).distance(sq("d4"))).max().unwrap();
        assert_eq!(far, allowance, "{arm}: {reach:?}");
        let all_within = (0..7u8)
            .flat_map(|x| (0..7u8).map(move |y| Square::new(x, y)))
            .filter(|s| *s != sq("d4") && s.distance(sq("d4")) <= allowance)
            .count();
        assert_eq!(reach.len(), all_within, "{arm}: {reach:?}");
    }
}

#[test]
fn r2_6_range_is_infantry_2_cavalry_1_artillery_4() {
    for (arm, range) in [("inf", 2u8), ("cav", 1), ("art", 4)] {
        // A target straight ahead at the range is attackable.
        let mut b = ScenarioBuilder::open(6, 7)
            .unit(&format!("A {arm} c1 N"))
            .unit(&format!("B inf c{} S", 1 + range))
            .battle();
        start(&mut b, u(0));
        assert!(b.legal_actions().contains(&fire(1, Dir::N)), "{arm} reaches {range}");
        assert_eq!(b.assess_order(u(0), &fire(1, Dir::N)).unwrap().distance, range);
    }
    // Exactly one beyond the range.
    for (arm, range) in [("inf", 2u8), ("cav", 1), ("art", 4)] {
        let mut b = ScenarioBuilder::open(6, 7)
            .unit(&format!("A {arm} c1 N"))
            .unit(&format!("B inf c{} S", 2 + range))
            .battle();
        start(&mut b, u(0));
        refused(&mut b, fire(1, Dir::N), "R6.1");
    }
}

#[test]
fn r2_6_the_move_when_firing_is_one_square() {
    let mut b = ScenarioBuilder::open(7, 7).unit("A cav d1 N").unit("B inf d4 S").battle();
    start(&mut b, u(0));
    let moves_with_fire: Vec<Square> = b
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::MoveFire { to, .. } => Some(to),
            _ => None,
        })
        .collect();
    assert!(moves_with_fire.iter().all(|to| to.distance(sq("d1")) <= 1), "{moves_with_fire:?}");
    refused(&mut b, Action::MoveFire { to: sq("d3"), facing: Dir::N, target: u(1) }, "R2.6");
    // Cavalry moves 2 by a Move order.
    assert!(move_squares(&b).contains("d3"));
}
