//! The battle page's view of a game for a token, the questions it asks without changing it (a unit's orders, an
//! order explained, the game's summary), and the save of a finished game.

use super::{AppState, Body, blocking};
use crate::board::{ExplainRequest, Explanation, UnitOrders};
use crate::error::{ApiError, ApiResult};
use crate::session::{ContactRequest, ContactView, GameSummary};
use crate::view::GameView;
use axum::Json;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use serde::Deserialize;

/// Query of `GET /api/play/{token}`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ViewQuery {
    /// Return the log from this event index on (default 0: all of it).
    pub log_from: Option<usize>,
}

/// Reads a query string, turning a malformed one into the API's 400.
///
/// # Errors
/// When the query string cannot be read (400).
pub fn query<T: Default>(q: Result<Query<T>, QueryRejection>) -> ApiResult<T> {
    q.map(|Query(v)| v).map_err(|e| ApiError::BadRequest(format!("bad query string: {}", e.body_text())))
}

/// `GET /api/play/{token}`: the full view of the game for this token.
///
/// # Errors
/// When the query string cannot be read (400), the token opens no game (404, or 410 for a game put away), or the game
/// cannot be loaded from the database (500).
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
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::save_of`](crate::session::Games::save_of).
pub async fn save(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Json<pacw_engine::SaveFile>> {
    let (entry, _) = games.by_token(&token)?;
    Ok(Json(games.save_of(&entry)?))
}

/// `GET /api/play/{token}/summary`: the game's public facts for this token (for a "your games" list).
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away).
pub async fn summary(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Json<GameSummary>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(games.summary(&entry, role)))
}

/// `GET /api/play/{token}/units/{unit}`: a unit's orders (also before its activation) with their odds, the path
/// of each move, the line of sight to every square, and why every other square and enemy is refused.
///
/// # Errors
/// When the unit in the path is not a number (400), the token opens no game (404, or 410 for a game put away), or as
/// [`Games::unit_orders`](crate::session::Games::unit_orders).
pub async fn unit(
    State(games): State<AppState>,
    path: Result<Path<(String, u8)>, PathRejection>,
) -> ApiResult<Json<UnitOrders>> {
    let Path((token, unit)) =
        path.map_err(|e| ApiError::BadRequest(format!("the unit must be a number from 0: {}", e.body_text())))?;
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.unit_orders(&entry, role, unit)).await?))
}

/// `POST /api/play/{token}/explain`: `{"unit": 3, "action": {...}}`: whether that order is legal now (after the
/// unit's activation, if it is not yet activated), why not, and its odds. Changes nothing.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::explain`](crate::session::Games::explain).
pub async fn explain(
    State(games): State<AppState>,
    Path(token): Path<String>,
    Body(req): Body<ExplainRequest>,
) -> ApiResult<Json<Explanation>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.explain(&entry, role, req)).await?))
}

/// `GET /api/play/{token}/notify`: where this player of a two-player game is told it is their move.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::contact`](crate::session::Games::contact).
pub async fn contact(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Json<ContactView>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(blocking(move || games.contact(&entry, role)).await?))
}

/// `PUT /api/play/{token}/notify`: `{"email": …, "webhook": …}`, where to be told (blank or missing: nowhere).
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::set_contact`](crate::session::Games::set_contact).
pub async fn set_contact(
    State(games): State<AppState>,
    Path(token): Path<String>,
    headers: HeaderMap,
    Body(req): Body<ContactRequest>,
) -> ApiResult<Json<ContactView>> {
    let (entry, role) = games.by_token(&token)?;
    let origin = super::request_origin(&headers);
    Ok(Json(blocking(move || games.set_contact(&entry, role, &token, req, &origin)).await?))
}

/// A game's chat.
#[derive(serde::Serialize)]
pub struct Chat {
    /// Its messages, oldest first.
    pub messages: Vec<crate::store::ChatRecord>,
}

/// `GET /api/play/{token}/chat`: the players' chat (a player's link of a two-player game only).
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as [`Games::chat`](crate::session::Games::chat).
pub async fn chat(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Json<Chat>> {
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(Chat { messages: blocking(move || games.chat(&entry, role)).await? }))
}

/// `POST /api/play/{token}/chat`: `{"text"}` → 201 with the message as stored.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as [`Games::say`](crate::session::Games::say).
pub async fn say(
    State(games): State<AppState>,
    Path(token): Path<String>,
    Body(req): Body<crate::session::ChatRequest>,
) -> ApiResult<(axum::http::StatusCode, Json<crate::store::ChatRecord>)> {
    let (entry, role) = games.by_token(&token)?;
    Ok((axum::http::StatusCode::CREATED, Json(blocking(move || games.say(&entry, role, req)).await?)))
}
