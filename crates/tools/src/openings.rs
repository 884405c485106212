//! Openings for matches: read from EPD and PGN files, or made: random play from the start
//! position for a fixed number of plies, kept only when a fixed-depth search finds the
//! position roughly level.
//!
//! Cute Chess cannot referee our games and there are no published opening books for most of
//! them, so engine matches need a way to start from many different, fair positions. Each
//! position is written as an EPD line (the FEN), ready for `cannonade match -openings file=F
//! format=epd` with `-repeat`, so every position is played once with each colour.

use crate::epd::parse::split_line;
use cannonade_core::board::zobrist::SplitMix64;
use cannonade_core::engine::registry::VariantInfo;
use cannonade_core::engine::Session;
use cannonade_core::games::{GameError, Notation};
use cannonade_core::pgn::read_games;
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

/// A game start read from an opening file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// `None` for the variant's start position.
    pub fen: Option<String>,
    /// Moves in UCI notation.
    pub moves: Vec<String>,
}

/// Why an opening file was refused. Lines and games are counted from 1.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// A line of an EPD file that is no position of the variant.
    #[error("line {line}: not a {variant} position")]
    NotAPosition { line: usize, variant: &'static str },
    /// A game of a PGN file (its tags or movetext start on `line`) whose start position or a
    /// move the variant refuses.
    #[error("game {game}: {error}")]
    Game {
        game: usize,
        line: usize,
        error: GameError,
    },
}

/// Reads an EPD file: one position per line (the variant's FEN, as the game writes it),
/// where the position ends as `cannonade epd` finds it; operations after it are ignored.
pub fn read_epd(text: &str, variant: &'static VariantInfo) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut session = variant.new_session();
        let mut read = |fen: &str| {
            session
                .set_position(Some(fen), &[], Notation::Uci)
                .map_err(|e| e.to_string())
        };
        let split = split_line(line, &mut read);
        match split {
            Ok(_) => out.push(Opening {
                fen: Some(session.fen()),
                moves: Vec::new(),
            }),
            Err(_) => {
                return Err(OpeningError::NotAPosition {
                    line: n + 1,
                    variant: variant.game.name,
                })
            }
        }
    }
    Ok(out)
}

/// Reads the games of a PGN file as openings: the FEN tag, then at most `plies` moves (in any
/// form the core's PGN reader reads), skipping comments, variations, NAGs and move numbers.
pub fn read_pgn(
    text: &str,
    variant: &'static VariantInfo,
    plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningError> {
    read_games(text)
        .into_iter()
        .map(|g| {
            let fen = g.tag("FEN").map(str::to_string);
            g.moves(variant.new_session().as_ref(), plies)
                .map(|moves| Opening { fen, moves })
                .map_err(|error| OpeningError::Game {
                    game: g.number,
                    line: g.line,
                    error,
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {

    #[test]
    fn pgn_openings_read_san_and_stop_at_plies() {
        let chess = find("chess").unwrap();
        let text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n[Event \"y\"]\n\
                    [FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. O-O-O+ Kf7 *\n";
        let o = read_pgn(text, chess, Some(4)).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves, vec!["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(o[0].fen, None);
        assert_eq!(o[1].moves, vec!["e1c1", "e8f7"]);
        // A bad move names its game, the line the game starts on, and the position.
        let text = "[Event \"x\"]\n\n1. e4 e5 *\n\n[Event \"y\"]\n\n1. e4 e4 *\n";
        let e = read_pgn(text, chess, None).unwrap_err();
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert!(
            matches!(
                e,
                OpeningError::Game {
                    game: 2,
                    line: 5,
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!("game 2: 'e4' is not a legal move in {after_e4}")
        );
    }

    /// An EPD line's position ends where `cannonade epd` ends it: an en-passant square is
    /// not an opcode, and operations after the position are dropped.
    #[test]
    fn epd_lines_drop_operations() {
        let chess = find("chess").unwrap();
        let o = read_epd(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; id \"a\";\n\
             # a comment\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"start\";\n",
            chess,
        )
        .unwrap();
        assert_eq!(
            o[0].fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_eq!(o.len(), 3);
        assert_eq!(o[1].fen, o[2].fen);
        assert_eq!(
            read_epd("\nnot a position\n", chess),
            Err(OpeningError::NotAPosition {
                line: 2,
                variant: "chess"
            })
        );
    }
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
