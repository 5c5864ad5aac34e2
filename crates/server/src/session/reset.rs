//! A forgotten password, reset by e-mail: a player gives their name or their account's e-mail address, and the
//! account's address is sent a link with a token that works once, for [`RESET_MINUTES`]. The token is kept only as
//! its SHA-256 (a copy of the database gives no working link). The answer is the same whether or not an account has
//! that name or address, and whether or not it has an address to send to: nobody learns from it who plays here.
//! Asking is limited per address (with the log-in attempts) and per account (a few messages an hour, past which
//! the request is answered alike and nothing is sent, so that nobody can fill a player's mailbox).

use super::Games;
use super::accounts::{check_password, hash_password};
use crate::error::{ApiError, ApiResult};
use crate::notify::{Contact, Notice};
use crate::store::AccountRecord;
use crate::tokens::new_token;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How long a reset link works, in minutes.
pub const RESET_MINUTES: i64 = 60;

/// The longest name or e-mail address a request may give, in bytes (an address has at most 254).
pub const MAX_RESET_WHO: usize = 254;

/// The most accounts one e-mail address is sent links for at once.
const ACCOUNTS_PER_EMAIL: usize = 5;

/// `POST /api/account/forgot`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Forgot {
    /// The account's name, or its e-mail address.
    pub who: String,
}

/// `POST /api/account/reset`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Reset {
    /// The token of the link sent.
    pub token: String,
    /// The new password.
    pub password: String,
}

/// The answer to a request for a reset, the same whoever asked.
#[derive(Serialize, Debug)]
pub struct ResetAsked {
    /// What happens now, in words.
    pub text: String,
}

/// The answer to a reset: the account's name, to log in with.
#[derive(Serialize, Debug)]
pub struct ResetDone {
    /// The account's name.
    pub name: String,
}

/// The hash a reset token is kept as: SHA-256, in hex (the token is 128 random bits: no salt or slow hash is
/// needed to keep it from being guessed back).
fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

impl Games {
    /// Sends a reset link to the e-mail address of the account with the name or address `req.who`, if there is one
    /// and it has an address; answers alike in every case.
    ///
    /// # Errors
    /// When the server sends no e-mail (404: the operator resets passwords, `pacw users reset-password`), the address has
    /// asked too often (429), `who` is blank or too long (400), or SQLite fails (500).
    pub fn forgot(&self, req: Forgot, client: &str, origin: &str) -> ApiResult<ResetAsked> {
        if !self.notifier.has_smtp() {
            return Err(ApiError::NotFound(
                "this server sends no e-mail: ask its operator to reset your password (pacw users reset-password)"
                    .into(),
            ));
        }
        self.logins_by_address.take(client)?;
        let who = req.who.trim();
        if who.is_empty() || who.len() > MAX_RESET_WHO {
            return Err(ApiError::BadRequest(format!(
                "give your account's name or e-mail address (at most {MAX_RESET_WHO} characters)"
            )));
        }
        let accounts = if who.contains('@') {
            self.store.accounts_with_email(who, ACCOUNTS_PER_EMAIL)
        } else {
            self.store.account_named(who).map(|a| a.into_iter().collect())
        }
        .map_err(|e| ApiError::Internal(e.to_string()))?;
        let origin = self.config.public_origin.as_deref().unwrap_or(origin).trim_end_matches('/').to_string();
        for account in accounts {
            self.send_reset(&account, &origin)?;
        }
        Ok(ResetAsked {
            text: format!(
                "If an account has this name or e-mail address, and an e-mail address to write to, a link to choose a \
                 new password is on its way there. It works once, for {RESET_MINUTES} minutes."
            ),
        })
    }

    /// Sends `account` a new reset link, unless it has no address, is disabled, or has been sent enough lately.
    fn send_reset(&self, account: &AccountRecord, origin: &str) -> ApiResult<()> {
        let Some(email) = account.contact.email.clone() else { return Ok(()) };
        if account.disabled || self.resets_by_account.take(&account.id.0.to_string()).is_err() {
            return Ok(());
        }
        let token = new_token();
        let expires_at = self.clock.now_ms() + RESET_MINUTES * 60_000;
        self.store
            .create_reset(account.id, &token_hash(&token), expires_at)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        // In the fragment: a browser never sends it to a server, so no log or `Referer` holds it.
        let link = format!("{origin}/account#reset={token}");
        let text = format!(
            "Someone, we hope you, asked to choose a new password for your pacw account '{}'. This link lets you do so, \
             once, for {RESET_MINUTES} minutes: {link}\n\nIf you did not ask, do nothing: your password stays as it is.",
            account.name
        );
        let contact = Contact { email: Some(email), webhook: None };
        let notice = Notice { subject: "pacw: choose a new password".into(), text, link };
        self.notifier.send(&self.runtime, &contact, notice);
        Ok(())
    }

    /// Sets a new password with a reset link's token, which is then used up; every session of the account ends.
    ///
    /// # Errors
    /// When the address has tried too often (429), the password is not right (400), the token is unknown, used or
    /// lapsed, or its account disabled (403, the same answer for each), or SQLite fails (500).
    pub fn reset_password(&self, req: Reset, client: &str) -> ApiResult<ResetDone> {
        self.logins_by_address.take(client)?;
        check_password(&req.password)?;
        let invalid = || {
            ApiError::Forbidden(format!(
                "this link does not work (any more): a link works once, for {RESET_MINUTES} minutes; ask for another"
            ))
        };
        if !crate::tokens::looks_like_token(&req.token) {
            return Err(invalid());
        }
        let account = self
            .store
            .take_reset(&token_hash(&req.token), self.clock.now_ms())
            .map_err(|e| ApiError::Internal(e.to_string()))?
            .ok_or_else(invalid)?;
        let account = self.account_record(account)?;
        if account.disabled {
            return Err(invalid());
        }
        let hash = hash_password(&req.password)?;
        self.store.set_password(account.id, &hash).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(ResetDone { name: account.name })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_kept_as_its_sha_256() {
        // The SHA-256 of "abc" (FIPS 180-2's example).
        assert_eq!(token_hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
