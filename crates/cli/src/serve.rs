//! `pacw serve` (and `pacw` with no subcommand): the web app.

use anyhow::Result;
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `pacw serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on; 127.0.0.1 keeps it to this machine, 0.0.0.0 lets others join with their link.
    #[arg(long, default_value = pacw_server::DEFAULT_ADDR)]
    pub addr: SocketAddr,
    /// The data directory for the games database (created on first start; default: pacw-data in the platform's
    /// data directory, e.g. ~/.local/share/pacw-data).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Milliseconds of pause between the computer's decisions (pages play them back at their own pace anyway).
    #[arg(long, value_name = "MS", default_value_t = pacw_server::DEFAULT_COMPUTER_DELAY.as_millis() as u64)]
    pub computer_delay_ms: u64,
    /// The address players reach the server at behind a TLS proxy, such as https://pacw.example.org: pages from
    /// any other origin may not act (docs/hosting.md). Without it, the request's own Host.
    #[arg(long, value_name = "URL", value_parser = parse_origin)]
    pub public_origin: Option<String>,
    /// List the public facts of every game (scenario, mode, turn, whose move; never a link) at GET /api/games.
    #[arg(long)]
    pub list_games: bool,
    /// An SMTP server that e-mails the players of two-player games when it becomes their move, such as
    /// smtps://user:password@smtp.example.org (TLS) or smtp://localhost:25 (docs/hosting.md). Without it, players
    /// may still be told through a webhook.
    #[arg(long, value_name = "URL")]
    pub smtp: Option<String>,
    /// The sender of those e-mails.
    #[arg(long, value_name = "ADDRESS", default_value = pacw_server::DEFAULT_SMTP_FROM)]
    pub smtp_from: String,
    /// New games one client (an address) may create an hour, a sixth of them at once; past it, 429.
    #[arg(long, value_name = "N", default_value_t = pacw_server::DEFAULT_GAMES_PER_HOUR)]
    pub games_per_hour: u32,
    /// Days without a move after which an unfinished game is put away: its links then say so, `pacw games` lists
    /// it and `pacw games --restore ID` brings it back. 0: never.
    #[arg(long, value_name = "DAYS", default_value_t = pacw_server::DEFAULT_ARCHIVE_AFTER_DAYS)]
    pub archive_after_days: u32,
    /// The reverse proxies (addresses or blocks such as 10.0.0.0/8) whose X-Forwarded-For (or Forwarded) header
    /// names the client, for the limits kept per client (--games-per-hour); from any other address those headers
    /// are ignored. Without it every client is the address it connects from (behind a proxy: the proxy).
    #[arg(long = "trusted-proxy", value_name = "CIDR", num_args = 1..)]
    pub trusted_proxy: Vec<pacw_server::proxy::Cidr>,
    /// The operator's token (16 to 256 visible characters) that opens `GET /metrics` (Prometheus' text format) to a
    /// request with `Authorization: Bearer TOKEN`; without it /metrics is not served. Better given in the
    /// environment as PACW_METRICS_TOKEN, out of the process list.
    #[arg(long, value_name = "TOKEN")]
    pub metrics_token: Option<pacw_server::metrics::MetricsToken>,
    /// For tests only: keep the games' deadlines by a test clock that `POST /api/test/clock` moves forward (so a
    /// test sees a deadline of days pass at once). Never on a server people play on: anyone could end their games.
    #[arg(long, hide = true)]
    pub test_clock: bool,
    /// Vacation days a player with an account has each calendar year: while on vacation, the clocks of their games
    /// played at a pace of days stop (docs/hosting.md). 0: no vacations.
    #[arg(long, value_name = "DAYS", default_value_t = pacw_server::session::DEFAULT_VACATION_DAYS,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(pacw_server::session::MAX_VACATION_DAYS)))]
    pub vacation_days: u32,
}

/// An origin: `http://` or `https://`, a host and maybe a port, nothing after.
fn parse_origin(text: &str) -> Result<String, String> {
    let origin = text.trim_end_matches('/');
    let rest = origin.strip_prefix("https://").or_else(|| origin.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() && !host.contains(['/', '?', '#', ' ']) => Ok(origin.to_string()),
        _ => Err(format!("'{text}' is not an origin such as https://pacw.example.org")),
    }
}

impl Default for ServeArgs {
    fn default() -> Self {
        ServeArgs {
            addr: pacw_server::DEFAULT_ADDR.parse().expect("a valid address"),
            data: None,
            computer_delay_ms: pacw_server::DEFAULT_COMPUTER_DELAY.as_millis() as u64,
            public_origin: None,
            list_games: false,
            smtp: None,
            smtp_from: pacw_server::DEFAULT_SMTP_FROM.to_string(),
            games_per_hour: pacw_server::DEFAULT_GAMES_PER_HOUR,
            archive_after_days: pacw_server::DEFAULT_ARCHIVE_AFTER_DAYS,
            trusted_proxy: Vec::new(),
            metrics_token: None,
            test_clock: false,
            vacation_days: pacw_server::session::DEFAULT_VACATION_DAYS,
        }
    }
}

/// The metrics token given in the environment (`PACW_METRICS_TOKEN`), if any.
fn metrics_token_from_env() -> Result<Option<pacw_server::metrics::MetricsToken>> {
    match std::env::var("PACW_METRICS_TOKEN") {
        Ok(text) if !text.is_empty() => {
            text.parse().map(Some).map_err(|e: String| anyhow::anyhow!("PACW_METRICS_TOKEN: {e}"))
        }
        Ok(_) | Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(anyhow::anyhow!("PACW_METRICS_TOKEN is not text")),
    }
}

/// Runs the server until Ctrl-C.
///
/// # Errors
/// When the server cannot start or fails ([`pacw_server::run`]).
pub fn run(args: ServeArgs) -> Result<ExitCode> {
    let config = pacw_server::ServerConfig {
        addr: args.addr,
        data_dir: args.data.unwrap_or_else(pacw_server::default_data_dir),
        computer_delay: Duration::from_millis(args.computer_delay_ms),
        public_origin: args.public_origin,
        list_games: args.list_games,
        smtp: args.smtp,
        smtp_from: args.smtp_from,
        games_per_hour: args.games_per_hour,
        archive_after_days: args.archive_after_days,
        trusted_proxies: args.trusted_proxy,
        metrics_token: match args.metrics_token {
            Some(token) => Some(token),
            None => metrics_token_from_env()?,
        },
        test_clock: args.test_clock,
        vacation_days: args.vacation_days,
        ..pacw_server::ServerConfig::default()
    };
    pacw_server::run(config)?;
    Ok(ExitCode::SUCCESS)
}
