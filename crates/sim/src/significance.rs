//! Significance tests and intervals, with the distributions of `statrs`:
//! - for independent samples: the two-proportion z-test, the one-proportion z-test, Welch's t interval;
//! - for paired games (the same seed under two variants): McNemar's exact test for a yes/no outcome, and the paired
//!   t-test for a count;
//! - Holm's correction when several comparisons answer one question.

use serde::Serialize;
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal, StudentsT};

/// The significance level the reports use.
pub const ALPHA: f64 = 0.05;

/// The result of a z-test.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct ZTest {
    /// The test statistic.
    pub z: f64,
    /// The two-sided p-value.
    pub p_value: f64,
}

impl ZTest {
    /// Whether the difference is significant at [`ALPHA`].
    pub fn significant(&self) -> bool {
        self.p_value < ALPHA
    }

    fn from_z(z: f64) -> ZTest {
        ZTest { z, p_value: two_sided_normal(z) }
    }

    /// No evidence either way: z = 0, p = 1.
    pub const NONE: ZTest = ZTest { z: 0.0, p_value: 1.0 };
}

/// The standard normal distribution.
fn standard_normal() -> Normal {
    Normal::standard()
}

/// The standard normal distribution function Φ(z).
///
/// ```
/// assert!((pacw_sim::significance::normal_cdf(1.96) - 0.975_002_1).abs() < 1e-7);
/// ```
pub fn normal_cdf(z: f64) -> f64 {
    standard_normal().cdf(z)
}

/// The two-sided p-value of a standard normal statistic.
fn two_sided_normal(z: f64) -> f64 {
    (2.0 * standard_normal().sf(z.abs())).clamp(0.0, 1.0)
}

/// The 97.5% quantile of the standard normal, for 95% intervals.
pub fn z95() -> f64 {
    standard_normal().inverse_cdf(0.975)
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom (the normal's when `df` is not finite).
fn t95(df: f64) -> f64 {
    match StudentsT::new(0.0, 1.0, df) {
        Ok(t) if df.is_finite() => t.inverse_cdf(0.975),
        _ => z95(),
    }
}

/// The two-sided p-value of a t statistic with `df` degrees of freedom.
fn two_sided_t(t: f64, df: f64) -> f64 {
    match StudentsT::new(0.0, 1.0, df) {
        Ok(d) if df.is_finite() => (2.0 * d.sf(t.abs())).clamp(0.0, 1.0),
        _ => two_sided_normal(t),
    }
}

/// Tests whether `x1` successes of `n1` and `x2` of `n2` come from the same rate: z = (p1 − p2) / SE with the
/// pooled SE = √(p(1−p)(1/n1 + 1/n2)). With no trials on a side, or no variance, it reports z = 0, p = 1.
///
/// ```
/// let t = pacw_sim::significance::two_proportion(45, 100, 30, 100);
/// assert!((t.z - 2.1909).abs() < 1e-4 && (t.p_value - 0.02846).abs() < 1e-4);
/// ```
pub fn two_proportion(x1: u64, n1: u64, x2: u64, n2: u64) -> ZTest {
    if n1 == 0 || n2 == 0 {
        return ZTest::NONE;
    }
    let (n1f, n2f) = (n1 as f64, n2 as f64);
    let pooled = (x1 + x2) as f64 / (n1f + n2f);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1f + 1.0 / n2f)).sqrt();
    if se == 0.0 {
        return ZTest::NONE;
    }
    ZTest::from_z((x1 as f64 / n1f - x2 as f64 / n2f) / se)
}

/// Tests whether `x` successes of `n` are consistent with the rate `p0`: z = (x/n − p0) / √(p0(1−p0)/n).
pub fn one_proportion(x: u64, n: u64, p0: f64) -> ZTest {
    if n == 0 || p0 <= 0.0 || p0 >= 1.0 {
        return ZTest::NONE;
    }
    let nf = n as f64;
    ZTest::from_z((x as f64 / nf - p0) / (p0 * (1.0 - p0) / nf).sqrt())
}

/// A 95% interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Its lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

impl Interval {
    /// `centre ± half`.
    pub fn around(centre: f64, half: f64) -> Interval {
        Interval { low: centre - half, high: centre + half }
    }

    /// Its width.
    pub fn width(&self) -> f64 {
        self.high - self.low
    }
}

/// A difference with its interval and the p-value of the test that goes with it.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The difference (first minus second).
    pub difference: f64,
    /// Its 95% interval.
    pub interval: Interval,
    /// The two-sided p-value of "no difference".
    pub p_value: f64,
}

/// McNemar's exact test of paired yes/no outcomes: of the pairs that disagree, `b` said yes under the first
/// variant only and `c` under the second only; under "no difference" each disagreement goes either way with
/// probability ½, so the two-sided p-value is 2·P(X ≤ min(b, c)) for X ~ Binomial(b + c, ½), capped at 1.
///
/// # Panics
/// If statrs refuses the binomial distribution of probability ½, which it does only for a probability outside 0 to 1.
///
/// ```
/// // 12 against 4: p = 2 · (1 + 16 + 120 + 560 + 1820) / 2^16.
/// assert!((pacw_sim::significance::mcnemar(12, 4) - 0.076_812_744).abs() < 1e-9);
/// assert_eq!(pacw_sim::significance::mcnemar(0, 0), 1.0);
/// ```
pub fn mcnemar(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let binomial = Binomial::new(0.5, n).expect("a probability of one half");
    (2.0 * binomial.cdf(b.min(c))).min(1.0)
}

/// The paired difference of two rates over `n` pairs, `b` and `c` as in [`mcnemar`]: (b − c)/n with the Wald
/// interval of a paired difference, SE = √(b + c − (b − c)²/n) / n, and McNemar's exact p-value.
pub fn paired_proportions(b: u64, c: u64, n: u64) -> Estimate {
    if n == 0 {
        return Estimate { difference: 0.0, interval: Interval::around(0.0, 0.0), p_value: 1.0 };
    }
    let (bf, cf, nf) = (b as f64, c as f64, n as f64);
    let d = (bf - cf) / nf;
    let se = (bf + cf - (bf - cf).powi(2) / nf).max(0.0).sqrt() / nf;
    Estimate { difference: d, interval: Interval::around(d, z95() * se), p_value: mcnemar(b, c) }
}

/// The difference of two independent rates, `x1` of `n1` minus `x2` of `n2`, with the Wald interval
/// SE = √(p1(1−p1)/n1 + p2(1−p2)/n2) and the pooled two-proportion z-test.
pub fn unpaired_proportions(x1: u64, n1: u64, x2: u64, n2: u64) -> Estimate {
    let rate = |x: u64, n: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    let (p1, p2) = (rate(x1, n1), rate(x2, n2));
    let var = |p: f64, n: u64| if n == 0 { 0.0 } else { p * (1.0 - p) / n as f64 };
    let se = (var(p1, n1) + var(p2, n2)).sqrt();
    Estimate {
        difference: p1 - p2,
        interval: Interval::around(p1 - p2, z95() * se),
        p_value: two_proportion(x1, n1, x2, n2).p_value,
    }
}

/// Mean and sample variance.
fn mean_var(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() < 2 { 0.0 } else { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) };
    (mean, var)
}

/// The paired t-test and interval of per-pair differences `d` (first minus second).
///
/// ```
/// let e = pacw_sim::significance::paired_mean(&[1.0, 2.0, 3.0, 4.0, 5.0]);
/// assert!((e.difference - 3.0).abs() < 1e-12 && (e.p_value - 0.013_236).abs() < 1e-5);
/// ```
pub fn paired_mean(d: &[f64]) -> Estimate {
    let (mean, var) = mean_var(d);
    let n = d.len() as f64;
    if d.len() < 2 || var == 0.0 {
        let p = if mean == 0.0 || d.len() < 2 { 1.0 } else { 0.0 };
        return Estimate { difference: mean, interval: Interval::around(mean, 0.0), p_value: p };
    }
    let se = (var / n).sqrt();
    let df = n - 1.0;
    Estimate { difference: mean, interval: Interval::around(mean, t95(df) * se), p_value: two_sided_t(mean / se, df) }
}

/// Welch's t-test and interval of the difference of the means of two independent samples (first minus second).
///
/// ```
/// let e = pacw_sim::significance::welch(&[1.0, 2.0, 3.0, 4.0], &[2.0, 4.0, 6.0, 8.0]);
/// assert!((e.difference + 2.5).abs() < 1e-12 && (e.p_value - 0.151_58).abs() < 1e-4);
/// ```
pub fn welch(a: &[f64], b: &[f64]) -> Estimate {
    let ((ma, va), (mb, vb)) = (mean_var(a), mean_var(b));
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let d = ma - mb;
    if a.len() < 2 || b.len() < 2 {
        return Estimate { difference: d, interval: Interval::around(d, 0.0), p_value: 1.0 };
    }
    let (sa, sb) = (va / na, vb / nb);
    let se = (sa + sb).sqrt();
    if se == 0.0 {
        return Estimate {
            difference: d,
            interval: Interval::around(d, 0.0),
            p_value: if d == 0.0 { 1.0 } else { 0.0 },
        };
    }
    let df = (sa + sb).powi(2) / (sa * sa / (na - 1.0) + sb * sb / (nb - 1.0));
    Estimate { difference: d, interval: Interval::around(d, t95(df) * se), p_value: two_sided_t(d / se, df) }
}

/// The 95% t interval of a sample's mean.
pub fn mean_interval(xs: &[f64]) -> (f64, Interval) {
    let (mean, var) = mean_var(xs);
    if xs.len() < 2 {
        return (mean, Interval::around(mean, 0.0));
    }
    (mean, Interval::around(mean, t95(xs.len() as f64 - 1.0) * (var / xs.len() as f64).sqrt()))
}

/// Holm's step-down adjustment of `m` p-values that answer one question: sorted ascending, the i-th (from 0)
/// becomes max over j ≤ i of min(1, (m − j)·p(j)). A comparison is significant when its adjusted p-value is below
/// [`ALPHA`]; the family-wise error rate stays at most [`ALPHA`].
///
/// ```
/// let adjusted = pacw_sim::significance::holm(&[0.01, 0.04, 0.03, 0.005]);
/// let expected = [0.03, 0.06, 0.06, 0.02];
/// assert!(adjusted.iter().zip(expected).all(|(a, e)| (a - e).abs() < 1e-12));
/// ```
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![1.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_cdf_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-12);
        assert!((normal_cdf(1.96) - 0.975_002_104_851_779_6).abs() < 1e-9);
        assert!((normal_cdf(-1.0) - 0.158_655_253_931_457_07).abs() < 1e-9);
        assert!((z95() - 1.959_963_984_540_054).abs() < 1e-9);
    }

    #[test]
    fn two_proportion_known_values() {
        // Reference values computed independently (Python, statistics.NormalDist).
        let t = two_proportion(45, 100, 30, 100);
        assert!((t.z - 2.190_890_230_020_664_7).abs() < 1e-9);
        assert!((t.p_value - 0.028_459_736_916_310_43).abs() < 1e-9);
        assert!(t.significant());
        let t = two_proportion(520, 1000, 480, 1000);
        assert!((t.p_value - 0.073_638_270_120_302_44).abs() < 1e-9);
        assert!(!t.significant());
        assert_eq!(two_proportion(0, 10, 0, 10), ZTest::NONE);
        assert_eq!(two_proportion(3, 0, 0, 10), ZTest::NONE);
        // 60 of 100 against 0.5: z = 0.1 / 0.05 = 2, p = 0.0455.
        let t = one_proportion(60, 100, 0.5);
        assert!((t.z - 2.0).abs() < 1e-12 && (t.p_value - 0.045_500_263_896_358_4).abs() < 1e-9);
    }

    #[test]
    fn paired_and_unpaired_proportions_by_hand() {
        // 100 pairs: 12 yes/no, 4 no/yes. d = 0.08; SE = √(16 − 64/100)/100 = 0.039192; half-width 0.076815.
        let e = paired_proportions(12, 4, 100);
        assert!((e.difference - 0.08).abs() < 1e-12);
        assert!((e.interval.high - e.difference - 1.959_964 * 0.039_191_836).abs() < 1e-6);
        assert!((e.p_value - 0.076_812_744_140_625).abs() < 1e-12);
        // The same rates unpaired: 50/100 against 42/100. SE = √(.25/100 + .2436/100) = 0.070257.
        let u = unpaired_proportions(50, 100, 42, 100);
        assert!((u.difference - 0.08).abs() < 1e-12);
        assert!((u.interval.high - u.difference - 1.959_964 * 0.070_256_672).abs() < 1e-6);
        assert!(u.interval.width() > e.interval.width(), "pairing narrows the interval here");
    }

    #[test]
    fn t_tests_by_hand() {
        // d = 1..5: mean 3, sd √2.5, SE 0.70711, t(4) = 4.2426, t.975(4) = 2.776445.
        let e = paired_mean(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert!((e.interval.low - (3.0 - 2.776_445 * std::f64::consts::FRAC_1_SQRT_2)).abs() < 1e-5);
        assert!((e.p_value - 0.013_235_557).abs() < 1e-6);
        // Welch: means 2.5 and 5, SE 1.44338, df 4.4118, t = −1.7321, p = 0.15158.
        let w = welch(&[1.0, 2.0, 3.0, 4.0], &[2.0, 4.0, 6.0, 8.0]);
        assert!((w.p_value - 0.151_579_53).abs() < 1e-5);
        assert_eq!(paired_mean(&[2.0, 2.0]).p_value, 0.0);
        assert_eq!(paired_mean(&[0.0, 0.0]).p_value, 1.0);
        let (m, i) = mean_interval(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert!((m - 3.0).abs() < 1e-12 && (i.high - 3.0 - 2.776_445 * std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-5);
    }

    #[test]
    fn holm_keeps_order_and_caps_at_one() {
        assert_eq!(holm(&[0.5, 0.9]), vec![1.0, 1.0]);
        assert_eq!(holm(&[0.02]), vec![0.02]);
        assert!(holm(&[]).is_empty());
    }
}
