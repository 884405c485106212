//! Bench: a fixed-depth search of fixed positions of every variant, one thread, fresh hash.
//! The total node count is a signature of the search: it changes only when the search (or a
//! game's move generation or evaluation) changes, so a patch that claims to change nothing can
//! be checked by it. Nodes per second measure speed.

use crate::engine::registry::VARIANTS;
use crate::games::Notation;
use crate::search::{Limits, SearchControl, SearchOptions, TranspositionTable};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 9;
/// Hash size of the bench, MB.
const BENCH_HASH_MB: usize = 16;

/// Positions benched for a variant besides its start position. Variants without an entry are
/// benched at their start position only.
fn extra_positions(variant: &str) -> &'static [&'static str] {
    match variant {
        "chess" => &[
            // Well-known test positions (the Chess Programming Wiki perft set and others).
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
            "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/R5K1 b - - 3 20",
        ],
        _ => &[],
    }
}

/// Every benched position: (variant, FEN).
pub fn positions() -> Vec<(&'static str, &'static str)> {
    VARIANTS
        .iter()
        .flat_map(|v| {
            std::iter::once((v.name, v.start_fen))
                .chain(extra_positions(v.name).iter().map(move |&f| (v.name, f)))
        })
        .collect()
}

/// What a bench measured.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000 / self.elapsed.as_micros().max(1)) as u64
    }
}

/// Runs the bench to `depth`; `progress` gets one line per position.
pub fn run(depth: u32, progress: impl FnMut(String)) -> Result<BenchResult, String> {
    run_until(depth, &Arc::new(AtomicBool::new(false)), progress)
}

/// [`run`], stopped (with an error) as soon as `cancel` is set, even inside a search.
pub fn run_until(
    depth: u32,
    cancel: &Arc<AtomicBool>,
    mut progress: impl FnMut(String),
) -> Result<BenchResult, String> {
    let tt = TranspositionTable::new(BENCH_HASH_MB);
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
        let info = crate::engine::registry::find(variant).expect("registered");
        let mut session = (info.new_session)();
        session
            .set_position(Some(fen), &[], Notation::Uci)
            .map_err(|e| format!("bench position {fen}: {e}"))?;
        tt.clear();
        let ctl = SearchControl::with_cancel(Arc::clone(cancel));
        let start = Instant::now();
        let r = session.search(&limits, &opts, &tt, &ctl, Notation::Uci, &mut |_| {});
        elapsed += start.elapsed();
        if cancel.load(Relaxed) {
            return Err("stopped".into());
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
