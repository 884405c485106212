//! PGN: writing finished games (seven tag roster, variant and start tags, cutechess-style move
//! comments) and reading openings from EPD and PGN files.

use super::game::GameRecord;
use super::process::Score;
use crate::pgn::{read_games, wrap_tokens};
use cannonade_core::engine::registry::VariantInfo;
use cannonade_core::games::{GameError, Notation};
use std::fmt::Write as _;
use std::time::{Duration, SystemTime};

/// What the PGN header needs besides the game itself.
pub struct PgnContext<'a> {
    pub event: &'a str,
    pub site: &'a str,
    pub date: &'a str,
    pub round: u32,
    pub variant: &'static VariantInfo,
    pub time_control: String,
    /// When the game started and how long it took: the `GameStartTime`, `GameEndTime` and
    /// `GameDuration` tags (cutechess-cli's), left out when `None`.
    pub times: Option<(SystemTime, Duration)>,
}

/// `2026-11-21T14:03:27.512 UTC`: a time as cutechess-cli writes `GameStartTime`.
pub fn pgn_timestamp(t: SystemTime) -> String {
    let since = t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let (y, m, d) = super::tournament::civil_date(t);
    let s = since.as_secs() % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03} UTC",
        s / 3600,
        s / 60 % 60,
        s % 60,
        since.subsec_millis()
    )
}

/// `01:02:03`: a duration as hours, minutes and whole seconds (`GameDuration`).
pub fn pgn_duration(d: Duration) -> String {
    let s = d.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// A tag value with PGN's escapes.
fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `{+0.31/12 0.53s}` as cutechess writes it; mates as `+M5`.
fn comment(score: Option<Score>, depth: Option<u32>, secs: f64) -> String {
    let mut c = String::new();
    if let Some(s) = score {
        match s {
            Score::Cp(cp) => {
                let _ = write!(c, "{:+.2}", cp as f64 / 100.0);
            }
            Score::Mate(m) => {
                let _ = write!(c, "{}M{}", if m > 0 { '+' } else { '-' }, m.abs());
            }
        }
        let _ = write!(c, "/{}", depth.unwrap_or(0));
        c.push(' ');
    }
    let _ = write!(c, "{}s", format_secs(secs));
    c
}

fn format_secs(secs: f64) -> String {
    if secs >= 10.0 {
        format!("{secs:.1}")
    } else {
        format!("{secs:.3}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// The whole game as PGN text, ending with an empty line.
pub fn write_game(ctx: &PgnContext, g: &GameRecord) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", quote(value));
    };
    tag("Event", ctx.event);
    tag("Site", ctx.site);
    tag("Date", ctx.date);
    tag("Round", &ctx.round.to_string());
    tag("White", &g.white);
    tag("Black", &g.black);
    tag("Result", g.result.pgn());
    if !ctx.variant.standard {
        tag("Variant", ctx.variant.game.name);
    }
    if let Some(fen) = &g.start_fen {
        tag("FEN", fen);
        tag("SetUp", "1");
    }
    if let Some((start, duration)) = ctx.times {
        tag("GameStartTime", &pgn_timestamp(start));
        tag("GameEndTime", &pgn_timestamp(start + duration));
        tag("GameDuration", &pgn_duration(duration));
    }
    tag("PlyCount", &g.moves.len().to_string());
    tag("TimeControl", &ctx.time_control);
    tag("Termination", g.termination.pgn());
    out.push('\n');

    // Move numbers follow the start position's side to move and full-move number.
    let (mut number, mut black_to_move) = start_move_number(g.start_fen.as_deref());
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in g.moves.iter().enumerate() {
        if !black_to_move {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.text.pgn.clone());
        if m.book {
            tokens.push("{book}".to_string());
        } else {
            tokens.push(format!(
                "{{{}}}",
                comment(m.score, m.depth, m.time.as_secs_f64())
            ));
        }
        if black_to_move {
            number += 1;
        }
        black_to_move = !black_to_move;
    }
    if !g.reason.is_empty() {
        tokens.push(format!("{{{}}}", g.reason.replace('}', ")")));
    }
    tokens.push(g.result.pgn().to_string());
    out += &wrap_tokens(&tokens);
    out += "\n\n";
    out
}

/// Full-move number and "black to move" of a FEN's last two fields (1 and white by default).
/// Games whose FEN has no such fields start at move 1 with white.
fn start_move_number(fen: Option<&str>) -> (u32, bool) {
    let Some(fen) = fen else { return (1, false) };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let black = fields.get(1).is_some_and(|s| *s == "b");
    let number = fields
        .last()
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|_| fields.len() >= 6)
        .unwrap_or(1)
        .max(1);
    (number, black)
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

/// Reads an EPD file: one position per line; operations after the fields are ignored.
pub fn read_epd(text: &str, variant: &'static VariantInfo) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line
            .split(';')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        // Try the most fields that form a position the game accepts (EPD has four for chess,
        // followed by operations such as `bm Nf3` or `id "x"`).
        let mut found = None;
        for k in (1..=fields.len().min(8)).rev() {
            let fen = fields[..k].join(" ");
            let mut s = variant.new_session();
            if s.set_position(Some(&fen), &[], Notation::Uci).is_ok() {
                found = Some(s.fen());
                break;
            }
        }
        match found {
            Some(fen) => out.push(Opening {
                fen: Some(fen),
                moves: Vec::new(),
            }),
            None => {
                return Err(OpeningError::NotAPosition {
                    line: n + 1,
                    variant: variant.game.name,
                })
            }
        }
    }
    Ok(out)
}

/// Reads the games of a PGN file as openings: the FEN tag, then at most `plies` moves (SAN or
/// coordinates), skipping comments, variations, NAGs and move numbers.
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
    use super::*;
    use cannonade_core::engine::registry;
    use cannonade_core::games::MoveError;

    #[test]
    fn game_times_are_written_as_cutechess_does() {
        // 2021-03-04 05:06:07.089 UTC.
        let t = std::time::UNIX_EPOCH + Duration::from_millis(1_614_834_367_089);
        assert_eq!(pgn_timestamp(t), "2021-03-04T05:06:07.089 UTC");
        assert_eq!(pgn_duration(Duration::from_millis(3_723_999)), "01:02:03");
        assert_eq!(pgn_duration(Duration::from_millis(59_500)), "00:00:59");
    }

    #[test]
    fn pgn_openings_read_san_and_stop_at_plies() {
        let chess = registry::find("chess").unwrap();
        let text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n[Event \"y\"]\n\
                    [FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. O-O-O+ Kf7 *\n";
        let o = read_pgn(text, chess, Some(4)).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves, vec!["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(o[0].fen, None);
        assert_eq!(o[1].moves, vec!["e1c1", "e8f7"]);
        assert!(read_pgn("1. e4 e4 *", chess, None).is_err());
        // A bad move names its game, the line the game starts on, and the position.
        let text = "[Event \"x\"]\n\n1. e4 e5 *\n\n[Event \"y\"]\n\n1. e4 e4 *\n";
        let e = read_pgn(text, chess, None).unwrap_err();
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(
            e,
            OpeningError::Game {
                game: 2,
                line: 5,
                error: GameError::IllegalMove(MoveError {
                    text: "e4".to_string(),
                    fen: after_e4.to_string(),
                    index: None,
                }),
            }
        );
        assert_eq!(
            e.to_string(),
            format!("game 2: 'e4' is not a legal move in {after_e4}")
        );
    }

    #[test]
    fn cannon_pgn_moves_read_back_in_xboards_ranks() {
        // What `cannonade match` writes for Whitcher's Cannon (XBoard's 0-based ranks) reads
        // back as the same moves, also with the `#` XBoard adds.
        let cannon = registry::find("cannon").unwrap();
        let o = read_pgn("1. T@b0 T@c9# 2. Se1d2 *", cannon, None).unwrap();
        assert_eq!(o[0].moves, vec!["T@b1", "T@c10", "e2d3"]);
    }

    #[test]
    fn cannon_pgn_from_xboard_reads_back() {
        // XBoard's own PGN of a player's Cannon game (scripts/xboard_smoke.sh): origins only as
        // far as XBoard's one-step soldier needs them, and `#` on every move.
        let cannon = registry::find("cannon").unwrap();
        let o = read_pgn(
            "1. T@b0# T@c9# 2. Sa4# Sfe5# 3. Se3xe5-e3# Sb5# 4. Se4# Sxa4# *",
            cannon,
            None,
        )
        .unwrap();
        assert_eq!(
            o[0].moves,
            vec!["T@b1", "T@c10", "a4a5", "f7e6", "e4e6", "b7b6", "e4e5", "b6a5"]
        );
        // The file of the origin (a1 or c1 could step to b2), and cannon shifts, which
        // XBoard's soldier cannot make, written in full.
        let o = read_pgn("1. T@b0 T@c9 2. Sab2 Sd8d5 3. Sc1c4 *", cannon, None).unwrap();
        assert_eq!(o[0].moves, vec!["T@b1", "T@c10", "a2b3", "d9d6", "c2c5"]);
        // Too little of the origin for one step: c1 or e1 to d2.
        assert!(read_pgn("1. T@b0 T@c9 2. Sd2 *", cannon, None).is_err());
    }

    #[test]
    fn epd_lines_drop_operations() {
        let chess = registry::find("chess").unwrap();
        let o = read_epd(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"a\";\n",
            chess,
        )
        .unwrap();
        assert_eq!(
            o[0].fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert!(read_epd("not a position\n", chess).is_err());
    }
}
