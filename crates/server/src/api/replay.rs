//! Replay and review: every decision with the events it caused, the state after any decision, the luck ledger, and
//! the review of a finished game (who was winning, which decisions lost it, how much was luck).

use super::AppState;
use crate::error::{ApiError, ApiResult};
use crate::ledger::{Ledger, ledger as make_ledger};
use crate::session::ReviewReply;
use crate::view::{GameView, ReplayView, replay_view};
use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// `GET /api/play/{token}/replay`: the events before the first decision, then every decision with its side,
/// action, words and the events it caused.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or the game cannot be loaded from the database
/// (500).
pub async fn steps(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Json<ReplayView>> {
    let (entry, _) = games.by_token(&token)?;
    let live = games.snapshot(&entry)?;
    Ok(Json(replay_view(&live, &entry.players)))
}

/// `GET /api/play/{token}/replay/{decision}`: the full view of the game after that many decisions (0: the start).
///
/// # Errors
/// When the decision in the path is not written in digits alone (400), the token opens no game (404, or 410 for a
/// game put away), or as [`Games::view_at`](crate::session::Games::view_at).
pub async fn at(
    State(games): State<AppState>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult<Json<GameView>> {
    let Path((token, k)) = path.map_err(|e| ApiError::BadRequest(format!("bad path: {}", e.body_text())))?;
    let k = decision_number(&k)?;
    let (entry, role) = games.by_token(&token)?;
    Ok(Json(games.view_at(&entry, role, k)?))
}

/// A decision's number as a path writes it: digits only. Rust's own reading takes a sign (`+1`), which would give
/// one replay step two addresses; a step is counted from the start, so a sign means nothing here and is refused.
fn decision_number(text: &str) -> ApiResult<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::BadRequest(format!(
            "the decision must be a whole number of digits alone, counted from the start (0 to the game's \
             decisions), not '{}'",
            text.chars().take(40).collect::<String>()
        )));
    }
    text.parse().map_err(|_| ApiError::BadRequest(format!("the decision {text} is too large: no game has that many")))
}

/// `GET /api/play/{token}/ledger`: each side's expected and actual attack results so far.
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or the game cannot be loaded from the database
/// (500).
pub async fn ledger(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Json<Ledger>> {
    let (entry, _) = games.by_token(&token)?;
    let live = games.snapshot(&entry)?;
    Ok(Json(make_ledger(&live.game)))
}

/// `GET /api/play/{token}/review`: the game's review once made (`{"state": "done", "review": …}`), else where it
/// stands (`{"state": "running", "searched": 12, "total": 80}`, `none` or `failed`).
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::review`](crate::session::Games::review).
pub async fn review(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Response> {
    let (entry, _) = games.by_token(&token)?;
    Ok(review_reply(games.review(&entry)?, StatusCode::OK))
}

/// `POST /api/play/{token}/review`: starts the review of a finished game on the server's thinking pool (202 while
/// it is made; 200 with it once made; 409 while the game goes on).
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or as
/// [`Games::start_review`](crate::session::Games::start_review).
pub async fn start_review(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Response> {
    let (entry, _) = games.by_token(&token)?;
    Ok(review_reply(games.start_review(&entry)?, StatusCode::ACCEPTED))
}

fn review_reply(reply: ReviewReply, waiting: StatusCode) -> Response {
    match reply {
        ReviewReply::Done(json) => {
            let body = format!("{{\"state\":\"done\",\"review\":{json}}}");
            ([(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        ReviewReply::Progress(p) if p.state == "none" => (StatusCode::OK, Json(p)).into_response(),
        ReviewReply::Progress(p) => (waiting, Json(p)).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_is_digits_alone() {
        assert_eq!(decision_number("0").unwrap(), 0);
        assert_eq!(decision_number("012").unwrap(), 12);
        for bad in ["+1", "-1", "", " 1", "1.0", "x", "١"] {
            let e = decision_number(bad).unwrap_err();
            assert!(matches!(e, ApiError::BadRequest(_)), "{bad}: {e}");
        }
        assert!(decision_number("99999999999999999999999").unwrap_err().to_string().contains("too large"));
    }
}
