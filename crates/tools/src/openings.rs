//! Balanced opening positions for matches: random play from the start position for a fixed
//! number of plies, kept only when a fixed-depth search finds the position roughly level.
//!
//! Cute Chess cannot referee our games and there are no published opening books for most of
//! them, so engine matches need a way to start from many different, fair positions. Each
//! position is written as an EPD line (the FEN), ready for `cannonade match -openings file=F
//! format=epd` with `-repeat`, so every position is played once with each colour.

use cannonade_core::board::zobrist::SplitMix64;
use cannonade_core::engine::Session;
use cannonade_core::games::{GameError, Notation};
use cannonade_core::search::{Limits, Score, SearchControl, SearchOptions, TranspositionTable};
use std::collections::HashSet;
use std::sync::Arc;

/// What to generate.
#[derive(Clone, Debug)]
pub struct OpeningSpec {
    /// Positions wanted.
    pub count: usize,
    /// Random plies played from the start position.
    pub plies: usize,
    /// Depth of the balance check.
    pub depth: u32,
    /// A position is kept when the search score is within this many centipawns of zero.
    pub max_score_cp: i32,
    pub seed: u64,
}

/// Why openings could not be made.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum OpeningsError {
    /// A rule switch the variant refused.
    #[error("option {name}: {error}")]
    RuleOption { name: String, error: GameError },
    /// A legal move of the walk was refused when played (a bug of the game, never expected).
    #[error("a generated move was refused: {0}")]
    MoveRefused(GameError),
    /// Fewer level positions than wanted turned up in the tries allowed.
    #[error(
        "found only {found} level positions in {tries} tries; allow more plies or a larger \
         --max-score"
    )]
    TooFew { found: usize, tries: usize },
}

/// Random tries allowed per position wanted, so that an impossible demand ends with an error.
const MAX_ATTEMPTS_PER_POSITION: usize = 200;

/// Plays `plies` random legal moves (uniform among the legal moves, drawn from `rng`) from a copy
/// of `start`; `None` when the game ends on the way or in the position reached.
pub fn random_walk(
    start: &dyn Session,
    plies: usize,
    rng: &mut SplitMix64,
) -> Result<Option<Box<dyn Session>>, OpeningsError> {
    let mut session = start.clone_session();
    for _ in 0..plies {
        let moves = session.legal_moves(Notation::Uci);
        if moves.is_empty() || session.outcome().is_some() {
            return Ok(None);
        }
        let pick = &moves[(rng.next_u64() % moves.len() as u64) as usize];
        session
            .play(pick, Notation::Uci)
            .map_err(OpeningsError::MoveRefused)?;
    }
    if session.outcome().is_some() || session.legal_moves(Notation::Uci).is_empty() {
        return Ok(None);
    }
    Ok(Some(session))
}

/// Whether a `depth` search of `session` (with `tt` emptied first, so the answer depends on
/// the position alone) scores within `max_score_cp` centipawns of zero.
pub fn is_level(
    session: &dyn Session,
    depth: u32,
    max_score_cp: i32,
    opts: &SearchOptions,
    tt: &Arc<TranspositionTable>,
) -> bool {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    tt.clear();
    let ctl = Arc::new(SearchControl::new(cannonade_native::host(), false));
    let r = session.search(&limits, opts, tt, &ctl, Notation::Uci, &mut |_| {});
    matches!(r.score, Score::Cp(cp) if cp.abs() <= max_score_cp)
}

/// Generates `spec.count` distinct balanced positions of the game of `start` (a game at its
/// start position, with its rule switches), passing each FEN to `progress` as it is found, and
/// returns them all; or an error when too few level positions turn up.
pub fn generate(
    start: &dyn Session,
    spec: &OpeningSpec,
    mut progress: impl FnMut(&str),
) -> Result<Vec<String>, OpeningsError> {
    let mut rng = SplitMix64::new(spec.seed);
    let tt = Arc::new(TranspositionTable::new(16));
    let opts = SearchOptions::default();
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(spec.count);
    let budget = spec.count.saturating_mul(MAX_ATTEMPTS_PER_POSITION).max(1);
    for _ in 0..budget {
        if out.len() == spec.count {
            break;
        }
        let Some(session) = random_walk(start, spec.plies, &mut rng)? else {
            continue;
        };
        if !seen.insert(session.key()) {
            continue;
        }
        if is_level(session.as_ref(), spec.depth, spec.max_score_cp, &opts, &tt) {
            let fen = session.fen();
            progress(&fen);
            out.push(fen);
        }
    }
    if out.len() < spec.count {
        return Err(OpeningsError::TooFew {
            found: out.len(),
            tries: budget,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::engine::registry::find;

    fn spec(count: usize, plies: usize, max_score_cp: i32) -> OpeningSpec {
        OpeningSpec {
            count,
            plies,
            depth: 3,
            max_score_cp,
            seed: 1,
        }
    }

    #[test]
    fn positions_are_distinct_legal_and_the_right_ply() {
        let chess = find("chess").unwrap();
        let fens = generate(&*chess.new_session(), &spec(6, 4, 300), |_| {}).unwrap();
        assert_eq!(fens.len(), 6);
        let distinct: HashSet<_> = fens.iter().collect();
        assert_eq!(distinct.len(), 6);
        for fen in &fens {
            let mut s = chess.new_session();
            s.set_position(Some(fen), &[], Notation::Uci).unwrap();
            // Four plies from the start: White to move again, on move 3.
            assert!(fen.contains(" w "), "{fen}");
            assert!(fen.ends_with(" 3"), "{fen}");
        }
    }

    #[test]
    fn every_kept_position_searches_level() {
        let shogi = find("cannonshogi").unwrap();
        let fens = generate(&*shogi.new_session(), &spec(3, 6, 40), |_| {}).unwrap();
        for fen in &fens {
            let mut s = shogi.new_session();
            s.set_position(Some(fen), &[], Notation::Uci).unwrap();
            let tt = Arc::new(TranspositionTable::new(16));
            let limits = Limits {
                depth: Some(3),
                ..Limits::default()
            };
            let ctl = Arc::new(SearchControl::new(cannonade_native::host(), false));
            let r = s.search(
                &limits,
                &SearchOptions::default(),
                &tt,
                &ctl,
                Notation::Uci,
                &mut |_| {},
            );
            assert!(matches!(r.score, Score::Cp(cp) if cp.abs() <= 40), "{fen}");
        }
    }

    #[test]
    fn an_impossible_demand_is_an_error_not_a_hang() {
        // No position is within -1 centipawns of zero.
        let chess = find("chess").unwrap();
        assert!(generate(&*chess.new_session(), &spec(1, 2, -1), |_| {}).is_err());
    }
}
