//! The battlefield: terrain, elevation, roads and fences (docs/rules.md R1).

use crate::geometry::{Dir, Square};
pub use crate::terrain::Terrain;
use crate::terrain::{MAX_TERRAINS, TerrainFlags, TerrainRules};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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

/// A validated battlefield: every cell inside a `width` × `height` rectangle, and what its terrains do under the
/// rules it is played by.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Map {
    width: u8,
    height: u8,
    cells: Vec<Cell>,
    /// The terrain kinds of the rules in force: the standard's, or a variant's ([`Map::with_terrain_rules`]).
    #[serde(skip)]
    terrain_rules: Arc<TerrainRules>,
    /// Each square as the move search and line of sight read it, in the order of `cells`: its terrain read once
    /// under those rules, so that they ask the square rather than the table (docs/PERFORMANCE.md).
    #[serde(skip)]
    terrain_at: Vec<SquareTerrain>,
}

/// A square as the hot paths read it, in one place: its terrain's place in the terrain table and flags, its
/// elevation and its road (copied from its [`Cell`], which stays the map's description).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
struct SquareTerrain {
    place: u8,
    flags: TerrainFlags,
    elevation: u8,
    road: bool,
}

impl SquareTerrain {
    fn of(cell: &Cell, rules: &TerrainRules) -> SquareTerrain {
        let place = cell.terrain.place() as u8;
        SquareTerrain { place, flags: rules.flags(cell.terrain), elevation: cell.elevation, road: cell.road }
    }
}

impl Map {
    /// A map of the given size and cells, row 1 first (row-major from the south-west corner).
    /// The caller (the scenario validator) guarantees the size is in range and `cells` has `width * height` entries.
    pub(crate) fn new(width: u8, height: u8, cells: Vec<Cell>) -> Map {
        debug_assert_eq!(cells.len(), width as usize * height as usize);
        let mut map = Map { width, height, cells, terrain_rules: TerrainRules::standard(), terrain_at: vec![] };
        map.read_terrain();
        map
    }

    /// Reads what each square's terrain does under the map's rules ([`Map::terrain_at`]).
    fn read_terrain(&mut self) {
        self.terrain_at = self.cells.iter().map(|c| SquareTerrain::of(c, &self.terrain_rules)).collect();
    }

    #[inline]
    fn index(&self, s: Square) -> usize {
        s.y as usize * self.width as usize + s.x as usize
    }

    /// What the terrain of `s` does (cover, sight, entry).
    #[inline]
    fn flags(&self, s: Square) -> TerrainFlags {
        self.terrain_at[self.index(s)].flags
    }

    /// The place of the terrain of `s` in the terrain table, for the table's per-kind lookups (the move's steps).
    #[inline]
    pub(crate) fn terrain_place(&self, s: Square) -> usize {
        // Within the table by construction; said so, the table's lookup needs no bounds check.
        usize::from(self.terrain_at[self.index(s)].place) & (MAX_TERRAINS - 1)
    }

    /// This map played under other terrain rules (a variant's, [`crate::Scenario::with_system`]); `None` when one
    /// of its squares has a terrain those rules do not have (a variant's own kind, under rules without it).
    pub fn with_terrain_rules(mut self, rules: Arc<TerrainRules>) -> Option<Map> {
        self.set_terrain_rules(rules).then_some(self)
    }

    /// Plays this map under other terrain rules, as [`Map::with_terrain_rules`]: `false`, the map unchanged, when
    /// one of its squares has a terrain those rules do not have.
    pub(crate) fn set_terrain_rules(&mut self, rules: Arc<TerrainRules>) -> bool {
        if self.cells.iter().any(|c| c.terrain.index() >= rules.kinds().len()) {
            return false;
        }
        self.terrain_rules = rules;
        self.read_terrain();
        true
    }

    /// The terrain kinds of the rules it is played by, and what each does (R1.5, R1.6).
    #[inline]
    pub fn terrain_rules(&self) -> &TerrainRules {
        &self.terrain_rules
    }

    /// Whether a unit on `s` is in cover by its terrain (R1.5, R6.3a).
    #[inline]
    pub fn gives_cover(&self, s: Square) -> bool {
        self.flags(s).gives_cover()
    }

    /// Whether the terrain of `s` blocks line of sight through it (R1.5, R6.2a).
    #[inline]
    pub fn blocks_sight(&self, s: Square) -> bool {
        self.flags(s).blocks_sight()
    }

    /// Whether units may enter `s` (R1.5, R5.1).
    #[inline]
    pub fn passable(&self, s: Square) -> bool {
        self.flags(s).passable()
    }

    /// What an impassable square is, in words after "is": "a river", or a variant's kind ("impassable (a cliff)").
    pub fn impassable_words(&self, s: Square) -> String {
        match self.terrain(s) {
            Terrain::River => "a river".to_string(),
            _ => format!("impassable ({})", self.terrain_name(s)),
        }
    }

    /// The letter of the terrain of `s` in a scenario map.
    pub fn letter(&self, s: Square) -> char {
        self.terrain_rules.kind(self.terrain(s)).letter
    }

    /// The name of the terrain of `s`, for players ("sunken road", "swamp").
    pub fn terrain_name(&self, s: Square) -> &str {
        &self.terrain_rules.kind(self.terrain(s)).name
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
        &self.cells[self.index(s)]
    }

    pub(crate) fn cell_mut(&mut self, s: Square) -> &mut Cell {
        let i = self.index(s);
        &mut self.cells[i]
    }

    /// The terrain of a square.
    #[inline]
    pub fn terrain(&self, s: Square) -> Terrain {
        self.cell(s).terrain
    }

    /// The elevation of a square.
    #[inline]
    pub fn elevation(&self, s: Square) -> u8 {
        self.terrain_at[self.index(s)].elevation
    }

    /// Whether a road runs through a square.
    #[inline]
    pub fn road(&self, s: Square) -> bool {
        self.terrain_at[self.index(s)].road
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
        let i = self.index(s);
        self.terrain_at[i] = SquareTerrain::of(&self.cells[i], &self.terrain_rules);
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
