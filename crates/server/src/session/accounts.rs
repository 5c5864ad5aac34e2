//! Accounts, optional: a name and a password (hashed with argon2id through the `argon2` crate), log-in sessions
//! kept in a cookie, where the owner is told of their move by default, and claiming a guest's seat. A guest plays by
//! link as before; an account only adds a name that follows the person across games and devices.
//!
//! Forgery: every request that changes something for an account must carry the session's anti-forgery token in the
//! `X-Pacw-Csrf` header (given to the page by `GET /api/me`); guard.rs also refuses a state-changing request whose
//! `Origin` (or `Referer`) is another site's, or whose `Sec-Fetch-Site` says `cross-site`.

use super::{EntryState, GameEntry, Games, link};
use crate::error::{ApiError, ApiResult};
use crate::notify::Contact;
use crate::setup::{AccountId, Mode, Seat};
use crate::store::{AccountRecord, now_ms};
use crate::tokens::{Role, new_token};
use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The cookie that holds a log-in session's id.
pub const SESSION_COOKIE: &str = "pacw_session";

/// The request header that carries the session's anti-forgery token.
pub const CSRF_HEADER: &str = "x-pacw-csrf";

/// How long a log-in lasts, in days.
pub const SESSION_DAYS: i64 = 30;

/// The shortest and longest name, in characters.
pub const NAME_CHARS: (usize, usize) = (2, 24);

/// The shortest and longest password, in characters.
pub const PASSWORD_CHARS: (usize, usize) = (8, 128);

/// `POST /api/account/signup`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SignUp {
    /// The name: 2 to 24 letters, digits, spaces, `-`, `_`, `.` or `'`.
    pub name: String,
    /// The password: 8 to 128 characters.
    pub password: String,
    /// Where to be told of a move by default: an e-mail address.
    pub email: Option<String>,
    /// Or a webhook.
    pub webhook: Option<String>,
}

/// `POST /api/account/login`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct LogIn {
    /// The name (any case).
    pub name: String,
    /// The password.
    pub password: String,
}

/// `PUT /api/account`: where the owner is told of their move by default (blank: nowhere).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct AccountSettings {
    /// An e-mail address.
    pub email: Option<String>,
    /// A webhook URL.
    pub webhook: Option<String>,
}

/// `POST /api/account/claim`: a guest's link whose seat becomes the account's.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// The link's token.
    pub token: String,
}

/// A log-in just made: the account, the new session's id (for the cookie) and its anti-forgery token.
#[derive(Debug)]
pub struct LoggedIn {
    /// The account.
    pub account: AccountRecord,
    /// The session's id: the cookie's value.
    pub session: String,
    /// The session's anti-forgery token.
    pub csrf: String,
}

/// The logged-in account as its owner sees it (`GET /api/me`).
#[derive(Serialize, Debug)]
pub struct AccountView {
    /// The name.
    pub name: String,
    /// Where they are told of their move by default.
    #[serde(flatten)]
    pub contact: Contact,
    /// The anti-forgery token to send as `X-Pacw-Csrf` with every change.
    pub csrf: String,
    /// Whether the server can send e-mail.
    pub email_possible: bool,
}

/// The seat a claim gave.
#[derive(Serialize, Debug)]
pub struct Claimed {
    /// The game's id.
    pub id: String,
    /// The side whose seat is now the account's.
    pub side: pacw_engine::Side,
}

/// A name as given, trimmed, or why it is refused.
///
/// # Errors
/// When it is too short or long, or has a character other than letters, digits, spaces, `-`, `_`, `.` or `'`.
pub fn check_name(name: &str) -> ApiResult<String> {
    let name = name.trim();
    let n = name.chars().count();
    let (least, most) = NAME_CHARS;
    if n < least || n > most {
        return Err(ApiError::BadRequest(format!("a name has {least} to {most} characters")));
    }
    if !name.chars().all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.' | '\'')) {
        return Err(ApiError::BadRequest("a name has letters, digits, spaces and - _ . ' only".into()));
    }
    Ok(name.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Whether a password has an allowed length.
///
/// # Errors
/// When it is shorter or longer than [`PASSWORD_CHARS`].
pub fn check_password(password: &str) -> ApiResult<()> {
    let n = password.chars().count();
    let (least, most) = PASSWORD_CHARS;
    if n < least || n > most {
        return Err(ApiError::BadRequest(format!("a password has {least} to {most} characters")));
    }
    Ok(())
}

/// The argon2id hash of a password, with a fresh salt, as a PHC string (`$argon2id$v=19$…`).
///
/// # Errors
/// When the hash cannot be made (the system's random source fails): 500.
pub fn hash_password(password: &str) -> ApiResult<String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("the password could not be hashed: {e}")))
}

/// Whether `password` is the one `hash` was made of (a damaged hash matches nothing).
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

/// A hash no password is known for: checked when a name has no account, so that a wrong name costs the same
/// time as a wrong password and the two answer alike.
fn no_account_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| hash_password(&new_token()).unwrap_or_default())
}

/// The one answer to a failed log-in, whether the name or the password was wrong.
const WRONG: &str = "no account has this name and password";

impl Games {
    /// Makes an account and logs it in.
    ///
    /// # Errors
    /// When the address has tried too often (429), the name, password or contact is not right (400), an e-mail is
    /// given to a server that sends none (400), the name is taken (409), or it cannot be stored (500).
    pub fn sign_up(&self, req: SignUp, client: &str) -> ApiResult<LoggedIn> {
        self.logins_by_address.take(client)?;
        let name = check_name(&req.name)?;
        check_password(&req.password)?;
        let contact = Contact::new(req.email.as_deref(), req.webhook.as_deref()).map_err(ApiError::BadRequest)?;
        self.check_email_possible(&contact)?;
        let hash = hash_password(&req.password)?;
        let id = self
            .store
            .create_account(&name, &hash, &contact)
            .map_err(|e| ApiError::Internal(e.to_string()))?
            .ok_or_else(|| ApiError::Conflict(format!("the name '{name}' is taken; choose another")))?;
        let account = self.account_record(id)?;
        self.new_session(account)
    }

    /// Logs an account in with a new session (never the one the browser had: a session id planted before the
    /// log-in is worth nothing after it); `old` is ended.
    ///
    /// # Errors
    /// When the name or the address has tried too often (429), the name and password match no enabled account
    /// (401, the same answer for a wrong name and a wrong password), or SQLite fails (500).
    pub fn log_in(&self, req: LogIn, client: &str, old: Option<&str>) -> ApiResult<LoggedIn> {
        self.logins_by_address.take(client)?;
        // No account has so long a name or password: answered before the name becomes a key of the table of
        // allowances, which must stay small.
        if req.password.len() > 4 * PASSWORD_CHARS.1 || req.name.len() > 4 * NAME_CHARS.1 {
            return Err(ApiError::Unauthorized(WRONG.into()));
        }
        self.logins_by_name.take(&crate::store::name_key(req.name.trim()))?;
        let found = self.store.account_named(req.name.trim()).map_err(|e| ApiError::Internal(e.to_string()))?;
        let hash = found.as_ref().map_or(no_account_hash(), |a| a.password.as_str());
        let right = verify_password(&req.password, hash);
        let account = match found {
            Some(a) if right && !a.disabled => a,
            _ => return Err(ApiError::Unauthorized(WRONG.into())),
        };
        if let Some(old) = old {
            self.log_out(old);
        }
        self.new_session(account)
    }

    fn new_session(&self, account: AccountRecord) -> ApiResult<LoggedIn> {
        let (session, csrf) = (new_token(), new_token());
        self.store.create_session(&session, account.id, &csrf).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(LoggedIn { account, session, csrf })
    }

    pub(super) fn account_record(&self, id: AccountId) -> ApiResult<AccountRecord> {
        self.store
            .account(id)
            .map_err(|e| ApiError::Internal(e.to_string()))?
            .ok_or_else(|| ApiError::Internal("the account is gone".into()))
    }

    fn check_email_possible(&self, contact: &Contact) -> ApiResult<()> {
        if contact.email.is_some() && !self.notifier.has_smtp() {
            return Err(ApiError::BadRequest(
                "this server sends no e-mail (its operator has not given pacw serve --smtp); give a webhook".into(),
            ));
        }
        Ok(())
    }

    /// Ends a session (logging out); an unknown one is no error.
    pub fn log_out(&self, session: &str) {
        if let Err(e) = self.store.delete_session(session) {
            eprintln!("pacw server: a session could not be ended: {e}");
        }
    }

    /// The enabled account of a session id and the session's anti-forgery token, if the session is current.
    ///
    /// # Errors
    /// When SQLite fails (500).
    pub fn session_account(&self, session: &str) -> ApiResult<Option<(AccountRecord, String)>> {
        if !crate::tokens::looks_like_token(session) {
            return Ok(None);
        }
        let since = now_ms() - SESSION_DAYS * 24 * 3600 * 1000;
        self.store.session(session, since).map_err(|e| ApiError::Internal(e.to_string()))
    }

    /// The account as its owner sees it.
    pub fn account_view(&self, account: &AccountRecord, csrf: &str) -> AccountView {
        AccountView {
            name: account.name.clone(),
            contact: account.contact.clone(),
            csrf: csrf.to_string(),
            email_possible: self.notifier.has_smtp(),
        }
    }

    /// Sets where the account's owner is told of their move in the games they join from now on.
    ///
    /// # Errors
    /// When the e-mail address or the webhook is not right, or an e-mail is given to a server that sends none (400),
    /// or it cannot be stored (500).
    pub fn set_account_contact(&self, account: &AccountRecord, req: AccountSettings) -> ApiResult<Contact> {
        let contact = Contact::new(req.email.as_deref(), req.webhook.as_deref()).map_err(ApiError::BadRequest)?;
        self.check_email_possible(&contact)?;
        self.store.set_account_contact(account.id, &contact).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(contact)
    }

    /// The seat a guest's link plays becomes the account's: the game is then on the account's page, and counts
    /// for its results. The link keeps working as before. The account's default notices are given to the game
    /// if the seat had none.
    ///
    /// # Errors
    /// When the token opens no game (404/410), is a spectator's or a hot-seat's (one link for both sides), or its
    /// account already holds the other side (403), the seat is another account's (409), or it cannot be stored
    /// (500).
    pub fn claim(
        self: &std::sync::Arc<Self>,
        account: &AccountRecord,
        token: &str,
        origin: &str,
    ) -> ApiResult<Claimed> {
        let (entry, role) = self.by_token(token)?;
        let Role::Side(side) = role else {
            return Err(ApiError::Forbidden(
                "only a link for one side can be claimed (a hot-seat link plays both sides; a spectator's plays none)"
                    .into(),
            ));
        };
        let mut st = entry.lock();
        let mut seats = st.seats.clone();
        match &seats[side.index()] {
            Seat::Account { account: a, .. } if *a == account.id => {
                return Ok(Claimed { id: entry.id.clone(), side });
            }
            Seat::Account { .. } => {
                return Err(ApiError::Conflict("this side's seat already belongs to an account".into()));
            }
            Seat::Computer { .. } => return Err(ApiError::Forbidden("that side is played by the computer".into())),
            Seat::Guest { .. } => {}
        }
        if seats[side.other().index()].account() == Some(account.id) {
            return Err(ApiError::Forbidden("you already hold the other side of this game".into()));
        }
        seats[side.index()] = Seat::Account { account: account.id, token: token.to_string() };
        self.store.update_seats(&entry.id, &seats).map_err(|e| ApiError::Internal(e.to_string()))?;
        st.seats = seats;
        drop(st);
        self.give_default_contact(&entry, side, account, token, origin);
        Ok(Claimed { id: entry.id.clone(), side })
    }

    /// Gives a two-player game's side the account's default notices, unless the seat has its own; a move owed to
    /// the side (the first, when the game was made before its seat had anywhere to tell) is then told.
    pub(super) fn give_default_contact(
        &self,
        entry: &GameEntry,
        side: pacw_engine::Side,
        account: &AccountRecord,
        token: &str,
        origin: &str,
    ) {
        if entry.mode != Mode::TwoPlayers || account.contact.is_empty() {
            return;
        }
        let key = if side == pacw_engine::Side::A { "A" } else { "B" };
        if matches!(self.store.load_contact(&entry.id, key), Ok(None)) {
            let origin = self.config.public_origin.as_deref().unwrap_or(origin);
            let url = format!("{}{}", origin.trim_end_matches('/'), link(token));
            if let Err(e) = self.store.save_contact(&entry.id, key, &account.contact, &url) {
                eprintln!("pacw server: game {}: the account's notices could not be given: {e}", entry.id);
                return;
            }
            let mut st = entry.lock();
            self.tell_owed(entry, &mut st, side);
        }
    }

    /// Refuses a change by a link whose seat belongs to a disabled account.
    pub(super) fn check_enabled(&self, st: &EntryState, role: Role) -> ApiResult<()> {
        for side in role.sides() {
            if let Some(id) = st.seats[side.index()].account() {
                let account = self.store.account(id).map_err(|e| ApiError::Internal(e.to_string()))?;
                if account.is_none_or(|a| a.disabled) {
                    return Err(ApiError::Forbidden(
                        "the account that holds this seat is disabled by the server's operator: it cannot act".into(),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The `Set-Cookie` value that keeps a session for [`SESSION_DAYS`] (`secure`: only over HTTPS); HttpOnly, so
/// no script reads it; SameSite=Lax, so no other site's request carries it except a plain link followed.
pub fn session_cookie(session: &str, secure: bool) -> String {
    let max_age = SESSION_DAYS * 24 * 3600;
    let secure = if secure { "; Secure" } else { "" };
    format!("{SESSION_COOKIE}={session}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}")
}

/// The `Set-Cookie` value that ends the session cookie.
pub fn cleared_cookie(secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{secure}")
}

/// The session id a request's `Cookie` headers carry, if any.
pub fn session_of(headers: &axum::http::HeaderMap) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == SESSION_COOKIE)
        .map(|(_, v)| v.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_hashed_with_argon2id_and_only_it_matches() {
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("correct horsE", &hash));
        assert!(!verify_password("correct horse", "not a hash"));
        assert_ne!(hash, hash_password("correct horse").unwrap(), "a fresh salt each time");
    }

    #[test]
    fn names_are_bounded_and_plain() {
        assert_eq!(check_name("  Bea   Smith ").unwrap(), "Bea Smith");
        assert_eq!(check_name("O'Brien").unwrap(), "O'Brien");
        assert_eq!(check_name("Zoë_2").unwrap(), "Zoë_2");
        for bad in ["a", "", &"x".repeat(25), "<script>", "bea\u{0}", "a&b", "a\"b"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_password("short").is_err());
        assert!(check_password(&"p".repeat(129)).is_err());
        assert!(check_password("long enough").is_ok());
    }

    #[test]
    fn the_cookie_is_http_only_same_site_and_secure_over_https() {
        let plain = session_cookie("abc", false);
        assert!(plain.contains("HttpOnly") && plain.contains("SameSite=Lax") && !plain.contains("Secure"), "{plain}");
        assert!(session_cookie("abc", true).ends_with("; Secure"));
        let mut headers = axum::http::HeaderMap::new();
        headers.insert(axum::http::header::COOKIE, "theme=dark; pacw_session=abc ; x=y".parse().unwrap());
        assert_eq!(session_of(&headers).as_deref(), Some("abc"));
    }
}
