//! What distinguishes one chess-family variant from another, as a zero-sized type parameter of
//! [`ChessPosition`](super::ChessPosition).
//!
//! Every rule is an associated constant, so the compiler removes the code of the pieces a
//! variant does not have: orthodox chess (`Orthodox`, the default) compiles to the same
//! pin-mask move generator as before the variants existed.

use super::piece::Role;
use crate::games::Variant;

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

impl ChessBoard {
    /// The board of a variant of this size: the family has one board per size (its variants'
    /// registry entries give only files and ranks).
    pub fn of_size(files: usize, ranks: usize) -> Option<ChessBoard> {
        match (files, ranks) {
            (8, 8) => Some(ChessBoard::Orthodox),
            (10, 8) => Some(ChessBoard::Gustavian),
            (12, 8) => Some(ChessBoard::Chesstonia),
            _ => None,
        }
    }
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
}

/// FIDE chess, on the orthodox board or (as a test of the board code) on the Gustavian one.
#[derive(Copy, Clone, Debug, Default)]
pub struct Orthodox;

/// Orthodox chess on the Gustavian board, as Fairy-Stockfish's `gustav3` board numbers count
/// it. Not offered to users; it checks the board code with holes against reference perft.
pub const GUSTAVIAN_CHESS_START: &str =
    "1rnbqkbnr1/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/1RNBQKBNR1 w KQkq - 0 1";

/// Orthodox chess on the Gustavian board: a test of the board code with holes, not a
/// registered variant (no user can choose it), so its description lives here with the tests'
/// other fixtures rather than in the registry.
pub static GUSTAVIAN_CHESS: Variant = Variant {
    name: "gustavianchess",
    files: 10,
    ranks: 8,
    hand: 0,
    start_fen: GUSTAVIAN_CHESS_START,
    rule_options: &[],
};

/// How many pieces of `role` white has in `variant`'s start position, board and reserve (the
/// bracketed part) together. The limits that follow from a variant's start position (which
/// kind of pawn it plays, how many Swedish cannons a side may own) are read from it here, so
/// that no rule asks for the variant by name.
pub(crate) fn start_count<R: ChessRules>(variant: &Variant, role: Role) -> usize {
    let placement = variant.start_fen.split_whitespace().next().unwrap_or("");
    placement
        .chars()
        .filter(|c| c.is_ascii_uppercase() && Role::from_letter_in(*c, R::ROLES) == Some(role))
        .count()
}

impl ChessRules for Orthodox {
    const ROLES: &'static [Role] = &Role::ORTHODOX;
    const PROMOTIONS: &'static [Role] = &Role::PROMOTIONS;
}

/// Gustavian Cannonrider Chess (M. Winther, 2006) and its Scorpion version.
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
    const CANNONRIDERS: bool = true;
    const SCORPIONS: bool = true;
}

/// Swedish Cannon Chess (M. Winther, 2007): orthodox chess plus cannons in reserve.
#[derive(Copy, Clone, Debug, Default)]
pub struct SwedishCannon;

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
}

/// Cannons of Chesstonia (G. K. Gifford, 2006): orthodox chess plus a cannon per side beside the
/// board that launches four projectiles onto it.
#[derive(Copy, Clone, Debug, Default)]
pub struct Chesstonia;

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
}
