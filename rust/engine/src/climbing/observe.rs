//! The card-play part of the climbing games' observation tensors (DouZero-style
//! card-count planes), written from one seat's view with the seats rotated so that
//! the observing seat is first: relative seat `r` is seat `(seat + r) % 3`, the
//! order of play.
//!
//! A *plane* is [`PLANE`] floats: for each climbing rank `3 .. A 2 B R` (0..=14),
//! four thermometer entries, entry `4 * rank + k` being 1 when the count is above
//! `k`. Layout, from offset 0 (`H` is the game's hand size bound, [`max_hand`]):
//!
//! | offset | length | meaning |
//! | ---: | ---: | --- |
//! | 0 | 60 | own hand |
//! | 60 | 60 | cards not seen: the pack less the own hand and every played card |
//! | 120 | 180 | cards each relative seat has played |
//! | 300 | 60 | the table to beat (zero when the seat to act leads) |
//! | 360 | 3 | who played the table, relative one-hot (zero when leading) |
//! | 363 | 3 (H + 1) | cards left per relative seat, one-hot 0..H |
//! | 366 + 3H | 3 | whether each relative seat has played at least once |
//! | 369 + 3H | 14 | bombs played so far (rockets and ace bombs too), thermometer |
//!
//! Everything here is public to every seat except the own hand, so the tensor
//! holds nothing the seat may not know.

use super::playout::{pack, Deal, Game};
use super::{doudizhu as ddz, zhengshangyou as zsy, Ranks, NUM_RANKS};

/// Floats of one card-count plane.
pub const PLANE: usize = NUM_RANKS * 4;
/// Bombs the thermometer counts: four-card bombs of all thirteen ranks and the
/// rocket (Dou Dizhu), or eleven four-card bombs and the ace bomb (Zheng Shangyou).
pub const MAX_BOMBS: usize = 14;

/// The most cards a hand of `game` holds (Dou Dizhu's landlord: 20).
pub fn max_hand(game: Game) -> usize {
    match game {
        Game::DouDizhu { .. } => ddz::MAX_PLAY_CARDS,
        Game::ZhengShangyou => zsy::MAX_PLAY_CARDS,
    }
}

/// Length of the card-play part for hands of at most `max_hand` cards.
pub fn card_play_len(max_hand: usize) -> usize {
    6 * PLANE + 3 + 3 * (max_hand + 1) + 3 + MAX_BOMBS
}

/// The four entries of a rank in a plane, by its count (counts above four read as four).
const THERMOMETER: [[f32; 4]; 5] = [
    [0.0, 0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0, 0.0],
    [1.0, 1.0, 0.0, 0.0],
    [1.0, 1.0, 1.0, 0.0],
    [1.0, 1.0, 1.0, 1.0],
];

/// Write `ranks` as a plane into `out` (at least [`PLANE`] long), every one of its
/// [`PLANE`] floats, zeros included: each rank is one copy of four floats, so an
/// observation written every step costs no per-card loop and no zeroing first.
pub fn write_plane(ranks: &Ranks, out: &mut [f32]) {
    for (cell, &count) in out[..PLANE].chunks_exact_mut(4).zip(&ranks.0) {
        cell.copy_from_slice(&THERMOMETER[usize::from(count.min(4))]);
    }
}

/// Write the card-play part of `seat`'s observation of `deal` into the front of
/// `out` (at least [`card_play_len`] long): every float of the part, whatever
/// `out` held before. `played` holds the ranks each seat has played. Returns the
/// length written.
pub fn write_card_play(deal: &Deal, played: &[Ranks; 3], seat: u8, out: &mut [f32]) -> usize {
    let seat = usize::from(seat % 3);
    let rel = |r: usize| (seat + r) % 3;
    let hand_max = max_hand(deal.game);
    let own = &deal.hands[seat];
    write_plane(own, &mut out[..PLANE]);
    let mut unseen = pack(matches!(deal.game, Game::DouDizhu { .. })).minus(own);
    for p in played {
        unseen = unseen.minus(p);
    }
    write_plane(&unseen, &mut out[PLANE..2 * PLANE]);
    for r in 0..3 {
        let at = (2 + r) * PLANE;
        write_plane(&played[rel(r)], &mut out[at..at + PLANE]);
    }
    let mut at = 5 * PLANE;
    let end = card_play_len(hand_max);
    // The one-hot and flag entries after the planes: cleared, then set.
    out[at + PLANE..end].fill(0.0);
    match &deal.table {
        Some(table) => {
            write_plane(&table.cards, &mut out[at..at + PLANE]);
            out[at + PLANE + (usize::from(deal.table_owner) + 3 - seat) % 3] = 1.0;
        }
        None => out[at..at + PLANE].fill(0.0),
    }
    at += PLANE + 3;
    for r in 0..3 {
        out[at + deal.hands[rel(r)].len().min(hand_max)] = 1.0;
        at += hand_max + 1;
    }
    for r in 0..3 {
        out[at + r] = f32::from(u8::from(deal.plays[rel(r)] > 0));
    }
    at += 3;
    for slot in &mut out[at..at + usize::from(deal.bombs).min(MAX_BOMBS)] {
        *slot = 1.0;
    }
    at + MAX_BOMBS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::climbing::playout::random_deal;
    use crate::rng::CardRng;

    #[test]
    fn planes_count_ranks_and_the_layout_fills_its_length() {
        let mut out = [0.0f32; PLANE];
        write_plane(&Ranks::parse("3335R").unwrap(), &mut out);
        assert_eq!(&out[..8], &[1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(&out[8..12], &[1.0, 0.0, 0.0, 0.0]);
        assert_eq!(out.iter().sum::<f32>(), 5.0);
        // A plane overwrites whatever was there: zeros included.
        let mut stale = [7.0f32; PLANE + 1];
        write_plane(&Ranks::parse("3335R").unwrap(), &mut stale);
        assert_eq!(&stale[..PLANE], &out[..]);
        assert_eq!(stale[PLANE], 7.0);
        let mut rng = CardRng::new(3);
        for is_ddz in [true, false] {
            let deal = random_deal(is_ddz, &mut rng);
            let len = card_play_len(max_hand(deal.game));
            let mut obs = vec![0.0f32; len];
            let played = [Ranks::default(); 3];
            assert_eq!(write_card_play(&deal, &played, 1, &mut obs), len);
            // The part is written whole over stale values.
            let mut stale = vec![9.0f32; len];
            write_card_play(&deal, &played, 1, &mut stale);
            assert_eq!(stale, obs);
            // Own hand plus unseen cards are the whole pack.
            let cards: f32 = obs[..2 * PLANE].iter().sum();
            assert_eq!(cards as usize, pack(is_ddz).len());
            // One cards-left entry per seat.
            let left = &obs[6 * PLANE + 3..6 * PLANE + 3 + 3 * (max_hand(deal.game) + 1)];
            assert_eq!(left.iter().sum::<f32>(), 3.0);
        }
    }
}
