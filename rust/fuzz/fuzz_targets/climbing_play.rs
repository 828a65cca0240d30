//! Dou Dizhu and Zheng Shangyou card play driven move by move, as the Python
//! games drive it: a move is legal exactly when `legal()` lists it, an illegal
//! move changes nothing, cards are conserved, and the deal ends with a winner.
#![no_main]

use cardkit_engine::cardset::CardSet;
use cardkit_engine::climbing::cardplay::{CardPlay, HEART_THREE};
use cardkit_engine::climbing::doudizhu::action_index;
use cardkit_engine::climbing::playout::Game;
use cardkit_engine::deck::deck;
use cardkit_engine::rng::CardRng;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u64, u8, &[u8])| {
    let (seed, setup, moves) = input;
    let mut rng = CardRng::new(seed);
    let (game, mut cards, sizes) = if setup & 1 == 0 {
        let landlord = (setup >> 1) % 3;
        let bid = 1 + (setup >> 3) % 3;
        let mut sizes = [17, 17, 17];
        sizes[usize::from(landlord)] = 20;
        (
            Game::DouDizhu { landlord, bid },
            deck("french54").unwrap(),
            sizes,
        )
    } else {
        (
            Game::ZhengShangyou,
            deck("zhengshangyou48").unwrap(),
            [16, 16, 16],
        )
    };
    rng.shuffle(&mut cards);
    let mut hands = [CardSet::EMPTY; 3];
    let mut at = 0;
    for (hand, size) in hands.iter_mut().zip(sizes) {
        *hand = CardSet::from_cards(cards[at..at + size].iter().copied());
        at += size;
    }
    let leader = match game {
        Game::DouDizhu { landlord, .. } => landlord,
        // The heart three's holder opens Zheng Shangyou (its opening play takes it).
        Game::ZhengShangyou => (0..3u8)
            .find(|&s| hands[usize::from(s)].contains(HEART_THREE))
            .unwrap_or(0),
    };
    let Ok(mut play) = CardPlay::new(game, hands, leader, [0; 3]) else {
        return;
    };
    let index = action_index();
    let mut bytes = moves.iter().copied();
    while let Some(b) = bytes.next() {
        if play.deal().is_over() {
            break;
        }
        let legal = play.legal().to_vec();
        assert!(!legal.is_empty(), "a live deal always has a move");
        if b < 192 {
            let mv = legal[usize::from(b) % legal.len()];
            play.apply(mv).unwrap();
        } else {
            // Any play of the index, most of them illegal here.
            let hi = u32::from(bytes.next().unwrap_or(0));
            let id = (u32::from(b - 192) << 8 | hi) % index.len() as u32;
            let mv = index.play(id).copied();
            let before = format!("{play:?}");
            match play.apply(mv) {
                Ok(()) => assert!(legal.contains(&mv)),
                Err(_) => {
                    assert!(!legal.contains(&mv));
                    assert_eq!(
                        format!("{play:?}"),
                        before,
                        "a refused move changed the deal"
                    );
                }
            }
        }
    }
    let mut held = 0u32;
    for seat in 0..3 {
        held += play.hand(seat).len() as u32 + play.played(seat).len() as u32;
    }
    assert_eq!(
        held as usize,
        sizes.iter().sum::<usize>(),
        "cards conserved"
    );
    if play.deal().is_over() {
        assert!(play.deal().winner.is_some());
    }
});
