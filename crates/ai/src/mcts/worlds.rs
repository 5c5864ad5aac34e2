//! The common-world search (the default): the root's best candidates by the greedy ranking, each played out in the
//! same sampled worlds, and the greedy choice kept unless another candidate is confidently better.

use super::chance::outcome_in_world;
use super::{
    Allocation, Budget, DEFAULT_STOP_EARLY, MctsConfig, Measured, Plan, Playout, Ranking, WorldChance, side_weights,
};
use crate::TdPlayer;
use crate::clock::Instant;
use crate::greedy::judgement::Weights;
use crate::greedy::scripts::Assignment;
use crate::greedy::{GreedyPlayer, greedy_choice, ranked_actions, ranked_unit_orders};
use pacw_engine::{Action, Battle, Side, ToAct};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The root's best `max_children` candidates, each valued over the same sampled worlds: every world decides the chance
/// (as `config.chance` says) and seeds the rollout policy identically for every candidate, so the candidates are
/// compared on common random numbers. With `config.orders_per_unit`, a choice of the unit to activate is compared
/// as activations each with one of the unit's best orders.
///
/// The worlds are played in rounds of [`ROUND_WORLDS`], shared out among `threads`; each play-out's value is added
/// as a whole number of millionths, so the tally after a round, and with it the choice, is the same whatever the
/// number of threads. After each round the search stops early if `config.stop_early` says the choice is settled;
/// under [`Allocation::Racing`] each candidate that is settled stops being played, and the play-outs it would have
/// had go to those still in the race. With [`MctsConfig::bank`] the search may also spend play-outs `saved` by
/// earlier decisions that were settled before their budget.
pub(super) fn common_world_search(
    root: &Battle,
    config: &MctsConfig,
    seed: u64,
    saved: usize,
    assignment: Option<&Assignment>,
) -> Searched {
    let ToAct::Side(side) = root.to_act() else { unreachable!("the search is asked only when a side acts") };
    let policy = |seed: u64, weights: [Weights; 2]| {
        let greedy = GreedyPlayer::with_weights(seed, weights);
        match assignment {
            Some(assignment) => greedy.with_assignment(assignment.clone()),
            None => greedy,
        }
    };
    let mut ranker = policy(seed, side_weights(config, side));
    let candidates = candidates(&mut ranker, root, config, seed);
    if candidates.len() == 1 {
        return Searched { plan: candidates[0], worlds: 0, saved, measured: Vec::new() };
    }
    let started = Instant::now();
    let playout = Playout::new(root, config);
    let play_world = |w: usize, values: &mut [i64], racing: &[bool]| {
        let world = seed ^ (w as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for ((value, plan), _) in values.iter_mut().zip(&candidates).zip(racing).filter(|(_, racing)| **racing) {
            let mut b = root.clone();
            b.apply(plan.action).expect("ranked actions are legal");
            if let Some(order) = plan.order {
                b.apply(order).expect("ranked orders are legal");
            }
            let mut weights = playout.weights;
            if config.opponent_mix > 0 && (w as u32).is_multiple_of(config.opponent_mix + 1) {
                weights[side.other().index()] = Weights::TUNED;
            }
            let mut policy = policy(world, weights);
            let v = match config.chance {
                WorldChance::Sequential => {
                    let mut rng = ChaCha8Rng::seed_from_u64(world);
                    playout.value(b, &mut policy, |b| b.sample_chance(&mut rng).expect("chance is pending"))
                }
                WorldChance::ByEvent => {
                    playout.value(b, &mut policy, |b| outcome_in_world(b, world).expect("chance is pending"))
                }
            };
            *value = (v * 1e6).round() as i64;
        }
    };
    let own = match config.budget.for_battle(root, config.scaled_floor) {
        Budget::Iterations(n) | Budget::Scaled(n) => (n as usize).max(candidates.len()),
        Budget::Millis(_) => usize::MAX,
    };
    let extra = saved.min(own.saturating_mul(config.bank.saturating_sub(1) as usize));
    let side_a = side == Side::A;
    let deadline = config.time_limit.map(|limit| started + limit);
    let tally =
        play_rounds(own.saturating_add(extra), candidates.len(), config, side_a, started, deadline, &play_world);
    let mut choice = tally.choice(side_a, config.confidence);
    let (mut worlds, mut spent) = (tally.worlds, tally.playouts());
    if config.second_opinion && choice != 0 {
        let again = second_opinion(&tally, choice, config.threads, deadline, &play_world);
        (worlds, spent) = (worlds + again.worlds, spent + again.playouts());
        if !confirmed(&again, choice, side_a) {
            choice = 0;
        }
    }
    let plan = candidates[choice];
    let saved = if own == usize::MAX { 0 } else { saved.saturating_add(own).saturating_sub(spent) };
    let measured = candidates.iter().enumerate().map(|(i, c)| tally.measured(i, side_a, c)).collect();
    Searched { plan, worlds, saved, measured }
}

/// What a common-world search chose, and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Searched {
    /// The chosen plan.
    pub(super) plan: Plan,
    /// The worlds played to choose it.
    pub(super) worlds: usize,
    /// The play-outs saved for later decisions ([`MctsConfig::bank`]): those saved before, and this decision's own
    /// budget, less what it spent.
    pub(super) saved: usize,
    /// How each candidate measured against the greedy choice (the first), best first by the greedy ranking; empty
    /// where there was nothing to compare.
    pub(super) measured: Vec<Measured>,
}

/// Plays rounds of worlds until `playouts` play-outs are spent, the choice is settled or the time is up (a
/// [`Budget::Millis`] counted from `started`, or the `deadline` of [`MctsConfig::time_limit`]), and returns their
/// tally. `play_world` values the candidates still in the race in one world.
pub(super) fn play_rounds(
    playouts: usize,
    candidates: usize,
    config: &MctsConfig,
    side_a: bool,
    started: Instant,
    deadline: Option<Instant>,
    play_world: &(impl Fn(usize, &mut [i64], &[bool]) + Sync),
) -> Tally {
    let mut tally = Tally::new(candidates);
    let mut racing = vec![true; candidates];
    loop {
        let in_race = racing.iter().filter(|r| **r).count();
        // The worlds each candidate still in the race gets if the race stays as it is.
        let planned = tally.worlds + playouts.saturating_sub(tally.playouts()) / in_race;
        if tally.worlds >= planned {
            return tally;
        }
        let round = tally.worlds..planned.min(tally.worlds + ROUND_WORLDS);
        tally = tally.merge(play_round(round, config.threads.max(1), &racing, deadline, play_world));
        let settled = match (config.allocation, config.stop_early) {
            (Allocation::Even, None) => false,
            (Allocation::Even, Some(z)) => tally.settled(side_a, config.confidence, planned, z),
            (Allocation::Racing, z) => {
                let z = z.unwrap_or(DEFAULT_STOP_EARLY);
                let left = playouts.saturating_sub(tally.playouts()) / in_race;
                for (i, r) in racing.iter_mut().enumerate().skip(1) {
                    *r = *r && !tally.candidate_settled(i, side_a, config.confidence, tally.played[i] + left, z);
                }
                racing.iter().skip(1).all(|r| !r)
            }
        };
        let out_of_time = matches!(config.budget, Budget::Millis(ms) if started.elapsed() >= Duration::from_millis(ms))
            || deadline.is_some_and(|d| Instant::now() >= d);
        if settled || out_of_time {
            return tally;
        }
    }
}

/// A second opinion on candidate `choice`, chosen over the greedy choice on the worlds of `tally`
/// ([`MctsConfig::second_opinion`]): as many fresh worlds (those after them: every world is seeded by its number),
/// played by the two alone. Past the `deadline` no fresh world is begun. The search counts them as its own, and
/// charges their play-outs to its budget.
fn second_opinion(
    tally: &Tally,
    choice: usize,
    threads: usize,
    deadline: Option<Instant>,
    play_world: &(impl Fn(usize, &mut [i64], &[bool]) + Sync),
) -> Tally {
    let racing: Vec<bool> = (0..tally.played.len()).map(|i| i == 0 || i == choice).collect();
    let fresh = tally.worlds..tally.worlds + tally.played[choice];
    play_round(fresh, threads.max(1), &racing, deadline, play_world)
}

/// Whether candidate `choice` still leads the greedy choice on the fresh worlds of a [`second_opinion`]; with none
/// played (out of time) it does not.
fn confirmed(again: &Tally, choice: usize, side_a: bool) -> bool {
    again.played[choice] > 0 && again.mean_and_deviation(choice, side_a).0 > 0.0
}

/// The worlds a round of the common-world search plays before it asks whether its choice is settled (and, under a
/// time budget, whether its time is up).
pub(super) const ROUND_WORLDS: usize = 50;

/// Plays the worlds of one round on `threads` threads, each taking the next world not yet taken, and tallies them:
/// in each world the candidates still `racing` (the first, the greedy choice, always is). Past the `deadline` no new
/// world is begun (the first world of the search is always played).
fn play_round(
    worlds: Range<usize>,
    threads: usize,
    racing: &[bool],
    deadline: Option<Instant>,
    play_world: &(impl Fn(usize, &mut [i64], &[bool]) + Sync),
) -> Tally {
    let next = AtomicUsize::new(worlds.start);
    let candidates = racing.len();
    let work = || {
        let mut tally = Tally::new(candidates);
        let mut values = vec![0i64; candidates];
        loop {
            let w = next.fetch_add(1, Ordering::Relaxed);
            if w >= worlds.end || (w > 0 && deadline.is_some_and(|d| Instant::now() >= d)) {
                return tally;
            }
            play_world(w, &mut values, racing);
            tally.add(&values, racing);
        }
    };
    if threads == 1 {
        return work();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        let parts = handles.into_iter().map(|h| h.join().expect("search threads do not panic"));
        parts.fold(Tally::new(candidates), Tally::merge)
    })
}

/// The search's candidates, best first by the greedy judgement (the first is the greedy choice), or by the
/// network's under [`Ranking::Network`].
fn candidates(ranker: &mut GreedyPlayer, root: &Battle, config: &MctsConfig, seed: u64) -> Vec<Plan> {
    let single = |action| Plan { action, order: None };
    if config.ranking == Ranking::Network {
        return network_candidates(ranker, root, config.max_children, seed);
    }
    if config.orders_per_unit == 0 || root.active_unit().is_some() {
        return ranked_actions(ranker, root).into_iter().take(config.max_children).map(single).collect();
    }
    let mut plans: Vec<(Plan, f32)> = ranked_unit_orders(ranker, root, config.orders_per_unit)
        .into_iter()
        .map(|(unit, order, gain)| (Plan { action: Action::Activate(unit), order }, gain))
        .collect();
    if root.is_legal(Action::EndActivations) {
        let end = (single(Action::EndActivations), config.weights.worth_activating);
        // Greedy ends the activations unless a unit gains more than that (as `greedy_choice`).
        let at = plans.partition_point(|(_, gain)| *gain > end.1);
        plans.insert(at, end);
    }
    plans.into_iter().take(config.max_children).map(|(plan, _)| plan).collect()
}

/// The network's best plans at one ply (`td`'s ranking; its choice first), with greedy's choice second: at most
/// `max_children`, and never fewer than the two choices.
fn network_candidates(ranker: &mut GreedyPlayer, root: &Battle, max_children: usize, seed: u64) -> Vec<Plan> {
    let ToAct::Side(side) = root.to_act() else { return Vec::new() };
    let mut td = TdPlayer::new(crate::network::shared(), seed);
    let mut judged = td.judge_plans(root, side).to_vec();
    // Best first; the engine's order breaks ties, so the ranking is the same for a seed.
    judged.sort_by(|a, b| b.1.total_cmp(&a.1));
    // Plans that differ only in the facing they end with are one candidate, the best-judged facing standing for
    // them: the search's slots go to different squares, targets and units.
    let mut seen = Vec::new();
    let mut plans: Vec<Plan> = judged
        .iter()
        .filter(|(c, _)| {
            let key = (c.first, c.then.map(without_facing));
            let new = !seen.contains(&key);
            if new {
                seen.push(key);
            }
            new
        })
        .map(|(c, _)| Plan { action: c.first, order: c.then })
        // No more than the search can take: greedy's choice, if further down, is put second all the same.
        .take(max_children.max(2))
        .collect();
    let Ok(action) = greedy_choice(ranker, root) else {
        plans.truncate(max_children);
        return plans;
    };
    // Greedy chooses an activation's order once the unit is active: its plan is the activation alone.
    let greedy = Plan { action, order: None };
    let at = plans.iter().position(|&p| p == greedy);
    match at {
        Some(i) if i > 0 => {
            let plan = plans.remove(i);
            plans.insert(1, plan);
        }
        Some(_) => {}
        None => plans.insert(1.min(plans.len()), greedy),
    }
    plans.truncate(max_children.max(2));
    plans
}

/// `order` with the facing it ends with set aside (all read as north): the square it ends on, its target and its kind
/// kept.
fn without_facing(order: Action) -> Action {
    use pacw_engine::Dir;
    match order {
        Action::Move { to, .. } => Action::Move { to, facing: Dir::N },
        Action::MoveFire { to, target, .. } => Action::MoveFire { to, facing: Dir::N, target },
        Action::Advance { to, .. } => Action::Advance { to, facing: Dir::N },
        Action::Fire { target, .. } => Action::Fire { target, facing: Dir::N },
        other => other,
    }
}

/// For each candidate, the worlds it was played in and the sum and the sum of squares over them of its play-outs'
/// difference from the first candidate's (the greedy choice, played in every world), in whole millionths so that the
/// sums do not depend on the order the threads add them in.
pub(super) struct Tally {
    pub(super) worlds: usize,
    played: Vec<usize>,
    differences: Vec<i64>,
    difference_squares: Vec<i128>,
}

impl Tally {
    fn new(candidates: usize) -> Tally {
        Tally {
            worlds: 0,
            played: vec![0; candidates],
            differences: vec![0; candidates],
            difference_squares: vec![0; candidates],
        }
    }

    /// One world's values, one per candidate, of which those `racing` were played.
    fn add(&mut self, values: &[i64], racing: &[bool]) {
        self.worlds += 1;
        for (i, &v) in values.iter().enumerate().filter(|&(i, _)| racing[i]) {
            let d = v - values[0];
            self.played[i] += 1;
            self.differences[i] += d;
            self.difference_squares[i] += (d as i128).pow(2);
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.worlds += other.worlds;
        self.played.iter_mut().zip(other.played).for_each(|(x, y)| *x += y);
        self.differences.iter_mut().zip(other.differences).for_each(|(x, y)| *x += y);
        self.difference_squares.iter_mut().zip(other.difference_squares).for_each(|(x, y)| *x += y);
        self
    }

    /// The play-outs played so far, over every candidate.
    fn playouts(&self) -> usize {
        self.played.iter().sum()
    }

    /// Whether the choice is settled after the worlds so far, `planned` in all: no candidate other than the greedy
    /// choice could still beat it by `confidence` standard errors at the end, even were its mean `optimism` standard
    /// errors better than measured so far. (A candidate that has played exactly as the greedy choice in every world
    /// so far is settled too.)
    fn settled(&self, side_a: bool, confidence: f32, planned: usize, optimism: f32) -> bool {
        (1..self.differences.len()).all(|i| self.candidate_settled(i, side_a, confidence, planned, optimism))
    }

    /// Whether candidate `i` could no longer beat the greedy choice by `confidence` standard errors after `planned`
    /// worlds, even were its mean `optimism` standard errors better than measured so far.
    fn candidate_settled(&self, i: usize, side_a: bool, confidence: f32, planned: usize, optimism: f32) -> bool {
        let n = self.played[i].max(1) as f64;
        let (mean, deviation) = self.mean_and_deviation(i, side_a);
        let needed = confidence as f64 * deviation / (planned.max(1) as f64).sqrt();
        mean + optimism as f64 * deviation / n.sqrt() <= needed
    }

    /// The mean and standard deviation over the worlds of candidate `i`'s paired difference from the greedy choice,
    /// for the side choosing.
    fn mean_and_deviation(&self, i: usize, side_a: bool) -> (f64, f64) {
        let n = self.played[i].max(1) as f64;
        let sign = if side_a { 1.0 } else { -1.0 };
        let mean = sign * self.differences[i] as f64 / n;
        let variance = (self.difference_squares[i] as f64 / n - mean * mean).max(0.0);
        (mean, variance.sqrt())
    }

    /// Candidate `i`'s (`plan`'s) measurement against the greedy choice for the side choosing, in the leaf's units
    /// (the tally counts in millionths).
    fn measured(&self, i: usize, side_a: bool, plan: &Plan) -> Measured {
        let (mean, deviation) = self.mean_and_deviation(i, side_a);
        let worlds = self.played[i];
        let standard_error = deviation / (worlds.max(1) as f64).sqrt() / 1e6;
        Measured { action: plan.action, order: plan.order, worlds, mean: mean / 1e6, standard_error }
    }

    /// The candidate to play: the greedy choice, unless another leads it by more than `confidence` standard errors
    /// of their paired difference — a noisy estimate must not talk the search out of a good move — and then the one
    /// with the greatest such margin. Values are for the first side; `side_a` says whether it chooses.
    pub(super) fn choice(&self, side_a: bool, confidence: f32) -> usize {
        let margin = |i: usize| {
            let (mean, deviation) = self.mean_and_deviation(i, side_a);
            mean - confidence as f64 * deviation / (self.played[i].max(1) as f64).sqrt()
        };
        (1..self.differences.len()).fold(0, |best, i| {
            let m = margin(i);
            if m > 0.0 && (best == 0 || m > margin(best)) { i } else { best }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Plan, Tally, candidates, common_world_search, play_rounds};
    use crate::mcts::{Allocation, Budget, MctsConfig, Ranking};
    use crate::{GreedyPlayer, Player, TdPlayer};
    use std::sync::Arc;

    #[test]
    fn ranked_by_the_network_the_first_candidate_is_tds_plan_and_the_second_greedys_choice() {
        let battle = crate::mcts::tests::first_activation();
        let config = MctsConfig { ranking: Ranking::Network, max_children: 5, ..Default::default() };
        let plans = candidates(&mut GreedyPlayer::new(3), &battle, &config, 3);
        assert_eq!(plans.len(), 5);
        let mut td = TdPlayer::new(crate::network::shared(), 3);
        let activation = td.choose(&battle);
        let mut activated = battle.clone();
        activated.apply(activation).unwrap();
        let order = td.choose(&activated);
        assert_eq!(plans[0], Plan { action: activation, order: Some(order) }, "td's activation and its order");
        let greedy = GreedyPlayer::new(3).choose(&battle);
        assert_eq!(plans[1], Plan { action: greedy, order: None }, "greedy's choice, its order left to greedy");
        assert!(plans.iter().enumerate().all(|(i, p)| plans[..i].iter().all(|q| q != p)), "no plan twice");
        let facings_apart = |p: &Plan| (p.action, p.order.map(super::without_facing));
        let others: Vec<&Plan> = plans.iter().enumerate().filter(|&(i, _)| i != 1).map(|(_, p)| p).collect();
        assert!(
            others.iter().enumerate().all(|(i, p)| others[..i].iter().all(|q| facings_apart(q) != facings_apart(p))),
            "no two of the network's plans differ only in the facing they end with: {plans:?}"
        );
        let greedy_ranked = candidates(&mut GreedyPlayer::new(3), &battle, &MctsConfig::default(), 3);
        assert_eq!(greedy_ranked[0], Plan { action: greedy, order: None }, "by default greedy's choice is first");
    }

    #[test]
    fn a_time_limit_stops_the_search_long_before_its_budget() {
        let scenario = Arc::new(pacw_engine::Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut b = pacw_engine::Battle::from_scenario(scenario);
        while let pacw_engine::ToAct::Chance(_) = b.to_act() {
            let outcome = b.chance_outcomes()[0].0;
            b.apply_chance(outcome).unwrap();
        }
        let budget = 1_000_000;
        let config = MctsConfig {
            budget: Budget::Iterations(budget),
            stop_early: None,
            threads: 1,
            time_limit: Some(std::time::Duration::from_millis(1)),
            ..MctsConfig::default()
        };
        let worlds = common_world_search(&b, &config, 7, 0, None).worlds;
        assert!(worlds >= 1 && worlds < budget as usize / 100, "{worlds} worlds of {budget}");
    }

    /// A tally of worlds, each world's values (in millionths) one per candidate.
    fn tally(worlds: &[[i64; 3]]) -> Tally {
        worlds.iter().fold(Tally::new(3), |mut t, w| {
            t.add(w, &[true; 3]);
            t
        })
    }

    const WIN: i64 = 1_000_000;

    #[test]
    fn a_candidate_that_wins_where_the_greedy_choice_loses_is_played() {
        // Candidate 2 turns 30 of 100 lost worlds into wins and never does worse; candidate 1 changes nothing.
        let worlds: Vec<[i64; 3]> = (0..100).map(|w| if w < 30 { [0, 0, WIN] } else { [WIN, WIN, WIN] }).collect();
        assert_eq!(tally(&worlds).choice(true, 2.0), 2);
        // The second side wants the first side's value low: for it the greedy choice stays.
        assert_eq!(tally(&worlds).choice(false, 2.0), 0);
    }

    #[test]
    fn a_candidate_is_measured_in_the_leafs_units_for_the_side_choosing() {
        // Candidate 2 turns 30 of 100 lost worlds into wins: a mean lead of 0.3, a spread of √(0.3 × 0.7).
        let worlds: Vec<[i64; 3]> = (0..100).map(|w| if w < 30 { [0, 0, WIN] } else { [WIN, WIN, WIN] }).collect();
        let plan = Plan { action: pacw_engine::Action::EndActivations, order: None };
        let first = tally(&worlds).measured(2, true, &plan);
        assert_eq!(first.worlds, 100);
        assert!((first.mean - 0.3).abs() < 1e-9, "{first:?}");
        assert!((first.standard_error - (0.3f64 * 0.7).sqrt() / 10.0).abs() < 1e-9, "{first:?}");
        let second = tally(&worlds).measured(2, false, &plan);
        assert!((second.mean + 0.3).abs() < 1e-9, "for the second side the lead is a loss: {second:?}");
        assert_eq!(second.standard_error, first.standard_error);
        let greedy = tally(&worlds).measured(0, true, &plan);
        assert_eq!((greedy.mean, greedy.standard_error), (0.0, 0.0), "the greedy choice against itself");
    }

    #[test]
    fn a_lead_within_the_noise_keeps_the_greedy_choice() {
        // Candidate 1 wins 3 worlds the greedy choice loses and loses 1 it wins: ahead on average, but not by 2 SE.
        let mut worlds = vec![[WIN / 2, WIN / 2, WIN / 2]; 96];
        worlds.extend([[0, WIN, 0], [0, WIN, 0], [0, WIN, 0], [WIN, 0, WIN]]);
        assert_eq!(tally(&worlds).choice(true, 2.0), 0);
        // Without the demand for confidence, the best mean is played.
        assert_eq!(tally(&worlds).choice(true, 0.0), 1);
    }

    #[test]
    fn the_choice_is_settled_when_no_candidate_could_still_overtake_the_greedy_choice() {
        // Candidates that play as the greedy choice in every world are settled.
        assert!(tally(&[[WIN, WIN, WIN], [0, 0, 0]]).settled(true, 2.0, 400, 1.5));
        // Candidate 2 is behind in most worlds: settled for the first side, and not for the second (it wants the
        // first side's value low, and candidate 2 gives it that).
        let behind: Vec<[i64; 3]> = (0..50).map(|w| if w < 40 { [WIN, WIN, 0] } else { [0, 0, WIN] }).collect();
        assert!(tally(&behind).settled(true, 2.0, 400, 1.5));
        assert!(!tally(&behind).settled(false, 2.0, 400, 1.5));
        // Slightly ahead after 50 worlds of 400: not settled, for it may yet lead by two standard errors at the end.
        let close: Vec<[i64; 3]> = (0..50).map(|w| if w < 26 { [0, WIN, 0] } else { [WIN, 0, WIN] }).collect();
        assert!(!tally(&close).settled(true, 2.0, 400, 1.5));
        // Slightly behind: settled unless the search is optimistic enough.
        let slightly_behind: Vec<[i64; 3]> = (0..50)
            .map(|w| {
                if w < 22 {
                    [0, WIN, 0]
                } else if w < 50 - 2 {
                    [WIN, 0, WIN]
                } else {
                    [0, 0, 0]
                }
            })
            .collect();
        assert!(tally(&slightly_behind).settled(true, 2.0, 400, 0.5));
        assert!(!tally(&slightly_behind).settled(true, 2.0, 400, 3.0));
    }

    /// Three candidates over worlds made up for the test: the second loses every world the greedy choice wins, the
    /// third is a close call (a little better than the greedy choice: it wins one more world in every twenty).
    fn race(allocation: Allocation) -> Tally {
        let play_world = |w: usize, values: &mut [i64], racing: &[bool]| {
            let greedy = if w.is_multiple_of(2) { WIN } else { 0 };
            let close = if w % 20 == 1 { WIN } else { greedy };
            let made_up = [greedy, 0, close];
            for i in (0..3).filter(|&i| racing[i]) {
                values[i] = made_up[i];
            }
        };
        let config = MctsConfig { allocation, threads: 1, ..MctsConfig::default() };
        play_rounds(3000, 3, &config, true, std::time::Instant::now(), None, &play_world)
    }

    #[test]
    fn a_race_gives_the_play_outs_of_a_hopeless_candidate_to_the_close_call() {
        let even = race(Allocation::Even);
        assert_eq!(even.played, vec![1000; 3], "evenly shared, the close call keeps the search to its whole budget");
        let raced = race(Allocation::Racing);
        assert_eq!(raced.playouts(), 3000, "the same play-outs");
        assert_eq!(raced.played[1], super::ROUND_WORLDS, "the hopeless candidate leaves after the first round");
        assert_eq!(raced.played[2], raced.worlds, "the close call is played in every world");
        assert!(raced.worlds > 1400, "its worlds grow by half: {}", raced.worlds);
        assert_eq!(raced.played[0], raced.worlds, "the greedy choice too, to be compared with");
    }

    #[test]
    fn a_second_opinion_on_fresh_worlds_keeps_a_lead_that_holds_and_drops_one_that_was_luck() {
        // Candidate 1 wins every even world of the first hundred and nothing after; candidate 2 one world in ten
        // more than the greedy choice, everywhere.
        let play_world = |w: usize, values: &mut [i64], racing: &[bool]| {
            let made_up = [0, if w < 100 && w.is_multiple_of(2) { WIN } else { 0 }, if w % 10 == 3 { WIN } else { 0 }];
            for i in (0..3).filter(|&i| racing[i]) {
                values[i] = made_up[i];
            }
        };
        let first = super::play_round(0..100, 1, &[true; 3], None, &play_world);
        assert_eq!(first.choice(true, 2.0), 1, "on the first worlds the lucky candidate leads by most");
        let opinion = |choice, threads, deadline| super::second_opinion(&first, choice, threads, deadline, &play_world);
        let again = opinion(1, 1, None);
        assert_eq!((again.worlds, again.playouts()), (100, 200), "as many fresh worlds, the two candidates alone");
        assert!(!super::confirmed(&again, 1, true), "on fresh worlds its lead is gone");
        assert!(super::confirmed(&opinion(2, 2, None), 2, true), "the true lead holds");
        let past = opinion(2, 1, Some(std::time::Instant::now()));
        assert!(!super::confirmed(&past, 2, true), "out of time, greedy's choice is kept");
    }

    #[test]
    fn tallies_merge_into_the_same_as_one() {
        let worlds: Vec<[i64; 3]> = (0..10).map(|w| [w * 1000, w * w, 7]).collect();
        let (whole, merged) = (tally(&worlds), tally(&worlds[..4]).merge(tally(&worlds[4..])));
        assert_eq!(whole.worlds, merged.worlds);
        assert_eq!(whole.differences, merged.differences);
        assert_eq!(whole.difference_squares, merged.difference_squares);
    }
}
