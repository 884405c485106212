//! Judging each move by the win chances it gave away, with lichess's marks and thresholds,
//! and the per-player totals.

use super::game::{AnalysedGame, ScoredPosition};
use cannonade_core::board::Color;
use cannonade_core::engine::wdl::{self, Wdl};

/// A move's mark, by the expected score (win + draw/2) it lost.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The lowest loss of each mark, lichess's: 5, 10 and 15 points of expected score.
    pub const THRESHOLDS: [(Mark, f64); 3] = [
        (Mark::Blunder, 0.15),
        (Mark::Mistake, 0.10),
        (Mark::Inaccuracy, 0.05),
    ];

    /// The mark of a move that lost `loss` of expected score, if any.
    pub fn for_loss(loss: f64) -> Option<Mark> {
        Self::THRESHOLDS
            .iter()
            .find(|(_, t)| loss >= *t)
            .map(|(m, _)| *m)
    }

    /// The annotation glyph appended to the move.
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "Inaccuracy",
            Mark::Mistake => "Mistake",
            Mark::Blunder => "Blunder",
        }
    }
}

/// Centipawn losses count mates and big scores as this much, as lichess caps them: past it a
/// position is won anyway, and one mate would swamp a game's average.
pub const CP_CAP: i32 = 1000;

/// What one move cost its player.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Verdict {
    pub mover: Color,
    /// Expected score given away, 0.0 to 1.0.
    pub loss: f64,
    /// Centipawns given away (scores capped at [`CP_CAP`]).
    pub cp_loss: i32,
    pub mark: Option<Mark>,
    /// The move played is the engine's own choice.
    pub best: bool,
}

/// The chances at `pos` by its game's model, side to move's view.
pub fn chances(variant: &str, pos: &ScoredPosition) -> Wdl {
    wdl::chances(variant, pos.score, wdl::move_number_of(&pos.fen))
}

/// The chances at `pos`, White's view.
pub fn white_chances(variant: &str, pos: &ScoredPosition) -> Wdl {
    let w = chances(variant, pos);
    match pos.side {
        Color::White => w,
        Color::Black => w.flipped(),
    }
}

/// The verdict on every move of the game, in order.
pub fn judge(game: &AnalysedGame) -> Vec<Verdict> {
    game.moves
        .iter()
        .enumerate()
        .map(|(i, mv)| {
            let (before, after) = (&game.positions[i], &game.positions[i + 1]);
            let best = before.best_uci.first() == Some(&mv.uci);
            // The next position is scored for the opponent: its chances, turned round, are the
            // mover's after the move.
            let expected_before = chances(game.variant, before).expected();
            let expected_after = chances(game.variant, after).flipped().expected();
            let cap = |s: i32| s.clamp(-CP_CAP, CP_CAP);
            // The engine's own move loses nothing against itself: a difference there is the
            // search seeing further one move on, not the player's error.
            let (loss, cp_loss) = if best {
                (0.0, 0)
            } else {
                (
                    (expected_before - expected_after).max(0.0),
                    (cap(before.score) + cap(after.score)).max(0),
                )
            };
            Verdict {
                mover: before.side,
                loss,
                cp_loss,
                mark: if best { None } else { Mark::for_loss(loss) },
                best,
            }
        })
        .collect()
}

/// One player's totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerSummary {
    pub moves: usize,
    pub loss_sum: f64,
    pub cp_loss_sum: i64,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

impl PlayerSummary {
    /// The average expected score lost per move, in percent.
    pub fn average_loss_percent(&self) -> f64 {
        if self.moves == 0 {
            return 0.0;
        }
        100.0 * self.loss_sum / self.moves as f64
    }

    /// The average centipawn loss per move.
    pub fn average_cp_loss(&self) -> f64 {
        if self.moves == 0 {
            return 0.0;
        }
        self.cp_loss_sum as f64 / self.moves as f64
    }

    /// `3.1% (42 cp) average loss, 2 inaccuracies, 1 mistake, 0 blunders`.
    pub fn describe(&self) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "{:.1}% ({:.0} cp) average loss, {}, {}, {}",
            self.average_loss_percent(),
            self.average_cp_loss(),
            plural(self.inaccuracies, "inaccuracy", "inaccuracies"),
            plural(self.mistakes, "mistake", "mistakes"),
            plural(self.blunders, "blunder", "blunders"),
        )
    }
}

/// Both players' totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub white: PlayerSummary,
    pub black: PlayerSummary,
}

impl Summary {
    pub fn of(verdicts: &[Verdict]) -> Summary {
        let mut s = Summary::default();
        for v in verdicts {
            let p = match v.mover {
                Color::White => &mut s.white,
                Color::Black => &mut s.black,
            };
            p.moves += 1;
            p.loss_sum += v.loss;
            p.cp_loss_sum += i64::from(v.cp_loss);
            match v.mark {
                Some(Mark::Inaccuracy) => p.inaccuracies += 1,
                Some(Mark::Mistake) => p.mistakes += 1,
                Some(Mark::Blunder) => p.blunders += 1,
                None => {}
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::engine::MoveText;

    #[test]
    fn marks_start_at_lichess_thresholds() {
        assert_eq!(Mark::for_loss(0.049), None);
        assert_eq!(Mark::for_loss(0.05), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(0.099), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(0.10), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(0.15), Some(Mark::Blunder));
        assert_eq!(Mark::for_loss(0.9), Some(Mark::Blunder));
    }

    fn pos(side: Color, score: i32, best: &str) -> ScoredPosition {
        ScoredPosition {
            fen: "8/8/8/8/8/8/8/8 w - - 0 20".into(),
            side,
            score,
            best_uci: vec![best.into()],
            best_pgn: vec![best.into()],
            game_over: false,
        }
    }

    fn mv(uci: &str) -> MoveText {
        MoveText {
            uci: uci.into(),
            xboard: uci.into(),
            pgn: uci.into(),
        }
    }

    /// White is level, plays a move after which Black is a rook up (a blunder), then Black
    /// plays the engine's move though its score drops (no mark, no loss).
    #[test]
    fn a_move_that_hands_over_a_rook_is_a_blunder_and_the_best_move_is_never_marked() {
        let game = AnalysedGame {
            variant: "chess",
            moves: vec![mv("a2a3"), mv("h7h6")],
            positions: vec![
                pos(Color::White, 0, "e2e4"),
                pos(Color::Black, 500, "h7h6"),
                pos(Color::White, 100, "e2e4"),
            ],
        };
        let v = judge(&game);
        assert_eq!(v[0].mark, Some(Mark::Blunder));
        assert!(v[0].loss > 0.3, "{}", v[0].loss);
        assert_eq!(v[0].cp_loss, 500);
        assert!(v[1].best && v[1].mark.is_none() && v[1].loss == 0.0);
        let s = Summary::of(&v);
        assert_eq!((s.white.blunders, s.black.blunders), (1, 0));
        assert_eq!(s.white.average_cp_loss(), 500.0);
        assert!(
            s.white.describe().contains("1 blunder,") || s.white.describe().ends_with("1 blunder")
        );
    }
}
