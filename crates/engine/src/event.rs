//! What happened: the single source for logs, replays, statistics and the UI (docs/architecture.md).

use crate::attack::{HitResult, Modifiers};
use crate::card::Card;
use crate::geometry::{Dir, Square};
use crate::system::{AttackerEffect, RallyTest};
use crate::unit::{Side, UnitId};
use serde::{Deserialize, Serialize};

/// How a game ended (R8).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: EndReason,
    /// Points of each side as R8.2 counts them when the game ended (also when it ended by exhaustion).
    pub points: [u16; 2],
}

/// Why a game ended (R8).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// This side reached its exhaustion point (R8.1).
    Exhaustion(Side),
    /// The last turn ended and points were counted (R8.2).
    TurnLimit,
    /// This side resigned; the other wins ([`crate::Battle::resign`]).
    Resigned(Side),
    /// This side did not move by the deadline of the game's pace, and the other claimed the win
    /// ([`Declared::OutOfTime`]).
    OutOfTime(Side),
    /// The players agreed to a draw ([`Declared::DrawAgreed`]).
    DrawAgreed,
}

/// An ending declared off the board, by the players or their clock, not reached by play (R8): a resignation, a side's
/// time run out with the win claimed by the other, or a draw agreed. A game records it after its last decision
/// ([`crate::Game::conclude`]); its [`EndReason`] is the result's.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Declared {
    /// This side resigned; the other wins.
    Resigned(Side),
    /// This side's time ran out and the other claimed the win.
    OutOfTime(Side),
    /// The players agreed to a draw.
    DrawAgreed,
}

impl Declared {
    /// The winner it gives: the other side of a resignation or a side out of time; none for a draw.
    pub fn winner(self) -> Option<Side> {
        match self {
            Declared::Resigned(side) | Declared::OutOfTime(side) => Some(side.other()),
            Declared::DrawAgreed => None,
        }
    }

    /// The reason the result gives.
    pub fn reason(self) -> EndReason {
        match self {
            Declared::Resigned(side) => EndReason::Resigned(side),
            Declared::OutOfTime(side) => EndReason::OutOfTime(side),
            Declared::DrawAgreed => EndReason::DrawAgreed,
        }
    }
}

/// One thing that happened in a battle.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A turn began; for the cards, the deck was built from these initiative values (R3.1, R3.2).
    TurnStarted {
        /// The turn number, from 1.
        turn: u8,
        /// Each side's initiative value.
        iv: [u8; 2],
    },
    /// A card was drawn (R3.3).
    CardDrawn {
        /// The card.
        card: Card,
        /// Cards left in the deck after it.
        left: u8,
    },
    /// A side rolled for initiative (R3.7).
    InitiativeRolled {
        /// Who rolled.
        side: Side,
        /// The die.
        roll: u8,
    },
    /// A side won the initiative roll and acts first (R3.7).
    InitiativeWon {
        /// The winner.
        side: Side,
    },
    /// A unit was activated; `rallied` when its shaken status was removed (R4.1).
    Activated {
        /// The unit.
        unit: UnitId,
        /// Whether it was shaken.
        rallied: bool,
    },
    /// A variant's rally modifier applies to a shaken unit activated (`[[rally_modifiers]]`, docs/variants.md); the
    /// `RallyRolled` that follows gives the test it makes.
    RallyModified {
        /// The unit.
        unit: UnitId,
        /// The modifier, by its place among the combat system's rally modifiers.
        rule: u8,
    },
    /// A shaken unit activated rolled to rally under a variant's rally roll (`[rally]`, in place of R4.1).
    RallyRolled {
        /// The unit.
        unit: UnitId,
        /// The die.
        roll: u8,
        /// The faces that rally it, its modifiers counted.
        test: RallyTest,
        /// Whether it rallied (else it stays shaken, and is given its order so).
        rallied: bool,
    },
    /// A side stopped activating units (R3.4, R3.7).
    ActivationsEnded {
        /// The side.
        side: Side,
    },
    /// A unit held (R4.2).
    Held {
        /// The unit.
        unit: UnitId,
    },
    /// A unit moved or changed facing (R5); also the move after Fire & Move.
    Moved {
        /// The unit.
        unit: UnitId,
        /// Where it was.
        from: Square,
        /// Where it is.
        to: Square,
        /// Its new facing.
        facing: Dir,
    },
    /// An attack was made, with what it needs on the die and why (R6.4).
    Attack {
        /// The attacking unit.
        attacker: UnitId,
        /// The target.
        target: UnitId,
        /// Whether it is a charge (R6.1).
        charge: bool,
        /// The number needed on the die (2..=6).
        needed: u8,
        /// The modifiers applied.
        modifiers: Modifiers,
    },
    /// The to-hit die (R6.4).
    ToHitRolled {
        /// The die.
        roll: u8,
        /// Whether it hit.
        hit: bool,
    },
    /// A variant's result modifier changes the strength a hit target's roll is tested against
    /// (`[[result_modifiers]]`, docs/variants.md); the `HitResultRolled` that follows gives the strength tested.
    ResultModified {
        /// The target.
        unit: UnitId,
        /// The modifier, by its place among the combat system's result modifiers.
        rule: u8,
    },
    /// The target's die against its strength (R7.1), with a variant's result modifiers.
    HitResultRolled {
        /// The target.
        unit: UnitId,
        /// The die.
        roll: u8,
        /// The target's strength.
        strength: u8,
        /// The result.
        result: HitResult,
    },
    /// A variant's after-attack rule befell the attacker (`[[after_attack]]`, docs/variants.md): it became shaken,
    /// advanced into its target's square, or was destroyed (a `Destroyed` event follows).
    AfterAttack {
        /// The attacker.
        unit: UnitId,
        /// The rule, by its place among the combat system's after-attack rules.
        rule: u8,
        /// What it did.
        effect: AttackerEffect,
        /// Where the unit stands after it (the square advanced into).
        at: Square,
    },
    /// A unit became shaken (R7.1, R7.2).
    Shaken {
        /// The unit.
        unit: UnitId,
    },
    /// A unit retreated one square (R7.3).
    Retreated {
        /// The unit.
        unit: UnitId,
        /// Where it was.
        from: Square,
        /// Where it went.
        to: Square,
    },
    /// A unit could not retreat (R7.4): it stands, shaken (`blocked_retreat = stand`), or is destroyed (next event).
    RetreatBlocked {
        /// The unit.
        unit: UnitId,
    },
    /// A unit was destroyed (R7.1, R7.4).
    Destroyed {
        /// The unit.
        unit: UnitId,
    },
    /// A side now holds an objective (R8.2).
    ObjectiveTaken {
        /// The objective's square.
        at: Square,
        /// The new holder.
        side: Side,
    },
    /// A reinforcement's unit entered the board on its entry square at the start of a turn
    /// (docs/scenario-format.md#events).
    Arrived {
        /// The unit.
        unit: UnitId,
        /// Its entry square.
        at: Square,
        /// Its group, by its place among the scenario's reinforcements.
        group: u8,
    },
    /// A reinforcement's unit due could not enter: a unit stands on its entry square. It tries again at the start
    /// of the next turn.
    ArrivalDelayed {
        /// The unit.
        unit: UnitId,
        /// Its entry square.
        at: Square,
        /// The unit standing there.
        by: UnitId,
        /// Its group, by its place among the scenario's reinforcements.
        group: u8,
    },
    /// A timed change of the scenario took effect at the start of a turn: an objective's points or a side's
    /// exhaustion point (docs/scenario-format.md#events).
    Changed {
        /// The change, by its place among the scenario's changes.
        change: u8,
    },
    /// The turn ended (R3.6, R3.7).
    TurnEnded {
        /// Its number.
        turn: u8,
    },
    /// The game ended (R8).
    GameOver {
        /// How.
        result: GameResult,
    },
}
