//! Named decks. Each is listed in ascending card order, pack after pack.

use crate::cards::{Card, NUM_CARDS};
use crate::error::{EngineError, Result};

/// Deck names accepted by [`deck`].
pub const DECK_NAMES: [&str; 5] = [
    "standard52",
    "french54",
    "double104",
    "double108",
    "zhengshangyou48",
];

fn one_pack(jokers: bool) -> impl Iterator<Item = Card> {
    let n = if jokers { NUM_CARDS } else { 52 };
    (0..n as u8).map(Card::from_index_unchecked)
}

/// The cards of a named deck:
/// - `standard52`: one pack without jokers;
/// - `french54`: one pack with both jokers (Dou Dizhu);
/// - `double104`: two packs without jokers (One Poker);
/// - `double108`: two packs with jokers (Guandan, Tractor);
/// - `zhengshangyou48`: `french54` without both jokers, the A♥ and every two but the 2♠.
pub fn deck(name: &str) -> Result<Vec<Card>> {
    let cards: Vec<Card> = match name {
        "standard52" => one_pack(false).collect(),
        "french54" => one_pack(true).collect(),
        "double104" => one_pack(false).chain(one_pack(false)).collect(),
        "double108" => one_pack(true).chain(one_pack(true)).collect(),
        "zhengshangyou48" => one_pack(false)
            .filter(|c| {
                let (rank, suit) = (c.rank(), c.suit());
                let heart_ace = rank == 12 && suit == Some(crate::cards::HEARTS);
                let non_spade_two = rank == 0 && suit != Some(crate::cards::SPADES);
                !heart_ace && !non_spade_two
            })
            .collect(),
        other => {
            return Err(EngineError::RuleOption(format!(
                "unknown deck {other:?}: expected one of {}",
                DECK_NAMES.join(", ")
            )))
        }
    };
    Ok(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        for (name, n) in [
            ("standard52", 52),
            ("french54", 54),
            ("double104", 104),
            ("double108", 108),
            ("zhengshangyou48", 48),
        ] {
            assert_eq!(deck(name).unwrap().len(), n, "{name}");
        }
        assert!(deck("tarot78").is_err());
    }

    #[test]
    fn zhengshangyou_pack() {
        // ZSY-06: omit both jokers, the heart ace and every two except the spade two.
        let d: Vec<String> = deck("zhengshangyou48")
            .unwrap()
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert!(d.contains(&"2s".to_string()));
        for gone in ["2c", "2d", "2h", "Ah", "BJ", "RJ"] {
            assert!(!d.contains(&gone.to_string()), "{gone}");
        }
    }
}
