//! The greedy player's choices, recorded (issue 16): greedy against greedy on every shipped battle, two seeds each,
//! every decision written down (`tests/snapshots/`, one file a battle). Making the player faster must leave every
//! choice as it was; a failure shows the first decision that changed. A change of its judgement that is meant is
//! recorded again with `cargo insta review` (or `INSTA_UPDATE=always`).
//!
//! The games are played on the frozen copies of the battles the perft counts use
//! (`crates/engine/tests/fixtures/perft/`), so that rebalancing a shipped battle does not look like a change of
//! greedy's judgement.

use pacw_ai::{GreedyPlayer, Player};
use pacw_engine::{Game, SHIPPED_SCENARIOS, ToAct};

/// The frozen copy of a battle.
fn fixture(name: &str) -> &'static str {
    match name {
        "meeting-engagement" => include_str!("../../engine/tests/fixtures/perft/meeting-engagement.toml"),
        "bloody-lane" => include_str!("../../engine/tests/fixtures/perft/bloody-lane.toml"),
        "maryes-heights" => include_str!("../../engine/tests/fixtures/perft/maryes-heights.toml"),
        "mcpherson-ridge" => include_str!("../../engine/tests/fixtures/perft/mcpherson-ridge.toml"),
        "henry-house-hill" => include_str!("../../engine/tests/fixtures/perft/henry-house-hill.toml"),
        "hornets-nest" => include_str!("../../engine/tests/fixtures/perft/hornets-nest.toml"),
        "gaines-mill" => include_str!("../../engine/tests/fixtures/perft/gaines-mill.toml"),
        "brawners-farm" => include_str!("../../engine/tests/fixtures/perft/brawners-farm.toml"),
        "brandy-station" => include_str!("../../engine/tests/fixtures/perft/brandy-station.toml"),
        "little-round-top" => include_str!("../../engine/tests/fixtures/perft/little-round-top.toml"),
        "horseshoe-ridge" => include_str!("../../engine/tests/fixtures/perft/horseshoe-ridge.toml"),
        "franklin" => include_str!("../../engine/tests/fixtures/perft/franklin.toml"),
        other => panic!("no frozen copy of {other}"),
    }
}

/// A game of greedy against greedy with `seed`, its decisions one a line.
fn greedy_game(text: &str, file: &str, seed: u64) -> String {
    let mut game = Game::new(text, file, None, seed).unwrap();
    let mut players = [GreedyPlayer::new(seed), GreedyPlayer::new(seed + 1)];
    while let ToAct::Side(side) = game.battle().to_act() {
        let action = players[side.index()].choose(game.battle());
        game.act(action).unwrap();
    }
    let lines: Vec<String> = game.actions().iter().map(|a| format!("{a:?}")).collect();
    format!("seed {seed}: {} decisions\n{}\n", lines.len(), lines.join("\n"))
}

#[test]
fn greedy_makes_the_recorded_choices_on_every_shipped_battle() {
    for &pacw_engine::Shipped { name, file, .. } in SHIPPED_SCENARIOS {
        let games: Vec<String> = [1, 2].map(|seed| greedy_game(fixture(name), file, seed)).to_vec();
        insta::assert_snapshot!(format!("greedy_choices_{name}"), games.join("\n"));
    }
}
