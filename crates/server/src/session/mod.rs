//! The live games: each behind its own mutex, with a broadcast channel for the server-sent events and, when the
//! computer plays a side, a task that makes its moves one by one (thinking on a blocking thread).
//!
//! Every change (an action, an undo or a resignation) is checked by the engine on a copy of the game, then passes
//! through one function (change.rs): committed to the database, and only then made visible, in memory, to the
//! reply, to the subscribers and to the observers of changes and endings.

mod accounts;
mod act;
mod archive;
mod ask;
mod change;
mod chat;
mod computer;
mod create;
mod deadline;
mod draw;
mod end;
mod matcher;
mod notice;
mod players;
mod quota;
mod ratings;
mod reset;
mod review;
mod room;
mod takeback;
mod vacation;

pub use crate::offers::{DrawOffer, Takeback};
pub use accounts::{
    AccountSettings, AccountView, CSRF_HEADER, ClaimRequest, Claimed, LogIn, LoggedIn, NAME_CHARS, PASSWORD_CHARS,
    SESSION_COOKIE, SESSION_DAYS, SignUp, check_name, check_password, cleared_cookie, hash_password, session_cookie,
    session_of, verify_password,
};
pub use act::{ActRequest, UndoRequest};
pub use ask::GameSummary;
pub use change::{ChangeKind, Ending, GameChanged, GameEnded, GameObserver};
pub use chat::{ChatRequest, MAX_CHAT_CHARS, MAX_CHAT_MESSAGES};
pub use create::{CreateGame, Created, OptionsInput, WATCH_GAMES_PER_CLIENT};
pub use deadline::{AdvanceClock, ClockView};
pub use draw::DrawView;
pub use end::ResignRequest;
pub use matcher::{BattleSize, Seek, SeekView};
pub use notice::{ContactRequest, ContactView};
pub use players::{LeaderRow, PlayerGame, PlayerPage, RatingView};
pub use quota::{Allowance, Creations};
pub use ratings::RatingsObserver;
pub use reset::{Forgot, MAX_RESET_WHO, RESET_MINUTES, Reset, ResetAsked, ResetDone};
pub use review::{ReviewProgress, ReviewReply};
pub use room::{
    Joined, MAX_POSTED_OPTIONS, POSTINGS_PER_ACCOUNT, Posted, Posting, PostingView, SideChoice, Visibility,
};
pub use takeback::TakebackView;
pub use vacation::{DEFAULT_VACATION_DAYS, MAX_VACATION_DAYS, StartVacation, VacationView, year_of};

use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::offers::Offers;
use crate::setup::{Mode, Pace, PlayerKind, Rating, Seat};
use crate::store::{AccountRecord, DamagedRow, GameRecord, Store};
use crate::tokens::{Role, Tokens};
use crate::view::{GameView, LogEntry, PlayerView, ReplayPos, ViewCtx, game_view, player_views};
use pacw_engine::{Action, Side, ToAct};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// The part of a game the list shows, kept up to date without loading it.
#[derive(Clone, Debug)]
struct Summary {
    title: String,
    turn: u8,
    turns: u8,
    decisions: usize,
    to_act: Option<Side>,
    result: Option<pacw_engine::GameResult>,
    result_text: Option<String>,
    updated_at: i64,
    players: [PlayerView; 2],
}

impl Summary {
    fn of(live: &Live, players: &[PlayerKind; 2], updated_at: i64) -> Summary {
        let b = live.game.battle();
        Summary {
            title: b.scenario().name.clone(),
            turn: b.turn(),
            turns: b.turn_limit(),
            decisions: live.decisions(),
            to_act: match b.to_act() {
                ToAct::Side(s) => Some(s),
                _ => None,
            },
            result: b.result(),
            result_text: b.result().map(|r| crate::view::result_view(b.scenario(), r).text),
            updated_at,
            players: player_views(b.scenario(), players),
        }
    }
}

struct EntryState {
    /// The game, when loaded (finished games found at start-up are loaded on first use).
    live: Option<Live>,
    summary: Summary,
    computer_running: bool,
    /// Its review, once asked for.
    review: review::ReviewState,
    /// Per side: the move passed to its player while there was nowhere to tell them (at creation, before they gave a
    /// contact), so they are told when they give one (notice.rs). In memory only: after a restart it is forgotten.
    owed: [bool; 2],
    /// Who holds each side's seat (a guest by their token, an account, or a computer player), as stored with the
    /// game; a guest's seat may be claimed by an account (accounts.rs).
    seats: [Seat; 2],
    /// When the side to act got the move (ms since 1970, by the server's clock): its deadline runs from then
    /// (deadline.rs). Stored with the game.
    move_since: i64,
    /// What the players were told of this move's deadline (deadline.rs). In memory only: after a restart a notice
    /// due may be sent again.
    deadline_told: deadline::DeadlineTold,
    /// What one player has put to the other, not yet answered: a draw offered (draw.rs), a take-back asked for
    /// (takeback.rs). Stored with the game whenever it changes.
    offers: Offers,
}

/// One game: what never changes, and its state behind a mutex.
pub struct GameEntry {
    /// The public id.
    pub id: String,
    /// Creation time (ms since 1970).
    pub created_at: i64,
    /// The scenario's short or file name.
    pub scenario_name: String,
    /// The mode.
    pub mode: Mode,
    /// Who plays each side.
    pub players: [PlayerKind; 2],
    /// Whether it counts for the ratings.
    pub rating: Rating,
    /// How fast it is played: live, or days for each move (deadline.rs).
    pub pace: Pace,
    /// The tokens.
    pub tokens: Tokens,
    /// Who asked for it (the creator's address; a game loaded at start, its own id): the computer's thinking for
    /// it takes turns with other clients' (thinker.rs).
    pub client: String,
    state: Mutex<EntryState>,
    tx: broadcast::Sender<Update>,
    /// Event streams open on this game.
    streams: AtomicUsize,
    /// Event streams open through each side's own link: while one is open, its player sees the game live and is not
    /// told of their move (notice.rs).
    side_streams: [AtomicUsize; 2],
}

/// A change pushed to the game's subscribers.
#[derive(Clone, Debug)]
pub struct Update {
    /// The revision after the change.
    pub revision: u64,
    /// The SSE event's JSON.
    pub json: Arc<str>,
    /// Which event it is, and so who hears it.
    pub event: UpdateEvent,
}

/// The kinds of event pushed to a game's subscribers.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum UpdateEvent {
    /// An action, an undo or a resignation (SSE `update`): to everyone watching.
    Change,
    /// A chat message (SSE `chat`): to the players only, never to a spectator's stream.
    Chat,
    /// A take-back asked, accepted or declined (SSE `takeback`): to the players only.
    Takeback,
    /// A draw offered, accepted or declined (SSE `draw`): to the players only.
    Draw,
}

impl UpdateEvent {
    /// The SSE event's name.
    pub fn name(self) -> &'static str {
        match self {
            UpdateEvent::Change => "update",
            UpdateEvent::Chat => "chat",
            UpdateEvent::Takeback => "takeback",
            UpdateEvent::Draw => "draw",
        }
    }

    /// Whether a stream through a link of `role` hears it.
    pub fn heard_by(self, role: Role) -> bool {
        self == UpdateEvent::Change || role != Role::Spectator
    }
}

/// The body of an SSE `update` event.
#[derive(Serialize)]
struct UpdateBody<'a> {
    revision: u64,
    /// `action` or `undo`.
    kind: &'static str,
    /// For an action: the side that made it and whether the computer did.
    side: Option<Side>,
    computer: bool,
    /// For an action: the action and its words.
    action: Option<Action>,
    text: Option<String>,
    decisions: usize,
    log_len: usize,
    /// The new log entries (for an undo: none; the log was cut to `log_len`).
    events: &'a [LogEntry],
    to_act: Option<Side>,
    over: bool,
}

impl GameEntry {
    fn lock(&self) -> MutexGuard<'_, EntryState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A receiver of this game's updates.
    pub fn subscribe(&self) -> broadcast::Receiver<Update> {
        self.tx.subscribe()
    }

    fn ctx(&self, role: Role) -> ViewCtx<'_> {
        ViewCtx { id: &self.id, scenario_name: &self.scenario_name, mode: self.mode, players: &self.players, role }
    }
}

/// A game in the list.
#[derive(Serialize, Clone, Debug)]
pub struct GameListItem {
    /// The id.
    pub id: String,
    /// `in_progress`, `finished` or `damaged`.
    pub status: &'static str,
    /// For a damaged row: what is wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The scenario's short name and title.
    pub scenario: Option<String>,
    /// The scenario's title.
    pub title: Option<String>,
    /// How it is played.
    pub mode: Option<Mode>,
    /// Who plays each side.
    pub players: Option<[PlayerView; 2]>,
    /// The turn and the limit.
    pub turn: Option<u8>,
    /// The turn limit.
    pub turns: Option<u8>,
    /// Decisions made.
    pub decisions: Option<usize>,
    /// The side to act, while in progress.
    pub to_act: Option<Side>,
    /// The result, once finished.
    pub result: Option<pacw_engine::GameResult>,
    /// The result in words.
    pub result_text: Option<String>,
    /// Created, ms since 1970.
    pub created_at: Option<i64>,
    /// Last change, ms since 1970.
    pub updated_at: Option<i64>,
}

/// The link path that opens a token's game in the UI.
pub fn link(token: &str) -> String {
    format!("/game/{token}")
}

/// The links of a set of tokens, by role name.
pub fn links(tokens: &Tokens) -> HashMap<String, String> {
    tokens.pairs().into_iter().map(|(t, role)| (role.name().to_string(), link(&t))).collect()
}

/// Settings of the live games.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// Pause between the computer's decisions.
    pub computer_delay: Duration,
    /// Whether `GET /api/games` lists the games' public facts (the operator's `--list-games`).
    pub list_games: bool,
    /// The most event streams open in all ([`streams_for`] the process's file limit).
    pub streams_in_all: usize,
    /// The SMTP server that e-mails players their move (`--smtp`), if any.
    pub smtp: Option<String>,
    /// The sender of those e-mails (`--smtp-from`).
    pub smtp_from: String,
    /// The server's address as players reach it (`--public-origin`), for the links in those messages.
    pub public_origin: Option<String>,
    /// New games a client may create an hour (`--games-per-hour`).
    pub games_per_hour: u32,
    /// Days without a move after which an unfinished game is put away (`--archive-after-days`; 0: never).
    pub archive_after_days: u32,
    /// The reverse proxies believed about the client they forward (`--trusted-proxy`, proxy.rs).
    pub trusted_proxies: Vec<crate::proxy::Cidr>,
    /// The operator's token that opens `GET /metrics` (`--metrics-token`); without one it is not served.
    pub metrics_token: Option<crate::metrics::MetricsToken>,
    /// Whether the deadlines are kept by a test clock that may be moved forward (`--test-clock`, clock.rs).
    pub test_clock: bool,
    /// The vacation days a player with an account has each calendar year (`--vacation-days`, vacation.rs).
    pub vacation_days: u32,
}

/// Every game of the server, by id and by token, and the database.
pub struct Games {
    config: SessionConfig,
    store: Store,
    by_id: RwLock<HashMap<String, Arc<GameEntry>>>,
    by_token: RwLock<HashMap<String, (Arc<GameEntry>, Role)>>,
    damaged: Mutex<Vec<DamagedRow>>,
    shutdown: watch::Sender<bool>,
    runtime: tokio::runtime::Handle,
    /// Where the computer players think: a pool sized to the machine, people's games first.
    thinker: crate::thinker::Thinker,
    /// Event streams open on every game.
    streams: AtomicUsize,
    /// Tells players of two-player games that it is their move (notify.rs).
    notifier: Arc<crate::notify::Notifier>,
    /// How many games each client may still create now (a token bucket by address).
    creations: Creations,
    /// The tokens of the games put away after days without a move, with their ids (archive.rs).
    archived: RwLock<HashMap<String, String>>,
    /// Told of every change and ending (change.rs).
    observers: RwLock<Vec<Arc<dyn change::GameObserver>>>,
    /// Joining and withdrawing postings of the waiting room, one at a time (room.rs).
    room_lock: Mutex<()>,
    /// Log-in attempts allowed per name (accounts.rs).
    logins_by_name: Allowance,
    /// Log-in and sign-up attempts allowed per address (password resets asked for and made too).
    logins_by_address: Allowance,
    /// Password reset messages allowed per account (reset.rs).
    resets_by_account: Allowance,
    /// Bringing back games put away, one at a time (archive.rs).
    reviving: Mutex<()>,
    /// The time the deadlines are kept by (clock.rs): the system's, or a test clock.
    clock: crate::clock::Clock,
    /// The players' vacations, as stored (vacation.rs): every deadline reads them. Locked after a game's state, never
    /// before it.
    vacations: Mutex<vacation::Ledger>,
}

impl Games {
    /// Opens the games of the store: each row is replayed and checked; damaged rows are logged and listed apart.
    /// Games whose computer player is to move are resumed.
    ///
    /// # Errors
    /// When the store's games cannot be read, or the SMTP settings are not right
    /// ([`Notifier::new`](crate::notify::Notifier::new)); the message says which.
    pub fn open(store: Store, config: SessionConfig, runtime: tokio::runtime::Handle) -> Result<Arc<Games>, String> {
        let (records, mut damaged) = store.load_all().map_err(|e| e.to_string())?;
        let vacations = vacation::Ledger::of(store.vacations().map_err(|e| e.to_string())?);
        let notifier = Arc::new(crate::notify::Notifier::new(config.smtp.as_deref(), &config.smtp_from)?);
        let creations = Creations::per_hour(config.games_per_hour);
        let games = Arc::new(Games {
            notifier,
            creations,
            archived: RwLock::new(HashMap::new()),
            observers: RwLock::new(Vec::new()),
            room_lock: Mutex::new(()),
            reviving: Mutex::new(()),
            vacations: Mutex::new(vacations),
            clock: if config.test_clock { crate::clock::Clock::testing() } else { crate::clock::Clock::system() },
            logins_by_name: Allowance::new(
                LOGINS_PER_NAME,
                Duration::from_secs(60),
                "too many log-in attempts for this name",
            ),
            logins_by_address: Allowance::new(
                LOGINS_PER_ADDRESS,
                Duration::from_secs(10),
                "too many log-in attempts from this address",
            ),
            resets_by_account: Allowance::new(
                RESETS_PER_ACCOUNT,
                Duration::from_secs(20 * 60),
                "too many password reset messages for this account",
            ),
            config,
            store,
            by_id: RwLock::new(HashMap::new()),
            by_token: RwLock::new(HashMap::new()),
            damaged: Mutex::new(Vec::new()),
            shutdown: watch::channel(false).0,
            runtime,
            thinker: crate::thinker::Thinker::start(),
            streams: AtomicUsize::new(0),
        });
        for record in records {
            let id = record.id.clone();
            if record.archived {
                let mut archived = games.archived.write().unwrap_or_else(|p| p.into_inner());
                for (token, _) in record.tokens.pairs() {
                    archived.insert(token, id.clone());
                }
                continue;
            }
            match Live::from_save(&record.save) {
                Ok(live) => {
                    let finished = live.game.battle().result().is_some();
                    let client = record.id.clone();
                    let entry = games.register(record, live, client);
                    if finished {
                        entry.lock().live = None; // loaded again when opened
                    }
                }
                Err(e) => damaged.push(DamagedRow { id, error: e.to_string() }),
            }
        }
        for d in &damaged {
            eprintln!("pacw server: game {} is damaged and was skipped: {}", d.id, d.error);
        }
        *games.damaged.lock().unwrap_or_else(|p| p.into_inner()) = damaged;
        let entries: Vec<_> = games.by_id.read().unwrap_or_else(|p| p.into_inner()).values().cloned().collect();
        for entry in entries {
            let mut st = entry.lock();
            games.ensure_computer(&entry, &mut st);
        }
        games.archive_idle();
        games.keep_archiving();
        games.keep_watching_deadlines();
        games.observe(Arc::new(RatingsObserver::new(&games)));
        Ok(games)
    }

    fn register(&self, record: GameRecord, live: Live, client: String) -> Arc<GameEntry> {
        let summary = Summary::of(&live, &record.players, record.updated_at);
        let entry = Arc::new(GameEntry {
            id: record.id.clone(),
            created_at: record.created_at,
            scenario_name: record.scenario_name,
            mode: record.mode,
            players: record.players,
            rating: record.rating,
            pace: record.pace,
            tokens: record.tokens,
            client,
            state: Mutex::new(EntryState {
                live: Some(live),
                summary,
                computer_running: false,
                review: review::ReviewState::default(),
                owed: [false; 2],
                seats: record.seats,
                move_since: record.move_since,
                deadline_told: deadline::DeadlineTold::Nothing,
                offers: record.offers,
            }),
            tx: broadcast::channel(256).0,
            streams: AtomicUsize::new(0),
            side_streams: [AtomicUsize::new(0), AtomicUsize::new(0)],
        });
        let mut tokens = self.by_token.write().unwrap_or_else(|p| p.into_inner());
        for (t, role) in entry.tokens.pairs() {
            tokens.insert(t, (entry.clone(), role));
        }
        self.by_id.write().unwrap_or_else(|p| p.into_inner()).insert(record.id, entry.clone());
        entry
    }

    /// What `/metrics` tells of the server now (metrics.rs).
    ///
    /// # Errors
    /// When the database cannot be read (500).
    pub fn vitals(&self) -> ApiResult<crate::metrics::Vitals> {
        let games = self.store.count_by_status().map_err(|e| ApiError::Internal(e.to_string()))?;
        let entries: Vec<Arc<GameEntry>> =
            self.by_id.read().unwrap_or_else(|p| p.into_inner()).values().cloned().collect();
        let players_online =
            entries.iter().flat_map(|e| e.side_streams.iter()).filter(|n| n.load(Ordering::SeqCst) > 0).count();
        Ok(crate::metrics::Vitals {
            games,
            games_loaded: entries.len(),
            event_streams: self.streams.load(Ordering::SeqCst),
            players_online,
            thinking: self.thinker.stats(),
        })
    }

    /// The operator's token that opens `/metrics`, if one was given.
    pub fn metrics_token(&self) -> Option<&crate::metrics::MetricsToken> {
        self.config.metrics_token.as_ref()
    }

    /// The time the deadlines are kept by (clock.rs).
    pub fn clock(&self) -> &crate::clock::Clock {
        &self.clock
    }

    /// The database.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Tells the computer players and the event streams to stop.
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// Stops the computer players and the event streams, and closes the database.
    pub fn shut_down(&self) {
        self.begin_shutdown();
        self.store.close();
    }

    /// A receiver that turns true when the server shuts down.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// The game and role of a token.
    ///
    /// # Errors
    /// When the token is not 32 hexadecimal digits or opens no game (404), or its game was put away (410) and not
    /// brought back since (a game `pacw games --restore` brought back while the server runs opens again here).
    pub fn by_token(self: &Arc<Self>, token: &str) -> ApiResult<(Arc<GameEntry>, Role)> {
        if !crate::tokens::looks_like_token(token) {
            return Err(ApiError::NotFound("a game token is 32 hexadecimal digits; check the link".into()));
        }
        if let Some(found) = self.by_token.read().unwrap_or_else(|p| p.into_inner()).get(token).cloned() {
            return Ok(found);
        }
        let archived_id = self.archived.read().unwrap_or_else(|p| p.into_inner()).get(token).cloned();
        if let Some(id) = &archived_id
            && let Some(found) = self.revive(id, token)
        {
            return Ok(found);
        }
        match archived_id {
            Some(id) => Err(ApiError::Gone(format!(
                "game {id} was put away after {} days without a move; the server's operator can bring it back \
                 (pacw games --restore {id})",
                self.config.archive_after_days
            ))),
            None => Err(ApiError::no_game()),
        }
    }

    /// Runs `f` on the loaded game (loading it from the database first if needed).
    fn with_live<T>(
        &self,
        entry: &GameEntry,
        f: impl FnOnce(&mut EntryState, &mut Live) -> ApiResult<T>,
    ) -> ApiResult<T> {
        let mut st = entry.lock();
        let mut live = match st.live.take() {
            Some(l) => l,
            None => self.load_live(&entry.id)?,
        };
        let out = f(&mut st, &mut live);
        st.live = Some(live);
        out
    }

    /// The game of a locked entry, loaded from the database if it was not in memory.
    fn loaded<'a>(&self, id: &str, st: &'a mut EntryState) -> ApiResult<&'a Live> {
        let live = match st.live.take() {
            Some(l) => l,
            None => self.load_live(id)?,
        };
        Ok(st.live.insert(live))
    }

    /// Stores the offers of a game waiting for an answer, then makes them current: a refused write changes nothing.
    ///
    /// # Errors
    /// When they cannot be stored (500).
    fn set_offers(&self, entry: &GameEntry, st: &mut EntryState, offers: Offers) -> ApiResult<()> {
        self.store
            .update_offers(&entry.id, &offers)
            .map_err(|e| ApiError::Internal(format!("the offer could not be stored, so nothing changed: {e}")))?;
        st.offers = offers;
        Ok(())
    }

    fn load_live(&self, id: &str) -> ApiResult<Live> {
        let damaged = |e: String| ApiError::Internal(format!("game {id} cannot be loaded: {e}"));
        match self.store.load(id).map_err(|e| damaged(e.to_string()))? {
            Some(Ok(record)) => Live::from_save(&record.save).map_err(|e| damaged(e.to_string())),
            Some(Err(d)) => Err(damaged(d.error)),
            None => Err(damaged("it is no longer in the database".into())),
        }
    }

    /// The view of a game for a token, its log from `log_from`.
    ///
    /// # Errors
    /// When the game cannot be loaded from the database (500).
    pub fn view(&self, entry: &GameEntry, role: Role, log_from: usize) -> ApiResult<GameView> {
        self.with_live(entry, |_, live| Ok(game_view(&entry.ctx(role), live, log_from, None)))
    }

    /// The combat system the game is played by: the standard rules, or its variant's.
    ///
    /// # Errors
    /// When the game cannot be loaded from the database (500).
    pub fn combat_system(&self, entry: &GameEntry) -> ApiResult<std::sync::Arc<pacw_engine::system::CombatSystem>> {
        self.with_live(entry, |_, live| Ok(live.game.battle().scenario().combat_system()))
    }

    /// The game's revision, decisions and log length now.
    ///
    /// # Errors
    /// When the game cannot be loaded from the database (500).
    pub fn revision(&self, entry: &GameEntry) -> ApiResult<(u64, usize, usize)> {
        self.with_live(entry, |_, live| Ok((live.revision, live.decisions(), live.game.log().len())))
    }

    /// A copy of the game as it stands (for replays), with the entry's context.
    ///
    /// # Errors
    /// When the game cannot be loaded from the database (500).
    pub fn snapshot(&self, entry: &GameEntry) -> ApiResult<Live> {
        self.with_live(entry, |_, live| Ok(live.clone()))
    }

    /// The view after decision `k` of the game.
    ///
    /// # Errors
    /// When the game has fewer than `k` decisions (404), or it cannot be loaded or does not replay (500).
    pub fn view_at(&self, entry: &GameEntry, role: Role, k: usize) -> ApiResult<GameView> {
        let live = self.snapshot(entry)?;
        let n = live.decisions();
        if k > n {
            return Err(ApiError::NotFound(format!("the game has {n} decisions; ask for 0 to {n}")));
        }
        let replay = |e: pacw_engine::Illegal| ApiError::Internal(format!("game {} does not replay: {e}", entry.id));
        let mut past = Live::new(live.game.undo(n));
        for &a in &live.game.actions()[..k] {
            past.apply(a).map_err(replay)?;
        }
        if let Some(how) = live.game.declared().filter(|_| k == n) {
            past.game.conclude(how).map_err(replay)?;
        }
        past.revision = live.revision;
        Ok(game_view(
            &entry.ctx(role),
            &past,
            0,
            Some(ReplayPos { decision: k, of: n, game_over: live.game.battle().result().is_some() }),
        ))
    }

    /// The engine's save of a finished game (its seed is secret until then).
    ///
    /// # Errors
    /// When the game goes on (403: the save holds the seed), or it cannot be loaded (500).
    pub fn save_of(&self, entry: &GameEntry) -> ApiResult<pacw_engine::SaveFile> {
        self.with_live(entry, |_, live| {
            if live.game.battle().result().is_none() {
                return Err(ApiError::Forbidden("the save holds the seed: it is given once the game is over".into()));
            }
            Ok(live.game.save())
        })
    }

    /// The client a request comes from, for the limits kept per client: the address it connects from, or behind a
    /// trusted proxy the one the proxy forwards (proxy.rs); `unknown` without an address.
    pub fn client_of(&self, peer: Option<std::net::SocketAddr>, headers: &axum::http::HeaderMap) -> String {
        peer.map_or_else(
            || "unknown".to_string(),
            |p| crate::proxy::client_address(p.ip(), headers, &self.config.trusted_proxies).to_string(),
        )
    }

    /// Whom the limits kept per client count against (new games an hour, games the computer plays against itself,
    /// the thinking's turns): a logged-in account by itself, so that players behind one address (a home's NAT, a
    /// club's proxy) do not share an allowance; else `address`, from [`Games::client_of`]. Log-in attempts stay
    /// counted per address: they come before anyone is logged in.
    pub fn client_key(account: Option<&AccountRecord>, address: String) -> String {
        match account {
            Some(a) => format!("account {}", a.id.0),
            None => address,
        }
    }

    /// Whether the client reached the server over HTTPS: the public origin is `https://…`, or a trusted proxy says so
    /// (proxy.rs). The session cookie is then `Secure`.
    pub fn is_https(&self, peer: Option<std::net::SocketAddr>, headers: &axum::http::HeaderMap) -> bool {
        self.config.public_origin.as_deref().is_some_and(|o| o.starts_with("https://"))
            || peer.is_some_and(|p| crate::proxy::forwarded_https(p.ip(), headers, &self.config.trusted_proxies))
    }

    /// Whether the operator lets `GET /api/games` list the games.
    pub fn listing_allowed(&self) -> bool {
        self.config.list_games
    }

    /// The public facts of every game (never a token), most recently changed first, with the damaged rows.
    pub fn list(&self) -> Vec<GameListItem> {
        let entries: Vec<_> = self.by_id.read().unwrap_or_else(|p| p.into_inner()).values().cloned().collect();
        let mut items: Vec<GameListItem> = entries
            .iter()
            .map(|e| {
                let s = e.lock().summary.clone();
                GameListItem {
                    id: e.id.clone(),
                    status: if s.result.is_some() { "finished" } else { "in_progress" },
                    error: None,
                    scenario: Some(e.scenario_name.clone()),
                    title: Some(s.title),
                    mode: Some(e.mode),
                    players: Some(s.players),
                    turn: Some(s.turn),
                    turns: Some(s.turns),
                    decisions: Some(s.decisions),
                    to_act: s.to_act,
                    result: s.result,
                    result_text: s.result_text,
                    created_at: Some(e.created_at),
                    updated_at: Some(s.updated_at),
                }
            })
            .collect();
        items.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then_with(|| a.id.cmp(&b.id)));
        for d in self.damaged.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            items.push(GameListItem {
                id: d.id.clone(),
                status: "damaged",
                error: Some(d.error.clone()),
                scenario: None,
                title: None,
                mode: None,
                players: None,
                turn: None,
                turns: None,
                decisions: None,
                to_act: None,
                result: None,
                result_text: None,
                created_at: None,
                updated_at: None,
            });
        }
        items
    }
}

/// Log-in attempts a name is allowed at once; then one a minute.
pub const LOGINS_PER_NAME: u32 = 10;

/// Log-in and sign-up attempts an address is allowed at once; then one every ten seconds.
pub const LOGINS_PER_ADDRESS: u32 = 30;

/// Password reset messages an account is sent at once; then one every twenty minutes.
pub const RESETS_PER_ACCOUNT: u32 = 3;

/// The most event streams open on one game: past it a new stream is refused (503), so that idle watchers cannot
/// use up the server's connections. The server as a whole takes [`SessionConfig::streams_in_all`].
pub const STREAMS_PER_GAME: usize = 32;

/// The most event streams the whole server keeps open with `files` file descriptors: all but 256 (for requests,
/// the database and the rest), between 64 and 8,192.
pub fn streams_for(files: Option<u64>) -> usize {
    files.map_or(512, |n| (n as usize).saturating_sub(256).clamp(64, 8192))
}

/// An open event stream's place in the counts; given back when the stream ends.
pub struct StreamSlot {
    games: Arc<Games>,
    entry: Arc<GameEntry>,
    role: Role,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        if let Role::Side(side) = self.role {
            self.entry.side_streams[side.index()].fetch_sub(1, Ordering::SeqCst);
        }
        self.entry.streams.fetch_sub(1, Ordering::SeqCst);
        self.games.streams.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Games {
    /// A place for one more event stream on `entry` through a link of `role`, unless the game or the server has as
    /// many as it takes.
    ///
    /// # Errors
    /// When the server or the game has as many event streams open as it takes (503).
    pub fn open_stream(self: &Arc<Self>, entry: &Arc<GameEntry>, role: Role) -> ApiResult<StreamSlot> {
        let take = |count: &AtomicUsize, limit: usize| {
            count.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < limit).then_some(n + 1)).is_ok()
        };
        let in_all = self.config.streams_in_all;
        if !take(&self.streams, in_all) {
            return Err(ApiError::Unavailable(format!("the server has {in_all} live streams open; try later")));
        }
        if !take(&entry.streams, STREAMS_PER_GAME) {
            self.streams.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::Unavailable(format!(
                "this game has {STREAMS_PER_GAME} live streams open; close a page of it, or try later"
            )));
        }
        if let Role::Side(side) = role {
            entry.side_streams[side.index()].fetch_add(1, Ordering::SeqCst);
        }
        Ok(StreamSlot { games: self.clone(), entry: entry.clone(), role })
    }
}

/// The shipped scenario called `name` (short name or file name).
pub fn shipped(name: &str) -> Option<pacw_engine::Shipped> {
    pacw_engine::offered_scenarios().find(|s| s.name == name || s.file == name)
}
