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
use cardkit_engine::vector::{write_observation, Episodes};
use cardkit_engine::EngineError;
use numpy::npyffi::{_PyArray_GET_ITEM_DATA, NPY_ARRAY_C_CONTIGUOUS, NPY_ARRAY_WRITEABLE};
use numpy::{Element, PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyDict, PyList, PyString, PyTuple, PyWeakrefMethods, PyWeakrefReference,
};

use crate::args::{arg, named};
use crate::errors::{invalid_argument, to_py, IntoPyResult};

/// What `step` answers for an id it refuses (not an int, out of range, illegal).
const REFUSED: i64 = -2;
/// What `reset` and `step` answer once the episode is over.
const OVER: i64 = -1;
/// What `step` answers when the episode was already over before the call
/// (nothing changed: the environment's step of a finished agent).
const DONE: i64 = -3;

/// One game's episodes and the episode in play (none before the first reset).
struct Single<G: Episodes> {
    game: G,
    episode: Option<G::Episode>,
    /// The legal ids of the seat to act, listed once per position.
    ids: Vec<u32>,
    /// The ids played since the deal, in order.
    played: Vec<u32>,
    /// The observations handed out last (at most `SPARE`), which `observe`
    /// rewrites once nothing else refers to them (never with `copy_observations`).
    spare: Vec<Handed>,
    /// The observation `observe` replaces next when every kept one is still held.
    next_spare: usize,
}

/// The environment's side of an episode (see `AecCore.attach` and `reset`).
struct Env {
    /// The agents' names, by seat (none before `attach`).
    agents: Vec<Py<PyString>>,
    /// Hand out new arrays on every `observe`, never rewritten ones.
    copy_observations: bool,
    /// The environment's per-episode dicts (from `reset`).
    dicts: Option<Dicts>,
    /// The environment (weakly: it holds this core), whose `agent_selection`
    /// `step` sets and whose `_engine_event` it calls when no seat is to act next.
    owner: Option<Py<PyWeakrefReference>>,
    /// The `legal_actions` info of a seat not to act: one empty read-only array.
    no_ids: Py<PyArray1<i64>>,
}

/// The episode's `infos`, `_cumulative_rewards`, `terminations` and
/// `truncations`, which `step` and `last` read and write as the environment's own
/// Python code would.
struct Dicts {
    infos: Py<PyDict>,
    cumulative_rewards: Py<PyDict>,
    terminations: Py<PyDict>,
    truncations: Py<PyDict>,
}

impl Env {
    /// The environment, while it lives.
    fn owner<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.owner
            .as_ref()
            .and_then(|o| o.bind(py).upgrade())
            .ok_or_else(|| rule_error(py, "the environment of this episode is gone".into()))
    }

    /// Agent `seat`'s entry of `dict`.
    fn read<'py>(
        &self,
        py: Python<'py>,
        dict: &Py<PyDict>,
        seat: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let agent = self.agents[seat].bind(py);
        dict.bind(py).get_item(agent)?.ok_or_else(|| {
            rule_error(
                py,
                format!("the environment's dicts have no entry for agent {agent:?}"),
            )
        })
    }

    /// Set agent `seat`'s `legal_actions` info to `ids`, if the episode has dicts.
    fn set_ids(&self, py: Python<'_>, seat: usize, ids: &Bound<'_, PyAny>) -> PyResult<()> {
        match &self.dicts {
            Some(dicts) => self
                .read(py, &dicts.infos, seat)?
                .set_item(ids_key(py), ids),
            None => Ok(()),
        }
    }
}

/// Pairs of observation arrays an episode keeps: a loop holds the last one or two
/// observations while it asks for the next, so a few pairs find one free.
const SPARE: usize = 4;

/// An observation dict handed out by `observe`, with its tensor and mask.
struct Handed {
    dict: Py<PyDict>,
    tensor: Py<PyArray1<f32>>,
    mask: Py<PyArray1<i8>>,
    /// The ids set in `mask`.
    set: Vec<u32>,
}

impl Handed {
    /// Whether no Python code refers to the dict or its arrays (only the dict and
    /// this keeper hold each array), the dict still holds exactly these two arrays
    /// and each array is as made: then no Python code can see a rewrite.
    fn free(&self, py: Python<'_>, obs_len: usize, num_actions: usize) -> bool {
        let dict = self.dict.bind(py);
        // SAFETY: `dict` is a live object; reading its reference count is sound.
        if unsafe { ffi::Py_REFCNT(dict.as_ptr()) } != 1 || dict.len() != 2 {
            return false;
        }
        let holds = |key: &Bound<'_, PyString>, value: *mut ffi::PyObject| matches!(dict.get_item(key), Ok(Some(v)) if v.as_ptr() == value);
        holds(intern!(py, "observation"), self.tensor.as_ptr())
            && holds(intern!(py, "action_mask"), self.mask.as_ptr())
            && untouched(self.tensor.bind(py), obs_len)
            && untouched(self.mask.bind(py), num_actions)
    }
}

/// Whether only its keeper and its dict refer to `array` and it is still a
/// writeable, contiguous 1-d array of `len` `T`s, as made: safe to rewrite.
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
    // The dtype compared by identity: numpy's descriptor of a native type is one
    // object, and any retyping (even to another byte order) replaces it.
    let descr = unsafe { (*_PyArray_GET_ITEM_DATA(array.as_array_ptr())).descr };
    refs == 2
        && flags_now & flags == flags
        && array.ndim() == 1
        && array.len() == len
        && std::ptr::eq(descr.cast(), numpy::dtype::<T>(array.py()).as_ptr())
}

fn rule_error(py: Python<'_>, why: String) -> PyErr {
    to_py(py, EngineError::RuleOption(why))
}

/// The environment's error for `call` made before the first `reset`.
fn no_episode(call: &str) -> PyErr {
    pyo3::exceptions::PyAttributeError::new_err(format!(
        "{call} needs an episode: call reset() first"
    ))
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

    fn reset(&mut self, py: Python<'_>, seed: u64, env: &Env) -> PyResult<i64> {
        self.episode = Some(self.game.start(seed).py_err(py)?);
        self.played.clear();
        let seat = self.settle();
        if env.dicts.is_some() {
            for k in 0..self.game.num_players() {
                if k as i64 == seat {
                    env.set_ids(py, k, self.ids_array(py)?.as_any())?;
                } else {
                    env.set_ids(py, k, env.no_ids.bind(py).as_any())?;
                }
            }
        }
        Ok(seat)
    }

    fn step(&mut self, py: Python<'_>, id: Option<i64>, env: &Env) -> PyResult<i64> {
        let Some(episode) = self.episode.as_mut() else {
            return Err(not_reset(py));
        };
        let Some(before) = self.game.to_act(episode) else {
            return Ok(DONE);
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
        let seat = self.settle();
        if env.dicts.is_some() {
            // The info of the seat that moved, then of the seat to act (the same
            // seat when it moves again), as the Python env sets them.
            env.set_ids(py, before, env.no_ids.bind(py).as_any())?;
            if let Ok(next) = usize::try_from(seat) {
                env.set_ids(py, next, self.ids_array(py)?.as_any())?;
            }
        }
        Ok(seat)
    }

    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        seat: usize,
        copy: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
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
        // An observation handed out before that only this episode still refers to:
        // no Python code can see it change, so it is rewritten rather than a new
        // one made (a new mask is 24,643 zeroed bytes for Dou Dizhu), unless Python
        // code changed it in ways a rewrite would not undo (keys, shape, dtype,
        // flags). With `copy_observations` every observation is new and none kept.
        let free = if copy {
            None
        } else {
            self.spare
                .iter()
                .position(|h| h.free(py, obs_len, num_actions))
        };
        let mut made;
        let handed = match free {
            Some(k) => &mut self.spare[k],
            None => {
                // Numpy's own zeroed arrays: no Rust buffer kept alive behind them.
                let tensor = PyArray1::<f32>::zeros(py, obs_len, false);
                let mask = PyArray1::<i8>::zeros(py, num_actions, false);
                let dict = PyDict::new(py);
                dict.set_item(intern!(py, "observation"), &tensor)?;
                dict.set_item(intern!(py, "action_mask"), &mask)?;
                made = Handed {
                    dict: dict.unbind(),
                    tensor: tensor.unbind(),
                    mask: mask.unbind(),
                    set: Vec::new(),
                };
                if copy {
                    &mut made
                } else if self.spare.len() < SPARE {
                    let k = self.spare.len();
                    self.spare.push(made);
                    &mut self.spare[k]
                } else {
                    // Every kept one is still held: let the oldest go to Python alone.
                    let k = self.next_spare;
                    self.next_spare = (k + 1) % SPARE;
                    self.spare[k] = made;
                    &mut self.spare[k]
                }
            }
        };
        {
            let tensor = handed.tensor.bind(py);
            let mask = handed.mask.bind(py);
            // SAFETY: no Python code refers to either array but through this
            // episode's dict (new, or checked free above), both are contiguous,
            // and no Python code runs while the slices live.
            let out = unsafe { tensor.as_slice_mut() }?;
            // The writer sets every float (checked in debug builds and by the
            // engine's tests), so a rewritten tensor needs no clearing first.
            write_observation(&self.game, episode, seat, out).py_err(py)?;
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
        Ok(handed.dict.bind(py).clone())
    }

    /// The legal ids of the seat to act, ascending, in a new int64 array.
    fn ids_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let ids = PyArray1::<i64>::zeros(py, self.ids.len(), false);
        // SAFETY: made here, contiguous, not yet shared with Python code.
        let out = unsafe { ids.as_slice_mut() }?;
        for (o, &id) in out.iter_mut().zip(&self.ids) {
            *o = i64::from(id);
        }
        Ok(ids)
    }

    /// `last()` of the environment: the observation (or `None`), cumulative
    /// reward, termination, truncation and info of the agent to act, as the
    /// environment's dicts hold them.
    fn last<'py>(
        &mut self,
        py: Python<'py>,
        observe: bool,
        env: &Env,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (Some(episode), Some(dicts)) = (&self.episode, &env.dicts) else {
            return Err(no_episode("last()"));
        };
        let seat = match self.game.to_act(episode) {
            Some(seat) => seat,
            // Over: the agents leave one by one (the environment's dead steps), so
            // the agent is the one the environment selected.
            None => {
                let agent = env.owner(py)?.getattr(intern!(py, "agent_selection"))?;
                let seat = env
                    .agents
                    .iter()
                    .position(|a| a.bind(py).as_any().eq(&agent).unwrap_or(false));
                seat.ok_or_else(|| {
                    rule_error(py, format!("agent_selection {agent} is no attached agent"))
                })?
            }
        };
        let obs = if observe {
            self.observe(py, seat, env.copy_observations)?.into_any()
        } else {
            py.None().into_bound(py)
        };
        let items = [
            obs,
            env.read(py, &dicts.cumulative_rewards, seat)?,
            env.read(py, &dicts.terminations, seat)?,
            env.read(py, &dicts.truncations, seat)?,
            env.read(py, &dicts.infos, seat)?,
        ];
        PyTuple::new(py, items)
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

/// The key of the legal ids in each agent's info.
fn ids_key(py: Python<'_>) -> &Bound<'_, PyString> {
    intern!(py, "legal_actions")
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
    env: Env,
}

impl PyAecCore {
    fn of(py: Python<'_>, core: Core) -> PyAecCore {
        let no_ids = PyArray1::<i64>::zeros(py, 0, false);
        // SAFETY: made here and shared with no Python code yet; its flags word
        // is numpy's to read, and clearing the writeable bit makes it read-only.
        unsafe {
            (*_PyArray_GET_ITEM_DATA(no_ids.as_array_ptr())).flags &= !NPY_ARRAY_WRITEABLE;
        }
        PyAecCore {
            core,
            env: Env {
                agents: Vec::new(),
                copy_observations: false,
                dicts: None,
                owner: None,
                no_ids: no_ids.unbind(),
            },
        }
    }

    fn num_players(&self) -> usize {
        with_single!(&self.core, s => s.game.num_players())
    }
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
        Ok(PyAecCore::of(py, Core::Hearts(Single::new(game))))
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
        Ok(PyAecCore::of(py, Core::Spades(Single::new(game))))
    }

    /// A Bridge deal: the auction from South, then the play.
    ///
    /// `vulnerable` is North-South's, then East-West's.
    #[staticmethod]
    fn bridge(py: Python<'_>, #[pyo3(from_py_with = arg)] vulnerable: [bool; 2]) -> PyAecCore {
        PyAecCore::of(py, Core::Bridge(Single::new(BridgeEpisodes { vulnerable })))
    }

    /// A Dou Dizhu game: the bidding, then the card play.
    ///
    /// `single_round`: each seat speaks once in the bidding.
    #[staticmethod]
    fn doudizhu(py: Python<'_>, #[pyo3(from_py_with = arg)] single_round: bool) -> PyAecCore {
        PyAecCore::of(
            py,
            Core::DouDizhu(Single::new(DouDizhuEpisodes { single_round })),
        )
    }

    /// A Zheng Shangyou deal (the game has no rule options).
    #[staticmethod]
    fn zhengshangyou(py: Python<'_>) -> PyAecCore {
        PyAecCore::of(py, Core::ZhengShangyou(Single::new(ZhengShangyouEpisodes)))
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
        Ok(PyAecCore::of(py, Core::Guandan(Single::new(game))))
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
        Ok(PyAecCore::of(
            py,
            Core::Tractor(Box::new(Single::new(game))),
        ))
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
        Ok(PyAecCore::of(py, Core::Holdem(Single::new(game))))
    }

    /// Serve the AEC environment `env`, whose agents by seat are `agents`.
    ///
    /// `step` sets `env.agent_selection` and calls `env._engine_event(code,
    /// action)` when no seat is to act next; `env` is held weakly. With
    /// `copy_observations`, every observation is a new dict of new arrays; else
    /// one handed out before is rewritten once nothing else refers to it (not
    /// even a view).
    fn attach(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] env: Bound<'_, PyAny>,
        #[pyo3(from_py_with = arg)] agents: Bound<'_, PyList>,
        #[pyo3(from_py_with = arg)] copy_observations: bool,
    ) -> PyResult<()> {
        // The environment's own name objects: a dict finds its key by identity
        // before comparing text.
        let names: PyResult<Vec<Py<PyString>>> = agents
            .iter()
            .map(|a| {
                a.cast_into::<PyString>().map(Bound::unbind).map_err(|e| {
                    let got = crate::cards::repr_of(e.into_inner().as_any());
                    invalid_argument(py, format!("must be a list of str, got an item {got}"))
                })
            })
            .collect();
        let names = named(py, "agents", names)?;
        let owner = PyWeakrefReference::new(&env).map_err(|_| {
            let problem = "must be an object that takes weak references".to_string();
            invalid_argument(py, format!("{problem}, got {}", env.get_type()))
        });
        let owner = named(py, "env", owner)?;
        if agents.len() != self.num_players() {
            let n = self.num_players();
            return Err(rule_error(
                py,
                format!("agents must name the {n} seats, got {}", agents.len()),
            ));
        }
        self.env.owner = Some(owner.unbind());
        self.env.agents = names;
        self.env.copy_observations = copy_observations;
        self.env.dicts = None;
        Ok(())
    }

    /// Deal the episode of `seed` (the game of `new_state(seed=seed)`).
    ///
    /// Returns the seat to act, or -1 when the deal is over before any move. The
    /// dicts, keyed by the attached agents, are the environment's for this
    /// episode: `step` keeps each agent's `infos` entry `"legal_actions"` (its
    /// legal ids while it is to act, else an empty read-only array) and `last`
    /// reads all four.
    fn reset(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] seed: u64,
        #[pyo3(from_py_with = arg)] infos: Bound<'_, PyDict>,
        #[pyo3(from_py_with = arg)] cumulative_rewards: Bound<'_, PyDict>,
        #[pyo3(from_py_with = arg)] terminations: Bound<'_, PyDict>,
        #[pyo3(from_py_with = arg)] truncations: Bound<'_, PyDict>,
    ) -> PyResult<i64> {
        if self.env.agents.is_empty() {
            return Err(rule_error(
                py,
                "attach() must be called before reset()".into(),
            ));
        }
        self.env.dicts = Some(Dicts {
            infos: infos.unbind(),
            cumulative_rewards: cumulative_rewards.unbind(),
            terminations: terminations.unbind(),
            truncations: truncations.unbind(),
        });
        let env = &self.env;
        let result = with_single!(&mut self.core, s => s.reset(py, seed, env));
        if result.is_err() {
            // Dicts that lack an agent's entry are not kept for `step` and `last`.
            self.env.dicts = None;
        }
        result
    }

    /// The environment's `step`: play action id `action` for the agent to act.
    ///
    /// Sets the environment's `agent_selection` to the agent to act next, or
    /// calls its `_engine_event(code, action)` with -1 once the episode is over,
    /// -2 (nothing changed) when `action` is not an int (numpy integers count;
    /// bools do not) naming a legal id, or -3 (nothing changed) when the episode
    /// was already over. Keeps the `"legal_actions"` infos of the dicts given to
    /// `reset`.
    fn step(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let id = if action.is_instance_of::<PyBool>() {
            None
        } else {
            action.extract::<i64>().ok()
        };
        // The borrow ends before any Python code runs: `_engine_event` calls back.
        let (code, owner, agent) = {
            let mut this = slf.borrow_mut();
            let this = &mut *this;
            if this.env.dicts.is_none() {
                return Err(no_episode("step()"));
            }
            let env = &this.env;
            let code = with_single!(&mut this.core, s => s.step(py, id, env))?;
            let agent = usize::try_from(code)
                .ok()
                .map(|seat| env.agents[seat].clone_ref(py));
            (code, env.owner(py)?, agent)
        };
        match agent {
            Some(agent) => {
                owner.setattr(intern!(py, "agent_selection"), agent)?;
                Ok(py.None())
            }
            None => owner
                .call_method1(intern!(py, "_engine_event"), (code, action))
                .map(Bound::unbind),
        }
    }

    /// The environment's `last()`: the agent to act's observation and the rest.
    ///
    /// Its observation (`None` unless `observe`), cumulative reward,
    /// termination, truncation and info, read from the dicts given to `reset`.
    #[pyo3(signature = (observe = true))]
    fn last<'py>(
        &mut self,
        py: Python<'py>,
        #[pyo3(from_py_with = arg)] observe: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let env = &self.env;
        with_single!(&mut self.core, s => s.last(py, observe, env))
    }

    /// `seat`'s observation as the AEC environments give it, in a dict.
    ///
    /// `"observation"` is the float32 tensor, `"action_mask"` the int8 mask (all
    /// zeros unless `seat` is to act). The dict and arrays are new, or ones handed
    /// out before that nothing else refers to any more (never with
    /// `copy_observations`).
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        #[pyo3(from_py_with = arg)] seat: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let copy = self.env.copy_observations;
        with_single!(&mut self.core, s => s.observe(py, seat, copy))
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
