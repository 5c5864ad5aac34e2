//! Where a unit may move and which way it may face (docs/rules.md R1.5, R1.6, R5).

use super::Battle;
use super::ScenarioRef;
use crate::geometry::{Dir, Square};
use crate::unit::{Side, UnitId};

/// A set of squares of a board of up to 26 × 26.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct SquareSet([u64; 11]);

impl SquareSet {
    fn bit(s: Square) -> (usize, u64) {
        let i = s.y as usize * 26 + s.x as usize;
        (i / 64, 1 << (i % 64))
    }

    /// Adds a square; false if it was there.
    pub fn insert(&mut self, s: Square) -> bool {
        let (w, b) = Self::bit(s);
        let new = self.0[w] & b == 0;
        self.0[w] |= b;
        new
    }

    /// Whether it holds `s`.
    pub fn contains(&self, s: Square) -> bool {
        let (w, b) = Self::bit(s);
        self.0[w] & b != 0
    }

    /// The squares, row by row.
    pub fn iter(&self) -> SquareIter<'_> {
        SquareIter { words: &self.0, w: 0, word: self.0[0] }
    }
}

/// The squares of a [`SquareSet`], row by row: word by word, skipping empty words.
pub struct SquareIter<'a> {
    words: &'a [u64; 11],
    w: usize,
    word: u64,
}

impl Iterator for SquareIter<'_> {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        while self.word == 0 {
            self.w += 1;
            self.word = *self.words.get(self.w)?;
        }
        let i = self.w * 64 + self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(Square::new((i % 26) as u8, (i / 26) as u8))
    }
}

/// Where units stand, seen from one side: computed once per query so that movement, facing and line of sight
/// look squares up in bit sets instead of scanning the units.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Occupancy {
    /// Squares holding any unit.
    pub all: SquareSet,
    /// Squares holding an enemy of the side.
    pub enemy: SquareSet,
    /// Squares adjacent to an enemy of the side (R5.2, R5.3).
    pub zoc: SquareSet,
}

/// A breadth-first queue that lives on the stack for ordinary allowances and spills to the heap for huge ones.
struct Queue<T: Copy + Default> {
    near: [T; 64],
    far: Vec<T>,
    head: usize,
    tail: usize,
}

impl<T: Copy + Default> Queue<T> {
    /// An empty queue. (Its room on the stack starts zeroed, a few wide stores, where `None`s were written one by
    /// one, once for every move searched.)
    fn new() -> Self {
        Queue { near: [T::default(); 64], far: Vec::new(), head: 0, tail: 0 }
    }

    fn push(&mut self, item: T) {
        if self.tail < self.near.len() {
            self.near[self.tail] = item;
        } else {
            self.far.push(item);
        }
        self.tail += 1;
    }

    fn pop(&mut self) -> Option<T> {
        if self.head == self.tail {
            return None;
        }
        let i = self.head;
        self.head += 1;
        Some(if i < self.near.len() { self.near[i] } else { self.far[i - self.near.len()] })
    }
}

/// A state of a move's search: the square reached, the squares of the move spent, and whether it came all the way
/// along a road.
#[derive(Copy, Clone)]
struct Reached {
    at: Square,
    spent: u8,
    on_road: bool,
}

impl Default for Reached {
    fn default() -> Self {
        Reached { at: Square { x: 0, y: 0 }, spent: 0, on_road: false }
    }
}

/// How a move is made: a Move order may use the road bonus (R1.6); the moves of Move & Fire and Fire & Move may not,
/// and Fire & Move may take ground (R4.4).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct MoveKind {
    pub allowance: u8,
    pub road_bonus: bool,
    pub take_ground: Option<Square>,
}

impl<S: ScenarioRef> Battle<S> {
    /// Where the units stand, as seen by `side`.
    pub(crate) fn occupancy(&self, side: Side) -> Occupancy {
        let mut occ = Occupancy::default();
        let map = &self.scenario.map;
        for u in self.on_board[side.index()].iter() {
            occ.all.insert(self.units[u.index()].at);
        }
        for u in self.on_board[side.other().index()].iter() {
            let at = self.units[u.index()].at;
            occ.all.insert(at);
            occ.enemy.insert(at);
            for d in Dir::ALL {
                if let Some(n) = map.step(at, d) {
                    occ.zoc.insert(n);
                }
            }
        }
        occ
    }

    /// The squares `unit` may end a move on, other than its own (R5.1–R5.3, R1.5, R1.6).
    pub(crate) fn destinations(&self, unit: UnitId, kind: MoveKind, occ: &Occupancy) -> SquareSet {
        let mut result = SquareSet::default();
        self.search(unit, kind, occ, |next, _, _, _| {
            if !occ.all.contains(next) {
                result.insert(next); // R5.1: end only on an empty square.
            }
        });
        result
    }

    /// The squares a Move order of `unit` passes through to end on `to`, its own square first and `to` last: one
    /// of the shortest paths the rules allow (R5.1–R5.3, R1.6), or `None` if the move is not allowed.
    pub fn move_path(&self, unit: UnitId, to: Square) -> Option<Vec<Square>> {
        let occ = self.occupancy(self.info(unit).side);
        let kind = MoveKind { allowance: self.movement(unit), road_bonus: true, take_ground: None };
        let start = self.units[unit.index()].at;
        if to == start {
            return Some(vec![start]);
        }
        if occ.all.contains(to) {
            return None;
        }
        // The state (square, still on the road) each state was most cheaply entered from, with what entering it
        // spent: a cheapest path (under the standard rules, where every step costs one, the first found).
        let mut came_from: Vec<Option<((Square, bool), u8)>> = vec![None; 2 * 26 * 26];
        let index = |s: Square, road: bool| road as usize * 26 * 26 + s.y as usize * 26 + s.x as usize;
        let mut end = None;
        self.search(unit, kind, &occ, |next, road, from, spent| {
            let entry = &mut came_from[index(next, road)];
            if entry.is_none_or(|(_, was)| spent < was) {
                *entry = Some((from, spent));
                if next == to && end.is_none() {
                    end = Some(road);
                }
            }
        });
        let mut state = (to, end?);
        let mut path = vec![to];
        while state.0 != start {
            state = came_from[index(state.0, state.1)]?.0;
            path.push(state.0);
        }
        path.reverse();
        Some(path)
    }

    /// The search of a move (R5.1–R5.3, R1.5, R1.6): calls `entered(square, on_road, from, spent)` for every
    /// square the unit may enter, whether it is still on a road all the way, the state (square, on road) it came
    /// from and the squares of its move spent on entering; a square may be entered more than once. Breadth first,
    /// each state seen once, when every step costs one square (the standard rules); otherwise a state is searched
    /// again whenever it is reached more cheaply (a variant's terrain that costs more, docs/variants.md).
    fn search(
        &self,
        unit: UnitId,
        kind: MoveKind,
        occ: &Occupancy,
        entered: impl FnMut(Square, bool, (Square, bool), u8),
    ) {
        // Two searches from one text: the standard rules' (every step one square) without the costs' bookkeeping.
        if self.scenario.map.terrain_rules().unit_costs() {
            self.search_by::<false>(unit, kind, occ, entered);
        } else {
            self.search_by::<true>(unit, kind, occ, entered);
        }
    }

    /// [`Battle::search`], `WEIGHED` when some step may cost more than one square.
    fn search_by<const WEIGHED: bool>(
        &self,
        unit: UnitId,
        kind: MoveKind,
        occ: &Occupancy,
        mut entered: impl FnMut(Square, bool, (Square, bool), u8),
    ) {
        let state = self.units[unit.index()];
        let map = &self.scenario.map;
        let rules = map.terrain_rules();
        let info = self.info(unit);
        let steps = rules.steps(usize::from(info.arm_place()));
        let bonus = if kind.road_bonus { rules.road_bonus() } else { 0 };
        let started_in_contact = occ.zoc.contains(state.at);
        let start_on_road = bonus > 0 && map.road(state.at);
        // Over (square, still on road) states; a road path may go `bonus` squares further (R1.6).
        let mut seen = [SquareSet::default(); 2];
        let mut cheapest: Vec<u8> = if WEIGHED { vec![u8::MAX; 2 * 26 * 26] } else { Vec::new() };
        let index = |s: Square, road: bool| road as usize * 26 * 26 + s.y as usize * 26 + s.x as usize;
        let mut queue = Queue::new();
        queue.push(Reached { at: state.at, spent: 0, on_road: start_on_road });
        seen[start_on_road as usize].insert(state.at);
        if WEIGHED {
            cheapest[index(state.at, start_on_road)] = 0;
        }
        while let Some(Reached { at, spent, on_road }) = queue.pop() {
            if spent >= kind.allowance + on_road as u8 * bonus || (WEIGHED && cheapest[index(at, on_road)] < spent) {
                continue; // the move is spent, or this state was reached more cheaply since
            }
            for dir in Dir::ALL {
                let Some(next) = map.step(at, dir) else { continue };
                let step = steps[map.terrain_place(next)];
                if step.cost == 0 || occ.enemy.contains(next) {
                    continue; // R5.1: never into a river (impassable terrain) or an enemy's square.
                }
                let still_road = on_road && map.road(next);
                let limit = kind.allowance + still_road as u8 * bonus;
                let after = match spent + step.cost {
                    within if within <= limit => within,
                    // A first step is always allowed into terrain that may be entered, however dear (a variant's
                    // terrain costing more than the move, docs/variants.md), and spends the whole move.
                    _ if WEIGHED && spent == 0 => limit,
                    // R1.6: the extra squares are only for a move entirely along the road.
                    _ => continue,
                };
                let near_enemy = occ.zoc.contains(next);
                if started_in_contact && near_enemy && kind.take_ground != Some(next) {
                    continue; // R5.3.
                }
                entered(next, still_road, (at, on_road), after);
                // R5.2 zone of control and R1.5 terrain end the move here; so does the end of the allowance.
                if near_enemy || step.stops || after >= limit {
                    continue;
                }
                let again = if WEIGHED {
                    let c = &mut cheapest[index(next, still_road)];
                    let cheaper = after < *c;
                    *c = (*c).min(after);
                    cheaper
                } else {
                    seen[still_road as usize].insert(next)
                };
                if again {
                    queue.push(Reached { at: next, spent: after, on_road: still_road });
                }
            }
        }
    }

    /// The facings a unit may take at the end of a move to `to` (R5.4): any, or toward an adjacent enemy.
    pub(crate) fn facings_at(&self, to: Square, occ: &Occupancy) -> [bool; 4] {
        if !occ.zoc.contains(to) {
            return [true; 4]; // no enemy adjacent: the common case, one bit test
        }
        let map = &self.scenario.map;
        let allowed = Dir::ALL.map(|d| map.step(to, d).is_some_and(|n| occ.enemy.contains(n)));
        if allowed.iter().any(|&a| a) { allowed } else { [true; 4] }
    }
}
