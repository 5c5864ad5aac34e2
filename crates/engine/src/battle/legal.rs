//! Which actions the rules allow now (docs/rules.md R3.4–R3.7, R4, R5, R6.1), and why any other is refused.
//!
//! [`Battle::check`] is the one judge of legality; [`Battle::list_legal`] lists candidates built from the
//! same primitives, and the tests assert the two agree.

use super::ScenarioRef;
use super::combat::Sighted;
use super::movement::{MoveKind, Occupancy, SquareSet};
use super::{AttackAssessment, Battle, Phase, UnitSet};
use crate::action::{Action, Illegal};
use crate::geometry::{Dir, Square};
use crate::options::Initiative;
use crate::rule::Rule;
use crate::system::condition::{OrderFacts, OrderKind};
use crate::system::{CombatSystem, first_forbidding_order};
use crate::unit::MAX_UNITS;
use crate::unit::{Arm, UnitId};

impl<S: ScenarioRef> Battle<S> {
    /// Whether `unit` may be activated now by the active side (R3.4, R3.5, R3.7): the cheap test that lists the
    /// activations; [`Battle::activation_refusal`] says why not.
    fn may_activate(&self, unit: UnitId) -> bool {
        self.eligible(self.active).contains(unit)
    }

    /// The units of `side` on the board not yet activated on this card (and, where the rules say so, this turn).
    fn eligible(&self, side: Side) -> UnitSet {
        let done = match self.options.initiative {
            Initiative::Cards if self.options.once_per_turn => self.activated_card.union(self.activated_turn),
            Initiative::Cards => self.activated_card,
            Initiative::Igougo | Initiative::Alternate => self.activated_turn,
        };
        self.on_board[side.index()].without(done)
    }

    /// Why `unit` may not be activated now, naming the rule (R3.4, R3.5, R3.7); `None` if it may.
    fn activation_refusal(&self, unit: UnitId) -> Option<Illegal> {
        if self.may_activate(unit) {
            return None;
        }
        if unit.0 >= self.unit_count() || !self.units[unit.index()].alive {
            return Some(Illegal::new(Rule::R3_4, format!("there is no unit {} on the board", unit.0)));
        }
        let name = &self.info(unit).name;
        if self.info(unit).side != self.active {
            let active = &self.scenario.side(self.active).name;
            let why = match self.options.initiative {
                Initiative::Cards => {
                    format!("the card drawn is {active}'s: only {active} units may be activated on it")
                }
                _ => format!("{name} is not a unit of {active}, the side to act"),
            };
            return Some(Illegal::new(Rule::R3_4, why));
        }
        Some(match self.options.initiative {
            Initiative::Cards if self.activated_card.contains(unit) => {
                Illegal::new(Rule::R3_4, format!("{name} was already activated on this card"))
            }
            Initiative::Cards => {
                Illegal::new(Rule::R3_5, format!("{name} was already activated this turn (once_per_turn)"))
            }
            Initiative::Igougo | Initiative::Alternate => {
                Illegal::new(Rule::R3_7, format!("{name} was already activated this turn"))
            }
        })
    }

    /// Whether `side` has a unit it could still activate (on this card, or this turn).
    pub(crate) fn has_eligible(&self, side: Side) -> bool {
        !self.eligible(side).is_empty()
    }

    fn move_kind(&self, unit: UnitId) -> MoveKind {
        MoveKind { allowance: self.movement(unit), road_bonus: true, take_ground: None }
    }

    const ONE_STEP: MoveKind = MoveKind { allowance: 1, road_bonus: false, take_ground: None };

    /// Whether the change of square or facing is allowed for a move of `kind` (R5), naming the rule if not.
    fn check_move(&self, unit: UnitId, to: Square, facing: Dir, kind: MoveKind) -> Result<(), Illegal> {
        let at = self.units[unit.index()].at;
        let map = &self.scenario.map;
        if !map.contains(to) {
            return Err(Illegal::new(Rule::R1_1, format!("{to} is off the board")));
        }
        let occ = self.occupancy(self.info(unit).side);
        if to != at && !self.destinations(unit, kind, &occ).contains(to) {
            let why = if !map.passable(to) {
                Illegal::new(Rule::R5_1, format!("{to} is {}", map.impassable_words(to)))
            } else if let Some(other) = self.unit_at(to) {
                let holder = self.side_and_name(other);
                Illegal::new(Rule::R5_1, format!("{to} is held by {holder}: a move must end on an empty square"))
            } else if at.distance(to) > kind.allowance + (kind.road_bonus && map.road(at) && map.road(to)) as u8 {
                Illegal::new(Rule::R2_6, format!("{to} is beyond the unit's move of {}", kind.allowance))
            } else if occ.zoc.contains(at) && occ.zoc.contains(to) && kind.take_ground != Some(to) {
                let why = format!("a unit in contact may only move to squares not adjacent to an enemy; {to} is");
                Illegal::new(Rule::R5_3, why)
            } else if self.destinations(unit, kind, &Occupancy { zoc: SquareSet::default(), ..occ }).contains(to) {
                // Reachable but for the zone of control: the path must stop next to an enemy first.
                let why = format!("{to} lies beyond a square next to an enemy, where a move must stop");
                Illegal::new(Rule::R5_2, why)
            } else if let Some(ground) = self.dear_ground(unit, at, to) {
                Illegal::new(Rule::R1_5, format!("{to} cannot be reached this move: {ground}"))
            } else {
                let why = format!("{to} cannot be reached (terrain, river or enemy in the way)");
                Illegal::new(Rule::R5, why)
            };
            return Err(why);
        }
        // R5.4: a unit keeping both its square and its facing is never forced to turn.
        let keeps = to == at && facing == self.units[unit.index()].facing;
        if !keeps && !self.facings_at(to, &occ)[facing.index()] {
            let why = format!("a unit ending next to an enemy must face one; {facing} does not");
            return Err(Illegal::new(Rule::R5_4, why));
        }
        Ok(())
    }

    /// The terrain on the shortest paths from `at` to `to` that ends a move or costs `unit` more than one square
    /// (R1.5, or a variant's own terrain), in words; `None` if there is none. Only asked when a move is refused.
    fn dear_ground(&self, unit: UnitId, at: Square, to: Square) -> Option<String> {
        let map = &self.scenario.map;
        let steps = map.terrain_rules().steps(usize::from(self.info(unit).arm_place()));
        let between = |s: Square| s != at && at.distance(s) + s.distance(to) == at.distance(to);
        let (mut said, mut found) = (Vec::new(), 0);
        for s in
            (0..map.height()).flat_map(|y| (0..map.width()).map(move |x| Square::new(x, y))).filter(|&s| between(s))
        {
            let step = steps[map.terrain(s).place()];
            let effect = match (step.cost, step.stops && s != to) {
                (0, _) => continue,
                (cost, _) if cost > 1 => format!("costs {cost} squares of a move"),
                (_, true) => "ends a move there".to_string(),
                _ => continue,
            };
            found += 1;
            if said.len() < 3 {
                said.push(format!("the {} at {s} {effect}", map.terrain_name(s)));
            }
        }
        let more = if found > said.len() { format!(" (and {} more)", found - said.len()) } else { String::new() };
        (!said.is_empty()).then(|| format!("{}{more}", said.join("; ")))
    }

    /// Checks an action against the rules without changing anything.
    ///
    /// # Errors
    /// When the action is not legal now, citing the rule it breaks.
    pub fn check(&self, action: Action) -> Result<(), Illegal> {
        match (self.phase, action) {
            (Phase::Over(_), _) => Err(Illegal::new(Rule::R8, "the game is over")),
            (Phase::Rally { unit, .. }, _) => {
                // The variant's rule cited by its id and name, as the standard rules' are.
                let rule = self.scenario.system().rally();
                let (id, name) = rule.map_or(("rally", "roll"), |r| (r.id.as_str(), r.name.as_str()));
                let unit = self.side_and_name(unit);
                Err(Illegal::new(Rule::R9_1, format!("{id} {name}: the rally die of {unit} is rolled first")))
            }
            (Phase::DrawCard | Phase::InitiativeRoll { .. } | Phase::ToHit(_) | Phase::HitResult(_), _) => {
                Err(Illegal::new(Rule::R9_1, "chance acts now: a card or a die is pending"))
            }
            (Phase::ChooseUnit, Action::Activate(u)) => self.activation_refusal(u).map_or(Ok(()), Err),
            (Phase::ChooseUnit, Action::EndActivations) => Ok(()),
            (Phase::ChooseUnit, _) => Err(Illegal::new(Rule::R3_4, "activate a unit first (or end activations)")),
            (Phase::ChooseOrder { unit }, order) => self.check_order(unit, order),
            (Phase::Advance { unit, vacated }, Action::Advance { to, facing }) => {
                let kind = MoveKind { take_ground: vacated, ..Self::ONE_STEP };
                self.check_move(unit, to, facing, kind)?;
                self.order_refusal(unit, action)
            }
            (Phase::Advance { .. }, _) => Err(Illegal::new(
                Rule::R4_2,
                "after a Fire & Move attack the unit may move one square (Advance), nothing else",
            )),
        }
    }

    pub(crate) fn check_order(&self, unit: UnitId, order: Action) -> Result<(), Illegal> {
        self.check_order_as_the_standard(unit, order)?;
        self.order_refusal(unit, order)
    }

    /// Why a variant's restriction on orders forbids `order` to `unit`, if one does (`[[restrictions]]`, R4.2): the
    /// judge's side of [`Battle::order_forbidden`]. A unit forbidden every order may always Hold. Under rules without
    /// any, a test of one flag, inlined; the rest kept apart ([`Battle::restricted_order_refusal`]).
    #[inline(always)]
    fn order_refusal(&self, unit: UnitId, order: Action) -> Result<(), Illegal> {
        if !self.scenario.system().restricts_orders() {
            return Ok(());
        }
        self.restricted_order_refusal(unit, order)
    }

    /// [`Battle::order_refusal`] under a variant with restrictions on orders.
    #[cold]
    #[inline(never)]
    fn restricted_order_refusal(&self, unit: UnitId, order: Action) -> Result<(), Illegal> {
        let Some(i) = self.order_forbidden(unit, order) else { return Ok(()) };
        if order == Action::Hold {
            // Held only when nothing else is left: the listing's fallback, asked of the listing itself.
            let mut held = false;
            self.for_each_order_seen::<false>(unit, &self.occupancy(self.info(unit).side), |a, _| {
                held |= a == Action::Hold
            });
            if held {
                return Ok(());
            }
        }
        let said = self.scenario.system().restrictions().get(i as usize);
        let (id, name) = said.map_or(("variant", ""), |r| (r.id.as_str(), r.name.as_str()));
        let what = match order {
            Action::Move { .. } => "this move".to_string(),
            Action::Advance { .. } => "this move after its attack".to_string(),
            other => format!("this {} order", other.order_name()),
        };
        let reason = format!("{name}: this variant forbids {} {what}", self.side_and_name(unit));
        Err(Illegal::by_variant(id, Rule::R4_2, reason))
    }

    /// The first of the variant's restrictions on orders that forbids `order` to `unit`, by its place
    /// (`[[restrictions]]` over an order's facts): the one predicate both the judge of an order
    /// ([`Battle::check`]) and the list of legal actions ask, so that a restriction is written once. `None` under
    /// rules without any (the standard rules: no order's facts are read), and for the move after a Fire & Move that
    /// keeps the unit's square and facing, which is never forbidden, so that the order can always be finished.
    #[inline(always)]
    pub(crate) fn order_forbidden(&self, unit: UnitId, order: Action) -> Option<u8> {
        let system = self.scenario.system();
        if !system.restricts_orders() {
            return None;
        }
        self.first_order_restriction(system, unit, order)
    }

    /// [`Battle::order_forbidden`] under a variant with restrictions on orders.
    #[inline(never)]
    fn first_order_restriction(&self, system: &CombatSystem, unit: UnitId, order: Action) -> Option<u8> {
        let facts = self.order_facts(unit, order)?;
        first_forbidding_order(system.restrictions(), &facts)
    }

    /// The facts of `order` given to `unit` as the units stand now, a restriction on orders is decided by
    /// (docs/variants.md, "Restrictions on orders"); `None` for an action that is no order, and for the move after a
    /// Fire & Move that keeps the unit's square and facing.
    pub fn order_facts(&self, unit: UnitId, order: Action) -> Option<OrderFacts> {
        OrderKind::of(&order)?;
        self.order_facts_from(&self.standing(unit), unit, order)
    }

    /// What the facts of every order given to `unit` share, worked out once for a whole listing
    /// ([`Battle::for_each_order_restricted`]): the unit where it stands, as a rally modifier reads it, and how near
    /// its nearest enemy is.
    fn standing(&self, unit: UnitId) -> Standing {
        let state = self.units[unit.index()];
        let enemies = self.on_board[self.info(unit).side.other().index()].iter();
        let near = enemies.map(|e| state.at.distance(self.units[e.index()].at)).min().unwrap_or(u8::MAX);
        let facts = OrderFacts {
            order: OrderKind::Hold,
            unit: self.rally_facts(unit),
            shaken: state.shaken,
            squares: 0,
            closer: false,
            ends_adjacent: near == 1,
            into_terrain: self.scenario.map.terrain(state.at),
        };
        Standing { facts, near }
    }

    /// [`Battle::order_facts`] from what the unit's orders share ([`Battle::standing`]).
    fn order_facts_from(&self, standing: &Standing, unit: UnitId, order: Action) -> Option<OrderFacts> {
        let kind = OrderKind::of(&order)?;
        let state = self.units[unit.index()];
        let to = match order {
            Action::Advance { to, facing } if to == state.at && facing == state.facing => return None,
            Action::Move { to, .. } | Action::MoveFire { to, .. } | Action::Advance { to, .. } => to,
            _ => state.at,
        };
        let near_to = if to == state.at {
            standing.near
        } else {
            let enemies = self.on_board[self.info(unit).side.other().index()].iter();
            enemies.map(|e| to.distance(self.units[e.index()].at)).min().unwrap_or(u8::MAX)
        };
        Some(OrderFacts {
            order: kind,
            squares: state.at.distance(to),
            closer: near_to < standing.near,
            ends_adjacent: near_to == 1,
            into_terrain: self.scenario.map.terrain(to),
            ..standing.facts
        })
    }

    /// [`Battle::check_order`] by the standard rules and the variant's rules on attacks, its restrictions on orders
    /// left out. Inlined: [`Battle::check_order`] is this and a test of one flag under rules without restrictions on
    /// orders.
    #[inline(always)]
    fn check_order_as_the_standard(&self, unit: UnitId, order: Action) -> Result<(), Illegal> {
        if let Some(target) = order.target()
            && target.0 >= self.unit_count()
        {
            return Err(Illegal::new(Rule::R6_1, format!("there is no unit {} to attack", target.0)));
        }
        let state = self.units[unit.index()];
        let arm = self.info(unit).arm;
        let side = self.info(unit).side;
        let no_guns = |what: &str| Illegal::new(Rule::R4_3, format!("artillery cannot {what}"));
        match order {
            Action::Hold => Ok(()),
            Action::Move { to, facing } => {
                if to == state.at && facing == state.facing {
                    return Err(Illegal::new(Rule::R4_2, "a Move must change square or facing; use Hold to stay"));
                }
                self.check_move(unit, to, facing, self.move_kind(unit))
            }
            Action::Fire { target, facing } => {
                if facing != state.facing {
                    if self.options.pivot_is_move {
                        return Err(Illegal::new(Rule::R5_5, "a Fire order keeps the unit's facing (pivot_is_move)"));
                    }
                    self.check_move(unit, state.at, facing, self.move_kind(unit))?;
                }
                self.assess(unit, state.at, facing, target, false, &self.occupancy(side)).map(|_| ())
            }
            Action::MoveFire { to, facing, target } => {
                if arm == Arm::Artillery {
                    return Err(no_guns("move and fire"));
                }
                if to == state.at && facing == state.facing {
                    return Err(Illegal::new(Rule::R4_2, "Move & Fire must move or change facing; use Fire"));
                }
                self.check_move(unit, to, facing, Self::ONE_STEP)?;
                self.assess(unit, to, facing, target, true, &self.occupancy(side)).map(|_| ())
            }
            Action::FireMove { target } => {
                if arm == Arm::Artillery {
                    return Err(no_guns("fire and move"));
                }
                self.assess(unit, state.at, state.facing, target, true, &self.occupancy(side)).map(|_| ())
            }
            Action::Activate(_) | Action::EndActivations => {
                Err(Illegal::new(Rule::R4_2, format!("{} must carry out an order first", self.info(unit).name)))
            }
            Action::Advance { .. } => Err(Illegal::new(Rule::R4_2, "Advance follows a Fire & Move attack only")),
        }
    }

    /// Checks `order` for `unit` as the player choosing it sees it: while a unit is to be chosen, as if `unit` were
    /// activated now (its activation is checked first); while `unit` gives or carries out its order, as
    /// [`Battle::check`]. Lets a player ask why an order is refused before activating the unit. Changes nothing.
    /// A shaken unit under a variant's restrictions is judged as it will stand once rallied (R4.1), as
    /// [`ActivationOrders::for_each`] lists its orders.
    ///
    /// # Errors
    /// When `unit` could not be activated now, or could not carry out `order` once activated, citing the rule.
    pub fn check_order_for(&self, unit: UnitId, order: Action) -> Result<(), Illegal> {
        match self.phase {
            Phase::ChooseUnit => {
                self.check(Action::Activate(unit))?;
                if self.units[unit.index()].shaken && !self.scenario.system().restrictions().is_empty() {
                    let mut rallied = self.clone();
                    rallied.units[unit.index()].shaken = false;
                    return rallied.check_order(unit, order);
                }
                self.check_order(unit, order)
            }
            Phase::ChooseOrder { unit: active } | Phase::Advance { unit: active, .. } if active != unit => {
                let name = &self.info(active).name;
                Err(Illegal::new(Rule::R3_4, format!("{name} is carrying out its order; one activation at a time")))
            }
            _ => self.check(order),
        }
    }

    /// The orders `unit` may be given, each attacking order with its assessment: while a unit is to be chosen,
    /// those it could be given were it activated now; while it gives or carries out its order, the legal actions.
    /// Empty for any other unit.
    pub fn orders_for(&self, unit: UnitId) -> Vec<(Action, Option<AttackAssessment>)> {
        let mut out = Vec::new();
        match self.phase {
            Phase::ChooseUnit => {
                self.activation_orders().for_each(unit, |action, assessment| out.push((action, assessment.copied())))
            }
            Phase::ChooseOrder { unit: active } | Phase::Advance { unit: active, .. } if active == unit => {
                self.assessed_actions_into(&mut out)
            }
            _ => {}
        }
        out
    }

    /// Whether the action is legal now.
    pub fn is_legal(&self, action: Action) -> bool {
        self.check(action).is_ok()
    }

    /// Every legal action of the side to act, in a fixed order (empty when chance acts or the game is over).
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// As [`Battle::legal_actions`], into a buffer the caller reuses (cleared first): [`Battle::list_legal`]'s.
    pub(crate) fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        self.for_each_legal::<false>(|action, _| out.push(action));
    }

    /// As [`Battle::legal_actions_into`], each attacking order with its assessment (as [`Battle::assess_order`]
    /// gives it).
    fn assessed_actions_into(&self, out: &mut Vec<(Action, Option<AttackAssessment>)>) {
        out.clear();
        self.for_each_legal::<true>(|action, assessment| out.push((action, assessment.copied())));
    }

    /// What each unit of the side to act could be ordered to do were it activated now (empty for any other
    /// decision): lets a player weigh every unit's orders before choosing one to activate, without activating each
    /// on a copy.
    pub fn activation_orders(&self) -> ActivationOrders<'_, S> {
        let occ = self.occupancy(self.active);
        ActivationOrders { battle: self, occ }
    }

    /// Calls `visit` with every legal action in the fixed order, and with the assessment of each attacking order
    /// when `ASSESS` (else `None`: listing for a player that does not judge the attacks skips their modifiers).
    ///
    /// The assessment is lent, not handed over: an assessment by value beside the action made every call build the
    /// pair in memory and read the action back whole before its parts were stored, a stall that cost a greedy game
    /// a tenth of its time.
    pub(super) fn for_each_legal<const ASSESS: bool>(&self, mut visit: impl FnMut(Action, Option<&AttackAssessment>)) {
        match self.phase {
            Phase::ChooseUnit => {
                for u in self.eligible(self.active).iter() {
                    visit(Action::Activate(u), None);
                }
                visit(Action::EndActivations, None);
            }
            Phase::ChooseOrder { unit } => {
                self.for_each_order_seen::<ASSESS>(unit, &self.occupancy(self.info(unit).side), visit)
            }
            Phase::Advance { unit, vacated } => {
                let kind = MoveKind { take_ground: vacated, ..Self::ONE_STEP };
                let occ = self.occupancy(self.info(unit).side);
                self.for_each_move(unit, kind, true, &occ, |to, facing| {
                    let advance = Action::Advance { to, facing };
                    if self.order_forbidden(unit, advance).is_none() {
                        visit(advance, None)
                    }
                });
            }
            _ => {}
        }
    }

    /// Calls `visit` with every (square, facing) a move of `kind` may end with, optionally including staying as it is.
    fn for_each_move(
        &self,
        unit: UnitId,
        kind: MoveKind,
        include_stay: bool,
        occ: &Occupancy,
        visit: impl FnMut(Square, Dir),
    ) {
        self.for_each_move_to(unit, self.destinations(unit, kind, occ), include_stay, occ, visit)
    }

    /// As [`Battle::for_each_move`], to the squares `dests` a move search found.
    fn for_each_move_to(
        &self,
        unit: UnitId,
        dests: SquareSet,
        include_stay: bool,
        occ: &Occupancy,
        mut visit: impl FnMut(Square, Dir),
    ) {
        let at = self.units[unit.index()].at;
        for to in std::iter::once(at).chain(dests.iter()) {
            self.for_each_facing_at(unit, to, include_stay, occ, &mut visit);
        }
    }

    /// Calls `visit` with `to` and every facing a move of `unit` may end there with (R5.4), optionally including
    /// staying as it is.
    fn for_each_facing_at(
        &self,
        unit: UnitId,
        to: Square,
        include_stay: bool,
        occ: &Occupancy,
        mut visit: impl FnMut(Square, Dir),
    ) {
        let state = self.units[unit.index()];
        let facings = self.facings_at(to, occ);
        for d in Dir::ALL {
            // Staying as it is (after Fire & Move) is allowed whatever the enemies around (R5.4).
            let keeps = to == state.at && d == state.facing;
            if (facings[d.index()] || keeps) && (include_stay || !keeps) {
                visit(to, d);
            }
        }
    }

    /// Calls `visit` with every order `unit` may be given, the units' squares as its side sees them, and the
    /// assessment of each attacking order when `ASSESS`. Under a variant's restrictions on orders, those they
    /// forbid are left out ([`Battle::for_each_order_restricted`]); under rules without any, the listing is the
    /// standard one, asked of nothing more.
    #[inline(always)]
    fn for_each_order_seen<const ASSESS: bool>(
        &self,
        unit: UnitId,
        occ: &Occupancy,
        mut visit: impl FnMut(Action, Option<&AttackAssessment>),
    ) {
        if self.scenario.system().restricts_orders() {
            return self.for_each_order_restricted::<ASSESS>(unit, occ, &mut visit);
        }
        self.for_each_order_of::<ASSESS>(unit, occ, visit)
    }

    /// [`Battle::for_each_order_seen`] under a variant's restrictions on orders: each order the standard listing
    /// gives, less those [`Battle::order_forbidden`] forbids; Hold, if forbidden, only when no other order is
    /// left (a unit always has an order). Rare, and through `dyn` so that it makes no second copy of the listing
    /// for each caller.
    #[cold]
    #[inline(never)]
    fn for_each_order_restricted<const ASSESS: bool>(
        &self,
        unit: UnitId,
        occ: &Occupancy,
        visit: &mut dyn FnMut(Action, Option<&AttackAssessment>),
    ) {
        let (mut hold_forbidden, mut listed) = (false, false);
        let (restrictions, standing) = (self.scenario.system().restrictions(), self.standing(unit));
        let forbidden = |action| {
            let facts = self.order_facts_from(&standing, unit, action);
            facts.is_some_and(|facts| first_forbidding_order(restrictions, &facts).is_some())
        };
        // Through `dyn` again, the listing's copy for a `dyn` visitor (a shaken unit's, [`ActivationOrders`]) serves.
        let filtered: &mut dyn FnMut(Action, Option<&AttackAssessment>) = &mut |action, assessment| {
            if forbidden(action) {
                hold_forbidden |= action == Action::Hold;
            } else {
                listed = true;
                visit(action, assessment);
            }
        };
        self.for_each_order_of::<ASSESS>(unit, occ, filtered);
        if hold_forbidden && !listed {
            visit(Action::Hold, None);
        }
    }

    /// The orders of [`Battle::for_each_order_seen`] by the standard rules and the variant's rules on attacks.
    fn for_each_order_of<const ASSESS: bool>(
        &self,
        unit: UnitId,
        occ: &Occupancy,
        mut visit: impl FnMut(Action, Option<&AttackAssessment>),
    ) {
        let state = self.units[unit.index()];
        let side = self.info(unit).side;
        visit(Action::Hold, None);
        let moves = self.destinations(unit, self.move_kind(unit), occ);
        self.for_each_move_to(unit, moves, false, occ, |to, facing| visit(Action::Move { to, facing }, None));
        // Only enemies within range (one step more for Move & Fire) can be attacked.
        let range = self.range(unit);
        let mut targets = [UnitId(0); MAX_UNITS];
        let mut n = 0;
        for e in self.on_board[side.other().index()].iter() {
            if self.units[e.index()].at.distance(state.at) <= range + 1 {
                targets[n] = e;
                n += 1;
            }
        }
        let targets = &targets[..n];
        if targets.is_empty() {
            return;
        }
        let fire_facings = if self.options.pivot_is_move {
            let mut only = [false; 4];
            only[state.facing.index()] = true;
            only
        } else {
            let mut pivots = self.facings_at(state.at, occ);
            pivots[state.facing.index()] = true;
            pivots
        };
        // An attack's range and line of sight do not depend on the facing: found once a square, for each target.
        let mut sights = [None; MAX_UNITS];
        let see_from = |from: Square, sights: &mut [Option<Sighted>]| {
            for (sight, &target) in sights.iter_mut().zip(targets) {
                *sight = self.in_sight(unit, from, target, occ).ok();
            }
        };
        see_from(state.at, &mut sights);
        for facing in Dir::ALL.into_iter().filter(|d| fire_facings[d.index()]) {
            for (&target, &sight) in targets.iter().zip(&sights) {
                if let Some(a) = self.listed_attack::<ASSESS>(unit, state.at, facing, target, false, sight) {
                    visit(Action::Fire { target, facing }, a.as_ref());
                }
            }
        }
        if self.info(unit).arm == Arm::Artillery {
            return; // R4.3
        }
        // The first step of a Move is judged as a one-square move is (a move's allowance is at least 1), so the
        // squares of Move & Fire are those of the Move search next to the unit: one search serves both. Its own
        // square comes first (a turn, then fire), as the unit's sights are already found there.
        let mut one_step = SquareSet::default();
        for n in Dir::ALL.into_iter().filter_map(|d| self.scenario.map.step(state.at, d)) {
            if moves.contains(n) {
                one_step.insert(n);
            }
        }
        let from_here = sights;
        for to in std::iter::once(state.at).chain(one_step.iter()) {
            if to != state.at {
                see_from(to, &mut sights);
            }
            self.for_each_facing_at(unit, to, false, occ, |to, facing| {
                for (&target, &sight) in targets.iter().zip(&sights) {
                    if let Some(a) = self.listed_attack::<ASSESS>(unit, to, facing, target, true, sight) {
                        visit(Action::MoveFire { to, facing, target }, a.as_ref());
                    }
                }
            });
        }
        for (&target, &sight) in targets.iter().zip(&from_here) {
            if let Some(a) = self.listed_attack::<ASSESS>(unit, state.at, state.facing, target, true, sight) {
                visit(Action::FireMove { target }, a.as_ref());
            }
        }
    }
}

use crate::unit::Side;

/// What each unit of the side to act could be ordered to do were it activated now ([`Battle::activation_orders`]).
pub struct ActivationOrders<'a, S = std::sync::Arc<crate::Scenario>> {
    pub(super) battle: &'a Battle<S>,
    /// The units' squares as the side to act sees them: the same for each of its units.
    occ: Occupancy,
}

impl<S: ScenarioRef> ActivationOrders<'_, S> {
    /// Calls `visit` with each order `unit` could be given were it activated now, each attacking order with its
    /// assessment, as [`Battle::list_assessed`] lists them after `Activate(unit)` (none if the unit may not be
    /// activated now), without a buffer between. Activation changes nothing the orders depend on but the unit's
    /// shaken state (it rallies, R4.1), which only a variant's restrictions ask for: under those a shaken unit's
    /// orders are listed as it will stand once rallied. (Under a variant's rally roll nothing is listed after
    /// `Activate(unit)` until the die is rolled: these are the orders were it to rally.)
    pub fn for_each(&self, unit: UnitId, mut visit: impl FnMut(Action, Option<&AttackAssessment>)) {
        let b = self.battle;
        if b.phase != Phase::ChooseUnit || !b.may_activate(unit) {
            return;
        }
        if b.units[unit.index()].shaken && !b.scenario.system().restrictions().is_empty() {
            self.for_each_rallied(unit, &mut visit);
        } else {
            // The listing's one call with the caller's `visit`, so that it may be inlined into the caller's loop.
            b.for_each_order_seen::<true>(unit, &self.occ, visit);
        }
    }

    /// [`ActivationOrders::for_each`] for a shaken unit under a variant's restrictions: listed as it will stand once
    /// rallied. Rare, and through `dyn` so that it makes no second copy of the listing for each caller.
    #[cold]
    fn for_each_rallied(&self, unit: UnitId, visit: &mut dyn FnMut(Action, Option<&AttackAssessment>)) {
        let mut rallied = self.battle.clone();
        rallied.units[unit.index()].shaken = false;
        rallied.for_each_order_seen::<true>(unit, &self.occ, visit);
    }
}

/// What the facts of every order given to a unit share ([`Battle::standing`]): the facts of a Hold, and the distance
/// to the nearest enemy from where the unit stands.
#[derive(Copy, Clone)]
struct Standing {
    /// The facts of a Hold where the unit stands.
    facts: OrderFacts,
    /// Squares to its nearest enemy unit (`u8::MAX` with none on the board).
    near: u8,
}
