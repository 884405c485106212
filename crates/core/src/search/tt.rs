//! The transposition table, shared by every search thread without a lock.
//!
//! Each entry is two `AtomicU64`: the packed data, and the key XOR the data. A reader accepts an
//! entry only when `stored_key ^ data == key`, so an entry torn by two threads writing at once
//! (one word from each) fails the check and is treated as a miss instead of giving a wrong move
//! or score. All accesses are `Relaxed`: correctness never depends on ordering between entries.
//! Entries sit in buckets of four (one 64-byte cache line) and the bucket is chosen from the
//! high bits of `key * buckets`, so any size (not only powers of two) works.

use super::ordering::SearchTables;
use crate::games::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

/// What a stored score says about the true score.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at most this (every move failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// One probe result.
#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
/// Bytes of one bucket: four slots of two words, one cache line.
const BUCKET_BYTES: usize = ENTRIES_PER_BUCKET * 16;

/// One entry: the key XOR the data, and the data.
type Slot = [AtomicU64; 2];

/// Data word layout: move (32) | score (16) | depth (8) | bound (2) | age (6).
fn pack(mv: Move, score: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    u64::from(mv.to_bits())
        | u64::from(score as i16 as u16) << 32
        | u64::from(depth.clamp(0, 255) as u8) << 48
        | (bound as u64) << 56
        | u64::from(age & 63) << 58
}

fn unpack(data: u64) -> Option<(TtEntry, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let entry = TtEntry {
        mv: Move::from_bits(data as u32),
        score: i32::from((data >> 32) as u16 as i16),
        depth: i32::from((data >> 48) as u8),
        bound,
    };
    Some((entry, (data >> 58) as u8 & 63))
}

/// The shared table.
pub struct TranspositionTable {
    /// Every slot, `ENTRIES_PER_BUCKET` per bucket, from `first` on (so buckets start on a
    /// cache line whatever the allocator returned).
    slots: Box<[Slot]>,
    first: usize,
    buckets: usize,
    /// One bit per bucket, set when the bucket is written: [`Self::clear`] zeroes only the
    /// buckets written since the last clear. (A short search writes a few thousand of a 16 MB
    /// table's 262,144 buckets; `datagen` clears before every game and every opening tried.)
    dirty: Box<[AtomicU64]>,
    /// Bumped once per search, so entries of old searches are replaced first.
    age: AtomicU8,
    /// The move-ordering histories of the search threads, kept from one search to the next as
    /// the table is (see [`SearchTables`]); emptied with it.
    histories: Mutex<Vec<SearchTables>>,
}

/// `count` zeroed slots, or `None` when the memory cannot be had. The memory comes from the
/// allocator already zeroed (for a large table: fresh pages from the operating system), so a
/// table of any size is ready at once and becomes resident only as the search writes to it
/// (on Linux 2 MB at a time: [`super::huge_pages`]).
#[allow(unsafe_code)]
fn zeroed_slots(count: usize) -> Option<Box<[Slot]>> {
    if count == 0 {
        return Some(Box::new([]));
    }
    let layout = std::alloc::Layout::array::<Slot>(count).ok()?;
    // SAFETY: `layout` has a non-zero size. An all-zero `AtomicU64` is a valid value (it has
    // the in-memory representation of `u64`), so `count` zeroed slots are `count` valid
    // `Slot`s; the box frees them with the same layout (`Layout::array::<Slot>(count)`).
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<Slot>();
        if ptr.is_null() {
            return None;
        }
        // Every probe lands on a random cache line: huge pages spare the address translation.
        super::huge_pages::advise(ptr.cast_const().cast(), layout.size());
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
            ptr, count,
        )))
    }
}

/// A table size the machine cannot give.
#[derive(thiserror::Error, Clone, Copy, Debug, PartialEq, Eq)]
#[error("cannot allocate {mb} MB for the hash table")]
pub struct TableError {
    /// The size asked for, in MB.
    pub mb: usize,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    ///
    /// # Panics
    /// When the memory cannot be had; use [`TranspositionTable::try_new`] for sizes a user chose.
    pub fn new(mb: usize) -> Self {
        Self::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mb` megabytes, or an error when the memory cannot be had. Never
    /// panics and never aborts: a size the machine cannot give is refused.
    pub fn try_new(mb: usize) -> Result<Self, TableError> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let buckets = (bytes / BUCKET_BYTES).max(1);
        Self::with_buckets(buckets).ok_or(TableError { mb })
    }

    /// An empty table of `buckets` buckets, or `None` when the memory cannot be had.
    fn with_buckets(buckets: usize) -> Option<Self> {
        // Three slots more, to start the first bucket on a 64-byte boundary.
        let count = buckets
            .checked_mul(ENTRIES_PER_BUCKET)
            .and_then(|n| n.checked_add(ENTRIES_PER_BUCKET - 1));
        let slots = count.and_then(zeroed_slots)?;
        let mut dirty = Vec::new();
        let words = buckets.div_ceil(64);
        dirty.try_reserve_exact(words).ok()?;
        dirty.extend((0..words).map(|_| AtomicU64::new(0)));
        let misalign = (slots.as_ptr() as usize) % BUCKET_BYTES;
        let first = ((BUCKET_BYTES - misalign) % BUCKET_BYTES) / std::mem::size_of::<Slot>();
        Some(TranspositionTable {
            slots,
            first,
            buckets,
            dirty: dirty.into_boxed_slice(),
            age: AtomicU8::new(0),
            histories: Mutex::new(Vec::new()),
        })
    }

    /// Gives the table's memory back, then takes `mb` MB of fresh zeroed memory: the table
    /// is empty afterwards (histories too, as after [`Self::clear`]), it is ready at once at
    /// any size, and the old and the new memory are never held together. Should `mb` MB not
    /// be had, the old size is taken again (the memory just given back), or failing that the
    /// largest size that can be had; the error says so and [`Self::bytes`] tells the size.
    pub fn resize(&mut self, mb: usize) -> Result<(), TableError> {
        let old_buckets = self.buckets;
        // The old memory goes first.
        self.slots = Box::new([]);
        self.dirty = Box::new([]);
        self.buckets = 0;
        let err = match Self::try_new(mb) {
            Ok(t) => {
                *self = t;
                return Ok(());
            }
            Err(e) => e,
        };
        let mut buckets = old_buckets.max(1);
        *self = loop {
            if let Some(t) = Self::with_buckets(buckets) {
                break t;
            }
            if buckets == 1 {
                // Not even 112 bytes: out of memory as any allocation in the program can be.
                std::alloc::handle_alloc_error(
                    std::alloc::Layout::array::<Slot>(2 * ENTRIES_PER_BUCKET - 1).unwrap(),
                );
            }
            buckets /= 2;
        };
        Err(err)
    }

    /// The table's size in bytes (its buckets).
    pub fn bytes(&self) -> usize {
        self.buckets * BUCKET_BYTES
    }

    /// Forgets everything.
    pub fn clear(&self) {
        // Only written buckets can hold anything (the slots before the first bucket and after
        // the last are never written).
        for (w, word) in self.dirty.iter().enumerate() {
            if word.load(Relaxed) == 0 {
                continue;
            }
            let mut bits = word.swap(0, Relaxed);
            while bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let start = self.first + b * ENTRIES_PER_BUCKET;
                for slot in &self.slots[start..start + ENTRIES_PER_BUCKET] {
                    slot[0].store(0, Relaxed);
                    slot[1].store(0, Relaxed);
                }
            }
        }
        self.age.store(0, Relaxed);
        // The threads' histories are emptied in place, for the next search to take.
        for tables in self
            .histories
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
        {
            tables.clear();
        }
    }

    /// A search thread's history tables: those a thread of an earlier search left, or new ones.
    pub(super) fn take_histories(&self) -> SearchTables {
        self.histories
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_default()
    }

    /// Gives a thread's history tables back for the next search.
    pub(super) fn return_histories(&self, tables: SearchTables) {
        self.histories
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(tables);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let a = self.age.load(Relaxed);
        self.age.store(a.wrapping_add(1) & 63, Relaxed);
    }

    #[inline]
    fn bucket_index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets as u128) >> 64) as usize
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot] {
        let start = self.first + self.bucket_index(key) * ENTRIES_PER_BUCKET;
        &self.slots[start..start + ENTRIES_PER_BUCKET]
    }

    /// Notes that bucket `i` is being written, for [`Self::clear`].
    #[inline]
    fn mark_dirty(&self, i: usize) {
        let word = &self.dirty[i / 64];
        let bit = 1u64 << (i % 64);
        // Read first: a bucket written again (most stores) costs no atomic read-modify-write.
        if word.load(Relaxed) & bit == 0 {
            word.fetch_or(bit, Relaxed);
        }
    }

    /// Asks the CPU to bring `key`'s bucket into the cache, without waiting for it. Called as
    /// soon as a move is made, so the memory read (a likely cache miss in any table much larger
    /// than the cache) overlaps the net's update instead of stalling the child's probe. Only a
    /// hint: it changes no result, and where there is no such instruction it does nothing.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // The address is only a hint, so it is worked out without a bounds check (a
            // wrapping offset: no branch, no panic on the hot path).
            let start = self.first + self.bucket_index(key) * ENTRIES_PER_BUCKET;
            let ptr = self.slots.as_ptr().wrapping_add(start).cast::<i8>();
            // SAFETY: SSE is part of x86-64, and a prefetch never faults nor writes, whatever
            // the address.
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(ptr)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in self.bucket(key) {
            let data = slot[1].load(Relaxed);
            if slot[0].load(Relaxed) ^ data == key {
                return unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores a result. Replaces the entry of the same key (keeping its move when the new result
    /// has none), else the entry least worth keeping: old searches first, then shallow ones.
    #[inline]
    pub fn store(&self, key: u64, mut mv: Move, score: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot[1].load(Relaxed);
            let stored_key = slot[0].load(Relaxed) ^ data;
            let Some((old, old_age)) = unpack(data) else {
                victim = i;
                victim_worth = i32::MIN;
                continue;
            };
            if stored_key == key {
                // A shallower result must not overwrite a deeper exact one of this search.
                if old_age == age && old.depth > depth + 2 && bound != Bound::Exact {
                    return;
                }
                if mv.is_none() {
                    mv = old.mv;
                }
                victim = i;
                break;
            }
            let stale = i32::from((age.wrapping_sub(old_age)) & 63);
            let worth = old.depth - 8 * stale;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let data = pack(mv, score, depth, bound, age);
        self.mark_dirty(self.bucket_index(key));
        let slot = &bucket[victim];
        slot[0].store(key ^ data, Relaxed);
        slot[1].store(data, Relaxed);
    }

    /// How full the table is, in permille, counted over the first thousand entries of this
    /// search's age (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let mut used: u32 = 0;
        let mut seen = 0;
        let live = &self.slots[self.first..self.first + self.buckets * ENTRIES_PER_BUCKET];
        for slot in live.iter().take(1000) {
            seen += 1;
            if let Some((_, a)) = unpack(slot[1].load(Relaxed)) {
                if a == age {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn histories_outlive_a_search_and_not_a_new_game() {
        use crate::board::Color;
        let tt = TranspositionTable::new(1);
        let m = Move::normal(Square::new(12), Square::new(28));
        let mut t = tt.take_histories();
        assert_eq!(
            t.history.get(Color::White, m),
            0,
            "a first search starts from nothing"
        );
        t.history.update(Color::White, m, 1000);
        tt.return_histories(t);
        // The next search of the same game orders by what the last one learnt.
        let t = tt.take_histories();
        assert!(t.history.get(Color::White, m) > 0);
        tt.return_histories(t);
        // A new game (the table cleared) forgets it.
        tt.clear();
        assert_eq!(tt.take_histories().history.get(Color::White, m), 0);
    }

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1);
        let m = Move::normal(Square::new(12), Square::new(28));
        tt.store(0xdead_beef, m, -31_000, 7, Bound::Lower);
        let e = tt.probe(0xdead_beef).expect("stored");
        assert_eq!(e.mv, m);
        assert_eq!(e.score, -31_000);
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(0xdead_beee).is_none());
        tt.clear();
        assert!(tt.probe(0xdead_beef).is_none());
    }

    /// More megabytes than any address space holds, 32-bit or 64-bit (a megabyte short of
    /// all of it).
    const HUGE_MB: usize = usize::MAX >> 20;

    #[test]
    fn sizes_the_machine_cannot_give_are_refused() {
        // More than the address space: refused, not a panic or an abort.
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
        let e = TranspositionTable::try_new(HUGE_MB).err().expect("refused");
        assert_eq!(e, TableError { mb: HUGE_MB });
        assert_eq!(
            e.to_string(),
            format!("cannot allocate {HUGE_MB} MB for the hash table")
        );
        let tt = TranspositionTable::try_new(2).unwrap();
        assert_eq!(tt.bytes(), 2 << 20);
        // Buckets start on a cache line.
        assert_eq!(tt.bucket(12345).as_ptr() as usize % BUCKET_BYTES, 0);
    }

    #[test]
    fn resizing_gives_the_memory_back_and_keeps_the_size_it_cannot_change() {
        let mut tt = TranspositionTable::new(2);
        let m = Move::normal(Square::new(12), Square::new(28));
        tt.store(77, m, 5, 3, Bound::Exact);
        // Refused: the old size comes back, empty.
        assert_eq!(tt.resize(HUGE_MB), Err(TableError { mb: HUGE_MB }));
        assert_eq!(tt.bytes(), 2 << 20);
        assert!(tt.probe(77).is_none());
        tt.store(77, m, 5, 3, Bound::Exact);
        assert!(tt.probe(77).is_some());
        // Granted: the new size, empty, buckets on cache lines.
        tt.resize(3).unwrap();
        assert_eq!(tt.bytes(), 3 << 20);
        assert!(tt.probe(77).is_none());
        assert_eq!(tt.bucket(12345).as_ptr() as usize % BUCKET_BYTES, 0);
    }

    #[test]
    fn torn_entries_are_rejected() {
        let tt = TranspositionTable::new(1);
        let m = Move::normal(Square::new(1), Square::new(2));
        tt.store(42, m, 10, 3, Bound::Exact);
        // Simulate a write from another thread landing on the data word only.
        let b = tt.bucket(42);
        for slot in b {
            if slot[1].load(Relaxed) != 0 {
                slot[1].store(pack(m, 99, 9, Bound::Exact, 0), Relaxed);
            }
        }
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn hashfull_counts_this_search() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                Move::NONE,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
