//! Everything about a chess-family board that is computed once: geometry, attack tables and
//! Zobrist keys.

use super::eval;
use super::eval_terms::Tapered;
use super::piece::Role;
use crate::board::geometry::{DIAGONAL, KING_STEPS, KNIGHT_LEAPS, ORTHOGONAL};
use crate::board::zobrist::SplitMix64;
use crate::board::{BitWord, Bitboard, Color, Geometry, LeaperTable, Offset, Rays, Square};

/// Zobrist keys of a chess-family position.
#[derive(Clone, Debug)]
pub struct ChessKeys {
    pieces: Vec<u64>,
    pub castling: [u64; 16],
    pub en_passant: [u64; 16],
    pub side: u64,
    /// Pieces in reserve, per colour and count (a count of zero has key 0, so games without a
    /// reserve hash exactly as if it did not exist).
    pub reserve: [[u64; MAX_RESERVE + 1]; 2],
}

/// The roles with keys drawn of their own (all but `Role::TrackCannon`, see `ChessKeys::new`).
const FIRST_ROLES: usize = 12;
const _: () = assert!(Role::COUNT == FIRST_ROLES + 1 && Role::TrackCannon as usize == FIRST_ROLES);

/// The most pieces a side can hold in reserve.
pub const MAX_RESERVE: usize = 8;

impl ChessKeys {
    fn new() -> Self {
        let mut rng = SplitMix64::new(0x00C4_4E0A_DE5E_ED01);
        let first = rng.keys(2 * FIRST_ROLES * 128);
        let mut castling = [0; 16];
        // Each right has its own key; a set of rights is the xor of its members.
        let rights: Vec<u64> = rng.keys(4);
        for (mask, key) in castling.iter_mut().enumerate() {
            *key = (0..4)
                .filter(|b| mask & (1 << b) != 0)
                .fold(0, |k, b| k ^ rights[b]);
        }
        let mut en_passant = [0; 16];
        en_passant.copy_from_slice(&rng.keys(16));
        let side = rng.next_u64();
        let mut reserve = [[0; MAX_RESERVE + 1]; 2];
        for keys in reserve.iter_mut() {
            for key in keys.iter_mut().skip(1) {
                *key = rng.next_u64();
            }
        }
        // Chesstonia's cannon hashes with the Swedish cannon's keys: no variant has both, and
        // every position keeps the key it had before that cannon had a role of its own.
        let mut pieces = Vec::with_capacity(2 * Role::COUNT * 128);
        for c in 0..2 {
            let own = &first[c * FIRST_ROLES * 128..(c + 1) * FIRST_ROLES * 128];
            pieces.extend_from_slice(own);
            let cannon = Role::Cannon.index() * 128;
            pieces.extend_from_slice(&own[cannon..cannon + 128]);
        }
        ChessKeys {
            pieces,
            castling,
            en_passant,
            side,
            reserve,
        }
    }

    #[inline(always)]
    pub fn piece(&self, color: Color, role: Role, sq: Square) -> u64 {
        self.pieces[(color.index() * Role::COUNT + role.index()) * 128 + sq.index()]
    }
}

/// Square indices a position can hold a piece on (its board array's length).
const SQUARE_CODES: usize = 128;

/// Attack tables and keys for one chess-family board.
#[derive(Debug)]
pub struct ChessTables<W: BitWord> {
    pub geo: Geometry<W>,
    pub rays: Rays<W>,
    pub knight: LeaperTable<W>,
    pub king: LeaperTable<W>,
    /// Squares a pawn of each colour attacks from a square.
    pub pawn_attacks: [LeaperTable<W>; 2],
    pub keys: ChessKeys,
    /// One-step orthogonal and diagonal leaps (Chesstonia's Wazir and Ferz).
    pub wazir: LeaperTable<W>,
    pub ferz: LeaperTable<W>,
    /// Squares outside the geometry that exist for a variant's own machinery (Chesstonia's
    /// cannon tracks, storage and load squares): pieces may stand there, but no chess piece's
    /// line or leap ever reaches them. Empty on other boards.
    pub extra: Bitboard<W>,
    /// The load squares among `extra`.
    pub load_squares: Bitboard<W>,
    /// Dark squares: file + rank odd, counting from 0 at a1 (decides a Cannonrider's powers).
    pub dark: Bitboard<W>,
    /// The files either side of each file (evaluation: isolated and passed pawns).
    pub adjacent_files: Vec<Bitboard<W>>,
    /// Per colour, the ranks strictly ahead of each rank from that colour's side.
    pub ranks_ahead: [Vec<Bitboard<W>>; 2],
    /// Empty-board rook and bishop lines from every square, for finding pinners.
    rook_lines: Vec<Bitboard<W>>,
    bishop_lines: Vec<Bitboard<W>>,
    /// [`eval::piece_square`] and the phase weight for every colour, role and square of the
    /// board (zero off the board: Chesstonia's machinery squares), so that the position can
    /// keep their sums as pieces come and go.
    piece_squares: Vec<(Tapered, i32)>,
}

impl<W: BitWord> ChessTables<W> {
    pub fn new(geo: Geometry<W>) -> Self {
        Self::with_extra(geo, Bitboard::EMPTY, Bitboard::EMPTY)
    }

    /// Tables of a board whose variant keeps pieces on `extra` squares outside `geo`.
    pub fn with_extra(geo: Geometry<W>, extra: Bitboard<W>, load_squares: Bitboard<W>) -> Self {
        let rays = Rays::new(&geo);
        let white_pawn = [Offset::new(-1, 1), Offset::new(1, 1)];
        let black_pawn = [Offset::new(-1, -1), Offset::new(1, -1)];
        let mut rook_lines = vec![Bitboard::EMPTY; geo.size()];
        let mut bishop_lines = vec![Bitboard::EMPTY; geo.size()];
        for sq in geo.valid() {
            rook_lines[sq.index()] = rays.rook_attacks(sq, Bitboard::EMPTY);
            bishop_lines[sq.index()] = rays.bishop_attacks(sq, Bitboard::EMPTY);
        }
        let dark = geo
            .valid()
            .into_iter()
            .filter(|&s| (geo.file_of(s) + geo.rank_of(s)) % 2 == 1)
            .collect();
        let files = geo.files();
        let ranks = geo.ranks();
        let adjacent_files = (0..files)
            .map(|f| {
                (f.saturating_sub(1)..=(f + 1).min(files - 1))
                    .filter(|&g| g != f)
                    .fold(Bitboard::EMPTY, |bb, g| bb | geo.file_mask(g))
            })
            .collect();
        let ahead = |white: bool| -> Vec<Bitboard<W>> {
            (0..ranks)
                .map(|r| {
                    (0..ranks)
                        .filter(|&q| if white { q > r } else { q < r })
                        .fold(Bitboard::EMPTY, |bb, q| bb | geo.rank_mask(q))
                })
                .collect()
        };
        let ranks_ahead = [ahead(true), ahead(false)];
        let mut piece_squares = vec![(Tapered::default(), 0); 2 * Role::COUNT * SQUARE_CODES];
        for color in [Color::White, Color::Black] {
            for r in 0..Role::COUNT {
                let role = Role::from_index(r);
                for sq in geo.valid() {
                    piece_squares[Self::piece_square_index(color, role, sq)] = (
                        eval::piece_square(&geo, color, role, sq),
                        eval::phase_weight(role),
                    );
                }
            }
        }
        ChessTables {
            piece_squares,
            adjacent_files,
            ranks_ahead,
            dark,
            knight: LeaperTable::new(&geo, &KNIGHT_LEAPS),
            king: LeaperTable::new(&geo, &KING_STEPS),
            wazir: LeaperTable::new(&geo, &ORTHOGONAL),
            ferz: LeaperTable::new(&geo, &DIAGONAL),
            extra,
            load_squares,
            pawn_attacks: [
                LeaperTable::new(&geo, &white_pawn),
                LeaperTable::new(&geo, &black_pawn),
            ],
            keys: ChessKeys::new(),
            rays,
            rook_lines,
            bishop_lines,
            geo,
        }
    }

    #[inline(always)]
    fn piece_square_index(color: Color, role: Role, sq: Square) -> usize {
        (color.index() * Role::COUNT + role.index()) * SQUARE_CODES + sq.index()
    }

    /// Material and placement of a piece on a square (see [`eval::piece_square`]), white's
    /// point of view, and what it adds to the game phase; nothing off the board.
    #[inline(always)]
    pub fn piece_square(&self, color: Color, role: Role, sq: Square) -> (Tapered, i32) {
        self.piece_squares[Self::piece_square_index(color, role, sq)]
    }

    #[inline(always)]
    pub fn rook_line(&self, sq: Square) -> Bitboard<W> {
        self.rook_lines[sq.index()]
    }

    #[inline(always)]
    pub fn bishop_line(&self, sq: Square) -> Bitboard<W> {
        self.bishop_lines[sq.index()]
    }

    /// The most squares `reach` gives from one square of the board.
    pub fn most_squares(&self, reach: impl Fn(Square) -> Bitboard<W>) -> usize {
        let counts = self.geo.valid().into_iter().map(|sq| reach(sq).count());
        counts.max().unwrap_or(0) as usize
    }

    /// Whether a pawn of `us` on `sq` is passed: no pawn among `theirs` ahead of it on its file
    /// or the files beside it, and none among `own` ahead of it on its file (of doubled pawns
    /// only the front one is passed).
    pub fn is_passed(&self, us: Color, sq: Square, own: Bitboard<W>, theirs: Bitboard<W>) -> bool {
        let f = self.geo.file_of(sq);
        let file = self.geo.file_mask(f);
        let ahead = self.ranks_ahead[us.index()][self.geo.rank_of(sq)];
        (own & file & ahead).is_empty()
            && (theirs & (file | self.adjacent_files[f]) & ahead).is_empty()
    }

    /// The step a pawn of `color` makes forward.
    #[inline(always)]
    pub fn forward(&self, color: Color) -> Offset {
        Offset::new(0, color.sign() as i8)
    }
}
