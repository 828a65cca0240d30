//! Climbing-game action text: ranks for Dou Dizhu and Zheng Shangyou, plays with
//! wilds for Guandan. Every input parses or is an error; every reading of what
//! parses uses exactly the parsed cards and prints back to the same play.
#![no_main]

use cardkit_engine::climbing::guandan::{self, action_index};
use cardkit_engine::climbing::{doudizhu, zhengshangyou, Ranks, BLACK_JOKER, RED_JOKER};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, &str)| {
    let (level, text) = input;
    if let Ok(ranks) = Ranks::parse(text) {
        assert_eq!(Ranks::parse(&ranks.to_string()).unwrap(), ranks);
        // Cards one hand can play (four of a rank, one of each joker, at most the
        // landlord's 20 cards) have Dou Dizhu ids; the games refuse other sets
        // through the index.
        let one_pack = (0..13).all(|r| ranks.count(r) <= 4)
            && ranks.count(BLACK_JOKER) <= 1
            && ranks.count(RED_JOKER) <= 1
            && ranks.len() <= doudizhu::MAX_PLAY_CARDS;
        for combo in doudizhu::classify(&ranks) {
            assert_eq!(combo.cards, ranks);
            if one_pack {
                assert!(doudizhu::action_index().play_id(&combo.cards).is_some());
            }
        }
        for opening in [false, true] {
            for combo in zhengshangyou::classify(&ranks, opening) {
                assert_eq!(combo.cards, ranks);
            }
        }
    }
    let level = (level % 14).checked_sub(1);
    if let Ok(play) = guandan::parse(text, level) {
        let again = guandan::parse(&play.to_string(), level).unwrap();
        assert_eq!(again, play);
        assert!(action_index().id(&play).is_some());
    }
    if let Ok(Some((play, cards))) = guandan::parse_copies(text, level) {
        // Named copies print to a canonical text that names the same play and cards.
        let canonical = guandan::copies_text(&play, &cards);
        let (again, mut named) = guandan::parse_copies(&canonical, level).unwrap().unwrap();
        assert_eq!(again, play);
        let mut cards = cards;
        cards.sort_unstable();
        named.sort_unstable();
        assert_eq!(named, cards);
    }
});
