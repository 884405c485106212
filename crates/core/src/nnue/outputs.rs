//! Output buckets: a net may hold one output layer (weights and bias) per *bucket* of the
//! number of men on the board, so that the same hidden units can be read one way in the
//! opening and another in the endgame (Stockfish's nets have eight, by piece count). The
//! feature transformer and the accumulators are shared by every bucket: choosing a bucket costs
//! a population count per evaluation, and the net file grows by one output layer per bucket.
//!
//! A layout is a count and a width: bucket `b` holds the positions of
//! `b * men_per_bucket + 1 ..= (b + 1) * men_per_bucket` men, the last bucket everything above.
//! The trainer chooses the width from the game's start position ([`OutputBuckets::for_game`]),
//! so that the buckets cover the men a game can have; both numbers are stored in the net file
//! (bytes 62 and 63 of the header; `docs/nnue.md`, "Output buckets") and the game only answers
//! how many men stand on its board ([`crate::nnue::NnueFeatures::nnue_men`]).

use std::fmt;

/// The most output buckets a net may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;

/// How a net's output layers are chosen by the men on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OutputBuckets {
    count: u8,
    /// 0 with one bucket (nothing to divide).
    men_per_bucket: u8,
}

impl Default for OutputBuckets {
    fn default() -> Self {
        OutputBuckets::ONE
    }
}

impl OutputBuckets {
    /// One output layer for every position (every net before output buckets).
    pub const ONE: OutputBuckets = OutputBuckets {
        count: 1,
        men_per_bucket: 0,
    };

    /// `count` buckets of `men_per_bucket` men each; `None` unless `count` is 1 (and the width
    /// 0) or 2 to [`MAX_OUTPUT_BUCKETS`] with a width of at least 1.
    pub fn new(count: usize, men_per_bucket: usize) -> Option<OutputBuckets> {
        match (count, men_per_bucket) {
            (1, 0) => Some(OutputBuckets::ONE),
            (2..=MAX_OUTPUT_BUCKETS, 1..=255) => Some(OutputBuckets {
                count: count as u8,
                men_per_bucket: men_per_bucket as u8,
            }),
            _ => None,
        }
    }

    /// `count` buckets that share out the `start_men` men of the game's start position: each
    /// `ceil(start_men / count)` wide (at least one man), so that the start position is in the
    /// last bucket and a bare board in the first.
    ///
    /// # Panics
    /// If `count` is 0 or above [`MAX_OUTPUT_BUCKETS`] (the caller checks).
    pub fn for_game(count: usize, start_men: u32) -> OutputBuckets {
        assert!((1..=MAX_OUTPUT_BUCKETS).contains(&count), "output buckets");
        if count == 1 {
            return OutputBuckets::ONE;
        }
        let width = (start_men as usize).div_ceil(count).clamp(1, 255);
        OutputBuckets::new(count, width).expect("a valid layout")
    }

    /// The header's two bytes: the count (0 read as 1, as every older net has there) and the
    /// width.
    pub fn from_header(count: u8, men_per_bucket: u8) -> Option<OutputBuckets> {
        OutputBuckets::new(usize::from(count.max(1)), usize::from(men_per_bucket))
    }

    /// The header's two bytes; a net of one bucket writes zeros, byte for byte an older net.
    pub fn header(self) -> [u8; 2] {
        if self.count == 1 {
            [0, 0]
        } else {
            [self.count, self.men_per_bucket]
        }
    }

    pub fn count(self) -> usize {
        usize::from(self.count)
    }

    pub fn men_per_bucket(self) -> usize {
        usize::from(self.men_per_bucket)
    }

    pub fn is_bucketed(self) -> bool {
        self.count > 1
    }

    /// The bucket of a position with `men` men on the board.
    #[inline(always)]
    pub fn bucket(self, men: u32) -> usize {
        if self.count == 1 {
            return 0;
        }
        let b = men.saturating_sub(1) as usize / usize::from(self.men_per_bucket);
        b.min(usize::from(self.count) - 1)
    }
}

impl fmt::Display for OutputBuckets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 1 {
            write!(f, "one output")
        } else {
            write!(
                f,
                "{} output buckets of {} men",
                self.count, self.men_per_bucket
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_start_fills_eight_buckets_of_four() {
        let b = OutputBuckets::for_game(8, 32);
        assert_eq!((b.count(), b.men_per_bucket()), (8, 4));
        // 1-4 men: bucket 0; 29-32: bucket 7; more than the start (a game with drops or
        // placements): still the last.
        assert_eq!(b.bucket(2), 0);
        assert_eq!(b.bucket(4), 0);
        assert_eq!(b.bucket(5), 1);
        assert_eq!(b.bucket(28), 6);
        assert_eq!(b.bucket(29), 7);
        assert_eq!(b.bucket(32), 7);
        assert_eq!(b.bucket(60), 7);
        assert_eq!(b.bucket(0), 0);
    }

    #[test]
    fn an_uneven_start_still_puts_the_start_in_the_last_bucket() {
        // 40 men in 6 buckets: 7 each (ceil), so 36-42 is bucket 5.
        let b = OutputBuckets::for_game(6, 40);
        assert_eq!(b.men_per_bucket(), 7);
        assert_eq!(b.bucket(40), 5);
        assert_eq!(b.bucket(35), 4);
    }

    #[test]
    fn one_bucket_is_the_zero_header_of_older_nets() {
        assert_eq!(OutputBuckets::ONE.header(), [0, 0]);
        assert_eq!(OutputBuckets::from_header(0, 0), Some(OutputBuckets::ONE));
        assert_eq!(OutputBuckets::from_header(1, 0), Some(OutputBuckets::ONE));
        let b = OutputBuckets::for_game(8, 32);
        assert_eq!(
            OutputBuckets::from_header(b.header()[0], b.header()[1]),
            Some(b)
        );
        // A width without buckets, buckets without a width, too many buckets: refused.
        assert_eq!(OutputBuckets::from_header(0, 4), None);
        assert_eq!(OutputBuckets::from_header(8, 0), None);
        assert_eq!(OutputBuckets::from_header(17, 4), None);
    }
}
