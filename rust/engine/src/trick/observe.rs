//! Observation tensors of Hearts, Spades and Bridge for learning code: what one seat may
//! know, as a flat `f32` vector with the seats rotated so that the observing seat
//! always comes first (seat `p` is written at relative position `(p - seat) mod 4`).
//!
//! All three games open with the same table block (the hand, the cards each seat has
//! played, the trick in progress, who leads and acts, the broken suit, the phase)
//! and append their own block at [`GAME`]. docs/hearts.md, docs/spades.md and
//! docs/bridge.md describe every slice; the constants here are the layout's single source.

use super::bridge::{Auction, BridgeDeal, BIDS, DOUBLE, PASS, REDOUBLE};
use super::hearts::{penalty, HeartsDeal};
use super::spades::SpadesDeal;
use super::{SteppedDeal, TrickPlay};
use crate::cardset::CardSet;
use crate::error::{EngineError, Result};

/// Cards in the pack: the length of one card plane (entry `i` is card index `i`).
pub const CARDS: usize = 52;
/// One plane: the observing seat's hand.
pub const HAND: usize = 0;
/// Four planes, by relative seat: the cards each seat has played this deal.
pub const PLAYED: usize = HAND + CARDS;
/// Four planes, by relative seat: each seat's card in the trick in progress.
pub const TRICK: usize = PLAYED + 4 * CARDS;
/// One-hot by relative seat: who leads the trick in progress (zero before play).
pub const LEADER: usize = TRICK + 4 * CARDS;
/// One-hot by relative seat: whose turn it is (zero once the game is over).
pub const TO_ACT: usize = LEADER + 4;
/// 1 once the suit that may not be led early (hearts, spades) is broken.
pub const BROKEN: usize = TO_ACT + 4;
/// One-hot: the phase before play (passing, bidding), then play (zero when over).
pub const PHASE: usize = BROKEN + 1;
/// Where each game's own block begins.
pub const GAME: usize = PHASE + 2;

/// Hearts: one-hot pass direction of the deal (left, right, across, hold).
pub const HEARTS_DIRECTION: usize = GAME;
/// Hearts: the cards the seat has chosen to pass (before and after the exchange).
pub const HEARTS_PASSED: usize = HEARTS_DIRECTION + 4;
/// Hearts: the cards passed to the seat (zero until the exchange).
pub const HEARTS_RECEIVED: usize = HEARTS_PASSED + CARDS;
/// Hearts: penalty points each seat has taken this deal, by relative seat, / 26.
pub const HEARTS_POINTS: usize = HEARTS_RECEIVED + CARDS;
/// Hearts: each seat's match total, by relative seat, / target.
pub const HEARTS_SCORES: usize = HEARTS_POINTS + 4;
/// Length of a Hearts observation tensor.
pub const HEARTS_LEN: usize = HEARTS_SCORES + 4;

/// Spades: one-hot by relative seat, the dealer of the deal.
pub const SPADES_DEALER: usize = GAME;
/// Spades: four one-hot rows of 14 (bid 0..13) by relative seat; a row is zero
/// until that seat has bid.
pub const SPADES_BIDS: usize = SPADES_DEALER + 4;
/// Spades: tricks each seat has won this deal, by relative seat, / 13.
pub const SPADES_WON: usize = SPADES_BIDS + 4 * 14;
/// Spades: the match scores of the seat's team, then the other team's, / target.
pub const SPADES_SCORES: usize = SPADES_WON + 4;
/// Spades: the bags each team carries (own team first), / 10.
pub const SPADES_BAGS: usize = SPADES_SCORES + 2;
/// Length of a Spades observation tensor.
pub const SPADES_LEN: usize = SPADES_BAGS + 2;

/// Bridge: vulnerability of the seat's side, then of the other side.
pub const BRIDGE_VULNERABLE: usize = GAME;
/// Bridge: per bid (1C .. 7NT, 35 rows of 12), one-hot by relative seat who made
/// it, who doubled it, who redoubled it (4 + 4 + 4).
pub const BRIDGE_AUCTION: usize = BRIDGE_VULNERABLE + 2;
/// Bridge: by relative seat, the seats that passed before the first bid.
pub const BRIDGE_OPENING_PASSES: usize = BRIDGE_AUCTION + BIDS * 12;
/// Bridge: one-hot contract level 1..7 (zero until the auction ends with a bid).
pub const BRIDGE_LEVEL: usize = BRIDGE_OPENING_PASSES + 4;
/// Bridge: one-hot contract strain (C, D, H, S, NT).
pub const BRIDGE_STRAIN: usize = BRIDGE_LEVEL + 7;
/// Bridge: one-hot undoubled, doubled, redoubled.
pub const BRIDGE_DOUBLING: usize = BRIDGE_STRAIN + 5;
/// Bridge: one-hot by relative seat, the declarer.
pub const BRIDGE_DECLARER: usize = BRIDGE_DOUBLING + 3;
/// Bridge: dummy's remaining cards, once the opening lead is made.
pub const BRIDGE_DUMMY: usize = BRIDGE_DECLARER + 4;
/// Bridge: tricks won by the seat's side, then the other side, / 13.
pub const BRIDGE_TRICKS: usize = BRIDGE_DUMMY + CARDS;
/// Bridge: one-hot by relative seat, the player choosing now (declarer when
/// dummy's hand is to play, which the table block's to-act entry shows).
pub const BRIDGE_CHOOSER: usize = BRIDGE_TRICKS + 2;
/// Length of a Bridge observation tensor.
pub const BRIDGE_LEN: usize = BRIDGE_CHOOSER + 4;

/// Where a game stands for the seat that observes it: the table part both games
/// share.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a, G> {
    /// The observing seat, 0..=3.
    pub seat: usize,
    /// The seat's hand while no deal is in play (passing, bidding); once `deal`
    /// is given the hand is read from it.
    pub hand: CardSet,
    /// The play of the deal, once it has begun (the last deal once the game ends).
    pub deal: Option<&'a SteppedDeal<G>>,
    /// The seat to act; `None` once the game is over.
    pub to_act: Option<usize>,
}

/// What a Hearts seat knows beyond the table.
#[derive(Clone, Copy, Debug)]
pub struct HeartsInfo {
    /// Pass direction of the deal: 0 left, 1 right, 2 across, 3 hold.
    pub direction: usize,
    /// The cards the seat has chosen to pass.
    pub passed: CardSet,
    /// The cards it was passed (empty until the exchange).
    pub received: CardSet,
    /// Each seat's match total (penalty points).
    pub scores: [i64; 4],
    /// The total that ends the match (at least 1).
    pub target: u32,
}

/// What a Spades seat knows beyond the table.
#[derive(Clone, Copy, Debug)]
pub struct SpadesInfo {
    /// The dealer of the deal.
    pub dealer: usize,
    /// Each seat's bid, `None` until made.
    pub bids: [Option<u8>; 4],
    /// The partnerships' match scores (seats 0 and 2, seats 1 and 3).
    pub scores: [i64; 2],
    /// The bags each partnership carries (0..9).
    pub bags: [u32; 2],
    /// The score that ends the match (at least 1).
    pub target: u32,
}

/// What a Bridge seat knows beyond the table.
#[derive(Clone, Copy, Debug)]
pub struct BridgeInfo<'a> {
    /// The auction so far (the whole auction once play has begun).
    pub auction: &'a Auction,
    /// Vulnerability of North-South, then East-West.
    pub vulnerable: [bool; 2],
}

fn bad<T>(why: String) -> Result<T> {
    Err(EngineError::RuleOption(why))
}

/// Set the entries of a card plane at `at` for the cards of `set`.
#[inline]
fn write_cards(out: &mut [f32], at: usize, set: CardSet) {
    let mut bits = set.0;
    while bits != 0 {
        out[at + bits.trailing_zeros() as usize] = 1.0;
        bits &= bits - 1;
    }
}

fn check_seat(name: &str, seat: usize) -> Result<()> {
    if seat < 4 {
        Ok(())
    } else {
        bad(format!("{name} {seat} is not a seat 0..3"))
    }
}

impl<G: TrickPlay> Position<'_, G> {
    /// The seat `p` as seen from the observing seat.
    #[inline]
    fn rel(&self, p: usize) -> usize {
        (p + 4 - self.seat) % 4
    }

    /// Zero `out` (of length `len`) and write the table block.
    fn write_table(&self, out: &mut [f32], len: usize) -> Result<()> {
        if out.len() != len {
            return bad(format!(
                "the observation buffer holds {} values, expected {len}",
                out.len()
            ));
        }
        check_seat("seat", self.seat)?;
        if let Some(p) = self.to_act {
            check_seat("to_act", p)?;
        }
        if self.hand.0 >> CARDS != 0 {
            return bad("hand has bits outside the 52-card pack".into());
        }
        out.fill(0.0);
        let Some(stepped) = self.deal else {
            write_cards(out, HAND, self.hand);
            if let Some(p) = self.to_act {
                out[TO_ACT + self.rel(p)] = 1.0;
                out[PHASE] = 1.0;
            }
            return Ok(());
        };
        let table = stepped.deal().table();
        write_cards(out, HAND, table.hands[self.seat]);
        for (p, &cards) in stepped.played().iter().enumerate() {
            write_cards(out, PLAYED + self.rel(p) * CARDS, cards);
        }
        for (k, card) in table.trick().iter().enumerate() {
            let rel = self.rel((table.leader + k) % 4);
            out[TRICK + rel * CARDS + usize::from(card.index())] = 1.0;
        }
        if let Some(p) = self.to_act {
            out[LEADER + self.rel(table.leader)] = 1.0;
            out[TO_ACT + self.rel(p)] = 1.0;
            out[PHASE + 1] = 1.0;
        }
        out[BROKEN] = f32::from(u8::from(table.broken));
        Ok(())
    }
}

fn check_target(target: u32) -> Result<f32> {
    if target == 0 {
        return bad("target must be at least 1".into());
    }
    Ok(target as f32)
}

/// Write the observing seat's Hearts tensor ([`HEARTS_LEN`] values) into `out`.
pub fn hearts_tensor(
    position: &Position<'_, HeartsDeal>,
    info: &HeartsInfo,
    out: &mut [f32],
) -> Result<()> {
    if info.direction >= 4 {
        return bad(format!("direction {} is not 0..3", info.direction));
    }
    if (info.passed.0 | info.received.0) >> CARDS != 0 {
        return bad("passed and received must be cards of the 52-card pack".into());
    }
    let target = check_target(info.target)?;
    position.write_table(out, HEARTS_LEN)?;
    out[HEARTS_DIRECTION + info.direction] = 1.0;
    write_cards(out, HEARTS_PASSED, info.passed);
    write_cards(out, HEARTS_RECEIVED, info.received);
    for p in 0..4 {
        let rel = position.rel(p);
        if let Some(stepped) = position.deal {
            out[HEARTS_POINTS + rel] = penalty(stepped.taken()[p]) as f32 / 26.0;
        }
        out[HEARTS_SCORES + rel] = info.scores[p] as f32 / target;
    }
    Ok(())
}

/// Write the observing seat's Spades tensor ([`SPADES_LEN`] values) into `out`.
pub fn spades_tensor(
    position: &Position<'_, SpadesDeal>,
    info: &SpadesInfo,
    out: &mut [f32],
) -> Result<()> {
    check_seat("dealer", info.dealer)?;
    if info.bids.iter().flatten().any(|&b| b > 13) || info.bags.iter().any(|&b| b > 9) {
        return bad("bids must be 0..13 and bags 0..9".into());
    }
    let target = check_target(info.target)?;
    position.write_table(out, SPADES_LEN)?;
    out[SPADES_DEALER + position.rel(info.dealer)] = 1.0;
    for p in 0..4 {
        let rel = position.rel(p);
        if let Some(bid) = info.bids[p] {
            out[SPADES_BIDS + rel * 14 + usize::from(bid)] = 1.0;
        }
        if let Some(stepped) = position.deal {
            out[SPADES_WON + rel] = (stepped.taken()[p].len() / 4) as f32 / 13.0;
        }
    }
    let own = position.seat % 2;
    for (k, team) in [own, 1 - own].into_iter().enumerate() {
        out[SPADES_SCORES + k] = info.scores[team] as f32 / target;
        out[SPADES_BAGS + k] = info.bags[team] as f32 / 10.0;
    }
    Ok(())
}

/// Write the observing seat's Bridge tensor ([`BRIDGE_LEN`] values) into `out`.
/// The position's `to_act` is the hand to play (dummy's too) or the seat to call.
pub fn bridge_tensor(
    position: &Position<'_, BridgeDeal>,
    info: &BridgeInfo<'_>,
    out: &mut [f32],
) -> Result<()> {
    position.write_table(out, BRIDGE_LEN)?;
    let seat = position.seat;
    out[BRIDGE_VULNERABLE] = f32::from(u8::from(info.vulnerable[seat % 2]));
    out[BRIDGE_VULNERABLE + 1] = f32::from(u8::from(info.vulnerable[1 - seat % 2]));
    let auction = info.auction;
    let mut bid: Option<usize> = None;
    for (k, &call) in auction.calls().iter().enumerate() {
        let rel = position.rel((auction.dealer() + k) % 4);
        match (call, bid) {
            (PASS, None) => out[BRIDGE_OPENING_PASSES + rel] = 1.0,
            (PASS, Some(_)) => {}
            (DOUBLE, Some(b)) => out[BRIDGE_AUCTION + b * 12 + 4 + rel] = 1.0,
            (REDOUBLE, Some(b)) => out[BRIDGE_AUCTION + b * 12 + 8 + rel] = 1.0,
            _ => {
                let b = usize::from(call) - 1;
                bid = Some(b);
                out[BRIDGE_AUCTION + b * 12 + rel] = 1.0;
            }
        }
    }
    if let Some(c) = auction.contract() {
        out[BRIDGE_LEVEL + usize::from(c.level) - 1] = 1.0;
        out[BRIDGE_STRAIN + usize::from(c.strain)] = 1.0;
        out[BRIDGE_DOUBLING + usize::from(c.doubling)] = 1.0;
        out[BRIDGE_DECLARER + position.rel(c.declarer)] = 1.0;
    }
    if let Some(stepped) = position.deal {
        let deal = stepped.deal();
        if deal.dummy_public() {
            write_cards(out, BRIDGE_DUMMY, deal.table.hands[deal.contract.dummy()]);
        }
        let won = stepped.taken().map(|t| t.len() / 4);
        let own = won[seat] + won[(seat + 2) % 4];
        let other = won[(seat + 1) % 4] + won[(seat + 3) % 4];
        out[BRIDGE_TRICKS] = own as f32 / 13.0;
        out[BRIDGE_TRICKS + 1] = other as f32 / 13.0;
        if position.to_act.is_some() {
            out[BRIDGE_CHOOSER + position.rel(deal.controller())] = 1.0;
        }
    } else if let Some(p) = position.to_act {
        out[BRIDGE_CHOOSER + position.rel(p)] = 1.0;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{parse_cards, Card};

    fn set(text: &str) -> CardSet {
        CardSet::from_cards(parse_cards(text).unwrap())
    }

    fn card(text: &str) -> Card {
        Card::parse(text).unwrap()
    }

    fn ones(out: &[f32], at: usize, len: usize) -> Vec<usize> {
        (0..len).filter(|&i| out[at + i] != 0.0).collect()
    }

    #[test]
    fn hearts_tensor_rotates_seats_and_shows_the_trick() {
        let hands = ["2c Ac 2h", "3c Kd 3h", "4c Qd 4h", "5c Jd 5h"].map(set);
        let mut stepped = SteppedDeal::new(HeartsDeal::new(hands));
        assert_eq!(stepped.try_play(card("2c")), Some(false));
        assert_eq!(stepped.try_play(card("3c")), Some(false));
        let position = Position {
            seat: 1,
            hand: CardSet::EMPTY,
            deal: Some(&stepped),
            to_act: Some(2),
        };
        let info = HeartsInfo {
            direction: 2,
            passed: set("Ah"),
            received: set("Kh"),
            scores: [10, 20, 30, 40],
            target: 100,
        };
        let mut out = vec![9.0; HEARTS_LEN];
        hearts_tensor(&position, &info, &mut out).unwrap();
        let index = |t: &str| usize::from(card(t).index());
        assert_eq!(ones(&out, HAND, CARDS), vec![index("3h"), index("Kd")]);
        // Seat 1 observes: seat 0 is relative seat 3, seat 1 itself is 0.
        assert_eq!(ones(&out, PLAYED + 3 * CARDS, CARDS), vec![index("2c")]);
        assert_eq!(ones(&out, TRICK, CARDS), vec![index("3c")]);
        assert_eq!(ones(&out, LEADER, 4), vec![3]);
        assert_eq!(ones(&out, TO_ACT, 4), vec![1]);
        assert_eq!(ones(&out, PHASE, 2), vec![1]);
        assert_eq!(ones(&out, HEARTS_DIRECTION, 4), vec![2]);
        assert_eq!(ones(&out, HEARTS_PASSED, CARDS), vec![index("Ah")]);
        assert_eq!(ones(&out, HEARTS_RECEIVED, CARDS), vec![index("Kh")]);
        assert_eq!(&out[HEARTS_SCORES..HEARTS_LEN], &[0.2, 0.3, 0.4, 0.1]);
        assert_eq!(out[BROKEN], 0.0);
    }

    #[test]
    fn spades_tensor_before_play_shows_the_hand_and_bids() {
        let position: Position<'_, SpadesDeal> = Position {
            seat: 3,
            hand: set("As Kh"),
            deal: None,
            to_act: Some(0),
        };
        let info = SpadesInfo {
            dealer: 3,
            bids: [None, None, Some(4), Some(0)],
            scores: [-50, 120],
            bags: [3, 7],
            target: 500,
        };
        let mut out = vec![0.0; SPADES_LEN];
        spades_tensor(&position, &info, &mut out).unwrap();
        assert_eq!(ones(&out, HAND, CARDS).len(), 2);
        assert_eq!(ones(&out, PLAYED, 8 * CARDS), Vec::<usize>::new());
        assert_eq!(ones(&out, PHASE, 2), vec![0]);
        assert_eq!(ones(&out, TO_ACT, 4), vec![1]);
        assert_eq!(ones(&out, SPADES_DEALER, 4), vec![0]);
        assert_eq!(ones(&out, SPADES_BIDS, 56), vec![0, 3 * 14 + 4]);
        assert_eq!(&out[SPADES_SCORES..SPADES_LEN], &[0.24, -0.1, 0.7, 0.3]);
    }

    #[test]
    fn bad_inputs_are_refused() {
        let position: Position<'_, SpadesDeal> = Position {
            seat: 0,
            hand: CardSet::EMPTY,
            deal: None,
            to_act: Some(4),
        };
        let info = SpadesInfo {
            dealer: 0,
            bids: [None; 4],
            scores: [0, 0],
            bags: [0, 0],
            target: 500,
        };
        let mut out = vec![0.0; SPADES_LEN];
        assert!(spades_tensor(&position, &info, &mut out).is_err());
        let fine = Position {
            to_act: Some(0),
            ..position
        };
        assert!(spades_tensor(&fine, &info, &mut out[1..]).is_err());
        let bid = SpadesInfo {
            bids: [Some(14), None, None, None],
            ..info
        };
        assert!(spades_tensor(&fine, &bid, &mut out).is_err());
    }

    #[test]
    fn bridge_tensor_shows_the_auction_and_dummy_after_the_lead() {
        use crate::trick::bridge::{bid_call, SOUTH};
        let calls = [PASS, bid_call(1, 4), DOUBLE, PASS, PASS, PASS];
        let auction = Auction::replay(SOUTH, &calls).unwrap();
        let contract = auction.contract().unwrap();
        assert_eq!(contract.declarer, 3);
        let hands = ["2c 3c", "4c 5c", "6c 7c", "8c 9c"].map(set);
        let mut stepped = SteppedDeal::new(BridgeDeal::new(hands, contract));
        let info = BridgeInfo {
            auction: &auction,
            vulnerable: [true, false],
        };
        let mut out = vec![0.0; BRIDGE_LEN];
        let write = |stepped: &SteppedDeal<BridgeDeal>, out: &mut [f32]| {
            let position = Position {
                seat: 2,
                hand: CardSet::EMPTY,
                deal: Some(stepped),
                to_act: Some(stepped.deal().to_act()),
            };
            bridge_tensor(&position, &info, out).unwrap();
        };
        write(&stepped, &mut out);
        // South observes: West (relative 1) bid 1NT, North (relative 2) doubled.
        assert_eq!(ones(&out, BRIDGE_VULNERABLE, 2), vec![0]);
        assert_eq!(ones(&out, BRIDGE_OPENING_PASSES, 4), vec![0]);
        assert_eq!(ones(&out, BRIDGE_AUCTION + 4 * 12, 12), vec![1, 6]);
        assert_eq!(
            ones(&out, BRIDGE_LEVEL, 7 + 5 + 3 + 4),
            vec![0, 7 + 4, 12 + 1, 15 + 1]
        );
        assert_eq!(ones(&out, BRIDGE_DUMMY, CARDS), Vec::<usize>::new());
        // North leads; then East's hand (dummy) is public and West chooses for it.
        stepped.try_play(card("2c"));
        write(&stepped, &mut out);
        assert_eq!(ones(&out, BRIDGE_DUMMY, CARDS), vec![8, 12]);
        assert_eq!(ones(&out, TO_ACT, 4), vec![3]);
        assert_eq!(ones(&out, BRIDGE_CHOOSER, 4), vec![1]);
    }
}
