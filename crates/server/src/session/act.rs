//! A person's action or undo through a token, and how every change is committed and pushed to subscribers.

use super::change::Change;
use super::{EntryState, GameEntry, Games, Update, UpdateBody};
use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::setup::PlayerKind;
use crate::tokens::Role;
use crate::view::{GameView, LogEntry, game_view};
use pacw_engine::{Action, LegalActions, Side, ToAct};
use serde::Deserialize;
use std::sync::Arc;

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

impl Games {
    /// A person's action through a token: checked, committed, pushed; the reply is the view from the first new
    /// event on.
    ///
    /// # Errors
    /// When the game is over (409), the token is a spectator's or does not play the side to act, that side is the
    /// computer's, or the seat's account is disabled (403), `decisions` is not the game's (409), the index is not a legal action's or neither index nor
    /// action is given (400), the action given is not the indexed one (409), the engine refuses the action (422), or
    /// the game cannot be loaded or the action stored (500).
    pub fn act(self: &Arc<Self>, entry: &Arc<GameEntry>, role: Role, req: ActRequest) -> ApiResult<GameView> {
        let mut st = entry.lock();
        self.check_enabled(&st, role)?;
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
        // The action: by its place in the list of legal actions, or given (checked when it is applied).
        let action = match (req.index, req.action) {
            (Some(i), given) => {
                let mut legal = LegalActions::new();
                b.list_legal(&mut legal);
                let Some(a) = legal.get(i) else {
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
        let live = self.loaded(&entry.id, &mut st)?;
        Ok(game_view(&entry.ctx(role), live, before_len, None))
    }

    /// Applies an action on a copy (checked against the rules: refused, nothing changes), then commits it
    /// ([`Games::commit`](super::Games::commit): stored, made current, told).
    pub(super) fn commit_action(
        self: &Arc<Self>,
        entry: &Arc<GameEntry>,
        st: &mut EntryState,
        action: Action,
        computer: bool,
    ) -> ApiResult<()> {
        let live = st.live.as_ref().ok_or_else(|| ApiError::Internal("the game was not loaded".into()))?;
        let before_len = live.game.log().len();
        let mut next = live.clone();
        next.apply(action)?; // checked: only a legal action is described below
        let text = pacw_engine::narrate::action(live.game.battle(), &action);
        let side = next.steps.last().map_or_else(|| live.game.battle().active_side(), |s| s.side);
        self.commit(entry, st, next, Change::Action { side, computer, action, text }, before_len)
    }

    pub(super) fn publish(
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
        let _ = entry.tx.send(Update { revision: live.revision, json, event: super::UpdateEvent::Change });
    }

    /// Takes back this token's last `count` decisions (and the computer's after them), if no die was rolled and
    /// no card drawn since.
    ///
    /// # Errors
    /// When the token is a spectator's, the game is rated, or the seat's account is disabled (403), `count` is 0 (400), `decisions` is not the game's (409), fewer than
    /// `count` of the token's decisions can be taken back (409), or the game cannot be loaded or the undo stored (500).
    pub fn undo(self: &Arc<Self>, entry: &Arc<GameEntry>, role: Role, req: UndoRequest) -> ApiResult<GameView> {
        if role == Role::Spectator {
            return Err(ApiError::Forbidden("this is a spectator's link: it can only watch".into()));
        }
        if entry.rating == crate::setup::Rating::Rated {
            return Err(ApiError::Forbidden("a rated game takes nothing back".into()));
        }
        let count = req.count.unwrap_or(1);
        if count == 0 {
            return Err(ApiError::BadRequest("count must be at least 1".into()));
        }
        let mut st = entry.lock();
        self.check_enabled(&st, role)?;
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
        let log_len = next.game.log().len();
        self.commit(entry, &mut st, next, Change::Undo { removed: remove }, log_len)?;
        let live = self.loaded(&entry.id, &mut st)?;
        Ok(game_view(&entry.ctx(role), live, 0, None))
    }
}
