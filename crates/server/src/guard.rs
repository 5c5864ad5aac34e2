//! What every request passes before a handler: a state-changing request from another site is refused (its
//! `Origin`, or without one its `Referer`, must be this server's own, and its `Sec-Fetch-Site` must not say
//! `cross-site`), a body must be JSON, and every refusal of
//! the API, the framework's own included, is the API's JSON error.

use crate::error::ApiError;
use axum::body::to_bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Which origin the server answers as.
#[derive(Clone, Debug, Default)]
pub struct OriginPolicy {
    /// The origin given by `--public-origin` (behind a proxy), such as `https://pacw.example.org`; without it, the
    /// request's own `Host` is the server's origin.
    pub public: Option<String>,
}

impl OriginPolicy {
    /// Whether `origin` (`scheme://host[:port]`) is this server's.
    fn allows(&self, origin: &str, headers: &HeaderMap) -> bool {
        let origin = origin.trim_end_matches('/');
        if let Some(public) = &self.public {
            return origin.eq_ignore_ascii_case(public.trim_end_matches('/'));
        }
        // Our own pages send our own Host; the scheme does not matter for telling sites apart (a TLS proxy in
        // front keeps the host).
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let authority = origin.split_once("://").map(|(_, rest)| rest);
        matches!((host, authority), (Some(h), Some(a)) if h.eq_ignore_ascii_case(a))
    }
}

/// The origin of a `Referer` URL: its scheme, host and port.
fn origin_of(referer: &str) -> Option<&str> {
    let (scheme, rest) = referer.split_once("://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(&referer[..scheme.len() + 3 + end])
}

/// Refuses a state-changing request from another site (403) and a body that is not JSON (415).
pub async fn same_site_json(State(policy): State<Arc<OriginPolicy>>, req: Request, next: Next) -> Response {
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if changes {
        let headers = req.headers();
        let from =
            headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()).map(|o| (o.to_string(), "Origin")).or_else(
                || {
                    let referer = headers.get(header::REFERER)?.to_str().ok()?;
                    Some((origin_of(referer).unwrap_or(referer).to_string(), "Referer"))
                },
            );
        // A browser that says the request is another site's is believed, whatever else it sends.
        if headers
            .get("sec-fetch-site")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.eq_ignore_ascii_case("cross-site"))
        {
            return ApiError::Forbidden("this request comes from another site (Sec-Fetch-Site): refused".into())
                .into_response();
        }
        // A request with neither header (curl, a script) is not a browser's cross-site request.
        if let Some((origin, which)) = from
            && !policy.allows(&origin, headers)
        {
            let why = format!("this request comes from {origin} ({which}), not from this server: refused");
            return ApiError::Forbidden(why).into_response();
        }
        let has_body = headers.get(header::CONTENT_LENGTH).and_then(|l| l.to_str().ok()).is_some_and(|l| l != "0")
            || headers.contains_key(header::TRANSFER_ENCODING);
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|t| t.to_str().ok())
            .is_some_and(|t| t.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json")));
        if has_body && !json && req.uri().path().starts_with("/api") {
            let mut r =
                ApiError::BadRequest("a request body must be JSON, sent as Content-Type: application/json".into())
                    .into_response();
            *r.status_mut() = StatusCode::UNSUPPORTED_MEDIA_TYPE;
            return r;
        }
    }
    next.run(req).await
}

/// Turns the API's refusals that are not yet JSON (the framework's rejections of a path or a method, say) into
/// the API's JSON error, keeping their status.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api");
    let res = next.run(req).await;
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|t| t.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json") || t.starts_with("text/event-stream"));
    if !api || is_json || !(res.status().is_client_error() || res.status().is_server_error()) {
        return res;
    }
    let status = res.status();
    let text = to_bytes(res.into_body(), 16 * 1024).await.unwrap_or_default();
    let message = String::from_utf8_lossy(&text).trim().to_string();
    let message = if message.is_empty() { status.canonical_reason().unwrap_or("refused").to_string() } else { message };
    let mut r = ApiError::BadRequest(message).into_response();
    *r.status_mut() = status;
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(h: &str) -> HeaderMap {
        let mut m = HeaderMap::new();
        m.insert(header::HOST, h.parse().unwrap());
        m
    }

    #[test]
    fn the_server_s_own_origin_is_its_host_or_the_public_origin() {
        let own = OriginPolicy::default();
        assert!(own.allows("http://127.0.0.1:8080", &host("127.0.0.1:8080")));
        assert!(own.allows("https://pacw.example.org", &host("pacw.example.org")));
        assert!(!own.allows("http://evil.example", &host("127.0.0.1:8080")));
        assert!(!own.allows("http://127.0.0.1:9999", &host("127.0.0.1:8080")));
        assert!(!own.allows("null", &host("127.0.0.1:8080")));
        let proxied = OriginPolicy { public: Some("https://pacw.example.org/".into()) };
        assert!(proxied.allows("https://pacw.example.org", &host("127.0.0.1:8080")));
        assert!(!proxied.allows("http://127.0.0.1:8080", &host("127.0.0.1:8080")));
        assert_eq!(origin_of("https://a.example:8443/game/x?y"), Some("https://a.example:8443"));
    }
}
