//! The reference table of the odds: every target, distance, cover and state for an attacker.

use super::{AttackOdds, Situation};
use crate::action::Illegal;
use crate::attack::Steadiness;
use crate::map::Terrain;
use crate::options::{ArmNumber, Options};
use crate::system::CombatSystem;
use crate::terrain::TerrainRules;
use crate::unit::{Arm, Quality};
use std::sync::Arc;

/// One line of the reference table.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TableRow {
    /// The situation.
    pub situation: Situation,
    /// Its odds, or the variant's restriction that forbids its attack.
    pub odds: Result<AttackOdds, Forbidden>,
}

/// A variant's restriction that forbids an attack (`[[restrictions]]`, docs/variants.md): the attack is refused
/// wherever an order is judged, so a row of the table has no odds but this.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Forbidden {
    /// The restriction's id, which the refusal cites (`M1`).
    pub id: String,
    /// What it says ("troops will not charge a steady line").
    pub name: String,
}

impl Forbidden {
    /// The restriction of `system` that refused an attack with `refusal`, if one did.
    pub fn of(refusal: &Illegal, system: Option<&CombatSystem>) -> Option<Forbidden> {
        let id = refusal.variant_rule.as_deref()?;
        let r = system?.restrictions().iter().find(|r| r.id == id)?;
        Some(Forbidden { id: r.id.clone(), name: r.name.clone() })
    }
}

impl std::fmt::Display for Forbidden {
    /// "M1 troops will not charge a steady line", as the rules page lists it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.id, self.name)
    }
}

/// The reference table: for an `attacker` of one arm (having `moved` or not), every arm and quality of target ×
/// shooting (at distance 2) or charge (distance 1, from the front) × in cover (woods) or not × steady or shaken,
/// with the chance of each result. Shooting rows are left out when the attacker's range is 1 (cavalry by default).
///
/// Under a variant, cover is the first of its terrain kinds that gives it ([`Situation::cover_terrain`]), and the
/// rows in cover are left out when none does; a row whose attack one of its restrictions forbids says so
/// ([`Forbidden`]), the others are computed as usual.
///
/// # Errors
/// When a row's attack is not allowed under `options` ([`Situation::setup`]) other than by a variant's
/// restriction, citing the rule.
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
    // In the open, and in the rules' cover if a kind gives it.
    let rules = system.map_or_else(TerrainRules::standard, |system| system.terrain_rules().clone());
    let terrains: Vec<Terrain> = std::iter::once(Terrain::Open).chain(Situation::cover_terrain(&rules)).collect();
    let mut rows = Vec::with_capacity(12 * terrains.len() * targets.len());
    for (target, target_own) in targets {
        for target_quality in Quality::ALL {
            for &distance in distances {
                for &terrain in &terrains {
                    for target_state in [Steadiness::Steady, Steadiness::Shaken] {
                        let situation = Situation {
                            target_quality,
                            distance,
                            moved,
                            terrain,
                            target_state,
                            attacker_own,
                            target_own,
                            ..Situation::new(attacker, target)
                        };
                        // A restriction's refusal is the row's; any other, the table's.
                        let odds = match situation.odds_under(options, system) {
                            Ok(odds) => Ok(odds),
                            Err(refusal) => Err(Forbidden::of(&refusal, system.map(|s| &**s)).ok_or(refusal)?),
                        };
                        rows.push(TableRow { situation, odds });
                    }
                }
            }
        }
    }
    Ok(rows)
}
