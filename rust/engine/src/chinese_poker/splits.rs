//! Every way to split a 13-card hand into front (3), middle (5) and back (5).
//!
//! A split is described by positions 0..13 of the hand, not by cards, so the
//! table is built once and shared by every hand: 286 fronts (C(13,3)) times 252
//! middles (C(10,5)) = 72,072 splits. Each split names its segments by index into
//! the lists of 3-position and 5-position subsets, so a solver can rank the 286
//! possible fronts and 1,287 possible five-card segments of a hand once and then
//! read any split's three ranks from those tables.

use std::sync::OnceLock;

/// Number of 3/5/5 splits of 13 cards: C(13,3) * C(10,5).
pub const NUM_SPLITS: usize = 72_072;
/// Number of 3-card subsets of 13 positions.
pub const NUM_FRONTS: usize = 286;
/// Number of 5-card subsets of 13 positions.
pub const NUM_FIVES: usize = 1_287;

/// One split: indices into [`Tables::fronts`] and [`Tables::fives`] (twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    pub front: u16,
    pub middle: u16,
    pub back: u16,
}

/// The shared split tables (position masks over 13 bits).
pub struct Tables {
    /// Every 3-position mask, in lexicographic order of positions.
    pub fronts: Vec<u16>,
    /// Every 5-position mask, in lexicographic order of positions.
    pub fives: Vec<u16>,
    /// Every split, by front in table order, then middle in table order.
    pub splits: Vec<Split>,
}

/// Every `size`-position mask in lexicographic order of positions (0,1,2 then
/// 0,1,3 ...), the order of nested loops `a < b < c ...`, so that code ranking the
/// segments of a hand with nested loops fills the table in index order.
fn subsets(size: u32) -> Vec<u16> {
    fn extend(out: &mut Vec<u16>, mask: u16, next: u32, left: u32) {
        if left == 0 {
            out.push(mask);
            return;
        }
        for p in next..=13 - left {
            extend(out, mask | (1 << p), p + 1, left - 1);
        }
    }
    let mut out = Vec::new();
    extend(&mut out, 0, 0, size);
    out
}

fn build() -> Tables {
    let fronts = subsets(3);
    let fives = subsets(5);
    // Dense lookup from a 13-bit mask to its index among the five-card masks.
    let mut five_index = vec![u16::MAX; 1 << 13];
    for (i, &m) in fives.iter().enumerate() {
        five_index[m as usize] = i as u16;
    }
    let full: u16 = (1 << 13) - 1;
    let mut splits = Vec::with_capacity(NUM_SPLITS);
    for (fi, &f) in fronts.iter().enumerate() {
        let rest = full & !f;
        for &m in &fives {
            if m & f != 0 {
                continue;
            }
            let b = rest & !m;
            splits.push(Split {
                front: fi as u16,
                middle: five_index[m as usize],
                back: five_index[b as usize],
            });
        }
    }
    Tables {
        fronts,
        fives,
        splits,
    }
}

/// The shared tables, built on first use (a few milliseconds).
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

/// The positions (ascending) set in a 13-bit mask.
pub fn positions(mask: u16) -> impl Iterator<Item = usize> {
    (0..13).filter(move |i| mask & (1 << i) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    // CP-05: three cards in front, five in the middle and five in the back.
    #[test]
    fn counts_every_split_once() {
        let t = tables();
        assert_eq!(t.fronts.len(), NUM_FRONTS);
        assert_eq!(t.fives.len(), NUM_FIVES);
        assert_eq!(t.splits.len(), NUM_SPLITS);
        let mut seen = std::collections::HashSet::new();
        for s in &t.splits {
            let f = t.fronts[s.front as usize];
            let m = t.fives[s.middle as usize];
            let b = t.fives[s.back as usize];
            assert_eq!(f.count_ones(), 3);
            assert_eq!(f & m, 0);
            assert_eq!((f | m) & b, 0);
            assert_eq!(f | m | b, (1 << 13) - 1);
            assert!(seen.insert((f, m)));
        }
        // Lexicographic order: the first and last five-card segments.
        assert_eq!(t.fives[0], 0b11111);
        assert_eq!(t.fives[NUM_FIVES - 1], 0b11111 << 8);
    }
}
