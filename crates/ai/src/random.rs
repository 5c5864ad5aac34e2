//! The `random` player: uniform over the legal actions.

use crate::Player;
use pacw_engine::{Action, Battle};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Picks uniformly among the legal actions.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
    buffer: Vec<Action>,
}

impl RandomPlayer {
    /// A random player with its own seeded generator.
    pub fn new(seed: u64) -> Self {
        RandomPlayer { rng: ChaCha8Rng::seed_from_u64(seed), buffer: Vec::new() }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, battle: &Battle) -> Action {
        battle.legal_actions_into(&mut self.buffer);
        self.buffer[self.rng.random_range(0..self.buffer.len())]
    }
}
