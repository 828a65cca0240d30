//! The one place engine errors become Python exceptions.
//!
//! The exception classes live in `cardkit/errors.py` because each is both a
//! `CardkitError` and a `ValueError`, which `create_exception!` cannot express.

use cardkit_engine::EngineError;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// The `cardkit.errors` classes, looked up once: some batch loops raise (and catch
/// in Python) an error per bad row, and an import plus attribute lookup each time
/// cost more than the error itself.
static INVALID_CARD: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ILLEGAL_ACTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static RULE_OPTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static INVALID_ARGUMENT: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn class_of(err: &EngineError) -> Option<(&'static PyOnceLock<Py<PyType>>, &'static str)> {
    match err {
        EngineError::InvalidCard(_) => Some((&INVALID_CARD, "InvalidCardError")),
        EngineError::IllegalAction(_) => Some((&ILLEGAL_ACTION, "IllegalActionError")),
        EngineError::RuleOption(_) => Some((&RULE_OPTION, "RuleOptionError")),
        EngineError::Cancelled => None,
    }
}

/// An instance of the `cardkit.errors` class `name` with `message`.
fn raise(py: Python<'_>, cell: &PyOnceLock<Py<PyType>>, name: &str, message: String) -> PyErr {
    match cell.import(py, "cardkit.errors", name) {
        Ok(cls) => match cls.call1((message.clone(),)) {
            Ok(instance) => PyErr::from_value(instance),
            Err(e) => e,
        },
        // Only reachable if the pure-Python half of the package is missing.
        Err(_) => PyValueError::new_err(message),
    }
}

/// Convert an engine error into the matching `cardkit.errors` exception.
///
/// A cancelled computation becomes `KeyboardInterrupt`: the bindings only cancel
/// on Ctrl-C or on a raising callback, and they return that error themselves.
pub fn to_py(py: Python<'_>, err: EngineError) -> PyErr {
    let message = err.to_string();
    match class_of(&err) {
        Some((cell, name)) => raise(py, cell, name, message),
        None => PyKeyboardInterrupt::new_err(message),
    }
}

/// A `cardkit.errors.InvalidArgumentError`: an argument of the wrong type, or an
/// int outside the range of the binding's parameter (see `args`).
pub fn invalid_argument(py: Python<'_>, message: String) -> PyErr {
    raise(py, &INVALID_ARGUMENT, "InvalidArgumentError", message)
}

/// `?`-friendly conversion for engine results.
pub trait IntoPyResult<T> {
    fn py_err(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for Result<T, EngineError> {
    fn py_err(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| to_py(py, e))
    }
}
