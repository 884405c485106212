//! Legal move generation for the chess family.
//!
//! By pin masks (`generate_by_pins`, the default of `ChessRules::generate_legal`): check
//! evasion by target masks, pins by rays from the king, king moves tested with the king lifted
//! off the board, and the two rare cases (en passant, castling) tested directly.
//!
//! With hoppers or nightriders on the board a pin can run through a screen or along a knight
//! line, so those variants generate pseudo-legal moves with the same shared code and keep the
//! ones after which no enemy piece attacks the king (`generate_by_testing`, with
//! `leaves_king_safe`, which needs no make).
//!
//! The variants' own pieces and moves come from their rules' hooks (`generate_pieces`,
//! `generate_more`), called at the same place by both generators.

use super::piece::{Piece, Role};
use super::position::{ChessPosition, BLACK_HIGH, BLACK_LOW, WHITE_HIGH, WHITE_LOW};
use super::rules::ChessRules;
use crate::board::{BitWord, Bitboard, Color, Square};
use crate::games::chess::ChessMoves;
use crate::games::{Move, MoveKind};

/// The most squares a pawn-like piece moves to: a step, a double step, two captures and a
/// Scorpion's two leaps.
const PAWN_TARGETS: usize = 6;

impl<W: BitWord, R: ChessRules> ChessPosition<W, R> {
    /// The most moves one piece of `role` can have on this board: the squares its lines and
    /// leaps reach from the square where they reach most, with nothing in the way (a piece
    /// moves only to such squares, to each once), and a king's two castlings. A pawn-like
    /// piece counts as the most of its own moves (each target once per promotion choice) and
    /// of the pieces it may become, so that a promotion never raises the count.
    pub(crate) fn most_moves(&self, role: Role) -> usize {
        let t = self.t;
        match role {
            Role::King => t.most_squares(|sq| t.king.get(sq)) + 2,
            Role::Queen => t.most_squares(|sq| t.rook_line(sq) | t.bishop_line(sq)),
            Role::Rook => t.most_squares(|sq| t.rook_line(sq)),
            Role::Bishop => t.most_squares(|sq| t.bishop_line(sq)),
            Role::Knight => t.most_squares(|sq| t.knight.get(sq)),
            _ if R::is_pawn_like(role) => R::PROMOTIONS
                .iter()
                .map(|&r| self.most_moves(r))
                .fold(PAWN_TARGETS * R::PROMOTIONS.len(), usize::max),
            _ => R::most_moves_own(self, role),
        }
    }

    /// The most moves side `c` can have in this position or in any position reached from
    /// it: [`Self::most_moves`] of each of its pieces (on the board or on the variant's
    /// squares beside it) and what it keeps off the board. Moves only take pieces away or
    /// turn them into what they were already counted as, so the count never grows; a FEN
    /// whose count exceeds the move list's room ([`CHESS_MOVES`](super::CHESS_MOVES)) is
    /// refused.
    pub(crate) fn most_moves_of_side(&self, c: Color) -> usize {
        let pieces = self.ours(c).into_iter().map(|sq| {
            let role = Piece::from_code(self.board[sq.index()]).role();
            self.most_moves(role)
        });
        pieces.sum::<usize>() + R::most_moves_off_board(self, c)
    }

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

    /// Appends every legal move of the side to move (by the variant's way, see
    /// `ChessRules::generate_legal`).
    #[inline]
    pub fn generate_legal(&self, out: &mut ChessMoves) {
        R::generate_legal(self, out)
    }

    /// Pieces the side to move may capture: the other side's, but for those that can never
    /// be captured.
    #[inline(always)]
    fn capturable(&self) -> Bitboard<W> {
        !self.ours(self.side) & !R::uncapturable(self)
    }

    /// Appends every legal move of the side to move, found with pin masks.
    pub(crate) fn generate_by_pins(&self, out: &mut ChessMoves) {
        self.generate_by_pins_of::<false>(out)
    }

    /// Appends the legal captures, promotions and en passant captures of the side to move,
    /// found with pin masks, in the order [`Self::generate_by_pins`] gives them (so that a
    /// search sees the same moves in the same order as when it filtered the legal moves).
    /// Only for variants whose every capture lands on the captured piece (en passant aside)
    /// and whose own pieces' generators honour the target they are given: see
    /// `ChessRules::generate_tactical`.
    pub(crate) fn generate_captures_by_pins(&self, out: &mut ChessMoves) {
        self.generate_by_pins_of::<true>(out)
    }

    /// The generator by pins; with `CAPTURES` only the moves onto enemy pieces, pawn moves
    /// onto the last rank and en passant.
    #[inline(always)]
    fn generate_by_pins_of<const CAPTURES: bool>(&self, out: &mut ChessMoves) {
        let t = self.t;
        let us = self.side;
        let occ = self.occupied();
        let ksq = self.king_square(us);
        let checkers = self.attackers_to(ksq, occ, !us);
        let capturable = self.capturable();
        let enemies = self.ours(!us);
        let king_target = if CAPTURES {
            capturable & enemies
        } else {
            capturable
        };
        // King steps, tested with the king lifted so it cannot hide behind itself.
        let occ_no_king = occ ^ Bitboard::from_square(ksq);
        for to in t.king.get(ksq) & king_target {
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
            capturable & t.geo.valid()
        };
        let pinned = self.pinned(ksq);
        let piece_target = if CAPTURES { target & enemies } else { target };
        self.generate_piece_moves(out, piece_target, pinned, ksq);
        self.generate_pawn_moves::<CAPTURES>(out, target, pinned, ksq);
        R::generate_more(self, out, piece_target, checkers.any());

        if !CAPTURES && checkers.is_empty() && self.castling != 0 {
            self.generate_castling(out, ksq);
        }
    }

    /// Legal moves by testing: pseudo-legal candidates from the shared generators, kept when
    /// the king is safe afterwards. Castling and en passant test themselves as they are made.
    pub(crate) fn generate_by_testing(&self, out: &mut ChessMoves) {
        let t = self.t;
        let us = self.side;
        let ksq = self.king_square(us);
        let mut pseudo = ChessMoves::new();
        self.generate_pseudo(&mut pseudo);
        // Out of check, only a move that changes a square on a line through the king (rook,
        // bishop or, with nightriders, knight lines on the empty board) can expose it: leaper
        // attacks do not depend on the board, and a captured piece off those lines attacked
        // nothing that matters. Every other move is legal without a test.
        let in_check = self.is_attacked(ksq, self.occupied(), !us);
        let hot = if in_check {
            t.geo.valid()
        } else {
            t.rook_line(ksq) | t.bishop_line(ksq) | R::hidden_lines(self, ksq)
        };
        for &m in &pseudo {
            // Squares the move changes besides `from` and `to`: where an entry's piece goes.
            let extra = match m.kind() {
                MoveKind::EnPassant => {
                    // Tested as it was generated.
                    out.push(m);
                    continue;
                }
                MoveKind::Entry => R::entry_makes_way(self, m.to()),
                _ => m.from(),
            };
            let quiet = m.from() != ksq
                && !hot.contains(m.from())
                && !hot.contains(m.to())
                && !hot.contains(extra);
            if quiet || self.leaves_king_safe(m, ksq) {
                out.push(m);
            }
        }
        if self.castling != 0 && !in_check {
            self.generate_castling(out, ksq);
        }
    }

    /// Appends the pseudo-legal moves of the side to move: every move its pieces' rules allow,
    /// without asking whether the own king is left attacked; castling is left out, en passant
    /// is tested as it is generated.
    #[inline(always)]
    pub(crate) fn generate_pseudo(&self, out: &mut ChessMoves) {
        let t = self.t;
        let ksq = self.king_square(self.side);
        let target = self.capturable() & t.geo.valid();
        for to in t.king.get(ksq) & target {
            out.push(Move::normal(ksq, to));
        }
        self.generate_piece_moves(out, target, Bitboard::EMPTY, ksq);
        self.generate_pawn_moves::<false>(out, target, Bitboard::EMPTY, ksq);
        R::generate_more(self, out, target, false);
    }

    /// Whether the side to move's king (on `ksq`) is not attacked after the pseudo-legal move
    /// `m` (a normal move, promotion or entry): the board after the move is described by its
    /// occupancy and the enemy pieces still on it, so nothing is made or unmade.
    pub(crate) fn leaves_king_safe(&self, m: Move, ksq: Square) -> bool {
        let us = self.side;
        let from = Bitboard::from_square(m.from());
        let to = Bitboard::from_square(m.to());
        let occ = self.occupied();
        let them = self.ours(!us);
        match m.kind() {
            MoveKind::Entry => {
                // The piece enters where another stood, which makes way to another square.
                let occ = occ | Bitboard::from_square(R::entry_makes_way(self, m.to()));
                !self.attackers_among(ksq, occ, them, !us).any()
            }
            _ => {
                let occ = (occ & !from) | to;
                let king = if m.from() == ksq { m.to() } else { ksq };
                !self.attackers_among(king, occ, them & !to, !us).any()
            }
        }
    }

    /// The squares of `to_set` that a piece on `from` may go to when the pieces in `pinned`
    /// are pinned to the king on `ksq`: a pinned piece stays on its line.
    #[inline(always)]
    pub(crate) fn pin_limited(
        &self,
        pinned: Bitboard<W>,
        ksq: Square,
        from: Square,
        to_set: Bitboard<W>,
    ) -> Bitboard<W> {
        if pinned.contains(from) {
            to_set & self.t.rays.line(ksq, from)
        } else {
            to_set
        }
    }

    /// Knight, bishop, rook and queen moves onto `target`, pinned pieces kept on their line,
    /// then the variant's pieces that pins bind the same way.
    #[inline(always)]
    fn generate_piece_moves(
        &self,
        out: &mut ChessMoves,
        target: Bitboard<W>,
        pinned: Bitboard<W>,
        ksq: Square,
    ) {
        let t = self.t;
        let occ = self.occupied();
        let own = self.ours(self.side);
        let allowed = |from, to_set| self.pin_limited(pinned, ksq, from, to_set);
        for from in self.pieces(self.side, Role::Knight) & !pinned {
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
        R::generate_pieces(self, out, target, pinned, ksq);
    }

    /// The rank on which the side to move promotes.
    #[inline(always)]
    pub(crate) fn last_rank(&self) -> usize {
        if self.side == Color::White {
            self.t.geo.ranks() - 1
        } else {
            0
        }
    }

    /// Pawn moves onto `target`; with `CAPTURES` only captures, en passant and pushes onto
    /// the last rank (promotions).
    #[inline(always)]
    fn generate_pawn_moves<const CAPTURES: bool>(
        &self,
        out: &mut ChessMoves,
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
        let pawns = self.pawn_like() & self.ours(us);
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
        let (single_target, double) = if CAPTURES {
            (target & last_rank, Bitboard::EMPTY)
        } else {
            (target, geo.shift(single & third_rank, fwd) & empty & target)
        };
        for to in single & single_target {
            let from = back(to, 1);
            if !legal_for_pin(from, to) {
                continue;
            }
            if last_rank.contains(to) {
                push_promotions::<R>(out, from, to);
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
                    push_promotions::<R>(out, from, to);
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

    fn generate_castling(&self, out: &mut ChessMoves, ksq: Square) {
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
            // The king may not pass through an attacked square (tested with the king lifted
            // and the rook at home) nor land on one (tested on the board after castling, where
            // the moved rook may open or close a line, or be a cannon's screen).
            let occ = self.occupied() ^ Bitboard::from_square(ksq);
            if t.rays
                .between(ksq, k_to)
                .into_iter()
                .any(|s| self.is_attacked(s, occ, !us))
            {
                continue;
            }
            let occ_after = (occ & !Bitboard::from_square(rook))
                | Bitboard::from_square(k_to)
                | Bitboard::from_square(r_to);
            if self.is_attacked(k_to, occ_after, !us) {
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
            MoveKind::EnPassant => {
                let back = self.t.forward(!self.side);
                self.t.geo.step(m.to(), back).and_then(|s| self.piece_at(s))
            }
            MoveKind::Castle | MoveKind::Entry => None,
            _ => self.piece_at(m.to()),
        }
    }
}

/// The promotions of a pawn-like piece from `from` to `to`, one per promotion role.
#[inline]
pub(crate) fn push_promotions<R: ChessRules>(out: &mut ChessMoves, from: Square, to: Square) {
    for &r in R::PROMOTIONS {
        out.push(Move::new(from, to, MoveKind::Promotion, r as u8));
    }
}
