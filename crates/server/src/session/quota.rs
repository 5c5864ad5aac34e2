//! Each client's allowance of new games (a token bucket by address), so that no client can fill the disk and the
//! memory with games.

use crate::error::{ApiError, ApiResult};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Each client's allowance of new games: `burst` at once, then one every `every` (a token bucket), so that no
/// client can fill the disk and the memory with games.
pub struct Creations {
    burst: f64,
    every: Duration,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl Creations {
    /// An allowance of `per_hour` games an hour, a sixth of them (at least 10) at once.
    pub fn per_hour(per_hour: u32) -> Creations {
        let per_hour = per_hour.max(1);
        Creations {
            burst: f64::from((per_hour / 6).max(10)),
            every: Duration::from_secs_f64(3600.0 / f64::from(per_hour)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one game from `client`'s allowance, or says when the next one comes (429).
    pub(super) fn take(&self, client: &str) -> ApiResult<()> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        // Forget the clients whose allowance is whole again, so that the table stays small.
        let (burst, every) = (self.burst, self.every.as_secs_f64());
        buckets.retain(|_, (left, at)| *left + now.duration_since(*at).as_secs_f64() / every < burst);
        let (left, at) = buckets.entry(client.to_string()).or_insert((burst, now));
        *left = (*left + now.duration_since(*at).as_secs_f64() / every).min(burst);
        *at = now;
        if *left < 1.0 {
            let wait = ((1.0 - *left) * every).ceil() as u64;
            return Err(ApiError::TooMany(
                format!("too many new games from this address: the next one in {wait} s"),
                wait.max(1),
            ));
        }
        *left -= 1.0;
        Ok(())
    }
}
