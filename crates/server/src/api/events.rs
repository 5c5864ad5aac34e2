//! Live updates: a server-sent-events stream per game and token.

use super::AppState;
use crate::error::ApiResult;
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream, StreamExt};
use serde_json::json;
use std::convert::Infallible;
use tokio::sync::broadcast::error::RecvError;

/// `GET /api/play/{token}/events`: first a `hello` event with the current revision, then an `update` event for
/// every action or undo (by anyone, the computer included), a `chat` event for every chat message (to a player's
/// link only, never a spectator's), a `resync` event if this stream fell behind (reload
/// the view), and a comment every 15 s to keep the connection open. The stream ends when the server stops. A game
/// takes at most `STREAMS_PER_GAME` streams and the server `STREAMS_IN_ALL`; past them: 503.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), the game or the server has as many streams open as
/// it takes (503), or the game cannot be loaded from the database (500).
pub async fn stream(
    State(games): State<AppState>,
    Path(token): Path<String>,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let (entry, role) = games.by_token(&token)?;
    let slot = games.open_stream(&entry, role)?; // held by the stream: given back when it ends
    let rx = entry.subscribe(); // before reading the revision, so no update falls between
    let (revision, decisions, log_len) = games.revision(&entry)?;
    let hello = Event::default().event("hello").data(
        json!({ "id": entry.id, "role": role.name(), "revision": revision, "decisions": decisions, "log_len": log_len })
            .to_string(),
    );
    let shutdown = games.shutdown_signal();
    let updates = stream::unfold((rx, shutdown, slot), move |(mut rx, mut shutdown, slot)| async move {
        loop {
            if *shutdown.borrow() {
                return None;
            }
            let event = tokio::select! {
                r = rx.recv() => match r {
                    Ok(u) if !u.event.heard_by(role) => continue,
                    Ok(u) => Event::default().event(u.event.name()).id(u.revision.to_string()).data(&*u.json),
                    Err(RecvError::Lagged(n)) => {
                        Event::default().event("resync").data(json!({ "missed": n }).to_string())
                    }
                    Err(RecvError::Closed) => return None,
                },
                _ = shutdown.wait_for(|&stop| stop) => return None,
            };
            return Some((Ok(event), (rx, shutdown, slot)));
        }
    });
    let all = stream::once(async move { Ok(hello) }).chain(updates);
    Ok(Sse::new(all).keep_alive(KeepAlive::default()))
}
