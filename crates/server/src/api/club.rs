//! The club's endpoints: accounts (sign up, log in and out, settings, claiming a guest's seat), players' pages,
//! the leaderboard and the waiting room (docs/api.md). A request that changes something for an account needs its
//! session cookie and the session's anti-forgery token in `X-Pacw-Csrf`.

use super::{AppState, Body, blocking, request_origin};
use crate::connections::Peer;
use crate::error::{ApiError, ApiResult};
use crate::session::{
    AccountSettings, AccountView, CSRF_HEADER, ClaimRequest, Claimed, Forgot, Games, Joined, LeaderRow, LogIn,
    LoggedIn, PlayerPage, Posted, Posting, PostingView, Reset, ResetAsked, ResetDone, Seek, SeekView, SignUp,
    StartVacation, VacationView, cleared_cookie, session_cookie, session_of,
};
use crate::store::AccountRecord;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Serialize;
use std::sync::Arc;

/// The logged-in account of a request, with its session's id and anti-forgery token: `None` without a current
/// session.
async fn viewer(games: &Arc<Games>, headers: &HeaderMap) -> ApiResult<Option<(AccountRecord, String, String)>> {
    let Some(session) = session_of(headers) else { return Ok(None) };
    let games = games.clone();
    blocking(move || Ok(games.session_account(&session)?.map(|(a, csrf)| (a, session, csrf)))).await
}

/// The account of a request that changes something for it: a current session (else 401) whose anti-forgery token
/// the request carries in `X-Pacw-Csrf` (else 403).
///
/// # Errors
/// As said, or when SQLite fails (500).
pub async fn actor(games: &Arc<Games>, headers: &HeaderMap) -> ApiResult<AccountRecord> {
    let Some((account, _, csrf)) = viewer(games, headers).await? else {
        return Err(ApiError::Unauthorized("log in first (your session may have ended)".into()));
    };
    let sent = headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
    if sent != Some(csrf.as_str()) {
        return Err(ApiError::Forbidden(
            "this request lacks the page's anti-forgery token (X-Pacw-Csrf): reload the page".into(),
        ));
    }
    Ok(account)
}

/// The account that makes a new game from the lobby, if a logged-in page made it (its anti-forgery token sent):
/// a script without the token makes a guest's game, as before accounts.
///
/// # Errors
/// When SQLite fails (500).
pub async fn maker(games: &Arc<Games>, headers: &HeaderMap) -> ApiResult<Option<AccountRecord>> {
    if !headers.contains_key(CSRF_HEADER) || viewer(games, headers).await?.is_none() {
        // A guest's game: a script's, or a page whose session has ended since it loaded.
        return Ok(None);
    }
    actor(games, headers).await.map(Some)
}

fn client(games: &Games, peer: Option<Extension<Peer>>, headers: &HeaderMap) -> String {
    games.client_of(peer.map(|Extension(Peer(a))| a), headers)
}

fn is_https(games: &Games, peer: &Option<Extension<Peer>>, headers: &HeaderMap) -> bool {
    games.is_https(peer.as_ref().map(|Extension(Peer(a))| *a), headers)
}

/// Who is logged in (`GET /api/me`).
#[derive(Serialize)]
pub struct Me {
    /// The account, or `null` for a guest.
    pub account: Option<AccountView>,
}

/// `GET /api/me`: the logged-in account with its anti-forgery token, or `{"account": null}`.
///
/// # Errors
/// When SQLite fails (500).
pub async fn me(State(games): State<AppState>, headers: HeaderMap) -> ApiResult<Json<Me>> {
    let account = viewer(&games, &headers).await?.map(|(a, _, csrf)| games.account_view(&a, &csrf));
    Ok(Json(Me { account }))
}

fn logged_in(games: &Games, status: StatusCode, l: &LoggedIn, secure: bool) -> Response {
    let view = games.account_view(&l.account, &l.csrf);
    (status, [(header::SET_COOKIE, session_cookie(&l.session, secure))], Json(view)).into_response()
}

/// `POST /api/account/signup`: `{"name", "password", "email"?, "webhook"?}` → 201, logged in.
///
/// # Errors
/// As [`Games::sign_up`](crate::session::Games::sign_up).
pub async fn sign_up(
    State(games): State<AppState>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Body(req): Body<SignUp>,
) -> ApiResult<Response> {
    let (client, secure) = (client(&games, peer, &headers), is_https(&games, &peer, &headers));
    let g = games.clone();
    let l = blocking(move || g.sign_up(req, &client)).await?;
    Ok(logged_in(&games, StatusCode::CREATED, &l, secure))
}

/// `POST /api/account/login`: `{"name", "password"}` → 200 with a new session (any session the browser had is
/// ended).
///
/// # Errors
/// As [`Games::log_in`](crate::session::Games::log_in).
pub async fn log_in(
    State(games): State<AppState>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Body(req): Body<LogIn>,
) -> ApiResult<Response> {
    let (client, secure) = (client(&games, peer, &headers), is_https(&games, &peer, &headers));
    let old = session_of(&headers);
    let g = games.clone();
    let l = blocking(move || g.log_in(req, &client, old.as_deref())).await?;
    Ok(logged_in(&games, StatusCode::OK, &l, secure))
}

/// `POST /api/account/forgot`: `{"who"}` (a name or an e-mail address) → 202, the same answer whoever it names.
///
/// # Errors
/// As [`Games::forgot`](crate::session::Games::forgot).
pub async fn forgot(
    State(games): State<AppState>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Body(req): Body<Forgot>,
) -> ApiResult<(StatusCode, Json<ResetAsked>)> {
    let (client, origin) = (client(&games, peer, &headers), request_origin(&headers));
    Ok((StatusCode::ACCEPTED, Json(blocking(move || games.forgot(req, &client, &origin)).await?)))
}

/// `POST /api/account/reset`: `{"token", "password"}` → 200 with the account's name; its sessions are ended.
///
/// # Errors
/// As [`Games::reset_password`](crate::session::Games::reset_password).
pub async fn reset(
    State(games): State<AppState>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Body(req): Body<Reset>,
) -> ApiResult<Json<ResetDone>> {
    let client = client(&games, peer, &headers);
    Ok(Json(blocking(move || games.reset_password(req, &client)).await?))
}

/// `POST /api/account/logout`: ends the session (with its anti-forgery token) and clears the cookie.
///
/// # Errors
/// When the request is not a logged-in page's (401/403), or SQLite fails (500).
pub async fn log_out(
    State(games): State<AppState>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    actor(&games, &headers).await?;
    if let Some(session) = session_of(&headers) {
        let g = games.clone();
        blocking(move || {
            g.log_out(&session);
            Ok(())
        })
        .await?;
    }
    let secure = is_https(&games, &peer, &headers);
    Ok(([(header::SET_COOKIE, cleared_cookie(secure))], Json(Me { account: None })).into_response())
}

/// `PUT /api/account`: `{"email", "webhook"}`, where the owner is told of their move in games they join from now on.
///
/// # Errors
/// When the request is not a logged-in page's (401/403), or as
/// [`Games::set_account_contact`](crate::session::Games::set_account_contact).
pub async fn settings(
    State(games): State<AppState>,
    headers: HeaderMap,
    Body(req): Body<AccountSettings>,
) -> ApiResult<Json<crate::notify::Contact>> {
    let account = actor(&games, &headers).await?;
    Ok(Json(blocking(move || games.set_account_contact(&account, req)).await?))
}

/// `POST /api/account/claim`: `{"token"}`, a guest's link whose seat becomes the account's.
///
/// # Errors
/// When the request is not a logged-in page's (401/403), or as [`Games::claim`](crate::session::Games::claim).
pub async fn claim(
    State(games): State<AppState>,
    headers: HeaderMap,
    Body(req): Body<ClaimRequest>,
) -> ApiResult<Json<Claimed>> {
    let account = actor(&games, &headers).await?;
    let origin = request_origin(&headers);
    Ok(Json(blocking(move || games.claim(&account, &req.token, &origin)).await?))
}

/// `POST /api/account/vacation`: `{"days"}` → 201 with the days left; the clocks of the player's games at a pace of
/// days stop until it ends.
///
/// # Errors
/// When the request is not a logged-in page's (401/403), or as
/// [`Games::start_vacation`](crate::session::Games::start_vacation).
pub async fn start_vacation(
    State(games): State<AppState>,
    headers: HeaderMap,
    Body(req): Body<StartVacation>,
) -> ApiResult<(StatusCode, Json<VacationView>)> {
    let account = actor(&games, &headers).await?;
    Ok((StatusCode::CREATED, Json(blocking(move || games.start_vacation(&account, req)).await?)))
}

/// `DELETE /api/account/vacation`: the vacation ends now; the days not begun are the player's again.
///
/// # Errors
/// When the request is not a logged-in page's (401/403), or as
/// [`Games::end_vacation`](crate::session::Games::end_vacation).
pub async fn end_vacation(State(games): State<AppState>, headers: HeaderMap) -> ApiResult<Json<VacationView>> {
    let account = actor(&games, &headers).await?;
    Ok(Json(blocking(move || games.end_vacation(&account)).await?))
}

/// `GET /api/players/{name}`: a player's rating and games (their own links only to themselves).
///
/// # Errors
/// As [`Games::player_page`](crate::session::Games::player_page).
pub async fn player(
    State(games): State<AppState>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<PlayerPage>> {
    if name.len() > 256 {
        return Err(ApiError::NotFound("no player has so long a name".into()));
    }
    let viewer = viewer(&games, &headers).await?.map(|(a, ..)| a);
    Ok(Json(blocking(move || games.player_page(&name, viewer.as_ref())).await?))
}

/// The leaderboard.
#[derive(Serialize)]
pub struct Leaderboard {
    /// Every rated player, the highest first.
    pub players: Vec<LeaderRow>,
}

/// `GET /api/leaderboard`.
///
/// # Errors
/// When SQLite fails (500).
pub async fn leaderboard(State(games): State<AppState>) -> ApiResult<Json<Leaderboard>> {
    Ok(Json(Leaderboard { players: blocking(move || games.leaderboard()).await? }))
}

/// The waiting room.
#[derive(Serialize)]
pub struct Room {
    /// The public postings nobody has joined, and the viewer's own.
    pub postings: Vec<PostingView>,
}

/// `GET /api/room`.
///
/// # Errors
/// When SQLite fails (500).
pub async fn room(State(games): State<AppState>, headers: HeaderMap) -> ApiResult<Json<Room>> {
    let viewer = viewer(&games, &headers).await?.map(|(a, ..)| a);
    Ok(Json(Room { postings: blocking(move || games.room(viewer.as_ref())).await? }))
}

/// `POST /api/room`: posts a game → 201 with its id and invitation.
///
/// # Errors
/// When the request is not a logged-in page's (401/403), or as [`Games::post`](crate::session::Games::post).
pub async fn post(
    State(games): State<AppState>,
    headers: HeaderMap,
    Body(req): Body<Posting>,
) -> ApiResult<(StatusCode, Json<Posted>)> {
    let account = actor(&games, &headers).await?;
    Ok((StatusCode::CREATED, Json(blocking(move || games.post(&account, req)).await?)))
}

/// `GET /api/room/{id}`: one posting, by its invitation.
///
/// # Errors
/// As [`Games::posting`](crate::session::Games::posting).
pub async fn posting(
    State(games): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<PostingView>> {
    let viewer = viewer(&games, &headers).await?.map(|(a, ..)| a);
    Ok(Json(blocking(move || games.posting(&id, viewer.as_ref())).await?))
}

/// `POST /api/room/{id}/join` → 201 with the game and the joiner's link.
///
/// # Errors
/// When the request is not a logged-in page's (401/403), or as [`Games::join`](crate::session::Games::join).
pub async fn join(
    State(games): State<AppState>,
    Path(id): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> ApiResult<(StatusCode, Json<Joined>)> {
    let account = actor(&games, &headers).await?;
    let client = Games::client_key(Some(&account), client(&games, peer, &headers));
    let origin = request_origin(&headers);
    Ok((StatusCode::CREATED, Json(blocking(move || games.join(&account, &id, &client, &origin)).await?)))
}

/// `DELETE /api/room/{id}`: withdraws one's open posting.
///
/// # Errors
/// When the request is not a logged-in page's (401/403), or as [`Games::withdraw`](crate::session::Games::withdraw).
pub async fn withdraw(
    State(games): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<StatusCode> {
    let account = actor(&games, &headers).await?;
    blocking(move || games.withdraw(&account, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/room/seek`: where the logged-in account's request for any opponent stands.
///
/// # Errors
/// When the request is not a logged-in page's (401), or SQLite fails (500).
pub async fn my_seek(State(games): State<AppState>, headers: HeaderMap) -> ApiResult<Json<SeekView>> {
    let Some((account, ..)) = viewer(&games, &headers).await? else {
        return Err(ApiError::Unauthorized("log in first (your session may have ended)".into()));
    };
    Ok(Json(blocking(move || games.my_seek(&account)).await?))
}

/// `POST /api/room/seek`: `{"size", "pace", "rating"}` → 201 with the game's link when paired at once, else 202
/// waiting.
///
/// # Errors
/// When the request is not a logged-in page's (401/403), or as [`Games::seek`](crate::session::Games::seek).
pub async fn seek(
    State(games): State<AppState>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Body(req): Body<Seek>,
) -> ApiResult<(StatusCode, Json<SeekView>)> {
    let account = actor(&games, &headers).await?;
    let client = Games::client_key(Some(&account), client(&games, peer, &headers));
    let origin = request_origin(&headers);
    let view = blocking(move || games.seek(&account, req, &client, &origin)).await?;
    let status = if view.link.is_some() { StatusCode::CREATED } else { StatusCode::ACCEPTED };
    Ok((status, Json(view)))
}

/// `DELETE /api/room/seek`: withdraws the account's waiting request.
///
/// # Errors
/// When the request is not a logged-in page's (401/403), or as
/// [`Games::withdraw_seek`](crate::session::Games::withdraw_seek).
pub async fn withdraw_seek(State(games): State<AppState>, headers: HeaderMap) -> ApiResult<StatusCode> {
    let account = actor(&games, &headers).await?;
    blocking(move || games.withdraw_seek(&account)).await?;
    Ok(StatusCode::NO_CONTENT)
}
