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
        let v = self.net.evaluate(&acc[stm.index()], &acc[(!stm).index()]);
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
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
                p.acc[c].set_delta(self.net, &parent.acc[c], &p.added[c], &p.removed[c]);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::zobrist::SplitMix64;
    use crate::engine::registry::new_game;
    use crate::games::chess::SwedishCannonChess;
    use crate::games::shogi::CannonShogi;
    use crate::nnue::{FloatNetwork, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE};

    /// The net's value of `pos` from accumulators built from scratch.
    fn from_scratch<G: Game>(net: &Network, pos: &G) -> i32 {
        let side = pos.side_to_move();
        let acc = |perspective| {
            let mut f = Vec::new();
            pos.active_features(perspective, &mut f);
            let mut a = Accumulator::new(net);
            a.refresh(net, &f);
            a
        };
        net.evaluate(&acc(side), &acc(!side))
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Walks random lines as a search does (moves and null moves down, unmakes back up, the
    /// evaluation asked only at some nodes, so that plies are skipped and brought up to date
    /// later from an older ancestor) and compares every evaluation with one from scratch.
    fn walk<G: Game>(variant: &str, seed: u64) {
        let start: G = new_game(variant).unwrap();
        let mut float = FloatNetwork::new_random(start.feature_count(), 32, seed);
        for w in &mut float.ft_weights {
            *w *= 0.3 * (start.feature_count() as f32).sqrt();
        }
        let net = float
            .quantise(variant, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
            .unwrap()
            .0;
        let mut rng = SplitMix64::new(seed);
        let mut pos = start.clone();
        let mut stack = NnueStack::new(&net, &pos, 16);
        // `true` for a null move.
        let mut line: Vec<bool> = Vec::new();
        let mut evaluated = 0;
        for _ in 0..3000 {
            let r = rng.next_u64();
            let ply = line.len();
            if r.is_multiple_of(3) {
                evaluated += 1;
                assert_eq!(
                    stack.evaluate(&pos, ply),
                    from_scratch(&net, &pos),
                    "{}",
                    pos.to_fen()
                );
            }
            let mut moves = G::Moves::default();
            pos.legal_moves(&mut moves);
            let down = ply < 15 && !moves.is_empty() && (r >> 8) % 8 < 5;
            if down {
                if (r >> 16).is_multiple_of(6) && pos.null_move_ok() {
                    pos.make_null_move();
                    stack.passed(ply + 1);
                    line.push(true);
                } else {
                    pos.make_move(moves[(r >> 24) as usize % moves.len()]);
                    stack.moved(&pos, ply + 1);
                    line.push(false);
                }
            } else if let Some(null) = line.pop() {
                if null {
                    pos.unmake_null_move();
                } else {
                    pos.unmake_move();
                }
            }
        }
        assert!(evaluated > 500);
    }

    #[test]
    fn lazy_updates_equal_a_refresh_along_search_like_walks() {
        walk::<SwedishCannonChess>("swedishcannon", 1);
        walk::<CannonShogi>("cannonshogi", 2);
    }
}
