//! Exact odds: the probability of every result of an attack before the dice are rolled, of the target's state
//! after a run of attacks, and a reference table of all cases (docs/rules.md R6.4, R7, R9.2).
//!
//! Nothing here restates a rule. An attack's odds are worked out from the battle's own assessment
//! ([`Battle::assess_order`]: range, arc, line of sight, cover and modifiers, R6), the same to-hit and hit-result
//! functions the battle rolls its dice with ([`crate::attack::hits`], [`crate::attack::hit_result`], R6.4, R7.1),
//! the same die ([`crate::chance::d6`]) and the same retreat square ([`Battle::retreat_square`], R7.3, R7.4).
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
use crate::attack::{HitResult, Modifiers, after_hit, hits, result_on_row};
use crate::battle::{AttackAssessment, Battle, ChanceKind, ToAct};
use crate::card::Card;
use crate::chance::{Outcome, Prob, d6};
use crate::event::Event;
use crate::geometry::{Aspect, Dir, MAX_SIDE, Square};
use crate::map::{Map, Terrain};
use crate::options::{BlockedRetreat, Options};
use crate::rule::Rule;
use crate::scenario::Scenario;
use crate::system::CombatSystem;
use crate::unit::{Arm, Quality, Side, UnitId, UnitInfo};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Serialize, Serializer};
use std::sync::Arc;

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
    /// after a hit, the hit-result roll). `None` if they hold no to-hit roll.
    ///
    /// ```
    /// use pacw_engine::{Event, odds::AttackResult};
    /// assert_eq!(AttackResult::from_events(&[Event::ToHitRolled { roll: 2, hit: false }]), Some(AttackResult::Miss));
    /// ```
    pub fn from_events(events: &[Event]) -> Option<AttackResult> {
        let mut result = None;
        let mut blocked = false;
        for event in events {
            match *event {
                Event::ToHitRolled { hit: false, .. } => return Some(AttackResult::Miss),
                Event::HitResultRolled { result: r, .. } => {
                    result = Some(match r {
                        HitResult::NoEffect => AttackResult::NoEffect,
                        HitResult::Shaken => AttackResult::Shaken,
                        HitResult::Retreat => AttackResult::Stand, // until we see it retreat or die
                        HitResult::Destroyed => AttackResult::Destroyed,
                    })
                }
                Event::Retreated { .. } if result.is_some() => result = Some(AttackResult::Retreat),
                Event::RetreatBlocked { .. } => blocked = true,
                Event::Destroyed { .. } if blocked => result = Some(AttackResult::Destroyed),
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
    /// Whether the target, if it must retreat, has no square to go to (R7.3, R7.4).
    pub retreat_blocked: bool,
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
}

impl AttackOdds {
    /// The odds of an attack the battle has assessed, with the same to-hit test (R6.4) and hit-result table
    /// (R7.1) the battle rolls its dice with, each die face weighted by [`d6`]. A retreat with no square to go to
    /// (`retreat_blocked`) becomes what `rule` says (R7.4).
    pub fn from_assessment(a: &AttackAssessment, retreat_blocked: bool, rule: BlockedRetreat) -> AttackOdds {
        // The die is fair (every face of `d6` weighs the same): count faces, and divide once at the end, which
        // keeps the computer players' many calls cheap.
        let faces = || d6().filter_map(|(o, _)| if let Outcome::Die(roll) = o { Some(roll) } else { None });
        let sides = faces().count() as u32;
        let hit = faces().filter(|&roll| hits(roll, a.needed)).count() as u32;
        let row = a.result_row();
        // Given a hit, each face of the target's die, through the same rule the battle resolves hits with.
        let mut given_hit = [0u32; AttackResult::ALL.len()];
        for roll in faces() {
            given_hit[after_hit(result_on_row(row, a.strength, roll), retreat_blocked, rule) as usize] += 1;
        }
        let [_, no_effect, shaken, retreat, destroyed, stand] = given_hit.map(|q| Prob::new(hit * q, sides * sides));
        let miss = Prob::new(sides - hit, sides);
        AttackOdds {
            assessment: *a,
            retreat_blocked,
            blocked_retreat: rule,
            miss,
            no_effect,
            shaken,
            retreat,
            destroyed,
            stand,
        }
    }

    /// The number needed on the die (R6.4).
    pub fn to_hit(&self) -> u8 {
        self.assessment.needed
    }

    /// The modifiers, each with its docs/rules.md id ([`crate::attack::Modifier::rule`]) and value.
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
        self.retreat_blocked && self.blocked_retreat == BlockedRetreat::Stand
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

    /// The same attack, with the same modifiers, on the target steady (`false`) or shaken (`true`): the column
    /// of R7.1 changes, nothing else.
    pub fn with_target_shaken(&self, shaken: bool) -> AttackOdds {
        let a = AttackAssessment { target_shaken: shaken, ..self.assessment };
        AttackOdds::from_assessment(&a, self.retreat_blocked, self.blocked_retreat)
    }

    /// A run of such attacks on the same target ([`Sequence`]).
    pub fn sequence(&self) -> Sequence {
        Sequence::new(self)
    }
}

/// A modifier as JSON: `{rule, value, reason}`.
struct ModifierJson(crate::attack::Applied);

impl Serialize for ModifierJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("rule", self.0.modifier.rule())?;
        m.serialize_entry("value", &self.0.value)?;
        m.serialize_entry("reason", &self.0.modifier.reason())?;
        m.end()
    }
}

struct ModifiersJson<'a>(&'a Modifiers);

impl Serialize for ModifiersJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for m in self.0.applied() {
            seq.serialize_element(&ModifierJson(m))?;
        }
        seq.end()
    }
}

/// As JSON: `to_hit`, `modifiers` (a list of `{rule, value, reason}`), the results `miss`, `shaken`, `retreat`,
/// `destroyed` (and `stand` where it applies) as reduced fraction strings such as `"1/6"`, `"0"` or `"1"`, and
/// `hit`, `charge`, `distance`, `strength`, `target_shaken`, `retreat_blocked`, `blocked_retreat`.
impl Serialize for AttackOdds {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let a = &self.assessment;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("to_hit", &a.needed)?;
        m.serialize_entry("modifiers", &ModifiersJson(&a.modifiers))?;
        for (r, p) in self.results() {
            m.serialize_entry(r.name(), &p.to_string())?;
        }
        m.serialize_entry("hit", &self.hit().to_string())?;
        m.serialize_entry("charge", &a.charge)?;
        m.serialize_entry("distance", &a.distance)?;
        m.serialize_entry("strength", &a.strength)?;
        m.serialize_entry("target_shaken", &a.target_shaken)?;
        m.serialize_entry("retreat_blocked", &self.retreat_blocked)?;
        m.serialize_entry("blocked_retreat", self.blocked_retreat.name())?;
        m.end()
    }
}

impl Battle {
    /// The exact odds of an attacking order (Fire, Move & Fire, Fire & Move) by `unit`, as it would be made now:
    /// refused with the rule's id when the order is not legal, like [`Battle::assess_order`], whose assessment it uses.
    ///
    /// Whether the target could retreat (R7.3) is judged from where the attacker stands when the dice are rolled.
    /// For a Move & Fire that changes square the order is carried out on a copy of the battle, brought first to
    /// the point where `unit` chooses its order if it is not there already ([`ready_to_order`]).
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
        Ok(AttackOdds::from_assessment(&a, blocked, self.options().blocked_retreat))
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

/// The state of a target over a run of attacks.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetState {
    /// Steady (R2.4).
    Steady,
    /// Shaken (R2.4): the severe column of R7.1.
    Shaken,
    /// Destroyed.
    Destroyed,
}

/// How likely each [`TargetState`] is, exactly.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StateDistribution {
    /// The target is steady.
    pub steady: Exact,
    /// The target is shaken (whether it retreated or not).
    pub shaken: Exact,
    /// The target is destroyed.
    pub destroyed: Exact,
}

impl StateDistribution {
    /// All the weight on one state.
    pub fn certain(state: TargetState) -> StateDistribution {
        let p = |s| if s == state { Exact::one() } else { Exact::zero() };
        StateDistribution {
            steady: p(TargetState::Steady),
            shaken: p(TargetState::Shaken),
            destroyed: p(TargetState::Destroyed),
        }
    }

    /// The chance of one state.
    pub fn get(&self, state: TargetState) -> &Exact {
        match state {
            TargetState::Steady => &self.steady,
            TargetState::Shaken => &self.shaken,
            TargetState::Destroyed => &self.destroyed,
        }
    }
}

/// As JSON: an object with the fraction strings `steady`, `shaken`, `destroyed`.
impl Serialize for StateDistribution {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("steady", &self.steady.to_string())?;
        m.serialize_entry("shaken", &self.shaken.to_string())?;
        m.serialize_entry("destroyed", &self.destroyed.to_string())?;
        m.end()
    }
}

/// A run of attacks on one target, one after another, with the same modifiers and no activation of the target
/// in between (an activation would rally it, R4.1): a Markov chain on steady → shaken → destroyed.
///
/// Each attack works on the target as it then is: a steady target hit by shooting becomes shaken (R7.1, roll ≤
/// strength) or retreats and becomes shaken (R7.2); a shaken one retreats, staying shaken, or is destroyed; a
/// charge always gives retreat or destroyed. **A retreat counts as shaken and still there**: the next attack is
/// taken to have the same modifiers although the target is one square farther off in reality (and a gun's
/// ranging bonus, R6.4, would be lost by the retreat). A blocked retreat follows R7.4 as the single attack does:
/// destroyed, or standing shaken under `blocked_retreat = stand`, and it stays blocked for every attack.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Sequence {
    /// One attack on the target while it is steady.
    pub on_steady: AttackOdds,
    /// One attack on the target while it is shaken.
    pub on_shaken: AttackOdds,
}

impl Sequence {
    /// The run of attacks like `odds`, whatever the target's state in it.
    pub fn new(odds: &AttackOdds) -> Sequence {
        Sequence { on_steady: odds.with_target_shaken(false), on_shaken: odds.with_target_shaken(true) }
    }

    /// The state the target of `odds` starts in.
    pub fn start(odds: &AttackOdds) -> TargetState {
        if odds.assessment.target_shaken { TargetState::Shaken } else { TargetState::Steady }
    }

    /// The chances that one attack leaves a target in state `from` steady, shaken or destroyed.
    pub fn step(&self, from: TargetState) -> [Prob; 3] {
        let one = |o: &AttackOdds, stay_steady: bool| {
            // A miss, or a hit with no effect (a variant's table), leaves the target as it was.
            let unchanged = o.miss + o.no_effect;
            let shaken = o.shaken + o.retreat + o.stand;
            if stay_steady { [unchanged, shaken, o.destroyed] } else { [ZERO, unchanged + shaken, o.destroyed] }
        };
        match from {
            TargetState::Steady => one(&self.on_steady, true),
            TargetState::Shaken => one(&self.on_shaken, false),
            TargetState::Destroyed => [ZERO, ZERO, Prob::from_integer(1)],
        }
    }

    /// The distribution of the target's state after `attacks` attacks from `start`, exactly.
    pub fn after(&self, start: TargetState, attacks: u32) -> StateDistribution {
        let exact = |p: Prob| Exact::new((*p.numer()).into(), (*p.denom()).into());
        let [ss, sh, sd] = self.step(TargetState::Steady).map(exact);
        let [_, hh, hd] = self.step(TargetState::Shaken).map(exact);
        let mut d = StateDistribution::certain(start);
        for _ in 0..attacks {
            d = StateDistribution {
                steady: &d.steady * &ss,
                shaken: &d.steady * &sh + &d.shaken * &hh,
                destroyed: &d.destroyed + &d.steady * &sd + &d.shaken * &hd,
            };
        }
        d
    }

    /// The expected number of attacks until the target is destroyed, from `start`; `None` if it may never be.
    ///
    /// From shaken, E = 1 / P(destroyed); from steady, E = (1 + P(steady → shaken) · E(shaken)) / (1 − P(miss)).
    pub fn expected_attacks_to_destroy(&self, start: TargetState) -> Option<Exact> {
        let exact = |p: Prob| Exact::new((*p.numer()).into(), (*p.denom()).into());
        let [ss, sh, _] = self.step(TargetState::Steady).map(exact);
        let [_, _, hd] = self.step(TargetState::Shaken).map(exact);
        let from_shaken = (!hd.is_zero()).then(|| hd.recip());
        match start {
            TargetState::Destroyed => Some(Exact::zero()),
            TargetState::Shaken => from_shaken,
            TargetState::Steady => {
                let leave = Exact::one() - &ss;
                if leave.is_zero() {
                    return None;
                }
                let via_shaken = if sh.is_zero() { Exact::zero() } else { sh * from_shaken? };
                Some((Exact::one() + via_shaken) / leave)
            }
        }
    }
}

/// An exact value as a floating-point number, for display.
pub fn approx(x: &Exact) -> f64 {
    x.to_f64().unwrap_or(f64::NAN)
}

/// An attack described by its circumstances instead of by squares on a board: who attacks whom, from how far,
/// and the conditions that change the dice (R6.3, R6.4, R7.1, R7.4).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Situation {
    /// The attacker's arm.
    pub attacker: Arm,
    /// The attacker's quality (it changes nothing in the attack: only the target's strength counts, R7.1).
    pub attacker_quality: Quality,
    /// The target's arm.
    pub target: Arm,
    /// The target's quality (R2.2).
    pub target_quality: Quality,
    /// The distance (R1.2); 1 is a charge (R6.1).
    pub distance: u8,
    /// The attacker has moved this activation: no "did not move" bonus (R6.4). Made as a Fire & Move, which
    /// counts as moved (R4.2); artillery cannot (R4.3).
    pub moved: bool,
    /// The target stands in woods (R6.3a).
    pub cover: bool,
    /// Which side of the target a charge comes from: front, flank or rear (R2.3, R6.4). Front unless a charge.
    pub from: Aspect,
    /// The target is already shaken (R7.1).
    pub target_shaken: bool,
    /// An artillery attacker made its previous attack at this target from here, neither having moved since (R6.4).
    pub ranging: bool,
    /// The target has no square to retreat to (R7.3, R7.4).
    pub blocked: bool,
}

/// A battle set up to produce a [`Situation`], waiting for the attacker's order.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The battle, at the point where the attacker chooses its order (R4.2).
    pub battle: Battle,
    /// The attacking unit.
    pub attacker: UnitId,
    /// The target.
    pub target: UnitId,
    /// The order that makes the attack: Fire, or Fire & Move when the attacker has moved.
    pub order: Action,
}

/// The widest map a synthetic battle needs.
const SYNTHETIC_WIDTH: u8 = 7;

impl Situation {
    /// Regular `attacker` shooting at a regular, steady `target` two squares away in the open, having not moved.
    pub fn new(attacker: Arm, target: Arm) -> Situation {
        Situation {
            attacker,
            attacker_quality: Quality::Regular,
            target,
            target_quality: Quality::Regular,
            distance: 2,
            moved: false,
            cover: false,
            from: Aspect::Front,
            target_shaken: false,
            ranging: false,
            blocked: false,
        }
    }

    /// Whether this is a charge (distance 1, R6.1).
    pub fn charge(&self) -> bool {
        self.distance == 1
    }

    /// The target's strength (R2.2) under `options` (`strength.*`, `quality.*`).
    pub fn target_strength(&self, options: &Options) -> u8 {
        options.strength_of(self.target, self.target_quality)
    }

    /// Refuses combinations the rules make impossible, naming the rule. Others (range, artillery moving) are
    /// refused by the battle itself when the situation is set up.
    fn check(&self, options: &Options) -> Result<(), Illegal> {
        let d = self.distance;
        if d == 0 {
            return Err(Illegal::new(Rule::R6_1, "the distance must be at least 1 (1 is a charge)"));
        }
        if self.from != Aspect::Front && d != 1 {
            return Err(Illegal::new(
                Rule::R6_4,
                format!("the flank or rear bonus is for a charge (distance 1) only; at distance {d} this is shooting"),
            ));
        }
        if self.ranging && self.attacker != Arm::Artillery {
            return Err(Illegal::new(Rule::R6_4, "the ranging bonus is for artillery only"));
        }
        if self.ranging && d == 1 {
            return Err(Illegal::new(
                Rule::R6_4,
                "the ranging bonus is not for a charge: artillery at distance 1 fires canister",
            ));
        }
        let range = options.range.get(self.attacker);
        if d > range {
            return Err(Illegal::new(
                Rule::R6_1,
                format!("distance {d} is beyond {}'s range of {range}", self.attacker.name()),
            ));
        }
        if d + 3 > MAX_SIDE {
            return Err(Illegal::new(
                Rule::R1_1,
                format!("distance {d} does not fit on the largest board ({MAX_SIDE} squares)"),
            ));
        }
        Ok(())
    }

    /// A small battle that produces exactly this situation, waiting for the attacker's order.
    ///
    /// On an open board 7 squares wide, the attacker (side A) stands on row 1 facing north and the target
    /// (side B) `distance` squares straight ahead, facing the attacker, or for a charge from the flank or rear,
    /// facing east or north. Cover puts the target in woods; a blocked retreat puts river on the three squares it
    /// could retreat to. A shaken target is shaken by a real earlier hit from a third unit two squares behind it
    /// (to-hit die 6, hit-result die 1); the ranging bonus comes from a real earlier attack of the gun at the
    /// target (to-hit die 1, a miss). The chance outcomes of these scripted attacks are chosen, not sampled.
    pub fn setup(&self, options: &Options) -> Result<Setup, Illegal> {
        self.setup_under(options, None)
    }

    /// [`Situation::setup`] with the battle played by `system` (a variant's combat system) when given.
    pub fn setup_under(&self, options: &Options, system: Option<&Arc<CombatSystem>>) -> Result<Setup, Illegal> {
        self.check(options)?;
        let d = self.distance;
        let x = SYNTHETIC_WIDTH / 2;
        let (a_at, t_at, h_at) = (Square::new(x, 0), Square::new(x, d), Square::new(x, d + 2));
        let mut map = Map::open(SYNTHETIC_WIDTH, d + 3);
        if self.cover {
            map.set_terrain(t_at, Terrain::Woods);
        }
        if self.blocked {
            for dir in [Dir::W, Dir::N, Dir::E] {
                if let Some(s) = map.step(t_at, dir) {
                    map.set_terrain(s, Terrain::River);
                }
            }
        }
        let t_facing = match (self.charge(), self.from) {
            (true, Aspect::Flank) => Dir::E,
            (true, Aspect::Rear) => Dir::N,
            _ => Dir::S,
        };
        let unit = |name: &str, side, arm, quality, at, facing| UnitInfo {
            name: name.to_string(),
            side,
            arm,
            quality,
            at,
            facing,
            own_arm: None,
        };
        let mut units = vec![
            unit("attacker", Side::A, self.attacker, self.attacker_quality, a_at, Dir::N),
            unit("target", Side::B, self.target, self.target_quality, t_at, t_facing),
        ];
        let (attacker, target, helper) = (UnitId(0), UnitId(1), UnitId(2));
        if self.target_shaken {
            let Some(arm) =
                [Arm::Infantry, Arm::Artillery, Arm::Cavalry].into_iter().find(|&arm| options.range.get(arm) >= 2)
            else {
                return Err(Illegal::new(
                    Rule::R6_1,
                    "no arm has a range of 2 to shake the target with an earlier hit",
                ));
            };
            units.push(unit("helper", Side::A, arm, Quality::Regular, h_at, Dir::S));
        }
        let mut scenario = Scenario::synthetic("odds", map, units, *options)
            .map_err(|e| Illegal::new(Rule::R11, format!("cannot set up the situation: {e}")))?;
        scenario.system = system.cloned();
        let mut battle = Battle::new(Arc::new(scenario), *options);
        if self.ranging {
            battle = scripted_attack(&battle, attacker, target, &[1])?;
        }
        if self.target_shaken {
            battle = scripted_attack(&battle, helper, target, &[6, 1])?;
        }
        let battle = ready_to_order(&battle, attacker)?;
        let order = if self.moved { Action::FireMove { target } } else { Action::Fire { target, facing: Dir::N } };
        Ok(Setup { battle, attacker, target, order })
    }

    /// The exact odds of this attack, from the battle [`Situation::setup`] builds, under `options`.
    pub fn odds(&self, options: &Options) -> Result<AttackOdds, Illegal> {
        self.odds_under(options, None)
    }

    /// [`Situation::odds`] under a variant's combat system when given (`options` should start from
    /// [`CombatSystem::changes_to_standard`]).
    pub fn odds_under(&self, options: &Options, system: Option<&Arc<CombatSystem>>) -> Result<AttackOdds, Illegal> {
        let s = self.setup_under(options, system)?;
        s.battle.attack_odds(s.attacker, &s.order)
    }
}

/// `unit` fires at `target` with the given dice, through the battle's own actions and chance outcomes.
fn scripted_attack(battle: &Battle, unit: UnitId, target: UnitId, dice: &[u8]) -> Result<Battle, Illegal> {
    let mut b = ready_to_order(battle, unit)?;
    b.apply(Action::Fire { target, facing: b.unit(unit).facing })?;
    for &roll in dice {
        b.apply_chance(Outcome::Die(roll))?;
    }
    Ok(b)
}

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
pub fn table(attacker: Arm, moved: bool, options: &Options) -> Result<Vec<TableRow>, Illegal> {
    table_under(attacker, moved, options, None)
}

/// [`table`] under a variant's combat system when given.
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
                    for target_shaken in [false, true] {
                        let situation = Situation {
                            target_quality,
                            distance,
                            moved,
                            cover,
                            target_shaken,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attack::{Cover, Modifier};

    fn p(s: &str) -> Prob {
        match s.split_once('/') {
            Some((n, d)) => Prob::new(n.parse().unwrap(), d.parse().unwrap()),
            None => Prob::from_integer(s.parse().unwrap()),
        }
    }

    fn odds(s: Situation) -> AttackOdds {
        s.odds(&Options::default()).unwrap()
    }

    fn assert_results(o: &AttackOdds, miss: &str, shaken: &str, retreat: &str, destroyed: &str) {
        let got = [o.miss, o.shaken, o.retreat, o.destroyed];
        assert_eq!(got, [p(miss), p(shaken), p(retreat), p(destroyed)], "{o:?}");
        let total: Prob = got.iter().copied().sum::<Prob>() + o.stand;
        assert_eq!(total, Prob::from_integer(1));
    }

    #[test]
    fn odds_r6_4_r7_1_infantry_that_did_not_move_shooting_at_steady_infantry() {
        // Needs 5 − 1 = 4: hit 1/2. Steady, not a charge: 1–4 shaken (4/6), 5–6 retreat (2/6).
        let o = odds(Situation::new(Arm::Infantry, Arm::Infantry));
        assert_eq!(o.to_hit(), 4);
        assert_eq!(o.modifiers().iter().collect::<Vec<_>>(), vec![Modifier::DidNotMove]);
        assert_eq!(o.modifiers().applied().next().unwrap().to_string(), "R6.4 +1 attacker did not move");
        assert_results(&o, "1/2", "1/3", "1/6", "0");
    }

    #[test]
    fn odds_r6_3a_cover_and_moving_cost_a_point_each() {
        // Moved (no bonus) and in woods (−1): needs 6, hit 1/6. Veteran infantry, strength 5, steady.
        let s = Situation {
            moved: true,
            cover: true,
            target_quality: Quality::Veteran,
            ..Situation::new(Arm::Infantry, Arm::Infantry)
        };
        let o = odds(s);
        assert_eq!(o.to_hit(), 6);
        let m: Vec<_> = o.modifiers().iter().collect();
        assert_eq!(m, vec![Modifier::Cover(Cover::Terrain(Terrain::Woods))]);
        assert_eq!(o.modifiers().applied().next().unwrap().to_string(), "R6.3a -1 cover: woods");
        assert_results(&o, "5/6", "5/36", "1/36", "0");
    }

    #[test]
    fn odds_r7_1_shaken_target_retreats_or_is_destroyed() {
        // Shaken regular cavalry (strength 3) shot by infantry that did not move: hit 1/2, then 1–3 retreat, 4–6 destroyed.
        let o = odds(Situation { target_shaken: true, ..Situation::new(Arm::Infantry, Arm::Cavalry) });
        assert!(o.assessment.target_shaken);
        assert_results(&o, "1/2", "0", "1/4", "1/4");
    }

    #[test]
    fn odds_r6_1_r6_4_charges_from_flank_and_rear() {
        // Cavalry charge (distance 1), not moved (+1), from the flank (+1): needs 3, hit 2/3.
        // Green artillery, strength 1: 1 retreat, 2–6 destroyed.
        let s = Situation {
            distance: 1,
            from: Aspect::Flank,
            target_quality: Quality::Green,
            ..Situation::new(Arm::Cavalry, Arm::Artillery)
        };
        let o = odds(s);
        assert!(o.assessment.charge);
        assert_eq!(o.to_hit(), 3);
        assert!(o.modifiers().contains(Modifier::FlankCharge));
        assert_results(&o, "1/3", "0", "1/9", "5/9");
        let rear = odds(Situation { from: Aspect::Rear, moved: true, ..s });
        assert_eq!(rear.modifiers().iter().collect::<Vec<_>>(), vec![Modifier::RearCharge]);
        assert_eq!(rear.to_hit(), 4);
    }

    #[test]
    fn odds_r6_4_canister_and_ranging() {
        // Artillery gets no "did not move" bonus; canister +1 at distance 1 (needs 4).
        let canister = odds(Situation { distance: 1, ..Situation::new(Arm::Artillery, Arm::Infantry) });
        assert_eq!(canister.modifiers().iter().collect::<Vec<_>>(), vec![Modifier::Canister]);
        assert_results(&canister, "1/2", "0", "1/3", "1/6");
        // Ranging +1 at distance 4 after an earlier attack at the same target.
        let s = Situation { distance: 4, ranging: true, ..Situation::new(Arm::Artillery, Arm::Infantry) };
        let ranging = odds(s);
        assert_eq!(ranging.modifiers().iter().collect::<Vec<_>>(), vec![Modifier::Ranging]);
        assert_eq!(ranging.to_hit(), 4);
        let plain = odds(Situation { ranging: false, ..s });
        assert_eq!(plain.to_hit(), 5);
        assert!(plain.modifiers().iter().next().is_none());
    }

    #[test]
    fn odds_r7_4_blocked_retreat_is_destroyed_or_stands() {
        let s = Situation { blocked: true, ..Situation::new(Arm::Infantry, Arm::Infantry) };
        let o = odds(s);
        assert!(o.retreat_blocked);
        assert_results(&o, "1/2", "1/3", "0", "1/6");
        assert!(!o.has_stand());
        let stand = s.odds(&Options { blocked_retreat: BlockedRetreat::Stand, ..Options::default() }).unwrap();
        assert!(stand.has_stand());
        assert_results(&stand, "1/2", "1/3", "0", "0");
        assert_eq!(stand.stand, p("1/6"));
        let names: Vec<_> = stand.results().map(|(r, _)| r.name()).collect();
        assert_eq!(names, ["miss", "shaken", "retreat", "destroyed", "stand"]);
        assert!(!odds(Situation::new(Arm::Infantry, Arm::Infantry)).retreat_blocked);
    }

    #[test]
    fn odds_impossible_situations_are_refused_with_the_rule() {
        let refuse = |s: Situation| s.odds(&Options::default()).unwrap_err().rule;
        let inf = Situation::new(Arm::Infantry, Arm::Infantry);
        assert_eq!(refuse(Situation { from: Aspect::Flank, ..inf }), "R6.4");
        assert_eq!(refuse(Situation { ranging: true, ..inf }), "R6.4");
        assert_eq!(
            refuse(Situation { ranging: true, distance: 1, ..Situation::new(Arm::Artillery, Arm::Infantry) }),
            "R6.4"
        );
        assert_eq!(refuse(Situation { distance: 3, ..inf }), "R6.1");
        assert_eq!(refuse(Situation { distance: 0, ..inf }), "R6.1");
        assert_eq!(refuse(Situation::new(Arm::Cavalry, Arm::Infantry)), "R6.1");
        assert_eq!(refuse(Situation { moved: true, ..Situation::new(Arm::Artillery, Arm::Infantry) }), "R4.3");
    }

    #[test]
    fn odds_sequence_of_attacks_by_hand() {
        // Infantry that did not move at regular infantry: steady → shaken 1/2, stays 1/2; shaken → destroyed 1/6.
        let run = odds(Situation::new(Arm::Infantry, Arm::Infantry)).sequence();
        assert_eq!(run.step(TargetState::Steady), [p("1/2"), p("1/2"), p("0")]);
        assert_eq!(run.step(TargetState::Shaken), [p("0"), p("5/6"), p("1/6")]);
        let e = |s: &str| s.parse::<Exact>().unwrap();
        let two = run.after(TargetState::Steady, 2);
        assert_eq!((two.steady.clone(), two.shaken.clone(), two.destroyed.clone()), (e("1/4"), e("2/3"), e("1/12")));
        assert_eq!(run.after(TargetState::Steady, 0), StateDistribution::certain(TargetState::Steady));
        // E(shaken) = 6; E(steady) = (1 + 1/2 · 6) / (1/2) = 8.
        assert_eq!(run.expected_attacks_to_destroy(TargetState::Shaken), Some(e("6")));
        assert_eq!(run.expected_attacks_to_destroy(TargetState::Steady), Some(e("8")));
        let json = serde_json::to_value(&two).unwrap();
        assert_eq!(json, serde_json::json!({"steady": "1/4", "shaken": "2/3", "destroyed": "1/12"}));
    }

    #[test]
    fn odds_sequence_r7_4_blocked_charge_destroys_on_any_hit_result() {
        // A charge (needs 4) at blocked regular infantry: retreat is destroyed, so every hit destroys (1/2 each time).
        let s = Situation { distance: 1, blocked: true, ..Situation::new(Arm::Infantry, Arm::Infantry) };
        let run = odds(s).sequence();
        let e = |s: &str| s.parse::<Exact>().unwrap();
        assert_eq!(run.after(TargetState::Steady, 3).destroyed, e("7/8"));
        assert_eq!(run.expected_attacks_to_destroy(TargetState::Steady), Some(e("2")));
        // Under `stand` a blocked charge never destroys on 1–4: the target just stays shaken.
        let stand = s.odds(&Options { blocked_retreat: BlockedRetreat::Stand, ..Options::default() }).unwrap();
        let after = stand.sequence().after(TargetState::Steady, 1);
        assert_eq!((after.shaken, after.destroyed), (e("1/3"), e("1/6")));
    }

    #[test]
    fn odds_sequences_are_exact_for_long_runs() {
        let run = odds(Situation { cover: true, ..Situation::new(Arm::Artillery, Arm::Infantry) }).sequence();
        let d = run.after(TargetState::Steady, 60);
        assert_eq!(&d.steady + &d.shaken + &d.destroyed, Exact::one());
        assert!(d.steady.denom().bits() > 64);
    }

    #[test]
    fn odds_from_events_reads_each_result() {
        use crate::geometry::Square;
        let (u, sq) = (UnitId(1), Square::new(0, 0));
        let hit = |result| Event::HitResultRolled { unit: u, roll: 3, strength: 4, result };
        let to_hit = Event::ToHitRolled { roll: 6, hit: true };
        let cases = [
            (vec![to_hit, hit(HitResult::Shaken), Event::Shaken { unit: u }], AttackResult::Shaken),
            (
                vec![to_hit, hit(HitResult::Retreat), Event::Retreated { unit: u, from: sq, to: sq }],
                AttackResult::Retreat,
            ),
            (
                vec![to_hit, hit(HitResult::Retreat), Event::RetreatBlocked { unit: u }, Event::Destroyed { unit: u }],
                AttackResult::Destroyed,
            ),
            (
                vec![to_hit, hit(HitResult::Retreat), Event::RetreatBlocked { unit: u }, Event::Shaken { unit: u }],
                AttackResult::Stand,
            ),
            (vec![to_hit, hit(HitResult::Destroyed), Event::Destroyed { unit: u }], AttackResult::Destroyed),
        ];
        for (events, want) in cases {
            assert_eq!(AttackResult::from_events(&events), Some(want));
        }
        assert_eq!(AttackResult::from_events(&[]), None);
    }

    #[test]
    fn odds_table_covers_every_case() {
        let rows = table(Arm::Infantry, false, &Options::default()).unwrap();
        assert_eq!(rows.len(), 3 * 3 * 2 * 2 * 2);
        for r in &rows {
            let total: Prob = r.odds.results().map(|(_, p)| p).sum();
            assert_eq!(total, Prob::from_integer(1));
            assert_eq!(r.odds.assessment.strength, r.situation.target_strength(&Options::default()));
            assert_eq!(r.odds.assessment.target_shaken, r.situation.target_shaken);
            assert_eq!(r.odds.assessment.charge, r.situation.charge());
        }
        // Cavalry (range 1) only charges.
        assert_eq!(table(Arm::Cavalry, false, &Options::default()).unwrap().len(), 36);
    }

    #[test]
    fn odds_json_names_each_result_and_modifier() {
        let o = odds(Situation { cover: true, ..Situation::new(Arm::Infantry, Arm::Infantry) });
        let v = serde_json::to_value(o).unwrap();
        assert_eq!(v["to_hit"], 5);
        assert_eq!(v["miss"], "2/3");
        assert_eq!(v["destroyed"], "0");
        assert!(v.get("stand").is_none());
        assert_eq!(
            v["modifiers"],
            serde_json::json!([
                {"rule": "R6.4", "value": 1, "reason": "attacker did not move"},
                {"rule": "R6.3a", "value": -1, "reason": "cover: woods"}
            ])
        );
    }
}
