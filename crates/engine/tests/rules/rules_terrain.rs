//! Terrain and movement as a variant writes them (`[[terrain]]`, `[movement]` in docs/variants.md): a new kind's
//! letter in maps, its cost to enter, cover and line of sight; an arm's own movement in a terrain; the road bonus
//! as a number. Each proved on a small board, beside the standard rules' answer on the same board.

use crate::common::*;
use pacw_engine::{Action, Cover, Dir, Modifier, Scenario, Square, Terrain};

/// The worked example of docs/variants.md.
const SWAMPS: &str = r#"
name = "Swamps and open woods"
description = "A swamp that stops every move; thickets that hide and slow; woods that slow all but cavalry, which they stop."

[[terrain]]
id = "swamp"
letter = "M"
move = "stop"
cover = false
blocks_sight = false

[[terrain]]
id = "thicket"
name = "thicket"
letter = "K"
move = 2
cover = true
blocks_sight = true

[[terrain]]
id = "woods"
move = 2
move_by_arm = { cavalry = "stop" }

[movement]
road_bonus = 2
"#;

fn fire(target: u8, facing: Dir) -> Action {
    Action::Fire { target: u(target), facing }
}

#[test]
fn a_new_letter_is_read_only_under_the_variant_that_defines_it() {
    let setup = ScenarioBuilder::open(4, 4).terrain_at(&["c2"], 'M').unit("A inf c1 N").unit("B inf c4 S");
    let e = Scenario::parse(&setup.toml(), "test.toml").unwrap_err().to_string();
    assert!(e.contains("test.toml:8:3: unknown terrain character 'M' at c2 (expected . W T S ~ F)"), "{e}");
    let s = setup.scenario_under(SWAMPS);
    assert_eq!(s.map.terrain(sq("c2")), Terrain::Own(0));
    assert_eq!(s.map.terrain_name(sq("c2")), "swamp");
    assert_eq!(s.map.letter(sq("c2")), 'M');
    // A letter no rule in force has is refused at its place, with the variant's letters listed.
    let bad = ScenarioBuilder::open(4, 4).terrain_at(&["d4"], 'Q').unit("A inf c1 N").unit("B inf c4 S");
    let system = pacw_engine::system::CombatSystem::with_variant(SWAMPS, "swamps.toml").unwrap();
    let e = Scenario::parse_with(&bad.toml(), "test.toml", std::sync::Arc::new(system)).unwrap_err().to_string();
    assert!(e.contains("test.toml:6:4: unknown terrain character 'Q' at d4 (expected . W T S ~ F M K"), "{e}");
}

#[test]
fn entering_a_swamp_ends_the_move_and_it_neither_covers_nor_blocks_sight() {
    // Cavalry moves two: through open ground it reaches c3, through a swamp on c2 it stops there.
    let setup = ScenarioBuilder::open(5, 5).unit("A cav c1 N").unit("B inf a5 S");
    let mut b = setup.clone().terrain_at(&["c2"], 'M').battle_under(SWAMPS);
    start(&mut b, u(0));
    let reach = move_squares(&b);
    assert!(reach.contains("c2") && !reach.contains("c3"), "{reach:?}");
    let mut open = setup.battle_under(SWAMPS);
    start(&mut open, u(0));
    assert!(move_squares(&open).contains("c3"));
    // Fire across a swamp, and at a unit standing in one: no cover.
    let mut b = ScenarioBuilder::open(4, 4)
        .terrain_at(&["c2", "c3"], 'M')
        .unit("A inf c1 N")
        .unit("B inf c3 S")
        .battle_under(SWAMPS);
    start(&mut b, u(0));
    let (_, needed, mods) = attack(&act(&mut b, fire(1, Dir::N)));
    assert_mods(&mods, &[Modifier::DidNotMove]);
    assert_eq!(needed, 4);
}

#[test]
fn a_thicket_gives_cover_blocks_sight_and_costs_two_squares() {
    // In a thicket: cover, named by the variant's kind.
    let mut b =
        ScenarioBuilder::open(4, 4).terrain_at(&["c3"], 'K').unit("A inf c1 N").unit("B inf c3 S").battle_under(SWAMPS);
    start(&mut b, u(0));
    let (_, needed, mods) = attack(&act(&mut b, fire(1, Dir::N)));
    assert_mods(&mods, &[Modifier::DidNotMove, Modifier::Cover(Cover::Terrain(Terrain::Own(1)))]);
    assert_eq!(needed, 5);
    let (rule, reason) = b.scenario().describe_modifier(Modifier::Cover(Cover::Terrain(Terrain::Own(1))));
    assert_eq!((rule.as_str(), reason.as_str()), ("R6.3a", "cover: thicket"));
    // Behind a thicket: no line of sight.
    let mut b =
        ScenarioBuilder::open(4, 4).terrain_at(&["c2"], 'K').unit("A inf c1 N").unit("B inf c3 S").battle_under(SWAMPS);
    start(&mut b, u(0));
    let why = refused(&mut b, fire(1, Dir::N), "R6.2");
    assert!(why.to_string().contains("thicket"), "{why}");
    // Two squares to enter: cavalry (move two) enters one from c1 and stops there; a thicket one square on is too
    // dear; infantry (move one) may still take its one step into it.
    let cav = |k: &str| {
        let mut b = ScenarioBuilder::open(5, 5)
            .terrain_at(&[k], 'K')
            .unit("A cav c1 N")
            .unit("B inf a5 S")
            .battle_under(SWAMPS);
        start(&mut b, u(0));
        move_squares(&b)
    };
    let reach = cav("c2");
    assert!(reach.contains("c2") && !reach.contains("c3"), "{reach:?}");
    let reach = cav("c3");
    assert!(reach.contains("c2") && !reach.contains("c3"), "{reach:?}");
    // The refusal names the dear ground; under the standard rules, the woods that end a move.
    let refusal = |setup: ScenarioBuilder| {
        let mut b = setup.unit("A cav c1 N").unit("B inf a5 S").battle_under(SWAMPS);
        start(&mut b, u(0));
        refused(&mut b, Action::Move { to: sq("c3"), facing: Dir::N }, "R1.5").to_string()
    };
    let why = refusal(ScenarioBuilder::open(5, 5).terrain_at(&["c3"], 'K'));
    assert!(why.contains("c3 cannot be reached this move: the thicket at c3 costs 2 squares of a move"), "{why}");
    let why = refusal(ScenarioBuilder::open(5, 5).terrain_at(&["c2"], 'M'));
    assert!(why.contains("the swamp at c2 ends a move there"), "{why}");
    let mut b =
        ScenarioBuilder::open(5, 5).terrain_at(&["c2"], 'K').unit("A inf c1 N").unit("B inf a5 S").battle_under(SWAMPS);
    start(&mut b, u(0));
    assert!(move_squares(&b).contains("c2"));
}

#[test]
fn woods_slow_infantry_and_stop_cavalry_under_the_variant_and_stop_all_under_the_standard() {
    // Moves of three for both arms: infantry spends two on woods on c2 and goes on to c3; cavalry stops in them.
    let setup = |arm: &str| {
        ScenarioBuilder::open(5, 6)
            .terrain_at(&["c2"], 'W')
            .unit(&format!("A {arm} c1 N"))
            .unit("B inf a6 S")
            .option("move = { infantry = 3, cavalry = 3 }")
    };
    let reach = |mut b: pacw_engine::Battle| {
        start(&mut b, u(0));
        move_squares(&b)
    };
    let inf = reach(setup("inf").battle_under(SWAMPS));
    assert!(inf.contains("c2") && inf.contains("c3") && !inf.contains("c4"), "{inf:?}");
    let cav = reach(setup("cav").battle_under(SWAMPS));
    assert!(cav.contains("c2") && !cav.contains("c3"), "{cav:?}");
    let standard = reach(setup("inf").battle());
    assert!(standard.contains("c2") && !standard.contains("c3"), "{standard:?}");
}

#[test]
fn the_road_bonus_is_the_variants_number() {
    let setup = ScenarioBuilder::open(5, 7)
        .road_at(&["a1", "a2", "a3", "a4", "a5", "a6", "a7"])
        .unit("A cav a1 N")
        .unit("B inf e7 S");
    let reach = |mut b: pacw_engine::Battle| {
        start(&mut b, u(0));
        move_squares(&b)
    };
    let two = reach(setup.battle_under(SWAMPS));
    assert!(two.contains("a5") && !two.contains("a6"), "{two:?}");
    let one = reach(setup.battle());
    assert!(one.contains("a4") && !one.contains("a5"), "{one:?}");
}

#[test]
fn the_moves_listed_are_exactly_the_moves_accepted_over_the_variants_terrain() {
    let board = ScenarioBuilder::new(
        "
        .MK.W
        K.MW.
        .W.KM
        M.K..
        .KW.M
        ",
    )
    .road_at(&["a1", "b1", "c1", "d1"])
    .unit("A cav a1 N")
    .unit("A inf e2 N")
    .unit("B inf c5 S")
    .unit("B cav e4 W")
    .option("move = { infantry = 2, cavalry = 4 }");
    for mover in [0, 1] {
        let mut b = board.battle_under(SWAMPS);
        start(&mut b, u(mover));
        let listed = b.legal_actions();
        let mut moves = 0;
        for x in 0..5 {
            for y in 0..5 {
                for facing in Dir::ALL {
                    let a = Action::Move { to: Square::new(x, y), facing };
                    assert_eq!(b.check(a).is_ok(), listed.contains(&a), "unit {mover}: {a:?}");
                    moves += listed.contains(&a) as usize;
                }
            }
        }
        assert!(moves > 4, "unit {mover} has moves to check");
        // A listed move's path spends no more than the move allows, square by square.
        for a in &listed {
            if let Action::Move { to, .. } = *a {
                let path = b.move_path(u(mover), to).expect("a listed move has a path");
                assert_eq!(path.last(), Some(&to));
                assert!(path.windows(2).all(|w| w[0].is_adjacent(w[1])), "{path:?}");
            }
        }
    }
}

#[test]
fn the_standard_file_plays_the_standard_terrain() {
    // Read from rules/standard.toml, the terrain table is the built-in R1.5.
    let standard = pacw_engine::system::CombatSystem::standard();
    assert_eq!(**standard.terrain_rules(), *pacw_engine::terrain::TerrainRules::standard());
    let text = standard.to_toml();
    assert_eq!(pacw_engine::system::CombatSystem::with_variant(&text, "printed.toml").unwrap(), standard);
    let swamps = pacw_engine::system::CombatSystem::with_variant(SWAMPS, "swamps.toml").unwrap();
    let back = pacw_engine::system::CombatSystem::with_variant(&swamps.to_toml(), "printed.toml").unwrap();
    assert_eq!(back.terrain_rules(), swamps.terrain_rules(), "pacw rules prints what reads back the same");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 40, ..proptest::prelude::ProptestConfig::default() })]
    /// Random maps of the standard and the variant's letters, played at random under the variant: every invariant
    /// of the standard properties holds (an action is listed exactly when it is accepted, a refusal changes
    /// nothing, no unit on impassable ground), and an unknown letter is refused at its place, never a panic.
    #[test]
    fn random_maps_of_the_variants_terrain_play_with_the_listed_actions_exactly_the_accepted(
        mut letters in proptest::collection::vec(proptest::sample::select(b".WTSF~MK".to_vec()), 25),
        unknown in proptest::option::weighted(0.1, 0usize..25),
        seed in 0u64..1000,
    ) {
        use rand::{RngExt, SeedableRng};
        if let Some(i) = unknown {
            letters[i] = b'Q';
        }
        let rows: Vec<String> = letters.chunks(5).map(|r| r.iter().map(|&c| c as char).collect()).collect();
        let setup = ScenarioBuilder::new(&rows.join("\n"))
            .terrain_at(&["a1", "e1", "a5", "e5"], '.')
            .unit("A cav a1 N")
            .unit("A inf e1 N")
            .unit("B inf a5 S")
            .unit("B cav e5 S")
            .option("move = { infantry = 2, cavalry = 3 }");
        let system = pacw_engine::system::CombatSystem::with_variant(SWAMPS, "swamps.toml").unwrap();
        let parsed = Scenario::parse_with(&setup.toml(), "test.toml", std::sync::Arc::new(system));
        let Ok(scenario) = parsed else {
            let e = parsed.unwrap_err();
            proptest::prop_assert!(unknown.is_some() && !letters.is_empty(), "{e}");
            proptest::prop_assert!(e.problems.iter().all(|p| p.line.is_some() && p.column.is_some()), "{e}");
            return Ok(());
        };
        let mut b = pacw_engine::Battle::from_scenario(std::sync::Arc::new(scenario));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..150 {
            crate::properties::check_invariants(&b);
            match b.to_act() {
                pacw_engine::ToAct::Side(_) => {
                    let probe = crate::properties::random_action(&mut rng, &b);
                    let listed = b.legal_actions();
                    let mut copy = b.clone();
                    if copy.apply(probe).is_err() {
                        proptest::prop_assert_eq!(&copy, &b);
                    } else {
                        proptest::prop_assert!(listed.contains(&probe), "accepted {:?} must be listed", probe);
                    }
                    let action = listed[rng.random_range(0..listed.len())];
                    b.apply(action).unwrap();
                }
                pacw_engine::ToAct::Chance(_) => {
                    let outcomes = b.chance_outcomes();
                    let (outcome, _) = outcomes[rng.random_range(0..outcomes.len())];
                    b.apply_chance(outcome).unwrap();
                }
                pacw_engine::ToAct::Over(_) => break,
            }
        }
    }
}
