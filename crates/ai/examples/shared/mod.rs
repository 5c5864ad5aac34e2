//! What the examples that tune greedy's judgement or learn from the search share.

use pacw_ai::greedy::judgement::Weights;
use pacw_ai::{GreedyPlayer, Player};
use pacw_engine::{Game, SHIPPED_SCENARIOS, Side, ToAct};
use std::ops::Range;

/// The score (wins plus half the draws) of a greedy judging by `weights` against plain greedy in games
/// `from..from + games` (the shipped battles in turn, sides swapping), on every core.
pub fn score(weights: &Weights, from: u64, games: u64) -> f64 {
    let play = |g: u64| {
        let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[(g / 2) as usize % SHIPPED_SCENARIOS.len()];
        let mut game = Game::new(text, file, None, g * 7919 + 11).expect("shipped scenarios are valid");
        let tuned_side = if g.is_multiple_of(2) { Side::A } else { Side::B };
        let mut tuned = GreedyPlayer::with_weights(g, [*weights; 2]);
        let mut plain = GreedyPlayer::new(g + 1_000_000);
        while let ToAct::Side(side) = game.battle().to_act() {
            let player: &mut GreedyPlayer = if side == tuned_side { &mut tuned } else { &mut plain };
            let action = player.choose(game.battle());
            game.act(action).expect("greedy chooses legal actions");
        }
        match game.battle().result().expect("the game is over").winner {
            Some(w) if w == tuned_side => 1.0,
            None => 0.5,
            Some(_) => 0.0,
        }
    };
    over_games(from..from + games, play).into_iter().sum::<f64>() / games as f64
}

/// `play` of each game of `games`, on every core, in the order of the games.
pub fn over_games<T: Send>(games: Range<u64>, play: impl Fn(u64) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let mut results: Vec<(u64, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (games, play) = (games.clone(), &play);
                s.spawn(move || {
                    (games.start + t..games.end).step_by(threads as usize).map(|g| (g, play(g))).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("no panic")).collect::<Vec<_>>()
    });
    results.sort_by_key(|(g, _)| *g);
    results.into_iter().map(|(_, t)| t).collect()
}
