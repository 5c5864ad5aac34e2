//! Questions a page asks about a game without changing it: a selected unit's orders, one order explained, and the
//! public facts of a game for a "your games" list.

use super::{GameEntry, Games};
use crate::board::{ExplainRequest, Explanation, UnitOrders, explain, turn_check, unit_orders};
use crate::error::{ApiError, ApiResult};
use crate::setup::{Mode, Pace, PlayerKind};
use crate::tokens::Role;
use crate::view::PlayerView;
use pacw_engine::Rule;
use pacw_engine::{Battle, Illegal, Side, UnitId};
use serde::Serialize;

/// The public facts of a game, for the token that asks: what a "your games" list shows.
#[derive(Serialize, Clone, Debug)]
pub struct GameSummary {
    /// The game's id.
    pub id: String,
    /// This token's role: `A`, `B`, `hotseat` or `spectator`.
    pub role: &'static str,
    /// `in_progress` or `finished`.
    pub status: &'static str,
    /// The scenario's short or file name.
    pub scenario: String,
    /// Its title.
    pub title: String,
    /// How it is played.
    pub mode: Mode,
    /// Who plays each side.
    pub players: [PlayerView; 2],
    /// The turn, and the limit.
    pub turn: u8,
    /// The turn limit.
    pub turns: u8,
    /// Decisions made.
    pub decisions: usize,
    /// The side to act, while in progress.
    pub to_act: Option<Side>,
    /// Whether this token may act now.
    pub your_turn: bool,
    /// The result in words, once finished.
    pub result_text: Option<String>,
    /// Created, ms since 1970.
    pub created_at: i64,
    /// Last change, ms since 1970.
    pub updated_at: i64,
    /// `live`, or days for each move: `1d`, `3d`, `7d`.
    pub pace: Pace,
    /// What the clock of the side to act holds before its deadline (ms; 0 once passed): only with a pace of days.
    pub left_ms: Option<i64>,
    /// While the player of the side to act is on vacation (their clock stands still): when it ends.
    pub vacation_until: Option<i64>,
}

impl Games {
    /// Whether `role` may give an order now: its turn, its side, not the computer's.
    fn may_act(entry: &GameEntry, role: Role, b: &Battle) -> Result<(), Illegal> {
        let computer = match b.to_act() {
            pacw_engine::ToAct::Side(s) => matches!(entry.players[s.index()], PlayerKind::Computer { .. }),
            _ => false,
        };
        if role == Role::Spectator {
            return Err(Illegal::new(Rule::R3_4, "this is a spectator's link: it can only watch"));
        }
        turn_check(b, |s| role.controls(s), computer)
    }

    fn unit_of(b: &Battle, unit: u8) -> ApiResult<UnitId> {
        match UnitId::try_new(unit.into()).filter(|&id| b.unit_ids().any(|u| u == id)) {
            Some(id) => Ok(id),
            None => Err(ApiError::NotFound(format!("the scenario has no unit {unit} (units are numbered from 0)"))),
        }
    }

    /// A unit's orders and what the board draws for it (`GET …/units/{id}`).
    ///
    /// # Errors
    /// When the scenario has no such unit (404), or the game cannot be loaded (500).
    pub fn unit_orders(&self, entry: &GameEntry, role: Role, unit: u8) -> ApiResult<UnitOrders> {
        self.with_live(entry, |_, live| {
            let b = live.game.battle();
            let id = Self::unit_of(b, unit)?;
            let may = Self::may_act(entry, role, b);
            Ok(unit_orders(b, id, live.decisions(), may))
        })
    }

    /// Whether an order is legal for a unit now, and why not (`POST …/explain`).
    ///
    /// # Errors
    /// When the scenario has no such unit or target (404), or the game cannot be loaded (500).
    pub fn explain(&self, entry: &GameEntry, role: Role, req: ExplainRequest) -> ApiResult<Explanation> {
        self.with_live(entry, |_, live| {
            let b = live.game.battle();
            let id = Self::unit_of(b, req.unit)?;
            if let Some(t) = req.action.target() {
                Self::unit_of(b, t.0)?;
            }
            Ok(explain(b, id, req.action, Self::may_act(entry, role, b)))
        })
    }

    /// The public facts of a game for a token (`GET …/summary`), without loading a finished game.
    pub fn summary(&self, entry: &GameEntry, role: Role) -> GameSummary {
        let (s, clock) = {
            let st = entry.lock();
            (st.summary.clone(), self.time_left(entry, &st))
        };
        let computer = s.to_act.is_some_and(|side| matches!(entry.players[side.index()], PlayerKind::Computer { .. }));
        GameSummary {
            id: entry.id.clone(),
            role: role.name(),
            status: if s.result.is_some() { "finished" } else { "in_progress" },
            scenario: entry.scenario_name.clone(),
            title: s.title,
            mode: entry.mode,
            players: s.players,
            turn: s.turn,
            turns: s.turns,
            decisions: s.decisions,
            to_act: s.to_act,
            your_turn: s.to_act.is_some_and(|side| role.controls(side)) && !computer,
            result_text: s.result_text,
            created_at: entry.created_at,
            updated_at: s.updated_at,
            pace: entry.pace,
            left_ms: clock.map(|(left, _)| left),
            vacation_until: clock.and_then(|(_, until)| until),
        }
    }
}
