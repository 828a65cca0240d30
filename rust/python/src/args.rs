//! Typed conversion of binding arguments.
//!
//! Left to PyO3, a `u64` parameter given `"x"` raises `TypeError`, given -1
//! `OverflowError`, and a `&str` given a lone surrogate `UnicodeEncodeError`;
//! cardkit promises a `CardkitError` naming the argument instead. A parameter
//! marked `#[pyo3(from_py_with = arg)]` converts through [`Arg`], and a value it
//! refuses raises `cardkit.errors.InvalidArgumentError` ("must be an int in
//! 0..2**64-1, got -1"). PyO3 then names the parameter in a note on the exception
//! ("while processing 'seed'"), which that class takes into its message, so the
//! Rust signatures keep their plain types and their Python defaults.

use crate::cards::{extract_cards, repr_of};
use crate::chinese_poker::PyRules;
use crate::climbing::{PyClimbingActions, PyCombination};
use crate::errors::invalid_argument;
use crate::trick::{PyActionTable, PyTrickDeal};
use cardkit_engine::Card;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyIterator, PyList, PySequence, PyString};
use pyo3::PyClass;

/// A Rust parameter type a Python argument converts to.
pub trait Arg<'a, 'py>: Sized {
    /// What a valid argument is, for the error message: "an int in 0..255".
    fn expected() -> String;

    /// The converted value; `Ok(None)` when `obj` is not one. An error raised while
    /// reading `obj` (by its iterator, or a typed error of an item, such as an
    /// invalid card) is returned as it is.
    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>>;
}

/// The `from_py_with` converter: `obj` as a `T`, else `InvalidArgumentError`
/// (PyO3 adds the parameter's name).
pub fn arg<'a, 'py, T: Arg<'a, 'py>>(obj: &'a Bound<'py, PyAny>) -> PyResult<T> {
    T::convert(obj)?.ok_or_else(|| {
        let problem = format!("must be {}, got {}", T::expected(), repr_of(obj));
        invalid_argument(obj.py(), problem)
    })
}

/// `result`, its error (if any) naming `parameter` the way PyO3 names an argument
/// it failed to convert: for an item of a list argument read in the body (a hand of
/// `hands`), so its message names the list as a boundary conversion's would.
pub fn named<T>(py: Python<'_>, parameter: &str, result: PyResult<T>) -> PyResult<T> {
    result.inspect_err(|err| {
        // A failed note leaves the original error, which is still typed and named.
        let _ = err
            .value(py)
            .call_method1("add_note", (format!("while processing '{parameter}'"),));
    })
}

/// `0..2**bits-1`, or the maximum itself for small types.
fn unsigned_range(bits: u32, max: u64) -> String {
    if bits <= 16 {
        format!("0..{max}")
    } else {
        format!("0..2**{bits}-1")
    }
}

/// A number that is not a bool: `True` as a seat, a count or a weight is a
/// mistake, not 1.
fn not_bool<'py, T: FromPyObjectOwned<'py>>(obj: &Bound<'py, PyAny>) -> Option<T> {
    if obj.is_instance_of::<PyBool>() {
        return None;
    }
    obj.extract().ok()
}

macro_rules! unsigned_arg {
    ($($t:ty),*) => {$(
        impl<'a, 'py> Arg<'a, 'py> for $t {
            fn expected() -> String {
                format!("an int in {}", unsigned_range(<$t>::BITS, <$t>::MAX as u64))
            }

            fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
                Ok(not_bool(obj))
            }
        }
    )*};
}

unsigned_arg!(u8, u16, u32, u64, usize);

impl<'a, 'py> Arg<'a, 'py> for i64 {
    fn expected() -> String {
        "an int in -2**63..2**63-1".into()
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        Ok(not_bool(obj))
    }
}

impl<'a, 'py> Arg<'a, 'py> for f64 {
    fn expected() -> String {
        "a number".into()
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        Ok(not_bool(obj))
    }
}

impl<'a, 'py> Arg<'a, 'py> for bool {
    fn expected() -> String {
        "a bool".into()
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        Ok(obj.extract().ok())
    }
}

impl<'a, 'py> Arg<'a, 'py> for String {
    fn expected() -> String {
        "a str".into()
    }

    /// Lossy: a lone surrogate becomes U+FFFD, so the text fails to parse as
    /// whatever it should name (with a message quoting it) instead of raising
    /// Python's `UnicodeEncodeError`.
    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        Ok(obj
            .cast::<PyString>()
            .ok()
            .map(|s| s.to_string_lossy().into_owned()))
    }
}

impl<'a, 'py> Arg<'a, 'py> for &'a str {
    fn expected() -> String {
        "a str".into()
    }

    /// Borrowed, for per-move calls; a lone surrogate has no UTF-8 form to borrow.
    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        let Ok(text) = obj.cast::<PyString>() else {
            return Ok(None);
        };
        text.to_str().map(Some).map_err(|_| {
            invalid_argument(
                obj.py(),
                format!(
                    "must be a str without lone surrogates, got {}",
                    repr_of(obj)
                ),
            )
        })
    }
}

impl<'a, 'py, T: Arg<'a, 'py>> Arg<'a, 'py> for Option<T> {
    fn expected() -> String {
        format!("{} or None", T::expected())
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        if obj.is_none() {
            return Ok(Some(None));
        }
        Ok(T::convert(obj)?.map(Some))
    }
}

/// The items of a list-like `obj`, converted, or `None` if `obj` is not list-like,
/// has a length other than `len` or more than `max` items, or an item does not
/// convert. A str or bytes is one value, not a list of characters.
fn items<'py, T: for<'b> Arg<'b, 'py>>(
    obj: &Bound<'py, PyAny>,
    len: Option<usize>,
    max: usize,
) -> PyResult<Option<Vec<T>>> {
    let text = obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>();
    let Some(seq) = obj.cast::<PySequence>().ok().filter(|_| !text) else {
        return Ok(None);
    };
    let Ok(n) = seq.len() else {
        return Ok(None);
    };
    if len.is_some_and(|want| want != n) || n > max {
        return Ok(None);
    }
    // `__len__` is the caller's word, not memory to reserve up front, nor a bound
    // on what its iterator yields.
    let mut out = Vec::with_capacity(n.min(64));
    for item in seq.try_iter()? {
        if out.len() == max {
            return Ok(None);
        }
        match T::convert(&item?)? {
            Some(value) => out.push(value),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

impl<'a, 'py, T: for<'b> Arg<'b, 'py>> Arg<'a, 'py> for Vec<T> {
    fn expected() -> String {
        format!("a list of items, each {}", T::expected())
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        items(obj, None, usize::MAX)
    }
}

/// A list of at most `MAX` items, for inputs whose useful length a game bounds: a
/// longer list is refused by its length before any item is read or copied.
pub struct Bounded<T, const MAX: usize>(pub Vec<T>);

impl<'a, 'py, T: for<'b> Arg<'b, 'py>, const MAX: usize> Arg<'a, 'py> for Bounded<T, MAX> {
    fn expected() -> String {
        format!("a list of at most {MAX} items, each {}", T::expected())
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        Ok(items(obj, None, MAX)?.map(Bounded))
    }
}

impl<'a, 'py, T: for<'b> Arg<'b, 'py>, const N: usize> Arg<'a, 'py> for [T; N] {
    fn expected() -> String {
        format!("a list of {N} items, each {}", T::expected())
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        Ok(items(obj, Some(N), N)?.and_then(|v| v.try_into().ok()))
    }
}

impl<'a, 'py, A: for<'b> Arg<'b, 'py>, B: for<'b> Arg<'b, 'py>> Arg<'a, 'py> for (A, B) {
    fn expected() -> String {
        format!("a pair ({}, {})", A::expected(), B::expected())
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        let Some(pair) = items::<Bound<'py, PyAny>>(obj, Some(2), 2)? else {
            return Ok(None);
        };
        match (A::convert(&pair[0])?, B::convert(&pair[1])?) {
            (Some(a), Some(b)) => Ok(Some((a, b))),
            _ => Ok(None),
        }
    }
}

/// Any object; the items of a list whose entries the binding reads itself.
impl<'a, 'py> Arg<'a, 'py> for Bound<'py, PyAny> {
    fn expected() -> String {
        "an object".into()
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        Ok(Some(obj.clone()))
    }
}

/// An instance of one of cardkit's classes.
macro_rules! class_arg {
    ($($t:ident),*) => {$(
        impl<'a, 'py> Arg<'a, 'py> for Bound<'py, $t> {
            fn expected() -> String {
                format!("a {}", <$t as PyClass>::NAME)
            }

            fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
                Ok(obj.cast::<$t>().ok().cloned())
            }
        }
    )*};
}

class_arg!(
    PyRules,
    PyCombination,
    PyClimbingActions,
    PyActionTable,
    PyTrickDeal
);

/// A numpy array of one dtype and number of dimensions.
macro_rules! array_arg {
    ($($t:ty => $what:literal),*) => {$(
        impl<'a, 'py> Arg<'a, 'py> for Bound<'py, $t> {
            fn expected() -> String {
                $what.into()
            }

            fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
                Ok(obj.cast::<$t>().ok().cloned())
            }
        }
    )*};
}

array_arg!(
    PyArray1<f32> => "a one-dimensional float32 numpy array",
    PyArray1<u32> => "a one-dimensional uint32 numpy array",
    PyArray2<u8> => "a two-dimensional uint8 numpy array",
    PyList => "a list",
    PyDict => "a dict"
);

/// A callable, such as a progress callback: checked when the call starts, not
/// when the callback is first due.
pub struct Callable(pub Py<PyAny>);

impl<'a, 'py> Arg<'a, 'py> for Callable {
    fn expected() -> String {
        "a callable".into()
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        Ok(obj.is_callable().then(|| Callable(obj.clone().unbind())))
    }
}

/// An iterable, read item by item by the binding.
pub struct Iterable<'py>(pub Bound<'py, PyIterator>);

impl<'a, 'py> Arg<'a, 'py> for Iterable<'py> {
    fn expected() -> String {
        "an iterable".into()
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        Ok(obj.try_iter().ok().map(Iterable))
    }
}

/// Cards as `parse_cards` reads them; a bad card raises `InvalidCardError`.
pub struct Cards(pub Vec<Card>);

impl<'a, 'py> Arg<'a, 'py> for Cards {
    fn expected() -> String {
        "cards".into()
    }

    fn convert(obj: &'a Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        extract_cards(obj).map(|cards| Some(Cards(cards)))
    }
}

/// Run `write` on the floats of `out`, a writable, contiguous, one-dimensional
/// float32 numpy array (the observation writers' output); anything else is a
/// `RuleOptionError` saying what `out` must be.
pub fn with_f32_out<R>(
    out: &Bound<'_, PyAny>,
    write: impl FnOnce(&mut [f32]) -> PyResult<R>,
) -> PyResult<R> {
    let py = out.py();
    let bad =
        |what: String| crate::errors::to_py(py, cardkit_engine::EngineError::RuleOption(what));
    let array = out.cast::<PyArray1<f32>>().map_err(|_| {
        bad(format!(
            "out must be a one-dimensional float32 numpy array, got {}",
            repr_of(out)
        ))
    })?;
    let mut view = array
        .try_readwrite()
        .map_err(|e| bad(format!("out cannot be written: {e}")))?;
    let slice = view
        .as_slice_mut()
        .map_err(|e| bad(format!("out must be contiguous: {e}")))?;
    write(slice)
}

/// [`with_f32_out`] for a tensor of exactly `len` floats: an `out` of any other
/// length is a `RuleOptionError` naming both lengths.
pub fn with_f32_exact<R>(
    out: &Bound<'_, PyAny>,
    len: usize,
    write: impl FnOnce(&mut [f32]) -> R,
) -> PyResult<R> {
    with_f32_out(out, |slice| {
        if slice.len() != len {
            return Err(crate::errors::to_py(
                out.py(),
                cardkit_engine::EngineError::RuleOption(format!(
                    "out holds {} floats, the tensor has {len}",
                    slice.len()
                )),
            ));
        }
        Ok(write(slice))
    })
}
