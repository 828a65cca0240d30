//! Long calls that stop on Ctrl-C and report progress.
//!
//! Python runs signal handlers only on its main thread, between bytecodes, so a
//! long Rust call must give that thread back to check them. [`run`] does the work
//! on a scoped worker thread without the GIL while the calling thread wakes every
//! few milliseconds to run `PyErr_CheckSignals` and the progress callback. When
//! either raises, it sets the shared [`Cancel`] flag, waits for the worker (which
//! polls the flag) and returns that exception, so `KeyboardInterrupt` arrives
//! within about the poll interval of the engine's loops, with every worker stopped.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use cardkit_engine::Cancel;
use pyo3::prelude::*;

/// How often the calling thread looks for signals while the worker runs.
const SIGNAL_POLL: Duration = Duration::from_millis(10);
/// How often a progress callback is called.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);
/// Bit pattern meaning "no progress reported yet" (a NaN no real fraction has).
const NO_FRACTION: u64 = u64::MAX;

/// The latest fraction done that the worker reported, read by the calling thread.
pub struct Progress(AtomicU64);

impl Progress {
    /// Record `fraction` (0..=1) for the next progress callback.
    pub fn report(&self, fraction: f64) {
        self.0.store(fraction.to_bits(), Ordering::Relaxed);
    }

    fn take(&self) -> Option<f64> {
        match self.0.swap(NO_FRACTION, Ordering::Relaxed) {
            NO_FRACTION => None,
            bits => Some(f64::from_bits(bits)),
        }
    }
}

/// Runs `work` on a worker thread without the GIL; see the module docs.
///
/// `work` gets the cancel flag to poll and a [`Progress`] to report to;
/// `progress` (a Python callable taking the fraction) is called on this thread
/// about ten times a second and once more with the last fraction at the end. A
/// signal handler or callback exception cancels the work and is returned.
pub fn run<T, F>(py: Python<'_>, progress: Option<&Bound<'_, PyAny>>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Cancel, &Progress) -> T + Send,
{
    let cancel = Cancel::new();
    let fraction = Progress(AtomicU64::new(NO_FRACTION));
    let caller = std::thread::current();
    // Set before the worker wakes this thread: `is_finished` only turns true once
    // the worker thread has wound down, so waking to find it still false would
    // park again for a full poll interval (10 ms added to every short call).
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let out = work(&cancel, &fraction);
            done.store(true, Ordering::Release);
            caller.unpark();
            out
        });
        let mut error: Option<PyErr> = None;
        let mut last_report = Instant::now();
        let fail = |e: PyErr, error: &mut Option<PyErr>| {
            cancel.cancel();
            error.get_or_insert(e);
        };
        while !done.load(Ordering::Acquire) && !worker.is_finished() {
            py.detach(|| std::thread::park_timeout(SIGNAL_POLL));
            if error.is_some() {
                continue;
            }
            if let Err(e) = py.check_signals() {
                fail(e, &mut error);
            } else if let Some(cb) = progress {
                if last_report.elapsed() >= PROGRESS_EVERY {
                    last_report = Instant::now();
                    if let Some(f) = fraction.take() {
                        if let Err(e) = cb.call1((f,)) {
                            fail(e, &mut error);
                        }
                    }
                }
            }
        }
        let out = match worker.join() {
            Ok(out) => out,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        if let Some(e) = error {
            return Err(e);
        }
        if let (Some(cb), Some(f)) = (progress, fraction.take()) {
            cb.call1((f,))?;
        }
        Ok(out)
    })
}
