//! An attack described by its circumstances ("veteran infantry in woods, charged in the flank"), set up as a small
//! battle that produces exactly that situation, so that its odds come from the battle too.

use super::{AttackOdds, ready_to_order};
use crate::action::{Action, Illegal};
use crate::attack::{RetreatPath, Steadiness};
use crate::battle::Battle;
use crate::chance::Outcome;
use crate::geometry::{Aspect, Dir, MAX_SIDE, Square};
use crate::map::{Map, Terrain};
use crate::options::Options;
use crate::rule::Rule;
use crate::scenario::Scenario;
use crate::system::CombatSystem;
use crate::terrain::TerrainRules;
use crate::unit::{Arm, Quality, Side, UnitId, UnitInfo};
use std::sync::Arc;

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
    /// The terrain the target stands in (R1.3): open ground, or woods for the cover of R6.3a, or any kind of the
    /// rules in force that a unit may stand on (a variant's own among them, docs/variants.md). The target is in cover
    /// when that kind gives cover under those rules (R1.5), and only then.
    pub terrain: Terrain,
    /// Which side of the target a charge comes from: front, flank or rear (R2.3, R6.4). Front unless a charge.
    pub from: Aspect,
    /// The target is steady, or already shaken (R7.1).
    pub target_state: Steadiness,
    /// The attacker gives its order steady, or shaken: only under a variant's rally roll, which a shaken unit may
    /// fail and still be given its order (docs/variants.md); under the standard rules a shaken unit is rallied when
    /// it is activated (R4.1).
    pub attacker_state: Steadiness,
    /// An artillery attacker made its previous attack at this target from here, neither having moved since (R6.4).
    pub ranging: bool,
    /// Whether the target has a square to retreat to (R7.3, R7.4).
    pub retreat: RetreatPath,
    /// The attacker is of a variant's own arm: its place among the combat system's arms (docs/variants.md). It acts
    /// as `attacker` (the arm's `like`) with the arm's own strength, move and range.
    pub attacker_own: Option<u8>,
    /// The target is of a variant's own arm, as `attacker_own`.
    pub target_own: Option<u8>,
}

/// A battle set up to produce a [`Situation`], waiting for the attacker's order.
#[derive(Clone, Debug)]
pub struct SituationBattle {
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
            terrain: Terrain::Open,
            from: Aspect::Front,
            target_state: Steadiness::Steady,
            attacker_state: Steadiness::Steady,
            ranging: false,
            retreat: RetreatPath::Open,
            attacker_own: None,
            target_own: None,
        }
    }

    /// The arm of this id among `system`'s (a standard arm, or the variant's own), as a situation names it: the
    /// standard arm it acts as and, for an own arm, its place.
    pub fn arm_of(system: &CombatSystem, id: &str) -> Option<(Arm, Option<u8>)> {
        let i = system.arms().iter().position(|a| a.id == id)?;
        let arm = &system.arms()[i];
        Some((arm.like, (i >= Arm::ALL.len()).then_some(i as u8)))
    }

    /// The terrain kind that stands for cover under `rules` in the reference table ([`crate::odds::table`]): the
    /// first kind after open ground that gives cover and may be stood on, woods under the standard rules (R1.5,
    /// R6.3a); `None` when no kind gives cover.
    pub fn cover_terrain(rules: &TerrainRules) -> Option<Terrain> {
        (1..rules.kinds().len()).map(Terrain::at).find(|&t| rules.gives_cover(t) && rules.passable(t))
    }

    /// Whether the target is in cover by its terrain under `rules` (R1.5, R6.3a).
    pub fn in_cover(&self, rules: &TerrainRules) -> bool {
        self.terrain.index() < rules.kinds().len() && rules.gives_cover(self.terrain)
    }

    /// Whether this is a charge (distance 1, R6.1).
    pub fn charge(&self) -> bool {
        self.distance == 1
    }

    /// The target's strength (R2.2) under `options` (`strength.*`, `quality.*`).
    pub fn target_strength(&self, options: &Options) -> u8 {
        self.target_strength_under(options, None)
    }

    /// [`Situation::target_strength`] under a variant's combat system when given: a target of its own arm has that
    /// arm's strength (docs/variants.md).
    pub fn target_strength_under(&self, options: &Options, system: Option<&CombatSystem>) -> u8 {
        let own =
            self.target_own.and_then(|i| system?.arm_number(i as usize, crate::options::ArmNumber::Strength, options));
        options.adjusted_strength(own.unwrap_or(options.strength.get(self.target)), self.target_quality)
    }

    /// Refuses combinations the rules make impossible, naming the rule. Others (range, artillery moving) are
    /// refused by the battle itself when the situation is set up.
    fn check(&self, options: &Options, system: Option<&Arc<CombatSystem>>) -> Result<(), Illegal> {
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
        if self.attacker_state.is_shaken() && system.is_none_or(|system| system.rally().is_none()) {
            return Err(Illegal::new(
                Rule::R4_1,
                "a shaken unit is rallied when it is activated, so it never gives its order shaken; only a variant's \
                 rally roll, failed, leaves it shaken",
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
        // A variant's own arm has its own range, and its own name.
        let own = |place: Option<u8>| match (place, system) {
            (None, _) => Ok(None),
            (Some(i), Some(system)) if (i as usize) >= Arm::ALL.len() => {
                system.arms().get(i as usize).map(Some).ok_or(())
            }
            _ => Err(()),
        };
        let (Ok(attacker_own), Ok(_)) = (own(self.attacker_own), own(self.target_own)) else {
            return Err(Illegal::new(Rule::R2_2, "an arm of its own is an arm of the variant played"));
        };
        let (range, name) = match attacker_own {
            Some(arm) => {
                let place = self.attacker_own.unwrap_or_default() as usize;
                (arm.number_under(place, crate::options::ArmNumber::Range, options), arm.id.as_str())
            }
            None => (options.range.get(self.attacker), self.attacker.name()),
        };
        if d > range {
            return Err(Illegal::new(Rule::R6_1, format!("distance {d} is beyond the range of {name}, {range}")));
        }
        if d + 3 > MAX_SIDE {
            return Err(Illegal::new(
                Rule::R1_1,
                format!("distance {d} does not fit on the largest board ({MAX_SIDE} squares)"),
            ));
        }
        // The target's terrain is one of the rules in force, and one a unit may stand on.
        let rules = terrain_rules(system);
        let Some(kind) = rules.kinds().get(self.terrain.index()) else {
            return Err(Illegal::new(Rule::R1_5, "the target's terrain is not one of the rules in force"));
        };
        if !rules.passable(self.terrain) {
            return Err(Illegal::new(
                Rule::R1_5,
                format!("the target cannot stand in {}: it is impassable", kind.name),
            ));
        }
        if self.retreat.is_blocked() && retreat_wall(&rules).is_none() {
            return Err(Illegal::new(
                Rule::R7_4,
                "no terrain of the rules in force is impassable, so none can block the target's retreat",
            ));
        }
        Ok(())
    }

    /// A small battle that produces exactly this situation, waiting for the attacker's order.
    ///
    /// On an open board 7 squares wide, the attacker (side A) stands on row 1 facing north and the target
    /// (side B) `distance` squares straight ahead, facing the attacker, or for a charge from the flank or rear,
    /// facing east or north. The target stands in its [`Situation::terrain`]; a blocked retreat puts river (under a
    /// variant whose river may be crossed, its first impassable kind) on the three squares it could retreat to. The
    /// board is read under the terrain rules of the combat system played, as a battle's is
    /// ([`Scenario::with_system`]). A shaken target is made shaken as it stands (R2.4), not by an earlier hit, since a
    /// variant's hit-result table may have no hit that shakes a steady unit; a shaken attacker is made shaken once
    /// activated, as a failed rally roll leaves it; the ranging bonus comes from a real
    /// earlier attack of the gun at the target (to-hit die 1, a miss), whose die is chosen, not sampled.
    ///
    /// # Errors
    /// When the situation is not one the rules under `options` allow (ranging by a unit that is not artillery, a
    /// flank or rear attack that is not a charge, a distance beyond the attacker's range, a target on a terrain it
    /// may not stand on, a shaken attacker where no rally roll can leave one shaken), citing the rule.
    pub fn setup(&self, options: &Options) -> Result<SituationBattle, Illegal> {
        self.setup_under(options, None)
    }

    /// [`Situation::setup`] with the battle played by `system` (a variant's combat system) when given.
    ///
    /// # Errors
    /// As [`Situation::setup`].
    pub fn setup_under(
        &self,
        options: &Options,
        system: Option<&Arc<CombatSystem>>,
    ) -> Result<SituationBattle, Illegal> {
        self.check(options, system)?;
        let d = self.distance;
        let x = SYNTHETIC_WIDTH / 2;
        let (a_at, t_at) = (Square::new(x, 0), Square::new(x, d));
        let rules = terrain_rules(system);
        let setup_error =
            |e: &dyn std::fmt::Display| Illegal::new(Rule::R11, format!("cannot set up the situation: {e}"));
        let mut map = Map::open(SYNTHETIC_WIDTH, d + 3)
            .with_terrain_rules(rules.clone())
            .ok_or_else(|| setup_error(&"the open board is not of the rules in force"))?;
        map.set_terrain(t_at, self.terrain);
        if let (true, Some(wall)) = (self.retreat.is_blocked(), retreat_wall(&rules)) {
            for dir in [Dir::W, Dir::N, Dir::E] {
                if let Some(s) = map.step(t_at, dir) {
                    map.set_terrain(s, wall);
                }
            }
        }
        let t_facing = match (self.charge(), self.from) {
            (true, Aspect::Flank) => Dir::E,
            (true, Aspect::Rear) => Dir::N,
            _ => Dir::S,
        };
        let unit = |name: &str, side, arm, quality, at, facing, own_arm| UnitInfo {
            name: name.to_string(),
            side,
            arm,
            quality,
            at,
            facing,
            own_arm,
            numbers: Default::default(),
        };
        let units = vec![
            unit("attacker", Side::A, self.attacker, self.attacker_quality, a_at, Dir::N, self.attacker_own),
            unit("target", Side::B, self.target, self.target_quality, t_at, t_facing, self.target_own),
        ];
        let (attacker, target) = (UnitId(0), UnitId(1));
        let mut scenario = Scenario::synthetic("odds", map, units, *options).map_err(|e| setup_error(&e))?;
        if let Some(system) = system {
            scenario.set_system(system.clone()).map_err(|e| setup_error(&e))?;
        }
        let mut battle = Battle::new(Arc::new(scenario), *options);
        if self.ranging {
            battle = scripted_attack(&battle, attacker, target, &[1])?;
        }
        if self.target_state.is_shaken() {
            battle.set_shaken(target);
        }
        let mut battle = ready_to_order(&battle, attacker)?;
        // Activated steady, then shaken as it stands: what a failed rally roll leaves (the roll's own odds are the
        // rally rule's, not the attack's).
        if self.attacker_state.is_shaken() {
            battle.set_shaken(attacker);
        }
        let order = if self.moved { Action::FireMove { target } } else { Action::Fire { target, facing: Dir::N } };
        Ok(SituationBattle { battle, attacker, target, order })
    }

    /// The exact odds of this attack, from the battle [`Situation::setup`] builds, under `options`.
    ///
    /// # Errors
    /// As [`Situation::setup`].
    pub fn odds(&self, options: &Options) -> Result<AttackOdds, Illegal> {
        self.odds_under(options, None)
    }

    /// [`Situation::odds`] under a variant's combat system when given (`options` should start from
    /// [`CombatSystem::changes_to_standard`]).
    ///
    /// # Errors
    /// As [`Situation::setup`].
    pub fn odds_under(&self, options: &Options, system: Option<&Arc<CombatSystem>>) -> Result<AttackOdds, Illegal> {
        let s = self.setup_under(options, system)?;
        s.battle.attack_odds(s.attacker, &s.order)
    }
}

/// The terrain rules a situation is read under: `system`'s, or the standard's.
fn terrain_rules(system: Option<&Arc<CombatSystem>>) -> Arc<TerrainRules> {
    system.map_or_else(TerrainRules::standard, |system| system.terrain_rules().clone())
}

/// The terrain that blocks a retreat under `rules`: the river, or when it may be crossed the first impassable kind
/// (R1.5, R7.4); `None` when every kind may be entered.
fn retreat_wall(rules: &TerrainRules) -> Option<Terrain> {
    let kinds = (0..rules.kinds().len()).map(Terrain::at);
    std::iter::once(Terrain::River).chain(kinds).find(|&t| !rules.passable(t))
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
