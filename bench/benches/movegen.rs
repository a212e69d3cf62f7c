//! Criterion benchmarks of the move generator on the fixed positions of
//! `tandem_bench::bench_positions()` (chess start, Kiwipete, a crazyhouse
//! middlegame with reserves, a reserve-heavy bughouse position, Tandemschach):
//!
//! - `legal_moves/<pos>`: generate the root move list;
//! - `count_legal/<pos>`: count the root moves without storing them;
//! - `copy_make/<pos>`: clone the position and play each root move;
//! - `perft/<pos>`: perft at the position's `bench_depth` (bulk-counted last ply).
//!
//! Every benchmark first computes its count once and `assert_eq!`s it against
//! the verified literal in `tandem_bench::POSITIONS`, so a wrong generator fails
//! the bench instead of timing the wrong work.
//!
//! Run briefly with
//! `cargo bench -p tandem-bench -- --warm-up-time 1 --measurement-time 2`,
//! or one group with e.g. `cargo bench -p tandem-bench -- perft/`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tandem_bench::bench_positions;
use tandem_engine::{perft, Position};

fn legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    group.sample_size(20);
    for p in bench_positions() {
        let pos = p.position();
        assert_eq!(
            pos.legal_moves().len() as u64,
            p.legal_count(),
            "{}: legal_moves",
            p.name
        );
        group.throughput(Throughput::Elements(p.legal_count()));
        group.bench_with_input(BenchmarkId::from_parameter(p.name), &pos, |b, pos| {
            b.iter(|| black_box(pos).legal_moves())
        });
    }
    group.finish();
}

fn count_legal(c: &mut Criterion) {
    let mut group = c.benchmark_group("count_legal");
    group.sample_size(20);
    for p in bench_positions() {
        let pos = p.position();
        assert_eq!(
            pos.count_legal(),
            p.legal_count(),
            "{}: count_legal",
            p.name
        );
        group.throughput(Throughput::Elements(p.legal_count()));
        group.bench_with_input(BenchmarkId::from_parameter(p.name), &pos, |b, pos| {
            b.iter(|| black_box(pos).count_legal())
        });
    }
    group.finish();
}

/// Clones the position and plays every legal move; returns how many were
/// played and a fold of the children's hashes (so no work is optimised away).
fn copy_make_all(pos: &Position) -> (u64, u64) {
    let mut played = 0;
    let mut hashes = 0u64;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play(m);
        played += 1;
        hashes = hashes.wrapping_add(child.hash());
    }
    (played, hashes)
}

fn copy_make(c: &mut Criterion) {
    let mut group = c.benchmark_group("copy_make");
    group.sample_size(20);
    for p in bench_positions() {
        let pos = p.position();
        let (played, _) = copy_make_all(&pos);
        assert_eq!(played, p.legal_count(), "{}: copy_make", p.name);
        group.throughput(Throughput::Elements(p.legal_count()));
        group.bench_with_input(BenchmarkId::from_parameter(p.name), &pos, |b, pos| {
            b.iter(|| copy_make_all(black_box(pos)))
        });
    }
    group.finish();
}

fn perft_fixed_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for p in bench_positions() {
        let pos = p.position();
        let depth = p.bench_depth.expect("bench positions have a bench depth");
        let leaves = p.leaves(depth);
        assert_eq!(perft(&pos, depth), leaves, "{}: perft {depth}", p.name);
        group.throughput(Throughput::Elements(leaves));
        let id = BenchmarkId::new(p.name, format!("d{depth}"));
        group.bench_with_input(id, &pos, |b, pos| b.iter(|| perft(black_box(pos), depth)));
    }
    group.finish();
}

criterion_group!(
    benches,
    legal_moves,
    count_legal,
    copy_make,
    perft_fixed_depth
);
criterion_main!(benches);
