//! One whole Tractor deal: the deal of 25 cards each and an 8-card kitty,
//! declaring in turn, the dealer burying eight cards, the card play ([`Deal`]),
//! the attackers' points, the level change and the next dealer. The one home of
//! these rules: the Python state (python/cardkit/games/tractor.py, through the
//! `TractorRound` binding) steps it deal by deal and keeps the match across
//! deals, and the vector env and the AEC env play it as single deals.

use super::deal::{Deal, Trick, HAND_SIZE, KITTY, SEATS};
use super::observe::{
    self, write_cards, DEALER, DECLARATION, KITTY as KITTY_SLICE, LEVEL, PHASE, TEAM_LEVELS, TRUMP,
};
use super::{
    declare_cards, declare_strength, Hand, Trumps, BURY, DECLARE_BLACK, DECLARE_SINGLE, PASS_ID,
};
use crate::cards::{Card, NUM_CARDS};
use crate::error::{EngineError, Result};

/// The highest level rank (the ace).
pub const ACE: u8 = 12;
/// The most declarations of one deal: each is stronger than the last, and there
/// are four strengths (TRC-12 .. TRC-14).
const MAX_DECLARATIONS: usize = 4;

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

impl Phase {
    /// The phase's name: `declare`, `bury`, `play` or `over`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Declare => "declare",
            Phase::Bury => "bury",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
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

/// The outcome of a scored deal (TRC-40 .. TRC-50).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The card points the attackers won in tricks.
    pub trick_points: u32,
    /// The card points of the buried kitty.
    pub kitty_points: u32,
    /// Twice the cards per play of the last trick when the attackers won it, else 0.
    pub kitty_multiplier: u32,
    /// The attackers' trick points and kitty bonus.
    pub attacker_points: u32,
    /// The team that rises (0: seats 0 and 2, 1: seats 1 and 3).
    pub rising_team: u8,
    /// Levels it rises (0 for a take-over without rising).
    pub rise: u32,
    /// Who deals next: the dealer's partner when the defenders rise, else the
    /// dealer's next player.
    pub next_dealer: u8,
}

impl Outcome {
    /// The kitty's points times the multiplier.
    pub fn kitty_bonus(&self) -> u32 {
        self.kitty_points * self.kitty_multiplier
    }
}

/// One deal from the deal to the score, stepped by action id.
#[derive(Clone, Debug)]
pub struct Round {
    /// Each team's level (0: seats 0 and 2), 0..=12.
    levels: [u8; 2],
    /// The deal's level rank: the dealer's team's level (TRC-08, TRC-11).
    level: u8,
    /// The seat that deals if nobody declares in a first deal.
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
    /// The declarations so far as (seat, action id), the standing one last.
    declarations: [(u8, u8); MAX_DECLARATIONS],
    declared: u8,
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
    /// ..., the kitty 100-107) with the teams at `levels` (0..=12 each).
    ///
    /// `dealer` is the deal's dealer, who speaks first; `None` in a match's first
    /// deal, where both teams are at one level, `first_speaker` speaks first, the
    /// first declarer deals (TRC-10) and `first_speaker` deals if nobody declares.
    pub fn new(
        order: &[Card],
        levels: [u8; 2],
        dealer: Option<u8>,
        first_speaker: u8,
    ) -> Result<Round> {
        if order.len() != SEATS * HAND_SIZE + KITTY {
            return Err(EngineError::InvalidCard(format!(
                "a Tractor deal takes {} cards, got {}",
                SEATS * HAND_SIZE + KITTY,
                order.len()
            )));
        }
        let seat_ok = |s: u8| usize::from(s) < SEATS;
        if levels.iter().any(|&l| l > ACE)
            || !seat_ok(first_speaker)
            || dealer.is_some_and(|d| !seat_ok(d))
        {
            return Err(EngineError::RuleOption(format!(
                "levels {levels:?} must be 0-12, first speaker {first_speaker} and dealer \
                 {dealer:?} seats 0-3"
            )));
        }
        let level = match dealer {
            Some(d) => levels[usize::from(d % 2)],
            None if levels[0] == levels[1] => levels[0],
            None => {
                return Err(EngineError::RuleOption(format!(
                    "a deal without a dealer is a first deal, with both teams at one \
                     level, not {levels:?}"
                )))
            }
        };
        let mut hands = [Hand::EMPTY; SEATS];
        let mut all = Hand::EMPTY;
        let twice = || EngineError::InvalidCard("a card is dealt more than twice".into());
        for (s, hand) in hands.iter_mut().enumerate() {
            *hand = Hand::from_cards(&order[HAND_SIZE * s..HAND_SIZE * (s + 1)])?;
            all = all.plus(hand).ok_or_else(twice)?;
        }
        let rest = &order[SEATS * HAND_SIZE..];
        let kitty = Hand::from_cards(rest)?;
        all.plus(&kitty).ok_or_else(twice)?;
        // Eight cards hold at most four jokers.
        let exposed_suit = rest.iter().find_map(|c| c.suit()).unwrap_or(0);
        Ok(Round {
            levels,
            level,
            first_speaker,
            hands,
            kitty,
            exposed_suit,
            phase: Phase::Declare,
            speaker: dealer.unwrap_or(first_speaker),
            passes: 0,
            declarations: [(0, 0); MAX_DECLARATIONS],
            declared: 0,
            dealer,
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

    /// The deal's level rank, 0..=12.
    pub fn level(&self) -> u8 {
        self.level
    }

    /// The trump suit (0..=3) once fixed, `Some(None)` at no-trump.
    pub fn trump(&self) -> Option<Option<u8>> {
        self.trump
    }

    /// The declarations so far as (seat, action id), the standing one last.
    pub fn declarations(&self) -> &[(u8, u8)] {
        &self.declarations[..usize::from(self.declared)]
    }

    /// The standing declaration as (seat, action id).
    fn standing(&self) -> Option<(u8, u32)> {
        self.declarations()
            .last()
            .map(|&(s, id)| (s, u32::from(id)))
    }

    /// The kitty as dealt.
    pub fn kitty(&self) -> Hand {
        self.kitty
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
                out.extend((DECLARE_SINGLE..BURY).filter(|&id| self.may_declare(id)));
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

    /// Whether the speaker may make declaration `id`: one it holds the cards of,
    /// stronger than the standing one (TRC-12 .. TRC-14).
    fn may_declare(&self, id: u32) -> bool {
        let best = self.standing().map_or(0, |(_, id)| declare_strength(id));
        (DECLARE_SINGLE..BURY).contains(&id)
            && declare_strength(id) > best
            && self.hands[usize::from(self.speaker)].holds(&declare_cards(id, self.level))
    }

    /// Play action `id` for the seat to act; an illegal id changes nothing.
    /// Returns the trick it completed, if any.
    pub fn apply(&mut self, id: u32) -> Result<Option<Trick>> {
        match self.phase {
            Phase::Declare => {
                if id != PASS_ID && !self.may_declare(id) {
                    return Err(EngineError::IllegalAction(format!(
                        "action id {id} is no pass or declaration the speaker holds that \
                         is stronger than the standing one"
                    )));
                }
                self.speak(id);
                Ok(None)
            }
            Phase::Bury => {
                self.bury(id)?;
                Ok(None)
            }
            Phase::Play => {
                let Some(deal) = self.play.as_mut() else {
                    return Err(EngineError::IllegalAction("no card play yet".into()));
                };
                let trick = deal.apply_id(id)?;
                if deal.is_over() {
                    self.score();
                }
                Ok(trick)
            }
            Phase::Over => Err(EngineError::IllegalAction(
                "the deal is over: every card is played".into(),
            )),
        }
    }

    /// Play `ids` as one action of the seat to act, all or nothing: cards to bury
    /// (one id each, at most the cards still to bury), the cards of a follow (one
    /// id each, ending at or before its last card), or any single id. Returns the
    /// trick it completed, if any.
    pub fn apply_ids(&mut self, ids: &[u32]) -> Result<Option<Trick>> {
        if ids.is_empty() {
            return Err(EngineError::IllegalAction(
                "an action names at least one card".into(),
            ));
        }
        let mut next = self.clone();
        let mut trick = None;
        for (k, &id) in ids.iter().enumerate() {
            if k > 0 && !next.mid_action() {
                return Err(EngineError::IllegalAction(match self.phase {
                    Phase::Bury => format!(
                        "{} cards are buried, and only {} more may be",
                        ids.len(),
                        KITTY as u32 - self.buried.len()
                    ),
                    _ => format!(
                        "{} cards are more than the play takes: a lead is one single, pair \
                         or tractor, a follow as many cards as the lead",
                        ids.len()
                    ),
                }));
            }
            trick = next.apply(id)?;
        }
        *self = next;
        Ok(trick)
    }

    /// Whether the seat that just moved is still in the middle of its action: more
    /// cards to bury, or a follow begun and not complete.
    fn mid_action(&self) -> bool {
        match self.phase {
            Phase::Bury => true,
            Phase::Play => self.play.as_ref().is_some_and(|d| !d.chosen().is_empty()),
            Phase::Declare | Phase::Over => false,
        }
    }

    fn speak(&mut self, id: u32) {
        let seat = self.speaker;
        if id == PASS_ID {
            self.passes += 1;
        } else {
            // Legal declarations are strictly stronger than the standing one, so
            // there are at most four.
            if let Some(slot) = self.declarations.get_mut(usize::from(self.declared)) {
                *slot = (seat, id as u8);
                self.declared += 1;
            }
            self.passes = 0;
        }
        self.speaker = (seat + 1) % SEATS as u8;
        match (self.standing(), self.passes) {
            // TRC-10, TRC-15, TRC-18: three passes fix the standing declaration;
            // in a first deal the first declarer deals.
            (Some((_, id)), 3) => {
                let suit = (id < DECLARE_BLACK).then_some(((id - DECLARE_SINGLE) % 4) as u8);
                self.trump = Some(suit);
                let first = self.declarations[0].0;
                self.dealer.get_or_insert(first);
                self.take_kitty();
            }
            // TRC-19: nobody declared; the kitty names the trumps and the dealer, or
            // in a first deal the initial dealer, keeps the deal.
            (None, 4) => {
                self.exposed = true;
                self.trump = Some(Some(self.exposed_suit));
                self.dealer.get_or_insert(self.first_speaker);
                self.take_kitty();
            }
            _ => {}
        }
    }

    /// TRC-20: the dealer takes the kitty and buries eight cards.
    fn take_kitty(&mut self) {
        let dealer = usize::from(self.dealer.unwrap_or(0));
        // The deal holds each card at most twice (checked by `new`).
        self.hands[dealer] = self.hands[dealer]
            .plus(&self.kitty)
            .unwrap_or(self.hands[dealer]);
        self.phase = Phase::Bury;
    }

    /// Bury the card of `id`; the card play begins after the eighth.
    fn bury(&mut self, id: u32) -> Result<()> {
        let dealer = usize::from(self.dealer.unwrap_or(0));
        let Some(i) = id.checked_sub(BURY).filter(|&i| i < NUM_CARDS as u32) else {
            return Err(EngineError::IllegalAction(
                "the dealer buries eight cards first: bury <card>".into(),
            ));
        };
        let card = Card::from_index_unchecked(i as u8);
        if !self.hands[dealer].take(card) {
            return Err(EngineError::IllegalAction(format!(
                "the dealer does not hold {card} (or not that many)"
            )));
        }
        self.buried.add(card);
        if self.buried.len() == KITTY as u32 {
            // The trump suit is fixed before burying, and the level is 0..=12.
            let trumps = Trumps::new(self.level, self.trump.flatten())?;
            self.play = Some(Deal::new(self.hands, trumps, dealer as u8)?);
            self.phase = Phase::Play;
        }
        Ok(())
    }

    /// TRC-40 .. TRC-50: the attackers' points, the level change and the next dealer.
    fn score(&mut self) {
        let (Some(deal), Some(dealer)) = (&self.play, self.dealer) else {
            return;
        };
        let trick_points = deal.attacker_tricks(dealer);
        let kitty_points = self.buried.points();
        let kitty_multiplier = deal.kitty_multiplier(dealer);
        let attacker_points = trick_points + kitty_points * kitty_multiplier;
        let (defenders_rise, rise) = level_change(attacker_points);
        let defenders = dealer % 2;
        // TRC-47, TRC-50: the dealer's partner keeps the deal for the defenders; on a
        // take-over the old dealer's next player deals.
        let (rising_team, next_dealer) = if defenders_rise {
            (defenders, (dealer + 2) % SEATS as u8)
        } else {
            (1 - defenders, (dealer + 1) % SEATS as u8)
        };
        self.outcome = Some(Outcome {
            trick_points,
            kitty_points,
            kitty_multiplier,
            attacker_points,
            rising_team,
            rise,
            next_dealer,
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
        if seat >= SEATS {
            return Err(EngineError::IllegalAction(format!(
                "seat {seat} is not a seat: seats are 0-3"
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
        if let Some((who, id)) = self.standing() {
            out[DECLARATION + rel(who)] = 1.0;
            out[DECLARATION + SEATS + declare_strength(id) as usize - 1] = 1.0;
        }
        out[LEVEL + usize::from(self.level)] = 1.0;
        if let Some(suit) = self.trump {
            out[TRUMP + usize::from(suit.unwrap_or(4))] = 1.0;
        }
        // A team beyond the ace (the match won) shows at the ace.
        let mut levels = self.levels;
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
        assert!(Round::new(&order[1..], [0, 0], None, 0).is_err());
        assert!(Round::new(&order, [13, 13], None, 0).is_err());
        assert!(Round::new(&order, [0, 0], None, 4).is_err());
        assert!(Round::new(&order, [0, 0], Some(4), 0).is_err());
        // Without a dealer (a first deal) both teams are at one level.
        assert!(Round::new(&order, [0, 3], None, 0).is_err());
        let mut thrice = order.clone();
        thrice[1] = thrice[0];
        assert!(Round::new(&thrice, [0, 0], None, 0).is_err());
        let mut round = Round::new(&order, [0, 0], None, 0).unwrap();
        // Burying before trumps are fixed, and out-of-range ids, are refused.
        assert!(round.apply(BURY).is_err());
        assert!(round.apply(u32::MAX).is_err());
        assert!(round.apply_ids(&[]).is_err());
        assert_eq!(round.to_act(), Some(0));
    }

    /// A shuffled deal and the round of it with `levels` and `dealer`.
    fn shuffled(seed: u64, levels: [u8; 2], dealer: Option<u8>) -> Round {
        let mut order = crate::deck::deck("double108").unwrap();
        crate::rng::shuffle_seeded(&mut order, seed);
        Round::new(&order, levels, dealer, 1).unwrap()
    }

    #[test]
    fn a_later_deal_keeps_its_dealer_and_plays_at_its_team_level() {
        // TRC-08, TRC-11: the dealer speaks first, the deal is at the dealer's team
        // level, and a declaration by another seat does not move the deal.
        for seed in 0..40 {
            let mut round = shuffled(seed, [3, 7], Some(1));
            assert_eq!((round.to_act(), round.level()), (Some(1), 7));
            let mut ids = Vec::new();
            let mut declared = false;
            while round.phase() == Phase::Declare {
                round.legal_ids(&mut ids);
                let id = *ids.last().unwrap();
                declared |= id != PASS_ID;
                round.apply(id).unwrap();
            }
            assert_eq!(round.dealer(), Some(1));
            assert_eq!(round.exposed(), !declared);
            let mut obs = vec![0.0; observe::OBSERVATION_LEN];
            round.observe(0, &mut obs).unwrap();
            // Seat 0's team first: level 5 (index 3), then the other team's 9 (7).
            assert_eq!(obs[TEAM_LEVELS + 3], 1.0);
            assert_eq!(obs[TEAM_LEVELS + 13 + 7], 1.0);
        }
    }

    #[test]
    fn several_ids_play_as_one_action_or_not_at_all() {
        let mut round = shuffled(5, [0, 0], None);
        for _ in 0..4 {
            round.apply(PASS_ID).unwrap();
        }
        assert_eq!(round.phase(), Phase::Bury);
        let dealer = usize::from(round.dealer().unwrap());
        let cards = round.hand(dealer).cards();
        let ids: Vec<u32> = cards.iter().map(|c| BURY + u32::from(c.index())).collect();
        // Nine cards are one too many: nothing is buried.
        let before = round.hand(dealer);
        assert!(round.apply_ids(&ids[..9]).is_err());
        assert_eq!((round.hand(dealer), round.buried().len()), (before, 0));
        round.apply_ids(&ids[..3]).unwrap();
        round.apply_ids(&ids[3..8]).unwrap();
        assert_eq!(round.phase(), Phase::Play);
        // A lead, then a follower's whole follow in one action.
        let mut legal = Vec::new();
        round.legal_ids(&mut legal);
        let lead = *legal
            .iter()
            .find(|&&id| id >= super::super::PLAY_PAIR)
            .unwrap();
        round.apply(lead).unwrap();
        let mut follow = Vec::new();
        let mut twin = round.clone();
        while twin.play().unwrap().tricks() == 0 && twin.to_act() == round.to_act() {
            twin.legal_ids(&mut legal);
            follow.push(legal[0]);
            twin.apply(legal[0]).unwrap();
        }
        // One card too many would be the next seat's: refused, nothing played.
        let mut extra = follow.clone();
        twin.legal_ids(&mut legal);
        extra.push(legal[0]);
        let seat = round.to_act();
        assert!(round.apply_ids(&extra).is_err());
        assert_eq!(round.to_act(), seat);
        round.apply_ids(&follow).unwrap();
        assert_eq!(round.to_act(), twin.to_act());
    }

    #[test]
    fn the_outcome_adds_up() {
        // TRC-40 .. TRC-50 on random deals: trick and kitty points make 200, the
        // kitty bonus needs the attackers' last trick, and the next dealer follows
        // the rising team.
        let mut rng = crate::rng::CardRng::new(9);
        let mut ids = Vec::new();
        for seed in 0..60 {
            let mut round = shuffled(seed, [4, 4], None);
            while round.to_act().is_some() {
                round.legal_ids(&mut ids);
                round
                    .apply(ids[rng.below(ids.len() as u64) as usize])
                    .unwrap();
            }
            let o = round.outcome().unwrap();
            let dealer = round.dealer().unwrap();
            let deal = round.play().unwrap();
            let defence: u32 = [dealer, (dealer + 2) % 4]
                .iter()
                .map(|&s| deal.points()[usize::from(s)])
                .sum();
            assert_eq!(o.trick_points + defence + o.kitty_points, 200);
            assert_eq!(o.attacker_points, o.trick_points + o.kitty_bonus());
            let last = deal.last_trick().unwrap();
            let attackers_last = last.winner % 2 != dealer % 2;
            assert_eq!(
                o.kitty_multiplier,
                if attackers_last { 2 * last.size } else { 0 }
            );
            let defenders_rise = o.attacker_points < 80;
            assert_eq!(o.rising_team == dealer % 2, defenders_rise);
            let step = if defenders_rise { 2 } else { 1 };
            assert_eq!(o.next_dealer, (dealer + step) % 4);
        }
    }
}
