//! The units' changing state, held inside the battle for the battles people play and on the heap for grand ones:
//! a small battle stays small and cheap to copy ([`INLINE_UNITS`]) while a scenario may have up to
//! [`crate::scenario::MAX_UNITS`] units.

use super::UnitState;
use crate::unit::UnitId;
use std::ops::{Deref, DerefMut};

/// Up to this many units are held inside the battle itself; more go to the heap (a clone then allocates).
pub const INLINE_UNITS: usize = 32;

/// The units' states, in the scenario's order: a slice of exactly the scenario's units.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Units {
    /// The first `len` entries are the units.
    Inline { len: u8, items: [UnitState; INLINE_UNITS] },
    /// Grand battles.
    Heap(Box<[UnitState]>),
}

impl Units {
    /// The states given, inline when they fit.
    pub(crate) fn new(states: &[UnitState]) -> Units {
        if states.len() <= INLINE_UNITS {
            let mut items = [UnitState::OFF_BOARD; INLINE_UNITS];
            items[..states.len()].copy_from_slice(states);
            Units::Inline { len: states.len() as u8, items }
        } else {
            Units::Heap(states.into())
        }
    }
}

impl Deref for Units {
    type Target = [UnitState];

    fn deref(&self) -> &[UnitState] {
        match self {
            Units::Inline { len, items } => &items[..*len as usize],
            Units::Heap(items) => items,
        }
    }
}

impl DerefMut for Units {
    fn deref_mut(&mut self) -> &mut [UnitState] {
        match self {
            Units::Inline { len, items } => &mut items[..*len as usize],
            Units::Heap(items) => items,
        }
    }
}

/// A set of units of one battle, by id: as many as a scenario may have.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct UnitSet(u128);

const _: () = assert!(crate::scenario::MAX_UNITS <= 128, "a UnitSet holds 128 units");

impl UnitSet {
    /// No units.
    pub const EMPTY: UnitSet = UnitSet(0);

    /// Adds a unit.
    pub fn insert(&mut self, u: UnitId) {
        self.0 |= 1 << u.0;
    }

    /// Whether it holds `u`.
    pub fn contains(self, u: UnitId) -> bool {
        self.0 & (1 << u.0) != 0
    }

    /// Whether it holds none.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}
