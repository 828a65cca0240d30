//! Ranges of Texas Hold'em starting hands in the usual notation:
//! `"QQ+, AKs, A5s-A2s, KQo, T9s+, AhKh, 22-55, AKs:0.5, random"`.
//!
//! Tokens are separated by commas (spaces around them are ignored):
//! - a pair `QQ` (6 combos), a suited `AKs` (4), an offsuit `AKo` (12) or both `AK` (16);
//! - `+`: pairs climb to aces (`QQ+` = QQ, KK, AA); other hands raise the lower
//!   card up to one below the higher (`A9s+` = A9s..AKs, so `T9s+` is just T9s);
//! - `X-Y` spans: pairs (`22-55`), a fixed top card (`A5s-A2s`) or a fixed gap
//!   (`JTs-76s`), endpoints in either order;
//! - a specific combo `AhKh`;
//! - `random` or `*`: all 1,326 combos;
//! - `:w` after any token sets its weight, `0 <= w <= 1` (default 1); a combo named
//!   twice keeps the weight of the last token that names it.
//!
//! An empty token (a comma at either end, or two commas in a row) is an error,
//! as is a range of no tokens: a stray comma is more likely a typo than intent.

use crate::cards::{Card, RANK_CHARS};
use crate::cardset::CardSet;
use crate::error::cut;
use std::collections::BTreeMap;
use std::fmt;

/// A range that does not parse, with the offending token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeError {
    pub token: String,
    pub message: String,
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid range token {:?}: {}",
            cut(&self.token),
            self.message
        )
    }
}

impl std::error::Error for RangeError {}

/// Two hole cards, the higher index first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Combo(pub Card, pub Card);

impl Combo {
    pub fn new(a: Card, b: Card) -> Combo {
        if a > b {
            Combo(a, b)
        } else {
            Combo(b, a)
        }
    }

    pub fn set(self) -> CardSet {
        CardSet::EMPTY.with(self.0).with(self.1)
    }
}

impl fmt::Display for Combo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

/// A weighted set of starting hands.
#[derive(Clone, Debug)]
pub struct Range {
    /// Combos with a positive weight, in ascending combo order.
    combos: Vec<(Combo, f64)>,
    /// The text it was parsed from (named in error messages).
    text: String,
}

/// Ranges are equal when they weigh every combo alike, however they were written.
impl PartialEq for Range {
    fn eq(&self, other: &Range) -> bool {
        self.combos == other.combos
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Suitedness {
    Suited,
    Offsuit,
    Any,
}

/// A hand class such as `AKs` or `QQ`: ranks 0..=12, high first.
#[derive(Clone, Copy)]
struct Class {
    high: u8,
    low: u8,
    suited: Suitedness,
}

fn rank_of(c: char) -> Option<u8> {
    let up = c.to_ascii_uppercase();
    RANK_CHARS.iter().position(|&r| r == up).map(|p| p as u8)
}

fn parse_class(text: &str) -> Option<Class> {
    let chars: Vec<char> = text.chars().collect();
    let (a, b) = (rank_of(*chars.first()?)?, rank_of(*chars.get(1)?)?);
    let suited = match chars.get(2).map(|c| c.to_ascii_lowercase()) {
        None => Suitedness::Any,
        Some('s') => Suitedness::Suited,
        Some('o') => Suitedness::Offsuit,
        Some(_) => return None,
    };
    if chars.len() > 3 || (a == b && suited != Suitedness::Any) {
        return None;
    }
    Some(Class {
        high: a.max(b),
        low: a.min(b),
        suited,
    })
}

fn class_combos(class: Class, out: &mut Vec<Combo>) {
    for s1 in 0..4u8 {
        for s2 in 0..4u8 {
            let card1 = Card::new(class.high, s1);
            let card2 = Card::new(class.low, s2);
            let keep = if class.high == class.low {
                s1 < s2
            } else {
                match class.suited {
                    Suitedness::Suited => s1 == s2,
                    Suitedness::Offsuit => s1 != s2,
                    Suitedness::Any => true,
                }
            };
            if keep {
                out.push(Combo::new(card1, card2));
            }
        }
    }
}

/// Longest token body (without its weight) worth parsing as cards.
const MAX_BODY: usize = 16;

fn expand(body: &str) -> Result<Vec<Combo>, String> {
    let mut combos = Vec::new();
    if body == "*" || body.eq_ignore_ascii_case("random") {
        for a in 0..52u32 {
            for b in 0..a {
                if let (Ok(x), Ok(y)) = (Card::from_index(a), Card::from_index(b)) {
                    combos.push(Combo::new(x, y));
                }
            }
        }
        return Ok(combos);
    }
    if let Some(base) = body.strip_suffix('+') {
        let class =
            parse_class(base).ok_or("expected a hand class before '+' such as QQ+ or A9s+")?;
        if class.high == class.low {
            for r in class.high..13 {
                class_combos(
                    Class {
                        high: r,
                        low: r,
                        ..class
                    },
                    &mut combos,
                );
            }
        } else {
            for low in class.low..class.high {
                class_combos(Class { low, ..class }, &mut combos);
            }
        }
        return Ok(combos);
    }
    if let Some((from, to)) = body.split_once('-') {
        let (a, b) = parse_class(from)
            .zip(parse_class(to))
            .ok_or("expected two hand classes around '-' such as 22-55 or A5s-A2s")?;
        if a.suited != b.suited {
            return Err("both ends of a span must have the same suitedness".into());
        }
        let (lo, hi) = if (a.high, a.low) <= (b.high, b.low) {
            (a, b)
        } else {
            (b, a)
        };
        if lo.high == lo.low && hi.high == hi.low {
            for r in lo.high..=hi.high {
                class_combos(
                    Class {
                        high: r,
                        low: r,
                        ..lo
                    },
                    &mut combos,
                );
            }
        } else if lo.high == hi.high && lo.low != lo.high && hi.low != hi.high {
            for low in lo.low..=hi.low {
                class_combos(Class { low, ..lo }, &mut combos);
            }
        } else if lo.high - lo.low == hi.high - hi.low && lo.high != lo.low {
            for shift in 0..=(hi.high - lo.high) {
                let class = Class {
                    high: lo.high + shift,
                    low: lo.low + shift,
                    ..lo
                };
                class_combos(class, &mut combos);
            }
        } else {
            return Err(
                "a span needs pairs, the same top card or the same gap at both ends".into(),
            );
        }
        return Ok(combos);
    }
    if let Some(class) = parse_class(body) {
        class_combos(class, &mut combos);
        return Ok(combos);
    }
    // Every valid token is short ("A5s-A2s", "10h9h"): a long one is refused
    // before card parsing looks at it.
    if body.len() > MAX_BODY {
        return Err("not a hand class, span or combo".into());
    }
    let cards = crate::cards::parse_cards(body).map_err(|_| "not a hand class, span or combo")?;
    match cards[..] {
        [a, b] if a != b && !a.is_joker() && !b.is_joker() => Ok(vec![Combo::new(a, b)]),
        _ => Err("a specific combo needs two different cards such as AhKh".into()),
    }
}

impl Range {
    /// Parse a range; the error names the first bad token.
    pub fn parse(text: &str) -> Result<Range, RangeError> {
        let mut weights: BTreeMap<Combo, f64> = BTreeMap::new();
        if text.trim().is_empty() {
            return Err(RangeError {
                token: text.to_string(),
                message: "empty range".into(),
            });
        }
        let mut at = 0;
        for raw in text.split(',') {
            let token = raw.trim();
            let start = at;
            at += raw.len() + 1;
            if token.is_empty() {
                return Err(RangeError {
                    token: String::new(),
                    message: format!(
                        "empty token at character {} of {:?} (a comma at either end or two commas in a row)",
                        text[..start].chars().count() + 1,
                        cut(text)
                    ),
                });
            }
            let error = |message: String| RangeError {
                token: token.to_string(),
                message,
            };
            let (body, weight) = match token.split_once(':') {
                None => (token, 1.0),
                Some((body, w)) => {
                    let w: f64 = w.trim().parse().map_err(|_| {
                        error(format!("weight {:?} is not a number", cut(w.trim())))
                    })?;
                    if !(0.0..=1.0).contains(&w) {
                        return Err(error(format!("weight {w} is outside 0..1")));
                    }
                    (body.trim(), w)
                }
            };
            for combo in expand(body).map_err(error)? {
                weights.insert(combo, weight);
            }
        }
        Ok(Range {
            combos: weights.into_iter().filter(|&(_, w)| w > 0.0).collect(),
            text: text.to_string(),
        })
    }

    /// A range holding exactly one combo.
    pub fn single(combo: Combo) -> Range {
        Range {
            combos: vec![(combo, 1.0)],
            text: combo.to_string(),
        }
    }

    /// The text the range was parsed from (the combo, for [`Range::single`]).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The weighted combos, ascending.
    pub fn combos(&self) -> &[(Combo, f64)] {
        &self.combos
    }

    /// The weighted combos that use no card of `dead`.
    pub fn live_combos(&self, dead: CardSet) -> Vec<(Combo, f64)> {
        self.combos
            .iter()
            .filter(|(c, _)| c.set().intersection(dead).is_empty())
            .copied()
            .collect()
    }

    pub fn len(&self) -> usize {
        self.combos.len()
    }

    pub fn is_empty(&self) -> bool {
        self.combos.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn count(text: &str) -> usize {
        Range::parse(text).unwrap().len()
    }

    #[test]
    fn counts_of_the_usual_notation() {
        assert_eq!(count("QQ+"), 18);
        assert_eq!(count("AKs"), 4);
        assert_eq!(count("AKo"), 12);
        assert_eq!(count("AK"), 16);
        assert_eq!(count("A5s-A2s"), 16);
        assert_eq!(count("A2s-A5s"), 16);
        assert_eq!(count("KQo"), 12);
        assert_eq!(count("T9s+"), 4);
        assert_eq!(count("A9s+"), 20);
        assert_eq!(count("AhKh"), 1);
        assert_eq!(count("22-55"), 24);
        assert_eq!(count("JTs-76s"), 20);
        assert_eq!(count("random"), 1326);
        assert_eq!(count("*"), 1326);
        assert_eq!(
            count("QQ+, AKs, A5s-A2s, KQo, T9s+, AhKh, 22-55"),
            18 + 4 + 16 + 12 + 4 + 24
        );
        assert_eq!(count("AKs:0, QQ"), 6);
    }

    #[test]
    fn weights_and_overrides() {
        let r = Range::parse("AKs:0.5, AhKh").unwrap();
        let ah_kh = Combo::new(Card::parse("Ah").unwrap(), Card::parse("Kh").unwrap());
        for &(c, w) in r.combos() {
            assert_eq!(w, if c == ah_kh { 1.0 } else { 0.5 });
        }
    }

    #[test]
    fn dead_cards_remove_combos() {
        let r = Range::parse("AA").unwrap();
        let dead = CardSet::from_cards(parse_cards("As").unwrap());
        assert_eq!(r.live_combos(dead).len(), 3);
    }

    #[test]
    fn errors_name_the_token() {
        for (text, token) in [
            ("QQ+, AKx", "AKx"),
            ("AAs", "AAs"),
            ("A5s-K3s", "A5s-K3s"),
            ("AKs:2", "AKs:2"),
            ("AKs:x", "AKs:x"),
            ("AhAh", "AhAh"),
            ("22-A5o", "22-A5o"),
            ("", ""),
            ("  ", "  "),
            ("Z+", "Z+"),
            ("AA,,KK", ""),
            (",", ""),
            ("AA,", ""),
            (", AA", ""),
        ] {
            let err = Range::parse(text).unwrap_err();
            assert_eq!(err.token, token, "{text}: {err}");
            assert!(err.to_string().contains(&format!("{token:?}")));
        }
        let err = Range::parse("AA, ,KK").unwrap_err();
        assert!(err.to_string().contains("character 4"), "{err}");
    }

    #[test]
    fn messages_cut_long_input() {
        let long = "A".repeat(5000);
        let err = Range::parse(&long).unwrap_err();
        assert!(err.to_string().len() < 200, "{err}");
        let err = Range::parse(&format!("{},,", "AA,".repeat(2000))).unwrap_err();
        assert!(err.to_string().len() < 300, "{err}");
    }
}
