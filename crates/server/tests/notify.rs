//! A player of a two-player game told that it has become their move: by e-mail through the operator's SMTP server
//! and by a webhook, once a move, a failed message tried again without holding the game up. The SMTP server and
//! the webhook are sinks this test starts on 127.0.0.1.

mod common;

use common::*;
use pacw_server::{Server, ServerConfig};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::sync::Mutex;
use std::time::Duration;

/// Ends `token`'s activations (or holds with a unit) until the move passes to the other side; returns the view.
async fn pass_the_move(api: &Api, token: &str) -> Value {
    loop {
        let v = api.view(token).await;
        if v["your_turn"] != true {
            return v;
        }
        let index = find(&v, |a| a == "end_activations")
            .or_else(|| find(&v, |a| a == "hold"))
            .or_else(|| find(&v, is_activate));
        let (s, reply) =
            api.act(token, json!({ "index": index.expect("an action"), "decisions": v["decisions"] })).await;
        assert_eq!(s, StatusCode::OK, "{reply}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_is_told_once_a_move_by_e_mail_and_webhook_and_a_failed_webhook_is_tried_again() {
    let (smtp_port, mails) = smtp_sink().await;
    let (hook, bodies) = webhook_sink(true).await;
    let dir = TempDir::new("notify");
    let config = ServerConfig {
        smtp: Some(format!("smtp://127.0.0.1:{smtp_port}")),
        smtp_from: "pacw <pacw@example.org>".into(),
        public_origin: Some("https://pacw.example.org".into()),
        ..config(&dir.0)
    };
    let server = Server::bind(config).await.unwrap().spawn();
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let (a, b) = (token(&created, "A"), token(&created, "B"));
    let put = |token: &str, body: Value| {
        let (http, url) = (api.http.clone(), format!("{}/api/play/{token}/notify", api.base));
        async move {
            let r = http.put(url).json(&body).send().await.unwrap();
            let status = r.status();
            (status, r.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    // Bad addresses are refused with what is expected; a spectator is not a player.
    let (s, v) = put(&b, json!({"email": "not an address"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, _) = put(&token(&created, "spectator"), json!({"webhook": hook})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, v) = put(&b, json!({"email": "bea@example.org", "webhook": hook})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["email"], "bea@example.org");
    assert_eq!(v["email_possible"], true);
    assert_eq!(api.get(&format!("/api/play/{b}/notify")).await.1["webhook"], hook.as_str());

    // If B has the first move, B was told so on giving where to be told (the first move is told as every other):
    // hand it to A. Then twice A passes the move to B (told each time) and B passes it back (A asked to be told
    // nothing).
    let mut expected = 0;
    if api.view(&b).await["your_turn"] == true {
        expected += 1;
        pass_the_move(&api, &b).await;
    }
    for _ in 0..2 {
        pass_the_move(&api, &a).await;
        expected += 1;
        pass_the_move(&api, &b).await;
    }
    // One e-mail a move, with the game's link on the public origin.
    until("the e-mails come", || (mails.lock().unwrap().len() >= expected).then_some(())).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mails = mails.lock().unwrap().clone();
    assert_eq!(mails.len(), expected, "{mails:?}");
    assert!(mails[0].contains("Subject: pacw: your move in Meeting Engagement"), "{}", mails[0]);
    let body = mails[0].replace("=\n", ""); // quoted-printable's soft line breaks
    assert!(body.contains(&format!("https://pacw.example.org/game/{b}")), "{body}");
    // The webhook failed once (500) and was tried again a second later: one more body than moves, the first twice.
    until("the webhook is tried again", || (bodies.lock().unwrap().len() > expected).then_some(())).await;
    let bodies = bodies.lock().unwrap().clone();
    assert_eq!(bodies.len(), expected + 1, "{bodies:?}");
    assert!(bodies.iter().filter(|x| **x == bodies[0]).count() >= 2, "the failed message again: {bodies:?}");
    assert!(bodies[0]["content"].as_str().unwrap().contains("It is your move (Confederate)"), "{}", bodies[0]);
    assert_eq!(bodies[0]["content"], bodies[0]["text"], "for Discord and for Slack");
    // Cleared: no more messages.
    let (s, v) = put(&b, json!({"email": "", "webhook": null})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["email"].is_null() && v["webhook"].is_null());
    server.stop().await;
}

#[tokio::test]
async fn without_an_smtp_server_e_mail_is_refused_and_a_webhook_offered() {
    let dir = TempDir::new("notify-no-smtp");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let b = token(&created, "B");
    let (s, v) = api.get(&format!("/api/play/{b}/notify")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["email_possible"], false);
    let r = api
        .http
        .put(format!("{}/api/play/{b}/notify", api.base))
        .json(&json!({"email": "bea@example.org"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.text().await.unwrap().contains("--smtp"));
    // Not a two-player game: nobody is told.
    let hot = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let (s, _) = api.get(&format!("/api/play/{}/notify", token(&hot, "hotseat"))).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    server.stop().await;
}

/// How many of the webhook's messages carry `token`'s link.
fn told(bodies: &Mutex<Vec<Value>>, token: &str) -> usize {
    bodies.lock().unwrap().iter().filter(|b| b["link"].as_str().is_some_and(|l| l.ends_with(token))).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_move_is_told_once_and_a_player_with_the_game_open_is_not_told() {
    let (hook, bodies) = webhook_sink(false).await;
    let dir = TempDir::new("notify-first");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let (a, b) = (token(&created, "A"), token(&created, "B"));
    let (first, second) = if api.view(&a).await["your_turn"] == true { (a, b) } else { (b, a) };
    let put = |token: &str| {
        let (http, url) = (api.http.clone(), format!("{}/api/play/{token}/notify", api.base));
        let body = json!({ "webhook": hook });
        async move {
            let r = http.put(url).json(&body).send().await.unwrap();
            assert_eq!(r.status(), StatusCode::OK);
        }
    };
    // The first move became the first player's at creation, before they could say where to be told: they are told
    // as soon as they do, and only once.
    put(&first).await;
    until("the first move is told", || (told(&bodies, &first) == 1).then_some(())).await;
    put(&first).await;
    put(&second).await; // not their move: nothing
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!((told(&bodies, &first), told(&bodies, &second)), (1, 0));

    // The second player has the game open (a live stream through their link): the move passing to them is seen
    // there, not sent.
    let mut live = api.http.get(format!("{}/api/play/{second}/events", api.base)).send().await.unwrap();
    assert_eq!(live.status(), StatusCode::OK);
    let hello = live.chunk().await.unwrap().expect("the hello event");
    assert!(String::from_utf8_lossy(&hello).contains("hello"));
    pass_the_move(&api, &first).await;
    // The first player has no page open: the move coming back to them is told.
    pass_the_move(&api, &second).await;
    until("the move back is told", || (told(&bodies, &first) == 2).then_some(())).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(told(&bodies, &second), 0, "{:?}", bodies.lock().unwrap());
    drop(live);
    server.stop().await;
}

/// Signs up `name`, told of their moves by `hook`: their cookie and the page's anti-forgery token.
async fn sign_up(api: &Api, name: &str, hook: &str) -> (String, String) {
    let r = api
        .http
        .post(format!("{}/api/account/signup", api.base))
        .json(&json!({"name": name, "password": "a long password", "webhook": hook}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let csrf = r.json::<Value>().await.unwrap()["csrf"].as_str().unwrap().to_string();
    (cookie, csrf)
}

/// `member` posts `body` to `path`: the reply.
async fn post_as(api: &Api, member: &(String, String), path: &str, body: Value) -> Value {
    let r = api
        .http
        .post(format!("{}{path}", api.base))
        .header("cookie", &member.0)
        .header("x-pacw-csrf", &member.1)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    r.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joining_a_posting_tells_the_player_of_the_first_move_by_their_account_s_notices() {
    let (hook, bodies) = webhook_sink(false).await;
    let dir = TempDir::new("notify-room");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let bea = sign_up(&api, "Bea", &hook).await;
    let cy = sign_up(&api, "Cy", &hook).await;
    // The side is drawn on joining, so either the poster or the joiner has the first move.
    let posted = post_as(&api, &bea, "/api/room", json!({"scenario": "meeting-engagement", "pace": "3d"})).await;
    let id = posted["id"].as_str().unwrap();
    let joined = post_as(&api, &cy, &format!("/api/room/{id}/join"), json!({})).await;
    let cy_token = joined["link"].as_str().unwrap().trim_start_matches("/game/").to_string();
    let (entry, _) = server.games().by_token(&cy_token).unwrap();
    let bea_token = [&entry.tokens.a, &entry.tokens.b].into_iter().flatten().find(|t| **t != cy_token).unwrap().clone();
    let bea_waits = api.view(&bea_token).await["your_turn"] != true;
    let (first, second) = if bea_waits { (cy_token, bea_token) } else { (bea_token, cy_token) };
    // Each seat took its account's webhook when the game was made: the first move, owed since then, is told once;
    // Bea, who was waiting, is told who plays her when the first move is Cy's (at her own, its notice says it).
    until("the first move is told", || (told(&bodies, &first) == 1).then_some(())).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        (told(&bodies, &first), told(&bodies, &second)),
        (1, usize::from(bea_waits)),
        "{:?}",
        bodies.lock().unwrap()
    );
    if bea_waits {
        assert!(
            texts(&bodies, &second)[0].starts_with("Cy plays you in Meeting Engagement"),
            "{:?}",
            texts(&bodies, &second)
        );
    }
    // The move passing on is told as before, to the other.
    pass_the_move(&api, &first).await;
    until("the second move is told", || (told(&bodies, &second) == 1 + usize::from(bea_waits)).then_some(())).await;
    assert_eq!(told(&bodies, &first), 1);
    server.stop().await;
}

/// The texts of the notices sent with `token`'s link, in order.
fn texts(bodies: &Mutex<Vec<Value>>, token: &str) -> Vec<String> {
    let bodies = bodies.lock().unwrap();
    let mine = bodies.iter().filter(|b| b["link"].as_str().is_some_and(|l| l.ends_with(token)));
    mine.map(|b| b["text"].as_str().unwrap_or_default().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_paired_by_the_match_maker_is_told_of_its_game_by_its_account_s_notices() {
    let (hook, bodies) = webhook_sink(false).await;
    let dir = TempDir::new("notify-paired");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let bea = sign_up(&api, "Bea", &hook).await;
    let cy = sign_up(&api, "Cy", &hook).await;
    let seek = |who| {
        let (http, url) = (api.http.clone(), format!("{}/api/room/seek", api.base));
        let (cookie, csrf): &(String, String) = who;
        http.post(url)
            .header("cookie", cookie)
            .header("x-pacw-csrf", csrf)
            .json(&json!({"size": "small", "pace": "3d"}))
    };
    // Bea waits, and has gone away when Cy's request pairs them; the side each plays is drawn, so pair them until
    // Bea has been seen both at her move and at Cy's.
    let mut seen = [false, false];
    for _ in 0..40 {
        if seen == [true, true] {
            break;
        }
        assert_eq!(seek(&bea).send().await.unwrap().status(), StatusCode::ACCEPTED);
        let paired = seek(&cy).send().await.unwrap();
        assert_eq!(paired.status(), StatusCode::CREATED);
        let link = paired.json::<Value>().await.unwrap()["link"].as_str().unwrap().to_string();
        let cy_token = link.trim_start_matches("/game/").to_string();
        let (entry, _) = server.games().by_token(&cy_token).unwrap();
        let bea_token =
            [&entry.tokens.a, &entry.tokens.b].into_iter().flatten().find(|t| **t != cy_token).unwrap().clone();
        let bea_moves = api.view(&bea_token).await["your_turn"] == true;
        seen[usize::from(bea_moves)] = true;
        // Bea is told once: of her move, or of the game and who plays her; Cy, who has the game in his reply, only
        // of his move.
        until("Bea is told", || (told(&bodies, &bea_token) == 1).then_some(())).await;
        let first = if bea_moves { &bea_token } else { &cy_token };
        until("the first move is told", || (told(&bodies, first) == 1).then_some(())).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (bea_said, cy_said) = (texts(&bodies, &bea_token), texts(&bodies, &cy_token));
        if bea_moves {
            assert!(bea_said[0].starts_with("It is your move"), "{bea_said:?}");
            assert!(cy_said.is_empty(), "{cy_said:?}");
        } else {
            assert!(
                bea_said[0].starts_with("Cy plays you in ") && bea_said[0].contains("it is their move"),
                "{bea_said:?}"
            );
            assert_eq!(cy_said.len(), 1);
            assert!(cy_said[0].starts_with("It is your move"), "{cy_said:?}");
        }
    }
    assert_eq!(seen, [true, true], "forty pairings put Bea on each side of the first move");
    server.stop().await;
}
