//! The grand battle (scenarios/antietam.toml): 128 units, the most a scenario may have, on a 26 × 26 board. Its
//! perft count pins the rules at that scale, and a whole random game is played on it.

use pacw_engine::perft::perft;
use pacw_engine::{Battle, Scenario, Side};
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

const ANTIETAM: &str = include_str!("../../../../scenarios/antietam.toml");

fn antietam() -> Battle {
    Battle::from_scenario(Arc::new(Scenario::parse(ANTIETAM, "antietam.toml").unwrap()))
}

#[test]
fn the_grand_battle_has_sixty_or_more_units_a_side_on_the_largest_board() {
    let b = antietam();
    let s = b.scenario();
    assert_eq!((s.map.width(), s.map.height()), (26, 26));
    assert_eq!(s.units.len(), pacw_engine::MAX_UNITS);
    for side in Side::BOTH {
        assert!(s.starting_units(side) >= 60, "{side:?}: {}", s.starting_units(side));
    }
    let c = perft(&b, 3);
    assert_eq!([c.nodes, c.decisions, c.chance, c.leaves], GRAND_PERFT_3);
}

/// `pacw perft scenarios/antietam.toml --depth 3`.
const GRAND_PERFT_3: [u64; 4] = [8091, 8028, 63, 7687];

#[test]
fn a_random_game_of_the_grand_battle_reaches_its_end() {
    let mut b = antietam();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut decisions = 0;
    while b.result().is_none() {
        if let Some(outcome) = b.sample_chance(&mut rng) {
            b.apply_chance(outcome).unwrap();
            continue;
        }
        let legal = b.legal_actions();
        b.apply(legal[rng.random_range(0..legal.len())]).unwrap();
        decisions += 1;
    }
    assert!(decisions > 500, "{decisions} decisions: every unit had its activations");
}

#[test]
fn one_unit_more_than_the_most_allowed_is_refused_with_its_place() {
    // An empty square of the grand battle: z1 (the Union's rear, open ground).
    let more = format!("{ANTIETAM}\n[[units]]\nside = \"union\"\narm = \"infantry\"\nat = \"z1\"\n");
    let e = Scenario::parse(&more, "antietam.toml").unwrap_err();
    let text = e.to_string();
    assert!(text.contains("too many units: 129 (at most 128)"), "{text}");
    assert!(text.contains("antietam.toml:"), "the problem has its line: {text}");
}
