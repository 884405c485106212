//! Move ordering: the transposition-table move first, then captures and other tactical moves by
//! MVV-LVA (most valuable victim, least valuable attacker), then the two killer moves of the
//! ply, then quiet moves by their history score.

use crate::board::Color;
use crate::games::{Game, Move, MoveList, MAX_MOVES};
use arrayvec::ArrayVec;

/// Squares of the largest board (12x8 = 96 and 10x10 = 100 fit), for history tables.
const SQUARES: usize = 128;
/// History scores stay within +-HISTORY_MAX (the "gravity" update below keeps them there).
const HISTORY_MAX: i32 = 16_384;

const TT_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 28;
const KILLER_1: i32 = 1 << 27;
const KILLER_2: i32 = KILLER_1 - 1;

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
        let from = (m.from().index() ^ (usize::from(m.piece()) * 7)) % SQUARES;
        (side.index() * SQUARES + from) * SQUARES + m.to().index() % SQUARES
    }

    #[inline]
    pub fn get(&self, side: Color, m: Move) -> i32 {
        self.table[Self::index(side, m)]
    }

    /// Rewards (positive `bonus`) or punishes a move; scores saturate smoothly at the bounds.
    #[inline]
    pub fn update(&mut self, side: Color, m: Move, bonus: i32) {
        let e = &mut self.table[Self::index(side, m)];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *e += b - *e * b.abs() / HISTORY_MAX;
    }

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = 0);
    }
}

/// Scores moves once and hands them out best first (selection sort: cutoffs usually come
/// early, so sorting the whole list would be wasted work). It borrows the caller's list, so a
/// node keeps one move list on the stack.
pub struct MovePicker<'a> {
    moves: &'a mut MoveList,
    scores: &'a mut Scores,
    next: usize,
}

/// The ordering scores of a move list; the caller keeps it on its stack next to the list.
pub type Scores = ArrayVec<i32, MAX_MOVES>;

impl<'a> MovePicker<'a> {
    /// Orders `moves` for the main search.
    pub fn new<G: Game>(
        pos: &G,
        moves: &'a mut MoveList,
        scores: &'a mut Scores,
        tt_move: Move,
        killers: [Move; 2],
        history: &History,
    ) -> Self {
        let side = pos.side_to_move();
        scores.clear();
        scores.extend(moves.iter().map(|&m| {
            if m == tt_move {
                TT_MOVE
            } else if pos.is_tactical(m) {
                TACTICAL + mvv_lva(pos, m)
            } else if m == killers[0] {
                KILLER_1
            } else if m == killers[1] {
                KILLER_2
            } else {
                history.get(side, m)
            }
        }));
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Orders tactical moves for quiescence (MVV-LVA only).
    pub fn tactical<G: Game>(
        pos: &G,
        moves: &'a mut MoveList,
        scores: &'a mut Scores,
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

impl Iterator for MovePicker<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
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
    fn tt_move_then_captures_then_killers_then_history() {
        // White can capture a queen with a pawn or with the rook, or play quiet moves.
        let pos = Chess::new_game("chess")
            .unwrap()
            .with_fen("4k3/8/8/3q4/4P3/8/8/3RK3 w - - 0 1")
            .unwrap();
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let find = |s: &str| pos.parse_move(s, crate::games::Notation::Uci).unwrap();
        let tt = find("e1e2");
        let killer = find("d1c1");
        let mut history = History::default();
        history.update(pos.side_to_move(), find("d1b1"), 1000);
        let n = moves.len();
        let order: Vec<Move> = MovePicker::new(
            &pos,
            &mut moves,
            &mut Scores::new(),
            tt,
            [killer, Move::NONE],
            &history,
        )
        .collect();
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
