//! A run of attacks on one target: the distribution of its state after each, and the attacks expected to destroy it.

use super::{AttackOdds, Exact, ZERO};
use crate::attack::Steadiness;
use crate::chance::Prob;
use num_traits::{One, ToPrimitive, Zero};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

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
        Sequence { on_steady: odds.with_target(Steadiness::Steady), on_shaken: odds.with_target(Steadiness::Shaken) }
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
