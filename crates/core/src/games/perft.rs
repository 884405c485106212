//! Perft: counts the leaves of the legal move tree, the standard test of a move generator.
//!
//! The last ply is counted in bulk: at depth 1 the legal moves are generated and counted but
//! not played. This is what Stockfish and Fairy-Stockfish do too, so speeds compare like with
//! like.

use crate::games::{Game, Move};
use crate::host::{Host, TaskGroup};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = G::Moves::default();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// `f` of every move, in order, with the moves shared out over the caller's thread and up to
/// `threads - 1` threads of `host`'s (each takes the next move not yet taken). What the host
/// cannot give is done without: the caller then counts more itself.
fn map_shared<T: Send + 'static>(
    host: &dyn Host,
    moves: &[Move],
    threads: usize,
    f: impl Fn(Move) -> T + Send + Sync + 'static,
) -> Vec<T> {
    let helpers = threads
        .min(moves.len())
        .saturating_sub(1)
        .min(host.threads());
    if helpers == 0 {
        return moves.iter().map(|&m| f(m)).collect();
    }
    struct Split<T, F> {
        moves: Vec<Move>,
        next: AtomicUsize,
        results: Mutex<Vec<Option<T>>>,
        f: F,
    }
    impl<T, F: Fn(Move) -> T> Split<T, F> {
        fn work(&self) {
            loop {
                let i = self.next.fetch_add(1, Relaxed);
                let Some(&m) = self.moves.get(i) else { break };
                let r = (self.f)(m);
                self.results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            }
        }
    }
    let split = Arc::new(Split {
        moves: moves.to_vec(),
        next: AtomicUsize::new(0),
        results: Mutex::new(moves.iter().map(|_| None).collect()),
        f,
    });
    let tasks = TaskGroup::default();
    for _ in 0..helpers {
        let s = Arc::clone(&split);
        if !tasks.spawn(host, move || s.work()) {
            break;
        }
    }
    split.work();
    tasks.wait();
    let results = std::mem::take(&mut *split.results.lock().unwrap_or_else(|e| e.into_inner()));
    // A move whose helper died (a bug) is counted here rather than left out.
    results
        .into_iter()
        .zip(moves)
        .map(|(r, &m)| r.unwrap_or_else(|| (split.f)(m)))
        .collect()
}

/// Perft split by root move, in generation order. With `threads > 1` the root moves are shared
/// out over the caller's thread and up to `threads - 1` of `host`'s.
pub fn divide<G: Game>(host: &dyn Host, pos: &G, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = G::Moves::default();
    pos.legal_moves(&mut moves);
    let pos = pos.clone();
    let count = move |m: Move| {
        let mut p = pos.clone();
        p.make_move(m);
        (m, perft(&mut p, depth - 1))
    };
    map_shared(host, &moves, threads, count)
}

/// [`perft`] that gives up (`None`) soon after `stop` is set: the flag is read at every node
/// above the last ply, so a protocol can run a deep perft without losing `stop` or `quit`.
pub fn perft_until<G: Game>(pos: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if stop.load(Relaxed) {
        return None;
    }
    let mut moves = G::Moves::default();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        pos.make_move(m);
        let n = perft_until(pos, depth - 1, stop);
        pos.unmake_move();
        nodes += n?;
    }
    Some(nodes)
}

/// [`divide`] that gives up (`None`) soon after `stop` is set.
pub fn divide_until<G: Game>(
    host: &dyn Host,
    pos: &G,
    depth: u32,
    threads: usize,
    stop: &Arc<AtomicBool>,
) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut moves = G::Moves::default();
    pos.legal_moves(&mut moves);
    let pos = pos.clone();
    let stop = Arc::clone(stop);
    let count = move |m: Move| {
        let mut p = pos.clone();
        p.make_move(m);
        perft_until(&mut p, depth - 1, &stop).map(|n| (m, n))
    };
    map_shared(host, &moves, threads, count)
        .into_iter()
        .collect()
}
