//! Node rates of the climbing endgame solver, and the cards left at which a solve
//! stays within a search's time budget (issue 21).
//!
//! Positions: random Dou Dizhu and Zheng Shangyou deals played by the rule policy
//! until at most `cards` cards are left in all hands, then solved from the seat to
//! act with a node budget. Run: `cargo bench -p cardkit-engine --bench endgame`.

use cardkit_engine::cancel::NEVER;
use cardkit_engine::climbing::endgame::{cards_left, Solver};
use cardkit_engine::climbing::playout::{random_deal, rule_move};
use cardkit_engine::rng::CardRng;
use std::time::Instant;

const POSITIONS: usize = 200;
const BUDGET: u64 = 1_000_000;

fn main() {
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
}
