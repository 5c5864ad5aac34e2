//! An online copy of the database (`pacw backup`), taken through SQLite's backup API while a server may be serving
//! from it: the copy is one consistent moment of the database, whatever is written meanwhile.

use super::{DB_FILE, StoreError};
use rusqlite::backup::{Backup as SqliteBackup, StepResult};
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How many times a step that found the database busy is tried again before the backup gives up.
const BUSY_RETRIES: u32 = 200;

/// What a backup copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backup {
    /// The file written.
    pub file: PathBuf,
    /// How many games it holds (archived ones included).
    pub games: usize,
}

impl Backup {
    /// Copies the database of the data folder `dir` to `file` in one step of SQLite's backup API, which reads one
    /// moment of the database (in WAL mode a server's writes go on meanwhile and are not in the copy). The copy is
    /// written beside `file` and renamed into place once checked, so `file` is either the old backup or a whole new
    /// one; it is a single file (no WAL), which restores by being put in a data folder as `pacw.sqlite3`.
    ///
    /// # Errors
    /// When there is no database in `dir`, it cannot be read, `file` cannot be written, or the copy does not check.
    pub fn take(dir: &Path, file: &Path) -> Result<Backup, StoreError> {
        let source_path = dir.join(DB_FILE);
        if !source_path.is_file() {
            return Err(StoreError::Missing { path: source_path });
        }
        if file.is_dir() {
            return Err(StoreError::Dir {
                path: file.to_path_buf(),
                source: std::io::Error::other("the backup must be a file's name, not a folder's"),
            });
        }
        let partial = partial_name(file);
        let _ = std::fs::remove_file(&partial);
        let result = copy(&source_path, &partial).and_then(|games| {
            std::fs::rename(&partial, file).map_err(|source| StoreError::Dir { path: file.to_path_buf(), source })?;
            Ok(Backup { file: file.to_path_buf(), games })
        });
        if result.is_err() {
            let _ = std::fs::remove_file(&partial);
        }
        result
    }
}

/// Copies `source` to `to` and checks the copy; the number of games in it.
fn copy(source: &Path, to: &Path) -> Result<usize, StoreError> {
    let src = Connection::open_with_flags(source, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    src.busy_timeout(Duration::from_secs(5))?;
    let mut dst = Connection::open(to)?;
    {
        let backup = SqliteBackup::new(&src, &mut dst)?;
        // All pages in one step: one read transaction, so one moment of the database.
        let mut busy = 0;
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More => {}
                StepResult::Busy | StepResult::Locked if busy < BUSY_RETRIES => {
                    busy += 1;
                    std::thread::sleep(Duration::from_millis(25));
                }
                StepResult::Busy | StepResult::Locked => {
                    return Err(StoreError::Sql(rusqlite::Error::SqliteFailure(
                        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
                        Some("the database stayed busy; try the backup again".into()),
                    )));
                }
                _ => {}
            }
        }
    }
    // One self-contained file, not a WAL database waiting for its -wal file.
    dst.pragma_update(None, "journal_mode", "DELETE")?;
    let check: String = dst.pragma_query_value(None, "integrity_check", |r| r.get(0))?;
    if check != "ok" {
        return Err(StoreError::Damaged { path: to.to_path_buf(), cause: check });
    }
    let games: i64 = dst.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
    Ok(usize::try_from(games).unwrap_or(0))
}

/// Where the copy is written before it is renamed to `file`.
fn partial_name(file: &Path) -> PathBuf {
    let mut name = file.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".partial");
    file.with_file_name(name)
}
