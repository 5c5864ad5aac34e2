//! A side's choices at one decision, whole: each activation with each order the unit could then be given, and each
//! lone action (ending the activations, the move after a Fire & Move). The one-ply players and the review's search
//! judge the same list, by the same walk.

use pacw_engine::{Action, Battle};

/// One choice: an activation with its order, or a lone action.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The first action.
    pub first: Action,
    /// The order that follows an activation.
    pub then: Option<Action>,
}

impl Choice {
    /// Its actions, in order.
    pub fn actions(&self) -> Vec<Action> {
        std::iter::once(self.first).chain(self.then).collect()
    }
}

/// Calls `visit` with each choice of the side to act in `b`, in the order the engine lists the actions, and the
/// battle after it (after an activation whose rally die is to come, a variant's `[rally]`: the battle before it).
pub fn each_choice(b: &Battle, mut visit: impl FnMut(Choice, &Battle)) {
    let mut after = b.clone();
    let mut activated = b.clone();
    let mut events = Vec::new();
    for first in b.legal_actions() {
        match first {
            Action::Activate(_) => {
                activated.clone_from(b);
                activated.apply_unchecked(first, &mut events);
                if activated.pending_rally().is_some() {
                    // A variant's rally die comes first: the activation is a choice alone, judged over the die, and
                    // the order one of the next decision.
                    visit(Choice { first, then: None }, &activated);
                    continue;
                }
                for then in activated.legal_actions() {
                    after.clone_from(&activated);
                    after.apply_unchecked(then, &mut events);
                    visit(Choice { first, then: Some(then) }, &after);
                }
            }
            _ => {
                after.clone_from(b);
                after.apply_unchecked(first, &mut events);
                visit(Choice { first, then: None }, &after);
            }
        }
    }
}
