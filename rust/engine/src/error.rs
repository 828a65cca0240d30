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
