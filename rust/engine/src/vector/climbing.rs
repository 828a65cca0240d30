//! The climbing games for [`super::VectorEnv`]. Dou Dizhu: the bidding (whose
//! rules otherwise live in the Python state, python/cardkit/games/doudizhu.py;
//! tests/test_vector_env.py plays both side by side), redeals after three passes,
//! then the engine's card play, card-play observation part and scoring. Zheng
//! Shangyou: one deal of the engine's card play, with the game's small tensor tail
//! (python/cardkit/games/zhengshangyou.py) written here.
//!
//! Action ids are each game's fixed index: Dou Dizhu's `pass` 0, `bid N` N, plays
//! from 4; Zheng Shangyou's `pass` 0, plays from 1.

use super::Episodes;
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::climbing::cardplay::{CardPlay, HEART_THREE};
use crate::climbing::doudizhu::action_index;
use crate::climbing::observe::{card_play_len, max_hand, write_card_play, write_plane, PLANE};
use crate::climbing::playout::Game;
use crate::climbing::zhengshangyou as zsy;
use crate::climbing::Ranks;
use crate::deck::deck;
use crate::error::{EngineError, Result};
use crate::rng::{derive_seed, shuffle_seeded};

/// Deals without a bid after which the game is abandoned (Python's `MAX_DEALS`).
const MAX_DEALS: u64 = 10_000;
/// Stream offset of deal `n`'s first-bidder draw, apart from the deal shuffles.
const BIDDER_STREAM: u64 = 1 << 32;
/// Entries per seat of the calls block: not spoken, pass, bid 1, bid 2, bid 3.
const CALLS: usize = 5;
/// The game's part after the card play and the turn: bidding flag, bid (4),
/// landlord (3), first bidder (3), calls (3 x 5), bottom cards.
const TAIL: usize = 1 + 4 + 3 + 3 + 3 * CALLS + PLANE;
/// Card play before a landlord exists: the seats' hands and the bidder's turn.
const BIDDING_GAME: Game = Game::DouDizhu {
    landlord: 0,
    bid: 1,
};

/// Dou Dizhu deals (the bidding, then the card play).
#[derive(Clone, Copy, Debug)]
pub struct DouDizhuEpisodes {
    /// `bidding="single_round"`: each seat speaks once; else the open bidding.
    pub single_round: bool,
}

/// One Dou Dizhu game in progress.
pub struct DouDizhuEpisode {
    seed: u64,
    deal_number: u64,
    first_bidder: u8,
    bidder: u8,
    bid: u8,
    landlord: Option<u8>,
    bid_passes: u8,
    bid_turns: u8,
    /// Each seat's last call this deal (index into the calls block).
    calls: [u8; 3],
    bottom: CardSet,
    /// The bottom cards' ranks (the tensor's last plane once they are shown).
    bottom_ranks: Ranks,
    play: CardPlay,
    playing: bool,
    abandoned: bool,
    /// The legal ids of the seat to act, listed once per move.
    ids: Vec<u32>,
}

/// Deal `number` of a game seeded `seed`: the shuffled pack's first 51 cards,
/// 17 a seat, the last three to the bottom, and the first bidder drawn from its
/// own stream; the card play is set up with the bidder to act.
fn deal(seed: u64, number: u64) -> Result<(CardPlay, CardSet, u8)> {
    let mut order = deck("french54")?;
    shuffle_seeded(&mut order, derive_seed(seed, number));
    let set = |cards: &[Card]| CardSet::from_cards(cards.iter().copied());
    let hands = [set(&order[0..17]), set(&order[17..34]), set(&order[34..51])];
    let first_bidder = (derive_seed(seed, BIDDER_STREAM + number) % 3) as u8;
    let play = CardPlay::new(BIDDING_GAME, hands, first_bidder, [0; 3])?;
    Ok((play, set(&order[51..54]), first_bidder))
}

impl DouDizhuEpisode {
    /// A game at the bidding of deal `number`.
    fn new(seed: u64, number: u64) -> Result<DouDizhuEpisode> {
        let (play, bottom, first_bidder) = deal(seed, number)?;
        let mut e = DouDizhuEpisode {
            seed,
            deal_number: number,
            first_bidder,
            bidder: first_bidder,
            bid: 0,
            landlord: None,
            bid_passes: 0,
            bid_turns: 0,
            calls: [0; 3],
            bottom,
            bottom_ranks: Ranks::from_cards(bottom.iter()),
            play,
            playing: false,
            abandoned: false,
            ids: Vec::new(),
        };
        e.list_ids();
        Ok(e)
    }

    /// List the legal ids of the position into `ids`: pass and the higher bids
    /// while bidding, else the card play's listing (which `CardPlay` keeps for the
    /// move that follows).
    fn list_ids(&mut self) {
        self.ids.clear();
        if self.abandoned {
            return;
        }
        if !self.playing {
            self.ids.push(0);
            self.ids.extend(u32::from(self.bid) + 1..=3);
            return;
        }
        list_play_ids(&mut self.play, &mut self.ids);
    }

    fn hands(&self) -> [CardSet; 3] {
        [0, 1, 2].map(|s| CardSet::from_cards(self.play.hand(s)))
    }

    /// A call of the bidding: `pass` (0) or `bid N` (N), then the phase machine.
    fn call(&mut self, single_round: bool, id: u8) -> Result<()> {
        let seat = self.bidder;
        self.calls[usize::from(seat)] = 1 + id;
        self.bid_turns += 1;
        if id == 0 {
            self.bid_passes += 1;
        } else {
            (self.bid, self.landlord, self.bid_passes) = (id, Some(seat), 0);
        }
        let (done, all_passed) = if single_round {
            (
                self.bid == 3 || (self.bid_turns >= 3 && self.landlord.is_some()),
                self.landlord.is_none() && self.bid_turns >= 3,
            )
        } else {
            (
                self.bid == 3 || (self.landlord.is_some() && self.bid_passes >= 2),
                self.landlord.is_none() && self.bid_passes >= 3,
            )
        };
        if let (true, Some(landlord)) = (done, self.landlord) {
            let mut hands = self.hands();
            hands[usize::from(landlord)] = hands[usize::from(landlord)].union(self.bottom);
            let game = Game::DouDizhu {
                landlord,
                bid: self.bid,
            };
            self.play = CardPlay::new(game, hands, landlord, [0; 3])?;
            self.playing = true;
        } else if all_passed && self.deal_number + 1 >= MAX_DEALS {
            self.abandoned = true;
        } else if all_passed {
            *self = DouDizhuEpisode::new(self.seed, self.deal_number + 1)?;
        } else {
            self.bidder = (seat + 1) % 3;
        }
        Ok(())
    }
}

/// Push the index ids of `play`'s legal moves onto `ids` (cleared by the caller),
/// ascending: the engine lists them by id (a rank multiset read two ways is one id).
fn list_play_ids(play: &mut CardPlay, ids: &mut Vec<u32>) {
    ids.extend(play.legal_ids());
}

/// Write the card-play part of `seat`'s tensor, then whose turn it is relative to
/// `seat` (3 floats), over whatever `out` held; returns the offset after them.
fn write_play_and_turn(
    play: &CardPlay,
    seat: usize,
    to_act: Option<usize>,
    out: &mut [f32],
) -> usize {
    let at = write_card_play(play.deal(), play.played_ranks(), seat as u8, out);
    out[at..at + 3].fill(0.0);
    if let Some(p) = to_act {
        out[at + (p + 3 - seat) % 3] = 1.0;
    }
    at + 3
}

impl Episodes for DouDizhuEpisodes {
    type Episode = DouDizhuEpisode;

    fn num_players(&self) -> usize {
        3
    }

    fn num_actions(&self) -> usize {
        action_index().len()
    }

    fn observation_len(&self) -> usize {
        card_play_len(max_hand(BIDDING_GAME)) + 3 + TAIL
    }

    fn start(&self, seed: u64) -> Result<DouDizhuEpisode> {
        DouDizhuEpisode::new(seed, 0)
    }

    fn to_act(&self, e: &DouDizhuEpisode) -> Option<usize> {
        if e.abandoned {
            return None;
        }
        if !e.playing {
            return Some(usize::from(e.bidder));
        }
        let deal = e.play.deal();
        (!deal.is_over()).then_some(usize::from(deal.to_move))
    }

    fn is_legal(&self, e: &DouDizhuEpisode, id: usize) -> bool {
        e.ids.iter().any(|&k| k as usize == id)
    }

    fn apply(&self, e: &mut DouDizhuEpisode, id: usize) -> Result<()> {
        if !e.playing {
            e.call(self.single_round, id as u8)?;
        } else {
            e.play.apply_id(id as u32)?;
        }
        e.list_ids();
        Ok(())
    }

    fn legal_ids(&self, e: &DouDizhuEpisode, out: &mut Vec<u32>) {
        out.extend_from_slice(&e.ids);
    }

    /// Every float of `out` is written (the vector env does not zero its rows):
    /// the card play's planes whole, the tail cleared and then set.
    fn observe(&self, e: &DouDizhuEpisode, seat: usize, out: &mut [f32]) -> Result<()> {
        let mut at = write_play_and_turn(&e.play, seat, self.to_act(e), out);
        out[at..].fill(0.0);
        let rel = |p: usize| (p + 3 - seat) % 3;
        out[at] = f32::from(u8::from(!e.playing && !e.abandoned));
        out[at + 1 + usize::from(e.bid)] = 1.0;
        at += 5;
        if let (true, Some(landlord)) = (e.playing, e.landlord) {
            out[at + rel(usize::from(landlord))] = 1.0;
        }
        out[at + 3 + rel(usize::from(e.first_bidder))] = 1.0;
        at += 6;
        for r in 0..3 {
            out[at + CALLS * r + usize::from(e.calls[(seat + r) % 3])] = 1.0;
        }
        at += 3 * CALLS;
        if e.playing {
            write_plane(&e.bottom_ranks, &mut out[at..at + PLANE]);
        }
        Ok(())
    }

    fn returns(&self, e: &DouDizhuEpisode, out: &mut [f32]) {
        let scores = if e.playing {
            e.play.deal().scores()
        } else {
            [0; 3]
        };
        for (r, s) in out.iter_mut().zip(scores) {
            *r = s as f32;
        }
    }
}

/// Zheng Shangyou deals (no rule options).
#[derive(Clone, Copy, Debug, Default)]
pub struct ZhengShangyouEpisodes;

/// One Zheng Shangyou deal in progress.
pub struct ZhengShangyouEpisode {
    play: CardPlay,
    /// The legal ids of the seat to act, listed once per move.
    ids: Vec<u32>,
}

impl ZhengShangyouEpisode {
    fn list_ids(&mut self) {
        self.ids.clear();
        list_play_ids(&mut self.play, &mut self.ids);
    }
}

/// The game's part after the card play and the turn: opening flag, pending-bomb
/// flag, each relative seat's settled bonus in units of 20.
const ZSY_TAIL: usize = 1 + 1 + 3;

impl Episodes for ZhengShangyouEpisodes {
    type Episode = ZhengShangyouEpisode;

    fn num_players(&self) -> usize {
        3
    }

    fn num_actions(&self) -> usize {
        zsy::action_index().len()
    }

    fn observation_len(&self) -> usize {
        card_play_len(max_hand(Game::ZhengShangyou)) + 3 + ZSY_TAIL
    }

    /// The shuffled 48-card pack, 16 a seat in turn; the heart-three holder leads.
    fn start(&self, seed: u64) -> Result<ZhengShangyouEpisode> {
        let mut order = deck("zhengshangyou48")?;
        shuffle_seeded(&mut order, derive_seed(seed, 0));
        let hands =
            [0, 1, 2].map(|s| CardSet::from_cards(order[16 * s..16 * (s + 1)].iter().copied()));
        let leader = (0..3u8)
            .find(|&s| order[16 * usize::from(s)..16 * usize::from(s + 1)].contains(&HEART_THREE))
            .ok_or_else(|| EngineError::InvalidCard("no hand holds the heart three".into()))?;
        let play = CardPlay::new(Game::ZhengShangyou, hands, leader, [0; 3])?;
        let mut e = ZhengShangyouEpisode {
            play,
            ids: Vec::new(),
        };
        e.list_ids();
        Ok(e)
    }

    fn to_act(&self, e: &ZhengShangyouEpisode) -> Option<usize> {
        let deal = e.play.deal();
        (!deal.is_over()).then_some(usize::from(deal.to_move))
    }

    fn is_legal(&self, e: &ZhengShangyouEpisode, id: usize) -> bool {
        e.ids.iter().any(|&k| k as usize == id)
    }

    fn apply(&self, e: &mut ZhengShangyouEpisode, id: usize) -> Result<()> {
        e.play.apply_id(id as u32)?;
        e.list_ids();
        Ok(())
    }

    fn legal_ids(&self, e: &ZhengShangyouEpisode, out: &mut Vec<u32>) {
        out.extend_from_slice(&e.ids);
    }

    /// Every float of `out` is written (the vector env does not zero its rows).
    fn observe(&self, e: &ZhengShangyouEpisode, seat: usize, out: &mut [f32]) -> Result<()> {
        let at = write_play_and_turn(&e.play, seat, self.to_act(e), out);
        let deal = e.play.deal();
        out[at] = f32::from(u8::from(deal.opening));
        out[at + 1] = f32::from(u8::from(deal.pending_bomb));
        for r in 0..3 {
            out[at + 2 + r] = deal.bonus[(seat + r) % 3] as f32 / 20.0;
        }
        Ok(())
    }

    fn returns(&self, e: &ZhengShangyouEpisode, out: &mut [f32]) {
        for (r, s) in out.iter_mut().zip(e.play.deal().scores()) {
            *r = s as f32;
        }
    }
}
