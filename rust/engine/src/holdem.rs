//! Texas Hold'em's observation tensor, written in one place for the State API
//! (`BettingCore.write_observation`, called by python/cardkit/games/holdem.py)
//! and the vector env (`vector::holdem`). The layout is in docs/holdem.md.

use crate::betting::Betting;
use crate::cards::Card;
use crate::error::{EngineError, Result};

/// Offsets of the tensor's fixed fields: hole (52), board (52), street (4), then
/// pot, to call, raise minimum and maximum; the per-seat rows follow.
pub const BOARD: usize = 52;
pub const STREET: usize = 2 * 52;
pub const HEAD: usize = STREET + 4 + 4;
/// Per-seat rows: stack, bet, committed, dealt, folded, all-in, button, small
/// blind, big blind, to act, checked, called, raises.
pub const ROWS: usize = 13;
pub const ROW_CHECKED: usize = 10;
pub const ROW_CALLED: usize = 11;
pub const ROW_RAISES: usize = 12;
/// Bets and raises of one seat in one street, as a fraction of this many.
pub const RAISES_SCALE: f64 = 4.0;

/// What the tensor is written from: the hand's betting and cards, positions and
/// this street's actions. Only `holes[seat]` of the observing seat is read; the
/// other entries say only whether a seat was dealt in.
pub struct HoldemView<'a> {
    pub betting: &'a Betting,
    /// Every chip at the table, the scale of all chip counts.
    pub total: f64,
    pub holes: &'a [Option<[Card; 2]>],
    pub board: &'a [Card],
    pub button: usize,
    pub small_blind: usize,
    pub big_blind: usize,
    pub to_act: Option<usize>,
    /// `(seat, row)` of this street's checks, calls, bets and raises, in order.
    pub street_actions: &'a [(usize, usize)],
}

/// The tensor's length at a table of `seats` seats.
pub fn observation_len(seats: usize) -> usize {
    HEAD + ROWS * seats
}

/// `value / total` as Python's true division, stored as float32.
fn share(value: u64, total: f64) -> f32 {
    (value as f64 / total) as f32
}

/// Write `seat`'s tensor into `out` (its whole length is written).
pub fn write_observation(v: &HoldemView<'_>, seat: usize, out: &mut [f32]) -> Result<()> {
    let b = v.betting;
    let n = b.stacks.len();
    let bad = |what: String| Err(EngineError::RuleOption(what));
    if out.len() != observation_len(n) {
        return bad(format!(
            "the observation of {n} seats has {} values, got an array of {}",
            observation_len(n),
            out.len()
        ));
    }
    let positions = [v.button, v.small_blind, v.big_blind];
    if seat >= n
        || v.holes.len() != n
        || v.board.len() > 5
        || positions.iter().chain(v.to_act.iter()).any(|&p| p >= n)
        || v.street_actions
            .iter()
            .any(|&(s, row)| s >= n || !(ROW_CHECKED..=ROW_RAISES).contains(&row))
        || v.total.is_nan()
        || v.total < 1.0
    {
        return bad(format!(
            "an inconsistent Hold'em position for seat {seat} of {n}"
        ));
    }
    out.fill(0.0);
    if let Some(hole) = v.holes[seat] {
        for c in hole {
            out[usize::from(c.index())] = 1.0;
        }
    }
    for c in v.board {
        out[BOARD + usize::from(c.index())] = 1.0;
    }
    let street = match v.board.len() {
        0 => 0,
        3 => 1,
        4 => 2,
        _ => 3,
    };
    out[STREET + street] = 1.0;
    let (low, high) = if v.to_act == Some(seat) {
        b.raise_range(seat).unwrap_or((0, 0))
    } else {
        (0, 0)
    };
    let owed = b.current_bet.saturating_sub(b.bets[seat]);
    let head = &mut out[STREET + 4..HEAD];
    for (slot, value) in head.iter_mut().zip([b.pot(), owed, low, high]) {
        *slot = share(value, v.total);
    }
    let rows = &mut out[HEAD..];
    // The observer's column first, then clockwise: seat s in column (s - seat) mod n.
    for col in 0..n {
        let s = (seat + col) % n;
        let dealt = v.holes[s].is_some();
        let folded = dealt && b.folded[s];
        let cells = [
            share(b.stacks[s], v.total),
            share(b.bets[s], v.total),
            share(b.committed[s], v.total),
            f32::from(u8::from(dealt)),
            f32::from(u8::from(folded)),
            f32::from(u8::from(dealt && !folded && b.stacks[s] == 0)),
        ];
        for (row, value) in cells.into_iter().enumerate() {
            rows[row * n + col] = value;
        }
    }
    let marks = [
        Some(v.button),
        Some(v.small_blind),
        Some(v.big_blind),
        v.to_act,
    ];
    for (row, at) in marks.into_iter().enumerate() {
        if let Some(at) = at {
            rows[(6 + row) * n + (at + n - seat) % n] = 1.0;
        }
    }
    for &(actor, row) in v.street_actions {
        let cell = &mut rows[row * n + (actor + n - seat) % n];
        let step = if row == ROW_RAISES {
            1.0 / RAISES_SCALE
        } else {
            1.0
        };
        *cell = (f64::from(*cell) + step).min(1.0) as f32;
    }
    Ok(())
}
