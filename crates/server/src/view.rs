//! The JSON the API returns: scenarios, the full view of a game for a token, actions with their odds, the log.
//! Built only from the engine's public API; docs/api.md describes every field.

use crate::ledger::{Ledger, ledger};
use crate::live::Live;
use crate::setup::{Mode, PlayerKind};
use crate::tokens::Role;
use pacw_engine::narrate;
use pacw_engine::odds::OddsReport;
use pacw_engine::scenario::Colour;
use pacw_engine::{
    Action, Arm, Battle, Card, Dir, EndReason, Event, GameResult, Initiative, Prob, Quality, Scenario, Side, Square,
    Terrain, ToAct, UnitId, UnitInfo,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// One square of the map.
#[derive(Serialize, Clone, Debug)]
pub struct SquareView {
    /// Its name, such as `c3`.
    pub at: Square,
    /// Column from 0 (west).
    pub x: u8,
    /// Row from 0 (south).
    pub y: u8,
    /// Its terrain (R1.3).
    pub terrain: Terrain,
    /// 0..=3 (R1.3).
    pub elevation: u8,
    /// Whether a road runs through it (R1.6).
    pub road: bool,
    /// The edges of this square that carry a fence (R1.4).
    pub fences: Vec<Dir>,
}

/// The battlefield.
#[derive(Serialize, Clone, Debug)]
pub struct MapView {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Every square, row by row from a1 (index = y * width + x).
    pub squares: Vec<SquareView>,
    /// Every fenced edge once, as the two squares it lies between.
    pub fences: Vec<[Square; 2]>,
}

/// A side as the scenario describes it.
#[derive(Serialize, Clone, Debug)]
pub struct SideView {
    /// `A` (first) or `B` (second).
    pub side: Side,
    /// The scenario's id for it.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its home edge.
    pub home: Dir,
    /// Its card colour.
    pub colour: Colour,
    /// Its display colour on the board, in the log and the ledger (the scenario key `counter`).
    pub counter: String,
    /// Destroyed units at which it is exhausted (R8.1).
    pub exhaustion: u8,
    /// Units at the start.
    pub starting_units: usize,
}

/// A unit as the scenario places it.
#[derive(Serialize, Clone, Debug)]
pub struct UnitInfoView {
    /// Its id (index in the scenario), used by actions and events.
    pub id: u8,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Its arm (for a unit of a variant's own arm, the standard arm it moves, fires and is fired at as).
    pub arm: Arm,
    /// The variant's own arm it belongs to (`skirmishers`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_arm: Option<String>,
    /// Its quality.
    pub quality: Quality,
    /// Its strength (R2.2).
    pub strength: u8,
    /// Where it starts.
    pub at: Square,
    /// Column.
    pub x: u8,
    /// Row.
    pub y: u8,
    /// Its facing at the start.
    pub facing: Dir,
}

/// A unit of scenario `s` shown on `at`, facing `facing`.
fn unit_info_view(s: &Scenario, id: u8, u: &UnitInfo, at: Square, facing: Dir) -> UnitInfoView {
    UnitInfoView {
        id,
        name: u.name.clone(),
        side: u.side,
        arm: u.arm,
        own_arm: u.own_arm.map(|_| s.arm_name(u).to_string()),
        quality: u.quality,
        strength: u.strength(),
        at,
        x: at.x,
        y: at.y,
        facing,
    }
}

/// An objective square.
#[derive(Serialize, Clone, Debug)]
pub struct ObjectiveView {
    /// Where.
    pub at: Square,
    /// Column.
    pub x: u8,
    /// Row.
    pub y: u8,
    /// Points for holding it at the end (R8.2).
    pub points: u8,
    /// Who holds it (in a scenario: at the start; in a game: now, by R8.2).
    pub holder: Option<Side>,
}

/// A scenario, checked: for previews and for the battle page.
#[derive(Serialize, Clone, Debug)]
pub struct ScenarioView {
    /// Short name (shipped) or file name (uploaded).
    pub name: String,
    /// Its title.
    pub title: String,
    /// Its description.
    pub description: String,
    /// The turn limit.
    pub turns: u8,
    /// Points per destroyed enemy unit (R8.2).
    pub points_per_destroyed: u8,
    /// Both sides.
    pub sides: [SideView; 2],
    /// The map.
    pub map: MapView,
    /// The objectives.
    pub objectives: Vec<ObjectiveView>,
    /// The units as placed at the start.
    pub units: Vec<UnitInfoView>,
    /// The scenario's own options (R11), name → value.
    pub options: BTreeMap<String, String>,
    /// The variant its games are played by (docs/variants.md); absent for the standard rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesView>,
    /// The side that attacks, when the scenario names it (`attacker`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attacker: Option<Side>,
    /// The shipped variant's name when the rules are one (`close-combat`), as a scenario's `variant` names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<&'static str>,
}

/// A variant's rules, as a game under it shows them.
#[derive(Serialize, Clone, Debug)]
pub struct RulesView {
    /// Its name.
    pub name: String,
    /// What it changes and why.
    pub description: String,
    /// Its to-hit modifiers beside the standard's, each `{id, name, value, when}`.
    pub modifiers: Vec<serde_json::Value>,
    /// Its hit-result table, row → [at most the strength, above].
    pub results: serde_json::Value,
    /// The words it shows players (`charge`, `shaken`, `retreat`, `destroyed`, `fire`) → its word.
    pub terms: serde_json::Value,
}

/// The view of a scenario.
pub fn scenario_view(name: &str, s: &Scenario) -> ScenarioView {
    let map = &s.map;
    let squares = map
        .squares()
        .map(|at| SquareView {
            at,
            x: at.x,
            y: at.y,
            terrain: map.terrain(at),
            elevation: map.elevation(at),
            road: map.road(at),
            fences: Dir::ALL.into_iter().filter(|&d| map.step(at, d).is_some() && map.fence(at, d)).collect(),
        })
        .collect();
    let mut fences = Vec::new();
    for at in map.squares() {
        for d in [Dir::N, Dir::E] {
            if let Some(next) = map.step(at, d)
                && map.fence(at, d)
            {
                fences.push([at, next]);
            }
        }
    }
    let side = |sd: Side| {
        let i = s.side(sd);
        SideView {
            side: sd,
            id: i.id.clone(),
            name: i.name.clone(),
            home: i.home,
            colour: i.colour,
            counter: i.counter.to_string(),
            exhaustion: i.exhaustion,
            starting_units: s.starting_units(sd),
        }
    };
    ScenarioView {
        name: name.to_string(),
        title: s.name.clone(),
        description: s.description.clone(),
        turns: s.turns,
        points_per_destroyed: s.points_per_destroyed,
        sides: [side(Side::A), side(Side::B)],
        map: MapView { width: map.width(), height: map.height(), squares, fences },
        objectives: s
            .objectives
            .iter()
            .map(|o| ObjectiveView { at: o.at, x: o.at.x, y: o.at.y, points: o.points, holder: o.holder })
            .collect(),
        units: s.units.iter().enumerate().map(|(i, u)| unit_info_view(s, i as u8, u, u.at, u.facing)).collect(),
        options: s.option_pairs(&s.options).into_iter().collect(),
        attacker: s.attacker,
        variant: s.system.as_ref().and_then(|system| {
            let (file, text) = system.source()?;
            pacw_engine::SHIPPED_VARIANTS.iter().find(|v| v.file == file && v.text == text).map(|v| v.name)
        }),
        rules: s.system.as_ref().map(|system| {
            let json = system.to_json();
            RulesView {
                name: system.name.clone(),
                description: system.description.clone(),
                modifiers: json["modifiers"].as_array().cloned().unwrap_or_default(),
                results: json["results"].clone(),
                terms: json["terms"].clone(),
            }
        }),
    }
}

/// The scenario as the game plays it: the turn limit, the exhaustion points and the strengths the options set
/// (R11), over the scenario's own.
fn in_force(mut view: ScenarioView, b: &Battle) -> ScenarioView {
    view.turns = b.turn_limit();
    for side in &mut view.sides {
        side.exhaustion = b.exhaustion_point(side.side);
    }
    for unit in &mut view.units {
        unit.strength = b.strength(UnitId(unit.id));
    }
    view
}

/// A unit as it stands now: its description at its current square and facing, and its state.
#[derive(Serialize, Clone, Debug)]
pub struct UnitView {
    /// Id, name, side, arm, quality, strength, square (its last square if destroyed) and facing.
    #[serde(flatten)]
    pub unit: UnitInfoView,
    /// Whether it is on the board.
    pub alive: bool,
    /// Whether it is shaken (R2.4).
    pub shaken: bool,
    /// Whether it has been activated this turn.
    pub activated_this_turn: bool,
    /// Whether it has been activated on the card in play (cards; this turn under the other initiative systems).
    pub activated_this_card: bool,
    /// For guns: the unit it ranged on with its previous attack (R6.4).
    pub ranging_on: Option<u8>,
}

/// A card of the initiative deck.
#[derive(Serialize, Clone, Debug)]
pub struct CardView {
    /// The card as the engine writes it: `{"side": {"side": "A", "value": 3}}` or `"joker"`.
    pub card: Card,
    /// Its side (none for the Joker).
    pub side: Option<Side>,
    /// Its value (0 for the Joker).
    pub value: u8,
    /// In words.
    pub text: String,
}

/// A kind of card left in the deck.
#[derive(Serialize, Clone, Debug)]
pub struct DeckCardView {
    /// The card.
    #[serde(flatten)]
    pub card: CardView,
    /// Copies left.
    pub count: u8,
    /// The chance that the next card drawn is one of these, exactly.
    pub chance: String,
}

/// The chance that the next card is a side's or the Joker.
#[derive(Serialize, Clone, Debug)]
pub struct NextCard {
    /// First side, as a fraction.
    #[serde(rename = "A")]
    pub a: String,
    /// Second side.
    #[serde(rename = "B")]
    pub b: String,
    /// The Joker.
    pub joker: String,
}

/// The cards left in the deck (R3.2, R3.3).
#[derive(Serialize, Clone, Debug)]
pub struct DeckView {
    /// Cards left.
    pub left: u8,
    /// Each kind of card left.
    pub cards: Vec<DeckCardView>,
    /// The exact chance that the next card is each side's or the Joker.
    pub next: NextCard,
}

/// One legal action, offered to the side to act.
#[derive(Serialize, Clone, Debug)]
pub struct ActionView {
    /// Its index in the list: what `POST …/actions` takes as `index`.
    pub index: usize,
    /// The action as JSON: what `POST …/actions` takes as `action`.
    pub action: Action,
    /// The order's name (R4.2): Activate, End activations, Hold, Move, Fire, Move & Fire, Fire & Move, Advance.
    pub order: &'static str,
    /// The unit it concerns: the one activated, or the one giving the order.
    pub unit: Option<u8>,
    /// In words (with the number needed for attacks).
    pub text: String,
    /// For attacking orders: the exact odds.
    pub odds: Option<OddsReport>,
}

/// The legal actions of the side to act, with words and odds.
pub fn action_views(b: &Battle) -> Vec<ActionView> {
    b.legal_actions()
        .into_iter()
        .enumerate()
        .map(|(index, action)| {
            let unit = match action {
                Action::Activate(u) => Some(u),
                Action::EndActivations => None,
                _ => b.active_unit(),
            };
            let odds = match (action.target(), unit) {
                (Some(_), Some(u)) => b.attack_odds(u, &action).ok().map(|o| o.report(b.scenario().system.as_deref())),
                _ => None,
            };
            ActionView {
                index,
                action,
                order: action.order_name(),
                unit: unit.map(|u| u.0),
                text: narrate::action(b, &action),
                odds,
            }
        })
        .collect()
}

/// One event of the game log.
#[derive(Serialize, Clone, Debug)]
pub struct LogEntry {
    /// Its position in the log, from 0.
    pub index: usize,
    /// The decision it followed: 0 for the events before the first decision, k for those caused by decision k.
    pub decision: usize,
    /// In words, with rule ids.
    pub text: String,
    /// The event as the engine reports it.
    pub event: Event,
}

/// Log entries `from..` of a live game.
pub fn log_entries(live: &Live, from: usize) -> Vec<LogEntry> {
    let s = live.game.battle().scenario();
    let log = live.game.log();
    let from = from.min(log.len());
    let mut decision = live.decision_of_event(from);
    let mut next_end = live.step_end(decision);
    log[from..]
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let index = from + i;
            while index >= next_end {
                decision += 1;
                next_end = live.step_end(decision);
            }
            // A resignation follows the last decision without being one.
            let decision = decision.min(live.decisions());
            LogEntry { index, decision, text: narrate::event_with(s, live.game.battle().options(), e), event: *e }
        })
        .collect()
}

/// How a game ended.
#[derive(Serialize, Clone, Debug)]
pub struct ResultView {
    /// The winner, or null for a draw.
    pub winner: Option<Side>,
    /// Why it ended (R8): `{"exhaustion": "A"}` or `"turn_limit"`.
    pub reason: EndReason,
    /// Points of each side (R8.2).
    pub points: [u16; 2],
    /// In words.
    pub text: String,
}

/// The view of a result.
pub fn result_view(s: &Scenario, r: GameResult) -> ResultView {
    ResultView {
        winner: r.winner,
        reason: r.reason,
        points: r.points,
        text: narrate::event(s, &Event::GameOver { result: r }),
    }
}

/// Who plays a side.
#[derive(Serialize, Clone, Debug)]
pub struct PlayerView {
    /// The side.
    pub side: Side,
    /// The side's name in the scenario.
    pub name: String,
    /// `human` or `computer`.
    pub kind: &'static str,
    /// The computer player's name (`greedy`, `mcts`, …).
    pub computer: Option<String>,
}

/// The players of a game.
pub fn player_views(s: &Scenario, players: &[PlayerKind; 2]) -> [PlayerView; 2] {
    Side::BOTH.map(|side| {
        let p = &players[side.index()];
        PlayerView {
            side,
            name: s.side(side).name.clone(),
            kind: match p {
                PlayerKind::Human => "human",
                PlayerKind::Computer { .. } => "computer",
            },
            computer: match p {
                PlayerKind::Human => None,
                PlayerKind::Computer { name } => Some(name.clone()),
            },
        }
    })
}

/// Who acts next.
#[derive(Serialize, Clone, Debug)]
pub struct ToActView {
    /// `side` or `over`.
    pub kind: &'static str,
    /// The side to act.
    pub side: Option<Side>,
    /// Whether that side is played by the computer.
    pub computer: bool,
}

/// What this token can take back (R: undo until a die is rolled or a card drawn).
#[derive(Serialize, Clone, Debug)]
pub struct UndoView {
    /// Whether `POST …/undo` would succeed now.
    pub possible: bool,
    /// How many of this token's decisions can be taken back.
    pub decisions: usize,
    /// How many of them one press of Undo takes back (`count` for `POST …/undo`): the last order together with
    /// the activation that began it, or the last decision alone.
    pub last_order: usize,
    /// When nothing can be taken back: why, in words with the rule.
    pub why_not: Option<String>,
}

/// Where a replay view stands.
#[derive(Serialize, Clone, Debug)]
pub struct ReplayPos {
    /// Decisions applied.
    pub decision: usize,
    /// Decisions in the whole game.
    pub of: usize,
    /// Whether the whole game is over.
    pub game_over: bool,
}

/// The full view of a game for one token.
#[derive(Serialize, Clone, Debug)]
pub struct GameView {
    /// The game's public id.
    pub id: String,
    /// Increases with every change (action or undo); SSE updates carry it too.
    pub revision: u64,
    /// This token's role: `A`, `B`, `hotseat` or `spectator`.
    pub role: &'static str,
    /// The sides this token acts for.
    pub you_play: Vec<Side>,
    /// How the game is played.
    pub mode: Mode,
    /// Who plays each side.
    pub players: [PlayerView; 2],
    /// The scenario: map, sides, objectives, units at the start.
    pub scenario: ScenarioView,
    /// The options in force (R11), name → value.
    pub options: BTreeMap<String, String>,
    /// The turn, from 1.
    pub turn: u8,
    /// Who acts next.
    pub to_act: ToActView,
    /// Whether this token may act now.
    pub your_turn: bool,
    /// The side whose activations are under way.
    pub active_side: Side,
    /// The unit giving or carrying out its order, if any.
    pub active_unit: Option<u8>,
    /// Activations left on the current card (cards only).
    pub activations_left: Option<u8>,
    /// Each side's initiative value (R3.1).
    pub initiative_values: [u8; 2],
    /// Units each side has lost.
    pub destroyed: [u8; 2],
    /// Points each side would have now (R8.2).
    pub points: [u16; 2],
    /// Every unit as it stands.
    pub units: Vec<UnitView>,
    /// The objectives with their holders now.
    pub objectives: Vec<ObjectiveView>,
    /// The card drawn last (cards only).
    pub card: Option<CardView>,
    /// The deck (cards only).
    pub deck: Option<DeckView>,
    /// The legal actions of the side to act (empty when the game is over).
    pub legal_actions: Vec<ActionView>,
    /// Decisions made so far.
    pub decisions: usize,
    /// The log below starts at this event index (0 unless `?log_from=` was given, or in an action's reply).
    pub log_from: usize,
    /// Events in the whole log.
    pub log_len: usize,
    /// The game log from `log_from`, in words and raw.
    pub log: Vec<LogEntry>,
    /// What this token can undo.
    pub undo: UndoView,
    /// The result, once over.
    pub result: Option<ResultView>,
    /// The seed of the dice and cards: only once the game is over.
    pub seed: Option<u64>,
    /// Each side's expected and actual attack results: only once the game is over.
    pub ledger: Option<Ledger>,
    /// The first side's expected score by the evaluator, from 0 to 1 (the barometer): in games against the
    /// computer, hot-seat and watched, and in any game once it is over; never while two people play on two machines.
    pub winning_chances: Option<f32>,
    /// In a replay view: the decision shown.
    pub replay: Option<ReplayPos>,
}

/// What a view is built for.
pub struct ViewCtx<'a> {
    /// The game id.
    pub id: &'a str,
    /// The scenario's short name.
    pub scenario_name: &'a str,
    /// The mode.
    pub mode: Mode,
    /// The players.
    pub players: &'a [PlayerKind; 2],
    /// The token's role.
    pub role: Role,
}

/// The full view of `live` for a token.
pub fn game_view(ctx: &ViewCtx<'_>, live: &Live, log_from: usize, replay: Option<ReplayPos>) -> GameView {
    let b = live.game.battle();
    let s = b.scenario();
    let holders = b.objective_holders();
    let cards = b.options().initiative == Initiative::Cards;
    let (to_act, side_to_act) = match b.to_act() {
        ToAct::Side(side) => (
            ToActView {
                kind: "side",
                side: Some(side),
                computer: matches!(ctx.players[side.index()], PlayerKind::Computer { .. }),
            },
            Some(side),
        ),
        _ => (ToActView { kind: "over", side: None, computer: false }, None),
    };
    let live_view = replay.is_none();
    let your_turn = live_view && side_to_act.is_some_and(|sd| ctx.role.controls(sd) && !to_act.computer);
    let undo = if live_view { live.undoable(ctx.role, ctx.players) } else { 0 };
    let last_order = live.last_order_len(ctx.role, ctx.players).min(undo);
    let over = b.result();
    let game_over = over.is_some() || replay.as_ref().is_some_and(|r| r.game_over);
    let barometer = game_over || ctx.mode != Mode::TwoPlayers;
    let last_card = live.game.log().iter().rev().find_map(|e| match e {
        Event::CardDrawn { card, .. } => Some(*card),
        _ => None,
    });
    GameView {
        id: ctx.id.to_string(),
        revision: live.revision,
        role: ctx.role.name(),
        you_play: ctx.role.sides(),
        mode: ctx.mode,
        players: player_views(s, ctx.players),
        scenario: in_force(scenario_view(ctx.scenario_name, s), b),
        options: s.option_pairs(b.options()).into_iter().collect(),
        turn: b.turn(),
        to_act,
        your_turn,
        active_side: b.active_side(),
        active_unit: b.active_unit().map(|u| u.0),
        activations_left: cards.then(|| b.activations_left()),
        initiative_values: b.initiative_values(),
        destroyed: Side::BOTH.map(|sd| b.destroyed(sd)),
        points: b.points(),
        units: b
            .unit_ids()
            .map(|u| {
                let (st, info) = (b.unit(u), b.info(u));
                UnitView {
                    unit: UnitInfoView {
                        strength: b.strength(u),
                        ..unit_info_view(b.scenario_ref(), u.0, info, st.at, st.facing)
                    },
                    alive: st.alive,
                    shaken: st.shaken,
                    activated_this_turn: b.activated_this_turn(u),
                    activated_this_card: b.activated_this_card(u),
                    ranging_on: st.ranging_on().map(|r| r.0),
                }
            })
            .collect(),
        objectives: s
            .objectives
            .iter()
            .zip(holders)
            .map(|(o, holder)| ObjectiveView { at: o.at, x: o.at.x, y: o.at.y, points: o.points, holder })
            .collect(),
        card: if cards { last_card.map(|c| card_view(s, c)) } else { None },
        deck: cards.then(|| deck_view(b)),
        legal_actions: if over.is_none() { action_views(b) } else { Vec::new() },
        decisions: live.decisions(),
        log_from: log_from.min(live.game.log().len()),
        log_len: live.game.log().len(),
        log: log_entries(live, log_from),
        undo: UndoView {
            possible: undo > 0,
            decisions: undo,
            last_order,
            why_not: if live_view && undo == 0 { live.undo_refusal(ctx.role, ctx.players) } else { None },
        },
        result: over.map(|r| result_view(s, r)),
        seed: over.map(|_| live.game.seed()),
        ledger: over.map(|_| ledger(&live.game)),
        winning_chances: barometer.then(|| pacw_ai::evaluator::shared().value(b)),
        replay,
    }
}

/// The view of a card.
pub fn card_view(s: &Scenario, card: Card) -> CardView {
    let (side, value) = match card {
        Card::Side { side, value } => (Some(side), value),
        Card::Joker => (None, 0),
    };
    CardView { card, side, value, text: narrate::card(s, card) }
}

/// The deck with the exact chances of the next card.
pub fn deck_view(b: &Battle) -> DeckView {
    let deck = b.deck();
    let left = deck.len();
    let frac = |n: u32| if left == 0 { "0".to_string() } else { Prob::new(n, left as u32).to_string() };
    let mut per = [0u32; 3];
    let cards = deck
        .cards()
        .map(|(card, count)| {
            let slot = match card {
                Card::Side { side, .. } => side.index(),
                Card::Joker => 2,
            };
            per[slot] += count as u32;
            DeckCardView { card: card_view(b.scenario(), card), count, chance: frac(count as u32) }
        })
        .collect();
    DeckView { left, cards, next: NextCard { a: frac(per[0]), b: frac(per[1]), joker: frac(per[2]) } }
}

/// One decision of a replay.
#[derive(Serialize, Clone, Debug)]
pub struct ReplayStep {
    /// Its number, from 1.
    pub decision: usize,
    /// The side that made it.
    pub side: Side,
    /// Whether the computer made it.
    pub computer: bool,
    /// The action.
    pub action: Action,
    /// In words, as it was offered.
    pub text: String,
    /// The events it caused (with the chance that followed).
    pub events: Vec<LogEntry>,
}

/// A whole game, decision by decision.
#[derive(Serialize, Clone, Debug)]
pub struct ReplayView {
    /// Decisions in the game.
    pub decisions: usize,
    /// The events before the first decision.
    pub start: Vec<LogEntry>,
    /// Every decision.
    pub steps: Vec<ReplayStep>,
    /// The events after the last decision that no decision caused: a resignation.
    pub end: Vec<LogEntry>,
}

/// The replay of a game, rebuilt from its start.
///
/// # Panics
/// If the game's own decisions or its resignation do not replay from its start, which the engine's exact replay rules
/// out.
pub fn replay_view(live: &Live, players: &[PlayerKind; 2]) -> ReplayView {
    let mut past = Live::new(live.game.undo(live.decisions()));
    let start = log_entries(&past, 0);
    let mut steps = Vec::with_capacity(live.decisions());
    for (i, &action) in live.game.actions().iter().enumerate() {
        let text = narrate::action(past.game.battle(), &action);
        let from = past.game.log().len();
        past.apply(action).expect("a game's own decisions replay");
        let side = past.steps[i].side;
        steps.push(ReplayStep {
            decision: i + 1,
            side,
            computer: matches!(players[side.index()], PlayerKind::Computer { .. }),
            action,
            text,
            events: log_entries(&past, from),
        });
    }
    let from = past.game.log().len();
    if let Some(side) = live.game.resigned() {
        past.game.resign(side).expect("a game's own resignation replays");
    }
    ReplayView { decisions: live.decisions(), start, steps, end: log_entries(&past, from) }
}
