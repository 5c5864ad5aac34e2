//! A pacw game as its players see it: the engine's game with its decisions ([`live::Live`]), who plays each side
//! ([`setup`]), the rules a new game is played by ([`game_rules`]), and the JSON views of it ([`view`], [`board`],
//! [`ledger`]) that both the server's API and the browser build (`crates/wasm`) return, so that the web front end
//! reads the same JSON from either. Built only on the engine's and the computer players' public APIs: no I/O, no
//! threads.

#![deny(missing_docs)]

pub mod board;
pub mod check;
pub mod game_rules;
pub mod ledger;
pub mod live;
pub mod rules;
pub mod setup;
pub mod view;
