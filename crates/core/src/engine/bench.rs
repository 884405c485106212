//! Bench: a fixed-depth search of fixed positions of every variant, one thread, fresh hash.
//! Each variant evaluates as the engine does by default: with its embedded net where it has
//! one. The total node count is a signature of the search: it changes only when the search (or
//! a game's move generation, evaluation or embedded net) changes, so a patch that claims to
//! change nothing can be checked by it. Nodes per second measure speed, by the host's clock;
//! the searches run on the caller's thread (which needs the search's stack, see
//! [`crate::search::smp::SEARCH_STACK_BYTES`]).

use crate::engine::registry::{self, VARIANTS};
use crate::games::{GameError, Notation};
use crate::host::SharedHost;
use crate::search::{Limits, SearchControl, SearchOptions, TranspositionTable};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 9;
/// Hash size of the bench, MB.
const BENCH_HASH_MB: usize = 16;

/// Every benched position: (variant, FEN).
pub fn positions() -> Vec<(&'static str, &'static str)> {
    VARIANTS
        .iter()
        .flat_map(|v| {
            std::iter::once((v.game.name, v.game.start_fen))
                .chain(v.bench.iter().map(move |&f| (v.game.name, f)))
        })
        .collect()
}

/// What a bench measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000 / self.elapsed.as_micros().max(1)) as u64
    }
}

/// Why a bench did not finish.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum BenchError {
    /// A bench position the game refused (a bad registry entry).
    #[error("bench position {fen}: {error}")]
    Position { fen: &'static str, error: GameError },
    /// Cancelled before the end.
    #[error("stopped")]
    Stopped,
}

/// Runs the bench to `depth` on `host`; `progress` gets one line per position.
pub fn run(
    host: &SharedHost,
    depth: u32,
    progress: impl FnMut(String),
) -> Result<BenchResult, BenchError> {
    run_until(host, depth, &Arc::new(AtomicBool::new(false)), progress)
}

/// [`run`], stopped (with an error) as soon as `cancel` is set, even inside a search.
pub fn run_until(
    host: &SharedHost,
    depth: u32,
    cancel: &Arc<AtomicBool>,
    mut progress: impl FnMut(String),
) -> Result<BenchResult, BenchError> {
    let tt = Arc::new(TranspositionTable::new(BENCH_HASH_MB));
    let opts = SearchOptions {
        threads: 1,
        multipv: 1,
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    for (i, (variant, fen)) in positions().into_iter().enumerate() {
        let info = registry::find(variant).expect("registered");
        let mut session = info.new_session();
        // Each variant is searched as a game of it is played by default: with its embedded
        // net if it has one, and its tuned margins.
        let opts = SearchOptions {
            nnue: info
                .embedded_net(session.nnue_feature_count())
                .map(Arc::new),
            params: info.search_params(),
            ..opts.clone()
        };
        session
            .set_position(Some(fen), &[], Notation::Uci)
            .map_err(|error| BenchError::Position { fen, error })?;
        tt.clear();
        let ctl = Arc::new(SearchControl::with_cancel(
            Arc::clone(host),
            Arc::clone(cancel),
        ));
        let start = host.now();
        let r = session.search(&limits, &opts, &tt, &ctl, Notation::Uci, &mut |_| {});
        elapsed += host.now().saturating_sub(start);
        if cancel.load(Relaxed) {
            return Err(BenchError::Stopped);
        }
        nodes += r.nodes;
        progress(format!(
            "Position {} ({variant}): {fen}: bestmove {} nodes {}",
            i + 1,
            r.best.as_deref().unwrap_or("(none)"),
            r.nodes
        ));
    }
    Ok(BenchResult { nodes, elapsed })
}
