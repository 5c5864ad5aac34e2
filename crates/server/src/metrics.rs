//! `GET /metrics`: the server's vitals in Prometheus' text exposition format (version 0.0.4), for the operator's
//! monitoring. It is served only when the operator gave a token (`--metrics-token`, or `PACW_METRICS_TOKEN`), and
//! only to a request that shows it (`Authorization: Bearer TOKEN`): without a token configured the path is not
//! found (404), a request without the right one is refused (401).

use crate::api::AppState;
use crate::error::{ApiError, ApiResult};
use crate::thinker::ThinkerStats;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use std::fmt::Write;

/// The fewest characters an operator's metrics token may have.
pub const MIN_TOKEN_CHARS: usize = 16;
/// The most characters an operator's metrics token may have.
pub const MAX_TOKEN_CHARS: usize = 256;

/// The operator's secret that opens `/metrics`: 16 to 256 visible ASCII characters.
#[derive(Clone, PartialEq, Eq)]
pub struct MetricsToken(String);

impl std::fmt::Debug for MetricsToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MetricsToken(…)") // a secret: never in a log
    }
}

impl std::str::FromStr for MetricsToken {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if !(MIN_TOKEN_CHARS..=MAX_TOKEN_CHARS).contains(&s.len()) {
            return Err(format!(
                "a metrics token has {MIN_TOKEN_CHARS} to {MAX_TOKEN_CHARS} characters (this one has {}); e.g. \
                 `openssl rand -hex 24`",
                s.len()
            ));
        }
        if !s.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("a metrics token is visible ASCII characters only (no spaces)".into());
        }
        Ok(MetricsToken(s.to_string()))
    }
}

impl MetricsToken {
    /// Whether `shown` is this token, compared in time that does not depend on where they differ.
    fn opens(&self, shown: &[u8]) -> bool {
        let ours = self.0.as_bytes();
        ours.len() == shown.len() && ours.iter().zip(shown).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
    }
}

/// What the server tells of itself (games by status, who is connected, the thinking pool).
#[derive(Clone, Debug, PartialEq)]
pub struct Vitals {
    /// Games in the database by status (`in_progress`, `finished`, `archived`).
    pub games: Vec<(String, u64)>,
    /// Games held in memory.
    pub games_loaded: usize,
    /// Event streams open, spectators' included.
    pub event_streams: usize,
    /// Players online: sides of games with an event stream open through their own link.
    pub players_online: usize,
    /// The thinking pool's queue and totals.
    pub thinking: ThinkerStats,
}

impl Vitals {
    /// The vitals in Prometheus' text format.
    pub fn to_prometheus(&self) -> String {
        let mut out = String::new();
        let mut metric = |name: &str, kind: &str, help: &str, samples: &[(String, String)]| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
            for (labels, value) in samples {
                let _ = writeln!(out, "{name}{labels} {value}");
            }
        };
        let one = |v: String| vec![(String::new(), v)];
        let by_kind = |label: &str, values: Vec<(&str, String)>| {
            values.into_iter().map(|(k, v)| (format!("{{{label}=\"{k}\"}}"), v)).collect::<Vec<_>>()
        };
        let t = &self.thinking;
        metric(
            "pacw_games",
            "gauge",
            "Games in the database, by status.",
            &by_kind("status", self.games.iter().map(|(s, n)| (s.as_str(), n.to_string())).collect()),
        );
        metric("pacw_games_loaded", "gauge", "Games held in memory.", &one(self.games_loaded.to_string()));
        metric("pacw_event_streams", "gauge", "Event streams open.", &one(self.event_streams.to_string()));
        metric(
            "pacw_players_online",
            "gauge",
            "Sides of games with an event stream open through their own link.",
            &one(self.players_online.to_string()),
        );
        metric("pacw_thinking_threads", "gauge", "Threads of the thinking pool.", &one(t.threads.to_string()));
        metric(
            "pacw_thinking_queue",
            "gauge",
            "Computer decisions waiting for a thinking thread, by who waits.",
            &by_kind("waiting", t.queued.iter().map(|(k, n)| (k.label(), n.to_string())).collect()),
        );
        metric(
            "pacw_thinking_decisions_total",
            "counter",
            "Computer decisions made since the server started, by who waited.",
            &by_kind("waiting", t.decisions.iter().map(|(k, n)| (k.label(), n.to_string())).collect()),
        );
        metric(
            "pacw_thinking_seconds_total",
            "counter",
            "Seconds the thinking pool spent on decisions since the server started, by who waited.",
            &by_kind("waiting", t.seconds.iter().map(|(k, s)| (k.label(), format!("{s:.6}"))).collect()),
        );
        out
    }
}

/// `GET /metrics`.
///
/// # Errors
/// No token configured (404); no or another token shown (401); the database cannot be read (500).
pub async fn metrics(State(games): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    let Some(token) = games.metrics_token() else {
        return Err(ApiError::NotFound(
            "no metrics here: the operator gives a token to serve them (--metrics-token)".into(),
        ));
    };
    let shown = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.as_bytes().strip_prefix(b"Bearer "))
        .filter(|shown| token.opens(shown));
    if shown.is_none() {
        let mut refused =
            ApiError::Unauthorized("the metrics need the operator's token (Authorization: Bearer TOKEN)".into())
                .into_response();
        refused
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer realm=\"pacw metrics\""));
        return Ok(refused);
    }
    let vitals =
        tokio::task::spawn_blocking(move || games.vitals()).await.map_err(|e| ApiError::Internal(e.to_string()))??;
    let mut reply = vitals.to_prometheus().into_response();
    let h = reply.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(reply)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thinker::Kind;

    #[test]
    fn a_token_is_bounded_and_visible_and_compared_whole() {
        assert!("short".parse::<MetricsToken>().unwrap_err().contains("16 to 256"));
        assert!("x".repeat(257).parse::<MetricsToken>().is_err());
        assert!("sixteen chars with spaces".parse::<MetricsToken>().unwrap_err().contains("no spaces"));
        let t: MetricsToken = "0123456789abcdef".parse().unwrap();
        assert!(t.opens(b"0123456789abcdef"));
        assert!(!t.opens(b"0123456789abcdeF"));
        assert!(!t.opens(b"0123456789abcdef0"));
        assert!(!t.opens(b""));
        assert_eq!(format!("{t:?}"), "MetricsToken(…)");
    }

    #[test]
    fn the_vitals_are_written_in_the_text_format() {
        let v = Vitals {
            games: vec![("archived".into(), 1), ("in_progress".into(), 3)],
            games_loaded: 3,
            event_streams: 5,
            players_online: 2,
            thinking: ThinkerStats {
                threads: 2,
                queued: [(Kind::Person, 0), (Kind::Others, 7)],
                decisions: [(Kind::Person, 10), (Kind::Others, 20)],
                seconds: [(Kind::Person, 1.5), (Kind::Others, 30.25)],
            },
        };
        let text = v.to_prometheus();
        for line in [
            "# TYPE pacw_games gauge",
            "pacw_games{status=\"in_progress\"} 3",
            "pacw_games{status=\"archived\"} 1",
            "pacw_event_streams 5",
            "pacw_players_online 2",
            "pacw_thinking_queue{waiting=\"others\"} 7",
            "# TYPE pacw_thinking_decisions_total counter",
            "pacw_thinking_decisions_total{waiting=\"person\"} 10",
            "pacw_thinking_seconds_total{waiting=\"others\"} 30.250000",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
        }
        // Every sample line is `name{labels} number`.
        for l in text.lines().filter(|l| !l.starts_with('#')) {
            let value = l.rsplit(' ').next().unwrap();
            assert!(value.parse::<f64>().is_ok(), "{l}");
        }
    }
}
