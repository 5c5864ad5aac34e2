//! A variant's terrain and movement (`[[terrain]]`, `[movement]` in docs/variants.md), read and checked: a new kind
//! of terrain with its map letter, what entering it costs, whether it gives cover and blocks sight, and what it
//! costs an arm otherwise than the others; a change to a standard kind (cavalry stopped by woods); the road bonus
//! (R1.6) as a number. Laid over a combat system, a kind of the same id is changed in what the file names, a new
//! id is added after the others.

use super::file::{Problems, fresh_id};
use crate::terrain::{Entry, MAX_OWN_TERRAINS, MAX_ROAD_BONUS, TerrainKind, TerrainRules};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// `[[terrain]]` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTerrain {
    id: Spanned<String>,
    name: Option<Spanned<String>>,
    letter: Option<Spanned<String>>,
    #[serde(rename = "move")]
    entry: Option<Spanned<toml::Value>>,
    cover: Option<bool>,
    blocks_sight: Option<bool>,
    move_by_arm: Option<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
}

/// `[movement]` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMovement {
    road_bonus: Option<Spanned<i64>>,
}

/// A terrain kind as a variant writes it: a new one whole (what it leaves out takes the defaults: its id as its
/// name, a move of 1, no cover, not blocking sight), or a change to one already there, by its id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TerrainChange {
    id: String,
    name: Option<String>,
    letter: Option<char>,
    cover: Option<bool>,
    blocks_sight: Option<bool>,
    entry: Option<Entry>,
    by_arm: Vec<(String, Entry)>,
}

/// What a variant says of terrain and movement.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(super) struct TerrainText {
    kinds: Vec<TerrainChange>,
    road_bonus: Option<u8>,
}

/// Reads `[[terrain]]` and `[movement]` to be laid over `below` (the standard's, or those of other files laid over
/// it); `arms` are the arms' ids a `move_by_arm` may name (those below and the file's own).
pub(super) fn read(
    p: &mut Problems,
    raw: &[Spanned<RawTerrain>],
    movement: Option<&Spanned<RawMovement>>,
    arms: &[&str],
    below: &TerrainRules,
) -> TerrainText {
    let standard = below;
    let mut kinds: Vec<TerrainChange> = Vec::new();
    let mut letters: Vec<char> = standard.kinds().iter().map(|k| k.letter).collect();
    // The new kinds of other files laid below this one count against the same limit.
    let below_new = standard.kinds().len().saturating_sub(crate::terrain::Terrain::ALL.len());
    let mut new = below_new;
    for t in raw {
        let span = t.span();
        let t = t.get_ref();
        let id = t.id.get_ref();
        if !fresh_id(p, "terrain", &t.id, kinds.iter().any(|k| &k.id == id)) {
            continue;
        }
        let base = standard.by_id(id);
        if base.is_none() {
            new += 1;
            if new > MAX_OWN_TERRAINS {
                let message = match below_new {
                    0 => format!("at most {MAX_OWN_TERRAINS} new terrains beside the standard six"),
                    n => format!(
                        "at most {MAX_OWN_TERRAINS} new terrains beside the standard six (the rules below add {n})"
                    ),
                };
                p.at(span, message);
                continue;
            }
        }
        let letter = match (&t.letter, base) {
            (Some(l), Some(b)) if l.get_ref().chars().eq([standard.kind(b).letter]) => Some(standard.kind(b).letter),
            (Some(l), Some(b)) => {
                let was = standard.kind(b).letter;
                let which = if b.index() < crate::terrain::Terrain::ALL.len() { "standard " } else { "" };
                p.at(l.span(), format!("the {which}terrain '{id}' keeps its letter '{was}' in maps"));
                None
            }
            (Some(l), None) => read_letter(p, l, &mut letters),
            (None, Some(_)) => None,
            (None, None) => {
                p.at(span, format!("terrain '{id}' is new: it needs `letter`, the character maps draw it with"));
                None
            }
        };
        let name = t.name.as_ref().and_then(|n| {
            let text = n.get_ref().trim();
            if text.is_empty() || text.chars().count() > 40 {
                p.at(n.span(), "name: a word or a few, at most 40 characters");
                None
            } else {
                Some(text.to_string())
            }
        });
        let entry = t.entry.as_ref().and_then(|e| read_entry(p, "move", e, true));
        let mut by_arm = Vec::new();
        for (arm, e) in t.move_by_arm.iter().flatten() {
            if !arms.contains(&arm.get_ref().as_str()) {
                let message = match crate::problem::nearest(arm.get_ref(), arms) {
                    Some(near) => format!("move_by_arm: unknown arm '{}': did you mean '{near}'?", arm.get_ref()),
                    None => format!("move_by_arm: unknown arm '{}' (known: {})", arm.get_ref(), arms.join(", ")),
                };
                p.at(arm.span(), message);
                continue;
            }
            if let Some(entry) = read_entry(p, &format!("move_by_arm.{}", arm.get_ref()), e, false) {
                by_arm.push((arm.get_ref().clone(), entry));
            }
        }
        kinds.push(TerrainChange {
            id: id.clone(),
            name,
            letter,
            cover: t.cover,
            blocks_sight: t.blocks_sight,
            entry,
            by_arm,
        });
    }
    let road_bonus = movement.and_then(|m| m.get_ref().road_bonus.as_ref()).and_then(|b| {
        let max = MAX_ROAD_BONUS as i64;
        if (0..=max).contains(b.get_ref()) {
            Some(*b.get_ref() as u8)
        } else {
            p.at(b.span(), format!("road_bonus must be from 0 to {max}, not {}", b.get_ref()));
            None
        }
    });
    TerrainText { kinds, road_bonus }
}

/// The terrains' ids a condition may name: those of the rules below, then the file's new ones (in the order of
/// their places once laid over them).
pub(super) fn names(raw: &[Spanned<RawTerrain>], below: &TerrainRules) -> Vec<String> {
    let standard = below;
    let mut names: Vec<String> = standard.kinds().iter().map(|k| k.id.clone()).collect();
    for t in raw.iter().take(crate::terrain::MAX_TERRAINS) {
        let id = t.get_ref().id.get_ref();
        if standard.by_id(id).is_none() && !names.contains(id) {
            names.push(id.clone());
        }
    }
    names
}

/// A new terrain's letter: one character maps may hold, not taken by another terrain.
fn read_letter(p: &mut Problems, l: &Spanned<String>, letters: &mut Vec<char>) -> Option<char> {
    let mut chars = l.get_ref().chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        p.at(l.span(), format!("letter: one character, not '{}'", l.get_ref()));
        return None;
    };
    if !c.is_ascii_graphic() || "\"'\\#".contains(c) {
        p.at(
            l.span(),
            format!("letter: a letter, digit or sign that maps may hold (not a space, quote, \\ or #), not '{c}'"),
        );
        return None;
    }
    if letters.contains(&c) {
        p.at(l.span(), format!("letter '{c}' is already a terrain's (taken: {})", letters.iter().collect::<String>()));
        return None;
    }
    letters.push(c);
    Some(c)
}

/// What entering costs, as a file writes it: a number of squares from 1 to 26, "stop", or (for every arm at once)
/// "impassable".
fn read_entry(p: &mut Problems, field: &str, v: &Spanned<toml::Value>, may_be_impassable: bool) -> Option<Entry> {
    let words = if may_be_impassable {
        "a number of squares from 1 to 26, \"stop\" or \"impassable\""
    } else {
        "a number of squares from 1 to 26 or \"stop\" (a terrain is impassable to every arm or to none)"
    };
    let entry = match v.get_ref() {
        toml::Value::Integer(n @ 1..=26) => Some(Entry::Cost(*n as u8)),
        toml::Value::String(s) if s == "stop" => Some(Entry::Stop),
        toml::Value::String(s) if s == "impassable" && may_be_impassable => Some(Entry::Impassable),
        _ => None,
    };
    if entry.is_none() {
        p.at(v.span(), format!("{field}: {words}, not {}", v.get_ref()));
    }
    entry
}

impl TerrainText {
    /// The ids of the kinds it adds or changes.
    pub(super) fn ids(&self) -> impl Iterator<Item = &str> {
        self.kinds.iter().map(|k| k.id.as_str())
    }

    /// Whether it sets the road bonus.
    pub(super) fn changes_road_bonus(&self) -> bool {
        self.road_bonus.is_some()
    }

    /// `rules` with this laid over them; `arms` are the combat system's arm ids, in the order of their places.
    pub(super) fn over(self, rules: &TerrainRules, arms: &[&str]) -> TerrainRules {
        let mut kinds = rules.kinds().to_vec();
        for change in self.kinds {
            let kind = match kinds.iter().position(|k| k.id == change.id) {
                Some(i) => &mut kinds[i],
                None => {
                    // A new kind was checked to have its letter (read).
                    let Some(letter) = change.letter else { continue };
                    kinds.push(TerrainKind {
                        id: change.id.clone(),
                        name: change.id.clone(),
                        letter,
                        cover: false,
                        blocks_sight: false,
                        entry: Entry::Cost(1),
                        by_arm: Vec::new(),
                    });
                    kinds.last_mut().expect("just pushed")
                }
            };
            kind.name = change.name.unwrap_or(kind.name.clone());
            kind.cover = change.cover.unwrap_or(kind.cover);
            kind.blocks_sight = change.blocks_sight.unwrap_or(kind.blocks_sight);
            kind.entry = change.entry.unwrap_or(kind.entry);
            for (arm, entry) in change.by_arm {
                match kind.by_arm.iter_mut().find(|(a, _)| *a == arm) {
                    Some(was) => was.1 = entry,
                    None => kind.by_arm.push((arm, entry)),
                }
            }
            // By the arm's id, as a file lists them when read (a table's keys in order): the entries of several
            // files laid together read back the same, written as one.
            kind.by_arm.sort_by(|(a, _), (b, _)| a.cmp(b));
        }
        TerrainRules::new(kinds, self.road_bonus.unwrap_or(rules.road_bonus()), arms)
    }
}

/// A terrain table written as a variant file's `[[terrain]]` and `[movement]` (what `pacw rules` prints); `note`
/// gives what to write of a kind's provenance under its header (`true`, by its id) or after the road bonus (`false`).
pub(super) fn to_toml(rules: &TerrainRules, out: &mut String, note: &dyn Fn(bool, &str) -> String) {
    use std::fmt::Write;
    let quoted = |s: &str| toml::Value::String(s.to_string()).to_string();
    for kind in rules.kinds() {
        let _ = writeln!(out, "\n[[terrain]]");
        out.push_str(&note(true, &kind.id));
        let _ = writeln!(out, "id = {}\nname = {}", quoted(&kind.id), quoted(&kind.name));
        let _ = writeln!(out, "letter = {}", quoted(&kind.letter.to_string()));
        let _ = writeln!(out, "move = {}", kind.entry.file_value());
        let _ = writeln!(out, "cover = {}\nblocks_sight = {}", kind.cover, kind.blocks_sight);
        if !kind.by_arm.is_empty() {
            let arms: Vec<String> =
                kind.by_arm.iter().map(|(arm, entry)| format!("{arm} = {}", entry.file_value())).collect();
            let _ = writeln!(out, "move_by_arm = {{ {} }}", arms.join(", "));
        }
    }
    let _ = writeln!(out, "\n[movement]\nroad_bonus = {}{}", rules.road_bonus(), note(false, "road_bonus"));
}

/// A terrain table's kinds as JSON (what `pacw rules --json` prints): the same fields as the file's, and `from`, the
/// file that last wrote each kind.
pub(super) fn to_json(rules: &TerrainRules, from: &dyn Fn(&str) -> String) -> serde_json::Value {
    use serde_json::json;
    rules
        .kinds()
        .iter()
        .map(|k| {
            json!({
                "id": k.id, "name": k.name, "letter": k.letter.to_string(), "move": k.entry.to_json(),
                "cover": k.cover, "blocks_sight": k.blocks_sight, "from": from(&k.id),
                "move_by_arm": k.by_arm.iter().map(|(a, e)| (a.clone(), e.to_json())).collect::<serde_json::Map<_, _>>(),
            })
        })
        .collect()
}
