//! Changing the battle: actions of the sides and outcomes of chance (docs/rules.md R3–R8).

use super::ScenarioRef;
use super::deck::Deck;
use super::{Battle, ChanceKind, NO_UNIT, PendingAttack, Phase, ToAct, UnitSet};
use crate::action::{Action, Illegal};
use crate::attack::{AttackKind, AttackResult, HitResult, RetreatPath, Steadiness, after_hit, hits, result_on_row};
use crate::card::Card;
use crate::chance::{Outcome, Prob, d6};
use crate::event::{Declared, EndReason, Event, GameResult};
use crate::geometry::{Dir, Square};
use crate::options::Initiative;
use crate::rule::Rule;
use crate::system::{Aftermath, AttackerEffect};
use crate::unit::{Side, UnitId};
use rand::{Rng, RngExt};

impl<S: ScenarioRef> Battle<S> {
    /// Applies a side's action and returns what happened; on error nothing changes.
    ///
    /// # Errors
    /// When the action is not legal now: the [`Illegal`] cites the rule it breaks.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, Illegal> {
        let mut events = Vec::new();
        self.apply_into(action, &mut events)?;
        Ok(events)
    }

    /// As [`Battle::apply`], appending the events to a buffer the caller reuses.
    ///
    /// # Errors
    /// As [`Battle::apply`]: when the action is not legal now.
    pub fn apply_into(&mut self, action: Action, events: &mut Vec<Event>) -> Result<(), Illegal> {
        self.check(action)?;
        self.carry_out(action, events);
        Ok(())
    }

    /// Applies an action the caller has just listed in this very state ([`Battle::legal_actions`],
    /// [`Battle::list_legal`], [`Battle::activation_orders`] for the unit just activated), without judging it again:
    /// what perft, the laboratory's games and the computer players do at every step.
    ///
    /// # Panics
    ///
    /// In a debug build, when the action is not legal here (the test suite runs so); in a release build such an
    /// action leaves the battle in a state the rules do not allow. Use [`Battle::apply`] for anything not listed here.
    pub fn apply_unchecked(&mut self, action: Action, events: &mut Vec<Event>) {
        debug_assert!(self.check(action).is_ok(), "apply_unchecked with an illegal action: {:?}", self.check(action));
        self.carry_out(action, events);
    }

    /// Carries out an action already found legal in this state (by [`Battle::check`] or by listing it).
    fn carry_out(&mut self, action: Action, events: &mut Vec<Event>) {
        match (self.phase, action) {
            (Phase::ChooseUnit, Action::Activate(unit)) => {
                self.activated_card.insert(unit);
                self.activated_turn.insert(unit);
                let state = &mut self.units[unit.index()];
                if state.shaken && self.scenario.system().rally().is_some() {
                    self.call_rally(unit, events); // a variant's rally roll, in place of R4.1
                    return;
                }
                let rallied = std::mem::replace(&mut state.shaken, false); // R4.1
                events.push(Event::Activated { unit, rallied });
                self.phase = Phase::ChooseOrder { unit };
            }
            (Phase::ChooseUnit, _) => {
                events.push(Event::ActivationsEnded { side: self.active });
                match self.options.initiative {
                    Initiative::Cards => self.phase = Phase::DrawCard,
                    _ => {
                        self.done[self.active.index()] = true;
                        self.next_activation(true, events);
                    }
                }
            }
            (Phase::ChooseOrder { unit }, Action::Hold) => {
                events.push(Event::Held { unit });
                self.end_activation(unit, events);
            }
            (Phase::ChooseOrder { unit }, Action::Move { to, facing }) => {
                self.move_unit(unit, to, facing, events);
                self.end_activation(unit, events);
            }
            (Phase::ChooseOrder { unit }, Action::Fire { target, facing }) => {
                if facing != self.units[unit.index()].facing {
                    self.move_unit(unit, self.units[unit.index()].at, facing, events);
                }
                self.declare(unit, target, false, false, events);
            }
            (Phase::ChooseOrder { unit }, Action::MoveFire { to, facing, target }) => {
                self.move_unit(unit, to, facing, events);
                self.declare(unit, target, true, false, events);
            }
            (Phase::ChooseOrder { unit }, Action::FireMove { target }) => {
                self.declare(unit, target, true, true, events)
            }
            (Phase::Advance { unit, .. }, Action::Advance { to, facing }) => {
                self.move_unit(unit, to, facing, events);
                self.end_activation(unit, events);
            }
            _ => unreachable!("check() admitted an action this phase does not take"),
        }
    }

    /// The outcomes of the pending chance event with their exact probabilities (R9.2); empty when a side acts.
    pub fn chance_outcomes(&self) -> Vec<(Outcome, Prob)> {
        match self.to_act() {
            ToAct::Chance(ChanceKind::Card) => {
                let total = self.deck.len() as u32;
                self.deck.cards().map(|(c, n)| (Outcome::Card(c), Prob::new(n as u32, total))).collect()
            }
            ToAct::Chance(_) => d6().collect(),
            _ => Vec::new(),
        }
    }

    /// The outcomes of the pending chance event in the order of [`Battle::chance_outcomes`], without their
    /// probabilities and without allocating: for walks that branch on every outcome (perft, search).
    pub fn chance_branches(&self) -> impl Iterator<Item = Outcome> + use<S> {
        let mut branches = [Outcome::Die(0); 7]; // at most seven kinds of card are left (R3.2); six faces
        let n = match self.to_act() {
            ToAct::Chance(ChanceKind::Card) => {
                let mut n = 0;
                for (card, _) in self.deck.cards() {
                    branches[n] = Outcome::Card(card);
                    n += 1;
                }
                n
            }
            ToAct::Chance(_) => {
                for (face, b) in branches.iter_mut().take(6).enumerate() {
                    *b = Outcome::Die(face as u8 + 1);
                }
                6
            }
            _ => 0,
        };
        branches.into_iter().take(n)
    }

    /// Samples the pending chance event from `rng`: a fair die, or a uniformly random card of those left (R3.3).
    /// Returns `None` when no chance event is pending.
    pub fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Outcome> {
        match self.to_act() {
            ToAct::Chance(ChanceKind::Card) => self.deck.nth(rng.random_range(0..self.deck.len())).map(Outcome::Card),
            ToAct::Chance(_) => Some(Outcome::Die(rng.random_range(1..=6))),
            _ => None,
        }
    }

    /// Applies the outcome of the pending chance event; on error nothing changes.
    ///
    /// # Errors
    /// When no chance event is pending, or the outcome is not one of its outcomes (R9).
    pub fn apply_chance(&mut self, outcome: Outcome) -> Result<Vec<Event>, Illegal> {
        let mut events = Vec::new();
        self.apply_chance_into(outcome, &mut events)?;
        Ok(events)
    }

    /// As [`Battle::apply_chance`], appending the events to a buffer the caller reuses.
    ///
    /// # Errors
    /// As [`Battle::apply_chance`].
    pub fn apply_chance_into(&mut self, outcome: Outcome, events: &mut Vec<Event>) -> Result<(), Illegal> {
        self.resolve_chance(outcome, events)
    }

    fn resolve_chance(&mut self, outcome: Outcome, events: &mut Vec<Event>) -> Result<(), Illegal> {
        match (self.phase, outcome) {
            (Phase::DrawCard, Outcome::Card(card)) => {
                if !self.deck.take(card) {
                    return Err(Illegal::new(Rule::R3_3, format!("no {card} card is left in the deck")));
                }
                events.push(Event::CardDrawn { card, left: self.deck.len() });
                match card {
                    Card::Joker => self.end_turn(events),
                    Card::Side { side, value } => {
                        self.active = side;
                        self.left = value;
                        self.activated_card = UnitSet::EMPTY;
                        self.next_activation(false, events);
                    }
                }
            }
            (
                Phase::InitiativeRoll { .. } | Phase::Rally { .. } | Phase::ToHit(_) | Phase::HitResult(_),
                Outcome::Die(n),
            ) if !(1..=6).contains(&n) => {
                return Err(Illegal::new(Rule::R9_1, format!("a D6 cannot roll {n}")));
            }
            (Phase::InitiativeRoll { a: None }, Outcome::Die(roll)) => {
                events.push(Event::InitiativeRolled { side: Side::A, roll });
                self.phase = Phase::InitiativeRoll { a: Some(roll) };
            }
            (Phase::InitiativeRoll { a: Some(a) }, Outcome::Die(b)) => {
                events.push(Event::InitiativeRolled { side: Side::B, roll: b });
                if a == b {
                    self.phase = Phase::InitiativeRoll { a: None }; // R3.7: re-roll ties
                } else {
                    let winner = if a > b { Side::A } else { Side::B };
                    events.push(Event::InitiativeWon { side: winner });
                    self.active = winner;
                    self.next_activation(false, events);
                }
            }
            (Phase::ToHit(attack), Outcome::Die(roll)) => {
                let hit = hits(roll, attack.needed);
                events.push(Event::ToHitRolled { roll, hit });
                self.units[attack.attacker.index()].ranging = attack.target.0; // R6.4: remember the target
                if hit {
                    self.phase = Phase::HitResult(attack);
                } else {
                    self.after_attack(attack, AttackResult::Miss, None, events);
                }
            }
            (Phase::HitResult(attack), Outcome::Die(roll)) => self.resolve_hit(attack, roll, events),
            (Phase::Rally { unit, test }, Outcome::Die(roll)) => {
                let rallied = test.rallies(roll);
                if rallied {
                    self.units[unit.index()].shaken = false;
                }
                events.push(Event::RallyRolled { unit, roll, test, rallied });
                self.phase = Phase::ChooseOrder { unit };
            }
            (Phase::DrawCard, _) => return Err(Illegal::new(Rule::R9_1, "a card is to be drawn, not a die")),
            (Phase::InitiativeRoll { .. } | Phase::Rally { .. } | Phase::ToHit(_) | Phase::HitResult(_), _) => {
                return Err(Illegal::new(Rule::R9_1, "a die is to be rolled, not a card"));
            }
            _ => return Err(Illegal::new(Rule::R9_1, "no chance event is pending: a side acts now")),
        }
        Ok(())
    }

    /// A shaken unit activated under a variant's rally roll (`[rally]`): its activation is reported, each rally
    /// modifier that applies cited, and the die is rolled next against the test they make (docs/variants.md). Kept
    /// out of line: the standard rules never come here.
    #[cold]
    #[inline(never)]
    fn call_rally(&mut self, unit: UnitId, events: &mut Vec<Event>) {
        events.push(Event::Activated { unit, rallied: false });
        let (applied, test) = self.rally_test(unit).expect("called under a rally rule");
        for rule in (0..8u8).filter(|i| applied & (1 << i) != 0) {
            events.push(Event::RallyModified { unit, rule });
        }
        self.phase = Phase::Rally { unit, test };
    }

    /// Moves or turns a unit. A change of square, or of facing when `pivot_is_move`, is a move for the
    /// ranging bonus (R5.5).
    fn move_unit(&mut self, unit: UnitId, to: Square, facing: Dir, events: &mut Vec<Event>) {
        let state = &mut self.units[unit.index()];
        let from = state.at;
        if from == to && facing == state.facing {
            return;
        }
        state.at = to;
        state.facing = facing;
        if from != to || self.options.pivot_is_move {
            self.forget_ranging(unit);
        }
        events.push(Event::Moved { unit, from, to, facing });
    }

    /// A unit moved: no gun keeps ranging on it, and it keeps no ranging of its own (R6.4, R5.5).
    fn forget_ranging(&mut self, unit: UnitId) {
        self.units[unit.index()].ranging = NO_UNIT;
        for u in self.units.iter_mut() {
            if u.ranging == unit.0 {
                u.ranging = NO_UNIT;
            }
        }
    }

    fn declare(&mut self, attacker: UnitId, target: UnitId, moved: bool, then_advance: bool, events: &mut Vec<Event>) {
        let at = self.units[attacker.index()];
        let occ = self.occupancy(self.info(attacker).side);
        let a = self.assess(attacker, at.at, at.facing, target, moved, &occ).expect("checked before");
        events.push(Event::Attack { attacker, target, charge: a.charge, needed: a.needed, modifiers: a.modifiers });
        let (charge, needed, aftermath) = (a.charge, a.needed, a.aftermath);
        let (result_modifiers, result_modifier) = (a.result_modifiers, a.result_modifier);
        self.phase = Phase::ToHit(PendingAttack {
            attacker,
            target,
            charge,
            needed,
            then_advance,
            aftermath,
            result_modifiers,
            result_modifier,
        });
    }

    fn resolve_hit(&mut self, attack: PendingAttack, roll: u8, events: &mut Vec<Event>) {
        let target = attack.target;
        let state = self.units[target.index()];
        let mut strength = self.strength(target);
        if attack.result_modifiers != 0 {
            // The variant's result modifiers: each cited, then the roll against the strength they make (R7.1).
            for rule in (0..8u8).filter(|i| attack.result_modifiers & (1 << i) != 0) {
                events.push(Event::ResultModified { unit: target, rule });
            }
            strength = (strength as i8 + attack.result_modifier).max(0) as u8;
        }
        let table = *self.scenario.system().results();
        let result =
            result_on_row(table.row(Steadiness::of(state.shaken), AttackKind::of(attack.charge)), strength, roll);
        events.push(Event::HitResultRolled { unit: target, roll, strength, result });
        let retreat_to = match result {
            HitResult::Retreat => self.retreat_square(target, attack.attacker),
            _ => None,
        };
        let blocked = result == HitResult::Retreat && retreat_to.is_none();
        if blocked {
            events.push(Event::RetreatBlocked { unit: target });
        }
        let mut vacated = None;
        let outcome = after_hit(result, RetreatPath::of(blocked), self.options.blocked_retreat);
        match outcome {
            AttackResult::NoEffect => {} // a variant's table may let a hit change nothing
            AttackResult::Shaken | AttackResult::Stand => self.shake(target, events),
            AttackResult::Retreat => {
                let to = retreat_to.expect("a retreat that is not blocked has a square");
                self.units[target.index()].at = to;
                self.forget_ranging(target); // R5.5: a retreat is a move for the bonuses
                events.push(Event::Retreated { unit: target, from: state.at, to });
                self.shake(target, events); // R7.2
                self.note_holder(target, events);
                vacated = Some(state.at);
            }
            AttackResult::Destroyed => {
                self.destroy(target, events);
                vacated = Some(state.at);
            }
            AttackResult::Miss => unreachable!("a hit never misses"),
        }
        self.after_attack(attack, outcome, vacated, events);
    }

    fn shake(&mut self, unit: UnitId, events: &mut Vec<Event>) {
        if !std::mem::replace(&mut self.units[unit.index()].shaken, true) {
            events.push(Event::Shaken { unit });
        }
    }

    fn destroy(&mut self, unit: UnitId, events: &mut Vec<Event>) {
        self.units[unit.index()].alive = false;
        self.units[unit.index()].shaken = false;
        self.forget_ranging(unit);
        let side = self.info(unit).side;
        self.on_board[side.index()].remove(unit);
        self.destroyed[side.index()] += 1;
        events.push(Event::Destroyed { unit });
    }

    /// Ends the game if `unit`'s side has reached its exhaustion point (R8.1): `unit` was just destroyed.
    fn exhausted(&mut self, unit: UnitId, events: &mut Vec<Event>) {
        let side = self.info(unit).side;
        if self.destroyed[side.index()] >= self.exhaustion_point(side) {
            self.finish(Some(side.other()), EndReason::Exhaustion(side), events);
        }
    }

    /// The end of an attack whose dice gave `result`: what it does to the attacker (a variant's after-attack rules),
    /// then the attacker's Advance after Fire & Move (R4.4) or the end of its activation.
    fn after_attack(
        &mut self,
        attack: PendingAttack,
        result: AttackResult,
        mut vacated: Option<Square>,
        events: &mut Vec<Event>,
    ) {
        if !attack.aftermath.is_empty() {
            vacated = self.befall_attacker(attack, result, vacated, events);
        }
        // R8.1: a side at its exhaustion point ends the game once the attack is over, its target's side first.
        if result == AttackResult::Destroyed {
            self.exhausted(attack.target, events);
        }
        let attacker = attack.attacker;
        if !self.units[attacker.index()].alive && !matches!(self.phase, Phase::Over(_)) {
            self.exhausted(attacker, events);
        }
        if matches!(self.phase, Phase::Over(_)) {
            return;
        }
        if !self.units[attacker.index()].alive {
            // Its activation ends with it: it holds nothing and advances nowhere.
            self.left = self.left.saturating_sub(1);
            self.next_activation(true, events);
            return;
        }
        if attack.then_advance {
            self.phase = Phase::Advance { unit: attack.attacker, vacated };
        } else {
            self.end_activation(attack.attacker, events);
        }
    }

    /// Applies the after-attack rules that befall the attacker after `result` (docs/variants.md), each reported with
    /// its rule; returns the square its target left, unless the attacker advanced into it.
    fn befall_attacker(
        &mut self,
        attack: PendingAttack,
        result: AttackResult,
        mut vacated: Option<Square>,
        events: &mut Vec<Event>,
    ) -> Option<Square> {
        if attack.aftermath == Aftermath::default() {
            return vacated;
        }
        let scenario = self.scenario.clone();
        let system = scenario.system();
        let unit = attack.attacker;
        for rule in attack.aftermath.rules(result) {
            let effect = system.after_attack()[rule as usize].effect;
            match effect {
                AttackerEffect::Shaken => {
                    let at = self.units[unit.index()].at;
                    if !std::mem::replace(&mut self.units[unit.index()].shaken, true) {
                        events.push(Event::AfterAttack { unit, rule, effect, at });
                    }
                }
                AttackerEffect::Advance => {
                    let Some(to) = vacated.take() else { continue };
                    self.units[unit.index()].at = to;
                    self.forget_ranging(unit); // a move, for the bonuses (R5.5)
                    events.push(Event::AfterAttack { unit, rule, effect, at: to });
                    self.note_holder(unit, events);
                }
                AttackerEffect::Destroyed => {
                    let at = self.units[unit.index()].at;
                    events.push(Event::AfterAttack { unit, rule, effect, at });
                    self.destroy(unit, events);
                }
            }
        }
        vacated
    }

    /// The side of `unit` now holds the objective it stands on, if any (R8.2).
    fn note_holder(&mut self, unit: UnitId, events: &mut Vec<Event>) {
        let at = self.units[unit.index()].at;
        let side = self.info(unit).side;
        if let Some(i) = self.scenario.objectives.iter().position(|o| o.at == at) {
            let code = side.index() as u8 + 1;
            if self.holders[i] != code {
                self.holders[i] = code;
                events.push(Event::ObjectiveTaken { at, side });
            }
        }
    }

    fn end_activation(&mut self, unit: UnitId, events: &mut Vec<Event>) {
        self.note_holder(unit, events);
        self.left = self.left.saturating_sub(1);
        self.next_activation(true, events);
    }

    /// Decides who acts after an activation or a pass (`switch`), or at the start of a card or turn.
    fn next_activation(&mut self, switch: bool, events: &mut Vec<Event>) {
        let me = self.active;
        match self.options.initiative {
            Initiative::Cards => {
                self.phase = if self.left > 0 && self.has_eligible(me) { Phase::ChooseUnit } else { Phase::DrawCard };
            }
            Initiative::Igougo => {
                if !self.has_eligible(me) {
                    self.done[me.index()] = true;
                }
                if !self.done[me.index()] {
                    self.phase = Phase::ChooseUnit;
                } else if !self.done[me.other().index()] && self.has_eligible(me.other()) {
                    self.active = me.other();
                    self.phase = Phase::ChooseUnit;
                } else {
                    self.end_turn(events);
                }
            }
            Initiative::Alternate => {
                for side in Side::BOTH {
                    if !self.has_eligible(side) {
                        self.done[side.index()] = true;
                    }
                }
                let other = me.other();
                if switch && !self.done[other.index()] {
                    self.active = other;
                    self.phase = Phase::ChooseUnit;
                } else if !self.done[me.index()] {
                    self.phase = Phase::ChooseUnit;
                } else if !self.done[other.index()] {
                    self.active = other;
                    self.phase = Phase::ChooseUnit;
                } else {
                    self.end_turn(events);
                }
            }
        }
    }

    fn end_turn(&mut self, events: &mut Vec<Event>) {
        events.push(Event::TurnEnded { turn: self.turn });
        if self.turn >= self.turn_limit() {
            let points = self.points();
            let winner = match points[0].cmp(&points[1]) {
                std::cmp::Ordering::Greater => Some(Side::A),
                std::cmp::Ordering::Less => Some(Side::B),
                std::cmp::Ordering::Equal => None,
            };
            self.finish(winner, EndReason::TurnLimit, events);
            return;
        }
        self.turn += 1;
        self.activated_turn = UnitSet::EMPTY;
        self.activated_card = UnitSet::EMPTY;
        self.left = 0;
        self.done = [false; 2];
        // The scenario's events come first, so that the units arriving count in the initiative values; the log
        // gives them after the turn's start.
        let mut happened = Vec::new();
        if self.scenario.has_events() && !self.start_of_turn_events(&mut happened) {
            events.extend(happened);
            return;
        }
        let iv = self.initiative_values(); // R3.6
        self.deck = Deck::full(iv);
        self.phase = match self.options.initiative {
            Initiative::Cards => Phase::DrawCard,
            _ => Phase::InitiativeRoll { a: None },
        };
        events.push(Event::TurnStarted { turn: self.turn, iv });
        events.extend(happened);
    }

    /// Each side's points now, as they would be counted at the turn limit (R8.2).
    pub fn points(&self) -> [u16; 2] {
        let mut points = [0u16; 2];
        for i in 0..self.scenario.objectives.len() {
            if let Some(side) = self.objective_holder(i) {
                points[side.index()] += self.objective_points(i) as u16;
            }
        }
        for side in Side::BOTH {
            points[side.other().index()] +=
                self.destroyed[side.index()] as u16 * self.scenario.points_per_destroyed as u16;
        }
        points
    }

    /// `side` concedes: the game ends at once and the other side wins, with the points as they stand (R8.2).
    /// Resigning is not an order and not among the legal actions: a player may resign whoever is to act, as long
    /// as the game is not over (else the battle is unchanged).
    ///
    /// # Errors
    /// When the game is already over (R8).
    pub fn resign(&mut self, side: Side) -> Result<Vec<Event>, Illegal> {
        self.conclude(Declared::Resigned(side))
    }

    /// The game ends at once as declared off the board ([`Declared`]: a resignation, a side out of time, a draw
    /// agreed), with the points as they stand (R8.2). Like resigning, not an order: whoever is to act, as long as the
    /// game is not over (else the battle is unchanged).
    ///
    /// # Errors
    /// When the game is already over (R8).
    pub fn conclude(&mut self, how: Declared) -> Result<Vec<Event>, Illegal> {
        if self.result().is_some() {
            return Err(Illegal::new(Rule::R8, "the game is over"));
        }
        let mut events = Vec::new();
        self.finish(how.winner(), how.reason(), &mut events);
        Ok(events)
    }

    pub(super) fn finish(&mut self, winner: Option<Side>, reason: EndReason, events: &mut Vec<Event>) {
        let result = GameResult { winner, reason, points: self.points() };
        self.phase = Phase::Over(result);
        events.push(Event::GameOver { result });
    }
}
