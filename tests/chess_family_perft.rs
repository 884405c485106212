//! The six CPW perft positions (https://www.chessprogramming.org/Perft_Results), at depths that
//! keep the suite quick, through the orthodox fast generator. The full depths are checked with
//! `cannonade perft` (see docs/architecture.md).

use cannonade::games::chess::Chess;
use cannonade::games::perft::perft;
use cannonade::games::Game;

const CPW: [(&str, u32, u64); 6] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        4865609,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4085603,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
        422333,
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        4,
        2103487,
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        4,
        3894594,
    ),
];

#[test]
fn cpw_positions() {
    let chess = cannonade::engine::registry::new_game::<Chess>("chess").unwrap();
    for (fen, depth, nodes) in CPW {
        let mut pos = chess.with_fen(fen).unwrap();
        assert_eq!(perft(&mut pos, depth), nodes, "{fen}");
    }
}
