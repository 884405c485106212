//! NNUE inference speed: the accumulator updates a move makes (one feature out and one in, a
//! capture's extra removal), a full refresh, and the evaluation from two accumulators, at the
//! default hidden size (256) and at 512. Random weights: speed does not depend on them.

use cannonade::nnue::{Accumulator, FloatNetwork, Network, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};

fn net(hidden: usize) -> Network {
    FloatNetwork::new_random(768, hidden, 1)
        .quantise("chess", DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
        .unwrap()
        .0
}

/// 32 features spread over the input, as a full chess board has.
fn features(offset: u32) -> Vec<u32> {
    (0..32).map(|i| (i * 23 + offset) % 768).collect()
}

fn nnue(c: &mut Criterion) {
    let mut g = c.benchmark_group("nnue");
    for hidden in [256, 512] {
        let net = net(hidden);
        let (stm, nstm) = (features(0), features(5));
        let mut a = Accumulator::new(&net);
        let mut b = Accumulator::new(&net);
        a.refresh(&net, &stm);
        b.refresh(&net, &nstm);
        g.bench_function(BenchmarkId::new("add_remove", hidden), |bench| {
            // A quiet move and its undo, so the values stay bounded.
            bench.iter(|| {
                a.add_remove(&net, black_box(100), black_box(200));
                a.add_remove(&net, black_box(200), black_box(100));
            })
        });
        g.bench_function(
            BenchmarkId::new("capture_update_and_undo", hidden),
            |bench| {
                bench.iter(|| {
                    a.add_remove(&net, black_box(100), black_box(200));
                    a.remove(&net, black_box(300));
                    a.add(&net, black_box(300));
                    a.add_remove(&net, black_box(200), black_box(100));
                })
            },
        );
        g.bench_function(BenchmarkId::new("refresh_32", hidden), |bench| {
            bench.iter(|| a.refresh(&net, black_box(&stm)))
        });
        g.bench_function(BenchmarkId::new("evaluate", hidden), |bench| {
            bench.iter(|| net.evaluate(black_box(&a), black_box(&b)))
        });
    }
    g.finish();
}

criterion_group!(benches, nnue);
criterion_main!(benches);
