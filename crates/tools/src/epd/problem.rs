//! One test position read for a game: the position, and what the search must do there (`bm`,
//! `am`, `dm`), with its moves checked legal and read the way a PGN reader reads them (the
//! game's SAN, or the engine's coordinates).

use super::parse::{split_line, SplitError, SplitLine};
use cannonade_core::engine::Session;
use cannonade_core::games::Notation;
use cannonade_core::pgn::find_move;

/// A move as the file wrote it and as the engine writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemMove {
    pub written: String,
    pub uci: String,
}

/// A position to solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The line of the file it is on, from 1.
    pub line: usize,
    /// Its `id`, if it has one.
    pub id: Option<String>,
    /// The position as the game writes it.
    pub fen: String,
    /// `bm`: the search's move must be one of these (none: no such demand).
    pub best: Vec<ProblemMove>,
    /// `am`: the search's move must be none of these.
    pub avoid: Vec<ProblemMove>,
    /// `dm`: the search must report a mate in at most this many moves.
    pub mate: Option<u32>,
}

/// Why a line is not a problem (it is skipped, the others are still run).
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum ProblemError {
    #[error("{0}")]
    Split(#[from] SplitError),
    #[error("{opcode} '{word}' is not a legal move here")]
    IllegalMove { opcode: &'static str, word: String },
    #[error("{opcode} has no moves")]
    NoMoves { opcode: &'static str },
    #[error("dm wants one number of moves, at least 1, not '{0}'")]
    BadMate(String),
    #[error("nothing to solve: no bm, am or dm")]
    NothingToSolve,
    #[error("the game is over in this position")]
    GameOver,
}

/// Reads line `line` (numbered from 1) of an EPD file for the game of `session` (whose
/// position is left as it was).
pub fn read_problem(
    session: &dyn Session,
    text: &str,
    line: usize,
) -> Result<Problem, ProblemError> {
    let mut pos = session.clone_session();
    let read = |fen: &str| {
        let mut s = session.clone_session();
        s.set_position(Some(fen), &[], Notation::Uci)
            .map_err(|e| e.to_string())
    };
    let SplitLine { fen, operations } = split_line(text, read)?;
    if operations.is_empty() {
        return Err(SplitError::NoOperations.into());
    }
    pos.set_position(Some(&fen), &[], Notation::Uci)
        .expect("split_line read it");
    let mut problem = Problem {
        line,
        id: None,
        fen: pos.fen(),
        best: Vec::new(),
        avoid: Vec::new(),
        mate: None,
    };
    for op in &operations {
        match op.opcode.as_str() {
            "bm" => problem
                .best
                .extend(moves(pos.as_ref(), "bm", &op.operands)?),
            "am" => problem
                .avoid
                .extend(moves(pos.as_ref(), "am", &op.operands)?),
            "dm" => {
                let n = match op.operands.as_slice() {
                    [one] => one.parse::<u32>().ok().filter(|&n| n >= 1),
                    _ => None,
                };
                problem.mate = Some(n.ok_or_else(|| ProblemError::BadMate(op.operands.join(" ")))?);
            }
            "id" => problem.id = Some(op.operands.join(" ")),
            // Every other opcode (comments `c0`..`c9`, `acd`, `ce`, `pv`...) is EPD's and
            // asks nothing of the search.
            _ => {}
        }
    }
    if problem.best.is_empty() && problem.avoid.is_empty() && problem.mate.is_none() {
        return Err(ProblemError::NothingToSolve);
    }
    if pos.outcome().is_some() {
        return Err(ProblemError::GameOver);
    }
    Ok(problem)
}

/// The moves of a `bm` or `am` operation, each a legal move of `pos`.
fn moves(
    pos: &dyn Session,
    opcode: &'static str,
    words: &[String],
) -> Result<Vec<ProblemMove>, ProblemError> {
    if words.is_empty() {
        return Err(ProblemError::NoMoves { opcode });
    }
    words
        .iter()
        .map(|w| {
            find_move(pos, w)
                .map(|uci| ProblemMove {
                    written: w.clone(),
                    uci,
                })
                .ok_or_else(|| ProblemError::IllegalMove {
                    opcode,
                    word: w.clone(),
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::engine::registry;

    fn chess() -> Box<dyn Session> {
        registry::default_variant().new_session()
    }

    #[test]
    fn san_and_coordinates_both_read() {
        let p = read_problem(
            chess().as_ref(),
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; am a1a2 Kf1; dm 1; id \"back rank\";",
            3,
        )
        .unwrap();
        assert_eq!(p.line, 3);
        assert_eq!(p.id.as_deref(), Some("back rank"));
        assert_eq!(p.fen, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let uci = |v: &[ProblemMove]| v.iter().map(|m| m.uci.clone()).collect::<Vec<_>>();
        assert_eq!(uci(&p.best), ["a1a8"]);
        assert_eq!(uci(&p.avoid), ["a1a2", "g1f1"]);
        assert_eq!(p.mate, Some(1));
    }

    #[test]
    fn bad_operations_are_refused() {
        let read = |t: &str| read_problem(chess().as_ref(), t, 1);
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - -";
        assert_eq!(
            read(&format!("{fen} bm Ra9;")),
            Err(ProblemError::IllegalMove {
                opcode: "bm",
                word: "Ra9".into()
            })
        );
        assert_eq!(
            read(&format!("{fen} dm 0;")),
            Err(ProblemError::BadMate("0".into()))
        );
        assert_eq!(
            read(&format!("{fen} id \"x\";")),
            Err(ProblemError::NothingToSolve)
        );
        assert_eq!(
            read(&format!("{fen} am;")),
            Err(ProblemError::NoMoves { opcode: "am" })
        );
        assert!(matches!(
            read("6k1/5ppp/8 w - - bm Ra8;"),
            Err(ProblemError::Split(SplitError::NotAPosition { .. }))
        ));
        assert_eq!(
            read("R5k1/5ppp/8/8/8/8/8/6K1 b - - dm 1;"),
            Err(ProblemError::GameOver)
        );
    }
}
