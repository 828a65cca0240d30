//! Climbing ("shedding") games: combinations of ranks, their readings, leads and
//! responses, shared by Dou Dizhu, Zheng Shangyou and Guandan.
//!
//! Suits never decide strength in these games, so everything here works on a
//! multiset of *climbing ranks* ([`Ranks`]): `3 4 5 6 7 8 9 T J Q K A 2 B R` as
//! 0..=14, weakest first, where `B`/`R` are the black (small) and red (big) joker.
//! Counts are plain `u8`s, so two-pack games can hold up to eight of a rank.
//! Each game module decides which shapes exist and how they compare; the run and
//! wing enumerators here are the parts the rule texts share.

pub mod cardplay;
pub mod doudizhu;
pub mod endgame;
pub mod evidence;
pub mod guandan;
pub mod index;
pub mod observe;
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
/// Index of the ten (`T`, also written `10`).
const TEN: usize = 7;
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
        /// Rank of each ASCII byte: a rank index, SKIP for whitespace, BAD otherwise.
        const SKIP: u8 = 0xFE;
        const BAD: u8 = 0xFF;
        const BYTE_RANKS: [u8; 128] = {
            let mut table = [BAD; 128];
            let mut r = 0;
            while r < NUM_RANKS {
                let c = RANK_CHARS[r] as u8;
                table[c as usize] = r as u8;
                table[c.to_ascii_lowercase() as usize] = r as u8;
                r += 1;
            }
            let mut w = 0;
            let spaces = b" \t\n\r\x0b\x0c";
            while w < spaces.len() {
                table[spaces[w] as usize] = SKIP;
                w += 1;
            }
            table
        };
        let mut out = Ranks::default();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            i += 1;
            let rank = match BYTE_RANKS.get(usize::from(b)) {
                Some(&SKIP) => continue,
                Some(&BAD) if b == b'1' && bytes.get(i) == Some(&b'0') => {
                    i += 1;
                    TEN
                }
                Some(&BAD) => return Err(bad_rank(char::from(b), text)),
                Some(&r) => usize::from(r),
                // Past ASCII: only (Unicode) whitespace is allowed.
                None => {
                    let ch = text[i - 1..].chars().next().unwrap_or_default();
                    if !ch.is_whitespace() {
                        return Err(bad_rank(ch, text));
                    }
                    i += ch.len_utf8() - 1;
                    continue;
                }
            };
            out.add_card(rank as u8)?;
        }
        Ok(out)
    }

    /// Add one card of `rank`. A count stops at 255: past that the multiset would be
    /// wrong, so it is an error (which also bounds any input read card by card).
    pub fn add_card(&mut self, rank: u8) -> Result<()> {
        let slot = &mut self.0[usize::from(rank)];
        *slot = slot.checked_add(1).ok_or_else(|| {
            EngineError::InvalidCard(format!(
                "more than {} cards of rank {}",
                u8::MAX,
                RANK_CHARS[usize::from(rank)]
            ))
        })?;
        Ok(())
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

    /// The multiset of a [`Ranks::key`] (every count below 16).
    #[inline]
    pub fn from_key(key: u64) -> Ranks {
        let lo = spread_nibbles(key as u32).to_le_bytes();
        let hi = spread_nibbles((key >> 32) as u32).to_le_bytes();
        let mut out = Ranks::default();
        out.0[..8].copy_from_slice(&lo);
        out.0[8..].copy_from_slice(&hi[..NUM_RANKS - 8]);
        out
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

fn bad_rank(ch: char, text: &str) -> EngineError {
    EngineError::InvalidCard(format!(
        "invalid rank {:?} in {}: expected ranks 3-9 T J Q K A 2 B R",
        ch.to_ascii_uppercase(),
        crate::error::quoted(text)
    ))
}

/// The inverse of [`pack_nibbles`]: eight nibbles into the low nibbles of eight bytes.
#[inline]
fn spread_nibbles(x: u32) -> u64 {
    let x = u64::from(x);
    let x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF;
    let x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF;
    (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F
}

impl fmt::Display for Ranks {
    /// Ranks weakest first, each repeated: `33344BR`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Game loops turn every legal play into text: one write per 64 ranks, not
        // one formatted write per card.
        let mut buf = [0u8; 64];
        let mut used = 0;
        for (r, &n) in self.0.iter().enumerate() {
            for _ in 0..n {
                if used == buf.len() {
                    f.write_str(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)?;
                    used = 0;
                }
                buf[used] = RANK_CHARS[r] as u8;
                used += 1;
            }
        }
        f.write_str(std::str::from_utf8(&buf[..used]).map_err(|_| fmt::Error)?)
    }
}

/// Combination types of the climbing games. Dou Dizhu uses the first fourteen;
/// Guandan the plain shapes (`TriplePair` its full house, `Airplane` its plate),
/// `Bomb`, `StraightFlush` and `JokerBomb`;
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
    StraightFlush,
    JokerBomb,
}

impl Kind {
    pub const ALL: [Kind; 18] = [
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
        Kind::StraightFlush,
        Kind::JokerBomb,
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
            Kind::StraightFlush => "straight_flush",
            Kind::JokerBomb => "joker_bomb",
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
            Kind::TripleSingle | Kind::Bomb | Kind::HeavenlyBomb | Kind::JokerBomb => 4,
            Kind::TriplePair => 5,
            Kind::Straight | Kind::StraightFlush => l,
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
            Kind::Bomb
                | Kind::Rocket
                | Kind::AceBomb
                | Kind::HeavenlyBomb
                | Kind::StraightFlush
                | Kind::JokerBomb
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

/// Rank bit sets of a hand: `at_least[w]` holds bit `r` when the hand has at least
/// `w` copies of rank `r` (`w` in 1..=4). Move generation walks these sets instead
/// of the counts, so runs and groups cost a few bit operations per hand.
#[derive(Clone, Copy, Debug)]
pub struct Held {
    pub at_least: [u16; 5],
}

impl Held {
    pub fn new(counts: &Ranks) -> Held {
        let mut at_least = [0u16; 5];
        for (r, &n) in counts.0.iter().enumerate() {
            for (w, set) in at_least.iter_mut().enumerate().skip(1) {
                *set |= u16::from(n as usize >= w) << r;
            }
        }
        Held { at_least }
    }
}

/// Ranks `low..=top` as a bit set (empty when `low > top`).
#[inline]
fn rank_span(low: u8, top: u8) -> u16 {
    if low > top {
        return 0;
    }
    let upto = (2u32 << top) - 1;
    (upto & !((1u32 << low) - 1)) as u16
}

/// The ranks of `set`, weakest first.
#[inline]
fn ranks_up(mut set: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        let r = set.trailing_zeros() as u8;
        set &= set.wrapping_sub(1);
        (r < 16).then_some(r)
    })
}

/// The ranks of `set`, strongest first.
#[inline]
fn ranks_down(mut set: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        let r = 15u32.checked_sub(set.leading_zeros())? as u8;
        set &= !(1 << r);
        Some(r)
    })
}

/// The two jokers as a rank set.
const JOKERS: u16 = 1 << BLACK_JOKER | 1 << RED_JOKER;

/// Runs may hold 3..A only: no climbing game lets a run hold a 2 or a joker.
const RUN_RANKS: u16 = (1 << (ACE + 1)) - 1;

/// Every run of consecutive ranks of `set` within 3..A with a length in `lens`,
/// calling `f(top, len)` with the highest rank of the run. Runs are listed by
/// length, then by top rank.
#[inline]
fn runs(set: u16, lens: std::ops::RangeInclusive<u8>, mut f: impl FnMut(u8, u8)) {
    let set = set & RUN_RANKS;
    // tops: the top ranks of the runs of `len` ranks.
    let mut tops = set;
    let mut len = 1u8;
    while tops != 0 && len <= *lens.end() {
        if len >= *lens.start() {
            for top in ranks_up(tops) {
                f(top, len);
            }
        }
        tops &= set << len;
        len += 1;
    }
}

/// A nibble of 1 for each of the sixteen ranks a key can hold.
const NIBBLE_ONES: u64 = 0x1111_1111_1111_1111;

/// The key (see [`Ranks::key`]) of one copy of `rank`.
#[inline]
fn rank_key(rank: u8) -> u64 {
    1 << (4 * u32::from(rank))
}

/// The key of the run of `len` ranks ending at `top`, `width` copies each.
#[inline]
fn run_key(top: u8, len: u8, width: u8) -> u64 {
    let ones = NIBBLE_ONES >> (64 - 4 * u32::from(len));
    (ones * u64::from(width)) << (4 * u32::from(top + 1 - len))
}

/// The ranks of the run of `len` ending at `top`, as a bit set.
#[inline]
fn run_span(top: u8, len: u8) -> u16 {
    rank_span(top + 1 - len, top)
}

/// The run of `len` ranks ending at `top`, `width` copies each.
fn run_cards(top: u8, len: u8, width: u8) -> Ranks {
    Ranks::from_key(run_key(top, len, width))
}

/// `f(rank, key)` for each rank in `low..=top` that `hand` holds `width` copies of
/// (singles, pairs, triples, four-card bombs), weakest first.
#[inline]
fn groups(hand: &Held, width: u8, low: u8, top: u8, mut f: impl FnMut(u8, u64)) {
    for r in ranks_up(hand.at_least[usize::from(width)] & rank_span(low, top)) {
        f(r, u64::from(width) * rank_key(r));
    }
}

/// [`groups`] as `kind` combinations pushed to `out`.
fn push_groups(hand: &Held, kind: Kind, width: u8, low: u8, top: u8, out: &mut Vec<Combination>) {
    groups(hand, width, low, top, |r, key| {
        out.push(Combination::new(kind, r, 1, Ranks::from_key(key)));
    });
}

/// `f(top, len, key)` for every run from `hand` of `width` copies per rank, within
/// 3..A, with a length in `lens` and a top rank of at least `low` (straights, pair
/// runs, bare airplanes).
#[inline]
fn run_keys(
    hand: &Held,
    width: u8,
    lens: std::ops::RangeInclusive<u8>,
    low: u8,
    mut f: impl FnMut(u8, u8, u64),
) {
    runs(hand.at_least[usize::from(width)], lens, |top, len| {
        if top >= low {
            f(top, len, run_key(top, len, width));
        }
    });
}

/// [`run_keys`] as `kind` combinations pushed to `out`.
fn push_runs(
    hand: &Held,
    kind: Kind,
    width: u8,
    lens: std::ops::RangeInclusive<u8>,
    low: u8,
    out: &mut Vec<Combination>,
) {
    run_keys(hand, width, lens, low, |top, len, key| {
        out.push(Combination::new(kind, top, len, Ranks::from_key(key)));
    });
}

/// Every way to pick `n` single wing cards, as keys, from the ranks of `ones`
/// (`twos`: those of them that can give two): at most two of a rank (wings may pair
/// but never hold a triple or a bomb) and never both jokers. The caller leaves the
/// core ranks out of both sets. Listed strongest rank first: each rank's picks with
/// stronger ranks, then its pair.
fn single_wings(ones: u16, twos: u16, n: u8, f: &mut impl FnMut(u64)) {
    if n == 2 {
        // The common case (four-with-two, two-triple airplanes), without recursion.
        for low in ranks_down(ones) {
            let above = ones & !rank_span(0, low);
            let above = if low == BLACK_JOKER {
                above & !JOKERS
            } else {
                above
            };
            for high in ranks_down(above) {
                f(rank_key(low) + rank_key(high));
            }
            if twos & (1 << low) != 0 {
                f(2 * rank_key(low));
            }
        }
        return;
    }
    /// `ranks[i..]` (rank, cards it can give) still to choose from; `room[i]` the
    /// wing cards they can give together, to stop walks that cannot finish.
    fn go(ranks: &[(u8, u8)], room: &[u8], i: usize, left: u8, acc: u64, f: &mut impl FnMut(u64)) {
        if left == 0 {
            f(acc);
            return;
        }
        if room[i] < left {
            return;
        }
        let (rank, cap) = ranks[i];
        let both_jokers = rank == RED_JOKER && acc & (0xF * rank_key(BLACK_JOKER)) != 0;
        let cap = if both_jokers { 0 } else { cap.min(left) };
        for k in 0..=cap {
            go(
                ranks,
                room,
                i + 1,
                left - k,
                acc + u64::from(k) * rank_key(rank),
                f,
            );
        }
    }
    let mut ranks = [(0u8, 0u8); NUM_RANKS];
    let mut m = 0;
    for r in ranks_up(ones) {
        ranks[m] = (r, 1 + u8::from(twos & (1 << r) != 0));
        m += 1;
    }
    let mut room = [0u8; NUM_RANKS + 1];
    for i in (0..m).rev() {
        room[i] = room[i + 1] + ranks[i].1;
    }
    go(&ranks[..m], &room[..=m], 0, n, 0, f);
}

/// Every way to pick `n` pairs of distinct ranks of `pairs` (ranks up to the 2: the
/// jokers are two different ranks and never pair), as keys, weakest ranks first.
fn pair_wings(pairs: u16, n: u8, f: &mut impl FnMut(u64)) {
    let pairs = pairs & rank_span(0, TWO);
    if n == 2 {
        for low in ranks_up(pairs) {
            for high in ranks_up(pairs & !rank_span(0, low)) {
                f(2 * (rank_key(low) + rank_key(high)));
            }
        }
        return;
    }
    fn go(ranks: &[u8], i: usize, left: u8, acc: u64, f: &mut impl FnMut(u64)) {
        if left == 0 {
            f(acc);
            return;
        }
        if ranks.len() - i < usize::from(left) {
            return;
        }
        go(ranks, i + 1, left - 1, acc + 2 * rank_key(ranks[i]), f);
        go(ranks, i + 1, left, acc, f);
    }
    let mut ranks = [0u8; NUM_RANKS];
    let mut m = 0;
    for r in ranks_up(pairs) {
        ranks[m] = r;
        m += 1;
    }
    go(&ranks[..m], 0, n, 0, f);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_past_255_are_refused() {
        assert_eq!(Ranks::parse(&"3".repeat(255)).unwrap().count(THREE), 255);
        assert!(matches!(
            Ranks::parse(&"3".repeat(256)),
            Err(EngineError::InvalidCard(_))
        ));
    }

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
    fn keys_round_trip() {
        for text in [
            "",
            "3",
            "33344BR",
            "3456789TJQKA2BR",
            "4444RB22",
            "AAAA2222",
        ] {
            let r = Ranks::parse(text).unwrap();
            assert_eq!(Ranks::from_key(r.key()), r, "{text}");
        }
        assert_eq!(run_cards(ACE, 12, 1), Ranks::parse("3456789TJQKA").unwrap());
        assert_eq!(run_cards(6, 3, 3), Ranks::parse("777888999").unwrap());
        let mut many = Ranks::default();
        many.0[5] = 70;
        assert_eq!(many.to_string(), "8".repeat(70));
        assert!(Ranks::parse("1 0").unwrap_err().to_string().contains("'1'"));
        assert!(Ranks::parse("110").is_err());
        assert_eq!(Ranks::parse("t10 \u{3000}q").unwrap().to_string(), "TTQ");
    }

    /// Every count vector over the ranks with `cap(r)` at most, summing to `n`.
    fn brute(cap: &dyn Fn(usize) -> u8, n: u8, ok: &dyn Fn(&Ranks) -> bool) -> Vec<u64> {
        fn go(
            r: usize,
            left: u8,
            acc: &mut Ranks,
            cap: &dyn Fn(usize) -> u8,
            out: &mut Vec<Ranks>,
        ) {
            if r == NUM_RANKS {
                if left == 0 {
                    out.push(*acc);
                }
                return;
            }
            for k in 0..=cap(r).min(left) {
                acc.0[r] = k;
                go(r + 1, left - k, acc, cap, out);
            }
            acc.0[r] = 0;
        }
        let mut all = Vec::new();
        go(0, n, &mut Ranks::default(), cap, &mut all);
        let mut keys: Vec<u64> = all.iter().filter(|r| ok(r)).map(Ranks::key).collect();
        keys.sort_unstable();
        keys
    }

    #[test]
    fn wings_are_every_valid_pick_once() {
        // DDZ-29, DDZ-30, DDZ-32, DDZ-33: single wings at most two of a rank and not
        // both jokers; pair wings distinct ranks up to the 2.
        let mut rng = crate::rng::CardRng::new(5);
        for _ in 0..300 {
            let mut avail = Ranks::default();
            for r in 0..NUM_RANKS {
                let most = if r > TWO as usize { 2 } else { 5 };
                avail.0[r] = rng.below(most) as u8;
            }
            let held = Held::new(&avail);
            for n in 1..=5 {
                let mut got = Vec::new();
                single_wings(held.at_least[1], held.at_least[2], n, &mut |k| got.push(k));
                got.sort_unstable();
                let no_rocket = |w: &Ranks| w.count(BLACK_JOKER) == 0 || w.count(RED_JOKER) == 0;
                let want = brute(&|r| avail.0[r].min(2), n, &no_rocket);
                assert_eq!(got, want, "singles {avail} n={n}");
                let mut got = Vec::new();
                pair_wings(held.at_least[2], n, &mut |k| got.push(k));
                got.sort_unstable();
                let pair_cap = |r: usize| {
                    if r <= TWO as usize && avail.0[r] >= 2 {
                        2
                    } else {
                        0
                    }
                };
                let pairs = |w: &Ranks| w.0.iter().all(|&c| c == 0 || c == 2);
                assert_eq!(got, brute(&pair_cap, 2 * n, &pairs), "pairs {avail} n={n}");
            }
        }
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
