//! The desk: the games held in the browser and the answer to each request, built from the same views as the
//! server's API (`pacw_play`) so that its JSON is the server's.

use crate::Request;
use pacw_ai::review::{ReviewConfig, ReviewJob};
use pacw_engine::{Action, Battle, Game, Illegal, LegalActions, Options, Side, ToAct, UnitId};
use pacw_play::board::{explain, turn_check, unit_orders};
use pacw_play::check::{GivenVariant, check_scenario};
use pacw_play::game_rules::{GameRules, RulesRefused};
use pacw_play::live::Live;
use pacw_play::rules::{RULES_MARKDOWN, markdown_html, rules_markdown, rules_title};
use pacw_play::setup::{Mode, PlayerKind, Role, player_seed};
use pacw_play::view::{LogEntry, ReplayPos, ViewCtx, game_view, log_entries, player_views, replay_view, result_view};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The longest request the desk reads: a save of the grand battle is well under it.
pub const MAX_REQUEST: usize = 1024 * 1024;

/// The most games held in memory at once (a page holds one; the lobby lets go of each it lists).
pub const MAX_GAMES: usize = 16;

/// The most scenario text a game keeps, as on the server.
pub const MAX_SCENARIO_TEXT: usize = 64 * 1024;

/// A reply: `{"ok": …}`, or `{"error": "…", "status": N}` with the status the server's API would give.
#[derive(Serialize, Debug)]
#[serde(untagged)]
pub enum Reply {
    /// The answer.
    Ok {
        /// As the server's API returns it.
        ok: Value,
    },
    /// A refusal, in words.
    Refused {
        /// Why.
        error: String,
        /// The HTTP status the server would answer with.
        status: u16,
    },
}

/// A refusal as JSON text.
pub(crate) fn refusal(status: u16, error: &str) -> String {
    serde_json::to_string(&Reply::Refused { error: error.into(), status }).unwrap_or_default()
}

type Answer = Result<Value, (u16, String)>;

fn bad(status: u16, why: impl Into<String>) -> (u16, String) {
    (status, why.into())
}

/// Rules a new game cannot be played by, with the status the server gives the same refusal.
fn refused(e: RulesRefused) -> (u16, String) {
    let status = match e {
        RulesRefused::Both => 400,
        RulesRefused::Unknown(_) => 404,
        RulesRefused::Variant(_) | RulesRefused::Scenario(_) => 422,
    };
    bad(status, e.to_string())
}

fn value(v: impl Serialize) -> Answer {
    serde_json::to_value(v).map_err(|e| bad(500, format!("the reply could not be written: {e}")))
}

/// A review: under way, or made (its JSON).
enum ReviewState {
    Running(Box<ReviewJob>),
    Done(Value),
}

/// One game in the browser.
struct Table {
    live: Live,
    scenario_name: String,
    mode: Mode,
    players: [PlayerKind; 2],
    role: Role,
    review: Option<ReviewState>,
}

impl Table {
    fn ctx<'a>(&'a self, id: &'a str) -> ViewCtx<'a> {
        ViewCtx { id, scenario_name: &self.scenario_name, mode: self.mode, players: &self.players, role: self.role }
    }

    fn computer_to_act(&self) -> Option<&str> {
        match self.live.game.battle().to_act() {
            ToAct::Side(s) => match &self.players[s.index()] {
                PlayerKind::Computer { name } => Some(name),
                PlayerKind::Human => None,
            },
            _ => None,
        }
    }

    fn may_act(&self, b: &Battle) -> Result<(), Illegal> {
        turn_check(b, |s| self.role.controls(s), self.computer_to_act().is_some())
    }

    fn check_decisions(&self, decisions: Option<usize>) -> Result<(), (u16, String)> {
        match decisions {
            Some(d) if d != self.live.decisions() => Err(bad(
                409,
                format!(
                    "the game has moved on: it has {} decisions, the request expected {d}; reload the view",
                    self.live.decisions()
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The update the server's event stream sends for a decision, and its view from `from` on.
    fn update(&self, side: Side, computer: bool, action: Action, text: String, from: usize) -> Value {
        let b = self.live.game.battle();
        let events: Vec<LogEntry> = log_entries(&self.live, from);
        json!({
            "revision": self.live.revision,
            "kind": "action",
            "side": side,
            "computer": computer,
            "action": action,
            "text": text,
            "decisions": self.live.decisions(),
            "log_len": self.live.game.log().len(),
            "events": events,
            "to_act": match b.to_act() { ToAct::Side(s) => Some(s), _ => None },
            "over": b.result().is_some(),
        })
    }
}

/// The games held in the browser, each under the id its host gave it.
#[derive(Default)]
pub struct Desk {
    tables: BTreeMap<String, Table>,
}

impl Desk {
    /// Answers one JSON request with one JSON reply ([`Reply`]); bad input is refused in words, never a panic.
    pub fn call(&mut self, request: &str) -> String {
        if request.len() > MAX_REQUEST {
            return refusal(413, &format!("the request is larger than {} KiB", MAX_REQUEST / 1024));
        }
        let answer = match serde_json::from_str::<Request>(request) {
            Ok(req) => self.answer(req),
            Err(e) => Err(bad(400, format!("bad request: {e}"))),
        };
        let reply = match answer {
            Ok(ok) => Reply::Ok { ok },
            Err((status, error)) => Reply::Refused { error, status },
        };
        serde_json::to_string(&reply).unwrap_or_else(|e| refusal(500, &format!("the reply could not be written: {e}")))
    }

    fn table(&mut self, id: &str) -> Result<&mut Table, (u16, String)> {
        self.tables.get_mut(id).ok_or_else(|| bad(404, format!("no game '{id}' is open here")))
    }

    fn seat(&mut self, id: String, table: Table) -> Answer {
        if id.is_empty() || id.len() > 64 {
            return Err(bad(400, "a game's id is 1 to 64 characters"));
        }
        if !self.tables.contains_key(&id) && self.tables.len() >= MAX_GAMES {
            return Err(bad(429, format!("{MAX_GAMES} games are open here: let one go first")));
        }
        let view = game_view(&table.ctx(&id), &table.live, 0, None);
        let reply = json!({ "id": id, "view": view });
        self.tables.insert(id, table);
        Ok(reply)
    }

    fn answer(&mut self, req: Request) -> Answer {
        match req {
            Request::Check { text, file, variant_text, variant_file } => {
                if text.len() > MAX_SCENARIO_TEXT || variant_text.as_ref().is_some_and(|v| v.len() > MAX_SCENARIO_TEXT)
                {
                    return Err(bad(
                        413,
                        format!("a scenario or a variant is at most {} KiB here", MAX_SCENARIO_TEXT / 1024),
                    ));
                }
                let variant_file = variant_file.as_deref().unwrap_or("variant.toml");
                let variant = variant_text.as_deref().map(|text| GivenVariant { text, file: variant_file });
                value(check_scenario(&text, file.unwrap_or_else(|| "uploaded.toml".into()), variant))
            }
            Request::Create {
                id,
                scenario,
                scenario_text,
                scenario_file,
                options,
                variant,
                variant_text,
                variant_file,
                mode,
                human_side,
                computer,
                seed,
            } => {
                let seed: u64 = seed.parse().map_err(|_| bad(400, "seed: give a whole number of 0 to 2^64-1"))?;
                let (text, file, name) = match (scenario, scenario_text) {
                    (Some(_), Some(_)) => {
                        return Err(bad(400, "give either scenario (a shipped name) or scenario_text"));
                    }
                    (Some(n), None) => {
                        let s = pacw_engine::offered_scenarios()
                            .find(|s| s.name == n || s.file == n)
                            .ok_or_else(|| bad(404, format!("no shipped scenario '{n}'")))?;
                        (s.text.to_string(), s.file.to_string(), s.name.to_string())
                    }
                    (None, Some(t)) => {
                        let file = scenario_file.unwrap_or_else(|| "uploaded.toml".into());
                        (t, file.clone(), file)
                    }
                    (None, None) => return Err(bad(400, "give scenario (a shipped name) or scenario_text")),
                };
                if text.len() > MAX_SCENARIO_TEXT {
                    return Err(bad(
                        413,
                        format!("a game keeps at most {} KiB of scenario text", MAX_SCENARIO_TEXT / 1024),
                    ));
                }
                let rules = GameRules::asked(variant.as_deref(), variant_text.as_deref(), variant_file.as_deref())
                    .map_err(refused)?;
                let parsed = rules.scenario(&text, &file).map_err(refused)?;
                let mut opts: Options = parsed.options;
                for pair in &options {
                    let (k, v) = pair
                        .split_once('=')
                        .ok_or_else(|| bad(400, format!("option '{pair}' is not of the form name=value")))?;
                    parsed.set_option(&mut opts, k.trim(), v.trim()).map_err(|e| bad(422, e.to_string()))?;
                }
                let (players, role) = match mode {
                    Mode::Hotseat if human_side.is_some() || computer.is_some() => {
                        return Err(bad(400, "human_side and computer are for mode computer only"));
                    }
                    Mode::Hotseat => ([PlayerKind::Human, PlayerKind::Human], Role::Both),
                    Mode::Computer => {
                        let human = match human_side.as_deref().unwrap_or("A") {
                            "A" | "a" | "first" => Side::A,
                            "B" | "b" | "second" => Side::B,
                            id => {
                                parsed.side_by_id(id).ok_or_else(|| bad(422, format!("human_side: no side '{id}'")))?
                            }
                        };
                        let name = computer.unwrap_or_else(|| pacw_ai::DEFAULT_LEVEL.to_string());
                        if !pacw_ai::PLAYERS.contains(&name.as_str()) {
                            let known = pacw_ai::PLAYERS.join(", ");
                            return Err(bad(422, format!("unknown computer player '{name}' (known: {known})")));
                        }
                        let mut players = [PlayerKind::Human, PlayerKind::Human];
                        players[human.other().index()] = PlayerKind::Computer { name };
                        (players, Role::Side(human))
                    }
                    Mode::TwoPlayers | Mode::Watch => {
                        return Err(bad(
                            422,
                            format!("mode {}: it needs a server; offline, play computer or hotseat", mode.name()),
                        ));
                    }
                };
                let game = Game::with_scenario(Arc::new(parsed), &text, &file, Some(opts), seed);
                let table = Table { live: Live::new(game), scenario_name: name, mode, players, role, review: None };
                self.seat(id, table)
            }
            Request::Load { id, save } => {
                let file: pacw_engine::SaveFile =
                    serde_json::from_str(&save).map_err(|e| bad(422, format!("this save cannot be opened: {e}")))?;
                let live = Live::from_save(&file).map_err(|e| bad(422, format!("this save cannot be opened: {e}")))?;
                let kind = |p: &str| match p {
                    "human" => PlayerKind::Human,
                    name => PlayerKind::Computer { name: name.to_string() },
                };
                let players = match &file.players {
                    Some([a, b]) if pacw_ai::PLAYERS.contains(&a.as_str()) || a == "human" => [kind(a), kind(b)],
                    _ => [PlayerKind::Human, PlayerKind::Human],
                };
                let (mode, role) = match &players {
                    [PlayerKind::Human, PlayerKind::Computer { .. }] => (Mode::Computer, Role::Side(Side::A)),
                    [PlayerKind::Computer { .. }, PlayerKind::Human] => (Mode::Computer, Role::Side(Side::B)),
                    _ => (Mode::Hotseat, Role::Both),
                };
                let players = if mode == Mode::Hotseat { [PlayerKind::Human, PlayerKind::Human] } else { players };
                let name = pacw_engine::offered_scenarios()
                    .find(|s| s.file == file.scenario_file)
                    .map_or_else(|| file.scenario_file.clone(), |s| s.name.to_string());
                self.seat(id, Table { live, scenario_name: name, mode, players, role, review: None })
            }
            Request::View { id, log_from } => {
                let t = self.table(&id)?;
                value(game_view(&t.ctx(&id), &t.live, log_from.unwrap_or(0), None))
            }
            Request::Unit { id, unit } => {
                let t = self.table(&id)?;
                let b = t.live.game.battle();
                let u = unit_of(b, unit)?;
                value(unit_orders(b, u, t.live.decisions(), t.may_act(b)))
            }
            Request::Explain { id, unit, action } => {
                let t = self.table(&id)?;
                let b = t.live.game.battle();
                let u = unit_of(b, unit)?;
                if let Some(target) = action.target() {
                    unit_of(b, target.0)?;
                }
                value(explain(b, u, action, t.may_act(b)))
            }
            Request::Act { id, index, action, decisions } => {
                let t = self.table(&id)?;
                let b = t.live.game.battle();
                let side = match b.to_act() {
                    ToAct::Side(s) => s,
                    _ => return Err(bad(409, "the game is over (R8)")),
                };
                let side_name = b.scenario().side(side).name.clone();
                if let Some(name) = t.computer_to_act() {
                    return Err(bad(403, format!("it is {side_name}'s turn, played by the computer ({name})")));
                }
                t.check_decisions(decisions)?;
                let action = match (index, action) {
                    (Some(i), given) => {
                        let mut legal = LegalActions::new();
                        b.list_legal(&mut legal);
                        let a = legal.get(i).ok_or_else(|| {
                            bad(
                                400,
                                format!(
                                    "index {i} is not in the list of legal actions (0 to {})",
                                    legal.len().saturating_sub(1)
                                ),
                            )
                        })?;
                        if given.is_some_and(|g| g != a) {
                            return Err(bad(409, format!("legal action {i} is not the action given; reload the view")));
                        }
                        a
                    }
                    (None, Some(a)) => a,
                    (None, None) => return Err(bad(400, "give index (into legal_actions) or action")),
                };
                let from = t.live.game.log().len();
                t.live.apply(action).map_err(|e| bad(422, e.to_string()))?;
                t.review = None;
                value(game_view(&t.ctx(&id), &t.live, from, None))
            }
            Request::Computer { id, action, decisions } => {
                let t = self.table(&id)?;
                let Some(name) = t.computer_to_act().map(str::to_string) else { return Ok(Value::Null) };
                t.check_decisions(decisions)?;
                let b = t.live.game.battle();
                let action = match action {
                    Some(a) => a,
                    None => {
                        let seed = player_seed(t.live.game.seed(), t.live.decisions());
                        let mut player = pacw_ai::player(&name, seed)
                            .ok_or_else(|| bad(500, format!("no computer player '{name}'")))?;
                        player.choose(b)
                    }
                };
                let text = pacw_engine::narrate::action(b, &action);
                let from = t.live.game.log().len();
                t.live.apply(action).map_err(|e| bad(500, format!("the computer's move was refused: {e}")))?;
                let side = t.live.steps.last().map_or(Side::A, |s| s.side);
                Ok(t.update(side, true, action, text, from))
            }
            Request::Follow { id, decisions, actions } => {
                let t = self.table(&id)?;
                t.check_decisions(Some(decisions))?;
                // Played on a copy, so that a refusal part-way leaves the game as it was.
                let mut live = t.live.clone();
                for (i, action) in actions.into_iter().enumerate() {
                    live.apply(action).map_err(|e| {
                        bad(409, format!("decision {} of those given is illegal: {e}; load the save instead", i + 1))
                    })?;
                }
                t.live = live;
                Ok(json!({ "decisions": t.live.decisions() }))
            }
            Request::ComputerTurn { id } => {
                let t = self.table(&id)?;
                if t.computer_to_act().is_none() {
                    return Ok(Value::Null);
                }
                Ok(json!({ "decisions": t.live.decisions(), "save": save_text(t)? }))
            }
            Request::Undo { id, count, decisions } => {
                let t = self.table(&id)?;
                let count = count.unwrap_or(1);
                if count == 0 {
                    return Err(bad(400, "count must be at least 1"));
                }
                t.check_decisions(decisions)?;
                let (own, remove) = t.live.undo_plan(t.role, &t.players, count);
                if own < count {
                    let why = t.live.undo_refusal(t.role, &t.players).unwrap_or_else(|| {
                        format!("only {own} of your decisions can be taken back (a die or a card came before them)")
                    });
                    return Err(bad(409, format!("cannot undo: {why}")));
                }
                let keep = t.live.decisions() - remove;
                let mut next = Live {
                    game: t.live.game.undo(remove),
                    start_len: t.live.start_len,
                    steps: t.live.steps.clone(),
                    revision: t.live.revision + 1,
                };
                next.steps.truncate(keep);
                t.live = next;
                value(game_view(&t.ctx(&id), &t.live, 0, None))
            }
            Request::Resign { id } => {
                let t = self.table(&id)?;
                let side = match t.live.game.battle().to_act() {
                    ToAct::Side(s) if t.role.controls(s) => s,
                    ToAct::Side(_) => return Err(bad(409, "resign on your own turn")),
                    _ => return Err(bad(409, "the game is over (R8)")),
                };
                t.live.game.resign(side).map_err(|e| bad(409, e.to_string()))?;
                t.live.revision += 1;
                value(game_view(&t.ctx(&id), &t.live, 0, None))
            }
            Request::Replay { id } => {
                let t = self.table(&id)?;
                value(replay_view(&t.live, &t.players))
            }
            Request::ReplayAt { id, decision } => {
                let t = self.table(&id)?;
                let of = t.live.decisions();
                if decision > of {
                    return Err(bad(404, format!("the game has {of} decisions")));
                }
                let replay = |e: Illegal| bad(500, format!("the game does not replay: {e}"));
                let mut past = Live::new(t.live.game.undo(of));
                for &a in &t.live.game.actions()[..decision] {
                    past.apply(a).map_err(replay)?;
                }
                if let Some(how) = t.live.game.declared().filter(|_| decision == of) {
                    past.game.conclude(how).map_err(replay)?;
                }
                past.revision = t.live.revision;
                let over = t.live.game.battle().result().is_some();
                let pos = ReplayPos { decision, of, game_over: over };
                value(game_view(&t.ctx(&id), &past, 0, Some(pos)))
            }
            Request::Save { id } => {
                let t = self.table(&id)?;
                Ok(json!({ "text": save_text(t)? }))
            }
            Request::Summary { id } => {
                let t = self.table(&id)?;
                let b = t.live.game.battle();
                let to_act = match b.to_act() {
                    ToAct::Side(s) => Some(s),
                    _ => None,
                };
                Ok(json!({
                    "id": id,
                    "role": t.role.name(),
                    "status": if b.result().is_some() { "finished" } else { "in_progress" },
                    "scenario": t.scenario_name,
                    "title": b.scenario().name,
                    "mode": t.mode,
                    "players": player_views(b.scenario(), &t.players),
                    "turn": b.turn(),
                    "turns": b.turn_limit(),
                    "decisions": t.live.decisions(),
                    "to_act": to_act,
                    "your_turn": to_act.is_some_and(|s| t.role.controls(s)) && t.computer_to_act().is_none(),
                    "result_text": b.result().map(|r| result_view(b.scenario(), r).text),
                }))
            }
            Request::Review { id } => self.table(&id).map(|t| review_reply(t.review.as_ref())),
            Request::StartReview { id } => {
                let t = self.table(&id)?;
                if t.live.game.battle().result().is_none() {
                    return Err(bad(409, "a game is reviewed once it is over"));
                }
                if t.review.is_none() {
                    let config = ReviewConfig { threads: 1, ..ReviewConfig::default() };
                    let job = ReviewJob::new(&t.live.game, pacw_ai::evaluator::shared(), &config);
                    t.review = Some(ReviewState::Running(Box::new(job)));
                }
                Ok(review_reply(t.review.as_ref()))
            }
            Request::ReviewStep { id, decisions } => {
                let t = self.table(&id)?;
                if let Some(ReviewState::Running(job)) = &mut t.review
                    && job.search(decisions.clamp(1, 64))
                {
                    let Some(ReviewState::Running(job)) = t.review.take() else { unreachable!() };
                    t.review = Some(ReviewState::Done(value(job.finish())?));
                }
                Ok(review_reply(t.review.as_ref()))
            }
            Request::Rematch { id, new_id, seed } => {
                let seed: u64 = seed.parse().map_err(|_| bad(400, "seed: give a whole number of 0 to 2^64-1"))?;
                let t = self.table(&id)?;
                let save = t.live.game.save();
                let b = t.live.game.battle();
                let game = Game::with_scenario(
                    b.scenario().clone(),
                    &save.scenario,
                    &save.scenario_file,
                    Some(*b.options()),
                    seed,
                );
                let role = match t.role {
                    Role::Side(s) => Role::Side(s.other()),
                    other => other,
                };
                let [a, z] = t.players.clone();
                let (players, name, mode) = ([z, a], t.scenario_name.clone(), t.mode);
                let table = Table { live: Live::new(game), scenario_name: name, mode, players, role, review: None };
                let mut reply = self.seat(new_id, table)?;
                reply["you"] = json!(role.name());
                Ok(reply)
            }
            Request::Rules { id } => {
                let t = self.table(&id)?;
                let (title, markdown) = match t.live.game.battle().scenario().variant() {
                    Some(system) => (rules_title(system), rules_markdown(system)),
                    None => ("The rules of play".to_string(), RULES_MARKDOWN.to_string()),
                };
                Ok(json!({ "title": title, "html": markdown_html(&markdown) }))
            }
            Request::Forget { id } => Ok(json!({ "forgotten": self.tables.remove(&id).is_some() })),
        }
    }
}

/// The game's save file with who played each side, as text: a JavaScript number would round its 64-bit seed, and
/// the save replay another game.
fn save_text(t: &Table) -> Result<String, (u16, String)> {
    let mut save = t.live.game.save();
    save.players = Some(t.players.each_ref().map(|p| match p {
        PlayerKind::Human => "human".to_string(),
        PlayerKind::Computer { name } => name.clone(),
    }));
    serde_json::to_string_pretty(&save).map_err(|e| bad(500, e.to_string()))
}

/// The review's reply as the server gives it: `{"state": "done", "review": …}` once made, else where it stands.
fn review_reply(review: Option<&ReviewState>) -> Value {
    match review {
        None => json!({ "state": "none" }),
        Some(ReviewState::Running(job)) => {
            json!({ "state": "running", "searched": job.searched(), "total": job.total() })
        }
        Some(ReviewState::Done(review)) => json!({ "state": "done", "review": review }),
    }
}

fn unit_of(b: &Battle, unit: u8) -> Result<UnitId, (u16, String)> {
    UnitId::try_new(unit.into())
        .filter(|&id| b.unit_ids().any(|u| u == id))
        .ok_or_else(|| bad(404, format!("the scenario has no unit {unit} (units are numbered from 0)")))
}
