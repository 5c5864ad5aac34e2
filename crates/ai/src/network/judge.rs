//! The network's judgement of any position: the result once the battle is over, the exact average over the dice
//! where a die is to be rolled, and the network's own estimate where a side is to act or a card is to be drawn (the
//! encoding reads the deck: averaging over thirteen cards costs thirteen judgements; [`Judge::averaging_cards`]
//! pays it, for a player that can afford it).

use super::encoding::{Encoding, encode};
use super::{Network, Scratch, sigmoid};
use crate::evaluator::{CHANCE_DEPTH, chance_average, result_value};
use pacw_engine::{Battle, ChanceKind, ToAct};
use std::sync::Arc;

/// A network with the buffers it judges with.
#[derive(Clone, Debug)]
pub struct Judge {
    network: Arc<Network>,
    encoding: Encoding,
    scratch: Scratch,
    events: Vec<pacw_engine::Event>,
    cards: CardDraws,
}

/// What the judge does where a card is to be drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CardDraws {
    /// The network's own estimate (what self-play learns from).
    Estimate,
    /// The exact average over the cards that may be drawn, each judged after it.
    Average,
}

impl Judge {
    /// A judge by `network`.
    pub fn new(network: Arc<Network>) -> Judge {
        let (encoding, scratch, events) = (Encoding::default(), Scratch::default(), Vec::new());
        Judge { network, encoding, scratch, events, cards: CardDraws::Estimate }
    }

    /// This judge averaging over the cards that may be drawn, as over dice, rather than estimating before the draw.
    pub fn averaging_cards(mut self) -> Judge {
        self.cards = CardDraws::Average;
        self
    }

    /// The network it judges by.
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// The first side's expected score of `b`: its result once over, the exact average over the dice to be rolled
    /// (up to [`CHANCE_DEPTH`] in a row), else the network's estimate.
    pub fn value(&mut self, b: &Battle) -> f32 {
        self.value_within(b, CHANCE_DEPTH)
    }

    /// The network's estimate of `b` as it stands, whoever is to act (its result once over).
    pub fn estimate(&mut self, b: &Battle) -> f32 {
        match b.result() {
            Some(result) => result_value(result),
            None => {
                encode(b, &mut self.encoding);
                sigmoid(self.network.logit(&self.encoding, &mut self.scratch))
            }
        }
    }

    fn value_within(&mut self, b: &Battle, depth: u8) -> f32 {
        match b.to_act() {
            ToAct::Chance(kind) if depth > 0 && b.result().is_none() && self.averages(kind) => {
                let mut events = std::mem::take(&mut self.events);
                let v = chance_average(b, |after, _| self.value_within(after, depth - 1), &mut events);
                self.events = events;
                v
            }
            _ => self.estimate(b),
        }
    }

    /// Whether chance of this kind is averaged over rather than estimated.
    fn averages(&self, kind: ChanceKind) -> bool {
        kind != ChanceKind::Card || self.cards == CardDraws::Average
    }
}

/// Whether the judge gives the network's own estimate of `b`, a side to act or a card to be drawn, rather than the
/// result or the average over dice to be rolled: the positions the network is asked about, so the ones self-play
/// must learn from.
pub fn estimates(b: &Battle) -> bool {
    b.result().is_none() && matches!(b.to_act(), ToAct::Side(_) | ToAct::Chance(ChanceKind::Card))
}
