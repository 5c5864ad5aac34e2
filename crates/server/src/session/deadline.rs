//! Deadlines of two-player games played at a pace of days for each move (setup.rs `Pace`): the side to act has its
//! pace's days from when the move passed to it (`move_since`, by the server's clock, clock.rs). Before the deadline
//! its player is reminded through their notices; once it has passed the waiting player is told, and may claim the win
//! (the game ends "on time" through the one ending hook, change.rs, and is rated as a win). A live game has no
//! deadline. While the player to move is on vacation their clock stands still (vacation.rs): the deadline is pushed
//! by the time on vacation, and the time left shown is what their clock holds.

use super::change::Change;
use super::{EntryState, GameEntry, Games};
use crate::error::{ApiError, ApiResult};
use crate::notify::Notice;
use crate::setup::{DAY_MS, Mode, Pace};
use crate::tokens::Role;
use crate::view::{GameView, game_view};
use pacw_engine::{Declared, Side, ToAct};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Weak};
use std::time::Duration;

/// How often the server looks for deadlines near or passed.
const EVERY: Duration = Duration::from_secs(60);

/// What the players were told of the deadline of the move under way, and which deadline it was (a vacation moves
/// it: its player is reminded again before the new one).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub(super) enum DeadlineTold {
    /// Nothing yet.
    #[default]
    Nothing,
    /// The side to act was reminded that its deadline (ms since 1970) is near.
    Reminded(i64),
    /// The deadline passed: the waiting side was told it may claim the win.
    Overdue(i64),
}

impl DeadlineTold {
    /// What was told of the deadline `at`: nothing, if what was told was of another.
    fn of(self, at: i64) -> DeadlineTold {
        match self {
            DeadlineTold::Reminded(d) | DeadlineTold::Overdue(d) if d != at => DeadlineTold::Nothing,
            told => told,
        }
    }
}

/// The deadline of the move under way.
#[derive(Copy, Clone, Debug)]
pub(super) struct Due {
    /// The side to act.
    side: Side,
    /// When it must have moved by (ms since 1970), pushed by its player's vacations.
    at: i64,
    /// While its player is on vacation: when the vacation ends (their clock stands still until then).
    vacation_until: Option<i64>,
}

impl Due {
    /// What the side's clock holds at `now` (ms; 0 once passed): while on vacation, what it will hold when the
    /// vacation ends.
    fn left(&self, now: i64) -> i64 {
        (self.at - self.vacation_until.unwrap_or(now).max(now)).max(0)
    }
}

/// `GET /api/play/{token}/clock`: the game's pace and the deadline of the move under way, for anyone with a link.
#[derive(Serialize, Debug)]
pub struct ClockView {
    /// `live`, `1d`, `3d` or `7d`.
    pub pace: Pace,
    /// The pace in words: `live`, `3 days a move`.
    pub pace_text: String,
    /// The server's time now (ms since 1970): a page counts down from it, not from its own clock.
    pub now: i64,
    /// The side whose move it is, while the game goes on.
    pub to_act: Option<Side>,
    /// When that side must have moved by (ms since 1970), its vacation's days included; none for a live or finished
    /// game.
    pub deadline: Option<i64>,
    /// What that side's clock holds, in milliseconds (0 once passed): while its player is on vacation it stands
    /// still.
    pub left_ms: Option<i64>,
    /// While the player of that side is on vacation: when the vacation ends (ms since 1970).
    pub vacation_until: Option<i64>,
    /// Whether the deadline has passed.
    pub overdue: bool,
    /// Whether this link may claim the win now (`POST …/clock/claim`).
    pub can_claim: bool,
    /// Where it stands, in words.
    pub text: String,
}

/// `POST /api/test/clock`: moves a test clock forward (`pacw serve --test-clock` only).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AdvanceClock {
    /// Hours to move it forward: 0 to 8,784 (a year).
    pub hours: u32,
}

/// A length of time in words, to the minute begun (a deadline three days away reads `3 days` until a minute has
/// passed): `2 days 3 hours`, `5 hours 10 minutes`, `4 minutes`.
pub fn duration_words(ms: i64) -> String {
    let minutes = (ms.max(0) + 59_999) / 60_000;
    let (days, hours, mins) = (minutes / (24 * 60), minutes / 60 % 24, minutes % 60);
    let unit = |n: i64, one: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {one}s") };
    match (days, hours, mins) {
        (0, 0, 0) => "less than a minute".to_string(),
        (0, 0, m) => unit(m, "minute"),
        (0, h, 0) => unit(h, "hour"),
        (0, h, m) => format!("{} {}", unit(h, "hour"), unit(m, "minute")),
        (d, 0, _) => unit(d, "day"),
        (d, h, _) => format!("{} {}", unit(d, "day"), unit(h, "hour")),
    }
}

impl Games {
    /// The side to act and its deadline, if the game has one now: a two-player game with a pace of days, not over,
    /// a side to act; pushed by the vacations of that side's account.
    pub(super) fn due(&self, entry: &GameEntry, st: &EntryState) -> Option<Due> {
        let allowance = entry.pace.allowance_ms().filter(|_| entry.mode == Mode::TwoPlayers)?;
        let side = st.summary.to_act.filter(|_| st.summary.result.is_none())?;
        let (at, vacation_until) = match st.seats[side.index()].account() {
            Some(account) => self.ledger().deadline(account, st.move_since, allowance, self.clock.now_ms()),
            None => (st.move_since.saturating_add(allowance), None),
        };
        Some(Due { side, at, vacation_until })
    }

    /// What the clock of the side to act holds (ms; 0 once passed) and, while its player is on vacation, when that
    /// ends, if the game has a deadline now.
    pub(super) fn time_left(&self, entry: &GameEntry, st: &EntryState) -> Option<(i64, Option<i64>)> {
        self.due(entry, st).map(|due| (due.left(self.clock.now_ms()), due.vacation_until))
    }

    /// The game's pace and the deadline of the move under way, as `role` sees it (every link may see it).
    pub fn clock_view(&self, entry: &GameEntry, role: Role) -> ClockView {
        let st = entry.lock();
        let now = self.clock.now_ms();
        let due = self.due(entry, &st);
        let overdue = due.is_some_and(|d| now >= d.at);
        let can_claim = overdue
            && matches!((role, due), (Role::Side(me), Some(d)) if me != d.side)
            && self.check_enabled(&st, role).is_ok();
        let name = |side: Side| st.summary.players[side.index()].name.clone();
        let text = match due {
            None if st.summary.result.is_some() => "The game is over.".to_string(),
            None => format!("Pace: {}.", entry.pace.words()),
            Some(d) if overdue => {
                format!("{}’s time to move has run out: {} may claim the win.", name(d.side), name(d.side.other()))
            }
            Some(d) => match d.vacation_until {
                Some(until) => format!(
                    "{}’s player is on vacation for {} more: their clock stands at {} ({}).",
                    name(d.side),
                    duration_words(until - now),
                    duration_words(d.left(now)),
                    entry.pace.words()
                ),
                None => {
                    format!("{}’s move: {} left ({}).", name(d.side), duration_words(d.at - now), entry.pace.words())
                }
            },
        };
        ClockView {
            pace: entry.pace,
            pace_text: entry.pace.words(),
            now,
            to_act: st.summary.to_act.filter(|_| st.summary.result.is_none()),
            deadline: due.map(|d| d.at),
            left_ms: due.map(|d| d.left(now)),
            vacation_until: due.and_then(|d| d.vacation_until),
            overdue,
            can_claim,
            text,
        }
    }

    /// The waiting player claims the win: the other side has not moved by its deadline. The game ends "on time"
    /// (stored and pushed like a resignation, rated as a win).
    ///
    /// # Errors
    /// When the link is a spectator's or a hot-seat's, or its seat's account is disabled (403); the game is live, is
    /// over, it is the claimer's own move, or the deadline has not passed yet (409, saying when it will); or the
    /// game cannot be loaded or the ending stored (500).
    pub fn claim_win(self: &Arc<Self>, entry: &Arc<GameEntry>, role: Role) -> ApiResult<GameView> {
        let side = match role {
            Role::Side(side) if entry.mode == Mode::TwoPlayers => side,
            Role::Spectator => {
                return Err(ApiError::Forbidden("this is a spectator's link: it can only watch".into()));
            }
            _ => {
                return Err(ApiError::Forbidden(
                    "only a player of a two-player game (a link for one side) claims a win on time".into(),
                ));
            }
        };
        let mut st = entry.lock();
        self.check_enabled(&st, role)?;
        let live = self.loaded(&entry.id, &mut st)?;
        if live.game.battle().result().is_some() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        if entry.pace == Pace::Live {
            return Err(ApiError::Conflict("this game is live: it has no deadline to claim a win on".into()));
        }
        let late = match live.game.battle().to_act() {
            ToAct::Side(s) if s != side => s,
            _ => return Err(ApiError::Conflict("it is your move: there is nothing to claim".into())),
        };
        let Some(due) = self.due(entry, &st) else {
            return Err(ApiError::Conflict("this game has no deadline now".into()));
        };
        let now = self.clock.now_ms();
        if now < due.at {
            let player = &st.summary.players[late.index()].name;
            let pace = entry.pace.words();
            return Err(ApiError::Conflict(match due.vacation_until {
                Some(until) => format!(
                    "{player}’s player is on vacation for {} more, their clock stopped at {} ({pace}); you may \
                     claim the win once it has run out",
                    duration_words(until - now),
                    duration_words(due.left(now))
                ),
                None => format!(
                    "{player} has {} left to move ({pace}); you may claim the win once that has passed",
                    duration_words(due.at - now)
                ),
            }));
        }
        let live = self.loaded(&entry.id, &mut st)?;
        let mut next = live.clone();
        next.game.conclude(Declared::OutOfTime(late))?;
        next.revision += 1;
        let before_len = live.game.log().len();
        self.commit(entry, &mut st, next, Change::TimeClaimed { side }, before_len)?;
        let live = self.loaded(&entry.id, &mut st)?;
        Ok(game_view(&entry.ctx(role), live, 0, None))
    }

    /// Moves a test clock forward (`pacw serve --test-clock`), then looks at the deadlines at once; the new time.
    ///
    /// # Errors
    /// When the server keeps the system's time (404: there is no such thing to move), or the hours are out of range
    /// (400).
    pub fn advance_clock(&self, req: AdvanceClock) -> ApiResult<i64> {
        if !self.clock.is_settable() {
            return Err(ApiError::NotFound("this server keeps the system's time (no --test-clock)".into()));
        }
        let now = self.clock.advance(i64::from(req.hours) * (DAY_MS / 24)).map_err(ApiError::BadRequest)?;
        self.watch_deadlines();
        Ok(now)
    }

    /// Tells the players of every game with a deadline what is due: the side to act, once, when its deadline is
    /// near ([`Pace::reminder_ms`]); the waiting side, once, when it has passed. Returns how many notices were due.
    pub fn watch_deadlines(&self) -> usize {
        let entries: Vec<Arc<GameEntry>> = self
            .by_id
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .filter(|e| e.pace != Pace::Live && e.mode == Mode::TwoPlayers)
            .cloned()
            .collect();
        let now = self.clock.now_ms();
        let mut due = 0;
        for entry in entries {
            let mut st = entry.lock();
            let Some(Due { side, at, .. }) = self.due(&entry, &st) else { continue };
            let remind_from = at - entry.pace.reminder_ms().unwrap_or(0);
            let told = st.deadline_told.of(at);
            let title = st.summary.title.clone();
            let name = |s: Side| st.summary.players[s.index()].name.clone();
            let (late, waiting) = (name(side), name(side.other()));
            if now >= at && told != DeadlineTold::Overdue(at) {
                st.deadline_told = DeadlineTold::Overdue(at);
                due += 1;
                self.send_notice(&entry, side.other(), |url| Notice {
                    subject: format!("pacw: you may claim the win in {title}"),
                    text: format!(
                        "{late} has not moved by the deadline in {title}: you ({waiting}) may claim the win on time, \
                         or wait: {url}"
                    ),
                    link: url,
                });
            } else if now >= remind_from && now < at && told == DeadlineTold::Nothing {
                st.deadline_told = DeadlineTold::Reminded(at);
                due += 1;
                let left = duration_words(at - now);
                self.send_notice(&entry, side, |url| Notice {
                    subject: format!("pacw: {left} left for your move in {title}"),
                    text: format!(
                        "It is your move ({late}) in {title}, and {left} is left before your deadline; after it \
                         {waiting} may claim the win: {url}"
                    ),
                    link: url,
                });
            }
        }
        due
    }

    /// Looks at the deadlines every minute, for as long as the server runs.
    pub(super) fn keep_watching_deadlines(self: &Arc<Self>) {
        let games: Weak<Games> = Arc::downgrade(self);
        self.runtime.spawn(async move {
            loop {
                tokio::time::sleep(EVERY).await;
                match games.upgrade() {
                    Some(g) => drop(g.watch_deadlines()),
                    None => return,
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_length_of_time_is_said_to_the_minute_in_its_two_largest_units() {
        assert_eq!(duration_words(0), "less than a minute");
        assert_eq!(duration_words(-5), "less than a minute");
        assert_eq!(duration_words(60_000), "1 minute");
        assert_eq!(duration_words(3 * DAY_MS - 1), "3 days", "a minute begun counts");
        assert_eq!(duration_words(3 * 3_600_000), "3 hours");
        assert_eq!(duration_words(3_600_000 + 10 * 60_000), "1 hour 10 minutes");
        assert_eq!(duration_words(DAY_MS), "1 day");
        assert_eq!(duration_words(2 * DAY_MS + 3 * 3_600_000 + 59 * 60_000), "2 days 3 hours");
    }
}
