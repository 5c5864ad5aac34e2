//! Exact odds: the probability of every result of an attack before the dice are rolled, of the target's state
//! after a run of attacks, and a reference table of all cases (docs/rules.md R6.4, R7, R9.2).
//!
//! Nothing here restates a rule. An attack's odds are worked out from the battle's own assessment
//! ([`Battle::assess_order`]: range, arc, line of sight, cover and modifiers, R6), the same to-hit and hit-result
//! functions the battle rolls its dice with ([`hits`], [`hit_result`], R6.4, R7.1),
//! the same die ([`d6`]) and the same retreat square ([`Battle::retreat_square`], R7.3, R7.4).
//! The tests play a million attacks through [`Battle::sample_chance`] and [`Battle::apply_chance`] and check the
//! frequencies against these fractions.
//!
//! An abstract [`Situation`] ("veteran infantry in woods, charged in the flank") is turned into a small battle that
//! produces exactly that situation, and its odds come from that battle too.
//!
//! ```
//! use pacw_engine::{Arm, Options, odds::{Situation, TargetState}};
//! // Regular infantry that did not move shoots at regular infantry two squares away (R6.4: needs 4).
//! let odds = Situation::new(Arm::Infantry, Arm::Infantry).odds(&Options::default()).unwrap();
//! assert_eq!(odds.assessment.needed, 4);
//! assert_eq!(odds.miss.to_string(), "1/2");
//! assert_eq!(odds.shaken.to_string(), "1/3"); // hit, then 1-4 on the target's die (R7.1)
//! assert_eq!(odds.retreat.to_string(), "1/6");
//! let run = odds.sequence();
//! assert_eq!(run.expected_attacks_to_destroy(TargetState::Steady).unwrap().to_string(), "8");
//! ```

use crate::action::{Action, Illegal};
pub use crate::attack::AttackResult;
use crate::attack::{HitResult, Modifiers, RetreatPath, Steadiness};
/// The arithmetic of one attack's dice (R6.4, R7.1, R7.4), the same functions the battle rolls by.
pub use crate::attack::{after_hit, hit_result, hits, needed, result_on_row, standard_row};
use crate::battle::{AttackAssessment, Battle, ChanceKind, ToAct};
use crate::card::Card;
/// The die every roll is made with (R9.2): each face and its exact chance.
pub use crate::chance::d6;
use crate::chance::{Outcome, Prob};
use crate::event::Event;
use crate::options::BlockedRetreat;
use crate::rule::Rule;
use crate::unit::UnitId;
use num_rational::BigRational;

mod report;
mod sequence;
mod situation;
mod table;

pub use report::{AttackerReport, ModifierReport, OddsReport, decimal};
pub use sequence::{Sequence, StateDistribution, TargetState, approx};
pub use situation::{Situation, SituationBattle};
pub use table::{Forbidden, TableRow, table, table_of, table_under};

/// An exact probability or expectation of any size: the fractions of a run of attacks outgrow [`Prob`].
pub type Exact = BigRational;

const ZERO: Prob = Prob::new_raw(0, 1);

impl AttackResult {
    /// Every result, in the order of the odds tables.
    pub const ALL: [AttackResult; 6] = [
        AttackResult::Miss,
        AttackResult::NoEffect,
        AttackResult::Shaken,
        AttackResult::Retreat,
        AttackResult::Destroyed,
        AttackResult::Stand,
    ];

    /// Its name, as used in the JSON output.
    pub const fn name(self) -> &'static str {
        match self {
            AttackResult::Miss => "miss",
            AttackResult::NoEffect => "no_effect",
            AttackResult::Shaken => "shaken",
            AttackResult::Retreat => "retreat",
            AttackResult::Destroyed => "destroyed",
            AttackResult::Stand => "stand",
        }
    }

    /// The result of an attack as the battle reported it: `events` are those of its dice (the to-hit roll and,
    /// after a hit, the hit-result roll) and what followed them. `None` if they hold no to-hit roll. The one reading
    /// of an attack's events: the laboratory's counts and the review's ledger decode them here. What the
    /// hit-result roll does to its unit is the target's; the attacker's own fate (a variant's after-attack rules)
    /// is not the attack's result.
    ///
    /// ```
    /// use pacw_engine::{Event, odds::AttackResult};
    /// assert_eq!(AttackResult::from_events(&[Event::ToHitRolled { roll: 2, hit: false }]), Some(AttackResult::Miss));
    /// ```
    pub fn from_events(events: &[Event]) -> Option<AttackResult> {
        let mut result = None;
        let mut target = None;
        let mut blocked = false;
        for event in events {
            match *event {
                Event::ToHitRolled { hit: false, .. } => return Some(AttackResult::Miss),
                Event::HitResultRolled { unit, result: r, .. } => {
                    target = Some(unit);
                    result = Some(match r {
                        HitResult::NoEffect => AttackResult::NoEffect,
                        HitResult::Shaken => AttackResult::Shaken,
                        HitResult::Retreat => AttackResult::Stand, // until we see it retreat or die
                        HitResult::Destroyed => AttackResult::Destroyed,
                    })
                }
                Event::Retreated { unit, .. } if target == Some(unit) => result = Some(AttackResult::Retreat),
                Event::RetreatBlocked { unit } if target == Some(unit) => blocked = true,
                // R7.4 `destroyed`: a blocked retreat that destroys the unit.
                Event::Destroyed { unit } if blocked && target == Some(unit) => result = Some(AttackResult::Destroyed),
                _ => {}
            }
        }
        result
    }
}

/// The exact odds of one attack: its assessment (modifiers and number needed) and the chance of each result,
/// as reduced fractions that sum to 1.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct AttackOdds {
    /// The battle's assessment of the attack: charge or not, the modifiers with their rule ids, the number needed
    /// on the die, the target's strength and whether it is shaken (R6.1–R6.4).
    pub assessment: AttackAssessment,
    /// Whether the target, if it must retreat, has a square to go to (R7.3, R7.4).
    pub retreat_path: RetreatPath,
    /// What a blocked retreat becomes (option `blocked_retreat`, R7.4).
    pub blocked_retreat: BlockedRetreat,
    /// The to-hit die fails.
    pub miss: Prob,
    /// A hit that changes nothing (a variant's table: 0 under the standard one).
    pub no_effect: Prob,
    /// The target becomes shaken.
    pub shaken: Prob,
    /// The target retreats (and is shaken).
    pub retreat: Prob,
    /// The target is destroyed, by the die or by a blocked retreat under `blocked_retreat = destroyed`.
    pub destroyed: Prob,
    /// The target cannot retreat and stands, shaken (`blocked_retreat = stand`); otherwise 0.
    pub stand: Prob,
    /// What becomes of the attacker by a variant's after-attack rules (nothing under the standard rules).
    pub attacker: AttackerOdds,
}

/// The chance of each thing that may befall the attacker after the dice (a variant's `[[after_attack]]`): it is
/// shaken, it advances into its target's square, it is destroyed, or nothing happens to it. Exact; shaken and
/// advances may come together, so only `unchanged` and the others do not overlap.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct AttackerOdds {
    /// It is shaken (and not destroyed).
    pub shaken: Prob,
    /// It advances into the square its target left (and is not destroyed).
    pub advances: Prob,
    /// It is destroyed.
    pub destroyed: Prob,
    /// Nothing befalls it.
    pub unchanged: Prob,
}

impl AttackerOdds {
    /// Whether anything may befall the attacker at all.
    pub fn any(&self) -> bool {
        self.unchanged != Prob::from_integer(1)
    }
}

impl AttackOdds {
    /// The odds of an attack the battle has assessed, with the same to-hit test (R6.4) and hit-result table
    /// (R7.1) the battle rolls its dice with, each die face weighted by [`d6`]. A retreat with no square to go to
    /// ([`RetreatPath::Blocked`]) becomes what `rule` says (R7.4).
    pub fn from_assessment(a: &AttackAssessment, path: RetreatPath, rule: BlockedRetreat) -> AttackOdds {
        // The die is fair (every face of `d6` weighs the same): count faces, and divide once at the end, which
        // keeps the computer players' many calls cheap.
        let faces = || d6().filter_map(|(o, _)| if let Outcome::Die(roll) = o { Some(roll) } else { None });
        let sides = faces().count() as u32;
        let hit = faces().filter(|&roll| hits(roll, a.needed)).count() as u32;
        let row = a.result_row();
        // Given a hit, each face of the target's die, through the same rule the battle resolves hits with.
        let mut given_hit = [0u32; AttackResult::ALL.len()];
        for roll in faces() {
            given_hit[after_hit(result_on_row(row, a.tested_strength(), roll), path, rule) as usize] += 1;
        }
        let [_, no_effect, shaken, retreat, destroyed, stand] = given_hit.map(|q| Prob::new(hit * q, sides * sides));
        let miss = Prob::new(sides - hit, sides);
        let attacker = if a.aftermath.is_empty() {
            AttackerOdds { shaken: ZERO, advances: ZERO, destroyed: ZERO, unchanged: Prob::from_integer(1) }
        } else {
            // Each result's chance, the attacker's fate after it as the battle decides it (its assessment's).
            let mut o = AttackerOdds { shaken: ZERO, advances: ZERO, destroyed: ZERO, unchanged: ZERO };
            for (r, p) in AttackResult::ALL.into_iter().zip([miss, no_effect, shaken, retreat, destroyed, stand]) {
                let fate = a.aftermath.fate(r);
                for (happens, chance) in [
                    (fate.shaken, &mut o.shaken),
                    (fate.advances, &mut o.advances),
                    (fate.destroyed, &mut o.destroyed),
                    (fate.unchanged(), &mut o.unchanged),
                ] {
                    if happens {
                        *chance += p;
                    }
                }
            }
            o
        };
        AttackOdds {
            assessment: *a,
            retreat_path: path,
            blocked_retreat: rule,
            miss,
            no_effect,
            shaken,
            retreat,
            destroyed,
            stand,
            attacker,
        }
    }

    /// The number needed on the die (R6.4).
    pub fn to_hit(&self) -> u8 {
        self.assessment.needed
    }

    /// The modifiers, each with its docs/rules.md id ([`crate::Modifier::rule`]) and value.
    pub fn modifiers(&self) -> &Modifiers {
        &self.assessment.modifiers
    }

    /// The chance of a hit.
    pub fn hit(&self) -> Prob {
        Prob::from_integer(1) - self.miss
    }

    /// The chance of one result.
    pub fn probability(&self, result: AttackResult) -> Prob {
        match result {
            AttackResult::Miss => self.miss,
            AttackResult::NoEffect => self.no_effect,
            AttackResult::Shaken => self.shaken,
            AttackResult::Retreat => self.retreat,
            AttackResult::Destroyed => self.destroyed,
            AttackResult::Stand => self.stand,
        }
    }

    /// Whether the fifth result, `stand`, can happen: the retreat is blocked and `blocked_retreat = stand` (R7.4).
    pub fn has_stand(&self) -> bool {
        self.retreat_path.is_blocked() && self.blocked_retreat == BlockedRetreat::Stand
    }

    /// Whether a hit may change nothing (`no_effect`): only where a variant's hit-result table says `none`.
    pub fn has_no_effect(&self) -> bool {
        self.assessment.results.rows().iter().any(|(_, row)| row.contains(&HitResult::NoEffect))
    }

    /// The results that apply (`stand` only where [`AttackOdds::has_stand`], `no_effect` only where
    /// [`AttackOdds::has_no_effect`]) with their chances.
    pub fn results(&self) -> impl Iterator<Item = (AttackResult, Prob)> + '_ {
        AttackResult::ALL
            .into_iter()
            .filter(|&r| r != AttackResult::Stand || self.has_stand())
            .filter(|&r| r != AttackResult::NoEffect || self.has_no_effect())
            .map(|r| (r, self.probability(r)))
    }

    /// The same attack, with the same modifiers, on the target steady or shaken: the column of R7.1 changes,
    /// nothing else.
    pub fn with_target(&self, target: Steadiness) -> AttackOdds {
        let a = AttackAssessment { target_shaken: target.is_shaken(), ..self.assessment };
        AttackOdds::from_assessment(&a, self.retreat_path, self.blocked_retreat)
    }

    /// A run of such attacks on the same target ([`Sequence`]).
    pub fn sequence(&self) -> Sequence {
        Sequence::new(self)
    }
}

impl Battle {
    /// The exact odds of an attacking order (Fire, Move & Fire, Fire & Move) by `unit`, as it would be made now:
    /// refused with the rule's id when the order is not legal, like [`Battle::assess_order`], whose assessment it uses.
    ///
    /// Whether the target could retreat (R7.3) is judged from where the attacker stands when the dice are rolled.
    /// For a Move & Fire that changes square the order is carried out on a copy of the battle, brought first to
    /// the point where `unit` chooses its order if it is not there already ([`ready_to_order`]).
    ///
    /// # Errors
    /// When the order is not an attack `unit` may make now ([`Battle::assess_order`]), citing the rule.
    pub fn attack_odds(&self, unit: UnitId, order: &Action) -> Result<AttackOdds, Illegal> {
        let a = self.assess_order(unit, order)?;
        let blocked = match *order {
            Action::MoveFire { to, .. } if to != self.unit(unit).at => {
                let mut moved = if choosing_order(self, unit) { self.clone() } else { ready_to_order(self, unit)? };
                moved.apply(*order)?;
                !moved.can_retreat(a.target, unit)
            }
            _ => !self.can_retreat(a.target, unit),
        };
        Ok(AttackOdds::from_assessment(&a, RetreatPath::of(blocked), self.options().blocked_retreat))
    }
}

/// Whether `unit` is choosing its order now.
fn choosing_order(battle: &Battle, unit: UnitId) -> bool {
    matches!(battle.to_act(), ToAct::Side(_)) && battle.active_unit() == Some(unit) && battle.is_legal(Action::Hold)
}

/// A copy of the battle brought, by legal steps, to the point where `unit` chooses its order (R3, R4.2): cards
/// of the unit's side are drawn (the highest left, else the Joker), initiative dice are set to let its side win
/// (R3.7), its side activates it, and the other side passes, so no other unit acts or moves. These chance
/// outcomes are chosen, not sampled. Used to ask what an order would do; returns the battle unchanged if `unit`
/// is already choosing. Refused if the game is over, dice are pending, or the unit cannot be activated.
///
/// # Errors
/// When the game is over, dice are pending, or `unit` cannot be activated (it is gone, or not of a side that
/// could act), citing the rule.
pub fn ready_to_order(battle: &Battle, unit: UnitId) -> Result<Battle, Illegal> {
    if unit.0 as usize >= battle.scenario().units.len() || !battle.unit(unit).alive {
        return Err(Illegal::new(Rule::R3_4, format!("there is no unit {} on the board", unit.0)));
    }
    let side = battle.info(unit).side;
    let mut b = battle.clone();
    // Each pass through the loop draws a card, rolls a die or ends a side's activations; two turns suffice.
    for _ in 0..200 {
        match b.to_act() {
            ToAct::Over(_) => return Err(Illegal::new(Rule::R8, "the game is over")),
            ToAct::Chance(ChanceKind::Card) => {
                let own = b
                    .chance_outcomes()
                    .into_iter()
                    .filter_map(|(o, _)| match o {
                        Outcome::Card(Card::Side { side: s, value }) if s == side => Some((value, o)),
                        _ => None,
                    })
                    .max_by_key(|&(value, _)| value);
                b.apply_chance(own.map_or(Outcome::Card(Card::Joker), |(_, o)| o))?;
            }
            ToAct::Chance(ChanceKind::Initiative(s)) => {
                b.apply_chance(Outcome::Die(if s == side { 6 } else { 1 }))?;
            }
            ToAct::Chance(_) => {
                return Err(Illegal::new(Rule::R9_1, "an attack is waiting for its dice"));
            }
            ToAct::Side(s) => match b.active_unit() {
                Some(u) if u == unit && b.is_legal(Action::Hold) => return Ok(b),
                Some(u) => {
                    return Err(Illegal::new(Rule::R4_2, format!("{} is carrying out its order", b.info(u).name)));
                }
                None if s == side && b.is_legal(Action::Activate(unit)) => {
                    b.apply(Action::Activate(unit))?;
                }
                None => {
                    b.apply(Action::EndActivations)?;
                }
            },
        }
    }
    Err(Illegal::new(Rule::R3_4, format!("{} cannot be activated", battle.info(unit).name)))
}

#[cfg(test)]
#[cfg(test)]
mod tests;
