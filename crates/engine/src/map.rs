//! The battlefield: terrain, elevation, roads and fences (docs/rules.md R1).

use crate::geometry::{Dir, Square};
use serde::{Deserialize, Serialize};

/// The terrain of a square (R1.3, R1.5).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Open ground.
    Open,
    /// Woods: cover, blocks line of sight, entering ends the move.
    Woods,
    /// A town: cover, blocks line of sight, entering ends the move.
    Town,
    /// A sunken road: cover.
    SunkenRoad,
    /// A river: impassable.
    River,
    /// A ford: entering ends the move.
    Ford,
}

impl Terrain {
    /// Every terrain, in the order of the rules (R1.3).
    pub const ALL: [Terrain; 6] =
        [Terrain::Open, Terrain::Woods, Terrain::Town, Terrain::SunkenRoad, Terrain::River, Terrain::Ford];

    /// The character used in scenario maps (docs/scenario-format.md).
    pub const fn char(self) -> char {
        match self {
            Terrain::Open => '.',
            Terrain::Woods => 'W',
            Terrain::Town => 'T',
            Terrain::SunkenRoad => 'S',
            Terrain::River => '~',
            Terrain::Ford => 'F',
        }
    }

    /// The terrain a map character stands for.
    pub const fn from_char(c: char) -> Option<Terrain> {
        Some(match c {
            '.' => Terrain::Open,
            'W' => Terrain::Woods,
            'T' => Terrain::Town,
            'S' => Terrain::SunkenRoad,
            '~' => Terrain::River,
            'F' => Terrain::Ford,
            _ => return None,
        })
    }

    /// Its name in the rules (R1.3).
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Open => "open",
            Terrain::Woods => "woods",
            Terrain::Town => "town",
            Terrain::SunkenRoad => "sunken road",
            Terrain::River => "river",
            Terrain::Ford => "ford",
        }
    }

    /// Whether a unit standing here is in cover (R1.5, R6.3a).
    pub const fn gives_cover(self) -> bool {
        matches!(self, Terrain::Woods | Terrain::Town | Terrain::SunkenRoad)
    }

    /// Whether this terrain blocks line of sight through it (R1.5, R6.2a).
    pub const fn blocks_sight(self) -> bool {
        matches!(self, Terrain::Woods | Terrain::Town)
    }

    /// Whether units may enter it (R1.5, R5.1).
    pub const fn passable(self) -> bool {
        !matches!(self, Terrain::River)
    }

    /// Whether entering it ends a move (R1.5).
    pub const fn ends_move(self) -> bool {
        matches!(self, Terrain::Woods | Terrain::Town | Terrain::Ford)
    }
}

/// One square's static description.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Cell {
    /// Terrain (R1.3).
    pub terrain: Terrain,
    /// Elevation 0..=3 (R1.3).
    pub elevation: u8,
    /// Whether a road runs through it (R1.3, R1.6).
    pub road: bool,
    /// Fences on its edges, bit `Dir::index()` set for a fence on that side (R1.4).
    pub fences: u8,
}

/// A validated battlefield: every cell inside a `width` × `height` rectangle.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Map {
    width: u8,
    height: u8,
    cells: Vec<Cell>,
}

impl Map {
    /// A map of the given size and cells, row 1 first (row-major from the south-west corner).
    /// The caller (the scenario validator) guarantees the size is in range and `cells` has `width * height` entries.
    pub(crate) fn new(width: u8, height: u8, cells: Vec<Cell>) -> Map {
        debug_assert_eq!(cells.len(), width as usize * height as usize);
        Map { width, height, cells }
    }

    /// An all-open, flat map (for tests and examples).
    pub fn open(width: u8, height: u8) -> Map {
        let cell = Cell { terrain: Terrain::Open, elevation: 0, road: false, fences: 0 };
        Map::new(width, height, vec![cell; width as usize * height as usize])
    }

    /// Columns, west to east.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Rows, south to north.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Whether a square lies on this board.
    #[inline]
    pub fn contains(&self, s: Square) -> bool {
        s.x < self.width && s.y < self.height
    }

    /// The cell of a square on the board.
    #[inline]
    pub fn cell(&self, s: Square) -> &Cell {
        &self.cells[s.y as usize * self.width as usize + s.x as usize]
    }

    pub(crate) fn cell_mut(&mut self, s: Square) -> &mut Cell {
        &mut self.cells[s.y as usize * self.width as usize + s.x as usize]
    }

    /// The terrain of a square.
    #[inline]
    pub fn terrain(&self, s: Square) -> Terrain {
        self.cell(s).terrain
    }

    /// The elevation of a square.
    pub fn elevation(&self, s: Square) -> u8 {
        self.cell(s).elevation
    }

    /// Whether a road runs through a square.
    #[inline]
    pub fn road(&self, s: Square) -> bool {
        self.cell(s).road
    }

    /// The neighbour of `s` in direction `d`, if on the board.
    #[inline]
    pub fn step(&self, s: Square, d: Dir) -> Option<Square> {
        s.step(d, self.width, self.height)
    }

    /// Whether a fence lies on the edge between `s` and its neighbour in direction `d` (R1.4).
    pub fn fence(&self, s: Square, d: Dir) -> bool {
        self.cell(s).fences & (1 << d.index()) != 0
    }

    /// Puts a fence on the edge between two adjacent squares (both must be on the board).
    pub fn add_fence(&mut self, a: Square, b: Square) {
        if let Some(d) = a.dir_to(b) {
            self.cell_mut(a).fences |= 1 << d.index();
            self.cell_mut(b).fences |= 1 << d.opposite().index();
        }
    }

    /// Sets the terrain of a square (for building maps in code).
    pub(crate) fn set_terrain(&mut self, s: Square, t: Terrain) {
        self.cell_mut(s).terrain = t;
    }

    /// Every square on the board, row by row from a1.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Square::new(x, y)))
    }

    /// The distance from a square to a board edge.
    pub fn distance_to_edge(&self, s: Square, edge: Dir) -> u8 {
        match edge {
            Dir::N => self.height - 1 - s.y,
            Dir::S => s.y,
            Dir::E => self.width - 1 - s.x,
            Dir::W => s.x,
        }
    }
}
