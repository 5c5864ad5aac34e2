//! Load generator for the web server (docs/PERFORMANCE.md, "Web server").
//!
//! Starts a server in a separate process (this program again, in server mode, or the `pacw` binary named by
//! `PACW_LOAD_BIN`) on a fresh data directory, then plays `PACW_LOAD_GAMES` (default 200) hot-seat games at once
//! over loopback, each at `PACW_LOAD_RATE` (default 2) actions a second, for `PACW_LOAD_SECS` (default 60)
//! seconds. Every game also has a spectator reading its server-sent events. A finished game is replaced by a new
//! one. At the end it prints the reply times (p50, p90, p99, max), the errors, and the server's memory (VmRSS and
//! VmHWM from /proc/<pid>/status), and exits non-zero if any request failed.
//!
//! The bounds of the hardening issue: `PACW_LOAD_THINKERS` games of mcts against mcts keep the computer thinking
//! the whole time, and `PACW_LOAD_STREAMS` more event streams stay open on games nobody plays; the reply times are
//! still those of the people's requests.
//!
//! ```sh
//! cargo bench -p pacw-server --bench load
//! PACW_LOAD_BIN=target/release/pacw PACW_LOAD_SECS=30 cargo bench -p pacw-server --bench load
//! PACW_LOAD_THINKERS=8 PACW_LOAD_STREAMS=1000 PACW_LOAD_GAMES=50 cargo bench -p pacw-server --bench load
//! ```

use serde_json::{Value, json};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Server mode: serve on a free loopback port until killed.
fn run_server(data: PathBuf) {
    let rt = tokio::runtime::Runtime::new().expect("a runtime");
    rt.block_on(async move {
        let config = pacw_server::ServerConfig {
            addr: "127.0.0.1:0".parse().unwrap(),
            data_dir: data,
            computer_delay: Duration::ZERO,
            ..pacw_server::ServerConfig::default()
        };
        let server = pacw_server::Server::bind(config).await.expect("the server starts");
        println!("pacw: the web app is at {}", server.url());
        server.run_until(std::future::pending()).await.expect("the server runs");
    });
}

struct ServerProcess(Child);

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn_server(data: &Path) -> (ServerProcess, String) {
    let mut cmd = match std::env::var_os("PACW_LOAD_BIN") {
        Some(bin) => {
            let mut c = Command::new(bin);
            c.args(["serve", "--addr", "127.0.0.1:0", "--computer-delay-ms", "0", "--data"]).arg(data);
            c
        }
        None => {
            let mut c = Command::new(std::env::current_exe().expect("this program"));
            c.env("PACW_LOAD_SERVER_DATA", data);
            c
        }
    };
    let mut child = cmd.stdout(Stdio::piped()).spawn().expect("the server process starts");
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let url = loop {
        let line = lines.next().expect("the server prints its address").unwrap();
        if let Some(at) = line.find("http://") {
            break line[at..].trim().trim_end_matches('/').to_string();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    (ServerProcess(child), url)
}

/// CPU seconds (user + system) a process has used, from /proc/<pid>/stat (USER_HZ is 100 on Linux).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    (ticks(11) + ticks(12)) as f64 / 100.0
}

/// VmRSS and VmHWM of a process, in KiB.
fn memory_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

#[derive(Default)]
struct Stats {
    latencies_us: std::sync::Mutex<Vec<u64>>,
    errors: AtomicU64,
    bytes: AtomicU64,
    games_finished: AtomicU64,
    sse_events: AtomicU64,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

async fn timed(stats: &Stats, req: reqwest::RequestBuilder) -> Option<(u16, Value)> {
    let start = Instant::now();
    let result = async {
        let r = req.send().await?;
        let status = r.status().as_u16();
        let bytes = r.bytes().await?;
        stats.bytes.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let body = serde_json::from_slice::<Value>(&bytes).unwrap_or(Value::Null);
        Ok::<_, reqwest::Error>((status, body))
    }
    .await;
    stats.latencies_us.lock().unwrap().push(start.elapsed().as_micros() as u64);
    match result {
        Ok((s, body)) if s < 400 => Some((s, body)),
        Ok((s, body)) => {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            eprintln!("error {s}: {body}");
            None
        }
        Err(e) => {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            eprintln!("error: {e}");
            None
        }
    }
}

/// Reads a game's event stream, counting the events, until the deadline.
async fn spectate(http: reqwest::Client, url: String, stats: Arc<Stats>, until: Instant) {
    let Ok(mut resp) = http.get(url).send().await else {
        stats.errors.fetch_add(1, Ordering::Relaxed);
        return;
    };
    while let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(until.into(), resp.chunk()).await {
        let n = chunk.windows(7).filter(|w| w == b"event: ").count();
        stats.sse_events.fetch_add(n as u64, Ordering::Relaxed);
    }
}

/// One player seat: plays games one after another, an action every `period`, until the deadline.
async fn player(i: usize, base: String, http: reqwest::Client, stats: Arc<Stats>, period: Duration, until: Instant) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (i as u64 + 1).wrapping_mul(0xbf58_476d_1ce4_e5b9));
    let scenarios = ["meeting-engagement", "bloody-lane", "maryes-heights", "mcpherson-ridge"];
    // Spread the seats over the period so they do not all act at the same instant.
    tokio::time::sleep(period.mul_f64(i as f64 / 200.0 % 1.0)).await;
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    'games: while Instant::now() < until {
        let body = json!({"scenario": scenarios[i % scenarios.len()], "mode": "hotseat"});
        let Some((_, created)) = timed(&stats, http.post(format!("{base}/api/games")).json(&body)).await else {
            tick.tick().await;
            continue;
        };
        let token = created["tokens"]["hotseat"].as_str().unwrap_or_default().to_string();
        let spectator = created["tokens"]["spectator"].as_str().unwrap_or_default();
        tokio::spawn(spectate(http.clone(), format!("{base}/api/play/{spectator}/events"), stats.clone(), until));
        let mut view = created["view"].clone();
        loop {
            tick.tick().await;
            if Instant::now() >= until {
                break 'games;
            }
            if !view["result"].is_null() {
                stats.games_finished.fetch_add(1, Ordering::Relaxed);
                continue 'games;
            }
            let n = view["legal_actions"].as_array().map_or(0, Vec::len);
            if n == 0 {
                break;
            }
            let body = json!({"index": rng.next() % n as u64, "decisions": view["decisions"]});
            match timed(&stats, http.post(format!("{base}/api/play/{token}/actions")).json(&body)).await {
                Some((_, v)) => view = v,
                None => continue 'games,
            }
        }
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn main() {
    if let Some(data) = std::env::var_os("PACW_LOAD_SERVER_DATA") {
        return run_server(PathBuf::from(data));
    }
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` and `cargo bench -- --list` must not start the load
    }
    let games: usize = env_or("PACW_LOAD_GAMES", 200);
    let rate: f64 = env_or("PACW_LOAD_RATE", 2.0);
    let secs: u64 = env_or("PACW_LOAD_SECS", 60);
    let thinkers: usize = env_or("PACW_LOAD_THINKERS", 0);
    let idle_streams: usize = env_or("PACW_LOAD_STREAMS", 0);
    // This program holds a connection per stream too.
    pacw_server::connections::raise_file_limit();
    let data = std::env::temp_dir().join(format!("pacw-load-{}", std::process::id()));
    let (server, base) = spawn_server(&data);
    let pid = server.0.id();
    println!(
        "server pid {pid} at {base}; {games} games at {rate} actions/s each for {secs} s; {thinkers} mcts games; \
         {idle_streams} more event streams"
    );

    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    let stats = Arc::new(Stats::default());
    let start = Instant::now();
    let cpu_before = cpu_seconds(pid);
    let mut peak_rss = 0;
    rt.block_on(async {
        let http = reqwest::Client::builder().pool_max_idle_per_host(games * 2).build().unwrap();
        // The computer thinking, and idle event streams, before the measured requests begin.
        let mut idle = Vec::new();
        for _ in 0..thinkers {
            let body = json!({"scenario": "bloody-lane", "mode": "watch", "computer": "mcts"});
            let r = http.post(format!("{base}/api/games")).json(&body).send().await.expect("a watch game");
            let created: Value = r.json().await.unwrap();
            idle.push(created["tokens"]["spectator"].as_str().unwrap().to_string());
        }
        let per_game = 30;
        while idle.len() * per_game < idle_streams {
            let r = http
                .post(format!("{base}/api/games"))
                .json(&json!({"scenario": "meeting-engagement", "mode": "hotseat"}));
            let created: Value = r.send().await.expect("a game").json().await.unwrap();
            idle.push(created["tokens"]["spectator"].as_str().unwrap().to_string());
        }
        let streams = reqwest::Client::new();
        let until = Instant::now() + Duration::from_secs(secs + 5);
        let mut opened = 0;
        for (i, token) in idle.iter().cycle().take(idle_streams).enumerate() {
            let url = format!("{base}/api/play/{token}/events");
            tokio::spawn(spectate(streams.clone(), url, stats.clone(), until));
            opened = i + 1;
            if i % 100 == 99 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        if opened > 0 {
            tokio::time::sleep(Duration::from_secs(2)).await;
            println!("{opened} idle event streams open, {thinkers} games of the computer thinking");
        }
        stats.latencies_us.lock().unwrap().clear();
        let until = Instant::now() + Duration::from_secs(secs);
        let period = Duration::from_secs_f64(1.0 / rate);
        let mut tasks = Vec::new();
        for i in 0..games {
            tasks.push(tokio::spawn(player(i, base.clone(), http.clone(), stats.clone(), period, until)));
        }
        while Instant::now() < until {
            tokio::time::sleep(Duration::from_secs(1)).await;
            peak_rss = peak_rss.max(memory_kib(pid).0);
        }
        for t in tasks {
            let _ = t.await;
        }
    });
    let elapsed = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds(pid) - cpu_before;
    let (rss, hwm) = memory_kib(pid);
    let mut lat = std::mem::take(&mut *stats.latencies_us.lock().unwrap());
    lat.sort_unstable();
    let errors = stats.errors.load(Ordering::Relaxed);
    println!("requests            {}", lat.len());
    println!("throughput          {:.0} requests/s", lat.len() as f64 / elapsed);
    println!("errors              {errors}");
    println!(
        "reply size          {:.1} KiB on average",
        stats.bytes.load(Ordering::Relaxed) as f64 / 1024.0 / lat.len().max(1) as f64
    );
    println!(
        "server CPU          {:.2} cores on average ({:.2} ms a request)",
        cpu / elapsed,
        cpu * 1000.0 / lat.len().max(1) as f64
    );
    println!("games finished      {}", stats.games_finished.load(Ordering::Relaxed));
    println!("SSE events received {}", stats.sse_events.load(Ordering::Relaxed));
    println!(
        "reply time          p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&lat, 0.5),
        percentile(&lat, 0.9),
        percentile(&lat, 0.99),
        lat.last().map_or(0.0, |&m| m as f64 / 1000.0)
    );
    println!(
        "server memory       VmRSS {:.1} MiB at the end, {:.1} MiB peak sampled, VmHWM {:.1} MiB",
        rss as f64 / 1024.0,
        peak_rss.max(rss) as f64 / 1024.0,
        hwm as f64 / 1024.0
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
    if errors > 0 {
        std::process::exit(1);
    }
}
