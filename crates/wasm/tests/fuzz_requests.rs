//! Bad input never panics: the desk given arbitrary text, and requests of every op with arbitrary fields on a game
//! under way, answers each with `{"ok": …}` or a refusal in words with a status, and the game stays playable.
//! Bounded case counts, run by `cargo test`.

use pacw_wasm::Desk;
use proptest::prelude::*;
use serde_json::{Value, json};

const OPS: [&str; 23] = [
    "check",
    "create",
    "load",
    "view",
    "unit",
    "explain",
    "act",
    "computer",
    "computer_turn",
    "follow",
    "undo",
    "resign",
    "replay",
    "replay_at",
    "save",
    "summary",
    "review",
    "start_review",
    "review_step",
    "rematch",
    "forget",
    "rules",
    "fly",
];

/// The reply is JSON: the answer, or a refusal with its words and an HTTP status.
fn well_formed(reply: &str) -> Value {
    let v: Value = serde_json::from_str(reply).expect("every reply is JSON");
    if v.get("ok").is_none() {
        let status = v["status"].as_u64().expect("a refusal has a status");
        assert!((400..600).contains(&status), "{v}");
        assert!(!v["error"].as_str().expect("a refusal has words").is_empty());
    }
    v
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..300).prop_map(Value::from),
        "[a-z0-9=_.-]{0,12}".prop_map(Value::from),
        Just(json!("g")),
        Just(json!("end_activations")),
        Just(json!({"activate": 1})),
        Just(json!({"move": {"to": "c3", "facing": "N"}})),
        Just(json!(["to_hit=4", "turns=x"])),
        // The rules of a new game: a battle that names a variant, and variants laid over it.
        Just(json!(format!("variant = \"close-combat\"\n{}", pacw_engine::DEFAULT_SCENARIO))),
        Just(json!("close-combat")),
        Just(json!("name = \"V\"\n[[modifiers]]\nid = \"V1\"\nvalue = 3\n")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_is_refused_in_words(text in "\\PC{0,200}") {
        let mut desk = Desk::default();
        well_formed(&desk.call(&text));
    }

    #[test]
    fn arbitrary_requests_on_a_game_never_panic(requests in prop::collection::vec(
        (0..OPS.len(), prop::collection::vec(
            (prop::sample::select(vec!["id", "text", "file", "unit", "action", "index", "decisions", "count", "log_from", "decision",
                                       "save", "seed", "mode", "scenario", "options", "new_id", "human_side",
                                       "scenario_text", "variant", "variant_text"]),
             value()), 0..5)),
        1..12)) {
        let mut desk = Desk::default();
        let created = well_formed(&desk.call(
            r#"{"op":"create","id":"g","scenario":"meeting-engagement","mode":"computer","computer":"random","seed":"5"}"#,
        ));
        prop_assert!(created.get("ok").is_some());
        for (op, fields) in requests {
            let mut request = json!({ "op": OPS[op] });
            for (k, v) in fields {
                request[k] = v;
            }
            well_formed(&desk.call(&request.to_string()));
        }
        // Whatever was asked, the game is still there and answers.
        let view = well_formed(&desk.call(r#"{"op":"view","id":"g"}"#));
        prop_assert!(view.get("ok").is_some() || view["status"] == 404);
    }
}
