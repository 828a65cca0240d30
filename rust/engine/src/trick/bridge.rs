//! Contract Bridge: the auction (calls, their legality, the final contract and its
//! declarer), the card play with dummy (a [`TrickPlay`] deal: follow suit, the
//! highest trump or else the highest card of the led suit wins), and the duplicate
//! score of a deal, the only home of Bridge scoring (the Python game reads its
//! breakdown from [`duplicate_score`]).
//!
//! Conventions shared with the double-dummy solver: seats N=0, E=1, S=2, W=3;
//! strains C=0, D=1, H=2, S=3, NT=4 (a suit strain is the trump suit's index);
//! cards by index `rank * 4 + suit`.

use super::{
    highest, legal_follows, lowest, suit_cards, suit_of, trick_winner, TrickPlay, TrickTable,
    WonTrick,
};
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::rng::CardRng;

/// The strain index of no trump.
pub const NO_TRUMP: u8 = 4;
/// Strains: four suits and no trump.
pub const STRAINS: usize = 5;
/// Bids `1C` .. `7NT`: bid `b` is level `b / 5 + 1` in strain `b % 5`.
pub const BIDS: usize = 35;
/// Call id of pass.
pub const PASS: u8 = 0;
/// Call id of double.
pub const DOUBLE: u8 = 36;
/// Call id of redouble.
pub const REDOUBLE: u8 = 37;
/// Calls: pass, the 35 bids (ids `1 + b`), double and redouble.
pub const CALLS: usize = 38;
/// South, the fixed dealer of the seed, who calls first.
pub const SOUTH: usize = 2;
/// West, who is dealt the first card.
pub const WEST: usize = 3;
/// [`TrickTable::play`] breaks a suit equal to this: no suit is, Bridge has no
/// leading restriction.
const NO_RESTRICTION: u8 = 4;

/// The call id of a bid at `level` (1..=7) in `strain` (0..=4).
pub const fn bid_call(level: u8, strain: u8) -> u8 {
    1 + (level - 1) * 5 + strain
}

/// The seats' hands dealt from a 52-card order one card at a time clockwise from
/// West: card `i` of `order` goes to seat `(WEST + i) % 4`.
pub fn deal_from_west(order: &[u8]) -> [CardSet; 4] {
    let mut hands = [CardSet::EMPTY; 4];
    for (i, &c) in order.iter().enumerate() {
        hands[(WEST + i) % 4].0 |= 1u64 << c;
    }
    hands
}

/// A shuffled pack dealt from West (the shuffle of [`super::deal_hands`], which
/// is the Python `shuffled_deck` order).
pub fn random_hands(rng: &mut CardRng) -> [CardSet; 4] {
    let mut deck: Vec<u8> = (0..52).collect();
    rng.shuffle(&mut deck);
    deal_from_west(&deck)
}

/// The final contract of an auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contract {
    /// 1..=7: the tricks above six declarer must take.
    pub level: u8,
    /// 0..=3 a trump suit, 4 no trump.
    pub strain: u8,
    /// 0 undoubled, 1 doubled, 2 redoubled.
    pub doubling: u8,
    /// The seat that plays both its hand and dummy's.
    pub declarer: usize,
}

impl Contract {
    /// The trump suit, `None` at no trump.
    pub fn trump(&self) -> Option<u8> {
        (self.strain < NO_TRUMP).then_some(self.strain)
    }

    /// Declarer's partner.
    pub fn dummy(&self) -> usize {
        (self.declarer + 2) % 4
    }
}

/// An auction in progress, call by call from the dealer.
#[derive(Clone, Debug)]
pub struct Auction {
    dealer: usize,
    calls: Vec<u8>,
    /// The highest bid so far (0..35) and its bidder.
    bid: Option<(u8, usize)>,
    /// 0 none, 1 doubled, 2 redoubled: the state of the highest bid.
    doubling: u8,
    /// Consecutive passes since the last bid, double or redouble (or the start).
    passes: u8,
    /// Per side (N-S 0, E-W 1) and strain, the first seat of the side to name it.
    first: [[Option<usize>; STRAINS]; 2],
}

impl Auction {
    /// An auction before the first call; `dealer` calls first.
    pub fn new(dealer: usize) -> Auction {
        Auction {
            dealer,
            calls: Vec::with_capacity(32),
            bid: None,
            doubling: 0,
            passes: 0,
            first: [[None; STRAINS]; 2],
        }
    }

    /// An auction replayed from `calls`, or `None` when one is not legal in turn.
    pub fn replay(dealer: usize, calls: &[u8]) -> Option<Auction> {
        let mut auction = Auction::new(dealer);
        for &call in calls {
            if !auction.call(call) {
                return None;
            }
        }
        Some(auction)
    }

    /// The dealer.
    pub fn dealer(&self) -> usize {
        self.dealer
    }

    /// The calls so far, in order from the dealer.
    pub fn calls(&self) -> &[u8] {
        &self.calls
    }

    /// The seat to call.
    pub fn to_act(&self) -> usize {
        (self.dealer + self.calls.len()) % 4
    }

    /// Four passes with no bid, or three after a bid, double or redouble.
    pub fn is_over(&self) -> bool {
        self.passes >= 4 || (self.bid.is_some() && self.passes >= 3)
    }

    /// Bitset of the legal call ids (bit `i` = call `i`); zero once over.
    pub fn legal(&self) -> u64 {
        if self.is_over() {
            return 0;
        }
        let mut bits = 1u64 << PASS;
        let above = self.bid.map_or(0, |(b, _)| b + 1);
        // Bids `above..35` are call ids `1 + above ..= 35`.
        let bids = ((1u64 << BIDS) - 1) & !((1u64 << above) - 1);
        bits |= bids << 1;
        if let Some((_, bidder)) = self.bid {
            let own_side = bidder % 2 == self.to_act() % 2;
            if self.doubling == 0 && !own_side {
                bits |= 1 << DOUBLE;
            }
            if self.doubling == 1 && own_side {
                bits |= 1 << REDOUBLE;
            }
        }
        bits
    }

    /// Make `call` for the seat to act if it is legal; whether it was.
    pub fn call(&mut self, call: u8) -> bool {
        if call as usize >= CALLS || self.legal() >> call & 1 == 0 {
            return false;
        }
        let seat = self.to_act();
        match call {
            PASS => self.passes += 1,
            DOUBLE | REDOUBLE => {
                self.doubling = if call == DOUBLE { 1 } else { 2 };
                self.passes = 0;
            }
            _ => {
                let bid = call - 1;
                self.bid = Some((bid, seat));
                self.doubling = 0;
                self.passes = 0;
                let strain = usize::from(bid % 5);
                self.first[seat % 2][strain].get_or_insert(seat);
            }
        }
        self.calls.push(call);
        true
    }

    /// The contract once the auction is over; `None` before, or when passed out.
    pub fn contract(&self) -> Option<Contract> {
        if !self.is_over() {
            return None;
        }
        let (bid, bidder) = self.bid?;
        let strain = bid % 5;
        Some(Contract {
            level: bid / 5 + 1,
            strain,
            doubling: self.doubling,
            declarer: self.first[bidder % 2][usize::from(strain)].unwrap_or(bidder),
        })
    }
}

/// A Bridge deal in play: the four hands from the opening lead on. The seat to
/// act is the hand being played (dummy's too; declarer chooses its cards).
#[derive(Clone, Debug)]
pub struct BridgeDeal {
    /// Hands and the trick in progress.
    pub table: TrickTable,
    /// The contract being played.
    pub contract: Contract,
    /// Tricks each seat has won.
    pub tricks: [u8; 4],
}

impl BridgeDeal {
    /// The play of `contract` with `hands`: declarer's left-hand opponent leads.
    pub fn new(hands: [CardSet; 4], contract: Contract) -> BridgeDeal {
        BridgeDeal {
            table: TrickTable::new(hands, (contract.declarer + 1) % 4),
            contract,
            tricks: [0; 4],
        }
    }

    /// Tricks won by declarer and dummy.
    pub fn declarer_tricks(&self) -> u8 {
        let d = self.contract.declarer;
        self.tricks[d] + self.tricks[(d + 2) % 4]
    }

    /// The seat that chooses the card of the hand to act: declarer for dummy.
    pub fn controller(&self) -> usize {
        let seat = self.to_act();
        if seat == self.contract.dummy() {
            self.contract.declarer
        } else {
            seat
        }
    }

    /// Whether dummy's hand is face up: from the opening lead on.
    pub fn dummy_public(&self) -> bool {
        self.table.tricks_played > 0 || !self.table.trick().is_empty()
    }
}

impl TrickPlay for BridgeDeal {
    #[inline]
    fn table(&self) -> &TrickTable {
        &self.table
    }

    #[inline]
    fn table_mut(&mut self) -> &mut TrickTable {
        &mut self.table
    }

    #[inline]
    fn legal(&self) -> CardSet {
        let t = &self.table;
        let led = t.trick().first().map(|&c| suit_of(c));
        legal_follows(t.hands[t.to_act()], led)
    }

    #[inline]
    fn play(&mut self, card: Card) -> Option<WonTrick> {
        let won = self
            .table
            .play(card, NO_RESTRICTION, self.contract.trump())?;
        self.tricks[won.winner] += 1;
        Some(won)
    }

    fn heuristic(&self) -> Card {
        let seat = self.to_act();
        let legal = self.legal();
        let trump = self.contract.trump();
        let trick = self.table.trick();
        if trick.is_empty() {
            // Lead the top of the longest side suit when it is an ace, else low.
            let mut best = legal;
            let mut most = 0;
            for s in 0..4u8 {
                let cards = suit_cards(legal, s);
                if Some(s) != trump && cards.len() > most {
                    most = cards.len();
                    best = cards;
                }
            }
            let top = highest(best);
            return if top.rank() == 12 { top } else { lowest(best) };
        }
        let i = trick_winner(trick, trump);
        let winning = trick[i];
        if (self.table.leader + i) % 4 == (seat + 2) % 4 {
            return lowest(legal);
        }
        // Cards that would take the lead: higher in the winning card's suit, or
        // any trump over a card of another suit (legal only holds trumps then when
        // the hand is void in the led suit).
        let same = suit_cards(legal, suit_of(winning));
        let mut winners = CardSet(same.0 & !((2u64 << winning.index()) - 1));
        if let Some(t) = trump {
            if suit_of(winning) != t {
                winners = winners.union(suit_cards(legal, t));
            }
        }
        if winners.is_empty() {
            return lowest(legal);
        }
        let pool = CardSet(winners.0 & same.0);
        lowest(if pool.is_empty() { winners } else { pool })
    }
}

/// The parts of a deal's duplicate score, for declarer's side (the defenders
/// score the opposite). Made contracts fill the first six, defeated ones only
/// `undertricks`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Trick points of the bid tricks, doubling included.
    pub contract_points: i32,
    /// Points of the tricks above the contract.
    pub overtricks: i32,
    /// 300 (500 vulnerable) when the contract points reach 100.
    pub game_bonus: i32,
    /// 50 for a made contract below game.
    pub partscore_bonus: i32,
    /// 500/750 for a bid small slam, 1000/1500 for a bid grand slam.
    pub slam_bonus: i32,
    /// 50 for making a doubled contract, 100 redoubled.
    pub insult: i32,
    /// The penalty (negative) of a defeated contract.
    pub undertricks: i32,
    /// The sum of the parts.
    pub total: i32,
}

/// The duplicate score of `contract` making `tricks` (0..=13) for declarer's side,
/// `vulnerable` or not.
pub fn duplicate_score(contract: &Contract, vulnerable: bool, tricks: u8) -> Score {
    let level = i32::from(contract.level);
    let factor = 1 << contract.doubling; // 1, 2 or 4
    let mut s = Score::default();
    let result = i32::from(tricks) - 6 - level;
    if result < 0 {
        let down = -result;
        s.undertricks = -if contract.doubling == 0 {
            down * if vulnerable { 100 } else { 50 }
        } else {
            // Doubled: 100, 200, 200, then 300 each non-vulnerable; 200 then 300
            // each vulnerable. Redoubled twice that.
            let doubled = if vulnerable {
                200 + 300 * (down - 1)
            } else {
                100 + 200 * (down - 1).min(2) + 300 * (down - 3).max(0)
            };
            doubled * factor / 2
        };
        s.total = s.undertricks;
        return s;
    }
    let per_trick = if contract.strain < 2 { 20 } else { 30 };
    let first_extra = if contract.strain == NO_TRUMP { 10 } else { 0 };
    s.contract_points = (per_trick * level + first_extra) * factor;
    s.overtricks = result
        * match contract.doubling {
            0 => per_trick,
            d => (if vulnerable { 200 } else { 100 }) * (1 << (d - 1)),
        };
    if s.contract_points >= 100 {
        s.game_bonus = if vulnerable { 500 } else { 300 };
    } else {
        s.partscore_bonus = 50;
    }
    s.slam_bonus = match (contract.level, vulnerable) {
        (6, false) => 500,
        (6, true) => 750,
        (7, false) => 1000,
        (7, true) => 1500,
        _ => 0,
    };
    s.insult = 50 * i32::from(contract.doubling);
    s.total = s.contract_points
        + s.overtricks
        + s.game_bonus
        + s.partscore_bonus
        + s.slam_bonus
        + s.insult;
    s
}

/// North-South's score of a finished deal (zero when passed out): `vulnerable`
/// per side (N-S, E-W).
pub fn north_south_score(contract: Option<&Contract>, vulnerable: [bool; 2], tricks: u8) -> i32 {
    let Some(c) = contract else {
        return 0;
    };
    let side = c.declarer % 2;
    let total = duplicate_score(c, vulnerable[side], tricks).total;
    if side == 0 {
        total
    } else {
        -total
    }
}

/// A whole random deal: random legal calls until the auction ends, then random
/// legal cards; North-South's score. The unit of the Rust playout bench.
pub fn random_deal(vulnerable: [bool; 2], rng: &mut CardRng) -> i32 {
    let hands = random_hands(rng);
    let mut auction = Auction::new(SOUTH);
    while !auction.is_over() {
        // The call bitset read as a card set: a uniform pick of one of its bits,
        // whose "card index" is the call id.
        let legal = CardSet(auction.legal());
        auction.call(super::random_card(legal, rng).index());
    }
    let Some(contract) = auction.contract() else {
        return 0;
    };
    let mut deal = BridgeDeal::new(hands, contract);
    super::playout(&mut deal, super::PlayoutPolicy::Random, rng);
    north_south_score(Some(&contract), vulnerable, deal.declarer_tricks())
}

#[cfg(test)]
mod tests {
    use super::super::{playout, PlayoutPolicy, SteppedDeal};
    use super::*;

    fn set(text: &str) -> CardSet {
        CardSet::from_cards(crate::cards::parse_cards(text).unwrap())
    }

    fn contract(level: u8, strain: u8, doubling: u8) -> Contract {
        Contract {
            level,
            strain,
            doubling,
            declarer: 0,
        }
    }

    fn total(level: u8, strain: u8, doubling: u8, vul: bool, tricks: u8) -> i32 {
        duplicate_score(&contract(level, strain, doubling), vul, tricks).total
    }

    #[test]
    fn hand_checked_scores() {
        // BR-45..BR-63: the rows.
        assert_eq!(total(4, 3, 0, false, 10), 420);
        assert_eq!(total(3, 4, 0, true, 10), 630);
        assert_eq!(total(1, 4, 1, false, 7), 180);
        assert_eq!(total(2, 0, 1, false, 9), 280);
        assert_eq!(total(2, 0, 1, true, 9), 380);
        assert_eq!(total(6, 3, 0, true, 12), 1430);
        assert_eq!(total(6, 4, 0, false, 12), 990);
        assert_eq!(total(7, 3, 2, false, 13), 2240);
        for (down, nv, v) in [
            (1, -100, -200),
            (2, -300, -500),
            (3, -500, -800),
            (4, -800, -1100),
        ] {
            assert_eq!(total(4, 2, 1, false, 10 - down), nv);
            assert_eq!(total(4, 2, 1, true, 10 - down), v);
            assert_eq!(total(4, 2, 2, true, 10 - down), 2 * v);
        }
    }

    #[test]
    fn auction_rules() {
        let mut a = Auction::new(SOUTH);
        // No double before a bid, no redouble without a double.
        assert!(!a.call(DOUBLE) && !a.call(REDOUBLE));
        assert!(a.call(bid_call(1, 2))); // S 1H
        assert!(!a.call(bid_call(1, 0))); // W 1C is insufficient
        assert!(!a.call(REDOUBLE));
        assert!(a.call(DOUBLE)); // W doubles
        assert!(!a.call(DOUBLE)); // N cannot double its own side
        assert!(a.call(REDOUBLE)); // N redoubles
        assert!(a.call(PASS) && a.call(PASS));
        assert!(!a.is_over());
        assert!(a.call(bid_call(2, 2))); // W 2H: a new bid cancels the redouble
        assert!(a.call(bid_call(3, 2))); // N 3H
        for _ in 0..3 {
            assert!(a.call(PASS));
        }
        assert!(a.is_over());
        // N-S named hearts first with South: South declares, not North.
        assert_eq!(
            a.contract(),
            Some(Contract {
                level: 3,
                strain: 2,
                doubling: 0,
                declarer: 2
            })
        );
        let mut out = Auction::new(SOUTH);
        for _ in 0..3 {
            out.call(PASS);
        }
        assert!(!out.is_over());
        out.call(PASS);
        assert!(out.is_over() && out.contract().is_none());
        assert_eq!(out.legal(), 0);
    }

    #[test]
    fn dummy_is_played_and_trumps_win() {
        // 1S by North (dummy South): East leads.
        let c = Contract {
            level: 1,
            strain: 3,
            doubling: 0,
            declarer: 0,
        };
        let hands = ["3s 2s", "Kh 3c", "2h 4c", "Qh 5c"].map(set);
        let mut stepped = SteppedDeal::new(BridgeDeal::new(hands, c));
        assert_eq!(stepped.deal().to_act(), 1);
        assert!(!stepped.deal().dummy_public());
        stepped.try_play(Card::parse("Kh").unwrap());
        assert!(stepped.deal().dummy_public());
        // South (dummy) follows; declarer North chooses.
        assert_eq!(stepped.deal().to_act(), 2);
        assert_eq!(stepped.deal().controller(), 0);
        assert_eq!(stepped.deal().legal(), set("2h"));
        for c in ["2h", "Qh", "2s"] {
            assert_eq!(stepped.try_play(Card::parse(c).unwrap()), Some(false));
        }
        assert_eq!(stepped.deal().tricks, [1, 0, 0, 0]);
        assert_eq!(stepped.deal().declarer_tricks(), 1);
    }

    #[test]
    fn random_deals_play_out() {
        let mut rng = CardRng::new(9);
        for _ in 0..300 {
            let hands = random_hands(&mut rng);
            assert!(hands.iter().all(|h| h.len() == 13));
            let c = contract(3, (rng.below(5)) as u8, 0);
            for policy in [PlayoutPolicy::Random, PlayoutPolicy::Heuristic(0.0)] {
                let mut deal = BridgeDeal::new(hands, c);
                playout(&mut deal, policy, &mut rng);
                assert_eq!(deal.tricks.iter().map(|&t| u32::from(t)).sum::<u32>(), 13);
            }
            let score = random_deal([false, true], &mut rng);
            assert!(score.abs() <= 7600);
        }
    }
}
