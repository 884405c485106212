//! Ending games by the players' own scores, for the match runner (`-resign`, `-draw`, as
//! cutechess-cli does) and for datagen's self-play: a side whose scores say it is lost for
//! long enough loses, and a game whose scores stay near zero for long enough is drawn.

use cannonade_core::board::Color;

/// A loss for a side whose last `count` scores (its own view) were all at most `-cp`; with
/// `two_sided`, only where its opponent's last `count` scores were all at least `cp`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub count: usize,
    pub cp: i32,
    pub two_sided: bool,
}

/// A draw once the game is at ply `from_ply` or later and both sides' last `count` scores
/// were all within `cp` of zero.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub from_ply: usize,
    pub count: usize,
    pub cp: i32,
}

/// What the scores decide.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// This side wins: the other's scores say it is lost.
    Win(Color),
    Draw,
}

/// Each side's scores so far, in the order of its moves (`None`: the move came without one,
/// which breaks every run).
#[derive(Clone, Debug, Default)]
pub struct Scores([Vec<Option<i32>>; 2]);

impl Scores {
    pub fn push(&mut self, side: Color, score: Option<i32>) {
        self.0[side.index()].push(score);
    }

    /// Whether `side`'s last `n` scores are all known and all pass `test`.
    fn last_all(&self, side: Color, n: usize, test: impl Fn(i32) -> bool) -> bool {
        let s = &self.0[side.index()];
        n > 0 && s.len() >= n && s[s.len() - n..].iter().all(|x| x.is_some_and(&test))
    }

    /// What the scores decide by `resign` and `draw` with the game at ply `ply`, if anything.
    /// A resignation comes before a draw.
    pub fn decide(
        &self,
        resign: Option<ResignRule>,
        draw: Option<DrawRule>,
        ply: usize,
    ) -> Option<Decision> {
        if let Some(r) = resign {
            for loser in [Color::White, Color::Black] {
                let lost = self.last_all(loser, r.count, |s| s <= -r.cp);
                let agreed = !r.two_sided || self.last_all(!loser, r.count, |s| s >= r.cp);
                if lost && agreed {
                    return Some(Decision::Win(!loser));
                }
            }
        }
        let d = draw?;
        let quiet = |side| self.last_all(side, d.count, |s| s.abs() <= d.cp);
        (ply >= d.from_ply && quiet(Color::White) && quiet(Color::Black)).then_some(Decision::Draw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(white: &[Option<i32>], black: &[Option<i32>]) -> Scores {
        let mut s = Scores::default();
        for &w in white {
            s.push(Color::White, w);
        }
        for &b in black {
            s.push(Color::Black, b);
        }
        s
    }

    #[test]
    fn a_side_lost_for_long_enough_loses() {
        let one = ResignRule {
            count: 3,
            cp: 500,
            two_sided: false,
        };
        let lost = [Some(-600), Some(-500), Some(-900)];
        let s = scores(&[Some(0), Some(0)], &lost);
        assert_eq!(
            s.decide(Some(one), None, 5),
            Some(Decision::Win(Color::White))
        );
        // Not long enough, a score missing, or one above the line: no decision.
        let short = scores(&[], &lost[1..]);
        let missing = scores(&[], &[Some(-600), None, Some(-900)]);
        let above = scores(&[], &[Some(-600), Some(-499), Some(-900)]);
        for s in [short, missing, above] {
            assert_eq!(s.decide(Some(one), None, 5), None);
        }
        // Two-sided: the winner must agree.
        let two = ResignRule {
            two_sided: true,
            ..one
        };
        let s = scores(&[Some(600), Some(400), Some(700)], &lost);
        assert_eq!(s.decide(Some(two), None, 6), None);
        let s = scores(&[Some(600), Some(500), Some(700)], &lost);
        assert_eq!(
            s.decide(Some(two), None, 6),
            Some(Decision::Win(Color::White))
        );
    }

    #[test]
    fn quiet_scores_draw_from_the_ply_given() {
        let draw = DrawRule {
            from_ply: 10,
            count: 2,
            cp: 10,
        };
        let s = scores(&[Some(50), Some(10), Some(-3)], &[Some(0), Some(-10)]);
        assert_eq!(s.decide(None, Some(draw), 9), None);
        assert_eq!(s.decide(None, Some(draw), 10), Some(Decision::Draw));
        let loud = scores(&[Some(11), Some(0)], &[Some(0), Some(0)]);
        assert_eq!(loud.decide(None, Some(draw), 40), None);
        // A resignation comes first.
        let resign = ResignRule {
            count: 2,
            cp: 5,
            two_sided: false,
        };
        let s = scores(&[Some(-5), Some(-6)], &[Some(0), Some(0)]);
        assert_eq!(
            s.decide(Some(resign), Some(draw), 40),
            Some(Decision::Win(Color::Black))
        );
    }
}
