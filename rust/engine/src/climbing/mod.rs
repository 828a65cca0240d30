//! Climbing ("shedding") games: combinations of ranks, their readings, leads and
//! responses, shared by Dou Dizhu and Zheng Shangyou (and later Guandan).
//!
//! Suits never decide strength in these games, so everything here works on a
//! multiset of *climbing ranks* ([`Ranks`]): `3 4 5 6 7 8 9 T J Q K A 2 B R` as
//! 0..=14, weakest first, where `B`/`R` are the black (small) and red (big) joker.
//! Counts are plain `u8`s, so two-pack games can hold up to eight of a rank.
//! Each game module decides which shapes exist and how they compare; the run and
//! wing enumerators here are the parts the rule texts share.

pub mod cardplay;
pub mod doudizhu;
pub mod playout;
pub mod zhengshangyou;

use crate::cards::Card;
use crate::error::{EngineError, Result};
use std::fmt;

/// The longest run: 3..A is twelve ranks (runs never hold a 2 or a joker).
const MAX_RUN: u8 = 12;
/// Number of climbing ranks: 3..A, 2, black joker, red joker.
pub const NUM_RANKS: usize = 15;
/// Rank characters, weakest first (`T` is the ten, `B`/`R` the jokers).
pub const RANK_CHARS: [char; NUM_RANKS] = [
    '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A', '2', 'B', 'R',
];
pub const THREE: u8 = 0;
pub const ACE: u8 = 11;
pub const TWO: u8 = 12;
pub const BLACK_JOKER: u8 = 13;
pub const RED_JOKER: u8 = 14;

/// The climbing rank of a card: deuces rank above aces, jokers above deuces.
#[inline]
pub fn climbing_rank(card: Card) -> u8 {
    match card.rank() {
        0 => TWO,
        r @ 1..=12 => r - 1,
        r => r,
    }
}

/// A multiset of climbing ranks: `self.0[r]` copies of rank `r`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Ranks(pub [u8; NUM_RANKS]);

impl Ranks {
    /// Parse rank text such as `"33344BR"` (`10` is accepted for `T`, case and
    /// spaces are ignored).
    pub fn parse(text: &str) -> Result<Ranks> {
        let mut out = Ranks::default();
        let upper = text.to_ascii_uppercase().replace("10", "T");
        for ch in upper.chars() {
            if ch.is_whitespace() {
                continue;
            }
            match RANK_CHARS.iter().position(|&c| c == ch) {
                Some(r) => out.0[r] = out.0[r].saturating_add(1),
                None => {
                    return Err(EngineError::InvalidCard(format!(
                        "invalid rank {ch:?} in {text:?}: expected ranks 3-9 T J Q K A 2 B R"
                    )))
                }
            }
        }
        Ok(out)
    }

    pub fn from_cards<I: IntoIterator<Item = Card>>(cards: I) -> Ranks {
        let mut out = Ranks::default();
        for c in cards {
            let r = climbing_rank(c) as usize;
            out.0[r] = out.0[r].saturating_add(1);
        }
        out
    }

    #[inline]
    pub fn count(&self, rank: u8) -> u8 {
        self.0[rank as usize]
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// True when every copy in `other` is also here.
    pub fn contains(&self, other: &Ranks) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    /// `self - other`; the caller checks `self.contains(other)`.
    pub fn minus(&self, other: &Ranks) -> Ranks {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a = a.saturating_sub(*b);
        }
        out
    }

    pub fn plus(&self, other: &Ranks) -> Ranks {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a = a.saturating_add(*b);
        }
        out
    }

    /// A compact key, four bits per rank (counts up to 15), for hashing and indexes.
    #[inline]
    pub fn key(&self) -> u64 {
        let b = &self.0;
        let lo = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        let hi = u64::from_le_bytes([b[8], b[9], b[10], b[11], b[12], b[13], b[14], 0]);
        // Legal-move listing keys every play it finds, so the usual case (every count
        // below 16) packs eight counts at a time instead of one by one.
        if (lo | hi) & 0xF0F0_F0F0_F0F0_F0F0 == 0 {
            return pack_nibbles(lo) | (pack_nibbles(hi) << 32);
        }
        self.0
            .iter()
            .enumerate()
            .fold(0u64, |k, (r, &n)| k | (u64::from(n.min(15)) << (4 * r)))
    }

    fn add(&mut self, rank: u8, n: u8) {
        self.0[rank as usize] += n;
    }
}

/// Eight bytes, each below 16, packed into the low 32 bits, four bits each.
#[inline]
fn pack_nibbles(x: u64) -> u64 {
    let x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF;
    let x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
    (x | (x >> 16)) & 0xFFFF_FFFF
}

impl fmt::Display for Ranks {
    /// Ranks weakest first, each repeated: `33344BR`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, &n) in self.0.iter().enumerate() {
            for _ in 0..n {
                write!(f, "{}", RANK_CHARS[r])?;
            }
        }
        Ok(())
    }
}

/// Combination types of the climbing games. Dou Dizhu uses the first fourteen;
/// Zheng Shangyou uses the plain shapes, `Bomb`, `AceBomb` and `HeavenlyBomb`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    Single,
    Pair,
    Triple,
    TripleSingle,
    TriplePair,
    Straight,
    PairRun,
    Airplane,
    AirplaneSingles,
    AirplanePairs,
    FourTwoSingles,
    FourTwoPairs,
    Bomb,
    Rocket,
    AceBomb,
    HeavenlyBomb,
}

impl Kind {
    pub const ALL: [Kind; 16] = [
        Kind::Single,
        Kind::Pair,
        Kind::Triple,
        Kind::TripleSingle,
        Kind::TriplePair,
        Kind::Straight,
        Kind::PairRun,
        Kind::Airplane,
        Kind::AirplaneSingles,
        Kind::AirplanePairs,
        Kind::FourTwoSingles,
        Kind::FourTwoPairs,
        Kind::Bomb,
        Kind::Rocket,
        Kind::AceBomb,
        Kind::HeavenlyBomb,
    ];

    /// The snake_case name used in Python (`"airplane_singles"`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Triple => "triple",
            Kind::TripleSingle => "triple_single",
            Kind::TriplePair => "triple_pair",
            Kind::Straight => "straight",
            Kind::PairRun => "pair_run",
            Kind::Airplane => "airplane",
            Kind::AirplaneSingles => "airplane_singles",
            Kind::AirplanePairs => "airplane_pairs",
            Kind::FourTwoSingles => "four_two_singles",
            Kind::FourTwoPairs => "four_two_pairs",
            Kind::Bomb => "bomb",
            Kind::Rocket => "rocket",
            Kind::AceBomb => "ace_bomb",
            Kind::HeavenlyBomb => "heavenly_bomb",
        }
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// Number of cards of a reading of this kind with `length` core ranks.
    pub fn size(self, length: u8) -> usize {
        let l = length as usize;
        match self {
            Kind::Single => 1,
            Kind::Pair | Kind::Rocket => 2,
            Kind::Triple | Kind::AceBomb => 3,
            Kind::TripleSingle | Kind::Bomb | Kind::HeavenlyBomb => 4,
            Kind::TriplePair => 5,
            Kind::Straight => l,
            Kind::PairRun => 2 * l,
            Kind::Airplane => 3 * l,
            Kind::AirplaneSingles => 4 * l,
            Kind::AirplanePairs => 5 * l,
            Kind::FourTwoSingles => 6,
            Kind::FourTwoPairs => 8,
        }
    }

    /// Bombs of every game: they answer any ordinary combination.
    pub fn is_bomb(self) -> bool {
        matches!(
            self,
            Kind::Bomb | Kind::Rocket | Kind::AceBomb | Kind::HeavenlyBomb
        )
    }
}

/// One reading of a play: its type, main rank (the rank that decides strength:
/// the highest core rank of runs and airplanes, the triple or four of attached
/// shapes), length (number of consecutive core ranks; 1 for non-runs) and cards.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Combination {
    pub kind: Kind,
    pub main: u8,
    pub length: u8,
    pub cards: Ranks,
}

impl Combination {
    fn new(kind: Kind, main: u8, length: u8, cards: Ranks) -> Combination {
        Combination {
            kind,
            main,
            length,
            cards,
        }
    }
}

impl fmt::Display for Combination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.cards)
    }
}

/// Every run of `len` consecutive ranks in `lo..=hi` whose ranks each have at
/// least `width` copies, for every `len` in `lens`, calling `f(top, len)` with the
/// highest rank of the run. Runs are listed by length, then by top rank.
fn runs(
    hand: &Ranks,
    width: u8,
    hi: u8,
    lens: std::ops::RangeInclusive<u8>,
    mut f: impl FnMut(u8, u8),
) {
    // streak[r]: how many consecutive ranks ending at r have `width` copies.
    let mut streak = [0u8; NUM_RANKS];
    let mut s = 0u8;
    let mut longest = 0u8;
    for r in 0..=hi {
        s = if hand.count(r) >= width { s + 1 } else { 0 };
        streak[r as usize] = s;
        longest = longest.max(s);
    }
    for len in lens {
        // Most hands hold no long run, so stop at the longest streak.
        if len > longest {
            break;
        }
        for top in len.saturating_sub(1)..=hi {
            if streak[top as usize] >= len {
                f(top, len);
            }
        }
    }
}

/// The run of `len` ranks ending at `top`, `width` copies each.
fn run_cards(top: u8, len: u8, width: u8) -> Ranks {
    let mut cards = Ranks::default();
    for r in (top + 1 - len)..=top {
        cards.add(r, width);
    }
    cards
}

/// Push a `kind` play of `width` copies of each rank in `low..=top` that `hand`
/// holds that many of (singles, pairs, triples, four-card bombs), weakest first.
fn push_groups(hand: &Ranks, kind: Kind, width: u8, low: u8, top: u8, out: &mut Vec<Combination>) {
    for r in low..=top {
        if hand.count(r) >= width {
            out.push(Combination::new(kind, r, 1, run_cards(r, 1, width)));
        }
    }
}

/// Push every `kind` run from `hand` of `width` copies per rank, within 3..A (no
/// climbing game lets a run hold a 2 or a joker), with a length in `lens` and a top
/// rank of at least `low` (straights, pair runs, bare airplanes).
fn push_runs(
    hand: &Ranks,
    kind: Kind,
    width: u8,
    lens: std::ops::RangeInclusive<u8>,
    low: u8,
    out: &mut Vec<Combination>,
) {
    runs(hand, width, ACE, lens, |top, len| {
        if top >= low {
            out.push(Combination::new(kind, top, len, run_cards(top, len, width)));
        }
    });
}

/// Every way to pick `n` single wing cards from `avail` (copies per rank): at most
/// two of a rank (wings may pair but never hold a triple or a bomb) and never
/// both jokers. Ranks with `avail == 0` (such as the core) are never used.
fn single_wings(avail: &Ranks, n: u8, f: &mut impl FnMut(Ranks)) {
    struct Walk<'a> {
        avail: &'a Ranks,
        // room[r]: wing cards the ranks r.. can still give (at most two each).
        room: [u8; NUM_RANKS + 1],
    }
    fn go(w: &Walk<'_>, rank: usize, left: u8, acc: &mut Ranks, f: &mut impl FnMut(Ranks)) {
        if left == 0 {
            f(*acc);
            return;
        }
        if rank >= NUM_RANKS || w.room[rank] < left {
            return;
        }
        let avail = w.avail;
        let cap = avail.0[rank].min(2).min(left);
        let both_jokers = rank == RED_JOKER as usize && acc.0[BLACK_JOKER as usize] > 0;
        let cap = if both_jokers { 0 } else { cap };
        for k in 0..=cap {
            acc.0[rank] = k;
            go(w, rank + 1, left - k, acc, f);
        }
        acc.0[rank] = 0;
    }
    let mut room = [0u8; NUM_RANKS + 1];
    for r in (0..NUM_RANKS).rev() {
        room[r] = room[r + 1] + avail.0[r].min(2);
    }
    let mut acc = Ranks::default();
    go(&Walk { avail, room }, 0, n, &mut acc, f);
}

/// Every way to pick `n` pairs of distinct ranks from `avail`.
fn pair_wings(avail: &Ranks, n: u8, f: &mut impl FnMut(Ranks)) {
    fn go(avail: &Ranks, rank: usize, left: u8, acc: &mut Ranks, f: &mut impl FnMut(Ranks)) {
        if left == 0 {
            f(*acc);
            return;
        }
        // Jokers are two different ranks, so they never form a pair.
        if rank > TWO as usize {
            return;
        }
        if avail.0[rank] >= 2 {
            acc.0[rank] = 2;
            go(avail, rank + 1, left - 1, acc, f);
            acc.0[rank] = 0;
        }
        go(avail, rank + 1, left, acc, f);
    }
    let mut acc = Ranks::default();
    go(avail, 0, n, &mut acc, f);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        let r = Ranks::parse("33344BR").unwrap();
        assert_eq!(r.count(THREE), 3);
        assert_eq!(r.count(BLACK_JOKER), 1);
        assert_eq!(r.to_string(), "33344BR");
        assert_eq!(Ranks::parse("10 j q k a").unwrap().to_string(), "TJQKA");
        assert!(Ranks::parse("33X").is_err());
    }

    #[test]
    fn card_ranks_put_twos_above_aces() {
        // DDZ-16: 3 < ... < A < 2 < black joker < red joker.
        let order: Vec<u8> = ["3c", "As", "2d", "BJ", "RJ"]
            .iter()
            .map(|c| climbing_rank(Card::parse(c).unwrap()))
            .collect();
        assert_eq!(order, vec![THREE, ACE, TWO, BLACK_JOKER, RED_JOKER]);
    }

    #[test]
    fn key_packs_four_bits_per_rank() {
        let r = Ranks::parse("3RRR2222B").unwrap();
        assert_eq!(r.key(), 1 | (4 << 48) | (1 << 52) | (3 << 56));
        let mut many = Ranks::default();
        many.0[14] = 20;
        many.0[0] = 2;
        assert_eq!(many.key(), 2 | (15 << 56));
    }

    #[test]
    fn kind_names_round_trip() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_name(k.name()), Some(k));
        }
    }
}
