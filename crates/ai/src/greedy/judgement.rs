//! greedy's judgement of one decision, shared by the players built on it (recruit, veteran, the search's play-outs):
//! the expected value of an attack from the engine's exact odds, the worth of a square for a unit, and when an
//! activation is worth it, each weighed by [`Weights`].

use pacw_engine::Aspect;
use pacw_engine::RetreatPath;
use pacw_engine::odds::AttackOdds;
use pacw_engine::{Action, Arm, AttackAssessment, Battle, Dir, Options, Prob, Scenario, Side, Square, UnitId};
use std::cell::RefCell;
use std::sync::Arc;

/// The weights of the one-decision judgement ([`View::square_score`], [`attack_value`], [`order_value`]) and of
/// when an activation is worth it. [`Weights::GREEDY`] are the `greedy` player's.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Weights {
    /// A square with an objective, per point.
    pub objective: f32,
    /// Each square farther from the nearest objective to take (infantry and cavalry; guns).
    pub goal_distance: [f32; 2],
    /// Cover (steady; shaken).
    pub cover: [f32; 2],
    /// Each level of elevation.
    pub elevation: f32,
    /// Each enemy in reach of the square (steady; shaken): a penalty.
    pub in_reach: [f32; 2],
    /// An adjacent enemy in the front arc (a bonus), and one on a flank or the rear (a penalty).
    pub adjacent: [f32; 2],
    /// Guns next to an enemy; two squares from enemy foot or horse: penalties.
    pub guns_exposed: [f32; 2],
    /// An enemy in range in the front arc (steady; shaken).
    pub target: [f32; 2],
    /// An attack's results, as multiples of the target's worth: shaken, hit but standing, retreat, destroyed.
    pub results: [f32; 4],
    /// A Fire & Move order's value beyond its attack.
    pub fire_move: f32,
    /// The least gain that is worth an activation.
    pub worth_activating: f32,
    /// Activating a shaken unit (it rallies, R7.6).
    pub rally: f32,
}

impl Weights {
    /// The `greedy` player's weights.
    pub const GREEDY: Weights = Weights {
        objective: 1.5,
        goal_distance: [0.3, 0.1],
        cover: [0.6, 1.0],
        elevation: 0.15,
        in_reach: [0.25, 0.5],
        adjacent: [0.2, 1.0],
        guns_exposed: [1.5, 0.5],
        target: [0.3, 0.5],
        results: [1.0, 1.5, 2.5, 6.0],
        fire_move: 0.2,
        worth_activating: 0.05,
        rally: 0.5,
    };

    /// Weights tuned against `greedy` by `cargo run --release -p pacw-ai --example tune -- 3000 2` (coordinate
    /// search from [`Weights::GREEDY`]): a greedy player judging by them scores 55.4% against `greedy` in 3,000
    /// games it was not tuned on (docs/findings.md). The search judges its own side's decisions by them.
    pub const TUNED: Weights = Weights {
        objective: 0.75,
        goal_distance: [0.45, 0.05],
        cover: [0.45, 1.0],
        elevation: 0.15,
        in_reach: [0.25, 0.5],
        adjacent: [0.2, 1.0],
        guns_exposed: [0.375, 1.125],
        target: [0.225, 0.5],
        results: [1.0, 1.5, 2.5, 6.0],
        fire_move: 0.2,
        worth_activating: 0.05,
        rally: 0.5,
    };

    /// The weights as one list, in the order of the fields (for tuning).
    pub fn to_list(&self) -> [f32; 20] {
        let w = self;
        [
            w.objective,
            w.goal_distance[0],
            w.goal_distance[1],
            w.cover[0],
            w.cover[1],
            w.elevation,
            w.in_reach[0],
            w.in_reach[1],
            w.adjacent[0],
            w.adjacent[1],
            w.guns_exposed[0],
            w.guns_exposed[1],
            w.target[0],
            w.target[1],
            w.results[0],
            w.results[1],
            w.results[2],
            w.results[3],
            w.fire_move,
            w.worth_activating,
        ]
    }

    /// Weights from [`Weights::to_list`]'s list (the rally bonus kept).
    pub fn from_list(l: [f32; 20]) -> Weights {
        Weights {
            objective: l[0],
            goal_distance: [l[1], l[2]],
            cover: [l[3], l[4]],
            elevation: l[5],
            in_reach: [l[6], l[7]],
            adjacent: [l[8], l[9]],
            guns_exposed: [l[10], l[11]],
            target: [l[12], l[13]],
            results: [l[14], l[15], l[16], l[17]],
            fire_move: l[18],
            worth_activating: l[19],
            rally: Weights::GREEDY.rally,
        }
    }
}

/// An enemy as a square's score sees it: its square, arm, range, facing and whether it is shaken.
type Enemy = (Square, Arm, u8, Dir, bool);

/// What a side sees when it judges squares: the enemies and the objectives it should go for.
#[derive(Clone, Debug)]
pub struct View {
    side: Side,
    weights: Weights,
    /// The scenario and options of the battle seen: a square's score depends on the map and the ranges.
    scenario: Arc<Scenario>,
    options: Options,
    enemies: Vec<Enemy>,
    /// Objectives the side does not hold, with their points; if it holds all, those it holds.
    goals: Vec<(Square, u8)>,
    objectives: Vec<(Square, u8)>,
    /// Squares scored so far, every facing of each: a unit's orders come back to the same few squares, and its
    /// neighbours' to many of them.
    scored: RefCell<ScoredSquares>,
    /// Attacks valued so far: a unit's orders make the same attack from many squares.
    attacks: RefCell<Vec<(AttackKey, f32)>>,
    /// The enemies and goals of the view before the last [`View::renew`] (spare buffers).
    seen: (Vec<Enemy>, Vec<(Square, u8)>),
    /// Whether each (target, attacker) found so far leaves the target no square to retreat to: the same for every
    /// attack of the pair, whatever square it is made from.
    blocked: RefCell<Vec<((UnitId, UnitId), bool)>>,
}

/// What an attack's value depends on besides the battle ([`attack_value`]): whom it attacks (the target's strength
/// and whether it is shaken), whether it is a charge, the number needed, and whether the target could retreat — not
/// who attacks, so that every unit's attacks on one target share it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct AttackKey {
    target: UnitId,
    charge: bool,
    needed: u8,
    blocked: bool,
}

impl View {
    /// The view of `side` of the battle now, judged with `weights`.
    pub fn new(b: &Battle, side: Side, weights: &Weights) -> View {
        let mut view = View {
            side,
            weights: *weights,
            scenario: b.scenario().clone(),
            options: *b.options(),
            enemies: Vec::new(),
            goals: Vec::new(),
            objectives: Vec::new(),
            scored: RefCell::new(ScoredSquares::new(b.scenario())),
            attacks: RefCell::new(Vec::new()),
            blocked: RefCell::new(Vec::new()),
            seen: (Vec::new(), Vec::new()),
        };
        view.see(b);
        view
    }

    /// This view made the view of `side` of the battle `b` now, judged with `weights`, as [`View::new`] would make
    /// it: the squares scored so far are kept while what a square's score depends on (the side, the weights, the
    /// enemies and the goals) is unchanged, as between the activations of one side on a card.
    pub fn renew(&mut self, b: &Battle, side: Side, weights: &Weights) {
        // The enemies and goals seen last, kept in the spare buffers so that seeing again allocates nothing.
        std::mem::swap(&mut self.enemies, &mut self.seen.0);
        std::mem::swap(&mut self.goals, &mut self.seen.1);
        let same_battle = Arc::ptr_eq(&self.scenario, b.scenario()) && self.options == *b.options();
        let same_judge = same_battle && self.side == side && self.weights == *weights;
        self.side = side;
        self.weights = *weights;
        if !same_battle {
            self.scenario = b.scenario().clone();
            self.options = *b.options();
            *self.scored.borrow_mut() = ScoredSquares::new(b.scenario());
        }
        self.see(b);
        if !(same_judge && self.seen.0 == self.enemies && self.seen.1 == self.goals) {
            self.scored.borrow_mut().clear();
        }
        // An attack's value and a retreat depend on where every unit stands: judged again for each decision.
        self.attacks.borrow_mut().clear();
        self.blocked.borrow_mut().clear();
    }

    /// Reads the enemies, the objectives and the goals from the battle.
    fn see(&mut self, b: &Battle) {
        let side = self.side;
        self.enemies.clear();
        self.enemies.extend(b.alive_units().filter(|&u| b.info(u).side != side).map(|u| {
            // Its range as the battle has it: a variant's own arm's, not the arm it acts as.
            (b.unit(u).at, b.info(u).arm, b.range(u), b.unit(u).facing, b.unit(u).shaken)
        }));
        self.objectives.clear();
        self.objectives.extend(b.scenario().objectives.iter().map(|o| (o.at, o.points)));
        if !b.scenario().changes.is_empty() {
            // What each will score at the turn limit, the scenario's timed changes to come counted.
            for (i, (_, points)) in self.objectives.iter_mut().enumerate() {
                *points = b.objective_points_at_end(i);
            }
        }
        self.goals.clear();
        let open = self.objectives.iter().enumerate().filter(|&(i, _)| b.objective_holder(i) != Some(side));
        self.goals.extend(open.map(|(_, o)| *o));
        if self.goals.is_empty() {
            self.goals.extend_from_slice(&self.objectives);
        }
    }

    /// [`attack_value`] judged by this view's weights, remembered for the view's battle.
    pub fn attack_value(&self, b: &Battle, a: &AttackAssessment) -> f32 {
        let pair = (a.target, a.attacker);
        let mut known = self.blocked.borrow_mut();
        let blocked = match known.iter().find(|(p, _)| *p == pair) {
            Some(&(_, blocked)) => blocked,
            None => {
                let blocked = !b.can_retreat(a.target, a.attacker);
                known.push((pair, blocked));
                blocked
            }
        };
        let key = AttackKey { target: a.target, charge: a.charge, needed: a.needed, blocked };
        let mut attacks = self.attacks.borrow_mut();
        if let Some(&(_, value)) = attacks.iter().find(|(k, _)| *k == key) {
            return value;
        }
        let value = attack_value(b, a, blocked, &self.weights);
        attacks.push((key, value));
        value
    }

    /// How good it is for `unit` to stand on `at` facing `facing`: objectives, cover, height, threats, flanks,
    /// guns kept out of charge range, and targets in its front arc.
    pub fn square_score(&self, b: &Battle, unit: UnitId, at: Square, facing: Dir) -> f32 {
        let mut scores = [0.0; 4];
        self.scores_into(b, unit, Self::class(b, unit), at, &mut scores);
        scores[facing.index()]
    }

    /// All that a square's score knows of the unit: its arm (a variant's own arm apart from the arm it acts as,
    /// since its range may differ), and whether it is shaken.
    fn class(b: &Battle, unit: UnitId) -> usize {
        b.info(unit).arm_place() as usize * 2 + b.unit(unit).shaken as usize
    }

    /// [`View::square_score`] of each facing into `out`, remembered for the unit's `class`.
    ///
    /// Written into the caller's place rather than returned: a returned array was stored a facing at a time and
    /// at once read back whole to be copied, which the processor cannot forward from its pending stores.
    fn scores_into(&self, b: &Battle, unit: UnitId, class: usize, at: Square, out: &mut [f32; 4]) {
        let mut scored = self.scored.borrow_mut();
        match scored.get(class, at) {
            Some(scores) => *out = scores,
            None => {
                let scores = self.square_scores(b, unit, at);
                scored.put(class, at, scores);
                *out = scores;
            }
        }
    }

    /// [`View::square_score`] for each facing (in the order of [`Dir::ALL`]).
    fn square_scores(&self, b: &Battle, unit: UnitId, at: Square) -> [f32; 4] {
        let info = b.info(unit);
        debug_assert_eq!(info.side, self.side);
        let shaken = b.unit(unit).shaken;
        let guns = info.arm == Arm::Artillery;
        let map = &b.scenario().map;
        let w = &self.weights;
        let (shaken_i, guns_i) = (shaken as usize, guns as usize);
        // Every term is added to each facing's score in the same order.
        let mut score = [0.0f32; 4];
        let add = |score: &mut [f32; 4], term: f32| score.iter_mut().for_each(|s| *s += term);
        if let Some(&(_, points)) = self.objectives.iter().find(|(s, _)| *s == at) {
            add(&mut score, w.objective * points as f32);
        }
        if let Some(d) = self.goals.iter().map(|(s, _)| s.distance(at)).min() {
            add(&mut score, -(w.goal_distance[guns_i] * d as f32));
        }
        if map.gives_cover(at) {
            add(&mut score, w.cover[shaken_i]);
        }
        add(&mut score, w.elevation * map.elevation(at) as f32);
        let my_range = b.range(unit);
        for &(e_at, e_arm, e_range, _, e_shaken) in &self.enemies {
            let d = e_at.distance(at);
            let reach = e_range + (e_arm != Arm::Artillery) as u8;
            if d <= reach {
                add(&mut score, -w.in_reach[shaken_i]);
            }
            if d == 1 {
                for facing in Dir::ALL {
                    score[facing.index()] += match at.aspect_of(facing, e_at) {
                        Some(Aspect::Front) => w.adjacent[0],
                        _ => -w.adjacent[1],
                    };
                }
                if guns {
                    add(&mut score, -w.guns_exposed[0]);
                }
            }
            if guns && d == 2 && e_arm != Arm::Artillery {
                add(&mut score, -w.guns_exposed[1]);
            }
            if d <= my_range {
                for facing in Dir::ALL {
                    if at.front_arc_holds(facing, e_at) {
                        score[facing.index()] += w.target[e_shaken as usize];
                    }
                }
            }
        }
        score
    }
}

/// Squares a [`View`] has scored, by the kind of unit (its arm, and whether it is shaken: all the score knows of
/// the unit) and the square: one slot each, a slot counting as empty unless written since the last
/// [`ScoredSquares::clear`] (so that clearing costs nothing, however big the board).
#[derive(Clone, Debug)]
struct ScoredSquares {
    /// The board's width and its number of squares, for a square's slot.
    width: usize,
    squares: usize,
    /// Which clearing this is: a slot written before it is empty.
    round: u32,
    slots: Vec<(u32, [f32; 4])>,
}

impl ScoredSquares {
    /// Room for the squares of `scenario`'s map, for each kind of unit a score tells apart: each arm of its rules
    /// (the standard three, and a variant's own), steady or shaken ([`View::class`]).
    fn new(scenario: &Scenario) -> ScoredSquares {
        let (width, height) = (scenario.map.width() as usize, scenario.map.height() as usize);
        let squares = width * height;
        let classes = scenario.system().arms().len() * 2;
        ScoredSquares { width, squares, round: 1, slots: vec![(0, [0.0; 4]); classes * squares] }
    }

    /// Forgets every score.
    fn clear(&mut self) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            // Once in four billion clearings a slot's round could come back: start the slots again.
            self.slots.iter_mut().for_each(|slot| slot.0 = 0);
            self.round = 1;
        }
    }

    fn slot(&self, class: usize, at: Square) -> usize {
        class * self.squares + at.y as usize * self.width + at.x as usize
    }

    fn get(&self, class: usize, at: Square) -> Option<[f32; 4]> {
        let (round, scores) = self.slots[self.slot(class, at)];
        (round == self.round).then_some(scores)
    }

    fn put(&mut self, class: usize, at: Square, scores: [f32; 4]) {
        let slot = self.slot(class, at);
        self.slots[slot] = (self.round, scores);
    }
}

/// The expected worth of an attack, from its exact odds (the engine's `attack_odds` arithmetic, R6.4, R7.1):
/// shaken is passing, a retreat is more, destruction most — and the game when it exhausts the enemy. `blocked`:
/// whether the target has no square to retreat to.
pub fn attack_value(b: &Battle, a: &AttackAssessment, blocked: bool, w: &Weights) -> f32 {
    let odds = AttackOdds::from_assessment(a, RetreatPath::of(blocked), b.options().blocked_retreat);
    let side = b.info(a.target).side;
    let worth = b.strength(a.target) as f32 / 4.0 + 0.5;
    let destroyed = if b.destroyed(side) + 1 >= b.exhaustion_point(side) { 100.0 } else { w.results[3] * worth };
    let p = |x: Prob| *x.numer() as f32 / *x.denom() as f32;
    p(odds.shaken) * w.results[0] * worth
        + p(odds.stand) * w.results[1] * worth
        + p(odds.retreat) * w.results[2] * worth
        + p(odds.destroyed) * destroyed
}

/// The gain of an order for the unit carrying it out, against holding where it is; `here` is the unit's
/// [`View::square_score`] where it stands (the same for every order, so computed once by the caller), and
/// `assessment` the attack's, for an attacking order ([`Battle::list_assessed`]).
pub fn order_value(
    b: &Battle,
    view: &View,
    unit: UnitId,
    here: f32,
    action: &Action,
    assessment: Option<&AttackAssessment>,
) -> f32 {
    let at = b.unit(unit).at;
    let class = View::class(b, unit);
    OrderJudge { b, view, unit, class, at, here, last_at: None, last: [0.0; 4] }.value(action, assessment)
}

/// The judge of one unit's orders, each valued as [`order_value`] values it: the unit's kind and its square's
/// score found once, and a square's four facings scored once for the orders that end there one after another (as
/// the legal actions list them).
pub struct OrderJudge<'a> {
    b: &'a Battle,
    view: &'a View,
    unit: UnitId,
    class: usize,
    /// The unit's square, and its score there.
    at: Square,
    here: f32,
    /// The square scored last (none yet), and its facings' scores: apart, not an `Option` of a pair, so that a
    /// score is read back as it was written, one facing at a time.
    last_at: Option<Square>,
    last: [f32; 4],
}

impl<'a> OrderJudge<'a> {
    /// The judge of `unit`'s orders in `b`, from `view`.
    pub fn new(b: &'a Battle, view: &'a View, unit: UnitId) -> OrderJudge<'a> {
        let state = b.unit(unit);
        let class = View::class(b, unit);
        let mut judge = OrderJudge { b, view, unit, class, at: state.at, here: 0.0, last_at: None, last: [0.0; 4] };
        judge.here = judge.score(state.at, state.facing);
        judge
    }

    #[inline]
    fn score(&mut self, at: Square, facing: Dir) -> f32 {
        if self.last_at != Some(at) {
            self.view.scores_into(self.b, self.unit, self.class, at, &mut self.last);
            self.last_at = Some(at);
        }
        self.last[facing.index()]
    }

    /// The gain of `action` against holding, as [`order_value`] gives it.
    #[inline]
    pub fn value(&mut self, action: &Action, assessment: Option<&AttackAssessment>) -> f32 {
        match *action {
            Action::Hold | Action::Activate(_) | Action::EndActivations => 0.0,
            Action::Move { to, facing } | Action::Advance { to, facing } => self.score(to, facing) - self.here,
            // Most orders are moves: the attacks are valued apart, so that judging a move stays small.
            _ => self.attack_order_value(action, assessment),
        }
    }

    /// [`OrderJudge::value`] of an attacking order.
    #[inline(never)]
    fn attack_order_value(&mut self, action: &Action, assessment: Option<&AttackAssessment>) -> f32 {
        let (b, view, here, at) = (self.b, self.view, self.here, self.at);
        let attack = assessment.map_or(0.0, |a| view.attack_value(b, a));
        match *action {
            Action::Fire { facing, .. } => attack + self.score(at, facing) - here,
            Action::MoveFire { to, facing, .. } => attack + self.score(to, facing) - here,
            Action::FireMove { .. } => attack + view.weights.fire_move,
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pacw_engine::system::CombatSystem;

    /// A square's score is kept for the kind of unit it was scored for: a variant's own arm, whose range differs
    /// from the arm's it acts as (skirmishers reach 3, infantry 2), is scored by its own range, whichever of the two
    /// the view scored first.
    #[test]
    fn a_variant_s_own_arm_is_scored_by_its_own_range_whoever_was_scored_first() {
        let variant = include_str!("../../../../docs/examples/skirmishers.toml");
        let text = include_str!("../../../../docs/examples/skirmish.toml");
        let system = CombatSystem::with_variant(variant, "skirmishers.toml").unwrap();
        let b = Battle::from_scenario(Arc::new(Scenario::parse_with(text, "skirmish.toml", Arc::new(system)).unwrap()));
        let side = Side::A;
        let of_side = |own: bool| {
            b.unit_ids().find(|&u| {
                let info = b.info(u);
                info.side == side && info.arm == Arm::Infantry && info.own_arm.is_some() == own
            })
        };
        let (skirmisher, infantry) = (of_side(true).unwrap(), of_side(false).unwrap());
        assert_ne!(b.range(skirmisher), b.range(infantry));
        let squares: Vec<Square> = b.scenario().map.squares().collect();
        let scores = |view: &View, unit| -> Vec<f32> {
            squares.iter().flat_map(|&at| Dir::ALL.map(|facing| view.square_score(&b, unit, at, facing))).collect()
        };
        let alone = scores(&View::new(&b, side, &Weights::GREEDY), skirmisher);
        let after_infantry = View::new(&b, side, &Weights::GREEDY);
        let infantry_scores = scores(&after_infantry, infantry);
        assert_ne!(alone, infantry_scores, "some square is scored apart by the range");
        assert_eq!(scores(&after_infantry, skirmisher), alone);
    }
}
