//! What the board shows for a selected unit: the orders it may be given (before it is activated too) with their
//! exact odds, the path of each move, the line of sight to every square, and why every other square or enemy is
//! refused, each with its rule. Built only from the engine's public API; docs/api.md describes every field.

use pacw_engine::Rule;
use pacw_engine::odds::OddsReport;
use pacw_engine::{Action, Battle, Dir, Illegal, Square, ToAct, UnitId, narrate};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A refusal in words, with its rule (docs/rules.md id) and, for a blocked line of sight, the square that blocks it.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The docs/rules.md id, such as `R6.2`.
    pub rule: Rule,
    /// Why, in words (with the rule id at the end).
    pub reason: String,
    /// For R6.2: the square the line of sight is blocked at.
    pub blocked_at: Option<Square>,
}

impl Refusal {
    /// The refusal of an engine's `Illegal`; for R6.2 the blocking square of the line from `from` to `to`.
    fn of(b: &Battle, unit: UnitId, sight: Option<(Square, Square)>, illegal: Illegal) -> Refusal {
        let blocked_at = match (illegal.rule, sight) {
            (Rule::R6_2, Some((from, to))) => b.line_of_sight(unit, from, to).err(),
            _ => None,
        };
        Refusal { rule: illegal.rule, reason: illegal.to_string(), blocked_at }
    }
}

/// One order a selected unit may be given.
#[derive(Serialize, Clone, Debug)]
pub struct OrderView {
    /// The order as JSON, as `POST …/actions` takes it.
    pub action: Action,
    /// Its name (R4.2).
    pub order: &'static str,
    /// In words.
    pub text: String,
    /// For attacking orders: the exact odds.
    pub odds: Option<OddsReport>,
}

/// A selected unit's orders and everything the board draws for it.
#[derive(Serialize, Clone, Debug)]
pub struct UnitOrders {
    /// The unit.
    pub unit: u8,
    /// The decisions the game had when this was made (send it with the orders, so a stale one is refused).
    pub decisions: usize,
    /// Whether this token may give the unit an order now.
    pub can_act: bool,
    /// Why not, when it may not.
    pub refusal: Option<Refusal>,
    /// The decision to send before its order: its activation (R3.4), or null when it is already activated.
    pub activate: Option<Action>,
    /// Its orders, in the engine's order (empty when it may not act).
    pub orders: Vec<OrderView>,
    /// For each square a Move (or an Advance) may end on: the squares it passes through, its own square first
    /// (its own square alone for a change of facing, or for staying after Fire & Move).
    pub paths: BTreeMap<Square, Vec<Square>>,
    /// For each other square of the board: why a move there is refused (only while the unit may act).
    pub squares: BTreeMap<Square, Refusal>,
    /// For each enemy on the board that no order attacks: why a Fire at it is refused (only while it may act).
    pub enemies: BTreeMap<u8, Refusal>,
    /// For every square, row by row from a1: null if the unit sees its centre from where it stands (R6.2),
    /// else the square that blocks the line.
    pub sight: Vec<Option<Square>>,
}

/// The orders of `unit` for a token that may act now (`may_act`: it is this token's turn and the unit's side).
pub fn unit_orders(b: &Battle, unit: UnitId, decisions: usize, may_act: Result<(), Illegal>) -> UnitOrders {
    let at = b.unit(unit).at;
    let map = &b.scenario().map;
    let sight = map.squares().map(|s| b.line_of_sight(unit, at, s).err()).collect();
    let listed = b.orders_for(unit);
    let refusal = match may_act {
        Err(e) => Some(Refusal::of(b, unit, None, e)),
        Ok(()) if listed.is_empty() => {
            let why = b
                .check_order_for(unit, Action::Hold)
                .err()
                .unwrap_or_else(|| Illegal::new(Rule::R3_4, "this unit cannot act now"));
            Some(Refusal::of(b, unit, None, why))
        }
        Ok(()) => None,
    };
    let mut out = UnitOrders {
        unit: unit.0,
        decisions,
        can_act: refusal.is_none(),
        refusal,
        activate: None,
        orders: Vec::new(),
        paths: BTreeMap::new(),
        squares: BTreeMap::new(),
        enemies: BTreeMap::new(),
        sight,
    };
    if !out.can_act {
        return out;
    }
    let advancing = matches!(b.legal_actions().first(), Some(Action::Advance { .. }));
    out.activate = (b.active_unit() != Some(unit)).then_some(Action::Activate(unit));
    let mut attacked = Vec::new();
    for (action, _) in &listed {
        let odds = action
            .target()
            .and_then(|_| b.attack_odds(unit, action).ok())
            .map(|o| o.report(Some(b.scenario().system())));
        if let Some(t) = action.target() {
            attacked.push(t);
        }
        let to = match *action {
            Action::Move { to, .. } | Action::Advance { to, .. } => Some(to),
            _ => None,
        };
        if let Some(to) = to
            && !out.paths.contains_key(&to)
        {
            let path = if to == at {
                vec![at]
            } else if advancing {
                vec![at, to]
            } else {
                b.move_path(unit, to).unwrap_or(vec![at, to])
            };
            out.paths.insert(to, path);
        }
        out.orders.push(OrderView {
            action: *action,
            order: action.order_name(),
            text: narrate::order(b, Some(unit), action),
            odds,
        });
    }
    let facing = b.unit(unit).facing;
    for s in map.squares() {
        if s == at || out.paths.contains_key(&s) {
            continue;
        }
        let probe =
            if advancing { Action::Advance { to: s, facing: Dir::N } } else { Action::Move { to: s, facing: Dir::N } };
        if let Err(e) = b.check_order_for(unit, probe) {
            out.squares.insert(s, Refusal::of(b, unit, None, e));
        }
    }
    let side = b.info(unit).side;
    for e in b.alive_units().filter(|&e| b.info(e).side != side && !attacked.contains(&e)) {
        let probe = if advancing {
            Err(Illegal::new(Rule::R6_5, "a unit attacks at most once per activation"))
        } else {
            b.check_order_for(unit, Action::Fire { target: e, facing })
        };
        if let Err(why) = probe {
            out.enemies.insert(e.0, Refusal::of(b, unit, Some((at, b.unit(e).at)), why));
        }
    }
    out
}

/// A question about one order: `POST …/explain`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ExplainRequest {
    /// The unit that would give it.
    pub unit: u8,
    /// The order.
    pub action: Action,
}

/// Whether an order is legal for a unit now (before its activation too), and why not.
#[derive(Serialize, Clone, Debug)]
pub struct Explanation {
    /// Whether the engine would accept it (after the unit's activation, if it is not yet activated).
    pub legal: bool,
    /// Why not.
    pub refusal: Option<Refusal>,
    /// In words.
    pub text: String,
    /// For a legal attacking order: its exact odds.
    pub odds: Option<OddsReport>,
}

/// Explains `action` for `unit` (`may_act` as for [`unit_orders`]).
pub fn explain(b: &Battle, unit: UnitId, action: Action, may_act: Result<(), Illegal>) -> Explanation {
    let from = match action {
        Action::MoveFire { to, .. } => to,
        _ => b.unit(unit).at,
    };
    let sight = action.target().map(|t| (from, b.unit(t).at));
    let checked = may_act.and_then(|()| b.check_order_for(unit, action));
    let odds = match (&checked, action.target()) {
        (Ok(()), Some(_)) => b.attack_odds(unit, &action).ok().map(|o| o.report(Some(b.scenario().system()))),
        _ => None,
    };
    Explanation {
        legal: checked.is_ok(),
        refusal: checked.err().map(|e| Refusal::of(b, unit, sight, e)),
        text: narrate::order(b, Some(unit), &action),
        odds,
    }
}

/// Whether the side to act is `controls`' and the game is on: the first check of every order.
///
/// # Errors
/// When the game is over (R8), or the side to act is not `controls`' or is played by the computer (R3.4).
pub fn turn_check(b: &Battle, controls: impl Fn(pacw_engine::Side) -> bool, computer: bool) -> Result<(), Illegal> {
    match b.to_act() {
        ToAct::Side(side) if controls(side) && !computer => Ok(()),
        ToAct::Side(side) => {
            let name = &b.scenario().side(side).name;
            let why = if computer {
                format!("it is {name}'s turn, played by the computer")
            } else {
                format!("it is {name}'s turn, and this link does not play {name}")
            };
            Err(Illegal::new(Rule::R3_4, why))
        }
        _ => Err(Illegal::new(Rule::R8, "the game is over")),
    }
}
