//! Deterministic pseudo-random numbers for Zobrist keys.

/// SplitMix64: a tiny, well-mixed generator. Keys are fixed by the seed so that keys (and
/// therefore search node counts) are the same on every run.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.0)
    }

    /// `n` random keys.
    pub fn keys(&mut self, n: usize) -> Vec<u64> {
        (0..n).map(|_| self.next_u64()).collect()
    }
}

/// SplitMix64's finaliser: spreads every input bit over the whole word, so that any slice of
/// the result can index a table.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A key for a pair of square sets, one per colour (the pawns of each side): equal sets give
/// equal keys, and swapping the colours gives another key.
#[inline]
pub fn pair_key(white: u64, black: u64) -> u64 {
    mix64(white) ^ mix64(black ^ 0x9E37_79B9_7F4A_7C15).rotate_left(17)
}
