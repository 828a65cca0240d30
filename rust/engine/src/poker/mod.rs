//! Poker mathematics: hand evaluation (5, 6 and 7 cards, and 3-card Chinese Poker
//! front hands on the same scale), ranges of starting hands and equity.
//!
//! Every hand maps to a [`HandRank`]; a higher rank is a better hand, equal ranks
//! split the pot (suits never break ties). See `eval` for the table design.

mod batch;
mod deals;
mod equity;
mod eval;
mod exact;
mod ranges;

pub use batch::{rank_rows, rank_rows_cancellable, rank_rows_into};
pub use equity::{equity, EquityResult, Method, PlayerEquity, Problem, MAX_PLAYERS, MC_CHUNK};
pub use eval::{
    best_five, for_each_hand, rank5, rank7, rank_cards, rank_front, rank_set, Category, HandKey,
    HandRank,
};
pub use ranges::{Combo, Range, RangeError};

/// Most threads an equity run or a batch evaluation starts, whatever `threads`
/// asks: results never depend on the count, and thousands of threads would only
/// add start-up cost (or fail to start).
pub const MAX_THREADS: usize = 256;
