//! 13-card Chinese Poker (seed `004_b4f6f7483e8a959c.txt`, clauses CP-*).
//!
//! - [`splits`]: the 72,072 ways to split 13 cards into front 3 / middle 5 / back 5;
//! - [`automatic`]: automatic wins (Dragon, six pairs, three flushes, three straights);
//! - [`arrange`]: ranking a hand's segments once (via the poker evaluator's
//!   five-card and front-hand ranks), properness, the greedy arranger;
//! - [`solver`]: the two-stage Monte Carlo solver;
//! - [`scoring`]: pairwise scoring kernels for the basic, eastern, western and
//!   mandarin point systems.

pub mod arrange;
pub mod automatic;
pub mod scoring;
pub mod solver;
pub mod splits;

pub use arrange::{is_proper, Arrangement, HandTable};
pub use automatic::{automatic_wins, AutomaticWin};
pub use scoring::{Entry, Made, Majority, Rules, SegmentHand, SetHands, ShotScoring, Variant};
pub use solver::{solve, Solution, SolverOptions};
