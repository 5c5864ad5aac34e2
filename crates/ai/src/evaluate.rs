//! Judgements shared by the computer players: the expected value of an attack from the engine's exact odds, the
//! worth of a square for a unit, and the value of a whole battle.

use pacw_engine::geometry::{Aspect, aspect, in_front_arc};
use pacw_engine::odds::AttackOdds;
use pacw_engine::{Action, Arm, AttackAssessment, Battle, Dir, Prob, Side, Square, UnitId};
use std::cell::Cell;

/// What a side sees when it judges squares: the enemies and the objectives it should go for.
pub struct View {
    side: Side,
    enemies: Vec<(Square, Arm, u8, Dir, bool)>,
    /// Objectives the side does not hold, with their points; if it holds all, those it holds.
    goals: Vec<(Square, u8)>,
    objectives: Vec<(Square, u8)>,
    /// The last square scored, for every facing: (unit, square, scores).
    last: Cell<Option<(UnitId, Square, [f32; 4])>>,
}

impl View {
    /// The view of `side` of the battle now.
    pub fn new(b: &Battle, side: Side) -> View {
        let enemies = b
            .alive_units()
            .filter(|&u| b.info(u).side != side)
            .map(|u| {
                let arm = b.info(u).arm;
                (b.unit(u).at, arm, b.options().range.get(arm), b.unit(u).facing, b.unit(u).shaken)
            })
            .collect();
        let objectives: Vec<(Square, u8)> = b.scenario().objectives.iter().map(|o| (o.at, o.points)).collect();
        let holders = b.objective_holders();
        let mut goals: Vec<(Square, u8)> =
            objectives.iter().zip(&holders).filter(|(_, h)| **h != Some(side)).map(|(o, _)| *o).collect();
        if goals.is_empty() {
            goals = objectives.clone();
        }
        View { side, enemies, goals, objectives, last: Cell::new(None) }
    }

    /// How good it is for `unit` to stand on `at` facing `facing`: objectives, cover, height, threats, flanks,
    /// guns kept out of charge range, and targets in its front arc.
    pub fn square_score(&self, b: &Battle, unit: UnitId, at: Square, facing: Dir) -> f32 {
        // A unit's orders list every facing of a square in a row: the four are worked out together, once.
        let scores = match self.last.get() {
            Some((u, s, scores)) if u == unit && s == at => scores,
            _ => {
                let scores = self.square_scores(b, unit, at);
                self.last.set(Some((unit, at, scores)));
                scores
            }
        };
        scores[facing.index()]
    }

    /// [`View::square_score`] for each facing (in the order of [`Dir::ALL`]).
    fn square_scores(&self, b: &Battle, unit: UnitId, at: Square) -> [f32; 4] {
        let info = b.info(unit);
        debug_assert_eq!(info.side, self.side);
        let shaken = b.unit(unit).shaken;
        let guns = info.arm == Arm::Artillery;
        let map = &b.scenario().map;
        // Every term is added to each facing's score in the same order.
        let mut score = [0.0f32; 4];
        let add = |score: &mut [f32; 4], term: f32| score.iter_mut().for_each(|s| *s += term);
        if let Some(&(_, points)) = self.objectives.iter().find(|(s, _)| *s == at) {
            add(&mut score, 1.5 * points as f32);
        }
        if let Some(d) = self.goals.iter().map(|(s, _)| s.distance(at)).min() {
            add(&mut score, -(if guns { 0.1 } else { 0.3 } * d as f32));
        }
        if map.terrain(at).gives_cover() {
            add(&mut score, if shaken { 1.0 } else { 0.6 });
        }
        add(&mut score, 0.15 * map.elevation(at) as f32);
        let my_range = b.options().range.get(info.arm);
        for &(e_at, e_arm, e_range, _, e_shaken) in &self.enemies {
            let d = e_at.distance(at);
            let reach = e_range + (e_arm != Arm::Artillery) as u8;
            if d <= reach {
                add(&mut score, -(if shaken { 0.5 } else { 0.25 }));
            }
            if d == 1 {
                for facing in Dir::ALL {
                    score[facing.index()] += match aspect(at, facing, e_at) {
                        Some(Aspect::Front) => 0.2,
                        _ => -1.0,
                    };
                }
                if guns {
                    add(&mut score, -1.5);
                }
            }
            if guns && d == 2 && e_arm != Arm::Artillery {
                add(&mut score, -0.5);
            }
            if d <= my_range {
                for facing in Dir::ALL {
                    if in_front_arc(at, facing, e_at) {
                        score[facing.index()] += if e_shaken { 0.5 } else { 0.3 };
                    }
                }
            }
        }
        score
    }
}

/// The expected worth of an attack, from its exact odds (the engine's `attack_odds` arithmetic, R6.4, R7.1):
/// shaken is passing, a retreat is more, destruction most — and the game when it exhausts the enemy.
pub fn attack_value(b: &Battle, a: &AttackAssessment) -> f32 {
    let blocked = b.retreat_square(a.target, a.attacker).is_none();
    let odds = AttackOdds::from_assessment(a, blocked, b.options().blocked_retreat);
    let side = b.info(a.target).side;
    let worth = b.info(a.target).strength() as f32 / 4.0 + 0.5;
    let destroyed = if b.destroyed(side) + 1 >= b.scenario().side(side).exhaustion { 100.0 } else { 6.0 * worth };
    let p = |x: Prob| *x.numer() as f32 / *x.denom() as f32;
    p(odds.shaken) * worth + p(odds.stand) * 1.5 * worth + p(odds.retreat) * 2.5 * worth + p(odds.destroyed) * destroyed
}

/// The gain of an order for the unit carrying it out, against holding where it is; `here` is the unit's
/// [`View::square_score`] where it stands (the same for every order, so computed once by the caller), and
/// `assessment` the attack's, for an attacking order ([`Battle::assessed_actions_into`]).
pub fn order_value(
    b: &Battle,
    view: &View,
    unit: UnitId,
    here: f32,
    action: &Action,
    assessment: Option<&AttackAssessment>,
) -> f32 {
    let state = b.unit(unit);
    let attack = assessment.map_or(0.0, |a| attack_value(b, a));
    match *action {
        Action::Hold => 0.0,
        Action::Move { to, facing } | Action::Advance { to, facing } => view.square_score(b, unit, to, facing) - here,
        Action::Fire { facing, .. } => attack + view.square_score(b, unit, state.at, facing) - here,
        Action::MoveFire { to, facing, .. } => attack + view.square_score(b, unit, to, facing) - here,
        Action::FireMove { .. } => attack + 0.2,
        Action::Activate(_) | Action::EndActivations => 0.0,
    }
}

/// The value of a battle for the first side, from 0 (lost) to 1 (won): points, material and how close each side is
/// to exhaustion, and with `positional` the squares' worth to their units.
pub fn evaluate(b: &Battle, positional: bool) -> f32 {
    if let Some(result) = b.result() {
        return match result.winner {
            Some(Side::A) => 1.0,
            Some(Side::B) => 0.0,
            None => 0.5,
        };
    }
    let views = if positional { vec![View::new(b, Side::A), View::new(b, Side::B)] } else { Vec::new() };
    let mut score = 0.0f32;
    for u in b.alive_units() {
        let info = b.info(u);
        let sign = if info.side == Side::A { 1.0 } else { -1.0 };
        let strength = info.strength() as f32 * if b.unit(u).shaken { 0.7 } else { 1.0 };
        score += sign * 0.5 * strength;
        if positional {
            let state = b.unit(u);
            score += sign * 0.2 * views[info.side.index()].square_score(b, u, state.at, state.facing);
        }
    }
    let points = b.points();
    let lateness = b.turn() as f32 / b.scenario().turns as f32;
    score += (0.5 + lateness) * (points[0] as f32 - points[1] as f32);
    for side in Side::BOTH {
        let sign = if side == Side::A { -1.0 } else { 1.0 };
        let left = b.scenario().side(side).exhaustion.saturating_sub(b.destroyed(side)) as f32;
        score += sign * 3.0 / left.max(1.0);
    }
    1.0 / (1.0 + (-score / 3.0).exp())
}
