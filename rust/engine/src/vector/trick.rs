//! Hearts, Spades and Bridge single deals for [`super::VectorEnv`]: Hearts'
//! passing, Spades' bidding and the Bridge auction (whose rules otherwise live in
//! the Python states;
//! tests/test_vector_env.py plays both side by side), then the engine's stepped
//! trick play, observation writers and scoring.
//!
//! Action ids are the Python games': 0..51 play a card (its index), 52.. the
//! action before play (Hearts: pass card `id - 52`; Spades: bid `id - 52`;
//! Bridge: call `id - 52`, pass, 1C..7NT, X, XX).

use super::Episodes;
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::error::Result;
use crate::rng::{derive_seed, CardRng};
use crate::trick::bridge::{north_south_score, random_hands, Auction, BridgeDeal, CALLS, SOUTH};
use crate::trick::hearts::{deal_points, HeartsDeal, TWO_OF_CLUBS};
use crate::trick::observe::{
    bridge_tensor, hearts_tensor, spades_tensor, BridgeInfo, HeartsInfo, Position, SpadesInfo,
    BRIDGE_LEN, HEARTS_LEN, SPADES_LEN,
};
use crate::trick::spades::SpadesDeal;
use crate::trick::{deal_hands, SteppedDeal, TrickPlay};

/// Ids below this play a card; from it on, the game's actions before play.
const SETUP_BASE: usize = 52;
/// Spades bids 0..13.
const BIDS: usize = 14;
/// Seat offset of each Hearts pass direction (left, right, across, hold).
const PASS_OFFSETS: [usize; 4] = [1, 3, 2, 0];

/// The four hands of deal 0 of a Python state seeded `seed`: the standard pack
/// shuffled by `derive_seed(seed, 0)`, 13 cards per seat in turn.
fn first_hands(seed: u64) -> [CardSet; 4] {
    deal_hands(&mut CardRng::new(derive_seed(seed, 0)))
}

/// Push `offset + i` for each card index `i` of `cards`.
fn push_ids(out: &mut Vec<u32>, offset: usize, cards: CardSet) {
    out.extend(
        cards
            .iter()
            .map(|c| (offset + usize::from(c.index())) as u32),
    );
}

/// The card of a play id (below [`SETUP_BASE`]).
fn card_of(id: usize) -> Card {
    Card::from_index_unchecked(id as u8)
}

/// Whether play id `id` is a legal card of `deal`.
fn legal_play<G: TrickPlay>(deal: &SteppedDeal<G>, id: usize) -> bool {
    id < SETUP_BASE && deal.deal().legal().contains(card_of(id))
}

/// Hearts single deals (`match=False`).
#[derive(Clone, Copy, Debug)]
pub struct HeartsEpisodes {
    /// Pass direction of the deal: 0 left (the first deal with passing), 3 hold.
    pub direction: usize,
    /// The match target, which scales the score entries of observations.
    pub target: u32,
}

impl HeartsEpisodes {
    /// Single deals with or without the pass (`passing`), observations scaled
    /// by `target`.
    pub fn new(passing: bool, target: u32) -> HeartsEpisodes {
        HeartsEpisodes {
            direction: if passing { 0 } else { 3 },
            target,
        }
    }
}

/// A Hearts deal in progress: the pass (seats 0..3 in turn, one card at a
/// time), then the tricks.
pub struct HeartsEpisode {
    /// Hands while passing, without the cards chosen to pass.
    hands: [CardSet; 4],
    /// The seat choosing its pass.
    passer: usize,
    /// Each seat's chosen (then passed) cards.
    passed: [CardSet; 4],
    /// The cards each seat was passed.
    received: [CardSet; 4],
    play: Option<SteppedDeal<HeartsDeal>>,
    /// The deal's points once it is over.
    points: Option<[i64; 4]>,
}

impl HeartsEpisodes {
    /// The cards change hands and the holder of 2♣ leads.
    fn exchange(&self, e: &mut HeartsEpisode) {
        let offset = PASS_OFFSETS[self.direction];
        for seat in 0..4 {
            let receiver = (seat + offset) % 4;
            e.received[receiver] = e.passed[seat];
            e.hands[receiver] = e.hands[receiver].union(e.passed[seat]);
        }
        e.play = Some(SteppedDeal::new(HeartsDeal::new(e.hands)));
    }
}

impl Episodes for HeartsEpisodes {
    type Episode = HeartsEpisode;

    fn num_players(&self) -> usize {
        4
    }

    fn num_actions(&self) -> usize {
        SETUP_BASE + 52
    }

    fn observation_len(&self) -> usize {
        HEARTS_LEN
    }

    fn start(&self, seed: u64) -> Result<HeartsEpisode> {
        let mut e = HeartsEpisode {
            hands: first_hands(seed),
            passer: 0,
            passed: [CardSet::EMPTY; 4],
            received: [CardSet::EMPTY; 4],
            play: None,
            points: None,
        };
        if PASS_OFFSETS[self.direction] == 0 {
            self.exchange(&mut e);
        }
        Ok(e)
    }

    fn to_act(&self, e: &HeartsEpisode) -> Option<usize> {
        match (&e.play, e.points) {
            (_, Some(_)) => None,
            (None, None) => Some(e.passer),
            (Some(deal), None) => Some(deal.deal().to_act()),
        }
    }

    fn is_legal(&self, e: &HeartsEpisode, id: usize) -> bool {
        match &e.play {
            None => id >= SETUP_BASE && e.hands[e.passer].contains(card_of(id - SETUP_BASE)),
            Some(deal) => e.points.is_none() && legal_play(deal, id),
        }
    }

    fn apply(&self, e: &mut HeartsEpisode, id: usize) -> Result<()> {
        let Some(deal) = &mut e.play else {
            let card = card_of(id - SETUP_BASE);
            let seat = e.passer;
            e.hands[seat].remove(card);
            e.passed[seat].insert(card);
            if e.passed[seat].len() == 3 {
                if seat == 3 {
                    self.exchange(e);
                } else {
                    e.passer = seat + 1;
                }
            }
            return Ok(());
        };
        if deal.try_play(card_of(id)) == Some(true) {
            e.points = Some(deal_points(&deal.taken()).map(i64::from));
        }
        Ok(())
    }

    fn legal_ids(&self, e: &HeartsEpisode, out: &mut Vec<u32>) {
        match &e.play {
            None => push_ids(out, SETUP_BASE, e.hands[e.passer]),
            Some(deal) => push_ids(out, 0, deal.deal().legal()),
        }
    }

    fn observe(&self, e: &HeartsEpisode, seat: usize, out: &mut [f32]) -> Result<()> {
        let position = Position {
            seat,
            hand: e.hands[seat],
            deal: e.play.as_ref(),
            to_act: self.to_act(e),
        };
        let info = HeartsInfo {
            direction: self.direction,
            passed: e.passed[seat],
            received: e.received[seat],
            scores: e.points.unwrap_or([0; 4]),
            target: self.target,
        };
        hearts_tensor(&position, &info, out)
    }

    fn returns(&self, e: &HeartsEpisode, out: &mut [f32]) {
        let points = e.points.unwrap_or([0; 4]);
        let mean = points.iter().sum::<i64>() as f64 / 4.0;
        for (r, &p) in out.iter_mut().zip(&points) {
            *r = (mean - p as f64) as f32;
        }
    }
}

/// Spades single deals (`match=False`).
#[derive(Clone, Copy, Debug)]
pub struct SpadesEpisodes {
    /// The dealer; the seat on its left bids first.
    pub dealer: usize,
    /// Whether the holder of 2♣ leads it (else the dealer's left leads).
    pub two_of_clubs_leads: bool,
    /// The match target, which scales the score entries of observations.
    pub target: u32,
}

/// A Spades deal in progress: the bids from the dealer's left, then the tricks.
pub struct SpadesEpisode {
    /// Hands while bidding.
    hands: [CardSet; 4],
    bids: [Option<u8>; 4],
    bidder: usize,
    play: Option<SteppedDeal<SpadesDeal>>,
    /// The partnerships' points and bags once the deal is over.
    result: Option<([i64; 2], [u32; 2])>,
}

impl Episodes for SpadesEpisodes {
    type Episode = SpadesEpisode;

    fn num_players(&self) -> usize {
        4
    }

    fn num_actions(&self) -> usize {
        SETUP_BASE + BIDS
    }

    fn observation_len(&self) -> usize {
        SPADES_LEN
    }

    fn start(&self, seed: u64) -> Result<SpadesEpisode> {
        Ok(SpadesEpisode {
            hands: first_hands(seed),
            bids: [None; 4],
            bidder: (self.dealer + 1) % 4,
            play: None,
            result: None,
        })
    }

    fn to_act(&self, e: &SpadesEpisode) -> Option<usize> {
        match (&e.play, e.result) {
            (_, Some(_)) => None,
            (None, None) => Some(e.bidder),
            (Some(deal), None) => Some(deal.deal().to_act()),
        }
    }

    fn is_legal(&self, e: &SpadesEpisode, id: usize) -> bool {
        match &e.play {
            None => (SETUP_BASE..SETUP_BASE + BIDS).contains(&id),
            Some(deal) => e.result.is_none() && legal_play(deal, id),
        }
    }

    fn apply(&self, e: &mut SpadesEpisode, id: usize) -> Result<()> {
        let Some(deal) = &mut e.play else {
            e.bids[e.bidder] = Some((id - SETUP_BASE) as u8);
            e.bidder = (e.bidder + 1) % 4;
            if e.bids.iter().all(Option::is_some) {
                let bids = e.bids.map(|b| b.unwrap_or(0));
                let leader = if self.two_of_clubs_leads {
                    e.hands
                        .iter()
                        .position(|h| h.contains(TWO_OF_CLUBS))
                        .unwrap_or(0)
                } else {
                    (self.dealer + 1) % 4
                };
                let mut deal = SpadesDeal::new(e.hands, bids, leader);
                deal.two_of_clubs_leads = self.two_of_clubs_leads;
                e.play = Some(SteppedDeal::new(deal));
            }
            return Ok(());
        };
        if deal.try_play(card_of(id)) == Some(true) {
            let teams = deal.deal().scores([0, 0]);
            e.result = Some((teams.map(|t| i64::from(t.points)), teams.map(|t| t.bags)));
        }
        Ok(())
    }

    fn legal_ids(&self, e: &SpadesEpisode, out: &mut Vec<u32>) {
        match &e.play {
            None => out.extend((SETUP_BASE..SETUP_BASE + BIDS).map(|id| id as u32)),
            Some(deal) => push_ids(out, 0, deal.deal().legal()),
        }
    }

    fn observe(&self, e: &SpadesEpisode, seat: usize, out: &mut [f32]) -> Result<()> {
        let position = Position {
            seat,
            hand: e.hands[seat],
            deal: e.play.as_ref(),
            to_act: self.to_act(e),
        };
        let (scores, bags) = e.result.unwrap_or(([0; 2], [0; 2]));
        let info = SpadesInfo {
            dealer: self.dealer,
            bids: e.bids,
            scores,
            bags,
            target: self.target,
        };
        spades_tensor(&position, &info, out)
    }

    fn returns(&self, e: &SpadesEpisode, out: &mut [f32]) {
        let (scores, _) = e.result.unwrap_or(([0; 2], [0; 2]));
        let d = (scores[0] - scores[1]) as f32;
        for (seat, r) in out.iter_mut().enumerate() {
            *r = if seat % 2 == 0 { d } else { -d };
        }
    }
}

/// Bridge single deals: the auction from South, then the play; the returns are
/// each side's duplicate score.
#[derive(Clone, Copy, Debug)]
pub struct BridgeEpisodes {
    /// Vulnerability of North-South, then East-West.
    pub vulnerable: [bool; 2],
}

/// A Bridge deal in progress: the auction, then the tricks.
pub struct BridgeEpisode {
    /// Hands while calling.
    hands: [CardSet; 4],
    auction: Auction,
    play: Option<SteppedDeal<BridgeDeal>>,
    /// North-South's score once the deal is over.
    result: Option<i32>,
}

impl Episodes for BridgeEpisodes {
    type Episode = BridgeEpisode;

    fn num_players(&self) -> usize {
        4
    }

    fn num_actions(&self) -> usize {
        SETUP_BASE + CALLS
    }

    fn observation_len(&self) -> usize {
        BRIDGE_LEN
    }

    fn start(&self, seed: u64) -> Result<BridgeEpisode> {
        Ok(BridgeEpisode {
            hands: random_hands(&mut CardRng::new(derive_seed(seed, 0))),
            auction: Auction::new(SOUTH),
            play: None,
            result: None,
        })
    }

    fn to_act(&self, e: &BridgeEpisode) -> Option<usize> {
        match (&e.play, e.result) {
            (_, Some(_)) => None,
            (None, None) => Some(e.auction.to_act()),
            (Some(deal), None) => Some(deal.deal().controller()),
        }
    }

    fn is_legal(&self, e: &BridgeEpisode, id: usize) -> bool {
        match &e.play {
            None => id >= SETUP_BASE && e.auction.legal() >> (id - SETUP_BASE) & 1 == 1,
            Some(deal) => e.result.is_none() && legal_play(deal, id),
        }
    }

    fn apply(&self, e: &mut BridgeEpisode, id: usize) -> Result<()> {
        let Some(deal) = &mut e.play else {
            e.auction.call((id - SETUP_BASE) as u8);
            if e.auction.is_over() {
                match e.auction.contract() {
                    Some(c) => e.play = Some(SteppedDeal::new(BridgeDeal::new(e.hands, c))),
                    None => e.result = Some(0),
                }
            }
            return Ok(());
        };
        if deal.try_play(card_of(id)) == Some(true) {
            let d = deal.deal();
            e.result = Some(north_south_score(
                Some(&d.contract),
                self.vulnerable,
                d.declarer_tricks(),
            ));
        }
        Ok(())
    }

    fn legal_ids(&self, e: &BridgeEpisode, out: &mut Vec<u32>) {
        match &e.play {
            None => push_ids(out, SETUP_BASE, CardSet(e.auction.legal())),
            Some(deal) => push_ids(out, 0, deal.deal().legal()),
        }
    }

    fn observe(&self, e: &BridgeEpisode, seat: usize, out: &mut [f32]) -> Result<()> {
        let to_act = match (&e.play, e.result) {
            (_, Some(_)) => None,
            (None, None) => Some(e.auction.to_act()),
            (Some(deal), None) => Some(deal.deal().to_act()),
        };
        let position = Position {
            seat,
            hand: e.hands[seat],
            deal: e.play.as_ref(),
            to_act,
        };
        let info = BridgeInfo {
            auction: &e.auction,
            vulnerable: self.vulnerable,
        };
        bridge_tensor(&position, &info, out)
    }

    fn returns(&self, e: &BridgeEpisode, out: &mut [f32]) {
        let d = e.result.unwrap_or(0) as f32;
        for (seat, r) in out.iter_mut().enumerate() {
            *r = if seat % 2 == 0 { d } else { -d };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::{Outputs, VectorEnv, MAX_ENVS};

    /// Output buffers for `n` slots of `game`.
    struct Buffers(Vec<f32>, Vec<bool>, Vec<f32>, Vec<i64>, Vec<bool>);

    impl Buffers {
        fn new<G: Episodes>(game: &G, n: usize) -> Buffers {
            Buffers(
                vec![0.0; n * game.observation_len()],
                vec![false; n * game.num_actions()],
                vec![0.0; n * game.num_players()],
                vec![0; n],
                vec![false; n],
            )
        }

        fn out(&mut self) -> Outputs<'_> {
            Outputs {
                observations: &mut self.0,
                masks: &mut self.1,
                rewards: &mut self.2,
                players: &mut self.3,
                done: &mut self.4,
            }
        }
    }

    /// Play `n` slots with the lowest legal id for `steps` steps; the last
    /// observations and the sum of all rewards.
    fn roll_n<G: Episodes + Copy>(
        game: G,
        n: usize,
        threads: usize,
        steps: usize,
    ) -> (Vec<f32>, Vec<f32>) {
        let mut env = VectorEnv::new(game, n, 11, threads).unwrap();
        let mut b = Buffers::new(&game, n);
        env.reset(None, b.out()).unwrap();
        let mut total = vec![0.0; n * 4];
        for _ in 0..steps {
            let actions: Vec<i64> =
                b.1.chunks(game.num_actions())
                    .map(|m| m.iter().position(|&x| x).unwrap_or(0) as i64)
                    .collect();
            env.step(&actions, b.out()).unwrap();
            for (t, r) in total.iter_mut().zip(&b.2) {
                *t += r;
            }
        }
        (b.0, total)
    }

    /// [`roll_n`] on 5 slots.
    fn roll<G: Episodes + Copy>(game: G, threads: usize, steps: usize) -> (Vec<f32>, Vec<f32>) {
        roll_n(game, 5, threads, steps)
    }

    #[test]
    fn thread_count_does_not_change_results() {
        let hearts = HeartsEpisodes::new(true, 100);
        let one = roll(hearts, 1, 150);
        assert_eq!(one, roll(hearts, 3, 150));
        // 150 steps finish at least one 64-action deal per slot.
        assert!(one.1.iter().any(|&r| r != 0.0));
        let spades = SpadesEpisodes {
            dealer: 3,
            two_of_clubs_leads: false,
            target: 500,
        };
        assert_eq!(roll(spades, 1, 150), roll(spades, 2, 150));
        let bridge = BridgeEpisodes {
            vulnerable: [true, false],
        };
        let one = roll(bridge, 1, 150);
        assert_eq!(one, roll(bridge, 2, 150));
    }

    #[test]
    fn many_chunks_share_out_to_the_same_results() {
        // 300 slots make five chunks of 64, homes of one and two chunks on three
        // threads, so threads claim several chunks and take from each other.
        let hearts = HeartsEpisodes::new(false, 100);
        let one = roll_n(hearts, 300, 1, 70);
        assert_eq!(one, roll_n(hearts, 300, 3, 70));
        assert_eq!(one, roll_n(hearts, 300, 2, 70));
        assert!(one.1.iter().any(|&r| r != 0.0));
    }

    #[test]
    fn thread_busy_counts_every_slot_once_per_call() {
        let game = HeartsEpisodes::new(false, 100);
        let mut env = VectorEnv::new(game, 300, 1, 2).unwrap();
        assert!(env.thread_busy().iter().all(|b| b.calls == 0));
        let mut b = Buffers::new(&game, 300);
        env.reset(None, b.out()).unwrap();
        for _ in 0..20 {
            let actions: Vec<i64> =
                b.1.chunks(game.num_actions())
                    .map(|m| m.iter().position(|&x| x).unwrap_or(0) as i64)
                    .collect();
            env.step(&actions, b.out()).unwrap();
        }
        let busy = env.thread_busy();
        assert_eq!(busy.len(), 2);
        // The caller works every call; a helper the system ran late may skip some.
        assert_eq!(busy[1].calls, 21);
        assert!(busy[0].calls <= 21);
        assert_eq!(busy.iter().map(|b| b.slots).sum::<u64>(), 21 * 300);
        assert!(busy[1].nanos > 0);
        #[cfg(unix)]
        assert!(busy[1].cpu_nanos > 0);
    }

    #[test]
    fn the_first_illegal_slot_is_named_and_nothing_moves() {
        let game = HeartsEpisodes::new(false, 100);
        let mut env = VectorEnv::new(game, 300, 1, 2).unwrap();
        let mut b = Buffers::new(&game, 300);
        env.reset(None, b.out()).unwrap();
        let before = b.0.clone();
        let mut actions: Vec<i64> =
            b.1.chunks(game.num_actions())
                .map(|m| m.iter().position(|&x| x).unwrap_or(0) as i64)
                .collect();
        // Illegal ids in two chunks, the later one in the helper's home.
        actions[250] = -3;
        actions[70] = 999;
        let err = env.step(&actions, b.out()).unwrap_err().to_string();
        assert!(err.contains("slot 70: action id 999"), "{err}");
        assert_eq!(b.0, before);
    }

    #[test]
    fn illegal_ids_and_bad_sizes_are_refused() {
        let game = HeartsEpisodes::new(true, 100);
        assert!(VectorEnv::new(game, 0, 1, 1).is_err());
        assert!(VectorEnv::new(game, 1, 1, 0).is_err());
        assert!(VectorEnv::new(game, MAX_ENVS, 1, 1).is_err());
        let mut env = VectorEnv::new(game, 1, 1, 1).unwrap();
        let mut b = Buffers::new(&game, 1);
        // Before the first reset nothing can step.
        assert!(env.step(&[52], b.out()).is_err());
        env.reset(None, b.out()).unwrap();
        let before = b.0.clone();
        // Passing: a play id is illegal.
        assert!(env.step(&[0], b.out()).is_err());
        assert!(env.step(&[-1], b.out()).is_err());
        assert!(env.step(&[0, 0], b.out()).is_err());
        assert_eq!(b.0, before);
        let first = b.1.iter().position(|&x| x).unwrap() as i64;
        env.step(&[first], b.out()).unwrap();
        assert_ne!(b.0, before);
    }
}
