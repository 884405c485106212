//! Everything about the 9x9 Cannon Shogi board that is computed once: geometry, rays, leaper
//! tables per colour, promotion zones, drop restrictions and Zobrist keys.

use super::piece::{Role, HAND_KINDS};
use crate::board::geometry::{Offset, DIAGONAL, KING_STEPS, ORTHOGONAL};
use crate::board::zobrist::SplitMix64;
use crate::board::{Bitboard, Color, Geometry, LeaperTable, Rays, Square};
use std::sync::OnceLock;

/// Cannon Shogi needs 81 squares: a `u128` board.
pub type BB = Bitboard<u128>;

pub const FILES: usize = 9;
pub const RANKS: usize = 9;
pub const SQUARES: usize = FILES * RANKS;

/// Hand counts are kept below this (a FEN asking for more is refused), so the hand keys of
/// every possible count exist.
pub const MAX_HAND: usize = 32;

/// Zobrist keys: pieces on squares, counts in hand, side to move.
#[derive(Debug)]
pub struct ShogiKeys {
    pieces: Vec<u64>,
    hands: Vec<u64>,
    pub side: u64,
}

impl ShogiKeys {
    fn new() -> Self {
        let mut rng = SplitMix64::new(0x5C0A_770D_0000_0009);
        let pieces = rng.keys(2 * Role::COUNT * SQUARES);
        let mut hands = rng.keys(2 * HAND_KINDS * MAX_HAND);
        // An empty hand adds nothing, so a position without hands keys like a board alone.
        for c in 0..2 {
            for k in 0..HAND_KINDS {
                hands[(c * HAND_KINDS + k) * MAX_HAND] = 0;
            }
        }
        ShogiKeys {
            pieces,
            hands,
            side: rng.next_u64(),
        }
    }

    #[inline(always)]
    pub fn piece(&self, color: Color, role: Role, sq: Square) -> u64 {
        self.pieces[(color.index() * Role::COUNT + role.index()) * SQUARES + sq.index()]
    }

    /// The key of holding `count` pieces of hand kind `kind`.
    #[inline(always)]
    pub fn hand(&self, color: Color, kind: usize, count: usize) -> u64 {
        self.hands[(color.index() * HAND_KINDS + kind) * MAX_HAND + count]
    }
}

/// A jump over an adjacent square: the square jumped over and the landing square.
#[derive(Copy, Clone, Debug)]
pub struct ShortJump {
    pub over: Square,
    pub to: Square,
}

/// Attack tables and keys of the Cannon Shogi board.
#[derive(Debug)]
pub struct ShogiTables {
    pub geo: Geometry<u128>,
    pub rays: Rays<u128>,
    /// All eight neighbours (king; also the short steps of dragon and horse).
    pub king: LeaperTable<u128>,
    /// One orthogonal step (the flying diagonal cannon's quiet step, the horse's extra step).
    pub wazir: LeaperTable<u128>,
    /// One diagonal step (the flying orthogonal cannon's quiet step, the dragon's extra step).
    pub ferz: LeaperTable<u128>,
    /// Colour-dependent steppers, indexed by colour.
    pub gold: [LeaperTable<u128>; 2],
    pub silver: [LeaperTable<u128>; 2],
    pub knight: [LeaperTable<u128>; 2],
    pub soldier: [LeaperTable<u128>; 2],
    /// Squares two steps away orthogonally / diagonally: where a short jump (`pR2`, `pB2`)
    /// lands.
    pub ring2_orth: Vec<BB>,
    pub ring2_diag: Vec<BB>,
    /// Short jumps from each square, orthogonal and diagonal.
    pub jumps_orth: Vec<Vec<ShortJump>>,
    pub jumps_diag: Vec<Vec<ShortJump>>,
    /// Squares within two king steps of each square (the king's neighbourhood for safety).
    pub king_zone: Vec<BB>,
    /// Empty-board rook and bishop lines from every square.
    pub rook_line: Vec<BB>,
    pub bishop_line: Vec<BB>,
    /// Both lines through each square: where a piece leaving can uncover a line attack on it.
    pub king_lines: Vec<BB>,
    /// The lines and the two-step neighbourhood of each square: every square from which some
    /// piece of the game can attack it (steppers and knights reach at most two steps, every
    /// other attack runs along a line).
    pub check_reach: Vec<BB>,
    /// The promotion zone of each colour (the far three ranks).
    pub zone: [BB; 2],
    /// The last rank / last two ranks seen from each colour: lances and knights cannot stay
    /// there unpromoted, nor be dropped there.
    pub last_rank: [BB; 2],
    pub last_two_ranks: [BB; 2],
    pub keys: ShogiKeys,
}

fn flip(offsets: &[Offset]) -> Vec<Offset> {
    offsets.iter().map(|o| o.flip_ranks()).collect()
}

fn jumps(geo: &Geometry<u128>, sq: Square, dirs: &[Offset]) -> Vec<ShortJump> {
    dirs.iter()
        .filter_map(|&d| {
            let over = geo.step(sq, d)?;
            let to = geo.step(over, d)?;
            Some(ShortJump { over, to })
        })
        .collect()
}

impl ShogiTables {
    fn new() -> Self {
        let geo = Geometry::<u128>::new(FILES, RANKS, &[]);
        let rays = Rays::new(&geo);
        let o = Offset::new;
        // White's forward is +rank; black's tables are the same steps flipped.
        let gold_w = [o(0, 1), o(1, 0), o(-1, 0), o(0, -1), o(1, 1), o(-1, 1)];
        let silver_w = [o(0, 1), o(1, 1), o(-1, 1), o(1, -1), o(-1, -1)];
        let knight_w = [o(1, 2), o(-1, 2)];
        let soldier_w = [o(0, 1), o(1, 0), o(-1, 0)];
        let both = |steps: &[Offset]| {
            [
                LeaperTable::new(&geo, steps),
                LeaperTable::new(&geo, &flip(steps)),
            ]
        };
        let ring = |dirs: &[Offset]| -> Vec<BB> {
            let doubled: Vec<Offset> = dirs.iter().map(|d| o(2 * d.df, 2 * d.dr)).collect();
            let t = LeaperTable::new(&geo, &doubled);
            (0..SQUARES).map(|s| t.get(Square::new(s as u8))).collect()
        };
        let all: Vec<Square> = geo.valid().squares().collect();
        let rank = |r: usize| geo.rank_mask(r);
        let zone = [rank(6) | rank(7) | rank(8), rank(0) | rank(1) | rank(2)];
        let king = LeaperTable::new(&geo, &KING_STEPS);
        let king_zone: Vec<BB> = all
            .iter()
            .map(|&s| {
                let near = king.get(s);
                near.squares().fold(near, |z, n| z | king.get(n))
            })
            .collect();
        let rook_line: Vec<BB> = all
            .iter()
            .map(|&s| rays.rook_attacks(s, Bitboard::EMPTY))
            .collect();
        let bishop_line: Vec<BB> = all
            .iter()
            .map(|&s| rays.bishop_attacks(s, Bitboard::EMPTY))
            .collect();
        let king_lines: Vec<BB> = (0..all.len())
            .map(|i| rook_line[i] | bishop_line[i])
            .collect();
        let check_reach = king_lines
            .iter()
            .zip(&king_zone)
            .map(|(&l, &z)| l | z)
            .collect();
        ShogiTables {
            king_zone,
            king,
            wazir: LeaperTable::new(&geo, &ORTHOGONAL),
            ferz: LeaperTable::new(&geo, &DIAGONAL),
            gold: both(&gold_w),
            silver: both(&silver_w),
            knight: both(&knight_w),
            soldier: both(&soldier_w),
            ring2_orth: ring(&ORTHOGONAL),
            ring2_diag: ring(&DIAGONAL),
            jumps_orth: all.iter().map(|&s| jumps(&geo, s, &ORTHOGONAL)).collect(),
            jumps_diag: all.iter().map(|&s| jumps(&geo, s, &DIAGONAL)).collect(),
            rook_line,
            bishop_line,
            king_lines,
            check_reach,
            zone,
            last_rank: [rank(8), rank(0)],
            last_two_ranks: [rank(7) | rank(8), rank(0) | rank(1)],
            keys: ShogiKeys::new(),
            rays,
            geo,
        }
    }

    /// The shared tables, built on first use.
    pub fn get() -> &'static ShogiTables {
        static TABLES: OnceLock<ShogiTables> = OnceLock::new();
        TABLES.get_or_init(ShogiTables::new)
    }
}
