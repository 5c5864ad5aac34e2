//! Golden perft counts (issue 16): every path of decisions and chance outcomes from the start of each shipped
//! scenario, and from a position deep in a game of it, counted. They pin the rules (which actions are legal and
//! where each outcome leads) while the engine is made faster: a change that moves a count changed the rules.
//! Each walk runs in well under a second.
//!
//! The walks start from frozen copies of the battles (`tests/fixtures/perft/`, as they were when the counts were
//! made), so that rebalancing a shipped battle (`pacw balance`) does not look like a change of the rules.

use crate::common::frozen;
use pacw_engine::perft::{PerftCount, perft, steps};
use pacw_engine::{Battle, Scenario};
use std::sync::Arc;

/// (scenario, depth from the start, counts; steps played before the deep walk, its depth, its counts).
type Golden = (&'static str, u32, [u64; 4], usize, u32, [u64; 4]);

/// Counts as `[nodes, decisions, chance, leaves]`.
const GOLDEN: &[Golden] = &[
    ("meeting-engagement", 6, [405218, 293608, 111610, 346065], 60, 5, [65685, 61198, 4487, 60646]),
    ("bloody-lane", 6, [1157880, 1132023, 25857, 1009375], 60, 5, [250588, 234248, 16340, 231420]),
    ("maryes-heights", 6, [2025414, 1987290, 38124, 1831345], 60, 5, [280547, 272867, 7680, 252992]),
    ("mcpherson-ridge", 6, [1105950, 888648, 217302, 959017], 60, 5, [133022, 126030, 6992, 124807]),
    ("henry-house-hill", 6, [835503, 793125, 42378, 726967], 60, 5, [58318, 55852, 2466, 53176]),
    ("hornets-nest", 6, [1106535, 1053516, 53019, 971977], 60, 5, [97066, 30072, 66994, 81506]),
    ("gaines-mill", 6, [1334538, 1309110, 25428, 1177267], 60, 5, [222930, 215901, 7029, 194166]),
    ("brawners-farm", 6, [676347, 481826, 194521, 580687], 60, 5, [73158, 68049, 5109, 67537]),
    ("brandy-station", 6, [1882248, 1832112, 50136, 1641934], 60, 5, [283284, 272692, 10592, 252018]),
    ("little-round-top", 6, [401958, 340344, 61614, 344437], 60, 5, [56099, 52095, 4004, 51357]),
    ("horseshoe-ridge", 6, [1078590, 1056186, 22404, 940804], 60, 5, [32798, 12418, 20380, 27534]),
    ("franklin", 6, [1216493, 1097958, 118535, 1074798], 60, 5, [73918, 69760, 4158, 67924]),
];

/// Plays `n` steps by a fixed rule (the step at a position that moves with the step number), no randomness, so
/// the position depends only on the rules.
fn played(mut battle: Battle, n: usize) -> Battle {
    for k in 0..n {
        let options = steps(&battle);
        if options.is_empty() {
            break;
        }
        let step = options[(k * 7 + 3) % options.len()];
        match step {
            pacw_engine::perft::Step::Decision(a) => battle.apply(a).map(|_| ()),
            pacw_engine::perft::Step::Chance(o) => battle.apply_chance(o).map(|_| ()),
        }
        .unwrap();
    }
    battle
}

fn counts(c: PerftCount) -> [u64; 4] {
    [c.nodes, c.decisions, c.chance, c.leaves]
}

#[test]
fn perft_counts_of_every_shipped_scenario_are_unchanged() {
    for &pacw_engine::Shipped { name, .. } in pacw_engine::SHIPPED_SCENARIOS {
        assert!(GOLDEN.iter().any(|g| g.0 == name), "{name} has no golden counts");
    }
    let mut found = Vec::new();
    for golden in GOLDEN {
        let name = &golden.0;
        let start = Battle::from_scenario(Arc::new(Scenario::parse(frozen(name), name).unwrap()));
        let deep = played(start.clone(), golden.3);
        assert!(deep.result().is_none(), "{name}: the deep position is still a game");
        found.push((
            *name,
            golden.1,
            counts(perft(&start, golden.1)),
            golden.3,
            golden.4,
            counts(perft(&deep, golden.4)),
        ));
    }
    let wanted: Vec<Golden> = GOLDEN.to_vec();
    if found != wanted {
        let table: Vec<String> = found.iter().map(|g| format!("    {g:?},")).collect();
        panic!("perft counts changed (the rules moved?); the counts now:\n{}", table.join("\n"));
    }
}

#[test]
fn perft_adds_up_and_depth_zero_is_one_leaf() {
    let start = Battle::from_scenario(Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m").unwrap()));
    assert_eq!(counts(perft(&start, 0)), [0, 0, 0, 1]);
    let whole = perft(&start, 4);
    let mut sum = PerftCount::default();
    for (_, part) in pacw_engine::perft::divide(&start, 4) {
        sum += part;
    }
    assert_eq!(sum, whole);
    assert_eq!(whole.nodes, whole.decisions + whole.chance);
    // Depth 1 from the start: one branch per kind of card in the deck.
    let kinds = start.deck().cards().count() as u64;
    assert_eq!(counts(perft(&start, 1)), [kinds, 0, kinds, kinds]);
}
