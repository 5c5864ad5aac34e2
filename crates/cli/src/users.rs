//! `pacw users`: the operator's hand on the accounts of a data folder (list, rename, reset a password, disable or
//! enable). It works while the server runs: the server reads accounts and sessions from the database on every
//! request, so a disabled account is locked out at once.

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use pacw_server::store::{AccountRecord, Store};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, UNIX_EPOCH};

/// Arguments of `pacw users`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  pacw users list\n  pacw users --data ./club rename Bea Beatrice\n  \
                         pacw users reset-password Bea\n  echo 'new secret words' | pacw users reset-password Bea \
                         --password-stdin\n  pacw users disable Spammer")]
pub struct UsersArgs {
    /// The data folder (default: the server's, e.g. ~/.local/share/pacw-data).
    #[arg(long, value_name = "DIR", global = true)]
    pub data: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub action: UsersAction,
}

/// What `pacw users` does.
#[derive(Subcommand, Debug)]
pub enum UsersAction {
    /// List the accounts: name, when made, whether disabled, and rating.
    List {
        /// Print them as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Give an account another name (its games, rating and log-ins stay).
    Rename {
        /// Its name now (any case).
        name: String,
        /// The new name.
        new_name: String,
    },
    /// Set a new password and end the account's sessions; without --password-stdin a random one is made and printed.
    ResetPassword {
        /// The account's name.
        name: String,
        /// Read the new password from the first line of standard input.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Lock an account out: it cannot log in, its sessions end, its seats cannot act.
    Disable {
        /// The account's name.
        name: String,
    },
    /// Let a disabled account in again.
    Enable {
        /// The account's name.
        name: String,
    },
}

/// Runs `pacw users`.
///
/// # Errors
/// When the database cannot be opened or changed, a name or password is refused, or `out` cannot be written; an
/// unknown account is reported, with exit code 1.
pub fn run(args: UsersArgs, out: &mut impl Write, input: &mut impl BufRead) -> Result<ExitCode> {
    let dir = args.data.unwrap_or_else(pacw_server::default_data_dir);
    let store = Store::open(&dir)?;
    let found = |name: &str| -> Result<Option<AccountRecord>> { Ok(store.account_named(name)?) };
    let missing = |name: &str| {
        eprintln!("no account is called '{name}' in {} (see pacw users list)", dir.display());
        Ok(ExitCode::FAILURE)
    };
    match args.action {
        UsersAction::List { json } => {
            let accounts = store.accounts()?;
            let rows: Vec<_> = accounts
                .iter()
                .map(|a| {
                    let rating = store.rating(&format!("account:{}", a.id.0)).ok().flatten();
                    serde_json::json!({
                        "name": a.name,
                        "created": humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_millis(a.created_at.max(0) as u64)).to_string(),
                        "disabled": a.disabled,
                        "email": a.contact.email,
                        "webhook": a.contact.webhook,
                        "rating": rating.as_ref().map(|r| r.rating.round()),
                        "rated_games": rating.as_ref().map_or(0, |r| r.wins + r.losses + r.draws),
                    })
                })
                .collect();
            if json {
                writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
            } else if rows.is_empty() {
                writeln!(out, "no accounts in {}", dir.display())?;
            } else {
                for r in &rows {
                    let rating = r["rating"].as_f64().map_or("unrated".to_string(), |x| format!("rating {x}"));
                    let disabled = if r["disabled"] == true { ", disabled" } else { "" };
                    writeln!(
                        out,
                        "{}  (since {}, {rating}{disabled})",
                        r["name"].as_str().unwrap_or(""),
                        r["created"].as_str().unwrap_or("")
                    )?;
                }
            }
        }
        UsersAction::Rename { name, new_name } => {
            let Some(a) = found(&name)? else { return missing(&name) };
            let new_name = pacw_server::session::check_name(&new_name).map_err(|e| anyhow::anyhow!("{e}"))?;
            if !store.rename_account(a.id, &new_name)? {
                bail!("the name '{new_name}' is taken");
            }
            writeln!(out, "{} is now called {new_name}", a.name)?;
        }
        UsersAction::ResetPassword { name, password_stdin } => {
            let Some(a) = found(&name)? else { return missing(&name) };
            let password = if password_stdin {
                let mut line = String::new();
                input.read_line(&mut line).context("cannot read the password from standard input")?;
                line.trim_end_matches(['\r', '\n']).to_string()
            } else {
                pacw_server::tokens::new_token()
            };
            pacw_server::session::check_password(&password).map_err(|e| anyhow::anyhow!("{e}"))?;
            let hash = pacw_server::session::hash_password(&password).map_err(|e| anyhow::anyhow!("{e}"))?;
            store.set_password(a.id, &hash)?;
            if password_stdin {
                writeln!(out, "{}'s password is reset; their sessions have ended", a.name)?;
            } else {
                writeln!(
                    out,
                    "{}'s new password: {password}\n(their sessions have ended; send it to them privately)",
                    a.name
                )?;
            }
        }
        UsersAction::Disable { name } => {
            let Some(a) = found(&name)? else { return missing(&name) };
            store.set_disabled(a.id, true)?;
            writeln!(out, "{} is disabled: it cannot log in or act, and its sessions have ended", a.name)?;
        }
        UsersAction::Enable { name } => {
            let Some(a) = found(&name)? else { return missing(&name) };
            store.set_disabled(a.id, false)?;
            writeln!(out, "{} may log in again", a.name)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
