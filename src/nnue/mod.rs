//! The game-agnostic NNUE core: the network, its file format, quantised integer inference and
//! the trainer. Nothing here knows a game: a game describes a position as lists of active
//! input features ([`NnueFeatures`]), and everything else is the same for every variant.
//!
//! Shape (see `docs/nnue.md`): sparse binary inputs -> `H` hidden units per perspective (one
//! feature transformer shared by both perspectives) -> squared clipped ReLU -> both halves
//! concatenated, side to move first -> one output, in centipawns.
//!
//! - [`FloatNetwork`]: the `f32` network the trainer works on.
//! - [`Network`]: the quantised network the engine evaluates with, loaded from and saved to a
//!   net file ([`Network::from_bytes`], [`Network::load`], [`Network::save`]).
//! - [`Accumulator`]: one perspective's hidden layer before the activation, kept up to date
//!   feature by feature ([`Accumulator::add`], [`Accumulator::remove`]) or rebuilt
//!   ([`Accumulator::refresh`]); [`Network::evaluate`] turns two of them into a score.
//! - [`train`]: the trainer behind `cannonade train`.
//!
//! Layering: this module uses only [`crate::board::Color`], so the games (which implement
//! [`NnueFeatures`]) and the search (which will keep a stack of accumulators) can both build
//! on it.

mod float;
mod format;
mod network;
pub mod train;

pub use float::{FloatNetwork, QuantReport};
pub use format::{crc32, NetError, FORMAT_VERSION, MAGIC};
pub use network::{Accumulator, Network};

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

/// The input features of a game's positions, as the network sees them.
///
/// A feature is a yes/no fact about the position seen from one side (the *perspective*), such
/// as "one of my knights stands on my c3". The game numbers its features `0..feature_count()`
/// and lists those that hold; the network sums one learned row per listed feature. Both
/// perspectives use the same numbering (the board seen from each side), so one feature
/// transformer serves both. Counts (pieces in hand or in reserve) are written as several
/// features: "at least one", "at least two", ...
///
/// Implemented by each game's position type (orthodox chess's reference implementation is in
/// `games/chess/nnue_features.rs`).
pub trait NnueFeatures {
    /// How many features the game has: every index listed is below it.
    fn feature_count(&self) -> usize;

    /// Appends the indices of the features that hold in this position, seen from
    /// `perspective`'s side. The order does not matter; an index may not repeat.
    fn active_features(&self, perspective: Color, out: &mut Vec<u32>);
}

#[cfg(test)]
mod tests;
