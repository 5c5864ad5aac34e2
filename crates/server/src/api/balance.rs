//! `POST /api/scenarios/balance`: the editor's "Test balance". A few hundred greedy-against-greedy games of an
//! uploaded scenario, sides swapping, on one low-priority thread, one test at a time on the whole server; the reply
//! streams its progress as JSON lines and ends with each side's win rate and the first side's score.

use super::Body;
use crate::error::{ApiError, ApiResult};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use pacw_engine::Side;
use pacw_play::game_rules::GameRules;
use pacw_sim::record::first_side_score;
use pacw_sim::significance::mean_interval;
use pacw_sim::stats::Rate;
use pacw_sim::{ScenarioSource, SimConfig};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Games a test plays at most: enough for an interval of about ±6 points on a win rate.
pub const BALANCE_GAMES: usize = 300;
/// Games a test plays at least, however big the battle: an interval of about ±15 points.
pub const MIN_BALANCE_GAMES: usize = 40;
/// The work a test may do, in units × turns × games: 300 games of a 20-unit battle of 8 turns. A bigger battle
/// plays fewer games (a 128-unit battle of 8 turns, 46), so that one test holds the server for minutes, not tens.
pub const BALANCE_WORK: usize = 300 * 20 * 8;

/// The games a test of a battle of `units` units and `turns` turns plays: as many as [`BALANCE_WORK`] allows,
/// between [`MIN_BALANCE_GAMES`] and [`BALANCE_GAMES`].
pub fn games_for(units: usize, turns: usize) -> usize {
    (BALANCE_WORK / (units.max(1) * turns.max(1))).clamp(MIN_BALANCE_GAMES, BALANCE_GAMES)
}
/// A progress line every this many games.
const PROGRESS_EVERY: usize = 10;

/// Whether a test is running: the server runs one at a time.
static RUNNING: AtomicBool = AtomicBool::new(false);

/// Clears [`RUNNING`] when the test ends, however it ends.
struct Running;

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.store(false, Ordering::Release);
    }
}

/// A scenario to test.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BalanceRequest {
    /// The TOML text.
    pub text: String,
    /// Its file name, for messages (default `uploaded.toml`).
    pub file: Option<String>,
    /// A variant file's text the battle is played by, laid over its own rules as a game's `variant_text` is (the
    /// editor sends the file of one's own the battle names).
    pub variant_text: Option<String>,
    /// That file's name, for messages and for the battle to name it.
    pub variant_file: Option<String>,
}

/// A rate with its 95% interval.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct RateView {
    /// The rate, 0 to 1.
    pub rate: f64,
    /// The interval's low end.
    pub low: f64,
    /// Its high end.
    pub high: f64,
}

impl From<Rate> for RateView {
    fn from(r: Rate) -> RateView {
        RateView { rate: r.rate, low: r.ci_low, high: r.ci_high }
    }
}

/// The test's result.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct BalanceResult {
    /// Games played.
    pub games: usize,
    /// The players (`greedy`, `greedy`).
    pub players: [String; 2],
    /// Each side's wins, the scenario's first side first.
    pub wins: [RateView; 2],
    /// Drawn games.
    pub draws: RateView,
    /// The first side's mean score (a win 1, a draw ½), with its t interval.
    pub score: RateView,
    /// The result in words.
    pub verdict: String,
}

/// One line of the reply.
#[derive(Serialize)]
#[serde(untagged)]
enum Line {
    Progress { done: usize, of: usize },
    Result { result: Box<BalanceResult> },
    Error { error: String },
}

fn line(l: &Line) -> String {
    format!("{}\n", serde_json::to_string(l).expect("a line always serialises"))
}

/// Plays the test's games of `source` ([`games_for`] its size), calling `progress` after each; stops with an
/// error once `stop` says so (the client has gone).
///
/// # Errors
/// When `stop` stops the games, or a game fails ([`pacw_sim::run_until`]); the error is the message.
pub fn play(
    source: ScenarioSource,
    progress: &(dyn Fn(usize) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<BalanceResult, String> {
    let games = games_for(source.scenario.units.len(), source.scenario.turns as usize);
    let mut config = SimConfig::of(vec![source]);
    config.games = games;
    config.players = ["greedy".to_string(), "greedy".to_string()];
    config.threads = Some(1);
    config.seed = 1;
    let done = AtomicUsize::new(0);
    let sim = pacw_sim::run_until(&config, &|| progress(done.fetch_add(1, Ordering::Relaxed) + 1), stop)
        .map_err(|e| e.to_string())?;
    let n = sim.records.len();
    let count = |w: Option<Side>| sim.records.iter().filter(|r| r.stats.winner == w).count() as u64;
    let scores: Vec<f64> = sim.records.iter().map(|r| first_side_score(r.stats.winner)).collect();
    let (score, interval) = mean_interval(&scores);
    let verdict = if interval.low > 0.6 || interval.high < 0.4 {
        "One-sided: the first side's score is surely outside 40–60%. Try `pacw balance` on the downloaded file, or \
         change the turns, the exhaustion points or the objectives."
    } else if interval.low > 0.5 || interval.high < 0.5 {
        "Leans to one side, but within 40–60% or not surely outside it; more games (`pacw simulate`) tell better."
    } else {
        "Balanced as far as these games can tell (greedy players; a person plays differently)."
    };
    Ok(BalanceResult {
        games: n,
        players: config.players.clone(),
        wins: [Rate::new(count(Some(Side::A)), n as u64).into(), Rate::new(count(Some(Side::B)), n as u64).into()],
        draws: Rate::new(count(None), n as u64).into(),
        score: RateView { rate: score, low: interval.low.max(0.0), high: interval.high.min(1.0) },
        verdict: verdict.to_string(),
    })
}

/// `POST /api/scenarios/balance` → 200 with `application/x-ndjson`: `{"done","of"}` lines, then `{"result"}` (or
/// `{"error"}`). A bad scenario gets 422 with its problems; a test already running, 503.
///
/// # Errors
/// When the text is not a good scenario (422, with its problems), another balance test is running (503), or the test's
/// thread cannot be started (500).
pub async fn balance(Body(req): Body<BalanceRequest>) -> ApiResult<Response> {
    let file = req.file.unwrap_or_else(|| "uploaded.toml".to_string());
    let rules = GameRules::asked(None, req.variant_text.as_deref(), req.variant_file.as_deref())?;
    let source = ScenarioSource::new(Arc::new(rules.scenario(&req.text, &file)?), &req.text, &file);
    if RUNNING.swap(true, Ordering::AcqRel) {
        return Err(ApiError::Unavailable(
            "another balance test is running on this server; try again in a few seconds".into(),
        ));
    }
    let running = Running;
    let of = games_for(source.scenario.units.len(), source.scenario.turns as usize);
    let (tx, rx) = tokio::sync::mpsc::channel::<String>(of / PROGRESS_EVERY + 2);
    std::thread::Builder::new()
        .name("pacw-balance".into())
        .spawn(move || {
            let running = running;
            crate::thinker::lower_priority();
            let progress = |done: usize| {
                if done.is_multiple_of(PROGRESS_EVERY) {
                    let _ = tx.try_send(line(&Line::Progress { done, of }));
                }
            };
            // A reader that has gone (the editor closed, the request dropped) stops the games.
            let gone = || tx.is_closed();
            let test = || play(source, &progress, &gone);
            let last = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(test)) {
                Ok(Ok(result)) => Line::Result { result: Box::new(result) },
                Ok(Err(error)) => Line::Error { error },
                Err(_) => Line::Error { error: "the test failed on the server".into() },
            };
            // Free the server for the next test before the last line: a client that reads it may start one at once.
            drop(running);
            let _ = tx.blocking_send(line(&last));
        })
        .map_err(|e| ApiError::Internal(format!("cannot start the test: {e}")))?;
    let lines = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|l| (Ok::<_, std::convert::Infallible>(l), rx))
    });
    let headers = [(header::CONTENT_TYPE, "application/x-ndjson"), (header::CACHE_CONTROL, "no-store")];
    Ok((headers, axum::body::Body::from_stream(lines)).into_response())
}
