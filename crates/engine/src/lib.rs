#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod action;
pub mod attack;
pub mod battle;
pub mod card;
pub mod chance;
pub mod event;
pub mod game;
pub mod geometry;
pub mod map;
pub mod narrate;
pub mod odds;
pub mod options;
pub mod perft;
mod problem;
pub mod rule;
pub mod scenario;
pub mod system;
pub mod unit;

pub use action::{Action, Illegal};
pub use battle::deck::Deck;
pub use battle::{
    ActivationOrders, AttackAssessment, Battle, ChanceKind, INLINE_UNITS, LegalActions, ScenarioRef, SightLines, ToAct,
    UnitSet, UnitSetIter, UnitState,
};
pub use card::Card;
pub use chance::{Outcome, Prob};
pub use event::{EndReason, Event, GameResult};
pub use game::{Game, SaveError, SaveFile, SavedVariant, Step};
pub use geometry::{Dir, Square};
pub use map::{Map, Terrain};
pub use options::{BlockedRetreat, Initiative, Options};
pub use rule::Rule;
pub use scenario::{Problem, Scenario, ScenarioError};
pub use unit::{Arm, Quality, Side, UnitId, UnitInfo};

/// The default scenario, a small symmetric meeting engagement, embedded in the library.
pub const DEFAULT_SCENARIO: &str = include_str!("../../../scenarios/meeting-engagement.toml");

/// The battles shipped with pacw, embedded: (short name, file name, text). The first is the default. The grand
/// battle ships too but stands apart ([`GRAND_BATTLE`]).
pub const SHIPPED_SCENARIOS: &[(&str, &str, &str)] = &[
    ("meeting-engagement", "meeting-engagement.toml", DEFAULT_SCENARIO),
    ("bloody-lane", "bloody-lane.toml", include_str!("../../../scenarios/bloody-lane.toml")),
    ("maryes-heights", "maryes-heights.toml", include_str!("../../../scenarios/maryes-heights.toml")),
    ("mcpherson-ridge", "mcpherson-ridge.toml", include_str!("../../../scenarios/mcpherson-ridge.toml")),
    ("henry-house-hill", "henry-house-hill.toml", include_str!("../../../scenarios/henry-house-hill.toml")),
    ("hornets-nest", "hornets-nest.toml", include_str!("../../../scenarios/hornets-nest.toml")),
    ("gaines-mill", "gaines-mill.toml", include_str!("../../../scenarios/gaines-mill.toml")),
    ("brawners-farm", "brawners-farm.toml", include_str!("../../../scenarios/brawners-farm.toml")),
    ("brandy-station", "brandy-station.toml", include_str!("../../../scenarios/brandy-station.toml")),
    ("little-round-top", "little-round-top.toml", include_str!("../../../scenarios/little-round-top.toml")),
    ("horseshoe-ridge", "horseshoe-ridge.toml", include_str!("../../../scenarios/horseshoe-ridge.toml")),
    ("franklin", "franklin.toml", include_str!("../../../scenarios/franklin.toml")),
];

/// The variant files shipped with pacw (`variants/`, docs/variants.md), embedded: (short name, file name, text).
pub const SHIPPED_VARIANTS: &[(&str, &str, &str)] = &[
    ("close-combat", "close-combat.toml", include_str!("../../../variants/close-combat.toml")),
    ("fire-rarely-decides", "fire-rarely-decides.toml", include_str!("../../../variants/fire-rarely-decides.toml")),
    ("hard-cover", "hard-cover.toml", include_str!("../../../variants/hard-cover.toml")),
    ("hard-hitting", "hard-hitting.toml", include_str!("../../../variants/hard-hitting.toml")),
    ("hill-crest", "hill-crest.toml", include_str!("../../../variants/hill-crest.toml")),
    ("no-cover", "no-cover.toml", include_str!("../../../variants/no-cover.toml")),
];

/// The grand battle, Antietam: 128 units on a 26 × 26 board, (short name, file name, text). The lobby and the
/// command line offer it after the battles ([`offered_scenarios`]); the tests that walk every battle leave it to
/// its own tests, since one of its games costs as much as a hundred of theirs.
pub const GRAND_BATTLE: (&str, &str, &str) =
    ("antietam", "antietam.toml", include_str!("../../../scenarios/antietam.toml"));

/// Every shipped scenario a player is offered, (short name, file name, text): the battles, then the grand battle.
pub fn offered_scenarios() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    SHIPPED_SCENARIOS.iter().copied().chain([GRAND_BATTLE])
}
