//! A variant file read and checked: every problem with its line and column and what was expected, and nothing of a
//! bad file applied. A file is read against the combat system it is to be laid over (the standard, or the standard
//! with other files laid over it: docs/variants.md, "Variants that combine"), so that it may name what the rules
//! below it define. Laid over them, a rule of the same id replaces the one there, a new id is added; `[results]`,
//! `[terms]` and `[options]` replace the entries they name.

use super::condition::{Condition, ConditionError, Moment};
use super::layers::{Layer, Layers, Part};
use super::terrain::{RawMovement, RawTerrain, TerrainText};
use super::{
    AfterAttackRule, ArmRule, AttackerEffect, CombatSystem, HitResult, MAX_AFTER_ATTACK, MAX_ARMS, MAX_MODIFIERS,
    MAX_RALLY_MODIFIERS, MAX_RESTRICTIONS, MAX_RESULT_MODIFIERS, ModifierKind, ModifierRule, RallyModifier, RallyNeed,
    RallyRule, Restriction, ResultModifier, ResultTable, STANDARD, Terms,
};
use crate::options::{ArmNumber, StandardModifier};
use crate::problem::Problem;
use crate::unit::Arm;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use toml::Spanned;

/// The largest variant file read, in bytes.
pub const MAX_VARIANT_BYTES: usize = 64 * 1024;

/// Everything wrong with a variant file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SystemError {
    /// The file's name as the user gave it.
    pub file: String,
    /// Every problem found, in file order where known.
    pub problems: Vec<Problem>,
}

impl fmt::Display for SystemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::problem::write_problems(f, &self.file, &self.problems)
    }
}

/// `[results]` as written: each row's name with its two outcomes.
type RawResults = BTreeMap<Spanned<String>, Spanned<Vec<Spanned<String>>>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: Option<Spanned<String>>,
    #[serde(default)]
    description: String,
    #[serde(default)]
    modifiers: Vec<Spanned<RawModifier>>,
    #[serde(default)]
    arms: Vec<Spanned<RawArm>>,
    results: Option<RawResults>,
    #[serde(default)]
    after_attack: Vec<Spanned<RawAfterAttack>>,
    #[serde(default)]
    restrictions: Vec<Spanned<RawRestriction>>,
    #[serde(default)]
    result_modifiers: Vec<Spanned<RawResultModifier>>,
    rally: Option<Spanned<RawRally>>,
    #[serde(default)]
    rally_modifiers: Vec<Spanned<RawResultModifier>>,
    #[serde(default)]
    terrain: Vec<Spanned<RawTerrain>>,
    movement: Option<Spanned<RawMovement>>,
    terms: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
    options: Option<BTreeMap<Spanned<String>, Spanned<RawOption>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResultModifier {
    id: Spanned<String>,
    name: Option<Spanned<String>>,
    value: Option<Spanned<i64>>,
    when: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRally {
    id: Spanned<String>,
    name: Option<Spanned<String>>,
    needed: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRestriction {
    id: Spanned<String>,
    name: Option<Spanned<String>>,
    when: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAfterAttack {
    id: Spanned<String>,
    name: Option<Spanned<String>>,
    when: Option<Spanned<String>>,
    attacker: Option<Spanned<String>>,
}

/// A value of `[options]` as written: a number, a word or true/false as text, a table of such values
/// (`modifier = { cover = -2 }`), or something no option takes. Read by hand so that a table's keys keep their
/// places in the file (a `toml::Value` forgets them).
enum RawOption {
    Scalar(String),
    Table(BTreeMap<Spanned<String>, Spanned<RawOption>>),
    Other,
}

impl<'de> Deserialize<'de> for RawOption {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = RawOption;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, a word, true/false or a table of them")
            }
            fn visit_bool<E>(self, v: bool) -> Result<RawOption, E> {
                Ok(RawOption::Scalar(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<RawOption, E> {
                Ok(RawOption::Scalar(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<RawOption, E> {
                Ok(RawOption::Scalar(v.to_string()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<RawOption, E> {
                Ok(RawOption::Other)
            }
            fn visit_str<E>(self, v: &str) -> Result<RawOption, E> {
                Ok(RawOption::Scalar(v.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<RawOption, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(RawOption::Other)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<RawOption, A::Error> {
                let mut table = BTreeMap::new();
                while let Some((key, value)) = map.next_entry::<Spanned<String>, Spanned<RawOption>>()? {
                    table.insert(key, value);
                }
                Ok(RawOption::Table(table))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModifier {
    id: Spanned<String>,
    rule: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    value: Option<Spanned<i64>>,
    when: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArm {
    id: Spanned<String>,
    name: Option<Spanned<String>>,
    like: Option<Spanned<String>>,
    strength: Option<Spanned<i64>>,
    #[serde(rename = "move")]
    movement: Option<Spanned<i64>>,
    range: Option<Spanned<i64>>,
}

/// A variant file, read and checked against the combat system below it: what it changes, to be laid over that
/// system (and no other: its conditions name the arms and terrains by their places there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct VariantText {
    /// The file as given, for the provenance of what it writes and for saves.
    layer: Layer,
    name: String,
    description: String,
    modifiers: Vec<ModifierChange>,
    arms: Vec<ArmRule>,
    results: Vec<(&'static str, [HitResult; 2])>,
    after_attack: Vec<AfterAttackRule>,
    restrictions: Vec<Restriction>,
    result_modifiers: Vec<ResultModifier>,
    rally: Option<RallyRule>,
    rally_modifiers: Vec<RallyModifier>,
    terrain: TerrainText,
    terms: Vec<(&'static str, String)>,
    options: Vec<(String, String)>,
}

/// A modifier as a variant writes it: a new one whole, or a change to one of the standard's (by its id), where
/// what is left out stays as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ModifierChange {
    id: String,
    rule: Option<String>,
    name: Option<String>,
    value: Option<i8>,
    when: Option<(Condition, String)>,
}

/// Collects problems with their places.
pub(super) struct Problems<'a> {
    source: &'a str,
    list: Vec<Problem>,
}

impl Problems<'_> {
    pub(super) fn at(&mut self, span: Range<usize>, message: impl Into<String>) {
        let (line, column) = crate::problem::line_col(self.source, span.start);
        self.list.push(Problem {
            line: Some(line),
            column: Some(column),
            message: message.into(),
            square: None,
            unit: None,
        });
    }
}

/// A whole number of a field within `range`, or a problem.
fn within(p: &mut Problems, field: &str, v: &Spanned<i64>, range: std::ops::RangeInclusive<i64>) -> Option<i64> {
    if range.contains(v.get_ref()) {
        Some(*v.get_ref())
    } else {
        p.at(v.span(), format!("{field} must be from {} to {}, not {}", range.start(), range.end(), v.get_ref()));
        None
    }
}

/// The names a condition may compare with: the arms' and the terrains', each in the order of their places.
struct Names<'a> {
    arms: &'a [&'a str],
    terrains: &'a [&'a str],
}

/// The arms' names a condition may compare with: those of the rules below, then the variant's new ones.
fn arm_names(arms: &[Spanned<RawArm>], below: &CombatSystem) -> Vec<String> {
    let mut names: Vec<String> = below.arms.iter().map(|a| a.id.clone()).collect();
    for a in arms {
        if !names.contains(a.get_ref().id.get_ref()) {
            names.push(a.get_ref().id.get_ref().clone());
        }
    }
    names
}

impl VariantText {
    /// Reads and checks a variant file to be laid over `below`; `file` names it in messages.
    ///
    /// # Errors
    ///
    /// Every problem found, each with its line and column and what was expected.
    pub(super) fn parse(text: &str, file: &str, below: &CombatSystem) -> Result<VariantText, SystemError> {
        let fail = |problems| SystemError { file: file.to_string(), problems };
        if text.len() > MAX_VARIANT_BYTES {
            let message = format!("a variant file is at most {} KiB", MAX_VARIANT_BYTES / 1024);
            return Err(fail(vec![Problem { line: None, column: None, message, square: None, unit: None }]));
        }
        let raw: RawVariant = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map(|s| crate::problem::line_col(text, s.start)).unzip();
            fail(vec![Problem { line, column, message: e.message().to_string(), square: None, unit: None }])
        })?;
        let mut p = Problems { source: text, list: Vec::new() };
        let name = match &raw.name {
            Some(n) if !n.get_ref().trim().is_empty() => n.get_ref().clone(),
            Some(n) => {
                p.at(n.span(), "name must not be empty");
                String::new()
            }
            None => {
                p.at(0..0, "a variant file needs a name (name = \"…\")");
                String::new()
            }
        };
        let arm_names = arm_names(&raw.arms, below);
        let arm_refs: Vec<&str> = arm_names.iter().map(String::as_str).collect();
        let terrain_names = super::terrain::names(&raw.terrain, &below.terrain);
        let terrain_refs: Vec<&str> = terrain_names.iter().map(String::as_str).collect();
        let names = Names { arms: &arm_refs, terrains: &terrain_refs };
        let modifiers = read_modifiers(&mut p, &raw.modifiers, &names, below);
        let ids = |rules: &[AfterAttackRule]| rules.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
        let after_attack = read_after_attack(&mut p, &raw.after_attack, &names, &ids(&below.after_attack));
        let ids = |rules: &[Restriction]| rules.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
        let restrictions = read_restrictions(&mut p, &raw.restrictions, &names, &ids(&below.restrictions));
        let ids = |rules: &[ResultModifier]| rules.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
        let result_modifiers =
            read_result_modifiers(&mut p, &raw.result_modifiers, &names, &ids(&below.result_modifiers));
        let rally = raw.rally.as_ref().and_then(|r| read_rally(&mut p, r));
        // A file with its own [rally] says the whole rule; without one, its modifiers join those of the rally roll
        // below it, if there is one.
        let rally_below = match (&raw.rally, &below.rally) {
            (Some(_), _) => RallyBelow::Replaced,
            (None, Some(_)) => RallyBelow::Joined(below.rally_modifiers.iter().map(|m| m.id.clone()).collect()),
            (None, None) => RallyBelow::None,
        };
        let rally_modifiers = read_rally_modifiers(&mut p, &raw.rally_modifiers, &rally_below, &names);
        let arms = read_arms(&mut p, &raw.arms, &below.arms);
        let terrain = super::terrain::read(&mut p, &raw.terrain, raw.movement.as_ref(), &arm_refs, &below.terrain);
        let results = read_results(&mut p, raw.results.as_ref());
        let terms = read_terms(&mut p, raw.terms.as_ref());
        let own_arms: Vec<&str> = below
            .arms
            .iter()
            .map(|a| a.id.as_str())
            .chain(raw.arms.iter().map(|a| a.get_ref().id.get_ref().as_str()))
            .filter(|id| Arm::parse(id).is_none())
            .collect();
        let options = read_options(&mut p, raw.options.as_ref(), &raw.modifiers, &below.modifiers, &own_arms);
        if !p.list.is_empty() {
            return Err(fail(p.list));
        }
        Ok(VariantText {
            layer: Layer::new(file, &name, &raw.description, text),
            name,
            description: raw.description,
            modifiers,
            arms,
            results,
            after_attack,
            restrictions,
            result_modifiers,
            rally,
            rally_modifiers,
            terrain,
            terms,
            options,
        })
    }

    /// `system` with this variant laid over it: `system` must be the one the file was read against
    /// ([`VariantText::parse`]). Each rule it writes is marked as this file's ([`CombatSystem::written_by`]).
    pub(super) fn over(self, mut system: CombatSystem) -> CombatSystem {
        let mut written: Vec<(Part, String)> = Vec::new();
        // Over other files, the names and descriptions read together (`Close combat + Hard cover`).
        if system.layers.files().is_empty() {
            system.name = self.name;
            system.description = self.description;
        } else {
            system.name = format!("{} + {}", system.name, self.name);
            if !self.description.trim().is_empty() {
                system.description = match system.description.trim() {
                    "" => self.description,
                    below => format!("{below}\n\n{}", self.description),
                };
            }
        }
        written.extend(self.modifiers.iter().map(|m| (Part::Modifier, m.id.clone())));
        written.extend(self.arms.iter().map(|a| (Part::Arm, a.id.clone())));
        written.extend(self.results.iter().map(|(row, _)| (Part::Result, row.to_string())));
        written.extend(self.after_attack.iter().map(|r| (Part::AfterAttack, r.id.clone())));
        written.extend(self.restrictions.iter().map(|r| (Part::Restriction, r.id.clone())));
        written.extend(self.result_modifiers.iter().map(|m| (Part::ResultModifier, m.id.clone())));
        written.extend(self.rally.iter().map(|r| (Part::Rally, r.id.clone())));
        written.extend(self.rally_modifiers.iter().map(|m| (Part::RallyModifier, m.id.clone())));
        written.extend(self.terrain.ids().map(|id| (Part::Terrain, id.to_string())));
        if self.terrain.changes_road_bonus() {
            written.push((Part::RoadBonus, "road_bonus".to_string()));
        }
        written.extend(self.terms.iter().map(|(term, _)| (Part::Term, term.to_string())));
        written.extend(self.options.iter().map(|(name, _)| (Part::Option, name.clone())));
        for change in self.modifiers {
            match system.modifiers.iter_mut().find(|m| m.id == change.id) {
                Some(m) => {
                    m.rule = change.rule.unwrap_or(m.rule.clone());
                    m.name = change.name.unwrap_or(m.name.clone());
                    m.value = change.value.unwrap_or(m.value);
                    if let Some((when, text)) = change.when
                        && when != m.when
                    {
                        (m.when, m.when_text) = (when, text);
                        if let ModifierKind::Standard(b) = m.kind {
                            m.kind = ModifierKind::Restated(b); // a condition of the designer's: decided by it
                        }
                    }
                }
                // A new modifier was checked to have its condition (read_modifiers).
                None => {
                    if let Some((when, when_text)) = change.when {
                        system.modifiers.push(ModifierRule {
                            rule: change.rule.unwrap_or(change.id.clone()),
                            name: change.name.unwrap_or(change.id.clone()),
                            value: change.value.unwrap_or(0),
                            when,
                            when_text,
                            id: change.id,
                            kind: ModifierKind::Own,
                        });
                    }
                }
            }
        }
        for arm in self.arms {
            match system.arms.iter_mut().find(|a| a.id == arm.id) {
                Some(a) => *a = arm,
                None => system.arms.push(arm),
            }
        }
        let arm_ids: Vec<&str> = system.arms.iter().map(|a| a.id.as_str()).collect();
        system.terrain = std::sync::Arc::new(self.terrain.over(&system.terrain, &arm_ids));
        for (row, effects) in self.results {
            let r = &mut system.results;
            match row {
                "steady_fire" => r.steady_fire = effects,
                "steady_charge" => r.steady_charge = effects,
                "shaken_fire" => r.shaken_fire = effects,
                _ => r.shaken_charge = effects,
            }
        }
        for rule in self.after_attack {
            match system.after_attack.iter_mut().find(|r| r.id == rule.id) {
                Some(r) => *r = rule,
                None => system.after_attack.push(rule),
            }
        }
        for rule in self.restrictions {
            match system.restrictions.iter_mut().find(|r| r.id == rule.id) {
                Some(r) => *r = rule,
                None => system.restrictions.push(rule),
            }
        }
        for m in self.result_modifiers {
            match system.result_modifiers.iter_mut().find(|r| r.id == m.id) {
                Some(r) => *r = m,
                None => system.result_modifiers.push(m),
            }
        }
        if self.rally.is_some() {
            // A file with a rally roll says the whole rule: its modifiers are those it gives.
            system.rally = self.rally;
            system.rally_modifiers = self.rally_modifiers;
        } else {
            // Modifiers to the rally roll below (read_rally_modifiers refuses them where there is none).
            for m in self.rally_modifiers {
                match system.rally_modifiers.iter_mut().find(|r| r.id == m.id) {
                    Some(r) => *r = m,
                    None => system.rally_modifiers.push(m),
                }
            }
        }
        for (term, word) in self.terms {
            let t = &mut system.terms;
            match term {
                "fire" => t.fire = word,
                "charge" => t.charge = word,
                "shaken" => t.shaken = word,
                "retreat" => t.retreat = word,
                _ => t.destroyed = word,
            }
        }
        if system.options.is_empty() {
            system.options = self.options;
        } else {
            for (name, value) in self.options {
                match system.options.iter_mut().find(|(n, _)| *n == name) {
                    Some(o) => o.1 = value,
                    None => system.options.push((name, value)),
                }
            }
            // In the order a file read back gives them (`[options]` is read table by table, key by key), so that
            // the rules written as one file read back the same.
            system.options.sort_by(|(a, _), (b, _)| option_order(a).cmp(&option_order(b)));
        }
        system.layers = std::mem::take(&mut system.layers).with(self.layer, written);
        system.settle();
        system
    }
}

/// An option's place in a file's `[options]` as they are read: by its table (`modifier`), then its entry.
fn option_order(name: &str) -> (&str, &str) {
    name.split_once('.').unwrap_or((name, ""))
}

/// What a file's `[[rally_modifiers]]` modify.
enum RallyBelow {
    /// The file's own `[rally]`, which replaces any roll below with these modifiers alone.
    Replaced,
    /// The rally roll of the rules below, with the ids of its modifiers there.
    Joined(Vec<String>),
    /// Nothing: no rally roll here or below.
    None,
}

/// Refuses the entries of a section beyond `max` in the rules laid together: the ids already `below` count, and
/// each new id of the file once. `what` names the section in the message.
fn within_limit<T>(
    p: &mut Problems,
    raw: &[Spanned<T>],
    id: impl Fn(&T) -> &String,
    below: &[String],
    max: usize,
    what: &str,
) {
    let mut new: Vec<&String> = Vec::new();
    for r in raw {
        let i = id(r.get_ref());
        if below.contains(i) || new.contains(&i) {
            continue;
        }
        new.push(i);
        if below.len() + new.len() > max {
            let message = match below.len() {
                0 => format!("at most {max} {what}"),
                n => format!("at most {max} {what} in the rules laid together (the rules below have {n})"),
            };
            p.at(r.span(), message);
            return;
        }
    }
}

fn read_modifiers(
    p: &mut Problems,
    raw: &[Spanned<RawModifier>],
    names: &Names,
    below: &CombatSystem,
) -> Vec<ModifierChange> {
    if raw.len() > MAX_MODIFIERS {
        p.at(raw[MAX_MODIFIERS].span(), format!("at most {MAX_MODIFIERS} modifiers"));
    }
    // Those of the rules below: the standard's five, then those other files laid under this one add.
    let standard: Vec<&str> = below.modifiers.iter().map(|m| m.id.as_str()).collect();
    let beside = match below.layers.files() {
        [] => format!("the standard's {}", standard.len()),
        _ => format!("the {} of the rules below", standard.len()),
    };
    let mut out: Vec<ModifierChange> = Vec::new();
    for m in raw.iter().take(MAX_MODIFIERS) {
        let m_span = m.span();
        let m = m.get_ref();
        let id = m.id.get_ref();
        if !fresh_id(p, "modifier", &m.id, out.iter().any(|o| &o.id == id)) {
            continue;
        }
        let value = m.value.as_ref().and_then(|v| within(p, "value", v, -3..=3)).map(|v| v as i8);
        let when = m
            .when
            .as_ref()
            .and_then(|w| read_condition(p, w, names, Moment::BeforeDice).map(|c| (c, w.get_ref().clone())));
        let is_new = !standard.contains(&id.as_str());
        // The standard's five come first: a file adds at most the places left after them.
        let new_before = out.iter().filter(|o| !standard.contains(&o.id.as_str())).count();
        if is_new && standard.len() + new_before >= MAX_MODIFIERS {
            let room = MAX_MODIFIERS.saturating_sub(standard.len());
            p.at(m_span.clone(), format!("at most {room} new modifiers beside {beside}"));
            continue;
        }
        if is_new && m.when.is_none() {
            p.at(m_span.clone(), format!("modifier '{id}' is new: it needs `when`, the condition it applies under"));
        }
        if is_new && m.value.is_none() {
            p.at(m_span, format!("modifier '{id}' is new: it needs `value`, from -3 to 3"));
        }
        out.push(ModifierChange {
            id: id.clone(),
            rule: m.rule.as_ref().map(|r| r.get_ref().clone()),
            name: m.name.as_ref().map(|n| n.get_ref().clone()),
            value,
            when,
        });
    }
    out
}

/// A condition of the file, at `moment`, or its problem at its place in the file (inside the quotes).
fn read_condition(p: &mut Problems, w: &Spanned<String>, names: &Names, moment: Moment) -> Option<Condition> {
    condition_read(p, w, Condition::parse_in(w.get_ref(), names.arms, names.terrains, moment))
}

/// A condition `w` read, or its problem noted where it stands in the file.
fn condition_read<T>(p: &mut Problems, w: &Spanned<String>, read: Result<T, ConditionError>) -> Option<T> {
    match read {
        Ok(c) => Some(c),
        Err(ConditionError { offset, message }) => {
            let start = w.span().start + 1 + offset;
            p.at(start..start, format!("when: {message}"));
            None
        }
    }
}

/// `[[after_attack]]`: each rule whole (id, name, when, attacker), its condition read after the dice.
fn read_after_attack(
    p: &mut Problems,
    raw: &[Spanned<RawAfterAttack>],
    names: &Names,
    below: &[String],
) -> Vec<AfterAttackRule> {
    within_limit(p, raw, |r| r.id.get_ref(), below, MAX_AFTER_ATTACK, "[[after_attack]] rules");
    let mut out: Vec<AfterAttackRule> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for r in raw.iter().take(MAX_AFTER_ATTACK) {
        let span = r.span();
        let r = r.get_ref();
        let id = r.id.get_ref();
        if !fresh_id(p, "after_attack", &r.id, seen.contains(id)) {
            continue;
        }
        seen.push(id.clone());
        let when = match &r.when {
            Some(w) => read_condition(p, w, names, Moment::AfterDice).map(|c| (c, w.get_ref().clone())),
            None => {
                p.at(span.clone(), format!("after_attack '{id}' needs `when`, the condition it applies under"));
                None
            }
        };
        let known = || AttackerEffect::ALL.map(AttackerEffect::file_name).join(", ");
        let effect = match &r.attacker {
            Some(e) => {
                let found = AttackerEffect::ALL.into_iter().find(|x| x.file_name() == e.get_ref());
                if found.is_none() {
                    p.at(e.span(), format!("attacker: unknown effect '{}' (known: {})", e.get_ref(), known()));
                }
                found
            }
            None => {
                p.at(span, format!("after_attack '{id}' needs `attacker`, what befalls it ({})", known()));
                None
            }
        };
        let name = r.name.as_ref().map_or_else(|| id.clone(), |n| n.get_ref().clone());
        if let (Some((when, when_text)), Some(effect)) = (when, effect) {
            out.push(AfterAttackRule { id: id.clone(), name, when, when_text, effect });
        }
    }
    out
}

/// `[[restrictions]]`: each whole (id, name, when), its condition read over an attack before the dice or over an
/// order, as the facts it names say.
fn read_restrictions(
    p: &mut Problems,
    raw: &[Spanned<RawRestriction>],
    names: &Names,
    below: &[String],
) -> Vec<Restriction> {
    within_limit(p, raw, |r| r.id.get_ref(), below, MAX_RESTRICTIONS, "[[restrictions]]");
    let mut out: Vec<Restriction> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for r in raw.iter().take(MAX_RESTRICTIONS) {
        let span = r.span();
        let r = r.get_ref();
        let id = r.id.get_ref();
        if !fresh_id(p, "restriction", &r.id, seen.contains(id)) {
            continue;
        }
        seen.push(id.clone());
        let Some(w) = &r.when else {
            p.at(span, format!("restriction '{id}' needs `when`, the attacks or orders it forbids"));
            continue;
        };
        let read = Condition::parse_restriction(w.get_ref(), names.arms, names.terrains);
        if let Some((when, over)) = condition_read(p, w, read) {
            let name = r.name.as_ref().map_or_else(|| id.clone(), |n| n.get_ref().clone());
            out.push(Restriction { id: id.clone(), name, when, when_text: w.get_ref().clone(), over });
        }
    }
    out
}

/// `[[result_modifiers]]`: each whole (id, name, value, when), its condition read before the dice.
fn read_result_modifiers(
    p: &mut Problems,
    raw: &[Spanned<RawResultModifier>],
    names: &Names,
    below: &[String],
) -> Vec<ResultModifier> {
    within_limit(p, raw, |m| m.id.get_ref(), below, MAX_RESULT_MODIFIERS, "[[result_modifiers]]");
    let mut out: Vec<ResultModifier> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for m in raw.iter().take(MAX_RESULT_MODIFIERS) {
        let span = m.span();
        let m = m.get_ref();
        let id = m.id.get_ref();
        if !fresh_id(p, "result modifier", &m.id, seen.contains(id)) {
            continue;
        }
        seen.push(id.clone());
        let value = match &m.value {
            Some(v) => within(p, "value", v, -3..=3).map(|v| v as i8),
            None => {
                p.at(span.clone(), format!("result modifier '{id}' needs `value`, from -3 to 3"));
                None
            }
        };
        let when = match &m.when {
            Some(w) => read_condition(p, w, names, Moment::BeforeDice).map(|c| (c, w.get_ref().clone())),
            None => {
                p.at(span, format!("result modifier '{id}' needs `when`, the condition it applies under"));
                None
            }
        };
        if let (Some(value), Some((when, when_text))) = (value, when) {
            let name = m.name.as_ref().map_or_else(|| id.clone(), |n| n.get_ref().clone());
            out.push(ResultModifier { id: id.clone(), name, value, when, when_text });
        }
    }
    out
}

/// `[rally]`: the roll a shaken unit activated must pass to rally (id, name, needed: a number 2..=6 or "strength").
fn read_rally(p: &mut Problems, raw: &Spanned<RawRally>) -> Option<RallyRule> {
    let span = raw.span();
    let r = raw.get_ref();
    let id = r.id.get_ref();
    if !fresh_id(p, "rally", &r.id, false) {
        return None;
    }
    const NEEDED: &str = "a number from 2 to 6 (a D6 of it or more) or \"strength\" (a D6 at most the unit's strength)";
    let needed = match &r.needed {
        None => {
            p.at(span, format!("[rally] '{id}' needs `needed`: {NEEDED}"));
            return None;
        }
        Some(n) => match n.get_ref() {
            toml::Value::Integer(v) if (2..=6).contains(v) => RallyNeed::AtLeast(*v as u8),
            toml::Value::String(w) if w == "strength" => RallyNeed::Strength,
            other => {
                p.at(n.span(), format!("needed: {NEEDED}, not {other}"));
                return None;
            }
        },
    };
    let name = r.name.as_ref().map_or_else(|| id.clone(), |n| n.get_ref().clone());
    Some(RallyRule { id: id.clone(), name, needed })
}

/// `[[rally_modifiers]]`: each whole (id, name, value, when), its condition over the rallying unit's facts; only
/// beside a `[rally]` roll, the file's own or one of the rules below, which they modify.
fn read_rally_modifiers(
    p: &mut Problems,
    raw: &[Spanned<RawResultModifier>],
    rally: &RallyBelow,
    names: &Names,
) -> Vec<RallyModifier> {
    if let (Some(first), RallyBelow::None) = (raw.first(), rally) {
        p.at(
            first.span(),
            "[[rally_modifiers]] modify a rally roll: give it in [rally] (under the standard rules a shaken unit \
             rallies as it is activated, R4.1)",
        );
    }
    let below = match rally {
        RallyBelow::Joined(ids) => ids.as_slice(),
        RallyBelow::Replaced | RallyBelow::None => &[],
    };
    within_limit(p, raw, |m| m.id.get_ref(), below, MAX_RALLY_MODIFIERS, "[[rally_modifiers]]");
    let mut out: Vec<RallyModifier> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for m in raw.iter().take(MAX_RALLY_MODIFIERS) {
        let span = m.span();
        let m = m.get_ref();
        let id = m.id.get_ref();
        if !fresh_id(p, "rally modifier", &m.id, seen.contains(id)) {
            continue;
        }
        seen.push(id.clone());
        let value = match &m.value {
            Some(v) => within(p, "value", v, -3..=3).map(|v| v as i8),
            None => {
                p.at(span.clone(), format!("rally modifier '{id}' needs `value`, from -3 to 3"));
                None
            }
        };
        let when = match &m.when {
            Some(w) => read_condition(p, w, names, Moment::Rally).map(|c| (c, w.get_ref().clone())),
            None => {
                p.at(span, format!("rally modifier '{id}' needs `when`, the condition it applies under"));
                None
            }
        };
        if let (Some(value), Some((when, when_text))) = (value, when) {
            let name = m.name.as_ref().map_or_else(|| id.clone(), |n| n.get_ref().clone());
            out.push(RallyModifier { id: id.clone(), name, value, when, when_text });
        }
    }
    out
}

/// Whether `id` may name an entry of `what`: well formed, and not `given` before in the file.
pub(super) fn fresh_id(p: &mut Problems, what: &str, id: &Spanned<String>, given: bool) -> bool {
    let text = id.get_ref();
    let well_formed =
        !text.is_empty() && text.len() <= 24 && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !well_formed {
        p.at(id.span(), format!("{what} id '{text}': letters, digits, '_' and '-' only, at most 24"));
    } else if given {
        p.at(id.span(), format!("{what} id '{text}' is given twice"));
    }
    well_formed && !given
}

/// `[[arms]]`: a change to an arm of the rules below (`below`: the standard three first), by its id, or a new one.
fn read_arms(p: &mut Problems, raw: &[Spanned<RawArm>], below: &[ArmRule]) -> Vec<ArmRule> {
    let standard = below;
    let limit = MAX_ARMS.saturating_sub(below.len());
    let mut new: Vec<&String> = Vec::new();
    for a in raw.iter().map(|a| a.get_ref().id.get_ref()) {
        if !below.iter().any(|b| &b.id == a) && !new.contains(&a) {
            new.push(a);
        }
    }
    if new.len() > limit {
        let message = match below.len() - Arm::ALL.len() {
            0 => format!("at most {limit} new arms beside the standard three"),
            n => format!("at most {limit} new arms beside the standard three and the {n} of the rules below"),
        };
        p.at(raw[raw.len() - 1].span(), message);
    }
    let mut out: Vec<ArmRule> = Vec::new();
    for a in raw {
        let a_span = a.span();
        let a = a.get_ref();
        let id = a.id.get_ref();
        if !fresh_id(p, "arm", &a.id, out.iter().any(|o| &o.id == id)) {
            continue;
        }
        let base = standard.iter().find(|s| &s.id == id);
        let like = match (&a.like, base) {
            (Some(l), _) => match Arm::parse(l.get_ref()) {
                Some(arm) if base.is_none_or(|b| b.like == arm) => Some(arm),
                Some(_) if Arm::parse(id).is_some() => {
                    p.at(l.span(), format!("the standard arm '{id}' is itself: it cannot be like another"));
                    None
                }
                Some(_) => {
                    let was = base.map_or("", |b| b.like.name());
                    p.at(
                        l.span(),
                        format!("the arm '{id}' is like {was} in the rules below: it cannot be like another"),
                    );
                    None
                }
                None => {
                    p.at(
                        l.span(),
                        format!("like: '{}' is not a standard arm (infantry, cavalry, artillery)", l.get_ref()),
                    );
                    None
                }
            },
            (None, Some(b)) => Some(b.like),
            (None, None) => {
                p.at(a_span.clone(), format!("arm '{id}' is new: it needs `like`, the standard arm it acts as"));
                None
            }
        };
        let like_base = like.and_then(|l| standard.iter().find(|s| s.like == l));
        let number = |p: &mut Problems, field: &str, v: &Option<Spanned<i64>>, range, fallback: Option<u8>| match v {
            Some(v) => within(p, field, v, range).map(|n| n as u8),
            None => fallback,
        };
        let base_or_like = base.or(like_base);
        let strength = number(p, "strength", &a.strength, 1..=6, base_or_like.map(|b| b.strength));
        let movement = number(p, "move", &a.movement, 1..=26, base_or_like.map(|b| b.movement));
        let range = number(p, "range", &a.range, 1..=26, base_or_like.map(|b| b.range));
        if let (Some(like), Some(strength), Some(movement), Some(range)) = (like, strength, movement, range) {
            let name = a.name.as_ref().map(|n| n.get_ref().clone()).or(base.map(|b| b.name.clone()));
            out.push(ArmRule { id: id.clone(), name: name.unwrap_or(id.clone()), like, strength, movement, range });
        }
    }
    out
}

fn read_results(p: &mut Problems, raw: Option<&RawResults>) -> Vec<(&'static str, [HitResult; 2])> {
    const ROWS: [&str; 4] = ["steady_fire", "steady_charge", "shaken_fire", "shaken_charge"];
    let mut out = Vec::new();
    for (key, row) in raw.into_iter().flatten() {
        let Some(&name) = ROWS.iter().find(|r| *r == key.get_ref()) else {
            p.at(key.span(), format!("unknown row '{}' of [results] (known: {})", key.get_ref(), ROWS.join(", ")));
            continue;
        };
        let effects: Vec<Option<HitResult>> = row
            .get_ref()
            .iter()
            .map(|e| {
                let found = HitResult::ALL.iter().copied().find(|x| x.file_name() == e.get_ref());
                if found.is_none() {
                    p.at(
                        e.span(),
                        format!("unknown outcome '{}' (known: none, shaken, retreat, destroyed)", e.get_ref()),
                    );
                }
                found
            })
            .collect();
        match effects[..] {
            [Some(held), Some(broke)] => out.push((name, [held, broke])),
            [_, _] => {}
            _ => p.at(row.span(), format!("{name}: two outcomes, [roll at most strength, roll above]")),
        }
    }
    out
}

fn read_terms(
    p: &mut Problems,
    raw: Option<&BTreeMap<Spanned<String>, Spanned<String>>>,
) -> Vec<(&'static str, String)> {
    const TERMS: [&str; 5] = ["fire", "charge", "shaken", "retreat", "destroyed"];
    let mut out = Vec::new();
    for (key, word) in raw.into_iter().flatten() {
        let Some(&term) = TERMS.iter().find(|t| *t == key.get_ref()) else {
            p.at(key.span(), format!("unknown term '{}' (known: {})", key.get_ref(), TERMS.join(", ")));
            continue;
        };
        let w = word.get_ref().trim();
        if w.is_empty() || w.len() > 40 {
            p.at(word.span(), format!("{term}: a word or a few, at most 40 characters"));
            continue;
        }
        out.push((term, w.to_string()));
    }
    out
}

/// The variant's `[options]` as `name=value` pairs, each checked as it stands in the file: an unknown option or a
/// value it does not take is refused here, at its place, not later against the scenario a game is set up with.
/// The options are the rules' (R11), `modifier.<id>` of the file's own modifiers and `strength.`, `move.` and
/// `range.<id>` of its own arms (`own_arms`); `exhaustion.<side>` is checked against the scenario's sides when a
/// game is set up. A modifier of one's own may be one of the rules below.
fn read_options(
    p: &mut Problems,
    raw: Option<&BTreeMap<Spanned<String>, Spanned<RawOption>>>,
    modifiers: &[Spanned<RawModifier>],
    below: &[ModifierRule],
    own_arms: &[&str],
) -> Vec<(String, String)> {
    // The modifiers of one's own: those of the rules below, and the file's.
    let own: Vec<&str> = below
        .iter()
        .map(|m| m.id.as_str())
        .chain(modifiers.iter().map(|m| m.get_ref().id.get_ref().as_str()))
        .filter(|id| StandardModifier::of(id).is_none())
        .collect();
    let mut out = Vec::new();
    let mut one = |p: &mut Problems, name: String, key: &Spanned<String>, value: &Spanned<RawOption>| {
        let RawOption::Scalar(text) = value.get_ref() else {
            p.at(value.span(), format!("option {name} must be a number, a word or true/false"));
            return;
        };
        match check_option(&name, text, &own, own_arms) {
            Ok(()) => out.push((name, text.clone())),
            Err(OptionProblem::Unknown(message)) => p.at(key.span(), message),
            Err(OptionProblem::Value(message)) => p.at(value.span(), message),
        }
    };
    for (key, value) in raw.into_iter().flatten() {
        match value.get_ref() {
            RawOption::Table(entries) => {
                for (entry, v) in entries {
                    one(p, format!("{}.{}", key.get_ref(), entry.get_ref()), entry, v);
                }
            }
            _ => one(p, key.get_ref().clone(), key, value),
        }
    }
    out
}

/// What is wrong with an option of a variant's: its name, or its value.
enum OptionProblem {
    Unknown(String),
    Value(String),
}

/// Checks one option of a variant's `[options]` as far as it can be without a scenario: its name is an option of
/// the rules (R11), `modifier.<id>` of one of `own` (the file's own modifiers) or an arm's number of one of
/// `own_arms` (`range.skirmishers`), and its value is one it takes.
fn check_option(name: &str, value: &str, own: &[&str], own_arms: &[&str]) -> Result<(), OptionProblem> {
    if name.strip_prefix("modifier.").is_some_and(|id| own.contains(&id)) {
        return match value.parse::<i8>() {
            Ok(v) if (-3..=3).contains(&v) => Ok(()),
            _ => Err(OptionProblem::Value(format!(
                "option {name}: '{value}' is not allowed (a whole number from -3 to 3) (R11)"
            ))),
        };
    }
    let own_arm = name.split_once('.').and_then(|(n, id)| ArmNumber::of(n).filter(|_| own_arms.contains(&id)));
    if let Some(number) = own_arm {
        let (least, most) = number.bounds();
        return match value.parse::<u8>() {
            Ok(v) if (least..=most).contains(&v) => Ok(()),
            _ => Err(OptionProblem::Value(format!(
                "option {name}: '{value}' is not allowed (a whole number from {least} to {most}) (R11)"
            ))),
        };
    }
    // The sides are the scenario's: any side's name is checked when a game is set up.
    let checked = if name.starts_with("exhaustion.") { "exhaustion.A" } else { name };
    match crate::Options::default().set(checked, value) {
        Ok(()) => Ok(()),
        Err(crate::options::OptionError::Unknown(_)) => {
            let mut known: Vec<String> =
                crate::options::OPTION_SPECS.iter().map(|s| s.name.replace("SIDE", "<side>")).collect();
            known.extend(own.iter().map(|id| format!("modifier.{id}")));
            for number in ArmNumber::ALL {
                known.extend(own_arms.iter().map(|id| format!("{}.{id}", number.name())));
            }
            let refs: Vec<&str> = known.iter().map(String::as_str).collect();
            // Within a table (`modifier.`), the entry alone is compared: the shared prefix would make any two near.
            let near = match name.split_once('.') {
                Some((table, entry)) if refs.iter().any(|k| k.starts_with(&format!("{table}."))) => {
                    let entries: Vec<&str> =
                        refs.iter().filter_map(|k| k.strip_prefix(table)?.strip_prefix('.')).collect();
                    crate::problem::nearest(entry, &entries).map(|e| format!("{table}.{e}"))
                }
                _ => crate::problem::nearest(name, &refs).map(str::to_string),
            };
            Err(OptionProblem::Unknown(match near {
                Some(near) => format!("unknown option '{name}': did you mean '{near}'?"),
                None => format!("unknown option '{name}' (known: {})", refs.join(", ")),
            }))
        }
        Err(e) => Err(OptionProblem::Value(e.to_string().replace("exhaustion.A", name))),
    }
}

impl CombatSystem {
    /// The standard arms as the options' defaults give them.
    fn standard_arms() -> Vec<ArmRule> {
        let o = crate::Options::default();
        Arm::ALL
            .iter()
            .map(|&arm| ArmRule {
                id: arm.name().to_string(),
                name: capitalised(arm.name()),
                like: arm,
                strength: o.strength.get(arm),
                movement: o.movement.get(arm),
                range: o.range.get(arm),
            })
            .collect()
    }
}

fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// The standard system: `rules/standard.toml` laid over the built-in rules it describes (read once, shared).
pub(super) fn standard() -> &'static std::sync::Arc<CombatSystem> {
    static STANDARD_SYSTEM: std::sync::OnceLock<std::sync::Arc<CombatSystem>> = std::sync::OnceLock::new();
    STANDARD_SYSTEM.get_or_init(|| std::sync::Arc::new(read_standard()))
}

fn read_standard() -> CombatSystem {
    let bare = CombatSystem {
        name: String::new(),
        description: String::new(),
        modifiers: Vec::new(),
        arms: CombatSystem::standard_arms(),
        results: ResultTable::STANDARD,
        after_attack: Vec::new(),
        restrictions: Vec::new(),
        result_modifiers: Vec::new(),
        rally: None,
        rally_modifiers: Vec::new(),
        terrain: crate::terrain::TerrainRules::standard(),
        terms: Terms {
            fire: "fire".into(),
            charge: "charge".into(),
            shaken: "shaken".into(),
            retreat: "retreat".into(),
            destroyed: "destroyed".into(),
        },
        options: Vec::new(),
        layers: Layers::default(),
        reads_attack_facts: false,
        standard_places: 0,
        restricts_attacks: false,
        restricts_orders: false,
    };
    // The standard file names all five modifiers with their conditions; a test checks it is read without a problem.
    let mut standard = match VariantText::parse(STANDARD, "rules/standard.toml", &bare) {
        Ok(v) => v.over(bare),
        Err(_) => bare,
    };
    for m in &mut standard.modifiers {
        if let Some(b) = StandardModifier::of(&m.id) {
            m.kind = ModifierKind::Standard(b);
        }
    }
    // The standard is what the layers are laid over, not one of them.
    standard.layers = Layers::default();
    standard.settle();
    standard
}
