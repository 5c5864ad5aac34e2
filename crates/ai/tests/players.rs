//! The computer players: legal, deterministic given a seed, and as strong as their names promise.

use pacw_ai::{Player, is_player, player};
use pacw_engine::{Action, Game, SHIPPED_SCENARIOS, Side, ToAct};

/// Plays a whole game between two named players; returns the winner and every action taken.
fn play(scenario: usize, seed: u64, first: &str, second: &str) -> (Option<Side>, Vec<Action>) {
    let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[scenario];
    let mut game = Game::new(text, file, None, seed).expect("shipped scenarios are valid");
    let mut players: [Box<dyn Player + Send>; 2] =
        [player(first, seed).expect("known player"), player(second, seed + 1).expect("known player")];
    while let ToAct::Side(side) = game.battle().to_act() {
        let action = players[side.index()].choose(game.battle());
        // Game::act checks the action against the rules: an illegal choice fails the test here.
        game.act(action).unwrap_or_else(|e| panic!("{} chose an illegal action: {e}", players[side.index()].name()));
    }
    (game.battle().result().expect("the game is over").winner, game.actions().to_vec())
}

#[test]
fn every_player_finishes_every_shipped_scenario_with_legal_actions() {
    for scenario in 0..SHIPPED_SCENARIOS.len() {
        play(scenario, 11, "random", "greedy");
        play(scenario, 12, "greedy", "random");
    }
    play(0, 13, "mcts:24", "greedy");
    play(0, 14, "greedy", "mcts:24:tree");
    play(1, 15, "mcts:36:p2", "greedy");
}

#[test]
fn the_same_seed_plays_the_same_game() {
    for name in ["random", "greedy", "mcts:24"] {
        assert_eq!(play(0, 5, name, "greedy"), play(0, 5, name, "greedy"), "{name}");
    }
    assert_ne!(play(0, 5, "random", "random").1, play(0, 6, "random", "random").1);
}

#[test]
fn the_common_world_search_chooses_the_same_whatever_the_thread_count() {
    // The worlds are shared out among the threads and their values added exactly, so only the speed changes.
    assert_eq!(play(0, 7, "mcts:40:t1", "greedy"), play(0, 7, "mcts:40:t3", "greedy"));
    assert_eq!(play(1, 8, "greedy", "mcts:60:z0.5:t1"), play(1, 8, "greedy", "mcts:60:z0.5:t2"));
    assert_eq!(play(2, 9, "mcts:40:cevent:w1:e2:t1", "greedy"), play(2, 9, "mcts:40:cevent:w1:e2:t2", "greedy"));
    assert_eq!(play(3, 10, "mcts:48:p3:k12:t1", "greedy"), play(3, 10, "mcts:48:p3:k12:t2", "greedy"));
}

#[test]
fn greedy_beats_random() {
    let games = 16;
    let mut wins = 0;
    for g in 0..games {
        let scenario = g as usize % SHIPPED_SCENARIOS.len();
        // Sides swap every game so that neither side's advantage is credited to greedy.
        let greedy = if g % 2 == 0 { Side::A } else { Side::B };
        let (first, second) = if greedy == Side::A { ("greedy", "random") } else { ("random", "greedy") };
        wins += (play(scenario, g, first, second).0 == Some(greedy)) as u32;
    }
    assert!(wins >= 14, "greedy won only {wins} of {games} games against random");
}

#[test]
fn player_names_and_settings_are_checked() {
    for good in [
        "random",
        "greedy",
        "mcts",
        "mcts:500",
        "mcts:250ms",
        "mcts:800:t2:k6:r20",
        "mcts:rend:tree:e1",
        "mcts:z1.5:r32",
        "mcts:e2:w1:cevent",
        "mcts:800:e3:r8",
        "mcts:3200:p3:k12",
        "mcts:4000:s2",
        "mcts:soff",
        "mcts:g25600:v1",
        "mcts:g3200:e3:f0",
        "mcts:g3200:e4:f0",
        "mcts:g3200:e4:f0:n1",
        "general:z2",
        "general:n0",
        "recruit:0.1",
        "general:t1:l5000",
        "greedy:tuned",
        "veteran",
        "mcts:v0.5",
        "mcts:race",
        "general:race:b4",
        "mcts:even:b16",
        "mcts:check",
        "general:check:race",
        "mcts:k1:pgs50:u2",
        "general:pgs200",
    ] {
        assert!(is_player(good), "{good}");
    }
    for bad in [
        "",
        "chess",
        "greedy:5",
        "random:x",
        "mcts:0",
        "mcts:0ms",
        "mcts:t0",
        "mcts:k0",
        "mcts:fast",
        "mcts:z-1",
        "mcts:zz",
        "mcts:e5",
        "mcts:w2",
        "mcts:cards",
        "mcts:p",
        "mcts:p-1",
        "mcts:pgs0",
        "mcts:pgs",
        "mcts:u0",
        "mcts:u129",
        "mcts:s",
        "mcts:s-1",
        "mcts:sometimes",
        "mcts:g0",
        "mcts:g",
        "mcts:v-1",
        "mcts:v3",
        "mcts:vx",
        "mcts:f-1",
        "mcts:fx",
        "recruit:x",
        "general:e9",
        "mcts:b0",
        "mcts:b17",
        "mcts:bx",
        "mcts:races",
        "mcts:checks",
    ] {
        assert!(!is_player(bad), "{bad}");
    }
}
