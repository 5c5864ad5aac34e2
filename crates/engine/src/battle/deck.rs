//! The initiative deck (docs/rules.md R3.1–R3.3, R3.6).

use crate::card::Card;
use crate::unit::Side;
use serde::{Deserialize, Serialize};

/// The cards left in the deck: for each side three card values with how many of each are left, and the Joker.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Deck {
    values: [[u8; 3]; 2],
    counts: [[u8; 3]; 2],
    joker: bool,
}

/// The initiative value of a side with `units` units on the board: ceil(n / 2), at least 1 (R3.1).
pub fn initiative_value(units: usize) -> u8 {
    (units.div_ceil(2)).max(1) as u8
}

impl Deck {
    /// A full deck for the given initiative values: two cards each of max(IV−1, 1), IV and IV+1 a side, and the Joker (R3.2).
    pub fn full(iv: [u8; 2]) -> Deck {
        let values = iv.map(|v| [v.saturating_sub(1).max(1), v, v + 1]);
        Deck { values, counts: [[2; 3]; 2], joker: true }
    }

    /// Cards left.
    pub fn len(&self) -> u8 {
        self.counts.iter().flatten().sum::<u8>() + self.joker as u8
    }

    /// Whether no card is left.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the Joker is still in the deck.
    pub fn has_joker(&self) -> bool {
        self.joker
    }

    /// The distinct cards left with how many copies of each, in a fixed order (side A low to high, side B, Joker).
    pub fn cards(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        let mut merged: [(Card, u8); 7] = [(Card::Joker, 0); 7];
        let mut n = 0;
        for side in Side::BOTH {
            for slot in 0..3 {
                let count = self.counts[side.index()][slot];
                if count == 0 {
                    continue;
                }
                let card = Card::Side { side, value: self.values[side.index()][slot] };
                match merged[..n].iter_mut().find(|(c, _)| *c == card) {
                    Some(entry) => entry.1 += count,
                    None => {
                        merged[n] = (card, count);
                        n += 1;
                    }
                }
            }
        }
        if self.joker {
            merged[n] = (Card::Joker, 1);
            n += 1;
        }
        merged.into_iter().take(n)
    }

    /// The card at position `index` (0-based) among the cards left, in the order of [`Deck::cards`].
    pub fn nth(&self, mut index: u8) -> Option<Card> {
        // The slots in their own order: a side's equal values are neighbours (only max(IV−1, 1) and IV can be
        // equal), so this is the order of `cards`, without merging (a card is drawn thousands of times a second).
        for side in Side::BOTH {
            for (&value, &count) in self.values[side.index()].iter().zip(&self.counts[side.index()]) {
                if index < count {
                    return Some(Card::Side { side, value });
                }
                index -= count;
            }
        }
        (self.joker && index == 0).then_some(Card::Joker)
    }

    /// Removes one copy of `card`; false if there is none.
    pub fn take(&mut self, card: Card) -> bool {
        match card {
            Card::Joker => std::mem::replace(&mut self.joker, false),
            Card::Side { side, value } => {
                let s = side.index();
                match (0..3).find(|&i| self.values[s][i] == value && self.counts[s][i] > 0) {
                    Some(i) => {
                        self.counts[s][i] -= 1;
                        true
                    }
                    None => false,
                }
            }
        }
    }

    /// How many copies of `card` are left.
    pub fn count(&self, card: Card) -> u8 {
        self.cards().find(|(c, _)| *c == card).map_or(0, |(_, n)| n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r3_1_initiative_value_is_half_the_units_rounded_up() {
        assert_eq!(initiative_value(0), 1);
        assert_eq!(initiative_value(1), 1);
        assert_eq!(initiative_value(5), 3);
        assert_eq!(initiative_value(6), 3);
    }

    #[test]
    fn r3_2_deck_has_six_cards_a_side_and_a_joker() {
        let deck = Deck::full([3, 1]);
        assert_eq!(deck.len(), 13);
        let a: Vec<_> = deck.cards().filter(|(c, _)| matches!(c, Card::Side { side: Side::A, .. })).collect();
        assert_eq!(
            a,
            vec![
                (Card::Side { side: Side::A, value: 2 }, 2),
                (Card::Side { side: Side::A, value: 3 }, 2),
                (Card::Side { side: Side::A, value: 4 }, 2)
            ]
        );
        // IV 1: max(IV-1, 1) = 1 = IV, so four 1s and two 2s.
        assert_eq!(deck.count(Card::Side { side: Side::B, value: 1 }), 4);
        assert_eq!(deck.count(Card::Side { side: Side::B, value: 2 }), 2);
        assert_eq!(deck.count(Card::Joker), 1);
    }

    #[test]
    fn r3_3_drawing_removes_one_card() {
        let mut deck = Deck::full([2, 2]);
        assert!(deck.take(Card::Side { side: Side::B, value: 1 }));
        assert_eq!(deck.len(), 12);
        assert_eq!(deck.count(Card::Side { side: Side::B, value: 1 }), 1);
        assert!(deck.take(Card::Joker));
        assert!(!deck.take(Card::Joker));
        assert_eq!(deck.nth(0), Some(Card::Side { side: Side::A, value: 1 }));
        assert_eq!(deck.nth(11), None);
    }

    #[test]
    fn r3_3_nth_counts_through_the_cards_in_their_listed_order() {
        // IV 1 makes two slots of equal value: nth must still follow `cards`, copy by copy.
        let mut deck = Deck::full([1, 3]);
        deck.take(Card::Side { side: Side::A, value: 1 });
        deck.take(Card::Side { side: Side::B, value: 3 });
        let listed: Vec<Card> = deck.cards().flat_map(|(c, n)| std::iter::repeat_n(c, n as usize)).collect();
        let by_index: Vec<Card> = (0..deck.len()).map(|i| deck.nth(i).unwrap()).collect();
        assert_eq!(by_index, listed);
        assert_eq!(deck.nth(deck.len()), None);
    }
}
