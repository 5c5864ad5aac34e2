//! Variants that combine (docs/variants.md): the files a combat system was laid from, bottom first — a battle's own
//! variant, then each `--variant` file — and which of them each rule was last written by. The standard rules are
//! what the first file is laid over, not a layer.
//!
//! A system of several layers is saved as one variant file that says it all ([`CombatSystem::to_toml`]): read
//! back over the standard, it is the same system, so that saves, the server's stored games and the laboratory's
//! shards keep one variant file each, as they did before variants combined. A save keeps each layer's text beside it
//! ([`Layer::text`], the save's `layers`), so that a game loaded from it lays them again and names the same files.

use super::file::{MAX_VARIANT_BYTES, VariantText};
use super::{CombatSystem, SystemError};
use crate::problem::Problem;
use std::collections::BTreeMap;

/// The kinds of rules a combat system holds, as the provenance of a rule names them
/// ([`CombatSystem::written_by`]); each is the section of a variant file that writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    /// A to-hit modifier (`[[modifiers]]`), by its id.
    Modifier,
    /// An arm (`[[arms]]`), by its id.
    Arm,
    /// A row of the hit-result table (`[results]`), by its name (`steady_fire`).
    Result,
    /// What an attack does to its attacker (`[[after_attack]]`), by its id.
    AfterAttack,
    /// A restriction on orders (`[[restrictions]]`), by its id.
    Restriction,
    /// A modifier to the hit-result roll (`[[result_modifiers]]`), by its id.
    ResultModifier,
    /// The rally roll (`[rally]`), by its id.
    Rally,
    /// A modifier to the rally roll (`[[rally_modifiers]]`), by its id.
    RallyModifier,
    /// A terrain kind (`[[terrain]]`), by its id.
    Terrain,
    /// The road bonus (`[movement]`), by the key `road_bonus`.
    RoadBonus,
    /// A word players see (`[terms]`), by its term (`charge`).
    Term,
    /// An option (`[options]`), by its name (`modifier.cover`).
    Option,
}

/// A variant file laid over the rules below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    /// The file's name as it was given (a path, or a shipped variant's file name).
    pub file: String,
    /// The variant's own name (its `name`).
    pub name: String,
    /// The variant's own description.
    pub description: String,
    /// Its text, which a save keeps: the whole rules of a game by this file alone, one of its `layers` otherwise.
    text: String,
}

impl Layer {
    /// Its whole text, as it was given: what a save keeps of it, to lay it again where the game is loaded.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub(super) fn new(file: &str, name: &str, description: &str, text: &str) -> Layer {
        Layer {
            file: file.to_string(),
            name: name.to_string(),
            description: description.to_string(),
            text: text.to_string(),
        }
    }
}

/// The layers of a combat system and the provenance of its rules.
#[derive(Clone, Debug, Default)]
pub(super) struct Layers {
    /// The files laid over the standard, bottom first.
    files: Vec<Layer>,
    /// The rules each file wrote last: by (part, id), its place in `files` counted from 1 (0, or no entry, is the
    /// standard).
    from: BTreeMap<(Part, String), usize>,
    /// Several layers written as one variant file, (the files' names joined by ` + `, its text): what a save keeps.
    composed: Option<(String, String)>,
}

impl Layers {
    /// The files laid over the standard, bottom first.
    pub(super) fn files(&self) -> &[Layer] {
        &self.files
    }

    /// These layers with `layer` laid on top, which wrote the rules `written`.
    pub(super) fn with(mut self, layer: Layer, written: Vec<(Part, String)>) -> Layers {
        self.files.push(layer);
        let place = self.files.len();
        for key in written {
            self.from.insert(key, place);
        }
        self.composed = None;
        self
    }
}

impl CombatSystem {
    /// This system with the variant file `text` laid over it; `file` names it in messages. The file is read against
    /// this system: it may change or name what the layers below it define (an arm of the battle's own variant in a
    /// condition), and its limits count theirs. [`CombatSystem::with_variant`] is the standard with one layer.
    ///
    /// ```
    /// use pacw_engine::system::{CombatSystem, Part};
    /// let skirmishers = "name = \"Skirmishers\"\n[[arms]]\nid = \"skirmishers\"\nlike = \"infantry\"\nrange = 4\n";
    /// let fences = "name = \"Fences\"\n[[modifiers]]\nid = \"V1\"\nvalue = -1\n\
    ///               when = \"target.arm == 'skirmishers'\"\n";
    /// let below = CombatSystem::with_variant(skirmishers, "skirmishers.toml").unwrap();
    /// let both = below.with_layer(fences, "fences.toml").unwrap();
    /// assert_eq!(both.name, "Skirmishers + Fences");
    /// assert_eq!(both.written_by(Part::Arm, "skirmishers").unwrap().file, "skirmishers.toml");
    /// assert_eq!(both.written_by(Part::Modifier, "V1").unwrap().file, "fences.toml");
    /// assert!(both.written_by(Part::Modifier, "cover").is_none(), "the standard's");
    /// ```
    ///
    /// # Errors
    ///
    /// Every problem found in the file, each with its line and column in it: nothing of a bad file is applied. Also
    /// when the layers together, written as one file to be saved, would be larger than a variant file may be.
    pub fn with_layer(&self, text: &str, file: &str) -> Result<CombatSystem, SystemError> {
        let variant = VariantText::parse(text, file, self)?;
        let mut system = variant.over(self.clone());
        if system.layers.files.len() > 1 {
            let composed = system.to_toml();
            if composed.len() > MAX_VARIANT_BYTES {
                let message = format!(
                    "the rules laid together, written as one file for a save, would be more than {} KiB",
                    MAX_VARIANT_BYTES / 1024
                );
                let problem = Problem { line: None, column: None, message, square: None, unit: None };
                return Err(SystemError { file: file.to_string(), problems: vec![problem] });
            }
            let files: Vec<&str> = system.layers.files.iter().map(|l| l.file.as_str()).collect();
            system.layers.composed = Some((files.join(" + "), composed));
        }
        Ok(system)
    }

    /// The variant files laid over the standard, bottom first: none for the standard rules.
    pub fn layers(&self) -> &[Layer] {
        &self.layers.files
    }

    /// The variant file that last wrote the rule `id` of `part` (the option `modifier.cover`, the arm
    /// `skirmishers`); `None` when it is the standard's, as the standard rules have it.
    pub fn written_by(&self, part: Part, id: &str) -> Option<&Layer> {
        let place = *self.layers.from.get(&(part, id.to_string()))?;
        self.layers.files.get(place.checked_sub(1)?)
    }

    /// What a save keeps of the rules, (file, text): the one variant file it was read from, or several written as
    /// one (their names joined by ` + `, [`CombatSystem::to_toml`]), which read back gives the same system. `None`
    /// for the standard.
    pub fn source(&self) -> Option<(&str, &str)> {
        match self.layers.files.as_slice() {
            [] => None,
            [one] => Some((one.file.as_str(), one.text.as_str())),
            _ => self.layers.composed.as_ref().map(|(file, text)| (file.as_str(), text.as_str())),
        }
    }

    /// Where a rule came from, for `pacw rules`: the file that last wrote it, or `standard`.
    pub(super) fn provenance_label(&self, part: Part, id: &str) -> &str {
        self.written_by(part, id).map_or("standard", |l| l.file.as_str())
    }
}
