//! Helpers shared by the chess-variant tests: move lists as strings, and an attack test written
//! the slow, obvious way (walking squares one step at a time with `Geometry::step`) so that the
//! engine's ray-based attacks and its legality filter can be checked against something that
//! shares none of their code.
#![allow(dead_code)]

use cannonade_core::board::{BitWord, Color, Square};
use cannonade_core::games::chess::{ChessPosition, ChessRules};
use cannonade_core::games::{Game, Move, Notation};

/// Every legal move as a UCI string, sorted.
pub fn all_moves<G: Game>(pos: &G) -> Vec<String> {
    let mut list = G::Moves::default();
    pos.legal_moves(&mut list);
    let mut v: Vec<String> = list
        .iter()
        .map(|&m| pos.move_to_string(m, Notation::Uci))
        .collect();
    v.sort();
    v
}

/// The legal moves starting with `prefix` (a square name, or `C@`), sorted.
pub fn moves_from<G: Game>(pos: &G, prefix: &str) -> Vec<String> {
    all_moves(pos)
        .into_iter()
        .filter(|m| {
            m.starts_with(prefix)
                && !m[prefix.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
        })
        .collect()
}

/// Plays UCI move strings, panicking on an illegal one.
pub fn play<G: Game>(pos: &mut G, moves: &str) {
    for s in moves.split_whitespace() {
        let m = pos
            .parse_move(s, Notation::Uci)
            .unwrap_or_else(|| panic!("{s} is not legal in {}", pos.to_fen()));
        pos.make_move(m);
    }
}

pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    cannonade_core::games::perft::perft(pos, depth)
}

pub mod naive;

/// Does any piece of `by` attack `target`? Each piece is walked square by square.
pub fn naive_attacked<W: BitWord, R: ChessRules>(
    pos: &ChessPosition<W, R>,
    target: Square,
    by: Color,
) -> bool {
    naive::Board::from_position(pos).attacked(target.index(), by)
}

/// A small deterministic generator for random playouts.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Plays random games from `start` and checks at every node: the incremental key, FEN round
/// trip, `in_check` against the naive attack test, the legal moves against the naive move
/// generator, that no legal move leaves the mover's king attacked, and that unmake restores the
/// position.
pub fn random_playouts<W, R>(start: &ChessPosition<W, R>, games: u64, plies: usize)
where
    W: BitWord,
    R: ChessRules,
    ChessPosition<W, R>: Game,
{
    for seed in 0..games {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) + 1);
        let mut pos = start.clone();
        for _ in 0..plies {
            let fen = pos.to_fen();
            assert_eq!(pos.key(), pos.compute_key(), "key of {fen}");
            let again = pos.with_fen(&fen).expect("own FEN must read back");
            assert_eq!(again.to_fen(), fen);
            assert_eq!(again.key(), pos.key(), "key after FEN round trip of {fen}");
            let us = pos.side_to_move();
            assert_eq!(
                pos.in_check(),
                naive_attacked(&pos, pos.king_square(us), !us),
                "in_check of {fen}"
            );
            let mut list = <ChessPosition<W, R> as Game>::Moves::default();
            pos.legal_moves(&mut list);
            let moves: Vec<Move> = list.to_vec();
            assert_eq!(
                all_moves(&pos),
                naive::Board::from_position(&pos).legal_moves(),
                "legal moves of {fen}"
            );
            for &m in &moves {
                let s = pos.move_to_string(m, Notation::Uci);
                pos.make_move(m);
                assert!(
                    !naive_attacked(&pos, pos.king_square(us), !us),
                    "{s} leaves the king attacked in {fen}"
                );
                pos.unmake_move();
                assert_eq!(pos.to_fen(), fen, "unmake of {s}");
            }
            if moves.is_empty() || pos.rule_outcome().is_some() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len())]);
        }
    }
}

/// Walks the legal-move tree `depth` plies deep and compares the engine's move list with the
/// naive generator's at every node; returns the leaf count one ply further (perft(depth + 1)),
/// which is then backed by the naive generator at every counted node.
pub fn perft_checked_by_naive<W, R>(pos: &mut ChessPosition<W, R>, depth: u32) -> u64
where
    W: BitWord,
    R: ChessRules,
    ChessPosition<W, R>: Game,
{
    let moves = all_moves(pos);
    assert_eq!(
        moves,
        naive::Board::from_position(pos).legal_moves(),
        "legal moves of {}",
        pos.to_fen()
    );
    if depth == 0 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for s in moves {
        let m = pos.parse_move(&s, Notation::Uci).unwrap();
        pos.make_move(m);
        nodes += perft_checked_by_naive(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}
