//! Move generation by set operations on the soldier bitboards.
//!
//! Every kind of move is found for all soldiers at once: shift the set of soldiers (or of
//! cannon ends) one step, mask with what the target must hold, then read each move back from
//! its target square, since `from = to - k * delta(d)` for a move of `k` steps along `d`.
//!
//! Cannons: for a line direction `d`, the soldiers `x` with `x + d` and `x + 2d` also ours are
//!
//! ```text
//! low(d)  = S & shift(S, -d) & shift(shift(S, -d), -d)      (x + d ∈ S ⟺ x ∈ shift(S, -d))
//! high(d) = shift(shift(low(d), d), d)                      (the other end, x + 2d)
//! ```
//!
//! Each cannon on the line of `d` appears once (its low end in `low(d)`), so looking at both
//! ends of it covers both directions without generating a cannon twice. A line of four holds
//! two cannons: both appear, one starting at each of the two lower soldiers.
//!
//! No two moves of one position share a string: a move's string (from, to) fixes its distance
//! and direction, and the kinds that share a distance differ in what the target holds (a step
//! or shift needs it empty, a capture or shot needs an enemy there). A shot's string names its
//! front soldier, and a front soldier and a direction fix the cannon. So the generator needs no
//! de-duplication, and perft's "distinct strings" is the plain count (a test checks it).

use super::position::CannonPosition;
use super::tables::{delta, forward, reverse, Bb};
use crate::board::geometry::{Offset, EAST, NORTH, NORTH_EAST, NORTH_WEST, WEST};
use crate::board::{Color, Square};
use crate::games::cannon::CannonMoves;
use crate::games::{Move, MoveKind};

/// The four line directions a cannon can lie along; each line is also used reversed.
pub const LINES: [Offset; 4] = [NORTH, EAST, NORTH_EAST, NORTH_WEST];

/// A side's cannons along each of the four [`LINES`]: the low ends `x` (with `x + d` and
/// `x + 2d` also its soldiers) and the high ends `x + 2d`.
pub(crate) struct Guns {
    pub low: [Bb; 4],
    pub high: [Bb; 4],
}

impl Guns {
    /// Soldiers that belong to at least one cannon.
    pub fn members(&self, t: &super::tables::CannonTables) -> Bb {
        let mut m = Bb::EMPTY;
        for (i, line) in LINES.into_iter().enumerate() {
            m |= self.low[i] | t.shift(self.low[i], line) | self.high[i];
        }
        m
    }

    /// Number of cannons (a line of four counts two).
    pub fn count(&self) -> u32 {
        self.low.iter().map(|b| b.count()).sum()
    }
}

/// The steps by which a soldier of `us` moves onto an empty square (and captures):
/// forward and diagonally forward.
#[inline(always)]
pub(crate) fn forward_steps(us: Color) -> [Offset; 3] {
    let fwd = forward(us);
    [fwd, Offset::new(1, fwd.dr), Offset::new(-1, fwd.dr)]
}

/// The steps by which a soldier of `us` captures: its forward steps, and sideways.
#[inline(always)]
pub(crate) fn capture_steps(us: Color) -> [Offset; 5] {
    let [f, fe, fw] = forward_steps(us);
    [f, fe, fw, EAST, WEST]
}

/// The squares a cannon's shift and shots may cross (see [`CannonPosition::gun_reach`]).
pub(crate) struct Lanes {
    /// The empty squares.
    pub empty: Bb,
    /// The squares a shot at distance three may pass over, two beyond the front.
    pub second: Bb,
}

/// What the cannon whose front soldier is in `front` can do in the direction `d` (away from
/// its other soldiers), for every such cannon at once.
pub(crate) struct GunReach {
    /// The square beyond the front, if empty: a shift moves the cannon there (3 steps back
    /// from it is the rear soldier).
    pub shift: Bb,
    /// Shots at distance two and three from the front (whatever stands there now: a shot
    /// needs an enemy piece on the square).
    pub shot2: Bb,
    pub shot3: Bb,
}

/// The piece code of a town, in drop moves.
pub const TOWN_CODE: u8 = 1;

/// Appends one move per square of `targets`, coming from `steps` steps of `d` back.
#[inline(always)]
fn push_moves(out: &mut CannonMoves, targets: Bb, d: Offset, steps: i32, kind: MoveKind) {
    let back = delta(d) * steps;
    for to in targets {
        let from = Square::new((to.index() as i32 - back) as u8);
        out.push(Move::new(from, to, kind, 0));
    }
}

/// Which moves to generate.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Gen {
    All,
    /// Captures and shots only.
    Tactical,
}

impl CannonPosition {
    /// The low ends of the side's cannons along `d` (see the module comment).
    #[inline(always)]
    pub(crate) fn cannon_lows(&self, soldiers: Bb, d: Offset) -> Bb {
        let back = reverse(d);
        let s1 = self.t.shift(soldiers, back);
        soldiers & s1 & self.t.shift(s1, back)
    }

    /// The high ends of the cannons whose low ends along `d` are `lows`.
    #[inline(always)]
    pub(crate) fn cannon_highs(&self, lows: Bb, d: Offset) -> Bb {
        self.t.shift(self.t.shift(lows, d), d)
    }

    /// Appends the moves of the side to move.
    pub(crate) fn generate(&self, out: &mut CannonMoves, gen: Gen) {
        let us = self.side;
        let them = !us;
        if self.town_taken(us) {
            // The game ended when the town fell.
            return;
        }
        let t = self.t;
        let occupied = self.occupied();
        let empty = t.geo.valid() & !occupied;
        if self.in_hand[us.index()] {
            if gen == Gen::All {
                for to in t.town_squares[us.index()] & empty {
                    out.push(Move::new(to, to, MoveKind::Drop, TOWN_CODE));
                }
            }
            return;
        }
        let s = self.soldiers[us.index()];
        let enemy = self.pieces(them);
        let fwd = forward(us);
        let back = reverse(fwd);

        // Steps and captures, one direction at a time.
        for d in forward_steps(us) {
            let to = t.shift(s, d);
            if gen == Gen::All {
                push_moves(out, to & empty, d, 1, MoveKind::Normal);
            }
            push_moves(out, to & enemy, d, 1, MoveKind::Normal);
        }
        for d in [EAST, WEST] {
            push_moves(out, t.shift(s, d) & enemy, d, 1, MoveKind::Normal);
        }

        // Retreats: two squares back through an empty square, only next to an enemy piece.
        if gen == Gen::All {
            let threatened = s & t.king_area(enemy);
            if threatened.any() {
                for d in [back, Offset::new(1, back.dr), Offset::new(-1, back.dr)] {
                    let mid = t.shift(threatened, d) & empty;
                    push_moves(out, t.shift(mid, d) & empty, d, 2, MoveKind::Normal);
                }
            }
        }

        // Cannons: shifts and shots at both ends of every cannon.
        let lanes = self.lanes(empty);
        for line in LINES {
            let low = self.cannon_lows(s, line);
            if low.is_empty() {
                continue;
            }
            let high = self.cannon_highs(low, line);
            for (front, d) in [(high, line), (low, reverse(line))] {
                let reach = self.gun_reach(front, d, &lanes);
                if gen == Gen::All {
                    push_moves(out, reach.shift, d, 3, MoveKind::Normal);
                }
                push_moves(out, reach.shot2 & enemy, d, 2, MoveKind::Shot);
                push_moves(out, reach.shot3 & enemy, d, 3, MoveKind::Shot);
            }
        }
        if self.shift_limit && gen == Gen::All {
            self.drop_barred_shifts(out);
        }
    }

    /// What a cannon's shift and shots may cross when the empty squares are `empty`.
    #[inline(always)]
    pub(crate) fn lanes(&self, empty: Bb) -> Lanes {
        Lanes {
            empty,
            // The square between the front and a shot at distance three need only be empty
            // under the clear-shot rule.
            second: if self.clear_shot {
                empty
            } else {
                self.t.geo.valid()
            },
        }
    }

    /// The shifts and shots of the cannons whose front soldiers are `front`, firing along `d`:
    /// the shift needs the square beyond the front empty, a shot at distance two needs that
    /// square empty too, and a shot at distance three also needs the square between to be in
    /// `lanes.second`.
    #[inline(always)]
    pub(crate) fn gun_reach(&self, front: Bb, d: Offset, lanes: &Lanes) -> GunReach {
        let t = self.t;
        let shift = t.shift(front, d) & lanes.empty;
        let shot2 = t.shift(shift, d);
        let shot3 = t.shift(shot2 & lanes.second, d);
        GunReach {
            shift,
            shot2,
            shot3,
        }
    }

    /// A side's cannons, found once for everything the evaluation asks about them.
    pub(crate) fn guns(&self, soldiers: Bb) -> Guns {
        let mut guns = Guns {
            low: [Bb::EMPTY; 4],
            high: [Bb::EMPTY; 4],
        };
        for (i, line) in LINES.into_iter().enumerate() {
            let low = self.cannon_lows(soldiers, line);
            if low.any() {
                guns.low[i] = low;
                guns.high[i] = self.cannon_highs(low, line);
            }
        }
        guns
    }

    /// Pieces of the other side that `us` could capture or shoot next move, if it were its
    /// turn, given its cannons.
    pub(crate) fn attacks_with(&self, us: Color, guns: &Guns) -> Bb {
        let t = self.t;
        let s = self.soldiers[us.index()];
        let empty = t.geo.valid() & !self.occupied();
        let mut hit = Bb::EMPTY;
        for d in capture_steps(us) {
            hit |= t.shift(s, d);
        }
        (hit | self.shot_squares(guns, empty)) & self.pieces(!us)
    }

    /// The squares the cannons in `guns` can shoot at when the empty squares are `empty`
    /// (whatever stands there now: a shot needs an enemy piece on the square).
    #[inline]
    pub(crate) fn shot_squares(&self, guns: &Guns, empty: Bb) -> Bb {
        let lanes = self.lanes(empty);
        let mut hit = Bb::EMPTY;
        for (i, line) in LINES.into_iter().enumerate() {
            if guns.low[i].is_empty() {
                continue;
            }
            for (front, d) in [(guns.high[i], line), (guns.low[i], reverse(line))] {
                let reach = self.gun_reach(front, d, &lanes);
                hit |= reach.shot2 | reach.shot3;
            }
        }
        hit
    }

    /// [`CannonPosition::attacks_with`] for the side's current cannons.
    #[cfg(test)]
    pub(crate) fn attacked_by(&self, us: Color) -> Bb {
        self.attacks_with(us, &self.guns(self.soldiers[us.index()]))
    }

    /// Whether a move takes something (a capture or a shot).
    #[inline]
    pub(crate) fn is_capture(&self, m: Move) -> bool {
        m.kind() == MoveKind::Shot
            || (m.kind() == MoveKind::Normal && self.pieces(!self.side).contains(m.to()))
    }
}
