//! Tunes the one-decision judgement (`evaluate::Weights`) against `greedy`:
//! `cargo run --release -p pacw-ai --example tune -- GAMES PASSES [greedy|tuned [STEP]]`. Coordinate search from
//! `Weights::GREEDY` (or `Weights::TUNED`): each weight in turn is multiplied by 1 − STEP and by 1 + STEP (STEP
//! 0.5 unless given), and a change is kept when the tuned player's score against plain greedy over the same
//! GAMES games (the shipped scenarios in turn, sides swapped, draws counting half) improves. The result is checked
//! on GAMES other games and printed as a `Weights` list.

use pacw_ai::evaluate::Weights;
use pacw_ai::{GreedyPlayer, Player};
use pacw_engine::{Game, SHIPPED_SCENARIOS, Side, ToAct};

/// The tuned player's score (wins plus half the draws) in games `from..from + games` against plain greedy.
fn score(weights: &Weights, from: u64, games: u64) -> f64 {
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).map_or(2000, |s| s.parse().expect("GAMES is a number"));
    let passes: usize = args.get(2).map_or(2, |s| s.parse().expect("PASSES is a number"));
    let mut best = match args.get(3).map(String::as_str) {
        Some("tuned") => Weights::TUNED,
        _ => Weights::GREEDY,
    }
    .to_list();
    let step: f32 = args.get(4).map_or(0.5, |s| s.parse().expect("STEP is a number"));
    let mut best_score = score(&Weights::from_list(best), 0, games);
    println!("the starting weights: {best_score:.4}");
    for pass in 0..passes {
        for i in 0..best.len() {
            for factor in [1.0 - step, 1.0 + step] {
                let mut trial = best;
                trial[i] *= factor;
                let s = score(&Weights::from_list(trial), 0, games);
                if s > best_score {
                    println!("pass {pass}: weight {i} × {factor} → {:.3}: {s:.4}", trial[i]);
                    best = trial;
                    best_score = s;
                }
            }
        }
    }
    let fresh = score(&Weights::from_list(best), 1_000_000, games);
    println!("tuned: {best_score:.4} on the tuning games, {fresh:.4} on {games} others");
    println!("{best:?}");
}
