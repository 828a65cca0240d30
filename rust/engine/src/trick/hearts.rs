//! Hearts play for AI search: a deal from the first lead to the last trick, with
//! the seed's rules (2♣ leads, follow suit, no penalty discards on the first trick
//! while a safe card remains, hearts led only once broken) and its scoring.

use super::{
    deal_hands, highest, lowest, suit_cards, suit_of, trick_winner, TrickPlay, TrickTable,
    WonTrick, SUIT_MASKS,
};
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::rng::CardRng;

/// Suit indices.
const CLUBS: u8 = 0;
const HEARTS: u8 = 2;
const SPADES: u8 = 3;
/// The 2♣ (index 0) opens the deal; Q♠ costs 13.
pub const TWO_OF_CLUBS: Card = Card::new(0, CLUBS);
pub const QUEEN_OF_SPADES: Card = Card::new(10, SPADES);
const KING_OF_SPADES: Card = Card::new(11, SPADES);
const ACE_OF_SPADES: Card = Card::new(12, SPADES);
/// Every penalty card: the hearts and Q♠.
pub const PENALTY_CARDS: CardSet =
    CardSet(SUIT_MASKS[HEARTS as usize] | (1u64 << QUEEN_OF_SPADES.index()));

/// Penalty points of a set of cards: one per heart, thirteen for Q♠.
pub fn penalty(cards: CardSet) -> i32 {
    let hearts = suit_cards(cards, HEARTS).len() as i32;
    hearts
        + if cards.contains(QUEEN_OF_SPADES) {
            13
        } else {
            0
        }
}

/// The deal's points from what each seat took: one per heart, 13 for Q♠; a seat
/// that took all 26 scores 0 and every other seat 26.
pub fn deal_points(taken: &[CardSet; 4]) -> [i32; 4] {
    let points = taken.map(penalty);
    if let Some(shooter) = points.iter().position(|&p| p == 26) {
        let mut moon = [26; 4];
        moon[shooter] = 0;
        return moon;
    }
    points
}

/// A Hearts deal in play, after the pass.
#[derive(Clone, Debug)]
pub struct HeartsDeal {
    /// Hands, the trick in progress, and whether hearts are broken (Q♠ does not
    /// break them).
    pub table: TrickTable,
    /// The cards each seat has won.
    pub taken: [CardSet; 4],
}

impl HeartsDeal {
    /// A fresh deal of `hands`; the holder of 2♣ leads.
    pub fn new(hands: [CardSet; 4]) -> HeartsDeal {
        let leader = hands
            .iter()
            .position(|h| h.contains(TWO_OF_CLUBS))
            .unwrap_or(0);
        HeartsDeal {
            table: TrickTable::new(hands, leader),
            taken: [CardSet::EMPTY; 4],
        }
    }

    /// A random deal of 13 cards each, without passing.
    pub fn random(rng: &mut CardRng) -> HeartsDeal {
        HeartsDeal::new(deal_hands(rng))
    }

    /// Points each seat scores for this deal so far (final once the deal is over).
    pub fn points(&self) -> [i32; 4] {
        deal_points(&self.taken)
    }

    /// `mean(points) - points[seat]`: how much better than average `seat` did
    /// (the search agent's value of a finished deal).
    pub fn seat_value(&self, seat: usize) -> f64 {
        let p = self.points();
        f64::from(p.iter().sum::<i32>()) / 4.0 - f64::from(p[seat])
    }

    fn heuristic_lead(&self, legal: CardSet) -> Card {
        // Lead low from the suit where we are longest outside spades, keeping
        // spades back while Q♠ is out and we hold no protection.
        let hand = self.table.hands[self.to_act()];
        let mut best = lowest(legal);
        let mut best_len = 0;
        for s in [CLUBS, 1, HEARTS, SPADES] {
            let cards = suit_cards(legal, s);
            if cards.is_empty() {
                continue;
            }
            let mut len = suit_cards(hand, s).len() * 2;
            if s == SPADES && !hand.contains(QUEEN_OF_SPADES) {
                // Leading low spades smokes out Q♠ safely.
                len += 3;
            }
            if s == HEARTS {
                len = len.saturating_sub(4);
            }
            if len > best_len {
                best_len = len;
                best = lowest(cards);
            }
        }
        best
    }
}

impl TrickPlay for HeartsDeal {
    #[inline]
    fn table(&self) -> &TrickTable {
        &self.table
    }

    #[inline]
    fn table_mut(&mut self) -> &mut TrickTable {
        &mut self.table
    }

    fn legal(&self) -> CardSet {
        let t = &self.table;
        if t.tricks_played == 0 {
            let hand = t.hands[t.to_act()];
            match t.trick().first() {
                None if hand.contains(TWO_OF_CLUBS) => {
                    return CardSet::EMPTY.with(TWO_OF_CLUBS);
                }
                Some(&first) if suit_cards(hand, suit_of(first)).is_empty() => {
                    let safe = hand.difference(PENALTY_CARDS);
                    if !safe.is_empty() {
                        return safe;
                    }
                }
                _ => {}
            }
        }
        t.follows_or_leads(HEARTS)
    }

    #[inline]
    fn play(&mut self, card: Card) -> Option<WonTrick> {
        let won = self.table.play(card, HEARTS, None)?;
        self.taken[won.winner] = self.taken[won.winner].union(won.cards);
        Some(won)
    }

    fn heuristic(&self) -> Card {
        let legal = self.legal();
        let trick = self.table.trick();
        if trick.is_empty() {
            return self.heuristic_lead(legal);
        }
        let win_card = trick[trick_winner(trick, None)];
        let led = suit_of(trick[0]);
        let following = !suit_cards(legal, led).is_empty();
        if following {
            // Q♠ goes under a higher spade; otherwise duck with the highest card
            // that still loses, or, when forced to win, win as cheaply as the
            // position allows (last to play: with the highest card).
            if legal.contains(QUEEN_OF_SPADES)
                && (win_card == KING_OF_SPADES || win_card == ACE_OF_SPADES)
            {
                return QUEEN_OF_SPADES;
            }
            let below = CardSet(legal.0 & ((1u64 << win_card.index()) - 1));
            if !below.is_empty() {
                let safe = below.difference(CardSet::EMPTY.with(QUEEN_OF_SPADES));
                return highest(if safe.is_empty() { below } else { safe });
            }
            let last = trick.len() == 3;
            let trick_points = penalty(CardSet::from_cards(trick.iter().copied()));
            if last && trick_points == 0 {
                let safe = legal.difference(CardSet::EMPTY.with(QUEEN_OF_SPADES));
                return highest(if safe.is_empty() { legal } else { safe });
            }
            return lowest(legal);
        }
        // Void: dump Q♠, then the highest spade above it, then the highest heart,
        // then the highest card.
        if legal.contains(QUEEN_OF_SPADES) {
            return QUEEN_OF_SPADES;
        }
        for danger in [ACE_OF_SPADES, KING_OF_SPADES] {
            if legal.contains(danger) {
                return danger;
            }
        }
        let hearts = suit_cards(legal, HEARTS);
        if !hearts.is_empty() {
            return highest(hearts);
        }
        // Highest rank across suits; the index order is rank-major.
        highest(legal)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{playout, PlayoutPolicy};
    use super::*;

    fn set(text: &str) -> CardSet {
        CardSet::from_cards(crate::cards::parse_cards(text).unwrap())
    }

    fn deal_with(hands: [&str; 4]) -> HeartsDeal {
        HeartsDeal::new(hands.map(set))
    }

    #[test]
    fn two_of_clubs_leads() {
        // HRT-06: the holder of 2♣ leads that card.
        let mut rng = CardRng::new(1);
        for _ in 0..50 {
            let deal = HeartsDeal::random(&mut rng);
            assert!(deal.table.hands[deal.table.leader].contains(TWO_OF_CLUBS));
            assert_eq!(deal.legal(), CardSet::EMPTY.with(TWO_OF_CLUBS));
        }
    }

    #[test]
    fn first_trick_discards_avoid_points() {
        // HRT-09: no heart or Q♠ discard on the first trick while a safe card remains.
        let mut deal = deal_with(["2c 3c", "Qs Ah 5d", "Kh Qh", "4c 5c"]);
        deal.play(TWO_OF_CLUBS);
        assert_eq!(deal.legal(), set("5d"));
        deal.play(Card::parse("5d").unwrap());
        assert_eq!(deal.legal(), set("Kh Qh"));
    }

    #[test]
    fn hearts_lead_only_when_broken_or_only_hearts() {
        // HRT-10, HRT-17, HRT-18, HRT-19: Q♠ does not break hearts.
        let mut deal = deal_with(["2h 3h 4d", "", "", ""]);
        deal.table.tricks_played = 1;
        deal.table.leader = 0;
        assert_eq!(deal.legal(), set("4d"));
        deal.table.hands[0] = set("2h 3h");
        assert_eq!(deal.legal(), set("2h 3h"));
        deal.table.hands = ["2h Qs", "Kd", "Kc", "Ks"].map(set);
        deal.play(QUEEN_OF_SPADES);
        assert!(!deal.table.broken);
    }

    #[test]
    fn worked_example_ace_of_clubs_takes_14() {
        // HRT-11, HRT-14, HRT-15, HRT-16: A♣ 3♣ 2♥ Q♠, the last two void in clubs.
        let mut deal = deal_with(["Ac 4d", "3c 5d", "2h 6d", "Qs 7d"]);
        deal.table.tricks_played = 1;
        for c in ["Ac", "3c", "2h", "Qs"] {
            let card = Card::parse(c).unwrap();
            assert!(deal.legal().contains(card));
            deal.play(card);
        }
        assert_eq!(deal.table.leader, 0);
        assert_eq!(penalty(deal.taken[0]), 14);
        assert!(deal.table.broken);
    }

    #[test]
    fn shooting_the_moon() {
        // HRT-12: all 26 to one seat scores 0 for it and 26 for each opponent.
        let all = CardSet(PENALTY_CARDS.0);
        assert_eq!(
            deal_points(&[CardSet::EMPTY, all, CardSet::EMPTY, CardSet::EMPTY]),
            [26, 0, 26, 26]
        );
        let some = set("Qs 2h");
        assert_eq!(
            deal_points(&[some, CardSet::EMPTY, CardSet::EMPTY, CardSet::EMPTY]),
            [14, 0, 0, 0]
        );
    }

    #[test]
    fn playouts_play_every_card_and_score_26() {
        let mut rng = CardRng::new(9);
        for policy in [PlayoutPolicy::Random, PlayoutPolicy::Heuristic(0.1)] {
            for _ in 0..300 {
                let mut deal = HeartsDeal::random(&mut rng);
                playout(&mut deal, policy, &mut rng);
                let total: i32 = deal.points().iter().sum();
                assert!(total == 26 || total == 78);
                assert!(deal.table.hands.iter().all(|h| h.is_empty()));
            }
        }
    }
}
