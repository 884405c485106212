//! King buckets: a net's feature transformer may hold one set of rows per *bucket* of the
//! perspective's own king square, so that "my knight on f3" can weigh differently with the king
//! castled short or long. Feature `f` of a game with `F` features becomes row
//! `bucket * F + f`, the bucket being the layout's answer for the perspective's king square as
//! that perspective sees the board ([`KingSquare`]).
//!
//! The layouts are a small fixed set ([`KingBuckets`]), named in the trainer's
//! `--king-buckets` option and stored as a code in the net file's header (`docs/nnue.md`, "King
//! buckets"). Each maps a square of a board of any size, so one layout serves every game that
//! can say where a perspective's king stands
//! ([`crate::nnue::NnueFeatures::nnue_king`]).

use std::fmt;
use std::str::FromStr;

/// A king's square as its own side sees the board (the view the game's features use): file and
/// rank counted from 0 at that side's left and back rank, on a board of `files` x `ranks`
/// squares (the playing board, not the word around it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct KingSquare {
    pub file: u8,
    pub rank: u8,
    pub files: u8,
    pub ranks: u8,
}

/// The named king-bucket layouts. The discriminant is the code stored in the net file (byte 61
/// of the header); `None` is code 0, which every net written before the layouts existed has
/// there.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum KingBuckets {
    /// One bucket: the rows do not depend on the king (every net before king buckets).
    #[default]
    None = 0,
    /// Two buckets: the king on the left half of the files (0), or on the right half (1). On a
    /// board with an odd number of files the middle file belongs to the left half.
    Halves = 1,
    /// Four buckets: [`KingBuckets::Halves`]' left or right half, plus 2 when the king stands
    /// beyond its own two back ranks (0, 1: home, left and right; 2, 3: up the board).
    Zones4 = 2,
    /// One set of rows, the board mirrored left to right for a perspective whose king stands
    /// on the left half of the files (strictly: on a board with an odd number of files the
    /// middle file is not mirrored), so that a king on either wing sees its own wing the same
    /// way. No more rows than [`KingBuckets::None`]; each wing learns from the other's
    /// positions (Stockfish's "horizontal mirroring").
    Mirror = 3,
}

/// Where a perspective's rows come from, given its king: the bucket (set of rows) and whether
/// its features are mirrored left to right first. A perspective's accumulator is refreshed when
/// this changes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct KingView {
    pub bucket: usize,
    pub mirrored: bool,
}

impl KingBuckets {
    /// Every layout, in code order.
    pub const ALL: [KingBuckets; 4] = [
        KingBuckets::None,
        KingBuckets::Halves,
        KingBuckets::Zones4,
        KingBuckets::Mirror,
    ];

    /// The layout stored as `code` in a net file, if there is one.
    pub fn from_code(code: u8) -> Option<KingBuckets> {
        KingBuckets::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The code stored in the net file.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The name used by `--king-buckets` and in messages.
    pub fn name(self) -> &'static str {
        match self {
            KingBuckets::None => "none",
            KingBuckets::Halves => "halves",
            KingBuckets::Zones4 => "zones4",
            KingBuckets::Mirror => "mirror",
        }
    }

    /// How many buckets (sets of feature transformer rows) the layout has.
    pub fn count(self) -> usize {
        match self {
            KingBuckets::None | KingBuckets::Mirror => 1,
            KingBuckets::Halves => 2,
            KingBuckets::Zones4 => 4,
        }
    }

    /// Whether the layout has more than one bucket (more than one set of rows).
    #[inline(always)]
    pub fn is_bucketed(self) -> bool {
        self.count() > 1
    }

    /// Whether the king's square matters at all (a bucket or a mirror): only games that say
    /// where their kings stand take such a net.
    #[inline(always)]
    pub fn uses_king(self) -> bool {
        self != KingBuckets::None
    }

    /// The bucket of a king on `king` (below [`KingBuckets::count`]).
    #[inline]
    pub fn bucket(self, king: KingSquare) -> usize {
        let right = usize::from(2 * u32::from(king.file) >= u32::from(king.files));
        match self {
            KingBuckets::None | KingBuckets::Mirror => 0,
            KingBuckets::Halves => right,
            KingBuckets::Zones4 => right + 2 * usize::from(king.rank >= 2),
        }
    }

    /// Whether a perspective with its king on `king` sees the board mirrored left to right:
    /// under [`KingBuckets::Mirror`], a king strictly on the left half of the files.
    #[inline]
    pub fn mirrored(self, king: KingSquare) -> bool {
        self == KingBuckets::Mirror && 2 * u32::from(king.file) + 1 < u32::from(king.files)
    }

    /// The bucket and the mirroring of a king on `king`.
    #[inline]
    pub fn view(self, king: KingSquare) -> KingView {
        KingView {
            bucket: self.bucket(king),
            mirrored: self.mirrored(king),
        }
    }
}

impl fmt::Display for KingBuckets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--king-buckets` value that names no layout.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
#[error("unknown king-bucket layout '{0}' (one of: none, halves, zones4, mirror)")]
pub struct UnknownLayout(pub String);

impl FromStr for KingBuckets {
    type Err = UnknownLayout;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        KingBuckets::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| UnknownLayout(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(file: u8, rank: u8, files: u8, ranks: u8) -> KingSquare {
        KingSquare {
            file,
            rank,
            files,
            ranks,
        }
    }

    #[test]
    fn layouts_map_hand_picked_squares() {
        use KingBuckets::*;
        // Chess: a..d is the left half, e..h the right; ranks 1-2 are home.
        for (file, rank, halves, zones) in [
            (4, 0, 1, 1), // e1
            (6, 0, 1, 1), // g1
            (2, 0, 0, 0), // c1
            (3, 1, 0, 0), // d2
            (0, 2, 0, 2), // a3
            (7, 7, 1, 3), // h8
            (4, 3, 1, 3), // e4
        ] {
            let k = on(file, rank, 8, 8);
            assert_eq!(None.bucket(k), 0);
            assert_eq!(Halves.bucket(k), halves, "{k:?}");
            assert_eq!(Zones4.bucket(k), zones, "{k:?}");
            // Mirror: one bucket, mirrored on a..d.
            assert_eq!(Mirror.bucket(k), 0);
            assert_eq!(Mirror.mirrored(k), file < 4, "{k:?}");
            for l in [None, Halves, Zones4] {
                assert!(!l.mirrored(k));
            }
        }
        // Nine files: the middle file e is not mirrored, d is; ten files: e is, f is not.
        assert!(!Mirror.mirrored(on(4, 0, 9, 9)));
        assert!(Mirror.mirrored(on(3, 0, 9, 9)));
        assert!(Mirror.mirrored(on(4, 0, 10, 8)));
        assert!(!Mirror.mirrored(on(5, 0, 10, 8)));
        // Ten files (Cannonrider): e is left, f right. Nine files: the middle file e is left.
        assert_eq!(Halves.bucket(on(4, 0, 10, 8)), 0);
        assert_eq!(Halves.bucket(on(5, 0, 10, 8)), 1);
        assert_eq!(Halves.bucket(on(4, 0, 9, 9)), 0);
        assert_eq!(Halves.bucket(on(5, 0, 9, 9)), 1);
        // Every bucket is below the count.
        for l in KingBuckets::ALL {
            for file in 0..12 {
                for rank in 0..10 {
                    assert!(l.bucket(on(file, rank, 12, 10)) < l.count());
                }
            }
        }
    }

    #[test]
    fn names_and_codes_round_trip() {
        for l in KingBuckets::ALL {
            assert_eq!(l.name().parse::<KingBuckets>(), Ok(l));
            assert_eq!(KingBuckets::from_code(l.code()), Some(l));
        }
        assert_eq!(KingBuckets::None.code(), 0);
        assert_eq!(KingBuckets::Mirror.code(), 3);
        assert_eq!(KingBuckets::from_code(4), Option::None);
        assert!("quarters".parse::<KingBuckets>().is_err());
    }
}
