//! Compact card sets: a 64-bit bitset for one pack and per-card counts for
//! games played with several packs (Guandan, Tractor, One Poker).

use crate::cards::{Card, NUM_CARDS};

/// A set of distinct cards, one bit per card index (bit `i` = card index `i`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct CardSet(pub u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);

    pub fn from_cards<I: IntoIterator<Item = Card>>(cards: I) -> CardSet {
        cards.into_iter().fold(CardSet::EMPTY, |s, c| s.with(c))
    }

    #[inline]
    pub const fn with(self, c: Card) -> CardSet {
        CardSet(self.0 | (1u64 << c.index()))
    }

    #[inline]
    pub fn insert(&mut self, c: Card) -> bool {
        let had = self.contains(c);
        self.0 |= 1u64 << c.index();
        !had
    }

    #[inline]
    pub fn remove(&mut self, c: Card) -> bool {
        let had = self.contains(c);
        self.0 &= !(1u64 << c.index());
        had
    }

    #[inline]
    pub const fn contains(self, c: Card) -> bool {
        self.0 & (1u64 << c.index()) != 0
    }

    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }

    #[inline]
    pub const fn intersection(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }

    #[inline]
    pub const fn difference(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }

    /// Cards in ascending index order.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0 & ALL_CARDS;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(card_at(i))
        })
    }
}

/// Bits of every card index; iteration ignores anything above them.
const ALL_CARDS: u64 = (1u64 << NUM_CARDS) - 1;

#[inline]
fn card_at(i: u8) -> Card {
    Card::from_index_unchecked(i)
}

/// A multiset of cards: how many copies of each of the 54 cards.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct CardCounts(pub [u8; NUM_CARDS]);

impl Default for CardCounts {
    fn default() -> Self {
        CardCounts([0; NUM_CARDS])
    }
}

impl CardCounts {
    pub fn from_cards<I: IntoIterator<Item = Card>>(cards: I) -> CardCounts {
        let mut c = CardCounts::default();
        for card in cards {
            c.add(card);
        }
        c
    }

    #[inline]
    pub fn add(&mut self, c: Card) {
        self.0[c.index() as usize] += 1;
    }

    /// Remove one copy; false (and no change) when there is none.
    #[inline]
    pub fn remove(&mut self, c: Card) -> bool {
        let n = &mut self.0[c.index() as usize];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        true
    }

    #[inline]
    pub fn count(&self, c: Card) -> u8 {
        self.0[c.index() as usize]
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// True when every copy in `other` is also here.
    pub fn contains_all(&self, other: &CardCounts) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    /// Cards in ascending index order, repeated by count.
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        self.0
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| std::iter::repeat_n(card_at(i as u8), n as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    #[test]
    fn bitset_ops() {
        let a = CardSet::from_cards(parse_cards("As Kd 2c RJ").unwrap());
        assert_eq!(a.len(), 4);
        assert!(a.contains(Card::RED_JOKER));
        let b = CardSet::from_cards(parse_cards("As Qh").unwrap());
        assert_eq!(a.intersection(b).len(), 1);
        assert_eq!(a.difference(b).len(), 3);
        assert_eq!(a.union(b).len(), 5);
        let listed: Vec<String> = a.iter().map(|c| c.to_string()).collect();
        assert_eq!(listed, ["2c", "Kd", "As", "RJ"]);
    }

    #[test]
    fn counts_hold_duplicates() {
        let mut c = CardCounts::from_cards(parse_cards("Ah Ah 2c").unwrap());
        assert_eq!(c.len(), 3);
        assert_eq!(c.count(Card::parse("Ah").unwrap()), 2);
        assert!(c.remove(Card::parse("Ah").unwrap()));
        assert!(!c.remove(Card::parse("Kh").unwrap()));
        assert_eq!(c.iter().count(), 2);
        assert!(c.contains_all(&CardCounts::from_cards(parse_cards("Ah").unwrap())));
    }
}
