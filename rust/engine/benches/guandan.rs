//! Guandan's two hot loops in Rust alone, for profiling (`perf record` on the
//! bench binary) without the Python boundary: every lead of 27-card hands holding
//! both wilds as action ids, and random playouts of whole deals, one thread each.
//! `benches/guandan_speed.py` measures the same through the bindings against the
//! issue's targets. Run: `cargo bench -p cardkit-engine --bench guandan`.

use cardkit_engine::cancel::NEVER;
use cardkit_engine::climbing::guandan::deal::random_playouts;
use cardkit_engine::climbing::guandan::{move_ids_into, wild_card, Hand};
use cardkit_engine::rng::CardRng;
use std::time::Instant;

const HANDS: usize = 20_000;
const DEALS: u64 = 2_000;
const ROUNDS: usize = 5;

/// Hands of 25 random naturals and both wilds at level 2, as the Python bench deals.
fn wild_hands() -> Vec<Hand> {
    let wild = wild_card(0);
    let rest: Vec<_> = cardkit_engine::deck::deck("double108")
        .expect("the double pack")
        .into_iter()
        .filter(|&c| c != wild)
        .collect();
    let mut rng = CardRng::new(1);
    (0..HANDS)
        .map(|_| {
            let mut cards = rest.clone();
            rng.shuffle(&mut cards);
            cards.truncate(25);
            cards.extend([wild, wild]);
            Hand::from_cards(&cards).expect("at most two of a card")
        })
        .collect()
}

/// The best rate of `ROUNDS` runs of `f`, which does `n` units of work.
fn best_rate(n: f64, mut f: impl FnMut()) -> f64 {
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            f();
            n / start.elapsed().as_secs_f64()
        })
        .fold(0.0, f64::max)
}

fn main() {
    // `leads` or `playouts` as an argument runs that part alone (for a profile).
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let runs = |part: &str| only.is_empty() || only.iter().any(|a| a == part);
    if runs("leads") {
        leads();
    }
    if runs("playouts") {
        let playouts = best_rate(DEALS as f64, || {
            random_playouts(DEALS, 7, 0, &NEVER).expect("never cancelled");
        });
        println!("random playouts of whole deals:      {playouts:>10.0} deals/s");
    }
}

fn leads() {
    let hands = wild_hands();
    let mut ids: Vec<u16> = Vec::with_capacity(HANDS * 640);
    let leads = best_rate(HANDS as f64, || {
        ids.clear();
        for hand in &hands {
            move_ids_into(hand, 0, None, &mut ids);
        }
    });
    println!(
        "all leads, 27 cards with both wilds: {leads:>10.0} hands/s ({} ids a hand)",
        ids.len() / HANDS
    );
}
