//! Chinese Poker bindings: rules, segment ranking, scoring kernel, arrangements
//! and the solver. Inputs are converted to owned engine values first; the solver
//! runs on a worker thread that stops on Ctrl-C (see `interrupt`).

use crate::args::{arg, named, Cards, Iterable};
use crate::cards::extract_cards;
use crate::errors::{to_py, IntoPyResult};
use crate::interrupt;
use cardkit_engine::chinese_poker::arrange::check_hand;
use cardkit_engine::chinese_poker::scoring::{score_table, Made};
use cardkit_engine::chinese_poker::{
    self as cp, Arrangement, AutomaticWin, Entry, HandTable, Majority, Rules, ShotScoring,
    SolverOptions, Variant,
};
use cardkit_engine::poker;
use cardkit_engine::rng::CardRng;
use cardkit_engine::{Card, EngineError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

const MAJORITY_NAMES: [&str; 2] = ["two_of_three", "more_segments"];
const SHOT_NAMES: [&str; 2] = ["multiply", "add"];

fn rule_error(py: Python<'_>, msg: String) -> PyErr {
    to_py(py, EngineError::RuleOption(msg))
}

/// The scoring rules of a Chinese Poker table (immutable).
#[pyclass(frozen, module = "cardkit._core", name = "ChinesePokerRules")]
#[derive(Clone, Copy)]
pub struct PyRules(pub Rules);

#[pymethods]
impl PyRules {
    /// `variant`: basic, eastern, western or mandarin; points for a declared
    /// automatic win and for a Dragon; `majority`: two_of_three or more_segments;
    /// `western_bonus`: western also pays the eastern bonus hands; `shot`: multiply
    /// or add (how the mandarin shot and home run apply to the regular value).
    #[new]
    #[pyo3(signature = (
        variant = "basic",
        automatic_win_points = 3,
        dragon_points = 13,
        majority = "two_of_three",
        western_bonus = false,
        shot = "multiply",
    ))]
    fn py_new(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] variant: &str,
        #[pyo3(from_py_with = arg)] automatic_win_points: i64,
        #[pyo3(from_py_with = arg)] dragon_points: i64,
        #[pyo3(from_py_with = arg)] majority: &str,
        #[pyo3(from_py_with = arg)] western_bonus: bool,
        #[pyo3(from_py_with = arg)] shot: &str,
    ) -> PyResult<Self> {
        let points = |name: &str, v: i64| -> PyResult<i32> {
            if (0..=1000).contains(&v) {
                Ok(v as i32)
            } else {
                Err(rule_error(
                    py,
                    format!("option {name}={v} is out of range 0..1000"),
                ))
            }
        };
        let majority = match majority {
            "two_of_three" => Majority::TwoOfThree,
            "more_segments" => Majority::MoreSegments,
            other => {
                return Err(rule_error(
                    py,
                    format!("option majority={other:?} must be one of two_of_three, more_segments"),
                ))
            }
        };
        let shot = match shot {
            "multiply" => ShotScoring::Multiply,
            "add" => ShotScoring::Add,
            other => {
                return Err(rule_error(
                    py,
                    format!("option shot={other:?} must be one of multiply, add"),
                ))
            }
        };
        Ok(PyRules(Rules {
            variant: Variant::parse(variant).py_err(py)?,
            automatic_win_points: points("automatic_win_points", automatic_win_points)?,
            dragon_points: points("dragon_points", dragon_points)?,
            majority,
            western_bonus,
            shot,
        }))
    }

    /// The point system: basic, eastern, western or mandarin.
    #[getter]
    fn variant(&self) -> &'static str {
        Variant::NAMES[self.0.variant as usize]
    }

    /// Points a declared automatic win other than the Dragon takes from each opponent.
    #[getter]
    fn automatic_win_points(&self) -> i32 {
        self.0.automatic_win_points
    }

    /// Points a declared Dragon takes from each opponent.
    #[getter]
    fn dragon_points(&self) -> i32 {
        self.0.dragon_points
    }

    /// Who earns the majority point: two_of_three or more_segments.
    #[getter]
    fn majority(&self) -> &'static str {
        MAJORITY_NAMES[self.0.majority as usize]
    }

    /// Whether the western variant also pays the eastern bonus hands.
    #[getter]
    fn western_bonus(&self) -> bool {
        self.0.western_bonus
    }

    /// How the mandarin shot and home run apply: multiply or add.
    #[getter]
    fn shot(&self) -> &'static str {
        SHOT_NAMES[self.0.shot as usize]
    }

    fn __repr__(&self) -> String {
        format!(
            "ChinesePokerRules(variant={:?}, automatic_win_points={}, dragon_points={}, \
             majority={:?}, western_bonus={}, shot={:?})",
            self.variant(),
            self.0.automatic_win_points,
            self.0.dragon_points,
            self.majority(),
            if self.0.western_bonus {
                "True"
            } else {
                "False"
            },
            self.shot()
        )
    }
}

fn hand_of(py: Python<'_>, hand: Cards) -> PyResult<Vec<Card>> {
    check_hand(&hand.0).py_err(py)?;
    Ok(hand.0)
}

fn table_of(py: Python<'_>, hand: Cards) -> PyResult<HandTable> {
    HandTable::new(&hand.0).py_err(py)
}

fn text(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect()
}

fn texts(a: &Arrangement) -> (String, String, String) {
    (text(&a.front), text(&a.middle), text(&a.back))
}

fn made_name(m: Made) -> &'static str {
    match m {
        Made::Plain => "plain",
        Made::Trips => "trips",
        Made::FullHouse => "full_house",
        Made::Quads => "quads",
        Made::StraightFlush => "straight_flush",
    }
}

/// The automatic wins a 13-card hand qualifies for, strongest first.
///
/// The names: `dragon`, `six_pairs`, `three_flushes`, `three_straights`.
#[pyfunction]
fn chinese_poker_automatic_wins(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hand: Cards,
) -> PyResult<Vec<&'static str>> {
    let hand = hand_of(py, hand)?;
    Ok(cp::automatic_wins(&hand)
        .into_iter()
        .map(|w| w.as_str())
        .collect())
}

/// Rank a set: `(values, categories, made, proper)` for front, middle and back.
///
/// `values` share one scale (higher wins; the front ranks as three cards),
/// `categories` are the evaluator's category names, `made` the bonus classes
/// (plain, trips, full_house, quads, straight_flush) and `proper` says whether
/// the set is in ranking order. Wrong sizes or repeated cards raise
/// `IllegalActionError`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn chinese_poker_rank_set(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] front: Cards,
    #[pyo3(from_py_with = arg)] middle: Cards,
    #[pyo3(from_py_with = arg)] back: Cards,
) -> PyResult<(Vec<u32>, Vec<&'static str>, Vec<&'static str>, bool)> {
    let a = Arrangement::new(&front.0, &middle.0, &back.0).py_err(py)?;
    let hands = a.hands();
    let categories = vec![
        poker::rank_front(a.front).category().as_str(),
        poker::rank5(a.middle).category().as_str(),
        poker::rank5(a.back).category().as_str(),
    ];
    Ok((
        hands.iter().map(|h| h.value).collect(),
        categories,
        hands.iter().map(|h| made_name(h.made)).collect(),
        cp::is_proper(&hands),
    ))
}

/// One scoring entry: a declared automatic win by name, or a set as a tuple of
/// three card groups. A set of 13 distinct cards with the wrong segment sizes is
/// improperly set (CP-29), like a misordered one.
fn entry_of(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Entry> {
    if let Ok(name) = obj.cast::<PyString>() {
        return Ok(Entry::Declared(
            AutomaticWin::parse(&name.to_string_lossy()).py_err(py)?,
        ));
    }
    let tuple = obj.cast::<PyTuple>().map_err(|_| {
        to_py(
            py,
            EngineError::IllegalAction(
                "a scoring entry is an automatic-win name or a (front, middle, back) tuple".into(),
            ),
        )
    })?;
    if tuple.len() != 3 {
        return Err(to_py(
            py,
            EngineError::IllegalAction(format!("a set has three segments, got {}", tuple.len())),
        ));
    }
    let parts: Vec<Vec<Card>> = tuple
        .iter()
        .map(|p| extract_cards(&p))
        .collect::<PyResult<_>>()?;
    let all: Vec<Card> = parts.iter().flatten().copied().collect();
    check_hand(&all).py_err(py)?;
    match Arrangement::new(&parts[0], &parts[1], &parts[2]) {
        Ok(a) => {
            let hands = a.hands();
            Ok(if cp::is_proper(&hands) {
                Entry::Set(hands)
            } else {
                Entry::Improper
            })
        }
        Err(EngineError::IllegalAction(_)) => Ok(Entry::Improper),
        Err(e) => Err(to_py(py, e)),
    }
}

/// Points per player for a table of entries (the Rust scoring kernel).
///
/// Each entry is a `(front, middle, back)` tuple or a declared automatic win's
/// name (the caller has checked that it qualifies). The points sum to zero.
#[pyfunction]
fn chinese_poker_score(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] entries: Iterable<'_>,
    #[pyo3(from_py_with = arg)] rules: Bound<'_, PyRules>,
) -> PyResult<Vec<i32>> {
    let too_many = || {
        rule_error(
            py,
            "Chinese Poker is scored for 2 to 4 players, got more".into(),
        )
    };
    let mut parsed: Vec<Entry> = Vec::with_capacity(4);
    // Stop at the fifth entry: `entries` may be any iterable, even an endless one.
    for entry in entries.0 {
        if parsed.len() == 4 {
            return Err(too_many());
        }
        parsed.push(named(py, "entries", entry_of(py, &entry?))?);
    }
    if parsed.len() < 2 {
        return Err(rule_error(
            py,
            format!(
                "Chinese Poker is scored for 2 to 4 players, got {}",
                parsed.len()
            ),
        ));
    }
    Ok(score_table(&rules.get().0, &parsed))
}

/// Unstable, for benches and tests only: `(splits, proper)`, the 72,072 ways to set
/// a hand and how many are properly set.
#[pyfunction(name = "chinese_poker_count_sets")]
fn bench_chinese_poker_count_sets(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hand: Cards,
) -> PyResult<(usize, usize)> {
    let table = table_of(py, hand)?;
    Ok((cp::splits::NUM_SPLITS, py.detach(|| table.count_proper())))
}

/// Up to `count` properly set splits of a hand, spread evenly over all of them.
///
/// Each is `(front, middle, back)` card strings; with `improper`, one misordered
/// split follows.
#[pyfunction]
#[pyo3(signature = (hand, count, improper = false))]
fn chinese_poker_sample_sets(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hand: Cards,
    #[pyo3(from_py_with = arg)] count: usize,
    #[pyo3(from_py_with = arg)] improper: bool,
) -> PyResult<Vec<(String, String, String)>> {
    let table = table_of(py, hand)?;
    let mut splits = table.spread(count);
    if improper {
        splits.extend(table.first_improper());
    }
    Ok(splits
        .iter()
        .map(|s| texts(&table.arrangement(s)))
        .collect())
}

/// The greedy set: the strongest back, the strongest middle of the rest, the rest in front.
///
/// When that is misordered, the best properly set split instead.
#[pyfunction]
fn chinese_poker_greedy_set(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hand: Cards,
) -> PyResult<(String, String, String)> {
    let table = table_of(py, hand)?;
    Ok(texts(&table.arrangement(&table.greedy())))
}

/// A uniformly random properly set split, drawn with the stream of `seed`.
#[pyfunction]
fn chinese_poker_random_set(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hand: Cards,
    #[pyo3(from_py_with = arg)] seed: u64,
) -> PyResult<(String, String, String)> {
    let table = table_of(py, hand)?;
    let proper: Vec<_> = table.proper_splits().copied().collect();
    let split = if proper.is_empty() {
        table.greedy()
    } else {
        proper[CardRng::new(seed).below(proper.len() as u64) as usize]
    };
    Ok(texts(&table.arrangement(&split)))
}

/// Solve a hand: `(declare, (front, middle, back), expected, declare_value, proper)`.
///
/// `declare` names the automatic win to declare instead of setting, or is None.
#[pyfunction]
#[pyo3(signature = (hand, rules, players = 4, samples = 200, candidates = 64, seed = 0))]
#[allow(clippy::type_complexity)]
fn chinese_poker_solve(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hand: Cards,
    #[pyo3(from_py_with = arg)] rules: Bound<'_, PyRules>,
    #[pyo3(from_py_with = arg)] players: usize,
    #[pyo3(from_py_with = arg)] samples: usize,
    #[pyo3(from_py_with = arg)] candidates: usize,
    #[pyo3(from_py_with = arg)] seed: u64,
) -> PyResult<(
    Option<&'static str>,
    (String, String, String),
    f64,
    f64,
    usize,
)> {
    let hand = hand_of(py, hand)?;
    if samples > 100_000 || candidates > 72_072 {
        return Err(rule_error(
            py,
            format!(
                "samples={samples} (max 100000) or candidates={candidates} (max 72072) too large"
            ),
        ));
    }
    let opts = SolverOptions {
        players,
        samples,
        candidates,
        seed,
    };
    let rules = rules.get().0;
    // Screening takes ~0.4 ms, each sampled opponent set ~7 us and each exact
    // candidate-opponent score ~10 ns (here 10 and 20, for margin).
    let pairs = (samples as u64).saturating_mul(players.clamp(2, 4) as u64 - 1);
    let micros = 500 + pairs * 10 + pairs * candidates as u64 / 50;
    let solution =
        interrupt::run_sized(py, micros, |cancel| cp::solve(&hand, &rules, &opts, cancel))?
            .py_err(py)?;
    Ok((
        solution.declare.map(|w| w.as_str()),
        texts(&solution.arrangement),
        solution.expected,
        solution.declare_value,
        solution.proper,
    ))
}

pub fn register(m: &Bound<'_, PyModule>, bench: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()?;
    m.add_function(wrap_pyfunction!(chinese_poker_automatic_wins, m)?)?;
    m.add_function(wrap_pyfunction!(chinese_poker_rank_set, m)?)?;
    m.add_function(wrap_pyfunction!(chinese_poker_score, m)?)?;
    m.add_function(wrap_pyfunction!(chinese_poker_sample_sets, m)?)?;
    m.add_function(wrap_pyfunction!(chinese_poker_greedy_set, m)?)?;
    m.add_function(wrap_pyfunction!(chinese_poker_random_set, m)?)?;
    m.add_function(wrap_pyfunction!(chinese_poker_solve, m)?)?;
    bench.add_function(wrap_pyfunction!(bench_chinese_poker_count_sets, bench)?)?;
    Ok(())
}
