//! Orthodox chess rules that perft does not see: FEN reading and writing, game ends,
//! move strings.

use cannonade_core::games::chess::{Chess, ChessMoves};
use cannonade_core::games::{EndReason, FenField, Game, Notation, Outcome};

fn pos(fen: &str) -> Chess {
    cannonade_core::engine::registry::new_game::<Chess>("chess")
        .unwrap()
        .with_fen(fen)
        .unwrap()
}

fn play(p: &mut Chess, moves: &str) {
    for s in moves.split_whitespace() {
        let m = p
            .parse_move(s, Notation::Uci)
            .unwrap_or_else(|| panic!("{s} not legal in {}", p.to_fen()));
        p.make_move(m);
    }
}

#[test]
fn fen_round_trips() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 17 42",
        "8/8/8/3pP3/8/8/8/k6K w - d6 0 2",
        // X-FEN: an inner rook (b8, with a8 outside it) is named by its file.
        "rr2k3/8/8/8/8/8/8/1R2K2R w KQb - 0 1",
    ] {
        assert_eq!(pos(fen).to_fen(), fen);
    }
}

#[test]
fn x_fen_file_letters_name_the_same_rights_as_kq() {
    let by_file = pos("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    assert_eq!(by_file.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(
        by_file.key(),
        pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").key()
    );
}

#[test]
fn useless_en_passant_square_is_dropped() {
    // No black pawn can take on e3, so the position is the same as without the square.
    let p = pos("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    assert_eq!(p.to_fen(), "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    assert_eq!(p.key(), pos("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1").key());
}

#[test]
fn bad_fens_are_refused_with_a_reason() {
    let base = cannonade_core::engine::registry::new_game::<Chess>("chess").unwrap();
    for (bad, field) in [
        ("", FenField::Empty),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            FenField::Board,
        ), // 7 ranks
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenField::Board,
        ), // 9 squares
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            FenField::Board,
        ), // bad letter
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            FenField::Position,
        ), // no black king
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            FenField::SideToMove,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            FenField::Castling,
        ), // K right, no rook
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkZ - 0 1",
            FenField::Castling,
        ), // bad letter
        ("4k3/8/8/8/8/8/8/4K2R w - e3 0 1", FenField::EnPassant), // ep without a pawn
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", FenField::Position),   // pawn on rank 1
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", FenField::Position),   // side not to move in check
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", FenField::HalfmoveClock),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 y", FenField::FullmoveNumber),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 z", FenField::Trailing),
        ("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", FenField::Hand), // a hand
    ] {
        let e = base.with_fen(bad);
        assert!(e.is_err(), "accepted: {bad}");
        let e = e.unwrap_err();
        assert!(!e.reason.is_empty());
        assert_eq!(e.field, field, "{bad}: {e}");
    }
}

#[test]
fn checkmate_and_stalemate() {
    let mut p = cannonade_core::engine::registry::new_game::<Chess>("chess").unwrap();
    play(&mut p, "f2f3 e7e5 g2g4 d8h4");
    assert!(p.in_check());
    assert_eq!(p.outcome(), Some(Outcome::Loss(EndReason::Checkmate)));
    let stale = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!stale.in_check());
    assert!(matches!(stale.outcome(), Some(Outcome::Draw(_))));
}

#[test]
fn threefold_repetition_is_a_draw_twofold_is_not() {
    let mut p = cannonade_core::engine::registry::new_game::<Chess>("chess").unwrap();
    play(&mut p, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(p.outcome(), None, "second occurrence is not yet a draw");
    assert!(p.is_repetition_within(100));
    play(&mut p, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(p.outcome(), Some(Outcome::Draw(EndReason::Repetition)));
}

#[test]
fn fifty_move_rule() {
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_eq!(p.outcome(), None);
    let mut p2 = p.clone();
    play(&mut p2, "a1a2");
    assert_eq!(p2.outcome(), Some(Outcome::Draw(EndReason::FiftyMoveRule)));
    // A capture or pawn move resets the clock.
    let mut p3 = pos("4k3/8/8/8/8/8/p7/R3K3 w - - 99 80");
    play(&mut p3, "a1a2");
    assert_eq!(p3.outcome(), None);
}

#[test]
fn mate_on_the_hundredth_ply_is_mate() {
    let mut p = pos("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    play(&mut p, "a1a8");
    assert_eq!(p.outcome(), Some(Outcome::Loss(EndReason::Checkmate)));
}

#[test]
fn insufficient_material() {
    assert!(matches!(
        pos("4k3/8/8/8/8/8/8/4KN2 w - - 0 1").outcome(),
        Some(Outcome::Draw(_))
    ));
    assert_eq!(pos("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1").outcome(), None);
    assert_eq!(pos("4k3/8/8/8/8/8/7P/4K3 w - - 0 1").outcome(), None);
}

#[test]
fn move_strings() {
    let p = pos("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let mut moves = ChessMoves::new();
    p.legal_moves(&mut moves);
    let strings: Vec<String> = moves
        .iter()
        .map(|&m| p.move_to_string(m, Notation::Uci))
        .collect();
    for s in ["e1g1", "e1c1", "b7b8q", "b7b8n", "b7a8r", "b7a8b"] {
        assert!(strings.contains(&s.to_string()), "{s} missing");
    }
    assert!(
        p.parse_move("b7b8", Notation::Uci).is_none(),
        "promotion needs its piece"
    );
    assert!(p.parse_move("e1h1", Notation::Uci).is_none());
}

#[test]
fn castling_conditions() {
    // Through an attacked square (f1 by the rook on f8): no short castling; long is fine.
    let p = pos("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(p.parse_move("e1g1", Notation::Uci).is_none());
    assert!(p.parse_move("e1c1", Notation::Uci).is_some());
    // b1 attacked does not matter for long castling (the king does not cross it).
    let p = pos("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(p.parse_move("e1c1", Notation::Uci).is_some());
    // In check: no castling.
    let p = pos("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(p.parse_move("e1g1", Notation::Uci).is_none());
    // Moving the rook loses that right only.
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut p, "h1h2 a8a7");
    assert_eq!(p.to_fen(), "4k2r/r7/8/8/8/8/7R/R3K3 w Qk - 2 2");
}
