//! The card play of one Guandan deal (GD-24..GD-29, GD-45): whose turn it is, the
//! table, passes, the lead after a round (jiefeng, 接风, when the last player has
//! gone out) and the finishing places. Tribute, levels and the match are the
//! Python game's; this is the per-move loop its states and the playouts step.
//!
//! Turns run in seat order 0, 1, 2, 3 (the rule text's "counterclockwise", mapped
//! as Zheng Shangyou maps it); partners sit opposite (0 & 2, 1 & 3).

use super::{
    action_index, leads, move_ids_into, random_move, responses, take, view_take_into, BombCounts,
    Hand, Parts, Play, View, MAX_PLAY,
};
use crate::error::{EngineError, Result};
use crate::rng::CardRng;

/// Seats at the table.
pub const SEATS: usize = 4;

/// A hand without cards.
pub const NO_CARDS: Hand = Hand {
    counts: [0; crate::cards::NUM_CARDS],
};

/// The seat opposite `seat`.
#[inline]
pub fn partner(seat: u8) -> u8 {
    (seat + 2) % SEATS as u8
}

/// A deal's card play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    level: u8,
    hands: [Hand; SEATS],
    /// Cards each seat holds, kept with `hands` so that whether a play went out
    /// is not a scan of the hand.
    left: [u8; SEATS],
    to_move: u8,
    table: Option<Play>,
    owner: u8,
    passes: u8,
    /// Seats in finishing order; `places_len` of them are set.
    places: [u8; SEATS],
    places_len: u8,
    /// The seats in `places` (bit `s`), so that whether a seat is out, and who
    /// still answers, is a bit test rather than a scan of the places.
    out: u8,
    /// End the deal as soon as one team has finished first and second.
    double_win_ends: bool,
    over: bool,
    /// The cards each seat has played this deal (since [`Deal::resume`], for a
    /// position set up mid-deal), for the observation tensor.
    played: [Hand; SEATS],
    /// The cards the table's play took (none for a table given to [`Deal::resume`]).
    table_cards: Hand,
}

impl Deal {
    /// `leader` leads the first round with `hands` at `level` (0..=12, `2..A`).
    pub fn new(hands: [Hand; SEATS], level: u8, leader: u8, double_win_ends: bool) -> Result<Deal> {
        if leader as usize >= SEATS {
            return Err(EngineError::IllegalAction(format!(
                "leader {leader} is not a seat: seats are 0-3"
            )));
        }
        if level > super::ACE {
            return Err(EngineError::RuleOption(format!(
                "level {level} is not a rank index 0-12"
            )));
        }
        if hands.iter().any(Hand::is_empty) {
            return Err(EngineError::IllegalAction(
                "every seat needs cards to play a deal".into(),
            ));
        }
        let mut total = [0u16; crate::cards::NUM_CARDS];
        for h in &hands {
            for (t, &n) in total.iter_mut().zip(h.counts.iter()) {
                *t += u16::from(n);
            }
        }
        if let Some(i) = total.iter().position(|&n| n > 2) {
            let card = crate::cards::Card::from_index(i as u32)?;
            return Err(EngineError::InvalidCard(format!(
                "{card} is dealt more than twice: there are two packs"
            )));
        }
        Ok(Deal::new_unchecked(hands, level, leader, double_win_ends))
    }

    /// A position in the middle of a deal: `to_move` acts; `table` (played by
    /// `owner`, followed by `passes` passes) is the play to beat; `places` are the
    /// seats out so far. For searches and for states set up mid-deal.
    #[allow(clippy::too_many_arguments)]
    pub fn resume(
        hands: [Hand; SEATS],
        level: u8,
        to_move: u8,
        table: Option<Play>,
        owner: u8,
        passes: u8,
        places: &[u8],
        double_win_ends: bool,
    ) -> Result<Deal> {
        let bad = |what: String| EngineError::IllegalAction(what);
        if usize::from(to_move) >= SEATS || usize::from(owner) >= SEATS {
            return Err(bad(format!("seats {to_move} and {owner} must be 0-3")));
        }
        if places.len() >= 3 || places.iter().any(|&s| usize::from(s) >= SEATS) {
            return Err(bad(format!(
                "{places:?} are not the places of a deal in play"
            )));
        }
        let mut deal = Deal::new_unchecked(hands, level, to_move, double_win_ends);
        for &s in places {
            if deal.finished(s) || !deal.hands[usize::from(s)].is_empty() {
                return Err(bad(format!(
                    "seat {s} is placed but holds cards or is placed twice"
                )));
            }
            deal.push_place(s);
        }
        for s in 0..SEATS as u8 {
            if !deal.finished(s) && deal.hands[usize::from(s)].is_empty() {
                return Err(bad(format!("seat {s} holds no cards but has no place")));
            }
        }
        if deal.finished(to_move) {
            return Err(bad(format!("seat {to_move} is out and cannot act")));
        }
        deal.table = table;
        deal.owner = owner;
        deal.passes = passes;
        Ok(deal)
    }

    fn new_unchecked(hands: [Hand; SEATS], level: u8, leader: u8, double_win_ends: bool) -> Deal {
        Deal {
            level,
            left: hands.map(|h| h.len() as u8),
            hands,
            to_move: leader,
            table: None,
            owner: leader,
            passes: 0,
            places: [0; SEATS],
            places_len: 0,
            out: 0,
            double_win_ends,
            over: false,
            played: [NO_CARDS; SEATS],
            table_cards: NO_CARDS,
        }
    }

    /// Replace the hands of the seats other than `seat` (a determinization).
    pub fn set_hand(&mut self, seat: usize, hand: Hand) {
        self.left[seat % SEATS] = hand.len() as u8;
        self.hands[seat % SEATS] = hand;
    }

    pub fn level(&self) -> u8 {
        self.level
    }

    pub fn hand(&self, seat: usize) -> &Hand {
        &self.hands[seat % SEATS]
    }

    /// The seat to act, `None` once the deal is over.
    pub fn to_move(&self) -> Option<u8> {
        (!self.over).then_some(self.to_move)
    }

    /// The play to beat, `None` when the seat to act leads.
    pub fn table(&self) -> Option<&Play> {
        self.table.as_ref()
    }

    /// The seat that played the table (the last player, when a round ends).
    pub fn owner(&self) -> u8 {
        self.owner
    }

    /// Passes since the table was played.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The cards `seat` has played this deal (since [`Deal::resume`], for a
    /// position set up mid-deal).
    pub fn played(&self, seat: usize) -> &Hand {
        &self.played[seat % SEATS]
    }

    /// The cards the table's play took: empty when the seat to act leads, and for
    /// a table given to [`Deal::resume`], which names ranks but not suits.
    pub fn table_cards(&self) -> &Hand {
        &self.table_cards
    }

    /// Seats that have gone out, first place first; all four once the deal is over.
    pub fn places(&self) -> &[u8] {
        &self.places[..usize::from(self.places_len)]
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Whether the deal ends as soon as one team has finished first and second.
    pub fn double_win_ends(&self) -> bool {
        self.double_win_ends
    }

    /// Whether `seat` has gone out.
    pub fn finished(&self, seat: u8) -> bool {
        self.out >> seat & 1 != 0
    }

    /// The legal moves of the seat to act: `None` is pass (listed first when
    /// following; a leader must play, GD-25, GD-26).
    pub fn legal(&self) -> Vec<Option<Play>> {
        if self.over {
            return Vec::new();
        }
        let hand = &self.hands[usize::from(self.to_move)];
        match &self.table {
            None => leads(hand, self.level).into_iter().map(Some).collect(),
            Some(table) => std::iter::once(None)
                .chain(responses(hand, self.level, table).into_iter().map(Some))
                .collect(),
        }
    }

    /// Push the action-index ids of [`Deal::legal`] onto `out`, in its order (0,
    /// pass, first when following).
    pub fn legal_ids(&self, out: &mut Vec<u32>) {
        if self.over {
            return;
        }
        if self.table.is_some() {
            out.push(0);
        }
        let hand = &self.hands[usize::from(self.to_move)];
        move_ids_into(hand, self.level, self.table.as_ref(), out);
    }

    /// Apply the move of action-index id `id` (0: pass), as [`Deal::apply`].
    pub fn apply_id(&mut self, id: u32) -> Result<Vec<crate::cards::Card>> {
        let play = match id {
            0 => None,
            _ => Some(*action_index().play(id).ok_or_else(|| {
                EngineError::IllegalAction(format!("{id} is not a Guandan play id"))
            })?),
        };
        self.apply(play.as_ref())
    }

    /// Why `action` (`None`: pass) is illegal for the seat to act, or `Ok` with
    /// the cards a play takes.
    pub fn check(&self, action: Option<&Play>) -> Result<Vec<crate::cards::Card>> {
        if self.over {
            return Err(EngineError::IllegalAction("the deal is over".into()));
        }
        let seat = self.to_move;
        match (action, &self.table) {
            (None, None) => Err(EngineError::IllegalAction(
                "a leader must play and cannot pass".into(),
            )),
            (None, Some(_)) => Ok(Vec::new()),
            (Some(play), table) => {
                let cards =
                    take(&self.hands[usize::from(seat)], self.level, play).map_err(|_| {
                        EngineError::IllegalAction(format!("seat {seat} does not hold {play}"))
                    })?;
                if let Some(table) = table {
                    if !play.beats(table, self.level) {
                        return Err(EngineError::IllegalAction(format!(
                            "{play} does not beat {table}"
                        )));
                    }
                }
                Ok(cards)
            }
        }
    }

    /// Apply `play` taking the named copies `naturals` of its natural cards (from
    /// [`super::parse_copies`]) and its wilds, instead of the copies [`super::take`]
    /// picks; an illegal play, or naturals that are not its cards or not held, is an
    /// error and changes nothing. Returns the cards taken.
    pub fn apply_copies(
        &mut self,
        play: &Play,
        naturals: &[crate::cards::Card],
    ) -> Result<Vec<crate::cards::Card>> {
        self.check(Some(play))?;
        let seat = self.to_move;
        let named = Hand::from_cards(naturals)?;
        let wild = super::wild_card(self.level);
        let ranks_match = (0..super::NUM_RANKS as u8).all(|rank| {
            let copies: u8 = naturals
                .iter()
                .filter(|&&c| super::card_rank(c) == rank)
                .count() as u8;
            copies == play.natural(rank)
        });
        if !ranks_match || named.count(wild) > 0 {
            return Err(EngineError::IllegalAction(format!(
                "{} are not the natural cards of {play}",
                super::card_list(naturals)
            )));
        }
        let hand = &self.hands[usize::from(seat)];
        if named.counts.iter().zip(hand.counts).any(|(&n, h)| n > h) {
            return Err(EngineError::IllegalAction(format!(
                "seat {seat} does not hold {}",
                super::card_list(naturals)
            )));
        }
        let mut cards = naturals.to_vec();
        cards.extend(std::iter::repeat_n(wild, play.wilds()));
        self.commit(Some(play), &cards);
        Ok(cards)
    }

    /// Apply `action` (`None`: pass) for the seat to act; an illegal action is an
    /// error and changes nothing. Returns the cards a play took.
    pub fn apply(&mut self, action: Option<&Play>) -> Result<Vec<crate::cards::Card>> {
        let cards = self.check(action)?;
        self.commit(action, &cards);
        Ok(cards)
    }

    /// Make the checked `action` (`None`: pass), which takes `cards`, for the seat to act.
    fn commit(&mut self, action: Option<&Play>, cards: &[crate::cards::Card]) {
        let seat = self.to_move;
        match action {
            None => self.passes += 1,
            Some(play) => {
                let hand = &mut self.hands[usize::from(seat)];
                hand.remove(cards);
                let left = &mut self.left[usize::from(seat)];
                *left = left.saturating_sub(cards.len() as u8);
                let done = *left == 0;
                self.table_cards = NO_CARDS;
                for c in cards {
                    let i = usize::from(c.index());
                    self.table_cards.counts[i] += 1;
                    self.played[usize::from(seat)].counts[i] += 1;
                }
                self.table = Some(*play);
                self.owner = seat;
                self.passes = 0;
                if done {
                    self.finish(seat);
                }
            }
        }
        if !self.over {
            self.advance(seat);
        }
    }

    /// `seat` went out: it takes the next place; the third to go out leaves the
    /// fourth last (GD-45), and a 1-2 finish may end the deal at once.
    fn finish(&mut self, seat: u8) {
        self.push_place(seat);
        let double_win = self.places_len == 2 && self.places[1] == partner(self.places[0]);
        if self.places_len == 3 || (double_win && self.double_win_ends) {
            // The rest in turn order from the last finisher.
            for step in 1..SEATS as u8 {
                let s = (seat + step) % SEATS as u8;
                if !self.finished(s) {
                    self.push_place(s);
                }
            }
            self.over = true;
        }
    }

    fn push_place(&mut self, seat: u8) {
        self.places[usize::from(self.places_len)] = seat;
        self.places_len += 1;
        self.out |= 1 << seat;
    }

    /// The next seat after `seat` still holding cards (finished players are
    /// skipped, GD-28).
    fn next_active(&self, seat: u8) -> u8 {
        (1..=SEATS as u8)
            .map(|step| (seat + step) % SEATS as u8)
            .find(|&s| !self.finished(s))
            .unwrap_or(seat)
    }

    /// Move the turn on after `seat` acted. Once every other active player has
    /// passed the last player leads again (GD-27); if it has gone out, its partner
    /// leads, or the next active player if the partner is out too (GD-29).
    fn advance(&mut self, seat: u8) {
        const ALL: u8 = (1 << SEATS) - 1;
        let responders = (ALL & !self.out & !(1 << self.owner)).count_ones() as u8;
        if self.table.is_some() && self.passes >= responders {
            self.table = None;
            self.table_cards = NO_CARDS;
            self.passes = 0;
            let owner = self.owner;
            self.to_move = if !self.finished(owner) {
                owner
            } else if !self.finished(partner(owner)) {
                partner(owner)
            } else {
                self.next_active(owner)
            };
            self.owner = self.to_move;
        } else {
            self.to_move = self.next_active(seat);
        }
    }

    /// Play to the end with uniformly random legal moves; returns the moves made.
    pub fn random_playout(&mut self, rng: &mut CardRng) -> u32 {
        let mut moves = 0;
        let mut cards = [crate::cards::Card::RED_JOKER; MAX_PLAY];
        // Each seat's view of its hand, kept across its moves.
        let mut views: [View; SEATS] = std::array::from_fn(|s| self.hands[s].view(self.level));
        // The shapes and floors a turn answers change only with the table: a play
        // sets it and the end of a round clears it; passes keep it.
        let mut parts = Parts::of(self.table.as_ref(), self.level);
        let mut bombs: [BombCounts; SEATS] = [None; SEATS];
        while !self.over {
            // A move of `legal`, drawn as from its list (pass first when
            // following) but without listing: the seat's view serves the draw and
            // the cards the move takes.
            let seat = usize::from(self.to_move);
            let view = views[seat];
            let mv = random_move(&view, self.level, &parts, &mut bombs[seat], rng);
            // A listed move is legal, so it only needs its cards.
            let taken = match &mv {
                None => 0,
                Some(play) => match view_take_into(&view, self.level, play, &mut cards) {
                    Ok(n) => n,
                    Err(_) => break,
                },
            };
            self.commit(mv.as_ref(), &cards[..taken]);
            views[seat].remove(&cards[..taken], self.level);
            if mv.is_some() {
                bombs[seat] = None;
            }
            if mv.is_some() || self.table.is_none() {
                parts = Parts::of(self.table.as_ref(), self.level);
            }
            moves += 1;
        }
        moves
    }
}

/// `games` random deals at `level` from `seed` (deal `i` shuffled from
/// `derive_seed(seed, i)`, leader `i % 4`), played out; returns the moves made.
pub fn random_playouts(games: u64, seed: u64, level: u8, cancel: &crate::Cancel) -> Result<u64> {
    let pack = crate::deck::deck("double108")?;
    let mut cards = pack.clone();
    let mut moves = 0u64;
    for i in 0..games {
        cancel.check()?;
        cards.copy_from_slice(&pack);
        let mut rng = CardRng::new(crate::rng::derive_seed(seed, i));
        rng.shuffle(&mut cards);
        let mut hands = [NO_CARDS; SEATS];
        for (s, hand) in hands.iter_mut().enumerate() {
            *hand = Hand::from_cards(&cards[27 * s..27 * (s + 1)])?;
        }
        let mut deal = Deal::new(hands, level, (i % 4) as u8, false)?;
        moves += u64::from(deal.random_playout(&mut rng));
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    /// [`seeded_random_playouts_are_unchanged`] as the playout gave it before it
    /// learned to count full houses.
    const PLAYOUT_FINGERPRINT: u64 = 0x2ccb_5211_7b1e_1951;

    fn hand(text: &str) -> Hand {
        Hand::from_cards(&parse_cards(text).unwrap()).unwrap()
    }

    fn play(text: &str, level: u8) -> Option<Play> {
        Some(super::super::parse(text, Some(level)).unwrap())
    }

    #[test]
    fn random_deals_end_with_four_places() {
        let mut rng = CardRng::new(9);
        let pack = crate::deck::deck("double108").unwrap();
        for i in 0..50 {
            let mut cards = pack.clone();
            rng.shuffle(&mut cards);
            let hands: [Hand; SEATS] =
                std::array::from_fn(|s| Hand::from_cards(&cards[27 * s..27 * (s + 1)]).unwrap());
            let mut deal = Deal::new(hands, (i % 13) as u8, (i % 4) as u8, false).unwrap();
            deal.random_playout(&mut rng);
            let mut places = deal.places().to_vec();
            places.sort_unstable();
            assert_eq!(places, vec![0, 1, 2, 3]);
            assert!(deal.to_move().is_none());
        }
    }

    #[test]
    fn named_copies_are_the_cards_taken() {
        let level = 0;
        let hands = [hand("5s5d5c9c"), hand("3c4c"), hand("6c7c"), hand("8c9d")];
        let mut deal = Deal::new(hands, level, 0, false).unwrap();
        let (pair, naturals) = super::super::parse_copies("5s5c", Some(level))
            .unwrap()
            .unwrap();
        // Naming cards the seat lacks, or cards that are not the play's, changes nothing.
        let missing = parse_cards("5s5h").unwrap();
        assert!(deal.apply_copies(&pair, &missing).is_err());
        let wrong = parse_cards("5s9c").unwrap();
        assert!(deal.apply_copies(&pair, &wrong).is_err());
        assert_eq!(deal.hand(0), &hand("5s5d5c9c"));
        let taken = deal.apply_copies(&pair, &naturals).unwrap();
        assert_eq!(taken, parse_cards("5s5c").unwrap());
        assert_eq!(deal.hand(0), &hand("5d9c"));
        assert_eq!(deal.played(0), &hand("5s5c"));
    }

    #[test]
    fn random_playout_matches_legal_and_apply() {
        // The playout's fast path (one view per turn, no re-check of a listed move)
        // plays exactly the game `legal` and `apply` play with the same draws.
        let pack = crate::deck::deck("double108").unwrap();
        for i in 0..40u64 {
            let mut cards = pack.clone();
            CardRng::new(i).shuffle(&mut cards);
            let hands: [Hand; SEATS] =
                std::array::from_fn(|s| Hand::from_cards(&cards[27 * s..27 * (s + 1)]).unwrap());
            let level = (i % 13) as u8;
            let mut fast = Deal::new(hands, level, (i % 4) as u8, i % 2 == 0).unwrap();
            let mut slow = fast.clone();
            let moves = fast.random_playout(&mut CardRng::new(1000 + i));
            let mut rng = CardRng::new(1000 + i);
            let mut played = 0;
            while !slow.is_over() {
                let legal = slow.legal();
                let mv = legal[rng.below(legal.len() as u64) as usize];
                slow.apply(mv.as_ref()).unwrap();
                played += 1;
            }
            assert_eq!(moves, played);
            assert_eq!(fast.places(), slow.places());
            for seat in 0..SEATS {
                assert_eq!(fast.played(seat), slow.played(seat));
            }
        }
    }

    #[test]
    fn seeded_random_playouts_are_unchanged() {
        // Moves and places of 200 seeded random deals: a faster playout must draw
        // and play exactly as before (the fingerprint of the earlier playout).
        let pack = crate::deck::deck("double108").unwrap();
        let fnv = |acc: u64, x: u64| (acc ^ x).wrapping_mul(0x0100_0000_01b3);
        let mut acc = 0xcbf2_9ce4_8422_2325u64;
        for i in 0..200u64 {
            let mut cards = pack.clone();
            let mut rng = CardRng::new(i);
            rng.shuffle(&mut cards);
            let hands: [Hand; SEATS] =
                std::array::from_fn(|s| Hand::from_cards(&cards[27 * s..27 * (s + 1)]).unwrap());
            let mut deal = Deal::new(hands, (i % 13) as u8, (i % 4) as u8, i % 3 == 0).unwrap();
            acc = fnv(acc, u64::from(deal.random_playout(&mut rng)));
            for &s in deal.places() {
                acc = fnv(acc, u64::from(s));
            }
        }
        assert_eq!(acc, PLAYOUT_FINGERPRINT);
    }

    #[test]
    fn jiefeng_passes_the_lead_to_the_partner() {
        // GD-29: seat 0 goes out with its last card; after everyone passes, seat 2 leads.
        let level = 0;
        let hands = [hand("Ac"), hand("3c4c"), hand("5c6c"), hand("7c8c")];
        let mut deal = Deal::new(hands, level, 0, false).unwrap();
        deal.apply(play("A", level).as_ref()).unwrap();
        assert_eq!(deal.places(), &[0]);
        for _ in 0..3 {
            deal.apply(None).unwrap();
        }
        assert_eq!(deal.to_move(), Some(2));
        assert!(deal.table().is_none());
    }

    #[test]
    fn jiefeng_skips_a_finished_partner() {
        // GD-29: seat 0 goes out after its partner (seat 2); when the round ends the
        // lead passes to the next active player after seat 0, seat 1.
        let level = 0;
        let hands = [hand("Ac"), hand("4c5c"), hand("6c"), hand("7c8c")];
        let mut deal = Deal::new(hands, level, 2, false).unwrap();
        deal.apply(play("6", level).as_ref()).unwrap(); // seat 2 out
        assert_eq!(
            deal.to_move(),
            Some(3),
            "finished players are skipped (GD-28)"
        );
        deal.apply(None).unwrap(); // seat 3
        deal.apply(play("A", level).as_ref()).unwrap(); // seat 0 out
        assert_eq!(deal.places(), &[2, 0]);
        deal.apply(None).unwrap(); // seat 1
        deal.apply(None).unwrap(); // seat 3
        assert_eq!(deal.to_move(), Some(1));
        assert!(deal.table().is_none());
    }

    #[test]
    fn the_last_player_leads_again() {
        // GD-27: every other active player passes, so the last player leads.
        let level = 0;
        let hands = [hand("3c9c"), hand("4c5c"), hand("6c"), hand("7c8c")];
        let mut deal = Deal::new(hands, level, 3, false).unwrap();
        deal.apply(play("8", level).as_ref()).unwrap();
        for _ in 0..3 {
            deal.apply(None).unwrap();
        }
        assert_eq!(deal.to_move(), Some(3));
        assert!(deal.table().is_none());
    }

    #[test]
    fn a_leader_cannot_pass_and_a_refused_move_changes_nothing() {
        let level = 0;
        let hands = [hand("3c3d"), hand("4c"), hand("5c"), hand("6c")];
        let mut deal = Deal::new(hands, level, 0, false).unwrap();
        let before = deal.clone();
        assert!(deal.apply(None).is_err());
        assert!(deal.apply(play("44", level).as_ref()).is_err());
        assert_eq!(deal.hand(0), before.hand(0));
        assert_eq!(deal.to_move(), Some(0));
    }
}
