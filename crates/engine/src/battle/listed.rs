//! Applying an action the battle itself listed, without judging it again.
//!
//! [`Battle::apply`] checks any action against the rules first, which repeats the move searches and attack
//! assessments that listing the legal actions has just done. An action taken from [`Battle::list_legal`] carries
//! a proof instead: the stamp of the battle state it was listed in. Every change of a battle gives it a new stamp,
//! unique in the process (a clone keeps its parent's until either changes), so an equal stamp means the very state
//! the action was found legal in, and [`Battle::apply_listed`] carries it out at once. With another stamp it is
//! checked as `apply` would check it: a stale or foreign proof is never trusted, and a refused action still leaves
//! the battle unchanged.
//!
//! Activating a unit is the one change whose stamp is not new but derived: the stamp of the state it was activated
//! in with the unit's number in its lowest byte (fresh stamps leave it zero). Activating a unit leads from one state
//! to one state, so the derived stamp names it alone, and the orders listed for the unit before it was activated
//! ([`ActivationOrders::for_each_listed`]) carry it as their proof.

use super::ScenarioRef;
use super::{ActivationOrders, AttackAssessment, Battle};
use crate::action::{Action, Illegal};
use crate::event::Event;
use crate::unit::UnitId;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// The name of one battle state: new with every change of a battle, shared by a battle and its unchanged clones.
///
/// Not part of the battle's state: two battles in the same state compare equal whatever their stamps.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Stamp(u64);

impl PartialEq for Stamp {
    fn eq(&self, _: &Stamp) -> bool {
        true // the stamp names a state, it is not part of it; `is` compares stamps
    }
}

impl Eq for Stamp {}

/// Stamps are handed out in blocks of 2^32 per thread, so that a new stamp costs no shared memory traffic.
static NEXT_BLOCK: AtomicU64 = AtomicU64::new(1);

thread_local! {
    static NEXT: Cell<u64> = const { Cell::new(0) };
}

/// Fresh stamps step by this, leaving the lowest byte to the states reached by activating a unit.
const STEP: u64 = 1 << 8;

const _: () = assert!(crate::scenario::MAX_UNITS < STEP as usize, "a unit's number fits in a stamp's lowest byte");

impl Stamp {
    /// A stamp no battle state had before (0 is never handed out: it is the default, "no state").
    pub(crate) fn fresh() -> Stamp {
        NEXT.with(|next| {
            let mut n = next.get();
            if n & 0xFFFF_FFFF == 0 {
                n = NEXT_BLOCK.fetch_add(1, Ordering::Relaxed) << 32 | STEP;
            }
            next.set(n + STEP);
            Stamp(n)
        })
    }

    /// The stamp of the state reached from this one by activating `unit`: the same for every battle that does it
    /// from this state, as they are all in the same state then. A fresh one when this stamp is itself derived (no
    /// unit is activated from such a state, but the name must stay unique whatever happens).
    #[inline]
    pub(crate) fn activating(self, unit: UnitId) -> Stamp {
        if self.0.is_multiple_of(STEP) && self.0 != 0 { Stamp(self.0 | (unit.0 as u64 + 1)) } else { Stamp::fresh() }
    }

    /// Whether the two name the same state.
    fn is(self, other: Stamp) -> bool {
        self.0 == other.0 && self.0 != 0
    }
}

/// The legal actions of one battle state, as [`Battle::list_legal`] or [`Battle::list_assessed`] listed them, in
/// the order of [`Battle::legal_actions`]. A buffer: reuse it to list again without allocating.
#[derive(Clone, Debug, Default)]
pub struct LegalActions {
    stamp: Stamp,
    actions: Vec<Action>,
    assessments: Vec<Option<AttackAssessment>>,
}

/// A legal action with the proof that it is legal in the battle state it was listed in ([`Battle::apply_listed`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    action: Action,
    stamp: Stamp,
}

impl Listed {
    /// The action.
    pub fn action(self) -> Action {
        self.action
    }
}

impl LegalActions {
    /// An empty list.
    pub fn new() -> LegalActions {
        LegalActions::default()
    }

    /// The actions.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether there are none (chance acts, or the game is over).
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The `i`-th action with its proof, if there are that many.
    pub fn get(&self, i: usize) -> Option<Listed> {
        self.actions.get(i).map(|&action| Listed { action, stamp: self.stamp })
    }

    /// The assessment of the `i`-th action when it attacks and the list was made by [`Battle::list_assessed`].
    pub fn assessment(&self, i: usize) -> Option<&AttackAssessment> {
        self.assessments.get(i).and_then(Option::as_ref)
    }

    /// The actions with their proofs.
    pub fn iter(&self) -> impl Iterator<Item = Listed> + '_ {
        self.actions.iter().map(|&action| Listed { action, stamp: self.stamp })
    }
}

impl<S: ScenarioRef> Battle<S> {
    /// Lists the legal actions of the side to act into `out` (cleared first), each with its proof.
    pub fn list_legal(&self, out: &mut LegalActions) {
        out.stamp = self.stamp;
        out.assessments.clear();
        self.legal_actions_into(&mut out.actions);
    }

    /// As [`Battle::list_legal`], each attacking order with its assessment ([`LegalActions::assessment`]).
    pub fn list_assessed(&self, out: &mut LegalActions) {
        out.stamp = self.stamp;
        out.actions.clear();
        out.assessments.clear();
        self.for_each_legal::<true>(|action, assessment| {
            out.actions.push(action);
            out.assessments.push(assessment.copied());
        });
    }

    /// The proof for an action of a list made elsewhere (a player's choice): checked now, once, as
    /// [`Battle::check`] checks it.
    pub fn vouch(&self, action: Action) -> Result<Listed, Illegal> {
        self.check(action)?;
        Ok(Listed { action, stamp: self.stamp })
    }

    /// Whether `listed` was listed for this very state, so that [`Battle::apply_listed`] carries it out without
    /// judging it again: listed in it, or listed for its active unit in the state it was activated in.
    pub fn trusts(&self, listed: Listed) -> bool {
        listed.stamp.is(self.stamp)
    }

    /// Applies a listed action and appends what happened to `events`: at once when it was listed for this very
    /// state ([`Battle::trusts`]), else after checking it as [`Battle::apply`] does (on refusal nothing changes).
    pub fn apply_listed(&mut self, listed: Listed, events: &mut Vec<Event>) -> Result<(), Illegal> {
        if self.trusts(listed) {
            self.carry_out(listed.action, events);
            Ok(())
        } else {
            self.apply_into(listed.action, events)
        }
    }
}

impl<S: ScenarioRef> ActivationOrders<'_, S> {
    /// As [`ActivationOrders::for_each`], each order with its proof for the state activating `unit` leads to.
    pub fn for_each_listed(&self, unit: UnitId, mut visit: impl FnMut(Listed, Option<&AttackAssessment>)) {
        let stamp = self.battle.stamp.activating(unit);
        self.for_each(unit, |action, assessment| visit(Listed { action, stamp }, assessment));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DEFAULT_SCENARIO, Scenario, ToAct};
    use std::sync::Arc;

    fn start() -> Battle {
        let mut b = Battle::from_scenario(Arc::new(Scenario::parse(DEFAULT_SCENARIO, "m").unwrap()));
        while let Some(o) = b.chance_outcomes().first().map(|c| c.0) {
            b.apply_chance(o).unwrap();
        }
        b
    }

    #[test]
    fn a_listed_action_does_what_apply_does() {
        let b = start();
        let mut list = LegalActions::new();
        b.list_legal(&mut list);
        assert_eq!(list.actions(), b.legal_actions().as_slice());
        for listed in list.iter() {
            let (mut checked, mut trusted) = (b.clone(), b.clone());
            let events = checked.apply(listed.action()).unwrap();
            let mut trusted_events = Vec::new();
            trusted.apply_listed(listed, &mut trusted_events).unwrap();
            assert_eq!((checked, events), (trusted, trusted_events));
        }
    }

    #[test]
    fn a_stale_or_foreign_proof_is_judged_again_and_a_refusal_changes_nothing() {
        let b = start();
        let mut list = LegalActions::new();
        b.list_legal(&mut list);
        // Activate the first unit: the list's other activations are now stale, and illegal (an order is due).
        let mut moved = b.clone();
        moved.apply_listed(list.get(0).unwrap(), &mut Vec::new()).unwrap();
        let before = moved.clone();
        let stale = list.get(1).unwrap();
        assert!(matches!(stale.action(), Action::Activate(_)));
        let refused = moved.apply_listed(stale, &mut Vec::new()).unwrap_err();
        assert_eq!(refused.rule, "R4.2", "{refused}");
        assert_eq!(moved, before);
        // Two clones of one state that went different ways do not share a stamp: each other's proofs are checked.
        let (mut x, mut y) = (b.clone(), b.clone());
        x.apply(Action::EndActivations).unwrap();
        y.apply(list.get(0).unwrap().action()).unwrap();
        let mut in_y = LegalActions::new();
        y.list_legal(&mut in_y);
        let order = in_y.get(0).unwrap();
        let x_before = x.clone();
        assert!(x.apply_listed(order, &mut Vec::new()).is_err());
        assert_eq!(x, x_before);
        // The proof of an action that is legal in both states still applies after the check.
        let mut z = b.clone();
        z.apply(Action::Hold).unwrap_err();
        assert!(matches!(z.to_act(), ToAct::Side(_)));
        z.apply_listed(list.get(0).unwrap(), &mut Vec::new()).unwrap();
    }

    #[test]
    fn a_game_acts_on_listed_actions_as_on_checked_ones_and_refuses_a_stale_one_unchanged() {
        let mut checked = crate::Game::new(DEFAULT_SCENARIO, "m.toml", None, 9).unwrap();
        let mut listed = checked.clone();
        let mut list = LegalActions::new();
        for k in 0..60 {
            if checked.battle().result().is_some() {
                break;
            }
            listed.battle().list_legal(&mut list);
            let pick = list.get(k * 5 % list.len()).unwrap();
            let events = listed.act_listed(pick).unwrap().to_vec();
            assert_eq!(checked.act(pick.action()).unwrap(), events);
        }
        assert_eq!(checked.save(), listed.save());
        // A proof from an earlier state: judged again, refused, and the game is as it was.
        let mut game = crate::Game::new(DEFAULT_SCENARIO, "m.toml", None, 9).unwrap();
        game.battle().list_legal(&mut list);
        assert!(matches!(list.actions()[..2], [Action::Activate(_), Action::Activate(_)]), "{:?}", list.actions());
        game.act_listed(list.get(0).unwrap()).unwrap();
        let before = game.save();
        assert_eq!(game.act_listed(list.get(1).unwrap()).unwrap_err().rule, "R4.2");
        assert_eq!(game.save(), before);
    }

    #[test]
    fn orders_listed_before_activating_are_trusted_just_after_and_nowhere_else() {
        let b = start();
        let orders = b.activation_orders();
        let (first, second) = match b.legal_actions()[..] {
            [Action::Activate(x), Action::Activate(y), ..] => (x, y),
            ref other => panic!("two units to activate: {other:?}"),
        };
        let mut listed = Vec::new();
        orders.for_each_listed(first, |l, _| listed.push(l));
        let mut of_second = Vec::new();
        orders.for_each_listed(second, |l, _| of_second.push(l));
        assert!(listed.len() > 1 && !of_second.is_empty());
        assert!(listed.iter().all(|&l| !b.trusts(l)), "not in the state they were listed in");
        let mut activated = b.clone();
        activated.apply(Action::Activate(first)).unwrap();
        for &l in &listed {
            assert!(activated.trusts(l), "{:?} just after activating", l.action());
            let (mut checked, mut trusted) = (activated.clone(), activated.clone());
            let events = checked.apply(l.action()).unwrap();
            let mut trusted_events = Vec::new();
            trusted.apply_listed(l, &mut trusted_events).unwrap();
            assert_eq!((checked, events), (trusted, trusted_events));
        }
        // Another unit's orders, a state reached otherwise, or any later state: checked again.
        assert!(of_second.iter().all(|&l| !activated.trusts(l)));
        let mut elsewhere = b.clone();
        elsewhere.apply(Action::EndActivations).unwrap();
        assert!(listed.iter().all(|&l| !elsewhere.trusts(l)));
        let mut later = activated.clone();
        later.apply(Action::Hold).unwrap();
        assert!(listed.iter().all(|&l| !later.trusts(l)));
        let before = later.clone();
        let refused = later.apply_listed(listed[listed.len() - 1], &mut Vec::new());
        if refused.is_err() {
            assert_eq!(later, before, "a refused stale proof changes nothing");
        }
    }

    #[test]
    fn the_stamp_is_not_part_of_the_state() {
        let (a, b) = (start(), start());
        assert!(!a.stamp.is(b.stamp));
        assert_eq!(a, b);
        assert!(!Stamp::default().is(Stamp::default()), "no state has the empty stamp");
    }
}
