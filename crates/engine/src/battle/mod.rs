//! The battle: the state of a game in progress and the state machine that drives it (docs/rules.md R3–R9).
//!
//! At every point the battle says who acts next ([`Battle::to_act`]): a side, which chooses among
//! [`Battle::legal_actions`], or chance, whose outcomes and exact probabilities [`Battle::chance_outcomes`] lists.
//! [`Battle::apply`] and [`Battle::apply_chance`] either change the battle and report the events, or fail and
//! leave it as it was.

mod apply;
pub(crate) mod combat;
pub mod deck;
mod events;
mod legal;
mod listed;
mod movement;
mod rally;
mod units;

pub use combat::{AttackAssessment, SightLines};
pub use legal::ActivationOrders;
pub use listed::LegalActions;
use units::Units;
pub use units::{INLINE_UNITS, UnitSet, UnitSetIter};

use crate::geometry::{Dir, Square};
use crate::options::{Initiative, Options};
use crate::scenario::{MAX_OBJECTIVES, Scenario};
use crate::unit::{Side, UnitId, UnitInfo};
use deck::{Deck, initiative_value};
use std::ops::Deref;
use std::sync::Arc;

pub use crate::event::GameResult;

/// No unit: the empty value of a [`UnitState::ranging`] memory.
const NO_UNIT: u8 = u8::MAX;

/// The [`UnitState::ranging`] byte of a reinforcement's unit not yet arrived (docs/scenario-format.md#events): it is
/// off the board (`alive` false) but not lost. A unit off the board remembers no target, so the byte is free; kept
/// there, the battle stays as small as a battle without events, and no unit id (below 128) is ever equal to it.
const WAITING: u8 = u8::MAX - 1;

/// The changing state of one unit.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct UnitState {
    /// Its square.
    pub at: Square,
    /// Its facing.
    pub facing: Dir,
    /// Whether it is still on the board.
    pub alive: bool,
    /// Whether it is shaken (R2.4).
    pub shaken: bool,
    /// The unit its previous attack was at, while neither has moved since (R6.4 ranging bonus); [`WAITING`] for a
    /// reinforcement's unit not yet arrived.
    ranging: u8,
}

impl UnitState {
    /// The state of no unit: fills the unused places of a small battle's storage.
    pub(crate) const OFF_BOARD: UnitState =
        UnitState { at: Square::new(0, 0), facing: Dir::N, alive: false, shaken: false, ranging: NO_UNIT };

    /// The unit this gun ranged on with its previous attack, if neither has moved since (R6.4).
    pub fn ranging_on(&self) -> Option<UnitId> {
        (self.ranging != NO_UNIT && self.ranging != WAITING).then_some(UnitId(self.ranging))
    }
}

/// Who acts next.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ToAct {
    /// This side chooses an action.
    Side(Side),
    /// Chance: a die is rolled or a card drawn.
    Chance(ChanceKind),
    /// The game is over.
    Over(GameResult),
}

/// The kind of chance event pending (R9.1).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ChanceKind {
    /// A card is drawn from the deck (R3.3).
    Card,
    /// A side's initiative die (R3.7).
    Initiative(Side),
    /// A shaken unit's rally die, under a variant's rally roll (`[rally]`; the standard rules have none, R4.1).
    Rally,
    /// The to-hit die of an attack (R6.4).
    ToHit,
    /// The hit-result die of a hit target (R7.1).
    HitResult,
}

/// A declared attack waiting for its dice.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct PendingAttack {
    pub attacker: UnitId,
    pub target: UnitId,
    pub charge: bool,
    pub needed: u8,
    /// Fire & Move: the attacker may move after the dice (R4.2).
    pub then_advance: bool,
    /// What the dice's result does to the attacker (a variant's `[[after_attack]]`).
    pub aftermath: crate::system::Aftermath,
    /// The variant's result modifiers that apply, a bit each, and their sum (`[[result_modifiers]]`).
    pub result_modifiers: u8,
    pub result_modifier: i8,
}

/// Where the state machine stands.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Phase {
    /// Chance draws a card (R3.3).
    DrawCard,
    /// Chance rolls initiative for the first side, then the second, `a` holding the first side's roll (R3.7).
    InitiativeRoll { a: Option<u8> },
    /// The active side picks a unit to activate or ends (R3.4).
    ChooseUnit,
    /// Chance rolls a shaken unit's rally die as it is activated, against `test` (a variant's `[rally]`).
    Rally { unit: UnitId, test: crate::system::RallyTest },
    /// The activated unit chooses its order (R4.2).
    ChooseOrder { unit: UnitId },
    /// Chance rolls to hit (R6.4).
    ToHit(PendingAttack),
    /// Chance rolls the hit result (R7.1).
    HitResult(PendingAttack),
    /// After Fire & Move: the attacker may move one square; `vacated` is the square its target left (R4.4).
    Advance { unit: UnitId, vacated: Option<Square> },
    /// The game is over.
    Over(GameResult),
}

/// Which objective squares each side holds (R8.2): 0 nobody, 1 side A, 2 side B.
type Holders = [u8; MAX_OBJECTIVES];

/// What a battle holds its scenario by: shared ([`Arc`], the default) or borrowed (`&Scenario`: see
/// [`Battle::borrowed`]).
pub trait ScenarioRef: Deref<Target = Scenario> + Clone {}

impl<T: Deref<Target = Scenario> + Clone> ScenarioRef for T {}

/// A battle in progress. Cheap to clone: the scenario is shared, the state is a few hundred bytes of fixed arrays.
///
/// It holds its scenario by `S`: an [`Arc`] everywhere but in a search that clones the battle at every step, which
/// borrows it ([`Battle::borrowed`]) so that a clone is a plain copy, without counting references.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Battle<S = Arc<Scenario>> {
    scenario: S,
    options: Options,
    units: Units,
    phase: Phase,
    deck: Deck,
    turn: u8,
    /// The side whose activations are under way (cards: the card's side).
    active: Side,
    /// Activations left on the current card (R3.4).
    left: u8,
    /// Units activated on the current card (R3.4), and this turn (R3.5, R3.7), as bit sets.
    activated_card: UnitSet,
    activated_turn: UnitSet,
    /// Each side's units still on the board (kept with [`UnitState::alive`]), so that the questions asked at every
    /// step (may this unit act, has this side a unit left to act) are a few bit operations.
    on_board: [UnitSet; 2],
    /// Under `igougo` / `alternate`, the sides that have passed or finished this turn.
    done: [bool; 2],
    destroyed: [u8; 2],
    holders: Holders,
}

impl Battle {
    /// A battle at the start of the scenario, under `options` (the scenario's own, or overridden).
    pub fn new(scenario: Arc<Scenario>, options: Options) -> Battle {
        let scenario = scenario.under(&options);
        let mut waiting = UnitSet::EMPTY;
        for unit in scenario.reinforcements.iter().flat_map(|r| r.units()) {
            waiting.insert(unit);
        }
        let states: Vec<UnitState> = (scenario.units.iter().enumerate())
            .map(|(i, info)| match waiting.contains(UnitId(i as u8)) {
                false => UnitState { at: info.at, facing: info.facing, alive: true, shaken: false, ranging: NO_UNIT },
                true => UnitState { at: info.at, facing: info.facing, alive: false, shaken: false, ranging: WAITING },
            })
            .collect();
        let units = Units::new(&states);
        let mut on_board = [UnitSet::EMPTY; 2];
        for (i, info) in scenario.units.iter().enumerate().filter(|&(i, _)| !waiting.contains(UnitId(i as u8))) {
            on_board[info.side.index()].insert(UnitId(i as u8));
        }
        let mut holders = [0; MAX_OBJECTIVES];
        for (h, o) in holders.iter_mut().zip(&scenario.objectives) {
            *h = o.holder.map_or(0, |s| s.index() as u8 + 1);
        }
        let mut battle = Battle {
            scenario,
            options,
            units,
            phase: Phase::DrawCard,
            deck: Deck::full([1, 1]),
            turn: 1,
            active: Side::A,
            left: 0,
            activated_card: UnitSet::EMPTY,
            activated_turn: UnitSet::EMPTY,
            on_board,
            done: [false; 2],
            destroyed: [0; 2],
            holders,
        };
        battle.deck = Deck::full(battle.initiative_values());
        battle.phase = match options.initiative {
            Initiative::Cards => Phase::DrawCard,
            _ => Phase::InitiativeRoll { a: None },
        };
        battle
    }

    /// A battle under the scenario's own options.
    pub fn from_scenario(scenario: Arc<Scenario>) -> Battle {
        let options = scenario.options;
        Battle::new(scenario, options)
    }

    /// The scenario being played.
    pub fn scenario(&self) -> &Arc<Scenario> {
        &self.scenario
    }

    /// The same battle holding its scenario by reference: its clones copy the state and nothing else, for walks
    /// and searches that clone at every step. Actions listed in one are listed in the other ([`Battle::list_legal`]).
    pub fn borrowed(&self) -> Battle<&Scenario> {
        Battle {
            scenario: &*self.scenario,
            options: self.options,
            units: self.units.clone(),
            phase: self.phase,
            deck: self.deck,
            turn: self.turn,
            active: self.active,
            left: self.left,
            activated_card: self.activated_card,
            activated_turn: self.activated_turn,
            on_board: self.on_board,
            done: self.done,
            destroyed: self.destroyed,
            holders: self.holders,
        }
    }
}

impl<S: ScenarioRef> Battle<S> {
    /// How many units the battle has, on the board or not.
    pub(crate) fn unit_count(&self) -> u8 {
        self.units.len() as u8
    }

    /// The scenario being played, however the battle holds it (for code written for both kinds of battle; a
    /// `Battle` also lends its [`Arc`]: [`Battle::scenario`]).
    pub fn scenario_ref(&self) -> &Scenario {
        &self.scenario
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The current turn, from 1.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The cards left in the deck (meaningful under `initiative = cards`).
    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    /// The side whose activations are under way.
    pub fn active_side(&self) -> Side {
        self.active
    }

    /// Activations left on the current card (cards only).
    pub fn activations_left(&self) -> u8 {
        self.left
    }

    /// Units each side has lost.
    pub fn destroyed(&self, side: Side) -> u8 {
        self.destroyed[side.index()]
    }

    /// Who holds each objective now, by R8.2 (occupation first, then the last holder).
    pub fn objective_holders(&self) -> Vec<Option<Side>> {
        (0..self.scenario.objectives.len()).map(|i| self.objective_holder(i)).collect()
    }

    /// The side holding the scenario's `i`-th objective, if any (R8.2; `None` too if there is no such objective).
    pub fn objective_holder(&self, i: usize) -> Option<Side> {
        let at = self.scenario.objectives.get(i)?.at;
        match self.unit_at(at) {
            Some(u) => Some(self.info(u).side),
            None => match self.holders[i] {
                1 => Some(Side::A),
                2 => Some(Side::B),
                _ => None,
            },
        }
    }

    /// The state of a unit.
    pub fn unit(&self, id: UnitId) -> &UnitState {
        &self.units[id.index()]
    }

    /// The scenario's description of a unit.
    pub fn info(&self, id: UnitId) -> &UnitInfo {
        &self.scenario.units[id.index()]
    }

    /// A unit as a refusal names it: its side's name and its own ("Union Divisional Battery"), since the two armies
    /// may have units of the same name.
    pub fn side_and_name(&self, id: UnitId) -> String {
        let info = self.info(id);
        format!("{} {}", self.scenario.side(info.side).name, info.name)
    }

    /// Every unit id, alive or not.
    pub fn unit_ids(&self) -> impl Iterator<Item = UnitId> + use<S> {
        (0..self.unit_count()).map(UnitId)
    }

    /// The units still on the board.
    pub fn alive_units(&self) -> impl Iterator<Item = UnitId> + use<S> {
        self.on_board[0].union(self.on_board[1]).iter()
    }

    /// A unit's strength under the options in force (R2.2, R11: `strength.*`, `quality.*`); a unit of a variant's
    /// own arm has that arm's strength (the option `strength.<its id>`, else its file's), with its quality's
    /// adjustment.
    pub fn strength(&self, id: UnitId) -> u8 {
        self.info(id).numbers.strength
    }

    /// Squares a Move order of this unit may cover (R2.6: the option `move.*`, or its own arm's: the option
    /// `move.<its id>`, else its file's).
    pub fn movement(&self, id: UnitId) -> u8 {
        self.info(id).numbers.movement
    }

    /// This unit's range in squares (R2.6: the option `range.*`, or its own arm's: the option `range.<its id>`,
    /// else its file's).
    pub fn range(&self, id: UnitId) -> u8 {
        self.info(id).numbers.range
    }

    /// Makes a unit shaken (R2.4) without an attack: for the odds of a described situation, which ask about a
    /// shaken target whatever hit would have shaken it under the rules in force (a variant's table may have none).
    pub(crate) fn set_shaken(&mut self, id: UnitId) {
        self.units[id.index()].shaken = true;
    }

    /// The variant's own arm a unit is of, if it is of one (docs/variants.md).
    pub fn own_arm(&self, id: UnitId) -> Option<&crate::system::ArmRule> {
        let i = self.info(id).own_arm?;
        self.scenario.system().arms().get(i as usize)
    }

    /// The turn limit in force (R8.2): the option `turns`, else the scenario's.
    pub fn turn_limit(&self) -> u8 {
        self.options.turns.map_or(self.scenario.turns, |t| t.get())
    }

    /// The exhaustion point of a side in force (R8.1): a timed change's of this turn or before
    /// (docs/scenario-format.md#events), else the option `exhaustion.<side>`, else the scenario's.
    pub fn exhaustion_point(&self, side: Side) -> u8 {
        let start = || self.options.exhaustion[side.index()].unwrap_or(self.scenario.side(side).exhaustion);
        if self.scenario.changes.is_empty() || !self.options.events.is_on() {
            return start();
        }
        self.scenario.exhaustion_changed_on(side, self.turn).unwrap_or_else(start)
    }

    /// What the scenario's objective `i` scores now (R8.2): its points, as a timed change may have set them.
    pub fn objective_points(&self, i: usize) -> u8 {
        self.objective_points_on(i, || self.turn)
    }

    /// What objective `i` will score at the turn limit (R8.2), the timed changes still to come counted: what a
    /// side playing for the end weighs it at.
    pub fn objective_points_at_end(&self, i: usize) -> u8 {
        self.objective_points_on(i, || self.turn_limit())
    }

    /// Objective `i`'s points on the turn `turn` gives, asked only when the scenario has timed changes in force: a
    /// battle without them (the greedy player asks at every decision) reads the file's points and nothing else.
    fn objective_points_on(&self, i: usize, turn: impl FnOnce() -> u8) -> u8 {
        if self.scenario.changes.is_empty() || !self.options.events.is_on() {
            return self.scenario.objectives.get(i).map_or(0, |o| o.points);
        }
        self.scenario.objective_points_on(i, turn())
    }

    /// Whether a reinforcement's unit has yet to arrive (docs/scenario-format.md#events): it is not on the board,
    /// and not lost.
    pub fn is_waiting(&self, id: UnitId) -> bool {
        self.units[id.index()].ranging == WAITING
    }

    /// The turn at whose start a reinforcement's unit still waiting is next due to enter its square: its group's
    /// turn, or the next turn once that has passed (its square was held). `None` for a unit on the board or lost,
    /// when the events are off, or when the turn is past the turn limit.
    pub fn arrival_due(&self, id: UnitId) -> Option<u8> {
        if !self.is_waiting(id) || !self.options.events.is_on() {
            return None;
        }
        let due = self.scenario.reinforcement_of(id)?.turn.max(self.turn + 1);
        (due <= self.turn_limit()).then_some(due)
    }

    /// The units yet to arrive, by id.
    pub fn waiting_units(&self) -> impl Iterator<Item = UnitId> + '_ {
        let late = self.scenario.reinforcements.iter().flat_map(|r| r.units());
        late.filter(|&u| self.is_waiting(u))
    }

    /// A reinforcement's unit arrives: on the board, steady, with no target ranged on.
    pub(super) fn set_arrived(&mut self, unit: UnitId) {
        let state = &mut self.units[unit.index()];
        state.alive = true;
        state.ranging = NO_UNIT;
        self.on_board[self.scenario.units[unit.index()].side.index()].insert(unit);
    }

    /// The unit on a square, if any.
    pub fn unit_at(&self, s: Square) -> Option<UnitId> {
        self.units.iter().position(|u| u.alive && u.at == s).map(|i| UnitId(i as u8))
    }

    /// Units of a side on the board.
    pub fn units_on_board(&self, side: Side) -> usize {
        self.on_board[side.index()].len()
    }

    /// Each side's initiative value now (R3.1).
    pub fn initiative_values(&self) -> [u8; 2] {
        Side::BOTH.map(|s| initiative_value(self.units_on_board(s)))
    }

    /// Whether a unit was activated this turn.
    pub fn activated_this_turn(&self, id: UnitId) -> bool {
        self.activated_turn.contains(id)
    }

    /// Under `igougo` or `alternate` (R3.7), whether `side` is done activating this turn: it passed, or has no unit
    /// left to activate. Its units not yet activated then wait for the next turn. Always `false` under cards.
    pub fn is_done_this_turn(&self, side: Side) -> bool {
        self.done[side.index()]
    }

    /// Whether a unit was activated on the card in play (cards), or this turn (other initiative systems).
    pub fn activated_this_card(&self, id: UnitId) -> bool {
        let set = match self.options.initiative {
            Initiative::Cards => self.activated_card,
            Initiative::Igougo | Initiative::Alternate => self.activated_turn,
        };
        set.contains(id)
    }

    /// The unit whose order is being given or carried out, if any.
    pub fn active_unit(&self) -> Option<UnitId> {
        match self.phase {
            Phase::ChooseOrder { unit } | Phase::Advance { unit, .. } | Phase::Rally { unit, .. } => Some(unit),
            Phase::ToHit(a) | Phase::HitResult(a) => Some(a.attacker),
            _ => None,
        }
    }

    /// The attack waiting for its dice, if any: (attacker, target, number needed).
    pub fn pending_attack(&self) -> Option<(UnitId, UnitId, u8)> {
        match self.phase {
            Phase::ToHit(a) | Phase::HitResult(a) => Some((a.attacker, a.target, a.needed)),
            _ => None,
        }
    }

    /// The rally roll pending, if a shaken unit activated under a variant's `[rally]` is about to roll: (the unit,
    /// the faces that rally it).
    pub fn pending_rally(&self) -> Option<(UnitId, crate::system::RallyTest)> {
        match self.phase {
            Phase::Rally { unit, test } => Some((unit, test)),
            _ => None,
        }
    }

    /// Who acts next.
    pub fn to_act(&self) -> ToAct {
        match self.phase {
            Phase::DrawCard => ToAct::Chance(ChanceKind::Card),
            Phase::InitiativeRoll { a: None } => ToAct::Chance(ChanceKind::Initiative(Side::A)),
            Phase::InitiativeRoll { a: Some(_) } => ToAct::Chance(ChanceKind::Initiative(Side::B)),
            Phase::Rally { .. } => ToAct::Chance(ChanceKind::Rally),
            Phase::ToHit(_) => ToAct::Chance(ChanceKind::ToHit),
            Phase::HitResult(_) => ToAct::Chance(ChanceKind::HitResult),
            Phase::ChooseUnit | Phase::ChooseOrder { .. } | Phase::Advance { .. } => ToAct::Side(self.active),
            Phase::Over(r) => ToAct::Over(r),
        }
    }

    /// Whether two battles of the same scenario stand in the same position (everything but the scenario compared:
    /// cheaper than `==`, which compares the scenarios too when they are borrowed).
    pub fn same_position(&self, other: &Battle<S>) -> bool {
        self.options == other.options
            && self.phase == other.phase
            && self.turn == other.turn
            && self.active == other.active
            && self.left == other.left
            && self.deck == other.deck
            && self.activated_card == other.activated_card
            && self.activated_turn == other.activated_turn
            && self.on_board == other.on_board
            && self.done == other.done
            && self.destroyed == other.destroyed
            && self.holders == other.holders
            && self.units == other.units
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        match self.phase {
            Phase::Over(r) => Some(r),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scenario of `per_side` infantry a side on a `side` × `side` open board, in rows from each home edge.
    pub(crate) fn massed(side: u8, per_side: usize) -> String {
        let row = ".".repeat(side as usize);
        let map = vec![row; side as usize].join("\n");
        let mut text = format!(
            "name = \"Massed\"\nturns = 3\n[map]\nterrain = \"\"\"\n{map}\n\"\"\"\n\
             [[sides]]\nid = \"a\"\nname = \"A\"\nhome = \"south\"\n\
             [[sides]]\nid = \"b\"\nname = \"B\"\nhome = \"north\"\n"
        );
        for i in 0..per_side {
            let (x, y) = ((i % side as usize) as u8, (i / side as usize) as u8);
            for (id, at, facing) in [("a", Square::new(x, y), "N"), ("b", Square::new(x, side - 1 - y), "S")] {
                text +=
                    &format!("[[units]]\nside = \"{id}\"\narm = \"infantry\"\nat = \"{at}\"\nfacing = \"{facing}\"\n");
            }
        }
        text
    }

    #[test]
    fn a_small_battle_is_smaller_than_before_and_a_grand_one_keeps_its_units_on_the_heap() {
        // 488 bytes when every battle held room for 64 units (2026-12-01); a small battle now holds only its own.
        // 368 until the options held a variant's own modifiers (five bytes: one more 16-byte line; perft measured
        // the same, docs/PERFORMANCE.md).
        assert!(std::mem::size_of::<Battle>() <= 384, "{} bytes", std::mem::size_of::<Battle>());
        // 32 bytes, copied in two moves: 33 (with the switch `events`) cost perft 1.2% more instructions. 40 with the
        // numbers of a variant's own arms, in the battle's padding (384 bytes still), cost perft 1.4%
        // (docs/PERFORMANCE.md: the battle reads a unit's numbers from its scenario, not from these).
        assert_eq!(std::mem::size_of::<Options>(), 40);
        let small = Battle::from_scenario(Arc::new(Scenario::parse(&massed(12, 12), "m").unwrap()));
        assert!(!small.units.on_heap());
        assert_eq!(small.units.len(), 24);
        let grand = Battle::from_scenario(Arc::new(Scenario::parse(&massed(26, 64), "m").unwrap()));
        assert_eq!(grand.unit_ids().count(), 128);
        assert!(grand.units.on_heap(), "128 units do not fit inline");
        assert_eq!(grand.units.len(), 128, "exactly the scenario's units, not the most allowed");
        let last = UnitId(127);
        assert_eq!(grand.unit(last).at, grand.info(last).at);
        // Every unit can act, the last ones too: a random game is played to its end.
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut b = grand.clone();
        let mut activated = UnitSet::EMPTY;
        while b.result().is_none() {
            if let Some(outcome) = b.sample_chance(&mut rng) {
                b.apply_chance(outcome).unwrap();
                continue;
            }
            let legal = b.legal_actions();
            let action = legal[rng.random_range(0..legal.len())];
            if let crate::Action::Activate(u) = action {
                activated.insert(u);
            }
            b.apply(action).unwrap();
        }
        assert!((64..128).any(|i| activated.contains(UnitId(i))), "units past the 64th were activated");
    }
}
