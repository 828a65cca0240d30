//! Hearts and Spades deals stepped card by card, as the Python games step them: a
//! card is played exactly when the deal's rules allow it, a refused card changes
//! nothing, and a finished deal has dealt out all 52 cards in 13 tricks, each won
//! by one seat, with the Hearts penalty points summing to 26.
#![no_main]

use cardkit_engine::cards::Card;
use cardkit_engine::cardset::CardSet;
use cardkit_engine::rng::CardRng;
use cardkit_engine::trick::hearts::HeartsDeal;
use cardkit_engine::trick::spades::SpadesDeal;
use cardkit_engine::trick::{SteppedDeal, TrickPlay};
use libfuzzer_sys::fuzz_target;

fn step<G: TrickPlay + std::fmt::Debug>(deal: G, moves: &[u8]) -> SteppedDeal<G> {
    let mut stepped = SteppedDeal::new(deal);
    for &b in moves {
        if stepped.deal().is_over() {
            break;
        }
        let legal = stepped.deal().legal();
        assert!(!legal.is_empty(), "a live deal always has a card to play");
        let card = if b < 160 {
            let cards: Vec<Card> = legal.iter().collect();
            cards[usize::from(b) % cards.len()]
        } else {
            Card::from_index(u32::from(b - 160) % 52).unwrap()
        };
        let before = format!("{:?}", stepped.deal());
        match stepped.try_play(card) {
            Some(_) => assert!(legal.contains(card)),
            None => {
                assert!(!legal.contains(card));
                assert_eq!(format!("{:?}", stepped.deal()), before);
            }
        }
    }
    stepped
}

fn check_finished<G: TrickPlay>(stepped: &SteppedDeal<G>) {
    let taken = stepped.taken();
    let all = taken.iter().fold(CardSet::EMPTY, |a, &t| a.union(t));
    assert_eq!(all.len(), 52);
    assert_eq!(taken.iter().map(|t| t.len()).sum::<u32>(), 52);
    assert_eq!(stepped.tricks().count(), 13);
}

fuzz_target!(|input: (u64, u8, &[u8])| {
    let (seed, setup, moves) = input;
    let mut rng = CardRng::new(seed);
    if setup & 1 == 0 {
        let stepped = step(HeartsDeal::random(&mut rng), moves);
        if stepped.deal().is_over() {
            check_finished(&stepped);
            let points = stepped.deal().points();
            let total: i32 = points.iter().sum();
            assert!(total == 26 || total == 78, "points {points:?}");
        }
    } else {
        let bids = [setup >> 1 & 7, setup >> 4 & 7, 3, 0];
        let stepped = step(SpadesDeal::random(bids, &mut rng), moves);
        if stepped.deal().is_over() {
            check_finished(&stepped);
        }
    }
});
