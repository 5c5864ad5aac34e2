//! The club's tables (schemas 5, 6 and 8): accounts, their log-in sessions and password resets, the ratings, the
//! waiting room's postings, and the players' chat of each game.
//! Only storage: the rules of each (names, passwords, who may do what) are the session layer's.

use super::{Store, StoreError, now_ms};
use crate::notify::Contact;
use crate::setup::AccountId;
use rusqlite::{OptionalExtension, params};

/// A stored account.
#[derive(Clone, Debug, PartialEq)]
pub struct AccountRecord {
    /// Its number.
    pub id: AccountId,
    /// Its name as its owner wrote it.
    pub name: String,
    /// The argon2id hash of its password (a PHC string).
    pub password: String,
    /// Where its owner is told of their move by default.
    pub contact: Contact,
    /// Disabled by the operator: it cannot log in or act.
    pub disabled: bool,
    /// When it was made (ms since 1970).
    pub created_at: i64,
}

/// A player's Glicko-2 rating with their record.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRating {
    /// `account:ID` or `computer:NAME`.
    pub player: String,
    /// The rating (1500 to start).
    pub rating: f64,
    /// Its deviation (350 to start): how unsure it is.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games won.
    pub wins: u32,
    /// Rated games lost.
    pub losses: u32,
    /// Rated games drawn.
    pub draws: u32,
}

/// A game posted in the waiting room.
#[derive(Clone, Debug, PartialEq)]
pub struct PostingRecord {
    /// Its id (also the invitation's code: 32 hex digits).
    pub id: String,
    /// Who posted it.
    pub account: AccountId,
    /// When (ms since 1970).
    pub created_at: i64,
    /// What was asked for (the session layer's JSON).
    pub setup: String,
    /// The game made when someone joined.
    pub game_id: Option<String>,
}

/// A message of a game's chat.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ChatRecord {
    /// Its number in the game's chat, from 1.
    pub n: i64,
    /// The side whose player wrote it: `A` or `B`.
    pub side: String,
    /// When (ms since 1970).
    pub at: i64,
    /// What they wrote, as they wrote it (shown as text, never as HTML).
    pub text: String,
}

/// The key that makes names unique whatever their case.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

fn account_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<AccountRecord> {
    Ok(AccountRecord {
        id: AccountId(r.get(0)?),
        name: r.get(1)?,
        password: r.get(2)?,
        contact: Contact { email: r.get(3)?, webhook: r.get(4)? },
        disabled: r.get::<_, i64>(5)? != 0,
        created_at: r.get(6)?,
    })
}

const ACCOUNT_COLUMNS: &str = "id, name, password, email, webhook, disabled, created_at";

fn posting_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PostingRecord> {
    Ok(PostingRecord {
        id: r.get(0)?,
        account: AccountId(r.get(1)?),
        created_at: r.get(2)?,
        setup: r.get(3)?,
        game_id: r.get(4)?,
    })
}

impl Store {
    /// Makes an account; `None` when the name (whatever its case) is taken.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn create_account(
        &self,
        name: &str,
        password_hash: &str,
        contact: &Contact,
    ) -> Result<Option<AccountId>, StoreError> {
        self.with(|c| {
            let n = c.execute(
                "INSERT OR IGNORE INTO accounts (name, name_key, password, email, webhook, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![name, name_key(name), password_hash, contact.email, contact.webhook, now_ms()],
            )?;
            Ok((n == 1).then(|| AccountId(c.last_insert_rowid())))
        })
    }

    /// The account of a name, whatever its case.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn account_named(&self, name: &str) -> Result<Option<AccountRecord>, StoreError> {
        self.with(|c| {
            c.query_row(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?1"),
                [name_key(name)],
                account_row,
            )
            .optional()
        })
    }

    /// The account of a number.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn account(&self, id: AccountId) -> Result<Option<AccountRecord>, StoreError> {
        self.with(|c| {
            c.query_row(&format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?1"), [id.0], account_row)
                .optional()
        })
    }

    /// Every account, by name.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn accounts(&self) -> Result<Vec<AccountRecord>, StoreError> {
        self.with(|c| {
            c.prepare(&format!("SELECT {ACCOUNT_COLUMNS} FROM accounts ORDER BY name_key"))?
                .query_map([], account_row)?
                .collect()
        })
    }

    /// Renames an account; whether it was renamed (not when there is no such account or the new name is taken).
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn rename_account(&self, id: AccountId, name: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            let n = c.execute(
                "UPDATE OR IGNORE accounts SET name = ?2, name_key = ?3 WHERE id = ?1",
                params![id.0, name, name_key(name)],
            )?;
            Ok(n == 1)
        })
    }

    /// Replaces an account's password hash and ends its sessions (a reset locks out whoever knew the old one).
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn set_password(&self, id: AccountId, password_hash: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            let tx = c.transaction()?;
            let n = tx.execute("UPDATE accounts SET password = ?2 WHERE id = ?1", params![id.0, password_hash])?;
            tx.execute("DELETE FROM sessions WHERE account = ?1", [id.0])?;
            tx.commit()?;
            Ok(n == 1)
        })
    }

    /// The accounts whose e-mail address is `email` (whatever its case), at most `most` of them.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn accounts_with_email(&self, email: &str, most: usize) -> Result<Vec<AccountRecord>, StoreError> {
        self.with(|c| {
            c.prepare(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE lower(email) = lower(?1) ORDER BY id LIMIT ?2"
            ))?
            .query_map(params![email, i64::try_from(most).unwrap_or(i64::MAX)], account_row)?
            .collect()
        })
    }

    /// Stores a password reset of an account: the hash of its link's token and when it lapses. The account's
    /// earlier resets are forgotten: only the newest link works.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn create_reset(&self, account: AccountId, token_hash: &str, expires_at: i64) -> Result<(), StoreError> {
        self.with(|c| {
            let tx = c.transaction()?;
            tx.execute("DELETE FROM password_resets WHERE account = ?1", [account.0])?;
            tx.execute(
                "INSERT INTO password_resets (token_hash, account, expires_at) VALUES (?1, ?2, ?3)",
                params![token_hash, account.0, expires_at],
            )?;
            tx.commit()
        })
    }

    /// Uses up the reset whose token hashes to `token_hash`: its account, if it had not lapsed by `now` (ms since
    /// 1970). Used up either way: a link works once.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn take_reset(&self, token_hash: &str, now: i64) -> Result<Option<AccountId>, StoreError> {
        self.with(|c| {
            let found: Option<(i64, i64)> = c
                .query_row(
                    "DELETE FROM password_resets WHERE token_hash = ?1 RETURNING account, expires_at",
                    [token_hash],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            Ok(found.filter(|&(_, expires_at)| expires_at > now).map(|(account, _)| AccountId(account)))
        })
    }

    /// Disables (or enables again) an account; disabling ends its sessions.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn set_disabled(&self, id: AccountId, disabled: bool) -> Result<bool, StoreError> {
        self.with(|c| {
            let tx = c.transaction()?;
            let n = tx.execute("UPDATE accounts SET disabled = ?2 WHERE id = ?1", params![id.0, disabled])?;
            if disabled {
                tx.execute("DELETE FROM sessions WHERE account = ?1", [id.0])?;
            }
            tx.commit()?;
            Ok(n == 1)
        })
    }

    /// Sets where an account's owner is told of their move by default.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn set_account_contact(&self, id: AccountId, contact: &Contact) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE accounts SET email = ?2, webhook = ?3 WHERE id = ?1",
                params![id.0, contact.email, contact.webhook],
            )
            .map(|_| ())
        })
    }

    /// Stores a new log-in session of an account.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn create_session(&self, id: &str, account: AccountId, csrf: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO sessions (id, account, csrf, created_at) VALUES (?1, ?2, ?3, ?4)",
                params![id, account.0, csrf, now_ms()],
            )
            .map(|_| ())
        })
    }

    /// The account and anti-forgery token of a session made after `since` (ms since 1970) whose account is not
    /// disabled.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn session(&self, id: &str, since: i64) -> Result<Option<(AccountRecord, String)>, StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT a.id, a.name, a.password, a.email, a.webhook, a.disabled, a.created_at, s.csrf
                 FROM sessions s JOIN accounts a ON a.id = s.account
                 WHERE s.id = ?1 AND s.created_at > ?2 AND a.disabled = 0",
                params![id, since],
                |r| Ok((account_row(r)?, r.get(7)?)),
            )
            .optional()
        })
    }

    /// Ends a session.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn delete_session(&self, id: &str) -> Result<(), StoreError> {
        self.with(|c| c.execute("DELETE FROM sessions WHERE id = ?1", [id]).map(|_| ()))
    }

    /// A player's rating, if they have played a rated game.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn rating(&self, player: &str) -> Result<Option<PlayerRating>, StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT player, rating, deviation, volatility, wins, losses, draws FROM ratings WHERE player = ?1",
                [player],
                rating_row,
            )
            .optional()
        })
    }

    /// Every rating, the highest first.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn ratings(&self) -> Result<Vec<PlayerRating>, StoreError> {
        self.with(|c| {
            c.prepare(
                "SELECT player, rating, deviation, volatility, wins, losses, draws FROM ratings
                 ORDER BY rating DESC, player",
            )?
            .query_map([], rating_row)?
            .collect()
        })
    }

    /// Stores both players' new ratings of one game at once.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn save_ratings(&self, both: &[PlayerRating; 2]) -> Result<(), StoreError> {
        self.with(|c| {
            let tx = c.transaction()?;
            for r in both {
                tx.execute(
                    "INSERT OR REPLACE INTO ratings (player, rating, deviation, volatility, wins, losses, draws)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![r.player, r.rating, r.deviation, r.volatility, r.wins, r.losses, r.draws],
                )?;
            }
            tx.commit()
        })
    }

    /// Stores a posting of the waiting room.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn insert_posting(&self, p: &PostingRecord) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO postings (id, account, created_at, setup, game_id) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![p.id, p.account.0, p.created_at, p.setup, p.game_id],
            )
            .map(|_| ())
        })
    }

    /// A posting by id.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn posting(&self, id: &str) -> Result<Option<PostingRecord>, StoreError> {
        self.with(|c| {
            c.query_row("SELECT id, account, created_at, setup, game_id FROM postings WHERE id = ?1", [id], posting_row)
                .optional()
        })
    }

    /// The postings nobody has joined yet, oldest first.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn open_postings(&self) -> Result<Vec<PostingRecord>, StoreError> {
        self.with(|c| {
            c.prepare(
                "SELECT id, account, created_at, setup, game_id FROM postings WHERE game_id IS NULL
                 ORDER BY created_at, id",
            )?
            .query_map([], posting_row)?
            .collect()
        })
    }

    /// Marks a posting joined, with its game; whether it was still open (two joining at once: one wins).
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn join_posting(&self, id: &str, game_id: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            c.execute("UPDATE postings SET game_id = ?2 WHERE id = ?1 AND game_id IS NULL", params![id, game_id])
                .map(|n| n == 1)
        })
    }

    /// Withdraws an open posting of `account`; whether there was one.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn delete_posting(&self, id: &str, account: AccountId) -> Result<bool, StoreError> {
        self.with(|c| {
            c.execute("DELETE FROM postings WHERE id = ?1 AND account = ?2 AND game_id IS NULL", params![id, account.0])
                .map(|n| n == 1)
        })
    }
}

impl Store {
    /// Adds a message to a game's chat, unless it holds `most` already; the message as stored.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn add_chat(&self, game_id: &str, side: &str, text: &str, most: i64) -> Result<Option<ChatRecord>, StoreError> {
        self.with(|c| {
            let tx = c.transaction()?;
            let n: i64 = tx.query_row("SELECT count(*) FROM chat WHERE game_id = ?1", [game_id], |r| r.get(0))?;
            if n >= most {
                return Ok(None);
            }
            let record = ChatRecord { n: n + 1, side: side.to_string(), at: now_ms(), text: text.to_string() };
            tx.execute(
                "INSERT INTO chat (game_id, n, side, at, text) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![game_id, record.n, record.side, record.at, record.text],
            )?;
            tx.commit()?;
            Ok(Some(record))
        })
    }

    /// A game's chat, oldest first.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn chat(&self, game_id: &str) -> Result<Vec<ChatRecord>, StoreError> {
        self.with(|c| {
            c.prepare("SELECT n, side, at, text FROM chat WHERE game_id = ?1 ORDER BY n")?
                .query_map([game_id], |r| {
                    Ok(ChatRecord { n: r.get(0)?, side: r.get(1)?, at: r.get(2)?, text: r.get(3)? })
                })?
                .collect()
        })
    }
}

fn rating_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PlayerRating> {
    Ok(PlayerRating {
        player: r.get(0)?,
        rating: r.get(1)?,
        deviation: r.get(2)?,
        volatility: r.get(3)?,
        wins: r.get(4)?,
        losses: r.get(5)?,
        draws: r.get(6)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_whatever_their_case_and_a_disabled_account_has_no_session() {
        let dir = std::env::temp_dir().join(format!("pacw-store-club-{}", crate::tokens::new_game_id()));
        let store = Store::open(&dir).unwrap();
        let bea = store.create_account("Bea", "hash", &Contact::default()).unwrap().expect("made");
        assert_eq!(store.create_account("bEA", "hash", &Contact::default()).unwrap(), None);
        assert_eq!(store.account_named("BEA").unwrap().unwrap().id, bea);
        store.create_session("s1", bea, "c1").unwrap();
        assert_eq!(store.session("s1", 0).unwrap().unwrap().1, "c1");
        assert!(store.session("s1", now_ms() + 1).unwrap().is_none(), "an old session no longer counts");
        store.set_disabled(bea, true).unwrap();
        assert!(store.session("s1", 0).unwrap().is_none());
        store.set_disabled(bea, false).unwrap();
        assert!(store.session("s1", 0).unwrap().is_none(), "disabling ended the session for good");
        let cy = store.create_account("Cy", "hash", &Contact::default()).unwrap().unwrap();
        assert!(!store.rename_account(cy, "bea").unwrap(), "a taken name");
        assert!(store.rename_account(cy, "Cyrus").unwrap());
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
