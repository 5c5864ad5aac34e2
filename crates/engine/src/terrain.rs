//! The kinds of terrain and what each does (R1.3, R1.5, R1.6): the standard six and a variant's own
//! (`[[terrain]]` in docs/variants.md), in a small table indexed by a terrain's place, so that movement, line of
//! sight and cover read one entry of an array rather than match on names. The standard table gives exactly the
//! rules' R1.5; a map holds the table of the rules it is played by ([`crate::Map::terrain_rules`]).

use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// The most terrain kinds a variant may add to the standard six.
pub const MAX_OWN_TERRAINS: usize = 10;
/// The most terrain kinds a table holds: the standard six and a variant's own.
pub const MAX_TERRAINS: usize = Terrain::ALL.len() + MAX_OWN_TERRAINS;
const _: () = assert!(MAX_TERRAINS.is_power_of_two(), "Terrain::place masks an index into the table");
/// The most arms a table gives movement for (as many as a combat system may have).
pub const MAX_ARM_SLOTS: usize = 8;
/// The largest road bonus (R1.6) a variant may give.
pub const MAX_ROAD_BONUS: u8 = 6;

/// The terrain of a square (R1.3, R1.5): one of the standard six, or a variant's own.
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
    /// A variant's own terrain, by its place among the variant's new kinds (0 for the first): what it is and does
    /// is in the table of the rules in force ([`TerrainRules::kind`]).
    Own(u8),
}

impl Terrain {
    /// The standard terrains, in the order of the rules (R1.3).
    pub const ALL: [Terrain; 6] =
        [Terrain::Open, Terrain::Woods, Terrain::Town, Terrain::SunkenRoad, Terrain::River, Terrain::Ford];

    /// Its place in a terrain table: the standard six first, in their order, then a variant's own.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Terrain::Open => 0,
            Terrain::Woods => 1,
            Terrain::Town => 2,
            Terrain::SunkenRoad => 3,
            Terrain::River => 4,
            Terrain::Ford => 5,
            Terrain::Own(i) => Terrain::ALL.len() + i as usize,
        }
    }

    /// Its place in a table of [`MAX_TERRAINS`] entries, as the hot lookups read it: [`Terrain::index`] kept
    /// within the table (a map's terrains are always within it: its reader checks each letter), so that no bounds
    /// check is needed.
    #[inline]
    pub(crate) const fn place(self) -> usize {
        self.index() & (MAX_TERRAINS - 1)
    }

    /// The terrain at a place of a table.
    pub(crate) const fn at(index: usize) -> Terrain {
        match index {
            0..6 => Terrain::ALL[index],
            i => Terrain::Own((i - Terrain::ALL.len()) as u8),
        }
    }

    /// A standard terrain's letter in scenario maps (docs/scenario-format.md); a variant's own kind has the letter
    /// its table gives ([`TerrainRules::kind`]), `?` here.
    pub const fn char(self) -> char {
        match self {
            Terrain::Open => '.',
            Terrain::Woods => 'W',
            Terrain::Town => 'T',
            Terrain::SunkenRoad => 'S',
            Terrain::River => '~',
            Terrain::Ford => 'F',
            Terrain::Own(_) => '?',
        }
    }

    /// A standard terrain's name in the rules (R1.3); a variant's own kind has the name its table gives
    /// ([`TerrainRules::kind`]), "terrain" here.
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Open => "open",
            Terrain::Woods => "woods",
            Terrain::Town => "town",
            Terrain::SunkenRoad => "sunken road",
            Terrain::River => "river",
            Terrain::Ford => "ford",
            Terrain::Own(_) => "terrain",
        }
    }
}

/// What entering a terrain costs a moving unit (R5, R1.5).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Entry {
    /// It spends this many squares of the unit's move, 1 to 26.
    Cost(u8),
    /// It spends one square and ends the move (the standard's woods, town and ford).
    Stop,
    /// No unit may enter it (the standard's river).
    Impassable,
}

impl Entry {
    /// Its word or number in a variant file (`move = 2`, `move = "stop"`).
    pub fn file_value(self) -> String {
        match self {
            Entry::Cost(n) => n.to_string(),
            Entry::Stop => "\"stop\"".to_string(),
            Entry::Impassable => "\"impassable\"".to_string(),
        }
    }

    /// As JSON: the number, or the word.
    pub fn to_json(self) -> serde_json::Value {
        match self {
            Entry::Cost(n) => serde_json::json!(n),
            Entry::Stop => serde_json::json!("stop"),
            Entry::Impassable => serde_json::json!("impassable"),
        }
    }

    /// In words, for players ("entering ends the move").
    pub fn describe(self) -> String {
        match self {
            Entry::Cost(1) => "normal".to_string(),
            Entry::Cost(n) => format!("costs {n} squares of a move"),
            Entry::Stop => "entering ends the move".to_string(),
            Entry::Impassable => "impassable".to_string(),
        }
    }
}

/// A kind of terrain: what it is called, its letter in maps, and what it does.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TerrainKind {
    /// Its id, as conditions (`target.terrain == 'swamp'`) and the board name it (`sunken_road`).
    pub id: String,
    /// Its name, for players ("sunken road").
    pub name: String,
    /// Its letter in scenario maps.
    pub letter: char,
    /// Whether a unit standing in it is in cover (R1.5, R6.3a).
    pub cover: bool,
    /// Whether it blocks line of sight through it (R1.5, R6.2a).
    pub blocks_sight: bool,
    /// What entering it costs, for every arm not named in `by_arm`.
    pub entry: Entry,
    /// What entering it costs the arms named here (by their ids), in the file's order. Never impassable: a
    /// terrain is passable to every arm or to none.
    pub by_arm: Vec<(String, Entry)>,
}

/// What entering a terrain does to one arm's move, as the search reads it.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct Step {
    /// Squares of the move it spends; 0 when it may not be entered.
    pub cost: u8,
    /// Whether entering ends the move.
    pub stops: bool,
}

/// What a terrain does that the hot paths ask (cover, sight, entry), one bit each: read per square from the map
/// ([`crate::Map`] keeps them for each of its squares) rather than through the table.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct TerrainFlags(u8);

impl TerrainFlags {
    const COVER: u8 = 1;
    const BLOCKS_SIGHT: u8 = 2;
    const IMPASSABLE: u8 = 4;

    /// Whether a unit in it is in cover (R1.5, R6.3a).
    #[inline]
    pub(crate) fn gives_cover(self) -> bool {
        self.0 & Self::COVER != 0
    }

    /// Whether it blocks line of sight through it (R1.5, R6.2a).
    #[inline]
    pub(crate) fn blocks_sight(self) -> bool {
        self.0 & Self::BLOCKS_SIGHT != 0
    }

    /// Whether units may enter it (R1.5, R5.1).
    #[inline]
    pub(crate) fn passable(self) -> bool {
        self.0 & Self::IMPASSABLE == 0
    }
}

/// The terrain kinds of a combat system and what each does, with the road bonus (R1.6): the kinds in words, and the
/// same read for play (a flag byte per kind, a step per arm and kind).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TerrainRules {
    kinds: Vec<TerrainKind>,
    road_bonus: u8,
    flags: [TerrainFlags; MAX_TERRAINS],
    steps: [[Step; MAX_TERRAINS]; MAX_ARM_SLOTS],
    /// Whether every step costs one square: the move's search is then breadth first, each square seen once.
    unit_costs: bool,
}

impl TerrainRules {
    /// The standard terrains (R1.5) and road bonus (R1.6), shared.
    pub fn standard() -> Arc<TerrainRules> {
        static STANDARD: OnceLock<Arc<TerrainRules>> = OnceLock::new();
        STANDARD.get_or_init(|| Arc::new(TerrainRules::new(standard_kinds(), 1, &[]))).clone()
    }

    /// A table of `kinds` (the standard six first, in their order, then at most [`MAX_OWN_TERRAINS`] of a
    /// variant's) and a road bonus; `arms` are the combat system's arm ids in the order of their places, which
    /// `by_arm` entries name (an id not among them is left out: the variant file's reader refuses it first).
    pub fn new(kinds: Vec<TerrainKind>, road_bonus: u8, arms: &[&str]) -> TerrainRules {
        debug_assert!(kinds.len() >= Terrain::ALL.len() && kinds.len() <= MAX_TERRAINS);
        let mut flags = [TerrainFlags(TerrainFlags::IMPASSABLE); MAX_TERRAINS];
        let mut steps = [[Step::default(); MAX_TERRAINS]; MAX_ARM_SLOTS];
        let step = |entry: Entry| match entry {
            Entry::Cost(n) => Step { cost: n, stops: false },
            Entry::Stop => Step { cost: 1, stops: false }.stopping(),
            Entry::Impassable => Step::default(),
        };
        for (i, kind) in kinds.iter().enumerate().take(MAX_TERRAINS) {
            flags[i] = TerrainFlags(
                if kind.cover { TerrainFlags::COVER } else { 0 }
                    | if kind.blocks_sight { TerrainFlags::BLOCKS_SIGHT } else { 0 }
                    | if kind.entry == Entry::Impassable { TerrainFlags::IMPASSABLE } else { 0 },
            );
            for (slot, arm_steps) in steps.iter_mut().enumerate() {
                let own = kind.by_arm.iter().find(|(arm, _)| arms.get(slot) == Some(&arm.as_str()));
                arm_steps[i] = match own {
                    Some(&(_, entry)) if kind.entry != Entry::Impassable => step(entry),
                    _ => step(kind.entry),
                };
            }
        }
        let unit_costs = steps.iter().flatten().all(|s| s.cost <= 1);
        TerrainRules { kinds, road_bonus, flags, steps, unit_costs }
    }

    /// The kinds, the standard six first.
    pub fn kinds(&self) -> &[TerrainKind] {
        &self.kinds
    }

    /// What a terrain is and does.
    ///
    /// # Panics
    ///
    /// If the terrain is not of this table (a map's terrains always are: its reader checks each letter).
    pub fn kind(&self, t: Terrain) -> &TerrainKind {
        &self.kinds[t.index()]
    }

    /// The terrain of this id (`'swamp'`; a standard one's also with a space for the underscore).
    pub fn by_id(&self, id: &str) -> Option<Terrain> {
        self.kinds.iter().position(|k| k.id == id || k.id.replace('_', " ") == id).map(Terrain::at)
    }

    /// The terrain a map letter stands for under these rules.
    pub fn by_letter(&self, c: char) -> Option<Terrain> {
        self.kinds.iter().position(|k| k.letter == c).map(Terrain::at)
    }

    /// Its map letters, in the table's order.
    pub fn letters(&self) -> String {
        self.kinds.iter().map(|k| k.letter).collect()
    }

    /// The squares a Move order along a road all the way may add to the move (R1.6).
    pub fn road_bonus(&self) -> u8 {
        self.road_bonus
    }

    /// Whether a unit in this terrain is in cover (R1.5, R6.3a).
    #[inline]
    pub fn gives_cover(&self, t: Terrain) -> bool {
        self.flags[t.place()].gives_cover()
    }

    /// Whether this terrain blocks line of sight through it (R1.5, R6.2a).
    #[inline]
    pub fn blocks_sight(&self, t: Terrain) -> bool {
        self.flags[t.place()].blocks_sight()
    }

    /// Whether units may enter it (R1.5, R5.1).
    #[inline]
    pub fn passable(&self, t: Terrain) -> bool {
        self.flags[t.place()].passable()
    }

    /// What a terrain does that the hot paths ask, as flags.
    #[inline]
    pub(crate) fn flags(&self, t: Terrain) -> TerrainFlags {
        self.flags[t.place()]
    }

    /// What entering each terrain does to the move of the arm at place `slot` of the combat system's arms.
    #[inline]
    pub(crate) fn steps(&self, slot: usize) -> &[Step; MAX_TERRAINS] {
        &self.steps[slot.min(MAX_ARM_SLOTS - 1)]
    }

    /// Whether every passable terrain costs every arm one square (as in the standard rules).
    #[inline]
    pub(crate) fn unit_costs(&self) -> bool {
        self.unit_costs
    }
}

impl Step {
    const fn stopping(self) -> Step {
        Step { stops: true, ..self }
    }
}

/// The standard six as R1.5 has them.
fn standard_kinds() -> Vec<TerrainKind> {
    Terrain::ALL
        .iter()
        .map(|&t| {
            let id = match t {
                Terrain::SunkenRoad => "sunken_road".to_string(),
                t => t.name().to_string(),
            };
            TerrainKind {
                id,
                name: t.name().to_string(),
                letter: t.char(),
                cover: matches!(t, Terrain::Woods | Terrain::Town | Terrain::SunkenRoad),
                blocks_sight: matches!(t, Terrain::Woods | Terrain::Town),
                entry: match t {
                    Terrain::River => Entry::Impassable,
                    Terrain::Woods | Terrain::Town | Terrain::Ford => Entry::Stop,
                    _ => Entry::Cost(1),
                },
                by_arm: Vec::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_table_is_r1_5() {
        let t = TerrainRules::standard();
        let cover: Vec<Terrain> = Terrain::ALL.into_iter().filter(|&k| t.gives_cover(k)).collect();
        assert_eq!(cover, [Terrain::Woods, Terrain::Town, Terrain::SunkenRoad]);
        let sight: Vec<Terrain> = Terrain::ALL.into_iter().filter(|&k| t.blocks_sight(k)).collect();
        assert_eq!(sight, [Terrain::Woods, Terrain::Town]);
        let impassable: Vec<Terrain> = Terrain::ALL.into_iter().filter(|&k| !t.passable(k)).collect();
        assert_eq!(impassable, [Terrain::River]);
        let stops: Vec<Terrain> = Terrain::ALL.into_iter().filter(|&k| t.steps(0)[k.index()].stops).collect();
        assert_eq!(stops, [Terrain::Woods, Terrain::Town, Terrain::Ford]);
        assert!(t.unit_costs());
        assert_eq!(t.road_bonus(), 1);
        assert_eq!(t.letters(), ".WTS~F");
        assert_eq!(t.by_id("sunken road"), Some(Terrain::SunkenRoad));
        assert_eq!(t.by_letter('~'), Some(Terrain::River));
    }

    #[test]
    fn an_arm_may_enter_a_terrain_otherwise_than_the_others() {
        let mut kinds = standard_kinds();
        kinds[1].entry = Entry::Cost(2);
        kinds[1].by_arm.push(("cavalry".into(), Entry::Stop));
        kinds[4].by_arm.push(("cavalry".into(), Entry::Cost(1))); // the river stays impassable to every arm
        kinds.push(TerrainKind {
            id: "swamp".into(),
            name: "swamp".into(),
            letter: 'M',
            cover: false,
            blocks_sight: false,
            entry: Entry::Stop,
            by_arm: vec![],
        });
        let t = TerrainRules::new(kinds, 2, &["infantry", "cavalry", "artillery"]);
        assert_eq!(t.steps(0)[Terrain::Woods.index()], Step { cost: 2, stops: false });
        assert_eq!(t.steps(1)[Terrain::Woods.index()], Step { cost: 1, stops: true });
        assert_eq!(t.steps(1)[Terrain::River.index()].cost, 0);
        assert_eq!(t.by_letter('M'), Some(Terrain::Own(0)));
        assert_eq!(t.kind(Terrain::Own(0)).name, "swamp");
        assert!(!t.unit_costs());
    }
}
