//! The match maker (issue 42, item 2: "a match maker may pair equal requests"): an account asks for any opponent
//! (a battle's size, a pace, rated or not) and is paired with the oldest fitting request of another account, the game
//! made at once of a battle of that size; a request that fits none (or only a disabled account's) waits, is kept
//! across a restart, and can be withdrawn; one at a time an account.

mod common;

use common::*;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// A logged-in person: their cookie and the page's anti-forgery token.
struct Member {
    cookie: String,
    csrf: String,
}

async fn sign_up(api: &Api, name: &str) -> Member {
    let r = api
        .http
        .post(format!("{}/api/account/signup", api.base))
        .json(&json!({"name": name, "password": "a long password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let csrf = r.json::<Value>().await.unwrap()["csrf"].as_str().unwrap().to_string();
    Member { cookie, csrf }
}

async fn send(api: &Api, m: &Member, method: Method, body: Value) -> (StatusCode, Value) {
    let r = api
        .http
        .request(method, format!("{}/api/room/seek", api.base))
        .header("cookie", &m.cookie)
        .header("x-pacw-csrf", &m.csrf)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = r.status();
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_request_for_any_opponent_is_paired_with_a_fitting_one_and_else_waits() {
    let dir = TempDir::new("matcher");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (bea, cy, dee) = (sign_up(&api, "Bea").await, sign_up(&api, "Cy").await, sign_up(&api, "Dee").await);
    let small = json!({"size": "small", "pace": "3d", "rating": "rated"});

    // Nobody else is looking: Bea waits, once.
    let (s, v) = send(&api, &bea, Method::POST, small.clone()).await;
    assert_eq!(
        (s, v["state"].as_str(), v["others_waiting"].as_u64()),
        (StatusCode::ACCEPTED, Some("waiting"), Some(0))
    );
    let (s, v) = send(&api, &bea, Method::POST, small.clone()).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(v["error"].as_str().unwrap().contains("already"), "{v}");
    // Cy asks for another size, then another pace: neither fits Bea's.
    let (s, v) = send(&api, &cy, Method::POST, json!({"size": "medium", "pace": "3d", "rating": "rated"})).await;
    assert_eq!(
        (s, v["state"].as_str(), v["others_waiting"].as_u64()),
        (StatusCode::ACCEPTED, Some("waiting"), Some(1))
    );
    assert_eq!(send(&api, &cy, Method::DELETE, Value::Null).await.0, StatusCode::NO_CONTENT);
    assert_eq!(send(&api, &cy, Method::DELETE, Value::Null).await.0, StatusCode::NOT_FOUND, "nothing left to withdraw");
    assert_eq!(send(&api, &cy, Method::GET, Value::Null).await.1["state"], "none");
    let (s, _) = send(&api, &cy, Method::POST, json!({"size": "small", "pace": "1d", "rating": "rated"})).await;
    assert_eq!(s, StatusCode::ACCEPTED);
    server.stop().await;

    // Kept across a restart: Dee, asking for any size at Bea's pace and rating, is paired with her at once.
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    assert_eq!(send(&api, &bea, Method::GET, Value::Null).await.1["state"], "waiting");
    let (s, v) = send(&api, &dee, Method::POST, json!({"size": "any", "pace": "3d", "rating": "rated"})).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::CREATED, Some("paired")), "{v}");
    let dee_token = v["link"].as_str().unwrap().trim_start_matches("/game/").to_string();
    let (_, v) = send(&api, &bea, Method::GET, Value::Null).await;
    assert_eq!(v["state"], "paired", "{v}");
    let bea_token = v["link"].as_str().unwrap().trim_start_matches("/game/").to_string();
    assert_ne!(bea_token, dee_token);
    // A two-player game of a small battle, at the pace and rating asked, each seat its account's.
    let summary = api.get(&format!("/api/play/{dee_token}/summary")).await.1;
    assert_eq!((summary["mode"].as_str(), summary["pace"].as_str()), (Some("two_players"), Some("3d")), "{summary}");
    let battle = summary["scenario"].as_str().unwrap();
    assert!(
        ["meeting-engagement", "brawners-farm", "little-round-top", "mcpherson-ridge"].contains(&battle),
        "{battle}"
    );
    let sides = [api.view(&bea_token).await["you_play"][0].clone(), api.view(&dee_token).await["you_play"][0].clone()];
    assert_ne!(sides[0], sides[1]);
    for name in ["Bea", "Dee"] {
        let page = api.get(&format!("/api/players/{name}")).await.1;
        assert_eq!(
            (page["games"][0]["opponent"].as_str(), page["games"][0]["rating"].as_str()),
            (Some(if name == "Bea" { "Dee" } else { "Bea" }), Some("rated"))
        );
    }
    // Cy still waits (another pace); Bea may look again.
    assert_eq!(send(&api, &cy, Method::GET, Value::Null).await.1["state"], "waiting");
    assert_eq!(send(&api, &bea, Method::POST, small.clone()).await.0, StatusCode::ACCEPTED);
    // An account disabled by the operator is paired with nobody: Eve, asking as Bea did, waits;
    let store = server.games().store();
    store.set_disabled(store.account_named("Bea").unwrap().unwrap().id, true).unwrap();
    let eve = sign_up(&api, "Eve").await;
    let (s, v) = send(&api, &eve, Method::POST, small.clone()).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::ACCEPTED, Some("waiting")), "{v}");
    // And the next one asking so is paired with Eve, past Bea's older request.
    let flo = sign_up(&api, "Flo").await;
    let (s, v) = send(&api, &flo, Method::POST, small).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::CREATED, Some("paired")), "{v}");
    assert_eq!(send(&api, &eve, Method::GET, Value::Null).await.1["state"], "paired");

    // A guest, a page without its token and a bad request are refused.
    assert_eq!(api.post("/api/room/seek", json!({})).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(api.get("/api/room/seek").await.0, StatusCode::UNAUTHORIZED);
    let r = api.http.post(format!("{}/api/room/seek", api.base)).header("cookie", &dee.cookie).json(&json!({})).send();
    assert_eq!(r.await.unwrap().status(), StatusCode::FORBIDDEN);
    for bad in
        [json!({"size": "huge"}), json!({"pace": "2d"}), json!({"rating": "x"}), json!({"size": "small", "x": 1})]
    {
        assert_eq!(send(&api, &dee, Method::POST, bad.clone()).await.0, StatusCode::BAD_REQUEST, "{bad}");
    }
    server.stop().await;
}
