//! Where a unit may move and which way it may face (RULES.md R1.5, R1.6, R5).

use super::Battle;
use crate::geometry::{Dir, Square};
use crate::unit::UnitId;

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
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.0.len()).flat_map(move |w| {
            let mut word = self.0[w];
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let i = w * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    Square::new((i % 26) as u8, (i / 26) as u8)
                })
            })
        })
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

impl Battle {
    /// The squares `unit` may end a move on, other than its own (R5.1–R5.3, R1.5, R1.6).
    pub(crate) fn destinations(&self, unit: UnitId, kind: MoveKind) -> SquareSet {
        let state = self.units[unit.index()];
        let side = self.info(unit).side;
        let map = &self.scenario.map;
        let started_in_contact = self.enemy_adjacent(state.at, side, None);
        let start_on_road = kind.road_bonus && map.road(state.at);
        let mut result = SquareSet::default();
        // Breadth-first over (square, still on road) states; a road path may go one step further (R1.6).
        let mut seen = [SquareSet::default(); 2];
        let mut queue = [(state.at, 0u8, false); 26 * 26 * 2];
        let (mut head, mut tail) = (0, 1);
        queue[0] = (state.at, 0, start_on_road);
        seen[start_on_road as usize].insert(state.at);
        while head < tail {
            let (at, steps, on_road) = queue[head];
            head += 1;
            let limit = kind.allowance + on_road as u8;
            if steps >= limit {
                continue;
            }
            for dir in Dir::ALL {
                let Some(next) = map.step(at, dir) else { continue };
                if !map.terrain(next).passable() {
                    continue; // R5.1: never into a river.
                }
                let occupant = self.unit_at(next);
                if occupant.is_some_and(|o| self.info(o).side != side) {
                    continue; // R5.1: never into an enemy's square.
                }
                let near_enemy = self.enemy_adjacent(next, side, None);
                let taking_ground = kind.take_ground == Some(next);
                if started_in_contact && near_enemy && !taking_ground {
                    continue; // R5.3.
                }
                if occupant.is_none() && next != state.at {
                    result.insert(next);
                }
                // R5.2 zone of control and R1.5 terrain end the move here.
                if near_enemy || map.terrain(next).ends_move() {
                    continue;
                }
                let still_road = on_road && map.road(next);
                if seen[still_road as usize].insert(next) {
                    queue[tail] = (next, steps + 1, still_road);
                    tail += 1;
                }
            }
        }
        result
    }

    /// The facings a unit may take at the end of a move to `to` (R5.4): any, or toward an adjacent enemy.
    pub(crate) fn facings_at(&self, unit: UnitId, to: Square) -> [bool; 4] {
        let side = self.info(unit).side;
        let mut allowed = [false; 4];
        for enemy in self.enemies_adjacent(to, side, Some(unit)) {
            if let Some(d) = to.dir_to(self.units[enemy.index()].at) {
                allowed[d.index()] = true;
            }
        }
        if allowed.iter().any(|&a| a) { allowed } else { [true; 4] }
    }
}
