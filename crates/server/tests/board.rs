//! What the board asks the server (docs/api.md): a selected unit's orders before its activation, why a square or
//! an enemy is refused, an order explained, activation and order as two guarded decisions with one Undo, resigning
//! and a rematch, the games' summaries and the rules page.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Blue cavalry on b2 with Grey infantry on c3 (whose zone of control covers b3 and c2), Blue guns on e1 with
/// woods on e4 between them and Grey's reserve on e5, and a river on a1.
const BOARD: &str = r#"
name = "Board test"
turns = 30
[map]
terrain = """
......
......
....W.
......
......
~.....
"""
[[sides]]
id = "blue"
name = "Blue"
home = "south"
[[sides]]
id = "grey"
name = "Grey"
home = "north"
counter = "darkred"
[[units]]
side = "blue"
name = "Horse"
arm = "cavalry"
at = "b2"
facing = "N"
[[units]]
side = "blue"
name = "Guns"
arm = "artillery"
at = "e1"
facing = "N"
[[units]]
side = "grey"
name = "Foot"
arm = "infantry"
at = "c3"
facing = "S"
[[units]]
side = "grey"
name = "Reserve"
arm = "infantry"
at = "e5"
facing = "S"
"#;

/// A hot-seat game of the board, brought to Blue choosing a unit on a card of at least `left` activations.
async fn blue_to_choose(api: &Api, left: u64) -> (String, Value) {
    let created = api.create(json!({"scenario_text": BOARD, "scenario_file": "board.toml", "mode": "hotseat"})).await;
    let t = token(&created, "hotseat");
    for _ in 0..200 {
        let v = api.view(&t).await;
        let enough = v["activations_left"].as_u64().is_some_and(|n| n >= left);
        if v["active_side"] == "A" && v["active_unit"].is_null() && enough && find(&v, is_activate).is_some() {
            return (t, v);
        }
        let end = find(&v, |a| a == "end_activations").expect("the side to act may end its activations");
        let (s, r) = api.act(&t, json!({"index": end})).await;
        assert_eq!(s, StatusCode::OK, "{r}");
    }
    panic!("Blue never got a card of {left}");
}

fn rule(refusal: &Value) -> &str {
    refusal["rule"].as_str().unwrap_or_else(|| panic!("no rule in {refusal}"))
}

#[tokio::test]
async fn a_unit_selected_before_activation_shows_its_orders_paths_and_every_refusal_with_its_rule() {
    let dir = TempDir::new("board-orders");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (t, view) = blue_to_choose(&api, 1).await;
    assert_eq!(view["scenario"]["sides"][1]["counter"], "darkred");
    assert_eq!(view["scenario"]["sides"][0]["counter"], "#2b4c7e");
    let (s, horse) = api.get(&format!("/api/play/{t}/units/0")).await;
    assert_eq!(s, StatusCode::OK, "{horse}");
    assert_eq!(horse["can_act"], true);
    assert_eq!(horse["activate"], json!({"activate": 0}));
    assert_eq!(horse["decisions"], view["decisions"]);
    let orders = horse["orders"].as_array().unwrap();
    assert!(orders.iter().any(|o| o["action"] == "hold"));
    let charge = orders
        .iter()
        .find(|o| o["action"] == json!({"move_fire": {"to": "b3", "facing": "E", "target": 2}}))
        .expect("Move & Fire: into b3, face east, charge the foot on c3");
    assert_eq!(charge["odds"]["charge"], true);
    assert!(charge["text"].as_str().unwrap().contains("charge Grey Foot"), "{charge}");
    // Paths: square by square; b3 is next to the enemy, so the move stops there (R5.2).
    assert_eq!(horse["paths"]["a3"], json!(["b2", "a2", "a3"]));
    assert_eq!(horse["paths"]["b3"], json!(["b2", "b3"]));
    let squares = &horse["squares"];
    assert_eq!(rule(&squares["b4"]), "R5.2", "beyond the zone of control: {}", squares["b4"]);
    assert_eq!(rule(&squares["a1"]), "R5.1", "a river: {}", squares["a1"]);
    assert_eq!(rule(&squares["f6"]), "R2.6", "beyond the move: {}", squares["f6"]);
    assert_eq!(rule(&squares["c3"]), "R5.1", "held by an enemy: {}", squares["c3"]);
    assert!(squares.get("b3").is_none() && squares.get("b2").is_none());
    // The foot can be charged after a move, so only the reserve is refused: out of range.
    assert!(horse["enemies"].get("2").is_none());
    assert_eq!(rule(&horse["enemies"]["3"]), "R6.1");
    // Asking changed nothing.
    assert_eq!(api.view(&t).await["decisions"], view["decisions"]);

    // The guns: the reserve is in range, but the woods on e4 block the line (R6.2), drawn from e1 to e5.
    let (_, guns) = api.get(&format!("/api/play/{t}/units/1")).await;
    let refusal = &guns["enemies"]["3"];
    assert_eq!(rule(refusal), "R6.2", "{refusal}");
    assert_eq!(refusal["blocked_at"], "e4");
    let e5 = 4 * 6 + 4;
    assert_eq!(guns["sight"][e5], "e4");
    assert_eq!(guns["sight"][4 * 6 + 3], Value::Null, "e4 itself is seen");
    // Guns never move and fire (R4.3), explained before they are activated.
    let (s, why) = api
        .post(
            &format!("/api/play/{t}/explain"),
            json!({"unit": 1, "action": {"move_fire": {"to": "e2", "facing": "N", "target": 3}}}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{why}");
    assert_eq!((why["legal"].clone(), rule(&why["refusal"])), (json!(false), "R4.3"));
    let (_, ok) = api
        .post(
            &format!("/api/play/{t}/explain"),
            json!({"unit": 0, "action": {"move_fire": {"to": "b3", "facing": "E", "target": 2}}}),
        )
        .await;
    assert_eq!(ok["legal"], true);
    assert_eq!(ok["odds"]["target"], 2);

    // A Grey unit on Blue's card, and a spectator: no orders, and why.
    let (_, foot) = api.get(&format!("/api/play/{t}/units/2")).await;
    assert_eq!(foot["can_act"], false);
    assert_eq!(rule(&foot["refusal"]), "R3.4");
    assert!(foot["refusal"]["reason"].as_str().unwrap().contains("Blue"), "{foot}");
    assert!(foot["orders"].as_array().unwrap().is_empty());
    let created = api.create(json!({"scenario_text": BOARD, "mode": "hotseat"})).await;
    let (_, watching) = api.get(&format!("/api/play/{}/units/0", token(&created, "spectator"))).await;
    assert_eq!(watching["can_act"], false);
    assert!(watching["refusal"]["reason"].as_str().unwrap().contains("spectator"));
    // Bad units are refused plainly.
    assert_eq!(api.get(&format!("/api/play/{t}/units/9")).await.0, StatusCode::NOT_FOUND);
    assert_eq!(api.get(&format!("/api/play/{t}/units/x")).await.0, StatusCode::BAD_REQUEST);
    server.stop().await;
}

#[tokio::test]
async fn activation_and_order_go_as_two_guarded_decisions_and_one_undo_takes_both_back() {
    let dir = TempDir::new("board-undo");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let (t, view) = blue_to_choose(&api, 2).await;
    let n = view["decisions"].as_u64().unwrap();
    let (s, r) = api.act(&t, json!({"action": {"activate": 0}, "decisions": n})).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    // A stale second decision is refused.
    let stale = api.act(&t, json!({"action": {"move": {"to": "a3", "facing": "N"}}, "decisions": n})).await;
    assert_eq!(stale.0, StatusCode::CONFLICT);
    let (s, r) = api.act(&t, json!({"action": {"move": {"to": "a3", "facing": "N"}}, "decisions": n + 1})).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let v = api.view(&t).await;
    assert_eq!(v["units"][0]["at"], "a3");
    assert_eq!(v["units"][0]["activated_this_card"], true);
    assert_eq!(v["undo"]["last_order"], 2, "{}", v["undo"]);
    let (s, back) = api.post(&format!("/api/play/{t}/undo"), json!({"count": v["undo"]["last_order"]})).await;
    assert_eq!(s, StatusCode::OK, "{back}");
    assert_eq!(back["decisions"].as_u64(), Some(n));
    assert_eq!(back["units"][0]["at"], "b2");
    assert_eq!(back["units"][0]["activated_this_card"], false);
    // An activation alone is taken back alone.
    api.act(&t, json!({"action": {"activate": 0}})).await;
    assert_eq!(api.view(&t).await["undo"]["last_order"], 1);
    server.stop().await;
}

#[tokio::test]
async fn a_player_resigns_the_game_ends_and_a_rematch_swaps_the_sides() {
    let dir = TempDir::new("board-resign");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api
        .create(json!({"scenario": "meeting-engagement", "mode": "computer", "human_side": "A", "computer": "random"}))
        .await;
    let t = token(&created, "A");
    let spectator = token(&created, "spectator");
    assert_eq!(api.post(&format!("/api/play/{spectator}/resign"), json!({})).await.0, StatusCode::FORBIDDEN);
    let other = api.post(&format!("/api/play/{t}/resign"), json!({"side": "B"})).await;
    assert_eq!(other.0, StatusCode::FORBIDDEN, "a side's link resigns only its own side");
    let (s, v) = api.post(&format!("/api/play/{t}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["winner"], "B");
    assert_eq!(v["result"]["reason"], json!({"resigned": "A"}));
    let last = v["log"].as_array().unwrap().last().unwrap();
    assert!(last["text"].as_str().unwrap().contains("Union resigns"), "{last}");
    assert_eq!(api.post(&format!("/api/play/{t}/resign"), json!({})).await.0, StatusCode::CONFLICT);
    assert_eq!(api.act(&t, json!({"index": 0})).await.0, StatusCode::CONFLICT);
    let (_, summary) = api.get(&format!("/api/play/{t}/summary")).await;
    assert_eq!((summary["status"].clone(), summary["role"].clone()), (json!("finished"), json!("A")));
    assert!(summary.get("tokens").is_none(), "a summary holds no token");
    // The save records the resignation; the replay ends with it.
    let (s, save) = api.get(&format!("/api/play/{t}/save")).await;
    assert_eq!((s, save["resigned"].clone()), (StatusCode::OK, json!("A")));
    let (_, replay) = api.get(&format!("/api/play/{t}/replay")).await;
    assert_eq!(replay["end"][0]["event"]["event"], "game_over");

    // The rematch: the same scenario and options, the person now plays the second side against the same computer.
    let (s, again) = api.post(&format!("/api/play/{t}/rematch"), json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{again}");
    assert_eq!(again["you"], "B");
    let v2 = api.view(&token(&again, "B")).await;
    assert_eq!(v2["players"][0]["computer"], "random");
    assert_eq!(v2["players"][1]["kind"], "human");
    assert_eq!(v2["scenario"]["name"], "meeting-engagement");
    assert_eq!(v2["options"], v["options"]);
    server.stop().await;

    // A restarted server keeps the resignation.
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let v = api.view(&t).await;
    assert_eq!(v["result"]["reason"], json!({"resigned": "A"}));
    server.stop().await;
}

#[tokio::test]
async fn the_rules_page_has_a_section_for_every_rule_the_engine_cites() {
    let dir = TempDir::new("board-rules");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let page = api.http.get(format!("{}/rules", api.base)).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    let mut cited = std::collections::BTreeSet::new();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/src");
    let mut stack = vec![src];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let text = std::fs::read_to_string(&path).unwrap();
                cited.extend(rule_ids(&text));
            }
        }
    }
    assert!(cited.len() > 40, "{cited:?}");
    for id in &cited {
        assert!(html.contains(&format!("id=\"{id}\"")), "the rules page has no section {id}");
    }
    for page in ["guide", "format"] {
        let r = api.http.get(format!("{}/{page}", api.base)).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        assert!(r.text().await.unwrap().contains("<h1>"));
    }
    server.stop().await;
}

/// Every rule id cited in a text: `R` and a section number, optionally `.n` and a part letter (R6.3c).
fn rule_ids(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for i in 0..bytes.len() {
        let starts = bytes[i] == b'R' && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric());
        if !starts {
            continue;
        }
        let mut j = i + 1;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        if j == i + 1 {
            continue;
        }
        if j + 1 < bytes.len() && bytes[j] == b'.' && bytes[j + 1].is_ascii_digit() {
            j += 1;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            if j < bytes.len()
                && bytes[j].is_ascii_lowercase()
                && !bytes.get(j + 1).is_some_and(u8::is_ascii_alphabetic)
            {
                j += 1;
            }
        }
        if bytes.get(j).is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_') {
            continue; // an identifier, not a rule
        }
        out.push(text[i..j].to_string());
    }
    out
}
