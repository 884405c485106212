//! Cannon move generation speed: perft from the start position and from a crowded middle game.

use cannonade_core::games::cannon::CannonPosition;
use cannonade_core::games::perft::perft;
use cannonade_core::games::Game;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

/// Soldiers in contact, cannons on several lines (a line of four on the g-file), both towns
/// placed: the kind of position where shots, captures and retreats all occur.
const MIDDLE_GAME: &str =
    "3t6/1s1s3s1s/1s1s1s4/3s1S1s2/2S1s1S3/s2S2S3/S3S1S1S1/S1S3S3/S1S1s5/6T3[] w - - 0 12";

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("cannon perft");
    group.sample_size(10);
    let start = cannonade_core::engine::registry::new_game::<CannonPosition>("cannon")
        .expect("start position");
    group.bench_function("start d5 (4615160 leaves)", |b| {
        b.iter(|| {
            let mut p = start.clone();
            black_box(perft(&mut p, 5))
        })
    });
    let middle = start.with_fen(MIDDLE_GAME).expect("middle game FEN");
    group.bench_function("middle game d4", |b| {
        b.iter(|| {
            let mut p = middle.clone();
            black_box(perft(&mut p, 4))
        })
    });
    group.finish();
    c.bench_function("cannon evaluate middle game", |b| {
        b.iter(|| black_box(black_box(&middle).evaluate()))
    });
    let mut moves = cannonade_core::games::cannon::CannonMoves::new();
    c.bench_function("cannon legal moves middle game", |b| {
        b.iter(|| {
            moves.clear();
            black_box(&middle).legal_moves(&mut moves);
            black_box(moves.len())
        })
    });
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
