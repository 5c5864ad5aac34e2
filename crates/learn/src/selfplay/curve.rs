//! The learning curve: the network player against greedy on the shipped battles, the same games every time.

use super::game::MAX_DECISIONS;
use pacw_ai::evaluator::result_value;
use pacw_ai::network::Network;
use pacw_ai::{Evaluator, GreedyPlayer, Player, TdPlayer};
use pacw_engine::{Game, SHIPPED_SCENARIOS, Scenario, Side, ToAct};
use pacw_sim::seed::{game_seed, player_seed};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One point of the learning curve: the network player against greedy on the shipped battles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// Self-play games played before it.
    pub games: u64,
    /// Games against greedy.
    pub played: u64,
    /// The network player's mean score (a win 1, a draw ½).
    pub score: f64,
    /// Its mean luck-adjusted score.
    pub luck_adjusted: f64,
    /// The standard error of the luck-adjusted mean.
    pub standard_error: f64,
}

/// The network player against greedy: `per_battle` games on each shipped battle, sides swapping, the same seeds
/// every time; each game's luck judged by the reference evaluator.
///
/// # Panics
/// If a shipped battle is refused by the engine, which the engine's tests rule out.
pub fn against_greedy(network: &Arc<Network>, per_battle: u64, seed: u64) -> CurvePoint {
    let evaluator = Evaluator::reference();
    let games: Vec<(u64, u64)> =
        (0..SHIPPED_SCENARIOS.len() as u64).flat_map(|s| (0..per_battle).map(move |k| (s, k))).collect();
    let results: Vec<(f64, f64)> = games
        .par_iter()
        .map(|&(s, k)| {
            let shipped = &SHIPPED_SCENARIOS[s as usize];
            let scenario = Arc::new(Scenario::parse(shipped.text, shipped.file).expect("shipped battles are valid"));
            let game_seed = game_seed(seed ^ 0x6375_7276, s * 1_000_003 + k);
            let td_side = if k % 2 == 0 { Side::A } else { Side::B };
            let mut td = TdPlayer::new(network.clone(), player_seed(game_seed, 0));
            let mut greedy = GreedyPlayer::new(player_seed(game_seed, 1));
            let mut game = Game::with_scenario(scenario, shipped.text, shipped.file, None, game_seed);
            let mut decisions = 0;
            while let ToAct::Side(side) = game.battle().to_act() {
                let action = if side == td_side { td.choose(game.battle()) } else { greedy.choose(game.battle()) };
                game.act_unchecked(action);
                decisions += 1;
                if decisions >= MAX_DECISIONS {
                    break;
                }
            }
            let first = game.battle().result().map_or(0.5, result_value) as f64;
            let luck = pacw_sim::run::luck_of(&game, &evaluator) as f64 / 1e6;
            let of_td = |first: f64| if td_side == Side::A { first } else { 1.0 - first };
            (of_td(first), of_td(first - luck))
        })
        .collect();
    let n = results.len().max(1) as f64;
    let score = results.iter().map(|r| r.0).sum::<f64>() / n;
    let adjusted = results.iter().map(|r| r.1).sum::<f64>() / n;
    let variance = results.iter().map(|r| (r.1 - adjusted).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    CurvePoint {
        games: 0,
        played: results.len() as u64,
        score,
        luck_adjusted: adjusted,
        standard_error: (variance / n).sqrt(),
    }
}
