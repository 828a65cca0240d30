//! Zheng Shangyou combinations (the Zheng Shangyou section of the French-54 rule
//! text, played with the 48-card pack: three aces, one two).
//!
//! Ordinary shapes: single, pair, triple, straight (5+ ranks, no 2, ace high only)
//! and pair run (2+ pairs, no 2). Bombs: four of a kind by rank, then three aces
//! above every four-card bomb, then the heavenly bomb (four threes on the opening
//! play), which nothing beats. Four threes later are the lowest ordinary bomb.
//! Three aces read only as a bomb: the pack has no fourth ace, so `AAA` is the
//! three-ace bomb whenever it is played.

use super::index::ActionIndex;
use super::playout::pack;
use super::{push_groups, push_runs, run_cards, Combination, Held, Kind, Ranks};
use super::{ACE, MAX_RUN, THREE, TWO};
use std::sync::OnceLock;

/// The Zheng Shangyou types, in listing order.
pub const KINDS: [Kind; 8] = [
    Kind::Single,
    Kind::Pair,
    Kind::Triple,
    Kind::Straight,
    Kind::PairRun,
    Kind::Bomb,
    Kind::AceBomb,
    Kind::HeavenlyBomb,
];

/// Strength of a bomb among bombs: four-card bombs by rank, then three aces, then
/// the heavenly bomb; `None` for ordinary shapes.
pub fn bomb_power(c: &Combination) -> Option<u8> {
    match c.kind {
        Kind::Bomb => Some(c.main),
        Kind::AceBomb => Some(TWO + 1),
        Kind::HeavenlyBomb => Some(TWO + 2),
        _ => None,
    }
}

fn generate(
    hand: &Held,
    kind: Kind,
    lens: std::ops::RangeInclusive<u8>,
    above: Option<u8>,
    out: &mut Vec<Combination>,
) {
    let low = above.map_or(0, |a| a + 1);
    match kind {
        Kind::Single => push_groups(hand, kind, 1, low, TWO, out),
        Kind::Pair => push_groups(hand, kind, 2, low, TWO, out),
        // Three aces are a bomb, never a triple.
        Kind::Triple => push_groups(hand, kind, 3, low, ACE - 1, out),
        Kind::Bomb => push_groups(hand, kind, 4, low, TWO, out),
        Kind::AceBomb if above.is_none() && hand.at_least[3] & (1 << ACE) != 0 => {
            out.push(Combination::new(kind, ACE, 1, run_cards(ACE, 1, 3)));
        }
        Kind::HeavenlyBomb if above.is_none() && hand.at_least[4] & (1 << THREE) != 0 => {
            out.push(Combination::new(kind, THREE, 1, run_cards(THREE, 1, 4)));
        }
        Kind::Straight => push_runs(hand, kind, 1, lens, low, out),
        Kind::PairRun => push_runs(hand, kind, 2, lens, low, out),
        _ => {}
    }
}

fn lengths(kind: Kind) -> std::ops::RangeInclusive<u8> {
    match kind {
        Kind::Straight => 5..=MAX_RUN,
        Kind::PairRun => 2..=MAX_RUN,
        _ => 1..=1,
    }
}

/// Every legal lead from `hand`. On the `opening` play of the deal the lead must
/// hold a three (the heart three: suits are the caller's business) and four threes
/// are the heavenly bomb instead of the lowest bomb.
pub fn leads(hand: &Ranks, opening: bool) -> Vec<Combination> {
    let hand = &Held::new(hand);
    let mut out = Vec::with_capacity(48);
    for kind in KINDS {
        if kind == Kind::HeavenlyBomb && !opening {
            continue;
        }
        generate(hand, kind, lengths(kind), None, &mut out);
    }
    if opening {
        out.retain(|c| c.cards.count(THREE) > 0 && !(c.kind == Kind::Bomb && c.main == THREE));
    }
    out
}

/// Every play that beats `table` from `hand` (pass not included).
pub fn responses(hand: &Ranks, table: &Combination) -> Vec<Combination> {
    let hand = &Held::new(hand);
    let mut out = Vec::new();
    match bomb_power(table) {
        Some(power) => {
            if table.kind == Kind::Bomb {
                generate(hand, Kind::Bomb, 1..=1, Some(table.main), &mut out);
            }
            if power < TWO + 1 {
                generate(hand, Kind::AceBomb, 1..=1, None, &mut out);
            }
        }
        None => {
            generate(
                hand,
                table.kind,
                table.length..=table.length,
                Some(table.main),
                &mut out,
            );
            generate(hand, Kind::Bomb, 1..=1, None, &mut out);
            generate(hand, Kind::AceBomb, 1..=1, None, &mut out);
        }
    }
    out
}

/// Whether `play` beats `table` (ZSY-11, ZSY-12, ZSY-21, ZSY-22).
pub fn beats(play: &Combination, table: &Combination) -> bool {
    match (bomb_power(play), bomb_power(table)) {
        (Some(p), Some(t)) => p > t,
        (Some(_), None) => true,
        (None, Some(_)) => false,
        (None, None) => {
            play.kind == table.kind && play.length == table.length && play.main > table.main
        }
    }
}

/// Every reading of `cards` as one Zheng Shangyou combination (`opening`: as the
/// first play of the deal, where four threes are the heavenly bomb).
pub fn classify(cards: &Ranks, opening: bool) -> Vec<Combination> {
    let n = cards.len();
    let mut out: Vec<Combination> = Vec::new();
    if n == 0 {
        return out;
    }
    let held = Held::new(cards);
    for kind in KINDS {
        if kind == Kind::HeavenlyBomb && !opening {
            continue;
        }
        for len in lengths(kind) {
            if kind.size(len) == n {
                generate(&held, kind, len..=len, None, &mut out);
            }
        }
    }
    out.retain(|c| c.cards == *cards);
    if opening && out.iter().any(|c| c.kind == Kind::HeavenlyBomb) {
        out.retain(|c| c.kind == Kind::HeavenlyBomb);
    }
    out
}

/// Ids before the plays: only pass.
pub const FIRST_PLAY_ID: u32 = 1;
/// A hand of sixteen cards bounds every play.
pub const MAX_PLAY_CARDS: usize = 16;

/// The fixed Zheng Shangyou action space for learning code: `pass` (id 0), then
/// every rank-multiset play of at most 16 cards (a hand's size) the 48-card pack
/// can form, ordered by type (the order of [`KINDS`]), length, then main rank.
/// `3333` has one id whether it is the heavenly bomb (the opening play) or the
/// lowest bomb: the action text is the same. Built on first use.
pub fn action_index() -> &'static ActionIndex {
    static INDEX: OnceLock<ActionIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let plays = leads(&pack(false), false);
        ActionIndex::build(FIRST_PLAY_ID, &KINDS, plays, MAX_PLAY_CARDS)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::climbing::Kind::*;

    fn r(s: &str) -> Ranks {
        Ranks::parse(s).unwrap()
    }

    fn kinds(s: &str, opening: bool) -> Vec<Kind> {
        classify(&r(s), opening).iter().map(|c| c.kind).collect()
    }

    fn one(s: &str) -> Combination {
        let all = classify(&r(s), false);
        assert_eq!(all.len(), 1, "{s}: {all:?}");
        all[0]
    }

    #[test]
    fn ordinary_shapes() {
        // ZSY-17: singles, pairs, triples, straights of 5+, runs of 2+ pairs.
        assert_eq!(kinds("2", false), vec![Single]);
        assert_eq!(kinds("99", false), vec![Pair]);
        assert_eq!(kinds("KKK", false), vec![Triple]);
        assert_eq!(kinds("34567", false), vec![Straight]);
        assert_eq!(kinds("3344", false), vec![PairRun]);
        assert_eq!(kinds("QQKKAA", false), vec![PairRun]);
        assert!(kinds("3456", false).is_empty());
        // ZSY-18: sequences exclude twos and the ace is high only.
        assert!(kinds("TJQKA2", false).is_empty());
        assert!(kinds("A2345", false).is_empty());
        assert!(kinds("JQKA2", false).is_empty());
        assert_eq!(kinds("TJQKA", false), vec![Straight]);
        // ZSY-19: no triple attachments, no airplanes, no four-with-attachments.
        assert!(kinds("3334", false).is_empty());
        assert!(kinds("33344", false).is_empty());
        assert!(kinds("333444", false).is_empty());
        assert!(kinds("444456", false).is_empty());
        assert!(kinds("44445566", false).is_empty());
    }

    #[test]
    fn bombs() {
        // ZSY-20: four equal ranks; ZSY-21: three aces above every four-card bomb.
        assert_eq!(kinds("7777", false), vec![Bomb]);
        assert_eq!(kinds("AAA", false), vec![AceBomb]);
        assert!(beats(&one("AAA"), &one("KKKK")));
        assert!(!beats(&one("KKKK"), &one("AAA")));
        assert!(beats(&one("5555"), &one("4444")));
        // ZSY-12: bombs beat ordinary shapes.
        assert!(beats(&one("3333"), &one("2")));
        assert!(beats(&one("AAA"), &one("3456789TJQKA")));
        // ZSY-22, ZSY-23: four threes are heavenly only on the opening play.
        assert_eq!(kinds("3333", true), vec![HeavenlyBomb]);
        assert_eq!(kinds("3333", false), vec![Bomb]);
        let heavenly = classify(&r("3333"), true)[0];
        assert!(beats(&heavenly, &one("AAA")));
        assert!(responses(&r("AAAKKKK2"), &heavenly).is_empty());
        assert!(beats(&one("4444"), &one("3333")));
    }

    #[test]
    fn comparison_and_responses() {
        // ZSY-10, ZSY-11: 2 > A > ... > 3; same shape and size, higher rank.
        assert!(beats(&one("2"), &one("A")));
        assert!(beats(&one("A"), &one("K")));
        assert!(!beats(&one("44"), &one("3")));
        assert!(!beats(&one("45678"), &one("345678")));
        assert!(beats(&one("4455"), &one("3344")));
        let resp = responses(&r("4456789TTTT"), &one("34567"));
        let texts: Vec<String> = resp.iter().map(|c| c.to_string()).collect();
        assert_eq!(texts, vec!["45678", "56789", "6789T", "TTTT"]);
        let resp = responses(&r("AAA5555"), &one("4444"));
        let texts: Vec<String> = resp.iter().map(|c| c.to_string()).collect();
        assert_eq!(texts, vec!["5555", "AAA"]);
        assert!(responses(&r("2222"), &one("AAA")).is_empty());
    }

    #[test]
    fn opening_leads_hold_a_three() {
        // ZSY-08: the first play includes the heart three.
        let hand = r("33334567");
        let opening = leads(&hand, true);
        assert!(opening.iter().all(|c| c.cards.count(THREE) > 0));
        assert!(opening.iter().any(|c| c.kind == HeavenlyBomb));
        assert!(!opening.iter().any(|c| c.kind == Bomb));
        let later = leads(&hand, false);
        assert!(later.iter().any(|c| c.kind == Bomb && c.main == THREE));
        assert!(!later.iter().any(|c| c.kind == HeavenlyBomb));
        for c in leads(&r("3445566778899TTJJQQKKAAA2"), false) {
            assert!(classify(&c.cards, false).contains(&c), "{c}");
        }
    }

    #[test]
    fn action_index_round_trips_and_covers_every_play() {
        let index = action_index();
        // 13 singles, 12 pairs (one two), 11 triples (AAA is the bomb), 36
        // straights, 56 pair runs of 2-8 pairs (16 cards), 11 bombs, the ace bomb.
        assert_eq!(index.len(), 1 + 13 + 12 + 11 + 36 + 56 + 11 + 1);
        for (i, c) in index.plays().iter().enumerate() {
            let id = FIRST_PLAY_ID + i as u32;
            assert_eq!(index.play_id(&c.cards), Some(id));
            assert_eq!(index.play(id), Some(c));
            assert_eq!(classify(&c.cards, false), vec![*c], "{c}");
        }
        assert!(index.play(0).is_none());
        assert!(index.play(index.len() as u32).is_none());
        // Every move of random deals, opening plays and heavenly bombs included.
        let mut rng = crate::rng::CardRng::new(5);
        for _ in 0..300 {
            let mut deal = crate::climbing::playout::random_deal(false, &mut rng);
            while !deal.is_over() {
                let legal = deal.legal();
                for mv in &legal {
                    assert!(index.move_id(mv).is_some(), "{mv:?}");
                }
                deal.apply(legal[rng.below(legal.len() as u64) as usize]);
            }
        }
        let heavenly = classify(&r("3333"), true)[0];
        assert_eq!(heavenly.kind, HeavenlyBomb);
        assert_eq!(index.move_id(&Some(heavenly)), index.play_id(&r("3333")));
    }
}
