//! The UCB tree (`mcts:tree`): decision nodes choose by UCB1 and widen progressively through the greedy ranking of
//! their actions; chance nodes sample their outcome; a new leaf is valued by a greedy rollout and the evaluation.

use super::{Budget, MctsConfig, Playout};
use crate::clock::Instant;
use crate::greedy::{GreedyPlayer, ranked_actions};
use pacw_engine::{Action, Battle, Outcome, Side, ToAct};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

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

/// Independent trees, one per thread, whose root visits are summed; the most visited of the `legal` actions.
pub(super) fn root_parallel_search(battle: &Battle, config: &MctsConfig, seed: u64, legal: &[Action]) -> Action {
    let results: Vec<Vec<(Action, u32)>> = if config.threads <= 1 {
        vec![search(battle, config, seed)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..config.threads as u64)
                .map(|t| scope.spawn(move || search(battle, config, seed.wrapping_add(t))))
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

/// One tree's search from `root`; returns the root's children as (action, visits).
fn search(root: &Battle, config: &MctsConfig, seed: u64) -> Vec<(Action, u32)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let playout = Playout::new(root, config);
    let mut rollout = GreedyPlayer::with_weights(seed ^ 0x5eed, playout.weights);
    let mut nodes = vec![Node::new()];
    let started = Instant::now();
    let mut iterations = 0u32;
    let mut path = Vec::with_capacity(64);
    let budget = config.budget.for_battle(root, config.scaled_floor);
    loop {
        match budget {
            Budget::Iterations(n) | Budget::Scaled(n) if iterations >= n => break,
            Budget::Millis(ms) if iterations > 0 && started.elapsed() >= Duration::from_millis(ms) => break,
            _ if iterations > 0 && config.time_limit.is_some_and(|limit| started.elapsed() >= limit) => break,
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
        let value = playout.value(b, &mut rollout, |b| b.sample_chance(&mut rng).expect("chance is pending"));
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
