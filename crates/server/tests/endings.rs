//! Every change of a game passes through one place, and every ending through one hook, exactly once: a person's
//! actions, the computer's, an undo and a resignation (issue 42, the ground of ratings, deadlines and notices).

mod common;

use common::*;
use pacw_engine::{EndReason, Side};
use pacw_server::session::{
    ActRequest, ChangeKind, Ending, GameChanged, GameEnded, GameObserver, ResignRequest, UndoRequest,
};
use pacw_server::setup::Seat;
use reqwest::StatusCode;
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Keeps what it is told.
#[derive(Default)]
struct Seen {
    changed: Mutex<Vec<GameChanged>>,
    ended: Mutex<Vec<GameEnded>>,
}

impl GameObserver for Seen {
    fn changed(&self, c: &GameChanged) {
        self.changed.lock().unwrap().push(c.clone());
    }
    fn ended(&self, e: &GameEnded) {
        self.ended.lock().unwrap().push(e.clone());
    }
}

impl Seen {
    fn changes_of(&self, id: &str) -> Vec<GameChanged> {
        self.changed.lock().unwrap().iter().filter(|c| c.id == id).cloned().collect()
    }
    fn endings_of(&self, id: &str) -> Vec<GameEnded> {
        self.ended.lock().unwrap().iter().filter(|e| e.id == id).cloned().collect()
    }
}

fn watch(server: &pacw_server::RunningServer) -> Arc<Seen> {
    let seen = Arc::new(Seen::default());
    server.games().observe(seen.clone());
    seen
}

#[tokio::test]
async fn a_game_ended_by_a_person_s_action_is_told_once_with_every_change() {
    let dir = TempDir::new("end-action");
    let server = start(&dir.0).await;
    let seen = watch(&server);
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let (id, t) = (created["id"].as_str().unwrap().to_string(), token(&created, "hotseat"));
    let games = server.games().clone();
    let (entry, role) = games.by_token(&t).unwrap();
    // The first legal action each time: the game runs to its end by the rules.
    let mut n = 0;
    let last = loop {
        let v = games.act(&entry, role, ActRequest { index: Some(0), ..ActRequest::default() }).unwrap();
        n += 1;
        if v.result.is_some() {
            break v;
        }
        assert!(n < 20_000, "the game does not end");
    };
    let changes = seen.changes_of(&id);
    assert_eq!(changes.len(), n, "one change told for each action");
    assert!(changes.iter().all(|c| matches!(c.kind, ChangeKind::Action { computer: false, .. })));
    assert_eq!(changes.last().unwrap().decisions, last.decisions);
    let endings = seen.endings_of(&id);
    assert_eq!(endings.len(), 1, "{endings:?}");
    assert_eq!(endings[0].how, Ending::Rules);
    let shown = last.result.as_ref().unwrap();
    assert_eq!((endings[0].result.winner, endings[0].result.reason), (shown.winner, shown.reason));
    let guest = Seat::Guest { token: t.clone() };
    assert_eq!(endings[0].seats, [guest.clone(), guest]);
    // A finished game changes no more, and is not told again.
    let again = games.act(&entry, role, ActRequest { index: Some(0), ..ActRequest::default() });
    assert!(again.is_err());
    let (s, _) = api.post(&format!("/api/play/{t}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(seen.endings_of(&id).len(), 1);
    assert_eq!(seen.changes_of(&id).len(), n);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_ended_by_the_computer_s_action_is_told_once() {
    let dir = TempDir::new("end-computer");
    let server = start(&dir.0).await;
    let seen = watch(&server);
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "watch", "computer": "random"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(120);
    while seen.endings_of(&id).is_empty() {
        assert!(Instant::now() < deadline, "the computer's game did not end");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await; // nothing more comes
    let endings = seen.endings_of(&id);
    assert_eq!(endings.len(), 1, "{endings:?}");
    assert_eq!(endings[0].how, Ending::Rules);
    let random = Seat::Computer { name: "random".into() };
    assert_eq!(endings[0].seats, [random.clone(), random]);
    let changes = seen.changes_of(&id);
    assert!(changes.iter().all(|c| matches!(c.kind, ChangeKind::Action { computer: true, .. })));
    assert_eq!(changes.len(), endings[0].decisions);
    let v = api.view(&token(&created, "spectator")).await;
    assert_eq!(v["decisions"].as_u64(), Some(endings[0].decisions as u64));
    server.stop().await;
}

#[tokio::test]
async fn an_undo_is_a_change_that_ends_nothing_and_a_resignation_ends_once() {
    let dir = TempDir::new("end-undo-resign");
    let server = start(&dir.0).await;
    let seen = watch(&server);
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let games = server.games().clone();
    let (a, b) = (token(&created, "A"), token(&created, "B"));
    // The side to act activates a unit (no die, no card) and takes it back.
    let v = api.view(&a).await;
    let mover = if v["your_turn"] == true { a.clone() } else { b.clone() };
    let v = api.view(&mover).await;
    let i = find(&v, is_activate).expect("a unit to activate");
    let (s, r) = api.act(&mover, json!({"index": i})).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let (entry, role) = games.by_token(&mover).unwrap();
    games.undo(&entry, role, UndoRequest::default()).unwrap();
    let changes = seen.changes_of(&id);
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert_eq!(changes[1].kind, ChangeKind::Undo { removed: 1 });
    assert_eq!(changes[1].decisions, 0);
    assert!(seen.endings_of(&id).is_empty(), "an undo ends nothing");

    // A resigns: the game ends, once, by resignation; B wins; the seats are the two links'.
    let (a_entry, a_role) = games.by_token(&a).unwrap();
    games.resign(&a_entry, a_role, ResignRequest::default()).unwrap();
    let (s, _) = api.post(&format!("/api/play/{b}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT, "a finished game cannot be resigned");
    let endings = seen.endings_of(&id);
    assert_eq!(endings.len(), 1, "{endings:?}");
    assert_eq!(endings[0].how, Ending::Resignation);
    assert_eq!(endings[0].result.reason, EndReason::Resigned(Side::A));
    assert_eq!(endings[0].result.winner, Some(Side::B));
    assert_eq!(endings[0].seats, [Seat::Guest { token: a }, Seat::Guest { token: b }]);
    let changes = seen.changes_of(&id);
    assert_eq!(changes.len(), 3);
    assert_eq!(changes[2].kind, ChangeKind::Resign { side: Side::A });
    assert_eq!(changes[2].to_act, None);
    server.stop().await;
}

/// Panics on every change.
struct Faulty;

impl GameObserver for Faulty {
    fn changed(&self, _: &GameChanged) {
        panic!("an observer's fault");
    }
}

#[tokio::test]
async fn an_observer_that_fails_does_not_undo_or_refuse_a_stored_change() {
    let dir = TempDir::new("end-faulty");
    let server = start(&dir.0).await;
    server.games().observe(Arc::new(Faulty));
    let seen = watch(&server);
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let t = token(&created, "hotseat");
    let v = api.view(&t).await;
    let (s, r) = api.act(&t, json!({"index": find(&v, is_activate).unwrap()})).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(api.view(&t).await["decisions"], 1);
    // The observers after the faulty one are told all the same.
    assert_eq!(seen.changes_of(created["id"].as_str().unwrap()).len(), 1);
    server.stop().await;
}
