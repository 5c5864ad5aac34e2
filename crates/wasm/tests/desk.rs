//! The desk answers as the server's API does: a whole game against the computer, its save replayed by the engine to
//! the same events, its review, and every bad request refused in words.

use pacw_engine::Game;
use pacw_wasm::Desk;
use serde_json::{Value, json};

fn ok(desk: &mut Desk, request: Value) -> Value {
    let reply: Value = serde_json::from_str(&desk.call(&request.to_string())).expect("a reply is JSON");
    assert!(reply.get("error").is_none(), "{request}: {reply}");
    reply["ok"].clone()
}

fn refused(desk: &mut Desk, request: &str) -> (u64, String) {
    let reply: Value = serde_json::from_str(&desk.call(request)).expect("a reply is JSON");
    (reply["status"].as_u64().expect("a status"), reply["error"].as_str().expect("a reason").to_string())
}

/// Plays a game against the computer to its end: the person takes the first legal action, the computer its own.
fn play_out(desk: &mut Desk, id: &str) -> Value {
    for _ in 0..5000 {
        let view = ok(desk, json!({"op": "view", "id": id}));
        if view["result"].is_object() {
            return view;
        }
        if view["to_act"]["computer"] == true {
            let update = ok(desk, json!({"op": "computer", "id": id}));
            assert_eq!((update["kind"].as_str(), update["computer"].as_bool()), (Some("action"), Some(true)));
            assert_eq!(update["decisions"], view["decisions"].as_u64().unwrap() + 1);
        } else {
            assert_eq!(view["your_turn"], true, "{}", view["to_act"]);
            let decisions = view["decisions"].clone();
            ok(desk, json!({"op": "act", "id": id, "index": 0, "decisions": decisions}));
        }
    }
    panic!("the game did not end in 5000 decisions");
}

#[test]
fn a_game_against_the_computer_is_played_out_saved_and_replays_to_the_same_events() {
    let mut desk = Desk::default();
    let created = ok(
        &mut desk,
        json!({"op": "create", "id": "g", "scenario": "meeting-engagement", "mode": "computer", "human_side": "B",
               "computer": "greedy", "seed": "18446744073709551615"}),
    );
    assert_eq!(created["view"]["role"], "B");
    assert_eq!(created["view"]["players"][0]["kind"], "computer");
    let end = play_out(&mut desk, "g");
    let text = ok(&mut desk, json!({"op": "save", "id": "g"}))["text"].as_str().unwrap().to_string();
    let save: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(save["players"], json!(["greedy", "human"]));
    assert_eq!(save["seed"].as_u64(), Some(u64::MAX), "the seed is kept whole");
    // The engine (as `pacw replay` and the server read it) replays the save to the very same events.
    let game = Game::load(&text).expect("the save loads");
    let events: Vec<Value> = game.log().iter().map(|e| serde_json::to_value(e).unwrap()).collect();
    let shown: Vec<Value> = end["log"].as_array().unwrap().iter().map(|e| e["event"].clone()).collect();
    assert_eq!(events, shown);
    // Loaded again (as the browser does from its saved games), it is the same game, the computer's side its own.
    let loaded = ok(&mut desk, json!({"op": "load", "id": "again", "save": text}));
    assert_eq!(loaded["view"]["mode"], "computer");
    assert_eq!(loaded["view"]["log"], end["log"]);
    assert_eq!(loaded["view"]["result"], end["result"]);
    // Its replay has every decision, and a past view is the game as it was.
    let replay = ok(&mut desk, json!({"op": "replay", "id": "again"}));
    assert_eq!(replay["decisions"], end["decisions"]);
    let first = ok(&mut desk, json!({"op": "replay_at", "id": "again", "decision": 1}));
    assert_eq!((first["decisions"].as_u64(), first["replay"]["decision"].as_u64()), (Some(1), Some(1)));
    // A rematch: the same battle and computer, the sides swapped.
    let rematch = ok(&mut desk, json!({"op": "rematch", "id": "again", "new_id": "next", "seed": "9"}));
    assert_eq!((rematch["you"].as_str(), rematch["view"]["decisions"].as_u64()), (Some("A"), Some(0)));
    assert_eq!(rematch["view"]["players"][1]["computer"], "greedy");
}

#[test]
fn a_finished_game_is_reviewed_a_few_decisions_at_a_time() {
    let mut desk = Desk::default();
    ok(
        &mut desk,
        json!({"op": "create", "id": "r", "scenario": "meeting-engagement", "mode": "computer",
                          "computer": "random", "seed": "3"}),
    );
    let (status, why) = refused(&mut desk, r#"{"op":"start_review","id":"r"}"#);
    assert_eq!(status, 409, "{why}");
    play_out(&mut desk, "r");
    assert_eq!(ok(&mut desk, json!({"op": "review", "id": "r"}))["state"], "none");
    let mut reply = ok(&mut desk, json!({"op": "start_review", "id": "r"}));
    let mut steps = 0;
    while reply["state"] == "running" {
        reply = ok(&mut desk, json!({"op": "review_step", "id": "r", "decisions": 8}));
        steps += 1;
        assert!(steps < 10_000);
    }
    assert_eq!(reply["state"], "done");
    assert!(reply["review"]["steps"].is_array(), "{}", reply["review"]);
}

#[test]
fn hot_seat_plays_both_sides_and_takes_back_a_decision() {
    let mut desk = Desk::default();
    let view = ok(
        &mut desk,
        json!({"op": "create", "id": "h", "scenario": "meeting-engagement", "mode": "hotseat",
                                     "seed": "11"}),
    )["view"]
        .clone();
    assert_eq!((view["role"].as_str(), view["your_turn"].as_bool()), (Some("hotseat"), Some(true)));
    let unit = view["legal_actions"][0]["unit"].as_u64().unwrap();
    let orders = ok(&mut desk, json!({"op": "unit", "id": "h", "unit": unit}));
    assert_eq!(orders["can_act"], true);
    let after = ok(&mut desk, json!({"op": "act", "id": "h", "action": orders["activate"], "decisions": 0}));
    assert_eq!(after["decisions"], 1);
    let back = ok(&mut desk, json!({"op": "undo", "id": "h", "count": 1, "decisions": 1}));
    assert_eq!(back["decisions"], 0);
}

#[test]
fn bad_requests_are_refused_in_words() {
    let mut desk = Desk::default();
    let create = |mode: &str, seed: &str| {
        format!(r#"{{"op":"create","id":"x","scenario":"meeting-engagement","mode":"{mode}","seed":"{seed}"}}"#)
    };
    for (request, status, words) in [
        ("not json".to_string(), 400, "bad request"),
        (r#"{"op":"fly","id":"x"}"#.to_string(), 400, "bad request"),
        (r#"{"op":"view","id":"nowhere"}"#.to_string(), 404, "no game"),
        (create("two_players", "1"), 422, "needs a server"),
        (create("hotseat", "-1"), 400, "seed"),
        (r#"{"op":"create","id":"x","scenario":"atlantis","mode":"hotseat","seed":"1"}"#.to_string(), 404, "atlantis"),
        (r#"{"op":"load","id":"x","save":"{}"}"#.to_string(), 422, "cannot be opened"),
        ("x".repeat(pacw_wasm::MAX_REQUEST + 1), 413, "larger"),
    ] {
        let (got, why) = refused(&mut desk, &request);
        assert_eq!(got, status, "{why}");
        assert!(why.contains(words), "{why}");
    }
    // A scenario checked as the server checks it: each problem with its line.
    let checked = ok(&mut desk, json!({"op": "check", "text": "[map]\nwidth = 2\n", "file": "mine.toml"}));
    assert_eq!((checked["ok"].as_bool(), checked["file"].as_str()), (Some(false), Some("mine.toml")));
    assert!(!checked["problems"].as_array().unwrap().is_empty());
    // With a variant file of one's own beside it (the editor's rules): the battle is read by its map letters.
    let entrenched = json!({"op": "check", "text": include_str!("../../../docs/examples/entrenched.toml"),
        "variant_text": include_str!("../../../docs/examples/entrenchments.toml"), "variant_file": "entrenchments.toml"});
    let checked = ok(&mut desk, entrenched);
    assert_eq!((checked["ok"].as_bool(), &checked["terrains"][6]["letter"]), (Some(true), &json!("E")), "{checked}");
    let variant = r#"{"op":"create","id":"v","scenario":"meeting-engagement","mode":"hotseat","seed":"1","variant_text":"[oops"}"#;
    let (status, why) = refused(&mut desk, variant);
    assert_eq!(status, 422, "{why}");
    ok(&mut desk, serde_json::from_str(&create("hotseat", "1")).unwrap());
    let (status, why) = refused(&mut desk, r#"{"op":"unit","id":"x","unit":200}"#);
    assert_eq!((status, why.contains("no unit 200")), (404, true), "{why}");
    let (status, why) = refused(&mut desk, r#"{"op":"act","id":"x","index":9999}"#);
    assert_eq!(status, 400, "{why}");
    let (status, why) = refused(&mut desk, r#"{"op":"act","id":"x","index":0,"decisions":5}"#);
    assert_eq!(status, 409, "{why}");
    let (status, _) = refused(&mut desk, r#"{"op":"undo","id":"x"}"#);
    assert_eq!(status, 409);
}

#[test]
fn the_computers_decision_made_by_a_second_desk_from_the_save_is_the_one_it_makes_itself() {
    let create = json!({"op": "create", "id": "g", "scenario": "meeting-engagement", "mode": "computer",
                        "human_side": "B", "computer": "greedy", "seed": "77"});
    let mut alone = Desk::default();
    ok(&mut alone, create.clone());
    let by_itself = play_out(&mut alone, "g");
    // As the browser plays: the games' desk hands the computer's turn to a thinker's desk, which loads the save and
    // decides; the games' desk plays that decision.
    let (mut games, mut thinker, mut follower) = (Desk::default(), Desk::default(), Desk::default());
    ok(&mut games, create);
    let mut handed = 0;
    let mut followed = 0;
    for _ in 0..5000 {
        let view = ok(&mut games, json!({"op": "view", "id": "g"}));
        if view["result"].is_object() {
            break;
        }
        let turn = ok(&mut games, json!({"op": "computer_turn", "id": "g"}));
        if turn.is_null() {
            assert_eq!(view["your_turn"], true);
            ok(&mut games, json!({"op": "act", "id": "g", "index": 0, "decisions": view["decisions"]}));
            continue;
        }
        assert_eq!(turn["decisions"], view["decisions"]);
        ok(&mut thinker, json!({"op": "load", "id": "t", "save": turn["save"]}));
        let chosen = ok(&mut thinker, json!({"op": "computer", "id": "t"}));
        ok(&mut thinker, json!({"op": "forget", "id": "t"}));
        // A follower loads the save once, then is given only the decisions made since, and decides the same.
        let save: Value = serde_json::from_str(turn["save"].as_str().unwrap()).unwrap();
        let actions = save["actions"].as_array().unwrap();
        if followed == 0 {
            ok(&mut follower, json!({"op": "load", "id": "f", "save": turn["save"]}));
        } else {
            let since = &actions[followed..];
            let now = ok(&mut follower, json!({"op": "follow", "id": "f", "decisions": followed, "actions": since}));
            assert_eq!(now["decisions"], turn["decisions"]);
        }
        let decided = ok(&mut follower, json!({"op": "computer", "id": "f"}));
        assert_eq!(decided["action"], chosen["action"], "the follower decides as a desk that loaded the save");
        followed = actions.len() + 1;
        let played = ok(
            &mut games,
            json!({"op": "computer", "id": "g", "action": chosen["action"], "decisions": turn["decisions"]}),
        );
        assert_eq!((&played["action"], &played["computer"]), (&chosen["action"], &json!(true)));
        handed += 1;
    }
    assert!(handed > 10, "the computer decided {handed} times");
    let end = ok(&mut games, json!({"op": "view", "id": "g"}));
    assert_eq!(end["log"], by_itself["log"], "the same game, decision for decision");
    // A decision made for a game that has moved on since is refused, and nothing changes.
    let mut desk = Desk::default();
    ok(
        &mut desk,
        json!({"op": "create", "id": "h", "scenario": "meeting-engagement", "mode": "computer",
                         "human_side": "B", "computer": "greedy", "seed": "77"}),
    );
    let turn = ok(&mut desk, json!({"op": "computer_turn", "id": "h"}));
    let stale =
        json!({"op": "computer", "id": "h", "action": "hold", "decisions": turn["decisions"].as_u64().unwrap() + 1});
    let (status, why) = refused(&mut desk, &stale.to_string());
    assert_eq!(status, 409, "{why}");
    assert_eq!(ok(&mut desk, json!({"op": "computer_turn", "id": "h"}))["decisions"], turn["decisions"]);
    // Decisions to follow from another count, or an illegal one among them, are refused, and nothing changes.
    let at = turn["decisions"].as_u64().unwrap();
    for bad in [
        json!({"op": "follow", "id": "h", "decisions": at + 1, "actions": []}),
        json!({"op": "follow", "id": "h", "decisions": at, "actions": ["hold", {"activate": 200}]}),
    ] {
        let (status, why) = refused(&mut desk, &bad.to_string());
        assert_eq!(status, 409, "{why}");
        assert_eq!(ok(&mut desk, json!({"op": "computer_turn", "id": "h"}))["decisions"], turn["decisions"]);
    }
}

#[test]
fn a_game_played_by_a_variant_of_ones_own_has_its_rules_page_in_the_browser_too() {
    let mut desk = Desk::default();
    let shipped = pacw_engine::SHIPPED_VARIANTS.iter().find(|v| v.name == "close-combat").expect("a shipped variant");
    let own = shipped.text.replacen("name = \"Close combat\"", "name = \"<b>Mine</b>\"", 1);
    assert_ne!(own, shipped.text);
    ok(
        &mut desk,
        json!({"op": "create", "id": "v", "scenario": "meeting-engagement", "mode": "hotseat", "seed": "1",
               "variant_text": own, "variant_file": "mine.toml"}),
    );
    let rules = ok(&mut desk, json!({"op": "rules", "id": "v"}));
    assert!(rules["title"].as_str().unwrap().contains("<b>Mine</b>"), "the title is text, escaped where it is shown");
    let html = rules["html"].as_str().unwrap();
    assert!(html.contains("&lt;b&gt;Mine&lt;/b&gt;") || html.contains("&#60;b&#62;Mine"), "{}", &html[..400]);
    assert!(!html.contains("<b>Mine"), "the variant's words are shown as written, never as markup");
    assert!(html.contains("id=\"this-game-modifiers\"") && html.contains("id=\"R6.4\""));
    // The standard rules' game: the rules of play alone.
    ok(&mut desk, json!({"op": "create", "id": "s", "scenario": "meeting-engagement", "mode": "hotseat", "seed": "1"}));
    let plain = ok(&mut desk, json!({"op": "rules", "id": "s"}));
    assert_eq!(plain["title"], "The rules of play");
    assert!(!plain["html"].as_str().unwrap().contains("this-game"));
}

/// As the server: a variant of one's own is laid over the battle's own (docs/variants.md, "Variants that combine"),
/// a bad one is refused at its line and column with no game made, and the save, a rematch and the rules page keep
/// the rules laid together.
#[test]
fn a_variant_of_ones_own_is_laid_over_the_battles_own_in_the_browser_too() {
    let mut desk = Desk::default();
    let battle = format!("variant = \"close-combat\"\n{}", pacw_engine::DEFAULT_SCENARIO);
    let smoke = "name = \"Smoke\"\n[[modifiers]]\nid = \"S1\"\nname = \"smoke\"\nvalue = -1\nwhen = \"not charge\"\n";
    let create = |id: &str, variant_text: &str| {
        json!({"op": "create", "id": id, "scenario_text": battle, "scenario_file": "b.toml", "mode": "hotseat",
               "seed": "1", "variant_text": variant_text, "variant_file": "smoke.toml"})
    };
    let created = ok(&mut desk, create("l", smoke));
    let rules = &created["view"]["scenario"]["rules"];
    assert_eq!(rules["name"], "Close combat + Smoke", "{rules}");
    let ids: Vec<&str> = rules["modifiers"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"V1") && ids.contains(&"S1"), "{ids:?}");
    let page = ok(&mut desk, json!({"op": "rules", "id": "l"}));
    assert!(page["html"].as_str().unwrap().contains("smoke"), "the rules page shows the upload's modifier");
    let (status, why) = refused(&mut desk, &create("bad", &smoke.replace("not charge", "not charj")).to_string());
    assert_eq!(status, 422, "{why}");
    assert!(why.contains("smoke.toml:6:"), "{why}");
    assert!(refused(&mut desk, &json!({"op": "view", "id": "bad"}).to_string()).0 == 404, "no game was made");
    ok(&mut desk, json!({"op": "resign", "id": "l"}));
    let save: Value =
        serde_json::from_str(ok(&mut desk, json!({"op": "save", "id": "l"}))["text"].as_str().unwrap()).unwrap();
    assert_eq!(save["variant"]["file"], "close-combat.toml + smoke.toml");
    let rematch = ok(&mut desk, json!({"op": "rematch", "id": "l", "new_id": "r", "seed": "2"}));
    assert_eq!(rematch["view"]["scenario"]["rules"], created["view"]["scenario"]["rules"]);
}
