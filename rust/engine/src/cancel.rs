//! Cooperative cancellation of long computations.
//!
//! Long engine calls (equity, batch evaluation, solvers, playouts, search) take a
//! `&Cancel` and poll it between units of work; whoever started them (the Python
//! bindings, on Ctrl-C or when a progress callback raises) sets it from another
//! thread. Polling is one relaxed atomic load, cheap enough for inner loops that
//! run for about a millisecond between checks.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{EngineError, Result};

/// A stop flag shared between a long computation and its caller.
#[derive(Debug, Default)]
pub struct Cancel(AtomicBool);

impl Cancel {
    /// A flag that is not set.
    pub const fn new() -> Self {
        Cancel(AtomicBool::new(false))
    }

    /// Ask the computation to stop at its next check.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`cancel`](Self::cancel) has been called.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `Err(EngineError::Cancelled)` once cancelled, for `?` in loops.
    #[inline]
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(EngineError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// A flag that is never set, for callers with nothing to cancel (tests, benches).
pub static NEVER: Cancel = Cancel::new();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_fails_only_after_cancel() {
        let c = Cancel::new();
        assert_eq!(c.check(), Ok(()));
        c.cancel();
        assert!(c.is_cancelled());
        assert_eq!(c.check(), Err(EngineError::Cancelled));
        assert!(!NEVER.is_cancelled());
    }
}
