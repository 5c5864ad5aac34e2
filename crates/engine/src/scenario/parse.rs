//! Reading a scenario file: raw TOML first, then every check of docs/scenario-format.md, all problems reported together.

use super::parse_events::{EventIds, RawChange, RawReinforcement, check_changes, check_reinforcements};
use super::{Colour, CounterColour, MAX_OBJECTIVES, MAX_TURNS, MAX_UNITS, Objective, Scenario, SideInfo};
use crate::geometry::{Dir, MAX_SIDE, MIN_SIDE, Square};
use crate::map::{Cell, Map, Terrain};
use crate::options::Options;
pub use crate::problem::Problem;
use crate::problem::{line_col, write_problems};
use crate::system::CombatSystem;
use crate::terrain::TerrainRules;
use crate::unit::{Arm, Quality, Side, UnitInfo};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;
use toml::Spanned;

/// Everything wrong with a scenario file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ScenarioError {
    /// The file's name as the user gave it.
    pub file: String,
    /// Every problem found, in file order where known.
    pub problems: Vec<Problem>,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_problems(f, &self.file, &self.problems)
    }
}

/// Reads a variant file a scenario names (`variant = "my-rules.toml"`): its text, or why it cannot be read.
pub type ReadVariant<'a> = &'a dyn Fn(&str) -> Result<String, String>;

#[derive(Deserialize)]
pub(super) struct RawScenario {
    name: Option<Spanned<String>>,
    description: Option<String>,
    /// A shipped variant the scenario is played by (docs/variants.md).
    variant: Option<Spanned<String>>,
    /// The side that attacks, by its id (for pooled reports).
    attacker: Option<Spanned<String>>,
    turns: Option<Spanned<i64>>,
    points_per_destroyed: Option<Spanned<i64>>,
    map: Option<Spanned<RawMap>>,
    #[serde(default)]
    sides: Vec<Spanned<RawSide>>,
    #[serde(default)]
    units: Vec<Spanned<RawUnit>>,
    #[serde(default)]
    objectives: Vec<Spanned<RawObjective>>,
    /// Units that arrive during the battle (docs/scenario-format.md#events).
    #[serde(default)]
    reinforcements: Vec<Spanned<RawReinforcement>>,
    /// Values that change at the start of a turn.
    #[serde(default)]
    changes: Vec<Spanned<RawChange>>,
    options: Option<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
}

#[derive(Deserialize)]
pub(super) struct RawMap {
    terrain: Option<Spanned<String>>,
    elevation: Option<Spanned<String>>,
    roads: Option<Spanned<String>>,
    #[serde(default)]
    fences: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
pub(super) struct RawSide {
    id: Option<Spanned<String>>,
    name: Option<String>,
    home: Option<Spanned<String>>,
    colour: Option<Spanned<String>>,
    counter: Option<Spanned<String>>,
    exhaustion: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
pub(super) struct RawUnit {
    pub(super) side: Option<Spanned<String>>,
    pub(super) name: Option<String>,
    arm: Option<Spanned<String>>,
    quality: Option<Spanned<String>>,
    pub(super) at: Option<Spanned<String>>,
    facing: Option<Spanned<String>>,
}

#[derive(Deserialize)]
pub(super) struct RawObjective {
    at: Option<Spanned<String>>,
    points: Option<Spanned<i64>>,
    holder: Option<Spanned<String>>,
}

/// Where a problem of something missing from the whole file is placed: its start (line 1, column 1), so that every
/// problem has a place to point at.
pub(super) const FILE_START: Option<Range<usize>> = Some(0..0);

/// Collects problems with their positions.
pub(super) struct Report<'a> {
    source: &'a str,
    pub(super) problems: Vec<Problem>,
    /// The arms of the combat system the scenario is read for beyond the standard three: (id, the arm it acts as).
    own_arms: Vec<(&'a str, Arm)>,
    /// The terrain kinds of that combat system: a map letter is one of theirs.
    terrain: Arc<TerrainRules>,
}

impl Report<'_> {
    pub(super) fn at(&mut self, span: Option<Range<usize>>, message: impl Into<String>) {
        let (line, column) = match span {
            Some(span) => {
                let (l, c) = line_col(self.source, span.start);
                (Some(l), Some(c))
            }
            None => (None, None),
        };
        self.problems.push(Problem { line, column, message: message.into(), square: None, unit: None });
    }

    /// Places the problems reported since the `first`: on `square` (unless they have their own) and `unit`.
    pub(super) fn place_since(&mut self, first: usize, square: Option<Square>, unit: Option<usize>) {
        for p in &mut self.problems[first..] {
            p.square = p.square.or(square);
            p.unit = p.unit.or(unit);
        }
    }
}

/// A map layer split into rows, north first, with spaces removed; each row keeps the byte offset of each character.
fn layer_rows(text: &Spanned<String>, source: &str) -> Vec<Vec<(char, usize)>> {
    // The span covers the quoted literal; find where the string content begins in the source to place characters.
    let span = text.span();
    let literal = &source[span.clone()];
    let content_start = span.start + literal.find(|c: char| c != '"' && c != '\'').unwrap_or(0);
    let skip_newline = if literal.starts_with("\"\"\"") || literal.starts_with("'''") { 1 } else { 0 };
    let mut rows = Vec::new();
    let mut offset = content_start + skip_newline;
    for line in text.get_ref().split('\n') {
        let row: Vec<(char, usize)> =
            line.char_indices().filter(|(_, c)| !c.is_whitespace()).map(|(i, c)| (c, offset + i)).collect();
        if !row.is_empty() {
            rows.push(row);
        }
        offset += line.len() + 1;
    }
    rows
}

/// The one key of a scenario that names its variant, read alone.
#[derive(Deserialize)]
struct Named {
    variant: Option<Spanned<String>>,
}

impl Scenario {
    /// Parses and checks a scenario; `file` names it in messages.
    ///
    /// ```
    /// use pacw_engine::Scenario;
    /// let text = r#"
    /// name = "Tiny"
    /// turns = 3
    /// [map]
    /// terrain = """
    /// ....
    /// ....
    /// ....
    /// ....
    /// """
    /// [[sides]]
    /// id = "blue"
    /// name = "Blue"
    /// home = "south"
    /// [[sides]]
    /// id = "grey"
    /// name = "Grey"
    /// home = "north"
    /// [[units]]
    /// side = "blue"
    /// arm = "inf"
    /// at = "b1"
    /// [[units]]
    /// side = "grey"
    /// arm = "cav"
    /// at = "c4"
    /// "#;
    /// let s = Scenario::parse(text, "tiny.toml").unwrap();
    /// assert_eq!(s.units.len(), 2);
    /// let bad = Scenario::parse(&text.replace("b1", "q9"), "tiny.toml").unwrap_err();
    /// assert!(bad.to_string().contains("q9"));
    /// ```
    ///
    /// # Errors
    /// When the text is not a valid scenario: every problem found, each at its line and column.
    pub fn parse(source: &str, file: &str) -> Result<Scenario, ScenarioError> {
        Scenario::parse_for(source, file, None, None)
    }

    /// [`Scenario::parse`], where the scenario's `variant` may also name a variant file of its author's
    /// (`variant = "my-rules.toml"`), whose text `read` gives or says why it cannot (the command line reads it beside
    /// the scenario file; the engine reads no file).
    ///
    /// # Errors
    ///
    /// Every problem of the text, as [`Scenario::parse`]; a variant file that cannot be read, or is not a good one,
    /// at the scenario's `variant` key.
    pub fn parse_reading(source: &str, file: &str, read: ReadVariant) -> Result<Scenario, ScenarioError> {
        Scenario::parse_for(source, file, None, Some(read))
    }

    /// [`Scenario::parse`] for a game played by `system` (a variant's, in place of any the scenario names): its
    /// units may be of the variant's own arms, and the scenario is returned played by it
    /// ([`Scenario::with_system`]).
    ///
    /// # Errors
    ///
    /// Every problem of the text, as [`Scenario::parse`]; an option of the variant's the scenario refuses.
    pub fn parse_with(source: &str, file: &str, system: Arc<CombatSystem>) -> Result<Scenario, ScenarioError> {
        Scenario::parse_for(source, file, Some(system), None)
    }

    /// The rules the scenario `source` names for itself (`variant = "close-combat"`, or a variant file that `read`
    /// gives, as [`Scenario::parse_reading`] reads it), which the variant files given for a game are laid over
    /// ([`CombatSystem::with_layer`], docs/variants.md "Variants that combine"); the standard when it names none.
    ///
    /// ```
    /// use pacw_engine::Scenario;
    /// let text = format!("variant = \"close-combat\"\n{}", pacw_engine::DEFAULT_SCENARIO);
    /// assert_eq!(Scenario::own_rules(&text, "m.toml", None).unwrap().layers()[0].file, "close-combat.toml");
    /// assert!(Scenario::own_rules(pacw_engine::DEFAULT_SCENARIO, "m.toml", None).unwrap().layers().is_empty());
    /// ```
    ///
    /// # Errors
    ///
    /// A variant it names that cannot be read or is not a good one, at its `variant` key. A text that is not TOML
    /// gives the standard: parsing the scenario says what is wrong with it.
    pub fn own_rules(source: &str, file: &str, read: Option<ReadVariant>) -> Result<CombatSystem, ScenarioError> {
        let Ok(Named { variant: Some(name) }) = toml::from_str::<Named>(source) else {
            return Ok(CombatSystem::standard());
        };
        let mut r = Report { source, problems: vec![], own_arms: Vec::new(), terrain: TerrainRules::standard() };
        match named_variant(&mut r, &name, read) {
            Some(system) => Ok(Arc::unwrap_or_clone(system)),
            None => Err(ScenarioError { file: file.to_string(), problems: r.problems }),
        }
    }

    /// Whether a scenario's text names a variant of its own (`variant = "…"`), read or not.
    pub fn names_variant(source: &str) -> bool {
        matches!(toml::from_str::<Named>(source), Ok(Named { variant: Some(_) }))
    }

    /// [`Scenario::parse`] for a game played by the standard rules, whatever variant the scenario names (the
    /// laboratory's `--compare rules=standard,…` sets the standard beside the scenario's own variant).
    ///
    /// ```
    /// use pacw_engine::Scenario;
    /// let text = format!("variant = \"close-combat\"\n{}", pacw_engine::DEFAULT_SCENARIO);
    /// assert!(Scenario::parse(&text, "m.toml").unwrap().variant().is_some());
    /// assert!(Scenario::parse_standard(&text, "m.toml").unwrap().variant().is_none());
    /// ```
    ///
    /// # Errors
    ///
    /// Every problem of the text, as [`Scenario::parse`]; a unit of an arm the standard rules do not have.
    pub fn parse_standard(source: &str, file: &str) -> Result<Scenario, ScenarioError> {
        // Read as played by the standard file, which stands in for whatever the scenario names, then played by the
        // built-in rules it describes exactly: the same games, at the built-in rules' speed.
        Scenario::parse_with(source, file, CombatSystem::shared_standard())
    }

    fn parse_for(
        source: &str,
        file: &str,
        given: Option<Arc<CombatSystem>>,
        read: Option<ReadVariant>,
    ) -> Result<Scenario, ScenarioError> {
        let fail = |problems| ScenarioError { file: file.to_string(), problems };
        let raw: RawScenario = match toml::from_str(source) {
            Ok(raw) => raw,
            Err(e) => {
                let mut r =
                    Report { source, problems: vec![], own_arms: Vec::new(), terrain: TerrainRules::standard() };
                r.at(e.span(), e.message().trim().to_string());
                return Err(fail(r.problems));
            }
        };
        let mut problems = Vec::new();
        // The rules: those given, else the shipped variant the scenario names (`variant = "close-combat"`).
        let system = match (given, &raw.variant) {
            (Some(system), _) => Some(system),
            (None, Some(name)) => {
                let mut r =
                    Report { source, problems: vec![], own_arms: Vec::new(), terrain: TerrainRules::standard() };
                let system = named_variant(&mut r, name, read);
                problems = r.problems;
                system
            }
            (None, None) => None,
        };
        let own_arms: Vec<(&str, Arm)> = system
            .as_deref()
            .map(|s| s.arms().iter().skip(Arm::ALL.len()).map(|a| (a.id.as_str(), a.like)).collect())
            .unwrap_or_default();
        let terrain = system.as_deref().map_or_else(TerrainRules::standard, |s| s.terrain_rules().clone());
        let mut r = Report { source, problems, own_arms, terrain };
        let scenario = check(raw, &mut r);
        match scenario {
            Some(s) if r.problems.is_empty() => match system {
                Some(system) => s.with_system(system.clone()).map_err(|e| {
                    fail(vec![Problem { line: None, column: None, message: e.to_string(), square: None, unit: None }])
                }),
                None => Ok(s),
            },
            _ => {
                r.problems.sort_by_key(|p| (p.line.unwrap_or(usize::MAX), p.column.unwrap_or(0)));
                Err(fail(r.problems))
            }
        }
    }
}

/// The variant a scenario names: a shipped one ([`crate::SHIPPED_VARIANTS`]), else a variant file that `read`
/// gives; or a problem at its name.
fn named_variant(r: &mut Report, name: &Spanned<String>, read: Option<ReadVariant>) -> Option<Arc<CombatSystem>> {
    let shipped = crate::shipped_named(crate::SHIPPED_VARIANTS.iter().copied(), name.get_ref())
        .map(|v| (v.file, v.text.to_string()));
    let own = || match read {
        Some(read) => read(name.get_ref()).map(|text| (name.get_ref().as_str(), text)),
        None => Err("a variant file of your own is read only beside a scenario file given to pacw's commands; \
                     here give its text (the API's variant_text) or --variant FILE"
            .to_string()),
    };
    let (file, text) = match shipped.map(Ok).unwrap_or_else(own) {
        Ok(found) => found,
        Err(why) => {
            let known: Vec<&str> = crate::SHIPPED_VARIANTS.iter().map(|v| v.name).collect();
            r.at(
                Some(name.span()),
                format!(
                    "variant '{}' is not a shipped variant ({}) nor a variant file that can be read: {why}",
                    name.get_ref(),
                    known.join(", ")
                ),
            );
            return None;
        }
    };
    match CombatSystem::with_variant(&text, file) {
        Ok(system) => Some(Arc::new(system)),
        Err(e) => {
            r.at(Some(name.span()), e.to_string());
            None
        }
    }
}

pub(super) fn parse_side_key(r: &mut Report, ids: &[String], value: &Spanned<String>, what: &str) -> Option<Side> {
    let side = ids.iter().position(|id| id == value.get_ref()).map(|i| if i == 0 { Side::A } else { Side::B });
    if side.is_none() {
        r.at(
            Some(value.span()),
            format!("{what} names unknown side '{}' (sides: {})", value.get_ref(), ids.join(", ")),
        );
    }
    side
}

pub(super) fn parse_square(r: &mut Report, map: Option<&Map>, value: &Spanned<String>, what: &str) -> Option<Square> {
    match value.get_ref().parse::<Square>() {
        Ok(s) => match map {
            Some(m) if !m.contains(s) => {
                r.at(Some(value.span()), format!("{what}: square {s} is off the board ({}×{})", m.width(), m.height()));
                None
            }
            _ => Some(s),
        },
        Err(e) => {
            r.at(Some(value.span()), format!("{what}: {e}"));
            None
        }
    }
}

fn check(raw: RawScenario, r: &mut Report) -> Option<Scenario> {
    let name = match raw.name {
        Some(n) if !n.get_ref().trim().is_empty() => n.into_inner(),
        Some(n) => {
            r.at(Some(n.span()), "name must not be empty");
            String::new()
        }
        None => {
            r.at(FILE_START, "missing `name`");
            String::new()
        }
    };
    let turns = match raw.turns {
        Some(t) if (1..=MAX_TURNS as i64).contains(t.get_ref()) => *t.get_ref() as u8,
        Some(t) => {
            r.at(Some(t.span()), format!("turns = {} is out of range (1 to {MAX_TURNS}) (R8.2)", t.get_ref()));
            1
        }
        None => {
            r.at(FILE_START, "missing `turns` (the turn limit, R8.2)");
            1
        }
    };
    let points_per_destroyed = match raw.points_per_destroyed {
        None => 1,
        Some(p) if (0..=99).contains(p.get_ref()) => *p.get_ref() as u8,
        Some(p) => {
            r.at(Some(p.span()), format!("points_per_destroyed = {} is out of range (0 to 99)", p.get_ref()));
            1
        }
    };
    let map = match raw.map {
        Some(m) => check_map(m, r),
        None => {
            r.at(FILE_START, "missing [map] table");
            None
        }
    };
    let sides = check_sides(&raw.sides, r);
    let ids: Vec<String> =
        raw.sides.iter().filter_map(|s| s.get_ref().id.as_ref().map(|i| i.get_ref().clone())).collect();
    let cx = UnitContext { map: map.as_ref(), ids: &ids, sides: sides.as_ref() };
    let mut counts = [0usize; 3 * 2];
    let mut units = check_units(&raw.units, r, &cx, &mut counts);
    let at_start = units.len();
    let mut event_ids = EventIds::default();
    let reinforcements =
        check_reinforcements(&raw.reinforcements, r, &cx, turns, &mut units, &mut counts, &mut event_ids);
    let objectives = check_objectives(&raw.objectives, r, map.as_ref(), &ids);
    let attacker = raw.attacker.as_ref().and_then(|a| parse_side_key(r, &ids, a, "attacker"));
    let mut options = Options::default();
    let options_span =
        raw.options.as_ref().and_then(|t| t.keys().find(|k| k.get_ref() == "exhaustion").map(|k| k.span()));
    if let Some(table) = raw.options {
        check_options(&table, r, &mut options, &ids);
    }
    let unit_counts = Side::BOTH.map(|side| units.iter().filter(|u| u.side == side).count());
    let changes = check_changes(&raw.changes, r, &cx, &objectives, turns, unit_counts, &mut event_ids);
    let mut sides = sides?;
    // Exhaustion needs the unit counts, reinforcements included (R8.1); the units at the start must be some.
    for side in Side::BOTH {
        let count = unit_counts[side.index()];
        let (given, span) = &mut sides.1[side.index()];
        let info = &mut sides.0[side.index()];
        if units[..at_start].iter().all(|u| u.side != side) {
            let why = if count == 0 { "" } else { " on the board at the start (reinforcements come later)" };
            r.at(span.clone(), format!("side '{}' has no units{why}", info.id));
            continue;
        }
        if let Some(e) = options.exhaustion[side.index()].filter(|&e| e as usize > count) {
            let why = format!("option exhaustion.{}: {e} is more than the side's {count} units (R8.1)", info.id);
            r.at(options_span.clone(), why);
        }
        match given {
            None => info.exhaustion = count.div_ceil(2) as u8,
            Some(e) if *e >= 1 && *e as usize <= count => info.exhaustion = *e as u8,
            Some(e) => r.at(
                span.clone(),
                format!("side '{}': exhaustion = {e} must be from 1 to its number of units, {count} (R8.1)", info.id),
            ),
        }
    }
    let mut scenario = Scenario {
        name,
        description: raw.description.unwrap_or_default(),
        turns,
        points_per_destroyed,
        map: map?,
        sides: sides.0,
        units,
        objectives,
        reinforcements,
        changes,
        attacker,
        options,
        system: CombatSystem::shared_standard(),
        checked: super::Checked,
    };
    scenario.resolve_numbers(&options);
    Some(scenario)
}

fn check_map(raw: Spanned<RawMap>, r: &mut Report) -> Option<Map> {
    let map_span = raw.span();
    let raw = raw.into_inner();
    let Some(terrain) = raw.terrain else {
        r.at(Some(map_span), "[map] has no `terrain`");
        return None;
    };
    let rows = layer_rows(&terrain, r.source);
    if rows.is_empty() {
        r.at(Some(terrain.span()), "the terrain map is empty");
        return None;
    }
    let height = rows.len();
    let width = rows[0].len();
    // A map of the right shape is kept even with bad characters (read as open), so that the checks that need it
    // (squares on the board, rivers, fences) still run and every problem is reported at once.
    let mut ok = true;
    for (i, row) in rows.iter().enumerate() {
        if row.len() != width {
            r.at(
                Some(row[0].1..row[0].1),
                format!(
                    "terrain row {} (map row {}) has {} squares, the first row has {width}",
                    i + 1,
                    height - i,
                    row.len()
                ),
            );
            ok = false;
        }
    }
    for (what, n) in [("width", width), ("height", height)] {
        if !(MIN_SIDE as usize..=MAX_SIDE as usize).contains(&n) {
            r.at(Some(terrain.span()), format!("map {what} {n} is outside 4 to 26 (R1.1)"));
            ok = false;
        }
    }
    let mut cells = vec![Cell { terrain: Terrain::Open, elevation: 0, road: false, fences: 0 }; width * height];
    let index = |i: usize, j: usize| (height - 1 - i) * width + j;
    let square_name = |i: usize, j: usize| Square::new(j as u8, (height - 1 - i) as u8).to_string();
    // A square to mark, only when the map's shape is sound (else the index means nothing on the board).
    let square_at = |i: usize, j: usize| ok.then(|| Square::new(j as u8, (height - 1 - i) as u8));
    for (i, row) in rows.iter().enumerate() {
        for (j, &(c, at)) in row.iter().enumerate().take(width) {
            match r.terrain.by_letter(c) {
                Some(t) => cells[index(i, j)].terrain = t,
                None => {
                    let first = r.problems.len();
                    let letters: Vec<String> = r.terrain.letters().chars().map(String::from).collect();
                    r.at(
                        Some(at..at),
                        format!(
                            "unknown terrain character '{c}' at {} (expected {}{})",
                            square_name(i, j),
                            letters.join(" "),
                            if r.terrain.kinds().len() > Terrain::ALL.len() { ", with the variant's" } else { "" }
                        ),
                    );
                    r.place_since(first, square_at(i, j), None);
                }
            }
        }
    }
    let mut layer =
        |text: &Option<Spanned<String>>, what: &str, cells: &mut Vec<Cell>, apply: &dyn Fn(char, &mut Cell) -> bool| {
            let Some(text) = text else { return };
            let rows = layer_rows(text, r.source);
            if rows.len() != height || rows.iter().any(|row| row.len() != width) {
                let shape = rows.first().map_or(0, |r| r.len());
                r.at(
                    Some(text.span()),
                    format!("the {what} layer is {shape}×{} but the terrain is {width}×{height}", rows.len()),
                );
                return;
            }
            for (i, row) in rows.iter().enumerate() {
                for (j, &(c, at)) in row.iter().enumerate() {
                    if !apply(c, &mut cells[index(i, j)]) {
                        let first = r.problems.len();
                        r.at(Some(at..at), format!("unknown {what} character '{c}' at {}", square_name(i, j)));
                        r.place_since(first, square_at(i, j), None);
                    }
                }
            }
        };
    layer(&raw.elevation, "elevation", &mut cells, &|c, cell| match c.to_digit(10) {
        Some(d @ 0..=3) => {
            cell.elevation = d as u8;
            true
        }
        _ => false,
    });
    layer(&raw.roads, "road", &mut cells, &|c, cell| match c {
        '#' => {
            cell.road = true;
            true
        }
        '.' => true,
        _ => false,
    });
    // Fences are checked against the first row's width and the number of rows even when the shape is wrong, so
    // that their mistakes are reported in the same run.
    let fences = check_fences(&raw.fences, width, height, r);
    if !ok {
        return None;
    }
    // Every cell's terrain is one of these rules' (read by its letter above).
    let mut map = Map::new(width as u8, height as u8, cells).with_terrain_rules(r.terrain.clone())?;
    for (a, b) in fences {
        map.add_fence(a, b);
    }
    Some(map)
}

/// The fences that are sound (two adjacent squares on a board of `width`×`height`); a problem for each other one.
fn check_fences(raw: &[Spanned<String>], width: usize, height: usize, r: &mut Report) -> Vec<(Square, Square)> {
    let mut out = Vec::new();
    for fence in raw {
        let Some((a, b)) = fence.get_ref().split_once('-') else {
            r.at(Some(fence.span()), format!("fence '{}' is not of the form c2-c3", fence.get_ref()));
            continue;
        };
        let mut square = |text: &str| match text.trim().parse::<Square>() {
            Ok(s) if (s.x as usize) < width && (s.y as usize) < height => Some(s),
            Ok(s) => {
                r.at(Some(fence.span()), format!("fence: square {s} is off the board ({width}×{height})"));
                None
            }
            Err(e) => {
                r.at(Some(fence.span()), format!("fence: {e}"));
                None
            }
        };
        let (a, b) = (square(a), square(b));
        if let (Some(a), Some(b)) = (a, b) {
            if a.is_adjacent(b) {
                out.push((a, b));
            } else {
                let first = r.problems.len();
                r.at(Some(fence.span()), format!("fence {a}-{b}: the squares are not adjacent (R1.4)"));
                r.place_since(first, Some(a), None);
            }
        }
    }
    out
}

/// The sides, and for each its given exhaustion with its place (checked once units are known).
pub(super) type CheckedSides = ([SideInfo; 2], [(Option<i64>, Option<Range<usize>>); 2]);

fn check_sides(raw: &[Spanned<RawSide>], r: &mut Report) -> Option<CheckedSides> {
    if raw.len() != 2 {
        // At the extra side, or at the one side there is, or at the file's start when there is none.
        let at = raw.get(2).or(raw.last()).map(|s| s.span()).or(FILE_START);
        r.at(at, format!("a scenario needs exactly two [[sides]], this one has {}", raw.len()));
    }
    let mut out = Vec::new();
    for (i, spanned) in raw.iter().enumerate() {
        let s = spanned.get_ref();
        let id = match &s.id {
            Some(id) if !id.get_ref().is_empty() => id.get_ref().clone(),
            _ => {
                r.at(Some(spanned.span()), format!("side {} has no `id`", i + 1));
                format!("side{}", i + 1)
            }
        };
        let home = match &s.home {
            Some(h) => match Dir::ALL.into_iter().find(|d| d.edge_name() == h.get_ref()) {
                Some(dir) => Some(dir),
                None => {
                    let other = h.get_ref();
                    r.at(
                        Some(h.span()),
                        format!("side '{id}': unknown home edge '{other}' (north, south, east or west)"),
                    );
                    None
                }
            },
            None => {
                r.at(Some(spanned.span()), format!("side '{id}' has no `home` edge"));
                None
            }
        };
        let colour = match &s.colour {
            None => Some(if i == 0 { Colour::Red } else { Colour::Black }),
            Some(c) => match c.get_ref().as_str() {
                "red" => Some(Colour::Red),
                "black" => Some(Colour::Black),
                other => {
                    r.at(Some(c.span()), format!("side '{id}': unknown colour '{other}' (red or black)"));
                    None
                }
            },
        };
        let side = if i == 0 { Side::A } else { Side::B };
        let counter = match &s.counter {
            None => CounterColour::default_for(side),
            Some(c) => CounterColour::parse(c.get_ref()).unwrap_or_else(|| {
                let why = format!("side '{id}': counter '{}' is not a colour name or #rrggbb", c.get_ref());
                r.at(Some(c.span()), why);
                CounterColour::default_for(side)
            }),
        };
        let info = SideInfo {
            name: s.name.clone().unwrap_or_else(|| id.clone()),
            id,
            home: home.unwrap_or(Dir::N),
            colour: colour.unwrap_or(Colour::Red),
            counter,
            exhaustion: 1,
        };
        let exhaustion = (
            s.exhaustion.as_ref().map(|e| *e.get_ref()),
            Some(s.exhaustion.as_ref().map_or(spanned.span(), |e| e.span())),
        );
        out.push((info, exhaustion, home.is_some(), colour.is_some(), spanned.span()));
    }
    if out.len() == 2 {
        let (a, b) = (&out[0], &out[1]);
        if a.0.id == b.0.id {
            r.at(Some(b.4.clone()), format!("two sides have the id '{}'", b.0.id));
        }
        if a.3 && b.3 && a.0.colour == b.0.colour {
            r.at(Some(b.4.clone()), "the two sides have the same card colour (R2.1)");
        }
        if a.0.counter == b.0.counter {
            r.at(Some(b.4.clone()), format!("the two sides have the same counter colour '{}'", b.0.counter));
        }
        if a.2 && b.2 && a.0.home == b.0.home {
            r.at(Some(b.4.clone()), "the two sides have the same home edge (R2.1)");
        }
    }
    if out.len() != 2 {
        return None;
    }
    let mut it = out.into_iter();
    let (a, ea, ..) = it.next()?;
    let (b, eb, ..) = it.next()?;
    Some(([a, b], [ea, eb]))
}

/// What a unit's checks need to know of the rest of the file.
pub(super) struct UnitContext<'a> {
    /// The map, when it is sound.
    pub(super) map: Option<&'a Map>,
    /// The sides' ids, in file order.
    pub(super) ids: &'a [String],
    /// The sides, when there are two.
    pub(super) sides: Option<&'a CheckedSides>,
}

/// The units on the board at the start; their count per side and arm goes on in `counts` (a unit's default name).
fn check_units(raw: &[Spanned<RawUnit>], r: &mut Report, cx: &UnitContext, counts: &mut [usize; 6]) -> Vec<UnitInfo> {
    if raw.len() > MAX_UNITS {
        r.at(Some(raw[MAX_UNITS].span()), format!("too many units: {} (at most {MAX_UNITS})", raw.len()));
    }
    let mut units: Vec<UnitInfo> = Vec::new();
    for (i, spanned) in raw.iter().enumerate() {
        let label = match &spanned.get_ref().name {
            Some(n) => format!("unit {} ({n})", i + 1),
            None => format!("unit {}", i + 1),
        };
        let unit = check_unit(
            spanned,
            r,
            cx,
            UnitPlace { label, index: Some(i), side: UnitSide::Own, others: &units },
            counts,
        );
        units.push(unit);
    }
    units
}

/// Where a unit stands in the file and what it must not clash with.
pub(super) struct UnitPlace<'a> {
    /// How messages name it: "unit 3 (Iron Brigade)".
    pub(super) label: String,
    /// Its index among the file's `[[units]]`, for the problems' `unit` (none for a reinforcement's).
    pub(super) index: Option<usize>,
    /// Whose side it is of: its table's, or its group's (a reinforcement's: `None` when the group's is unknown).
    pub(super) side: UnitSide,
    /// The units whose squares it may not share (R2.5): none for a reinforcement, which waits for its square.
    pub(super) others: &'a [UnitInfo],
}

/// Where a unit's side comes from.
pub(super) enum UnitSide {
    /// Its table's `side`.
    Own,
    /// Its reinforcement group's, if that is known; its own `side`, if given, must agree.
    Group(Option<Side>),
}

/// One unit's table, checked; a placeholder when it has a problem (the scenario is then refused anyway).
pub(super) fn check_unit(
    spanned: &Spanned<RawUnit>,
    r: &mut Report,
    cx: &UnitContext,
    place: UnitPlace,
    counts: &mut [usize; 6],
) -> UnitInfo {
    let (map, ids, sides) = (cx.map, cx.ids, cx.sides);
    let first = r.problems.len();
    let u = spanned.get_ref();
    let label = place.label;
    let side = match (&u.side, place.side) {
        (Some(s), UnitSide::Own) => parse_side_key(r, ids, s, &label),
        (Some(s), UnitSide::Group(group)) => {
            let own = parse_side_key(r, ids, s, &label);
            if let (Some(own), Some(group)) = (own, group)
                && own != group
            {
                r.at(Some(s.span()), format!("{label}: side '{}' is not its group's side", s.get_ref()));
            }
            group
        }
        (None, UnitSide::Group(group)) => group,
        (None, UnitSide::Own) => {
            r.at(Some(spanned.span()), format!("{label} has no `side`"));
            None
        }
    };
    // A standard arm, or one of the variant's own (acting as its `like`, with its index among the system's arms).
    let arm = match &u.arm {
        Some(a) => {
            let own = r.own_arms.iter().position(|(id, _)| id == a.get_ref());
            let arm = match own {
                Some(i) => Some((r.own_arms[i].1, Some((Arm::ALL.len() + i) as u8))),
                None => Arm::parse(a.get_ref()).map(|arm| (arm, None)),
            };
            if arm.is_none() {
                let mut known = vec!["infantry", "cavalry", "artillery"];
                known.extend(r.own_arms.iter().map(|(id, _)| *id));
                r.at(Some(a.span()), format!("{label}: unknown arm '{}' ({})", a.get_ref(), known.join(", ")));
            }
            arm
        }
        None => {
            r.at(Some(spanned.span()), format!("{label} has no `arm`"));
            None
        }
    };
    let quality = match &u.quality {
        None => Some(Quality::Regular),
        Some(q) => {
            let quality = Quality::parse(q.get_ref());
            if quality.is_none() {
                r.at(Some(q.span()), format!("{label}: unknown quality '{}' (green, regular, veteran)", q.get_ref()));
            }
            quality
        }
    };
    let at = match &u.at {
        Some(at) => parse_square(r, map, at, &label),
        None => {
            r.at(Some(spanned.span()), format!("{label} has no square (`at`)"));
            None
        }
    };
    let label = match at {
        Some(at) => format!("{label} at {at}"),
        None => label,
    };
    let facing = match &u.facing {
        Some(f) => match f.get_ref().parse::<Dir>() {
            Ok(d) => Some(d),
            Err(e) => {
                r.at(Some(f.span()), format!("{label}: {e}"));
                None
            }
        },
        // Toward the enemy's home edge.
        None => side.and_then(|s| sides.map(|sd| sd.0[s.other().index()].home)),
    };
    if let (Some(at), Some(map)) = (at, map)
        && !map.passable(at)
    {
        let what = match map.terrain(at) {
            Terrain::River => "a river".to_string(),
            _ => format!("{}, impassable", map.terrain_name(at)),
        };
        r.at(u.at.as_ref().map(|a| a.span()), format!("{label}: a unit cannot stand on {what} (R1.5)"));
    }
    if let Some(at) = at
        && let Some(other) = place.others.iter().position(|o| o.at == at)
    {
        r.at(u.at.as_ref().map(|a| a.span()), format!("{label}: square {at} already holds unit {} (R2.5)", other + 1));
    }
    r.place_since(first, at, place.index);
    if let (Some(side), Some((arm, own_arm)), Some(quality), Some(at), Some(facing)) = (side, arm, quality, at, facing)
    {
        counts[side.index() * 3 + arm.index()] += 1;
        let n = counts[side.index() * 3 + arm.index()];
        let side_name = match sides {
            Some(sides) => sides.0[side.index()].name.clone(),
            None => ids.get(side.index()).cloned().unwrap_or_default(),
        };
        let name = u.name.clone().unwrap_or_else(|| format!("{side_name} {} {n}", arm.short()));
        UnitInfo { name, side, arm, quality, at, facing, own_arm, numbers: Default::default() }
    } else {
        // Keep indices aligned with the file for later messages; this scenario is rejected anyway.
        UnitInfo {
            name: String::new(),
            side: Side::A,
            arm: Arm::Infantry,
            quality: Quality::Regular,
            at: Square::new(255, 255),
            facing: Dir::N,
            own_arm: None,
            numbers: Default::default(),
        }
    }
}

fn check_objectives(
    raw: &[Spanned<RawObjective>],
    r: &mut Report,
    map: Option<&Map>,
    ids: &[String],
) -> Vec<Objective> {
    if raw.len() > MAX_OBJECTIVES {
        r.at(
            Some(raw[MAX_OBJECTIVES].span()),
            format!("too many objectives: {} (at most {MAX_OBJECTIVES})", raw.len()),
        );
    }
    let mut out: Vec<Objective> = Vec::new();
    for (i, spanned) in raw.iter().enumerate() {
        let first = r.problems.len();
        let o = spanned.get_ref();
        let label = format!("objective {}", i + 1);
        let at = match &o.at {
            Some(at) => parse_square(r, map, at, &label),
            None => {
                r.at(Some(spanned.span()), format!("{label} has no square (`at`)"));
                None
            }
        };
        let points = match &o.points {
            Some(p) if (0..=99).contains(p.get_ref()) => *p.get_ref() as u8,
            Some(p) => {
                r.at(Some(p.span()), format!("{label}: points = {} is out of range (0 to 99)", p.get_ref()));
                0
            }
            None => 1,
        };
        let holder = o.holder.as_ref().and_then(|h| parse_side_key(r, ids, h, &label));
        if let Some(at) = at {
            if out.iter().any(|x| x.at == at) {
                r.at(o.at.as_ref().map(|a| a.span()), format!("{label}: square {at} already has an objective"));
            }
            out.push(Objective { at, points, holder });
        }
        r.place_since(first, at, None);
    }
    out
}

/// The scenario's `[options]` (R11). Tables (`move`, `range`, `strength`, `modifier`, `quality`, `exhaustion`) set
/// one option per key; `exhaustion` is keyed by the sides' ids.
fn check_options(
    table: &BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    r: &mut Report,
    options: &mut Options,
    ids: &[String],
) {
    let text = |v: &toml::Value| match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    for (key, value) in table {
        let name = key.get_ref().as_str();
        if matches!(name, "move" | "range" | "strength" | "modifier" | "quality" | "exhaustion") {
            let Some(entries) = value.get_ref().as_table() else {
                let example = match name {
                    "modifier" => "{ cover = -1, not_moved = 1 }",
                    "quality" => "{ veteran = 1, green = -1 }",
                    "exhaustion" => "{ union = 3 }",
                    _ => "{ infantry = 1, cavalry = 2 }",
                };
                r.at(Some(value.span()), format!("option {name} must be a table like {example}"));
                continue;
            };
            for (entry, v) in entries {
                let entry = if name == "exhaustion" {
                    match ids.iter().position(|id| id == entry) {
                        Some(0) => "A".to_string(),
                        Some(_) => "B".to_string(),
                        None => {
                            let known = ids.join(", ");
                            r.at(
                                Some(value.span()),
                                format!("option exhaustion.{entry}: no side '{entry}' (sides: {known})"),
                            );
                            continue;
                        }
                    }
                } else {
                    entry.clone()
                };
                if let Err(e) = options.set(&format!("{name}.{entry}"), &text(v)) {
                    r.at(Some(value.span()), e.to_string());
                }
            }
        } else if let Err(e) = options.set(name, &text(value.get_ref())) {
            let span = if matches!(e, crate::options::OptionError::Unknown(_)) { key.span() } else { value.span() };
            r.at(Some(span), e.to_string());
        }
    }
}
