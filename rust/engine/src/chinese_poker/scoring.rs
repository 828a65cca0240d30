//! Pairwise scoring kernels for the four point systems (basic, eastern, western,
//! mandarin). Every pair of players is compared segment by segment; what a pair
//! exchanges is zero-sum, so a table's points always sum to zero.
//!
//! The kernels take ranked segments ([`SegmentHand`]), not cards, so the solver
//! can score millions of comparisons from precomputed ranks. The Python game
//! module implements the same rules in readable form for `score_breakdown`; a
//! test drives both on the same deals and asserts identical totals.

use super::automatic::AutomaticWin;
use crate::error::{EngineError, Result};

/// Front (3 cards), middle (5) and back (5), in this index order.
pub const SEGMENT_NAMES: [&str; 3] = ["front", "middle", "back"];
pub const FRONT: usize = 0;
pub const MIDDLE: usize = 1;
pub const BACK: usize = 2;

/// What an improperly set hand pays to every other player (CP-30).
pub const IMPROPER_PENALTY: i32 = 4;

/// The made hands the bonus tables care about; everything else is `Plain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Made {
    #[default]
    Plain,
    Trips,
    FullHouse,
    Quads,
    StraightFlush,
}

/// One ranked segment: `value` on the evaluator's common scale (higher wins; the
/// front is ranked as a three-card hand on the same scale) and its made hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SegmentHand {
    pub value: u32,
    pub made: Made,
}

/// A properly set hand: front, middle, back.
pub type SetHands = [SegmentHand; 3];

/// What one player brings to the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A properly set hand.
    Set(SetHands),
    /// A hand set with the wrong counts or out of ranking order.
    Improper,
    /// A declared automatic win (already checked to qualify).
    Declared(AutomaticWin),
}

/// The point system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Basic,
    Eastern,
    Western,
    Mandarin,
}

impl Variant {
    pub const NAMES: [&'static str; 4] = ["basic", "eastern", "western", "mandarin"];

    pub fn parse(name: &str) -> Result<Variant> {
        match name {
            "basic" => Ok(Variant::Basic),
            "eastern" => Ok(Variant::Eastern),
            "western" => Ok(Variant::Western),
            "mandarin" => Ok(Variant::Mandarin),
            other => Err(EngineError::RuleOption(format!(
                "unknown variant {other:?}: expected basic, eastern, western or mandarin"
            ))),
        }
    }
}

/// Who earns the majority point (basic and western).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Majority {
    /// Winning at least two of the three segments (the literal majority).
    TwoOfThree,
    /// Winning more segments than the opponent (differs only when segments tie).
    MoreSegments,
}

/// How the mandarin shot and home run apply to the regular points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShotScoring {
    /// The regular value is doubled (shot) or tripled (home run).
    Multiply,
    /// Twice (shot) or three times (home run) the regular value is added to it.
    Add,
}

/// Every scoring rule option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub variant: Variant,
    /// Points a declared automatic win other than the Dragon takes from each opponent.
    pub automatic_win_points: i32,
    /// Points a declared Dragon takes from each opponent.
    pub dragon_points: i32,
    pub majority: Majority,
    /// Western only: also pay the eastern bonus hands.
    pub western_bonus: bool,
    pub shot: ShotScoring,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            variant: Variant::Basic,
            automatic_win_points: 3,
            dragon_points: 13,
            majority: Majority::TwoOfThree,
            western_bonus: false,
            shot: ShotScoring::Multiply,
        }
    }
}

/// The eastern bonus for winning `segment` with `made` (CP-33..CP-35), if any.
pub fn bonus(segment: usize, made: Made) -> Option<i32> {
    match (segment, made) {
        (BACK, Made::StraightFlush) => Some(5),
        (BACK, Made::Quads) => Some(4),
        (MIDDLE, Made::StraightFlush) => Some(10),
        (MIDDLE, Made::Quads) => Some(8),
        (MIDDLE, Made::FullHouse) => Some(2),
        (FRONT, Made::Trips) => Some(3),
        _ => None,
    }
}

/// What the winner of one segment earns, split into the regular value (which the
/// mandarin shot multiplies) and bonus points (added on).
pub fn segment_points(rules: &Rules, segment: usize, made: Made) -> (i32, i32) {
    match rules.variant {
        Variant::Basic => (1, 0),
        Variant::Western if !rules.western_bonus => (1, 0),
        // A winning bonus hand earns only its bonus points (CP-37).
        Variant::Eastern | Variant::Western => (bonus(segment, made).unwrap_or(1), 0),
        Variant::Mandarin => {
            if segment == FRONT {
                // Front trips triple the point value (CP-43); that is the front's bonus.
                (if made == Made::Trips { 3 } else { 1 }, 0)
            } else {
                (1, bonus(segment, made).unwrap_or(0))
            }
        }
    }
}

fn has_majority(rules: &Rules, won: u32, lost: u32) -> bool {
    match rules.majority {
        Majority::TwoOfThree => won >= 2,
        Majority::MoreSegments => won > lost,
    }
}

/// Segment outcomes of `a` against `b`: +1 when `a` ranks higher, -1 lower, 0 tie.
#[inline]
pub fn outcomes(a: &SetHands, b: &SetHands) -> [i8; 3] {
    let mut out = [0i8; 3];
    for s in 0..3 {
        out[s] = match a[s].value.cmp(&b[s].value) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
        };
    }
    out
}

/// One side's gross points against an opponent, from the segments it won.
fn side_total(rules: &Rules, hands: &SetHands, won: [bool; 3], lost: u32, home_run: bool) -> i32 {
    let mut regular = 0;
    let mut extra = 0;
    for s in 0..3 {
        if won[s] {
            let (r, b) = segment_points(rules, s, hands[s].made);
            regular += r;
            extra += b;
        }
    }
    let n_won = won.iter().filter(|&&w| w).count() as u32;
    match rules.variant {
        Variant::Basic | Variant::Western => {
            regular + extra + i32::from(has_majority(rules, n_won, lost))
        }
        Variant::Eastern => regular + extra,
        Variant::Mandarin => {
            let factor = match (rules.shot, home_run, n_won == 3) {
                (ShotScoring::Multiply, true, _) => 3,
                (ShotScoring::Add, true, _) => 4,
                (ShotScoring::Multiply, false, true) => 2,
                (ShotScoring::Add, false, true) => 3,
                (_, false, false) => 1,
            };
            regular * factor + extra
        }
    }
}

/// Net points of set `a` against set `b` (what `b` pays `a`; negative when `a` pays).
/// `home_run` says which side has a mandarin home run at this table.
#[inline]
pub fn pair_sets(rules: &Rules, a: &SetHands, b: &SetHands, home_run: [bool; 2]) -> i32 {
    let out = outcomes(a, b);
    let a_won = out.map(|o| o > 0);
    let b_won = out.map(|o| o < 0);
    let na = a_won.iter().filter(|&&w| w).count() as u32;
    let nb = b_won.iter().filter(|&&w| w).count() as u32;
    side_total(rules, a, a_won, nb, home_run[0]) - side_total(rules, b, b_won, na, home_run[1])
}

fn automatic_points(rules: &Rules, win: AutomaticWin) -> i32 {
    if win == AutomaticWin::Dragon {
        rules.dragon_points
    } else {
        rules.automatic_win_points
    }
}

/// Net points of `a` against `b` for any entries.
///
/// A declared automatic win settles the pair before the hands are opened: it takes
/// its points from a player who did not declare (set properly or not), a Dragon
/// beats any other declaration, and equal declarations exchange nothing. An
/// improperly set hand pays four to every other player (CP-30), a declarer too, on
/// top of the automatic win; two improper hands exchange nothing, and two proper
/// hands are compared segment by segment.
pub fn pair(rules: &Rules, a: &Entry, b: &Entry, home_run: [bool; 2]) -> i32 {
    match (a, b) {
        (Entry::Declared(x), Entry::Improper) => automatic_points(rules, *x) + IMPROPER_PENALTY,
        (Entry::Improper, Entry::Declared(y)) => -automatic_points(rules, *y) - IMPROPER_PENALTY,
        (Entry::Declared(x), Entry::Declared(y)) => match x.level().cmp(&y.level()) {
            std::cmp::Ordering::Greater => automatic_points(rules, *x),
            std::cmp::Ordering::Less => -automatic_points(rules, *y),
            std::cmp::Ordering::Equal => 0,
        },
        (Entry::Declared(x), _) => automatic_points(rules, *x),
        (_, Entry::Declared(y)) => -automatic_points(rules, *y),
        (Entry::Improper, Entry::Improper) => 0,
        (Entry::Improper, Entry::Set(_)) => -IMPROPER_PENALTY,
        (Entry::Set(_), Entry::Improper) => IMPROPER_PENALTY,
        (Entry::Set(x), Entry::Set(y)) => pair_sets(rules, x, y, home_run),
    }
}

/// Which players have a mandarin home run: only in a four-handed game, a player
/// who wins all three segments against each of the three opponents on showdown.
pub fn home_runs(rules: &Rules, entries: &[Entry]) -> Vec<bool> {
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            rules.variant == Variant::Mandarin
                && entries.len() == 4
                && match e {
                    Entry::Set(mine) => entries.iter().enumerate().all(|(j, other)| {
                        j == i
                            || matches!(other, Entry::Set(theirs)
                                if outcomes(mine, theirs) == [1, 1, 1])
                    }),
                    _ => false,
                }
        })
        .collect()
}

/// Points per player for a whole table (sums to zero).
pub fn score_table(rules: &Rules, entries: &[Entry]) -> Vec<i32> {
    let home = home_runs(rules, entries);
    let mut totals = vec![0i32; entries.len()];
    for i in 0..entries.len() {
        for j in i + 1..entries.len() {
            let net = pair(rules, &entries[i], &entries[j], [home[i], home[j]]);
            totals[i] += net;
            totals[j] -= net;
        }
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(value: u32) -> SegmentHand {
        SegmentHand {
            value,
            made: Made::Plain,
        }
    }

    fn made(value: u32, made: Made) -> SegmentHand {
        SegmentHand { value, made }
    }

    fn rules(variant: Variant) -> Rules {
        Rules {
            variant,
            ..Rules::default()
        }
    }

    // CP-09, CP-11..CP-14: one point per segment won, pair by pair.
    // CP-15, CP-16: two of three nets two (2 - 1 + 1 for the majority).
    // CP-17, CP-18: all three nets four (3 + 1 for the majority).
    #[test]
    fn basic_worked_examples() {
        let r = rules(Variant::Basic);
        let a = [seg(10), seg(20), seg(30)];
        let b = [seg(5), seg(25), seg(25)];
        let c = [seg(1), seg(2), seg(3)];
        assert_eq!(pair_sets(&r, &a, &b, [false; 2]), 2);
        assert_eq!(pair_sets(&r, &b, &a, [false; 2]), -2);
        assert_eq!(pair_sets(&r, &a, &c, [false; 2]), 4);
        assert_eq!(pair_sets(&r, &a, &a, [false; 2]), 0);
    }

    // CP-12: a tied segment earns no point; the majority needs two wins by default.
    #[test]
    fn ties_and_majority_option() {
        let a = [seg(10), seg(20), seg(30)];
        let b = [seg(5), seg(20), seg(30)];
        assert_eq!(pair_sets(&rules(Variant::Basic), &a, &b, [false; 2]), 1);
        let more = Rules {
            majority: Majority::MoreSegments,
            ..Rules::default()
        };
        assert_eq!(pair_sets(&more, &a, &b, [false; 2]), 2);
    }

    // CP-33..CP-37: eastern bonus hands earn only their bonus points; no majority point.
    #[test]
    fn eastern_bonus_table() {
        let r = rules(Variant::Eastern);
        let plain = [seg(10), seg(20), seg(30)];
        let weaker = [seg(5), seg(25), seg(25)];
        assert_eq!(pair_sets(&r, &plain, &weaker, [false; 2]), 1);
        let monsters = [
            made(50, Made::Trips),
            made(90, Made::StraightFlush),
            made(95, Made::StraightFlush),
        ];
        assert_eq!(pair_sets(&r, &monsters, &plain, [false; 2]), 3 + 10 + 5);
        let quads = [seg(1), made(80, Made::Quads), made(85, Made::Quads)];
        assert_eq!(pair_sets(&r, &quads, &plain, [false; 2]), 8 + 4 - 1);
        let boat = [seg(1), made(60, Made::FullHouse), made(70, Made::FullHouse)];
        assert_eq!(pair_sets(&r, &boat, &plain, [false; 2]), 2 + 1 - 1);
    }

    // CP-39, CP-40: western pays one per segment plus one for the majority.
    #[test]
    fn western_majority_and_bonus_option() {
        let r = rules(Variant::Western);
        let a = [seg(10), seg(20), made(90, Made::Quads)];
        let b = [seg(15), seg(15), seg(30)];
        assert_eq!(pair_sets(&r, &a, &b, [false; 2]), 2);
        let with_bonus = Rules {
            western_bonus: true,
            ..r
        };
        assert_eq!(pair_sets(&with_bonus, &a, &b, [false; 2]), 1 + 4 + 1 - 1);
    }

    // CP-42..CP-49: mandarin: front trips triple, bonuses added, shot doubles the
    // regular value, a four-handed home run triples it.
    #[test]
    fn mandarin_shot_and_home_run() {
        let r = rules(Variant::Mandarin);
        let a = [seg(10), seg(20), seg(30)];
        let b = [seg(5), seg(25), seg(25)];
        assert_eq!(pair_sets(&r, &a, &b, [false; 2]), 1);
        let trips = [made(50, Made::Trips), seg(10), seg(20)];
        assert_eq!(pair_sets(&r, &trips, &a, [false; 2]), 3 - 2);
        let low = [seg(1), seg(2), seg(3)];
        assert_eq!(pair_sets(&r, &a, &low, [false; 2]), 6);
        let strong = [
            made(50, Made::Trips),
            made(60, Made::FullHouse),
            made(80, Made::Quads),
        ];
        assert_eq!(pair_sets(&r, &strong, &low, [false; 2]), 5 * 2 + 2 + 4);
        assert_eq!(pair_sets(&r, &strong, &low, [true, false]), 5 * 3 + 2 + 4);
        let add = Rules {
            shot: ShotScoring::Add,
            ..r
        };
        assert_eq!(pair_sets(&add, &a, &low, [false; 2]), 3 + 6);
        assert_eq!(pair_sets(&add, &a, &low, [true, false]), 3 + 9);
        let table = [
            Entry::Set(strong),
            Entry::Set(low),
            Entry::Set(a),
            Entry::Set(b),
        ];
        assert_eq!(home_runs(&r, &table), [true, false, false, false]);
        assert_eq!(home_runs(&r, &table[..3]), [false; 3]);
        assert_eq!(score_table(&r, &table).iter().sum::<i32>(), 0);
    }

    // CP-19..CP-23, CP-30: declarations settle a pair first; improper hands pay four.
    #[test]
    fn declarations_and_improper_sets() {
        let r = rules(Variant::Basic);
        let a = [seg(10), seg(20), seg(30)];
        let table = [
            Entry::Declared(AutomaticWin::SixPairs),
            Entry::Set(a),
            Entry::Improper,
            Entry::Declared(AutomaticWin::Dragon),
        ];
        // An improper hand pays its four to declarers too (CP-30: all other players).
        // Six pairs: +3 (set) +3+4 (improper) -13 (dragon) = -3.
        // Set: -3 +4 -13 = -12. Improper: -7 -4 -17 = -28. Dragon: 13 * 3 + 4 = 43.
        assert_eq!(score_table(&r, &table), [-3, -12, -28, 43]);
        let tie = [
            Entry::Declared(AutomaticWin::ThreeFlushes),
            Entry::Declared(AutomaticWin::ThreeStraights),
            Entry::Improper,
            Entry::Improper,
        ];
        // Each declarer: +3 and +4 from each improper hand; each improper: -14.
        assert_eq!(score_table(&r, &tie), [14, 14, -14, -14]);
    }

    #[test]
    fn variant_names() {
        for name in Variant::NAMES {
            assert!(Variant::parse(name).is_ok());
        }
        assert!(Variant::parse("klondike").is_err());
    }
}
