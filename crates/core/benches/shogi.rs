//! Cannon Shogi move generation speed: perft 4 from the start position, and drop-heavy
//! positions (full hands) where most moves are drops.
//!
//! `perft4_side_by_side` times single-threaded `perft 4` from the start, and, when the
//! environment variable `FAIRY_STOCKFISH` names a Fairy-Stockfish binary built with
//! `largeboards=yes` (and `FSF_VARIANTS` its variants.ini, by default the `variants.ini` next to
//! the binary), the same perft in that engine in the same run (`go perft 4`, process start-up
//! and variant loading excluded). Both count the last ply in bulk, so the ratio compares like
//! with like.

#[path = "support/uci_engine.rs"]
mod uci_engine;

use cannonade_core::games::perft::perft;
use cannonade_core::games::shogi::CannonShogi;
use cannonade_core::games::Game;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use std::time::Duration;

/// Both sides hold one of every droppable piece: over 400 moves a ply, nearly all drops.
const DROPS: &str = "4k4/9/9/9/9/9/9/9/4K4[RBUACIrbuaci] w - - 0 1";
/// A middle game where both sides hold cannons: drops mixed with board moves.
const MIDDLE_DROPS: &str =
    "lnsgkgsnl/1r5b1/p1p1p1p1p/9/9/9/P1P1P1P1P/1B5R1/LNSGKGSNL[UACIuaci] w - - 0 1";

fn shogi_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("cannonshogi_perft");
    g.sample_size(10);
    let start = cannonade_core::engine::registry::new_game::<CannonShogi>("cannonshogi").unwrap();
    g.throughput(Throughput::Elements(13_406_022));
    g.bench_function("start_d4", |b| {
        b.iter(|| perft(&mut start.clone(), black_box(4)))
    });
    let drops = start.with_fen(DROPS).unwrap();
    g.throughput(Throughput::Elements(215_443));
    g.bench_function("full_hands_d2", |b| {
        b.iter(|| perft(&mut drops.clone(), black_box(2)))
    });
    let middle = start.with_fen(MIDDLE_DROPS).unwrap();
    let leaves = perft(&mut middle.clone(), 3);
    g.throughput(Throughput::Elements(leaves));
    g.bench_function("middle_game_with_hands_d3", |b| {
        b.iter(|| perft(&mut middle.clone(), black_box(3)))
    });
    g.finish();
}

fn perft4_side_by_side(c: &mut Criterion) {
    let mut g = c.benchmark_group("cannonshogi_perft4_side_by_side");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    g.throughput(Throughput::Elements(13_406_022));
    let start = cannonade_core::engine::registry::new_game::<CannonShogi>("cannonshogi").unwrap();
    g.bench_function("cannonade", |b| {
        b.iter(|| assert_eq!(perft(&mut start.clone(), 4), 13_406_022))
    });
    if let Ok(path) = std::env::var("FAIRY_STOCKFISH") {
        let ini = std::env::var("FSF_VARIANTS").unwrap_or_else(|_| {
            Path::new(&path)
                .with_file_name("variants.ini")
                .to_string_lossy()
                .into_owned()
        });
        let setup = [
            "setoption name Threads value 1".to_string(),
            format!("setoption name VariantPath value {ini}"),
            "setoption name UCI_Variant value cannonshogi".to_string(),
        ];
        match uci_engine::UciEngine::start(&path, &setup) {
            Ok(mut fsf) => {
                g.bench_function("fairy_stockfish", |b| {
                    b.iter_custom(|iters| {
                        let mut total = Duration::ZERO;
                        for _ in 0..iters {
                            let (nodes, t) = fsf.perft("position startpos", 4);
                            assert_eq!(nodes, 13_406_022);
                            total += t;
                        }
                        total
                    })
                });
            }
            Err(e) => eprintln!("FAIRY_STOCKFISH={path} could not start: {e}"),
        }
    }
    g.finish();
}

criterion_group!(benches, shogi_perft, perft4_side_by_side);
criterion_main!(benches);
