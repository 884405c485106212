//! Lazy SMP: every thread runs the same iterative deepening on its own copy of the position,
//! and they help each other only through the shared transposition table. Thread 0 (the main
//! thread, the caller's) owns the clock, reports, and decides the move; the helpers are tasks
//! on the host's threads (see [`crate::host`]).

use super::alphabeta::{Frontier, MainDuties, Shared, Worker};
use super::limits::Limits;
use super::params::{Reductions, SearchParams};
use super::time;
use super::tt::TranspositionTable;
use super::{PvInfo, Report, Score, SearchControl, SearchOptions, SearchResult, MATE};
use crate::games::{Game, Move, Notation, Outcome};
use crate::host::TaskGroup;
use crate::nnue::Network;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

/// The stack a search needs on the thread it runs on (the caller's for the main search, the
/// host's for its helpers): a node keeps a move list and its scores on the stack (up to 8 KB,
/// in Cannon Shogi), and the search goes up to `MAX_PLY` plies plus quiescence.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// The fewest nodes a weakened search gets per root move: enough to finish its first iteration
/// with all its lines, so that even the lowest level chooses among moves it has looked at.
const MIN_NODES_PER_ROOT_MOVE: u64 = 24;

/// Keeps only the root moves named in `search_moves` (UCI `searchmoves`), in any notation the
/// game reads; names that match no legal move are ignored, and if none matches all moves stay.
fn restrict_root<G: Game>(pos: &G, root: &mut G::Moves, search_moves: &[String]) {
    let wanted: Vec<Move> = search_moves
        .iter()
        .filter_map(|s| {
            pos.parse_move(s, Notation::Uci)
                .or_else(|| pos.parse_move(s, Notation::XBoard))
        })
        .collect();
    if !wanted.is_empty() {
        *root = root
            .iter()
            .copied()
            .filter(|m| wanted.contains(m))
            .collect();
    }
}

/// What the helpers of one search share with it and with each other, owned so that a helper
/// can run on any thread of the host's (its tasks outlive no borrow).
struct Common<G> {
    pos: G,
    root: Vec<Move>,
    tt: Arc<TranspositionTable>,
    ctl: Arc<SearchControl>,
    /// Every thread's node count, by thread id.
    counters: Box<[AtomicU64]>,
    frontier: Frontier,
    /// With several lines (MultiPV) the helpers search only the best one, so their results are
    /// not interchangeable with the main thread's: they then help through the table only.
    share_frontier: bool,
    material_only: bool,
    nnue: Option<Arc<Network>>,
    node_limit: Option<u64>,
    hard_limit: Option<Duration>,
    params: SearchParams,
    reductions: Reductions,
    /// Helpers run until stopped, but never beyond a depth limit; in a mate search they prune
    /// as the main thread does, and stop at the mate.
    helper_limits: Limits,
}

impl<G: Game> Common<G> {
    fn shared(&self) -> Shared<'_> {
        Shared {
            tt: &self.tt,
            ctl: &self.ctl,
            counters: &self.counters,
            frontier: self.share_frontier.then_some(&self.frontier),
            material_only: self.material_only,
            nnue: self.nnue.as_deref(),
            node_limit: self.node_limit,
            hard_limit: self.hard_limit,
            params: &self.params,
            reductions: &self.reductions,
        }
    }

    /// Helper `id`'s search, on a thread of the host's.
    fn help(&self, id: usize) {
        // Started after the search ended (a host slow to give its thread): nothing to do.
        if self.ctl.is_stopped() {
            return;
        }
        let mut w = Worker::new(self.pos.clone(), self.shared(), id, None, &self.root);
        w.iterate(&self.helper_limits, 1, &mut |_| {});
    }
}

/// The helpers of a search, stopped and waited for when the search ends, however it ends
/// (a panic of the main search included: no helper outlives it).
struct Helpers<'a> {
    ctl: &'a SearchControl,
    tasks: TaskGroup,
}

impl Drop for Helpers<'_> {
    fn drop(&mut self) {
        self.ctl.stop();
        self.tasks.wait();
    }
}

/// Searches `pos` within `limits`, with up to `opts.threads` threads sharing `tt`, and returns
/// the best move. `report` receives the lines of every completed iteration (with MultiPV, all
/// of them best first, line 1 being the move played), the lines of the result again only if
/// what was last reported differs from them, and then the result (`Report::Done`, before the
/// helper threads are collected). Returns when a limit is reached or `ctl` is stopped; an
/// infinite or ponder search that runs out of things to do waits for `stop` / `ponderhit`
/// before returning, as UCI requires.
///
/// The main search runs on the caller's thread, which needs a stack of
/// [`SEARCH_STACK_BYTES`] (the host's threads have one). The helpers are tasks on the threads
/// of `ctl`'s host; those it cannot give are done without (the search is then only slower),
/// and every helper has ended when this returns. A panic of the search (a bug) is not caught.
pub fn search<G: Game>(
    pos: &G,
    limits: &Limits,
    opts: &SearchOptions,
    tt: &Arc<TranspositionTable>,
    ctl: &Arc<SearchControl>,
    report: &mut dyn FnMut(Report<Move>),
) -> SearchResult<Move> {
    // Whatever numbers the GUI sent, the search works with ones it can add and multiply.
    let limits = &limits.sanitized();

    if let Some(outcome) = pos.outcome() {
        let score = match outcome {
            Outcome::Loss(_) => Score::Mate(0),
            Outcome::Draw(_) => Score::Cp(0),
            // No standard UCI form exists for "the side to move has already won".
            Outcome::Win(_) => Score::Cp(MATE),
        };
        report(Report::Info(PvInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            bound: None,
            nodes: 0,
            time: ctl.elapsed(),
            hashfull: 0,
            pv: Vec::new(),
        }));
        ctl.wait_for_release(limits.infinite);
        let r = SearchResult {
            best: None,
            ponder: None,
            score,
            depth: 0,
            nodes: 0,
        };
        report(Report::Done(r.clone()));
        return r;
    }

    let mut root = G::Moves::default();
    pos.legal_moves(&mut root);
    // A weakened search (see `skill`) searches no more nodes than its level, but enough to see
    // each root move once, and looks at more lines than it shows, to choose among them at the
    // end.
    let limits = &match opts.skill {
        Some(skill) => {
            let nodes = skill
                .nodes()
                .max(MIN_NODES_PER_ROOT_MOVE * root.len() as u64);
            Limits {
                nodes: Some(limits.nodes.map_or(nodes, |n| n.min(nodes))),
                ..limits.clone()
            }
        }
        None => limits.clone(),
    };
    let lines = opts
        .skill
        .map_or(opts.multipv, |s| opts.multipv.max(s.lines()));
    restrict_root(pos, &mut root, &limits.search_moves);
    order_root(pos, &mut root, tt);
    tt.new_search();
    let threads = opts.threads.max(1);
    let moves_left = u32::try_from(opts.params.time_moves_left).unwrap_or(1);
    let budget = time::budget(limits, opts.move_overhead, moves_left);
    let common = Arc::new(Common {
        pos: pos.clone(),
        root: root.to_vec(),
        tt: Arc::clone(tt),
        ctl: Arc::clone(ctl),
        counters: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        frontier: Frontier::default(),
        share_frontier: lines <= 1,
        material_only: opts.material_only,
        nnue: opts.nnue.clone(),
        node_limit: limits.nodes,
        hard_limit: budget.map(|b| b.hard),
        params: opts.params,
        reductions: Reductions::new(&opts.params),
        helper_limits: Limits {
            depth: limits.depth,
            mate: limits.mate,
            ..Limits::default()
        },
    });

    let helpers = Helpers {
        ctl,
        tasks: TaskGroup::default(),
    };
    for id in 1..threads {
        let c = Arc::clone(&common);
        // No thread for this helper: none for the next either.
        if ctl.is_stopped() || !helpers.tasks.spawn(&**ctl.host(), move || c.help(id)) {
            break;
        }
    }

    let main_duties = MainDuties {
        budget,
        node_limit: limits.nodes,
    };
    let mut w = Worker::new(pos.clone(), common.shared(), 0, Some(main_duties), &root);
    // The last line reported under each line number (what a GUI shows now).
    let mut shown: Vec<Option<PvInfo<Move>>> = Vec::new();
    let mut depth = w.iterate(limits, lines, &mut |i| {
        // Lines a weakened search looks at beyond those asked for are not shown.
        if i.multipv as usize > opts.multipv {
            return;
        }
        let k = i.multipv as usize - 1;
        if shown.len() <= k {
            shown.resize(k + 1, None);
        }
        shown[k] = Some(i.clone());
        report(Report::Info(i));
    });
    ctl.wait_for_release(limits.infinite);
    // A helper may have finished a deeper iteration meanwhile.
    if w.adopt_frontier() {
        depth = common.frontier.depth();
    }
    // The lines of the result, best first. They are reported again only when what was
    // last shown differs: nothing shown yet (a first iteration cut short), a bound of
    // an iteration that did not finish, or a helper's deeper result. After a finished
    // iteration they were all just reported, and a repeat would only show twice.
    let shown_lines = w.lines.min(opts.multipv.max(1));
    let lines: Vec<PvInfo<Move>> = (0..shown_lines)
        .map(|i| w.pv_info(i, depth, None))
        .collect();
    let up_to_date = lines.iter().enumerate().all(|(k, l)| {
        shown
            .get(k)
            .and_then(Option::as_ref)
            .is_some_and(|s| s.same_line(l))
    });
    // The move played: the best line, or a weakened search's choice among its lines.
    let chosen = opts.skill.map_or(0, |skill| {
        let scores: Vec<i32> = w.root_moves[..w.lines].iter().map(|rm| rm.score).collect();
        skill.pick(&scores, pos.key())
    });
    let rm = &w.root_moves[chosen];
    let r = SearchResult {
        best: Some(rm.mv),
        ponder: rm.pv.get(1).copied(),
        score: if chosen == 0 {
            lines[0].score
        } else {
            w.pv_info(chosen, depth, None).score
        },
        depth,
        nodes: lines[0].nodes,
    };
    if !up_to_date {
        for l in lines {
            report(Report::Info(l));
        }
    }
    ctl.stop();
    report(Report::Done(r.clone()));
    // The main thread's histories go back to the table before the helpers are waited for.
    drop(w);
    drop(helpers);
    r
}

/// Orders the root moves once, before depth 1: the table's move first, then captures by
/// MVV-LVA, then the rest in generation order. A search stopped inside its first iteration
/// has then tried the likeliest moves.
fn order_root<G: Game>(pos: &G, root: &mut G::Moves, tt: &TranspositionTable) {
    let tt_move = tt.probe(pos.key()).map(|e| e.mv);
    root.sort_by_key(|&m| {
        if Some(m) == tt_move {
            i64::MIN
        } else {
            let victim = i64::from(pos.capture_value(m));
            if victim > 0 {
                i64::from(pos.mover_value(m)) - 64 * victim
            } else {
                0
            }
        }
    });
}
