//! The chat between the two players of a two-player game: kept with the game, pushed live to the players' pages
//! and never to a spectator's (nor given to a spectator's link). Each message is bounded, and is shown by the
//! pages as text, never as HTML; a player may mute it on their page.

use super::{GameEntry, Games, Update, UpdateEvent};
use crate::error::{ApiError, ApiResult};
use crate::setup::Mode;
use crate::store::ChatRecord;
use crate::tokens::Role;
use pacw_engine::Side;
use serde::Deserialize;

/// The longest message, in characters.
pub const MAX_CHAT_CHARS: usize = 500;

/// The most messages a game keeps.
pub const MAX_CHAT_MESSAGES: i64 = 2000;

/// `POST /api/play/{token}/chat`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    /// The message: 1 to 500 characters, no control characters but line breaks.
    pub text: String,
}

impl Games {
    /// The side of a player of a two-player game: the only ones who chat.
    fn chatting_side(entry: &GameEntry, role: Role) -> ApiResult<Side> {
        match role {
            Role::Side(side) if entry.mode == Mode::TwoPlayers => Ok(side),
            Role::Spectator => {
                Err(ApiError::Forbidden("the chat is the players' own: a spectator's link sees none".into()))
            }
            _ => Err(ApiError::Forbidden("only the two players of a two-player game chat".into())),
        }
    }

    /// The game's chat, for one of its players.
    ///
    /// # Errors
    /// When the link is not a player's of a two-player game (403), or SQLite fails (500).
    pub fn chat(&self, entry: &GameEntry, role: Role) -> ApiResult<Vec<ChatRecord>> {
        Self::chatting_side(entry, role)?;
        self.store.chat(&entry.id).map_err(|e| ApiError::Internal(e.to_string()))
    }

    /// A player says something: stored with the game, then pushed to the players' event streams.
    ///
    /// # Errors
    /// When the link is not a player's of a two-player game, or its seat's account is disabled (403), the message is
    /// empty, too long or has control characters (400), the game's chat is full (409), or SQLite fails (500).
    pub fn say(&self, entry: &GameEntry, role: Role, req: ChatRequest) -> ApiResult<ChatRecord> {
        let side = Self::chatting_side(entry, role)?;
        let text = req.text.trim();
        if text.is_empty() {
            return Err(ApiError::BadRequest("an empty message says nothing".into()));
        }
        if text.chars().count() > MAX_CHAT_CHARS {
            return Err(ApiError::BadRequest(format!("a message has at most {MAX_CHAT_CHARS} characters")));
        }
        if text.chars().any(|c| c.is_control() && c != '\n') {
            return Err(ApiError::BadRequest("a message has no control characters but line breaks".into()));
        }
        let st = entry.lock();
        self.check_enabled(&st, role)?;
        let key = if side == Side::A { "A" } else { "B" };
        let record = self
            .store
            .add_chat(&entry.id, key, text, MAX_CHAT_MESSAGES)
            .map_err(|e| ApiError::Internal(e.to_string()))?
            .ok_or_else(|| {
                ApiError::Conflict(format!("this game's chat holds {MAX_CHAT_MESSAGES} messages: it is full"))
            })?;
        let revision = st.live.as_ref().map_or(0, |l| l.revision);
        drop(st);
        let json = serde_json::to_string(&record).map_err(|e| ApiError::Internal(e.to_string()))?;
        let _ = entry.tx.send(Update { revision, json: json.into(), event: UpdateEvent::Chat });
        Ok(record)
    }
}
