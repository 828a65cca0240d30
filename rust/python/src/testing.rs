//! Test-only bindings: the engine's side of rules that also have a production home
//! in the Python game modules (the search scores deals in Rust, the game flow in
//! Python). Differential tests drive both on the same games and compare them, so a
//! change to either side fails a test. Also readouts of engine internals that
//! benches print (how a vector env's threads shared their work).
//!
//! Registered in the private submodule `cardkit._core._test` (as the bench-only
//! helpers are in `cardkit._core._bench`): outside `__all__` and `_core.pyi`, and
//! not part of the API.

use crate::climbing::PyClimbingDeal;
use crate::errors::IntoPyResult;
use crate::trick::{card_set, check_bags, rule_error};
use crate::vector::PyVectorEnv;
use cardkit_engine::climbing::playout::zsy_penalty;
use cardkit_engine::climbing::Ranks;
use cardkit_engine::CardSet;
use pyo3::prelude::*;

/// Each seat's score of a finished climbing deal as the search counts it
/// (`Deal::scores`: Dou Dizhu bid x multiplier, Zheng Shangyou penalties and bomb
/// bonuses); zeros before the deal is over.
#[pyfunction(name = "climbing_scores")]
fn climbing_scores(deal: PyRef<'_, PyClimbingDeal>) -> [i32; 3] {
    deal.play.deal().scores()
}

/// The Zheng Shangyou card penalty of a loser holding `hand` (rank text), as the
/// search counts it (`zsy_penalty`).
#[pyfunction(name = "zsy_penalty")]
fn zsy_penalty_of(py: Python<'_>, hand: &str, never_played: bool) -> PyResult<i32> {
    let ranks = Ranks::parse(hand).py_err(py)?;
    Ok(zsy_penalty(&ranks, never_played))
}

/// Hearts deal points for the cards each seat took (bitsets of the 52-card pack), as
/// the search counts them (`hearts::deal_points`, moon shooting included).
#[pyfunction(name = "hearts_deal_points")]
fn hearts_deal_points(py: Python<'_>, taken: [u64; 4]) -> PyResult<[i32; 4]> {
    let all = taken.iter().fold(0u64, |seen, &t| seen | t);
    if taken.iter().map(|t| t.count_ones()).sum::<u32>() != all.count_ones() {
        return Err(rule_error(py, "taken cards must be disjoint".into()));
    }
    card_set(py, "taken", all)?;
    Ok(cardkit_engine::trick::hearts::deal_points(
        &taken.map(CardSet),
    ))
}

/// The Spades deal score of one partnership, `(points, bags after)`, as the search
/// counts it (`spades::team_score`).
#[pyfunction(name = "spades_team_score")]
fn spades_team_score(
    py: Python<'_>,
    bids: [u8; 2],
    tricks: [u8; 2],
    bags: u32,
) -> PyResult<(i32, u32)> {
    if bids.iter().chain(tricks.iter()).any(|&x| x > 13) {
        return Err(rule_error(py, "bids and tricks must be 0..13".into()));
    }
    check_bags(py, &[bags])?;
    let s = cardkit_engine::trick::spades::team_score(bids, tricks, bags);
    Ok((s.points, s.bags))
}

/// Each thread's work over a vector env's calls so far, as `(busy seconds, CPU
/// seconds, slots stepped, calls)`, helpers first and the calling thread last: the
/// bench's readout of how the threads shared the slots, in CPU time as well as
/// wall time.
#[pyfunction(name = "vector_thread_busy")]
fn vector_thread_busy(env: PyRef<'_, PyVectorEnv>) -> Vec<(f64, f64, u64, u64)> {
    env.thread_busy()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(climbing_scores, m)?)?;
    m.add_function(wrap_pyfunction!(zsy_penalty_of, m)?)?;
    m.add_function(wrap_pyfunction!(hearts_deal_points, m)?)?;
    m.add_function(wrap_pyfunction!(spades_team_score, m)?)?;
    m.add_function(wrap_pyfunction!(vector_thread_busy, m)?)?;
    Ok(())
}
