//! A forgotten password reset by e-mail (issue 42): the link goes to the account's address through an SMTP sink
//! this test starts on 127.0.0.1; it works once, only the newest one works, and not after an hour (the test clock);
//! the answer to asking is the same for a name or address nobody has; asking is limited per address and per account;
//! a new password ends every session. A server that sends no e-mail says who resets passwords instead.

mod common;

use common::*;
use pacw_server::{Server, ServerConfig};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::sync::Mutex;
use std::time::Duration;

/// A message's text (its body is quoted-printable: soft line breaks, `=` as `=3D`).
fn decoded(mail: &str) -> String {
    mail.replace("=\n", "").replace("=3D", "=")
}

/// The reset tokens of the messages, in order.
fn tokens_sent(mails: &Mutex<Vec<String>>) -> Vec<String> {
    mails
        .lock()
        .unwrap()
        .iter()
        .map(|m| {
            let body = decoded(m);
            assert!(body.contains("Subject: pacw: choose a new password"), "{body}");
            let at = body.find("/account#reset=").expect("the link") + "/account#reset=".len();
            body[at..at + 32].to_string()
        })
        .collect()
}

async fn sign_up(api: &Api, name: &str, email: Option<&str>) -> String {
    let r = api
        .http
        .post(format!("{}/api/account/signup", api.base))
        .json(&json!({"name": name, "password": "the old password", "email": email}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string()
}

async fn me(api: &Api, cookie: &str) -> Value {
    let r = api.http.get(format!("{}/api/me", api.base)).header("cookie", cookie).send().await.unwrap();
    r.json::<Value>().await.unwrap()["account"].clone()
}

async fn forgot(api: &Api, who: &str) -> (StatusCode, Value) {
    api.post("/api/account/forgot", json!({ "who": who })).await
}

async fn reset(api: &Api, token: &str, password: &str) -> (StatusCode, Value) {
    api.post("/api/account/reset", json!({ "token": token, "password": password })).await
}

async fn log_in(api: &Api, password: &str) -> StatusCode {
    api.post("/api/account/login", json!({"name": "Bea", "password": password})).await.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reset_link_is_sent_to_the_account_s_address_works_once_and_lapses_and_asking_tells_nobody_anything() {
    let (smtp_port, mails) = smtp_sink().await;
    let dir = TempDir::new("reset");
    let config =
        ServerConfig { smtp: Some(format!("smtp://127.0.0.1:{smtp_port}")), test_clock: true, ..config(&dir.0) };
    let server = Server::bind(config).await.unwrap().spawn();
    let api = Api::new(&server);
    let session = sign_up(&api, "Bea", Some("bea@example.org")).await;
    sign_up(&api, "Cy", None).await;

    // The same answer for an account with an address, one without, and nobody; by name (any case) or by address.
    let (s, answer) = forgot(&api, "bea").await;
    assert_eq!(s, StatusCode::ACCEPTED, "{answer}");
    assert!(answer["text"].as_str().unwrap().contains("works once, for 60 minutes"), "{answer}");
    // (The messages go in the background: each is awaited before the next is asked for, to know which is newer.)
    until("the first message", || (mails.lock().unwrap().len() == 1).then_some(())).await;
    for who in ["Cy", "Nobody", "nobody@example.org", "BEA@Example.org"] {
        assert_eq!(forgot(&api, who).await, (StatusCode::ACCEPTED, answer.clone()), "{who}");
    }
    // Blank or too long: refused as such.
    assert_eq!(forgot(&api, "  ").await.0, StatusCode::BAD_REQUEST);
    assert_eq!(forgot(&api, &"x".repeat(300)).await.0, StatusCode::BAD_REQUEST);
    // Bea was written to twice (by name, then by address); nobody else was.
    until("the two messages", || (mails.lock().unwrap().len() >= 2).then_some(())).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sent = tokens_sent(&mails);
    assert_eq!(sent.len(), 2, "{:?}", mails.lock().unwrap());
    assert!(mails.lock().unwrap().iter().all(|m| m.contains("bea@example.org")));
    assert!(
        decoded(&mails.lock().unwrap()[0])
            .contains(&format!("http://127.0.0.1:{}/account#reset=", server.addr().port()))
    );

    // The token is kept hashed: the database holds no working link.
    let db = std::fs::read(dir.0.join("pacw.sqlite3")).unwrap();
    let db = String::from_utf8_lossy(&db);
    assert!(!db.contains(&sent[1]), "the token itself is not stored");

    // Only the newest link works; a bad password is refused without using it up; then it works, once.
    let (s, v) = reset(&api, &sent[0], "a new password").await;
    assert_eq!(s, StatusCode::FORBIDDEN, "the older link: {v}");
    assert!(v["error"].as_str().unwrap().contains("ask for another"), "{v}");
    assert_eq!(reset(&api, &sent[1], "short").await.0, StatusCode::BAD_REQUEST);
    assert_eq!(reset(&api, "not a token", "a new password").await.0, StatusCode::FORBIDDEN);
    let (s, v) = reset(&api, &sent[1], "a new password").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["name"], "Bea");
    assert_eq!(reset(&api, &sent[1], "another new password").await.0, StatusCode::FORBIDDEN, "used up");
    // Every session of before has ended, the old password is worth nothing, the new one logs in.
    assert_eq!(me(&api, &session).await, Value::Null);
    assert_eq!(log_in(&api, "the old password").await, StatusCode::UNAUTHORIZED);
    assert_eq!(log_in(&api, "a new password").await, StatusCode::OK);

    // A link lapses after an hour.
    assert_eq!(forgot(&api, "Bea").await.0, StatusCode::ACCEPTED);
    until("the third message", || (mails.lock().unwrap().len() >= 3).then_some(())).await;
    let lapsing = tokens_sent(&mails)[2].clone();
    assert_eq!(api.post("/api/test/clock", json!({"hours": 1})).await.0, StatusCode::OK);
    assert_eq!(reset(&api, &lapsing, "a newer password").await.0, StatusCode::FORBIDDEN);
    assert_eq!(log_in(&api, "a new password").await, StatusCode::OK);

    // Three messages an account at once: a fourth request is answered alike, and nothing is sent.
    assert_eq!(forgot(&api, "Bea").await, (StatusCode::ACCEPTED, answer.clone()));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(mails.lock().unwrap().len(), 3);
    // An address asking again and again is refused (with the log-in attempts it has used).
    let mut refused = None;
    for _ in 0..=pacw_server::session::LOGINS_PER_ADDRESS {
        let (s, v) = forgot(&api, "Nobody").await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(v);
            break;
        }
    }
    let refused = refused.expect("the address is limited");
    assert!(refused["error"].as_str().unwrap().contains("from this address"), "{refused}");
    server.stop().await;
}

#[tokio::test]
async fn a_server_without_e_mail_says_that_its_operator_resets_passwords() {
    let dir = TempDir::new("reset-no-smtp");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (s, v) = forgot(&api, "Bea").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(v["error"].as_str().unwrap().contains("pacw users reset-password"), "{v}");
    server.stop().await;
}
