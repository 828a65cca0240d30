//! Automatic wins: 13-card hands that win without being opened when declared.
//!
//! Detection is pure rank and suit logic on the whole hand, because each
//! automatic win is defined by what the 13 cards *can* be set as (three flushes,
//! three straights), not by how the player actually set them.

use crate::cards::Card;
use crate::error::{EngineError, Result};

/// An automatic win, in ascending precedence: only the Dragon outranks the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AutomaticWin {
    /// Suited cards in all three parts (a straight flush counts as a flush).
    ThreeFlushes,
    /// Straights in all three parts (a straight flush counts as a straight).
    ThreeStraights,
    /// Six pairs; four of a kind counts as two pairs.
    SixPairs,
    /// Ace through King, any suits: beats every other automatic win.
    Dragon,
}

impl AutomaticWin {
    /// Every automatic win, in declaration-name order.
    pub const ALL: [AutomaticWin; 4] = [
        AutomaticWin::Dragon,
        AutomaticWin::SixPairs,
        AutomaticWin::ThreeFlushes,
        AutomaticWin::ThreeStraights,
    ];

    /// The name used in `declare <name>` actions.
    pub fn as_str(self) -> &'static str {
        match self {
            AutomaticWin::Dragon => "dragon",
            AutomaticWin::SixPairs => "six_pairs",
            AutomaticWin::ThreeFlushes => "three_flushes",
            AutomaticWin::ThreeStraights => "three_straights",
        }
    }

    /// Parse a declaration name (`dragon`, `six_pairs`, `three_flushes`, `three_straights`).
    pub fn parse(name: &str) -> Result<AutomaticWin> {
        AutomaticWin::ALL
            .into_iter()
            .find(|w| w.as_str() == name)
            .ok_or_else(|| {
                EngineError::IllegalAction(format!(
                    "unknown automatic win {name:?}: expected dragon, six_pairs, \
                     three_flushes or three_straights"
                ))
            })
    }

    /// Precedence level when two declared automatic wins meet: the Dragon is 1,
    /// every other automatic win 0 (the rules rank only the Dragon above the rest).
    pub fn level(self) -> u8 {
        u8::from(self == AutomaticWin::Dragon)
    }

    /// Whether `hand` (13 distinct cards) qualifies for this automatic win.
    pub fn qualifies(self, hand: &[Card]) -> bool {
        if hand.len() != 13 || hand.iter().any(|c| c.is_joker()) {
            return false;
        }
        let ranks = rank_counts(hand);
        match self {
            AutomaticWin::Dragon => ranks.iter().all(|&n| n == 1),
            AutomaticWin::SixPairs => ranks.iter().map(|&n| n / 2).sum::<u8>() >= 6,
            AutomaticWin::ThreeFlushes => three_flushes(hand),
            AutomaticWin::ThreeStraights => three_straights(ranks),
        }
    }
}

/// Every automatic win `hand` qualifies for, strongest first.
pub fn automatic_wins(hand: &[Card]) -> Vec<AutomaticWin> {
    let mut wins: Vec<AutomaticWin> = AutomaticWin::ALL
        .into_iter()
        .filter(|w| w.qualifies(hand))
        .collect();
    wins.sort_by(|a, b| b.cmp(a));
    wins
}

fn rank_counts(hand: &[Card]) -> [u8; 13] {
    let mut counts = [0u8; 13];
    for c in hand {
        counts[c.rank() as usize] += 1;
    }
    counts
}

/// Segment sizes 3, 5 and 5 each fit inside one suit: try every assignment of
/// the three segments to suits and check that each suit's count is exactly used.
fn three_flushes(hand: &[Card]) -> bool {
    let mut suits = [0u8; 4];
    for c in hand {
        if let Some(s) = c.suit() {
            suits[s as usize] += 1;
        }
    }
    const SIZES: [u8; 3] = [3, 5, 5];
    (0..64).any(|code: usize| {
        let mut need = [0u8; 4];
        for (k, size) in SIZES.iter().enumerate() {
            need[(code >> (2 * k)) & 3] += size;
        }
        need == suits
    })
}

/// The ranks (0 = deuce .. 12 = ace) of a straight of `len` cards whose lowest
/// card is `low`, where `low == -1` means the ace played low (A-2-3, A-2-3-4-5).
fn straight_ranks(low: i8, len: i8) -> impl Iterator<Item = usize> {
    (low..low + len).map(|r| if r < 0 { 12 } else { r as usize })
}

/// Take a straight of `len` from `ranks` starting at `low`; false (unchanged) if short.
fn take(ranks: &mut [u8; 13], low: i8, len: i8) -> bool {
    let mut trial = *ranks;
    for r in straight_ranks(low, len) {
        if trial[r] == 0 {
            return false;
        }
        trial[r] -= 1;
    }
    *ranks = trial;
    true
}

/// A three-card straight in front and five-card straights in the middle and back.
/// The ace plays high or low (PKR-16), so fronts run A-2-3 .. Q-K-A and five-card
/// straights A-2-3-4-5 .. T-J-Q-K-A.
fn three_straights(ranks: [u8; 13]) -> bool {
    for back in -1i8..=8 {
        let mut after_back = ranks;
        if !take(&mut after_back, back, 5) {
            continue;
        }
        for middle in back..=8 {
            let mut after_middle = after_back;
            if !take(&mut after_middle, middle, 5) {
                continue;
            }
            for front in -1i8..=10 {
                let mut rest = after_middle;
                if take(&mut rest, front, 3) {
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn wins(text: &str) -> Vec<AutomaticWin> {
        automatic_wins(&parse_cards(text).unwrap())
    }

    // CP-21, CP-22: the Dragon is Ace through King of any suit.
    #[test]
    fn dragon() {
        // Every Dragon is also three straights (A-2-3, 4..8, 9..K).
        assert_eq!(
            wins("As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s"),
            [AutomaticWin::Dragon, AutomaticWin::ThreeStraights]
        );
        // A suited dragon is also three flushes and three straights; the Dragon ranks first.
        let suited = wins("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s");
        assert_eq!(suited[0], AutomaticWin::Dragon);
        assert!(suited.contains(&AutomaticWin::ThreeFlushes));
        assert!(suited.contains(&AutomaticWin::ThreeStraights));
    }

    // CP-23: the Dragon beats all other automatic wins; the others share one level.
    #[test]
    fn precedence_levels() {
        assert!(AutomaticWin::Dragon.level() > AutomaticWin::SixPairs.level());
        assert_eq!(
            AutomaticWin::SixPairs.level(),
            AutomaticWin::ThreeFlushes.level()
        );
        assert_eq!(
            AutomaticWin::ThreeFlushes.level(),
            AutomaticWin::ThreeStraights.level()
        );
    }

    // CP-24, CP-25: six pairs; four of a kind counts as two pairs, trips as one.
    #[test]
    fn six_pairs() {
        assert_eq!(
            wins("As Ad Ks Kd Qs Qd Js Jd Ts Td 9s 9d 2c"),
            [AutomaticWin::SixPairs]
        );
        assert_eq!(
            wins("As Ad Ah Ac Ks Kd Qs Qd Js Jd Ts Td 2c"),
            [AutomaticWin::SixPairs]
        );
        assert_eq!(
            wins("As Ad Ah Ks Kd Qs Qd Js Jd Ts Td 9s 9c"),
            [AutomaticWin::SixPairs]
        );
        assert!(wins("As Ad Ah Ks Kd Qs Qd Js Jd Ts 8d 9s 2c").is_empty());
    }

    // CP-26: suited cards in all three parts, with suit sizes 3 + 5 + 5 or 8 + 5 etc.
    #[test]
    fn three_flushes_by_suit_counts() {
        assert_eq!(
            wins("2h 7h Kh 3s 5s 8s Ts Qs 2d 4d 6d 9d Jd"),
            [AutomaticWin::ThreeFlushes]
        );
        assert_eq!(
            wins("2h 4h 6h 7h 9h Jh Kh Ah 3d 5d 7d 9d Jd"),
            [AutomaticWin::ThreeFlushes]
        );
        assert!(wins("2h 7h Kh 3s 5s 8s Ts Qs 2d 4d 6d 9d Jc").is_empty());
    }

    // CP-27, CP-28, PKR-16: straights in all three parts; the ace plays high or low
    // and a straight flush counts as a straight.
    #[test]
    fn three_straights_with_ace_both_ways() {
        assert_eq!(
            wins("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc")[0],
            AutomaticWin::Dragon
        );
        assert_eq!(
            wins("Ac 2d 3h 5s 6c 7d 8h 9s 9c Td Jh Qs Kc"),
            [AutomaticWin::ThreeStraights]
        );
        assert_eq!(
            wins("Qc Kd Ah 2s 3s 4s 5s 6s 5c 6d 7h 8s 9c"),
            [AutomaticWin::ThreeStraights]
        );
        assert!(wins("Kc Ad 2h 3s 4s 5s 6s 7s 5c 6d 7h 8s 9c").is_empty());
    }

    #[test]
    fn names_round_trip_and_bad_input() {
        for w in AutomaticWin::ALL {
            assert_eq!(AutomaticWin::parse(w.as_str()).unwrap(), w);
        }
        assert!(AutomaticWin::parse("royal").is_err());
        assert!(!AutomaticWin::Dragon.qualifies(&parse_cards("As Kd").unwrap()));
    }
}
