//! Static exchange evaluation for Whitcher's Cannon.
//!
//! Two kinds of capture meet on a square: a soldier that steps onto it (forward, diagonally
//! forward or sideways), and a shot, by which a cannon (three soldiers in a row) removes the
//! piece two or three squares beyond its front while no soldier moves. A shot therefore ends
//! the exchange: the square is empty afterwards and the shooter stakes nothing, so a shot is
//! the "least valuable attacker" and always taken first. Taking a town ends the game, and the
//! exchange with it.
//!
//! The exchange runs on the two soldier sets, which change as each capturer steps onto the
//! square: the shots are asked again every time from the move generator's own cannon code
//! (`guns`, `shot_squares`) with the board as it then is, so a cannon that loses a soldier to
//! the exchange stops shooting, and a soldier that leaves the square in front of a cannon
//! opens its shot. Soldier capturers go lowest square first. Values are `capture_value`'s: a
//! soldier 100, a town `TOWN_VALUE`.

use super::movegen::{capture_steps, LINES};
use super::position::CannonPosition;
use super::tables::{reverse, tables, Bb, FILES, RANKS};
use super::{SOLDIER_VALUE, TOWN_VALUE};
use crate::board::{Color, Square};
use crate::games::swap::SwapList;
use crate::games::{Game, Move, MoveKind};
use std::sync::OnceLock;

/// Per square, computed once from the move generator's steps and lines: where a soldier of
/// each side stands to capture onto it, and the squares from which a cannon's soldiers could
/// reach it with a shot (two to five squares away along a line: a front two or three squares
/// off and the two soldiers behind it). A side with fewer than three soldiers there cannot
/// shoot the square, which spares asking for its cannons.
struct SeeTables {
    capture_from: [[Bb; FILES * RANKS]; 2],
    shot_zone: [Bb; FILES * RANKS],
}

fn see_tables() -> &'static SeeTables {
    static T: OnceLock<SeeTables> = OnceLock::new();
    T.get_or_init(|| {
        let geo = &tables().geo;
        let mut t = SeeTables {
            capture_from: [[Bb::EMPTY; FILES * RANKS]; 2],
            shot_zone: [Bb::EMPTY; FILES * RANKS],
        };
        for sq in geo.valid() {
            for c in Color::BOTH {
                for step in capture_steps(c) {
                    if let Some(from) = geo.step(sq, reverse(step)) {
                        t.capture_from[c.index()][sq.index()].set(from);
                    }
                }
            }
            for line in LINES {
                for d in [line, reverse(line)] {
                    let mut cur = sq;
                    for dist in 1..=5 {
                        let Some(next) = geo.step(cur, d) else { break };
                        if dist >= 2 {
                            t.shot_zone[sq.index()].set(next);
                        }
                        cur = next;
                    }
                }
            }
        }
        t
    })
}

impl CannonPosition {
    /// The exact exchange value of the legal move `m` for the side to move.
    pub fn see(&self, m: Move) -> i32 {
        self.see_with(m, i32::MIN)
    }

    /// Whether the exchange started by `m` gains at least `threshold` (see `Game::see_ge`).
    #[inline]
    pub(crate) fn see_ge_impl(&self, m: Move, threshold: i32) -> bool {
        self.see_with(m, threshold) >= threshold
    }

    /// The exchange value of `m`, or any value below `threshold` as soon as it is clear that the
    /// value is below it.
    fn see_with(&self, m: Move, threshold: i32) -> i32 {
        let us = self.side;
        let them = !us;
        let to = m.to();
        let to_bb = Bb::from_square(to);
        let mut soldiers = self.soldiers;
        let gain = self.capture_value(m);
        let town_on_target = match m.kind() {
            // A shot empties the square; taking the town ends the game.
            MoveKind::Shot => return gain,
            _ if gain == TOWN_VALUE => return gain,
            MoveKind::Drop => true,
            _ => {
                soldiers[us.index()] &= !Bb::from_square(m.from());
                soldiers[us.index()] |= to_bb;
                soldiers[them.index()] &= !to_bb;
                false
            }
        };
        if gain < threshold {
            return gain;
        }
        let towns = self.towns[0] | self.towns[1] | if town_on_target { to_bb } else { Bb::EMPTY };
        let mut stake = if town_on_target {
            TOWN_VALUE
        } else {
            SOLDIER_VALUE
        };
        let valid = self.t.geo.valid();
        let st = see_tables();
        let zone = st.shot_zone[to.index()];
        let mut swap = SwapList::new(gain);
        let mut side = them;
        loop {
            let own = soldiers[side.index()];
            let empty = valid & !(soldiers[0] | soldiers[1] | towns);
            let shot =
                (own & zone).count() >= 3 && self.shot_squares(&self.guns(own), empty).contains(to);
            let mut capturers = Bb::EMPTY;
            if !shot {
                capturers = st.capture_from[side.index()][to.index()] & own;
                if capturers.is_empty() || swap.is_full() {
                    break;
                }
            }
            swap.capture(stake);
            if shot || (swap.recaptures() == 1 && town_on_target) {
                break;
            }
            let from: Square = capturers.lsb();
            soldiers[side.index()] ^= Bb::from_square(from) | to_bb;
            soldiers[(!side).index()] &= !to_bb;
            stake = SOLDIER_VALUE;
            side = !side;
        }
        swap.resolve()
    }
}

#[cfg(test)]
mod tests;
