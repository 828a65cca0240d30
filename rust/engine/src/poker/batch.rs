//! Ranking many hands at once: rows of card indices in one flat buffer, split
//! across threads (each row's result depends only on the row).

use super::eval::{
    card_keys, tables, HandRank, Tables, FLUSH_BITS, RANK_KEYS, SUIT_BIAS, SUIT_SHIFT,
};
use super::MAX_THREADS;
use crate::cancel::{Cancel, NEVER};
use crate::error::{EngineError, Result};

/// Ranks `rows` (a row-major buffer of card indices 0..=51, `width` = 5, 6 or 7
/// per row) into `HandRank::value`s. A row with an index above 51 or a repeated
/// card is an error naming the first such row.
pub fn rank_rows(rows: &[u8], width: usize, threads: usize) -> Result<Vec<u32>> {
    let mut out = vec![0u32; rows.len() / width.max(1)];
    rank_rows_into(rows, width, threads, &mut out)?;
    Ok(out)
}

/// [`rank_rows`] into `out`, one value per row: callers that rank batch after batch
/// reuse one buffer instead of having fresh pages faulted in and zeroed each time.
/// On an error `out` holds unspecified values.
pub fn rank_rows_into(rows: &[u8], width: usize, threads: usize, out: &mut [u32]) -> Result<()> {
    rank_rows_cancellable(rows, width, threads, out, &NEVER)
}

/// Rows ranked between two checks of the cancel flag (well under a millisecond).
const CANCEL_ROWS: usize = 1 << 15;

/// [`rank_rows_into`] that stops with [`EngineError::Cancelled`] within a block
/// of rows once `cancel` is set.
pub fn rank_rows_cancellable(
    rows: &[u8],
    width: usize,
    threads: usize,
    out: &mut [u32],
    cancel: &Cancel,
) -> Result<()> {
    if !(5..=7).contains(&width) {
        return Err(EngineError::InvalidCard(format!(
            "each hand needs 5, 6 or 7 cards, got rows of {width}"
        )));
    }
    let n = rows.len() / width;
    if out.len() != n {
        return Err(EngineError::RuleOption(format!(
            "out holds {} values for {n} rows",
            out.len()
        )));
    }
    let per_thread = n.div_ceil(threads.clamp(1, MAX_THREADS)).max(1 << 12);
    let mut chunks = rows
        .chunks(per_thread * width)
        .zip(out.chunks_mut(per_thread));
    // The first chunk runs on the calling thread: a single-chunk call spawns none.
    let first = chunks.next();
    let rank = |input: &[u8], output: &mut [u32]| {
        let blocks = input
            .chunks(CANCEL_ROWS * width)
            .zip(output.chunks_mut(CANCEL_ROWS));
        let mut ok = true;
        for (input, output) in blocks {
            if cancel.is_cancelled() {
                break;
            }
            ok &= rank_chunk(input, width, output);
        }
        ok
    };
    let all_valid = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .map(|(input, output)| scope.spawn(move || rank(input, output)))
            .collect();
        let here = first.is_none_or(|(input, output)| rank(input, output));
        handles
            .into_iter()
            .fold(here, |ok, h| h.join().unwrap_or(false) && ok)
    });
    cancel.check()?;
    if all_valid {
        return Ok(());
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
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has just been found to support both features the
        // function is compiled for.
        return unsafe { x86::rank_chunk(input, width, output) };
    }
    rank_chunk_portable(input, width, output)
}

fn rank_chunk_portable(input: &[u8], width: usize, output: &mut [u32]) -> bool {
    match width {
        5 => rank_fixed::<5>(input, output),
        6 => rank_fixed::<6>(input, output),
        _ => rank_fixed::<7>(input, output),
    }
}

/// Bits of the row mask that no card uses (ranks 13..=15 of each suit's 16 bits).
const UNUSED_BITS: u64 = 0xe000_e000_e000_e000;

/// Per byte value of a row: the card's hand key in the low 64 bits and its bit
/// `16 * suit + rank` in the high 64 (as in `HandKey`). Summing a row's entries
/// gives its key and, for distinct cards, the union of their bits: the suited rank
/// masks for the flush table, with popcount equal to the row's width (a repeated
/// card carries and loses a bit). Bytes above 51 carry bit 13 alone, which no card
/// has: a row with one such byte and no repeat shows it in [`UNUSED_BITS`], and a
/// sum of at most seven entries (all below 2^61) cannot overflow.
static ROW_ENTRIES: [u128; 256] = {
    let keys = card_keys();
    let mut entries = [0u128; 256];
    let mut i = 0;
    while i < 256 {
        entries[i] = if i < 52 {
            (1u128 << (64 + 16 * (i & 3) + (i >> 2))) | keys[i] as u128
        } else {
            1u128 << (64 + 13)
        };
        i += 1;
    }
    entries
};

/// One row of `W` cards: its `HandRank` value and whether it is a hand of `W`
/// distinct cards 0..=51.
#[inline(always)]
fn rank_row<const W: usize>(t: &Tables, row: &[u8; W]) -> (u32, bool) {
    let sum = row
        .iter()
        .fold(0u128, |acc, &i| acc + ROW_ENTRIES[usize::from(i)]);
    let key = SUIT_BIAS + sum as u64;
    let bits = (sum >> 64) as u64;
    let valid = (bits & UNUSED_BITS == 0) & (bits.count_ones() as usize == W);
    let flush = key & FLUSH_BITS;
    let class = if flush == 0 {
        t.rank_class(key as u32)
    } else {
        let suit = (flush.trailing_zeros() - SUIT_SHIFT - 3) >> 2;
        t.flush_class((bits >> (16 * suit)) as u16)
    };
    (HandRank::from_class(class).value(), valid)
}

/// The portable loop of [`rank_rows`] for rows of `W` cards: one table add per
/// card, validation without branches, and the flush table only for the few rows
/// whose key shows a flush.
#[inline(always)]
fn rank_fixed<const W: usize>(input: &[u8], output: &mut [u32]) -> bool {
    let t = tables();
    let mut valid = true;
    for (row, slot) in input.chunks_exact(W).zip(output.iter_mut()) {
        // A fixed-size row lets the card loop unroll completely.
        let Ok(row) = <&[u8; W]>::try_from(row) else {
            continue;
        };
        let (value, ok) = rank_row::<W>(t, row);
        *slot = value;
        valid &= ok;
    }
    valid
}

/// AVX2: four rows per step, one row per 64-bit lane. Each row's card bytes are
/// turned into table bytes by `vpshufb` and summed by `vpsadbw`, which gives its
/// rank key and suit counts; repeats and bytes above 51 are found by comparing the
/// row with its rotations (`vpshufb` again). The perfect-hash lookups run after a
/// block of keys is ready, in a loop of independent loads, and rows with a flush
/// (about one in thirty) are ranked again by the portable code.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{rank_chunk_portable, rank_row, RANK_KEYS};
    use crate::poker::eval::{tables, HandRank};
    use std::arch::x86_64::*;

    /// Bytes of one four-row step that a 32-byte load must cover.
    const LOAD: usize = 32;
    /// Rows whose keys are computed before any of them is looked up: one bit each
    /// in a `u64` of flush rows.
    const BLOCK: usize = 64;
    /// How far ahead of the current step input is prefetched, in bytes.
    const PREFETCH: usize = 1024;

    #[target_feature(enable = "avx2,popcnt")]
    pub(super) fn rank_chunk(input: &[u8], width: usize, output: &mut [u32]) -> bool {
        match width {
            5 => rank_steps::<5>(input, output),
            6 => rank_steps::<6>(input, output),
            _ => rank_steps::<7>(input, output),
        }
    }

    /// Packs 8 bytes into the little-endian `i64` that `_mm256_setr_epi64x` takes.
    const fn pack(bytes: [u8; 8]) -> i64 {
        i64::from_le_bytes(bytes)
    }

    /// Places row `r` of a 32-byte load in 64-bit lane `r` (cards in bytes 0..W,
    /// zeros above): `vpermd` gives the high 128-bit lane the dwords from `4 * h`
    /// on, then `vpshufb` (which works within each 128-bit lane) picks the bytes.
    const fn row_shuffle<const W: usize>() -> ([i32; 8], [i64; 4]) {
        let h = 2 * W / 4;
        let dwords = [
            0,
            1,
            2,
            3,
            h as i32,
            h as i32 + 1,
            h as i32 + 2,
            h as i32 + 3,
        ];
        let mut lanes = [0i64; 4];
        let mut r = 0;
        while r < 4 {
            let base = if r < 2 { 0 } else { 4 * h };
            let mut bytes = [0x80u8; 8];
            let mut b = 0;
            while b < W {
                bytes[b] = (r * W + b - base) as u8;
                b += 1;
            }
            lanes[r] = pack(bytes);
            r += 1;
        }
        (dwords, lanes)
    }

    /// A `vpshufb` table (both 128-bit lanes) from 16 bytes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn table(bytes: [u8; 16]) -> __m256i {
        let lo = pack([
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        ]);
        let hi = pack([
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15],
        ]);
        _mm256_setr_epi64x(lo, hi, lo, hi)
    }

    /// A `vpshufb` control that rotates the first `w` bytes of each 8-byte row
    /// down by `d` places and zeroes the bytes above them.
    const fn rotation(w: usize, d: usize) -> [u8; 16] {
        let mut out = [0x80u8; 16];
        let mut b = 0;
        while b < w {
            out[b] = ((b + d) % w) as u8;
            out[8 + b] = (8 + (b + d) % w) as u8;
            b += 1;
        }
        out
    }

    /// Byte `byte` of each rank's key (ranks 13..=15 get 0).
    const fn rank_key_bytes(byte: u32) -> [u8; 16] {
        let mut out = [0u8; 16];
        let mut r = 0;
        while r < 13 {
            out[r] = (RANK_KEYS[r] >> (8 * byte)) as u8;
            r += 1;
        }
        out
    }

    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    fn rank_steps<const W: usize>(input: &[u8], output: &mut [u32]) -> bool {
        let t = tables();
        let (dwords, lanes) = const { row_shuffle::<W>() };
        let permute = _mm256_setr_epi32(
            dwords[0], dwords[1], dwords[2], dwords[3], dwords[4], dwords[5], dwords[6], dwords[7],
        );
        let shuffle = _mm256_setr_epi64x(lanes[0], lanes[1], lanes[2], lanes[3]);
        // 0x80 in the bytes above a row's cards: `vpshufb` maps them to 0.
        let pad = _mm256_set1_epi64x(pack(std::array::from_fn(|b| if b < W { 0 } else { 0x80 })));
        let low_nibble = _mm256_set1_epi8(0x0f);
        let suit_bits = _mm256_set1_epi8(0x03);
        let highest_card = _mm256_set1_epi8(51);
        let key_bytes = [0, 1, 2].map(|b| table(rank_key_bytes(b)));
        let rotations = [1, 2, 3].map(|d| table(rotation(W, d)));
        // One nibble per suit: clubs and diamonds in one table, hearts and spades
        // in the other; at most seven cards never overflow a nibble.
        let suits_low = table([1, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let suits_high = table([0, 0, 1, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let suit_bias = _mm256_set1_epi64x(0x3333);
        let flush_bits = _mm256_set1_epi64x(0x8888);
        let zero = _mm256_setzero_si256();
        let low_dwords = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
        let mut bad = zero;

        let steps = if input.len() >= LOAD {
            ((input.len() - LOAD) / (4 * W) + 1).min(output.len() / 4)
        } else {
            0
        };
        // Blocks of BLOCK rows: first every row's rank key (vector code), then the
        // table lookups in one tight loop, where the loads of different rows are
        // independent and overlap, then the few flush rows again.
        let mut keys = [0u32; BLOCK];
        let mut step = 0;
        while step < steps {
            let block_steps = (steps - step).min(BLOCK / 4);
            // Bit r set: row r of the block has five cards of one suit.
            let mut flush_rows = 0u64;
            for s in 0..block_steps {
                let at = (step + s) * 4 * W;
                // Cards a few blocks ahead: the hardware prefetcher alone falls
                // behind. Non-temporal, so the stream of rows read once does not
                // evict the rank tables from L2 (measured: fewer slow runs).
                _mm_prefetch::<_MM_HINT_NTA>(input.as_ptr().wrapping_add(at + PREFETCH).cast());
                let bytes = &input[at..at + LOAD];
                // SAFETY: `bytes` holds exactly the 32 bytes an unaligned load reads.
                let raw = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
                let cards = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(raw, permute), shuffle);

                // Repeats: every pair of a row's W cards meets in one of its rotations
                // by 1..=W/2 places. The padded copy never matches a rotation's byte
                // above the cards, which is a card or 0.
                let padded = _mm256_or_si256(cards, pad);
                for &rotation in &rotations[..W / 2] {
                    let rotated = _mm256_shuffle_epi8(cards, rotation);
                    bad = _mm256_or_si256(bad, _mm256_cmpeq_epi8(padded, rotated));
                }
                bad = _mm256_or_si256(bad, _mm256_subs_epu8(cards, highest_card));

                let ranks = _mm256_or_si256(
                    _mm256_and_si256(_mm256_srli_epi16::<2>(cards), low_nibble),
                    pad,
                );
                let sum = |table: __m256i, index: __m256i| {
                    _mm256_sad_epu8(_mm256_shuffle_epi8(table, index), zero)
                };
                let key = _mm256_add_epi64(
                    _mm256_add_epi64(
                        sum(key_bytes[0], ranks),
                        _mm256_slli_epi64::<8>(sum(key_bytes[1], ranks)),
                    ),
                    _mm256_slli_epi64::<16>(sum(key_bytes[2], ranks)),
                );
                let suits_index = _mm256_or_si256(_mm256_and_si256(cards, suit_bits), pad);
                let suits = _mm256_or_si256(
                    sum(suits_low, suits_index),
                    _mm256_slli_epi64::<8>(sum(suits_high, suits_index)),
                );
                let flush = _mm256_and_si256(_mm256_add_epi64(suits, suit_bias), flush_bits);
                let no_flush =
                    _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(flush, zero)));
                flush_rows |= u64::from(!no_flush as u8 & 0b1111) << (4 * s);

                // The low dword of each row's lane, packed into four u32 keys.
                let packed = _mm256_permutevar8x32_epi32(key, low_dwords);
                let four = &mut keys[4 * s..4 * s + 4];
                // SAFETY: `four` holds exactly the 16 bytes the unaligned store writes.
                unsafe {
                    _mm_storeu_si128(four.as_mut_ptr().cast(), _mm256_castsi256_si128(packed))
                };
            }
            let rows = 4 * block_steps;
            let first = 4 * step;
            let out = &mut output[first..first + rows];
            for (slot, &key) in out.iter_mut().zip(&keys[..rows]) {
                *slot = HandRank::from_class(t.rank_class(key)).value();
            }
            while flush_rows != 0 {
                let r = flush_rows.trailing_zeros() as usize;
                flush_rows &= flush_rows - 1;
                let at = (first + r) * W;
                if let Ok(row) = <&[u8; W]>::try_from(&input[at..at + W]) {
                    out[r] = rank_row::<W>(t, row).0;
                }
            }
            step += block_steps;
        }
        let done = 4 * steps;
        let tail_valid = rank_chunk_portable(&input[done * W..], W, &mut output[done..]);
        tail_valid & (_mm256_testz_si256(bad, bad) == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
    use crate::poker::rank_cards;
    use crate::rng::CardRng;

    #[test]
    fn a_cancelled_batch_stops() {
        let rows: Vec<u8> = (0..7 * 100_000).map(|i| (i % 7) as u8).collect();
        let mut out = vec![0; 100_000];
        let cancel = Cancel::new();
        cancel.cancel();
        let err = rank_rows_cancellable(&rows, 7, 2, &mut out, &cancel).unwrap_err();
        assert_eq!(err, EngineError::Cancelled);
        assert_eq!(rank_rows_cancellable(&rows, 7, 2, &mut out, &NEVER), Ok(()));
    }

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

    /// Random hands of `width` cards, `n` rows.
    fn random_rows(rng: &mut CardRng, width: usize, n: usize) -> Vec<u8> {
        let mut deck: Vec<u8> = (0..52).collect();
        let mut rows = Vec::new();
        for _ in 0..n {
            rng.shuffle(&mut deck);
            rows.extend_from_slice(&deck[..width]);
        }
        rows
    }

    #[test]
    fn dispatched_and_portable_paths_agree() {
        let mut rng = CardRng::new(8);
        for width in 5..=7 {
            // Lengths around the 32-byte loads of the vector path and its tail.
            for n in [0, 1, 4, 5, 8, 9, 13, 1000] {
                let rows = random_rows(&mut rng, width, n);
                let (mut fast, mut portable) = (vec![0; n], vec![0; n]);
                assert!(rank_chunk(&rows, width, &mut fast));
                assert!(rank_chunk_portable(&rows, width, &mut portable));
                assert_eq!(fast, portable, "width {width}, {n} rows");
            }
            // Two suits only: most rows are flushes, fixed up after the vector pass.
            let mut deck: Vec<u8> = (0..52).filter(|c| c % 4 < 2).collect();
            let mut rows = Vec::new();
            for _ in 0..1000 {
                rng.shuffle(&mut deck);
                rows.extend_from_slice(&deck[..width]);
            }
            let (mut fast, mut portable) = (vec![0; 1000], vec![0; 1000]);
            assert!(rank_chunk(&rows, width, &mut fast));
            assert!(rank_chunk_portable(&rows, width, &mut portable));
            assert_eq!(fast, portable, "width {width}, two suits");
            for (row, value) in rows.chunks_exact(width).zip(&fast) {
                let cards: Vec<Card> = row.iter().map(|&i| Card::from_index_unchecked(i)).collect();
                assert_eq!(rank_cards(&cards).unwrap().value(), *value);
            }
        }
    }

    #[test]
    fn every_defect_is_found_in_every_row_position() {
        // 12 rows: two four-row vector steps and a tail for every width.
        let mut rng = CardRng::new(9);
        for width in 5..=7 {
            let rows = random_rows(&mut rng, width, 12);
            for bad in 0..12 {
                let at = bad * width;
                let mut defects = Vec::new();
                for i in 0..width {
                    for j in i + 1..width {
                        let mut r = rows.clone();
                        r[at + j] = r[at + i];
                        defects.push(r);
                    }
                    for value in [52, 55, 63, 64, 100, 127, 128, 200, 255] {
                        let mut r = rows.clone();
                        r[at + i] = value;
                        defects.push(r);
                    }
                }
                for r in defects {
                    let err = rank_rows(&r, width, 1).unwrap_err();
                    assert!(err.to_string().contains(&format!("row {bad} is")), "{err}");
                    assert!(!rank_chunk_portable(&r, width, &mut [0; 12]));
                }
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
        let mut short = [0u32; 1];
        let err = rank_rows_into(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 5, 1, &mut short).unwrap_err();
        assert!(err.to_string().contains("2 rows"), "{err}");
    }
}
