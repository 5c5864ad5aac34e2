//! The reference table of the odds: every target, distance, cover and state for an attacker.

use super::{AttackOdds, Situation};
use crate::action::Illegal;
use crate::attack::Steadiness;
use crate::options::Options;
use crate::system::CombatSystem;
use crate::unit::{Arm, Quality};
use std::sync::Arc;

/// One line of the reference table.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TableRow {
    /// The situation.
    pub situation: Situation,
    /// Its odds.
    pub odds: AttackOdds,
}

/// The reference table: for an `attacker` of one arm (having `moved` or not), every arm and quality of target ×
/// shooting (at distance 2) or charge (distance 1, from the front) × in cover (woods) or not × steady or shaken,
/// with the chance of each result. Shooting rows are left out when the attacker's range is 1 (cavalry by default).
///
/// # Errors
/// When a row's attack is not allowed under `options` ([`Situation::setup`]), citing the rule.
pub fn table(attacker: Arm, moved: bool, options: &Options) -> Result<Vec<TableRow>, Illegal> {
    table_under(attacker, moved, options, None)
}

/// [`table`] under a variant's combat system when given.
///
/// # Errors
/// As [`table`].
pub fn table_under(
    attacker: Arm,
    moved: bool,
    options: &Options,
    system: Option<&Arc<CombatSystem>>,
) -> Result<Vec<TableRow>, Illegal> {
    let distances: &[u8] = if options.range.get(attacker) >= 2 { &[2, 1] } else { &[1] };
    let mut rows = Vec::with_capacity(72);
    for target in Arm::ALL {
        for target_quality in Quality::ALL {
            for &distance in distances {
                for cover in [false, true] {
                    for target_state in [Steadiness::Steady, Steadiness::Shaken] {
                        let situation = Situation {
                            target_quality,
                            distance,
                            moved,
                            cover,
                            target_state,
                            ..Situation::new(attacker, target)
                        };
                        rows.push(TableRow { situation, odds: situation.odds_under(options, system)? });
                    }
                }
            }
        }
    }
    Ok(rows)
}
