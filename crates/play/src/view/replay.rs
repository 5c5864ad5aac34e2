//! The view of a whole game, decision by decision, rebuilt from its start: each decision with the events it caused.

use super::*;
use crate::live::Live;
use crate::setup::PlayerKind;
use pacw_engine::narrate;
use pacw_engine::{Action, Side};
use serde::Serialize;

/// One decision of a replay.
#[derive(Serialize, Clone, Debug)]
pub struct ReplayStep {
    /// Its number, from 1.
    pub decision: usize,
    /// The side that made it.
    pub side: Side,
    /// Whether the computer made it.
    pub computer: bool,
    /// The action.
    pub action: Action,
    /// In words, as it was offered.
    pub text: String,
    /// The events it caused (with the chance that followed).
    pub events: Vec<LogEntry>,
}

/// A whole game, decision by decision.
#[derive(Serialize, Clone, Debug)]
pub struct ReplayView {
    /// Decisions in the game.
    pub decisions: usize,
    /// The events before the first decision.
    pub start: Vec<LogEntry>,
    /// Every decision.
    pub steps: Vec<ReplayStep>,
    /// The events after the last decision that no decision caused: a resignation.
    pub end: Vec<LogEntry>,
}

/// The replay of a game, rebuilt from its start.
///
/// # Panics
/// If the game's own decisions or its resignation do not replay from its start, which the engine's exact replay rules
/// out.
pub fn replay_view(live: &Live, players: &[PlayerKind; 2]) -> ReplayView {
    let mut past = Live::new(live.game.undo(live.decisions()));
    let start = log_entries(&past, 0);
    let mut steps = Vec::with_capacity(live.decisions());
    for (i, &action) in live.game.actions().iter().enumerate() {
        let text = narrate::action(past.game.battle(), &action);
        let from = past.game.log().len();
        past.apply(action).expect("a game's own decisions replay");
        let side = past.steps[i].side;
        steps.push(ReplayStep {
            decision: i + 1,
            side,
            computer: matches!(players[side.index()], PlayerKind::Computer { .. }),
            action,
            text,
            events: log_entries(&past, from),
        });
    }
    let from = past.game.log().len();
    if let Some(side) = live.game.resigned() {
        past.game.resign(side).expect("a game's own resignation replays");
    }
    ReplayView { decisions: live.decisions(), start, steps, end: log_entries(&past, from) }
}
