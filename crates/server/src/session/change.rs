//! The one place where a game changes and ends: every change (a person's or the computer's action, an undo, a
//! resignation) is stored, made current, pushed to the subscribers and told to the observers here, and a game that
//! ends passes through [`GameObserver::ended`] exactly once. Ratings, deadlines and notices hang on this hook
//! instead of on each path that can end a game.

use super::{EntryState, GameEntry, Games, Summary};
use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::setup::{Rating, Seat};
use crate::store::now_ms;
use crate::view::log_entries;
use pacw_engine::{Action, EndReason, GameResult, Side, ToAct};
use serde::Serialize;
use std::sync::Arc;

/// How a game ended.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Ending {
    /// By the rules: a side's exhaustion point, or the last turn's points (R8).
    Rules,
    /// A side resigned.
    Resignation,
    /// A side did not move by its deadline, and the other claimed the win (deadline.rs).
    Time,
    /// The players agreed to a draw (draw.rs).
    Agreement,
}

impl Ending {
    /// How a game with this result ended.
    pub fn of(result: &GameResult) -> Ending {
        match result.reason {
            EndReason::Resigned(_) => Ending::Resignation,
            EndReason::OutOfTime(_) => Ending::Time,
            EndReason::DrawAgreed => Ending::Agreement,
            EndReason::Exhaustion(_) | EndReason::TurnLimit => Ending::Rules,
        }
    }
}

/// What changed a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A decision of `side`, made by the computer or by a person.
    Action {
        /// The side that made it.
        side: Side,
        /// Whether the computer made it.
        computer: bool,
    },
    /// Decisions taken back.
    Undo {
        /// How many decisions were removed (the computer's after the person's included).
        removed: usize,
    },
    /// A side resigned.
    Resign {
        /// The side that resigned.
        side: Side,
    },
    /// A side claimed the win on time: the other had not moved by its deadline.
    TimeClaimed {
        /// The side that claimed it.
        side: Side,
    },
    /// The players agreed to a draw.
    DrawAgreed,
}

/// A game that changed, as the observers are told once the change is stored.
#[derive(Clone, Debug)]
pub struct GameChanged {
    /// The game's id.
    pub id: String,
    /// What changed it.
    pub kind: ChangeKind,
    /// The revision after the change.
    pub revision: u64,
    /// Decisions made, after the change.
    pub decisions: usize,
    /// The side to act after the change, if a side is.
    pub to_act: Option<Side>,
    /// When it was stored (ms since 1970).
    pub at: i64,
}

/// A game that ended, as the observers are told once, when the change that ended it is stored.
#[derive(Clone, Debug)]
pub struct GameEnded {
    /// The game's id.
    pub id: String,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub how: Ending,
    /// Who held each side's seat (by [`Side::index`]).
    pub seats: [Seat; 2],
    /// Whether it counts for the ratings.
    pub rating: Rating,
    /// Decisions made.
    pub decisions: usize,
    /// When it was stored (ms since 1970).
    pub at: i64,
}

/// Told of every stored change of every game, and of every game's end. Called with the game locked, in the order
/// the changes were made: an observer must be quick and must not call back into the game (it would wait for
/// itself); anything slow belongs on a task of its own.
pub trait GameObserver: Send + Sync {
    /// A game changed (its change is stored).
    fn changed(&self, _change: &GameChanged) {}
    /// A game ended (the change that ended it is stored); once a game.
    fn ended(&self, _ended: &GameEnded) {}
}

/// A change about to be made, with what its update tells the subscribers.
pub(super) enum Change {
    /// A decision, with its words.
    Action { side: Side, computer: bool, action: Action, text: String },
    /// Decisions taken back.
    Undo { removed: usize },
    /// A resignation.
    Resign { side: Side },
    /// The win claimed on time by `side`.
    TimeClaimed { side: Side },
    /// A draw agreed.
    DrawAgreed,
}

impl Change {
    fn kind(&self) -> ChangeKind {
        match *self {
            Change::Action { side, computer, .. } => ChangeKind::Action { side, computer },
            Change::Undo { removed } => ChangeKind::Undo { removed },
            Change::Resign { side } => ChangeKind::Resign { side },
            Change::TimeClaimed { side } => ChangeKind::TimeClaimed { side },
            Change::DrawAgreed => ChangeKind::DrawAgreed,
        }
    }

    /// The SSE update's `kind`, and the noun for a message.
    fn names(&self) -> (&'static str, &'static str) {
        match self {
            Change::Action { .. } => ("action", "action"),
            Change::Undo { .. } => ("undo", "undo"),
            Change::Resign { .. } => ("resign", "resignation"),
            Change::TimeClaimed { .. } => ("claim", "claim of the win"),
            Change::DrawAgreed => ("draw", "draw"),
        }
    }
}

impl Games {
    /// Adds an observer of every game's changes and endings (from now on).
    pub fn observe(&self, observer: Arc<dyn GameObserver>) {
        self.observers.write().unwrap_or_else(|p| p.into_inner()).push(observer);
    }

    /// The one place a game changes: `next` (checked by the engine on a copy) is stored, committed before anything
    /// else happens, so a refused write changes nothing; then it is made current, the subscribers get the events
    /// from `events_from` on, the observers are told of the change and, if it ended the game, of the ending (a
    /// panicking observer is logged, and the change stands), the next player is told of their move, and the
    /// computer moves if it is its turn.
    ///
    /// # Errors
    /// When the change cannot be stored (500): nothing changed.
    pub(super) fn commit(
        self: &Arc<Self>,
        entry: &Arc<GameEntry>,
        st: &mut EntryState,
        next: Live,
        change: Change,
        events_from: usize,
    ) -> ApiResult<()> {
        let (kind, noun) = change.names();
        let was_over = st.live.as_ref().is_some_and(|l| l.game.battle().result().is_some());
        let now = now_ms();
        // A move's deadline runs from when the move passed to its side (deadline.rs): by the server's clock.
        let passed = st.live.as_ref().map(|l| l.game.battle().to_act()) != Some(next.game.battle().to_act());
        let move_since = if passed { self.clock.now_ms() } else { st.move_since };
        // A draw offered lapses when its side moves on, or when decisions are taken back (draw.rs); a take-back asked
        // for, with any change (takeback.rs).
        let mut offers = st.offers;
        if let Some(offer) = offers.draw
            && match change {
                Change::Action { side, .. } => side == offer.by,
                _ => true,
            }
        {
            offers.draw = None;
        }
        offers.takeback = None;
        self.store
            .update_save(&entry.id, &next.game.save(), next.game.battle().result(), now, move_since, &offers)
            .map_err(|e| ApiError::Internal(format!("the {noun} could not be stored, so it was not made: {e}")))?;
        st.move_since = move_since;
        st.offers = offers;
        if passed {
            st.deadline_told = super::deadline::DeadlineTold::Nothing;
        }
        st.summary = Summary::of(&next, &entry.players, now);
        let live = &*st.live.insert(next);
        let events = log_entries(live, events_from);
        let change_kind = change.kind();
        let action = match change {
            Change::Action { side, computer, action, text } => Some((side, computer, action, text)),
            _ => None,
        };
        self.publish(entry, live, kind, action, &events);
        let b = live.game.battle();
        let changed = GameChanged {
            id: entry.id.clone(),
            kind: change_kind,
            revision: live.revision,
            decisions: live.decisions(),
            to_act: match b.to_act() {
                ToAct::Side(s) => Some(s),
                _ => None,
            },
            at: now,
        };
        // Ended by this change, not before: a finished game cannot change again, so this is once a game.
        let ended = b.result().filter(|_| !was_over).map(|result| GameEnded {
            id: entry.id.clone(),
            result,
            how: Ending::of(&result),
            seats: st.seats.clone(),
            rating: entry.rating,
            decisions: live.decisions(),
            at: now,
        });
        let observers = self.observers.read().unwrap_or_else(|p| p.into_inner()).clone();
        for o in &observers {
            // The change is stored and shown: an observer's fault must not turn it into a failed request, which the
            // player would take for a change not made.
            let told = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                o.changed(&changed);
                if let Some(ended) = &ended {
                    o.ended(ended);
                }
            }));
            if told.is_err() {
                eprintln!("pacw server: game {}: an observer of its changes failed; the change stands", entry.id);
            }
        }
        if let ChangeKind::Action { side, .. } = change_kind {
            // This side has acted: nothing is owed to it any more.
            st.owed[side.index()] = false;
            if let Some(next) = changed.to_act.filter(|&next| next != side) {
                self.move_passed(entry, st, next);
            }
        }
        self.ensure_computer(entry, st);
        Ok(())
    }
}
