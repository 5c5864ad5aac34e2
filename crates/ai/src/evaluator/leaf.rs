//! The older, cheaper judges of a battle that `mcts` may take at its leaves instead of the evaluator
//! ([`crate::Leaf`]): a hand-weighed count of points, material and closeness to exhaustion (with greedy's judgement
//! of each square, if asked), and a logistic model of how a few numbers of the battle have changed since its start,
//! fitted to greedy games. Kept as versions beside the evaluator, so that the search's experiments stay reproducible.

use crate::greedy::judgement::{View, Weights};
use pacw_engine::{Battle, Card, Side};

/// The value of a battle for the first side, from 0 (lost) to 1 (won): points, material and how close each side is
/// to exhaustion, and with `positional` the squares' worth to their units.
pub fn hand_value(b: &Battle, positional: bool) -> f32 {
    if let Some(result) = b.result() {
        return match result.winner {
            Some(Side::A) => 1.0,
            Some(Side::B) => 0.0,
            None => 0.5,
        };
    }
    let views =
        if positional { Vec::from(Side::BOTH.map(|side| View::new(b, side, &Weights::GREEDY))) } else { Vec::new() };
    let mut score = 0.0f32;
    for u in b.alive_units() {
        let info = b.info(u);
        let sign = if info.side == Side::A { 1.0 } else { -1.0 };
        let strength = b.strength(u) as f32 * if b.unit(u).shaken { 0.7 } else { 1.0 };
        score += sign * 0.5 * strength;
        if positional {
            let state = b.unit(u);
            score += sign * 0.2 * views[info.side.index()].square_score(b, u, state.at, state.facing);
        }
    }
    let points = b.points();
    let lateness = b.turn() as f32 / b.turn_limit() as f32;
    score += (0.5 + lateness) * (points[0] as f32 - points[1] as f32);
    for side in Side::BOTH {
        let sign = if side == Side::A { -1.0 } else { 1.0 };
        let left = b.exhaustion_point(side).saturating_sub(b.destroyed(side)) as f32;
        score += sign * 3.0 / left.max(1.0);
    }
    1.0 / (1.0 + (-score / 3.0).exp())
}

/// How many numbers [`leaf_features`] describes a battle by.
pub const LEAF_FEATURES: usize = 10;

/// A battle described for the fitted leaf value, each number for the first side less the second's: steady strength,
/// shaken strength, points (R8.2), points weighed by how late it is, closeness to exhaustion (R8.1), strength
/// weighed by how late it is, units in cover, activations a card left in the deck (R3.2), activations left on the
/// card in play (R3.4), and units each side may still lose before exhaustion.
pub fn leaf_features(b: &Battle) -> [f32; LEAF_FEATURES] {
    let lateness = b.turn() as f32 / b.turn_limit() as f32;
    let (mut steady, mut shaken, mut cover) = (0.0f32, 0.0f32, 0.0f32);
    for u in b.alive_units() {
        let sign = if b.info(u).side == Side::A { 1.0 } else { -1.0 };
        let strength = sign * b.strength(u) as f32;
        if b.unit(u).shaken {
            shaken += strength
        } else {
            steady += strength
        }
        if b.scenario().map.gives_cover(b.unit(u).at) {
            cover += sign;
        }
    }
    let points = b.points();
    let points = points[0] as f32 - points[1] as f32;
    let left = |side: Side| b.exhaustion_point(side).saturating_sub(b.destroyed(side)) as f32;
    let closeness = 1.0 / left(Side::B).max(1.0) - 1.0 / left(Side::A).max(1.0);
    let mut activations = [0.0f32; 2];
    for (card, copies) in b.deck().cards() {
        if let Card::Side { side, value } = card {
            activations[side.index()] += (value * copies) as f32;
        }
    }
    let per_card = (activations[0] - activations[1]) / b.deck().len().max(1) as f32;
    let on_card = if b.active_side() == Side::A { 1.0 } else { -1.0 } * b.activations_left() as f32;
    [
        steady,
        shaken,
        points,
        points * lateness,
        closeness,
        (steady + shaken) * lateness,
        cover,
        per_card,
        on_card,
        left(Side::A) - left(Side::B),
    ]
}

/// The weights of [`fitted_value`], one per [`leaf_features`] number: a logistic model of the outcome of greedy
/// games from the features' change since the start, fitted with one intercept a scenario (left out here, where
/// every start counts as even) by `cargo run --release -p pacw-ai --example fit_leaf -- 8000` (docs/findings.md).
const LEAF_WEIGHTS: [f32; LEAF_FEATURES] =
    [0.1789, 0.1843, -0.0709, 0.2251, 1.0084, -0.0404, 0.0579, 0.1601, 0.0357, -0.0244];

/// The chance that the first side wins from here if both sides play greedy from now on, by a logistic model of how
/// [`leaf_features`] have changed since `start` (the features of the battle's first position): what a longer
/// greedy play-out would find, without playing it.
pub fn fitted_value(b: &Battle, start: &[f32; LEAF_FEATURES]) -> f32 {
    if b.result().is_some() {
        return hand_value(b, false);
    }
    let features = leaf_features(b);
    let z: f32 = (0..LEAF_FEATURES).map(|i| (features[i] - start[i]) * LEAF_WEIGHTS[i]).sum();
    1.0 / (1.0 + (-z).exp())
}
