//! Move ordering: the transposition-table move first, then captures and other tactical moves by
//! MVV-LVA (most valuable victim, least valuable attacker) when they do not lose material by
//! static exchange, then the two killer moves of the ply and the counter-move of the opponent's
//! last move, then quiet moves by their history (the side's from/to history plus the
//! continuation histories of the moves one and two plies back: how well this piece going to this
//! square answered that piece going to that square) and what the game sees on the board
//! (`Game::add_quiet_order`: in the chess family, threats against the moved piece), and last the
//! captures that lose material.

use super::correction::CorrectionHistory;
use crate::board::Color;
use crate::games::{Game, Move, MoveList, StackList, PIECE_KINDS};

/// Squares of the largest board (12x8 = 96 and 10x10 = 100 fit), for history tables.
const SQUARES: usize = 128;
/// History scores stay within +-HISTORY_MAX (the "gravity" update below keeps them there).
pub const HISTORY_MAX: i32 = 16_384;

const TT_MOVE: i32 = 1 << 30;

/// The "gravity" update: a bonus moves the entry toward +-HISTORY_MAX and shrinks as it gets
/// there, so scores saturate smoothly and old knowledge decays.
#[inline]
fn gravity(e: &mut i32, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *e += b - *e * b.abs() / HISTORY_MAX;
}

/// The gravity update of an entry kept in 16 bits (within +-HISTORY_MAX, so it fits).
#[inline]
fn gravity16(e: &mut i16, bonus: i32) {
    let mut v = i32::from(*e);
    gravity(&mut v, bonus);
    *e = v as i16;
}

/// A move's from/to index for the history tables: the piece code folded into the from-square,
/// so that drops of different pieces do not share an entry.
#[inline]
fn from_to(m: Move) -> usize {
    let from = (m.from().index() ^ (usize::from(m.piece()) * 7)) % SQUARES;
    from * SQUARES + m.to().index() % SQUARES
}

/// History of quiet moves that caused cutoffs, by side, from-square and to-square. The
/// from-square of a drop is whatever the game puts there; the piece code is folded in so drops
/// of different pieces do not share an entry.
pub struct History {
    table: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: vec![0; 2 * SQUARES * SQUARES],
        }
    }
}

impl History {
    #[inline]
    fn index(side: Color, m: Move) -> usize {
        side.index() * SQUARES * SQUARES + from_to(m)
    }

    #[inline]
    pub fn get(&self, side: Color, m: Move) -> i32 {
        self.table[Self::index(side, m)]
    }

    /// Rewards (positive `bonus`) or punishes a move; scores saturate smoothly at the bounds.
    #[inline]
    pub fn update(&mut self, side: Color, m: Move, bonus: i32) {
        gravity(&mut self.table[Self::index(side, m)], bonus);
    }

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = 0);
    }
}

/// Plies from the root whose quiet moves the low-ply history also orders.
pub const LOW_PLIES: usize = 4;

/// The quiet moves' record at the first plies of one search, by ply and from/to (Stockfish's
/// low-ply history): near the root every node's ordering decides much of the tree below it,
/// and what cut there in this search's earlier iterations says more about the same ply than
/// the side history, which mixes every ply of this search and the searches before. It lives
/// for one search and starts empty.
pub struct LowPlyHistory {
    table: Vec<i16>,
}

impl Default for LowPlyHistory {
    fn default() -> Self {
        LowPlyHistory {
            table: vec![0; LOW_PLIES * SQUARES * SQUARES],
        }
    }
}

impl LowPlyHistory {
    #[inline]
    fn index(ply: usize, m: Move) -> usize {
        ply * SQUARES * SQUARES + from_to(m)
    }

    /// The record of `m` at `ply` (0 at or beyond [`LOW_PLIES`]).
    #[inline]
    pub fn get(&self, ply: usize, m: Move) -> i32 {
        if ply < LOW_PLIES {
            i32::from(self.table[Self::index(ply, m)])
        } else {
            0
        }
    }

    /// Rewards (positive `bonus`) or punishes `m` at `ply`; nothing beyond [`LOW_PLIES`].
    #[inline]
    pub fn update(&mut self, ply: usize, m: Move, bonus: i32) {
        if ply < LOW_PLIES {
            gravity16(&mut self.table[Self::index(ply, m)], bonus);
        }
    }
}

/// A move as continuation histories see it: which kind of piece went to which square.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PieceTo(u16);

impl PieceTo {
    /// No move (the root, or a null move): a row of its own, so such nodes neither read nor
    /// spoil a real move's continuation.
    pub const NONE: PieceTo = PieceTo((PIECE_KINDS * SQUARES) as u16);

    #[inline]
    pub fn new<G: Game>(pos: &G, m: Move) -> Self {
        let kind = pos.moved_kind(m).min(PIECE_KINDS - 1);
        PieceTo((kind * SQUARES + m.to().index() % SQUARES) as u16)
    }

    #[inline]
    fn index(self) -> usize {
        usize::from(self.0)
    }

    /// A 16-bit key of this move and the one before it (`earlier`), spread by a multiplicative
    /// hash: the correction history's key of the position the two moves leave.
    #[inline]
    pub fn pair_key(self, earlier: PieceTo) -> u32 {
        ((u32::from(self.0) << 16) | u32::from(earlier.0)).wrapping_mul(0x9E37_79B1) >> 16
    }
}

const PIECE_TO: usize = PIECE_KINDS * SQUARES;

/// Continuation history: the value of a move (piece kind, target) given an earlier move of the
/// line (piece kind, target), shared by the one- and two-plies-back lookups. Colours are not
/// kept apart: the earlier move one ply back is always the opponent's.
pub struct ContinuationHistory {
    /// i16 halves the memory; the gravity update keeps every entry within +-HISTORY_MAX.
    table: Vec<i16>,
    /// One bit per [`CONT_CHUNK`] entries of `table`: set when an entry of the chunk may be
    /// non-zero, so that [`ContinuationHistory::clear`] zeroes only what was written.
    dirty: Vec<u64>,
}

/// Entries of the continuation history per bit of its dirty map (128 bytes, two cache lines).
const CONT_CHUNK: usize = 64;

impl Default for ContinuationHistory {
    fn default() -> Self {
        // About 19 MB of zeros, which the allocator gets as fresh zeroed pages: only the pages
        // (2 MB each on Linux) holding rows a search touches cost anything.
        let len = (PIECE_TO + 1) * PIECE_TO;
        let table = vec![0i16; len];
        // Two random rows a quiet move: huge pages spare the address translation.
        super::huge_pages::advise(table.as_ptr().cast(), std::mem::size_of_val(&table[..]));
        ContinuationHistory {
            table,
            dirty: vec![0; len.div_ceil(CONT_CHUNK).div_ceil(64)],
        }
    }
}

impl ContinuationHistory {
    #[inline]
    pub fn get(&self, before: PieceTo, now: PieceTo) -> i32 {
        i32::from(self.table[before.index() * PIECE_TO + now.index()])
    }

    #[inline]
    pub fn update(&mut self, before: PieceTo, now: PieceTo, bonus: i32) {
        let i = before.index() * PIECE_TO + now.index();
        let chunk = i / CONT_CHUNK;
        self.dirty[chunk / 64] |= 1 << (chunk % 64);
        gravity16(&mut self.table[i], bonus);
    }

    /// Zeroes every entry, as a new table would hold, touching only the chunks written since
    /// the last clear (a search of a few thousand nodes writes a small part of the 19 MB).
    pub fn clear(&mut self) {
        for (w, word) in self.dirty.iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                let chunk = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let start = chunk * CONT_CHUNK;
                let end = (start + CONT_CHUNK).min(self.table.len());
                self.table[start..end].fill(0);
            }
        }
    }
}

/// The best answer found so far to each opponent move (piece kind, target).
pub struct CounterMoves {
    table: Vec<Move>,
}

impl Default for CounterMoves {
    fn default() -> Self {
        CounterMoves {
            table: vec![Move::NONE; PIECE_TO + 1],
        }
    }
}

impl CounterMoves {
    #[inline]
    pub fn get(&self, before: PieceTo) -> Move {
        self.table[before.index()]
    }

    #[inline]
    pub fn set(&mut self, before: PieceTo, m: Move) {
        self.table[before.index()] = m;
    }

    pub fn clear(&mut self) {
        self.table.fill(Move::NONE);
    }
}

/// The history tables of one search thread. They are kept from one search to the next with the
/// transposition table (and emptied with it, on a new game), as Stockfish keeps its histories:
/// what the last move's search learnt still orders this one, and a short search does not pay
/// for allocating and first touching some 20 MB (at 10 ms a move that cost a third of the
/// search).
#[derive(Default)]
pub struct SearchTables {
    pub history: History,
    pub cont: ContinuationHistory,
    pub counter_moves: CounterMoves,
    pub correction: CorrectionHistory,
}

impl SearchTables {
    /// Empties every table in place: afterwards they hold what `SearchTables::default()` holds,
    /// without allocating (and, for the continuation history, without zeroing) 19 MB again.
    pub fn clear(&mut self) {
        self.history.clear();
        self.cont.clear();
        self.counter_moves.clear();
        self.correction.clear();
    }
}

/// What orders the quiet moves of one node.
pub struct QuietContext<'h> {
    pub history: &'h History,
    pub cont: &'h ContinuationHistory,
    /// The moves one and two plies back.
    pub prev: [PieceTo; 2],
    pub killers: [Move; 2],
    pub counter: Move,
    /// The low-ply history, the node's ply and its weight (`LowPlyHistory`, a search
    /// parameter), where it orders this node's quiet moves: the weight over 1 + 2 × ply.
    pub low_ply: Option<(&'h LowPlyHistory, usize, i32)>,
}

impl QuietContext<'_> {
    /// The history score of a quiet move: side history plus both continuation histories.
    #[inline]
    pub fn score<G: Game>(&self, pos: &G, m: Move) -> i32 {
        let pt = PieceTo::new(pos, m);
        self.history.get(pos.side_to_move(), m)
            + self.cont.get(self.prev[0], pt)
            + self.cont.get(self.prev[1], pt)
    }

    /// The score a quiet move is ordered by: its history score and the low-ply history's.
    #[inline]
    pub fn order_score<G: Game>(&self, pos: &G, m: Move) -> i32 {
        let low = match self.low_ply {
            Some((t, ply, weight)) => weight * t.get(ply, m) / (1 + 2 * ply as i32),
            None => 0,
        };
        self.score(pos, m) + low
    }
}

/// Hands out the moves of a main-search node in stages, doing each stage's work only when the
/// node gets that far: the table move (nothing scored yet), the tactical moves by MVV-LVA whose
/// static exchange does not lose (the exchange is evaluated only for the move about to be
/// tried), the killers and the counter-move, the quiet moves by history, and last the tactical
/// moves that lose material. Most nodes are cut by the table move or a good capture, and then
/// the quiet moves are never scored. It borrows the caller's list, so a node keeps one move
/// list on the stack; the position and histories are passed to each call because the search
/// changes the position between calls.
pub struct StagedPicker<'a, L: MoveList> {
    moves: &'a mut L,
    scores: &'a mut L::Scores,
    tt_move: Move,
    stage: Stage,
    /// Start of the tactical moves (after the table move, if it was found).
    tactical_start: usize,
    /// The tactical moves that lose material: `tactical_start..bad_end`, in the order found.
    bad_end: usize,
    /// The next move to look at in the current stage.
    cur: usize,
    /// End of the tactical moves; the quiet moves follow.
    tactical_end: usize,
    /// The refutation (killer or counter-move) to look for next.
    refutation: usize,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    Tactical,
    Refutations,
    Quiets,
    BadTactical,
    Done,
}

impl<'a, L: MoveList> StagedPicker<'a, L> {
    pub fn new(moves: &'a mut L, scores: &'a mut L::Scores, tt_move: Move) -> Self {
        scores.clear();
        scores.extend(std::iter::repeat_n(0, moves.len()));
        StagedPicker {
            moves,
            scores,
            tt_move,
            stage: Stage::TtMove,
            tactical_start: 0,
            bad_end: 0,
            cur: 0,
            tactical_end: 0,
            refutation: 0,
        }
    }

    /// Index of the best-scored move in `from..to` (the first of equals; `from < to`).
    #[inline]
    fn best_in(&self, from: usize, to: usize) -> usize {
        from + first_best(&self.scores[from..to])
    }

    #[inline]
    fn swap(&mut self, i: usize, j: usize) {
        self.moves.swap(i, j);
        self.scores.swap(i, j);
    }

    /// The next move and, for a quiet move, its history score (0 for tactical moves).
    pub fn next<G: Game>(&mut self, pos: &G, ctx: &QuietContext<'_>) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Tactical;
                    if let Some(i) = self.moves.iter().position(|&m| m == self.tt_move) {
                        self.moves.swap(0, i);
                        self.tactical_start = 1;
                    }
                    // Tactical moves to the front of the rest, scored by MVV-LVA.
                    let mut end = self.tactical_start;
                    for i in self.tactical_start..self.moves.len() {
                        let m = self.moves[i];
                        if pos.is_tactical(m) {
                            self.moves.swap(end, i);
                            self.scores[end] = mvv_lva(pos, m);
                            end += 1;
                        }
                    }
                    self.tactical_end = end;
                    self.bad_end = self.tactical_start;
                    self.cur = self.tactical_start;
                    if self.tactical_start == 1 {
                        let m = self.moves[0];
                        let score = if pos.is_tactical(m) {
                            0
                        } else {
                            ctx.score(pos, m)
                        };
                        return Some((m, score));
                    }
                }
                Stage::Tactical => {
                    if self.cur >= self.tactical_end {
                        self.stage = Stage::Refutations;
                        self.cur = self.tactical_end;
                        continue;
                    }
                    let best = self.best_in(self.cur, self.tactical_end);
                    self.swap(self.cur, best);
                    let m = self.moves[self.cur];
                    if pos.see_ge(m, 0) {
                        self.cur += 1;
                        return Some((m, 0));
                    }
                    // Loses material: kept, in this order, for the last stage.
                    self.swap(self.cur, self.bad_end);
                    self.bad_end += 1;
                    self.cur += 1;
                }
                Stage::Refutations => {
                    let refutations = [ctx.killers[0], ctx.killers[1], ctx.counter];
                    while self.refutation < refutations.len() {
                        let r = refutations[self.refutation];
                        self.refutation += 1;
                        if r.is_none()
                            || r == self.tt_move
                            || refutations[..self.refutation - 1].contains(&r)
                        {
                            continue;
                        }
                        let found = self.moves[self.cur..]
                            .iter()
                            .position(|&m| m == r)
                            .map(|i| i + self.cur);
                        if let Some(i) = found {
                            self.swap(self.cur, i);
                            self.cur += 1;
                            return Some((r, ctx.score(pos, r)));
                        }
                    }
                    self.stage = Stage::Quiets;
                    for i in self.cur..self.moves.len() {
                        self.scores[i] = ctx.order_score(pos, self.moves[i]);
                    }
                    pos.add_quiet_order(&self.moves[self.cur..], &mut self.scores[self.cur..]);
                }
                Stage::Quiets => {
                    if self.cur >= self.moves.len() {
                        self.stage = Stage::BadTactical;
                        self.cur = self.tactical_start;
                        continue;
                    }
                    let best = self.best_in(self.cur, self.moves.len());
                    self.swap(self.cur, best);
                    self.cur += 1;
                    // The history alone: the board's terms order the moves but say nothing
                    // of how the search should reduce them.
                    let m = self.moves[self.cur - 1];
                    return Some((m, ctx.score(pos, m)));
                }
                Stage::BadTactical => {
                    if self.cur >= self.bad_end {
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.cur += 1;
                    return Some((self.moves[self.cur - 1], 0));
                }
                Stage::Done => return None,
            }
        }
    }
}

/// Scores moves once and hands them out best first (selection sort: cutoffs usually come
/// early, so sorting the whole list would be wasted work). It borrows the caller's list, so a
/// node keeps one move list on the stack. Used where only tactical moves are searched.
pub struct MovePicker<'a, L: MoveList> {
    moves: &'a mut L,
    scores: &'a mut L::Scores,
    next: usize,
}

/// The ordering scores of a move list of game `G`, with the same room; the caller keeps it on
/// its stack next to the list.
pub type Scores<G> = <<G as Game>::Moves as MoveList>::Scores;

impl<'a, L: MoveList> MovePicker<'a, L> {
    /// Orders tactical moves for quiescence (MVV-LVA only).
    pub fn tactical<G: Game<Moves = L>>(
        pos: &G,
        moves: &'a mut L,
        scores: &'a mut L::Scores,
        tt_move: Move,
    ) -> Self {
        scores.clear();
        scores.extend(moves.iter().map(|&m| {
            if m == tt_move {
                TT_MOVE
            } else {
                mvv_lva(pos, m)
            }
        }));
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }
}

impl<L: MoveList> Iterator for MovePicker<'_, L> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let best = self.next + first_best(&self.scores[self.next..n]);
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

/// Where the highest score of `scores` first stands (0 for an empty slice): the selection
/// sort's step. Two passes, the highest score and then its place, each compile to a tight loop
/// (the first to vector instructions), where one pass that tracks the index reloads the best
/// score and checks both bounds at every step; the scan was a tenth of a chess search's time
/// (docs/performance.md). The first of equals, as before, so the search is node for node the
/// same.
#[inline]
fn first_best(scores: &[i32]) -> usize {
    let top = scores.iter().fold(i32::MIN, |a, &b| a.max(b));
    scores.iter().position(|&v| v == top).unwrap_or(0)
}

/// Victim value first, attacker value as tie-break.
#[inline]
fn mvv_lva<G: Game>(pos: &G, m: Move) -> i32 {
    pos.capture_value(m) * 16 - pos.mover_value(m) / 16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Chess;

    #[test]
    fn first_best_is_the_first_of_the_highest() {
        assert_eq!(first_best(&[3, 7, -2, 7, 1]), 1);
        assert_eq!(first_best(&[-9, -4, -4]), 1);
        assert_eq!(first_best(&[i32::MIN, i32::MIN]), 0);
        assert_eq!(first_best(&[5]), 0);
        assert_eq!(first_best(&[]), 0);
        // Longer than a vector register, the best near the end.
        let mut v: Vec<i32> = (0..37).map(|i| (i * 7919) % 101 - 50).collect();
        v[33] = 1000;
        v[35] = 1000;
        assert_eq!(first_best(&v), 33);
    }

    #[test]
    fn tt_move_then_captures_then_killers_then_history() {
        // White can capture a queen with a pawn or with the rook, or play quiet moves.
        let pos = crate::engine::registry::new_game::<Chess>("chess")
            .unwrap()
            .with_fen("4k3/8/8/3q4/4P3/8/8/3RK3 w - - 0 1")
            .unwrap();
        let mut moves = <Chess as Game>::Moves::default();
        pos.legal_moves(&mut moves);
        let find = |s: &str| pos.parse_move(s, crate::games::Notation::Uci).unwrap();
        let tt = find("e1e2");
        let killer = find("d1c1");
        let mut history = History::default();
        history.update(pos.side_to_move(), find("d1b1"), 1000);
        let n = moves.len();
        let cont = ContinuationHistory::default();
        let ctx = QuietContext {
            history: &history,
            cont: &cont,
            prev: [PieceTo::NONE; 2],
            killers: [killer, Move::NONE],
            counter: Move::NONE,
            low_ply: None,
        };
        let mut scores = Scores::<Chess>::default();
        let mut picker = StagedPicker::new(&mut moves, &mut scores, tt);
        let mut order = Vec::new();
        while let Some((m, _)) = picker.next(&pos, &ctx) {
            order.push(m);
        }
        assert_eq!(order.len(), n);
        assert_eq!(order[0], tt);
        assert_eq!(
            order[1],
            find("e4d5"),
            "pawn takes queen before rook takes queen"
        );
        assert_eq!(order[2], find("d1d5"));
        assert_eq!(order[3], killer);
        assert_eq!(order[4], find("d1b1"), "history orders the quiet moves");
    }

    #[test]
    fn the_low_ply_history_orders_the_first_plies_alone() {
        let pos = crate::engine::registry::new_game::<Chess>("chess").unwrap();
        let find = |s: &str| pos.parse_move(s, crate::games::Notation::Uci).unwrap();
        let (good, other) = (find("g1f3"), find("b1c3"));
        let mut low = LowPlyHistory::default();
        for ply in 0..=LOW_PLIES {
            low.update(ply, good, 3000);
            low.update(ply, other, -3000);
        }
        assert!(low.get(0, good) > 0 && low.get(0, other) < 0);
        // Beyond the first plies nothing is kept.
        assert_eq!(low.get(LOW_PLIES, good), 0);
        let history = History::default();
        let cont = ContinuationHistory::default();
        let order = |low_ply| {
            let ctx = QuietContext {
                history: &history,
                cont: &cont,
                prev: [PieceTo::NONE; 2],
                killers: [Move::NONE; 2],
                counter: Move::NONE,
                low_ply,
            };
            let mut moves = <Chess as Game>::Moves::default();
            pos.legal_moves(&mut moves);
            let mut scores = Scores::<Chess>::default();
            let mut picker = StagedPicker::new(&mut moves, &mut scores, Move::NONE);
            let mut order = Vec::new();
            while let Some((m, score)) = picker.next(&pos, &ctx) {
                // The score the search reduces and prunes by leaves the low-ply term out.
                assert_eq!(score, 0);
                order.push(m);
            }
            order
        };
        let at = |o: &[Move], m| o.iter().position(|&x| x == m).unwrap();
        let with = order(Some((&low, 1, 4)));
        assert_eq!(with[0], good);
        assert_eq!(at(&with, other), with.len() - 1);
        // Off, every quiet move scores 0 and keeps the generator's order.
        let without = order(None);
        assert!(at(&without, good) > 0);
        assert!(at(&without, other) < without.len() - 1);
    }

    #[test]
    fn history_saturates() {
        let mut h = History::default();
        let m = Move::normal(crate::board::Square::new(1), crate::board::Square::new(2));
        for _ in 0..1000 {
            h.update(Color::White, m, 5000);
        }
        assert!(h.get(Color::White, m) <= HISTORY_MAX);
        assert!(h.get(Color::White, m) > HISTORY_MAX / 2);
        assert_eq!(h.get(Color::Black, m), 0);
    }
}
