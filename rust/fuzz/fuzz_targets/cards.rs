//! Card text: every input parses or is an error, and what parses prints back to
//! text that parses to the same cards.
#![no_main]

use cardkit_engine::cards::{parse_cards, Card, MAX_CARDS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(card) = Card::parse(text) {
        assert_eq!(Card::parse(&card.to_string()).unwrap(), card);
    }
    if let Ok(cards) = parse_cards(text) {
        assert!(cards.len() <= MAX_CARDS);
        let printed: Vec<String> = cards.iter().map(Card::to_string).collect();
        assert_eq!(parse_cards(&printed.join(" ")).unwrap(), cards);
        assert_eq!(parse_cards(&printed.concat()).unwrap(), cards);
    }
});
