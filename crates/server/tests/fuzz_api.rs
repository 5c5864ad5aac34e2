//! Random requests against a live server (the hardening issue's fuzzing): thousands of them, from a fixed seed,
//! mixing well-formed and broken ones — any method on any endpoint, real and made-up tokens, unit numbers, bodies
//! of every shape. Never a 5xx, every refusal the API's JSON error, and a refused request never changes a game.

mod common;

use common::*;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reqwest::Method;
use serde_json::{Value, json};

const REQUESTS: usize = 2500;

/// A game's state as a client can see it, cheaply: what must not move after a refused request (every change
/// of a game moves its `updated_at`).
async fn state(api: &Api, token: &str) -> (Value, Value, Value) {
    let (_, v) = api.get(&format!("/api/play/{token}/summary")).await;
    (v["decisions"].clone(), v["updated_at"].clone(), v["status"].clone())
}

fn pick<'a, T>(rng: &mut impl Rng, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

/// A body: valid JSON of the API's shapes, JSON of the wrong shapes, or not JSON at all.
fn body(rng: &mut impl Rng, tokens: &[String]) -> (Option<&'static str>, Vec<u8>) {
    let squares = ["a1", "c2", "d3", "z9", "e4", "", "a0", "é1"];
    let facings = ["N", "E", "S", "W", "X", "n"];
    let sq = *pick(rng, &squares);
    let f = *pick(rng, &facings);
    let n = rng.random_range(-2i64..70);
    let action = pick(
        rng,
        &[
            json!({"activate": n}),
            json!("end_activations"),
            json!("hold"),
            json!({"move": {"to": sq, "facing": f}}),
            json!({"move": {"to": sq, "facing": f, "bogus": 1}}),
            json!({"fire": {"target": n, "facing": f}}),
            json!({"move_fire": {"to": sq, "facing": f, "target": n}}),
            json!({"fire_move": {"target": n}}),
            json!({"advance": {"to": sq, "facing": f}}),
            json!({"teleport": 1}),
            json!(null),
        ],
    )
    .clone();
    let decisions = rng.random_range(0..30);
    let side = *pick(rng, &["A", "B", "C"]);
    let scenario = *pick(rng, &["bloody-lane", "nope", ""]);
    let mode = *pick(rng, &["hotseat", "computer", "watch", "chess"]);
    let computer = *pick(rng, &["mcts:99999999", "greedy", "x"]);
    let shapes = [
        json!({"index": n}),
        json!({"index": n, "decisions": decisions}),
        json!({"action": action}),
        json!({"action": action, "decisions": decisions}),
        json!({"index": n, "action": action}),
        json!({"count": n}),
        json!({"unit": n, "action": action}),
        json!({"side": side}),
        json!({"scenario": scenario, "mode": mode}),
        json!({"scenario": "meeting-engagement", "mode": "computer", "computer": computer}),
        json!({"scenario": "meeting-engagement", "mode": "hotseat", "options": {"move.cavalry": n, "to_hit": n}}),
        json!({"scenario_text": "name = \"P\"\nturns = 3\n[map]\nterrain = \"\\néé\"\n", "mode": "hotseat"}),
        json!({"text": "turns = 0", "file": "x.toml"}),
        json!({"text": *pick(rng, &["variant = \"v.toml\"\n[map]\nterrain = \"\"\"\nEEEE\n\"\"\"\n", "[[[", ""]), "variant_text": *pick(rng, &[
            "name = \"V\"\n[[terrain]]\nid = \"trench\"\nletter = \"E\"\n",
            "name = \"V\"\n[[terrain]]\nid = \"trench\"\nletter = \"#\"\n",
            "[[[",
        ]), "variant_file": *pick(rng, &["v.toml", "", "\u{0}"])}),
        json!({"scenario": scenario, "mode": mode, "variant": *pick(rng, &["close-combat", "hill-crest", "chess", ""])}),
        json!({"scenario": "bloody-lane", "mode": "hotseat", "variant_text": *pick(rng, &[
            "name = \"V\"\n[[modifiers]]\nid = \"V1\"\nvalue = 9\nwhen = \"charge and (\"\n",
            "name = \"V\"\n[results]\nsteady_fire = [\"none\"]\n",
            "name = \"V\"\n[[arms]]\nid = \"skirmishers\"\nlike = \"infantry\"\n",
            "[[[",
        ]), "variant": n}),
        // A battle that names a variant, with another laid over it (docs/variants.md, "Variants that combine").
        json!({"scenario_text": format!("variant = \"close-combat\"\n{}", pacw_engine::DEFAULT_SCENARIO), "mode": "hotseat",
            "variant": pick(rng, &[json!("close-combat"), json!("hard-cover"), json!(null), json!("standard")]).clone(),
            "variant_text": pick(rng, &[json!(null), json!("name = \"V\"\n[[modifiers]]\nid = \"V1\"\nvalue = 3\n"),
                json!("name = \"V\"\n[[modifiers]]\nid = \"V1\"\nwhen = \"élan\"\n"), json!("[[[")]).clone()}),
        json!({"email": *pick(rng, &["bea@example.org", "not an address", "", "a@b\nBcc: x@y"]), "webhook": null}),
        json!({"webhook": *pick(rng, &["http://127.0.0.1:9/hook", "ftp://x.org", "not a url", "https://"]), "email": n}),
        json!({"name": *pick(rng, &["Fuzz", "fuzz", "<b>x</b>", "", "é'è", "x"]), "password": *pick(rng, &["a long password", "", "short"])}),
        json!({"name": "Fuzz", "password": "a long password", "email": "x", "webhook": "ftp://x"}),
        json!({"token": *pick(rng, &[tokens[0].as_str(), "0", "zz"])}),
        json!({"who": *pick(rng, &["Fuzz", "fuzz@example.org", "", "@", "x\u{0}y", "é"])}),
        json!({"token": *pick(rng, &[tokens[0].as_str(), "0", ""]), "password": *pick(rng, &["a long password", "", "short"])}),
        json!({"text": *pick(rng, &["gg <script>alert(1)</script>", "", "\u{7}", "ok"])}),
        json!({"accept": *pick(rng, &[json!(true), json!(false), json!("yes")])}),
        json!({"days": *pick(rng, &[json!(1), json!(0), json!(-1), json!(14), json!(15), json!(367), json!(4_294_967_296u64), json!("3"), json!(2.5), json!(null)])}),
        json!({"size": *pick(rng, &["small", "medium", "grand", "any", "huge", ""]), "pace": *pick(rng, &["3d", "live", "2d"]), "rating": *pick(rng, &["rated", "casual", "x"])}),
        json!({"hours": *pick(rng, &[json!(1), json!(-1), json!(9000), json!(80), json!("1"), json!(1.5)])}),
        json!({"scenario": "meeting-engagement", "mode": mode, "pace": *pick(rng, &["1d", "3d", "7d", "2d", "daily", ""])}),
        json!({"scenario": scenario, "side": side, "pace": *pick(rng, &["live", "daily", "never"]), "rating": *pick(rng, &["rated", "casual", "x"]), "visibility": *pick(rng, &["public", "private", "x"])}),
        json!({"scenario": "bloody-lane", "options": {"to_hit": n}, "variant": *pick(rng, &["close-combat", "nope"])}),
        json!([1, 2, 3]),
        json!(tokens.len()),
        json!({}),
    ];
    let value = pick(rng, &shapes).clone();
    match rng.random_range(0..10) {
        0 => (Some("application/json"), b"{not json".to_vec()),
        1 => (Some("text/plain"), value.to_string().into_bytes()),
        2 => (None, value.to_string().into_bytes()),
        3 => (Some("application/json"), vec![0xff, 0xfe, b'{', b'}']),
        _ => (Some("application/json"), value.to_string().into_bytes()),
    }
}

#[tokio::test]
async fn random_requests_never_get_a_5xx_and_a_refused_one_changes_nothing() {
    let dir = TempDir::new("fuzz-api");
    let metrics_token = "fuzz-operators-metrics-token";
    // E-mail through a sink, so that the notices' addresses and the password resets are fuzzed past "no e-mail".
    let (smtp_port, _mails) = smtp_sink().await;
    let with_metrics =
        // A test clock, so that moving it (`POST /api/test/clock`) is fuzzed too, and a deadline may pass.
        pacw_server::ServerConfig {
            metrics_token: Some(metrics_token.parse().unwrap()),
            test_clock: true,
            smtp: Some(format!("smtp://127.0.0.1:{smtp_port}")),
            ..config(&dir.0)
        };
    let server = pacw_server::Server::bind(with_metrics).await.expect("the server starts").spawn();
    let api = Api::new(&server);
    let mut tokens = Vec::new();
    for (scenario, mode) in
        [("meeting-engagement", "hotseat"), ("bloody-lane", "two_players"), ("maryes-heights", "hotseat")]
    {
        // The two-player game is played at a pace of days: its deadline and the claim of a win are fuzzed too.
        let pace = if mode == "two_players" { "3d" } else { "live" };
        let created = api.create(json!({"scenario": scenario, "mode": mode, "pace": pace})).await;
        for role in ["hotseat", "A", "B", "spectator"] {
            if let Some(t) = created["tokens"][role].as_str() {
                tokens.push(t.to_string());
            }
        }
    }
    let watched: Vec<String> = tokens.iter().filter(|t| !t.is_empty()).cloned().collect();
    // A logged-in member, whose cookie and anti-forgery token some requests carry.
    let r = api
        .http
        .post(format!("{}/api/account/signup", api.base))
        .json(&json!({"name": "Member", "password": "a long password"}))
        .send()
        .await
        .unwrap();
    let cookie = r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let csrf = r.json::<Value>().await.unwrap()["csrf"].as_str().unwrap().to_string();
    let (_, posted) = {
        let r = api
            .http
            .post(format!("{}/api/room", api.base))
            .header("cookie", &cookie)
            .header("x-pacw-csrf", &csrf)
            .json(&json!({"scenario": "meeting-engagement"}))
            .send()
            .await
            .unwrap();
        (r.status(), r.json::<Value>().await.unwrap())
    };
    let posting = posted["id"].as_str().unwrap().to_string();
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let made_up =
        ["0".repeat(32), "zz".repeat(16), "%FF%FE".to_string(), "a".repeat(33), String::new(), "../..".into()];
    let mut refused = 0;
    for i in 0..REQUESTS {
        let token = if rng.random_range(0..4) == 0 {
            pick(&mut rng, &made_up).clone()
        } else {
            pick(&mut rng, &tokens).clone()
        };
        let unit = pick(&mut rng, &["0", "3", "63", "64", "999", "-1", "x"]).to_string();
        let path = match rng.random_range(0..20) {
            16 => format!(
                "/api/{}",
                pick(
                    &mut rng,
                    &[
                        "me",
                        "account",
                        "account/signup",
                        "account/login",
                        "account/logout",
                        "account/claim",
                        "account/forgot",
                        "account/reset",
                        "account/vacation",
                        "leaderboard"
                    ]
                )
            ),
            17 => format!("/api/players/{}", pick(&mut rng, &["Member", "member", "nobody", "%3Cb%3E", "x%00y"])),
            18 => pick(&mut rng, &["/api/room", "/api/room/seek"]).to_string(),
            19 => format!(
                "/api/room/{}{}",
                pick(&mut rng, &[posting.as_str(), "0", token.as_str()]),
                pick(&mut rng, &["", "/join"])
            ),
            0 => format!("/api/play/{token}"),
            1 => format!("/api/play/{token}?log_from={}", pick(&mut rng, &["0", "5", "x", "99999999999999999999"])),
            2..=5 => format!("/api/play/{token}/actions"),
            6 => format!("/api/play/{token}/undo"),
            7 => format!("/api/play/{token}/units/{unit}"),
            8 => format!("/api/play/{token}/explain"),
            9 => format!("/api/play/{token}/replay/{unit}"),
            10 => {
                format!(
                    "/api/play/{token}/{}",
                    pick(
                        &mut rng,
                        &[
                            "replay",
                            "ledger",
                            "save",
                            "summary",
                            "notify",
                            "events?x=1",
                            "chat",
                            "takeback",
                            "takeback/answer",
                            "draw",
                            "draw/answer",
                            "clock",
                            "clock/claim"
                        ]
                    )
                )
            }
            11 => format!("/api/scenarios/{}", pick(&mut rng, &["check", "balance"])),
            12 => "/api/games".to_string(),
            13 => format!("/api/scenarios/{}", pick(&mut rng, &["bloody-lane", "x", "%00"])),
            14 => format!("/api/play/{token}/{}", pick(&mut rng, &["resign", "rematch"])),
            _ => {
                format!(
                    "/{}",
                    pick(
                        &mut rng,
                        &[
                            "",
                            "rules",
                            "js/app.js",
                            "api/nothing",
                            "game/abc",
                            "..%2f..%2fetc",
                            "metrics",
                            "metrics?x=1",
                            "api/test/clock"
                        ]
                    )
                )
            }
        };
        // Resigning, accepting a draw and logging out end games or the member's session: only now and then.
        if (path.ends_with("/resign") || path.ends_with("/logout") || path.ends_with("/draw/answer")) && i % 500 != 0 {
            continue;
        }
        let method = pick(&mut rng, &[Method::GET, Method::POST, Method::POST, Method::PUT, Method::DELETE]).clone();
        if path.contains("/events") && method == Method::GET {
            continue; // a stream never ends by itself
        }
        let before = game_states(&api, &watched).await;
        let (content_type, bytes) = body(&mut rng, &tokens);
        let mut req = api.http.request(method.clone(), format!("{}{path}", api.base));
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        if rng.random_range(0..8) == 0 {
            req = req.header("origin", *pick(&mut rng, &["http://evil.example", "null"]));
        }
        if rng.random_range(0..2) == 0 {
            req = req.header("cookie", &cookie);
        }
        if rng.random_range(0..2) == 0 {
            req = req.header("x-pacw-csrf", *pick(&mut rng, &[csrf.as_str(), "0", ""]));
        }
        if rng.random_range(0..3) == 0 {
            let bearer = format!("Bearer {metrics_token}");
            let shown =
                ["Bearer x", "Bearer ", "Basic Zm9vOmJhcg==", bearer.as_str(), "Bearer fuzz-operators-metrics-tokeN"];
            req = req.header("authorization", *pick(&mut rng, &shown));
        }
        if method != Method::GET {
            req = req.body(bytes);
        }
        let r = req.send().await.unwrap();
        let status = r.status();
        let json_error =
            r.headers().get("content-type").is_some_and(|t| t.to_str().unwrap().starts_with("application/json"));
        let text = r.text().await.unwrap_or_default();
        assert!(!status.is_server_error(), "{method} {path}: {status} {text}");
        if status.is_client_error() {
            refused += 1;
            if path.starts_with("/api") {
                assert!(json_error, "{method} {path}: {status} not the API's JSON error: {text}");
                let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                assert!(v["error"].is_string(), "{method} {path}: {text}");
            }
            assert_eq!(
                game_states(&api, &watched).await,
                before,
                "{method} {path} was refused ({status}) but changed a game: {text}"
            );
        }
    }
    assert!(refused > REQUESTS / 4, "most requests are broken ones ({refused} refused)");
    server.stop().await;
}

/// Every watched game's state.
async fn game_states(api: &Api, tokens: &[String]) -> Vec<(Value, Value, Value)> {
    let mut out = Vec::new();
    for t in tokens {
        out.push(state(api, t).await);
    }
    out
}
