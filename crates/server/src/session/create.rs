//! Creating a game: the request, its options, the reply, and `Games::create`.

use super::{Games, links, shipped};
use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::setup::{AccountId, Mode, Pace, PlayerKind, Rating, Seat};
use crate::store::AccountRecord;
use crate::store::{GameRecord, now_ms};
use crate::tokens::{Role, Tokens, new_game_id, new_seed, new_token};
use crate::view::{GameView, game_view};
use pacw_engine::{Game, Options, Side, ToAct};
use pacw_play::game_rules::GameRules;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// A request to create a game (docs/api.md).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// A shipped scenario's name.
    pub scenario: Option<String>,
    /// Or a scenario's full text (TOML, docs/scenario-format.md).
    pub scenario_text: Option<String>,
    /// The uploaded scenario's file name, for messages.
    pub scenario_file: Option<String>,
    /// Rule options (R11): `["to_hit=4", …]` or `{"to_hit": 4, …}`.
    #[serde(default)]
    pub options: OptionsInput,
    /// A variant laid over the battle's own rules: a shipped variant's name (`close-combat`, see `GET /api/info`'s
    /// `variants`).
    pub variant: Option<String>,
    /// Or a variant file's text (docs/variants.md).
    pub variant_text: Option<String>,
    /// The uploaded variant's file name, for messages.
    pub variant_file: Option<String>,
    /// Set by the server, never by a request: the rules in place of those `variant` and `variant_text` ask for (a
    /// rematch's, as the save of the game before keeps them).
    #[serde(skip)]
    pub(super) rules: Option<GameRules>,
    /// The mode.
    pub mode: Mode,
    /// Against the computer: the human's side (`A`, `B`, `first`, `second` or the scenario's side id).
    pub human_side: Option<String>,
    /// The computer player (`greedy` by default).
    pub computer: Option<String>,
    /// In `watch` mode: the second side's computer player (default: the same as `computer`).
    pub computer_b: Option<String>,
    /// Or a save (as `GET /api/play/{token}/save` or `pacw play --save` writes it), as an object or as the file's
    /// text (a browser should send the text: its JSON numbers cannot hold a 64-bit seed): the game continues from
    /// it, or is shown finished, in the mode given.
    pub save: Option<serde_json::Value>,
    /// `rated` or `casual` (the default). A rated game is against the computer, by a logged-in account, and takes
    /// nothing back; two people's rated games are posted in the waiting room.
    #[serde(default)]
    pub rating: Rating,
    /// `live` (the default), or `1d`, `3d`, `7d`: days for each move, after which the waiting player may claim the
    /// win. Only a two-player game has a deadline.
    #[serde(default)]
    pub pace: Pace,
}

/// Options as `name=value` strings or as an object.
#[derive(Deserialize, Serialize, Debug, Default)]
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
    /// Whether any option was given.
    fn given(&self) -> bool {
        match self {
            OptionsInput::None => false,
            OptionsInput::Pairs(v) => !v.is_empty(),
            OptionsInput::Object(m) => !m.is_empty(),
        }
    }

    pub(super) fn pairs(&self) -> ApiResult<Vec<(String, String)>> {
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

/// The most scenario text a game keeps (each game stores its own copy): the grand battle's is 20 KiB.
pub const MAX_SCENARIO_TEXT: usize = 64 * 1024;

/// The most games the computer plays against itself that one client may have going at once: more would only take
/// the thinking pool's turns from other people's games (thinker.rs).
pub const WATCH_GAMES_PER_CLIENT: usize = 4;

impl Games {
    /// Refuses a new game the computer plays against itself to a client already watching
    /// [`WATCH_GAMES_PER_CLIENT`] unfinished ones.
    fn check_watch_cap(&self, req: &CreateGame, client: &str) -> ApiResult<()> {
        if req.mode != Mode::Watch {
            return Ok(());
        }
        let watching = self
            .by_id
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .filter(|e| e.client == client && e.mode == Mode::Watch && e.lock().summary.result.is_none())
            .count();
        if watching >= WATCH_GAMES_PER_CLIENT {
            return Err(ApiError::TooMany(
                format!(
                    "you are already watching {watching} games the computer plays against itself (at most \
                     {WATCH_GAMES_PER_CLIENT} at once): let one finish first"
                ),
                60,
            ));
        }
        Ok(())
    }

    /// Creates a game for `client` (the address that asked), stores it, and returns its tokens and first view.
    ///
    /// # Errors
    /// When the client already watches as many games of the computer against itself as it may, or has made too many
    /// games lately (429); the request mixes a save with other settings, gives both a name and a text (or neither, for
    /// the scenario), writes an option badly, or sets `human_side` or `computer` for a mode without them (400); no
    /// shipped scenario or variant has the name (404); the scenario text is too large (413); the save cannot be opened,
    /// the variant or the scenario fails its checks, or an option, a side or a computer player is refused (422); or the
    /// game cannot be stored (500).
    pub fn create(
        self: &Arc<Self>,
        req: CreateGame,
        client: &str,
        owner: Option<&AccountRecord>,
    ) -> ApiResult<Created> {
        if req.rating == Rating::Rated && (owner.is_none() || req.mode != Mode::Computer || req.save.is_some()) {
            return Err(ApiError::BadRequest(
                "a rated game is a new game against the computer by a logged-in account; two people's rated games \
                 are posted in the waiting room"
                    .into(),
            ));
        }
        // The seat of the person who made it is theirs: against the computer the one person's seat (the computer's
        // stays the computer's), in a two-player game the first side's; a hot-seat game has one link for both sides
        // and stays a guest's.
        let owners = match (owner, req.mode) {
            (Some(o), Mode::Computer) => [Some(o.id), Some(o.id)],
            (Some(o), Mode::TwoPlayers) => [Some(o.id), None],
            _ => [None, None],
        };
        self.create_seated(req, client, owners).map(|(created, _)| created)
    }

    /// Creates a game as [`Games::create`] does, its people's seats held by these accounts (by side) where given.
    pub(super) fn create_seated(
        self: &Arc<Self>,
        req: CreateGame,
        client: &str,
        owners: [Option<AccountId>; 2],
    ) -> ApiResult<(Created, Arc<super::GameEntry>)> {
        self.check_watch_cap(&req, client)?;
        self.creations.take(client)?;
        let loaded = match &req.save {
            None => None,
            Some(_)
                if req.scenario.is_some()
                    || req.scenario_text.is_some()
                    || req.options.given()
                    || req.variant.is_some()
                    || req.variant_text.is_some() =>
            {
                return Err(ApiError::BadRequest(
                    "a save brings its scenario, variant and options: give save alone".into(),
                ));
            }
            Some(save) => {
                let text = match save {
                    serde_json::Value::String(text) => text.clone(),
                    object => object.to_string(),
                };
                Some(
                    Game::load(&text)
                        .map_err(|e| ApiError::Unprocessable(format!("this save cannot be opened: {e}")))?,
                )
            }
        };
        let (text, file, name) = match (&loaded, &req.scenario, &req.scenario_text) {
            (Some(game), ..) => {
                let save = game.save();
                (save.scenario, save.scenario_file.clone(), save.scenario_file)
            }
            (None, Some(_), Some(_)) => {
                return Err(ApiError::BadRequest("give either scenario (a shipped name) or scenario_text".into()));
            }
            (None, Some(n), None) => {
                let s = shipped(n)
                    .ok_or_else(|| ApiError::NotFound(format!("no shipped scenario '{n}' (see GET /api/scenarios)")))?;
                (s.text.to_string(), s.file.to_string(), s.name.to_string())
            }
            (None, None, Some(t)) => {
                let file = req.scenario_file.clone().unwrap_or_else(|| "uploaded.toml".to_string());
                (t.clone(), file.clone(), file)
            }
            (None, None, None) => {
                return Err(ApiError::BadRequest("give scenario (a shipped name) or scenario_text".into()));
            }
        };
        if text.len() > MAX_SCENARIO_TEXT {
            return Err(ApiError::TooLarge(format!(
                "the scenario is {} KiB; a game keeps at most {} KiB of scenario text (the grand battle, 128 units, \
                 is 20 KiB)",
                text.len() / 1024,
                MAX_SCENARIO_TEXT / 1024
            )));
        }
        // A variant's units may be of its own arms: the scenario is read for its rules.
        let rules = match &req.rules {
            Some(rules) => rules.clone(),
            None => GameRules::asked(req.variant.as_deref(), req.variant_text.as_deref(), req.variant_file.as_deref())?,
        };
        let scenario = rules.scenario(&text, &file)?;
        let mut options: Options = scenario.options;
        for (k, v) in req.options.pairs()? {
            scenario.set_option(&mut options, &k, &v).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
        }
        let computer = |n: &Option<String>| -> ApiResult<PlayerKind> {
            let name = n.clone().unwrap_or_else(|| pacw_ai::DEFAULT_LEVEL.to_string());
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
        if req.pace != Pace::Live && req.mode != Mode::TwoPlayers {
            return Err(ApiError::BadRequest(
                "a pace with deadlines is for two-player games (a link for each side); this mode is live".into(),
            ));
        }
        if req.mode != Mode::Computer && req.human_side.is_some() {
            return Err(ApiError::BadRequest("human_side is for mode computer only".into()));
        }
        if matches!(req.mode, Mode::Hotseat | Mode::TwoPlayers) && (req.computer.is_some() || req.computer_b.is_some())
        {
            return Err(ApiError::BadRequest("computer is for modes computer and watch only".into()));
        }
        let game = match loaded {
            Some(game) => game,
            None => Game::with_scenario(Arc::new(scenario), &text, &file, Some(options), new_seed()),
        };
        let mut seats = Seat::of(&players, &tokens)
            .ok_or_else(|| ApiError::Internal("a person's side was given no token (a fault of the server)".into()))?;
        if req.mode != Mode::Hotseat {
            for (seat, owner) in seats.iter_mut().zip(owners) {
                if let (Seat::Guest { token }, Some(account)) = (&*seat, owner) {
                    *seat = Seat::Account { account, token: token.clone() };
                }
            }
        }
        let now = now_ms();
        let record = GameRecord {
            id: new_game_id(),
            created_at: now,
            updated_at: now,
            scenario_name: name,
            mode: req.mode,
            players,
            seats,
            tokens: tokens.clone(),
            save: game.save(),
            result: game.battle().result(),
            archived: false,
            rating: req.rating,
            pace: req.pace,
            move_since: self.clock.now_ms(),
            offers: Default::default(),
        };
        let live = match &req.save {
            // A save's decisions are its steps, so the replay and the log show the whole game.
            Some(_) => Live::from_save(&record.save).map_err(|e| ApiError::Unprocessable(e.to_string()))?,
            None => Live::new(game),
        };
        self.store.insert(&record).map_err(|e| ApiError::Internal(e.to_string()))?;
        let id = record.id.clone();
        let entry = self.register(record, live, client.to_string());
        let main_role =
            tokens.pairs().into_iter().map(|(_, r)| r).find(|r| *r != Role::Spectator).unwrap_or(Role::Spectator);
        let view = {
            let mut st = entry.lock();
            // The first move has passed to its player as every later one will: they are told (or owed the notice).
            if let Some(ToAct::Side(first)) = st.live.as_ref().map(|l| l.game.battle().to_act()) {
                self.move_passed(&entry, &mut st, first);
            }
            self.ensure_computer(&entry, &mut st);
            let live = self.loaded(&entry.id, &mut st)?;
            game_view(&entry.ctx(main_role), live, 0, None)
        };
        Ok((Created { id, links: links(&tokens), tokens, view }, entry))
    }
}
