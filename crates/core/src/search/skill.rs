//! Playing below full strength, as a weaker player is weaker: a smaller search, and a choice
//! among its best lines that strays further from the best the lower the level (the choice is
//! Stockfish's `Skill Level` recipe). Never a random or illegal move: every candidate is one of
//! the lines the search found, and a line much worse than the best is chosen only at the
//! lowest levels.
//!
//! A level is a number from [`MIN_LEVEL`] to [`FULL_LEVEL`]; 20 is the full engine. A level
//! searches a fixed number of nodes, doubling every [`LEVELS_PER_DOUBLING`] levels, so that it
//! plays the same whatever the clock and the machine, and looks at four lines (more below 0,
//! for beginners); the random share of its choice shrinks as the level rises. `UCI_Elo` chooses
//! a level through [`level_for_elo`], calibrated in chess against Stockfish's own `UCI_Elo`
//! (docs/strength.md).

use crate::board::zobrist::SplitMix64;

/// The full engine: no weakening.
pub const FULL_LEVEL: f64 = 20.0;
/// The weakest level.
pub const MIN_LEVEL: f64 = -10.0;
/// Lines a weakened search looks at from level 0 up.
pub const LINES: usize = 4;
/// The largest random push, in centipawns: a move this much worse than the best is the most a
/// level can prefer by chance (at the lowest levels, more; see [`Skill::pick`]).
const MAX_DELTA: i32 = 100;
/// Nodes searched at level 0.
const LEVEL_0_NODES: f64 = 100.0;
/// Levels that double the nodes searched.
pub const LEVELS_PER_DOUBLING: f64 = 1.6;

/// `UCI_Elo`'s range: a beginner to the full engine (which plays at about 2250 on Stockfish
/// 15.1's scale at 10 s + 0.1 s a game, docs/strength.md).
pub const MIN_ELO: i64 = 500;
pub const MAX_ELO: i64 = 2250;

/// The calibration: (Elo, level) points, Elo rising; between them the level is interpolated,
/// above the last the engine plays at full strength. Measured in chess against Stockfish
/// 15.1's `UCI_Elo` at 10 s + 0.1 s (docs/strength.md): level 5 scores 45% against its 1500,
/// level 13.8 half against its 2000, level 15.5 67% against its 2000; full strength is
/// extrapolated from there. Below Stockfish's lowest setting (1350) the points are
/// extrapolated, not measured.
const ELO_LEVELS: &[(f64, f64)] = &[
    (500.0, -10.0),
    (1100.0, 0.0),
    (1500.0, 5.0),
    (2000.0, 13.8),
    (2120.0, 15.5),
    (2250.0, FULL_LEVEL),
];

/// The level that plays at `elo` (clamped to [`MIN_ELO`]..[`MAX_ELO`]).
pub fn level_for_elo(elo: i64) -> f64 {
    let e = elo.clamp(MIN_ELO, MAX_ELO) as f64;
    for w in ELO_LEVELS.windows(2) {
        let ((e0, l0), (e1, l1)) = (w[0], w[1]);
        if e <= e1 {
            return l0 + (l1 - l0) * (e - e0) / (e1 - e0);
        }
    }
    FULL_LEVEL
}

/// A weakened search: its level and the seed of its choices.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Skill {
    level: f64,
    seed: u64,
}

impl Skill {
    /// A weakened search at `level` (clamped to [`MIN_LEVEL`]..[`FULL_LEVEL`]); `None` at full
    /// strength. The same seed, position and search give the same choice.
    pub fn new(level: f64, seed: u64) -> Option<Skill> {
        let level = level.clamp(MIN_LEVEL, FULL_LEVEL);
        (level < FULL_LEVEL).then_some(Skill { level, seed })
    }

    pub fn level(&self) -> f64 {
        self.level
    }

    /// The nodes the level searches: 100 at level 0, doubling every
    /// [`LEVELS_PER_DOUBLING`] levels (about 560,000 just below full strength), at least 20.
    pub fn nodes(&self) -> u64 {
        (LEVEL_0_NODES * (self.level / LEVELS_PER_DOUBLING).exp2()).max(20.0) as u64
    }

    /// How many lines the search looks at: four, and more below level 0, so that a beginner
    /// can also choose a move that loses material.
    pub fn lines(&self) -> usize {
        if self.level >= 0.0 {
            LINES
        } else {
            LINES + (-self.level / 2.5).ceil() as usize
        }
    }

    /// How much a line's shortfall from the best is forgiven, out of 128 (Stockfish's
    /// weakness): 100 at level 0, falling to nothing at level 10 (from there on a level plays
    /// its best line and differs only by the nodes it searches), and rising to 125 at the
    /// lowest level: never more than the shortfall itself, or a worse line would be preferred
    /// for being worse.
    fn weakness(&self) -> f64 {
        (100.0 - 10.0 * self.level - 2.5 * self.level.min(0.0)).clamp(0.0, 125.0)
    }

    /// Chooses among lines scored `scores` (centipawns, best first, as the search reports them):
    /// each line gets its score plus a push that grows with its shortfall from the best and with
    /// a random share of the spread of the lines, both weighted by the level's weakness; the
    /// highest total wins. `key` (the position's key) makes the choice differ from position to
    /// position while the seed makes it repeatable.
    pub fn pick(&self, scores: &[i32], key: u64) -> usize {
        if scores.len() < 2 {
            return 0;
        }
        let top = scores[0];
        let worst = *scores.last().expect("two lines");
        // Below level 8 the spread that chance may bridge widens (to 3 pawns at level 0, 4.5
        // at the lowest): the lowest levels search about the same few nodes (every root move
        // is looked at), so their choice is what tells them apart.
        let max_delta = MAX_DELTA + (25.0 * (8.0 - self.level).max(0.0)) as i32;
        let delta = (top - worst).clamp(0, max_delta) as f64;
        let weakness = self.weakness();
        let mut rng = SplitMix64::new(self.seed ^ key.rotate_left(17) ^ SALT);
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &s) in scores.iter().enumerate() {
            // A mate found or suffered is never thrown away or chosen by chance.
            if s.abs() >= crate::search::MATE_BOUND || top.abs() >= crate::search::MATE_BOUND {
                if i == 0 {
                    best = (0, f64::INFINITY);
                }
                continue;
            }
            let random = (rng.next_u64() % weakness.max(1.0) as u64) as f64;
            let push = (weakness * f64::from(top - s) + delta * random) / 128.0;
            let total = f64::from(s) + push;
            if total >= best.1 {
                best = (i, total);
            }
        }
        best.0
    }
}

/// Mixed into the skill's generator, so that it draws other numbers than the Zobrist keys made
/// from the same seed.
const SALT: u64 = 0x9e6c_63d0_676a_9a99;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_maps_onto_levels_in_order() {
        assert_eq!(level_for_elo(MIN_ELO), MIN_LEVEL);
        assert_eq!(level_for_elo(100), MIN_LEVEL);
        assert_eq!(level_for_elo(MAX_ELO), FULL_LEVEL);
        let mut last = f64::NEG_INFINITY;
        for elo in (MIN_ELO..=MAX_ELO).step_by(50) {
            let l = level_for_elo(elo);
            assert!(l > last, "{elo}: {l}");
            last = l;
        }
        assert!(Skill::new(FULL_LEVEL, 1).is_none());
        assert!(Skill::new(19.9, 1).is_some());
    }

    #[test]
    fn the_best_line_wins_more_often_the_higher_the_level() {
        // Four lines 0, 30, 60 and 200 centipawns below the best.
        let scores = [50, 20, -10, -150];
        let share = |level: f64| {
            let skill = Skill::new(level, 7).unwrap();
            let picks: Vec<usize> = (0..2000u64)
                .map(|k| skill.pick(&scores, k * 7919))
                .collect();
            let best = picks.iter().filter(|&&i| i == 0).count();
            let worst = picks.iter().filter(|&&i| i == 3).count();
            (best, worst)
        };
        let (b0, w0) = share(0.0);
        let (b10, w10) = share(10.0);
        let (b19, _) = share(19.0);
        let (bm, wm) = share(MIN_LEVEL);
        assert!(bm < b0 && b0 < b10 && b10 <= b19, "{bm} {b0} {b10} {b19}");
        assert!(wm >= w0 && w0 >= w10, "{wm} {w0} {w10}");
        // Even the lowest level plays the best move often, and a move 2 pawns worse rarely.
        assert!(bm > 200 && wm < 1000, "{bm} {wm}");
    }

    #[test]
    fn the_same_seed_and_position_give_the_same_choice() {
        let scores = [10, 5, 0, -5];
        let a = Skill::new(3.0, 42).unwrap();
        let b = Skill::new(3.0, 42).unwrap();
        for key in 0..100u64 {
            assert_eq!(a.pick(&scores, key), b.pick(&scores, key));
        }
        let c = Skill::new(3.0, 43).unwrap();
        assert!((0..100u64).any(|k| a.pick(&scores, k) != c.pick(&scores, k)));
    }

    #[test]
    fn a_mate_is_never_thrown_away() {
        let mate = crate::search::MATE - 3;
        let skill = Skill::new(MIN_LEVEL, 1).unwrap();
        for key in 0..200u64 {
            assert_eq!(skill.pick(&[mate, 300, 200, 100], key), 0);
        }
    }

    #[test]
    fn lower_levels_search_less_and_wider() {
        let at = |l: f64| Skill::new(l, 0).unwrap();
        assert_eq!(at(0.0).nodes(), 100);
        assert_eq!(at(1.6).nodes(), 200);
        assert!(at(19.9).nodes() > 500_000 && at(19.9).nodes() < 600_000);
        assert_eq!(at(MIN_LEVEL).nodes(), 20);
        assert_eq!(at(0.0).lines(), LINES);
        assert!(at(MIN_LEVEL).lines() > LINES);
    }
}
