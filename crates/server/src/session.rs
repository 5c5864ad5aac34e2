//! The live games: each behind its own mutex, with a broadcast channel for the server-sent events and, when the
//! computer plays a side, a task that makes its moves one by one (thinking on a blocking thread).
//!
//! Every change (an action or an undo) is checked by the engine on a copy of the game, committed to the database,
//! and only then made visible: in memory, to the reply and to the subscribers.

use crate::error::{ApiError, ApiResult};
use crate::store::{DamagedRow, GameRecord, Store, now_ms};
use crate::tokens::{Role, Tokens, new_game_id, new_seed, new_token};
use crate::view::{GameView, LogEntry, PlayerView, ReplayPos, ViewCtx, game_view, log_entries, player_views};
use pacw_engine::{Action, Event, Game, Options, SaveError, Scenario, Side, ToAct};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, watch};

/// How a game is played.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// One human against the computer.
    Computer,
    /// Two humans on one screen: one token acts for both sides.
    Hotseat,
    /// Two humans on two machines: a token per side.
    TwoPlayers,
    /// The computer against itself; only a spectator token.
    Watch,
}

/// Who plays a side.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlayerKind {
    /// A person, through a token.
    Human,
    /// A computer player of `pacw_ai::player`.
    Computer {
        /// Its name, such as `greedy` or `mcts:500`.
        name: String,
    },
}

/// One decision of a game.
#[derive(Copy, Clone, Debug)]
pub struct Step {
    /// The side that made it.
    pub side: Side,
    /// The log's length after it (and the chance it caused).
    pub log_end: usize,
    /// Whether a die was rolled or a card drawn after it: it cannot be taken back.
    pub chance: bool,
}

/// A game in memory: the engine's game and, per decision, who made it and which events it caused.
#[derive(Clone, Debug)]
pub struct Live {
    /// The engine's game.
    pub game: Game,
    /// The log's length before the first decision.
    pub start_len: usize,
    /// One entry per decision.
    pub steps: Vec<Step>,
    /// Increases with every change.
    pub revision: u64,
}

fn is_chance(e: &Event) -> bool {
    matches!(
        e,
        Event::CardDrawn { .. }
            | Event::InitiativeRolled { .. }
            | Event::ToHitRolled { .. }
            | Event::HitResultRolled { .. }
    )
}

impl Live {
    /// A game not yet decided on.
    pub fn new(game: Game) -> Live {
        Live { start_len: game.log().len(), game, steps: Vec::new(), revision: 0 }
    }

    /// Replays a save (checked by the engine: format, scenario, options, every decision, the events' fingerprint).
    pub fn from_save(save: &pacw_engine::SaveFile) -> Result<Live, SaveError> {
        let checked = Game::from_save(save)?;
        let mut live = Live::new(checked.undo(checked.actions().len()));
        for &a in checked.actions() {
            live.apply(a).expect("a checked save replays");
        }
        Ok(live)
    }

    /// Decisions made.
    pub fn decisions(&self) -> usize {
        self.steps.len()
    }

    /// Applies a decision in place; on error nothing changes.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, pacw_engine::Illegal> {
        let side = match self.game.battle().to_act() {
            ToAct::Side(s) => s,
            _ => self.game.battle().active_side(),
        };
        let events = self.game.act(action)?;
        self.steps.push(Step { side, log_end: self.game.log().len(), chance: events.iter().any(is_chance) });
        self.revision += 1;
        Ok(events)
    }

    /// The log's end after decision `k` (0: before the first decision); past the last, the log's length.
    pub fn step_end(&self, k: usize) -> usize {
        if k == 0 { self.start_len } else { self.steps.get(k - 1).map_or(usize::MAX, |s| s.log_end) }
    }

    /// The decision whose events include log index `i` (0 for the events before the first decision).
    pub fn decision_of_event(&self, i: usize) -> usize {
        if i < self.start_len {
            return 0;
        }
        self.steps.partition_point(|s| s.log_end <= i) + 1
    }

    /// How many of `role`'s decisions can be taken back: those after the last chance event, going back through
    /// the computer's decisions but stopping at another person's.
    pub fn undoable(&self, role: Role, players: &[PlayerKind; 2]) -> usize {
        self.undo_plan(role, players, usize::MAX).0
    }

    /// Going back from the last decision: (own decisions found, decisions to remove to take back `want` of them).
    fn undo_plan(&self, role: Role, players: &[PlayerKind; 2], want: usize) -> (usize, usize) {
        let (mut own, mut remove) = (0, 0);
        for (i, step) in self.steps.iter().enumerate().rev() {
            if own == want || step.chance || self.game.battle().result().is_some() {
                break;
            }
            if role.controls(step.side) && players[step.side.index()] == PlayerKind::Human {
                own += 1;
                remove = self.steps.len() - i;
            } else if !matches!(players[step.side.index()], PlayerKind::Computer { .. }) {
                break;
            }
        }
        (own, remove)
    }
}

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
            turns: b.scenario().turns,
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
    /// The tokens.
    pub tokens: Tokens,
    state: Mutex<EntryState>,
    tx: broadcast::Sender<Update>,
}

/// A change pushed to the game's subscribers.
#[derive(Clone, Debug)]
pub struct Update {
    /// The revision after the change.
    pub revision: u64,
    /// The SSE `update` event's JSON.
    pub json: Arc<str>,
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
    /// The tokens this list may show (all of them on a server reachable only from this machine, else the
    /// spectator's).
    pub tokens: Option<Tokens>,
    /// The links (paths) for those tokens.
    pub links: Option<HashMap<String, String>>,
}

/// The link path that opens a token's game in the UI.
pub fn link(token: &str) -> String {
    format!("/game/{token}")
}

/// The links of a set of tokens, by role name.
pub fn links(tokens: &Tokens) -> HashMap<String, String> {
    tokens.pairs().into_iter().map(|(t, role)| (role.name().to_string(), link(&t))).collect()
}

/// A request to create a game (docs/api.md).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// A shipped scenario's name.
    pub scenario: Option<String>,
    /// Or a scenario's full text (TOML, SCENARIO_FORMAT.md).
    pub scenario_text: Option<String>,
    /// The uploaded scenario's file name, for messages.
    pub scenario_file: Option<String>,
    /// Rule options (R11): `["to_hit=4", …]` or `{"to_hit": 4, …}`.
    #[serde(default)]
    pub options: OptionsInput,
    /// The mode.
    pub mode: Mode,
    /// Against the computer: the human's side (`A`, `B`, `first`, `second` or the scenario's side id).
    pub human_side: Option<String>,
    /// The computer player (`greedy` by default).
    pub computer: Option<String>,
    /// In `watch` mode: the second side's computer player (default: the same as `computer`).
    pub computer_b: Option<String>,
}

/// Options as `name=value` strings or as an object.
#[derive(Deserialize, Debug, Default)]
#[serde(untagged)]
pub enum OptionsInput {
    /// None.
    #[default]
    None,
    /// `["to_hit=4"]`.
    Pairs(Vec<String>),
    /// `{"to_hit": 4}`.
    Object(serde_json::Map<String, serde_json::Value>),
}

impl OptionsInput {
    fn pairs(&self) -> ApiResult<Vec<(String, String)>> {
        match self {
            OptionsInput::None => Ok(Vec::new()),
            OptionsInput::Pairs(v) => v
                .iter()
                .map(|p| {
                    p.split_once('=')
                        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                        .ok_or_else(|| ApiError::BadRequest(format!("option '{p}' is not of the form name=value")))
                })
                .collect(),
            OptionsInput::Object(m) => m
                .iter()
                .map(|(k, v)| match v {
                    serde_json::Value::String(s) => Ok((k.clone(), s.clone())),
                    serde_json::Value::Number(n) => Ok((k.clone(), n.to_string())),
                    serde_json::Value::Bool(b) => Ok((k.clone(), b.to_string())),
                    _ => Err(ApiError::BadRequest(format!("option {k}: give a string, number or true/false"))),
                })
                .collect(),
        }
    }
}

/// The reply to a created game.
#[derive(Serialize, Debug)]
pub struct Created {
    /// The id.
    pub id: String,
    /// Every token of the game, by role (`A`, `B`, `hotseat`, `spectator`): keep them, they are the only way in.
    pub tokens: Tokens,
    /// The link paths for them.
    pub links: HashMap<String, String>,
    /// The view for the main token (the human's, the hot-seat's, side A's, or the spectator's).
    pub view: GameView,
}

/// A request to act.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct ActRequest {
    /// The index of the action in the view's `legal_actions`.
    pub index: Option<usize>,
    /// The action itself, as JSON.
    pub action: Option<Action>,
    /// If given, refused with 409 unless the game has exactly this many decisions (the view is current).
    pub decisions: Option<usize>,
}

/// A request to undo.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// How many of your decisions to take back (default 1).
    pub count: Option<usize>,
    /// If given, refused with 409 unless the game has exactly this many decisions.
    pub decisions: Option<usize>,
}

/// Settings of the live games.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// Pause between the computer's decisions.
    pub computer_delay: Duration,
    /// Whether the games list shows every token (the server is reachable only from this machine).
    pub list_all_tokens: bool,
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
}

/// The seed a computer player gets for the decision after `decisions`: fixed by the game, so a restart plays on
/// the same way, but drawn through ChaCha under a key of its own, so the computer's choices reveal nothing of the
/// dice's seed.
fn player_seed(game_seed: u64, decisions: usize) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed ^ 0x243f_6a88_85a3_08d3);
    rng.set_stream(decisions as u64);
    rng.random()
}

impl Games {
    /// Opens the games of the store: each row is replayed and checked; damaged rows are logged and listed apart.
    /// Games whose computer player is to move are resumed.
    pub fn open(store: Store, config: SessionConfig, runtime: tokio::runtime::Handle) -> Result<Arc<Games>, String> {
        let (records, mut damaged) = store.load_all().map_err(|e| e.to_string())?;
        let games = Arc::new(Games {
            config,
            store,
            by_id: RwLock::new(HashMap::new()),
            by_token: RwLock::new(HashMap::new()),
            damaged: Mutex::new(Vec::new()),
            shutdown: watch::channel(false).0,
            runtime,
        });
        for record in records {
            let id = record.id.clone();
            match Live::from_save(&record.save) {
                Ok(live) => {
                    let finished = live.game.battle().result().is_some();
                    let entry = games.register(record, live);
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
        Ok(games)
    }

    fn register(&self, record: GameRecord, live: Live) -> Arc<GameEntry> {
        let summary = Summary::of(&live, &record.players, record.updated_at);
        let entry = Arc::new(GameEntry {
            id: record.id.clone(),
            created_at: record.created_at,
            scenario_name: record.scenario_name,
            mode: record.mode,
            players: record.players,
            tokens: record.tokens,
            state: Mutex::new(EntryState { live: Some(live), summary, computer_running: false }),
            tx: broadcast::channel(256).0,
        });
        let mut tokens = self.by_token.write().unwrap_or_else(|p| p.into_inner());
        for (t, role) in entry.tokens.pairs() {
            tokens.insert(t, (entry.clone(), role));
        }
        self.by_id.write().unwrap_or_else(|p| p.into_inner()).insert(record.id, entry.clone());
        entry
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
    pub fn by_token(&self, token: &str) -> ApiResult<(Arc<GameEntry>, Role)> {
        if !crate::tokens::looks_like_token(token) {
            return Err(ApiError::NotFound("a game token is 32 hexadecimal digits; check the link".into()));
        }
        self.by_token.read().unwrap_or_else(|p| p.into_inner()).get(token).cloned().ok_or_else(ApiError::no_game)
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
        if st.live.is_none() {
            st.live = Some(self.load_live(id)?);
        }
        Ok(st.live.as_ref().expect("loaded above"))
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
    pub fn view(&self, entry: &GameEntry, role: Role, log_from: usize) -> ApiResult<GameView> {
        self.with_live(entry, |_, live| Ok(game_view(&entry.ctx(role), live, log_from, None)))
    }

    /// The game's revision, decisions and log length now.
    pub fn revision(&self, entry: &GameEntry) -> ApiResult<(u64, usize, usize)> {
        self.with_live(entry, |_, live| Ok((live.revision, live.decisions(), live.game.log().len())))
    }

    /// A copy of the game as it stands (for replays), with the entry's context.
    pub fn snapshot(&self, entry: &GameEntry) -> ApiResult<Live> {
        self.with_live(entry, |_, live| Ok(live.clone()))
    }

    /// The view after decision `k` of the game.
    pub fn view_at(&self, entry: &GameEntry, role: Role, k: usize) -> ApiResult<GameView> {
        let live = self.snapshot(entry)?;
        let n = live.decisions();
        if k > n {
            return Err(ApiError::NotFound(format!("the game has {n} decisions; ask for 0 to {n}")));
        }
        let mut past = Live::new(live.game.undo(n));
        for &a in &live.game.actions()[..k] {
            past.apply(a).expect("a game's own decisions replay");
        }
        past.revision = live.revision;
        Ok(game_view(&entry.ctx(role), &past, 0, Some(ReplayPos { decision: k, of: n })))
    }

    /// The engine's save of a finished game (its seed is secret until then).
    pub fn save_of(&self, entry: &GameEntry) -> ApiResult<pacw_engine::SaveFile> {
        self.with_live(entry, |_, live| {
            if live.game.battle().result().is_none() {
                return Err(ApiError::Forbidden("the save holds the seed: it is given once the game is over".into()));
            }
            Ok(live.game.save())
        })
    }

    /// Creates a game, stores it, and returns its tokens and first view.
    pub fn create(self: &Arc<Self>, req: CreateGame) -> ApiResult<Created> {
        let (text, file, name) = match (&req.scenario, &req.scenario_text) {
            (Some(_), Some(_)) => {
                return Err(ApiError::BadRequest("give either scenario (a shipped name) or scenario_text".into()));
            }
            (Some(n), None) => {
                let (short, file, text) = shipped(n)
                    .ok_or_else(|| ApiError::NotFound(format!("no shipped scenario '{n}' (see GET /api/scenarios)")))?;
                (text.to_string(), file.to_string(), short.to_string())
            }
            (None, Some(t)) => {
                let file = req.scenario_file.clone().unwrap_or_else(|| "uploaded.toml".to_string());
                (t.clone(), file.clone(), file)
            }
            (None, None) => {
                return Err(ApiError::BadRequest("give scenario (a shipped name) or scenario_text".into()));
            }
        };
        let scenario = Scenario::parse(&text, &file).map_err(ApiError::Scenario)?;
        let mut options: Options = scenario.options;
        for (k, v) in req.options.pairs()? {
            options.set(&k, &v).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
        }
        let computer = |n: &Option<String>| -> ApiResult<PlayerKind> {
            let name = n.clone().unwrap_or_else(|| "greedy".to_string());
            // Only the plain names: a client must not be able to ask the server for an arbitrarily long search.
            if pacw_ai::PLAYERS.contains(&name.as_str()) {
                Ok(PlayerKind::Computer { name })
            } else {
                Err(ApiError::Unprocessable(format!(
                    "unknown computer player '{name}' (known: {})",
                    pacw_ai::PLAYERS.join(", ")
                )))
            }
        };
        let spectator = new_token();
        let (players, tokens) = match req.mode {
            Mode::Computer => {
                let human = match req.human_side.as_deref().unwrap_or("A") {
                    "A" | "a" | "first" => Side::A,
                    "B" | "b" | "second" => Side::B,
                    id => scenario.side_by_id(id).ok_or_else(|| {
                        ApiError::Unprocessable(format!(
                            "human_side: no side '{id}' (use A, B, {} or {})",
                            scenario.sides[0].id, scenario.sides[1].id
                        ))
                    })?,
                };
                let mut players = [PlayerKind::Human, PlayerKind::Human];
                players[human.other().index()] = computer(&req.computer)?;
                let mut tokens = Tokens { spectator, ..Tokens::default() };
                match human {
                    Side::A => tokens.a = Some(new_token()),
                    Side::B => tokens.b = Some(new_token()),
                }
                (players, tokens)
            }
            Mode::Hotseat => (
                [PlayerKind::Human, PlayerKind::Human],
                Tokens { hotseat: Some(new_token()), spectator, ..Tokens::default() },
            ),
            Mode::TwoPlayers => (
                [PlayerKind::Human, PlayerKind::Human],
                Tokens { a: Some(new_token()), b: Some(new_token()), spectator, ..Tokens::default() },
            ),
            Mode::Watch => {
                let a = computer(&req.computer)?;
                let b = if req.computer_b.is_some() { computer(&req.computer_b)? } else { a.clone() };
                ([a, b], Tokens { spectator, ..Tokens::default() })
            }
        };
        if req.mode != Mode::Computer && req.human_side.is_some() {
            return Err(ApiError::BadRequest("human_side is for mode computer only".into()));
        }
        if matches!(req.mode, Mode::Hotseat | Mode::TwoPlayers) && (req.computer.is_some() || req.computer_b.is_some())
        {
            return Err(ApiError::BadRequest("computer is for modes computer and watch only".into()));
        }
        let game = Game::with_scenario(Arc::new(scenario), &text, &file, Some(options), new_seed());
        let now = now_ms();
        let record = GameRecord {
            id: new_game_id(),
            created_at: now,
            updated_at: now,
            scenario_name: name,
            mode: req.mode,
            players,
            tokens: tokens.clone(),
            save: game.save(),
            result: game.battle().result(),
        };
        self.store.insert(&record).map_err(|e| ApiError::Internal(e.to_string()))?;
        let id = record.id.clone();
        let entry = self.register(record, Live::new(game));
        let main_role =
            tokens.pairs().into_iter().map(|(_, r)| r).find(|r| *r != Role::Spectator).unwrap_or(Role::Spectator);
        let view = {
            let mut st = entry.lock();
            self.ensure_computer(&entry, &mut st);
            let live = st.live.as_ref().expect("a new game is loaded");
            game_view(&entry.ctx(main_role), live, 0, None)
        };
        Ok(Created { id, links: links(&tokens), tokens, view })
    }

    /// The list of games, most recently changed first, with the damaged rows. Every token is shown only when the
    /// server listens on a loopback address and the request names a loopback host (`local`); otherwise only the
    /// spectator's.
    pub fn list(&self, local: bool) -> Vec<GameListItem> {
        let all_tokens = self.config.list_all_tokens && local;
        let entries: Vec<_> = self.by_id.read().unwrap_or_else(|p| p.into_inner()).values().cloned().collect();
        let mut items: Vec<GameListItem> = entries
            .iter()
            .map(|e| {
                let s = e.lock().summary.clone();
                let tokens = if all_tokens { e.tokens.clone() } else { e.tokens.public() };
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
                    links: Some(links(&tokens)),
                    tokens: Some(tokens),
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
                tokens: None,
                links: None,
            });
        }
        items
    }

    /// A person's action through a token: checked, committed, pushed; the reply is the view from the first new
    /// event on.
    pub fn act(self: &Arc<Self>, entry: &Arc<GameEntry>, role: Role, req: ActRequest) -> ApiResult<GameView> {
        let mut st = entry.lock();
        let live = self.loaded(&entry.id, &mut st)?;
        let b = live.game.battle();
        let side = match b.to_act() {
            ToAct::Side(s) => s,
            _ => return Err(ApiError::Conflict("the game is over (R8)".into())),
        };
        if role == Role::Spectator {
            return Err(ApiError::Forbidden("this is a spectator's link: it can only watch".into()));
        }
        let side_name = &b.scenario().side(side).name;
        if let PlayerKind::Computer { name } = &entry.players[side.index()] {
            return Err(ApiError::Forbidden(format!("it is {side_name}'s turn, played by the computer ({name})")));
        }
        if !role.controls(side) {
            return Err(ApiError::Forbidden(format!("it is {side_name}'s turn; this link plays the other side")));
        }
        if let Some(d) = req.decisions
            && d != live.decisions()
        {
            return Err(ApiError::Conflict(format!(
                "the game has moved on: it has {} decisions, the request expected {d}; reload the view",
                live.decisions()
            )));
        }
        let action = match (req.index, req.action) {
            (Some(i), given) => {
                let legal = b.legal_actions();
                let Some(&a) = legal.get(i) else {
                    return Err(ApiError::BadRequest(format!(
                        "index {i} is not in the list of legal actions (0 to {})",
                        legal.len().saturating_sub(1)
                    )));
                };
                if let Some(g) = given
                    && g != a
                {
                    return Err(ApiError::Conflict(format!(
                        "legal action {i} is {a:?}, not the action given ({g:?}); reload the view"
                    )));
                }
                a
            }
            (None, Some(a)) => a,
            (None, None) => return Err(ApiError::BadRequest("give index (into legal_actions) or action".into())),
        };
        let before_len = live.game.log().len();
        self.commit_action(entry, &mut st, action, false)?;
        let live = st.live.as_ref().expect("the game is loaded");
        Ok(game_view(&entry.ctx(role), live, before_len, None))
    }

    /// Applies an action on a copy, stores it, then makes it current and tells the subscribers.
    fn commit_action(
        self: &Arc<Self>,
        entry: &Arc<GameEntry>,
        st: &mut EntryState,
        action: Action,
        computer: bool,
    ) -> ApiResult<()> {
        let live = st.live.as_ref().expect("the caller loaded the game");
        let before_len = live.game.log().len();
        let mut next = live.clone();
        next.apply(action)?; // the engine checks it first: only a legal action is described below
        let text = pacw_engine::narrate::action(live.game.battle(), &action);
        let now = now_ms();
        self.store
            .update_save(&entry.id, &next.game.save(), next.game.battle().result(), now)
            .map_err(|e| ApiError::Internal(format!("the action could not be stored, so it was not made: {e}")))?;
        let step = *next.steps.last().expect("just applied");
        st.summary = Summary::of(&next, &entry.players, now);
        st.live = Some(next);
        let live = st.live.as_ref().expect("just set");
        let events = log_entries(live, before_len);
        self.publish(entry, live, "action", Some((step.side, computer, action, text)), &events);
        self.ensure_computer(entry, st);
        Ok(())
    }

    fn publish(
        &self,
        entry: &GameEntry,
        live: &Live,
        kind: &'static str,
        action: Option<(Side, bool, Action, String)>,
        events: &[LogEntry],
    ) {
        let b = live.game.battle();
        let body = UpdateBody {
            revision: live.revision,
            kind,
            side: action.as_ref().map(|a| a.0),
            computer: action.as_ref().is_some_and(|a| a.1),
            action: action.as_ref().map(|a| a.2),
            text: action.map(|a| a.3),
            decisions: live.decisions(),
            log_len: live.game.log().len(),
            events,
            to_act: match b.to_act() {
                ToAct::Side(s) => Some(s),
                _ => None,
            },
            over: b.result().is_some(),
        };
        let json: Arc<str> = serde_json::to_string(&body).expect("updates serialise").into();
        // No subscriber is not an error.
        let _ = entry.tx.send(Update { revision: live.revision, json });
    }

    /// Takes back this token's last `count` decisions (and the computer's after them), if no die was rolled and
    /// no card drawn since.
    pub fn undo(self: &Arc<Self>, entry: &Arc<GameEntry>, role: Role, req: UndoRequest) -> ApiResult<GameView> {
        if role == Role::Spectator {
            return Err(ApiError::Forbidden("this is a spectator's link: it can only watch".into()));
        }
        let count = req.count.unwrap_or(1);
        if count == 0 {
            return Err(ApiError::BadRequest("count must be at least 1".into()));
        }
        let mut st = entry.lock();
        let live = self.loaded(&entry.id, &mut st)?;
        if let Some(d) = req.decisions
            && d != live.decisions()
        {
            return Err(ApiError::Conflict(format!(
                "the game has moved on: it has {} decisions, the request expected {d}; reload the view",
                live.decisions()
            )));
        }
        let (own, remove) = live.undo_plan(role, &entry.players, count);
        if own < count {
            let why = if live.game.battle().result().is_some() {
                "the game is over".to_string()
            } else if own == 0 {
                "there is nothing of yours to take back: a die was rolled or a card drawn after your last decision, \
                 or the other player has acted since"
                    .to_string()
            } else {
                format!("only {own} of your decisions can be taken back (a die or a card came before them)")
            };
            return Err(ApiError::Conflict(format!("cannot undo: {why}")));
        }
        let keep = live.decisions() - remove;
        let mut next = Live {
            game: live.game.undo(remove),
            start_len: live.start_len,
            steps: live.steps.clone(),
            revision: live.revision + 1,
        };
        next.steps.truncate(keep);
        let now = now_ms();
        self.store
            .update_save(&entry.id, &next.game.save(), next.game.battle().result(), now)
            .map_err(|e| ApiError::Internal(format!("the undo could not be stored, so it was not made: {e}")))?;
        st.summary = Summary::of(&next, &entry.players, now);
        st.live = Some(next);
        let live = st.live.as_ref().expect("just set");
        self.publish(entry, live, "undo", None, &[]);
        let view = game_view(&entry.ctx(role), live, 0, None);
        self.ensure_computer(entry, &mut st);
        Ok(view)
    }

    /// Starts the computer's task if the side to act is the computer's and none runs. Called with the game locked,
    /// so the task's own check (also under the lock) cannot miss a turn.
    fn ensure_computer(self: &Arc<Games>, entry: &Arc<GameEntry>, st: &mut EntryState) {
        if st.computer_running || *self.shutdown.borrow() {
            return;
        }
        let Some(live) = &st.live else { return };
        if computer_to_move(entry, live).is_some() {
            st.computer_running = true;
            self.runtime.spawn(computer_loop(self.clone(), entry.clone()));
        }
    }
}

/// The computer's name if its side is to act.
fn computer_to_move(entry: &GameEntry, live: &Live) -> Option<String> {
    match live.game.battle().to_act() {
        ToAct::Side(side) => match &entry.players[side.index()] {
            PlayerKind::Computer { name } => Some(name.clone()),
            PlayerKind::Human => None,
        },
        _ => None,
    }
}

/// The computer's moves, one by one, with a pause between them so a person can follow.
async fn computer_loop(games: Arc<Games>, entry: Arc<GameEntry>) {
    let mut shutdown = games.shutdown_signal();
    let delay = games.config.computer_delay;
    loop {
        let snapshot = {
            let mut st = entry.lock();
            let next = match (&st.live, *shutdown.borrow()) {
                (Some(live), false) => computer_to_move(&entry, live).map(|name| {
                    (name, live.game.battle().clone(), live.revision, player_seed(live.game.seed(), live.decisions()))
                }),
                _ => None,
            };
            if next.is_none() {
                st.computer_running = false;
            }
            next
        };
        let Some((name, battle, revision, seed)) = snapshot else { return };
        let started = Instant::now();
        let chosen = tokio::task::spawn_blocking(move || {
            let mut player = pacw_ai::player(&name, seed)?;
            Some(player.choose(&battle))
        })
        .await;
        let action = match chosen {
            Ok(Some(a)) => a,
            other => {
                eprintln!("pacw server: game {}: the computer player failed ({other:?}); it stops", entry.id);
                entry.lock().computer_running = false;
                return;
            }
        };
        let wait = delay.saturating_sub(started.elapsed());
        if !wait.is_zero() {
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = shutdown.changed() => {}
            }
        }
        let (g, e) = (games.clone(), entry.clone());
        let applied = tokio::task::spawn_blocking(move || {
            let mut st = e.lock();
            if *g.shutdown.borrow() {
                return Ok(());
            }
            match &st.live {
                Some(live) if live.revision == revision => {}
                _ => return Ok(()), // the game changed meanwhile (an undo): think again
            }
            // Keep the flag set while applying: ensure_computer must not start a second task.
            g.commit_action(&e, &mut st, action, true)
        })
        .await;
        match applied {
            Ok(Ok(())) => {}
            Ok(Err(err)) => {
                eprintln!("pacw server: game {}: the computer's move failed: {err}; retrying", entry.id);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(join) => {
                eprintln!("pacw server: game {}: the computer's move panicked: {join}", entry.id);
                entry.lock().computer_running = false;
                return;
            }
        }
    }
}

/// The shipped scenario called `name` (short name or file name): (short name, file, text).
pub fn shipped(name: &str) -> Option<(&'static str, &'static str, &'static str)> {
    pacw_engine::SHIPPED_SCENARIOS.iter().copied().find(|(short, file, _)| *short == name || *file == name)
}
