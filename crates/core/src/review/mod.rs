//! Reviewing a game from its positions' scores, as `cannonade analyse` does and the page will:
//! each move judged by the expected score (win + draw/2, by the game's win-chance model,
//! [`crate::engine::wdl`]) it gave away, marked as lichess marks moves (`?!`, `?`, `??`), with
//! the line the engine preferred and each player's totals; and the game written back as
//! annotated PGN ([`annotate`]). Plain functions over scores: the searching is the caller's.
//!
//! ```
//! use cannonade_core::board::Color;
//! use cannonade_core::engine::MoveText;
//! use cannonade_core::review::{judge, AnalysedGame, Mark, ScoredPosition, Summary};
//!
//! let pos = |side, score, best: &str| ScoredPosition {
//!     fen: "8/8/8/8/8/8/8/8 w - - 0 20".into(),
//!     side,
//!     score,
//!     best_uci: vec![best.into()],
//!     best_pgn: vec![best.into()],
//!     game_over: false,
//! };
//! let played = MoveText { uci: "a2a3".into(), xboard: "a2a3".into(), pgn: "a3".into() };
//! // Level before a3; after it Black (to move) is a rook up.
//! let game = AnalysedGame {
//!     variant: "chess",
//!     moves: vec![played],
//!     positions: vec![pos(Color::White, 0, "e2e4"), pos(Color::Black, 500, "h7h6")],
//! };
//! let verdicts = judge(&game);
//! assert_eq!(verdicts[0].mark, Some(Mark::Blunder));
//! assert_eq!(verdicts[0].better_line, ["e2e4"]);
//! assert_eq!(Summary::of(&verdicts).white.blunders, 1);
//! ```

pub mod annotate;

use crate::board::Color;
use crate::engine::wdl::{self, Wdl};
use crate::engine::{MoveText, Session};
use crate::games::{Notation, Outcome};
use crate::search::{Score, MATE};

/// One position of the game with the engine's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoredPosition {
    pub fen: String,
    pub side: Color,
    /// The search score in the search's own units (centipawns, mates as `MATE - plies`), side
    /// to move's view: what `wdl::chances` reads ([`internal_score`] turns a reported score
    /// into it).
    pub score: i32,
    /// The engine's best line (empty when the game is over here): UCI strings, to compare with
    /// the move played, and the game's own notation, to write.
    pub best_uci: Vec<String>,
    pub best_pgn: Vec<String>,
    /// The game has ended in this position (checkmate, no moves, repetition...).
    pub game_over: bool,
}

/// The longest better line kept (and written as a variation): enough to show the idea, short
/// enough that a noisy tail of the principal variation is left out.
pub const MAX_LINE_PLIES: usize = 10;

impl ScoredPosition {
    /// The current position of `session`, where the game has ended with `outcome`: scored as
    /// the game scores it (a loss is mated now), with no line.
    pub fn game_over(session: &dyn Session, outcome: Outcome) -> ScoredPosition {
        let score = match outcome {
            Outcome::Loss(_) => -MATE,
            Outcome::Win(_) => MATE,
            Outcome::Draw(_) => 0,
        };
        ScoredPosition {
            fen: session.fen(),
            side: session.side_to_move(),
            score,
            best_uci: Vec::new(),
            best_pgn: Vec::new(),
            game_over: true,
        }
    }

    /// The current position of `session` as a search left it: `score` in the search's units
    /// ([`internal_score`]), `line` the engine's best line (UCI strings), of which the first
    /// [`MAX_LINE_PLIES`] are kept, up to the first that does not play.
    pub fn searched(session: &dyn Session, score: i32, mut line: Vec<String>) -> ScoredPosition {
        line.truncate(MAX_LINE_PLIES);
        let best_pgn = line_in_pgn(session, &line);
        // Both lists stay in step where a move does not play.
        line.truncate(best_pgn.len());
        ScoredPosition {
            fen: session.fen(),
            side: session.side_to_move(),
            score,
            best_uci: line,
            best_pgn,
            game_over: false,
        }
    }
}

/// The moves of `line` (UCI strings from the current position of `session`) in the game's PGN
/// notation, up to the first that is not legal where it is played.
pub fn line_in_pgn(session: &dyn Session, line: &[String]) -> Vec<String> {
    let mut s = session.clone_session();
    let mut out = Vec::with_capacity(line.len());
    for mv in line {
        let Ok(text) = s.move_text(mv, Notation::Uci) else {
            break;
        };
        if s.play(mv, Notation::Uci).is_err() {
            break;
        }
        out.push(text.pgn);
    }
    out
}

/// A game with every position scored: `positions` has one more entry than `moves`.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysedGame {
    /// The variant's engine name (`Session::variant`), for its win-chance model.
    pub variant: &'static str,
    pub moves: Vec<MoveText>,
    pub positions: Vec<ScoredPosition>,
}

/// The search's own score for a reported score (mate in `n` is `MATE - (2n - 1)` plies away
/// for the mating side), so that mates reach `wdl::chances` as the search reports them.
pub fn internal_score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -(MATE - 2 * n.abs()),
    }
}

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
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub mover: Color,
    /// Expected score given away, 0.0 to 1.0.
    pub loss: f64,
    /// Centipawns given away (scores capped at [`CP_CAP`]).
    pub cp_loss: i32,
    pub mark: Option<Mark>,
    /// The move played is the engine's own choice.
    pub best: bool,
    /// For a marked move, the line the engine preferred in the game's notation (its first
    /// move the better move); empty otherwise.
    pub better_line: Vec<String>,
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
            let mark = if best { None } else { Mark::for_loss(loss) };
            Verdict {
                mover: before.side,
                loss,
                cp_loss,
                mark,
                best,
                better_line: if mark.is_some() {
                    before.best_pgn.clone()
                } else {
                    Vec::new()
                },
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

    /// `White: ... Black: ...`, one sentence each.
    pub fn sentence(&self) -> String {
        let one = |name: &str, p: &PlayerSummary| format!("{name}: {}.", p.describe());
        format!(
            "{} {}",
            one("White", &self.white),
            one("Black", &self.black)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_start_at_lichess_thresholds() {
        assert_eq!(Mark::for_loss(0.049), None);
        assert_eq!(Mark::for_loss(0.05), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(0.099), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(0.10), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(0.15), Some(Mark::Blunder));
        assert_eq!(Mark::for_loss(0.9), Some(Mark::Blunder));
    }

    pub(super) fn pos(side: Color, score: i32, best: &str) -> ScoredPosition {
        ScoredPosition {
            fen: "8/8/8/8/8/8/8/8 w - - 0 20".into(),
            side,
            score,
            best_uci: vec![best.into()],
            best_pgn: vec![best.into()],
            game_over: false,
        }
    }

    pub(super) fn mv(uci: &str) -> MoveText {
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
        assert_eq!(v[0].better_line, ["e2e4"]);
        assert!(v[1].best && v[1].mark.is_none() && v[1].loss == 0.0);
        assert!(v[1].better_line.is_empty());
        let s = Summary::of(&v);
        assert_eq!((s.white.blunders, s.black.blunders), (1, 0));
        assert_eq!(s.white.average_cp_loss(), 500.0);
        let white = s.white.describe();
        assert!(
            white.ends_with("% (500 cp) average loss, 0 inaccuracies, 0 mistakes, 1 blunder"),
            "{white}"
        );
        assert_eq!(
            s.sentence(),
            format!("White: {white}. Black: {}.", s.black.describe())
        );
    }

    #[test]
    fn mate_scores_convert_back_to_the_search_units() {
        for v in [
            MATE - 1,
            MATE - 3,
            MATE - 7,
            -(MATE - 2),
            -(MATE - 4),
            -MATE,
            37,
            -250,
        ] {
            assert_eq!(internal_score(Score::from_internal(v)), v);
        }
        // Odd and even plies meet at mate in n: the side to move mates on its n-th move.
        assert_eq!(internal_score(Score::Mate(1)), MATE - 1);
        assert_eq!(internal_score(Score::Mate(-1)), -(MATE - 2));
    }
}
