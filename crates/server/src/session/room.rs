//! The waiting room: an account posts a game it wants to play (battle, side, rules, pace, rated or not, public or
//! private), others see the public ones and join one; joining makes the two-player game, each seat held by its
//! account. A private posting is not listed: its id is the invitation, sent by its poster to their opponent.

use super::{CreateGame, Games, OptionsInput, link, shipped};
use crate::error::{ApiError, ApiResult};
use crate::setup::{AccountId, Mode, Pace, Rating, Seat};
use crate::store::{AccountRecord, PostingRecord, now_ms};
use crate::tokens::{new_seed, new_token};
use pacw_engine::{Scenario, Side};
use pacw_play::game_rules::GameRules;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most open postings an account may have at once.
pub const POSTINGS_PER_ACCOUNT: usize = 10;

/// The most rule options a posting may set.
pub const MAX_POSTED_OPTIONS: usize = 64;

/// The side the poster plays.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize, Default)]
pub enum SideChoice {
    /// The first side.
    A,
    /// The second side.
    B,
    /// Drawn when someone joins.
    #[default]
    #[serde(rename = "random")]
    Random,
}

/// Who sees a posting.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Listed in the waiting room.
    #[default]
    Public,
    /// Not listed: joined only through its invitation link.
    Private,
}

/// `POST /api/room`: the game an account wants to play.
#[derive(Deserialize, Serialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Posting {
    /// A shipped battle's name.
    pub scenario: String,
    /// A shipped variant's name (the standard rules without one).
    pub variant: Option<String>,
    /// Rule options, as for a new game.
    #[serde(default, skip_serializing_if = "OptionsInput::is_none")]
    pub options: OptionsInput,
    /// The poster's side: `A`, `B` or `random`.
    #[serde(default)]
    pub side: SideChoice,
    /// `live` (the default), `1d`, `3d` or `7d`: days for each move ([`Pace`]).
    #[serde(default)]
    pub pace: Pace,
    /// `rated` or `casual`.
    #[serde(default)]
    pub rating: Rating,
    /// `public` or `private`.
    #[serde(default)]
    pub visibility: Visibility,
}

/// The reply to a posting: its id and the invitation's path.
#[derive(Serialize, Debug)]
pub struct Posted {
    /// The posting's id.
    pub id: String,
    /// The invitation's path (`/room/{id}`): send it to an opponent.
    pub invite: String,
}

/// A posting as the room shows it.
#[derive(Serialize, Debug)]
pub struct PostingView {
    /// Its id.
    pub id: String,
    /// Who posted it.
    pub by: String,
    /// The battle's short name and title.
    pub scenario: String,
    /// The battle's title.
    pub title: String,
    /// The variant, if any.
    pub variant: Option<String>,
    /// The poster's side: `A`, `B` or `random`, and the side's name when chosen.
    pub side: SideChoice,
    /// The side's name, when it is chosen.
    pub side_name: Option<String>,
    /// The pace.
    pub pace: Pace,
    /// Rated or casual.
    pub rating: Rating,
    /// Public or private.
    pub visibility: Visibility,
    /// When it was posted (ms since 1970).
    pub created_at: i64,
    /// Whether the viewer posted it.
    pub yours: bool,
    /// Whether someone has joined it.
    pub joined: bool,
    /// Once joined, the viewer's link to the game, if they play in it.
    pub link: Option<String>,
}

/// The reply to joining: the game and the joiner's link.
#[derive(Serialize, Debug)]
pub struct Joined {
    /// The game's id.
    pub id: String,
    /// The joiner's side.
    pub side: Side,
    /// The joiner's link.
    pub link: String,
}

impl OptionsInput {
    fn is_none(&self) -> bool {
        matches!(self, OptionsInput::None)
    }

    fn len(&self) -> usize {
        match self {
            OptionsInput::None => 0,
            OptionsInput::Pairs(v) => v.len(),
            OptionsInput::Object(m) => m.len(),
        }
    }
}

impl Games {
    /// Posts a game in the waiting room.
    ///
    /// # Errors
    /// When the account has [`POSTINGS_PER_ACCOUNT`] open postings (429), too many options are given (400), no
    /// shipped battle or variant has the name (404), an option is refused (422), or it cannot be stored (500).
    pub fn post(&self, account: &AccountRecord, posting: Posting) -> ApiResult<Posted> {
        let open = self.store.open_postings().map_err(|e| ApiError::Internal(e.to_string()))?;
        if open.iter().filter(|p| p.account == account.id).count() >= POSTINGS_PER_ACCOUNT {
            return Err(ApiError::TooMany(
                format!("you have {POSTINGS_PER_ACCOUNT} games waiting already: withdraw one first"),
                60,
            ));
        }
        check_posting(&posting)?;
        let record = PostingRecord {
            id: new_token(),
            account: account.id,
            created_at: now_ms(),
            setup: serde_json::to_string(&posting).map_err(|e| ApiError::Internal(e.to_string()))?,
            game_id: None,
        };
        self.store.insert_posting(&record).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(Posted { invite: format!("/room/{}", record.id), id: record.id })
    }

    /// The public postings nobody has joined yet, and the viewer's own.
    ///
    /// # Errors
    /// When SQLite fails (500).
    pub fn room(&self, viewer: Option<&AccountRecord>) -> ApiResult<Vec<PostingView>> {
        let open = self.store.open_postings().map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(open
            .into_iter()
            .filter_map(|p| self.posting_view(&p, viewer))
            .filter(|v| v.visibility == Visibility::Public || v.yours)
            .collect())
    }

    /// One posting, by its id (the invitation), for anyone who has it.
    ///
    /// # Errors
    /// When there is no such posting (404), or SQLite fails (500).
    pub fn posting(&self, id: &str, viewer: Option<&AccountRecord>) -> ApiResult<PostingView> {
        let record = self.posting_record(id)?;
        self.posting_view(&record, viewer).ok_or_else(no_posting)
    }

    fn posting_record(&self, id: &str) -> ApiResult<PostingRecord> {
        if !crate::tokens::looks_like_token(id) {
            return Err(no_posting());
        }
        self.store.posting(id).map_err(|e| ApiError::Internal(e.to_string()))?.ok_or_else(no_posting)
    }

    fn posting_view(&self, p: &PostingRecord, viewer: Option<&AccountRecord>) -> Option<PostingView> {
        let posting: Posting = serde_json::from_str(&p.setup).ok()?;
        let by = self.store.account(p.account).ok().flatten()?;
        let shipped = shipped(&posting.scenario)?;
        let scenario = Scenario::parse(shipped.text, shipped.file).ok()?;
        let side_name = match posting.side {
            SideChoice::A => Some(scenario.side(Side::A).name.clone()),
            SideChoice::B => Some(scenario.side(Side::B).name.clone()),
            SideChoice::Random => None,
        };
        let viewer_id = viewer.map(|v| v.id);
        let link = p.game_id.as_deref().and_then(|g| viewer_id.and_then(|v| self.link_of(g, v)));
        Some(PostingView {
            id: p.id.clone(),
            by: by.name,
            scenario: shipped.name.to_string(),
            title: scenario.name.clone(),
            variant: posting.variant,
            side: posting.side,
            side_name,
            pace: posting.pace,
            rating: posting.rating,
            visibility: posting.visibility,
            created_at: p.created_at,
            yours: viewer_id == Some(p.account),
            joined: p.game_id.is_some(),
            link,
        })
    }

    /// The link of `account`'s seat in game `id`, if it holds one.
    pub(super) fn link_of(&self, id: &str, account: AccountId) -> Option<String> {
        let entry = self.by_id.read().unwrap_or_else(|p| p.into_inner()).get(id).cloned()?;
        let st = entry.lock();
        st.seats.iter().find_map(|s| match s {
            Seat::Account { account: a, token } if *a == account => Some(link(token)),
            _ => None,
        })
    }

    /// Joins a posting: the two-player game is made, each seat the account's that holds it, and the joiner's link
    /// returned. The poster finds theirs on the posting, on their page, and by their notices.
    ///
    /// # Errors
    /// When there is no such posting (404), the joiner posted it (403), someone joined it first (409), or the game
    /// cannot be made (as [`Games::create`]).
    pub fn join(self: &Arc<Self>, account: &AccountRecord, id: &str, client: &str, origin: &str) -> ApiResult<Joined> {
        let _one_at_a_time = self.room_lock.lock().unwrap_or_else(|p| p.into_inner());
        let record = self.posting_record(id)?;
        if record.account == account.id {
            return Err(ApiError::Forbidden("this is your own posting: send its invitation to your opponent".into()));
        }
        if record.game_id.is_some() {
            return Err(ApiError::Conflict("someone has joined this game already".into()));
        }
        let poster = self.account_record(record.account)?;
        if poster.disabled {
            return Err(ApiError::NotFound("this posting's account is disabled".into()));
        }
        let posting: Posting = serde_json::from_str(&record.setup)
            .map_err(|e| ApiError::Internal(format!("the posting cannot be read: {e}")))?;
        let poster_side = match posting.side {
            SideChoice::A => Side::A,
            SideChoice::B => Side::B,
            SideChoice::Random => Side::BOTH[(new_seed() & 1) as usize],
        };
        let req = two_players(posting.scenario, posting.variant, posting.options, posting.pace, posting.rating);
        let (game_id, mine) = self.start_between(req, (&poster, poster_side), account, client, origin)?;
        self.store.join_posting(id, &game_id).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(Joined { id: game_id, side: poster_side.other(), link: link(&mine) })
    }

    /// Makes the two-player game of `req` between `first`, on the side given, and `second` on the other, each seat
    /// the account's and each told of their moves where their account says, `first` (who was waiting) told of the game
    /// at once; the game's id and `second`'s token.
    ///
    /// # Errors
    /// When the game cannot be made (as [`Games::create`]).
    pub(super) fn start_between(
        self: &Arc<Self>,
        req: CreateGame,
        (first, first_side): (&AccountRecord, Side),
        second: &AccountRecord,
        client: &str,
        origin: &str,
    ) -> ApiResult<(String, String)> {
        let mut owners = [None, None];
        owners[first_side.index()] = Some(first.id);
        owners[first_side.other().index()] = Some(second.id);
        let (created, entry) = self.create_seated(req, client, owners)?;
        let side = first_side.other();
        let token_of = |s: Side| if s == Side::A { created.tokens.a.clone() } else { created.tokens.b.clone() };
        let (Some(mine), Some(theirs)) = (token_of(side), token_of(first_side)) else {
            return Err(ApiError::Internal("a two-player game without a side's token".into()));
        };
        self.give_default_contact(&entry, side, second, &mine, origin);
        self.give_default_contact(&entry, first_side, first, &theirs, origin);
        self.opponent_found(&entry, first_side, &second.name);
        Ok((created.id, mine))
    }

    /// Withdraws an open posting of the account.
    ///
    /// # Errors
    /// When it has no such open posting (404), or SQLite fails (500).
    pub fn withdraw(&self, account: &AccountRecord, id: &str) -> ApiResult<()> {
        let _one_at_a_time = self.room_lock.lock().unwrap_or_else(|p| p.into_inner());
        if self.store.delete_posting(id, account.id).map_err(|e| ApiError::Internal(e.to_string()))? {
            Ok(())
        } else {
            Err(ApiError::NotFound("you have no open posting with this id".into()))
        }
    }
}

/// A new two-player game of a shipped battle, as the room makes them.
pub(super) fn two_players(
    scenario: String,
    variant: Option<String>,
    options: OptionsInput,
    pace: Pace,
    rating: Rating,
) -> CreateGame {
    CreateGame {
        scenario: Some(scenario),
        scenario_text: None,
        scenario_file: None,
        options,
        variant,
        variant_text: None,
        variant_file: None,
        rules: None,
        mode: Mode::TwoPlayers,
        human_side: None,
        computer: None,
        computer_b: None,
        save: None,
        rating,
        pace,
    }
}

fn no_posting() -> ApiError {
    ApiError::NotFound("no game is waiting with this id: it may have been withdrawn; check the link".into())
}

/// Checks a posting as a new game would be checked: the battle, the variant and every option.
fn check_posting(p: &Posting) -> ApiResult<()> {
    if p.options.len() > MAX_POSTED_OPTIONS {
        return Err(ApiError::BadRequest(format!("at most {MAX_POSTED_OPTIONS} rule options")));
    }
    let s = shipped(&p.scenario)
        .ok_or_else(|| ApiError::NotFound(format!("no shipped scenario '{}' (see GET /api/scenarios)", p.scenario)))?;
    let scenario = GameRules::asked(p.variant.as_deref(), None, None)?.scenario(s.text, s.file)?;
    let mut options = scenario.options;
    for (k, v) in p.options.pairs()? {
        scenario.set_option(&mut options, &k, &v).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    }
    Ok(())
}
