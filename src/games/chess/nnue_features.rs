//! Orthodox chess's NNUE input features, the reference implementation of
//! [`NnueFeatures`]: 768 features, one per (colour relative to the perspective, piece kind,
//! square), with the board flipped vertically (rank 1 <-> rank 8) for Black's perspective, so
//! that each side sees its own pieces as "mine" moving up the board.
//!
//! Index = `relative_colour * 384 + role * 64 + square`, where `relative_colour` is 0 for the
//! perspective's own pieces and 1 for the opponent's, `role` counts pawn, knight, bishop, rook,
//! queen, king from 0, and `square` is `rank * 8 + file` seen from the perspective.

use super::{Chess, Role};
use crate::board::{Color, Square};
use crate::nnue::NnueFeatures;

/// How many features orthodox chess has: 2 colours x 6 kinds x 64 squares.
pub const CHESS_FEATURES: usize = 2 * 6 * 64;

/// The feature of a `color` `role` on `sq`, seen from `perspective`. The incremental update
/// asks this for the pieces a move lifts and puts down.
#[inline(always)]
pub fn chess_feature(perspective: Color, color: Color, role: Role, sq: Square) -> u32 {
    let relative = usize::from(color != perspective);
    let square = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    (relative * 384 + role.index() * 64 + square) as u32
}

impl NnueFeatures for Chess {
    fn feature_count(&self) -> usize {
        CHESS_FEATURES
    }

    fn active_features(&self, perspective: Color, out: &mut Vec<u32>) {
        for color in Color::BOTH {
            for role in Role::ORTHODOX {
                for sq in self.pieces(color, role) {
                    out.push(chess_feature(perspective, color, role, sq));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry::new_game;
    use crate::games::Game;

    fn features(fen: &str, perspective: Color) -> Vec<u32> {
        let pos = new_game::<Chess>("chess").unwrap().with_fen(fen).unwrap();
        let mut out = Vec::new();
        pos.active_features(perspective, &mut out);
        out.sort_unstable();
        out
    }

    #[test]
    fn the_start_position_has_32_features_the_same_for_both_sides() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let white = features(start, Color::White);
        assert_eq!(white.len(), 32);
        assert_eq!(white, features(start, Color::Black));
        // White's e1 king is "my king on e1": 0 * 384 + 5 * 64 + 4.
        assert!(white.contains(&(5 * 64 + 4)));
        // Black's e8 king is "their king on e8" for White: 384 + 5 * 64 + 60.
        assert!(white.contains(&(384 + 5 * 64 + 60)));
    }

    #[test]
    fn the_two_perspectives_differ_in_a_lopsided_position() {
        // The colour-exchange property over random games is in tests/chess_properties.rs.
        let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1";
        assert_ne!(features(fen, Color::White), features(fen, Color::Black));
    }

    #[test]
    fn every_feature_is_in_range_and_distinct() {
        let fen = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
        for side in Color::BOTH {
            let f = features(fen, side);
            assert!(f.iter().all(|&x| (x as usize) < CHESS_FEATURES));
            let mut d = f.clone();
            d.dedup();
            assert_eq!(d.len(), f.len());
        }
    }
}
