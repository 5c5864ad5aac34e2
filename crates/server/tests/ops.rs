//! What an operator does to a running server: a backup taken while it serves, a game brought back while it runs,
//! and its metrics.

mod common;

use common::{Api, TempDir, config, start, token};
use pacw_server::Server;
use pacw_server::store::{Backup, DB_FILE, Store};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_games_are_written_opens_and_holds_every_game_it_copied() {
    let dir = TempDir::new("backup-live");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let mut first = Vec::new();
    for _ in 0..5 {
        first.push(api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await);
    }
    // Another connection (the server's) keeps writing new games while the backups are taken.
    let writer = {
        let api = Api { base: api.base.clone(), http: api.http.clone() };
        tokio::spawn(async move {
            for _ in 0..40 {
                api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
            }
        })
    };
    let out = TempDir::new("backup-out");
    std::fs::create_dir_all(&out.0).unwrap();
    let file = out.0.join("copy.sqlite3");
    let mut copied = Vec::new();
    for _ in 0..5 {
        let (data, file) = (dir.0.clone(), file.clone());
        let b = tokio::task::spawn_blocking(move || Backup::take(&data, &file)).await.unwrap().unwrap();
        copied.push(b.games);
    }
    writer.await.unwrap();
    assert!(copied.iter().all(|&n| n >= 5), "every copy has at least the first games: {copied:?}");
    assert!(!out.0.join("copy.sqlite3.partial").exists(), "no half-written copy is left");
    server.stop().await;

    // Restored as the docs say (the file put in a data folder as pacw.sqlite3), it opens and its games load.
    let restored = TempDir::new("backup-restored");
    std::fs::create_dir_all(&restored.0).unwrap();
    std::fs::copy(&file, restored.0.join(DB_FILE)).unwrap();
    let store = Store::open(&restored.0).unwrap();
    let (games, damaged) = store.load_all().unwrap();
    assert!(damaged.is_empty(), "{damaged:?}");
    assert_eq!(games.len(), *copied.last().unwrap());
    for g in &first {
        assert!(games.iter().any(|r| r.id == g["id"].as_str().unwrap()), "game {} is in the copy", g["id"]);
    }
    drop(store);
    let server = Server::bind(config(&restored.0)).await.unwrap().spawn();
    let api = Api::new(&server);
    assert_eq!(api.get(&format!("/api/play/{}", token(&first[0], "hotseat"))).await.0, reqwest::StatusCode::OK);
    server.stop().await;
}

#[test]
fn a_backup_of_a_folder_without_a_database_is_refused_and_writes_nothing() {
    let dir = TempDir::new("backup-none");
    std::fs::create_dir_all(&dir.0).unwrap();
    let file = dir.0.join("copy.sqlite3");
    let e = Backup::take(&dir.0, &file).unwrap_err();
    assert!(e.to_string().contains("there is no database"), "{e}");
    assert!(!file.exists());
    drop(Store::open(&dir.0).unwrap());
    let e = Backup::take(&dir.0, &dir.0).unwrap_err();
    assert!(e.to_string().contains("not a folder"), "{e}");
}

#[tokio::test]
async fn a_game_brought_back_while_the_server_runs_opens_again_on_its_next_request() {
    let dir = TempDir::new("restore-live");
    let with_archive = pacw_server::ServerConfig { archive_after_days: 30, ..config(&dir.0) };
    let server = Server::bind(with_archive.clone()).await.unwrap().spawn();
    let api = Api::new(&server);
    let idle = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let id = idle["id"].as_str().unwrap().to_string();
    server.stop().await;
    let store = Store::open(&dir.0).unwrap();
    let old = pacw_server::store::now_ms() - 31 * 86_400_000;
    store.execute_raw(&format!("UPDATE games SET updated_at = {old} WHERE id = '{id}'")).unwrap();
    drop(store);

    let server = Server::bind(with_archive).await.unwrap().spawn();
    let api = Api::new(&server);
    let link = format!("/api/play/{}", token(&idle, "hotseat"));
    assert_eq!(api.get(&link).await.0, reqwest::StatusCode::GONE);
    // The operator's command, with the server running: another connection to the same database.
    assert!(Store::open(&dir.0).unwrap().restore(&id).unwrap());
    let (s, v) = api.get(&link).await;
    assert_eq!(s, reqwest::StatusCode::OK, "{v}");
    // It plays: an action is accepted and kept.
    let view = api.view(&token(&idle, "hotseat")).await;
    let n = common::find(&view, |_| true).expect("a legal action");
    let (s, v) = api.act(&token(&idle, "hotseat"), json!({"index": n, "decisions": view["decisions"]})).await;
    assert_eq!(s, reqwest::StatusCode::OK, "{v}");
    // Restored twice is refused: it is no longer put away.
    assert!(!Store::open(&dir.0).unwrap().restore(&id).unwrap());
    server.stop().await;
}

#[tokio::test]
async fn the_metrics_are_served_only_with_the_operators_token() {
    let dir = TempDir::new("metrics-none");
    let server = start(&dir.0).await;
    let http = reqwest::Client::new();
    let r = http.get(format!("{}/metrics", server.base())).bearer_auth("0123456789abcdef").send().await.unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::NOT_FOUND, "no token configured: no metrics");
    server.stop().await;

    let dir = TempDir::new("metrics");
    let secret = "an operator's secret, 42";
    let with_token =
        pacw_server::ServerConfig { metrics_token: Some("an-operators-secret-42".parse().unwrap()), ..config(&dir.0) };
    assert!(secret.parse::<pacw_server::metrics::MetricsToken>().is_err(), "spaces are refused");
    let server = Server::bind(with_token).await.unwrap().spawn();
    let api = Api::new(&server);
    api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let solo = api
        .create(json!({"scenario": "meeting-engagement", "mode": "computer", "human_side": "A", "computer": "random"}))
        .await;
    let url = format!("{}/metrics", server.base());
    // The person plays until the computer has answered at least once (the game's decisions grow past the person's).
    let mine = token(&solo, "A");
    let mut played = 0;
    loop {
        let view = api.wait_turn(&mine).await;
        if view["decisions"].as_u64().unwrap() > played {
            break;
        }
        let n = view["legal_actions"][0]["index"].as_u64().unwrap();
        let (s, v) = api.act(&mine, json!({"index": n, "decisions": view["decisions"]})).await;
        assert_eq!(s, reqwest::StatusCode::OK, "{v}");
        played += 1;
    }
    let r = http.get(&url).send().await.unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::UNAUTHORIZED);
    assert!(r.headers().get("www-authenticate").is_some());
    for wrong in ["an-operators-secret-43", "an-operators-secret-42x", "", &"x".repeat(4000)] {
        let r = http.get(&url).bearer_auth(wrong).send().await.unwrap();
        assert_eq!(r.status(), reqwest::StatusCode::UNAUTHORIZED, "{wrong:.30}");
    }
    let r = http.get(&url).header("authorization", "Basic an-operators-secret-42").send().await.unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::UNAUTHORIZED);
    let r = http.get(&url).bearer_auth("an-operators-secret-42").send().await.unwrap();
    assert_eq!(r.status(), reqwest::StatusCode::OK);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/plain; version=0.0.4"));
    let text = r.text().await.unwrap();
    let sample = |name: &str| sample_of(&text, name);
    assert_eq!(sample("pacw_games{status=\"in_progress\"}"), 2.0, "{text}");
    assert_eq!(sample("pacw_games_loaded "), 2.0);
    assert_eq!(sample("pacw_event_streams "), 0.0);
    assert_eq!(sample("pacw_players_online "), 0.0);
    assert!(sample("pacw_thinking_threads ") >= 2.0);
    assert!(sample("pacw_thinking_decisions_total{waiting=\"person\"}") >= 1.0, "the computer moved: {text}");
    assert_eq!(sample("pacw_thinking_queue{waiting=\"others\"}"), 0.0);
    // The person opens their game (an event stream through their own link): a player online.
    let mut live = http.get(format!("{}/api/play/{mine}/events", server.base())).send().await.unwrap();
    assert!(live.chunk().await.unwrap().is_some(), "the hello event");
    let text = http.get(&url).bearer_auth("an-operators-secret-42").send().await.unwrap().text().await.unwrap();
    assert_eq!(
        (sample_of(&text, "pacw_event_streams "), sample_of(&text, "pacw_players_online ")),
        (1.0, 1.0),
        "{text}"
    );
    drop(live);
    server.stop().await;
}

/// The value of the metric whose line starts with `name` in the text `/metrics` answered.
fn sample_of(text: &str, name: &str) -> f64 {
    let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name} in\n{text}"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}
