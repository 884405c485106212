//! What distinguishes one chess-family variant from another, as a zero-sized type parameter of
//! [`ChessPosition`](super::ChessPosition).
//!
//! Every rule is an associated constant, so the compiler removes the code of the pieces a
//! variant does not have: orthodox chess (`Orthodox`, the default) compiles to the same
//! pin-mask move generator as before the variants existed.

use super::piece::Role;

/// The board a variant is played on; each bitboard word says which boards it can hold.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ChessBoard {
    /// The orthodox 8x8 board.
    Orthodox,
    /// Gustav III's board: 10x8, files a and j only on ranks 1 and 8.
    Gustavian,
    /// Cannons of Chesstonia: the 8x8 board on files c..j of a 12x8 word, with the cannon
    /// machinery on squares of files a, b, k, l that chess pieces never reach.
    Chesstonia,
}

/// Per-variant rules of the chess family.
pub trait ChessRules: Copy + Clone + Send + Sync + 'static {
    /// The pieces that may appear (FEN letters are read through this list).
    const ROLES: &'static [Role];
    /// What a pawn (or Scorpion) may promote to, strongest first.
    const PROMOTIONS: &'static [Role];
    /// Gustavian Cannonriders are on the board.
    const CANNONRIDERS: bool = false;
    /// Scorpions (pawns with two extra sideways leaps) are on the board.
    const SCORPIONS: bool = false;
    /// Swedish cannons: on the board, and in a reserve from which they enter by relocating a
    /// pawn of the second rank.
    const SWEDISH_CANNONS: bool = false;
    /// Pins through hopper screens and along nightrider lines do not fit pin masks: variants
    /// with such pieces test each candidate move for "is my king attacked afterwards" instead.
    const TEST_LEGALITY: bool = Self::CANNONRIDERS || Self::SWEDISH_CANNONS;
    /// Cannons of Chesstonia: a cannon per side beside the board that launches a Pawn, a Wazir,
    /// a Ferz and a Stone onto it (see `chesstonia.rs`).
    const CHESSTONIA: bool = false;

    /// The variants played with these rules: name, start FEN and board.
    const VARIANTS: &'static [(&'static str, &'static str, ChessBoard)];

    /// Canonical name, start FEN and board of the variant `name`, if it uses these rules.
    fn variant(name: &str) -> Option<(&'static str, &'static str, ChessBoard)> {
        Self::VARIANTS.iter().copied().find(|v| v.0 == name)
    }
}

/// FIDE chess, on the orthodox board or (as a test of the board code) on the Gustavian one.
#[derive(Copy, Clone, Debug, Default)]
pub struct Orthodox;

pub const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Orthodox chess on the Gustavian board, as Fairy-Stockfish's `gustav3` board numbers count
/// it. Not offered to users; it checks the board code with holes against reference perft.
pub const GUSTAVIAN_CHESS_START: &str =
    "1rnbqkbnr1/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/1RNBQKBNR1 w KQkq - 0 1";

impl ChessRules for Orthodox {
    const ROLES: &'static [Role] = &Role::ORTHODOX;
    const PROMOTIONS: &'static [Role] = &Role::PROMOTIONS;

    const VARIANTS: &'static [(&'static str, &'static str, ChessBoard)] = &[
        ("chess", CHESS_START, ChessBoard::Orthodox),
        (
            "gustavianchess",
            GUSTAVIAN_CHESS_START,
            ChessBoard::Gustavian,
        ),
    ];
}

/// Gustavian Cannonrider Chess (M. Winther, 2006) and its Scorpion version.
#[derive(Copy, Clone, Debug, Default)]
pub struct Cannonrider;

pub const CANNONRIDER_START: &str =
    "nrbckqcbrn/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/NRBCKQCBRN w KQkq - 0 1";
pub const CANNONRIDER_SCORPION_START: &str =
    "nrbckqcbrn/*ssssssss*/*8*/*8*/*8*/*8*/*SSSSSSSS*/NRBCKQCBRN w KQkq - 0 1";

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
    const CANNONRIDERS: bool = true;
    const SCORPIONS: bool = true;

    const VARIANTS: &'static [(&'static str, &'static str, ChessBoard)] = &[
        ("cannonrider", CANNONRIDER_START, ChessBoard::Gustavian),
        (
            "cannonriderscorpion",
            CANNONRIDER_SCORPION_START,
            ChessBoard::Gustavian,
        ),
    ];
}

/// Swedish Cannon Chess (M. Winther, 2007): orthodox chess plus cannons in reserve.
#[derive(Copy, Clone, Debug, Default)]
pub struct SwedishCannon;

pub const SWEDISH_CANNON_START: &str =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[CCcc] w KQkq - 0 1";
pub const SWEDISH_CANNON1_START: &str =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1";

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
    const SWEDISH_CANNONS: bool = true;

    const VARIANTS: &'static [(&'static str, &'static str, ChessBoard)] = &[
        ("swedishcannon", SWEDISH_CANNON_START, ChessBoard::Orthodox),
        (
            "swedishcannon1",
            SWEDISH_CANNON1_START,
            ChessBoard::Orthodox,
        ),
    ];
}

/// Cannons of Chesstonia (G. K. Gifford, 2006): orthodox chess plus a cannon per side beside the
/// board that launches four projectiles onto it.
#[derive(Copy, Clone, Debug, Default)]
pub struct Chesstonia;

pub const CHESSTONIA_START: &str =
    "1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f10W/s9CP/**PPPPPPPP**/**RNBQKBNR*1 w KQkq - 0 1";

impl ChessRules for Chesstonia {
    const ROLES: &'static [Role] = &[
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Cannon,
        Role::Wazir,
        Role::Ferz,
        Role::Stone,
    ];
    const PROMOTIONS: &'static [Role] = &Role::PROMOTIONS;
    const CHESSTONIA: bool = true;

    const VARIANTS: &'static [(&'static str, &'static str, ChessBoard)] =
        &[("chesstonia", CHESSTONIA_START, ChessBoard::Chesstonia)];
}
