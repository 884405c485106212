//! The trainer: `f32` training with Adam on a mixed loss, data-parallel over rayon threads, then
//! quantisation to a [`Network`].
//!
//! Data come in as [`TrainingRecord`]s (a FEN, the search score and the game's result, both from
//! the side to move's point of view); a [`PositionFeatures`] turns each FEN into the feature
//! lists of both perspectives once, when the [`Dataset`] is built, so the epochs never parse a
//! FEN again.
//!
//! Reproducibility: the validation split, the initial weights and each epoch's shuffle come
//! from `seed`, and every batch's gradient is the sum of [`SLICES`] partial gradients over
//! fixed parts of the batch, added in a fixed order; so the same data, settings and seed give
//! the same net bit for bit, whatever the number of threads.

use cannonade_core::board::zobrist::{mix64, SplitMix64};
use cannonade_core::nnue::float::{add_assign, FT_CLIP, OUT_CLIP};
use cannonade_core::nnue::{Accumulator, FloatNetwork, Network};
use cannonade_core::nnue::{KingBuckets, NetError, OutputBuckets, MAX_FEATURES, MAX_HIDDEN};
use cannonade_core::nnue::{
    QuantReport, BLOCK, DEFAULT_HIDDEN, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE,
};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// One training position: what `cannonade datagen` writes per position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingRecord {
    pub fen: String,
    /// The search score in centipawns, side to move's view.
    pub score: i16,
    /// The game's result, side to move's view: 1 win, 0 draw, -1 loss.
    pub result: i8,
}

/// Why a training position was refused.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The FEN is not a position of the game: the game's reason.
    #[error("{0}")]
    BadPosition(String),
    #[error("result {0} is not 1, 0 or -1")]
    BadResult(i8),
    #[error("feature {feature} is out of range (the game has {count} features)")]
    FeatureOutOfRange { feature: u32, count: usize },
    #[error("too many positions for one training run")]
    TooManyPositions,
}

/// Why records could not be turned into a [`Dataset`]; `E` is the error of the records'
/// source (a file that cannot be read, a line that is not a record). Records are numbered from
/// 1.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum DatasetError<E> {
    #[error("the positions have {positions} features, the dataset {dataset}")]
    FeatureCount { positions: usize, dataset: usize },
    /// The source could not give record `number`.
    #[error("record {number}: {error}")]
    Source { number: usize, error: E },
    /// Record `number` was read but refused.
    #[error("record {number} ({fen}): {error}")]
    Record {
        number: usize,
        fen: String,
        error: RecordError,
    },
}

/// Why [`train`] refused its settings or could not make a net.
#[derive(thiserror::Error, Clone, Debug, PartialEq)]
pub enum TrainError {
    #[error("--hidden {0} must be a multiple of {BLOCK} between {BLOCK} and {MAX_HIDDEN}")]
    Hidden(usize),
    #[error("--batch must be at least 1")]
    Batch,
    #[error("--lr {0} must be positive")]
    LearningRate(f32),
    #[error("--wdl {0} must be between 0 and 1")]
    Wdl(f32),
    #[error("--scale must be positive")]
    Scale,
    #[error("--validation {0} must be at least 0 and below 1")]
    Validation(f64),
    /// The starting net (`init`) does not have the training's shape.
    #[error(
        "the starting net has {net_features} features and {net_hidden} hidden units, the \
         training {features} and {hidden}"
    )]
    StartingNet {
        net_features: usize,
        net_hidden: usize,
        features: usize,
        hidden: usize,
    },
    /// The starting net has output buckets other than the training's (a net of one output
    /// may start any layout).
    #[error("the starting net has {net}, the training {wanted}")]
    StartingOutputs {
        net: OutputBuckets,
        wanted: OutputBuckets,
    },
    #[error("the game has no features")]
    NoFeatures,
    /// The data's feature indices are not a whole number of feature sets, one per bucket.
    #[error("{features} features are not a whole number of the {layout} layout's buckets")]
    BucketRows {
        features: usize,
        layout: KingBuckets,
    },
    #[error("{0} positions are too few to train on")]
    TooFewPositions(usize),
    /// The trained net could not be quantised.
    #[error(transparent)]
    Quantise(#[from] NetError),
}

/// What the trainer needs of a game: the features of both perspectives of a position given as
/// a FEN. Implemented over a game's [`cannonade_core::nnue::NnueFeatures`] by `tools::train`, which reads the
/// FEN with the game's own reader.
pub trait PositionFeatures: Sync {
    /// The game's feature count (the net's input size): with king buckets, the rows of every
    /// bucket (the game's own count times the buckets').
    fn feature_count(&self) -> usize;

    /// The men on the board of the game's start position: what output buckets are sized by
    /// ([`cannonade_core::nnue::OutputBuckets::for_game`]).
    fn start_men(&self) -> u32;

    /// Whether the game's nets may have king buckets
    /// ([`cannonade_core::nnue::NnueFeatures::has_king_buckets`]).
    fn has_king_buckets(&self) -> bool {
        false
    }

    /// Clears `stm` and `nstm` and fills them with the features seen from the side to move and
    /// from the other side, and answers the men on the board (what picks the output bucket:
    /// [`cannonade_core::nnue::NnueFeatures::nnue_men`]); an error if the FEN is not a position of the game.
    fn features(
        &self,
        fen: &str,
        stm: &mut Vec<u32>,
        nstm: &mut Vec<u32>,
    ) -> Result<u32, RecordError>;

    /// As [`PositionFeatures::features`], and also the game's hand-written evaluation of the
    /// position (centipawns, side to move's view) where the source has one: the yardstick a net
    /// must beat ([`reference_loss`]). Reads the FEN once. `(men, evaluation)`.
    fn features_and_reference(
        &self,
        fen: &str,
        stm: &mut Vec<u32>,
        nstm: &mut Vec<u32>,
    ) -> Result<(u32, Option<i32>), RecordError> {
        self.features(fen, stm, nstm).map(|men| (men, None))
    }

    /// What a feature stands for ([`cannonade_core::nnue::NnueFeatures::feature_meaning`]).
    fn feature_meaning(&self, feature: u32) -> Option<super::FeatureMeaning> {
        let _ = feature;
        None
    }
}

/// One position's features (the side to move's, the other side's), its men on the board and
/// its hand-written evaluation, as a record is read.
type ReadPosition = ((Vec<u32>, Vec<u32>), u32, Option<i32>);

/// Training positions as feature lists, ready for the epochs.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    feature_count: usize,
    /// Feature indices of every position, both perspectives.
    feats: Vec<u16>,
    /// Position `i`'s side-to-move features are `feats[offsets[2i]..offsets[2i+1]]`, the other
    /// side's `feats[offsets[2i+1]..offsets[2i+2]]`.
    offsets: Vec<u32>,
    score: Vec<i16>,
    result: Vec<i8>,
    /// Men on the board of every position (saturating at 255): the output bucket's input.
    men: Vec<u8>,
    max_active: usize,
    /// The hand-written evaluation of every position, when every record had one (empty
    /// otherwise).
    reference: Vec<i16>,
    /// Some record came without a hand-written evaluation.
    reference_missing: bool,
}

impl Dataset {
    /// An empty dataset for a game of `feature_count` features.
    pub fn new(feature_count: usize) -> Dataset {
        assert!(feature_count <= MAX_FEATURES, "too many features");
        Dataset {
            feature_count,
            offsets: vec![0],
            ..Dataset::default()
        }
    }

    pub fn feature_count(&self) -> usize {
        self.feature_count
    }

    pub fn len(&self) -> usize {
        self.score.len()
    }

    pub fn is_empty(&self) -> bool {
        self.score.is_empty()
    }

    /// The largest number of features active in one perspective of one position.
    pub fn max_active(&self) -> usize {
        self.max_active
    }

    /// Adds a position with `men` men on the board.
    pub fn push(
        &mut self,
        stm: &[u32],
        nstm: &[u32],
        men: u32,
        score: i16,
        result: i8,
    ) -> Result<(), RecordError> {
        if !(-1..=1).contains(&result) {
            return Err(RecordError::BadResult(result));
        }
        for &f in stm.iter().chain(nstm) {
            if f as usize >= self.feature_count {
                return Err(RecordError::FeatureOutOfRange {
                    feature: f,
                    count: self.feature_count,
                });
            }
        }
        if self.feats.len() + stm.len() + nstm.len() > u32::MAX as usize {
            return Err(RecordError::TooManyPositions);
        }
        self.store(
            stm.iter().map(|&f| f as u16),
            nstm.iter().map(|&f| f as u16),
            men.min(255) as u8,
            score,
            result,
        );
        Ok(())
    }

    /// Appends a position already checked: its features (in range), men, score and result.
    fn store(
        &mut self,
        stm: impl ExactSizeIterator<Item = u16>,
        nstm: impl ExactSizeIterator<Item = u16>,
        men: u8,
        score: i16,
        result: i8,
    ) {
        self.max_active = self.max_active.max(stm.len()).max(nstm.len());
        self.feats.extend(stm);
        self.offsets.push(self.feats.len() as u32);
        self.feats.extend(nstm);
        self.offsets.push(self.feats.len() as u32);
        self.score.push(score);
        self.result.push(result);
        self.men.push(men);
    }

    /// Reads records and computes their features, in parallel blocks on the current rayon pool.
    /// The order of the positions is the order of the records. Stops at the first bad record
    /// with its number (from 1) in the error.
    pub fn from_records<I, E>(
        records: I,
        source: &dyn PositionFeatures,
        progress: impl FnMut(usize),
    ) -> Result<Dataset, DatasetError<E>>
    where
        I: Iterator<Item = Result<TrainingRecord, E>>,
    {
        let mut data = Dataset::new(source.feature_count());
        data.extend_from_records(records, source, progress)?;
        Ok(data)
    }

    /// Appends records as [`Dataset::from_records`] reads them (`progress` and the record
    /// numbers of errors counting this call's records). `source` must list features of this
    /// dataset's count.
    pub fn extend_from_records<I, E>(
        &mut self,
        records: I,
        source: &dyn PositionFeatures,
        mut progress: impl FnMut(usize),
    ) -> Result<(), DatasetError<E>>
    where
        I: Iterator<Item = Result<TrainingRecord, E>>,
    {
        const BLOCK_RECORDS: usize = 1 << 14;
        if source.feature_count() != self.feature_count() {
            return Err(DatasetError::FeatureCount {
                positions: source.feature_count(),
                dataset: self.feature_count(),
            });
        }
        let start = self.len();
        let data = self;
        let mut records = records.peekable();
        let mut block = Vec::with_capacity(BLOCK_RECORDS);
        while records.peek().is_some() {
            block.clear();
            for r in records.by_ref().take(BLOCK_RECORDS) {
                let n = data.len() - start + block.len() + 1;
                block.push(r.map_err(|error| DatasetError::Source { number: n, error })?);
            }
            let first = data.len() - start;
            let features: Vec<Result<ReadPosition, RecordError>> = block
                .par_iter()
                .map(|r| {
                    let (mut stm, mut nstm) = (Vec::new(), Vec::new());
                    let (men, reference) =
                        source.features_and_reference(&r.fen, &mut stm, &mut nstm)?;
                    Ok(((stm, nstm), men, reference))
                })
                .collect();
            for (i, (r, f)) in block.iter().zip(features).enumerate() {
                let at = |error| DatasetError::Record {
                    number: first + i + 1,
                    fen: r.fen.clone(),
                    error,
                };
                let ((stm, nstm), men, reference) = f.map_err(at)?;
                data.push(&stm, &nstm, men, r.score, r.result).map_err(at)?;
                data.push_reference(reference);
            }
            progress(data.len() - start);
        }
        Ok(())
    }

    /// Records the hand-written evaluation of the position just pushed (`None`: the source has
    /// none, and the dataset then keeps none at all).
    pub fn push_reference(&mut self, reference: Option<i32>) {
        match reference {
            Some(cp) if !self.reference_missing => {
                // Clamped like datagen's scores: beyond ±32,000 only the sign matters.
                self.reference.push(cp.clamp(-32_000, 32_000) as i16);
            }
            _ => {
                self.reference_missing = true;
                self.reference = Vec::new();
            }
        }
    }

    /// The hand-written evaluation of position `i`, if the dataset has them.
    pub fn reference(&self, i: usize) -> Option<i16> {
        if self.reference_missing || self.reference.len() != self.len() {
            return None;
        }
        Some(self.reference[i])
    }

    /// The mean number of features active in one perspective.
    pub fn mean_active(&self) -> f64 {
        self.feats.len() as f64 / (2 * self.len()).max(1) as f64
    }

    #[inline]
    fn stm(&self, i: usize) -> &[u16] {
        &self.feats[self.offsets[2 * i] as usize..self.offsets[2 * i + 1] as usize]
    }

    #[inline]
    fn nstm(&self, i: usize) -> &[u16] {
        &self.feats[self.offsets[2 * i + 1] as usize..self.offsets[2 * i + 2] as usize]
    }

    /// The side-to-move and other-side features of position `i`.
    pub fn features(&self, i: usize) -> (&[u16], &[u16]) {
        (self.stm(i), self.nstm(i))
    }

    /// The score and result of position `i`.
    pub fn label(&self, i: usize) -> (i16, i8) {
        (self.score[i], self.result[i])
    }

    /// The men on the board of position `i`.
    #[inline]
    pub fn men(&self, i: usize) -> u32 {
        u32::from(self.men[i])
    }

    /// The dataset with positions of fewer than `below` active features (in the side to
    /// move's perspective: the pieces, in most games) kept only with probability `keep`, in
    /// their order, each kept or not by a hash of `seed` and its index. Self-play spends most
    /// of its positions on long endgames, while games are decided in the middle game: thinning
    /// the sparse positions shifts the training toward the positions that matter most.
    pub fn thin(&self, below: usize, keep: f64, seed: u64) -> Dataset {
        let threshold = (keep.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
        let mut out = Dataset::new(self.feature_count);
        let keep_reference = !self.reference_missing && self.reference.len() == self.len();
        for i in 0..self.len() {
            let (stm, nstm) = self.features(i);
            let drawn = mix64(seed ^ 0x7468_696e ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            if stm.len() >= below || drawn < threshold {
                let (score, result) = self.label(i);
                out.store(
                    stm.iter().copied(),
                    nstm.iter().copied(),
                    self.men[i],
                    score,
                    result,
                );
                if keep_reference {
                    out.reference.push(self.reference[i]);
                }
            }
        }
        out.reference_missing = !keep_reference;
        out
    }
}

/// The trainer's settings (the `cannonade train` options; defaults and reasons in
/// `docs/nnue.md`).
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    /// Adam's initial learning rate; it decays along a cosine to [`FINAL_LR_FRACTION`] of it.
    pub lr: f32,
    /// λ: the weight of the game result in the loss (0: score only, 1: result only).
    pub wdl: f32,
    /// S: centipawns per unit of the net's output, and of the loss's `sigmoid(cp / S)`.
    pub scale: u32,
    /// The fraction of positions held out for validation.
    pub validation: f64,
    pub seed: u64,
    /// The net training starts from (random weights from `seed` when `None`); its feature
    /// count must be the data's and its hidden size `hidden`. With king buckets it may also be
    /// a net of one bucket of the game's features (each bucket starts as it), or a factorised
    /// net of the same layout ([`FloatNetwork::factorised`]).
    pub init: Option<FloatNetwork>,
    /// The king-bucket layout of the data's feature indices (bucket `b`'s features are
    /// `b * F .. (b + 1) * F`, the data's feature count being `count * F`). A bucketed layout
    /// trains with the factoriser: every bucket's rows plus rows shared by all buckets, merged
    /// into the net that is saved.
    pub buckets: KingBuckets,
    /// The output buckets of the trained net. A starting net of one output starts every
    /// bucket as its output layer ([`FloatNetwork::with_outputs`]).
    pub outputs: OutputBuckets,
}

/// Defaults of the settings (the reasons are in `docs/nnue.md`).
pub const DEFAULT_EPOCHS: usize = 15;
pub const DEFAULT_BATCH: usize = 16384;
pub const DEFAULT_LR: f32 = 0.001;
pub const DEFAULT_WDL: f32 = 0.3;
pub const DEFAULT_VALIDATION: f64 = 0.05;

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: DEFAULT_HIDDEN,
            epochs: DEFAULT_EPOCHS,
            batch: DEFAULT_BATCH,
            lr: DEFAULT_LR,
            wdl: DEFAULT_WDL,
            scale: DEFAULT_SCALE,
            validation: DEFAULT_VALIDATION,
            seed: 1,
            init: None,
            buckets: KingBuckets::None,
            outputs: OutputBuckets::ONE,
        }
    }
}

/// Where the cosine learning-rate decay ends, as a fraction of the initial rate.
pub const FINAL_LR_FRACTION: f32 = 0.05;

/// Each batch is cut into this many fixed parts whose gradients are computed in parallel and
/// then added in order (so the result does not depend on the thread count).
pub const SLICES: usize = 16;

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// One epoch's numbers (epoch 0: the untrained net, before any step).
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub epochs: usize,
    /// Mean loss over the epoch's training batches (each measured before its update).
    pub train_loss: Option<f64>,
    /// Mean loss on the held-out positions after the epoch.
    pub validation_loss: Option<f64>,
    /// Training positions per second in this epoch (validation not counted).
    pub positions_per_second: f64,
    /// Since training started.
    pub elapsed: Duration,
    /// The learning rate at the end of the epoch.
    pub lr: f32,
}

/// What a training run produced.
#[derive(Clone, Debug)]
pub struct TrainOutcome {
    pub float: FloatNetwork,
    pub network: Network,
    pub quantisation: QuantReport,
    pub train_positions: usize,
    pub validation_positions: usize,
    /// Validation loss of the float net and of the quantised net (`None` without validation).
    pub float_validation_loss: Option<f64>,
    pub quantised_validation_loss: Option<f64>,
    pub epochs: Vec<EpochReport>,
}

/// Hears about the run's progress (a progress bar, a log, or nothing).
pub trait TrainObserver {
    /// After each batch: positions of this epoch done, and the epoch's total.
    fn batch(&mut self, _epoch: usize, _done: usize, _total: usize) {}
    /// After each epoch (and once for epoch 0 before training).
    fn epoch(&mut self, _report: &EpochReport) {}
}

/// An observer that ignores everything.
pub struct Silent;

impl TrainObserver for Silent {}

/// Per-position loss and the derivative of the loss with respect to the raw output `y`.
///
/// `loss = (1-λ)·(σ(y) - σ(score/S))² + λ·(σ(y) - result01)²`, whose derivative is
/// `2·(σ(y) - t)·σ(y)·(1 - σ(y))` with the blended target `t = (1-λ)·σ(score/S) + λ·result01`.
#[inline]
fn loss_and_grad(y: f32, score: i16, result: i8, scale: f32, wdl: f32) -> (f32, f32) {
    let p = sigmoid(y);
    let s = sigmoid(f32::from(score) / scale);
    let r = (f32::from(result) + 1.0) * 0.5;
    let loss = (1.0 - wdl) * (p - s) * (p - s) + wdl * (p - r) * (p - r);
    let t = (1.0 - wdl) * s + wdl * r;
    (loss, 2.0 * (p - t) * p * (1.0 - p))
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// One slice's gradient, with its scratch space. Only the rows of the features seen in the
/// slice are written (and later cleared), so a slice touches a small part of a large feature
/// transformer.
struct SliceGrad {
    ft: Vec<f32>,
    touched: Vec<bool>,
    rows: Vec<u32>,
    ft_bias: Vec<f32>,
    /// Every output bucket's weights, as the net holds them.
    out: Vec<f32>,
    out_bias: Vec<f32>,
    loss: f64,
    acc_s: Vec<f32>,
    acc_n: Vec<f32>,
    d_s: Vec<f32>,
    d_n: Vec<f32>,
}

impl SliceGrad {
    fn new(features: usize, hidden: usize, outputs: usize) -> SliceGrad {
        SliceGrad {
            ft: vec![0.0; features * hidden],
            touched: vec![false; features],
            rows: Vec::new(),
            ft_bias: vec![0.0; hidden],
            out: vec![0.0; outputs * 2 * hidden],
            out_bias: vec![0.0; outputs],
            loss: 0.0,
            acc_s: vec![0.0; hidden],
            acc_n: vec![0.0; hidden],
            d_s: vec![0.0; hidden],
            d_n: vec![0.0; hidden],
        }
    }

    fn clear(&mut self, hidden: usize) {
        for &r in &self.rows {
            let r = r as usize;
            self.ft[r * hidden..(r + 1) * hidden].fill(0.0);
            self.touched[r] = false;
        }
        self.rows.clear();
        self.ft_bias.fill(0.0);
        self.out.fill(0.0);
        self.out_bias.fill(0.0);
        self.loss = 0.0;
    }

    /// Adds one position's gradient (forward, loss, backward).
    fn add_position(&mut self, net: &FloatNetwork, data: &Dataset, i: usize, cfg: &Settings) {
        let h = net.hidden;
        let (stm, nstm) = data.features(i);
        net.accumulate(stm, &mut self.acc_s);
        net.accumulate(nstm, &mut self.acc_n);
        let bucket = net.outputs.bucket(data.men(i));
        let y = net.output(&self.acc_s, &self.acc_n, bucket);
        let (score, result) = data.label(i);
        let (loss, gy) = loss_and_grad(y, score, result, cfg.scale, cfg.wdl);
        self.loss += f64::from(loss);
        self.out_bias[bucket] += gy;
        let (ws, wn) = net.out_layer(bucket).split_at(h);
        let (gs, gn) = self.out[bucket * 2 * h..(bucket + 1) * 2 * h].split_at_mut(h);
        backward_half(&self.acc_s, ws, gy, gs, &mut self.d_s);
        backward_half(&self.acc_n, wn, gy, gn, &mut self.d_n);
        add_assign(&mut self.ft_bias, &self.d_s);
        add_assign(&mut self.ft_bias, &self.d_n);
        for (list, d) in [(stm, &self.d_s), (nstm, &self.d_n)] {
            for &f in list {
                let f = usize::from(f);
                // A factorised net's feature also feeds its shared row (the same gradient).
                for r in std::iter::once(f).chain(net.shared_row(f)) {
                    if !self.touched[r] {
                        self.touched[r] = true;
                        self.rows.push(r as u32);
                    }
                    add_assign(&mut self.ft[r * h..(r + 1) * h], d);
                }
            }
        }
    }
}

/// The backward pass through one perspective's activation and output weights: output weight
/// gradients into `g_out`, the gradient of the pre-activation values into `d_acc`. Written over
/// fixed blocks without branches, so that it runs in vector lanes.
#[inline]
fn backward_half(acc: &[f32], w: &[f32], gy: f32, g_out: &mut [f32], d_acc: &mut [f32]) {
    let blocks = acc
        .chunks_exact(BLOCK)
        .zip(w.chunks_exact(BLOCK))
        .zip(g_out.chunks_exact_mut(BLOCK))
        .zip(d_acc.chunks_exact_mut(BLOCK));
    for (((a, w), g), d) in blocks {
        for i in 0..BLOCK {
            let c = a[i].clamp(0.0, 1.0);
            g[i] += gy * c * c;
            // d/da clamp(a, 0, 1)^2 = 2a inside (0, 1), 0 outside (c is 0 below 0).
            d[i] = if a[i] < 1.0 { 2.0 * c * w[i] * gy } else { 0.0 };
        }
    }
}

/// The settings the per-position code needs, as `f32`.
struct Settings {
    scale: f32,
    wdl: f32,
}

/// Adam's moments for one parameter vector.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Moments {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }
}

/// One Adam step on a slice of parameters with their gradients (already averaged).
#[inline]
fn adam(w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], step: &Step, clip: f32) {
    for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        let update = step.lr * (*m * step.c1) / ((*v * step.c2).sqrt() + EPSILON);
        *w = (*w - update).clamp(-clip, clip);
    }
}

/// The learning rate and Adam's bias corrections of one step.
struct Step {
    lr: f32,
    c1: f32,
    c2: f32,
}

/// Rows of the feature transformer updated by one rayon task.
const ROWS_PER_TASK: usize = 16;

/// Applies one batch's gradient (the sum of the slices', divided by `n`) with Adam.
fn apply(
    net: &mut FloatNetwork,
    adam_state: &mut [Moments; 4],
    slices: &[SliceGrad],
    n: usize,
    step: &Step,
) {
    let h = net.hidden;
    let inv = 1.0 / n as f32;
    let [m_ft, m_ftb, m_out, m_outb] = adam_state;
    // The small vectors: summed slice by slice, in order, then averaged.
    let mean = |len: usize, parts: &mut dyn Iterator<Item = &[f32]>| {
        let mut g = vec![0.0f32; len];
        for p in parts {
            add_assign(&mut g, p);
        }
        g.iter_mut().for_each(|x| *x *= inv);
        g
    };
    let grads = [
        mean(
            net.out_weights.len(),
            &mut slices.iter().map(|s| &s.out[..]),
        ),
        mean(h, &mut slices.iter().map(|s| &s.ft_bias[..])),
        mean(
            net.out_bias.len(),
            &mut slices.iter().map(|s| &s.out_bias[..]),
        ),
    ];
    let small = [
        (&mut net.out_weights, m_out, OUT_CLIP),
        (&mut net.ft_bias, m_ftb, f32::INFINITY),
        (&mut net.out_bias, m_outb, f32::INFINITY),
    ];
    for ((params, moments, clip), g) in small.into_iter().zip(grads) {
        adam(params, &g, &mut moments.m, &mut moments.v, step, clip);
    }
    // The feature transformer: rows in parallel; each row adds the slices that touched it, in
    // slice order. Rows no slice touched still take Adam's step (their moments decay).
    let chunk = ROWS_PER_TASK * h;
    net.ft_weights
        .par_chunks_mut(chunk)
        .zip(m_ft.m.par_chunks_mut(chunk))
        .zip(m_ft.v.par_chunks_mut(chunk))
        .enumerate()
        .for_each(|(task, ((w, m), v))| {
            let mut g = vec![0.0f32; h];
            for (r, ((w, m), v)) in w
                .chunks_exact_mut(h)
                .zip(m.chunks_exact_mut(h))
                .zip(v.chunks_exact_mut(h))
                .enumerate()
            {
                let row = task * ROWS_PER_TASK + r;
                g.fill(0.0);
                for s in slices.iter().filter(|s| s.touched[row]) {
                    add_assign(&mut g, &s.ft[row * h..(row + 1) * h]);
                }
                g.iter_mut().for_each(|x| *x *= inv);
                adam(w, &g, m, v, step, FT_CLIP);
            }
        });
}

/// The mean loss of the float net over `positions`.
fn float_loss(net: &FloatNetwork, data: &Dataset, positions: &[u32], cfg: &Settings) -> f64 {
    if positions.is_empty() {
        return 0.0;
    }
    let h = net.hidden;
    let sums: Vec<f64> = positions
        .par_chunks(1024)
        .map(|chunk| {
            let (mut a, mut b) = (vec![0.0; h], vec![0.0; h]);
            let mut sum = 0.0;
            for &i in chunk {
                let (stm, nstm) = data.features(i as usize);
                net.accumulate(stm, &mut a);
                net.accumulate(nstm, &mut b);
                let (score, result) = data.label(i as usize);
                let y = net.output(&a, &b, net.outputs.bucket(data.men(i as usize)));
                sum += f64::from(loss_and_grad(y, score, result, cfg.scale, cfg.wdl).0);
            }
            sum
        })
        .collect();
    sums.iter().sum::<f64>() / positions.len() as f64
}

/// The mean loss of the quantised net over `positions` (its centipawns divided by the scale
/// stand for the raw output).
fn quantised_loss(net: &Network, data: &Dataset, positions: &[u32], cfg: &Settings) -> f64 {
    if positions.is_empty() {
        return 0.0;
    }
    let sums: Vec<f64> = positions
        .par_chunks(1024)
        .map(|chunk| {
            let (mut a, mut b) = (Accumulator::new(net), Accumulator::new(net));
            let (mut fa, mut fb) = (Vec::new(), Vec::new());
            let mut sum = 0.0;
            for &i in chunk {
                let (stm, nstm) = data.features(i as usize);
                fa.clear();
                fa.extend(stm.iter().map(|&f| u32::from(f)));
                fb.clear();
                fb.extend(nstm.iter().map(|&f| u32::from(f)));
                a.refresh(net, &fa);
                b.refresh(net, &fb);
                let bucket = net.output_buckets().bucket(data.men(i as usize));
                let y = net.evaluate(&a, &b, bucket) as f32 / cfg.scale;
                let (score, result) = data.label(i as usize);
                sum += f64::from(loss_and_grad(y, score, result, cfg.scale, cfg.wdl).0);
            }
            sum
        })
        .collect();
    sums.iter().sum::<f64>() / positions.len() as f64
}

/// A seeded Fisher-Yates shuffle.
fn shuffle(v: &mut [u32], rng: &mut SplitMix64) {
    for i in (1..v.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

/// Checks that a net can have `hidden` units per perspective: a positive multiple of [`BLOCK`]
/// up to [`MAX_HIDDEN`].
pub fn check_hidden(hidden: usize) -> Result<(), TrainError> {
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(BLOCK) {
        return Err(TrainError::Hidden(hidden));
    }
    Ok(())
}

/// Checks the settings against the data; the error names the bad setting.
fn check_config(cfg: &TrainConfig, data: &Dataset) -> Result<(), TrainError> {
    check_hidden(cfg.hidden)?;
    if cfg.batch == 0 {
        return Err(TrainError::Batch);
    }
    if !(cfg.lr > 0.0 && cfg.lr.is_finite()) {
        return Err(TrainError::LearningRate(cfg.lr));
    }
    if !(0.0..=1.0).contains(&cfg.wdl) {
        return Err(TrainError::Wdl(cfg.wdl));
    }
    if cfg.scale == 0 {
        return Err(TrainError::Scale);
    }
    if !(0.0..1.0).contains(&cfg.validation) {
        return Err(TrainError::Validation(cfg.validation));
    }
    let rows = data.feature_count();
    if !rows.is_multiple_of(cfg.buckets.count()) {
        return Err(TrainError::BucketRows {
            features: rows,
            layout: cfg.buckets,
        });
    }
    if let Some(init) = &cfg.init {
        let base = rows / cfg.buckets.count();
        let layout_fits = match (init.shared, init.buckets == cfg.buckets) {
            (0, true) => init.features == rows,
            (0, false) => !init.buckets.is_bucketed() && init.features == base,
            (shared, true) => shared == base && init.features == rows + base,
            _ => false,
        };
        if init.outputs != cfg.outputs && init.outputs.is_bucketed() {
            return Err(TrainError::StartingOutputs {
                net: init.outputs,
                wanted: cfg.outputs,
            });
        }
        if !layout_fits || init.hidden != cfg.hidden {
            return Err(TrainError::StartingNet {
                net_features: init.features,
                net_hidden: init.hidden,
                features: data.feature_count(),
                hidden: cfg.hidden,
            });
        }
    }
    if data.feature_count() == 0 {
        return Err(TrainError::NoFeatures);
    }
    if data.len() < 2 {
        return Err(TrainError::TooFewPositions(data.len()));
    }
    Ok(())
}

/// The yardstick a net must beat: the loss of the hand-written evaluation on `positions`,
/// under the same blended target as the net's loss, with the evaluation turned into an
/// expected score by `sigmoid(cp / k)` and `k` fitted to make the loss smallest (the net learns
/// its own scale; the evaluation is given the best one). `(loss, k)`; `None` without
/// hand-written evaluations or positions.
pub fn reference_loss(
    data: &Dataset,
    positions: &[u32],
    wdl: f32,
    scale: u32,
) -> Option<(f64, f64)> {
    if positions.is_empty() {
        return None;
    }
    let evals: Vec<(i16, i16, i8)> = positions
        .iter()
        .map(|&i| {
            let (score, result) = data.label(i as usize);
            data.reference(i as usize).map(|e| (e, score, result))
        })
        .collect::<Option<_>>()?;
    let loss_at = |k: f64| -> f64 {
        let sums: Vec<f64> = evals
            .par_chunks(4096)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|&(e, score, result)| {
                        let y = (f64::from(e) / k) as f32;
                        f64::from(loss_and_grad(y, score, result, scale as f32, wdl).0)
                    })
                    .sum::<f64>()
            })
            .collect();
        sums.iter().sum::<f64>() / evals.len() as f64
    };
    // The loss is smooth and has one minimum in k for any sensible evaluation: a coarse
    // geometric grid from 25 to 6,400 cp, then a golden-section search around the best point.
    let grid: Vec<f64> = (0..=32).map(|j| 25.0 * 2f64.powf(j as f64 / 4.0)).collect();
    let losses: Vec<f64> = grid.iter().map(|&k| loss_at(k)).collect();
    let best = (0..grid.len())
        .min_by(|&a, &b| losses[a].total_cmp(&losses[b]))
        .expect("a grid point");
    let (mut lo, mut hi) = (
        grid[best.saturating_sub(1)],
        grid[(best + 1).min(grid.len() - 1)],
    );
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let (a, b) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
        if loss_at(a) < loss_at(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let k = (lo + hi) / 2.0;
    Some((loss_at(k), k))
}

/// The most consecutive positions held out together. A data file keeps each game's positions
/// together (datagen writes game by game), and positions of one game share its result and look
/// alike: held out one by one, the validation set would be full of positions whose games the
/// net has trained on, and a net that learns games by heart would look good. Blocks of 1,024
/// positions (about ten self-play games) leak only at their edges. Fewer than two positions
/// hold nothing out (training refuses them anyway).
pub const SPLIT_BLOCK: usize = 1024;

/// Splits `0..n` into (training, validation) positions: the positions are cut into blocks of
/// consecutive ones (of [`SPLIT_BLOCK`], smaller for small data so that there are at least 256
/// blocks), a seeded permutation of the blocks is taken, and the first `round(n * fraction)`
/// positions of it are held out (at least one when the fraction is positive), whole blocks
/// but possibly the last. Both lists are in increasing order within each block.
pub fn split(n: usize, fraction: f64, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let block = (n / 256).clamp(1, SPLIT_BLOCK);
    let mut blocks: Vec<u32> = (0..n.div_ceil(block) as u32).collect();
    shuffle(
        &mut blocks,
        &mut SplitMix64::new(seed ^ 0x7661_6c69_6461_7465),
    );
    let mut all: Vec<u32> = blocks
        .iter()
        .flat_map(|&b| (b as usize * block..((b as usize + 1) * block).min(n)).map(|i| i as u32))
        .collect();
    let mut held = (n as f64 * fraction).round() as usize;
    if n < 2 {
        held = 0;
    } else if fraction > 0.0 {
        held = held.clamp(1, n - 1);
    }
    let train = all.split_off(held);
    (train, all)
}

/// Trains a net for `variant` on `data` and quantises it. Runs on the current rayon pool (the
/// caller chooses the threads with `ThreadPool::install`).
pub fn train(
    data: &Dataset,
    cfg: &TrainConfig,
    variant: &str,
    observer: &mut dyn TrainObserver,
) -> Result<TrainOutcome, TrainError> {
    check_config(cfg, data)?;
    let settings = Settings {
        scale: cfg.scale as f32,
        wdl: cfg.wdl,
    };
    let hidden = cfg.hidden;
    // Feature index `b * base + f` is feature `f` of the game in king bucket `b`.
    let base = data.feature_count() / cfg.buckets.count();
    let (mut train_set, validation) = split(data.len(), cfg.validation, cfg.seed);
    let net = match &cfg.init {
        Some(init) => init.clone(),
        // A new bucketed net: random shared rows, every bucket's own at zero.
        None => FloatNetwork::new_random(base, hidden, cfg.seed),
    };
    let mut net = net.factorised(cfg.buckets, base).with_outputs(cfg.outputs);
    let features = net.features;
    let outputs = cfg.outputs.count();
    let mut moments = [
        Moments::new(features * hidden),
        Moments::new(hidden),
        Moments::new(outputs * 2 * hidden),
        Moments::new(outputs),
    ];
    let mut slices: Vec<SliceGrad> = (0..SLICES)
        .map(|_| SliceGrad::new(features, hidden, outputs))
        .collect();
    let batches_per_epoch = train_set.len().div_ceil(cfg.batch);
    let total_steps = (batches_per_epoch * cfg.epochs).max(1);
    let started = Instant::now();
    let validation_loss = |net: &FloatNetwork| {
        (!validation.is_empty()).then(|| float_loss(net, data, &validation, &settings))
    };
    let mut reports = vec![EpochReport {
        epoch: 0,
        epochs: cfg.epochs,
        train_loss: None,
        validation_loss: validation_loss(&net),
        positions_per_second: 0.0,
        elapsed: started.elapsed(),
        lr: cfg.lr,
    }];
    observer.epoch(&reports[0]);
    let mut step_no = 0usize;
    let mut lr = cfg.lr;
    for epoch in 1..=cfg.epochs {
        let epoch_start = Instant::now();
        let mut rng =
            SplitMix64::new(cfg.seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        shuffle(&mut train_set, &mut rng);
        let mut loss_sum = 0.0f64;
        let mut done = 0usize;
        for batch in train_set.chunks(cfg.batch) {
            let progress = step_no as f32 / total_steps as f32;
            let cosine = 0.5 * (1.0 + (std::f32::consts::PI * progress).cos());
            lr = cfg.lr * (FINAL_LR_FRACTION + (1.0 - FINAL_LR_FRACTION) * cosine);
            step_no += 1;
            let len = batch.len();
            slices.par_iter_mut().enumerate().for_each(|(k, s)| {
                s.clear(hidden);
                for &i in &batch[k * len / SLICES..(k + 1) * len / SLICES] {
                    s.add_position(&net, data, i as usize, &settings);
                }
            });
            loss_sum += slices.iter().map(|s| s.loss).sum::<f64>();
            let step = Step {
                lr,
                c1: 1.0 / (1.0 - BETA1.powi(step_no as i32)),
                c2: 1.0 / (1.0 - BETA2.powi(step_no as i32)),
            };
            apply(&mut net, &mut moments, &slices, len, &step);
            done += len;
            observer.batch(epoch, done, train_set.len());
        }
        let seconds = epoch_start.elapsed().as_secs_f64();
        let report = EpochReport {
            epoch,
            epochs: cfg.epochs,
            train_loss: Some(loss_sum / train_set.len() as f64),
            validation_loss: validation_loss(&net),
            positions_per_second: train_set.len() as f64 / seconds.max(1e-9),
            elapsed: started.elapsed(),
            lr,
        };
        observer.epoch(&report);
        reports.push(report);
    }
    let (network, quantisation) = net.quantise(variant, DEFAULT_QA, DEFAULT_QB, cfg.scale)?;
    let (float_validation_loss, quantised_validation_loss) = if validation.is_empty() {
        (None, None)
    } else {
        (
            Some(float_loss(&net, data, &validation, &settings)),
            Some(quantised_loss(&network, data, &validation, &settings)),
        )
    };
    Ok(TrainOutcome {
        float: net.merged(),
        network,
        quantisation,
        train_positions: train_set.len(),
        validation_positions: validation.len(),
        float_validation_loss,
        quantised_validation_loss,
        epochs: reports,
    })
}

#[cfg(test)]
mod tests;
