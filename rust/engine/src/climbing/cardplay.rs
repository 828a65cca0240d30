//! The card-play phase of a climbing deal as the game API plays it: the rank-level
//! [`Deal`] the playouts use, plus the actual cards (suits included) in each hand
//! and each seat's played pile, the play log and the bonus log.
//!
//! The Python game states keep bidding, scoring and observations; this is the
//! per-move loop they step (list the legal moves once per turn, apply one), so that a
//! game played through the Python State API costs one engine call per move.

use super::index::{ActionIndex, PASS_ID};
use super::playout::{Deal, Game, Move};
use super::{doudizhu as ddz, zhengshangyou as zsy};
use super::{Combination, Kind, Ranks, NUM_RANKS, THREE, TWO};
use crate::cards::{Card, HEARTS};
use crate::cardset::CardSet;
use crate::error::{EngineError, Result};

/// The heart three: it leads Zheng Shangyou and is the first card its opening play takes.
pub const HEART_THREE: Card = Card::new(1, HEARTS);

/// The card-set bits of every card of climbing rank `rank`.
#[inline]
fn rank_bits(rank: u8) -> u64 {
    match rank {
        // Climbing ranks 3..A are card ranks 1..12 and the two is card rank 0.
        r if r < TWO => 0xF << (4 * (r as u32 + 1)),
        r if r == TWO => 0xF,
        r => 1u64 << (52 + u32::from(r - TWO - 1)),
    }
}

/// A deal's card play: hands as cards, the rank-level state, and what was played.
#[derive(Clone, Debug)]
pub struct CardPlay {
    deal: Deal,
    hands: [CardSet; 3],
    played: [Vec<Card>; 3],
    rockets: u8,
    log: Vec<(u8, Move)>,
    bonus_log: Vec<(u8, Combination)>,
    /// The legal moves of the seat to act, listed once per turn.
    legal: Option<Vec<Move>>,
    /// The ranks each seat has played (the observation tensors' planes).
    played_ranks: [Ranks; 3],
    /// The legal moves by action-index id, listed once per turn (see
    /// [`CardPlay::legal_ids`]); kept apart from `legal`, which it never builds.
    by_id: IdListing,
}

/// A position's legal moves by action-index id: `moves` in the generator's order,
/// and `order` one entry per id, ascending, `(id << 32) | i` naming `moves[i]`,
/// the first listed reading of the id's ranks. Buffers reused from turn to turn.
#[derive(Clone, Debug, Default)]
struct IdListing {
    /// Whether the lists are the current position's.
    fresh: bool,
    moves: Vec<Move>,
    order: Vec<u64>,
}

/// The action index of `game`'s ids.
fn index_of(game: Game) -> &'static ActionIndex {
    match game {
        Game::DouDizhu { .. } => ddz::action_index(),
        Game::ZhengShangyou => zsy::action_index(),
    }
}

impl CardPlay {
    /// `leader` leads the first trick with `hands` (cards of one pack, so no card
    /// twice). `plays` is how many plays each seat has made before (positions set up
    /// mid-deal); a Zheng Shangyou deal is at its opening play while nobody has played.
    pub fn new(game: Game, hands: [CardSet; 3], leader: u8, plays: [u16; 3]) -> Result<CardPlay> {
        if leader > 2 {
            return Err(EngineError::IllegalAction(format!(
                "leader {leader} is not a seat: seats are 0, 1 and 2"
            )));
        }
        let (a, b, c) = (hands[0].0, hands[1].0, hands[2].0);
        if a & b != 0 || a & c != 0 || b & c != 0 {
            return Err(EngineError::InvalidCard(
                "a card is in more than one hand".into(),
            ));
        }
        let ranks = hands.map(|h| Ranks::from_cards(h.iter()));
        let mut deal = Deal::new(game, ranks, leader);
        deal.plays = plays;
        deal.opening = game == Game::ZhengShangyou && plays == [0; 3];
        Ok(CardPlay {
            deal,
            hands,
            played: [Vec::new(), Vec::new(), Vec::new()],
            rockets: 0,
            log: Vec::new(),
            bonus_log: Vec::new(),
            legal: None,
            played_ranks: [Ranks::default(); 3],
            by_id: IdListing::default(),
        })
    }

    /// The rank-level state: table, passes, plays per seat, bombs, bonuses, winner.
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// The cards of `seat`'s hand, weakest rank first, then by card index.
    pub fn hand(&self, seat: usize) -> Vec<Card> {
        let bits = self.hands[seat % 3].0;
        let mut out = Vec::with_capacity(bits.count_ones() as usize);
        for rank in 0..NUM_RANKS as u8 {
            out.extend(CardSet(bits & rank_bits(rank)).iter());
        }
        out
    }

    /// The cards `seat` has played, in the order they were played.
    pub fn played(&self, seat: usize) -> &[Card] {
        &self.played[seat % 3]
    }

    /// The ranks each seat has played, by seat.
    pub fn played_ranks(&self) -> &[Ranks; 3] {
        &self.played_ranks
    }

    /// Rockets played (Dou Dizhu); [`Deal::bombs`] counts bombs and rockets together.
    pub fn rockets(&self) -> u8 {
        self.rockets
    }

    /// Every move of the card play so far: the seat and its play (`None`: pass).
    pub fn log(&self) -> &[(u8, Move)] {
        &self.log
    }

    /// Zheng Shangyou: every response bomb whose bonus was settled, with its owner.
    pub fn bonus_log(&self) -> &[(u8, Combination)] {
        &self.bonus_log
    }

    /// The legal moves of the seat to act, plays first and pass last (none once over).
    pub fn legal(&mut self) -> &[Move] {
        let deal = &self.deal;
        self.legal.get_or_insert_with(|| deal.legal())
    }

    /// The game's action-index ids of the legal moves of the seat to act,
    /// ascending and each once (none once over), listed once per turn straight
    /// from the move generator: learning loops step by id, and this spares them
    /// the list of moves and its second walk to find ids.
    pub fn legal_ids(&mut self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.list_by_id();
        self.by_id.order.iter().map(|&k| (k >> 32) as u32)
    }

    /// Fill `by_id` for the position unless it is already.
    fn list_by_id(&mut self) {
        if self.by_id.fresh {
            return;
        }
        let IdListing { moves, order, .. } = &mut self.by_id;
        moves.clear();
        order.clear();
        let index = index_of(self.deal.game);
        self.deal.each_legal(|mv, key| {
            let id = if mv.is_none() {
                Some(PASS_ID)
            } else {
                index.key_id(key)
            };
            // A play outside the index (none of a dealt hand's) has no id.
            if let Some(id) = id {
                order.push((u64::from(id) << 32) | moves.len() as u64);
                moves.push(mv);
            }
        });
        // Listed by type, length and main rank, which the index orders by too, so
        // this is nearly sorted already; each id keeps its first reading.
        order.sort_unstable();
        order.dedup_by_key(|k| *k >> 32);
        self.by_id.fresh = true;
    }

    /// Play the legal move of action-index id `id` for the seat to act: the first
    /// reading of its ranks that [`CardPlay::legal`] lists, as the game API
    /// picks. An id that is not legal now is an error and changes nothing.
    pub fn apply_id(&mut self, id: u32) -> Result<()> {
        self.list_by_id();
        let order = &self.by_id.order;
        let Ok(at) = order.binary_search_by_key(&id, |&k| (k >> 32) as u32) else {
            return Err(EngineError::IllegalAction(format!(
                "id {id} is not legal now"
            )));
        };
        let mv = self.by_id.moves[order[at] as u32 as usize];
        self.play(mv);
        Ok(())
    }

    /// Play `mv` for the seat to act; an illegal move is an error and changes nothing.
    pub fn apply(&mut self, mv: Move) -> Result<()> {
        if !self.legal().contains(&mv) {
            let what = mv.map_or("pass".to_string(), |c| format!("play {}", c.cards));
            return Err(EngineError::IllegalAction(format!(
                "{what} is not a legal move now"
            )));
        }
        self.play(mv);
        Ok(())
    }

    /// Play `mv`, a legal move of the seat to act.
    fn play(&mut self, mv: Move) {
        let seat = self.deal.to_move;
        let before = (self.deal.bonus, self.deal.table);
        if let Some(c) = mv {
            self.take_cards(seat as usize, &c.cards);
            if c.kind == Kind::Rocket {
                self.rockets += 1;
            }
        }
        self.deal.apply(mv);
        if self.deal.bonus != before.0 {
            // The bomb settled is the table a pass ended, or the finishing play.
            let settled = mv.or(before.1);
            let owner = (0..3u8).find(|&s| self.deal.bonus[s as usize] > before.0[s as usize]);
            if let (Some(owner), Some(bomb)) = (owner, settled) {
                self.bonus_log.push((owner, bomb));
            }
        }
        self.log.push((seat, mv));
        self.legal = None;
        self.by_id.fresh = false;
    }

    /// Move the cards of `ranks` from `seat`'s hand to its played pile: the lowest
    /// suit of each rank first, except that Zheng Shangyou's opening play takes the
    /// heart three first.
    fn take_cards(&mut self, seat: usize, ranks: &Ranks) {
        let hand = &mut self.hands[seat];
        let pile = &mut self.played[seat];
        let mut need = *ranks;
        if self.deal.opening && need.count(THREE) > 0 && hand.contains(HEART_THREE) {
            hand.remove(HEART_THREE);
            pile.push(HEART_THREE);
            self.played_ranks[seat].0[usize::from(THREE)] += 1;
            need.0[THREE as usize] -= 1;
        }
        for rank in 0..NUM_RANKS as u8 {
            for _ in 0..need.count(rank) {
                let bits = hand.0 & rank_bits(rank);
                if bits == 0 {
                    break;
                }
                let card = Card::from_index_unchecked(bits.trailing_zeros() as u8);
                hand.remove(card);
                pile.push(card);
                self.played_ranks[seat].0[usize::from(rank)] += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::climbing::{doudizhu as ddz, zhengshangyou as zsy};

    fn set(text: &str) -> CardSet {
        CardSet::from_cards(parse_cards(text).unwrap())
    }

    fn texts(cards: &[Card]) -> Vec<String> {
        cards.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn rank_bits_cover_each_climbing_rank() {
        for rank in 0..NUM_RANKS as u8 {
            let cards: Vec<Card> = CardSet(rank_bits(rank)).iter().collect();
            assert!(!cards.is_empty());
            assert!(cards
                .iter()
                .all(|&c| super::super::climbing_rank(c) == rank));
        }
    }

    #[test]
    fn plays_take_the_lowest_suits_and_the_heart_three_first() {
        // ZSY-08: the opening play holds the heart three.
        let hands = [set("3c 3h 3s 4d"), set("5c 6c"), set("7c 8c")];
        let mut play = CardPlay::new(Game::ZhengShangyou, hands, 0, [0; 3]).unwrap();
        let pair = zsy::classify(&Ranks::parse("33").unwrap(), true)[0];
        play.apply(Some(pair)).unwrap();
        assert_eq!(texts(play.played(0)), ["3h", "3c"]);
        assert_eq!(texts(&play.hand(0)), ["3s", "4d"]);
        assert_eq!(play.log(), &[(0, Some(pair))]);
    }

    #[test]
    fn illegal_moves_change_nothing() {
        // DDZ-12: the leader cannot pass.
        let hands = [set("3c 4c"), set("5c"), set("6c BJ RJ")];
        let game = Game::DouDizhu {
            landlord: 0,
            bid: 1,
        };
        let mut play = CardPlay::new(game, hands, 0, [0; 3]).unwrap();
        assert!(play.apply(None).is_err());
        // A pair the leader does not hold.
        let pair = ddz::classify(&Ranks::parse("55").unwrap())[0];
        assert!(play.apply(Some(pair)).is_err());
        let rocket = ddz::classify(&Ranks::parse("BR").unwrap())[0];
        assert!(play.apply(Some(rocket)).is_err());
        assert_eq!(play.hand(0).len(), 2);
        assert!(play.log().is_empty());
        let three = ddz::classify(&Ranks::parse("3").unwrap())[0];
        play.apply(Some(three)).unwrap();
        play.apply(None).unwrap();
        play.apply(Some(rocket)).unwrap();
        assert_eq!((play.rockets(), play.deal().bombs), (1, 1));
        assert!(CardPlay::new(game, [set("3c"), set("3c"), set("")], 0, [0; 3]).is_err());
    }

    /// Whole deals of both games, dealt from `seed`, played by random ids: at every
    /// position `legal_ids` is the index ids of `legal()`, ascending and each once,
    /// and `apply_id` plays what `apply` plays for the first listed move of the id.
    #[test]
    fn ids_list_and_play_as_the_legal_moves_do() {
        use crate::deck::deck;
        use crate::rng::{shuffle_seeded, CardRng};
        for seed in 0..40u64 {
            let ddz_game = seed % 2 == 0;
            let (name, per, game) = if ddz_game {
                let game = Game::DouDizhu {
                    landlord: (seed % 3) as u8,
                    bid: 2,
                };
                ("french54", 18, game)
            } else {
                ("zhengshangyou48", 16, Game::ZhengShangyou)
            };
            let mut order = deck(name).unwrap();
            shuffle_seeded(&mut order, seed);
            let hands = [0, 1, 2]
                .map(|s| CardSet::from_cards(order[per * s..per * (s + 1)].iter().copied()));
            let leader = (0..3u8).find(|&s| hands[usize::from(s)].contains(HEART_THREE));
            let leader = if ddz_game { 0 } else { leader.unwrap_or(0) };
            let mut by_id = CardPlay::new(game, hands, leader, [0; 3]).unwrap();
            let mut by_move = by_id.clone();
            let index = index_of(game);
            let mut rng = CardRng::new(seed);
            while !by_move.deal().is_over() {
                let legal = by_move.legal().to_vec();
                let mut want: Vec<u32> = legal.iter().filter_map(|m| index.move_id(m)).collect();
                want.sort_unstable();
                want.dedup();
                let ids: Vec<u32> = by_id.legal_ids().collect();
                assert_eq!(ids, want, "seed {seed}");
                let id = ids[rng.below(ids.len() as u64) as usize];
                let first = legal.iter().find(|m| index.move_id(m) == Some(id)).copied();
                by_move.apply(first.unwrap()).unwrap();
                by_id.apply_id(id).unwrap();
                assert_eq!(
                    format!("{:?}", by_id.deal()),
                    format!("{:?}", by_move.deal())
                );
                assert_eq!(by_id.log(), by_move.log());
                for s in 0..3 {
                    assert_eq!(by_id.played(s), by_move.played(s));
                    let ranks = Ranks::from_cards(by_id.played(s).iter().copied());
                    assert_eq!(by_id.played_ranks()[s], ranks);
                }
            }
            assert_eq!(by_id.legal_ids().len(), 0);
            // An id that is not legal changes nothing.
            assert!(by_id.apply_id(0).is_err());
        }
    }

    #[test]
    fn settled_bombs_are_logged() {
        // ZSY-28: an unbeaten response bomb earns its bonus when the round ends.
        let hands = [set("3h 9c"), set("4c 4d 4h 4s 5c"), set("6c 7c")];
        let mut play = CardPlay::new(Game::ZhengShangyou, hands, 0, [0; 3]).unwrap();
        play.apply(Some(zsy::classify(&Ranks::parse("3").unwrap(), true)[0]))
            .unwrap();
        let bomb = zsy::classify(&Ranks::parse("4444").unwrap(), false)[0];
        play.apply(Some(bomb)).unwrap();
        play.apply(None).unwrap();
        play.apply(None).unwrap();
        assert_eq!(play.bonus_log(), &[(1, bomb)]);
        assert_eq!(play.deal().bonus, [-10, 20, -10]);
    }
}
