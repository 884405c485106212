//! What is computed once for the Cannon board: the 10x10 geometry, the Zobrist keys and the
//! masks the move generator and evaluation use.

use super::shift_limit::{CANNON_IDS, MAX_SHIFTS};
use crate::board::geometry::{Offset, NORTH, SOUTH};
use crate::board::zobrist::SplitMix64;
use crate::board::{Bitboard, Color, Geometry, Square};
use std::sync::OnceLock;

/// Cannon's bitboards: 100 squares need a `u128`.
pub type Bb = Bitboard<u128>;

pub const FILES: usize = 10;
pub const RANKS: usize = 10;

/// Zobrist keys: a soldier or a town of either colour on a square, a town in hand, the side,
/// and a side's run of shifts of one cannon under the tournament shift rule (by count, 1 to 3,
/// and cannon; see `shift_limit.rs`).
#[derive(Debug)]
pub struct CannonKeys {
    soldier: [[u64; FILES * RANKS]; 2],
    town: [[u64; FILES * RANKS]; 2],
    pub hand: [u64; 2],
    pub side: u64,
    pub(crate) run: [[[u64; CANNON_IDS]; MAX_SHIFTS]; 2],
}

impl CannonKeys {
    fn new() -> Self {
        let mut rng = SplitMix64::new(0x0CA7_7070_5EED_0003);
        let mut soldier = [[0; FILES * RANKS]; 2];
        let mut town = [[0; FILES * RANKS]; 2];
        for table in soldier.iter_mut().chain(town.iter_mut()) {
            table.copy_from_slice(&rng.keys(FILES * RANKS));
        }
        let hand = [rng.next_u64(), rng.next_u64()];
        let side = rng.next_u64();
        // Drawn after the others, which stay what they were before the shift rule.
        let mut run = [[[0; CANNON_IDS]; MAX_SHIFTS]; 2];
        for table in run.iter_mut().flatten() {
            table.copy_from_slice(&rng.keys(CANNON_IDS));
        }
        CannonKeys {
            soldier,
            town,
            hand,
            side,
            run,
        }
    }

    #[inline(always)]
    pub fn soldier(&self, c: Color, sq: Square) -> u64 {
        self.soldier[c.index()][sq.index()]
    }

    #[inline(always)]
    pub fn town(&self, c: Color, sq: Square) -> u64 {
        self.town[c.index()][sq.index()]
    }
}

/// The board and everything derived from it.
#[derive(Debug)]
pub struct CannonTables {
    pub geo: Geometry<u128>,
    pub keys: CannonKeys,
    /// Where each side may place its town: its first rank without the corners.
    pub town_squares: [Bb; 2],
    /// Squares within 1, 2 and 4 king steps of each square (for town safety).
    pub zones: [[Bb; FILES * RANKS]; 3],
}

/// The distances of [`CannonTables::zones`].
pub const ZONE_STEPS: [usize; 3] = [1, 2, 4];

impl CannonTables {
    fn new() -> Self {
        let geo = Geometry::new(FILES, RANKS, &[]);
        let corners = geo.file_mask(0) | geo.file_mask(FILES - 1);
        let town_squares = [
            geo.rank_mask(0) & !corners,
            geo.rank_mask(RANKS - 1) & !corners,
        ];
        let mut tables = CannonTables {
            geo,
            keys: CannonKeys::new(),
            town_squares,
            zones: [[Bb::EMPTY; FILES * RANKS]; 3],
        };
        for (i, steps) in ZONE_STEPS.into_iter().enumerate() {
            for sq in tables.geo.valid() {
                let zone = (0..steps).fold(Bb::from_square(sq), |acc, _| tables.king_area(acc));
                tables.zones[i][sq.index()] = zone;
            }
        }
        tables
    }

    /// Shorthand for the geometry's shift.
    #[inline(always)]
    pub fn shift(&self, bb: Bb, d: Offset) -> Bb {
        self.geo.shift(bb, d)
    }

    /// The squares of `bb` and every square next to (one king step from) one of them.
    #[inline]
    pub fn king_area(&self, bb: Bb) -> Bb {
        // Spread along the rank first, then up and down: 4 shifts instead of 8.
        let row = bb
            | self.shift(bb, crate::board::geometry::EAST)
            | self.shift(bb, crate::board::geometry::WEST);
        row | self.shift(row, NORTH) | self.shift(row, SOUTH)
    }
}

/// The tables, built on first use.
pub fn tables() -> &'static CannonTables {
    static TABLES: OnceLock<CannonTables> = OnceLock::new();
    TABLES.get_or_init(CannonTables::new)
}

/// "Forward" for a side: toward the enemy's first rank.
#[inline(always)]
pub const fn forward(c: Color) -> Offset {
    match c {
        Color::White => NORTH,
        Color::Black => SOUTH,
    }
}

/// The index difference of one step `d` on this board (`to = from + delta`).
#[inline(always)]
pub const fn delta(d: Offset) -> i32 {
    d.df as i32 + d.dr as i32 * FILES as i32
}

/// The opposite step.
#[inline(always)]
pub const fn reverse(d: Offset) -> Offset {
    Offset::new(-d.df, -d.dr)
}
