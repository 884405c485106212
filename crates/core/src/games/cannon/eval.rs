//! A first evaluation for Cannon, in centipawn-like units (a soldier is 100), from the side to
//! move's point of view. Everything is counted on bitboards, no square-by-square loops:
//!
//! - material and advance (soldiers nearer the enemy town press it; rank by rank bonus);
//! - cannons formed (each three-in-a-row is a gun that can slide and shoot);
//! - mobility (steps forward and cannon slides available);
//! - town safety: enemy soldiers close to the town, own soldiers guarding it;
//! - threats: what each side could capture or shoot next move. The side to move gets to carry
//!   out one threat, the other side's threats are a liability (more so on a cannon's soldier);
//!   a shot or capture aimed at a town decides the game.

use super::movegen::{forward_steps, Guns, LINES};
use super::position::CannonPosition;
use super::tables::reverse;
use super::{SOLDIER_VALUE, TOWN_VALUE};
use crate::board::Color;

/// Bonus for a soldier on each rank, counted from its own side (index 0 = own first rank).
/// Soldiers start on relative ranks 1-3; pressing forward pays, but not so much that the
/// soldiers run alone past the enemy.
const ADVANCE: [i32; 10] = [-6, 0, 2, 6, 10, 15, 20, 24, 26, 20];
/// Each cannon (three soldiers in a row; a line of four counts as two).
const CANNON: i32 = 9;
/// Per available step or slide.
const MOBILITY: i32 = 2;
/// Enemy soldier within two squares of the town, and within four.
const TOWN_DANGER_NEAR: i32 = 30;
const TOWN_DANGER_FAR: i32 = 8;
/// Own soldier next to the town (counted up to three).
const TOWN_GUARD: i32 = 12;
/// The enemy can take our town next move unless we prevent it.
const TOWN_THREATENED: i32 = 400;
/// The side to move can take the enemy town now: the game is as good as won.
const TOWN_TAKE_NOW: i32 = 3000;
/// The side to move can take a soldier now; each of our soldiers the enemy could take.
const TAKE_NOW: i32 = 45;
const HANGING: i32 = 15;
/// Extra for each attacked soldier that belongs to a cannon: losing it breaks the gun.
const CANNON_HANGING: i32 = 10;
/// Being on move is worth a little in a game without passing.
const TEMPO: i32 = 8;

impl CannonPosition {
    /// The evaluation from the side to move's point of view.
    pub fn evaluate_side_to_move(&self) -> i32 {
        let us = self.side;
        let them = !us;
        if self.town_taken(us) {
            return -TOWN_VALUE;
        }
        let our_guns = self.guns(self.soldiers(us));
        let their_guns = self.guns(self.soldiers(them));
        let mut score =
            self.static_terms(us, &our_guns) - self.static_terms(them, &their_guns) + TEMPO;

        // Threats need both towns placed to mean anything.
        if self.town(us).is_some() && self.town(them).is_some() {
            let ours = self.attacks_with(us, &our_guns);
            let theirs = self.attacks_with(them, &their_guns);
            if (ours & self.towns[them.index()]).any() {
                return TOWN_TAKE_NOW + score.clamp(-1000, 1000);
            }
            if (theirs & self.towns[us.index()]).any() {
                score -= TOWN_THREATENED;
            }
            if (ours & self.soldiers(them)).any() {
                score += TAKE_NOW;
            }
            score -= HANGING * (theirs & self.soldiers(us)).count() as i32;
            score -= CANNON_HANGING * (theirs & our_guns.members(self.t)).count() as i32;
        }
        score
    }

    /// The side's soldiers that belong to at least one cannon.
    #[cfg(test)]
    pub(crate) fn cannon_soldiers(&self, c: Color) -> crate::board::Bitboard<u128> {
        self.guns(self.soldiers(c)).members(self.t)
    }

    /// Terms of one side that do not depend on whose turn it is.
    fn static_terms(&self, c: Color, guns: &Guns) -> i32 {
        let t = self.t;
        let geo = &t.geo;
        let s = self.soldiers(c);
        let empty = geo.valid() & !self.occupied();
        let mut v = SOLDIER_VALUE * s.count() as i32;

        for (rel, bonus) in ADVANCE.iter().enumerate() {
            let rank = if c == Color::White { rel } else { 9 - rel };
            v += bonus * (s & geo.rank_mask(rank)).count() as i32;
        }

        // Steps and cannon shifts, as the move generator finds them.
        let mut mobility = 0;
        for d in forward_steps(c) {
            mobility += (t.shift(s, d) & empty).count();
        }
        let lanes = self.lanes(empty);
        for (i, line) in LINES.into_iter().enumerate() {
            if guns.low[i].is_empty() {
                continue;
            }
            for (front, d) in [(guns.high[i], line), (guns.low[i], reverse(line))] {
                mobility += self.gun_reach(front, d, &lanes).shift.count();
            }
        }
        v += CANNON * guns.count() as i32 + MOBILITY * mobility as i32;

        if let Some(town) = self.town(c) {
            let [ring1, ring2, ring4] = [0, 1, 2].map(|i| t.zones[i][town.index()]);
            let enemy = self.soldiers(!c);
            v -= TOWN_DANGER_NEAR * (enemy & ring2).count() as i32;
            v -= TOWN_DANGER_FAR * (enemy & ring4 & !ring2).count() as i32;
            v += TOWN_GUARD * (s & ring1).count().min(3) as i32;
        }
        v
    }
}
