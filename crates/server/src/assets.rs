//! The browser UI, embedded in the binary from the repository's `web/` folder (read from disk in debug builds).

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../web/"]
struct Web;

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext.to_ascii_lowercase()).as_deref() {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("woff") => "font/woff",
        Some("toml" | "txt" | "md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn file(path: &str) -> Option<Response> {
    let f = Web::get(path)?;
    let headers = [(header::CONTENT_TYPE, content_type(path)), (header::CACHE_CONTROL, "no-cache")];
    Some((headers, f.data).into_response())
}

/// Serves a file of the UI; paths without a file (such as the links `/game/{token}`) get `index.html`, so the
/// page can read its token from the address.
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path == "api" || path.starts_with("api/") {
        return crate::error::ApiError::NotFound(format!("no API endpoint {} (see docs/api.md)", uri.path()))
            .into_response();
    }
    if let Some(page) = crate::pages::page(path) {
        return page;
    }
    if path.split('/').any(|part| part == "..") {
        return (StatusCode::BAD_REQUEST, "bad path").into_response();
    }
    let path = if path.is_empty() || path.ends_with('/') { format!("{path}index.html") } else { path.to_string() };
    if let Some(r) = file(&path) {
        return r;
    }
    let last = path.rsplit('/').next().unwrap_or("");
    if !last.contains('.')
        && let Some(r) = file("index.html")
    {
        return r;
    }
    (StatusCode::NOT_FOUND, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], format!("no file /{path}"))
        .into_response()
}

/// Every file of the UI: its path under `web/` and its bytes (for the static build).
pub(crate) fn files() -> impl Iterator<Item = (String, Vec<u8>)> {
    Web::iter().filter_map(|path| Web::get(&path).map(|f| (path.to_string(), f.data.into_owned())))
}
