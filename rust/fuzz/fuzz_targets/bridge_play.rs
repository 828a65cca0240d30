//! Bridge deals driven by bytes: an auction call by call, then the play card by
//! card, as the Python game steps them. Checks the engine's contract: the legal
//! call bitset is exactly the set of calls `Auction::call` accepts (a refused call
//! changes nothing), the contract's declarer is the first of the winning side to
//! name the strain, the seat choosing each card is declarer whenever dummy is to
//! play, dummy is face up from the opening lead on, a refused card changes
//! nothing, a played deal has 13 tricks holding all 52 cards, and the score is
//! North-South's and the exact opposite of East-West's.
#![no_main]

use cardkit_engine::cards::Card;
use cardkit_engine::cardset::CardSet;
use cardkit_engine::rng::CardRng;
use cardkit_engine::trick::bridge::{
    duplicate_score, north_south_score, random_hands, Auction, BridgeDeal, CALLS, DOUBLE, PASS,
    REDOUBLE, SOUTH,
};
use cardkit_engine::trick::{SteppedDeal, TrickPlay};
use libfuzzer_sys::fuzz_target;

/// One call from a byte: below 200 a legal call by position, else any call id
/// (some out of range); checks the bitset against `call` for every id first.
fn call(auction: &mut Auction, b: u8) {
    let legal = auction.legal();
    assert!(
        legal >> PASS & 1 == 1,
        "pass is legal while the auction is on"
    );
    for id in 0..64u8 {
        let mut probe = auction.clone();
        let accepted = probe.call(id);
        assert_eq!(
            accepted,
            usize::from(id) < CALLS && legal >> id & 1 == 1,
            "call {id}"
        );
    }
    let id = if b < 200 {
        let mut bits = legal;
        for _ in 0..u32::from(b) % legal.count_ones() {
            bits &= bits - 1;
        }
        bits.trailing_zeros() as u8
    } else {
        (b - 200) % 40
    };
    let before = auction.calls().len();
    if auction.call(id) {
        assert!(legal >> id & 1 == 1);
    } else {
        assert_eq!(auction.calls().len(), before);
        assert_eq!(auction.legal(), legal);
    }
}

/// The declarer by the rule: the first seat of the last bidder's side to bid the
/// final strain.
fn expected_declarer(calls: &[u8]) -> Option<(usize, u8)> {
    let seat = |k: usize| (SOUTH + k) % 4;
    let (last, bid) = calls
        .iter()
        .enumerate()
        .rev()
        .find(|&(_, &c)| c != PASS && c != DOUBLE && c != REDOUBLE)?;
    let strain = (bid - 1) % 5;
    let side = seat(last) % 2;
    let first = calls.iter().enumerate().position(|(k, &c)| {
        c != PASS && c != DOUBLE && c != REDOUBLE && (c - 1) % 5 == strain && seat(k) % 2 == side
    })?;
    Some((seat(first), strain))
}

fuzz_target!(|input: (u64, u8, &[u8])| {
    let (seed, vul, bytes) = input;
    let vulnerable = [vul & 1 == 1, vul & 2 == 2];
    let hands = random_hands(&mut CardRng::new(seed));
    let mut auction = Auction::new(SOUTH);
    let mut bytes = bytes.iter().copied();
    while !auction.is_over() {
        match bytes.next() {
            Some(b) => call(&mut auction, b),
            None => assert!(auction.call(PASS)),
        }
    }
    assert_eq!(auction.legal(), 0);
    let Some(contract) = auction.contract() else {
        assert_eq!(expected_declarer(auction.calls()), None);
        assert_eq!(north_south_score(None, vulnerable, 0), 0);
        return;
    };
    assert_eq!(
        expected_declarer(auction.calls()),
        Some((contract.declarer, contract.strain))
    );
    let declarer = contract.declarer;
    let dummy = contract.dummy();
    let mut stepped = SteppedDeal::new(BridgeDeal::new(hands, contract));
    let mut played_any = false;
    assert_eq!(stepped.deal().to_act(), (declarer + 1) % 4);
    while !stepped.deal().is_over() {
        let deal = stepped.deal();
        assert_eq!(deal.dummy_public(), played_any);
        let expected = if deal.to_act() == dummy {
            declarer
        } else {
            deal.to_act()
        };
        assert_eq!(deal.controller(), expected);
        let legal = deal.legal();
        assert!(!legal.is_empty(), "a live deal always has a card to play");
        let card = match bytes.next() {
            Some(b) if b < 160 => {
                let cards: Vec<Card> = legal.iter().collect();
                cards[usize::from(b) % cards.len()]
            }
            Some(b) => Card::from_index(u32::from(b - 160) % 52).unwrap(),
            None => deal.heuristic(),
        };
        let before = format!("{:?}", stepped.deal());
        match stepped.try_play(card) {
            Some(_) => {
                assert!(legal.contains(card));
                played_any = true;
            }
            None => {
                assert!(!legal.contains(card));
                assert_eq!(format!("{:?}", stepped.deal()), before);
            }
        }
    }
    let deal = stepped.deal();
    let taken = stepped.taken();
    assert_eq!(
        taken.iter().fold(CardSet::EMPTY, |a, &t| a.union(t)).len(),
        52
    );
    assert_eq!(stepped.tricks().count(), 13);
    assert_eq!(deal.tricks.iter().map(|&t| u32::from(t)).sum::<u32>(), 13);
    let tricks = deal.declarer_tricks();
    assert_eq!(tricks, deal.tricks[declarer] + deal.tricks[dummy]);
    let ns = north_south_score(Some(&contract), vulnerable, tricks);
    let ours = duplicate_score(&contract, vulnerable[declarer % 2], tricks);
    let ew = if declarer % 2 == 1 {
        ours.total
    } else {
        -ours.total
    };
    assert_eq!(ns, -ew);
    let made = tricks >= contract.level + 6;
    assert_eq!(ours.total > 0, made, "{ours:?}");
    assert_eq!(ours.undertricks < 0, !made);
});
