//! One self-play game: the network player on both sides, and the positions it leaves to learn from.

use super::SelfPlayConfig;
use pacw_ai::evaluator::result_value;
use pacw_ai::network::encoding::{Encoding, encode};
use pacw_ai::network::judge::estimates;
use pacw_ai::network::{Network, Scratch, sigmoid};
use pacw_ai::{Player, TdPlayer};
use pacw_engine::{Battle, ToAct};
use pacw_sim::seed::player_seed;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The most decisions a game may take (a guard: every game ends by its turn limit long before).
pub(super) const MAX_DECISIONS: usize = 200_000;

/// One self-play game: every position the network player's judge estimates (a side to act, a card to be drawn:
/// [`estimates`]), the network's value of each (for the first side), and the result.
pub(super) struct Trajectory {
    pub(super) positions: Vec<Encoding>,
    pub(super) values: Vec<f32>,
    pub(super) result: f32,
}

impl Trajectory {
    /// Each position with its λ-return: the result for the last, and for each other (1 − λ) times the next
    /// position's value plus λ times the next position's λ-return.
    pub(super) fn targets(&self, lambda: f32) -> Vec<(&Encoding, f32)> {
        let mut targets = vec![0.0; self.positions.len()];
        let mut ahead = self.result;
        for t in (0..self.positions.len()).rev() {
            targets[t] = ahead;
            ahead = (1.0 - lambda) * self.values[t] + lambda * ahead;
        }
        self.positions.iter().zip(targets).collect()
    }
}

/// Plays self-play game `index` with `network` on both sides.
pub(super) fn play(config: &SelfPlayConfig, network: &Arc<Network>, index: u64) -> Trajectory {
    let game = config.battles().game(index);
    let mut dice = ChaCha8Rng::seed_from_u64(game.seed);
    let mut players =
        [0, 1].map(|slot| TdPlayer::new(network.clone(), player_seed(game.seed, slot)).exploring(config.exploration));
    let mut b = Battle::new(game.scenario.clone(), game.options);
    let (mut positions, mut values) = (Vec::new(), Vec::new());
    let mut scratch = Scratch::default();
    let mut events = Vec::new();
    for _ in 0..MAX_DECISIONS {
        if estimates(&b) {
            let mut x = Encoding::default();
            encode(&b, &mut x);
            values.push(sigmoid(network.logit(&x, &mut scratch)));
            positions.push(x);
        }
        match b.to_act() {
            ToAct::Side(side) => {
                let action = players[side.index()].choose(&b);
                b.apply_unchecked(action, &mut events);
            }
            ToAct::Chance(_) => match b.sample_chance(&mut dice) {
                Some(outcome) => {
                    if b.apply_chance_into(outcome, &mut events).is_err() {
                        break;
                    }
                }
                None => break,
            },
            ToAct::Over(_) => break,
        }
    }
    let result = b.result().map_or(0.5, result_value);
    Trajectory { positions, values, result }
}
