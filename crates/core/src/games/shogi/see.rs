//! Static exchange evaluation for Cannon Shogi.
//!
//! As in the chess family, the exchange runs on an occupancy bitboard that loses each capturer
//! as it moves, and the attackers of the square are asked again after every capture from the
//! same attack function that check detection uses (`attackers`). Rooks, bishops, dragons,
//! horses and lances behind a capturer join when their line opens; the four cannons and their
//! flying promotions hop over whatever screens the board has at that moment, so a screen that
//! leaves takes the hop with it and a capturer that leaves a line can open one.
//!
//! Values are those of `capture_value`: taking a piece gains its board value plus the value in
//! hand of what it turns into; promoting gains the promoted value less the unpromoted one. A
//! drop gains nothing and puts the dropped piece at stake. Order: least valuable attacker first
//! (by board value), ties by role then lowest square; the king last, and only onto a square the
//! other side no longer attacks. A recapturing piece promotes whenever it may (moving into,
//! within or out of its zone): that is never worse, because the taker of a promoted piece gains
//! exactly the promotion more. Pins are ignored.

use super::eval::{hand_value, role_value};
use super::piece::{Piece, Role};
use super::position::ShogiPosition;
use super::tables::BB;
use crate::board::{Bitboard, Square};
use crate::games::swap::SwapList;
use crate::games::{Game, Move, MoveKind};
use std::sync::LazyLock;

/// A king's place in the order of attackers: after everything else.
const KING_VALUE: i32 = 100_000;

/// The order of attackers: board value, the king last.
#[inline(always)]
pub(crate) fn see_order(r: Role) -> i32 {
    if r == Role::King {
        KING_VALUE
    } else {
        role_value(r)
    }
}

/// The most a capture can gain by promoting the capturer.
static MAX_PROMOTION_GAIN: LazyLock<i32> = LazyLock::new(|| {
    Role::ALL
        .iter()
        .filter(|r| r.can_promote())
        .map(|&r| role_value(r.promoted()) - role_value(r))
        .fold(0, i32::max)
});

/// What the taker of a piece of role `r` gains: its board value and its value in hand.
#[inline(always)]
fn taken(r: Role) -> i32 {
    role_value(r) + hand_value(r.unpromoted())
}

impl ShogiPosition {
    /// The exact exchange value of the legal move `m` for the side to move.
    pub fn see(&self, m: Move) -> i32 {
        let (gain, stake, occ) = self.see_start(m);
        self.see_exchange(m.to(), gain, stake, occ)
    }

    /// Whether the exchange started by `m` gains at least `threshold` (see `Game::see_ge`).
    #[inline]
    pub(crate) fn see_ge_impl(&self, m: Move, threshold: i32) -> bool {
        let (gain, stake, occ) = self.see_start(m);
        // The other side can only take away from what the move gains.
        if gain < threshold {
            return false;
        }
        // Nor more than the piece left on the square and what its taker gains by promoting:
        // the mover can always stop the exchange after the first recapture. Most quiet moves
        // at a pruning margin are settled here without looking for attackers.
        if gain - stake - *MAX_PROMOTION_GAIN >= threshold {
            return true;
        }
        self.see_exchange(m.to(), gain, stake, occ) >= threshold
    }

    /// The mover's immediate gain, what the piece left on the target is worth to its taker,
    /// and the occupancy after the move.
    #[inline(always)]
    fn see_start(&self, m: Move) -> (i32, i32, BB) {
        let to_bb = Bitboard::from_square(m.to());
        let occ = self.occupied();
        match m.kind() {
            MoveKind::Drop => (0, taken(Role::from_index(m.piece() as usize)), occ | to_bb),
            kind => {
                let role = Piece::from_code(self.board[m.from().index()]).role();
                let lands = if kind == MoveKind::Promotion {
                    role.promoted()
                } else {
                    role
                };
                (
                    self.capture_value(m),
                    taken(lands),
                    (occ & !Bitboard::from_square(m.from())) | to_bb,
                )
            }
        }
    }

    /// Plays out the captures on `to`; returns the mover's result.
    fn see_exchange(&self, to: Square, gain: i32, mut stake: i32, mut occ: BB) -> i32 {
        let t = self.t;
        let mut swap = SwapList::new(gain);
        let mut side = !self.side;
        loop {
            let attackers = self.attackers(to, occ, side, occ);
            if attackers.is_empty() || swap.is_full() {
                break;
            }
            let mut from = attackers.lsb();
            let mut role = Piece::from_code(self.board[from.index()]).role();
            for s in attackers {
                let r = Piece::from_code(self.board[s.index()]).role();
                if (see_order(r), r) < (see_order(role), role) {
                    from = s;
                    role = r;
                }
            }
            occ &= !Bitboard::from_square(from);
            if role == Role::King && self.attackers(to, occ, !side, occ).any() {
                break;
            }
            let zone = t.zone[side.index()];
            let lands = if role.can_promote() && (zone.contains(from) || zone.contains(to)) {
                role.promoted()
            } else {
                role
            };
            swap.capture(stake + role_value(lands) - role_value(role));
            stake = taken(lands);
            side = !side;
        }
        swap.resolve()
    }
}

#[cfg(test)]
mod tests;
