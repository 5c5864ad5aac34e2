//! One game's record, extracted from its event stream alone (docs/architecture.md: events are the single source of what
//! happened). The scenario is consulted only for static facts: which side and arm a unit is.

pub use crate::outcome::{ByKind, OutcomeCounts, TargetOutcome};
use pacw_engine::HitResult;
use pacw_engine::MAX_UNITS;
use pacw_engine::UnitSet;
use pacw_engine::odds::AttackResult;
use pacw_engine::system::{
    AttackerEffect, MAX_AFTER_ATTACK, MAX_RALLY_MODIFIERS, MAX_RESTRICTIONS, MAX_RESULT_MODIFIERS,
    first_forbidding_order,
};
use pacw_engine::terrain::{MAX_TERRAINS, TerrainKind, TerrainRules};
use pacw_engine::{
    Action, AttackKind, Battle, Card, Dir, EndReason, Event, Game, Quality, Scenario, Side, Square, ToAct, UnitId,
};
use serde::{Deserialize, Serialize};

/// The kinds of attack, in the order of [`ByKind`]: shooting (distance 2 or more) and charges (distance 1, R6.1).
pub const ATTACK_KINDS: [&str; 2] = ["shooting", "charge"];

/// The outcomes of an attack as they befell the target ([`TargetOutcome`]), by name, in the order of
/// [`OutcomeCounts`].
pub const OUTCOMES: [&str; 4] = ["miss", "shaken", "retreat", "destroyed"];

/// What happened to shaken units before they recovered (the seed's "hit it twice" question).
///
/// A *spell* runs from the moment a unit becomes shaken (R7.1, R7.2) until it is activated (and recovers, R4.1),
/// is destroyed, or the game ends.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShakenSpells {
    /// Spells that ended (every spell ends, at the latest with the game).
    pub spells: u32,
    /// Spells in which the unit was attacked again.
    pub attacked_again: u32,
    /// Spells in which the unit was hit again.
    pub hit_again: u32,
    /// Retreats of units hit again while shaken.
    pub retreated_again: u32,
    /// Units destroyed while shaken (hit again, or a blocked retreat).
    pub destroyed_again: u32,
    /// Spells ended by the unit's activation.
    pub recovered: u32,
}

impl ShakenSpells {
    /// Adds another game's spells.
    pub fn add(&mut self, o: &ShakenSpells) {
        self.spells += o.spells;
        self.attacked_again += o.attacked_again;
        self.hit_again += o.hit_again;
        self.retreated_again += o.retreated_again;
        self.destroyed_again += o.destroyed_again;
        self.recovered += o.recovered;
    }
}

/// The fighting and movement in one terrain kind of the rules' own ([`own_terrains`]), a game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainCounts {
    /// Attacks on a unit standing in it, by what befell the target.
    pub attacks: OutcomeCounts,
    /// Moves (and Fire & Move's moves) that ended in it.
    pub moves_ended: u32,
}

/// The terrain kinds a combat system has of its own, with their places in its terrain table: a variant's new kinds
/// (`[[terrain]]`, docs/variants.md) and the standard kinds it changes (in what they do or what they are called).
/// None for the standard rules. These are the kinds the laboratory counts the fighting in.
pub fn own_terrains(rules: &TerrainRules) -> Vec<(usize, &TerrainKind)> {
    let standard = TerrainRules::standard();
    let kinds = rules.kinds().iter().enumerate().take(MAX_TERRAINS);
    kinds.filter(|(i, kind)| standard.kinds().get(*i) != Some(*kind)).collect()
}

/// What one of a variant's restrictions (`[[restrictions]]`, docs/variants.md) took away in a game: the attacking
/// orders it left out of the legal orders that the rules without it would have listed, and under a restriction on
/// orders the Holds and Moves too. An order that several restrictions forbid is counted under the first, the one its
/// refusal cites.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restricted {
    /// Orders given (a unit's choice of its order, R4.2) at which it left out at least one order.
    pub decisions: u32,
    /// The orders it left out, at all those decisions together.
    pub orders: u32,
}

/// Counts what the restrictions of the rules in force take away at the decision `battle` waits on, into `counts`
/// by the restriction's place among the combat system's: nothing unless a unit is choosing its order. Every
/// attacking order the unit could be given (each target within reach, facing, and square a step away) that is not
/// listed is judged as a player's would be: one refused by a restriction's id is one the rules without the
/// restrictions would list (the judge asks the standard rules first, and the listing and the judge agree,
/// docs/variants.md). Orders out of range or out of the front arc (R6.1) are passed over unjudged, for speed: a
/// refusal is put into words. Under restrictions on orders, Hold and every Move within the unit's reach (its move
/// and the road bonus) are judged too. Slow beside the listing all the same, so it is asked only of games under
/// restrictions.
pub fn count_restricted(battle: &Battle, counts: &mut [Restricted]) {
    let system = battle.scenario().system();
    let restrictions = system.restrictions();
    let Some(unit) = battle.active_unit() else { return };
    // A unit choosing its order may Hold, unless a restriction forbids it.
    let choosing = || battle.check(Action::Hold).map_or_else(|e| e.variant_rule.is_some(), |()| true);
    if restrictions.is_empty() || !matches!(battle.to_act(), ToAct::Side(_)) || !choosing() {
        return;
    }
    let listed = battle.legal_actions();
    let state = battle.unit(unit);
    let side = battle.info(unit).side;
    let range = battle.range(unit);
    let map = &battle.scenario().map;
    let mut squares = vec![state.at];
    squares.extend(Dir::ALL.into_iter().filter_map(|d| map.step(state.at, d)));
    let mut left_out = [0u32; MAX_RESTRICTIONS];
    let mut judge = |order: Action| {
        if listed.contains(&order) {
            return;
        }
        let Err(refused) = battle.check(order) else { return };
        let place = refused.variant_rule.and_then(|id| restrictions.iter().position(|r| r.id == id));
        if let Some(n) = place.and_then(|p| left_out.get_mut(p)) {
            *n += 1;
        }
    };
    if system.restricts_orders() {
        // A Hold or a Move only a restriction on orders can forbid: judged (its refusal put into words) only when
        // one would.
        let mut judge_order = |order: Action| {
            let facts = battle.order_facts(unit, order);
            if facts.is_some_and(|facts| first_forbidding_order(restrictions, &facts).is_some()) {
                judge(order);
            }
        };
        judge_order(Action::Hold);
        let reach = battle.movement(unit).saturating_add(system.terrain_rules().road_bonus());
        for y in 0..map.height() {
            for x in 0..map.width() {
                let to = Square::new(x, y);
                if state.at.distance(to) <= reach {
                    Dir::ALL.into_iter().for_each(|facing| judge_order(Action::Move { to, facing }));
                }
            }
        }
    }
    let reach = range.saturating_add(1); // a Move & Fire steps one square first
    let enemies = battle.alive_units().filter(|&u| battle.info(u).side != side);
    for target in enemies.filter(|&u| battle.unit(u).at.distance(state.at) <= reach) {
        let at = battle.unit(target).at;
        let may_reach = |from: Square, facing: Dir| from.distance(at) <= range && from.front_arc_holds(facing, at);
        let mut orders = Vec::new();
        if may_reach(state.at, state.facing) {
            orders.push(Action::FireMove { target });
        }
        for facing in Dir::ALL {
            if may_reach(state.at, facing) {
                orders.push(Action::Fire { target, facing });
            }
            let reached = squares.iter().filter(|&&to| may_reach(to, facing));
            orders.extend(reached.map(|&to| Action::MoveFire { to, facing, target }));
        }
        orders.into_iter().for_each(&mut judge);
    }
    for (count, &n) in counts.iter_mut().zip(&left_out) {
        count.decisions += (n > 0) as u32;
        count.orders += n;
    }
}

/// What each of the restrictions of the rules `game` was played by took away in it ([`count_restricted`] at each of
/// its decisions, the game replayed from its first position), by the restriction's place; empty under rules without
/// restrictions, which are not replayed.
pub fn restricted_in(game: &Game) -> Vec<Restricted> {
    let scenario = game.battle().scenario();
    let rules = scenario.system().restrictions().len().min(MAX_RESTRICTIONS);
    if rules == 0 {
        return Vec::new();
    }
    let mut counts = vec![Restricted::default(); rules];
    let mut battle = Battle::new(scenario.clone(), *game.battle().options());
    let (mut actions, mut outcomes) = (game.actions().iter(), game.outcomes().iter());
    let mut events = Vec::new();
    loop {
        // The game's own steps, each accepted when it was played: one that would not replay ends the count.
        let replayed = match battle.to_act() {
            ToAct::Side(_) => actions.next().map(|&action| {
                count_restricted(&battle, &mut counts);
                battle.apply_into(action, &mut events)
            }),
            ToAct::Chance(_) => outcomes.next().map(|&outcome| battle.apply_chance_into(outcome, &mut events)),
            ToAct::Over(_) => None,
        };
        events.clear();
        if !matches!(replayed, Some(Ok(()))) {
            return counts;
        }
    }
}

/// Everything the statistics need from one game, read from its events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameStats {
    /// The winning side, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
    /// Points per side (R8.2).
    pub points: [u16; 2],
    /// The turn in which the game ended.
    pub turns: u8,
    /// Unit activations, both sides.
    pub activations: u32,
    /// Unit activations of each side.
    pub side_activations: [u32; 2],
    /// Units each side lost.
    pub destroyed: [u32; 2],
    /// Times a unit of each side became shaken.
    pub shaken: [u32; 2],
    /// Retreats of each side's units.
    pub retreats: [u32; 2],
    /// Attacks by kind and outcome.
    pub attacks: ByKind<OutcomeCounts>,
    /// Shooting by the attacker's arm (infantry, cavalry, artillery) and outcome.
    pub shooting_by_arm: [OutcomeCounts; 3],
    /// What happened to shaken units before they recovered.
    pub spells: ShakenSpells,
    /// The side that acted first in turn 1: the first side card drawn in turn 1 (cards), or the winner of the first
    /// initiative roll (igougo, alternate). `None` when the Joker came out before any side card.
    pub first_mover: Option<Side>,
    /// Double activations per side: a unit activated again with no enemy unit activated in between, within a turn
    /// (under cards: on two consecutive cards of its side).
    pub double_activations: [u32; 2],
    /// The same across a turn's end (the last units of one turn acting first in the next).
    pub doubles_across_turns: [u32; 2],
    /// Side doubles: under cards, a side drawing two cards in a row in a turn; under igougo and alternate, a side
    /// that acted last in a turn winning the next initiative roll.
    pub side_doubles: [u32; 2],
    /// Every attack by the attacker's arm (infantry, cavalry, artillery) and quality (green, regular, veteran),
    /// and outcome.
    pub attacks_by: [[OutcomeCounts; 3]; 3],
    /// Units destroyed, by arm and quality.
    pub losses_by: [[u32; 3]; 3],
    /// Units fielded (the scenario's), by arm and quality: what `losses_by` is a share of.
    #[serde(default)]
    pub fielded_by: [[u32; 3]; 3],
    /// Per side, enemy units destroyed by a unit on its second (or later) activation in a turn.
    pub second_activation_kills: [u32; 2],
    /// Per side, charges by a unit whose previous activation in the same turn shot.
    pub shoot_then_charge: [u32; 2],
    /// Times each of the variant's after-attack rules befell an attacker, by the rule's place among the combat
    /// system's (`[[after_attack]]`, docs/variants.md); all 0 under the standard rules.
    #[serde(default)]
    pub after_attack: [u32; MAX_AFTER_ATTACK],
    /// Times each of the variant's modifiers to the hit-result roll changed the strength a hit target was tested
    /// against, by the modifier's place among the combat system's (`[[result_modifiers]]`, docs/variants.md); all 0
    /// under the standard rules.
    #[serde(default)]
    pub result_modified: [u32; MAX_RESULT_MODIFIERS],
    /// Rally dice rolled by shaken units activated under a variant's rally roll (`[rally]`, docs/variants.md); 0
    /// under the standard rules, which rally without a die (R4.1).
    #[serde(default)]
    pub rally_rolls: u32,
    /// Of those, the ones that left the unit shaken.
    #[serde(default)]
    pub rallies_failed: u32,
    /// Rally dice each of the variant's rally modifiers applied to, by the modifier's place among the combat
    /// system's (`[[rally_modifiers]]`, docs/variants.md); all 0 under the standard rules.
    #[serde(default)]
    pub rally_modified: [u32; MAX_RALLY_MODIFIERS],
    /// Units of each side that arrived as the scenario's reinforcements (docs/scenario-format.md#events).
    #[serde(default)]
    pub arrivals: [u32; 2],
    /// Times a unit of each side due to arrive found its entry square held and waited a turn.
    #[serde(default)]
    pub arrivals_delayed: [u32; 2],
    /// Attacks on units standing in each terrain kind of the rules' own, and moves that ended in it, by the kind's
    /// place in the rules' terrain table ([`own_terrains`]; the other kinds' entries stay 0): an entry for each
    /// kind of the table (at most [`MAX_TERRAINS`]) under rules with kinds of their own; none under the standard
    /// rules, and then not written out, so that their records keep their size and shape.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<TerrainCounts>,
    /// What each of the variant's restrictions took away (`[[restrictions]]`), by the restriction's place among the
    /// combat system's: no event says it, so it is not read from the events but counted on the game replayed
    /// ([`restricted_in`]). None under rules without restrictions, and then not written out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restricted: Vec<Restricted>,
}

impl GameStats {
    /// Double activations of a side, within and across turns.
    pub fn all_doubles(&self, side: Side) -> u32 {
        self.double_activations[side.index()] + self.doubles_across_turns[side.index()]
    }

    /// Reads a finished game's events; `scenario` is the battle as it was played (by the variant in force, whose
    /// terrain kinds are counted). Returns `None` if the events hold no `GameOver`.
    pub fn from_events(scenario: &Scenario, events: &[Event]) -> Option<GameStats> {
        let mut tally = Tally::new(scenario);
        for e in events {
            tally.event(e);
        }
        tally.finish()
    }
}

/// An open shaken spell.
#[derive(Copy, Clone, Default)]
struct Spell {
    attacked: bool,
    hit: bool,
}

/// What the statistics need of the attack under way.
#[derive(Copy, Clone)]
struct AttackUnderWay {
    /// Shooting or a charge.
    kind: AttackKind,
    /// The attacker's side, arm and quality indexes.
    side: Side,
    arm: usize,
    quality: usize,
    /// Whether the attacker is on its second or later activation this turn.
    later_activation: bool,
    /// The place of the target's terrain, when it is a kind of the rules' own.
    own_terrain: Option<usize>,
}

/// Reads events one at a time into a [`GameStats`].
pub struct Tally<'a> {
    scenario: &'a Scenario,
    stats: GameStats,
    over: bool,
    turn: u8,
    /// The attack under way.
    attack: Option<AttackUnderWay>,
    /// Its events from its dice on, decoded once it is over ([`AttackResult::from_events`]).
    attack_events: Vec<Event>,
    spells: [Option<Spell>; MAX_UNITS],
    /// Per side, the units activated since the enemy last activated one.
    since_enemy: [UnitSet; 2],
    /// The turn of each unit's last activation.
    last_turn: [u8; MAX_UNITS],
    /// The side of the last card drawn this turn.
    last_card: Option<Side>,
    /// The side of the last unit activated.
    last_active: Option<Side>,
    /// Each unit's activations in the current turn.
    activations_this_turn: [u8; MAX_UNITS],
    /// Whether each unit shot in its latest activation.
    shot_last: [bool; MAX_UNITS],
    /// The unit activated now, if any, and whether its previous activation this turn shot.
    active: Option<(UnitId, bool)>,
    /// Whether each place of the terrain table is a kind of the rules' own ([`own_terrains`]), counted.
    counted: [bool; MAX_TERRAINS],
    /// Each unit's square (for the terrain a target stands in).
    squares: [Square; MAX_UNITS],
}

impl<'a> Tally<'a> {
    /// A tally for a game of `scenario`, before its first event.
    pub fn new(scenario: &'a Scenario) -> Tally<'a> {
        let mut fielded_by = [[0; 3]; 3];
        let mut squares = [Square::new(0, 0); MAX_UNITS];
        for (i, unit) in scenario.units.iter().enumerate().take(MAX_UNITS) {
            fielded_by[unit.arm.index()][quality_index(unit.quality)] += 1;
            squares[i] = unit.at;
        }
        let mut counted = [false; MAX_TERRAINS];
        for (place, _) in own_terrains(scenario.map.terrain_rules()) {
            counted[place] = true;
        }
        Tally {
            scenario,
            stats: GameStats {
                winner: None,
                reason: EndReason::TurnLimit,
                points: [0; 2],
                turns: 1,
                activations: 0,
                side_activations: [0; 2],
                destroyed: [0; 2],
                shaken: [0; 2],
                retreats: [0; 2],
                attacks: ByKind::default(),
                shooting_by_arm: [OutcomeCounts::default(); 3],
                spells: ShakenSpells::default(),
                first_mover: None,
                double_activations: [0; 2],
                doubles_across_turns: [0; 2],
                side_doubles: [0; 2],
                attacks_by: [[OutcomeCounts::default(); 3]; 3],
                losses_by: [[0; 3]; 3],
                fielded_by,
                second_activation_kills: [0; 2],
                shoot_then_charge: [0; 2],
                after_attack: [0; MAX_AFTER_ATTACK],
                result_modified: [0; MAX_RESULT_MODIFIERS],
                rally_rolls: 0,
                rallies_failed: 0,
                rally_modified: [0; MAX_RALLY_MODIFIERS],
                arrivals: [0; 2],
                arrivals_delayed: [0; 2],
                terrain: if counted.contains(&true) {
                    vec![TerrainCounts::default(); scenario.map.terrain_rules().kinds().len().min(MAX_TERRAINS)]
                } else {
                    Vec::new()
                },
                restricted: Vec::new(),
            },
            over: false,
            turn: 1,
            attack: None,
            attack_events: Vec::new(),
            spells: [None; MAX_UNITS],
            since_enemy: [UnitSet::EMPTY; 2],
            last_turn: [0; MAX_UNITS],
            last_card: None,
            last_active: None,
            activations_this_turn: [0; MAX_UNITS],
            shot_last: [false; MAX_UNITS],
            active: None,
            counted,
            squares,
        }
    }

    fn side(&self, unit: UnitId) -> Side {
        self.scenario.units[unit.index()].side
    }

    /// The place of the terrain of `square`, when it is a kind of the rules' own.
    fn own_terrain(&self, square: Square) -> Option<usize> {
        let place = self.scenario.map.terrain(square).index();
        self.counted.get(place).copied().unwrap_or(false).then_some(place)
    }

    /// Counts an attack outcome under the current attack's kind, attacker and activation.
    fn count(&mut self, outcome: TargetOutcome) {
        if let Some(attack) = self.attack {
            self.stats.attacks[attack.kind][outcome] += 1;
            if attack.kind == AttackKind::Fire {
                self.stats.shooting_by_arm[attack.arm][outcome] += 1;
            }
            self.stats.attacks_by[attack.arm][attack.quality][outcome] += 1;
            if outcome == TargetOutcome::Destroyed && attack.later_activation {
                self.stats.second_activation_kills[attack.side.index()] += 1;
            }
            if let Some(counts) = attack.own_terrain.and_then(|place| self.stats.terrain.get_mut(place)) {
                counts.attacks[outcome] += 1;
            }
        }
    }

    fn close_spell(&mut self, unit: UnitId, recovered: bool) {
        if let Some(spell) = self.spells[unit.index()].take() {
            let s = &mut self.stats.spells;
            s.spells += 1;
            s.attacked_again += spell.attacked as u32;
            s.hit_again += spell.hit as u32;
            s.recovered += recovered as u32;
        }
    }

    /// Counts the attack under way by its result, once its events are all read.
    fn settle_attack(&mut self) {
        if let Some(result) = AttackResult::from_events(&self.attack_events) {
            self.count(TargetOutcome::of(result));
        }
        self.attack = None;
        self.attack_events.clear();
    }

    /// Reads the next event.
    pub fn event(&mut self, event: &Event) {
        let of_an_attack = matches!(
            event,
            Event::ToHitRolled { .. }
                | Event::HitResultRolled { .. }
                | Event::ResultModified { .. }
                | Event::RetreatBlocked { .. }
                | Event::Retreated { .. }
                | Event::Destroyed { .. }
                | Event::Shaken { .. }
                | Event::AfterAttack { .. }
        );
        if self.attack.is_some() {
            if of_an_attack {
                self.attack_events.push(*event);
            } else {
                self.settle_attack();
            }
        }
        match *event {
            Event::TurnStarted { turn, .. } => {
                self.turn = turn;
                self.last_card = None;
                self.activations_this_turn = [0; MAX_UNITS];
            }
            Event::CardDrawn { card: Card::Side { side, .. }, .. } => {
                if self.turn == 1 && self.stats.first_mover.is_none() {
                    self.stats.first_mover = Some(side);
                }
                if self.last_card == Some(side) {
                    self.stats.side_doubles[side.index()] += 1;
                }
                self.last_card = Some(side);
            }
            Event::CardDrawn { card: Card::Joker, .. } => {}
            Event::InitiativeWon { side } => {
                if self.turn == 1 && self.stats.first_mover.is_none() {
                    self.stats.first_mover = Some(side);
                }
                if self.turn > 1 && self.last_active == Some(side) {
                    self.stats.side_doubles[side.index()] += 1;
                }
            }
            Event::Activated { unit, rallied } => {
                let side = self.side(unit);
                self.stats.activations += 1;
                self.stats.side_activations[side.index()] += 1;
                if self.since_enemy[side.index()].contains(unit) {
                    if self.last_turn[unit.index()] == self.turn {
                        self.stats.double_activations[side.index()] += 1;
                    } else {
                        self.stats.doubles_across_turns[side.index()] += 1;
                    }
                }
                self.since_enemy[side.index()].insert(unit);
                self.since_enemy[side.other().index()] = UnitSet::EMPTY;
                self.last_turn[unit.index()] = self.turn;
                self.last_active = Some(side);
                let i = unit.index();
                let earlier_shot = self.activations_this_turn[i] > 0 && self.shot_last[i];
                self.activations_this_turn[i] = self.activations_this_turn[i].saturating_add(1);
                self.shot_last[i] = false;
                self.active = Some((unit, earlier_shot));
                if rallied {
                    self.close_spell(unit, true);
                }
            }
            Event::Attack { attacker, target, charge, .. } => {
                let info = &self.scenario.units[attacker.index()];
                let side = info.side;
                let quality = quality_index(info.quality);
                let later_activation = self.activations_this_turn[attacker.index()] > 1;
                self.attack = Some(AttackUnderWay {
                    kind: AttackKind::of(charge),
                    side,
                    arm: info.arm.index(),
                    quality,
                    later_activation,
                    own_terrain: self.own_terrain(self.squares[target.index()]),
                });
                if charge && self.active.is_some_and(|(u, earlier_shot)| u == attacker && earlier_shot) {
                    self.stats.shoot_then_charge[side.index()] += 1;
                    self.active = Some((attacker, false)); // once per activation
                }
                if !charge {
                    self.shot_last[attacker.index()] = true;
                }
                if let Some(spell) = &mut self.spells[target.index()] {
                    spell.attacked = true;
                }
            }
            Event::HitResultRolled { unit, result, .. } => {
                // A hit that changed nothing is no second hit on a shaken unit.
                if result != HitResult::NoEffect
                    && let Some(spell) = &mut self.spells[unit.index()]
                {
                    spell.hit = true;
                }
            }
            Event::AfterAttack { unit, rule, effect, at } => {
                self.squares[unit.index()] = at;
                if let Some(n) = self.stats.after_attack.get_mut(rule as usize) {
                    *n += 1;
                }
                if effect == AttackerEffect::Shaken {
                    self.stats.shaken[self.side(unit).index()] += 1;
                    self.spells[unit.index()] = Some(Spell::default());
                }
            }
            Event::ResultModified { rule, .. } => {
                if let Some(n) = self.stats.result_modified.get_mut(rule as usize) {
                    *n += 1;
                }
            }
            Event::RallyModified { rule, .. } => {
                if let Some(n) = self.stats.rally_modified.get_mut(rule as usize) {
                    *n += 1;
                }
            }
            Event::RallyRolled { unit, rallied, .. } => {
                self.stats.rally_rolls += 1;
                if rallied {
                    self.close_spell(unit, true);
                } else {
                    self.stats.rallies_failed += 1;
                }
            }
            Event::Shaken { unit } => {
                self.stats.shaken[self.side(unit).index()] += 1;
                self.spells[unit.index()] = Some(Spell::default());
            }
            Event::Retreated { unit, to, .. } => {
                self.squares[unit.index()] = to;
                self.stats.retreats[self.side(unit).index()] += 1;
                if self.spells[unit.index()].is_some() {
                    self.stats.spells.retreated_again += 1;
                }
            }
            Event::Destroyed { unit } => {
                self.stats.destroyed[self.side(unit).index()] += 1;
                let info = &self.scenario.units[unit.index()];
                self.stats.losses_by[info.arm.index()][quality_index(info.quality)] += 1;
                if self.spells[unit.index()].is_some() {
                    self.stats.spells.destroyed_again += 1;
                }
                self.close_spell(unit, false);
            }
            Event::GameOver { result } => {
                self.stats.winner = result.winner;
                self.stats.reason = result.reason;
                self.stats.points = result.points;
                self.stats.turns = self.turn;
                self.over = true;
                for i in 0..MAX_UNITS {
                    self.close_spell(UnitId(i as u8), false);
                }
            }
            Event::ToHitRolled { .. } | Event::RetreatBlocked { .. } => {} // read with the attack's events
            Event::Arrived { unit, at, .. } => {
                self.squares[unit.index()] = at;
                self.stats.arrivals[self.side(unit).index()] += 1;
            }
            Event::Moved { unit, from, to, .. } => {
                self.squares[unit.index()] = to;
                if let Some(counts) =
                    self.own_terrain(to).filter(|_| to != from).and_then(|p| self.stats.terrain.get_mut(p))
                {
                    counts.moves_ended += 1;
                }
            }
            Event::ArrivalDelayed { unit, .. } => self.stats.arrivals_delayed[self.side(unit).index()] += 1,
            Event::InitiativeRolled { .. }
            | Event::Changed { .. }
            | Event::ActivationsEnded { .. }
            | Event::Held { .. }
            | Event::ObjectiveTaken { .. }
            | Event::TurnEnded { .. } => {}
        }
    }

    /// The record, once the game is over; `None` if no `GameOver` event was read.
    pub fn finish(self) -> Option<GameStats> {
        self.over.then_some(self.stats)
    }
}

/// The first side's score of a game that `winner` won: a win 1, a draw 1/2, a loss 0.
pub fn first_side_score(winner: Option<Side>) -> f64 {
    match winner {
        Some(Side::A) => 1.0,
        None => 0.5,
        Some(Side::B) => 0.0,
    }
}

/// One simulated game: where it sits in the simulation, who played which side, and what happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The scenario's index (order given; 0 for one scenario).
    pub scenario: usize,
    /// The variant's index (order of the variants; 0 without `--compare`).
    pub variant: usize,
    /// The game's index within its variant, from 0: games of the same index in different variants share their
    /// seed and sides (paired).
    pub index: usize,
    /// The game's seed (its dice and cards; `pacw play --seed` takes it).
    pub seed: u64,
    /// Whether player 2 played the scenario's first side.
    pub swapped: bool,
    /// The save's file name, when the game was saved (`simulate --save-games`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<String>,
    /// The luck of the game's dice and cards for the first side, in millionths of a game, when it was reviewed
    /// (`simulate --luck`): as `pacw review` counts it, the first side's own luck less the second's, the change of
    /// its winning chances the chance events made beyond their mean. Its expectation is nought, so the result less
    /// the luck ([`GameRecord::luck_adjusted`]) has the result's expectation and a smaller spread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck: Option<i32>,
    /// What happened.
    #[serde(flatten)]
    pub stats: GameStats,
}

impl GameRecord {
    /// The player (0 or 1, the order of `--players`) who played `side`.
    pub fn player_of(&self, side: Side) -> usize {
        side.index() ^ self.swapped as usize
    }

    /// The first side's score (a win 1, a draw ½, a loss 0) less its luck, when the game was reviewed for it.
    pub fn luck_adjusted(&self) -> Option<f64> {
        self.luck.map(|luck| first_side_score(self.stats.winner) - f64::from(luck) / 1e6)
    }

    /// The luck-adjusted score of player `slot` (0 or 1, the order of `--players`), whichever side it played.
    pub fn luck_adjusted_of(&self, slot: usize) -> Option<f64> {
        self.luck_adjusted().map(|a| self.for_player(slot, a))
    }

    /// The score of player `slot` (0 or 1, the order of `--players`), whichever side it played.
    pub fn score_of(&self, slot: usize) -> f64 {
        self.for_player(slot, first_side_score(self.stats.winner))
    }

    /// A first side's share of a game turned to player `slot`'s.
    fn for_player(&self, slot: usize, first_side: f64) -> f64 {
        if self.player_of(Side::A) == slot { first_side } else { 1.0 - first_side }
    }

    /// The winning player (0 or 1), or `None` for a draw.
    pub fn winning_player(&self) -> Option<usize> {
        self.stats.winner.map(|s| self.player_of(s))
    }

    /// The record with `first` as its first side ([`Side::A`]): itself when `first` is `A`, else with the sides'
    /// places swapped in every count, so that records of scenarios whose attacker is either side pool by attacker.
    pub fn with_first(&self, first: Side) -> GameRecord {
        if first == Side::A {
            return self.clone();
        }
        let s = &self.stats;
        let turn = |pair: [u32; 2]| [pair[1], pair[0]];
        GameRecord {
            swapped: !self.swapped,
            luck: self.luck.map(|luck| -luck),
            stats: GameStats {
                winner: s.winner.map(Side::other),
                reason: match s.reason {
                    EndReason::Exhaustion(side) => EndReason::Exhaustion(side.other()),
                    EndReason::Resigned(side) => EndReason::Resigned(side.other()),
                    EndReason::OutOfTime(side) => EndReason::OutOfTime(side.other()),
                    EndReason::TurnLimit => EndReason::TurnLimit,
                    EndReason::DrawAgreed => EndReason::DrawAgreed,
                },
                points: [s.points[1], s.points[0]],
                side_activations: turn(s.side_activations),
                destroyed: turn(s.destroyed),
                shaken: turn(s.shaken),
                retreats: turn(s.retreats),
                first_mover: s.first_mover.map(Side::other),
                double_activations: turn(s.double_activations),
                doubles_across_turns: turn(s.doubles_across_turns),
                side_doubles: turn(s.side_doubles),
                second_activation_kills: turn(s.second_activation_kills),
                shoot_then_charge: turn(s.shoot_then_charge),
                ..s.clone()
            },
            ..self.clone()
        }
    }
}

/// A quality's place in [`Quality::ALL`] (green, regular, veteran).
fn quality_index(quality: Quality) -> usize {
    Quality::ALL.iter().position(|q| *q == quality).unwrap_or(1)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use pacw_engine::Modifiers;
    use pacw_engine::{GameResult, Square};
    use std::sync::Arc;

    fn scenario() -> Arc<Scenario> {
        Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap())
    }

    fn unit_of(s: &Scenario, side: Side, nth: usize) -> UnitId {
        UnitId(s.units.iter().enumerate().filter(|(_, u)| u.side == side).nth(nth).unwrap().0 as u8)
    }

    fn attack(attacker: UnitId, target: UnitId, charge: bool) -> Event {
        Event::Attack { attacker, target, charge, needed: 5, modifiers: Modifiers::default() }
    }

    #[test]
    fn a_shaken_unit_hit_again_before_it_recovers_is_counted_once() {
        let s = scenario();
        let (a, b) = (unit_of(&s, Side::A, 0), unit_of(&s, Side::B, 0));
        let sq = Square::new(0, 0);
        let over = GameResult { winner: Some(Side::A), reason: EndReason::TurnLimit, points: [1, 0] };
        let events = [
            Event::TurnStarted { turn: 1, iv: [3, 3] },
            Event::CardDrawn { card: Card::Side { side: Side::A, value: 2 }, left: 12 },
            Event::Activated { unit: a, rallied: false },
            attack(a, b, false),
            Event::ToHitRolled { roll: 6, hit: true },
            Event::HitResultRolled { unit: b, roll: 1, strength: 4, result: HitResult::Shaken },
            Event::Shaken { unit: b },
            Event::CardDrawn { card: Card::Side { side: Side::A, value: 2 }, left: 11 },
            Event::Activated { unit: a, rallied: false },
            attack(a, b, true),
            Event::ToHitRolled { roll: 6, hit: true },
            Event::HitResultRolled { unit: b, roll: 1, strength: 4, result: HitResult::Retreat },
            Event::Retreated { unit: b, from: sq, to: sq },
            Event::CardDrawn { card: Card::Side { side: Side::B, value: 2 }, left: 10 },
            Event::Activated { unit: b, rallied: true },
            Event::TurnEnded { turn: 1 },
            Event::GameOver { result: over },
        ];
        let g = GameStats::from_events(&s, &events).unwrap();
        assert_eq!(g.first_mover, Some(Side::A));
        assert_eq!(g.side_doubles, [1, 0]);
        assert_eq!(g.double_activations, [1, 0]);
        assert_eq!(g.attacks[AttackKind::Fire], OutcomeCounts([0, 1, 0, 0]));
        assert_eq!(g.attacks[AttackKind::Charge], OutcomeCounts([0, 0, 1, 0]));
        assert_eq!(g.shooting_by_arm.iter().map(|c| c[TargetOutcome::Shaken]).sum::<u32>(), 1);
        assert_eq!(
            g.spells,
            ShakenSpells {
                spells: 1,
                attacked_again: 1,
                hit_again: 1,
                retreated_again: 1,
                destroyed_again: 0,
                recovered: 1
            }
        );
        assert_eq!((g.shaken, g.retreats, g.activations, g.turns), ([0, 1], [0, 1], 3, 1));
        assert_eq!(g.side_activations, [2, 1]);
        assert_eq!(g.winner, Some(Side::A));
        // The unit shot on its first activation and charged on its second: one shoot-then-charge, no kill.
        assert_eq!(g.shoot_then_charge, [1, 0]);
        assert_eq!(g.second_activation_kills, [0, 0]);
        let info = &s.units[a.index()];
        let q = Quality::ALL.iter().position(|x| *x == info.quality).unwrap();
        assert_eq!(g.attacks_by[info.arm.index()][q], OutcomeCounts([0, 1, 1, 0]));
    }

    #[test]
    fn a_kill_on_a_second_activation_and_losses_by_arm_and_quality() {
        let s = scenario();
        let (a, b) = (unit_of(&s, Side::A, 0), unit_of(&s, Side::B, 0));
        let over = GameResult { winner: Some(Side::A), reason: EndReason::TurnLimit, points: [1, 0] };
        let card = |left| Event::CardDrawn { card: Card::Side { side: Side::A, value: 2 }, left };
        let events = [
            Event::TurnStarted { turn: 1, iv: [3, 3] },
            card(12),
            Event::Activated { unit: a, rallied: false },
            Event::Held { unit: a },
            card(11),
            Event::Activated { unit: a, rallied: false },
            attack(a, b, true),
            Event::ToHitRolled { roll: 6, hit: true },
            Event::HitResultRolled { unit: b, roll: 6, strength: 4, result: HitResult::Destroyed },
            Event::Destroyed { unit: b },
            Event::GameOver { result: over },
        ];
        let g = GameStats::from_events(&s, &events).unwrap();
        assert_eq!(g.second_activation_kills, [1, 0]);
        assert_eq!(g.shoot_then_charge, [0, 0], "it held, then charged");
        let info = &s.units[b.index()];
        let q = Quality::ALL.iter().position(|x| *x == info.quality).unwrap();
        assert_eq!(g.losses_by[info.arm.index()][q], 1);
        assert_eq!(g.losses_by.iter().flatten().sum::<u32>(), 1);
    }

    /// A variant's own terrain, entrenchments giving cover (docs/examples/entrenchments.toml).
    pub(crate) const ENTRENCHMENTS: &str = include_str!("../../../docs/examples/entrenchments.toml");
    /// The meeting engagement with a line of entrenchments before each side, rows 3 and 6, naming that variant.
    pub(crate) const ENTRENCHED: &str = include_str!("../../../docs/examples/entrenched.toml");

    /// The entrenched battle as its variant plays it.
    pub(crate) fn entrenched() -> Arc<Scenario> {
        let read = |file: &str| {
            assert_eq!(file, "entrenchments.toml");
            Ok(ENTRENCHMENTS.to_string())
        };
        Arc::new(Scenario::parse_reading(ENTRENCHED, "entrenched.toml", &read).unwrap())
    }

    #[test]
    fn attacks_on_units_in_a_variant_s_own_terrain_and_moves_ending_there_are_counted_by_kind() {
        let s = entrenched();
        let trench = s.map.terrain_rules().by_id("trench").unwrap().index();
        assert_eq!(
            own_terrains(s.map.terrain_rules()).iter().map(|(i, k)| (*i, k.name.as_str())).collect::<Vec<_>>(),
            [(trench, "entrenchments")]
        );
        let (a, b) = (unit_of(&s, Side::A, 0), unit_of(&s, Side::B, 0));
        let sq = |name: &str| name.parse::<Square>().unwrap();
        assert_eq!(s.units[b.index()].at, sq("f7"), "in the open");
        let moved =
            |from: &str, to: &str| Event::Moved { unit: b, from: sq(from), to: sq(to), facing: pacw_engine::Dir::S };
        let to_hit = |hit| Event::ToHitRolled { roll: if hit { 6 } else { 1 }, hit };
        let over = GameResult { winner: None, reason: EndReason::TurnLimit, points: [0, 0] };
        let events = [
            Event::TurnStarted { turn: 1, iv: [3, 3] },
            Event::Activated { unit: a, rallied: false },
            attack(a, b, false), // on f7, open ground: not counted
            to_hit(false),
            Event::Activated { unit: b, rallied: false },
            moved("f7", "f6"), // into the entrenchments
            Event::Activated { unit: a, rallied: false },
            attack(a, b, true), // on f6: counted, a retreat
            to_hit(true),
            Event::HitResultRolled { unit: b, roll: 6, strength: 4, result: HitResult::Retreat },
            Event::Retreated { unit: b, from: sq("f6"), to: sq("f7") },
            attack(a, b, false), // on f7 again: not counted
            to_hit(true),
            Event::HitResultRolled { unit: b, roll: 1, strength: 4, result: HitResult::Shaken },
            Event::Shaken { unit: b },
            Event::Activated { unit: b, rallied: true },
            moved("f7", "f7"), // a turn on the spot: no move into anything
            moved("f7", "e6"), // into the entrenchments again
            Event::Activated { unit: a, rallied: false },
            attack(a, b, false), // on e6: counted, a miss
            to_hit(false),
            Event::GameOver { result: over },
        ];
        let g = GameStats::from_events(&s, &events).unwrap();
        let want = TerrainCounts { attacks: OutcomeCounts([1, 0, 1, 0]), moves_ended: 2 };
        assert_eq!(g.terrain[trench], want);
        assert_eq!(g.terrain.len(), 7, "the standard six and the entrenchments");
        for (place, counts) in g.terrain.iter().enumerate().filter(|(p, _)| *p != trench) {
            assert_eq!(*counts, TerrainCounts::default(), "place {place}");
        }
        assert!(serde_json::to_value(&g).unwrap().get("terrain").is_some());

        // The same events under the standard rules (f6 and e6 open): nothing counted, nothing written.
        let g = GameStats::from_events(&scenario(), &events).unwrap();
        assert!(g.terrain.is_empty());
        assert!(serde_json::to_value(&g).unwrap().get("terrain").is_none(), "the standard record keeps its shape");
    }

    #[test]
    fn a_played_game_counts_every_attack_into_cover_of_its_own_terrain() {
        // The entrenchments give cover: every attack on a unit in them carries the cover modifier naming them, which
        // the engine decides apart from the tally's reckoning of where each unit stands.
        let s = entrenched();
        let trench = s.map.terrain_rules().by_id("trench").unwrap();
        let mut checked = 0;
        for seed in 0..6 {
            let mut game = pacw_engine::Game::with_scenario(s.clone(), ENTRENCHED, "entrenched.toml", None, seed);
            let mut player = pacw_ai::player("greedy", seed).unwrap();
            while let pacw_engine::ToAct::Side(_) = game.battle().to_act() {
                let action = player.choose(game.battle());
                game.act(action).unwrap();
            }
            let in_cover = game
                .log()
                .iter()
                .filter(|e| {
                    matches!(e, Event::Attack { modifiers, .. }
                    if modifiers.contains(pacw_engine::Modifier::Cover(pacw_engine::Cover::Terrain(trench))))
                })
                .count() as u32;
            let g = GameStats::from_events(&s, game.log()).unwrap();
            assert_eq!(g.terrain[trench.index()].attacks.total(), in_cover, "seed {seed}");
            checked += in_cover;
        }
        assert!(checked > 0, "some attack into the entrenchments");
    }

    #[test]
    fn a_blocked_retreat_counts_as_destroyed_and_a_game_without_end_has_no_record() {
        let s = scenario();
        let (a, b) = (unit_of(&s, Side::A, 0), unit_of(&s, Side::B, 0));
        let mut events = vec![
            Event::TurnStarted { turn: 1, iv: [3, 3] },
            Event::InitiativeRolled { side: Side::A, roll: 2 },
            Event::InitiativeRolled { side: Side::B, roll: 5 },
            Event::InitiativeWon { side: Side::B },
            Event::Activated { unit: b, rallied: false },
            attack(b, a, true),
            Event::ToHitRolled { roll: 6, hit: true },
            Event::HitResultRolled { unit: a, roll: 1, strength: 4, result: HitResult::Retreat },
            Event::RetreatBlocked { unit: a },
            Event::Destroyed { unit: a },
        ];
        assert!(GameStats::from_events(&s, &events).is_none());
        let over = GameResult { winner: Some(Side::B), reason: EndReason::Exhaustion(Side::A), points: [0, 0] };
        events.push(Event::GameOver { result: over });
        let g = GameStats::from_events(&s, &events).unwrap();
        assert_eq!(g.first_mover, Some(Side::B));
        assert_eq!(g.attacks[AttackKind::Charge], OutcomeCounts([0, 0, 0, 1]));
        assert_eq!(g.destroyed, [1, 0]);
        assert_eq!(g.spells.spells, 0);
    }

    /// No charge on a steady line, no long shot of the guns (docs/variants.md's example of restrictions).
    const HOLD_THE_LINE: &str = "name = \"Hold the line\"\n\
        [[restrictions]]\nid = \"M1\"\nname = \"troops will not charge a steady line\"\n\
        when = \"charge and not target.shaken\"\n\
        [[restrictions]]\nid = \"M2\"\nname = \"guns spare their shot\"\n\
        when = \"attacker.arm == 'artillery' and distance >= 3\"\n";

    /// `scenario` under `variant`'s rules, or under the standard rules.
    fn under(scenario: Scenario, variant: Option<&str>) -> Arc<Scenario> {
        let Some(text) = variant else { return Arc::new(scenario) };
        let system = pacw_engine::system::CombatSystem::with_variant(text, "hold.toml").unwrap();
        Arc::new(scenario.with_system(Arc::new(system)).unwrap())
    }

    /// Two infantry units face to face a square apart on an open field, the first side's activated to give its order.
    fn duel(variant: Option<&str>) -> Battle {
        let unit = |side, y, facing| pacw_engine::UnitInfo {
            name: format!("{side:?}"),
            side,
            arm: pacw_engine::Arm::Infantry,
            quality: Quality::Regular,
            at: Square::new(2, y),
            facing,
            own_arm: None,
            numbers: Default::default(),
        };
        let units = vec![unit(Side::A, 1, Dir::N), unit(Side::B, 2, Dir::S)];
        let map = pacw_engine::Map::open(5, 6);
        let s = Scenario::synthetic("duel", map, units, pacw_engine::Options::default()).unwrap();
        let mut b = Battle::from_scenario(under(s, variant));
        while !b.legal_actions().contains(&Action::Activate(UnitId(0))) {
            match b.to_act() {
                ToAct::Chance(_) => b.apply_chance(b.chance_branches().next().unwrap()).map(drop).unwrap(),
                _ => b.apply(Action::EndActivations).map(drop).unwrap(),
            }
        }
        b.apply(Action::Activate(UnitId(0))).unwrap();
        b
    }

    /// The attacking orders listed in `b`.
    fn attacks(b: &Battle) -> Vec<Action> {
        b.legal_actions().into_iter().filter(|a| a.target().is_some()).collect()
    }

    #[test]
    fn a_restriction_counts_the_attacks_it_leaves_out_of_the_orders_the_standard_rules_list() {
        let (standard, held) = (duel(None), duel(Some(HOLD_THE_LINE)));
        let left_out: Vec<Action> = attacks(&standard).into_iter().filter(|a| !attacks(&held).contains(a)).collect();
        // The two charges, Fire straight ahead and Fire & Move; a step aside or back and fire is shooting, allowed.
        let enemy = UnitId(1);
        assert_eq!(left_out, [Action::Fire { target: enemy, facing: Dir::N }, Action::FireMove { target: enemy }]);
        assert_eq!(attacks(&held).len(), 5, "Move & Fire from a square a step away: {:?}", attacks(&held));
        let mut counts = vec![Restricted::default(); 2];
        count_restricted(&held, &mut counts);
        let m1 = Restricted { decisions: 1, orders: 2 };
        assert_eq!(counts, [m1, Restricted::default()], "M1 took every charge away, M2 nothing (no guns)");
        // The standard rules take nothing away, nor does a decision other than a unit's order.
        let mut none = vec![Restricted::default(); 2];
        count_restricted(&standard, &mut none);
        let mut choosing = held.clone();
        choosing.apply(Action::Hold).unwrap();
        while let ToAct::Chance(_) = choosing.to_act() {
            choosing.apply_chance(choosing.chance_branches().next().unwrap()).unwrap();
        }
        count_restricted(&choosing, &mut none);
        assert_eq!(none, [Restricted::default(); 2]);
    }

    #[test]
    fn a_restriction_on_orders_counts_the_holds_and_moves_it_leaves_out() {
        let standard = duel(None);
        let still = "name = \"Still\"\n[[restrictions]]\nid = \"M1\"\nwhen = \"charge\"\n\
                     [[restrictions]]\nid = \"M2\"\nname = \"no idling\"\nwhen = \"order == 'hold' or order == 'move'\"\n";
        let held = duel(Some(still));
        let moves = standard.legal_actions().into_iter().filter(|a| matches!(a, Action::Move { .. })).count();
        assert!(moves > 0);
        let mut counts = vec![Restricted::default(); 2];
        count_restricted(&held, &mut counts);
        assert_eq!(counts[1], Restricted { decisions: 1, orders: moves as u32 + 1 }, "every Move and the Hold");
        assert_eq!(counts[0], Restricted { decisions: 1, orders: 2 }, "the two charges, as before");
    }

    /// A whole game under restrictions: at every order given, the attacks the standard rules would list in the same
    /// position and the rules in force do not are what [`restricted_in`] counts, each under the restriction that
    /// refuses it.
    #[test]
    fn a_game_under_restrictions_counts_at_every_order_what_the_rules_without_them_would_list() {
        let text = pacw_engine::DEFAULT_SCENARIO;
        let base = Scenario::parse(text, "m.toml").unwrap();
        let held = under(base.clone(), Some(HOLD_THE_LINE));
        let mut game = Game::with_scenario(held.clone(), text, "m.toml", None, 7);
        let mut standard = Battle::new(Arc::new(base), *game.battle().options());
        let mut expected = vec![Restricted::default(); 2];
        let mut chance = 0;
        for step in 0..5_000usize {
            while let (ToAct::Chance(_), Some(&o)) = (standard.to_act(), game.outcomes().get(chance)) {
                standard.apply_chance(o).unwrap();
                chance += 1;
            }
            let ToAct::Side(_) = game.battle().to_act() else { break };
            let listed = game.battle().legal_actions();
            if game.battle().is_legal(Action::Hold) {
                let mut left_out = [0u32; 2];
                for a in standard.legal_actions().into_iter().filter(|a| !listed.contains(a)) {
                    let id = game.battle().check(a).unwrap_err().variant_rule.expect("refused by a restriction");
                    left_out[held.system().restrictions().iter().position(|r| r.id == id).unwrap()] += 1;
                }
                for (e, n) in expected.iter_mut().zip(left_out) {
                    e.decisions += (n > 0) as u32;
                    e.orders += n;
                }
            }
            // Attacks first where there are any, so that the restrictions are met often.
            let attacks: Vec<Action> = listed.iter().copied().filter(|a| a.target().is_some()).collect();
            let choice = if attacks.is_empty() { listed[step % listed.len()] } else { attacks[step % attacks.len()] };
            game.act(choice).unwrap();
            standard.apply(choice).unwrap();
        }
        assert!(matches!(game.battle().to_act(), ToAct::Over(_)), "the game ends");
        assert!(expected[0].orders > 0, "charges were refused: {expected:?}");
        assert_eq!(restricted_in(&game), expected);
        let standard_game = Game::with_scenario(scenario(), text, "m.toml", None, 7);
        assert!(restricted_in(&standard_game).is_empty(), "nothing is counted under the standard rules");
    }
}
