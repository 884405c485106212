//! The quantised network: integer weights, the accumulator and the evaluation.
//!
//! All arithmetic is integer and exact, so an incrementally updated accumulator is always
//! identical to a refreshed one, and the loops run over fixed-size blocks of [`BLOCK`] values
//! that the compiler turns into vector instructions (no `unsafe`, no intrinsics).

use super::{KingBuckets, OutputBuckets, BLOCK};

/// A quantised network, as read from a net file.
///
/// Weights of the feature transformer and its biases are `i16` scaled by `qa`; the output
/// weights are `i16` scaled by `qb`, and the output bias is `i32` scaled by `qa * qb`. The
/// checks made when a file is read ([`Network::from_bytes`]) guarantee the invariants the
/// evaluation relies on (hidden size a positive multiple of [`BLOCK`], `1 <= qa <= 255`,
/// output weights within `±MAX_OUT_WEIGHT`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub(crate) variant: String,
    /// Rows of the feature transformer: the game's feature count times the buckets' count.
    pub(crate) features: usize,
    /// The king-bucket layout: row `bucket * feature_count() + f` serves feature `f`.
    pub(crate) buckets: KingBuckets,
    pub(crate) hidden: usize,
    pub(crate) qa: u16,
    pub(crate) qb: u16,
    pub(crate) scale: u32,
    /// `features * hidden`: the row of feature `f` is `f * hidden .. (f + 1) * hidden`.
    pub(crate) ft_weights: Vec<i16>,
    /// `hidden`.
    pub(crate) ft_bias: Vec<i16>,
    /// The output buckets: which output layer a position is evaluated with.
    pub(crate) outputs: OutputBuckets,
    /// `2 * hidden` per output bucket, bucket by bucket: the side to move's half, then the
    /// other side's.
    pub(crate) out_weights: Vec<i16>,
    /// One per output bucket.
    pub(crate) out_bias: Vec<i32>,
}

impl Network {
    /// The variant the net was trained for (a registry name).
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The number of input features (what the game's `feature_count` must say): the rows of
    /// one king bucket.
    pub fn feature_count(&self) -> usize {
        self.features / self.buckets.count()
    }

    /// Rows of the feature transformer (`feature_count()` times the number of king buckets):
    /// every bucketed feature index is below it.
    pub fn input_rows(&self) -> usize {
        self.features
    }

    /// The king-bucket layout of the net's input.
    #[inline(always)]
    pub fn king_buckets(&self) -> KingBuckets {
        self.buckets
    }

    /// The input in words: `768 features`, `768 features in 2 king buckets (halves)`, or
    /// `768 features mirrored to the king's wing`.
    pub fn inputs_in_words(&self) -> String {
        match self.buckets {
            KingBuckets::None => format!("{} features", self.feature_count()),
            KingBuckets::Mirror => format!(
                "{} features mirrored to the king's wing",
                self.feature_count()
            ),
            l => format!(
                "{} features in {} king buckets ({l})",
                self.feature_count(),
                l.count()
            ),
        }
    }

    /// The output buckets of the net.
    #[inline(always)]
    pub fn output_buckets(&self) -> OutputBuckets {
        self.outputs
    }

    /// The output in words: `one output`, or `8 output buckets of 4 men`.
    pub fn outputs_in_words(&self) -> String {
        self.outputs.to_string()
    }

    /// The feature transformer's weights, `hidden` per input row, row after row.
    pub fn feature_weights(&self) -> &[i16] {
        &self.ft_weights
    }

    /// Hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The quantisation scales `(qa, qb)`.
    pub fn quantisation(&self) -> (u16, u16) {
        (self.qa, self.qb)
    }

    /// Centipawns per unit of raw output.
    pub fn scale(&self) -> u32 {
        self.scale
    }

    #[inline(always)]
    fn row(&self, feature: u32) -> &[i16] {
        let start = feature as usize * self.hidden;
        &self.ft_weights[start..start + self.hidden]
    }

    /// The evaluation in centipawns from the side to move's point of view, given the side to
    /// move's accumulator and the other side's, with the output layer of output bucket
    /// `bucket` (the position's [`crate::nnue::NnueFeatures::output_bucket`]; 0 in a net of
    /// one output).
    ///
    /// Each hidden value is clipped to `0..=qa` and squared (at most 255^2 = 65,025), then
    /// multiplied by its output weight (at most [`MAX_OUT_WEIGHT`](super::MAX_OUT_WEIGHT) =
    /// 2,048 in size): a block of [`BLOCK`] such products sums to less than 2^31, so each block
    /// is summed exactly in `i32` lanes (which the compiler vectorises) and the blocks in an
    /// `i64`. Both bounds are checked when a net is read. The sum is in units of
    /// `qa * qa * qb` and is scaled to centipawns at the end (rounded toward zero).
    ///
    /// # Panics
    /// If `bucket` is not below the net's output bucket count.
    #[inline]
    pub fn evaluate(&self, stm: &Accumulator, nstm: &Accumulator, bucket: usize) -> i32 {
        let h = self.hidden;
        debug_assert_eq!(stm.values.len(), h);
        debug_assert_eq!(nstm.values.len(), h);
        let layer = &self.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        let (ws, wn) = layer.split_at(h);
        let qa = self.qa as i16;
        let sum = simd::screlu_dot2(&stm.values, ws, &nstm.values, wn, qa);
        let qa = i64::from(self.qa);
        let total = sum + i64::from(self.out_bias[bucket]) * qa;
        let cp = total * i64::from(self.scale) / (qa * qa * i64::from(self.qb));
        cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// Evaluates from scratch: both accumulators refreshed from the feature lists, with output
    /// bucket `bucket`. For tests, the trainer's report and anything that does not keep
    /// accumulators.
    pub fn evaluate_features(&self, stm: &[u32], nstm: &[u32], bucket: usize) -> i32 {
        let mut a = Accumulator::new(self);
        let mut b = Accumulator::new(self);
        a.refresh(self, stm);
        b.refresh(self, nstm);
        self.evaluate(&a, &b, bucket)
    }
}

/// `sum(clamp(acc, 0, qa)^2 * w)` over one perspective. Requires `qa <= 255` and
/// `|w| <= MAX_OUT_WEIGHT` (see [`Network::evaluate`]). The portable version: x86-64 and
/// WebAssembly with SIMD use the equivalent ones of [`simd`], checked against this one by the
/// tests.
#[cfg_attr(
    all(
        any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        ),
        not(test)
    ),
    allow(dead_code)
)]
#[inline(always)]
fn screlu_dot(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    let mut total = 0i64;
    for (a, w) in acc.chunks_exact(BLOCK).zip(weights.chunks_exact(BLOCK)) {
        let a: &[i16; BLOCK] = a.try_into().expect("block");
        let w: &[i16; BLOCK] = w.try_into().expect("block");
        let mut block = 0i32;
        for i in 0..BLOCK {
            // `max` and `min` rather than `clamp`, whose check of its bounds would stop the
            // loop from being vectorised.
            let v = i32::from(a[i].max(0).min(qa));
            block += v * v * i32::from(w[i]);
        }
        total += i64::from(block);
    }
    total
}

/// Both perspectives' [`screlu_dot`], summed.
#[cfg_attr(
    all(
        any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        ),
        not(test)
    ),
    allow(dead_code)
)]
#[inline(always)]
fn screlu_dot2(stm: &[i16], ws: &[i16], nstm: &[i16], wn: &[i16], qa: i16) -> i64 {
    screlu_dot(stm, ws, qa) + screlu_dot(nstm, wn, qa)
}

/// `values = parent + sum(rows of added) - sum(rows of removed)`, wrapping, in one pass over
/// each block (the parent's block, the rows' blocks, one write). `weights` holds the rows of
/// `values.len()` values each.
#[inline(always)]
fn apply_delta(
    values: &mut [i16],
    parent: &[i16],
    weights: &[i16],
    added: &[u32],
    removed: &[u32],
) {
    let h = values.len();
    let row_block = |f: u32, k: usize| -> &[i16; BLOCK] {
        weights[f as usize * h + k * BLOCK..][..BLOCK]
            .try_into()
            .expect("block")
    };
    for (k, (out, p)) in values
        .chunks_exact_mut(BLOCK)
        .zip(parent.chunks_exact(BLOCK))
        .enumerate()
    {
        let mut v: [i16; BLOCK] = (*p).try_into().expect("block");
        for &f in added {
            let w = row_block(f, k);
            for i in 0..BLOCK {
                v[i] = v[i].wrapping_add(w[i]);
            }
        }
        for &f in removed {
            let r = row_block(f, k);
            for i in 0..BLOCK {
                v[i] = v[i].wrapping_sub(r[i]);
            }
        }
        out.copy_from_slice(&v);
    }
}

/// The inner loops' fast paths on x86-64 (other targets use the portable loops above, which
/// the compiler vectorises as it can).
///
/// - The accumulator update is the portable [`apply_delta`] compiled a second time with AVX2
///   enabled (256-bit adds instead of SSE2's 128-bit ones), used when the CPU has AVX2.
/// - The output layer uses `pmaddwd` (16-bit products summed in pairs into 32-bit lanes),
///   which the compiler does not find by itself: at the baseline target it builds the 32-bit
///   multiplies of [`screlu_dot`] from shuffles and `pmuludq`, and with AVX2 enabled it
///   vectorises that loop badly (slower than SSE2). `v = clamp(a, 0, qa)` squared fits an
///   unsigned 16-bit lane (`qa <= 255`: at most 65,025) but not a signed one, so `v * v` is
///   split into two halves below 2^15 (`v*v >> 1` and the rest) and each is multiplied with
///   the weight by `pmaddwd`. A lane then holds two products of each half, at most
///   2 * 65,025 * 2,048 < 2^28 in size per block, and is widened to 64 bits every block: the
///   sum is exact and equal to [`screlu_dot`]'s. SSE2 is part of x86-64, so that version needs
///   no check; the AVX2 one (twice as wide) is used when the CPU has AVX2.
///
/// WebAssembly built with `simd128` (the browser build, scripts/build-wasm.sh) has the same
/// instruction as `pmaddwd`, `i32x4.dot_i16x8_s`, and its output layer is the SSE2 one in
/// WebAssembly's 128-bit vectors (below, `screlu_dot_simd128`). Its accumulator update is the
/// portable loop, which the compiler turns into `i16x8` adds by itself. The feature is fixed
/// when the module is built (a browser without it refuses the module), so there is no check at
/// run time; WebAssembly's vector instructions need no `unsafe`.
///
/// Everything is integer arithmetic, so every path gives the same bits.
mod simd {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    use std::arch::wasm32::*;

    /// 8 `i16` from a slice of exactly 8, built lane by lane (one `v128.load` once compiled;
    /// the intrinsic load would need `unsafe` for its raw pointer).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    fn lanes8(x: &[i16]) -> v128 {
        let x: &[i16; 8] = x.try_into().expect("8 values");
        i16x8(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7])
    }

    /// [`super::screlu_dot`] with WebAssembly's `i32x4.dot_i16x8_s` (see the module
    /// documentation): the SSE2 version's arithmetic, 8 values a step, each step's four 32-bit
    /// lanes (at most 2 * 65,025 * 2,048 < 2^28 in size) widened into two 64-bit ones.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline]
    fn screlu_dot_simd128(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
        let zero = i16x8_splat(0);
        let top = i16x8_splat(qa);
        let mut total = i64x2_splat(0);
        for (a, w) in acc.chunks_exact(8).zip(weights.chunks_exact(8)) {
            let v = i16x8_min(i16x8_max(lanes8(a), zero), top);
            let w = lanes8(w);
            // `v * v` fits 16 bits unsigned (v <= 255); halved, each part fits signed.
            let sq = i16x8_mul(v, v);
            let lo = u16x8_shr(sq, 1);
            let hi = i16x8_sub(sq, lo);
            let s = i32x4_add(i32x4_dot_i16x8(lo, w), i32x4_dot_i16x8(hi, w));
            total = i64x2_add(total, i64x2_extend_low_i32x4(s));
            total = i64x2_add(total, i64x2_extend_high_i32x4(s));
        }
        i64x2_extract_lane::<0>(total) + i64x2_extract_lane::<1>(total)
    }

    #[cfg(target_arch = "x86_64")]
    use std::arch::x86_64::*;

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn has_avx2() -> bool {
        std::is_x86_feature_detected!("avx2")
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn apply_delta_avx2(
        values: &mut [i16],
        parent: &[i16],
        weights: &[i16],
        added: &[u32],
        removed: &[u32],
    ) {
        super::apply_delta(values, parent, weights, added, removed)
    }

    /// 8 `i16` from a slice of exactly 8.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    #[allow(unsafe_code)]
    fn load8(x: &[i16]) -> __m128i {
        assert_eq!(x.len(), 8);
        // SAFETY: `x` holds 8 `i16`, the 16 bytes read; `loadu` needs no alignment.
        unsafe { _mm_loadu_si128(x.as_ptr().cast()) }
    }

    /// 16 `i16` from a slice of exactly 16. Only for functions compiled for AVX2, which the
    /// CPU was checked to have.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    #[allow(unsafe_code)]
    fn load16(x: &[i16]) -> __m256i {
        assert_eq!(x.len(), 16);
        // SAFETY: `x` holds 16 `i16`, the 32 bytes read; `loadu` needs no alignment; called
        // only (inlined) from `screlu_dot_avx2`, which runs only on a CPU with AVX2.
        unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
    }

    /// [`super::screlu_dot`] with SSE2's `pmaddwd` (see the module documentation).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "sse2")]
    fn screlu_dot_sse2(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
        let zero = _mm_setzero_si128();
        let top = _mm_set1_epi16(qa);
        let mut total = 0i64;
        for (a, w) in acc.chunks_exact(8).zip(weights.chunks_exact(8)) {
            let v = _mm_min_epi16(_mm_max_epi16(load8(a), zero), top);
            let w = load8(w);
            let sq = _mm_mullo_epi16(v, v);
            let lo = _mm_srli_epi16::<1>(sq);
            let hi = _mm_sub_epi16(sq, lo);
            let s = _mm_add_epi32(_mm_madd_epi16(lo, w), _mm_madd_epi16(hi, w));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
            total += i64::from(_mm_cvtsi128_si32(s));
        }
        total
    }

    /// [`super::screlu_dot`] with AVX2's `vpmaddwd`: 16 values a step, the eight 32-bit
    /// lanes widened into four 64-bit ones each step.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn screlu_dot_avx2(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut total = _mm256_setzero_si256();
        for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
            let v = _mm256_min_epi16(_mm256_max_epi16(load16(a), zero), top);
            let w = load16(w);
            let sq = _mm256_mullo_epi16(v, v);
            let lo = _mm256_srli_epi16::<1>(sq);
            let hi = _mm256_sub_epi16(sq, lo);
            let s = _mm256_add_epi32(_mm256_madd_epi16(lo, w), _mm256_madd_epi16(hi, w));
            let wide = _mm256_add_epi64(
                _mm256_cvtepi32_epi64(_mm256_castsi256_si128(s)),
                _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(s)),
            );
            total = _mm256_add_epi64(total, wide);
        }
        let half = _mm_add_epi64(
            _mm256_castsi256_si128(total),
            _mm256_extracti128_si256::<1>(total),
        );
        let half = _mm_add_epi64(half, _mm_unpackhi_epi64(half, half));
        _mm_cvtsi128_si64(half)
    }

    #[cfg(all(test, target_arch = "x86_64"))]
    pub(super) fn screlu_dot_sse2_for_tests(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
        // SAFETY: every x86-64 CPU has SSE2.
        #[allow(unsafe_code)]
        unsafe {
            screlu_dot_sse2(acc, weights, qa)
        }
    }

    #[inline]
    pub(super) fn screlu_dot2(stm: &[i16], ws: &[i16], nstm: &[i16], wn: &[i16], qa: i16) -> i64 {
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx2() {
                // SAFETY: the only requirement of a function compiled for AVX2 is a CPU that
                // has it, just checked.
                #[allow(unsafe_code)]
                return unsafe { screlu_dot_avx2(stm, ws, qa) + screlu_dot_avx2(nstm, wn, qa) };
            }
            // SAFETY: every x86-64 CPU has SSE2.
            #[allow(unsafe_code)]
            unsafe {
                screlu_dot_sse2(stm, ws, qa) + screlu_dot_sse2(nstm, wn, qa)
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            screlu_dot_simd128(stm, ws, qa) + screlu_dot_simd128(nstm, wn, qa)
        }
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        )))]
        super::screlu_dot2(stm, ws, nstm, wn, qa)
    }

    #[inline]
    pub(super) fn apply_delta(
        values: &mut [i16],
        parent: &[i16],
        weights: &[i16],
        added: &[u32],
        removed: &[u32],
    ) {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: safe Rust compiled for AVX2, and the CPU has it.
            #[allow(unsafe_code)]
            return unsafe { apply_delta_avx2(values, parent, weights, added, removed) };
        }
        super::apply_delta(values, parent, weights, added, removed)
    }
}

/// One perspective's hidden layer before the activation: the feature transformer's biases plus
/// the rows of the active features, `i16` in units of `qa`.
///
/// Additions wrap (two's complement), so adding and removing features in any order gives
/// exactly the values of a refresh, even if a partial sum leaves the `i16` range on the way.
/// (The trainer keeps weights small enough that the true sums of real positions fit: see
/// `docs/nnue.md`.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Vec<i16>,
}

impl Accumulator {
    /// An accumulator of `net`'s size holding its biases (the value with no feature active).
    pub fn new(net: &Network) -> Self {
        Accumulator {
            values: net.ft_bias.clone(),
        }
    }

    /// The hidden values, one per hidden unit.
    pub fn values(&self) -> &[i16] {
        &self.values
    }

    /// Rebuilds the values from scratch: biases plus the rows of `features`.
    pub fn refresh(&mut self, net: &Network, features: &[u32]) {
        self.values.clear();
        self.values.extend_from_slice(&net.ft_bias);
        for &f in features {
            self.add(net, f);
        }
    }

    /// Copies another accumulator of the same net (a search stack's push).
    pub fn copy_from(&mut self, other: &Accumulator) {
        self.values.copy_from_slice(&other.values);
    }

    /// Becomes `parent` (an accumulator of the same net) plus the rows of `added` minus those
    /// of `removed`, in one pass: what a search stack's child is after a move.
    #[inline]
    pub fn set_delta(
        &mut self,
        net: &Network,
        parent: &Accumulator,
        added: &[u32],
        removed: &[u32],
    ) {
        simd::apply_delta(
            &mut self.values,
            &parent.values,
            &net.ft_weights,
            added,
            removed,
        );
    }

    /// Adds the row of a feature that became active. (Here and below, a feature must be below
    /// the net's feature count; a larger one panics.)
    #[inline]
    pub fn add(&mut self, net: &Network, feature: u32) {
        let w = net.row(feature);
        for (k, a) in self.values.chunks_exact_mut(BLOCK).enumerate() {
            let w = block(w, k);
            update(a, |v| {
                for i in 0..BLOCK {
                    v[i] = v[i].wrapping_add(w[i]);
                }
            });
        }
    }

    /// Subtracts the row of a feature that stopped being active.
    #[inline]
    pub fn remove(&mut self, net: &Network, feature: u32) {
        let r = net.row(feature);
        for (k, a) in self.values.chunks_exact_mut(BLOCK).enumerate() {
            let r = block(r, k);
            update(a, |v| {
                for i in 0..BLOCK {
                    v[i] = v[i].wrapping_sub(r[i]);
                }
            });
        }
    }

    /// Adds one feature and removes another in one pass over the values (a quiet move).
    #[inline]
    pub fn add_remove(&mut self, net: &Network, added: u32, removed: u32) {
        let (w, r) = (net.row(added), net.row(removed));
        for (k, a) in self.values.chunks_exact_mut(BLOCK).enumerate() {
            let (w, r) = (block(w, k), block(r, k));
            update(a, |v| {
                for i in 0..BLOCK {
                    v[i] = v[i].wrapping_add(w[i]).wrapping_sub(r[i]);
                }
            });
        }
    }
}

/// Block `k` of a row.
#[inline(always)]
fn block(row: &[i16], k: usize) -> &[i16; BLOCK] {
    row[k * BLOCK..(k + 1) * BLOCK].try_into().expect("block")
}

/// Applies `f` to one block of accumulator values through a local copy, written back at the
/// end. The compiler cannot tell that the accumulator and the weight rows never overlap (both
/// sit behind `Vec`s), so updating in place would stay scalar; on a local copy every read
/// comes before the one write, and the block becomes a few vector instructions.
#[inline(always)]
fn update(values: &mut [i16], f: impl FnOnce(&mut [i16; BLOCK])) {
    let mut v: [i16; BLOCK] = (*values).try_into().expect("block");
    f(&mut v);
    values.copy_from_slice(&v);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::zobrist::SplitMix64;
    use crate::nnue::MAX_OUT_WEIGHT;

    /// The vectorised output layer (AVX2 or SSE2, whichever this CPU runs, and SSE2 itself)
    /// equals the portable loop, on random values and on the extremes the bounds allow.
    #[test]
    fn fast_output_layer_equals_the_portable_one() {
        let mut rng = SplitMix64::new(7);
        for round in 0..400 {
            let h = BLOCK * (1 + round % 16);
            let mut value =
                |lo: i64, hi: i64| (lo + (rng.next_u64() % (hi - lo + 1) as u64) as i64) as i16;
            let (acc, w): (Vec<i16>, Vec<i16>) = match round % 4 {
                0 => (0..2 * h)
                    .map(|_| (value(-32768, 32767), value(-2048, 2048)))
                    .unzip(),
                1 => (0..2 * h)
                    .map(|_| (value(-300, 400), value(-2048, 2048)))
                    .unzip(),
                // Every value clipped to qa, every weight at the bound: the largest sums.
                2 => (0..2 * h).map(|_| (i16::MAX, MAX_OUT_WEIGHT)).unzip(),
                _ => (0..2 * h).map(|_| (255, -MAX_OUT_WEIGHT)).unzip(),
            };
            let qa = [255, 127, 1, 200][(round / 4) % 4];
            let (a, b) = acc.split_at(h);
            let (wa, wb) = w.split_at(h);
            let want = screlu_dot2(a, wa, b, wb, qa);
            assert_eq!(simd::screlu_dot2(a, wa, b, wb, qa), want, "round {round}");
            #[cfg(target_arch = "x86_64")]
            assert_eq!(
                simd::screlu_dot_sse2_for_tests(a, wa, qa)
                    + simd::screlu_dot_sse2_for_tests(b, wb, qa),
                want
            );
        }
    }

    /// The fused accumulator update equals a copy and separate adds and removes.
    #[test]
    fn fused_update_equals_separate_ones() {
        let mut rng = SplitMix64::new(3);
        let h = 64;
        // Six rows of `h` values.
        let weights: Vec<i16> = (0..6 * h).map(|_| rng.next_u64() as i16).collect();
        let row = |f: u32| &weights[f as usize * h..(f as usize + 1) * h];
        let parent: Vec<i16> = (0..h).map(|_| rng.next_u64() as i16).collect();
        for (na, nr) in [(0, 0), (1, 1), (1, 2), (2, 3), (3, 3)] {
            let added: Vec<u32> = (0..na).collect();
            let removed: Vec<u32> = (3..3 + nr).collect();
            let mut want = parent.clone();
            for &f in &added {
                want.iter_mut()
                    .zip(row(f))
                    .for_each(|(v, w)| *v = v.wrapping_add(*w));
            }
            for &f in &removed {
                want.iter_mut()
                    .zip(row(f))
                    .for_each(|(v, w)| *v = v.wrapping_sub(*w));
            }
            let mut got = vec![0; h];
            simd::apply_delta(&mut got, &parent, &weights, &added, &removed);
            assert_eq!(got, want);
        }
    }
}
