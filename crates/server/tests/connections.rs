//! At most so many connections are open at once, event streams and idle kept-alive sockets together: at the cap the
//! idlest is closed so that a new client is still answered, and an event stream is closed only when no socket is
//! idle (issue 26 #23: 768 streams and 260 idle sockets once filled 1,024 descriptors and the server went silent).

mod common;

use common::*;
use pacw_server::{Server, ServerConfig};
use serde_json::json;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const CAP: usize = 6;

/// A kept-alive connection that has had one answer and now sits idle.
async fn idle(addr: std::net::SocketAddr) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    assert!(answer(&mut s).await.starts_with("HTTP/1.1 200"));
    s
}

/// One whole answer read from `s` (its headers, then as many bytes as its Content-Length says), so that nothing of
/// it is left to be read as the next answer.
async fn answer(s: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&got).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string()))
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(0);
            if got.len() >= end + 4 + length {
                return text;
            }
        }
        let n = s.read(&mut buf).await.unwrap();
        if n == 0 {
            return String::from_utf8_lossy(&got).into_owned();
        }
        got.extend_from_slice(&buf[..n]);
    }
}

/// An event stream on `token`'s game, its first bytes read.
async fn stream(addr: std::net::SocketAddr, token: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET /api/play/{token}/events HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes()).await.unwrap();
    let mut buf = [0u8; 4096];
    let n = s.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"), "{}", String::from_utf8_lossy(&buf[..n]));
    s
}

/// Whether the server has closed `s` (reads to the end within a second).
async fn closed(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 4096];
    let waited = tokio::time::timeout(Duration::from_secs(2), async {
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await;
    waited.is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_cap_the_idlest_connection_is_closed_and_a_new_client_is_answered() {
    let dir = TempDir::new("cap");
    let config = ServerConfig { header_timeout: Duration::from_secs(30), max_connections: Some(CAP), ..config(&dir.0) };
    let server = Server::bind(config).await.unwrap().spawn();
    let addr = server.addr();
    let created = Api::new(&server).create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let token = token(&created, "spectator");
    // Two idle sockets, oldest first, then streams up to the cap.
    let mut oldest = idle(addr).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut younger = idle(addr).await;
    let mut streams = Vec::new();
    for _ in 0..CAP - 2 {
        streams.push(stream(addr, &token).await);
    }
    // A new client is answered; the socket idle longest made room, the younger one and the streams stay.
    let mut newcomer = idle(addr).await;
    assert!(closed(&mut oldest).await, "the idlest socket was closed");
    younger.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    assert!(answer(&mut younger).await.starts_with("HTTP/1.1 200"), "the younger idle socket still answers");
    // Two more: the idle sockets go first (the newcomer, then the younger one, by when each was last used)...
    let _a = idle(addr).await;
    let _b = idle(addr).await;
    assert!(closed(&mut newcomer).await && closed(&mut younger).await);
    // ... and only when none is idle, the oldest stream (a browser opens it again by itself).
    drop((_a, _b));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let _more: Vec<TcpStream> = {
        let mut v = Vec::new();
        for _ in 0..3 {
            v.push(stream(addr, &token).await);
        }
        v
    };
    assert!(closed(&mut streams[0]).await, "the oldest stream made room once no socket was idle");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_may_watch_only_so_many_computer_games_at_once() {
    let dir = TempDir::new("watch-cap");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    // The grand battle: long enough that none of them is over before the next is asked for.
    let grand = include_str!("../../../scenarios/antietam.toml");
    let watch = json!({"scenario_text": grand, "mode": "watch", "computer": "random"});
    for _ in 0..pacw_server::session::WATCH_GAMES_PER_CLIENT {
        api.create(watch.clone()).await;
    }
    let r = api.http.post(format!("{}/api/games", api.base)).json(&watch).send().await.unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(r.headers()["retry-after"], "60");
    assert!(r.text().await.unwrap().contains("let one finish first"));
    // A game against the computer is not one of them.
    api.create(json!({"scenario": "meeting-engagement", "mode": "computer", "computer": "random"})).await;
    server.stop().await;
}

#[tokio::test]
async fn a_client_creates_games_within_its_allowance_and_too_big_a_scenario_is_refused() {
    let dir = TempDir::new("allowance");
    let config = ServerConfig { games_per_hour: 60, ..config(&dir.0) }; // ten at once, then one a minute
    let server = Server::bind(config).await.unwrap().spawn();
    let api = Api::new(&server);
    for _ in 0..10 {
        api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    }
    let r = api
        .http
        .post(format!("{}/api/games", api.base))
        .json(&json!({"scenario": "meeting-engagement", "mode": "hotseat"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = r.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert!(r.text().await.unwrap().contains("too many new games"));
    server.stop().await;
    // A scenario padded past the cap is refused before it is kept (each game keeps its own copy).
    let dir = TempDir::new("big-text");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let padded = format!("{}\n#{}\n", pacw_engine::DEFAULT_SCENARIO, "x".repeat(70 * 1024));
    let (s, v) = api.post("/api/games", json!({"scenario_text": padded, "mode": "hotseat"})).await;
    assert_eq!(s, reqwest::StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(v["error"].as_str().unwrap().contains("64 KiB"), "{v}");
    server.stop().await;
}

#[tokio::test]
async fn an_unfinished_game_idle_for_days_is_put_away_its_links_say_so_and_it_can_be_brought_back() {
    let dir = TempDir::new("archive");
    let config = |days| ServerConfig { archive_after_days: days, ..config(&dir.0) };
    let server = Server::bind(config(30)).await.unwrap().spawn();
    let api = Api::new(&server);
    let idle = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let fresh = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    server.stop().await;
    // The first game's last move was 31 days ago.
    let store = pacw_server::store::Store::open(&dir.0).unwrap();
    let old = pacw_server::store::now_ms() - 31 * 86_400_000;
    store
        .execute_raw(&format!("UPDATE games SET updated_at = {old} WHERE id = '{}'", idle["id"].as_str().unwrap()))
        .unwrap();
    drop(store);
    let server = Server::bind(config(30)).await.unwrap().spawn();
    let api = Api::new(&server);
    let (s, v) = api.get(&format!("/api/play/{}", token(&idle, "hotseat"))).await;
    assert_eq!(s, reqwest::StatusCode::GONE, "{v}");
    assert!(v["error"].as_str().unwrap().contains("pacw games --restore"), "{v}");
    assert_eq!(api.get(&format!("/api/play/{}", token(&fresh, "hotseat"))).await.0, reqwest::StatusCode::OK);
    server.stop().await;
    // Listed as archived; brought back, it opens again.
    let store = pacw_server::store::Store::open(&dir.0).unwrap();
    let (rows, _) = store.load_all().unwrap();
    assert!(rows.iter().any(|r| r.id == idle["id"].as_str().unwrap() && r.archived));
    assert!(store.restore(idle["id"].as_str().unwrap()).unwrap());
    drop(store);
    let server = Server::bind(config(30)).await.unwrap().spawn();
    let api = Api::new(&server);
    assert_eq!(api.get(&format!("/api/play/{}", token(&idle, "hotseat"))).await.0, reqwest::StatusCode::OK);
    server.stop().await;
}
