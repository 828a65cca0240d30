//! The card play of one Tractor deal, after trumps are fixed and the kitty is
//! buried: leads, follows chosen one card at a time, trick winners, the points each
//! seat takes, and random playouts of whole deals. Declaring, the kitty, scoring
//! and the level change of a whole deal are [`super::round`]'s.
//!
//! Turns run in seat order 0, 1, 2, 3 (the text's counterclockwise, TRC-21, mapped
//! as Guandan maps it); partners sit opposite (0 & 2, 1 & 3).

use super::{
    lead_id, shape_of, tractor_of_id, tractors, trick_winner, Follow, Hand, Kind, Shape, Trumps,
    PLAY_CARD, PLAY_PAIR, PLAY_TRACTOR,
};
use crate::cancel::Cancel;
use crate::cards::{Card, NUM_CARDS};
use crate::error::{EngineError, Result};
use crate::rng::CardRng;

/// Seats at the table.
pub const SEATS: usize = 4;
/// Cards dealt to each seat (TRC-07).
pub const HAND_SIZE: usize = 25;
/// Cards in the kitty (TRC-07).
pub const KITTY: usize = 8;

/// A completed trick: who led, each seat's cards, the winner and its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trick {
    pub leader: u8,
    /// Cards by seat (not play order).
    pub plays: [Hand; SEATS],
    pub winner: u8,
    pub points: u32,
    /// Cards each seat played (the kitty multiplier's "cards per play", TRC-42).
    pub size: u32,
}

/// Push `base + i` for each bit `i` of `bits`, ascending.
#[inline]
fn push_bits(out: &mut Vec<u32>, mut bits: u64, base: u32) {
    while bits != 0 {
        out.push(base + bits.trailing_zeros());
        bits &= bits - 1;
    }
}

/// A deal's card play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    trumps: Trumps,
    hands: [Hand; SEATS],
    leader: u8,
    to_move: u8,
    lead: Option<Shape>,
    follow: Follow,
    /// This trick's cards by seat.
    trick: [Hand; SEATS],
    /// Seats that have played to this trick.
    done: u8,
    /// The cards the seat to move has chosen so far for its follow.
    chosen: Hand,
    points: [u32; SEATS],
    tricks: u32,
    last: Option<Trick>,
    played: [Hand; SEATS],
}

impl Deal {
    /// `leader` leads the first trick with `hands` under `trumps`.
    pub fn new(hands: [Hand; SEATS], trumps: Trumps, leader: u8) -> Result<Deal> {
        if usize::from(leader) >= SEATS {
            return Err(EngineError::IllegalAction(format!(
                "leader {leader} is not a seat: seats are 0-3"
            )));
        }
        let mut all = Hand::EMPTY;
        for h in &hands {
            all = all.plus(h).ok_or_else(|| {
                EngineError::InvalidCard(
                    "a card is dealt more than twice: there are two packs".into(),
                )
            })?;
        }
        Ok(Deal {
            trumps,
            hands,
            leader,
            to_move: leader,
            lead: None,
            follow: Follow {
                size: 0,
                class_mask: 0,
                pairs: 0,
            },
            trick: [Hand::EMPTY; SEATS],
            done: 0,
            chosen: Hand::EMPTY,
            points: [0; SEATS],
            tricks: 0,
            last: None,
            played: [Hand::EMPTY; SEATS],
        })
    }

    /// The trumps of the deal.
    pub fn trumps(&self) -> &Trumps {
        &self.trumps
    }

    /// `seat`'s cards (a follow being chosen is still in the hand).
    pub fn hand(&self, seat: usize) -> Hand {
        self.hands[seat]
    }

    /// The seat to act, `None` once every card is played.
    pub fn to_move(&self) -> Option<u8> {
        (!self.is_over()).then_some(self.to_move)
    }

    /// The leader of the trick in progress (or of the next one).
    pub fn leader(&self) -> u8 {
        self.leader
    }

    /// True once the hands are empty.
    pub fn is_over(&self) -> bool {
        self.hands.iter().all(Hand::is_empty)
    }

    /// The lead of the trick in progress.
    pub fn lead(&self) -> Option<&Shape> {
        self.lead.as_ref()
    }

    /// The cards the seat to move has chosen so far for its follow.
    pub fn chosen(&self) -> Hand {
        self.chosen
    }

    /// This trick's plays so far, in play order: (seat, cards).
    pub fn trick_plays(&self) -> Vec<(u8, Hand)> {
        (0..self.done)
            .map(|k| {
                let seat = (self.leader + k) % SEATS as u8;
                (seat, self.trick[usize::from(seat)])
            })
            .collect()
    }

    /// This trick's cards by seat (empty for seats yet to play).
    pub fn trick(&self) -> &[Hand; SEATS] {
        &self.trick
    }

    /// Card points each seat has won.
    pub fn points(&self) -> [u32; SEATS] {
        self.points
    }

    /// Completed tricks.
    pub fn tricks(&self) -> u32 {
        self.tricks
    }

    /// The last completed trick.
    pub fn last_trick(&self) -> Option<&Trick> {
        self.last.as_ref()
    }

    /// The cards each seat has played this deal (the trick in progress too).
    pub fn played(&self) -> &[Hand; SEATS] {
        &self.played
    }

    /// The legal action ids of the seat to move, ascending: every lead (single,
    /// pair, tractor ids) or, following, each card that keeps the follow completable.
    pub fn legal_ids_into(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let hand = &self.hands[usize::from(self.to_move)];
        if self.lead.is_none() {
            // Singles, then pairs, come out ascending; only tractor ids need sorting.
            push_bits(out, hand.one, PLAY_CARD);
            push_bits(out, hand.two, PLAY_PAIR);
            let start = out.len();
            tractors(hand, &self.trumps, &mut |s| {
                out.push(lead_id(&s, &self.trumps))
            });
            out[start..].sort_unstable();
        } else {
            push_bits(out, self.follow.next_cards(hand, &self.chosen), PLAY_CARD);
        }
    }

    /// The lead an id names in the leader's hand, if it names one.
    fn lead_of(&self, id: u32) -> Option<Shape> {
        let shape = match id {
            PLAY_CARD..PLAY_PAIR => {
                let bit = 1u64 << (id - PLAY_CARD);
                shape_of(&Hand { one: bit, two: 0 }, &self.trumps)
            }
            PLAY_PAIR..PLAY_TRACTOR => {
                let bit = 1u64 << (id - PLAY_PAIR);
                shape_of(&Hand { one: bit, two: bit }, &self.trumps)
            }
            _ => tractor_of_id(id, &self.trumps),
        }?;
        self.hands[usize::from(self.to_move)]
            .holds(&shape.cards)
            .then_some(shape)
    }

    /// Play action `id` for the seat to move: a lead, or one card of a follow. An
    /// illegal id changes nothing. Returns the trick it completed, if any.
    pub fn apply_id(&mut self, id: u32) -> Result<Option<Trick>> {
        let illegal = |why: &str| Err(EngineError::IllegalAction(why.into()));
        if self.is_over() {
            return illegal("the deal is over: every card is played");
        }
        if self.lead.is_none() {
            let Some(shape) = self.lead_of(id) else {
                return illegal("not a lead the leader holds: a single, a pair or a tractor");
            };
            self.lead = Some(shape);
            self.follow = Follow::of(&shape, &self.trumps);
            return Ok(self.commit(shape.cards));
        }
        let Some(i) = id.checked_sub(PLAY_CARD).filter(|&i| i < NUM_CARDS as u32) else {
            return illegal("a follow is chosen one card at a time (play <card>)");
        };
        let card = Card::from_index_unchecked(i as u8);
        let hand = &self.hands[usize::from(self.to_move)];
        if hand.count(card) <= self.chosen.count(card) {
            return Err(EngineError::IllegalAction(format!(
                "{card} is not in the hand (beyond the cards already chosen)"
            )));
        }
        if self.follow.next_cards(hand, &self.chosen) >> i & 1 == 0 {
            return Err(EngineError::IllegalAction(format!(
                "{card} cannot be part of a legal follow: play as many cards of the led \
                 suit as you can, with as many of its pairs as you can when pairs are led"
            )));
        }
        self.chosen.add(card);
        if self.chosen.len() < self.follow.size {
            return Ok(None);
        }
        let cards = std::mem::take(&mut self.chosen);
        Ok(self.commit(cards))
    }

    /// The seat to move plays `cards` (legal); the trick is scored when complete.
    fn commit(&mut self, cards: Hand) -> Option<Trick> {
        let seat = usize::from(self.to_move);
        self.hands[seat] = self.hands[seat].minus(&cards).unwrap_or(Hand::EMPTY);
        self.played[seat] = self.played[seat].plus(&cards).unwrap_or(self.played[seat]);
        self.trick[seat] = cards;
        self.done += 1;
        self.to_move = (self.to_move + 1) % SEATS as u8;
        if usize::from(self.done) < SEATS {
            return None;
        }
        let order: [Hand; SEATS] =
            std::array::from_fn(|k| self.trick[(usize::from(self.leader) + k) % SEATS]);
        let winner = (self.leader + trick_winner(&order, &self.trumps) as u8) % SEATS as u8;
        let points = order.iter().map(Hand::points).sum();
        let trick = Trick {
            leader: self.leader,
            plays: self.trick,
            winner,
            points,
            size: self.follow.size,
        };
        self.points[usize::from(winner)] += points;
        self.tricks += 1;
        self.last = Some(trick);
        self.trick = [Hand::EMPTY; SEATS];
        self.done = 0;
        self.lead = None;
        // TRC-39: the trick winner leads next.
        self.leader = winner;
        self.to_move = winner;
        Some(trick)
    }

    /// Play the deal to its end with uniformly random leads and, for follows, a
    /// uniformly random completable card at each step.
    pub fn random_playout(&mut self, rng: &mut CardRng) {
        self.playout(rng, false);
    }

    /// Play the deal to its end with [`Deal::heuristic_id`] (the search agent's
    /// rollout policy).
    pub fn heuristic_playout(&mut self, rng: &mut CardRng) {
        self.playout(rng, true);
    }

    fn playout(&mut self, rng: &mut CardRng, heuristic: bool) {
        let mut ids = Vec::with_capacity(64);
        while !self.is_over() {
            self.legal_ids_into(&mut ids);
            if ids.is_empty() {
                // Unequal hand-built hands: a follower holds too few cards.
                break;
            }
            let id = if heuristic {
                self.heuristic_id(&ids, rng)
            } else {
                ids[rng.below(ids.len() as u64) as usize]
            };
            if self.apply_id(id).is_err() {
                break;
            }
        }
    }

    /// A cheap, sensible choice among the legal `ids`: a random lead, preferring a
    /// pair or tractor half the time; following, points to a partner who is winning
    /// the trick, the cheapest winning card against a single, else the cheapest card
    /// (no points, side suits before trumps, low before high).
    pub fn heuristic_id(&self, ids: &[u32], rng: &mut CardRng) -> u32 {
        let Some(lead) = self.lead else {
            let shaped: Vec<u32> = ids.iter().copied().filter(|&i| i >= PLAY_PAIR).collect();
            let pool = if !shaped.is_empty() && rng.below(2) == 0 {
                &shaped[..]
            } else {
                ids
            };
            return pool[rng.below(pool.len() as u64) as usize];
        };
        let t = &self.trumps;
        let me = self.to_move;
        let plays = self.trick_plays();
        let order: Vec<Hand> = plays.iter().map(|&(_, h)| h).collect();
        let winner = plays[trick_winner(&order, t)].0;
        let card = |id: u32| Card::from_index_unchecked((id - PLAY_CARD) as u8);
        let value = |c: Card| {
            Hand {
                one: 1 << c.index(),
                two: 0,
            }
            .points()
        };
        let strength = |c: Card| (t.is_trump(c), t.position(c));
        if winner % 2 == me % 2 {
            if let Some(&best) = ids
                .iter()
                .max_by_key(|&&i| (value(card(i)), std::cmp::Reverse(strength(card(i)))))
            {
                if value(card(best)) > 0 {
                    return best;
                }
            }
        } else if lead.kind == Kind::Single {
            let beats = |i: &&u32| {
                let mut all = order.clone();
                all.push(Hand {
                    one: 1 << (**i - PLAY_CARD),
                    two: 0,
                });
                trick_winner(&all, t) == all.len() - 1
            };
            if let Some(&win) = ids.iter().filter(beats).min_by_key(|&&i| strength(card(i))) {
                return win;
            }
        }
        ids.iter()
            .copied()
            .min_by_key(|&i| (value(card(i)), strength(card(i))))
            .unwrap_or(ids[0])
    }

    /// The card points the attackers (the seats beside `dealer`) have won in tricks.
    pub fn attacker_tricks(&self, dealer: u8) -> u32 {
        [(dealer + 1) % 4, (dealer + 3) % 4]
            .iter()
            .map(|&s| self.points[usize::from(s)])
            .sum()
    }

    /// What the kitty's points are multiplied by for the attackers at the end of a
    /// deal dealt by `dealer`: twice the cards per play of the last trick when they
    /// won it, else 0 (TRC-42, TRC-43).
    pub fn kitty_multiplier(&self, dealer: u8) -> u32 {
        match &self.last {
            Some(t) if t.winner % 2 != dealer % 2 => 2 * t.size,
            _ => 0,
        }
    }

    /// The attackers' points at the end of a deal dealt by `dealer` with `kitty`
    /// buried: their tricks' points and the kitty bonus (TRC-42, TRC-43).
    pub fn attacker_points(&self, dealer: u8, kitty: &Hand) -> u32 {
        self.attacker_tricks(dealer) + kitty.points() * self.kitty_multiplier(dealer)
    }
}

/// A random Tractor deal at level 2: 25 cards each and 8 to the kitty from a
/// shuffled double pack, a random trump suit (or no-trump), and the dealer (seat
/// 0) taking the kitty and burying 8 random cards. Returns the deal and the kitty.
pub fn random_deal(rng: &mut CardRng) -> (Deal, Hand) {
    let mut pack: Vec<u8> = (0..NUM_CARDS as u8).chain(0..NUM_CARDS as u8).collect();
    rng.shuffle(&mut pack);
    let mut hands = [Hand::EMPTY; SEATS];
    for (i, &c) in pack.iter().enumerate() {
        // The last 8 cards are the kitty, which the dealer (seat 0) takes.
        let target = if i < SEATS * HAND_SIZE {
            i / HAND_SIZE
        } else {
            0
        };
        hands[target].add(Card::from_index_unchecked(c));
    }
    // The dealer now holds 33; bury 8 of them at random.
    let mut held = hands[0].cards();
    rng.shuffle(&mut held);
    let mut kitty = Hand::EMPTY;
    for &c in &held[..KITTY] {
        hands[0].take(c);
        kitty.add(c);
    }
    let suit = rng.below(5) as u8;
    let trumps = Trumps::new(0, (suit < 4).then_some(suit)).unwrap_or_else(|_| unreachable!());
    let deal = Deal::new(hands, trumps, 0).unwrap_or_else(|_| unreachable!());
    (deal, kitty)
}

/// Play `deals` random deals ([`random_deal`], then [`Deal::random_playout`]) from
/// one stream seeded by `seed`; returns the attackers' points summed over them.
/// Polls `cancel` once per deal.
pub fn random_playouts(deals: u64, seed: u64, cancel: &Cancel) -> Result<u64> {
    let mut rng = CardRng::new(seed);
    let mut total = 0u64;
    for _ in 0..deals {
        cancel.check()?;
        let (mut deal, kitty) = random_deal(&mut rng);
        deal.random_playout(&mut rng);
        total += u64::from(deal.attacker_points(0, &kitty));
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trick::tractor::{parse_level, parse_trump};

    fn hand(text: &str) -> Hand {
        Hand::from_cards(&crate::cards::parse_cards(text).unwrap()).unwrap()
    }

    fn id_of(deal: &Deal, text: &str) -> u32 {
        let shape = shape_of(&hand(text), deal.trumps()).unwrap();
        lead_id(&shape, deal.trumps())
    }

    #[test]
    fn a_trick_is_played_and_scored() {
        // TRC-21, TRC-36, TRC-38, TRC-39: a pair led, two unmatched high cards lose,
        // a trump pair from a void hand wins, and its player leads next.
        let t = Trumps::new(parse_level("2").unwrap(), parse_trump("s").unwrap()).unwrap();
        let hands = ["5h5h 3c", "AhKh 4c", "3s3s 5c", "6h7h Tc"].map(hand);
        let mut deal = Deal::new(hands, t, 0).unwrap();
        deal.apply_id(id_of(&deal, "5h5h")).unwrap();
        for (seat, cards) in [(1, "Ah Kh"), (2, "3s 3s"), (3, "6h 7h")] {
            assert_eq!(deal.to_move(), Some(seat));
            for c in crate::cards::parse_cards(cards).unwrap() {
                let mut ids = Vec::new();
                deal.legal_ids_into(&mut ids);
                assert!(ids.contains(&(PLAY_CARD + u32::from(c.index()))));
                let done = deal.apply_id(PLAY_CARD + u32::from(c.index())).unwrap();
                if seat == 3 && c == Card::parse("7h").unwrap() {
                    let trick = done.unwrap();
                    assert_eq!(trick.winner, 2);
                    assert_eq!(trick.points, 20);
                }
            }
        }
        assert_eq!(deal.to_move(), Some(2));
        assert_eq!(deal.points()[2], 20);
        // TRC-42, TRC-43: the kitty bonus when the attackers (seats 0 and 2 when
        // seat 1 deals) win the last trick, none when the defenders do.
        assert_eq!(deal.attacker_points(1, &hand("Kc")), 20 + 10 * 2 * 2);
        assert_eq!(deal.attacker_points(0, &hand("Kc")), 0);
        assert!(deal.apply_id(PLAY_CARD).is_err());
    }

    #[test]
    fn random_playouts_conserve_cards_and_points() {
        let mut rng = CardRng::new(11);
        for _ in 0..200 {
            let (mut deal, kitty) = random_deal(&mut rng);
            let mut twin = deal.clone();
            twin.heuristic_playout(&mut rng);
            assert!(twin.is_over());
            assert_eq!(twin.points().iter().sum::<u32>() + kitty.points(), 200);
            assert_eq!(kitty.len(), 8);
            assert!(deal.hands.iter().all(|h| h.len() == 25));
            deal.random_playout(&mut rng);
            assert!(deal.is_over());
            let total: u32 = deal.points().iter().sum();
            assert_eq!(total + kitty.points(), 200);
        }
        assert!(random_playouts(3, 1, &crate::cancel::NEVER).is_ok());
    }
}
