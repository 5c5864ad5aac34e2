//! The pace of a game and its deadline: where the move's deadline stands, claiming the win once it has passed, and
//! moving a test clock forward (`pacw serve --test-clock` only).

use super::{AppState, Body, blocking};
use crate::error::ApiResult;
use crate::session::{AdvanceClock, ClockView};
use crate::view::GameView;
use axum::Json;
use axum::extract::{Path, State};

/// `GET /api/play/{token}/clock`: the pace and the deadline of the move under way (any link).
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away).
pub async fn clock(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Json<ClockView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(games.clock_view(&entry, role)))
}

/// `POST /api/play/{token}/clock/claim`: the waiting player claims the win once the other's deadline has passed; the
/// reply is the full view of the finished game.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::claim_win`](crate::session::Games::claim_win).
pub async fn claim(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Json<GameView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.claim_win(&entry, role)).await?))
}

/// The reply to moving the test clock.
#[derive(serde::Serialize)]
pub struct Advanced {
    /// The server's time now (ms since 1970).
    pub now: i64,
}

/// `POST /api/test/clock`: `{"hours": 73}` moves a test clock forward and looks at the deadlines at once (for tests:
/// only a server started with `--test-clock`; any other answers 404).
///
/// # Errors
/// As [`Games::advance_clock`](crate::session::Games::advance_clock).
pub async fn advance(State(games): State<AppState>, Body(req): Body<AdvanceClock>) -> ApiResult<Json<Advanced>> {
    Ok(Json(Advanced { now: blocking(move || games.advance_clock(req)).await? }))
}
