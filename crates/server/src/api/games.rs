//! The battle page's view of a game, for a token; and the save of a finished game.

use super::AppState;
use crate::error::{ApiError, ApiResult};
use crate::view::GameView;
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use serde::Deserialize;

/// Query of `GET /api/play/{token}`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ViewQuery {
    /// Return the log from this event index on (default 0: all of it).
    pub log_from: Option<usize>,
}

/// Reads a query string, turning a malformed one into the API's 400.
pub fn query<T: Default>(q: Result<Query<T>, QueryRejection>) -> ApiResult<T> {
    q.map(|Query(v)| v).map_err(|e| ApiError::BadRequest(format!("bad query string: {}", e.body_text())))
}

/// `GET /api/play/{token}`: the full view of the game for this token.
pub async fn view(
    State(games): State<AppState>,
    Path(token): Path<String>,
    q: Result<Query<ViewQuery>, QueryRejection>,
) -> ApiResult<Json<GameView>> {
    let q = query(q)?;
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(games.view(&entry, role, q.log_from.unwrap_or(0))?))
}

/// `GET /api/play/{token}/save`: the engine's save (scenario, options, seed, decisions), once the game is over;
/// `pacw replay` reads it.
pub async fn save(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Json<pacw_engine::SaveFile>> {
    let (entry, _) = games.by_token(&token)?;
    Ok(Json(games.save_of(&entry)?))
}
