//! The rally rule as data (`[rally]`, `[[rally_modifiers]]`): under the standard rules a shaken unit rallies as it
//! is activated (R4.1); a variant may make that a roll of a D6, needing a number or more, or at most the unit's
//! strength, with modifiers by conditions over the unit's facts (veterans +1, enemy adjacent −1). The test a roll
//! makes is decided when the unit is activated, so that the battle, the odds and the computer players roll against
//! the same faces (docs/variants.md).

use super::condition::{Condition, RallyFacts};
use crate::chance::Prob;
use serde::{Deserialize, Serialize};

/// The most `[[rally_modifiers]]` a combat system may have (one bit each in the record of those applied).
pub const MAX_RALLY_MODIFIERS: usize = 8;

/// What a rally roll needs, as the designer writes it (`needed = 4` or `needed = "strength"`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RallyNeed {
    /// A D6 of this number or more, 2..=6; the modifiers are added to the roll.
    AtLeast(u8),
    /// A D6 at most the unit's strength, as the hit-result roll (R7.1); the modifiers are added to the strength.
    Strength,
}

/// A variant's rally rule: a shaken unit activated rallies only if its roll passes (instead of R4.1's automatic
/// rally).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RallyRule {
    /// Its id, cited in the log, the odds and the reports as the standard rules' ids are (`MR1`).
    pub id: String,
    /// What it is, in words.
    pub name: String,
    /// What the roll needs.
    pub needed: RallyNeed,
}

/// A modifier to the rally roll: `value` added to the roll (or to the strength it is tested against) when `when`
/// holds of the unit; +1 helps it rally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RallyModifier {
    /// Its id, cited in the log (`R1`).
    pub id: String,
    /// What it is, in words.
    pub name: String,
    /// What it adds, −3..=3.
    pub value: i8,
    /// When it applies: a condition over the unit's facts ([`RallyFacts`]).
    pub when: Condition,
    /// The condition as written.
    pub when_text: String,
}

/// The test one unit's rally roll makes, its modifiers counted: the faces of a D6 that rally it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RallyTest {
    /// It rallies on this number or more (7: never).
    AtLeast(u8),
    /// It rallies on this number or less (0: never), the unit's strength with the modifiers.
    AtMost(u8),
}

impl RallyTest {
    /// The test of a roll needing `needed`, for a unit of this `strength`, with these modifiers' sum.
    pub fn of(needed: RallyNeed, strength: u8, modifier: i8) -> RallyTest {
        match needed {
            RallyNeed::AtLeast(n) => RallyTest::AtLeast((n as i8 - modifier).clamp(1, 7) as u8),
            RallyNeed::Strength => RallyTest::AtMost((strength as i8 + modifier).clamp(0, 6) as u8),
        }
    }

    /// Whether this roll rallies the unit.
    pub const fn rallies(self, roll: u8) -> bool {
        match self {
            RallyTest::AtLeast(n) => roll >= n,
            RallyTest::AtMost(n) => roll <= n,
        }
    }

    /// The exact chance that a D6 rallies the unit.
    pub fn chance(self) -> Prob {
        Prob::new((1..=6).filter(|&roll| self.rallies(roll)).count() as u32, 6)
    }
}

/// The rally modifiers of `modifiers` that apply to a unit with these facts: a bit per modifier, by its place, and
/// their sum.
pub fn rally_modifiers(modifiers: &[RallyModifier], facts: &RallyFacts) -> (u8, i8) {
    let mut applied = 0u8;
    let mut total = 0i8;
    for (i, m) in modifiers.iter().enumerate().take(MAX_RALLY_MODIFIERS) {
        if m.when.holds_for_rally(facts) {
            applied |= 1 << i;
            total += m.value;
        }
    }
    (applied, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_rallies_on_its_faces_and_its_chance_counts_them_exactly() {
        let four_up = RallyTest::of(RallyNeed::AtLeast(4), 3, 0);
        assert_eq!(four_up, RallyTest::AtLeast(4));
        assert_eq!((1..=6).map(|r| four_up.rallies(r)).collect::<Vec<_>>(), [false, false, false, true, true, true]);
        assert_eq!(four_up.chance(), Prob::new(1, 2));
        assert_eq!(RallyTest::of(RallyNeed::AtLeast(4), 3, 1), RallyTest::AtLeast(3), "+1 helps");
        assert_eq!(RallyTest::of(RallyNeed::AtLeast(6), 3, -3).chance(), Prob::new(0, 6), "never");
        assert_eq!(RallyTest::of(RallyNeed::AtLeast(2), 3, 3).chance(), Prob::new(1, 1), "always");
        let strength = RallyTest::of(RallyNeed::Strength, 4, -1);
        assert_eq!(strength, RallyTest::AtMost(3));
        assert_eq!(strength.chance(), Prob::new(1, 2));
        assert_eq!(RallyTest::of(RallyNeed::Strength, 2, -3), RallyTest::AtMost(0));
    }
}
