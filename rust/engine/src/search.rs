//! What the exact endgame solvers of the determinized searches share: the budget
//! that says when a sampled world is solved instead of played out, the node budget
//! and cancel polling of one solve, the alpha-beta window of a node, and the
//! bounded transposition table of alpha-beta results.
//!
//! The solvers themselves stay with their games (`climbing::endgame` for Dou Dizhu
//! and Zheng Shangyou, `climbing::guandan::endgame`, `trick::endgame` for Hearts
//! and Spades, `trick::tractor::endgame`): their positions, move orderings and
//! values are the games' own.

use std::collections::HashMap;
use std::hash::Hash;

use crate::cancel::Cancel;
use crate::error::Result;

/// Which worlds a search solves exactly, and how much work one solve may take.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Endgame {
    /// Solve a sampled world once at most this many cards are left in all hands
    /// together (0 turns the solver off). The trick games do not count the cards of
    /// the trick in progress.
    pub cards: u32,
    /// Nodes one solve may visit before it gives up.
    pub nodes: u64,
}

impl Endgame {
    /// No exact solving: every world is played out by the playout policy.
    pub const OFF: Endgame = Endgame { cards: 0, nodes: 0 };
}

/// Nodes between two polls of the cancel flag: a poll is cheap, but not free at
/// millions of nodes a second, and 1,024 nodes take well under a millisecond.
const CANCEL_EVERY: u64 = 1024;

/// The nodes one solve has visited against the most it may visit: every solver
/// counts each node it expands with [`tick`](Self::tick), so a solve's cost is
/// bounded and Ctrl-C reaches it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeBudget {
    nodes: u64,
    limit: u64,
}

impl NodeBudget {
    /// A solve that may visit `limit` nodes, none visited yet.
    pub fn start(limit: u64) -> Self {
        NodeBudget { nodes: 0, limit }
    }

    /// Counts a node: `Ok(false)` when it is past the limit (the solve gives up),
    /// else `Ok(true)`. Polls `cancel` at the first node and every 1,024 after,
    /// `Err(Cancelled)` once it is set.
    #[inline]
    pub fn tick(&mut self, cancel: &Cancel) -> Result<bool> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Ok(false);
        }
        if self.nodes % CANCEL_EVERY == 1 {
            cancel.check()?;
        }
        Ok(true)
    }

    /// Nodes counted so far (one past the limit when the budget ran out).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// Table entries kept before a table is cleared (about 64-100 bytes each, by game).
pub const MAX_ENTRIES: usize = 1 << 20;

/// A value the solvers search: ordered, with a least and a greatest element to start
/// a node's best from.
pub trait Value: PartialOrd + Copy {
    /// Below every value a position can have.
    const LEAST: Self;
    /// Above every value a position can have.
    const GREATEST: Self;
}

impl Value for i32 {
    const LEAST: i32 = i32::MIN;
    const GREATEST: i32 = i32::MAX;
}

impl Value for f64 {
    const LEAST: f64 = f64::NEG_INFINITY;
    const GREATEST: f64 = f64::INFINITY;
}

/// One node's alpha-beta bookkeeping: the window it was entered with, the window
/// its children are searched with, and the best child value so far for the side to
/// move (the searching side maximizes, the others minimize).
pub struct Window<V> {
    entered: (V, V),
    alpha: V,
    beta: V,
    best: V,
    maximizing: bool,
}

impl<V: Value> Window<V> {
    /// A node entered with `(alpha, beta)` (after its table probe), for the side
    /// that maximizes or minimizes.
    pub fn new(alpha: V, beta: V, maximizing: bool) -> Self {
        let best = if maximizing { V::LEAST } else { V::GREATEST };
        Window {
            entered: (alpha, beta),
            alpha,
            beta,
            best,
            maximizing,
        }
    }

    /// The window to search the next child with.
    pub fn bounds(&self) -> (V, V) {
        (self.alpha, self.beta)
    }

    /// Takes a child's value; true when the window has closed and the remaining
    /// children cannot change the node's value (a cutoff).
    pub fn take(&mut self, value: V) -> bool {
        if self.maximizing {
            if value > self.best {
                self.best = value;
            }
            if value > self.alpha {
                self.alpha = value;
            }
        } else {
            if value < self.best {
                self.best = value;
            }
            if value < self.beta {
                self.beta = value;
            }
        }
        self.alpha >= self.beta
    }

    /// The node's value: exact inside the window it was entered with, else a bound.
    pub fn best(&self) -> V {
        self.best
    }
}

/// How a stored value bounds the true one (alpha-beta leaves bounds, not values,
/// when it cuts off).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A transposition table of alpha-beta results, emptied when it reaches its
/// capacity: it is a cache, so clearing it bounds its memory whatever node budget a
/// caller gives, and costs only work.
pub struct Table<K, V> {
    map: HashMap<K, (V, Bound)>,
    capacity: usize,
}

impl<K: Hash + Eq, V: Value> Table<K, V> {
    /// An empty table holding at most [`MAX_ENTRIES`] entries.
    pub fn new() -> Self {
        Table::with_capacity_limit(MAX_ENTRIES)
    }

    /// An empty table holding at most `capacity` entries (tests use small ones).
    pub fn with_capacity_limit(capacity: usize) -> Self {
        Table {
            map: HashMap::new(),
            capacity: capacity.max(1),
        }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the table holds nothing.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Narrows the window `(alpha, beta)` by what is stored for `key`, and returns
    /// the position's value when the stored entry settles it (an exact value, or a
    /// bound that closes the window).
    pub fn probe(&self, key: &K, alpha: &mut V, beta: &mut V) -> Option<V> {
        let &(stored, bound) = self.map.get(key)?;
        match bound {
            Bound::Exact => return Some(stored),
            Bound::Lower if stored > *alpha => *alpha = stored,
            Bound::Upper if stored < *beta => *beta = stored,
            _ => {}
        }
        (*alpha >= *beta).then_some(stored)
    }

    /// Stores the value a search of `key` found in `window`: at or below the alpha
    /// it was entered with an upper bound, at or above its beta a lower bound, else
    /// exact.
    pub fn store(&mut self, key: K, window: &Window<V>) {
        let (alpha, beta) = window.entered;
        let best = window.best;
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.map.len() >= self.capacity {
            self.map.clear();
        }
        self.map.insert(key, (best, bound));
    }
}

impl<K: Hash + Eq, V: Value> Default for Table<K, V> {
    fn default() -> Self {
        Table::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::NEVER;
    use crate::error::EngineError;

    #[test]
    fn a_budget_counts_nodes_and_says_when_it_is_spent() {
        let mut budget = NodeBudget::start(3);
        for n in 1..=3 {
            assert_eq!(budget.tick(&NEVER), Ok(true));
            assert_eq!(budget.nodes(), n);
        }
        assert_eq!(budget.tick(&NEVER), Ok(false));
        assert_eq!(budget.nodes(), 4);
        // No budget at all: the first node is already past it.
        assert_eq!(NodeBudget::start(0).tick(&NEVER), Ok(false));
    }

    #[test]
    fn a_budget_polls_cancel_at_the_first_node_and_every_1024_after() {
        let cancel = Cancel::new();
        cancel.cancel();
        let mut budget = NodeBudget::start(u64::MAX);
        assert_eq!(budget.tick(&cancel), Err(EngineError::Cancelled));
        // Set after node 1: nodes 2..=1024 do not look, node 1025 does.
        let cancel = Cancel::new();
        let mut budget = NodeBudget::start(u64::MAX);
        assert_eq!(budget.tick(&cancel), Ok(true));
        cancel.cancel();
        for _ in 2..=1024 {
            assert_eq!(budget.tick(&cancel), Ok(true));
        }
        assert_eq!(budget.tick(&cancel), Err(EngineError::Cancelled));
        assert_eq!(budget.nodes(), 1025);
    }

    /// A maximizing node entered with `(alpha, beta)` whose one child is worth `best`.
    fn settled<V: Value>(best: V, alpha: V, beta: V) -> Window<V> {
        let mut w = Window::new(alpha, beta, true);
        w.take(best);
        w
    }

    #[test]
    fn a_window_keeps_the_best_for_its_side_and_cuts_when_it_closes() {
        let mut max = Window::new(0, 10, true);
        assert!(!max.take(4));
        assert!(!max.take(2));
        assert_eq!((max.best(), max.bounds()), (4, (4, 10)));
        assert!(max.take(12));
        let mut min = Window::new(0.0, 10.0, false);
        assert!(!min.take(6.0));
        assert_eq!((min.best(), min.bounds()), (6.0, (0.0, 6.0)));
        assert!(min.take(-1.0));
        assert_eq!(min.best(), -1.0);
    }

    #[test]
    fn an_exact_entry_settles_the_position() {
        let mut t: Table<u8, i32> = Table::new();
        t.store(1, &settled(5, 0, 10));
        let (mut a, mut b) = (-100, 100);
        assert_eq!(t.probe(&1, &mut a, &mut b), Some(5));
        assert_eq!(t.probe(&2, &mut a, &mut b), None);
    }

    #[test]
    fn bounds_narrow_the_window_and_settle_it_only_when_it_closes() {
        let mut t: Table<u8, i32> = Table::new();
        t.store(1, &settled(3, 3, 10)); // failed low: at most 3
        t.store(2, &settled(7, 0, 7)); // failed high: at least 7
        let (mut a, mut b) = (0, 10);
        assert_eq!(t.probe(&1, &mut a, &mut b), None);
        assert_eq!((a, b), (0, 3));
        let (mut a, mut b) = (0, 10);
        assert_eq!(t.probe(&2, &mut a, &mut b), None);
        assert_eq!((a, b), (7, 10));
        // A window already above the upper bound closes.
        let (mut a, mut b) = (4, 10);
        assert_eq!(t.probe(&1, &mut a, &mut b), Some(3));
        // A window already below the lower bound closes.
        let (mut a, mut b) = (0, 6);
        assert_eq!(t.probe(&2, &mut a, &mut b), Some(7));
    }

    #[test]
    fn a_full_table_is_emptied_before_it_grows() {
        let mut t: Table<u32, f64> = Table::with_capacity_limit(4);
        for k in 0..100 {
            t.store(k, &settled(0.5, 0.0, 1.0));
            assert!(t.len() <= 4);
        }
        assert!(!t.is_empty());
    }
}
