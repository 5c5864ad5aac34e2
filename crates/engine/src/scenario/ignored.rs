//! The keys of a scenario file that nothing in the format reads. They are not errors — a file written for a later
//! version still loads — but a misspelt optional key (`qualty = "veteran"`) would otherwise be skipped without a word,
//! so `pacw check`, the lobby and the editor warn of them, with the known key each is likely meant to be.

use super::Scenario;
use super::parse::{Problem, RawMap, RawObjective, RawScenario, RawSide, RawUnit};
use super::parse_events::{RawChange, RawReinforcement};
use crate::problem::line_col;
use serde::Deserialize;
use serde::de::{self, Visitor};
use std::cell::Cell;
use toml::de::DeTable;

/// One step of the way to a key: a table's key or an array's index.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

impl Scenario {
    /// Every key outside `[options]` that the format does not read (docs/scenario-format.md), in file order, each as a
    /// [`Problem`] placed on the key and naming the known key it is nearest to. Empty for a file that is not TOML
    /// or does not have the format's shape: [`Scenario::parse`] reports those.
    pub fn ignored_keys(source: &str) -> Vec<Problem> {
        let mut paths = Vec::new();
        let Ok(de) = toml::Deserializer::parse(source) else { return Vec::new() };
        let read: Result<RawScenario, _> = serde_ignored::deserialize(de, |path| paths.push(steps(&path)));
        let (Ok(_), Ok(document)) = (read, DeTable::parse(source)) else { return Vec::new() };
        let mut found: Vec<Problem> =
            paths.iter().filter_map(|path| warning(source, document.get_ref(), path)).collect();
        found.sort_by_key(|p| (p.line, p.column));
        found
    }
}

/// The steps of a path as `serde_ignored` reports it, leaving out the wrappers (`Option`, `Spanned`) that are not
/// in the file.
fn steps(path: &serde_ignored::Path) -> Vec<Step> {
    use serde_ignored::Path;
    let mut steps = match path {
        Path::Root => return Vec::new(),
        Path::Seq { parent, .. }
        | Path::Map { parent, .. }
        | Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => steps(parent),
    };
    match path {
        Path::Seq { index, .. } => steps.push(Step::Index(*index)),
        Path::Map { key, .. } if !key.starts_with("$__serde_spanned_private") => steps.push(Step::Key(key.clone())),
        _ => {}
    }
    steps
}

/// The warning for the ignored key at `path`, placed on the key in the file.
fn warning(source: &str, document: &DeTable, path: &[Step]) -> Option<Problem> {
    let (Step::Key(key), within) = path.split_last()? else { return None };
    let table = match within.split_first() {
        None => document,
        Some((first, rest)) => {
            let Step::Key(first) = first else { return None };
            let mut value = document.get(first.as_str())?;
            for step in rest {
                value = match step {
                    Step::Key(k) => value.get_ref().get(k.as_str())?,
                    Step::Index(i) => value.get_ref().get(*i)?,
                };
            }
            value.get_ref().as_table()?
        }
    };
    let span = table.keys().find(|k| k.get_ref().as_ref() == key.as_str())?.span();
    let (line, column) = line_col(source, span.start);
    let (place, known, unit) = place(document, within);
    let hint = match crate::problem::nearest(key, known) {
        Some(k) => format!(": did you mean '{k}'?"),
        None if known.is_empty() => String::new(),
        None => format!(" (known here: {})", known.join(", ")),
    };
    Some(Problem {
        line: Some(line),
        column: Some(column),
        message: format!("{place}: unknown key '{key}' is ignored{hint}"),
        square: None,
        unit,
    })
}

/// How the table at `within` is named in a message, the keys the format reads there, and the unit it is (from 0).
fn place(document: &DeTable, within: &[Step]) -> (String, &'static [&'static str], Option<usize>) {
    let name = |table: &str, i: usize| {
        let item = document.get(table).and_then(|v| v.get_ref().get(i));
        let field = |key: &str| item.and_then(|t| t.get_ref().get(key)).and_then(|v| v.get_ref().as_str());
        (field("name"), field("id"))
    };
    match within {
        [] => ("the scenario".into(), fields::<RawScenario>(), None),
        [Step::Key(k)] if k == "map" => ("[map]".into(), fields::<RawMap>(), None),
        [Step::Key(k), Step::Index(i)] if k == "units" => {
            let label = match name("units", *i).0 {
                Some(n) => format!("unit {} ({n})", i + 1),
                None => format!("unit {}", i + 1),
            };
            (label, fields::<RawUnit>(), Some(*i))
        }
        [Step::Key(k), Step::Index(i)] if k == "sides" => {
            let label = match name("sides", *i).1 {
                Some(id) => format!("side '{id}'"),
                None => format!("side {}", i + 1),
            };
            (label, fields::<RawSide>(), None)
        }
        [Step::Key(k), Step::Index(i)] if k == "objectives" => {
            (format!("objective {}", i + 1), fields::<RawObjective>(), None)
        }
        [Step::Key(k), Step::Index(i)] if k == "reinforcements" => {
            (format!("reinforcement {}", i + 1), fields::<RawReinforcement>(), None)
        }
        [Step::Key(k), Step::Index(i), Step::Key(units), Step::Index(j)]
            if k == "reinforcements" && units == "units" =>
        {
            (format!("reinforcement {}, unit {}", i + 1, j + 1), fields::<RawUnit>(), None)
        }
        [Step::Key(k), Step::Index(i)] if k == "changes" => (format!("change {}", i + 1), fields::<RawChange>(), None),
        _ => ("the scenario".into(), &[], None),
    }
}

/// The fields a derived struct reads, as serde's derive lists them: asked of a deserializer that only listens.
fn fields<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let heard = Cell::new(&[][..]);
    let _ = T::deserialize(Listener(&heard));
    heard.get()
}

/// A deserializer that notes the fields a struct asks for and gives nothing.
struct Listener<'a>(&'a Cell<&'static [&'static str]>);

/// Why the listener gives nothing (never shown).
#[derive(Debug)]
struct Heard;

impl std::fmt::Display for Heard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("only listening")
    }
}

impl std::error::Error for Heard {}

impl de::Error for Heard {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Heard
    }
}

impl<'de> de::Deserializer<'de> for Listener<'_> {
    type Error = Heard;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Heard> {
        Err(Heard)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Heard> {
        self.0.set(fields);
        Err(Heard)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DEFAULT_SCENARIO;

    #[test]
    fn the_shipped_scenarios_have_no_ignored_keys() {
        for &crate::Shipped { name, file, text } in crate::SHIPPED_SCENARIOS {
            assert_eq!(Scenario::ignored_keys(text), Vec::new(), "{name} ({file})");
        }
    }

    #[test]
    fn a_misspelt_key_is_placed_on_its_line_and_named_with_the_key_it_is_nearest() {
        let text = DEFAULT_SCENARIO.replacen("quality = ", "qualty = ", 1);
        let line = text.lines().position(|l| l.starts_with("qualty")).unwrap() + 1;
        let warnings = Scenario::ignored_keys(&text);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let w = &warnings[0];
        assert_eq!((w.line, w.column), (Some(line), Some(1)));
        assert!(w.message.contains("unknown key 'qualty' is ignored: did you mean 'quality'?"), "{}", w.message);
        assert!(w.message.starts_with("unit "), "{}", w.message);
        // The file itself still loads, as the format says.
        assert!(Scenario::parse(&text, "m.toml").is_ok());
    }

    #[test]
    fn every_table_of_the_format_is_watched() {
        let text = format!("author = \"me\"\n{DEFAULT_SCENARIO}")
            .replacen("[map]\n", "[map]\nterain = \"\"\n", 1)
            .replacen("[[sides]]\n", "[[sides]]\nhomee = \"north\"\n", 1)
            .replacen("[[objectives]]\n", "[[objectives]]\npoint = 1\n", 1);
        let text = format!(
            "{text}\n[[reinforcements]]\nsde = \"union\"\n[[reinforcements.units]]\nfacin = \"N\"\n\
             [[changes]]\nturns = 2\n"
        );
        let messages: Vec<String> = Scenario::ignored_keys(&text).into_iter().map(|p| p.message).collect();
        assert_eq!(messages.len(), 7, "{messages:?}");
        assert!(messages[4].starts_with("reinforcement 1: unknown key 'sde'"), "{}", messages[4]);
        assert!(messages[4].ends_with("did you mean 'side'?"), "{}", messages[4]);
        assert!(messages[5].starts_with("reinforcement 1, unit 1: unknown key 'facin'"), "{}", messages[5]);
        assert!(messages[6].starts_with("change 1: unknown key 'turns'"), "{}", messages[6]);
        assert!(messages[6].ends_with("did you mean 'turn'?"), "{}", messages[6]);
        assert!(messages[0].starts_with("the scenario: unknown key 'author' is ignored (known here: name,"));
        assert!(messages[1].starts_with("[map]: unknown key 'terain' is ignored: did you mean 'terrain'?"));
        assert!(messages[2].starts_with("side '"), "{}", messages[2]);
        assert!(messages[2].ends_with("did you mean 'home'?"), "{}", messages[2]);
        assert!(messages[3].starts_with("objective 1: unknown key 'point'"), "{}", messages[3]);
    }

    #[test]
    fn options_and_files_that_do_not_parse_give_no_warnings() {
        // Options are checked by the parse itself: an unknown option is an error there.
        let text = format!("{DEFAULT_SCENARIO}\n[options]\nto_hitt = 5\n");
        assert!(Scenario::ignored_keys(&text).is_empty());
        assert!(Scenario::parse(&text, "m.toml").is_err());
        assert!(Scenario::ignored_keys("this is not = = toml").is_empty());
        assert!(Scenario::ignored_keys("units = 3").is_empty());
    }
}
