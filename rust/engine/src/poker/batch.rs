//! Ranking many hands at once: rows of card indices in one flat buffer, split
//! across threads (each row's result depends only on the row).

use super::eval::HandKey;
use crate::cards::Card;
use crate::error::{EngineError, Result};

/// Ranks `rows` (a row-major buffer of card indices 0..=51, `width` = 5, 6 or 7
/// per row) into `HandRank::value`s. A row with an index above 51 or a repeated
/// card is an error naming the first such row.
pub fn rank_rows(rows: &[u8], width: usize, threads: usize) -> Result<Vec<u32>> {
    if !(5..=7).contains(&width) {
        return Err(EngineError::InvalidCard(format!(
            "each hand needs 5, 6 or 7 cards, got rows of {width}"
        )));
    }
    let n = rows.len() / width;
    let mut out = vec![0u32; n];
    let per_thread = n.div_ceil(threads.max(1)).max(1 << 12);
    let all_valid = std::thread::scope(|scope| {
        let handles: Vec<_> = rows
            .chunks(per_thread * width)
            .zip(out.chunks_mut(per_thread))
            .map(|(input, output)| scope.spawn(move || rank_chunk(input, width, output)))
            .collect();
        handles.into_iter().all(|h| h.join().unwrap_or(false))
    });
    if all_valid {
        return Ok(out);
    }
    let (row, cards) = rows
        .chunks_exact(width)
        .enumerate()
        .find(|(_, r)| !valid_row(r))
        .unwrap_or((0, &rows[..0]));
    Err(EngineError::InvalidCard(format!(
        "row {row} is not a hand of distinct cards 0..=51: {cards:?}"
    )))
}

fn valid_row(row: &[u8]) -> bool {
    let mask = row.iter().fold(0u64, |m, &i| m | 1u64 << (i & 63));
    row.iter().all(|&i| i < 52) && mask.count_ones() as usize == row.len()
}

/// Ranks one slice of rows; false if any row was invalid (its value is then 0).
fn rank_chunk(input: &[u8], width: usize, output: &mut [u32]) -> bool {
    let mut valid = true;
    for (row, slot) in input.chunks_exact(width).zip(output.iter_mut()) {
        if valid_row(row) {
            let hand = row.iter().fold(HandKey::EMPTY, |h, &i| {
                h.with(Card::from_index_unchecked(i))
            });
            *slot = hand.rank().value();
        } else {
            valid = false;
        }
    }
    valid
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poker::rank_cards;
    use crate::rng::CardRng;

    #[test]
    fn batch_matches_single_hands_for_any_thread_count() {
        let mut rng = CardRng::new(3);
        let mut deck: Vec<u8> = (0..52).collect();
        for width in 5..=7 {
            let mut rows = Vec::new();
            for _ in 0..10_000 {
                rng.shuffle(&mut deck);
                rows.extend_from_slice(&deck[..width]);
            }
            let one = rank_rows(&rows, width, 1).unwrap();
            assert_eq!(rank_rows(&rows, width, 3).unwrap(), one);
            for (row, value) in rows.chunks_exact(width).zip(&one) {
                let cards: Vec<Card> = row
                    .iter()
                    .map(|&i| Card::from_index(u32::from(i)).unwrap())
                    .collect();
                assert_eq!(rank_cards(&cards).unwrap().value(), *value);
            }
        }
    }

    #[test]
    fn bad_rows_are_named() {
        let err = rank_rows(&[0, 1, 2, 3, 4, 0, 1, 2, 3, 3], 5, 2).unwrap_err();
        assert!(err.to_string().contains("row 1"), "{err}");
        let err = rank_rows(&[0, 1, 2, 3, 52], 5, 1).unwrap_err();
        assert!(err.to_string().contains("row 0"), "{err}");
        assert!(rank_rows(&[0, 1, 2, 3], 4, 1).is_err());
        assert_eq!(rank_rows(&[], 7, 2).unwrap(), Vec::<u32>::new());
    }
}
