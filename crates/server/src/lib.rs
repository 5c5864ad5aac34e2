//! # pacw-server
//!
//! The pacw web app: the browser UI embedded from `web/`, a JSON API with server-sent events (`docs/api.md`),
//! and the games in a SQLite database in a data directory. Games are played through secret links (a token per
//! side, a hot-seat token, a spectator token); every action is checked by the engine and committed before it is
//! acknowledged; the dice are rolled on the server from a seed no client sees until the game is over; the
//! computer's moves are made by a task per game, thinking on a pool of low-priority threads (thinker.rs).
//!
//! ```no_run
//! let config = pacw_server::ServerConfig::default(); // 127.0.0.1:8080, the platform's data directory
//! pacw_server::run(config).unwrap(); // until Ctrl-C
//! ```

#![deny(missing_docs)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

pub mod api;
mod assets;
pub mod clock;
pub mod connections;
pub mod error;
pub mod guard;
pub mod metrics;
pub mod notify;
pub mod offers;
pub mod offline;
pub mod pages;
pub mod proxy;
pub mod session;
pub mod setup;
pub mod store;
pub mod thinker;
pub mod tokens;

/// The views of a game, shared with the browser build (`pacw_play`): re-exported where the API has always found them.
pub use pacw_play::{board, ledger, live, view};

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use session::{Games, SessionConfig};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use store::Store;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// The largest request body accepted, in bytes (larger ones get 413).
pub const BODY_LIMIT: usize = 256 * 1024;

/// The default address: this machine only.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// The default pause between the computer's decisions: none, since each page plays the other side's decisions back
/// at its player's pace (by what happened: a move quicker than an attack with its dice), and a server pause only
/// made a computer's turn slower to reach.
pub const DEFAULT_COMPUTER_DELAY: Duration = Duration::ZERO;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Where it listens (port 0: any free port).
    pub addr: SocketAddr,
    /// The data directory, holding the database (created on first start).
    pub data_dir: PathBuf,
    /// The pause between the computer's decisions, so a person can follow them (0 in tests).
    pub computer_delay: Duration,
    /// The origin the server is reached at behind a proxy (`--public-origin https://pacw.example.org`): pages of
    /// any other origin may not change anything. Without it, the request's own `Host`.
    pub public_origin: Option<String>,
    /// Whether `GET /api/games` lists the public facts of every game (`--list-games`); off by default.
    pub list_games: bool,
    /// How long a client may take to send a request's headers, and a kept-alive connection may stay idle.
    pub header_timeout: Duration,
    /// The SMTP server that e-mails the players of two-player games their move (`--smtp smtps://user:pass@host`);
    /// without it only webhooks are offered.
    pub smtp: Option<String>,
    /// The sender of those e-mails.
    pub smtp_from: String,
    /// The most connections open at once, event streams and idle ones together (default: from the process's file
    /// limit, [`connections::connections_for`]); at the cap the idlest is closed to let a new one in.
    pub max_connections: Option<usize>,
    /// New games one client (an address) may create an hour, a sixth of them at once (`--games-per-hour`).
    pub games_per_hour: u32,
    /// Days without a move after which an unfinished game is put away (`--archive-after-days`; 0: never).
    pub archive_after_days: u32,
    /// The reverse proxies whose `X-Forwarded-For` or `Forwarded` headers name the client (`--trusted-proxy`), for
    /// the limits kept per client (proxy.rs); none by default: every client is the address it connects from.
    pub trusted_proxies: Vec<proxy::Cidr>,
    /// The operator's token that opens `GET /metrics` (`--metrics-token`, metrics.rs); none by default: not served.
    pub metrics_token: Option<metrics::MetricsToken>,
    /// Whether the deadlines are kept by a test clock that `POST /api/test/clock` moves forward (`--test-clock`, for
    /// tests only; clock.rs); off by default: the system's time.
    pub test_clock: bool,
    /// The vacation days a player with an account has each calendar year (`--vacation-days`, 0 to 366; 0: none):
    /// while on vacation the clocks of their games at a pace of days stop (session/vacation.rs).
    pub vacation_days: u32,
}

/// The default number of days without a move after which an unfinished game is put away.
pub const DEFAULT_ARCHIVE_AFTER_DAYS: u32 = 90;

/// The default allowance of new games per client and hour.
pub const DEFAULT_GAMES_PER_HOUR: u32 = 120;

/// The default sender of the e-mails that tell a player their move.
pub const DEFAULT_SMTP_FROM: &str = "pacw <pacw@localhost>";

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            addr: DEFAULT_ADDR.parse().expect("a valid address"),
            data_dir: default_data_dir(),
            computer_delay: DEFAULT_COMPUTER_DELAY,
            public_origin: None,
            list_games: false,
            header_timeout: connections::HEADER_TIMEOUT,
            smtp: None,
            smtp_from: DEFAULT_SMTP_FROM.to_string(),
            max_connections: None,
            games_per_hour: DEFAULT_GAMES_PER_HOUR,
            archive_after_days: DEFAULT_ARCHIVE_AFTER_DAYS,
            trusted_proxies: Vec::new(),
            metrics_token: None,
            test_clock: false,
            vacation_days: session::DEFAULT_VACATION_DAYS,
        }
    }
}

/// The default data directory: `pacw-data` in the platform's data directory (`$XDG_DATA_HOME`, else
/// `~/.local/share` on Linux), else in the current directory.
pub fn default_data_dir() -> PathBuf {
    let base = dirs::data_dir()
        .or_else(|| std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()).map(PathBuf::from))
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("pacw-data")
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database could not be opened.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// The games could not be read.
    #[error("cannot load the games: {0}")]
    Load(String),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// Serving failed.
    #[error("the server failed: {0}")]
    Io(#[from] std::io::Error),
}

/// The whole application: the UI, the API, limits and headers; state-changing requests only from this server's
/// own pages (or from no page at all: scripts), bodies in JSON, every refusal the API's JSON error.
pub fn router(games: Arc<Games>, origin: guard::OriginPolicy) -> Router {
    Router::new()
        .merge(api::routes())
        .route("/game/{token}/rules", axum::routing::get(pages::game_rules))
        .route("/metrics", axum::routing::get(metrics::metrics))
        .fallback(assets::serve)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn(guard::json_errors))
        .layer(middleware::from_fn_with_state(Arc::new(origin), guard::same_site_json))
        .layer(middleware::from_fn(headers))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(error::panic_reply))
        .with_state(games)
}

async fn method_not_allowed(req: Request) -> Response {
    let msg = format!("{} is not allowed on {} (see docs/api.md)", req.method(), req.uri().path());
    let mut r = error::ApiError::BadRequest(msg).into_response();
    *r.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    r
}

async fn headers(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api");
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")); // links carry tokens
    if api {
        h.entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("no-store"));
    }
    res
}

/// A server bound to its address, its games loaded, not yet serving.
pub struct Server {
    listener: TcpListener,
    games: Arc<Games>,
    addr: SocketAddr,
    origin: guard::OriginPolicy,
    header_timeout: Duration,
    max_connections: usize,
}

impl Server {
    /// Opens the data directory and its database (migrating the schema), loads every game (reporting damaged
    /// ones), resumes the computer players whose turn it is, and binds the address.
    ///
    /// # Errors
    /// When the data directory or its database cannot be opened, the games cannot be loaded, or the address cannot be
    /// bound.
    pub async fn bind(config: ServerConfig) -> Result<Server, ServerError> {
        let store = Store::open(&config.data_dir)?;
        if let Some(notice) = store.notice() {
            eprintln!("pacw server: {notice}");
        }
        let listener =
            TcpListener::bind(config.addr).await.map_err(|source| ServerError::Bind { addr: config.addr, source })?;
        let addr = listener.local_addr()?;
        let files = connections::raise_file_limit();
        let streams_in_all = session::streams_for(files);
        let max_connections = config.max_connections.unwrap_or_else(|| connections::connections_for(files));
        let session = SessionConfig {
            computer_delay: config.computer_delay,
            list_games: config.list_games,
            streams_in_all,
            smtp: config.smtp.clone(),
            smtp_from: config.smtp_from.clone(),
            public_origin: config.public_origin.clone(),
            games_per_hour: config.games_per_hour,
            archive_after_days: config.archive_after_days,
            trusted_proxies: config.trusted_proxies.clone(),
            metrics_token: config.metrics_token.clone(),
            test_clock: config.test_clock,
            vacation_days: config.vacation_days.min(session::MAX_VACATION_DAYS),
        };
        let games = Games::open(store, session, tokio::runtime::Handle::current()).map_err(ServerError::Load)?;
        let origin = guard::OriginPolicy { public: config.public_origin };
        Ok(Server { listener, games, addr, origin, header_timeout: config.header_timeout, max_connections })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The address to open in a browser.
    pub fn url(&self) -> String {
        url(self.addr)
    }

    /// The games (for tests).
    pub fn games(&self) -> &Arc<Games> {
        &self.games
    }

    /// Serves until `stop` completes; then stops the computer players and event streams, lets the requests under
    /// way finish, and closes the database.
    ///
    /// # Errors
    /// None: it returns `Ok` once it has stopped.
    pub async fn run_until(self, stop: impl Future<Output = ()> + Send + 'static) -> Result<(), ServerError> {
        let games = self.games.clone();
        let on_stop = games.clone();
        let app = router(games.clone(), self.origin);
        connections::serve(self.listener, app, self.header_timeout, self.max_connections, async move {
            stop.await;
            on_stop.begin_shutdown();
        })
        .await;
        games.shut_down();
        Ok(())
    }

    /// Serves on a task of the current runtime (for tests): stop it with [`RunningServer::stop`].
    pub fn spawn(self) -> RunningServer {
        let (tx, rx) = oneshot::channel::<()>();
        let addr = self.addr;
        let games = self.games.clone();
        let task = tokio::spawn(self.run_until(async move {
            let _ = rx.await;
        }));
        RunningServer { addr, games, stop: Some(tx), task: Some(task) }
    }
}

fn url(addr: SocketAddr) -> String {
    if addr.ip().is_unspecified() { format!("http://127.0.0.1:{}/", addr.port()) } else { format!("http://{addr}/") }
}

/// A server serving on a task.
pub struct RunningServer {
    addr: SocketAddr,
    games: Arc<Games>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<Result<(), ServerError>>>,
}

impl RunningServer {
    /// Its address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its base URL, such as `http://127.0.0.1:41234`.
    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The games (for tests).
    pub fn games(&self) -> &Arc<Games> {
        &self.games
    }

    /// Stops it and waits until it has closed its database.
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}

/// Runs the server until Ctrl-C (or SIGTERM), printing its address: what `pacw` and `pacw serve` do.
///
/// # Errors
/// When the runtime cannot be started, or as [`Server::bind`].
pub fn run(config: ServerConfig) -> Result<(), ServerError> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let data_dir = config.data_dir.clone();
        let server = Server::bind(config).await?;
        println!("pacw: the web app is at {}", server.url());
        println!("pacw: games are kept in {}", data_dir.join(store::DB_FILE).display());
        if !server.local_addr().ip().is_loopback() {
            println!("pacw: listening on {}: other machines can reach it; share the links a game gives", server.addr);
        }
        println!("pacw: press Ctrl-C to stop");
        server.run_until(stop_signal()).await
    })
}

async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending().await } } => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
