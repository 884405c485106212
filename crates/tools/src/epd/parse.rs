//! The text of an EPD line: the position's fields, then operations (`bm Qxf7+ Rxf7;`,
//! `id "WAC.001";`), each an opcode and its operands ended by `;`. Nothing here knows a game:
//! where the position ends is asked of the caller, since our games' FENs have different
//! numbers of fields.

/// One operation: its opcode and its operands (a quoted operand without its quotes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    pub operands: Vec<String>,
}

/// A line taken apart: the position's fields (joined by spaces) and the operations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitLine {
    pub fen: String,
    pub operations: Vec<Operation>,
}

/// Why a line could not be taken apart.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum SplitError {
    #[error("a quoted operand is not closed")]
    OpenQuote,
    #[error("no operations after the position")]
    NoOperations,
    /// The position the game refused, with the game's reason (from the longest reading tried).
    #[error("not a position of the game: {reason} (in '{fen}')")]
    NotAPosition { fen: String, reason: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Quoted(String),
    End,
}

/// The most fields a FEN of ours has (board, hand or nothing, side, castling, en passant,
/// two counters, with room for a hand written apart).
const MOST_FEN_FIELDS: usize = 7;

fn tokens(line: &str) -> Result<Vec<Token>, SplitError> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        if !word.is_empty() {
            out.push(Token::Word(std::mem::take(word)));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                flush(&mut word, &mut out);
                let mut quoted = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(q) => quoted.push(q),
                        None => return Err(SplitError::OpenQuote),
                    }
                }
                out.push(Token::Quoted(quoted));
            }
            ';' => {
                flush(&mut word, &mut out);
                out.push(Token::End);
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    Ok(out)
}

/// Whether `token` can be an opcode: EPD's opcodes are a letter then letters, digits or `_`.
fn opcode_like(token: &Token) -> bool {
    match token {
        Token::Word(w) => {
            w.starts_with(|c: char| c.is_ascii_alphabetic())
                && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        _ => false,
    }
}

/// Takes `line` apart: a position alone (no operations: an opening), or a position and its
/// operations (a test position). `read_fen` is the game's FEN reader: `Err(reason)` for a
/// text that is no position. The position is the whole line where the game reads it, else the
/// longest run of leading fields that the game reads and that an opcode follows (so an
/// en-passant square such as `c3` is never taken for the comment opcode `c3`, nor `bm` for a
/// move counter).
pub fn split_line(
    line: &str,
    mut read_fen: impl FnMut(&str) -> Result<(), String>,
) -> Result<SplitLine, SplitError> {
    let toks = tokens(line)?;
    let leading = toks
        .iter()
        .take_while(|t| matches!(t, Token::Word(_)))
        .count();
    let word = |t: &Token| match t {
        Token::Word(w) | Token::Quoted(w) => w.clone(),
        Token::End => String::new(),
    };
    // A line that is a position and nothing more has no operations (though a reader that
    // takes the board alone would read its side to move, `w`, as an opcode).
    let fields = |k: usize| toks[..k].iter().map(word).collect::<Vec<_>>().join(" ");
    if leading == toks.len() && leading <= MOST_FEN_FIELDS && read_fen(&fields(leading)).is_ok() {
        return Ok(SplitLine {
            fen: fields(leading),
            operations: Vec::new(),
        });
    }
    // The refusal reported: of the reading that a well-known opcode follows if there is one
    // (in `... w - - bm Ka2`, `Ka2` looks like an opcode too, but the position is meant to
    // end before `bm`), else of the longest.
    let mut refusal: Option<(bool, SplitError)> = None;
    for k in (1..=leading.min(MOST_FEN_FIELDS)).rev() {
        let next = toks.get(k).unwrap_or(&Token::End);
        if !opcode_like(next) {
            continue;
        }
        let fen = fields(k);
        match read_fen(&fen) {
            Ok(()) => {
                let operations = operations(&toks[k..], word);
                return Ok(SplitLine { fen, operations });
            }
            Err(reason) => {
                let known = KNOWN_OPCODES.contains(&word(next).as_str());
                if refusal
                    .as_ref()
                    .is_none_or(|(had_known, _)| known && !had_known)
                {
                    refusal = Some((known, SplitError::NotAPosition { fen, reason }));
                }
            }
        }
    }
    Err(refusal.map_or(SplitError::NoOperations, |(_, e)| e))
}

/// The opcodes a test suite uses most, which tell best where a refused position ends.
const KNOWN_OPCODES: [&str; 5] = ["bm", "am", "dm", "id", "c0"];

/// The operations of `toks` (starting at an opcode): each runs to its `;` (the last one may
/// leave it out).
fn operations(toks: &[Token], word: impl Fn(&Token) -> String) -> Vec<Operation> {
    toks.split(|t| *t == Token::End)
        .filter(|op| !op.is_empty())
        .map(|op| Operation {
            opcode: word(&op[0]),
            operands: op[1..].iter().map(&word).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that takes 4 to 6 fields of which the second is the side to move.
    fn chess_like(fen: &str) -> Result<(), String> {
        let f: Vec<&str> = fen.split(' ').collect();
        let counters_ok = f.iter().skip(4).all(|x| x.parse::<u32>().is_ok());
        if (4..=6).contains(&f.len()) && matches!(f[1], "w" | "b") && counters_ok {
            Ok(())
        } else {
            Err("bad".to_string())
        }
    }

    #[test]
    fn the_position_ends_where_the_operations_start() {
        let s = split_line(
            "8/8/8/8/8/8/8/K6k w - c3 c3 \"a; b\"; bm Qxf7+ Rf1; id \"x 1\"",
            chess_like,
        )
        .unwrap();
        assert_eq!(s.fen, "8/8/8/8/8/8/8/K6k w - c3");
        let ops: Vec<(&str, Vec<&str>)> = s
            .operations
            .iter()
            .map(|o| {
                (
                    o.opcode.as_str(),
                    o.operands.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            ops,
            vec![
                ("c3", vec!["a; b"]),
                ("bm", vec!["Qxf7+", "Rf1"]),
                ("id", vec!["x 1"])
            ]
        );
        let s = split_line("8/8/8/8/8/8/8/K6k w - - 0 1 bm Ka2;", chess_like).unwrap();
        assert_eq!(s.fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
    }

    #[test]
    fn bad_lines_say_why() {
        assert_eq!(
            split_line("8/8 w - - bm Ka2;", |_| Err("no".into())),
            Err(SplitError::NotAPosition {
                fen: "8/8 w - -".into(),
                reason: "no".into()
            })
        );
        assert_eq!(
            split_line("8/8/8/8/8/8/8/K6k w - -", chess_like),
            Ok(SplitLine {
                fen: "8/8/8/8/8/8/8/K6k w - -".into(),
                operations: Vec::new()
            })
        );

        assert_eq!(
            split_line("8/8/8/8/8/8/8/K6k w - - id \"x", chess_like),
            Err(SplitError::OpenQuote)
        );
    }
}
