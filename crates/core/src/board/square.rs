//! Squares and colours: small strong types so that a square index is never confused with a
//! count, a file or a piece code.

use std::fmt;
use std::ops::Not;

/// Index of a square: `rank * files + file` on the board's [`crate::board::Geometry`].
/// At most 128 squares, so it fits a byte and a `u128` bitboard.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    #[inline(always)]
    pub const fn new(index: u8) -> Self {
        Square(index)
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({})", self.0)
    }
}

/// The side to move. `White` is the side that moves first in every game (upper-case letters).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for white, -1 for black: the sign of "forward" in ranks.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}
