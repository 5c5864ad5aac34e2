//! Differences between variants. Games are paired (the same seed and sides in every variant, [`crate::run()`]), so
//! a statistic measured once a game is compared game by game: McNemar's exact test for a yes/no outcome (did the
//! first side win?), the paired t-test for a number (turns). Each difference also gets the interval it would have
//! had from independent games, so the gain from pairing shows. Statistics that are shares of events rather than of
//! games (losses to shooting, charges, shaken units hit again) are compared as independent proportions.
//!
//! The p-values of the comparisons of one statistic are adjusted with Holm's method: with several variants, the
//! chance of calling any difference of that statistic significant by luck stays below 5%.

use crate::record::{GameRecord, TargetOutcome, first_side_score};
use crate::run::Simulation;
use crate::significance::{
    ALPHA, Estimate, Interval, holm, paired_mean, paired_proportions, unpaired_proportions, welch,
};
use pacw_engine::AttackKind;
use pacw_engine::Side;
use serde::Serialize;

/// What a statistic is made of, which decides how it is compared.
#[derive(Copy, Clone)]
enum Measure {
    /// A yes/no outcome of each game.
    Binary(fn(&GameRecord) -> bool),
    /// A number for each game.
    Number(fn(&GameRecord) -> f64),
    /// A share of events: (count, of) in each game, summed over the games.
    Share(fn(&GameRecord) -> (u64, u64)),
    /// A number for each game reviewed for its luck (`simulate --luck`); compared only when every game was.
    Reviewed(fn(&GameRecord) -> Option<f64>),
}

/// A statistic the variants are compared on.
#[derive(Copy, Clone)]
pub struct Metric {
    /// Its name, as the reports print it.
    pub name: &'static str,
    /// Whether its values are rates (printed as percentages) rather than counts.
    pub is_rate: bool,
    measure: Measure,
    /// Whether it is compared only when the variants differ in their players (`--compare players=…`): a player's
    /// score says nothing a side's does not under rules that differ, and the side's says little of players who do.
    players_only: bool,
}

impl Metric {
    /// A statistic of every comparison.
    const fn of(name: &'static str, is_rate: bool, measure: Measure) -> Metric {
        Metric { name, is_rate, measure, players_only: false }
    }

    /// Whether the games can be compared on it: a statistic of reviewed games needs every game reviewed, a
    /// player's statistic players that differ.
    fn applies(&self, games: &[Vec<&GameRecord>], players_differ: bool) -> bool {
        let reviewed = match self.measure {
            Measure::Reviewed(f) => games.iter().flatten().all(|r| f(r).is_some()),
            _ => true,
        };
        reviewed && (players_differ || !self.players_only)
    }
}

fn score(r: &GameRecord) -> f64 {
    first_side_score(r.stats.winner)
}

/// The statistics comparisons report, in order: the luck-adjusted scores only of games reviewed for their luck,
/// the first player's scores only when the variants compare players.
pub const METRICS: [Metric; 11] = [
    Metric::of("first side wins", true, Measure::Binary(|r| r.stats.winner == Some(Side::A))),
    Metric::of("first side's score (a draw counts half)", true, Measure::Number(score)),
    Metric::of("first side's score, luck-adjusted", true, Measure::Reviewed(GameRecord::luck_adjusted)),
    Metric {
        name: "first player's score (a draw counts half)",
        is_rate: true,
        measure: Measure::Number(|r| r.score_of(0)),
        players_only: true,
    },
    Metric {
        name: "first player's score, luck-adjusted",
        is_rate: true,
        measure: Measure::Reviewed(|r| r.luck_adjusted_of(0)),
        players_only: true,
    },
    Metric::of("draws", true, Measure::Binary(|r| r.stats.winner.is_none())),
    Metric::of("turns", false, Measure::Number(|r| r.stats.turns as f64)),
    Metric::of("units destroyed a game", false, Measure::Number(|r| r.stats.destroyed.iter().sum::<u32>() as f64)),
    Metric::of(
        "losses to shooting",
        true,
        Measure::Share(|r| {
            let [shot, charged] = r.stats.attacks.0.map(|c| c[TargetOutcome::Destroyed] as u64);
            (shot, shot + charged)
        }),
    ),
    Metric::of(
        "share of charges",
        true,
        Measure::Share(|r| {
            let (shots, charges) =
                (r.stats.attacks[AttackKind::Fire].total(), r.stats.attacks[AttackKind::Charge].total());
            (charges as u64, (shots + charges) as u64)
        }),
    ),
    Metric::of(
        "shaken units hit again",
        true,
        Measure::Share(|r| (r.stats.spells.hit_again as u64, r.stats.spells.spells as u64)),
    ),
];

/// The names of the tests, as the reports print them.
pub const TESTS: &str = "games are paired by seed: McNemar's exact test for wins and draws, the paired t-test for \
                         the scores (luck-adjusted too), turns and units destroyed; shares of attacks and of shaken spells by the \
                         two-proportion z-test; p-values adjusted with Holm's method over the comparisons of each \
                         statistic";

/// One difference between two variants in one statistic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// The statistic (one of [`METRICS`]).
    pub metric: String,
    /// Whether it is a rate (else a count or a mean).
    pub is_rate: bool,
    /// The variant compared from.
    pub a: String,
    /// The variant compared to.
    pub b: String,
    /// The statistic under `a`.
    pub value_a: f64,
    /// The statistic under `b`.
    pub value_b: f64,
    /// value_b − value_a.
    pub difference: f64,
    /// Its 95% interval from the paired games (`None` for shares of events, which are not paired).
    pub paired: Option<Interval>,
    /// Its 95% interval as if the games were independent.
    pub unpaired: Interval,
    /// The test: `McNemar`, `paired t` or `two-proportion z`.
    pub test: String,
    /// The test's two-sided p-value.
    pub p_value: f64,
    /// The p-value after Holm's adjustment over the comparisons of this statistic.
    pub p_holm: f64,
    /// Whether `p_holm` < 0.05.
    pub significant: bool,
    /// Games compared in each variant.
    pub games: u64,
}

impl Difference {
    /// The interval the test goes with: the paired one when there is one.
    pub fn interval(&self) -> Interval {
        self.paired.unwrap_or(self.unpaired)
    }
}

/// The pairs of variants to compare: every pair when there are at most four, else each against the first.
pub fn contrasts(variants: usize, against_first: bool) -> Vec<(usize, usize)> {
    if against_first || variants > 4 {
        (1..variants).map(|b| (0, b)).collect()
    } else {
        (0..variants).flat_map(|a| (a + 1..variants).map(move |b| (a, b))).collect()
    }
}

/// Compares `metric` between the games of two variants, paired game by game.
fn compare(
    metric: &Metric,
    a: &[&GameRecord],
    b: &[&GameRecord],
) -> (f64, f64, Option<Estimate>, Estimate, &'static str) {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    debug_assert!(a.iter().zip(b).all(|(x, y)| (x.scenario, x.index) == (y.scenario, y.index)));
    match metric.measure {
        Measure::Binary(f) => {
            let (xa, xb) = (a.iter().filter(|r| f(r)).count() as u64, b.iter().filter(|r| f(r)).count() as u64);
            // Disagreeing pairs: yes under b only, and under a only.
            let to_b = a.iter().zip(b).filter(|(x, y)| !f(x) && f(y)).count() as u64;
            let to_a = a.iter().zip(b).filter(|(x, y)| f(x) && !f(y)).count() as u64;
            let n = n as u64;
            let rate = |x: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
            (rate(xa), rate(xb), Some(paired_proportions(to_b, to_a, n)), unpaired_proportions(xb, n, xa, n), "McNemar")
        }
        Measure::Number(f) => numbers(a, b, f),
        // Compared only when every game has one (Metric::applies).
        Measure::Reviewed(f) => numbers(a, b, |r| f(r).unwrap_or(0.0)),
        Measure::Share(f) => {
            let total = |rs: &[&GameRecord]| rs.iter().map(|r| f(r)).fold((0, 0), |(x, n), (dx, dn)| (x + dx, n + dn));
            let ((xa, na), (xb, nb)) = (total(a), total(b));
            let rate = |x: u64, n: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
            (rate(xa, na), rate(xb, nb), None, unpaired_proportions(xb, nb, xa, na), "two-proportion z")
        }
    }
}

/// A number of each game compared game by game: the means under `a` and `b`, the paired estimate, the unpaired one.
fn numbers(
    a: &[&GameRecord],
    b: &[&GameRecord],
    f: impl Fn(&GameRecord) -> f64,
) -> (f64, f64, Option<Estimate>, Estimate, &'static str) {
    let mean = |xs: &[f64]| if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / xs.len() as f64 };
    let (va, vb): (Vec<f64>, Vec<f64>) = (a.iter().map(|r| f(r)).collect(), b.iter().map(|r| f(r)).collect());
    let d: Vec<f64> = vb.iter().zip(&va).map(|(y, x)| y - x).collect();
    (mean(&va), mean(&vb), Some(paired_mean(&d)), welch(&vb, &va), "paired t")
}

/// The differences, for every statistic of [`METRICS`] that applies, between the given pairs of variants, over the games of
/// scenario `s` or (`None`) of all scenarios. Statistics come first, then pairs in the order given.
pub fn differences(sim: &Simulation, s: Option<usize>, pairs: &[(usize, usize)]) -> Vec<Difference> {
    let games: Vec<Vec<&GameRecord>> = (0..sim.variants.len()).map(|v| sim.records_of(s, v)).collect();
    let mut out = Vec::new();
    let players_differ = sim.variants.windows(2).any(|w| w[0].players != w[1].players);
    // Pooled by attacker, the first side of every record is the attacker: the statistics say so.
    let by_attacker = s.is_none() && sim.pooled_by_attacker();
    for metric in METRICS.iter().filter(|m| m.applies(&games, players_differ)) {
        let name = if by_attacker { metric.name.replace("first side", "attacker") } else { metric.name.to_string() };
        let start = out.len();
        for &(a, b) in pairs {
            let (value_a, value_b, paired, unpaired, test) = compare(metric, &games[a], &games[b]);
            let p_value = paired.map_or(unpaired.p_value, |e| e.p_value);
            out.push(Difference {
                metric: name.clone(),
                is_rate: metric.is_rate,
                a: sim.variants[a].label(),
                b: sim.variants[b].label(),
                value_a,
                value_b,
                difference: value_b - value_a,
                paired: paired.map(|e| e.interval),
                unpaired: unpaired.interval,
                test: test.to_string(),
                p_value,
                p_holm: p_value,
                significant: false,
                games: games[a].len().min(games[b].len()) as u64,
            });
        }
        let family = &mut out[start..];
        let adjusted = holm(&family.iter().map(|d| d.p_value).collect::<Vec<_>>());
        for (d, p) in family.iter_mut().zip(adjusted) {
            d.p_holm = p;
            d.significant = p < ALPHA;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Axis, SimConfig};
    use crate::run::run;
    use pacw_engine::Scenario;
    use std::sync::Arc;

    fn sim(axis: &str, games: usize) -> Simulation {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = games;
        c.compare(vec![Axis::parse(axis).unwrap()]).unwrap();
        run(&c, &|| {}).unwrap()
    }

    #[test]
    fn pairs_are_all_pairs_up_to_four_variants_else_against_the_first() {
        assert_eq!(contrasts(3, false), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(contrasts(3, true), [(0, 1), (0, 2)]);
        assert_eq!(contrasts(5, false).len(), 4);
    }

    #[test]
    fn every_pair_is_compared_on_each_statistic_with_holm_within_a_statistic() {
        let sim = sim("initiative=cards,igougo,alternate", 40);
        let d = differences(&sim, None, &contrasts(3, false));
        // Every statistic but the luck-adjusted scores (which need games reviewed for their luck) and the first
        // player's (which need players compared).
        assert_eq!(d.len(), 3 * (METRICS.len() - 3));
        assert!(d.iter().all(|x| !x.metric.contains("luck") && !x.metric.contains("player")));
        let first = &d[0];
        assert_eq!(
            (first.metric.as_str(), first.a.as_str(), first.b.as_str()),
            ("first side wins", "initiative=cards", "initiative=igougo")
        );
        let wins =
            |v: usize| sim.records_of(None, v).iter().filter(|r| r.stats.winner == Some(Side::A)).count() as f64 / 40.0;
        assert_eq!((first.value_a, first.value_b), (wins(0), wins(1)));
        assert!((first.difference - (wins(1) - wins(0))).abs() < 1e-12);
        let family = &d[..3];
        let adjusted = holm(&family.iter().map(|x| x.p_value).collect::<Vec<_>>());
        assert!(family.iter().zip(adjusted).all(|(x, p)| x.p_holm == p && x.p_holm >= x.p_value));
        assert!(d.iter().all(|x| x.significant == (x.p_holm < ALPHA)));
        assert!(d.iter().filter(|x| x.metric == "shaken units hit again").all(|x| x.paired.is_none()));
    }

    #[test]
    fn identical_variants_differ_by_nothing_and_pairing_sees_it() {
        let mut c = SimConfig::new(
            Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap()),
            pacw_engine::DEFAULT_SCENARIO,
            "m.toml",
        );
        c.games = 30;
        c.luck = true;
        c.compare(vec![Axis { option: "to_hit".into(), values: vec!["5".into(), "5".into()] }]).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        let d = differences(&sim, None, &[(0, 1)]);
        assert_eq!(d.len(), METRICS.len() - 2, "games reviewed for their luck: every statistic but the players'");
        for d in d {
            assert_eq!(d.difference, 0.0, "{}", d.metric);
            assert_eq!(d.p_value, 1.0, "{}", d.metric);
            if let Some(paired) = d.paired {
                // The same games: the paired interval has no width, the unpaired one does (unless no variance).
                assert_eq!(paired.width(), 0.0, "{}", d.metric);
            }
        }
    }

    #[test]
    fn players_compared_are_compared_on_the_first_player_s_score_too() {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = 20;
        c.players = ["random".into(), "greedy".into()];
        c.luck = true;
        c.compare(vec![Axis::parse("players=random,greedy").unwrap()]).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        let d = differences(&sim, None, &[(0, 1)]);
        assert_eq!(d.len(), METRICS.len(), "every statistic: the games were reviewed, the players differ");
        let mine = |v: usize| {
            let games = sim.records_of(None, v);
            games.iter().map(|r| r.score_of(0)).sum::<f64>() / games.len() as f64
        };
        let first = d.iter().find(|x| x.metric == "first player's score (a draw counts half)").unwrap();
        assert_eq!((first.value_a, first.value_b), (mine(0), mine(1)));
        // Random against greedy, then greedy against greedy: the first player's score rises, adjusted or not.
        assert!(first.difference > 0.2 && first.significant, "{first:?}");
        let adjusted = d.iter().find(|x| x.metric == "first player's score, luck-adjusted").unwrap();
        assert!(adjusted.difference > 0.2, "{adjusted:?}");
    }
}
