//! The match maker's seeks (schema 11): an account's request for any opponent, one an account, kept until it is
//! paired (then with its game) or withdrawn. Only storage: what a request holds and what pairs two of them are the
//! session layer's (session/matcher.rs).

use super::{Store, StoreError};
use crate::setup::AccountId;
use rusqlite::{OptionalExtension, params};

/// An account's seek.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekRecord {
    /// Whose.
    pub account: AccountId,
    /// When it was made (ms since 1970).
    pub created_at: i64,
    /// What was asked for (the session layer's JSON).
    pub request: String,
    /// The game it was paired into, once paired.
    pub game_id: Option<String>,
}

fn seek_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<SeekRecord> {
    Ok(SeekRecord { account: AccountId(r.get(0)?), created_at: r.get(1)?, request: r.get(2)?, game_id: r.get(3)? })
}

impl Store {
    /// Every seek not paired yet, the oldest first.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn open_seeks(&self) -> Result<Vec<SeekRecord>, StoreError> {
        self.with(|c| {
            c.prepare(
                "SELECT account, created_at, request, game_id FROM seeks WHERE game_id IS NULL
                 ORDER BY created_at, account",
            )?
            .query_map([], seek_row)?
            .collect()
        })
    }

    /// The seek of `account`, open or paired, if it has one.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn seek_of(&self, account: AccountId) -> Result<Option<SeekRecord>, StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT account, created_at, request, game_id FROM seeks WHERE account = ?1",
                [account.0],
                seek_row,
            )
            .optional()
        })
    }

    /// Stores a seek, in place of the account's earlier one.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn put_seek(&self, seek: &SeekRecord) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT OR REPLACE INTO seeks (account, created_at, request, game_id) VALUES (?1, ?2, ?3, ?4)",
                params![seek.account.0, seek.created_at, seek.request, seek.game_id],
            )
            .map(|_| ())
        })
    }

    /// Withdraws the open seek of `account`; whether there was one.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn delete_seek(&self, account: AccountId) -> Result<bool, StoreError> {
        self.with(|c| {
            c.execute("DELETE FROM seeks WHERE account = ?1 AND game_id IS NULL", [account.0]).map(|n| n == 1)
        })
    }
}
