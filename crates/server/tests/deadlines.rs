//! Pace, deadlines and draws (issue 42, items 4 and 5): a game posted at a pace of days keeps a deadline for the side
//! to move, by a test clock moved forward (never a sleep); the player to move is reminded before it, the waiting one
//! told once it has passed and may then claim the win on time (refused before, with when), rated as a win; a draw
//! offered and declined, lapsing when its side plays on, and accepted: a draw by agreement, rated as a draw.
//! Spectators can do neither.

mod common;

use common::*;
use pacw_server::session::{Ending, GameEnded, GameObserver};
use pacw_server::setup::DAY_MS;
use pacw_server::{RunningServer, Server, ServerConfig};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

/// A server whose deadlines are kept by a test clock.
async fn start_with_test_clock(dir: &std::path::Path) -> RunningServer {
    Server::bind(ServerConfig { test_clock: true, ..config(dir) }).await.expect("the server starts").spawn()
}

/// A rated game of the meeting engagement at `pace`, Bea's side A and Cy's side B (each told by `hook`, if given):
/// (Bea's link token, Cy's).
async fn rated_game(api: &Api, pace: &str, hook: Option<&str>) -> (String, String) {
    let bea = sign_up(api, "Bea", hook).await;
    let cy = sign_up(api, "Cy", hook).await;
    let posting = json!({"scenario": "meeting-engagement", "side": "A", "pace": pace, "rating": "rated"});
    let (s, posted) = as_member(api, &bea, reqwest::Method::POST, "/api/room", posting).await;
    assert_eq!(s, StatusCode::CREATED, "{posted}");
    let id = posted["id"].as_str().unwrap();
    let (s, joined) = as_member(api, &cy, reqwest::Method::POST, &format!("/api/room/{id}/join"), json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{joined}");
    let (_, seen) = as_member(api, &bea, reqwest::Method::GET, &format!("/api/room/{id}"), Value::Null).await;
    let token_of = |link: &Value| link.as_str().unwrap().trim_start_matches("/game/").to_string();
    (token_of(&seen["link"]), token_of(&joined["link"]))
}

/// The spectator's token of the game of `token`, as the server keeps it (no page of a member shows it).
fn spectator_token(server: &RunningServer, token: &str) -> String {
    let (entry, _) = server.games().by_token(token).unwrap();
    entry.tokens.spectator.clone()
}

/// The token of the side to move and the other's.
async fn mover_and_waiter(api: &Api, a: &str, b: &str) -> (String, String) {
    if api.view(a).await["your_turn"] == true { (a.to_string(), b.to_string()) } else { (b.to_string(), a.to_string()) }
}

async fn rating_of(api: &Api, name: &str) -> Value {
    api.get(&format!("/api/players/{name}")).await.1["rating"].clone()
}

async fn clock(api: &Api, token: &str) -> Value {
    let (s, v) = api.get(&format!("/api/play/{token}/clock")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

async fn claim(api: &Api, token: &str) -> (StatusCode, Value) {
    api.post(&format!("/api/play/{token}/clock/claim"), json!({})).await
}

async fn draw(api: &Api, token: &str) -> (StatusCode, Value) {
    api.get(&format!("/api/play/{token}/draw")).await
}

async fn offer(api: &Api, token: &str) -> (StatusCode, Value) {
    api.post(&format!("/api/play/{token}/draw"), json!({})).await
}

async fn answer(api: &Api, token: &str, accept: bool) -> (StatusCode, Value) {
    api.post(&format!("/api/play/{token}/draw/answer"), json!({"accept": accept})).await
}

#[tokio::test]
async fn past_its_deadline_a_move_is_claimed_as_a_win_on_time_and_rated_and_not_before() {
    let dir = TempDir::new("deadline-claim");
    let server = start_with_test_clock(&dir.0).await;
    let api = Api::new(&server);
    let (hook, bodies) = webhook_sink(false).await;
    let (a, b) = rated_game(&api, "3d", Some(&hook)).await;
    let spectator = spectator_token(&server, &a);
    let (mover, waiter) = mover_and_waiter(&api, &a, &b).await;
    // The first move is told to its player when the game is made (notify.rs tests it); the deadline's notices follow.
    until("the first move is told", || (!bodies.lock().unwrap().is_empty()).then_some(())).await;
    let c = clock(&api, &waiter).await;
    assert_eq!((c["pace"].as_str(), c["pace_text"].as_str()), (Some("3d"), Some("3 days a move")));
    assert_eq!(c["left_ms"].as_i64().unwrap(), c["deadline"].as_i64().unwrap() - c["now"].as_i64().unwrap());
    assert!(c["left_ms"].as_i64().unwrap() > 3 * DAY_MS - 60_000, "{c}");
    assert_eq!((c["overdue"].as_bool(), c["can_claim"].as_bool()), (Some(false), Some(false)));
    assert!(c["text"].as_str().unwrap().contains("3 days left"), "{c}");
    // The lobby's "your games" and the player's page show the time left too.
    let summary = api.get(&format!("/api/play/{waiter}/summary")).await.1;
    assert_eq!(summary["pace"], "3d");
    assert!(summary["left_ms"].as_i64().unwrap() > 0);
    let page = api.get("/api/players/Bea").await.1;
    assert_eq!(page["games"][0]["pace"], "3d");
    assert!(page["games"][0]["left_ms"].as_i64().unwrap() > 0);

    // Before the deadline: refused, saying how long is left; the mover has nothing to claim; a spectator cannot.
    let (s, v) = claim(&api, &waiter).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    let why = v["error"].as_str().unwrap();
    assert!(
        why.contains("left to move") && why.contains("3 days a move") && why.contains("once that has passed"),
        "{why}"
    );
    let (s, v) = claim(&api, &mover).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(v["error"].as_str().unwrap().contains("your move"), "{v}");
    let (s, v) = claim(&api, &spectator).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert!(v["error"].as_str().unwrap().contains("spectator"), "{v}");
    assert_eq!(clock(&api, &spectator).await["can_claim"], false);

    // Near the deadline (3 days less 6 hours later) the player to move is reminded, once.
    let told_before = bodies.lock().unwrap().len();
    let (s, v) = api.post("/api/test/clock", json!({"hours": 66})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(server.games().watch_deadlines(), 0, "the reminder was sent when the clock moved, and only once");
    until("the reminder", || (bodies.lock().unwrap().len() > told_before).then_some(())).await;
    let reminder = bodies.lock().unwrap()[told_before]["text"].as_str().unwrap().to_string();
    assert!(reminder.contains("hours is left before your deadline") && !reminder.contains("day"), "{reminder}");
    assert!(reminder.contains(&format!("/game/{mover}")), "sent to the player to move: {reminder}");
    let (s, _) = claim(&api, &waiter).await;
    assert_eq!(s, StatusCode::CONFLICT, "still 6 hours to go");

    // Past it: the waiting player is told, once, and may claim.
    server.games().clock().advance(6 * 3_600_000 + 1).unwrap();
    assert_eq!(server.games().watch_deadlines(), 1);
    assert_eq!(server.games().watch_deadlines(), 0);
    until("the notice that the win may be claimed", || (bodies.lock().unwrap().len() > told_before + 1).then_some(()))
        .await;
    let overdue = bodies.lock().unwrap()[told_before + 1]["text"].as_str().unwrap().to_string();
    assert!(overdue.contains("may claim the win") && overdue.contains(&format!("/game/{waiter}")), "{overdue}");
    let c = clock(&api, &waiter).await;
    assert_eq!(
        (c["overdue"].as_bool(), c["can_claim"].as_bool(), c["left_ms"].as_i64()),
        (Some(true), Some(true), Some(0))
    );
    assert_eq!(clock(&api, &mover).await["can_claim"], false);
    let (s, v) = claim(&api, &spectator).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");

    let before = [rating_of(&api, "Bea").await, rating_of(&api, "Cy").await];
    assert!(before.iter().all(Value::is_null), "no rated game has ended yet");
    let (s, v) = claim(&api, &waiter).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let waiting_side = api.view(&waiter).await["you_play"][0].clone();
    assert_eq!(v["result"]["winner"], waiting_side);
    let late_side = if waiting_side == "A" { "B" } else { "A" };
    assert_eq!(v["result"]["reason"], json!({"out_of_time": late_side}));
    let text = v["result"]["text"].as_str().unwrap();
    assert!(text.contains("did not move by the deadline") && text.contains("claimed on time"), "{text}");
    // Rated as a win and a loss.
    let (winner, loser) = if waiting_side == "A" { ("Bea", "Cy") } else { ("Cy", "Bea") };
    let (w, l) = (rating_of(&api, winner).await, rating_of(&api, loser).await);
    assert_eq!((w["wins"].as_u64(), l["losses"].as_u64()), (Some(1), Some(1)), "{w} {l}");
    assert!(w["rating"].as_i64().unwrap() > 1500 && l["rating"].as_i64().unwrap() < 1500);
    // The game is over: nothing more to claim, and the spectator sees the result in words.
    let (s, _) = claim(&api, &waiter).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(api.view(&spectator).await["result"]["text"], text);
    assert_eq!(clock(&api, &spectator).await["text"], "The game is over.");
    server.stop().await;
}

#[tokio::test]
async fn a_move_made_gives_the_other_side_its_own_days_and_a_live_game_has_no_deadline() {
    let dir = TempDir::new("deadline-move");
    let server = start_with_test_clock(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players", "pace": "1d"})).await;
    let (a, b) = (token(&created, "A"), token(&created, "B"));
    let (mover, _) = mover_and_waiter(&api, &a, &b).await;
    let first = api.get(&format!("/api/play/{mover}/clock")).await.1;
    assert_eq!(first["pace"], "1d");
    server.games().clock().advance(20 * 3_600_000).unwrap();
    // The mover plays until the move passes: the other side's deadline is a day from now, not from the start.
    loop {
        let v = api.view(&mover).await;
        if v["your_turn"] != true || !v["result"].is_null() {
            break;
        }
        let index = find(&v, |a| a == "end_activations").or_else(|| find(&v, |a| a == "hold")).unwrap_or(0);
        let (s, r) = api.act(&mover, json!({"index": index, "decisions": v["decisions"]})).await;
        assert_eq!(s, StatusCode::OK, "{r}");
    }
    let next = api.get(&format!("/api/play/{mover}/clock")).await.1;
    if next["to_act"] != first["to_act"] {
        assert!(next["deadline"].as_i64().unwrap() >= first["deadline"].as_i64().unwrap() + 20 * 3_600_000, "{next}");
        assert!(next["left_ms"].as_i64().unwrap() > DAY_MS - 60_000);
    }
    // A pace is for two-player games; a live one has no deadline to claim on.
    let (s, v) =
        api.post("/api/games", json!({"scenario": "meeting-engagement", "mode": "hotseat", "pace": "3d"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("two-player"), "{v}");
    let (s, _) =
        api.post("/api/games", json!({"scenario": "meeting-engagement", "mode": "two_players", "pace": "2d"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "no such pace");
    let live = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let (la, lb) = (token(&live, "A"), token(&live, "B"));
    let (_, lwaiter) = mover_and_waiter(&api, &la, &lb).await;
    server.games().clock().advance(30 * DAY_MS).unwrap();
    let c = api.get(&format!("/api/play/{lwaiter}/clock")).await.1;
    assert_eq!(
        (c["pace"].as_str(), c["deadline"].is_null(), c["can_claim"].as_bool()),
        (Some("live"), true, Some(false))
    );
    let (s, v) = api.post(&format!("/api/play/{lwaiter}/clock/claim"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(v["error"].as_str().unwrap().contains("live"), "{v}");
    server.stop().await;
}

#[tokio::test]
async fn only_a_test_clock_is_moved_and_by_a_bounded_amount() {
    let dir = TempDir::new("deadline-clock");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (s, v) = api.post("/api/test/clock", json!({"hours": 1})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    assert!(v["error"].as_str().unwrap().contains("--test-clock"), "{v}");
    server.stop().await;
    let dir = TempDir::new("deadline-clock-test");
    let server = start_with_test_clock(&dir.0).await;
    let api = Api::new(&server);
    for bad in [json!({"hours": 9000}), json!({"hours": -1}), json!({"hours": "1"}), json!({"days": 1}), json!({})] {
        let (s, v) = api.post("/api/test/clock", bad.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    server.stop().await;
}

/// Keeps the endings it is told.
#[derive(Default)]
struct Endings(Mutex<Vec<GameEnded>>);

impl GameObserver for Endings {
    fn ended(&self, e: &GameEnded) {
        self.0.lock().unwrap().push(e.clone());
    }
}

#[tokio::test]
async fn a_draw_is_offered_declined_lapses_when_its_side_plays_on_and_once_accepted_is_rated_as_a_draw() {
    let dir = TempDir::new("draw");
    let server = start_with_test_clock(&dir.0).await;
    let endings = Arc::new(Endings::default());
    server.games().observe(endings.clone());
    let api = Api::new(&server);
    let (a, b) = rated_game(&api, "live", None).await;
    let spectator = spectator_token(&server, &a);
    let (mover, waiter) = mover_and_waiter(&api, &a, &b).await;
    // A spectator can neither see nor offer nor answer one.
    assert_eq!(draw(&api, &spectator).await.0, StatusCode::FORBIDDEN);
    assert_eq!(offer(&api, &spectator).await.0, StatusCode::FORBIDDEN);
    assert_eq!(answer(&api, &spectator, true).await.0, StatusCode::FORBIDDEN);
    // Offered, seen by the other player, not answered by the one who offered, declined.
    let (s, v) = offer(&api, &mover).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::OK, Some("offered")), "{v}");
    let seen = draw(&api, &waiter).await.1;
    assert_eq!(seen["pending"]["by"], api.view(&mover).await["you_play"][0]);
    let (s, v) = offer(&api, &waiter).await;
    assert_eq!(s, StatusCode::CONFLICT, "the other's offer stands: answer it ({v})");
    let (s, v) = answer(&api, &mover, true).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert!(v["error"].as_str().unwrap().contains("you offered"), "{v}");
    let (s, v) = answer(&api, &waiter, false).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["result"].is_null(), "declined: the game goes on");
    assert_eq!(draw(&api, &waiter).await.1["pending"], Value::Null);
    assert_eq!(answer(&api, &waiter, true).await.0, StatusCode::CONFLICT, "nothing left to answer");
    // Offered again, then its side plays on: it lapses.
    offer(&api, &mover).await;
    let v = api.view(&mover).await;
    let (s, r) = api.act(&mover, json!({"index": 0, "decisions": v["decisions"]})).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let (s, v) = answer(&api, &waiter, true).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("moved since"), "{v}");
    // Offered and accepted: a draw by agreement, through the one ending hook, rated as a draw.
    let (s, _) = offer(&api, &waiter).await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = answer(&api, &mover, true).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["result"]["winner"].clone(), v["result"]["reason"].clone()), (Value::Null, json!("draw_agreed")));
    assert!(v["result"]["text"].as_str().unwrap().contains("agreed to a draw"), "{v}");
    let ended = endings.0.lock().unwrap().clone();
    assert_eq!(ended.len(), 1);
    assert_eq!(ended[0].how, Ending::Agreement);
    for name in ["Bea", "Cy"] {
        let r = rating_of(&api, name).await;
        assert_eq!((r["draws"].as_u64(), r["wins"].as_u64(), r["losses"].as_u64()), (Some(1), Some(0), Some(0)), "{r}");
    }
    assert_eq!(offer(&api, &mover).await.0, StatusCode::CONFLICT, "the game is over");
    // The finished game's save holds the ending and loads again as it was.
    let save = api.get(&format!("/api/play/{a}/save")).await.1;
    assert_eq!(save["declared"], "draw_agreed");
    let again = pacw_engine::Game::load(&save.to_string()).unwrap();
    assert_eq!(again.battle().result().map(|r| r.reason), Some(pacw_engine::EndReason::DrawAgreed));
    server.stop().await;
}
