//! The battle: the state of a game in progress and the state machine that drives it (RULES.md R3–R9).
//!
//! At every point the battle says who acts next ([`Battle::to_act`]): a side, which chooses among
//! [`Battle::legal_actions`], or chance, whose outcomes and exact probabilities [`Battle::chance_outcomes`] lists.
//! [`Battle::apply`] and [`Battle::apply_chance`] either change the battle and report the events, or fail and
//! leave it as it was.

mod apply;
pub(crate) mod combat;
pub mod deck;
mod legal;
mod listed;
mod movement;

pub use combat::AttackAssessment;
pub use legal::ActivationOrders;
pub use listed::{LegalActions, Listed};

use crate::geometry::{Dir, Square};
use crate::options::{Initiative, Options};
use crate::scenario::{MAX_OBJECTIVES, MAX_UNITS, Scenario};
use crate::unit::{Side, UnitId, UnitInfo};
use deck::{Deck, initiative_value};
use std::sync::Arc;

pub use crate::event::GameResult;

/// No unit: the empty value of a [`UnitState::ranging`] memory.
const NO_UNIT: u8 = u8::MAX;

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
    /// The unit its previous attack was at, while neither has moved since (R6.4 ranging bonus).
    ranging: u8,
}

impl UnitState {
    /// The unit this gun ranged on with its previous attack, if neither has moved since (R6.4).
    pub fn ranging_on(&self) -> Option<UnitId> {
        (self.ranging != NO_UNIT).then_some(UnitId(self.ranging))
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

/// A battle in progress. Cheap to clone: the scenario is shared, the state is a few hundred bytes of fixed arrays.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Battle {
    scenario: Arc<Scenario>,
    options: Options,
    units: [UnitState; MAX_UNITS],
    unit_count: u8,
    phase: Phase,
    deck: Deck,
    turn: u8,
    /// The side whose activations are under way (cards: the card's side).
    active: Side,
    /// Activations left on the current card (R3.4).
    left: u8,
    /// Units activated on the current card (R3.4), and this turn (R3.5, R3.7), as bit sets.
    activated_card: u64,
    activated_turn: u64,
    /// Under `igougo` / `alternate`, the sides that have passed or finished this turn.
    done: [bool; 2],
    destroyed: [u8; 2],
    holders: Holders,
    /// The name of this state, for actions listed in it ([`Battle::apply_listed`]).
    stamp: listed::Stamp,
}

impl Battle {
    /// A battle at the start of the scenario, under `options` (the scenario's own, or overridden).
    pub fn new(scenario: Arc<Scenario>, options: Options) -> Battle {
        let placeholder =
            UnitState { at: Square::new(0, 0), facing: Dir::N, alive: false, shaken: false, ranging: NO_UNIT };
        let mut units = [placeholder; MAX_UNITS];
        for (state, info) in units.iter_mut().zip(&scenario.units) {
            *state = UnitState { at: info.at, facing: info.facing, alive: true, shaken: false, ranging: NO_UNIT };
        }
        let mut holders = [0; MAX_OBJECTIVES];
        for (h, o) in holders.iter_mut().zip(&scenario.objectives) {
            *h = o.holder.map_or(0, |s| s.index() as u8 + 1);
        }
        let unit_count = scenario.units.len() as u8;
        let mut battle = Battle {
            scenario,
            options,
            units,
            unit_count,
            phase: Phase::DrawCard,
            deck: Deck::full([1, 1]),
            turn: 1,
            active: Side::A,
            left: 0,
            activated_card: 0,
            activated_turn: 0,
            done: [false; 2],
            destroyed: [0; 2],
            holders,
            stamp: listed::Stamp::fresh(),
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

    fn objective_holder(&self, i: usize) -> Option<Side> {
        let at = self.scenario.objectives[i].at;
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

    /// Every unit id, alive or not.
    pub fn unit_ids(&self) -> impl Iterator<Item = UnitId> + use<> {
        (0..self.unit_count).map(UnitId)
    }

    /// The units still on the board.
    pub fn alive_units(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.unit_ids().filter(|&u| self.units[u.index()].alive)
    }

    /// A unit's strength under the options in force (R2.2, R11: `strength.*`, `quality.*`).
    pub fn strength(&self, id: UnitId) -> u8 {
        let info = self.info(id);
        self.options.strength_of(info.arm, info.quality)
    }

    /// The turn limit in force (R8.2): the option `turns`, else the scenario's.
    pub fn turn_limit(&self) -> u8 {
        self.options.turns.unwrap_or(self.scenario.turns)
    }

    /// The exhaustion point of a side in force (R8.1): the option `exhaustion.<side>`, else the scenario's.
    pub fn exhaustion_point(&self, side: Side) -> u8 {
        self.options.exhaustion[side.index()].unwrap_or(self.scenario.side(side).exhaustion)
    }

    /// The unit on a square, if any.
    pub fn unit_at(&self, s: Square) -> Option<UnitId> {
        self.units[..self.unit_count as usize].iter().position(|u| u.alive && u.at == s).map(|i| UnitId(i as u8))
    }

    /// Units of a side on the board.
    pub fn units_on_board(&self, side: Side) -> usize {
        self.alive_units().filter(|&u| self.info(u).side == side).count()
    }

    /// Each side's initiative value now (R3.1).
    pub fn initiative_values(&self) -> [u8; 2] {
        Side::BOTH.map(|s| initiative_value(self.units_on_board(s)))
    }

    /// Whether a unit was activated this turn.
    pub fn activated_this_turn(&self, id: UnitId) -> bool {
        self.activated_turn & (1 << id.0) != 0
    }

    /// Whether a unit was activated on the card in play (cards), or this turn (other initiative systems).
    pub fn activated_this_card(&self, id: UnitId) -> bool {
        let set = match self.options.initiative {
            Initiative::Cards => self.activated_card,
            Initiative::Igougo | Initiative::Alternate => self.activated_turn,
        };
        set & (1 << id.0) != 0
    }

    /// The unit whose order is being given or carried out, if any.
    pub fn active_unit(&self) -> Option<UnitId> {
        match self.phase {
            Phase::ChooseOrder { unit } | Phase::Advance { unit, .. } => Some(unit),
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

    /// Who acts next.
    pub fn to_act(&self) -> ToAct {
        match self.phase {
            Phase::DrawCard => ToAct::Chance(ChanceKind::Card),
            Phase::InitiativeRoll { a: None } => ToAct::Chance(ChanceKind::Initiative(Side::A)),
            Phase::InitiativeRoll { a: Some(_) } => ToAct::Chance(ChanceKind::Initiative(Side::B)),
            Phase::ToHit(_) => ToAct::Chance(ChanceKind::ToHit),
            Phase::HitResult(_) => ToAct::Chance(ChanceKind::HitResult),
            Phase::ChooseUnit | Phase::ChooseOrder { .. } | Phase::Advance { .. } => ToAct::Side(self.active),
            Phase::Over(r) => ToAct::Over(r),
        }
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

    #[test]
    fn a_battle_fits_in_one_kibibyte_so_search_can_hold_millions() {
        assert!(std::mem::size_of::<Battle>() <= 1024, "{} bytes", std::mem::size_of::<Battle>());
    }
}
