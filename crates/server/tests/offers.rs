//! The offers between the players of a game are stored with it: a draw offered and a take-back asked for, still
//! waiting when the server stops, wait for their answer after it starts again and can be accepted then; an offer
//! that lapsed or was answered before the restart does not come back.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A casual two-player game: the token of the side to act, and the other's.
async fn game(api: &Api) -> (String, String) {
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let (a, b) = (token(&created, "A"), token(&created, "B"));
    if api.view(&a).await["your_turn"] == true { (a, b) } else { (b, a) }
}

fn path(token: &str, what: &str) -> String {
    format!("/api/play/{token}/{what}")
}

#[tokio::test]
async fn a_pending_draw_offer_and_take_back_request_survive_a_restart_and_are_accepted_after_it() {
    let dir = TempDir::new("offers-restart");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    // A draw offered, waiting.
    let (offerer, answerer) = game(&api).await;
    let (s, v) = api.post(&path(&offerer, "draw"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let offered_by = v["pending"]["by"].clone();
    // A take-back asked for, waiting.
    let (asker, other) = game(&api).await;
    let activate = find(&api.view(&asker).await, is_activate).unwrap();
    assert_eq!(api.act(&asker, json!({"index": activate})).await.0, StatusCode::OK);
    let (s, asked) = api.post(&path(&asker, "takeback"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{asked}");
    // A draw offered and then lapsed (its side played on), and one declined: neither comes back.
    let (lapsed, lapsed_other) = game(&api).await;
    api.post(&path(&lapsed, "draw"), json!({})).await;
    let v = api.view(&lapsed).await;
    assert_eq!(api.act(&lapsed, json!({"index": 0, "decisions": v["decisions"]})).await.0, StatusCode::OK);
    let (declined, declined_other) = game(&api).await;
    api.post(&path(&declined, "draw"), json!({})).await;
    assert_eq!(api.post(&path(&declined_other, "draw/answer"), json!({"accept": false})).await.0, StatusCode::OK);
    server.stop().await;

    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (s, seen) = api.get(&path(&answerer, "draw")).await;
    assert_eq!(s, StatusCode::OK, "{seen}");
    assert_eq!((seen["state"].as_str(), &seen["pending"]["by"]), (Some("offered"), &offered_by));
    let (_, seen) = api.get(&path(&other, "takeback")).await;
    assert_eq!(seen["pending"], asked["pending"], "the same request, as it was asked");
    for (token, what) in [(&lapsed_other, "draw"), (&declined_other, "draw")] {
        assert_eq!(api.get(&path(token, what)).await.1["pending"], Value::Null, "{what} came back");
    }
    assert_eq!(api.post(&path(&lapsed_other, "draw/answer"), json!({"accept": true})).await.0, StatusCode::CONFLICT);
    // Accepted after the restart, as before it.
    let (s, v) = api.post(&path(&other, "takeback/answer"), json!({"accept": true})).await;
    assert_eq!((s, v["decisions"].as_u64()), (StatusCode::OK, Some(0)), "{v}");
    let (s, v) = api.post(&path(&answerer, "draw/answer"), json!({"accept": true})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["reason"], "draw_agreed");
    server.stop().await;

    // Answered: nothing waits after another restart.
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    assert_eq!(api.get(&path(&other, "takeback")).await.1["pending"], Value::Null);
    assert_eq!(api.get(&path(&answerer, "draw")).await.1["pending"], Value::Null);
    server.stop().await;
}
