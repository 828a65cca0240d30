//! Exact showdown counts of one deal (one combo per player) over every board
//! completion, by rank patterns instead of boards.
//!
//! Without a flush a hand's rank depends only on its rank multiset, and a player
//! can only make a flush when the finished board holds three or more cards of one
//! suit (at most one suit can). So:
//!
//! 1. every multiset of ranks the missing board cards can show is evaluated once,
//!    rank-only, and counts for all the boards with those ranks (the product of
//!    `C(cards left of rank r, times r is drawn)`);
//! 2. for each suit `s`, the boards holding three or more `s` cards are enumerated
//!    by their exact `s` cards and the rank multiset of their other cards (whose
//!    suits do not matter any more); where a player makes a flush, the true
//!    outcome is added and the rank-only outcome counted in step 1 taken back.
//!    Boards on which no player can reach five cards of `s` are skipped: their
//!    rank-only outcome is already right.
//!
//! Step 1 depends on the deal only through the players' hole ranks, so range
//! enumerations cache it per rank signature. Counts are integers, so the result is
//! exactly that of ranking every board.

use super::eval::{tables, Tables, RANK_KEYS};
use super::ranges::Combo;
use crate::cards::Card;
use crate::cardset::CardSet;

/// Most players a deal holds (Hold'em equity supports up to ten).
pub(super) const MAX_SEATS: usize = 10;

/// `C(n, m)` for the at most four cards of a rank.
const CHOOSE: [[i64; 5]; 5] = [
    [1, 0, 0, 0, 0],
    [1, 1, 0, 0, 0],
    [1, 2, 1, 0, 0],
    [1, 3, 3, 1, 0],
    [1, 4, 6, 4, 1],
];

/// Integer showdown counts of one deal, boards weighted by how many they stand for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Outcomes {
    players: usize,
    /// Boards each player wins alone.
    pub(super) win: [i64; MAX_SEATS],
    /// `split[p][k]`: boards player `p` splits `k` ways.
    pub(super) split: [[i64; MAX_SEATS + 1]; MAX_SEATS],
}

impl Outcomes {
    pub(super) fn new(players: usize) -> Outcomes {
        Outcomes {
            players,
            win: [0; MAX_SEATS],
            split: [[0; MAX_SEATS + 1]; MAX_SEATS],
        }
    }

    /// Counts one showdown of these classes (higher wins) `weight` times.
    #[inline]
    fn record(&mut self, classes: &[u16], weight: i64) {
        if let [a, b] = *classes {
            match a.cmp(&b) {
                std::cmp::Ordering::Greater => self.win[0] += weight,
                std::cmp::Ordering::Less => self.win[1] += weight,
                std::cmp::Ordering::Equal => {
                    self.split[0][2] += weight;
                    self.split[1][2] += weight;
                }
            }
            return;
        }
        let best = classes.iter().copied().max().unwrap_or(0);
        let winners = classes.iter().filter(|&&c| c == best).count();
        for (p, &c) in classes.iter().enumerate() {
            if c == best {
                if winners == 1 {
                    self.win[p] += weight;
                } else {
                    self.split[p][winners] += weight;
                }
            }
        }
    }

    /// Player `p`'s pot shares: from outright wins, and from splits.
    pub(super) fn shares(&self, p: usize) -> (f64, f64) {
        let tie = (2..=self.players)
            .map(|k| self.split[p][k] as f64 / k as f64)
            .sum();
        (self.win[p] as f64, tie)
    }
}

/// The part of a problem every deal shares: the board so far and the dead cards.
pub(super) struct Table {
    board: Vec<Card>,
    /// Board and dead cards.
    known: CardSet,
    missing: usize,
}

/// Cards of one deal seen by suit and rank.
struct Seen {
    /// Rank key of each player's hole cards plus the board.
    base: [u32; MAX_SEATS],
    /// Cards of each rank no one holds and not on the board or dead.
    avail: [u8; 13],
}

impl Table {
    pub(super) fn new(board: &[Card], known: CardSet) -> Table {
        Table {
            board: board.to_vec(),
            known,
            missing: 5 - board.len().min(5),
        }
    }

    fn seen(&self, hands: &[Combo]) -> Seen {
        let board_key: u32 = self.board.iter().map(|c| rank_key(*c)).sum();
        let mut base = [0u32; MAX_SEATS];
        let mut out = self.known;
        for (slot, h) in base.iter_mut().zip(hands) {
            *slot = board_key + rank_key(h.0) + rank_key(h.1);
            out = out.union(h.set());
        }
        let mut avail = [0u8; 13];
        for (r, slot) in avail.iter_mut().enumerate() {
            *slot = (0..4)
                .filter(|&s| !out.contains(Card::new(r as u8, s)))
                .count() as u8;
        }
        Seen { base, avail }
    }

    /// The rank signature of a deal: step 1 of the module documentation depends on
    /// nothing else (board and dead cards are fixed).
    pub(super) fn signature(hands: &[Combo]) -> u128 {
        hands.iter().fold(0u128, |sig, h| {
            sig << 8 | u128::from(h.0.rank() * 13 + h.1.rank())
        })
    }

    /// Step 1: every board counted with its rank-only outcome.
    pub(super) fn rank_outcomes(&self, hands: &[Combo]) -> Outcomes {
        let t = tables();
        let n = hands.len();
        let seen = self.seen(hands);
        let mut out = Outcomes::new(n);
        let mut classes = [0u16; MAX_SEATS];
        rank_multisets(&seen.avail, self.missing, &mut |key, weight| {
            for (class, &base) in classes[..n].iter_mut().zip(&seen.base) {
                *class = t.rank_class(base + key);
            }
            out.record(&classes[..n], weight);
        });
        out
    }

    /// Step 2 for one suit: for the boards where a player makes a flush in `suit`,
    /// the true outcome minus the rank-only one counted by [`Table::rank_outcomes`].
    pub(super) fn flush_corrections(&self, hands: &[Combo], suit: u8) -> Outcomes {
        let t = tables();
        let n = hands.len();
        let seen = self.seen(hands);
        let mut out = Outcomes::new(n);
        let mut held = self.known;
        for h in hands {
            held = held.union(h.set());
        }
        let suited = |cards: &mut dyn Iterator<Item = Card>| {
            cards
                .filter(|c| c.suit() == Some(suit))
                .fold(0u16, |m, c| m | 1 << c.rank())
        };
        let board_mask = suited(&mut self.board.iter().copied());
        let board_count = board_mask.count_ones() as usize;
        let mut hole_masks = [0u16; MAX_SEATS];
        for (m, h) in hole_masks.iter_mut().zip(hands) {
            *m = suited(&mut [h.0, h.1].into_iter());
        }
        let most_held = hole_masks[..n]
            .iter()
            .map(|m| m.count_ones() as usize)
            .max()
            .unwrap_or(0);
        let free: Vec<u8> = (0..13u8)
            .filter(|&r| !held.contains(Card::new(r, suit)))
            .collect();
        let mut others = seen.avail;
        for &r in &free {
            others[usize::from(r)] -= 1;
        }
        // Fewer new suited cards leave every player short of five of the suit.
        let fewest = 5usize.saturating_sub(most_held + board_count);
        for j in fewest..=self.missing.min(free.len()) {
            let mut flush = Flush {
                t,
                n,
                base: &seen.base,
                hole_masks: &hole_masks,
                board_mask,
                others: &others,
                rest: self.missing - j,
                out: &mut out,
            };
            subsets(&free, j, 0, 0, &mut |mask, key| flush.boards(mask, key));
        }
        out
    }
}

/// The boards of one suit count and one set of suited board cards (step 2).
struct Flush<'a> {
    t: &'a Tables,
    n: usize,
    base: &'a [u32; MAX_SEATS],
    hole_masks: &'a [u16; MAX_SEATS],
    board_mask: u16,
    /// Cards of each rank available outside the suit.
    others: &'a [u8; 13],
    /// Board cards still to come outside the suit.
    rest: usize,
    out: &'a mut Outcomes,
}

impl Flush<'_> {
    /// All boards whose new suited cards are `new_mask` (rank key `new_key`).
    fn boards(&mut self, new_mask: u16, new_key: u32) {
        let n = self.n;
        let mut flush_class = [0u16; MAX_SEATS];
        for (class, &hole) in flush_class[..n].iter_mut().zip(self.hole_masks) {
            let mask = hole | self.board_mask | new_mask;
            if mask.count_ones() >= 5 {
                *class = self.t.flush_class(mask);
            }
        }
        if flush_class[..n].iter().all(|&c| c == 0) {
            return;
        }
        let (t, base, out) = (self.t, self.base, &mut *self.out);
        let mut plain = [0u16; MAX_SEATS];
        let mut best = [0u16; MAX_SEATS];
        rank_multisets(self.others, self.rest, &mut |key, weight| {
            for p in 0..n {
                plain[p] = t.rank_class(base[p] + new_key + key);
                best[p] = plain[p].max(flush_class[p]);
            }
            out.record(&best[..n], weight);
            out.record(&plain[..n], -weight);
        });
    }
}

#[inline]
fn rank_key(c: Card) -> u32 {
    RANK_KEYS[usize::from(c.rank().min(12))]
}

/// Calls `visit(rank key, boards)` for every multiset of `k` ranks drawable from
/// `avail` (cards left per rank), with the number of card sets showing it.
fn rank_multisets<F: FnMut(u32, i64)>(avail: &[u8; 13], k: usize, visit: &mut F) {
    fn walk<F: FnMut(u32, i64)>(
        avail: &[u8; 13],
        rank: usize,
        left: usize,
        key: u32,
        ways: i64,
        visit: &mut F,
    ) {
        if left == 0 {
            visit(key, ways);
            return;
        }
        if rank == 13 {
            return;
        }
        let have = usize::from(avail[rank]).min(4);
        for (m, &choose) in CHOOSE[have].iter().enumerate().take(have.min(left) + 1) {
            walk(
                avail,
                rank + 1,
                left - m,
                key + m as u32 * RANK_KEYS[rank],
                ways * choose,
                visit,
            );
        }
    }
    walk(avail, 0, k, 0, 1, visit);
}

/// Calls `visit(rank mask, rank key)` for every `j`-subset of the ranks `free`.
fn subsets<F: FnMut(u16, u32)>(free: &[u8], j: usize, mask: u16, key: u32, visit: &mut F) {
    if j == 0 {
        visit(mask, key);
        return;
    }
    for (i, &r) in free.iter().enumerate() {
        if free.len() - i < j {
            break;
        }
        subsets(
            &free[i + 1..],
            j - 1,
            mask | 1 << r,
            key + RANK_KEYS[usize::from(r)],
            visit,
        );
    }
}
