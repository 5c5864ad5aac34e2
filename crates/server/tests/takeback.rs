//! A take-back by request in a two-player game: asked by the player whose decision it was, answered by the other
//! (accepted: the decisions are taken back; declined: nothing changes), stale once a move is made, refused after a
//! die or a card, and never for a spectator or the asker themself.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The token of the side to act, and the other's.
async fn mover_and_other(api: &Api, created: &Value) -> (String, String) {
    let (a, b) = (token(created, "A"), token(created, "B"));
    if api.view(&a).await["your_turn"] == true { (a, b) } else { (b, a) }
}

#[tokio::test]
async fn a_take_back_is_asked_by_one_player_and_accepted_or_declined_by_the_other() {
    let dir = TempDir::new("takeback");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let (mover, other) = mover_and_other(&api, &created).await;
    let path = |t: &str| format!("/api/play/{t}/takeback");
    // Nothing of the mover's yet.
    assert_eq!(api.post(&path(&mover), json!({})).await.0, StatusCode::CONFLICT);
    let v = api.view(&mover).await;
    let activate = find(&v, is_activate).unwrap();
    assert_eq!(api.act(&mover, json!({"index": activate})).await.0, StatusCode::OK);
    let (s, asked) = api.post(&path(&mover), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{asked}");
    assert_eq!((asked["state"].as_str(), asked["pending"]["remove"].as_u64()), (Some("asked"), Some(1)));
    assert_eq!(api.get(&path(&other)).await.1["pending"]["by"], asked["pending"]["by"]);
    // The asker cannot answer; a spectator neither reads nor answers.
    let answer = |t: &str| format!("/api/play/{t}/takeback/answer");
    assert_eq!(api.post(&answer(&mover), json!({"accept": true})).await.0, StatusCode::FORBIDDEN);
    let spec = token(&created, "spectator");
    assert_eq!(api.get(&path(&spec)).await.0, StatusCode::FORBIDDEN);
    assert_eq!(api.post(&answer(&spec), json!({"accept": true})).await.0, StatusCode::FORBIDDEN);
    // Declined: nothing changes, and nothing is waiting.
    let (s, v) = api.post(&answer(&other), json!({"accept": false})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["decisions"], 1);
    assert_eq!(api.get(&path(&other)).await.1["pending"], Value::Null);
    // Asked again and accepted: the decision is taken back.
    api.post(&path(&mover), json!({})).await;
    let (s, v) = api.post(&answer(&other), json!({"accept": true})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["decisions"], 0);
    assert_eq!(api.post(&answer(&other), json!({"accept": true})).await.0, StatusCode::CONFLICT, "answered once");
    // A move made after the request makes it stale.
    assert_eq!(api.act(&mover, json!({"index": activate})).await.0, StatusCode::OK);
    api.post(&path(&mover), json!({})).await;
    let v = api.view(&mover).await;
    let (s, _) = api.act(&mover, json!({"index": 0, "decisions": v["decisions"]})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(api.post(&answer(&other), json!({"accept": true})).await.0, StatusCode::CONFLICT);
    // A hot-seat game asks nobody.
    let hotseat = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    assert_eq!(api.post(&path(&token(&hotseat, "hotseat")), json!({})).await.0, StatusCode::FORBIDDEN);
    server.stop().await;
}
