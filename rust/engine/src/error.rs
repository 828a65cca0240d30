//! The engine's error enum. The Python bindings map each variant to one Python
//! exception class in a single place (`rust/python/src/errors.rs`).

use std::fmt;

/// Errors raised by engine code on bad input. Engine code never panics on
/// input-derived data; it returns one of these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// A card string or index that names no card.
    InvalidCard(String),
    /// A well-formed request that the rules forbid (with a readable reason).
    IllegalAction(String),
    /// A rule option, deck name or numeric parameter out of range.
    RuleOption(String),
    /// A long computation stopped early because its [`Cancel`](crate::cancel::Cancel)
    /// flag was set (Ctrl-C in Python); it has no result.
    Cancelled,
}

pub type Result<T> = std::result::Result<T, EngineError>;

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::InvalidCard(m)
            | EngineError::IllegalAction(m)
            | EngineError::RuleOption(m) => f.write_str(m),
            EngineError::Cancelled => f.write_str("the computation was cancelled"),
        }
    }
}

impl std::error::Error for EngineError {}

/// How many characters of a caller's input an error message quotes.
pub const QUOTE_LIMIT: usize = 80;

/// `text` quoted for an error message (`{:?}` form), cut to [`QUOTE_LIMIT`]
/// characters with the full length stated, so that a huge input never becomes a
/// huge message. Every engine message that echoes input text goes through here.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTE_LIMIT) {
        None => format!("{text:?}"),
        Some((end, _)) => format!(
            "{:?}... ({} characters)",
            &text[..end],
            text.chars().count()
        ),
    }
}

/// `shown` (already a repr or quoted form) cut to [`QUOTE_LIMIT`] characters with
/// the full length stated, for messages that echo a value's repr.
pub fn cut(shown: &str) -> String {
    match shown.char_indices().nth(QUOTE_LIMIT) {
        None => shown.to_string(),
        Some((end, _)) => format!(
            "{}... ({} characters)",
            &shown[..end],
            shown.chars().count()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_cuts_long_text() {
        assert_eq!(quoted("As"), "\"As\"");
        let long = "é".repeat(1000);
        let q = quoted(&long);
        assert!(q.len() < 200, "{q}");
        assert!(q.ends_with("... (1000 characters)"), "{q}");
        assert_eq!(cut("[1, 2]"), "[1, 2]");
        assert!(cut(&"x".repeat(500)).ends_with("... (500 characters)"));
    }
}
