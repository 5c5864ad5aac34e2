//! Golden playthroughs: seed + decisions → event transcript, checked in under `tests/rules/snapshots/`.
//! Any change to how the rules resolve shows up in review as a change to these transcripts.
//!
//! Three pin the event stream itself (one JSON event a line), so that rewording the log is not a change of the
//! rules; one keeps the log's English (the meeting engagement), so that the narration is pinned once.
//!
//! They test the rules, not the shipped scenarios' numbers: each plays a frozen copy of its battle, as it was when
//! the transcript was made (`tests/fixtures/golden/`, `tests/fixtures/perft/`), whatever `pacw balance` does later.

use pacw_engine::{Game, Initiative, Options, ToAct, narrate};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write;

/// The frozen copy of the battle a golden plays.
fn scenario_text(file: &str) -> &'static str {
    match file {
        // Older copies, from before these two were rebalanced.
        "maryes-heights.toml" => include_str!("../fixtures/golden/maryes-heights.toml"),
        "mcpherson-ridge.toml" => include_str!("../fixtures/golden/mcpherson-ridge.toml"),
        other => crate::common::frozen(other.trim_end_matches(".toml")),
    }
}

/// How a transcript is written: the log's English, or the events themselves as JSON.
#[derive(Copy, Clone, PartialEq)]
enum Transcript {
    Narrated,
    Events,
}

/// Plays a game choosing uniformly among legal actions with its own seeded generator; returns the transcript.
fn playthrough(file: &str, options: Option<Options>, seed: u64, how: Transcript) -> String {
    let mut game = Game::new(scenario_text(file), file, options, seed).unwrap();
    let mut chooser = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(31));
    let mut out = String::new();
    let s = game.battle().scenario().clone();
    let event = |e: &pacw_engine::Event| match how {
        Transcript::Narrated => narrate::event(&s, e),
        Transcript::Events => serde_json::to_string(e).unwrap(),
    };
    writeln!(out, "{} — seed {seed} — {}", s.name, game.battle().options()).unwrap();
    for e in game.log() {
        writeln!(out, "{}", event(e)).unwrap();
    }
    while let ToAct::Side(side) = game.battle().to_act() {
        let actions = game.battle().legal_actions();
        let action = actions[chooser.random_range(0..actions.len())];
        let said = match how {
            Transcript::Narrated => narrate::action(game.battle(), &action),
            Transcript::Events => serde_json::to_string(&action).unwrap(),
        };
        writeln!(out, "> {}: {said}", s.side(side).name).unwrap();
        for e in game.act(action).unwrap() {
            writeln!(out, "{}", event(&e)).unwrap();
        }
    }
    out
}

#[test]
fn golden_meeting_engagement_cards_seed_1() {
    insta::assert_snapshot!(playthrough("meeting-engagement.toml", None, 1, Transcript::Narrated));
}

#[test]
fn golden_bloody_lane_igougo_seed_2() {
    let o = Options { initiative: Initiative::Igougo, ..Options::default() };
    insta::assert_snapshot!(playthrough("bloody-lane.toml", Some(o), 2, Transcript::Events));
}

#[test]
fn golden_maryes_heights_alternate_seed_3() {
    let o = Options { initiative: Initiative::Alternate, pivot_is_move: false, ..Options::default() };
    insta::assert_snapshot!(playthrough("maryes-heights.toml", Some(o), 3, Transcript::Events));
}

#[test]
fn golden_mcpherson_ridge_cards_seed_4() {
    insta::assert_snapshot!(playthrough("mcpherson-ridge.toml", None, 4, Transcript::Events));
}
