//! The static build (`pacw static OUT_DIR`, run by `scripts/static`): the browser UI as a folder of plain files that
//! any static web host serves, with the games played in the browser by the engine compiled to WebAssembly
//! (`crates/wasm`) instead of on a server. It holds the UI from `web/` (its page told to keep its games in the
//! browser), what the server's lobby would answer (`api/info.json` with the modes that need no server,
//! `api/scenarios.json`), the reading pages (`rules/`, `guide/`, …), the module `pacw.wasm`, a web app manifest and
//! a service worker that keeps every file for offline play.

use crate::api::lobby::{offered, shipped_scenarios};
use std::fmt::Write as _;
use std::io;
use std::path::Path;

/// What the static build's page says where the server's says nothing: its games live in the browser (api.js), it is
/// installable (the manifest), and it starts with the network off (the service worker, registered by api.js).
const BROWSER_HEAD: &str = "<meta name=\"pacw-games\" content=\"browser\">\n  \
                            <link rel=\"manifest\" href=\"/manifest.webmanifest\">\n  \
                            <meta name=\"theme-color\" content=\"#2b4c7e\">\n  ";

/// The modes a game in the browser may be played in (the others need a server).
const MODES: [&str; 2] = ["computer", "hotseat"];

/// Writes the static build into `out` (made if missing), with `wasm` as `pacw.wasm`; returns the paths written,
/// relative to `out`.
///
/// # Errors
/// When a file cannot be written, or a shipped scenario fails its checks (which the tests rule out).
pub fn write_site(out: &Path, wasm: &[u8]) -> io::Result<Vec<String>> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut worker_template = None;
    for (path, bytes) in crate::assets::files() {
        match path.as_str() {
            "sw.js" => worker_template = Some(String::from_utf8_lossy(&bytes).into_owned()),
            "index.html" => {
                let page = String::from_utf8_lossy(&bytes).replacen("<title>", &format!("{BROWSER_HEAD}<title>"), 1);
                files.push((path, page.into_bytes()));
            }
            _ => files.push((path, bytes)),
        }
    }
    let mut info = offered();
    info.modes = MODES.to_vec();
    files.push(("api/info.json".into(), json(&info)?));
    let scenarios = shipped_scenarios().map_err(|e| io::Error::other(e.to_string()))?;
    files.push(("api/scenarios.json".into(), json(&scenarios)?));
    for page in crate::pages::page_paths() {
        let html = crate::pages::page_html(&page).ok_or_else(|| io::Error::other(format!("no page {page}")))?;
        files.push((format!("{page}/index.html"), html.into_bytes()));
    }
    files.push(("pacw.wasm".into(), wasm.to_vec()));
    let template = worker_template.ok_or_else(|| io::Error::other("web/sw.js is missing"))?;
    files.push(("sw.js".into(), service_worker(&template, &files).into_bytes()));
    let mut written = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let to = out.join(&path);
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&to, bytes)?;
        written.push(path);
    }
    Ok(written)
}

fn json(value: &impl serde::Serialize) -> io::Result<Vec<u8>> {
    serde_json::to_vec(value).map_err(io::Error::other)
}

/// The service worker: `web/sw.js` given the addresses of every file to keep (a page by its folder, `rules/`) and a
/// version that changes with any file's content, so a new build replaces the old one's cache.
fn service_worker(template: &str, files: &[(String, Vec<u8>)]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut urls = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        for b in path.bytes().chain(bytes.iter().copied()) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        urls.push(match path.strip_suffix("index.html") {
            Some(folder) => format!("/{folder}"),
            None => format!("/{path}"),
        });
    }
    // Each once: the cache refuses a list that names one twice.
    urls.sort();
    urls.dedup();
    let mut list = String::from("[");
    for (i, url) in urls.iter().enumerate() {
        let _ = write!(list, "{}{url:?}", if i == 0 { "" } else { ", " });
    }
    list.push(']');
    template.replacen("/* FILES */ []", &list, 1).replacen("/* VERSION */ 'dev'", &format!("'pacw-{hash:016x}'"), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_static_build_plays_in_the_browser_and_keeps_every_file_offline() {
        let out = std::env::temp_dir().join(format!("pacw-static-{}", crate::tokens::new_game_id()));
        let written = write_site(&out, b"\0asm").unwrap();
        let read = |p: &str| std::fs::read_to_string(out.join(p)).unwrap();
        assert!(read("index.html").contains("<meta name=\"pacw-games\" content=\"browser\">"));
        let info: serde_json::Value = serde_json::from_str(&read("api/info.json")).unwrap();
        assert_eq!(info["modes"], serde_json::json!(["computer", "hotseat"]));
        assert!(read("rules/index.html").contains("id=\"R6.4\""));
        let worker = read("sw.js");
        for kept in ["\"/\"", "\"/pacw.wasm\"", "\"/js/worker.js\"", "\"/api/scenarios.json\"", "\"/rules/\""] {
            assert!(worker.contains(kept), "{kept} is not kept");
        }
        assert!(!worker.contains("/* FILES */") && !worker.contains("'dev'"));
        assert_eq!(worker.matches("\"/\"").count(), 1, "the page is kept once");
        assert!(written.iter().any(|p| p == "manifest.webmanifest"));
        std::fs::remove_dir_all(&out).unwrap();
    }
}
