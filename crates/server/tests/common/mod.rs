//! Shared by the API tests: a server on an ephemeral loopback port with a fresh data directory, and a client.
#![allow(dead_code)]

use pacw_server::{RunningServer, Server, ServerConfig};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

/// A fresh data directory, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).unwrap();
        let suffix: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        TempDir(std::env::temp_dir().join(format!("pacw-api-{name}-{suffix}")))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The tests' server settings: any free loopback port, `dir` for data, no pause between the computer's decisions.
pub fn config(dir: &Path) -> ServerConfig {
    ServerConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.to_path_buf(),
        computer_delay: Duration::ZERO,
        list_games: true,
        // The tests make many games from one address; the allowance itself is tested on its own.
        games_per_hour: 1_000_000,
        ..ServerConfig::default()
    }
}

pub async fn start(dir: &Path) -> RunningServer {
    Server::bind(config(dir)).await.expect("the server starts").spawn()
}

pub struct Api {
    pub base: String,
    pub http: reqwest::Client,
}

impl Api {
    pub fn new(server: &RunningServer) -> Api {
        Api { base: server.base(), http: reqwest::Client::new() }
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let r = self.http.get(format!("{}{path}", self.base)).send().await.unwrap();
        let status = r.status();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let r = self.http.post(format!("{}{path}", self.base)).json(&body).send().await.unwrap();
        let status = r.status();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// Posts a body as JSON, whatever it holds (for malformed bodies).
    pub async fn post_raw(&self, path: &str, body: impl Into<reqwest::Body>) -> (StatusCode, Value) {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = r.status();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    pub async fn create(&self, body: Value) -> Value {
        let (s, v) = self.post("/api/games", body).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        v
    }

    pub async fn view(&self, token: &str) -> Value {
        let (s, v) = self.get(&format!("/api/play/{token}")).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        v
    }

    pub async fn act(&self, token: &str, body: Value) -> (StatusCode, Value) {
        self.post(&format!("/api/play/{token}/actions"), body).await
    }

    /// Waits until the token may act or the game is over.
    pub async fn wait_turn(&self, token: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.view(token).await;
            if v["your_turn"] == true || !v["result"].is_null() {
                return v;
            }
            assert!(Instant::now() < deadline, "the computer did not move: {}", v["to_act"]);
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

pub fn token(created: &Value, role: &str) -> String {
    created["tokens"][role].as_str().unwrap_or_else(|| panic!("no {role} token in {}", created["tokens"])).to_string()
}

/// The index of the first legal action whose JSON matches `pred`.
pub fn find(view: &Value, pred: impl Fn(&Value) -> bool) -> Option<u64> {
    view["legal_actions"].as_array().unwrap().iter().find(|a| pred(&a["action"])).map(|a| a["index"].as_u64().unwrap())
}

pub fn is_activate(a: &Value) -> bool {
    a.get("activate").is_some()
}

/// A webhook that answers 500 to its first request if `fail_first`, and 200 to the others, keeping every body.
pub async fn webhook_sink(fail_first: bool) -> (String, Arc<Mutex<Vec<Value>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://127.0.0.1:{}/hook/secret", listener.local_addr().unwrap().port());
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let kept = bodies.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { return };
            let kept = kept.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                // Headers, then as many bytes as Content-Length says.
                let body = loop {
                    let n = socket.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    let text = String::from_utf8_lossy(&buf).to_string();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let length = text[..end]
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap())
                            })
                            .unwrap_or(0);
                        if buf.len() >= end + 4 + length {
                            break String::from_utf8_lossy(&buf[end + 4..end + 4 + length]).to_string();
                        }
                    }
                };
                let first = {
                    let mut k = kept.lock().unwrap();
                    k.push(serde_json::from_str(&body).unwrap());
                    k.len() == 1
                };
                let status = if first && fail_first { "500 Internal Server Error" } else { "200 OK" };
                let _ = socket
                    .write_all(
                        format!("HTTP/1.1 {status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n").as_bytes(),
                    )
                    .await;
            });
        }
    });
    (url, bodies)
}

pub async fn until<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A minimal SMTP server that keeps every message's data.
pub async fn smtp_sink() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mails = Arc::new(Mutex::new(Vec::new()));
    let kept = mails.clone();
    tokio::spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else { return };
            let kept = kept.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = tokio::io::BufReader::new(read).lines();
                write.write_all(b"220 sink ESMTP\r\n").await.unwrap();
                while let Ok(Some(line)) = lines.next_line().await {
                    let verb = line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
                    let reply: &[u8] = match verb.as_str() {
                        "EHLO" | "HELO" => b"250 sink\r\n",
                        "DATA" => {
                            write.write_all(b"354 go on\r\n").await.unwrap();
                            let mut data = String::new();
                            while let Ok(Some(l)) = lines.next_line().await {
                                if l == "." {
                                    break;
                                }
                                data.push_str(&l);
                                data.push('\n');
                            }
                            kept.lock().unwrap().push(data);
                            b"250 kept\r\n"
                        }
                        "QUIT" => {
                            let _ = write.write_all(b"221 bye\r\n").await;
                            return;
                        }
                        _ => b"250 ok\r\n",
                    };
                    write.write_all(reply).await.unwrap();
                }
            });
        }
    });
    (port, mails)
}

/// A logged-in person: their cookie and the page's anti-forgery token.
pub struct Member {
    /// The session cookie, as a request sends it.
    pub cookie: String,
    /// The anti-forgery token.
    pub csrf: String,
}

/// Signs `name` up (with a webhook for notices if given) and returns the logged-in member.
pub async fn sign_up(api: &Api, name: &str, webhook: Option<&str>) -> Member {
    let r = api
        .http
        .post(format!("{}/api/account/signup", api.base))
        .json(&json!({"name": name, "password": "a long password", "webhook": webhook}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let csrf = r.json::<Value>().await.unwrap()["csrf"].as_str().unwrap().to_string();
    Member { cookie, csrf }
}

/// Sends `body` to `path` as the member, answering the status and the JSON (null if none).
pub async fn as_member(api: &Api, m: &Member, method: reqwest::Method, path: &str, body: Value) -> (StatusCode, Value) {
    let r = api
        .http
        .request(method, format!("{}{path}", api.base))
        .header("cookie", &m.cookie)
        .header("x-pacw-csrf", &m.csrf)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = r.status();
    (status, r.json().await.unwrap_or(Value::Null))
}
