//! Portable, seeded randomness.
//!
//! The stream is ChaCha8 (rand_chacha, whose output is documented as stable)
//! keyed by a 32-byte seed expanded from a `u64` with SplitMix64: the four
//! words `splitmix64` yields from the seed, little-endian. Bounded integers use
//! Lemire's multiply-shift with rejection, and shuffles are Fisher-Yates from the
//! last position down, so the same seed gives the same order on every platform
//! and release. Sub-seeds (per deal, per worker) come from [`derive_seed`].

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng};

/// One step of SplitMix64: advances `state` and returns the next output.
#[inline]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of sub-stream `stream` of `seed`: the first SplitMix64 output of
/// `seed ^ splitmix64(stream)`. Deal `k` of a match uses `derive_seed(seed, k)`.
pub fn derive_seed(seed: u64, stream: u64) -> u64 {
    let mut s = stream;
    let mut t = seed ^ splitmix64(&mut s);
    splitmix64(&mut t)
}

/// The cardkit random stream.
pub struct CardRng(ChaCha8Rng);

impl CardRng {
    pub fn new(seed: u64) -> CardRng {
        let mut state = seed;
        let mut key = [0u8; 32];
        for chunk in key.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
        }
        CardRng(ChaCha8Rng::from_seed(key))
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `0..n` (`n > 0`), unbiased.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        // The rejection threshold `2^64 mod n` is below `n`, so a low word of `n`
        // or more is always kept: the division that finds the threshold is only
        // needed (rarely) below that, and the draws are the same as with it
        // computed first (Lemire's nearly divisionless method).
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// A uniform float in `[0, 1)` from the top 53 bits.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Fisher-Yates shuffle, from the last position down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Shuffle `items` with the stream of `seed`.
pub fn shuffle_seeded<T>(items: &mut [T], seed: u64) {
    CardRng::new(seed).shuffle(items);
}

#[cfg(test)]
mod tests {
    use super::*;

    const PINNED_SEED7: [u64; 3] = [
        7387829322293334546,
        14283834251474640193,
        9360588686666418927,
    ];

    #[test]
    fn stream_is_pinned() {
        // These values pin the documented stream; a change here breaks every
        // recorded seed, so it must never happen silently.
        let mut r = CardRng::new(7);
        let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(first, PINNED_SEED7);
        let mut v: Vec<u32> = (0..10).collect();
        shuffle_seeded(&mut v, 42);
        let mut w: Vec<u32> = (0..10).collect();
        shuffle_seeded(&mut w, 42);
        assert_eq!(v, w);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn below_draws_as_with_the_threshold_found_first() {
        // The division is skipped when it cannot matter: the draws, and how many
        // words they use, are those of finding the threshold first.
        let (mut fast, mut plain) = (CardRng::new(3), CardRng::new(3));
        let large = [u64::MAX, 1 << 63, (1 << 63) + 1, 3 << 62, (1 << 62) + 7];
        for n in (1..3000u64).chain(large) {
            for _ in 0..20 {
                let threshold = n.wrapping_neg() % n;
                let want = loop {
                    let m = u128::from(plain.next_u64()) * u128::from(n);
                    if (m as u64) >= threshold {
                        break (m >> 64) as u64;
                    }
                };
                assert_eq!(fast.below(n), want, "n = {n}");
            }
        }
    }

    #[test]
    fn below_is_in_range_and_covers() {
        let mut r = CardRng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[r.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800));
    }

    #[test]
    fn derived_seeds_differ() {
        assert_ne!(derive_seed(1, 0), derive_seed(1, 1));
        assert_ne!(derive_seed(1, 0), derive_seed(2, 0));
    }
}
