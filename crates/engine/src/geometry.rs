//! Squares, directions and distances on the grid (docs/rules.md R1.1, R1.2, R2.3).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The largest board side allowed (R1.1).
pub const MAX_SIDE: u8 = 26;
/// The smallest board side allowed (R1.1).
pub const MIN_SIDE: u8 = 4;

/// A square of the battlefield: column `x` (0 = `a`, west) and row `y` (0 = row 1, south).
///
/// ```
/// use pacw_engine::Square;
/// let s: Square = "c2".parse().unwrap();
/// assert_eq!((s.x, s.y), (2, 1));
/// assert_eq!(s.to_string(), "c2");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square {
    /// Column, 0 for `a` (west).
    pub x: u8,
    /// Row, 0 for row `1` (south).
    pub y: u8,
}

impl Square {
    /// The square at column `x` and row `y` (both from 0), unchecked: on no board if either is [`MAX_SIDE`] or
    /// more, and on a given board only within its width and height ([`Square::try_new`] checks the first,
    /// [`crate::Map::contains`] the second).
    pub const fn new(x: u8, y: u8) -> Self {
        Square { x, y }
    }

    /// The square at column `x` and row `y` (both from 0), if it can be on a board (both below [`MAX_SIDE`]).
    ///
    /// ```
    /// use pacw_engine::Square;
    /// assert_eq!(Square::try_new(2, 3).map(|s| s.to_string()), Some("c4".to_string()));
    /// assert_eq!(Square::try_new(26, 0), None);
    /// ```
    pub const fn try_new(x: u8, y: u8) -> Option<Square> {
        if x < MAX_SIDE && y < MAX_SIDE { Some(Square { x, y }) } else { None }
    }

    /// The number of orthogonal steps between two squares (R1.2).
    pub fn distance(self, other: Square) -> u8 {
        self.x.abs_diff(other.x) + self.y.abs_diff(other.y)
    }

    /// Whether the two squares share an edge (R1.2).
    pub fn is_adjacent(self, other: Square) -> bool {
        self.distance(other) == 1
    }

    /// The neighbour one step in `dir`, if it is on a `width` × `height` board.
    #[inline]
    pub fn step(self, dir: Dir, width: u8, height: u8) -> Option<Square> {
        // One comparison a direction: the move searches ask this for every square they look at.
        let Square { x, y } = self;
        match dir {
            Dir::N => (y + 1 < height).then(|| Square::new(x, y + 1)),
            Dir::E => (x + 1 < width).then(|| Square::new(x + 1, y)),
            Dir::S => (y > 0).then(|| Square::new(x, y - 1)),
            Dir::W => (x > 0).then(|| Square::new(x - 1, y)),
        }
    }

    /// The direction of an adjacent square, if `other` is adjacent.
    pub fn dir_to(self, other: Square) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| {
            let (dx, dy) = d.delta();
            self.x as i16 + dx as i16 == other.x as i16 && self.y as i16 + dy as i16 == other.y as i16
        })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x) as char, self.y as u16 + 1)
    }
}

/// A square name that is not of the form letter + number (R10).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a square name (a column letter a-z and a row number 1-26, like c2)")]
pub struct BadSquare(pub String);

impl FromStr for Square {
    type Err = BadSquare;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadSquare(s.to_string());
        let mut chars = s.chars();
        let col = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !col.is_ascii_lowercase() {
            return Err(bad());
        }
        let rest = chars.as_str();
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.starts_with('0') {
            return Err(bad());
        }
        let row: u16 = rest.parse().map_err(|_| bad())?;
        if row == 0 || row > MAX_SIDE as u16 {
            return Err(bad());
        }
        Ok(Square::new(col as u8 - b'a', (row - 1) as u8))
    }
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// One of the four directions; also a unit's facing (R2.3).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Dir {
    /// North: toward higher row numbers.
    N,
    /// East: toward later column letters.
    E,
    /// South.
    S,
    /// West.
    W,
}

impl Dir {
    /// The four directions in the fixed order N, E, S, W (used by R7.3).
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// The step (dx, dy) one square in this direction.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::N => (0, 1),
            Dir::E => (1, 0),
            Dir::S => (0, -1),
            Dir::W => (-1, 0),
        }
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::N => Dir::S,
            Dir::E => Dir::W,
            Dir::S => Dir::N,
            Dir::W => Dir::E,
        }
    }

    /// Index 0..4 in the order of [`Dir::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The board edge this way, as a scenario names a side's home edge (`north`, …).
    pub const fn edge_name(self) -> &'static str {
        match self {
            Dir::N => "north",
            Dir::E => "east",
            Dir::S => "south",
            Dir::W => "west",
        }
    }

    /// The letter used in notation (R10).
    pub const fn letter(self) -> char {
        match self {
            Dir::N => 'N',
            Dir::E => 'E',
            Dir::S => 'S',
            Dir::W => 'W',
        }
    }

    /// Offsets of `to` from `from` relative to this facing: (forward, sideways-right).
    pub fn relative(self, from: Square, to: Square) -> (i16, i16) {
        let dx = to.x as i16 - from.x as i16;
        let dy = to.y as i16 - from.y as i16;
        match self {
            Dir::N => (dy, dx),
            Dir::E => (dx, -dy),
            Dir::S => (-dy, -dx),
            Dir::W => (-dx, dy),
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Dir {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "N" | "n" => Ok(Dir::N),
            "E" | "e" => Ok(Dir::E),
            "S" | "s" => Ok(Dir::S),
            "W" | "w" => Ok(Dir::W),
            _ => Err(format!("unknown facing '{s}' (expected N, E, S or W)")),
        }
    }
}

/// Where an adjacent square lies relative to a unit's facing (R2.3).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Aspect {
    /// The square straight ahead.
    Front,
    /// The squares to the left and right.
    Flank,
    /// The square behind.
    Rear,
}

impl Square {
    /// The aspect of the adjacent square `from` as seen by a unit here facing `facing`: front, flank or rear (R2.3);
    /// `None` when `from` is not adjacent.
    pub fn aspect_of(self, facing: Dir, from: Square) -> Option<Aspect> {
        aspect(self, facing, from)
    }

    /// Whether `to` lies in the front arc of a unit here facing `facing` (R2.3).
    pub fn front_arc_holds(self, facing: Dir, to: Square) -> bool {
        in_front_arc(self, facing, to)
    }
}

/// The aspect of the adjacent square `from` as seen by a unit on `at` facing `facing`.
pub fn aspect(at: Square, facing: Dir, from: Square) -> Option<Aspect> {
    if !at.is_adjacent(from) {
        return None;
    }
    Some(match facing.relative(at, from) {
        (1, _) => Aspect::Front,
        (-1, _) => Aspect::Rear,
        _ => Aspect::Flank,
    })
}

/// Whether `to` lies in the front arc of a unit on `from` facing `facing`:
/// forward offset f ≥ 1 and sideways offset |l| ≤ f (R2.3).
pub fn in_front_arc(from: Square, facing: Dir, to: Square) -> bool {
    let (f, l) = facing.relative(from, to);
    f >= 1 && l.abs() <= f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn r1_1_square_names_run_from_the_south_west_corner() {
        assert_eq!(sq("a1"), Square::new(0, 0));
        assert_eq!(sq("z26"), Square::new(25, 25));
        for bad in ["", "a", "1a", "a0", "a27", "A-1", "a01", "ab1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
        assert_eq!(sq("h8").to_string(), "h8");
    }

    #[test]
    fn r1_2_adjacency_is_orthogonal_and_distance_counts_steps() {
        assert!(sq("c3").is_adjacent(sq("c4")));
        assert!(!sq("c3").is_adjacent(sq("d4")));
        assert_eq!(sq("a1").distance(sq("c4")), 5);
    }

    #[test]
    fn r2_3_front_arc_is_the_ninety_degree_cone() {
        let at = sq("d4");
        assert!(in_front_arc(at, Dir::N, sq("d5")));
        assert!(in_front_arc(at, Dir::N, sq("e5")));
        assert!(in_front_arc(at, Dir::N, sq("f6")));
        assert!(!in_front_arc(at, Dir::N, sq("f5")));
        assert!(!in_front_arc(at, Dir::N, sq("e4")));
        assert!(!in_front_arc(at, Dir::N, sq("d3")));
        assert!(in_front_arc(at, Dir::E, sq("f3")));
        assert!(in_front_arc(at, Dir::W, sq("b4")));
        assert!(in_front_arc(at, Dir::S, sq("c2")));
        assert_eq!(aspect(at, Dir::N, sq("d5")), Some(Aspect::Front));
        assert_eq!(aspect(at, Dir::N, sq("e4")), Some(Aspect::Flank));
        assert_eq!(aspect(at, Dir::N, sq("c4")), Some(Aspect::Flank));
        assert_eq!(aspect(at, Dir::N, sq("d3")), Some(Aspect::Rear));
        assert_eq!(aspect(at, Dir::E, sq("c4")), Some(Aspect::Rear));
    }
}
