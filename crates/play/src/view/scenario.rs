//! The views of a scenario: its map, sides, units as placed, objectives and rules in force (GET /api/scenarios and
//! every game view).

use pacw_engine::Colour;
use pacw_engine::{Arm, Battle, ChangeKind, Dir, Quality, Scenario, Side, Square, UnitId, UnitInfo};
use serde::Serialize;
use std::collections::BTreeMap;

/// One square of the map.
#[derive(Serialize, Clone, Debug)]
pub struct SquareView {
    /// Its name, such as `c3`.
    pub at: Square,
    /// Column from 0 (west).
    pub x: u8,
    /// Row from 0 (south).
    pub y: u8,
    /// Its terrain's id (R1.3): a standard one (`sunken_road`) or a variant's own (`swamp`), described in
    /// [`MapView::terrains`].
    pub terrain: String,
    /// 0..=3 (R1.3).
    pub elevation: u8,
    /// Whether a road runs through it (R1.6).
    pub road: bool,
    /// The edges of this square that carry a fence (R1.4).
    pub fences: Vec<Dir>,
}

/// The battlefield.
#[derive(Serialize, Clone, Debug)]
pub struct MapView {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Every square, row by row from a1 (index = y * width + x).
    pub squares: Vec<SquareView>,
    /// Every fenced edge once, as the two squares it lies between.
    pub fences: Vec<[Square; 2]>,
    /// The terrain kinds of the rules in force, the standard six first, then a variant's own (docs/variants.md).
    pub terrains: Vec<TerrainView>,
    /// The squares a Move entirely along a road goes further (R1.6): 1 by the standard rules, or a variant's
    /// `[movement] road_bonus`.
    pub road_bonus: u8,
}

/// A terrain kind and what it does under the rules in force (R1.5).
#[derive(Serialize, Clone, Debug)]
pub struct TerrainView {
    /// Its id, as squares name it.
    pub id: String,
    /// Its name, for players.
    pub name: String,
    /// Its letter in scenario maps.
    pub letter: char,
    /// Whether a unit in it is in cover (R6.3a).
    pub cover: bool,
    /// Whether it blocks line of sight through it (R6.2a).
    pub blocks_sight: bool,
    /// What entering it costs, in words ("entering ends the move"), then any arm's own ("cavalry: …").
    pub movement: String,
    /// Whether no unit may enter it, nor stand in it (R1.5, R5.1: the standard's river); a terrain is impassable to
    /// every arm or to none.
    pub impassable: bool,
}

/// An arm of the rules in force and its numbers (R2.2, R2.6): the standard three, then a variant's own.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct ArmView {
    /// Its id, as a unit's `arm` takes it.
    pub id: String,
    /// Its name, for players.
    pub name: String,
    /// The standard arm it acts as (itself for the standard three).
    pub like: pacw_engine::Arm,
    /// Its strength (R2.2).
    pub strength: u8,
    /// Squares a move covers (R2.6).
    pub movement: u8,
    /// Its range in squares (R2.6).
    pub range: u8,
}

/// The arms of a combat system, the standard three first.
pub fn arm_views(system: &pacw_engine::system::CombatSystem) -> Vec<ArmView> {
    system
        .arms()
        .iter()
        .map(|a| ArmView {
            id: a.id.clone(),
            name: a.name.clone(),
            like: a.like,
            strength: a.strength,
            movement: a.movement,
            range: a.range,
        })
        .collect()
}

/// A to-hit modifier of a variant's own (docs/variants.md, R6.4): an option of the games played by the variant,
/// `modifier.<id>`, from −3 to 3.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct OwnModifierView {
    /// Its id, as its option names it (`modifier.V1`).
    pub id: String,
    /// What it is, in words ("veteran élan").
    pub name: String,
    /// What it adds to the roll as its file gives it.
    pub value: i8,
}

/// The to-hit modifiers of a combat system's own, in its order: none under the standard rules, nor a standard
/// modifier a variant changes (the standard option `modifier.cover` sets that).
pub fn own_modifier_views(system: &pacw_engine::system::CombatSystem) -> Vec<OwnModifierView> {
    system
        .modifiers()
        .iter()
        .filter(|m| m.is_own())
        .map(|m| OwnModifierView { id: m.id.clone(), name: m.name.clone(), value: m.value })
        .collect()
}

/// The options a game played by a combat system starts from, name → value, over a battle's own: the numbers it
/// changes of the standard rules (`modifier.cover`), then its `[options]` (`modifier.V1`, `to_hit`), as
/// [`pacw_engine::Scenario::with_system`] sets them.
pub fn system_options(system: &pacw_engine::system::CombatSystem) -> BTreeMap<String, String> {
    system.changes_to_standard().into_iter().chain(system.options().iter().cloned()).collect()
}

/// A side as the scenario describes it.
#[derive(Serialize, Clone, Debug)]
pub struct SideView {
    /// `A` (first) or `B` (second).
    pub side: Side,
    /// The scenario's id for it.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its home edge.
    pub home: Dir,
    /// Its card colour.
    pub colour: Colour,
    /// Its display colour on the board, in the log and the ledger (the scenario key `counter`).
    pub counter: String,
    /// Destroyed units at which it is exhausted (R8.1).
    pub exhaustion: u8,
    /// Its units, the reinforcements' included (what its exhaustion point is a share of).
    pub starting_units: usize,
}

/// A unit as the scenario places it.
#[derive(Serialize, Clone, Debug)]
pub struct UnitInfoView {
    /// Its id (index in the scenario), used by actions and events.
    pub id: u8,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Its arm (for a unit of a variant's own arm, the standard arm it moves, fires and is fired at as).
    pub arm: Arm,
    /// The variant's own arm it belongs to (`skirmishers`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_arm: Option<String>,
    /// Its quality.
    pub quality: Quality,
    /// Its strength (R2.2).
    pub strength: u8,
    /// Where it starts.
    pub at: Square,
    /// Column.
    pub x: u8,
    /// Row.
    pub y: u8,
    /// Its facing at the start.
    pub facing: Dir,
    /// For a reinforcement's unit, the turn at whose start its group is due; `at` is then its entry square
    /// (docs/scenario-format.md#events). Absent for a unit on the board at the start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arrives: Option<u8>,
}

/// A group of reinforcements (`[[reinforcements]]`): its units are those of [`ScenarioView::units`] with these ids.
#[derive(Serialize, Clone, Debug)]
pub struct ReinforcementView {
    /// Its id, as the log cites it.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The side it joins.
    pub side: Side,
    /// The turn at whose start it is due.
    pub turn: u8,
    /// Its units' ids, in file order.
    pub units: Vec<u8>,
}

/// A timed change (`[[changes]]`): an objective's points, or a side's exhaustion point, from a turn on.
#[derive(Serialize, Clone, Debug)]
pub struct ChangeView {
    /// Its id, as the log cites it.
    pub id: String,
    /// Its name (may be empty).
    pub name: String,
    /// The turn from whose start it holds.
    pub turn: u8,
    /// What it does, in words.
    pub text: String,
    /// The objective's square, for a change of points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<Square>,
    /// The objective's points from then on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u8>,
    /// The side, for a change of exhaustion point.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// Its exhaustion point from then on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exhaustion: Option<u8>,
}

/// The views of a scenario's reinforcement groups and timed changes.
pub(super) fn event_views(s: &Scenario) -> (Vec<ReinforcementView>, Vec<ChangeView>) {
    let groups = s
        .reinforcements
        .iter()
        .map(|r| ReinforcementView {
            id: r.id.clone(),
            name: r.name.clone(),
            side: r.side,
            turn: r.turn,
            units: r.units().map(|u| u.0).collect(),
        })
        .collect();
    let changes = s
        .changes
        .iter()
        .map(|c| {
            let mut view = ChangeView {
                id: c.id.clone(),
                name: c.name.clone(),
                turn: c.turn,
                text: s.describe_change(c),
                objective: None,
                points: None,
                side: None,
                exhaustion: None,
            };
            match c.what {
                ChangeKind::ObjectivePoints { at, points, .. } => {
                    (view.objective, view.points) = (Some(at), Some(points))
                }
                ChangeKind::Exhaustion { side, point } => (view.side, view.exhaustion) = (Some(side), Some(point)),
            }
            view
        })
        .collect();
    (groups, changes)
}

/// A unit of scenario `s` shown on `at`, facing `facing`.
pub(super) fn unit_info_view(s: &Scenario, id: u8, u: &UnitInfo, at: Square, facing: Dir) -> UnitInfoView {
    UnitInfoView {
        id,
        name: u.name.clone(),
        side: u.side,
        arm: u.arm,
        own_arm: u.own_arm.map(|_| s.arm_name(u).to_string()),
        quality: u.quality,
        strength: u.strength(),
        at,
        x: at.x,
        y: at.y,
        facing,
        arrives: s.reinforcement_of(UnitId(id)).map(|r| r.turn),
    }
}

/// An objective square.
#[derive(Serialize, Clone, Debug)]
pub struct ObjectiveView {
    /// Where.
    pub at: Square,
    /// Column.
    pub x: u8,
    /// Row.
    pub y: u8,
    /// Points for holding it at the end (R8.2).
    pub points: u8,
    /// Who holds it (in a scenario: at the start; in a game: now, by R8.2).
    pub holder: Option<Side>,
}

/// A scenario, checked: for previews and for the battle page.
#[derive(Serialize, Clone, Debug)]
pub struct ScenarioView {
    /// Short name (shipped) or file name (uploaded).
    pub name: String,
    /// Its title.
    pub title: String,
    /// Its description.
    pub description: String,
    /// The turn limit.
    pub turns: u8,
    /// Points per destroyed enemy unit (R8.2).
    pub points_per_destroyed: u8,
    /// Both sides.
    pub sides: [SideView; 2],
    /// The map.
    pub map: MapView,
    /// The objectives.
    pub objectives: Vec<ObjectiveView>,
    /// The units as placed at the start, then the reinforcements' at their entry squares (their `arrives` says).
    pub units: Vec<UnitInfoView>,
    /// The groups of units that arrive during the battle (docs/scenario-format.md#events).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reinforcements: Vec<ReinforcementView>,
    /// The values that change at the start of a turn.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<ChangeView>,
    /// The scenario's own options (R11), name → value.
    pub options: BTreeMap<String, String>,
    /// The variant its games are played by (docs/variants.md); absent for the standard rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesView>,
    /// The side that attacks, when the scenario names it (`attacker`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attacker: Option<Side>,
    /// The shipped variant's name when the rules are one (`close-combat`), as a scenario's `variant` names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<&'static str>,
}

/// A variant's rules, as a game under it shows them.
#[derive(Serialize, Clone, Debug)]
pub struct RulesView {
    /// Its name.
    pub name: String,
    /// What it changes and why.
    pub description: String,
    /// The variant files it was laid from, bottom first, each `{file, name}` (docs/variants.md, "Variants that
    /// combine"): one for a single variant. Each rule below says by its `from` which of them wrote it last
    /// (`standard` for a rule as the standard rules have it).
    pub layers: Vec<serde_json::Value>,
    /// Which file wrote each entry of `results` and `terms` last, and the road bonus, `{results: {row: file},
    /// terms: {term: file}, movement: {road_bonus: file}}`, as `from` says it of a rule.
    pub from: serde_json::Value,
    /// Its to-hit modifiers beside the standard's, each `{id, rule, name, value, when, from}`.
    pub modifiers: Vec<serde_json::Value>,
    /// Its arms, the standard three first, each `{id, name, like, strength, move, range, from}` (R2.2, R2.6).
    pub arms: Vec<serde_json::Value>,
    /// Its terrain kinds, the standard six first, each `{id, name, letter, move, move_by_arm, cover, blocks_sight,
    /// from}` (R1.5).
    pub terrain: Vec<serde_json::Value>,
    /// Its movement, `{road_bonus}` (R1.6).
    pub movement: serde_json::Value,
    /// Its hit-result table, row → [at most the strength, above].
    pub results: serde_json::Value,
    /// The words it shows players (`charge`, `shaken`, `retreat`, `destroyed`, `fire`) → its word.
    pub terms: serde_json::Value,
    /// What its attacks do to their attackers (`[[after_attack]]`), each `{id, name, when, attacker, from}`.
    pub after_attack: Vec<serde_json::Value>,
    /// The attacks and orders it forbids (`[[restrictions]]`), each `{id, name, when, forbids, from}`, `forbids`
    /// being `"attacks"` or `"orders"` as the facts its condition names say.
    pub restrictions: Vec<serde_json::Value>,
    /// Its rally roll (`[rally]`), `{id, name, needed, from}` with `needed` a number or `"strength"`; none when a shaken
    /// unit rallies as it is activated (R4.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rally: Option<serde_json::Value>,
    /// Its rally modifiers (`[[rally_modifiers]]`), each `{id, name, value, when, from}`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rally_modifiers: Vec<serde_json::Value>,
    /// Its modifiers to the hit-result roll (`[[result_modifiers]]`, R7.1), each `{id, name, value, when, from}`: the
    /// value is added to the strength the hit target's roll is tested against.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub result_modifiers: Vec<serde_json::Value>,
}

/// The terrain kinds of a terrain table (a map's rules, a variant's), described, the standard six first.
pub fn terrain_views(rules: &pacw_engine::terrain::TerrainRules) -> Vec<TerrainView> {
    rules
        .kinds()
        .iter()
        .map(|k| {
            let mut movement = k.entry.describe();
            for (arm, entry) in &k.by_arm {
                movement += &format!("; {arm}: {}", entry.describe());
            }
            TerrainView {
                id: k.id.clone(),
                name: k.name.clone(),
                letter: k.letter,
                cover: k.cover,
                blocks_sight: k.blocks_sight,
                movement,
                impassable: k.entry == pacw_engine::terrain::Entry::Impassable,
            }
        })
        .collect()
}

/// The view of a scenario.
pub fn scenario_view(name: &str, s: &Scenario) -> ScenarioView {
    let map = &s.map;
    let squares = map
        .squares()
        .map(|at| SquareView {
            at,
            x: at.x,
            y: at.y,
            terrain: map.terrain_rules().kind(map.terrain(at)).id.clone(),
            elevation: map.elevation(at),
            road: map.road(at),
            fences: Dir::ALL.into_iter().filter(|&d| map.step(at, d).is_some() && map.fence(at, d)).collect(),
        })
        .collect();
    let mut fences = Vec::new();
    for at in map.squares() {
        for d in [Dir::N, Dir::E] {
            if let Some(next) = map.step(at, d)
                && map.fence(at, d)
            {
                fences.push([at, next]);
            }
        }
    }
    let side = |sd: Side| {
        let i = s.side(sd);
        SideView {
            side: sd,
            id: i.id.clone(),
            name: i.name.clone(),
            home: i.home,
            colour: i.colour,
            counter: i.counter.to_string(),
            exhaustion: i.exhaustion,
            starting_units: s.starting_units(sd),
        }
    };
    let (reinforcements, changes) = event_views(s);
    ScenarioView {
        reinforcements,
        changes,
        name: name.to_string(),
        title: s.name.clone(),
        description: s.description.clone(),
        turns: s.turns,
        points_per_destroyed: s.points_per_destroyed,
        sides: [side(Side::A), side(Side::B)],
        map: MapView {
            width: map.width(),
            height: map.height(),
            squares,
            fences,
            terrains: terrain_views(map.terrain_rules()),
            road_bonus: map.terrain_rules().road_bonus(),
        },
        objectives: s
            .objectives
            .iter()
            .map(|o| ObjectiveView { at: o.at, x: o.at.x, y: o.at.y, points: o.points, holder: o.holder })
            .collect(),
        units: s.units.iter().enumerate().map(|(i, u)| unit_info_view(s, i as u8, u, u.at, u.facing)).collect(),
        options: s.option_pairs(&s.options).into_iter().collect(),
        attacker: s.attacker,
        variant: s.variant().and_then(|system| {
            let (file, text) = system.source()?;
            pacw_engine::SHIPPED_VARIANTS.iter().find(|v| v.file == file && v.text == text).map(|v| v.name)
        }),
        rules: s.variant().map(|system| {
            let json = system.to_json();
            RulesView {
                name: system.name.clone(),
                description: system.description.clone(),
                layers: json["layers"].as_array().cloned().unwrap_or_default(),
                from: serde_json::json!({
                    "results": json["from"]["results"],
                    "terms": json["from"]["terms"],
                    "movement": json["from"]["movement"],
                }),
                modifiers: json["modifiers"].as_array().cloned().unwrap_or_default(),
                arms: json["arms"].as_array().cloned().unwrap_or_default(),
                terrain: json["terrain"].as_array().cloned().unwrap_or_default(),
                movement: json["movement"].clone(),
                results: json["results"].clone(),
                terms: json["terms"].clone(),
                after_attack: json["after_attack"].as_array().cloned().unwrap_or_default(),
                restrictions: json["restrictions"].as_array().cloned().unwrap_or_default(),
                rally: Some(json["rally"].clone()).filter(|r| !r.is_null()),
                rally_modifiers: json["rally_modifiers"].as_array().cloned().unwrap_or_default(),
                result_modifiers: json["result_modifiers"].as_array().cloned().unwrap_or_default(),
            }
        }),
    }
}

/// The scenario as the game plays it: the turn limit, the exhaustion points and the strengths the options set
/// (R11), over the scenario's own.
pub(super) fn in_force(mut view: ScenarioView, b: &Battle) -> ScenarioView {
    view.turns = b.turn_limit();
    for side in &mut view.sides {
        side.exhaustion = b.exhaustion_point(side.side);
    }
    for unit in &mut view.units {
        unit.strength = b.strength(UnitId(unit.id));
    }
    view
}
