//! `Card`, card parsing, decks and the seeded shuffle.

use crate::args::{arg, Cards};
use crate::errors::{to_py, IntoPyResult};
use cardkit_engine::cards::{self, Card, MAX_CARDS};
use cardkit_engine::error::cut;
use cardkit_engine::{deck as decks, rng, EngineError};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

const RANK_NAMES: [&str; 15] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "BJ", "RJ",
];

/// A card of the French 54-card pack (immutable, hashable, ordered by index).
#[pyclass(frozen, freelist = 256, module = "cardkit._core", name = "Card")]
#[derive(Clone, Copy)]
pub struct PyCard(pub Card);

/// Accept a `Card` or a card string; anything else is an `InvalidCardError`.
pub fn extract_card(obj: &Bound<'_, PyAny>) -> PyResult<Card> {
    if let Ok(c) = obj.cast::<PyCard>() {
        return Ok(c.get().0);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        // Lossy: a lone surrogate becomes U+FFFD and fails to parse as a card,
        // instead of leaking Python's UnicodeEncodeError.
        return Card::parse(&s.to_string_lossy()).py_err(obj.py());
    }
    let shown = repr_of(obj);
    Err(to_py(
        obj.py(),
        EngineError::InvalidCard(format!(
            "invalid card {shown}: expected a Card or a card string"
        )),
    ))
}

/// `repr(obj)` for error messages, cut to about 80 characters (a failing `__repr__`
/// shows as `?`, so building the message can never raise a second error).
pub fn repr_of(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| cut(&r.to_string()))
        .unwrap_or_else(|_| "?".into())
}

#[pymethods]
impl PyCard {
    /// Parse `"As"`, `"10h"`, `"Th"`, `"A♠"`, `"BJ"`, `"RJ"` or copy a `Card`.
    #[new]
    fn py_new(card: &Bound<'_, PyAny>) -> PyResult<Self> {
        extract_card(card).map(PyCard)
    }

    /// The card with index 0..=53 (see `Card.index`).
    #[staticmethod]
    fn from_index(index: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = index.py();
        let bad = || {
            let shown = repr_of(index);
            to_py(
                py,
                EngineError::InvalidCard(format!("invalid card index {shown}: expected 0..=53")),
            )
        };
        if index.is_instance_of::<pyo3::types::PyBool>() {
            return Err(bad());
        }
        let i = index.extract::<u32>().map_err(|_| bad())?;
        Card::from_index(i).py_err(py).map(PyCard)
    }

    /// The rank as text: 2 to 9, T, J, Q, K, A, or BJ/RJ for the jokers.
    #[getter]
    fn rank(&self) -> &'static str {
        RANK_NAMES[self.0.rank() as usize]
    }

    /// Rank number: 0 (deuce) .. 12 (ace), 13 black joker, 14 red joker.
    #[getter]
    fn rank_index(&self) -> u8 {
        self.0.rank()
    }

    /// Suit letter `c`, `d`, `h` or `s`; `None` for jokers.
    #[getter]
    fn suit(&self) -> Option<&'static str> {
        self.0.suit().map(|s| ["c", "d", "h", "s"][s as usize])
    }

    /// Index 0..=53: `rank * 4 + suit` (suits c, d, h, s), then BJ = 52, RJ = 53.
    #[getter]
    fn index(&self) -> u8 {
        self.0.index()
    }

    /// True for the two jokers.
    #[getter]
    fn is_joker(&self) -> bool {
        self.0.is_joker()
    }

    /// Display form with suit symbols: `A♠`, `10♥`, `BJ`.
    #[getter]
    fn pretty(&self) -> String {
        self.0.pretty()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Card('{}')", self.0)
    }

    fn __hash__(&self) -> u64 {
        u64::from(self.0.index())
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyObject_or_bool {
        match other.cast::<PyCard>() {
            Ok(o) => PyObject_or_bool::Bool(op.matches(self.0.cmp(&o.get().0))),
            Err(_) => PyObject_or_bool::NotImplemented,
        }
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let cls = slf.get_type().into_any();
        let args = PyTuple::new(py, [slf.get().0.to_string()])?;
        Ok((cls, args))
    }
}

/// Rich comparison result: a bool, or `NotImplemented` for foreign types.
#[allow(non_camel_case_types)]
pub enum PyObject_or_bool {
    Bool(bool),
    NotImplemented,
}

impl<'py> IntoPyObject<'py> for PyObject_or_bool {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = std::convert::Infallible;

    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        Ok(match self {
            PyObject_or_bool::Bool(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any(),
            PyObject_or_bool::NotImplemented => py.NotImplemented().into_bound(py),
        })
    }
}

/// Cards from a string (`"AsKs"`, `"As Ks"`) or an iterable of `Card`s / card strings.
/// More than `MAX_CARDS` (108, the largest deck) is an `InvalidCardError`, raised
/// before the items are read (for sized inputs) or as soon as one too many is (for
/// iterators, which may be endless).
pub fn extract_cards(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    let py = obj.py();
    if let Ok(s) = obj.cast::<PyString>() {
        return cards::parse_cards(&s.to_string_lossy()).py_err(py);
    }
    let too_many = |n: usize| to_py(py, cards::too_many_cards(n));
    // Lists and tuples are walked directly: the generic iterator asks Python for a
    // length hint on every call, which costs more than evaluating the hand.
    let mut out = Vec::with_capacity(8);
    if let Ok(list) = obj.cast::<PyList>() {
        if list.len() > MAX_CARDS {
            return Err(too_many(list.len()));
        }
        for item in list.iter() {
            out.push(extract_card(&item)?);
        }
        return Ok(out);
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        if tuple.len() > MAX_CARDS {
            return Err(too_many(tuple.len()));
        }
        for item in tuple.iter() {
            out.push(extract_card(&item)?);
        }
        return Ok(out);
    }
    let iter = obj.try_iter().map_err(|_| {
        let shown = repr_of(obj);
        to_py(
            py,
            EngineError::InvalidCard(format!(
                "invalid cards {shown}: expected a string or an iterable of cards"
            )),
        )
    })?;
    for item in iter {
        if out.len() == MAX_CARDS {
            return Err(too_many(MAX_CARDS + 1));
        }
        out.push(extract_card(&item?)?);
    }
    Ok(out)
}

/// Parse a string of cards or an iterable of cards and card strings into `Card`s.
///
/// A string may pack or separate its cards: `"As Kd Th"`, `"AsKdTh"`, `"As,Kd"`.
#[pyfunction]
pub fn parse_cards(#[pyo3(from_py_with = arg)] cards: Cards) -> PyResult<Vec<PyCard>> {
    Ok(cards.0.into_iter().map(PyCard).collect())
}

/// The cards of a named deck in ascending order, pack after pack.
///
/// The names: `standard52`, `french54`, `double104`, `double108`, `zhengshangyou48`.
#[pyfunction]
pub fn deck(py: Python<'_>, #[pyo3(from_py_with = arg)] name: &str) -> PyResult<Vec<PyCard>> {
    Ok(decks::deck(name)
        .py_err(py)?
        .into_iter()
        .map(PyCard)
        .collect())
}

/// The named deck shuffled by the portable ChaCha8 stream of `seed` (0..2**64).
#[pyfunction]
pub fn shuffled_deck(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] name: &str,
    #[pyo3(from_py_with = arg)] seed: u64,
) -> PyResult<Vec<PyCard>> {
    let mut cards = decks::deck(name).py_err(py)?;
    rng::shuffle_seeded(&mut cards, seed);
    Ok(cards.into_iter().map(PyCard).collect())
}

/// The card indices (`Card.index`) of `shuffled_deck(name, seed)`, one byte a card.
///
/// For dealing code that sorts or counts cards as small ints: no `Card` is made.
#[pyfunction]
pub fn shuffled_deck_indices<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = arg)] name: &str,
    #[pyo3(from_py_with = arg)] seed: u64,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut cards = decks::deck(name).py_err(py)?;
    rng::shuffle_seeded(&mut cards, seed);
    let indices: Vec<u8> = cards.into_iter().map(|c| c.index()).collect();
    Ok(PyBytes::new(py, &indices))
}

/// Sub-seed number `stream` of `seed` (per deal, per worker), platform independent.
#[pyfunction]
pub fn derive_seed(
    #[pyo3(from_py_with = arg)] seed: u64,
    #[pyo3(from_py_with = arg)] stream: u64,
) -> u64 {
    rng::derive_seed(seed, stream)
}

/// The names accepted by `deck` and `shuffled_deck`.
#[pyfunction]
pub fn deck_names() -> Vec<&'static str> {
    decks::DECK_NAMES.to_vec()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCard>()?;
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(deck, m)?)?;
    m.add_function(wrap_pyfunction!(shuffled_deck, m)?)?;
    m.add_function(wrap_pyfunction!(shuffled_deck_indices, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(deck_names, m)?)?;
    Ok(())
}
