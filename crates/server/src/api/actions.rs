//! Acting and taking back: every action is checked by the engine and committed to the database before the reply.

use super::{AppState, Body, blocking};
use crate::error::ApiResult;
use crate::session::{ActRequest, UndoRequest};
use crate::view::GameView;
use axum::Json;
use axum::extract::{Path, State};

/// `POST /api/play/{token}/actions`: `{"index": 3}` and/or `{"action": {...}}`, optionally `"decisions": n`.
/// The reply is the view with the log from the first event the action caused.
pub async fn act(
    State(games): State<AppState>,
    Path(token): Path<String>,
    Body(req): Body<ActRequest>,
) -> ApiResult<Json<GameView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.act(&entry, role, req)).await?))
}

/// `POST /api/play/{token}/undo`: `{"count": 1}` (the default); the reply is the full view.
pub async fn undo(
    State(games): State<AppState>,
    Path(token): Path<String>,
    Body(req): Body<UndoRequest>,
) -> ApiResult<Json<GameView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.undo(&entry, role, req)).await?))
}
