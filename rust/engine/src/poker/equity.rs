//! Texas Hold'em equity of 2 to 10 players, each holding a hand or a range, by
//! exact enumeration of every board or by Monte Carlo sampling.
//!
//! A player's equity is the expected share of the pot: 1 for an outright win,
//! `1/k` for a `k`-way split. `win` is the part from outright wins and `tie` the
//! part from split pots, so `equity = win + tie`; equities sum to 1.
//!
//! Work is cut into chunks whose results are merged in chunk order, so the result
//! never depends on how many threads ran them:
//! - exact: one chunk per first board card dealt (by deck position);
//! - Monte Carlo: chunk `i` holds [`MC_CHUNK`] trials drawn from
//!   `CardRng::new(derive_seed(seed, i))`; sampling stops after the first chunk at
//!   which every player's standard error is within the target (or the sample budget
//!   is spent), and later chunks are discarded.

use super::deals::{self, DealSampler, Unbuilt};
use super::eval::{tables, HandKey, Tables};
use super::exact::Table;
use super::ranges::{Combo, Range};
use super::MAX_THREADS;
use crate::cancel::Cancel;
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::error::cut;
use crate::error::{EngineError, Result};
use crate::rng::{derive_seed, CardRng};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Trials per Monte Carlo chunk.
pub const MC_CHUNK: u64 = 8192;
/// Monte Carlo stops no earlier than this many trials when a standard error is the target.
const MC_MIN_TRIALS: u64 = 4 * MC_CHUNK;
/// Monte Carlo trials whose boards are ranked together (at most 64: one bit each
/// marks the flush hands).
const TRIAL_BLOCK: usize = 64;
pub const MAX_PLAYERS: usize = 10;
/// Exact enumeration refuses problems above this many work units (see
/// [`Problem::exact_cost`]; about a minute on one core), which wide multiway
/// ranges preflop reach; Monte Carlo answers those.
pub const EXACT_COST_LIMIT: f64 = 5e10;

/// How to compute equity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// Enumerate every board.
    Exact,
    /// Sample until every player's standard error is at most `stderr` (if given) or
    /// `samples` trials are done, whichever comes first.
    MonteCarlo {
        samples: u64,
        stderr: Option<f64>,
        seed: u64,
    },
}

/// One player's share of the pot.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayerEquity {
    pub equity: f64,
    pub win: f64,
    pub tie: f64,
    /// Standard error of `equity` (0 for exact results).
    pub stderr: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EquityResult {
    pub players: Vec<PlayerEquity>,
    pub exact: bool,
    /// Monte Carlo trials run (0 when exact).
    pub samples: u64,
    /// Boards enumerated (0 for Monte Carlo).
    pub boards: u64,
}

/// A validated equity problem: the live combos of each player, the board so far
/// and the cards no one can receive.
pub struct Problem {
    players: Vec<Vec<(Combo, f64)>>,
    board: Vec<Card>,
    /// Board and dead cards.
    known: CardSet,
}

fn invalid(message: String) -> EngineError {
    EngineError::InvalidCard(message)
}

/// Why player `i` has no hand: a zero weight everywhere, a hand using a known
/// card (named), or a range whose every combo does.
fn no_hand(i: usize, range: &Range, board: &[Card], known: CardSet) -> String {
    let text = cut(range.text());
    match range.combos() {
        [] => format!(
            "player {i} has no possible hand: its range {text} gives every combo weight 0"
        ),
        [(c, _)] => {
            let card = c.set().intersection(known).iter().next().unwrap_or(c.0);
            let place = if board.contains(&card) {
                "on the board"
            } else {
                "a dead card"
            };
            format!("player {i} has no possible hand: {c} holds {card}, which is {place}")
        }
        _ => format!(
            "player {i} has no possible hand: every combo of its range {text} uses a board or dead card"
        ),
    }
}

/// "player 3", "players 1 and 2", "players 0, 4 and 5".
fn players_named(players: &[usize]) -> String {
    let names: Vec<String> = players.iter().map(usize::to_string).collect();
    match &names[..] {
        [one] => format!("player {one}"),
        [init @ .., last] => format!("players {} and {last}", init.join(", ")),
        [] => "no player".into(),
    }
}

impl Problem {
    /// Checks the input: 2..=10 players, a board of at most 5 cards, no card twice
    /// among board and dead cards, no range emptied by them or by zero weights,
    /// enough live cards for every hand and the rest of the board, and at least
    /// one way to deal every player a hand at once. Errors name the conflict.
    pub fn new(players: &[Range], board: &[Card], dead: &[Card]) -> Result<Problem> {
        if !(2..=MAX_PLAYERS).contains(&players.len()) {
            return Err(EngineError::RuleOption(format!(
                "equity needs 2 to {MAX_PLAYERS} players, got {}",
                players.len()
            )));
        }
        if board.len() > 5 {
            return Err(invalid(format!(
                "a board holds at most 5 cards, got {}",
                board.len()
            )));
        }
        let mut known = CardSet::EMPTY;
        for &c in board.iter().chain(dead) {
            if c.is_joker() {
                return Err(invalid(format!("jokers do not play in poker: {c}")));
            }
            if !known.insert(c) {
                return Err(invalid(format!(
                    "duplicate card {c} among the board and dead cards"
                )));
            }
        }
        let mut live = Vec::with_capacity(players.len());
        for (i, range) in players.iter().enumerate() {
            let mut combos = range.live_combos(known);
            // Only ratios of one player's weights matter: scaled so the largest is
            // 1, products over ten players of tiny weights (`AA:1e-300`) cannot
            // underflow to a deal of weight 0.
            let top = combos.iter().map(|&(_, w)| w).fold(0.0, f64::max);
            if top == 0.0 {
                return Err(invalid(no_hand(i, range, board, known)));
            }
            for (_, w) in &mut combos {
                *w /= top;
            }
            live.push(combos);
        }
        let problem = Problem {
            players: live,
            board: board.to_vec(),
            known,
        };
        problem.check_deal(players)?;
        Ok(problem)
    }

    /// Errors unless some deal gives every player a hand and leaves the board
    /// cards still to come: a problem that passes has a positive total weight,
    /// so its equities sum to 1.
    fn check_deal(&self, ranges: &[Range]) -> Result<()> {
        let n = self.players.len();
        let live = 52 - self.known.len() as usize;
        if 2 * n > live {
            return Err(invalid(format!(
                "{n} players need {} hole cards but only {live} live cards are left (not on the board or dead)",
                2 * n
            )));
        }
        let missing = self.missing();
        if 2 * n + missing > live {
            let left = live - 2 * n;
            return Err(invalid(format!(
                "{missing} board card{} still to come but only {left} live card{} left once every player holds a hand",
                if missing == 1 { " is" } else { "s are" },
                if left == 1 { " is" } else { "s are" },
            )));
        }
        let players: Vec<&deals::Combos> = self.players.iter().map(Vec::as_slice).collect();
        // An undecided search lets the problem through: enumeration then finds
        // no deal or sampling gives up, and both say so.
        if deals::can_deal(&players) != Some(false) {
            return Ok(());
        }
        let culprits = deals::conflict(&players);
        let hands: Vec<Option<Combo>> = culprits
            .iter()
            .map(|&i| match self.players[i][..] {
                [(c, _)] => Some(c),
                _ => None,
            })
            .collect();
        if let [Some(a), Some(b)] = hands[..] {
            let shared = a.set().intersection(b.set()).iter().next();
            if let (Some(card), &[i, j]) = (shared, &culprits[..]) {
                // A range cut to one combo by the board and dead cards.
                let hand = |p: usize| match ranges[p].len() {
                    1 => "hand",
                    _ => "only possible hand",
                };
                return Err(invalid(format!(
                    "player {i}'s {} {a} and player {j}'s {} {b} both hold {card}",
                    hand(i),
                    hand(j)
                )));
            }
        }
        let mut texts: Vec<&str> = culprits.iter().map(|&i| ranges[i].text()).collect();
        texts.dedup();
        let cards = culprits
            .iter()
            .flat_map(|&i| self.players[i].iter())
            .fold(CardSet::EMPTY, |u, (c, _)| u.union(c.set()));
        let why = if (cards.len() as usize) < 2 * culprits.len() {
            format!("their ranges use only {} live cards", cards.len())
        } else {
            "their combos share cards".to_string()
        };
        Err(invalid(format!(
            "no deal is possible: {} cannot all be dealt a hand at once ({why}; ranges {})",
            players_named(&culprits),
            cut(&texts.join(" | "))
        )))
    }

    /// Cards every deal gives to some player (those of single-hand players).
    fn fixed_cards(&self) -> CardSet {
        self.players
            .iter()
            .filter_map(|combos| {
                let first = combos.first()?.0.set();
                combos
                    .iter()
                    .all(|(c, _)| c.set() == first)
                    .then_some(first)
            })
            .fold(CardSet::EMPTY, CardSet::union)
    }

    /// Cards that may still come on the board.
    fn board_deck(&self) -> Vec<Card> {
        let out = self.known.union(self.fixed_cards());
        (0..52u32)
            .filter_map(|i| Card::from_index(i).ok())
            .filter(|c| !out.contains(*c))
            .collect()
    }

    fn missing(&self) -> usize {
        5 - self.board.len()
    }

    /// Board completions an exact run enumerates.
    pub fn exact_boards(&self) -> u64 {
        binomial(self.board_deck().len() as u64, self.missing() as u64)
    }

    /// A rough count of work units (about a nanosecond each) for exact enumeration
    /// by the cheaper of its two plans, for choosing between exact and Monte Carlo.
    pub fn exact_cost(&self) -> f64 {
        self.exact_plan().0
    }

    /// The cheaper exact plan and its cost:
    /// - by board: every board once, each live combo ranked on it and every deal
    ///   compared (wins on the turn and river for wide multiway ranges);
    /// - by deal: every deal up to suit symmetry counted by rank patterns
    ///   (`exact.rs`), whose cost hardly grows with the number of missing cards.
    fn exact_plan(&self) -> (f64, ExactPlan) {
        let n = self.players.len() as f64;
        let ranked: f64 = self.players.iter().map(|p| p.len() as f64).sum();
        let deals: f64 = self.players.iter().map(|p| p.len() as f64).product();
        let by_board = self.exact_boards() as f64 * (4.0 * ranked + 2.0 * deals) * NS_PER_UNIT;
        let symmetries = self.suit_symmetries().len() as f64;
        let patterns = PATTERN_COST[self.missing()];
        let by_deal =
            (deals * symmetries * n * 20.0 + deals / symmetries * patterns * n) * NS_PER_UNIT;
        if by_deal <= by_board {
            (by_deal, ExactPlan::ByDeal)
        } else {
            (by_board, ExactPlan::ByBoard)
        }
    }

    /// Board and dead cards apart.
    fn board_and_dead(&self) -> (CardSet, CardSet) {
        let board = CardSet::from_cards(self.board.iter().copied());
        (board, self.known.difference(board))
    }

    /// The suit permutations that map the board, the dead cards and every player's
    /// weighted range onto themselves: deals they map onto each other have equal
    /// weights and equal results, so one deal per orbit is enough.
    fn suit_symmetries(&self) -> Vec<[u8; 4]> {
        let (board, dead) = self.board_and_dead();
        let maps_onto = |set: CardSet, perm: &[u8; 4]| {
            CardSet::from_cards(set.iter().map(|c| permute(c, perm))) == set
        };
        let weights: Vec<std::collections::HashMap<Combo, f64>> = self
            .players
            .iter()
            .map(|combos| combos.iter().copied().collect())
            .collect();
        SUIT_PERMUTATIONS
            .iter()
            .filter(|perm| {
                maps_onto(board, perm)
                    && maps_onto(dead, perm)
                    && weights.iter().all(|w| {
                        w.iter().all(|(&c, &x)| {
                            w.get(&Combo::new(permute(c.0, perm), permute(c.1, perm))) == Some(&x)
                        })
                    })
            })
            .copied()
            .collect()
    }

    /// One deal per orbit of [`Problem::suit_symmetries`] (the least by combo
    /// indices), in ascending order, with its weight times the orbit's size.
    fn deal_orbits(&self, cancel: &Cancel) -> Result<Vec<(Vec<Combo>, f64)>> {
        let symmetries = self.suit_symmetries();
        let n = self.players.len();
        let mut orbits: std::collections::HashMap<u128, u64> = std::collections::HashMap::new();
        let mut deal = Vec::with_capacity(n);
        let mut seen = 0u32;
        self.each_deal(0, CardSet::EMPTY, &mut deal, &mut |deal| {
            seen = seen.wrapping_add(1);
            if seen.is_multiple_of(1024) && cancel.is_cancelled() {
                return false;
            }
            let least = symmetries
                .iter()
                .map(|perm| {
                    deal.iter().fold(0u128, |code, c| {
                        let mapped = Combo::new(permute(c.0, perm), permute(c.1, perm));
                        code << 12 | u128::from(combo_code(mapped))
                    })
                })
                .min()
                .unwrap_or(0);
            *orbits.entry(least).or_insert(0) += 1;
            true
        });
        cancel.check()?;
        let weights: Vec<std::collections::HashMap<Combo, f64>> = self
            .players
            .iter()
            .map(|combos| combos.iter().copied().collect())
            .collect();
        let mut codes: Vec<(u128, u64)> = orbits.into_iter().collect();
        codes.sort_unstable();
        Ok(codes
            .into_iter()
            .map(|(code, count)| {
                let deal: Vec<Combo> = (0..n)
                    .map(|p| {
                        let bits = (code >> (12 * (n - 1 - p))) as u16 & 0xfff;
                        Combo(
                            Card::from_index_unchecked((bits >> 6) as u8),
                            Card::from_index_unchecked((bits & 63) as u8),
                        )
                    })
                    .collect();
                let weight: f64 = deal
                    .iter()
                    .zip(&weights)
                    .map(|(c, w)| w.get(c).copied().unwrap_or(0.0))
                    .product();
                (deal, weight * count as f64)
            })
            .collect())
    }

    /// Calls `visit` with every deal of one live combo per player, no card twice,
    /// until it returns false (then returns false).
    fn each_deal(
        &self,
        player: usize,
        used: CardSet,
        deal: &mut Vec<Combo>,
        visit: &mut dyn FnMut(&[Combo]) -> bool,
    ) -> bool {
        let Some(combos) = self.players.get(player) else {
            return visit(deal);
        };
        for &(c, _) in combos {
            if c.set().intersection(used).is_empty() {
                deal.push(c);
                let go_on = self.each_deal(player + 1, used.union(c.set()), deal, visit);
                deal.pop();
                if !go_on {
                    return false;
                }
            }
        }
        true
    }

    pub fn num_players(&self) -> usize {
        self.players.len()
    }
}

/// The two ways to enumerate exactly; see [`Problem::exact_plan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExactPlan {
    ByBoard,
    ByDeal,
}

/// Nanoseconds per unit of the plans' raw counts (measured on one core), so that
/// costs are about nanoseconds.
const NS_PER_UNIT: f64 = 12.0;

/// Rough work units of one deal by rank patterns, by missing board cards (rank
/// multisets plus the flush boards, measured on typical deals).
const PATTERN_COST: [f64; 6] = [4.0, 60.0, 400.0, 3_000.0, 20_000.0, 100_000.0];

/// All 24 orders of the four suits.
const SUIT_PERMUTATIONS: [[u8; 4]; 24] = {
    let mut perms = [[0u8; 4]; 24];
    let mut i = 0;
    let mut code = 0;
    while code < 256 {
        let p = [code & 3, (code >> 2) & 3, (code >> 4) & 3, (code >> 6) & 3];
        let distinct = p[0] != p[1]
            && p[0] != p[2]
            && p[0] != p[3]
            && p[1] != p[2]
            && p[1] != p[3]
            && p[2] != p[3];
        if distinct {
            perms[i] = [p[0] as u8, p[1] as u8, p[2] as u8, p[3] as u8];
            i += 1;
        }
        code += 1;
    }
    perms
};

#[inline]
fn permute(card: Card, perm: &[u8; 4]) -> Card {
    let suit = card.suit().unwrap_or(0);
    Card::new(card.rank(), perm[usize::from(suit & 3)])
}

/// A combo as 12 bits: high card index, then low card index.
#[inline]
fn combo_code(c: Combo) -> u16 {
    u16::from(c.0.index()) << 6 | u16::from(c.1.index())
}

pub fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// Weighted pot shares accumulated over deals.
#[derive(Clone, Debug, Default)]
struct Tally {
    win: Vec<f64>,
    tie: Vec<f64>,
    /// Sum of squared shares (Monte Carlo standard errors).
    squares: Vec<f64>,
    weight: f64,
    deals: u64,
}

impl Tally {
    fn new(players: usize) -> Tally {
        Tally {
            win: vec![0.0; players],
            tie: vec![0.0; players],
            squares: vec![0.0; players],
            weight: 0.0,
            deals: 0,
        }
    }

    /// Score one showdown of `ranks` (one per player) with weight `w`.
    #[inline]
    fn showdown(&mut self, ranks: &[u32], w: f64) {
        let best = ranks.iter().copied().max().unwrap_or(0);
        let winners = ranks.iter().filter(|&&r| r == best).count();
        self.weight += w;
        self.deals += 1;
        if winners == 1 {
            for (p, &r) in ranks.iter().enumerate() {
                if r == best {
                    self.win[p] += w;
                    self.squares[p] += w;
                }
            }
        } else {
            let share = 1.0 / winners as f64;
            for (p, &r) in ranks.iter().enumerate() {
                if r == best {
                    self.tie[p] += w * share;
                    self.squares[p] += w * share * share;
                }
            }
        }
    }

    fn merge(&mut self, other: &Tally) {
        for (a, b) in self.win.iter_mut().zip(&other.win) {
            *a += b;
        }
        for (a, b) in self.tie.iter_mut().zip(&other.tie) {
            *a += b;
        }
        for (a, b) in self.squares.iter_mut().zip(&other.squares) {
            *a += b;
        }
        self.weight += other.weight;
        self.deals += other.deals;
    }

    /// Standard error of each player's mean share (trials of weight 1).
    fn stderrs(&self) -> Vec<f64> {
        let n = self.weight;
        if n < 2.0 {
            return vec![f64::INFINITY; self.win.len()];
        }
        (0..self.win.len())
            .map(|p| {
                let mean = (self.win[p] + self.tie[p]) / n;
                let var = (self.squares[p] / n - mean * mean).max(0.0);
                (var / (n - 1.0)).sqrt()
            })
            .collect()
    }

    fn result(&self, exact: bool) -> Vec<PlayerEquity> {
        let n = if self.weight > 0.0 { self.weight } else { 1.0 };
        let stderr = if exact {
            vec![0.0; self.win.len()]
        } else {
            self.stderrs()
        };
        (0..self.win.len())
            .map(|p| PlayerEquity {
                equity: (self.win[p] + self.tie[p]) / n,
                win: self.win[p] / n,
                tie: self.tie[p] / n,
                stderr: stderr[p],
            })
            .collect()
    }
}

/// Chunk results waiting to be merged in order.
struct Merger<'a, T> {
    pending: BTreeMap<usize, T>,
    merged: usize,
    stopped: bool,
    merge: &'a mut (dyn FnMut(T) -> bool + Send),
}

/// Runs `chunks` jobs on `threads` threads, merging finished chunks strictly in
/// chunk order through `merge`; `merge` returns true to stop (later chunks are
/// then skipped or discarded). `progress` is called on the calling thread about
/// ten times a second with the fraction done reported by `done`. Workers stop
/// taking chunks once `cancel` is set.
fn run_chunks<T: Send>(
    chunks: usize,
    threads: usize,
    work: &(dyn Fn(usize) -> T + Sync),
    merge: &mut (dyn FnMut(T) -> bool + Send),
    done: &(dyn Fn() -> f64 + Sync),
    progress: &(dyn Fn(f64) + Sync),
    cancel: &Cancel,
) {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let finished = AtomicUsize::new(0);
    let state = Mutex::new(Merger {
        pending: BTreeMap::new(),
        merged: 0,
        stopped: false,
        merge,
    });
    let workers = threads.clamp(1, chunks.max(1));
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    while !stop.load(Ordering::Relaxed) && !cancel.is_cancelled() {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= chunks {
                            break;
                        }
                        let out = work(i);
                        let Ok(mut guard) = state.lock() else { break };
                        let m = &mut *guard;
                        if m.stopped {
                            break;
                        }
                        m.pending.insert(i, out);
                        while let Some(out) = m.pending.remove(&m.merged) {
                            m.merged += 1;
                            if (m.merge)(out) {
                                m.stopped = true;
                                stop.store(true, Ordering::Relaxed);
                                m.pending.clear();
                                break;
                            }
                        }
                    }
                    finished.fetch_add(1, Ordering::Release);
                    caller.unpark();
                })
            })
            .collect();
        while finished.load(Ordering::Acquire) < workers {
            std::thread::park_timeout(Duration::from_millis(100));
            progress(done().min(1.0));
        }
        // The scope only waits for the closures to return; joining also waits for
        // the threads to exit, so none outlives the call (a cancelled caller may
        // count them).
        for handle in handles {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

fn default_threads(threads: Option<usize>) -> usize {
    threads
        .filter(|&t| t > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(MAX_THREADS)
}

/// Equity of every player of `problem`.
pub fn equity(
    problem: &Problem,
    method: Method,
    threads: Option<usize>,
    progress: &(dyn Fn(f64) + Sync),
    cancel: &Cancel,
) -> Result<EquityResult> {
    let threads = default_threads(threads);
    let result = match method {
        Method::Exact => match problem.exact_plan() {
            (cost, _) if cost > EXACT_COST_LIMIT => Err(EngineError::RuleOption(format!(
                "exact enumeration is too large here ({cost:.1e} work units, limit {EXACT_COST_LIMIT:.0e}): use Monte Carlo (samples= or stderr=)"
            ))),
            (_, ExactPlan::ByDeal) => exact_by_deal(problem, threads, progress, cancel),
            (_, ExactPlan::ByBoard) => exact_by_board(problem, threads, progress, cancel),
        },
        Method::MonteCarlo {
            samples,
            stderr,
            seed,
        } => {
            if samples == 0 {
                return Err(EngineError::RuleOption("samples must be at least 1".into()));
            }
            if let Some(s) = stderr {
                if !(s > 0.0 && s.is_finite()) {
                    return Err(EngineError::RuleOption(format!(
                        "stderr must be a positive number, got {s}"
                    )));
                }
            }
            monte_carlo(problem, samples, stderr, seed, threads, progress, cancel)
        }
    }?;
    checked(result)
}

/// The invariant of every answer: the equities sum to 1. Problem::new refuses
/// the problems without a deal that it can prove; any other that turns out to
/// have none is an error here, never an answer of zeros.
fn checked(result: EquityResult) -> Result<EquityResult> {
    let sum: f64 = result.players.iter().map(|p| p.equity).sum();
    if (sum - 1.0).abs() <= 1e-9 {
        Ok(result)
    } else if sum == 0.0 {
        Err(invalid(
            "no deal is possible: the players' ranges cannot all be dealt a hand at once".into(),
        ))
    } else {
        Err(EngineError::RuleOption(format!(
            "internal error: the equities sum to {sum}, not 1 (please report this problem)"
        )))
    }
}

/// One piece of a by-deal run: the rank-pattern outcomes of one rank signature,
/// or the flush corrections of one deal in one suit, with the weight they count for.
enum Task {
    Ranks(Vec<Combo>, f64),
    Flushes(Vec<Combo>, u8, f64),
}

/// Tasks per chunk once there are many (fixed, so results never depend on threads).
const TASKS_PER_CHUNK: usize = 16;

fn exact_by_deal(
    problem: &Problem,
    threads: usize,
    progress: &(dyn Fn(f64) + Sync),
    cancel: &Cancel,
) -> Result<EquityResult> {
    let n = problem.num_players();
    let table = Table::new(&problem.board, problem.known);
    let orbits = problem.deal_orbits(cancel)?;
    // Step 1 depends only on the rank signature: weigh it by all deals sharing it.
    let mut signatures: BTreeMap<u128, (Vec<Combo>, f64)> = BTreeMap::new();
    for (deal, w) in &orbits {
        signatures
            .entry(Table::signature(deal))
            .or_insert_with(|| (deal.clone(), 0.0))
            .1 += w;
    }
    let total_weight: f64 = orbits.iter().map(|(_, w)| w).sum();
    let mut tasks: Vec<Task> = signatures
        .into_values()
        .map(|(deal, w)| Task::Ranks(deal, w))
        .collect();
    for (deal, w) in orbits {
        for suit in 0..4 {
            tasks.push(Task::Flushes(deal.clone(), suit, w));
        }
    }
    let per_chunk = if tasks.len() < 4 * TASKS_PER_CHUNK {
        1
    } else {
        TASKS_PER_CHUNK
    };
    let chunks: Vec<&[Task]> = tasks.chunks(per_chunk).collect();
    let tasks_done = AtomicU64::new(0);
    let work = |i: usize| -> Tally {
        let mut tally = Tally::new(n);
        for task in chunks.get(i).copied().unwrap_or(&[]) {
            // A task takes up to a few milliseconds: check before each one.
            if cancel.is_cancelled() {
                break;
            }
            let (outcomes, w) = match task {
                Task::Ranks(deal, w) => (table.rank_outcomes(deal), *w),
                Task::Flushes(deal, suit, w) => (table.flush_corrections(deal, *suit), *w),
            };
            for p in 0..n {
                let (win, tie) = outcomes.shares(p);
                tally.win[p] += w * win;
                tally.tie[p] += w * tie;
            }
            tasks_done.fetch_add(1, Ordering::Relaxed);
        }
        tally
    };
    let mut total = Tally::new(n);
    let mut merge = |t: Tally| {
        total.merge(&t);
        false
    };
    let task_count = tasks.len().max(1) as f64;
    let done = || tasks_done.load(Ordering::Relaxed) as f64 / task_count;
    run_chunks(
        chunks.len(),
        threads,
        &work,
        &mut merge,
        &done,
        progress,
        cancel,
    );
    cancel.check()?;
    progress(1.0);
    let held = 2 * n as u64 + u64::from(problem.known.len());
    total.weight = total_weight * binomial(52 - held, problem.missing() as u64) as f64;
    Ok(EquityResult {
        players: total.result(true),
        exact: true,
        samples: 0,
        boards: problem.exact_boards().max(1),
    })
}

/// One player's live combos for the current board: hand key and weight.
type Holdings = Vec<(CardSet, HandKey, f64)>;

fn exact_by_board(
    problem: &Problem,
    threads: usize,
    progress: &(dyn Fn(f64) + Sync),
    cancel: &Cancel,
) -> Result<EquityResult> {
    let n = problem.num_players();
    let deck = problem.board_deck();
    let k = problem.missing();
    let board_key = HandKey::from_cards(&problem.board);
    let holdings: Vec<Holdings> = problem
        .players
        .iter()
        .map(|combos| {
            combos
                .iter()
                .map(|&(c, w)| (c.set(), HandKey::from_cards(&[c.0, c.1]), w))
                .collect()
        })
        .collect();
    // Chunk i deals deck[i] as the lowest new board card (or the whole board when
    // none is missing). Problem::new made sure the deck holds the k cards.
    let chunks = if k == 0 {
        1
    } else {
        (deck.len() + 1).saturating_sub(k)
    };
    let boards_done = AtomicU64::new(0);
    let total_boards = binomial(deck.len() as u64, k as u64).max(1);
    let work = |i: usize| -> Tally {
        let mut tally = Tally::new(n);
        let mut ranks = vec![0u32; n];
        let mut visit = |key: HandKey, cards: CardSet| {
            showdown_ranges(&holdings, key, cards, &mut ranks, &mut tally, cancel)
        };
        deal_chunk(&deck, k, i, board_key, &mut visit);
        boards_done.fetch_add(
            binomial(
                deck.len().saturating_sub(i + 1) as u64,
                k.saturating_sub(1) as u64,
            ),
            Ordering::Relaxed,
        );
        tally
    };
    let mut total = Tally::new(n);
    let mut merge = |t: Tally| {
        total.merge(&t);
        false
    };
    let done = || boards_done.load(Ordering::Relaxed) as f64 / total_boards as f64;
    run_chunks(chunks, threads, &work, &mut merge, &done, progress, cancel);
    cancel.check()?;
    progress(1.0);
    Ok(EquityResult {
        players: total.result(true),
        exact: true,
        samples: 0,
        boards: if k == 0 { 1 } else { total_boards },
    })
}

/// Chunk `i` of an exact run: every board whose lowest new card is `deck[i]`
/// (the given board alone when no card is missing), until `visit` returns false.
fn deal_chunk<F: FnMut(HandKey, CardSet) -> bool>(
    deck: &[Card],
    k: usize,
    i: usize,
    board: HandKey,
    visit: &mut F,
) {
    match (k, deck.get(i)) {
        (0, _) => visit(board, CardSet::EMPTY),
        (_, Some(&first)) => deal_boards(
            &deck[i + 1..],
            k - 1,
            board.with(first),
            CardSet::EMPTY.with(first),
            visit,
        ),
        (_, None) => true,
    };
}

/// Calls `visit` for every way to add `k` cards of `deck` to the board, until it
/// returns false (then returns false).
fn deal_boards<F: FnMut(HandKey, CardSet) -> bool>(
    deck: &[Card],
    k: usize,
    key: HandKey,
    cards: CardSet,
    visit: &mut F,
) -> bool {
    if k == 0 {
        return visit(key, cards);
    }
    for (i, &c) in deck.iter().enumerate() {
        if deck.len() - i < k {
            break;
        }
        if !deal_boards(&deck[i + 1..], k - 1, key.with(c), cards.with(c), visit) {
            return false;
        }
    }
    true
}

/// All deals of one combo per player compatible with the new board cards and with
/// each other, weighted by the product of the combos' weights. Each combo is ranked
/// once per board. Returns false once `cancel` is set (checked every 2^14
/// showdowns: one board of wide multiway ranges holds billions).
fn showdown_ranges(
    holdings: &[Holdings],
    board: HandKey,
    new_cards: CardSet,
    ranks: &mut [u32],
    tally: &mut Tally,
    cancel: &Cancel,
) -> bool {
    let ranked: Vec<Vec<(CardSet, u32, f64)>> = holdings
        .iter()
        .map(|h| {
            h.iter()
                .filter(|(set, _, _)| set.intersection(new_cards).is_empty())
                .map(|&(set, key, w)| (set, board.union(key).rank().value(), w))
                .collect()
        })
        .collect();
    fn deal(
        ranked: &[Vec<(CardSet, u32, f64)>],
        p: usize,
        used: CardSet,
        w: f64,
        ranks: &mut [u32],
        tally: &mut Tally,
        cancel: &Cancel,
    ) -> bool {
        let Some(options) = ranked.get(p) else {
            tally.showdown(ranks, w);
            return !tally.deals.is_multiple_of(1 << 14) || !cancel.is_cancelled();
        };
        for &(set, rank, weight) in options {
            if set.intersection(used).is_empty() {
                ranks[p] = rank;
                if !deal(
                    ranked,
                    p + 1,
                    used.union(set),
                    w * weight,
                    ranks,
                    tally,
                    cancel,
                ) {
                    return false;
                }
            }
        }
        true
    }
    deal(&ranked, 0, CardSet::EMPTY, 1.0, ranks, tally, cancel)
}

/// Monte Carlo randomness: the `CardRng` stream of a chunk, spent 16 bits per
/// card drawn (Lemire's multiply-shift with rejection, so draws stay unbiased).
struct Draws {
    rng: CardRng,
    bits: u64,
    left: u32,
}

impl Draws {
    fn new(seed: u64) -> Draws {
        Draws {
            rng: CardRng::new(seed),
            bits: 0,
            left: 0,
        }
    }

    /// A uniform integer in `0..n`, `0 < n < 2^16` (cards, or a range's at most
    /// 1,326 combos).
    #[inline]
    fn below(&mut self, n: usize) -> usize {
        let n = n as u32;
        loop {
            if self.left == 0 {
                self.bits = self.rng.next_u64();
                self.left = 4;
            }
            let x = (self.bits & 0xffff) as u32;
            self.bits >>= 16;
            self.left -= 1;
            let m = x * n;
            // Reject the few low products that would favour some results.
            if (m & 0xffff) >= n || (m & 0xffff) >= (1 << 16) % n {
                return (m >> 16) as usize;
            }
        }
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    fn unit(&mut self) -> f64 {
        self.rng.unit()
    }
}

/// A player's combos prepared for weighted sampling.
struct Sampler {
    combos: Vec<(CardSet, HandKey)>,
    /// Walker's alias table (Vose's construction): slot `i` gives its own combo
    /// with probability `keep[i]`, else combo `alias[i]`, so a draw is one uniform
    /// index and at most one uniform float. Empty when all weights are equal (most
    /// ranges): the uniform index is then the whole draw.
    keep: Vec<f64>,
    alias: Vec<usize>,
}

impl Sampler {
    fn new(combos: &[(Combo, f64)]) -> Sampler {
        let uniform = combos.windows(2).all(|w| w[0].1 == w[1].1);
        let (keep, alias) = if uniform {
            (Vec::new(), Vec::new())
        } else {
            alias_table(&combos.iter().map(|&(_, w)| w).collect::<Vec<_>>())
        };
        Sampler {
            combos: combos
                .iter()
                .map(|&(c, _)| (c.set(), HandKey::from_cards(&[c.0, c.1])))
                .collect(),
            keep,
            alias,
        }
    }

    #[inline]
    fn draw(&self, rng: &mut Draws) -> (CardSet, HandKey) {
        let n = self.combos.len();
        if n == 1 {
            return self.combos[0];
        }
        let mut i = rng.below(n);
        if let (Some(&keep), Some(&alias)) = (self.keep.get(i), self.alias.get(i)) {
            if rng.unit() >= keep {
                i = alias;
            }
        }
        // Both the index and every alias are below n.
        self.combos[i]
    }
}

/// Vose's alias table for positive `weights`: `(keep, alias)` such that picking a
/// slot uniformly, then keeping it with probability `keep[slot]` or else taking
/// `alias[slot]`, draws index `i` with probability `weights[i] / sum`.
fn alias_table(weights: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let n = weights.len();
    let total: f64 = weights.iter().sum();
    // Each slot holds probability mass 1 once weights are scaled by n / total.
    let mut mass: Vec<f64> = weights.iter().map(|w| w * n as f64 / total).collect();
    let mut keep = vec![1.0; n];
    let mut alias: Vec<usize> = (0..n).collect();
    let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| mass[i] < 1.0);
    while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
        small.pop();
        keep[s] = mass[s];
        alias[s] = l;
        // Slot `s` is topped up from `l`, which may then fall below 1 itself.
        mass[l] -= 1.0 - mass[s];
        if mass[l] < 1.0 {
            large.pop();
            small.push(l);
        }
    }
    // Whatever is left holds mass 1 up to rounding and keeps its own combo.
    (keep, alias)
}

/// The board cards of a Monte Carlo trial when every player holds one known hand:
/// a partial Fisher-Yates shuffle of the `deck` cards left, whose `k` swap offsets
/// (below `deck`, `deck - 1`, ...) all come from one 64-bit draw.
///
/// The draw is Lemire's multiply-shift for one integer below the product `P` of
/// the bounds, read off in mixed radix by multiplying the low word by each bound in
/// turn (Brackett-Rozinsky and Lemire, "Batched ranged random integer generation",
/// 2024): `r * P = X * 2^64 + low` with `X` the mixed-radix number of the offsets,
/// and rejecting `low < 2^64 mod P` makes `X` exactly uniform. `P` is at most
/// 52^5 < 2^29, so fewer than one trial in 10^10 is drawn again.
struct BoardDraw {
    bounds: [u64; 5],
    threshold: u64,
}

impl BoardDraw {
    fn new(deck: usize, k: usize) -> BoardDraw {
        let mut bounds = [1u64; 5];
        for (j, b) in bounds[..k].iter_mut().enumerate() {
            *b = (deck - j) as u64;
        }
        let product: u64 = bounds.iter().product();
        BoardDraw {
            bounds,
            threshold: product.wrapping_neg() % product,
        }
    }

    /// The offsets of the `k` swaps (the rest are 0).
    #[inline]
    fn draw(&self, rng: &mut CardRng) -> [usize; 5] {
        loop {
            let mut low = rng.next_u64();
            let mut picks = [0usize; 5];
            for (pick, &bound) in picks.iter_mut().zip(&self.bounds) {
                let m = u128::from(low) * u128::from(bound);
                *pick = (m >> 64) as usize;
                low = m as u64;
            }
            if low >= self.threshold {
                return picks;
            }
        }
    }
}

/// Monte Carlo scoring of whole blocks of trials (every trial has weight 1).
/// Heads-up keeps integer win and loss counts; more players go through a
/// [`Tally`] one showdown at a time.
struct Score {
    tally: Tally,
    ranks: Vec<u32>,
    wins: u64,
    losses: u64,
}

impl Score {
    fn new(players: usize) -> Score {
        Score {
            tally: Tally::new(players),
            ranks: vec![0; players],
            wins: 0,
            losses: 0,
        }
    }

    /// Ranks the first `m` hands of each player in `full` (into `classes`) and
    /// scores those `m` trials.
    fn block(
        &mut self,
        t: &Tables,
        full: &[[HandKey; TRIAL_BLOCK]],
        classes: &mut [[u16; TRIAL_BLOCK]],
        m: usize,
    ) {
        for (out, keys) in classes.iter_mut().zip(full) {
            t.classes_of(&keys[..m], &mut out[..m]);
        }
        if let [a, b] = classes {
            for (ra, rb) in a[..m].iter().zip(&b[..m]) {
                self.wins += u64::from(ra > rb);
                self.losses += u64::from(ra < rb);
            }
        } else {
            for j in 0..m {
                for (slot, c) in self.ranks.iter_mut().zip(classes.iter()) {
                    *slot = u32::from(c[j]);
                }
                self.tally.showdown(&self.ranks, 1.0);
            }
        }
    }

    fn into_tally(mut self, trials: u64) -> Tally {
        if self.ranks.len() == 2 {
            let [win, lose] = [self.wins, self.losses].map(|c| c as f64);
            let split = (trials - self.wins - self.losses) as f64;
            self.tally.win = vec![win, lose];
            self.tally.tie = vec![split / 2.0, split / 2.0];
            self.tally.squares = vec![win + split / 4.0, lose + split / 4.0];
            self.tally.weight = trials as f64;
            self.tally.deals = trials;
        }
        self.tally
    }
}

/// Whether `combos` is every two cards outside `known`, all of one weight.
fn deals_any_two(combos: &[(Combo, f64)], known: CardSet) -> bool {
    let live = 52 - u64::from(known.len());
    combos.len() as u64 == binomial(live, 2) && combos.windows(2).all(|w| w[0].1 == w[1].1)
}

/// A uniform card not in `used`, added to it (Problem::new left enough).
#[inline]
fn draw_card(rng: &mut Draws, used: &mut CardSet) -> Card {
    loop {
        let c = Card::from_index_unchecked(rng.below(52) as u8);
        if used.insert(c) {
            return c;
        }
    }
}

fn no_deal() -> EngineError {
    invalid("no deal is possible: the players' ranges cannot all be dealt a hand at once".into())
}

/// Whole deals a Monte Carlo trial redraws before it gives up (about 50 ms):
/// the dealer is chosen so that this never happens short of a pathology.
const MAX_REDRAWS: u32 = 1 << 20;
/// Deals of the quick pilot that picks a dealer, and the share of them that must
/// have no card twice for redrawing to be used.
const PILOT: u32 = 4096;
const PILOT_SHARE: u32 = 8;
/// Deals of the long pilot run when ranges are too wide for a direct sampler,
/// and how many must succeed for redrawing to go ahead (1 in 1,000).
const LONG_PILOT: u32 = 1 << 16;
const LONG_PILOT_SUCCESSES: u32 = 64;

/// How the players holding ranges (not every two cards) get their hands.
enum Dealer {
    /// Draw each player's combo by weight and redraw the whole deal on a
    /// collision: exact under card removal, fast while collisions are rare.
    Redraw,
    /// Draw the deal directly by its weight among the deals with no card twice.
    Direct(DealSampler),
}

impl Dealer {
    /// The hands of `restricted` players into `hands`; the used cards (with
    /// `known`), or None if redrawing gave up.
    #[inline]
    fn deal(
        &self,
        rng: &mut Draws,
        samplers: &[Sampler],
        restricted: &[usize],
        known: CardSet,
        hands: &mut [HandKey],
        picks: &mut [usize],
    ) -> Option<CardSet> {
        match self {
            Dealer::Direct(sampler) => {
                let used = sampler.draw(&mut || rng.unit(), known, picks);
                for (&p, &i) in restricted.iter().zip(picks.iter()) {
                    hands[p] = samplers[p].combos.get(i)?.1;
                }
                Some(used)
            }
            Dealer::Redraw => (0..MAX_REDRAWS).find_map(|_| {
                let mut used = known;
                for &p in restricted {
                    let (set, key) = samplers[p].draw(rng);
                    if !set.intersection(used).is_empty() {
                        return None;
                    }
                    used = used.union(set);
                    hands[p] = key;
                }
                Some(used)
            }),
        }
    }
}

/// Redraws `tries` whole deals of the `restricted` players (a fixed seed, so
/// the choice depends on the problem alone): how many had no card twice, and
/// per player how often its combo was the one that collided.
fn pilot(
    samplers: &[Sampler],
    restricted: &[usize],
    known: CardSet,
    tries: u32,
) -> (u32, Vec<u32>) {
    let mut rng = Draws::new(0x5eed_dea1);
    let mut blamed = vec![0; samplers.len()];
    let mut dealt = 0;
    for _ in 0..tries {
        let mut used = known;
        let clash = restricted.iter().find(|&&p| {
            let (set, _) = samplers[p].draw(&mut rng);
            let clash = !set.intersection(used).is_empty();
            used = used.union(set);
            clash
        });
        match clash {
            Some(&p) => blamed[p] += 1,
            None => dealt += 1,
        }
    }
    (dealt, blamed)
}

/// Redraw while collisions are rare; else the direct sampler; else, when the
/// ranges are too wide for it, redraw if at least 1 deal in 1,000 succeeds,
/// and refuse (naming the players) otherwise.
fn choose_dealer(
    weighted: &[Vec<(Combo, f64)>],
    samplers: &[Sampler],
    restricted: &[usize],
    known: CardSet,
    cancel: &Cancel,
) -> Result<Dealer> {
    let (dealt, _) = pilot(samplers, restricted, known, PILOT);
    if dealt * PILOT_SHARE >= PILOT {
        return Ok(Dealer::Redraw);
    }
    let combos: Vec<&deals::Combos> = restricted.iter().map(|&p| weighted[p].as_slice()).collect();
    match DealSampler::new(&combos, cancel) {
        Ok(sampler) => Ok(Dealer::Direct(sampler)),
        Err(Unbuilt::Cancelled) => Err(EngineError::Cancelled),
        Err(Unbuilt::NoDeal) => Err(no_deal()),
        Err(Unbuilt::TooLarge) => {
            let (dealt, _) = pilot(samplers, restricted, known, LONG_PILOT);
            if dealt >= LONG_PILOT_SUCCESSES {
                Ok(Dealer::Redraw)
            } else {
                Err(too_tight(samplers, restricted, known))
            }
        }
    }
}

/// The error of a Monte Carlo run that cannot deal the ranges: it names the
/// players whose combos collide most often.
fn too_tight(samplers: &[Sampler], restricted: &[usize], known: CardSet) -> EngineError {
    let (dealt, blamed) = pilot(samplers, restricted, known, LONG_PILOT);
    let most = blamed.iter().copied().max().unwrap_or(0);
    let names: Vec<usize> = (0..blamed.len())
        .filter(|&p| blamed[p] > 0 && blamed[p] * 10 >= most)
        .collect();
    EngineError::RuleOption(format!(
        "Monte Carlo cannot deal these ranges: only {dealt} of {LONG_PILOT} random deals give every player a hand with no card twice; the ranges of {} are too tight together (narrow fewer of them, or use exact=True)",
        players_named(&names)
    ))
}

fn monte_carlo(
    problem: &Problem,
    samples: u64,
    stderr: Option<f64>,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(f64) + Sync),
    cancel: &Cancel,
) -> Result<EquityResult> {
    let n = problem.num_players();
    let known = problem.known;
    // Cards of the players given one known hand, and the board and dead cards.
    let blocked = problem
        .players
        .iter()
        .filter(|combos| combos.len() == 1)
        .fold(known, |used, combos| used.union(combos[0].0.set()));
    // A range's combos that share a card with a known hand would always make the
    // deal be drawn again: dropping them first gives the same distribution.
    let weighted: Vec<Vec<(Combo, f64)>> = problem
        .players
        .iter()
        .map(|combos| {
            if combos.len() == 1 {
                return combos.clone();
            }
            combos
                .iter()
                .copied()
                .filter(|(c, _)| c.set().intersection(blocked).is_empty())
                .collect()
        })
        .collect();
    if weighted.iter().any(Vec::is_empty) {
        return Err(no_deal());
    }
    let samplers: Vec<Sampler> = weighted.iter().map(|c| Sampler::new(c)).collect();
    // Players whose range is every two live cards alike are dealt last, card by
    // card from what the others leave: the other players' deal is then drawn
    // as if they were absent (every deal leaves them the same number of ways).
    let (any_two, restricted): (Vec<usize>, Vec<usize>) =
        (0..n).partition(|&p| deals_any_two(&problem.players[p], known));
    let dealer = choose_dealer(&weighted, &samplers, &restricted, known, cancel)?;
    let stuck = AtomicBool::new(false);
    let board_key = HandKey::from_cards(&problem.board);
    let k = problem.missing();
    let chunks = samples.div_ceil(MC_CHUNK);
    // With one hand per player the board comes from one fixed deck: a partial
    // Fisher-Yates shuffle draws it without rejection.
    let fixed: Option<Vec<HandKey>> = samplers
        .iter()
        .map(|s| (s.combos.len() == 1).then(|| s.combos[0].1))
        .collect();
    // The cards the fixed deck leaves out: as `blocked`, plus any range that the
    // filter above cut down to one combo.
    let held = samplers
        .iter()
        .filter(|s| s.combos.len() == 1)
        .fold(known, |used, s| used.union(s.combos[0].0));
    // The cards left, as one-card hand keys: a drawn card is added to the board
    // without looking up its key. 64 slots, so an index masked by 63 needs no
    // bounds check (the draws stay below the number of cards left).
    let mut fixed_deck = [HandKey::EMPTY; 64];
    let mut deck_len = 0;
    for card in (0..52u8).map(Card::from_index_unchecked) {
        if !held.contains(card) {
            fixed_deck[deck_len] = HandKey::EMPTY.with(card);
            deck_len += 1;
        }
    }
    let t = tables();
    let board_draw = BoardDraw::new(deck_len, k);
    let work = |i: usize| -> Tally {
        let trials = MC_CHUNK.min(samples - i as u64 * MC_CHUNK);
        // Trials go in blocks: every hand of a block is dealt first (keys in
        // `full[player][trial]`), then each player's hands are ranked in one batch
        // of independent lookups, then the block is scored.
        let mut full = vec![[HandKey::EMPTY; TRIAL_BLOCK]; n];
        let mut classes = vec![[0u16; TRIAL_BLOCK]; n];
        let mut score = Score::new(n);
        let mut left = trials as usize;
        if let Some(hands) = &fixed {
            let mut rng = CardRng::new(derive_seed(seed, i as u64));
            let mut deck = fixed_deck;
            let mut scored = 0;
            while left > 0 && !cancel.is_cancelled() {
                let m = left.min(TRIAL_BLOCK);
                left -= m;
                for j in 0..m {
                    let picks = board_draw.draw(&mut rng);
                    let mut board = board_key;
                    for (j, &pick) in picks[..k].iter().enumerate() {
                        // The drawn card is read before the swap, so it is used
                        // straight from the register rather than read back.
                        let (j, at) = (j & 63, (j + pick) & 63);
                        let card = deck[at];
                        deck.swap(j, at);
                        board = board.union(card);
                    }
                    for (keys, &hand) in full.iter_mut().zip(hands) {
                        keys[j] = board.union(hand);
                    }
                }
                score.block(t, &full, &mut classes, m);
                scored += m as u64;
            }
            return score.into_tally(scored);
        }
        let mut rng = Draws::new(derive_seed(seed, i as u64));
        let mut hands = vec![HandKey::EMPTY; n];
        let mut picks = vec![0; restricted.len()];
        let mut scored = 0;
        while left > 0 && !cancel.is_cancelled() {
            let m = left.min(TRIAL_BLOCK);
            left -= m;
            for j in 0..m {
                let Some(mut used) = dealer.deal(
                    &mut rng,
                    &samplers,
                    &restricted,
                    known,
                    &mut hands,
                    &mut picks,
                ) else {
                    stuck.store(true, Ordering::Relaxed);
                    return score.into_tally(scored);
                };
                for &p in &any_two {
                    let a = draw_card(&mut rng, &mut used);
                    let b = draw_card(&mut rng, &mut used);
                    hands[p] = HandKey::EMPTY.with(a).with(b);
                }
                let mut board = board_key;
                for _ in 0..k {
                    board = board.with(draw_card(&mut rng, &mut used));
                }
                for (keys, &hand) in full.iter_mut().zip(&hands) {
                    keys[j] = board.union(hand);
                }
            }
            score.block(t, &full, &mut classes, m);
            scored += m as u64;
        }
        score.into_tally(scored)
    };
    let mut total = Tally::new(n);
    let trials_done = AtomicU64::new(0);
    let target = stderr;
    let mut merge = |t: Tally| {
        total.merge(&t);
        trials_done.store(total.deals, Ordering::Relaxed);
        match target {
            Some(s) if total.deals >= MC_MIN_TRIALS => total.stderrs().iter().all(|&e| e <= s),
            _ => false,
        }
    };
    let done = || trials_done.load(Ordering::Relaxed) as f64 / samples as f64;
    run_chunks(
        chunks as usize,
        threads,
        &work,
        &mut merge,
        &done,
        progress,
        cancel,
    );
    cancel.check()?;
    if stuck.load(Ordering::Relaxed) {
        return Err(too_tight(&samplers, &restricted, known));
    }
    progress(1.0);
    Ok(EquityResult {
        players: total.result(false),
        exact: false,
        samples: total.deals,
        boards: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::NEVER;
    use crate::cards::parse_cards;
    use crate::rng::CardRng;

    fn ranges(specs: &[&str]) -> Vec<Range> {
        specs.iter().map(|s| Range::parse(s).unwrap()).collect()
    }

    fn run(specs: &[&str], board: &str, method: Method, threads: usize) -> EquityResult {
        let problem = Problem::new(&ranges(specs), &parse_cards(board).unwrap(), &[]).unwrap();
        equity(&problem, method, Some(threads), &|_| {}, &NEVER).unwrap()
    }

    /// Independent brute force: every deal of one combo per player and every board,
    /// ranked card by card with the validated evaluator.
    fn brute_force(specs: &[&str], board: &str) -> Vec<f64> {
        let board = parse_cards(board).unwrap();
        let rs = ranges(specs);
        let mut shares = vec![0.0; rs.len()];
        let mut total = 0.0;
        let deals: Vec<Vec<Combo>> = rs.iter().fold(vec![vec![]], |acc, r| {
            acc.into_iter()
                .flat_map(|d| {
                    r.combos().iter().map(move |&(c, _)| {
                        let mut d2 = d.clone();
                        d2.push(c);
                        d2
                    })
                })
                .collect()
        });
        for deal in deals {
            let mut used: Vec<Card> = board.clone();
            for c in &deal {
                used.extend([c.0, c.1]);
            }
            let distinct = CardSet::from_cards(used.iter().copied());
            if distinct.len() as usize != used.len() {
                continue;
            }
            let rest: Vec<Card> = (0..52u32)
                .map(|i| Card::from_index(i).unwrap())
                .filter(|c| !distinct.contains(*c))
                .collect();
            let mut runouts: Vec<Vec<Card>> = vec![vec![]];
            for _ in board.len()..5 {
                runouts = runouts
                    .into_iter()
                    .flat_map(|r| {
                        let last = r.last().copied();
                        rest.iter()
                            .filter(move |&&c| last.is_none_or(|l| c > l))
                            .map(move |&c| {
                                let mut r2 = r.clone();
                                r2.push(c);
                                r2
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect();
            }
            for run in runouts {
                let ranks: Vec<_> = deal
                    .iter()
                    .map(|c| {
                        let mut cards = board.clone();
                        cards.extend(&run);
                        cards.extend([c.0, c.1]);
                        super::super::rank_cards(&cards).unwrap()
                    })
                    .collect();
                let best = *ranks.iter().max().unwrap();
                let k = ranks.iter().filter(|&&r| r == best).count() as f64;
                for (p, r) in ranks.iter().enumerate() {
                    if *r == best {
                        shares[p] += 1.0 / k;
                    }
                }
                total += 1.0;
            }
        }
        shares.iter().map(|s| s / total).collect()
    }

    #[test]
    fn exact_matches_brute_force_on_small_cases() {
        for (specs, board) in [
            (&["AhAs", "KdKc"][..], "Ts9s2h3c"),
            (&["AhKh", "QQ", "JTs"][..], "Qh7h2c8d"),
            (&["AK", "22"][..], "Kc8h3d"),
            (&["AhAs", "AdAc"][..], "Ts9s2h3c4d"),
        ] {
            assert_exact_is_brute_force(specs, board);
        }
    }

    /// Exact equity on 2 threads equals [`brute_force`] for every player, each
    /// player's win and tie add up to the equity, and the equities sum to 1.
    fn assert_exact_is_brute_force(specs: &[&str], board: &str) {
        let exact = run(specs, board, Method::Exact, 2);
        let reference = brute_force(specs, board);
        for (p, r) in exact.players.iter().zip(&reference) {
            assert!(
                (p.equity - r).abs() < 1e-12,
                "{specs:?} {board}: {} vs {r}",
                p.equity
            );
            assert!((p.win + p.tie - p.equity).abs() < 1e-12);
        }
        let sum: f64 = exact.players.iter().map(|p| p.equity).sum();
        assert!((sum - 1.0).abs() < 1e-12);
    }

    fn assert_same(a: &EquityResult, b: &EquityResult, what: &str) {
        assert_eq!(a.boards, b.boards, "{what}");
        for (x, y) in a.players.iter().zip(&b.players) {
            assert!((x.equity - y.equity).abs() < 1e-12, "{what}: {x:?} {y:?}");
            assert!((x.win - y.win).abs() < 1e-12, "{what}: {x:?} {y:?}");
            assert!((x.tie - y.tie).abs() < 1e-12, "{what}: {x:?} {y:?}");
        }
    }

    /// Both exact plans on one problem.
    fn both_plans(
        specs: &[String],
        board: &[Card],
        dead: &[Card],
    ) -> Option<(EquityResult, EquityResult)> {
        let rs: Vec<Range> = specs.iter().map(|s| Range::parse(s).unwrap()).collect();
        let problem = Problem::new(&rs, board, dead).ok()?;
        Some((
            exact_by_deal(&problem, 2, &|_| {}, &NEVER).unwrap(),
            exact_by_board(&problem, 2, &|_| {}, &NEVER).unwrap(),
        ))
    }

    #[test]
    fn rank_patterns_match_every_board_on_random_problems() {
        // Hands, ranges, dead cards, flops, turns and rivers, two to five players.
        let classes = [
            "AK",
            "QQ+",
            "T9s",
            "A5s-A2s",
            "KQo",
            "22-44",
            "JTs+",
            "AhKh, 7c7d",
            "87s:0.5, 65s",
        ];
        let mut rng = CardRng::new(17);
        let mut deck: Vec<Card> = (0..52).map(Card::from_index_unchecked).collect();
        let mut checked = 0;
        for round in 0..120 {
            rng.shuffle(&mut deck);
            let board_len = [3, 4, 5][round % 3];
            let players = 2 + (round / 3) % 4;
            let dead_len = (round / 12) % 2;
            let board = &deck[..board_len];
            let dead = &deck[board_len..board_len + dead_len];
            let mut at = board_len + dead_len;
            let specs: Vec<String> = (0..players)
                .map(|p| {
                    if (round + p) % 3 == 0 && players <= 3 {
                        classes[rng.below(classes.len() as u64) as usize].to_string()
                    } else {
                        at += 2;
                        format!("{}{}", deck[at - 2], deck[at - 1])
                    }
                })
                .collect();
            if let Some((by_deal, by_board)) = both_plans(&specs, board, dead) {
                assert_same(
                    &by_deal,
                    &by_board,
                    &format!("{specs:?} {board:?} dead {dead:?}"),
                );
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn rank_patterns_match_every_board_preflop() {
        for specs in [
            vec!["AhAs", "KdKc"],
            vec!["7h2d", "7s2c"],
            vec!["AhKh", "QhJh", "2c2d"],
            vec!["AK", "QQ"],
            vec!["9s8s", "AcKd", "4h4d", "JhTh"],
        ] {
            let specs: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
            let (by_deal, by_board) = both_plans(&specs, &[], &[]).unwrap();
            assert_same(&by_deal, &by_board, &format!("{specs:?}"));
        }
        let dead = parse_cards("Ac Kd 2h").unwrap();
        let specs = vec!["QsJs".to_string(), "TT".to_string()];
        let (by_deal, by_board) = both_plans(&specs, &[], &dead).unwrap();
        assert_same(&by_deal, &by_board, "dead cards preflop");
    }

    #[test]
    fn flops_and_turns_match_brute_force() {
        for (specs, board) in [
            (&["AhKh", "QsQd", "Jc9c"][..], "Jh9h2c"),
            (&["AK", "QsQd", "76s"][..], "Qh7h2c5s"),
            (&["AhAs", "KK"][..], "Ks9s2s"),
            (&["5c4c", "AdAh", "KsKh", "9d9c"][..], "6c7c8d"),
        ] {
            assert_exact_is_brute_force(specs, board);
        }
    }

    #[test]
    fn suit_symmetries_keep_the_board_dead_cards_and_ranges() {
        let problem = |specs: &[&str], board: &str| {
            Problem::new(&ranges(specs), &parse_cards(board).unwrap(), &[]).unwrap()
        };
        assert_eq!(problem(&["AK", "QQ"], "").suit_symmetries().len(), 24);
        assert_eq!(problem(&["AK", "QQ"], "Ts9s2h").suit_symmetries().len(), 2);
        assert_eq!(problem(&["AhAs", "KdKc"], "").suit_symmetries().len(), 4);
        assert_eq!(
            problem(&["AKs:0.5, AhKh", "QQ"], "")
                .suit_symmetries()
                .len(),
            6
        );
        // 16 x 6 deals minus the 0 sharing cards, in orbits of up to 24.
        let orbits = problem(&["AK", "QQ"], "").deal_orbits(&NEVER).unwrap();
        let weight: f64 = orbits.iter().map(|(_, w)| w).sum();
        assert_eq!(weight, 96.0);
        assert!(orbits.len() < 10, "{}", orbits.len());
    }

    #[test]
    fn aces_against_kings_preflop() {
        let r = run(&["AhAs", "KdKc"], "", Method::Exact, 2);
        assert_eq!(r.boards, 1_712_304);
        let reference = brute_force(&["AhAs", "KdKc"], "");
        for (p, r) in r.players.iter().zip(&reference) {
            assert!((p.equity - r).abs() < 1e-12);
        }
        // The same counts as a brute force over eval7: AA wins 1,388,072 boards,
        // KK 317,694, and 6,538 split.
        let boards = 1_712_304.0;
        assert!((r.players[0].win * boards - 1_388_072.0).abs() < 1e-6);
        assert!((r.players[1].win * boards - 317_694.0).abs() < 1e-6);
        assert!((r.players[0].tie * boards - 6_538.0 / 2.0).abs() < 1e-6);
        // Monte Carlo on five drawn board cards (the batched draw) lands near it.
        let mc = Method::MonteCarlo {
            samples: 1_000_000,
            stderr: None,
            seed: 4,
        };
        let m = run(&["AhAs", "KdKc"], "", mc, 2);
        for (e, m) in r.players.iter().zip(&m.players) {
            assert!((e.equity - m.equity).abs() < 4.0 * m.stderr, "{e:?} {m:?}");
            assert!((e.tie - m.tie).abs() < 0.001, "{e:?} {m:?}");
        }
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        let mc = Method::MonteCarlo {
            samples: 200_000,
            stderr: Some(0.002),
            seed: 9,
        };
        let a = run(&["QQ+, AKs", "random"], "", mc, 1);
        let b = run(&["QQ+, AKs", "random"], "", mc, 3);
        assert_eq!(a, b);
        // Known hands take the batched board draw.
        for players in [&["AhAs", "KdKc"][..], &["AhAs", "KdKc", "7c2d"]] {
            let a = run(players, "", mc, 1);
            assert_eq!(a, run(players, "", mc, 3));
            assert_ne!(
                a,
                run(
                    players,
                    "",
                    Method::MonteCarlo {
                        samples: 200_000,
                        stderr: Some(0.002),
                        seed: 10,
                    },
                    3
                )
            );
        }
        let e1 = run(&["AK", "QQ"], "2c7d9h", Method::Exact, 1);
        let e3 = run(&["AK", "QQ"], "2c7d9h", Method::Exact, 3);
        assert_eq!(e1, e3);
    }

    #[test]
    fn batched_board_draws_are_uniform() {
        // Three cards from a deck of six: 120 ordered offset triples, equally likely.
        let draw = BoardDraw::new(6, 3);
        let mut rng = CardRng::new(12);
        let mut seen = [0u32; 6 * 5 * 4];
        for _ in 0..240_000 {
            let p = draw.draw(&mut rng);
            assert!(p[0] < 6 && p[1] < 5 && p[2] < 4 && p[3] == 0 && p[4] == 0);
            seen[p[0] * 20 + p[1] * 4 + p[2]] += 1;
        }
        // 2,000 expected each, standard deviation about 45.
        assert!(
            seen.iter().all(|&n| (1_775..=2_225).contains(&n)),
            "{seen:?}"
        );
    }

    #[test]
    fn monte_carlo_lands_near_exact() {
        let exact = run(&["AhKh", "QsQd"], "Jh9h2c", Method::Exact, 2);
        let mc = run(
            &["AhKh", "QsQd"],
            "Jh9h2c",
            Method::MonteCarlo {
                samples: 400_000,
                stderr: None,
                seed: 1,
            },
            2,
        );
        assert_eq!(mc.samples, 400_000);
        for (e, m) in exact.players.iter().zip(&mc.players) {
            assert!((e.equity - m.equity).abs() < 4.0 * m.stderr, "{e:?} {m:?}");
        }
    }

    #[test]
    fn alias_tables_give_each_combo_its_weight() {
        for weights in [
            vec![0.5, 1.0],
            vec![0.3, 0.3, 0.4, 1.0, 0.05],
            vec![1.0, 0.7, 0.7, 0.7, 0.2, 0.2, 1.0, 0.01],
        ] {
            let (keep, alias) = alias_table(&weights);
            let n = weights.len() as f64;
            let total: f64 = weights.iter().sum();
            // Exact probability of each index: its own kept share plus the shares
            // other slots hand over to it.
            let mut p = vec![0.0; weights.len()];
            for (slot, (&k, &a)) in keep.iter().zip(&alias).enumerate() {
                p[slot] += k / n;
                p[a] += (1.0 - k) / n;
            }
            for (got, w) in p.iter().zip(&weights) {
                assert!((got - w / total).abs() < 1e-12, "{weights:?}: {p:?}");
            }
        }
    }

    #[test]
    fn range_monte_carlo_lands_near_exact() {
        // Uniform and weighted ranges, combos blocked by a known hand (dropped
        // before sampling), a range cut to one combo by it (alone: then every
        // hand is known and the board comes from the fixed deck), three players.
        for (specs, board) in [
            (&["AhKh", "QQ+,AKs,AKo"][..], "Jh9h2c"),
            (&["AhKh", "QQ+:0.3,AKs,JTs:0.7"][..], "7c8d2s"),
            (&["AhKh", "AhAs,AdAc", "KK"][..], "Tc9c3d"),
            (&["AhKh", "AhAs,AdAc"][..], "Tc9c3d"),
            (&["QQ+,AKs:0.5", "JJ-99", "AhKh"][..], "2c7d9s"),
        ] {
            let exact = run(specs, board, Method::Exact, 2);
            let mc = run(
                specs,
                board,
                Method::MonteCarlo {
                    samples: 300_000,
                    stderr: None,
                    seed: 4,
                },
                2,
            );
            for (e, m) in exact.players.iter().zip(&mc.players) {
                let off = (e.equity - m.equity).abs();
                assert!(off < 4.0 * m.stderr, "{specs:?} {board}: {e:?} {m:?}");
            }
        }
    }

    #[test]
    fn huge_exact_problems_are_refused() {
        let problem = Problem::new(&ranges(&["QQ+", "random", "22+"]), &[], &[]).unwrap();
        let err = equity(&problem, Method::Exact, Some(1), &|_| {}, &NEVER).unwrap_err();
        assert!(err.to_string().contains("Monte Carlo"), "{err}");
    }

    #[test]
    fn impossible_inputs_are_errors() {
        let cards = |t: &str| parse_cards(t).unwrap();
        assert!(Problem::new(&ranges(&["AhAs"]), &[], &[]).is_err());
        assert!(Problem::new(&ranges(&["AhAs"; 11]), &[], &[]).is_err());
        assert!(Problem::new(&ranges(&["AhAs", "AhKd"]), &[], &[]).is_err());
        assert!(Problem::new(&ranges(&["AA", "AA", "AA"]), &[], &[]).is_err());
        assert!(Problem::new(&ranges(&["AA", "KK"]), &cards("Ah As Ad"), &cards("Ac")).is_err());
        assert!(Problem::new(&ranges(&["AA", "KK"]), &cards("2c 2c"), &[]).is_err());
        assert!(Problem::new(&ranges(&["AA", "KK"]), &cards("2c3c4c5c6c7c"), &[]).is_err());
        let ok = Problem::new(&ranges(&["AA", "KK"]), &cards("Ah"), &cards("As"));
        assert!(ok.is_ok());
    }

    fn error(specs: &[&str], board: &str, dead: &str) -> String {
        let cards = |t: &str| parse_cards(t).unwrap();
        match Problem::new(&ranges(specs), &cards(board), &cards(dead)) {
            Ok(_) => panic!("{specs:?} {board} {dead} is accepted"),
            Err(e) => e.to_string(),
        }
    }

    fn deck(skip: usize, take: usize) -> String {
        (0..52)
            .map(|i| Card::from_index_unchecked(i).to_string())
            .skip(skip)
            .take(take)
            .collect()
    }

    #[test]
    fn infeasible_problems_name_the_conflict() {
        let all = deck(0, 48);
        let e = error(&["random", "random"], "", &all);
        assert!(
            e.contains("5 board cards are still to come but only 0 live cards are left"),
            "{e}"
        );
        let e = error(&["random"; 3], "", &deck(0, 46));
        assert!(e.contains("only 0 live cards are left"), "{e}");
        let e = error(&["random"; 10], "", &deck(0, 33));
        assert!(
            e.contains("10 players need 20 hole cards but only 19 live cards"),
            "{e}"
        );
        let e = error(&["random"; 10], "AsAhAdAcKs", &deck(0, 29));
        assert!(e.contains("only 18 live cards"), "{e}");
        let e = error(&["random:0", "AhAs"], "", "");
        assert!(e.contains("player 0") && e.contains("weight 0"), "{e}");
        let e = error(&["AhAs", "AhKd"], "", "");
        assert!(
            e.contains("player 0's hand AsAh and player 1's hand AhKd both hold Ah"),
            "{e}"
        );
        let e = error(&["AA", "AhKd"], "Ac", "Ad");
        assert!(
            e.contains("player 0's only possible hand AsAh and player 1's hand AhKd both hold Ah"),
            "{e}"
        );
        let e = error(&["KdKc", "AhAs"], "Ts9s2h", "Ah");
        assert!(
            e.contains("player 1") && e.contains("Ah, which is a dead card"),
            "{e}"
        );
        let e = error(&["random", "AA", "QQ", "AA", "AA"], "", "");
        assert!(e.contains("players 1, 3 and 4 cannot"), "{e}");
        assert!(e.contains("only 4 live cards; ranges AA)"), "{e}");
        let e = error(&["AK,AQ,KQ,AJ,KJ,QJ"; 10], "", "");
        assert!(e.contains("cannot all be dealt"), "{e}");
        let long = format!("{}AA", "AA:0.5, ".repeat(40));
        let e = error(&["AA", "AA", &long], "", "");
        assert!(e.len() < 300 && e.contains("..."), "{e}");
        // One live card, three missing: the CLI report of issue 13.
        let cards = |t: &str| parse_cards(t).unwrap();
        let dead: Vec<Card> = (0..52)
            .map(Card::from_index_unchecked)
            .filter(|c| !cards("AhAsKdKc2c3c4cAd").contains(c))
            .collect();
        let r = Problem::new(&ranges(&["AhAs", "KdKc"]), &cards("2c3c4c"), &dead);
        let e = r.err().unwrap().to_string();
        assert!(
            e.contains("2 board cards are still to come but only 1 live card is left"),
            "{e}"
        );
    }

    #[test]
    fn tiny_weights_do_not_underflow() {
        let problem = Problem::new(&ranges(&["AA:1e-300,KK:1e-300"; 4]), &[], &[]).unwrap();
        let mc = Method::MonteCarlo {
            samples: 20_000,
            stderr: None,
            seed: 1,
        };
        let r = equity(&problem, mc, Some(2), &|_| {}, &NEVER).unwrap();
        assert!(r.players.iter().all(|p| p.equity > 0.1), "{r:?}");
        let problem = Problem::new(&ranges(&["AA:1e-300", "KK:1e-300"]), &[], &[]).unwrap();
        let r = equity(&problem, Method::Exact, Some(2), &|_| {}, &NEVER).unwrap();
        assert!((r.players[0].equity - 0.819_460_5).abs() < 1e-6, "{r:?}");
    }

    #[test]
    fn no_live_card_left_is_one_board() {
        let cards = |t: &str| parse_cards(t).unwrap();
        let dead: Vec<Card> = (0..52)
            .map(Card::from_index_unchecked)
            .filter(|c| !cards("AhAsKdKc2c3c4c5d9d").contains(c))
            .collect();
        let problem =
            Problem::new(&ranges(&["AhAs", "KdKc"]), &cards("2c3c4c5d9d"), &dead).unwrap();
        let r = equity(&problem, Method::Exact, Some(2), &|_| {}, &NEVER).unwrap();
        assert_eq!(r.boards, 1);
        assert!((r.players[0].equity - 1.0).abs() < 1e-12, "{r:?}");
        let mc = Method::MonteCarlo {
            samples: 1000,
            stderr: None,
            seed: 1,
        };
        let r = equity(&problem, mc, Some(2), &|_| {}, &NEVER).unwrap();
        assert_eq!(r.players[0].equity, 1.0);
    }

    /// Exact and Monte Carlo equity of one problem agree within five standard errors.
    fn assert_sampled_near_exact(specs: &[&str], board: &str, dead: &str) {
        let cards = |t: &str| parse_cards(t).unwrap();
        let problem = Problem::new(&ranges(specs), &cards(board), &cards(dead)).unwrap();
        let exact = equity(&problem, Method::Exact, Some(2), &|_| {}, &NEVER).unwrap();
        let mc = Method::MonteCarlo {
            samples: 200_000,
            stderr: None,
            seed: 5,
        };
        let sampled = equity(&problem, mc, Some(2), &|_| {}, &NEVER).unwrap();
        for (e, m) in exact.players.iter().zip(&sampled.players) {
            assert!(
                (e.equity - m.equity).abs() < 5.0 * m.stderr + 1e-9,
                "{specs:?} {board}: {e:?} {m:?}"
            );
        }
    }

    #[test]
    fn tight_ranges_are_dealt_directly_and_match_exact() {
        // Rejection would almost never deal these (1 deal in ~10^5 and worse):
        // the direct sampler must give every deal its weight.
        assert_sampled_near_exact(&["AA,KK,QQ"; 5], "2c3d4h5s9c", "");
        assert_sampled_near_exact(
            &["AA:0.3,KK", "AA,KK:0.5", "AA,KK", "AhAd,KK"],
            "2c3d4h5s",
            "",
        );
        // Tight ranges and any two cards from a small live deck.
        let dead: String = (0..52)
            .map(Card::from_index_unchecked)
            .filter(|c| !"AhAsAdAcKhKsKdKc2c3c4c5c5d6c6d7c".contains(&c.to_string()))
            .map(|c| c.to_string())
            .collect();
        assert_sampled_near_exact(
            &["AA,KK", "AA,KK", "AA,KK", "AA,KK", "random"],
            "2c3c4c",
            &dead,
        );
        // Three players of any two cards and an eight-card deck left.
        assert_sampled_near_exact(&["random"; 3], "2c3c4c", &deck(12, 38));
    }

    #[test]
    fn crowded_tables_finish() {
        for specs in [&["AA,KK,QQ"; 6][..], &["AA,KK,QQ,JJ"; 8]] {
            let problem = Problem::new(&ranges(specs), &[], &[]).unwrap();
            let mc = Method::MonteCarlo {
                samples: 50_000,
                stderr: None,
                seed: 2,
            };
            let r = equity(&problem, mc, Some(2), &|_| {}, &NEVER).unwrap();
            let sum: f64 = r.players.iter().map(|p| p.equity).sum();
            assert!((sum - 1.0).abs() < 1e-9);
            // Identical ranges: every seat has the same equity.
            for p in &r.players {
                let fair = 1.0 / specs.len() as f64;
                assert!((p.equity - fair).abs() < 5.0 * p.stderr, "{r:?}");
            }
        }
    }

    /// Runs `method` on `problem` on 2 threads, cancels it after 300 ms and
    /// returns how long the cancelled call took to return.
    fn cancel_latency(problem: &Problem, method: Method) -> Duration {
        let cancel = Cancel::new();
        let (result, latency) = std::thread::scope(|scope| {
            let run = scope.spawn(|| equity(problem, method, Some(2), &|_| {}, &cancel));
            std::thread::sleep(Duration::from_millis(300));
            let asked = std::time::Instant::now();
            cancel.cancel();
            let result = run.join().unwrap();
            (result, asked.elapsed())
        });
        assert_eq!(result.unwrap_err(), EngineError::Cancelled);
        latency
    }

    #[test]
    fn long_runs_stop_soon_after_cancel() {
        // One river board of three wide ranges (one chunk of ~10^9 showdowns),
        // a wide exact flop, and ten players sampled. The bound is liveness only;
        // the latencies print with --nocapture.
        let river = Problem::new(
            &ranges(&["random"; 3]),
            &parse_cards("2c7d9hJsKc").unwrap(),
            &[],
        )
        .unwrap();
        let flop = Problem::new(
            &ranges(&["22+,A2s+", "random", "QQ+"]),
            &parse_cards("2c7d9h").unwrap(),
            &[],
        )
        .unwrap();
        let ten = Problem::new(&ranges(&["random"; 10]), &[], &[]).unwrap();
        let mc = Method::MonteCarlo {
            samples: u64::MAX / 2,
            stderr: None,
            seed: 1,
        };
        for (what, problem, method) in [
            ("exact river, 3 x random", &river, Method::Exact),
            ("exact flop, 3 ranges", &flop, Method::Exact),
            ("Monte Carlo, 10 x random", &ten, mc),
        ] {
            let latency = cancel_latency(problem, method);
            eprintln!("cancel latency, {what}: {latency:?}");
            assert!(latency < Duration::from_secs(10), "{what}: {latency:?}");
        }
    }
}
