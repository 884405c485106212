//! What the board says about quiet moves beyond their history, for move ordering: a piece that
//! a lesser enemy piece attacks should move away, and should not move to a square a lesser
//! enemy piece attacks (Stockfish's threat terms in its move picker). Values are in the units
//! of the search's history scores (at most ±16384 each).

use super::eval::role_value;
use super::piece::Role;
use super::position::ChessPosition;
use super::rules::ChessRules;
use crate::board::{BitWord, Bitboard};
use crate::games::{Move, MoveKind};

/// Below this value a piece counts as minor (knight, bishop, Swedish cannon, the projectiles).
const MINOR_BELOW: i32 = 400;
/// Below this value a piece counts as a rook (rook, Cannonrider); the queen is above.
const ROOK_BELOW: i32 = 700;
/// Pieces worth less than this (pawns, Scorpions, the projectiles) are not ordered by threats:
/// they are cheap to lose and, Stockfish finds, not worth the look.
const THREATENED_FROM: i32 = 300;
/// The bonus (leaving) or penalty (entering) is the moved piece's value times this.
const PER_VALUE: i32 = 16;

/// The squares the enemy attacks with pieces of each class: pawns, pawns and minor pieces,
/// everything below a queen.
struct Threats<W: BitWord> {
    by_pawn: Bitboard<W>,
    by_minor: Bitboard<W>,
    by_rook: Bitboard<W>,
}

impl<W: BitWord, R: ChessRules> ChessPosition<W, R> {
    fn threats_against_side_to_move(&self) -> Threats<W> {
        let us = self.side;
        let them = !us;
        let geo = &self.t.geo;
        let occ = self.occupied();
        let own = self.ours(them);
        let by_pawn = self.pawn_attacks(them);
        let mut by_minor = by_pawn;
        let mut by_rook = Bitboard::EMPTY;
        let skip = self.pawn_like() | self.role_bb(Role::King);
        for sq in own & geo.valid() & !skip {
            let role = self.piece_at(sq).map_or(Role::Pawn, |p| p.role());
            let v = role_value(role);
            if v >= ROOK_BELOW || v == 0 {
                continue;
            }
            let reach = self.reach(role, sq, occ, own);
            if v < MINOR_BELOW {
                by_minor |= reach;
            } else {
                by_rook |= reach;
            }
        }
        Threats {
            by_pawn,
            by_minor,
            by_rook: by_rook | by_minor,
        }
    }

    /// Adds the threat terms to the ordering scores of the quiet moves `moves`.
    pub(super) fn add_threat_order(&self, moves: &[Move], scores: &mut [i32]) {
        let mut threats = None;
        for (m, s) in moves.iter().zip(scores.iter_mut()) {
            if m.kind() != MoveKind::Normal {
                continue;
            }
            let Some(p) = self.piece_at(m.from()) else {
                continue;
            };
            let v = role_value(p.role());
            if v < THREATENED_FROM || p.role() == Role::King {
                continue;
            }
            let t = threats.get_or_insert_with(|| self.threats_against_side_to_move());
            let danger = if v < MINOR_BELOW {
                t.by_pawn
            } else if v < ROOK_BELOW {
                t.by_minor
            } else {
                t.by_rook
            };
            if danger.contains(m.to()) {
                *s -= v * PER_VALUE;
            } else if danger.contains(m.from()) {
                *s += v * PER_VALUE;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PER_VALUE;
    use crate::games::chess::{role_value, Chess, Role};
    use crate::games::{Game, Notation};

    /// The ordering terms of the named moves, from zero scores.
    fn terms(fen: &str, moves: &[&str]) -> Vec<i32> {
        let p = crate::engine::registry::new_game::<Chess>("chess")
            .unwrap()
            .with_fen(fen)
            .unwrap();
        let ms: Vec<_> = moves
            .iter()
            .map(|s| p.parse_move(s, Notation::Uci).unwrap())
            .collect();
        let mut scores = vec![0; ms.len()];
        p.add_threat_order(&ms, &mut scores);
        scores
    }

    #[test]
    fn a_piece_a_pawn_attacks_is_moved_away_but_not_onto_another_pawn_attack() {
        // The knight on e4 is attacked by the pawn on d5; g5 is attacked by the pawn on h6.
        // Nothing attacks the rook, and a king move is never ordered by threats.
        let fen = "4k3/8/7p/3p4/4N3/8/8/R3K3 w - - 0 1";
        let knight = role_value(Role::Knight) * PER_VALUE;
        assert_eq!(
            terms(fen, &["e4c3", "e4g5", "a1a2", "e1d1"]),
            [knight, -knight, 0, 0]
        );
    }

    #[test]
    fn a_rook_attacked_by_a_minor_piece_leaves_for_a_square_no_minor_attacks() {
        // The bishop on h8 attacks the rook on a1; a2 is safe, b2 is on the bishop's diagonal.
        let fen = "4k2b/8/8/8/8/8/8/R3K3 w - - 0 1";
        let rook = role_value(Role::Rook) * PER_VALUE;
        assert_eq!(terms(fen, &["a1a2", "a1b1", "e1f1"]), [rook, rook, 0]);
        let fen = "4k3/8/8/8/8/8/6b1/R3K3 w - - 0 1";
        assert_eq!(terms(fen, &["a1a2", "a1b1"]), [0, 0]);
        let fen = "4k2b/8/8/8/8/8/8/1R2K3 w - - 0 1";
        assert_eq!(terms(fen, &["b1b2", "b1c1"]), [-rook, 0]);
    }
}
