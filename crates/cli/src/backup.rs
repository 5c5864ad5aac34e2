//! `pacw backup`: a copy of a data folder's database taken while the server serves from it (SQLite's backup API),
//! and how to put it back.

use anyhow::Result;
use clap::Args;
use pacw_server::store::Backup;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pacw backup`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  pacw backup /var/backups/pacw-$(date +%F).sqlite3 --data /var/lib/pacw\n\n\
                         To restore: stop the server, copy the backup to DIR/pacw.sqlite3, remove \
                         DIR/pacw.sqlite3-wal and DIR/pacw.sqlite3-shm, start the server (docs/hosting.md).")]
pub struct BackupArgs {
    /// The file to write (replaced whole once the copy is checked; never left half-written).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The data folder (default: the server's, e.g. ~/.local/share/pacw-data).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
}

/// Copies the database; the server may keep serving.
///
/// # Errors
/// When `out` cannot be written; a backup that fails is reported, and the exit code is 1.
pub fn run(args: BackupArgs, out: &mut impl Write) -> Result<ExitCode> {
    let dir = args.data.unwrap_or_else(pacw_server::default_data_dir);
    match Backup::take(&dir, &args.file) {
        Ok(b) => {
            writeln!(out, "{} game(s) copied to {}", b.games, b.file.display())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("no backup made: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}
