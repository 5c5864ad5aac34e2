//! The time the deadlines of games are kept by: the system's clock, plus an offset that only a test clock moves.
//! The server holds one [`Clock`]; tests (and `pacw serve --test-clock`, for the browser tests) move it forward
//! instead of waiting, so a deadline days away passes at once and nothing in a test sleeps.

use std::sync::atomic::{AtomicI64, Ordering};

/// The most a test clock is moved at once: a year, in milliseconds.
pub const MAX_ADVANCE_MS: i64 = 366 * crate::setup::DAY_MS;

/// The server's clock.
#[derive(Debug, Default)]
pub struct Clock {
    /// Added to the system's time: 0 unless this is a test clock that was moved forward.
    offset_ms: AtomicI64,
    /// Whether it may be moved ([`Clock::testing`]).
    settable: bool,
}

impl Clock {
    /// The system's clock, which nothing moves.
    pub fn system() -> Clock {
        Clock::default()
    }

    /// A test clock: the system's time until [`Clock::advance`] moves it forward.
    pub fn testing() -> Clock {
        Clock { offset_ms: AtomicI64::new(0), settable: true }
    }

    /// Whether this is a test clock.
    pub fn is_settable(&self) -> bool {
        self.settable
    }

    /// Now, in milliseconds since 1970.
    pub fn now_ms(&self) -> i64 {
        crate::store::now_ms().saturating_add(self.offset_ms.load(Ordering::SeqCst))
    }

    /// Moves a test clock forward by `ms` (0 to [`MAX_ADVANCE_MS`]); returns the new time.
    ///
    /// # Errors
    /// When this is the system's clock, or `ms` is out of range: the message says which.
    pub fn advance(&self, ms: i64) -> Result<i64, String> {
        if !self.settable {
            return Err("this server keeps the system's time: only a test clock (--test-clock) is moved".into());
        }
        if !(0..=MAX_ADVANCE_MS).contains(&ms) {
            return Err(format!(
                "a test clock moves forward by 0 to {} days at once",
                MAX_ADVANCE_MS / crate::setup::DAY_MS
            ));
        }
        self.offset_ms.fetch_add(ms, Ordering::SeqCst);
        Ok(self.now_ms())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_clock_moves_forward_and_the_system_s_does_not() {
        let clock = Clock::testing();
        let before = clock.now_ms();
        let after = clock.advance(3 * crate::setup::DAY_MS).unwrap();
        assert!(after >= before + 3 * crate::setup::DAY_MS);
        assert!(clock.advance(-1).is_err(), "never back");
        assert!(clock.advance(MAX_ADVANCE_MS + 1).is_err());
        let system = Clock::system();
        assert!(system.advance(1).unwrap_err().contains("--test-clock"));
    }
}
