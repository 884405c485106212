//! The quantised network: integer weights, the accumulator and the evaluation.
//!
//! All arithmetic is integer and exact, so an incrementally updated accumulator is always
//! identical to a refreshed one, and the loops run over fixed-size blocks of [`BLOCK`] values
//! that the compiler turns into vector instructions (no `unsafe`, no intrinsics).

use super::BLOCK;

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
    pub(crate) features: usize,
    pub(crate) hidden: usize,
    pub(crate) qa: u16,
    pub(crate) qb: u16,
    pub(crate) scale: u32,
    /// `features * hidden`: the row of feature `f` is `f * hidden .. (f + 1) * hidden`.
    pub(crate) ft_weights: Vec<i16>,
    /// `hidden`.
    pub(crate) ft_bias: Vec<i16>,
    /// `2 * hidden`: the side to move's half, then the other side's.
    pub(crate) out_weights: Vec<i16>,
    pub(crate) out_bias: i32,
}

impl Network {
    /// The variant the net was trained for (a registry name).
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The number of input features (what the game's `feature_count` must say).
    pub fn feature_count(&self) -> usize {
        self.features
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
    /// move's accumulator and the other side's.
    ///
    /// Each hidden value is clipped to `0..=qa` and squared (at most 255^2 = 65,025), then
    /// multiplied by its output weight (at most [`MAX_OUT_WEIGHT`](super::MAX_OUT_WEIGHT) =
    /// 2,048 in size): a block of [`BLOCK`] such products sums to less than 2^31, so each block
    /// is summed exactly in `i32` lanes (which the compiler vectorises) and the blocks in an
    /// `i64`. Both bounds are checked when a net is read. The sum is in units of
    /// `qa * qa * qb` and is scaled to centipawns at the end (rounded toward zero).
    pub fn evaluate(&self, stm: &Accumulator, nstm: &Accumulator) -> i32 {
        let h = self.hidden;
        debug_assert_eq!(stm.values.len(), h);
        debug_assert_eq!(nstm.values.len(), h);
        let qa = self.qa as i16;
        let sum = screlu_dot(&stm.values, &self.out_weights[..h], qa)
            + screlu_dot(&nstm.values, &self.out_weights[h..], qa);
        let qa = i64::from(self.qa);
        let total = sum + i64::from(self.out_bias) * qa;
        let cp = total * i64::from(self.scale) / (qa * qa * i64::from(self.qb));
        cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// Evaluates from scratch: both accumulators refreshed from the feature lists. For tests,
    /// the trainer's report and anything that does not keep accumulators.
    pub fn evaluate_features(&self, stm: &[u32], nstm: &[u32]) -> i32 {
        let mut a = Accumulator::new(self);
        let mut b = Accumulator::new(self);
        a.refresh(self, stm);
        b.refresh(self, nstm);
        self.evaluate(&a, &b)
    }
}

/// `sum(clamp(acc, 0, qa)^2 * w)` over one perspective. Requires `qa <= 255` and
/// `|w| <= MAX_OUT_WEIGHT` (see [`Network::evaluate`]).
#[inline]
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
