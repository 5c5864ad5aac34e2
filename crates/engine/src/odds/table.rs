//! The reference table of the odds: every target, distance, cover and state for an attacker.

use super::{AttackOdds, Situation};
use crate::action::Illegal;
use crate::attack::Steadiness;
use crate::options::{ArmNumber, Options};
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
    table_of(attacker, None, moved, options, system)
}

/// [`table_under`] for an attacker that may be of the variant's own arm (`attacker_own`, its place among the
/// system's arms, acting as `attacker`), with rows for the targets of the variant's own arms after the standard's.
///
/// # Errors
/// As [`table`].
pub fn table_of(
    attacker: Arm,
    attacker_own: Option<u8>,
    moved: bool,
    options: &Options,
    system: Option<&Arc<CombatSystem>>,
) -> Result<Vec<TableRow>, Illegal> {
    let own_range = attacker_own.and_then(|i| system?.arm_number(i as usize, ArmNumber::Range, options));
    let range = own_range.unwrap_or(options.range.get(attacker));
    let distances: &[u8] = if range >= 2 { &[2, 1] } else { &[1] };
    // Every arm a target may be of: the standard three, then the variant's own, each as the arm it acts as.
    let mut targets: Vec<(Arm, Option<u8>)> = Arm::ALL.iter().map(|&a| (a, None)).collect();
    if let Some(system) = system {
        let own = system.arms().iter().enumerate().skip(Arm::ALL.len());
        targets.extend(own.map(|(i, a)| (a.like, Some(i as u8))));
    }
    let mut rows = Vec::with_capacity(24 * targets.len());
    for (target, target_own) in targets {
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
                            attacker_own,
                            target_own,
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
