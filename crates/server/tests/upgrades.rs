//! A database written by an earlier version keeps every game after an upgrade: the fixture of 2026-12-01 (a game of
//! each mode, one resigned, one finished; the first schema) is opened by today's server and every game is there as
//! it was, its seats filled in from its players and tokens, and it plays on by its links. The fixture of 2026-12-06
//! (schema 4, the server just before accounts) gains the club's tables, its games casual and their seats guests',
//! playing on by their links and claimable by an account. The club's folder of 2026-12-06 (schema 6, before paces were
//! kept) gains each game's pace: its games live, with no deadline, its postings' `daily` and `slow` read as a day and
//! three days a move.

mod common;

use common::*;
use pacw_server::setup::Seat;
use pacw_server::store::Store;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A copy of the fixture's database in a fresh data folder, with the fixture's facts.
fn fixture(name: &str) -> (TempDir, Value) {
    fixture_of("games-2026-12-01", name)
}

/// A copy of the fixture `file` (`.sqlite3` and `.json`) in a fresh data folder, with its facts.
fn fixture_of(file: &str, name: &str) -> (TempDir, Value) {
    let dir = TempDir::new(name);
    std::fs::create_dir_all(&dir.0).unwrap();
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::copy(here.join(format!("{file}.sqlite3")), dir.0.join("pacw.sqlite3")).unwrap();
    let facts: Value =
        serde_json::from_str(&std::fs::read_to_string(here.join(format!("{file}.json"))).unwrap()).unwrap();
    (dir, facts)
}

#[test]
fn the_games_of_2026_12_01_get_the_seats_they_had_in_effect() {
    let (dir, facts) = fixture("seats");
    // Read as it is (pacw games, which migrates nothing): the seats in effect, from the players and tokens.
    let (read, damaged) = Store::salvage(&dir.0).unwrap();
    assert!(damaged.is_empty(), "{damaged:?}");
    let store = Store::open(&dir.0).unwrap();
    let (games, damaged) = store.load_all().unwrap();
    assert!(damaged.is_empty(), "{damaged:?}");
    assert_eq!(games.len(), 4);
    let guest = |mode: &str, role: &str| Seat::Guest { token: facts["tokens"][mode][role].as_str().unwrap().into() };
    let random = Seat::Computer { name: "random".into() };
    for g in &games {
        let mode = g.mode.name();
        assert_eq!(g.id, facts[mode], "{mode}");
        let expected = match mode {
            "hotseat" => [guest(mode, "hotseat"), guest(mode, "hotseat")],
            "computer" => [random.clone(), guest(mode, "B")],
            "two_players" => [guest(mode, "A"), guest(mode, "B")],
            _ => [random.clone(), random.clone()],
        };
        assert_eq!(g.seats, expected, "{mode}");
        assert_eq!(g.seats.each_ref().map(Seat::kind), g.players, "{mode}");
    }
    let seats = |g: &[pacw_server::store::GameRecord]| g.iter().map(|g| g.seats.clone()).collect::<Vec<_>>();
    assert_eq!(seats(&read), seats(&games), "read as it is, and migrated");
    drop(store);
    // Opened again: nothing more to migrate, the seats as they were stored.
    let again = Store::open(&dir.0).unwrap().load_all().unwrap().0;
    assert_eq!(
        again.iter().map(|g| g.seats.clone()).collect::<Vec<_>>(),
        games.iter().map(|g| g.seats.clone()).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn the_database_of_2026_12_01_opens_with_every_game() {
    let (dir, facts) = fixture("upgrade");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    for (mode, decisions, reason) in [
        ("hotseat", 40, Value::Null),
        ("computer", 62, Value::Null),
        ("two_players", 2, serde_json::json!({"resigned": "A"})),
        ("watch", 402, serde_json::json!("turn_limit")),
    ] {
        let token = facts["tokens"][mode]["spectator"].as_str().unwrap();
        let v = api.view(token).await;
        assert_eq!(v["id"], facts[mode], "{mode}");
        assert!(v["decisions"].as_u64().unwrap() >= decisions, "{mode}: {}", v["decisions"]);
        if reason.is_null() {
            assert!(v["result"].is_null() || mode == "computer", "{mode}");
        } else {
            assert_eq!(v["result"]["reason"], reason, "{mode}");
            assert_eq!(v["decisions"], decisions, "{mode}");
        }
    }
    // The unfinished hot-seat game plays on by its link.
    let hotseat = facts["tokens"]["hotseat"]["hotseat"].as_str().unwrap();
    let v = api.view(hotseat).await;
    let (s, after) = api.act(hotseat, json!({"index": 0, "decisions": v["decisions"]})).await;
    assert_eq!(s, StatusCode::OK, "{after}");
    assert_eq!(after["decisions"].as_u64(), v["decisions"].as_u64().map(|d| d + 1));
    server.stop().await;
}

#[tokio::test]
async fn the_database_of_2026_12_06_gains_the_club_and_its_games_play_on_by_their_links() {
    let (dir, facts) = fixture_of("games-2026-12-06", "club");
    {
        let store = Store::open(&dir.0).unwrap();
        let (games, damaged) = store.load_all().unwrap();
        assert!(damaged.is_empty(), "{damaged:?}");
        assert_eq!(games.len(), 4);
        for g in &games {
            assert_eq!(g.rating, pacw_server::setup::Rating::Casual, "{}", g.id);
            assert!(g.seats.iter().all(|s| s.account().is_none()), "{}", g.id);
        }
        assert!(store.accounts().unwrap().is_empty() && store.ratings().unwrap().is_empty());
    }
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    for mode in ["two_players", "computer", "hotseat", "resigned"] {
        let v = api.view(facts["tokens"][mode]["spectator"].as_str().unwrap()).await;
        assert_eq!(v["id"], facts[mode], "{mode}");
        assert!(v["decisions"].as_u64().unwrap() >= facts["decisions"][mode].as_u64().unwrap(), "{mode}");
    }
    // The two-player game plays on by its links, as before.
    let (a, b) =
        (facts["tokens"]["two_players"]["A"].as_str().unwrap(), facts["tokens"]["two_players"]["B"].as_str().unwrap());
    let mover = if api.view(a).await["your_turn"] == true { a } else { b };
    let v = api.view(mover).await;
    let (s, after) = api.act(mover, json!({"index": 0, "decisions": v["decisions"]})).await;
    assert_eq!(s, StatusCode::OK, "{after}");
    // And a guest's seat of before is claimed by a new account.
    let http = reqwest::Client::new();
    let r = http
        .post(format!("{}/api/account/signup", api.base))
        .json(&json!({"name": "Bea", "password": "a long password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let csrf = r.json::<Value>().await.unwrap()["csrf"].as_str().unwrap().to_string();
    let r = http
        .post(format!("{}/api/account/claim", api.base))
        .header("cookie", &cookie)
        .header("x-pacw-csrf", &csrf)
        .json(&json!({"token": a}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let page: Value = http.get(format!("{}/api/players/Bea", api.base)).send().await.unwrap().json().await.unwrap();
    assert_eq!(page["games"][0]["id"], facts["two_players"]);
    server.stop().await;
}

#[tokio::test]
async fn the_club_of_2026_12_06_gains_the_paces_its_games_live_and_its_postings_paced_as_posted() {
    let (dir, facts) = fixture_of("club-2026-12-06", "paces");
    {
        let store = Store::open(&dir.0).unwrap();
        let (games, damaged) = store.load_all().unwrap();
        assert!(damaged.is_empty(), "{damaged:?}");
        assert_eq!(games.len(), 2);
        for g in &games {
            assert_eq!(g.pace, pacw_server::setup::Pace::Live, "{}", g.id);
            assert_eq!(g.move_since, g.updated_at, "{}: the move taken to have passed at the last change", g.id);
        }
    }
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    // The postings of before: `daily` is a day a move, `slow` three days.
    let daily = api.get(&format!("/api/room/{}", facts["daily_posting"].as_str().unwrap())).await.1;
    assert_eq!(daily["pace"], "1d");
    let slow = api.get(&format!("/api/room/{}", facts["slow_posting"].as_str().unwrap())).await.1;
    assert_eq!((slow["pace"].as_str(), slow["joined"].as_bool()), (Some("3d"), Some(true)));
    // Its games are live: no deadline, nothing to claim; and they play on by their links.
    let joined = facts["joined_link"].as_str().unwrap().trim_start_matches("/game/");
    let c = api.get(&format!("/api/play/{joined}/clock")).await.1;
    assert_eq!((c["pace"].as_str(), c["deadline"].is_null()), (Some("live"), true), "{c}");
    let (a, b) =
        (facts["tokens"]["two_players"]["A"].as_str().unwrap(), facts["tokens"]["two_players"]["B"].as_str().unwrap());
    let mover = if api.view(a).await["your_turn"] == true { a } else { b };
    let v = api.view(mover).await;
    assert_eq!(v["decisions"], facts["decisions"]["two_players"]);
    let (s, after) = api.act(mover, json!({"index": 0, "decisions": v["decisions"]})).await;
    assert_eq!(s, StatusCode::OK, "{after}");
    server.stop().await;
}
