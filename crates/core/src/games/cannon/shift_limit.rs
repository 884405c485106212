//! Whitcher's tournament shift rule (the `CannonShiftLimit` switch, `docs/rules/cannon.md`): no
//! cannon may shift more than three times in a row without a move of another cannon or of a
//! single soldier in between.
//!
//! Each side keeps a [`ShiftRun`]: the cannon (its three squares) that made the side's last
//! shifts and how many it made in a row, 1 to 3, or nothing. Only the side's own moves change
//! it, in `make` (and only with the switch on; with it off every run stays empty and the
//! position, its key and its moves are as without the rule):
//!
//! - a shift of the run's cannon (the three soldiers it names, wherever the run left them)
//!   counts one more and moves the run with the cannon; a shift of any other cannon starts a
//!   run of 1 for that one;
//! - a shot by the run's cannon leaves the run as it was; a shot by any other cannon, a step, a
//!   capture, a retreat or a town placement ends it.
//!
//! A cannon is identified by its squares: the side's soldiers cannot leave them or come back
//! without a move of the side, which would end the run, so a run naming three squares that
//! still hold the side's soldiers names the same three soldiers. When a side's run is at 3, its
//! cannon's two shifts are not generated. The run is part of the position's key (each side,
//! count and cannon has its own key, `CannonKeys::run`), so positions that differ only in it
//! are different positions for the table and for repetition. A FEN does not carry it: a
//! position read from a FEN starts with no runs.

use super::movegen::LINES;
use super::position::CannonPosition;
use super::tables::{delta, CannonTables, FILES, RANKS};
use crate::board::Color;
use crate::games::cannon::CannonMoves;
use crate::games::{Move, MoveKind};

/// Shifts in a row after which a cannon may not shift again.
pub const MAX_SHIFTS: usize = 3;

/// Cannons a run can name: a low end (the end with the lowest square index) on any square,
/// along any of the four [`LINES`].
pub(crate) const CANNON_IDS: usize = FILES * RANKS * LINES.len();

/// One side's shifts in a row: how many (0 for none) and of which cannon, packed in 16 bits
/// (count above bit 9, the cannon's id below: `low * 4 + line`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ShiftRun(u16);

impl ShiftRun {
    pub const NONE: ShiftRun = ShiftRun(0);

    fn new(count: usize, cannon: usize) -> ShiftRun {
        debug_assert!((1..=MAX_SHIFTS).contains(&count) && cannon < CANNON_IDS);
        ShiftRun(((count as u16) << 9) | cannon as u16)
    }

    #[inline(always)]
    pub fn count(self) -> usize {
        usize::from(self.0 >> 9)
    }

    /// The cannon's id (meaningful when the count is not 0).
    #[inline(always)]
    pub fn cannon(self) -> usize {
        usize::from(self.0 & 0x1ff)
    }
}

/// The id of the cannon on squares `a`, `a + step`, `a + 2 * step` (square indices; `step` is
/// the index difference of one of the eight line directions).
fn cannon_id(a: i32, step: i32) -> usize {
    let low = a.min(a + 2 * step);
    let line = LINES
        .iter()
        .position(|&d| delta(d) == step.abs())
        .expect("a line direction");
    low as usize * LINES.len() + line
}

/// The squares of cannon `id`: its low end and the index step to the next soldier.
fn cannon_squares(id: usize) -> (i32, i32) {
    let line = LINES[id % LINES.len()];
    ((id / LINES.len()) as i32, delta(line))
}

/// The index step of one square along the line of a move that goes `dist` squares along it.
#[inline]
fn unit_step(m: Move, dist: i32) -> i32 {
    (m.to().index() as i32 - m.from().index() as i32) / dist
}

/// Whether a soldier move (`MoveKind::Normal`) is a cannon's shift: the only one that goes
/// three squares (steps and captures go one, retreats two), so its index difference is three
/// times a line step.
#[inline]
fn is_shift(m: Move) -> bool {
    let diff = (m.to().index() as i32 - m.from().index() as i32).abs();
    LINES.iter().any(|&d| diff == 3 * delta(d))
}

/// The cannon a shot is fired by: the front soldier and the two behind it, away from the
/// victim, which is two or three squares off.
fn shooter(m: Move) -> usize {
    let diff = (m.to().index() as i32 - m.from().index() as i32).abs();
    let dist = if LINES.iter().any(|&d| diff == 2 * delta(d)) {
        2
    } else {
        3
    };
    cannon_id(m.from().index() as i32, -unit_step(m, dist))
}

impl CannonTables {
    /// The key of a side's run (0 for none).
    #[inline]
    pub(crate) fn run_key(&self, c: Color, run: ShiftRun) -> u64 {
        match run.count() {
            0 => 0,
            n => self.keys.run[c.index()][n - 1][run.cannon()],
        }
    }
}

impl CannonPosition {
    /// The run of `us` after its move `m` (already on the board or not: only the move's
    /// squares are read), with the key updated. Called by `make` with the switch on.
    pub(crate) fn note_shift_run(&mut self, us: Color, m: Move) {
        let old = self.runs[us.index()];
        let new = match m.kind() {
            MoveKind::Shot if old.count() > 0 && old.cannon() == shooter(m) => old,
            MoveKind::Normal if is_shift(m) => {
                let step = unit_step(m, 3);
                let from = m.from().index() as i32;
                let count = if old.count() > 0 && old.cannon() == cannon_id(from, step) {
                    old.count() + 1
                } else {
                    1
                };
                ShiftRun::new(count.min(MAX_SHIFTS), cannon_id(from + step, step))
            }
            _ => ShiftRun::NONE,
        };
        if new != old {
            self.key ^= self.t.run_key(us, old) ^ self.t.run_key(us, new);
            self.runs[us.index()] = new;
        }
    }

    /// Takes out of `out` (the side to move's moves) the shifts its run no longer allows.
    /// Called by the generator with the switch on.
    pub(crate) fn drop_barred_shifts(&self, out: &mut CannonMoves) {
        let run = self.runs[self.side.index()];
        if run.count() < MAX_SHIFTS {
            return;
        }
        let (low, step) = cannon_squares(run.cannon());
        // The low end jumps past the high end, or the high end past the low end.
        let barred = [(low, low + 3 * step), (low + 2 * step, low - step)];
        out.retain(|m| {
            let squares = (m.from().index() as i32, m.to().index() as i32);
            m.kind() != MoveKind::Normal || !barred.contains(&squares)
        });
    }

    /// The switch `CannonShiftLimit`. Turning it off ends both sides' runs.
    pub(crate) fn set_shift_limit(&mut self, on: bool) {
        self.shift_limit = on;
        if !on {
            for c in Color::BOTH {
                self.key ^= self.t.run_key(c, self.runs[c.index()]);
                self.runs[c.index()] = ShiftRun::NONE;
            }
        }
    }

    /// Whether the `CannonShiftLimit` switch is on.
    pub fn shift_limit(&self) -> bool {
        self.shift_limit
    }

    /// How many times in a row the side's last shifts moved one cannon (0 to 3): with the
    /// switch on, at 3 that cannon may not shift.
    pub fn shifts_in_a_row(&self, c: Color) -> usize {
        self.runs[c.index()].count()
    }
}

#[cfg(test)]
mod tests;
