//! `BettingCore`: the no-limit betting core of one hand (`cardkit_engine::betting`),
//! which Texas Hold'em and One Poker drive move by move.
//!
//! Per-move calls pass small integers (seats, chip counts, listed-action codes)
//! so a Python game loop pays one cheap call per move.

use crate::args::{arg, with_f32_out};
use crate::cards::repr_of;
use crate::errors::{to_py, IntoPyResult};
use cardkit_engine::betting::{Betting, Move, PotResult, MAX_CHIPS};
use cardkit_engine::cards::Card;
use cardkit_engine::holdem::{write_observation, HoldemView};
use cardkit_engine::EngineError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyTuple};

/// An int in `0..=high` (bools refused), else a `RuleOptionError` naming `what`.
fn bounded(obj: &Bound<'_, PyAny>, what: &str, high: u64) -> PyResult<u64> {
    let is_int = obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>();
    match obj.extract::<u64>() {
        Ok(v) if is_int && v <= high => Ok(v),
        _ => Err(to_py(
            obj.py(),
            EngineError::RuleOption(format!(
                "{what} must be an int in 0..{high}, got {}",
                repr_of(obj)
            )),
        )),
    }
}

/// A list of ints in `0..=high`; `item` names an entry in errors (`"stacks[i]"`).
fn int_list(obj: &Bound<'_, PyAny>, what: &str, item: &str, high: u64) -> PyResult<Vec<u64>> {
    let py = obj.py();
    let items = obj.try_iter().map_err(|_| {
        to_py(
            py,
            EngineError::RuleOption(format!(
                "{what} must be a list of ints, got {}",
                repr_of(obj)
            )),
        )
    })?;
    items.map(|entry| bounded(&entry?, item, high)).collect()
}

type PotRow = (u64, Vec<usize>, Vec<usize>, Vec<(usize, u64)>);

fn pot_row(r: PotResult) -> PotRow {
    (r.amount, r.eligible, r.winners, r.shares)
}

/// The chips and turn order of one no-limit hand, for Hold'em and One Poker.
///
/// `cardkit.games._betting` holds the action words and codes the games send it.
///
/// Listed actions are integer codes: -1 fold, -2 check, -3 call, `2*N` for
/// `bet N` and `2*N + 1` for `raise N` (N is the seat's total for the round).
#[pyclass(module = "cardkit._core", name = "BettingCore")]
#[derive(Clone)]
pub struct PyBettingCore {
    inner: Betting,
}

impl PyBettingCore {
    /// A seat of this table: an int below the real number of seats (checked by the
    /// engine too, so no table size can let a seat index past the end).
    /// `what` names the parameter in errors.
    fn seat(&self, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
        let last = self.inner.seats().saturating_sub(1) as u64;
        let seat = bounded(obj, what, last)? as usize;
        self.inner.check_seat(seat).py_err(obj.py())
    }
}

#[pymethods]
impl PyBettingCore {
    /// A hand where seat `s` brings `stacks[s]` chips (2 to 12 seats); seats with
    /// `in_hand[s]` false sit out. `min_bet` is the minimum opening bet (the big
    /// blind in Hold'em).
    #[new]
    fn py_new(
        py: Python<'_>,
        stacks: &Bound<'_, PyAny>,
        in_hand: &Bound<'_, PyAny>,
        min_bet: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let stacks = int_list(stacks, "stacks", "stacks[i]", MAX_CHIPS)?;
        let in_hand: Vec<bool> = in_hand.extract().map_err(|_| {
            to_py(
                py,
                EngineError::RuleOption(format!(
                    "in_hand must be a list of bools, got {}",
                    repr_of(in_hand)
                )),
            )
        })?;
        let min_bet = bounded(min_bet, "min_bet", MAX_CHIPS)?;
        Ok(PyBettingCore {
            inner: Betting::new(stacks, &in_hand, min_bet).py_err(py)?,
        })
    }

    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The number of seats.
    #[getter]
    fn n(&self) -> usize {
        self.inner.seats()
    }

    /// Each seat's chips behind.
    #[getter]
    fn stacks(&self) -> Vec<u64> {
        self.inner.stacks.clone()
    }

    /// Each seat's bet in the current round.
    #[getter]
    fn bets(&self) -> Vec<u64> {
        self.inner.bets.clone()
    }

    /// Everything each seat put in this hand.
    #[getter]
    fn committed(&self) -> Vec<u64> {
        self.inner.committed.clone()
    }

    /// Whether each seat folded (or sits out).
    #[getter]
    fn folded(&self) -> Vec<bool> {
        self.inner.folded.clone()
    }

    /// Uncalled chips handed back to each seat this hand.
    #[getter]
    fn returned(&self) -> Vec<u64> {
        self.inner.returned.clone()
    }

    /// The minimum opening bet.
    #[getter]
    fn min_bet(&self) -> u64 {
        self.inner.min_bet
    }

    /// The round's highest bet.
    #[getter]
    fn current_bet(&self) -> u64 {
        self.inner.current_bet
    }

    /// The increment a raise must at least add.
    #[getter]
    fn full_raise(&self) -> u64 {
        self.inner.full_raise
    }

    /// The seat to act, or `None` when the round is closed.
    #[getter]
    fn to_act(&self) -> Option<usize> {
        self.inner.to_act
    }

    /// Every chip put in this hand so far, current bets included.
    #[getter]
    fn pot(&self) -> u64 {
        self.inner.pot()
    }

    /// Seats still contesting the hand.
    fn live(&self) -> Vec<usize> {
        self.inner.live()
    }

    /// How many seats are still contesting the hand.
    fn live_count(&self) -> usize {
        self.inner.folded.iter().filter(|&&f| !f).count()
    }

    /// Whether `seat` is in the hand with chips behind.
    fn can_bet(&self, seat: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.can_bet(self.seat(seat, "seat")?))
    }

    /// Whether a further round could see any betting.
    fn betting_possible(&self) -> bool {
        self.inner.betting_possible()
    }

    /// Chips `seat` must add to call (capped at its stack).
    fn to_call(&self, seat: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.inner.to_call(self.seat(seat, "seat")?))
    }

    /// The legal (min, max) total of a bet or raise by `seat`, or `None`.
    fn raise_range(&self, seat: &Bound<'_, PyAny>) -> PyResult<Option<(u64, u64)>> {
        Ok(self.inner.raise_range(self.seat(seat, "seat")?))
    }

    /// Whether `seat` may bet or raise now.
    fn can_raise(&self, seat: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.raise_range(self.seat(seat, "seat")?).is_some())
    }

    /// Post a blind (a live bet, the whole stack if shorter); returns the chips paid.
    fn post_blind(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        amount: &Bound<'_, PyAny>,
    ) -> PyResult<u64> {
        let seat = self.seat(seat, "seat")?;
        let amount = bounded(amount, "amount", MAX_CHIPS)?;
        self.inner.post_blind(seat, amount).py_err(py)
    }

    /// Post an ante (dead chips); returns the chips paid.
    fn post_ante(
        &mut self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        amount: &Bound<'_, PyAny>,
    ) -> PyResult<u64> {
        let seat = self.seat(seat, "seat")?;
        let amount = bounded(amount, "amount", MAX_CHIPS)?;
        self.inner.post_ante(seat, amount).py_err(py)
    }

    /// Open a betting round from `first` clockwise; returns the seat to act.
    ///
    /// `None` when nobody has a decision to make.
    fn start_round(&mut self, py: Python<'_>, first: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let first = self.seat(first, "first (a seat)")?;
        self.inner.start_round(first).py_err(py)
    }

    /// Close the round; returns the uncalled chips handed back.
    fn end_round(&mut self) -> u64 {
        self.inner.end_round()
    }

    /// Why the canonical betting action `text` is illegal for the seat to act, or `None`.
    fn illegal_reason(&self, #[pyo3(from_py_with = arg)] text: &str) -> Option<String> {
        match Move::parse(text) {
            Some(mv) => self.inner.illegal_reason(mv),
            None => Some(format!("{text:?} is not a betting action")),
        }
    }

    /// Play the canonical betting action `text`; returns the next seat to act.
    ///
    /// An illegal action raises `IllegalActionError` and changes nothing.
    fn apply(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] text: &str,
    ) -> PyResult<Option<usize>> {
        let mv = Move::parse(text).ok_or_else(|| {
            to_py(
                py,
                EngineError::IllegalAction(format!("{text:?} is not a betting action")),
            )
        })?;
        self.inner.apply(mv).py_err(py)?;
        Ok(self.inner.to_act)
    }

    /// Play the action with listed code `code`; returns the next seat to act.
    ///
    /// An illegal code raises `IllegalActionError` and changes nothing.
    fn act(&mut self, py: Python<'_>, code: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let mv = code
            .extract::<i64>()
            .ok()
            .filter(|_| !code.is_instance_of::<PyBool>())
            .and_then(Move::from_code)
            .ok_or_else(|| {
                to_py(
                    py,
                    EngineError::IllegalAction(format!(
                        "{} is not a betting action code",
                        repr_of(code)
                    )),
                )
            })?;
        self.inner.apply(mv).py_err(py)?;
        Ok(self.inner.to_act)
    }

    /// The codes of the seat to act's listed actions.
    ///
    /// Fold/check/call, the minimum bet or raise, the given fractions of the pot and
    /// all-in.
    fn listed<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = arg)] pot_fractions: Vec<f64>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.listed(&pot_fractions))
    }

    /// `(move number, seat)` for every seat passed over this hand after that move.
    ///
    /// A seat is passed over when it owes nothing and cannot raise; moves count from 1.
    #[getter]
    fn idle_turns(&self) -> Vec<(usize, usize)> {
        self.inner.idle_turns.clone()
    }

    /// Moves applied so far this hand.
    #[getter]
    fn moves(&self) -> usize {
        self.inner.moves
    }

    /// Close the round and return how many seats still contest the hand.
    ///
    /// Uncalled chips go back and the bets clear.
    fn close_round(&mut self) -> usize {
        self.inner.end_round();
        self.inner.folded.iter().filter(|&&f| !f).count()
    }

    /// Open the next round from `first` if betting is possible; returns the seat to act.
    ///
    /// `None` when the board should run out.
    fn next_round(&mut self, py: Python<'_>, first: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let first = self.seat(first, "first (a seat)")?;
        if !self.inner.betting_possible() {
            return Ok(None);
        }
        self.inner.start_round(first).py_err(py)
    }

    /// The main pot then the side pots: `(amount, eligible seats)`.
    fn pots(&self) -> Vec<(u64, Vec<usize>)> {
        self.inner
            .pots()
            .into_iter()
            .map(|p| (p.amount, p.eligible))
            .collect()
    }

    /// Settle every pot; returns per pot `(amount, eligible, winners, [(seat, chips)])`.
    ///
    /// The eligible seats with the highest `strength` (one per seat) win, odd chips
    /// clockwise from `first`.
    fn award(
        &mut self,
        py: Python<'_>,
        strength: &Bound<'_, PyAny>,
        first: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<PotRow>> {
        let strength: Vec<u32> =
            int_list(strength, "strength", "strength[i]", u64::from(u32::MAX))?
                .into_iter()
                .map(|v| v as u32)
                .collect();
        let first = self.seat(first, "first (a seat)")?;
        let results = self.inner.award(&strength, first).py_err(py)?;
        Ok(results.into_iter().map(pot_row).collect())
    }

    /// Write `seat`'s Hold'em observation tensor into the float32 array `out`.
    ///
    /// The cards are indices of the 52-card pack: `holes` per seat (`None` for a
    /// seat dealt out; only `seat`'s own cards are read), `board` in deal order;
    /// `total` is every chip at the table; `street_actions` holds `(seat, row)` of
    /// this street's checks (row 10), calls (11), bets and raises (12). The layout
    /// is in docs/holdem.md.
    #[pyo3(signature = (out, seat, total, holes, board, button, small_blind, big_blind, to_act, street_actions))]
    #[allow(clippy::too_many_arguments)]
    fn write_observation(
        &self,
        py: Python<'_>,
        out: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = arg)] seat: usize,
        #[pyo3(from_py_with = arg)] total: u64,
        #[pyo3(from_py_with = arg)] holes: Vec<Option<(u32, u32)>>,
        #[pyo3(from_py_with = arg)] board: Vec<u32>,
        #[pyo3(from_py_with = arg)] button: usize,
        #[pyo3(from_py_with = arg)] small_blind: usize,
        #[pyo3(from_py_with = arg)] big_blind: usize,
        #[pyo3(from_py_with = arg)] to_act: Option<usize>,
        #[pyo3(from_py_with = arg)] street_actions: Vec<(usize, usize)>,
    ) -> PyResult<()> {
        let bad = |what: String| to_py(py, EngineError::RuleOption(what));
        let card = |i: u32| {
            if i < 52 {
                Card::from_index(i).py_err(py)
            } else {
                Err(bad(format!("card index {i} is outside the 52-card pack")))
            }
        };
        let holes = holes
            .into_iter()
            .map(|h| h.map(|(a, b)| Ok([card(a)?, card(b)?])).transpose())
            .collect::<PyResult<Vec<_>>>()?;
        let board = board.into_iter().map(card).collect::<PyResult<Vec<_>>>()?;
        let view = HoldemView {
            betting: &self.inner,
            total: total as f64,
            holes: &holes,
            board: &board,
            button,
            small_blind,
            big_blind,
            to_act,
            street_actions: &street_actions,
        };
        with_f32_out(out, |values| {
            write_observation(&view, seat, values).py_err(py)
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "BettingCore(stacks={:?}, bets={:?}, to_act={:?})",
            self.inner.stacks, self.inner.bets, self.inner.to_act
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBettingCore>()?;
    Ok(())
}
