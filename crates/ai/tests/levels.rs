//! The three levels: known everywhere by name, legal and deterministic over recorded games, and blind to the game's
//! own seed (the dice to come).

use pacw_ai::{OFFERED, PLAYERS, is_player, player, plays_as};
use pacw_engine::{Battle, Game, SHIPPED_SCENARIOS, ToAct};

/// The levels at a small budget (so that the debug test suite stays quick): the same code at any budget.
const QUICK_LEVELS: [&str; 3] = ["recruit", "veteran", "general:24"];

/// The positions where a side decided in a recorded game: greedy against greedy on a shipped battle.
fn recorded_positions(scenario: usize, seed: u64) -> Vec<Battle> {
    let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[scenario];
    let mut game = Game::new(text, file, None, seed).expect("shipped scenarios are valid");
    let mut players = [player("greedy", seed).unwrap(), player("greedy", seed + 1).unwrap()];
    let mut positions = Vec::new();
    while let ToAct::Side(side) = game.battle().to_act() {
        positions.push(game.battle().clone());
        let action = players[side.index()].choose(game.battle());
        game.act(action).unwrap();
    }
    positions
}

#[test]
fn the_levels_choose_legal_actions_the_same_way_for_the_same_seed() {
    for (scenario, seed) in [(0, 3), (4, 8)] {
        // Every seventh decision of the game: activations and orders, early and late.
        let positions: Vec<Battle> = recorded_positions(scenario, seed).into_iter().step_by(7).collect();
        assert!(positions.len() > 5, "a recorded game of {} decisions", positions.len());
        for name in QUICK_LEVELS {
            let mut first = player(name, 42).unwrap();
            let mut again = player(name, 42).unwrap();
            for b in &positions {
                let action = first.choose(b);
                b.clone().apply(action).unwrap_or_else(|e| panic!("{name} chose an illegal {action:?}: {e}"));
                assert_eq!(again.choose(b), action, "{name}: the same seed, the same choice");
            }
        }
    }
}

#[test]
fn the_levels_never_read_the_seed_of_the_dice() {
    // Two games with different seeds for the dice and cards whose first decision stands in the same position: the
    // same player seed must decide the same there (the battle holds no seed, and no player may look elsewhere).
    let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[0];
    // A game stands at its first decision once made (the engine draws the chance before it).
    let start = |seed| Game::new(text, file, None, seed).unwrap();
    let first = start(1);
    assert!(matches!(first.battle().to_act(), ToAct::Side(_)));
    let other = (2..200).map(start).find(|g| g.battle() == first.battle()).expect("another seed draws the same card");
    assert_ne!(first.seed(), other.seed());
    for name in QUICK_LEVELS {
        let chosen = player(name, 9).unwrap().choose(first.battle());
        assert_eq!(player(name, 9).unwrap().choose(other.battle()), chosen, "{name}");
    }
}

#[test]
fn every_offered_name_is_a_player_and_a_level_keeps_its_name_with_settings() {
    assert_eq!(PLAYERS, OFFERED.map(|o| o.name));
    assert_eq!(&PLAYERS[..3], ["recruit", "veteran", "general"], "the levels first, weakest first");
    for o in OFFERED {
        assert!(is_player(o.name), "{}", o.name);
        assert!(is_player(o.plays_as), "{} plays as {}", o.name, o.plays_as);
        assert_eq!(player(o.name, 1).unwrap().name(), o.name);
    }
    assert_eq!(player("general:t1:l5000", 1).unwrap().name(), "general");
    assert_eq!(plays_as("general:t1"), format!("{}:t1", OFFERED[2].plays_as));
    assert_eq!(plays_as("greedy"), "greedy");
    for bad in ["veteran:fast", "general:0", "recruit:0", "recruit:-1", "recruit:0.5:2", "captain"] {
        assert!(!is_player(bad), "{bad}");
    }
}
