//! `pacw serve` end to end: the real binary as a child process, killed with SIGKILL and started again on the same
//! data directory; no acknowledged action is lost.

use serde_json::{Value, json};
use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `pacw serve` on a free port; returns it and its base URL, read from what it prints.
fn serve(data: &Path, delay_ms: u64) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .args(["serve", "--addr", "127.0.0.1:0", "--computer-delay-ms", &delay_ms.to_string(), "--data"])
        .arg(data)
        .stdout(Stdio::piped())
        .spawn()
        .expect("pacw starts");
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let url = loop {
        let line = lines.next().expect("pacw prints its address").unwrap();
        if let Some(at) = line.find("http://") {
            break line[at..].trim().trim_end_matches('/').to_string();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    (Server(child), url)
}

async fn call(req: reqwest::RequestBuilder) -> (u16, Value) {
    let r = req.send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// A fresh directory, removed with everything in it when dropped: the server's data folder is `data` inside it,
/// not made yet (the server makes it).
fn data_dir() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("pacw-serve-test-").tempdir().unwrap()
}

#[tokio::test]
async fn pacw_serve_killed_with_sigkill_keeps_every_acknowledged_action() {
    let scratch = data_dir();
    let dir = scratch.path().join("data");
    let http = reqwest::Client::new();
    let (mut server, base) = serve(&dir, 60_000);
    assert!(dir.join("pacw.sqlite3").exists(), "the data directory and database are created on first start");

    let (s, created) =
        call(http.post(format!("{base}/api/games")).json(&json!({"scenario": "bloody-lane", "mode": "hotseat"}))).await;
    assert_eq!(s, 201, "{created}");
    let t = created["tokens"]["hotseat"].as_str().unwrap().to_string();
    let mut last = 0;
    for _ in 0..12 {
        let (_, v) = call(http.get(format!("{base}/api/play/{t}"))).await;
        let index = v["legal_actions"].as_array().unwrap().len() / 2;
        let (s, r) = call(http.post(format!("{base}/api/play/{t}/actions")).json(&json!({"index": index}))).await;
        assert_eq!(s, 200, "{r}");
        last = r["decisions"].as_u64().unwrap();
    }
    let (_, before) = call(http.get(format!("{base}/api/play/{t}"))).await;

    // A game against the computer, killed while the computer's move is pending (it waits a minute).
    let (_, vs) = call(
        http.post(format!("{base}/api/games")).json(&json!({"scenario": "meeting-engagement", "mode": "computer"})),
    )
    .await;
    let h = vs["tokens"]["A"].as_str().unwrap().to_string();
    let mut pending_at = None;
    for _ in 0..200 {
        let (_, v) = call(http.get(format!("{base}/api/play/{h}"))).await;
        if v["to_act"]["computer"] == true {
            pending_at = v["decisions"].as_u64();
            break;
        }
        let end = v["legal_actions"].as_array().unwrap().iter().find(|a| a["action"] == "end_activations").cloned();
        let index = end.map_or(0, |a| a["index"].as_u64().unwrap());
        let (s, r) = call(http.post(format!("{base}/api/play/{h}/actions")).json(&json!({"index": index}))).await;
        assert_eq!(s, 200, "{r}");
    }
    let pending_at = pending_at.expect("the computer's turn comes");

    server.0.kill().unwrap(); // SIGKILL on Unix
    server.0.wait().unwrap();
    drop(server);

    let (_server, base) = serve(&dir, 0);
    let (s, after) = call(http.get(format!("{base}/api/play/{t}"))).await;
    assert_eq!(s, 200, "{after}");
    assert_eq!(after["decisions"], last);
    assert_eq!(after["log"], before["log"]);
    assert_eq!(after["units"], before["units"]);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, v) = call(http.get(format!("{base}/api/play/{h}"))).await;
        if v["decisions"].as_u64().unwrap() > pending_at {
            break;
        }
        assert!(Instant::now() < deadline, "the computer's pending turn was not resumed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(_server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn pacw_games_lists_a_data_folder_with_its_links_and_saves_every_game() {
    let scratch = data_dir();
    let dir = scratch.path().join("data");
    let http = reqwest::Client::new();
    let (server, base) = serve(&dir, 0);
    let (s, created) =
        call(http.post(format!("{base}/api/games")).json(&json!({"scenario": "bloody-lane", "mode": "two_players"})))
            .await;
    assert_eq!(s, 201, "{created}");
    // The server itself lists no token.
    let (s, _) = call(http.get(format!("{base}/api/games"))).await;
    assert_eq!(s, 404, "the list is off unless the operator asks for it");
    drop(server);
    let out = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .args(["games", "--url", "https://pacw.example.org", "--data"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let id = created["id"].as_str().unwrap();
    assert!(text.contains(id) && text.contains("two_players"), "{text}");
    for role in ["A", "B", "spectator"] {
        let link = format!("https://pacw.example.org/game/{}", created["tokens"][role].as_str().unwrap());
        assert!(text.contains(&link), "{role}: {text}");
    }
    let saves = dir.join("saves");
    let out = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .arg("games")
        .arg("--data")
        .arg(&dir)
        .arg("--export")
        .arg(&saves)
        .output()
        .unwrap();
    assert!(out.status.success());
    let save = saves.join(format!("{id}.json"));
    let replay = Command::new(env!("CARGO_BIN_EXE_pacw")).arg("replay").arg(&save).output().unwrap();
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    assert!(String::from_utf8_lossy(&replay.stdout).contains("Bloody Lane"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pacw_serve_on_a_damaged_database_names_the_file_keeps_it_and_says_the_way_out() {
    let scratch = data_dir();
    let dir = scratch.path().join("data");
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("pacw.sqlite3");
    std::fs::write(&db, vec![0x5a; 8192]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&db.display().to_string()) && err.contains("damaged"), "{err}");
    assert!(err.contains("--data NEWDIR") && err.contains("pacw games --data"), "{err}");
    assert_eq!(err.matches("damaged").count(), 1, "said once: {err}");
    assert_eq!(std::fs::read(&db).unwrap(), vec![0x5a; 8192], "the file is untouched");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pacw_serve_takes_trusted_proxies_and_refuses_a_block_that_is_none() {
    let scratch = data_dir();
    let out = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .args(["serve", "--addr", "127.0.0.1:0", "--trusted-proxy", "10.0.0.0/33", "--data"])
        .arg(scratch.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'10.0.0.0/33' is not an address or a block of addresses such as 10.0.0.0/8"), "{err}");
    // Several at once, then other options: it starts.
    let mut child = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .args(["serve", "--trusted-proxy", "127.0.0.1", "fd00::/8", "--addr", "127.0.0.1:0", "--data"])
        .arg(scratch.path())
        .stdout(Stdio::piped())
        .spawn()
        .expect("pacw starts");
    let first = std::io::BufReader::new(child.stdout.take().unwrap()).lines().next().unwrap().unwrap();
    let _server = Server(child);
    assert!(first.contains("http://127.0.0.1:"), "{first}");
}

#[tokio::test]
async fn pacw_backup_copies_a_serving_database_and_the_metrics_open_with_the_token_from_the_environment() {
    let scratch = data_dir();
    let dir = scratch.path().join("data");
    // A token too short is refused before the server starts.
    let out = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .args(["serve", "--addr", "127.0.0.1:0", "--metrics-token", "short", "--data"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("16 to 256"), "{}", String::from_utf8_lossy(&out.stderr));

    let mut child = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(&dir)
        .env("PACW_METRICS_TOKEN", "a-token-from-the-environment")
        .stdout(Stdio::piped())
        .spawn()
        .expect("pacw starts");
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let url = loop {
        let line = lines.next().expect("pacw prints its address").unwrap();
        if let Some(at) = line.find("http://") {
            break line[at..].trim().trim_end_matches('/').to_string();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    let _server = Server(child);
    let http = reqwest::Client::new();
    let mut ids = Vec::new();
    for _ in 0..3 {
        let body = json!({"scenario": "meeting-engagement", "mode": "hotseat"});
        let (s, v) = call(http.post(format!("{url}/api/games")).json(&body)).await;
        assert_eq!(s, 201, "{v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let r = http.get(format!("{url}/metrics")).bearer_auth("a-token-from-the-environment").send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.text().await.unwrap().contains("pacw_games{status=\"in_progress\"} 3"));

    // The copy, taken while the server runs, restores as the docs say and lists the games.
    let copy = scratch.path().join("copy.sqlite3");
    let out =
        Command::new(env!("CARGO_BIN_EXE_pacw")).arg("backup").arg(&copy).arg("--data").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("3 game(s) copied"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let restored = scratch.path().join("restored");
    std::fs::create_dir_all(&restored).unwrap();
    std::fs::copy(&copy, restored.join("pacw.sqlite3")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pacw")).arg("games").arg("--data").arg(&restored).output().unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{listed}");
    for id in &ids {
        assert!(listed.contains(id.as_str()), "{id} in {listed}");
    }
    // No database there: refused, exit 1.
    let out = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .arg("backup")
        .arg(scratch.path().join("x.sqlite3"))
        .arg("--data")
        .arg(scratch.path().join("nothing"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no backup made"));
}

#[tokio::test]
async fn pacw_serve_killed_with_sigkill_keeps_a_vacation_and_the_offers_waiting_for_an_answer() {
    let scratch = data_dir();
    let dir = scratch.path().join("data");
    let http = reqwest::Client::new();
    let (mut server, base) = serve(&dir, 0);
    // A member on vacation.
    let r = http
        .post(format!("{base}/api/account/signup"))
        .json(&json!({"name": "Bea", "password": "a long password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let csrf = r.json::<Value>().await.unwrap()["csrf"].as_str().unwrap().to_string();
    let member = |req: reqwest::RequestBuilder| req.header("cookie", &cookie).header("x-pacw-csrf", &csrf);
    let (s, away) = call(member(http.post(format!("{base}/api/account/vacation"))).json(&json!({"days": 4}))).await;
    assert_eq!(s, 201, "{away}");
    // A two-player game with a draw offered.
    let (_, created) = call(
        http.post(format!("{base}/api/games")).json(&json!({"scenario": "meeting-engagement", "mode": "two_players"})),
    )
    .await;
    let a = created["tokens"]["A"].as_str().unwrap().to_string();
    let b = created["tokens"]["B"].as_str().unwrap().to_string();
    let (s, offered) = call(http.post(format!("{base}/api/play/{a}/draw")).json(&json!({}))).await;
    assert_eq!(s, 200, "{offered}");

    server.0.kill().unwrap(); // SIGKILL on Unix
    server.0.wait().unwrap();
    drop(server);

    let (_server, base) = serve(&dir, 0);
    let (s, page) = call(member(http.get(format!("{base}/api/players/Bea")))).await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(page["vacation"], away, "the ledger as it was acknowledged");
    let (_, seen) = call(http.get(format!("{base}/api/play/{b}/draw"))).await;
    assert_eq!(seen["pending"], offered["pending"], "{seen}");
    let (s, v) = call(http.post(format!("{base}/api/play/{b}/draw/answer")).json(&json!({"accept": true}))).await;
    assert_eq!((s, &v["result"]["reason"]), (200, &json!("draw_agreed")), "{v}");
}
