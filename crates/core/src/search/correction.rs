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
    /// Keyed by the last two moves of the line (`pair`, see `alphabeta.rs`): a static value
    /// misjudges the position a particular exchange of moves leaves, whatever the pawns.
    pairs: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            table: vec![0; 2 * ENTRIES],
            pairs: vec![0; 2 * PAIR_ENTRIES],
        }
    }
}

impl CorrectionHistory {
    /// Zeroes every entry, as a new table holds.
    pub fn clear(&mut self) {
        self.table.fill(0);
        self.pairs.fill(0);
    }

    #[inline]
    fn index(side: Color, key: u64) -> usize {
        side.index() * ENTRIES + (key >> 50) as usize % ENTRIES
    }

    #[inline]
    fn pair_index(side: Color, pair: u32) -> usize {
        side.index() * PAIR_ENTRIES + pair as usize % PAIR_ENTRIES
    }

    /// Both entries, in `GRAIN`s: the structure's (`key`) and the last two moves' (`pair`),
    /// 0 for a key the position does not have.
    #[inline]
    fn entries(&self, side: Color, key: Option<u64>, pair: Option<u32>) -> (i32, i32) {
        (
            key.map_or(0, |k| self.table[Self::index(side, k)]),
            pair.map_or(0, |p| self.pairs[Self::pair_index(side, p)]),
        )
    }

    /// The correction, in centipawns, for a position with the side to move, its structure
    /// `key` and the last two moves `pair`: the two entries' sum, within `MAX_CORRECTION`.
    #[inline]
    pub fn get(&self, side: Color, key: Option<u64>, pair: Option<u32>) -> i32 {
        let (a, b) = self.entries(side, key, pair);
        ((a + b) / GRAIN).clamp(-MAX_CORRECTION, MAX_CORRECTION)
    }

    /// A search to `depth` found `diff` centipawns more than the uncorrected static value.
    /// Each entry the position has moves by a share of what the two together still miss, so
    /// that with one entry alone this is a moving average toward `diff`.
    #[inline]
    pub fn update(
        &mut self,
        side: Color,
        key: Option<u64>,
        pair: Option<u32>,
        diff: i32,
        depth: i32,
    ) {
        let target = diff.clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let (a, b) = self.entries(side, key, pair);
        let step = (target - a - b) * weight / 256;
        let bound = MAX_CORRECTION * GRAIN;
        if let Some(k) = key {
            let e = &mut self.table[Self::index(side, k)];
            *e = (*e + step).clamp(-bound, bound);
        }
        if let Some(p) = pair {
            let e = &mut self.pairs[Self::pair_index(side, p)];
            *e = (*e + step).clamp(-bound, bound);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_move_toward_what_searches_find_and_stay_bounded() {
        let mut c = CorrectionHistory::default();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(c.get(Color::White, Some(key), None), 0);
        for _ in 0..200 {
            c.update(Color::White, Some(key), None, 80, 10);
        }
        let v = c.get(Color::White, Some(key), None);
        assert!((70..=80).contains(&v), "{v}");
        // The other side to move, and other structures, are untouched.
        assert_eq!(c.get(Color::Black, Some(key), None), 0);
        assert_eq!(c.get(Color::White, Some(key ^ (1 << 60)), None), 0);
        // A deeper search moves the entry further than a shallow one.
        let mut shallow = CorrectionHistory::default();
        let mut deep = CorrectionHistory::default();
        shallow.update(Color::White, Some(key), None, -100, 1);
        deep.update(Color::White, Some(key), None, -100, 12);
        assert!(
            deep.get(Color::White, Some(key), None) < shallow.get(Color::White, Some(key), None)
        );
        // However large the surprise, the correction stays within its bound.
        for _ in 0..1000 {
            c.update(Color::White, Some(key), None, 5000, 30);
        }
        assert!(c.get(Color::White, Some(key), None) <= MAX_CORRECTION);
    }

    #[test]
    fn structure_and_move_pair_together_correct_once() {
        let mut c = CorrectionHistory::default();
        let key = 0x0fed_cba9_8765_4321;
        for _ in 0..300 {
            c.update(Color::Black, Some(key), Some(77), 90, 10);
        }
        // The two entries share the miss: their sum, not each, comes to it.
        let both = c.get(Color::Black, Some(key), Some(77));
        assert!((80..=90).contains(&both), "{both}");
        let alone = c.get(Color::Black, Some(key), None);
        assert!(alone > 0 && alone < both, "{alone} {both}");
        // A pair alone (a game without a structure key) is corrected too.
        let mut p = CorrectionHistory::default();
        for _ in 0..300 {
            p.update(Color::White, None, Some(5), -60, 8);
        }
        let v = p.get(Color::White, None, Some(5));
        assert!((-60..=-50).contains(&v), "{v}");
        assert_eq!(p.get(Color::White, None, Some(6)), 0);
        assert_eq!(p.get(Color::Black, None, Some(5)), 0);
    }
}
