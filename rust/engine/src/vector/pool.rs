//! The helper threads a [`super::VectorEnv`] keeps for its whole life.
//!
//! Threads started per call cost more than a step: on a virtual machine a new
//! thread can wait hundreds of microseconds before its core runs it, which is
//! longer than stepping a few thousand Hearts slots. So the helpers stay, and
//! after each task they spin for [`SPIN`] before sleeping: a training loop calls
//! again well within that and finds them awake.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::error::{EngineError, Result};

/// How long an idle helper spins before it sleeps.
const SPIN: Duration = Duration::from_millis(2);

/// A task for every thread: called once with each index `0..=helpers`.
type Task<'a> = &'a (dyn Fn(usize) + Sync + 'a);

struct Shared {
    /// Bumped (under `sleep`) to hand out a task; helpers run it once per bump.
    epoch: AtomicU64,
    /// The task of the current epoch; see [`Pool::run`] for why `'static`.
    task: Mutex<Option<Task<'static>>>,
    /// Helpers that have not yet finished the current task.
    pending: AtomicUsize,
    stop: AtomicBool,
    sleep: Mutex<()>,
    wake: Condvar,
}

/// `helpers` threads that run [`Pool::run`]'s task alongside the caller.
pub struct Pool {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
}

fn helper(shared: &Shared, index: usize) {
    let mut seen = 0;
    loop {
        let start = Instant::now();
        let mut spins = 0u32;
        loop {
            let epoch = shared.epoch.load(Ordering::Acquire);
            if shared.stop.load(Ordering::Acquire) {
                return;
            }
            if epoch != seen {
                seen = epoch;
                break;
            }
            spins = spins.wrapping_add(1);
            if !spins.is_multiple_of(1024) || start.elapsed() < SPIN {
                std::hint::spin_loop();
                continue;
            }
            let guard = shared.sleep.lock().unwrap_or_else(PoisonError::into_inner);
            // Checked under the lock the caller bumps the epoch under: no lost wake-up.
            if shared.epoch.load(Ordering::Acquire) == seen && !shared.stop.load(Ordering::Acquire)
            {
                drop(
                    shared
                        .wake
                        .wait(guard)
                        .unwrap_or_else(PoisonError::into_inner),
                );
            }
        }
        let task = *shared.task.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(task) = task {
            // A panic must not stop the helper: the caller waits for `pending`.
            let _ = catch_unwind(AssertUnwindSafe(|| task(index)));
        }
        shared.pending.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Waits, even while unwinding, until every helper has finished the task.
struct Finish<'a>(&'a Shared);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        let mut spins = 0u32;
        while self.0.pending.load(Ordering::Acquire) != 0 {
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(1024) {
                std::thread::yield_now();
            }
            std::hint::spin_loop();
        }
        *self.0.task.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

impl Pool {
    /// A pool of `helpers` threads (none: every task runs on the caller); an
    /// error when the system refuses a thread (those started are ended).
    pub fn new(helpers: usize) -> Result<Pool> {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            task: Mutex::new(None),
            pending: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
        });
        let mut pool = Pool {
            shared,
            handles: Vec::with_capacity(helpers),
        };
        for index in 0..helpers {
            let shared = Arc::clone(&pool.shared);
            let handle = std::thread::Builder::new()
                .name(format!("cardkit-vector-{index}"))
                .spawn(move || helper(&shared, index))
                .map_err(|e| {
                    EngineError::RuleOption(format!("cannot start helper thread {index}: {e}"))
                })?;
            pool.handles.push(handle);
        }
        Ok(pool)
    }

    /// Call `task(i)` once for each `i` in `0..=helpers`: the helpers take
    /// `0..helpers` and the caller `helpers`; returns when every call has.
    pub fn run(&self, task: Task<'_>) {
        let helpers = self.handles.len();
        if helpers > 0 {
            // SAFETY: the helpers call the task only between this store and
            // `Finish::drop`, which waits (also while unwinding) until `pending`
            // reaches zero, that is until every helper is done with it, and then
            // clears it; so no helper uses the task after `run` returns, and the
            // borrow it extends to `'static` outlives every use.
            let erased: Task<'static> =
                unsafe { std::mem::transmute::<Task<'_>, Task<'static>>(task) };
            *self
                .shared
                .task
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = Some(erased);
            self.shared.pending.store(helpers, Ordering::Release);
            let _guard = self
                .shared
                .sleep
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            self.shared.epoch.fetch_add(1, Ordering::AcqRel);
            self.shared.wake.notify_all();
        }
        let _finish = Finish(&self.shared);
        task(helpers);
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        {
            let _guard = self
                .shared
                .sleep
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            self.shared.stop.store(true, Ordering::Release);
            self.shared.wake.notify_all();
        }
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_runs_once_per_task() {
        let pool = Pool::new(2).unwrap();
        for round in 0..200u64 {
            let hits: Vec<AtomicU64> = (0..3).map(|_| AtomicU64::new(0)).collect();
            pool.run(&|i| {
                hits[i].fetch_add(round + 1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == round + 1));
        }
        // Dropping the pool ends its helpers, which hold the other references.
        let shared = Arc::clone(&pool.shared);
        drop(pool);
        assert_eq!(Arc::strong_count(&shared), 1);
    }

    #[test]
    fn sleeping_helpers_wake_for_the_next_task() {
        let pool = Pool::new(1).unwrap();
        std::thread::sleep(SPIN * 3);
        let hits = AtomicU64::new(0);
        pool.run(&|_| {
            hits.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(hits.load(Ordering::Relaxed), 2);
    }
}
