//! The helper threads a [`super::VectorEnv`] keeps for its whole life.
//!
//! Threads started per call cost more than a step: on a virtual machine a new
//! thread can wait hundreds of microseconds before its core runs it, which is
//! longer than stepping a few thousand Hearts slots. So the helpers stay, and
//! after each task they spin for [`SPIN`] before sleeping: a training loop calls
//! again well within that and finds them awake.
//!
//! A helper is never waited for before it has begun: the caller works the task
//! too, and once it is done it closes the task's gate, so a helper that the
//! system has not run yet (a loaded machine, a sleeping helper still waking)
//! skips that task instead of holding the call up. Tasks therefore share their
//! work out dynamically (see `VectorEnv::run`): whatever a helper does not take,
//! the caller does. The caller waits only for helpers that have begun, spinning
//! briefly and then sleeping, so that a helper the system has paused gets the
//! core back instead of the caller burning it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::error::{EngineError, Result};

/// How long an idle helper spins before it sleeps.
const SPIN: Duration = Duration::from_millis(2);
/// How long the caller spins for helpers still at work before it sleeps: about
/// one chunk of the slowest game's slots.
const FINISH_SPIN: Duration = Duration::from_micros(200);

/// The gate word's low bits: helpers inside the current task.
const ACTIVE: u64 = (1 << 31) - 1;
/// The gate word's bit set once the caller has finished: no helper may enter.
const CLOSED: u64 = 1 << 31;
/// The gate word's high 32 bits: the epoch (low bits) it admits helpers to.
const EPOCH_SHIFT: u32 = 32;

/// A task: called once by the caller with index `helpers`, and at most once by
/// each helper with its index `0..helpers`.
type Task<'a> = &'a (dyn Fn(usize) + Sync + 'a);

struct Shared {
    /// Bumped (under `sleep`) to hand out a task; helpers try it once per bump.
    epoch: AtomicU64,
    /// The current epoch's low 32 bits, the `CLOSED` bit and the count of
    /// helpers inside its task: a helper enters only while its epoch is
    /// current and open, and the caller waits only for those inside.
    gate: AtomicU64,
    /// The task of the current epoch; see [`Pool::run`] for why `'static`.
    task: Mutex<Option<Task<'static>>>,
    stop: AtomicBool,
    sleep: Mutex<()>,
    wake: Condvar,
    /// Where the caller sleeps until the last helper inside the task leaves.
    done_lock: Mutex<()>,
    done: Condvar,
}

/// `helpers` threads that run [`Pool::run`]'s task alongside the caller.
pub struct Pool {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
}

/// Enter the task of `epoch` if the caller has not closed it (nor moved on).
fn enter(shared: &Shared, epoch: u64) -> bool {
    let mut gate = shared.gate.load(Ordering::Acquire);
    loop {
        if gate >> EPOCH_SHIFT != epoch & 0xffff_ffff || gate & CLOSED != 0 {
            return false;
        }
        match shared
            .gate
            .compare_exchange_weak(gate, gate + 1, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => return true,
            Err(now) => gate = now,
        }
    }
}

/// Leave the task; the last helper out of a closed task wakes the caller.
fn leave(shared: &Shared) {
    let before = shared.gate.fetch_sub(1, Ordering::AcqRel);
    if before & CLOSED != 0 && before & ACTIVE == 1 {
        // Under the lock the caller checks the gate under: no lost wake-up.
        let _guard = shared
            .done_lock
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        shared.done.notify_all();
    }
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
        if !enter(shared, seen) {
            continue;
        }
        let task = *shared.task.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(task) = task {
            // A panic must not stop the helper: the caller waits for it to leave.
            let _ = catch_unwind(AssertUnwindSafe(|| task(index)));
        }
        leave(shared);
    }
}

/// Closes the task and waits, even while unwinding, until every helper that
/// entered it has left.
struct Finish<'a>(&'a Shared);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        let shared = self.0;
        let mut gate = shared.gate.fetch_or(CLOSED, Ordering::AcqRel) | CLOSED;
        let start = Instant::now();
        let mut spins = 0u32;
        while gate & ACTIVE != 0 {
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(1024) && start.elapsed() >= FINISH_SPIN {
                let mut guard = shared
                    .done_lock
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                while shared.gate.load(Ordering::Acquire) & ACTIVE != 0 {
                    guard = shared
                        .done
                        .wait(guard)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                break;
            }
            std::hint::spin_loop();
            gate = shared.gate.load(Ordering::Acquire);
        }
        *shared.task.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

impl Pool {
    /// A pool of `helpers` threads (none: every task runs on the caller); an
    /// error when the system refuses a thread (those started are ended).
    pub fn new(helpers: usize) -> Result<Pool> {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            // Epoch 0 is never handed out; closed until the first task.
            gate: AtomicU64::new(CLOSED),
            task: Mutex::new(None),
            stop: AtomicBool::new(false),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
            done_lock: Mutex::new(()),
            done: Condvar::new(),
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

    /// Call `task(helpers)` on the caller and `task(i)` at most once on each
    /// helper `i` in `0..helpers`: those the system runs before the caller has
    /// finished its own call. Returns when every call begun has returned, so a
    /// task must share its work out itself rather than count on every index.
    pub fn run(&self, task: Task<'_>) {
        let helpers = self.handles.len();
        if helpers > 0 {
            // SAFETY: a helper calls the task only after entering the gate opened
            // here, and `Finish::drop` closes the gate and waits (also while
            // unwinding) until every helper that entered has left, and then
            // clears the task; a helper that did not enter in time never reads
            // it. So no helper uses the task after `run` returns, and the borrow
            // it extends to `'static` outlives every use.
            let erased: Task<'static> =
                unsafe { std::mem::transmute::<Task<'_>, Task<'static>>(task) };
            *self
                .shared
                .task
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = Some(erased);
            let _guard = self
                .shared
                .sleep
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let epoch = self.shared.epoch.load(Ordering::Acquire) + 1;
            // Open the gate to the new epoch before announcing it.
            self.shared
                .gate
                .store((epoch & 0xffff_ffff) << EPOCH_SHIFT, Ordering::Release);
            self.shared.epoch.store(epoch, Ordering::Release);
            self.shared.wake.notify_all();
        }
        let _finish = (helpers > 0).then(|| Finish(&self.shared));
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
    fn the_caller_runs_once_and_each_helper_at_most_once() {
        let pool = Pool::new(2).unwrap();
        for _ in 0..500 {
            let hits: Vec<AtomicU64> = (0..3).map(|_| AtomicU64::new(0)).collect();
            // Work shared out as `VectorEnv::run` does: whoever comes takes items.
            let (next, done) = (AtomicU64::new(0), AtomicU64::new(0));
            pool.run(&|i| {
                hits[i].fetch_add(1, Ordering::Relaxed);
                while next.fetch_add(1, Ordering::Relaxed) < 64 {
                    done.fetch_add(1, Ordering::Relaxed);
                }
            });
            assert_eq!(hits[2].load(Ordering::Relaxed), 1);
            assert!(hits[..2].iter().all(|h| h.load(Ordering::Relaxed) <= 1));
            assert_eq!(done.load(Ordering::Relaxed), 64);
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
        let helped = AtomicBool::new(false);
        // The caller holds the task open until the helper has come (or a minute
        // has passed, so that a helper that never wakes fails the test).
        let start = Instant::now();
        pool.run(&|i| {
            if i == 0 {
                helped.store(true, Ordering::Release);
            } else {
                while !helped.load(Ordering::Acquire) && start.elapsed() < Duration::from_secs(60) {
                    std::thread::yield_now();
                }
            }
        });
        assert!(helped.load(Ordering::Acquire));
    }
}
