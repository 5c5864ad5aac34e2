//! How much does `greedy` leave on the table, and how much of it does a player pick up?
//! `cargo run --release -p pacw-ai --example gaps -- WORLDS POSITIONS [FIRST [PLAYER...]]`
//!
//! Plays greedy against greedy to a decision somewhere in the game (over the shipped scenarios in turn), then values
//! greedy's eight best candidates there by WORLDS play-outs each to the end of the game, both sides playing greedy,
//! on common random worlds (the same dice and cards for every candidate). The gap between the best candidate and
//! greedy's own choice is what a search with a perfect estimate could gain at that decision; each PLAYER named
//! (`mcts:…`) is asked the same decision, and its gain is the value of its choice less greedy's (docs/findings.md).

use pacw_ai::{GreedyPlayer, Player};
use pacw_engine::{Battle, Game, SHIPPED_SCENARIOS, Side, ToAct};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// 1, ½ or 0 as the first side wins, draws or loses a greedy play-out in the world `world`.
fn playout(mut b: Battle, world: u64) -> f32 {
    let mut dice = ChaCha8Rng::seed_from_u64(world);
    let mut greedy = GreedyPlayer::new(world);
    loop {
        match b.to_act() {
            ToAct::Over(r) => {
                return match r.winner {
                    Some(Side::A) => 1.0,
                    Some(Side::B) => 0.0,
                    None => 0.5,
                };
            }
            ToAct::Chance(_) => {
                let outcome = b.sample_chance(&mut dice).expect("chance is pending");
                b.apply_chance(outcome).expect("sampled outcomes apply");
            }
            ToAct::Side(_) => {
                let action = greedy.choose(&b);
                b.apply(action).expect("greedy chooses legal actions");
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let worlds: u64 = args[1].parse().expect("WORLDS is a number");
    let positions: u64 = args[2].parse().expect("POSITIONS is a number");
    let first: u64 = args.get(3).map_or(0, |s| s.parse().expect("FIRST is a number"));
    let judged: Vec<&String> = args.iter().skip(4).collect();
    let mut gains = vec![0f32; judged.len()];
    for pos in first..first + positions {
        let pacw_engine::Shipped { name, file, text } = SHIPPED_SCENARIOS[pos as usize % SHIPPED_SCENARIOS.len()];
        let mut game = Game::new(text, file, None, pos * 31 + 7).expect("shipped scenarios are valid");
        let mut players = [GreedyPlayer::new(pos), GreedyPlayer::new(pos + 9)];
        // Stop at a real choice somewhere between the 10th and the 90th decision.
        let stop = 10 + (pos * 17) % 80;
        let mut decisions = 0;
        while let ToAct::Side(side) = game.battle().to_act() {
            if decisions >= stop && game.battle().legal_actions().len() > 1 {
                break;
            }
            let action = players[side.index()].choose(game.battle());
            game.act(action).expect("greedy chooses legal actions");
            decisions += 1;
        }
        let b = game.battle();
        let ToAct::Side(side) = b.to_act() else { continue };
        let ranked = GreedyPlayer::new(pos).ranked(b);
        let mut values = vec![0f32; ranked.len().min(8)];
        for w in 0..worlds {
            for (value, &action) in values.iter_mut().zip(&ranked) {
                let mut after = b.clone();
                after.apply(action).expect("ranked actions are legal");
                let v = playout(after, w * 7 + pos);
                *value += if side == Side::A { v } else { 1.0 - v };
            }
        }
        values.iter_mut().for_each(|v| *v /= worlds as f32);
        let best = values.iter().copied().fold(f32::MIN, f32::max);
        let kind = if b.active_unit().is_some() { "order" } else { "activation" };
        let listed: Vec<String> = values.iter().map(|v| format!("{v:.3}")).collect();
        let mut picks = String::new();
        for (gain, name) in gains.iter_mut().zip(&judged) {
            let choice = pacw_ai::player(name, pos).expect("a known player").choose(b);
            match ranked.iter().take(values.len()).position(|&a| a == choice) {
                Some(rank) => {
                    *gain += values[rank] - values[0];
                    picks += &format!(" | {name} picks #{}", rank + 1);
                }
                None => picks += &format!(" | {name} picks outside the eight"),
            }
        }
        println!(
            "{pos:>3} {name:<18} decision {decisions:>3}, {kind:<10} {:>2} legal: greedy {:.3}, best {best:.3}, gap {:.3} | {}{picks}",
            ranked.len(),
            values[0],
            best - values[0],
            listed.join(" ")
        );
    }
    for (gain, name) in gains.iter().zip(&judged) {
        println!("{name}: mean gain over greedy's choice {:.4} a decision", gain / positions as f32);
    }
}
