//! Exact solving of a Guandan card play with every hand known: the endgame solver
//! of the determinized search ([`super::search::search_move`]).
//!
//! Once few cards are left, a sampled world is solved instead of played out by the
//! rule policy: alpha-beta over every legal move, a transposition table and a cheap
//! move ordering, valued with the deal's own score ([`decided_score`]) from one
//! seat's side. Guandan is played by two teams (seats 0 & 2 against 1 & 3), so
//! alpha-beta on one team's value is exact. A solve stops as soon as the places
//! decide the score (a 1-2 finish decides it before the deal ends).
//!
//! The moves are the engine's: [`Deal::legal`] lists plays by ranks and wilds (a
//! straight flush by its exact cards), and [`Deal::apply`] takes the copies the
//! rules' `take` picks, as every playout and search does.
//!
//! Every solve is bounded by a node budget (a solve that runs out answers `None` and
//! the caller plays the world out instead), and the table is cleared when it grows
//! past a fixed size, so no position can make the solver take unbounded time or
//! memory.

use super::deal::{Deal, SEATS};
use super::search::{decided_score, Move};
use super::{Hand, Play};
use crate::cancel::Cancel;
use crate::error::Result;
use crate::search::{NodeBudget, Table, Window};

/// Everything [`Deal::legal`], [`Deal::apply`] and the score read from a position:
/// each hand as its exact cards (suits matter for straight flushes, and the heart
/// level cards are wild), the table and its owner, the passes, the places in order,
/// the seat to act, the level and the 1-2-finish option. The cards played so far
/// only feed observations.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Key {
    hands: [u128; SEATS],
    table: Option<Play>,
    owner: u8,
    passes: u8,
    /// The seats out, first place first; unused slots hold `SEATS`.
    places: [u8; SEATS],
    to_move: u8,
    level: u8,
    double_win_ends: bool,
}

/// A hand's copies, two bits a card type (no card type has more than two copies).
fn packed(hand: &Hand) -> u128 {
    hand.counts
        .iter()
        .enumerate()
        .fold(0u128, |acc, (i, &n)| acc | (u128::from(n) << (2 * i)))
}

impl Key {
    fn of(deal: &Deal) -> Key {
        let mut places = [SEATS as u8; SEATS];
        places[..deal.places().len()].copy_from_slice(deal.places());
        Key {
            hands: std::array::from_fn(|s| packed(deal.hand(s))),
            table: deal.table().copied(),
            owner: deal.owner(),
            passes: deal.passes(),
            places,
            to_move: deal.to_move().unwrap_or(SEATS as u8),
            level: deal.level(),
            double_win_ends: deal.double_win_ends(),
        }
    }
}

/// An alpha-beta solver for one seat's team score; its table is kept between
/// solves (worlds of one search share many positions).
pub struct Solver {
    seat: u8,
    table: Table<Key, i32>,
    budget: NodeBudget,
}

impl Solver {
    /// A solver valuing positions for `seat`'s team.
    pub fn new(seat: u8) -> Solver {
        Solver {
            seat,
            table: Table::new(),
            budget: NodeBudget::default(),
        }
    }

    /// The seat's [`decided_score`] in `deal` with best play by both teams, or
    /// `None` when the solve needed more than `nodes` nodes. Polls `cancel` at the
    /// first node and every 1,024 after.
    pub fn solve(&mut self, deal: &Deal, nodes: u64, cancel: &Cancel) -> Result<Option<i32>> {
        self.budget = NodeBudget::start(nodes);
        self.search(deal, i32::MIN, i32::MAX, cancel)
    }

    /// Nodes the last [`solve`](Self::solve) visited.
    pub fn nodes(&self) -> u64 {
        self.budget.nodes()
    }

    fn search(
        &mut self,
        deal: &Deal,
        mut alpha: i32,
        mut beta: i32,
        cancel: &Cancel,
    ) -> Result<Option<i32>> {
        if let Some(score) = decided_score(deal, self.seat) {
            return Ok(Some(score));
        }
        if !self.budget.tick(cancel)? {
            return Ok(None);
        }
        let key = Key::of(deal);
        if let Some(value) = self.table.probe(&key, &mut alpha, &mut beta) {
            return Ok(Some(value));
        }
        let to_move = deal.to_move().unwrap_or(self.seat);
        let mut window = Window::new(alpha, beta, to_move % 2 == self.seat % 2);
        for mv in ordered(deal) {
            let mut child = deal.clone();
            child.apply(mv.as_ref())?;
            let (alpha, beta) = window.bounds();
            let Some(value) = self.search(&child, alpha, beta, cancel)? else {
                return Ok(None);
            };
            if window.take(value) {
                break;
            }
        }
        self.table.store(key, &window);
        Ok(Some(window.best()))
    }
}

/// The legal moves, likeliest best first so alpha-beta cuts early: a play that
/// empties the hand, then bigger plays before smaller (they shed more cards), bombs
/// after the plays of their size, fewer wilds before more, the lower of equals
/// first (it keeps the high cards), and pass last.
fn ordered(deal: &Deal) -> Vec<Move> {
    let mut moves = deal.legal();
    let seat = usize::from(deal.to_move().unwrap_or(0));
    let held = deal.hand(seat).len();
    let level = deal.level();
    moves.sort_by_key(|mv| match mv {
        Some(p) if p.size() == held => (0u8, std::cmp::Reverse(0usize), false, 0usize, 0u8),
        Some(p) => (
            1,
            std::cmp::Reverse(p.size()),
            p.is_bomb(),
            p.wilds(),
            p.rank_value(level),
        ),
        None => (2, std::cmp::Reverse(0), false, 0, 0),
    });
    moves
}

/// Cards left in all hands of `deal`.
pub fn cards_left(deal: &Deal) -> u32 {
    (0..SEATS).map(|s| deal.hand(s).len() as u32).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::NEVER;
    use crate::cards::{parse_cards, Card};
    use crate::rng::CardRng;

    fn hand(text: &str) -> Hand {
        Hand::from_cards(&parse_cards(text).unwrap()).unwrap()
    }

    /// Plain minimax over every move to the end of the deal, no pruning, no table,
    /// scored with the deal's own score once it is over: the reference.
    fn minimax(deal: &Deal, seat: u8) -> i32 {
        let Some(to_move) = deal.to_move() else {
            return super::super::search::deal_score(deal, seat);
        };
        let values = deal.legal().into_iter().map(|mv| {
            let mut child = deal.clone();
            child.apply(mv.as_ref()).unwrap();
            minimax(&child, seat)
        });
        if to_move % 2 == seat % 2 {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    }

    /// A random deal of the two packs cut down to `per_hand` cards a seat (2-4),
    /// at a random level, a random leader and either 1-2-finish option.
    fn small_deal(per_hand: usize, rng: &mut CardRng) -> Deal {
        let mut cards: Vec<Card> = crate::deck::deck("double108").unwrap();
        rng.shuffle(&mut cards);
        let hands: [Hand; SEATS] = std::array::from_fn(|s| {
            Hand::from_cards(&cards[per_hand * s..per_hand * (s + 1)]).unwrap()
        });
        let level = rng.below(13) as u8;
        let leader = rng.below(SEATS as u64) as u8;
        Deal::new(hands, level, leader, rng.below(2) == 0).unwrap()
    }

    /// The reference value for each seat: one minimax for seat 0, the other team's
    /// value the opposite (a deal's score is zero-sum between the teams).
    fn by_seat(deal: &Deal) -> [i32; SEATS] {
        let v = minimax(deal, 0);
        [v, -v, v, -v]
    }

    /// Hand sizes of the `i`th test deal: 2 cards, and 3 one time in four (plain
    /// minimax of four 4-card hands takes minutes).
    fn per_hand(i: usize) -> usize {
        if i % 4 == 3 {
            3
        } else {
            2
        }
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax() {
        let mut rng = CardRng::new(7);
        for i in 0..60 {
            let deal = small_deal(per_hand(i), &mut rng);
            let reference = by_seat(&deal);
            for seat in 0..SEATS as u8 {
                let mut solver = Solver::new(seat);
                let value = solver.solve(&deal, u64::MAX, &NEVER).unwrap();
                assert_eq!(
                    value,
                    Some(reference[usize::from(seat)]),
                    "deal {i} seat {seat}"
                );
            }
        }
    }

    #[test]
    fn a_solver_kept_between_solves_still_agrees() {
        // Positions met again through the table must give the same values, across
        // deals at other levels and with the other 1-2-finish option.
        let mut rng = CardRng::new(11);
        let mut solvers: [Solver; SEATS] = std::array::from_fn(|s| Solver::new(s as u8));
        for i in 0..40 {
            let deal = small_deal(per_hand(i), &mut rng);
            let reference = by_seat(&deal);
            for (seat, solver) in solvers.iter_mut().enumerate() {
                let value = solver.solve(&deal, u64::MAX, &NEVER).unwrap();
                assert_eq!(value, Some(reference[seat]), "deal {i}");
            }
        }
    }

    #[test]
    fn a_one_two_finish_ends_the_solve() {
        // Seat 0 goes out with its ace, which nobody beats; jiefeng (GD-29) gives
        // seat 2 the lead and it goes out second with its king: 3 levels.
        let hands = [hand("Ac"), hand("3c4d"), hand("Kc"), hand("5c6d")];
        let deal = Deal::new(hands, 0, 0, false).unwrap();
        assert_eq!(minimax(&deal, 0), 3);
        assert_eq!(
            Solver::new(3).solve(&deal, u64::MAX, &NEVER).unwrap(),
            Some(-3)
        );
        // The solve stops there (five turns: the lead, three passes, the king),
        // where the deal itself plays on to the last places.
        let mut solver = Solver::new(0);
        assert_eq!(solver.solve(&deal, u64::MAX, &NEVER).unwrap(), Some(3));
        assert_eq!(solver.nodes(), 5);
    }

    #[test]
    fn a_full_table_is_emptied_and_values_stay_exact() {
        let mut rng = CardRng::new(5);
        for i in 0..12 {
            let deal = small_deal(per_hand(i), &mut rng);
            let mut solver = Solver::new(1);
            solver.table = Table::with_capacity_limit(8);
            let value = solver.solve(&deal, u64::MAX, &NEVER).unwrap();
            assert!(solver.table.len() <= 8);
            assert_eq!(value, Some(by_seat(&deal)[1]), "deal {i}");
        }
    }

    #[test]
    fn a_budget_too_small_gives_up_and_cancel_stops() {
        let mut rng = CardRng::new(3);
        let deal = small_deal(8, &mut rng);
        let mut solver = Solver::new(0);
        assert_eq!(solver.solve(&deal, 10, &NEVER).unwrap(), None);
        assert!(solver.nodes() <= 11);
        let cancel = Cancel::new();
        cancel.cancel();
        let mut solver = Solver::new(0);
        assert!(solver.solve(&deal, u64::MAX, &cancel).is_err());
    }
}
