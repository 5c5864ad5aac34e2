//! The clock a search's time budget is counted by. Natively it is the standard library's `Instant`; in the browser
//! (`wasm32-unknown-unknown`, where the standard `Instant::now` panics) it is the page's own clock, imported from
//! the host as `pacw.now_ms` (milliseconds, as `performance.now()` gives them).

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use web::Instant;

#[cfg(target_arch = "wasm32")]
mod web {
    use std::ops::Add;
    use std::time::Duration;

    #[link(wasm_import_module = "pacw")]
    unsafe extern "C" {
        /// The host's monotonic clock in milliseconds (`performance.now()`).
        fn now_ms() -> f64;
    }

    /// A moment of the host's monotonic clock.
    #[derive(Copy, Clone, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number; the host gives it at instantiation.
            Instant(unsafe { now_ms() })
        }

        /// The time since this moment (zero if the clock went back).
        pub fn elapsed(&self) -> Duration {
            Duration::from_secs_f64(((Instant::now().0 - self.0) / 1000.0).max(0.0))
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;

        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }
}
