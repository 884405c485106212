//! Swedish Cannon Chess (M. Winther, 2007): orthodox chess plus cannons, on the board and in a
//! reserve from which a cannon enters on a second-rank pawn's square, the pawn going two squares
//! ahead (`MoveKind::Entry`).
//!
//! The cannon's rule is written once, here, in [`ChessPosition::swedish_cannon_moves`]: it
//! jumps past one screen (to the empty squares beyond it, or onto the first piece there if that
//! is an enemy), and only a cannon with no jump at all may slide like a rook, without
//! capturing. The move generator and the evaluation both ask it.

use super::eval::{phase_weight, role_value, role_values};
use super::eval_terms::Tapered;
use super::piece::{Piece, Role};
use super::position::ChessPosition;
use super::rules::{start_count, ChessRules};
use super::tables::MAX_RESERVE;
use crate::board::{BitWord, Bitboard, Color, RayDir, Square};
use crate::games::chess::ChessMoves;
use crate::games::{FenError, Move, MoveKind};

/// Swedish Cannon Chess: orthodox chess plus cannons in reserve.
#[derive(Copy, Clone, Debug, Default)]
pub struct SwedishCannon;

/// What a cannon in reserve is worth less than one on the board: it still has to find a
/// second-rank pawn with room ahead.
const RESERVE_DISCOUNT: i32 = 20;

impl ChessRules for SwedishCannon {
    const ROLES: &'static [Role] = &[
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Cannon,
    ];
    const PROMOTIONS: &'static [Role] = &Role::PROMOTIONS;
    /// As many as a reserve can hold (the FEN reader's limit).
    const NNUE_RESERVE: usize = MAX_RESERVE;

    /// A cannon attacks what it could capture: the first piece past one screen. That is
    /// symmetric, so the cannons seen that way from `sq` are the ones attacking it.
    #[inline(always)]
    fn extra_attackers<W: BitWord>(
        pos: &ChessPosition<W, Self>,
        sq: Square,
        occ: Bitboard<W>,
        them: Bitboard<W>,
    ) -> Bitboard<W> {
        let cannons = pos.role_bb(Role::Cannon) & them;
        if cannons.any() {
            pos.t.rays.hopper_targets(&RayDir::ORTHOGONAL, sq, occ) & cannons
        } else {
            Bitboard::EMPTY
        }
    }

    /// The cannon hops only along ranks and files, so it checks from one of the king's lines.
    #[inline(always)]
    fn may_give_check<W: BitWord>(pos: &ChessPosition<W, Self>, m: Move) -> bool {
        pos.line_piece_may_check(m)
    }

    /// A pin can run through a cannon's screen: every candidate move is tested.
    #[inline(always)]
    fn generate_legal<W: BitWord>(pos: &ChessPosition<W, Self>, out: &mut ChessMoves) {
        pos.generate_by_testing(out)
    }

    #[inline(always)]
    fn generate_more<W: BitWord>(
        pos: &ChessPosition<W, Self>,
        out: &mut ChessMoves,
        _target: Bitboard<W>,
        _in_check: bool,
    ) {
        pos.generate_swedish_cannon_moves(out)
    }

    #[inline(always)]
    fn entry_makes_way<W: BitWord>(pos: &ChessPosition<W, Self>, sq: Square) -> Square {
        pos.entry_pawn_square(sq)
    }

    /// A cannon from the reserve replaces a pawn, which moves two squares ahead and can be
    /// taken en passant on the square it passed.
    #[inline(always)]
    fn make_own<W: BitWord>(pos: &mut ChessPosition<W, Self>, m: Move) -> bool {
        if m.kind() != MoveKind::Entry {
            return false;
        }
        let us = pos.side;
        let to = m.to();
        let pawn_to = pos.entry_pawn_square(to);
        let pawn = pos.remove(to);
        pos.put(pawn, pawn_to);
        pos.put(Piece::new(us, Role::from_index(m.piece() as usize)), to);
        pos.set_reserve(us, pos.reserve[us.index()] - 1);
        pos.halfmove = 0;
        pos.note_double_step(to, pawn_to);
        true
    }

    #[inline(always)]
    fn unmake_own<W: BitWord>(pos: &mut ChessPosition<W, Self>, m: Move) -> bool {
        if m.kind() != MoveKind::Entry {
            return false;
        }
        let to = m.to();
        let pawn_to = pos.entry_pawn_square(to);
        pos.remove(to);
        let pawn = pos.remove(pawn_to);
        pos.put(pawn, to);
        // The key comes back from the history with the rest of the state.
        pos.reserve[pos.side.index()] += 1;
        true
    }

    /// Reads `[CCcc]`: the reserve holds nothing but cannons.
    fn read_reserve<W: BitWord>(
        pos: &mut ChessPosition<W, Self>,
        _hand: &str,
        inner: &str,
    ) -> Result<(), FenError> {
        for c in inner.chars() {
            let color = match c {
                'C' => Color::White,
                'c' => Color::Black,
                _ => {
                    return Err(FenError::hand(format!(
                        "only cannons (C, c) can be in reserve, not '{c}'"
                    )))
                }
            };
            if pos.reserve[color.index()] as usize >= MAX_RESERVE {
                return Err(FenError::hand(format!(
                    "more than {MAX_RESERVE} cannons in reserve"
                )));
            }
            pos.reserve[color.index()] += 1;
        }
        Ok(())
    }

    fn write_reserve<W: BitWord>(pos: &ChessPosition<W, Self>, fen: &mut String) {
        fen.push('[');
        for (c, letter) in [(Color::White, "C"), (Color::Black, "c")] {
            *fen += &letter.repeat(pos.reserve[c.index()] as usize);
        }
        fen.push(']');
    }

    /// The cannon count of "Which positions are valid": board and reserve together.
    fn validate_pieces<W: BitWord>(pos: &ChessPosition<W, Self>) -> Result<(), FenError> {
        // As many as the variant's start position gives a side (board and reserve).
        let most = start_count::<Self>(pos.variant, Role::Cannon);
        for c in Color::BOTH {
            let count =
                pos.pieces(c, Role::Cannon).count() as usize + pos.reserve[c.index()] as usize;
            if count > most {
                return Err(FenError::position(format!(
                    "{} has {count} cannons (board and reserve together), {} allows at most {most}",
                    c.name(),
                    pos.variant.name
                )));
            }
        }
        Ok(())
    }

    /// The origin of a double step may hold the cannon that entered there and pushed the pawn.
    fn ep_origin_may_be_occupied<W: BitWord>(
        pos: &ChessPosition<W, Self>,
        origin: Square,
        pawn_side: Color,
    ) -> bool {
        pos.piece_at(origin) == Some(Piece::new(pawn_side, Role::Cannon))
    }

    #[inline(always)]
    fn piece_reach<W: BitWord>(
        pos: &ChessPosition<W, Self>,
        role: Role,
        sq: Square,
        occ: Bitboard<W>,
        own: Bitboard<W>,
    ) -> Bitboard<W> {
        if role == Role::Cannon {
            pos.swedish_cannon_moves(sq, occ, own)
        } else {
            Bitboard::EMPTY
        }
    }

    /// A cannon moves along its rook lines only.
    fn most_moves_own<W: BitWord>(pos: &ChessPosition<W, Self>, role: Role) -> usize {
        match role {
            Role::Cannon => pos.t.most_squares(|sq| pos.t.rook_line(sq)),
            _ => 0,
        }
    }

    /// Each cannon in reserve as a cannon on the board, and while one is left its entries: at
    /// most one per file (on the second-rank pawns).
    fn most_moves_off_board<W: BitWord>(pos: &ChessPosition<W, Self>, c: Color) -> usize {
        match pos.reserve[c.index()] as usize {
            0 => 0,
            n => n * pos.most_moves(Role::Cannon) + pos.t.geo.files(),
        }
    }

    /// Cannons in reserve count in full.
    fn material_extra<W: BitWord>(pos: &ChessPosition<W, Self>) -> i32 {
        (pos.reserve[0] as i32 - pos.reserve[1] as i32) * role_value(Role::Cannon)
    }

    fn evaluate_extra<W: BitWord>(pos: &ChessPosition<W, Self>) -> (Tapered, i32) {
        let value = role_values(Role::Cannon) - Tapered::new(RESERVE_DISCOUNT, RESERVE_DISCOUNT);
        let mut score = Tapered::default();
        let mut phase = 0;
        for (c, sign) in [(Color::White, 1), (Color::Black, -1)] {
            let n = pos.reserve[c.index()] as i32;
            score += value * (sign * n);
            phase += n * phase_weight(Role::Cannon);
        }
        (score, phase)
    }
}

impl<W: BitWord> ChessPosition<W, SwedishCannon> {
    /// The squares a Swedish cannon on `from` may move to, judged on the board (legality
    /// aside) with the board occupied as `occ` and its own side's pieces `own`: its jumps,
    /// past one screen to the empty squares beyond it or onto the first piece there unless
    /// that is its own; only with no jump at all, its rook slide onto empty squares.
    #[inline(always)]
    pub(crate) fn swedish_cannon_moves(
        &self,
        from: Square,
        occ: Bitboard<W>,
        own: Bitboard<W>,
    ) -> Bitboard<W> {
        let t = self.t;
        let mut jumps = Bitboard::EMPTY;
        for d in RayDir::ORTHOGONAL {
            jumps |= t.rays.hop_line(d, from, occ);
        }
        jumps &= !own;
        if jumps.any() {
            jumps
        } else {
            t.rays.rook_attacks(from, occ) & !occ
        }
    }

    /// Where the pawn goes when a cannon enters on its square `sq`: two squares ahead.
    #[inline]
    pub(crate) fn entry_pawn_square(&self, sq: Square) -> Square {
        let two = 2 * self.t.geo.files();
        Square::new(if self.side == Color::White {
            sq.index() + two
        } else {
            sq.index() - two
        } as u8)
    }

    /// Swedish cannons on the board, and entries from the reserve.
    fn generate_swedish_cannon_moves(&self, out: &mut ChessMoves) {
        let t = self.t;
        let geo = &t.geo;
        let us = self.side;
        let occ = self.occupied();
        let own = self.ours(us);
        let empty = !occ & geo.valid();
        for from in self.pieces(us, Role::Cannon) {
            for to in self.swedish_cannon_moves(from, occ, own) {
                out.push(Move::normal(from, to));
            }
        }
        if self.reserve[us.index()] > 0 {
            // A cannon enters on a second-rank pawn, which moves two squares ahead; both squares
            // in front of the pawn must be empty.
            let fwd = t.forward(us);
            let second = geo.rank_mask(if us == Color::White {
                1
            } else {
                geo.ranks() - 2
            });
            for sq in self.pieces(us, Role::Pawn) & second {
                let one = geo.step(sq, fwd);
                let two = one.and_then(|s| geo.step(s, fwd));
                if let (Some(one), Some(two)) = (one, two) {
                    if empty.contains(one) && empty.contains(two) {
                        out.push(Move::new(sq, sq, MoveKind::Entry, Role::Cannon as u8));
                    }
                }
            }
        }
    }
}
