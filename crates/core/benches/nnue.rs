//! NNUE inference speed: the accumulator updates a move makes (one feature out and one in, a
//! capture's extra removal), a full refresh, and the evaluation from two accumulators, at the
//! default hidden size (256) and at 512. Random weights: speed does not depend on them.
//!
//! `search_nps` searches each variant's start position to a node limit with the hand-written
//! evaluation and with a random quantised net of the default size, one after the other in
//! the same run: criterion's "thrpt" is nodes per second (each sample's time is scaled to
//! exactly `NODES` nodes, the nodes the search reports), so the two lines of a variant give
//! the speed ratio.

use cannonade_core::engine::registry::VARIANTS;
use cannonade_core::games::Notation;
use cannonade_core::nnue::{
    Accumulator, FloatNetwork, Network, DEFAULT_HIDDEN, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE,
};
use cannonade_core::search::{Limits, SearchControl, SearchOptions, TranspositionTable};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Nodes per search in `search_nps`.
const NODES: u64 = 30_000;

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
            bench.iter(|| net.evaluate(black_box(&a), black_box(&b), 0))
        });
    }
    g.finish();
}

/// A random net of the default size for a game with `features` features, with weights of
/// the size training gives (feature transformer about ±0.3, output about ±0.5), so that the
/// search sees evaluations of a realistic spread.
fn search_net(variant: &str, features: usize) -> Network {
    let mut float = FloatNetwork::new_random(features, DEFAULT_HIDDEN, 11);
    for w in &mut float.ft_weights {
        *w *= 0.3 * (features as f32).sqrt();
    }
    for w in &mut float.out_weights {
        *w *= 0.5 * ((2 * DEFAULT_HIDDEN) as f32).sqrt();
    }
    float
        .quantise(variant, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
        .unwrap()
        .0
}

fn search_nps(c: &mut Criterion) {
    let mut g = c.benchmark_group("search_nps");
    let epoch = Instant::now();
    let host: cannonade_core::host::SharedHost =
        Arc::new(cannonade_core::host::SingleThread::new(move || {
            epoch.elapsed()
        }));
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Elements(NODES));
    for v in VARIANTS {
        let name = v.game.name;
        let session = v.new_session();
        let net = Arc::new(search_net(name, session.nnue_feature_count()));
        for (label, nnue) in [("hand", None), ("nnue", Some(net))] {
            let opts = SearchOptions {
                nnue,
                ..SearchOptions::default()
            };
            let limits = Limits {
                nodes: Some(NODES),
                ..Limits::default()
            };
            g.bench_function(BenchmarkId::new(label, name), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        // A fresh table each time, made before the clock starts.
                        let tt = std::sync::Arc::new(TranspositionTable::new(4));
                        let ctl = std::sync::Arc::new(SearchControl::new(host.clone(), false));
                        let t = Instant::now();
                        let r =
                            session.search(&limits, &opts, &tt, &ctl, Notation::Uci, &mut |_| {});
                        let spent = t.elapsed();
                        // Scaled to exactly NODES nodes (a node limit is kept within a few
                        // hundred nodes).
                        total += spent.mul_f64(NODES as f64 / r.nodes.max(1) as f64);
                    }
                    total
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, nnue, search_nps);
criterion_main!(benches);
