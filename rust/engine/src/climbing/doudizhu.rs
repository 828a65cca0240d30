//! Dou Dizhu combinations (the Dou Dizhu section of the French-54 rule text):
//! readings, leads, responses, comparison and the fixed action index.
//!
//! Runs (straights of 5+, pair runs of 3+ pairs, airplanes of 2+ triples) never
//! hold a 2 or a joker. Airplane wings are none, one single per triple (singles may
//! pair, never a triple, a bomb, both jokers or a core rank) or one pair per
//! triple (distinct ranks, no core rank). Four-with-two takes two singles (a pair
//! allowed, both jokers not) or two distinct pairs, and is not a bomb. Attached
//! cards never share the rank of the triple or four they attach to.

use super::index::ActionIndex;
use super::playout::pack;
use super::{groups, pair_wings, rank_key, rank_span, ranks_up, run_keys, run_span, single_wings};
use super::{Combination, Kind, Ranks, MAX_RUN};
use super::{Held, JOKERS};
use super::{BLACK_JOKER, RED_JOKER, TWO};
use std::sync::OnceLock;

/// The Dou Dizhu types, in action-index order: the first fourteen of [`Kind::ALL`]
/// (the rest are Zheng Shangyou's bombs).
pub const KINDS: [Kind; 14] = match Kind::ALL.first_chunk::<14>() {
    Some(kinds) => *kinds,
    None => unreachable!(),
};

/// The lengths a `kind` can have (runs: their minimum up to twelve ranks).
fn lengths(kind: Kind) -> std::ops::RangeInclusive<u8> {
    match kind {
        Kind::Straight => 5..=MAX_RUN,
        Kind::PairRun => 3..=MAX_RUN,
        Kind::Airplane | Kind::AirplaneSingles | Kind::AirplanePairs => 2..=MAX_RUN,
        _ => 1..=1,
    }
}

/// Every `kind` play from `hand` whose length is in `lens` and whose main rank is
/// above `above` (`None`: any), as `emit(kind, main, length, key)` with the play's
/// [`Ranks::key`]: mass move generation wants keys, and one walk serves both it and
/// the [`Combination`] listings.
fn generate(
    hand: &Held,
    kind: Kind,
    lens: std::ops::RangeInclusive<u8>,
    above: Option<u8>,
    emit: &mut impl FnMut(Kind, u8, u8, u64),
) {
    let low = above.map_or(0, |a| a + 1);
    let [_, ones, twos, threes, fours] = hand.at_least;
    let mut group = |r, key| emit(kind, r, 1, key);
    match kind {
        Kind::Single => groups(hand, 1, low, RED_JOKER, &mut group),
        Kind::Pair => groups(hand, 2, low, TWO, &mut group),
        Kind::Triple => groups(hand, 3, low, TWO, &mut group),
        Kind::Bomb => groups(hand, 4, low, TWO, &mut group),
        Kind::Rocket => {
            if above.is_none() && ones & JOKERS == JOKERS {
                emit(
                    kind,
                    RED_JOKER,
                    1,
                    rank_key(BLACK_JOKER) + rank_key(RED_JOKER),
                );
            }
        }
        Kind::TripleSingle | Kind::TriplePair => {
            let (need, attach) = if kind == Kind::TriplePair {
                // Pairs stop at the 2: the jokers are two different ranks.
                (2, twos & !JOKERS)
            } else {
                (1, ones)
            };
            for t in ranks_up(threes & rank_span(low, TWO)) {
                let core = 3 * rank_key(t);
                for a in ranks_up(attach & !(1 << t)) {
                    emit(kind, t, 1, core + need * rank_key(a));
                }
            }
        }
        Kind::Straight => run_keys(hand, 1, lens, low, |top, len, key| {
            emit(kind, top, len, key)
        }),
        Kind::PairRun => run_keys(hand, 2, lens, low, |top, len, key| {
            emit(kind, top, len, key)
        }),
        Kind::Airplane => run_keys(hand, 3, lens, low, |top, len, key| {
            emit(kind, top, len, key)
        }),
        Kind::AirplaneSingles | Kind::AirplanePairs => {
            run_keys(hand, 3, lens, low, |top, len, core| {
                // Wings never use a core rank.
                let free = !run_span(top, len);
                let mut wing = |wings| emit(kind, top, len, core + wings);
                if kind == Kind::AirplaneSingles {
                    single_wings(ones & free, twos & free, len, &mut wing);
                } else {
                    pair_wings(twos & free, len, &mut wing);
                }
            });
        }
        Kind::FourTwoSingles | Kind::FourTwoPairs => {
            for f in ranks_up(fours & rank_span(low, TWO)) {
                let core = 4 * rank_key(f);
                let free = !(1u16 << f);
                let mut wing = |wings| emit(kind, f, 1, core + wings);
                if kind == Kind::FourTwoSingles {
                    single_wings(ones & free, twos & free, 2, &mut wing);
                } else {
                    pair_wings(twos & free, 2, &mut wing);
                }
            }
        }
        // Other games' shapes.
        Kind::AceBomb | Kind::HeavenlyBomb | Kind::StraightFlush | Kind::JokerBomb => {}
    }
}

/// Every legal lead from `hand` as `emit(kind, main, length, key)`: every play of
/// every type, by type, length, main rank.
fn each_lead(hand: &Ranks, emit: &mut impl FnMut(Kind, u8, u8, u64)) {
    let hand = Held::new(hand);
    for kind in KINDS {
        generate(&hand, kind, lengths(kind), None, emit);
    }
}

/// Every legal answer to `table` from `hand` (pass not included) as
/// `emit(kind, main, length, key)`: the same type and length with a higher main
/// rank, any bomb over a non-bomb, a higher bomb over a bomb, and the rocket over
/// anything.
fn each_response(hand: &Ranks, table: &Combination, emit: &mut impl FnMut(Kind, u8, u8, u64)) {
    let hand = &Held::new(hand);
    match table.kind {
        Kind::Rocket => return,
        Kind::Bomb => generate(hand, Kind::Bomb, 1..=1, Some(table.main), emit),
        kind => {
            generate(
                hand,
                kind,
                table.length..=table.length,
                Some(table.main),
                emit,
            );
            generate(hand, Kind::Bomb, 1..=1, None, emit);
        }
    }
    generate(hand, Kind::Rocket, 1..=1, None, emit);
}

/// Every legal play from `hand`, leads when `table` is `None` else answers to it
/// (pass not included), as `emit(kind, main, length, key)` in the order of
/// [`leads`] and [`responses`]: listing by id without building the list.
pub fn each_play(
    hand: &Ranks,
    table: Option<&Combination>,
    emit: &mut impl FnMut(Kind, u8, u8, u64),
) {
    match table {
        None => each_lead(hand, emit),
        Some(t) => each_response(hand, t, emit),
    }
}

/// A sink for [`each_lead`]/[`each_response`] that builds combinations.
fn push_into(out: &mut Vec<Combination>) -> impl FnMut(Kind, u8, u8, u64) + '_ {
    |kind, main, length, key| out.push(Combination::new(kind, main, length, Ranks::from_key(key)))
}

/// Every legal lead from `hand`: every play of every type, by type, length, main rank.
pub fn leads(hand: &Ranks) -> Vec<Combination> {
    // A 20-card hand averages some 80 leads.
    let mut out = Vec::with_capacity(128);
    leads_into(hand, &mut out);
    out
}

/// [`leads`] appended to `out`, for callers that reuse one buffer.
pub fn leads_into(hand: &Ranks, out: &mut Vec<Combination>) {
    each_lead(hand, &mut push_into(out));
}

/// `f(key)` with the [`Ranks::key`] of each of [`leads`], in the same order: mass
/// move generation without building combinations or an intermediate list.
pub fn lead_keys(hand: &Ranks, mut f: impl FnMut(u64)) {
    each_lead(hand, &mut |_, _, _, key| f(key));
}

/// Every legal answer to `table` from `hand` (pass not included): the same type
/// and length with a higher main rank, any bomb over a non-bomb, a higher bomb over
/// a bomb, and the rocket over anything.
pub fn responses(hand: &Ranks, table: &Combination) -> Vec<Combination> {
    let mut out = Vec::new();
    each_response(hand, table, &mut push_into(&mut out));
    out
}

/// `f(key)` with the [`Ranks::key`] of each of [`responses`], in the same order.
pub fn response_keys(hand: &Ranks, table: &Combination, mut f: impl FnMut(u64)) {
    each_response(hand, table, &mut |_, _, _, key| f(key));
}

/// Whether `play` beats `table` (DDZ-14, DDZ-20..22).
pub fn beats(play: &Combination, table: &Combination) -> bool {
    match (play.kind, table.kind) {
        (_, Kind::Rocket) => false,
        (Kind::Rocket, _) => true,
        (Kind::Bomb, Kind::Bomb) => play.main > table.main,
        (Kind::Bomb, _) => true,
        (k, t) => k == t && play.length == table.length && play.main > table.main,
    }
}

/// Every reading of `cards` as one Dou Dizhu combination; empty when it forms none.
pub fn classify(cards: &Ranks) -> Vec<Combination> {
    let n = cards.len();
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    // A reading of `cards` is a play from them that uses every card.
    let key = cards.key();
    let mut keep = |kind, main, length, play: u64| {
        if play == key && Ranks::from_key(play) == *cards {
            out.push(Combination::new(kind, main, length, *cards));
        }
    };
    let held = Held::new(cards);
    for kind in KINDS {
        for len in lengths(kind) {
            if kind.size(len) == n {
                generate(&held, kind, len..=len, None, &mut keep);
            }
        }
    }
    out
}

/// Ids before the plays: pass and the three bids.
pub const FIRST_PLAY_ID: u32 = 4;
/// The largest hand (17 dealt plus the 3 bottom cards) bounds every play.
pub const MAX_PLAY_CARDS: usize = 20;

/// The fixed Dou Dizhu action space for learning code: `pass` (id 0), `bid 1..3`
/// (ids 1..=3), then every rank-multiset play of at most 20 cards (a hand's size)
/// ordered by type (the order of [`KINDS`]), length, main rank, then wing ranks;
/// built on first use.
pub fn action_index() -> &'static ActionIndex {
    static INDEX: OnceLock<ActionIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let plays = leads(&pack(true));
        ActionIndex::build(FIRST_PLAY_ID, &KINDS, plays, MAX_PLAY_CARDS)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::climbing::Kind::*;
    use crate::climbing::NUM_RANKS;

    fn r(s: &str) -> Ranks {
        Ranks::parse(s).unwrap()
    }

    fn kinds(s: &str) -> Vec<(Kind, String, u8)> {
        classify(&r(s))
            .iter()
            .map(|c| {
                let main = crate::climbing::RANK_CHARS[c.main as usize].to_string();
                (c.kind, main, c.length)
            })
            .collect()
    }

    fn one(s: &str) -> Combination {
        let all = classify(&r(s));
        assert_eq!(all.len(), 1, "{s}: {all:?}");
        all[0]
    }

    #[test]
    fn basic_combinations() {
        // DDZ-23: single, pair, triple, triple with a single, triple with a pair.
        assert_eq!(kinds("5"), vec![(Single, "5".into(), 1)]);
        assert_eq!(kinds("B"), vec![(Single, "B".into(), 1)]);
        assert_eq!(kinds("77"), vec![(Pair, "7".into(), 1)]);
        assert_eq!(kinds("QQQ"), vec![(Triple, "Q".into(), 1)]);
        assert_eq!(kinds("3334"), vec![(TripleSingle, "3".into(), 1)]);
        assert_eq!(kinds("333R"), vec![(TripleSingle, "3".into(), 1)]);
        assert_eq!(kinds("22255"), vec![(TriplePair, "2".into(), 1)]);
        // Jokers are two ranks: they pair with nothing.
        assert!(kinds("BR").iter().all(|k| k.0 == Rocket));
        assert!(kinds("333BR").is_empty());
        assert!(kinds("34").is_empty());
        assert!(kinds("").is_empty());
    }

    #[test]
    fn runs_need_their_length_and_no_two_or_joker() {
        // DDZ-24, DDZ-25, DDZ-26, DDZ-27.
        assert_eq!(kinds("34567"), vec![(Straight, "7".into(), 5)]);
        assert_eq!(kinds("3456789TJQKA"), vec![(Straight, "A".into(), 12)]);
        assert!(kinds("3456").is_empty());
        assert!(kinds("TJQKA2").is_empty());
        assert!(kinds("JQKA2").is_empty());
        assert!(kinds("89TJQB").is_empty());
        assert_eq!(kinds("334455"), vec![(PairRun, "5".into(), 3)]);
        assert!(kinds("3344").is_empty());
        assert!(kinds("KKAA22").is_empty());
        assert_eq!(kinds("333444"), vec![(Airplane, "4".into(), 2)]);
        assert!(kinds("333555").is_empty());
        assert!(kinds("AAA222").is_empty());
        assert_eq!(kinds("QQQKKKAAA"), vec![(Airplane, "A".into(), 3)]);
    }

    #[test]
    fn airplane_wings() {
        // DDZ-28: no wings, one single per triple, one pair per triple.
        assert_eq!(kinds("33344456"), vec![(AirplaneSingles, "4".into(), 2)]);
        assert_eq!(kinds("3334445566"), vec![(AirplanePairs, "4".into(), 2)]);
        // DDZ-29: single wings may form a pair ...
        assert_eq!(kinds("33344455"), vec![(AirplaneSingles, "4".into(), 2)]);
        assert_eq!(kinds("3334442B"), vec![(AirplaneSingles, "4".into(), 2)]);
        // ... but hold no triple, no bomb, not both jokers and no core rank.
        assert!(kinds("333444555666777888").iter().all(|k| k.0 == Airplane));
        assert!(kinds("333444555777").is_empty());
        assert!(kinds("33344455557").is_empty());
        assert!(kinds("3334445555").is_empty());
        assert!(kinds("333444BR").is_empty());
        assert!(kinds("33334445").is_empty());
        assert!(kinds("3333444455556666").is_empty());
        // DDZ-30: pair wings use distinct ranks and no core rank.
        assert!(kinds("3334445555").is_empty());
        assert!(kinds("333444555666TTTT")
            .iter()
            .all(|k| k.0 != AirplanePairs));
        assert_eq!(
            kinds("333444555TTJJQQ"),
            vec![(AirplanePairs, "5".into(), 3)]
        );
        assert!(kinds("3333444455").is_empty());
        // Wing count must match the core: 2 triples take 2 singles or 2 pairs.
        assert!(kinds("3334445").is_empty());
        assert!(kinds("333444567").is_empty());
        assert!(kinds("33344455667").is_empty());
    }

    #[test]
    fn four_with_two() {
        // DDZ-31: four of a kind plus two cards.
        assert_eq!(kinds("555567"), vec![(FourTwoSingles, "5".into(), 1)]);
        // DDZ-32: the two may be a pair, but not both jokers.
        assert_eq!(kinds("555577"), vec![(FourTwoSingles, "5".into(), 1)]);
        assert_eq!(kinds("55557B"), vec![(FourTwoSingles, "5".into(), 1)]);
        assert!(kinds("5555BR").is_empty());
        // DDZ-33: two distinct pairs.
        assert_eq!(kinds("55557799"), vec![(FourTwoPairs, "5".into(), 1)]);
        assert!(kinds("55557777").is_empty());
        // `33334444` is not a combination at all: the pairs would not be distinct
        // and wings never use the core rank.
        assert!(kinds("33334444").is_empty());
        assert!(kinds("5555779").is_empty());
    }

    #[test]
    fn attachments_do_not_make_a_bomb() {
        // DDZ-34: four with attachments is not a bomb; DDZ-18: attachments do not
        // decide strength.
        let four_two = one("555567");
        let small = one("333345");
        assert!(!four_two.kind.is_bomb());
        assert!(beats(&four_two, &small));
        assert!(!beats(&small, &four_two));
        assert!(!beats(&one("3333AK"), &one("4444"))); // not a bomb, only a four-two
        assert!(beats(&one("4444"), &one("3333AK")));
        assert!(beats(&one("4445"), &one("333K")));
        assert!(!beats(&one("333A"), &one("4445")));
        assert!(!beats(&one("33344456"), &one("33344455")));
        assert!(beats(&one("44455536"), &one("333444KA")));
    }

    #[test]
    fn comparison() {
        // DDZ-14: same type and size, higher. DDZ-16, DDZ-17.
        assert!(beats(&one("R"), &one("B")));
        assert!(beats(&one("B"), &one("2")));
        assert!(beats(&one("2"), &one("A")));
        assert!(beats(&one("A"), &one("K")));
        assert!(!beats(&one("3"), &one("3")));
        assert!(!beats(&one("55"), &one("4")));
        assert!(!beats(&one("45678"), &one("3456789")));
        assert!(beats(&one("45678"), &one("34567")));
        // DDZ-19: runs and airplanes compare the highest core rank.
        assert!(beats(&one("444555"), &one("333444")));
        assert!(beats(&one("4445553K"), &one("333444AA")));
        // DDZ-20..22: bombs beat ordinaries, compare by rank, rocket beats all.
        assert!(beats(&one("3333"), &one("3456789TJQKA")));
        assert!(beats(&one("4444"), &one("3333")));
        assert!(!beats(&one("3333"), &one("4444")));
        assert!(beats(&one("BR"), &one("2222")));
        assert!(!beats(&one("2222"), &one("BR")));
        assert!(!beats(&one("BR"), &one("BR")));
    }

    #[test]
    fn responses_follow_the_table() {
        // DDZ-13, DDZ-14, DDZ-20, DDZ-22.
        let hand = r("3445566778899TTJJBR2222");
        let table = one("34567");
        let resp = responses(&hand, &table);
        let texts: Vec<String> = resp.iter().map(|c| c.to_string()).collect();
        assert!(texts.contains(&"45678".to_string()));
        assert!(!texts.contains(&"89TJ2".to_string()));
        assert!(texts.contains(&"2222".to_string()));
        assert!(texts.contains(&"BR".to_string()));
        assert!(!texts.contains(&"34567".to_string()));
        assert!(resp.iter().all(|c| beats(c, &table)));
        assert!(responses(&hand, &one("BR")).is_empty());
        let over_bomb = responses(&r("33334444BR"), &one("3333"));
        let texts: Vec<String> = over_bomb.iter().map(|c| c.to_string()).collect();
        assert_eq!(texts, vec!["4444", "BR"]);
    }

    #[test]
    fn leads_are_exactly_the_classified_subsets() {
        // Every lead classifies as itself, and every sub-multiset of a small hand that
        // classifies is a lead.
        let hand = r("333444555677BR2");
        let found = leads(&hand);
        for c in &found {
            assert!(classify(&c.cards).contains(c), "{c}");
        }
        let mut subsets = 0;
        let mut sub = Ranks::default();
        fn walk(h: &Ranks, r: usize, sub: &mut Ranks, f: &mut impl FnMut(&Ranks)) {
            if r == NUM_RANKS {
                f(sub);
                return;
            }
            for k in 0..=h.0[r] {
                sub.0[r] = k;
                walk(h, r + 1, sub, f);
            }
            sub.0[r] = 0;
        }
        walk(&hand, 0, &mut sub, &mut |s| {
            for c in classify(s) {
                subsets += 1;
                assert!(found.contains(&c), "{c} missing from leads");
            }
        });
        assert_eq!(subsets, found.len());
    }

    #[test]
    fn keys_list_the_plays_in_order() {
        // The mass-generation keys are the listed plays, same order, for leads and
        // for responses (DDZ-13, DDZ-14).
        let mut rng = crate::rng::CardRng::new(11);
        let mut deck: Vec<u8> = (0..=TWO).flat_map(|r| [r; 4]).collect();
        deck.extend([BLACK_JOKER, RED_JOKER]);
        let mut keys = Vec::new();
        for _ in 0..2000 {
            rng.shuffle(&mut deck);
            let size = 1 + rng.below(20) as usize;
            let mut hand = Ranks::default();
            for &r in &deck[..size] {
                hand.0[r as usize] += 1;
            }
            let found = leads(&hand);
            keys.clear();
            lead_keys(&hand, |k| keys.push(k));
            let want: Vec<u64> = found.iter().map(|c| c.cards.key()).collect();
            assert_eq!(keys, want, "{hand}");
            let mut other = Ranks::default();
            for &r in &deck[size..size + 20] {
                other.0[r as usize] += 1;
            }
            for table in found.iter().step_by(7) {
                keys.clear();
                response_keys(&other, table, |k| keys.push(k));
                let want: Vec<u64> = responses(&other, table)
                    .iter()
                    .map(|c| c.cards.key())
                    .collect();
                assert_eq!(keys, want, "{other} over {table}");
            }
        }
    }

    #[test]
    fn action_index_round_trips() {
        let index = action_index();
        assert_eq!(index.len(), 24643);
        assert_eq!(index.len(), FIRST_PLAY_ID as usize + index.plays().len());
        for (i, c) in index.plays().iter().enumerate() {
            let id = FIRST_PLAY_ID + i as u32;
            assert_eq!(index.play_id(&c.cards), Some(id));
            assert_eq!(index.play(id), Some(c));
            // One reading per rank multiset: a play's text names it completely.
            assert_eq!(classify(&c.cards), vec![*c], "{c}");
        }
        assert!(index.play(0).is_none());
        assert!(index.play(index.len() as u32).is_none());
    }
}
