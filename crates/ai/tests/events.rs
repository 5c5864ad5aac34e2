//! A battle with events (docs/scenario-format.md#events): the computer players play it through its arrivals with
//! legal actions, and the network's encoding and the evaluator see the reinforcements not yet arrived as absent —
//! neither on the board nor lost.

use pacw_ai::network::encoding::{Encoding, UNIT_INPUTS, encode};
use pacw_ai::{Player, player};
use pacw_engine::{Battle, Event, Game, Scenario, Side, ToAct, UnitId};
use std::sync::Arc;

const EXAMPLE: &str = include_str!("../../../docs/examples/reinforcements.toml");

/// Plays the example between two named players to its end; returns the game.
fn play(seed: u64, first: &str, second: &str) -> Game {
    let mut game = Game::new(EXAMPLE, "reinforcements.toml", None, seed).unwrap();
    let mut players: [Box<dyn Player + Send>; 2] = [player(first, seed).unwrap(), player(second, seed + 1).unwrap()];
    while let ToAct::Side(side) = game.battle().to_act() {
        let action = players[side.index()].choose(game.battle());
        game.act(action).unwrap_or_else(|e| panic!("{} chose an illegal action: {e}", players[side.index()].name()));
    }
    game
}

#[test]
fn the_computer_players_play_a_battle_with_reinforcements_to_its_end() {
    for (seed, first, second) in [(1, "greedy", "greedy"), (2, "mcts:24", "greedy"), (3, "random", "recruit")] {
        let game = play(seed, first, second);
        assert!(game.battle().result().is_some());
        let arrived = game.log().iter().filter(|e| matches!(e, Event::Arrived { .. })).count();
        assert!(arrived >= 1 || game.battle().turn() < 3, "{first} v {second}: the brigade due on turn 3 arrives");
    }
}

#[test]
fn the_encoding_and_the_evaluator_see_units_not_yet_arrived_as_absent() {
    let s = Arc::new(Scenario::parse(EXAMPLE, "reinforcements.toml").unwrap());
    let mut b = Battle::from_scenario(s);
    let mut encoding = Encoding::default();
    encode(&b, &mut encoding);
    assert_eq!((encoding.units_of(0), encoding.units_of(1)), (4, 4), "only the units on the board");
    assert_eq!(encoding.units[1].len(), 4 * UNIT_INPUTS);
    let before = pacw_ai::evaluator::shared().value(&b);
    assert!(before.is_finite() && (0.0..=1.0).contains(&before));
    // Drawn to turn 3 by Jokers: Scales's brigade enters and is seen; Lane's, waiting, is not, nor counted lost.
    while b.turn() < 3 {
        b.apply_chance(pacw_engine::Outcome::Card(pacw_engine::Card::Joker)).unwrap();
    }
    assert!(b.unit(UnitId(8)).alive && b.is_waiting(UnitId(9)));
    encode(&b, &mut encoding);
    assert_eq!((encoding.units_of(0), encoding.units_of(1)), (4, 5));
    assert_eq!(b.destroyed(Side::B), 0);
}
