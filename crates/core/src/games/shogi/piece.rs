//! Cannon Shogi pieces: what a piece *is* ([`Role`], which decides its FEN letter and what it
//! becomes in hand) and how it *moves* ([`Kind`], which decides its attacks). Several roles share
//! a movement: the golds and the four "promote to gold" pieces, the two flying orthogonal
//! cannons, the two flying diagonal cannons.

use crate::board::Color;

/// What a piece is. The ten promotable roles come first so that `promoted = role + 12` and a
/// hand index is simply the unpromoted role's index (0..=10, the king never goes to hand).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    Rook = 0,
    Bishop = 1,
    Silver = 2,
    Knight = 3,
    Lance = 4,
    /// The Janggi soldier (`p`): one step forward or sideways.
    Pawn = 5,
    /// Gold cannon `u`: Xiangqi cannon, orthogonal.
    GoldCannon = 6,
    /// Silver cannon `a`: Janggi cannon, orthogonal.
    SilverCannon = 7,
    /// Copper cannon `c`: Xiangqi cannon, diagonal.
    CopperCannon = 8,
    /// Iron cannon `i`: Janggi cannon, diagonal.
    IronCannon = 9,
    Gold = 10,
    King = 11,
    Dragon = 12,
    Horse = 13,
    PromotedSilver = 14,
    PromotedKnight = 15,
    PromotedLance = 16,
    PromotedPawn = 17,
    FlyingGoldCannon = 18,
    FlyingSilverCannon = 19,
    FlyingCopperCannon = 20,
    FlyingIronCannon = 21,
}

/// Number of roles that can be in hand (every unpromoted role but the king).
pub const HAND_KINDS: usize = 11;

/// How many pieces of each kind that can be in hand (by hand index) the game has, both sides
/// together, promoted or not, on the board or in hand: those of its start position. A FEN
/// with more is refused, so that the move list's room holds (see
/// [`SHOGI_MOVES`](super::SHOGI_MOVES)).
pub const PIECES_IN_GAME: [u8; HAND_KINDS] = [2, 2, 4, 4, 4, 10, 2, 2, 2, 2, 4];

/// Fairy-Stockfish writes hands in descending order of its internal piece types; for this
/// variant that is `I C A P U G N L S R B`. We write them in the same order so FENs agree.
pub const HAND_ORDER: [Role; HAND_KINDS] = [
    Role::IronCannon,
    Role::CopperCannon,
    Role::SilverCannon,
    Role::Pawn,
    Role::GoldCannon,
    Role::Gold,
    Role::Knight,
    Role::Lance,
    Role::Silver,
    Role::Rook,
    Role::Bishop,
];

impl Role {
    pub const COUNT: usize = 22;
    pub const ALL: [Role; Role::COUNT] = [
        Role::Rook,
        Role::Bishop,
        Role::Silver,
        Role::Knight,
        Role::Lance,
        Role::Pawn,
        Role::GoldCannon,
        Role::SilverCannon,
        Role::CopperCannon,
        Role::IronCannon,
        Role::Gold,
        Role::King,
        Role::Dragon,
        Role::Horse,
        Role::PromotedSilver,
        Role::PromotedKnight,
        Role::PromotedLance,
        Role::PromotedPawn,
        Role::FlyingGoldCannon,
        Role::FlyingSilverCannon,
        Role::FlyingCopperCannon,
        Role::FlyingIronCannon,
    ];
    const PROMOTION_OFFSET: u8 = 12;

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }

    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) < Role::Gold as u8
    }

    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= Role::PROMOTION_OFFSET
    }

    /// The promoted role. Only for roles that can promote.
    #[inline(always)]
    pub fn promoted(self) -> Role {
        debug_assert!(self.can_promote());
        Role::from_index(self as usize + Role::PROMOTION_OFFSET as usize)
    }

    /// The role a captured piece becomes in hand (promoted pieces lose their promotion).
    #[inline(always)]
    pub fn unpromoted(self) -> Role {
        if self.is_promoted() {
            Role::from_index(self as usize - Role::PROMOTION_OFFSET as usize)
        } else {
            self
        }
    }

    /// How the piece moves.
    #[inline(always)]
    pub fn kind(self) -> Kind {
        KIND_OF[self as usize]
    }

    /// Upper-case letter of the unpromoted role (promoted pieces are written `+` and this).
    pub const fn base_letter(self) -> char {
        match self {
            Role::Rook | Role::Dragon => 'R',
            Role::Bishop | Role::Horse => 'B',
            Role::Silver | Role::PromotedSilver => 'S',
            Role::Knight | Role::PromotedKnight => 'N',
            Role::Lance | Role::PromotedLance => 'L',
            Role::Pawn | Role::PromotedPawn => 'P',
            Role::GoldCannon | Role::FlyingGoldCannon => 'U',
            Role::SilverCannon | Role::FlyingSilverCannon => 'A',
            Role::CopperCannon | Role::FlyingCopperCannon => 'C',
            Role::IronCannon | Role::FlyingIronCannon => 'I',
            Role::Gold => 'G',
            Role::King => 'K',
        }
    }

    /// The unpromoted role written with this letter (either case).
    pub fn from_letter(c: char) -> Option<Role> {
        Role::ALL[..12]
            .iter()
            .copied()
            .find(|r| r.base_letter() == c.to_ascii_uppercase())
    }
}

/// How a piece moves. Roles that move alike share a kind, so attack code looks at 16 sets
/// rather than 22.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Kind {
    Rook = 0,
    Bishop = 1,
    Silver = 2,
    Knight = 3,
    Lance = 4,
    Soldier = 5,
    /// mRcpR
    GoldCannon = 6,
    /// pR
    SilverCannon = 7,
    /// mBcpB
    CopperCannon = 8,
    /// pB
    IronCannon = 9,
    /// WfF: golds and the pieces that promote to gold moves.
    Gold = 10,
    King = 11,
    /// RF
    Dragon = 12,
    /// BW
    Horse = 13,
    /// mRpRmFpB2: flying gold and flying silver cannons.
    FlyingOrthogonal = 14,
    /// mBpBmWpR2: flying copper and flying iron cannons.
    FlyingDiagonal = 15,
}

impl Kind {
    pub const COUNT: usize = 16;

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

const KIND_OF: [Kind; Role::COUNT] = [
    Kind::Rook,
    Kind::Bishop,
    Kind::Silver,
    Kind::Knight,
    Kind::Lance,
    Kind::Soldier,
    Kind::GoldCannon,
    Kind::SilverCannon,
    Kind::CopperCannon,
    Kind::IronCannon,
    Kind::Gold,
    Kind::King,
    Kind::Dragon,
    Kind::Horse,
    Kind::Gold,
    Kind::Gold,
    Kind::Gold,
    Kind::Gold,
    Kind::FlyingOrthogonal,
    Kind::FlyingOrthogonal,
    Kind::FlyingDiagonal,
    Kind::FlyingDiagonal,
];

/// A coloured piece, packed as `colour * 32 + role`.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Piece(u8);

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, role: Role) -> Self {
        Piece((color as u8) << 5 | role as u8)
    }
    #[inline(always)]
    pub fn color(self) -> Color {
        if self.0 >> 5 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    #[inline(always)]
    pub fn role(self) -> Role {
        Role::from_index((self.0 & 31) as usize)
    }
    #[inline(always)]
    pub const fn code(self) -> u8 {
        self.0
    }
    #[inline(always)]
    pub const fn from_code(code: u8) -> Self {
        Piece(code)
    }

    /// FEN form: `+` for promoted pieces, then the letter, upper case for white.
    pub fn fen(self) -> String {
        let role = self.role();
        let c = role.base_letter();
        let c = match self.color() {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        };
        if role.is_promoted() {
            format!("+{c}")
        } else {
            c.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_round_trips_and_kinds() {
        for r in Role::ALL {
            if r.can_promote() {
                let p = r.promoted();
                assert!(p.is_promoted());
                assert_eq!(p.unpromoted(), r);
                assert_eq!(p.base_letter(), r.base_letter());
            } else if !r.is_promoted() {
                assert_eq!(r.unpromoted(), r);
            }
        }
        assert_eq!(Role::Rook.promoted(), Role::Dragon);
        assert_eq!(Role::Pawn.promoted().kind(), Kind::Gold);
        assert_eq!(Role::SilverCannon.promoted().kind(), Kind::FlyingOrthogonal);
        assert_eq!(Role::IronCannon.promoted().kind(), Kind::FlyingDiagonal);
        assert!(!Role::Gold.can_promote() && !Role::King.can_promote());
    }

    #[test]
    fn letters_are_unique_and_hand_order_covers_every_hand_role() {
        for r in &Role::ALL[..12] {
            assert_eq!(Role::from_letter(r.base_letter()), Some(*r));
            assert_eq!(
                Role::from_letter(r.base_letter().to_ascii_lowercase()),
                Some(*r)
            );
        }
        let mut seen = [false; HAND_KINDS];
        for r in HAND_ORDER {
            assert!(r.index() < HAND_KINDS);
            seen[r.index()] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(Piece::new(Color::Black, Role::FlyingGoldCannon).fen(), "+u");
    }
}
