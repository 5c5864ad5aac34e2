//! Errors of the API: each becomes an HTTP status and a JSON body `{"error": "..."}` (docs/api.md).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use pacw_engine::{Illegal, ScenarioError};
use pacw_play::game_rules::RulesRefused;
use serde::Serialize;

pub use pacw_play::check::{ProblemView, problem_views, problems};

/// A refused or failed request. Nothing was changed by it.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed: bad JSON, a missing or unknown field, a value out of range (400).
    #[error("{0}")]
    BadRequest(String),
    /// No game has this token, or no such resource (404).
    #[error("{0}")]
    NotFound(String),
    /// The token may not do this: a spectator acting, a side acting out of turn (403).
    #[error("{0}")]
    Forbidden(String),
    /// The request needs a logged-in account, or a log-in failed (401).
    #[error("{0}")]
    Unauthorized(String),
    /// The request was made against a state that has changed since (409).
    #[error("{0}")]
    Conflict(String),
    /// The request body is larger than the limit (413).
    #[error("{0}")]
    TooLarge(String),
    /// The engine refused the action, naming the rule (422).
    #[error("{0}")]
    Illegal(Illegal),
    /// A scenario failed its checks (422), with every problem.
    #[error("{0}")]
    Scenario(ScenarioError),
    /// An option name or value is not allowed (422).
    #[error("{0}")]
    Unprocessable(String),
    /// Something failed on the server, such as the database (500). Nothing was changed.
    #[error("{0}")]
    Internal(String),
    /// The server is at a bound it keeps (too many live streams): try later (503).
    #[error("{0}")]
    Unavailable(String),
    /// The game was put away after days without a move (410).
    #[error("{0}")]
    Gone(String),
    /// This client is at a bound the server keeps for each client (too many games the computer plays against
    /// itself at once): 429, with `Retry-After` in seconds.
    #[error("{0}")]
    TooMany(String, u64),
}

impl From<RulesRefused> for ApiError {
    fn from(refused: RulesRefused) -> ApiError {
        match refused {
            RulesRefused::Both => ApiError::BadRequest(refused.to_string()),
            RulesRefused::Unknown(_) => ApiError::NotFound(refused.to_string()),
            RulesRefused::Variant(e) => ApiError::Unprocessable(e.to_string()),
            RulesRefused::Scenario(e) => ApiError::Scenario(e),
        }
    }
}

#[derive(Serialize)]
struct Body<'a> {
    error: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    problems: Option<Vec<ProblemView>>,
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Illegal(_) | ApiError::Scenario(_) | ApiError::Unprocessable(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::TooMany(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Gone(_) => StatusCode::GONE,
        }
    }

    /// A 404 for a token that opens no game.
    pub fn no_game() -> ApiError {
        ApiError::NotFound("no game has this token (check the link)".into())
    }
}

impl From<Illegal> for ApiError {
    fn from(e: Illegal) -> Self {
        ApiError::Illegal(e)
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(e: rusqlite::Error) -> Self {
        ApiError::Internal(format!("database error: {e}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(m) = &self {
            eprintln!("pacw server: {m}");
        }
        let body = Body {
            error: match &self {
                ApiError::Illegal(e) => format!("illegal action: {e}"),
                ApiError::Scenario(e) => format!("the scenario has {} problem(s):\n{e}", e.problems.len()),
                other => other.to_string(),
            },
            rule: match &self {
                ApiError::Illegal(e) => Some(e.cited()),
                _ => None,
            },
            problems: match &self {
                ApiError::Scenario(e) => Some(problems(e)),
                _ => None,
            },
        };
        let mut reply = (self.status(), Json(body)).into_response();
        if let ApiError::TooMany(_, seconds) = &self {
            reply.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(*seconds));
        }
        reply
    }
}

/// What a client reads when the server failed on its request (the details go to the server's log only).
pub const FAILED: &str = "the server failed on this request; it is in the server's log";

/// The reply to a handler that panicked: the API's JSON 500, without the panic's text (for `CatchPanicLayer`).
pub fn panic_reply(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    eprintln!("pacw server: a request handler panicked");
    let body = Body { error: FAILED.to_string(), rule: None, problems: None };
    (StatusCode::INTERNAL_SERVER_ERROR, Json(body)).into_response()
}

/// The result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;
    use pacw_engine::{Illegal, Rule};

    async fn body(e: ApiError) -> serde_json::Value {
        let bytes = axum::body::to_bytes(e.into_response().into_body(), 1 << 16).await.unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[tokio::test]
    async fn a_refusal_cites_the_variants_own_rule_where_it_is_one_of_his() {
        let standard = body(ApiError::Illegal(Illegal::new(Rule::R6_1, "out of range"))).await;
        assert_eq!(standard["rule"], "R6.1");
        let variant = body(ApiError::Illegal(Illegal::by_variant("M1", Rule::R4_2, "no charges"))).await;
        assert_eq!(variant["rule"], "M1");
        assert_eq!(variant["error"], "illegal action: no charges (M1)");
    }
}
