//! Ranking many hands at once: rows of card indices in one flat buffer, split
//! across threads (each row's result depends only on the row).

use super::eval::{card_keys, tables, HandRank, FLUSH_BITS, SUIT_BIAS, SUIT_SHIFT};
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

/// Ranks one slice of rows; false if any row was invalid (its value is then
/// unspecified: the caller reports the row as an error).
fn rank_chunk(input: &[u8], width: usize, output: &mut [u32]) -> bool {
    match width {
        5 => rank_fixed::<5>(input, output),
        6 => rank_fixed::<6>(input, output),
        _ => rank_fixed::<7>(input, output),
    }
}

/// Per byte value of a row: the card's hand key in the low 64 bits and its bit in
/// the high 64. Summing a row's entries gives its key and, for distinct cards, the
/// sum of distinct bits, whose popcount is then the row's width (a repeated card
/// carries and loses a bit). Bytes above 51 carry bit 60 alone, which no sum of at
/// most seven card bits (all below 2^52) reaches.
static ROW_ENTRIES: [u128; 256] = {
    let keys = card_keys();
    let mut entries = [0u128; 256];
    let mut i = 0;
    while i < 256 {
        entries[i] = if i < 52 {
            (1u128 << (64 + i)) | keys[i] as u128
        } else {
            1u128 << (64 + 60)
        };
        i += 1;
    }
    entries
};

/// The hot loop of [`rank_rows`] for rows of `W` cards: one table add per card,
/// validation without branches, and the suited rank masks gathered only for the
/// few rows whose key shows a flush.
#[inline(always)]
fn rank_fixed<const W: usize>(input: &[u8], output: &mut [u32]) -> bool {
    let t = tables();
    let mut bad = false;
    for (row, slot) in input.chunks_exact(W).zip(output.iter_mut()) {
        // A fixed-size row lets the card loop unroll completely.
        let Ok(row) = <&[u8; W]>::try_from(row) else {
            continue;
        };
        let sum = row
            .iter()
            .fold(0u128, |acc, &i| acc + ROW_ENTRIES[usize::from(i)]);
        let key = SUIT_BIAS + sum as u64;
        let bits = (sum >> 64) as u64;
        bad |= (bits >> 52 != 0) | (bits.count_ones() as usize != W);
        let flush = key & FLUSH_BITS;
        let class = if flush == 0 {
            t.rank_class(key as u32)
        } else {
            let suit = ((flush.trailing_zeros() - SUIT_SHIFT - 3) >> 2) as u8;
            let mask = row
                .iter()
                .filter(|&&i| i & 3 == suit)
                .fold(0u16, |m, &i| m | 1 << ((i >> 2) & 15));
            t.flush_class(mask)
        };
        *slot = HandRank::from_class(class).value();
    }
    !bad
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
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
        // Repeats that carry into other card bits, indices far above 51.
        let err = rank_rows(&[0, 0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 255], 7, 1).unwrap_err();
        assert!(err.to_string().contains("row 0"), "{err}");
        let err = rank_rows(
            &[8, 9, 10, 11, 12, 13, 14, 51, 50, 49, 48, 47, 63, 45],
            7,
            1,
        )
        .unwrap_err();
        assert!(err.to_string().contains("row 1"), "{err}");
        for dup in 0..7 {
            let mut row = [3u8, 17, 22, 30, 41, 50, 51];
            row[(dup + 1) % 7] = row[dup];
            assert!(rank_rows(&row, 7, 1).is_err(), "{row:?}");
        }
        assert_eq!(rank_rows(&[], 7, 2).unwrap(), Vec::<u32>::new());
    }
}
