//! Reading a scenario's events, `[[reinforcements]]` and `[[changes]]` (docs/scenario-format.md#events): every
//! problem at its line and column, as the rest of the file.

use super::events::{ChangeKind, MAX_CHANGES, MAX_EVENT_ID, MAX_REINFORCEMENTS, Reinforcement, TimedChange};
use super::parse::{RawUnit, Report, UnitContext, UnitPlace, UnitSide, check_unit, parse_side_key, parse_square};
use super::{MAX_UNITS, Objective};
use crate::unit::UnitInfo;
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

#[derive(Deserialize)]
pub(super) struct RawReinforcement {
    id: Option<Spanned<String>>,
    pub(super) name: Option<String>,
    side: Option<Spanned<String>>,
    turn: Option<Spanned<i64>>,
    #[serde(default)]
    pub(super) units: Vec<Spanned<RawUnit>>,
}

#[derive(Deserialize)]
pub(super) struct RawChange {
    id: Option<Spanned<String>>,
    name: Option<String>,
    turn: Option<Spanned<i64>>,
    objective: Option<Spanned<String>>,
    points: Option<Spanned<i64>>,
    side: Option<Spanned<String>>,
    exhaustion: Option<Spanned<i64>>,
}

/// The events' ids met so far, each unique across reinforcements and changes.
#[derive(Default)]
pub(super) struct EventIds(Vec<String>);

impl EventIds {
    /// The id given (checked: its characters, its length, not met before), or `default`.
    fn take(&mut self, r: &mut Report, given: Option<&Spanned<String>>, default: String, label: &str) -> String {
        let Some(given) = given else {
            self.0.push(default.clone());
            return default;
        };
        let id = given.get_ref();
        let good = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if id.is_empty() || id.len() > MAX_EVENT_ID || !id.chars().all(good) {
            let why = format!("{label}: id '{id}' must be 1 to {MAX_EVENT_ID} letters, digits, '-' or '_'");
            r.at(Some(given.span()), why);
        } else if self.0.contains(id) {
            r.at(Some(given.span()), format!("{label}: another event has the id '{id}'"));
        }
        self.0.push(id.clone());
        id.clone()
    }
}

/// An event's turn: from 2 (turn 1 is the battle as it starts) to the turn limit.
fn check_turn(r: &mut Report, turn: Option<&Spanned<i64>>, at: Range<usize>, turns: u8, label: &str) -> u8 {
    match turn {
        None => {
            r.at(Some(at), format!("{label} has no `turn`"));
            2
        }
        Some(t) if (2..=i64::from(turns)).contains(t.get_ref()) => *t.get_ref() as u8,
        Some(t) if *t.get_ref() == 1 => {
            let why = format!(
                "{label}: turn = 1 is the start of the battle; an event comes from turn 2 (units on \
                               the board at the start are [[units]])"
            );
            r.at(Some(t.span()), why);
            2
        }
        Some(t) => {
            let why =
                format!("{label}: turn = {} is not a turn of the battle (2 to its {turns} turns, R8.2)", t.get_ref());
            r.at(Some(t.span()), why);
            2
        }
    }
}

/// The reinforcement groups; their units are added to `units` after those on the board at the start, with default
/// names that go on counting in `counts`.
pub(super) fn check_reinforcements(
    raw: &[Spanned<RawReinforcement>],
    r: &mut Report,
    cx: &UnitContext,
    turns: u8,
    units: &mut Vec<UnitInfo>,
    counts: &mut [usize; 6],
    ids: &mut EventIds,
) -> Vec<Reinforcement> {
    if raw.len() > MAX_REINFORCEMENTS {
        let why = format!("too many reinforcements: {} groups (at most {MAX_REINFORCEMENTS})", raw.len());
        r.at(Some(raw[MAX_REINFORCEMENTS].span()), why);
    }
    let total = units.len() + raw.iter().map(|g| g.get_ref().units.len()).sum::<usize>();
    let mut out = Vec::new();
    for (g, spanned) in raw.iter().enumerate().take(MAX_REINFORCEMENTS) {
        let group = spanned.get_ref();
        let default_label = match &group.name {
            Some(name) => format!("reinforcement {} ({name})", g + 1),
            None => format!("reinforcement {}", g + 1),
        };
        let id = ids.take(r, group.id.as_ref(), format!("E{}", g + 1), &default_label);
        let label = match &group.name {
            Some(name) => format!("reinforcement {id} ({name})"),
            None => format!("reinforcement {id}"),
        };
        let side = match &group.side {
            Some(s) => parse_side_key(r, cx.ids, s, &label),
            None => {
                r.at(Some(spanned.span()), format!("{label} has no `side`"));
                None
            }
        };
        let turn = check_turn(r, group.turn.as_ref(), spanned.span(), turns, &label);
        if group.units.is_empty() {
            r.at(Some(spanned.span()), format!("{label} has no units ([[reinforcements.units]])"));
        }
        let first = units.len();
        for (k, unit) in group.units.iter().enumerate() {
            if units.len() >= MAX_UNITS {
                // Not read further, so that the checks stay bounded; the units at the start are refused on their own.
                if units.len() == MAX_UNITS {
                    let why = format!("too many units: {total} with the reinforcements' (at most {MAX_UNITS})");
                    r.at(Some(unit.span()), why);
                }
                return out;
            }
            let label = match &unit.get_ref().name {
                Some(n) => format!("{label}, unit {} ({n})", k + 1),
                None => format!("{label}, unit {}", k + 1),
            };
            // A reinforcement may share its entry square with any unit: it waits until the square is free.
            let place = UnitPlace { label, index: None, side: UnitSide::Group(side), others: &[] };
            let info = check_unit(unit, r, cx, place, counts);
            units.push(info);
        }
        if let Some(side) = side {
            let name = group.name.clone().unwrap_or_else(|| "Reinforcements".to_string());
            out.push(Reinforcement { id, name, side, turn, first: first as u8, count: (units.len() - first) as u8 });
        }
    }
    out
}

/// The timed changes. `unit_counts` are each side's units, reinforcements included: an exhaustion point is from 1
/// to that (R8.1).
pub(super) fn check_changes(
    raw: &[Spanned<RawChange>],
    r: &mut Report,
    cx: &UnitContext,
    objectives: &[Objective],
    turns: u8,
    unit_counts: [usize; 2],
    ids: &mut EventIds,
) -> Vec<TimedChange> {
    if raw.len() > MAX_CHANGES {
        r.at(Some(raw[MAX_CHANGES].span()), format!("too many changes: {} (at most {MAX_CHANGES})", raw.len()));
    }
    let mut out: Vec<TimedChange> = Vec::new();
    for (i, spanned) in raw.iter().enumerate().take(MAX_CHANGES) {
        let c = spanned.get_ref();
        let id = ids.take(r, c.id.as_ref(), format!("C{}", i + 1), &format!("change {}", i + 1));
        let label = format!("change {id}");
        let turn = check_turn(r, c.turn.as_ref(), spanned.span(), turns, &label);
        let what = match (&c.objective, &c.points, &c.side, &c.exhaustion) {
            (Some(_), _, Some(_), _)
            | (Some(_), _, _, Some(_))
            | (_, Some(_), Some(_), _)
            | (_, Some(_), _, Some(_)) => {
                let why = format!("{label} sets one thing: an objective's `points`, or a side's `exhaustion`");
                r.at(Some(spanned.span()), why);
                None
            }
            (Some(square), Some(points), None, None) => {
                let at = parse_square(r, cx.map, square, &label);
                let objective = at.and_then(|at| objectives.iter().position(|o| o.at == at));
                if let (Some(at), None) = (at, objective) {
                    let known: Vec<String> = objectives.iter().map(|o| o.at.to_string()).collect();
                    let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
                    r.at(Some(square.span()), format!("{label}: no objective at {at} (objectives: {known})"));
                }
                let good = (0..=99).contains(points.get_ref());
                if !good {
                    let why = format!("{label}: points = {} is out of range (0 to 99)", points.get_ref());
                    r.at(Some(points.span()), why);
                }
                match (objective, at, good) {
                    (Some(objective), Some(at), true) => Some(ChangeKind::ObjectivePoints {
                        objective: objective as u8,
                        at,
                        points: *points.get_ref() as u8,
                    }),
                    _ => None,
                }
            }
            (None, None, Some(side), Some(point)) => {
                let side = parse_side_key(r, cx.ids, side, &label);
                let bound = side.map_or(1, |s| unit_counts[s.index()]);
                let good = (1..=bound as i64).contains(point.get_ref());
                if side.is_some() && !good {
                    let why = format!(
                        "{label}: exhaustion = {} must be from 1 to the side's number of units, {bound} (R8.1)",
                        point.get_ref()
                    );
                    r.at(Some(point.span()), why);
                }
                side.filter(|_| good).map(|side| ChangeKind::Exhaustion { side, point: *point.get_ref() as u8 })
            }
            (Some(o), None, None, None) => {
                r.at(Some(o.span()), format!("{label}: an objective's change needs its `points`"));
                None
            }
            (None, None, Some(o), None) => {
                r.at(Some(o.span()), format!("{label}: a side's change needs its `exhaustion` point"));
                None
            }
            (None, None, None, Some(o)) => {
                r.at(Some(o.span()), format!("{label}: an exhaustion change needs its `side`"));
                None
            }
            (None, Some(o), None, None) => {
                r.at(Some(o.span()), format!("{label}: a change of points needs its `objective` square"));
                None
            }
            (None, None, None, None) => {
                let why = format!("{label} sets nothing: give `objective` and `points`, or `side` and `exhaustion`");
                r.at(Some(spanned.span()), why);
                None
            }
        };
        let Some(what) = what else { continue };
        let same = |other: &TimedChange| match (other.what, what) {
            (ChangeKind::ObjectivePoints { objective: a, .. }, ChangeKind::ObjectivePoints { objective: b, .. }) => {
                a == b
            }
            (ChangeKind::Exhaustion { side: a, .. }, ChangeKind::Exhaustion { side: b, .. }) => a == b,
            _ => false,
        };
        if let Some(twice) = out.iter().find(|o| o.turn == turn && same(o)) {
            let why = format!("{label}: change {} already sets the same on turn {turn}", twice.id);
            r.at(Some(spanned.span()), why);
            continue;
        }
        out.push(TimedChange { id, name: c.name.clone().unwrap_or_default(), turn, what });
    }
    out
}
