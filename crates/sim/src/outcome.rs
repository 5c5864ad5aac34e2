//! Counts of attacks by what befell their target, and by the kind of attack: arrays indexed by enums, so that a
//! count is read as `attacks[AttackKind::Charge][TargetOutcome::Destroyed]`, never as `attacks[1][3]`. Both
//! serialise as the plain arrays they hold (the shard and report files keep their shape).

use pacw_engine::AttackKind;
use pacw_engine::odds::AttackResult;
use serde::{Deserialize, Serialize};
use std::ops::{Index, IndexMut};

/// What an attack did to its target, as the laboratory counts it. A retreat that was blocked counts as
/// `Destroyed` (R7.4 `destroyed`) or `Shaken` (R7.4 `stand`); a hit that changed nothing (a variant's table) as a
/// `Miss`, since the target is as it was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TargetOutcome {
    /// Missed, or a hit that changed nothing.
    Miss,
    /// The target became shaken (or stood, shaken, with its retreat blocked).
    Shaken,
    /// The target retreated.
    Retreat,
    /// The target was destroyed.
    Destroyed,
}

impl TargetOutcome {
    /// Every outcome, in the order of the counts' array and of [`crate::record::OUTCOMES`].
    pub const ALL: [TargetOutcome; 4] =
        [TargetOutcome::Miss, TargetOutcome::Shaken, TargetOutcome::Retreat, TargetOutcome::Destroyed];

    /// An attack's result as the laboratory counts it: a hit that changed nothing is a miss, a target that stood,
    /// shaken, with its retreat blocked is shaken.
    pub const fn of(result: AttackResult) -> TargetOutcome {
        match result {
            AttackResult::Miss | AttackResult::NoEffect => TargetOutcome::Miss,
            AttackResult::Shaken | AttackResult::Stand => TargetOutcome::Shaken,
            AttackResult::Retreat => TargetOutcome::Retreat,
            AttackResult::Destroyed => TargetOutcome::Destroyed,
        }
    }
}

/// Attacks counted by [`TargetOutcome`]: a game's in `u32`, a sum over games in `u64`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct OutcomeCounts<N = u32>(pub [N; 4]);

impl<N: Copy + std::iter::Sum + std::ops::Sub<Output = N>> OutcomeCounts<N> {
    /// Every attack counted.
    pub fn total(&self) -> N {
        self.0.iter().copied().sum()
    }

    /// The attacks that did something to their target (all but the misses).
    pub fn effective(&self) -> N {
        self.total() - self[TargetOutcome::Miss]
    }
}

impl<N> Index<TargetOutcome> for OutcomeCounts<N> {
    type Output = N;
    fn index(&self, outcome: TargetOutcome) -> &N {
        &self.0[outcome as usize]
    }
}

impl<N> IndexMut<TargetOutcome> for OutcomeCounts<N> {
    fn index_mut(&mut self, outcome: TargetOutcome) -> &mut N {
        &mut self.0[outcome as usize]
    }
}

/// One value for each kind of attack: shooting, then charges (R6.1).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ByKind<T>(pub [T; 2]);

impl<T> Index<AttackKind> for ByKind<T> {
    type Output = T;
    fn index(&self, kind: AttackKind) -> &T {
        &self.0[kind as usize]
    }
}

impl<T> IndexMut<AttackKind> for ByKind<T> {
    fn index_mut(&mut self, kind: AttackKind) -> &mut T {
        &mut self.0[kind as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_read_by_outcome_and_kind_and_serialise_as_plain_arrays() {
        let mut attacks = ByKind([OutcomeCounts::default(); 2]);
        attacks[AttackKind::Charge][TargetOutcome::Destroyed] += 2;
        attacks[AttackKind::Charge][TargetOutcome::Miss] += 1;
        attacks[AttackKind::Fire][TargetOutcome::Shaken] += 1;
        assert_eq!(attacks.0, [OutcomeCounts([0, 1, 0, 0]), OutcomeCounts([1, 0, 0, 2])]);
        assert_eq!((attacks[AttackKind::Charge].total(), attacks[AttackKind::Charge].effective()), (3, 2));
        let json = serde_json::to_string(&attacks).unwrap();
        assert_eq!(json, "[[0,1,0,0],[1,0,0,2]]");
        assert_eq!(serde_json::from_str::<ByKind<OutcomeCounts>>(&json).unwrap(), attacks);
    }
}
