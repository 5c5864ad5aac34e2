//! The decisions a side can make (docs/rules.md R3.4, R4.2).

use crate::geometry::{Dir, Square};
use crate::rule::Rule;
use crate::unit::UnitId;
use serde::{Deserialize, Serialize};

/// One decision of a side. Each is checked by [`crate::Battle::apply`] against the rules.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Activate a unit (R3.4); its shaken status is removed at once (R4.1). Its order follows.
    Activate(UnitId),
    /// Stop activating units: on this card (R3.4), or for the turn under `igougo` / `alternate` (R3.7).
    EndActivations,
    /// The Hold order: do nothing (R4.2).
    Hold,
    /// The Move order: move up to the allowance, then face (R4.2, R5).
    Move {
        /// Where the unit ends (may be its own square, to change facing only).
        to: Square,
        /// Its facing at the end.
        facing: Dir,
    },
    /// The Fire order: attack without moving (R4.2, R6). `facing` is the unit's own facing, or with
    /// `pivot_is_move = false` a new facing it takes first (R5.5).
    Fire {
        /// The unit attacked.
        target: UnitId,
        /// The facing it fires with.
        facing: Dir,
    },
    /// The Move & Fire order: at most one square and/or a change of facing, then attack (R4.2, R4.5).
    MoveFire {
        /// Where it moves (its own square to only change facing).
        to: Square,
        /// Its facing after moving.
        facing: Dir,
        /// The unit attacked.
        target: UnitId,
    },
    /// The Fire & Move order: attack first, then [`Action::Advance`] (R4.2, R4.4, R4.5).
    FireMove {
        /// The unit attacked.
        target: UnitId,
    },
    /// The move after a Fire & Move attack: one square or none, then a facing (R4.2, R4.4).
    Advance {
        /// Where it ends (its own square to stay).
        to: Square,
        /// Its facing at the end.
        facing: Dir,
    },
}

impl Action {
    /// The unit this order attacks, if any.
    pub fn target(&self) -> Option<UnitId> {
        match *self {
            Action::Fire { target, .. } | Action::MoveFire { target, .. } | Action::FireMove { target } => Some(target),
            _ => None,
        }
    }

    /// The order's name as docs/rules.md R4.2 gives it.
    pub fn order_name(&self) -> &'static str {
        match self {
            Action::Activate(_) => "Activate",
            Action::EndActivations => "End activations",
            Action::Hold => "Hold",
            Action::Move { .. } => "Move",
            Action::Fire { .. } => "Fire",
            Action::MoveFire { .. } => "Move & Fire",
            Action::FireMove { .. } => "Fire & Move",
            Action::Advance { .. } => "Advance",
        }
    }
}

/// Why an action was refused: the rule that forbids it and the details. The battle is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason} ({})", self.cited())]
pub struct Illegal {
    /// The standard rule that forbids it (written as its id, such as `R5.2`); under a variant's own rule, the
    /// standard rule it adds to (R4.2 for a restriction on orders).
    pub rule: Rule,
    /// The variant's own rule that forbids it, by the designer's id (`M1`), when it is one of his.
    pub variant_rule: Option<String>,
    /// What is wrong, in words.
    pub reason: String,
}

impl Illegal {
    /// A refusal under `rule`, for `reason`.
    pub fn new(rule: Rule, reason: impl Into<String>) -> Illegal {
        Illegal { rule, variant_rule: None, reason: reason.into() }
    }

    /// A refusal under a variant's own rule `id`, which adds to the standard `rule`, for `reason`.
    pub fn by_variant(id: impl Into<String>, rule: Rule, reason: impl Into<String>) -> Illegal {
        Illegal { rule, variant_rule: Some(id.into()), reason: reason.into() }
    }

    /// The id the refusal cites: the variant's rule's where it is one of his, else the standard rule's.
    pub fn cited(&self) -> &str {
        self.variant_rule.as_deref().unwrap_or(self.rule.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_with_a_field_it_does_not_have_is_refused() {
        let ok: Action = serde_json::from_str(r#"{"move":{"to":"c2","facing":"E"}}"#).unwrap();
        assert_eq!(ok, Action::Move { to: "c2".parse().unwrap(), facing: Dir::E });
        let bogus = serde_json::from_str::<Action>(r#"{"move":{"to":"c2","facing":"E","bogus":true}}"#);
        assert!(bogus.unwrap_err().to_string().contains("bogus"));
        assert!(serde_json::from_str::<Action>(r#"{"hold":{}}"#).is_err());
    }
}
