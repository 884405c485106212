//! Perft of orthodox chess against the published numbers of the Chess Programming Wiki's six
//! positions, and of orthodox chess on the Gustavian board against Fairy-Stockfish's numbers
//! (the rules file cannonrider.md), which tests the board code with holes.

use crate::hosts;
use cannonade_core::games::chess::{Chess, ChessPosition, GUSTAVIAN_CHESS_START};
use cannonade_core::games::perft::{divide, perft};
use cannonade_core::games::Game;

fn chess_perft(fen: &str, depth: u32) -> u64 {
    let mut pos = cannonade_core::engine::registry::new_game::<Chess>("chess")
        .unwrap()
        .with_fen(fen)
        .unwrap();
    perft(&mut pos, depth)
}

#[test]
fn start_position() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let expected = [20, 400, 8902, 197_281, 4_865_609];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(chess_perft(fen, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn kiwipete() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let expected = [48, 2039, 97_862, 4_085_603];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(chess_perft(fen, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn position_3_en_passant_and_pins() {
    let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    let expected = [14, 191, 2812, 43_238, 674_624, 11_030_083];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(chess_perft(fen, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn position_4_promotions_and_castling_rights() {
    let fen = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
    let expected = [6, 264, 9467, 422_333, 15_833_292];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(chess_perft(fen, d as u32 + 1), n, "depth {}", d + 1);
    }
    // The same position mirrored, black to move, must give the same numbers.
    let mirrored = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
    assert_eq!(chess_perft(mirrored, 4), 422_333);
}

#[test]
fn position_5() {
    let fen = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
    let expected = [44, 1486, 62_379, 2_103_487];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(chess_perft(fen, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn position_6() {
    let fen = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
    let expected = [46, 2079, 89_890, 3_894_594];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(chess_perft(fen, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn chess_on_the_gustavian_board_matches_fairy_stockfish() {
    let mut pos =
        ChessPosition::<u128>::new_game(&cannonade_core::games::chess::GUSTAVIAN_CHESS).unwrap();
    assert_eq!(pos.to_fen(), GUSTAVIAN_CHESS_START);
    let expected = [22, 484, 11_684, 281_129];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn divide_with_threads_agrees_with_one_thread() {
    let pos = cannonade_core::engine::registry::new_game::<Chess>("chess").unwrap();
    let host = hosts::thread_per_task();
    let one = divide(&*host, &pos, 4, 1);
    let two = divide(&*host, &pos, 4, 2);
    assert_eq!(host.started.load(std::sync::atomic::Ordering::Relaxed), 1);
    // A host without threads counts them all on the caller's.
    let alone = divide(&*hosts::single_thread(), &pos, 4, 3);
    assert_eq!(one, alone);
    assert_eq!(one, two);
    assert_eq!(one.iter().map(|(_, n)| n).sum::<u64>(), 197_281);
    assert_eq!(one.len(), 20);
}
