//! Correction history: how far the static evaluation missed the searched value, remembered by
//! the position's skeleton (`Game::structure_key`, the pawns of each side).
//!
//! A hand-written evaluation misjudges some structures (a weak pawn it does not see, a blocked
//! centre it overrates) and then misjudges every position that has them. After each search of a
//! node whose value says something about the static value (an exact value, or a bound on the
//! right side of it), the entry of the node's structure moves toward the difference, weighted by
//! depth; later static values of that structure are shifted by the entry. The pruning that
//! compares static values with alpha and beta then errs less. (The idea is Stockfish's
//! "correction history"; the update here is a plain moving average toward the difference.)

use crate::board::Color;

/// Entries per side to move (a power of two).
const ENTRIES: usize = 1 << 14;
/// Entries hold centipawns times `GRAIN`, so that small weights still move them.
const GRAIN: i32 = 64;
/// No correction beyond this many centipawns: a structure's entry corrects, it must not
/// replace the evaluation.
const MAX_CORRECTION: i32 = 200;
/// The largest weight of one update, out of 256.
const MAX_WEIGHT: i32 = 32;

/// One thread's correction table, kept between searches with the other histories.
pub struct CorrectionHistory {
    table: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            table: vec![0; 2 * ENTRIES],
        }
    }
}

impl CorrectionHistory {
    /// Zeroes every entry, as a new table holds.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    #[inline]
    fn index(side: Color, key: u64) -> usize {
        side.index() * ENTRIES + (key >> 50) as usize % ENTRIES
    }

    /// The correction, in centipawns, for a structure with the side to move.
    #[inline]
    pub fn get(&self, side: Color, key: u64) -> i32 {
        self.table[Self::index(side, key)] / GRAIN
    }

    /// A search to `depth` found `diff` centipawns more than the uncorrected static value.
    #[inline]
    pub fn update(&mut self, side: Color, key: u64, diff: i32, depth: i32) {
        let target = diff.clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let e = &mut self.table[Self::index(side, key)];
        *e += (target - *e) * weight / 256;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_move_toward_what_searches_find_and_stay_bounded() {
        let mut c = CorrectionHistory::default();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(c.get(Color::White, key), 0);
        for _ in 0..200 {
            c.update(Color::White, key, 80, 10);
        }
        let v = c.get(Color::White, key);
        assert!((70..=80).contains(&v), "{v}");
        // The other side to move, and other structures, are untouched.
        assert_eq!(c.get(Color::Black, key), 0);
        assert_eq!(c.get(Color::White, key ^ (1 << 60)), 0);
        // A deeper search moves the entry further than a shallow one.
        let mut shallow = CorrectionHistory::default();
        let mut deep = CorrectionHistory::default();
        shallow.update(Color::White, key, -100, 1);
        deep.update(Color::White, key, -100, 12);
        assert!(deep.get(Color::White, key) < shallow.get(Color::White, key));
        // However large the surprise, the correction stays within its bound.
        for _ in 0..1000 {
            c.update(Color::White, key, 5000, 30);
        }
        assert!(c.get(Color::White, key) <= MAX_CORRECTION);
    }
}
