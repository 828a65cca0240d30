//! Deals of a Bridge position's unseen cards for card-play search: each hidden
//! seat gets its number of cards, none of a suit it has shown out of, and (as far
//! as they can hold) the high-card points, suit lengths and balance the auction
//! showed for its hand as dealt (the cards it has played count towards them).
//!
//! Sampling is exact and uniform over the deals that fit. Each suit's split among
//! the hidden seats is drawn in proportion to the number of deals with it (a
//! table over the suits and the room left in each hand, built once per call), so
//! the lengths and voids always fit; the cards of each suit are then dealt at
//! random, and a deal whose balance or points do not fit is rejected and drawn
//! again. Every admitted deal is therefore equally likely.
//!
//! It never spins: a call gets `budget` tries per deal. When they run out, or no
//! lengths fit at all (a player left the system), the softest evidence goes and
//! the call starts over, so all its deals come from one level: first the point
//! ranges ([`SampledDeals::relaxed`] 1), then the shapes (2). The play's facts
//! (hand sizes, voids) always hold; when even they admit no deal the input is
//! inconsistent and the call fails with a typed error.

use std::collections::HashMap;

use crate::cancel::Cancel;
use crate::cardset::CardSet;
use crate::error::{EngineError, Result};
use crate::rng::CardRng;
use crate::trick::{suit_cards, NUM_SUITS};

/// How many tries go between two polls of the cancel flag (each about a
/// microsecond).
const POLL_EVERY: u64 = 1024;

/// What the auction shows about one seat's thirteen cards as dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandConstraint {
    /// High-card points (A 4, K 3, Q 2, J 1), inclusive range.
    pub hcp: (u8, u8),
    /// Length of each suit (clubs, diamonds, hearts, spades), inclusive ranges.
    pub lengths: [(u8, u8); NUM_SUITS],
    /// Whether the hand is 4333, 4432 or 5332.
    pub balanced: bool,
}

impl Default for HandConstraint {
    /// Any hand.
    fn default() -> Self {
        HandConstraint {
            hcp: (0, 37),
            lengths: [(0, 13); NUM_SUITS],
            balanced: false,
        }
    }
}

/// A seat whose cards the searching player cannot see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HiddenSeat {
    /// The cards it has played (the current trick's included).
    pub played: CardSet,
    /// Suits it has shown out of: bit `s` for suit `s` (clubs = bit 0).
    pub voids: u8,
    /// What the auction shows about its hand as dealt.
    pub shows: HandConstraint,
}

/// The deals of one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampledDeals {
    /// Each deal: the unseen cards each hidden seat gets, in the order given.
    pub deals: Vec<Vec<CardSet>>,
    /// The evidence dropped: 0 none, 1 the point ranges, 2 the shapes too.
    pub relaxed: u8,
}

fn bad(why: String) -> EngineError {
    EngineError::RuleOption(why)
}

/// High-card points of `cards`.
pub fn hcp(cards: CardSet) -> u32 {
    // Ranks J, Q, K, A are 9..=12: bits 36..51, four suits each.
    let points = |rank: u32| (cards.0 >> (rank * 4) & 0xF).count_ones();
    points(9) + 2 * points(10) + 3 * points(11) + 4 * points(12)
}

/// Whether a hand of these suit lengths is balanced (4333, 4432, 5332).
fn is_balanced(lengths: [u32; NUM_SUITS]) -> bool {
    let mut sorted = lengths;
    sorted.sort_unstable();
    matches!(sorted, [3, 3, 3, 4] | [2, 3, 4, 4] | [2, 3, 3, 5])
}

/// A uniform integer in `0..n` (`n > 0`) of 128 bits, unbiased by rejection.
fn below_u128(rng: &mut CardRng, n: u128) -> u128 {
    if let Ok(small) = u64::try_from(n) {
        return u128::from(rng.below(small));
    }
    // The largest multiple of n that fits: draws at or above it are redrawn.
    let zone = u128::MAX - (u128::MAX % n);
    loop {
        let r = u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64());
        if r < zone {
            return r % n;
        }
    }
}

fn binomial(n: u32, k: u32) -> u128 {
    (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
}

/// One suit's splits among the hidden seats: counts per seat and their number
/// of ways (a multinomial coefficient).
type Splits = Vec<(Vec<u8>, u128)>;

/// The sampler of one call at one level of relaxation.
struct Level<'a> {
    hidden: &'a [HiddenSeat],
    suits: [Vec<u8>; NUM_SUITS],
    splits: Vec<Splits>,
    /// `counts[k][room]`: the number of deals of suits `k..` into hands with
    /// `room` cards left to fill.
    counts: Vec<HashMap<Vec<u8>, u128>>,
    level: u8,
}

impl<'a> Level<'a> {
    fn new(unseen: CardSet, hidden: &'a [HiddenSeat], level: u8) -> Level<'a> {
        let suits: [Vec<u8>; NUM_SUITS] = std::array::from_fn(|k| {
            suit_cards(unseen, k as u8)
                .iter()
                .map(|c| c.index())
                .collect()
        });
        let mut this = Level {
            hidden,
            suits,
            splits: Vec::new(),
            counts: vec![HashMap::new(); NUM_SUITS + 1],
            level,
        };
        this.splits = (0..NUM_SUITS).map(|k| this.splits_of(k)).collect();
        this.counts[NUM_SUITS].insert(vec![0; hidden.len()], 1);
        let room = this.rooms();
        this.count(0, &room);
        this
    }

    fn rooms(&self) -> Vec<u8> {
        self.hidden
            .iter()
            .map(|h| 13 - h.played.len() as u8)
            .collect()
    }

    /// How many unseen cards of suit `k` hidden seat `i` may get.
    fn bounds(&self, i: usize, k: usize) -> (u32, u32) {
        let seat = &self.hidden[i];
        let n = self.suits[k].len() as u32;
        let hi = if seat.voids >> k & 1 == 1 { 0 } else { n };
        if self.level >= 2 {
            return (0, hi);
        }
        let had = suit_cards(seat.played, k as u8).len();
        let (lo_want, hi_want) = seat.shows.lengths[k];
        let lo = u32::from(lo_want).saturating_sub(had);
        // A seat that already played more than the most allowed fits no split.
        match u32::from(hi_want).checked_sub(had) {
            Some(top) => (lo, hi.min(top)),
            None => (1, 0),
        }
    }

    fn splits_of(&self, k: usize) -> Splits {
        let n = self.suits[k].len() as u32;
        let bounds: Vec<(u32, u32)> = (0..self.hidden.len()).map(|i| self.bounds(i, k)).collect();
        let mut found = Vec::new();
        let mut parts = Vec::with_capacity(bounds.len());
        fn grow(bounds: &[(u32, u32)], n: u32, left: u32, parts: &mut Vec<u8>, found: &mut Splits) {
            let i = parts.len();
            if i + 1 == bounds.len() {
                if bounds[i].0 <= left && left <= bounds[i].1 {
                    parts.push(left as u8);
                    let mut ways = 1u128;
                    let mut rest = n;
                    for &a in parts.iter() {
                        ways *= binomial(rest, u32::from(a));
                        rest -= u32::from(a);
                    }
                    found.push((parts.clone(), ways));
                    parts.pop();
                }
                return;
            }
            for a in bounds[i].0..=bounds[i].1.min(left) {
                parts.push(a as u8);
                grow(bounds, n, left - a, parts, found);
                parts.pop();
            }
        }
        grow(&bounds, n, n, &mut parts, &mut found);
        found
    }

    fn after(room: &[u8], parts: &[u8]) -> Option<Vec<u8>> {
        room.iter()
            .zip(parts)
            .map(|(&r, &a)| r.checked_sub(a))
            .collect()
    }

    fn count(&mut self, k: usize, room: &[u8]) -> u128 {
        if let Some(&n) = self.counts[k].get(room) {
            return n;
        }
        let mut total = 0u128;
        for s in 0..self.splits[k].len() {
            let (parts, ways) = self.splits[k][s].clone();
            if let Some(after) = Self::after(room, &parts) {
                total += ways * self.count(k + 1, &after);
            }
        }
        self.counts[k].insert(room.to_vec(), total);
        total
    }

    fn feasible(&self) -> bool {
        self.counts[0].get(&self.rooms()).copied().unwrap_or(0) > 0
    }

    /// One try: a deal with the lengths and voids right, or `None` when its
    /// balance or points miss.
    fn try_deal(&self, rng: &mut CardRng) -> Option<Vec<CardSet>> {
        let m = self.hidden.len();
        let mut room = self.rooms();
        let mut chosen: Vec<&[u8]> = Vec::with_capacity(NUM_SUITS);
        for k in 0..NUM_SUITS {
            let weight = |parts: &[u8], ways: u128| {
                Self::after(&room, parts)
                    .and_then(|after| self.counts[k + 1].get(&after))
                    .map_or(0, |&n| ways * n)
            };
            let total: u128 = self.splits[k].iter().map(|(p, w)| weight(p, *w)).sum();
            let mut pick = below_u128(rng, total);
            let mut parts: &[u8] = &self.splits[k][0].0;
            for (p, w) in &self.splits[k] {
                let w = weight(p, *w);
                if pick < w {
                    parts = p;
                    break;
                }
                pick -= w;
            }
            for (r, &a) in room.iter_mut().zip(parts) {
                *r -= a;
            }
            chosen.push(parts);
        }
        if self.level < 2 {
            for (i, seat) in self.hidden.iter().enumerate() {
                if seat.shows.balanced {
                    let lengths = std::array::from_fn(|k| {
                        suit_cards(seat.played, k as u8).len() + u32::from(chosen[k][i])
                    });
                    if !is_balanced(lengths) {
                        return None;
                    }
                }
            }
        }
        let mut hands = vec![CardSet::EMPTY; m];
        let mut cards = Vec::with_capacity(13);
        for (k, parts) in chosen.iter().enumerate() {
            cards.clear();
            cards.extend_from_slice(&self.suits[k]);
            rng.shuffle(&mut cards);
            let mut at = 0;
            for (hand, &a) in hands.iter_mut().zip(parts.iter()) {
                for &c in &cards[at..at + usize::from(a)] {
                    hand.0 |= 1u64 << c;
                }
                at += usize::from(a);
            }
        }
        if self.level < 1 {
            for (hand, seat) in hands.iter().zip(self.hidden) {
                let points = hcp(hand.union(seat.played));
                let (lo, hi) = seat.shows.hcp;
                if points < u32::from(lo) || points > u32::from(hi) {
                    return None;
                }
            }
        }
        Some(hands)
    }
}

/// Check the input: the hidden seats' played cards apart from each other and
/// from `unseen`, and the unseen cards exactly filling the hands.
fn check(unseen: CardSet, hidden: &[HiddenSeat]) -> Result<()> {
    if hidden.is_empty() || hidden.len() > 4 {
        return Err(bad(format!(
            "{} hidden seats; a deal hides 1..4",
            hidden.len()
        )));
    }
    if unseen.0 >> 52 != 0 {
        return Err(bad("unseen has bits outside the 52-card pack".into()));
    }
    let mut seen = unseen;
    let mut room = 0;
    for (i, seat) in hidden.iter().enumerate() {
        if seat.played.0 >> 52 != 0 {
            return Err(bad(format!(
                "hidden seat {i}'s played cards have bits outside the 52-card pack"
            )));
        }
        if seat.played.len() > 13 {
            return Err(bad(format!(
                "hidden seat {i} played {} cards; a hand holds 13",
                seat.played.len()
            )));
        }
        if !seen.intersection(seat.played).is_empty() {
            return Err(bad(format!(
                "hidden seat {i}'s played cards are unseen or played by another seat"
            )));
        }
        if seat.voids >> NUM_SUITS != 0 {
            return Err(bad(format!(
                "hidden seat {i}'s voids {} are not suit bits 0..15",
                seat.voids
            )));
        }
        seen = seen.union(seat.played);
        room += 13 - seat.played.len();
    }
    if room != unseen.len() {
        return Err(bad(format!(
            "{} unseen cards do not fill the hidden hands' {room} places",
            unseen.len()
        )));
    }
    Ok(())
}

/// `samples` deals of `unseen` to the `hidden` seats, uniform over the deals
/// that fit what they have shown (see the module docs), from `seed`; `budget`
/// tries per deal before the next relaxation. `cancel` is polled between tries.
pub fn sample_deals(
    unseen: CardSet,
    hidden: &[HiddenSeat],
    samples: usize,
    seed: u64,
    budget: u64,
    cancel: &Cancel,
) -> Result<SampledDeals> {
    check(unseen, hidden)?;
    if budget == 0 {
        return Err(bad("budget must be at least 1".into()));
    }
    let mut rng = CardRng::new(seed);
    let allowed = budget.saturating_mul(samples as u64);
    let mut tries = 0u64;
    for relaxed in 0..=2u8 {
        let level = Level::new(unseen, hidden, relaxed);
        if !level.feasible() {
            continue;
        }
        let mut deals = Vec::with_capacity(samples);
        let mut spent = 0u64;
        while deals.len() < samples && spent < allowed {
            tries += 1;
            if tries.is_multiple_of(POLL_EVERY) {
                cancel.check()?;
            }
            spent += 1;
            if let Some(hands) = level.try_deal(&mut rng) {
                deals.push(hands);
            }
        }
        // Shapes and voids alone always fit a feasible level: the last level
        // admits every draw, so it never runs out.
        if deals.len() == samples {
            return Ok(SampledDeals { deals, relaxed });
        }
    }
    Err(bad(
        "the unseen cards do not fit the hidden hands' sizes and voids".into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::NEVER;
    use crate::cards::parse_cards;

    fn set(text: &str) -> CardSet {
        CardSet::from_cards(parse_cards(text).unwrap())
    }

    fn seat(played: &str, voids: u8, shows: HandConstraint) -> HiddenSeat {
        HiddenSeat {
            played: if played.is_empty() {
                CardSet::EMPTY
            } else {
                set(played)
            },
            voids,
            shows,
        }
    }

    fn admits(seat: &HiddenSeat, hand: CardSet) -> bool {
        let all = hand.union(seat.played);
        let lengths: [u32; 4] = std::array::from_fn(|k| suit_cards(all, k as u8).len());
        let shows = &seat.shows;
        let points = hcp(all);
        u32::from(shows.hcp.0) <= points
            && points <= u32::from(shows.hcp.1)
            && (0..4).all(|k| {
                u32::from(shows.lengths[k].0) <= lengths[k]
                    && lengths[k] <= u32::from(shows.lengths[k].1)
            })
            && (!shows.balanced || is_balanced(lengths))
    }

    #[test]
    fn points_count_honours() {
        assert_eq!(hcp(set("As Kh Qd Jc 2s")), 10);
        assert_eq!(hcp(CardSet(crate::trick::SUIT_MASKS[0])), 10);
    }

    #[test]
    fn every_deal_fits_and_the_seed_repeats() {
        // The 2..7 of each suit and two eights are seen: 26 cards with every
        // honour left for the two hidden hands.
        let unseen = CardSet((1u64 << 52) - 1).difference(set(
            "2s 3s 4s 5s 6s 7s 2h 3h 4h 5h 6h 7h 2d 3d 4d 5d 6d 7d 2c 3c 4c 5c 6c 7c 8s 8h",
        ));
        let nt = HandConstraint {
            hcp: (15, 17),
            balanced: true,
            ..HandConstraint::default()
        };
        let hidden = [seat("", 0, nt), seat("", 0, HandConstraint::default())];
        let a = sample_deals(unseen, &hidden, 200, 5, 10_000, &NEVER).unwrap();
        assert_eq!(a.relaxed, 0);
        for deal in &a.deals {
            assert_eq!(deal[0].union(deal[1]), unseen);
            assert!(deal[0].intersection(deal[1]).is_empty());
            assert_eq!(deal[0].len(), 13);
            assert!(admits(&hidden[0], deal[0]));
        }
        assert_eq!(
            a,
            sample_deals(unseen, &hidden, 200, 5, 10_000, &NEVER).unwrap()
        );
        assert_ne!(
            a,
            sample_deals(unseen, &hidden, 200, 6, 10_000, &NEVER).unwrap()
        );
    }

    #[test]
    fn voids_and_played_cards_count() {
        // West played the ace of spades and shows three or four spades: two or
        // three of the eight unseen. East is void in diamonds: West gets them.
        let unseen =
            set("Ks Qs Js Ts 9s 8s 7s 6s Kd Qd Jd Td").union(CardSet(crate::trick::SUIT_MASKS[0]));
        let mut some = HandConstraint::default();
        some.lengths[3] = (3, 4);
        let hidden = [
            seat("", 1 << 1, HandConstraint::default()),
            seat("As", 0, some),
        ];
        let found = sample_deals(unseen, &hidden, 200, 1, 1000, &NEVER).unwrap();
        assert_eq!(found.relaxed, 0);
        let mut lengths = std::collections::HashSet::new();
        for deal in &found.deals {
            assert!(suit_cards(deal[0], 1).is_empty());
            assert_eq!(deal[0].len(), 13);
            assert_eq!(deal[1].len(), 12);
            lengths.insert(suit_cards(deal[1], 3).len());
        }
        assert_eq!(lengths, [2, 3].into());
    }

    #[test]
    fn relaxes_points_then_shapes_and_refuses_what_cannot_be() {
        let unseen = CardSet(crate::trick::SUIT_MASKS[0] | crate::trick::SUIT_MASKS[1]);
        let greedy = HandConstraint {
            hcp: (30, 37),
            ..HandConstraint::default()
        };
        let found = sample_deals(unseen, &[seat("", 0, greedy); 2], 3, 1, 100, &NEVER).unwrap();
        assert_eq!(found.relaxed, 1);
        let mut six_spades = greedy;
        six_spades.lengths[3] = (6, 13);
        let hidden = [
            seat("", 0, HandConstraint::default()),
            seat("", 1 << 3, six_spades),
        ];
        let found = sample_deals(unseen, &hidden, 3, 1, 100, &NEVER).unwrap();
        assert_eq!(found.relaxed, 2);
        // Two hands void in clubs cannot take the clubs.
        let err = sample_deals(unseen, &[seat("", 1, greedy); 2], 3, 1, 100, &NEVER);
        assert!(err.is_err());
        assert!(sample_deals(unseen, &[seat("", 0, greedy)], 3, 1, 100, &NEVER).is_err());
        assert!(sample_deals(unseen, &[seat("", 0, greedy); 2], 3, 1, 0, &NEVER).is_err());
        assert!(sample_deals(unseen, &[seat("2c", 0, greedy); 2], 3, 1, 9, &NEVER).is_err());
    }

    #[test]
    fn uniform_over_admitted_deals() {
        // Eight cards, four to each of two seats that played nine cards each;
        // the first shows 13..14 points, 10 of them in its played hearts: its
        // four cards hold 3..4 points of Ac Kc Qd. Count each admitted deal
        // over many draws against the exact share.
        let unseen = set("Ac Kc 2c 3c 4c Qd 2d 3d");
        let shows = HandConstraint {
            hcp: (13, 14),
            ..HandConstraint::default()
        };
        let hidden = [
            seat("Ah Kh Qh Jh Th 9h 8h 7h 6h", 0, shows),
            seat("As Ks Qs Js Ts 9s 8s 7s 6s", 0, HandConstraint::default()),
        ];
        let draws = 20_000;
        let found = sample_deals(unseen, &hidden, draws, 3, 10_000, &NEVER).unwrap();
        assert_eq!(found.relaxed, 0);
        let mut seen: HashMap<u64, usize> = HashMap::new();
        for deal in &found.deals {
            assert!(admits(&hidden[0], deal[0]));
            *seen.entry(deal[0].0).or_default() += 1;
        }
        let cards: Vec<u8> = unseen.iter().map(|c| c.index()).collect();
        let mut admitted = 0u32;
        for mask in 0u32..256 {
            if mask.count_ones() == 4 {
                let hand = CardSet(
                    (0..8)
                        .filter(|b| mask >> b & 1 == 1)
                        .fold(0, |a, b| a | 1 << cards[b]),
                );
                if admits(&hidden[0], hand) {
                    admitted += 1;
                    assert!(seen.contains_key(&hand.0), "an admitted deal never drawn");
                }
            }
        }
        assert_eq!(seen.len() as u32, admitted);
        let expected = draws as f64 / f64::from(admitted);
        let chi2: f64 = seen
            .values()
            .map(|&n| (n as f64 - expected).powi(2) / expected)
            .sum();
        // Kc or Ac with three of the five small cards: 20 deals. The
        // chi-square's 99.9% point at 19 degrees of freedom is 43.8.
        assert_eq!(admitted, 20);
        assert!(chi2 < 43.8, "chi2 {chi2} over {admitted} deals");
    }

    #[test]
    fn cancelled_sampling_stops() {
        let cancel = Cancel::new();
        cancel.cancel();
        let unseen = CardSet(crate::trick::SUIT_MASKS[0] | crate::trick::SUIT_MASKS[1]);
        let greedy = HandConstraint {
            hcp: (30, 37),
            ..HandConstraint::default()
        };
        assert_eq!(
            sample_deals(unseen, &[seat("", 0, greedy); 2], 3, 1, 10_000, &cancel),
            Err(EngineError::Cancelled)
        );
    }
}
