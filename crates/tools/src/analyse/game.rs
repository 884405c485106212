//! Searching every position of one game: the score of each and the line the engine prefers.

use cannonade_core::engine::{EngineState, Session};
use cannonade_core::games::{GameError, Notation};
use cannonade_core::review::{internal_score, AnalysedGame, ScoredPosition};
use cannonade_core::search::{Limits, Report, SearchControl};

/// Searches every position of the game played by `moves` (UCI strings, already checked legal)
/// from `start_fen` (or the variant's start) with `state`'s session, options and table,
/// calling `on_position` after each search.
pub fn analyse(
    state: &mut EngineState,
    start_fen: Option<&str>,
    moves: &[String],
    limits: &Limits,
    mut on_position: impl FnMut(),
) -> Result<AnalysedGame, GameError> {
    // A fresh table for each game, so a game's analysis does not depend on the games before it.
    state.clear_table();
    let tt = state.table();
    // No GUI waits for these moves: the time kept back for communication (`Move Overhead`)
    // would only shorten every `--movetime` search.
    let opts = cannonade_core::search::SearchOptions {
        move_overhead: std::time::Duration::ZERO,
        ..state.options().clone()
    };
    let mut session = state.session().clone_session();
    session.set_position(start_fen, &[], Notation::Uci)?;
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut texts = Vec::with_capacity(moves.len());
    for i in 0..=moves.len() {
        let last = i == moves.len();
        positions.push(score_position(session.as_ref(), last, limits, &opts, &tt));
        on_position();
        if let Some(mv) = moves.get(i) {
            texts.push(session.move_text(mv, Notation::Uci)?);
            session.play(mv, Notation::Uci)?;
        }
    }
    Ok(AnalysedGame {
        variant: session.variant(),
        moves: texts,
        positions,
    })
}

/// The verdict on the current position of `session`. The game's own ending is taken as it is
/// in the last position (`last`); in one the game went on from (a repetition nobody claimed),
/// the search decides.
fn score_position(
    session: &dyn Session,
    last: bool,
    limits: &Limits,
    opts: &cannonade_core::search::SearchOptions,
    tt: &std::sync::Arc<cannonade_core::search::TranspositionTable>,
) -> ScoredPosition {
    if let Some(outcome) = session.outcome().filter(|_| last) {
        return ScoredPosition::game_over(session, outcome);
    }
    let ctl = std::sync::Arc::new(SearchControl::new(cannonade_native::host(), false));
    let mut pv: Vec<String> = Vec::new();
    let r = session.search(limits, opts, tt, &ctl, Notation::Uci, &mut |report| {
        if let Report::Info(info) = report {
            if info.multipv == 1 && info.bound.is_none() && !info.pv.is_empty() {
                pv = info.pv;
            }
        }
    });
    let score = internal_score(r.score);
    let Some(best) = r.best else {
        // No move to search: the game is over here by the search's verdict.
        return ScoredPosition {
            game_over: true,
            ..ScoredPosition::searched(session, score, Vec::new())
        };
    };
    // The last full line reported, if it starts with the move chosen (a later, unfinished
    // iteration may have changed the move).
    if pv.first() != Some(&best) {
        pv = vec![best];
    }
    ScoredPosition::searched(session, score, pv)
}
