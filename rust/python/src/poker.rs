//! Poker hand evaluation bindings: `HandRank`, `poker_evaluate`, `poker_compare`,
//! `poker_winners` (re-exported by `cardkit.poker` under their short names).

use crate::cards::{extract_card, PyCard, PyObject_or_bool};
use crate::errors::{to_py, IntoPyResult};
use cardkit_engine::cards::{self, Card};
use cardkit_engine::poker::{self, HandRank};
use cardkit_engine::{CardSet, EngineError};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

/// The strength of a poker hand: totally ordered (higher is better), hashable,
/// equal for hands that split the pot.
#[pyclass(frozen, freelist = 64, module = "cardkit._core", name = "HandRank")]
pub struct PyHandRank {
    rank: HandRank,
    /// The evaluated cards; the best five are picked from them on demand.
    cards: Vec<Card>,
}

/// Cards from a string (`"AsKs"`, `"As Ks"`) or an iterable of `Card`s / card strings.
pub fn extract_cards(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    let py = obj.py();
    if let Ok(s) = obj.cast::<PyString>() {
        return cards::parse_cards(s.to_str()?).py_err(py);
    }
    // Lists and tuples are walked directly: the generic iterator asks Python for a
    // length hint on every call, which costs more than evaluating the hand.
    let mut out = Vec::with_capacity(8);
    if let Ok(list) = obj.cast::<PyList>() {
        for item in list.iter() {
            out.push(extract_card(&item)?);
        }
        return Ok(out);
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        for item in tuple.iter() {
            out.push(extract_card(&item)?);
        }
        return Ok(out);
    }
    let iter = obj.try_iter().map_err(|_| {
        let shown = obj
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_else(|_| "?".into());
        to_py(
            py,
            EngineError::InvalidCard(format!(
                "invalid cards {shown}: expected a string or an iterable of cards"
            )),
        )
    })?;
    for item in iter {
        out.push(extract_card(&item?)?);
    }
    Ok(out)
}

fn evaluate_cards(py: Python<'_>, cards: Vec<Card>) -> PyResult<PyHandRank> {
    let rank = poker::rank_cards(&cards).py_err(py)?;
    Ok(PyHandRank { rank, cards })
}

#[pymethods]
impl PyHandRank {
    /// The numeric strength: higher is better, equal values tie. Five-card hands
    /// are multiples of 256; three-card front hands lie between them.
    #[getter]
    fn value(&self) -> u32 {
        self.rank.value()
    }

    /// One of `straight_flush`, `four_of_a_kind`, `full_house`, `flush`, `straight`,
    /// `three_of_a_kind`, `two_pair`, `one_pair`, `high_card`.
    #[getter]
    fn category(&self) -> &'static str {
        self.rank.category().as_str()
    }

    /// The cards that make the hand, most significant first (the three cards of a
    /// front hand).
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

/// Evaluate 3 (Chinese Poker front), 5, 6 or 7 cards: a string such as
/// `"AsKsQsJsTs"` or `"As Ks Qs Js Ts"`, or an iterable of `Card`s / card strings.
/// Duplicates, jokers and other counts raise `InvalidCardError`.
#[pyfunction]
fn poker_evaluate(py: Python<'_>, cards: &Bound<'_, PyAny>) -> PyResult<PyHandRank> {
    evaluate_cards(py, extract_cards(cards)?)
}

/// -1, 0 or 1 as hand `a` is worse than, ties with or beats hand `b`.
#[pyfunction]
fn poker_compare(py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<i32> {
    let ra = poker::rank_cards(&extract_cards(a)?).py_err(py)?;
    let rb = poker::rank_cards(&extract_cards(b)?).py_err(py)?;
    Ok(ra.cmp(&rb) as i32)
}

/// Indices of the best hands (all of them on a tie). Each hand is combined with
/// the shared `board`; no card may appear twice among all hands and the board.
#[pyfunction]
#[pyo3(signature = (hands, board = None))]
fn poker_winners(
    py: Python<'_>,
    hands: &Bound<'_, PyAny>,
    board: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<usize>> {
    let board = match board {
        Some(b) => extract_cards(b)?,
        None => Vec::new(),
    };
    let mut seen = CardSet::from_cards(board.iter().copied());
    let mut ranks = Vec::new();
    for hand in hands.try_iter()? {
        let mut cards = extract_cards(&hand?)?;
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyHandRank>()?;
    m.add_function(wrap_pyfunction!(poker_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(poker_compare, m)?)?;
    m.add_function(wrap_pyfunction!(poker_winners, m)?)?;
    Ok(())
}
