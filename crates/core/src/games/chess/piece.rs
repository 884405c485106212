//! Pieces of the chess family.

use crate::board::Color;

/// What a piece is, regardless of colour. The orthodox six come first; the variant pieces after
/// them exist only in the variants whose rules list them (see `ChessRules::ROLES`).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
    /// Swedish cannon: Janggi-style jumps, a rook slide only when it has no jump.
    Cannon = 6,
    /// Gustavian Cannonrider: Xiangqi cannon on dark squares, nightrider on light squares.
    Cannonrider = 7,
    /// A pawn that may also leap (+-2, +1) without capturing.
    Scorpion = 8,
    /// Chesstonia projectile: one step orthogonally.
    Wazir = 9,
    /// Chesstonia projectile: one step diagonally.
    Ferz = 10,
    /// Chesstonia projectile: never moves, cannot be captured, blocks lines.
    Stone = 11,
    /// Chesstonia's cannon: it rides its track beside the board and launches the projectiles;
    /// it never enters the board, attacks nothing and cannot be captured.
    TrackCannon = 12,
}

impl Role {
    pub const COUNT: usize = 13;
    pub const ALL: [Role; 13] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Cannon,
        Role::Cannonrider,
        Role::Scorpion,
        Role::Wazir,
        Role::Ferz,
        Role::Stone,
        Role::TrackCannon,
    ];
    /// The orthodox pieces.
    pub const ORTHODOX: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    /// The pieces an orthodox pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }

    /// Upper-case letter used in FENs and move strings. The cannons share `C`, and the Scorpion
    /// and the Stone share `S`: no variant has both, and each variant reads letters through its
    /// own role list.
    pub const fn letter(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
            Role::Cannon | Role::Cannonrider | Role::TrackCannon => 'C',
            Role::Scorpion | Role::Stone => 'S',
            Role::Wazir => 'W',
            Role::Ferz => 'F',
        }
    }

    /// The role with this letter among `roles` (a variant's own pieces).
    pub fn from_letter_in(c: char, roles: &[Role]) -> Option<Role> {
        roles
            .iter()
            .copied()
            .find(|r| r.letter() == c.to_ascii_uppercase())
    }

    /// The orthodox role with this letter.
    pub fn from_letter(c: char) -> Option<Role> {
        Role::from_letter_in(c, &Role::ORTHODOX)
    }
}

/// A coloured piece, packed as `colour * 16 + role` so that it indexes small tables.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Piece(u8);

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, role: Role) -> Self {
        Piece((color as u8) << 4 | role as u8)
    }
    #[inline(always)]
    pub fn color(self) -> Color {
        if self.0 >> 4 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    #[inline(always)]
    pub fn role(self) -> Role {
        Role::from_index((self.0 & 15) as usize)
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

    /// The piece with this FEN letter among `roles`; the case gives the colour.
    pub fn from_letter_in(c: char, roles: &[Role]) -> Option<Piece> {
        let role = Role::from_letter_in(c, roles)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, role))
    }

    /// The orthodox piece with this FEN letter.
    pub fn from_letter(c: char) -> Option<Piece> {
        Piece::from_letter_in(c, &Role::ORTHODOX)
    }
}
