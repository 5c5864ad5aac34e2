//! # pacw-ai
//!
//! Computer players. Each sees only the battle as it stands, never the seeded future: chance is the engine's.

mod random;

pub use random::RandomPlayer;

use pacw_engine::{Action, Battle};

/// A computer player: given a battle where its side acts, it picks one of the legal actions.
pub trait Player {
    /// Its name, as on the command line (`random`, …).
    fn name(&self) -> &str;

    /// Picks an action; `battle.to_act()` is this player's side and at least one action is legal.
    fn choose(&mut self, battle: &Battle) -> Action;
}

/// The names of the players [`player`] knows.
pub const PLAYERS: &[&str] = &["random"];

/// A player by name, seeded for determinism; `None` for an unknown name.
pub fn player(name: &str, seed: u64) -> Option<Box<dyn Player + Send>> {
    match name {
        "random" => Some(Box::new(RandomPlayer::new(seed))),
        _ => None,
    }
}
