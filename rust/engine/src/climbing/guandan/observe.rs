//! The Guandan observation tensor (docs/guandan.md, "Learning interface"): its
//! layout, and the writer of the part a deal's card play knows, shared by the
//! Python state (`GuandanDeal.write_observation`) and the vector env.
//!
//! Seats are relative to the observing seat: `r` is seat `(seat + r) % 4` (0
//! self, 1 next, 2 partner, 3 previous). Per-card slices hold a count (0, 1 or 2)
//! per card type, in card-index order (the `french54` deck). The match part (team
//! levels, phase, tribute and return) is written by its owner: the Python state,
//! or for single deals the vector env.

use super::deal::{Deal, SEATS};
use super::{Hand, KINDS, RANK_TEXT};
use crate::cards::NUM_CARDS;

/// Level ranks `2..A`.
const LEVELS: usize = 13;

/// Own hand.
pub const HAND: usize = 0;
/// Cards each relative seat has played this deal (4 x 54).
pub const PLAYED: usize = HAND + NUM_CARDS;
/// Cards left per relative seat, as plain counts.
pub const CARD_COUNTS: usize = PLAYED + SEATS * NUM_CARDS;
/// The cards the table's play took (zero when the seat to act leads).
pub const TABLE_CARDS: usize = CARD_COUNTS + SEATS;
/// The table's shape, one-hot in [`KINDS`] order.
pub const TABLE_TYPE: usize = TABLE_CARDS + NUM_CARDS;
/// The table's main rank, one-hot over `2..A` then the jokers.
pub const TABLE_RANK: usize = TABLE_TYPE + KINDS.len();
/// Who played the table, relative one-hot.
pub const TABLE_OWNER: usize = TABLE_RANK + RANK_TEXT.len();
/// The deal's level rank, one-hot.
pub const LEVEL: usize = TABLE_OWNER + SEATS;
/// The own team's level, then the other team's, one-hot each.
pub const TEAM_LEVELS: usize = LEVEL + LEVELS;
/// Whose turn it is, relative one-hot (zero once over).
pub const TO_ACT: usize = TEAM_LEVELS + 2 * LEVELS;
/// Each relative seat's place (4 x one-hot over places 1-4, zero until it is out).
pub const PLACES: usize = TO_ACT + SEATS;
/// Returning tribute or the card play, one-hot (zero once over).
pub const PHASE: usize = PLACES + SEATS * SEATS;
/// Per relative seat: paid tribute, received tribute.
pub const TRIBUTE: usize = PHASE + 2;
/// Whether the tribute was refused (抗贡).
pub const ANTI_TRIBUTE: usize = TRIBUTE + 2 * SEATS;
/// The cards the seat gave as tribute or return.
pub const GIVEN: usize = ANTI_TRIBUTE + 1;
/// The cards the seat received as tribute or return.
pub const RECEIVED: usize = GIVEN + NUM_CARDS;
/// Length of the tensor.
pub const OBSERVATION_LEN: usize = RECEIVED + NUM_CARDS;

/// `(name, length)` of each slice, in order: the layout `OBSERVATION_LAYOUT`
/// gives in Python.
pub const LAYOUT: [(&str, usize); 16] = [
    ("hand", PLAYED - HAND),
    ("played", CARD_COUNTS - PLAYED),
    ("card_counts", TABLE_CARDS - CARD_COUNTS),
    ("table_cards", TABLE_TYPE - TABLE_CARDS),
    ("table_type", TABLE_RANK - TABLE_TYPE),
    ("table_rank", TABLE_OWNER - TABLE_RANK),
    ("table_owner", LEVEL - TABLE_OWNER),
    ("level", TEAM_LEVELS - LEVEL),
    ("team_levels", TO_ACT - TEAM_LEVELS),
    ("to_act", PLACES - TO_ACT),
    ("places", PHASE - PLACES),
    ("phase", TRIBUTE - PHASE),
    ("tribute", ANTI_TRIBUTE - TRIBUTE),
    ("anti_tribute", GIVEN - ANTI_TRIBUTE),
    ("given", RECEIVED - GIVEN),
    ("received", OBSERVATION_LEN - RECEIVED),
];

fn write_cards(hand: &Hand, out: &mut [f32]) {
    for (slot, &n) in out.iter_mut().zip(hand.counts.iter()) {
        *slot = f32::from(n);
    }
}

/// Write what `deal`'s card play shows `seat` (0..=3) into `out`, a tensor of
/// zeros [`OBSERVATION_LEN`] long: the own hand, each seat's played cards, card
/// counts, the table (cards, shape, main rank, owner), the level, whose turn it
/// is and the places. The other slices are left as they are.
pub fn write_card_play(deal: &Deal, seat: usize, out: &mut [f32]) {
    let seat = seat % SEATS;
    let rel = |s: u8| (usize::from(s) + SEATS - seat) % SEATS;
    write_cards(deal.hand(seat), &mut out[HAND..PLAYED]);
    for r in 0..SEATS {
        let other = (seat + r) % SEATS;
        let at = PLAYED + NUM_CARDS * r;
        write_cards(deal.played(other), &mut out[at..at + NUM_CARDS]);
        out[CARD_COUNTS + r] = deal.hand(other).len() as f32;
    }
    if let Some(table) = deal.table() {
        write_cards(deal.table_cards(), &mut out[TABLE_CARDS..TABLE_TYPE]);
        if let Some(k) = KINDS.iter().position(|&k| k == table.kind) {
            out[TABLE_TYPE + k] = 1.0;
        }
        if let Some(r) = RANK_TEXT.iter().position(|&c| c == table.main_rank()) {
            out[TABLE_RANK + r] = 1.0;
        }
        out[TABLE_OWNER + rel(deal.owner())] = 1.0;
    }
    out[LEVEL + usize::from(deal.level())] = 1.0;
    if let Some(to_move) = deal.to_move() {
        out[TO_ACT + rel(to_move)] = 1.0;
    }
    for (place, &s) in deal.places().iter().enumerate() {
        out[PLACES + SEATS * rel(s) + place] = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn hand(text: &str) -> Hand {
        Hand::from_cards(&parse_cards(text).unwrap()).unwrap()
    }

    #[test]
    fn the_layout_covers_the_tensor() {
        assert_eq!(
            LAYOUT.iter().map(|&(_, n)| n).sum::<usize>(),
            OBSERVATION_LEN
        );
        assert_eq!(OBSERVATION_LEN, 535);
    }

    #[test]
    fn the_card_play_part_follows_the_deal() {
        let level = 0;
        let hands = [hand("3c3d4c"), hand("5c9c"), hand("6c"), hand("7c8c")];
        let mut deal = Deal::new(hands, level, 0, false).unwrap();
        let pair = super::super::parse("33", Some(level)).unwrap();
        deal.apply(Some(&pair)).unwrap();
        let mut out = [0.0f32; OBSERVATION_LEN];
        // Seat 1 sees seat 0 as its previous seat (relative 3).
        write_card_play(&deal, 1, &mut out);
        let three_clubs = usize::from(parse_cards("3c").unwrap()[0].index());
        assert_eq!(out[PLAYED + 3 * NUM_CARDS + three_clubs], 1.0);
        assert_eq!(out[TABLE_CARDS..TABLE_TYPE].iter().sum::<f32>(), 2.0);
        assert_eq!(out[TABLE_TYPE + 1], 1.0, "a pair");
        assert_eq!(out[TABLE_RANK + 1], 1.0, "of threes");
        assert_eq!(out[TABLE_OWNER + 3], 1.0);
        // Seats 1, 2, 3, 0 hold two, one, two and one cards.
        assert_eq!(&out[CARD_COUNTS..TABLE_CARDS], &[2.0, 1.0, 2.0, 1.0]);
        assert_eq!(out[LEVEL], 1.0);
        assert_eq!(out[TO_ACT], 1.0, "seat 1 acts");
        assert!(out[PLACES..PHASE].iter().all(|&x| x == 0.0));
    }
}
