//! One move type for every game, so the search, the transposition table and the protocols
//! never depend on a particular game.

use crate::board::Square;
use arrayvec::ArrayVec;
use std::fmt;
use std::ops::{Deref, DerefMut};

/// What a move does beyond "piece from `from` goes to `to`". Each game uses the kinds it needs.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum MoveKind {
    Normal = 0,
    /// Promotion to `Move::piece()`.
    Promotion = 1,
    /// A piece (`Move::piece()`) comes from the hand or reserve onto `to`.
    Drop = 2,
    /// King move that castles (with the rook on the king's side of `to`).
    Castle = 3,
    EnPassant = 4,
    /// A capture by a piece that does not move: `to` is the victim.
    Shot = 5,
    /// A piece (`Move::piece()`) comes from the reserve onto `to` (== `from`), and the piece
    /// standing there makes way by the game's rule (a Swedish cannon's pawn goes two squares
    /// ahead). Not a drop: a drop needs an empty square.
    Entry = 6,
}

impl MoveKind {
    const ALL: [MoveKind; 7] = [
        MoveKind::Normal,
        MoveKind::Promotion,
        MoveKind::Drop,
        MoveKind::Castle,
        MoveKind::EnPassant,
        MoveKind::Shot,
        MoveKind::Entry,
    ];
}

/// A move packed in 32 bits: from (8), to (8), kind (8), piece (8).
///
/// `piece` is a game-defined piece code: the promotion piece, or the dropped piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

impl Move {
    /// "No move": never a legal move in any game (from == to, normal kind).
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind, piece: u8) -> Self {
        Move(
            from.index() as u32
                | (to.index() as u32) << 8
                | (kind as u32) << 16
                | (piece as u32) << 24,
        )
    }
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Self {
        Self::new(from, to, MoveKind::Normal, 0)
    }
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new(self.0 as u8)
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 8) as u8)
    }
    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        MoveKind::ALL[((self.0 >> 16) & 0xff) as usize]
    }
    #[inline(always)]
    pub const fn piece(self) -> u8 {
        (self.0 >> 24) as u8
    }
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
    /// The packed form, for the transposition table.
    #[inline(always)]
    pub const fn to_bits(self) -> u32 {
        self.0
    }
    /// Inverse of [`Move::to_bits`]; the caller must check the move is legal before use.
    #[inline(always)]
    pub fn from_bits(bits: u32) -> Self {
        if ((bits >> 16) & 0xff) as usize >= MoveKind::ALL.len() {
            Move::NONE
        } else {
            Move(bits)
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Move({}->{} {:?} {})",
            self.from().index(),
            self.to().index(),
            self.kind(),
            self.piece()
        )
    }
}

/// A list on the stack with room for a fixed number of items, as `ArrayVec` is: a game's move
/// list ([`MoveList`]) and the scores the search keeps beside it. The room is part of the type,
/// so a list costs no allocation and each game sizes its own.
pub trait StackList<T>:
    Default + Deref<Target = [T]> + DerefMut + Extend<T> + FromIterator<T> + IntoIterator<Item = T>
{
    /// Appends `item`. A full list panics; each game's list has room for every position its
    /// FEN reader accepts and every position reached from one (see the game's capacity).
    fn push(&mut self, item: T);
    fn truncate(&mut self, len: usize);
    fn clear(&mut self) {
        self.truncate(0)
    }
}

impl<T, const N: usize> StackList<T> for ArrayVec<T, N> {
    #[inline(always)]
    fn push(&mut self, item: T) {
        ArrayVec::push(self, item)
    }
    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        ArrayVec::truncate(self, len)
    }
}

/// The move list of a game ([`Game::Moves`](crate::games::Game::Moves)): `ArrayVec<Move, N>`
/// with the `N` its game's positions need, and a list of ordering scores with the same room.
pub trait MoveList: StackList<Move> + Clone + fmt::Debug + Send + Sync {
    /// One score per move, for the search's move ordering.
    type Scores: StackList<i32>;
}

impl<const N: usize> MoveList for ArrayVec<Move, N> {
    type Scores = ArrayVec<i32, N>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let m = Move::new(Square::new(119), Square::new(3), MoveKind::Shot, 9);
        assert_eq!(m.from(), Square::new(119));
        assert_eq!(m.to(), Square::new(3));
        assert_eq!(m.kind(), MoveKind::Shot);
        assert_eq!(m.piece(), 9);
        assert_eq!(Move::from_bits(m.to_bits()), m);
        assert!(Move::from_bits(0x00ff_0000).is_none());
    }
}
