//! A database written by an earlier version keeps every game after an upgrade: the fixture of 2026-12-01 (a game of
//! each mode, one resigned, one finished) is opened by today's server and every game is there as it was.

mod common;

use common::*;
use serde_json::Value;

#[tokio::test]
async fn the_database_of_2026_12_01_opens_with_every_game() {
    let dir = TempDir::new("upgrade");
    std::fs::create_dir_all(&dir.0).unwrap();
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::copy(here.join("games-2026-12-01.sqlite3"), dir.0.join("pacw.sqlite3")).unwrap();
    let facts: Value =
        serde_json::from_str(&std::fs::read_to_string(here.join("games-2026-12-01.json")).unwrap()).unwrap();
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    for (mode, decisions, reason) in [
        ("hotseat", 40, Value::Null),
        ("computer", 62, Value::Null),
        ("two_players", 2, serde_json::json!({"resigned": "A"})),
        ("watch", 402, serde_json::json!("turn_limit")),
    ] {
        let token = facts["tokens"][mode]["spectator"].as_str().unwrap();
        let v = api.view(token).await;
        assert_eq!(v["id"], facts[mode], "{mode}");
        assert!(v["decisions"].as_u64().unwrap() >= decisions, "{mode}: {}", v["decisions"]);
        if reason.is_null() {
            assert!(v["result"].is_null() || mode == "computer", "{mode}");
        } else {
            assert_eq!(v["result"]["reason"], reason, "{mode}");
            assert_eq!(v["decisions"], decisions, "{mode}");
        }
    }
    server.stop().await;
}
