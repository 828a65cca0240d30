//! Double-dummy bindings for Contract Bridge (`cardkit.bridge`): tables, the
//! batch call, per-card solving of a position and par; and the deal sampler of
//! the search agent's card play. Hands cross the boundary
//! as four card-set integers (bit `i` = card index `i`), N, E, S, W; the work runs
//! without the GIL on the engine's solver threads and stops on Ctrl-C between
//! units of work (one strain of one deal).

use crate::args::arg;
use crate::errors::IntoPyResult;
use crate::interrupt;
use crate::trick::{card_set, rule_error};
use cardkit_engine::cards::Card;
use cardkit_engine::cardset::CardSet;
use cardkit_engine::trick::bridge_sample::{self, HandConstraint, HiddenSeat};
use cardkit_engine::trick::dd::{self, DdTable, Position};
use pyo3::prelude::*;

/// A table's four declarers of one strain take ~5-40 ms of one core: every
/// table call runs on a worker thread that can stop on Ctrl-C.
const STRAIN_MICROS: u64 = 20_000;

fn hands_of(py: Python<'_>, name: &str, bits: [u64; 4]) -> PyResult<[CardSet; 4]> {
    let mut hands = [CardSet::EMPTY; 4];
    for (hand, b) in hands.iter_mut().zip(bits) {
        *hand = card_set(py, name, b)?;
    }
    Ok(hands)
}

fn thread_count(py: Python<'_>, threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(rule_error(py, "threads must be at least 1".into())),
        Some(n) => Ok(n.min(256)),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

fn flat(table: &DdTable) -> Vec<u8> {
    table.tricks.iter().flatten().copied().collect()
}

/// The 20 double-dummy results of a deal, declarer-major (`declarer * 5 + strain`).
#[pyfunction]
#[pyo3(signature = (hands, threads = None))]
fn dd_table(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hands: [u64; 4],
    #[pyo3(from_py_with = arg)] threads: Option<usize>,
) -> PyResult<Vec<u8>> {
    let hands = hands_of(py, "hands", hands)?;
    let threads = thread_count(py, threads)?;
    dd::check_deal(&hands).py_err(py)?;
    let micros = STRAIN_MICROS * dd::NUM_STRAINS as u64;
    let table = interrupt::run_sized(py, micros, |cancel| {
        dd::solve_table(&hands, threads, cancel)
    })?
    .py_err(py)?;
    Ok(flat(&table))
}

/// The double-dummy tables of many deals, each as `dd_table` gives it.
#[pyfunction]
#[pyo3(signature = (deals, threads = None))]
fn dd_tables(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] deals: Vec<[u64; 4]>,
    #[pyo3(from_py_with = arg)] threads: Option<usize>,
) -> PyResult<Vec<Vec<u8>>> {
    let deals = deals
        .into_iter()
        .map(|bits| hands_of(py, "deals", bits))
        .collect::<PyResult<Vec<_>>>()?;
    let threads = thread_count(py, threads)?;
    let micros = STRAIN_MICROS.saturating_mul(5 * deals.len() as u64);
    let tables = interrupt::run_sized(py, micros, |cancel| {
        dd::solve_tables(&deals, threads, cancel)
    })?
    .py_err(py)?;
    Ok(tables.iter().map(flat).collect())
}

fn position_of(
    py: Python<'_>,
    hands: [u64; 4],
    trump: u8,
    leader: usize,
    trick: &[u32],
) -> PyResult<Position> {
    let hands = hands_of(py, "hands", hands)?;
    let trick = trick
        .iter()
        .map(|&i| {
            if i >= 52 {
                Err(rule_error(
                    py,
                    format!("trick has card index {i}, expected 0..51"),
                ))
            } else {
                Card::from_index(i).py_err(py)
            }
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Position {
        hands,
        trump,
        leader,
        trick,
    })
}

/// A bound on one position's solve in microseconds: endings take microseconds,
/// a full hand about as long as one strain of a table.
fn position_micros(pos: &Position) -> u64 {
    let cards: u32 = pos.hands.iter().map(|h| h.len()).sum();
    if cards <= 16 {
        1_000
    } else {
        STRAIN_MICROS
    }
}

fn plays_out(plays: Vec<(Card, u8)>) -> Vec<(u8, u8)> {
    plays.into_iter().map(|(c, t)| (c.index(), t)).collect()
}

/// `(card index, tricks)` for each legal card of the seat to act in a position.
///
/// `tricks` counts the tricks its side takes from the current trick on.
#[pyfunction]
#[pyo3(signature = (hands, trump, leader, trick))]
fn dd_solve(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hands: [u64; 4],
    #[pyo3(from_py_with = arg)] trump: u8,
    #[pyo3(from_py_with = arg)] leader: usize,
    #[pyo3(from_py_with = arg)] trick: Vec<u32>,
) -> PyResult<Vec<(u8, u8)>> {
    let pos = position_of(py, hands, trump, leader, &trick)?;
    dd::check_position(&pos).py_err(py)?;
    let plays = interrupt::run_sized(py, position_micros(&pos), |_| dd::solve_position(&pos))?
        .py_err(py)?;
    Ok(plays_out(plays))
}

/// Each position's `dd_solve` answer, the positions spread over `threads`.
#[pyfunction]
#[pyo3(signature = (hands, trumps, leaders, tricks, threads = None))]
#[allow(clippy::type_complexity)]
fn dd_solve_many(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hands: Vec<[u64; 4]>,
    #[pyo3(from_py_with = arg)] trumps: Vec<u8>,
    #[pyo3(from_py_with = arg)] leaders: Vec<usize>,
    #[pyo3(from_py_with = arg)] tricks: Vec<Vec<u32>>,
    #[pyo3(from_py_with = arg)] threads: Option<usize>,
) -> PyResult<Vec<Vec<(u8, u8)>>> {
    let n = hands.len();
    if trumps.len() != n || leaders.len() != n || tricks.len() != n {
        return Err(rule_error(
            py,
            "hands, trumps, leaders and tricks must have one entry per position".into(),
        ));
    }
    let positions = (0..n)
        .map(|i| position_of(py, hands[i], trumps[i], leaders[i], &tricks[i]))
        .collect::<PyResult<Vec<_>>>()?;
    let threads = thread_count(py, threads)?;
    let micros = positions
        .iter()
        .fold(0u64, |acc, p| acc.saturating_add(position_micros(p)));
    let solved = interrupt::run_sized(py, micros, |cancel| {
        dd::solve_positions(&positions, threads, cancel)
    })?
    .py_err(py)?;
    Ok(solved.into_iter().map(plays_out).collect())
}

/// The par score and contracts of a deal from its 20 double-dummy results.
///
/// Contracts are `(level, strain, doubling, declarer, overtricks)`.
#[pyfunction]
#[pyo3(signature = (tricks, vulnerable, dealer))]
#[allow(clippy::type_complexity)]
fn dd_par(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] tricks: [u8; 20],
    #[pyo3(from_py_with = arg)] vulnerable: u8,
    #[pyo3(from_py_with = arg)] dealer: usize,
) -> PyResult<(i32, Vec<(u8, u8, u8, usize, i8)>)> {
    let mut table = DdTable::default();
    for (k, &t) in tricks.iter().enumerate() {
        table.tricks[k / dd::NUM_STRAINS][k % dd::NUM_STRAINS] = t;
    }
    let par = dd::par(&table, vulnerable, dealer).py_err(py)?;
    let contracts = par
        .contracts
        .iter()
        .map(|c| (c.level, c.strain, c.doubling, c.declarer, c.overtricks))
        .collect();
    Ok((par.score, contracts))
}

/// The most deals one `bridge_sample_deals` call draws.
const MAX_SAMPLES: usize = 100_000;

/// Deals of the unseen cards to a position's hidden seats, uniform over those that fit.
///
/// Each hidden seat `i` has played `played[i]` (a card-set int), shown out of the
/// suits of `voids[i]` (bit 0 clubs .. bit 3 spades), and the auction showed
/// `hcp[i]`, `lengths[i]` (clubs .. spades) and `balanced[i]` of its hand as dealt.
/// `budget` tries per deal, then the point ranges go, then the shapes; the second
/// value returned says how far (0, 1, 2). Runs without the GIL, stops on Ctrl-C.
#[pyfunction]
#[pyo3(signature = (unseen, played, voids, hcp, lengths, balanced, samples, seed, budget = 20_000))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn bridge_sample_deals(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] unseen: u64,
    #[pyo3(from_py_with = arg)] played: Vec<u64>,
    #[pyo3(from_py_with = arg)] voids: Vec<u8>,
    #[pyo3(from_py_with = arg)] hcp: Vec<(u8, u8)>,
    #[pyo3(from_py_with = arg)] lengths: Vec<[(u8, u8); 4]>,
    #[pyo3(from_py_with = arg)] balanced: Vec<bool>,
    #[pyo3(from_py_with = arg)] samples: usize,
    #[pyo3(from_py_with = arg)] seed: u64,
    #[pyo3(from_py_with = arg)] budget: u64,
) -> PyResult<(Vec<Vec<u64>>, u8)> {
    let n = played.len();
    if voids.len() != n || hcp.len() != n || lengths.len() != n || balanced.len() != n {
        return Err(rule_error(
            py,
            "played, voids, hcp, lengths and balanced must have one entry per hidden seat".into(),
        ));
    }
    if !(1..=MAX_SAMPLES).contains(&samples) {
        return Err(rule_error(
            py,
            format!("samples must be in 1..={MAX_SAMPLES}, got {samples}"),
        ));
    }
    let unseen = card_set(py, "unseen", unseen)?;
    let hidden = (0..n)
        .map(|i| {
            Ok(HiddenSeat {
                played: card_set(py, "played", played[i])?,
                voids: voids[i],
                shows: HandConstraint {
                    hcp: hcp[i],
                    lengths: lengths[i],
                    balanced: balanced[i],
                },
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    // Up to three levels of `budget` tries per deal, about a microsecond each.
    let micros = budget.saturating_mul(3).saturating_mul(samples as u64);
    let found = interrupt::run_sized(py, micros, |cancel| {
        bridge_sample::sample_deals(unseen, &hidden, samples, seed, budget, cancel)
    })?
    .py_err(py)?;
    let deals = found
        .deals
        .iter()
        .map(|deal| deal.iter().map(|hand| hand.0).collect())
        .collect();
    Ok((deals, found.relaxed))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bridge_sample_deals, m)?)?;
    m.add_function(wrap_pyfunction!(dd_table, m)?)?;
    m.add_function(wrap_pyfunction!(dd_tables, m)?)?;
    m.add_function(wrap_pyfunction!(dd_solve, m)?)?;
    m.add_function(wrap_pyfunction!(dd_solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(dd_par, m)?)?;
    Ok(())
}
