//! Where each player of a two-player game wants to be told that it is their move, and the telling: once, when the
//! move passes to them (also the first move, at creation), unless they have the game open (notify.rs sends it, in
//! the background).

use super::{GameEntry, Games, link};
use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::notify::{Contact, Notice};
use crate::setup::{Mode, PlayerKind};
use crate::tokens::Role;
use pacw_engine::{Side, ToAct};
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;

/// `PUT /api/play/{token}/notify`: where to be told (a blank or missing field: not there).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct ContactRequest {
    /// An e-mail address.
    pub email: Option<String>,
    /// A webhook URL.
    pub webhook: Option<String>,
}

/// Where this player is told it is their move, and whether e-mail can be sent at all.
#[derive(Serialize, Debug)]
pub struct ContactView {
    /// Where they are told.
    #[serde(flatten)]
    pub contact: Contact,
    /// Whether the server can send e-mail (its operator gave `--smtp`); without it only a webhook works.
    pub email_possible: bool,
}

impl Games {
    /// The side whose player this token is, in a two-player game: the only players told of their move.
    fn told_side(entry: &GameEntry, role: Role) -> ApiResult<Side> {
        match role {
            Role::Side(side) if entry.mode == Mode::TwoPlayers => Ok(side),
            _ => Err(ApiError::Forbidden(
                "only a player of a two-player game (a link for one side) is told of their move".into(),
            )),
        }
    }

    /// Where this token's player is told it is their move.
    ///
    /// # Errors
    /// When the token is not a player's of a two-player game (403), or the contact cannot be read (500).
    pub fn contact(&self, entry: &GameEntry, role: Role) -> ApiResult<ContactView> {
        let side = Self::told_side(entry, role)?;
        let stored =
            self.store.load_contact(&entry.id, side_key(side)).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(ContactView {
            contact: stored.map(|(c, _)| c).unwrap_or_default(),
            email_possible: self.notifier.has_smtp(),
        })
    }

    /// Sets where this token's player is told it is their move; the link in the message is on the server's public
    /// origin (`--public-origin`), else on `origin`, the address the player reached it at.
    ///
    /// # Errors
    /// When the token is not a player's of a two-player game (403), the e-mail address or the webhook is not right, or
    /// an e-mail address is given to a server that sends none (400), or the contact cannot be stored (500).
    pub fn set_contact(
        &self,
        entry: &GameEntry,
        role: Role,
        token: &str,
        req: ContactRequest,
        origin: &str,
    ) -> ApiResult<ContactView> {
        let side = Self::told_side(entry, role)?;
        let contact = Contact::new(req.email.as_deref(), req.webhook.as_deref()).map_err(ApiError::BadRequest)?;
        if contact.email.is_some() && !self.notifier.has_smtp() {
            return Err(ApiError::BadRequest(
                "this server sends no e-mail (its operator has not given pacw serve --smtp); give a webhook".into(),
            ));
        }
        let origin = self.config.public_origin.as_deref().unwrap_or(origin);
        let url = format!("{}{}", origin.trim_end_matches('/'), link(token));
        let mut st = entry.lock();
        self.store
            .save_contact(&entry.id, side_key(side), &contact, &url)
            .map_err(|e| ApiError::Internal(format!("could not be stored: {e}")))?;
        self.tell_owed(entry, &mut st, side);
        drop(st);
        Ok(ContactView { contact, email_possible: self.notifier.has_smtp() })
    }

    /// A move that passed to `side`'s player while there was nowhere to tell them (the first, at creation) is told
    /// now that there is, once: called when a place to tell them is given (by the player, or by their account's
    /// defaults when a seat becomes theirs).
    pub(super) fn tell_owed(&self, entry: &GameEntry, st: &mut super::EntryState, side: Side) {
        if std::mem::take(&mut st.owed[side.index()])
            && let Some(live) = &st.live
            && live.game.battle().to_act() == ToAct::Side(side)
        {
            let told = self.tell(entry, live, side);
            st.owed[side.index()] = told == Told::Nowhere;
        }
    }

    /// The move has passed to `next` (by a decision of the other side, or at the game's creation): in a two-player
    /// game its person is told where they asked, once, unless they have the game open (an event stream through their
    /// link: they see the move live, and a message would be noise). With nowhere to tell them yet, the notice is
    /// owed until they give a place ([`Games::set_contact`]). Called once for each passing, so a move is told once.
    pub(super) fn move_passed(&self, entry: &GameEntry, st: &mut super::EntryState, next: Side) {
        let Some(live) = &st.live else { return };
        if entry.mode != Mode::TwoPlayers
            || entry.players[next.index()] != PlayerKind::Human
            || live.game.battle().to_act() != ToAct::Side(next)
        {
            return;
        }
        let told = self.tell(entry, live, next);
        st.owed[next.index()] = told == Told::Nowhere;
    }

    /// The game `side`'s person was waiting for (their posting joined, their request to the match maker paired) has
    /// begun at the other side's move: they are told who plays them, once, where their account says. At their own
    /// move they need not be: the first move's notice tells them of the game.
    pub(super) fn opponent_found(&self, entry: &GameEntry, side: Side, opponent: &str) {
        let st = entry.lock();
        let Some(live) = &st.live else { return };
        let b = live.game.battle();
        if b.to_act() == ToAct::Side(side) {
            return;
        }
        let (title, side_name) = (&b.scenario().name, &b.scenario().side(side).name);
        self.send_notice(entry, side, |url| Notice {
            subject: format!("pacw: {opponent} plays you in {title}"),
            text: format!(
                "{opponent} plays you in {title}: you have {side_name}, and it is their move. You will be told when it \
                 is yours: {url}"
            ),
            link: url,
        });
    }

    /// Tells `side`'s person that it is their move, unless they have the game open.
    fn tell(&self, entry: &GameEntry, live: &Live, side: Side) -> Told {
        let b = live.game.battle();
        let (title, side_name) = (&b.scenario().name, &b.scenario().side(side).name);
        self.send_notice(entry, side, |url| Notice {
            subject: format!("pacw: your move in {title}"),
            text: format!("It is your move ({side_name}) in {title}, turn {} of {}: {url}", b.turn(), b.turn_limit()),
            link: url,
        })
    }

    /// Sends `side`'s person the notice `make` writes with their link, where they asked to be told, unless they have
    /// the game open: the one way a player is told anything (their move, a deadline near or passed).
    pub(super) fn send_notice(&self, entry: &GameEntry, side: Side, make: impl FnOnce(String) -> Notice) -> Told {
        if entry.side_streams[side.index()].load(Ordering::SeqCst) > 0 {
            return Told::Watching;
        }
        let stored = match self.store.load_contact(&entry.id, side_key(side)) {
            Ok(Some(stored)) => stored,
            Ok(None) => return Told::Nowhere,
            Err(e) => {
                eprintln!("pacw server: game {}: where to tell the player could not be read: {e}", entry.id);
                return Told::Nowhere;
            }
        };
        let (contact, url) = stored;
        self.notifier.send(&self.runtime, &contact, make(url));
        Told::Sent
    }
}

/// What became of a notice due.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Told {
    /// Sent where the player asked.
    Sent,
    /// Not sent: the player has the game open.
    Watching,
    /// Not sent: the player has given nowhere to tell them (yet).
    Nowhere,
}

fn side_key(side: Side) -> &'static str {
    match side {
        Side::A => "A",
        Side::B => "B",
    }
}
