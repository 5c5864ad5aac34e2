//! The lobby: what the server offers (players, options, modes), the shipped scenarios with previews, checking an
//! uploaded scenario, creating a game and listing the games.

use super::{AppState, Body, blocking};
use crate::connections::Peer;
use crate::error::{ApiError, ApiResult};
use crate::session::{CreateGame, GameListItem, Games, shipped};
use crate::view::{ScenarioView, scenario_view};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::{Extension, Json};
use pacw_engine::{Options, Scenario, Terrain};
use pacw_play::check::{CheckReply, GivenVariant, check_scenario};
use pacw_play::view::{
    ArmView, OwnModifierView, TerrainView, arm_views, own_modifier_views, system_options, terrain_views,
};
use pacw_sim::shipped_balance::{self, Figure};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the server offers.
#[derive(Serialize)]
pub struct Info {
    /// `pacw`.
    pub name: &'static str,
    /// The version of pacw.
    pub version: &'static str,
    /// The computer players' names, the three levels first (the API takes the bare names only).
    pub players: &'static [&'static str],
    /// Each computer player with a sentence about it and whether it is a level (offered to players first).
    pub offered: &'static [pacw_ai::Offered],
    /// The level a game against the computer gets unless another is asked for.
    pub default_level: &'static str,
    /// The game modes.
    pub modes: Vec<&'static str>,
    /// The rule options and their default values (R11), name → value.
    pub options: BTreeMap<String, String>,
    /// Every rule option with its rule, label, group and the values it takes: the engine's one list of them.
    pub option_specs: &'static [pacw_engine::OptionSpec],
    /// The shipped variants a game may be played by (`variant` when creating one), each `{name, title,
    /// description, terrains, arms, modifiers, options}`.
    pub variants: Vec<VariantInfo>,
    /// The largest request body, in bytes.
    pub body_limit: usize,
    /// The words and sizes of the scenario format (docs/scenario-format.md), for the editor.
    pub scenario_format: FormatInfo,
}

/// The words and sizes of the scenario format, from the engine: the editor builds its palette and lists from them.
#[derive(Serialize)]
pub struct FormatInfo {
    /// Each terrain: its name in views (`sunken_road`) and its character in a map (`S`).
    pub terrains: Vec<TerrainInfo>,
    /// The arms, as a unit's `arm` takes them.
    pub arms: Vec<&'static str>,
    /// The qualities.
    pub qualities: Vec<&'static str>,
    /// The facings.
    pub facings: Vec<char>,
    /// The home edges a side may have.
    pub homes: Vec<&'static str>,
    /// The least and most squares a side of the board may have (R1.1).
    pub min_side: u8,
    /// See `min_side`.
    pub max_side: u8,
}

/// A terrain of the scenario format.
#[derive(Serialize)]
pub struct TerrainInfo {
    /// As views name it.
    pub name: Terrain,
    /// Its character in a scenario's map.
    pub char: char,
    /// Whether no unit may enter it, nor stand in it, under the standard rules (R1.5: the river).
    pub impassable: bool,
}

impl FormatInfo {
    fn of_engine() -> FormatInfo {
        use pacw_engine::{Arm, Dir, Quality};
        let standard = pacw_engine::terrain::TerrainRules::standard();
        FormatInfo {
            terrains: Terrain::ALL
                .iter()
                .map(|&t| TerrainInfo { name: t, char: t.char(), impassable: !standard.passable(t) })
                .collect(),
            arms: Arm::ALL.iter().map(|a| a.name()).collect(),
            qualities: Quality::ALL.iter().map(|q| q.name()).collect(),
            facings: Dir::ALL.iter().map(|d| d.letter()).collect(),
            homes: Dir::ALL.iter().map(|d| d.edge_name()).collect(),
            min_side: pacw_engine::MIN_SIDE,
            max_side: pacw_engine::MAX_SIDE,
        }
    }
}

/// A shipped variant.
#[derive(Serialize)]
pub struct VariantInfo {
    /// Its short name, as `variant` takes it.
    pub name: &'static str,
    /// Its title.
    pub title: String,
    /// What it changes and why.
    pub description: String,
    /// The terrain kinds of its rules, the standard six first, then its own (the editor's palette under it).
    pub terrains: Vec<TerrainView>,
    /// The arms of its rules, the standard three first, then its own (the editor's lists of arms under it; the
    /// lobby's options `strength.<id>`, `move.<id>` and `range.<id>` of its own).
    pub arms: Vec<ArmView>,
    /// Its own to-hit modifiers (the lobby's options `modifier.<id>`), none when it has none.
    pub modifiers: Vec<OwnModifierView>,
    /// The options a game under it starts from, over the battle's own, name → value: the standard numbers it
    /// changes (`modifier.cover`), then its `[options]`.
    pub options: BTreeMap<String, String>,
}

/// `GET /api/info`.
pub async fn info() -> Json<Info> {
    Json(offered())
}

/// What the server offers, as `GET /api/info` gives it.
pub fn offered() -> Info {
    Info {
        name: "pacw",
        version: env!("CARGO_PKG_VERSION"),
        players: &pacw_ai::PLAYERS,
        offered: &pacw_ai::OFFERED,
        default_level: pacw_ai::DEFAULT_LEVEL,
        modes: vec!["computer", "hotseat", "two_players", "watch"],
        options: Options::default().pairs().into_iter().collect(),
        option_specs: &pacw_engine::OPTION_SPECS,
        variants: pacw_engine::SHIPPED_VARIANTS
            .iter()
            .filter_map(|&pacw_engine::Shipped { name, file, text }| {
                let system = pacw_engine::system::CombatSystem::with_variant(text, file).ok()?;
                let (terrains, arms) = (terrain_views(system.terrain_rules()), arm_views(&system));
                let (modifiers, options) = (own_modifier_views(&system), system_options(&system));
                Some(VariantInfo {
                    name,
                    title: system.name,
                    description: system.description,
                    terrains,
                    arms,
                    modifiers,
                    options,
                })
            })
            .collect(),
        body_limit: crate::BODY_LIMIT,
        scenario_format: FormatInfo::of_engine(),
    }
}

/// A shipped scenario, parsed.
#[derive(Serialize)]
pub struct ShippedScenario {
    /// Its file name.
    pub file: &'static str,
    /// The checked scenario.
    #[serde(flatten)]
    pub scenario: ScenarioView,
    /// Its text (TOML), to start an edited copy from.
    pub text: &'static str,
    /// Its measured balance (scenarios/balance.json): the first side's score between two greedy players.
    pub balance: Option<Figure>,
}

fn shipped_view(name: &'static str, file: &'static str, text: &'static str) -> ApiResult<ShippedScenario> {
    let s = Scenario::parse(text, file).map_err(|e| ApiError::Internal(format!("shipped scenario {name}: {e}")))?;
    let balance = shipped_balance::table().and_then(|t| t.scenarios.get(name).copied());
    Ok(ShippedScenario { file, scenario: scenario_view(name, &s), text, balance })
}

/// `GET /api/scenarios`: every shipped scenario, the default first.
///
/// # Errors
/// When a shipped scenario fails its checks (500), which the tests rule out.
pub async fn scenarios() -> ApiResult<Json<Vec<ShippedScenario>>> {
    shipped_scenarios().map(Json)
}

/// Every shipped scenario, the default first, as `GET /api/scenarios` gives them.
///
/// # Errors
/// When a shipped scenario fails its checks (500), which the tests rule out.
pub fn shipped_scenarios() -> ApiResult<Vec<ShippedScenario>> {
    pacw_engine::offered_scenarios().map(|s| shipped_view(s.name, s.file, s.text)).collect()
}

/// `GET /api/scenarios/{name}`.
///
/// # Errors
/// When no shipped scenario has this name (404), or it fails its checks (500), which the tests rule out.
pub async fn scenario(Path(name): Path<String>) -> ApiResult<Json<ShippedScenario>> {
    let s = shipped(&name)
        .ok_or_else(|| ApiError::NotFound(format!("no shipped scenario '{name}' (see /api/scenarios)")))?;
    Ok(Json(shipped_view(s.name, s.file, s.text)?))
}

/// A scenario text to check.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// The TOML text.
    pub text: String,
    /// Its file name, for messages (default `uploaded.toml`).
    pub file: Option<String>,
    /// A variant file's text to check it under, in place of any variant it names (as `POST /api/games` takes it).
    pub variant_text: Option<String>,
    /// The variant file's name, for messages (default `variant.toml`).
    pub variant_file: Option<String>,
}

/// `POST /api/scenarios/check`: checks a scenario text without creating a game (always 200; see `ok`).
pub async fn check(Body(req): Body<CheckRequest>) -> Json<CheckReply> {
    let variant_file = req.variant_file.as_deref().unwrap_or("variant.toml");
    let variant = req.variant_text.as_deref().map(|text| GivenVariant { text, file: variant_file });
    Json(check_scenario(&req.text, req.file.unwrap_or_else(|| "uploaded.toml".to_string()), variant))
}

/// The games list.
#[derive(Serialize)]
pub struct GameList {
    /// Most recently changed first; damaged rows last.
    pub games: Vec<GameListItem>,
}

/// `GET /api/games`: the public facts of every game, where the operator allows it (`--list-games`).
///
/// # Errors
/// When the operator does not let the server list its games (404).
pub async fn list_games(State(games): State<AppState>) -> ApiResult<Json<GameList>> {
    if !games.listing_allowed() {
        return Err(ApiError::NotFound(
            "this server does not list its games (its operator may start it with --list-games, or list them with \
             `pacw games --data DIR`); your own games are in your browser's lobby"
                .into(),
        ));
    }
    Ok(Json(GameList { games: games.list() }))
}

/// `POST /api/games` → 201 with the tokens, links and first view.
///
/// # Errors
/// As [`Games::create`](crate::session::Games::create).
pub async fn create_game(
    State(games): State<AppState>,
    peer: Option<Extension<Peer>>,
    headers: axum::http::HeaderMap,
    Body(req): Body<CreateGame>,
) -> ApiResult<(StatusCode, Json<crate::session::Created>)> {
    // A logged-in page's game: the maker's seat is their account's.
    let owner = super::club::maker(&games, &headers).await?;
    // The client is the account, or else its address without the port (one machine's connections are one client),
    // or behind a trusted proxy the address it forwards.
    let address = games.client_of(peer.map(|Extension(Peer(a))| a), &headers);
    let client = Games::client_key(owner.as_ref(), address);
    let created = blocking(move || games.create(req, &client, owner.as_ref())).await?;
    Ok((StatusCode::CREATED, Json(created)))
}
