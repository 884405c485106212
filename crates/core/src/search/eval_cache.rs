//! A per-thread cache of static evaluations by position key. The search evaluates the same
//! position again and again (after a transposition-table hit that gives no cutoff, at each
//! iteration, in quiescence), and an evaluation costs thousands of instructions while a cache
//! probe costs a few. The evaluation depends on the position alone (no clocks, no history), so a
//! cached value is the value: the search is the same with the cache as without, but for two
//! positions whose keys agree in the 48 bits the cache compares.

/// log2 of the entries: 64 K entries of 8 bytes, 512 KB, about what a core's L2 cache holds.
const BITS: u32 = 16;
const INDEX_MASK: u64 = (1 << BITS) - 1;
/// The key bits kept as the entry's tag; the low 16 bits hold the value.
const TAG_MASK: u64 = !0xFFFF;

pub struct EvalCache {
    entries: Vec<u64>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            entries: vec![0; 1 << BITS],
        }
    }
}

impl EvalCache {
    /// The cached value of the position with `key`, or `eval()` (then cached when it fits).
    #[inline]
    pub fn get_or(&mut self, key: u64, eval: impl FnOnce() -> i32) -> i32 {
        // Index and tag come from different bits of the key.
        let slot = &mut self.entries[((key >> 48) & INDEX_MASK) as usize];
        let tag = (key << 16) & TAG_MASK;
        if *slot != 0 && *slot & TAG_MASK == tag {
            return i32::from(*slot as u16 as i16);
        }
        let v = eval();
        if let Ok(small) = i16::try_from(v) {
            *slot = tag | u64::from(small as u16);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_value_comes_back_and_other_keys_are_not_confused() {
        let mut c = EvalCache::default();
        let mut calls = 0;
        let key = 0x1234_5678_9abc_def0;
        let mut eval = |v: i32| {
            calls += 1;
            v
        };
        assert_eq!(c.get_or(key, || eval(-137)), -137);
        assert_eq!(c.get_or(key, || eval(999)), -137, "second probe is a hit");
        // Same slot (same top 16 bits), other tag: a miss that replaces the entry.
        let other = key ^ 0x1;
        assert_eq!(c.get_or(other, || eval(55)), 55);
        assert_eq!(c.get_or(key, || eval(-137)), -137);
        assert_eq!(calls, 3);
    }

    #[test]
    fn values_beyond_sixteen_bits_are_not_cached_wrongly() {
        let mut c = EvalCache::default();
        let key = 0x0f0f_0f0f_0f0f_0f0f;
        assert_eq!(c.get_or(key, || 100_000), 100_000);
        assert_eq!(
            c.get_or(key, || 100_001),
            100_001,
            "not cached, evaluated again"
        );
    }
}
