//! One refereed game: the runner keeps the position with the game's own rules (through the
//! `Session` facade), asks each engine in turn, keeps the clocks and decides every ending.
//! What engines claim about the result is never read; only a resignation counts.

use super::args::{DrawAdjudication, EngineSpec, ResignAdjudication, DEFAULT_MARGIN};
use super::process::{EngineProcess, Failure, MoveRequest, Score};
use crate::adjudicate::{Decision, DrawRule, ResignRule, Scores};
use cannonade_core::board::Color;
use cannonade_core::engine::options::OptionError;
use cannonade_core::engine::registry::VariantInfo;
use cannonade_core::engine::EngineState;
use cannonade_core::engine::{MoveText, Session};
use cannonade_core::games::{EndReason, Notation, Outcome};
use cannonade_core::pgn::find_san;
use std::time::Duration;

/// The result of a game, as PGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// PGN's `Termination` values for the ways a game here ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    Normal,
    Adjudication,
    TimeForfeit,
    RulesInfraction,
    Abandoned,
}

impl Termination {
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
        }
    }
}

/// One move of the record.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub text: MoveText,
    /// `None` for opening (book) moves.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub time: Duration,
    pub book: bool,
}

/// Everything PGN and the statistics need about a finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub white: String,
    pub black: String,
    /// The start FEN when it is not the variant's own start.
    pub start_fen: Option<String>,
    pub moves: Vec<PlayedMove>,
    pub result: GameResult,
    /// A sentence in cutechess's style: "White mates", "Black loses on time", ...
    pub reason: String,
    pub termination: Termination,
    /// Which engines (by index) must be restarted before their next game.
    pub broken: Vec<usize>,
}

/// How the game starts and who plays it.
pub struct GameSetup<'a> {
    pub variant: &'static VariantInfo,
    /// The rule switches the referee plays by, `NAME=VALUE`.
    pub rules: &'a [String],
    pub start_fen: Option<String>,
    /// Opening moves in UCI notation, played before the engines take over.
    pub opening: &'a [String],
    /// Engine indices of white and black.
    pub players: [usize; 2],
    pub specs: [&'a EngineSpec; 2],
    pub draw: Option<DrawAdjudication>,
    pub resign: Option<ResignAdjudication>,
    pub maxmoves: u32,
    pub stall: Duration,
}

/// The referee's game at its start: `variant` with the match's rule switches, set through the
/// engine's option table as an engine sets them.
pub fn referee(
    variant: &'static VariantInfo,
    rules: &[String],
) -> Result<Box<dyn Session>, OptionError> {
    Ok(EngineState::for_tool(variant, rules)?
        .session()
        .clone_session())
}

/// One side's clock.
struct Clock {
    remaining: Option<Duration>,
    moves_left: Option<u32>,
}

/// Reads a move string from an engine: its own notation first, and for XBoard engines also SAN
/// (the protocol lets engines send it).
fn read_move(session: &dyn Session, mv: &str, notation: Notation) -> Option<MoveText> {
    if let Ok(t) = session.move_text(mv, notation) {
        return Some(t);
    }
    if notation == Notation::XBoard {
        // XBoard's mark of a declined shogi promotion (`a8a9=`, as XBoard and Cannonade send it).
        if let Some(t) = mv
            .strip_suffix('=')
            .and_then(|m| session.move_text(m, notation).ok())
        {
            return Some(t);
        }
        return find_san(session, mv).and_then(|m| session.move_text(&m, Notation::Uci).ok());
    }
    None
}

fn side_name(c: Color) -> &'static str {
    c.name()
}

/// The sentence for an ending the game's rules decided.
fn rule_reason(outcome: Outcome, side_to_move: Color) -> String {
    match outcome.winner(side_to_move) {
        Some(winner) if outcome.reason() != EndReason::Checkmate => format!(
            "{} wins: {}",
            side_name(winner),
            outcome.describe(side_to_move)
        ),
        _ => outcome.comment(side_to_move),
    }
}

/// Runs one game. `engines` holds the two running engines (white, black); an engine that fails
/// is reported in `GameRecord::broken` so the caller restarts it.
pub fn play_game(setup: &GameSetup, engines: [&mut EngineProcess; 2]) -> GameRecord {
    let [white, black] = engines;
    let mut engines = [white, black];
    let mut record = GameRecord {
        white: engines[0].name.clone(),
        black: engines[1].name.clone(),
        start_fen: setup.start_fen.clone(),
        moves: Vec::new(),
        result: GameResult::Draw,
        reason: String::new(),
        termination: Termination::Normal,
        broken: Vec::new(),
    };
    let mut session = match referee(setup.variant, setup.rules) {
        Ok(s) => s,
        Err(e) => {
            record.reason = format!("bad rule switch: {e}");
            record.termination = Termination::Abandoned;
            return record;
        }
    };
    if let Err(e) = session.set_position(setup.start_fen.as_deref(), &[], Notation::Uci) {
        record.reason = format!("bad start position: {e}");
        record.termination = Termination::Abandoned;
        return record;
    }
    let start_fen = setup.start_fen.as_deref();
    // The opening: moves from the book, written into the record like any other.
    for mv in setup.opening {
        match session.move_text(mv, Notation::Uci) {
            Ok(t) => {
                session
                    .play(&t.uci, Notation::Uci)
                    .expect("legal opening move");
                record.moves.push(PlayedMove {
                    text: t,
                    score: None,
                    depth: None,
                    time: Duration::ZERO,
                    book: true,
                });
            }
            Err(e) => {
                record.reason = format!("bad opening: {e}");
                record.termination = Termination::Abandoned;
                return record;
            }
        }
    }
    // Both engines are told about the new game; one that cannot start it loses.
    for (i, c) in [Color::White, Color::Black].into_iter().enumerate() {
        if let Err(f) = engines[i].new_game(setup.variant, start_fen) {
            record.broken.push(setup.players[i]);
            record.result = GameResult::win_for(!c);
            record.reason = format!("{} could not start the game: {f}", c.name());
            record.termination = Termination::Abandoned;
            return record;
        }
    }
    let mut clocks: Vec<Clock> = setup
        .specs
        .iter()
        .map(|s| Clock {
            remaining: s.tc.and_then(|tc| tc.base),
            moves_left: s.tc.and_then(|tc| tc.moves),
        })
        .collect();
    // Scores of each side's moves, for adjudication.
    let mut scores = Scores::default();
    let resign = setup.resign.map(|r| ResignRule {
        count: r.movecount as usize,
        cp: r.score,
        two_sided: r.twosided,
    });
    // As cutechess counts: full moves are completed pairs of plies.
    let draw = setup.draw.map(|d| DrawRule {
        from_ply: 2 * d.movenumber as usize,
        count: d.movecount as usize,
        cp: d.score,
    });
    let moves_from_start = record.moves.len();
    // The loop ends with the game's result, the sentence that says why and the termination.
    let (result, reason, termination) = loop {
        let side = session.side_to_move();
        if let Some(o) = session.outcome() {
            let result = match o.winner(side) {
                Some(Color::White) => GameResult::WhiteWins,
                Some(Color::Black) => GameResult::BlackWins,
                None => GameResult::Draw,
            };
            break (result, rule_reason(o, side), Termination::Normal);
        }
        let plies = record.moves.len();
        if setup.maxmoves > 0 && plies - moves_from_start >= 2 * setup.maxmoves as usize {
            break (
                GameResult::Draw,
                "Draw by move limit".into(),
                Termination::Adjudication,
            );
        }
        let i = side.index();
        let spec = setup.specs[i];
        let notation = engines[i].notation();
        let moves: Vec<String> = record
            .moves
            .iter()
            .map(|m| m.text.in_notation(notation).to_string())
            .collect();
        let tc = spec.tc;
        let margin = spec.timemargin.unwrap_or(DEFAULT_MARGIN);
        let clock_time = clocks[i].remaining;
        let mut deadline = setup.stall;
        if let Some(t) = clock_time {
            deadline = deadline.min(t + margin);
        }
        if let Some(st) = spec.st {
            deadline = deadline.min(st + margin);
        }
        // The other side's clock as the engine should see it.
        let w = clocks[0].remaining.or(clock_time);
        let b = clocks[1].remaining.or(clock_time);
        let req = MoveRequest {
            start_fen,
            moves: &moves,
            engine_is_white: side == Color::White,
            wtime: clock_time.and(w),
            btime: clock_time.and(b),
            inc: tc.map_or(Duration::ZERO, |t| t.increment),
            movestogo: clocks[i].moves_left,
            deadline,
        };
        let name = side.name();
        let reply = match engines[i].go(&req) {
            Ok(r) => r,
            Err(f) => {
                record.broken.push(setup.players[i]);
                let (reason, term) = match f {
                    Failure::Timeout if clock_time.is_some() || spec.st.is_some() => {
                        (format!("{name} loses on time"), Termination::TimeForfeit)
                    }
                    Failure::Timeout => (
                        format!("{name}'s connection stalls"),
                        Termination::Abandoned,
                    ),
                    Failure::Disconnected => {
                        (format!("{name} disconnects"), Termination::Abandoned)
                    }
                    Failure::Refused(why) => (format!("{name}: {why}"), Termination::Abandoned),
                };
                break (GameResult::win_for(!side), reason, term);
            }
        };
        let over_time = clock_time.is_some_and(|t| reply.elapsed > t + margin)
            || spec.st.is_some_and(|st| reply.elapsed > st + margin);
        if over_time {
            break (
                GameResult::win_for(!side),
                format!("{name} loses on time"),
                Termination::TimeForfeit,
            );
        }
        let Some(mv) = reply.mv else {
            break (
                GameResult::win_for(!side),
                format!("{name} resigns"),
                Termination::Normal,
            );
        };
        let Some(text) = read_move(session.as_ref(), &mv, notation) else {
            // The engine's idea of the position is not the referee's: restart it.
            record.broken.push(setup.players[i]);
            break (
                GameResult::win_for(!side),
                format!("{name} makes an illegal move: {mv}"),
                Termination::RulesInfraction,
            );
        };
        session
            .play(&text.uci, Notation::Uci)
            .expect("move_text gave a legal move");
        // The clock: time used, then increment; a new period after its moves.
        if let (Some(t), Some(tc)) = (clock_time, tc) {
            let mut left = t.saturating_sub(reply.elapsed) + tc.increment;
            let mut moves_left = clocks[i].moves_left;
            if let Some(m) = moves_left {
                if m <= 1 {
                    left += tc.base.unwrap_or_default();
                    moves_left = tc.moves;
                } else {
                    moves_left = Some(m - 1);
                }
            }
            clocks[i] = Clock {
                remaining: Some(left),
                moves_left,
            };
        }
        record.moves.push(PlayedMove {
            text,
            score: reply.score,
            depth: reply.depth,
            time: reply.elapsed,
            book: false,
        });
        scores.push(side, reply.score.map(Score::centipawns));
        if let Some(decision) = scores.decide(resign, draw, record.moves.len()) {
            let (result, reason) = match decision {
                Decision::Win(c) => (
                    GameResult::win_for(c),
                    format!("{} wins by adjudication", c.name()),
                ),
                Decision::Draw => (GameResult::Draw, "Draw by adjudication".to_string()),
            };
            break (result, reason, Termination::Adjudication);
        }
    };
    record.result = result;
    record.reason = reason;
    record.termination = termination;
    for e in engines.iter_mut() {
        e.game_over(record.result.pgn(), &record.reason);
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::engine::registry;

    #[test]
    fn engine_moves_are_read_in_their_notation_and_xboard_san_is_accepted() {
        let at = |variant: &str, fen: &str| {
            let mut s = registry::find(variant).unwrap().new_session();
            s.set_position(Some(fen), &[], Notation::Uci).unwrap();
            s
        };
        let chess = at("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let t = read_move(chess.as_ref(), "e1g1", Notation::Uci).unwrap();
        assert_eq!((t.uci.as_str(), t.pgn.as_str()), ("e1g1", "O-O"));
        let shogi = at("cannonshogi", "4k4/P8/9/9/9/9/9/9/4K4[] w - - 0 1");
        let (uci, xboard) = (Notation::Uci, Notation::XBoard);
        for (s, sent, notation, read) in [
            // XBoard engines may send SAN, with check marks and zeros for castling.
            (&chess, "O-O", xboard, Some("e1g1")),
            (&chess, "0-0", xboard, Some("e1g1")),
            (&chess, "O-O+", xboard, Some("e1g1")),
            (&chess, "Rxa8+", xboard, Some("a1a8")),
            // A declined shogi promotion in XBoard's form.
            (&shogi, "a8a9=", xboard, Some("a8a9")),
            (&shogi, "a8a9+", xboard, Some("a8a9+")),
            // UCI engines get no such leniency, and nonsense is refused by both.
            (&shogi, "a8a9=", uci, None),
            (&chess, "O-O", uci, None),
            (&chess, "a1a1", xboard, None),
            (&chess, "", xboard, None),
        ] {
            let got = read_move(s.as_ref(), sent, notation).map(|t| t.uci);
            assert_eq!(got.as_deref(), read, "{sent} {notation:?}");
        }
    }

    #[test]
    fn rule_endings_are_worded_for_the_winner() {
        assert_eq!(
            rule_reason(Outcome::Loss(EndReason::Checkmate), Color::Black),
            "White mates"
        );
        assert_eq!(
            rule_reason(Outcome::Loss(EndReason::TownTaken), Color::White),
            "Black wins: White's town is taken"
        );
        assert_eq!(
            rule_reason(Outcome::Draw(EndReason::Stalemate), Color::White),
            "Draw by stalemate"
        );
    }
}
