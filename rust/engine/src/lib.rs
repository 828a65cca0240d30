//! cardkit-engine: the hot, pure-Rust half of cardkit.
//!
//! Everything here is independent of Python so it can be tested, benchmarked and
//! reused without an interpreter. The `cardkit-python` crate is a thin binding layer.

pub mod betting;
pub mod cancel;
pub mod cards;
pub mod cardset;
pub mod chinese_poker;
pub mod climbing;
pub mod deck;
pub mod error;
pub mod holdem;
pub mod poker;
pub mod rng;
pub mod search;
pub mod trick;
pub mod vector;

pub use cancel::Cancel;
pub use cards::Card;
pub use cardset::{CardCounts, CardSet};
pub use error::{EngineError, Result};
