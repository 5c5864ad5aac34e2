//! # pacw-wasm
//!
//! The engine and the computer players compiled to WebAssembly for the offline app: a game lives in the browser
//! (a Web Worker, `web/js/worker.js`) instead of on the server. The binding is thin and needs no build tool beyond
//! cargo: the module exports `alloc`, `dealloc` and `call`, which takes one JSON request in linear memory and
//! returns one JSON reply (`abi`, built for wasm32 only); the [`Desk`] answers it with the same views (`pacw_play`) as the server's JSON
//! API (docs/api.md), so the front end reads the same JSON from either.
//!
//! ```
//! let mut desk = pacw_wasm::Desk::default();
//! let reply = desk.call(r#"{"op":"create","id":"g1","scenario":"meeting-engagement","mode":"hotseat","seed":"7"}"#);
//! let reply: serde_json::Value = serde_json::from_str(&reply).unwrap();
//! assert_eq!(reply["ok"]["view"]["mode"], "hotseat");
//! ```

#![deny(missing_docs)]

#[cfg(target_arch = "wasm32")]
pub mod abi;
mod desk;
mod request;

pub use desk::{Desk, MAX_GAMES, MAX_REQUEST, Reply};
pub use request::Request;
