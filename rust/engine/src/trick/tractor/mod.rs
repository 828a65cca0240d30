//! Tractor (拖拉机 / 升级): the trump order, effective suits, play shapes (single,
//! pair, tractor), follow legality and trick winners of the Tractor section of the
//! French-54 rule text (TRC-21..TRC-39), played with two packs.
//!
//! The trick core's [`CardSet`](crate::cardset::CardSet) holds one pack, so a
//! Tractor hand is a multiset of the 54 card types kept as two bit sets: `one`
//! (types held at least once) and `two` (types held twice). Bit `i` is card index
//! `i` (`rank * 4 + suit`, then the black joker 52 and the red joker 53), so
//! counting a suit or the pairs in it is a mask and a popcount.
//!
//! Trumps and the order inside each effective suit depend on the deal's level rank
//! and trump suit ([`Trumps`]). Each card type has a *class* (0..=3 its side suit,
//! [`TRUMP`] for trumps) and a *position*: consecutive positions are consecutive
//! strengths, which is all tractors and comparisons need. Side suits hold the
//! twelve ranks but the level rank at positions 0..=11 (the gap closed, TRC-26);
//! trumps hold the trump suit's twelve ranks (0..=11), the other level cards all at
//! 12 (equal, TRC-27), the trump suit's level card 13, the black joker 14 and the
//! red joker 15 (TRC-22). At no-trump the level cards are at 0, the jokers 1 and 2.
//!
//! Follows are chosen one card at a time (see [`Follow`]): the set of legal card
//! multisets of a follow can run to hundreds of thousands when a follower is void,
//! while the cards that keep a partial follow completable are at most 54.

pub mod deal;
pub mod declare;
pub mod endgame;
pub mod observe;
pub mod round;

use crate::cards::{Card, NUM_CARDS, SUIT_CHARS};
use crate::error::{quoted, EngineError, Result};

/// The trump class.
pub const TRUMP: u8 = 4;
/// Effective suits: four side suits and trumps.
pub const CLASSES: usize = 5;
/// Positions inside an effective suit (trumps with a trump suit use all 16).
pub const POSITIONS: usize = 16;
/// The longest tractor a 25-card hand can lead: twelve pairs.
pub const MAX_TRACTOR: usize = 12;
/// The level ranks, `2..A`.
pub const LEVEL_TEXT: &str = "23456789TJQKA";

/// A multiset of card types with at most two copies of each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    /// Types held at least once.
    pub one: u64,
    /// Types held twice (a subset of `one`).
    pub two: u64,
}

impl Hand {
    /// No cards.
    pub const EMPTY: Hand = Hand { one: 0, two: 0 };

    /// The multiset of `cards`; a third copy of a type is an error (two packs).
    pub fn from_cards(cards: &[Card]) -> Result<Hand> {
        let mut hand = Hand::EMPTY;
        for &c in cards {
            if !hand.add(c) {
                return Err(EngineError::InvalidCard(format!(
                    "a Tractor hand holds at most two of {c}: there are two packs"
                )));
            }
        }
        Ok(hand)
    }

    /// Add one copy of `card`; false (and no change) if two are held already.
    #[inline]
    pub fn add(&mut self, card: Card) -> bool {
        let bit = 1u64 << card.index();
        if self.two & bit != 0 {
            return false;
        }
        if self.one & bit != 0 {
            self.two |= bit;
        } else {
            self.one |= bit;
        }
        true
    }

    /// Take one copy of `card` out; false (and no change) if none is held.
    #[inline]
    pub fn take(&mut self, card: Card) -> bool {
        let bit = 1u64 << card.index();
        if self.two & bit != 0 {
            self.two &= !bit;
        } else if self.one & bit != 0 {
            self.one &= !bit;
        } else {
            return false;
        }
        true
    }

    /// Copies of `card` held (0, 1 or 2).
    #[inline]
    pub fn count(&self, card: Card) -> u8 {
        let i = card.index();
        ((self.one >> i) & 1) as u8 + ((self.two >> i) & 1) as u8
    }

    /// Cards held.
    #[inline]
    pub fn len(&self) -> u32 {
        self.one.count_ones() + self.two.count_ones()
    }

    /// True when no card is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.one == 0
    }

    /// The cards of `mask` (a set of types) in this hand.
    #[inline]
    pub fn within(&self, mask: u64) -> Hand {
        Hand {
            one: self.one & mask,
            two: self.two & mask,
        }
    }

    /// Cards held among the types of `mask`.
    #[inline]
    pub fn count_in(&self, mask: u64) -> u32 {
        (self.one & mask).count_ones() + (self.two & mask).count_ones()
    }

    /// Both multisets together, or `None` if a type would exceed two copies.
    #[inline]
    pub fn plus(&self, other: &Hand) -> Option<Hand> {
        if self.two & other.one != 0 || self.one & other.two != 0 {
            return None;
        }
        Some(Hand {
            one: self.one | other.one,
            two: self.two | other.two | (self.one & other.one),
        })
    }

    /// This multiset without `other`, or `None` if `other` is not part of it.
    #[inline]
    pub fn minus(&self, other: &Hand) -> Option<Hand> {
        if !self.holds(other) {
            return None;
        }
        // One copy taken from a type held twice leaves one; any other removal
        // empties the type.
        let single = other.one & !other.two;
        Some(Hand {
            one: self.one & !other.two & !(single & !self.two),
            two: self.two & !other.one,
        })
    }

    /// True when every card of `other` is held (with its copies).
    #[inline]
    pub fn holds(&self, other: &Hand) -> bool {
        other.one & !self.one == 0 && other.two & !self.two == 0
    }

    /// The cards in card-index order, two copies twice.
    pub fn cards(&self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.len() as usize);
        let mut bits = self.one;
        while bits != 0 {
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let card = Card::from_index_unchecked(i);
            out.push(card);
            if self.two >> i & 1 != 0 {
                out.push(card);
            }
        }
        out
    }

    /// Card points held: 5s count 5, tens and kings 10 (TRC-40, TRC-41).
    pub fn points(&self) -> u32 {
        const FIVES: u64 = 0xF << 12;
        const TENS_KINGS: u64 = (0xF << 32) | (0xF << 44);
        5 * self.count_in(FIVES) + 10 * self.count_in(TENS_KINGS)
    }
}

/// The trumps of a deal: its level rank and trump suit (`None` at no-trump), with
/// each card type's class and position worked out once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trumps {
    /// The level rank, 0..=12 for `2..A`.
    pub level: u8,
    /// The trump suit, `None` at no-trump (TRC-15).
    pub suit: Option<u8>,
    class: [u8; NUM_CARDS],
    pos: [u8; NUM_CARDS],
    /// Card types of each class.
    masks: [u64; CLASSES],
    /// Card types at each class and position (several only at the level tier).
    at: [[u64; POSITIONS]; CLASSES],
    /// Positions used in each class.
    len: [u8; CLASSES],
}

impl Trumps {
    /// The trumps at `level` (0..=12) with trump suit `suit` (0..=3, `None` for no-trump).
    pub fn new(level: u8, suit: Option<u8>) -> Result<Trumps> {
        if level > 12 {
            return Err(EngineError::RuleOption(format!(
                "level {level} is not a rank index 0-12"
            )));
        }
        if suit.is_some_and(|s| s > 3) {
            return Err(EngineError::RuleOption(format!(
                "trump suit {suit:?} is not 0-3 (c, d, h, s)"
            )));
        }
        let mut t = Trumps {
            level,
            suit,
            class: [0; NUM_CARDS],
            pos: [0; NUM_CARDS],
            masks: [0; CLASSES],
            at: [[0; POSITIONS]; CLASSES],
            len: [0; CLASSES],
        };
        let place = |t: &mut Trumps, card: Card, class: u8, pos: u8| {
            let i = usize::from(card.index());
            t.class[i] = class;
            t.pos[i] = pos;
            t.masks[usize::from(class)] |= 1 << i;
            t.at[usize::from(class)][usize::from(pos)] |= 1 << i;
            let len = &mut t.len[usize::from(class)];
            *len = (*len).max(pos + 1);
        };
        for s in 0..4u8 {
            let class = if Some(s) == suit { TRUMP } else { s };
            for (p, rank) in (0..13u8).filter(|&r| r != level).enumerate() {
                place(&mut t, Card::new(rank, s), class, p as u8);
            }
        }
        let tier = if suit.is_some() { 12 } else { 0 };
        for s in 0..4u8 {
            let top = Some(s) == suit;
            place(&mut t, Card::new(level, s), TRUMP, tier + u8::from(top));
        }
        let joker = if suit.is_some() { 14 } else { 1 };
        place(&mut t, Card::BLACK_JOKER, TRUMP, joker);
        place(&mut t, Card::RED_JOKER, TRUMP, joker + 1);
        Ok(t)
    }

    /// The class of `card`: its side suit 0..=3, or [`TRUMP`] (TRC-23, TRC-29).
    #[inline]
    pub fn class(&self, card: Card) -> u8 {
        self.class[usize::from(card.index())]
    }

    /// The position of `card` inside its class (higher is stronger).
    #[inline]
    pub fn position(&self, card: Card) -> u8 {
        self.pos[usize::from(card.index())]
    }

    /// The card types of `class`.
    #[inline]
    pub fn mask(&self, class: u8) -> u64 {
        self.masks[usize::from(class)]
    }

    /// The card types at `position` of `class`.
    #[inline]
    pub fn at(&self, class: u8, position: u8) -> u64 {
        self.at[usize::from(class)][usize::from(position)]
    }

    /// Whether `card` is a trump.
    #[inline]
    pub fn is_trump(&self, card: Card) -> bool {
        self.class(card) == TRUMP
    }
}

/// What a play is: a single, a pair of identical cards, or a tractor of `pairs`
/// consecutive identical pairs (TRC-25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Single,
    Pair,
    Tractor(u8),
}

impl Kind {
    /// Cards the shape takes.
    #[inline]
    pub fn size(self) -> u32 {
        match self {
            Kind::Single => 1,
            Kind::Pair => 2,
            Kind::Tractor(n) => 2 * u32::from(n),
        }
    }

    /// Pairs in the shape (what a follower must match as far as it can, TRC-30).
    #[inline]
    pub fn pairs(self) -> u32 {
        self.size() / 2
    }

    /// `single`, `pair` or `tractor`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Tractor(_) => "tractor",
        }
    }
}

/// A play with a shape: its kind, class, lowest position and cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    pub kind: Kind,
    pub class: u8,
    /// The lowest position it covers (positions rise by one per pair of a tractor).
    pub low: u8,
    pub cards: Hand,
}

impl Shape {
    /// The highest position the play covers.
    #[inline]
    pub fn top(&self) -> u8 {
        match self.kind {
            Kind::Tractor(n) => self.low + n - 1,
            _ => self.low,
        }
    }
}

/// The shape of `cards` under `trumps`: a single, a pair of one card type, or
/// identical pairs at consecutive positions of one class; `None` for anything else
/// (two different cards, disconnected pairs, off-suit level pairs side by side).
pub fn shape_of(cards: &Hand, trumps: &Trumps) -> Option<Shape> {
    if cards.is_empty() {
        return None;
    }
    let first = Card::from_index_unchecked(cards.one.trailing_zeros() as u8);
    let class = trumps.class(first);
    if cards.one & !trumps.mask(class) != 0 {
        return None;
    }
    let n = cards.one.count_ones();
    if n == 1 {
        let kind = if cards.two != 0 {
            Kind::Pair
        } else {
            Kind::Single
        };
        return Some(Shape {
            kind,
            class,
            low: trumps.position(first),
            cards: *cards,
        });
    }
    if cards.two != cards.one || n as usize > MAX_TRACTOR {
        return None;
    }
    // n pairs of distinct types: a tractor when they sit at n consecutive
    // positions, one type per position (two level-tier pairs share a position).
    let mut low = u8::MAX;
    let mut seen = 0u32;
    let mut bits = cards.one;
    while bits != 0 {
        let card = Card::from_index_unchecked(bits.trailing_zeros() as u8);
        bits &= bits - 1;
        let p = trumps.position(card);
        if seen >> p & 1 != 0 {
            return None;
        }
        seen |= 1 << p;
        low = low.min(p);
    }
    if seen >> low != (1u32 << n) - 1 {
        return None;
    }
    Some(Shape {
        kind: Kind::Tractor(n as u8),
        class,
        low,
        cards: *cards,
    })
}

/// Every lead `hand` allows (TRC-25): each card type as a single, each pair, each
/// tractor (every run of two or more consecutive pairs of a class, each choice of
/// level-tier card its own tractor). Pushed onto `out` in that order.
pub fn leads_into(hand: &Hand, trumps: &Trumps, out: &mut Vec<Shape>) {
    let mut bits = hand.one;
    while bits != 0 {
        let card = Card::from_index_unchecked(bits.trailing_zeros() as u8);
        bits &= bits - 1;
        let one = Hand {
            one: 1 << card.index(),
            two: 0,
        };
        out.push(Shape {
            kind: Kind::Single,
            class: trumps.class(card),
            low: trumps.position(card),
            cards: one,
        });
    }
    let mut bits = hand.two;
    while bits != 0 {
        let card = Card::from_index_unchecked(bits.trailing_zeros() as u8);
        bits &= bits - 1;
        let bit = 1 << card.index();
        out.push(Shape {
            kind: Kind::Pair,
            class: trumps.class(card),
            low: trumps.position(card),
            cards: Hand { one: bit, two: bit },
        });
    }
    tractors(hand, trumps, &mut |shape| out.push(shape));
}

/// Call `found` with every tractor `hand` can lead.
pub fn tractors(hand: &Hand, trumps: &Trumps, found: &mut impl FnMut(Shape)) {
    if hand.two.count_ones() < 2 {
        return;
    }
    for class in 0..CLASSES as u8 {
        let pairs = hand.two & trumps.mask(class);
        if pairs.count_ones() < 2 {
            continue;
        }
        let len = trumps.len[usize::from(class)];
        for low in 0..len {
            tractors_from(pairs, trumps, class, low, low, 0, found);
        }
    }
}

/// Extend a run of pairs from `low` whose next position is `next`, with the pair
/// types `taken` so far, reporting every run of two or more pairs.
fn tractors_from(
    pairs: u64,
    trumps: &Trumps,
    class: u8,
    low: u8,
    next: u8,
    taken: u64,
    found: &mut impl FnMut(Shape),
) {
    if usize::from(next) >= POSITIONS {
        return;
    }
    let mut here = pairs & trumps.at(class, next);
    while here != 0 {
        let bit = here & here.wrapping_neg();
        here &= here - 1;
        let run = taken | bit;
        let n = run.count_ones();
        if n as usize > MAX_TRACTOR {
            return;
        }
        if n >= 2 {
            found(Shape {
                kind: Kind::Tractor(n as u8),
                class,
                low,
                cards: Hand { one: run, two: run },
            });
        }
        tractors_from(pairs, trumps, class, low, next + 1, run, found);
    }
}

/// What a follower must do for a lead: play `size` cards; as many of them as it
/// can from `class`; and among those at least `pairs` identical pairs where it
/// holds them (TRC-28..TRC-33).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Follow {
    pub size: u32,
    pub class_mask: u64,
    pub pairs: u32,
}

impl Follow {
    /// The duty of a follower of `lead`.
    pub fn of(lead: &Shape, trumps: &Trumps) -> Follow {
        Follow {
            size: lead.kind.size(),
            class_mask: trumps.mask(lead.class),
            pairs: lead.kind.pairs(),
        }
    }

    /// Whether the cards `chosen` so far (held in `hand`, which still includes
    /// them) can be completed to a legal follow. A complete legal follow is one of
    /// `size` cards for which this holds.
    pub fn completable(&self, hand: &Hand, chosen: &Hand) -> bool {
        let e = self.class_mask;
        let held = hand.count_in(e);
        let must = held.min(self.size);
        let in_suit = chosen.count_in(e);
        let outside = chosen.len() - in_suit;
        if in_suit > must || outside > self.size - must {
            return false;
        }
        // TRC-30: the most pairs the follow can still reach in the led suit,
        // completing single copies first (one card per pair), then fresh pairs.
        let need = self.pairs.min((hand.two & e).count_ones());
        let have = (chosen.two & e).count_ones();
        if have >= need {
            return true;
        }
        let room = must - in_suit;
        let halves = (chosen.one & !chosen.two & hand.two & e).count_ones();
        let fresh = (hand.two & !chosen.one & e).count_ones();
        let completed = halves.min(room);
        have + completed + fresh.min((room - completed) / 2) >= need
    }

    /// The card types that keep `chosen` completable when added (`hand` holds the
    /// chosen cards too), as a bit set.
    pub fn next_cards(&self, hand: &Hand, chosen: &Hand) -> u64 {
        if chosen.len() >= self.size {
            return 0;
        }
        let e = self.class_mask;
        // Types with a copy not chosen yet.
        let free = (hand.two & !chosen.two) | (hand.one & !hand.two & !chosen.one);
        // The rules tell apart only four kinds of card, so one test per kind: a card
        // of another suit; in the led suit, the second copy of a chosen card, the
        // first of two held, or a card held once.
        let kinds = [
            free & !e,
            free & e & chosen.one,
            free & e & hand.two & !chosen.one,
            free & e & !hand.two,
        ];
        let mut out = 0u64;
        for kind in kinds {
            if kind == 0 {
                continue;
            }
            let mut next = *chosen;
            next.add(Card::from_index_unchecked(kind.trailing_zeros() as u8));
            if self.completable(hand, &next) {
                out |= kind;
            }
        }
        out
    }

    /// Whether `cards` (all held in `hand`) are a legal follow.
    pub fn allows(&self, hand: &Hand, cards: &Hand) -> bool {
        cards.len() == self.size && hand.holds(cards) && self.completable(hand, cards)
    }
}

/// How strong `play` is as an answer to `lead` (TRC-35..TRC-38): `None` when it
/// cannot win (another shape, a mixed or off-suit play), else `(trump, top)` to
/// compare, higher winning and the earlier play keeping ties (TRC-24).
pub fn answer_strength(play: &Hand, lead: &Shape, trumps: &Trumps) -> Option<(bool, u8)> {
    let shape = shape_of(play, trumps)?;
    if shape.kind != lead.kind || (shape.class != lead.class && shape.class != TRUMP) {
        return None;
    }
    Some((shape.class == TRUMP, shape.top()))
}

/// The index (in play order) of the play that wins a trick led by `plays[0]`.
pub fn trick_winner(plays: &[Hand], trumps: &Trumps) -> usize {
    let Some(lead) = plays.first().and_then(|p| shape_of(p, trumps)) else {
        return 0;
    };
    let mut best = (lead.class == TRUMP, lead.top());
    let mut winner = 0;
    for (i, play) in plays.iter().enumerate().skip(1) {
        if let Some(s) = answer_strength(play, &lead, trumps) {
            if s > best {
                best = s;
                winner = i;
            }
        }
    }
    winner
}

// -- the fixed action index -------------------------------------------------------

/// `pass` while declaring.
pub const PASS_ID: u32 = 0;
/// `declare <level card>` by suit (c, d, h, s).
pub const DECLARE_SINGLE: u32 = 1;
/// `declare <level card><level card>` by suit.
pub const DECLARE_PAIR: u32 = DECLARE_SINGLE + 4;
/// `declare BJBJ`.
pub const DECLARE_BLACK: u32 = DECLARE_PAIR + 4;
/// `declare RJRJ`.
pub const DECLARE_RED: u32 = DECLARE_BLACK + 1;
/// `bury <card>` by card index.
pub const BURY: u32 = DECLARE_RED + 1;
/// `play <card>` by card index: a single lead, or one card of a follow.
pub const PLAY_CARD: u32 = BURY + NUM_CARDS as u32;
/// `play <card><card>`: a pair lead, by card index.
pub const PLAY_PAIR: u32 = PLAY_CARD + NUM_CARDS as u32;
/// Tractor leads: `((class * 16 + low) * 11 + pairs - 2) * 4 + tier suit`.
pub const PLAY_TRACTOR: u32 = PLAY_PAIR + NUM_CARDS as u32;
/// Size of the index.
pub const NUM_ACTIONS: u32 = PLAY_TRACTOR + (CLASSES * POSITIONS * (MAX_TRACTOR - 1) * 4) as u32;

/// The suit of the level-tier pair of a tractor (its off-suit level card), 0 if none.
fn tier_suit(shape: &Shape, trumps: &Trumps) -> u8 {
    if shape.class != TRUMP {
        return 0;
    }
    let tier = if trumps.suit.is_some() { 12 } else { 0 };
    let cards = shape.cards.one & trumps.at(TRUMP, tier);
    if cards == 0 {
        0
    } else {
        Card::from_index_unchecked(cards.trailing_zeros() as u8)
            .suit()
            .unwrap_or(0)
    }
}

/// The action id of leading `shape`.
pub fn lead_id(shape: &Shape, trumps: &Trumps) -> u32 {
    let low_card = shape.cards.one.trailing_zeros();
    match shape.kind {
        Kind::Single => PLAY_CARD + low_card,
        Kind::Pair => PLAY_PAIR + low_card,
        Kind::Tractor(n) => {
            let slot = (u32::from(shape.class) * POSITIONS as u32 + u32::from(shape.low))
                * (MAX_TRACTOR as u32 - 1)
                + u32::from(n)
                - 2;
            PLAY_TRACTOR + slot * 4 + u32::from(tier_suit(shape, trumps))
        }
    }
}

/// The tractor an id names under `trumps`, if it names one that exists.
pub fn tractor_of_id(id: u32, trumps: &Trumps) -> Option<Shape> {
    let slot = id.checked_sub(PLAY_TRACTOR)?;
    if id >= NUM_ACTIONS {
        return None;
    }
    let suit = (slot % 4) as u8;
    let rest = slot / 4;
    let n = (rest % (MAX_TRACTOR as u32 - 1) + 2) as u8;
    let rest = rest / (MAX_TRACTOR as u32 - 1);
    let low = (rest % POSITIONS as u32) as u8;
    let class = (rest / POSITIONS as u32) as u8;
    let tier = if trumps.suit.is_some() { 12 } else { 0 };
    let mut cards = 0u64;
    for p in low..low + n {
        if usize::from(p) >= POSITIONS {
            return None;
        }
        let mut here = trumps.at(class, p);
        if class == TRUMP && p == tier {
            here &= 1 << Card::new(trumps.level, suit).index();
        }
        if here.count_ones() != 1 {
            return None;
        }
        cards |= here;
    }
    let shape = shape_of(
        &Hand {
            one: cards,
            two: cards,
        },
        trumps,
    )?;
    // One id per tractor: the tier suit is 0 when no level-tier pair is in it.
    (lead_id(&shape, trumps) == id).then_some(shape)
}

/// Canonical text of a multiset of cards: the cards in card-index order, no spaces
/// (`6h6h8h8h`).
pub fn cards_text(cards: &Hand) -> String {
    cards.cards().iter().map(|c| c.to_string()).collect()
}

/// The declaration strength of an action id (1 single, 2 pair, 3 black jokers,
/// 4 red jokers; TRC-12..TRC-14), or 0 for `pass`.
pub fn declare_strength(id: u32) -> u32 {
    match id {
        DECLARE_SINGLE..DECLARE_PAIR => 1,
        DECLARE_PAIR..DECLARE_BLACK => 2,
        DECLARE_BLACK => 3,
        DECLARE_RED => 4,
        _ => 0,
    }
}

/// The cards a declaration id shows at `level` (none for `pass` and non-declarations).
pub fn declare_cards(id: u32, level: u8) -> Hand {
    let card = match id {
        DECLARE_SINGLE..DECLARE_BLACK => Card::new(level, ((id - DECLARE_SINGLE) % 4) as u8),
        DECLARE_BLACK => Card::BLACK_JOKER,
        DECLARE_RED => Card::RED_JOKER,
        _ => return Hand::EMPTY,
    };
    let bit = 1 << card.index();
    let two = if id >= DECLARE_PAIR { bit } else { 0 };
    Hand { one: bit, two }
}

/// The text of an action id under `trumps` (the deal's level, and its trumps once
/// the card play has begun); `None` for an id that names nothing there.
pub fn action_text(id: u32, trumps: &Trumps) -> Option<String> {
    let card = |i: u32| Card::from_index_unchecked(i as u8);
    Some(match id {
        PASS_ID => "pass".into(),
        DECLARE_SINGLE..BURY => format!("declare {}", cards_text(&declare_cards(id, trumps.level))),
        BURY..PLAY_CARD => format!("bury {}", card(id - BURY)),
        PLAY_CARD..PLAY_PAIR => format!("play {}", card(id - PLAY_CARD)),
        PLAY_PAIR..PLAY_TRACTOR => {
            let c = card(id - PLAY_PAIR);
            format!("play {c}{c}")
        }
        _ => format!("play {}", cards_text(&tractor_of_id(id, trumps)?.cards)),
    })
}

/// Parse a level rank (`"2"`..`"A"`, `"10"` for the ten) to 0..=12.
pub fn parse_level(text: &str) -> Result<u8> {
    let t = text.trim().to_ascii_uppercase();
    let t = if t == "10" { "T".to_string() } else { t };
    match (t.len(), LEVEL_TEXT.find(t.as_str())) {
        (1, Some(i)) => Ok(i as u8),
        _ => Err(EngineError::RuleOption(format!(
            "level {} is not a rank: expected 2-9, T (or 10), J, Q, K or A",
            quoted(text)
        ))),
    }
}

/// Parse a trump suit letter (`c d h s`, or the symbols), `None` for no-trump
/// (`"nt"`, `""`).
pub fn parse_trump(text: &str) -> Result<Option<u8>> {
    let t = text.trim().to_ascii_lowercase();
    if t.is_empty() || t == "nt" {
        return Ok(None);
    }
    let c = t.chars().next().unwrap_or(' ');
    let suit = SUIT_CHARS
        .iter()
        .position(|&s| s == c)
        .or_else(|| ['♣', '♦', '♥', '♠'].iter().position(|&s| s == c));
    match suit {
        Some(s) if t.chars().count() == 1 => Ok(Some(s as u8)),
        _ => Err(EngineError::RuleOption(format!(
            "trump {} is not a suit: expected c, d, h, s or nt",
            quoted(text)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(text: &str) -> Hand {
        Hand::from_cards(&crate::cards::parse_cards(text).unwrap()).unwrap()
    }

    fn trumps(level: &str, suit: &str) -> Trumps {
        Trumps::new(parse_level(level).unwrap(), parse_trump(suit).unwrap()).unwrap()
    }

    fn kind(text: &str, t: &Trumps) -> Option<Kind> {
        shape_of(&hand(text), t).map(|s| s.kind)
    }

    #[test]
    fn trump_order_and_classes() {
        // TRC-22, TRC-23, TRC-29: RJ > BJ > 7h > other 7s > Ah..2h; side suits skip 7.
        let t = trumps("7", "h");
        let order = ["RJ", "BJ", "7h", "7s", "Ah", "2h"];
        let pos: Vec<u8> = order
            .iter()
            .map(|c| t.position(Card::parse(c).unwrap()))
            .collect();
        assert_eq!(pos, [15, 14, 13, 12, 11, 0]);
        assert_eq!(t.position(Card::parse("7c").unwrap()), 12);
        for c in ["RJ", "BJ", "7c", "7d", "3h"] {
            assert!(t.is_trump(Card::parse(c).unwrap()), "{c}");
        }
        assert_eq!(t.class(Card::parse("As").unwrap()), 3);
        assert_eq!(t.position(Card::parse("8s").unwrap()), 5);
        assert_eq!(t.position(Card::parse("6s").unwrap()), 4);
        // TRC-15: at no-trump only level cards and jokers are trumps.
        let nt = trumps("7", "nt");
        assert!(!nt.is_trump(Card::parse("Ah").unwrap()));
        assert_eq!(nt.position(Card::parse("7h").unwrap()), 0);
        assert_eq!(nt.position(Card::parse("RJ").unwrap()), 2);
    }

    #[test]
    fn shapes() {
        // TRC-25, TRC-26, TRC-27: 66-88 at level 7 is a tractor; off-suit level
        // pairs are not; trump tractors run through level cards and jokers.
        let t = trumps("7", "h");
        assert_eq!(kind("6s6s8s8s", &t), Some(Kind::Tractor(2)));
        assert_eq!(kind("6s6s9s9s", &t), None);
        assert_eq!(kind("7s7s7d7d", &t), None);
        assert_eq!(kind("7s7s7h7h", &t), Some(Kind::Tractor(2)));
        assert_eq!(kind("AhAh7s7s", &t), Some(Kind::Tractor(2)));
        assert_eq!(kind("7h7hBJBJRJRJ", &t), Some(Kind::Tractor(3)));
        assert_eq!(kind("6s8s", &t), None);
        assert_eq!(kind("KsKs", &t), Some(Kind::Pair));
        assert_eq!(kind("AsAsAhAh", &t), None);
        let nt = trumps("7", "nt");
        assert_eq!(kind("7d7dBJBJ", &nt), Some(Kind::Tractor(2)));
    }

    #[test]
    fn leads_list_every_tractor() {
        let t = trumps("7", "h");
        let h = hand("AhAh 7s7s 7d7d 7h7h 3c");
        let mut out = Vec::new();
        leads_into(&h, &t, &mut out);
        let tractors: Vec<String> = out
            .iter()
            .filter(|s| matches!(s.kind, Kind::Tractor(_)))
            .map(|s| cards_text(&s.cards))
            .collect();
        assert_eq!(tractors.len(), 6, "{tractors:?}");
        for s in &out {
            let id = lead_id(s, &t);
            if let Kind::Tractor(_) = s.kind {
                assert_eq!(tractor_of_id(id, &t), Some(*s));
            }
            assert!(id < NUM_ACTIONS);
        }
    }

    #[test]
    fn follow_duty() {
        // TRC-28, TRC-30, TRC-31, TRC-32: a tractor led; pairs first, then fill.
        let t = trumps("2", "s");
        let lead = shape_of(&hand("5h5h6h6h"), &t).unwrap();
        let f = Follow::of(&lead, &t);
        let h = hand("9h9h JhJh 3h Kc");
        assert!(f.allows(&h, &hand("9h9hJhJh")));
        assert!(!f.allows(&h, &hand("9h9hJh3h")));
        let short = hand("9h9h 3c 4c 5d");
        assert!(f.allows(&short, &hand("9h9h3c4c")));
        assert!(!f.allows(&short, &hand("9h3c4c5d")));
        // TRC-33, TRC-34: void: anything, trumping optional.
        let void = hand("3c 4c 5s 6s");
        assert!(f.allows(&void, &hand("3c4c5s6s")));
        assert_eq!(
            f.next_cards(&h, &Hand::EMPTY).count_ones(),
            2,
            "only the pairs' cards"
        );
    }

    #[test]
    fn winners() {
        // TRC-35..TRC-38, TRC-24.
        let t = trumps("2", "s");
        let w =
            |plays: &[&str]| trick_winner(&plays.iter().map(|p| hand(p)).collect::<Vec<_>>(), &t);
        assert_eq!(w(&["5h5h", "AhKh", "3s3s", "4s5s"]), 2);
        assert_eq!(w(&["5h5h", "AhKh", "4s5s", "3c3c"]), 0);
        assert_eq!(w(&["5h5h6h6h", "9h9hJhJh", "3s3s5s5s", "4c4c5c5c"]), 0);
        assert_eq!(w(&["3h", "2c", "2d", "Ah"]), 1);
        assert_eq!(w(&["Ah", "Ah", "Kh", "3h"]), 0);
    }

    #[test]
    fn points() {
        assert_eq!(hand("5h 5h Ts Kd Ac").points(), 30);
    }
}
