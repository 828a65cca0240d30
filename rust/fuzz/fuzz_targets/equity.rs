//! Hold'em equity on any ranges, board and dead cards: every problem is solved or
//! refused with an error, promptly (libFuzzer's timeout catches a spin; exact runs
//! only where they cost at most about a second), and a
//! solved problem's equities lie in [0, 1] and sum to 1.
#![no_main]

use cardkit_engine::cancel::NEVER;
use cardkit_engine::cards::parse_cards;
use cardkit_engine::poker::{equity, Method, Problem, Range};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, u16, &str)| {
    let (mode, samples, text) = input;
    // `ranges | board | dead`, the ranges separated by `;`.
    let mut parts = text.split('|');
    let ranges: Option<Vec<Range>> = parts
        .next()
        .unwrap_or("")
        .split(';')
        .map(|r| Range::parse(r).ok())
        .collect();
    let (Some(ranges), Ok(board), Ok(dead)) = (
        ranges,
        parse_cards(parts.next().unwrap_or("")),
        parse_cards(parts.next().unwrap_or("")),
    ) else {
        return;
    };
    let Ok(problem) = Problem::new(&ranges, &board, &dead) else {
        return;
    };
    // Exact enumeration accepts problems of up to about a minute a core
    // (`EXACT_COST_LIMIT`), longer than libFuzzer's timeout, which is there to catch
    // a spin: problems above a second's work take the Monte Carlo path instead.
    let method = if mode & 1 == 0 && board.len() >= 4 && problem.exact_cost() <= 1e9 {
        Method::Exact
    } else {
        Method::MonteCarlo {
            samples: u64::from(samples % 512) + 1,
            stderr: None,
            seed: u64::from(mode),
        }
    };
    if let Ok(result) = equity(&problem, method, Some(1), &|_| {}, &NEVER) {
        let total: f64 = result.players.iter().map(|p| p.equity).sum();
        assert!((total - 1.0).abs() < 1e-9, "equities sum to {total}");
        for p in &result.players {
            assert!((0.0..=1.0).contains(&p.equity), "equity {}", p.equity);
        }
    }
});
