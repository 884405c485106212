//! The search: one alpha-beta searcher generic over [`Game`](crate::games::Game), monomorphised
//! per game, run by one or more threads sharing a lock-free transposition table (Lazy SMP).
//!
//! - [`alphabeta`]: iterative deepening, aspiration windows, PVS, quiescence, pruning.
//! - [`ordering`]: move ordering (TT move, MVV-LVA, killers, history).
//! - [`tt`]: the shared transposition table.
//! - [`params`]: the margins and reduction constants, tunable (`cannonade spsa`).
//! - [`time`]: how long to think.
//! - [`smp`]: starting the threads and collecting the result.
//!
//! Scores are centipawns from the side to move's point of view; a mate is `MATE - plies` for
//! the side that mates, so shorter mates score higher and [`Score`] converts exactly to "mate in
//! N moves".

mod alphabeta;
mod correction;
mod eval_cache;
mod huge_pages;
pub mod limits;
mod nnue_stack;
pub mod ordering;
pub mod params;
pub mod skill;
pub mod smp;
pub mod time;
pub mod tt;

pub use limits::Limits;
pub use params::SearchParams;
pub use skill::Skill;
pub use smp::search;
pub use tt::{Bound, TableError, TranspositionTable};

use crate::host::SharedHost;
use crate::nnue::Network;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Deepest ply the search goes to (including quiescence).
pub const MAX_PLY: usize = 128;
/// The score of mate at the root; mate at ply `p` scores `MATE - p`.
pub const MATE: i32 = 32_000;
/// Scores at least this far from zero are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Bigger than any score.
pub const INFINITE: i32 = MATE + 1;

/// A score as the protocols show it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawns, side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated). `Mate(0)` means the side
    /// to move is mated now.
    Mate(i32),
}

impl Score {
    /// From an internal score.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            // Rounded away from zero: a loss one ply away (a move that completes the
            // opponent's winning repetition) is "mated in 1"; `mate 0` is only the game over.
            Score::Mate(-((MATE + v + 1) / 2))
        } else {
            Score::Cp(v)
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// What the search reports about one principal variation (one `info` line). `M` is the move
/// type: [`Move`](crate::games::Move) inside, strings once the facade has formatted them.
#[derive(Clone, Debug, PartialEq)]
pub struct PvInfo<M> {
    /// Completed depth; 0 for a position where the game is already over.
    pub depth: u32,
    pub seldepth: u32,
    /// 1 for the best line, 2 for the second best... (MultiPV).
    pub multipv: u32,
    pub score: Score,
    /// `Some` when an aspiration window failed and the score is only a bound.
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    pub pv: Vec<M>,
}

impl<M> PvInfo<M> {
    pub fn nps(&self) -> u64 {
        let us = self.time.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / us) as u64
    }

    /// Whether `other` tells the same as this line: the same depth, line number, score, bound
    /// and moves (the node count, time and table use always move on).
    pub fn same_line(&self, other: &PvInfo<M>) -> bool
    where
        M: PartialEq,
    {
        self.depth == other.depth
            && self.seldepth == other.seldepth
            && self.multipv == other.multipv
            && self.score == other.score
            && self.bound == other.bound
            && self.pv == other.pv
    }

    /// The same line with its moves converted.
    pub fn map_pv<N>(self, f: impl FnOnce(Vec<M>) -> Vec<N>) -> PvInfo<N> {
        PvInfo {
            depth: self.depth,
            seldepth: self.seldepth,
            multipv: self.multipv,
            score: self.score,
            bound: self.bound,
            nodes: self.nodes,
            time: self.time,
            hashfull: self.hashfull,
            pv: f(self.pv),
        }
    }
}

/// What a search tells while it runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Report<M> {
    /// A line of analysis (one `info` line).
    Info(PvInfo<M>),
    /// The search has decided; sent as soon as the main thread knows, before the helper
    /// threads are collected, so `bestmove` never waits for a thread the OS has not scheduled.
    Done(SearchResult<M>),
}

impl<M> Report<M> {
    /// The same report with its moves converted.
    pub fn map_moves<N>(self, f: impl Fn(Vec<M>) -> Vec<N>) -> Report<N> {
        match self {
            Report::Info(i) => Report::Info(i.map_pv(f)),
            Report::Done(r) => {
                let mut line = Vec::new();
                let has_best = r.best.is_some();
                let has_ponder = r.ponder.is_some();
                line.extend(r.best);
                line.extend(r.ponder);
                let mut out = f(line).into_iter();
                let best = if has_best { out.next() } else { None };
                let ponder = if has_ponder { out.next() } else { None };
                Report::Done(SearchResult {
                    best,
                    ponder,
                    score: r.score,
                    depth: r.depth,
                    nodes: r.nodes,
                })
            }
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// `None` when the game is over in the root position.
    pub best: Option<M>,
    /// The expected reply, for pondering.
    pub ponder: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// Settings that hold across searches (UCI options).
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    /// Time kept back from every move for communication delays.
    pub move_overhead: Duration,
    /// Evaluate by material alone ([`crate::games::Game::material`]): the baseline against which each game's
    /// evaluation is measured in matches. Off in play.
    pub material_only: bool,
    /// Evaluate with this net instead of [`crate::games::Game::evaluate`] (the `Use NNUE`
    /// option with a net loaded for the game searched). A net of another game is ignored.
    pub nnue: Option<Arc<Network>>,
    /// Play below full strength (`Skill Level`, `UCI_LimitStrength`): `None` is the full engine.
    pub skill: Option<Skill>,
    /// The margins and reductions the search uses (the hidden tuning options).
    pub params: SearchParams,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            material_only: false,
            nnue: None,
            skill: None,
            params: SearchParams::default(),
        }
    }
}

/// Default of the `Move Overhead` option, in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// The protocol's handle on a running search: `stop` and `ponderhit` act through it from
/// another thread (or, on a host without threads, from [`Host::poll`](crate::host::Host::poll)). It holds the host the
/// search runs on: the search's clock, its helper threads and its polling come from there.
pub struct SearchControl {
    host: SharedHost,
    stop: AtomicBool,
    pondering: AtomicBool,
    /// The host's time when the search started.
    start: Duration,
    /// Microseconds after `start` at which our clock started running (later than `start` when
    /// the search began as a ponder search).
    clock_start_us: AtomicU64,
    /// A flag outside the search that stops it too (a job of several searches, e.g. `bench`).
    cancel: Option<Arc<AtomicBool>>,
    /// The depth the main thread is searching now, and the nodes of all threads when last
    /// counted (every few thousand nodes): for progress reports such as XBoard's `stat01`.
    current_depth: AtomicU32,
    current_nodes: AtomicU64,
    /// Woken by `stop` and `ponderhit`, for a search that waits for them on a host with
    /// threads (see [`SearchControl::wait_for_release`]).
    released: Condvar,
    release_lock: Mutex<()>,
}

impl SearchControl {
    /// A control for a search on `host` starting now; `ponder` when it starts on the
    /// opponent's time.
    pub fn new(host: SharedHost, ponder: bool) -> Self {
        SearchControl {
            start: host.now(),
            host,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
            clock_start_us: AtomicU64::new(0),
            cancel: None,
            current_depth: AtomicU32::new(0),
            current_nodes: AtomicU64::new(0),
            released: Condvar::new(),
            release_lock: Mutex::new(()),
        }
    }

    /// A control for a search on `host` that also stops when `cancel` is set.
    pub fn with_cancel(host: SharedHost, cancel: Arc<AtomicBool>) -> Self {
        SearchControl {
            cancel: Some(cancel),
            ..SearchControl::new(host, false)
        }
    }

    /// The host the search runs on.
    pub fn host(&self) -> &SharedHost {
        &self.host
    }

    /// The iteration in progress (depth) and the nodes searched so far, as last noted by the
    /// main search thread.
    pub fn progress(&self) -> (u32, u64) {
        (
            self.current_depth.load(Relaxed),
            self.current_nodes.load(Relaxed),
        )
    }

    pub(crate) fn note_depth(&self, depth: u32) {
        self.current_depth.store(depth, Relaxed);
    }

    pub(crate) fn note_nodes(&self, nodes: u64) {
        self.current_nodes.store(nodes, Relaxed);
    }

    /// Asks the search to finish as soon as possible.
    pub fn stop(&self) {
        if !self.stop.swap(true, Relaxed) {
            self.wake();
        }
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Relaxed) || self.cancel.as_ref().is_some_and(|c| c.load(Relaxed))
    }

    /// The opponent played the expected move: from now on the search is on our clock.
    pub fn ponderhit(&self) {
        let us = self.elapsed().as_micros() as u64;
        self.clock_start_us.store(us, Relaxed);
        self.pondering.store(false, Relaxed);
        self.wake();
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Relaxed)
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.host.now().saturating_sub(self.start)
    }

    /// Time spent on our own clock.
    pub fn clock_elapsed(&self) -> Duration {
        self.elapsed()
            .saturating_sub(Duration::from_micros(self.clock_start_us.load(Relaxed)))
    }

    /// Wakes a search waiting in [`SearchControl::wait_for_release`]. The lock is taken
    /// between the change and the notice, so a waiter either saw the change or is already
    /// asleep when the notice comes.
    fn wake(&self) {
        drop(self.release_lock.lock().unwrap_or_else(|e| e.into_inner()));
        self.released.notify_all();
    }

    /// For a search that has finished its work: waits, as UCI requires, until `stop` (or the
    /// cancel flag), or for a ponder search `ponderhit`, unless the search is neither
    /// `infinite` nor pondering; then stops. With a host that has threads, `stop` comes from
    /// another thread and the search sleeps on a condition until it does; without, the host is
    /// polled until its input has stopped the search.
    pub(crate) fn wait_for_release(&self, infinite: bool) {
        let released = || self.is_stopped() || !(infinite || self.is_pondering());
        if self.host.threads() == 0 {
            while !released() {
                self.host.poll(true);
            }
        } else {
            let mut lock = self.release_lock.lock().unwrap_or_else(|e| e.into_inner());
            while !released() {
                lock = match self.cancel {
                    // A cancel flag set from outside does not wake us: look at it now and then.
                    Some(_) => {
                        self.released
                            .wait_timeout(lock, CANCEL_LOOK)
                            .unwrap_or_else(|e| e.into_inner())
                            .0
                    }
                    None => self.released.wait(lock).unwrap_or_else(|e| e.into_inner()),
                };
            }
        }
        self.stop();
    }
}

/// How often a search waiting for `stop` looks at a cancel flag, which wakes no one.
const CANCEL_LOOK: Duration = Duration::from_millis(5);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(MATE - 5), Score::Mate(3));
        assert_eq!(Score::from_internal(-MATE), Score::Mate(0));
        assert_eq!(Score::from_internal(-MATE + 1), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE + 3), Score::Mate(-2));
        assert_eq!(Score::from_internal(-MATE + 4), Score::Mate(-2));
        assert_eq!(Score::from_internal(37), Score::Cp(37));
        assert_eq!(Score::Mate(-2).to_string(), "mate -2");
    }

    #[test]
    fn the_draw_clock_damps_a_static_value_toward_zero() {
        use alphabeta::damp_by_draw_clock as damp;
        // Off, or a fresh clock: unchanged.
        assert_eq!(damp(300, 50, 0), 300);
        assert_eq!(damp(300, 0, 200), 300);
        // Linear in the clock, for either side's advantage.
        assert_eq!(damp(300, 50, 200), 225);
        assert_eq!(damp(-300, 100, 200), -150);
        // Never past 0, however long the clock runs.
        assert_eq!(damp(300, 250, 200), 0);
    }

    #[test]
    fn ponderhit_starts_the_clock() {
        let host = Arc::new(crate::host::SingleThread::manual());
        host.advance(Duration::from_millis(5));
        let c = SearchControl::new(host.clone(), true);
        assert!(c.is_pondering());
        host.advance(Duration::from_millis(20));
        c.ponderhit();
        assert!(!c.is_pondering());
        host.advance(Duration::from_millis(3));
        assert_eq!(c.elapsed(), Duration::from_millis(23));
        assert_eq!(c.clock_elapsed(), Duration::from_millis(3));
    }
}
