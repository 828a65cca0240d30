//! Tractor card play driven by action-index ids, as the Python game and the vector
//! env drive it: a shuffled double pack, 25 cards each, the dealer taking the
//! kitty and burying 8 cards chosen by the input, at any level and trump suit. An
//! id is accepted exactly when `legal_ids_into` lists it, a refused id changes
//! nothing, every follow that completes is legal by `Follow::allows` (the listing
//! agrees with the plain rule), each seat's 25 cards are conserved, and the
//! deal, played to its end, gives out all 200 points with the kitty.
#![no_main]

use cardkit_engine::deck::deck;
use cardkit_engine::rng::CardRng;
use cardkit_engine::trick::tractor::deal::{Deal, HAND_SIZE, KITTY, SEATS};
use cardkit_engine::trick::tractor::{Follow, Hand, Shape, Trumps, NUM_ACTIONS};
use libfuzzer_sys::fuzz_target;

/// A follow under way: the follower, its hand when it began, and the lead.
struct Following {
    seat: u8,
    hand: Hand,
    lead: Shape,
}

fuzz_target!(|input: (u64, u8, u8, &[u8])| {
    let (seed, setup, dealer, moves) = input;
    let mut cards = deck("double108").unwrap();
    CardRng::new(seed).shuffle(&mut cards);
    let dealer = usize::from(dealer % 4);
    let mut hands: [Hand; SEATS] = std::array::from_fn(|s| {
        Hand::from_cards(&cards[HAND_SIZE * s..HAND_SIZE * (s + 1)]).unwrap()
    });
    let kitty = Hand::from_cards(&cards[SEATS * HAND_SIZE..]).unwrap();
    hands[dealer] = hands[dealer].plus(&kitty).unwrap();
    let mut bytes = moves.iter().copied();
    // The dealer buries 8 of its 33 cards, chosen by the input.
    let mut buried = Hand::EMPTY;
    for _ in 0..KITTY {
        let held = hands[dealer].cards();
        let card = held[usize::from(bytes.next().unwrap_or(0)) % held.len()];
        assert!(hands[dealer].take(card));
        buried.add(card);
    }
    let level = setup % 13;
    let suit = (setup >> 4) % 5;
    let trumps = Trumps::new(level, (suit < 4).then_some(suit)).unwrap();
    let mut deal = Deal::new(hands, trumps, dealer as u8).unwrap();
    let mut legal = Vec::new();
    let mut following: Option<Following> = None;
    while let Some(seat) = deal.to_move() {
        deal.legal_ids_into(&mut legal);
        assert!(!legal.is_empty(), "a live deal always has a move");
        // Once the input runs out, the first listed id plays the deal to its end.
        let id = match bytes.next() {
            None => legal[0],
            Some(b) if b < 192 => legal[usize::from(b) % legal.len()],
            Some(b) => {
                (u32::from(b - 192) << 8 | u32::from(bytes.next().unwrap_or(0))) % NUM_ACTIONS
            }
        };
        if deal.chosen().is_empty() {
            following = deal.lead().map(|&lead| Following {
                seat,
                hand: deal.hand(usize::from(seat)),
                lead,
            });
        }
        // A clone and `==`, not Debug text: formatting the deal took most of a run.
        let before = deal.clone();
        let trick = match deal.apply_id(id) {
            Ok(trick) => {
                assert!(legal.contains(&id), "id {id} was applied but not listed");
                trick
            }
            Err(_) => {
                assert!(!legal.contains(&id), "listed id {id} was refused");
                assert_eq!(deal, before, "a refused id changed the deal");
                continue;
            }
        };
        let Some(f) = following.as_ref().filter(|_| deal.to_move() != Some(seat)) else {
            continue;
        };
        // The follow is complete: legal by the plain rule, the lead's size.
        let plays = trick.map_or(*deal.trick(), |t| t.plays);
        let cards = plays[usize::from(f.seat)];
        assert_eq!(
            cards.len(),
            f.lead.kind.size(),
            "a follow matches the lead's size"
        );
        assert!(
            Follow::of(&f.lead, &trumps).allows(&f.hand, &cards),
            "a listed follow breaks the follow rules"
        );
        following = None;
    }
    for (seat, hand) in hands.iter().enumerate() {
        let now = deal.hand(seat).plus(&deal.played()[seat]).unwrap();
        assert_eq!(&now, hand, "seat {seat}'s cards are conserved");
    }
    assert!(deal.is_over());
    assert!((1..=HAND_SIZE as u32).contains(&deal.tricks()));
    let points: u32 = deal.points().iter().sum();
    assert_eq!(
        points + buried.points(),
        200,
        "the 200 points are all taken"
    );
});
