//! The views of the initiative deck: a card, the cards left and the chance of the next (R3.2, R3.3).

use pacw_engine::narrate;
use pacw_engine::{Battle, Card, Prob, Scenario, Side};
use serde::Serialize;

/// A card of the initiative deck.
#[derive(Serialize, Clone, Debug)]
pub struct CardView {
    /// The card as the engine writes it: `{"side": {"side": "A", "value": 3}}` or `"joker"`.
    pub card: Card,
    /// Its side (none for the Joker).
    pub side: Option<Side>,
    /// Its value (0 for the Joker).
    pub value: u8,
    /// In words.
    pub text: String,
}

/// A kind of card left in the deck.
#[derive(Serialize, Clone, Debug)]
pub struct DeckCardView {
    /// The card.
    #[serde(flatten)]
    pub card: CardView,
    /// Copies left.
    pub count: u8,
    /// The chance that the next card drawn is one of these, exactly.
    pub chance: String,
}

/// The chance that the next card is a side's or the Joker.
#[derive(Serialize, Clone, Debug)]
pub struct NextCard {
    /// First side, as a fraction.
    #[serde(rename = "A")]
    pub a: String,
    /// Second side.
    #[serde(rename = "B")]
    pub b: String,
    /// The Joker.
    pub joker: String,
}

/// The cards left in the deck (R3.2, R3.3).
#[derive(Serialize, Clone, Debug)]
pub struct DeckView {
    /// Cards left.
    pub left: u8,
    /// Each kind of card left.
    pub cards: Vec<DeckCardView>,
    /// The exact chance that the next card is each side's or the Joker.
    pub next: NextCard,
}

/// The view of a card.
pub fn card_view(s: &Scenario, card: Card) -> CardView {
    let (side, value) = match card {
        Card::Side { side, value } => (Some(side), value),
        Card::Joker => (None, 0),
    };
    CardView { card, side, value, text: narrate::card(s, card) }
}

/// The deck with the exact chances of the next card.
pub fn deck_view(b: &Battle) -> DeckView {
    let deck = b.deck();
    let left = deck.len();
    let frac = |n: u32| if left == 0 { "0".to_string() } else { Prob::new(n, left as u32).to_string() };
    let mut per = [0u32; 3];
    let cards = deck
        .cards()
        .map(|(card, count)| {
            let slot = match card {
                Card::Side { side, .. } => side.index(),
                Card::Joker => 2,
            };
            per[slot] += count as u32;
            DeckCardView { card: card_view(b.scenario(), card), count, chance: frac(count as u32) }
        })
        .collect();
    DeckView { left, cards, next: NextCard { a: frac(per[0]), b: frac(per[1]), joker: frac(per[2]) } }
}
