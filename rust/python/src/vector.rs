//! `VectorEnv`: the engine's batched episodes (cardkit_engine::vector) with
//! output buffers held as numpy arrays that every call rewrites in place.

use cardkit_engine::climbing::guandan::parse_level;
use cardkit_engine::trick::tractor::parse_level as parse_tractor_level;
use cardkit_engine::vector::climbing::{DouDizhuEpisodes, ZhengShangyouEpisodes};
use cardkit_engine::vector::guandan::GuandanEpisodes;
use cardkit_engine::vector::holdem::HoldemEpisodes;
use cardkit_engine::vector::tractor::TractorEpisodes;
use cardkit_engine::vector::trick::{BridgeEpisodes, HeartsEpisodes, SpadesEpisodes};
use cardkit_engine::vector::{Episodes, Outputs, VectorEnv};
use cardkit_engine::EngineError;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::args::arg;
use crate::errors::{to_py, IntoPyResult};

/// One engine env per supported game.
enum Env {
    Hearts(VectorEnv<HeartsEpisodes>),
    Spades(VectorEnv<SpadesEpisodes>),
    Bridge(VectorEnv<BridgeEpisodes>),
    DouDizhu(VectorEnv<DouDizhuEpisodes>),
    ZhengShangyou(VectorEnv<ZhengShangyouEpisodes>),
    Guandan(VectorEnv<GuandanEpisodes>),
    Tractor(VectorEnv<TractorEpisodes>),
    Holdem(VectorEnv<HoldemEpisodes>),
}

/// Evaluate `$body` with `$e` bound to the engine env, whichever game it plays.
macro_rules! with_env {
    ($env:expr, $e:ident => $body:expr) => {
        match $env {
            Env::Hearts($e) => $body,
            Env::Spades($e) => $body,
            Env::Bridge($e) => $body,
            Env::DouDizhu($e) => $body,
            Env::ZhengShangyou($e) => $body,
            Env::Guandan($e) => $body,
            Env::Tractor($e) => $body,
            Env::Holdem($e) => $body,
        }
    };
}

/// The numpy arrays an env writes: observations, masks, rewards, players, done.
struct Arrays {
    observations: Py<PyArray2<f32>>,
    masks: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    players: Py<PyArray1<i64>>,
    done: Py<PyArray1<bool>>,
}

type Views<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<bool>>,
);

impl Arrays {
    fn new<G: Episodes>(py: Python<'_>, env: &VectorEnv<G>) -> Arrays {
        let (n, g) = (env.num_envs(), env.game());
        Arrays {
            observations: PyArray2::zeros(py, [n, g.observation_len()], false).unbind(),
            masks: PyArray2::zeros(py, [n, g.num_actions()], false).unbind(),
            rewards: PyArray2::zeros(py, [n, g.num_players()], false).unbind(),
            players: PyArray1::zeros(py, n, false).unbind(),
            done: PyArray1::zeros(py, n, false).unbind(),
        }
    }

    fn views<'py>(&self, py: Python<'py>) -> Views<'py> {
        (
            self.observations.bind(py).clone(),
            self.masks.bind(py).clone(),
            self.rewards.bind(py).clone(),
            self.players.bind(py).clone(),
            self.done.bind(py).clone(),
        )
    }
}

fn rule_error(py: Python<'_>, why: String) -> PyErr {
    to_py(py, EngineError::RuleOption(why))
}

/// Run `work` without the GIL on mutable views of `arrays`.
fn with_outputs(
    py: Python<'_>,
    arrays: &Arrays,
    work: impl for<'a> FnOnce(Outputs<'a>) -> Result<(), EngineError> + Send,
) -> PyResult<()> {
    let busy = |e: numpy::BorrowError| rule_error(py, format!("the env's arrays are in use: {e}"));
    let mut o = arrays.observations.bind(py).try_readwrite().map_err(busy)?;
    let mut m = arrays.masks.bind(py).try_readwrite().map_err(busy)?;
    let mut r = arrays.rewards.bind(py).try_readwrite().map_err(busy)?;
    let mut p = arrays.players.bind(py).try_readwrite().map_err(busy)?;
    let mut d = arrays.done.bind(py).try_readwrite().map_err(busy)?;
    let slices = (
        o.as_slice_mut(),
        m.as_slice_mut(),
        r.as_slice_mut(),
        p.as_slice_mut(),
        d.as_slice_mut(),
    );
    // The arrays are created C-contiguous and never handed out resized.
    let (Ok(observations), Ok(masks), Ok(rewards), Ok(players), Ok(done)) = slices else {
        return Err(rule_error(py, "the env's arrays are not contiguous".into()));
    };
    let out = Outputs {
        observations,
        masks,
        rewards,
        players,
        done,
    };
    py.detach(|| work(out)).py_err(py)
}

/// A batch of single-deal episodes stepped in Rust (see cardkit.envs.VectorEnv).
#[pyclass(name = "VectorEnv", module = "cardkit._core")]
pub struct PyVectorEnv {
    env: Env,
    arrays: Arrays,
}

impl PyVectorEnv {
    /// Each thread's `(busy seconds, CPU seconds, slots stepped, calls)` so far,
    /// helpers first and the calling thread last (`VectorEnv::thread_busy`).
    pub(crate) fn thread_busy(&self) -> Vec<(f64, f64, u64, u64)> {
        let busy = with_env!(&self.env, e => e.thread_busy());
        busy.into_iter()
            .map(|b| {
                (
                    b.nanos as f64 * 1e-9,
                    b.cpu_nanos as f64 * 1e-9,
                    b.slots,
                    b.calls,
                )
            })
            .collect()
    }

    fn build(py: Python<'_>, env: Env) -> PyVectorEnv {
        let arrays = with_env!(&env, e => Arrays::new(py, e));
        PyVectorEnv { env, arrays }
    }
}

fn check_target(py: Python<'_>, target: u32) -> PyResult<u32> {
    if target == 0 {
        return Err(rule_error(py, "target must be at least 1".into()));
    }
    Ok(target)
}

#[pymethods]
impl PyVectorEnv {
    /// Most slots in one env (the arrays' bytes are bounded too).
    #[classattr]
    const MAX_ENVS: usize = cardkit_engine::vector::MAX_ENVS;

    /// Most threads one env steps its slots on.
    #[classattr]
    const MAX_THREADS: usize = cardkit_engine::vector::MAX_THREADS;

    /// Hearts single deals, with the pass to the left or (`passing=False`) none.
    #[staticmethod]
    fn hearts(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] num_envs: usize,
        #[pyo3(from_py_with = arg)] seed: u64,
        #[pyo3(from_py_with = arg)] threads: usize,
        #[pyo3(from_py_with = arg)] passing: bool,
        #[pyo3(from_py_with = arg)] target: u32,
    ) -> PyResult<PyVectorEnv> {
        let game = HeartsEpisodes::new(passing, check_target(py, target)?);
        let env = VectorEnv::new(game, num_envs, seed, threads).py_err(py)?;
        Ok(PyVectorEnv::build(py, Env::Hearts(env)))
    }

    /// Spades single deals: the seat left of `dealer` bids first.
    #[staticmethod]
    fn spades(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] num_envs: usize,
        #[pyo3(from_py_with = arg)] seed: u64,
        #[pyo3(from_py_with = arg)] threads: usize,
        #[pyo3(from_py_with = arg)] dealer: usize,
        #[pyo3(from_py_with = arg)] two_of_clubs_leads: bool,
        #[pyo3(from_py_with = arg)] target: u32,
    ) -> PyResult<PyVectorEnv> {
        if dealer >= 4 {
            return Err(rule_error(
                py,
                format!("dealer {dealer} is not a seat 0..3"),
            ));
        }
        let game = SpadesEpisodes {
            dealer,
            two_of_clubs_leads,
            target: check_target(py, target)?,
        };
        let env = VectorEnv::new(game, num_envs, seed, threads).py_err(py)?;
        Ok(PyVectorEnv::build(py, Env::Spades(env)))
    }

    /// Bridge single deals: the auction from South, then the play.
    ///
    /// `vulnerable` is North-South's, then East-West's.
    #[staticmethod]
    fn bridge(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] num_envs: usize,
        #[pyo3(from_py_with = arg)] seed: u64,
        #[pyo3(from_py_with = arg)] threads: usize,
        #[pyo3(from_py_with = arg)] vulnerable: [bool; 2],
    ) -> PyResult<PyVectorEnv> {
        let game = BridgeEpisodes { vulnerable };
        let env = VectorEnv::new(game, num_envs, seed, threads).py_err(py)?;
        Ok(PyVectorEnv::build(py, Env::Bridge(env)))
    }

    /// Dou Dizhu games: the bidding (`single_round`: each seat speaks once), then the card play.
    #[staticmethod]
    fn doudizhu(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] num_envs: usize,
        #[pyo3(from_py_with = arg)] seed: u64,
        #[pyo3(from_py_with = arg)] threads: usize,
        #[pyo3(from_py_with = arg)] single_round: bool,
    ) -> PyResult<PyVectorEnv> {
        let game = DouDizhuEpisodes { single_round };
        let env = VectorEnv::new(game, num_envs, seed, threads).py_err(py)?;
        Ok(PyVectorEnv::build(py, Env::DouDizhu(env)))
    }

    /// Zheng Shangyou deals (the game has no rule options).
    #[staticmethod]
    fn zhengshangyou(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] num_envs: usize,
        #[pyo3(from_py_with = arg)] seed: u64,
        #[pyo3(from_py_with = arg)] threads: usize,
    ) -> PyResult<PyVectorEnv> {
        let env = VectorEnv::new(ZhengShangyouEpisodes, num_envs, seed, threads).py_err(py)?;
        Ok(PyVectorEnv::build(py, Env::ZhengShangyou(env)))
    }

    /// Guandan single deals at `level` (`"2"`..`"A"`), without tribute.
    ///
    /// `double_win_ends` ends a deal once one team has finished first and second.
    #[staticmethod]
    fn guandan(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] num_envs: usize,
        #[pyo3(from_py_with = arg)] seed: u64,
        #[pyo3(from_py_with = arg)] threads: usize,
        #[pyo3(from_py_with = arg)] level: &str,
        #[pyo3(from_py_with = arg)] double_win_ends: bool,
    ) -> PyResult<PyVectorEnv> {
        let game = GuandanEpisodes {
            level: parse_level(level).py_err(py)?,
            double_win_ends,
        };
        let env = VectorEnv::new(game, num_envs, seed, threads).py_err(py)?;
        Ok(PyVectorEnv::build(py, Env::Guandan(env)))
    }

    /// Tractor single deals at `level` (`"2"`..`"A"`).
    ///
    /// Dealing, declaring from `first_speaker`, burying and the card play.
    #[staticmethod]
    fn tractor(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] num_envs: usize,
        #[pyo3(from_py_with = arg)] seed: u64,
        #[pyo3(from_py_with = arg)] threads: usize,
        #[pyo3(from_py_with = arg)] level: &str,
        #[pyo3(from_py_with = arg)] first_speaker: usize,
    ) -> PyResult<PyVectorEnv> {
        let level = parse_tractor_level(level).py_err(py)?;
        let game = TractorEpisodes::new(level, first_speaker).py_err(py)?;
        let env = VectorEnv::new(game, num_envs, seed, threads).py_err(py)?;
        Ok(PyVectorEnv::build(py, Env::Tractor(env)))
    }

    /// Texas Hold'em single hands from these starting `stacks`, `blinds` and `button`.
    #[staticmethod]
    fn holdem(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] num_envs: usize,
        #[pyo3(from_py_with = arg)] seed: u64,
        #[pyo3(from_py_with = arg)] threads: usize,
        #[pyo3(from_py_with = arg)] stacks: Vec<u64>,
        #[pyo3(from_py_with = arg)] blinds: (u64, u64),
        #[pyo3(from_py_with = arg)] button: usize,
    ) -> PyResult<PyVectorEnv> {
        let game = HoldemEpisodes::new(stacks, blinds, button).py_err(py)?;
        let env = VectorEnv::new(game, num_envs, seed, threads).py_err(py)?;
        Ok(PyVectorEnv::build(py, Env::Holdem(env)))
    }

    /// The legal ids of every slot, compactly: `(ids, offsets)`, int64 arrays.
    ///
    /// Slot `i`'s ids, ascending, are `ids[offsets[i]:offsets[i + 1]]` (none once
    /// its episode is over): the rows of `masks`, without reading their zeros.
    fn legal_ids<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>) {
        let (mut ids, mut offsets) = (Vec::new(), Vec::new());
        with_env!(&self.env, e => e.legal_ids(&mut ids, &mut offsets));
        (PyArray1::from_vec(py, ids), PyArray1::from_vec(py, offsets))
    }

    /// Start a new episode in every slot (from episode 0 when `seed` is given).
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        #[pyo3(from_py_with = arg)] seed: Option<u64>,
    ) -> PyResult<Views<'py>> {
        with_env!(&mut self.env, e => with_outputs(py, &self.arrays, |out| e.reset(seed, out)))?;
        Ok(self.arrays.views(py))
    }

    /// Apply one int64 action id per slot and write the results in place.
    fn step<'py>(&mut self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Views<'py>> {
        let n = with_env!(&self.env, e => e.num_envs());
        let wrong = || {
            let describe = |name: &str| {
                actions
                    .getattr(name)
                    .and_then(|v| v.str().map(|s| s.to_string()))
                    .unwrap_or_else(|_| "?".into())
            };
            let kind = actions
                .get_type()
                .name()
                .map_or("?".into(), |s| s.to_string());
            let shown: String = format!(
                "{kind} of dtype {} and shape {}",
                describe("dtype"),
                describe("shape")
            )
            .chars()
            .take(80)
            .collect();
            to_py(
                py,
                EngineError::IllegalAction(format!(
                    "actions must be a numpy int64 array of shape ({n},), got {shown}"
                )),
            )
        };
        let array = actions.cast::<PyArray1<i64>>().map_err(|_| wrong())?;
        if array.len() != n {
            return Err(wrong());
        }
        let ids: Vec<i64> = match array.try_readonly() {
            Ok(view) => view.as_array().to_vec(),
            Err(e) => return Err(rule_error(py, format!("actions cannot be read: {e}"))),
        };
        with_env!(&mut self.env, e => with_outputs(py, &self.arrays, |out| e.step(&ids, out)))?;
        Ok(self.arrays.views(py))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVectorEnv>()?;
    Ok(())
}
