//! The games on disk: one SQLite database in the data directory, in WAL mode, its schema migrated on start-up.
//!
//! A game is stored as the engine's save (scenario text, options, seed, decisions and a fingerprint of the events)
//! plus what the server adds: mode, players, tokens and timestamps. Every accepted action rewrites the game's row
//! in one transaction before the reply is sent, so a killed server loses nothing it has acknowledged.

use crate::notify::Contact;
use crate::offers::Offers;
use crate::setup::{Mode, Pace, PlayerKind, Rating, Seat};
use crate::tokens::Tokens;
use pacw_engine::{GameResult, SaveFile};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The database's file name inside the data directory.
pub const DB_FILE: &str = "pacw.sqlite3";

/// The schema, one migration per entry; `PRAGMA user_version` holds how many have been applied.
const MIGRATIONS: &[&str] = &[
    // 1: the games.
    "CREATE TABLE games (
        id            TEXT PRIMARY KEY,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL,
        scenario_name TEXT NOT NULL,
        mode          TEXT NOT NULL,
        players       TEXT NOT NULL,
        tokens        TEXT NOT NULL,
        save          TEXT NOT NULL,
        status        TEXT NOT NULL,
        result        TEXT
    );
    CREATE INDEX games_by_update ON games (updated_at);",
    // 2: each finished game's review, with the evaluator that made it.
    "CREATE TABLE reviews (
        game_id    TEXT PRIMARY KEY,
        evaluator  TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        review     TEXT NOT NULL
    );",
    // 3: where each player of a two-player game wants to be told it is their move.
    "CREATE TABLE contacts (
        game_id TEXT NOT NULL,
        side    TEXT NOT NULL,
        email   TEXT,
        webhook TEXT,
        link    TEXT NOT NULL,
        PRIMARY KEY (game_id, side)
    );",
    // 4: who holds each side's seat (setup.rs `Seat`), so that a seat can later belong to an account. The games
    // of before are given the seats they had in effect: a computer's by its name, a person's by the token that
    // plays that side (its own, else the hot-seat's). A row whose JSON is damaged is left without seats: it is
    // reported as damaged when read, as it was before.
    "ALTER TABLE games ADD COLUMN seats TEXT;
    UPDATE games SET seats = json_array(
        CASE json_extract(players, '$[0].kind')
            WHEN 'computer' THEN json_object('kind', 'computer', 'name', json_extract(players, '$[0].name'))
            ELSE json_object('kind', 'guest', 'token', coalesce(json_extract(tokens, '$.A'), json_extract(tokens, '$.hotseat')))
        END,
        CASE json_extract(players, '$[1].kind')
            WHEN 'computer' THEN json_object('kind', 'computer', 'name', json_extract(players, '$[1].name'))
            ELSE json_object('kind', 'guest', 'token', coalesce(json_extract(tokens, '$.B'), json_extract(tokens, '$.hotseat')))
        END)
    WHERE json_valid(players) AND json_valid(tokens);",
    // 5: the club (store/club.rs): accounts (a name, an argon2id hash, where to be told of a move, disabled or
    // not), their log-in sessions, the ratings (by `account:ID` or `computer:NAME`), the waiting room's postings,
    // and whether a game is rated. The games of before are casual.
    "CREATE TABLE accounts (
        id         INTEGER PRIMARY KEY,
        name       TEXT NOT NULL,
        name_key   TEXT NOT NULL UNIQUE,
        password   TEXT NOT NULL,
        email      TEXT,
        webhook    TEXT,
        disabled   INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE sessions (
        id         TEXT PRIMARY KEY,
        account    INTEGER NOT NULL,
        csrf       TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions (account);
    CREATE TABLE ratings (
        player     TEXT PRIMARY KEY,
        rating     REAL NOT NULL,
        deviation  REAL NOT NULL,
        volatility REAL NOT NULL,
        wins       INTEGER NOT NULL DEFAULT 0,
        losses     INTEGER NOT NULL DEFAULT 0,
        draws      INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE postings (
        id         TEXT PRIMARY KEY,
        account    INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        setup      TEXT NOT NULL,
        game_id    TEXT
    );
    ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;",
    // 6: the chat between the players of a game, kept with it (session/chat.rs).
    "CREATE TABLE chat (
        game_id TEXT NOT NULL,
        n       INTEGER NOT NULL,
        side    TEXT NOT NULL,
        at      INTEGER NOT NULL,
        text    TEXT NOT NULL,
        PRIMARY KEY (game_id, n)
    );",
    // 7: each game's pace (setup.rs `Pace`: `live`, or days for each move) and when the side to act got the move, from
    // which its deadline runs (session/deadline.rs). The games of before are live; their move is taken to have
    // passed at their last change.
    "ALTER TABLE games ADD COLUMN pace TEXT NOT NULL DEFAULT 'live';
    ALTER TABLE games ADD COLUMN move_since INTEGER;
    UPDATE games SET move_since = updated_at;",
    // 8: the password resets asked for by e-mail (session/reset.rs): the SHA-256 of each link's token (never the
    // token), its account and when it lapses.
    "CREATE TABLE password_resets (
        token_hash TEXT PRIMARY KEY,
        account    INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    );
    CREATE INDEX password_resets_by_account ON password_resets (account);",
    // 9: the players' vacations (session/vacation.rs): who, from when, until when (the end asked for, or the time
    // it was ended early). The days a player has used in a year, and the deadlines it pushed, are read from it.
    "CREATE TABLE vacations (
        id         INTEGER PRIMARY KEY,
        account    INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        ends_at    INTEGER NOT NULL
    );
    CREATE INDEX vacations_by_account ON vacations (account, started_at);",
    // 10: the offers of each game waiting for an answer (offers.rs: a draw offered, a take-back asked for), as JSON;
    // none for the games of before (a restart forgot them then).
    "ALTER TABLE games ADD COLUMN offers TEXT;",
    // 11: the match maker's seeks (session/matcher.rs): an account's request for any opponent (the battle's size,
    // the pace, rated or not, as JSON), one an account, and the game it was paired into.
    "CREATE TABLE seeks (
        account    INTEGER PRIMARY KEY,
        created_at INTEGER NOT NULL,
        request    TEXT NOT NULL,
        game_id    TEXT
    );",
];

/// A failure of the database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The data directory could not be made.
    #[error("cannot create the data directory {path}: {source}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// SQLite failed.
    #[error("database error: {0}")]
    Sql(#[from] rusqlite::Error),
    /// The database was written by a newer pacw.
    #[error("the database {path} has schema version {found}, newer than this pacw knows ({known}); use a newer pacw")]
    TooNew {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: i64,
        /// Ours.
        known: usize,
    },
    /// The database was closed (the server is shutting down).
    #[error("the database is closed")]
    Closed,
    /// The database file cannot be opened or written (permissions, a read-only disk).
    #[error(
        "cannot write to the database {path}: {cause}. Give pacw write access to the file and its folder, or start it \
         with another data folder (--data DIR)"
    )]
    NotWritable {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        cause: String,
    },
    /// There is no database where one was looked for.
    #[error("there is no database {path}: no games were kept in this folder")]
    Missing {
        /// The file looked for.
        path: PathBuf,
    },
    /// The database file is damaged; it was left as it is.
    #[error(
        "the database {path} is damaged ({cause}); pacw left it untouched. Start pacw with a fresh data folder \
         (--data NEWDIR), and save the games that can still be read: `pacw games --data {dir} --export SAVES` writes \
         each as a save file (for pacw play --load and pacw replay)",
        dir = path.parent().map_or_else(|| ".".into(), |d| d.display().to_string())
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        cause: String,
    },
}

/// Whether SQLite says the file is not a sound database.
fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase))
}

/// Whether SQLite says the file cannot be written.
fn is_unwritable(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::PermissionDenied)
    )
}

/// One stored game, its JSON columns parsed.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The public id.
    pub id: String,
    /// When it was created, in milliseconds since 1970.
    pub created_at: i64,
    /// When it last changed.
    pub updated_at: i64,
    /// The scenario's short name (shipped) or file name (uploaded).
    pub scenario_name: String,
    /// How it is played.
    pub mode: Mode,
    /// Who plays each side.
    pub players: [PlayerKind; 2],
    /// Who holds each side's seat (agreeing with `players`).
    pub seats: [Seat; 2],
    /// Its tokens.
    pub tokens: Tokens,
    /// The engine's save.
    pub save: SaveFile,
    /// The result, once over.
    pub result: Option<GameResult>,
    /// Put away unfinished after days without a move ([`Store::archive_idle`]): not loaded, its links answer 410.
    pub archived: bool,
    /// Whether it counts for the ratings.
    pub rating: Rating,
    /// How fast it is played: live, or days for each move.
    pub pace: Pace,
    /// When the side to act got the move (ms since 1970): its deadline runs from then.
    pub move_since: i64,
    /// What one player has put to the other and waits to hear back on.
    pub offers: Offers,
}

/// A stored row that could not be read: its id (if readable) and why.
#[derive(Clone, Debug)]
pub struct DamagedRow {
    /// The game id, or `?` when even that is unreadable.
    pub id: String,
    /// What is wrong.
    pub error: String,
}

/// The database: one connection, used by one thread at a time.
pub struct Store {
    path: PathBuf,
    conn: Mutex<Option<Connection>>,
    /// What the operator should be told of the file found at start ([`Store::notice`]).
    notice: Option<String>,
}

/// Milliseconds since 1970.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

impl Store {
    /// Opens (creating if needed) the database in `dir` and brings its schema up to date. A damaged file is
    /// found before anything is written to it, and left as it is ([`StoreError::Damaged`]); a file or folder that
    /// cannot be written is said so at once ([`StoreError::NotWritable`]).
    ///
    /// # Errors
    /// When the data directory cannot be made, the database is damaged, cannot be written or was made by a newer pacw,
    /// or SQLite fails otherwise.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        Store::open_with(dir, rusqlite::OpenFlags::default())
    }

    /// As [`Store::open`], with SQLite's open flags (tests open a file read-only, as SQLite does by itself with a
    /// file it may not write).
    fn open_with(dir: &Path, flags: rusqlite::OpenFlags) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Dir { path: dir.to_path_buf(), source })?;
        let path = dir.join(DB_FILE);
        // SQLite takes an empty file for a new database without a word; a file emptied by accident held games.
        let notice = std::fs::metadata(&path).ok().filter(|m| m.is_file() && m.len() == 0).map(|_| {
            format!(
                "the database {} was an empty file (0 bytes): it starts as a new database with no games; if it held \
                 games, they were lost before this start (restore the file from a backup)",
                path.display()
            )
        });
        let classify = |e: rusqlite::Error| {
            if is_damage(&e) {
                StoreError::Damaged { path: path.clone(), cause: e.to_string() }
            } else if is_unwritable(&e) {
                StoreError::NotWritable { path: path.clone(), cause: e.to_string() }
            } else {
                StoreError::Sql(e)
            }
        };
        let mut conn = Connection::open_with_flags(&path, flags).map_err(classify)?;
        conn.busy_timeout(std::time::Duration::from_secs(5)).map_err(classify)?;
        // Every page read once, before anything is written: one bad page is reported, not spread.
        let check: String = conn.pragma_query_value(None, "quick_check", |r| r.get(0)).map_err(classify)?;
        if check != "ok" {
            return Err(StoreError::Damaged { path, cause: check });
        }
        // WAL: readers never block the writer; synchronous=NORMAL: a commit is in the WAL file (the OS's cache)
        // when it returns, so a killed process loses nothing (only a power cut could lose the last commits).
        conn.pragma_update(None, "journal_mode", "WAL").map_err(classify)?;
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(classify)?;
        migrate(&mut conn, &path).map_err(|e| match e {
            StoreError::Sql(e) => classify(e),
            other => other,
        })?;
        // Writing must work now, not on the first player's move.
        let probe = conn.execute_batch("BEGIN IMMEDIATE; CREATE TABLE pacw_write_probe (x); ROLLBACK;");
        if let Err(e) = probe {
            let _ = conn.execute_batch("ROLLBACK;");
            return Err(classify(e));
        }
        Ok(Store { path, conn: Mutex::new(Some(conn)), notice })
    }

    /// Reads every game of the database in `dir` that can still be read, without changing the file: for listing
    /// the games of a data folder (`pacw games`) and saving them from a damaged one. Each row is read on its own,
    /// so a bad row or page loses only itself.
    ///
    /// # Errors
    /// When there is no database in `dir`, or it cannot be opened or its list of games read.
    pub fn salvage(dir: &Path) -> Result<(Vec<GameRecord>, Vec<DamagedRow>), StoreError> {
        let path = dir.join(DB_FILE);
        if !path.exists() {
            return Err(StoreError::Missing { path });
        }
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let damaged = |e: rusqlite::Error| StoreError::Damaged { path: path.clone(), cause: e.to_string() };
        let conn = Connection::open_with_flags(&path, flags).map_err(damaged)?;
        let mut ids = Vec::new();
        let mut bad = Vec::new();
        match conn.prepare("SELECT id FROM games ORDER BY created_at, id") {
            Ok(mut stmt) => match stmt.query([]) {
                Ok(mut rows) => loop {
                    match rows.next() {
                        Ok(Some(row)) => ids.push(row.get::<_, String>(0).unwrap_or_default()),
                        Ok(None) => break,
                        Err(e) => {
                            bad.push(DamagedRow { id: "?".into(), error: format!("the rest of the list: {e}") });
                            break;
                        }
                    }
                },
                Err(e) => return Err(damaged(e)),
            },
            Err(e) => return Err(damaged(e)),
        }
        // A folder of a pacw before seats (salvage migrates nothing): its seats are the ones the game had in effect.
        let seats = if conn.prepare("SELECT seats FROM games LIMIT 0").is_ok() { "seats" } else { "NULL" };
        let rated = if conn.prepare("SELECT rated FROM games LIMIT 0").is_ok() { "rated" } else { "0" };
        let paced = conn.prepare("SELECT pace, move_since FROM games LIMIT 0").is_ok();
        let pace = if paced { "pace, move_since" } else { "NULL, NULL" };
        let offers = if conn.prepare("SELECT offers FROM games LIMIT 0").is_ok() { "offers" } else { "NULL" };
        let mut good = Vec::new();
        for id in ids {
            let row = conn.query_row(
                &format!(
                    "SELECT id, created_at, updated_at, scenario_name, mode, players, tokens, save, result, status, \
                     {seats}, {rated}, {pace}, {offers} FROM games WHERE id = ?1"
                ),
                [&id],
                |row| Ok(read_row(row)),
            );
            match row {
                Ok(Ok(g)) => good.push(g),
                Ok(Err(d)) => bad.push(d),
                Err(e) => bad.push(DamagedRow { id, error: e.to_string() }),
            }
        }
        Ok((good, bad))
    }

    /// What the operator should be told of the database found at start (an empty file taken for a new database).
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn with<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> Result<T, StoreError> {
        let mut guard = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        let conn = guard.as_mut().ok_or(StoreError::Closed)?;
        Ok(f(conn)?)
    }

    /// Closes the connection; later calls fail with [`StoreError::Closed`].
    pub fn close(&self) {
        let mut guard = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        guard.take();
    }

    /// Stores a new game.
    ///
    /// # Errors
    /// When the database is closed, SQLite fails, or a value cannot be written as JSON.
    pub fn insert(&self, g: &GameRecord) -> Result<(), StoreError> {
        let players = json(&g.players)?;
        let seats = json(&g.seats)?;
        let tokens = json(&g.tokens)?;
        let mode = json(&g.mode)?;
        let save = json(&g.save)?;
        let result = g.result.map(|r| json(&r)).transpose()?;
        let offers = offers_json(&g.offers)?;
        self.with(|c| {
            c.execute(
                "INSERT INTO games (id, created_at, updated_at, scenario_name, mode, players, tokens, save, status, result,
                                    seats, rated, pace, move_since, offers)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                params![
                    g.id,
                    g.created_at,
                    g.updated_at,
                    g.scenario_name,
                    mode,
                    players,
                    tokens,
                    save,
                    status(&g.result),
                    result,
                    seats,
                    g.rating == Rating::Rated,
                    g.pace.name(),
                    g.move_since,
                    offers
                ],
            )
            .map(|_| ())
        })
    }

    /// Replaces a game's seats (a guest's seat claimed by an account).
    ///
    /// # Errors
    /// When the database is closed, SQLite fails, or no game has this id.
    pub fn update_seats(&self, id: &str, seats: &[Seat; 2]) -> Result<(), StoreError> {
        let seats = json(seats)?;
        self.with(|c| {
            let n = c.execute("UPDATE games SET seats = ?2 WHERE id = ?1", params![id, seats])?;
            if n == 1 { Ok(()) } else { Err(rusqlite::Error::QueryReturnedNoRows) }
        })
    }

    /// Replaces a game's save (after an action or an undo), with when the side to act got the move and the offers
    /// that still stand, committed before it returns.
    ///
    /// # Errors
    /// When the database is closed, SQLite fails, no game has this id, or a value cannot be written as JSON.
    pub fn update_save(
        &self,
        id: &str,
        save: &SaveFile,
        result: Option<GameResult>,
        updated_at: i64,
        move_since: i64,
        offers: &Offers,
    ) -> Result<(), StoreError> {
        let save = json(save)?;
        let result_json = result.map(|r| json(&r)).transpose()?;
        let offers = offers_json(offers)?;
        self.with(|c| {
            let n = c.execute(
                "UPDATE games SET save = ?2, status = ?3, result = ?4, updated_at = ?5, move_since = ?6, offers = ?7
                 WHERE id = ?1",
                params![id, save, status(&result), result_json, updated_at, move_since, offers],
            )?;
            if n == 1 { Ok(()) } else { Err(rusqlite::Error::QueryReturnedNoRows) }
        })
    }

    /// Replaces the offers of a game waiting for an answer (a draw offered or answered, a take-back asked for or
    /// declined), committed before it returns.
    ///
    /// # Errors
    /// When the database is closed, SQLite fails, or no game has this id.
    pub fn update_offers(&self, id: &str, offers: &Offers) -> Result<(), StoreError> {
        let offers = offers_json(offers)?;
        self.with(|c| {
            let n = c.execute("UPDATE games SET offers = ?2 WHERE id = ?1", params![id, offers])?;
            if n == 1 { Ok(()) } else { Err(rusqlite::Error::QueryReturnedNoRows) }
        })
    }

    /// Every stored game, oldest first; rows that cannot be read are returned apart.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails; a row that cannot be read is returned apart, not as an error.
    pub fn load_all(&self) -> Result<(Vec<GameRecord>, Vec<DamagedRow>), StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT id, created_at, updated_at, scenario_name, mode, players, tokens, save, result, status, seats,
                 rated, pace, move_since, offers FROM games ORDER BY created_at, id",
            )?;
            let mut rows = stmt.query([])?;
            let (mut good, mut bad) = (Vec::new(), Vec::new());
            while let Some(row) = rows.next()? {
                match read_row(row) {
                    Ok(g) => good.push(g),
                    Err(d) => bad.push(d),
                }
            }
            Ok((good, bad))
        })
    }

    /// One stored game by id.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails; a row that cannot be read is returned as the inner error.
    pub fn load(&self, id: &str) -> Result<Option<Result<GameRecord, DamagedRow>>, StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT id, created_at, updated_at, scenario_name, mode, players, tokens, save, result, status, seats,
                 rated, pace, move_since, offers FROM games WHERE id = ?1",
                [id],
                |row| Ok(read_row(row)),
            )
            .optional()
        })
    }

    /// Puts away every unfinished game not changed since `before` (ms since 1970); returns their ids.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn archive_idle(&self, before: i64) -> Result<Vec<String>, StoreError> {
        self.with(|c| {
            let ids: Vec<String> = c
                .prepare("SELECT id FROM games WHERE status = 'in_progress' AND updated_at < ?1 ORDER BY id")?
                .query_map([before], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            c.execute(
                "UPDATE games SET status = ?2 WHERE status = 'in_progress' AND updated_at < ?1",
                params![before, ARCHIVED],
            )?;
            Ok(ids)
        })
    }

    /// Brings an archived game back (`pacw games --restore ID`, the server running or not), as if just changed;
    /// whether there was one.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn restore(&self, id: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE games SET status = 'in_progress', updated_at = ?2 WHERE id = ?1 AND status = ?3",
                params![id, now_ms(), ARCHIVED],
            )
            .map(|n| n > 0)
        })
    }

    /// Whether the game `id` is put away (`false` if it is not, or there is no such game): a cheap look before
    /// loading a game brought back.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn is_archived(&self, id: &str) -> Result<bool, StoreError> {
        self.with(|c| {
            c.query_row("SELECT status = ?2 FROM games WHERE id = ?1", params![id, ARCHIVED], |r| r.get(0))
                .optional()
                .map(|archived| archived.unwrap_or(false))
        })
    }

    /// How many games the database holds by status (`in_progress`, `finished`, `archived`), for `/metrics`.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn count_by_status(&self) -> Result<Vec<(String, u64)>, StoreError> {
        self.with(|c| {
            c.prepare("SELECT status, count(*) FROM games GROUP BY status ORDER BY status")?
                .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?.max(0) as u64)))?
                .collect()
        })
    }

    /// Stores a game's review (JSON), replacing any earlier one.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn save_review(&self, id: &str, evaluator: &str, review: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT OR REPLACE INTO reviews (game_id, evaluator, created_at, review) VALUES (?1, ?2, ?3, ?4)",
                params![id, evaluator, now_ms(), review],
            )
            .map(|_| ())
        })
    }

    /// A game's stored review (JSON), if it has one.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn load_review(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.with(|c| c.query_row("SELECT review FROM reviews WHERE game_id = ?1", [id], |r| r.get(0)).optional())
    }

    /// Stores where the player of `side` ("A" or "B") wants to be told it is their move, with their game's link;
    /// an empty contact removes it.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn save_contact(&self, id: &str, side: &str, contact: &Contact, link: &str) -> Result<(), StoreError> {
        self.with(|c| {
            if contact.is_empty() {
                c.execute("DELETE FROM contacts WHERE game_id = ?1 AND side = ?2", params![id, side]).map(|_| ())
            } else {
                c.execute(
                    "INSERT OR REPLACE INTO contacts (game_id, side, email, webhook, link) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![id, side, contact.email, contact.webhook, link],
                )
                .map(|_| ())
            }
        })
    }

    /// Where the player of `side` wants to be told, with their link, if anywhere.
    ///
    /// # Errors
    /// When the database is closed or SQLite fails.
    pub fn load_contact(&self, id: &str, side: &str) -> Result<Option<(Contact, String)>, StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT email, webhook, link FROM contacts WHERE game_id = ?1 AND side = ?2",
                params![id, side],
                |r| Ok((Contact { email: r.get(0)?, webhook: r.get(1)? }, r.get(2)?)),
            )
            .optional()
        })
    }

    /// Runs raw SQL (for tests that damage a row on purpose).
    #[doc(hidden)]
    pub fn execute_raw(&self, sql: &str) -> Result<usize, StoreError> {
        self.with(|c| c.execute(sql, []))
    }
}

mod backup;
mod club;
mod seeks;
mod vacations;
pub use backup::Backup;
pub use club::{AccountRecord, ChatRecord, PlayerRating, PostingRecord, name_key};
pub use seeks::SeekRecord;
pub use vacations::VacationRecord;

/// The status of a game put away after days without a move.
const ARCHIVED: &str = "archived";

/// A value as the JSON text a column holds.
fn json<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Sql(rusqlite::Error::ToSqlConversionFailure(Box::new(e))))
}

/// The offers as their column holds them: none as NULL.
fn offers_json(offers: &Offers) -> Result<Option<String>, StoreError> {
    (!offers.is_empty()).then(|| json(offers)).transpose()
}

fn status(result: &Option<GameResult>) -> &'static str {
    if result.is_some() { "finished" } else { "in_progress" }
}

fn read_row(row: &rusqlite::Row<'_>) -> Result<GameRecord, DamagedRow> {
    let id: String = row.get(0).unwrap_or_else(|_| "?".to_string());
    let damaged = |what: &str, e: &dyn std::fmt::Display| DamagedRow { id: id.clone(), error: format!("{what}: {e}") };
    let text = |i: usize, what: &str| row.get::<_, String>(i).map_err(|e| damaged(what, &e));
    let created_at: i64 = row.get(1).map_err(|e| damaged("created_at", &e))?;
    let updated_at: i64 = row.get(2).map_err(|e| damaged("updated_at", &e))?;
    let scenario_name = text(3, "scenario_name")?;
    let mode = serde_json::from_str(&text(4, "mode")?).map_err(|e| damaged("mode", &e))?;
    let players = serde_json::from_str(&text(5, "players")?).map_err(|e| damaged("players", &e))?;
    let tokens = serde_json::from_str(&text(6, "tokens")?).map_err(|e| damaged("tokens", &e))?;
    let seats = match row.get::<_, Option<String>>(10).ok().flatten() {
        Some(s) => serde_json::from_str::<[Seat; 2]>(&s).map_err(|e| damaged("seats", &e))?,
        // No seats stored (a row the migration could not read, or a folder read as it is): the ones in effect.
        None => Seat::of(&players, &tokens).ok_or_else(|| damaged("seats", &"a person's side has no token"))?,
    };
    if seats.each_ref().map(Seat::kind) != players {
        return Err(damaged("seats", &"they do not agree with the players"));
    }
    let save = serde_json::from_str(&text(7, "save")?).map_err(|e| damaged("the save is not valid", &e))?;
    let result = match row.get::<_, Option<String>>(8).map_err(|e| damaged("result", &e))? {
        Some(r) => Some(serde_json::from_str(&r).map_err(|e| damaged("result", &e))?),
        None => None,
    };
    let archived = row.get::<_, String>(9).is_ok_and(|s| s == ARCHIVED);
    let rating = if row.get::<_, i64>(11).unwrap_or(0) != 0 { Rating::Rated } else { Rating::Casual };
    // Read as it is by `pacw games` (a folder of before, not migrated): live, the move passed at the last change.
    let pace = match row.get::<_, Option<String>>(12).ok().flatten() {
        Some(name) => Pace::named(&name).ok_or_else(|| damaged("pace", &format!("no pace '{name}'")))?,
        None => Pace::Live,
    };
    let move_since = row.get::<_, Option<i64>>(13).ok().flatten().unwrap_or(updated_at);
    // An offer that cannot be read is dropped, not the game: the player may offer again.
    let offers =
        row.get::<_, Option<String>>(14).ok().flatten().and_then(|o| serde_json::from_str(&o).ok()).unwrap_or_default();
    Ok(GameRecord {
        id,
        created_at,
        updated_at,
        scenario_name,
        mode,
        players,
        seats,
        tokens,
        save,
        result,
        archived,
        rating,
        pace,
        move_since,
        offers,
    })
}

fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version > MIGRATIONS.len() as i64 {
        return Err(StoreError::TooNew { path: path.to_path_buf(), found: version, known: MIGRATIONS.len() });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("pacw-store-{name}-{}", crate::tokens::new_game_id()))
    }

    #[test]
    fn a_database_that_cannot_be_written_is_said_so_at_start_naming_the_file() {
        let dir = temp_dir("ro");
        drop(Store::open(&dir).unwrap());
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
        let Err(e) = Store::open_with(&dir, flags) else { panic!("a read-only database was accepted") };
        assert!(matches!(e, StoreError::NotWritable { .. }), "{e}");
        let message = e.to_string();
        assert!(message.contains(&dir.join(DB_FILE).display().to_string()) && message.contains("--data"), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_database_is_left_untouched_with_the_way_out() {
        let dir = temp_dir("damaged");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(DB_FILE);
        std::fs::write(&path, b"this is not a database, but it once was one of somebody's games").unwrap();
        let before = std::fs::read(&path).unwrap();
        let Err(e) = Store::open(&dir) else { panic!("a damaged database was opened") };
        assert!(matches!(e, StoreError::Damaged { .. }), "{e}");
        let message = e.to_string();
        assert!(message.contains(&path.display().to_string()), "{message}");
        assert!(message.contains("--data NEWDIR") && message.contains("pacw games --data"), "{message}");
        assert_eq!(std::fs::read(&path).unwrap(), before, "the file is untouched");
        assert!(matches!(Store::salvage(&dir), Err(StoreError::Damaged { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn migrations_run_once_and_record_the_version() {
        let dir = std::env::temp_dir().join(format!("pacw-store-test-{}", crate::tokens::new_game_id()));
        let store = Store::open(&dir).unwrap();
        let v: i64 = store.with(|c| c.pragma_query_value(None, "user_version", |r| r.get(0))).unwrap();
        assert_eq!(v, MIGRATIONS.len() as i64);
        drop(store);
        let store = Store::open(&dir).unwrap(); // a second start does not migrate again
        assert!(store.load_all().unwrap().0.is_empty());
        let mode: String = store.with(|c| c.pragma_query_value(None, "journal_mode", |r| r.get(0))).unwrap();
        assert_eq!(mode, "wal");
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_database_of_the_first_schema_gains_the_reviews_and_contacts_and_each_is_stored_and_replaced() {
        let dir = temp_dir("reviews");
        std::fs::create_dir_all(&dir).unwrap();
        {
            // The schema as the first version of pacw made it.
            let conn = Connection::open(dir.join(DB_FILE)).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
        }
        let store = Store::open(&dir).unwrap();
        let v: i64 = store.with(|c| c.pragma_query_value(None, "user_version", |r| r.get(0))).unwrap();
        assert_eq!(v, MIGRATIONS.len() as i64);
        assert_eq!(store.load_review("g1").unwrap(), None);
        store.save_review("g1", "evaluator-1", "{\"a\":1}").unwrap();
        store.save_review("g1", "evaluator-2", "{\"a\":2}").unwrap();
        assert_eq!(store.load_review("g1").unwrap().as_deref(), Some("{\"a\":2}"));
        // Where a player is told of their move: stored, replaced, removed when empty.
        let hook = Contact { email: None, webhook: Some("https://example.org/hook".into()) };
        store.save_contact("g1", "B", &hook, "https://pacw.example.org/game/t").unwrap();
        assert_eq!(store.load_contact("g1", "B").unwrap(), Some((hook, "https://pacw.example.org/game/t".into())));
        assert_eq!(store.load_contact("g1", "A").unwrap(), None);
        store.save_contact("g1", "B", &Contact::default(), "x").unwrap();
        assert_eq!(store.load_contact("g1", "B").unwrap(), None);
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_seats_migration_fills_readable_rows_and_leaves_a_damaged_one_reported() {
        let dir = temp_dir("seats");
        std::fs::create_dir_all(&dir).unwrap();
        {
            // The schema before seats, written by hand: a game against the computer, and a row whose players are
            // not JSON.
            let conn = Connection::open(dir.join(DB_FILE)).unwrap();
            for sql in &MIGRATIONS[..3] {
                conn.execute_batch(sql).unwrap();
            }
            conn.pragma_update(None, "user_version", 3).unwrap();
            let save = serde_json::to_string(
                &pacw_engine::Game::new(pacw_engine::DEFAULT_SCENARIO, "meeting-engagement.toml", None, 7)
                    .unwrap()
                    .save(),
            )
            .unwrap();
            let insert =
                "INSERT INTO games (id, created_at, updated_at, scenario_name, mode, players, tokens, save, status)
                          VALUES (?1, 1, 1, 'meeting-engagement', '\"computer\"', ?2, ?3, ?4, 'in_progress')";
            let players = r#"[{"kind":"human"},{"kind":"computer","name":"greedy"}]"#;
            let tokens = r#"{"A":"aaaa","spectator":"ssss"}"#;
            conn.execute(insert, params!["good", players, tokens, save]).unwrap();
            conn.execute(insert, params!["bad", "not json", tokens, save]).unwrap();
        }
        let store = Store::open(&dir).unwrap();
        let (good, bad) = store.load_all().unwrap();
        assert_eq!(good.len(), 1);
        assert_eq!(good[0].seats, [Seat::Guest { token: "aaaa".into() }, Seat::Computer { name: "greedy".into() }]);
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].id, "bad");
        assert!(bad[0].error.contains("players"), "{}", bad[0].error);
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_empty_database_file_is_said_so() {
        let dir = temp_dir("empty");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(DB_FILE), b"").unwrap();
        let store = Store::open(&dir).unwrap();
        let notice = store.notice().expect("a notice for the operator");
        assert!(notice.contains("empty file (0 bytes)") && notice.contains(DB_FILE), "{notice}");
        drop(store);
        assert!(Store::open(&dir).unwrap().notice().is_none(), "a database with its schema is no news");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
