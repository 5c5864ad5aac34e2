//! A scenario's events at the start of a turn (docs/scenario-format.md#events): its timed changes take effect, then
//! its reinforcements due enter their squares, or wait a turn where the square is held. No chance is involved.

use super::{Battle, ScenarioRef};
use crate::event::{EndReason, Event};
use crate::scenario::ChangeKind;
use crate::unit::{Side, UnitId};

impl<S: ScenarioRef> Battle<S> {
    /// The events of the turn just begun, after the turn counter has advanced (R3.6, R3.7) and before the
    /// initiative values are worked out: the changes of this turn, in file order; then each unit due (its group's
    /// turn is this one or past) in file order, onto its entry square if no unit stands there, else it waits for
    /// the next turn's start; then a side whose exhaustion point a change brought to its losses is exhausted (R8.1:
    /// the first side is looked at first). Returns whether the game goes on.
    pub(super) fn start_of_turn_events(&mut self, events: &mut Vec<Event>) -> bool {
        if !self.options.events.is_on() {
            return true;
        }
        let scenario = self.scenario.clone();
        for (i, _) in scenario.changes.iter().enumerate().filter(|(_, c)| c.turn == self.turn) {
            events.push(Event::Changed { change: i as u8 });
        }
        let turn = self.turn;
        for (g, group) in scenario.reinforcements.iter().enumerate().filter(|(_, r)| r.turn <= turn) {
            for unit in group.units() {
                if !self.is_waiting(unit) {
                    continue;
                }
                let at = self.units[unit.index()].at;
                match self.unit_at(at) {
                    Some(by) => events.push(Event::ArrivalDelayed { unit, at, by, group: g as u8 }),
                    None => self.arrive(unit, events, g as u8),
                }
            }
        }
        let changed =
            scenario.changes.iter().any(|c| c.turn == self.turn && matches!(c.what, ChangeKind::Exhaustion { .. }));
        if changed
            && let Some(side) = Side::BOTH.into_iter().find(|&s| self.destroyed[s.index()] >= self.exhaustion_point(s))
        {
            self.finish(Some(side.other()), EndReason::Exhaustion(side), events);
            return false;
        }
        true
    }

    fn arrive(&mut self, unit: UnitId, events: &mut Vec<Event>, group: u8) {
        self.set_arrived(unit);
        let at = self.units[unit.index()].at;
        events.push(Event::Arrived { unit, at, group });
    }
}
