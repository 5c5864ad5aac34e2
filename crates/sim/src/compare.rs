//! Differences between variants: for each pair of variants, the first side's win rate, the draw rate and the share
//! of shaken units hit again before they recover, with a two-proportion z-test of each difference.

use crate::significance::{ALPHA, two_proportion};
use crate::stats::Summary;
use serde::Serialize;

/// One difference between two variants in one rate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// What is compared: `first side wins`, `draws` or `shaken units hit again`.
    pub metric: String,
    /// The first variant's label.
    pub a: String,
    /// The second variant's label.
    pub b: String,
    /// The rate under `a`.
    pub rate_a: f64,
    /// The rate under `b`.
    pub rate_b: f64,
    /// rate_a − rate_b.
    pub difference: f64,
    /// The z statistic.
    pub z: f64,
    /// The two-sided p-value.
    pub p_value: f64,
    /// Whether p < 0.05.
    pub significant: bool,
}

/// The differences between every pair of variants (in the order given), for the first side's win rate, the draw
/// rate and the share of shaken spells in which the unit was hit again, each tested with the two-proportion z-test.
pub fn differences(variants: &[(String, &Summary)]) -> Vec<Difference> {
    /// (successes, trials).
    type Count = fn(&Summary) -> (u64, u64);
    let metrics: [(&str, Count); 3] = [
        ("first side wins", |s| (s.sides[0].results.wins, s.games)),
        ("draws", |s| (s.draws, s.games)),
        ("shaken units hit again", |s| (s.shaken.hit_again.count, s.shaken.hit_again.of)),
    ];
    let mut out = Vec::new();
    for (metric, pick) in metrics {
        for i in 0..variants.len() {
            for j in i + 1..variants.len() {
                let (la, a) = &variants[i];
                let (lb, b) = &variants[j];
                let ((xa, na), (xb, nb)) = (pick(a), pick(b));
                let test = two_proportion(xa, na, xb, nb);
                let rate_a = xa as f64 / na.max(1) as f64;
                let rate_b = xb as f64 / nb.max(1) as f64;
                out.push(Difference {
                    metric: metric.to_string(),
                    a: la.clone(),
                    b: lb.clone(),
                    rate_a,
                    rate_b,
                    difference: rate_a - rate_b,
                    z: test.z,
                    p_value: test.p_value,
                    significant: test.p_value < ALPHA,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::config::{Compare, SimConfig};
    use crate::report::Report;
    use crate::run::run;
    use pacw_engine::Scenario;
    use std::sync::Arc;

    #[test]
    fn every_pair_of_variants_is_compared_on_each_rate() {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = 30;
        c.compare = Some(Compare::parse("initiative=cards,igougo,alternate").unwrap());
        let report = Report::new(&run(&c, &|| {}).unwrap(), None);
        let d = &report.differences;
        assert_eq!(d.len(), 9);
        let first = &d[0];
        assert_eq!(
            (first.metric.as_str(), first.a.as_str(), first.b.as_str()),
            ("first side wins", "initiative=cards", "initiative=igougo")
        );
        let (a, b) = (&report.variants[0].summary, &report.variants[1].summary);
        assert_eq!(first.rate_a, a.sides[0].results.win_rate);
        assert_eq!(first.rate_b, b.sides[0].results.win_rate);
        assert!((first.difference - (first.rate_a - first.rate_b)).abs() < 1e-12);
        assert_eq!(first.significant, first.p_value < 0.05);
        assert!(d.iter().all(|x| (0.0..=1.0).contains(&x.p_value)));
    }
}
