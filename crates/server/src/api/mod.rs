//! The JSON API under `/api` (docs/api.md): one module per resource. Handlers only read the request, call the
//! session layer and write the reply; changes run on a blocking thread (engine, then SQLite commit).

pub mod actions;
pub mod balance;
pub mod clock;
pub mod club;
pub mod events;
pub mod games;
pub mod lobby;
pub mod replay;

use crate::error::{ApiError, ApiResult};
use crate::session::Games;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use std::sync::Arc;

/// The shared state of the handlers.
pub type AppState = Arc<Games>;

/// The API's routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api", get(lobby::info))
        .route("/api/info", get(lobby::info))
        .route("/api/scenarios", get(lobby::scenarios))
        .route("/api/scenarios/check", post(lobby::check))
        .route("/api/scenarios/balance", post(balance::balance))
        .route("/api/scenarios/{name}", get(lobby::scenario))
        .route("/api/games", get(lobby::list_games).post(lobby::create_game))
        .route("/api/play/{token}", get(games::view))
        .route("/api/play/{token}/save", get(games::save))
        .route("/api/play/{token}/actions", post(actions::act))
        .route("/api/play/{token}/undo", post(actions::undo))
        .route("/api/play/{token}/resign", post(actions::resign))
        .route("/api/play/{token}/rematch", post(actions::rematch))
        .route("/api/play/{token}/summary", get(games::summary))
        .route("/api/play/{token}/notify", get(games::contact).put(games::set_contact))
        .route("/api/play/{token}/chat", get(games::chat).post(games::say))
        .route("/api/play/{token}/takeback", get(actions::takeback).post(actions::ask_takeback))
        .route("/api/play/{token}/takeback/answer", post(actions::answer_takeback))
        .route("/api/play/{token}/draw", get(actions::draw).post(actions::offer_draw))
        .route("/api/play/{token}/draw/answer", post(actions::answer_draw))
        .route("/api/play/{token}/clock", get(clock::clock))
        .route("/api/play/{token}/clock/claim", post(clock::claim))
        .route("/api/test/clock", post(clock::advance))
        .route("/api/play/{token}/units/{unit}", get(games::unit))
        .route("/api/play/{token}/explain", post(games::explain))
        .route("/api/play/{token}/events", get(events::stream))
        .route("/api/play/{token}/replay", get(replay::steps))
        .route("/api/play/{token}/replay/{decision}", get(replay::at))
        .route("/api/play/{token}/ledger", get(replay::ledger))
        .route("/api/play/{token}/review", get(replay::review).post(replay::start_review))
        .route("/api/me", get(club::me))
        .route("/api/account", axum::routing::put(club::settings))
        .route("/api/account/signup", post(club::sign_up))
        .route("/api/account/login", post(club::log_in))
        .route("/api/account/logout", post(club::log_out))
        .route("/api/account/forgot", post(club::forgot))
        .route("/api/account/reset", post(club::reset))
        .route("/api/account/claim", post(club::claim))
        .route("/api/account/vacation", post(club::start_vacation).delete(club::end_vacation))
        .route("/api/players/{name}", get(club::player))
        .route("/api/leaderboard", get(club::leaderboard))
        .route("/api/room", get(club::room).post(club::post))
        .route("/api/room/seek", get(club::my_seek).post(club::seek).delete(club::withdraw_seek))
        .route("/api/room/{id}", get(club::posting).delete(club::withdraw))
        .route("/api/room/{id}/join", post(club::join))
}

/// The origin a request's page was on (the guard has checked it is this server's), else this server as the `Host`
/// names it: the start of the links put in notices.
pub fn request_origin(headers: &axum::http::HeaderMap) -> String {
    use axum::http::header;
    headers
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .map(str::to_string)
        .or_else(|| headers.get(header::HOST).and_then(|h| h.to_str().ok()).map(|h| format!("http://{h}")))
        .unwrap_or_else(|| "http://localhost".to_string())
}

/// A JSON request body. Unlike axum's `Json` it accepts any content type, reads an empty body as `{}`, and turns
/// every failure into the API's JSON error (400, or 413 past the size limit).
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::TooLarge(format!("the request body is larger than {} KiB", crate::BODY_LIMIT / 1024))
            } else {
                ApiError::BadRequest(format!("cannot read the request body: {}", rejection.body_text()))
            }
        })?;
        let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &bytes };
        serde_json::from_slice(text).map(Body).map_err(|e| ApiError::BadRequest(format!("bad JSON request: {e}")))
    }
}

/// Runs a change on a blocking thread: the engine's work and the database commit never stall the runtime. A panic
/// there is logged and answered as a plain 500: its text never reaches the client.
///
/// # Errors
/// When `f` fails, with its error; when it panics, a plain 500.
pub async fn blocking<T: Send + 'static>(f: impl FnOnce() -> ApiResult<T> + Send + 'static) -> ApiResult<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        eprintln!("pacw server: a request failed: {e}");
        ApiError::Internal(crate::error::FAILED.into())
    })?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panic_while_handling_a_request_is_a_plain_500_without_its_text() {
        let reply = blocking::<()>(|| panic!("secret detail of the failure")).await.unwrap_err();
        assert!(matches!(reply, ApiError::Internal(_)));
        assert!(!reply.to_string().contains("secret"), "{reply}");
    }
}
