//! The search's NNUE accumulators: one pair (White's perspective, Black's) per ply of the
//! current line. The root is refreshed; a move made records what it changed (the position's
//! [`crate::nnue::NnueFeatures::last_move_delta`]) and the child's pair is computed only when the child is
//! evaluated, from the nearest ancestor whose pair is ready: a node cut by the table or by a
//! cached evaluation costs no accumulator work. Unmaking costs nothing (the parent's pair is
//! still there), and a null move's child starts from a copy of its parent's pair.

use super::MATE_BOUND;
use crate::board::Color;
use crate::games::Game;
use crate::nnue::{Accumulator, FeatureList, KingBuckets, KingView, Network};

/// Where a ply's accumulator of one perspective stands.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum State {
    /// Computed for the position now at this ply.
    Ready,
    /// The parent's accumulator plus this ply's recorded changes.
    Delta,
    /// The position could not tell what its move changed (or, with a net of king buckets, the
    /// perspective's king changed bucket): rebuilt from its features.
    Refresh,
}

/// One ply of the stack. Each array is indexed by perspective (`Color::index`): the two
/// perspectives are brought up to date independently, so that a king changing bucket
/// refreshes only its own side's accumulator.
struct Ply {
    acc: [Accumulator; 2],
    state: [State; 2],
    added: [FeatureList; 2],
    removed: [FeatureList; 2],
    /// Each perspective's king bucket and mirroring in the position at this ply (bucket 0,
    /// not mirrored, without them).
    view: [KingView; 2],
}

/// The accumulators of a search thread's current line (see the module documentation).
pub(super) struct NnueStack<'a> {
    net: &'a Network,
    /// The net's king-bucket layout.
    layout: KingBuckets,
    plies: Vec<Ply>,
    /// Scratch list for refreshes.
    features: Vec<u32>,
}

impl<'a> NnueStack<'a> {
    /// A stack for searches from `root` (at ply 0) up to `max_ply` plies deep. `net` must
    /// have the game's feature count (the caller checks).
    pub fn new<G: Game>(net: &'a Network, root: &G, max_ply: usize) -> Self {
        debug_assert_eq!(net.feature_count(), root.feature_count());
        let layout = net.king_buckets();
        let plies = (0..=max_ply)
            .map(|_| Ply {
                acc: [Accumulator::new(net), Accumulator::new(net)],
                state: [State::Refresh; 2],
                added: Default::default(),
                removed: Default::default(),
                view: Color::BOTH.map(|c| root.king_view(layout, c)),
            })
            .collect();
        NnueStack {
            net,
            layout,
            plies,
            features: Vec::with_capacity(64),
        }
    }

    /// A move was just made, reaching `ply`: records what it changed, for later.
    #[inline]
    pub fn moved<G: Game>(&mut self, pos: &G, ply: usize) {
        let (done, rest) = self.plies.split_at_mut(ply);
        let parent = &done[ply - 1];
        let p = &mut rest[0];
        for c in Color::BOTH {
            let i = c.index();
            let (added, removed) = (&mut p.added[i], &mut p.removed[i]);
            added.clear();
            removed.clear();
            let known = if self.layout.uses_king() {
                p.view[i] = parent.view[i];
                pos.bucketed_delta(self.layout, c, &mut p.view[i], added, removed)
            } else {
                pos.last_move_delta(c, added, removed)
            };
            p.state[i] = if known { State::Delta } else { State::Refresh };
        }
    }

    /// A null move was just made, reaching `ply`: the board is the parent's.
    #[inline]
    pub fn passed(&mut self, ply: usize) {
        let view = self.plies[ply - 1].view;
        let p = &mut self.plies[ply];
        p.state = [State::Delta; 2];
        p.view = view;
        for c in Color::BOTH {
            p.added[c.index()].clear();
            p.removed[c.index()].clear();
        }
    }

    /// The net's evaluation of `pos`, the position now at `ply`, side to move's view, kept
    /// inside the range of non-mate scores.
    pub fn evaluate<G: Game>(&mut self, pos: &G, ply: usize) -> i32 {
        for c in Color::BOTH {
            self.bring_up_to_date(pos, ply, c);
        }
        let stm = pos.side_to_move();
        let acc = &self.plies[ply].acc;
        let bucket = pos.output_bucket(self.net.output_buckets());
        let v = self
            .net
            .evaluate(&acc[stm.index()], &acc[(!stm).index()], bucket);
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Makes `perspective`'s accumulator of `ply` (where `pos` stands) ready: the nearest
    /// ready ancestor's plus the changes of each ply from there, or a refresh from `pos`
    /// itself when a ply on the way could not tell its changes.
    #[inline]
    fn bring_up_to_date<G: Game>(&mut self, pos: &G, ply: usize, perspective: Color) {
        let c = perspective.index();
        let mut from = ply;
        loop {
            match self.plies[from].state[c] {
                State::Ready => break,
                State::Refresh => return self.refresh(pos, ply, perspective),
                State::Delta if from == 0 => return self.refresh(pos, ply, perspective),
                State::Delta => from -= 1,
            }
        }
        for i in from + 1..=ply {
            let (done, rest) = self.plies.split_at_mut(i);
            let parent = &done[i - 1];
            let p = &mut rest[0];
            p.acc[c].set_delta(self.net, &parent.acc[c], &p.added[c], &p.removed[c]);
            p.state[c] = State::Ready;
        }
    }

    fn refresh<G: Game>(&mut self, pos: &G, ply: usize, perspective: Color) {
        let p = &mut self.plies[ply];
        let c = perspective.index();
        self.features.clear();
        pos.bucketed_features(self.layout, perspective, &mut self.features);
        p.acc[c].refresh(self.net, &self.features);
        p.view[c] = pos.king_view(self.layout, perspective);
        p.state[c] = State::Ready;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::zobrist::SplitMix64;
    use crate::engine::registry::new_game;
    use crate::games::chess::{Chess, ChesstoniaChess, SwedishCannonChess};
    use crate::games::shogi::CannonShogi;
    use crate::nnue::{FloatNetwork, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE};

    /// The net's value of `pos` from accumulators built from scratch.
    fn from_scratch<G: Game>(net: &Network, pos: &G) -> i32 {
        let side = pos.side_to_move();
        let acc = |perspective| {
            let mut f = Vec::new();
            pos.bucketed_features(net.king_buckets(), perspective, &mut f);
            let mut a = Accumulator::new(net);
            a.refresh(net, &f);
            a
        };
        net.evaluate(
            &acc(side),
            &acc(!side),
            pos.output_bucket(net.output_buckets()),
        )
        .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Walks random lines as a search does (moves and null moves down, unmakes back up, the
    /// evaluation asked only at some nodes, so that plies are skipped and brought up to date
    /// later from an older ancestor) and compares every evaluation with one from scratch.
    fn walk<G: Game>(variant: &str, seed: u64, layout: KingBuckets) {
        let start: G = new_game(variant).unwrap();
        let rows = start.feature_count() * layout.count();
        let mut float = FloatNetwork::new_random(rows, 32, seed);
        float.buckets = layout;
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
        walk::<SwedishCannonChess>("swedishcannon", 1, KingBuckets::None);
        walk::<CannonShogi>("cannonshogi", 2, KingBuckets::None);
    }

    #[test]
    fn lazy_updates_equal_a_refresh_with_king_buckets() {
        // Kings wander across the buckets in random lines: each crossing refreshes its side.
        walk::<Chess>("chess", 3, KingBuckets::Halves);
        walk::<Chess>("chess", 4, KingBuckets::Zones4);
        walk::<SwedishCannonChess>("swedishcannon", 5, KingBuckets::Zones4);
        walk::<ChesstoniaChess>("chesstonia", 6, KingBuckets::Halves);
        walk::<CannonShogi>("cannonshogi", 7, KingBuckets::Zones4);
    }

    #[test]
    fn lazy_updates_equal_a_refresh_with_mirroring() {
        // Kings wander from wing to wing: each crossing mirrors (and refreshes) its side.
        walk::<Chess>("chess", 8, KingBuckets::Mirror);
        walk::<SwedishCannonChess>("swedishcannon", 9, KingBuckets::Mirror);
        walk::<ChesstoniaChess>("chesstonia", 10, KingBuckets::Mirror);
        walk::<CannonShogi>("cannonshogi", 11, KingBuckets::Mirror);
    }
}
