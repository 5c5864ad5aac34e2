//! Golden playthroughs: seed + decisions → event transcript, checked in under `tests/rules/snapshots/`.
//! Any change to how the rules resolve shows up in review as a change to these transcripts.
//!
//! They test the rules, not the shipped scenarios' numbers: a scenario whose turn limit or exhaustion was later
//! rebalanced (`pacw balance`) plays from the copy under `tests/fixtures/golden/` that the transcript was made with.

use pacw_engine::{Game, Initiative, Options, SHIPPED_SCENARIOS, ToAct, narrate};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write;

/// The scenario a golden plays: a frozen copy where one exists, else the shipped text.
fn scenario_text(scenario: usize) -> (&'static str, &'static str) {
    let (_, file, text) = SHIPPED_SCENARIOS[scenario];
    let frozen = match file {
        "maryes-heights.toml" => include_str!("../fixtures/golden/maryes-heights.toml"),
        "mcpherson-ridge.toml" => include_str!("../fixtures/golden/mcpherson-ridge.toml"),
        _ => text,
    };
    (file, frozen)
}

/// Plays a game choosing uniformly among legal actions with its own seeded generator; returns the transcript.
fn playthrough(scenario: usize, options: Option<Options>, seed: u64) -> String {
    let (file, text) = scenario_text(scenario);
    let mut game = Game::new(text, file, options, seed).unwrap();
    let mut chooser = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(31));
    let mut out = String::new();
    let s = game.battle().scenario().clone();
    writeln!(out, "{} — seed {seed} — {}", s.name, game.battle().options()).unwrap();
    for e in game.log() {
        writeln!(out, "{}", narrate::event(&s, e)).unwrap();
    }
    while let ToAct::Side(side) = game.battle().to_act() {
        let actions = game.battle().legal_actions();
        let action = actions[chooser.random_range(0..actions.len())];
        writeln!(out, "> {}: {}", s.side(side).name, narrate::action(game.battle(), &action)).unwrap();
        for e in game.act(action).unwrap() {
            writeln!(out, "{}", narrate::event(&s, &e)).unwrap();
        }
    }
    out
}

#[test]
fn golden_meeting_engagement_cards_seed_1() {
    insta::assert_snapshot!(playthrough(0, None, 1));
}

#[test]
fn golden_bloody_lane_igougo_seed_2() {
    let o = Options { initiative: Initiative::Igougo, ..Options::default() };
    insta::assert_snapshot!(playthrough(1, Some(o), 2));
}

#[test]
fn golden_maryes_heights_alternate_seed_3() {
    let o = Options { initiative: Initiative::Alternate, pivot_is_move: false, ..Options::default() };
    insta::assert_snapshot!(playthrough(2, Some(o), 3));
}

#[test]
fn golden_mcpherson_ridge_cards_seed_4() {
    insta::assert_snapshot!(playthrough(3, None, 4));
}
