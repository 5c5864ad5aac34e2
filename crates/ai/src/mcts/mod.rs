//! The `mcts` player: Monte Carlo search over the engine's explicit chance nodes, with greedy rollouts.
//!
//! Chance is always drawn with the engine's exact probabilities from the search's own generator: the real game's
//! seeded future is never looked at. Two searches are offered:
//!
//! - **common random worlds** (the default): the root's eight best candidates by the greedy ranking are each played
//!   out in the same sampled worlds — every world seeds the dice, the cards and the rollout policy alike for every
//!   candidate — so their comparison is not drowned by the dice (a paired comparison). Each play-out is a greedy
//!   rollout of thirty-two decisions, then the static evaluation of [`crate::evaluator::leaf::hand_value`] (points, strength,
//!   exhaustion). The greedy choice is kept unless another candidate beats it by two standard errors of their
//!   paired difference: a lead within the noise is not worth leaving a sound move for. The worlds are played in
//!   rounds shared among all cores, and the search stops after a round once no candidate could still overtake the
//!   greedy choice by the end of its budget (most decisions are settled well before).
//! - **a UCB tree** (`mcts:tree`): decision nodes choose by UCB1 and widen progressively through the greedy ranking
//!   of their actions; chance nodes sample their outcome; a new leaf is valued by the same rollout and evaluation.
//!
//! Measured against `greedy` the paired search is the stronger (docs/findings.md). With `:pgsN` the side's own play
//! (its candidates' ranking, its default choice and its decisions in the play-outs) is by scripts assigned to its
//! units, the assignment improved at each choice of a unit to activate by Portfolio Greedy Search ([`portfolio`]).

pub(crate) mod chance;
mod portfolio;
mod tree;
mod worlds;

use crate::Player;
use crate::evaluator::leaf::{LEAF_FEATURES, fitted_value, hand_value, leaf_features};
use crate::greedy::judgement::Weights;
use crate::greedy::scripts::Assignment;
use crate::greedy::{GreedyPlayer, greedy_choice};
use pacw_engine::{Action, Battle, ChanceKind, Event, Outcome, Side, ToAct, UnitId, odds};

/// How long the search may think about each decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations: deterministic for a given seed.
    Iterations(u32),
    /// A wall-clock time per decision: stronger on a fast machine, but not reproducible.
    Millis(u64),
    /// Iterations a decision scaled to the battle's size, so that a game's thinking is about the same whatever the
    /// battle (`mcts:gN`): N on a battle of Meeting Engagement's size (12 units, 6 turns), fewer on a larger one
    /// ([`Budget::for_battle`]). Deterministic for a given seed, as [`Budget::Iterations`].
    Scaled(u32),
}

impl Budget {
    /// The budget for a decision in `battle`: [`Budget::Scaled`] becomes iterations in proportion to
    /// `12^1.5 × 6 / (units^1.5 × turns)` — a game asks about units × turns decisions, and a play-out's cost grows
    /// about as the square root of the units, fitted on the default's thinking on the shipped battles
    /// (docs/findings.md) — and never fewer than `floor` ([`MctsConfig::scaled_floor`], at least one). The other
    /// budgets are kept.
    pub fn for_battle(self, battle: &Battle, floor: u32) -> Budget {
        let Budget::Scaled(n) = self else { return self };
        let size = |units: f64, turns: f64| units.powf(1.5) * turns;
        let scale = size(12.0, 6.0) / size(battle.scenario().units.len() as f64, battle.turn_limit().max(1) as f64);
        Budget::Iterations(((n as f64 * scale).round() as u32).max(floor.min(n)).max(1))
    }
}

/// The fewest iterations a decision [`Budget::Scaled`] gives by default, however large the battle.
pub const MIN_SCALED_ITERATIONS: u32 = 800;

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
    /// How a play-out's last position is valued.
    pub leaf: Leaf,
    /// Compare the root's best candidates on common random worlds (the default), instead of growing a UCB tree.
    pub common_worlds: bool,
    /// On common worlds, how many standard errors a candidate must beat the greedy choice by to be played instead
    /// (0: the best mean is played).
    pub confidence: f32,
    /// On common worlds, whether the search may stop before its budget once its choice is settled, and how
    /// optimistic it then is: it stops when no candidate could still beat the greedy choice by `confidence` standard
    /// errors at the end of the budget, even were it this many standard errors better than measured so far
    /// (`:sZ`; `None`, `:soff`: it always plays its whole budget).
    pub stop_early: Option<f32>,
    /// On common worlds, how a world decides each chance event.
    pub chance: WorldChance,
    /// On common worlds, how many of each unit's best orders a choice of the unit to activate is compared with (0:
    /// the activation and the order are searched apart). The order chosen with the unit is then played without a
    /// second search.
    pub orders_per_unit: usize,
    /// What ranks the root's candidates and makes the default choice (`:n1`: the value network's one-ply
    /// judgement, as `td` plays; by default greedy's judgement, [`MctsConfig::weights`]).
    pub ranking: Ranking,
    /// The search's own judgement of a decision: it ranks the candidates (unless [`MctsConfig::ranking`] says
    /// otherwise), makes the default choice and plays the search's side in the play-outs. The other side is played
    /// as `greedy` plays ([`Weights::GREEDY`]).
    pub weights: Weights,
    /// How much of the play-outs' luck is taken out of their values (`:vB`; 0: none). Each attack's dice are
    /// judged as they fall: the leaf value just after them, less its mean over every way they could have fallen
    /// (R6.4, R7.1). That difference has mean zero whatever the position, so subtracting it leaves a play-out's
    /// expected value unchanged and takes out the part of its spread the dice made (variance reduction, as
    /// backgammon programs do in their rollouts).
    pub luck: f32,
    /// A bound on the thinking time of a decision whatever the budget (`:lMS`): the search stops once it is past,
    /// after the play-out under way, and chooses from what it has seen (at least one play-out per candidate).
    /// A safety bound for servers: with it the choice may depend on the machine's speed.
    pub time_limit: Option<std::time::Duration>,
    /// The fewest iterations a [`Budget::Scaled`] decision gets on a large battle (`:fN`; default
    /// [`MIN_SCALED_ITERATIONS`]): lower, a large battle's game is thought about as long as a small one's.
    pub scaled_floor: u32,
    /// On common worlds, the opponent's judgement in the play-outs (`:oN`): 0 plays it as `greedy` in every world;
    /// N > 0 plays it by [`Weights::TUNED`] in one world of every N + 1, so that a candidate is valued against more
    /// than one way of answering it (a search that exploits one exactly modelled opponent gains little against
    /// another search).
    pub opponent_mix: u32,
    /// On common worlds, how the play-outs are shared among the candidates (`:race`, `:even`).
    pub allocation: Allocation,
    /// On common worlds, the most a decision may spend, as a multiple of its own budget (`:bN`; 1: its own budget
    /// only): the play-outs a decision settled early did not spend are saved, and a later decision whose choice is
    /// not settled may spend them. A game's thinking stays within its decisions' budgets, and goes where the close
    /// calls are.
    pub bank: u32,
    /// On common worlds, whether a choice to leave the greedy choice is measured again on as many fresh worlds
    /// before it is played, and kept only if it still leads there (`:check`). The lead it was chosen on is the
    /// largest of several noisy leads, and so too high on average (the winner's curse); fresh worlds are not.
    pub second_opinion: bool,
    /// On common worlds, the worlds a unit's scripts are compared on at each choice of the unit to activate
    /// (`:pgsN`; 0: no scripts): before the search, the assignment of scripts to the side's units is improved by
    /// Portfolio Greedy Search ([`crate::greedy::scripts`]), and the search then ranks its candidates and plays its side
    /// in the play-outs by it, so that its own future play is more than greedy's. With `:k1` the assignment alone
    /// chooses.
    pub portfolio_worlds: usize,
    /// With [`MctsConfig::portfolio_worlds`], how many of the side's units have their scripts compared at each
    /// choice of a unit to activate (`:uN`), in turn, so that a large battle's decision costs no more than a small
    /// one's: the assignment carries over from decision to decision.
    pub portfolio_units: usize,
}

/// How the common-world search shares its play-outs among the candidates.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Allocation {
    /// Every candidate is played in every world until the choice is settled (`:even`).
    Even,
    /// A race (`:race`): after each round, a candidate that could no longer beat the greedy choice, even with every
    /// play-out left, stops being played (by the early stop's test, [`MctsConfig::stop_early`], on the worlds it
    /// could still get), and its share of the budget goes to the candidates still in the race — so the close calls,
    /// where the choice is made, are measured with more worlds for the same play-outs.
    Racing,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget::Iterations(DEFAULT_ITERATIONS),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            exploration: 0.5,
            rollout_decisions: 32,
            max_children: 8,
            leaf: Leaf::Material,
            common_worlds: true,
            confidence: 2.0,
            stop_early: Some(DEFAULT_STOP_EARLY),
            chance: WorldChance::Sequential,
            orders_per_unit: 0,
            ranking: Ranking::Greedy,
            weights: Weights::GREEDY,
            luck: 0.0,
            time_limit: None,
            scaled_floor: MIN_SCALED_ITERATIONS,
            opponent_mix: 0,
            allocation: Allocation::Even,
            bank: 1,
            second_opinion: false,
            portfolio_worlds: 0,
            portfolio_units: DEFAULT_PORTFOLIO_UNITS,
        }
    }
}

/// What ranks the common-world search's candidates and makes its default choice, the one kept unless another is
/// confidently better.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// Greedy's judgement ([`MctsConfig::weights`]): the default choice is greedy's (`:n0`).
    Greedy,
    /// The value network at one ply, as `td` chooses (`:n1`): each plan (an activation with its order, or a lone
    /// action) judged by the network in play after it, the default choice `td`'s; plans that differ only in the
    /// facing they end with are one candidate, by their best-judged facing; greedy's choice is always among the
    /// candidates, second, so that the search measures the two players' choices against each other.
    Network,
}

/// How a common world decides the chance events of a play-out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WorldChance {
    /// From a generator seeded by the world, in the order the events come (`:cseq`): two play-outs share their
    /// dice only until they part ways.
    Sequential,
    /// From the world and each event's identity (`:cevent`): the same attack rolls the same dice in every play-out
    /// of the world, however they got there.
    ByEvent,
}

/// How the search values the position a play-out stops in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// [`hand_value`] on points, strength and exhaustion (`:e0`).
    Material,
    /// [`hand_value`] with the squares' worth to their units too (`:e1`).
    Positional,
    /// [`fitted_value`]: who wins greedy play from here, as fitted on greedy games (`:e2`).
    Fitted,
    /// The fitted evaluator's winning chances ([`crate::evaluator::shared_reference`], `:e3`) whatever the judge in
    /// force, averaged over the chance events pending (a card to draw), so that a leaf's value is the mean of its
    /// outcomes' as the luck measure needs.
    Evaluator,
    /// As `:e3`, judged by the value network ([`crate::evaluator::shared_network`], `:e4`) whatever the judge in
    /// force.
    Network,
}

/// The units whose scripts are compared at a decision by default ([`MctsConfig::portfolio_units`]).
pub const DEFAULT_PORTFOLIO_UNITS: usize = 4;

/// The default number of iterations a decision (400 worlds for each of eight candidates), of which the search
/// plays on average about two thirds: it stops once its choice is settled ([`DEFAULT_STOP_EARLY`]). The strongest
/// budget measured that keeps a whole game's thinking under a minute on a 2-core machine (docs/findings.md).
pub const DEFAULT_ITERATIONS: u32 = 3200;

/// By default the search stops early once no candidate could beat the greedy choice at the end of its budget even
/// were it one and a half standard errors better than measured so far (`:s1.5`): over seven measured games this
/// saved a third of the play-outs and changed 3 of the 69 choices that left greedy's.
pub const DEFAULT_STOP_EARLY: f32 = 1.5;

/// Searches a decision with Monte Carlo tree search.
#[derive(Clone, Debug)]
pub struct MctsPlayer {
    config: MctsConfig,
    seed: u64,
    decisions: u64,
    /// The order chosen with the last activation, and the battle it was chosen for (just after the activation).
    planned: Option<(Battle, Action)>,
    /// Play-outs earlier decisions saved ([`MctsConfig::bank`]).
    saved: usize,
    /// How the last search measured its candidates.
    measured: Vec<Measured>,
    /// The scripts its units are played by ([`MctsConfig::portfolio_worlds`]), improved at each choice of a unit to
    /// activate from where the last left it, and the place in its side's units where the next improvement begins.
    assignment: Option<Assignment>,
    next_unit: usize,
}

/// How a common-world search measured one of its candidates against the greedy choice ([`MctsPlayer::measured`]):
/// the paired difference of their play-outs' values over the worlds both were played in, for the side choosing.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Measured {
    /// The candidate's action.
    pub action: Action,
    /// After an activation, the order compared with it ([`MctsConfig::orders_per_unit`]).
    pub order: Option<Action>,
    /// The worlds it was played in.
    pub worlds: usize,
    /// Its mean difference from the greedy choice's value (0 for the greedy choice itself; above 0: better for the
    /// side choosing).
    pub mean: f64,
    /// The standard error of that mean.
    pub standard_error: f64,
}

/// A choice the search compares: an action, and after an activation the order the unit is to be given.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) struct Plan {
    action: Action,
    order: Option<Action>,
}

impl MctsPlayer {
    /// A search player with its own seed.
    pub fn new(config: MctsConfig, seed: u64) -> Self {
        MctsPlayer {
            config,
            seed,
            decisions: 0,
            planned: None,
            saved: 0,
            measured: Vec::new(),
            assignment: None,
            next_unit: 0,
        }
    }

    /// How the last decision's common-world search measured each of its candidates against the greedy choice, the
    /// greedy choice first; empty if the last decision was not searched so (a single legal action, an order planned
    /// with its activation, the tree search). The laboratory learns from these measurements.
    pub fn measured(&self) -> &[Measured] {
        &self.measured
    }

    /// Its settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Improves the scripts of the next [`MctsConfig::portfolio_units`] units of `side` (alive, in turn from where
    /// the last decision stopped) for the choice of the unit to activate in `battle`.
    fn improve_assignment(&mut self, battle: &Battle, side: Side, seed: u64) {
        let present = self.assignment.take().filter(|a| a.side() == side);
        let present = present.unwrap_or_else(|| Assignment::greedy(side, battle.scenario().units.len()));
        let units: Vec<UnitId> = battle.alive_units().filter(|&u| battle.info(u).side == side).collect();
        let start = self.next_unit % units.len().max(1);
        let take = self.config.portfolio_units.clamp(1, units.len().max(1));
        let turn: Vec<UnitId> = units.iter().cycle().skip(start).take(take).copied().collect();
        self.next_unit = start + take;
        self.assignment = Some(portfolio::improve(battle, &self.config, seed ^ 0x5c21_9e7a, present, &turn).0);
    }
}

/// The greedy judgement the search plays each side with when `side` is the one searching.
pub(super) fn side_weights(config: &MctsConfig, side: Side) -> [Weights; 2] {
    let mut weights = [Weights::GREEDY; 2];
    weights[side.index()] = config.weights;
    weights
}

/// How the search plays out a new leaf and values where the play-out stops: set up once a search.
pub(super) struct Playout {
    decisions: u16,
    /// Each side's greedy judgement in the play-outs.
    pub(super) weights: [Weights; 2],
    leaf: Leaf,
    /// The leaf features of the battle's first position, from which [`Leaf::Fitted`] measures the change.
    start: [f32; LEAF_FEATURES],
    /// The share of the measured luck taken out of a play-out's value ([`MctsConfig::luck`]).
    luck: f32,
}

impl Playout {
    pub(super) fn new(root: &Battle, config: &MctsConfig) -> Playout {
        let start = match config.leaf {
            Leaf::Fitted => leaf_features(&Battle::new(root.scenario().clone(), *root.options())),
            _ => [0.0; LEAF_FEATURES],
        };
        let side = match root.to_act() {
            ToAct::Side(side) => side,
            _ => root.active_side(),
        };
        Playout {
            decisions: config.rollout_decisions,
            weights: side_weights(config, side),
            leaf: config.leaf,
            start,
            luck: config.luck,
        }
    }

    /// Plays greedy decisions from a new leaf, chance decided by `chance`, then values the position for the first
    /// side, less the share [`MctsConfig::luck`] of the luck its attacks' dice brought.
    pub(super) fn value(
        &self,
        mut b: Battle,
        policy: &mut GreedyPlayer,
        mut chance: impl FnMut(&Battle) -> Outcome,
    ) -> f32 {
        let mut left = self.decisions;
        let mut events = Vec::new();
        let mut luck = 0.0;
        let mut attack_expected = None;
        loop {
            match b.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance(kind) => {
                    if self.luck != 0.0 && kind == ChanceKind::ToHit {
                        attack_expected = Some(self.attack_expectation(&b, &mut events));
                    }
                    let o = chance(&b);
                    events.clear();
                    b.apply_chance_into(o, &mut events).expect("chance gives legal outcomes");
                    if let Some(expected) = attack_expected
                        && b.to_act() != ToAct::Chance(ChanceKind::HitResult)
                    {
                        luck += self.leaf_value(&b) - expected;
                        attack_expected = None;
                    }
                }
                ToAct::Side(_) if left == 0 => break,
                ToAct::Side(_) => {
                    events.clear();
                    let a = greedy_choice(policy, &b).expect("a side is to act");
                    b.apply_unchecked(a, &mut events);
                    left -= 1;
                }
            }
        }
        self.leaf_value(&b) - self.luck * luck
    }

    /// How the search values a position for the first side.
    fn leaf_value(&self, b: &Battle) -> f32 {
        match self.leaf {
            Leaf::Material => hand_value(b, false),
            Leaf::Positional => hand_value(b, true),
            Leaf::Fitted => fitted_value(b, &self.start),
            Leaf::Evaluator => crate::evaluator::shared_reference().value(b),
            Leaf::Network => crate::evaluator::shared_network().value(b),
        }
    }

    /// The mean leaf value just after the dice of the attack whose to-hit die is to be rolled, over every way they
    /// can fall (R6.4: the to-hit die decides only hit or miss; R7.1: a hit's own die).
    fn attack_expectation(&self, b: &Battle, events: &mut Vec<Event>) -> f32 {
        let (_, _, needed) = b.pending_attack().expect("a to-hit die is pending");
        let roll = |b: &Battle, face: u8, events: &mut Vec<Event>| {
            let mut after = b.clone();
            events.clear();
            after.apply_chance_into(Outcome::Die(face), events).expect("a die face is a legal outcome");
            after
        };
        let hits = (1..=6u8).filter(|&face| odds::hits(face, needed)).count() as f32;
        // A hit needs at least some number (R6.4), so a 1 stands for every miss and a 6 for every hit.
        let mut expected = 0.0;
        if hits < 6.0 {
            let miss = roll(b, 1, events);
            expected += (6.0 - hits) / 6.0 * self.leaf_value(&miss);
        }
        if hits > 0.0 {
            let hit = roll(b, 6, events);
            let results: f32 = (1..=6u8).map(|face| self.leaf_value(&roll(&hit, face, events))).sum();
            expected += hits / 6.0 * results / 6.0;
        }
        expected
    }
}

impl Player for MctsPlayer {
    fn name(&self) -> &str {
        "mcts"
    }

    fn choose(&mut self, battle: &Battle) -> Action {
        self.measured.clear();
        if let Some((expected, order)) = self.planned.take()
            && *battle == expected
        {
            return order;
        }
        let legal = battle.legal_actions();
        if legal.len() == 1 {
            return legal[0];
        }
        self.decisions += 1;
        let base = self.seed ^ self.decisions.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut config = self.config;
        if config.common_worlds {
            if config.portfolio_worlds > 0
                && battle.active_unit().is_none()
                && let ToAct::Side(side) = battle.to_act()
            {
                let started = crate::clock::Instant::now();
                self.improve_assignment(battle, side, base);
                // The search has what is left of the decision's time.
                let spent = started.elapsed();
                config.time_limit = config.time_limit.map(|limit| limit.saturating_sub(spent));
                if let Budget::Millis(ms) = config.budget {
                    config.budget = Budget::Millis(ms.saturating_sub(spent.as_millis() as u64).max(1));
                }
            }
            let searched = worlds::common_world_search(battle, &config, base, self.saved, self.assignment.as_ref());
            self.saved = searched.saved;
            self.measured = searched.measured;
            let plan = searched.plan;
            if let Some(order) = plan.order {
                let mut after = battle.clone();
                after.apply(plan.action).expect("the search chooses legal actions");
                self.planned = Some((after, order));
            }
            plan.action
        } else {
            tree::root_parallel_search(battle, &config, base, &legal)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pacw_engine::{DEFAULT_SCENARIO, Game};

    /// The default scenario at its first decision of a side about which unit to activate.
    pub(super) fn first_activation() -> Battle {
        let game = Game::new(DEFAULT_SCENARIO, "default", None, 4).expect("the default scenario is valid");
        let battle = game.battle().clone();
        assert!(battle.active_unit().is_none() && battle.legal_actions().len() > 2, "a choice of unit to activate");
        battle
    }

    #[test]
    fn a_scaled_budget_gives_larger_battles_fewer_iterations_a_decision() {
        let battle = |name: &str| {
            let pacw_engine::Shipped { file, text, .. } =
                pacw_engine::shipped_named(pacw_engine::offered_scenarios(), name).unwrap();
            Battle::from_scenario(std::sync::Arc::new(pacw_engine::Scenario::parse(text, file).unwrap()))
        };
        let iterations = |file: &str, n| match Budget::Scaled(n).for_battle(&battle(file), MIN_SCALED_ITERATIONS) {
            Budget::Iterations(i) => i,
            other => panic!("{other:?} is not iterations"),
        };
        assert_eq!(iterations("meeting-engagement", 25600), 25600, "the reference size keeps its budget");
        let (lane, heights) = (iterations("bloody-lane", 25600), iterations("maryes-heights", 25600));
        assert!(heights < lane && lane < 25600, "more units and turns, fewer iterations: {lane}, {heights}");
        assert_eq!(iterations("antietam", 25600), MIN_SCALED_ITERATIONS, "however large the battle, a floor");
        assert_eq!(Budget::Iterations(7).for_battle(&battle("antietam"), 800), Budget::Iterations(7));
        assert_eq!(Budget::Scaled(3200).for_battle(&battle("antietam"), 0), Budget::Iterations(55), "no floor");
    }

    /// The mean of `value` over every way the pending chance events can fall until a side acts, weighed by the
    /// engine's own probabilities.
    fn exact_mean(b: &Battle, value: &dyn Fn(&Battle) -> f32) -> f32 {
        match b.to_act() {
            ToAct::Chance(_) => b
                .chance_outcomes()
                .into_iter()
                .map(|(o, p)| {
                    let mut after = b.clone();
                    after.apply_chance(o).unwrap();
                    *p.numer() as f32 / *p.denom() as f32 * exact_mean(&after, value)
                })
                .sum(),
            _ => value(b),
        }
    }

    #[test]
    fn the_luck_of_an_attack_is_measured_against_the_exact_mean_of_its_dice() {
        // Greedy play from the first decision until an attack's to-hit die is pending.
        let mut b = first_activation();
        let mut greedy = GreedyPlayer::new(5);
        while b.to_act() != ToAct::Chance(ChanceKind::ToHit) {
            match b.to_act() {
                ToAct::Side(_) => b.apply(greedy.choose(&b)).unwrap(),
                _ => b.apply_chance(b.chance_outcomes()[0].0).unwrap(),
            };
        }
        for leaf in [Leaf::Material, Leaf::Positional, Leaf::Evaluator, Leaf::Network] {
            let playout = Playout::new(&b, &MctsConfig { leaf, luck: 1.0, ..Default::default() });
            let expected = playout.attack_expectation(&b, &mut Vec::new());
            let exact = exact_mean(&b, &|after| playout.leaf_value(after));
            assert!((expected - exact).abs() < 1e-5, "{leaf:?}: {expected} against the exact {exact}");
            let before = playout.leaf_value(&b);
            assert!((0.0..=1.0).contains(&expected) && expected != before, "the attack's dice can change the value");
        }
    }

    #[test]
    fn an_order_chosen_with_its_activation_is_played_without_a_second_search() {
        let config =
            MctsConfig { budget: Budget::Iterations(48), orders_per_unit: 2, threads: 1, ..Default::default() };
        let battle = first_activation();
        let mut player = MctsPlayer::new(config, 3);
        let Action::Activate(unit) = player.choose(&battle) else { panic!("the search activates a unit here") };
        let mut after = battle.clone();
        after.apply(Action::Activate(unit)).unwrap();
        let (expected, order) = player.planned.clone().expect("an order is planned with the activation");
        assert_eq!(expected, after);
        assert!(after.is_legal(order), "the planned order {order:?} is legal");
        let searches = player.decisions;
        assert!(!player.measured().is_empty(), "the activation was searched");
        assert_eq!(player.choose(&after), order);
        assert_eq!(player.decisions, searches, "the planned order needs no search");
        assert!(player.measured().is_empty(), "and so measured nothing");
        // Asked about another battle (here the one before the activation), it searches again.
        player.planned = Some((after, order));
        player.choose(&battle);
        assert_eq!(player.decisions, searches + 1);
    }

    #[test]
    fn the_player_tells_how_its_search_measured_each_candidate_against_the_greedy_choice() {
        let battle = first_activation();
        let config = MctsConfig { budget: Budget::Iterations(800), max_children: 4, threads: 1, ..Default::default() };
        let mut player = MctsPlayer::new(config, 9);
        let chosen = player.choose(&battle);
        let measured = player.measured().to_vec();
        assert_eq!(measured.len(), 4, "the four candidates");
        let mut ranker = GreedyPlayer::new(0);
        assert_eq!(measured[0].action, ranker.ranked(&battle)[0], "the greedy choice first");
        assert_eq!((measured[0].mean, measured[0].standard_error), (0.0, 0.0), "measured against itself");
        for j in &measured {
            assert!(j.worlds >= 50 && j.worlds <= 200, "every candidate played in the worlds: {}", j.worlds);
            assert!((-1.0..=1.0).contains(&j.mean) && j.standard_error >= 0.0, "{j:?}: in the leaf's units");
        }
        // The choice follows the measurements: the greedy choice, unless another leads it by `confidence` standard
        // errors (the measurements' own units: Tally's test checks them).
        let margin = |j: &Measured| j.mean - config.confidence as f64 * j.standard_error;
        let leader = measured[1..].iter().filter(|j| margin(j) > 0.0).max_by(|a, b| margin(a).total_cmp(&margin(b)));
        assert_eq!(chosen, leader.map_or(measured[0].action, |j| j.action));
    }

    #[test]
    fn play_outs_a_settled_decision_saves_go_to_a_later_one() {
        let battle = first_activation();
        let search = |bank, stop_early, saved| {
            let budget = Budget::Iterations(1600);
            let config = MctsConfig { budget, max_children: 4, stop_early, threads: 1, bank, ..Default::default() };
            worlds::common_world_search(&battle, &config, 11, saved, None)
        };
        let settled = search(2, Some(0.0), 0);
        assert!(settled.worlds < 400, "settled before its budget");
        assert_eq!(settled.saved, 1600 - 4 * settled.worlds, "what it did not spend is saved");
        let unsettled = search(2, None, 5000);
        assert_eq!(unsettled.worlds, 800, "a bank of 2: its own budget and as much again from the savings");
        assert_eq!(unsettled.saved, 5000 - 1600);
        let own = search(1, None, 5000);
        assert_eq!((own.worlds, own.saved), (400, 5000), "without a bank, its own budget only");
        assert_eq!(search(4, None, 200).worlds, 450, "no more than was saved");
    }

    #[test]
    fn a_settled_choice_stops_the_search_early_and_the_same_whatever_the_thread_count() {
        let battle = first_activation();
        let search = |stop_early, threads| {
            let budget = Budget::Iterations(1600);
            let config = MctsConfig { budget, max_children: 4, stop_early, threads, ..Default::default() };
            let searched = worlds::common_world_search(&battle, &config, 11, 0, None);
            (searched.plan, searched.worlds)
        };
        let whole = search(None, 2);
        assert_eq!(whole.1, 400, "without stopping early, the whole budget: 4 candidates x 400 play-outs");
        let early = search(Some(0.0), 1);
        assert!(early.1 < 400, "at the first decision the greedy choice is settled before the budget is spent");
        assert_eq!(early.1 % worlds::ROUND_WORLDS, 0, "it stops only between rounds");
        let on_two = search(Some(0.0), 2);
        assert_eq!(early, on_two);
    }

    #[test]
    fn the_scripts_of_a_few_units_are_compared_a_decision_in_turn_within_the_decisions_time() {
        let battle = first_activation();
        let ToAct::Side(side) = battle.to_act() else { unreachable!() };
        let own = battle.alive_units().filter(|&u| battle.info(u).side == side).count();
        let config = MctsConfig { portfolio_worlds: 50, portfolio_units: 2, max_children: 1, ..Default::default() };
        let mut player = MctsPlayer::new(config, 5);
        player.choose(&battle);
        assert_eq!(player.next_unit, 2, "two units' scripts compared");
        for _ in 0..own {
            let before = player.next_unit;
            player.choose(&battle);
            assert_eq!(player.next_unit, before % own + 2, "the next two, round the side's {own} units");
        }
        assert_eq!(player.assignment.as_ref().map(Assignment::side), Some(side));
        // However many units, the time bound holds for the scripts and the search together.
        let limit = std::time::Duration::from_millis(30);
        let bounded = MctsConfig { portfolio_units: 128, time_limit: Some(limit), ..config };
        let started = std::time::Instant::now();
        MctsPlayer::new(bounded, 5).choose(&battle);
        assert!(started.elapsed() < limit * 20, "stopped near its bound: {:?}", started.elapsed());
    }
}
