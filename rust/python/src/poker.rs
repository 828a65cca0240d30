//! Poker hand evaluation bindings: `HandRank`, `poker_evaluate`, `poker_compare`,
//! `poker_winners` (re-exported by `cardkit.poker` under their short names).

use crate::args::{arg, named, Callable, Cards, Iterable};
use crate::cards::{extract_cards, repr_of, PyCard, PyObject_or_bool};
use crate::errors::{to_py, IntoPyResult};
use crate::interrupt;
use cardkit_engine::cards::Card;
use cardkit_engine::error::cut;
use cardkit_engine::poker::{self, Combo, HandRank, Method, Problem, Range, RangeError};
use cardkit_engine::{CardSet, EngineError};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The strength of a poker hand: totally ordered (higher is better), hashable.
///
/// Hands that split the pot are equal.
#[pyclass(frozen, freelist = 64, module = "cardkit._core", name = "HandRank")]
pub struct PyHandRank {
    rank: HandRank,
    /// The evaluated cards; the best five are picked from them on demand.
    cards: Vec<Card>,
}

fn evaluate_cards(py: Python<'_>, cards: Vec<Card>) -> PyResult<PyHandRank> {
    let rank = poker::rank_cards(&cards).py_err(py)?;
    Ok(PyHandRank { rank, cards })
}

#[pymethods]
impl PyHandRank {
    /// The numeric strength: higher is better, equal values tie.
    ///
    /// Five-card hands are multiples of 256; three-card front hands lie between them.
    #[getter]
    fn value(&self) -> u32 {
        self.rank.value()
    }

    /// The category name, from `straight_flush` down to `high_card`.
    ///
    /// One of `straight_flush`, `four_of_a_kind`, `full_house`, `flush`, `straight`,
    /// `three_of_a_kind`, `two_pair`, `one_pair`, `high_card`.
    #[getter]
    fn category(&self) -> &'static str {
        self.rank.category().as_str()
    }

    /// The five cards that make the hand, most significant first.
    ///
    /// A three-card front hand gives its three cards.
    #[getter]
    fn best_five(&self, py: Python<'_>) -> PyResult<Vec<PyCard>> {
        let (_, best) = poker::best_five(&self.cards).py_err(py)?;
        Ok(best.into_iter().map(PyCard).collect())
    }

    /// True for a three-card (Chinese Poker front) hand.
    #[getter]
    fn is_front(&self) -> bool {
        self.rank.is_front()
    }

    /// The hand in words: "Full House, Kings full of Fives", "Straight, Five high".
    fn describe(&self) -> String {
        self.rank.describe()
    }

    fn __str__(&self) -> String {
        self.rank.describe()
    }

    fn __repr__(&self) -> String {
        let shown: Vec<String> = self.cards.iter().map(|c| c.to_string()).collect();
        format!(
            "HandRank({}, '{}', value={})",
            shown.join(""),
            self.rank.describe(),
            self.rank.value()
        )
    }

    fn __hash__(&self) -> u64 {
        u64::from(self.rank.value())
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject_or_bool {
        match other.cast::<PyHandRank>() {
            Ok(o) => PyObject_or_bool::Bool(op.matches(self.rank.cmp(&o.get().rank))),
            Err(_) => PyObject_or_bool::NotImplemented,
        }
    }
}

/// Evaluate a poker hand of 3 (Chinese Poker front), 5, 6 or 7 cards.
///
/// The cards are a string such as `"AsKsQsJsTs"` or `"As Ks Qs Js Ts"`, or an
/// iterable of `Card`s / card strings. Duplicates, jokers and other counts raise
/// `InvalidCardError`.
#[pyfunction]
fn poker_evaluate(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] cards: Cards,
) -> PyResult<PyHandRank> {
    evaluate_cards(py, cards.0)
}

/// -1, 0 or 1 as hand `a` is worse than, ties with or beats hand `b`.
#[pyfunction]
fn poker_compare(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] a: Cards,
    #[pyo3(from_py_with = arg)] b: Cards,
) -> PyResult<i32> {
    let ra = poker::rank_cards(&a.0).py_err(py)?;
    let rb = poker::rank_cards(&b.0).py_err(py)?;
    Ok(ra.cmp(&rb) as i32)
}

/// Indices of the best hands (all of them on a tie).
///
/// Each hand is combined with the shared `board`; no card may appear twice among
/// all hands and the board.
#[pyfunction]
#[pyo3(signature = (hands, board = None))]
fn poker_winners(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hands: Iterable<'_>,
    #[pyo3(from_py_with = arg)] board: Option<Cards>,
) -> PyResult<Vec<usize>> {
    let board = board.map(|b| b.0).unwrap_or_default();
    let mut seen = CardSet::from_cards(board.iter().copied());
    let mut ranks = Vec::new();
    for hand in hands.0 {
        let mut cards = named(py, "hands", extract_cards(&hand?))?;
        for &c in &cards {
            if !c.is_joker() && !seen.insert(c) {
                return Err(to_py(
                    py,
                    EngineError::InvalidCard(format!(
                        "duplicate card {c}: it appears in more than one hand or on the board"
                    )),
                ));
            }
        }
        cards.extend_from_slice(&board);
        ranks.push(poker::rank_cards(&cards).py_err(py)?);
    }
    let best = ranks.iter().max().copied();
    Ok(ranks
        .iter()
        .enumerate()
        .filter(|(_, r)| Some(**r) == best)
        .map(|(i, _)| i)
        .collect())
}

/// Map a range parse error to `cardkit.errors.InvalidRangeError`.
fn range_error(py: Python<'_>, err: RangeError) -> PyErr {
    invalid_range(py, err.to_string())
}

fn invalid_range(py: Python<'_>, message: String) -> PyErr {
    match py
        .import("cardkit.errors")
        .and_then(|m| m.getattr("InvalidRangeError"))
        .and_then(|cls| cls.call1((message.clone(),)))
    {
        Ok(instance) => PyErr::from_value(instance),
        Err(_) => PyValueError::new_err(message),
    }
}

/// A weighted range of Texas Hold'em starting hands: `"QQ+, AKs, A5s-A2s, AhKh, AKo:0.5"`.
///
/// Tokens are separated by commas; an empty token (a comma at either end or two
/// commas in a row, as in `"AA,,KK"`) and an empty text raise `InvalidRangeError`,
/// whose message names the bad token or the position of the empty one.
#[pyclass(frozen, module = "cardkit._core", name = "Range")]
pub struct PyRange {
    range: Range,
}

#[pymethods]
impl PyRange {
    #[new]
    fn py_new(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let Ok(text) = text.cast::<PyString>() else {
            let shown = repr_of(text);
            let shown = cut(&shown);
            return Err(invalid_range(py, format!("a range is a str, got {shown}")));
        };
        let text = &*text.to_string_lossy();
        let range = Range::parse(text).map_err(|e| range_error(py, e))?;
        Ok(PyRange { range })
    }

    /// The text the range was parsed from.
    #[getter]
    fn text(&self) -> &str {
        self.range.text()
    }

    /// Every live combo of the range as `(card, card, weight)`, higher card first.
    ///
    /// Live: a positive weight and no card of `dead`; in ascending combo order.
    #[pyo3(signature = (dead = None))]
    fn combos(
        &self,
        #[pyo3(from_py_with = arg)] dead: Option<Cards>,
    ) -> PyResult<Vec<(PyCard, PyCard, f64)>> {
        let dead = dead.map_or(CardSet::EMPTY, |d| CardSet::from_cards(d.0));
        Ok(self
            .range
            .live_combos(dead)
            .into_iter()
            .map(|(c, w)| (PyCard(c.0), PyCard(c.1), w))
            .collect())
    }

    fn __len__(&self) -> usize {
        self.range.len()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Range({})",
            PyString::new(py, self.range.text()).repr()?
        ))
    }

    fn __str__(&self) -> String {
        self.range.text().to_string()
    }
}

/// A player of an equity question: a `Range`, a range string (a hand such as
/// `"AhAs"` is a one-combo range) or an iterable of two cards.
fn extract_player(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Range> {
    if let Ok(r) = obj.cast::<PyRange>() {
        return Ok(r.get().range.clone());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Range::parse(&s.to_string_lossy()).map_err(|e| range_error(py, e));
    }
    let cards = extract_cards(obj)?;
    match cards[..] {
        [a, b] if a != b && !a.is_joker() && !b.is_joker() => Ok(Range::single(Combo::new(a, b))),
        _ => Err(to_py(
            py,
            EngineError::InvalidCard(format!(
                "a Hold'em hand needs two different cards, got {}",
                cut(&cards
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" "))
            )),
        )),
    }
}

/// Work units (about nanoseconds on one core) above which `exact=None` chooses
/// Monte Carlo: about a second.
const AUTO_EXACT_LIMIT: f64 = 1e9;
/// Monte Carlo defaults when neither `samples` nor `stderr` is given.
const DEFAULT_STDERR: f64 = 5e-4;
const DEFAULT_MAX_SAMPLES: u64 = 100_000_000;

/// Per player `(equity, win, tie, stderr)`, then exact, samples, boards.
type EquityTuple = (Vec<(f64, f64, f64, f64)>, bool, u64, u64);

/// Equity of 2 to 10 players (hands or ranges); see `cardkit.poker.equity`.
#[pyfunction]
#[pyo3(signature = (players, board = None, dead = None, *, exact = None, samples = None, stderr = None, seed = None, threads = None, progress = None))]
#[allow(clippy::too_many_arguments)]
fn poker_equity(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] players: Iterable<'_>,
    #[pyo3(from_py_with = arg)] board: Option<Cards>,
    #[pyo3(from_py_with = arg)] dead: Option<Cards>,
    #[pyo3(from_py_with = arg)] exact: Option<bool>,
    #[pyo3(from_py_with = arg)] samples: Option<u64>,
    #[pyo3(from_py_with = arg)] stderr: Option<f64>,
    #[pyo3(from_py_with = arg)] seed: Option<u64>,
    #[pyo3(from_py_with = arg)] threads: Option<usize>,
    #[pyo3(from_py_with = arg)] progress: Option<Callable>,
) -> PyResult<EquityTuple> {
    let ranges = players
        .0
        .map(|p| named(py, "players", extract_player(py, &p?)))
        .collect::<PyResult<Vec<Range>>>()?;
    let board = board.map(|b| b.0).unwrap_or_default();
    let dead = dead.map(|d| d.0).unwrap_or_default();
    let problem = Problem::new(&ranges, &board, &dead).py_err(py)?;
    let sampling = samples.is_some() || stderr.is_some();
    let method = match exact {
        Some(true) if sampling => {
            return Err(to_py(
                py,
                EngineError::RuleOption(
                    "exact=True cannot be combined with samples or stderr".into(),
                ),
            ))
        }
        Some(true) => Method::Exact,
        None if !sampling && problem.exact_cost() <= AUTO_EXACT_LIMIT => Method::Exact,
        _ => Method::MonteCarlo {
            samples: samples.unwrap_or(DEFAULT_MAX_SAMPLES),
            stderr: match (samples, stderr) {
                (None, None) => Some(DEFAULT_STDERR),
                (_, s) => s,
            },
            seed: seed.unwrap_or(0),
        },
    };
    let progress = progress.as_ref().map(|cb| cb.0.bind(py));
    let result = interrupt::run(py, progress, |cancel, fraction| {
        cardkit_engine::poker::equity(&problem, method, threads, &|f| fraction.report(f), cancel)
    })?
    .py_err(py)?;
    Ok((
        result
            .players
            .iter()
            .map(|p| (p.equity, p.win, p.tie, p.stderr))
            .collect(),
        result.exact,
        result.samples,
        result.boards,
    ))
}

/// Rows from which `evaluate_batch` runs through `interrupt::run`. Smaller
/// batches rank on the calling thread without the GIL, as before: they take at
/// most about 10-30 ms (so Ctrl-C is still seen soon after), and a watched worker
/// thread would add its start-up, several milliseconds on a busy machine.
const WATCHED_ROWS: usize = 1 << 23;

/// Rank each row of an `(N, 5|6|7)` uint8 array of card indices into a uint32 array.
///
/// The `HandRank.value`s go into `out` (length N, written in place and returned)
/// or a new array. Runs without the GIL on `threads` threads; a large batch stops
/// on Ctrl-C with `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (cards, threads = None, out = None))]
fn poker_evaluate_batch<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = arg)] cards: Bound<'py, PyArray2<u8>>,
    #[pyo3(from_py_with = arg)] threads: Option<usize>,
    #[pyo3(from_py_with = arg)] out: Option<Bound<'py, PyArray1<u32>>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let cards = cards.try_readonly().map_err(|e| {
        to_py(
            py,
            EngineError::RuleOption(format!("cards cannot be read: {e}")),
        )
    })?;
    let [rows, width] = [cards.shape()[0], cards.shape()[1]];
    let threads = threads
        .filter(|&t| t > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // A fresh result array comes from `numpy.empty`: every value is written
    // below, and `zeros` would clear it first (calloc; 10-15% of a large call).
    let out = match out {
        Some(out) => out,
        None => py
            .import("numpy")?
            .call_method1("empty", (rows, "uint32"))?
            .cast_into::<PyArray1<u32>>()?,
    };
    {
        let mut values = out.try_readwrite().map_err(|e| {
            to_py(
                py,
                EngineError::RuleOption(format!("out cannot be written: {e}")),
            )
        })?;
        let values = values.as_slice_mut().map_err(|e| {
            to_py(
                py,
                EngineError::RuleOption(format!("out must be contiguous: {e}")),
            )
        })?;
        let copy: Vec<u8>;
        let flat = match cards.as_slice() {
            Ok(flat) => flat,
            Err(_) => {
                copy = cards.as_array().iter().copied().collect();
                &copy
            }
        };
        if rows < WATCHED_ROWS {
            py.detach(|| poker::rank_rows_into(flat, width, threads, values))
        } else {
            interrupt::run(py, None, |cancel, _| {
                poker::rank_rows_cancellable(flat, width, threads, values, cancel)
            })?
        }
        .py_err(py)?;
    }
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRange>()?;
    m.add_function(wrap_pyfunction!(poker_equity, m)?)?;
    m.add_function(wrap_pyfunction!(poker_evaluate_batch, m)?)?;
    m.add_class::<PyHandRank>()?;
    m.add_function(wrap_pyfunction!(poker_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(poker_compare, m)?)?;
    m.add_function(wrap_pyfunction!(poker_winners, m)?)?;
    Ok(())
}
