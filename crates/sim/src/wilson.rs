//! Wilson score intervals for a proportion (Wilson 1927): unlike the normal ("Wald") interval they stay inside
//! [0, 1] and keep their coverage for rates near 0 or 1 and for small samples.

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval `(low, high)` for `successes` out of `trials`; `(0, 1)` when there are no trials.
///
/// ```
/// let (low, high) = pacw_sim::wilson::interval(8, 10);
/// assert!((low - 0.4902).abs() < 1e-4 && (high - 0.9433).abs() < 1e-4);
/// ```
pub fn interval(successes: u64, trials: u64) -> (f64, f64) {
    interval_z(successes, trials, Z95)
}

/// The Wilson score interval for the normal quantile `z` (1.96 for 95%).
pub fn interval_z(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 and at n successes an end is exactly 0 or 1; rounding would leave it a hair inside.
    let low = if successes == 0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if successes >= trials { 1.0 } else { (centre + half).min(1.0) };
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9
    }

    #[test]
    fn known_values() {
        // Reference values from the closed form, computed independently (Python, statistics.NormalDist).
        assert!(close(interval(8, 10), (0.490_162_471_536_641_83, 0.943_317_848_545_624_7)));
        assert!(close(interval(50, 100), (0.403_831_530_365_995_7, 0.596_168_469_634_004_4)));
        assert!(close(interval(1, 1000), (0.000_176_546_370_626_078_09, 0.005_642_558_597_957_934)));
    }

    #[test]
    fn edges_stay_in_the_unit_interval() {
        let (low, high) = interval(0, 10);
        assert_eq!(low, 0.0);
        assert!((high - 0.277_532_799_862_889_15).abs() < 1e-9);
        let (low, high) = interval(10, 10);
        assert!((low - 0.722_467_200_137_110_9).abs() < 1e-9);
        assert_eq!(high, 1.0);
        assert_eq!(interval(0, 0), (0.0, 1.0));
    }

    #[test]
    fn the_interval_contains_the_rate_and_narrows_with_more_trials() {
        let (l1, h1) = interval(30, 100);
        let (l2, h2) = interval(300, 1000);
        assert!(l1 < 0.3 && 0.3 < h1);
        assert!(h2 - l2 < h1 - l1);
    }
}
