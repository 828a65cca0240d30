//! Exact solving of a Hearts or Spades deal with every hand known: the endgame
//! solver of the determinized search ([`super::evaluate_candidates`]).
//!
//! Once few cards are left, a sampled world is solved instead of played out by the
//! heuristic policy: alpha-beta over the legal cards, with cards that are equal in
//! every continuation (touching in rank within one hand, no other hand's card or
//! trick card between them) searched once, a transposition table at trick starts
//! (where transpositions happen: two tricks taken in another order leave the same
//! hands) and a cheap move ordering. The value is the search's own value of the
//! finished deal for one seat, so it is comparable with playout values.
//!
//! Spades is two-sided (the partnerships' score difference), so the value is exact.
//! Hearts has four sides; the solver assumes the three other seats all play against
//! the searching seat's objective (the "paranoid" reduction, see `docs/hearts.md`),
//! which makes the value the objective the seat can guarantee.
//!
//! Every solve is bounded by a node budget (a solve that runs out answers `None`
//! and the caller plays the world out instead), and the table is cleared when it
//! grows past a fixed size, so no position can make the solver take unbounded time
//! or memory.

use super::{random_card, suit_cards, TrickPlay, NUM_SUITS};
use crate::cancel::Cancel;
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::error::Result;
use crate::rng::CardRng;
pub use crate::search::Endgame;
use crate::search::{NodeBudget, Table, Window};

impl Endgame {
    /// Whether `deal` is to be solved rather than played out.
    pub fn applies<G: TrickPlay>(&self, deal: &G) -> bool {
        !deal.is_over() && cards_left(deal) <= self.cards
    }
}

/// Cards left in all hands of `deal` (the current trick's cards not counted).
pub fn cards_left<G: TrickPlay>(deal: &G) -> u32 {
    deal.table().hands.iter().map(|h| h.len()).sum()
}

/// A trick-taking deal the solver can search: besides the hands and the table,
/// what the rest of the deal's value depends on, and who plays with whom.
pub trait Solvable: TrickPlay {
    /// The part of the play so far that the final value still depends on, one
    /// small count a seat (Hearts: penalty points taken; Spades: tricks won).
    fn tally(&self) -> [u8; 4];
    /// Whether seats `a` and `b` play for one value (Spades: partners; Hearts:
    /// only a seat with itself, the paranoid reduction).
    fn same_side(a: usize, b: usize) -> bool;
    /// Cards that never stand in for their neighbours in rank even when they
    /// touch (Hearts: Q♠ scores 13, J♠ and K♠ nothing).
    fn singletons() -> CardSet {
        CardSet::EMPTY
    }
}

/// A position at the start of a trick: everything the rest of the deal depends on
/// (the tricks played follow from the hands' sizes).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Key {
    hands: [u64; 4],
    leader: u8,
    broken: bool,
    tally: [u8; 4],
}

impl Key {
    fn of<G: Solvable>(deal: &G) -> Key {
        let t = deal.table();
        Key {
            hands: t.hands.map(|h| h.0),
            leader: t.leader as u8,
            broken: t.broken,
            tally: deal.tally(),
        }
    }
}

/// An alpha-beta solver for one seat's value of one search; its table is kept
/// between solves (worlds of one search share many positions), so one solver must
/// serve one game, seat and value function only.
pub struct Solver {
    seat: usize,
    table: Table<Key, f64>,
    budget: NodeBudget,
}

impl Solver {
    /// A solver valuing positions for `seat`.
    pub fn new(seat: usize) -> Solver {
        Solver {
            seat,
            table: Table::new(),
            budget: NodeBudget::default(),
        }
    }

    /// `value` of the end of `deal` for the solver's seat with best play by every
    /// side, or `None` when the solve needed more than `nodes` nodes. Polls
    /// `cancel` at the first node and every 1,024 after.
    pub fn solve<G, V>(
        &mut self,
        deal: &G,
        value: &V,
        nodes: u64,
        cancel: &Cancel,
    ) -> Result<Option<f64>>
    where
        G: Solvable,
        V: Fn(&G) -> f64,
    {
        self.budget = NodeBudget::start(nodes);
        self.search(deal, value, f64::NEG_INFINITY, f64::INFINITY, cancel)
    }

    /// Nodes the last [`solve`](Self::solve) visited.
    pub fn nodes(&self) -> u64 {
        self.budget.nodes()
    }

    fn search<G, V>(
        &mut self,
        deal: &G,
        value: &V,
        mut alpha: f64,
        mut beta: f64,
        cancel: &Cancel,
    ) -> Result<Option<f64>>
    where
        G: Solvable,
        V: Fn(&G) -> f64,
    {
        if deal.is_over() {
            return Ok(Some(value(deal)));
        }
        if !self.budget.tick(cancel)? {
            return Ok(None);
        }
        let key = deal.table().trick().is_empty().then(|| Key::of(deal));
        if let Some(stored) = key
            .as_ref()
            .and_then(|k| self.table.probe(k, &mut alpha, &mut beta))
        {
            return Ok(Some(stored));
        }
        let mut window = Window::new(alpha, beta, G::same_side(deal.to_act(), self.seat));
        for card in ordered(deal) {
            let mut child = deal.clone();
            child.play(card);
            let (alpha, beta) = window.bounds();
            let Some(v) = self.search(&child, value, alpha, beta, cancel)? else {
                return Ok(None);
            };
            if window.take(v) {
                break;
            }
        }
        if let Some(key) = key {
            self.table.store(key, &window);
        }
        Ok(Some(window.best()))
    }
}

/// One card of each run of equivalent legal cards, extremes first.
///
/// Two cards of one hand and suit that no other hand's card, trick card or
/// singleton separates in rank win and lose exactly the same tricks and score the
/// same, so only the lowest of each run is searched. The order then alternates the
/// highest and the lowest remaining: trick play mostly wins high or ducks low, so
/// the best card is usually at one end and alpha-beta cuts early.
fn ordered<G: Solvable>(deal: &G) -> Vec<Card> {
    let t = deal.table();
    let seat = t.to_act();
    let hand = t.hands[seat];
    let legal = deal.legal();
    let singles = G::singletons();
    let mut outside = CardSet::from_cards(t.trick().iter().copied());
    for (s, h) in t.hands.iter().enumerate() {
        if s != seat {
            outside = outside.union(*h);
        }
    }
    let mut reps: Vec<Card> = Vec::with_capacity(legal.len() as usize);
    for suit in 0..NUM_SUITS as u8 {
        let live = suit_cards(hand.union(outside), suit);
        let mut in_run = false;
        for card in live.iter() {
            let ours = legal.contains(card);
            if ours && !singles.contains(card) {
                if !in_run {
                    reps.push(card);
                }
                in_run = true;
            } else {
                if ours {
                    reps.push(card);
                }
                in_run = false;
            }
        }
    }
    // Rank-major card order: the index order is the rank order across suits.
    reps.sort_unstable_by_key(|c| c.index());
    let mut out = Vec::with_capacity(reps.len());
    let (mut lo, mut hi) = (0, reps.len());
    while lo < hi {
        hi -= 1;
        out.push(reps[hi]);
        if lo < hi {
            out.push(reps[lo]);
            lo += 1;
        }
    }
    out
}

/// What a run of [`solve_samples`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Solves that finished within the budget.
    pub solved: u64,
    /// Solves that ran out of nodes.
    pub gave_up: u64,
    /// Nodes visited by all solves, finished or not.
    pub nodes: u64,
}

/// The solver's cost at `left` cards: `deals` deals made by `build` are played by
/// the game's heuristic (one card in ten random) until at most `left` cards are
/// left in the hands, then solved for the seat to act with `value(deal, seat)`,
/// each with a fresh table and at most `nodes` nodes (for the benches). Polls
/// `cancel` once per deal and within solves.
pub fn solve_samples<G, B, V>(
    deals: u64,
    left: u32,
    nodes: u64,
    seed: u64,
    build: B,
    value: V,
    cancel: &Cancel,
) -> Result<SolveStats>
where
    G: Solvable,
    B: Fn(&mut CardRng) -> G,
    V: Fn(&G, usize) -> f64,
{
    let mut rng = CardRng::new(seed);
    let mut stats = SolveStats::default();
    for _ in 0..deals {
        cancel.check()?;
        let mut deal = build(&mut rng);
        while !deal.is_over() && cards_left(&deal) > left {
            let card = if rng.unit() < 0.1 {
                random_card(deal.legal(), &mut rng)
            } else {
                deal.heuristic()
            };
            deal.play(card);
        }
        if deal.is_over() {
            continue;
        }
        let seat = deal.to_act();
        let mut solver = Solver::new(seat);
        let solved = solver.solve(&deal, &|d: &G| value(d, seat), nodes, cancel)?;
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
    use super::super::hearts::{HeartsDeal, HeartsObjective};
    use super::super::random_card;
    use super::super::spades::SpadesDeal;
    use super::*;
    use crate::cancel::NEVER;
    use crate::rng::CardRng;

    fn set(text: &str) -> CardSet {
        CardSet::from_cards(crate::cards::parse_cards(text).unwrap())
    }

    /// Plain minimax over every legal card, no pruning, no table, no equivalent
    /// cards merged: the reference.
    fn minimax<G: Solvable, V: Fn(&G) -> f64>(deal: &G, seat: usize, value: &V) -> f64 {
        if deal.is_over() {
            return value(deal);
        }
        let values = deal.legal().iter().map(|card| {
            let mut child = deal.clone();
            child.play(card);
            minimax(&child, seat, value)
        });
        if G::same_side(deal.to_act(), seat) {
            values.fold(f64::NEG_INFINITY, f64::max)
        } else {
            values.fold(f64::INFINITY, f64::min)
        }
    }

    /// Random cards from the start until at most `left` cards remain in the hands
    /// (possibly mid-trick): positions with real histories (points taken, suits
    /// broken, the first-trick rule behind them).
    fn play_down<G: TrickPlay>(deal: &mut G, left: u32, rng: &mut CardRng) {
        while cards_left(deal) > left {
            let card = random_card(deal.legal(), rng);
            deal.play(card);
        }
    }

    fn objectives(i: usize) -> HeartsObjective {
        match i % 3 {
            0 => HeartsObjective::Deal,
            1 => HeartsObjective::ZeroSum,
            _ => HeartsObjective::Match {
                scores: [80, 60, 95, 70],
                target: 100,
            },
        }
    }

    /// Asserts that the solver values `deal` as plain minimax does for every seat,
    /// each with its own `value_of(seat)` (test case `i` in the message).
    fn assert_solves_as_minimax<G, V>(deal: &G, i: usize, value_of: impl Fn(usize) -> V)
    where
        G: Solvable,
        V: Fn(&G) -> f64,
    {
        for seat in 0..4 {
            let value = value_of(seat);
            let got = Solver::new(seat)
                .solve(deal, &value, u64::MAX, &NEVER)
                .unwrap();
            assert_eq!(
                got,
                Some(minimax(deal, seat, &value)),
                "deal {i} seat {seat}"
            );
        }
    }

    #[test]
    fn hearts_solves_agree_with_plain_minimax() {
        let mut rng = CardRng::new(21);
        for i in 0..160 {
            let mut deal = HeartsDeal::random(&mut rng);
            play_down(&mut deal, 9 + (i % 4) as u32, &mut rng);
            let objective = &objectives(i);
            assert_solves_as_minimax(&deal, i, |seat| {
                move |d: &HeartsDeal| objective.value(d.points(), seat)
            });
        }
    }

    #[test]
    fn spades_solves_agree_with_plain_minimax() {
        let mut rng = CardRng::new(22);
        for i in 0..160 {
            // Nils and contracts of every size, bags near a penalty.
            let bids = [0, 1, 2, 3].map(|_| rng.below(6) as u8);
            let mut deal = SpadesDeal::random(bids, &mut rng);
            play_down(&mut deal, 9 + (i % 4) as u32, &mut rng);
            let bags = [(i % 10) as u32, 9];
            assert_solves_as_minimax(&deal, i, |seat| {
                move |d: &SpadesDeal| d.team_value(seat, bags)
            });
        }
    }

    #[test]
    fn a_solver_kept_between_solves_and_a_full_table_still_agree() {
        // Worlds of one search share the solver: positions met again through the
        // table, or after it was emptied, must give the same values.
        let mut rng = CardRng::new(23);
        let mut kept = Solver::new(1);
        let mut small = Solver::new(1);
        small.table = Table::with_capacity_limit(4);
        let value = |d: &HeartsDeal| HeartsObjective::Deal.value(d.points(), 1);
        for _ in 0..60 {
            let mut deal = HeartsDeal::random(&mut rng);
            play_down(&mut deal, 12, &mut rng);
            let want = Some(minimax(&deal, 1, &value));
            assert_eq!(kept.solve(&deal, &value, u64::MAX, &NEVER).unwrap(), want);
            assert_eq!(small.solve(&deal, &value, u64::MAX, &NEVER).unwrap(), want);
            assert!(small.table.len() <= 4);
        }
    }

    #[test]
    fn hearts_seat_cannot_escape_the_queen() {
        // HRT-11: seat 0 leads As 2c; seat 1 holds Qs 3d. Leading A♠ forces the
        // queen under it; leading 2♣ lets seat 1 keep it and drop it on the A♠ later.
        let mut deal = HeartsDeal::new(["As 2c", "Qs 3d", "2s 4c", "3s 5c"].map(set));
        deal.table.tricks_played = 11;
        deal.table.leader = 0;
        deal.table.broken = true;
        // Seat 2 took every heart before.
        deal.taken[2] = suit_cards(CardSet((1u64 << 52) - 1), 2);
        let value = |d: &HeartsDeal| HeartsObjective::Deal.value(d.points(), 0);
        let got = Solver::new(0).solve(&deal, &value, u64::MAX, &NEVER);
        // Points [13, 0, 13, 0]: 26 / 4 / 2 - 13.
        assert_eq!(got.unwrap(), Some(-9.75));
    }

    #[test]
    fn hearts_last_heart_completes_the_moon() {
        // HRT-12: seat 0 took Q♠ and twelve hearts and leads the last, A♥: 0 for it,
        // 26 for everyone else.
        let mut deal = HeartsDeal::new(["Ah", "2c", "3c", "4c"].map(set));
        deal.table.tricks_played = 12;
        deal.table.leader = 0;
        deal.table.broken = true;
        deal.taken[0] = set("Qs 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh");
        let value = |d: &HeartsDeal| HeartsObjective::Deal.value(d.points(), 0);
        let got = Solver::new(0).solve(&deal, &value, u64::MAX, &NEVER);
        assert_eq!(got.unwrap(), Some(78.0 / 4.0 / 2.0));
    }

    #[test]
    fn spades_the_one_line_that_sets_the_nil() {
        // SPD-06, SPD-08, SPD-09: seat 1 bid nil and holds K♠ 4♦. Seat 0 leads
        // A♠ (drawing the K♠) while its partner throws the 5♦, then the 3♦: seat
        // 1 must follow with the 4♦ and wins it. Leading the 3♦ first lets the
        // partner's 5♦ take the trick and the nil survives.
        let hands = ["As 3d", "Ks 4d", "5d 5h", "6h 7h"].map(set);
        let mut deal = SpadesDeal::new(hands, [1, 0, 1, 2], 0);
        deal.table.tricks_played = 11;
        deal.table.broken = true;
        deal.tricks = [4, 0, 3, 4];
        let value = |d: &SpadesDeal| d.team_value(0, [0, 0]);
        let got = Solver::new(0)
            .solve(&deal, &value, u64::MAX, &NEVER)
            .unwrap();
        // Team 0: 8 tricks on a bid of 2, 20 + 6 bags. Team 1: the failed nil
        // -100 and its trick a bag, seat 3's 4 tricks on its 2, 20 + 2 bags.
        assert_eq!(got, Some(f64::from(26 - (-100 + 20 + 3))));
        // Seat 1's side values it the other way round.
        let theirs = |d: &SpadesDeal| d.team_value(1, [0, 0]);
        let got = Solver::new(1).solve(&deal, &theirs, u64::MAX, &NEVER);
        assert_eq!(got.unwrap(), Some(-103.0));
    }

    #[test]
    fn a_budget_too_small_gives_up_and_cancel_stops() {
        let mut rng = CardRng::new(3);
        let mut deal = SpadesDeal::random([3; 4], &mut rng);
        play_down(&mut deal, 28, &mut rng);
        let value = |d: &SpadesDeal| d.team_value(0, [0, 0]);
        let mut solver = Solver::new(0);
        assert_eq!(solver.solve(&deal, &value, 10, &NEVER).unwrap(), None);
        assert!(solver.nodes() <= 11);
        let cancel = Cancel::new();
        cancel.cancel();
        assert!(Solver::new(0)
            .solve(&deal, &value, u64::MAX, &cancel)
            .is_err());
    }

    #[test]
    fn the_search_with_the_solver_off_is_unchanged_and_on_is_seeded() {
        use super::super::{evaluate_candidates, PlayoutPolicy};
        let mut rng = CardRng::new(8);
        let mut start = HeartsDeal::random(&mut rng);
        play_down(&mut start, 12, &mut rng);
        let cands: Vec<Card> = start.legal().iter().collect();
        let seat = start.to_act();
        let value = |d: &HeartsDeal| HeartsObjective::Deal.value(d.points(), seat);
        let run = |endgame: Endgame| {
            evaluate_candidates(
                &cands,
                20,
                5,
                PlayoutPolicy::Heuristic(0.1),
                endgame,
                |_: &mut CardRng| start.clone(),
                value,
                &NEVER,
            )
            .unwrap()
        };
        let on = Endgame {
            cards: 12,
            nodes: u64::MAX,
        };
        // A known world solved: every sample is the same world, so each value is
        // that candidate's exact value.
        let solved = run(on);
        for (card, v) in cands.iter().zip(&solved) {
            let mut child = start.clone();
            child.play(*card);
            assert!((v - minimax(&child, seat, &value)).abs() < 1e-9);
        }
        assert_eq!(run(on), solved);
        // No budget: every solve gives up and the playouts run as with it off.
        let starved = Endgame {
            cards: 12,
            nodes: 0,
        };
        assert_eq!(run(starved), run(Endgame::OFF));
    }
}
