//! The players' vacations (schema 9): a ledger of periods, each an account, when it started and when it ends (the
//! end asked for, brought forward when the player ends it early). Only storage: the allowance, and what a vacation
//! does to a deadline, are the session layer's (session/vacation.rs).

use super::{Store, StoreError};
use crate::setup::AccountId;
use rusqlite::params;

/// One vacation of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VacationRecord {
    /// Whose.
    pub account: AccountId,
    /// When it started (ms since 1970).
    pub started_at: i64,
    /// When it ends or ended (ms since 1970), after `started_at`.
    pub ends_at: i64,
}

impl Store {
    /// Every vacation in the ledger, by account and then in the order they started.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn vacations(&self) -> Result<Vec<VacationRecord>, StoreError> {
        self.with(|c| {
            c.prepare("SELECT account, started_at, ends_at FROM vacations ORDER BY account, started_at, id")?
                .query_map([], |r| {
                    Ok(VacationRecord { account: AccountId(r.get(0)?), started_at: r.get(1)?, ends_at: r.get(2)? })
                })?
                .collect()
        })
    }

    /// Adds a vacation to the ledger, committed before it returns.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn add_vacation(&self, v: &VacationRecord) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO vacations (account, started_at, ends_at) VALUES (?1, ?2, ?3)",
                params![v.account.0, v.started_at, v.ends_at],
            )
            .map(|_| ())
        })
    }

    /// Ends at `at` the vacation of `account` that started at `started_at` (a player's early return); whether there
    /// was one.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn end_vacation(&self, account: AccountId, started_at: i64, at: i64) -> Result<bool, StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE vacations SET ends_at = ?3 WHERE account = ?1 AND started_at = ?2 AND ends_at > ?3",
                params![account.0, started_at, at],
            )
            .map(|n| n > 0)
        })
    }
}
