//! Secret tokens and ids: random from the operating system, written in hex.

use pacw_engine::Side;
use serde::{Deserialize, Serialize};

/// A fresh secret token: 128 random bits as 32 hex digits.
///
/// # Panics
/// If the operating system's random source fails.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    hex(&bytes)
}

/// A fresh public game id: 64 random bits as 16 hex digits.
///
/// # Panics
/// If the operating system's random source fails.
pub fn new_game_id() -> String {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    hex(&bytes)
}

/// A fresh secret seed for a game's dice and cards.
///
/// # Panics
/// If the operating system's random source fails.
pub fn new_seed() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    u64::from_le_bytes(bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether a string has the shape of a token (so a malformed link gets a clear message).
pub fn looks_like_token(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

pub use pacw_play::setup::Role;

/// A game's tokens: one per role that the mode gives.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    /// Acts for the first side.
    #[serde(default, rename = "A", skip_serializing_if = "Option::is_none")]
    pub a: Option<String>,
    /// Acts for the second side.
    #[serde(default, rename = "B", skip_serializing_if = "Option::is_none")]
    pub b: Option<String>,
    /// Acts for both sides (hot-seat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hotseat: Option<String>,
    /// Watches only.
    pub spectator: String,
}

impl Tokens {
    /// Every (token, role) pair.
    pub fn pairs(&self) -> Vec<(String, Role)> {
        let mut v = Vec::new();
        if let Some(t) = &self.a {
            v.push((t.clone(), Role::Side(Side::A)));
        }
        if let Some(t) = &self.b {
            v.push((t.clone(), Role::Side(Side::B)));
        }
        if let Some(t) = &self.hotseat {
            v.push((t.clone(), Role::Both));
        }
        v.push((self.spectator.clone(), Role::Spectator));
        v
    }

    /// Only the spectator token (what the games list shows when the server is reachable from other machines).
    pub fn public(&self) -> Tokens {
        Tokens { spectator: self.spectator.clone(), ..Tokens::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bit_hex_and_differ() {
        let (a, b) = (new_token(), new_token());
        assert!(looks_like_token(&a) && looks_like_token(&b));
        assert_ne!(a, b);
        assert_eq!(new_game_id().len(), 16);
    }

    #[test]
    fn roles_control_their_sides() {
        assert!(Role::Both.controls(Side::A) && Role::Both.controls(Side::B));
        assert!(Role::Side(Side::B).controls(Side::B) && !Role::Side(Side::B).controls(Side::A));
        assert!(Role::Spectator.sides().is_empty());
    }
}
