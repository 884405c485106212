//! Legal move generation for the chess family: check evasion by target masks, pins by
//! rays from the king, king moves tested with the king lifted off the board, and the two rare
//! cases (en passant, castling) tested directly.

use super::piece::{Piece, Role};
use super::position::{ChessPosition, BLACK_HIGH, BLACK_LOW, WHITE_HIGH, WHITE_LOW};
use crate::board::{BitWord, Bitboard, Color, Square};
use crate::games::{Move, MoveKind, MoveList};

impl<W: BitWord> ChessPosition<W> {
    /// Our pieces pinned to our king by an enemy slider.
    #[inline]
    pub(crate) fn pinned(&self, ksq: Square) -> Bitboard<W> {
        let t = self.t;
        let us = self.side;
        let them = self.ours(!us);
        let rq = self.role_bb(Role::Rook) | self.role_bb(Role::Queen);
        let bq = self.role_bb(Role::Bishop) | self.role_bb(Role::Queen);
        let snipers = ((t.rook_line(ksq) & rq) | (t.bishop_line(ksq) & bq)) & them;
        let occ = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = t.rays.between(ksq, s) & occ;
            if b.any() && !b.more_than_one() {
                pinned |= b & self.ours(us);
            }
        }
        pinned
    }

    /// Appends every legal move of the side to move.
    pub fn generate_legal(&self, out: &mut MoveList) {
        let t = self.t;
        let us = self.side;
        let occ = self.occupied();
        let own = self.ours(us);
        let ksq = self.king_square(us);
        let checkers = self.attackers_to(ksq, occ, !us);

        // King steps, tested with the king lifted so it cannot hide behind itself.
        let occ_no_king = occ ^ Bitboard::from_square(ksq);
        for to in t.king.get(ksq) & !own {
            if !self.is_attacked(to, occ_no_king, !us) {
                out.push(Move::normal(ksq, to));
            }
        }
        if checkers.more_than_one() {
            return;
        }
        let target = if checkers.any() {
            let c = checkers.lsb();
            t.rays.between(ksq, c) | checkers
        } else {
            !own & t.geo.valid()
        };
        let pinned = self.pinned(ksq);
        let allowed = |from: Square, to_set: Bitboard<W>| -> Bitboard<W> {
            if pinned.contains(from) {
                to_set & t.rays.line(ksq, from)
            } else {
                to_set
            }
        };

        for from in self.pieces(us, Role::Knight) & !pinned {
            for to in t.knight.get(from) & target {
                out.push(Move::normal(from, to));
            }
        }
        let bq = (self.role_bb(Role::Bishop) | self.role_bb(Role::Queen)) & own;
        for from in bq {
            for to in allowed(from, t.rays.bishop_attacks(from, occ) & target) {
                out.push(Move::normal(from, to));
            }
        }
        let rq = (self.role_bb(Role::Rook) | self.role_bb(Role::Queen)) & own;
        for from in rq {
            for to in allowed(from, t.rays.rook_attacks(from, occ) & target) {
                out.push(Move::normal(from, to));
            }
        }

        self.generate_pawn_moves(out, target, pinned, ksq);

        if checkers.is_empty() && self.castling != 0 {
            self.generate_castling(out, ksq);
        }
    }

    fn generate_pawn_moves(
        &self,
        out: &mut MoveList,
        target: Bitboard<W>,
        pinned: Bitboard<W>,
        ksq: Square,
    ) {
        let t = self.t;
        let geo = &t.geo;
        let us = self.side;
        let occ = self.occupied();
        let empty = !occ & geo.valid();
        let enemies = self.ours(!us);
        let pawns = self.pieces(us, Role::Pawn);
        let fwd = t.forward(us);
        let files = geo.files();
        let last_rank = geo.rank_mask(if us == Color::White {
            geo.ranks() - 1
        } else {
            0
        });
        let third_rank = geo.rank_mask(if us == Color::White {
            2
        } else {
            geo.ranks() - 3
        });
        let back = |to: Square, ranks: usize| -> Square {
            Square::new(if us == Color::White {
                to.index() - ranks * files
            } else {
                to.index() + ranks * files
            } as u8)
        };
        let legal_for_pin = |from: Square, to: Square| -> bool {
            !pinned.contains(from) || t.rays.line(ksq, from).contains(to)
        };

        let single = geo.shift(pawns, fwd) & empty;
        let double = geo.shift(single & third_rank, fwd) & empty & target;
        for to in single & target {
            let from = back(to, 1);
            if !legal_for_pin(from, to) {
                continue;
            }
            if last_rank.contains(to) {
                push_promotions(out, from, to);
            } else {
                out.push(Move::normal(from, to));
            }
        }
        for to in double {
            let from = back(to, 2);
            if legal_for_pin(from, to) {
                out.push(Move::normal(from, to));
            }
        }
        for from in pawns {
            for to in t.pawn_attacks[us.index()].get(from) & enemies & target {
                if !legal_for_pin(from, to) {
                    continue;
                }
                if last_rank.contains(to) {
                    push_promotions(out, from, to);
                } else {
                    out.push(Move::normal(from, to));
                }
            }
        }
        if let Some(ep) = self.ep {
            let ksq = self.king_square(us);
            let cap = back(ep, 1);
            for from in t.pawn_attacks[(!us).index()].get(ep) & pawns {
                // Rare enough to test directly: lift both pawns, put ours on ep, and ask
                // whether anything (other than the captured pawn) attacks the king.
                let occ2 = (occ ^ Bitboard::from_square(from) ^ Bitboard::from_square(cap))
                    | Bitboard::from_square(ep);
                let attackers = self.attackers_to(ksq, occ2, !us) & !Bitboard::from_square(cap);
                if attackers.is_empty() {
                    out.push(Move::new(from, ep, MoveKind::EnPassant, 0));
                }
            }
        }
    }

    fn generate_castling(&self, out: &mut MoveList, ksq: Square) {
        let t = self.t;
        let us = self.side;
        let (high, low) = match us {
            Color::White => (WHITE_HIGH, WHITE_LOW),
            Color::Black => (BLACK_HIGH, BLACK_LOW),
        };
        for (bit, step) in [(high, 1i32), (low, -1i32)] {
            if self.castling & bit == 0 {
                continue;
            }
            let rook = self.castle_rooks[bit.trailing_zeros() as usize];
            let Some(k_to) = t.geo.square(
                t.geo.file_of(ksq) as i32 + 2 * step,
                t.geo.rank_of(ksq) as i32,
            ) else {
                continue;
            };
            let r_to = Square::new((ksq.index() as i32 + step) as usize as u8);
            // Everything the king and rook cross or land on must be empty, but for themselves.
            let movers = Bitboard::from_square(ksq) | Bitboard::from_square(rook);
            let span = t.rays.between(ksq, rook)
                | t.rays.between(ksq, k_to)
                | Bitboard::from_square(k_to)
                | Bitboard::from_square(r_to);
            if (span & self.occupied() & !movers).any() {
                continue;
            }
            // The king may not pass through or land on an attacked square.
            let path = t.rays.between(ksq, k_to) | Bitboard::from_square(k_to);
            let occ = self.occupied() ^ Bitboard::from_square(ksq);
            if path.into_iter().any(|s| self.is_attacked(s, occ, !us)) {
                continue;
            }
            out.push(Move::new(ksq, k_to, MoveKind::Castle, 0));
        }
    }

    /// True for captures and promotions.
    #[inline]
    pub fn is_capture_or_promotion(&self, m: Move) -> bool {
        matches!(m.kind(), MoveKind::Promotion | MoveKind::EnPassant)
            || (m.kind() == MoveKind::Normal
                && self.board[m.to().index()] != super::position::EMPTY)
    }

    /// The piece a move captures, if any.
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        match m.kind() {
            MoveKind::EnPassant => Some(Piece::new(!self.side, Role::Pawn)),
            MoveKind::Castle => None,
            _ => self.piece_at(m.to()),
        }
    }
}

#[inline]
fn push_promotions(out: &mut MoveList, from: Square, to: Square) {
    for r in Role::PROMOTIONS {
        out.push(Move::new(from, to, MoveKind::Promotion, r as u8));
    }
}
