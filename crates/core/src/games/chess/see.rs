//! Static exchange evaluation for the chess family.
//!
//! The exchange is played on bitboards: an occupancy that loses each piece as it captures, and
//! the family's own attack function (`attackers_among`, the one legality uses) asked again after
//! every capture. So every line piece behind a capturer joins when its line opens (x-rays of
//! rooks, bishops and queens, nightrider lines of the Cannonrider), and every hopper gains or
//! loses its screen exactly as the board changes (Swedish cannons, Cannonriders on dark
//! squares, whose powers follow the square they stand on). Nothing is made or unmade.
//!
//! Order: least valuable attacker first by [`see_value`], ties by role then lowest square. A
//! pawn (or Scorpion) that captures onto its last rank promotes to the variant's strongest
//! promotion. The king captures last, and only when the other side then has no attacker left.
//! Pins are ignored; en passant recaptures (which land beside the square) are not counted.

use super::eval::role_value;
use super::piece::{Piece, Role};
use super::position::{ChessPosition, EMPTY};
use super::rules::ChessRules;
use crate::board::{BitWord, Bitboard, Color, Square};
use crate::games::swap::SwapList;
use crate::games::{Move, MoveKind};

/// A king's place in the order of attackers: after everything else. (It is never captured.)
const KING_VALUE: i32 = 100_000;

/// The value of a role in the exchange: its material value, the king last.
#[inline(always)]
pub(crate) fn see_value(r: Role) -> i32 {
    if r == Role::King {
        KING_VALUE
    } else {
        role_value(r)
    }
}

impl<W: BitWord, R: ChessRules> ChessPosition<W, R> {
    /// The exact exchange value of the legal move `m` for the side to move (see the module
    /// comment for the rules of the exchange).
    pub fn see(&self, m: Move) -> i32 {
        match self.see_start(m) {
            SeeStart::Done(v) => v,
            SeeStart::Exchange { gain, stake, occ } => self.see_exchange(m.to(), gain, stake, occ),
        }
    }

    /// Whether the exchange started by `m` gains at least `threshold` (see `Game::see_ge`).
    #[inline]
    pub fn see_ge_impl(&self, m: Move, threshold: i32) -> bool {
        match self.see_start(m) {
            SeeStart::Done(v) => v >= threshold,
            // The other side can only take away from what the move gains.
            SeeStart::Exchange { gain, .. } if gain < threshold => false,
            // Nor more than the piece left on the square and what its taker gains by
            // promoting: the mover can always stop after the first recapture. Most quiet moves
            // at a pruning margin are settled here without looking for attackers.
            SeeStart::Exchange { gain, stake, .. }
                if gain - stake - self.recapture_promotion(m.to()) >= threshold =>
            {
                true
            }
            SeeStart::Exchange { gain, stake, occ } => {
                self.see_exchange(m.to(), gain, stake, occ) >= threshold
            }
        }
    }

    /// What the other side gains at most by promoting when it recaptures on `to`.
    #[inline(always)]
    fn recapture_promotion(&self, to: Square) -> i32 {
        let last = self.t.geo.ranks() - 1;
        if self.t.geo.relative_rank(to, self.side == Color::Black) == last {
            let best = R::PROMOTIONS.first().map_or(0, |&r| see_value(r));
            let pawn = see_value(Role::Pawn).min(see_value(Role::Scorpion));
            (best - pawn).max(0)
        } else {
            0
        }
    }

    /// What the move itself does: the mover's immediate gain, the value of what then stands
    /// on the target square, and the occupancy after the move.
    #[inline(always)]
    fn see_start(&self, m: Move) -> SeeStart<W> {
        if let Some(start) = R::see_start_own(self, m) {
            return start;
        }
        let t = self.t;
        let from = m.from();
        let to = m.to();
        let occ = self.occupied();
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        let victim = |sq: Square| {
            let c = self.board[sq.index()];
            if c == EMPTY {
                0
            } else {
                see_value(Piece::from_code(c).role())
            }
        };
        let mover = |sq: Square| see_value(Piece::from_code(self.board[sq.index()]).role());
        match m.kind() {
            // The rook and king land where the king could legally go: nothing to exchange.
            MoveKind::Castle => SeeStart::Done(0),
            // A piece enters on another's square, which makes way to another square.
            MoveKind::Entry => SeeStart::Exchange {
                gain: 0,
                stake: see_value(Role::from_index(m.piece() as usize)),
                occ: occ | Bitboard::from_square(R::entry_makes_way(self, to)),
            },
            MoveKind::EnPassant => {
                let cap = t
                    .geo
                    .step(to, t.forward(!self.side))
                    .expect("en passant captures a pawn behind the target");
                SeeStart::Exchange {
                    gain: victim(cap),
                    stake: mover(from),
                    occ: (occ & !from_bb & !Bitboard::from_square(cap)) | to_bb,
                }
            }
            MoveKind::Promotion => {
                let promoted = see_value(Role::from_index(m.piece() as usize));
                SeeStart::Exchange {
                    gain: victim(to) + promoted - mover(from),
                    stake: promoted,
                    occ: (occ & !from_bb) | to_bb,
                }
            }
            _ => SeeStart::Exchange {
                gain: victim(to),
                stake: mover(from),
                occ: (occ & !from_bb) | to_bb,
            },
        }
    }

    /// Plays out the captures on `to` after the mover's move (which gained `gain` and left a
    /// piece worth `stake` there, the board occupied as `occ`); returns the mover's result.
    fn see_exchange(&self, to: Square, gain: i32, mut stake: i32, mut occ: Bitboard<W>) -> i32 {
        let t = self.t;
        let mut swap = SwapList::new(gain);
        let mut side = !self.side;
        let best_promotion = R::PROMOTIONS.first().map_or(0, |&r| see_value(r));
        loop {
            let attackers = self.attackers_among(to, occ, self.ours(side) & occ, side);
            if attackers.is_empty() || swap.is_full() {
                break;
            }
            // The least valuable attacker; on equal values the lower role, then the lowest
            // square (the iteration order).
            let mut from = attackers.lsb();
            let mut role = Piece::from_code(self.board[from.index()]).role();
            for s in attackers {
                let r = Piece::from_code(self.board[s.index()]).role();
                if (see_value(r), r) < (see_value(role), role) {
                    from = s;
                    role = r;
                }
            }
            occ &= !Bitboard::from_square(from);
            if role == Role::King
                && self
                    .attackers_among(to, occ, self.ours(!side) & occ, !side)
                    .any()
            {
                break;
            }
            let value = see_value(role);
            let promotes = R::is_pawn_like(role)
                && t.geo.relative_rank(to, side == Color::White) == t.geo.ranks() - 1;
            let (promotion, new_stake) = if promotes {
                (best_promotion - value, best_promotion)
            } else {
                (0, value)
            };
            swap.capture(stake + promotion);
            stake = new_stake;
            side = !side;
        }
        swap.resolve()
    }
}

/// The start of an exchange (public for `ChessRules::see_start_own`).
pub enum SeeStart<W: BitWord> {
    /// Nothing to exchange: the move's value is known.
    Done(i32),
    Exchange {
        gain: i32,
        stake: i32,
        occ: Bitboard<W>,
    },
}

#[cfg(test)]
mod tests;
