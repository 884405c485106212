//! Board shape: files, ranks and holes, and the set operations that depend on it.
//!
//! Squares are numbered `rank * files + file`, rank 0 on white's side, so that every board up to
//! 128 squares packs densely into one word and "one rank up" is a shift by `files`.

use super::bitboard::Bitboard;
use super::square::Square;
use super::word::BitWord;

/// The largest board any game uses.
pub const MAX_FILES: usize = 12;
pub const MAX_RANKS: usize = 10;

/// A step on the board, in files and ranks.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Offset {
    pub df: i8,
    pub dr: i8,
}

impl Offset {
    pub const fn new(df: i8, dr: i8) -> Self {
        Offset { df, dr }
    }
    /// The same step seen from the other side of the board.
    pub const fn flip_ranks(self) -> Self {
        Offset {
            df: self.df,
            dr: -self.dr,
        }
    }
}

/// The eight one-square directions, positive ones (index grows along them) first.
pub const NORTH: Offset = Offset::new(0, 1);
pub const EAST: Offset = Offset::new(1, 0);
pub const NORTH_EAST: Offset = Offset::new(1, 1);
pub const NORTH_WEST: Offset = Offset::new(-1, 1);
pub const SOUTH: Offset = Offset::new(0, -1);
pub const WEST: Offset = Offset::new(-1, 0);
pub const SOUTH_WEST: Offset = Offset::new(-1, -1);
pub const SOUTH_EAST: Offset = Offset::new(1, -1);

pub const ORTHOGONAL: [Offset; 4] = [NORTH, EAST, SOUTH, WEST];
pub const DIAGONAL: [Offset; 4] = [NORTH_EAST, NORTH_WEST, SOUTH_WEST, SOUTH_EAST];
pub const KING_STEPS: [Offset; 8] = [
    NORTH, EAST, NORTH_EAST, NORTH_WEST, SOUTH, WEST, SOUTH_WEST, SOUTH_EAST,
];
pub const KNIGHT_LEAPS: [Offset; 8] = [
    Offset::new(1, 2),
    Offset::new(2, 1),
    Offset::new(-1, 2),
    Offset::new(-2, 1),
    Offset::new(1, -2),
    Offset::new(2, -1),
    Offset::new(-1, -2),
    Offset::new(-2, -1),
];

/// Files, ranks and holes of one board, with per-file and per-rank masks.
#[derive(Clone, Debug)]
pub struct Geometry<W: BitWord> {
    files: u8,
    ranks: u8,
    /// Squares that exist (inside the rectangle and not a hole).
    valid: Bitboard<W>,
    file_masks: [Bitboard<W>; MAX_FILES],
    rank_masks: [Bitboard<W>; MAX_RANKS],
}

impl<W: BitWord> Geometry<W> {
    /// A rectangular board with the given holes, given as `(file, rank)` pairs.
    pub fn new(files: usize, ranks: usize, holes: &[(usize, usize)]) -> Self {
        assert!((1..=MAX_FILES).contains(&files) && (1..=MAX_RANKS).contains(&ranks));
        assert!(
            files * ranks <= W::BITS as usize,
            "board does not fit the word"
        );
        let mut file_masks = [Bitboard::EMPTY; MAX_FILES];
        let mut rank_masks = [Bitboard::EMPTY; MAX_RANKS];
        let mut valid = Bitboard::EMPTY;
        for index in 0..files * ranks {
            let (f, r) = (index % files, index / files);
            if holes.contains(&(f, r)) {
                continue;
            }
            let sq = Square::new(index as u8);
            valid.set(sq);
            file_masks[f].set(sq);
            rank_masks[r].set(sq);
        }
        Geometry {
            files: files as u8,
            ranks: ranks as u8,
            valid,
            file_masks,
            rank_masks,
        }
    }

    #[inline(always)]
    pub fn files(&self) -> usize {
        self.files as usize
    }
    #[inline(always)]
    pub fn ranks(&self) -> usize {
        self.ranks as usize
    }
    /// Number of square indices (holes included).
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.files as usize * self.ranks as usize
    }
    /// The squares that exist.
    #[inline(always)]
    pub fn valid(&self) -> Bitboard<W> {
        self.valid
    }
    #[inline(always)]
    pub fn is_valid(&self, sq: Square) -> bool {
        sq.index() < self.size() && self.valid.contains(sq)
    }
    #[inline(always)]
    pub fn file_mask(&self, file: usize) -> Bitboard<W> {
        self.file_masks[file]
    }
    #[inline(always)]
    pub fn rank_mask(&self, rank: usize) -> Bitboard<W> {
        self.rank_masks[rank]
    }
    #[inline(always)]
    pub fn file_of(&self, sq: Square) -> usize {
        sq.index() % self.files as usize
    }
    #[inline(always)]
    pub fn rank_of(&self, sq: Square) -> usize {
        sq.index() / self.files as usize
    }
    /// The square at `(file, rank)`, if it is inside the rectangle (it may be a hole).
    #[inline]
    pub fn square(&self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            None
        } else {
            Some(Square::new((rank * self.files as i32 + file) as u8))
        }
    }
    /// The square one `offset` away from `sq`, if it exists and is not a hole.
    #[inline]
    pub fn step(&self, sq: Square, offset: Offset) -> Option<Square> {
        let to = self.square(
            self.file_of(sq) as i32 + offset.df as i32,
            self.rank_of(sq) as i32 + offset.dr as i32,
        )?;
        self.valid.contains(to).then_some(to)
    }

    /// Rank counted from `white`'s side when `white`, else from black's side.
    #[inline(always)]
    pub fn relative_rank(&self, sq: Square, white: bool) -> usize {
        let r = self.rank_of(sq);
        if white {
            r
        } else {
            self.ranks as usize - 1 - r
        }
    }

    /// Every square of the set moved by `offset`; squares that would leave the board or land
    /// on a hole disappear. This is the bitboard form of [`Geometry::step`].
    #[inline]
    pub fn shift(&self, bb: Bitboard<W>, offset: Offset) -> Bitboard<W> {
        // Keep only the sources whose file stays inside the board, then shift the whole word.
        let mut src = bb;
        if offset.df > 0 {
            for f in (self.files as usize - offset.df as usize)..self.files as usize {
                src &= !self.file_masks[f];
            }
        } else if offset.df < 0 {
            for f in 0..(-offset.df) as usize {
                src &= !self.file_masks[f];
            }
        }
        let delta = offset.df as i32 + offset.dr as i32 * self.files as i32;
        let moved = if delta >= 0 {
            src << delta as u32
        } else {
            src >> (-delta) as u32
        };
        moved & self.valid
    }

    /// The name of a square: file letter, then rank from 1 (or from 0 when `zero_based_ranks`).
    pub fn square_name(&self, sq: Square, zero_based_ranks: bool) -> String {
        let file = (b'a' + self.file_of(sq) as u8) as char;
        let rank = self.rank_of(sq) + usize::from(!zero_based_ranks);
        format!("{file}{rank}")
    }

    /// Reads a square name at the start of `s`; returns the square and the bytes used.
    pub fn parse_square(&self, s: &str, zero_based_ranks: bool) -> Option<(Square, usize)> {
        let (file, rank, used) = read_square_name(s, zero_based_ranks)?;
        let sq = self.square(file as i32, rank as i32)?;
        self.valid.contains(sq).then_some((sq, used))
    }
}

/// Reads a square name at the start of `s`, a file letter and a rank of one or two digits
/// (counted from 0 when `zero_based_ranks`, else from 1), whatever the board: returns the file
/// and rank, both from 0, and the bytes used.
pub fn read_square_name(s: &str, zero_based_ranks: bool) -> Option<(usize, usize, usize)> {
    let bytes = s.as_bytes();
    let f = *bytes.first()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let shown: usize = s[1..1 + digits].parse().ok()?;
    let rank = if zero_based_ranks {
        shown
    } else {
        shown.checked_sub(1)?
    };
    Some(((f - b'a') as usize, rank, 1 + digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_drops_squares_that_leave_the_board_or_hit_holes() {
        // 10x8 with the Gustavian holes a2..a7, j2..j7.
        let holes: Vec<_> = (1..7).flat_map(|r| [(0, r), (9, r)]).collect();
        let g = Geometry::<u128>::new(10, 8, &holes);
        let a1 = g.square(0, 0).unwrap();
        let j1 = g.square(9, 0).unwrap();
        assert!(!g.is_valid(g.square(0, 1).unwrap()));
        assert!(g.shift(Bitboard::from_square(a1), NORTH).is_empty());
        assert!(g.shift(Bitboard::from_square(j1), EAST).is_empty());
        assert!(g
            .shift(Bitboard::from_square(j1), WEST)
            .contains(g.square(8, 0).unwrap()));
        // Shifting the whole board north loses rank 8 and everything that lands in a hole.
        let up = g.shift(g.valid(), NORTH);
        assert_eq!(up.count(), g.valid().count() - 10 - 1 - 1);
    }

    #[test]
    fn square_names_round_trip_with_both_rank_conventions() {
        let g = Geometry::<u128>::new(10, 10, &[]);
        for sq in g.valid() {
            for zero in [false, true] {
                let name = g.square_name(sq, zero);
                assert_eq!(g.parse_square(&name, zero), Some((sq, name.len())));
            }
        }
        let j10 = g.parse_square("j10", false).unwrap().0;
        assert_eq!((g.file_of(j10), g.rank_of(j10)), (9, 9));
        assert_eq!(g.parse_square("k1", false), None);
        assert_eq!(g.parse_square("a11", false), None);
    }
}
