//! The `mcts` player: Monte Carlo search over the engine's explicit chance nodes, with greedy rollouts.
//!
//! Chance is always drawn with the engine's exact probabilities from the search's own generator: the real game's
//! seeded future is never looked at. Two searches are offered:
//!
//! - **common random worlds** (the default): the root's eight best candidates by the greedy ranking are each played
//!   out in the same sampled worlds — every world seeds the dice, the cards and the rollout policy alike for every
//!   candidate — so their comparison is not drowned by the dice (a paired comparison). Each play-out is a greedy
//!   rollout of sixteen decisions, then the static evaluation of [`crate::evaluate::evaluate`] (points, strength,
//!   exhaustion). The worlds are shared among all cores.
//! - **a UCB tree** (`mcts:tree`): decision nodes choose by UCB1 and widen progressively through the greedy ranking
//!   of their actions; chance nodes sample their outcome; a new leaf is valued by the same rollout and evaluation.
//!
//! Measured against `greedy` the paired search is the stronger (docs/findings.md).

use crate::Player;
use crate::evaluate::evaluate;
use crate::greedy::{GreedyPlayer, greedy_choice, ranked_actions};
use pacw_engine::{Action, Battle, Outcome, Side, ToAct};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// How long the search may think about each decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations: deterministic for a given seed.
    Iterations(u32),
    /// A wall-clock time per decision: stronger on a fast machine, but not reproducible.
    Millis(u64),
}

/// The search's settings.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Thinking per decision.
    pub budget: Budget,
    /// Threads the search uses (default: every core). The common-world search shares its worlds among them and
    /// makes the same choice whatever their number; the tree search grows one tree per thread and sums their visits.
    pub threads: usize,
    /// The UCB1 exploration constant.
    pub exploration: f32,
    /// Side decisions played by the greedy policy from a new leaf before it is evaluated (`u16::MAX`: to the end).
    pub rollout_decisions: u16,
    /// The most children a decision node may have: the best candidates by the greedy judgement.
    pub max_children: usize,
    /// Whether the leaf evaluation includes the positional judgement, or only points, strength and exhaustion.
    pub positional: bool,
    /// Compare the root's best candidates on common random worlds (the default), instead of growing a UCB tree.
    pub common_worlds: bool,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget::Iterations(DEFAULT_ITERATIONS),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            exploration: 0.5,
            rollout_decisions: 16,
            max_children: 8,
            positional: false,
            common_worlds: true,
        }
    }
}

/// The default number of iterations a decision: keeps a whole game's thinking under a minute on a 2-core machine
/// (docs/findings.md).
pub const DEFAULT_ITERATIONS: u32 = 1600;

#[derive(Copy, Clone, Debug, PartialEq)]
enum Edge {
    Action(Action),
    Outcome(Outcome),
}

#[derive(Debug)]
struct Node {
    visits: u32,
    /// Sum of values for the first side.
    value: f32,
    children: Vec<(Edge, usize)>,
    /// Decision nodes: the legal actions, best first by the greedy judgement (filled on the first visit); the
    /// first `tried` of them have children.
    ranked: Option<Vec<Action>>,
    tried: usize,
}

impl Node {
    fn new() -> Node {
        Node { visits: 0, value: 0.0, children: Vec::new(), ranked: None, tried: 0 }
    }
}

/// Searches a decision with Monte Carlo tree search.
#[derive(Clone, Debug)]
pub struct MctsPlayer {
    config: MctsConfig,
    seed: u64,
    decisions: u64,
}

impl MctsPlayer {
    /// A search player with its own seed.
    pub fn new(config: MctsConfig, seed: u64) -> Self {
        MctsPlayer { config, seed, decisions: 0 }
    }

    /// Its settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }
}

/// One tree's search from `root`; returns the root's children as (action, visits).
fn search(root: &Battle, config: &MctsConfig, seed: u64) -> Vec<(Action, u32)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rollout = GreedyPlayer::new(seed ^ 0x5eed);
    let mut nodes = vec![Node::new()];
    let started = Instant::now();
    let mut iterations = 0u32;
    let mut path = Vec::with_capacity(64);
    loop {
        match config.budget {
            Budget::Iterations(n) if iterations >= n => break,
            Budget::Millis(ms) if iterations > 0 && started.elapsed() >= Duration::from_millis(ms) => break,
            _ => {}
        }
        iterations += 1;
        let mut b = root.clone();
        let mut node = 0usize;
        let mut expanded = false;
        path.clear();
        path.push(0);
        loop {
            match b.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance(_) => {
                    let outcome = b.sample_chance(&mut rng).expect("chance is pending");
                    b.apply_chance(outcome).expect("sampled outcomes are legal");
                    node = child(&mut nodes, node, Edge::Outcome(outcome));
                }
                ToAct::Side(side) => {
                    if expanded {
                        break;
                    }
                    // Progressive widening: a node visited n times may have about √n children, tried in the
                    // greedy order, so a small budget refines the best candidates instead of sampling all.
                    let this = &mut nodes[node];
                    let ranked = this.ranked.get_or_insert_with(|| ranked_actions(&mut rollout, &b));
                    let widen = (1 + (this.visits as f32).sqrt() as usize).min(config.max_children);
                    if this.tried < ranked.len() && this.tried < widen {
                        let action = ranked[this.tried];
                        this.tried += 1;
                        b.apply(action).expect("legal actions apply");
                        node = child(&mut nodes, node, Edge::Action(action));
                        expanded = true;
                    } else {
                        let (action, next) = select(&nodes, node, side, config.exploration);
                        b.apply(action).expect("legal actions apply");
                        node = next;
                    }
                }
            }
            path.push(node);
        }
        let value = value_after_rollout(b, &mut rollout, &mut rng, config);
        for &n in &path {
            nodes[n].visits += 1;
            nodes[n].value += value;
        }
    }
    nodes[0]
        .children
        .iter()
        .filter_map(|&(edge, n)| match edge {
            Edge::Action(a) => Some((a, nodes[n].visits)),
            Edge::Outcome(_) => None,
        })
        .collect()
}

/// The root's best `max_children` candidates, each valued over the same sampled worlds: every world seeds the chance
/// and the rollout policy identically for every candidate, so the candidates are compared on common random numbers.
/// The worlds are shared out among `threads`, and each play-out's value is added as a whole number of millionths, so
/// an iteration budget gives the same choice whatever the number of threads.
fn common_world_search(root: &Battle, config: &MctsConfig, seed: u64) -> Action {
    let mut ranker = GreedyPlayer::new(seed);
    let candidates: Vec<Action> = ranked_actions(&mut ranker, root).into_iter().take(config.max_children).collect();
    if candidates.len() == 1 {
        return candidates[0];
    }
    let threads = config.threads.max(1);
    let started = Instant::now();
    let worlds = |first: usize| {
        let mut totals = vec![0u64; candidates.len()];
        let mut w = first;
        loop {
            match config.budget {
                Budget::Iterations(n) if w >= (n as usize / candidates.len()).max(1) => break,
                Budget::Millis(ms) if w >= threads && started.elapsed() >= Duration::from_millis(ms) => break,
                _ => {}
            }
            let world = seed ^ (w as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            for (total, &a) in totals.iter_mut().zip(&candidates) {
                let mut b = root.clone();
                b.apply(a).expect("ranked actions are legal");
                let mut rng = ChaCha8Rng::seed_from_u64(world);
                let mut policy = GreedyPlayer::new(world);
                *total += (value_after_rollout(b, &mut policy, &mut rng, config) * 1e6).round() as u64;
            }
            w += threads;
        }
        totals
    };
    let totals: Vec<u64> = if threads == 1 {
        worlds(0)
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|t| scope.spawn(move || worlds(t))).collect();
            let parts = handles.into_iter().map(|h| h.join().expect("search threads do not panic"));
            parts.fold(vec![0u64; candidates.len()], |sum, part| sum.iter().zip(part).map(|(x, y)| x + y).collect())
        })
    };
    // Values are for the first side; the second side wants the lowest. Ties go to the greedy ranking's first.
    let side_a = matches!(root.to_act(), ToAct::Side(Side::A));
    let score = |i: usize| if side_a { totals[i] as i64 } else { -(totals[i] as i64) };
    let best = (0..candidates.len()).fold(0, |best, i| if score(i) > score(best) { i } else { best });
    candidates[best]
}

/// The child of `node` along `edge`, made if new.
fn child(nodes: &mut Vec<Node>, node: usize, edge: Edge) -> usize {
    if let Some(&(_, n)) = nodes[node].children.iter().find(|(e, _)| *e == edge) {
        return n;
    }
    nodes.push(Node::new());
    let n = nodes.len() - 1;
    nodes[node].children.push((edge, n));
    n
}

/// UCB1 from the point of view of the side choosing.
fn select(nodes: &[Node], node: usize, side: Side, c: f32) -> (Action, usize) {
    let parent = nodes[node].visits.max(1) as f32;
    let mut best = (Action::Hold, 0, f32::MIN);
    for &(edge, n) in &nodes[node].children {
        let Edge::Action(a) = edge else { continue };
        let child = &nodes[n];
        let visits = child.visits.max(1) as f32;
        let mean = child.value / visits;
        let q = if side == Side::A { mean } else { 1.0 - mean };
        let ucb = q + c * (parent.ln() / visits).sqrt();
        if ucb > best.2 {
            best = (a, n, ucb);
        }
    }
    (best.0, best.1)
}

/// Plays a few greedy decisions (chance sampled) from a new leaf, then evaluates.
fn value_after_rollout(mut b: Battle, policy: &mut GreedyPlayer, rng: &mut ChaCha8Rng, config: &MctsConfig) -> f32 {
    let mut left = config.rollout_decisions;
    loop {
        match b.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance(_) => {
                let o = b.sample_chance(rng).expect("chance is pending");
                b.apply_chance(o).expect("sampled outcomes are legal");
            }
            ToAct::Side(_) if left == 0 => break,
            ToAct::Side(_) => {
                let a = greedy_choice(policy, &b);
                b.apply(a).expect("greedy chooses legal actions");
                left -= 1;
            }
        }
    }
    evaluate(&b, config.positional)
}

impl Player for MctsPlayer {
    fn name(&self) -> &str {
        "mcts"
    }

    fn choose(&mut self, battle: &Battle) -> Action {
        let legal = battle.legal_actions();
        if legal.len() == 1 {
            return legal[0];
        }
        self.decisions += 1;
        let base = self.seed ^ self.decisions.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let config = self.config;
        if config.common_worlds {
            return common_world_search(battle, &config, base);
        }
        // The tree search is parallelised at the root: independent trees whose visit counts are summed.
        let results: Vec<Vec<(Action, u32)>> = if config.threads <= 1 {
            vec![search(battle, &config, base)]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..config.threads as u64)
                    .map(|t| scope.spawn(move || search(battle, &config, base.wrapping_add(t))))
                    .collect();
                handles.into_iter().map(|h| h.join().expect("search threads do not panic")).collect()
            })
        };
        // Sum the visits over the trees, in the order of the legal actions so that ties are broken the same way.
        legal
            .iter()
            .map(|&a| (a, results.iter().flatten().filter(|(x, _)| *x == a).map(|(_, v)| *v as u64).sum::<u64>()))
            .max_by_key(|&(_, v)| v)
            .map(|(a, _)| a)
            .expect("at least one legal action")
    }
}
