//! The units' changing state, held inside the battle for the battles people play and on the heap for grand ones:
//! a small battle stays small and cheap to copy ([`INLINE_UNITS`]) while a scenario may have up to
//! [`crate::unit::MAX_UNITS`] units.

use super::UnitState;
use crate::unit::UnitId;
use std::ops::{Deref, DerefMut};

/// Up to this many units are held inside the battle itself; more go to the heap (a clone then allocates).
pub const INLINE_UNITS: usize = 32;

/// The units' states, in the scenario's order: a slice of exactly the scenario's units.
///
/// A struct rather than an enum of the two forms: the inline array is then copied in place by a clone, and only the
/// grand battle's box needs a test.
#[derive(Clone, Eq, Debug)]
pub(crate) struct Units {
    /// How many units the battle has.
    len: u8,
    /// Their states when they fit (the first `len` entries).
    inline: [UnitState; INLINE_UNITS],
    /// Their states when they do not (grand battles): all of them.
    heap: Option<Box<[UnitState]>>,
}

impl Units {
    /// The states given, inline when they fit.
    pub(crate) fn new(states: &[UnitState]) -> Units {
        let mut inline = [UnitState::OFF_BOARD; INLINE_UNITS];
        let heap = if states.len() <= INLINE_UNITS {
            inline[..states.len()].copy_from_slice(states);
            None
        } else {
            Some(states.into())
        };
        Units { len: states.len() as u8, inline, heap }
    }

    /// Whether the states are on the heap (a grand battle).
    #[cfg(test)]
    pub(crate) fn on_heap(&self) -> bool {
        self.heap.is_some()
    }
}

/// Two battles' units are equal when their states are: the unused inline entries are not compared (a player asks
/// whether a battle is one it has seen at every decision).
impl PartialEq for Units {
    fn eq(&self, other: &Units) -> bool {
        **self == **other
    }
}

impl Deref for Units {
    type Target = [UnitState];

    fn deref(&self) -> &[UnitState] {
        match &self.heap {
            None => &self.inline[..self.len as usize],
            Some(items) => items,
        }
    }
}

impl DerefMut for Units {
    fn deref_mut(&mut self) -> &mut [UnitState] {
        match &mut self.heap {
            None => &mut self.inline[..self.len as usize],
            Some(items) => items,
        }
    }
}

/// A set of units of one battle, by id: as many as a scenario may have.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct UnitSet(u128);

const _: () = assert!(crate::unit::MAX_UNITS <= 128, "a UnitSet holds 128 units");

impl UnitSet {
    /// No units.
    pub const EMPTY: UnitSet = UnitSet(0);

    /// Adds a unit.
    pub fn insert(&mut self, u: UnitId) {
        self.0 |= 1 << u.0;
    }

    /// Whether it holds `u` (never a unit beyond the most a battle may have).
    pub fn contains(self, u: UnitId) -> bool {
        u.0 < 128 && self.0 & (1 << u.0) != 0
    }

    /// Removes a unit.
    pub fn remove(&mut self, u: UnitId) {
        self.0 &= !(1 << u.0);
    }

    /// Whether it holds none.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many it holds.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The units of both.
    pub fn union(self, other: UnitSet) -> UnitSet {
        UnitSet(self.0 | other.0)
    }

    /// The units of this one that are not in `other`.
    pub fn without(self, other: UnitSet) -> UnitSet {
        UnitSet(self.0 & !other.0)
    }

    /// The units, by id from the lowest.
    pub fn iter(self) -> UnitSetIter {
        UnitSetIter { low: self.0 as u64, high: (self.0 >> 64) as u64 }
    }
}

/// The units of a [`UnitSet`], by id from the lowest: in two 64-bit halves, since most battles never use the high
/// one and a 128-bit step costs twice as much.
pub struct UnitSetIter {
    low: u64,
    high: u64,
}

impl Iterator for UnitSetIter {
    type Item = UnitId;

    fn next(&mut self) -> Option<UnitId> {
        if self.low != 0 {
            let u = UnitId(self.low.trailing_zeros() as u8);
            self.low &= self.low - 1;
            Some(u)
        } else if self.high != 0 {
            let u = UnitId(64 + self.high.trailing_zeros() as u8);
            self.high &= self.high - 1;
            Some(u)
        } else {
            None
        }
    }
}
