//! PGN for the page, through the core's reader and writer (`cannonade_core::pgn`): a game
//! written as `cannonade match` writes its games, and every game of a PGN text read as
//! `cannonade analyse` reads them (XBoard's saved games, pychess-variants' exports and the
//! match runner's own files included).

use crate::rules::{RulesError, RulesGame};
use cannonade_core::engine::registry::{self, VariantInfo};
use cannonade_core::pgn::{read_games, write_game, BlackNumbers, Movetext};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// The tags the page gives a game, in its order: names as PGN spells them (letters, digits
/// and `_`), values as text on one line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers(Vec<(String, String)>);

impl Headers {
    /// Headers from the page's JSON: an object whose values are strings (or numbers, written
    /// as JSON writes them); `null` or nothing is none.
    pub fn from_json(value: &serde_json::Value) -> Result<Headers, RulesError> {
        let bad = |m: String| RulesError::Headers(m);
        let object = match value {
            serde_json::Value::Null => return Ok(Headers::default()),
            serde_json::Value::Object(o) => o,
            _ => return Err(bad("not an object of tag names and values".into())),
        };
        let mut out = Vec::with_capacity(object.len());
        for (name, v) in object {
            let is_symbol = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !is_symbol {
                return Err(bad(format!(
                    "'{name}' is not a tag name (letters, digits and _)"
                )));
            }
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => return Err(bad(format!("the value of {name} is not a string"))),
            };
            // A tag is one line of the file: a line break would end it.
            let text: String = text
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            out.push((name.clone(), text));
        }
        Ok(Headers(out))
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The result the headers give (`Result`), which must be one PGN knows.
    pub fn result(&self) -> Result<Option<&str>, RulesError> {
        match self.get("Result") {
            None => Ok(None),
            Some(r @ ("1-0" | "0-1" | "1/2-1/2" | "*")) => Ok(Some(r)),
            Some(r) => Err(RulesError::Headers(format!(
                "the result '{r}' is none of 1-0, 0-1, 1/2-1/2 and *"
            ))),
        }
    }
}

/// PGN's seven tag roster, with the values a tag nobody gave gets.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The tags the writer decides itself from the game: the page's values for them are not used.
const GAME_TAGS: [&str; 3] = ["Variant", "FEN", "SetUp"];

/// The tags of a game of `info` started from `start_fen` that ended with `result`, as
/// `cannonade match` orders them: the seven tag roster (the headers' values where given),
/// `Variant` for a game other than chess, `FEN` and `SetUp` for a set-up start, then the
/// headers' other tags in their order.
pub fn tags(
    info: &VariantInfo,
    start_fen: Option<&str>,
    headers: &Headers,
    result: &str,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = ROSTER
        .iter()
        .map(|&(name, default)| {
            let value = match name {
                "Result" => result,
                _ => headers.get(name).unwrap_or(default),
            };
            (name.to_string(), value.to_string())
        })
        .collect();
    if !info.standard {
        out.push(("Variant".into(), info.game.name.into()));
    }
    if let Some(fen) = start_fen {
        out.push(("FEN".into(), fen.into()));
        out.push(("SetUp".into(), "1".into()));
    }
    out.extend(
        headers
            .0
            .iter()
            .filter(|(n, _)| {
                !ROSTER.iter().any(|(r, _)| r == n) && !GAME_TAGS.contains(&n.as_str())
            })
            .cloned(),
    );
    out
}

/// The game's result: the headers' (a resignation, a flag fall), else the game's own end,
/// else `*`.
pub fn result_of(game: &RulesGame, headers: &Headers) -> Result<String, RulesError> {
    Ok(match headers.result()? {
        Some(r) => r.to_string(),
        None => game
            .outcome()
            .map_or_else(|| "*".to_string(), |o| o.result.to_string()),
    })
}

/// `game` as PGN text (ending with an empty line): its tags ([`tags`]), its moves in the
/// game's notation with their numbers, a comment saying how the game ended where it ended by
/// its rules (`{White mates}`), and the result.
pub fn write(game: &RulesGame, headers: &Headers) -> Result<String, RulesError> {
    let result = result_of(game, headers)?;
    let tags = tags(game.info(), game.start_fen(), headers, &result);
    let mut text = Movetext::from_fen(game.start_fen(), BlackNumbers::AtStart);
    for san in game.sans() {
        text.push_move(san);
    }
    if let Some(o) = game.outcome() {
        text.comment(&o.text);
    }
    Ok(write_game(&tags, &text.finish(&result)))
}

/// One game of a PGN text, read.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PgnGameJson {
    /// Its number in the text, from 1, and the line it starts on, from 1.
    pub number: usize,
    pub line: usize,
    /// The variant's engine name.
    pub variant: &'static str,
    /// Its tags, in the file's order.
    pub headers: Tags,
    /// Its `FEN` tag, or null for the variant's start position.
    pub start_fen: Option<String>,
    /// Its moves, UCI strings as the engine writes them.
    pub moves: Vec<String>,
    /// The result written at the end of its moves, else its `Result` tag, else `*`.
    pub result: String,
}

/// Tags serialised as a JSON object in their order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tags(pub Vec<(String, String)>);

impl Serialize for Tags {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// Every game of `text`, each of the variant its `Variant` tag names (else `default`, else
/// chess), its moves read by the core's reader. The first game that cannot be read is the
/// error, naming the game, its line, and the move and position it stopped at.
pub fn read(text: &str, default: Option<&str>) -> Result<Vec<PgnGameJson>, RulesError> {
    let default = match default {
        Some(name) => {
            registry::find(name).ok_or_else(|| RulesError::UnknownVariant(name.into()))?
        }
        None => registry::find("chess").expect("chess is registered"),
    };
    read_games(text)
        .into_iter()
        .map(|raw| {
            let refuse = |reason: RulesError| RulesError::Pgn {
                number: raw.number,
                line: raw.line,
                reason: Box::new(reason),
            };
            let info = match raw.tag("Variant") {
                Some(name) => registry::find(name)
                    .ok_or_else(|| refuse(RulesError::UnknownVariant(name.into())))?,
                None => default,
            };
            let start = info.new_session();
            let moves = raw
                .moves(start.as_ref(), None)
                .map_err(|e| refuse(e.into()))?;
            Ok(PgnGameJson {
                number: raw.number,
                line: raw.line,
                variant: info.game.name,
                start_fen: raw.tag("FEN").map(str::to_string),
                result: raw.result().to_string(),
                moves,
                headers: Tags(raw.tags),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn test_data(path: &str) -> String {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../core/tests/data/pgn/");
        std::fs::read_to_string(format!("{file}{path}")).unwrap()
    }

    #[test]
    fn a_game_is_written_with_the_roster_its_variant_start_and_end() {
        let mut g = RulesGame::new("chess", None).unwrap();
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            g.play(m).unwrap();
        }
        let pgn = g
            .pgn(&json!({"White": "You", "Black": "Cannonade", "Round": 3, "Opening": "Fool's"}))
            .unwrap();
        assert_eq!(
            pgn,
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"3\"]\n\
             [White \"You\"]\n[Black \"Cannonade\"]\n[Result \"0-1\"]\n[Opening \"Fool's\"]\n\n\
             1. f3 e5 2. g4 Qh4# {Black mates} 0-1\n\n"
        );
        // A set-up start with Black to move, in a variant: its tags and Black's number.
        let fen = "nrbckqcbrn/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/NRBCKQCBRN b KQkq - 0 7";
        let mut g = RulesGame::new("cannonrider", Some(fen)).unwrap();
        let san = g.play("a8b6").unwrap().san;
        let pgn = g
            .pgn(&json!({"Result": "1/2-1/2", "Variant": "chess", "FEN": "x"}))
            .unwrap();
        let want = format!(
            "[Result \"1/2-1/2\"]\n[Variant \"cannonrider\"]\n[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n\
             7... {san} 1/2-1/2\n\n"
        );
        assert!(pgn.ends_with(&want), "{pgn}");
    }

    #[test]
    fn bad_headers_are_refused() {
        let g = RulesGame::new("chess", None).unwrap();
        for (headers, message) in [
            (
                json!(["White"]),
                "PGN headers: not an object of tag names and values",
            ),
            (
                json!({"White": true}),
                "PGN headers: the value of White is not a string",
            ),
            (
                json!({"Bad Name": "x"}),
                "PGN headers: 'Bad Name' is not a tag name (letters, digits and _)",
            ),
            (
                json!({"Result": "2-0"}),
                "PGN headers: the result '2-0' is none of 1-0, 0-1, 1/2-1/2 and *",
            ),
        ] {
            assert_eq!(g.pgn(&headers).unwrap_err().to_string(), message);
        }
        // A line break cannot end a tag early.
        let pgn = g.pgn(&json!({"Event": "a\n[Result \"1-0\"]"})).unwrap();
        assert!(
            pgn.starts_with("[Event \"a [Result \\\"1-0\\\"]\"]\n"),
            "{pgn}"
        );
    }

    /// What the writer writes, the reader reads back: every variant, from its start and from a
    /// set-up position.
    #[test]
    fn written_games_read_back() {
        for v in registry::VARIANTS {
            let mut g = RulesGame::new(v.game.name, None).unwrap();
            for i in 0..40 {
                let legal = g.legal_moves();
                if legal.is_empty() || g.outcome().is_some() {
                    break;
                }
                g.play(&legal[(i * 7 + 3) % legal.len()].uci).unwrap();
            }
            let text = g.pgn(&serde_json::Value::Null).unwrap();
            let games = read(&text, None).unwrap();
            assert_eq!(games.len(), 1, "{text}");
            assert_eq!(games[0].variant, v.game.name, "{text}");
            assert_eq!(games[0].moves, g.moves(), "{text}");
            assert_eq!(games[0].start_fen, None);
            let fen = g.fen();
            let mut again = RulesGame::new(v.game.name, Some(&fen)).unwrap();
            if let Some(m) = again.legal_moves().first() {
                let m = m.uci.clone();
                again.play(&m).unwrap();
            }
            let text = again.pgn(&serde_json::Value::Null).unwrap();
            let back = &read(&text, None).unwrap()[0];
            assert_eq!(back.start_fen.as_deref(), Some(fen.as_str()), "{text}");
            assert_eq!(back.moves, again.moves(), "{text}");
        }
    }

    /// The files players have: XBoard 4.9.1's saved games of every variant, pychess-variants'
    /// Cannon Shogi export, `cannonade match`'s games; each reads to the position the engine
    /// had at its end.
    #[test]
    fn players_files_read_to_their_last_positions() {
        let mut names: Vec<String> = Vec::new();
        for dir in ["xboard", "pychess", "match"] {
            let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../core/tests/data/pgn/");
            for entry in std::fs::read_dir(format!("{folder}{dir}")).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "pgn") {
                    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
                    names.push(format!("{dir}/{name}"));
                }
            }
        }
        assert_eq!(names.len(), 16 + 1 + 3);
        for name in names {
            let games = read(&test_data(&format!("{name}.pgn")), None)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let g = &games[0];
            let mut end = RulesGame::new(g.variant, g.start_fen.as_deref()).unwrap();
            for m in &g.moves {
                end.play(m).unwrap();
            }
            let fen = test_data(&format!("{name}.fen"));
            assert_eq!(end.fen(), fen.trim(), "{name}");
            assert_eq!(
                g.headers.0.first().map(|t| t.0.as_str()),
                Some("Event"),
                "{name}"
            );
        }
    }

    #[test]
    fn a_game_that_does_not_read_is_named() {
        let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e4 *\n";
        assert_eq!(
            read(text, None).unwrap_err().to_string(),
            "game 2 (line 5): 'e4' is not a legal move in \
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(
            read("[Variant \"nosuch\"]\n\n1. e4 *\n", None)
                .unwrap_err()
                .to_string(),
            "game 1 (line 1): unknown variant 'nosuch' (see `cannonade variants`)"
        );
        assert_eq!(
            read("1. e4 *", Some("nosuch")).unwrap_err().to_string(),
            "unknown variant 'nosuch' (see `cannonade variants`)"
        );
        assert_eq!(read("", None).unwrap(), Vec::new());
        // Without a Variant tag, the default the page gives.
        let shogi = read("1. c4 c6 *\n", Some("cannonshogi")).unwrap();
        assert_eq!(shogi[0].moves, ["c3c4", "c7c6"]);
    }
}
