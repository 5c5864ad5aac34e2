//! A draw by agreement in a two-player game: a player offers, the other accepts (the game ends as a draw through the
//! one ending hook, change.rs, rated as a draw) or declines. An offer stands until it is answered, or until its side
//! makes a decision (change.rs lets it lapse then: a player who plays on has not waited for an answer) or decisions
//! are taken back. It is stored with the game (offers.rs: a restart keeps it) and told to both players' pages (SSE
//! `draw`).

use super::change::Change;
use super::{EntryState, GameEntry, Games, Update, UpdateEvent};
use crate::error::{ApiError, ApiResult};
use crate::offers::{DrawOffer, Offers};
use crate::setup::Mode;
use crate::tokens::Role;
use crate::view::{GameView, game_view};
use pacw_engine::{Declared, Side};
use serde::Serialize;
use std::sync::Arc;

/// Where a draw offer stands (`GET …/draw`, and the SSE `draw` event to the players).
#[derive(Serialize, Debug)]
pub struct DrawView {
    /// The offer waiting for an answer, if any.
    pub pending: Option<DrawOffer>,
    /// What became of the last one: `offered`, `accepted`, `declined` or `none`.
    pub state: &'static str,
}

impl Games {
    fn draw_side(entry: &GameEntry, role: Role) -> ApiResult<Side> {
        match role {
            Role::Side(side) if entry.mode == Mode::TwoPlayers => Ok(side),
            Role::Spectator => Err(ApiError::Forbidden("this is a spectator's link: it can only watch".into())),
            _ => Err(ApiError::Forbidden(
                "a draw is offered to the other player of a two-player game (a link for one side)".into(),
            )),
        }
    }

    fn tell_draw(&self, entry: &GameEntry, st: &EntryState, state: &'static str) {
        let view = DrawView { pending: st.offers.draw, state };
        let revision = st.live.as_ref().map_or(0, |l| l.revision);
        if let Ok(json) = serde_json::to_string(&view) {
            let _ = entry.tx.send(Update { revision, json: json.into(), event: UpdateEvent::Draw });
        }
    }

    /// Where a draw offer stands, for a player.
    ///
    /// # Errors
    /// When the link is not a player's of a two-player game (403).
    pub fn draw(&self, entry: &GameEntry, role: Role) -> ApiResult<DrawView> {
        Self::draw_side(entry, role)?;
        let st = entry.lock();
        let pending = st.offers.draw;
        Ok(DrawView { pending, state: if pending.is_some() { "offered" } else { "none" } })
    }

    /// A player offers a draw to the other (offering again while one's own offer stands changes nothing).
    ///
    /// # Errors
    /// When the link is not a player's of a two-player game, or its seat's account is disabled (403); the game is
    /// over, or the other player has offered a draw already (409: answer theirs); or the game cannot be loaded (500).
    pub fn offer_draw(&self, entry: &GameEntry, role: Role) -> ApiResult<DrawView> {
        let side = Self::draw_side(entry, role)?;
        let mut st = entry.lock();
        self.check_enabled(&st, role)?;
        let live = self.loaded(&entry.id, &mut st)?;
        if live.game.battle().result().is_some() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        if st.offers.draw.is_some_and(|o| o.by != side) {
            return Err(ApiError::Conflict("the other player has offered a draw already: accept or decline it".into()));
        }
        let offers = Offers { draw: Some(DrawOffer { by: side }), ..st.offers };
        self.set_offers(entry, &mut st, offers)?;
        self.tell_draw(entry, &st, "offered");
        Ok(DrawView { pending: st.offers.draw, state: "offered" })
    }

    /// The other player accepts the offer (the game ends as a draw agreed) or declines it.
    ///
    /// # Errors
    /// When the link is not a player's of a two-player game, its seat's account is disabled, or it made the offer
    /// itself (403); no offer stands (409: none, or its side has moved since); or the game cannot be loaded or the
    /// draw stored (500).
    pub fn answer_draw(self: &Arc<Self>, entry: &Arc<GameEntry>, role: Role, accept: bool) -> ApiResult<GameView> {
        let side = Self::draw_side(entry, role)?;
        let mut st = entry.lock();
        self.check_enabled(&st, role)?;
        let live = self.loaded(&entry.id, &mut st)?;
        let over = live.game.battle().result().is_some();
        let Some(offer) = st.offers.draw.filter(|_| !over) else {
            return Err(ApiError::Conflict("no draw is offered (or its side has moved since offering it)".into()));
        };
        if offer.by == side {
            return Err(ApiError::Forbidden("you offered this draw: the other player answers it".into()));
        }
        if accept {
            // The draw ends the game, and the offer with it (change.rs).
            let live = self.loaded(&entry.id, &mut st)?;
            let mut next = live.clone();
            next.game.conclude(Declared::DrawAgreed)?;
            next.revision += 1;
            let before_len = live.game.log().len();
            self.commit(entry, &mut st, next, Change::DrawAgreed, before_len)?;
        } else {
            let offers = Offers { draw: None, ..st.offers };
            self.set_offers(entry, &mut st, offers)?;
        }
        self.tell_draw(entry, &st, if accept { "accepted" } else { "declined" });
        let live = self.loaded(&entry.id, &mut st)?;
        Ok(game_view(&entry.ctx(role), live, 0, None))
    }
}
