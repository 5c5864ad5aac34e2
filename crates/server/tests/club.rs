//! The club: accounts (sign up, log in, log out, the cookie, forgery and fixation refused, brute force limited, a
//! disabled account), claiming a guest's seat, the waiting room (public and private postings, joining) and the
//! ratings (a rated game's ending moves both players', the computer's too; the leaderboard).

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A browser of one person: its session cookie and the page's anti-forgery token.
struct Member {
    base: String,
    http: reqwest::Client,
    cookie: Option<String>,
    csrf: Option<String>,
}

impl Member {
    fn new(base: &str) -> Member {
        Member { base: base.to_string(), http: reqwest::Client::new(), cookie: None, csrf: None }
    }

    async fn send(&mut self, method: reqwest::Method, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            req = req.header("cookie", format!("pacw_session={c}"));
        }
        if let Some(t) = &self.csrf {
            req = req.header("x-pacw-csrf", t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let r = req.send().await.unwrap();
        let status = r.status();
        if let Some(set) = r.headers().get("set-cookie").and_then(|v| v.to_str().ok()) {
            let value = set.split(';').next().unwrap().trim_start_matches("pacw_session=").to_string();
            self.cookie = (!value.is_empty()).then_some(value);
        }
        let v: Value = r.json().await.unwrap_or(Value::Null);
        if let Some(t) = v["csrf"].as_str() {
            self.csrf = Some(t.to_string());
        }
        (status, v)
    }

    async fn get(&mut self, path: &str) -> (StatusCode, Value) {
        self.send(reqwest::Method::GET, path, None).await
    }

    async fn post(&mut self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send(reqwest::Method::POST, path, Some(body)).await
    }

    async fn sign_up(base: &str, name: &str) -> Member {
        let mut m = Member::new(base);
        let (s, v) = m.post("/api/account/signup", json!({"name": name, "password": "a long password"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(v["name"], name);
        m
    }
}

#[tokio::test]
async fn an_account_signs_up_logs_in_with_a_new_session_and_out_and_a_wrong_name_answers_as_a_wrong_password() {
    let dir = TempDir::new("club-accounts");
    let server = start(&dir.0).await;
    let base = server.base();
    let mut bea = Member::new(&base);
    let r = bea
        .http
        .post(format!("{base}/api/account/signup"))
        .json(&json!({"name": "Bea", "password": "a long password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(!cookie.contains("Secure"), "plain HTTP on loopback: {cookie}");
    // The name is taken, whatever its case; bad names and passwords are refused with their reason.
    let (s, v) = bea.post("/api/account/signup", json!({"name": "bEA", "password": "another password"})).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    for (name, password) in [("<b>", "a long password"), ("B", "a long password"), ("Cy", "short")] {
        let (s, _) = Member::new(&base).post("/api/account/signup", json!({"name": name, "password": password})).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{name} {password}");
    }
    // A planted session id (fixation): the log-in gives a new one, and the planted one is worth nothing.
    let mut planted = Member::new(&base);
    planted.cookie = Some("0123456789abcdef0123456789abcdef".into());
    let (s, v) = planted.post("/api/account/login", json!({"name": "BEA", "password": "a long password"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let session = planted.cookie.clone().unwrap();
    assert_ne!(session, "0123456789abcdef0123456789abcdef");
    let mut old = Member::new(&base);
    old.cookie = Some("0123456789abcdef0123456789abcdef".into());
    assert_eq!(old.get("/api/me").await.1["account"], Value::Null);
    assert_eq!(planted.get("/api/me").await.1["account"]["name"], "Bea");
    // A second log-in of a logged-in browser ends its session and gives another.
    planted.post("/api/account/login", json!({"name": "Bea", "password": "a long password"})).await;
    assert_ne!(planted.cookie.as_deref(), Some(session.as_str()));
    let mut stale = Member::new(&base);
    stale.cookie = Some(session);
    assert_eq!(stale.get("/api/me").await.1["account"], Value::Null);
    // Wrong name and wrong password: the same status and words.
    let (s1, v1) =
        Member::new(&base).post("/api/account/login", json!({"name": "Nobody", "password": "a long password"})).await;
    let (s2, v2) =
        Member::new(&base).post("/api/account/login", json!({"name": "Bea", "password": "a wrong password"})).await;
    assert_eq!((s1, s2), (StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED));
    assert_eq!(v1, v2);
    // Logging out needs the page's token, then ends the session.
    let csrf = planted.csrf.take();
    assert_eq!(planted.post("/api/account/logout", json!({})).await.0, StatusCode::FORBIDDEN);
    planted.csrf = csrf;
    assert_eq!(planted.post("/api/account/logout", json!({})).await.0, StatusCode::OK);
    assert_eq!(planted.cookie, None, "the cookie is cleared");
    server.stop().await;
}

#[tokio::test]
async fn log_in_is_limited_per_name_whoever_tries_and_per_address() {
    let dir = TempDir::new("club-brute");
    let server = start(&dir.0).await;
    let base = server.base();
    Member::sign_up(&base, "Bea").await;
    let mut refused = None;
    for i in 0..40 {
        // Each guess from a fresh client: the limit follows the name, not only the address.
        let (s, v) = Member::new(&base)
            .post("/api/account/login", json!({"name": "bea", "password": format!("guess {i:04}")}))
            .await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            refused = Some((i, v));
            break;
        }
        assert_eq!(s, StatusCode::UNAUTHORIZED);
    }
    let (i, v) = refused.expect("the guesses were limited");
    assert_eq!(i, pacw_server::session::LOGINS_PER_NAME as usize, "{v}");
    // Even the right password waits now: the limit is on trying.
    let (s, _) =
        Member::new(&base).post("/api/account/login", json!({"name": "Bea", "password": "a long password"})).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    // And per address: one address guessing at a new name each time is refused too, the names' limits untouched.
    let mut refused = None;
    for i in 0..=pacw_server::session::LOGINS_PER_ADDRESS {
        let (s, v) =
            Member::new(&base).post("/api/account/login", json!({"name": format!("nobody{i}"), "password": "x"})).await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(v);
            break;
        }
        assert_eq!(s, StatusCode::UNAUTHORIZED);
    }
    let refused = refused.expect("the address is limited");
    assert!(refused["error"].as_str().unwrap().contains("from this address"), "{refused}");
    server.stop().await;
}

#[tokio::test]
async fn every_change_for_an_account_needs_its_token_and_a_page_of_this_site() {
    let dir = TempDir::new("club-csrf");
    let server = start(&dir.0).await;
    let base = server.base();
    let mut bea = Member::sign_up(&base, "Bea").await;
    let posting = json!({"scenario": "meeting-engagement", "side": "A"});
    // Every form of the club: the account's, the waiting room's, the match maker's, the vacations'.
    let forms: [(reqwest::Method, &str, Value); 10] = [
        (reqwest::Method::POST, "/api/room", posting.clone()),
        (reqwest::Method::PUT, "/api/account", json!({"webhook": "https://example.org/hook"})),
        (reqwest::Method::POST, "/api/account/claim", json!({"token": "0".repeat(32)})),
        (reqwest::Method::POST, "/api/account/logout", json!({})),
        (reqwest::Method::POST, &format!("/api/room/{}/join", "0".repeat(32)), json!({})),
        (reqwest::Method::DELETE, &format!("/api/room/{}", "0".repeat(32)), json!({})),
        (reqwest::Method::POST, "/api/room/seek", json!({"size": "small"})),
        (reqwest::Method::DELETE, "/api/room/seek", json!({})),
        (reqwest::Method::POST, "/api/account/vacation", json!({"days": 1})),
        (reqwest::Method::DELETE, "/api/account/vacation", json!({})),
    ];
    let csrf = bea.csrf.clone().unwrap();
    for (method, path, body) in &forms {
        // Without the token: refused, though the cookie is there.
        bea.csrf = None;
        let (s, v) = bea.send(method.clone(), path, Some(body.clone())).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{method} {path}: {v}");
        // With a wrong one: refused.
        bea.csrf = Some("f".repeat(32));
        assert_eq!(bea.send(method.clone(), path, Some(body.clone())).await.0, StatusCode::FORBIDDEN, "{path}");
        bea.csrf = Some(csrf.clone());
        // From another site's page, even with the token (a forged request could not know it; belt and braces).
        for (h, v) in [("origin", "http://evil.example"), ("sec-fetch-site", "cross-site")] {
            let r = bea
                .http
                .request(method.clone(), format!("{base}{path}"))
                .header("cookie", format!("pacw_session={}", bea.cookie.as_ref().unwrap()))
                .header("x-pacw-csrf", &csrf)
                .header(h, v)
                .json(body)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), StatusCode::FORBIDDEN, "{path} {h}");
        }
        // Without a session: 401.
        let (s, _) = Member::new(&base).send(method.clone(), path, Some(body.clone())).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "{path}");
    }
    let (s, v) = bea.post("/api/room", posting).await;
    assert_eq!(s, StatusCode::CREATED, "with the token and the cookie it is made: {v}");
    server.stop().await;
}

#[tokio::test]
async fn a_posted_game_is_joined_rated_and_a_resignation_moves_both_ratings() {
    let dir = TempDir::new("club-room");
    let server = start(&dir.0).await;
    let base = server.base();
    let mut bea = Member::sign_up(&base, "Bea").await;
    let mut cy = Member::sign_up(&base, "Cy").await;
    let (s, posted) = bea
        .post("/api/room", json!({"scenario": "meeting-engagement", "side": "A", "pace": "daily", "rating": "rated"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{posted}");
    let id = posted["id"].as_str().unwrap().to_string();
    assert_eq!(posted["invite"], format!("/room/{id}"));
    let (s, private) =
        bea.post("/api/room", json!({"scenario": "bloody-lane", "side": "random", "visibility": "private"})).await;
    assert_eq!(s, StatusCode::CREATED);
    // The room lists the public posting to others, the private one only to its poster (and by its invitation).
    let listed = |v: &Value| {
        v["postings"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    let others = listed(&Member::new(&base).get("/api/room").await.1);
    assert_eq!(others, vec![id.clone()]);
    assert_eq!(listed(&bea.get("/api/room").await.1).len(), 2);
    let by_invite = cy.get(&format!("/api/room/{}", private["id"].as_str().unwrap())).await.1;
    assert_eq!((by_invite["by"].as_str(), by_invite["visibility"].as_str()), (Some("Bea"), Some("private")));
    // Bad postings are refused with their reason.
    for bad in [
        json!({"scenario": "nope"}),
        json!({"scenario": "meeting-engagement", "options": {"to_hit": 99}}),
        json!({"scenario": "meeting-engagement", "side": "C"}),
    ] {
        let (s, _) = bea.post("/api/room", bad.clone()).await;
        assert!(s.is_client_error(), "{bad}: {s}");
    }
    // One's own posting cannot be joined; someone else's can, once.
    assert_eq!(bea.post(&format!("/api/room/{id}/join"), json!({})).await.0, StatusCode::FORBIDDEN);
    let (s, joined) = cy.post(&format!("/api/room/{id}/join"), json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{joined}");
    assert_eq!(joined["side"], "B");
    let mut dee = Member::sign_up(&base, "Dee").await;
    assert_eq!(dee.post(&format!("/api/room/{id}/join"), json!({})).await.0, StatusCode::CONFLICT);
    // The poster finds their link on the posting.
    let mine = bea.get(&format!("/api/room/{id}")).await.1;
    assert_eq!(mine["joined"], true);
    let bea_link = mine["link"].as_str().expect("the poster's link").to_string();
    assert_eq!(dee.get(&format!("/api/room/{id}")).await.1["link"], Value::Null, "not to others");
    let cy_token = joined["link"].as_str().unwrap().trim_start_matches("/game/").to_string();
    let bea_token = bea_link.trim_start_matches("/game/").to_string();
    // Both play; a rated game takes nothing back; Cy resigns.
    let api = Api::new(&server);
    for t in [&bea_token, &cy_token] {
        let v = api.view(t).await;
        if v["your_turn"] == true {
            let (s, v2) = api.act(t, json!({"index": 0, "decisions": v["decisions"]})).await;
            assert_eq!(s, StatusCode::OK, "{v2}");
        }
    }
    let (s, _) = api.post(&format!("/api/play/{bea_token}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert_eq!(api.get(&format!("/api/play/{bea_token}/takeback")).await.1["allowed"], false);
    assert_eq!(api.post(&format!("/api/play/{bea_token}/takeback"), json!({})).await.0, StatusCode::FORBIDDEN);
    let (s, v) = api.post(&format!("/api/play/{cy_token}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Both ratings moved; the leaderboard has them, the winner first.
    let board = Member::new(&base).get("/api/leaderboard").await.1;
    let rows = board["players"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{board}");
    assert_eq!((rows[0]["name"].as_str(), rows[1]["name"].as_str()), (Some("Bea"), Some("Cy")));
    assert!(rows[0]["rating"].as_i64().unwrap() > 1500 && rows[1]["rating"].as_i64().unwrap() < 1500, "{board}");
    assert_eq!((rows[0]["wins"].as_u64(), rows[1]["losses"].as_u64()), (Some(1), Some(1)));
    // Each player's page: the game and its outcome; their own link only to themselves.
    let page = bea.get("/api/players/bea").await.1;
    assert_eq!(page["rating"]["wins"], 1);
    let game = &page["games"][0];
    assert_eq!((game["outcome"].as_str(), game["opponent"].as_str()), (Some("won"), Some("Cy")));
    assert_eq!(game["link"], bea_link.as_str());
    let seen_by_cy = cy.get("/api/players/Bea").await.1;
    assert_eq!(seen_by_cy["games"][0]["link"], Value::Null);
    assert_eq!(cy.get("/api/players/Cy").await.1["games"][0]["outcome"], "lost");
    assert_eq!(cy.get("/api/players/nobody").await.0, StatusCode::NOT_FOUND);
    // Withdrawing: only one's own open posting.
    let pid = private["id"].as_str().unwrap();
    assert_eq!(cy.send(reqwest::Method::DELETE, &format!("/api/room/{pid}"), None).await.0, StatusCode::NOT_FOUND);
    assert_eq!(bea.send(reqwest::Method::DELETE, &format!("/api/room/{pid}"), None).await.0, StatusCode::NO_CONTENT);
    server.stop().await;
}

#[tokio::test]
async fn a_guest_s_game_is_claimed_and_a_computer_is_rated_from_games_against_people() {
    let dir = TempDir::new("club-claim");
    let server = start(&dir.0).await;
    let base = server.base();
    let api = Api::new(&server);
    // A guest's two-player game, as today: claimed later by logging in.
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let (a, b) = (token(&created, "A"), token(&created, "B"));
    let mut bea = Member::sign_up(&base, "Bea").await;
    let (s, v) = bea.post("/api/account/claim", json!({"token": a})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["side"], "A");
    assert_eq!(bea.post("/api/account/claim", json!({"token": b})).await.0, StatusCode::FORBIDDEN, "not both sides");
    let mut cy = Member::sign_up(&base, "Cy").await;
    assert_eq!(cy.post("/api/account/claim", json!({"token": a})).await.0, StatusCode::CONFLICT);
    assert_eq!(
        cy.post("/api/account/claim", json!({"token": token(&created, "spectator")})).await.0,
        StatusCode::FORBIDDEN
    );
    let page = bea.get("/api/players/Bea").await.1;
    assert_eq!(page["games"][0]["opponent"], "a guest");
    assert_eq!(page["games"][0]["link"], format!("/game/{a}"));
    // The guest links play on as before.
    let first = if api.view(&a).await["your_turn"] == true { &a } else { &b };
    let v = api.view(first).await;
    assert_eq!(api.act(first, json!({"index": 0, "decisions": v["decisions"]})).await.0, StatusCode::OK);
    // A rated game against the computer, made by a logged-in page: the account's seat, and the computer rated.
    let (s, _) =
        api.post("/api/games", json!({"scenario": "meeting-engagement", "mode": "computer", "rating": "rated"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "a guest's game is not rated");
    let (s, made) = bea
        .post(
            "/api/games",
            json!({"scenario": "meeting-engagement", "mode": "computer", "computer": "random", "rating": "rated"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{made}");
    let t = token(&made, "A");
    let (s, v) = api.post(&format!("/api/play/{t}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let board = api.get("/api/leaderboard").await.1;
    let names: Vec<_> =
        board["players"].as_array().unwrap().iter().map(|r| (r["name"].clone(), r["kind"].clone())).collect();
    assert_eq!(names, vec![(json!("random"), json!("computer")), (json!("Bea"), json!("account"))]);
    // One rating over every battle, not one for each size (docs/api.md says why): a rated game of a medium battle
    // (15 units; the first had 12) moves the same two ratings.
    let (s, made) = bea
        .post(
            "/api/games",
            json!({"scenario": "bloody-lane", "mode": "computer", "computer": "random", "rating": "rated"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{made}");
    let (s, v) = api.post(&format!("/api/play/{}/resign", token(&made, "A")), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let board = api.get("/api/leaderboard").await.1;
    let records: Vec<_> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].clone(), r["wins"].clone(), r["losses"].clone()))
        .collect();
    assert_eq!(records, vec![(json!("random"), json!(2), json!(0)), (json!("Bea"), json!(0), json!(2))]);
    server.stop().await;
}

#[tokio::test]
async fn a_disabled_account_cannot_log_in_or_act_and_its_sessions_end() {
    let dir = TempDir::new("club-disabled");
    let server = start(&dir.0).await;
    let base = server.base();
    let api = Api::new(&server);
    let mut bea = Member::sign_up(&base, "Bea").await;
    let (_, made) = bea
        .post("/api/games", json!({"scenario": "meeting-engagement", "mode": "computer", "computer": "random"}))
        .await;
    let t = token(&made, "A");
    let store = server.games().store();
    let id = store.account_named("bea").unwrap().unwrap().id;
    store.set_disabled(id, true).unwrap();
    assert_eq!(bea.get("/api/me").await.1["account"], Value::Null, "the session ended");
    let (s, _) =
        Member::new(&base).post("/api/account/login", json!({"name": "Bea", "password": "a long password"})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let v = api.wait_turn(&t).await;
    let (s, v) = api.act(&t, json!({"index": 0, "decisions": v["decisions"]})).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
    assert!(v["error"].as_str().unwrap().contains("disabled"), "{v}");
    assert_eq!(api.post(&format!("/api/play/{t}/resign"), json!({})).await.0, StatusCode::FORBIDDEN);
    store.set_disabled(id, false).unwrap();
    let v = api.view(&t).await;
    assert_eq!(api.act(&t, json!({"index": 0, "decisions": v["decisions"]})).await.0, StatusCode::OK, "enabled again");
    server.stop().await;
}

#[tokio::test]
async fn the_session_cookie_is_secure_behind_https_and_only_a_trusted_proxy_is_believed() {
    let dir = TempDir::new("club-secure");
    let signup_cookie = |base: String, name: &'static str, proto: Option<&'static str>| async move {
        let mut req = reqwest::Client::new()
            .post(format!("{base}/api/account/signup"))
            .json(&json!({"name": name, "password": "a long password"}));
        if let Some(p) = proto {
            req = req.header("x-forwarded-proto", p);
        }
        let r = req.send().await.unwrap();
        assert_eq!(r.status(), StatusCode::CREATED);
        r.headers()["set-cookie"].to_str().unwrap().to_string()
    };
    // Behind a proxy that says https, named as trusted: Secure. Anyone else saying so is not believed.
    let trusted = pacw_server::ServerConfig { trusted_proxies: vec!["127.0.0.1".parse().unwrap()], ..config(&dir.0) };
    let server = pacw_server::Server::bind(trusted).await.unwrap().spawn();
    assert!(signup_cookie(server.base(), "Bea", Some("https")).await.ends_with("; Secure"));
    assert!(!signup_cookie(server.base(), "Cy", Some("http")).await.contains("Secure"));
    server.stop().await;
    let server = start(&dir.0).await;
    assert!(!signup_cookie(server.base(), "Dee", Some("https")).await.contains("Secure"), "an untrusted peer's header");
    server.stop().await;
    // A public origin of https: Secure.
    let public = pacw_server::ServerConfig { public_origin: Some("https://pacw.example.org".into()), ..config(&dir.0) };
    let server = pacw_server::Server::bind(public).await.unwrap().spawn();
    assert!(signup_cookie(server.base(), "Eve", None).await.ends_with("; Secure"));
    server.stop().await;
}

/// Asks for a new game `body` as `member` (a guest without one), forwarded by a proxy for `address`: the status.
async fn create_forwarded(base: &str, member: Option<&Member>, address: &str, body: &Value) -> StatusCode {
    let mut req =
        reqwest::Client::new().post(format!("{base}/api/games")).header("x-forwarded-for", address).json(body);
    if let Some(m) = member {
        req = req
            .header("cookie", format!("pacw_session={}", m.cookie.as_deref().unwrap()))
            .header("x-pacw-csrf", m.csrf.as_deref().unwrap());
    }
    req.send().await.unwrap().status()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_one_address_each_logged_in_player_has_the_per_client_limits_to_themselves() {
    let dir = TempDir::new("club-limits");
    // 6 games an hour: 10 at once for each client. Every request comes through the trusted proxy for one address,
    // as from a club's or a home's NAT.
    let config = pacw_server::ServerConfig {
        games_per_hour: 6,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..config(&dir.0)
    };
    let server = pacw_server::Server::bind(config).await.unwrap().spawn();
    let base = server.base();
    let (bea, cy) = (Member::sign_up(&base, "Bea").await, Member::sign_up(&base, "Cy").await);
    let nat = "203.0.113.5";
    // Games the computer plays against itself: Bea may watch four at once; Cy and a guest behind her address each
    // still have theirs.
    let grand = include_str!("../../../scenarios/antietam.toml");
    let watch = json!({"scenario_text": grand, "mode": "watch", "computer": "random"});
    for _ in 0..pacw_server::session::WATCH_GAMES_PER_CLIENT {
        assert_eq!(create_forwarded(&base, Some(&bea), nat, &watch).await, StatusCode::CREATED);
    }
    assert_eq!(create_forwarded(&base, Some(&bea), nat, &watch).await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(create_forwarded(&base, Some(&cy), nat, &watch).await, StatusCode::CREATED);
    assert_eq!(create_forwarded(&base, None, nat, &watch).await, StatusCode::CREATED);
    // New games: each account's allowance is its own (Bea's four watch games count in hers), and the address's is
    // the guests'.
    let hotseat = json!({"scenario": "meeting-engagement", "mode": "hotseat"});
    let mut made = [0, 0, 0];
    for (i, who) in [Some(&bea), Some(&cy), None].into_iter().enumerate() {
        while create_forwarded(&base, who, nat, &hotseat).await == StatusCode::CREATED {
            made[i] += 1;
            assert!(made[i] <= 10, "more than the allowance");
        }
    }
    assert_eq!(made, [10 - pacw_server::session::WATCH_GAMES_PER_CLIENT, 9, 9]);
    // A guest behind another address has an allowance of their own, as before.
    assert_eq!(create_forwarded(&base, None, "203.0.113.6", &hotseat).await, StatusCode::CREATED);
    server.stop().await;
}
