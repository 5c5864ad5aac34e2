//! Vacation days (issue 42, item 4): while the player to move is on vacation their clock stands still, so their
//! deadline does not pass, no reminder is sent and no win can be claimed; after it the clock runs on from where it
//! stood. A vacation is bounded by the days left this year and refused with a clear message past them, and the
//! ledger survives a restart. Kept by a test clock moved forward (never a sleep).

mod common;

use common::*;
use pacw_server::setup::DAY_MS;
use pacw_server::{RunningServer, Server, ServerConfig};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

const HOUR_MS: i64 = 3_600_000;

async fn start_with_test_clock(dir: &std::path::Path, vacation_days: u32) -> RunningServer {
    Server::bind(ServerConfig { test_clock: true, vacation_days, ..config(dir) }).await.expect("starts").spawn()
}

async fn vacation(api: &Api, m: &Member, days: u32) -> (StatusCode, Value) {
    as_member(api, m, Method::POST, "/api/account/vacation", json!({"days": days})).await
}

async fn come_back(api: &Api, m: &Member) -> (StatusCode, Value) {
    as_member(api, m, Method::DELETE, "/api/account/vacation", Value::Null).await
}

/// A rated game of the meeting engagement at `pace` between Bea (side A) and Cy (side B), each told by `hook`:
/// the player to move (name, member, link token) and the waiting one's link token.
async fn game(api: &Api, pace: &str, hook: Option<&str>) -> (&'static str, Member, String, String) {
    let bea = sign_up(api, "Bea", hook).await;
    let cy = sign_up(api, "Cy", hook).await;
    let posting = json!({"scenario": "meeting-engagement", "side": "A", "pace": pace, "rating": "rated"});
    let (s, posted) = as_member(api, &bea, Method::POST, "/api/room", posting).await;
    assert_eq!(s, StatusCode::CREATED, "{posted}");
    let id = posted["id"].as_str().unwrap();
    let (s, joined) = as_member(api, &cy, Method::POST, &format!("/api/room/{id}/join"), json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{joined}");
    let (_, seen) = as_member(api, &bea, Method::GET, &format!("/api/room/{id}"), Value::Null).await;
    let token_of = |link: &Value| link.as_str().unwrap().trim_start_matches("/game/").to_string();
    let (a, b) = (token_of(&seen["link"]), token_of(&joined["link"]));
    if api.view(&a).await["your_turn"] == true { ("Bea", bea, a, b) } else { ("Cy", cy, b, a) }
}

async fn clock(api: &Api, token: &str) -> Value {
    let (s, v) = api.get(&format!("/api/play/{token}/clock")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

async fn claim(api: &Api, token: &str) -> (StatusCode, Value) {
    api.post(&format!("/api/play/{token}/clock/claim"), json!({})).await
}

#[tokio::test]
async fn a_deadline_does_not_pass_while_its_player_is_on_vacation_and_runs_on_after_it() {
    let dir = TempDir::new("vacation-deadline");
    let server = start_with_test_clock(&dir.0, 14).await;
    let api = Api::new(&server);
    let (hook, bodies) = webhook_sink(false).await;
    let (name, mover, mover_token, waiter) = game(&api, "1d", Some(&hook)).await;
    until("the first move is told", || (!bodies.lock().unwrap().is_empty()).then_some(())).await;
    let told_before = bodies.lock().unwrap().len();

    // Three days off: the clock of the move (a day) stands still, and everyone sees why.
    let (s, v) = vacation(&api, &mover, 3).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(
        (v["days_a_year"].as_u64(), v["days_used"].as_u64(), v["days_left"].as_u64()),
        (Some(14), Some(3), Some(11))
    );
    let until_at = v["until"].as_i64().expect("on vacation");
    let c = clock(&api, &waiter).await;
    assert_eq!(c["vacation_until"].as_i64(), Some(until_at), "{c}");
    assert!(c["left_ms"].as_i64().unwrap() > DAY_MS - 60_000, "{c}");
    assert_eq!(c["deadline"].as_i64().unwrap(), c["left_ms"].as_i64().unwrap() + until_at, "the clock runs on after");
    assert!(c["text"].as_str().unwrap().contains("on vacation for 3 days more"), "{c}");
    assert_eq!(clock(&api, &mover_token).await["vacation_until"].as_i64(), Some(until_at));
    let summary = api.get(&format!("/api/play/{waiter}/summary")).await.1;
    assert_eq!(summary["vacation_until"].as_i64(), Some(until_at));
    let page = api.get(&format!("/api/players/{name}")).await.1;
    assert_eq!(page["vacation_until"].as_i64(), Some(until_at));
    assert!(page["vacation"].is_null(), "the days left are the player's own business");
    assert_eq!(page["games"][0]["vacation_until"].as_i64(), Some(until_at));
    let (_, own) = as_member(&api, &mover, Method::GET, &format!("/api/players/{name}"), Value::Null).await;
    assert_eq!(own["vacation"]["days_left"], 11);

    // Two days on, past the day the move had: nothing is due, nothing claimed, the clock has not moved.
    server.games().clock().advance(2 * DAY_MS).unwrap();
    assert_eq!(server.games().watch_deadlines(), 0, "no reminder and no claim while on vacation");
    let (s, v) = claim(&api, &waiter).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("on vacation for 1 day more"), "{v}");
    let c = clock(&api, &waiter).await;
    assert!(c["left_ms"].as_i64().unwrap() > DAY_MS - 60_000 && c["overdue"] == false, "{c}");

    // The vacation over, the clock runs on: reminded six hours before the pushed deadline, then the win claimed.
    server.games().clock().advance(DAY_MS + HOUR_MS).unwrap();
    let c = clock(&api, &waiter).await;
    assert!(c["vacation_until"].is_null(), "{c}");
    assert!((22 * HOUR_MS..23 * HOUR_MS).contains(&c["left_ms"].as_i64().unwrap()), "{c}");
    assert_eq!(server.games().watch_deadlines(), 0);
    server.games().clock().advance(17 * HOUR_MS + 60_000).unwrap();
    assert_eq!(server.games().watch_deadlines(), 1, "the reminder");
    until("the reminder", || (bodies.lock().unwrap().len() > told_before).then_some(())).await;
    let reminder = bodies.lock().unwrap()[told_before]["text"].as_str().unwrap().to_string();
    assert!(reminder.contains("left before your deadline") && reminder.contains(&mover_token), "{reminder}");
    assert_eq!(claim(&api, &waiter).await.0, StatusCode::CONFLICT);
    server.games().clock().advance(6 * HOUR_MS).unwrap();
    assert_eq!(server.games().watch_deadlines(), 1, "the waiting player is told");
    let (s, v) = claim(&api, &waiter).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["result"]["reason"]["out_of_time"].is_string(), "{v}");
    server.stop().await;
}

#[tokio::test]
async fn a_vacation_is_bounded_by_the_days_left_and_refused_with_a_reason() {
    let dir = TempDir::new("vacation-allowance");
    let server = start_with_test_clock(&dir.0, 3).await;
    let api = Api::new(&server);
    let dee = sign_up(&api, "Dee", None).await;
    let days_left = |v: &Value| v["days_left"].as_u64();

    let (s, v) = vacation(&api, &dee, 0).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, v) = vacation(&api, &dee, 4).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("3 vacation days left this year (of 3)"), "{v}");
    let (s, v) = come_back(&api, &dee).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(v["error"].as_str().unwrap().contains("not on vacation"), "{v}");
    for (s, v) in [
        api.post("/api/account/vacation", json!({"days": 1})).await,
        api.post_raw("/api/account/vacation", "{\"days\": 1}").await,
    ] {
        assert_eq!(s, StatusCode::UNAUTHORIZED, "not logged in: {v}");
    }

    // All three days, then back at once: the day begun is used, two are left.
    let (s, v) = vacation(&api, &dee, 3).await;
    assert_eq!((s, days_left(&v)), (StatusCode::CREATED, Some(0)), "{v}");
    let (s, v) = vacation(&api, &dee, 1).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(v["error"].as_str().unwrap().contains("on vacation already"), "{v}");
    let (s, v) = come_back(&api, &dee).await;
    assert_eq!((s, days_left(&v), v["until"].is_null()), (StatusCode::OK, Some(2), true), "{v}");
    // Two more vacations of a day begun each use the year's days up.
    for left in [1, 0] {
        let (s, v) = vacation(&api, &dee, 1).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = come_back(&api, &dee).await;
        assert_eq!((s, days_left(&v)), (StatusCode::OK, Some(left)), "{v}");
    }
    let (s, v) = vacation(&api, &dee, 1).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(v["error"].as_str().unwrap().contains("no vacation days left this year"), "{v}");
    server.stop().await;

    // A server that gives none says so.
    let dir = TempDir::new("vacation-none");
    let server = start_with_test_clock(&dir.0, 0).await;
    let api = Api::new(&server);
    let eve = sign_up(&api, "Eve", None).await;
    let (s, v) = vacation(&api, &eve, 1).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(v["error"].as_str().unwrap().contains("no vacation days"), "{v}");
    server.stop().await;
}

#[tokio::test]
async fn a_restarted_server_keeps_the_vacations_and_the_clocks_they_stopped() {
    let dir = TempDir::new("vacation-restart");
    let server = start_with_test_clock(&dir.0, 14).await;
    let api = Api::new(&server);
    let (name, mover, _, waiter) = game(&api, "3d", None).await;
    let (s, v) = vacation(&api, &mover, 5).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let until_at = v["until"].as_i64().unwrap();
    let before = clock(&api, &waiter).await;
    server.stop().await;

    let server = start_with_test_clock(&dir.0, 14).await;
    let api = Api::new(&server);
    let after = clock(&api, &waiter).await;
    assert_eq!(after["vacation_until"].as_i64(), Some(until_at), "{after}");
    assert_eq!(after["deadline"], before["deadline"]);
    let (s, own) = as_member(&api, &mover, Method::GET, &format!("/api/players/{name}"), Value::Null).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!((own["vacation"]["days_left"].as_u64(), own["vacation"]["until"].as_i64()), (Some(9), Some(until_at)));
    // Ended after the restart, as before it.
    let (s, v) = come_back(&api, &mover).await;
    assert_eq!((s, v["days_left"].as_u64()), (StatusCode::OK, Some(13)), "{v}");
    assert!(clock(&api, &waiter).await["vacation_until"].is_null());
    server.stop().await;
}
