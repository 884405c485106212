//! Writing PGN: tag pairs with PGN's escapes, and movetext with its move numbers, comments,
//! variations and result, in lines of at most 80 characters as PGN's export format asks.

use crate::board::Color;
use crate::engine::wdl::move_number_of;

/// A tag value with PGN's escapes.
pub fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A game's text: its tag pairs (`[Name "value"]`, one a line), an empty line, its movetext
/// (see [`Movetext`]) and an empty line.
pub fn write_game<N: AsRef<str>, V: AsRef<str>>(tags: &[(N, V)], movetext: &str) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        out += &format!("[{} \"{}\"]\n", name.as_ref(), quote(value.as_ref()));
    }
    out.push('\n');
    out += movetext;
    out += "\n\n";
    out
}

/// Where Black's moves carry their move number (`12... Nf6`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BlackNumbers {
    /// Only where Black's move opens the movetext, as cutechess writes its games.
    AtStart,
    /// Before every move of Black's, as PGN's export format asks where each move is followed
    /// by a comment (and lichess writes).
    Always,
}

/// Movetext being written: moves with their numbers, comments and variations.
#[derive(Clone, Debug)]
pub struct Movetext {
    tokens: Vec<String>,
    number: u32,
    side: Color,
    black_numbers: BlackNumbers,
    /// The move number and side to move before the last move written: where a variation
    /// written after it starts.
    before: (u32, Color),
}

impl Movetext {
    /// Movetext for a game that starts with `side` to move at move `number`.
    pub fn new(number: u32, side: Color, black_numbers: BlackNumbers) -> Movetext {
        Movetext {
            tokens: Vec::new(),
            number,
            side,
            black_numbers,
            before: (number, side),
        }
    }

    /// Movetext for a game that starts from `fen` (its side to move and full-move number;
    /// `None`, or a FEN without them, is move 1 with White to move).
    pub fn from_fen(fen: Option<&str>, black_numbers: BlackNumbers) -> Movetext {
        let side = match fen.and_then(|f| f.split_whitespace().nth(1)) {
            Some("b") => Color::Black,
            _ => Color::White,
        };
        Movetext::new(fen.map_or(1, move_number_of), side, black_numbers)
    }

    /// A `{comment}` (a `}` in `text` is written as `)`, so it cannot end the comment).
    pub fn comment(&mut self, text: &str) {
        self.tokens.push(format!("{{{}}}", text.replace('}', ")")));
    }

    /// The next move, as the game writes it (with any glyph, `Qh5??`), and its number where
    /// it needs one.
    pub fn push_move(&mut self, san: &str) {
        let opening = self.tokens.iter().all(|t| t.starts_with('{'));
        let black_number = self.black_numbers == BlackNumbers::Always || opening;
        self.tokens
            .extend(number_token(self.number, self.side, black_number));
        self.tokens.push(san.to_string());
        self.before = (self.number, self.side);
        if self.side == Color::Black {
            self.number += 1;
        }
        self.side = !self.side;
    }

    /// A variation after the last move: `line` (moves as the game writes them) played instead
    /// of it.
    pub fn variation(&mut self, line: &[String]) {
        let (mut number, mut side) = self.before;
        self.tokens.push("(".into());
        for (i, m) in line.iter().enumerate() {
            self.tokens.extend(number_token(number, side, i == 0));
            self.tokens.push(m.clone());
            if side == Color::Black {
                number += 1;
            }
            side = !side;
        }
        self.tokens.push(")".into());
    }

    /// The movetext ended by `result`, in lines of at most 80 characters.
    pub fn finish(mut self, result: &str) -> String {
        self.tokens.push(result.to_string());
        wrap_tokens(&self.tokens)
    }
}

/// Move-number tokens: `12.` before White's move, `12...` before Black's where `black` asks.
fn number_token(number: u32, side: Color, black: bool) -> Option<String> {
    match side {
        Color::White => Some(format!("{number}.")),
        Color::Black if black => Some(format!("{number}...")),
        Color::Black => None,
    }
}

/// Movetext tokens (move numbers, moves, `{comments}`, the result) joined into lines of at most
/// 80 characters, as PGN's export format asks; a comment may be split at its spaces, but never
/// before a `[` or `%`: a line starting with `[` reads as a tag to many readers, and one
/// starting with `%` is an escaped line that readers skip.
pub fn wrap_tokens(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for tok in tokens.iter().flat_map(|t| breakable_words(t)) {
        if !line.is_empty() && line.len() + 1 + tok.len() > 80 {
            out += &line;
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &tok;
    }
    out + &line
}

/// The pieces of `token` a line may break between: its words, a word starting with `[` or
/// `%` kept with the one before it, and a bracketed command (`[%eval 0.35]`) kept whole.
fn breakable_words(token: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in token.split(' ') {
        let open = |w: &str| w.rfind('[').is_some_and(|i| !w[i..].contains(']'));
        match out.last_mut() {
            Some(last) if word.starts_with(['[', '%']) || open(last) => {
                last.push(' ');
                last.push_str(word);
            }
            _ => out.push(word.to_string()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_lines_never_start_with_a_bracket() {
        let comment = format!("{{{} [%eval 0.35] [%wdl 500 0 500]}}", "word ".repeat(14));
        let tokens: Vec<String> = (0..6).map(|_| comment.clone()).collect();
        let text = wrap_tokens(&tokens);
        assert!(text.lines().count() > 3);
        for line in text.lines() {
            assert!(line.len() <= 80, "{line}");
            assert!(!line.starts_with('[') && !line.starts_with('%'), "{line}");
        }
        assert_eq!(text.split_whitespace().count(), 6 * 20);
        assert!(!text.contains("[%eval\n"), "a command stays on one line");
    }

    #[test]
    fn black_s_numbers_as_asked_and_variations_from_the_move_they_replace() {
        let mut m = Movetext::from_fen(Some("8/8/8/8/8/8/8/K6k b - - 3 7"), BlackNumbers::AtStart);
        m.push_move("Kg2");
        m.comment("a}b");
        m.push_move("Kb2");
        m.push_move("Kf3");
        assert_eq!(m.finish("*"), "7... Kg2 {a)b} 8. Kb2 Kf3 *");
        let mut m = Movetext::new(12, Color::White, BlackNumbers::Always);
        m.comment("start");
        m.push_move("e4");
        m.push_move("e5??");
        m.variation(&["Nf6".into(), "Nc3".into()]);
        m.push_move("Nf3");
        assert_eq!(
            m.finish("1-0"),
            "{start} 12. e4 12... e5?? ( 12... Nf6 13. Nc3 ) 13. Nf3 1-0"
        );
        let tags = [("White", "Me \"X\""), ("Result", "*")];
        assert_eq!(
            write_game(&tags, "*"),
            "[White \"Me \\\"X\\\"\"]\n[Result \"*\"]\n\n*\n\n"
        );
    }
}
