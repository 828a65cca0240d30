//! Tractor (拖拉机): shapes, follow legality, trick winners, the action index,
//! the card play of a deal (`TractorDeal`) with its observation writer and random
//! playouts, and a whole deal from declaring to the level change (`TractorRound`),
//! which the Python state steps.

use crate::args::{arg, named, with_f32_exact, Bounded, Callable, Cards};
use crate::cards::{repr_of, PyCard};
use crate::errors::{invalid_argument, to_py, IntoPyResult};
use crate::interrupt;
use crate::listing::Listed;
use cardkit_engine::trick::tractor::deal::{self, Deal, Trick, SEATS};
use cardkit_engine::trick::tractor::declare::{
    declare_values, rule_burial, rule_declare, DeclareQuery,
};
use cardkit_engine::trick::tractor::endgame::{Endgame, Solver};
use cardkit_engine::trick::tractor::round::{self, Round};
use cardkit_engine::trick::tractor::{
    self as tr, observe, parse_level, parse_trump, shape_of, Follow, Hand, Trumps, LEVEL_TEXT,
};
use cardkit_engine::EngineError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySequence, PyString, PyTuple};
use std::sync::OnceLock;

/// The most actions one `action_points` call takes: the size of the action space,
/// so what a call copies (a deal an action) stays bounded.
const ACTION_IDS: usize = tr::NUM_ACTIONS as usize;

fn cards_of(hand: &Hand) -> Vec<PyCard> {
    hand.cards().into_iter().map(PyCard).collect()
}

/// The Tractor hand of the cards of argument `parameter`; a card held more than
/// twice is an `InvalidCardError` naming the argument.
fn hand_of(py: Python<'_>, parameter: &str, cards: &[cardkit_engine::Card]) -> PyResult<Hand> {
    named(py, parameter, Hand::from_cards(cards).py_err(py))
}

/// The trumps of `level` (a rank letter) and `trump` (a suit letter, or None /
/// "nt" for no-trump).
fn trumps_of(py: Python<'_>, level: &str, trump: Option<&str>) -> PyResult<Trumps> {
    let level = parse_level(level).py_err(py)?;
    let suit = parse_trump(trump.unwrap_or("nt")).py_err(py)?;
    Trumps::new(level, suit).py_err(py)
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

/// The shape of a lead, or an `IllegalActionError` saying it is none.
fn lead_shape(
    py: Python<'_>,
    parameter: &str,
    lead: &[cardkit_engine::Card],
    t: &Trumps,
) -> PyResult<tr::Shape> {
    let hand = hand_of(py, parameter, lead)?;
    shape_of(&hand, t).ok_or_else(|| {
        to_py(
            py,
            EngineError::IllegalAction(
                "the lead is not a single, a pair or a tractor of one effective suit".into(),
            ),
        )
    })
}

/// `("single" | "pair" | "tractor", pairs)` of `cards`, or None for no shape.
///
/// Read under `level` and `trump` (TRC-25..TRC-27).
#[pyfunction]
#[pyo3(signature = (cards, level, trump = None))]
fn tractor_shape(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] cards: Cards,
    #[pyo3(from_py_with = arg)] level: &str,
    #[pyo3(from_py_with = arg)] trump: Option<&str>,
) -> PyResult<Option<(&'static str, u32)>> {
    let t = trumps_of(py, level, trump)?;
    let hand = hand_of(py, "cards", &cards.0)?;
    Ok(shape_of(&hand, &t).map(|s| (s.kind.name(), s.kind.pairs())))
}

/// The cards a follower may add to `chosen` (cards of `hand`) following `lead`.
///
/// Distinct, in card-index order.
#[pyfunction]
#[pyo3(signature = (hand, lead, chosen, level, trump = None))]
fn tractor_follow_cards(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hand: Cards,
    #[pyo3(from_py_with = arg)] lead: Cards,
    #[pyo3(from_py_with = arg)] chosen: Cards,
    #[pyo3(from_py_with = arg)] level: &str,
    #[pyo3(from_py_with = arg)] trump: Option<&str>,
) -> PyResult<Vec<PyCard>> {
    let t = trumps_of(py, level, trump)?;
    let hand = hand_of(py, "hand", &hand.0)?;
    let chosen = hand_of(py, "chosen", &chosen.0)?;
    let shape = lead_shape(py, "lead", &lead.0, &t)?;
    if !hand.holds(&chosen) {
        return Err(to_py(
            py,
            EngineError::IllegalAction("chosen cards must be cards of the hand".into()),
        ));
    }
    let bits = Follow::of(&shape, &t).next_cards(&hand, &chosen);
    Ok(cards_of(&Hand { one: bits, two: 0 }))
}

/// Whether `follow` (cards of `hand`) is a legal follow of `lead`.
///
/// TRC-28..TRC-34.
#[pyfunction]
#[pyo3(signature = (hand, lead, follow, level, trump = None))]
fn tractor_is_legal_follow(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hand: Cards,
    #[pyo3(from_py_with = arg)] lead: Cards,
    #[pyo3(from_py_with = arg)] follow: Cards,
    #[pyo3(from_py_with = arg)] level: &str,
    #[pyo3(from_py_with = arg)] trump: Option<&str>,
) -> PyResult<bool> {
    let t = trumps_of(py, level, trump)?;
    let hand = hand_of(py, "hand", &hand.0)?;
    let follow = hand_of(py, "follow", &follow.0)?;
    let shape = lead_shape(py, "lead", &lead.0, &t)?;
    Ok(Follow::of(&shape, &t).allows(&hand, &follow))
}

/// The index, in play order, of the play that wins the trick (the lead first).
///
/// TRC-24, TRC-35..TRC-38.
#[pyfunction]
#[pyo3(signature = (plays, level, trump = None))]
fn tractor_trick_winner(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] plays: Bounded<Cards, SEATS>,
    #[pyo3(from_py_with = arg)] level: &str,
    #[pyo3(from_py_with = arg)] trump: Option<&str>,
) -> PyResult<usize> {
    let t = trumps_of(py, level, trump)?;
    let plays = plays.0;
    let hands = plays
        .iter()
        .map(|p| hand_of(py, "plays", &p.0))
        .collect::<PyResult<Vec<_>>>()?;
    let Some(first) = plays.first() else {
        return Err(to_py(
            py,
            EngineError::IllegalAction("a trick needs at least its lead".into()),
        ));
    };
    lead_shape(py, "plays", &first.0, &t)?;
    Ok(tr::trick_winner(&hands, &t))
}

/// Where each block of the action index begins (docs/tractor.md), then its size.
///
/// `(pass, declare_single, declare_pair, declare_black, declare_red, bury,
/// play_card, play_pair, play_tractor, num_actions)`.
#[pyfunction]
fn tractor_action_index() -> [u32; 10] {
    [
        tr::PASS_ID,
        tr::DECLARE_SINGLE,
        tr::DECLARE_PAIR,
        tr::DECLARE_BLACK,
        tr::DECLARE_RED,
        tr::BURY,
        tr::PLAY_CARD,
        tr::PLAY_PAIR,
        tr::PLAY_TRACTOR,
        tr::NUM_ACTIONS,
    ]
}

/// The action text of `id` at `level` with `trump`, or None.
///
/// Tractor ids depend on both.
#[pyfunction]
#[pyo3(signature = (id, level, trump = None))]
fn tractor_action_text(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] id: u32,
    #[pyo3(from_py_with = arg)] level: &str,
    #[pyo3(from_py_with = arg)] trump: Option<&str>,
) -> PyResult<Option<String>> {
    let t = trumps_of(py, level, trump)?;
    Ok((id < tr::NUM_ACTIONS)
        .then(|| tr::action_text(id, &t))
        .flatten())
}

/// The lead id of `cards` at `level` with `trump`, or None for no shape.
#[pyfunction]
#[pyo3(signature = (cards, level, trump = None))]
fn tractor_lead_id(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] cards: Cards,
    #[pyo3(from_py_with = arg)] level: &str,
    #[pyo3(from_py_with = arg)] trump: Option<&str>,
) -> PyResult<Option<u32>> {
    let t = trumps_of(py, level, trump)?;
    let hand = hand_of(py, "cards", &cards.0)?;
    Ok(shape_of(&hand, &t).map(|s| tr::lead_id(&s, &t)))
}

/// The card play of one Tractor deal, after trumps and the kitty (docs/tractor.md).
///
/// Leads by action id, follows one card id at a time, tricks scored as they complete.
#[pyclass(module = "cardkit._core", name = "TractorDeal")]
#[derive(Clone)]
pub struct PyTractorDeal(pub Deal);

fn trick_tuple(t: &Trick) -> (u8, Vec<String>, u8, u32, u32) {
    (
        t.leader,
        t.plays.iter().map(tr::cards_text).collect(),
        t.winner,
        t.points,
        t.size,
    )
}

#[pymethods]
impl PyTractorDeal {
    /// `(name, length)` of each slice of the observation tensor, in order.
    #[classattr]
    #[allow(non_snake_case)]
    fn OBSERVATION_LAYOUT() -> Vec<(&'static str, usize)> {
        observe::LAYOUT.to_vec()
    }

    #[new]
    #[pyo3(signature = (hands, level, trump, leader))]
    fn new(
        py: Python<'_>,
        hands: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = arg)] level: &str,
        #[pyo3(from_py_with = arg)] trump: Option<&str>,
        #[pyo3(from_py_with = arg)] leader: i64,
    ) -> PyResult<Self> {
        let t = trumps_of(py, level, trump)?;
        let seq = hands
            .cast::<PySequence>()
            .ok()
            .filter(|s| !hands.is_instance_of::<PyString>() && s.len().ok() == Some(SEATS));
        let Some(seq) = seq else {
            let why = format!("must be a list of four hands, got {}", repr_of(hands));
            return named(py, "hands", Err(to_py(py, EngineError::InvalidCard(why))));
        };
        let mut four = [Hand::EMPTY; SEATS];
        for (i, slot) in four.iter_mut().enumerate() {
            let cards: Cards = named(py, "hands", arg(&seq.get_item(i)?))?;
            *slot = hand_of(py, "hands", &cards.0)?;
        }
        let leader = seat_of(py, leader)?;
        Ok(PyTractorDeal(Deal::new(four, t, leader as u8).py_err(py)?))
    }

    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    /// The legal action ids of the seat to move, ascending.
    fn legal_ids(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(64);
        self.0.legal_ids_into(&mut out);
        out
    }

    /// Play action `id` (a lead, or one card of a follow).
    ///
    /// Illegal -> an `IllegalActionError`, nothing changed. Returns the completed
    /// trick, if any, as `(leader, cards text by seat, winner, points, cards per
    /// play)`; a cards text is the cards in card-index order, no spaces (`5h5h6h6h`).
    #[allow(clippy::type_complexity)]
    fn apply_id(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] id: u32,
    ) -> PyResult<Option<(u8, Vec<String>, u8, u32, u32)>> {
        Ok(self.0.apply_id(id).py_err(py)?.as_ref().map(trick_tuple))
    }

    /// `seat`'s cards in card-index order (a follow being chosen included).
    fn hand(&self, py: Python<'_>, #[pyo3(from_py_with = arg)] seat: i64) -> PyResult<Vec<PyCard>> {
        Ok(cards_of(&self.0.hand(seat_of(py, seat)?)))
    }

    /// The cards `seat` has played this deal.
    fn played(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] seat: i64,
    ) -> PyResult<Vec<PyCard>> {
        Ok(cards_of(&self.0.played()[seat_of(py, seat)?]))
    }

    /// The seat to act, or None once every card is played.
    #[getter]
    fn to_move(&self) -> Option<u8> {
        self.0.to_move()
    }

    /// The leader of the trick in progress (or of the next one).
    #[getter]
    fn leader(&self) -> u8 {
        self.0.leader()
    }

    /// True once every card is played.
    #[getter]
    fn over(&self) -> bool {
        self.0.is_over()
    }

    /// Card points each seat has won.
    #[getter]
    fn points(&self) -> [u32; SEATS] {
        self.0.points()
    }

    /// Completed tricks.
    #[getter]
    fn tricks(&self) -> u32 {
        self.0.tricks()
    }

    /// The cards the seat to move has chosen so far for its follow.
    #[getter]
    fn chosen(&self) -> Vec<PyCard> {
        cards_of(&self.0.chosen())
    }

    /// The lead of the trick in progress as `(kind, pairs)`, or None.
    #[getter]
    fn lead(&self) -> Option<(&'static str, u32)> {
        self.0.lead().map(|s| (s.kind.name(), s.kind.pairs()))
    }

    /// This trick's plays so far, in play order: `(seat, cards)`.
    #[getter]
    fn trick(&self) -> Vec<(u8, Vec<PyCard>)> {
        self.0
            .trick_plays()
            .iter()
            .map(|(s, h)| (*s, cards_of(h)))
            .collect()
    }

    /// The text of action `id` under this deal's trumps, or None.
    fn action_text(&self, #[pyo3(from_py_with = arg)] id: u32) -> Option<String> {
        (id < tr::NUM_ACTIONS)
            .then(|| tr::action_text(id, self.0.trumps()))
            .flatten()
    }

    /// The lead id of `cards` under this deal's trumps, or None for no shape.
    fn lead_id(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] cards: Cards,
    ) -> PyResult<Option<u32>> {
        let hand = hand_of(py, "cards", &cards.0)?;
        let t = self.0.trumps();
        Ok(shape_of(&hand, t).map(|s| tr::lead_id(&s, t)))
    }

    /// The attackers' points with `kitty` buried by `dealer` (kitty bonus included).
    ///
    /// TRC-42, TRC-43.
    fn attacker_points(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] dealer: i64,
        #[pyo3(from_py_with = arg)] kitty: Cards,
    ) -> PyResult<u32> {
        let dealer = seat_of(py, dealer)? as u8;
        Ok(self
            .0
            .attacker_points(dealer, &hand_of(py, "kitty", &kitty.0)?))
    }

    /// Play the rest of the deal with random legal moves; the points each seat won.
    fn random_playout(&mut self, #[pyo3(from_py_with = arg)] seed: u64) -> [u32; SEATS] {
        let mut rng = cardkit_engine::rng::CardRng::new(seed);
        self.0.random_playout(&mut rng);
        self.0.points()
    }

    /// Play the rest of the deal with the heuristic rollout policy; the points each seat won.
    ///
    /// Followers feed points to a winning partner, win a single as cheaply as they
    /// can, else play their cheapest card; leads are random (pairs and tractors
    /// preferred half the time).
    fn heuristic_playout(&mut self, #[pyo3(from_py_with = arg)] seed: u64) -> [u32; SEATS] {
        let mut rng = cardkit_engine::rng::CardRng::new(seed);
        self.0.heuristic_playout(&mut rng);
        self.0.points()
    }

    /// The attackers' points after each action of `ids`, exact or from a heuristic playout.
    ///
    /// Each action is played on a copy of the deal (the deal is not changed);
    /// `kitty` is buried by `dealer` (kitty bonus included, TRC-42, TRC-43). With at
    /// most `endgame_cards` cards left in the hands after it (0 = never) the copy is
    /// solved with every hand known, both teams playing their best, within
    /// `endgame_nodes` nodes, by one solver for all the actions (positions one
    /// action's solve reaches are not searched again for another); otherwise, or
    /// when the solve needs more, it is the result of `heuristic_playout` on the
    /// copy with the action's seed in `seeds`. At most 3,693 actions (the size of
    /// the action space) a call.
    #[pyo3(signature = (ids, seeds, dealer, kitty, endgame_cards = 0, endgame_nodes = 20_000))]
    #[allow(clippy::too_many_arguments)]
    fn action_points(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] ids: Bounded<u32, ACTION_IDS>,
        #[pyo3(from_py_with = arg)] seeds: Bounded<u64, ACTION_IDS>,
        #[pyo3(from_py_with = arg)] dealer: i64,
        #[pyo3(from_py_with = arg)] kitty: Cards,
        #[pyo3(from_py_with = arg)] endgame_cards: u32,
        #[pyo3(from_py_with = arg)] endgame_nodes: u32,
    ) -> PyResult<Vec<u32>> {
        let (Bounded(ids), Bounded(seeds)) = (ids, seeds);
        if seeds.len() != ids.len() {
            return Err(to_py(
                py,
                EngineError::RuleOption("ids and seeds must have one entry per action".into()),
            ));
        }
        let dealer = seat_of(py, dealer)? as u8;
        let kitty = hand_of(py, "kitty", &kitty.0)?;
        let max_cards = (SEATS * deal::HAND_SIZE) as u32;
        if endgame_cards > max_cards {
            return Err(to_py(
                py,
                EngineError::RuleOption(format!(
                    "endgame_cards {endgame_cards} must be 0..{max_cards}"
                )),
            ));
        }
        let endgame = Endgame {
            cards: endgame_cards,
            nodes: u64::from(endgame_nodes),
        };
        // Every action is checked before any work.
        let children = ids
            .iter()
            .map(|&id| {
                let mut child = self.0.clone();
                child.apply_id(id).map(|_| child)
            })
            .collect::<Result<Vec<_>, _>>()
            .py_err(py)?;
        // A solve node costs about a microsecond at most.
        let micros = children.iter().fold(0u64, |acc, child| {
            let solve = if endgame.applies_to_tractor(child) {
                endgame.nodes
            } else {
                0
            };
            acc.saturating_add(solve + DEAL_MICROS)
        });
        interrupt::run_sized(py, micros, |cancel| {
            let mut solver = Solver::new(dealer, kitty);
            children
                .into_iter()
                .zip(seeds)
                .map(|(mut child, seed)| {
                    if endgame.applies_to_tractor(&child) {
                        if let Some(points) = solver.solve(&child, endgame.nodes, cancel)? {
                            return Ok(points);
                        }
                    }
                    child.heuristic_playout(&mut cardkit_engine::rng::CardRng::new(seed));
                    Ok(child.attacker_points(dealer, &kitty))
                })
                .collect::<cardkit_engine::error::Result<Vec<u32>>>()
        })?
        .py_err(py)
    }

    /// Write what `seat` knows of the card play into `out`.
    ///
    /// `out` is a zeroed float32 array of the tensor's length; `playing` false
    /// writes only the hand and the turn.
    #[pyo3(signature = (seat, out, playing = true))]
    fn write_observation(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] seat: i64,
        out: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = arg)] playing: bool,
    ) -> PyResult<()> {
        let seat = seat_of(py, seat)?;
        with_f32_exact(out, observe::OBSERVATION_LEN, |slice| {
            observe::write(&self.0, seat, playing, slice);
        })
    }
}

/// Which team rises and by how much for the attackers' `points` (TRC-44..TRC-49).
///
/// `("defenders", 3 | 2 | 1)` below 80, else `("attackers", n)` with
/// `n = (points - 80) // 40` (0 at 80-115: a take-over without rising).
#[pyfunction]
fn tractor_level_change(#[pyo3(from_py_with = arg)] points: u32) -> (&'static str, u32) {
    let (defenders, rise) = round::level_change(points);
    (if defenders { "defenders" } else { "attackers" }, rise)
}

/// The card points of `cards`: each 5 counts 5, each 10 and king 10 (TRC-40, TRC-41).
#[pyfunction]
fn tractor_card_points(#[pyo3(from_py_with = arg)] cards: Cards) -> u32 {
    // Card by card: any number of cards, where a hand holds at most two of each.
    let single = |c: &cardkit_engine::Card| Hand {
        one: 1 << c.index(),
        two: 0,
    };
    cards.0.iter().map(|c| single(c).points()).sum()
}

/// A level rank index (0..=12) from its text (`"2"`..`"A"`).
fn level_index(py: Python<'_>, parameter: &str, text: &str) -> PyResult<u8> {
    named(py, parameter, parse_level(text).py_err(py))
}

/// The level ranks, times the trump states of a card play (four suits, no-trump).
const LEVELS: usize = 13;
const TRUMP_STATES: usize = 5;
/// The ids below the tractor leads (pass, declarations, burials, singles, pairs).
const LOW_IDS: usize = tr::PLAY_TRACTOR as usize;
const TRACTOR_IDS: usize = (tr::NUM_ACTIONS - tr::PLAY_TRACTOR) as usize;

/// The shared action objects of Tractor: one per action id, level rank and trumps.
///
/// `make(text)` makes the action of an id's canonical text (`pass`, `declare 2s`,
/// `bury As`, `play 7h7h8h8h`) the first time a round lists it; every round given
/// the table then hands out that object, so listing a turn builds no strings and no
/// objects. The table holds at most one entry per id and level (per trumps too for
/// tractor leads), made on first use.
#[pyclass(frozen, module = "cardkit._core", name = "TractorActions")]
pub struct PyTractorActions {
    make: Py<PyAny>,
    /// The ids below the tractors, per level (declarations name level cards).
    low: Slots,
    /// The tractor ids per level and trump state, each block made on first use.
    tractors: Box<[OnceLock<Slots>]>,
}

/// Action objects by slot, each made on first use.
type Slots = Box<[OnceLock<Py<PyAny>>]>;

impl PyTractorActions {
    /// The action of `id` in `round`'s position (its level, and its trumps for a
    /// tractor lead), made on first use. `make` runs without any lock held; when
    /// threads race, the first object kept is the one handed out.
    fn object(&self, py: Python<'_>, round: &Round, id: u32) -> PyResult<Py<PyAny>> {
        let level = usize::from(round.level());
        let slot = match id.checked_sub(tr::PLAY_TRACTOR) {
            None => &self.low[level * LOW_IDS + id as usize],
            Some(k) => {
                let state = match round.trump() {
                    Some(Some(suit)) => usize::from(suit),
                    _ => TRUMP_STATES - 1,
                };
                let block = self.tractors[level * TRUMP_STATES + state]
                    .get_or_init(|| (0..TRACTOR_IDS).map(|_| OnceLock::new()).collect());
                &block[k as usize]
            }
        };
        if let Some(made) = slot.get() {
            return Ok(made.clone_ref(py));
        }
        let text = match round.play() {
            Some(deal) => tr::action_text(id, deal.trumps()),
            None => tr::action_text(id, &Trumps::new(round.level(), None).py_err(py)?),
        };
        let Some(text) = text else {
            return Err(to_py(
                py,
                EngineError::IllegalAction(format!("action id {id} names nothing here")),
            ));
        };
        let made = self.make.bind(py).call1((text,))?.unbind();
        Ok(slot.get_or_init(|| made).clone_ref(py))
    }
}

#[pymethods]
impl PyTractorActions {
    /// `make(text)` returns the action of an action id's canonical text.
    #[new]
    fn new(#[pyo3(from_py_with = arg)] make: Callable) -> Self {
        PyTractorActions {
            make: make.0,
            low: (0..LEVELS * LOW_IDS).map(|_| OnceLock::new()).collect(),
            tractors: (0..LEVELS * TRUMP_STATES)
                .map(|_| OnceLock::new())
                .collect(),
        }
    }
}

/// One whole Tractor deal, from declaring to the level change (docs/tractor.md).
///
/// Declaring, burying and the card play by action id, then the attackers' points,
/// the level change and the next dealer.
#[pyclass(module = "cardkit._core", name = "TractorRound")]
pub struct PyTractorRound {
    round: Round,
    /// The shared action table of `legal_actions` and `apply_action`, if given.
    actions: Option<Py<PyTractorActions>>,
    /// The turn's listing, once `legal_actions` or `apply_action` made it.
    listed: Option<Listed>,
}

impl PyTractorRound {
    /// The turn's listing, made on first use.
    fn listing(&mut self, py: Python<'_>) -> PyResult<&Listed> {
        let Some(table) = &self.actions else {
            return Err(to_py(
                py,
                EngineError::RuleOption(
                    "this round has no action table: pass actions=TractorActions(...)".into(),
                ),
            ));
        };
        // Taken out and put back, so the borrow returned needs no unwrap.
        let listed = match self.listed.take() {
            Some(listed) => listed,
            None => {
                let table = table.get();
                let mut ids = Vec::with_capacity(64);
                self.round.legal_ids(&mut ids);
                let round = &self.round;
                Listed::new(ids, |id| table.object(py, round, id))?
            }
        };
        Ok(self.listed.insert(listed))
    }

    /// The index in the listing of the action `action` names: the listed object
    /// itself, or a text equal to one.
    fn find(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let listed = self.listing(py)?;
        if let Some(i) = listed.position_of(action) {
            return Ok(Some(i));
        }
        let Ok(text) = action.cast::<PyString>() else {
            return Ok(None);
        };
        let Ok(text) = text.to_str() else {
            return Ok(None);
        };
        Ok(listed.actions.iter().position(|o| {
            o.bind(py)
                .cast::<PyString>()
                .is_ok_and(|s| s.to_str().is_ok_and(|t| t == text))
        }))
    }
}

#[pymethods]
impl PyTractorRound {
    #[new]
    #[pyo3(signature = (order, levels, first_speaker, dealer = None, actions = None))]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] order: Cards,
        #[pyo3(from_py_with = arg)] levels: [String; 2],
        #[pyo3(from_py_with = arg)] first_speaker: u8,
        #[pyo3(from_py_with = arg)] dealer: Option<u8>,
        actions: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let actions = actions
            .map(|a| {
                a.cast::<PyTractorActions>()
                    .map(|t| t.clone().unbind())
                    .map_err(|_| {
                        invalid_argument(
                            py,
                            format!("actions must be a TractorActions, got {}", repr_of(a)),
                        )
                    })
            })
            .transpose()?;
        let levels = [
            level_index(py, "levels", &levels[0])?,
            level_index(py, "levels", &levels[1])?,
        ];
        let round = Round::new(&order.0, levels, dealer, first_speaker);
        let round = match round {
            Err(EngineError::InvalidCard(why)) => {
                return named(py, "order", Err(to_py(py, EngineError::InvalidCard(why))))
            }
            other => other.py_err(py)?,
        };
        Ok(PyTractorRound {
            round,
            actions,
            listed: None,
        })
    }

    /// An independent copy.
    fn copy(&self, py: Python<'_>) -> Self {
        PyTractorRound {
            round: self.round.clone(),
            actions: self.actions.as_ref().map(|a| a.clone_ref(py)),
            listed: None,
        }
    }

    /// The legal action ids of the seat to act, ascending.
    fn legal_ids(&self) -> Vec<u32> {
        if let Some(listed) = &self.listed {
            return listed.ids.clone();
        }
        let mut out = Vec::with_capacity(64);
        self.round.legal_ids(&mut out);
        out
    }

    /// The legal actions as the table's shared objects, in `legal_ids` order.
    ///
    /// Listed once per turn. Raises RuleOptionError when the round has no action table.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.listing(py)?.to_list(py)
    }

    /// Play a listed action named by its shared action or its exact text.
    ///
    /// Appends the listed action to `history` and returns the trick it completed, or
    /// `()` when it completed none. Returns None, changing nothing, when `action`
    /// names no action of the turn's listing (other texts are the caller's to
    /// parse). Raises RuleOptionError when the round has no action table.
    fn apply_action<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = arg)] history: Bound<'py, PyList>,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let Some(i) = self.find(py, action)? else {
            return Ok(None);
        };
        // `find` made the turn's listing, so it is there to take.
        let Some(listed) = self.listed.take() else {
            return Ok(None);
        };
        let trick = self.round.apply(listed.ids[i]).py_err(py)?;
        history.append(listed.actions[i].bind(py))?;
        Ok(Some(match trick {
            Some(t) => trick_tuple(&t).into_pyobject(py)?,
            None => PyTuple::empty(py),
        }))
    }

    /// Play action `id` for the seat to act; the trick it completed, if any.
    ///
    /// Illegal -> an `IllegalActionError`, nothing changed. A trick is `(leader,
    /// cards text by seat, winner, points, cards per play)`.
    #[allow(clippy::type_complexity)]
    fn apply_id(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] id: u32,
    ) -> PyResult<Option<(u8, Vec<String>, u8, u32, u32)>> {
        let trick = self.round.apply(id).py_err(py)?;
        self.listed = None;
        Ok(trick.as_ref().map(trick_tuple))
    }

    /// Play `ids` as one action of the seat to act, all or nothing; the trick it completed.
    ///
    /// The ids are cards to bury (at most those still to bury) or the cards of a
    /// follow (ending at or before its last card). Illegal -> an
    /// `IllegalActionError`, nothing changed.
    #[allow(clippy::type_complexity)]
    fn apply_ids(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] ids: Vec<u32>,
    ) -> PyResult<Option<(u8, Vec<String>, u8, u32, u32)>> {
        let trick = self.round.apply_ids(&ids).py_err(py)?;
        self.listed = None;
        Ok(trick.as_ref().map(trick_tuple))
    }

    /// Why `apply_ids(ids)` would be illegal now, or None when it is legal.
    fn why_illegal(&self, #[pyo3(from_py_with = arg)] ids: Vec<u32>) -> Option<String> {
        self.round
            .clone()
            .apply_ids(&ids)
            .err()
            .map(|e| e.to_string())
    }

    /// `declare`, `bury`, `play`, or `over` once scored.
    #[getter]
    fn phase(&self) -> &'static str {
        self.round.phase().name()
    }

    /// The seat to act, or None once scored.
    #[getter]
    fn to_act(&self) -> Option<u8> {
        self.round.to_act()
    }

    /// The dealer, or None until declaring fixes it in a first deal.
    #[getter]
    fn dealer(&self) -> Option<u8> {
        self.round.dealer()
    }

    /// The deal's level rank (`"2"`..`"A"`): the dealer's team's level.
    #[getter]
    fn level(&self) -> char {
        char::from(LEVEL_TEXT.as_bytes()[usize::from(self.round.level())])
    }

    /// The trump suit letter, `"nt"` for no-trump, None until fixed.
    #[getter]
    fn trump(&self) -> Option<&'static str> {
        self.round
            .trump()
            .map(|suit| suit.map_or("nt", |s| ["c", "d", "h", "s"][usize::from(s)]))
    }

    /// True once nobody declared and the kitty was exposed (TRC-19).
    #[getter]
    fn exposed(&self) -> bool {
        self.round.exposed()
    }

    /// The declarations so far as `(seat, action id)`, the standing one last.
    #[getter]
    fn declarations(&self) -> Vec<(u8, u8)> {
        self.round.declarations().to_vec()
    }

    /// The cards buried so far, in card-index order.
    #[getter]
    fn buried(&self) -> Vec<PyCard> {
        cards_of(&self.round.buried())
    }

    /// `seat`'s cards in card-index order (a follow being chosen included).
    fn hand(&self, py: Python<'_>, #[pyo3(from_py_with = arg)] seat: i64) -> PyResult<Vec<PyCard>> {
        Ok(cards_of(&self.round.hand(seat_of(py, seat)?)))
    }

    /// The cards `seat` has played this deal.
    fn played(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] seat: i64,
    ) -> PyResult<Vec<PyCard>> {
        let seat = seat_of(py, seat)?;
        Ok(self
            .round
            .play()
            .map_or_else(Vec::new, |d| cards_of(&d.played()[seat])))
    }

    /// True while a trick is led and not complete.
    #[getter]
    fn following(&self) -> bool {
        self.round.play().is_some_and(|d| d.lead().is_some())
    }

    /// The cards the seat to act has chosen so far for its follow.
    #[getter]
    fn chosen(&self) -> Vec<PyCard> {
        self.round
            .play()
            .map_or_else(Vec::new, |d| cards_of(&d.chosen()))
    }

    /// This trick's plays so far, in play order: `(seat, cards text)`.
    #[getter]
    fn trick(&self) -> Vec<(u8, String)> {
        self.round.play().map_or_else(Vec::new, |d| {
            d.trick_plays()
                .iter()
                .map(|(s, h)| (*s, tr::cards_text(h)))
                .collect()
        })
    }

    /// Card points each seat has won in tricks so far.
    #[getter]
    fn points(&self) -> [u32; SEATS] {
        self.round.play().map_or([0; SEATS], Deal::points)
    }

    /// The scored deal as a dict, or None until every card is played.
    ///
    /// Keys: `trick_points`, `kitty_points`, `kitty_multiplier`, `kitty_bonus`,
    /// `attacker_points`, `rising_team`, `rise`, `next_dealer`.
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(o) = self.round.outcome() else {
            return Ok(None);
        };
        let out = PyDict::new(py);
        out.set_item("trick_points", o.trick_points)?;
        out.set_item("kitty_points", o.kitty_points)?;
        out.set_item("kitty_multiplier", o.kitty_multiplier)?;
        out.set_item("kitty_bonus", o.kitty_bonus())?;
        out.set_item("attacker_points", o.attacker_points)?;
        out.set_item("rising_team", o.rising_team)?;
        out.set_item("rise", o.rise)?;
        out.set_item("next_dealer", o.next_dealer)?;
        Ok(Some(out))
    }

    /// Each seat's return: the levels the deal gave its team minus the other's.
    ///
    /// Zeros until scored.
    fn returns(&self) -> [f32; SEATS] {
        self.round.returns()
    }

    /// Write `seat`'s whole observation tensor into `out` (docs/tractor.md).
    ///
    /// `out` is a float32 array of the tensor's length, overwritten whole.
    fn write_observation(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = arg)] seat: i64,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let seat = seat_of(py, seat)?;
        with_f32_exact(out, observe::OBSERVATION_LEN, |slice| {
            self.round.observe(seat, slice)
        })?
        .py_err(py)
    }
}

/// The seat's team's mean level result after each candidate speech, over sampled deals.
///
/// `worlds` deals of the cards `hand` (the seat's 25) cannot see, a declarer keeping
/// the cards it showed, replay the `declarations` (`(seat, action id)` in order,
/// passes between them from `first_speaker`) up to `seat`'s turn; each candidate
/// (0 `pass`, 1-10 declarations) is then played out by the playout policy (the rule
/// agent's speeches and burial, the heuristic card play). `team_levels` are the two
/// teams' level ranks; `dealer` None in a match's first deal. Deterministic given
/// `seed`.
#[pyfunction]
#[pyo3(signature = (seat, hand, team_levels, dealer, first_speaker, declarations, candidates, worlds, seed))]
#[allow(clippy::too_many_arguments)]
fn tractor_declare_values(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] seat: u8,
    #[pyo3(from_py_with = arg)] hand: Cards,
    #[pyo3(from_py_with = arg)] team_levels: [String; 2],
    #[pyo3(from_py_with = arg)] dealer: Option<u8>,
    #[pyo3(from_py_with = arg)] first_speaker: u8,
    #[pyo3(from_py_with = arg)] declarations: Vec<(u8, u32)>,
    #[pyo3(from_py_with = arg)] candidates: Vec<u32>,
    #[pyo3(from_py_with = arg)] worlds: u32,
    #[pyo3(from_py_with = arg)] seed: u64,
) -> PyResult<Vec<f64>> {
    let query = DeclareQuery {
        seat,
        hand: hand_of(py, "hand", &hand.0)?,
        levels: [
            level_index(py, "team_levels", &team_levels[0])?,
            level_index(py, "team_levels", &team_levels[1])?,
        ],
        dealer,
        first_speaker,
        declarations,
    };
    // A world plays one whole deal per candidate.
    let micros = u64::from(worlds)
        .saturating_mul(candidates.len() as u64)
        .saturating_mul(DEAL_MICROS);
    interrupt::run_sized(py, micros, |cancel| {
        declare_values(&query, &candidates, worlds, seed, cancel)
    })?
    .py_err(py)
}

/// About how long one heuristic playout of a whole deal takes, in microseconds.
const DEAL_MICROS: u64 = 50;

/// Random whole Tractor deals played out in Rust (bench only); returns the
/// attackers' points summed over them.
#[pyfunction]
fn bench_tractor_random_playouts(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] deals: u64,
    #[pyo3(from_py_with = arg)] seed: u64,
) -> PyResult<u64> {
    // A random deal takes well under a millisecond.
    let micros = deals.saturating_mul(1000);
    interrupt::run_sized(py, micros, |cancel| {
        deal::random_playouts(deals, seed, cancel)
    })?
    .py_err(py)
}

/// The rule agent's speech for `hand` at level rank `level`: one of the `legal` ids.
///
/// Among the listed declarations (ids 1-10), the one whose suit gives `hand` the
/// most trumps when that is at least ten (level cards and jokers count for every
/// suit; the first listed of equals), or a joker pair (no-trump) scored as four more
/// than the hand's level cards and jokers when it holds six or more; else `pass`
/// (id 0). The declaring search's playouts speak by the same rule.
#[pyfunction]
fn tractor_rule_declare(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hand: Cards,
    #[pyo3(from_py_with = arg)] level: String,
    #[pyo3(from_py_with = arg)] legal: Vec<u32>,
) -> PyResult<u32> {
    let hand = hand_of(py, "hand", &hand.0)?;
    let level = level_index(py, "level", &level)?;
    if let Some(id) = legal.iter().find(|&&id| id >= tr::BURY) {
        return Err(to_py(
            py,
            EngineError::IllegalAction(format!(
                "legal: id {id} is not a speech (pass is 0, declarations 1-10)"
            )),
        ));
    }
    Ok(rule_declare(&hand, level, &legal))
}

/// The rule agent's burial of the dealer's `hand`, in the order it buries.
///
/// Up to eight cards, one at a time, each the card that costs least to lose under
/// `level` and `trump` (None: no-trump): the shortest side suit first, its point
/// cards before its low cards; trumps, aces and pairs stay while other cards remain.
/// The dealer buries the first card; the declaring search's playouts bury all eight.
#[pyfunction]
#[pyo3(signature = (hand, level, trump))]
fn tractor_rule_burial(
    py: Python<'_>,
    #[pyo3(from_py_with = arg)] hand: Cards,
    #[pyo3(from_py_with = arg)] level: String,
    #[pyo3(from_py_with = arg)] trump: Option<String>,
) -> PyResult<Vec<PyCard>> {
    let hand = hand_of(py, "hand", &hand.0)?;
    let trumps = trumps_of(py, &level, trump.as_deref())?;
    Ok(rule_burial(&hand, &trumps)
        .into_iter()
        .map(PyCard)
        .collect())
}

pub fn register(m: &Bound<'_, PyModule>, bench: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTractorDeal>()?;
    m.add_class::<PyTractorRound>()?;
    m.add_class::<PyTractorActions>()?;
    bench.add_function(wrap_pyfunction!(bench_tractor_random_playouts, bench)?)?;
    m.add_function(wrap_pyfunction!(tractor_shape, m)?)?;
    m.add_function(wrap_pyfunction!(tractor_follow_cards, m)?)?;
    m.add_function(wrap_pyfunction!(tractor_is_legal_follow, m)?)?;
    m.add_function(wrap_pyfunction!(tractor_trick_winner, m)?)?;
    m.add_function(wrap_pyfunction!(tractor_action_index, m)?)?;
    m.add_function(wrap_pyfunction!(tractor_action_text, m)?)?;
    m.add_function(wrap_pyfunction!(tractor_lead_id, m)?)?;
    m.add_function(wrap_pyfunction!(tractor_level_change, m)?)?;
    m.add_function(wrap_pyfunction!(tractor_card_points, m)?)?;
    m.add_function(wrap_pyfunction!(tractor_declare_values, m)?)?;
    m.add_function(wrap_pyfunction!(tractor_rule_declare, m)?)?;
    m.add_function(wrap_pyfunction!(tractor_rule_burial, m)?)?;
    Ok(())
}
