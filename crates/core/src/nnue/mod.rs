//! The game-agnostic NNUE core: the network, its file format, quantised integer inference and
//! the trainer. Nothing here knows a game: a game describes a position as lists of active
//! input features ([`NnueFeatures`]), and everything else is the same for every variant.
//!
//! Shape (see `docs/nnue.md`): sparse binary inputs -> `H` hidden units per perspective (one
//! feature transformer shared by both perspectives) -> squared clipped ReLU -> both halves
//! concatenated, side to move first -> one output, in centipawns (one of several output layers
//! where the net has output buckets, chosen by the men on the board: [`OutputBuckets`]).
//!
//! - [`FloatNetwork`]: the `f32` network the trainer works on.
//! - [`Network`]: the quantised network the engine evaluates with, loaded from and saved to a
//!   net file ([`Network::from_bytes`], [`Network::load`], [`Network::save`]).
//! - [`Accumulator`]: one perspective's hidden layer before the activation, kept up to date
//!   feature by feature ([`Accumulator::add`], [`Accumulator::remove`]) or rebuilt
//!   ([`Accumulator::refresh`]); [`Network::evaluate`] turns two of them into a score.
//!
//! The trainer behind `cannonade train` is in the tools crate (`cannonade_tools::train`).
//!
//! Layering: this module uses only [`crate::board::Color`], so the games (which implement
//! [`NnueFeatures`]) and the search (which will keep a stack of accumulators) can both build
//! on it.

mod buckets;
pub mod float;
mod format;
mod network;
mod outputs;
#[doc(hidden)]
pub mod testing;

pub use buckets::{KingBuckets, KingSquare, KingView, UnknownLayout};
pub use float::{FloatNetwork, QuantReport};
pub use format::{crc32, NetError, FORMAT_VERSION, MAGIC};
pub use network::{Accumulator, Network};
pub use outputs::{OutputBuckets, MAX_OUTPUT_BUCKETS};

use crate::board::Color;

/// Hidden units are processed in blocks of this many, so the hidden size must be a multiple of
/// it (the loops over fixed-size blocks are what the compiler vectorises).
pub const BLOCK: usize = 16;

/// The hidden size of a net trained without `--hidden`.
pub const DEFAULT_HIDDEN: usize = 256;

/// The largest hidden size a net file may declare.
pub const MAX_HIDDEN: usize = 4096;

/// The most input features a net may have (feature indices are stored as `u16` by the
/// trainer).
pub const MAX_FEATURES: usize = 1 << 16;

/// Quantisation of the feature transformer (weights and biases are stored times `QA`, and the
/// clipped activation's 1.0 is `QA`).
pub const DEFAULT_QA: u16 = 255;

/// Quantisation of the output weights (stored times `QB`; the output bias times `QA * QB`).
pub const DEFAULT_QB: u16 = 256;

/// The largest output weight a net may hold, in either sign. It keeps the evaluation's sums of
/// [`BLOCK`] products exact in `i32`: 16 * 255^2 * 2048 = 2,130,739,200 < 2^31.
pub const MAX_OUT_WEIGHT: i16 = 2048;

/// Centipawns per unit of the network's raw output (the `S` of the loss's `sigmoid(cp / S)`).
pub const DEFAULT_SCALE: u32 = 400;

/// The most features one move can add, or remove, for one perspective (a capture with
/// promotion and a hand change, a castling, a Swedish cannon's entry: at most four each way).
/// A move that changes more is reported as "refresh" (see [`DirtyRecord`]).
pub const MAX_DELTA: usize = 8;

/// Feature indices a move added or removed.
pub type FeatureList = arrayvec::ArrayVec<u32, MAX_DELTA>;

/// What the last move changed on a game's board and hands, recorded by the one place each
/// game family funnels such changes through (its put-piece, remove-piece and hand-count
/// functions), in the game's own encoding of a change (one `u32` each). The game turns the
/// record into features afterwards, for whichever perspective asks
/// ([`NnueFeatures::last_move_delta`]).
///
/// A move clears it first; recording a change costs a store and an increment, so the
/// hand-written evaluation's path pays next to nothing for it. More changes than fit (a FEN
/// being read, a long unmake) mark it overflowed, which the reader takes as "refresh".
#[derive(Copy, Clone, Debug, Default)]
pub struct DirtyRecord {
    changes: [u32; MAX_DELTA],
    /// Changes recorded; above `MAX_DELTA` once overflowed (saturating).
    len: u8,
}

impl DirtyRecord {
    /// Forgets everything: a move is about to be made.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Records one change.
    #[inline(always)]
    pub fn push(&mut self, change: u32) {
        let n = self.len as usize;
        if n < MAX_DELTA {
            self.changes[n] = change;
        }
        self.len = self.len.saturating_add(1);
    }

    /// Marks the record as unusable: the next reader refreshes.
    #[inline(always)]
    pub fn overflow(&mut self) {
        self.len = u8::MAX;
    }

    /// Turns the changes since the last `clear` into features (the game's `feature` reads its
    /// own payload, the low 31 bits) and sorts them into `added` and `removed` by the
    /// [`ADDED`] bit. False when there were too many changes to keep or a list is full: the
    /// caller then refreshes. Every game's [`NnueFeatures::last_move_delta`] is this call.
    #[inline(always)]
    pub fn sort_into(
        &self,
        added: &mut FeatureList,
        removed: &mut FeatureList,
        mut feature: impl FnMut(u32) -> u32,
    ) -> bool {
        let n = self.len as usize;
        n <= MAX_DELTA
            && self.changes[..n].iter().all(|&c| {
                let list = if c & ADDED != 0 {
                    &mut *added
                } else {
                    &mut *removed
                };
                list.try_push(feature(c)).is_ok()
            })
    }
}

/// A change as the games encode it in a [`DirtyRecord`]: bit 31 says whether the feature
/// appeared (set) or went (clear); the game owns the other 31 bits.
pub const ADDED: u32 = 1 << 31;

/// The colour a game stored as bit `bit` of a recorded change (0: White, 1: Black).
#[inline(always)]
pub fn change_color(change: u32, bit: u32) -> Color {
    if (change >> bit) & 1 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// What a board feature stands for, in terms any game on a board of files and ranks shares: a
/// piece of the perspective's side (`theirs` false) or of the other side, of the kind whose FEN
/// letter (upper case) is `piece`, on file `file` and rank `rank` as the perspective sees the
/// board (0-based, from its own left and its own back rank). Two games' features with the same
/// meaning can start from the same weights: `cannonade train --init` starts a net for one game
/// from a net of another this way.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FeatureMeaning {
    pub theirs: bool,
    pub piece: char,
    pub file: u8,
    pub rank: u8,
}

/// The input features of a game's positions, as the network sees them.
///
/// A feature is a yes/no fact about the position seen from one side (the *perspective*), such
/// as "one of my knights stands on my c3". The game numbers its features `0..feature_count()`
/// and lists those that hold; the network sums one learned row per listed feature. Both
/// perspectives use the same numbering (the board seen from each side), so one feature
/// transformer serves both. Counts (pieces in hand or in reserve) are written as several
/// features: "at least one", "at least two", ...
///
/// Every game implements it (it is a supertrait of [`crate::games::Game`]), in its own module:
/// orthodox chess's reference implementation is in `games/chess/nnue_features.rs`.
pub trait NnueFeatures {
    /// How many features the game has: every index listed is below it.
    fn feature_count(&self) -> usize;

    /// Appends the indices of the features that hold in this position, seen from
    /// `perspective`'s side. The order does not matter; an index may not repeat.
    fn active_features(&self, perspective: Color, out: &mut Vec<u32>);

    /// Right after `make_move` or `make_null_move`: the features, seen from `perspective`,
    /// that the move made active (`added`) and inactive (`removed`), so that an accumulator
    /// of the position before the move, plus the rows of `added`, minus those of `removed`,
    /// is the accumulator of the position after it. Both lists start empty. False when the
    /// position cannot tell (too many changes, or none recorded since it was set up): the
    /// caller then refreshes from [`NnueFeatures::active_features`].
    fn last_move_delta(
        &self,
        perspective: Color,
        added: &mut FeatureList,
        removed: &mut FeatureList,
    ) -> bool;

    /// What feature `feature` stands for, if it is a piece on a square (`None` for counts in
    /// hand or reserve, and in games that do not describe their features).
    fn feature_meaning(&self, feature: u32) -> Option<FeatureMeaning> {
        let _ = feature;
        None
    }

    /// How many men stand on the board (both sides, kings included; not those in hand or in
    /// reserve): what picks a net's output bucket ([`OutputBuckets`]).
    fn nnue_men(&self) -> u32;

    /// The output bucket of this position under `layout`.
    #[inline]
    fn output_bucket(&self, layout: OutputBuckets) -> usize {
        if !layout.is_bucketed() {
            return 0;
        }
        layout.bucket(self.nnue_men())
    }

    /// Whether the game's nets may have king buckets: its positions say where each side's king
    /// stands ([`NnueFeatures::nnue_king`]). A game without them takes only nets of one
    /// bucket ([`Network::check_king_buckets`]).
    fn has_king_buckets(&self) -> bool {
        false
    }

    /// Where `perspective`'s king stands, as `perspective` sees the board (the view its
    /// features use). `None` in a game without king buckets, or if that side has no king.
    fn nnue_king(&self, perspective: Color) -> Option<KingSquare> {
        let _ = perspective;
        None
    }

    /// Feature `feature` with the board mirrored left to right (the perspective's file `f`
    /// becoming file `files - 1 - f`, counts in hand or reserve unchanged): what a net of
    /// [`KingBuckets::Mirror`] reads when the perspective's king stands on the left half. It
    /// must map the features one to one. Asked only of games with king buckets
    /// ([`NnueFeatures::has_king_buckets`]); the others keep this default, which is never used.
    fn mirror_feature(&self, feature: u32) -> u32 {
        feature
    }

    /// `perspective`'s bucket and mirroring under `layout` (bucket 0, not mirrored, where it
    /// has no king).
    #[inline]
    fn king_view(&self, layout: KingBuckets, perspective: Color) -> KingView {
        if !layout.uses_king() {
            return KingView::default();
        }
        self.nnue_king(perspective)
            .map_or(KingView::default(), |k| layout.view(k))
    }

    /// `perspective`'s king bucket under `layout` (0 where it has no king).
    #[inline]
    fn king_bucket(&self, layout: KingBuckets, perspective: Color) -> usize {
        self.king_view(layout, perspective).bucket
    }

    /// The row of feature `f` for a perspective of king view `view`: mirrored if the view
    /// says so, then moved to its bucket (`bucket * feature_count() + f`).
    #[inline(always)]
    fn feature_row(&self, view: KingView, f: u32) -> u32 {
        let f = if view.mirrored {
            self.mirror_feature(f)
        } else {
            f
        };
        f + (view.bucket * self.feature_count()) as u32
    }

    /// [`NnueFeatures::active_features`] for a net of king-bucket layout `layout`: each index
    /// moved to the perspective's row ([`NnueFeatures::feature_row`]).
    #[inline]
    fn bucketed_features(&self, layout: KingBuckets, perspective: Color, out: &mut Vec<u32>) {
        let start = out.len();
        self.active_features(perspective, out);
        if layout.uses_king() {
            let view = self.king_view(layout, perspective);
            out[start..]
                .iter_mut()
                .for_each(|f| *f = self.feature_row(view, *f));
        }
    }

    /// [`NnueFeatures::last_move_delta`] for a net of king-bucket layout `layout`.
    /// `view` is the perspective's king view before the move and becomes the one after it; the
    /// answer is false (refresh this perspective) also when they differ: the king changed
    /// bucket or wing, and every row with it.
    #[inline]
    fn bucketed_delta(
        &self,
        layout: KingBuckets,
        perspective: Color,
        view: &mut KingView,
        added: &mut FeatureList,
        removed: &mut FeatureList,
    ) -> bool {
        let known = self.last_move_delta(perspective, added, removed);
        if !layout.uses_king() {
            return known;
        }
        let before = std::mem::replace(view, self.king_view(layout, perspective));
        if !known || *view != before {
            return false;
        }
        let view = *view;
        added
            .iter_mut()
            .chain(removed.iter_mut())
            .for_each(|f| *f = self.feature_row(view, *f));
        true
    }
}

#[cfg(test)]
mod tests;
