//! A take-back in a two-player game, by request: a player asks to take back their last decision (with the other's
//! decisions after it), and the other accepts or declines. It can be asked and accepted only while no die has been
//! rolled and no card drawn since that decision, and only in a casual game; any move made in between makes the
//! request stale. A pending request is stored with the game (offers.rs: a restart keeps it) and told to both players'
//! pages.

use super::change::Change;
use super::{EntryState, GameEntry, Games, Update, UpdateEvent};
use crate::error::{ApiError, ApiResult};
use crate::live::{Live, Step};
use crate::offers::{Offers, Takeback};
use crate::setup::{Mode, Rating};
use crate::tokens::Role;
use crate::view::{GameView, game_view};
use pacw_engine::Side;
use serde::Serialize;
use std::sync::Arc;

/// What a take-back request stands at (`GET …/takeback`, and the SSE `takeback` event to the players).
#[derive(Serialize, Debug)]
pub struct TakebackView {
    /// The request waiting for an answer, if any.
    pub pending: Option<Takeback>,
    /// What became of the last one: `asked`, `accepted`, `declined` or `none`.
    pub state: &'static str,
    /// Whether this game takes anything back (a rated one does not).
    pub allowed: bool,
}

/// How many decisions taking back `side`'s last one removes, if no die or card came after it.
pub fn plan(steps: &[Step], side: Side) -> Option<usize> {
    for (i, step) in steps.iter().enumerate().rev() {
        if step.chance {
            return None;
        }
        if step.side == side {
            return Some(steps.len() - i);
        }
    }
    None
}

impl Games {
    fn takeback_side(entry: &GameEntry, role: Role) -> ApiResult<Side> {
        match role {
            Role::Side(side) if entry.mode == Mode::TwoPlayers && entry.rating == Rating::Casual => Ok(side),
            Role::Side(_) if entry.mode == Mode::TwoPlayers => {
                Err(ApiError::Forbidden("a rated game takes nothing back".into()))
            }
            _ => Err(ApiError::Forbidden(
                "a take-back is asked of the other player of a two-player game (elsewhere, Undo takes back your own)"
                    .into(),
            )),
        }
    }

    /// The pending request, if it still stands (no move since it was asked).
    fn pending(st: &EntryState) -> Option<Takeback> {
        let decisions = st.live.as_ref().map(Live::decisions);
        st.offers.takeback.filter(|t| Some(t.at) == decisions)
    }

    fn tell_takeback(&self, entry: &GameEntry, st: &EntryState, state: &'static str) {
        let view = TakebackView { pending: Self::pending(st), state, allowed: true };
        let revision = st.live.as_ref().map_or(0, |l| l.revision);
        if let Ok(json) = serde_json::to_string(&view) {
            let _ = entry.tx.send(Update { revision, json: json.into(), event: UpdateEvent::Takeback });
        }
    }

    /// Where a take-back request stands, for a player (of a rated game: that none is allowed).
    ///
    /// # Errors
    /// When the link is not a player's of a two-player game (403), or the game cannot be loaded (500).
    pub fn takeback(&self, entry: &GameEntry, role: Role) -> ApiResult<TakebackView> {
        if matches!(role, Role::Side(_)) && entry.mode == Mode::TwoPlayers && entry.rating == Rating::Rated {
            return Ok(TakebackView { pending: None, state: "none", allowed: false });
        }
        Self::takeback_side(entry, role)?;
        let mut st = entry.lock();
        self.loaded(&entry.id, &mut st)?;
        let pending = Self::pending(&st);
        Ok(TakebackView { pending, state: if pending.is_some() { "asked" } else { "none" }, allowed: true })
    }

    /// A player asks to take back their last decision.
    ///
    /// # Errors
    /// When the link is not a player's of a casual two-player game, or its seat's account is disabled (403), the game
    /// is over, or a die was rolled or a card drawn since the player's last decision, or they have made none (409),
    /// or the game cannot be loaded (500).
    pub fn ask_takeback(&self, entry: &GameEntry, role: Role) -> ApiResult<TakebackView> {
        let side = Self::takeback_side(entry, role)?;
        let mut st = entry.lock();
        self.check_enabled(&st, role)?;
        let live = self.loaded(&entry.id, &mut st)?;
        if live.game.battle().result().is_some() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        let remove = plan(&live.steps, side).ok_or_else(|| {
            ApiError::Conflict(
                "there is nothing of yours to take back: a die was rolled or a card drawn after your last decision"
                    .into(),
            )
        })?;
        let asked = Takeback { by: side, remove, at: live.decisions() };
        let offers = Offers { takeback: Some(asked), ..st.offers };
        self.set_offers(entry, &mut st, offers)?;
        self.tell_takeback(entry, &st, "asked");
        Ok(TakebackView { pending: Some(asked), state: "asked", allowed: true })
    }

    /// The other player accepts (the decisions are taken back, as an undo) or declines the request.
    ///
    /// # Errors
    /// When the link is not a player's of a casual two-player game, its seat's account is disabled, or it asked
    /// itself (403), no request stands (409: none, or a move was made since), or the game cannot be loaded or the
    /// undo stored (500).
    pub fn answer_takeback(self: &Arc<Self>, entry: &Arc<GameEntry>, role: Role, accept: bool) -> ApiResult<GameView> {
        let side = Self::takeback_side(entry, role)?;
        let mut st = entry.lock();
        self.check_enabled(&st, role)?;
        self.loaded(&entry.id, &mut st)?;
        let Some(asked) = Self::pending(&st) else {
            return Err(ApiError::Conflict("no take-back is waiting (or a move was made since it was asked)".into()));
        };
        if asked.by == side {
            return Err(ApiError::Forbidden("you asked for this take-back: the other player answers it".into()));
        }
        if !accept {
            let offers = Offers { takeback: None, ..st.offers };
            self.set_offers(entry, &mut st, offers)?;
        } else {
            // The undo is a change, and every change ends the request (change.rs).
            let live = self.loaded(&entry.id, &mut st)?;
            let keep = live.decisions() - asked.remove;
            let mut next = Live {
                game: live.game.undo(asked.remove),
                start_len: live.start_len,
                steps: live.steps.clone(),
                revision: live.revision + 1,
            };
            next.steps.truncate(keep);
            let log_len = next.game.log().len();
            self.commit(entry, &mut st, next, Change::Undo { removed: asked.remove }, log_len)?;
        }
        self.tell_takeback(entry, &st, if accept { "accepted" } else { "declined" });
        let live = self.loaded(&entry.id, &mut st)?;
        Ok(game_view(&entry.ctx(role), live, 0, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(side: Side, chance: bool) -> Step {
        Step { side, log_end: 0, chance }
    }

    #[test]
    fn a_take_back_reaches_the_asker_s_last_decision_unless_chance_came_after_it() {
        let (a, b) = (Side::A, Side::B);
        assert_eq!(plan(&[step(a, false), step(b, false)], a), Some(2), "with the other's decision after it");
        assert_eq!(plan(&[step(a, false), step(b, false)], b), Some(1));
        assert_eq!(plan(&[step(a, false), step(b, true)], a), None, "a die or a card came after it");
        assert_eq!(plan(&[step(a, true), step(b, false)], a), None);
        assert_eq!(plan(&[step(b, false)], a), None, "nothing of the asker's");
    }
}
