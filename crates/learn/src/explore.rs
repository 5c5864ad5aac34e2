//! The players of the training games: greedy, now and then trying a legal action at random, so that the evaluator
//! also sees the positions that weaker and bolder play leads to (a review judges people's games, not only greedy's).

use pacw_ai::{GreedyPlayer, Player};
use pacw_engine::{Action, Battle, LegalActions};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Greedy, but with chance `explore` a uniformly random legal action instead.
pub struct Explorer {
    greedy: GreedyPlayer,
    explore: f64,
    rng: ChaCha8Rng,
    legal: LegalActions,
}

impl Explorer {
    /// A player exploring with chance `explore` (0: plain greedy), seeded for its choices.
    pub fn new(explore: f64, seed: u64) -> Explorer {
        Explorer {
            greedy: GreedyPlayer::new(seed),
            explore: explore.clamp(0.0, 1.0),
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x005e_ed0f_e8b1_07e5),
            legal: LegalActions::new(),
        }
    }
}

impl Player for Explorer {
    fn name(&self) -> &str {
        "explorer"
    }

    fn choose(&mut self, battle: &Battle) -> Action {
        if self.explore > 0.0 && self.rng.random_bool(self.explore) {
            battle.list_legal(&mut self.legal);
            let i = self.rng.random_range(0..self.legal.len());
            return self.legal.actions()[i];
        }
        self.greedy.choose(battle)
    }
}
