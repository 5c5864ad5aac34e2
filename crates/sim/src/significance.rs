//! Significance tests for differences of proportions: the two-proportion z-test (pooled variance, two-sided) and
//! the one-proportion z-test against a fixed rate.

/// The name of the test used to compare variants, as the reports print it.
pub const TWO_PROPORTION_TEST: &str = "two-proportion z-test (pooled variance, two-sided)";

/// The significance level the reports use.
pub const ALPHA: f64 = 0.05;

/// The result of a z-test.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
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
        ZTest { z, p_value: (2.0 * (1.0 - normal_cdf(z.abs()))).clamp(0.0, 1.0) }
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
        return ZTest { z: 0.0, p_value: 1.0 };
    }
    let (n1f, n2f) = (n1 as f64, n2 as f64);
    let pooled = (x1 + x2) as f64 / (n1f + n2f);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1f + 1.0 / n2f)).sqrt();
    if se == 0.0 {
        return ZTest { z: 0.0, p_value: 1.0 };
    }
    ZTest::from_z((x1 as f64 / n1f - x2 as f64 / n2f) / se)
}

/// Tests whether `x` successes of `n` are consistent with the rate `p0`: z = (x/n − p0) / √(p0(1−p0)/n).
pub fn one_proportion(x: u64, n: u64, p0: f64) -> ZTest {
    if n == 0 || p0 <= 0.0 || p0 >= 1.0 {
        return ZTest { z: 0.0, p_value: 1.0 };
    }
    let nf = n as f64;
    ZTest::from_z((x as f64 / nf - p0) / (p0 * (1.0 - p0) / nf).sqrt())
}

/// The standard normal distribution function Φ(z), to about 1e-7.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// The complementary error function, by the Chebyshev fit of Numerical Recipes (`erfcc`, relative error < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_cdf_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.96) - 0.975_002_104_851_779_6).abs() < 1e-7);
        assert!((normal_cdf(-1.0) - 0.158_655_253_931_457_07).abs() < 1e-7);
        assert!((normal_cdf(3.0) - 0.998_650_101_968_369_9).abs() < 1e-7);
    }

    #[test]
    fn two_proportion_known_values() {
        // Reference values computed independently (Python, statistics.NormalDist).
        let t = two_proportion(45, 100, 30, 100);
        assert!((t.z - 2.190_890_230_020_664_7).abs() < 1e-9);
        assert!((t.p_value - 0.028_459_736_916_310_43).abs() < 1e-6);
        assert!(t.significant());
        let t = two_proportion(520, 1000, 480, 1000);
        assert!((t.z - 1.788_854_381_999_833_3).abs() < 1e-9);
        assert!((t.p_value - 0.073_638_270_120_302_44).abs() < 1e-6);
        assert!(!t.significant());
    }

    #[test]
    fn the_test_is_antisymmetric_and_degenerate_cases_are_not_significant() {
        let a = two_proportion(30, 100, 45, 100);
        assert!((a.z + 2.190_890_230_020_664_7).abs() < 1e-9);
        assert_eq!(two_proportion(0, 10, 0, 10), ZTest { z: 0.0, p_value: 1.0 });
        assert_eq!(two_proportion(3, 0, 0, 10), ZTest { z: 0.0, p_value: 1.0 });
    }

    #[test]
    fn one_proportion_known_values() {
        // 60 of 100 against 0.5: z = 0.1 / 0.05 = 2, p = 0.0455.
        let t = one_proportion(60, 100, 0.5);
        assert!((t.z - 2.0).abs() < 1e-12);
        assert!((t.p_value - 0.045_500_263_896_358_4).abs() < 1e-6);
    }
}
