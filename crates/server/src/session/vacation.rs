//! Vacation days: a player with an account has an allowance of days each calendar year (UTC; `--vacation-days`, 14
//! by default, as a fortnight off a year). While they are on vacation the clock of every game of theirs played at a
//! pace of days stops: the deadline of a move of theirs is pushed by the time spent on vacation after the move
//! passed to them and before it ran out (deadline.rs), so no reminder is sent and no win claimed meanwhile. Live
//! games are not affected.
//!
//! A vacation starts now, for a number of whole days the player still has this year, and ends on its own after them
//! or earlier when the player ends it; the days a vacation uses are the days begun while it lasted (at least one),
//! counted in the year it started. The ledger of vacations is stored (schema 9) and kept in memory, read by every deadline.

use super::Games;
use crate::error::{ApiError, ApiResult};
use crate::setup::{AccountId, DAY_MS};
use crate::store::{AccountRecord, VacationRecord};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The vacation days a player has a year unless the operator says otherwise (`--vacation-days`).
pub const DEFAULT_VACATION_DAYS: u32 = 14;

/// The most vacation days a server may give a year.
pub const MAX_VACATION_DAYS: u32 = 366;

/// `POST /api/account/vacation`: a vacation from now.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct StartVacation {
    /// For how many days: 1 to the days left this year.
    pub days: u32,
}

/// A player's vacation days, as they see them on their page.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct VacationView {
    /// The days a year this server gives.
    pub days_a_year: u32,
    /// The days used this year (the current vacation's days included).
    pub days_used: u32,
    /// The days left this year.
    pub days_left: u32,
    /// While on vacation: when it ends (ms since 1970).
    pub until: Option<i64>,
}

/// Every vacation of the ledger, by account, in the order they started.
#[derive(Default, Debug)]
pub(super) struct Ledger {
    by_account: HashMap<AccountId, Vec<VacationRecord>>,
}

impl Ledger {
    /// The ledger of the stored vacations.
    pub(super) fn of(records: Vec<VacationRecord>) -> Ledger {
        let mut ledger = Ledger::default();
        for v in records {
            ledger.by_account.entry(v.account).or_default().push(v);
        }
        for list in ledger.by_account.values_mut() {
            list.sort_by_key(|v| v.started_at);
        }
        ledger
    }

    fn of_account(&self, account: AccountId) -> &[VacationRecord] {
        self.by_account.get(&account).map_or(&[], Vec::as_slice)
    }

    /// The vacation `account` is on at `now`, if any.
    fn current(&self, account: AccountId, now: i64) -> Option<VacationRecord> {
        self.of_account(account).iter().find(|v| v.started_at <= now && now < v.ends_at).copied()
    }

    /// The days `account` has used in the calendar year of `now`.
    fn days_used(&self, account: AccountId, now: i64) -> u32 {
        let year = year_of(now);
        let days: i64 = self
            .of_account(account)
            .iter()
            .filter(|v| year_of(v.started_at) == year)
            .map(|v| days_begun(v.ends_at - v.started_at))
            .sum();
        u32::try_from(days).unwrap_or(u32::MAX)
    }

    /// The deadline of a move that passed to `account` at `since` with `allowance` ms to make it, pushed by each
    /// vacation that began before it ran out, and the end of the vacation the player is on at `now`, if any.
    pub(super) fn deadline(&self, account: AccountId, since: i64, allowance: i64, now: i64) -> (i64, Option<i64>) {
        let mut at = since.saturating_add(allowance);
        for v in self.of_account(account).iter().filter(|v| v.ends_at > since) {
            let from = v.started_at.max(since);
            if from < at {
                at = at.saturating_add(v.ends_at - from);
            }
        }
        (at, self.current(account, now).map(|v| v.ends_at))
    }

    /// The end of the vacation `account` is on at `now`, if any.
    pub(super) fn on_vacation_until(&self, account: AccountId, now: i64) -> Option<i64> {
        self.current(account, now).map(|v| v.ends_at)
    }
}

/// Whole days, a day begun counting as one (and a vacation ended as soon as begun, as a day begun).
fn days_begun(ms: i64) -> i64 {
    ((ms.max(0) + DAY_MS - 1) / DAY_MS).max(1)
}

/// The calendar year (UTC) of a time in ms since 1970 (H. Hinnant's days-to-civil, for the year alone).
pub fn year_of(ms: i64) -> i64 {
    let days = ms.div_euclid(DAY_MS) + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    year_of_era + era * 400 + i64::from(month_from_march >= 10)
}

impl Games {
    pub(super) fn ledger(&self) -> std::sync::MutexGuard<'_, Ledger> {
        self.vacations.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The vacation days of `account`, now.
    pub fn vacation_view(&self, account: AccountId) -> VacationView {
        let now = self.clock.now_ms();
        let ledger = self.ledger();
        let days_a_year = self.config.vacation_days;
        let days_used = ledger.days_used(account, now);
        VacationView {
            days_a_year,
            days_used,
            days_left: days_a_year.saturating_sub(days_used),
            until: ledger.on_vacation_until(account, now),
        }
    }

    /// The end of the vacation `account` is on now, if any (shown to everyone on the player's page).
    pub fn on_vacation_until(&self, account: AccountId) -> Option<i64> {
        self.ledger().on_vacation_until(account, self.clock.now_ms())
    }

    /// The player starts a vacation now, for `req.days` days: the clocks of their games at a pace of days stop.
    ///
    /// # Errors
    /// When the days are 0 or more than a year (400); the server gives no vacation days, the player is on vacation
    /// already, or has fewer days left this year than asked (409, saying how many are left); or it cannot be stored
    /// (500).
    pub fn start_vacation(&self, account: &AccountRecord, req: StartVacation) -> ApiResult<VacationView> {
        if req.days == 0 || req.days > MAX_VACATION_DAYS {
            return Err(ApiError::BadRequest(format!("a vacation lasts 1 to {MAX_VACATION_DAYS} days")));
        }
        let a_year = self.config.vacation_days;
        if a_year == 0 {
            return Err(ApiError::Conflict("this server gives no vacation days".into()));
        }
        let now = self.clock.now_ms();
        let mut ledger = self.ledger();
        if let Some(v) = ledger.current(account.id, now) {
            return Err(ApiError::Conflict(format!(
                "you are on vacation already, for {} more; end it before starting another",
                super::deadline::duration_words(v.ends_at - now)
            )));
        }
        let left = a_year.saturating_sub(ledger.days_used(account.id, now));
        if left == 0 {
            return Err(ApiError::Conflict(format!(
                "you have no vacation days left this year: all {a_year} are used; they come back on 1 January"
            )));
        }
        if req.days > left {
            let plural = if left == 1 { "" } else { "s" };
            return Err(ApiError::Conflict(format!(
                "you have {left} vacation day{plural} left this year (of {a_year}): ask for {left} or fewer"
            )));
        }
        let v = VacationRecord {
            account: account.id,
            started_at: now,
            ends_at: now.saturating_add(i64::from(req.days) * DAY_MS),
        };
        self.store.add_vacation(&v).map_err(|e| ApiError::Internal(format!("the vacation was not stored: {e}")))?;
        let list = ledger.by_account.entry(account.id).or_default();
        list.push(v);
        list.sort_by_key(|v| v.started_at);
        drop(ledger);
        Ok(self.vacation_view(account.id))
    }

    /// The player comes back early: the vacation ends now, and the days not begun are theirs again.
    ///
    /// # Errors
    /// When the player is not on vacation (409), or it cannot be stored (500).
    pub fn end_vacation(&self, account: &AccountRecord) -> ApiResult<VacationView> {
        let now = self.clock.now_ms();
        let mut ledger = self.ledger();
        let Some(v) = ledger.current(account.id, now) else {
            return Err(ApiError::Conflict("you are not on vacation".into()));
        };
        self.store
            .end_vacation(account.id, v.started_at, now)
            .map_err(|e| ApiError::Internal(format!("the end of the vacation was not stored: {e}")))?;
        if let Some(kept) = ledger.by_account.get_mut(&account.id).and_then(|l| l.iter_mut().find(|k| **k == v)) {
            kept.ends_at = now;
        }
        drop(ledger);
        Ok(self.vacation_view(account.id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: AccountId = AccountId(1);

    fn ledger(periods: &[(i64, i64)]) -> Ledger {
        Ledger::of(
            periods
                .iter()
                .map(|&(s, e)| VacationRecord { account: ME, started_at: s * DAY_MS, ends_at: e * DAY_MS })
                .collect(),
        )
    }

    #[test]
    fn the_year_of_a_time_is_its_utc_calendar_year() {
        assert_eq!(year_of(0), 1970);
        assert_eq!(year_of(-1), 1969);
        assert_eq!(year_of(1_798_761_599_999), 2026, "the last millisecond of 2026");
        assert_eq!(year_of(1_798_761_600_000), 2027);
        assert_eq!(year_of(951_782_400_000), 2000, "29 February 2000");
    }

    #[test]
    fn a_vacation_pushes_a_deadline_it_began_before_and_not_one_that_had_passed() {
        // A move passed on day 10 with 3 days to make it: due on day 13.
        let (since, allowance) = (10 * DAY_MS, 3 * DAY_MS);
        assert_eq!(ledger(&[]).deadline(ME, since, allowance, since), (13 * DAY_MS, None));
        // On vacation from day 11 to 15: 4 days more, and on vacation on day 12.
        assert_eq!(ledger(&[(11, 15)]).deadline(ME, since, allowance, 12 * DAY_MS), (17 * DAY_MS, Some(15 * DAY_MS)));
        // On vacation already when the move passed (day 8 to 12): the clock starts on day 12.
        assert_eq!(ledger(&[(8, 12)]).deadline(ME, since, allowance, since).0, 15 * DAY_MS);
        // Gone before the move passed: nothing.
        assert_eq!(ledger(&[(2, 5)]).deadline(ME, since, allowance, since).0, 13 * DAY_MS);
        // Begun once the deadline had passed: it does not bring the move back.
        assert_eq!(ledger(&[(14, 16)]).deadline(ME, since, allowance, 15 * DAY_MS), (13 * DAY_MS, Some(16 * DAY_MS)));
        // Two vacations: the second begins before the pushed deadline.
        assert_eq!(ledger(&[(11, 12), (13, 14)]).deadline(ME, since, allowance, since).0, 15 * DAY_MS);
        // Another player's vacation does nothing.
        assert_eq!(ledger(&[(11, 15)]).deadline(AccountId(2), since, allowance, since).0, 13 * DAY_MS);
    }

    #[test]
    fn the_days_used_are_the_days_begun_of_the_vacations_started_this_year() {
        let jan_2027 = 1_798_761_600_000 / DAY_MS; // 1 January 2027, in days since 1970
        let hours = |h: i64| h * 3_600_000;
        let v = |s: i64, e: i64| VacationRecord { account: ME, started_at: s, ends_at: e };
        let day = |d: i64| (jan_2027 + d) * DAY_MS;
        let l = Ledger::of(vec![
            v(day(-2), day(3)),           // from 30 December 2026: counted in 2026
            v(day(5), day(5) + hours(2)), // two hours: a day begun
            v(day(10), day(13)),          // three days
        ]);
        assert_eq!(l.days_used(ME, day(20)), 4);
        assert_eq!(l.days_used(ME, day(-1)), 5);
        assert_eq!(l.current(ME, day(11)).map(|v| v.ends_at), Some(day(13)));
        assert_eq!(l.current(ME, day(13)), None, "over at its end");
    }
}
