//! Pieces of the chess family.

use crate::board::Color;

/// What a piece is, regardless of colour.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    pub const COUNT: usize = 6;
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    /// The pieces a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }

    /// Upper-case letter used in FENs.
    pub const fn letter(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    pub fn from_letter(c: char) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| r.letter() == c.to_ascii_uppercase())
    }
}

/// A coloured piece, packed as `colour * 8 + role` so that it indexes small tables.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Piece(u8);

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, role: Role) -> Self {
        Piece((color as u8) << 3 | role as u8)
    }
    #[inline(always)]
    pub fn color(self) -> Color {
        if self.0 >> 3 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    #[inline(always)]
    pub fn role(self) -> Role {
        Role::from_index((self.0 & 7) as usize)
    }
    #[inline(always)]
    pub const fn code(self) -> u8 {
        self.0
    }
    #[inline(always)]
    pub const fn from_code(code: u8) -> Self {
        Piece(code)
    }

    /// FEN letter: upper case for white.
    pub fn letter(self) -> char {
        let c = self.role().letter();
        match self.color() {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    pub fn from_letter(c: char) -> Option<Piece> {
        let role = Role::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, role))
    }
}
