//! The trick-taking core: trick winners, the Hearts/Spades/Bridge deal the Python
//! State API steps card by card (`TrickDeal`), Bridge's duplicate score, and determinized search and playouts for
//! the AI (run on a worker thread that stops on Ctrl-C, see `interrupt`).
//!
//! Card sets cross the boundary as integers (bit `i` = card index `i`, as
//! `Card.index`) so per-decision calls stay cheap.

use crate::args::{arg, Cards};
use crate::cards::repr_of;
use crate::errors::{to_py, IntoPyResult};
use crate::interrupt;
use cardkit_engine::cards::Card;
use cardkit_engine::cardset::CardSet;
use cardkit_engine::rng::CardRng;
use cardkit_engine::trick::bridge::{self, Auction, BridgeDeal, Contract};
use cardkit_engine::trick::endgame::{self, Endgame};
use cardkit_engine::trick::hearts::{self, HeartsDeal, HeartsObjective, HeartsPolicy, PlayReading};
use cardkit_engine::trick::observe::{self, BridgeInfo, HeartsInfo, Position, SpadesInfo};
use cardkit_engine::trick::spades::{self, SpadesDeal, SpadesObjective};
use cardkit_engine::trick::tractor::endgame as tractor_endgame;
use cardkit_engine::trick::{
    self, HiddenHands, PlayoutPolicy, SearchView, SteppedDeal, TrickPlay, TrickTable,
};
use cardkit_engine::EngineError;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList};

pub(crate) fn rule_error(py: Python<'_>, why: String) -> PyErr {
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

pub(crate) fn card_set(py: Python<'_>, name: &str, bits: u64) -> PyResult<CardSet> {
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

/// The unplayed-card picture and the table shared by both searches.
struct SearchInput {
    seat: usize,
    hidden: HiddenHands,
    table: TrickTable,
    candidates: Vec<Card>,
}

impl SearchInput {
    /// The view of `deal` (its hands are sampled per world) for the searching seat.
    fn view<G: TrickPlay>(self, mut deal: G) -> (SearchView<G>, Vec<Card>) {
        *deal.table_mut() = self.table;
        let view = SearchView {
            seat: self.seat,
            hidden: self.hidden,
            deal,
        };
        (view, self.candidates)
    }
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
    broken: bool,
    tricks_played: u32,
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
        avoid: [CardSet::EMPTY; 4],
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
    let mut table = TrickTable::new([CardSet::EMPTY; 4], leader);
    table.set_trick(&trick);
    table.broken = broken;
    table.tricks_played = tricks_played;
    Ok(SearchInput {
        seat,
        hidden,
        table,
        candidates,
    })
}

/// A whole random playout of a deal takes ~2.3 us (heuristic ~1.1), and sampling a
/// world about as much again.
const PLAYOUT_MICROS: u64 = 3;

/// A bound on a search's time in microseconds: a sampled world and a playout per
/// candidate, for each world.
fn search_micros(worlds: u32, candidates: &[Card]) -> u64 {
    u64::from(worlds) * (candidates.len() as u64 + 1) * PLAYOUT_MICROS
}

/// A solver node costs well under a microsecond (counted as 1 for margin).
const NODE_MICROS: u64 = 1;

/// The endgame option of a search: solve from `cards` cards left (0 = off), at
/// most `nodes` nodes a solve.
fn endgame_of(py: Python<'_>, cards: u32, nodes: u32) -> PyResult<Endgame> {
    if cards > 52 {
        return Err(rule_error(
            py,
            format!("endgame_cards {cards} must be 0..52"),
        ));
    }
    Ok(Endgame {
        cards,
        nodes: u64::from(nodes),
    })
}

/// [`search_micros`] with the worst case of a solve per world and candidate when
/// the search will solve: `in_hands` cards are in the hands before the candidate
/// is played. Out of the solver's range the plain estimate stands, so that such
/// searches still run inline (a worker thread costs a scheduler slice on a busy
/// machine, more than the search).
fn endgame_micros(worlds: u32, candidates: &[Card], endgame: Endgame, in_hands: u32) -> u64 {
    let solving = if endgame.cards > 0 && in_hands.saturating_sub(1) <= endgame.cards {
        (u64::from(worlds) * candidates.len() as u64)
            .saturating_mul(endgame.nodes.saturating_mul(NODE_MICROS))
    } else {
        0
    };
    search_micros(worlds, candidates).saturating_add(solving)
}

/// The position (0-based, in play order) of the card that wins `cards`.
#[pyfunction]
#[pyo3(signature = (cards, trump = None))]
fn trick_winner(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] cards: Cards,
    #[pyo3(from_py_with = arg)] trump: Option<&str>,
) -> PyResult<usize> {
    let trump = suit_index(py, trump)?;
    let cards = cards.0;
    if cards.is_empty() || cards.iter().any(|c| c.is_joker()) {
        return Err(rule_error(
            py,
            "a trick needs at least one card and no jokers".into(),
        ));
    }
    Ok(trick::trick_winner(&cards, trump))
}

/// Average value for `seat` of each Hearts candidate over sampled deals.
///
/// `objective` is "zero_sum" (`mean(points) - own`), "deal" (`mean / 2 - own`),
/// "own" (`-own`) or "match" (the standing from `scores` toward `target`); `moon`
/// makes the playouts shoot and defend against moons. `endgame_cards` > 0 solves a
/// world exactly (the other seats playing against this one) once at most that many
/// cards are left, each solve visiting at most `endgame_nodes` nodes (past that,
/// the world is played out as without the solver). `policy` is the playouts' heuristic:
/// "plain" (ducking), "counting" (reads the unplayed cards, every seat) or
/// "unloading" (counting, and sheds high cards, singletons and hearts sooner).
/// `avoid` holds, per seat, cards its play shows it almost surely does not hold:
/// worlds keep them out of its hand while the sizes and voids allow.
/// `history` is every card played this deal in order (the current trick's last);
/// with `reading` > 0 (at most 10) each world's weight is `exp(-reading)` to the
/// power of the opponent plays in it that the playout policy would not have made.
#[pyfunction]
#[pyo3(signature = (seat, known, unknown, sizes, voids, leader, trick, taken, broken, tricks_played, candidates, worlds, seed, epsilon = 0.1, objective = "zero_sum", scores = [0; 4], target = 100, moon = false, endgame_cards = 0, endgame_nodes = 20_000, policy = "plain", avoid = [0; 4], history = Vec::new(), reading = 0.0))]
#[allow(clippy::too_many_arguments)]
fn hearts_search(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] seat: usize,
    #[pyo3(from_py_with = arg)] known: [u64; 4],
    #[pyo3(from_py_with = arg)] unknown: u64,
    #[pyo3(from_py_with = arg)] sizes: [u32; 4],
    #[pyo3(from_py_with = arg)] voids: [u8; 4],
    #[pyo3(from_py_with = arg)] leader: usize,
    #[pyo3(from_py_with = arg)] trick: Vec<u32>,
    #[pyo3(from_py_with = arg)] taken: [u64; 4],
    #[pyo3(from_py_with = arg)] broken: bool,
    #[pyo3(from_py_with = arg)] tricks_played: u32,
    #[pyo3(from_py_with = arg)] candidates: Vec<u32>,
    #[pyo3(from_py_with = arg)] worlds: u32,
    #[pyo3(from_py_with = arg)] seed: u64,
    #[pyo3(from_py_with = arg)] epsilon: f64,
    #[pyo3(from_py_with = arg)] objective: &str,
    #[pyo3(from_py_with = arg)] scores: [u32; 4],
    #[pyo3(from_py_with = arg)] target: u32,
    #[pyo3(from_py_with = arg)] moon: bool,
    #[pyo3(from_py_with = arg)] endgame_cards: u32,
    #[pyo3(from_py_with = arg)] endgame_nodes: u32,
    #[pyo3(from_py_with = arg)] policy: &str,
    #[pyo3(from_py_with = arg)] avoid: [u64; 4],
    #[pyo3(from_py_with = arg)] history: Vec<u32>,
    #[pyo3(from_py_with = arg)] reading: f64,
) -> PyResult<Vec<f64>> {
    let heuristic = hearts_policy(py, policy)?;
    let policy = self::policy(py, epsilon)?;
    let endgame = endgame_of(py, endgame_cards, endgame_nodes)?;
    let objective = hearts_objective(py, objective, scores, target)?;
    let mut taken_sets = [CardSet::EMPTY; 4];
    let mut played = 0u64;
    for (p, &bits) in taken.iter().enumerate() {
        taken_sets[p] = card_set(py, "taken", bits)?;
        played |= bits;
    }
    if tricks_played > 12 {
        return Err(rule_error(py, "tricks_played must be 0..12".into()));
    }
    let mut input = search_input(
        py,
        seat,
        known,
        unknown,
        sizes,
        voids,
        leader,
        &trick,
        played,
        broken,
        tricks_played,
        &candidates,
    )?;
    for (p, &bits) in avoid.iter().enumerate() {
        input.hidden.avoid[p] = card_set(py, "avoid", bits)?;
    }
    let mut deal = HeartsDeal::new([CardSet::EMPTY; 4]);
    deal.taken = taken_sets;
    deal.moon_play = moon;
    // Only the searching seat defends: it must not count on others to stop a moon.
    deal.moon_defenders = if moon { 1 << seat } else { 0 };
    heuristic.apply(&mut deal);
    // Without a reading, an empty history (the default) is not checked.
    let reading = if reading == 0.0 && history.is_empty() {
        None
    } else {
        let plays = card_list(py, "history", &history)?;
        let current = input.table.trick();
        if plays.len() != 4 * tricks_played as usize + current.len() || !plays.ends_with(current) {
            return Err(rule_error(
                py,
                "history must hold every card played, the current trick's last".into(),
            ));
        }
        Some(PlayReading::new(plays, leader, &taken_sets, seat, reading).py_err(py)?)
    };
    let in_hands = input.hidden.sizes.iter().sum();
    let (view, cands) = input.view(deal);
    // A reading replays the deal so far once per world, about a playout's work.
    let replays = if reading.as_ref().is_some_and(PlayReading::is_on) {
        u64::from(worlds) * PLAYOUT_MICROS
    } else {
        0
    };
    let micros = endgame_micros(worlds, &cands, endgame, in_hands).saturating_add(replays);
    interrupt::run_sized(py, micros, |cancel| {
        let value = |d: &HeartsDeal| objective.value(d.points(), seat);
        let weigh = |d: &HeartsDeal| reading.as_ref().map_or(1.0, |r| r.weight(d));
        view.evaluate_weighted(&cands, worlds, seed, policy, endgame, weigh, value, cancel)
    })?
    .py_err(py)
}

/// Average value for `seat` of each candidate Hearts pass over sampled deals.
///
/// `hand` is the 13 dealt cards, `passes` three-card subsets of it (bitsets),
/// passed `offset` seats to the left (1 left, 2 across, 3 right). Each world deals
/// the unseen cards at random, gives `seat` three random cards of the passer's
/// hand, and plays the deal out with moon play; `objective`, `scores`, `target`,
/// `epsilon` and `policy` are as in `hearts_search`.
#[pyfunction]
#[pyo3(signature = (seat, hand, passes, offset, worlds, seed, epsilon = 0.1, objective = "deal", scores = [0; 4], target = 100, policy = "counting"))]
#[allow(clippy::too_many_arguments)]
fn hearts_pass_search(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] seat: usize,
    #[pyo3(from_py_with = arg)] hand: u64,
    #[pyo3(from_py_with = arg)] passes: Vec<u64>,
    #[pyo3(from_py_with = arg)] offset: usize,
    #[pyo3(from_py_with = arg)] worlds: u32,
    #[pyo3(from_py_with = arg)] seed: u64,
    #[pyo3(from_py_with = arg)] epsilon: f64,
    #[pyo3(from_py_with = arg)] objective: &str,
    #[pyo3(from_py_with = arg)] scores: [u32; 4],
    #[pyo3(from_py_with = arg)] target: u32,
    #[pyo3(from_py_with = arg)] policy: &str,
) -> PyResult<Vec<f64>> {
    let heuristic = hearts_policy(py, policy)?;
    let policy = self::policy(py, epsilon)?;
    let objective = hearts_objective(py, objective, scores, target)?;
    let hand = card_set(py, "hand", hand)?;
    let passes = passes
        .iter()
        .map(|&p| card_set(py, "passes", p))
        .collect::<PyResult<Vec<_>>>()?;
    // A world is one deal and a playout per candidate.
    let micros = u64::from(worlds)
        .saturating_mul(passes.len() as u64 + 1)
        .saturating_mul(PLAYOUT_MICROS);
    interrupt::run_sized(py, micros, |cancel| {
        let value = |d: &HeartsDeal| objective.value(d.points(), seat);
        hearts::pass_values(
            seat, hand, &passes, offset, worlds, seed, policy, heuristic, value, cancel,
        )
    })?
    .py_err(py)
}

/// The Hearts playout policy's moon play for `seat`, or `None` when no moon is on.
///
/// The moon play shoots, or stops the seat that holds every point; `seat` is the
/// seat to act.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn hearts_moon_card(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] seat: usize,
    #[pyo3(from_py_with = arg)] hand: u64,
    #[pyo3(from_py_with = arg)] leader: usize,
    #[pyo3(from_py_with = arg)] trick: Vec<u32>,
    #[pyo3(from_py_with = arg)] taken: [u64; 4],
    #[pyo3(from_py_with = arg)] broken: bool,
    #[pyo3(from_py_with = arg)] tricks_played: u32,
) -> PyResult<Option<u32>> {
    let hand = card_set(py, "hand", hand)?;
    let trick = card_list(py, "trick", &trick)?;
    if seat >= 4 || leader >= 4 || trick.len() >= 4 || tricks_played > 12 {
        return Err(rule_error(
            py,
            "seat and leader must be 0..3, the trick hold 0..3 cards, tricks_played 0..12".into(),
        ));
    }
    if (leader + trick.len()) % 4 != seat {
        return Err(rule_error(
            py,
            format!("seat {seat} is not the seat to act"),
        ));
    }
    let mut seen = hand;
    let mut add = |cards: CardSet, what: &str| {
        if seen.intersection(cards).is_empty() {
            seen = seen.union(cards);
            Ok(())
        } else {
            Err(rule_error(py, format!("{what} overlaps other cards")))
        }
    };
    add(CardSet::from_cards(trick.iter().copied()), "the trick")?;
    let mut taken_sets = [CardSet::EMPTY; 4];
    for (p, &bits) in taken.iter().enumerate() {
        taken_sets[p] = card_set(py, "taken", bits)?;
        add(taken_sets[p], "taken")?;
    }
    // The policy reads the unplayed cards only as a whole: park the unseen ones
    // with the next seat.
    let mut hands = [CardSet::EMPTY; 4];
    hands[seat] = hand;
    hands[(seat + 1) % 4] = CardSet((1u64 << 52) - 1).difference(seen);
    let mut deal = HeartsDeal::new(hands);
    let table = &mut deal.table;
    table.leader = leader;
    table.set_trick(&trick);
    table.broken = broken;
    table.tricks_played = tricks_played;
    deal.taken = taken_sets;
    Ok(deal.moon_move().map(|c| u32::from(c.index())))
}

/// The playout heuristic of a Hearts search's `policy` name.
fn hearts_policy(py: Python<'_>, name: &str) -> PyResult<HeartsPolicy> {
    match name {
        "plain" => Ok(HeartsPolicy::Plain),
        "counting" => Ok(HeartsPolicy::Counting),
        "unloading" => Ok(HeartsPolicy::Unloading),
        other => {
            let shown: String = other.chars().take(40).collect();
            Err(rule_error(
                py,
                format!("policy {shown:?} must be plain, counting or unloading"),
            ))
        }
    }
}

/// The error for an objective name a search does not know: the name (cut to 40
/// characters) and the names it takes.
fn unknown_objective(py: Python<'_>, name: &str, known: &str) -> PyErr {
    let shown: String = name.chars().take(40).collect();
    rule_error(py, format!("objective {shown:?} must be {known}"))
}

/// Match totals above this are refused: no match target goes past 10,000.
const MAX_HEARTS_TOTAL: u32 = 1_000_000;

fn hearts_objective(
    py: Python<'_>,
    name: &str,
    scores: [u32; 4],
    target: u32,
) -> PyResult<HeartsObjective> {
    if scores.iter().any(|&s| s > MAX_HEARTS_TOTAL) || !(1..=MAX_HEARTS_TOTAL).contains(&target) {
        return Err(rule_error(
            py,
            format!("scores and target must be 0..{MAX_HEARTS_TOTAL} (target at least 1)"),
        ));
    }
    // Bounded above, so the conversions are exact.
    let to_i32 = |x: u32| i32::try_from(x).unwrap_or(i32::MAX);
    Ok(match name {
        "zero_sum" => HeartsObjective::ZeroSum,
        "deal" => HeartsObjective::Deal,
        "own" => HeartsObjective::Own,
        "match" => HeartsObjective::Match {
            scores: scores.map(to_i32),
            target: to_i32(target),
        },
        other => return Err(unknown_objective(py, other, "zero_sum, deal, own or match")),
    })
}

/// Spades match totals and targets beyond this are refused: a match without a
/// floor sinks by at most 419 a deal for 10,000 deals.
const MAX_SPADES_TOTAL: i64 = 10_000_000;

fn spades_objective(
    py: Python<'_>,
    name: &str,
    scores: [i64; 2],
    target: i64,
    lose_at: Option<i64>,
) -> PyResult<SpadesObjective> {
    let within = |x: i64| (-MAX_SPADES_TOTAL..=MAX_SPADES_TOTAL).contains(&x);
    if !scores.iter().all(|&s| within(s)) || !(1..=MAX_SPADES_TOTAL).contains(&target) {
        return Err(rule_error(
            py,
            format!("scores must be within ±{MAX_SPADES_TOTAL} and target 1..{MAX_SPADES_TOTAL}"),
        ));
    }
    if lose_at.is_some_and(|floor| !(-MAX_SPADES_TOTAL..=-1).contains(&floor)) {
        return Err(rule_error(
            py,
            format!("lose_at must be -{MAX_SPADES_TOTAL}..-1 or None"),
        ));
    }
    // Bounded above, so the conversions are exact.
    let to_i32 = |x: i64| i32::try_from(x).unwrap_or(i32::MAX);
    Ok(match name {
        "deal" => SpadesObjective::Deal,
        "match" => SpadesObjective::Match {
            scores: scores.map(to_i32),
            target: to_i32(target),
            lose_at: lose_at.map(to_i32),
        },
        other => return Err(unknown_objective(py, other, "deal or match")),
    })
}

/// Average (own team's deal points - the other team's) of each Spades candidate.
///
/// `objective` "match" adds the match won or lost when the deal can end it, from
/// the team totals `scores` toward `target` (or down to the `lose_at` floor);
/// `nil_play` makes the playouts set opposing nils and cover a nil partner.
/// `endgame_cards` > 0 solves a world exactly once at most that many cards are
/// left, each solve visiting at most `endgame_nodes` nodes (past that, the world
/// is played out as without the solver).
#[pyfunction]
#[pyo3(signature = (seat, known, unknown, sizes, voids, leader, trick, played, bids, tricks, bags, broken, candidates, worlds, seed, epsilon = 0.1, endgame_cards = 0, endgame_nodes = 20_000, objective = "deal", scores = [0; 2], target = 500, nil_play = false, lose_at = None))]
#[allow(clippy::too_many_arguments)]
fn spades_search(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] seat: usize,
    #[pyo3(from_py_with = arg)] known: [u64; 4],
    #[pyo3(from_py_with = arg)] unknown: u64,
    #[pyo3(from_py_with = arg)] sizes: [u32; 4],
    #[pyo3(from_py_with = arg)] voids: [u8; 4],
    #[pyo3(from_py_with = arg)] leader: usize,
    #[pyo3(from_py_with = arg)] trick: Vec<u32>,
    #[pyo3(from_py_with = arg)] played: u64,
    #[pyo3(from_py_with = arg)] bids: [u8; 4],
    #[pyo3(from_py_with = arg)] tricks: [u8; 4],
    #[pyo3(from_py_with = arg)] bags: [u32; 2],
    #[pyo3(from_py_with = arg)] broken: bool,
    #[pyo3(from_py_with = arg)] candidates: Vec<u32>,
    #[pyo3(from_py_with = arg)] worlds: u32,
    #[pyo3(from_py_with = arg)] seed: u64,
    #[pyo3(from_py_with = arg)] epsilon: f64,
    #[pyo3(from_py_with = arg)] endgame_cards: u32,
    #[pyo3(from_py_with = arg)] endgame_nodes: u32,
    #[pyo3(from_py_with = arg)] objective: &str,
    #[pyo3(from_py_with = arg)] scores: [i64; 2],
    #[pyo3(from_py_with = arg)] target: i64,
    #[pyo3(from_py_with = arg)] nil_play: bool,
    #[pyo3(from_py_with = arg)] lose_at: Option<i64>,
) -> PyResult<Vec<f64>> {
    let policy = policy(py, epsilon)?;
    let endgame = endgame_of(py, endgame_cards, endgame_nodes)?;
    let objective = spades_objective(py, objective, scores, target, lose_at)?;
    check_bags(py, &bags)?;
    if bids.iter().any(|&b| b > 13) || tricks.iter().map(|&t| u32::from(t)).sum::<u32>() > 12 {
        return Err(rule_error(
            py,
            "bids must be 0..13 and at most 12 tricks played".into(),
        ));
    }
    let tricks_played = tricks.iter().map(|&t| u32::from(t)).sum();
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
        broken,
        tricks_played,
        &candidates,
    )?;
    let mut deal = SpadesDeal::new([CardSet::EMPTY; 4], bids, 0);
    deal.tricks = tricks;
    deal.nil_play = nil_play;
    let in_hands = input.hidden.sizes.iter().sum();
    let (view, cands) = input.view(deal);
    let micros = endgame_micros(worlds, &cands, endgame, in_hands);
    interrupt::run_sized(py, micros, |cancel| {
        let value = |d: &SpadesDeal| d.objective_value(seat, bags, objective);
        view.evaluate(&cands, worlds, seed, policy, endgame, value, cancel)
    })?
    .py_err(py)
}

/// Spades bidding playouts: in how many sampled deals the seat took each number of tricks.
///
/// Each world deals the 39 cards `hand` (a bitset of 13 cards) cannot see at random
/// to the other seats and plays the deal out with the playout policy (`epsilon`
/// random moves) under `bids`, the seat's own bid included (0 plays as a nil).
/// `leader` leads the first trick; None: the holder of 2♣ leads it. Returns 14
/// counts (0 to 13 tricks). Runs without the GIL, stops on Ctrl-C, and uses the
/// same memory for any `worlds`.
#[pyfunction]
#[pyo3(signature = (seat, hand, bids, leader, worlds, seed, epsilon = 0.1))]
#[allow(clippy::too_many_arguments)]
fn spades_bid_playouts(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] seat: usize,
    #[pyo3(from_py_with = arg)] hand: u64,
    #[pyo3(from_py_with = arg)] bids: [u8; 4],
    #[pyo3(from_py_with = arg)] leader: Option<usize>,
    #[pyo3(from_py_with = arg)] worlds: u32,
    #[pyo3(from_py_with = arg)] seed: u64,
    #[pyo3(from_py_with = arg)] epsilon: f64,
) -> PyResult<[u32; 14]> {
    let policy = policy(py, epsilon)?;
    let hand = card_set(py, "hand", hand)?;
    // A world is one sample and one playout.
    let micros = u64::from(worlds).saturating_mul(PLAYOUT_MICROS);
    interrupt::run_sized(py, micros, |cancel| {
        spades::bid_playouts(seat, hand, bids, leader, worlds, policy, seed, cancel)
    })?
    .py_err(py)
}

/// Unstable, for benches only: play `deals` random Hearts deals (no passing) to the
/// end; each seat's total points. The seats in the 4-bit mask `counting` play the
/// card-counting heuristic, the others the plain one; those of them also in
/// `unloading` unload as well.
#[pyfunction(name = "hearts_playouts")]
#[pyo3(signature = (deals, seed, epsilon = 1.0, counting = 0, unloading = 0))]
fn bench_hearts_playouts(
    py: Python<'_>,
    deals: u64,
    seed: u64,
    epsilon: f64,
    counting: u8,
    unloading: u8,
) -> PyResult<[i64; 4]> {
    let policy = policy(py, epsilon)?;
    if counting >= 16 || unloading >= 16 {
        return Err(rule_error(
            py,
            format!("counting {counting} and unloading {unloading} must be 4-bit seat masks"),
        ));
    }
    let build = |rng: &mut CardRng| {
        let mut deal = HeartsDeal::random(rng);
        deal.counting = counting;
        deal.unloading = unloading;
        deal
    };
    interrupt::run_sized(py, deals.saturating_mul(PLAYOUT_MICROS), |cancel| {
        let points = |d: &HeartsDeal| d.points().map(i64::from);
        trick::playout_totals(deals, seed, policy, build, points, cancel)
    })?
    .py_err(py)
}

/// Unstable, for benches only: play `deals` random Spades deals (every seat bids
/// `bid`) to the end; each seat's tricks.
#[pyfunction(name = "spades_playouts")]
#[pyo3(signature = (deals, seed, bid = 3, epsilon = 1.0))]
fn bench_spades_playouts(
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
    interrupt::run_sized(py, deals.saturating_mul(PLAYOUT_MICROS), |cancel| {
        let build = |rng: &mut CardRng| SpadesDeal::random([bid; 4], rng);
        let tricks = |d: &SpadesDeal| d.tricks.map(i64::from);
        trick::playout_totals(deals, seed, policy, build, tricks, cancel)
    })?
    .py_err(py)
}

/// Unstable, for benches only: the endgame solver's cost at `cards` cards left.
///
/// `deals` random deals of `game` ("hearts": the deal objective; "spades": every
/// seat bids 3, no bags; "tractor": the attackers' points of a random level-2
/// deal) are played by the heuristic down to `cards` cards left and solved for
/// the seat to act with at most `nodes` nodes each: (solved, gave up, nodes
/// visited).
#[pyfunction(name = "trick_endgame")]
#[pyo3(signature = (game, cards, deals, seed, nodes = 20_000))]
fn bench_trick_endgame(
    py: Python<'_>,
    game: &str,
    cards: u32,
    deals: u64,
    seed: u64,
    nodes: u32,
) -> PyResult<(u64, u64, u64)> {
    let endgame = endgame_of(py, cards, nodes)?;
    let micros = deals.saturating_mul(endgame.nodes.saturating_mul(NODE_MICROS) + 1);
    let stats = match game {
        "hearts" => interrupt::run_sized(py, micros, |cancel| {
            let value = |d: &HeartsDeal, seat| HeartsObjective::Deal.value(d.points(), seat);
            endgame::solve_samples(
                deals,
                cards,
                endgame.nodes,
                seed,
                HeartsDeal::random,
                value,
                cancel,
            )
        })?,
        "spades" => interrupt::run_sized(py, micros, |cancel| {
            let build = |rng: &mut CardRng| SpadesDeal::random([3; 4], rng);
            let value = |d: &SpadesDeal, seat| d.team_value(seat, [0, 0]);
            endgame::solve_samples(deals, cards, endgame.nodes, seed, build, value, cancel)
        })?,
        "tractor" => interrupt::run_sized(py, micros, |cancel| {
            tractor_endgame::solve_samples(deals, cards, endgame.nodes, seed, cancel)
        })?,
        other => {
            let shown: String = other.chars().take(40).collect();
            return Err(rule_error(
                py,
                format!("game {shown:?} must be hearts, spades or tractor"),
            ));
        }
    }
    .py_err(py)?;
    Ok((stats.solved, stats.gave_up, stats.nodes))
}

/// Bags a partnership carries into a deal: every 10 cost 100 and are dropped, so
/// 0..9 (a larger carry would only make the scores wrong).
pub(crate) fn check_bags(py: Python<'_>, bags: &[u32]) -> PyResult<()> {
    match bags.iter().find(|&&b| b > 9) {
        Some(b) => Err(rule_error(
            py,
            format!("bags {b} must be 0..9: every 10 bags cost 100 and are dropped"),
        )),
        None => Ok(()),
    }
}

/// A deal under one game's rules, stepped from Python.
#[derive(Clone)]
enum Stepped {
    Hearts(SteppedDeal<HeartsDeal>),
    Spades(SteppedDeal<SpadesDeal>),
    Bridge(SteppedDeal<BridgeDeal>),
}

impl Stepped {
    fn hearts(&self) -> Option<&SteppedDeal<HeartsDeal>> {
        match self {
            Stepped::Hearts(d) => Some(d),
            _ => None,
        }
    }

    fn spades(&self) -> Option<&SteppedDeal<SpadesDeal>> {
        match self {
            Stepped::Spades(d) => Some(d),
            _ => None,
        }
    }

    fn bridge(&self) -> Option<&SteppedDeal<BridgeDeal>> {
        match self {
            Stepped::Bridge(d) => Some(d),
            _ => None,
        }
    }
}

/// Run `$body` with `$d` bound to the stepped deal, whichever game it plays.
macro_rules! each_game {
    ($stepped:expr, $d:ident => $body:expr) => {
        match $stepped {
            Stepped::Hearts($d) => $body,
            Stepped::Spades($d) => $body,
            Stepped::Bridge($d) => $body,
        }
    };
}

/// One action per card index of the 52-card pack, listed by bitset.
///
/// Listing a bitset of cards builds no new object: the legal-move lists of the
/// per-move path.
#[pyclass(frozen, module = "cardkit._core", name = "ActionTable")]
pub struct PyActionTable {
    actions: Vec<Py<PyAny>>,
}

impl PyActionTable {
    fn list<'py>(&self, py: Python<'py>, cards: CardSet) -> PyResult<Bound<'py, PyList>> {
        PyList::new(
            py,
            cards
                .iter()
                .map(|c| self.actions[usize::from(c.index())].bind(py)),
        )
    }
}

#[pymethods]
impl PyActionTable {
    #[new]
    fn py_new(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] actions: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<PyActionTable> {
        if actions.len() != 52 {
            return Err(rule_error(
                py,
                format!("actions has {} items, expected 52", actions.len()),
            ));
        }
        Ok(PyActionTable {
            actions: actions.into_iter().map(Bound::unbind).collect(),
        })
    }

    /// The objects of the cards in bitset `cards`, in index order.
    fn of<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = arg)] cards: u64,
    ) -> PyResult<Bound<'py, PyList>> {
        self.list(py, card_set(py, "cards", cards)?)
    }

    fn __len__(&self) -> usize {
        self.actions.len()
    }
}

/// The play phase of a Hearts, Spades or Bridge deal, stepped one card at a time.
///
/// The Python State API steps it: hands, the trick in progress, legal plays,
/// completed tricks. `legal_actions` lists entries of `actions`, so the per-move path builds no
/// Python objects.
#[pyclass(module = "cardkit._core", name = "TrickDeal")]
pub struct PyTrickDeal {
    stepped: Stepped,
    actions: Py<PyActionTable>,
}

fn deal_hands(py: Python<'_>, hands: [u64; 4]) -> PyResult<[CardSet; 4]> {
    let mut sets = [CardSet::EMPTY; 4];
    let mut seen = CardSet::EMPTY;
    for (p, &bits) in hands.iter().enumerate() {
        sets[p] = card_set(py, "hands", bits)?;
        if !seen.intersection(sets[p]).is_empty() {
            return Err(rule_error(
                py,
                format!("hand {p} shares cards with another"),
            ));
        }
        seen = seen.union(sets[p]);
    }
    if sets.iter().any(|h| h.len() != sets[0].len()) {
        return Err(rule_error(py, "every hand must hold as many cards".into()));
    }
    Ok(sets)
}

impl PyTrickDeal {
    fn table(&self) -> &TrickTable {
        each_game!(&self.stepped, d => d.deal().table())
    }
}

#[pymethods]
impl PyTrickDeal {
    /// A Hearts deal after the pass: the holder of 2♣ leads it.
    #[staticmethod]
    fn hearts(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] hands: [u64; 4],
        #[pyo3(from_py_with = arg)] actions: Bound<'_, PyActionTable>,
    ) -> PyResult<PyTrickDeal> {
        let deal = HeartsDeal::new(deal_hands(py, hands)?);
        Ok(PyTrickDeal {
            stepped: Stepped::Hearts(SteppedDeal::new(deal)),
            actions: actions.unbind(),
        })
    }

    /// A Spades deal after the bidding, with `leader` to lead.
    ///
    /// With `two_of_clubs_leads`, a leader holding 2♣ must lead it.
    #[staticmethod]
    #[pyo3(signature = (hands, bids, leader, actions, two_of_clubs_leads = false))]
    fn spades(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] hands: [u64; 4],
        #[pyo3(from_py_with = arg)] bids: [u8; 4],
        #[pyo3(from_py_with = arg)] leader: usize,
        #[pyo3(from_py_with = arg)] actions: Bound<'_, PyActionTable>,
        #[pyo3(from_py_with = arg)] two_of_clubs_leads: bool,
    ) -> PyResult<PyTrickDeal> {
        if leader >= 4 || bids.iter().any(|&b| b > 13) {
            return Err(rule_error(py, "leader must be 0..3 and bids 0..13".into()));
        }
        let mut deal = SpadesDeal::new(deal_hands(py, hands)?, bids, leader);
        deal.two_of_clubs_leads = two_of_clubs_leads;
        Ok(PyTrickDeal {
            stepped: Stepped::Spades(SteppedDeal::new(deal)),
            actions: actions.unbind(),
        })
    }

    /// A Bridge deal after the auction; declarer's left-hand opponent leads.
    ///
    /// The contract is `level` 1..=7 in `strain` (0..=3 a trump suit, 4 no
    /// trump), `doubling` 0..=2, played by `declarer`. The seat to act is the hand
    /// to play, dummy's included.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn bridge(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] hands: [u64; 4],
        #[pyo3(from_py_with = arg)] level: u8,
        #[pyo3(from_py_with = arg)] strain: u8,
        #[pyo3(from_py_with = arg)] doubling: u8,
        #[pyo3(from_py_with = arg)] declarer: usize,
        #[pyo3(from_py_with = arg)] actions: Bound<'_, PyActionTable>,
    ) -> PyResult<PyTrickDeal> {
        let contract = contract_of(py, level, strain, doubling, declarer)?;
        let deal = BridgeDeal::new(deal_hands(py, hands)?, contract);
        Ok(PyTrickDeal {
            stepped: Stepped::Bridge(SteppedDeal::new(deal)),
            actions: actions.unbind(),
        })
    }

    /// Bitset of the cards the seat to act may play (0 once the deal is over).
    fn legal(&self) -> u64 {
        each_game!(&self.stepped, d => d.deal().legal().0)
    }

    /// The `actions` entries of the cards the seat to act may play, in index order.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.actions.get().list(py, CardSet(self.legal()))
    }

    /// Play the card of index `card` for the seat to act.
    ///
    /// Returns `None` (and changes nothing) when the rules do not allow it now,
    /// else whether it ended the deal.
    fn play(&mut self, py: Python<'_>, card: &Bound<'_, PyAny>) -> PyResult<Option<bool>> {
        let Ok(index) = card.extract::<i64>() else {
            // An int past i64 is no card of the pack, like 52.
            if card.is_instance_of::<PyInt>() {
                return Ok(None);
            }
            return Err(to_py(
                py,
                EngineError::IllegalAction(format!(
                    "a card index is an int, got {}",
                    repr_of(card)
                )),
            ));
        };
        let Some(card) = u8::try_from(index)
            .ok()
            .filter(|&i| i < 52)
            .and_then(|i| Card::from_index(u32::from(i)).ok())
        else {
            return Ok(None);
        };
        Ok(each_game!(&mut self.stepped, d => d.try_play(card)))
    }

    /// Play `action` if it is one of the table's objects for a legal card.
    ///
    /// `action` must be the very object `legal_actions` lists (compared by
    /// identity); it is appended to `history`: the per-move path of a state, one
    /// call.
    ///
    /// Returns `None` (and changes nothing) for any other object, else whether
    /// it ended the deal.
    fn play_listed(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] action: Bound<'_, PyAny>,
        #[pyo3(from_py_with = arg)] history: Bound<'_, PyList>,
    ) -> PyResult<Option<bool>> {
        let legal = CardSet(self.legal());
        let table = self.actions.get();
        let Some(card) = legal
            .iter()
            .find(|c| table.actions[usize::from(c.index())].bind(py).is(&action))
        else {
            return Ok(None);
        };
        history.append(&action)?;
        Ok(each_game!(&mut self.stepped, d => d.try_play(card)))
    }

    /// The seat whose turn it is.
    #[getter]
    fn to_act(&self) -> usize {
        self.table().to_act()
    }

    /// The seat that leads (or led) the current trick.
    #[getter]
    fn leader(&self) -> usize {
        self.table().leader
    }

    /// Each seat's remaining cards as bitsets.
    #[getter]
    fn hands(&self) -> [u64; 4] {
        self.table().hands.map(|h| h.0)
    }

    /// Card indices of the current trick, in play order.
    #[getter]
    fn trick(&self) -> Vec<usize> {
        self.table()
            .trick()
            .iter()
            .map(|c| usize::from(c.index()))
            .collect()
    }

    /// Whether the suit that may not be led early (hearts, spades) is broken.
    #[getter]
    fn broken(&self) -> bool {
        self.table().broken
    }

    /// Completed tricks.
    #[getter]
    fn tricks_played(&self) -> u32 {
        self.table().tricks_played
    }

    /// The cards each seat has won, as bitsets.
    #[getter]
    fn taken(&self) -> [u64; 4] {
        each_game!(&self.stepped, d => d.taken().map(|t| t.0))
    }

    /// Tricks each seat has won.
    #[getter]
    fn won(&self) -> [u32; 4] {
        each_game!(&self.stepped, d => d.taken().map(|t| t.len() / 4))
    }

    /// Completed tricks in order: `(leader, card indices in play order, winner)`.
    fn tricks(&self) -> Vec<(usize, Vec<usize>, usize)> {
        each_game!(&self.stepped, d => d
            .tricks()
            .map(|(leader, cards, winner)| {
                let cards = cards.iter().map(|c| usize::from(c.index())).collect();
                (leader, cards, winner)
            })
            .collect())
    }

    /// An independent copy (the action table is shared).
    fn copy(&self, py: Python<'_>) -> PyTrickDeal {
        PyTrickDeal {
            stepped: self.stepped.clone(),
            actions: self.actions.clone_ref(py),
        }
    }

    fn __repr__(&self) -> String {
        let game = match self.stepped {
            Stepped::Hearts(_) => "hearts",
            Stepped::Spades(_) => "spades",
            Stepped::Bridge(_) => "bridge",
        };
        let t = self.table();
        format!(
            "<TrickDeal {game} tricks_played={} to_act={}>",
            t.tricks_played,
            t.to_act()
        )
    }
}

/// The ids `offset + i` of the bits `i` set in `bits`, ascending.
///
/// The legal action ids of a trick-taking game from a bitset of cards (play ids
/// are card indices) or of bids.
#[pyfunction]
fn bit_ids(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] bits: u64,
    #[pyo3(from_py_with = arg)] offset: usize,
) -> PyResult<Vec<usize>> {
    card_set(py, "bits", bits)?;
    Ok(CardSet(bits)
        .iter()
        .map(|c| offset + usize::from(c.index()))
        .collect())
}

/// A `size`-long numpy bool array, true at `offset + i` for each bit `i` of `bits`.
#[pyfunction]
fn bit_mask<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = arg)] bits: u64,
    #[pyo3(from_py_with = arg)] offset: usize,
    #[pyo3(from_py_with = arg)] size: usize,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    card_set(py, "bits", bits)?;
    let top = 64 - bits.leading_zeros() as usize;
    if offset.saturating_add(top) > size {
        return Err(rule_error(
            py,
            format!("bits from {offset} do not fit a mask of {size}"),
        ));
    }
    let mask = PyArray1::<bool>::zeros(py, size, false);
    {
        let mut view = mask
            .try_readwrite()
            .map_err(|e| rule_error(py, e.to_string()))?;
        let flags = view
            .as_slice_mut()
            .map_err(|e| rule_error(py, e.to_string()))?;
        for c in CardSet(bits).iter() {
            flags[offset + usize::from(c.index())] = true;
        }
    }
    Ok(mask)
}

/// The writable contiguous values of a float32 observation array.
fn with_values<R>(
    py: Python<'_>,
    out: &Bound<'_, PyArray1<f32>>,
    write: impl FnOnce(&mut [f32]) -> Result<R, EngineError>,
) -> PyResult<R> {
    let mut view = out
        .try_readwrite()
        .map_err(|e| rule_error(py, format!("out cannot be written: {e}")))?;
    let values = view
        .as_slice_mut()
        .map_err(|e| rule_error(py, format!("out must be contiguous: {e}")))?;
    write(values).py_err(py)
}

/// The game's stepped deal, or an error naming the other game.
fn stepped_of<'a, G>(
    py: Python<'_>,
    deal: Option<&'a PyTrickDeal>,
    pick: fn(&Stepped) -> Option<&SteppedDeal<G>>,
    game: &str,
) -> PyResult<Option<&'a SteppedDeal<G>>> {
    match deal {
        None => Ok(None),
        Some(d) => pick(&d.stepped)
            .map(Some)
            .ok_or_else(|| rule_error(py, format!("deal is not a {game} deal"))),
    }
}

/// Write `seat`'s Hearts observation tensor into the float32 array `out`.
///
/// `hand` is the seat's hand before play (the hand is read from `deal` once play
/// has begun); `to_act` is `None` once the game is over; `direction` is 0 left,
/// 1 right, 2 across, 3 hold. The layout is in docs/hearts.md.
#[pyfunction]
#[pyo3(signature = (out, seat, hand, deal, to_act, direction, passed, received, scores, target))]
#[allow(clippy::too_many_arguments)]
fn hearts_observation(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] out: Bound<'_, PyArray1<f32>>,
    #[pyo3(from_py_with = arg)] seat: usize,
    #[pyo3(from_py_with = arg)] hand: u64,
    #[pyo3(from_py_with = arg)] deal: Option<Bound<'_, PyTrickDeal>>,
    #[pyo3(from_py_with = arg)] to_act: Option<usize>,
    #[pyo3(from_py_with = arg)] direction: usize,
    #[pyo3(from_py_with = arg)] passed: u64,
    #[pyo3(from_py_with = arg)] received: u64,
    #[pyo3(from_py_with = arg)] scores: [i64; 4],
    #[pyo3(from_py_with = arg)] target: u32,
) -> PyResult<()> {
    let deal = deal.as_ref().map(Bound::try_borrow).transpose()?;
    let position = Position {
        seat,
        hand: card_set(py, "hand", hand)?,
        deal: stepped_of(py, deal.as_deref(), Stepped::hearts, "Hearts")?,
        to_act,
    };
    let info = HeartsInfo {
        direction,
        passed: card_set(py, "passed", passed)?,
        received: card_set(py, "received", received)?,
        scores,
        target,
    };
    with_values(py, &out, |values| {
        observe::hearts_tensor(&position, &info, values)
    })
}

/// Write `seat`'s Spades observation tensor into the float32 array `out`.
///
/// `hand` is the seat's hand while bidding (the hand is read from `deal` once
/// play has begun); `to_act` is `None` once the game is over; `bids` holds
/// `None` for seats yet to bid. The layout is in docs/spades.md.
#[pyfunction]
#[pyo3(signature = (out, seat, hand, deal, to_act, dealer, bids, scores, bags, target))]
#[allow(clippy::too_many_arguments)]
fn spades_observation(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] out: Bound<'_, PyArray1<f32>>,
    #[pyo3(from_py_with = arg)] seat: usize,
    #[pyo3(from_py_with = arg)] hand: u64,
    #[pyo3(from_py_with = arg)] deal: Option<Bound<'_, PyTrickDeal>>,
    #[pyo3(from_py_with = arg)] to_act: Option<usize>,
    #[pyo3(from_py_with = arg)] dealer: usize,
    #[pyo3(from_py_with = arg)] bids: [Option<u8>; 4],
    #[pyo3(from_py_with = arg)] scores: [i64; 2],
    #[pyo3(from_py_with = arg)] bags: [u32; 2],
    #[pyo3(from_py_with = arg)] target: u32,
) -> PyResult<()> {
    let deal = deal.as_ref().map(Bound::try_borrow).transpose()?;
    let position = Position {
        seat,
        hand: card_set(py, "hand", hand)?,
        deal: stepped_of(py, deal.as_deref(), Stepped::spades, "Spades")?,
        to_act,
    };
    let info = SpadesInfo {
        dealer,
        bids,
        scores,
        bags,
        target,
    };
    with_values(py, &out, |values| {
        observe::spades_tensor(&position, &info, values)
    })
}

/// A Bridge contract from its parts, each checked.
fn contract_of(
    py: Python<'_>,
    level: u8,
    strain: u8,
    doubling: u8,
    declarer: usize,
) -> PyResult<Contract> {
    if !(1..=7).contains(&level) || strain > 4 || doubling > 2 || declarer >= 4 {
        return Err(rule_error(
            py,
            format!(
                "contract level {level}, strain {strain}, doubling {doubling}, declarer \
                 {declarer}: expected 1..7, 0..4, 0..2 and a seat 0..3"
            ),
        ));
    }
    Ok(Contract {
        level,
        strain,
        doubling,
        declarer,
    })
}

/// The duplicate score of a Bridge contract for declarer's side.
///
/// `level` 1..=7 in `strain` (0..=3 clubs to spades, 4 no trump), `doubling` 0
/// undoubled, 1 doubled, 2 redoubled; `tricks` 0..=13 taken by declarer's side.
/// Returns `[contract_points, overtricks, game_bonus, partscore_bonus,
/// slam_bonus, insult, undertricks, total]`; undertricks and a defeated total are
/// negative.
#[pyfunction]
fn bridge_score(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] level: u8,
    #[pyo3(from_py_with = arg)] strain: u8,
    #[pyo3(from_py_with = arg)] doubling: u8,
    #[pyo3(from_py_with = arg)] vulnerable: bool,
    #[pyo3(from_py_with = arg)] tricks: u8,
) -> PyResult<[i32; 8]> {
    let contract = contract_of(py, level, strain, doubling, 0)?;
    if tricks > 13 {
        return Err(rule_error(py, format!("tricks {tricks} must be 0..13")));
    }
    let s = bridge::duplicate_score(&contract, vulnerable, tricks);
    Ok([
        s.contract_points,
        s.overtricks,
        s.game_bonus,
        s.partscore_bonus,
        s.slam_bonus,
        s.insult,
        s.undertricks,
        s.total,
    ])
}

/// Write `seat`'s Bridge observation tensor into the float32 array `out`.
///
/// `hand` is the seat's hand during the auction (read from `deal` once play has
/// begun); `to_act` is the seat to call or the hand to play (dummy's too), `None`
/// once over; `calls` are the call ids so far from South (0 pass, 1..=35 the
/// bids 1C..7NT, 36 double, 37 redouble); `vulnerable` is North-South's, then
/// East-West's. The layout is in docs/bridge.md.
#[pyfunction]
#[pyo3(signature = (out, seat, hand, deal, to_act, calls, vulnerable))]
#[allow(clippy::too_many_arguments)]
fn bridge_observation(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] out: Bound<'_, PyArray1<f32>>,
    #[pyo3(from_py_with = arg)] seat: usize,
    #[pyo3(from_py_with = arg)] hand: u64,
    #[pyo3(from_py_with = arg)] deal: Option<Bound<'_, PyTrickDeal>>,
    #[pyo3(from_py_with = arg)] to_act: Option<usize>,
    #[pyo3(from_py_with = arg)] calls: Vec<u8>,
    #[pyo3(from_py_with = arg)] vulnerable: [bool; 2],
) -> PyResult<()> {
    let deal = deal.as_ref().map(Bound::try_borrow).transpose()?;
    let Some(auction) = Auction::replay(bridge::SOUTH, &calls) else {
        return Err(rule_error(
            py,
            "calls are not a legal auction from South".into(),
        ));
    };
    let stepped = stepped_of(py, deal.as_deref(), Stepped::bridge, "Bridge")?;
    if let Some(s) = stepped {
        if auction.contract() != Some(s.deal().contract) {
            return Err(rule_error(
                py,
                "calls do not end in the contract of deal".into(),
            ));
        }
    }
    let position = Position {
        seat,
        hand: card_set(py, "hand", hand)?,
        deal: stepped,
        to_act,
    };
    let info = BridgeInfo {
        auction: &auction,
        vulnerable,
    };
    with_values(py, &out, |values| {
        observe::bridge_tensor(&position, &info, values)
    })
}

/// Unstable, for benches only: play `deals` whole random Bridge deals (random
/// calls, then random cards; North-South vulnerable as `vulnerable[0]`,
/// East-West as `vulnerable[1]`); North-South's total score.
#[pyfunction(name = "bridge_playouts")]
#[pyo3(signature = (deals, seed, vulnerable = [false, false]))]
fn bench_bridge_playouts(
    py: Python<'_>,
    deals: u64,
    seed: u64,
    vulnerable: [bool; 2],
) -> PyResult<i64> {
    interrupt::run_sized(py, deals.saturating_mul(PLAYOUT_MICROS), |cancel| {
        let mut rng = CardRng::new(seed);
        let mut total = 0i64;
        for _ in 0..deals {
            cancel.check()?;
            total += i64::from(bridge::random_deal(vulnerable, &mut rng));
        }
        Ok(total)
    })?
    .py_err(py)
}

pub fn register(m: &Bound<'_, PyModule>, bench: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyActionTable>()?;
    m.add_function(wrap_pyfunction!(bit_ids, m)?)?;
    m.add_function(wrap_pyfunction!(bit_mask, m)?)?;
    m.add_function(wrap_pyfunction!(hearts_observation, m)?)?;
    m.add_function(wrap_pyfunction!(spades_observation, m)?)?;
    m.add_function(wrap_pyfunction!(bridge_observation, m)?)?;
    m.add_function(wrap_pyfunction!(bridge_score, m)?)?;
    m.add_class::<PyTrickDeal>()?;
    m.add_function(wrap_pyfunction!(trick_winner, m)?)?;
    m.add_function(wrap_pyfunction!(hearts_search, m)?)?;
    m.add_function(wrap_pyfunction!(hearts_moon_card, m)?)?;
    m.add_function(wrap_pyfunction!(hearts_pass_search, m)?)?;
    m.add_function(wrap_pyfunction!(spades_search, m)?)?;
    m.add_function(wrap_pyfunction!(spades_bid_playouts, m)?)?;
    bench.add_function(wrap_pyfunction!(bench_hearts_playouts, bench)?)?;
    bench.add_function(wrap_pyfunction!(bench_spades_playouts, bench)?)?;
    bench.add_function(wrap_pyfunction!(bench_trick_endgame, bench)?)?;
    bench.add_function(wrap_pyfunction!(bench_bridge_playouts, bench)?)?;
    Ok(())
}
