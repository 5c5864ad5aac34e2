//! API tests against a real server on an ephemeral loopback port (docs/api.md).

mod common;

use common::*;
use pacw_server::{Server, ServerConfig};
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
#[tokio::test]
async fn lobby_lists_shipped_scenarios_with_previews_and_checks_uploads() {
    let dir = TempDir::new("lobby");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (s, list) = api.get("/api/scenarios").await;
    assert_eq!(s, StatusCode::OK);
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), pacw_engine::offered_scenarios().count());
    // The battles, then the grand battle.
    let grand = list.last().unwrap();
    assert_eq!(grand["name"], "antietam");
    assert_eq!(grand["units"].as_array().unwrap().len(), 128);
    // Each with its measured balance (scenarios/balance.json), as the lobby shows it.
    assert!(list.iter().all(|s| (0.4..=0.6).contains(&s["balance"]["first_side_score"].as_f64().unwrap())), "{list:?}");
    let first = &list[0];
    assert_eq!(first["name"], "meeting-engagement");
    let (w, h) = (first["map"]["width"].as_u64().unwrap(), first["map"]["height"].as_u64().unwrap());
    assert_eq!(first["map"]["squares"].as_array().unwrap().len() as u64, w * h);
    assert!(!first["units"].as_array().unwrap().is_empty());
    assert!(first["text"].as_str().unwrap().contains("[[units]]"));

    let (s, one) = api.get("/api/scenarios/bloody-lane").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(one["name"], "bloody-lane");
    let (s, e) = api.get("/api/scenarios/no-such").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(e["error"].as_str().unwrap().contains("no-such"));

    let (s, info) = api.get("/api/info").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(info["options"]["to_hit"], "5");
    // The three levels first, each with its sentence; veteran unless another is asked for.
    let levels: Vec<&str> = info["offered"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["level"] == true)
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["recruit", "veteran", "general"]);
    assert!(
        info["offered"].as_array().unwrap().iter().all(|p| p["about"].as_str().is_some_and(|a| a.len() > 20)),
        "{info}"
    );
    assert_eq!(info["default_level"], "veteran");
    // The engine's one list of options, which the lobby's form is built from.
    let specs = info["option_specs"].as_array().unwrap();
    assert_eq!(specs.len(), pacw_engine::OPTION_SPECS.len());
    let spec = |name: &str| specs.iter().find(|s| s["name"] == name).unwrap().clone();
    assert_eq!(spec("initiative")["values"]["choices"][1][0], "igougo");
    assert_eq!(
        (spec("modifier.cover")["values"]["min"].as_i64(), spec("modifier.cover")["rule"].as_str()),
        (Some(-3), Some("R6.3"))
    );
    assert_eq!(spec("once_per_turn")["group"], "rules");
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "computer", "human_side": "A"})).await;
    assert_eq!(created["view"]["players"][1]["computer"], "veteran", "{created}");

    // A broken upload: every problem with its line and column, as `pacw check` prints them.
    let bad = "name = \"x\"\nturns = 0\n";
    let (s, c) = api.post("/api/scenarios/check", json!({"text": bad, "file": "mine.toml"})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(c["ok"], false);
    assert!(c["message"].as_str().unwrap().starts_with("mine.toml"), "{c}");
    assert!(c["problems"].as_array().unwrap().iter().any(|p| p["line"].is_u64()), "{c}");
    let (s, e) =
        api.post("/api/games", json!({"scenario_text": bad, "scenario_file": "mine.toml", "mode": "hotseat"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!e["problems"].as_array().unwrap().is_empty(), "{e}");

    // A problem with a place on the board names its square and unit, for the editor to mark.
    let planted = pacw_engine::DEFAULT_SCENARIO.replacen("at = \"d2\"", "at = \"c2\"", 1);
    let (_, c) = api.post("/api/scenarios/check", json!({"text": planted})).await;
    let p = c["problems"].as_array().unwrap().iter().find(|p| p["message"].as_str().unwrap().contains("R2.5"));
    let p = p.unwrap_or_else(|| panic!("no problem about two units on c2: {c}"));
    assert_eq!((p["square"].as_str(), p["unit"].as_u64()), (Some("c2"), Some(1)), "{c}");
    assert!(c["problems"].as_array().unwrap().iter().all(|p| p.get("square").is_none_or(|s| s.is_string())));
    assert_eq!(c["warnings"], json!([]), "a file without stray keys has no warnings");

    // A misspelt optional key is not an error, but it is named, with the key it is nearest to and its unit.
    let typo = pacw_engine::DEFAULT_SCENARIO.replacen("quality = ", "qualty = ", 1);
    let (_, c) = api.post("/api/scenarios/check", json!({"text": typo})).await;
    assert_eq!(c["ok"], true, "{c}");
    let w = &c["warnings"][0];
    assert!(
        w["message"].as_str().unwrap().ends_with("unknown key 'qualty' is ignored: did you mean 'quality'?"),
        "{c}"
    );
    assert!(w["line"].is_u64() && w["unit"].is_u64(), "{c}");

    // An uploaded copy of a shipped scenario is accepted.
    let text = pacw_engine::DEFAULT_SCENARIO;
    let created = api
        .create(
            json!({"scenario_text": text, "scenario_file": "copy.toml", "mode": "hotseat", "options": ["to_hit=4"]}),
        )
        .await;
    assert_eq!(created["view"]["options"]["to_hit"], "4");
    assert_eq!(created["view"]["scenario"]["name"], "copy.toml");

    // Bad options and players are refused with the engine's words.
    let (s, e) =
        api.post("/api/games", json!({"scenario": "bloody-lane", "mode": "hotseat", "options": {"to_hit": 9}})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(e["error"].as_str().unwrap().contains("to_hit"), "{e}");
    let (s, e) =
        api.post("/api/games", json!({"scenario": "bloody-lane", "mode": "computer", "computer": "chess"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(e["error"].as_str().unwrap().contains("chess"), "{e}");
    assert!(e["error"].as_str().unwrap().contains("recruit, veteran, general"), "the names are listed: {e}");
    let (s, _) = api.post("/api/games", json!({"scenario": "bloody-lane", "mode": "solitaire"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    server.stop().await;
}

#[tokio::test]
async fn create_view_and_act_by_index_or_by_json() {
    let dir = TempDir::new("act");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let t = token(&created, "hotseat");
    assert!(created["tokens"]["A"].is_null());
    let v = api.view(&t).await;
    assert_eq!(v["role"], "hotseat");
    assert_eq!(v["your_turn"], true);
    assert_eq!(v["decisions"], 0);
    assert!(v["seed"].is_null(), "the seed stays secret while the game runs");
    assert!(v["deck"]["next"]["joker"].is_string());
    assert!(v["card"]["text"].is_string());
    assert!(v["log"].as_array().unwrap().iter().all(|e| e["text"].is_string() && e["event"].is_object()));
    let n_units = v["units"].as_array().unwrap().len();
    assert_eq!(n_units, v["scenario"]["units"].as_array().unwrap().len());

    // By index.
    let i = find(&v, is_activate).unwrap();
    let (s, after) = api.act(&t, json!({"index": i, "decisions": 0})).await;
    assert_eq!(s, StatusCode::OK, "{after}");
    assert_eq!(after["decisions"], 1);
    assert_eq!(after["log_from"], v["log_len"]);
    assert!(after["log"][0]["text"].as_str().unwrap().contains("activated"));
    // By JSON: the first order offered now.
    let action = after["legal_actions"][0]["action"].clone();
    let (s, after2) = api.act(&t, json!({"action": action})).await;
    assert_eq!(s, StatusCode::OK, "{after2}");
    assert_eq!(after2["decisions"], 2);
    // Both, disagreeing: refused.
    let (s, e) = api.act(&t, json!({"index": 0, "action": after2["legal_actions"][1]["action"], "decisions": 2})).await;
    if after2["legal_actions"].as_array().unwrap().len() > 1 {
        assert_eq!(s, StatusCode::CONFLICT, "{e}");
    }
    // A stale view: refused.
    let (s, e) = api.act(&t, json!({"index": 0, "decisions": 1})).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(api.view(&t).await["decisions"], 2);

    // The view with part of the log.
    let (s, part) = api.get(&format!("/api/play/{t}?log_from=2")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(part["log"][0]["index"], 2);
    let (s, _) = api.get(&format!("/api/play/{t}?log_from=x")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);

    // The list (the operator allowed it) shows its public facts, never a token.
    let (_, list) = api.get("/api/games").await;
    let game = list["games"].as_array().unwrap().iter().find(|g| g["id"] == created["id"]).unwrap().clone();
    assert_eq!(game["status"], "in_progress");
    assert_eq!(game["decisions"], 2);
    assert!(game.get("tokens").is_none() && game.get("links").is_none(), "{game}");
    assert!(!list.to_string().contains(t.as_str()), "no token anywhere in the list");
    server.stop().await;
}

#[tokio::test]
async fn illegal_and_malformed_requests_are_refused_and_change_nothing() {
    let dir = TempDir::new("illegal");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let t = token(&created, "hotseat");
    let before = api.view(&t).await;

    // Illegal by the rules: ordering a Hold before activating a unit (R3.4).
    let (s, e) = api.act(&t, json!({"action": "hold"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert_eq!(e["rule"], "R3.4");
    assert!(e["error"].as_str().unwrap().contains("R3.4"), "{e}");
    // A unit that does not exist.
    let (s, e) = api.act(&t, json!({"action": {"activate": 200}})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["rule"].is_string());
    // Index out of range, nothing given, bad JSON, unknown fields, an unknown action.
    for body in [json!({"index": 9999}), json!({}), json!({"index": 0, "extra": 1}), json!({"action": {"teleport": 1}})]
    {
        let (s, e) = api.act(&t, body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {e}");
        assert!(e["error"].is_string());
    }
    let (s, e) = api.post_raw(&format!("/api/play/{t}/actions"), "{not json").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(e["error"].as_str().unwrap().contains("JSON"));
    // Too large.
    let big = format!("{{\"index\": 0, \"pad\": \"{}\"}}", "x".repeat(300 * 1024));
    let (s, e) = api.post_raw(&format!("/api/play/{t}/actions"), big).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{e}");
    assert!(e["error"].is_string());
    // Unknown endpoint and method: JSON too.
    let (s, e) = api.get("/api/nothing").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(e["error"].is_string());
    let (s, e) = api.get(&format!("/api/play/{t}/actions")).await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
    assert!(e["error"].is_string());

    let after = api.view(&t).await;
    assert_eq!(after["decisions"], 0);
    assert_eq!(after["log_len"], before["log_len"]);
    assert_eq!(after["revision"], before["revision"]);
    server.stop().await;
}

#[tokio::test]
async fn each_token_acts_only_for_its_side_and_spectators_only_watch() {
    let dir = TempDir::new("tokens");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let (a, b, spec) = (token(&created, "A"), token(&created, "B"), token(&created, "spectator"));
    assert!(created["tokens"]["hotseat"].is_null());
    assert_ne!(a, b);
    let v = api.view(&spec).await;
    let side = v["to_act"]["side"].as_str().unwrap().to_string();
    let (mover, waiter) = if side == "A" { (&a, &b) } else { (&b, &a) };
    assert_eq!(api.view(mover).await["your_turn"], true);
    assert_eq!(api.view(waiter).await["your_turn"], false);
    assert_eq!(v["your_turn"], false);

    let (s, e) = api.act(waiter, json!({"index": 0})).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    assert!(e["error"].as_str().unwrap().contains("turn"));
    let (s, e) = api.act(&spec, json!({"index": 0})).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    assert!(e["error"].as_str().unwrap().contains("spectator"));
    let (s, _) = api.post(&format!("/api/play/{spec}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let unknown = "0123456789abcdef0123456789abcdef";
    let (s, e) = api.act(unknown, json!({"index": 0})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{e}");
    let (s, _) = api.get("/api/play/not-a-token").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = api.get(&format!("/api/play/{}", created["id"].as_str().unwrap())).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "a game id is not a token");
    assert_eq!(api.view(&spec).await["decisions"], 0);

    let (s, r) = api.act(mover, json!({"index": 0})).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    // The save (with the seed) is not given while the game runs.
    let (s, _) = api.get(&format!("/api/play/{a}/save")).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    server.stop().await;
}

#[tokio::test]
async fn undo_takes_back_decisions_until_a_die_or_a_card() {
    let dir = TempDir::new("undo");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let t = token(&created, "hotseat");
    let v = api.view(&t).await;
    assert_eq!(v["undo"]["possible"], false);
    assert_eq!(v["undo"]["why_not"], "you have no decision to take back yet");
    let (s, _) = api.post(&format!("/api/play/{t}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT);

    // Ending the activations draws a card: it cannot be taken back.
    let end = find(&v, |a| a == "end_activations").unwrap();
    let (s, v) = api.act(&t, json!({"index": end})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["undo"]["possible"], false);
    assert!(v["undo"]["why_not"].as_str().unwrap().contains("a die was rolled or a card drawn"), "{}", v["undo"]);
    assert!(v["undo"]["why_not"].as_str().unwrap().ends_with("(R9.1)"));
    let (s, e) = api.post_raw(&format!("/api/play/{t}/undo"), "").await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");

    // Activating a unit rolls nothing: it can.
    let v = api.view(&t).await;
    let log_len = v["log_len"].clone();
    let i = find(&v, is_activate).unwrap();
    let (_, v2) = api.act(&t, json!({"index": i})).await;
    assert_eq!(v2["undo"]["possible"], true);
    assert_eq!(v2["undo"]["decisions"], 1);
    assert!(v2["undo"]["why_not"].is_null());
    let (s, back) = api.post(&format!("/api/play/{t}/undo"), json!({"count": 1})).await;
    assert_eq!(s, StatusCode::OK, "{back}");
    assert_eq!(back["decisions"], 1);
    assert_eq!(back["log_len"], log_len);
    assert_eq!(back["legal_actions"], v["legal_actions"]);
    // Two to take back, then one too many.
    let (_, v3) = api.act(&t, json!({"index": i})).await;
    let hold = find(&v3, |a| a == "hold").unwrap();
    let (_, v4) = api.act(&t, json!({"index": hold})).await;
    if v4["undo"]["decisions"] == 2 {
        let (s, _) = api.post(&format!("/api/play/{t}/undo"), json!({"count": 3})).await;
        assert_eq!(s, StatusCode::CONFLICT);
        let (s, back) = api.post(&format!("/api/play/{t}/undo"), json!({"count": 2})).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(back["decisions"], 1);
    }

    // Two players: one cannot take back the other's decisions.
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let spec = token(&created, "spectator");
    let side = api.view(&spec).await["to_act"]["side"].as_str().unwrap().to_string();
    let (mover, other) = if side == "A" {
        (token(&created, "A"), token(&created, "B"))
    } else {
        (token(&created, "B"), token(&created, "A"))
    };
    let v = api.view(&mover).await;
    let (_, _) = api.act(&mover, json!({"index": find(&v, is_activate).unwrap()})).await;
    let (s, _) = api.post(&format!("/api/play/{other}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT);
    let why = api.view(&other).await["undo"]["why_not"].as_str().unwrap().to_string();
    assert!(why.contains("has decided since your last decision"), "{why}");
    let (s, _) = api.post(&format!("/api/play/{mover}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    server.stop().await;
}

/// Plays a game to its end through the API, preferring attacks.
async fn play_out(api: &Api, t: &str) -> Value {
    let mut n = 0;
    loop {
        let v = api.wait_turn(t).await;
        if !v["result"].is_null() {
            return v;
        }
        let legal = v["legal_actions"].as_array().unwrap();
        let pick = legal
            .iter()
            .find(|a| !a["odds"].is_null())
            .or_else(|| legal.iter().find(|a| a["action"].get("move").is_some()))
            .unwrap_or(&legal[n % legal.len()]);
        let (s, r) = api.act(t, json!({"index": pick["index"], "decisions": v["decisions"]})).await;
        assert_eq!(s, StatusCode::OK, "{r}");
        n += 1;
        assert!(n < 5000, "the game does not end");
    }
}

#[tokio::test]
async fn a_game_against_the_computer_runs_to_its_end_with_replay_and_ledger() {
    let dir = TempDir::new("computer");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api
        .create(
            json!({"scenario": "meeting-engagement", "mode": "computer", "human_side": "second", "computer": "greedy"}),
        )
        .await;
    let t = token(&created, "B");
    assert!(created["tokens"]["A"].is_null());
    assert_eq!(created["view"]["players"][0]["kind"], "computer");
    let end = play_out(&api, &t).await;
    assert!(end["result"]["text"].as_str().unwrap().starts_with("Game over"));
    assert!(end["seed"].is_u64(), "the seed is shown once the game is over");
    assert!(end["legal_actions"].as_array().unwrap().is_empty());
    let ledger = &end["ledger"];
    let attacks = ledger["attacks"].as_array().unwrap();
    for side in ledger["sides"].as_array().unwrap() {
        let n = side["attacks"].as_u64().unwrap();
        let actual: u64 = ["miss", "shaken", "retreat", "destroyed", "stand"]
            .iter()
            .map(|k| side["actual"][k].as_u64().unwrap())
            .sum();
        assert_eq!(actual, n);
    }
    assert!(attacks.iter().all(|a| a["odds"]["fractions"]["hit"].is_string()));
    let (s, l2) = api.get(&format!("/api/play/{t}/ledger")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(&l2, ledger);

    // The replay: every decision and the state after any of them.
    let decisions = end["decisions"].as_u64().unwrap();
    let (s, r) = api.get(&format!("/api/play/{t}/replay")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(r["steps"].as_array().unwrap().len() as u64, decisions);
    assert!(r["steps"].as_array().unwrap().iter().any(|s| s["computer"] == true));
    let mut events = r["start"].as_array().unwrap().len();
    for s in r["steps"].as_array().unwrap() {
        events += s["events"].as_array().unwrap().len();
    }
    assert_eq!(events as u64, end["log_len"].as_u64().unwrap());
    let (s, first) = api.get(&format!("/api/play/{t}/replay/0")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(first["decisions"], 0);
    assert_eq!(first["replay"]["of"], decisions);
    assert!(first["seed"].is_null());
    let (_, mid) = api.get(&format!("/api/play/{t}/replay/{}", decisions / 2)).await;
    assert_eq!(mid["decisions"], decisions / 2);
    assert_eq!(mid["your_turn"], false);
    let (_, last) = api.get(&format!("/api/play/{t}/replay/{decisions}")).await;
    assert_eq!(last["units"], end["units"]);
    let (s, _) = api.get(&format!("/api/play/{t}/replay/{}", decisions + 1)).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = api.get(&format!("/api/play/{t}/replay/x")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);

    // The save replays to the same game in the engine.
    let (s, save) = api.get(&format!("/api/play/{t}/save")).await;
    assert_eq!(s, StatusCode::OK);
    let game = pacw_engine::Game::load(&save.to_string()).unwrap();
    assert_eq!(game.actions().len() as u64, decisions);
    // Acting after the end is refused.
    let (s, _) = api.act(&t, json!({"index": 0})).await;
    assert_eq!(s, StatusCode::CONFLICT);
    let (_, list) = api.get("/api/games").await;
    assert_eq!(list["games"][0]["status"], "finished");
    server.stop().await;
}

/// Reads server-sent events until one named `name` arrives.
async fn next_event(resp: &mut reqwest::Response, buf: &mut String, name: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        while let Some(end) = buf.find("\n\n") {
            let block: String = buf.drain(..end + 2).collect();
            let mut event = "message";
            let mut data = String::new();
            for line in block.lines() {
                if let Some(e) = line.strip_prefix("event:") {
                    event = e.trim();
                } else if let Some(d) = line.strip_prefix("data:") {
                    data.push_str(d.trim_start());
                }
            }
            if event == name {
                return serde_json::from_str(&data).unwrap();
            }
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let chunk = tokio::time::timeout(left, resp.chunk()).await.expect("an event in time").unwrap().unwrap();
        buf.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}

#[tokio::test]
async fn subscribers_are_told_of_every_change() {
    let dir = TempDir::new("sse");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "two_players"})).await;
    let spec = token(&created, "spectator");
    let mut resp = api.http.get(format!("{}/api/play/{spec}/events", api.base)).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let mut buf = String::new();
    let hello = next_event(&mut resp, &mut buf, "hello").await;
    assert_eq!(hello["role"], "spectator");
    assert_eq!(hello["decisions"], 0);

    let side = api.view(&spec).await["to_act"]["side"].as_str().unwrap().to_string();
    let mover = token(&created, &side);
    let v = api.view(&mover).await;
    let (s, _) = api.act(&mover, json!({"index": find(&v, is_activate).unwrap()})).await;
    assert_eq!(s, StatusCode::OK);
    let update = next_event(&mut resp, &mut buf, "update").await;
    assert_eq!(update["kind"], "action");
    assert_eq!(update["decisions"], 1);
    assert_eq!(update["side"], side.as_str());
    assert!(update["events"][0]["text"].as_str().unwrap().contains("activated"));
    let (s, _) = api.post(&format!("/api/play/{mover}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let update = next_event(&mut resp, &mut buf, "update").await;
    assert_eq!(update["kind"], "undo");
    assert_eq!(update["decisions"], 0);

    server.stop().await;

    // The computer's moves are pushed too, one by one, at the server's pace (here 20 ms, so the game cannot end
    // before the test subscribes).
    let config = ServerConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.0.clone(),
        computer_delay: Duration::from_millis(20),
        list_games: true,
        ..ServerConfig::default()
    };
    let server = Server::bind(config).await.unwrap().spawn();
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "watch", "computer": "random"})).await;
    let spec = token(&created, "spectator");
    let mut resp = api.http.get(format!("{}/api/play/{spec}/events", api.base)).send().await.unwrap();
    let mut buf = String::new();
    next_event(&mut resp, &mut buf, "hello").await;
    let u = next_event(&mut resp, &mut buf, "update").await;
    assert_eq!(u["computer"], true);
    let u2 = next_event(&mut resp, &mut buf, "update").await;
    assert_eq!(u2["revision"].as_u64().unwrap(), u["revision"].as_u64().unwrap() + 1, "one by one");
    drop(resp);
    server.stop().await;
}

#[tokio::test]
async fn a_restarted_server_keeps_every_game_and_reports_damaged_rows() {
    let dir = TempDir::new("restart");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "bloody-lane", "mode": "hotseat", "options": {"to_hit": 4}})).await;
    let t = token(&created, "hotseat");
    let other = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    for _ in 0..6 {
        let v = api.view(&t).await;
        let i = find(&v, |a| a != "end_activations").unwrap_or(0);
        let (s, r) = api.act(&t, json!({"index": i})).await;
        assert_eq!(s, StatusCode::OK, "{r}");
    }
    let before = api.view(&t).await;
    server.stop().await;

    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let after = api.view(&t).await;
    for key in ["decisions", "log", "units", "legal_actions", "deck", "options", "turn"] {
        assert_eq!(after[key], before[key], "{key} differs after the restart");
    }
    let (s, r) = api.act(&t, json!({"index": 0})).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    server.stop().await;

    // Damage one row: it is listed as damaged and skipped; the other game still loads.
    let db = rusqlite_path(&dir.0);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute("UPDATE games SET save = '{\"format\": \"garbage' WHERE id = ?1", [other["id"].as_str().unwrap()])
        .unwrap();
    drop(conn);
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (_, list) = api.get("/api/games").await;
    let games = list["games"].as_array().unwrap();
    let damaged = games.iter().find(|g| g["id"] == other["id"]).unwrap();
    assert_eq!(damaged["status"], "damaged");
    assert!(damaged["error"].as_str().unwrap().contains("save"), "{damaged}");
    assert_eq!(api.view(&t).await["decisions"], before["decisions"].as_u64().unwrap() + 1);
    let (s, _) = api.get(&format!("/api/play/{}", token(&other, "hotseat"))).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    server.stop().await;
}

fn rusqlite_path(dir: &Path) -> PathBuf {
    dir.join(pacw_server::store::DB_FILE)
}

#[tokio::test]
async fn the_ui_is_served_with_the_game_links() {
    let dir = TempDir::new("ui");
    let server = start(&dir.0).await;
    let http = reqwest::Client::new();
    for path in ["/", "/index.html", "/game/0123456789abcdef0123456789abcdef"] {
        let r = http.get(format!("{}{path}", server.base())).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
        assert!(r.text().await.unwrap().contains("<html"));
    }
    let r = http.get(format!("{}/missing.js", server.base())).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    server.stop().await;
}

// SIGKILL is tested on the real binary: crates/cli/tests/serve.rs.

#[tokio::test]
async fn arbitrary_actions_get_a_clear_answer_never_a_server_error() {
    let dir = TempDir::new("fuzz");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "mcpherson-ridge", "mode": "hotseat"})).await;
    let t = token(&created, "hotseat");
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..400 {
        let sq = format!("{}{}", (b'a' + next(26) as u8) as char, 1 + next(26));
        let facing = ["N", "E", "S", "W"][next(4) as usize];
        let unit = next(80);
        let action = match next(8) {
            0 => json!({"activate": unit}),
            1 => json!("end_activations"),
            2 => json!("hold"),
            3 => json!({"move": {"to": sq, "facing": facing}}),
            4 => json!({"fire": {"target": unit, "facing": facing}}),
            5 => json!({"move_fire": {"to": sq, "facing": facing, "target": unit}}),
            6 => json!({"fire_move": {"target": unit}}),
            _ => json!({"advance": {"to": sq, "facing": facing}}),
        };
        let (s, r) = api.act(&t, json!({"action": action})).await;
        match s {
            StatusCode::OK => ok += 1,
            StatusCode::UNPROCESSABLE_ENTITY => {
                assert!(r["rule"].as_str().is_some_and(|r| r.starts_with('R')), "{r}");
                refused += 1;
            }
            StatusCode::CONFLICT if !api.view(&t).await["result"].is_null() => break,
            other => panic!("{action}: {other} {r}"),
        }
        // Now and then a legal action, to move the game on.
        if next(3) == 0 {
            let v = api.view(&t).await;
            if v["result"].is_null() {
                let n = v["legal_actions"].as_array().unwrap().len() as u64;
                let (s, r) = api.act(&t, json!({"index": next(n)})).await;
                assert_eq!(s, StatusCode::OK, "{r}");
            }
        }
    }
    assert!(refused > 0);
    let _ = ok;
    server.stop().await;
}

#[tokio::test]
async fn a_scenario_that_once_crashed_the_parser_is_refused_plainly_by_check_and_create() {
    let dir = TempDir::new("crash-scenario");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let text = "name = \"P\"\nturns = 3\n[map]\nterrain = \"\\néé\"\n";
    let (s, checked) = api.post("/api/scenarios/check", json!({"text": text, "file": "p.toml"})).await;
    assert_eq!(s, StatusCode::OK, "{checked}");
    assert_eq!(checked["ok"], false);
    assert!(checked["problems"].as_array().is_some_and(|p| !p.is_empty()));
    let (s, refused) = api.post("/api/games", json!({"scenario_text": text, "mode": "hotseat"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert!(!refused["error"].as_str().unwrap().contains("panicked"), "{refused}");
    server.stop().await;
}

#[tokio::test]
async fn other_sites_cannot_act_bodies_must_be_json_and_every_refusal_is_json() {
    let dir = TempDir::new("guard");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let t = token(&created, "hotseat");
    let url = |path: &str| format!("{}{path}", api.base);
    let own = format!("http://{}", server.addr());
    // Another site's page, through Origin or (without it) Referer: refused, nothing changes.
    for (name, value) in [("origin", "http://evil.example"), ("referer", "http://evil.example/attack.html")] {
        let r = api
            .http
            .post(url("/api/games"))
            .header(name, value)
            .json(&json!({"scenario": "bloody-lane", "mode": "hotseat"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "{name}");
        let body: Value = r.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().contains("evil.example"), "{body}");
        let r = api
            .http
            .post(url(&format!("/api/play/{t}/actions")))
            .header(name, value)
            .json(&json!({"index": 0}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::FORBIDDEN);
    }
    assert_eq!(api.view(&t).await["decisions"], 0);
    // The server's own page may act; so may a script that sends neither header.
    let r = api
        .http
        .post(url(&format!("/api/play/{t}/actions")))
        .header("origin", &own)
        .json(&json!({"index": 0}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    // A body that is not declared JSON (a form or text/plain post needs no preflight): refused.
    let r = api
        .http
        .post(url(&format!("/api/play/{t}/actions")))
        .header("content-type", "text/plain")
        .body("{\"index\": 0}")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(r.json::<Value>().await.unwrap()["error"].as_str().unwrap().contains("application/json"));
    // An unknown field inside an action: refused, not applied.
    let before = api.view(&t).await["decisions"].clone();
    let (s, e) = api.act(&t, json!({"action": {"move": {"to": "c2", "facing": "E", "bogus": true}}})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert!(e["error"].as_str().unwrap().contains("bogus"));
    assert_eq!(api.view(&t).await["decisions"], before);
    // Invalid UTF-8 in a token path: the documented JSON error.
    let r = api.http.get(url("/api/play/%FF%FE/units/0")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("application/json"));
    assert!(r.json::<Value>().await.unwrap()["error"].is_string());
    server.stop().await;
}

#[tokio::test]
async fn live_streams_are_capped_and_half_sent_or_idle_connections_are_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = TempDir::new("bounds");
    let config = ServerConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.0.clone(),
        computer_delay: Duration::ZERO,
        header_timeout: Duration::from_millis(300),
        ..ServerConfig::default()
    };
    let server = Server::bind(config).await.unwrap().spawn();
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let t = token(&created, "hotseat");
    let events = format!("{}/api/play/{t}/events", api.base);
    let mut open = Vec::new();
    for _ in 0..pacw_server::session::STREAMS_PER_GAME {
        let r = api.http.get(&events).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        open.push(r);
    }
    let refused = api.http.get(&events).send().await.unwrap();
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(refused.json::<Value>().await.unwrap()["error"].as_str().unwrap().contains("streams"));
    // A stream that ends gives its place back.
    drop(open.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let r = api.http.get(&events).send().await.unwrap();
        if r.status() == StatusCode::OK {
            break;
        }
        assert!(Instant::now() < deadline, "the place was never given back");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Half-sent headers: the connection is closed once the time is up.
    let mut half = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    half.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let mut buf = [0u8; 512];
    let n =
        tokio::time::timeout(Duration::from_secs(5), half.read(&mut buf)).await.expect("closed in time").unwrap_or(0);
    assert!(n == 0 || String::from_utf8_lossy(&buf[..n]).contains("408"), "{}", String::from_utf8_lossy(&buf[..n]));
    // A kept-alive connection left idle after its answer is closed too.
    let mut idle = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    idle.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let mut answer = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let n = idle.read(&mut buf).await.unwrap_or(0);
            if n == 0 {
                break;
            }
            answer.extend_from_slice(&buf[..n]);
        }
    })
    .await;
    assert!(closed.is_ok(), "the idle connection stayed open");
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    drop(open);
    server.stop().await;
}

#[tokio::test]
async fn a_save_opens_as_a_new_game_at_its_end_and_a_bad_one_is_refused() {
    let dir = TempDir::new("open-save");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    // A finished game played by two computer players, saved as `pacw simulate --save-games` writes it.
    let scenario = std::sync::Arc::new(pacw_engine::Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
    let mut game = pacw_engine::Game::with_scenario(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml", None, 11);
    let mut players = [pacw_ai::player("greedy", 1).unwrap(), pacw_ai::player("greedy", 2).unwrap()];
    while let pacw_engine::ToAct::Side(side) = game.battle().to_act() {
        let action = players[side.index()].choose(game.battle());
        game.act(action).unwrap();
    }
    let save: Value = serde_json::from_str(&game.save_json()).unwrap();
    let created = api.create(json!({"save": save, "mode": "hotseat"})).await;
    let t = token(&created, "hotseat");
    let (s, v) = api.get(&format!("/api/play/{t}")).await;
    assert_eq!(s, StatusCode::OK);
    assert!(v["result"].is_object(), "the game is over: {v}");
    assert_eq!(v["decisions"].as_u64().unwrap() as usize, game.save().actions.len());
    let (s, replay) = api.get(&format!("/api/play/{t}/replay")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(replay["steps"].as_array().unwrap().len(), game.save().actions.len());
    // A save whose events were edited, or that comes with a scenario, is refused with a message.
    let mut edited = save.clone();
    edited["seed"] = json!(12);
    let (s, e) = api.post("/api/games", json!({"save": edited, "mode": "hotseat"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].as_str().unwrap().contains("cannot be opened"), "{e}");
    let (s, _) = api.post("/api/games", json!({"save": save, "scenario": "bloody-lane", "mode": "hotseat"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // The file's text, as the lobby sends it.
    let created = api.create(json!({"save": game.save_json(), "mode": "hotseat"})).await;
    assert!(created["view"]["result"].is_object());
}

/// A game played by a variant: a shipped one by name or an uploaded one; the view names its rules, the save keeps
/// them, a rematch plays by them; an unknown or a broken variant is refused with what was expected.
#[tokio::test]
async fn a_game_is_played_by_a_shipped_or_an_uploaded_variant() {
    let dir = TempDir::new("variant");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (_, info) = api.get("/api/info").await;
    let names: Vec<&str> = info["variants"].as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), pacw_engine::SHIPPED_VARIANTS.len());
    assert!(names.contains(&"close-combat"), "{info}");
    let created =
        api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat", "variant": "close-combat"})).await;
    let t = token(&created, "hotseat");
    let rules = &created["view"]["scenario"]["rules"];
    assert_eq!(rules["name"], "Close combat");
    assert!(rules["modifiers"].as_array().unwrap().iter().any(|m| m["id"] == "V1"));
    assert_eq!(rules["results"]["steady_fire"][0], "none");
    let (s, _) = api.post(&format!("/api/play/{t}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (_, save) = api.get(&format!("/api/play/{t}/save")).await;
    assert_eq!(save["variant"]["file"], "close-combat.toml", "the save keeps the rules");
    let (s, rematch) = api.post(&format!("/api/play/{t}/rematch"), json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{}", rematch["error"]);
    assert_eq!(rematch["view"]["scenario"]["rules"]["name"], "Close combat", "a rematch plays by the same rules");
    // The standard rules say nothing of rules.
    let plain = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    assert!(plain["view"]["scenario"]["rules"].is_null());
    // Uploaded, broken, unknown.
    let text = "name = \"Mine\"\n[[modifiers]]\nid = \"M1\"\nvalue = 1\nwhen = \"charge\"\n";
    let mine = api.create(json!({"scenario": "bloody-lane", "mode": "hotseat", "variant_text": text})).await;
    assert_eq!(mine["view"]["scenario"]["rules"]["name"], "Mine");
    let games = |list: &Value| list["games"].as_array().map_or(0, Vec::len);
    let (_, before) = api.get("/api/games").await;
    let (s, e) = api.post("/api/games", json!({"scenario": "bloody-lane", "mode": "hotseat", "variant_text": text.replace("charge", "charj"), "variant_file": "mine.toml"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(e["error"].as_str().unwrap().contains("mine.toml:5:"), "{e}");
    let (_, after) = api.get("/api/games").await;
    assert!(games(&before) > 0 && games(&after) == games(&before), "a refused file makes no game: {after}");
    let (s, e) =
        api.post("/api/games", json!({"scenario": "bloody-lane", "mode": "hotseat", "variant": "chess"})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(e["error"].as_str().unwrap().contains("close-combat"), "the known names: {e}");
}

/// The editor's palette follows the rules: each shipped variant's terrain kinds from its combat system, and those
/// of a variant file given beside a checked text (docs/examples/entrenchments.toml: the entrenchments, `E`), whose
/// map letters the text is then read by, as a game made with the same file plays it.
#[tokio::test]
async fn the_editor_learns_the_terrain_kinds_of_each_rules() {
    let dir = TempDir::new("variant-terrain");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (_, info) = api.get("/api/info").await;
    for v in info["variants"].as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        let shipped = pacw_engine::shipped_named(pacw_engine::SHIPPED_VARIANTS.iter().copied(), name).unwrap();
        let system = pacw_engine::system::CombatSystem::with_variant(shipped.text, shipped.file).unwrap();
        let kinds: Vec<(String, String)> =
            system.terrain_rules().kinds().iter().map(|k| (k.id.clone(), k.letter.to_string())).collect();
        let offered: Vec<(String, String)> = v["terrains"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t["id"].as_str().unwrap().to_string(), t["letter"].as_str().unwrap().to_string()))
            .collect();
        assert_eq!(offered, kinds, "{name}");
        assert_eq!(offered[3], ("sunken_road".to_string(), "S".to_string()), "{name}: the standard six first");
    }
    let variant = include_str!("../../../docs/examples/entrenchments.toml");
    let battle = include_str!("../../../docs/examples/entrenched.toml");
    let check = |text: &str, variant: Option<&str>| {
        let body = match variant {
            Some(v) => json!({"text": text, "file": "b.toml", "variant_text": v, "variant_file": "entrenchments.toml"}),
            None => json!({"text": text, "file": "b.toml"}),
        };
        let api = &api;
        async move { api.post("/api/scenarios/check", body).await.1 }
    };
    let c = check(battle, Some(variant)).await;
    assert_eq!(c["ok"], true, "{c}");
    let trench = json!({"id": "trench", "name": "entrenchments", "letter": "E", "cover": true, "blocks_sight": false,
                        "movement": "entering ends the move", "impassable": false});
    assert_eq!(c["terrains"][6], trench, "{c}");
    assert_eq!(c["scenario"]["map"]["squares"][18]["terrain"], "trench", "c3, in row 3's entrenchments");
    // Without the file the server cannot read the variant the battle names; a text that fails still gets the kinds.
    let alone = check(battle, None).await;
    assert!(alone["message"].as_str().unwrap().contains("entrenchments.toml"), "{alone}");
    assert!(alone["terrains"].is_null());
    let broken = check(&battle.replacen("turns = 6", "turns = 0", 1), Some(variant)).await;
    assert_eq!((broken["ok"].as_bool(), &broken["terrains"][6]), (Some(false), &trench), "{broken}");
    // A broken variant file is refused at its own line.
    let bad = check(battle, Some("name = \"V\"\n[[terrain]]\nid = \"x\"\nletter = \"#\"\n")).await;
    assert_eq!(bad["ok"], false);
    assert!(bad["message"].as_str().unwrap().contains("entrenchments.toml:4:"), "{bad}");
    // A game made from the same two is played by the file, once: the battle names it, as the editor writes it.
    let created = api
        .create(json!({"scenario_text": battle, "scenario_file": "b.toml", "mode": "hotseat",
                       "variant_text": variant, "variant_file": "entrenchments.toml"}))
        .await;
    assert_eq!(created["view"]["scenario"]["rules"]["name"], "Entrenchments", "{created}");
}

/// The editor's lists of arms follow the rules as its palette does: each shipped variant's arms from its combat system,
/// and those of a variant file given beside a checked text (docs/examples/skirmishers.toml: the skirmishers).
#[tokio::test]
async fn the_editor_learns_the_arms_of_each_rules() {
    let dir = TempDir::new("variant-arms");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (_, info) = api.get("/api/info").await;
    let ids = |arms: &serde_json::Value| -> Vec<String> {
        arms.as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap().to_string()).collect()
    };
    for v in info["variants"].as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        let shipped = pacw_engine::shipped_named(pacw_engine::SHIPPED_VARIANTS.iter().copied(), name).unwrap();
        let system = pacw_engine::system::CombatSystem::with_variant(shipped.text, shipped.file).unwrap();
        assert_eq!(ids(&v["arms"]), system.arms().iter().map(|a| a.id.clone()).collect::<Vec<_>>(), "{name}");
        assert_eq!(ids(&v["arms"])[..3], ["infantry", "cavalry", "artillery"], "{name}: the standard three first");
    }
    let variant = include_str!("../../../docs/examples/skirmishers.toml");
    let battle = include_str!("../../../docs/examples/skirmish.toml");
    let body = json!({"text": battle, "file": "b.toml", "variant_text": variant, "variant_file": "skirmishers.toml"});
    let (_, c) = api.post("/api/scenarios/check", body).await;
    assert_eq!(c["ok"], true, "{c}");
    let skirmishers = json!({"id": "skirmishers", "name": "Skirmishers", "like": "infantry", "strength": 3,
                             "movement": 2, "range": 3});
    assert_eq!(c["arms"][3], skirmishers, "{c}");
    let (_, alone) = api.post("/api/scenarios/check", json!({"text": battle, "file": "b.toml"})).await;
    assert!(alone["arms"].is_null(), "no file beside it, no arms: {alone}");
}

/// The lobby's option form follows the rules as the editor's lists do: each shipped variant's own to-hit modifiers
/// (`modifier.<id>`) with their names and values, and the options a game under it starts from; those of a variant
/// file given beside a checked text; and a game made with a changed one plays by it.
#[tokio::test]
async fn the_lobby_learns_the_options_of_each_rules() {
    let dir = TempDir::new("variant-options");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (_, info) = api.get("/api/info").await;
    let variant = |name: &str| info["variants"].as_array().unwrap().iter().find(|v| v["name"] == name).unwrap().clone();
    assert_eq!(variant("close-combat")["modifiers"], json!([{"id": "V1", "name": "veteran élan", "value": 1}]));
    // A standard modifier a variant changes is the standard option, not one of its own; its value is where a game
    // under it starts.
    let hard = variant("hard-cover");
    assert_eq!(hard["modifiers"], json!([{"id": "H1", "name": "firing from higher ground", "value": 1}]));
    assert_eq!(hard["options"]["modifier.cover"], "-2", "{hard}");
    assert_eq!(variant("no-cover")["modifiers"], json!([]));
    // The standard rules' terrain says which kinds no unit may enter: the river.
    let format = info["scenario_format"]["terrains"].as_array().unwrap();
    let closed: Vec<&str> =
        format.iter().filter(|t| t["impassable"] == true).map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(closed, ["river"], "{format:?}");
    // A variant file of one's own: its modifiers beside its arms, from a check.
    let own = "name = \"Mine\"\n[[modifiers]]\nid = \"M1\"\nname = \"élan\"\nvalue = 2\nwhen = \"charge\"\n\
               [[modifiers]]\nid = \"cover\"\nvalue = -2\n[[arms]]\nid = \"skirmishers\"\nlike = \"infantry\"\n";
    let body = json!({"text": pacw_engine::DEFAULT_SCENARIO, "file": "b.toml", "variant_text": own, "variant_file": "mine.toml"});
    let (_, c) = api.post("/api/scenarios/check", body).await;
    assert_eq!(c["ok"], true, "{c}");
    assert_eq!(c["modifiers"], json!([{"id": "M1", "name": "élan", "value": 2}]), "{c}");
    assert_eq!(c["arms"][3]["id"], "skirmishers");
    let (_, alone) = api.post("/api/scenarios/check", json!({"text": pacw_engine::DEFAULT_SCENARIO})).await;
    assert!(alone["modifiers"].is_null(), "no file beside it, no modifiers: {alone}");
    // The lobby sends a changed one as an option of the game.
    let created = api
        .create(json!({"scenario": "meeting-engagement", "mode": "hotseat", "variant": "close-combat",
                       "options": {"modifier.V1": "3"}}))
        .await;
    assert_eq!(created["view"]["options"]["modifier.V1"], "3", "{}", created["view"]["options"]);
}

/// The rules page of a game played by a variant: its modifiers, arms and hit results generated from the data in the
/// game's words, above the rules of play; a variant's text is shown as written, never as markup.
#[tokio::test]
async fn a_variant_game_has_its_own_rules_page_generated_from_its_data() {
    let dir = TempDir::new("variant-rules");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let page = |path: String| {
        let http = api.http.clone();
        let url = format!("{}{path}", api.base);
        async move {
            let r = http.get(url).send().await.unwrap();
            (r.status(), r.text().await.unwrap())
        }
    };
    let created =
        api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat", "variant": "close-combat"})).await;
    let t = token(&created, "hotseat");
    assert_eq!(created["view"]["scenario"]["rules"]["terms"]["charge"], "close combat");
    let (s, html) = page(format!("/game/{t}/rules")).await;
    assert_eq!(s, StatusCode::OK);
    for words in ["Close combat", "V1", "veteran élan", "+1", "no effect", "id=\"R6.4\""] {
        assert!(html.contains(words), "{words} missing from the page");
    }
    assert!(html.contains("“charge” is called “close combat”"), "the game's words");
    // The row of fire at a steady unit: no effect when the roll is at most the strength.
    assert!(html.contains("<td>steady</td><td>fire</td><td>no effect</td><td>shaken</td>"), "{html}");
    // A shipped variant's page by name; a standard game's rules are the rules of play.
    let (s, shipped) = page("/rules/close-combat".into()).await;
    assert_eq!(s, StatusCode::OK);
    assert!(shipped.contains("veteran élan"));
    let plain = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let (_, standard) = page(format!("/game/{}/rules", token(&plain, "hotseat"))).await;
    assert!(!standard.contains("this-game") && standard.contains("id=\"R6.4\""));
    // An uploaded variant with an arm of its own and markup in its words.
    let text = "name = \"<script>alert(1)</script>\"\ndescription = \"a | b *c*\"\n[[arms]]\nid = \"skirmishers\"\n\
                name = \"Skirmishers\"\nlike = \"infantry\"\nstrength = 2\nmove = 2\nrange = 2\n";
    let mine = api.create(json!({"scenario": "bloody-lane", "mode": "hotseat", "variant_text": text})).await;
    let (_, html) = page(format!("/game/{}/rules", token(&mine, "hotseat"))).await;
    assert!(!html.contains("<script>alert"), "a variant's text is never markup");
    assert!(html.contains("&lt;script&gt;") || html.contains("&#60;script&#62;"), "{html}");
    assert!(html.contains("<td>skirmishers</td><td>Skirmishers</td><td>infantry</td><td>2</td><td>2</td><td>2</td>"));
    // A unit of the variant's own arm is shown as the arm it acts as, and named by its own.
    let battle = pacw_engine::DEFAULT_SCENARIO.replacen("arm = \"infantry\"", "arm = \"skirmishers\"", 1);
    let created = api
        .create(json!({"scenario_text": battle, "scenario_file": "b.toml", "mode": "hotseat", "variant_text": text}))
        .await;
    let units = created["view"]["units"].as_array().unwrap();
    let own: Vec<&Value> = units.iter().filter(|u| u["own_arm"] == "skirmishers").collect();
    assert_eq!(own.len(), 1, "{units:?}");
    assert_eq!(
        (own[0]["arm"].as_str(), own[0]["strength"].as_u64()),
        (Some("infantry"), Some(3)),
        "strength 2, and 1 for a veteran"
    );
    let (s, _) = page("/game/0123456789abcdef0123456789abcdef/rules".into()).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_replay_step_is_written_in_digits_alone() {
    let dir = TempDir::new("replay-sign");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(json!({"scenario": "meeting-engagement", "mode": "hotseat"})).await;
    let t = token(&created, "hotseat");
    let v = api.view(&t).await;
    let i = find(&v, is_activate).unwrap();
    let (s, _) = api.act(&t, json!({"index": i})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, one) = api.get(&format!("/api/play/{t}/replay/1")).await;
    assert_eq!(s, StatusCode::OK, "{one}");
    // `+1` once answered as `1`: one step, two addresses. A sign is refused, saying what is expected.
    for signed in ["+1", "%2B1", "-0", "1e0"] {
        let (s, e) = api.get(&format!("/api/play/{t}/replay/{signed}")).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{signed}: {e}");
        assert!(e["error"].as_str().unwrap().contains("digits alone"), "{signed}: {e}");
    }
    server.stop().await;
}

/// Sends a GET whose one header holds `size` bytes, over a raw connection; the status line of the answer.
async fn with_header_of(addr: std::net::SocketAddr, size: usize) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request =
        format!("GET /api/info HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\nConnection: close\r\n\r\n", "a".repeat(size));
    // The server may answer and close before it has read all of it: what is left unwritten does not matter.
    let (mut read, mut write) = s.split();
    let writing = async {
        let _ = write.write_all(request.as_bytes()).await;
    };
    let reading = async {
        let mut got = Vec::new();
        let _ = read.read_to_end(&mut got).await;
        got
    };
    let ((), got) = tokio::join!(writing, reading);
    String::from_utf8_lossy(&got).lines().next().unwrap_or("").to_string()
}

#[tokio::test]
async fn headers_past_32_kib_are_refused_with_431() {
    let dir = TempDir::new("headers");
    let server = start(&dir.0).await;
    let addr = server.addr();
    assert!(with_header_of(addr, 16 * 1024).await.starts_with("HTTP/1.1 200"), "16 KiB of headers are fine");
    let status = with_header_of(addr, 200 * 1024).await;
    assert!(status.starts_with("HTTP/1.1 431"), "200 KiB of headers: {status}");
    // The server goes on answering.
    assert!(with_header_of(addr, 10).await.starts_with("HTTP/1.1 200"));
    server.stop().await;
}

/// Creates hot-seat games as forwarded for `client` until one is refused; how many were made (at most `most`).
async fn games_made_for(api: &Api, client: &str, most: usize) -> usize {
    for made in 0..most {
        let r = api
            .http
            .post(format!("{}/api/games", api.base))
            .header("x-forwarded-for", client)
            .json(&json!({"scenario": "meeting-engagement", "mode": "hotseat"}))
            .send()
            .await
            .unwrap();
        if r.status() == StatusCode::TOO_MANY_REQUESTS {
            return made;
        }
        assert_eq!(r.status(), StatusCode::CREATED);
    }
    most
}

#[tokio::test]
async fn a_trusted_proxy_names_the_client_and_anyone_else_is_its_own_address() {
    // 6 games an hour: 10 at once (the least burst) for each client.
    let dir = TempDir::new("proxy-trusted");
    let trusted =
        ServerConfig { games_per_hour: 6, trusted_proxies: vec!["127.0.0.0/8".parse().unwrap()], ..config(&dir.0) };
    let server = Server::bind(trusted).await.unwrap().spawn();
    let api = Api::new(&server);
    // The tests connect from 127.0.0.1, trusted here: each forwarded client has an allowance of its own.
    assert_eq!(games_made_for(&api, "203.0.113.5", 20).await, 10);
    assert_eq!(games_made_for(&api, "203.0.113.6", 20).await, 10);
    // A hop the client wrote before the proxy's own does not get it a new allowance.
    assert_eq!(games_made_for(&api, "198.51.100.1, 203.0.113.5", 20).await, 0);
    server.stop().await;

    let dir = TempDir::new("proxy-untrusted");
    let untrusted =
        ServerConfig { games_per_hour: 6, trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()], ..config(&dir.0) };
    let server = Server::bind(untrusted).await.unwrap().spawn();
    let api = Api::new(&server);
    // 127.0.0.1 is no trusted proxy: what it forwards is ignored, and all its games are its own.
    assert_eq!(games_made_for(&api, "203.0.113.5", 20).await, 10);
    assert_eq!(games_made_for(&api, "203.0.113.6", 20).await, 0);
    server.stop().await;
}
