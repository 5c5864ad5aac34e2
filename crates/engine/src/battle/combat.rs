//! Attacks on the board: range, front arc, line of sight, cover, modifiers and retreats (docs/rules.md R6, R7.3).

use super::Battle;
use super::ScenarioRef;
use super::movement::Occupancy;
use crate::action::{Action, Illegal};
use crate::attack::{AttackKind, Cover, HitResult, Modifier, Modifiers, Steadiness, needed};
use crate::geometry::{Aspect, Dir, Square, aspect, in_front_arc};
use crate::map::Map;
use crate::options::StandardModifier;
use crate::rule::Rule;
use crate::system::condition::{AttackFacts, UnitFacts};
use crate::system::{Aftermath, CombatSystem, ResultTable, first_forbidding, result_modifiers};
use crate::unit::{Arm, Side, UnitId};
use serde::{Deserialize, Serialize};

/// Everything an attack needs before its dice: who, whether it is a charge, the modifiers and the number needed.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct AttackAssessment {
    /// The attacking unit.
    pub attacker: UnitId,
    /// The target.
    pub target: UnitId,
    /// The distance (R1.2).
    pub distance: u8,
    /// An attack at distance 1 (R6.1).
    pub charge: bool,
    /// The modifiers (R6.3, R6.4).
    pub modifiers: Modifiers,
    /// The number needed on the die (R6.4).
    pub needed: u8,
    /// The target's strength (R2.2).
    pub strength: u8,
    /// Whether the target is shaken now.
    pub target_shaken: bool,
    /// The hit-result table the attack is resolved by (R7.1): the standard one, or the scenario's combat system's.
    #[serde(skip, default = "standard_results")]
    pub results: ResultTable,
    /// What the attack would do to the attacker, for each result of its dice (a variant's `[[after_attack]]`;
    /// nothing under the standard rules).
    #[serde(skip)]
    pub aftermath: Aftermath,
    /// What a variant's result modifiers add to the strength the target's roll is tested against (R7.1,
    /// `[[result_modifiers]]`): 0 under the standard rules.
    #[serde(skip)]
    pub result_modifier: i8,
    /// Which of them apply, a bit each by its place among the system's.
    #[serde(skip)]
    pub result_modifiers: u8,
}

fn standard_results() -> ResultTable {
    ResultTable::STANDARD
}

impl AttackAssessment {
    /// The number the target's hit-result roll is tested against: its strength, with the variant's result
    /// modifiers (R7.1); at most it holds on every face, at 0 on none.
    pub const fn tested_strength(&self) -> u8 {
        let tested = self.strength as i8 + self.result_modifier;
        if tested < 0 { 0 } else { tested as u8 }
    }

    /// What a hit does when the target's roll is at most its strength and when above (R7.1).
    pub const fn result_row(&self) -> [HitResult; 2] {
        self.results.row(self.target_state(), self.kind())
    }

    /// Fire or a charge (R6.1).
    pub const fn kind(&self) -> AttackKind {
        AttackKind::of(self.charge)
    }

    /// The target's state before the dice (R2.4).
    pub const fn target_state(&self) -> Steadiness {
        Steadiness::of(self.target_shaken)
    }
}

/// How the line of sight enters the target's square: across one edge, or exactly at a corner between two.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Entry {
    Edge(Dir),
    Corner(Dir, Dir),
}

/// Walks the squares the segment between two square centres passes through (R6.2), exact in integers.
/// `blocks` is asked about each square strictly between the ends; at an exact corner the two squares beside the
/// corner block only together. Returns how the line enters the target square, or the first square that blocks it
/// (at a corner, the one beside it along x).
fn trace(from: Square, to: Square, mut blocks: impl FnMut(Square) -> bool) -> Result<Entry, Square> {
    let (dx, dy) = (to.x as i16 - from.x as i16, to.y as i16 - from.y as i16);
    let (nx, ny) = (dx.abs(), dy.abs());
    let (sx, sy) = (dx.signum(), dy.signum());
    let (mut x, mut y) = (from.x as i16, from.y as i16);
    let (mut ix, mut iy) = (0, 0);
    let dir_x = if sx > 0 { Dir::W } else { Dir::E }; // the target-side edge crossed moving in x
    let dir_y = if sy > 0 { Dir::S } else { Dir::N };
    let at = |x: i16, y: i16| Square::new(x as u8, y as u8);
    while ix < nx || iy < ny {
        let decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
        let entry = if decision == 0 {
            let (beside_x, beside_y) = (blocks(at(x + sx, y)), blocks(at(x, y + sy)));
            if beside_x && beside_y {
                return Err(at(x + sx, y));
            }
            x += sx;
            y += sy;
            ix += 1;
            iy += 1;
            Entry::Corner(dir_x, dir_y)
        } else if decision < 0 {
            x += sx;
            ix += 1;
            Entry::Edge(dir_x)
        } else {
            y += sy;
            iy += 1;
            Entry::Edge(dir_y)
        };
        if (x, y) == (to.x as i16, to.y as i16) {
            return Ok(entry);
        }
        if blocks(at(x, y)) {
            return Err(at(x, y));
        }
    }
    Ok(Entry::Edge(Dir::N)) // from == to: never asked for by the rules
}

/// Whether a fence lies on the target's edge the line of sight enters by (R6.3c).
fn fence_on_entry(map: &Map, target: Square, entry: Entry) -> bool {
    match entry {
        Entry::Edge(d) => map.fence(target, d),
        Entry::Corner(a, b) => map.fence(target, a) || map.fence(target, b),
    }
}

/// An attack found legal: its distance and how its line of sight enters the target's square (for the fence, R6.3c).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Sighted {
    distance: u8,
    entry: Entry,
}

/// How an attack stands before its dice, as the built-in rules read it ([`Battle::circumstances`]).
#[derive(Copy, Clone, Debug)]
struct Circumstances {
    charge: bool,
    gun: bool,
    ranging: bool,
    side_on: Option<Aspect>,
    cover: Option<Cover>,
}

/// Why an attack may not be made (R6.1, R6.2, or a variant's restriction); put into words by [`Battle::assess`].
#[derive(Copy, Clone, Debug)]
pub(crate) enum Refusal {
    NotAnEnemy,
    /// A variant's restriction forbids it, by its place among the system's.
    Forbidden(u8),
    OutOfRange {
        distance: u8,
        range: u8,
    },
    OutOfArc,
    NoSight {
        blocked_at: Square,
    },
}

/// Lines of sight in a battle as its units stand ([`Battle::sight_lines`]).
pub struct SightLines<'a, S: ScenarioRef> {
    battle: &'a Battle<S>,
    occ: Occupancy,
}

impl<S: ScenarioRef> SightLines<'_, S> {
    /// As [`Battle::line_of_sight`]: `Ok`, or the first square that blocks the line (R6.2).
    ///
    /// # Errors
    /// The first square that blocks the line (R6.2).
    pub fn check(&self, attacker: UnitId, from: Square, to: Square) -> Result<(), Square> {
        self.battle.sight(attacker, from, to, &self.occ).map(|_| ())
    }
}

impl<S: ScenarioRef> Battle<S> {
    /// The line of sight from `from` (where `attacker` stands or will stand) to `to`, or the square that blocks it
    /// (R6.2).
    fn sight(&self, attacker: UnitId, from: Square, to: Square, occ: &Occupancy) -> Result<Entry, Square> {
        let map = &self.scenario.map;
        let gun = self.info(attacker).arm == Arm::Artillery;
        let (e_from, e_to) = (map.elevation(from), map.elevation(to));
        let own_square = self.units[attacker.index()].at; // empty once a Move & Fire has left it
        trace(from, to, |s| {
            let high = map.elevation(s);
            let held = occ.all.contains(s) && s != own_square;
            let unit_blocks = held && !(gun && e_from > high);
            map.blocks_sight(s) || unit_blocks || (high > e_from && high > e_to)
        })
    }

    /// Whether `attacker`, standing on `from`, would see the centre of `to` as the units stand now (R6.2): `Ok`, or
    /// the first square that blocks the line (for showing it on the board; a target still has to be in range and
    /// in the front arc to be attacked).
    ///
    /// # Errors
    /// The first square that blocks the line (R6.2).
    pub fn line_of_sight(&self, attacker: UnitId, from: Square, to: Square) -> Result<(), Square> {
        let occ = self.occupancy(self.info(attacker).side);
        self.sight(attacker, from, to, &occ).map(|_| ())
    }

    /// Lines of sight as the units stand now, for asking about many of them: where the units stand is read once.
    pub fn sight_lines(&self) -> SightLines<'_, S> {
        SightLines { battle: self, occ: self.occupancy(Side::A) }
    }

    /// Why `square` blocks the line of sight from `from` to `to` (R6.2a–c), in words.
    fn why_blocks(&self, attacker: UnitId, from: Square, to: Square, square: Square) -> String {
        let map = &self.scenario.map;
        if map.blocks_sight(square) {
            return format!("{}, R6.2a", map.terrain_name(square));
        }
        let high = map.elevation(square);
        if high > map.elevation(from) && high > map.elevation(to) {
            return format!("higher ground, elevation {high}, R6.2c");
        }
        match self.unit_at(square).filter(|&u| u != attacker) {
            Some(u) => format!("{} stands there, R6.2b", self.side_and_name(u)),
            None => "R6.2".to_string(),
        }
    }

    /// Checks that `attacker`, standing on `from` and facing `facing`, may attack `target` (R6.1, R6.2), and
    /// works out the charge, cover and modifiers (R6.3, R6.4). `moved` says whether it has moved this activation.
    pub(crate) fn assess(
        &self,
        attacker: UnitId,
        from: Square,
        facing: Dir,
        target: UnitId,
        moved: bool,
        occ: &Occupancy,
    ) -> Result<AttackAssessment, Illegal> {
        self.try_assess(attacker, from, facing, target, moved, occ).map_err(|refusal| {
            // Both units by side and name: the two armies may have units of the same name.
            let (a_name, t_name, t_at) =
                (self.side_and_name(attacker), self.side_and_name(target), self.unit(target).at);
            match refusal {
                Refusal::NotAnEnemy => Illegal::new(Rule::R6_1, "the target must be an enemy unit on the board"),
                Refusal::Forbidden(i) => {
                    let said = self.scenario.system().restrictions().get(i as usize).map(|r| (&r.id, &r.name));
                    let (id, name) =
                        said.map_or(("variant".to_string(), String::new()), |(id, name)| (id.clone(), name.clone()));
                    let reason = format!("{name}: this variant forbids {a_name} this attack on {t_name}");
                    Illegal::by_variant(id, Rule::R4_2, reason)
                }
                Refusal::OutOfRange { distance, range } => Illegal::new(
                    Rule::R6_1,
                    format!("{t_name} is {distance} squares away; {a_name}'s range is {range}"),
                ),
                Refusal::OutOfArc => Illegal::new(
                    Rule::R6_1,
                    format!("{t_name} at {t_at} is not in the front arc of {a_name} at {from} facing {facing} (R2.3)"),
                ),
                Refusal::NoSight { blocked_at } => Illegal::new(
                    Rule::R6_2,
                    format!(
                        "no line of sight from {from} to {t_at}: {blocked_at} blocks it ({})",
                        self.why_blocks(attacker, from, t_at, blocked_at)
                    ),
                ),
            }
        })
    }

    /// As [`Battle::assess`], with the refusal left unworded: the legal actions try many attacks that fail.
    pub(crate) fn try_assess(
        &self,
        attacker: UnitId,
        from: Square,
        facing: Dir,
        target: UnitId,
        moved: bool,
        occ: &Occupancy,
    ) -> Result<AttackAssessment, Refusal> {
        let sighted = self.may_attack(attacker, from, facing, target, occ)?;
        if let Some(rule) = self.forbidden(attacker, from, target, moved, sighted) {
            return Err(Refusal::Forbidden(rule));
        }
        Ok(self.assessment(attacker, from, target, moved, sighted))
    }

    /// An attack for the list of legal actions, its target's sight from `from` found beforehand by
    /// [`Battle::in_sight`] (the same for every facing): `None` if it may not be made, else its assessment when
    /// `ASSESS`. Inlined into the listing's loops, which call it for every facing and target (docs/PERFORMANCE.md).
    #[inline(always)]
    pub(crate) fn listed_attack<const ASSESS: bool>(
        &self,
        attacker: UnitId,
        from: Square,
        facing: Dir,
        target: UnitId,
        moved: bool,
        sighted: Option<Sighted>,
    ) -> Option<Option<AttackAssessment>> {
        let sighted = sighted?;
        if !in_front_arc(from, facing, self.units[target.index()].at) {
            return None;
        }
        if self.forbidden(attacker, from, target, moved, sighted).is_some() {
            return None;
        }
        Some(ASSESS.then(|| self.assessment(attacker, from, target, moved, sighted)))
    }

    /// Whether `attacker`, standing on `from` and facing `facing`, may attack `target` (R6.1, R6.2): the legality
    /// of an attack alone, refused for the first rule it breaks.
    pub(crate) fn may_attack(
        &self,
        attacker: UnitId,
        from: Square,
        facing: Dir,
        target: UnitId,
        occ: &Occupancy,
    ) -> Result<Sighted, Refusal> {
        self.attack_from(attacker, from, Some(facing), target, occ)
    }

    /// Whether `target` is an enemy in range and in sight of `attacker` standing on `from`, whichever way it faces
    /// (R6.1, R6.2): what the attacks from one square share.
    pub(crate) fn in_sight(
        &self,
        attacker: UnitId,
        from: Square,
        target: UnitId,
        occ: &Occupancy,
    ) -> Result<Sighted, Refusal> {
        self.attack_from(attacker, from, None, target, occ)
    }

    /// Range, then the front arc of `facing` if given, then the line of sight (R6.1, R6.2).
    fn attack_from(
        &self,
        attacker: UnitId,
        from: Square,
        facing: Option<Dir>,
        target: UnitId,
        occ: &Occupancy,
    ) -> Result<Sighted, Refusal> {
        let distance = self.in_range(attacker, from, target)?;
        let at = self.units[target.index()].at;
        if facing.is_some_and(|facing| !in_front_arc(from, facing, at)) {
            return Err(Refusal::OutOfArc);
        }
        let entry = self.sight(attacker, from, at, occ).map_err(|blocked_at| Refusal::NoSight { blocked_at })?;
        Ok(Sighted { distance, entry })
    }

    /// The distance to `target` if it is an enemy on the board within `attacker`'s range from `from` (R6.1).
    fn in_range(&self, attacker: UnitId, from: Square, target: UnitId) -> Result<u8, Refusal> {
        let a_info = self.info(attacker);
        let t_state = self.unit(target);
        if !t_state.alive || self.info(target).side == a_info.side {
            return Err(Refusal::NotAnEnemy);
        }
        let distance = from.distance(t_state.at);
        let range = self.range(attacker);
        if distance > range {
            return Err(Refusal::OutOfRange { distance, range });
        }
        Ok(distance)
    }

    /// How an attack found legal by [`Battle::may_attack`] stands before its dice, as the built-in rules read it:
    /// a charge or not, ranging, the side a charge comes from, the target's cover (R6.3, R6.4). Inlined: called
    /// apart, its result went through memory and cost a greedy game 1% of its instructions (docs/PERFORMANCE.md).
    #[inline(always)]
    fn circumstances(&self, attacker: UnitId, from: Square, target: UnitId, sighted: Sighted) -> Circumstances {
        let t_state = self.unit(target);
        let charge = sighted.distance == 1;
        let map = &self.scenario.map;
        let gun = self.info(attacker).arm == Arm::Artillery;
        let a_state = self.unit(attacker);
        let ranging = gun && !charge && a_state.ranging_on() == Some(target) && a_state.at == from;
        let side_on = if charge { aspect(t_state.at, t_state.facing, from) } else { None };
        let cover = if map.gives_cover(t_state.at) {
            Some(Cover::Terrain(map.terrain(t_state.at)))
        } else if charge && map.elevation(t_state.at) > map.elevation(from) {
            Some(Cover::Uphill)
        } else if !charge && fence_on_entry(map, t_state.at, sighted.entry) {
            Some(Cover::Fence)
        } else {
            None
        };
        Circumstances { charge, gun, ranging, side_on, cover }
    }

    /// The facts a variant's conditions are decided by, of an attack standing as `c` says (docs/variants.md).
    fn facts(
        &self,
        attacker: UnitId,
        from: Square,
        target: UnitId,
        moved: bool,
        sighted: Sighted,
        c: &Circumstances,
    ) -> AttackFacts {
        let map = &self.scenario.map;
        let (a_info, t_info) = (self.info(attacker), self.info(target));
        let (a_state, t_state) = (self.unit(attacker), self.unit(target));
        let (a_height, t_height) = (map.elevation(from), map.elevation(t_state.at));
        AttackFacts {
            charge: c.charge,
            distance: sighted.distance,
            flank: c.side_on == Some(Aspect::Flank),
            rear: c.side_on == Some(Aspect::Rear),
            ranging: c.ranging,
            attacker: UnitFacts {
                arm: a_info.arm_place(),
                quality: a_info.quality,
                moved,
                shaken: a_state.shaken,
                higher: a_height > t_height,
            },
            target: UnitFacts {
                arm: t_info.arm_place(),
                quality: t_info.quality,
                moved: false,
                shaken: t_state.shaken,
                higher: t_height > a_height,
            },
            target_cover: c.cover.is_some(),
            target_terrain: map.terrain(t_state.at),
            target_behind_fence: fence_on_entry(map, t_state.at, sighted.entry),
            result: None,
        }
    }

    /// The first of the variant's restrictions that forbids this attack, by its place (`[[restrictions]]`): the one
    /// predicate both the judge of an order ([`Battle::try_assess`]) and the list of legal actions
    /// ([`Battle::listed_attack`]) ask, so that a restriction is written once. `None` under rules without any on
    /// attacks (restrictions on orders are asked of the order, [`Battle::order_forbidden`]): that
    /// test is inlined into the listing's loops, the conditions' reading kept apart ([`Battle::first_restriction`])
    /// so that the loops stay as small as the standard rules need.
    #[inline(always)]
    fn forbidden(&self, attacker: UnitId, from: Square, target: UnitId, moved: bool, sighted: Sighted) -> Option<u8> {
        let system = self.scenario.system();
        if !system.restricts_attacks() {
            return None;
        }
        self.first_restriction(system, attacker, from, target, moved, sighted)
    }

    /// The first of `system`'s restrictions that forbids this attack, by its place ([`Battle::forbidden`]).
    #[inline(never)]
    fn first_restriction(
        &self,
        system: &CombatSystem,
        attacker: UnitId,
        from: Square,
        target: UnitId,
        moved: bool,
        sighted: Sighted,
    ) -> Option<u8> {
        let c = self.circumstances(attacker, from, target, sighted);
        first_forbidding(system.restrictions(), &self.facts(attacker, from, target, moved, sighted, &c))
    }

    /// The charge, cover and modifiers of an attack found legal by [`Battle::may_attack`] (R6.3, R6.4), its
    /// hit-result table and what it would do to the attacker, by the combat system in force. `moved` says whether
    /// the attacker has moved this activation.
    fn assessment(
        &self,
        attacker: UnitId,
        from: Square,
        target: UnitId,
        moved: bool,
        sighted: Sighted,
    ) -> AttackAssessment {
        let c = self.circumstances(attacker, from, target, sighted);
        let system = self.scenario.system();
        // The facts are read only for rules that need them: the standard rules' modifiers are decided without.
        let facts = system.reads_attack_facts().then(|| self.facts(attacker, from, target, moved, sighted, &c));
        let modifiers = self.modifiers(system, &c, moved, facts.as_ref());
        let (aftermath, (result_modifiers, result_modifier)) = match &facts {
            Some(facts) => {
                (Aftermath::of(system.after_attack(), facts), result_modifiers(system.result_modifiers(), facts))
            }
            None => (Aftermath::default(), (0, 0)),
        };
        AttackAssessment {
            attacker,
            target,
            distance: sighted.distance,
            charge: c.charge,
            modifiers,
            needed: needed(self.options.to_hit, modifiers.total()),
            strength: self.strength(target),
            target_shaken: self.unit(target).shaken,
            results: *system.results(),
            aftermath,
            result_modifier,
            result_modifiers,
        }
    }

    /// The to-hit modifiers of an attack standing as `c` says (R6.3, R6.4): each of the system's whose condition
    /// holds, in its order, at the value the options give it (R11); one worth 0 is left out. The standard five, whose
    /// places come first in every system, are decided here as the rules are written while their conditions are the
    /// standard ones, and named as the engine names them; every other is decided by its condition over `facts`,
    /// which the system reads for them. The loop over the five is unrolled, each place's test known.
    #[inline(always)]
    fn modifiers(
        &self,
        system: &CombatSystem,
        c: &Circumstances,
        moved: bool,
        facts: Option<&AttackFacts>,
    ) -> Modifiers {
        let mut modifiers = Modifiers::default();
        let rules = system.modifiers();
        let by_condition = |i: usize| {
            let holds = facts.zip(rules.get(i)).is_some_and(|(f, rule)| rule.when.holds(f));
            holds.then_some(Modifier::Own(i as u8))
        };
        let standard_places = system.standard_places();
        for (i, b) in StandardModifier::ALL.into_iter().enumerate() {
            let modifier = match standard_places & 1 << i {
                0 => by_condition(i),
                _ => Self::standard_modifier(b, c, moved),
            };
            if let Some(m) = modifier {
                modifiers.push_valued(m, self.options.modifier.get(b));
            }
        }
        for (i, rule) in rules.iter().enumerate().skip(StandardModifier::ALL.len()) {
            if let Some(m) = by_condition(i) {
                modifiers.push_valued(m, rule.value_under(i, &self.options));
            }
        }
        modifiers
    }

    /// The standard modifier `b` in an attack standing as `c` says, if its standard condition holds (R6.3, R6.4):
    /// exactly what its condition in `rules/standard.toml` says, which a test checks.
    fn standard_modifier(b: StandardModifier, c: &Circumstances, moved: bool) -> Option<Modifier> {
        match b {
            StandardModifier::NotMoved => (!moved && !c.gun).then_some(Modifier::DidNotMove),
            StandardModifier::Canister => (c.gun && c.charge).then_some(Modifier::Canister),
            StandardModifier::Ranging => c.ranging.then_some(Modifier::Ranging),
            StandardModifier::FlankRear => match (c.charge, c.side_on) {
                (true, Some(Aspect::Flank)) => Some(Modifier::FlankCharge),
                (true, Some(Aspect::Rear)) => Some(Modifier::RearCharge),
                _ => None,
            },
            StandardModifier::Cover => c.cover.map(Modifier::Cover),
        }
    }

    /// The assessment of an attacking order (Fire, Move & Fire, Fire & Move) by `unit`, exactly as the attack
    /// would be made: checked against the rules, with its modifiers and the number needed (R4.2, R6).
    ///
    /// # Errors
    /// When the order is not an attack, or `unit` may not make it now: the [`Illegal`] cites the rule.
    pub fn assess_order(&self, unit: UnitId, order: &Action) -> Result<AttackAssessment, Illegal> {
        if unit.0 >= self.unit_count() {
            return Err(Illegal::new(Rule::R6_1, format!("there is no unit {}", unit.0)));
        }
        let state = self.unit(unit);
        if !state.alive {
            return Err(Illegal::new(Rule::R6_1, format!("{} is not on the board", self.info(unit).name)));
        }
        self.check_order(unit, *order)?;
        let occ = self.occupancy(self.info(unit).side);
        match *order {
            Action::Fire { target, facing } => self.assess(unit, state.at, facing, target, false, &occ),
            Action::MoveFire { to, facing, target } => self.assess(unit, to, facing, target, true, &occ),
            Action::FireMove { target } => self.assess(unit, state.at, state.facing, target, true, &occ),
            _ => Err(Illegal::new(Rule::R4_2, format!("{} is not an attacking order", order.order_name()))),
        }
    }

    /// The square a unit retreats to when hit by `attacker`, or `None` when it has none (R7.3).
    pub fn retreat_square(&self, unit: UnitId, attacker: UnitId) -> Option<Square> {
        let map = &self.scenario.map;
        let at = self.unit(unit).at;
        let from = self.unit(attacker).at;
        let home = self.scenario.side(self.info(unit).side).home;
        let (ox, oy) = (at.x as i16 - from.x as i16, at.y as i16 - from.y as i16);
        let straight = |d: Dir| {
            let (dx, dy) = d.delta();
            let along_x = ox.abs() >= oy.abs() && ox != 0 && dx as i16 == ox.signum();
            let along_y = oy.abs() >= ox.abs() && oy != 0 && dy as i16 == oy.signum();
            along_x || along_y
        };
        self.retreat_steps(at, from)
            .min_by_key(|&(d, s)| {
                let toward_home = map.distance_to_edge(s, home) < map.distance_to_edge(at, home);
                (!straight(d), !toward_home, d.index())
            })
            .map(|(_, s)| s)
    }

    /// Whether a unit hit by `attacker` has a square to retreat to (R7.3): [`Battle::retreat_square`] is `Some`,
    /// found without choosing among the squares.
    pub fn can_retreat(&self, unit: UnitId, attacker: UnitId) -> bool {
        self.retreat_steps(self.unit(unit).at, self.unit(attacker).at).next().is_some()
    }

    /// The steps a unit on `at` hit from `from` may retreat by: onto an empty, passable square farther from the
    /// attacker (R7.3).
    fn retreat_steps(&self, at: Square, from: Square) -> impl Iterator<Item = (Dir, Square)> + '_ {
        let map = &self.scenario.map;
        Dir::ALL.into_iter().filter_map(move |d| map.step(at, d).map(|s| (d, s))).filter(move |&(_, s)| {
            // The search for a unit there last: it is the dearest test.
            map.passable(s) && s.distance(from) > at.distance(from) && self.unit_at(s).is_none()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::ModifierKind;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn path(from: &str, to: &str) -> Vec<Square> {
        let mut seen = vec![];
        let clear = trace(sq(from), sq(to), |s| {
            seen.push(s);
            false
        });
        assert!(clear.is_ok(), "nothing blocks");
        seen
    }

    /// The standard modifiers decided as the rules are written ([`Battle::standard_modifier`]) are exactly what
    /// their conditions in `rules/standard.toml` say, over every attack listed in walks through shipped battles: the
    /// standard rules played without reading those conditions are the standard file.
    #[test]
    fn the_standard_modifiers_are_decided_exactly_as_the_standard_file_s_conditions_say() {
        use crate::perft::{Step, steps};
        let system = &*CombatSystem::shared_standard();
        // The standard five have the first places, in their order: the battle's loop over them relies on it.
        let kinds: Vec<ModifierKind> = system.modifiers().iter().map(|m| m.kind).collect();
        assert_eq!(kinds, StandardModifier::ALL.map(ModifierKind::Standard));
        let mut held = [0u32; 5];
        for name in ["meeting-engagement", "bloody-lane", "maryes-heights", "mcpherson-ridge", "brandy-station"] {
            let crate::Shipped { file, text, .. } = crate::shipped_named(crate::offered_scenarios(), name).unwrap();
            let scenario = std::sync::Arc::new(crate::Scenario::parse(text, file).unwrap());
            let mut battle = crate::Battle::from_scenario(scenario);
            for k in 0..2000usize {
                let options = steps(&battle);
                if options.is_empty() {
                    break;
                }
                if let Some(unit) = battle.active_unit().filter(|_| matches!(battle.to_act(), crate::ToAct::Side(_))) {
                    let at = battle.unit(unit).at;
                    let occ = battle.occupancy(battle.info(unit).side);
                    for action in battle.legal_actions() {
                        let (from, moved, target) = match action {
                            Action::Fire { target, .. } => (at, false, target),
                            Action::MoveFire { to, target, .. } => (to, true, target),
                            Action::FireMove { target } => (at, true, target),
                            _ => continue,
                        };
                        let sighted = battle.in_sight(unit, from, target, &occ).expect("a listed attack is in sight");
                        let c = battle.circumstances(unit, from, target, sighted);
                        let facts = battle.facts(unit, from, target, moved, sighted, &c);
                        for rule in system.modifiers() {
                            let ModifierKind::Standard(b) = rule.kind else { panic!("{} is standard", rule.id) };
                            let native = Battle::<std::sync::Arc<crate::Scenario>>::standard_modifier(b, &c, moved);
                            assert_eq!(
                                native.is_some(),
                                rule.when.holds(&facts),
                                "{name} step {k}: {} in {action:?}",
                                rule.id
                            );
                            held[StandardModifier::ALL.iter().position(|&m| m == b).unwrap()] +=
                                native.is_some() as u32;
                        }
                    }
                }
                match crate::perft::fighting_step(&options, k, 3) {
                    Step::Decision(action) => battle.apply(action).map(|_| ()).unwrap(),
                    Step::Chance(outcome) => battle.apply_chance(outcome).map(|_| ()).unwrap(),
                }
            }
        }
        assert!(held.iter().all(|&n| n > 0), "the walk reached every standard modifier holding: {held:?}");
    }

    #[test]
    fn r6_2_trace_passes_through_the_squares_between_centres() {
        assert_eq!(path("a1", "a4"), vec![sq("a2"), sq("a3")]);
        assert_eq!(path("a1", "c2"), vec![sq("b1"), sq("b2")]);
        // An exact diagonal passes through corners: the squares beside each corner are asked in pairs.
        assert_eq!(path("a1", "c3"), vec![sq("b1"), sq("a2"), sq("b2"), sq("c2"), sq("b3")]);
    }

    #[test]
    fn r6_2_a_corner_blocks_only_if_both_squares_beside_it_block() {
        let one = |blocked: &[&str]| trace(sq("a1"), sq("b2"), |s| blocked.iter().any(|b| sq(b) == s)).is_ok();
        assert!(one(&[]));
        assert!(one(&["b1"]));
        assert!(!one(&["b1", "a2"]));
    }
}
