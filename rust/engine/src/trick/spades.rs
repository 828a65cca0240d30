//! Spades play for AI search: a deal after the bidding, spades trump and may not
//! be led before one is played unless the leader holds only spades, and the
//! partnership scoring (contracts, nil, bags) of the seed.

use super::{highest, lowest, suit_cards, suit_of, trick_winner, HiddenHands, TrickPlay};
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::rng::CardRng;

/// Spades are trumps.
pub const SPADES: u8 = 3;

/// A Spades deal in play, after the bidding.
#[derive(Clone, Debug)]
pub struct SpadesDeal {
    /// Each seat's remaining cards.
    pub hands: [CardSet; 4],
    /// Each seat's bid (0 = nil).
    pub bids: [u8; 4],
    /// The seat that led the current trick.
    pub leader: usize,
    /// The cards of the current trick, in play order.
    pub trick: Vec<Card>,
    /// Tricks each seat has won.
    pub tricks: [u8; 4],
    /// Whether a spade has been played.
    pub broken: bool,
    /// Completed tricks.
    pub tricks_played: u32,
}

/// One partnership's result for a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeamScore {
    /// Points this deal, bag penalties included.
    pub points: i32,
    /// The team's bag count after the deal (below 10).
    pub bags: u32,
}

/// Score one partnership (seats `a` and `b`) for a deal: the nonzero bids form the
/// contract, made by the tricks of the non-nil players (10 per bid trick plus 1
/// per overtrick) or failed (-10 per bid trick); each nil scores +100 when its
/// bidder took no trick and -100 otherwise, and a failed nil's tricks count as
/// bags (1 point each) but not toward the contract; every 10 accumulated bags
/// cost 100.
pub fn team_score(bids: [u8; 2], tricks: [u8; 2], bags_before: u32) -> TeamScore {
    let mut points = 0i32;
    let mut bags = 0u32;
    let contract: u32 = bids.iter().map(|&b| u32::from(b)).sum();
    let mut toward = 0u32;
    for i in 0..2 {
        if bids[i] == 0 {
            if tricks[i] == 0 {
                points += 100;
            } else {
                points -= 100;
                bags += u32::from(tricks[i]);
            }
        } else {
            toward += u32::from(tricks[i]);
        }
    }
    if contract > 0 {
        if toward >= contract {
            points += 10 * contract as i32;
            bags += toward - contract;
        } else {
            points -= 10 * contract as i32;
        }
    }
    points += bags as i32;
    let mut total_bags = bags_before + bags;
    while total_bags >= 10 {
        points -= 100;
        total_bags -= 10;
    }
    TeamScore {
        points,
        bags: total_bags,
    }
}

impl SpadesDeal {
    /// A deal of `hands` after `bids`; `leader` leads the first trick.
    pub fn new(hands: [CardSet; 4], bids: [u8; 4], leader: usize) -> SpadesDeal {
        SpadesDeal {
            hands,
            bids,
            leader,
            trick: Vec::with_capacity(4),
            tricks: [0; 4],
            broken: false,
            tricks_played: 0,
        }
    }

    /// A random deal with the given bids; seat 0 leads.
    pub fn random(bids: [u8; 4], rng: &mut CardRng) -> SpadesDeal {
        let mut deck: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut deck);
        let mut hands = [CardSet::EMPTY; 4];
        for (i, &c) in deck.iter().enumerate() {
            hands[i / 13].0 |= 1u64 << c;
        }
        SpadesDeal::new(hands, bids, 0)
    }

    /// Each partnership's score for the deal (seats 0 and 2, then 1 and 3).
    pub fn scores(&self, bags_before: [u32; 2]) -> [TeamScore; 2] {
        [0, 1].map(|t| {
            team_score(
                [self.bids[t], self.bids[t + 2]],
                [self.tricks[t], self.tricks[t + 2]],
                bags_before[t],
            )
        })
    }

    fn wants_tricks(&self, seat: usize) -> bool {
        if self.bids[seat] == 0 {
            return false;
        }
        let partner = (seat + 2) % 4;
        let contract = u32::from(self.bids[seat]) + u32::from(self.bids[partner]);
        let mut have = u32::from(self.tricks[seat]);
        if self.bids[partner] != 0 {
            have += u32::from(self.tricks[partner]);
        }
        have < contract
    }
}

impl TrickPlay for SpadesDeal {
    #[inline]
    fn to_act(&self) -> usize {
        (self.leader + self.trick.len()) % 4
    }

    fn legal(&self) -> CardSet {
        let hand = self.hands[self.to_act()];
        match self.trick.first() {
            Some(&first) => {
                let follow = suit_cards(hand, suit_of(first));
                if follow.is_empty() {
                    hand
                } else {
                    follow
                }
            }
            None => {
                let others = hand.difference(suit_cards(hand, SPADES));
                if self.broken || others.is_empty() {
                    hand
                } else {
                    others
                }
            }
        }
    }

    fn play(&mut self, card: Card) {
        let seat = self.to_act();
        self.hands[seat].remove(card);
        if suit_of(card) == SPADES {
            self.broken = true;
        }
        self.trick.push(card);
        if self.trick.len() == 4 {
            let winner = (self.leader + trick_winner(&self.trick, Some(SPADES))) % 4;
            self.trick.clear();
            self.tricks[winner] += 1;
            self.leader = winner;
            self.tricks_played += 1;
        }
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.tricks_played == 13
    }

    fn heuristic(&self) -> Card {
        let seat = self.to_act();
        let legal = self.legal();
        let want = self.wants_tricks(seat);
        if self.trick.is_empty() {
            // Cash a high side card when tricks are needed; otherwise lead low.
            let side = legal.difference(suit_cards(legal, SPADES));
            let pool = if side.is_empty() { legal } else { side };
            return if want { highest(pool) } else { lowest(pool) };
        }
        let i = trick_winner(&self.trick, Some(SPADES));
        let winning = self.trick[i];
        let partner_winning = (self.leader + i) % 4 == (seat + 2) % 4;
        // Cards that would take the lead: higher in the winning card's suit, or
        // any spade over a non-spade.
        let same = suit_cards(legal, suit_of(winning));
        let mut winners = CardSet(same.0 & !((2u64 << winning.index()) - 1));
        if suit_of(winning) != SPADES {
            winners = winners.union(suit_cards(legal, SPADES));
        }
        let losers = legal.difference(winners);
        if want && !partner_winning && !winners.is_empty() {
            // The cheapest winning card: in the winning card's suit if possible.
            let pool = CardSet(winners.0 & same.0);
            return lowest(if pool.is_empty() { winners } else { pool });
        }
        if losers.is_empty() {
            return lowest(legal);
        }
        // Duck: a nil or a team already home sheds its highest losing card.
        if want {
            lowest(losers)
        } else {
            highest(losers)
        }
    }
}

/// What the searching seat knows of a Spades deal in progress.
#[derive(Clone, Debug)]
pub struct SpadesView {
    /// The searching seat.
    pub seat: usize,
    /// Where the unseen cards may be.
    pub hidden: HiddenHands,
    /// The deal so far (its hands are replaced by each sample).
    pub deal: SpadesDeal,
    /// Each partnership's bags before the deal.
    pub bags: [u32; 2],
}

impl SpadesView {
    /// Average of (own team's deal points - the other team's) for each candidate.
    pub fn evaluate(
        &self,
        candidates: &[Card],
        worlds: u32,
        seed: u64,
        policy: super::PlayoutPolicy,
    ) -> Vec<f64> {
        let team = self.seat % 2;
        super::evaluate_candidates(
            candidates,
            worlds,
            seed,
            policy,
            |rng| {
                let mut deal = self.deal.clone();
                deal.hands = self.hidden.sample(rng);
                deal
            },
            |deal| {
                let s = deal.scores(self.bags);
                f64::from(s[team].points - s[1 - team].points)
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::{playout, PlayoutPolicy};
    use super::*;

    fn set(text: &str) -> CardSet {
        CardSet::from_cards(crate::cards::parse_cards(text).unwrap())
    }

    #[test]
    fn worked_example_low_trump_wins() {
        // SPD-06, SPD-11, SPD-12, SPD-13: A♥ 2♠ K♥ 3♥, the second player void in hearts.
        let hands = ["Ah 4c", "2s 5c", "Kh 6c", "3h 7c"].map(set);
        let mut deal = SpadesDeal::new(hands, [1, 1, 1, 1], 0);
        for c in ["Ah", "2s", "Kh", "3h"] {
            let card = Card::parse(c).unwrap();
            assert!(deal.legal().contains(card));
            deal.play(card);
        }
        assert_eq!(deal.tricks, [0, 1, 0, 0]);
        assert_eq!(deal.leader, 1);
        assert!(deal.broken);
    }

    #[test]
    fn no_trump_to_dodge_a_suit_held() {
        // SPD-04, SPD-14: a player holding the led suit must follow it.
        let hands = ["Ah", "2s 5h", "Kh", "3h"].map(set);
        let mut deal = SpadesDeal::new(hands, [1, 1, 1, 1], 0);
        deal.play(Card::parse("Ah").unwrap());
        assert_eq!(deal.legal(), set("5h"));
    }

    #[test]
    fn spades_not_led_until_broken() {
        // SPD-07: no spade lead before one is played, unless holding only spades.
        let mut deal = SpadesDeal::new(["2s 3h", "", "", ""].map(set), [1; 4], 0);
        assert_eq!(deal.legal(), set("3h"));
        deal.hands[0] = set("2s 3s");
        assert_eq!(deal.legal(), set("2s 3s"));
        deal.hands[0] = set("2s 3h");
        deal.broken = true;
        assert_eq!(deal.legal(), set("2s 3h"));
    }

    #[test]
    fn contract_nil_and_bags() {
        // SPD-03, SPD-08, SPD-09, SPD-16, SPD-19.
        assert_eq!(
            team_score([3, 4], [4, 4], 0),
            TeamScore {
                points: 71,
                bags: 1
            }
        );
        assert_eq!(
            team_score([3, 4], [3, 3], 0),
            TeamScore {
                points: -70,
                bags: 0
            }
        );
        assert_eq!(
            team_score([0, 4], [0, 5], 0),
            TeamScore {
                points: 141,
                bags: 1
            }
        );
        // A failed nil's two tricks are bags and leave the partner's 4 short.
        assert_eq!(
            team_score([0, 4], [2, 3], 0),
            TeamScore {
                points: -100 - 40 + 2,
                bags: 2
            }
        );
        // Crossing 10 bags twice in one deal costs 200.
        assert_eq!(
            team_score([1, 1], [6, 7], 9),
            TeamScore {
                points: 20 + 11 - 200,
                bags: 0
            }
        );
    }

    #[test]
    fn playouts_take_13_tricks() {
        let mut rng = CardRng::new(5);
        for policy in [PlayoutPolicy::Random, PlayoutPolicy::Heuristic(0.1)] {
            for _ in 0..300 {
                let mut deal = SpadesDeal::random([3, 3, 3, 3], &mut rng);
                playout(&mut deal, policy, &mut rng);
                assert_eq!(deal.tricks.iter().map(|&t| u32::from(t)).sum::<u32>(), 13);
            }
        }
    }
}
