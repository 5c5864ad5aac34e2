//! Acting, taking back, resigning and a rematch: every change is checked by the engine and committed to the
//! database before the reply.

use super::{AppState, Body, blocking};
use crate::error::ApiResult;
use crate::session::{ActRequest, Created, ResignRequest, UndoRequest};
use crate::view::GameView;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;

/// `POST /api/play/{token}/actions`: `{"index": 3}` and/or `{"action": {...}}`, optionally `"decisions": n`.
/// The reply is the view with the log from the first event the action caused.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as [`Games::act`](crate::session::Games::act).
pub async fn act(
    State(games): State<AppState>,
    Path(token): Path<String>,
    Body(req): Body<ActRequest>,
) -> ApiResult<Json<GameView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.act(&entry, role, req)).await?))
}

/// `POST /api/play/{token}/undo`: `{"count": 1}` (the default); the reply is the full view.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as [`Games::undo`](crate::session::Games::undo).
pub async fn undo(
    State(games): State<AppState>,
    Path(token): Path<String>,
    Body(req): Body<UndoRequest>,
) -> ApiResult<Json<GameView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.undo(&entry, role, req)).await?))
}

/// `POST /api/play/{token}/resign`: `{}` (a hot-seat link may name `"side"`); the reply is the full view.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::resign`](crate::session::Games::resign).
pub async fn resign(
    State(games): State<AppState>,
    Path(token): Path<String>,
    Body(req): Body<ResignRequest>,
) -> ApiResult<Json<GameView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.resign(&entry, role, req)).await?))
}

/// The reply to a rematch: the new game, and which of its roles continues the requester's part.
#[derive(serde::Serialize)]
pub struct Rematch {
    /// The new game, as `POST /api/games` gives it.
    #[serde(flatten)]
    pub created: Created,
    /// The requester's role in it (`A`, `B`, `hotseat` or `spectator`): the side swapped.
    pub you: &'static str,
}

/// `POST /api/play/{token}/rematch`: a new game of the same scenario and options with the sides swapped.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::rematch`](crate::session::Games::rematch).
pub async fn rematch(
    State(games): State<AppState>,
    Path(token): Path<String>,
) -> ApiResult<(StatusCode, Json<Rematch>)> {
    let (entry, role) = games.by_token(&token)?;
    let (created, you) = blocking(move || games.rematch(&entry, role)).await?;
    Ok((StatusCode::CREATED, Json(Rematch { created, you })))
}

/// `GET /api/play/{token}/takeback`: where a take-back request stands (a player of a casual two-player game).
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::takeback`](crate::session::Games::takeback).
pub async fn takeback(
    State(games): State<AppState>,
    Path(token): Path<String>,
) -> ApiResult<Json<crate::session::TakebackView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.takeback(&entry, role)).await?))
}

/// `POST /api/play/{token}/takeback`: asks the other player to take back one's last decision.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::ask_takeback`](crate::session::Games::ask_takeback).
pub async fn ask_takeback(
    State(games): State<AppState>,
    Path(token): Path<String>,
) -> ApiResult<Json<crate::session::TakebackView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.ask_takeback(&entry, role)).await?))
}

/// An answer to a take-back request or a draw offer.
#[derive(serde::Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TakebackAnswer {
    /// Whether the take-back is accepted.
    pub accept: bool,
}

/// `POST /api/play/{token}/takeback/answer`: `{"accept": true}` takes the decisions back (the full view is the
/// reply); `false` declines.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::answer_takeback`](crate::session::Games::answer_takeback).
pub async fn answer_takeback(
    State(games): State<AppState>,
    Path(token): Path<String>,
    Body(req): Body<TakebackAnswer>,
) -> ApiResult<Json<GameView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.answer_takeback(&entry, role, req.accept)).await?))
}

/// `GET /api/play/{token}/draw`: where a draw offer stands (a player of a two-player game).
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as [`Games::draw`](crate::session::Games::draw).
pub async fn draw(
    State(games): State<AppState>,
    Path(token): Path<String>,
) -> ApiResult<Json<crate::session::DrawView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(games.draw(&entry, role)?))
}

/// `POST /api/play/{token}/draw`: offers the other player a draw.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::offer_draw`](crate::session::Games::offer_draw).
pub async fn offer_draw(
    State(games): State<AppState>,
    Path(token): Path<String>,
) -> ApiResult<Json<crate::session::DrawView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.offer_draw(&entry, role)).await?))
}

/// `POST /api/play/{token}/draw/answer`: `{"accept": true}` ends the game as a draw agreed (the full view is the
/// reply); `false` declines.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::answer_draw`](crate::session::Games::answer_draw).
pub async fn answer_draw(
    State(games): State<AppState>,
    Path(token): Path<String>,
    Body(req): Body<TakebackAnswer>,
) -> ApiResult<Json<GameView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.answer_draw(&entry, role, req.accept)).await?))
}
