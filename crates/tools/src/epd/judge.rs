//! Searching a problem's position and judging what the search found against what the problem
//! asks: `bm` the move is one of them, `am` it is none of them, `dm N` the search reports a
//! mate in N or fewer for the side to move; every demand a problem makes must hold.

use super::problem::Problem;
use cannonade_core::engine::Session;
use cannonade_core::games::Notation;
use cannonade_core::search::{Limits, Score, SearchControl, SearchOptions, TranspositionTable};
use std::sync::Arc;

/// What the search found in a problem's position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The move chosen (UCI), and in the game's SAN (`None`: the search gave no move).
    pub uci: Option<String>,
    pub pgn: Option<String>,
    pub score: Score,
    pub depth: u32,
}

/// Searches the current position of `session` with `limits` (stopping early once a mate the
/// problem asks for is found: a longer search could only confirm it).
pub fn search(
    session: &dyn Session,
    problem: &Problem,
    limits: &Limits,
    opts: &SearchOptions,
    tt: &Arc<TranspositionTable>,
) -> Found {
    let limits = Limits {
        mate: problem.mate,
        ..limits.clone()
    };
    let ctl = Arc::new(SearchControl::new(cannonade_native::host(), false));
    let r = session.search(&limits, opts, tt, &ctl, Notation::Uci, &mut |_| {});
    let pgn = r
        .best
        .as_deref()
        .and_then(|m| session.move_text(m, Notation::Uci).ok())
        .map(|t| t.pgn);
    Found {
        uci: r.best,
        pgn,
        score: r.score,
        depth: r.depth,
    }
}

/// Whether `found` solves `problem`.
pub fn solved(problem: &Problem, found: &Found) -> bool {
    let chose = |list: &[super::problem::ProblemMove]| {
        found
            .uci
            .as_deref()
            .is_some_and(|m| list.iter().any(|p| p.uci == m))
    };
    let best_ok = problem.best.is_empty() || chose(&problem.best);
    let avoid_ok = problem.avoid.is_empty() || (found.uci.is_some() && !chose(&problem.avoid));
    let mate_ok = problem
        .mate
        .is_none_or(|n| matches!(found.score, Score::Mate(m) if m >= 1 && m as u32 <= n));
    best_ok && avoid_ok && mate_ok
}

/// What the problem asks, as the file wrote it: `bm Qxf7+; dm 2`.
pub fn expected(problem: &Problem) -> String {
    let mut parts = Vec::new();
    let words = |list: &[super::problem::ProblemMove]| {
        list.iter()
            .map(|m| m.written.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    if !problem.best.is_empty() {
        parts.push(format!("bm {}", words(&problem.best)));
    }
    if !problem.avoid.is_empty() {
        parts.push(format!("am {}", words(&problem.avoid)));
    }
    if let Some(n) = problem.mate {
        parts.push(format!("dm {n}"));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::super::problem::ProblemMove;
    use super::*;

    fn problem(best: &[&str], avoid: &[&str], mate: Option<u32>) -> Problem {
        let mv = |m: &&str| ProblemMove {
            written: m.to_string(),
            uci: m.to_string(),
        };
        Problem {
            line: 1,
            id: None,
            fen: String::new(),
            best: best.iter().map(mv).collect(),
            avoid: avoid.iter().map(mv).collect(),
            mate,
        }
    }

    fn found(m: &str, score: Score) -> Found {
        Found {
            uci: Some(m.to_string()),
            pgn: None,
            score,
            depth: 5,
        }
    }

    #[test]
    fn every_demand_must_hold() {
        let bm = problem(&["a1a8", "b1b8"], &[], None);
        assert!(solved(&bm, &found("b1b8", Score::Cp(0))));
        assert!(!solved(&bm, &found("a1a2", Score::Cp(900))));
        let am = problem(&[], &["a1a2"], None);
        assert!(solved(&am, &found("a1a3", Score::Cp(0))));
        assert!(!solved(&am, &found("a1a2", Score::Cp(0))));
        let dm = problem(&[], &[], Some(2));
        assert!(solved(&dm, &found("a1a2", Score::Mate(1))));
        assert!(solved(&dm, &found("a1a2", Score::Mate(2))));
        assert!(!solved(&dm, &found("a1a2", Score::Mate(3))));
        assert!(!solved(&dm, &found("a1a2", Score::Mate(-2))));
        assert!(!solved(&dm, &found("a1a2", Score::Cp(3000))));
        let both = problem(&["a1a8"], &[], Some(1));
        assert!(solved(&both, &found("a1a8", Score::Mate(1))));
        assert!(!solved(&both, &found("b1b8", Score::Mate(1))));
        assert_eq!(expected(&both), "bm a1a8; dm 1");
    }
}
