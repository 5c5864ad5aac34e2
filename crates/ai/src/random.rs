//! The `random` player: uniform over the legal actions.

use crate::Player;
use pacw_engine::{Action, Battle, LegalActions};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Picks uniformly among the legal actions.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
    buffer: LegalActions,
}

impl RandomPlayer {
    /// A random player with its own seeded generator.
    pub fn new(seed: u64) -> Self {
        RandomPlayer { rng: ChaCha8Rng::seed_from_u64(seed), buffer: LegalActions::new() }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, battle: &Battle) -> Action {
        battle.list_legal(&mut self.buffer);
        let i = self.rng.random_range(0..self.buffer.len());
        self.buffer.get(i).expect("a side to act has a legal action")
    }
}
