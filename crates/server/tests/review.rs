//! The review of a finished game through the API (made on the thinking thread, stored with the game), and the
//! evaluator's winning chances in views and in the scenario check.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Asks for the review until it is made.
async fn wait_review(api: &Api, t: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (s, r) = api.get(&format!("/api/play/{t}/review")).await;
        assert!(s == StatusCode::OK || s == StatusCode::ACCEPTED, "{s} {r}");
        match r["state"].as_str().unwrap() {
            "done" => return r["review"].clone(),
            "running" => assert!(r["searched"].as_u64().unwrap() <= r["total"].as_u64().unwrap()),
            other => panic!("the review is {other}: {r}"),
        }
        assert!(Instant::now() < deadline, "the review is not made");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_finished_game_is_reviewed_once_and_the_review_outlives_a_restart() {
    let dir = TempDir::new("review");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "watch", "computer": "greedy"})).await;
    let t = token(&created, "spectator");
    // While the game goes on there is no review to make.
    let mut v = api.view(&t).await;
    if v["result"].is_null() {
        let (s, e) = api.post(&format!("/api/play/{t}/review"), json!({})).await;
        assert_eq!(s, StatusCode::CONFLICT, "{e}");
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    while v["result"].is_null() {
        assert!(Instant::now() < deadline, "the watched game does not end");
        tokio::time::sleep(Duration::from_millis(20)).await;
        v = api.view(&t).await;
    }
    let (s, none) = api.get(&format!("/api/play/{t}/review")).await;
    assert_eq!((s, none["state"].as_str()), (StatusCode::OK, Some("none")));
    let (s, started) = api.post(&format!("/api/play/{t}/review"), json!({})).await;
    assert!(s == StatusCode::ACCEPTED || started["state"] == "done", "{s} {started}");
    let review = wait_review(&api, &t).await;
    assert_eq!(review["format"], "pacw-review");
    assert!(review["evaluator"].as_str().unwrap().starts_with("network-"));
    let steps = review["steps"].as_array().unwrap();
    for pair in steps.windows(2) {
        assert_eq!(pair[0]["after"], pair[1]["before"]);
    }
    assert!(steps.iter().filter(|s| s["kind"] == "decision").all(|s| s["loss"].as_f64().unwrap() >= 0.0));
    assert_eq!(steps.last().unwrap()["decision"], v["decisions"]);
    // Asking again returns the same review at once.
    let (s, again) = api.post(&format!("/api/play/{t}/review"), json!({})).await;
    assert_eq!((s, &again["review"]), (StatusCode::OK, &review));
    server.stop().await;
    // Stored with the game: a restarted server has it without making it again.
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (s, stored) = api.get(&format!("/api/play/{t}/review")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(stored["review"], review);
    server.stop().await;
}

#[tokio::test]
async fn winning_chances_are_shown_but_never_while_two_people_play() {
    let dir = TempDir::new("barometer");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let hotseat = api.create(json!({"scenario": "bloody-lane", "mode": "hotseat"})).await;
    let v = api.view(&token(&hotseat, "hotseat")).await;
    let p = v["winning_chances"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p));
    let two = api.create(json!({"scenario": "bloody-lane", "mode": "two_players"})).await;
    let a = token(&two, "A");
    assert!(api.view(&a).await["winning_chances"].is_null());
    let (_, past) = api.get(&format!("/api/play/{a}/replay/0")).await;
    assert!(past["winning_chances"].is_null(), "nor in the replay of a game still going on");
    let (s, _) = api.post(&format!("/api/play/{a}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    assert!(api.view(&a).await["winning_chances"].is_number(), "once it is over, the chances are shown");
    let (_, past) = api.get(&format!("/api/play/{a}/replay/0")).await;
    assert!(past["winning_chances"].is_number());
    // The check gives the evaluator's estimate of a battle's balance.
    let text = pacw_engine::SHIPPED_SCENARIOS[0].text;
    let (s, check) = api.post("/api/scenarios/check", json!({"text": text})).await;
    assert_eq!(s, StatusCode::OK);
    assert!((check["estimate"].as_f64().unwrap() - 0.5).abs() < 0.05, "a symmetric battle: {}", check["estimate"]);
    let (_, bad) = api.post("/api/scenarios/check", json!({"text": "name = 1"})).await;
    assert!(bad["estimate"].is_null());
    server.stop().await;
}
