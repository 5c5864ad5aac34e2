//! Allowances kept per client (token buckets): new games per address or logged-in account, so that no client can fill the disk and the
//! memory with games; and log-in attempts per name and per address, so that a password cannot be guessed by the
//! thousand.

use crate::error::{ApiError, ApiResult};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// An allowance of something per key (an address, a name): `burst` at once, then one every `every` (a token bucket).
pub struct Allowance {
    burst: f64,
    every: Duration,
    /// What the refusal says was too many, such as "too many new games from this address".
    what: &'static str,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

/// Each client's allowance of new games.
pub type Creations = Allowance;

impl Allowance {
    /// `burst` at once, then one every `every`; a refusal says `what` was too many.
    pub fn new(burst: u32, every: Duration, what: &'static str) -> Allowance {
        Allowance { burst: f64::from(burst.max(1)), every, what, buckets: Mutex::new(HashMap::new()) }
    }

    /// An allowance of `per_hour` games an hour, a sixth of them (at least 10) at once.
    pub fn per_hour(per_hour: u32) -> Allowance {
        let per_hour = per_hour.max(1);
        Allowance::new(
            (per_hour / 6).max(10),
            Duration::from_secs_f64(3600.0 / f64::from(per_hour)),
            "too many new games from this address or account",
        )
    }

    /// Takes one from `key`'s allowance, or says when the next one comes (429).
    pub(super) fn take(&self, key: &str) -> ApiResult<()> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        // Forget the keys whose allowance is whole again, so that the table stays small.
        let (burst, every) = (self.burst, self.every.as_secs_f64());
        buckets.retain(|_, (left, at)| *left + now.duration_since(*at).as_secs_f64() / every < burst);
        let (left, at) = buckets.entry(key.to_string()).or_insert((burst, now));
        *left = (*left + now.duration_since(*at).as_secs_f64() / every).min(burst);
        *at = now;
        if *left < 1.0 {
            let wait = ((1.0 - *left) * every).ceil() as u64;
            return Err(ApiError::TooMany(format!("{}: the next one in {wait} s", self.what), wait.max(1)));
        }
        *left -= 1.0;
        Ok(())
    }
}
