//! The view of a game for a token: the battle as it stands, the legal actions with their odds, the log, the result
//! and who plays.

use super::scenario::{in_force, unit_info_view};
use super::*;
use crate::ledger::{Ledger, ledger};
use crate::live::Live;
use crate::setup::Role;
use crate::setup::{Mode, PlayerKind};
use pacw_engine::narrate;
use pacw_engine::odds::OddsReport;
use pacw_engine::{Action, Battle, EndReason, Event, GameResult, Initiative, Scenario, Side, ToAct};
use serde::Serialize;
use std::collections::BTreeMap;

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
    /// Whether it is a reinforcement's unit not yet arrived (docs/scenario-format.md#events): not `alive`, and not
    /// lost. Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub waiting: bool,
    /// For a unit waiting: the turn at whose start it is next due to enter its square, `at` (none when the events
    /// are off or the turn is past the limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub due: Option<u8>,
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
                (Some(_), Some(u)) => b.attack_odds(u, &action).ok().map(|o| o.report(Some(b.scenario().system()))),
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
                    waiting: b.is_waiting(u),
                    due: b.arrival_due(u),
                }
            })
            .collect(),
        objectives: s
            .objectives
            .iter()
            .zip(holders)
            .enumerate()
            .map(|(i, (o, holder))| ObjectiveView {
                at: o.at,
                x: o.at.x,
                y: o.at.y,
                points: b.objective_points(i),
                holder,
            })
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
