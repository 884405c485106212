//! Move generation speed of orthodox chess (and of the chess code on the Gustavian board).
//!
//! `perft6_side_by_side` times single-threaded `perft 6` from the start position, and, when the
//! environment variable `FAIRY_STOCKFISH` names a Fairy-Stockfish binary, the same perft in that
//! engine in the same run (`go perft 6`, process start-up excluded). Both count the last ply in
//! bulk, so the ratio compares like with like.

#[path = "support/uci_engine.rs"]
mod uci_engine;

use cannonade_core::games::chess::ChessMoves;
use cannonade_core::games::chess::{Chess, ChessPosition};
use cannonade_core::games::perft::perft;
use cannonade_core::games::Game;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn chess_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("chess_perft");
    let start = cannonade_core::engine::registry::new_game::<Chess>("chess").unwrap();
    g.throughput(Throughput::Elements(4_865_609));
    g.bench_function("start_d5", |b| {
        b.iter(|| perft(&mut start.clone(), black_box(5)))
    });
    let kiwi = start.with_fen(KIWIPETE).unwrap();
    g.throughput(Throughput::Elements(4_085_603));
    g.bench_function("kiwipete_d4", |b| {
        b.iter(|| perft(&mut kiwi.clone(), black_box(4)))
    });
    let gustav =
        ChessPosition::<u128>::new_game(&cannonade_core::games::chess::GUSTAVIAN_CHESS).unwrap();
    g.throughput(Throughput::Elements(281_129));
    g.bench_function("gustavian_board_d4", |b| {
        b.iter(|| perft(&mut gustav.clone(), black_box(4)))
    });
    g.finish();
}

fn legal_move_generation(c: &mut Criterion) {
    let base = cannonade_core::engine::registry::new_game::<Chess>("chess").unwrap();
    let positions: Vec<Chess> = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        KIWIPETE,
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ]
    .iter()
    .map(|f| base.with_fen(f).unwrap())
    .collect();
    let mut g = c.benchmark_group("chess_movegen");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("legal_moves_4_positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                let mut list = ChessMoves::new();
                p.legal_moves(&mut list);
                n += list.len();
            }
            black_box(n)
        })
    });
    g.finish();
}

fn perft6_side_by_side(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft6_side_by_side");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    g.throughput(Throughput::Elements(119_060_324));
    let start = cannonade_core::engine::registry::new_game::<Chess>("chess").unwrap();
    g.bench_function("cannonade", |b| {
        b.iter(|| assert_eq!(perft(&mut start.clone(), 6), 119_060_324))
    });
    if let Ok(path) = std::env::var("FAIRY_STOCKFISH") {
        match uci_engine::UciEngine::start(&path, &["setoption name Threads value 1".into()]) {
            Ok(mut fsf) => {
                g.bench_function("fairy_stockfish", |b| {
                    b.iter_custom(|iters| {
                        let mut total = Duration::ZERO;
                        for _ in 0..iters {
                            let (nodes, t) = fsf.perft("position startpos", 6);
                            assert_eq!(nodes, 119_060_324);
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

criterion_group!(
    benches,
    chess_perft,
    legal_move_generation,
    perft6_side_by_side
);
criterion_main!(benches);
