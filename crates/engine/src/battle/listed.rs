//! Listing the legal actions into a buffer that is reused, with the assessment of each attack when asked.
//!
//! [`Battle::apply`] checks any action against the rules first, which repeats the move searches and attack
//! assessments that listing the legal actions has just done. A caller that applies an action it has just listed in
//! the same state (perft, the laboratory's games, the computer players) uses [`Battle::apply_unchecked`] instead;
//! a debug build still checks it, so the test suite catches a misuse.

use super::ScenarioRef;
use super::{AttackAssessment, Battle};
use crate::action::Action;

/// The legal actions of one battle state, as [`Battle::list_legal`] or [`Battle::list_assessed`] listed them, in
/// the order of [`Battle::legal_actions`]. A buffer: reuse it to list again without allocating.
#[derive(Clone, Debug, Default)]
pub struct LegalActions {
    actions: Vec<Action>,
    assessments: Vec<Option<AttackAssessment>>,
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

    /// The `i`-th action, if there are that many.
    pub fn get(&self, i: usize) -> Option<Action> {
        self.actions.get(i).copied()
    }

    /// The assessment of the `i`-th action when it attacks and the list was made by [`Battle::list_assessed`].
    pub fn assessment(&self, i: usize) -> Option<&AttackAssessment> {
        self.assessments.get(i).and_then(Option::as_ref)
    }

    /// The actions, in order.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        self.actions.iter().copied()
    }
}

impl<S: ScenarioRef> Battle<S> {
    /// Lists the legal actions of the side to act into `out` (cleared first).
    pub fn list_legal(&self, out: &mut LegalActions) {
        out.assessments.clear();
        self.legal_actions_into(&mut out.actions);
    }

    /// As [`Battle::list_legal`], each attacking order with its assessment ([`LegalActions::assessment`]).
    pub fn list_assessed(&self, out: &mut LegalActions) {
        out.actions.clear();
        out.assessments.clear();
        self.for_each_legal::<true>(|action, assessment| {
            out.actions.push(action);
            out.assessments.push(assessment.copied());
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DEFAULT_SCENARIO, Scenario};
    use std::sync::Arc;

    fn start() -> Battle {
        let mut b = Battle::from_scenario(Arc::new(Scenario::parse(DEFAULT_SCENARIO, "m").unwrap()));
        while let Some(o) = b.chance_outcomes().first().map(|c| c.0) {
            b.apply_chance(o).unwrap();
        }
        b
    }

    #[test]
    fn a_listed_action_applied_unchecked_does_what_apply_does() {
        let b = start();
        let mut list = LegalActions::new();
        b.list_legal(&mut list);
        assert_eq!(list.actions(), b.legal_actions().as_slice());
        for action in list.iter() {
            let (mut checked, mut trusted) = (b.clone(), b.clone());
            let events = checked.apply(action).unwrap();
            let mut trusted_events = Vec::new();
            trusted.apply_unchecked(action, &mut trusted_events);
            assert_eq!((checked, events), (trusted, trusted_events));
        }
        // The orders listed for a unit before it is activated, applied just after.
        let unit = match b.legal_actions()[0] {
            Action::Activate(unit) => unit,
            other => panic!("an activation first: {other:?}"),
        };
        let mut orders = Vec::new();
        b.activation_orders().for_each(unit, |order, _| orders.push(order));
        let mut activated = b.clone();
        activated.apply(Action::Activate(unit)).unwrap();
        for order in orders {
            let (mut checked, mut trusted) = (activated.clone(), activated.clone());
            let events = checked.apply(order).unwrap();
            let mut trusted_events = Vec::new();
            trusted.apply_unchecked(order, &mut trusted_events);
            assert_eq!((checked, events), (trusted, trusted_events));
        }
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "apply_unchecked with an illegal action")]
    fn a_debug_build_refuses_an_illegal_action_applied_unchecked() {
        let mut b = start();
        b.apply_unchecked(Action::Hold, &mut Vec::new());
    }
}
