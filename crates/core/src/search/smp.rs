//! Lazy SMP: every thread runs the same iterative deepening on its own copy of the position,
//! and they help each other only through the shared transposition table. Thread 0 (the main
//! thread) owns the clock, reports, and decides the move.

use super::alphabeta::{Frontier, MainDuties, Shared, Worker};
use super::limits::Limits;
use super::params::Reductions;
use super::time;
use super::tt::TranspositionTable;
use super::{PvInfo, Report, Score, SearchControl, SearchOptions, SearchResult, MATE};
use crate::games::{Game, Move, Notation, Outcome};
use std::cell::Cell;
use std::sync::atomic::AtomicU64;
use std::thread;
use std::time::Duration;

/// Stack of each search thread: a node keeps a move list and its scores on the stack (up to 8 KB,
/// in Cannon Shogi), and the search goes up to `MAX_PLY` plies plus quiescence.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

thread_local! {
    /// Whether this thread was started by [`spawn_with_search_stack`], so that a
    /// single-threaded search can run on it in place.
    static ON_SEARCH_STACK: Cell<bool> = const { Cell::new(false) };
}

/// Starts a scoped thread with the search's stack ([`SEARCH_STACK_BYTES`]), on which a search
/// of one thread runs in place rather than on a thread of its own. For callers that search
/// many times a second (`datagen` plays thousands of short searches): starting a thread with
/// a fresh 64 MB stack (too large for the C library to keep for reuse) for each search cost
/// page faults and unmapping, about a tenth of the process's time. The search does the same
/// either way.
pub fn spawn_with_search_stack<'scope, T: Send + 'scope>(
    scope: &'scope thread::Scope<'scope, '_>,
    name: String,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::io::Result<thread::ScopedJoinHandle<'scope, T>> {
    thread::Builder::new()
        .name(name)
        .stack_size(SEARCH_STACK_BYTES)
        .spawn_scoped(scope, move || {
            ON_SEARCH_STACK.with(|c| c.set(true));
            f()
        })
}

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

/// Searches `pos` within `limits`, with `opts.threads` threads sharing `tt`, and returns the
/// best move. `report` receives the lines of every completed iteration (with MultiPV, all of
/// them best first, line 1 being the move played), the lines of the result again only if what
/// was last reported differs from them, and then the result (`Report::Done`, before the helper
/// threads are joined). Returns when a limit is reached or `ctl` is stopped; an infinite or
/// ponder search that runs out of things to do waits for `stop` / `ponderhit` before
/// returning, as UCI requires.
pub fn search<G: Game>(
    pos: &G,
    limits: &Limits,
    opts: &SearchOptions,
    tt: &TranspositionTable,
    ctl: &SearchControl,
    report: &mut (dyn FnMut(Report<Move>) + Send),
) -> SearchResult<Move> {
    // Whatever numbers the GUI sent, the search works with ones it can add and multiply.
    let limits = &limits.sanitized();
    let wait_for_release = || {
        while !ctl.is_stopped() && (limits.infinite || ctl.is_pondering()) {
            thread::sleep(Duration::from_millis(1));
        }
        ctl.stop();
    };

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
        wait_for_release();
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
    let counters: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    // With several lines (MultiPV) the helpers search only the best one, so their results are
    // not interchangeable with the main thread's: they then help through the table only.
    let frontier = Frontier::default();
    let frontier = (lines <= 1).then_some(&frontier);
    let budget = time::budget(limits, opts.move_overhead);
    let reductions = Reductions::new(&opts.params);
    let shared = Shared {
        tt,
        ctl,
        counters: &counters,
        frontier,
        material_only: opts.material_only,
        nnue: opts.nnue.as_deref(),
        node_limit: limits.nodes,
        hard_limit: budget.map(|b| b.hard),
        params: &opts.params,
        reductions: &reductions,
    };
    let main_duties = MainDuties {
        budget,
        node_limit: limits.nodes,
    };

    let run_main = || {
        let mut w = Worker::new(pos.clone(), shared, 0, Some(main_duties), &root);
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
        wait_for_release();
        // A helper may have finished a deeper iteration meanwhile.
        if w.adopt_frontier() {
            depth = frontier.map_or(depth, |f| f.depth());
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
        r
    };
    // If the search thread died (a bug), play the first legal move rather than nothing; no
    // `Done` was reported then, and the caller uses this return value.
    let fallback = || SearchResult {
        best: root.first().copied(),
        ponder: None,
        score: Score::Cp(0),
        depth: 0,
        nodes: 0,
    };
    if threads == 1 && ON_SEARCH_STACK.with(Cell::get) {
        // On a thread with the search's stack already: the search runs here, a panic caught
        // as a dead search thread's would be.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run_main));
        ctl.stop();
        return result.unwrap_or_else(|_| fallback());
    }
    thread::scope(|scope| {
        let main = thread::Builder::new()
            .name("search-main".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn_scoped(scope, run_main);
        // The main thread starts first: with more threads than cores, a main thread started
        // after a hundred busy helpers would get its first slice of a core late, and it alone
        // can finish the first iteration that gives the move.
        for id in 1..threads {
            if ctl.is_stopped() {
                break;
            }
            let helper_pos = pos.clone();
            let root = &root;
            let spawned = thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut w = Worker::new(helper_pos, shared, id, None, root);
                    // Helpers run until stopped, but never beyond a depth limit; in a mate
                    // search they prune as the main thread does, and stop at the mate.
                    let helper_limits = Limits {
                        depth: limits.depth,
                        mate: limits.mate,
                        ..Limits::default()
                    };
                    w.iterate(&helper_limits, 1, &mut |_| {});
                });
            // Without the thread the search is only slower, not wrong.
            drop(spawned);
        }

        let result = match main {
            Ok(handle) => handle.join(),
            Err(_) => Err(Box::new("could not start the search thread") as _),
        };
        ctl.stop();
        result.unwrap_or_else(|_| fallback())
    })
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
