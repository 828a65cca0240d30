//! 13-card Chinese Poker (seed `004_b4f6f7483e8a959c.txt`, clauses CP-*).
//!
//! - [`splits`]: the 72,072 ways to split 13 cards into front 3 / middle 5 / back 5;
//! - [`automatic`]: automatic wins (Dragon, six pairs, three flushes, three straights);
//! - [`scoring`]: pairwise scoring kernels for the basic, eastern, western and
//!   mandarin point systems.

pub mod automatic;
pub mod scoring;
pub mod splits;

pub use automatic::{automatic_wins, AutomaticWin};
pub use scoring::{Entry, Made, Majority, Rules, SegmentHand, SetHands, ShotScoring, Variant};
