//! The Cannon position: soldiers and towns as bitboards, towns in hand, side to move, key and
//! history; make and unmake.

use super::nnue_features::{change, Piece};
use super::shift_limit::ShiftRun;
use super::tables::{tables, Bb, CannonTables};
use crate::board::{Color, Square};
use crate::games::history;
use crate::games::{Move, MoveKind};
use crate::nnue::DirtyRecord;

/// What a move took off the board, for unmake.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Taken {
    Nothing,
    Soldier,
    Town,
}

/// What `unmake_move` needs to restore.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo {
    pub mv: Move,
    pub taken: Taken,
    pub halfmove: u16,
    pub key: u64,
    /// The mover's run of shifts before the move (tournament shift rule).
    pub run: ShiftRun,
}

/// A position of Whitcher's Cannon.
#[derive(Clone)]
pub struct CannonPosition {
    pub(crate) t: &'static CannonTables,
    pub(crate) soldiers: [Bb; 2],
    /// Each side's town on the board: one square, or empty while in hand or after it is taken.
    pub(crate) towns: [Bb; 2],
    pub(crate) in_hand: [bool; 2],
    pub(crate) side: Color,
    /// The `CannonClearShot` switch: a third-square shot also needs the second square empty.
    pub(crate) clear_shot: bool,
    /// The `CannonShiftLimit` switch: no cannon shifts a fourth time in a row.
    pub(crate) shift_limit: bool,
    /// Each side's run of shifts of one cannon; always empty with the switch off.
    pub(crate) runs: [ShiftRun; 2],
    /// Plies since the last capture, shot or town placement: no earlier position can come back
    /// across one of those, so repetition looks no further.
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
    pub(crate) history: Vec<Undo>,
    /// What the last move changed, for the NNUE's incremental update: filled by the put and
    /// remove functions below and `set_in_hand`, through which every move's changes go
    /// (unmake restores the bitboards directly: nothing reads the record after it).
    pub(crate) dirty: DirtyRecord,
}

impl CannonPosition {
    /// An empty board, no towns anywhere, white to move.
    pub(crate) fn empty() -> Self {
        CannonPosition {
            t: tables(),
            soldiers: [Bb::EMPTY; 2],
            towns: [Bb::EMPTY; 2],
            in_hand: [false; 2],
            side: Color::White,
            clear_shot: false,
            shift_limit: false,
            runs: [ShiftRun::NONE; 2],
            halfmove: 0,
            fullmove: 1,
            key: 0,
            history: Vec::with_capacity(256),
            dirty: DirtyRecord::default(),
        }
    }

    #[inline(always)]
    pub fn soldiers(&self, c: Color) -> Bb {
        self.soldiers[c.index()]
    }

    /// The side's town square, if its town is on the board.
    #[inline(always)]
    pub fn town(&self, c: Color) -> Option<Square> {
        let t = self.towns[c.index()];
        t.any().then(|| t.lsb())
    }

    #[inline(always)]
    pub fn town_in_hand(&self, c: Color) -> bool {
        self.in_hand[c.index()]
    }

    /// True once the side's town has been captured (it is neither on the board nor in hand).
    #[inline(always)]
    pub fn town_taken(&self, c: Color) -> bool {
        self.towns[c.index()].is_empty() && !self.in_hand[c.index()]
    }

    /// All pieces (soldiers and town) of a side.
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bb {
        self.soldiers[c.index()] | self.towns[c.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bb {
        self.pieces(Color::White) | self.pieces(Color::Black)
    }

    pub fn clear_shot(&self) -> bool {
        self.clear_shot
    }

    /// The piece letter on a square (FEN letters), if any.
    pub fn letter_at(&self, sq: Square) -> Option<char> {
        for c in Color::BOTH {
            let upper = c == Color::White;
            let pick = |l: char| if upper { l } else { l.to_ascii_lowercase() };
            if self.soldiers[c.index()].contains(sq) {
                return Some(pick('S'));
            }
            if self.towns[c.index()].contains(sq) {
                return Some(pick('T'));
            }
        }
        None
    }

    #[inline(always)]
    pub(crate) fn put_soldier(&mut self, c: Color, sq: Square) {
        self.soldiers[c.index()].set(sq);
        self.key ^= self.t.keys.soldier(c, sq);
        self.dirty.push(change(true, c, Piece::Soldier, sq));
    }

    #[inline(always)]
    pub(crate) fn remove_soldier(&mut self, c: Color, sq: Square) {
        self.soldiers[c.index()].clear(sq);
        self.key ^= self.t.keys.soldier(c, sq);
        self.dirty.push(change(false, c, Piece::Soldier, sq));
    }

    #[inline(always)]
    pub(crate) fn put_town(&mut self, c: Color, sq: Square) {
        self.towns[c.index()].set(sq);
        self.key ^= self.t.keys.town(c, sq);
        self.dirty.push(change(true, c, Piece::Town, sq));
    }

    #[inline(always)]
    pub(crate) fn remove_town(&mut self, c: Color, sq: Square) {
        self.towns[c.index()].clear(sq);
        self.key ^= self.t.keys.town(c, sq);
        self.dirty.push(change(false, c, Piece::Town, sq));
    }

    #[inline(always)]
    pub(crate) fn set_in_hand(&mut self, c: Color, v: bool) {
        if self.in_hand[c.index()] != v {
            self.in_hand[c.index()] = v;
            self.key ^= self.t.keys.hand[c.index()];
            self.dirty
                .push(change(v, c, Piece::TownInHand, Square::new(0)));
        }
    }

    /// Removes whatever enemy piece stands on `sq` (a capture or a shot victim).
    #[inline(always)]
    fn take(&mut self, them: Color, sq: Square) -> Taken {
        if self.soldiers[them.index()].contains(sq) {
            self.remove_soldier(them, sq);
            Taken::Soldier
        } else if self.towns[them.index()].contains(sq) {
            self.remove_town(them, sq);
            Taken::Town
        } else {
            Taken::Nothing
        }
    }

    /// Plays a legal move.
    pub fn make(&mut self, m: Move) {
        let us = self.side;
        let them = !us;
        let mut undo = Undo {
            mv: m,
            taken: Taken::Nothing,
            halfmove: self.halfmove,
            key: self.key,
            run: self.runs[us.index()],
        };
        self.dirty.clear();
        self.halfmove = self.halfmove.saturating_add(1);
        match m.kind() {
            MoveKind::Drop => {
                self.set_in_hand(us, false);
                self.put_town(us, m.to());
                self.halfmove = 0;
            }
            MoveKind::Shot => {
                undo.taken = self.take(them, m.to());
                self.halfmove = 0;
            }
            _ => {
                undo.taken = self.take(them, m.to());
                if undo.taken != Taken::Nothing {
                    self.halfmove = 0;
                }
                self.remove_soldier(us, m.from());
                self.put_soldier(us, m.to());
            }
        }
        if self.shift_limit {
            self.note_shift_run(us, m);
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.key ^= self.t.keys.side;
        self.history.push(undo);
    }

    /// Takes back the last move.
    pub fn unmake(&mut self) {
        let undo = self.history.pop().expect("unmake without a move");
        let m = undo.mv;
        self.side = !self.side;
        let us = self.side;
        let them = !us;
        if us == Color::Black {
            self.fullmove -= 1;
        }
        match m.kind() {
            MoveKind::Drop => {
                self.towns[us.index()].clear(m.to());
                self.in_hand[us.index()] = true;
            }
            _ => {
                if m.kind() != MoveKind::Shot {
                    self.soldiers[us.index()].clear(m.to());
                    self.soldiers[us.index()].set(m.from());
                }
                match undo.taken {
                    Taken::Nothing => {}
                    Taken::Soldier => self.soldiers[them.index()].set(m.to()),
                    Taken::Town => self.towns[them.index()].set(m.to()),
                }
            }
        }
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        self.runs[us.index()] = undo.run;
    }

    /// Passes the turn (null-move pruning only).
    pub fn make_null(&mut self) {
        self.dirty.clear();
        self.history.push(Undo {
            mv: Move::NONE,
            taken: Taken::Nothing,
            halfmove: self.halfmove,
            key: self.key,
            // A pass is no move of the side's: its run stays.
            run: ShiftRun::NONE,
        });
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = !self.side;
        self.key ^= self.t.keys.side;
    }

    pub fn unmake_null(&mut self) {
        let undo = self.history.pop().expect("unmake without a move");
        self.side = !self.side;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    /// The key from scratch: pieces, towns in hand, side to move, runs of shifts.
    pub fn compute_key(&self) -> u64 {
        let keys = &self.t.keys;
        let mut k = 0;
        for c in Color::BOTH {
            for sq in self.soldiers[c.index()] {
                k ^= keys.soldier(c, sq);
            }
            for sq in self.towns[c.index()] {
                k ^= keys.town(c, sq);
            }
            if self.in_hand[c.index()] {
                k ^= keys.hand[c.index()];
            }
            k ^= self.t.run_key(c, self.runs[c.index()]);
        }
        if self.side == Color::Black {
            k ^= keys.side;
        }
        k
    }

    /// How many times the current position occurred before, looking back at most `limit` plies
    /// and never across a capture, shot or town placement.
    pub fn repetitions(&self, limit: usize) -> usize {
        let span = (self.halfmove as usize).min(limit);
        history::earlier_occurrences(&self.history, |u| (u.mv, u.key), self.key, span).count()
    }
}
