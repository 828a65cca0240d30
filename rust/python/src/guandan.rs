//! Guandan: plays and their readings, leads, responses, comparison, the cards a
//! play takes, the fixed action index and the batch path of lead listing.

use crate::args::{arg, named, with_f32_exact, Callable};
use crate::cards::{extract_card, extract_cards, repr_of, PyCard};
use crate::errors::{invalid_argument, to_py, IntoPyResult};
use crate::interrupt;
use crate::listing::Listed;
use cardkit_engine::cards::Card;
use cardkit_engine::cards::SUIT_CHARS;
use cardkit_engine::climbing::guandan::deal::{self, Deal, SEATS};
use cardkit_engine::climbing::guandan::{
    self as gd, action_index, parse_level, type_name, Hand, Play, NO_SUIT,
};
use cardkit_engine::climbing::guandan::{endgame, observe, search};
use cardkit_engine::rng::CardRng;
use cardkit_engine::{Cancel, EngineError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PySequence, PyString, PyTuple};
use pyo3::{PyTraverseError, PyVisit};
use std::sync::OnceLock;

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

/// The hand `hand`; a bad card or a card held too often is an error naming `parameter`.
fn hand_of(parameter: &str, hand: &Bound<'_, PyAny>) -> PyResult<Hand> {
    let py = hand.py();
    named(
        py,
        parameter,
        extract_cards(hand).and_then(|cards| Hand::from_cards(&cards).py_err(py)),
    )
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
    let hand = hand_of("hand", hand)?;
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
    let hand = hand_of("hand", hand)?;
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
    let hand = hand_of("hand", hand)?;
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
    let card = named(py, "card", extract_card(card))?;
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
        .map(|h| hand_of("hands", &h))
        .collect::<PyResult<Vec<Hand>>>()?;
    // A 27-card hand lists its leads in some ten microseconds.
    let micros = 20 * jobs.len() as u64;
    let (ids, ends) = interrupt::run_sized(py, micros, |cancel: &Cancel| {
        // A 27-card hand with both wilds lists some 600 leads: room for that many
        // spares the copies of a growing buffer (pages are only touched when used).
        let mut ids: Vec<u16> = Vec::with_capacity(jobs.len().min(1 << 16) * 640);
        let mut ends: Vec<u64> = Vec::with_capacity(jobs.len() + 1);
        ends.push(0);
        for hand in &jobs {
            cancel.check()?;
            gd::move_ids_into(hand, level, None, &mut ids);
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

/// What the table keeps of one play id: its action, shape and main rank.
struct Entry {
    action: Py<PyAny>,
    kind: Py<PyString>,
    main_rank: Py<PyString>,
}

/// The shared action objects of Guandan's card play: pass and one per play id.
///
/// `make(text)` makes the action of a play from its canonical text (without
/// `play `) the first time a deal lists or plays it; every deal given the table then
/// hands out that object, so listing a turn builds no strings and no objects. The
/// table holds at most one entry per id of the finite play index.
#[pyclass(frozen, module = "cardkit._core", name = "GuandanActions")]
pub struct PyGuandanActions {
    make: Py<PyAny>,
    pass: Py<PyAny>,
    plays: Box<[OnceLock<Entry>]>,
}

impl PyGuandanActions {
    /// The entry of play id `id` (1..), made on first use. `make` runs without any
    /// lock held; when threads race, the first entry kept is the one handed out.
    fn entry(&self, py: Python<'_>, id: u32) -> PyResult<&Entry> {
        let slot = self.plays.get(id as usize).ok_or_else(|| {
            to_py(
                py,
                EngineError::IllegalAction(format!("{id} is not a Guandan play id")),
            )
        })?;
        if let Some(entry) = slot.get() {
            return Ok(entry);
        }
        let play = action_index().play(id).copied().ok_or_else(|| {
            to_py(
                py,
                EngineError::IllegalAction(format!("{id} is not a Guandan play id")),
            )
        })?;
        let made = Entry {
            action: self.make.bind(py).call1((play.to_string(),))?.unbind(),
            kind: PyString::intern(py, type_name(play.kind)).unbind(),
            main_rank: PyString::new(py, &play.main_rank().to_string()).unbind(),
        };
        Ok(slot.get_or_init(|| made))
    }

    /// The action of id `id` (0: pass).
    fn object(&self, py: Python<'_>, id: u32) -> PyResult<Py<PyAny>> {
        if id == 0 {
            return Ok(self.pass.clone_ref(py));
        }
        Ok(self.entry(py, id)?.action.clone_ref(py))
    }
}

#[pymethods]
impl PyGuandanActions {
    /// `make(text)` returns the action of a play's canonical text; `pass_action` is the pass.
    #[new]
    fn new(#[pyo3(from_py_with = arg)] make: Callable, pass_action: Py<PyAny>) -> Self {
        PyGuandanActions {
            make: make.0,
            pass: pass_action,
            plays: (0..action_index().len()).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The shared action of play-index id `id` (0: pass).
    ///
    /// Raises IllegalActionError when `id` is no id of the play index.
    fn action(&self, py: Python<'_>, #[pyo3(from_py_with = arg)] id: u32) -> PyResult<Py<PyAny>> {
        self.object(py, id)
    }

    /// How many play actions have been made so far.
    fn __len__(&self) -> usize {
        self.plays.iter().filter(|e| e.get().is_some()).count()
    }
}

/// The Python lists a state keeps its move log in, which `apply_logged` appends to:
/// the state's history, this deal's plays and the cards each seat played.
struct Log {
    history: Py<PyList>,
    plays: Py<PyList>,
    played: [Py<PyList>; SEATS],
}

/// A move made on the deal, as the log records it: the action object, the seat,
/// the cards taken and, for a play, its type and main rank.
struct Made<'py> {
    action: Bound<'py, PyAny>,
    seat: u8,
    cards: Vec<Card>,
    play: Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>,
}

/// The card play of one Guandan deal: turns, table, passes, jiefeng and places.
///
/// Seats 0-3 act in seat order, partners opposite; `None` is a pass. The Python
/// game keeps tribute, levels and the match (docs/guandan.md).
#[pyclass(module = "cardkit._core", name = "GuandanDeal")]
pub struct PyGuandanDeal {
    deal: Deal,
    /// The shared action table of `legal_actions` and `apply_action`, if given.
    actions: Option<Py<PyGuandanActions>>,
    /// The turn's listing, once `legal_actions` or `apply_action` made it.
    listed: Option<Listed>,
    /// The last listing's id buffer, emptied, for the next turn's: most turns list a
    /// few ids, and a new buffer would cost more to grow than to fill.
    spare_ids: Vec<u32>,
    /// The lists `apply_logged` appends to, once `attach_log` gave them.
    log: Option<Log>,
    /// `(leader, finished player)` when the last move was a pass that ended the
    /// round of a finished player (jiefeng), else `None`.
    jiefeng: Option<(u8, u8)>,
}

impl PyGuandanDeal {
    fn of(deal: Deal, actions: Option<Py<PyGuandanActions>>) -> Self {
        PyGuandanDeal {
            deal,
            actions,
            listed: None,
            spare_ids: Vec::new(),
            log: None,
            jiefeng: None,
        }
    }

    /// Make a move with `apply` (an engine method, which changes nothing when it
    /// fails): the turn's listing is dropped and the jiefeng of the move noted.
    fn step(
        &mut self,
        py: Python<'_>,
        apply: impl FnOnce(&mut Deal) -> Result<Vec<Card>, EngineError>,
    ) -> PyResult<Vec<Card>> {
        let owner = self.deal.owner();
        let cards = apply(&mut self.deal).py_err(py)?;
        if let Some(Listed { mut ids, .. }) = self.listed.take() {
            ids.clear();
            self.spare_ids = ids;
        }
        // A pass (every play takes cards) that ended the round cleared the table;
        // if the table's player has finished, someone else leads for it.
        let round_over = cards.is_empty() && self.deal.table().is_none();
        self.jiefeng = (round_over && self.deal.finished(owner))
            .then(|| self.deal.to_move().map(|leader| (leader, owner)))
            .flatten();
        Ok(cards)
    }

    /// The listed move `action` names, made: its listed object, type and main rank.
    fn make_listed<'py>(&mut self, py: Python<'py>, id: u32) -> PyResult<Made<'py>> {
        let seat = self.deal.to_move().unwrap_or_default();
        let table = self.action_table(py)?;
        let (action, play) = if id == 0 {
            (table.pass.bind(py).clone(), None)
        } else {
            let entry = table.entry(py, id)?;
            (
                entry.action.bind(py).clone(),
                Some((
                    entry.kind.bind(py).clone().into_any(),
                    entry.main_rank.bind(py).clone().into_any(),
                )),
            )
        };
        let cards = self.step(py, |deal| deal.apply_id(id))?;
        Ok(Made {
            action,
            seat,
            cards,
            play,
        })
    }

    /// The move of `text` naming the copies of a listed play (`play 5s5d`, the
    /// canonical text of `guandan_parse_copies`), made; `None`, changing nothing,
    /// when it names no such legal move.
    fn make_copies<'py>(
        &mut self,
        py: Python<'py>,
        text: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Made<'py>>> {
        let Ok(text) = text.cast::<PyString>() else {
            return Ok(None);
        };
        let text = text.to_string_lossy();
        let Some(rest) = text.strip_prefix("play ") else {
            return Ok(None);
        };
        let Ok(Some((play, naturals))) = gd::parse_copies(rest, Some(self.deal.level())) else {
            return Ok(None);
        };
        let listed = self.listing(py)?;
        let legal = action_index()
            .id(&play)
            .is_some_and(|id| listed.ids.contains(&id));
        if !legal || gd::copies_text(&play, &naturals) != rest {
            return Ok(None);
        }
        let seat = self.deal.to_move().unwrap_or_default();
        let action = self.action_table(py)?.make.bind(py).call1((rest,))?;
        let kind = PyString::intern(py, type_name(play.kind)).into_any();
        let main_rank = PyString::new(py, &play.main_rank().to_string()).into_any();
        match self.step(py, |deal| deal.apply_copies(&play, &naturals)) {
            Ok(cards) => Ok(Some(Made {
                action,
                seat,
                cards,
                play: Some((kind, main_rank)),
            })),
            // Named copies the hand does not hold: the caller explains why.
            Err(_) => Ok(None),
        }
    }

    /// Append `made` to the attached log.
    fn record(&self, py: Python<'_>, made: Made<'_>) -> PyResult<()> {
        let log = self.log_lists(py)?;
        log.history.bind(py).append(&made.action)?;
        let plays = log.plays.bind(py);
        let Some((kind, main_rank)) = made.play else {
            return plays.append((made.seat, intern!(py, "pass")));
        };
        let cards = PyList::new(py, made.cards.into_iter().map(PyCard))?;
        let played = log.played[usize::from(made.seat)].bind(py);
        for card in cards.iter() {
            played.append(card)?;
        }
        plays.append((made.seat, intern!(py, "play"), kind, main_rank, cards))
    }

    fn log_lists(&self, py: Python<'_>) -> PyResult<&Log> {
        self.log.as_ref().ok_or_else(|| {
            to_py(
                py,
                EngineError::RuleOption(
                    "this deal keeps no log: call attach_log(history, plays, played)".into(),
                ),
            )
        })
    }

    fn action_table<'a>(&'a self, py: Python<'_>) -> PyResult<&'a PyGuandanActions> {
        match &self.actions {
            Some(actions) => Ok(actions.get()),
            None => Err(to_py(
                py,
                EngineError::RuleOption(
                    "this deal has no action table: pass actions=GuandanActions(...)".into(),
                ),
            )),
        }
    }

    /// The turn's listing, made on first use.
    fn listing(&mut self, py: Python<'_>) -> PyResult<&Listed> {
        // Taken out and put back (two moves of two words each), so the borrow
        // returned needs no unwrap.
        let listed = match self.listed.take() {
            Some(listed) => listed,
            None => {
                let mut ids = std::mem::take(&mut self.spare_ids);
                self.deal.legal_ids(&mut ids);
                let table = self.action_table(py)?;
                Listed::new(ids, |id| table.object(py, id))?
            }
        };
        Ok(self.listed.insert(listed))
    }

    /// The id of the listed move `action` names: the listed object itself, or the
    /// exact text of one (`pass`, `play ` and a play's canonical text).
    fn find(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        let level = self.deal.level();
        let listed = self.listing(py)?;
        if let Some(i) = listed.position_of(action) {
            return Ok(Some(listed.ids[i]));
        }
        let Ok(text) = action.cast::<PyString>() else {
            return Ok(None);
        };
        let text = text.to_string_lossy();
        let id = if text == "pass" {
            0
        } else {
            let Some(rest) = text.strip_prefix("play ") else {
                return Ok(None);
            };
            match gd::parse(rest, Some(level)) {
                Ok(play) if play.to_string() == rest => match action_index().id(&play) {
                    Some(id) => id,
                    None => return Ok(None),
                },
                _ => return Ok(None),
            }
        };
        Ok(listed.ids.contains(&id).then_some(id))
    }
}

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
        *slot = hand_of("hands", &seq.get_item(i)?)?;
    }
    Ok(out)
}

#[pymethods]
impl PyGuandanDeal {
    #[new]
    #[pyo3(signature = (hands, level, leader, double_win_ends = false, actions = None))]
    fn new(
        py: Python<'_>,
        hands: &Bound<'_, PyAny>,
        level: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = arg)] leader: i64,
        #[pyo3(from_py_with = arg)] double_win_ends: bool,
        actions: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let actions = actions
            .map(|a| {
                a.cast::<PyGuandanActions>()
                    .map(|t| t.clone().unbind())
                    .map_err(|_| {
                        invalid_argument(
                            py,
                            format!("actions must be a GuandanActions, got {}", repr_of(a)),
                        )
                    })
            })
            .transpose()?;
        let level = level_of(py, level)?;
        let leader = seat_of(py, leader)? as u8;
        let out = four_hands(py, hands)?;
        let deal = Deal::new(out, level, leader, double_win_ends).py_err(py)?;
        Ok(PyGuandanDeal::of(deal, actions))
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
            observe::write_card_play(&self.deal, seat, slice);
        })
    }

    /// The seat to act, or None once the deal is over.
    #[getter]
    fn to_move(&self) -> Option<u8> {
        self.deal.to_move()
    }

    /// The play to beat, or None when the seat to act leads.
    #[getter]
    fn table(&self) -> Option<PyGuandanPlay> {
        self.deal.table().copied().map(PyGuandanPlay)
    }

    /// The seat that played the table (the last player).
    #[getter]
    fn table_owner(&self) -> u8 {
        self.deal.owner()
    }

    /// Passes since the table was played.
    #[getter]
    fn passes(&self) -> u8 {
        self.deal.passes()
    }

    /// Seats in finishing order (all four once the deal is over).
    #[getter]
    fn places(&self) -> Vec<usize> {
        self.deal.places().iter().map(|&s| usize::from(s)).collect()
    }

    /// True once the places are settled.
    #[getter]
    fn over(&self) -> bool {
        self.deal.is_over()
    }

    /// Every seat's card count.
    #[getter]
    fn card_counts(&self) -> Vec<usize> {
        (0..SEATS).map(|s| self.deal.hand(s).len()).collect()
    }

    /// The cards of `seat`'s hand, in card order.
    fn hand(&self, py: Python<'_>, #[pyo3(from_py_with = arg)] seat: i64) -> PyResult<Vec<PyCard>> {
        let seat = seat_of(py, seat)?;
        Ok(self
            .deal
            .hand(seat)
            .cards()
            .into_iter()
            .map(PyCard)
            .collect())
    }

    /// The legal moves of the seat to act: None (pass, first when following), then plays.
    fn legal(&self) -> Vec<Option<PyGuandanPlay>> {
        self.deal
            .legal()
            .into_iter()
            .map(|m| m.map(PyGuandanPlay))
            .collect()
    }

    /// The legal moves of the seat to act as action-index ids: 0 (pass) first when following.
    fn legal_ids(&self) -> Vec<u32> {
        if let Some(listed) = &self.listed {
            return listed.ids.clone();
        }
        let mut ids = Vec::new();
        self.deal.legal_ids(&mut ids);
        ids
    }

    /// The legal moves of the seat to act as the table's shared actions, in `legal_ids` order.
    ///
    /// Listed once per turn. Raises RuleOptionError when the deal has no action table.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.listing(py)?.to_list(py)
    }

    /// Apply a listed move named by its shared action or its exact text.
    ///
    /// Returns `(action, seat, cards, type, main_rank, jiefeng)`: the listed action,
    /// the seat that moved, the cards taken, the play's type and main rank (None for
    /// a pass) and, for a pass that ended the round of a finished player,
    /// `(leader, owner)`: the seat that leads by jiefeng and that player. Returns None,
    /// changing nothing, when `action` names no listed move (other texts are the
    /// caller's to parse). Raises RuleOptionError when the deal has no action table.
    fn apply_action<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let Some(id) = self.find(py, action)? else {
            return Ok(None);
        };
        let made = self.make_listed(py, id)?;
        let none = || py.None().into_bound(py);
        let (kind, main_rank) = made.play.unwrap_or_else(|| (none(), none()));
        let cards = PyList::new(py, made.cards.into_iter().map(PyCard))?;
        let moved = (made.action, made.seat, cards, kind, main_rank, self.jiefeng);
        Ok(Some(moved.into_pyobject(py)?))
    }

    /// Keep the move log in `history`, `plays` and `played` (four lists, one a seat).
    ///
    /// `apply_logged` appends each move's action to `history`, `(seat, "pass")` or
    /// `(seat, "play", type, main_rank, cards)` to `plays`, and the cards to
    /// `played[seat]`. A copy of the deal keeps no log until given its own.
    fn attach_log(
        &mut self,
        #[pyo3(from_py_with = arg)] history: Bound<'_, PyList>,
        #[pyo3(from_py_with = arg)] plays: Bound<'_, PyList>,
        #[pyo3(from_py_with = arg)] played: [Bound<'_, PyList>; SEATS],
    ) {
        self.log = Some(Log {
            history: history.unbind(),
            plays: plays.unbind(),
            played: played.map(Bound::unbind),
        });
    }

    /// The Python objects the deal holds, for the cycle collector: a caller's log
    /// list that holds the deal itself would otherwise keep both alive forever.
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Some(actions) = &self.actions {
            visit.call(actions)?;
        }
        if let Some(listed) = &self.listed {
            for action in &listed.actions {
                visit.call(action)?;
            }
        }
        if let Some(log) = &self.log {
            visit.call(&log.history)?;
            visit.call(&log.plays)?;
            for played in &log.played {
                visit.call(played)?;
            }
        }
        Ok(())
    }

    /// Drop the held objects when the collector breaks a cycle; a later call that
    /// needs them raises the typed error of a deal without them.
    fn __clear__(&mut self) {
        self.actions = None;
        self.listed = None;
        self.log = None;
    }

    /// Apply a move and log it in the attached lists; returns whether the deal is over.
    ///
    /// `action` is a listed action, its exact text, or the canonical text naming the
    /// copies of a listed play (`play 5s5d`). Returns None, changing nothing, when
    /// `action` names no legal move so (other texts are the caller's to parse).
    /// Raises RuleOptionError when the deal has no action table or no log.
    fn apply_logged(
        &mut self,
        py: Python<'_>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<Option<bool>> {
        self.log_lists(py)?;
        let made = match self.find(py, action)? {
            Some(id) => self.make_listed(py, id)?,
            None => match self.make_copies(py, action)? {
                Some(made) => made,
                None => return Ok(None),
            },
        };
        self.record(py, made)?;
        Ok(Some(self.deal.is_over()))
    }

    /// The last move's jiefeng: `(leader, finished player)`, else None.
    ///
    /// Set when the last move was a pass that ended the round of a player who has
    /// finished, so that `leader` leads for it.
    #[getter]
    fn jiefeng(&self) -> Option<(u8, u8)> {
        self.jiefeng
    }

    /// Apply the move of action-index id `id` (0: pass); returns the cards taken.
    ///
    /// Raises IllegalActionError (nothing changes) when the move is illegal.
    fn apply_id(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] id: u32,
    ) -> PyResult<Vec<PyCard>> {
        let cards = self.step(py, |deal| deal.apply_id(id))?;
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
            Some(obj) => Some(play_of(py, obj, self.deal.level())?),
        };
        let cards = self.step(py, |deal| deal.apply(play.as_ref()))?;
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
        let play = play_of(py, play, self.deal.level())?;
        let cards = named(py, "cards", extract_cards(cards))?;
        let taken = self.step(py, |deal| deal.apply_copies(&play, &cards))?;
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
        .map(|deal| PyGuandanDeal::of(deal, None))
    }

    /// The rule policy's move for the seat to act (None: pass).
    ///
    /// `jiefeng=False` plays without its jiefeng awareness (docs/guandan.md), to
    /// measure it against.
    #[pyo3(signature = (jiefeng = true))]
    fn rule_move(&self, #[pyo3(from_py_with = arg)] jiefeng: bool) -> Option<PyGuandanPlay> {
        search::rule_move_with(&self.deal, jiefeng).map(PyGuandanPlay)
    }

    /// Determinized search for the seat to act over `samples` deals of hidden cards.
    ///
    /// The other seats' hands here only give the pool of hidden cards and the counts.
    /// `endgame_cards` > 0 (at most 108) solves each sampled deal exactly once at
    /// most that many cards are left in the four hands after a candidate move, each
    /// solve visiting at most `endgame_nodes` nodes (past that, the deal is played
    /// out as without the solver).
    #[pyo3(signature = (samples, seed, endgame_cards = 0, endgame_nodes = 20_000))]
    fn search_move(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] samples: u32,
        #[pyo3(from_py_with = arg)] seed: u64,
        #[pyo3(from_py_with = arg)] endgame_cards: u32,
        #[pyo3(from_py_with = arg)] endgame_nodes: u32,
    ) -> PyResult<Option<PyGuandanPlay>> {
        if endgame_cards > 108 {
            return Err(to_py(
                py,
                EngineError::RuleOption(format!(
                    "endgame_cards {endgame_cards} must be 0..108 (two packs)"
                )),
            ));
        }
        let endgame = search::Endgame {
            cards: endgame_cards,
            nodes: u64::from(endgame_nodes),
        };
        let mut rng = CardRng::new(seed);
        let Some(seat) = self.deal.to_move() else {
            return Ok(None);
        };
        let unknown: Vec<Card> = (0..SEATS)
            .filter(|&s| s != usize::from(seat))
            .flat_map(|s| self.deal.hand(s).cards())
            .collect();
        // A rule playout of a whole deal takes some 100 us, a solver node about
        // 1 us (counted as 2 for margin), counted only when the search may solve
        // (a candidate sheds at most MAX_PLAY cards).
        let reach = endgame_cards + cardkit_engine::climbing::guandan::MAX_PLAY as u32;
        let solving = if endgame_cards > 0 && endgame::cards_left(&self.deal) <= reach {
            endgame.nodes.saturating_mul(2)
        } else {
            0
        };
        let micros = search::search_playouts(&self.deal, samples).saturating_mul(100 + solving);
        let deal = &self.deal;
        let found = interrupt::run_sized(py, micros, |cancel| {
            search::search_move(deal, &unknown, samples, endgame, &mut rng, cancel)
        })?
        .py_err(py)?;
        Ok(found.map(PyGuandanPlay))
    }

    /// An independent copy (the action table is shared; the log is not kept).
    fn copy(&self, py: Python<'_>) -> PyGuandanDeal {
        PyGuandanDeal {
            deal: self.deal.clone(),
            actions: self.actions.as_ref().map(|a| a.clone_ref(py)),
            listed: self.listed.as_ref().map(|l| l.clone_ref(py)),
            spare_ids: Vec::new(),
            log: None,
            jiefeng: self.jiefeng,
        }
    }

    /// Play to the end with uniformly random legal moves from `seed`; returns the places.
    fn random_playout(&mut self, #[pyo3(from_py_with = arg)] seed: u64) -> Vec<usize> {
        let mut rng = CardRng::new(seed);
        self.deal.random_playout(&mut rng);
        self.listed = None;
        self.jiefeng = None;
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
    m.add_class::<PyGuandanActions>()?;
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
