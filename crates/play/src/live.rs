//! A game in memory: the engine's game and, per decision, who made it and whether chance followed.

use crate::setup::PlayerKind;
use crate::setup::Role;
use pacw_engine::{Action, Event, Game, Illegal, SaveError, Side, ToAct};

/// One decision of a game.
#[derive(Copy, Clone, Debug)]
pub struct Step {
    /// The side that made it.
    pub side: Side,
    /// The log's length after it (and the chance it caused).
    pub log_end: usize,
    /// Whether a die was rolled or a card drawn after it: it cannot be taken back.
    pub chance: bool,
}

/// A game in memory: the engine's game and, per decision, who made it and which events it caused.
#[derive(Clone, Debug)]
pub struct Live {
    /// The engine's game.
    pub game: Game,
    /// The log's length before the first decision.
    pub start_len: usize,
    /// One entry per decision.
    pub steps: Vec<Step>,
    /// Increases with every change.
    pub revision: u64,
}

fn is_chance(e: &Event) -> bool {
    matches!(
        e,
        Event::CardDrawn { .. }
            | Event::InitiativeRolled { .. }
            | Event::ToHitRolled { .. }
            | Event::HitResultRolled { .. }
    )
}

impl Live {
    /// A game not yet decided on.
    pub fn new(game: Game) -> Live {
        Live { start_len: game.log().len(), game, steps: Vec::new(), revision: 0 }
    }

    /// Replays a save (checked by the engine: format, scenario, options, every decision, the events' fingerprint).
    ///
    /// # Errors
    /// When the engine refuses the save ([`Game::from_save`]), or its decisions or its resignation do not replay.
    pub fn from_save(save: &pacw_engine::SaveFile) -> Result<Live, SaveError> {
        let checked = Game::from_save(save)?;
        let mut live = Live::new(checked.undo(checked.actions().len()));
        for (i, &action) in checked.actions().iter().enumerate() {
            live.apply(action).map_err(|error| SaveError::Illegal { index: i + 1, action, error })?;
        }
        if let Some(side) = checked.resigned() {
            live.game.resign(side).map_err(|_| SaveError::ResignedAfterEnd)?;
        }
        Ok(live)
    }

    /// Decisions made.
    pub fn decisions(&self) -> usize {
        self.steps.len()
    }

    /// Applies a decision in place, checked against the rules; on error nothing changes.
    ///
    /// # Errors
    /// When the engine refuses the action, naming the rule.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, Illegal> {
        let side = match self.game.battle().to_act() {
            ToAct::Side(s) => s,
            _ => self.game.battle().active_side(),
        };
        let events = self.game.act(action)?;
        self.steps.push(Step { side, log_end: self.game.log().len(), chance: events.iter().any(is_chance) });
        self.revision += 1;
        Ok(events)
    }

    /// The log's end after decision `k` (0: before the first decision); past the last, the log's length.
    pub fn step_end(&self, k: usize) -> usize {
        if k == 0 { self.start_len } else { self.steps.get(k - 1).map_or(usize::MAX, |s| s.log_end) }
    }

    /// The decision whose events include log index `i` (0 for the events before the first decision).
    pub fn decision_of_event(&self, i: usize) -> usize {
        if i < self.start_len {
            return 0;
        }
        self.steps.partition_point(|s| s.log_end <= i) + 1
    }

    /// How many of `role`'s decisions can be taken back: those after the last chance event, going back through
    /// the computer's decisions but stopping at another person's.
    pub fn undoable(&self, role: Role, players: &[PlayerKind; 2]) -> usize {
        self.undo_plan(role, players, usize::MAX).0
    }

    /// How many of `role`'s decisions one press of Undo takes back: its last order together with the activation
    /// that began it (2), or its last decision alone (1); 0 if it has none. [`Live::undoable`] bounds it.
    pub fn last_order_len(&self, role: Role, players: &[PlayerKind; 2]) -> usize {
        let own =
            |i: usize| role.controls(self.steps[i].side) && players[self.steps[i].side.index()] == PlayerKind::Human;
        let Some(last) = (0..self.steps.len()).rev().find(|&i| own(i)) else { return 0 };
        let actions = self.game.actions();
        let is_order = !matches!(actions[last], Action::Activate(_) | Action::EndActivations);
        if is_order && last > 0 && own(last - 1) && matches!(actions[last - 1], Action::Activate(_)) { 2 } else { 1 }
    }

    /// Why `role` can take nothing back now, in words with the rule, or `None` when it can.
    pub fn undo_refusal(&self, role: Role, players: &[PlayerKind; 2]) -> Option<String> {
        if self.undoable(role, players) > 0 {
            return None;
        }
        if self.game.battle().result().is_some() {
            return Some("the game is over (R8)".into());
        }
        for step in self.steps.iter().rev() {
            if step.chance {
                return Some(
                    "a die was rolled or a card drawn after your last decision: what chance decided stands, so it \
                     cannot be taken back (R9.1)"
                        .into(),
                );
            }
            if role.controls(step.side) && players[step.side.index()] == PlayerKind::Human {
                break;
            }
            if !matches!(players[step.side.index()], PlayerKind::Computer { .. }) {
                let side = &self.game.battle().scenario().side(step.side).name;
                return Some(format!("{side} has decided since your last decision: only they can take theirs back"));
            }
        }
        Some("you have no decision to take back yet".into())
    }

    /// Going back from the last decision: (own decisions found, decisions to remove to take back `want` of them).
    pub fn undo_plan(&self, role: Role, players: &[PlayerKind; 2], want: usize) -> (usize, usize) {
        let (mut own, mut remove) = (0, 0);
        for (i, step) in self.steps.iter().enumerate().rev() {
            if own == want || step.chance || self.game.battle().result().is_some() {
                break;
            }
            if role.controls(step.side) && players[step.side.index()] == PlayerKind::Human {
                own += 1;
                remove = self.steps.len() - i;
            } else if !matches!(players[step.side.index()], PlayerKind::Computer { .. }) {
                break;
            }
        }
        (own, remove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pacw_engine::{DEFAULT_SCENARIO, LegalActions};

    fn started() -> Live {
        Live::new(Game::new(DEFAULT_SCENARIO, "meeting-engagement.toml", None, 7).expect("the default scenario"))
    }

    #[test]
    fn a_decision_is_checked_and_a_refused_one_changes_nothing() {
        let mut live = started();
        let mut legal = LegalActions::new();
        live.game.battle().list_legal(&mut legal);
        let first = legal.get(0).expect("a side is to act at the start");
        live.apply(first).expect("a listed decision is legal");
        assert_eq!((live.decisions(), live.revision), (1, 1));
        // The list was made before that decision: an activation in it is no longer legal, and is refused unchanged.
        let before = live.clone();
        let stale = legal.iter().find(|&a| !live.game.battle().is_legal(a));
        let stale = stale.expect("an activation just made is no longer legal");
        assert!(live.apply(stale).is_err());
        assert_eq!(live.game.battle(), before.game.battle());
        assert_eq!((live.decisions(), live.revision), (1, 1));
    }
}
