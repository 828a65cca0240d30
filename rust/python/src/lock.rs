//! The per-state lock of the Python states: a reentrant lock whose uncontended
//! `acquire` and `release` take no arguments to parse.
//!
//! Every `apply` and reader of a state takes its lock, twice a move on the hot path
//! of a random playout; `_thread.RLock.acquire` parses its optional arguments on
//! each call, which costs about as much as the rest of the lock. The fast path here
//! is one compare-and-swap; a thread that finds the lock held by another waits
//! without the GIL and runs signal handlers as it waits, as `RLock` does.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::SeqCst};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use pyo3::prelude::*;

use crate::errors::invalid_argument;

/// How long a waiting thread sleeps between looks at the signal handlers.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// The calling thread's identifier, as `threading.get_ident` gives it (never 0): a
/// thread-local of this library would cost a call to find its address.
// `c_ulong` is `u64` here but `u32` on Windows, where the conversion is needed.
#[allow(clippy::useless_conversion)]
fn this_thread() -> u64 {
    // SAFETY: takes no arguments and only reads the calling thread's identity.
    u64::from(unsafe { pyo3::ffi::PyThread_get_thread_ident() })
}

/// A reentrant lock for a state: `acquire` and `release` it, or use it in `with`.
#[pyclass(frozen, module = "cardkit._core", name = "StateLock")]
pub struct StateLock {
    /// The holding thread (see `this_thread`), 0 when free.
    owner: AtomicU64,
    /// How many times the owner holds it (touched by the owner only).
    depth: AtomicU32,
    /// Threads waiting for it, which a release must wake.
    waiters: AtomicU32,
    /// Bumped by each release that frees the lock: a waiter sleeps only while it is
    /// unchanged, so a release between its look at the owner and its sleep is seen.
    releases: AtomicU64,
    gate: Mutex<()>,
    freed: Condvar,
}

impl StateLock {
    fn try_take(&self, me: u64) -> bool {
        self.owner.compare_exchange(0, me, SeqCst, SeqCst).is_ok()
    }

    /// Wait, without the GIL, until the lock is freed (or a poll interval passes).
    fn sleep(&self, py: Python<'_>, seen: u64) {
        py.detach(|| {
            let gate = self.gate.lock().unwrap_or_else(|e| e.into_inner());
            if self.releases.load(SeqCst) == seen {
                // A timeout or a spurious wake-up only sends the caller round again.
                drop(self.freed.wait_timeout(gate, SIGNAL_POLL));
            }
        });
    }
}

#[pymethods]
impl StateLock {
    /// A free lock.
    #[new]
    fn new() -> Self {
        StateLock {
            owner: AtomicU64::new(0),
            depth: AtomicU32::new(0),
            waiters: AtomicU32::new(0),
            releases: AtomicU64::new(0),
            gate: Mutex::new(()),
            freed: Condvar::new(),
        }
    }

    /// Take the lock, waiting while another thread holds it; the holder may take it again.
    ///
    /// Returns True. A signal handler that raises while waiting ends the wait with
    /// its exception, the lock not taken.
    fn acquire(&self, py: Python<'_>) -> PyResult<bool> {
        let me = this_thread();
        if self.owner.load(SeqCst) == me {
            self.depth.fetch_add(1, SeqCst);
            return Ok(true);
        }
        if !self.try_take(me) {
            self.waiters.fetch_add(1, SeqCst);
            let waited = loop {
                let seen = self.releases.load(SeqCst);
                if self.try_take(me) {
                    break Ok(());
                }
                self.sleep(py, seen);
                if let Err(e) = py.check_signals() {
                    break Err(e);
                }
            };
            self.waiters.fetch_sub(1, SeqCst);
            waited?;
        }
        self.depth.store(1, SeqCst);
        Ok(true)
    }

    /// Give back one hold of the lock; the last frees it for a waiting thread.
    ///
    /// Raises InvalidArgumentError when the calling thread does not hold it.
    fn release(&self, py: Python<'_>) -> PyResult<()> {
        if self.owner.load(SeqCst) != this_thread() {
            return Err(invalid_argument(
                py,
                "this thread does not hold the lock it releases".into(),
            ));
        }
        if self.depth.fetch_sub(1, SeqCst) > 1 {
            return Ok(());
        }
        self.owner.store(0, SeqCst);
        self.releases.fetch_add(1, SeqCst);
        if self.waiters.load(SeqCst) > 0 {
            let _gate = self.gate.lock().unwrap_or_else(|e| e.into_inner());
            self.freed.notify_all();
        }
        Ok(())
    }

    fn __enter__(&self, py: Python<'_>) -> PyResult<bool> {
        self.acquire(py)
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, py: Python<'_>, _exc: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<()> {
        self.release(py)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<StateLock>()
}
