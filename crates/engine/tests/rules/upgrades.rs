//! Saves written by earlier versions keep loading and replaying after any change to the save format, the events
//! or the options: one fixture per kind of game, checked in as they were written (by `pacw games --export`).

use pacw_engine::{EndReason, Game, Side};

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
