//! `AecCore`: one engine episode (`cardkit_engine::vector::Episodes`) stepped by
//! action id for the PettingZoo AEC environments (`cardkit.envs.pettingzoo`).
//!
//! An AEC step is one action of one seat, so the Python state's per-move work
//! (the lock, parsing, listing ids, building the tensor in pieces) would be most
//! of its cost. The games with an engine episode play it here instead: a step is
//! one call that checks the id and applies it, an observation one call that
//! returns a fresh tensor and mask. The environment replays the ids on a Python
//! state only when that state is read.

use cardkit_engine::climbing::guandan::parse_level;
use cardkit_engine::trick::tractor::parse_level as parse_tractor_level;
use cardkit_engine::vector::climbing::{DouDizhuEpisodes, ZhengShangyouEpisodes};
use cardkit_engine::vector::guandan::GuandanEpisodes;
use cardkit_engine::vector::holdem::HoldemEpisodes;
use cardkit_engine::vector::tractor::TractorEpisodes;
use cardkit_engine::vector::trick::{BridgeEpisodes, HeartsEpisodes, SpadesEpisodes};
use cardkit_engine::vector::Episodes;
use cardkit_engine::EngineError;
use numpy::npyffi::{_PyArray_GET_ITEM_DATA, NPY_ARRAY_C_CONTIGUOUS, NPY_ARRAY_WRITEABLE};
use numpy::{Element, PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};

use crate::args::arg;
use crate::errors::{to_py, IntoPyResult};

/// What `step` answers for an id it refuses (not an int, out of range, illegal).
const REFUSED: i64 = -2;
/// What `reset` and `step` answer once the episode is over.
const OVER: i64 = -1;

/// One game's episodes and the episode in play (none before the first reset).
struct Single<G: Episodes> {
    game: G,
    episode: Option<G::Episode>,
    /// The legal ids of the seat to act, listed once per position.
    ids: Vec<u32>,
    /// The ids played since the deal, in order.
    played: Vec<u32>,
    /// The observation arrays handed out last (at most `SPARE` pairs), which
    /// `observe` rewrites once nothing else refers to them.
    spare: Vec<Handed>,
    /// The pair `observe` replaces next when every kept pair is still held.
    next_spare: usize,
}

/// Pairs of observation arrays an episode keeps: a loop holds the last one or two
/// observations while it asks for the next, so a few pairs find one free.
const SPARE: usize = 4;

/// An observation tensor and action mask handed out by `observe`.
struct Handed {
    tensor: Py<PyArray1<f32>>,
    mask: Py<PyArray1<i8>>,
    /// The ids set in `mask`.
    set: Vec<u32>,
}

/// Whether only its keeper refers to `array` and it is still a writeable,
/// contiguous 1-d array of `len` `T`s, as made: safe to rewrite and hand out again.
fn untouched<T: Element>(array: &Bound<'_, PyArray1<T>>, len: usize) -> bool {
    let flags = NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_WRITEABLE;
    // SAFETY: `array` is a live numpy array (its type is checked by `Bound`), so
    // reading its reference count and its flags word is sound.
    let (refs, flags_now) = unsafe {
        (
            ffi::Py_REFCNT(array.as_ptr()),
            (*_PyArray_GET_ITEM_DATA(array.as_array_ptr())).flags,
        )
    };
    refs == 1
        && flags_now & flags == flags
        && array.ndim() == 1
        && array.len() == len
        && array.dtype().is_equiv_to(&numpy::dtype::<T>(array.py()))
}

fn rule_error(py: Python<'_>, why: String) -> PyErr {
    to_py(py, EngineError::RuleOption(why))
}

fn not_reset(py: Python<'_>) -> PyErr {
    rule_error(py, "reset() must be called before this".into())
}

impl<G: Episodes> Single<G> {
    fn new(game: G) -> Single<G> {
        Single {
            game,
            episode: None,
            ids: Vec::new(),
            played: Vec::new(),
            spare: Vec::new(),
            next_spare: 0,
        }
    }

    /// The seat to act (as `step` answers it) and this position's legal ids.
    fn settle(&mut self) -> i64 {
        self.ids.clear();
        let Some(episode) = &self.episode else {
            return OVER;
        };
        match self.game.to_act(episode) {
            Some(seat) => {
                self.game.legal_ids(episode, &mut self.ids);
                seat as i64
            }
            None => OVER,
        }
    }

    fn reset(&mut self, py: Python<'_>, seed: u64) -> PyResult<i64> {
        self.episode = Some(self.game.start(seed).py_err(py)?);
        self.played.clear();
        Ok(self.settle())
    }

    fn step(&mut self, py: Python<'_>, id: Option<i64>) -> PyResult<i64> {
        let Some(episode) = self.episode.as_mut() else {
            return Err(not_reset(py));
        };
        let Some(id) = id.and_then(|i| u32::try_from(i).ok()) else {
            return Ok(REFUSED);
        };
        // The listed ids are few (a hand's plays), so a scan beats any index.
        if !self.ids.contains(&id) {
            return Ok(REFUSED);
        }
        self.game.apply(episode, id as usize).py_err(py)?;
        self.played.push(id);
        Ok(self.settle())
    }

    fn observe<'py>(&mut self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyDict>> {
        let Some(episode) = &self.episode else {
            return Err(not_reset(py));
        };
        if seat >= self.game.num_players() {
            let last = self.game.num_players() - 1;
            return Err(rule_error(
                py,
                format!("seat must be 0..{last}, got {seat}"),
            ));
        }
        let acting = self.game.to_act(episode) == Some(seat);
        let (obs_len, num_actions) = (self.game.observation_len(), self.game.num_actions());
        // A pair handed out before that only this episode still refers to: no
        // Python code can see it change, so it is rewritten rather than a new pair
        // made (a new mask is 24,643 zeroed bytes for Dou Dizhu), unless Python
        // code changed it in ways a rewrite would not undo (shape, dtype, flags).
        let free = self.spare.iter().position(|h| {
            untouched(h.tensor.bind(py), obs_len) && untouched(h.mask.bind(py), num_actions)
        });
        let k = match free {
            Some(k) => k,
            None => {
                // Numpy's own zeroed arrays: no Rust buffer kept alive behind them.
                let pair = Handed {
                    tensor: PyArray1::<f32>::zeros(py, obs_len, false).unbind(),
                    mask: PyArray1::<i8>::zeros(py, num_actions, false).unbind(),
                    set: Vec::new(),
                };
                if self.spare.len() < SPARE {
                    self.spare.push(pair);
                    self.spare.len() - 1
                } else {
                    // Every kept pair is still held: let the oldest go to Python alone.
                    let k = self.next_spare;
                    self.next_spare = (k + 1) % SPARE;
                    self.spare[k] = pair;
                    k
                }
            }
        };
        let handed = &mut self.spare[k];
        let tensor = handed.tensor.bind(py).clone();
        let mask = handed.mask.bind(py).clone();
        {
            // SAFETY: only this episode refers to both arrays (new, or checked
            // above before these references were taken), both are contiguous,
            // and no Python code runs while the slices live.
            let out = unsafe { tensor.as_slice_mut() }?;
            // `observe` writes every float (the vector env reuses its rows unzeroed
            // too), so a rewritten tensor needs no clearing first.
            self.game.observe(episode, seat, out).py_err(py)?;
            let bits = unsafe { mask.as_slice_mut() }?;
            for &id in &handed.set {
                bits[id as usize] = 0;
            }
            handed.set.clear();
            if acting {
                for &id in &self.ids {
                    bits[id as usize] = 1;
                }
                handed.set.extend_from_slice(&self.ids);
            }
        }
        let obs = PyDict::new(py);
        obs.set_item(intern!(py, "observation"), tensor)?;
        obs.set_item(intern!(py, "action_mask"), mask)?;
        Ok(obs)
    }

    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        if self.episode.is_none() {
            return Err(not_reset(py));
        }
        let ids = PyArray1::<i64>::zeros(py, self.ids.len(), false);
        // SAFETY: made here, contiguous, not yet shared with Python code.
        let out = unsafe { ids.as_slice_mut() }?;
        for (o, &id) in out.iter_mut().zip(&self.ids) {
            *o = i64::from(id);
        }
        Ok(ids)
    }

    fn returns(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        let Some(episode) = &self.episode else {
            return Err(not_reset(py));
        };
        let mut out = vec![0.0f32; self.game.num_players()];
        self.game.returns(episode, &mut out);
        Ok(out.into_iter().map(f64::from).collect())
    }
}

/// One `Single` per game with engine episodes.
enum Core {
    Hearts(Single<HeartsEpisodes>),
    Spades(Single<SpadesEpisodes>),
    Bridge(Single<BridgeEpisodes>),
    DouDizhu(Single<DouDizhuEpisodes>),
    ZhengShangyou(Single<ZhengShangyouEpisodes>),
    Guandan(Single<GuandanEpisodes>),
    // A Tractor deal is large (its trumps' lookup tables, its hands and plays): boxed,
    // so the other games' cores do not take its size.
    Tractor(Box<Single<TractorEpisodes>>),
    Holdem(Single<HoldemEpisodes>),
}

/// Evaluate `$body` with `$s` bound to the game's `Single`, whichever game it is.
macro_rules! with_single {
    ($core:expr, $s:ident => $body:expr) => {
        match $core {
            Core::Hearts($s) => $body,
            Core::Spades($s) => $body,
            Core::Bridge($s) => $body,
            Core::DouDizhu($s) => $body,
            Core::ZhengShangyou($s) => $body,
            Core::Guandan($s) => $body,
            Core::Tractor($s) => $body,
            Core::Holdem($s) => $body,
        }
    };
}

/// One episode of a single-deal game stepped by id (see cardkit.envs.pettingzoo).
#[pyclass(module = "cardkit._core", name = "AecCore")]
pub struct PyAecCore {
    core: Core,
}

#[pymethods]
impl PyAecCore {
    /// A Hearts deal, with the pass to the left or (`passing=False`) none.
    #[staticmethod]
    fn hearts(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] passing: bool,
        #[pyo3(from_py_with = arg)] target: u32,
    ) -> PyResult<PyAecCore> {
        if target == 0 {
            return Err(rule_error(py, "target must be at least 1".into()));
        }
        let game = HeartsEpisodes::new(passing, target);
        Ok(PyAecCore {
            core: Core::Hearts(Single::new(game)),
        })
    }

    /// A Spades deal: the seat left of `dealer` bids first.
    #[staticmethod]
    fn spades(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] dealer: usize,
        #[pyo3(from_py_with = arg)] two_of_clubs_leads: bool,
        #[pyo3(from_py_with = arg)] target: u32,
    ) -> PyResult<PyAecCore> {
        if dealer >= 4 || target == 0 {
            return Err(rule_error(
                py,
                format!("dealer {dealer} must be a seat 0..3 and target {target} at least 1"),
            ));
        }
        let game = SpadesEpisodes {
            dealer,
            two_of_clubs_leads,
            target,
        };
        Ok(PyAecCore {
            core: Core::Spades(Single::new(game)),
        })
    }

    /// A Bridge deal: the auction from South, then the play.
    ///
    /// `vulnerable` is North-South's, then East-West's.
    #[staticmethod]
    fn bridge(#[pyo3(from_py_with = arg)] vulnerable: [bool; 2]) -> PyAecCore {
        PyAecCore {
            core: Core::Bridge(Single::new(BridgeEpisodes { vulnerable })),
        }
    }

    /// A Dou Dizhu game: the bidding, then the card play.
    ///
    /// `single_round`: each seat speaks once in the bidding.
    #[staticmethod]
    fn doudizhu(#[pyo3(from_py_with = arg)] single_round: bool) -> PyAecCore {
        PyAecCore {
            core: Core::DouDizhu(Single::new(DouDizhuEpisodes { single_round })),
        }
    }

    /// A Zheng Shangyou deal (the game has no rule options).
    #[staticmethod]
    fn zhengshangyou() -> PyAecCore {
        PyAecCore {
            core: Core::ZhengShangyou(Single::new(ZhengShangyouEpisodes)),
        }
    }

    /// A Guandan deal at `level` (`"2"`..`"A"`), without tribute.
    #[staticmethod]
    fn guandan(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] level: &str,
        #[pyo3(from_py_with = arg)] double_win_ends: bool,
    ) -> PyResult<PyAecCore> {
        let game = GuandanEpisodes {
            level: parse_level(level).py_err(py)?,
            double_win_ends,
        };
        Ok(PyAecCore {
            core: Core::Guandan(Single::new(game)),
        })
    }

    /// A single Tractor deal at `level` (`"2"`..`"A"`), declared from `first_speaker`.
    ///
    /// Dealing, declaring, burying, the card play and the level change.
    #[staticmethod]
    fn tractor(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] level: &str,
        #[pyo3(from_py_with = arg)] first_speaker: usize,
    ) -> PyResult<PyAecCore> {
        let level = parse_tractor_level(level).py_err(py)?;
        let game = TractorEpisodes::new(level, first_speaker).py_err(py)?;
        Ok(PyAecCore {
            core: Core::Tractor(Box::new(Single::new(game))),
        })
    }

    /// A Texas Hold'em hand from these starting `stacks`, `blinds` and `button`.
    #[staticmethod]
    fn holdem(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] stacks: Vec<u64>,
        #[pyo3(from_py_with = arg)] blinds: (u64, u64),
        #[pyo3(from_py_with = arg)] button: usize,
    ) -> PyResult<PyAecCore> {
        let game = HoldemEpisodes::new(stacks, blinds, button).py_err(py)?;
        Ok(PyAecCore {
            core: Core::Holdem(Single::new(game)),
        })
    }

    /// Deal the episode of `seed` (the game of `new_state(seed=seed)`).
    ///
    /// Returns the seat to act, or -1 when the deal is over before any move.
    fn reset(&mut self, py: Python<'_>, #[pyo3(from_py_with = arg)] seed: u64) -> PyResult<i64> {
        with_single!(&mut self.core, s => s.reset(py, seed))
    }

    /// Play action id `action` for the seat to act.
    ///
    /// Returns the next seat to act, -1 once the episode is over, or -2 (nothing
    /// changed) when `action` is not an int (numpy integers count; bools do not)
    /// naming a legal id.
    fn step(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<i64> {
        let id = if action.is_instance_of::<PyBool>() {
            None
        } else {
            action.extract::<i64>().ok()
        };
        with_single!(&mut self.core, s => s.step(py, id))
    }

    /// `seat`'s observation as the AEC environments give it, in a new dict.
    ///
    /// `"observation"` is the float32 tensor, `"action_mask"` the int8 mask (all
    /// zeros unless `seat` is to act), both new arrays.
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        #[pyo3(from_py_with = arg)] seat: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        with_single!(&mut self.core, s => s.observe(py, seat))
    }

    /// The legal action ids of the seat to act, ascending, in a new int64 array.
    ///
    /// Exactly the nonzero ids of that seat's `action_mask`; empty once the
    /// episode is over.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        with_single!(&self.core, s => s.legal_actions(py))
    }

    /// The ids played since the deal from the `start`-th on (all of them by default).
    #[pyo3(signature = (start = 0))]
    fn played(&self, #[pyo3(from_py_with = arg)] start: usize) -> Vec<u32> {
        with_single!(&self.core, s => s.played.get(start..).unwrap_or_default().to_vec())
    }

    /// Each seat's return of the episode, once it is over.
    fn returns(&self, py: Python<'_>) -> PyResult<Vec<f64>> {
        with_single!(&self.core, s => s.returns(py))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAecCore>()?;
    Ok(())
}
