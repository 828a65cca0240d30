//! Climbing games (Dou Dizhu, Zheng Shangyou): combinations, leads, responses,
//! the action indexes, observation tensors, fast playouts and the search policy. Batch move
//! generation, playouts and the search run on a worker thread that stops on
//! Ctrl-C (see `interrupt`).

use crate::args::{arg, with_f32_out, Bounded, Callable, Cards};
use crate::cards::{extract_card, repr_of, PyCard};
use crate::errors::{to_py, IntoPyResult};
use crate::interrupt;
use cardkit_engine::climbing::cardplay::CardPlay;
use cardkit_engine::climbing::endgame::Endgame;
use cardkit_engine::climbing::evidence::{Evidence, LONGEST_CARD_PLAY};
use cardkit_engine::climbing::index::{ActionIndex, KeyHasher};
use cardkit_engine::climbing::observe;
use cardkit_engine::climbing::playout::{self, Deal, Game, Move, Policy};
use cardkit_engine::climbing::{
    climbing_rank, doudizhu as ddz, zhengshangyou as zsy, Combination, Ranks, RANK_CHARS,
};
use cardkit_engine::rng::CardRng;
use cardkit_engine::{Cancel, CardSet, EngineError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PySequence, PyString};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One reading of a play: `type`, `main_rank`, `length` and `cards` (rank text).
#[pyclass(frozen, module = "cardkit._core", name = "Combination", eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyCombination(pub Combination);

#[pymethods]
impl PyCombination {
    /// The type name: `single`, `pair`, ..., `airplane_singles`, `bomb`, `rocket`.
    #[getter(r#type)]
    fn kind(&self) -> &'static str {
        self.0.kind.name()
    }

    /// The rank that decides strength (the highest core rank of runs and airplanes).
    #[getter]
    fn main_rank(&self) -> String {
        RANK_CHARS[self.0.main as usize].to_string()
    }

    /// Consecutive core ranks (run and airplane length; 1 otherwise).
    #[getter]
    fn length(&self) -> u8 {
        self.0.length
    }

    /// The ranks played, weakest first: `"33344456"`.
    #[getter]
    fn cards(&self) -> String {
        self.0.cards.to_string()
    }

    /// Number of cards.
    #[getter]
    fn size(&self) -> usize {
        self.0.cards.len()
    }

    /// True for bombs (and the rocket): they answer any ordinary combination.
    #[getter]
    fn is_bomb(&self) -> bool {
        self.0.kind.is_bomb()
    }

    fn __str__(&self) -> String {
        self.0.cards.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Combination(type='{}', main_rank='{}', length={}, cards='{}')",
            self.0.kind.name(),
            RANK_CHARS[self.0.main as usize],
            self.0.length,
            self.0.cards
        )
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    DouDizhu,
    ZhengShangyou,
}

fn rules(py: Python<'_>, game: &str) -> PyResult<Rules> {
    match game {
        "doudizhu" => Ok(Rules::DouDizhu),
        "zhengshangyou" => Ok(Rules::ZhengShangyou),
        other => Err(to_py(
            py,
            EngineError::RuleOption(format!(
                "unknown climbing game {other:?}: expected doudizhu or zhengshangyou"
            )),
        )),
    }
}

/// Ranks from rank text (`"33344BR"`) or an iterable of cards / card strings.
fn extract_ranks(obj: &Bound<'_, PyAny>) -> PyResult<Ranks> {
    let py = obj.py();
    if let Ok(s) = obj.cast::<PyString>() {
        return Ranks::parse(&s.to_string_lossy()).py_err(py);
    }
    let bad = || {
        let shown = repr_of(obj);
        to_py(
            py,
            EngineError::InvalidCard(format!(
                "invalid ranks {shown}: expected rank text like \"33344BR\" or a list of cards"
            )),
        )
    };
    let iter = obj.try_iter().map_err(|_| bad())?;
    let mut out = Ranks::default();
    for item in iter {
        let card = extract_card(&item?)?;
        // A count past 255 is refused rather than clipped, which also ends an
        // endless iterable.
        out.add_card(climbing_rank(card)).py_err(py)?;
    }
    Ok(out)
}

/// A table combination given as a `Combination` or as ranks (read as its only
/// reading; the first of several).
fn extract_table(
    py: Python<'_>,
    rules: Rules,
    obj: &Bound<'_, PyAny>,
    opening: bool,
) -> PyResult<Combination> {
    if let Ok(c) = obj.cast::<PyCombination>() {
        return Ok(c.get().0);
    }
    let ranks = extract_ranks(obj)?;
    classify_ranks(rules, &ranks, opening)
        .into_iter()
        .next()
        .ok_or_else(|| {
            to_py(
                py,
                EngineError::IllegalAction(format!("{ranks} is not a combination")),
            )
        })
}

fn classify_ranks(rules: Rules, ranks: &Ranks, opening: bool) -> Vec<Combination> {
    match rules {
        Rules::DouDizhu => ddz::classify(ranks),
        Rules::ZhengShangyou => zsy::classify(ranks, opening),
    }
}

fn wrap(v: Vec<Combination>) -> Vec<PyCombination> {
    v.into_iter().map(PyCombination).collect()
}

/// Every reading of `cards` as one combination of `game` (empty if none).
///
/// `opening`: Zheng Shangyou's first play, where four threes are the heavenly bomb.
#[pyfunction]
#[pyo3(signature = (game, cards, opening = false))]
fn climbing_classify(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] game: &str,
    cards: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = arg)] opening: bool,
) -> PyResult<Vec<PyCombination>> {
    let rules = rules(py, game)?;
    let ranks = extract_ranks(cards)?;
    Ok(wrap(classify_ranks(rules, &ranks, opening)))
}

/// Every legal lead from `hand`.
#[pyfunction]
#[pyo3(signature = (game, hand, opening = false))]
fn climbing_leads(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] game: &str,
    hand: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = arg)] opening: bool,
) -> PyResult<Vec<PyCombination>> {
    let rules = rules(py, game)?;
    let hand = extract_ranks(hand)?;
    Ok(wrap(match rules {
        Rules::DouDizhu => ddz::leads(&hand),
        Rules::ZhengShangyou => zsy::leads(&hand, opening),
    }))
}

/// Every play from `hand` that beats `table` (pass not included).
#[pyfunction]
#[pyo3(signature = (game, hand, table, opening = false))]
fn climbing_responses(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] game: &str,
    hand: &Bound<'_, PyAny>,
    table: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = arg)] opening: bool,
) -> PyResult<Vec<PyCombination>> {
    let rules = rules(py, game)?;
    let hand = extract_ranks(hand)?;
    let table = extract_table(py, rules, table, opening)?;
    Ok(wrap(match rules {
        Rules::DouDizhu => ddz::responses(&hand, &table),
        Rules::ZhengShangyou => zsy::responses(&hand, &table),
    }))
}

/// Whether `play` beats `table`.
#[pyfunction]
fn climbing_beats(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] game: &str,
    #[pyo3(from_py_with = arg)] play: Bound<'_, PyCombination>,
    #[pyo3(from_py_with = arg)] table: Bound<'_, PyCombination>,
) -> PyResult<bool> {
    let (play, table) = (play.get().0, table.get().0);
    Ok(match rules(py, game)? {
        Rules::DouDizhu => ddz::beats(&play, &table),
        Rules::ZhengShangyou => zsy::beats(&play, &table),
    })
}

/// Unstable, for benches only: leads (`table` None) or responses of `hand` as rank
/// texts.
#[pyfunction(name = "climbing_play_texts")]
#[pyo3(signature = (game, hand, table, opening = false))]
fn bench_climbing_play_texts(
    py: Python<'_>,
    game: &str,
    hand: &str,
    table: Option<&Bound<'_, PyCombination>>,
    opening: bool,
) -> PyResult<Vec<String>> {
    let table = table.map(|t| t.get().0);
    let rules = rules(py, game)?;
    let hand = Ranks::parse(hand).py_err(py)?;
    let plays = match (rules, table) {
        (Rules::DouDizhu, None) => ddz::leads(&hand),
        (Rules::DouDizhu, Some(t)) => ddz::responses(&hand, &t),
        (Rules::ZhengShangyou, None) => zsy::leads(&hand, opening),
        (Rules::ZhengShangyou, Some(t)) => zsy::responses(&hand, &t),
    };
    Ok(plays.iter().map(|c| c.cards.to_string()).collect())
}

/// Size of the Dou Dizhu action space: pass, bids 1-3 and every play.
#[pyfunction]
fn doudizhu_action_space_size() -> usize {
    ddz::action_index().len()
}

/// The action-index id of the Dou Dizhu play with these ranks, or None.
#[pyfunction]
fn doudizhu_play_id(cards: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
    index_play_id(ddz::action_index(), cards)
}

/// The Dou Dizhu play with action-index id `id` (None for pass, bids, out of range).
#[pyfunction]
fn doudizhu_play_of_id(#[pyo3(from_py_with = arg)] id: i64) -> Option<PyCombination> {
    index_play(ddz::action_index(), id)
}

/// Size of the Zheng Shangyou action space: pass and every play.
#[pyfunction]
fn zhengshangyou_action_space_size() -> usize {
    zsy::action_index().len()
}

/// The action-index id of the Zheng Shangyou play with these ranks, or None.
#[pyfunction]
fn zhengshangyou_play_id(cards: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
    index_play_id(zsy::action_index(), cards)
}

/// The Zheng Shangyou play with action-index id `id` (None for pass, out of range).
#[pyfunction]
fn zhengshangyou_play_of_id(#[pyo3(from_py_with = arg)] id: i64) -> Option<PyCombination> {
    index_play(zsy::action_index(), id)
}

fn index_play_id(index: &ActionIndex, cards: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
    Ok(index.play_id(&extract_ranks(cards)?))
}

fn index_play(index: &ActionIndex, id: i64) -> Option<PyCombination> {
    let id = u32::try_from(id).ok()?;
    index.play(id).copied().map(PyCombination)
}

/// The fixed action index of a card-play game.
fn game_index(game: Game) -> &'static ActionIndex {
    match game {
        Game::DouDizhu { .. } => ddz::action_index(),
        Game::ZhengShangyou => zsy::action_index(),
    }
}

/// Length of the card-play part of a climbing game's observation tensor.
///
/// `ClimbingDeal.write_observation` writes this many floats; the layout is in the
/// game's docs page ("Learning interface").
#[pyfunction]
fn climbing_card_play_size(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] game: &str,
) -> PyResult<usize> {
    let game = card_play_game(py, rules(py, game)?, 0, 1)?;
    Ok(observe::card_play_len(observe::max_hand(game)))
}

/// The items of a list-like batch argument (a str or bytes is one value, not a
/// list), or `None` for anything else.
fn batch_items<'py>(obj: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
    if let Ok(list) = obj.cast::<PyList>() {
        return Some(list.iter().collect());
    }
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return None;
    }
    let seq = obj.cast::<PySequence>().ok()?;
    seq.try_iter().ok()?.collect::<PyResult<_>>().ok()
}

/// Hands (rank text) and their tables, one to one (`tables` None: every hand leads).
fn batch_inputs(
    hands: &Bound<'_, PyAny>,
    tables: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(Ranks, Option<Combination>)>> {
    let py = hands.py();
    let invalid = |message: String| to_py(py, EngineError::InvalidCard(message));
    let illegal = |message: String| to_py(py, EngineError::IllegalAction(message));
    let hands = batch_items(hands).ok_or_else(|| {
        invalid(format!(
            "hands must be a list of rank strings, got {}",
            repr_of(hands)
        ))
    })?;
    let mut jobs = Vec::with_capacity(hands.len());
    for (i, hand) in hands.iter().enumerate() {
        // Reading millions of hands takes a while: let Ctrl-C in meanwhile.
        if i % 4096 == 4095 {
            py.check_signals()?;
        }
        let text = hand.cast::<PyString>().map_err(|_| {
            invalid(format!(
                "hands[{i}]: a hand must be a rank string, got {}",
                repr_of(hand)
            ))
        })?;
        jobs.push((Ranks::parse(&text.to_string_lossy()).py_err(py)?, None));
    }
    let Some(tables) = tables.filter(|t| !t.is_none()) else {
        return Ok(jobs);
    };
    let tables = batch_items(tables).ok_or_else(|| {
        illegal(format!(
            "tables must be a list of combinations, got {}",
            repr_of(tables)
        ))
    })?;
    if tables.len() != jobs.len() {
        return Err(illegal("tables must match hands one to one".into()));
    }
    for (i, (job, table)) in jobs.iter_mut().zip(&tables).enumerate() {
        if !table.is_none() {
            let table = table.cast::<PyCombination>().map_err(|_| {
                illegal(format!(
                    "tables[{i}]: a table must be a Combination or None, got {}",
                    repr_of(table)
                ))
            })?;
            job.1 = Some(table.get().0);
        }
    }
    Ok(jobs)
}

/// Threads for a batch: `threads`, or every core when it is None or 0; at most 256
/// (the Python wrapper's limit), so no call asks the OS for thousands of threads.
fn batch_threads(threads: Option<usize>) -> usize {
    threads
        .filter(|&t| t > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(256)
}

/// The most bytes of moves one batch call lists (2 a move id, 8 a move key; held
/// twice while copied out): past this an allocation could fail, which aborts the
/// process instead of raising. The leads of some half a million 20-card hands.
const MAX_BATCH_BYTES: usize = 1 << 30;

/// A bound on a batch's single-thread time in microseconds: a hand of a real deal
/// (at most 20 cards) lists its moves in under 3 us, a whole 54-card pack in ~550.
fn batch_micros(jobs: &[(Ranks, Option<Combination>)]) -> u64 {
    jobs.iter()
        .map(|(hand, _)| if hand.len() <= 20 { 5 } else { 1000 })
        .fold(0u64, u64::saturating_add)
}

/// One thread's share of a batch: its jobs' kept moves, then each job's count.
type BatchPart<T> = (Vec<T>, Vec<u32>);

/// Each job's moves in order (pass, key 0, first when following) mapped by `map`
/// (moves it maps to `None` are left out), and each job's number of kept moves,
/// split across `threads` threads. Each job's moves depend only on the job, so the
/// result does not depend on the thread count. Every thread polls `cancel` and the
/// shared move count between jobs.
fn ddz_batch<T: Send>(
    jobs: &[(Ranks, Option<Combination>)],
    threads: usize,
    cancel: &Cancel,
    map: impl Fn(u64) -> Option<T> + Sync,
) -> Result<Vec<BatchPart<T>>, EngineError> {
    let listed = AtomicUsize::new(0);
    let most = MAX_BATCH_BYTES / std::mem::size_of::<T>().max(1);
    let run = |jobs: &[(Ranks, Option<Combination>)]| {
        // A 20-card hand averages some 80 leads; the capacity is only a first guess,
        // so a long list of hands does not reserve memory it may never use.
        let mut moves = Vec::with_capacity(jobs.len().min(1 << 12) * 96);
        let mut counts = Vec::with_capacity(jobs.len());
        for (hand, table) in jobs {
            cancel.check()?;
            let start = moves.len();
            let mut keep = |key| moves.extend(map(key));
            match table {
                None => ddz::lead_keys(hand, keep),
                Some(t) => {
                    keep(0);
                    ddz::response_keys(hand, t, keep);
                }
            }
            let count = moves.len() - start;
            if listed.fetch_add(count, Ordering::Relaxed) + count > most {
                return Err(EngineError::RuleOption(format!(
                    "the hands have more than {most} legal moves in all (the cap of \
                     {} MiB of output a call): split the batch",
                    MAX_BATCH_BYTES >> 20
                )));
            }
            counts.push(count as u32);
        }
        Ok((moves, counts))
    };
    // Small batches are not worth a thread start.
    let per_thread = jobs.len().div_ceil(threads.max(1)).max(256);
    if per_thread >= jobs.len() {
        return Ok(vec![run(jobs)?]);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(per_thread)
            .map(|chunk| scope.spawn(move || run(chunk)))
            .collect();
        // Join every thread before looking at any result: collecting straight into a
        // Result would stop at the first error (Ctrl-C, the cap) and leave the other
        // threads to the scope, which waits for their work but not for them to exit.
        let parts: Vec<_> = handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect();
        parts.into_iter().collect()
    })
}

/// The action-index ids of every legal Dou Dizhu move of each hand, a buffer a hand.
///
/// For each hand (rank text) and its table (`None`: leading), the fixed action-index
/// ids of every legal move (pass, id 0, included when following) as little-endian
/// `u16`s: `numpy.frombuffer(b, "<u2")`. Runs without the GIL on `threads` threads
/// (default: every core).
#[pyfunction]
#[pyo3(signature = (hands, tables=None, threads=None))]
fn doudizhu_legal_ids_batch(
    py: Python<'_>,
    hands: &Bound<'_, PyAny>,
    tables: Option<&Bound<'_, PyAny>>,
    #[pyo3(from_py_with = arg)] threads: Option<usize>,
) -> PyResult<Vec<Py<PyBytes>>> {
    let jobs = batch_inputs(hands, tables)?;
    let index = ddz::action_index();
    let parts = interrupt::run_sized(py, batch_micros(&jobs), |cancel| {
        ddz_batch(&jobs, batch_threads(threads), cancel, |key| match key {
            0 => Some([0u8; 2]),
            // Hands of more than 20 cards can form plays outside the index.
            _ => index.key_id(key).map(|id| (id as u16).to_le_bytes()),
        })
    })?
    .py_err(py)?;
    let mut out = Vec::with_capacity(jobs.len());
    for (ids, counts) in &parts {
        let mut at = 0;
        for &count in counts {
            let hand = &ids[at..at + count as usize];
            at += count as usize;
            out.push(PyBytes::new(py, hand.as_flattened()).unbind());
        }
    }
    Ok(out)
}

/// Every legal Dou Dizhu move of every hand, as two buffers `(plays, ends)`.
///
/// Each hand (rank text) plays against its table (`None`: leading); the buffers are
/// built without the GIL on `threads` threads (default: every core). `plays` holds
/// each move as a little-endian `u64` rank-count key (four bits per rank, the 3 in
/// the lowest bits, then 4 ... A, 2, B, R; pass is 0 and is listed when following),
/// `ends` little-endian `u64`s: hand `i`'s moves are keys `ends[i]..ends[i + 1]`.
#[pyfunction]
#[pyo3(signature = (hands, tables=None, threads=None))]
fn doudizhu_plays_batch(
    py: Python<'_>,
    hands: &Bound<'_, PyAny>,
    tables: Option<&Bound<'_, PyAny>>,
    #[pyo3(from_py_with = arg)] threads: Option<usize>,
) -> PyResult<(Py<PyBytes>, Py<PyBytes>)> {
    let jobs = batch_inputs(hands, tables)?;
    let parts = interrupt::run_sized(py, batch_micros(&jobs), |cancel| {
        ddz_batch(&jobs, batch_threads(threads), cancel, Some)
    })?
    .py_err(py)?;
    let total: usize = parts.iter().map(|(keys, _)| keys.len()).sum();
    let plays = PyBytes::new_with(py, 8 * total, |buf| {
        let mut rest = buf;
        for (keys, _) in &parts {
            let (part, tail) = rest.split_at_mut(8 * keys.len());
            // One thread's keys at a time: a plain loop the compiler turns into a copy.
            for (slot, key) in part.chunks_exact_mut(8).zip(keys) {
                slot.copy_from_slice(&key.to_le_bytes());
            }
            rest = tail;
        }
        Ok(())
    })?;
    let ends = PyBytes::new_with(py, 8 * (jobs.len() + 1), |buf| {
        let counts = parts.iter().flat_map(|(_, counts)| counts);
        let mut end = 0u64;
        let mut slots = buf.chunks_exact_mut(8);
        if let Some(first) = slots.next() {
            first.copy_from_slice(&0u64.to_le_bytes());
        }
        for (slot, &count) in slots.zip(counts) {
            end += u64::from(count);
            slot.copy_from_slice(&end.to_le_bytes());
        }
        Ok(())
    })?;
    Ok((plays.unbind(), ends.unbind()))
}

fn policy(py: Python<'_>, name: &str) -> PyResult<Policy> {
    match name {
        "random" => Ok(Policy::Random),
        "rule" => Ok(Policy::Rule { epsilon_inverse: 0 }),
        other => Err(to_py(
            py,
            EngineError::RuleOption(format!(
                "unknown playout policy {other:?}: expected random or rule"
            )),
        )),
    }
}

/// Unstable, for benches only: play `games` whole deals of card play from fresh
/// random deals in Rust with `policy` (`"random"` or `"rule"`) for every seat;
/// returns each seat's wins. Dou Dizhu deals skip bidding (a random landlord at
/// bid 1).
#[pyfunction(name = "climbing_random_playouts")]
fn bench_climbing_random_playouts(
    py: Python<'_>,
    game: &str,
    games: u64,
    seed: u64,
    policy_name: &str,
) -> PyResult<[u64; 3]> {
    let is_ddz = rules(py, game)? == Rules::DouDizhu;
    let policy = policy(py, policy_name)?;
    // A rule playout of a whole deal takes ~14 us, a random one ~5.
    let micros = games.saturating_mul(30);
    interrupt::run_sized(py, micros, |cancel| {
        playout::random_playouts(is_ddz, games, seed, policy, cancel)
    })?
    .py_err(py)
}

/// Dou Dizhu landlord playouts of a 17-card hand: (wins, total score at bid 1).
///
/// Each of `samples` seeded deals gives the 37 cards `hand` cannot see at random to
/// the two other seats (17 each) and the three bottom cards, which `hand` takes as
/// landlord and leads; every seat plays the rule policy to the end. The score is
/// the landlord's at bid 1 (x2 per bomb or rocket and for spring or reverse spring,
/// the landlord twice a farmer's stake), summed. Runs without the GIL, stops on
/// Ctrl-C, and uses the same memory for any `samples`.
#[pyfunction]
fn doudizhu_landlord_playouts(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = arg)] samples: u32,
    #[pyo3(from_py_with = arg)] seed: u64,
) -> PyResult<(u32, i64)> {
    let hand = extract_ranks(hand)?;
    // A rule playout of a whole deal takes ~14 us and the deal's shuffle ~1: 30 for margin.
    let micros = u64::from(samples).saturating_mul(30);
    let estimate = interrupt::run_sized(py, micros, |cancel| {
        playout::landlord_playouts(&hand, samples, &mut CardRng::new(seed), cancel)
    })?
    .py_err(py)?;
    Ok((estimate.wins, estimate.score))
}

/// A card-play position as one seat sees it, for the rule policy and the search.
#[pyclass(frozen, module = "cardkit._core", name = "ClimbingView")]
pub struct PyClimbingView {
    deal: Deal,
    unknown: Ranks,
    pinned: [Ranks; 3],
    evidence: Option<Evidence>,
}

/// The card-play game of `rules`, with Dou Dizhu's settled bidding checked (the
/// landlord a seat, the bid 1-3).
fn card_play_game(py: Python<'_>, rules: Rules, landlord: u8, bid: u8) -> PyResult<Game> {
    match rules {
        Rules::DouDizhu if landlord > 2 => Err(seat_error(py, landlord.into())),
        Rules::DouDizhu if !(1..=3).contains(&bid) => Err(to_py(
            py,
            EngineError::RuleOption(format!("bid {bid} is not a Dou Dizhu bid: bids are 1-3")),
        )),
        Rules::DouDizhu => Ok(Game::DouDizhu { landlord, bid }),
        Rules::ZhengShangyou => Ok(Game::ZhengShangyou),
    }
}

/// A view whose seats or card counts do not fit together.
fn inconsistent_view(py: Python<'_>, what: &str) -> PyErr {
    to_py(py, EngineError::IllegalAction(what.to_string()))
}

#[pymethods]
impl PyClimbingView {
    /// `seat` holds `hand`; `counts` are every seat's card counts; `unknown` is
    /// every card `seat` cannot see (split among the others by the search);
    /// `table` with its `table_owner` and `passes`; `plays` per seat; Dou Dizhu's
    /// `landlord`, `bid` and `bombs`; Zheng Shangyou's `opening` and `pending_bomb`;
    /// `pinned`: per seat, rank text of cards known to be in that hand; `history`:
    /// the card play so far as (seat, rank text or None for a pass), oldest first,
    /// whose passes the search then deals the hidden cards to fit.
    #[new]
    #[pyo3(signature = (game, seat, hand, counts, unknown, table=None, table_owner=0,
        passes=0, plays=[0, 0, 0], landlord=0, bid=1, bombs=0, opening=false,
        pending_bomb=false, pinned=None, history=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] game: &str,
        #[pyo3(from_py_with = arg)] seat: u8,
        hand: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = arg)] counts: [u8; 3],
        unknown: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = arg)] table: Option<Bound<'_, PyCombination>>,
        #[pyo3(from_py_with = arg)] table_owner: u8,
        #[pyo3(from_py_with = arg)] passes: u8,
        #[pyo3(from_py_with = arg)] plays: [u16; 3],
        #[pyo3(from_py_with = arg)] landlord: u8,
        #[pyo3(from_py_with = arg)] bid: u8,
        #[pyo3(from_py_with = arg)] bombs: u8,
        #[pyo3(from_py_with = arg)] opening: bool,
        #[pyo3(from_py_with = arg)] pending_bomb: bool,
        #[pyo3(from_py_with = arg)] pinned: Option<[String; 3]>,
        #[pyo3(from_py_with = arg)] history: Option<
            Bounded<(u8, Option<String>), LONGEST_CARD_PLAY>,
        >,
    ) -> PyResult<Self> {
        let rules = rules(py, game)?;
        if seat > 2 || table_owner > 2 || landlord > 2 {
            return Err(inconsistent_view(py, "seats are 0, 1 and 2"));
        }
        let hand = extract_ranks(hand)?;
        let unknown = extract_ranks(unknown)?;
        let others: usize = (0..3u8)
            .filter(|&s| s != seat)
            .map(|s| counts[s as usize] as usize)
            .sum();
        if hand.len() != counts[seat as usize] as usize || unknown.len() != others {
            return Err(inconsistent_view(
                py,
                "hand and unknown cards must match the card counts",
            ));
        }
        let game = card_play_game(py, rules, landlord, bid)?;
        let mut hands = [Ranks::default(); 3];
        hands[seat as usize] = hand;
        // Other hands are placeholders of the right size until a search deals them.
        let mut pool = unknown;
        for s in (0..3u8).filter(|&s| s != seat) {
            let mut h = Ranks::default();
            let mut need = counts[s as usize];
            for r in 0..pool.0.len() {
                let k = pool.0[r].min(need);
                h.0[r] += k;
                pool.0[r] -= k;
                need -= k;
            }
            hands[s as usize] = h;
        }
        let mut deal = Deal::new(game, hands, seat);
        deal.to_move = seat;
        deal.table = table.map(|t| t.get().0);
        deal.table_owner = table_owner;
        deal.passes = passes;
        deal.plays = plays;
        deal.bombs = bombs;
        deal.opening = opening && rules == Rules::ZhengShangyou;
        deal.pending_bomb = pending_bomb;
        let mut pinned_ranks = [Ranks::default(); 3];
        if let Some(texts) = pinned {
            for (slot, text) in pinned_ranks.iter_mut().zip(texts.iter()) {
                *slot = Ranks::parse(text).py_err(py)?;
            }
        }
        let mut moves = Vec::new();
        for (s, text) in history.map(|h| h.0).unwrap_or_default() {
            let cards = text.map(|t| Ranks::parse(&t)).transpose().py_err(py)?;
            moves.push((s, cards));
        }
        let evidence = match moves.first() {
            Some(&(first, _)) => {
                Some(Evidence::new(&deal, seat, first, &moves, &unknown).py_err(py)?)
            }
            None => None,
        };
        Ok(PyClimbingView {
            deal,
            unknown,
            pinned: pinned_ranks,
            evidence,
        })
    }

    /// The rule-based policy's move: rank text, or None to pass.
    fn rule_move(&self) -> Option<String> {
        playout::rule_move(&self.deal).map(|c| c.cards.to_string())
    }

    /// The search's move after `samples` determinized deals (seeded): rank text or None.
    ///
    /// `endgame_cards` > 0 solves each sampled world exactly once at most that many
    /// cards are left in all hands, each solve visiting at most `endgame_nodes`
    /// nodes (past that, the world is played out as without the solver).
    /// `halving` spends the same playouts by successive halving of the candidates.
    /// `shedding` plays the playouts with the shedding policy (the stronger
    /// playouts of both games' searches) instead of the rule policy.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (
        samples, seed, endgame_cards = 0, endgame_nodes = 20_000, halving = false, shedding = false
    ))]
    fn search_move(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] samples: u32,
        #[pyo3(from_py_with = arg)] seed: u64,
        #[pyo3(from_py_with = arg)] endgame_cards: u8,
        #[pyo3(from_py_with = arg)] endgame_nodes: u32,
        #[pyo3(from_py_with = arg)] halving: bool,
        #[pyo3(from_py_with = arg)] shedding: bool,
    ) -> PyResult<Option<String>> {
        let (deal, unknown, pinned) = (&self.deal, &self.unknown, &self.pinned);
        let endgame = Endgame {
            cards: u32::from(endgame_cards),
            nodes: u64::from(endgame_nodes),
        };
        // A rule playout costs about 0.25 us a card left (a whole Dou Dizhu deal
        // ~14 us; counted as 0.5 for margin), a solver node about 1 us; hand-built
        // hands bigger than a real deal's get no estimate.
        let cards: usize = deal.hands.iter().map(|h| h.len()).sum();
        let solving = if endgame.cards > 0 { endgame.nodes } else { 0 };
        let micros = if deal.hands.iter().all(|h| h.len() <= 20) {
            playout::search_playouts(deal, samples, halving)
                .saturating_mul(cards as u64 / 2 + 1 + solving)
        } else {
            u64::MAX
        };
        let mv = interrupt::run_sized(py, micros, |cancel| {
            let mut rng = CardRng::new(seed);
            playout::search_move(
                deal,
                unknown,
                pinned,
                samples,
                endgame,
                halving,
                self.evidence.as_ref(),
                if shedding {
                    playout::SHEDDING_PLAYOUT
                } else {
                    playout::SEARCH_PLAYOUT
                },
                &mut rng,
                cancel,
            )
        })?
        .py_err(py)?;
        Ok(mv.map(|c| c.cards.to_string()))
    }

    /// The seat's legal moves as rank texts (pass as None).
    fn legal(&self) -> Vec<Option<String>> {
        self.deal
            .legal()
            .into_iter()
            .map(|m| m.map(|c| c.cards.to_string()))
            .collect()
    }
}

/// The shared action objects of a climbing game: pass and one per play.
///
/// One game family's canonical objects, shared by all its deals: `pass` and one
/// object per play (keyed by its ranks), made once by `make(rank_text)`, so that
/// listing the legal actions of a turn builds no strings and no objects.
///
/// Bounded like every action cache of cardkit (`cardkit.games._intern.Interner`,
/// whose `MAX_INTERNED` Python passes as `limit`): once `limit` plays are kept, a
/// new play's object is still made and handed out, only not kept.
#[pyclass(frozen, module = "cardkit._core", name = "ClimbingActions")]
pub struct PyClimbingActions {
    make: Py<PyAny>,
    pass: Py<PyAny>,
    limit: usize,
    plays: Mutex<HashMap<u64, Py<PyAny>, BuildHasherDefault<KeyHasher>>>,
}

impl PyClimbingActions {
    /// The action objects of `moves`, in order. The lock is never held while Python
    /// runs (`make` is Python), so threads sharing the table cannot deadlock.
    fn objects(&self, py: Python<'_>, moves: &[Move]) -> PyResult<Vec<Py<PyAny>>> {
        let mut out: Vec<Option<Py<PyAny>>> = Vec::with_capacity(moves.len());
        {
            let plays = self.plays.lock().map_err(|_| poisoned(py))?;
            for mv in moves {
                out.push(match mv {
                    None => Some(self.pass.clone_ref(py)),
                    Some(c) => plays.get(&c.cards.key()).map(|o| o.clone_ref(py)),
                });
            }
        }
        let mut done = Vec::with_capacity(moves.len());
        for (slot, mv) in out.into_iter().zip(moves) {
            match (slot, mv) {
                (Some(obj), _) => done.push(obj),
                (None, Some(c)) => {
                    let made = self.make.bind(py).call1((c.cards.to_string(),))?.unbind();
                    let mut plays = self.plays.lock().map_err(|_| poisoned(py))?;
                    let room = plays.len() < self.limit;
                    // Another thread may have kept this play meanwhile: hand out its object.
                    match plays.get(&c.cards.key()) {
                        Some(kept) => done.push(kept.clone_ref(py)),
                        None if room => {
                            plays.insert(c.cards.key(), made.clone_ref(py));
                            done.push(made);
                        }
                        None => done.push(made),
                    }
                }
                (None, None) => done.push(self.pass.clone_ref(py)),
            }
        }
        Ok(done)
    }
}

fn poisoned(py: Python<'_>) -> PyErr {
    to_py(
        py,
        EngineError::RuleOption("the climbing action table was poisoned by a panic".into()),
    )
}

#[pymethods]
impl PyClimbingActions {
    /// `make(rank_text)` returns the action of a play; `pass_action` is the pass;
    /// at most `limit` play objects are kept.
    #[new]
    fn new(
        #[pyo3(from_py_with = arg)] make: Callable,
        pass_action: Py<PyAny>,
        #[pyo3(from_py_with = arg)] limit: usize,
    ) -> Self {
        PyClimbingActions {
            make: make.0,
            pass: pass_action,
            limit,
            plays: Mutex::new(HashMap::default()),
        }
    }

    /// How many play objects are kept (at most `limit`).
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.plays.lock().map_err(|_| poisoned(py))?.len())
    }
}

/// The card play of one climbing deal, stepped one move at a time.
///
/// Dou Dizhu after the bidding, or Zheng Shangyou, stepped from Python: legal
/// actions as shared action objects, apply by action, and the hands, table, plays
/// and bonuses for observations and scoring.
#[pyclass(module = "cardkit._core", name = "ClimbingDeal")]
pub struct PyClimbingDeal {
    pub(crate) play: CardPlay,
    actions: Py<PyClimbingActions>,
    /// The action objects of `play.legal()`, in the same order, once listed.
    legal: Option<Vec<Py<PyAny>>>,
}

fn seat_error(py: Python<'_>, seat: usize) -> PyErr {
    to_py(
        py,
        EngineError::RuleOption(format!("seat {seat} is not a seat: seats are 0, 1 and 2")),
    )
}

impl PyClimbingDeal {
    fn listed(&mut self, py: Python<'_>) -> PyResult<&[Py<PyAny>]> {
        if self.legal.is_none() {
            let objects = self.actions.get().objects(py, self.play.legal())?;
            self.legal = Some(objects);
        }
        Ok(self.legal.as_deref().unwrap_or_default())
    }

    /// Which listed move `action` names: the listed object itself, or its exact text.
    fn find(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        if let Some(i) = self.listed(py)?.iter().position(|o| o.is(action)) {
            return Ok(Some(i));
        }
        let Ok(text) = action.cast::<PyString>() else {
            return Ok(None);
        };
        let text = text.to_string_lossy();
        let wanted: Move = if text == "pass" {
            None
        } else {
            let Some(ranks) = text.strip_prefix("play ") else {
                return Ok(None);
            };
            match Ranks::parse(ranks) {
                // Only the canonical text (ranks weakest first) names a listed action.
                Ok(r) if r.to_string() == ranks => {
                    match self.play.legal().iter().flatten().find(|c| c.cards == r) {
                        Some(c) => Some(*c),
                        None => return Ok(None),
                    }
                }
                _ => return Ok(None),
            }
        };
        Ok(self.play.legal().iter().position(|m| *m == wanted))
    }

    fn seat(py: Python<'_>, seat: usize) -> PyResult<usize> {
        if seat < 3 {
            Ok(seat)
        } else {
            Err(seat_error(py, seat))
        }
    }
}

fn move_text(mv: &Move) -> String {
    mv.map_or_else(|| "pass".to_string(), |c| format!("play {}", c.cards))
}

#[pymethods]
impl PyClimbingDeal {
    /// `hands` (three lists of cards) with `leader` to lead; Dou Dizhu's `landlord` and
    /// `bid`; `plays`: plays each seat made before (for positions set up mid-deal).
    #[new]
    #[pyo3(signature = (game, hands, leader, actions, landlord=0, bid=1, plays=[0, 0, 0]))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] game: &str,
        #[pyo3(from_py_with = arg)] hands: [Cards; 3],
        #[pyo3(from_py_with = arg)] leader: u8,
        #[pyo3(from_py_with = arg)] actions: Bound<'_, PyClimbingActions>,
        #[pyo3(from_py_with = arg)] landlord: u8,
        #[pyo3(from_py_with = arg)] bid: u8,
        #[pyo3(from_py_with = arg)] plays: [u16; 3],
    ) -> PyResult<Self> {
        let game = card_play_game(py, rules(py, game)?, landlord, bid)?;
        let mut sets = [CardSet::EMPTY; 3];
        for (set, cards) in sets.iter_mut().zip(hands.iter()) {
            for &card in &cards.0 {
                if !set.insert(card) {
                    return Err(to_py(
                        py,
                        EngineError::InvalidCard("a card is in a hand twice".into()),
                    ));
                }
            }
        }
        let play = CardPlay::new(game, sets, leader, plays).py_err(py)?;
        Ok(PyClimbingDeal {
            play,
            actions: actions.unbind(),
            legal: None,
        })
    }

    /// The legal actions of the seat to act (plays, then pass); empty once over.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let listed = self.listed(py)?;
        PyList::new(py, listed.iter().map(|o| o.bind(py)))
    }

    /// Apply `action` and return its listed object; `None` (no change) if illegal.
    ///
    /// `action` is a listed action object or its canonical text.
    fn apply(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyAny>>> {
        let Some(i) = self.find(py, action)? else {
            return Ok(None);
        };
        let mv = self.play.legal().get(i).copied().flatten();
        let chosen = self
            .legal
            .as_ref()
            .and_then(|l| l.get(i))
            .map(|o| o.clone_ref(py));
        self.play.apply(mv).py_err(py)?;
        self.legal = None;
        Ok(chosen)
    }

    /// The fixed action-index ids of the legal moves, ascending (pass is 0).
    ///
    /// The game's index (Dou Dizhu's or Zheng Shangyou's) numbers every play a
    /// hand can make, so every listed move has one.
    fn legal_ids(&mut self) -> Vec<u32> {
        let index = game_index(self.play.deal().game);
        let mut ids: Vec<u32> = self
            .play
            .legal()
            .iter()
            .filter_map(|mv| index.move_id(mv))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Write the card-play part of `seat`'s observation tensor into `out`.
    ///
    /// `out` is a float32 array of zeros at least `climbing_card_play_size(game)`
    /// long; returns how many floats were written (the rest is the game's).
    fn write_observation(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] seat: usize,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let seat = Self::seat(py, seat)?;
        let deal = self.play.deal();
        let need = observe::card_play_len(observe::max_hand(deal.game));
        with_f32_out(out, |slice| {
            if slice.len() < need {
                return Err(to_py(
                    py,
                    EngineError::RuleOption(format!(
                        "out holds {} floats, the card play needs {need}",
                        slice.len()
                    )),
                ));
            }
            Ok(observe::write_card_play(
                deal,
                self.play.played_ranks(),
                seat as u8,
                &mut slice[..need],
            ))
        })
    }

    /// The seat to act, or None once a hand is empty.
    #[getter]
    fn to_move(&self) -> Option<u8> {
        let deal = self.play.deal();
        if deal.is_over() {
            None
        } else {
            Some(deal.to_move)
        }
    }

    /// The seat that went out, or None.
    #[getter]
    fn winner(&self) -> Option<u8> {
        self.play.deal().winner
    }

    /// True once a hand is empty.
    #[getter]
    fn over(&self) -> bool {
        self.play.deal().is_over()
    }

    /// The combination to beat, or None when the seat to act leads.
    #[getter]
    fn table(&self) -> Option<PyCombination> {
        self.play.deal().table.map(PyCombination)
    }

    /// The seat that played the table (the last leader when the table is empty).
    #[getter]
    fn table_owner(&self) -> u8 {
        self.play.deal().table_owner
    }

    /// Consecutive passes since the table was played.
    #[getter]
    fn passes(&self) -> u8 {
        self.play.deal().passes
    }

    /// Plays (not passes) each seat has made.
    #[getter]
    fn plays(&self) -> [u16; 3] {
        self.play.deal().plays
    }

    /// Cards left in each hand.
    #[getter]
    fn card_counts(&self) -> [usize; 3] {
        self.play.deal().hands.map(|h| h.len())
    }

    /// Zheng Shangyou: the next play is the deal's opening play.
    #[getter]
    fn opening(&self) -> bool {
        self.play.deal().opening
    }

    /// Zheng Shangyou: the table is a response bomb whose bonus is not settled yet.
    #[getter]
    fn pending_bomb(&self) -> bool {
        self.play.deal().pending_bomb
    }

    /// Dou Dizhu: four-card bombs played.
    #[getter]
    fn bombs(&self) -> u8 {
        self.play.deal().bombs - self.play.rockets()
    }

    /// Dou Dizhu: rockets played.
    #[getter]
    fn rockets(&self) -> u8 {
        self.play.rockets()
    }

    /// Zheng Shangyou: settled bomb bonuses per seat.
    #[getter]
    fn bonus(&self) -> [i32; 3] {
        self.play.deal().bonus
    }

    /// The cards of `seat`'s hand, weakest rank first.
    fn hand(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] seat: usize,
    ) -> PyResult<Vec<PyCard>> {
        let seat = Self::seat(py, seat)?;
        Ok(self.play.hand(seat).into_iter().map(PyCard).collect())
    }

    /// The ranks of `seat`'s hand as rank text, weakest first.
    fn hand_ranks(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] seat: usize,
    ) -> PyResult<String> {
        let seat = Self::seat(py, seat)?;
        Ok(self.play.deal().hands[seat].to_string())
    }

    /// The cards `seat` has played, in play order.
    fn played(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] seat: usize,
    ) -> PyResult<Vec<PyCard>> {
        let seat = Self::seat(py, seat)?;
        Ok(self.play.played(seat).iter().copied().map(PyCard).collect())
    }

    /// The ranks `seat` has played, weakest first.
    fn played_ranks(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] seat: usize,
    ) -> PyResult<String> {
        let seat = Self::seat(py, seat)?;
        Ok(Ranks::from_cards(self.play.played(seat).iter().copied()).to_string())
    }

    /// Every card-play move so far as (seat, action text).
    fn log(&self) -> Vec<(u8, String)> {
        self.play
            .log()
            .iter()
            .map(|(s, m)| (*s, move_text(m)))
            .collect()
    }

    /// Zheng Shangyou: (owner, ranks) of every response bomb whose bonus was settled.
    fn bonus_log(&self) -> Vec<(u8, String)> {
        let log = self.play.bonus_log().iter();
        log.map(|(s, c)| (*s, c.cards.to_string())).collect()
    }

    /// An independent copy (the action table is shared).
    fn copy(&self, py: Python<'_>) -> Self {
        PyClimbingDeal {
            play: self.play.clone(),
            actions: self.actions.clone_ref(py),
            legal: self
                .legal
                .as_ref()
                .map(|l| l.iter().map(|o| o.clone_ref(py)).collect()),
        }
    }
}

pub fn register(m: &Bound<'_, PyModule>, bench: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCombination>()?;
    m.add_class::<PyClimbingView>()?;
    m.add_class::<PyClimbingActions>()?;
    m.add_class::<PyClimbingDeal>()?;
    m.add_function(wrap_pyfunction!(climbing_classify, m)?)?;
    m.add_function(wrap_pyfunction!(climbing_leads, m)?)?;
    m.add_function(wrap_pyfunction!(climbing_responses, m)?)?;
    m.add_function(wrap_pyfunction!(climbing_beats, m)?)?;
    m.add_function(wrap_pyfunction!(doudizhu_action_space_size, m)?)?;
    m.add_function(wrap_pyfunction!(doudizhu_play_id, m)?)?;
    m.add_function(wrap_pyfunction!(doudizhu_play_of_id, m)?)?;
    m.add_function(wrap_pyfunction!(doudizhu_legal_ids_batch, m)?)?;
    m.add_function(wrap_pyfunction!(doudizhu_plays_batch, m)?)?;
    m.add_function(wrap_pyfunction!(zhengshangyou_action_space_size, m)?)?;
    m.add_function(wrap_pyfunction!(zhengshangyou_play_id, m)?)?;
    m.add_function(wrap_pyfunction!(zhengshangyou_play_of_id, m)?)?;
    m.add_function(wrap_pyfunction!(climbing_card_play_size, m)?)?;
    m.add_function(wrap_pyfunction!(doudizhu_landlord_playouts, m)?)?;
    bench.add_function(wrap_pyfunction!(bench_climbing_play_texts, bench)?)?;
    bench.add_function(wrap_pyfunction!(bench_climbing_random_playouts, bench)?)?;
    Ok(())
}
