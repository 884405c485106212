//! Perft: counts the leaves of the legal move tree, the standard test of a move generator.
//!
//! The last ply is counted in bulk: at depth 1 the legal moves are generated and counted but
//! not played. This is what Stockfish and Fairy-Stockfish do too, so speeds compare like with
//! like.

use crate::games::{Game, Move};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

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

/// Perft split by root move, in generation order. With `threads > 1` the root moves are shared
/// out over a rayon pool of that size.
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
    if threads <= 1 {
        return moves.iter().map(|&m| count(m)).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| moves.par_iter().map(|&m| count(m)).collect()),
        Err(_) => moves.iter().map(|&m| count(m)).collect(),
    }
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
    if threads > 1 {
        if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            return pool.install(|| moves.par_iter().map(|&m| count(m)).collect());
        }
    }
    moves.iter().map(|&m| count(m)).collect()
}
