//! Arrangements of one dealt hand: ranking every possible segment once, the
//! properness check, the 72,072 splits and the greedy arranger.

use super::scoring::{Made, SegmentHand, SetHands, BACK, FRONT, MIDDLE};
use super::splits::{positions, tables, Split, NUM_FIVES};
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::error::{EngineError, Result};
use crate::poker::{self, Category, HandKey};

/// The bonus-table class of a poker category.
pub fn made_of(category: Category) -> Made {
    match category {
        Category::ThreeOfAKind => Made::Trips,
        Category::FullHouse => Made::FullHouse,
        Category::FourOfAKind => Made::Quads,
        Category::StraightFlush => Made::StraightFlush,
        _ => Made::Plain,
    }
}

/// A front hand ranked as three cards (straights and flushes do not count there,
/// CP-07) on the same scale as five-card hands.
pub fn rank_front(cards: [Card; 3]) -> SegmentHand {
    let r = poker::rank_front(cards);
    SegmentHand {
        value: r.value(),
        made: made_of(r.category()),
    }
}

/// A middle or back hand.
pub fn rank_five(cards: [Card; 5]) -> SegmentHand {
    let r = poker::rank5(cards);
    SegmentHand {
        value: r.value(),
        made: made_of(r.category()),
    }
}

/// Ordering as written (CP-05): the back ranks at least the middle and the
/// middle strictly above the front.
#[inline]
pub fn is_proper(hands: &SetHands) -> bool {
    hands[BACK].value >= hands[MIDDLE].value && hands[MIDDLE].value > hands[FRONT].value
}

/// A hand set as front, middle and back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrangement {
    pub front: [Card; 3],
    pub middle: [Card; 5],
    pub back: [Card; 5],
}

impl Arrangement {
    /// Check sizes (3/5/5), that no card repeats and that there are no jokers.
    pub fn new(front: &[Card], middle: &[Card], back: &[Card]) -> Result<Arrangement> {
        let sized = |cards: &[Card], n: usize, name: &str| -> Result<Vec<Card>> {
            if cards.len() == n {
                Ok(cards.to_vec())
            } else {
                Err(EngineError::IllegalAction(format!(
                    "the {name} must hold {n} cards, got {}",
                    cards.len()
                )))
            }
        };
        let f = sized(front, 3, "front")?;
        let m = sized(middle, 5, "middle")?;
        let b = sized(back, 5, "back")?;
        let all: Vec<Card> = f.iter().chain(&m).chain(&b).copied().collect();
        if let Some(j) = all.iter().find(|c| c.is_joker()) {
            return Err(EngineError::InvalidCard(format!(
                "{j} is not in the 52-card deck"
            )));
        }
        if CardSet::from_cards(all.iter().copied()).len() != 13 {
            return Err(EngineError::IllegalAction(
                "a set cannot use the same card twice".into(),
            ));
        }
        let mut a = Arrangement {
            front: [f[0], f[1], f[2]],
            middle: [m[0], m[1], m[2], m[3], m[4]],
            back: [b[0], b[1], b[2], b[3], b[4]],
        };
        // Canonical order inside each segment: highest card first.
        a.front.sort_by(|x, y| y.cmp(x));
        a.middle.sort_by(|x, y| y.cmp(x));
        a.back.sort_by(|x, y| y.cmp(x));
        Ok(a)
    }

    /// The three ranked segments.
    pub fn hands(&self) -> SetHands {
        [
            rank_front(self.front),
            rank_five(self.middle),
            rank_five(self.back),
        ]
    }

    pub fn is_proper(&self) -> bool {
        is_proper(&self.hands())
    }

    /// Every card of the arrangement.
    pub fn cards(&self) -> CardSet {
        CardSet::from_cards(
            self.front
                .iter()
                .chain(&self.middle)
                .chain(&self.back)
                .copied(),
        )
    }
}

/// Check that `hand` is 13 distinct cards of the 52-card deck.
pub fn check_hand(hand: &[Card]) -> Result<()> {
    if let Some(j) = hand.iter().find(|c| c.is_joker()) {
        return Err(EngineError::InvalidCard(format!(
            "{j} is not in the 52-card deck"
        )));
    }
    let distinct = CardSet::from_cards(hand.iter().copied()).len();
    if hand.len() != 13 || distinct != 13 {
        return Err(EngineError::IllegalAction(format!(
            "a Chinese Poker hand is 13 distinct cards, got {} ({distinct} distinct)",
            hand.len()
        )));
    }
    Ok(())
}

/// The cards at the positions of `mask` (which has exactly `N` bits set).
#[inline]
pub(crate) fn gather<const N: usize>(cards: &[Card; 13], mask: u16) -> [Card; N] {
    let mut out = [cards[0]; N];
    for (slot, i) in out.iter_mut().zip(positions(mask)) {
        *slot = cards[i];
    }
    out
}

/// The greedy set of a hand from its ranked five-card segments: the strongest
/// back, then the strongest middle of the remaining eight cards, the last three
/// in front. Returns `None` when that is misordered (the middle not above the
/// front), which the caller settles by a full search.
fn greedy_fast(cards: &[Card; 13], fives: &[SegmentHand]) -> Option<(Split, SetHands)> {
    let t = tables();
    let (back, _) = fives
        .iter()
        .enumerate()
        .max_by_key(|(i, h)| (h.value, std::cmp::Reverse(*i)))?;
    let back_mask = t.fives[back];
    let (middle, _) = fives
        .iter()
        .enumerate()
        .filter(|(i, _)| t.fives[*i] & back_mask == 0)
        .max_by_key(|(i, h)| (h.value, std::cmp::Reverse(*i)))?;
    let front_mask = ((1u16 << 13) - 1) & !back_mask & !t.fives[middle];
    let front = t.fronts.iter().position(|&m| m == front_mask)?;
    let hands = [
        rank_front(gather(cards, front_mask)),
        fives[middle],
        fives[back],
    ];
    is_proper(&hands).then_some((
        Split {
            front: front as u16,
            middle: middle as u16,
            back: back as u16,
        },
        hands,
    ))
}

/// Every five-card segment of 13 cards ranked, in table order. Nested loops keep
/// the partial hand keys of the outer cards, so each segment costs one key
/// addition and one lookup (the order matches `splits::subsets`).
fn rank_fives(cards: &[Card; 13]) -> Vec<SegmentHand> {
    let mut out = Vec::with_capacity(NUM_FIVES);
    for a in 0..9 {
        let ka = HandKey::EMPTY.with(cards[a]);
        for b in a + 1..10 {
            let kb = ka.with(cards[b]);
            for c in b + 1..11 {
                let kc = kb.with(cards[c]);
                for d in c + 1..12 {
                    let kd = kc.with(cards[d]);
                    for &e in &cards[d + 1..] {
                        let r = kd.with(e).rank();
                        out.push(SegmentHand {
                            value: r.value(),
                            made: made_of(r.category()),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The greedy set's ranked segments for 13 distinct sorted cards, ranking only
/// what greedy needs (the 1,287 five-card segments), for opponent models.
pub(crate) fn greedy_hands(cards: [Card; 13]) -> SetHands {
    let fives = rank_fives(&cards);
    match greedy_fast(&cards, &fives) {
        Some((_, hands)) => hands,
        None => {
            let table = HandTable::from_sorted(cards);
            table.set_hands(&table.greedy())
        }
    }
}

/// Every segment of one 13-card hand, ranked once: 286 fronts and 1,287
/// five-card segments. Any split's ranks are then three table reads.
pub struct HandTable {
    cards: [Card; 13],
    fronts: Vec<SegmentHand>,
    fives: Vec<SegmentHand>,
}

impl HandTable {
    /// Rank every segment of `hand` (13 distinct cards of the 52-card deck).
    pub fn new(hand: &[Card]) -> Result<HandTable> {
        check_hand(hand)?;
        let set = CardSet::from_cards(hand.iter().copied());
        let mut cards = [hand[0]; 13];
        for (slot, c) in cards.iter_mut().zip(set.iter()) {
            *slot = c;
        }
        Ok(Self::from_sorted(cards))
    }

    /// Build from 13 distinct, already validated cards (sorted ascending).
    pub(crate) fn from_sorted(cards: [Card; 13]) -> HandTable {
        let t = tables();
        let fronts = t
            .fronts
            .iter()
            .map(|&m| rank_front(gather(&cards, m)))
            .collect();
        let fives = rank_fives(&cards);
        HandTable {
            cards,
            fronts,
            fives,
        }
    }

    /// The hand, ascending.
    pub fn cards(&self) -> &[Card; 13] {
        &self.cards
    }

    /// The ranked front among the 286 three-card segments.
    #[inline]
    pub fn front(&self, index: u16) -> SegmentHand {
        self.fronts[index as usize]
    }

    /// The ranked segment among the 1,287 five-card segments.
    #[inline]
    pub fn five(&self, index: u16) -> SegmentHand {
        self.fives[index as usize]
    }

    /// The ranked segments of a split.
    #[inline]
    pub fn set_hands(&self, split: &Split) -> SetHands {
        [
            self.fronts[split.front as usize],
            self.fives[split.middle as usize],
            self.fives[split.back as usize],
        ]
    }

    /// The cards of a split.
    pub fn arrangement(&self, split: &Split) -> Arrangement {
        let t = tables();
        let mut a = Arrangement {
            front: [self.cards[0]; 3],
            middle: [self.cards[0]; 5],
            back: [self.cards[0]; 5],
        };
        let fill = |slots: &mut [Card], mask: u16| {
            for (slot, i) in slots.iter_mut().zip(positions(mask)) {
                *slot = self.cards[i];
            }
            slots.sort_by(|x, y| y.cmp(x));
        };
        fill(&mut a.front, t.fronts[split.front as usize]);
        fill(&mut a.middle, t.fives[split.middle as usize]);
        fill(&mut a.back, t.fives[split.back as usize]);
        a
    }

    /// Every split of this hand that is properly set, in table order.
    pub fn proper_splits(&self) -> impl Iterator<Item = &'static Split> + '_ {
        tables()
            .splits
            .iter()
            .filter(move |s| is_proper(&self.set_hands(s)))
    }

    /// How many of the 72,072 splits are properly set.
    pub fn count_proper(&self) -> usize {
        self.proper_splits().count()
    }

    /// The greedy arrangement: the strongest back, then the strongest middle of
    /// the remaining eight cards, the last three in front; if that is misordered,
    /// the properly set split with the strongest back, then middle, then front.
    pub fn greedy(&self) -> Split {
        if let Some((split, _)) = greedy_fast(&self.cards, &self.fives) {
            return split;
        }
        let key = |s: &Split| {
            let h = self.set_hands(s);
            (h[BACK].value, h[MIDDLE].value, h[FRONT].value)
        };
        // Some split is always properly set (the best five as back, the best five
        // of the rest as middle), so the fallback to the first split only keeps
        // this function total.
        self.proper_splits()
            .max_by_key(|s| key(s))
            .copied()
            .unwrap_or(tables().splits[0])
    }

    /// Up to `count` properly set splits spread evenly over the table, for a
    /// representative list of legal sets.
    pub fn spread(&self, count: usize) -> Vec<Split> {
        let proper: Vec<Split> = self.proper_splits().copied().collect();
        if count == 0 || proper.is_empty() {
            return Vec::new();
        }
        let step = proper.len().div_ceil(count).max(1);
        proper.into_iter().step_by(step).take(count).collect()
    }

    /// The first improperly set split (a misordered set), if the hand has one.
    pub fn first_improper(&self) -> Option<Split> {
        tables()
            .splits
            .iter()
            .find(|s| !is_proper(&self.set_hands(s)))
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::rng::CardRng;

    fn set(front: &str, middle: &str, back: &str) -> Arrangement {
        Arrangement::new(
            &parse_cards(front).unwrap(),
            &parse_cards(middle).unwrap(),
            &parse_cards(back).unwrap(),
        )
        .unwrap()
    }

    fn random_hand(seed: u64) -> Vec<Card> {
        let mut deck: Vec<Card> = (0..52).map(|i| Card::from_index(i).unwrap()).collect();
        CardRng::new(seed).shuffle(&mut deck);
        deck.truncate(13);
        deck
    }

    // CP-05, CP-06, CP-07: ordering as written; straights and flushes do not count
    // in front, so a suited run there is only its high card.
    #[test]
    fn ordering_as_written() {
        assert!(set("QhJhTh", "AsKd7c5c3d", "2c2d2h4s4d").is_proper());
        assert!(!set("AsAd3c", "KsQs9d7c2h", "JhJcJd5s5h").is_proper());
        // Back equal to middle is allowed, below it is not (PKR-27 ties).
        assert!(set("2c3d4h", "AsKdQcJh9d", "AcKhQdJs9c").is_proper());
        assert!(!set("2c3d4h", "AsKdQcJh9d", "AcKhQdJs8c").is_proper());
        let pair_front = rank_front([
            Card::parse("2s").unwrap(),
            Card::parse("2h").unwrap(),
            Card::parse("3c").unwrap(),
        ]);
        assert!(set("QhJhTh", "AsKd7c5c3d", "2c2d2h4s4d").hands()[FRONT].value < pair_front.value);
    }

    // CP-29: a segment with the wrong number of cards, or a repeated card, is no set.
    #[test]
    fn rejects_bad_sets() {
        let c = |t: &str| parse_cards(t).unwrap();
        assert!(Arrangement::new(&c("AsKs"), &c("2c3c4c5c6d"), &c("7c8c9cTcJd Qd")).is_err());
        assert!(Arrangement::new(&c("AsKsQs"), &c("2c3c4c5c6d"), &c("7c8c9cTcAs")).is_err());
        assert!(Arrangement::new(&c("AsKsRJ"), &c("2c3c4c5c6d"), &c("7c8c9cTcJd")).is_err());
        assert!(HandTable::new(&c("AsKsQs")).is_err());
    }

    #[test]
    fn every_hand_has_proper_splits_and_greedy_is_proper() {
        for seed in 0..60 {
            let hand = random_hand(seed);
            let table = HandTable::new(&hand).unwrap();
            let greedy = table.greedy();
            let hands = table.set_hands(&greedy);
            assert!(is_proper(&hands), "seed {seed}");
            let a = table.arrangement(&greedy);
            assert_eq!(a.cards(), CardSet::from_cards(hand.iter().copied()));
            assert_eq!(a.hands(), hands);
            let mut sorted = hand.clone();
            sorted.sort();
            let mut cards = [sorted[0]; 13];
            cards.copy_from_slice(&sorted);
            assert_eq!(greedy_hands(cards), hands);
            let spread = table.spread(6);
            assert_eq!(spread.len(), 6);
            assert!(spread.iter().all(|s| is_proper(&table.set_hands(s))));
            if let Some(bad) = table.first_improper() {
                assert!(!table.arrangement(&bad).is_proper());
            }
            for (i, &m) in tables().fives.iter().enumerate() {
                assert_eq!(table.five(i as u16), rank_five(gather(table.cards(), m)));
            }
            let proper = table.count_proper();
            assert!(proper > 0 && proper < super::super::splits::NUM_SPLITS);
        }
    }
}
