//! Climbing-game action text: ranks for Dou Dizhu and Zheng Shangyou, plays with
//! wilds for Guandan. Every input parses or is an error; every reading of what
//! parses uses exactly the parsed cards and prints back to the same play.
#![no_main]

use cardkit_engine::climbing::guandan::{self, action_index};
use cardkit_engine::climbing::{doudizhu, zhengshangyou, Ranks};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, &str)| {
    let (level, text) = input;
    if let Ok(ranks) = Ranks::parse(text) {
        assert_eq!(Ranks::parse(&ranks.to_string()).unwrap(), ranks);
        for combo in doudizhu::classify(&ranks) {
            assert_eq!(combo.cards, ranks);
            assert!(doudizhu::action_index().play_id(&combo.cards).is_some());
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
});
