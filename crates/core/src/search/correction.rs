//! Correction history: how far the static evaluation missed the searched value, remembered by
//! the position's skeleton (`Game::structure_key`, the pawns of each side) and by the last two
//! moves of the line (a hash of their piece kinds and target squares).
//!
//! A hand-written evaluation misjudges some structures (a weak pawn it does not see, a blocked
//! centre it overrates) and then misjudges every position that has them. After each search of a
//! node whose value says something about the static value (an exact value, or a bound on the
//! right side of it), the entry of the node's structure moves toward the difference, weighted by
//! depth; later static values of that structure are shifted by the entry. The pruning that
//! compares static values with alpha and beta then errs less. The move-pair entry does the same
//! for what a particular exchange of moves leaves (a recapture the evaluation misprices, a piece
//! left hanging), whatever the pawns. (The ideas are Stockfish's "correction history" and its
//! continuation correction; the update here moves each entry by a share of what the two
//! together still miss, which for one entry alone is a plain moving average.)

use crate::board::Color;

/// Entries per side to move (a power of two).
const ENTRIES: usize = 1 << 14;
/// Entries per side to move of the table keyed by the last two moves (a power of two).
const PAIR_ENTRIES: usize = 1 << 16;
/// Entries per side to move and colour of the pieces keyed (a power of two).
const PIECE_ENTRIES: usize = 1 << 14;
/// Entries per side to move of the table keyed by the minor pieces and kings (a power of two).
const MINOR_ENTRIES: usize = 1 << 14;
/// Entries per side to move of the table keyed by the heavy pieces and kings (a power of two).
const MAJOR_ENTRIES: usize = 1 << 14;
/// Entries hold centipawns times `GRAIN`, so that small weights still move them.
const GRAIN: i32 = 64;
/// No correction beyond this many centipawns: a structure's entry corrects, it must not
/// replace the evaluation.
const MAX_CORRECTION: i32 = 200;
/// The largest weight of one update, out of 256.
const MAX_WEIGHT: i32 = 32;

/// What a position is corrected by: each key it has picks one entry of its table.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct CorrectionKeys {
    /// The skeleton (`Game::structure_key`: the pawns of each side).
    pub skeleton: Option<u64>,
    /// The last two moves of the line (`pair`, see `alphabeta.rs`).
    pub pair: Option<u32>,
    /// Where each side's other pieces stand (`Game::piece_keys`, white's then black's).
    pub pieces: Option<[u64; 2]>,
    /// Where both sides' minor pieces and kings stand (`Game::minor_key`).
    pub minor: Option<u64>,
    /// Where both sides' heavy pieces and kings stand (`Game::major_key`).
    pub major: Option<u64>,
}

impl CorrectionKeys {
    /// Whether the position has no key at all (then nothing corrects it).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.skeleton.is_none()
            && self.pair.is_none()
            && self.pieces.is_none()
            && self.minor.is_none()
            && self.major.is_none()
    }
}

/// Where each table starts in `CorrectionHistory::entries`: the skeleton's, the move pair's,
/// the pieces', the minor pieces', the heavy pieces'.
const SKELETON_AT: usize = 0;
const PAIR_AT: usize = SKELETON_AT + 2 * ENTRIES;
const PIECES_AT: usize = PAIR_AT + 2 * PAIR_ENTRIES;
const MINOR_AT: usize = PIECES_AT + 2 * 2 * PIECE_ENTRIES;
const MAJOR_AT: usize = MINOR_AT + 2 * MINOR_ENTRIES;
const TOTAL: usize = MAJOR_AT + 2 * MAJOR_ENTRIES;

/// One thread's correction tables, kept between searches with the other histories.
pub struct CorrectionHistory {
    /// The tables one after the other (see `SKELETON_AT`): keyed by the skeleton; by the
    /// last two moves of the line (a static value misjudges the position a particular exchange
    /// of moves leaves, whatever the pawns); by where one side's pieces other than pawns
    /// stand, one table per colour of those pieces (a misjudged placement of pieces, whatever
    /// the pawns and the other side do). Each table has a half per side to move.
    entries: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            entries: vec![0; TOTAL],
        }
    }
}

impl CorrectionHistory {
    /// Zeroes every entry, as a new table holds.
    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    /// The indices in `entries` of the position's entries (side to move `side`, `keys`):
    /// skeleton, move pair, white's pieces, black's pieces, minor pieces, heavy pieces; `None`
    /// for a key it does not have.
    #[inline]
    fn indices(side: Color, keys: &CorrectionKeys) -> [Option<usize>; 6] {
        let s = side.index();
        let piece = |colour: usize, k: u64| {
            PIECES_AT + (s * 2 + colour) * PIECE_ENTRIES + (k >> 50) as usize % PIECE_ENTRIES
        };
        [
            keys.skeleton
                .map(|k| SKELETON_AT + s * ENTRIES + (k >> 50) as usize % ENTRIES),
            keys.pair
                .map(|p| PAIR_AT + s * PAIR_ENTRIES + p as usize % PAIR_ENTRIES),
            keys.pieces.map(|[w, _]| piece(0, w)),
            keys.pieces.map(|[_, b]| piece(1, b)),
            keys.minor
                .map(|k| MINOR_AT + s * MINOR_ENTRIES + (k >> 50) as usize % MINOR_ENTRIES),
            keys.major
                .map(|k| MAJOR_AT + s * MAJOR_ENTRIES + (k >> 50) as usize % MAJOR_ENTRIES),
        ]
    }

    /// The sum of the position's entries, in `GRAIN`s (0 for a key it does not have).
    #[inline]
    fn sum(&self, idx: &[Option<usize>; 6]) -> i32 {
        idx.iter().flatten().map(|&i| self.entries[i]).sum()
    }

    /// The correction, in centipawns, for a position with the side to move `side` and the
    /// keys `keys`: the sum of its entries, within `MAX_CORRECTION`.
    #[inline]
    pub fn get(&self, side: Color, keys: &CorrectionKeys) -> i32 {
        (self.sum(&Self::indices(side, keys)) / GRAIN).clamp(-MAX_CORRECTION, MAX_CORRECTION)
    }

    /// A search to `depth` found `diff` centipawns more than the uncorrected static value.
    /// Each entry the position has moves by a share of what they together still miss, so
    /// that with one entry alone this is a moving average toward `diff`.
    #[inline]
    pub fn update(&mut self, side: Color, keys: &CorrectionKeys, diff: i32, depth: i32) {
        let target = diff.clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let idx = Self::indices(side, keys);
        let step = (target - self.sum(&idx)) * weight / 256;
        let bound = MAX_CORRECTION * GRAIN;
        for &i in idx.iter().flatten() {
            let e = &mut self.entries[i];
            *e = (*e + step).clamp(-bound, bound);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(skeleton: Option<u64>, pair: Option<u32>, pieces: Option<[u64; 2]>) -> CorrectionKeys {
        CorrectionKeys {
            skeleton,
            pair,
            pieces,
            minor: None,
            major: None,
        }
    }

    #[test]
    fn entries_move_toward_what_searches_find_and_stay_bounded() {
        let mut c = CorrectionHistory::default();
        let key = 0x1234_5678_9abc_def0;
        let k = keys(Some(key), None, None);
        assert_eq!(c.get(Color::White, &k), 0);
        for _ in 0..200 {
            c.update(Color::White, &k, 80, 10);
        }
        let v = c.get(Color::White, &k);
        assert!((70..=80).contains(&v), "{v}");
        // The other side to move, and other structures, are untouched.
        assert_eq!(c.get(Color::Black, &k), 0);
        assert_eq!(
            c.get(Color::White, &keys(Some(key ^ (1 << 60)), None, None)),
            0
        );
        // A deeper search moves the entry further than a shallow one.
        let mut shallow = CorrectionHistory::default();
        let mut deep = CorrectionHistory::default();
        shallow.update(Color::White, &k, -100, 1);
        deep.update(Color::White, &k, -100, 12);
        assert!(deep.get(Color::White, &k) < shallow.get(Color::White, &k));
        // However large the surprise, the correction stays within its bound.
        for _ in 0..1000 {
            c.update(Color::White, &k, 5000, 30);
        }
        assert!(c.get(Color::White, &k) <= MAX_CORRECTION);
    }

    #[test]
    fn structure_and_move_pair_together_correct_once() {
        let mut c = CorrectionHistory::default();
        let key = 0x0fed_cba9_8765_4321;
        for _ in 0..300 {
            c.update(Color::Black, &keys(Some(key), Some(77), None), 90, 10);
        }
        // The two entries share the miss: their sum, not each, comes to it.
        let both = c.get(Color::Black, &keys(Some(key), Some(77), None));
        assert!((80..=90).contains(&both), "{both}");
        let alone = c.get(Color::Black, &keys(Some(key), None, None));
        assert!(alone > 0 && alone < both, "{alone} {both}");
        // A pair alone (a game without a structure key) is corrected too.
        let mut p = CorrectionHistory::default();
        for _ in 0..300 {
            p.update(Color::White, &keys(None, Some(5), None), -60, 8);
        }
        let v = p.get(Color::White, &keys(None, Some(5), None));
        assert!((-60..=-50).contains(&v), "{v}");
        assert_eq!(p.get(Color::White, &keys(None, Some(6), None)), 0);
        assert_eq!(p.get(Color::Black, &keys(None, Some(5), None)), 0);
    }

    #[test]
    fn each_sides_pieces_are_corrected_apart_and_with_the_rest() {
        let mut c = CorrectionHistory::default();
        let (white, black) = (0x1111_2222_3333_4444, 0x5555_6666_7777_8888);
        let all = keys(Some(99 << 52), Some(3), Some([white, black]));
        for _ in 0..400 {
            c.update(Color::White, &all, -120, 12);
        }
        // All four entries together come to the miss, none of them alone.
        let v = c.get(Color::White, &all);
        assert!((-120..=-110).contains(&v), "{v}");
        let whites = c.get(Color::White, &keys(None, None, Some([white, 7 << 50])));
        assert!(whites < 0 && whites > v, "{whites} {v}");
        // White's placement with another black placement keeps white's share; the same key
        // read as black's pieces is another entry.
        assert_eq!(
            c.get(Color::White, &keys(None, None, Some([black, white]))),
            0
        );
        // The other side to move has its own entries.
        assert_eq!(c.get(Color::Black, &all), 0);
        assert!(CorrectionKeys::default().is_empty());
        assert!(!keys(None, None, Some([0, 0])).is_empty());
    }

    #[test]
    fn the_minor_pieces_are_corrected_with_the_rest_and_alone() {
        let mut c = CorrectionHistory::default();
        let minor = 0x2468_ace0_1357_9bdf;
        let with = CorrectionKeys {
            minor: Some(minor),
            ..keys(Some(5 << 51), Some(9), None)
        };
        for _ in 0..400 {
            c.update(Color::Black, &with, 75, 10);
        }
        let v = c.get(Color::Black, &with);
        assert!((65..=75).contains(&v), "{v}");
        let alone = CorrectionKeys {
            minor: Some(minor),
            ..CorrectionKeys::default()
        };
        assert!(!alone.is_empty());
        let share = c.get(Color::Black, &alone);
        assert!(share > 0 && share < v, "{share} {v}");
        // Another placement of the minor pieces, or the other side to move, has its own entry.
        let other = CorrectionKeys {
            minor: Some(minor ^ (1 << 55)),
            ..CorrectionKeys::default()
        };
        assert_eq!(c.get(Color::Black, &other), 0);
        assert_eq!(c.get(Color::White, &alone), 0);
        // The heavy pieces' key of the same value is another entry.
        let major = CorrectionKeys {
            major: Some(minor),
            ..CorrectionKeys::default()
        };
        assert!(!major.is_empty());
        assert_eq!(c.get(Color::Black, &major), 0);
    }
}
