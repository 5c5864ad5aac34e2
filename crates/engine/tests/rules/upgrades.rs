//! Saves written by earlier versions keep loading and replaying after any change to the save format, the events
//! or the options: one fixture per kind of game, checked in as they were written (by `pacw games --export`).

use pacw_engine::{EndReason, Game, Side};
use serde_json::json;

/// (fixture, decisions, how it ended)
const SAVES: [(&str, &str, usize, Option<EndReason>); 4] = [
    ("hotseat, to_hit=4, in progress", include_str!("../fixtures/save-2026-12-01-hotseat.json"), 40, None),
    ("against the computer, in progress", include_str!("../fixtures/save-2026-12-01-computer.json"), 62, None),
    (
        "two players, alternate initiative, resigned",
        include_str!("../fixtures/save-2026-12-01-two_players.json"),
        2,
        Some(EndReason::Resigned(Side::A)),
    ),
    (
        "the computer against itself, finished",
        include_str!("../fixtures/save-2026-12-01-watch.json"),
        402,
        Some(EndReason::TurnLimit),
    ),
];

#[test]
fn saves_of_2026_12_01_load_and_replay_to_the_same_game() {
    for (what, json, decisions, end) in SAVES {
        let game = Game::load(json).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(game.actions().len(), decisions, "{what}");
        assert_eq!(game.battle().result().map(|r| r.reason), end, "{what}");
        // Saved again, it loads again to the same events.
        let again = Game::load(&game.save_json()).unwrap();
        assert_eq!(again.log(), game.log(), "{what}");
    }
}

/// A game of two variant files laid together (docs/examples' skirmishers.toml, then fences.toml), saved on 2026-12-07
/// by `Game::save_json` before saves kept each file: its rules in the one file that says them all.
const LAYERED: &str = include_str!("../fixtures/save-2026-12-07-layered-old.json");

#[test]
fn a_layered_save_of_2026_12_07_loads_by_its_one_file_as_before() {
    let game = Game::load(LAYERED).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.actions().len(), 30);
    let system = game.battle().scenario().system();
    assert_eq!(system.name, "Skirmishers + Fences");
    let rules = system.to_json();
    let one = json!([{"file": "skirmishers.toml + fences.toml", "name": "Skirmishers + Fences"}]);
    assert_eq!(rules["layers"], one, "the one file it keeps");
    let from =
        |id: &str| rules["modifiers"].as_array().unwrap().iter().find(|m| m["id"] == id).unwrap()["from"].clone();
    assert_eq!(from("F1"), "skirmishers.toml + fences.toml");
    assert_eq!(from("cover"), "skirmishers.toml + fences.toml");
    assert_eq!(rules["arms"][3]["from"], "skirmishers.toml + fences.toml", "{}", rules["arms"]);
    // Saved again, it is the same save: nothing it did not keep is made up.
    let again: serde_json::Value = serde_json::from_str(&game.save_json()).unwrap();
    assert_eq!(again, serde_json::from_str::<serde_json::Value>(LAYERED).unwrap());
}
