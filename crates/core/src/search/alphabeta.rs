//! One search thread: iterative deepening with aspiration windows over a principal variation
//! search, quiescence, and the usual pruning (null move, reverse futility, late-move pruning
//! and reductions). Every game rule comes from the `Game` trait, every margin and reduction
//! constant from the search's `SearchParams` (`params.rs`).

use super::correction::CorrectionKeys;
use super::eval_cache::EvalCache;
use super::limits::Limits;
use super::nnue_stack::NnueStack;
use super::ordering::{
    LowPlyHistory, MovePicker, PieceTo, QuietContext, Scores, SearchTables, StagedPicker, LOW_PLIES,
};
use super::params::{Reductions, SearchParams};
use super::time::TimeBudget;
use super::tt::{Bound, TranspositionTable};
use super::{PvInfo, Score, SearchControl, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use crate::games::{Game, Move, Outcome};
use crate::nnue::Network;
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;

/// `v` damped toward 0 by `clock` plies of the game's draw clock over `divisor` (Stockfish's
/// "damp down the evaluation linearly when shuffling"): a static value that no capture or pawn
/// move has turned into progress for many plies overstates a side's chances, and the damping
/// leads the search toward the moves that make progress. `divisor` 0 leaves `v` alone.
#[inline]
pub(super) fn damp_by_draw_clock(v: i32, clock: u32, divisor: i32) -> i32 {
    if divisor <= 0 || clock == 0 {
        return v;
    }
    v - v * (clock.min(divisor as u32) as i32) / divisor
}

/// How often (in nodes) a thread looks at the clock, the node limit and the stop flag, and the
/// main thread polls the host ([`crate::host::Host::poll`]).
const CHECK_EVERY: u64 = 1024;
/// How often (in nodes, a power of two) a thread looks at the stop flag alone, which costs one
/// load: `stop` is answered within a millisecond even where a thousand nodes take ten (the
/// slowest game, on a loaded machine, with the thread getting a third of a core).
const STOP_EVERY: u64 = 64;
/// Quiescence plies after which only the static evaluation is trusted (games whose tactical
/// moves include checks could otherwise chain them for a long time).
const MAX_QUIESCENCE: usize = 24;
/// Quiet check evasions tried in quiescence once one move has escaped mate.
const MAX_QUIET_EVASIONS: usize = 2;
/// Double extensions allowed on one line (Stockfish's bound).
const MAX_DOUBLE_EXTENSIONS: u8 = 10;

/// Nodes between two looks at the limits (a power of two): `CHECK_EVERY`, or under a node
/// limit about an eighth of each thread's share of it, so the limit is overshot by little.
fn check_interval(node_limit: Option<u64>, threads: usize) -> u64 {
    let share = node_limit.map_or(CHECK_EVERY, |n| n / (8 * threads.max(1) as u64));
    let n = share.clamp(1, CHECK_EVERY);
    1 << (63 - n.leading_zeros())
}

/// A root move with the score and line of its last search.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
    /// Nodes this thread has searched below the move, over every iteration (time management:
    /// the best move's share of the effort says how contested the choice still is).
    pub effort: u64,
}

/// What the search remembers about one ply of the current line.
#[derive(Copy, Clone)]
struct Frame {
    /// Static evaluation at this ply (`-INFINITE` when in check: no evaluation then).
    eval: i32,
    /// The move played from this ply, as continuation histories see it (`NONE` for a null
    /// move or before any move).
    piece_to: PieceTo,
    /// The move a singular-extension search leaves out at this ply.
    excluded: Move,
    /// Double extensions on the line from the root to this ply: each adds a ply, and without a
    /// bound a line of them would never reach the horizon.
    double_extensions: u8,
    /// The history score of the quiet move played from this ply (0 for any other move).
    stat: i32,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            eval: -INFINITE,
            piece_to: PieceTo::NONE,
            excluded: Move::NONE,
            double_extensions: 0,
            stat: 0,
        }
    }
}

/// The score of a finished game, `ply` plies below the root, for the side to move.
fn outcome_score(o: Outcome, ply: usize) -> i32 {
    match o {
        Outcome::Loss(_) => -MATE + ply as i32,
        Outcome::Win(_) => MATE - ply as i32,
        Outcome::Draw(_) => 0,
    }
}

/// Mate scores are stored relative to the node, so they stay right when the node is reached at
/// another ply.
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// A static value refined by the table's bound where the bound says more: a lower bound above
/// it or an upper bound below it (an exact entry is not used here: quiescence has already
/// returned it, and the main search keeps the static value at a PV node).
fn refine_by_bound(value: i32, bound: Bound, tt_score: i32) -> i32 {
    match bound {
        Bound::Lower if tt_score > value => tt_score,
        Bound::Upper if tt_score < value => tt_score,
        _ => value,
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The deepest iteration any thread has completed, with its root moves. Threads publish here
/// after each iteration; a thread whose current iteration is no deeper than the frontier
/// abandons it and continues from the frontier, so every thread's work counts for the depth
/// the search reaches. Touched once per iteration or every few thousand nodes: a mutex is fine.
#[derive(Default)]
pub struct Frontier {
    depth: AtomicU32,
    root_moves: Mutex<Vec<RootMove>>,
}

impl Frontier {
    pub fn depth(&self) -> u32 {
        self.depth.load(Relaxed)
    }
}

/// Whether the root moves `held` (a finished iteration's, best first) stay in place of the deeper
/// `offered`: a proven win does, against a result that scores less, as Stockfish's choice of
/// the best thread keeps the shortest mate. Deeper is not always stronger: an iteration whose
/// root failed high re-searches a ply shallower for each fail high in a row, and can then miss
/// a mate a full-depth iteration proved (`go mate 2` with two threads answered a move that
/// does not mate, one search in three, before this rule).
fn keeps_proven_win(held: &[RootMove], offered: &[RootMove]) -> bool {
    held.first()
        .is_some_and(|h| h.score >= MATE_BOUND && offered.first().is_none_or(|o| o.score < h.score))
}

/// What all threads of one search share.
#[derive(Copy, Clone)]
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub ctl: &'a SearchControl,
    /// Every thread's published node count, by thread id.
    pub counters: &'a [AtomicU64],
    /// Shared when the threads search the same thing (MultiPV 1).
    pub frontier: Option<&'a Frontier>,
    /// Evaluate by material alone (see [`SearchOptions::material_only`]).
    pub material_only: bool,
    /// Evaluate with this net (see [`SearchOptions::nnue`]) instead of the game's own
    /// evaluation.
    pub nnue: Option<&'a Network>,
    /// The node limit, counted over all threads; every thread enforces it.
    pub node_limit: Option<u64>,
    /// The hard time limit; every thread enforces it, so that a main thread the system holds
    /// back (more threads than cores) cannot carry the search past it.
    pub hard_limit: Option<Duration>,
    /// The margins and reductions (see `params.rs`), and the reduction table built from them.
    pub params: &'a SearchParams,
    pub reductions: &'a Reductions,
}

/// What only the main thread does: enforce time and node limits.
pub struct MainDuties {
    pub budget: Option<TimeBudget>,
    pub node_limit: Option<u64>,
}

/// One thread's search state.
pub struct Worker<'a, G: Game> {
    pos: G,
    tt: &'a TranspositionTable,
    ctl: &'a SearchControl,
    /// Every thread's published node count; this thread's is `counters[id]`.
    counters: &'a [AtomicU64],
    id: usize,
    main: Option<MainDuties>,
    /// Shared with the other threads when they search the same thing (MultiPV 1).
    frontier: Option<&'a Frontier>,
    material_only: bool,
    node_limit: Option<u64>,
    hard_limit: Option<Duration>,
    /// `check_limits` runs when `nodes & check_mask == 0`: every `CHECK_EVERY` nodes, more
    /// often under a small node limit so that it is kept closely.
    check_mask: u64,
    /// A copy of the search's parameters, read at every node without a pointer to follow.
    params: SearchParams,
    reductions: &'a Reductions,
    pub nodes: u64,
    /// Depth of the last completed (or adopted) iteration.
    completed: u32,
    /// How many lines (MultiPV) of that iteration are complete: all that were asked for, or
    /// only the first when a first iteration was cut short.
    pub lines: usize,
    seldepth: usize,
    stopped: bool,
    root_depth: i32,
    killers: Box<[[Move; 2]; MAX_PLY + 2]>,
    /// Histories and counter-moves, taken from the table's store and given back on drop.
    tables: Option<SearchTables>,
    /// The quiet moves' record at the first plies of this search (`LowPlyHistory`).
    low_ply: LowPlyHistory,
    /// Static evaluations by key. A worker lives for one search, with one evaluator (the
    /// game's, material or one net), so its cache never holds another evaluator's values.
    evals: EvalCache,
    /// The accumulators of the current line, when a net evaluates.
    nnue: Option<NnueStack<'a>>,
    /// Per-ply facts of the current line (index = ply).
    frames: Box<[Frame; MAX_PLY + 4]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    pub root_moves: Vec<RootMove>,
    /// Completed iterations in a row that chose the same best move (time management).
    stable_iterations: u32,
    /// The best move and score of the last completed iteration.
    last_best: Option<(Move, i32)>,
    /// The best score of each completed iteration, for the "score is falling" test.
    scores: Vec<i32>,
    /// The search was asked for a mate (`go mate N`): the node-level pruning that trusts the
    /// static value or a pass is off (see `search`).
    mate_search: bool,
}

impl<G: Game> Drop for Worker<'_, G> {
    /// The histories go back to the table's store for the next search.
    fn drop(&mut self) {
        if let Some(t) = self.tables.take() {
            self.tt.return_histories(t);
        }
    }
}

impl<'a, G: Game> Worker<'a, G> {
    pub fn new(
        pos: G,
        shared: Shared<'a>,
        id: usize,
        main: Option<MainDuties>,
        root_moves: &[Move],
    ) -> Self {
        // A net of another game (which the facade does not pass on) is not used.
        let nnue = shared
            .nnue
            .filter(|net| net.feature_count() == pos.feature_count())
            .map(|net| NnueStack::new(net, &pos, MAX_PLY));
        Worker {
            pos,
            tt: shared.tt,
            ctl: shared.ctl,
            counters: shared.counters,
            id,
            main,
            frontier: shared.frontier,
            material_only: shared.material_only,
            node_limit: shared.node_limit,
            hard_limit: shared.hard_limit,
            check_mask: check_interval(shared.node_limit, shared.counters.len()) - 1,
            params: *shared.params,
            reductions: shared.reductions,
            nodes: 0,
            completed: 0,
            lines: 1,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            killers: Box::new([[Move::NONE; 2]; MAX_PLY + 2]),
            tables: Some(shared.tt.take_histories()),
            low_ply: LowPlyHistory::default(),
            evals: EvalCache::default(),
            nnue,
            frames: Box::new([Frame::default(); MAX_PLY + 4]),
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 2],
            stable_iterations: 0,
            last_best: None,
            scores: Vec::new(),
            mate_search: false,
            root_moves: root_moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITE,
                    prev_score: -INFINITE,
                    pv: vec![mv],
                    seldepth: 0,
                    effort: 0,
                })
                .collect(),
        }
    }

    /// The static value of the position at `ply`, side to move's view.
    fn static_eval(&mut self, ply: usize) -> i32 {
        if self.material_only {
            return self.pos.material();
        }
        let pos = &self.pos;
        let toward_draw = self.params.endgame_scale != 0;
        let scaled = |v: i32| {
            if toward_draw {
                pos.scale_toward_draw(v)
            } else {
                v
            }
        };
        let v = match &mut self.nnue {
            Some(stack) => self.evals.get_or(pos.key(), || {
                scaled(pos.scale_net_value(stack.evaluate(pos, ply)))
            }),
            None => self.evals.get_or(pos.key(), || scaled(pos.evaluate())),
        };
        // Damped after the cache: its key does not hold the draw clock.
        damp_by_draw_clock(v, self.pos.draw_clock(), self.params.shuffle_damping)
    }

    /// `raw`, a static value of the current position, corrected by what earlier searches
    /// found in positions with the same keys (see `correction.rs`).
    #[inline]
    fn corrected(&self, raw: i32, keys: &CorrectionKeys) -> i32 {
        if keys.is_empty() {
            return raw;
        }
        let t = self.tables.as_ref().expect("a worker has its tables");
        let c = t.correction.get(self.pos.side_to_move(), keys);
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The correction keys of the current position at `ply`; `last_moves`: whether the last
    /// two moves count (not in quiescence below its first ply, where they leave no frame).
    #[inline]
    fn correction_keys(&self, ply: usize, last_moves: bool) -> CorrectionKeys {
        CorrectionKeys {
            skeleton: self.pos.structure_key(),
            pair: if last_moves {
                self.move_pair(ply)
            } else {
                None
            },
            pieces: self.pos.piece_keys(),
            minor: if self.params.correction_minor != 0 {
                self.pos.minor_key()
            } else {
                None
            },
            major: if self.params.correction_major != 0 {
                self.pos.major_key()
            } else {
                None
            },
        }
    }

    /// The correction history's key of the last two moves before `ply`, when both were real
    /// moves of this line (set by the main search: quiescence moves leave no frame).
    #[inline]
    fn move_pair(&self, ply: usize) -> Option<u32> {
        let [last, before] = self.prev_piece_tos(ply);
        (last != PieceTo::NONE && before != PieceTo::NONE).then(|| last.pair_key(before))
    }

    /// Plays `m` from `ply`, noting for the net what it changed.
    #[inline]
    fn make(&mut self, m: Move, ply: usize) {
        // The child's bucket is asked for before the move is made where the game can foresee
        // its key, so that the memory read overlaps the make as well; again after it where the
        // guess was wrong (a prefetch of a line already on its way costs nothing).
        let hint = self.pos.key_after_hint(m);
        if let Some(k) = hint {
            self.tt.prefetch(k);
        }
        self.pos.make_move(m);
        if hint != Some(self.pos.key()) {
            self.tt.prefetch(self.pos.key());
        }
        if let Some(stack) = &mut self.nnue {
            stack.moved(&self.pos, ply + 1);
        }
    }

    /// Passes the turn at `ply`.
    #[inline]
    fn make_null(&mut self, ply: usize) {
        self.pos.make_null_move();
        if let Some(stack) = &mut self.nnue {
            stack.passed(ply + 1);
        }
    }

    fn total_nodes(&self) -> u64 {
        self.counters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == self.id {
                    self.nodes
                } else {
                    c.load(Relaxed)
                }
            })
            .sum()
    }

    /// Looks at the stop flag, and for the main thread at the clock and node limit. The main
    /// thread polls the host first: on a host without threads, `stop` arrives there.
    fn check_limits(&mut self) {
        if self.main.is_some() {
            self.ctl.host().poll(false);
        }
        self.counters[self.id].store(self.nodes, Relaxed);
        // Every thread keeps the node limit: a main thread the system holds back must not
        // let the helpers search on far beyond it.
        if self.node_limit.is_some_and(|n| self.total_nodes() >= n) {
            self.ctl.stop();
        }
        if self.main.is_some() {
            self.ctl.note_nodes(self.total_nodes());
        }
        let out_of_time = self
            .hard_limit
            .is_some_and(|hard| !self.ctl.is_pondering() && self.ctl.clock_elapsed() >= hard);
        if out_of_time {
            self.ctl.stop();
        }
        // The first iteration stops too once its first root move has a score: in a tactical
        // position (Cannon Shogi's cannons) depth 1 alone can take longer than a short clock
        // allows, and the best root move searched so far is a move worth playing.
        if self.ctl.is_stopped()
            && (self.main.is_none() || self.completed > 0 || self.root_moves[0].score > -INFINITE)
        {
            self.stopped = true;
        }
        // Another thread finished this depth already: this iteration is wasted.
        if self
            .frontier
            .is_some_and(|f| f.depth() >= self.root_depth as u32)
        {
            self.stopped = true;
        }
    }

    /// Publishes a completed iteration if it is the deepest so far.
    fn publish(&self, depth: u32) {
        if let Some(f) = self.frontier {
            if depth > f.depth() {
                let mut best = f.root_moves.lock().unwrap_or_else(|e| e.into_inner());
                if depth > f.depth() {
                    if !keeps_proven_win(&best, &self.root_moves) {
                        best.clone_from(&self.root_moves);
                    }
                    f.depth.store(depth, Relaxed);
                }
            }
        }
    }

    /// Takes over the frontier's result when it is deeper than our own; true if it did.
    pub fn adopt_frontier(&mut self) -> bool {
        let Some(f) = self.frontier else {
            return false;
        };
        if f.depth() <= self.completed {
            return false;
        }
        let best = f.root_moves.lock().unwrap_or_else(|e| e.into_inner());
        self.completed = f.depth();
        if !keeps_proven_win(&self.root_moves, &best) {
            self.root_moves.clone_from(&best);
        }
        // The threads share a frontier only when they search one line.
        self.lines = 1;
        true
    }

    #[inline]
    fn count_node(&mut self, ply: usize) {
        self.nodes += 1;
        if self.nodes & self.check_mask == 0
            || (self.nodes & (STOP_EVERY - 1) == 0 && self.ctl.is_stopped())
        {
            self.check_limits();
        }
        self.seldepth = self.seldepth.max(ply);
    }

    /// Runs iterative deepening until a limit or `stop`. The main thread reports each completed
    /// iteration through `report`.
    pub fn iterate(
        &mut self,
        limits: &Limits,
        multipv: usize,
        report: &mut dyn FnMut(PvInfo<Move>),
    ) -> u32 {
        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 1, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 1)
        });
        let multipv = multipv.clamp(1, self.root_moves.len());
        self.mate_search = limits.mate.is_some();
        // Helper threads search one ply deeper on odd ids, so the threads spread over two
        // depths and fill the table with different parts of the tree.
        let offset = if self.main.is_none() && self.id % 2 == 1 {
            1
        } else {
            0
        };
        loop {
            if self.adopt_frontier() && self.main.is_some() {
                for i in 0..multipv {
                    report(self.pv_info(i, self.completed, None));
                }
                if self.iteration_ends_search(limits, self.completed as i32, multipv) {
                    break;
                }
            }
            if self.completed as i32 >= max_depth || self.ctl.is_stopped() && self.completed > 0 {
                break;
            }
            let depth = (self.completed as i32 + 1 + offset).min(max_depth);
            self.root_depth = depth;
            if self.main.is_some() {
                self.ctl.note_depth(depth as u32);
            }
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            // The last completed iteration (ranking, scores, lines), to go back to if this one
            // is stopped half-way: what is reported and played after a stop must come from one
            // iteration, not a finished one mixed with a partial one.
            let last_completed = (self.completed > 0).then(|| self.root_moves.clone());
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                self.aspiration(depth, pv_idx, report);
                // The lines found so far, best first (as Stockfish does). Each line has its
                // own search and window, so a later line can score above an earlier one; the
                // set of moves in the first `pv_idx + 1` places stays the same, so the next
                // line still searches the moves not yet shown. Stable: equal scores keep
                // their order. With one line this is a no-op.
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                if self.ctl.is_stopped() {
                    if self.completed == 0 && self.main.is_some() {
                        // A first iteration cut short counts as depth 1, with the best of the
                        // root moves searched (the first one always was, see `check_limits`).
                        // Only its first line counts: the others may not have been searched.
                        self.completed = 1;
                        self.lines = 1;
                    } else if let Some(last) = last_completed {
                        // The last completed iteration stands as it was: its ranking, scores
                        // and lines (with MultiPV, no move can then appear under two line
                        // numbers, and no finished depth is paired with a partial score).
                        self.root_moves = last;
                    }
                    break;
                }
                // Overtaken by another thread: continue from its result.
                self.stopped = false;
                for rm in &mut self.root_moves {
                    rm.score = rm.prev_score;
                }
                continue;
            }
            self.completed = depth as u32;
            self.lines = multipv;
            self.note_iteration();
            self.publish(self.completed);
            self.counters[self.id].store(self.nodes, Relaxed);
            if self.main.is_some() {
                for i in 0..multipv {
                    report(self.pv_info(i, depth as u32, None));
                }
                if self.iteration_ends_search(limits, depth, multipv) {
                    break;
                }
            }
        }
        self.counters[self.id].store(self.nodes, Relaxed);
        self.completed
    }

    /// After a completed iteration: is it time to stop?
    fn iteration_ends_search(&self, limits: &Limits, depth: i32, multipv: usize) -> bool {
        if self.ctl.is_stopped() {
            return true;
        }
        if let Score::Mate(m) = Score::from_internal(self.root_moves[0].score) {
            if limits.mate.is_some_and(|n| m > 0 && m as u32 <= n) {
                return true;
            }
            // A mate (for either side) seen by a search twice as deep as the mate is long,
            // plus two plies, is settled: deeper iterations would only repeat it, up to
            // MAX_PLY, and the reported depth would say so instead of the depth that found
            // it. A depth limit (bench, `go depth`) and MultiPV analysis run on as asked.
            let plies = 2 * m.unsigned_abs() as i32;
            if m != 0 && limits.depth.is_none() && multipv == 1 && depth >= 2 * plies + 2 {
                return true;
            }
        }
        let Some(main) = &self.main else {
            return false;
        };
        if main.node_limit.is_some_and(|n| self.total_nodes() >= n) {
            return true;
        }
        if self.ctl.is_pondering() {
            return false;
        }
        if let Some(b) = main.budget {
            // A forced move needs no thought; and an iteration started late in the soft budget
            // (`TimeShare`, 90% by default) would rarely finish in time.
            if self.root_moves.len() == 1 && depth >= 2 {
                return true;
            }
            if !b.fixed {
                let share = self.soft_share();
                if self.ctl.clock_elapsed().as_secs_f64() >= b.soft.as_secs_f64() * share {
                    return true;
                }
            }
        }
        false
    }

    /// Records the best move and score of an iteration just completed.
    fn note_iteration(&mut self) {
        let best = (self.root_moves[0].mv, self.root_moves[0].score);
        self.stable_iterations = match self.last_best {
            Some((m, _)) if m == best.0 => self.stable_iterations + 1,
            _ => 0,
        };
        self.last_best = Some(best);
        self.scores.push(best.1);
    }

    /// The share of the soft budget after which no new iteration starts: smaller when the best
    /// move has stayed the same for several iterations, larger when it just changed or when the
    /// score is falling (the search has found trouble and needs time to find a way out). Never
    /// past the hard limit, which `check_limits` enforces inside the search.
    fn soft_share(&self) -> f64 {
        let stability = match self.stable_iterations {
            0 => 1.35,
            1 => 1.1,
            2 => 0.95,
            3 => 0.85,
            _ => 0.75,
        };
        let n = self.scores.len();
        let falling = if n >= 2 && self.scores[n - 1].abs() < MATE_BOUND {
            let now = self.scores[n - 1];
            let before = self.scores[n - 2];
            let early = self.scores[n.saturating_sub(4)];
            let drop = (before - now) + (early - now) / 2;
            (1.0 + f64::from(drop) / 150.0).clamp(0.75, 1.6)
        } else {
            1.0
        };
        f64::from(self.params.time_share) / 100.0 * stability * falling * self.effort_factor()
    }

    /// The best move's share of the root's nodes, as `time::effort_scale` weighs it
    /// (`TimeNodeFactor`).
    fn effort_factor(&self) -> f64 {
        let total: u64 = self.root_moves.iter().map(|rm| rm.effort).sum();
        super::time::effort_scale(
            self.params.time_node_factor,
            self.root_moves[0].effort,
            total,
        )
    }

    /// The report of root move `i` after a search to `depth`.
    pub fn pv_info(&self, i: usize, depth: u32, bound: Option<Bound>) -> PvInfo<Move> {
        let rm = &self.root_moves[i];
        let score = if rm.score == -INFINITE {
            rm.prev_score
        } else {
            rm.score
        };
        PvInfo {
            depth,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: i as u32 + 1,
            score: Score::from_internal(score),
            bound,
            nodes: self.total_nodes(),
            time: self.ctl.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: rm.pv.clone(),
        }
    }

    /// Searches root move `pv_idx` onwards in a narrow window around the last score, widening
    /// it when the score falls outside.
    fn aspiration(&mut self, depth: i32, pv_idx: usize, report: &mut dyn FnMut(PvInfo<Move>)) {
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = self.params.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        // Each fail high in a row searches the next try a ply shallower: the move that failed
        // high is likely good, and a shallower search confirms it sooner (Stockfish's
        // `failedHighCnt`). A fail low goes back to the full depth.
        let mut failed_high = 0;
        loop {
            let score = self.root_search(alpha, beta, (depth - failed_high).max(1), pv_idx);
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                failed_high = 0;
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                failed_high += 1;
                Bound::Lower
            } else {
                return;
            };
            if self.main.is_some() && self.ctl.elapsed().as_millis() > 1000 {
                report(self.pv_info(pv_idx, depth as u32, Some(bound)));
            }
            delta += delta / 2 + self.params.aspiration_growth;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// The root of the tree: searches the root moves from `pv_idx` on (the earlier ones are the
    /// better MultiPV lines already found), records each move's score and line, and sorts them.
    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32, pv_idx: usize) -> i32 {
        self.count_node(0);
        for rm in &mut self.root_moves[pv_idx..] {
            rm.score = -INFINITE;
        }
        let mut best = -INFINITE;
        self.frames[0].eval = if self.pos.in_check() {
            -INFINITE
        } else {
            let raw = self.static_eval(0);
            let keys = self.correction_keys(0, false);
            self.corrected(raw, &keys)
        };
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            self.frames[0].piece_to = PieceTo::new(&self.pos, m);
            self.frames[0].stat = 0;
            let nodes_before = self.nodes;
            self.make(m, 0);
            let ext = i32::from(self.pos.in_check());
            let new_depth = depth - 1 + ext;
            let mut score;
            if i == pv_idx {
                score = -self.search(-beta, -alpha, new_depth, 1, true, false);
            } else {
                score = -self.search(-alpha - 1, -alpha, new_depth, 1, false, true);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search(-beta, -alpha, new_depth, 1, true, false);
                }
            }
            self.pos.unmake_move();
            self.root_moves[i].effort += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            if i == pv_idx || score > alpha {
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        // Stable: moves not (fully) searched keep their previous order below the others.
        self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        if !self.stopped && pv_idx == 0 {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            if best > -INFINITE && bound == Bound::Exact {
                let rm = &self.root_moves[0];
                self.tt
                    .store(self.pos.key(), rm.mv, score_to_tt(best, 0), depth, bound);
            }
        }
        best
    }

    /// The continuation-history keys of the moves one and two plies before `ply`.
    #[inline]
    fn prev_piece_tos(&self, ply: usize) -> [PieceTo; 2] {
        [
            if ply >= 1 {
                self.frames[ply - 1].piece_to
            } else {
                PieceTo::NONE
            },
            if ply >= 2 {
                self.frames[ply - 2].piece_to
            } else {
                PieceTo::NONE
            },
        ]
    }

    /// The main search below the root. `pv` nodes are those on the principal variation (full
    /// window); all others are searched with a null window. `cut` marks the null-window nodes
    /// expected to fail high (the first child of an expected fail-low node, the null-move and
    /// reduced searches), where reductions can be bolder.
    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv: bool,
        cut: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply, 0);
        }
        self.pv_len[ply] = ply;
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        // The game's own endings first: repetitions, move-count rules, captured towns.
        if let Some(o) = self.pos.rule_outcome() {
            return outcome_score(o, ply);
        }
        // A position repeated since the root: whoever can repeat it can make the game's
        // repetition ending happen (a draw, or a loss for a perpetual checker).
        if let Some(o) = self.pos.repetition_outcome(ply) {
            return outcome_score(o, ply);
        }
        // Mate-distance pruning: no line from here can beat a mate found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.static_eval(ply) };
        }
        let excluded = self.frames[ply].excluded;
        self.frames[ply + 1].excluded = Move::NONE;
        self.frames[ply + 1].double_extensions = self.frames[ply].double_extensions;
        // The grandchildren start with fresh killers; the children keep their cousins'.
        self.killers[ply + 2] = [Move::NONE; 2];

        let key = self.pos.key();
        // A singular-extension search (one move left out) must neither use nor overwrite the
        // table entry of the full node.
        let tte = if excluded.is_none() {
            self.tt.probe(key)
        } else {
            None
        };
        let tt_move = tte.map_or(Move::NONE, |e| e.mv);
        let tt_score = tte.map_or(-INFINITE, |e| score_from_tt(e.score, ply));
        if let Some(e) = tte {
            if !pv && e.depth >= depth {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => tt_score >= beta,
                    Bound::Upper => tt_score <= alpha,
                };
                if usable {
                    return tt_score;
                }
            }
        }

        // The evaluation's own value (kept for the correction update at the end) and the
        // corrected one.
        let mut raw_eval = -INFINITE;
        let mut static_value = -INFINITE;
        let mut ckeys = CorrectionKeys::default();
        let eval = if in_check {
            -INFINITE
        } else if excluded.is_none() {
            raw_eval = self.static_eval(ply);
            ckeys = self.correction_keys(ply, true);
            static_value = self.corrected(raw_eval, &ckeys);
            let e = static_value;
            // The table's bound is a better guess than the static value where it applies.
            tte.map_or(e, |t| refine_by_bound(e, t.bound, tt_score))
        } else {
            self.frames[ply].eval
        };
        self.frames[ply].eval = eval;
        // "Improving": the side to move stands better than two plies ago, so a fail high is
        // likelier and pruning can be bolder (and less bold when it is not).
        let improving = !in_check
            && ply >= 2
            && (self.frames[ply - 2].eval == -INFINITE || eval > self.frames[ply - 2].eval);

        // The margins (`params.rs`), copied out: the searches below borrow `self` mutably.
        let p = self.params;
        // A mate search does without reverse futility, razoring, the null move and ProbCut:
        // each trusts the static value or a pass, and a quiet sacrifice that mates (every
        // reply loses, while passing would not: a zugzwang) hides behind them for many plies,
        // because quiescence has no quiet checks to correct a shallow bound.
        let prune = !self.mate_search;
        if prune && !pv && !in_check && excluded.is_none() && beta.abs() < MATE_BOUND {
            // Reverse futility: far enough above beta that a shallow search will not fall. With
            // `RfpHistoryDivisor` set, the margin grows with the history of the opponent's
            // quiet move into this node (a move that has often worked is less likely to have
            // left us this well off) and shrinks with a bad one (Stockfish's).
            let rfp_history = if p.rfp_history_divisor > 0 {
                self.frames[ply - 1].stat / p.rfp_history_divisor
            } else {
                0
            };
            // With `RfpCutNodeMargin` set, the margin is thinner at an expected cut node the
            // table knows nothing of (Stockfish's): a fail high is what such a node expects.
            let rfp_margin = if cut && tte.is_none() {
                (p.rfp_margin - p.rfp_cut_node_margin).max(0)
            } else {
                p.rfp_margin
            };
            if depth <= p.rfp_depth
                && eval - rfp_margin * (depth - i32::from(improving)) - rfp_history >= beta
            {
                return eval;
            }
            // Razoring: far below alpha at low depth, only a tactic can save the node; ask
            // quiescence whether there is one.
            if depth <= p.razor_depth && eval + p.razor_base + p.razor_margin * depth <= alpha {
                let q = self.quiescence(alpha, alpha + 1, ply, 0);
                if self.stopped {
                    return 0;
                }
                if q <= alpha {
                    return q;
                }
            }
            // Null move: if passing still holds beta, a real move will too (where the game
            // says passing is a fair assumption).
            // With `NmpStaticMargin` set, also only where the static value itself clears beta
            // by a margin that shrinks with depth (to nothing at depth 12), and the table's
            // bound does not pull it down (Stockfish's conditions): at low depth, a node only
            // just above beta seldom gains from a pass worth checking.
            let m = p.nmp_static_margin;
            if depth >= 3
                && eval >= beta
                && (m == 0 || eval >= static_value && static_value >= beta + m - m * depth / 12)
                && self.frames[ply - 1].piece_to != PieceTo::NONE
                && self.pos.null_move_ok()
            {
                let r = p.nmp_base
                    + depth / p.nmp_depth_divisor
                    + ((eval - beta) / p.nmp_eval_divisor).min(p.nmp_eval_max);
                self.frames[ply].piece_to = PieceTo::NONE;
                self.frames[ply].stat = 0;
                self.make_null(ply);
                let s = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, false, !cut);
                self.pos.unmake_null_move();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        // ProbCut: a capture whose shallow search clears beta by a margin would almost surely
        // hold at full depth; the node is cut without a full search.
        let probcut_beta = beta + p.probcut_margin;
        if prune
            && !pv
            && !in_check
            && excluded.is_none()
            && depth >= 5
            && beta.abs() < MATE_BOUND
            && !tte.is_some_and(|e| e.depth >= depth - 3 && tt_score < probcut_beta)
        {
            let mut caps = G::Moves::default();
            self.pos.tactical_moves(&mut caps);
            let mut cap_scores = Scores::<G>::default();
            let picker = MovePicker::tactical(&self.pos, &mut caps, &mut cap_scores, tt_move);
            for m in picker {
                if !self.pos.see_ge(m, probcut_beta - eval) {
                    continue;
                }
                self.frames[ply].piece_to = PieceTo::new(&self.pos, m);
                self.frames[ply].stat = 0;
                self.make(m, ply);
                let mut v = -self.quiescence(-probcut_beta, -probcut_beta + 1, ply + 1, 0);
                if v >= probcut_beta && !self.stopped {
                    v = -self.search(
                        -probcut_beta,
                        -probcut_beta + 1,
                        depth - 4,
                        ply + 1,
                        false,
                        !cut,
                    );
                }
                self.pos.unmake_move();
                if self.stopped {
                    return 0;
                }
                if v >= probcut_beta {
                    self.tt
                        .store(key, m, score_to_tt(v, ply), depth - 3, Bound::Lower);
                    return v;
                }
            }
        }
        // Internal iterative reduction: without a table move the ordering is poor, and a
        // shallower search is cheaper here (it fills the table for the next visit).
        let depth = if tt_move.is_none() && excluded.is_none() && depth >= 4 && (pv || cut) {
            depth - 1
        } else {
            depth
        };

        let mut moves = G::Moves::default();
        self.pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return if excluded.is_none() {
                outcome_score(self.pos.no_moves_outcome(), ply)
            } else {
                alpha
            };
        }
        let killers = self.killers[ply];
        let prev = self.prev_piece_tos(ply);
        let tables = self.tables.as_ref().expect("a worker has its tables");
        let counter = tables.counter_moves.get(prev[0]);
        let mut scores = Scores::<G>::default();
        // The picker does each stage's work only when the node gets that far.
        let mut picker = StagedPicker::new(&mut moves, &mut scores, tt_move);
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let lmp_limit = (p.lmp_base + depth * depth) / if improving { 1 } else { 2 };
        loop {
            let next = {
                let tables = self.tables.as_ref().expect("a worker has its tables");
                let ctx = QuietContext {
                    history: &tables.history,
                    cont: &tables.cont,
                    prev,
                    killers,
                    counter,
                    low_ply: (p.low_ply_history != 0 && ply < LOW_PLIES).then_some((
                        &self.low_ply,
                        ply,
                        p.low_ply_history,
                    )),
                };
                picker.next(&self.pos, &ctx)
            };
            let Some((m, quiet_score)) = next else {
                break;
            };
            if m == excluded {
                continue;
            }
            let tactical = self.pos.is_tactical(m);
            // Depth after a late-move reduction, for the pruning decisions below.
            let lmr_depth = (depth - 1 - self.reductions.get(depth, searched + 1)).max(0);
            // The depth futility and the exchange test judge a quiet move at: moved by its
            // history where `PruneHistoryDivisor` is set (Stockfish's), so that a move with a
            // good record is pruned later and one with a bad record sooner.
            let prune_depth = if !tactical && p.prune_history_divisor > 0 {
                (lmr_depth + quiet_score / p.prune_history_divisor).max(0)
            } else {
                lmr_depth
            };
            // Singular extension: when the table move is much better than every other move
            // (a search without it fails low by a margin), it is searched deeper; when even
            // without it the node fails high, the node is cut at once (multi-cut).
            let mut ext = 0;
            if m == tt_move
                && depth >= 7
                && excluded.is_none()
                && ply < 2 * self.root_depth as usize
            {
                if let Some(e) = tte {
                    if e.bound != Bound::Upper
                        && e.depth >= depth - 3
                        && tt_score.abs() < MATE_BOUND
                    {
                        let s_beta = tt_score - p.singular_margin * depth;
                        self.frames[ply].excluded = m;
                        let s = self.search(s_beta - 1, s_beta, (depth - 1) / 2, ply, false, cut);
                        self.frames[ply].excluded = Move::NONE;
                        if self.stopped {
                            return 0;
                        }
                        if s < s_beta {
                            // Far below: the table move is the only move, searched two plies
                            // deeper (Stockfish's double extension, which it too keeps off PV
                            // nodes; `MAX_DOUBLE_EXTENSIONS` bounds a line of them).
                            ext = if !pv
                                && s < s_beta - p.double_extension_margin
                                && self.frames[ply].double_extensions < MAX_DOUBLE_EXTENSIONS
                            {
                                2
                            } else {
                                1
                            };
                        } else if s_beta >= beta {
                            return s_beta;
                        } else if tt_score >= beta {
                            ext = -1;
                        }
                    }
                }
            }
            // Quiet moves pruned unless they give check: late in the list at low depth
            // (late-move pruning), unable to lift the static value to alpha (futility), or
            // with a bad history at low depth. Asked first, because it is cheaper than the
            // exchange test below, and a move it prunes needs no exchange test.
            if !pv
                && !in_check
                && !tactical
                && best > -MATE_BOUND
                && (depth <= 8 && searched as i32 >= lmp_limit
                    || prune_depth <= p.futility_depth
                        && alpha < MATE_BOUND
                        && eval + p.futility_base + p.futility_margin * prune_depth <= alpha
                    || lmr_depth <= p.history_prune_depth
                        && quiet_score < -p.history_prune_margin * depth)
            {
                if !self.pos.may_give_check(m) {
                    continue;
                }
                self.pos.make_move(m);
                let gives_check = self.pos.in_check();
                self.pos.unmake_move();
                if !gives_check {
                    continue;
                }
            }
            // Static-exchange pruning at low depth: a capture that loses more than a margin
            // growing with depth, or a quiet move that drops its piece, is not worth a search.
            if !pv && !in_check && best > -MATE_BOUND && searched > 0 {
                let margin = if tactical {
                    -p.see_capture_margin * depth
                } else {
                    -p.see_quiet_margin * prune_depth * prune_depth
                };
                if (tactical && depth <= 6 || !tactical && prune_depth <= 7)
                    && !self.pos.see_ge(m, margin)
                {
                    continue;
                }
            }
            let piece_to = PieceTo::new(&self.pos, m);
            self.frames[ply].piece_to = piece_to;
            self.frames[ply].stat = if tactical { 0 } else { quiet_score };
            self.frames[ply + 1].double_extensions =
                self.frames[ply].double_extensions + u8::from(ext >= 2);
            self.make(m, ply);
            let gives_check = self.pos.in_check();
            if ext == 0
                && gives_check
                && depth >= p.check_extension_depth
                && ply < 2 * self.root_depth as usize
            {
                // Only a check that does not lose material is worth a deeper look; a piece
                // thrown away to give check (a cheap drop or a sacrifice) is searched normally.
                self.pos.unmake_move();
                let safe = self.pos.see_ge(m, 0);
                self.pos.make_move(m);
                if safe {
                    ext = 1;
                }
            }
            let new_depth = depth - 1 + ext;
            let mut score;
            if searched == 0 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, pv, !pv && !cut);
            } else {
                let mut r = 0;
                if depth >= 3 && searched > usize::from(pv) && !in_check {
                    r = self.reductions.get(depth, searched);
                    if tactical || gives_check {
                        // Tactical moves are reduced only when they come very late.
                        r = if searched >= 6 { r / 2 } else { 0 };
                    } else {
                        if pv {
                            r -= 1;
                        }
                        if !improving {
                            r += 1;
                        }
                        if cut {
                            r += p.lmr_cut_node;
                        }
                        if m == killers[0] || m == killers[1] || m == counter {
                            r -= 1;
                        }
                        r -= quiet_score / p.lmr_history_divisor;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut);
                }
                if pv && score > alpha && score < beta && !self.stopped {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
            }
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if pv {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !tactical {
                            self.reward_quiet(ply, m, depth, &quiets);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !tactical && !quiets.is_full() {
                quiets.push(m);
            }
        }
        if searched == 0 && excluded.is_none() {
            // Every move was pruned (only possible with a mate-free best of -INFINITE, which
            // the pruning conditions rule out) or left out: fail low.
            return alpha;
        }
        if !excluded.is_none() {
            return best.max(-INFINITE + 1);
        }
        // A fail high far above beta is less sure than its size says (the refutation was
        // searched against a null window at beta); pulled toward beta, the more so the
        // shallower the node, it misleads the parent's and the table's later bounds less
        // (Stockfish's fail-high blend). Mates keep their distance.
        let w = p.fail_high_blend;
        if w > 0 && best >= beta && best.abs() < MATE_BOUND && beta.abs() < MATE_BOUND {
            best = (best * depth + beta * w) / (depth + w);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if !best_move.is_none() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // What the search found says how wrong the static value was, when the value is on the
        // side of it that a bound can tell (a fail high above it, a fail low below it) and the
        // best move is quiet (a won capture says nothing about the structure).
        if !ckeys.is_empty()
            && raw_eval != -INFINITE
            && best.abs() < MATE_BOUND
            && (best_move.is_none() || !self.pos.is_tactical(best_move))
            && !(bound == Bound::Lower && best <= static_value)
            && !(bound == Bound::Upper && best >= static_value)
        {
            let side = self.pos.side_to_move();
            let t = self.tables.as_mut().expect("a worker has its tables");
            t.correction.update(side, &ckeys, best - raw_eval, depth);
        }
        self.tt
            .store(key, best_move, score_to_tt(best, ply), depth, bound);
        best
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// A quiet move caused a cutoff: make it a killer and the counter-move of the opponent's
    /// last move, raise its histories, lower the histories of the quiet moves tried before it.
    fn reward_quiet(&mut self, ply: usize, m: Move, depth: i32, tried: &[Move]) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let prev = self.prev_piece_tos(ply);
        let side = self.pos.side_to_move();
        let p = &self.params;
        let bonus = (depth * depth * p.history_bonus_quad + p.history_bonus_linear * depth)
            .min(p.history_bonus_max);
        let pt = PieceTo::new(&self.pos, m);
        let t = self.tables.as_mut().expect("a worker has its tables");
        t.counter_moves.set(prev[0], m);
        t.history.update(side, m, bonus);
        for p in prev {
            t.cont.update(p, pt, bonus);
        }
        if p.low_ply_history != 0 {
            self.low_ply.update(ply, m, bonus);
            for &q in tried {
                self.low_ply.update(ply, q, -bonus);
            }
        }
        for &q in tried {
            t.history.update(side, q, -bonus);
            let qpt = PieceTo::new(&self.pos, q);
            for p in prev {
                t.cont.update(p, qpt, -bonus);
            }
        }
    }

    /// Quiescence: only tactical moves (all moves when in check), with the static evaluation
    /// as a floor ("stand pat") when not in check.
    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        self.pv_len[ply] = ply;
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        // A game already over (a taken town) is scored as such, not evaluated.
        if let Some(o) = self.pos.decided_outcome() {
            return outcome_score(o, ply);
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 || qply >= MAX_QUIESCENCE {
            return if in_check { 0 } else { self.static_eval(ply) };
        }
        let key = self.pos.key();
        let tte = self.tt.probe(key);
        let tt_move = tte.map_or(Move::NONE, |e| e.mv);
        if let Some(e) = tte {
            let s = score_from_tt(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if usable {
                return s;
            }
        }
        let mut moves = G::Moves::default();
        let mut best;
        let stand_pat;
        if in_check {
            self.pos.legal_moves(&mut moves);
            if moves.is_empty() {
                return outcome_score(self.pos.no_moves_outcome(), ply);
            }
            best = -INFINITE;
            stand_pat = -INFINITE;
        } else {
            let raw = self.static_eval(ply);
            // The frames name the moves into this node only at the first quiescence ply.
            let keys = self.correction_keys(ply, qply == 0);
            stand_pat = self.corrected(raw, &keys);
            // The table's bound is a better guess than the static value where it applies
            // (as in the main search; Stockfish's quiescence does the same). Delta pruning
            // below keeps the static value: it asks what a capture adds to the position.
            let floor = tte.map_or(stand_pat, |e| {
                let s = score_from_tt(e.score, ply);
                if s.abs() < MATE_BOUND {
                    refine_by_bound(stand_pat, e.bound, s)
                } else {
                    stand_pat
                }
            });
            if floor >= beta {
                return floor;
            }
            alpha = alpha.max(floor);
            best = floor;
            self.pos.tactical_moves(&mut moves);
        }
        let orig_alpha = alpha;
        let mut best_move = Move::NONE;
        let mut scores = Scores::<G>::default();
        let picker = MovePicker::tactical(&self.pos, &mut moves, &mut scores, tt_move);
        let mut quiet_evasions = 0;
        for m in picker {
            // Delta pruning: even winning this victim for free would not reach alpha.
            if !in_check
                && stand_pat + self.pos.capture_value(m) + self.params.qs_futility_margin < alpha
            {
                continue;
            }
            // A capture that loses material by static exchange cannot help here: the side
            // can stand pat instead.
            if !in_check && !self.pos.see_ge(m, 0) {
                continue;
            }
            // In check, once a move has shown we are not mated, two quiet evasions are
            // enough: with drops (any piece in hand on any square between) there can be dozens,
            // and trying them all at every check deep in quiescence explodes the tree.
            if in_check && !self.pos.is_tactical(m) {
                if quiet_evasions >= MAX_QUIET_EVASIONS && best > -MATE_BOUND {
                    continue;
                }
                quiet_evasions += 1;
            }
            self.make(m, ply);
            let score = -self.quiescence(-beta, -alpha, ply + 1, qply + 1);
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, score_to_tt(best, ply), 0, bound);
        best
    }
}
