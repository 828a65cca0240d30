//! The one place engine errors become Python exceptions.
//!
//! The exception classes live in `cardkit/errors.py` because each is both a
//! `CardkitError` and a `ValueError`, which `create_exception!` cannot express.

use cardkit_engine::EngineError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn class_name(err: &EngineError) -> &'static str {
    match err {
        EngineError::InvalidCard(_) => "InvalidCardError",
        EngineError::IllegalAction(_) => "IllegalActionError",
        EngineError::RuleOption(_) => "RuleOptionError",
    }
}

/// Convert an engine error into the matching `cardkit.errors` exception.
pub fn to_py(py: Python<'_>, err: EngineError) -> PyErr {
    let message = err.to_string();
    let class = py
        .import("cardkit.errors")
        .and_then(|m| m.getattr(class_name(&err)));
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
