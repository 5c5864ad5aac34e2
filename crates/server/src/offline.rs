//! The static build (`pacw static OUT_DIR`, run by `scripts/static`): the browser UI as a folder of plain files that
//! any static web host serves, at its root or in any folder of it (`https://example.org/games/pacw/`), with the
//! games played in the browser by the engine compiled to WebAssembly (`crates/wasm`) instead of on a server. It
//! holds the UI from `web/` (its page told to keep its games in the browser), what the server's lobby would answer
//! (`api/info.json` with the modes that need no server, `api/scenarios.json`), the reading pages (`rules/`,
//! `guide/`, …), the module `pacw.wasm`, a web app manifest and a service worker that keeps every file for offline
//! play. Every address in its pages is relative, so the folder works wherever it is put.

use crate::api::lobby::{offered, shipped_scenarios};
use std::fmt::Write as _;
use std::io;
use std::path::Path;

/// What the static build's page says where the server's says nothing: its games live in the browser (api.js), it is
/// installable (the manifest), and it starts with the network off (the service worker, registered by api.js).
const BROWSER_HEAD: &str = "<meta name=\"pacw-games\" content=\"browser\">\n  \
                            <link rel=\"manifest\" href=\"manifest.webmanifest\">\n  \
                            <meta name=\"theme-color\" content=\"#2b4c7e\">\n  ";

/// The modes a game in the browser may be played in (the others need a server).
const MODES: [&str; 2] = ["computer", "hotseat"];

/// Writes the static build into `out` (made if missing), with `wasm` as `pacw.wasm`; returns the paths written,
/// relative to `out`.
///
/// # Errors
/// When a file cannot be written, or a shipped scenario fails its checks (which the tests rule out).
pub fn write_site(out: &Path, wasm: &[u8]) -> io::Result<Vec<String>> {
    let pages = crate::pages::page_paths();
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut worker_template = None;
    for (path, bytes) in crate::assets::files() {
        match path.as_str() {
            "sw.js" => worker_template = Some(String::from_utf8_lossy(&bytes).into_owned()),
            "index.html" => {
                let page = String::from_utf8_lossy(&bytes).replacen("<title>", &format!("{BROWSER_HEAD}<title>"), 1);
                files.push((path, relative_links(&page, 0, &pages).into_bytes()));
            }
            _ => files.push((path, bytes)),
        }
    }
    let mut info = offered();
    info.modes = MODES.to_vec();
    files.push(("api/info.json".into(), json(&info)?));
    let scenarios = shipped_scenarios().map_err(|e| io::Error::other(e.to_string()))?;
    files.push(("api/scenarios.json".into(), json(&scenarios)?));
    for page in &pages {
        let html = crate::pages::page_html(page).ok_or_else(|| io::Error::other(format!("no page {page}")))?;
        let depth = page.split('/').count();
        files.push((format!("{page}/index.html"), relative_links(&html, depth, &pages).into_bytes()));
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

/// `html` (a page the server serves with addresses from its root, `href="/rules#R6.4"`, `src="/js/app.js"`) with
/// each of those addresses made relative to a page `depth` folders below the site's root: `../rules/#R6.4`,
/// `../js/app.js`. A reading page is named by its folder (`rules/`), as a static host serves it; the editor, a page
/// of the app, by its fragment (`../#/editor`, browser-api.js).
fn relative_links(html: &str, depth: usize, pages: &[String]) -> String {
    let up = if depth == 0 { "./".to_string() } else { "../".repeat(depth) };
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    loop {
        let found = ["href=\"/", "src=\"/"].iter().filter_map(|attr| rest.find(attr).map(|i| (i, attr.len()))).min();
        let Some((at, len)) = found else { break };
        // Up to the opening quote; the address starts after its slash.
        out.push_str(&rest[..at + len - 1]);
        rest = &rest[at + len..];
        let end = rest.find('"').unwrap_or(rest.len());
        let (path, fragment) = rest[..end].split_once('#').map_or((&rest[..end], None), |(p, f)| (p, Some(f)));
        out.push_str(&up);
        if path == "editor" {
            out.push_str("#/editor");
        } else {
            out.push_str(path);
        }
        if pages.iter().any(|p| p == path) {
            out.push('/');
        }
        if let Some(f) = fragment {
            let _ = write!(out, "#{f}");
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The service worker: `web/sw.js` given the addresses of every file to keep, relative to itself at the build's
/// root (a page by its folder, `rules/`), and a version that changes with any file's content, so a new build
/// replaces the old one's cache.
fn service_worker(template: &str, files: &[(String, Vec<u8>)]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut urls = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        for b in path.bytes().chain(bytes.iter().copied()) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        urls.push(match path.strip_suffix("index.html") {
            Some("") => "./".to_string(),
            Some(folder) => folder.to_string(),
            None => path.clone(),
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
        for kept in ["\"./\"", "\"pacw.wasm\"", "\"js/worker.js\"", "\"api/scenarios.json\"", "\"rules/\""] {
            assert!(worker.contains(kept), "{kept} is not kept");
        }
        assert!(!worker.contains("\"/"), "the service worker keeps its files by addresses relative to itself");
        assert!(!worker.contains("/* FILES */") && !worker.contains("'dev'"));
        assert_eq!(worker.matches("\"./\"").count(), 1, "the page is kept once");
        assert!(written.iter().any(|p| p == "manifest.webmanifest"));
        let manifest: serde_json::Value = serde_json::from_str(&read("manifest.webmanifest")).unwrap();
        for url in [&manifest["start_url"], &manifest["scope"], &manifest["icons"][0]["src"]] {
            let url = url.as_str().unwrap();
            assert!(!url.starts_with('/'), "the manifest's {url} is relative");
            assert!(written.contains(&resolve("manifest.webmanifest", url)), "the manifest's {url} is in the build");
        }
        std::fs::remove_dir_all(&out).unwrap();
    }

    /// The file a relative address leads to from the file `from`, both relative to the build's root (a folder to
    /// its index.html).
    fn resolve(from: &str, url: &str) -> String {
        let path = url.split(['#', '?']).next().unwrap_or("");
        let mut parts: Vec<&str> = from.split('/').collect();
        parts.pop();
        for part in path.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    assert!(parts.pop().is_some(), "{url} in {from} leads out of the build");
                }
                p => parts.push(p),
            }
        }
        let mut file = parts.join("/");
        if path.is_empty() || path.ends_with('/') {
            file = if file.is_empty() { "index.html".into() } else { format!("{file}/index.html") };
        }
        file
    }

    #[test]
    fn every_address_in_the_static_pages_is_relative_and_leads_to_a_file_of_the_build() {
        let out = std::env::temp_dir().join(format!("pacw-static-{}", crate::tokens::new_game_id()));
        let written = write_site(&out, b"\0asm").unwrap();
        let mut links = 0;
        for page in written.iter().filter(|p| p.ends_with(".html")) {
            let html = std::fs::read_to_string(out.join(page)).unwrap();
            for attr in ["href=\"", "src=\""] {
                for piece in html.split(attr).skip(1) {
                    let url = &piece[..piece.find('"').unwrap()];
                    if url.starts_with('#') || url.starts_with("data:") || url.starts_with("https:") {
                        continue;
                    }
                    assert!(!url.starts_with('/'), "{page}: {url} is not relative");
                    assert!(written.contains(&resolve(page, url)), "{page}: {url} leads to no file of the build");
                    links += 1;
                }
            }
        }
        assert!(links > 100, "only {links} addresses were looked at");
        std::fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn an_address_from_the_root_is_made_relative_to_the_page() {
        let pages = vec!["rules".to_string(), "rules/veterans".to_string(), "guide".to_string()];
        let html = r##"<a href="/">x</a><a href="/rules#R6.4">r</a><script src="/js/app.js"></script><a href="/rules/veterans">v</a><a href="#top">t</a><a href="/editor">e</a>"##;
        assert_eq!(
            relative_links(html, 0, &pages),
            r##"<a href="./">x</a><a href="./rules/#R6.4">r</a><script src="./js/app.js"></script><a href="./rules/veterans/">v</a><a href="#top">t</a><a href="./#/editor">e</a>"##
        );
        assert!(relative_links(html, 2, &pages).starts_with(r##"<a href="../../">x</a><a href="../../rules/#R6.4">"##));
    }
}
