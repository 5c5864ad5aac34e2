//! `POST /api/scenarios/balance` (docs/api.md): the editor's quick balance test streams its progress and ends with
//! the same result as the library run; a bad scenario is refused with its problems; one test runs at a time.

mod common;

use common::*;
use pacw_server::api::balance::{BALANCE_GAMES, MIN_BALANCE_GAMES, games_for, play};
use pacw_sim::ScenarioSource;
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn post(api: &Api, body: Value) -> reqwest::Response {
    api.http.post(format!("{}/api/scenarios/balance", api.base)).json(&body).send().await.unwrap()
}

#[tokio::test]
async fn a_test_streams_its_progress_and_result_a_bad_one_is_refused_and_one_runs_at_a_time() {
    let dir = TempDir::new("balance");
    let server = start(&dir.0).await;
    let api = Api::new(&server);
    let text = pacw_engine::DEFAULT_SCENARIO;
    let reply = post(&api, json!({"text": text, "file": "mine.toml"})).await;
    assert_eq!(reply.status(), StatusCode::OK);
    assert_eq!(reply.headers()["content-type"], "application/x-ndjson");
    let body = reply.text().await.unwrap();
    let lines: Vec<Value> = body.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let (last, progress) = lines.split_last().unwrap();
    let done: Vec<u64> = progress.iter().map(|l| l["done"].as_u64().unwrap()).collect();
    assert!(!done.is_empty() && done.windows(2).all(|w| w[0] < w[1]), "{done:?}");
    assert_eq!(games_for(12, 6), BALANCE_GAMES, "a small battle plays them all");
    assert!(progress.iter().all(|l| l["of"] == BALANCE_GAMES as u64));
    let result = &last["result"];
    assert_eq!(result["games"], BALANCE_GAMES as u64, "{last}");
    let rate = |v: &Value| v["rate"].as_f64().unwrap();
    let (a, b, d) = (rate(&result["wins"][0]), rate(&result["wins"][1]), rate(&result["draws"]));
    assert!((a + b + d - 1.0).abs() < 1e-9);
    assert!((rate(&result["score"]) - (a + d / 2.0)).abs() < 1e-9);
    for r in [&result["wins"][0], &result["wins"][1], &result["draws"], &result["score"]] {
        assert!(r["low"].as_f64().unwrap() <= rate(r) && rate(r) <= r["high"].as_f64().unwrap(), "{r}");
    }
    // The very numbers of the library's run: the test is reproducible.
    let expected = play(ScenarioSource::parse(text, "mine.toml").unwrap(), &|_| {}, &|| false).unwrap();
    assert_eq!((result["games"].as_u64(), result["verdict"].as_str()), (Some(300), Some(expected.verdict.as_str())));
    let close = |v: &Value, e: f64| (v.as_f64().unwrap() - e).abs() < 1e-12; // JSON may round the last digit
    for (v, e) in [
        (&result["wins"][0], expected.wins[0]),
        (&result["wins"][1], expected.wins[1]),
        (&result["score"], expected.score),
    ] {
        assert!(close(&v["rate"], e.rate) && close(&v["low"], e.low) && close(&v["high"], e.high), "{v} {e:?}");
    }

    // (One test function: the server process keeps one test at a time, so parallel test functions would collide.)
    let (s, e) = api.post("/api/scenarios/balance", json!({"text": "name = \"x\"\nturns = 0\n"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!e["problems"].as_array().unwrap().is_empty(), "{e}");
    let (s, _) = api.post("/api/scenarios/balance", json!({"text": 3})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // While one test runs (its reply is still open), another is refused with 503.
    let text = pacw_engine::SHIPPED_SCENARIOS[3].text;
    let first = post(&api, json!({"text": text})).await;
    assert_eq!(first.status(), StatusCode::OK);
    let second = post(&api, json!({"text": text})).await;
    let finished = first.text().await.unwrap();
    assert!(finished.lines().last().unwrap().contains("\"result\""), "{finished}");
    if second.status() == StatusCode::OK {
        // The first finished before the second arrived: nothing to refuse.
        assert!(second.text().await.unwrap().contains("\"result\""));
    } else {
        assert_eq!(second.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(second.text().await.unwrap().contains("another balance test"));
    }
    // Once the first has finished, a test runs again.
    let third = post(&api, json!({"text": pacw_engine::DEFAULT_SCENARIO})).await;
    assert_eq!(third.status(), StatusCode::OK);
    assert!(third.text().await.unwrap().contains("\"result\""));

    // A battle that names a variant file of one's own is tested by the file when it is given beside it (as the editor
    // sends it), and refused without it, naming the file; a bad file is refused at its line.
    let own = include_str!("../../../docs/examples/skirmishers.toml");
    let skirmish = include_str!("../../../docs/examples/skirmish.toml");
    let (s, e) = api.post("/api/scenarios/balance", json!({"text": skirmish, "file": "skirmish.toml"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(e.to_string().contains("skirmishers.toml"), "{e}");
    let bad = json!({"text": skirmish, "variant_text": "name = \"V\"\nnope = 1\n", "variant_file": "skirmishers.toml"});
    let (s, e) = api.post("/api/scenarios/balance", bad).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(e.to_string().contains("skirmishers.toml:2:"), "{e}");
    let given =
        json!({"text": skirmish, "file": "skirmish.toml", "variant_text": own, "variant_file": "skirmishers.toml"});
    let reply = post(&api, given).await;
    assert_eq!(reply.status(), StatusCode::OK);
    assert!(reply.text().await.unwrap().lines().last().unwrap().contains("\"result\""));

    // A grand battle plays fewer games, bounded by its size (units × turns), never fewer than the least.
    let grand = include_str!("../../../scenarios/antietam.toml");
    let of = games_for(128, 10);
    assert!((MIN_BALANCE_GAMES..BALANCE_GAMES).contains(&of), "{of}");
    let mut big = post(&api, json!({"text": grand, "file": "antietam.toml"})).await;
    assert_eq!(big.status(), StatusCode::OK);
    let first_line = big.chunk().await.unwrap().unwrap_or_default();
    let first_line = String::from_utf8_lossy(&first_line).to_string();
    assert!(first_line.contains(&format!("\"of\":{of}")), "{first_line}");
    // Its client leaves: the test stops, and the server takes a new one.
    drop(big);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let again = post(&api, json!({"text": pacw_engine::DEFAULT_SCENARIO})).await;
        if again.status() == StatusCode::OK {
            assert!(again.text().await.unwrap().contains("\"result\""));
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the test of a client that left went on");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    // What stops it: asked before each game, a stop ends the run early with an error, not a result.
    let played = std::sync::atomic::AtomicUsize::new(0);
    let source = ScenarioSource::parse(pacw_engine::DEFAULT_SCENARIO, "mine.toml").unwrap();
    let count = |_: usize| {
        played.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    };
    let stopped = play(source, &count, &|| played.load(std::sync::atomic::Ordering::SeqCst) >= 5);
    assert!(stopped.unwrap_err().contains("stopped"));
    assert!(played.load(std::sync::atomic::Ordering::SeqCst) < 20, "stopped within a few games of being asked");
}
