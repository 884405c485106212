//! What distinguishes one chess-family variant from another, as a zero-sized type parameter of
//! [`ChessPosition`](super::ChessPosition).
//!
//! A variant is a module: its rules type implements [`ChessRules`], whose hooks (extra
//! attackers, extra moves, its own make and unmake, FEN fields and checks, evaluation terms)
//! default to nothing, in one file per variant (`swedish.rs`, `cannonrider.rs`,
//! `chesstonia.rs`). The position is generic over the rules type and the hooks are inlined, so
//! orthodox chess (`Orthodox`, the default) compiles to the pin-mask move generator it had
//! before the variants existed, with no test of a variant anywhere in its code.

use super::eval_terms::Tapered;
use super::piece::Role;
use super::position::ChessPosition;
use super::see::SeeStart;
use crate::board::{BitWord, Bitboard, Color, Square};
use crate::games::chess::ChessMoves;
use crate::games::{FenError, Move, Variant};

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

/// Per-variant rules of the chess family. Everything not said here is orthodox chess: the
/// hooks' defaults add nothing, and the shared code plays the orthodox pieces.
pub trait ChessRules: Copy + Clone + Send + Sync + 'static {
    /// The pieces that may appear (FEN letters are read through this list).
    const ROLES: &'static [Role];
    /// What a pawn (or a pawn-like piece) may promote to, strongest first.
    const PROMOTIONS: &'static [Role];

    // NNUE input features (`nnue_features.rs`).

    /// Whether Black sees the board turned half a circle rather than flipped top to bottom:
    /// the net's two perspectives should see each other's situations alike, so a variant
    /// whose rules are symmetric under the half turn and not under the flip (a piece that
    /// moves by square colour, machinery on opposite sides of the board) turns it.
    const NNUE_ROTATE: bool = false;

    /// How many reserve counts each side has features for ("at least 1" to "at least N").
    const NNUE_RESERVE: usize = 0;

    // Pieces.

    /// Whether pieces of `role` move and take like pawns: they promote on the last rank, reset
    /// the fifty-move count when they move, and their double steps allow en passant.
    #[inline(always)]
    fn is_pawn_like(role: Role) -> bool {
        role == Role::Pawn
    }

    /// The pawn-like pieces of both colours (the roles of [`ChessRules::is_pawn_like`]).
    #[inline(always)]
    fn pawn_like<W: BitWord>(pos: &ChessPosition<W, Self>) -> Bitboard<W> {
        pos.role_bb(Role::Pawn)
    }

    /// Pieces that no move may capture.
    #[inline(always)]
    fn uncapturable<W: BitWord>(_pos: &ChessPosition<W, Self>) -> Bitboard<W> {
        Bitboard::EMPTY
    }

    // Attacks.

    /// The variant's own pieces among `them` that attack `sq` with the board occupied as `occ`
    /// (the orthodox attackers are found by the shared code). Legality, check and SEE all ask
    /// this one function.
    #[inline(always)]
    fn extra_attackers<W: BitWord>(
        _pos: &ChessPosition<W, Self>,
        _sq: Square,
        _occ: Bitboard<W>,
        _them: Bitboard<W>,
    ) -> Bitboard<W> {
        Bitboard::EMPTY
    }

    // Move generation.

    /// Appends every legal move. Pin masks (the default) are exact while every piece that can
    /// pin is a rook, bishop or queen; a variant whose pins can run through a hopper's screen
    /// or along a knight line finds legal moves by testing each candidate instead.
    #[inline(always)]
    fn generate_legal<W: BitWord>(pos: &ChessPosition<W, Self>, out: &mut ChessMoves) {
        pos.generate_by_pins(out)
    }

    /// Squares off the rook and bishop lines through the king on `ksq` where a move can still
    /// expose it (the generator by testing skips the test for moves that touch none of them).
    #[inline(always)]
    fn hidden_lines<W: BitWord>(_pos: &ChessPosition<W, Self>, _ksq: Square) -> Bitboard<W> {
        Bitboard::EMPTY
    }

    /// Moves of the variant's pieces that pins bind as they bind orthodox pieces, onto
    /// `target`: a piece in `pinned` stays on its line through `ksq`. Generated right after
    /// the orthodox pieces' moves.
    #[inline(always)]
    fn generate_pieces<W: BitWord>(
        _pos: &ChessPosition<W, Self>,
        _out: &mut ChessMoves,
        _target: Bitboard<W>,
        _pinned: Bitboard<W>,
        _ksq: Square,
    ) {
    }

    /// The variant's other moves, generated after the pawns'. `target` is the check mask (the
    /// squares that parry a single check, or every free square) and `in_check` says whether
    /// the side to move is in check; the generator by testing passes every free square and
    /// `false`, and keeps only the moves that leave the king safe.
    #[inline(always)]
    fn generate_more<W: BitWord>(
        _pos: &ChessPosition<W, Self>,
        _out: &mut ChessMoves,
        _target: Bitboard<W>,
        _in_check: bool,
    ) {
    }

    /// Where the piece standing on the square of an [`Entry`](crate::games::MoveKind::Entry)
    /// move goes to make way for the entering piece.
    #[inline(always)]
    fn entry_makes_way<W: BitWord>(_pos: &ChessPosition<W, Self>, sq: Square) -> Square {
        sq
    }

    // Make and unmake.

    /// Changes the board for a move the variant defines (an entry, a move of machinery) and
    /// returns true; returns false for the moves the shared code plays. Called after the
    /// en-passant square is cleared and the fifty-move count advanced, before castling rights,
    /// side and key are updated.
    #[inline(always)]
    fn make_own<W: BitWord>(_pos: &mut ChessPosition<W, Self>, _m: Move) -> bool {
        false
    }

    /// Takes back the board changes of `make_own` and returns true, or returns false for the
    /// moves the shared code takes back (rights, counters and key are restored from the
    /// history).
    #[inline(always)]
    fn unmake_own<W: BitWord>(_pos: &mut ChessPosition<W, Self>, _m: Move) -> bool {
        false
    }

    /// Whether the legal move `m` may give check: `false` only where it certainly does not,
    /// so that `make` can skip looking for checkers and the search can skip making a move it
    /// is about to prune just to ask. The default cannot tell (a hopper checks through a screen
    /// that any move onto one of the king's lines may put there); a variant whose pieces all
    /// attack as orthodox ones answers with [`ChessPosition::orthodox_may_check`].
    #[inline(always)]
    fn may_give_check<W: BitWord>(_pos: &ChessPosition<W, Self>, _m: Move) -> bool {
        true
    }

    /// Whether the side to move has a move that changes nothing on the board, so that passing
    /// (a null move) is always a move it could make.
    #[inline(always)]
    fn has_free_tempo<W: BitWord>(_pos: &ChessPosition<W, Self>) -> bool {
        false
    }

    // Static exchange.

    /// The start of the exchange for a move the variant defines, or `None` for the shared
    /// rules (the exchange itself asks `extra_attackers`).
    #[inline(always)]
    fn see_start_own<W: BitWord>(_pos: &ChessPosition<W, Self>, _m: Move) -> Option<SeeStart<W>> {
        None
    }

    // FEN.

    /// Reads the inside `inner` (not empty, not `-`) of the bracketed reserve `hand`.
    fn read_reserve<W: BitWord>(
        _pos: &mut ChessPosition<W, Self>,
        hand: &str,
        _inner: &str,
    ) -> Result<(), FenError> {
        Err(FenError::hand(format!(
            "this game has no pieces in hand: '{hand}'"
        )))
    }

    /// Appends the bracketed reserve to the board part of a FEN, for variants that have one.
    fn write_reserve<W: BitWord>(_pos: &ChessPosition<W, Self>, _fen: &mut String) {}

    /// The variant's conditions on the pieces of a FEN's board and reserve, checked as soon as
    /// they are read.
    fn validate_pieces<W: BitWord>(_pos: &ChessPosition<W, Self>) -> Result<(), FenError> {
        Ok(())
    }

    /// The variant's conditions on the squares off the board (none may hold a piece unless
    /// the variant keeps machinery there).
    fn validate_off_board<W: BitWord>(pos: &ChessPosition<W, Self>) -> Result<(), FenError> {
        if (pos.occupied() & !pos.t.geo.valid()).any() {
            return Err(FenError::position("a piece stands off the board"));
        }
        Ok(())
    }

    /// Whether, in a FEN whose en-passant square says a pawn of `pawn_side` just stepped two
    /// squares, the square it left may hold something else than nothing.
    fn ep_origin_may_be_occupied<W: BitWord>(
        _pos: &ChessPosition<W, Self>,
        _origin: Square,
        _pawn_side: Color,
    ) -> bool {
        false
    }

    // Room in the move list (see `ChessPosition::most_moves`).

    /// The most moves one piece of the variant's own `role` can have on this board, wherever
    /// it stands and whatever stands around it. The shared code answers for the orthodox
    /// roles and the pawn-like ones.
    fn most_moves_own<W: BitWord>(_pos: &ChessPosition<W, Self>, _role: Role) -> usize {
        0
    }

    /// The most moves side `c` can have from what it keeps off the board (a reserve and its
    /// entries), counting each piece there as it will move on the board, so that bringing it
    /// in never raises the count.
    fn most_moves_off_board<W: BitWord>(_pos: &ChessPosition<W, Self>, _c: Color) -> usize {
        0
    }

    // Evaluation.

    /// The squares a piece of one of the variant's own roles moves to or attacks, as the
    /// evaluation counts them (`own`: the pieces of its side). The shared code answers for the
    /// orthodox roles.
    #[inline(always)]
    fn piece_reach<W: BitWord>(
        _pos: &ChessPosition<W, Self>,
        _role: Role,
        _sq: Square,
        _occ: Bitboard<W>,
        _own: Bitboard<W>,
    ) -> Bitboard<W> {
        Bitboard::EMPTY
    }

    /// Material from white's point of view that is not a piece on a square (a reserve).
    #[inline(always)]
    fn material_extra<W: BitWord>(_pos: &ChessPosition<W, Self>) -> i32 {
        0
    }

    /// Evaluation from white's point of view of what is not a piece on the board (a reserve,
    /// machinery beside the board), with the game phase it adds.
    #[inline(always)]
    fn evaluate_extra<W: BitWord>(_pos: &ChessPosition<W, Self>) -> (Tapered, i32) {
        (Tapered::default(), 0)
    }
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

    #[inline(always)]
    fn may_give_check<W: BitWord>(pos: &ChessPosition<W, Self>, m: Move) -> bool {
        pos.orthodox_may_check(m)
    }
}
