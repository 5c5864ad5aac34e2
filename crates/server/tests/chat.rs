//! The players' chat of a two-player game: bounded, kept with the game across a restart, pushed live to the
//! players' streams and never to a spectator's, and refused to a spectator's link.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The next SSE event named `name` on a stream, within 10 s.
async fn next_event(resp: &mut reqwest::Response, buf: &mut String, name: &str) -> Value {
    events_until(resp, buf, name).await.pop().unwrap().1
}

/// Every SSE event on a stream up to the next one named `name` (within 10 s), by name, that one last.
async fn events_until(resp: &mut reqwest::Response, buf: &mut String, name: &str) -> Vec<(String, Value)> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    loop {
        while let Some(end) = buf.find("\n\n") {
            let block: String = buf.drain(..end + 2).collect();
            let event = block.lines().find_map(|l| l.strip_prefix("event:")).map(str::trim).unwrap_or("message");
            let data: String = block.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim_start).collect();
            seen.push((event.to_string(), serde_json::from_str(&data).unwrap_or(Value::Null)));
            if event == name {
                return seen;
            }
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let chunk = tokio::time::timeout(left, resp.chunk()).await.expect("an event in time").unwrap().unwrap();
        buf.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}

#[tokio::test]
async fn the_players_chat_live_bounded_kept_and_hidden_from_spectators() {
    let dir = TempDir::new("chat");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let (a, b, spec) = (token(&created, "A"), token(&created, "B"), token(&created, "spectator"));
    let mut b_stream = api.http.get(format!("{}/api/play/{b}/events", api.base)).send().await.unwrap();
    let mut spec_stream = api.http.get(format!("{}/api/play/{spec}/events", api.base)).send().await.unwrap();
    let (mut b_buf, mut spec_buf) = (String::new(), String::new());
    next_event(&mut b_stream, &mut b_buf, "hello").await;
    next_event(&mut spec_stream, &mut spec_buf, "hello").await;
    // A says something with HTML in it: kept as written (the pages show it as text).
    let (s, said) =
        api.post(&format!("/api/play/{a}/chat"), json!({"text": "  good luck <b>&</b> \n have fun "})).await;
    assert_eq!(s, StatusCode::CREATED, "{said}");
    assert_eq!((said["n"].as_i64(), said["side"].as_str()), (Some(1), Some("A")));
    assert_eq!(said["text"], "good luck <b>&</b> \n have fun");
    let heard = next_event(&mut b_stream, &mut b_buf, "chat").await;
    assert_eq!(heard["text"], said["text"]);
    // The spectator's stream hears the next move, not the chat before it.
    let mover = if api.view(&a).await["your_turn"] == true { &a } else { &b };
    let v = api.view(mover).await;
    assert_eq!(api.act(mover, json!({"index": 0, "decisions": v["decisions"]})).await.0, StatusCode::OK);
    let mut seen = events_until(&mut spec_stream, &mut spec_buf, "update").await;
    assert_eq!(seen.pop().unwrap().1["decisions"], 1);
    assert!(seen.iter().all(|(name, _)| name != "chat"), "the spectator's stream never carries the chat: {seen:?}");
    // A spectator's link neither reads nor writes it; a hot-seat game has no chat.
    assert_eq!(api.get(&format!("/api/play/{spec}/chat")).await.0, StatusCode::FORBIDDEN);
    assert_eq!(api.post(&format!("/api/play/{spec}/chat"), json!({"text": "hi"})).await.0, StatusCode::FORBIDDEN);
    let hotseat = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    assert_eq!(
        api.post(&format!("/api/play/{}/chat", token(&hotseat, "hotseat")), json!({"text": "hi"})).await.0,
        StatusCode::FORBIDDEN
    );
    // Bounded: empty, too long, control characters.
    for bad in
        [json!({"text": "   "}), json!({"text": "x".repeat(501)}), json!({"text": "bell\u{7}"}), json!({"text": 5})]
    {
        assert_eq!(api.post(&format!("/api/play/{b}/chat"), bad.clone()).await.0, StatusCode::BAD_REQUEST, "{bad}");
    }
    assert_eq!(api.post(&format!("/api/play/{b}/chat"), json!({"text": "é".repeat(500)})).await.0, StatusCode::CREATED);
    server.stop().await;
    // Kept with the game: after a restart both players read it.
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (s, chat) = api.get(&format!("/api/play/{b}/chat")).await;
    assert_eq!(s, StatusCode::OK);
    let texts: Vec<_> =
        chat["messages"].as_array().unwrap().iter().map(|m| m["side"].as_str().unwrap().to_string()).collect();
    assert_eq!(texts, vec!["A", "B"]);
    server.stop().await;
}
