//! Self-play of one game: its opening, its moves, its end (by the rules or adjudicated) and
//! the positions it keeps.

use super::format::{GameResult, Record, SCORE_MATE};
use crate::adjudicate::{Decision, DrawRule, ResignRule, Scores};
use crate::openings::{is_level, random_walk};
use cannonade_core::board::zobrist::SplitMix64;
use cannonade_core::board::Color;
use cannonade_core::engine::Session;
use cannonade_core::games::Notation;
use cannonade_core::search::{Limits, Score, SearchControl, SearchOptions, TranspositionTable};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// Random plies played from the start position before a game, fewest and most (each game
/// draws one, so that either side may move first in its opening).
pub const OPENING_PLIES: (usize, usize) = (8, 9);
/// Depth of the search that decides whether an opening is level.
pub const OPENING_DEPTH: u32 = 4;
/// An opening is kept when that search scores within this many centipawns of zero.
pub const OPENING_MAX_CP: i32 = 200;
/// Openings tried per game before giving up with an error.
pub const OPENING_TRIES: usize = 1000;
/// Positions before this ply of the game (counted from the variant's start position, random
/// plies included) are not kept.
pub const MIN_PLY: usize = 16;
/// Win adjudication: the side whose score (mates included) is at least `WIN_CP` in
/// `WIN_PLIES` searched positions in a row, whichever side was to move in them, wins. 1000 cp
/// (about a queen in chess) for four moves of each side ends won games before their long
/// conversion; with 2000 (before November 24) and draws from ply 160, 59% of the chess
/// positions had fewer than 16 pieces, with these values 55%, and datagen ran about 10%
/// faster. Most endgame positions come from games that stay within ±1000 cp; to train on
/// fewer of them, `cannonade train --thin` drops them.
pub const WIN_CP: i32 = 1000;
pub const WIN_PLIES: usize = 8;
/// Draw adjudication: from ply `DRAW_FROM_PLY` on, `DRAW_PLIES` searched positions in a row
/// scored within `DRAW_CP` of zero are a draw.
pub const DRAW_CP: i32 = 10;
pub const DRAW_PLIES: usize = 20;
pub const DRAW_FROM_PLY: usize = 100;
/// [`WIN_CP`] and [`WIN_PLIES`] as the adjudicator's rule: `WIN_PLIES` positions in a row,
/// whichever side was to move, are half the loser's (at most `-WIN_CP`, its own view) and half
/// the winner's (at least `WIN_CP`).
const WIN_RULE: ResignRule = ResignRule {
    count: WIN_PLIES / 2,
    cp: WIN_CP,
    two_sided: true,
};
/// [`DRAW_CP`], [`DRAW_PLIES`] and [`DRAW_FROM_PLY`] as the adjudicator's rule: the last of
/// the `DRAW_PLIES` positions (the one just searched, whose ply the rule is given) is
/// `DRAW_PLIES - 1` plies after the first, which must be at `DRAW_FROM_PLY` or later.
const DRAW_RULE: DrawRule = DrawRule {
    from_ply: DRAW_FROM_PLY + DRAW_PLIES - 1,
    count: DRAW_PLIES / 2,
    cp: DRAW_CP,
};
/// A game still going at this ply is a draw.
pub const MAX_PLIES: usize = 400;
/// The search score as stored: centipawns clamped below [`SCORE_MATE`], mates at
/// `±SCORE_MATE`.
pub fn stored_score(score: Score) -> i16 {
    match score {
        Score::Cp(cp) => cp.clamp(-i32::from(SCORE_MATE) + 1, i32::from(SCORE_MATE) - 1) as i16,
        Score::Mate(n) if n > 0 => SCORE_MATE,
        Score::Mate(_) => -SCORE_MATE,
    }
}

/// Whether a searched position at `ply` whose best move is `best` (UCI) is kept: not too early
/// in the game, the side to move not in check, and `best` quiet (not a capture, promotion or
/// other move the game counts as tactical).
pub(super) fn is_kept(session: &dyn Session, ply: usize, best: &str) -> Result<bool, String> {
    Ok(ply >= MIN_PLY
        && !session.in_check()
        && !session
            .is_tactical(best, Notation::Uci)
            .map_err(|e| e.to_string())?)
}

/// The seed of game `game`'s random choices: a function of the job's seed and the game index
/// only.
pub(super) fn game_seed(seed: u64, game: u64) -> u64 {
    SplitMix64::new(seed ^ game.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// How one game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Ending {
    Rules,
    WinAdjudicated,
    DrawAdjudicated,
    PlyCap,
}

/// One finished game: its records' bytes, ready to write.
pub(super) struct GameOut {
    pub(super) bytes: Vec<u8>,
    pub(super) positions: u64,
    pub(super) ending: Ending,
}

/// A game's opening position, and its ply.
pub(super) type Opening = (Box<dyn Session>, usize);

/// A game thread's tools: its own copy of the start position, its own table.
pub(super) struct Player<'a> {
    pub(super) start: Box<dyn Session>,
    pub(super) opts: &'a SearchOptions,
    pub(super) limits: &'a Limits,
    pub(super) tt: Arc<TranspositionTable>,
    pub(super) seed: u64,
    pub(super) stop: &'a Arc<AtomicBool>,
}

impl Player<'_> {
    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// A level opening for game `game`, and its ply; `None` when stopped.
    pub(super) fn opening(&self, game: u64) -> Result<Option<Opening>, String> {
        let mut rng = SplitMix64::new(game_seed(self.seed, game));
        let span = (OPENING_PLIES.1 - OPENING_PLIES.0 + 1) as u64;
        for _ in 0..OPENING_TRIES {
            if self.stopped() {
                return Ok(None);
            }
            let plies = OPENING_PLIES.0 + (rng.next_u64() % span) as usize;
            let Some(session) =
                random_walk(self.start.as_ref(), plies, &mut rng).map_err(|e| e.to_string())?
            else {
                continue;
            };
            // `is_level` empties the table first: the game starts with a fresh one.
            if is_level(
                session.as_ref(),
                OPENING_DEPTH,
                OPENING_MAX_CP,
                self.opts,
                &self.tt,
            ) {
                return Ok(Some((session, plies)));
            }
        }
        Err(format!(
            "game {game}: no level opening in {OPENING_TRIES} tries of {}-{} random plies",
            OPENING_PLIES.0, OPENING_PLIES.1
        ))
    }

    /// Plays game `game`; `None` when stopped before its end.
    pub(super) fn play(&self, game: u64) -> Result<Option<GameOut>, String> {
        let index = u32::try_from(game)
            .map_err(|_| format!("game index {game} is beyond the format's {}", u32::MAX))?;
        let Some((mut session, mut ply)) = self.opening(game)? else {
            return Ok(None);
        };
        let mut kept: Vec<(String, i16, Color)> = Vec::new();
        let mut scores = Scores::default();
        let (winner, ending) = loop {
            if self.stopped() {
                return Ok(None);
            }
            if let Some(outcome) = session.outcome() {
                break (outcome.winner(session.side_to_move()), Ending::Rules);
            }
            if ply >= MAX_PLIES {
                break (None, Ending::PlyCap);
            }
            let ctl = Arc::new(SearchControl::with_cancel(
                cannonade_native::host(),
                Arc::clone(self.stop),
            ));
            let r = session.search(
                self.limits,
                self.opts,
                &self.tt,
                &ctl,
                Notation::Uci,
                &mut |_| {},
            );
            if self.stopped() {
                return Ok(None);
            }
            let best = r
                .best
                .ok_or_else(|| format!("the search found no move in {}", session.fen()))?;
            let score = stored_score(r.score);
            let side = session.side_to_move();
            if is_kept(session.as_ref(), ply, &best)? {
                kept.push((session.fen(), score, side));
            }
            scores.push(side, Some(i32::from(score)));
            match scores.decide(Some(WIN_RULE), Some(DRAW_RULE), ply) {
                Some(Decision::Win(c)) => break (Some(c), Ending::WinAdjudicated),
                Some(Decision::Draw) => break (None, Ending::DrawAdjudicated),
                None => {}
            }
            session
                .play(&best, Notation::Uci)
                .map_err(|e| format!("the search's move was refused: {e}"))?;
            ply += 1;
        };
        let mut bytes = Vec::with_capacity(kept.len() * 80);
        let last = kept.len().saturating_sub(1);
        for (i, (fen, score, side)) in kept.iter().enumerate() {
            let result = match winner {
                None => GameResult::Draw,
                Some(c) if c == *side => GameResult::Win,
                Some(_) => GameResult::Loss,
            };
            Record {
                fen: fen.clone(),
                score: *score,
                result,
                game: index,
                game_end: i == last,
            }
            .encode_into(&mut bytes)
            .map_err(|e| e.to_string())?;
        }
        Ok(Some(GameOut {
            bytes,
            positions: kept.len() as u64,
            ending,
        }))
    }
}
