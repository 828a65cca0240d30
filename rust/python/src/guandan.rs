//! Guandan: plays and their readings, leads, responses, comparison, the cards a
//! play takes, the fixed action index and the batch path of lead listing.

use crate::args::{arg, with_f32_exact};
use crate::cards::{extract_card, extract_cards, repr_of, PyCard};
use crate::errors::{to_py, IntoPyResult};
use crate::interrupt;
use cardkit_engine::cards::Card;
use cardkit_engine::cards::SUIT_CHARS;
use cardkit_engine::climbing::guandan::deal::{self, Deal, SEATS};
use cardkit_engine::climbing::guandan::{
    self as gd, action_index, parse_level, type_name, Hand, Play, NO_SUIT,
};
use cardkit_engine::climbing::guandan::{observe, search};
use cardkit_engine::rng::CardRng;
use cardkit_engine::{Cancel, EngineError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PySequence, PyString};

/// One reading of a Guandan play: shape, main rank, natural cards and wild stand-ins.
#[pyclass(frozen, module = "cardkit._core", name = "GuandanPlay", eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyGuandanPlay(pub Play);

#[pymethods]
impl PyGuandanPlay {
    /// The canonical action text without the verb: `"3456 W=7"`, `"3s4s5s6s7s"`.
    #[getter]
    fn text(&self) -> String {
        self.0.to_string()
    }

    /// The shape, one of the ten in docs/guandan.md.
    ///
    /// `single`, `pair`, `triple`, `full_house`, `straight`, `pair_run`, `plate`,
    /// `bomb`, `straight_flush` or `joker_bomb`.
    #[getter(r#type)]
    fn kind(&self) -> &'static str {
        type_name(self.0.kind)
    }

    /// The rank that decides it among plays of its shape (the top rank of a run).
    #[getter]
    fn main_rank(&self) -> String {
        self.0.main_rank().to_string()
    }

    /// A straight flush's suit letter (`"s"`), else None.
    #[getter]
    fn suit(&self) -> Option<String> {
        (self.0.suit != NO_SUIT).then(|| SUIT_CHARS[usize::from(self.0.suit)].to_string())
    }

    /// Number of cards.
    #[getter]
    fn size(&self) -> usize {
        self.0.size()
    }

    /// Wilds used (0, 1 or 2).
    #[getter]
    fn wilds(&self) -> usize {
        self.0.wilds()
    }

    /// The ranks each wild stands for, in reading order: `"7"`, `"A2"`, `""`.
    #[getter]
    fn stand_ins(&self) -> String {
        self.0
            .stand_ins()
            .map(|r| gd::RANK_TEXT[usize::from(r)])
            .collect()
    }

    /// The natural (non-wild) cards as rank text in reading order: `"3456"`.
    #[getter]
    fn naturals(&self) -> String {
        let text = self.0.to_string();
        let head = text.split(' ').next().unwrap_or("");
        if head.starts_with("W=") {
            return String::new();
        }
        // Straight flushes write cards: keep their ranks.
        head.chars().filter(|c| !SUIT_CHARS.contains(c)).collect()
    }

    /// True for bombs, straight flushes and the joker bomb (they beat ordinary plays).
    #[getter]
    fn is_bomb(&self) -> bool {
        self.0.is_bomb()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "GuandanPlay('{}', type='{}', main_rank='{}')",
            self.0,
            type_name(self.0.kind),
            self.0.main_rank()
        )
    }
}

fn level_of(py: Python<'_>, level: &Bound<'_, PyAny>) -> PyResult<u8> {
    let Ok(text) = level.cast::<PyString>() else {
        return Err(to_py(
            py,
            EngineError::RuleOption(format!(
                "level {} is not a rank: expected a string such as \"2\" or \"A\"",
                repr_of(level)
            )),
        ));
    };
    parse_level(&text.to_string_lossy()).py_err(py)
}

fn hand_of(hand: &Bound<'_, PyAny>) -> PyResult<Hand> {
    let cards = extract_cards(hand)?;
    Hand::from_cards(&cards).py_err(hand.py())
}

fn play_of(py: Python<'_>, obj: &Bound<'_, PyAny>, level: u8) -> PyResult<Play> {
    if let Ok(p) = obj.cast::<PyGuandanPlay>() {
        return Ok(p.get().0);
    }
    let Ok(text) = obj.cast::<PyString>() else {
        return Err(to_py(
            py,
            EngineError::IllegalAction(format!(
                "{} is not a Guandan play: expected a GuandanPlay or play text such as \"3456 W=7\"",
                repr_of(obj)
            )),
        ));
    };
    gd::parse(&text.to_string_lossy(), Some(level)).py_err(py)
}

fn wrap(plays: Vec<Play>) -> Vec<PyGuandanPlay> {
    plays.into_iter().map(PyGuandanPlay).collect()
}

/// Every legal Guandan lead of `hand` at `level` (`"2"`..`"A"`).
#[pyfunction]
fn guandan_leads(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
) -> PyResult<Vec<PyGuandanPlay>> {
    let level = level_of(py, level)?;
    let hand = hand_of(hand)?;
    Ok(wrap(gd::leads(&hand, level)))
}

/// Every play of `hand` at `level` that beats `table` (pass not included).
#[pyfunction]
fn guandan_responses(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
    table: &Bound<'_, PyAny>,
) -> PyResult<Vec<PyGuandanPlay>> {
    let level = level_of(py, level)?;
    let hand = hand_of(hand)?;
    let table = play_of(py, table, level)?;
    Ok(wrap(gd::responses(&hand, level, &table)))
}

/// The play an action text names at `level` (without `play `): `"3456 W=7"`.
///
/// Raises IllegalActionError when the text names no Guandan play.
#[pyfunction]
fn guandan_parse(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
) -> PyResult<PyGuandanPlay> {
    let level = level_of(py, level)?;
    play_of(py, text, level).map(PyGuandanPlay)
}

/// The play and cards of text naming its copies (`"5s5d"`, `"3c4d5h6s W=7"`) at `level`.
///
/// Returns `(play, cards, text)`: the rank-level play, the named natural cards and
/// the canonical text (each rank's cards in suit order, then the wild tokens); None
/// when the text names ranks or a straight flush. Raises IllegalActionError when the
/// text is neither a play nor named copies of one.
#[pyfunction]
fn guandan_parse_copies(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
) -> PyResult<Option<(PyGuandanPlay, Vec<PyCard>, String)>> {
    let level = level_of(py, level)?;
    let Ok(text) = text.cast::<PyString>() else {
        return Err(to_py(
            py,
            EngineError::IllegalAction(format!(
                "{} is not Guandan play text such as \"5s5d\"",
                repr_of(text)
            )),
        ));
    };
    let found = gd::parse_copies(&text.to_string_lossy(), Some(level)).py_err(py)?;
    Ok(found.map(|(play, cards)| {
        let text = gd::copies_text(&play, &cards);
        (
            PyGuandanPlay(play),
            cards.into_iter().map(PyCard).collect(),
            text,
        )
    }))
}

/// Whether `play` beats `table` at `level`.
#[pyfunction]
fn guandan_beats(
    py: Python<'_>,
    play: &Bound<'_, PyAny>,
    table: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let level = level_of(py, level)?;
    let play = play_of(py, play, level)?;
    let table = play_of(py, table, level)?;
    Ok(play.beats(&table, level))
}

/// The cards `play` removes from `hand` at `level`.
///
/// Those are the wilds it uses and, for ranks, the copies whose suits keep the most
/// straight-flush chances (docs/guandan.md). Raises IllegalActionError if the hand
/// lacks them.
#[pyfunction]
fn guandan_take(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
    play: &Bound<'_, PyAny>,
) -> PyResult<Vec<PyCard>> {
    let level = level_of(py, level)?;
    let hand = hand_of(hand)?;
    let play = play_of(py, play, level)?;
    let cards = gd::take(&hand, level, &play).py_err(py)?;
    Ok(cards.into_iter().map(PyCard).collect())
}

/// Strength of a card in singles at `level`, from 0 (the 2) to 15 (the red joker).
///
/// The 2 is 0 up to the ace 12, the level rank 13, the black joker 14, the red
/// joker 15.
#[pyfunction]
fn guandan_strength(
    py: Python<'_>,
    card: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
) -> PyResult<u8> {
    let level = level_of(py, level)?;
    let card = extract_card(card)?;
    Ok(gd::strength(card.rank(), level))
}

/// Size of the Guandan play index: `pass` (id 0) and every play at any level.
#[pyfunction]
fn guandan_action_space_size() -> usize {
    action_index().len()
}

/// The index id of a play's text (any level), or None if it names no play.
#[pyfunction]
fn guandan_play_id(text: &Bound<'_, PyAny>) -> Option<u32> {
    let text = text.cast::<PyString>().ok()?;
    let text = text.to_string_lossy();
    // Named copies (`5s5d`) share their rank-level play's id.
    let play = gd::parse(&text, None)
        .ok()
        .or_else(|| gd::parse_copies(&text, None).ok().flatten().map(|(p, _)| p))?;
    action_index().id(&play)
}

/// The play of index id `id` (None for pass and out of range).
#[pyfunction]
fn guandan_play_of_id(#[pyo3(from_py_with = arg)] id: i64) -> Option<PyGuandanPlay> {
    let id = u32::try_from(id).ok()?;
    action_index().play(id).copied().map(PyGuandanPlay)
}

/// The most hands one batch call takes: each lists at most a few thousand leads.
const MAX_BATCH_HANDS: usize = 1 << 20;
/// The most bytes of ids one batch call lists (the leads of some 800,000 wild hands).
const MAX_BATCH_BYTES: usize = 1 << 30;

/// Every legal lead of each hand at `level`, as index ids in two byte buffers.
///
/// `(ids, ends)` hold little-endian `u16` ids and `u64` ends (hand `i`'s ids are
/// `ids[ends[i]..ends[i + 1]]`), built without the GIL; stops on Ctrl-C.
#[pyfunction]
fn guandan_lead_ids_batch(
    py: Python<'_>,
    hands: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
) -> PyResult<(Py<PyBytes>, Py<PyBytes>)> {
    let level = level_of(py, level)?;
    let list = hands.cast::<PyList>().map_err(|_| {
        to_py(
            py,
            EngineError::InvalidCard(format!("hands {} must be a list of hands", repr_of(hands))),
        )
    })?;
    if list.len() > MAX_BATCH_HANDS {
        return Err(to_py(
            py,
            EngineError::RuleOption(format!(
                "{} hands is more than one batch takes ({MAX_BATCH_HANDS})",
                list.len()
            )),
        ));
    }
    let jobs = list
        .iter()
        .map(|h| hand_of(&h))
        .collect::<PyResult<Vec<Hand>>>()?;
    // A 27-card hand lists its leads in some ten microseconds.
    let micros = 20 * jobs.len() as u64;
    let (ids, ends) = interrupt::run_sized(py, micros, |cancel: &Cancel| {
        let mut ids: Vec<u16> = Vec::with_capacity(jobs.len().min(1 << 16) * 256);
        let mut ends: Vec<u64> = Vec::with_capacity(jobs.len() + 1);
        ends.push(0);
        let mut plays = Vec::with_capacity(1024);
        for hand in &jobs {
            cancel.check()?;
            gd::move_ids_into(hand, level, None, &mut plays, &mut ids);
            if 2 * ids.len() > MAX_BATCH_BYTES {
                // Past this an allocation could fail, which aborts instead of raising.
                return Err(EngineError::RuleOption(format!(
                    "the batch lists more than {MAX_BATCH_BYTES} bytes of ids: pass fewer hands"
                )));
            }
            ends.push(ids.len() as u64);
        }
        Ok::<_, EngineError>((ids, ends))
    })?
    .py_err(py)?;
    Ok((le_bytes(py, &ids)?, le_bytes(py, &ends)?))
}

/// `values` as little-endian bytes, written straight into a Python `bytes`.
fn le_bytes<T: Copy + LeBytes>(py: Python<'_>, values: &[T]) -> PyResult<Py<PyBytes>> {
    let bytes = PyBytes::new_with(py, T::SIZE * values.len(), |buf| {
        for (slot, v) in buf.chunks_exact_mut(T::SIZE).zip(values) {
            v.write_le(slot);
        }
        Ok(())
    })?;
    Ok(bytes.unbind())
}

/// Integers written little-endian into a byte slot of their size.
trait LeBytes {
    const SIZE: usize;
    fn write_le(&self, slot: &mut [u8]);
}

impl LeBytes for u16 {
    const SIZE: usize = 2;
    fn write_le(&self, slot: &mut [u8]) {
        slot.copy_from_slice(&self.to_le_bytes());
    }
}

impl LeBytes for u64 {
    const SIZE: usize = 8;
    fn write_le(&self, slot: &mut [u8]) {
        slot.copy_from_slice(&self.to_le_bytes());
    }
}

/// The card play of one Guandan deal: turns, table, passes, jiefeng and places.
///
/// Seats 0-3 act in seat order, partners opposite; `None` is a pass. The Python
/// game keeps tribute, levels and the match (docs/guandan.md).
#[pyclass(module = "cardkit._core", name = "GuandanDeal")]
#[derive(Clone)]
pub struct PyGuandanDeal(Deal);

fn seat_of(py: Python<'_>, seat: i64) -> PyResult<usize> {
    usize::try_from(seat)
        .ok()
        .filter(|&s| s < SEATS)
        .ok_or_else(|| {
            to_py(
                py,
                EngineError::IllegalAction(format!("seat {seat} is not a seat: seats are 0-3")),
            )
        })
}

/// Four hands from a list or tuple of four (a string is no sequence of hands).
fn four_hands(py: Python<'_>, hands: &Bound<'_, PyAny>) -> PyResult<[Hand; SEATS]> {
    let seq = hands
        .cast::<PySequence>()
        .ok()
        .filter(|s| !hands.is_instance_of::<PyString>() && s.len().ok() == Some(SEATS));
    let Some(seq) = seq else {
        return Err(to_py(
            py,
            EngineError::InvalidCard(format!(
                "hands {} must be a list of four hands",
                repr_of(hands)
            )),
        ));
    };
    let mut out = [Hand {
        counts: [0; cardkit_engine::cards::NUM_CARDS],
    }; SEATS];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = hand_of(&seq.get_item(i)?)?;
    }
    Ok(out)
}

#[pymethods]
impl PyGuandanDeal {
    #[new]
    #[pyo3(signature = (hands, level, leader, double_win_ends = false))]
    fn new(
        py: Python<'_>,
        hands: &Bound<'_, PyAny>,
        level: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = arg)] leader: i64,
        #[pyo3(from_py_with = arg)] double_win_ends: bool,
    ) -> PyResult<Self> {
        let level = level_of(py, level)?;
        let leader = seat_of(py, leader)? as u8;
        let out = four_hands(py, hands)?;
        Deal::new(out, level, leader, double_win_ends)
            .py_err(py)
            .map(PyGuandanDeal)
    }

    /// `(name, length)` of each slice of the observation tensor, in order
    /// (docs/guandan.md): the layout `write_observation` writes into.
    #[classattr]
    #[allow(non_snake_case)]
    fn OBSERVATION_LAYOUT() -> Vec<(&'static str, usize)> {
        observe::LAYOUT.to_vec()
    }

    /// Write the card-play part of `seat`'s observation tensor into `out`.
    ///
    /// `out` is a float32 array of zeros holding the whole tensor; the own hand,
    /// the cards each seat played, card counts, the table, the level, the turn and
    /// the places are written, the match slices left to the caller. A deal made by
    /// `resume` knows only the plays made since.
    fn write_observation(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] seat: i64,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let seat = seat_of(py, seat)?;
        with_f32_exact(out, observe::OBSERVATION_LEN, |slice| {
            observe::write_card_play(&self.0, seat, slice);
        })
    }

    /// The seat to act, or None once the deal is over.
    #[getter]
    fn to_move(&self) -> Option<u8> {
        self.0.to_move()
    }

    /// The play to beat, or None when the seat to act leads.
    #[getter]
    fn table(&self) -> Option<PyGuandanPlay> {
        self.0.table().copied().map(PyGuandanPlay)
    }

    /// The seat that played the table (the last player).
    #[getter]
    fn table_owner(&self) -> u8 {
        self.0.owner()
    }

    /// Passes since the table was played.
    #[getter]
    fn passes(&self) -> u8 {
        self.0.passes()
    }

    /// Seats in finishing order (all four once the deal is over).
    #[getter]
    fn places(&self) -> Vec<usize> {
        self.0.places().iter().map(|&s| usize::from(s)).collect()
    }

    /// True once the places are settled.
    #[getter]
    fn over(&self) -> bool {
        self.0.is_over()
    }

    /// Every seat's card count.
    #[getter]
    fn card_counts(&self) -> Vec<usize> {
        (0..SEATS).map(|s| self.0.hand(s).len()).collect()
    }

    /// The cards of `seat`'s hand, in card order.
    fn hand(&self, py: Python<'_>, #[pyo3(from_py_with = arg)] seat: i64) -> PyResult<Vec<PyCard>> {
        let seat = seat_of(py, seat)?;
        Ok(self.0.hand(seat).cards().into_iter().map(PyCard).collect())
    }

    /// The legal moves of the seat to act: None (pass, first when following), then plays.
    fn legal(&self) -> Vec<Option<PyGuandanPlay>> {
        self.0
            .legal()
            .into_iter()
            .map(|m| m.map(PyGuandanPlay))
            .collect()
    }

    /// The legal moves of the seat to act as action-index ids: 0 (pass) first when following.
    fn legal_ids(&self) -> Vec<u32> {
        let mut ids = Vec::new();
        self.0.legal_ids(&mut ids);
        ids
    }

    /// Apply the move of action-index id `id` (0: pass); returns the cards taken.
    ///
    /// Raises IllegalActionError (nothing changes) when the move is illegal.
    fn apply_id(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] id: u32,
    ) -> PyResult<Vec<PyCard>> {
        let cards = self.0.apply_id(id).py_err(py)?;
        Ok(cards.into_iter().map(PyCard).collect())
    }

    /// Apply a play (a GuandanPlay or its text) or None (pass); returns the cards taken.
    ///
    /// Raises IllegalActionError (nothing changes) when the move is illegal.
    fn apply(
        &mut self,
        py: Python<'_>,
        action: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyCard>> {
        let play = match action {
            None => None,
            Some(obj) => Some(play_of(py, obj, self.0.level())?),
        };
        let cards = self.0.apply(play.as_ref()).py_err(py)?;
        Ok(cards.into_iter().map(PyCard).collect())
    }

    /// Apply `play` taking the named copies `cards`; returns the cards taken.
    ///
    /// `cards` are the play's natural cards (see guandan_parse_copies); its wilds
    /// are added. Raises IllegalActionError (nothing changes) when the play is illegal
    /// or the cards are not its naturals or not held.
    fn apply_copies(
        &mut self,
        py: Python<'_>,
        play: &Bound<'_, PyAny>,
        cards: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<PyCard>> {
        let play = play_of(py, play, self.0.level())?;
        let cards = extract_cards(cards)?;
        let taken = self.0.apply_copies(&play, &cards).py_err(py)?;
        Ok(taken.into_iter().map(PyCard).collect())
    }

    /// A position in the middle of a deal, for agents and states set up mid-deal.
    ///
    /// `to_move` acts; `table` (a play or its text, played by `owner` and followed by
    /// `passes` passes) is the play to beat; `places` are the seats out so far.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (hands, level, to_move, table, owner, passes, places, double_win_ends = false))]
    fn resume(
        py: Python<'_>,
        hands: &Bound<'_, PyAny>,
        level: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = arg)] to_move: i64,
        table: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = arg)] owner: i64,
        #[pyo3(from_py_with = arg)] passes: u8,
        #[pyo3(from_py_with = arg)] places: Vec<i64>,
        #[pyo3(from_py_with = arg)] double_win_ends: bool,
    ) -> PyResult<Self> {
        let level = level_of(py, level)?;
        let hands = four_hands(py, hands)?;
        let table = table.map(|t| play_of(py, t, level)).transpose()?;
        let places = places
            .into_iter()
            .map(|s| seat_of(py, s).map(|s| s as u8))
            .collect::<PyResult<Vec<u8>>>()?;
        Deal::resume(
            hands,
            level,
            seat_of(py, to_move)? as u8,
            table,
            seat_of(py, owner)? as u8,
            passes,
            &places,
            double_win_ends,
        )
        .py_err(py)
        .map(PyGuandanDeal)
    }

    /// The rule policy's move for the seat to act (None: pass).
    fn rule_move(&self) -> Option<PyGuandanPlay> {
        search::rule_move(&self.0).map(PyGuandanPlay)
    }

    /// Determinized search for the seat to act over `samples` deals of hidden cards.
    ///
    /// The other seats' hands here only give the pool of hidden cards and the counts.
    fn search_move(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] samples: u32,
        #[pyo3(from_py_with = arg)] seed: u64,
    ) -> PyResult<Option<PyGuandanPlay>> {
        let mut rng = CardRng::new(seed);
        let Some(seat) = self.0.to_move() else {
            return Ok(None);
        };
        let unknown: Vec<Card> = (0..SEATS)
            .filter(|&s| s != usize::from(seat))
            .flat_map(|s| self.0.hand(s).cards())
            .collect();
        // A rule playout of a whole deal takes some 100 us.
        let micros = search::search_playouts(&self.0, samples).saturating_mul(100);
        let deal = &self.0;
        let found = interrupt::run_sized(py, micros, |cancel| {
            search::search_move(deal, &unknown, samples, &mut rng, cancel)
        })?
        .py_err(py)?;
        Ok(found.map(PyGuandanPlay))
    }

    /// An independent copy.
    fn copy(&self) -> PyGuandanDeal {
        self.clone()
    }

    /// Play to the end with uniformly random legal moves from `seed`; returns the places.
    fn random_playout(&mut self, #[pyo3(from_py_with = arg)] seed: u64) -> Vec<usize> {
        let mut rng = CardRng::new(seed);
        self.0.random_playout(&mut rng);
        self.places()
    }
}

/// Random Guandan deals played out in Rust (bench only); returns the moves made.
#[pyfunction]
fn bench_guandan_random_playouts(
    py: Python<'_>,
    games: u64,
    seed: u64,
    level: &Bound<'_, PyAny>,
) -> PyResult<u64> {
    let level = level_of(py, level)?;
    // A random deal takes well under a millisecond.
    let micros = games.saturating_mul(1000);
    interrupt::run_sized(py, micros, |cancel| {
        deal::random_playouts(games, seed, level, cancel)
    })?
    .py_err(py)
}

pub fn register(m: &Bound<'_, PyModule>, bench: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGuandanPlay>()?;
    m.add_class::<PyGuandanDeal>()?;
    bench.add_function(wrap_pyfunction!(bench_guandan_random_playouts, bench)?)?;
    m.add_function(wrap_pyfunction!(guandan_leads, m)?)?;
    m.add_function(wrap_pyfunction!(guandan_responses, m)?)?;
    m.add_function(wrap_pyfunction!(guandan_parse, m)?)?;
    m.add_function(wrap_pyfunction!(guandan_parse_copies, m)?)?;
    m.add_function(wrap_pyfunction!(guandan_beats, m)?)?;
    m.add_function(wrap_pyfunction!(guandan_take, m)?)?;
    m.add_function(wrap_pyfunction!(guandan_strength, m)?)?;
    m.add_function(wrap_pyfunction!(guandan_action_space_size, m)?)?;
    m.add_function(wrap_pyfunction!(guandan_play_id, m)?)?;
    m.add_function(wrap_pyfunction!(guandan_play_of_id, m)?)?;
    m.add_function(wrap_pyfunction!(guandan_lead_ids_batch, m)?)?;
    Ok(())
}
