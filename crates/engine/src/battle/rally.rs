//! A variant's rally roll (`[rally]`, `[[rally_modifiers]]`, docs/variants.md): the facts of a shaken unit its
//! modifiers' conditions are decided by, the test its die makes, and the exact chance it rallies. The standard rules
//! have no rally roll (a shaken unit rallies as it is activated, R4.1), and never ask for any of this.

use super::{Battle, ScenarioRef};
use crate::chance::Prob;
use crate::geometry::Dir;
use crate::system::condition::RallyFacts;
use crate::system::{RallyTest, rally_modifiers};
use crate::unit::UnitId;

impl<S: ScenarioRef> Battle<S> {
    /// The facts of `unit` a rally modifier's condition is decided by, as it stands now.
    pub fn rally_facts(&self, unit: UnitId) -> RallyFacts {
        let map = &self.scenario.map;
        let (info, at) = (self.info(unit), self.unit(unit).at);
        let side = info.side;
        let (mut enemy_adjacent, mut friends_adjacent) = (false, 0u8);
        for next in Dir::ALL.into_iter().filter_map(|d| map.step(at, d)) {
            match self.unit_at(next) {
                Some(other) if self.info(other).side == side => friends_adjacent += 1,
                Some(_) => enemy_adjacent = true,
                None => {}
            }
        }
        let terrain = map.terrain(at);
        RallyFacts {
            arm: info.own_arm.unwrap_or(info.arm.index() as u8),
            quality: info.quality,
            cover: map.gives_cover(at),
            terrain,
            enemy_adjacent,
            friends_adjacent,
        }
    }

    /// The rally modifiers that apply to `unit` now (a bit each, by its place among the system's) and the test its
    /// rally die would make were it activated now; `None` without a rally roll (the standard rules, R4.1).
    pub fn rally_test(&self, unit: UnitId) -> Option<(u8, RallyTest)> {
        let system = self.scenario.system();
        let rule = system.rally()?;
        let (applied, total) = rally_modifiers(system.rally_modifiers(), &self.rally_facts(unit));
        Some((applied, RallyTest::of(rule.needed, self.strength(unit), total)))
    }

    /// The exact chance that activating `unit` now leaves it steady: 1 for a steady unit or under the standard
    /// rules (R4.1), else the chance its rally die passes (what a player weighs its orders by, both ways).
    pub fn rally_chance(&self, unit: UnitId) -> Prob {
        match self.rally_test(unit) {
            Some((_, test)) if self.unit(unit).shaken => test.chance(),
            _ => Prob::new(1, 1),
        }
    }
}
