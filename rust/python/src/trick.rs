//! The trick-taking core: trick winners, and Hearts/Spades determinized search and
//! playouts for the AI (run with the GIL released).
//!
//! Card sets cross the boundary as integers (bit `i` = card index `i`, as
//! `Card.index`) so per-decision calls stay cheap.

use crate::cards::extract_card;
use crate::errors::{to_py, IntoPyResult};
use cardkit_engine::cards::Card;
use cardkit_engine::cardset::CardSet;
use cardkit_engine::rng::CardRng;
use cardkit_engine::trick::hearts::{HeartsDeal, HeartsView};
use cardkit_engine::trick::spades::{SpadesDeal, SpadesView};
use cardkit_engine::trick::{self, HiddenHands, PlayoutPolicy};
use cardkit_engine::EngineError;
use pyo3::prelude::*;

fn rule_error(py: Python<'_>, why: String) -> PyErr {
    to_py(py, EngineError::RuleOption(why))
}

fn suit_index(py: Python<'_>, suit: Option<&str>) -> PyResult<Option<u8>> {
    match suit {
        None => Ok(None),
        Some(s) => match s {
            "c" => Ok(Some(0)),
            "d" => Ok(Some(1)),
            "h" => Ok(Some(2)),
            "s" => Ok(Some(3)),
            _ => Err(rule_error(
                py,
                format!("trump {s:?} must be one of c, d, h, s or None"),
            )),
        },
    }
}

fn card_set(py: Python<'_>, name: &str, bits: u64) -> PyResult<CardSet> {
    if bits >> 52 != 0 {
        return Err(rule_error(
            py,
            format!("{name} has bits outside the 52-card pack"),
        ));
    }
    Ok(CardSet(bits))
}

fn card_list(py: Python<'_>, name: &str, indices: &[u32]) -> PyResult<Vec<Card>> {
    indices
        .iter()
        .map(|&i| {
            if i >= 52 {
                Err(rule_error(
                    py,
                    format!("{name} has card index {i}, expected 0..51"),
                ))
            } else {
                Card::from_index(i).py_err(py)
            }
        })
        .collect()
}

fn policy(py: Python<'_>, epsilon: f64) -> PyResult<PlayoutPolicy> {
    if epsilon.is_nan() || !(0.0..=1.0).contains(&epsilon) {
        return Err(rule_error(py, format!("epsilon {epsilon} must be in 0..1")));
    }
    Ok(if epsilon >= 1.0 {
        PlayoutPolicy::Random
    } else {
        PlayoutPolicy::Heuristic(epsilon)
    })
}

/// The unplayed-card picture and the deal skeleton shared by both searches.
struct SearchInput {
    hidden: HiddenHands,
    leader: usize,
    trick: Vec<Card>,
    candidates: Vec<Card>,
}

#[allow(clippy::too_many_arguments)]
fn search_input(
    py: Python<'_>,
    seat: usize,
    known: [u64; 4],
    unknown: u64,
    sizes: [u32; 4],
    voids: [u8; 4],
    leader: usize,
    trick: &[u32],
    played: u64,
    candidates: &[u32],
) -> PyResult<SearchInput> {
    let mut known_sets = [CardSet::EMPTY; 4];
    for (p, &bits) in known.iter().enumerate() {
        known_sets[p] = card_set(py, "known", bits)?;
    }
    if leader >= 4 || trick.len() >= 4 {
        return Err(rule_error(
            py,
            "leader must be 0..3 and the trick hold 0..3 cards".into(),
        ));
    }
    if voids.iter().any(|&v| v >= 16) || sizes.iter().any(|&s| s > 13) {
        return Err(rule_error(
            py,
            "voids are 4-bit suit masks and sizes at most 13".into(),
        ));
    }
    let hidden = HiddenHands {
        known: known_sets,
        unknown: card_set(py, "unknown", unknown)?,
        sizes,
        voids,
    };
    let trick = card_list(py, "trick", trick)?;
    let candidates = card_list(py, "candidates", candidates)?;
    let played = [
        card_set(py, "played", played)?,
        CardSet::from_cards(trick.iter().copied()),
    ];
    trick::check_view(&hidden, seat, &played, &candidates).py_err(py)?;
    if (leader + trick.len()) % 4 != seat {
        return Err(rule_error(
            py,
            format!("seat {seat} is not the seat to act"),
        ));
    }
    Ok(SearchInput {
        hidden,
        leader,
        trick,
        candidates,
    })
}

/// The position (0-based, in play order) of the card that wins `cards`.
#[pyfunction]
#[pyo3(signature = (cards, trump = None))]
fn trick_winner(
    py: Python<'_>,
    cards: Vec<Bound<'_, PyAny>>,
    trump: Option<&str>,
) -> PyResult<usize> {
    let trump = suit_index(py, trump)?;
    let cards: Vec<Card> = cards.iter().map(extract_card).collect::<PyResult<_>>()?;
    if cards.is_empty() || cards.iter().any(|c| c.is_joker()) {
        return Err(rule_error(
            py,
            "a trick needs at least one card and no jokers".into(),
        ));
    }
    Ok(trick::trick_winner(&cards, trump))
}

/// Average `mean(points) - points[seat]` of each Hearts candidate over sampled deals.
#[pyfunction]
#[pyo3(signature = (seat, known, unknown, sizes, voids, leader, trick, taken, broken, tricks_played, candidates, worlds, seed, epsilon = 0.1))]
#[allow(clippy::too_many_arguments)]
fn hearts_search(
    py: Python<'_>,
    seat: usize,
    known: [u64; 4],
    unknown: u64,
    sizes: [u32; 4],
    voids: [u8; 4],
    leader: usize,
    trick: Vec<u32>,
    taken: [u64; 4],
    broken: bool,
    tricks_played: u32,
    candidates: Vec<u32>,
    worlds: u32,
    seed: u64,
    epsilon: f64,
) -> PyResult<Vec<f64>> {
    let policy = policy(py, epsilon)?;
    let mut taken_sets = [CardSet::EMPTY; 4];
    let mut played = 0u64;
    for (p, &bits) in taken.iter().enumerate() {
        taken_sets[p] = card_set(py, "taken", bits)?;
        played |= bits;
    }
    if tricks_played > 12 {
        return Err(rule_error(py, "tricks_played must be 0..12".into()));
    }
    let input = search_input(
        py,
        seat,
        known,
        unknown,
        sizes,
        voids,
        leader,
        &trick,
        played,
        &candidates,
    )?;
    let view = HeartsView {
        seat,
        hidden: input.hidden,
        deal: HeartsDeal {
            hands: [CardSet::EMPTY; 4],
            leader: input.leader,
            trick: input.trick,
            taken: taken_sets,
            broken,
            tricks_played,
        },
    };
    let cands = input.candidates;
    Ok(py.detach(move || view.evaluate(&cands, worlds, seed, policy)))
}

/// Average (own team's deal points - the other team's) of each Spades candidate.
#[pyfunction]
#[pyo3(signature = (seat, known, unknown, sizes, voids, leader, trick, played, bids, tricks, bags, broken, candidates, worlds, seed, epsilon = 0.1))]
#[allow(clippy::too_many_arguments)]
fn spades_search(
    py: Python<'_>,
    seat: usize,
    known: [u64; 4],
    unknown: u64,
    sizes: [u32; 4],
    voids: [u8; 4],
    leader: usize,
    trick: Vec<u32>,
    played: u64,
    bids: [u8; 4],
    tricks: [u8; 4],
    bags: [u32; 2],
    broken: bool,
    candidates: Vec<u32>,
    worlds: u32,
    seed: u64,
    epsilon: f64,
) -> PyResult<Vec<f64>> {
    let policy = policy(py, epsilon)?;
    if bids.iter().any(|&b| b > 13) || tricks.iter().map(|&t| u32::from(t)).sum::<u32>() > 12 {
        return Err(rule_error(
            py,
            "bids must be 0..13 and at most 12 tricks played".into(),
        ));
    }
    let input = search_input(
        py,
        seat,
        known,
        unknown,
        sizes,
        voids,
        leader,
        &trick,
        played,
        &candidates,
    )?;
    let tricks_played = tricks.iter().map(|&t| u32::from(t)).sum();
    let view = SpadesView {
        seat,
        hidden: input.hidden,
        deal: SpadesDeal {
            hands: [CardSet::EMPTY; 4],
            bids,
            leader: input.leader,
            trick: input.trick,
            tricks,
            broken,
            tricks_played,
        },
        bags,
    };
    let cands = input.candidates;
    Ok(py.detach(move || view.evaluate(&cands, worlds, seed, policy)))
}

/// Play `deals` random Hearts deals (no passing) to the end; each seat's total points.
#[pyfunction]
#[pyo3(signature = (deals, seed, epsilon = 1.0))]
fn hearts_playouts(py: Python<'_>, deals: u64, seed: u64, epsilon: f64) -> PyResult<[i64; 4]> {
    let policy = policy(py, epsilon)?;
    Ok(py.detach(move || {
        let mut rng = CardRng::new(seed);
        let mut totals = [0i64; 4];
        for _ in 0..deals {
            let mut deal = HeartsDeal::random(&mut rng);
            trick::playout(&mut deal, policy, &mut rng);
            for (t, p) in totals.iter_mut().zip(deal.points()) {
                *t += i64::from(p);
            }
        }
        totals
    }))
}

/// Play `deals` random Spades deals (every seat bids `bid`) to the end; each seat's tricks.
#[pyfunction]
#[pyo3(signature = (deals, seed, bid = 3, epsilon = 1.0))]
fn spades_playouts(
    py: Python<'_>,
    deals: u64,
    seed: u64,
    bid: u8,
    epsilon: f64,
) -> PyResult<[i64; 4]> {
    let policy = policy(py, epsilon)?;
    if bid > 13 {
        return Err(rule_error(py, format!("bid {bid} must be 0..13")));
    }
    Ok(py.detach(move || {
        let mut rng = CardRng::new(seed);
        let mut totals = [0i64; 4];
        for _ in 0..deals {
            let mut deal = SpadesDeal::random([bid; 4], &mut rng);
            trick::playout(&mut deal, policy, &mut rng);
            for (t, p) in totals.iter_mut().zip(deal.tricks) {
                *t += i64::from(p);
            }
        }
        totals
    }))
}

/// Deal score of one partnership: `(points, bags after)` for its two bids and tricks.
#[pyfunction]
fn spades_team_score(
    py: Python<'_>,
    bids: [u8; 2],
    tricks: [u8; 2],
    bags: u32,
) -> PyResult<(i32, u32)> {
    if bids.iter().chain(tricks.iter()).any(|&x| x > 13) {
        return Err(rule_error(py, "bids and tricks must be 0..13".into()));
    }
    let s = cardkit_engine::trick::spades::team_score(bids, tricks, bags);
    Ok((s.points, s.bags))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(trick_winner, m)?)?;
    m.add_function(wrap_pyfunction!(hearts_search, m)?)?;
    m.add_function(wrap_pyfunction!(spades_search, m)?)?;
    m.add_function(wrap_pyfunction!(hearts_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(spades_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(spades_team_score, m)?)?;
    Ok(())
}
