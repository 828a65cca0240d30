//! Guandan card play driven by action-index ids, as the Python game and the vector
//! env drive it: an id is accepted exactly when `legal_ids` lists it, a refused id
//! changes nothing, the cards of each seat are conserved, and a deal that ends has
//! its places.
#![no_main]

use cardkit_engine::climbing::guandan::deal::Deal;
use cardkit_engine::climbing::guandan::{action_index, Hand};
use cardkit_engine::deck::deck;
use cardkit_engine::rng::CardRng;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u64, u8, &[u8])| {
    let (seed, setup, moves) = input;
    let mut cards = deck("double108").unwrap();
    CardRng::new(seed).shuffle(&mut cards);
    let hands: [Hand; 4] =
        std::array::from_fn(|s| Hand::from_cards(&cards[27 * s..27 * (s + 1)]).unwrap());
    let level = setup % 13;
    let leader = (setup >> 4) % 4;
    let Ok(mut deal) = Deal::new(hands, level, leader, setup & 0x40 != 0) else {
        return;
    };
    let ids = action_index().len() as u32 + 1;
    let mut legal = Vec::new();
    let mut bytes = moves.iter().copied();
    while let Some(b) = bytes.next() {
        if deal.is_over() {
            break;
        }
        legal.clear();
        deal.legal_ids(&mut legal);
        assert!(!legal.is_empty(), "a live deal always has a move");
        let id = if b < 192 {
            legal[usize::from(b) % legal.len()]
        } else {
            (u32::from(b - 192) << 8 | u32::from(bytes.next().unwrap_or(0))) % ids
        };
        // A clone and `==`, not Debug text: formatting the deal took most of a run.
        let before = deal.clone();
        match deal.apply_id(id) {
            Ok(_) => assert!(legal.contains(&id), "id {id} was applied but not listed"),
            Err(_) => {
                assert!(!legal.contains(&id), "listed id {id} was refused");
                assert_eq!(deal, before, "a refused id changed the deal");
            }
        }
    }
    for (seat, hand) in hands.iter().enumerate() {
        let mut now = *deal.hand(seat);
        for (slot, n) in now.counts.iter_mut().zip(deal.played(seat).counts) {
            *slot += n;
        }
        assert_eq!(&now, hand, "seat {seat}'s cards are conserved");
    }
    if deal.is_over() {
        assert!(deal.places().len() >= 2);
        assert!(deal.to_move().is_none());
    }
});
