//! Tunes the one-decision judgement (`greedy::judgement::Weights`) against `greedy`:
//! `cargo run --release -p pacw-ai --example tune -- GAMES PASSES [greedy|tuned [STEP]]`. Coordinate search from
//! `Weights::GREEDY` (or `Weights::TUNED`): each weight in turn is multiplied by 1 − STEP and by 1 + STEP (STEP
//! 0.5 unless given), and a change is kept when the tuned player's score against plain greedy over the same
//! GAMES games (the shipped scenarios in turn, sides swapped, draws counting half) improves. The result is checked
//! on GAMES other games and printed as a `Weights` list.

mod shared;

use pacw_ai::greedy::judgement::Weights;
use shared::score;

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
