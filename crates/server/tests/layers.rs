//! Variants that combine in the web API (docs/api.md `variant`, docs/variants.md "Variants that combine"): a chosen
//! or uploaded variant is laid over the battle's own, as the command line's `--variant` is.

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Two infantry brigades two squares apart, in range of each other from the start, in a battle that names the
/// shipped close-combat variant (fire at a steady unit shakes it at most).
const BATTLE: &str = r#"variant = "close-combat"
name = "Two brigades"
turns = 3
[map]
terrain = """
....
....
....
....
"""
[[sides]]
id = "blue"
name = "Blue"
home = "south"
[[sides]]
id = "grey"
name = "Grey"
home = "north"
[[units]]
side = "blue"
arm = "inf"
at = "b1"
[[units]]
side = "grey"
arm = "inf"
at = "b3"
"#;

/// A layer of the player's own: a to-hit modifier on every fire.
const SMOKE: &str =
    "name = \"Smoke\"\n[[modifiers]]\nid = \"S1\"\nname = \"smoke\"\nvalue = -1\nwhen = \"not charge\"\n";

fn new_game(variant: Value) -> Value {
    let mut request = json!({"scenario_text": BATTLE, "scenario_file": "two.toml", "mode": "hotseat"});
    for (k, v) in variant.as_object().unwrap() {
        request[k] = v.clone();
    }
    request
}

/// The odds of the first fire order of the first unit that may act.
async fn first_fire_odds(api: &Api, token: &str) -> Value {
    let view = api.view(token).await;
    let i = find(&view, is_activate).expect("a unit to activate");
    let (s, view) = api.act(token, json!({"index": i})).await;
    assert_eq!(s, StatusCode::OK, "{view}");
    let fire = view["legal_actions"].as_array().unwrap().iter().find(|a| a["action"].get("fire").is_some());
    fire.unwrap_or_else(|| panic!("no fire order in {}", view["legal_actions"]))["odds"].clone()
}

fn modifier_ids(odds: &Value) -> Vec<String> {
    odds["modifiers"].as_array().unwrap().iter().map(|m| m["rule"].as_str().unwrap_or("").to_string()).collect()
}

#[tokio::test]
async fn an_uploaded_variant_is_laid_over_the_battles_own() {
    let dir = TempDir::new("layers");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(new_game(json!({"variant_text": SMOKE, "variant_file": "smoke.toml"}))).await;
    let rules = &created["view"]["scenario"]["rules"];
    assert_eq!(rules["name"], "Close combat + Smoke", "{rules}");
    let ids: Vec<&str> = rules["modifiers"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"V1") && ids.contains(&"S1"), "a modifier of each layer: {ids:?}");
    assert_eq!(rules["results"]["steady_fire"][0], "none", "the battle's own table: {rules}");
    assert_eq!(rules["terms"]["charge"], "close combat");
    // The files in order, and which wrote each rule.
    assert_close_combat_then_smoke(rules);
    assert_eq!(rules["from"]["results"]["steady_fire"], "close-combat.toml", "{rules}");
    // In force: the fire cites the upload's modifier and is worked out by the battle's variant's table.
    let t = token(&created, "hotseat");
    let odds = first_fire_odds(&api, &t).await;
    assert!(modifier_ids(&odds).contains(&"S1".to_string()), "{odds}");
    assert_eq!(odds["fractions"]["destroyed"], "0", "close combat: fire at a steady unit shakes it at most: {odds}");
    assert_eq!(odds["fractions"]["retreat"], "0", "{odds}");
    // The battle alone: no smoke, the same table.
    let own = api.create(new_game(json!({}))).await;
    assert_eq!(own["view"]["scenario"]["rules"]["name"], "Close combat");
    let odds = first_fire_odds(&api, &token(&own, "hotseat")).await;
    assert!(!modifier_ids(&odds).contains(&"S1".to_string()), "{odds}");
}

/// A layer that changes the ground and the hit-result roll: slower woods, a road bonus of 2 and a result
/// modifier on every fire. The game's view says what the game page describes a square and an attack by: the road
/// bonus in force (1 under the standard rules), each terrain kind and the road bonus with the file that wrote it,
/// and the strength the target's roll is tested against beside its own.
#[tokio::test]
async fn the_view_carries_the_ground_and_the_tested_strength_of_the_rules_in_force() {
    let dir = TempDir::new("layers-ground");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let ground = "name = \"Ground\"\n[[terrain]]\nid = \"woods\"\nmove = 2\n[movement]\nroad_bonus = 2\n\
                  [[result_modifiers]]\nid = \"F1\"\nname = \"dug in\"\nvalue = 1\nwhen = \"not charge\"\n";
    let created = api.create(new_game(json!({"variant_text": ground, "variant_file": "ground.toml"}))).await;
    let view = &created["view"]["scenario"];
    assert_eq!(view["map"]["road_bonus"], 2, "{}", view["map"]);
    let rules = &view["rules"];
    assert_eq!(
        (&rules["movement"]["road_bonus"], &rules["from"]["movement"]["road_bonus"]),
        (&json!(2), &json!("ground.toml"))
    );
    let kind = |id: &str| rules["terrain"].as_array().unwrap().iter().find(|k| k["id"] == id).unwrap().clone();
    assert_eq!((kind("woods")["move"].clone(), kind("woods")["from"].clone()), (json!(2), json!("ground.toml")));
    assert_eq!(kind("town")["from"], "standard");
    let arms: Vec<&str> = rules["arms"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap()).collect();
    assert_eq!(arms, ["infantry", "cavalry", "artillery"]);
    let odds = first_fire_odds(&api, &token(&created, "hotseat")).await;
    assert_eq!(odds["result_modifiers"][0]["rule"], "F1", "{odds}");
    assert_eq!(odds["target_strength"], 4, "{odds}");
    assert_eq!(odds["tested_strength"], 5, "the roll is tested at the strength plus F1: {odds}");
    // The battle alone: the standard road bonus, and the roll tested at the strength.
    let own = api.create(new_game(json!({}))).await;
    assert_eq!(own["view"]["scenario"]["map"]["road_bonus"], 1);
    let odds = first_fire_odds(&api, &token(&own, "hotseat")).await;
    assert_eq!((odds["target_strength"].as_u64(), odds["tested_strength"].as_u64()), (Some(4), Some(4)), "{odds}");
    assert!(odds.get("result_modifiers").is_none(), "{odds}");
}

#[tokio::test]
async fn a_layer_may_name_what_the_battles_variant_defines_and_a_bad_one_creates_nothing() {
    let dir = TempDir::new("layers-bad");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    // Read against the rules below it: close combat's V1 is there to change.
    let bolder = "name = \"Bolder\"\n[[modifiers]]\nid = \"V1\"\nvalue = 2\n";
    let created = api.create(new_game(json!({"variant_text": bolder}))).await;
    let v1 = created["view"]["scenario"]["rules"]["modifiers"].as_array().unwrap().iter().find(|m| m["id"] == "V1");
    assert_eq!(v1.unwrap()["value"], 2, "{}", created["view"]["scenario"]["rules"]);
    let (_, before) = api.get("/api/games").await;
    let count = before["games"].as_array().unwrap().len();
    // A mistake at its line and column in the uploaded file; nothing of it applied, no game made.
    let bad = SMOKE.replace("not charge", "not charj");
    let (s, e) = api.post("/api/games", new_game(json!({"variant_text": bad, "variant_file": "smoke.toml"}))).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].as_str().unwrap().contains("smoke.toml:6:"), "{e}");
    let (_, after) = api.get("/api/games").await;
    assert_eq!(after["games"].as_array().unwrap().len(), count, "nothing was created");
    // Its limits count the rules below: eleven new modifiers fit over the standard's five, not over close combat's six.
    let eleven: String =
        (0..11).map(|i| format!("[[modifiers]]\nid = \"M{i}\"\nvalue = 1\nwhen = \"charge\"\n")).collect();
    let many = format!("name = \"Many\"\n{eleven}");
    let alone = api.create(json!({"scenario": "bloody-lane", "mode": "hotseat", "variant_text": many})).await;
    assert_eq!(alone["view"]["scenario"]["rules"]["name"], "Many");
    let (s, e) = api.post("/api/games", new_game(json!({"variant_text": many, "variant_file": "many.toml"}))).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("many.toml:") && e["error"].as_str().unwrap().contains("rules below"),
        "{e}"
    );
}

#[tokio::test]
async fn the_battles_own_variant_chosen_again_is_played_once() {
    let dir = TempDir::new("layers-again");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let again = api.create(new_game(json!({"variant": "close-combat"}))).await;
    assert_eq!(again["view"]["scenario"]["rules"]["name"], "Close combat");
    assert_eq!(again["view"]["scenario"]["variant"], "close-combat");
    let t = token(&again, "hotseat");
    let (s, _) = api.post(&format!("/api/play/{t}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (_, save) = api.get(&format!("/api/play/{t}/save")).await;
    assert_eq!(save["variant"]["file"], "close-combat.toml", "{save}");
    // Another shipped variant is laid over it.
    let both = api.create(new_game(json!({"variant": "hard-cover"}))).await;
    assert_eq!(both["view"]["scenario"]["rules"]["name"], "Close combat + Hard cover");
    assert!(both["view"]["scenario"]["variant"].is_null(), "no one shipped variant says these rules");
}

#[tokio::test]
async fn the_save_and_a_rematch_keep_the_rules_laid_together() {
    let dir = TempDir::new("layers-save");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(new_game(json!({"variant_text": SMOKE, "variant_file": "smoke.toml"}))).await;
    let t = token(&created, "hotseat");
    let odds = first_fire_odds(&api, &t).await;
    let (s, _) = api.post(&format!("/api/play/{t}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (_, save) = api.get(&format!("/api/play/{t}/save")).await;
    assert_eq!(save["variant"]["file"], "close-combat.toml + smoke.toml", "one file that says them all: {save}");
    // It keeps each file too: the save read back is the same rules, each from the same file, and replays by them.
    assert_eq!(save["layers"][1], json!({"file": "smoke.toml", "text": SMOKE}), "{save}");
    let loaded = api.create(json!({"save": save.to_string(), "mode": "hotseat"})).await;
    assert_eq!(loaded["view"]["scenario"]["rules"], created["view"]["scenario"]["rules"]);
    assert_eq!(loaded["view"]["decisions"], 1, "{}", loaded["view"]);
    // The rules page shows the rules laid together.
    let page = api.http.get(format!("{}/game/{t}/rules", api.base)).send().await.unwrap().text().await.unwrap();
    assert!(page.contains("smoke") && page.contains("veteran élan"), "both layers on the rules page");
    assert!(page.contains("<th>from</th>") && page.contains("<td>smoke.toml</td>"), "each rule's file: {page}");
    // A rematch plays by them, not laid over the battle's variant again.
    let (s, rematch) = api.post(&format!("/api/play/{t}/rematch"), json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{rematch}");
    assert_eq!(rematch["view"]["scenario"]["rules"], created["view"]["scenario"]["rules"]);
    let r = token(&rematch, "hotseat");
    let again = first_fire_odds(&api, &r).await;
    assert_eq!((&again["fractions"], &again["modifiers"]), (&odds["fractions"], &odds["modifiers"]), "the same odds");
    let (s, _) = api.post(&format!("/api/play/{r}/resign"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (_, again) = api.get(&format!("/api/play/{r}/save")).await;
    assert_eq!(again["variant"], save["variant"], "the rematch's save keeps the same file");
}

/// Issue 40: a game's rules reloaded from the server's database after a restart still name the files they were laid
/// from and, beside each rule, the file that wrote it, in the view and on the game's rules page.
#[tokio::test]
async fn a_restarted_server_keeps_which_file_wrote_each_rule() {
    let dir = TempDir::new("layers-restart");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let created = api.create(new_game(json!({"variant_text": SMOKE, "variant_file": "smoke.toml"}))).await;
    let t = token(&created, "hotseat");
    first_fire_odds(&api, &t).await;
    let before = api.view(&t).await;
    assert_eq!(before["scenario"]["rules"], created["view"]["scenario"]["rules"]);
    server.stop().await;

    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let after = api.view(&t).await;
    assert_eq!(after["decisions"], 1, "{after}");
    let rules = &after["scenario"]["rules"];
    assert_close_combat_then_smoke(rules);
    assert_eq!(rules, &before["scenario"]["rules"], "the same rules, each from the same file");
    let page = api.http.get(format!("{}/game/{t}/rules", api.base)).send().await.unwrap().text().await.unwrap();
    assert!(page.contains("<td>smoke.toml</td>") && page.contains("<td>close-combat.toml</td>"), "{page}");
    server.stop().await;
}

/// `rules` are close-combat.toml with smoke.toml laid over it: both files in order, and which wrote each modifier.
fn assert_close_combat_then_smoke(rules: &Value) {
    assert_eq!(
        rules["layers"],
        json!([{"file": "close-combat.toml", "name": "Close combat"}, {"file": "smoke.toml", "name": "Smoke"}])
    );
    let from =
        |id: &str| rules["modifiers"].as_array().unwrap().iter().find(|m| m["id"] == id).unwrap()["from"].clone();
    assert_eq!(
        (from("S1"), from("V1"), from("cover")),
        (json!("smoke.toml"), json!("close-combat.toml"), json!("standard"))
    );
}
