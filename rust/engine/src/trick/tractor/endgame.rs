//! Exact solving of a Tractor card play with every hand known: the endgame solver
//! of the determinized search (`TractorSearchAgent`).
//!
//! Once few cards are left, a sampled world is solved instead of played out by
//! [`Deal::heuristic_playout`]: alpha-beta over the deal's own legal action ids
//! (every lead: singles, pairs, tractors; a follow one card at a time), with a
//! transposition table at trick starts and a cheap move ordering. The value is the
//! one the search scores a finished playout by, [`Deal::attacker_points`] (the
//! attackers' trick points and the kitty bonus of the last trick, TRC-42, TRC-43),
//! so exact values and playout values are comparable.
//!
//! Tractor is two teams, so the attackers maximizing and the dealer's team
//! minimizing gives the exact value for both.
//!
//! Every solve is bounded by a node budget (a solve that runs out answers `None`
//! and the caller plays the world out instead), and the table is cleared when it
//! grows past a fixed size, so no position can make the solver take unbounded time
//! or memory.

use super::deal::{Deal, SEATS};
use super::{Hand, PLAY_CARD};
use crate::cancel::Cancel;
use crate::cards::Card;
use crate::error::Result;
use crate::rng::CardRng;
pub use crate::search::Endgame;
use crate::search::{NodeBudget, Table, Window};
pub use crate::trick::endgame::SolveStats;

impl Endgame {
    /// Whether the Tractor `deal` is to be solved rather than played out.
    pub fn applies_to_tractor(&self, deal: &Deal) -> bool {
        !deal.is_over() && cards_left(deal) <= self.cards
    }
}

/// Cards left in all hands of `deal` (a follow being chosen still in its hand,
/// the cards already played to the trick not).
pub fn cards_left(deal: &Deal) -> u32 {
    (0..SEATS).map(|s| deal.hand(s).len()).sum()
}

/// Whether `seat` attacks in a deal dealt by `dealer` (the seats beside it).
fn attacks(seat: u8, dealer: u8) -> bool {
    seat % 2 != dealer % 2
}

/// A position at the start of a trick: everything the rest of the deal depends on.
/// The trick count follows from the hands' sizes, and the last trick so far no
/// longer matters once another is to be played; the attackers' points so far do,
/// as the value is the deal's total.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Key {
    hands: [Hand; SEATS],
    leader: u8,
    attacker_tricks: u32,
}

/// An alpha-beta solver of the attackers' points of one deal's worlds; its table
/// is kept between solves (worlds of one search share positions), so one solver
/// must serve one dealer and one kitty's points only.
pub struct Solver {
    dealer: u8,
    kitty: Hand,
    table: Table<Key, i32>,
    budget: NodeBudget,
    /// The legal ids of the node being searched at each depth, kept between nodes
    /// and solves so that no node allocates.
    ids: Vec<Vec<u32>>,
}

impl Solver {
    /// A solver for deals dealt by `dealer` with `kitty` buried.
    pub fn new(dealer: u8, kitty: Hand) -> Solver {
        Solver {
            dealer,
            kitty,
            table: Table::new(),
            budget: NodeBudget::default(),
            ids: Vec::new(),
        }
    }

    /// The attackers' points at the end of `deal` ([`Deal::attacker_points`]) with
    /// best play by both teams, or `None` when the solve needed more than `nodes`
    /// nodes. Polls `cancel` at the first node and every 1,024 after.
    pub fn solve(&mut self, deal: &Deal, nodes: u64, cancel: &Cancel) -> Result<Option<u32>> {
        self.budget = NodeBudget::start(nodes);
        Ok(match self.search(deal, i32::MIN, i32::MAX, 0, 0, cancel)? {
            Outcome::Value(v) => Some(u32::try_from(v).unwrap_or(0)),
            // The root has no floor, so it has a legal completion: only the budget
            // can stop a solve.
            Outcome::DeadEnd | Outcome::OutOfNodes => None,
        })
    }

    /// Nodes the last [`solve`](Self::solve) visited.
    pub fn nodes(&self) -> u64 {
        self.budget.nodes()
    }

    /// The value of a deal no one can move in: over, or (hand-built hands of
    /// unequal sizes) stuck where a playout stops too.
    fn value(&self, deal: &Deal) -> i32 {
        deal.attacker_points(self.dealer, &self.kitty) as i32
    }

    /// Searches `deal` at `depth` (plies from the root) with that depth's ids
    /// buffer, which goes back to the solver whatever the search found.
    fn search(
        &mut self,
        deal: &Deal,
        alpha: i32,
        beta: i32,
        floor: u32,
        depth: usize,
        cancel: &Cancel,
    ) -> Result<Outcome> {
        if self.ids.len() <= depth {
            self.ids.resize_with(depth + 1, Vec::new);
        }
        let mut ids = std::mem::take(&mut self.ids[depth]);
        let outcome = self.expand(deal, &mut ids, (alpha, beta), floor, depth, cancel);
        self.ids[depth] = ids;
        outcome
    }

    /// [`search`](Self::search) with the ids buffer in hand.
    fn expand(
        &mut self,
        deal: &Deal,
        ids: &mut Vec<u32>,
        (mut alpha, mut beta): (i32, i32),
        floor: u32,
        depth: usize,
        cancel: &Cancel,
    ) -> Result<Outcome> {
        deal.legal_ids_into(ids);
        let Some(seat) = deal.to_move().filter(|_| !ids.is_empty()) else {
            return Ok(Outcome::Value(self.value(deal)));
        };
        ordered(deal, ids, floor);
        if ids.is_empty() {
            return Ok(Outcome::DeadEnd);
        }
        if !self.budget.tick(cancel)? {
            return Ok(Outcome::OutOfNodes);
        }
        let key = (deal.lead().is_none()).then(|| Key {
            hands: std::array::from_fn(|s| deal.hand(s)),
            leader: deal.leader(),
            attacker_tricks: deal.attacker_tricks(self.dealer),
        });
        if let Some(stored) = key
            .as_ref()
            .and_then(|k| self.table.probe(k, &mut alpha, &mut beta))
        {
            return Ok(Outcome::Value(stored));
        }
        let mut window = Window::new(alpha, beta, attacks(seat, self.dealer));
        let mut reached = false;
        for &id in ids.iter() {
            let mut child = deal.clone();
            child.apply_id(id)?;
            let (alpha, beta) = window.bounds();
            // A follow still being chosen goes on from this card up.
            let floor = if child.chosen().is_empty() { 0 } else { id };
            match self.search(&child, alpha, beta, floor, depth + 1, cancel)? {
                Outcome::Value(v) => {
                    reached = true;
                    if window.take(v) {
                        break;
                    }
                }
                Outcome::DeadEnd => {}
                Outcome::OutOfNodes => return Ok(Outcome::OutOfNodes),
            }
        }
        if !reached {
            return Ok(Outcome::DeadEnd);
        }
        if let Some(key) = key {
            self.table.store(key, &window);
        }
        Ok(Outcome::Value(window.best()))
    }
}

/// What searching a position found.
enum Outcome {
    /// The position's value, or a bound of it outside the window searched.
    Value(i32),
    /// A part-chosen follow that cannot be completed in ascending order (see
    /// [`ordered`]): the same follows are searched along their ascending orders.
    DeadEnd,
    /// The node budget ran out.
    OutOfNodes,
}

/// Cuts the legal `ids` down to those worth searching, the likeliest best first.
///
/// A follow is chosen one card at a time, so every order of its cards reaches the
/// same follow: only ids at or above `floor`, the card this search chose last in
/// the follow (0 when it chose none), are searched. Each card of a legal follow
/// keeps the follow completable whatever part of it is chosen, so ascending order
/// reaches every legal follow exactly once; a part-chosen follow with no ascending
/// completion is a dead end, skipped. Leads
/// go tractors, then pairs, then singles, higher first (the id order reversed);
/// a follow card goes the heuristic's choice first (points to a winning partner,
/// the cheapest winning card, else the cheapest), then the stronger cards.
fn ordered(deal: &Deal, ids: &mut Vec<u32>, floor: u32) {
    if deal.lead().is_none() {
        ids.reverse();
        return;
    }
    ids.retain(|&id| id >= floor);
    if ids.is_empty() {
        return;
    }
    let t = deal.trumps();
    let card = |id: u32| Card::from_index_unchecked((id - PLAY_CARD) as u8);
    ids.sort_unstable_by_key(|&id| {
        let c = card(id);
        std::cmp::Reverse((t.is_trump(c), t.position(c)))
    });
    // The heuristic consumes no randomness when following.
    let first = deal.heuristic_id(ids, &mut CardRng::new(0));
    if let Some(i) = ids.iter().position(|&id| id == first) {
        ids[..=i].rotate_right(1);
    }
}

/// The solver's cost at `left` cards: `deals` deals made by
/// [`super::deal::random_deal`] are played by [`Deal::heuristic_id`] (one action
/// in ten random) until at most `left` cards are left in the hands, then solved
/// with a fresh table and at most `nodes` nodes (for the benches). Polls `cancel`
/// once per deal and within solves.
pub fn solve_samples(
    deals: u64,
    left: u32,
    nodes: u64,
    seed: u64,
    cancel: &Cancel,
) -> Result<SolveStats> {
    let mut rng = CardRng::new(seed);
    let mut stats = SolveStats::default();
    let mut ids = Vec::with_capacity(64);
    for _ in 0..deals {
        cancel.check()?;
        let (mut deal, kitty) = super::deal::random_deal(&mut rng);
        while !deal.is_over() && cards_left(&deal) > left {
            deal.legal_ids_into(&mut ids);
            let id = if rng.unit() < 0.1 {
                ids[rng.below(ids.len() as u64) as usize]
            } else {
                deal.heuristic_id(&ids, &mut rng)
            };
            deal.apply_id(id)?;
        }
        if deal.is_over() {
            continue;
        }
        let mut solver = Solver::new(0, kitty);
        let solved = solver.solve(&deal, nodes, cancel)?;
        stats.nodes += solver.nodes().min(nodes);
        match solved {
            Some(_) => stats.solved += 1,
            None => stats.gave_up += 1,
        }
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::super::{Trumps, PLAY_PAIR};
    use super::*;
    use crate::cancel::NEVER;

    /// Plain minimax over every legal id, no pruning, no table, every order of a
    /// follow's cards: the reference.
    fn minimax(deal: &Deal, dealer: u8, kitty: &Hand) -> u32 {
        let mut ids = Vec::new();
        deal.legal_ids_into(&mut ids);
        let Some(seat) = deal.to_move().filter(|_| !ids.is_empty()) else {
            return deal.attacker_points(dealer, kitty);
        };
        let values = ids.iter().map(|&id| {
            let mut child = deal.clone();
            child.apply_id(id).unwrap();
            minimax(&child, dealer, kitty)
        });
        if attacks(seat, dealer) {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    }

    /// A small deal with histories: `size` cards a seat drawn from both copies of
    /// a few neighbouring card types (so pairs and tractors are common) under
    /// random trumps, random actions played until at most `left` cards are left
    /// (possibly mid-trick, a follow part-chosen), and a kitty of points cards.
    fn small_deal(rng: &mut CardRng, size: usize, left: u32) -> (Deal, u8, Hand) {
        let start = rng.below(40) as u8;
        let mut pack: Vec<u8> = (start..start + 12).flat_map(|c| [c, c]).collect();
        rng.shuffle(&mut pack);
        let mut hands = [Hand::EMPTY; SEATS];
        for (i, &c) in pack[..SEATS * size].iter().enumerate() {
            hands[i / size].add(Card::from_index_unchecked(c));
        }
        let suit = rng.below(5) as u8;
        let level = rng.below(13) as u8;
        let trumps = Trumps::new(level, (suit < 4).then_some(suit)).unwrap();
        let mut deal = Deal::new(hands, trumps, rng.below(4) as u8).unwrap();
        let mut ids = Vec::new();
        while cards_left(&deal) > left {
            deal.legal_ids_into(&mut ids);
            deal.apply_id(ids[rng.below(ids.len() as u64) as usize])
                .unwrap();
        }
        let kitty = Hand::from_cards(&crate::cards::parse_cards("5c Tc Kd").unwrap()).unwrap();
        (deal, rng.below(4) as u8, kitty)
    }

    #[test]
    fn solves_agree_with_plain_minimax() {
        let mut rng = CardRng::new(31);
        let mut shaped = 0;
        for i in 0..400 {
            let size = 1 + i % 4;
            let left = (SEATS * size) as u32 - (i % 3) as u32;
            let (deal, dealer, kitty) = small_deal(&mut rng, size, left);
            let mut ids = Vec::new();
            deal.legal_ids_into(&mut ids);
            shaped += usize::from(deal.lead().is_none() && ids.iter().any(|&id| id >= PLAY_PAIR));
            let got = Solver::new(dealer, kitty)
                .solve(&deal, u64::MAX, &NEVER)
                .unwrap();
            assert_eq!(got, Some(minimax(&deal, dealer, &kitty)), "deal {i}");
        }
        // Pairs and tractors were among the root leads searched (and more below).
        assert!(shaped >= 10, "{shaped}");
    }

    #[test]
    fn a_solver_kept_between_solves_and_a_full_table_still_agree() {
        // Worlds of one search share the solver: positions met again through the
        // table, or after it was emptied, must give the same values.
        let mut rng = CardRng::new(32);
        let kitty = Hand::from_cards(&crate::cards::parse_cards("5c Tc").unwrap()).unwrap();
        let mut kept = Solver::new(1, kitty);
        let mut small = Solver::new(1, kitty);
        small.table = Table::with_capacity_limit(4);
        for i in 0..120 {
            let (deal, _, _) = small_deal(&mut rng, 2 + i % 3, 12);
            let want = Some(minimax(&deal, 1, &kitty));
            assert_eq!(kept.solve(&deal, u64::MAX, &NEVER).unwrap(), want);
            assert_eq!(small.solve(&deal, u64::MAX, &NEVER).unwrap(), want);
            assert!(small.table.len() <= 4);
        }
    }

    #[test]
    fn the_last_trick_carries_the_kitty_bonus() {
        // TRC-42, TRC-43: hearts trump at level 2, seat 1 (an attacker, seat 0
        // deals) leads; its pair of trumps takes the last trick and doubles the
        // kitty's 20 points twice over (twice the 2 cards a play).
        let hand = |t: &str| Hand::from_cards(&crate::cards::parse_cards(t).unwrap()).unwrap();
        let trumps = Trumps::new(0, Some(2)).unwrap();
        let hands = ["3c 4c", "Ah Ah", "6c 7c", "8c 9c"].map(hand);
        let deal = Deal::new(hands, trumps, 1).unwrap();
        let kitty = hand("Tc Td");
        let got = Solver::new(0, kitty).solve(&deal, u64::MAX, &NEVER);
        assert_eq!(got.unwrap(), Some(20 * 2 * 2));
        assert_eq!(minimax(&deal, 0, &kitty), 80);
    }

    #[test]
    fn a_budget_too_small_gives_up_and_cancel_stops() {
        let mut rng = CardRng::new(3);
        let (mut deal, kitty) = super::super::deal::random_deal(&mut rng);
        let mut ids = Vec::new();
        while cards_left(&deal) > 40 {
            deal.legal_ids_into(&mut ids);
            let id = deal.heuristic_id(&ids, &mut rng);
            deal.apply_id(id).unwrap();
        }
        let mut solver = Solver::new(0, kitty);
        assert_eq!(solver.solve(&deal, 10, &NEVER).unwrap(), None);
        assert!(solver.nodes() <= 11);
        let cancel = Cancel::new();
        cancel.cancel();
        assert!(Solver::new(0, kitty)
            .solve(&deal, u64::MAX, &cancel)
            .is_err());
    }

    #[test]
    fn solve_samples_counts_every_solve() {
        let stats = solve_samples(6, 8, 20_000, 5, &NEVER).unwrap();
        assert_eq!(stats.solved + stats.gave_up, 6);
        assert!(stats.nodes > 0);
    }
}
