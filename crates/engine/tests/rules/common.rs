//! Shared helpers for the rule tests: small scenarios written inline, and a battle driven one scripted
//! card, activation, order and die at a time.
#![allow(dead_code)]

use pacw_engine::{Action, Battle, Card, Dir, Event, Illegal, Options, Outcome, Scenario, Side, Square, ToAct, UnitId};
use pacw_engine::{Modifier, Modifiers};
use std::collections::BTreeSet;
use std::sync::Arc;

/// A square from its name.
pub fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|e| panic!("bad square in test: {e}"))
}

/// A unit by its index in the scenario (file order).
pub fn u(i: u8) -> UnitId {
    UnitId(i)
}

/// A small scenario under construction. Side A is "blue" (home south, red), side B is "grey" (home north, black).
#[derive(Clone)]
pub struct ScenarioBuilder {
    terrain: Vec<String>,
    elevation: Option<Vec<String>>,
    roads: Option<Vec<String>>,
    fences: Vec<String>,
    homes: [String; 2],
    exhaustion: [Option<i64>; 2],
    units: Vec<String>,
    objectives: Vec<String>,
    turns: i64,
    points_per_destroyed: Option<i64>,
    options: Vec<String>,
}

fn rows(map: &str) -> Vec<String> {
    map.lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect()
}

/// The side id used in scenarios for `A` / `B`.
pub fn side_id(side: Side) -> &'static str {
    match side {
        Side::A => "blue",
        Side::B => "grey",
    }
}

impl ScenarioBuilder {
    /// A scenario on this terrain map: one line per row, north first (blank lines and indentation ignored).
    pub fn new(terrain: &str) -> ScenarioBuilder {
        ScenarioBuilder {
            terrain: rows(terrain),
            elevation: None,
            roads: None,
            fences: vec![],
            homes: ["south".into(), "north".into()],
            exhaustion: [None, None],
            units: vec![],
            objectives: vec![],
            turns: 10,
            points_per_destroyed: None,
            options: vec![],
        }
    }

    /// An open board `w` × `h`.
    pub fn open(w: usize, h: usize) -> ScenarioBuilder {
        ScenarioBuilder::new(&vec![".".repeat(w); h].join("\n"))
    }

    fn set_char(layer: &mut [String], at: &str, c: char) {
        let s = sq(at);
        let row = layer.len() - 1 - s.y as usize;
        let mut chars: Vec<char> = layer[row].chars().collect();
        chars[s.x as usize] = c;
        layer[row] = chars.into_iter().collect();
    }

    fn blank(&self, c: char) -> Vec<String> {
        self.terrain.iter().map(|r| c.to_string().repeat(r.chars().count())).collect()
    }

    /// Sets the terrain character of some squares.
    pub fn terrain_at(mut self, squares: &[&str], c: char) -> ScenarioBuilder {
        for s in squares {
            ScenarioBuilder::set_char(&mut self.terrain, s, c);
        }
        self
    }

    /// Sets the elevation of some squares (the rest stay as they are, 0 by default).
    pub fn elevation_at(mut self, squares: &[&str], e: u8) -> ScenarioBuilder {
        let mut layer = self.elevation.take().unwrap_or_else(|| self.blank('0'));
        for s in squares {
            ScenarioBuilder::set_char(&mut layer, s, char::from(b'0' + e));
        }
        self.elevation = Some(layer);
        self
    }

    /// Puts a road on some squares.
    pub fn road_at(mut self, squares: &[&str]) -> ScenarioBuilder {
        let mut layer = self.roads.take().unwrap_or_else(|| self.blank('.'));
        for s in squares {
            ScenarioBuilder::set_char(&mut layer, s, '#');
        }
        self.roads = Some(layer);
        self
    }

    /// The elevation layer, same shape as the terrain.
    pub fn elevation(mut self, map: &str) -> ScenarioBuilder {
        self.elevation = Some(rows(map));
        self
    }

    /// The road layer, same shape as the terrain.
    pub fn roads(mut self, map: &str) -> ScenarioBuilder {
        self.roads = Some(rows(map));
        self
    }

    /// A fence such as `c2-c3`.
    pub fn fence(mut self, edge: &str) -> ScenarioBuilder {
        self.fences.push(edge.to_string());
        self
    }

    /// The home edges of side A and side B (north, south, east, west).
    pub fn homes(mut self, a: &str, b: &str) -> ScenarioBuilder {
        self.homes = [a.to_string(), b.to_string()];
        self
    }

    /// A side's exhaustion point.
    pub fn exhaustion(mut self, side: Side, n: i64) -> ScenarioBuilder {
        self.exhaustion[side.index()] = Some(n);
        self
    }

    /// A unit, written `"A inf c2 N"` or `"B art d4 S veteran"`: side, arm, square, facing, optional quality.
    /// Units get ids in the order they are added.
    pub fn unit(mut self, spec: &str) -> ScenarioBuilder {
        let parts: Vec<&str> = spec.split_whitespace().collect();
        assert!(parts.len() == 4 || parts.len() == 5, "unit spec '{spec}'");
        let side = match parts[0] {
            "A" => "blue",
            "B" => "grey",
            other => panic!("side {other}"),
        };
        let quality = parts.get(4).copied().unwrap_or("regular");
        let n = self.units.len();
        self.units.push(format!(
            "[[units]]\nside = \"{side}\"\nname = \"{} {} {n}\"\narm = \"{}\"\nquality = \"{quality}\"\nat = \"{}\"\nfacing = \"{}\"\n",
            parts[0], parts[1], parts[1], parts[2], parts[3]
        ));
        self
    }

    /// An objective worth `points`, optionally held at the start by `holder`.
    pub fn objective(mut self, at: &str, points: u8, holder: Option<Side>) -> ScenarioBuilder {
        let holder = holder.map_or(String::new(), |s| format!("holder = \"{}\"\n", side_id(s)));
        self.objectives.push(format!("[[objectives]]\nat = \"{at}\"\npoints = {points}\n{holder}"));
        self
    }

    /// The turn limit.
    pub fn turns(mut self, n: i64) -> ScenarioBuilder {
        self.turns = n;
        self
    }

    /// Points per destroyed enemy unit.
    pub fn points_per_destroyed(mut self, n: i64) -> ScenarioBuilder {
        self.points_per_destroyed = Some(n);
        self
    }

    /// One line of the `[options]` table, such as `to_hit = 4`.
    pub fn option(mut self, line: &str) -> ScenarioBuilder {
        self.options.push(line.to_string());
        self
    }

    /// The scenario as TOML text.
    pub fn toml(&self) -> String {
        let mut t = String::from("name = \"Test\"\n");
        t += &format!("turns = {}\n", self.turns);
        if let Some(p) = self.points_per_destroyed {
            t += &format!("points_per_destroyed = {p}\n");
        }
        t += "\n[map]\n";
        t += &format!("terrain = \"\"\"\n{}\n\"\"\"\n", self.terrain.join("\n"));
        if let Some(e) = &self.elevation {
            t += &format!("elevation = \"\"\"\n{}\n\"\"\"\n", e.join("\n"));
        }
        if let Some(r) = &self.roads {
            t += &format!("roads = \"\"\"\n{}\n\"\"\"\n", r.join("\n"));
        }
        if !self.fences.is_empty() {
            let list: Vec<String> = self.fences.iter().map(|f| format!("\"{f}\"")).collect();
            t += &format!("fences = [{}]\n", list.join(", "));
        }
        for (i, (id, colour)) in [("blue", "red"), ("grey", "black")].into_iter().enumerate() {
            t += &format!(
                "\n[[sides]]\nid = \"{id}\"\nname = \"{}\"\nhome = \"{}\"\ncolour = \"{colour}\"\n",
                id.to_uppercase(),
                self.homes[i]
            );
            if let Some(e) = self.exhaustion[i] {
                t += &format!("exhaustion = {e}\n");
            }
        }
        for unit in &self.units {
            t += "\n";
            t += unit;
        }
        for o in &self.objectives {
            t += "\n";
            t += o;
        }
        if !self.options.is_empty() {
            t += "\n[options]\n";
            for o in &self.options {
                t += o;
                t += "\n";
            }
        }
        t
    }

    /// The parsed scenario (panics with every problem if it does not parse).
    pub fn scenario(&self) -> Scenario {
        let text = self.toml();
        Scenario::parse(&text, "test.toml").unwrap_or_else(|e| panic!("scenario does not parse:\n{e}\n---\n{text}"))
    }

    /// The scenario played by a variant file's rules (panics with every problem if either does not read).
    pub fn scenario_under(&self, variant: &str) -> Scenario {
        let system = pacw_engine::system::CombatSystem::with_variant(variant, "variant.toml")
            .unwrap_or_else(|e| panic!("variant does not read:\n{e}"));
        let text = self.toml();
        Scenario::parse_with(&text, "test.toml", Arc::new(system))
            .unwrap_or_else(|e| panic!("scenario does not parse:\n{e}\n---\n{text}"))
    }

    /// A battle played by a variant file's rules, under the scenario's own options.
    pub fn battle_under(&self, variant: &str) -> Battle {
        Battle::from_scenario(Arc::new(self.scenario_under(variant)))
    }

    /// A battle under the scenario's own options.
    pub fn battle(&self) -> Battle {
        Battle::from_scenario(Arc::new(self.scenario()))
    }

    /// A battle under the given options.
    pub fn battle_with(&self, options: Options) -> Battle {
        Battle::new(Arc::new(self.scenario()), options)
    }
}

/// Applies a side's action that must be legal.
pub fn act(b: &mut Battle, action: Action) -> Vec<Event> {
    b.apply(action).unwrap_or_else(|e| panic!("{action:?} refused: {e}"))
}

/// Applies a chance outcome that must be legal.
pub fn chance(b: &mut Battle, outcome: Outcome) -> Vec<Event> {
    b.apply_chance(outcome).unwrap_or_else(|e| panic!("{outcome:?} refused: {e}"))
}

/// Draws the card `side` `value`.
pub fn draw(b: &mut Battle, side: Side, value: u8) -> Vec<Event> {
    chance(b, Outcome::Card(Card::Side { side, value }))
}

/// Draws a card of `side` with its initiative value.
pub fn draw_iv(b: &mut Battle, side: Side) -> Vec<Event> {
    let iv = b.initiative_values()[side.index()];
    draw(b, side, iv)
}

/// Draws the Joker.
pub fn joker(b: &mut Battle) -> Vec<Event> {
    chance(b, Outcome::Card(Card::Joker))
}

/// Rolls a die.
pub fn roll(b: &mut Battle, n: u8) -> Vec<Event> {
    chance(b, Outcome::Die(n))
}

/// Activates a unit.
pub fn activate(b: &mut Battle, unit: UnitId) -> Vec<Event> {
    act(b, Action::Activate(unit))
}

/// Under the cards: makes `unit` the next unit activated. If its side is already choosing units on a card with
/// activations left, it is simply activated; otherwise the current card is given up and a card of its side is drawn
/// (its IV if one is left, else any of its cards; if none is left, the Joker first).
pub fn start(b: &mut Battle, unit: UnitId) -> Vec<Event> {
    let side = b.info(unit).side;
    let mut events = Vec::new();
    if matches!(b.to_act(), ToAct::Side(_)) && b.active_unit().is_none() {
        if b.active_side() == side && b.is_legal(Action::Activate(unit)) {
            events.extend(activate(b, unit));
            return events;
        }
        events.extend(act(b, Action::EndActivations));
    }
    let iv = b.initiative_values()[side.index()];
    let mine = |b: &Battle| {
        let mut values: Vec<u8> = b
            .deck()
            .cards()
            .filter_map(|(c, _)| match c {
                Card::Side { side: s, value } if s == side => Some(value),
                _ => None,
            })
            .collect();
        values.sort_by_key(|v| (*v != iv, *v));
        values.first().copied()
    };
    let value = match mine(b) {
        Some(v) => v,
        None => {
            events.extend(joker(b));
            mine(b).expect("a fresh deck has cards of both sides")
        }
    };
    events.extend(draw(b, side, value));
    events.extend(activate(b, unit));
    events
}

/// Asserts the action is refused citing `rule`, and that the battle is left unchanged. Returns the refusal.
pub fn refused(b: &mut Battle, action: Action, rule: &str) -> Illegal {
    let before = b.clone();
    let err = match b.apply(action) {
        Ok(events) => panic!("{action:?} was accepted ({events:?}), expected a refusal under {rule}"),
        Err(e) => e,
    };
    assert_eq!(*b, before, "a refused action must leave the battle unchanged");
    assert_eq!(err.rule, rule, "{action:?} refused for the wrong rule: {err}");
    assert!(!b.legal_actions().contains(&action), "{action:?} refused but listed as legal");
    err
}

/// As [`refused`], accepting any of several citations (where more than one rule forbids the action).
pub fn refused_any(b: &mut Battle, action: Action, rules: &[&str]) -> Illegal {
    let before = b.clone();
    let err = match b.apply(action) {
        Ok(events) => panic!("{action:?} was accepted ({events:?}), expected a refusal under {rules:?}"),
        Err(e) => e,
    };
    assert_eq!(*b, before, "a refused action must leave the battle unchanged");
    assert!(
        rules.iter().any(|r| err.rule == *r),
        "{action:?} refused for the wrong rule: {err} (expected one of {rules:?})"
    );
    assert!(!b.legal_actions().contains(&action), "{action:?} refused but listed as legal");
    err
}

/// Asserts the chance outcome is refused citing `rule`, and that the battle is left unchanged.
pub fn chance_refused(b: &mut Battle, outcome: Outcome, rule: &str) -> Illegal {
    let before = b.clone();
    let err = match b.apply_chance(outcome) {
        Ok(events) => panic!("{outcome:?} was accepted ({events:?}), expected a refusal under {rule}"),
        Err(e) => e,
    };
    assert_eq!(*b, before, "a refused outcome must leave the battle unchanged");
    assert_eq!(err.rule, rule, "{outcome:?} refused for the wrong rule: {err}");
    err
}

/// The attack reported in `events`: (charge, needed, modifiers).
pub fn attack(events: &[Event]) -> (bool, u8, Modifiers) {
    events
        .iter()
        .find_map(|e| match *e {
            Event::Attack { charge, needed, modifiers, .. } => Some((charge, needed, modifiers)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no attack in {events:?}"))
}

/// Asserts the modifiers are exactly `expected` (in any order).
pub fn assert_mods(mods: &Modifiers, expected: &[Modifier]) {
    let got: Vec<Modifier> = mods.iter().collect();
    assert_eq!(got.len(), expected.len(), "modifiers {got:?}, expected {expected:?}");
    for m in expected {
        assert!(mods.contains(*m), "modifiers {got:?}, expected {expected:?}");
    }
}

/// The squares a Move order of the unit being activated may end on, other than its own.
pub fn move_squares(b: &Battle) -> BTreeSet<String> {
    let here = b.active_unit().map(|u| b.unit(u).at);
    b.legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { to, .. } if Some(to) != here => Some(to.to_string()),
            _ => None,
        })
        .collect()
}

/// The facings a Move order to `to` may end with.
pub fn move_facings(b: &Battle, to: &str) -> BTreeSet<Dir> {
    let to = sq(to);
    b.legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { to: t, facing } if t == to => Some(facing),
            _ => None,
        })
        .collect()
}

/// The squares of the Advance actions listed now.
pub fn advance_squares(b: &Battle) -> BTreeSet<String> {
    b.legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Advance { to, .. } => Some(to.to_string()),
            _ => None,
        })
        .collect()
}

/// A set of square names.
pub fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Whether any event matches.
pub fn has(events: &[Event], pred: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(pred)
}

/// The frozen copy of a shipped battle (`tests/fixtures/perft/`), as it was when the perft counts and golden games
/// were made: a battle `pacw balance` rewrites later does not move them.
pub fn frozen(name: &str) -> &'static str {
    match name {
        "meeting-engagement" => include_str!("../fixtures/perft/meeting-engagement.toml"),
        "bloody-lane" => include_str!("../fixtures/perft/bloody-lane.toml"),
        "maryes-heights" => include_str!("../fixtures/perft/maryes-heights.toml"),
        "mcpherson-ridge" => include_str!("../fixtures/perft/mcpherson-ridge.toml"),
        "henry-house-hill" => include_str!("../fixtures/perft/henry-house-hill.toml"),
        "hornets-nest" => include_str!("../fixtures/perft/hornets-nest.toml"),
        "gaines-mill" => include_str!("../fixtures/perft/gaines-mill.toml"),
        "brawners-farm" => include_str!("../fixtures/perft/brawners-farm.toml"),
        "brandy-station" => include_str!("../fixtures/perft/brandy-station.toml"),
        "little-round-top" => include_str!("../fixtures/perft/little-round-top.toml"),
        "horseshoe-ridge" => include_str!("../fixtures/perft/horseshoe-ridge.toml"),
        "franklin" => include_str!("../fixtures/perft/franklin.toml"),
        other => panic!("no frozen copy of {other}"),
    }
}
