//! The tail of a person's wait for the computer while the computer also plays many games against itself
//! (docs/PERFORMANCE.md, "Thinking for many"; issue 42 item 7).
//!
//! Starts a server in this process on a fresh data directory, with the loopback as a trusted proxy so that each
//! watch game can come from its own client (`X-Forwarded-For`). `PACW_TAIL_WATCH` (default 12) watch games of
//! `PACW_TAIL_WATCH_COMPUTER` (default mcts, 5 s a decision at most) on Antietam keep the thinking pool busy, and
//! `PACW_TAIL_PEOPLE` (default 8) people play `PACW_TAIL_COMPUTER` (default random) on the meeting engagement at once,
//! each taking the first legal action as soon as it is their turn, for `PACW_TAIL_SECS` (default 60) seconds. For
//! every action a person takes it records how long until it is their turn again (the computer's answer, all its
//! decisions in a row) and prints p50, p90, p99 and max; it exits non-zero if any wait is over the computer's own
//! bound plus 1 s (`PACW_TAIL_BOUND_MS`, default 1000 for random).
//!
//! ```sh
//! cargo bench -p pacw-server --bench tail
//! PACW_TAIL_SECS=30 cargo bench --profile dev -p pacw-server --bench tail
//! ```

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

async fn json_of(r: reqwest::RequestBuilder) -> (reqwest::StatusCode, Value) {
    let r = r.send().await.expect("the server answers");
    let status = r.status();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// One person: plays the computer, game after game, until `until`; each wait for the computer in `waits` (ms).
async fn person(base: String, n: usize, computer: String, until: Instant, waits: Arc<Mutex<Vec<u64>>>) {
    let http = reqwest::Client::new();
    let client = format!("10.1.0.{n}");
    while Instant::now() < until {
        let body =
            json!({"scenario": "meeting-engagement", "mode": "computer", "human_side": "A", "computer": computer});
        let (s, created) =
            json_of(http.post(format!("{base}/api/games")).header("x-forwarded-for", &client).json(&body)).await;
        assert!(s.is_success(), "a person's game: {s} {created}");
        let token = created["tokens"]["A"].as_str().expect("the person's token").to_string();
        let view_url = format!("{base}/api/play/{token}");
        let mut asked: Option<Instant> = None;
        loop {
            let (_, view) = json_of(http.get(&view_url)).await;
            if !view["result"].is_null() || Instant::now() >= until {
                break;
            }
            if view["your_turn"] != true {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
            if let Some(at) = asked.take() {
                waits.lock().unwrap().push(at.elapsed().as_millis() as u64);
            }
            let index = view["legal_actions"][0]["index"].clone();
            let act = json!({"index": index, "decisions": view["decisions"]});
            let (s, _) = json_of(http.post(format!("{view_url}/actions")).json(&act)).await;
            if s.is_success() {
                asked = Some(Instant::now());
            }
        }
    }
}

fn main() {
    let watch: usize = env_or("PACW_TAIL_WATCH", 12);
    let people: usize = env_or("PACW_TAIL_PEOPLE", 8);
    let secs: u64 = env_or("PACW_TAIL_SECS", 60);
    let bound_ms: u64 = env_or("PACW_TAIL_BOUND_MS", 1000);
    let computer: String = env_or("PACW_TAIL_COMPUTER", "random".to_string());
    let watch_computer: String = env_or("PACW_TAIL_WATCH_COMPUTER", "mcts".to_string());
    let data = std::env::temp_dir().join(format!("pacw-tail-{}", std::process::id()));
    let rt = tokio::runtime::Runtime::new().expect("a runtime");
    rt.block_on(async move {
        let config = pacw_server::ServerConfig {
            addr: "127.0.0.1:0".parse().unwrap(),
            data_dir: data.clone(),
            computer_delay: Duration::ZERO,
            games_per_hour: 1_000_000,
            trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
            ..pacw_server::ServerConfig::default()
        };
        let server = pacw_server::Server::bind(config).await.expect("the server starts").spawn();
        let base = server.base();
        let http = reqwest::Client::new();
        let antietam = include_str!("../../../scenarios/antietam.toml");
        for n in 0..watch {
            // Four watch games a client at most: each from its own.
            let body = json!({"scenario_text": antietam, "mode": "watch", "computer": watch_computer});
            let (s, v) = json_of(
                http.post(format!("{base}/api/games")).header("x-forwarded-for", format!("10.2.0.{n}")).json(&body),
            )
            .await;
            assert!(s.is_success(), "a watch game: {s} {v}");
        }
        let until = Instant::now() + Duration::from_secs(secs);
        let waits = Arc::new(Mutex::new(Vec::new()));
        let tasks: Vec<_> = (0..people)
            .map(|n| tokio::spawn(person(base.clone(), n, computer.clone(), until, waits.clone())))
            .collect();
        for t in tasks {
            t.await.expect("a person plays");
        }
        let metrics = server.games().vitals().expect("the vitals");
        server.stop().await;
        let _ = std::fs::remove_dir_all(&data);
        let mut w = waits.lock().unwrap().clone();
        w.sort_unstable();
        println!(
            "{watch} watch games ({watch_computer}, Antietam), {people} people against {computer}, {secs} s, {} \
             thinking threads: {} waits for the computer, p50 {} ms, p90 {} ms, p99 {} ms, max {} ms",
            metrics.thinking.threads,
            w.len(),
            percentile(&w, 0.5),
            percentile(&w, 0.9),
            percentile(&w, 0.99),
            w.last().copied().unwrap_or(0),
        );
        println!("decisions made: {:?}; still queued: {:?}", metrics.thinking.decisions, metrics.thinking.queued);
        let over = w.iter().filter(|&&ms| ms > bound_ms).count();
        if over > 0 || w.is_empty() {
            eprintln!("{over} wait(s) over {bound_ms} ms (or none measured)");
            std::process::exit(1);
        }
    });
}
