//! The search's NNUE accumulators: one pair (White's perspective, Black's) per ply of the
//! current line. The root is refreshed; a move made records what it changed (the position's
//! [`crate::nnue::NnueFeatures::last_move_delta`]) and the child's pair is computed only when the child is
//! evaluated, from the nearest ancestor whose pair is ready: a node cut by the table or by a
//! cached evaluation costs no accumulator work. Unmaking costs nothing (the parent's pair is
//! still there), and a null move's child starts from a copy of its parent's pair.

use super::MATE_BOUND;
use crate::board::Color;
use crate::games::Game;
use crate::nnue::{Accumulator, FeatureList, Network};

/// Where a ply's accumulators stand.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum State {
    /// Computed for the position now at this ply.
    Ready,
    /// The parent's pair plus this ply's recorded changes.
    Delta,
    /// The position could not tell what its move changed: rebuilt from its features.
    Refresh,
}

/// One ply of the stack.
struct Ply {
    /// Indexed by perspective (`Color::index`).
    acc: [Accumulator; 2],
    state: State,
    added: [FeatureList; 2],
    removed: [FeatureList; 2],
}

/// The accumulators of a search thread's current line (see the module documentation).
pub(super) struct NnueStack<'a> {
    net: &'a Network,
    plies: Vec<Ply>,
    /// Scratch list for refreshes.
    features: Vec<u32>,
}

impl<'a> NnueStack<'a> {
    /// A stack for searches from `root` (at ply 0) up to `max_ply` plies deep. `net` must
    /// have the game's feature count (the caller checks).
    pub fn new<G: Game>(net: &'a Network, root: &G, max_ply: usize) -> Self {
        debug_assert_eq!(net.feature_count(), root.feature_count());
        let plies = (0..=max_ply)
            .map(|_| Ply {
                acc: [Accumulator::new(net), Accumulator::new(net)],
                state: State::Refresh,
                added: Default::default(),
                removed: Default::default(),
            })
            .collect();
        NnueStack {
            net,
            plies,
            features: Vec::with_capacity(64),
        }
    }

    /// A move was just made, reaching `ply`: records what it changed, for later.
    #[inline]
    pub fn moved<G: Game>(&mut self, pos: &G, ply: usize) {
        let p = &mut self.plies[ply];
        p.state = State::Delta;
        for c in Color::BOTH {
            let (added, removed) = (&mut p.added[c.index()], &mut p.removed[c.index()]);
            added.clear();
            removed.clear();
            if !pos.last_move_delta(c, added, removed) {
                p.state = State::Refresh;
                return;
            }
        }
    }

    /// A null move was just made, reaching `ply`: the board is the parent's.
    #[inline]
    pub fn passed(&mut self, ply: usize) {
        let p = &mut self.plies[ply];
        p.state = State::Delta;
        for c in Color::BOTH {
            p.added[c.index()].clear();
            p.removed[c.index()].clear();
        }
    }

    /// The net's evaluation of `pos`, the position now at `ply`, side to move's view, kept
    /// inside the range of non-mate scores.
    pub fn evaluate<G: Game>(&mut self, pos: &G, ply: usize) -> i32 {
        self.bring_up_to_date(pos, ply);
        let stm = pos.side_to_move();
        let acc = &self.plies[ply].acc;
        let v = self
            .net
            .evaluate(&acc[stm.index()], &acc[(!stm).index()]);
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The accumulators of `ply`, as the search keeps them (for tests: they must equal a
    /// refresh).
    #[cfg(test)]
    pub fn accumulators<G: Game>(&mut self, pos: &G, ply: usize) -> &[Accumulator; 2] {
        self.bring_up_to_date(pos, ply);
        &self.plies[ply].acc
    }

    /// Makes the pair of `ply` (where `pos` stands) ready: the nearest ready ancestor's pair
    /// plus the changes of each ply from there, or a refresh from `pos` itself when a ply on
    /// the way could not tell its changes.
    fn bring_up_to_date<G: Game>(&mut self, pos: &G, ply: usize) {
        let mut from = ply;
        loop {
            match self.plies[from].state {
                State::Ready => break,
                State::Refresh => return self.refresh(pos, ply),
                State::Delta if from == 0 => return self.refresh(pos, ply),
                State::Delta => from -= 1,
            }
        }
        for i in from + 1..=ply {
            let (done, rest) = self.plies.split_at_mut(i);
            let parent = &done[i - 1];
            let p = &mut rest[0];
            for c in 0..2 {
                let acc = &mut p.acc[c];
                acc.copy_from(&parent.acc[c]);
                let (added, removed) = (&p.added[c], &p.removed[c]);
                if let ([a], [r]) = (added.as_slice(), removed.as_slice()) {
                    acc.add_remove(self.net, *a, *r);
                } else {
                    for &f in added {
                        acc.add(self.net, f);
                    }
                    for &f in removed {
                        acc.remove(self.net, f);
                    }
                }
            }
            p.state = State::Ready;
        }
    }

    fn refresh<G: Game>(&mut self, pos: &G, ply: usize) {
        let p = &mut self.plies[ply];
        for c in Color::BOTH {
            self.features.clear();
            pos.active_features(c, &mut self.features);
            p.acc[c.index()].refresh(self.net, &self.features);
        }
        p.state = State::Ready;
    }
}
