//! A PGN file taken apart without knowing its games: each game's tags and movetext, and the
//! move words of a movetext (comments, variations, numbers, NAGs and the result left out).

/// One game of a PGN file as written: its number in the file (from 1), the line it starts on
/// (from 1), its tags and its movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    pub number: usize,
    pub line: usize,
    pub tags: Vec<(String, String)>,
    pub movetext: String,
}

impl PgnGame {
    /// The value of tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The result written at the end of the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), else the
    /// `Result` tag, else `*`.
    pub fn result(&self) -> &str {
        let last = self.movetext.split_whitespace().last().unwrap_or("");
        match last {
            "1-0" | "0-1" | "1/2-1/2" | "*" => last,
            _ => self.tag("Result").unwrap_or("*"),
        }
    }

    /// The move words of the movetext, in order (see [`movetext_tokens`]).
    pub fn move_words(&self) -> Vec<String> {
        movetext_tokens(&self.movetext)
    }
}

/// Splits the text of a PGN file into its games (tag section and movetext), numbering them
/// from 1 and remembering the line each starts on. Lines starting with `%` are skipped.
pub fn read_games(text: &str) -> Vec<PgnGame> {
    let mut out = Vec::new();
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut in_moves = false;
    // The line (from 1) on which the game being read starts; 0 before its first line.
    let mut start = 0;
    let mut flush = |tags: &mut Vec<(String, String)>, movetext: &mut String, line: usize| {
        if movetext.trim().is_empty() && tags.is_empty() {
            return;
        }
        out.push(PgnGame {
            number: out.len() + 1,
            line,
            tags: std::mem::take(tags),
            movetext: std::mem::take(movetext),
        });
    };
    // Whether a `{comment}` of the movetext is still open at the end of the line read: a
    // line inside it that starts with `[` (`[%wdl ...]`) is the comment's, not a tag.
    let mut open_comment = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        // A real tag line (`[Name "value"]`) starts a game's tags even after a comment left
        // open by mistake, so one broken game does not swallow the next.
        let tag_like = t.starts_with('[')
            && t.chars().nth(1).is_some_and(|c| c.is_ascii_alphabetic())
            && t.ends_with(']')
            && t.contains('"');
        if t.starts_with('[') && (!open_comment || tag_like) {
            open_comment = false;
            if in_moves {
                flush(&mut tags, &mut movetext, start);
                in_moves = false;
                start = 0;
            }
            if start == 0 {
                start = i + 1;
            }
            if let Some(tag) = parse_tag(t) {
                tags.push(tag);
            }
        } else if !t.is_empty() && !t.starts_with('%') {
            if start == 0 {
                start = i + 1;
            }
            in_moves = true;
            open_comment = comment_open_after(t, open_comment);
            movetext += t;
            movetext.push('\n');
        }
    }
    flush(&mut tags, &mut movetext, start);
    out
}

/// Whether a brace comment is open at the end of movetext line `line`, given whether one was
/// open at its start. A `;` comment runs to the end of the line and hides braces in it.
fn comment_open_after(line: &str, mut open: bool) -> bool {
    for c in line.chars() {
        match c {
            '}' if open => open = false,
            '{' if !open => open = true,
            ';' if !open => return false,
            _ => {}
        }
    }
    open
}

/// `[Name "value"]` as (name, value), with PGN's escapes undone.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim_start_matches('[').trim_end_matches(']');
    let (n, v) = inner.split_once(char::is_whitespace)?;
    let v = v.trim();
    // One quote each side: an escaped quote at the end of the value is the value's.
    let v = v.strip_prefix('"').unwrap_or(v);
    let v = v.strip_suffix('"').unwrap_or(v);
    let v = v.replace("\\\"", "\"").replace("\\\\", "\\");
    Some((n.to_string(), v))
}

/// The move words of PGN movetext: comments (`{...}`, `; ...`), variations (`( ... )`, nested
/// to any depth), move numbers, NAGs (`$1`) and the result left out.
pub fn movetext_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut in_comment = false;
    let mut word = String::new();
    let push = |w: &mut String, out: &mut Vec<String>| {
        let is_result = matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*");
        // A move number before the move (`12.Nf6`, `12...Nf6`), not a castling's zeros.
        let t = match w.find(|c: char| !c.is_ascii_digit()) {
            Some(i) if w[i..].starts_with('.') => w[i..].trim_start_matches('.'),
            _ => w.as_str(),
        };
        if !t.is_empty() && !t.starts_with('$') && !is_result && !w.ends_with('.') {
            out.push(t.to_string());
        }
        w.clear();
    };
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if in_comment {
            in_comment = c != '}';
            continue;
        }
        match c {
            '{' => {
                push(&mut word, &mut out);
                in_comment = true;
            }
            ';' => {
                push(&mut word, &mut out);
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                push(&mut word, &mut out);
                depth += 1;
            }
            ')' => {
                word.clear();
                depth = depth.saturating_sub(1);
            }
            c if c.is_whitespace() => {
                if depth == 0 {
                    push(&mut word, &mut out);
                } else {
                    word.clear();
                }
            }
            c => {
                if depth == 0 {
                    word.push(c);
                }
            }
        }
    }
    if depth == 0 {
        push(&mut word, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetext_skips_comments_variations_and_numbers() {
        let t =
            movetext_tokens("1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 ; note\n3. Bb5 a6 1-0");
        assert_eq!(t, vec!["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!(movetext_tokens("12...Nf6 13.O-O"), vec!["Nf6", "O-O"]);
        assert_eq!(movetext_tokens("1... 0-0-0+ 2.0-0"), vec!["0-0-0+", "0-0"]);
    }

    /// What `cannonade analyse` writes: marks on moves, lichess-style comments, and
    /// variations nested in variations, with comments holding brackets and parentheses.
    #[test]
    fn annotated_movetext_reads_as_its_moves() {
        let t = movetext_tokens(
            "{White: 2 blunders} 1. e4 {[%eval 0.3] [%wdl 1 2 3]} e5?! ( 1... c5 \
             {a (b)} 2. Nf3 ( 2. Nc3 ( 2. d4 ) Nc6 ) d6 ) 2. Qh5?? {[%eval -9.0]} \
             ( 2. Nf3 ) Nc6 3. Qxf7# 1-0",
        );
        assert_eq!(t, vec!["e4", "e5?!", "Qh5??", "Nc6", "Qxf7#"]);
        let games = read_games(
            "[Event \"x\"]\n\n1. e4 e5?! (1... c5\n2. Nf3) 2. Qh5?? {a\n[%eval -9.0]\n} \
             Nc6 3. Qxf7# 1-0\n",
        );
        assert_eq!(games.len(), 1, "a comment line starting with [ is no tag");
        assert_eq!(
            games[0].move_words(),
            ["e4", "e5?!", "Qh5??", "Nc6", "Qxf7#"]
        );
        let split = read_games("[Event \"a\"]\n\n1. e4 {open *\n\n[Event \"b\"]\n\n1. d4 *\n");
        assert_eq!(split.len(), 2, "a comment left open ends with its game");
        assert_eq!(split[1].movetext.trim(), "1. d4 *");
    }

    #[test]
    fn games_are_split_with_their_numbers_lines_tags_and_results() {
        let text = "[Event \"a\"]\n[White \"Me \\\"X\\\"\"]\n\n1. e4 e5 1-0\n\n\
                    [Event \"b\"]\n[Result \"0-1\"]\n\n1. d4\n";
        let games = read_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].number, games[0].line), (1, 1));
        assert_eq!(games[0].tag("White"), Some("Me \"X\""));
        assert_eq!(games[0].result(), "1-0");
        assert_eq!((games[1].number, games[1].line), (2, 6));
        assert_eq!(games[1].result(), "0-1");
        assert_eq!(games[1].tag("Site"), None);
    }
}
