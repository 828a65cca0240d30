//! Hand evaluation with compact tables.
//!
//! Design (after OMPEval): every card adds a constant to a 64-bit [`HandKey`].
//! The low 32 bits sum per-rank multipliers chosen so that every multiset of at
//! most seven ranks (at most four of each) has a distinct sum; the high 32 bits hold
//! one nibble per suit counting that suit's cards from a bias of 3, so bit 3 of a
//! nibble is set exactly when five or more cards share the suit. A second word keeps
//! a 13-bit rank mask per suit. Evaluating is then:
//!
//! - flush: the suited rank mask indexes an 8,192-entry table (16 KB);
//! - otherwise: the rank sum goes through a row-displacement perfect hash (a 32 KB
//!   offset table) into a table of about 80,000 `u16` entries (~160 KB).
//!
//! With at most seven cards a flush can never coexist with four of a kind or a full
//! house (both need at least three cards outside the flush suit), so the flush test
//! comes first. Tables are built once on first use (a few milliseconds) behind a
//! `OnceLock`, are read-only afterwards and therefore thread-safe.
//!
//! Scale: the 7,462 distinct five-card hands are numbered 1..=7462 in ascending
//! strength ("classes"); a five-card [`HandRank`] is `class << 8`. Chinese Poker front
//! hands (three cards) sit in the gaps: the missing two cards count as lower than
//! any card, so a front hand lies just below the weakest five-card hand of its
//! category that beats it, and fronts sharing that gap are numbered upwards inside
//! the 8 low bits (at most 16 share one gap).

use crate::cards::{Card, NUM_CARDS};
use crate::cardset::CardSet;
use crate::error::{EngineError, Result};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Per-rank multipliers (OMPEval's): the sums over any multiset of at most seven
/// ranks with at most four of each rank are pairwise distinct (checked by a test
/// and again whenever the perfect hash is built).
pub(super) const RANK_KEYS: [u32; 13] = [
    0x2000, 0x8001, 0x11000, 0x3a000, 0x91000, 0x176005, 0x366000, 0x41a013, 0x47802e, 0x479068,
    0x48c0e4, 0x48f211, 0x494493,
];

pub(super) const SUIT_SHIFT: u32 = 32;
/// Suit counters start at 3 so that bit 3 of a nibble flags five cards of that suit
/// (3 + 5 = 8) and seven cards cannot overflow the nibble (3 + 7 = 10).
pub(super) const SUIT_BIAS: u64 = 0x3333 << SUIT_SHIFT;
pub(super) const FLUSH_BITS: u64 = 0x8888 << SUIT_SHIFT;
const RANK_BITS: u64 = 0xffff_ffff;

/// Perfect-hash rows: keys are split into `key >> ROW_SHIFT` (row) and the low bits
/// (column); each row gets one displacement.
const ROW_SHIFT: u32 = 12;
const COLUMN_MASK: u32 = (1 << ROW_SHIFT) - 1;
/// Rows of the offset table: a power of two above the row of any sum of seven
/// rank keys (seven aces: `7 * 0x494493 >> 12` = 8,199 wraps to a valid row), so
/// masking the row replaces a bounds check.
const HASH_ROWS: usize = 1 << 13;
/// Slots of the class table: what the displacement search fills (a test pins it)
/// rounded up; a fixed length lets a clamp replace a bounds check.
const HASH_SLOTS: usize = 83_008;

/// Number of distinct five-card hands.
pub const NUM_CLASSES: usize = 7462;

/// The first class of each category, ascending (class 0 means "no hand").
const CATEGORY_FIRST_CLASS: [u16; 9] = [1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453];

pub(super) const fn card_keys() -> [u64; NUM_CARDS] {
    // Jokers keep a zero key: fast paths never panic on them, they just do not count.
    let mut keys = [0u64; NUM_CARDS];
    let mut i = 0;
    while i < 52 {
        keys[i] = RANK_KEYS[i >> 2] as u64 + (1u64 << (SUIT_SHIFT + 4 * (i as u32 & 3)));
        i += 1;
    }
    keys
}

const fn card_masks() -> [u64; NUM_CARDS] {
    let mut masks = [0u64; NUM_CARDS];
    let mut i = 0;
    while i < 52 {
        masks[i] = 1u64 << (16 * (i & 3) + (i >> 2));
        i += 1;
    }
    masks
}

static CARD_KEYS: [u64; NUM_CARDS] = card_keys();
static CARD_MASKS: [u64; NUM_CARDS] = card_masks();

/// Hand categories, weakest first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Category {
    HighCard,
    OnePair,
    TwoPair,
    ThreeOfAKind,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
}

impl Category {
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// The snake_case name used by the Python API (`"full_house"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Category::HighCard => "high_card",
            Category::OnePair => "one_pair",
            Category::TwoPair => "two_pair",
            Category::ThreeOfAKind => "three_of_a_kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full_house",
            Category::FourOfAKind => "four_of_a_kind",
            Category::StraightFlush => "straight_flush",
        }
    }

    /// The English name ("Full House").
    pub const fn name(self) -> &'static str {
        match self {
            Category::HighCard => "High Card",
            Category::OnePair => "One Pair",
            Category::TwoPair => "Two Pair",
            Category::ThreeOfAKind => "Three of a Kind",
            Category::Straight => "Straight",
            Category::Flush => "Flush",
            Category::FullHouse => "Full House",
            Category::FourOfAKind => "Four of a Kind",
            Category::StraightFlush => "Straight Flush",
        }
    }

    fn of_class(class: u32) -> Category {
        let above = CATEGORY_FIRST_CLASS[1..]
            .iter()
            .filter(|&&first| u32::from(first) <= class)
            .count();
        Category::ALL[above]
    }
}

/// The strength of a poker hand: higher is better, equal ranks tie.
///
/// Five-, six- and seven-card hands rank as their best five cards; three-card
/// Chinese Poker front hands share the scale (see the module documentation), so
/// "the middle hand must rank above the front hand" is a plain comparison.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct HandRank(u32);

impl HandRank {
    #[inline]
    pub(super) fn from_class(class: u16) -> HandRank {
        HandRank(u32::from(class) << 8)
    }

    /// The numeric strength (higher is better); five-card hands give distinct
    /// multiples of 256, three-card front hands the values between them.
    #[inline]
    pub fn value(self) -> u32 {
        self.0
    }

    /// The rank with this value, if some hand has it.
    pub fn from_value(value: u32) -> Option<HandRank> {
        let rank = HandRank(value);
        if value & 0xff == 0 {
            let class = value >> 8;
            (1..=NUM_CLASSES as u32).contains(&class).then_some(rank)
        } else {
            tables().front_shape(rank).map(|_| rank)
        }
    }

    /// The five-card class 1..=7462 of a five-card rank; `None` for a front hand.
    #[inline]
    pub fn class(self) -> Option<u16> {
        (self.0 & 0xff == 0).then_some((self.0 >> 8) as u16)
    }

    /// True for a three-card front hand.
    #[inline]
    pub fn is_front(self) -> bool {
        self.0 & 0xff != 0
    }

    /// The hand's category. A front hand lies just below a five-card hand of its
    /// own category, so rounding up to the next class gives the category.
    #[inline]
    pub fn category(self) -> Category {
        Category::of_class((self.0 + 0xff) >> 8)
    }

    /// The ranks that decide ties, most significant first (0 = deuce .. 12 = ace):
    /// e.g. `[11 = K, 3 = 5]` for kings full of fives; a straight gives its top card
    /// (a five for A-2-3-4-5). Front hands list only the ranks they hold.
    pub fn tiebreak_ranks(self) -> Vec<u8> {
        let shape = if self.is_front() {
            tables().front_shape(self)
        } else {
            tables().class_shape(self)
        };
        shape.map_or_else(Vec::new, |s| s.ranks[..s.len as usize].to_vec())
    }

    /// The hand in words: "Full House, Kings full of Fives", "Straight, Five high",
    /// "Pair of Aces", "Royal Flush".
    pub fn describe(self) -> String {
        let ranks = self.tiebreak_ranks();
        let one = |i: usize| ranks.get(i).map_or("?", |&r| RANK_WORDS[r as usize].0);
        let many = |i: usize| ranks.get(i).map_or("?", |&r| RANK_WORDS[r as usize].1);
        match self.category() {
            Category::StraightFlush if ranks.first() == Some(&12) => "Royal Flush".to_string(),
            Category::StraightFlush => format!("Straight Flush, {} high", one(0)),
            Category::FourOfAKind => format!("Four of a Kind, {}", many(0)),
            Category::FullHouse => format!("Full House, {} full of {}", many(0), many(1)),
            Category::Flush => format!("Flush, {} high", one(0)),
            Category::Straight => format!("Straight, {} high", one(0)),
            Category::ThreeOfAKind => format!("Three of a Kind, {}", many(0)),
            Category::TwoPair => format!("Two Pair, {} and {}", many(0), many(1)),
            Category::OnePair => format!("Pair of {}", many(0)),
            Category::HighCard => format!("High Card, {}", one(0)),
        }
    }
}

const RANK_WORDS: [(&str, &str); 13] = [
    ("Two", "Twos"),
    ("Three", "Threes"),
    ("Four", "Fours"),
    ("Five", "Fives"),
    ("Six", "Sixes"),
    ("Seven", "Sevens"),
    ("Eight", "Eights"),
    ("Nine", "Nines"),
    ("Ten", "Tens"),
    ("Jack", "Jacks"),
    ("Queen", "Queens"),
    ("King", "Kings"),
    ("Ace", "Aces"),
];

/// An incrementally built hand: add cards one by one (or merge two disjoint
/// hands) and rank it once it holds five to seven cards. Enumeration loops keep
/// the partial keys of outer loops so the inner loop costs one add and one lookup.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct HandKey {
    key: u64,
    mask: u64,
}

impl Default for HandKey {
    fn default() -> Self {
        HandKey::EMPTY
    }
}

impl HandKey {
    pub const EMPTY: HandKey = HandKey {
        key: SUIT_BIAS,
        mask: 0,
    };

    pub fn from_cards(cards: &[Card]) -> HandKey {
        cards.iter().fold(HandKey::EMPTY, |h, &c| h.with(c))
    }

    pub fn from_set(set: CardSet) -> HandKey {
        set.iter().fold(HandKey::EMPTY, |h, c| h.with(c))
    }

    /// This hand plus `card` (which must not be in it already).
    #[inline]
    pub fn with(self, card: Card) -> HandKey {
        let i = card.index() as usize;
        HandKey {
            key: self.key + CARD_KEYS[i],
            mask: self.mask | CARD_MASKS[i],
        }
    }

    /// The union of two disjoint hands.
    #[inline]
    pub fn union(self, other: HandKey) -> HandKey {
        HandKey {
            key: self.key + other.key - SUIT_BIAS,
            mask: self.mask | other.mask,
        }
    }

    /// Number of cards held.
    #[inline]
    pub fn len(self) -> u32 {
        self.mask.count_ones()
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.mask == 0
    }

    /// The rank of the best five of these 5..=7 distinct cards. Other sizes give an
    /// unspecified rank (never a panic); validate with [`rank_cards`] first when the
    /// cards come from outside.
    #[inline]
    pub fn rank(self) -> HandRank {
        HandRank::from_class(tables().class_of(self))
    }
}

/// How a hand breaks ties: its category and the deciding ranks, most significant
/// first (a straight lists only its top card, A-2-3-4-5 counting as five high).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
struct Shape {
    category: Category,
    len: u8,
    ranks: [u8; 5],
}

impl Shape {
    fn new(category: Category, ranks: &[u8]) -> Shape {
        let mut r = [0u8; 5];
        r[..ranks.len()].copy_from_slice(ranks);
        Shape {
            category,
            len: ranks.len() as u8,
            ranks: r,
        }
    }

    /// The comparison key: category, then ranks with missing ones below any card.
    fn order_key(&self) -> (Category, [i8; 5]) {
        let mut k = [-1i8; 5];
        for (slot, &r) in k.iter_mut().zip(&self.ranks[..self.len as usize]) {
            *slot = r as i8;
        }
        (self.category, k)
    }
}

/// Top rank of the best straight in a 13-bit rank mask (3 = five-high wheel).
fn straight_top(ranks: u16) -> Option<u8> {
    (4..=12u8)
        .rev()
        .find(|&top| (ranks >> (top - 4)) & 0x1f == 0x1f)
        .or_else(|| (ranks & 0x100f == 0x100f).then_some(3))
}

fn ranks_desc(mask: u16) -> impl Iterator<Item = u8> {
    (0..13u8).rev().filter(move |&r| mask & (1 << r) != 0)
}

/// The best five cards of a rank mask of one suit with at least five ranks.
fn flush_shape(mask: u16) -> Shape {
    match straight_top(mask) {
        Some(top) => Shape::new(Category::StraightFlush, &[top]),
        None => {
            let top: Vec<u8> = ranks_desc(mask).take(5).collect();
            Shape::new(Category::Flush, &top)
        }
    }
}

/// The best five cards among 5..=7 cards with these rank counts and no flush.
fn rank_count_shape(counts: &[u8; 13]) -> Shape {
    let with = |n: u8| -> Vec<u8> {
        (0..13u8)
            .rev()
            .filter(|&r| counts[r as usize] == n)
            .collect()
    };
    let present: u16 = (0..13)
        .filter(|&r| counts[r] > 0)
        .fold(0, |m, r| m | 1 << r);
    let kickers = |skip: &[u8], n: usize| -> Vec<u8> {
        ranks_desc(present)
            .filter(|r| !skip.contains(r))
            .take(n)
            .collect()
    };
    let (quads, trips, pairs) = (with(4), with(3), with(2));
    if let Some(&q) = quads.first() {
        return Shape::new(Category::FourOfAKind, &[q, kickers(&[q], 1)[0]]);
    }
    if let Some(&t) = trips.first() {
        let pair = trips
            .get(1)
            .copied()
            .into_iter()
            .chain(pairs.first().copied())
            .max();
        if let Some(p) = pair {
            return Shape::new(Category::FullHouse, &[t, p]);
        }
    }
    if let Some(top) = straight_top(present) {
        return Shape::new(Category::Straight, &[top]);
    }
    if let Some(&t) = trips.first() {
        let k = kickers(&[t], 2);
        return Shape::new(Category::ThreeOfAKind, &[t, k[0], k[1]]);
    }
    if pairs.len() >= 2 {
        let (p, q) = (pairs[0], pairs[1]);
        return Shape::new(Category::TwoPair, &[p, q, kickers(&[p, q], 1)[0]]);
    }
    if let Some(&p) = pairs.first() {
        let k = kickers(&[p], 3);
        return Shape::new(Category::OnePair, &[p, k[0], k[1], k[2]]);
    }
    Shape::new(Category::HighCard, &kickers(&[], 5))
}

/// Every distinct five-card hand, weakest first (index + 1 = class).
fn all_shapes() -> Vec<Shape> {
    let mut shapes = Vec::with_capacity(NUM_CLASSES);
    for mask in 0u16..1 << 13 {
        if mask.count_ones() == 5 {
            let ranks: Vec<u8> = ranks_desc(mask).collect();
            match straight_top(mask) {
                Some(top) => {
                    shapes.push(Shape::new(Category::Straight, &[top]));
                    shapes.push(Shape::new(Category::StraightFlush, &[top]));
                }
                None => {
                    shapes.push(Shape::new(Category::HighCard, &ranks));
                    shapes.push(Shape::new(Category::Flush, &ranks));
                }
            }
        }
    }
    for a in 0..13u8 {
        for b in (0..13u8).filter(|&b| b != a) {
            shapes.push(Shape::new(Category::FourOfAKind, &[a, b]));
            shapes.push(Shape::new(Category::FullHouse, &[a, b]));
            if b < a {
                for c in (0..13u8).filter(|&c| c != a && c != b) {
                    shapes.push(Shape::new(Category::TwoPair, &[a, b, c]));
                }
            }
            for c in (0..b).filter(|&c| c != a) {
                shapes.push(Shape::new(Category::ThreeOfAKind, &[a, b, c]));
                for d in (0..c).filter(|&d| d != a) {
                    shapes.push(Shape::new(Category::OnePair, &[a, b, c, d]));
                }
            }
        }
    }
    shapes.sort_by_key(Shape::order_key);
    shapes
}

/// The shape of a three-card front hand (straights and flushes do not count).
fn front_shape_of(ranks: [u8; 3]) -> Shape {
    let mut r = ranks;
    r.sort_unstable_by(|a, b| b.cmp(a));
    if r[0] == r[2] {
        Shape::new(Category::ThreeOfAKind, &[r[0]])
    } else if r[0] == r[1] {
        Shape::new(Category::OnePair, &[r[0], r[2]])
    } else if r[1] == r[2] {
        Shape::new(Category::OnePair, &[r[1], r[0]])
    } else {
        Shape::new(Category::HighCard, &r)
    }
}

pub(super) struct Tables {
    /// Per perfect-hash row: the wrapping displacement added to the key.
    row_offsets: Box<[u32; HASH_ROWS]>,
    /// Class of each non-flush rank multiset of 5..=7 cards (0 = unused slot).
    rank_classes: Box<[u16; HASH_SLOTS]>,
    /// Class of each suited rank mask with at least five ranks.
    flush_classes: Box<[u16; 1 << 13]>,
    /// Shape of each class (index 0 unused).
    shapes: Box<[Shape]>,
    /// Front-hand value of each ordered rank triple `r0 * 169 + r1 * 13 + r2`.
    front_values: Box<[u32]>,
    /// Front-hand shapes by value.
    front_shapes: HashMap<u32, Shape>,
}

impl Tables {
    /// Classes of up to 64 hands of 5..=7 cards into `out`. The rank lookups of
    /// all hands go first, in one loop whose loads overlap; the few flush hands
    /// (about one in thirty) are redone after, where a branch per hand would be
    /// mispredicted on every flush.
    #[inline]
    pub(super) fn classes_of(&self, hands: &[HandKey], out: &mut [u16]) {
        debug_assert!(hands.len() <= 64);
        let mut flushes = 0u64;
        for (j, (hand, slot)) in hands.iter().zip(out.iter_mut()).enumerate() {
            *slot = self.rank_class((hand.key & RANK_BITS) as u32);
            flushes |= u64::from(hand.key & FLUSH_BITS != 0) << (j & 63);
        }
        while flushes != 0 {
            let j = flushes.trailing_zeros() as usize;
            flushes &= flushes - 1;
            if let (Some(&hand), Some(slot)) = (hands.get(j), out.get_mut(j)) {
                *slot = self.class_of(hand);
            }
        }
    }

    /// Class of the best five of a hand of 5..=7 cards.
    #[inline]
    pub(super) fn class_of(&self, hand: HandKey) -> u16 {
        let flush = hand.key & FLUSH_BITS;
        if flush != 0 {
            let suit = (flush.trailing_zeros() - SUIT_SHIFT - 3) >> 2;
            return self.flush_class((hand.mask >> (16 * suit)) as u16);
        }
        self.rank_class((hand.key & RANK_BITS) as u32)
    }

    /// Class of the best five of 5..=7 cards without a flush, from the sum of their
    /// [`RANK_KEYS`]; any other sum gives an unspecified class. No branches: the
    /// batch and enumeration loops keep many of these loads in flight at once.
    #[inline]
    pub(super) fn rank_class(&self, rank_key: u32) -> u16 {
        let offset = self.row_offsets[(rank_key >> ROW_SHIFT) as usize & (HASH_ROWS - 1)];
        self.rank_classes[(rank_key.wrapping_add(offset) as usize).min(HASH_SLOTS - 1)]
    }

    /// Class of the best five of the ranks of one suit (`mask` bit r = rank r),
    /// at least five of them.
    #[inline]
    pub(super) fn flush_class(&self, mask: u16) -> u16 {
        self.flush_classes[usize::from(mask & 0x1fff)]
    }

    fn class_shape(&self, rank: HandRank) -> Option<Shape> {
        self.shapes.get((rank.0 >> 8) as usize).copied()
    }

    fn front_shape(&self, rank: HandRank) -> Option<Shape> {
        self.front_shapes.get(&rank.0).copied()
    }

    fn build() -> Tables {
        let mut shapes = all_shapes();
        assert_eq!(shapes.len(), NUM_CLASSES);
        let class_by_shape: HashMap<Shape, u16> = shapes
            .iter()
            .enumerate()
            .map(|(i, s)| (*s, i as u16 + 1))
            .collect();

        let mut flush_classes = Box::new([0u16; 1 << 13]);
        for (mask, slot) in flush_classes.iter_mut().enumerate() {
            if (mask as u16).count_ones() >= 5 {
                *slot = class_by_shape[&flush_shape(mask as u16)];
            }
        }

        let mut entries: Vec<(u32, u16)> = Vec::new();
        let mut counts = [0u8; 13];
        collect_rank_multisets(0, 0, 0, &mut counts, &mut |key, counts| {
            entries.push((key, class_by_shape[&rank_count_shape(counts)]));
        });
        let (row_offsets, rank_classes) = perfect_hash(&entries);

        let (front_values, front_shapes) = front_tables(&shapes);
        shapes.insert(0, Shape::new(Category::HighCard, &[]));
        Tables {
            row_offsets,
            rank_classes,
            flush_classes,
            shapes: shapes.into_boxed_slice(),
            front_values,
            front_shapes,
        }
    }
}

/// Calls `found(key, counts)` for every rank multiset of 5..=7 cards (at most four
/// of a rank), in rank order from `rank` up.
fn collect_rank_multisets(
    rank: usize,
    cards: u32,
    key: u32,
    counts: &mut [u8; 13],
    found: &mut dyn FnMut(u32, &[u8; 13]),
) {
    if rank == 13 {
        if cards >= 5 {
            found(key, counts);
        }
        return;
    }
    for n in 0..=4u32.min(7 - cards) {
        counts[rank] = n as u8;
        collect_rank_multisets(
            rank + 1,
            cards + n,
            key + n * RANK_KEYS[rank],
            counts,
            found,
        );
    }
    counts[rank] = 0;
}

/// Row-displacement perfect hash: rows (the high key bits) are placed, fullest
/// first, at the lowest displacement where none of their columns collide.
fn perfect_hash(entries: &[(u32, u16)]) -> (Box<[u32; HASH_ROWS]>, Box<[u16; HASH_SLOTS]>) {
    let mut rows: Vec<Vec<(u32, u16)>> = vec![Vec::new(); HASH_ROWS];
    for &(key, class) in entries {
        rows[(key >> ROW_SHIFT) as usize].push((key & COLUMN_MASK, class));
    }
    let mut order: Vec<usize> = (0..HASH_ROWS).filter(|&r| !rows[r].is_empty()).collect();
    order.sort_by_key(|&r| std::cmp::Reverse(rows[r].len()));

    let mut table: Vec<u16> = Vec::new();
    let mut offsets = vec![0u32; HASH_ROWS];
    // Occupancy bitset: 64 candidate starts are tested at once by AND-ing the
    // free bits seen from each of the row's columns.
    let mut taken: Vec<u64> = Vec::new();
    let bits_at = |taken: &[u64], pos: usize| -> u64 {
        let (word, shift) = (pos / 64, pos % 64);
        let lo = taken.get(word).copied().unwrap_or(0) >> shift;
        let hi = match shift {
            0 => 0,
            _ => taken.get(word + 1).copied().unwrap_or(0) << (64 - shift),
        };
        lo | hi
    };
    let mut first_free = 0usize;
    for r in order {
        let row = &rows[r];
        let min_col = row.iter().map(|e| e.0).min().unwrap_or(0) as usize;
        let mut window = first_free.saturating_sub(min_col);
        let start = loop {
            let mut free = !0u64;
            for &(col, _) in row {
                free &= !bits_at(&taken, window + col as usize);
                if free == 0 {
                    break;
                }
            }
            if free != 0 {
                break window + free.trailing_zeros() as usize;
            }
            window += 64;
        };
        for &(col, class) in row {
            let at = start + col as usize;
            if at >= table.len() {
                table.resize(at + 1, 0);
                taken.resize(at / 64 + 1, 0);
            }
            taken[at / 64] |= 1 << (at % 64);
            table[at] = class;
        }
        while taken
            .get(first_free / 64)
            .is_some_and(|w| w >> (first_free % 64) & 1 == 1)
        {
            first_free += 1;
        }
        offsets[r] = (start as u32).wrapping_sub((r as u32) << ROW_SHIFT);
    }
    assert!(table.len() <= HASH_SLOTS, "{} hash slots", table.len());
    table.resize(HASH_SLOTS, 0);
    match (offsets.try_into(), table.try_into()) {
        (Ok(offsets), Ok(table)) => (offsets, table),
        _ => unreachable!("both tables were sized above"),
    }
}

/// Values of the 455 front-hand rank multisets: each lies below the weakest
/// five-card hand (`classes`, ascending) that beats it; fronts sharing that gap
/// count up from the gap's bottom.
fn front_tables(classes: &[Shape]) -> (Box<[u32]>, HashMap<u32, Shape>) {
    let mut by_successor: HashMap<usize, Vec<Shape>> = HashMap::new();
    for a in 0..13u8 {
        for b in 0..=a {
            for c in 0..=b {
                let shape = front_shape_of([a, b, c]);
                let key = shape.order_key();
                let successor = classes.partition_point(|s| s.order_key() < key);
                by_successor.entry(successor + 1).or_default().push(shape);
            }
        }
    }
    let mut front_shapes = HashMap::new();
    let mut value_of = HashMap::new();
    for (class, mut fronts) in by_successor {
        fronts.sort_by_key(Shape::order_key);
        let n = fronts.len() as u32;
        assert!(n < 256, "too many front hands share one gap");
        for (i, shape) in fronts.into_iter().enumerate() {
            let value = ((class as u32) << 8) - (n - i as u32);
            front_shapes.insert(value, shape);
            value_of.insert(shape, value);
        }
    }
    let mut front_values = vec![0u32; 13 * 13 * 13];
    for (i, slot) in front_values.iter_mut().enumerate() {
        let ranks = [(i / 169) as u8, (i / 13 % 13) as u8, (i % 13) as u8];
        *slot = value_of[&front_shape_of(ranks)];
    }
    (front_values.into_boxed_slice(), front_shapes)
}

pub(super) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::build)
}

/// Number of two-card sets of the 52-card pack.
const NUM_PAIRS: usize = 1326;

/// Every pair of cards `f < g`, in lexicographic order, with its key parts. The
/// pairs whose first card is at least `c` form the suffix from `start[c]`, so the
/// last two cards of an enumeration run as one flat loop (about fifty hands per
/// prefix for seven cards instead of seven per six-card prefix, whose loop exits
/// and prefix updates cost more than the lookups).
struct Pairs {
    /// Sum of the two cards' [`CARD_KEYS`] (no suit bias).
    keys: [u64; NUM_PAIRS],
    /// Union of the two cards' [`CARD_MASKS`].
    masks: [u64; NUM_PAIRS],
    /// Rank part of `keys`, for prefixes where no pair can make a flush.
    rank_keys: [u32; NUM_PAIRS],
    start: [usize; 53],
}

static PAIRS: Pairs = {
    let keys = card_keys();
    let masks = card_masks();
    let mut pairs = Pairs {
        keys: [0; NUM_PAIRS],
        masks: [0; NUM_PAIRS],
        rank_keys: [0; NUM_PAIRS],
        start: [NUM_PAIRS; 53],
    };
    let mut at = 0;
    let mut f = 0;
    while f < 52 {
        pairs.start[f] = at;
        let mut g = f + 1;
        while g < 52 {
            pairs.keys[at] = keys[f] + keys[g];
            pairs.masks[at] = masks[f] | masks[g];
            pairs.rank_keys[at] = RANK_KEYS[f >> 2] + RANK_KEYS[g >> 2];
            at += 1;
            g += 1;
        }
        f += 1;
    }
    pairs
};

/// Two more cards of every suit: a hand whose key stays clear of [`FLUSH_BITS`] after
/// adding it holds at most two cards of any suit, so two more cards cannot make a flush.
const TWO_OF_EACH_SUIT: u64 = 0x2222 << SUIT_SHIFT;

/// Calls `visit` with the rank of every `size`-card hand (5, 6 or 7) of the 52-card
/// pack, in lexicographic order of card indices.
///
/// Keys are built incrementally: each card of a prefix (all cards but the last two)
/// is added once for all hands sharing that prefix, and the last two cards come
/// from [`PAIRS`], so each hand costs one add and one lookup. When the prefix holds
/// at most two cards of every suit no pair can make a flush, and that loop only adds
/// the pair's rank key.
pub fn for_each_hand(size: usize, mut visit: impl FnMut(HandRank)) -> Result<()> {
    if !(5..=7).contains(&size) {
        return Err(EngineError::InvalidCard(format!(
            "hands to enumerate hold 5, 6 or 7 cards, not {size}"
        )));
    }
    let t = tables();
    let len = size - 2;
    // idx[d] is the index of prefix card d; prefix[d] the hand of cards 0..d.
    let mut idx = [0usize; 5];
    let mut prefix = [HandKey::EMPTY; 6];
    for d in 0..len {
        idx[d] = d;
        prefix[d + 1] = prefix[d].with(Card::from_index_unchecked(d as u8));
    }
    loop {
        let hand = prefix[len];
        let first = PAIRS.start[idx[len - 1] + 1];
        if (hand.key + TWO_OF_EACH_SUIT) & FLUSH_BITS == 0 {
            let base = (hand.key & RANK_BITS) as u32;
            for &k in &PAIRS.rank_keys[first..] {
                visit(HandRank::from_class(t.rank_class(base + k)));
            }
        } else {
            for (&key, &mask) in PAIRS.keys[first..].iter().zip(&PAIRS.masks[first..]) {
                let full = HandKey {
                    key: hand.key + key,
                    mask: hand.mask | mask,
                };
                visit(HandRank::from_class(t.class_of(full)));
            }
        }
        // Advance the deepest prefix card that still leaves room for the cards after
        // it (the pair included).
        let mut d = len - 1;
        loop {
            idx[d] += 1;
            if idx[d] + (size - d) <= 52 {
                break;
            }
            if d == 0 {
                return Ok(());
            }
            d -= 1;
        }
        for e in d + 1..len {
            idx[e] = idx[e - 1] + 1;
        }
        for e in d..len {
            prefix[e + 1] = prefix[e].with(Card::from_index_unchecked(idx[e] as u8));
        }
    }
}

/// Rank of five cards (distinct, no jokers: the caller guarantees it).
#[inline]
pub fn rank5(cards: [Card; 5]) -> HandRank {
    HandKey::from_cards(&cards).rank()
}

/// Rank of the best five of seven cards (distinct, no jokers: the caller guarantees it).
#[inline]
pub fn rank7(cards: [Card; 7]) -> HandRank {
    HandKey::from_cards(&cards).rank()
}

/// Rank of the best five of a set of 5..=7 cards without jokers (caller guarantees it).
#[inline]
pub fn rank_set(set: CardSet) -> HandRank {
    HandKey::from_set(set).rank()
}

/// Rank of a three-card Chinese Poker front hand: three of a kind, a pair or high
/// cards; straights and flushes do not count. Same scale as five-card ranks, with
/// the two missing cards lower than any card: front `5 5 K` is below `5 5 K 3 2`
/// and above `5 5 Q J T`. Cards must be distinct and not jokers (caller guarantees it).
#[inline]
pub fn rank_front(cards: [Card; 3]) -> HandRank {
    let r = |i: usize| usize::from(cards[i].rank().min(12));
    let value = tables()
        .front_values
        .get(r(0) * 169 + r(1) * 13 + r(2))
        .copied()
        .unwrap_or(0);
    HandRank(value)
}

/// Checks that `cards` form a poker hand: 3, 5, 6 or 7 distinct cards, no joker.
fn validate(cards: &[Card]) -> Result<()> {
    if !matches!(cards.len(), 3 | 5..=7) {
        return Err(EngineError::InvalidCard(format!(
            "a poker hand needs 3, 5, 6 or 7 cards, got {}: {}",
            cards.len(),
            show(cards)
        )));
    }
    if let Some(j) = cards.iter().find(|c| c.is_joker()) {
        return Err(EngineError::InvalidCard(format!(
            "jokers do not play in poker: {j} in {}",
            show(cards)
        )));
    }
    let mut seen = CardSet::EMPTY;
    for &c in cards {
        if !seen.insert(c) {
            return Err(EngineError::InvalidCard(format!(
                "duplicate card {c} in {}",
                show(cards)
            )));
        }
    }
    Ok(())
}

fn show(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Rank of 3 (front hand), 5, 6 or 7 distinct non-joker cards.
pub fn rank_cards(cards: &[Card]) -> Result<HandRank> {
    validate(cards)?;
    Ok(match cards {
        [a, b, c] => rank_front([*a, *b, *c]),
        _ => HandKey::from_cards(cards).rank(),
    })
}

/// The rank and the cards that make it: the best five (the three cards of a front
/// hand), ordered as they decide ties (`Kh Kd Ks 5c 5d`, wheels as `5 4 3 2 A`).
/// Among equal best fives, the one with the highest cards (by index) is chosen.
pub fn best_five(cards: &[Card]) -> Result<(HandRank, Vec<Card>)> {
    let rank = rank_cards(cards)?;
    let mut best: Vec<Card> = if cards.len() == 3 {
        cards.to_vec()
    } else {
        // Several fives can make the same rank (two sets of trips, a six-card
        // flush with a pair, ...): keep the one with the highest cards by index,
        // so the choice never depends on the input order.
        let mut sorted = cards.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        let n = sorted.len();
        let mut found: Vec<Card> = Vec::new();
        for keep in 0u32..1 << n {
            if keep.count_ones() == 5 {
                let five: Vec<Card> = (0..n)
                    .filter(|i| keep & (1 << i) != 0)
                    .map(|i| sorted[i])
                    .collect();
                if HandKey::from_cards(&five).rank() == rank && five > found {
                    found = five;
                }
            }
        }
        found
    };
    let count = |c: &Card| best.iter().filter(|d| d.rank() == c.rank()).count();
    let counts: Vec<(usize, Card)> = best.iter().map(|c| (count(c), *c)).collect();
    let mut order = counts;
    order.sort_by(|a, b| b.cmp(a));
    best = order.into_iter().map(|(_, c)| c).collect();
    let wheel = matches!(
        rank.category(),
        Category::Straight | Category::StraightFlush
    ) && rank.tiebreak_ranks() == [3];
    if wheel {
        best.rotate_left(1);
    }
    Ok((rank, best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::rng::CardRng;

    fn rank(text: &str) -> HandRank {
        rank_cards(&parse_cards(text).unwrap()).unwrap()
    }

    #[test]
    fn rank_keys_are_unique_for_up_to_seven_cards() {
        fn walk(rank: usize, cards: u32, key: u32, seen: &mut std::collections::HashSet<u32>) {
            if rank == 13 {
                assert!(seen.insert(key), "duplicate key {key}");
                return;
            }
            for n in 0..=4u32.min(7 - cards) {
                walk(rank + 1, cards + n, key + n * RANK_KEYS[rank], seen);
            }
        }
        let mut seen = std::collections::HashSet::new();
        walk(0, 0, 0, &mut seen);
        assert_eq!(seen.len(), 76155);
    }

    #[test]
    fn tables_stay_compact() {
        let t = tables();
        let bytes = t.row_offsets.len() * 4 + t.rank_classes.len() * 2 + t.flush_classes.len() * 2;
        assert!(bytes < 300_000, "{bytes} bytes");
        // The fixed class-table length is what the displacement search fills.
        let used = t
            .rank_classes
            .iter()
            .rposition(|&c| c != 0)
            .map_or(0, |i| i + 1);
        assert!(HASH_SLOTS - used < 64, "{used} of {HASH_SLOTS} slots used");
    }

    #[test]
    fn category_boundaries_match_the_shapes() {
        let shapes = all_shapes();
        for (i, s) in shapes.iter().enumerate() {
            assert_eq!(
                Category::of_class(i as u32 + 1),
                s.category,
                "class {}",
                i + 1
            );
        }
    }

    /// Hands per class over every `size`-card hand.
    fn class_histogram(size: usize) -> Vec<u64> {
        let mut seen = vec![0u64; NUM_CLASSES + 1];
        for_each_hand(size, |r| seen[r.class().unwrap_or(0) as usize] += 1).unwrap();
        seen
    }

    fn per_category(histogram: &[u64]) -> [u64; 9] {
        let mut counts = [0u64; 9];
        for (class, &n) in histogram.iter().enumerate().skip(1) {
            counts[Category::of_class(class as u32) as usize] += n;
        }
        counts
    }

    #[test]
    fn all_five_card_hands_give_7462_ranks() {
        let seen = class_histogram(5);
        assert_eq!(seen[0], 0);
        assert_eq!(seen.iter().filter(|&&n| n > 0).count(), 7462);
        assert_eq!(
            per_category(&seen),
            [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]
        );
    }

    #[test]
    fn all_seven_card_hands_give_the_known_category_counts() {
        let seen = class_histogram(7);
        assert_eq!(seen[0], 0);
        assert_eq!(
            per_category(&seen),
            [
                23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
                224_848, 41_584
            ]
        );
    }

    #[test]
    fn enumeration_visits_hands_in_order_with_their_ranks() {
        // The rank-only shortcut of the last card must agree with full evaluation.
        let mut hands = Vec::new();
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        for e in d + 1..52 {
                            let five = [a, b, c, d, e].map(Card::from_index_unchecked);
                            hands.push(rank5(five));
                        }
                    }
                }
            }
        }
        let mut at = 0;
        for_each_hand(5, |r| {
            assert_eq!(r, hands[at], "hand {at}");
            at += 1;
        })
        .unwrap();
        assert_eq!(at, 2_598_960);
        let mut six = 0u64;
        for_each_hand(6, |_| six += 1).unwrap();
        assert_eq!(six, 20_358_520);
        assert!(for_each_hand(4, |_| {}).is_err());
    }

    /// Independent reference: best of all five-card subsets, each classified from
    /// scratch by counting ranks and suits.
    fn reference(cards: &[Card]) -> (Category, Vec<u8>) {
        let n = cards.len();
        let mut best: Option<(Category, Vec<i8>)> = None;
        for skip in 0u32..1 << n {
            if skip.count_ones() as usize != n - 5 {
                continue;
            }
            let five: Vec<Card> = (0..n)
                .filter(|i| skip & (1 << i) == 0)
                .map(|i| cards[i])
                .collect();
            let mut counts = [0u8; 13];
            for c in &five {
                counts[c.rank() as usize] += 1;
            }
            let flush = five.iter().all(|c| c.suit() == five[0].suit());
            let shape = if flush {
                let mask = five.iter().fold(0u16, |m, c| m | 1 << c.rank());
                flush_shape(mask)
            } else {
                rank_count_shape(&counts)
            };
            let key = shape.order_key();
            let cand = (key.0, key.1.to_vec());
            if best.as_ref().is_none_or(|b| cand > *b) {
                best = Some(cand);
            }
        }
        let (cat, ranks) = best.unwrap();
        (
            cat,
            ranks
                .into_iter()
                .filter(|&r| r >= 0)
                .map(|r| r as u8)
                .collect(),
        )
    }

    #[test]
    fn random_hands_match_the_subset_reference() {
        let mut rng = CardRng::new(11);
        let mut deck: Vec<Card> = (0..52).map(Card::from_index_unchecked).collect();
        for round in 0..20_000 {
            rng.shuffle(&mut deck);
            let n = 5 + round % 3;
            let r = rank_cards(&deck[..n]).unwrap();
            let (cat, ranks) = reference(&deck[..n]);
            assert_eq!(r.category(), cat, "{}", show(&deck[..n]));
            assert_eq!(r.tiebreak_ranks(), ranks, "{}", show(&deck[..n]));
        }
    }

    #[test]
    fn fast_paths_agree() {
        let mut rng = CardRng::new(5);
        let mut deck: Vec<Card> = (0..52).map(Card::from_index_unchecked).collect();
        for _ in 0..2000 {
            rng.shuffle(&mut deck);
            let seven: [Card; 7] = deck[..7].try_into().unwrap();
            let five: [Card; 5] = deck[..5].try_into().unwrap();
            assert_eq!(rank7(seven), rank_cards(&seven).unwrap());
            assert_eq!(rank_set(CardSet::from_cards(seven)), rank7(seven));
            assert_eq!(rank5(five), rank_cards(&five).unwrap());
        }
    }

    #[test]
    fn categories_and_ties() {
        // PKR-01, PKR-02: royal flush, and two royals split.
        assert_eq!(rank("AsKsQsJsTs").describe(), "Royal Flush");
        assert_eq!(rank("AsKsQsJsTs"), rank("AhKhQhJhTh"));
        // PKR-03, PKR-04: straight flushes by their top card.
        assert_eq!(rank("9h8h7h6h5h").category(), Category::StraightFlush);
        assert!(rank("Th9h8h7h6h") > rank("9c8c7c6c5c"));
        // PKR-05, PKR-06, PKR-07: quads, then the kicker.
        assert_eq!(rank("7c7d7h7s2c").category(), Category::FourOfAKind);
        assert!(rank("8c8d8h8s2c") > rank("7c7d7h7sAc"));
        assert!(rank("7c7d7h7sKc 2d 3d") > rank("7c7d7h7sQc 2d 3d"));
        // PKR-08, PKR-09, PKR-10: full house by trips, then the pair.
        assert_eq!(
            rank("KcKdKh5s5c").describe(),
            "Full House, Kings full of Fives"
        );
        assert!(rank("KcKdKh2s2c") > rank("QcQdQhAsAc"));
        assert!(rank("KcKdKh6s6c") > rank("KcKdKh5s5c"));
        // PKR-11, PKR-12, PKR-13: flushes card by card down to the fifth.
        assert_eq!(rank("Ah9h7h4h2h").category(), Category::Flush);
        assert!(rank("Ah9h7h4h3h") > rank("As9s7s4s2s"));
        assert_eq!(rank("Ah9h7h4h2h"), rank("Ac9c7c4c2c"));
        // PKR-14, PKR-15, PKR-16: straights by top card, the ace high or low.
        assert_eq!(rank("Ac2d3h4s5c").describe(), "Straight, Five high");
        assert!(rank("2c3d4h5s6c") > rank("Ac2d3h4s5c"));
        assert_eq!(rank("AcKdQhJsTc").describe(), "Straight, Ace high");
        assert_eq!(rank("QcKdAh2s3c").category(), Category::HighCard);
        // PKR-17, PKR-18, PKR-19: trips, then side cards.
        assert!(rank("9c9d9hAsKc") < rank("TcTdTh3s2c"));
        assert!(rank("9c9d9hAsQc") > rank("9c9d9hKsQc"));
        assert!(rank("9c9d9hAsQc") > rank("9c9d9hAsJc"));
        // PKR-20 .. PKR-23: two pair.
        assert!(rank("AcAd2h2s3c") > rank("KcKdQhQsJc"));
        assert!(rank("AcAd3h3s2c") > rank("AcAd2h2sKc"));
        assert!(rank("AcAd3h3s5c") > rank("AsAh3d3c4c"));
        assert_eq!(rank("AcAd3h3s5c").describe(), "Two Pair, Aces and Threes");
        // PKR-24 .. PKR-26: one pair, then three kickers.
        assert_eq!(rank("AcAd9h7s5c").describe(), "Pair of Aces");
        assert!(rank("AcAd4h3s2c") > rank("KcKdAhQsJc"));
        assert!(rank("AcAdKh3s2c") > rank("AsAhQdJcTc"));
        assert!(rank("AcAdKhQs3c") > rank("AsAhKdQc2c"));
        // PKR-27: high card, down to the smallest card; suits never break ties.
        assert!(rank("AcJd9h7s4c") > rank("AsJh9d7c3c"));
        assert_eq!(rank("AcJd9h7s4c"), rank("AsJh9d7c4d"));
        assert_eq!(rank("AcJd9h7s4c").describe(), "High Card, Ace");
    }

    #[test]
    fn front_hands_share_the_scale() {
        // Missing cards count below any card: 55K < 55K32, and 55K > 55QJT.
        assert!(rank("5c5dKh") < rank("5s5hKd3c2c"));
        assert!(rank("5c5dKh") > rank("5s5hQdJcTc"));
        assert_eq!(rank("5c5dKh").category(), Category::OnePair);
        // Straights and flushes do not count in front.
        assert_eq!(rank("AhKhQh").category(), Category::HighCard);
        assert_eq!(rank("2c3c4c").describe(), "High Card, Four");
        assert_eq!(rank("AcAdAh").describe(), "Three of a Kind, Aces");
        assert!(rank("AcAdAh") < rank("AsAhAd2c3c"));
        assert!(rank("AcAdAh") > rank("KsKhKdAcQc"));
        // Fronts sharing a gap stay ordered: 2 2 3 < 2 2 4 < 2 2 5 < 2 2 5 4 3.
        assert!(rank("2c2d3h") < rank("2c2d4h"));
        assert!(rank("2c2d4h") < rank("2c2d5h"));
        assert!(rank("2c2d5h") < rank("2s2h5d4c3c"));
        assert!(rank("2c2d3h") > rank("AcKdQhJs9c"));
        assert!(rank("4c3d2h") < rank("7c5d4h3s2c"));
        // The 16 weakest fronts (4 3 2 up to 7 5 4) all sit below 7 5 4 3 2, class 1.
        assert_eq!(rank("4c3d2h").value(), 256 - 16);
        assert_eq!(rank("7c5d4h").value(), 255);
    }

    #[test]
    fn every_front_hand_has_its_own_value() {
        let mut values = Vec::new();
        for a in 0..13u8 {
            for b in 0..=a {
                for c in 0..=b {
                    let cards = [Card::new(a, 0), Card::new(b, 1), Card::new(c, 2)];
                    let r = rank_front(cards);
                    assert_eq!(HandRank::from_value(r.value()), Some(r));
                    values.push(r.value());
                }
            }
        }
        values.sort_unstable();
        values.dedup();
        assert_eq!(values.len(), 455);
    }

    #[test]
    fn invalid_hands_are_typed_errors() {
        let cards = |t: &str| parse_cards(t).unwrap();
        for (text, needle) in [
            ("AsKs", "needs 3, 5, 6 or 7 cards, got 2"),
            ("AsKsQsJs", "got 4"),
            ("AsKsQsJsTs9s8s7s", "got 8"),
            ("AsAsQsJsTs", "duplicate card As"),
            ("AsKsQsJsBJ", "jokers"),
        ] {
            match rank_cards(&cards(text)) {
                Err(EngineError::InvalidCard(m)) => assert!(m.contains(needle), "{m}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        assert!(best_five(&cards("AsAs3d")).is_err());
    }

    #[test]
    fn best_five_orders_by_significance() {
        let (r, five) = best_five(&parse_cards("5c Kh 2d Kd 5d Ks 9c").unwrap()).unwrap();
        assert_eq!(r.category(), Category::FullHouse);
        assert_eq!(show(&five), "Ks Kh Kd 5d 5c");
        let (_, wheel) = best_five(&parse_cards("Ac 2d 3h 4s 5c Kd Kh").unwrap()).unwrap();
        assert_eq!(show(&wheel), "5c 4s 3h 2d Ac");
    }
}
