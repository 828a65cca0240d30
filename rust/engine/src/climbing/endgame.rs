//! Exact solving of a Dou Dizhu or Zheng Shangyou card play with every hand known:
//! the endgame solver of the determinized search ([`super::playout::search_move`]).
//!
//! Once few cards are left, a sampled world is solved instead of played out by the
//! rule policy: alpha-beta over every legal move, a transposition table and a cheap
//! move ordering, scored with the deal's own [`Deal::scores`] from one seat's side.
//! Dou Dizhu is a two-sided game (the farmers share a side), so the value is exact.
//! Zheng Shangyou has three sides; the solver assumes the two other players both
//! play against the seat (the "paranoid" reduction), which makes the value the score
//! the seat can guarantee.
//!
//! Every solve is bounded by a node budget (a solve that runs out answers `None` and
//! the caller plays the world out instead), and the table is cleared when it grows
//! past a fixed size, so no position can make the solver take unbounded time or
//! memory.

use super::playout::{Deal, Move};
use super::{Combination, Ranks, NUM_RANKS};
use crate::cancel::Cancel;
use crate::error::Result;
pub use crate::search::Endgame;
use crate::search::{NodeBudget, Table, Window};

/// Everything the rest of a deal's play and score depend on. The plays made so
/// far matter only through spring (Dou Dizhu) and "never played" (Zheng
/// Shangyou), so each seat's count is kept as 0, 1 or more.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Key {
    hands: [u64; 3],
    table: Option<Combination>,
    to_move: u8,
    table_owner: u8,
    passes: u8,
    plays: [u8; 3],
    bombs: u8,
    opening: bool,
    pending_bomb: bool,
    bonus: [i32; 3],
}

/// A hand's counts, three bits a rank (no rank has more than four copies in one pack).
fn packed(hand: &Ranks) -> u64 {
    (0..NUM_RANKS).fold(0u64, |acc, r| acc | (u64::from(hand.0[r]) << (3 * r)))
}

impl Key {
    fn of(deal: &Deal) -> Key {
        Key {
            hands: deal.hands.map(|h| packed(&h)),
            table: deal.table,
            to_move: deal.to_move,
            table_owner: deal.table_owner,
            passes: deal.passes,
            plays: deal.plays.map(|p| p.min(2) as u8),
            bombs: deal.bombs,
            opening: deal.opening,
            pending_bomb: deal.pending_bomb,
            bonus: deal.bonus,
        }
    }
}

/// An alpha-beta solver for one seat's score; its table is kept between solves
/// (worlds of one search share many positions).
pub struct Solver {
    seat: u8,
    table: Table<Key, i32>,
    budget: NodeBudget,
}

impl Solver {
    /// A solver valuing positions for `seat`.
    pub fn new(seat: u8) -> Solver {
        Solver {
            seat,
            table: Table::new(),
            budget: NodeBudget::default(),
        }
    }

    /// The seat's score in `deal` with best play by every side, or `None` when the
    /// solve needed more than `nodes` nodes. Polls `cancel` at the first node and
    /// every 1,024 after.
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
        if deal.is_over() {
            return Ok(Some(deal.scores()[usize::from(self.seat)]));
        }
        if !self.budget.tick(cancel)? {
            return Ok(None);
        }
        let key = Key::of(deal);
        if let Some(value) = self.table.probe(&key, &mut alpha, &mut beta) {
            return Ok(Some(value));
        }
        let mut window = Window::new(alpha, beta, deal.partners(deal.to_move, self.seat));
        for mv in ordered(deal) {
            let mut child = deal.clone();
            child.apply(mv);
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
/// empties the hand, then bigger plays before smaller (they shed more cards), the
/// lower of equal sizes first (it keeps the high cards), bombs after the plays of
/// their size, and pass last.
fn ordered(deal: &Deal) -> Vec<Move> {
    let mut moves = deal.legal();
    let hand = deal.hands[usize::from(deal.to_move)];
    moves.sort_by_key(|mv| match mv {
        Some(c) if c.cards == hand => (0u8, std::cmp::Reverse(0usize), 0u8, 0u8),
        Some(c) => (
            1,
            std::cmp::Reverse(c.cards.len()),
            u8::from(c.kind.is_bomb()),
            c.main,
        ),
        None => (2, std::cmp::Reverse(0), 0, 0),
    });
    moves
}

/// Cards left in all hands of `deal`.
pub fn cards_left(deal: &Deal) -> u32 {
    deal.hands.iter().map(|h| h.len() as u32).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::NEVER;
    use crate::climbing::playout::{random_deal, Game};
    use crate::rng::CardRng;

    fn r(s: &str) -> Ranks {
        Ranks::parse(s).unwrap()
    }

    /// Plain minimax over every move, no pruning, no table: the reference.
    fn minimax(deal: &Deal, seat: u8) -> i32 {
        if deal.is_over() {
            return deal.scores()[usize::from(seat)];
        }
        let values = deal.legal().into_iter().map(|mv| {
            let mut child = deal.clone();
            child.apply(mv);
            minimax(&child, seat)
        });
        if deal.partners(deal.to_move, seat) {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    }

    /// Random deals cut down to a few cards a hand, by removing cards at random.
    fn small_deal(game_is_ddz: bool, per_hand: usize, rng: &mut CardRng) -> Deal {
        let full = random_deal(game_is_ddz, rng);
        let mut hands = full.hands;
        for h in hands.iter_mut() {
            while h.len() > per_hand {
                let r = rng.below(NUM_RANKS as u64) as usize;
                if h.0[r] > 0 {
                    h.0[r] -= 1;
                }
            }
        }
        let mut deal = Deal::new(full.game, hands, full.to_move);
        deal.opening = false;
        deal
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax() {
        let mut rng = CardRng::new(7);
        for i in 0..120 {
            let ddz = i % 2 == 0;
            let deal = small_deal(ddz, 3 + i % 2, &mut rng);
            for seat in 0..3u8 {
                let mut solver = Solver::new(seat);
                let value = solver.solve(&deal, u64::MAX, &NEVER).unwrap();
                assert_eq!(value, Some(minimax(&deal, seat)), "deal {i} seat {seat}");
            }
        }
    }

    #[test]
    fn a_solver_kept_between_solves_still_agrees() {
        // Positions met again through the table must give the same values.
        let mut rng = CardRng::new(11);
        let mut solvers = [Solver::new(0), Solver::new(1), Solver::new(2)];
        for i in 0..60 {
            let deal = small_deal(i % 2 == 1, 3, &mut rng);
            for (seat, solver) in solvers.iter_mut().enumerate() {
                let value = solver.solve(&deal, u64::MAX, &NEVER).unwrap();
                assert_eq!(value, Some(minimax(&deal, seat as u8)));
            }
        }
    }

    #[test]
    fn the_landlord_wins_a_won_endgame() {
        // DDZ: landlord (seat 0) to lead a rocket then a single; farmers hold
        // nothing that beats the rocket, so the landlord goes out before either
        // farmer plays: bid 1, doubled by the rocket and by spring, twice over
        // for the landlord.
        let hands = [r("BR3"), r("44"), r("55")];
        let deal = Deal::new(
            Game::DouDizhu {
                landlord: 0,
                bid: 1,
            },
            hands,
            0,
        );
        let mut solver = Solver::new(0);
        assert_eq!(solver.solve(&deal, u64::MAX, &NEVER).unwrap(), Some(8));
        // The farmers' side gets the mirror value.
        let mut solver = Solver::new(2);
        assert_eq!(solver.solve(&deal, u64::MAX, &NEVER).unwrap(), Some(-4));
    }

    #[test]
    fn a_full_table_is_emptied_and_values_stay_exact() {
        let mut rng = CardRng::new(5);
        for i in 0..20 {
            let deal = small_deal(i % 2 == 0, 4, &mut rng);
            let mut solver = Solver::new(0);
            solver.table = Table::with_capacity_limit(8);
            let value = solver.solve(&deal, u64::MAX, &NEVER).unwrap();
            assert!(solver.table.len() <= 8);
            assert_eq!(value, Some(minimax(&deal, 0)));
        }
    }

    #[test]
    fn a_budget_too_small_gives_up_and_cancel_stops() {
        let mut rng = CardRng::new(3);
        let deal = small_deal(true, 8, &mut rng);
        let mut solver = Solver::new(0);
        assert_eq!(solver.solve(&deal, 10, &NEVER).unwrap(), None);
        assert!(solver.nodes() <= 11);
        let cancel = Cancel::new();
        cancel.cancel();
        let mut solver = Solver::new(0);
        assert!(solver.solve(&deal, u64::MAX, &cancel).is_err());
    }
}
