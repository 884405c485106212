//! A set of squares, generic over the machine word.

use super::square::Square;
use super::word::BitWord;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A set of squares; bit `i` is the square with index `i` (see [`crate::board::Geometry`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard<W: BitWord>(pub W);

impl<W: BitWord> Bitboard<W> {
    pub const EMPTY: Self = Bitboard(W::ZERO);

    #[inline(always)]
    pub fn from_square(sq: Square) -> Self {
        Bitboard(W::ONE << sq.index() as u32)
    }

    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }

    #[inline(always)]
    pub fn any(self) -> bool {
        self.0 != W::ZERO
    }

    #[inline(always)]
    pub fn contains(self, sq: Square) -> bool {
        (self.0 >> sq.index() as u32) & W::ONE != W::ZERO
    }

    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds two or more squares.
    #[inline(always)]
    pub fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(W::ONE) != W::ZERO
    }

    /// The lowest square. The set must not be empty.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.any());
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// The highest square. The set must not be empty.
    #[inline(always)]
    pub fn msb(self) -> Square {
        debug_assert!(self.any());
        Square::new((W::BITS - 1 - self.0.leading_zeros()) as u8)
    }

    /// Removes and returns the lowest square.
    #[inline(always)]
    pub fn pop_lsb(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0.wrapping_sub(W::ONE);
        sq
    }

    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= W::ONE << sq.index() as u32;
    }

    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(W::ONE << sq.index() as u32);
    }

    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= W::ONE << sq.index() as u32;
    }

    pub fn squares(self) -> SquareIter<W> {
        SquareIter(self)
    }
}

/// Iterates the squares of a set from the lowest up.
pub struct SquareIter<W: BitWord>(Bitboard<W>);

impl<W: BitWord> Iterator for SquareIter<W> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lsb())
        }
    }
}

impl<W: BitWord> IntoIterator for Bitboard<W> {
    type Item = Square;
    type IntoIter = SquareIter<W>;
    fn into_iter(self) -> SquareIter<W> {
        SquareIter(self)
    }
}

impl<W: BitWord> FromIterator<Square> for Bitboard<W> {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut bb = Self::EMPTY;
        for sq in iter {
            bb.set(sq);
        }
        bb
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<W: BitWord> $tr for Bitboard<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl<W: BitWord> $tra for Bitboard<W> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Self) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<W: BitWord> Not for Bitboard<W> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Bitboard(!self.0)
    }
}

/// Shifting moves every square by a number of indices; [`crate::board::Geometry::shift`] is the
/// board-aware version that drops squares falling off an edge.
impl<W: BitWord> Shl<u32> for Bitboard<W> {
    type Output = Self;
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        Bitboard(self.0 << n)
    }
}

impl<W: BitWord> Shr<u32> for Bitboard<W> {
    type Output = Self;
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        Bitboard(self.0 >> n)
    }
}

impl<W: BitWord> fmt::Debug for Bitboard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sqs: Vec<u8> = self.squares().map(|s| s.index() as u8).collect();
        write!(f, "Bitboard{sqs:?}")
    }
}
