//! The greedy player's choices, recorded (issue 16): greedy against greedy on every shipped scenario, two seeds
//! each, every decision fingerprinted. Making the player faster must leave every choice as it was; a change of its
//! judgement that is meant is recorded again from the table this test prints when it fails.

use pacw_ai::{GreedyPlayer, Player};
use pacw_engine::{Game, SHIPPED_SCENARIOS, ToAct};

/// (scenario, seed, decisions, FNV-1a of the decisions as Rust prints them), recorded on 2026-12-01.
const RECORDED: &[(&str, u64, usize, &str)] = &[
    ("meeting-engagement", 1, 110, "44cca021ae7188fc"),
    ("meeting-engagement", 2, 62, "bba53a423e1578e1"),
    ("bloody-lane", 1, 243, "bbb6663d5e916abd"),
    ("bloody-lane", 2, 162, "3f16b654d71febc3"),
    ("maryes-heights", 1, 188, "cb02e5056de567a8"),
    ("maryes-heights", 2, 142, "524cb47843deb88b"),
    ("mcpherson-ridge", 1, 143, "e946430db40c905f"),
    ("mcpherson-ridge", 2, 126, "7e1cee212c754078"),
    ("henry-house-hill", 1, 113, "871d7fd7b1c6d25e"),
    ("henry-house-hill", 2, 118, "52cb1ceab33dee98"),
    ("hornets-nest", 1, 168, "58a7563465aa2fba"),
    ("hornets-nest", 2, 150, "341b9b5eca24c491"),
    ("gaines-mill", 1, 180, "a202b870b8547115"),
    ("gaines-mill", 2, 230, "630f2d5591a0964e"),
    ("brawners-farm", 1, 84, "c6c77206e1911274"),
    ("brawners-farm", 2, 54, "04786f0be2287729"),
    ("brandy-station", 1, 152, "4a5a22d6b18e3cc3"),
    ("brandy-station", 2, 116, "2b478be328bb085f"),
    ("little-round-top", 1, 150, "e00e1e07cf46eaa3"),
    ("little-round-top", 2, 114, "b2db9a971161f1a8"),
    ("horseshoe-ridge", 1, 128, "5f06eb04d5eb97a4"),
    ("horseshoe-ridge", 2, 186, "27bc25c8878391d6"),
    ("franklin", 1, 147, "0ff5b9c76f8683b9"),
    ("franklin", 2, 231, "33b30becd9a37bfe"),
];

fn fingerprint(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3));
    format!("{hash:016x}")
}

fn greedy_game(text: &str, file: &str, seed: u64) -> (usize, String) {
    let mut game = Game::new(text, file, None, seed).unwrap();
    let mut players = [GreedyPlayer::new(seed), GreedyPlayer::new(seed + 1)];
    while let ToAct::Side(side) = game.battle().to_act() {
        let action = players[side.index()].choose(game.battle());
        game.act(action).unwrap();
    }
    (game.actions().len(), fingerprint(format!("{:?}", game.actions()).as_bytes()))
}

#[test]
fn greedy_makes_the_recorded_choices_on_every_shipped_scenario() {
    let mut found = Vec::new();
    for (name, file, text) in SHIPPED_SCENARIOS {
        for seed in [1, 2] {
            let (decisions, hash) = greedy_game(text, file, seed);
            found.push(format!("    (\"{name}\", {seed}, {decisions}, \"{hash}\"),"));
        }
    }
    let wanted: Vec<String> =
        RECORDED.iter().map(|(n, s, d, h)| format!("    (\"{n}\", {s}, {d}, \"{h}\"),")).collect();
    assert!(found == wanted, "greedy's choices changed; the games now:\n{}", found.join("\n"));
}
