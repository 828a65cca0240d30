//! The Tractor observation tensor (docs/tractor.md, "Learning interface"): its
//! layout, and the writer of what a deal's card play knows. The match part
//! (phase, dealer, declaration, trumps, levels, kitty) is written by the Python
//! state at the offsets given here.
//!
//! Seats are relative to the observing seat: `r` is seat `(seat + r) % 4` (0 self,
//! 1 next, 2 partner, 3 previous). Per-card slices hold a count (0, 1 or 2) per
//! card type in card-index order (the `french54` deck).

use super::deal::{Deal, SEATS};
use super::{Hand, Kind, MAX_TRACTOR};
use crate::cards::NUM_CARDS;

/// Own hand (a follow being chosen included).
pub const HAND: usize = 0;
/// The cards the seat has chosen so far for its follow.
pub const CHOSEN: usize = HAND + NUM_CARDS;
/// Cards each relative seat has played this deal (4 x 54).
pub const PLAYED: usize = CHOSEN + NUM_CARDS;
/// This trick's cards by relative seat (4 x 54).
pub const TRICK: usize = PLAYED + SEATS * NUM_CARDS;
/// The lead's kind (single, pair, tractor), one-hot, then its pairs / 12.
pub const LEAD: usize = TRICK + SEATS * NUM_CARDS;
/// Who leads the trick, relative one-hot (zero before the card play).
pub const LEADER: usize = LEAD + 4;
/// Whose turn it is, relative one-hot (zero once over).
pub const TO_ACT: usize = LEADER + SEATS;
/// Card points each relative seat has taken, / 200 (public, as the text has it).
pub const POINTS: usize = TO_ACT + SEATS;
/// Completed tricks / 25.
pub const TRICKS: usize = POINTS + SEATS;
/// Declaring, burying, card play, one-hot (zero once over). Written by Python.
pub const PHASE: usize = TRICKS + 1;
/// The dealer, relative one-hot (zero until known). Written by Python.
pub const DEALER: usize = PHASE + 3;
/// The standing declaration: declarer relative one-hot, then its strength
/// one-hot (level card, level pair, black jokers, red jokers). Written by Python.
pub const DECLARATION: usize = DEALER + SEATS;
/// The level rank of the deal, one-hot `2..A`. Written by Python.
pub const LEVEL: usize = DECLARATION + 2 * SEATS;
/// The trump suit (c, d, h, s) or no-trump, one-hot, once fixed. Written by Python.
pub const TRUMP: usize = LEVEL + 13;
/// Own team's level, then the other team's, one-hot over `2..A`. Written by Python.
pub const TEAM_LEVELS: usize = TRUMP + 5;
/// The kitty as this seat knows it: the buried cards for the dealer, the exposed
/// kitty for everyone when nobody declared. Written by Python.
pub const KITTY: usize = TEAM_LEVELS + 26;
/// Length of the tensor.
pub const OBSERVATION_LEN: usize = KITTY + NUM_CARDS;

/// `(name, length)` of each slice, in order.
pub const LAYOUT: [(&str, usize); 16] = [
    ("hand", CHOSEN - HAND),
    ("chosen", PLAYED - CHOSEN),
    ("played", TRICK - PLAYED),
    ("trick", LEAD - TRICK),
    ("lead", LEADER - LEAD),
    ("leader", TO_ACT - LEADER),
    ("to_act", POINTS - TO_ACT),
    ("points", TRICKS - POINTS),
    ("tricks", PHASE - TRICKS),
    ("phase", DEALER - PHASE),
    ("dealer", DECLARATION - DEALER),
    ("declaration", LEVEL - DECLARATION),
    ("level", TRUMP - LEVEL),
    ("trump", TEAM_LEVELS - TRUMP),
    ("team_levels", KITTY - TEAM_LEVELS),
    ("kitty", OBSERVATION_LEN - KITTY),
];

/// Add the counts of `cards` to the 54 entries at `out[at..]`.
pub fn write_cards(out: &mut [f32], at: usize, cards: &Hand) {
    let mut bits = cards.one;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        out[at + i] += 1.0;
    }
    let mut bits = cards.two;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        out[at + i] += 1.0;
    }
}

/// Write what `seat` knows of `deal`'s card play into `out` (zeros of
/// [`OBSERVATION_LEN`]); `playing` false writes only the hand and the turn (a deal
/// standing for the hands while declaring or burying).
pub fn write(deal: &Deal, seat: usize, playing: bool, out: &mut [f32]) {
    let rel = |s: usize| (s + SEATS - seat) % SEATS;
    write_cards(out, HAND, &deal.hand(seat));
    if let Some(to_move) = deal.to_move() {
        out[TO_ACT + rel(usize::from(to_move))] = 1.0;
    }
    if !playing {
        return;
    }
    if deal.to_move() == Some(seat as u8) {
        write_cards(out, CHOSEN, &deal.chosen());
    }
    for s in 0..SEATS {
        write_cards(out, PLAYED + rel(s) * NUM_CARDS, &deal.played()[s]);
        write_cards(out, TRICK + rel(s) * NUM_CARDS, &deal.trick()[s]);
        out[POINTS + rel(s)] = deal.points()[s] as f32 / 200.0;
    }
    if let Some(lead) = deal.lead() {
        let k = match lead.kind {
            Kind::Single => 0,
            Kind::Pair => 1,
            Kind::Tractor(_) => 2,
        };
        out[LEAD + k] = 1.0;
        out[LEAD + 3] = lead.kind.pairs() as f32 / MAX_TRACTOR as f32;
    }
    if !deal.is_over() {
        out[LEADER + rel(usize::from(deal.leader()))] = 1.0;
    }
    out[TRICKS] = deal.tricks() as f32 / 25.0;
}
