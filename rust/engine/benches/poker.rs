//! Criterion benches of the poker evaluator and equity: `cargo bench -p cardkit-engine`.

use cardkit_engine::cancel::NEVER;
use cardkit_engine::poker::{
    equity, for_each_hand, rank7, rank_rows, rank_rows_into, HandRank, Method, Problem, Range,
};
use cardkit_engine::rng::CardRng;
use cardkit_engine::Card;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn deck() -> Vec<Card> {
    (0..52u32)
        .filter_map(|i| Card::from_index(i).ok())
        .collect()
}

fn random_order(c: &mut Criterion) {
    let mut rng = CardRng::new(1);
    let mut cards = deck();
    let hands: Vec<[Card; 7]> = (0..1 << 16)
        .map(|_| {
            rng.shuffle(&mut cards);
            [
                cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6],
            ]
        })
        .collect();
    let mut group = c.benchmark_group("rank7");
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.bench_function("random_order", |b| {
        b.iter(|| hands.iter().map(|&h| rank7(black_box(h)).value()).max())
    });
    group.finish();
}

/// `rank_rows` (the engine of `evaluate_batch`) on random 7-card rows, one thread.
fn batch_rows(c: &mut Criterion) {
    let mut rng = CardRng::new(2);
    let mut cards: Vec<u8> = (0..52).collect();
    let n = 1 << 20;
    let mut rows = Vec::with_capacity(n * 7);
    for _ in 0..n {
        rng.shuffle(&mut cards);
        rows.extend_from_slice(&cards[..7]);
    }
    let mut group = c.benchmark_group("rank_rows");
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function("random_7_cards_1t", |b| {
        b.iter(|| rank_rows(black_box(&rows), 7, 1))
    });
    // Into a reused buffer (`evaluate_batch(..., out=)`): no fresh pages to fault in.
    let mut out = vec![0u32; n];
    group.bench_function("random_7_cards_1t_into", |b| {
        b.iter(|| rank_rows_into(black_box(&rows), 7, 1, &mut out))
    });
    group.finish();
}

/// All 133,784,560 seven-card hands, keys built incrementally.
fn enumerate_all(c: &mut Criterion) {
    let mut group = c.benchmark_group("enumerate");
    group.sample_size(10);
    group.throughput(Throughput::Elements(133_784_560));
    group.bench_function("all_seven_card_hands", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            let visit = |r: HandRank| sum += u64::from(r.value());
            for_each_hand(7, visit).map(|_| sum)
        })
    });
    group.finish();
}

fn equities(c: &mut Criterion) {
    let players = [
        Range::parse("AhAs").unwrap_or_else(|e| panic!("{e}")),
        Range::parse("KdKc").unwrap_or_else(|e| panic!("{e}")),
    ];
    let problem = Problem::new(&players, &[], &[]).unwrap_or_else(|e| panic!("{e}"));
    let mut group = c.benchmark_group("equity");
    group.sample_size(10);
    for threads in [1, 2] {
        group.bench_function(format!("exact_aa_vs_kk_preflop_{threads}t"), |b| {
            b.iter(|| equity(&problem, Method::Exact, Some(threads), &|_| {}, &NEVER))
        });
    }
    let samples = 1_000_000;
    group.throughput(Throughput::Elements(samples));
    for threads in [1, 2] {
        let method = Method::MonteCarlo {
            samples,
            stderr: None,
            seed: 1,
        };
        group.bench_function(format!("monte_carlo_aa_vs_kk_{threads}t"), |b| {
            b.iter(|| equity(&problem, method, Some(threads), &|_| {}, &NEVER))
        });
    }
    group.finish();
}

criterion_group!(benches, random_order, batch_rows, enumerate_all, equities);
criterion_main!(benches);
