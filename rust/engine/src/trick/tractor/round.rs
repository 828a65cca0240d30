//! A whole single Tractor deal as the batched vector env plays it: the deal of
//! 25 cards each and an 8-card kitty, declaring in turn, the dealer burying eight
//! cards, the card play ([`Deal`]), the attackers' points and the level change.
//!
//! The Python game (python/cardkit/games/tractor.py) states the same rules for
//! whole matches; tests/test_vector_env.py drives both on the same seeds with
//! random legal ids and asserts identical legal ids, observations, rewards and
//! done flags at every step, so the two cannot drift apart.

use super::deal::{Deal, HAND_SIZE, KITTY, SEATS};
use super::observe::{
    self, write_cards, DEALER, DECLARATION, KITTY as KITTY_SLICE, LEVEL, PHASE, TEAM_LEVELS, TRUMP,
};
use super::{
    declare_cards, declare_strength, Hand, Trumps, BURY, DECLARE_BLACK, DECLARE_SINGLE, PASS_ID,
};
use crate::cards::{Card, NUM_CARDS};
use crate::error::{EngineError, Result};

/// The highest level rank (the ace).
const ACE: u8 = 12;

/// Where a deal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Declaring trumps in turn (TRC-09 .. TRC-19).
    Declare,
    /// The dealer buries eight cards (TRC-20).
    Bury,
    /// The card play (TRC-21 .. TRC-39).
    Play,
    /// Scored.
    Over,
}

/// Which team rises and by how much for the attackers' `points` (TRC-44 ..
/// TRC-49): `(true, 3 | 2 | 1)` for the defenders below 80, else `(false, n)`
/// with `n = (points - 80) / 40` (0 at 80-115: a take-over without rising).
pub fn level_change(points: u32) -> (bool, u32) {
    match points {
        0 => (true, 3),
        1..40 => (true, 2),
        40..80 => (true, 1),
        _ => (false, (points - 80) / 40),
    }
}

/// The outcome of a scored deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The attackers' trick points and kitty bonus.
    pub attacker_points: u32,
    /// The team that rises (0: seats 0 and 2, 1: seats 1 and 3).
    pub rising_team: u8,
    /// Levels it rises (0 for a take-over without rising).
    pub rise: u32,
}

/// One deal from the deal to the score, stepped by action id.
#[derive(Clone, Debug)]
pub struct Round {
    /// The deal's level rank, 0..=12; both teams start at it.
    level: u8,
    /// The seat that speaks first, and deals if nobody declares.
    first_speaker: u8,
    /// Hands while declaring and burying (the dealer's with the kitty).
    hands: [Hand; SEATS],
    /// The kitty as dealt.
    kitty: Hand,
    /// The suit of the kitty's first card that is not a joker (TRC-19).
    exposed_suit: u8,
    phase: Phase,
    speaker: u8,
    passes: u8,
    /// The first declarer, then the standing declaration (seat, id).
    first_declarer: Option<u8>,
    standing: Option<(u8, u32)>,
    dealer: Option<u8>,
    /// The trump suit once fixed (`Some(None)` at no-trump).
    trump: Option<Option<u8>>,
    exposed: bool,
    buried: Hand,
    play: Option<Deal>,
    outcome: Option<Outcome>,
}

impl Round {
    /// A deal of the 108 cards in `order` (seat 0 gets cards 0-24, seat 1 25-49,
    /// ..., the kitty 100-107) at `level` (0..=12), `first_speaker` speaking first.
    pub fn new(order: &[Card], level: u8, first_speaker: u8) -> Result<Round> {
        if order.len() != SEATS * HAND_SIZE + KITTY {
            return Err(EngineError::InvalidCard(format!(
                "a Tractor deal takes {} cards, got {}",
                SEATS * HAND_SIZE + KITTY,
                order.len()
            )));
        }
        if level > ACE || usize::from(first_speaker) >= SEATS {
            return Err(EngineError::RuleOption(format!(
                "level {level} must be 0-12 and first speaker {first_speaker} a seat 0-3"
            )));
        }
        let mut hands = [Hand::EMPTY; SEATS];
        for (s, hand) in hands.iter_mut().enumerate() {
            *hand = Hand::from_cards(&order[HAND_SIZE * s..HAND_SIZE * (s + 1)])?;
        }
        let rest = &order[SEATS * HAND_SIZE..];
        let kitty = Hand::from_cards(rest)?;
        // Eight cards hold at most four jokers.
        let exposed_suit = rest.iter().find_map(|c| c.suit()).unwrap_or(0);
        Ok(Round {
            level,
            first_speaker,
            hands,
            kitty,
            exposed_suit,
            phase: Phase::Declare,
            speaker: first_speaker,
            passes: 0,
            first_declarer: None,
            standing: None,
            dealer: None,
            trump: None,
            exposed: false,
            buried: Hand::EMPTY,
            play: None,
            outcome: None,
        })
    }

    /// Where the deal stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat to act, `None` once scored.
    pub fn to_act(&self) -> Option<u8> {
        match self.phase {
            Phase::Declare => Some(self.speaker),
            Phase::Bury => self.dealer,
            Phase::Play => self.play.as_ref().and_then(Deal::to_move),
            Phase::Over => None,
        }
    }

    /// The dealer, once fixed.
    pub fn dealer(&self) -> Option<u8> {
        self.dealer
    }

    /// Whether nobody declared and the kitty was exposed.
    pub fn exposed(&self) -> bool {
        self.exposed
    }

    /// The card play, once begun.
    pub fn play(&self) -> Option<&Deal> {
        self.play.as_ref()
    }

    /// The buried cards so far.
    pub fn buried(&self) -> Hand {
        self.buried
    }

    /// The outcome once scored.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// `seat`'s cards now.
    pub fn hand(&self, seat: usize) -> Hand {
        match &self.play {
            Some(deal) => deal.hand(seat),
            None => self.hands[seat],
        }
    }

    /// The legal action ids of the seat to act, ascending, into `out` (cleared first).
    pub fn legal_ids(&self, out: &mut Vec<u32>) {
        out.clear();
        match self.phase {
            Phase::Declare => {
                out.push(PASS_ID);
                let best = self.standing.map_or(0, |(_, id)| declare_strength(id));
                let hand = &self.hands[usize::from(self.speaker)];
                out.extend((DECLARE_SINGLE..BURY).filter(|&id| {
                    declare_strength(id) > best && hand.holds(&declare_cards(id, self.level))
                }));
            }
            Phase::Bury => {
                let mut bits = self.hand(usize::from(self.dealer.unwrap_or(0))).one;
                while bits != 0 {
                    out.push(BURY + bits.trailing_zeros());
                    bits &= bits - 1;
                }
            }
            Phase::Play => {
                if let Some(deal) = &self.play {
                    deal.legal_ids_into(out);
                }
            }
            Phase::Over => {}
        }
    }

    /// Play action `id` for the seat to act; an illegal id changes nothing.
    pub fn apply(&mut self, id: u32) -> Result<()> {
        let illegal = || {
            Err(EngineError::IllegalAction(format!(
                "action id {id} is not legal now"
            )))
        };
        match self.phase {
            Phase::Declare => {
                let mut ids = Vec::with_capacity(11);
                self.legal_ids(&mut ids);
                if !ids.contains(&id) {
                    return illegal();
                }
                self.speak(id);
            }
            Phase::Bury => {
                let dealer = usize::from(self.dealer.unwrap_or(0));
                let Some(i) = id.checked_sub(BURY).filter(|&i| i < NUM_CARDS as u32) else {
                    return illegal();
                };
                let card = Card::from_index_unchecked(i as u8);
                if !self.hands[dealer].take(card) {
                    return illegal();
                }
                self.buried.add(card);
                if self.buried.len() == KITTY as u32 {
                    let trumps = Trumps::new(self.level, self.trump.flatten())?;
                    self.play = Some(Deal::new(self.hands, trumps, dealer as u8)?);
                    self.phase = Phase::Play;
                }
            }
            Phase::Play => {
                let Some(deal) = self.play.as_mut() else {
                    return illegal();
                };
                deal.apply_id(id)?;
                if deal.is_over() {
                    self.score();
                }
            }
            Phase::Over => return illegal(),
        }
        Ok(())
    }

    fn speak(&mut self, id: u32) {
        let seat = self.speaker;
        if id == PASS_ID {
            self.passes += 1;
        } else {
            self.first_declarer.get_or_insert(seat);
            self.standing = Some((seat, id));
            self.passes = 0;
        }
        self.speaker = (seat + 1) % SEATS as u8;
        match (self.standing, self.passes) {
            // TRC-10, TRC-15, TRC-18: three passes fix the standing declaration;
            // the first declarer deals.
            (Some((_, id)), 3) => {
                let suit = (id < DECLARE_BLACK).then_some(((id - DECLARE_SINGLE) % 4) as u8);
                self.trump = Some(suit);
                self.dealer = self.first_declarer;
                self.take_kitty();
            }
            // TRC-19: nobody declared; the kitty names the trumps and the initial
            // dealer keeps the deal.
            (None, 4) => {
                self.exposed = true;
                self.trump = Some(Some(self.exposed_suit));
                self.dealer = Some(self.first_speaker);
                self.take_kitty();
            }
            _ => {}
        }
    }

    /// TRC-20: the dealer takes the kitty and buries eight cards.
    fn take_kitty(&mut self) {
        let dealer = usize::from(self.dealer.unwrap_or(0));
        self.hands[dealer] = self.hands[dealer]
            .plus(&self.kitty)
            .unwrap_or(self.hands[dealer]);
        self.phase = Phase::Bury;
    }

    /// TRC-40 .. TRC-49: the attackers' points and the level change.
    fn score(&mut self) {
        let (Some(deal), Some(dealer)) = (&self.play, self.dealer) else {
            return;
        };
        let points = deal.attacker_points(dealer, &self.buried);
        let (defenders_rise, rise) = level_change(points);
        let defenders = dealer % 2;
        self.outcome = Some(Outcome {
            attacker_points: points,
            rising_team: if defenders_rise {
                defenders
            } else {
                1 - defenders
            },
            rise,
        });
        self.phase = Phase::Over;
    }

    /// Each seat's return: the levels the deal gave its team minus those it gave
    /// the other (zeros until scored).
    pub fn returns(&self) -> [f32; SEATS] {
        let lead = self.outcome.map_or(0.0, |o| {
            let rise = o.rise as f32;
            if o.rising_team == 0 {
                rise
            } else {
                -rise
            }
        });
        [lead, -lead, lead, -lead]
    }

    /// Write `seat`'s observation tensor (docs/tractor.md, "Learning interface")
    /// into `out`, which it overwrites whole.
    pub fn observe(&self, seat: usize, out: &mut [f32]) -> Result<()> {
        if out.len() != observe::OBSERVATION_LEN {
            return Err(EngineError::RuleOption(format!(
                "out holds {} floats, the tensor has {}",
                out.len(),
                observe::OBSERVATION_LEN
            )));
        }
        out.fill(0.0);
        let rel = |s: u8| (usize::from(s) + SEATS - seat) % SEATS;
        match &self.play {
            Some(deal) => observe::write(deal, seat, true, out),
            None => {
                // Before the card play: the hand and the turn.
                write_cards(out, observe::HAND, &self.hands[seat]);
                if let Some(to_act) = self.to_act() {
                    out[observe::TO_ACT + rel(to_act)] = 1.0;
                }
            }
        }
        let phase = match self.phase {
            Phase::Declare => Some(0),
            Phase::Bury => Some(1),
            Phase::Play => Some(2),
            Phase::Over => None,
        };
        if let Some(p) = phase {
            out[PHASE + p] = 1.0;
        }
        if let Some(dealer) = self.dealer {
            out[DEALER + rel(dealer)] = 1.0;
        }
        if let Some((who, id)) = self.standing {
            out[DECLARATION + rel(who)] = 1.0;
            out[DECLARATION + SEATS + declare_strength(id) as usize - 1] = 1.0;
        }
        out[LEVEL + usize::from(self.level)] = 1.0;
        if let Some(suit) = self.trump {
            out[TRUMP + usize::from(suit.unwrap_or(4))] = 1.0;
        }
        let mut levels = [self.level; 2];
        if let Some(o) = self.outcome {
            let team = &mut levels[usize::from(o.rising_team)];
            *team = (u32::from(*team) + o.rise).min(u32::from(ACE)) as u8;
        }
        let team = seat % 2;
        for (k, t) in [team, 1 - team].into_iter().enumerate() {
            out[TEAM_LEVELS + 13 * k + usize::from(levels[t])] = 1.0;
        }
        // The dealer knows what it buried; the others know an exposed kitty.
        if self.dealer == Some(seat as u8) {
            write_cards(out, KITTY_SLICE, &self.buried);
        } else if self.exposed {
            write_cards(out, KITTY_SLICE, &self.kitty);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_change_band_edges() {
        // TRC-44 .. TRC-49, the edges python/cardkit/games/tractor.py's level_change
        // is tested on.
        let bands = [
            (0, (true, 3)),
            (5, (true, 2)),
            (35, (true, 2)),
            (40, (true, 1)),
            (75, (true, 1)),
            (80, (false, 0)),
            (115, (false, 0)),
            (120, (false, 1)),
            (155, (false, 1)),
            (160, (false, 2)),
        ];
        for (points, change) in bands {
            assert_eq!(level_change(points), change, "{points} points");
        }
    }

    #[test]
    fn bad_decks_and_options_are_refused() {
        let order = crate::deck::deck("double108").unwrap();
        assert!(Round::new(&order[1..], 0, 0).is_err());
        assert!(Round::new(&order, 13, 0).is_err());
        assert!(Round::new(&order, 0, 4).is_err());
        let mut round = Round::new(&order, 0, 0).unwrap();
        // Burying before trumps are fixed, and out-of-range ids, are refused.
        assert!(round.apply(BURY).is_err());
        assert!(round.apply(u32::MAX).is_err());
        assert_eq!(round.to_act(), Some(0));
    }
}
