//! Property tests: random games from varied positions, checking that make/unmake restores the
//! position and its key, that the incremental key equals the key computed from scratch, that
//! FENs round-trip, and that no legal move leaves the mover's king attacked.

use cannonade_core::games::chess::Chess;
use cannonade_core::games::chess::ChessMoves;
use cannonade_core::games::Game;
use cannonade_core::nnue::NnueFeatures;
use proptest::prelude::*;

const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

fn mover_king_attacked(p: &Chess) -> bool {
    // After a move, the side that moved is the side not to move.
    let mover = !p.side_to_move();
    p.is_attacked(p.king_square(mover), p.occupied(), p.side_to_move())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_play_then_unmake_restores_everything(
        start in 0..STARTS.len(),
        choices in proptest::collection::vec(any::<u16>(), 1..80),
    ) {
        let mut p = cannonade_core::engine::registry::new_game::<Chess>("chess").unwrap().with_fen(STARTS[start]).unwrap();
        let mut fens = vec![p.to_fen()];
        let mut keys = vec![p.key()];
        for c in choices {
            let mut moves = ChessMoves::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                p.make_move(m);
                prop_assert!(!mover_king_attacked(&p), "illegal move kept in {}", fens.last().unwrap());
                prop_assert_eq!(p.key(), p.compute_key());
                p.unmake_move();
            }
            let m = moves[c as usize % moves.len()];
            p.make_move(m);
            prop_assert_eq!(p.key(), p.compute_key());
            // The FEN read back gives the same position, key and legal moves.
            let fen = p.to_fen();
            let reread = p.with_fen(&fen).unwrap();
            prop_assert_eq!(reread.to_fen(), fen.clone());
            prop_assert_eq!(reread.key(), p.key());
            fens.push(fen);
            keys.push(p.key());
        }
        while fens.len() > 1 {
            p.unmake_move();
            fens.pop();
            keys.pop();
            prop_assert_eq!(&p.to_fen(), fens.last().unwrap());
            prop_assert_eq!(p.key(), *keys.last().unwrap());
        }
    }

    #[test]
    fn null_move_round_trips(choices in proptest::collection::vec(any::<u16>(), 1..30)) {
        let mut p = cannonade_core::engine::registry::new_game::<Chess>("chess").unwrap();
        for c in choices {
            let mut moves = ChessMoves::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            p.make_move(moves[c as usize % moves.len()]);
            if !p.in_check() {
                let (fen, key) = (p.to_fen(), p.key());
                p.make_null_move();
                prop_assert_eq!(p.key(), p.compute_key());
                p.unmake_null_move();
                prop_assert_eq!(p.to_fen(), fen);
                prop_assert_eq!(p.key(), key);
            }
        }
    }
}

/// The same position with the colours exchanged: ranks mirrored, piece letters and castling
/// rights swapped in case, the other side to move, the en-passant square on the mirrored rank.
fn colour_flipped(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        // Keep the usual order: white's rights first.
        let s = swap(f[2]);
        let (upper, lower): (String, String) = s.chars().partition(|c| c.is_ascii_uppercase());
        upper + &lower
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let (file, rank) = f[3].split_at(1);
        format!("{file}{}", 9 - rank.parse::<u32>().unwrap())
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        board.join("/"),
        f[4],
        f[5]
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// The evaluation is from the side to move, so exchanging the colours must give the same
    /// number. An asymmetric term (a sign or a rank counted from the wrong side) fails this.
    #[test]
    fn evaluation_is_the_same_with_colours_exchanged(
        start in 0..STARTS.len(),
        choices in proptest::collection::vec(any::<u16>(), 1..60),
    ) {
        let mut p = cannonade_core::engine::registry::new_game::<Chess>("chess").unwrap().with_fen(STARTS[start]).unwrap();
        for c in choices {
            let mut moves = ChessMoves::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            p.make_move(moves[c as usize % moves.len()]);
            let flipped = p.with_fen(&colour_flipped(&p.to_fen())).unwrap();
            prop_assert_eq!(p.evaluate(), flipped.evaluate(), "{} vs {}", p.to_fen(), flipped.to_fen());
            // The network's inputs too: each side sees the exchanged position as the other
            // side saw the original (the board is flipped for Black's perspective).
            let side = p.side_to_move();
            prop_assert_eq!(nnue_features(&p, side), nnue_features(&flipped, !side));
            prop_assert_eq!(nnue_features(&p, !side), nnue_features(&flipped, side));
        }
    }
}

fn nnue_features(p: &Chess, perspective: cannonade_core::board::Color) -> Vec<u32> {
    let mut out = Vec::new();
    p.active_features(perspective, &mut out);
    out.sort_unstable();
    out
}
