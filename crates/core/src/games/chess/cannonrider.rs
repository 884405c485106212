//! Gustavian Cannonrider Chess (M. Winther, 2006) and its Scorpion version, on Gustav III's
//! 10x8 board.
//!
//! The Cannonrider's colour rule is written once, here ([`ChessPosition::as_cannons`]): on a
//! dark square it is a Xiangqi cannon, on a light square a nightrider. Its moves
//! ([`ChessPosition::cannonrider_reach`]), its attacks (`extra_attackers`) and the evaluation
//! all go through it. Scorpions are pawns with two extra sideways leaps.

use super::movegen::push_promotions;
use super::piece::Role;
use super::position::ChessPosition;
use super::rules::{start_count, ChessRules};
use crate::board::{BitWord, Bitboard, Offset, RayDir, Square};
use crate::games::chess::ChessMoves;
use crate::games::{FenError, Move};

/// Gustavian Cannonrider Chess, with pawns or with Scorpions.
#[derive(Copy, Clone, Debug, Default)]
pub struct Cannonrider;

impl ChessRules for Cannonrider {
    const ROLES: &'static [Role] = &[
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Cannonrider,
        Role::Scorpion,
    ];
    const PROMOTIONS: &'static [Role] = &[
        Role::Queen,
        Role::Cannonrider,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
    ];
    /// The Cannonrider moves by the colour of its square, which the flip of a 10-file board
    /// changes and the half turn keeps.
    const NNUE_ROTATE: bool = true;

    #[inline(always)]
    fn is_pawn_like(role: Role) -> bool {
        matches!(role, Role::Pawn | Role::Scorpion)
    }

    #[inline(always)]
    fn pawn_like<W: BitWord>(pos: &ChessPosition<W, Self>) -> Bitboard<W> {
        pos.role_bb(Role::Pawn) | pos.role_bb(Role::Scorpion)
    }

    /// Cannons and nightriders attack symmetrically: the screen seen from `sq` is the screen
    /// seen from the cannon, and a nightrider line read backwards is a nightrider line. So the
    /// riders seen from `sq` with each power are those attacking it, if they have that power
    /// where they stand.
    #[inline(always)]
    fn extra_attackers<W: BitWord>(
        pos: &ChessPosition<W, Self>,
        sq: Square,
        occ: Bitboard<W>,
        them: Bitboard<W>,
    ) -> Bitboard<W> {
        let riders = pos.role_bb(Role::Cannonrider) & them;
        if riders.any() {
            let rays = &pos.t.rays;
            let cannons = pos.as_cannons(riders);
            (rays.hopper_targets(&RayDir::ORTHOGONAL, sq, occ) & cannons)
                | (rays.nightrider_attacks(sq, occ) & riders & !cannons)
        } else {
            Bitboard::EMPTY
        }
    }

    /// A Cannonrider checks as a cannon along the king's ranks and files, through a screen
    /// that a move onto one of them may put there, or as a nightrider along the king's knight
    /// lines, which a move from one of them may open. So a move from or to one of the king's
    /// lines, or from one of its knight lines, counts; off them only the piece landing can
    /// check: a pawn or Scorpion (whose sideways leaps do not capture) or a knight next to the
    /// king, tested exactly, or a Cannonrider landing on a knight line (its colour not asked).
    /// Lets `make` skip the checkers of most moves.
    #[inline(always)]
    fn may_give_check<W: BitWord>(pos: &ChessPosition<W, Self>, m: Move) -> bool {
        let Some((role, ksq)) = pos.lands_off_discovery(m) else {
            return true;
        };
        let t = pos.t;
        let to = m.to();
        let knight_lines = t.rays.nightrider_attacks(ksq, Bitboard::EMPTY);
        if knight_lines.contains(m.from()) || t.rays.line(ksq, to).any() {
            return true;
        }
        match role {
            Role::Pawn | Role::Scorpion => t.pawn_attacks[pos.side.index()].get(to).contains(ksq),
            Role::Knight => t.knight.get(to).contains(ksq),
            Role::Cannonrider => knight_lines.contains(to),
            // Off every line of the king: no slide reaches it from `to`.
            Role::Bishop | Role::Rook | Role::Queen | Role::King => false,
            _ => true,
        }
    }

    /// A pin can run through a cannon's screen or along a knight line: every candidate move is
    /// tested.
    #[inline(always)]
    fn generate_legal<W: BitWord>(pos: &ChessPosition<W, Self>, out: &mut ChessMoves) {
        pos.generate_by_testing(out)
    }

    /// Knight lines through the king, which a nightrider can pin along.
    #[inline(always)]
    fn hidden_lines<W: BitWord>(pos: &ChessPosition<W, Self>, ksq: Square) -> Bitboard<W> {
        pos.t.rays.nightrider_attacks(ksq, Bitboard::EMPTY)
    }

    #[inline(always)]
    fn generate_more<W: BitWord>(
        pos: &ChessPosition<W, Self>,
        out: &mut ChessMoves,
        _target: Bitboard<W>,
        _in_check: bool,
    ) {
        let own = pos.ours(pos.side);
        let occ = pos.occupied();
        for from in pos.pieces(pos.side, Role::Cannonrider) {
            for to in pos.cannonrider_reach(from, occ) & !own {
                out.push(Move::normal(from, to));
            }
        }
        pos.generate_scorpion_leaps(out);
    }

    /// One kind of pawn in each game: pawns in Cannonrider Chess, Scorpions in its Scorpion
    /// version.
    fn validate_pieces<W: BitWord>(pos: &ChessPosition<W, Self>) -> Result<(), FenError> {
        // One kind of pawn per game: the kind of the variant's start position.
        let (wanted, other) = if start_count::<Self>(pos.variant, Role::Scorpion) > 0 {
            (Role::Scorpion, Role::Pawn)
        } else {
            (Role::Pawn, Role::Scorpion)
        };
        if pos.role_bb(other).any() {
            return Err(FenError::position(format!(
                "{} has no {}s, only {}s",
                pos.variant.name,
                role_name(other),
                role_name(wanted)
            )));
        }
        Ok(())
    }

    /// A Cannonrider moves along its rook lines where it is a cannon, along its knight lines
    /// where it is a nightrider.
    fn most_moves_own<W: BitWord>(pos: &ChessPosition<W, Self>, role: Role) -> usize {
        let t = pos.t;
        match role {
            Role::Cannonrider => t.most_squares(|sq| {
                if pos.as_cannons(Bitboard::from_square(sq)).any() {
                    t.rook_line(sq)
                } else {
                    t.rays.nightrider_attacks(sq, Bitboard::EMPTY)
                }
            }),
            _ => 0,
        }
    }

    #[inline(always)]
    fn piece_reach<W: BitWord>(
        pos: &ChessPosition<W, Self>,
        role: Role,
        sq: Square,
        occ: Bitboard<W>,
        _own: Bitboard<W>,
    ) -> Bitboard<W> {
        if role == Role::Cannonrider {
            pos.cannonrider_reach(sq, occ)
        } else {
            Bitboard::EMPTY
        }
    }
}

impl<W: BitWord> ChessPosition<W, Cannonrider> {
    /// The colour rule: the Cannonriders among `riders` that stand on dark squares, where
    /// they are cannons; the others stand on light squares, where they are nightriders.
    #[inline(always)]
    fn as_cannons(&self, riders: Bitboard<W>) -> Bitboard<W> {
        riders & self.t.dark
    }

    /// The squares a Cannonrider on `from` moves to or captures on, with the board occupied as
    /// `occ` and whoever stands on them: as a cannon, a rook's moves onto empty squares and the
    /// first piece past one screen; as a nightrider, its lines up to and with the first piece.
    #[inline(always)]
    pub(crate) fn cannonrider_reach(&self, from: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let rays = &self.t.rays;
        if self.as_cannons(Bitboard::from_square(from)).any() {
            (rays.rook_attacks(from, occ) & !occ)
                | rays.hopper_targets(&RayDir::ORTHOGONAL, from, occ)
        } else {
            rays.nightrider_attacks(from, occ)
        }
    }

    /// A Scorpion's own leaps, (+-2, +1) onto empty squares, promoting on the last rank (its
    /// pawn moves are generated with the pawns').
    fn generate_scorpion_leaps(&self, out: &mut ChessMoves) {
        let geo = &self.t.geo;
        let us = self.side;
        let empty = !self.occupied() & geo.valid();
        let scorpions = self.pieces(us, Role::Scorpion);
        let dr = us.sign() as i8;
        for df in [2i8, -2] {
            for to in geo.shift(scorpions, Offset::new(df, dr)) & empty {
                let from = geo.step(to, Offset::new(-df, -dr)).unwrap();
                if geo.rank_of(to) == self.last_rank() {
                    push_promotions::<Cannonrider>(out, from, to);
                } else {
                    out.push(Move::normal(from, to));
                }
            }
        }
    }
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Scorpion => "Scorpion",
        Role::Pawn => "pawn",
        _ => "piece",
    }
}
