//! What the examples that tune greedy's judgement share.

use pacw_ai::evaluate::Weights;
use pacw_ai::{GreedyPlayer, Player};
use pacw_engine::{Game, SHIPPED_SCENARIOS, Side, ToAct};

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
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| s.spawn(move || (from + t..from + games).step_by(threads as usize).map(play).sum::<f64>()))
            .collect();
        handles.into_iter().map(|h| h.join().expect("no panic")).sum()
    });
    total / games as f64
}
