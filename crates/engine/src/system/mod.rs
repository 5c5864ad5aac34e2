//! The combat system as data: the to-hit modifiers with their conditions, the arms, the hit-result table and the
//! words players see, as a variant file writes them (`rules/standard.toml` is the standard one). A variant file says
//! only what it changes; [`CombatSystem::with_variant`] lays it over the standard, checking everything once, so that
//! nothing in it is read as text while a battle is played.
//!
//! A scenario given a combat system ([`crate::Scenario::with_system`]) is played by it: its modifiers' conditions
//! decide each attack's modifiers and its table each hit's result. A scenario without one is played by the
//! standard system, the same way ([`crate::Scenario::system`]): there is one path for the standard rules
//! and a variant. Only the standard's five modifiers, while their conditions are the standard ones, are decided by
//! code as the rules are written rather than by reading their conditions, which a test checks they say exactly.

mod after;
pub mod condition;
mod file;
mod layers;
mod rally;
mod restriction;
mod steadiness;
mod terrain;

pub use after::{AfterAttackRule, Aftermath, AttackerEffect, AttackerFate, MAX_AFTER_ATTACK};
pub use file::SystemError;
pub use layers::{Layer, Part};
pub use rally::{MAX_RALLY_MODIFIERS, RallyModifier, RallyNeed, RallyRule, RallyTest, rally_modifiers};
pub use restriction::{MAX_RESTRICTIONS, Restriction, first_forbidding, first_forbidding_order};
pub use steadiness::{MAX_RESULT_MODIFIERS, ResultModifier, result_modifiers};

use crate::attack::{AttackKind, HitResult, Steadiness, standard_row};
use crate::options::{ArmNumber, StandardModifier};
use crate::unit::Arm;
use condition::Condition;
use std::fmt::Write;

/// The standard combat system's file, embedded.
pub const STANDARD: &str = include_str!("../../../../rules/standard.toml");

/// The most to-hit modifiers a combat system may have.
pub const MAX_MODIFIERS: usize = crate::options::MAX_OWN_MODIFIERS;
/// The most arms a combat system may have.
pub const MAX_ARMS: usize = crate::options::MAX_ARMS;

/// A to-hit modifier (R6.4): `value` added to the roll when `when` holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModifierRule {
    /// Its id: unique in the system, and the option `modifier.ID` that sets its value.
    pub id: String,
    /// The rule it cites in the odds and the log (the standard's `R6.4`; a designer's own, its id).
    pub rule: String,
    /// What it is, in words.
    pub name: String,
    /// What it adds to the roll, −3..=3.
    pub value: i8,
    /// When it applies.
    pub when: Condition,
    /// The condition as written.
    pub when_text: String,
    /// Which of the standard five it is, if any, and whether with its standard condition: where its value comes
    /// from and how the battle decides and reports it.
    pub(crate) kind: ModifierKind,
}

/// A to-hit modifier's relation to the standard rules, settled once as its file is read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ModifierKind {
    /// One of the standard five with its standard condition: the battle decides it without reading the condition
    /// and reports it as the built-in modifier (with the kind of cover, or flank or rear), so that the standard
    /// rules give the very events the rules as written do, at the speed of the rules written in code.
    Standard(StandardModifier),
    /// One of the standard five by its id, with a condition of the designer's: decided by that condition, reported
    /// as a modifier of the variant's, its value still set by the standard option `modifier.ID` (R11).
    Restated(StandardModifier),
    /// A variant's own: its value is its file's, or what the option `modifier.ID` sets.
    Own,
}

impl ModifierRule {
    /// Its value in a game with these options, it being the system's modifier at `place` (R6.4, R11).
    pub(crate) fn value_under(&self, place: usize, options: &crate::Options) -> i8 {
        match self.kind {
            ModifierKind::Standard(b) | ModifierKind::Restated(b) => options.modifier.get(b),
            ModifierKind::Own => options.own_modifier.get(place).unwrap_or(self.value),
        }
    }

    /// Whether it is a variant's own, set by an option of the variant's (`modifier.ID`) rather than of the standard
    /// rules.
    pub fn is_own(&self) -> bool {
        self.kind == ModifierKind::Own
    }
}

/// An arm: a standard one, or a designer's that moves, fires and is fired at as a standard one does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmRule {
    /// Its id, as units name it (`arm = "skirmishers"`).
    pub id: String,
    /// Its name, for players.
    pub name: String,
    /// The standard arm it acts as.
    pub like: Arm,
    /// Its strength, 1..=6 (R2.2).
    pub strength: u8,
    /// Squares a move covers, 1..=26 (R2.6).
    pub movement: u8,
    /// Its range in squares, 1..=26 (R2.6).
    pub range: u8,
}

impl ArmRule {
    /// Its `number` as its file gives it.
    pub const fn number(&self, number: ArmNumber) -> u8 {
        match number {
            ArmNumber::Strength => self.strength,
            ArmNumber::Move => self.movement,
            ArmNumber::Range => self.range,
        }
    }

    /// Its `number` in a game with these options, it being the system's arm at `place` (R2.2, R2.6, R11): a
    /// standard arm's is the option `<number>.<arm>`, a variant's own arm's the option `<number>.<its id>` when one
    /// sets it, else its file's.
    pub fn number_under(&self, place: usize, number: ArmNumber, options: &crate::Options) -> u8 {
        match place < Arm::ALL.len() {
            true => options.per_arm(number).get(self.like),
            false => options.own_arm.get(place, number).unwrap_or(self.number(number)),
        }
    }
}

/// The hit-result table (R7.1): for a steady or shaken target, hit by fire or a charge, the effect when its roll is
/// at most its strength and when above.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResultTable {
    /// A steady target, fired at.
    pub steady_fire: [HitResult; 2],
    /// A steady target, charged.
    pub steady_charge: [HitResult; 2],
    /// A shaken target, fired at.
    pub shaken_fire: [HitResult; 2],
    /// A shaken target, charged.
    pub shaken_charge: [HitResult; 2],
}

impl ResultTable {
    /// The standard table (R7.1), as the built-in rules have it.
    pub const STANDARD: ResultTable = ResultTable {
        steady_fire: standard_row(Steadiness::Steady, AttackKind::Fire),
        steady_charge: standard_row(Steadiness::Steady, AttackKind::Charge),
        shaken_fire: standard_row(Steadiness::Shaken, AttackKind::Fire),
        shaken_charge: standard_row(Steadiness::Shaken, AttackKind::Charge),
    };

    /// The row for a target steady or shaken, hit by fire or a charge: [at most its strength, above].
    pub const fn row(&self, target: Steadiness, kind: AttackKind) -> [HitResult; 2] {
        match (target, kind) {
            (Steadiness::Steady, AttackKind::Fire) => self.steady_fire,
            (Steadiness::Steady, AttackKind::Charge) => self.steady_charge,
            (Steadiness::Shaken, AttackKind::Fire) => self.shaken_fire,
            (Steadiness::Shaken, AttackKind::Charge) => self.shaken_charge,
        }
    }

    /// The effect of a hit on a target steady or shaken, by fire or a charge, its roll at most its strength
    /// (`held`) or above.
    pub const fn effect(&self, target: Steadiness, kind: AttackKind, held: bool) -> HitResult {
        let row = self.row(target, kind);
        if held { row[0] } else { row[1] }
    }

    /// The rows with their names in a variant file.
    pub fn rows(&self) -> [(&'static str, [HitResult; 2]); 4] {
        [
            ("steady_fire", self.steady_fire),
            ("steady_charge", self.steady_charge),
            ("shaken_fire", self.shaken_fire),
            ("shaken_charge", self.shaken_charge),
        ]
    }
}

/// The words players see (logs, the board, the odds, the rules page), which a variant may rename.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terms {
    /// Fire (R6).
    pub fire: String,
    /// A charge (R6).
    pub charge: String,
    /// Shaken (R7.1).
    pub shaken: String,
    /// A retreat (R7.2).
    pub retreat: String,
    /// Destroyed (R7.1).
    pub destroyed: String,
}

impl Terms {
    /// The terms with their names in a variant file.
    pub fn entries(&self) -> [(&'static str, &str); 5] {
        [
            ("fire", &self.fire),
            ("charge", &self.charge),
            ("shaken", &self.shaken),
            ("retreat", &self.retreat),
            ("destroyed", &self.destroyed),
        ]
    }
}

/// A whole combat system: the standard one, or the standard with a variant laid over it. Two are equal when they
/// say the same, whatever file each was read from.
#[derive(Clone, Debug)]
pub struct CombatSystem {
    /// Its name.
    pub name: String,
    /// What it changes and why.
    pub description: String,
    modifiers: Vec<ModifierRule>,
    arms: Vec<ArmRule>,
    results: ResultTable,
    after_attack: Vec<AfterAttackRule>,
    restrictions: Vec<Restriction>,
    result_modifiers: Vec<ResultModifier>,
    /// The rally roll (`[rally]`): none under the standard rules, where a shaken unit rallies as it is activated.
    rally: Option<RallyRule>,
    rally_modifiers: Vec<RallyModifier>,
    /// Its terrain kinds and movement (R1.5, R1.6): the standard's, with a variant's `[[terrain]]` and `[movement]`.
    terrain: std::sync::Arc<crate::terrain::TerrainRules>,
    terms: Terms,
    /// The variant's `[options]`, as `name=value` pairs in the file's order (checked against a scenario when a game
    /// is set up).
    options: Vec<(String, String)>,
    /// The variant files laid over the standard and which wrote each rule (layers.rs); a save keeps them as one
    /// file ([`CombatSystem::source`]) so that the game replays by them, and each file's text ([`Layer::text`]) so
    /// that a game loaded from it names them.
    layers: layers::Layers,
    /// Whether an attack's facts are read for its rules ([`CombatSystem::reads_attack_facts`]), settled when made.
    reads_attack_facts: bool,
    /// [`CombatSystem::standard_places`], settled when made.
    standard_places: u8,
    /// Whether a restriction forbids attacks ([`CombatSystem::restricts_attacks`]), settled when made.
    restricts_attacks: bool,
    /// Whether a restriction forbids orders ([`CombatSystem::restricts_orders`]), settled when made.
    restricts_orders: bool,
}

impl PartialEq for CombatSystem {
    fn eq(&self, other: &Self) -> bool {
        #[allow(clippy::type_complexity)]
        fn said(
            s: &CombatSystem,
        ) -> (
            &str,
            &str,
            &[ModifierRule],
            &[ArmRule],
            &ResultTable,
            &[AfterAttackRule],
            &[Restriction],
            &[ResultModifier],
            (&Option<RallyRule>, &[RallyModifier]),
            &crate::terrain::TerrainRules,
            &Terms,
            &[(String, String)],
        ) {
            (
                &s.name,
                &s.description,
                &s.modifiers,
                &s.arms,
                &s.results,
                &s.after_attack,
                &s.restrictions,
                &s.result_modifiers,
                (&s.rally, &s.rally_modifiers),
                &s.terrain,
                &s.terms,
                &s.options,
            )
        }
        said(self) == said(other)
    }
}

impl Eq for CombatSystem {}

impl CombatSystem {
    /// The standard combat system (`rules/standard.toml`).
    pub fn standard() -> CombatSystem {
        CombatSystem::clone(file::standard())
    }

    /// The standard combat system, read once and shared: what a scenario without a variant is played by.
    pub fn shared_standard() -> std::sync::Arc<CombatSystem> {
        file::standard().clone()
    }

    /// The standard system with the variant file `text` laid over it; `file` names it in messages.
    ///
    /// ```
    /// use pacw_engine::system::CombatSystem;
    /// let text = "name = \"Elan\"\n[[modifiers]]\nid = \"V1\"\nname = \"veteran élan\"\nvalue = 1\nwhen = \"charge and attacker.quality == 'veteran'\"\n";
    /// let elan = CombatSystem::with_variant(text, "elan.toml").unwrap();
    /// assert_eq!(elan.modifiers().len(), 6);
    /// assert_eq!(elan.modifier("V1").unwrap().rule, "V1");
    /// ```
    ///
    /// # Errors
    ///
    /// Every problem found in the file, each with its line and column: nothing of a bad file is applied.
    pub fn with_variant(text: &str, file: &str) -> Result<CombatSystem, SystemError> {
        CombatSystem::standard().with_layer(text, file)
    }

    /// The to-hit modifiers, the standard's first.
    pub fn modifiers(&self) -> &[ModifierRule] {
        &self.modifiers
    }

    /// The modifier of this id.
    pub fn modifier(&self, id: &str) -> Option<&ModifierRule> {
        self.modifiers.iter().find(|m| m.id == id)
    }

    /// The rule a modifier of an attack cites and what it is, in words: a variant's own by its file, a standard one
    /// the variant renames by its new name, the others as the engine names them.
    ///
    /// ```
    /// use pacw_engine::Modifier;
    /// use pacw_engine::system::CombatSystem;
    /// let s = CombatSystem::standard();
    /// assert_eq!(s.describe(Modifier::DidNotMove), ("R6.4".to_string(), "attacker did not move".to_string()));
    /// ```
    pub fn describe(&self, modifier: crate::attack::Modifier) -> (String, String) {
        match modifier {
            crate::attack::Modifier::Own(i) => match self.modifiers.get(i as usize) {
                Some(m) => (m.rule.clone(), m.name.clone()),
                None => (modifier.rule().to_string(), modifier.reason()),
            },
            // Cover by a terrain: named as the rules in force name it (a variant's own kind, or a renamed one).
            crate::attack::Modifier::Cover(crate::attack::Cover::Terrain(t)) => {
                match self.terrain.kinds().get(t.index()) {
                    Some(kind) => (modifier.rule().to_string(), format!("cover: {}", kind.name)),
                    None => (modifier.rule().to_string(), modifier.reason()),
                }
            }
            // A standard modifier the variant renames (or cites by another rule) is named as the variant says;
            // else as the engine words it, which tells a flank charge from a rear one and names the cover.
            built_in => match built_in.standard().and_then(|s| self.renamed(s.id())) {
                Some(m) => (m.rule.clone(), m.name.clone()),
                None => (built_in.rule().to_string(), built_in.reason()),
            },
        }
    }

    /// The rule of a standard modifier's id when this system names or cites it otherwise than the standard does.
    fn renamed(&self, id: &str) -> Option<&ModifierRule> {
        let (rule, standard) = (self.modifier(id)?, file::standard().modifier(id)?);
        (rule.name != standard.name || rule.rule != standard.rule).then_some(rule)
    }

    /// Whether an attack's outcome under it depends on more than the standard rules read (R6.3, R6.4): a modifier
    /// decided by a condition, a rule after the attack, or a modifier to the hit-result roll. The battle gathers an
    /// attack's facts for its conditions only then.
    pub(crate) fn reads_attack_facts(&self) -> bool {
        self.reads_attack_facts
    }

    /// The places among its modifiers of the standard ones with their standard conditions, a bit each: the battle
    /// decides those as the rules are written, without reading their conditions.
    pub(crate) fn standard_places(&self) -> u8 {
        self.standard_places
    }

    /// Whether one of its restrictions forbids attacks (by their facts before the dice): the battle reads an
    /// attack's facts for its restrictions only then.
    pub(crate) fn restricts_attacks(&self) -> bool {
        self.restricts_attacks
    }

    /// Whether one of its restrictions forbids orders (by an order's facts): the battle reads an order's facts only
    /// then, and lists the orders of the standard rules, and of variants without one, as it always did.
    pub fn restricts_orders(&self) -> bool {
        self.restricts_orders
    }

    /// Settles what is worked out from its rules once they are all laid: called when a system is made.
    fn settle(&mut self) {
        use condition::Over;
        self.restricts_attacks = self.restrictions.iter().any(|r| r.over == Over::Attack);
        self.restricts_orders = self.restrictions.iter().any(|r| r.over == Over::Order);
        let standard = |m: &ModifierRule| matches!(m.kind, ModifierKind::Standard(_));
        self.standard_places = self
            .modifiers
            .iter()
            .take(8)
            .enumerate()
            .filter(|(_, m)| standard(m))
            .fold(0, |bits, (i, _)| bits | 1 << i);
        self.reads_attack_facts =
            !self.after_attack.is_empty() || !self.result_modifiers.is_empty() || !self.modifiers.iter().all(standard);
    }

    /// The arms, the standard's first.
    pub fn arms(&self) -> &[ArmRule] {
        &self.arms
    }

    /// The arm of this id.
    pub fn arm(&self, id: &str) -> Option<&ArmRule> {
        self.arms.iter().find(|a| a.id == id)
    }

    /// The `number` of its arm at `place` in a game with these options ([`ArmRule::number_under`]: a variant's own
    /// arm's as an option sets it, else its file's), if it has an arm there.
    pub fn arm_number(&self, place: usize, number: ArmNumber, options: &crate::Options) -> Option<u8> {
        self.arms.get(place).map(|a| a.number_under(place, number, options))
    }

    /// The hit-result table.
    pub fn results(&self) -> &ResultTable {
        &self.results
    }

    /// What attacks do to their attackers (`[[after_attack]]`), in the file's order: none under the standard rules.
    pub fn after_attack(&self) -> &[AfterAttackRule] {
        &self.after_attack
    }

    /// The orders it forbids (`[[restrictions]]`), in the file's order: none under the standard rules.
    pub fn restrictions(&self) -> &[Restriction] {
        &self.restrictions
    }

    /// Its modifiers to the hit-result roll (`[[result_modifiers]]`), in the file's order: none under the standard
    /// rules.
    pub fn result_modifiers(&self) -> &[ResultModifier] {
        &self.result_modifiers
    }

    /// The rally roll (`[rally]`): `None` under the standard rules, where a shaken unit rallies as it is activated
    /// (R4.1).
    pub fn rally(&self) -> Option<&RallyRule> {
        self.rally.as_ref()
    }

    /// The modifiers to the rally roll (`[[rally_modifiers]]`), in the file's order.
    pub fn rally_modifiers(&self) -> &[RallyModifier] {
        &self.rally_modifiers
    }

    /// Its terrain kinds, what each does, and the road bonus (R1.5, R1.6): a map played by it reads them.
    pub fn terrain_rules(&self) -> &std::sync::Arc<crate::terrain::TerrainRules> {
        &self.terrain
    }

    /// The words players see.
    pub fn terms(&self) -> &Terms {
        &self.terms
    }

    /// The numbers it changes of the standard rules as the options that set them (`modifier.cover=-2`,
    /// `strength.cavalry=4`): a game under it starts from these, then its `[options]` ([`CombatSystem::options`]).
    pub fn changes_to_standard(&self) -> Vec<(String, String)> {
        let standard = CombatSystem::standard();
        let mut changed = Vec::new();
        for m in &self.modifiers {
            if standard.modifier(&m.id).is_some_and(|s| s.value != m.value) {
                changed.push((format!("modifier.{}", m.id), m.value.to_string()));
            }
        }
        for arm in &self.arms {
            let Some(was) = standard.arm(&arm.id) else { continue };
            for (name, now, before) in [
                ("strength", arm.strength, was.strength),
                ("move", arm.movement, was.movement),
                ("range", arm.range, was.range),
            ] {
                if now != before {
                    changed.push((format!("{name}.{}", arm.id), now.to_string()));
                }
            }
        }
        changed
    }

    /// Sets an option of its own: `modifier.<id>` of one of its own to-hit modifiers (not one of the standard's,
    /// which [`crate::Options::set`] sets by name) to `value`, from −3 to 3, or `strength.<id>`, `move.<id>` or
    /// `range.<id>` of one of its own arms, within the bounds of its file's `[[arms]]` (1 to 6, 1 to 26, 1 to 26).
    /// `None` when `name` is not such an option, nor an arm's number naming an arm it lacks (refused, naming its
    /// arms). On error `options` is unchanged.
    ///
    /// ```
    /// use pacw_engine::Options;
    /// use pacw_engine::system::CombatSystem;
    /// let text = "name = \"Skirmishers\"\n[[arms]]\nid = \"skirmishers\"\nlike = \"infantry\"\nrange = 3\n";
    /// let s = CombatSystem::with_variant(text, "skirmishers.toml").unwrap();
    /// let mut o = Options::default();
    /// assert!(s.set_own_option(&mut o, "range.skirmishers", "1").unwrap().is_ok());
    /// assert!(s.set_own_option(&mut o, "range.skirmishers", "27").unwrap().is_err());
    /// assert!(s.set_own_option(&mut o, "range.skirmisher", "2").unwrap().is_err(), "no such arm");
    /// assert!(s.set_own_option(&mut o, "range.infantry", "3").is_none(), "the standard option");
    /// ```
    pub fn set_own_option(
        &self,
        options: &mut crate::Options,
        name: &str,
        value: &str,
    ) -> Option<Result<(), crate::options::OptionError>> {
        use crate::options::OptionError;
        let (table, id) = name.split_once('.')?;
        let bad = |least: i16, most: i16| OptionError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
            allowed: format!("a whole number from {least} to {most}"),
        };
        if table == "modifier" {
            let i = self.modifiers.iter().position(|m| m.id == id && m.is_own())?;
            return Some(match value.parse::<i8>().ok().filter(|v| (-3..=3).contains(v)) {
                Some(v) => {
                    options.own_modifier.set(i, Some(v));
                    Ok(())
                }
                None => Err(bad(-3, 3)),
            });
        }
        let number = ArmNumber::of(table)?;
        if Arm::parse(id).is_some() {
            return None;
        }
        let Some(place) = self.arms.iter().position(|a| a.id == id) else {
            let arms: Vec<&str> = self.arms.iter().map(|a| a.id.as_str()).collect();
            return Some(Err(OptionError::UnknownArm { name: name.to_string(), arms: arms.join(", ") }));
        };
        let (least, most) = number.bounds();
        Some(match value.parse::<u8>().ok().filter(|v| (least..=most).contains(v)) {
            Some(v) => {
                options.own_arm.set(place, number, Some(v));
                Ok(())
            }
            None => Err(bad(least.into(), most.into())),
        })
    }

    /// The variant's options, as `name=value` pairs.
    pub fn options(&self) -> &[(String, String)] {
        &self.options
    }

    /// The system as JSON (what `pacw rules --json` prints): the same fields as its file, each rule with `from`,
    /// the variant file that last wrote it or `standard` ([`CombatSystem::written_by`]); `layers` lists the files
    /// laid over the standard, bottom first, and `from` says the same of the entries of `[results]`, `[terms]`,
    /// `[options]` and the road bonus.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let from = |part, id: &str| self.provenance_label(part, id).to_string();
        let entries_from = |part, ids: &mut dyn Iterator<Item = &str>| {
            ids.map(|id| (id.to_string(), json!(from(part, id)))).collect::<serde_json::Map<_, _>>()
        };
        json!({
            "name": self.name,
            "description": self.description,
            "layers": self.layers().iter().map(|l| json!({ "file": l.file, "name": l.name })).collect::<Vec<_>>(),
            "modifiers": self.modifiers.iter().map(|m| json!({
                "id": m.id, "rule": m.rule, "name": m.name, "value": m.value, "when": m.when_text,
                "from": from(Part::Modifier, &m.id),
            })).collect::<Vec<_>>(),
            "arms": self.arms.iter().map(|a| json!({
                "id": a.id, "name": a.name, "like": a.like.name(), "strength": a.strength, "move": a.movement,
                "range": a.range, "from": from(Part::Arm, &a.id),
            })).collect::<Vec<_>>(),
            "results": self.results.rows().iter().map(|(row, [held, broke])| {
                (row.to_string(), json!([held.file_name(), broke.file_name()]))
            }).collect::<serde_json::Map<_, _>>(),
            "after_attack": self.after_attack.iter().map(|r| json!({
                "id": r.id, "name": r.name, "when": r.when_text, "attacker": r.effect.file_name(),
                "from": from(Part::AfterAttack, &r.id),
            })).collect::<Vec<_>>(),
            "restrictions": self.restrictions.iter().map(|r| json!({
                "id": r.id, "name": r.name, "when": r.when_text, "forbids": r.forbids(),
                "from": from(Part::Restriction, &r.id),
            })).collect::<Vec<_>>(),
            "result_modifiers": self.result_modifiers.iter().map(|m| json!({
                "id": m.id, "name": m.name, "value": m.value, "when": m.when_text,
                "from": from(Part::ResultModifier, &m.id),
            })).collect::<Vec<_>>(),
            "rally": self.rally.as_ref().map(|r| json!({
                "id": r.id, "name": r.name, "needed": match r.needed {
                    RallyNeed::AtLeast(n) => json!(n),
                    RallyNeed::Strength => json!("strength"),
                },
                "from": from(Part::Rally, &r.id),
            })),
            "rally_modifiers": self.rally_modifiers.iter().map(|m| json!({
                "id": m.id, "name": m.name, "value": m.value, "when": m.when_text,
                "from": from(Part::RallyModifier, &m.id),
            })).collect::<Vec<_>>(),
            "terrain": terrain::to_json(&self.terrain, &|id| from(Part::Terrain, id)),
            "movement": { "road_bonus": self.terrain.road_bonus() },
            "terms": self.terms.entries().iter().map(|(t, w)| (t.to_string(), json!(w))).collect::<serde_json::Map<_, _>>(),
            "options": self.options.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
            "from": {
                "results": entries_from(Part::Result, &mut self.results.rows().iter().map(|(row, _)| *row)),
                "terms": entries_from(Part::Term, &mut self.terms.entries().iter().map(|(t, _)| *t)),
                "options": entries_from(Part::Option, &mut self.options.iter().map(|(k, _)| k.as_str())),
                "movement": { "road_bonus": from(Part::RoadBonus, "road_bonus") },
            },
        })
    }

    /// The system written as a variant file (what `pacw rules` prints): read back, it gives the same system.
    pub fn to_toml(&self) -> String {
        self.write_toml(false)
    }

    /// [`CombatSystem::to_toml`] with comments that say which variant file last wrote each rule (`# from
    /// hard-cover.toml`, or `# from standard`): what `pacw rules` prints for variants laid together. Read back, it is
    /// the same system.
    pub fn to_toml_annotated(&self) -> String {
        self.write_toml(true)
    }

    fn write_toml(&self, annotated: bool) -> String {
        let quoted = |s: &str| toml::Value::String(s.to_string()).to_string();
        // A line of its own under a table's header, or the end of an entry's line.
        let note = |part, id: &str| match annotated {
            true => format!("# from {}\n", self.provenance_label(part, id)),
            false => String::new(),
        };
        let after = |part, id: &str| match annotated {
            true => format!("  # from {}", self.provenance_label(part, id)),
            false => String::new(),
        };
        let mut out = String::new();
        let _ = writeln!(out, "name = {}", quoted(&self.name));
        let _ = writeln!(out, "description = {}", quoted(&self.description));
        for m in &self.modifiers {
            let _ = writeln!(out, "\n[[modifiers]]");
            out.push_str(&note(Part::Modifier, &m.id));
            let _ = writeln!(out, "id = {}", quoted(&m.id));
            if m.rule != m.id {
                let _ = writeln!(out, "rule = {}", quoted(&m.rule));
            }
            let _ = writeln!(out, "name = {}", quoted(&m.name));
            let _ = writeln!(out, "value = {}", m.value);
            let _ = writeln!(out, "when = {}", quoted(&m.when_text));
        }
        for a in &self.arms {
            let _ = writeln!(out, "\n[[arms]]");
            out.push_str(&note(Part::Arm, &a.id));
            let _ = writeln!(out, "id = {}", quoted(&a.id));
            let _ = writeln!(out, "name = {}", quoted(&a.name));
            if a.id != a.like.name() {
                let _ = writeln!(out, "like = {}", quoted(a.like.name()));
            }
            let _ = writeln!(out, "strength = {}\nmove = {}\nrange = {}", a.strength, a.movement, a.range);
        }
        let _ = writeln!(out, "\n[results]");
        for (name, [held, broke]) in self.results.rows() {
            let row = format!("{name} = [{}, {}]", quoted(held.file_name()), quoted(broke.file_name()));
            let _ = writeln!(out, "{row}{}", after(Part::Result, name));
        }
        for r in &self.after_attack {
            let _ = writeln!(out, "\n[[after_attack]]");
            out.push_str(&note(Part::AfterAttack, &r.id));
            let _ = writeln!(out, "id = {}\nname = {}", quoted(&r.id), quoted(&r.name));
            let _ = writeln!(out, "when = {}", quoted(&r.when_text));
            let _ = writeln!(out, "attacker = {}", quoted(r.effect.file_name()));
        }
        for r in &self.restrictions {
            let _ = writeln!(out, "\n[[restrictions]]");
            out.push_str(&note(Part::Restriction, &r.id));
            let _ = writeln!(out, "id = {}\nname = {}", quoted(&r.id), quoted(&r.name));
            let _ = writeln!(out, "when = {}", quoted(&r.when_text));
        }
        for m in &self.result_modifiers {
            let _ = writeln!(out, "\n[[result_modifiers]]");
            out.push_str(&note(Part::ResultModifier, &m.id));
            let _ = writeln!(out, "id = {}\nname = {}\nvalue = {}", quoted(&m.id), quoted(&m.name), m.value);
            let _ = writeln!(out, "when = {}", quoted(&m.when_text));
        }
        if let Some(r) = &self.rally {
            let _ = writeln!(out, "\n[rally]");
            out.push_str(&note(Part::Rally, &r.id));
            let _ = writeln!(out, "id = {}\nname = {}", quoted(&r.id), quoted(&r.name));
            match r.needed {
                RallyNeed::AtLeast(n) => writeln!(out, "needed = {n}"),
                RallyNeed::Strength => writeln!(out, "needed = \"strength\""),
            }
            .ok();
        }
        for m in &self.rally_modifiers {
            let _ = writeln!(out, "\n[[rally_modifiers]]");
            out.push_str(&note(Part::RallyModifier, &m.id));
            let _ = writeln!(out, "id = {}\nname = {}\nvalue = {}", quoted(&m.id), quoted(&m.name), m.value);
            let _ = writeln!(out, "when = {}", quoted(&m.when_text));
        }
        terrain::to_toml(&self.terrain, &mut out, &|part, id| {
            if part { note(Part::Terrain, id) } else { after(Part::RoadBonus, id) }
        });
        let _ = writeln!(out, "\n[terms]");
        for (name, word) in self.terms.entries() {
            let _ = writeln!(out, "{name} = {}{}", quoted(word), after(Part::Term, name));
        }
        if !self.options.is_empty() {
            let _ = writeln!(out, "\n[options]");
            for (name, value) in &self.options {
                let value = if value.parse::<i64>().is_ok() || value == "true" || value == "false" {
                    value.clone()
                } else {
                    quoted(value)
                };
                // A dotted key (modifier.cover) reads back as the same option, nested or not.
                let bare = name.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c));
                let key = if bare { name.clone() } else { quoted(name) };
                let _ = writeln!(out, "{key} = {value}{}", after(Part::Option, name));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
