//! The one place engine errors become Python exceptions.
//!
//! The exception classes live in `cardkit/errors.py` because each is both a
//! `CardkitError` and a `ValueError`, which `create_exception!` cannot express.

use cardkit_engine::EngineError;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

fn class_name(err: &EngineError) -> Option<&'static str> {
    match err {
        EngineError::InvalidCard(_) => Some("InvalidCardError"),
        EngineError::IllegalAction(_) => Some("IllegalActionError"),
        EngineError::RuleOption(_) => Some("RuleOptionError"),
        EngineError::Cancelled => None,
    }
}

/// Convert an engine error into the matching `cardkit.errors` exception.
///
/// A cancelled computation becomes `KeyboardInterrupt`: the bindings only cancel
/// on Ctrl-C or on a raising callback, and they return that error themselves.
pub fn to_py(py: Python<'_>, err: EngineError) -> PyErr {
    let message = err.to_string();
    let Some(name) = class_name(&err) else {
        return PyKeyboardInterrupt::new_err(message);
    };
    let class = py.import("cardkit.errors").and_then(|m| m.getattr(name));
    match class {
        Ok(cls) => match cls.call1((message.clone(),)) {
            Ok(instance) => PyErr::from_value(instance),
            Err(e) => e,
        },
        // Only reachable if the pure-Python half of the package is missing.
        Err(_) => PyValueError::new_err(message),
    }
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
