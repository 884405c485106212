//! Perft: counts the leaves of the legal move tree, the standard test of a move generator.
//!
//! The last ply is counted in bulk: at depth 1 the legal moves are generated and counted but
//! not played. This is what Stockfish and Fairy-Stockfish do too, so speeds compare like with
//! like.

use crate::games::{Game, Move};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

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

/// `f` of every move, in order, with the moves shared out over `threads` threads (each takes
/// the next move not yet taken). A thread that cannot start leaves its share to the others.
fn map_shared<T: Send>(moves: &[Move], threads: usize, f: impl Fn(Move) -> T + Sync) -> Vec<T> {
    if threads <= 1 || moves.len() <= 1 {
        return moves.iter().map(|&m| f(m)).collect();
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new(moves.iter().map(|_| None).collect());
    let work = || loop {
        let i = next.fetch_add(1, Relaxed);
        let Some(&m) = moves.get(i) else { break };
        let r = f(m);
        results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
    };
    std::thread::scope(|s| {
        for _ in 1..threads.min(moves.len()) {
            let _ = std::thread::Builder::new().spawn_scoped(s, work);
        }
        work();
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

/// Perft split by root move, in generation order. With `threads > 1` the root moves are shared
/// out over that many threads.
pub fn divide<G: Game>(pos: &G, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let mut moves = G::Moves::default();
    pos.legal_moves(&mut moves);
    let count = |m: Move| {
        let mut p = pos.clone();
        p.make_move(m);
        (m, perft(&mut p, depth.saturating_sub(1)))
    };
    if depth == 0 {
        return Vec::new();
    }
    map_shared(&moves, threads, count)
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
    pos: &G,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut moves = G::Moves::default();
    pos.legal_moves(&mut moves);
    let count = |m: Move| {
        let mut p = pos.clone();
        p.make_move(m);
        perft_until(&mut p, depth - 1, stop).map(|n| (m, n))
    };
    map_shared(&moves, threads, count).into_iter().collect()
}
