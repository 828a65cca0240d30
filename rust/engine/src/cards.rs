//! Cards: one byte each, with a text form shared by every game.
//!
//! Index layout (the documented default order): `rank * 4 + suit` for the 52
//! ranked cards, ranks `2..A` as 0..12 and suits clubs, diamonds, hearts, spades
//! as 0..3; then 52 = black joker (`BJ`), 53 = red joker (`RJ`). Ordering by index
//! therefore sorts by rank first, suits break ties in bridge order, jokers last.
//! Poker code relies on the rank-major layout (`index >> 2` is the rank).

use crate::error::{quoted, EngineError, Result};
use std::fmt;

pub const RANK_CHARS: [char; 13] = [
    '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
];
pub const SUIT_CHARS: [char; 4] = ['c', 'd', 'h', 's'];
pub const SUIT_SYMBOLS: [char; 4] = ['♣', '♦', '♥', '♠'];

pub const CLUBS: u8 = 0;
pub const DIAMONDS: u8 = 1;
pub const HEARTS: u8 = 2;
pub const SPADES: u8 = 3;

/// Number of distinct cards (52 ranked + 2 jokers).
pub const NUM_CARDS: usize = 54;

/// The most cards any call takes: the largest deck, `double108`.
pub const MAX_CARDS: usize = 108;

/// The longest card text [`parse_cards`] reads, in bytes. The loosest spelling of a
/// card, `10♥`, takes 5 bytes; 16 per card leaves 11 bytes of separators between
/// any two of [`MAX_CARDS`] cards, more than any written list uses. Longer text is
/// refused before it is read, so no input makes parsing slow or a message large.
pub const MAX_CARDS_TEXT: usize = MAX_CARDS * 16;

/// A card of the French 54-card pack. Two-pack games hold multisets of these.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Card(u8);

impl Card {
    pub const BLACK_JOKER: Card = Card(52);
    pub const RED_JOKER: Card = Card(53);

    /// The card with this index, or an error when `index >= 54`.
    pub fn from_index(index: u32) -> Result<Card> {
        if (index as usize) < NUM_CARDS {
            Ok(Card(index as u8))
        } else {
            Err(EngineError::InvalidCard(format!(
                "invalid card index {index}: expected 0..=53"
            )))
        }
    }

    /// For callers that produced `index` from a valid card (bit positions, tables).
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Card {
        debug_assert!((index as usize) < NUM_CARDS);
        Card(index)
    }

    /// The ranked card of `rank` (0 = deuce .. 12 = ace) and `suit` (0..3, c d h s).
    pub const fn new(rank: u8, suit: u8) -> Card {
        debug_assert!(rank < 13 && suit < 4);
        Card(rank * 4 + suit)
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// Rank 0 (deuce) ..= 12 (ace); 13 for the black joker, 14 for the red joker.
    #[inline]
    pub const fn rank(self) -> u8 {
        if self.0 >= 52 {
            13 + (self.0 - 52)
        } else {
            self.0 >> 2
        }
    }

    /// Suit 0..=3 (clubs, diamonds, hearts, spades), `None` for jokers.
    #[inline]
    pub const fn suit(self) -> Option<u8> {
        if self.0 >= 52 {
            None
        } else {
            Some(self.0 & 3)
        }
    }

    /// The pretty form for display: `A♠`, `10♥`, jokers as `BJ`/`RJ`.
    pub fn pretty(self) -> String {
        match self.suit() {
            None => self.to_string(),
            Some(s) => {
                let r = self.rank();
                let rank = if r == 8 {
                    "10".to_string()
                } else {
                    RANK_CHARS[r as usize].to_string()
                };
                format!("{rank}{}", SUIT_SYMBOLS[s as usize])
            }
        }
    }

    /// Parse one card: `As`, `10h`, `Th`, `A♠`, `BJ`, `RJ` (letters in any case).
    pub fn parse(text: &str) -> Result<Card> {
        let chars: Vec<char> = text.trim().chars().collect();
        match parse_prefix(&chars) {
            Ok((card, used)) if used == chars.len() => Ok(card),
            Ok(_) => Err(invalid(text, "trailing characters after the card")),
            Err(why) => Err(invalid(text, why)),
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            52 => f.write_str("BJ"),
            53 => f.write_str("RJ"),
            i => write!(
                f,
                "{}{}",
                RANK_CHARS[(i >> 2) as usize],
                SUIT_CHARS[(i & 3) as usize]
            ),
        }
    }
}

fn invalid(text: &str, why: &str) -> EngineError {
    EngineError::InvalidCard(format!("invalid card {}: {why}", quoted(text)))
}

fn rank_of(c: char) -> Option<u8> {
    let up = c.to_ascii_uppercase();
    RANK_CHARS.iter().position(|&r| r == up).map(|p| p as u8)
}

fn suit_of(c: char) -> Option<u8> {
    match c {
        'c' | 'C' | '♣' | '♧' => Some(CLUBS),
        'd' | 'D' | '♦' | '♢' => Some(DIAMONDS),
        'h' | 'H' | '♥' | '♡' => Some(HEARTS),
        's' | 'S' | '♠' | '♤' => Some(SPADES),
        _ => None,
    }
}

/// Parse the card at the start of `chars`; returns it and how many chars it used.
fn parse_prefix(chars: &[char]) -> std::result::Result<(Card, usize), &'static str> {
    let first = *chars.first().ok_or("empty card string")?;
    let second = chars.get(1).copied();
    match (
        first.to_ascii_uppercase(),
        second.map(|c| c.to_ascii_uppercase()),
    ) {
        ('B', Some('J')) => return Ok((Card::BLACK_JOKER, 2)),
        ('R', Some('J')) => return Ok((Card::RED_JOKER, 2)),
        _ => {}
    }
    let (rank, used) = if first == '1' && second == Some('0') {
        (8, 2)
    } else {
        (rank_of(first).ok_or("unknown rank")?, 1)
    };
    let suit_char = *chars.get(used).ok_or("missing suit")?;
    let suit = suit_of(suit_char).ok_or("unknown suit")?;
    Ok((Card::new(rank, suit), used + 1))
}

/// Parse several cards, separated by whitespace or commas or packed (`AsKd10h`).
///
/// Text longer than [`MAX_CARDS_TEXT`] bytes or naming more than [`MAX_CARDS`] cards
/// is an error. Each character is looked at a bounded number of times, so parsing
/// takes time linear in the text.
pub fn parse_cards(text: &str) -> Result<Vec<Card>> {
    if text.len() > MAX_CARDS_TEXT {
        return Err(EngineError::InvalidCard(format!(
            "card text of {} bytes is longer than any deck needs (at most {MAX_CARDS_TEXT}): {}",
            text.len(),
            quoted(text)
        )));
    }
    let chars: Vec<char> = text.chars().collect();
    let is_separator = |c: char| c.is_whitespace() || c == ',';
    let mut cards = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        if is_separator(chars[start]) {
            start += 1;
            continue;
        }
        // One token of packed cards (`AsKd10h`), read card by card.
        let end = chars[start..]
            .iter()
            .position(|&c| is_separator(c))
            .map_or(chars.len(), |p| start + p);
        let mut i = start;
        while i < end {
            match parse_prefix(&chars[i..end]) {
                Ok((card, used)) => {
                    cards.push(card);
                    i += used;
                }
                Err(why) => {
                    let token: String = chars[i..end].iter().collect();
                    return Err(EngineError::InvalidCard(format!(
                        "invalid card {} in {}: {why}",
                        quoted(&token),
                        quoted(text)
                    )));
                }
            }
        }
        if cards.len() > MAX_CARDS {
            return Err(too_many_cards(cards.len()));
        }
        start = end;
    }
    Ok(cards)
}

/// The error for a card list longer than [`MAX_CARDS`].
pub fn too_many_cards(count: usize) -> EngineError {
    EngineError::InvalidCard(format!(
        "at least {count} cards: no deck holds more than {MAX_CARDS}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_every_spelling() {
        for (text, canon) in [
            ("As", "As"),
            ("10h", "Th"),
            ("Th", "Th"),
            ("A♠", "As"),
            ("BJ", "BJ"),
            ("rj", "RJ"),
            ("2c", "2c"),
            ("kD", "Kd"),
            (" Qs ", "Qs"),
        ] {
            assert_eq!(Card::parse(text).unwrap().to_string(), canon, "{text}");
        }
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "", "1s", "Ax", "10", "RJs", "A", "s", "AsK", "é", "11h", "0h", "BJx",
        ] {
            let err = Card::parse(bad).unwrap_err();
            assert!(
                err.to_string().contains(&format!("{bad:?}")),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn index_layout_is_rank_major() {
        assert_eq!(Card::parse("2c").unwrap().index(), 0);
        assert_eq!(Card::parse("2s").unwrap().index(), 3);
        assert_eq!(Card::parse("As").unwrap().index(), 51);
        assert_eq!(Card::parse("BJ").unwrap().index(), 52);
        assert_eq!(Card::parse("RJ").unwrap().index(), 53);
        assert_eq!(Card::parse("Th").unwrap().pretty(), "10♥");
    }

    #[test]
    fn parses_packed_and_separated() {
        let a = parse_cards("AsKd10hBJ").unwrap();
        let b = parse_cards("As, Kd Th  BJ").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 4);
        assert!(parse_cards("AsKx").is_err());
    }

    #[test]
    fn refuses_more_than_any_deck() {
        assert_eq!(
            parse_cards(&"As".repeat(MAX_CARDS)).unwrap().len(),
            MAX_CARDS
        );
        assert!(parse_cards(&"As".repeat(MAX_CARDS + 1)).is_err());
        let err = parse_cards(&"As".repeat(100_000)).unwrap_err().to_string();
        assert!(err.len() < 300, "{err}");
        let err = parse_cards(&format!("{}Ax", "As".repeat(50))).unwrap_err();
        assert!(err.to_string().len() < 300, "{err}");
    }

    proptest! {
        #[test]
        fn round_trips(i in 0u32..54) {
            let c = Card::from_index(i).unwrap();
            prop_assert_eq!(Card::parse(&c.to_string()).unwrap(), c);
            prop_assert_eq!(Card::parse(&c.pretty()).unwrap(), c);
        }

        #[test]
        fn never_panics(s in "\\PC{0,8}") {
            let _ = Card::parse(&s);
            let _ = parse_cards(&s);
        }
    }
}
