//! The match maker: an account asks for any opponent (a battle's size, a pace, rated or not) instead of posting one
//! battle, and is paired with the oldest waiting request of another account that fits: the same pace and rating,
//! and the same size or one of them any. The two-player game is made at once, of a shipped battle of that size drawn
//! at random, the sides drawn too; the one who was waiting finds it on the room's page and by their notices. A
//! request is stored (schema 11) until it is paired or withdrawn, one an account.

use super::room::two_players;
use super::{Games, OptionsInput, link};
use crate::error::{ApiError, ApiResult};
use crate::setup::{Pace, Rating};
use crate::store::{AccountRecord, SeekRecord, now_ms};
use crate::tokens::new_seed;
use pacw_engine::{Scenario, Side};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The size of a battle, by its units.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleSize {
    /// Up to 14 units: a game of an evening.
    Small,
    /// 15 units or more, on a normal map.
    Medium,
    /// The grand battle (over 40 units).
    Grand,
    /// Whichever.
    #[default]
    Any,
}

impl BattleSize {
    /// The size of a battle of `units` units.
    pub fn of(units: usize) -> BattleSize {
        match units {
            0..=14 => BattleSize::Small,
            15..=40 => BattleSize::Medium,
            _ => BattleSize::Grand,
        }
    }

    /// The size two requests agree on, if they do: the same, or the one that says when the other says any.
    fn with(self, other: BattleSize) -> Option<BattleSize> {
        match (self, other) {
            (BattleSize::Any, size) | (size, BattleSize::Any) => Some(size),
            (a, b) if a == b => Some(a),
            _ => None,
        }
    }

    /// Whether a battle of this size fits a request of `self`.
    fn admits(self, size: BattleSize) -> bool {
        self == BattleSize::Any || self == size
    }
}

/// `POST /api/room/seek`: any opponent for a game of this kind.
#[derive(Deserialize, Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Seek {
    /// `small`, `medium`, `grand` or `any` (the default).
    #[serde(default)]
    pub size: BattleSize,
    /// `live` (the default), `1d`, `3d` or `7d`.
    #[serde(default)]
    pub pace: Pace,
    /// `rated` or `casual` (the default).
    #[serde(default)]
    pub rating: Rating,
}

/// Where an account's request stands.
#[derive(Serialize, Debug)]
pub struct SeekView {
    /// `none`, `waiting` or `paired`.
    pub state: &'static str,
    /// What was asked for.
    pub seek: Option<Seek>,
    /// Once paired: the account's link to the game.
    pub link: Option<String>,
    /// How many other accounts are waiting for an opponent now.
    pub others_waiting: usize,
}

impl Games {
    fn open_seeks(&self) -> ApiResult<Vec<(SeekRecord, Seek)>> {
        let open = self.store.open_seeks().map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(open.into_iter().filter_map(|r| serde_json::from_str(&r.request).ok().map(|s| (r, s))).collect())
    }

    /// Where `account`'s request stands.
    ///
    /// # Errors
    /// When SQLite fails (500).
    pub fn my_seek(&self, account: &AccountRecord) -> ApiResult<SeekView> {
        let others_waiting = self.open_seeks()?.iter().filter(|(r, _)| r.account != account.id).count();
        let record = self.store.seek_of(account.id).map_err(|e| ApiError::Internal(e.to_string()))?;
        let seek = record.as_ref().and_then(|r| serde_json::from_str(&r.request).ok());
        let paired = record.as_ref().and_then(|r| r.game_id.as_deref());
        Ok(SeekView {
            state: match (&record, paired) {
                (None, _) => "none",
                (Some(_), None) => "waiting",
                (Some(_), Some(_)) => "paired",
            },
            seek,
            link: paired.and_then(|id| self.link_of(id, account.id)),
            others_waiting,
        })
    }

    /// Asks for any opponent: paired at once with the oldest fitting request of another account (the game is made,
    /// and the reply holds the link), else left waiting.
    ///
    /// # Errors
    /// When the account is waiting already (409), the game cannot be made (as [`Games::create`]), or SQLite fails
    /// (500).
    pub fn seek(
        self: &Arc<Self>,
        account: &AccountRecord,
        seek: Seek,
        client: &str,
        origin: &str,
    ) -> ApiResult<SeekView> {
        let _one_at_a_time = self.room_lock.lock().unwrap_or_else(|p| p.into_inner());
        let open = self.open_seeks()?;
        if open.iter().any(|(r, _)| r.account == account.id) {
            return Err(ApiError::Conflict(
                "you are looking for an opponent already: withdraw that request first".into(),
            ));
        }
        let request = serde_json::to_string(&seek).map_err(|e| ApiError::Internal(e.to_string()))?;
        // The oldest that fits, of an account that may still play.
        let fitting = open.into_iter().find_map(|(r, other)| {
            let size = seek.size.with(other.size)?;
            let fits = other.pace == seek.pace && other.rating == seek.rating;
            let opponent = self.account_record(r.account).ok().filter(|o| fits && !o.disabled)?;
            Some((opponent, r, size))
        });
        let Some((opponent, mut theirs, size)) = fitting else {
            let record = SeekRecord { account: account.id, created_at: now_ms(), request, game_id: None };
            self.store.put_seek(&record).map_err(|e| ApiError::Internal(e.to_string()))?;
            return self.my_seek(account);
        };
        let battles: Vec<&'static str> = pacw_engine::offered_scenarios()
            .filter(|s| Scenario::parse(s.text, s.file).is_ok_and(|b| size.admits(BattleSize::of(b.units.len()))))
            .map(|s| s.name)
            .collect();
        if battles.is_empty() {
            return Err(ApiError::Internal("no shipped battle is of this size".into()));
        }
        let draw = new_seed();
        let scenario = battles[(draw % battles.len() as u64) as usize].to_string();
        let their_side = Side::BOTH[((draw >> 32) & 1) as usize];
        let req = two_players(scenario, None, OptionsInput::None, seek.pace, seek.rating);
        let (game_id, mine) = self.start_between(req, (&opponent, their_side), account, client, origin)?;
        theirs.game_id = Some(game_id.clone());
        let ours = SeekRecord { account: account.id, created_at: now_ms(), request, game_id: Some(game_id) };
        for record in [&theirs, &ours] {
            self.store.put_seek(record).map_err(|e| ApiError::Internal(e.to_string()))?;
        }
        let mut view = self.my_seek(account)?;
        view.link = Some(link(&mine));
        Ok(view)
    }

    /// Withdraws the account's waiting request.
    ///
    /// # Errors
    /// When it has none waiting (404), or SQLite fails (500).
    pub fn withdraw_seek(&self, account: &AccountRecord) -> ApiResult<()> {
        let _one_at_a_time = self.room_lock.lock().unwrap_or_else(|p| p.into_inner());
        if self.store.delete_seek(account.id).map_err(|e| ApiError::Internal(e.to_string()))? {
            Ok(())
        } else {
            Err(ApiError::NotFound("you are not looking for an opponent".into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_requests_agree_on_a_size_when_equal_or_one_says_any() {
        use BattleSize::*;
        assert_eq!(Small.with(Small), Some(Small));
        assert_eq!(Any.with(Medium), Some(Medium));
        assert_eq!(Grand.with(Any), Some(Grand));
        assert_eq!(Any.with(Any), Some(Any));
        assert_eq!(Small.with(Medium), None);
        assert_eq!((BattleSize::of(12), BattleSize::of(19), BattleSize::of(128)), (Small, Medium, Grand));
        assert!(Any.admits(Grand) && Small.admits(Small) && !Small.admits(Medium));
    }

    #[test]
    fn every_size_has_a_shipped_battle() {
        for size in [BattleSize::Small, BattleSize::Medium, BattleSize::Grand] {
            let n = pacw_engine::offered_scenarios()
                .filter(|s| size.admits(BattleSize::of(Scenario::parse(s.text, s.file).unwrap().units.len())))
                .count();
            assert!(n > 0, "{size:?}");
        }
    }
}
