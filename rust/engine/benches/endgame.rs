//! Node rates of the climbing endgame solver, and the cards left at which a solve
//! stays within a search's time budget (issue 21).
//!
//! Positions: random Dou Dizhu, Zheng Shangyou and Guandan deals played by the rule
//! policy until at most `cards` cards are left in all hands, then solved from the
//! seat to act with a node budget. For Guandan, the second table times the search
//! a move (32 samples, CPU time) without and with the solver from those positions.
//! Hearts, Spades and Tractor: the trick solvers' `solve_samples` deals (played by
//! the heuristic down to `cards` cards left, solved for the seat to act with a
//! fresh table), CPU time a row.
//! Run: `cargo bench -p cardkit-engine --bench endgame` (`-- guandan`: Guandan
//! only; `-- trick`: Hearts, Spades and Tractor only).

use cardkit_engine::cancel::NEVER;
use cardkit_engine::climbing::endgame::{cards_left, Solver};
use cardkit_engine::climbing::guandan::deal::{Deal as GuandanDeal, SEATS};
use cardkit_engine::climbing::guandan::endgame as guandan_endgame;
use cardkit_engine::climbing::guandan::search::{self as guandan_search, Endgame};
use cardkit_engine::climbing::guandan::Hand;
use cardkit_engine::climbing::playout::{random_deal, rule_move};
use cardkit_engine::rng::CardRng;
use cardkit_engine::trick::endgame::{self as trick_endgame, SolveStats};
use cardkit_engine::trick::hearts::{HeartsDeal, HeartsObjective};
use cardkit_engine::trick::spades::SpadesDeal;
use cardkit_engine::trick::tractor::endgame as tractor_endgame;
use std::time::Instant;

const POSITIONS: usize = 200;
const BUDGET: u64 = 1_000_000;

/// Guandan positions: random deals (level 2, leader by index) played by the rule
/// policy until at most `cards` cards are left in the four hands.
fn guandan_positions(cards: u32, count: usize) -> Vec<GuandanDeal> {
    let pack = cardkit_engine::deck::deck("double108").expect("the double pack");
    let mut rng = CardRng::new(u64::from(cards));
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut shuffled = pack.clone();
        rng.shuffle(&mut shuffled);
        let hands: [Hand; SEATS] = std::array::from_fn(|s| {
            Hand::from_cards(&shuffled[27 * s..27 * (s + 1)]).expect("27 cards")
        });
        let leader = (out.len() % SEATS) as u8;
        let mut deal = GuandanDeal::new(hands, 0, leader, false).expect("a deal");
        while !deal.is_over() && guandan_endgame::cards_left(&deal) > cards {
            let mv = guandan_search::rule_move(&deal);
            deal.apply(mv.as_ref()).expect("a legal rule move");
        }
        if !deal.is_over() && guandan_search::decided_score(&deal, 0).is_none() {
            out.push(deal);
        }
    }
    out
}

/// This process's CPU time in seconds (the machine is shared: wall time is noisy).
fn cpu_seconds() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    now.tv_sec as f64 + now.tv_nsec as f64 / 1e9
}

fn guandan() {
    const GD_POSITIONS: usize = 100;
    const GD_BUDGET: u64 = 200_000;
    println!();
    println!("| game | cards left | solved within {GD_BUDGET} nodes | mean nodes | median CPU µs | p90 CPU µs | nodes/CPU s |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for cards in [8u32, 10, 12, 14, 16, 20, 24] {
        let (mut solved, mut nodes, mut micros) = (0usize, 0u64, Vec::new());
        for deal in guandan_positions(cards, GD_POSITIONS) {
            let seat = deal.to_move().unwrap_or(0);
            let mut solver = guandan_endgame::Solver::new(seat);
            let start = cpu_seconds();
            let value = solver
                .solve(&deal, GD_BUDGET, &NEVER)
                .expect("not cancelled");
            micros.push((cpu_seconds() - start) * 1e6);
            nodes += solver.nodes();
            solved += usize::from(value.is_some());
        }
        micros.sort_by(|a, b| a.total_cmp(b));
        let total: f64 = micros.iter().sum();
        println!(
            "| guandan | {cards} | {solved}/{GD_POSITIONS} | {} | {:.0} | {:.0} | {:.0} |",
            nodes / GD_POSITIONS as u64,
            micros[GD_POSITIONS / 2],
            micros[GD_POSITIONS * 9 / 10],
            nodes as f64 / (total / 1e6),
        );
    }
    // The search a move from the same kind of positions: 32 samples, without the
    // solver and with it from `cards` cards left at 20,000 nodes a solve.
    const MOVES: usize = 30;
    println!();
    println!(
        "| cards left | search ms a move (off) | with endgame=cards, 20,000 nodes (ms) | ratio |"
    );
    println!("| ---: | ---: | ---: | ---: |");
    for cards in [8u32, 10, 12, 14, 16, 20] {
        let (mut off, mut on) = (0.0, 0.0);
        for deal in guandan_positions(cards, MOVES) {
            let seat = usize::from(deal.to_move().unwrap_or(0));
            let unknown: Vec<_> = (0..SEATS)
                .filter(|&s| s != seat)
                .flat_map(|s| deal.hand(s).cards())
                .collect();
            for (endgame, total) in [
                (Endgame::OFF, &mut off),
                (
                    Endgame {
                        cards,
                        nodes: 20_000,
                    },
                    &mut on,
                ),
            ] {
                let mut rng = CardRng::new(1);
                let start = cpu_seconds();
                guandan_search::search_move(&deal, &unknown, 32, endgame, &mut rng, &NEVER)
                    .expect("not cancelled");
                *total += cpu_seconds() - start;
            }
        }
        let per = |t: f64| t * 1e3 / MOVES as f64;
        println!(
            "| {cards} | {:.2} | {:.2} | {:.1} |",
            per(off),
            per(on),
            on / off.max(1e-9)
        );
    }
}

/// Hearts (the deal objective), Spades (every seat bids 3, no bags) and Tractor
/// (the attackers' points) solves: nodes and CPU time a row of `TRICK_DEALS` deals.
fn trick() {
    const TRICK_DEALS: u64 = 100;
    const TRICK_BUDGET: u64 = 200_000;
    println!();
    println!("| game | cards left | solved within {TRICK_BUDGET} nodes | mean nodes | CPU ms a row | nodes/CPU s |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for game in ["hearts", "spades", "tractor"] {
        for cards in [12u32, 16, 20, 24] {
            let seed = u64::from(cards);
            let start = cpu_seconds();
            let stats: SolveStats = match game {
                "hearts" => trick_endgame::solve_samples(
                    TRICK_DEALS,
                    cards,
                    TRICK_BUDGET,
                    seed,
                    HeartsDeal::random,
                    |d: &HeartsDeal, seat| HeartsObjective::Deal.value(d.points(), seat),
                    &NEVER,
                ),
                "spades" => trick_endgame::solve_samples(
                    TRICK_DEALS,
                    cards,
                    TRICK_BUDGET,
                    seed,
                    |rng: &mut CardRng| SpadesDeal::random([3; 4], rng),
                    |d: &SpadesDeal, seat| d.team_value(seat, [0, 0]),
                    &NEVER,
                ),
                _ => tractor_endgame::solve_samples(TRICK_DEALS, cards, TRICK_BUDGET, seed, &NEVER),
            }
            .expect("not cancelled");
            let seconds = cpu_seconds() - start;
            let deals = stats.solved + stats.gave_up;
            println!(
                "| {game} | {cards} | {}/{deals} | {} | {:.0} | {:.0} |",
                stats.solved,
                stats.nodes / deals.max(1),
                seconds * 1e3,
                stats.nodes as f64 / seconds.max(1e-9),
            );
        }
    }
}

fn main() {
    if std::env::args().any(|a| a == "guandan") {
        guandan();
        return;
    }
    if std::env::args().any(|a| a == "trick") {
        trick();
        return;
    }
    println!("| game | cards left | solved within {BUDGET} nodes | mean nodes | median µs | p90 µs | nodes/s |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for ddz in [true, false] {
        for cards in [8u32, 10, 12, 14, 16, 18, 20] {
            let mut rng = CardRng::new(cards as u64);
            let (mut solved, mut nodes, mut micros) = (0usize, 0u64, Vec::new());
            let mut found = 0;
            while found < POSITIONS {
                let mut deal = random_deal(ddz, &mut rng);
                while !deal.is_over() && cards_left(&deal) > cards {
                    deal.apply(rule_move(&deal));
                }
                if deal.is_over() {
                    continue;
                }
                found += 1;
                let mut solver = Solver::new(deal.to_move);
                let start = Instant::now();
                let value = solver.solve(&deal, BUDGET, &NEVER).expect("not cancelled");
                micros.push(start.elapsed().as_secs_f64() * 1e6);
                nodes += solver.nodes();
                solved += usize::from(value.is_some());
            }
            micros.sort_by(|a, b| a.total_cmp(b));
            let total: f64 = micros.iter().sum();
            println!(
                "| {} | {cards} | {solved}/{POSITIONS} | {} | {:.0} | {:.0} | {:.0} |",
                if ddz { "doudizhu" } else { "zhengshangyou" },
                nodes / POSITIONS as u64,
                micros[POSITIONS / 2],
                micros[POSITIONS * 9 / 10],
                nodes as f64 / (total / 1e6),
            );
        }
    }
    guandan();
    trick();
}
