//! `pacw games`: the games of a data folder with their links, for the operator (the server lists no tokens), and
//! every game that can still be read saved as a save file (also out of a damaged database).

use anyhow::{Context, Result};
use clap::Args;
use pacw_server::store::Store;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, UNIX_EPOCH};

/// Arguments of `pacw games`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  pacw games\n  pacw games --data ./games --url https://pacw.example.org\n  \
                         pacw games --data ./old-data --export ./saves")]
pub struct GamesArgs {
    /// The data folder (default: the server's, e.g. ~/.local/share/pacw-data).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// The address the links start with.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// Also write every game that can be read as DIR/<id>.json, a save for `pacw play --load` and `pacw replay`.
    #[arg(long, value_name = "DIR")]
    pub export: Option<PathBuf>,
    /// Print the games as JSON.
    #[arg(long)]
    pub json: bool,
    /// Bring back a game the server put away after days without a move (`pacw serve --archive-after-days`); a
    /// running server opens it again on its links' next request.
    #[arg(long, value_name = "ID")]
    pub restore: Option<String>,
}

/// Lists (and exports) the games; the database is only read.
///
/// # Errors
/// When `--restore` cannot open or change the database, the export folder or a save in it cannot be written, or `out`
/// cannot be written; a database that cannot be read is reported, and the exit code is 1.
pub fn run(args: GamesArgs, out: &mut impl Write) -> Result<ExitCode> {
    let dir = args.data.unwrap_or_else(pacw_server::default_data_dir);
    if let Some(id) = &args.restore {
        let store = Store::open(&dir)?;
        if store.restore(id)? {
            writeln!(
                out,
                "game {id} is back: its links open it again (a running server loads it on their next request)"
            )?;
            return Ok(ExitCode::SUCCESS);
        }
        eprintln!("no archived game {id} in {}", dir.display());
        return Ok(ExitCode::FAILURE);
    }
    let (games, damaged) = match Store::salvage(&dir) {
        Ok(found) => found,
        Err(pacw_server::store::StoreError::Missing { .. }) => {
            writeln!(out, "no games in {} (no database there)", dir.display())?;
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => {
            eprintln!("{e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let base = args.url.trim_end_matches('/');
    if let Some(to) = &args.export {
        std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    }
    let mut listed = Vec::new();
    for g in &games {
        let links: Vec<(String, String)> = g
            .tokens
            .pairs()
            .into_iter()
            .map(|(token, role)| (role.name().to_string(), format!("{base}{}", pacw_server::session::link(&token))))
            .collect();
        let status = match (g.archived, g.result.is_some()) {
            (true, _) => "archived",
            (false, true) => "finished",
            (false, false) => "in progress",
        };
        let updated = humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_millis(g.updated_at.max(0) as u64));
        if let Some(to) = &args.export {
            let file = to.join(format!("{}.json", g.id));
            let save = serde_json::to_string_pretty(&g.save).context("a save serialises")?;
            std::fs::write(&file, save).with_context(|| format!("cannot write {}", file.display()))?;
        }
        if args.json {
            listed.push(serde_json::json!({
                "id": g.id, "scenario": g.scenario_name, "mode": g.mode.name(), "status": status,
                "updated": updated.to_string(), "links": links.iter().cloned().collect::<std::collections::BTreeMap<_, _>>(),
            }));
        } else {
            let hint = if g.archived { " (no move for days: --restore brings it back)" } else { "" };
            writeln!(out, "{}  {}  {}  {status}{hint}, last changed {updated}", g.id, g.scenario_name, g.mode.name())?;
            for (role, link) in &links {
                writeln!(out, "    {role:<10} {link}")?;
            }
        }
    }
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({ "games": listed, "damaged": damaged.iter().map(|d| serde_json::json!({"id": d.id, "error": d.error})).collect::<Vec<_>>() })
            )?
        )?;
    } else {
        for d in &damaged {
            writeln!(out, "{}  cannot be read: {}", d.id, d.error)?;
        }
        if games.is_empty() && damaged.is_empty() {
            writeln!(out, "no games in {}", dir.display())?;
        }
        if let Some(to) = &args.export {
            writeln!(out, "{} game(s) saved in {}", games.len(), to.display())?;
        }
    }
    Ok(if damaged.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
