//! Batched episodes for learning code, like EnvPool for card games: `N`
//! independent single-deal episodes of one game stepped together, each writing
//! its observation, legal-action mask, rewards, seat to act and done flag into
//! caller-owned flat buffers.
//!
//! Episode `k` of slot `i` deals from `derive_seed(seed, k * N + i)` (the seed a
//! Python `new_state(seed=...)` of the same game takes), so every trajectory
//! depends only on the seed, the slot and the actions, never on how many threads
//! step the slots. A slot whose episode ended on one call starts its next
//! episode on the following call (its action is then ignored).
//!
//! Games plug in through [`Episodes`]; Hearts and Spades live in [`trick`], Dou
//! Dizhu and Zheng Shangyou in [`climbing`], Guandan in [`guandan`], Tractor in
//! [`tractor`], Texas Hold'em in [`holdem`].

pub mod climbing;
pub mod guandan;
pub mod holdem;
mod pool;
pub mod tractor;
pub mod trick;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crate::error::{EngineError, Result};
use crate::rng::derive_seed;
use pool::Pool;

/// Most threads a vector env splits its slots across.
pub const MAX_THREADS: usize = 64;
/// Most slots in one vector env.
pub const MAX_ENVS: usize = 1 << 20;
/// Most bytes of output buffers one vector env may ask for (1 GiB).
pub const MAX_BYTES: usize = 1 << 30;

/// A game whose single-deal episodes a [`VectorEnv`] can step: its fixed action
/// index, observation writer and returns, over episodes of type `Episode`.
pub trait Episodes: Sync {
    /// One episode in progress.
    type Episode: Send;
    /// Seats at the table.
    fn num_players(&self) -> usize;
    /// Size of the fixed action index.
    fn num_actions(&self) -> usize;
    /// Length of one observation tensor.
    fn observation_len(&self) -> usize;
    /// A fresh episode dealt from `seed`, ready for its first action.
    fn start(&self, seed: u64) -> Result<Self::Episode>;
    /// The seat to act, `None` once the episode is over.
    fn to_act(&self, episode: &Self::Episode) -> Option<usize>;
    /// Whether action `id` (below [`Episodes::num_actions`]) is legal now.
    fn is_legal(&self, episode: &Self::Episode, id: usize) -> bool;
    /// Apply a legal action `id` for the seat to act (an error is an engine bug).
    fn apply(&self, episode: &mut Self::Episode, id: usize) -> Result<()>;
    /// Push the legal ids of the seat to act onto `out`, ascending and each once.
    fn legal_ids(&self, episode: &Self::Episode, out: &mut Vec<u32>);
    /// Write `seat`'s observation tensor into `out`: every float of it, whatever
    /// `out` held (rows are reused from step to step without zeroing).
    fn observe(&self, episode: &Self::Episode, seat: usize, out: &mut [f32]) -> Result<()>;
    /// Each seat's return of a finished episode into `out` (one per seat).
    fn returns(&self, episode: &Self::Episode, out: &mut [f32]);
}

/// Write `seat`'s observation of `episode` into `out` through `game`'s writer,
/// which must set every float whatever `out` held (rows and handed-out arrays are
/// reused without zeroing). Builds with debug assertions (`cargo test`, debug
/// wheels) fill `out` with NaN first and refuse a row the writer left a NaN in,
/// so a writer that skips a field fails there instead of leaking stale values.
pub fn write_observation<G: Episodes>(
    game: &G,
    episode: &G::Episode,
    seat: usize,
    out: &mut [f32],
) -> Result<()> {
    if cfg!(debug_assertions) {
        out.fill(f32::NAN);
    }
    game.observe(episode, seat, out)?;
    if cfg!(debug_assertions) {
        if let Some(at) = out.iter().position(|x| x.is_nan()) {
            return Err(EngineError::RuleOption(format!(
                "engine bug: the observation writer left float {at} of {} unwritten",
                out.len()
            )));
        }
    }
    Ok(())
}

/// The flat output buffers of a step, row `i` belonging to slot `i`.
pub struct Outputs<'a> {
    /// `N x observation_len`: the observation of the seat to act, or of the seat
    /// that made the last move once the episode is over (seat 0 if none did).
    pub observations: &'a mut [f32],
    /// `N x num_actions`: the legal ids of the seat to act (none once over).
    pub masks: &'a mut [bool],
    /// `N x num_players`: the returns on the step that ends an episode, else zero.
    pub rewards: &'a mut [f32],
    /// `N`: the seat to act, -1 once the episode is over.
    pub players: &'a mut [i64],
    /// `N`: whether the episode ended on this step.
    pub done: &'a mut [bool],
}

struct Slot<E> {
    episode: Option<E>,
    /// Episodes started in this slot since the seed was set.
    started: u64,
    /// The seat that made the last move (the observer once the episode is over).
    last_seat: usize,
    /// The ids set in the slot's mask row: cleared one by one rather than the
    /// whole row, which is long (Dou Dizhu's 24,643 ids) and almost all zero.
    mask_ids: Vec<u32>,
}

/// `N` episodes of one game stepped together (see the module docs).
pub struct VectorEnv<G: Episodes> {
    game: G,
    seed: u64,
    threads: usize,
    slots: Vec<Slot<G::Episode>>,
    /// `threads - 1` helper threads, kept for the env's life.
    pool: Pool,
    /// Each thread's share of the work so far (the caller's last), for benches.
    busy: Vec<Busy>,
}

/// One thread's work in an env's calls: time inside its task and slots it stepped.
/// A cache line of its own, so that counting never makes threads share one.
#[repr(align(64))]
#[derive(Default)]
struct Busy {
    nanos: AtomicU64,
    cpu_nanos: AtomicU64,
    slots: AtomicU64,
    calls: AtomicU64,
}

/// What one thread has done over an env's calls so far (see [`VectorEnv::thread_busy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadBusy {
    /// Wall time spent inside the calls' tasks (claiming and stepping slots).
    pub nanos: u64,
    /// The thread's CPU time in those tasks: the wall time less any time the
    /// system ran something else on its core (zero where not measured: non-unix).
    pub cpu_nanos: u64,
    /// Slots stepped.
    pub slots: u64,
    /// Calls in which the thread took part (a helper the system ran too late to
    /// find work skips a call).
    pub calls: u64,
}

fn bad<T>(why: String) -> Result<T> {
    Err(EngineError::RuleOption(why))
}

impl<G: Episodes> VectorEnv<G> {
    /// `num_envs` slots of `game` (no episode started until [`VectorEnv::reset`]),
    /// stepped on `threads` threads.
    pub fn new(game: G, num_envs: usize, seed: u64, threads: usize) -> Result<VectorEnv<G>> {
        if !(1..=MAX_ENVS).contains(&num_envs) {
            return bad(format!("num_envs must be 1..{MAX_ENVS}, got {num_envs}"));
        }
        if !(1..=MAX_THREADS).contains(&threads) {
            return bad(format!("threads must be 1..{MAX_THREADS}, got {threads}"));
        }
        let row = 4 * game.observation_len() + game.num_actions() + 4 * game.num_players() + 9;
        if num_envs.saturating_mul(row) > MAX_BYTES {
            return bad(format!(
                "num_envs {num_envs} needs {row} bytes of buffers each, over the {MAX_BYTES}-byte limit"
            ));
        }
        let slots = (0..num_envs)
            .map(|_| Slot {
                episode: None,
                started: 0,
                last_seat: 0,
                mask_ids: Vec::new(),
            })
            .collect();
        Ok(VectorEnv {
            game,
            seed,
            threads,
            slots,
            pool: Pool::new(threads - 1)?,
            busy: (0..threads).map(|_| Busy::default()).collect(),
        })
    }

    /// The game the slots play.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Each thread's work over this env's calls so far, helpers first and the
    /// calling thread last: how evenly the threads shared the slots and how long
    /// each was busy, which on a shared machine says more about scaling than wall
    /// time does (a bench readout; no call depends on it).
    pub fn thread_busy(&self) -> Vec<ThreadBusy> {
        self.busy
            .iter()
            .map(|b| ThreadBusy {
                nanos: b.nanos.load(Ordering::Relaxed),
                cpu_nanos: b.cpu_nanos.load(Ordering::Relaxed),
                slots: b.slots.load(Ordering::Relaxed),
                calls: b.calls.load(Ordering::Relaxed),
            })
            .collect()
    }

    /// Number of slots.
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// The legal ids of every slot as they stand (ascending per slot, none for a
    /// finished episode), written compactly: slot `i`'s ids are
    /// `ids[offsets[i]..offsets[i + 1]]`. Clears both vectors first.
    pub fn legal_ids(&self, ids: &mut Vec<i64>, offsets: &mut Vec<i64>) {
        ids.clear();
        offsets.clear();
        offsets.push(0);
        for slot in &self.slots {
            ids.extend(slot.mask_ids.iter().map(|&id| i64::from(id)));
            offsets.push(ids.len() as i64);
        }
    }

    /// Check that `out` has the lengths of this env's buffers.
    fn check_outputs(&self, out: &Outputs<'_>) -> Result<()> {
        let n = self.slots.len();
        let g = &self.game;
        let want = [
            (
                "observations",
                out.observations.len(),
                n * g.observation_len(),
            ),
            ("masks", out.masks.len(), n * g.num_actions()),
            ("rewards", out.rewards.len(), n * g.num_players()),
            ("players", out.players.len(), n),
            ("done", out.done.len(), n),
        ];
        for (name, got, expected) in want {
            if got != expected {
                return bad(format!("{name} holds {got} values, expected {expected}"));
            }
        }
        Ok(())
    }

    /// Start a new episode in every slot (from episode 0 again when `seed` is
    /// given) and write the first positions into `out`.
    pub fn reset(&mut self, seed: Option<u64>, out: Outputs<'_>) -> Result<()> {
        self.check_outputs(&out)?;
        if let Some(seed) = seed {
            self.seed = seed;
            for slot in &mut self.slots {
                slot.started = 0;
            }
        }
        self.run(None, out)
    }

    /// Check every action before any slot moves: one id per slot, legal for the
    /// seat to act unless the slot's episode is over (its action is ignored).
    fn check_actions(&self, actions: &[i64]) -> Result<()> {
        if actions.len() != self.slots.len() {
            return Err(EngineError::IllegalAction(format!(
                "actions holds {} ids, expected one per slot ({})",
                actions.len(),
                self.slots.len()
            )));
        }
        let n = self.game.num_actions();
        for (i, (slot, &id)) in self.slots.iter().zip(actions).enumerate() {
            let Some(episode) = &slot.episode else {
                return bad("reset() must be called before step()".into());
            };
            if self.game.to_act(episode).is_none() {
                continue;
            }
            let legal = usize::try_from(id).is_ok_and(|k| k < n && self.game.is_legal(episode, k));
            if !legal {
                return Err(EngineError::IllegalAction(format!(
                    "slot {i}: action id {id} is not legal now (ids 0..{})",
                    n - 1
                )));
            }
        }
        Ok(())
    }

    /// Apply one action id per slot (ignored for slots whose episode ended on the
    /// previous call: they start their next episode) and write the results into
    /// `out`. Any illegal id refuses the whole step with nothing changed.
    pub fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<()> {
        self.check_outputs(&out)?;
        self.check_actions(actions)?;
        self.run(Some(actions), out)
    }

    /// Advance every slot (start a new episode when `actions` is `None` or the
    /// slot's episode is over) on the env's threads, which share the slots out
    /// in chunks (see [`Schedule`]), each chunk with the matching rows of `out`.
    fn run(&mut self, actions: Option<&[i64]>, out: Outputs<'_>) -> Result<()> {
        let VectorEnv {
            game,
            seed,
            threads,
            slots,
            pool,
            busy,
        } = self;
        let (game, seed, n) = (&*game, *seed, slots.len());
        let schedule = Schedule::new(n, *threads);
        let per = schedule.size;
        let (obs_len, acts, players) = (
            game.observation_len(),
            game.num_actions(),
            game.num_players(),
        );
        let chunks: Vec<Mutex<Option<Block<'_, G::Episode>>>> = slots
            .chunks_mut(per)
            .zip(out.observations.chunks_mut(per * obs_len))
            .zip(out.masks.chunks_mut(per * acts))
            .zip(out.rewards.chunks_mut(per * players))
            .zip(out.players.chunks_mut(per))
            .zip(out.done.chunks_mut(per))
            .enumerate()
            .map(|(c, (((((slots, o), m), r), p), d))| {
                Mutex::new(Some(Block {
                    first: c * per,
                    slots,
                    out: Outputs {
                        observations: o,
                        masks: m,
                        rewards: r,
                        players: p,
                        done: d,
                    },
                }))
            })
            .collect();
        let results: Vec<Mutex<Result<()>>> =
            (0..chunks.len()).map(|_| Mutex::new(Ok(()))).collect();
        let busy = &*busy;
        pool.run(&|t| {
            let (start, cpu_start) = (Instant::now(), thread_cpu_nanos());
            let mut stepped = 0;
            schedule.work(t, |c| {
                let taken = chunks[c]
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take();
                if let Some(block) = taken {
                    stepped += block.slots.len() as u64;
                    let ids = actions.map(|a| &a[block.first..block.first + block.slots.len()]);
                    let result = run_block(game, seed, n as u64, block, ids);
                    *results[c].lock().unwrap_or_else(PoisonError::into_inner) = result;
                }
            });
            let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
            let cpu = thread_cpu_nanos().saturating_sub(cpu_start);
            if let Some(b) = busy.get(t) {
                b.nanos.fetch_add(nanos, Ordering::Relaxed);
                b.cpu_nanos.fetch_add(cpu, Ordering::Relaxed);
                b.slots.fetch_add(stepped, Ordering::Relaxed);
                b.calls.fetch_add(1, Ordering::Relaxed);
            }
        });
        results
            .into_iter()
            .try_for_each(|r| r.into_inner().unwrap_or_else(PoisonError::into_inner))
    }
}

/// The calling thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
#[cfg(unix)]
fn thread_cpu_nanos() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec to write; the clock id is a constant
    // every unix libc defines. A failure leaves zeros (a readout, not a rule).
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    let secs = u64::try_from(now.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(now.tv_nsec).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

/// No per-thread CPU clock here: the counters read zero.
#[cfg(not(unix))]
fn thread_cpu_nanos() -> u64 {
    0
}

/// Slots a thread claims at a time: small enough that the threads finish
/// together (a chunk of the slowest game's slots takes well under a
/// millisecond), large enough that claiming costs nothing, and a multiple of 64
/// so that in every output array (the one-byte masks and done flags included)
/// chunk borders lie whole cache lines apart: two threads share at most the one
/// line at a border, never lines all along a chunk.
const CHUNK: usize = 64;

/// A cache line of its own for each thread's counter.
#[repr(align(64))]
struct Counter(AtomicUsize);

/// How one call shares `n` slots out among the env's threads: chunks of `size`
/// slots, thread `t` owning a home run of chunks (the `t`-th of `threads` equal
/// runs). Each thread first claims its own home's chunks, in order, then those
/// left in the others' homes. So in a balanced call every thread steps the same
/// slots as on the last call (their episodes still in its cache), while one that
/// finishes early (its slots' steps were cheaper, fewer episodes restarted) or
/// starts late (the system ran it late, or not at all: see `pool`) is made up
/// for by the others, never waited for. Which thread steps a slot never changes
/// what the slot does.
struct Schedule {
    size: usize,
    /// The next unclaimed chunk of each thread's home.
    next: Vec<Counter>,
    /// Each home's first chunk, then the number of chunks.
    starts: Vec<usize>,
}

impl Schedule {
    fn new(n: usize, threads: usize) -> Schedule {
        let size = CHUNK.min(n.div_ceil(threads)).max(1);
        let chunks = n.div_ceil(size);
        let starts: Vec<usize> = (0..=threads).map(|t| t * chunks / threads).collect();
        let next = starts[..threads]
            .iter()
            .map(|&s| Counter(AtomicUsize::new(s)))
            .collect();
        Schedule { size, next, starts }
    }

    /// Call `work` with each chunk thread `t` claims, until none is left.
    fn work(&self, t: usize, mut work: impl FnMut(usize)) {
        let homes = self.next.len();
        for k in 0..homes {
            let home = (t + k) % homes;
            loop {
                let c = self.next[home].0.fetch_add(1, Ordering::Relaxed);
                if c >= self.starts[home + 1] {
                    break;
                }
                work(c);
            }
        }
    }
}

struct Block<'a, E> {
    first: usize,
    slots: &'a mut [Slot<E>],
    out: Outputs<'a>,
}

fn run_block<G: Episodes>(
    game: &G,
    seed: u64,
    num_envs: u64,
    block: Block<'_, G::Episode>,
    actions: Option<&[i64]>,
) -> Result<()> {
    let (obs_len, acts, players) = (
        game.observation_len(),
        game.num_actions(),
        game.num_players(),
    );
    let out = block.out;
    for (k, slot) in block.slots.iter_mut().enumerate() {
        let i = block.first + k;
        let obs = &mut out.observations[k * obs_len..(k + 1) * obs_len];
        let mask = &mut out.masks[k * acts..(k + 1) * acts];
        let rewards = &mut out.rewards[k * players..(k + 1) * players];
        for &id in &slot.mask_ids {
            mask[id as usize] = false;
        }
        slot.mask_ids.clear();
        rewards.fill(0.0);
        let moved = match (slot.episode.as_mut(), actions) {
            (Some(episode), Some(ids)) => match game.to_act(episode) {
                Some(seat) => {
                    // Checked legal by `check_actions`.
                    slot.last_seat = seat;
                    game.apply(episode, ids[k] as usize)?;
                    true
                }
                None => false,
            },
            _ => false,
        };
        if !moved {
            let stream = slot.started.wrapping_mul(num_envs).wrapping_add(i as u64);
            slot.started += 1;
            slot.episode = Some(game.start(derive_seed(seed, stream))?);
            // An episode over before any move (Hold'em blinds that put every seat
            // all-in) is observed from seat 0.
            slot.last_seat = 0;
        }
        let Some(episode) = slot.episode.as_ref() else {
            continue;
        };
        match game.to_act(episode) {
            Some(seat) => {
                game.legal_ids(episode, &mut slot.mask_ids);
                for &id in &slot.mask_ids {
                    mask[id as usize] = true;
                }
                write_observation(game, episode, seat, obs)?;
                out.players[k] = seat as i64;
                out.done[k] = false;
            }
            None => {
                game.returns(episode, rewards);
                write_observation(game, episode, slot.last_seat, obs)?;
                out.players[k] = -1;
                out.done[k] = true;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::CardRng;

    /// Random episodes of `game`: at every position, each seat's observation is
    /// written over a NaN-filled row and no NaN may survive (a writer that skips a
    /// field would leave stale floats in the reused rows and arrays).
    fn writes_every_float<G: Episodes>(name: &str, game: &G, episodes: u64) {
        let mut out = vec![0.0f32; game.observation_len()];
        let mut rng = CardRng::new(7);
        for seed in 0..episodes {
            let mut episode = game.start(seed).unwrap();
            let mut ids = Vec::new();
            loop {
                for seat in 0..game.num_players() {
                    out.fill(f32::NAN);
                    game.observe(&episode, seat, &mut out).unwrap();
                    let left = out.iter().position(|x| x.is_nan());
                    assert_eq!(
                        left, None,
                        "{name} seed {seed} seat {seat}: float left unwritten"
                    );
                    // The checked path the vector env and AecCore use says the same.
                    write_observation(game, &episode, seat, &mut out).unwrap();
                }
                if game.to_act(&episode).is_none() {
                    break;
                }
                ids.clear();
                game.legal_ids(&episode, &mut ids);
                let id = ids[rng.below(ids.len() as u64) as usize];
                game.apply(&mut episode, id as usize).unwrap();
            }
        }
    }

    #[test]
    fn every_engine_writer_fills_its_whole_row() {
        writes_every_float("hearts", &trick::HeartsEpisodes::new(true, 100), 4);
        writes_every_float("hearts no pass", &trick::HeartsEpisodes::new(false, 100), 2);
        let spades = trick::SpadesEpisodes {
            dealer: 0,
            two_of_clubs_leads: false,
            target: 500,
        };
        writes_every_float("spades", &spades, 4);
        let bridge = trick::BridgeEpisodes {
            vulnerable: [true, false],
        };
        writes_every_float("bridge", &bridge, 6);
        for single_round in [false, true] {
            let ddz = climbing::DouDizhuEpisodes { single_round };
            writes_every_float("doudizhu", &ddz, 6);
        }
        writes_every_float("zhengshangyou", &climbing::ZhengShangyouEpisodes, 6);
        let guandan = guandan::GuandanEpisodes {
            level: 0,
            double_win_ends: true,
        };
        writes_every_float("guandan", &guandan, 3);
        writes_every_float("tractor", &tractor::TractorEpisodes::new(0, 0).unwrap(), 3);
        for stacks in [vec![1000, 1000], vec![100, 300, 50, 1000]] {
            let holdem = holdem::HoldemEpisodes::new(stacks, (10, 20), 0).unwrap();
            writes_every_float("holdem", &holdem, 8);
        }
    }
}
