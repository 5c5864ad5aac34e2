#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

mod action;
mod attack;
mod battle;
mod card;
mod chance;
mod event;
mod game;
mod geometry;
mod map;
pub mod narrate;
pub mod odds;
mod options;
pub mod perft;
mod problem;
mod rule;
mod scenario;
pub mod system;
pub mod terrain;
mod unit;

pub use action::{Action, Illegal};
pub use attack::{AttackKind, AttackResult, Cover, HitResult, Modifier, Modifiers, RetreatPath, Steadiness};
pub use battle::deck::Deck;
pub use battle::{
    ActivationOrders, AttackAssessment, Battle, ChanceKind, INLINE_UNITS, LegalActions, ScenarioRef, SightLines, ToAct,
    UnitSet, UnitSetIter, UnitState,
};
pub use card::Card;
pub use chance::{Outcome, Prob};
pub use event::{Declared, EndReason, Event, GameResult};
pub use game::{Game, SaveError, SaveFile, SavedVariant, Step};
pub use geometry::{Aspect, Dir, MAX_SIDE, MIN_SIDE, Square};
pub use map::{Map, Terrain};
pub use options::{
    ArmNumber, BlockedRetreat, Events, Initiative, OPTION_SPECS, OptionError, OptionSpec, Options, PerArm,
    StandardModifier,
};
pub use rule::Rule;
pub use scenario::{
    ChangeKind, Colour, CounterColour, Problem, ReadVariant, Reinforcement, Scenario, ScenarioError, TimedChange,
};
pub use unit::{Arm, MAX_UNITS, Quality, Side, UnitId, UnitInfo, UnitNumbers};

/// The default scenario, a small symmetric meeting engagement, embedded in the library.
pub const DEFAULT_SCENARIO: &str = SHIPPED_SCENARIOS[0].text;

/// A file shipped with pacw and embedded in it: a battle or a variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shipped {
    /// Its short name, as the command line, the lobby and a scenario's `variant` key take it (`bloody-lane`).
    pub name: &'static str,
    /// Its file name (`bloody-lane.toml`), which its problems and saves cite.
    pub file: &'static str,
    /// Its text.
    pub text: &'static str,
}

/// The [`Shipped`] file `NAME.toml` of the repository's folder `DIR`, embedded.
macro_rules! shipped {
    ($dir:literal, $name:literal) => {
        Shipped {
            name: $name,
            file: concat!($name, ".toml"),
            text: include_str!(concat!("../../../", $dir, "/", $name, ".toml")),
        }
    };
}

/// The battles shipped with pacw, embedded. The first is the default. The grand battle ships too but stands apart
/// ([`GRAND_BATTLE`]).
pub const SHIPPED_SCENARIOS: &[Shipped] = &[
    shipped!("scenarios", "meeting-engagement"),
    shipped!("scenarios", "bloody-lane"),
    shipped!("scenarios", "maryes-heights"),
    shipped!("scenarios", "mcpherson-ridge"),
    shipped!("scenarios", "henry-house-hill"),
    shipped!("scenarios", "hornets-nest"),
    shipped!("scenarios", "gaines-mill"),
    shipped!("scenarios", "brawners-farm"),
    shipped!("scenarios", "brandy-station"),
    shipped!("scenarios", "little-round-top"),
    shipped!("scenarios", "horseshoe-ridge"),
    shipped!("scenarios", "franklin"),
];

/// The variant files shipped with pacw (`variants/`, docs/variants.md), embedded.
pub const SHIPPED_VARIANTS: &[Shipped] = &[
    shipped!("variants", "close-combat"),
    shipped!("variants", "fire-rarely-decides"),
    shipped!("variants", "hard-cover"),
    shipped!("variants", "hard-hitting"),
    shipped!("variants", "hill-crest"),
    shipped!("variants", "no-cover"),
];

/// The grand battle, Antietam: 128 units on a 26 × 26 board. The lobby and the command line offer it after the
/// battles ([`offered_scenarios`]); the tests that walk every battle leave it to its own tests, since one of its
/// games costs as much as a hundred of theirs.
pub const GRAND_BATTLE: Shipped = shipped!("scenarios", "antietam");

/// Every shipped scenario a player is offered: the battles, then the grand battle.
pub fn offered_scenarios() -> impl Iterator<Item = Shipped> {
    SHIPPED_SCENARIOS.iter().copied().chain([GRAND_BATTLE])
}

/// The shipped battle or variant of this short name, from `list` ([`SHIPPED_SCENARIOS`], [`SHIPPED_VARIANTS`] or
/// [`offered_scenarios`]).
pub fn shipped_named(list: impl IntoIterator<Item = Shipped>, name: &str) -> Option<Shipped> {
    list.into_iter().find(|s| s.name == name)
}

#[cfg(test)]
mod docs_tests {
    /// The number of shipped variants as the docs write it: they said five after the sixth was added.
    #[test]
    fn the_docs_count_the_shipped_variants() {
        let words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
        let n = words[super::SHIPPED_VARIANTS.len().min(10)];
        let flat = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        let laboratory = flat(include_str!("../../../docs/laboratory.md"));
        assert!(laboratory.contains(&format!("`variants/` holds {n} examples")), "docs/laboratory.md: {n}");
        let variants = flat(include_str!("../../../docs/variants.md"));
        assert!(variants.contains(&format!("`variants/` holds {n} to start from")), "docs/variants.md: {n}");
    }
}
