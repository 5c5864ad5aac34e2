//! The JSON the API returns: scenarios, the full view of a game for a token, actions with their odds, the log.
//! Built only from the engine's public API; docs/api.md describes every field.

mod deck;
mod game;
mod replay;
mod scenario;

pub use deck::*;
pub use game::*;
pub use replay::*;
pub use scenario::*;
