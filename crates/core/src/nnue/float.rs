//! The `f32` network the trainer works on, and its quantisation into a [`Network`].

use super::network::Network;
use super::{
    KingBuckets, NetError, OutputBuckets, BLOCK, MAX_FEATURES, MAX_HIDDEN, MAX_OUT_WEIGHT,
};
use crate::board::zobrist::SplitMix64;

/// Feature transformer weights are kept within `[-FT_CLIP, FT_CLIP]` during training, so that
/// (at `QA = 255`) one weight is at most 505 and any 64 active features sum to at most 32,320:
/// the `i16` accumulator of a real position cannot overflow.
pub const FT_CLIP: f32 = 1.98;

/// Output weights are kept within `±MAX_OUT_WEIGHT / QB` during training (±8 at the default
/// `QB = 256`), so that quantising them never clips.
pub const OUT_CLIP: f32 = MAX_OUT_WEIGHT as f32 / super::DEFAULT_QB as f32;

/// A feature index as the trainer stores it (`u16`) or a game lists it (`u32`).
pub trait FeatureIndex: Copy {
    fn index(self) -> usize;
}

impl FeatureIndex for u16 {
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl FeatureIndex for u32 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

/// The network in `f32`: the same shape as [`Network`], with the activation's 1.0 at 1.0 and
/// the output in units of `scale` centipawns (the trainer's `S`), so that `sigmoid(output)` is
/// the expected score.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// Rows of the feature transformer (the shared rows of a factorised net included).
    pub features: usize,
    pub hidden: usize,
    /// The king-bucket layout of the rows (all but the `shared` ones).
    pub buckets: KingBuckets,
    /// The factoriser of a bucketed net in training: the last `shared` rows (as many as the
    /// game has features, `F`) are shared by every bucket, and feature index `i` (a bucketed
    /// index, below `features - shared`) adds its own row and shared row `i % F`, so that the
    /// row the saved net has for it is their sum ([`FloatNetwork::merged`]). 0: no factoriser.
    pub shared: usize,
    /// `features * hidden`, feature-major (one row per feature).
    pub ft_weights: Vec<f32>,
    pub ft_bias: Vec<f32>,
    /// The output buckets ([`OutputBuckets`]): one output layer each.
    pub outputs: OutputBuckets,
    /// `2 * hidden` per output bucket, bucket by bucket: side to move's half first.
    pub out_weights: Vec<f32>,
    /// One per output bucket.
    pub out_bias: Vec<f32>,
}

/// `dst += src`, element by element. As a function of two slices the compiler knows they do
/// not overlap (written inline over two `Vec`s it does not, and the loop stays scalar).
#[inline]
pub fn add_assign(dst: &mut [f32], src: &[f32]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d += s;
    }
}

/// `sum(screlu(a) * w)`, in [`BLOCK`] running sums added at the end: one running sum would
/// make every addition wait for the one before (floating-point addition is not reassociated
/// by the compiler), [`BLOCK`] of them are independent vector lanes.
#[inline]
fn screlu_dot(acc: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; BLOCK];
    for (a, w) in acc.chunks_exact(BLOCK).zip(w.chunks_exact(BLOCK)) {
        for i in 0..BLOCK {
            lanes[i] += screlu(a[i]) * w[i];
        }
    }
    lanes.iter().sum()
}

/// `clamp(x, 0, 1)^2`, the squared clipped ReLU.
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// A uniform `f32` in `[-1, 1)`.
pub fn uniform(rng: &mut SplitMix64) -> f32 {
    ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}

impl FloatNetwork {
    /// A new network with small random weights drawn from `seed`: feature transformer weights
    /// uniform in `±1/sqrt(features)` (PyTorch's default for a linear layer), output weights in
    /// `±1/sqrt(2 * hidden)`, biases zero.
    pub fn new_random(features: usize, hidden: usize, seed: u64) -> FloatNetwork {
        assert!(features > 0 && features <= MAX_FEATURES, "feature count");
        assert!(
            hidden > 0 && hidden <= MAX_HIDDEN && hidden.is_multiple_of(BLOCK),
            "hidden size"
        );
        let mut rng = SplitMix64::new(seed ^ 0x6e6e_7565_696e_6974);
        let a = 1.0 / (features as f32).sqrt();
        let b = 1.0 / ((2 * hidden) as f32).sqrt();
        FloatNetwork {
            features,
            hidden,
            buckets: KingBuckets::None,
            shared: 0,
            ft_weights: (0..features * hidden)
                .map(|_| a * uniform(&mut rng))
                .collect(),
            ft_bias: vec![0.0; hidden],
            outputs: OutputBuckets::ONE,
            out_weights: (0..2 * hidden).map(|_| b * uniform(&mut rng)).collect(),
            out_bias: vec![0.0],
        }
    }

    /// This net with output buckets `layout`, computing the same evaluation: a net of one
    /// output gives every bucket a copy of its output layer (each bucket then learns its own
    /// way from where the net was); a net of `layout` is returned as it is.
    ///
    /// # Panics
    /// If the net has output buckets other than `layout` (the caller checks).
    pub fn with_outputs(&self, layout: OutputBuckets) -> FloatNetwork {
        if self.outputs == layout {
            return self.clone();
        }
        assert!(
            !self.outputs.is_bucketed(),
            "a net of {} cannot become one of {layout}",
            self.outputs
        );
        FloatNetwork {
            outputs: layout,
            out_weights: self.out_weights.repeat(layout.count()),
            out_bias: self.out_bias.repeat(layout.count()),
            ..self.clone()
        }
    }

    /// The float net a quantised net stands for: each value divided by its quantisation
    /// factor, and the output rescaled from the net's scale to `scale` centipawns per unit (so
    /// that it evaluates every position as the quantised net does, up to rounding).
    pub fn from_quantised(net: &Network, scale: u32) -> FloatNetwork {
        let (qa, qb) = (f32::from(net.qa), f32::from(net.qb));
        let rescale = net.scale as f32 / scale as f32;
        FloatNetwork {
            features: net.features,
            hidden: net.hidden,
            buckets: net.buckets,
            shared: 0,
            ft_weights: net.ft_weights.iter().map(|&w| f32::from(w) / qa).collect(),
            ft_bias: net.ft_bias.iter().map(|&w| f32::from(w) / qa).collect(),
            outputs: net.outputs,
            out_weights: net
                .out_weights
                .iter()
                .map(|&w| f32::from(w) / qb * rescale)
                .collect(),
            out_bias: net
                .out_bias
                .iter()
                .map(|&b| (f64::from(b) / (f64::from(qa) * f64::from(qb))) as f32 * rescale)
                .collect(),
        }
    }

    /// This net moved onto `features` inputs: the row of input `i` is the row of
    /// `source_of(i)`, or zeros (the input starts without influence) where it has none. The
    /// biases and the output layer stay.
    pub fn remap(
        &self,
        features: usize,
        source_of: impl Fn(usize) -> Option<usize>,
    ) -> FloatNetwork {
        let h = self.hidden;
        let mut ft_weights = vec![0.0; features * h];
        for (i, row) in ft_weights.chunks_exact_mut(h).enumerate() {
            if let Some(j) = source_of(i).filter(|&j| j < self.features) {
                row.copy_from_slice(&self.ft_weights[j * h..(j + 1) * h]);
            }
        }
        FloatNetwork {
            features,
            ft_weights,
            ..self.clone()
        }
    }

    /// This net with `hidden` hidden units per perspective (at least its own; a multiple of
    /// [`BLOCK`]), computing the same function (Net2Net's widening). Its units keep their
    /// feature weights, biases and output weights; the new units take the feature weights of
    /// [`FloatNetwork::new_random`] with `seed`, a zero bias and zero output weights. The zero
    /// output weights are what keeps the output unchanged, whatever the new units compute;
    /// their random feature weights make the units differ from each other, so that training
    /// (whose gradient for an output weight is the unit's activation times the error) moves
    /// each its own way.
    pub fn widen(&self, hidden: usize, seed: u64) -> FloatNetwork {
        let old = self.hidden;
        assert!(hidden >= old, "a net is widened, not narrowed");
        let mut wide = FloatNetwork::new_random(self.features, hidden, seed);
        for (new_row, old_row) in wide
            .ft_weights
            .chunks_exact_mut(hidden)
            .zip(self.ft_weights.chunks_exact(old))
        {
            new_row[..old].copy_from_slice(old_row);
        }
        wide.ft_bias[..old].copy_from_slice(&self.ft_bias);
        // Each output layer reads the side to move's `hidden` units and then the other side's:
        // each old half goes to the start of its new half.
        wide.out_weights = vec![0.0; self.outputs.count() * 2 * hidden];
        for (new, old_layer) in wide
            .out_weights
            .chunks_exact_mut(2 * hidden)
            .zip(self.out_weights.chunks_exact(2 * old))
        {
            let (old_stm, old_nstm) = old_layer.split_at(old);
            new[..old].copy_from_slice(old_stm);
            new[hidden..hidden + old].copy_from_slice(old_nstm);
        }
        wide.out_bias = self.out_bias.clone();
        wide.outputs = self.outputs;
        wide.buckets = self.buckets;
        wide.shared = self.shared;
        wide
    }

    /// This net as a factorised net of king-bucket layout `layout` for a game of `base`
    /// features (see [`FloatNetwork::shared`]), computing the same evaluation: a net of one
    /// bucket (`base` rows) becomes the shared rows, every bucket's own rows starting at zero;
    /// a net of `layout` (its merged rows) keeps its rows as the buckets' own, the shared rows
    /// starting at zero. A factorised net, or a layout of one bucket, leaves the net as it is.
    ///
    /// # Panics
    /// If the net is neither of one bucket nor of `layout` with `base` features (the caller
    /// checks).
    pub fn factorised(&self, layout: KingBuckets, base: usize) -> FloatNetwork {
        if self.shared != 0 || !layout.is_bucketed() {
            return self.clone();
        }
        let h = self.hidden;
        let rows = layout.count() * base;
        let mut ft_weights = vec![0.0; (rows + base) * h];
        if self.features == base && !self.buckets.is_bucketed() {
            ft_weights[rows * h..].copy_from_slice(&self.ft_weights);
        } else {
            assert!(
                self.features == rows && self.buckets == layout,
                "a net of {} rows ({}) is not one of {base} features in {layout}",
                self.features,
                self.buckets
            );
            ft_weights[..rows * h].copy_from_slice(&self.ft_weights);
        }
        FloatNetwork {
            features: rows + base,
            buckets: layout,
            shared: base,
            ft_weights,
            ..self.clone()
        }
    }

    /// The net a factorised net stands for: each bucket's row plus its shared row (held within
    /// `±FT_CLIP`, as training holds a row of a net without factoriser), the shared rows gone.
    /// A net without factoriser is returned as it is.
    pub fn merged(&self) -> FloatNetwork {
        if self.shared == 0 {
            return self.clone();
        }
        let (h, base) = (self.hidden, self.shared);
        let rows = self.features - base;
        let (own, shared) = self.ft_weights.split_at(rows * h);
        let mut ft_weights = own.to_vec();
        for (i, row) in ft_weights.chunks_exact_mut(h).enumerate() {
            let s = &shared[(i % base) * h..][..h];
            for (w, &s) in row.iter_mut().zip(s) {
                *w = (*w + s).clamp(-FT_CLIP, FT_CLIP);
            }
        }
        FloatNetwork {
            features: rows,
            shared: 0,
            ft_weights,
            ..self.clone()
        }
    }

    /// The shared row feature index `i` adds besides its own (with a factoriser).
    #[inline(always)]
    pub fn shared_row(&self, i: usize) -> Option<usize> {
        (self.shared != 0).then(|| self.features - self.shared + i % self.shared)
    }

    /// One perspective's pre-activation hidden values: biases plus the rows of `features`.
    pub fn accumulate<T: FeatureIndex>(&self, features: &[T], out: &mut [f32]) {
        let h = self.hidden;
        out.copy_from_slice(&self.ft_bias);
        for &f in features {
            add_assign(out, &self.ft_weights[f.index() * h..(f.index() + 1) * h]);
            if let Some(s) = self.shared_row(f.index()) {
                add_assign(out, &self.ft_weights[s * h..(s + 1) * h]);
            }
        }
    }

    /// Output bucket `bucket`'s layer: its `2 * hidden` weights.
    #[inline(always)]
    pub fn out_layer(&self, bucket: usize) -> &[f32] {
        &self.out_weights[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden]
    }

    /// The raw output (units of the trainer's scale) from the two accumulators, through
    /// output bucket `bucket`.
    pub fn output(&self, stm: &[f32], nstm: &[f32], bucket: usize) -> f32 {
        let (ws, wn) = self.out_layer(bucket).split_at(self.hidden);
        self.out_bias[bucket] + screlu_dot(stm, ws) + screlu_dot(nstm, wn)
    }

    /// The raw output for two feature lists, through output bucket `bucket`.
    pub fn forward<T: FeatureIndex>(&self, stm: &[T], nstm: &[T], bucket: usize) -> f32 {
        let mut a = vec![0.0; self.hidden];
        let mut b = vec![0.0; self.hidden];
        self.accumulate(stm, &mut a);
        self.accumulate(nstm, &mut b);
        self.output(&a, &b, bucket)
    }

    /// The evaluation in centipawns (`output * scale`), for comparison with the quantised net.
    pub fn evaluate_cp<T: FeatureIndex>(
        &self,
        stm: &[T],
        nstm: &[T],
        bucket: usize,
        scale: f32,
    ) -> f32 {
        self.forward(stm, nstm, bucket) * scale
    }

    /// The integer net: feature transformer weights and biases times `qa`, output weights times
    /// `qb`, the output bias times `qa * qb`, each rounded to the nearest integer and clamped to
    /// its range (`i16` without its minimum, `±MAX_OUT_WEIGHT`, `i32`). The report counts the
    /// values that had to be clamped.
    pub fn quantise(
        &self,
        variant: &str,
        qa: u16,
        qb: u16,
        scale: u32,
    ) -> Result<(Network, QuantReport), NetError> {
        if self.shared != 0 {
            return self.merged().quantise(variant, qa, qb, scale);
        }
        let mut report = QuantReport::default();
        let mut q16 = |x: f32, by: f32, limit: i16| -> i16 {
            let v = (x * by).round();
            let limit = f32::from(limit);
            if v > limit || v < -limit {
                report.clipped += 1;
            }
            v.clamp(-limit, limit) as i16
        };
        let (fa, fb) = (f32::from(qa), f32::from(qb));
        let ft_weights = self
            .ft_weights
            .iter()
            .map(|&w| q16(w, fa, i16::MAX))
            .collect();
        let ft_bias = self.ft_bias.iter().map(|&w| q16(w, fa, i16::MAX)).collect();
        let out_weights = self
            .out_weights
            .iter()
            .map(|&w| q16(w, fb, MAX_OUT_WEIGHT))
            .collect();
        let out_bias = self
            .out_bias
            .iter()
            .map(|&b| {
                let bias = (f64::from(b) * f64::from(qa) * f64::from(qb)).round();
                if bias > f64::from(i32::MAX) || bias < f64::from(i32::MIN) {
                    report.clipped += 1;
                }
                bias.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
            })
            .collect();
        report.total = self.ft_weights.len()
            + self.ft_bias.len()
            + self.out_weights.len()
            + self.out_bias.len();
        report.at_clip = self
            .ft_weights
            .iter()
            .filter(|w| w.abs() >= FT_CLIP * 0.999)
            .count();
        let net = Network {
            variant: variant.to_string(),
            features: self.features,
            buckets: self.buckets,
            hidden: self.hidden,
            qa,
            qb,
            scale,
            ft_weights,
            ft_bias,
            outputs: self.outputs,
            out_weights,
            out_bias,
        };
        net.validate()?;
        Ok((net, report))
    }
}

/// What quantisation did to the weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuantReport {
    /// Weights and biases quantised.
    pub total: usize,
    /// Values outside their integer type, clamped to its range.
    pub clipped: usize,
    /// Feature transformer weights that training held at `±FT_CLIP`.
    pub at_clip: usize,
}
