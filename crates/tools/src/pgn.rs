//! Reading games from PGN files: the tags and the moves of each game, read with the game's own
//! move strings (coordinates, SAN where the game has it, and the short forms XBoard writes for
//! games it does not know). Used by the match runner (openings) and `cannonade analyse`.
//!
//! A file is split into games without knowing the variant; each game is then played on the
//! variant's start (or its `FEN` tag), so one bad game is reported with its number and line
//! and the others are still read.

use cannonade_core::engine::Session;
use cannonade_core::games::{GameError, MoveError, Notation};

/// One game of a PGN file as written: its number in the file (from 1), the line it starts on
/// (from 1), its tags and its movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawGame {
    pub number: usize,
    pub line: usize,
    pub tags: Vec<(String, String)>,
    pub movetext: String,
}

impl RawGame {
    /// The value of tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game's moves in UCI notation, played from `start` (a game at the variant's start; the
    /// game's `FEN` tag replaces its position): at most `plies` of them. An error names the move
    /// the game refuses and the position it was played in.
    pub fn moves(
        &self,
        start: &dyn Session,
        plies: Option<usize>,
    ) -> Result<Vec<String>, GameError> {
        let mut session = start.clone_session();
        session.set_position(self.tag("FEN"), &[], Notation::Uci)?;
        let mut moves = Vec::new();
        let limit = plies.unwrap_or(usize::MAX);
        for tok in movetext_tokens(&self.movetext) {
            if moves.len() >= limit {
                break;
            }
            let mv = find_move(session.as_ref(), &tok).ok_or_else(|| MoveError {
                text: tok.clone(),
                fen: session.fen(),
                index: None,
            })?;
            session.play(&mv, Notation::Uci)?;
            moves.push(mv);
        }
        Ok(moves)
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
}

/// Splits a PGN file into its games (tag section and movetext), numbering them from 1 and
/// remembering the line each starts on. Lines starting with `%` are skipped.
pub fn read_games(text: &str) -> Vec<RawGame> {
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
        out.push(RawGame {
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

/// The move words of PGN movetext: comments (`{...}`, `; ...`), variations (`( ... )`, nested
/// to any depth), move numbers, NAGs (`$1`) and the result left out.
pub fn movetext_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut in_comment = false;
    let mut word = String::new();
    let push = |w: &mut String, out: &mut Vec<String>| {
        let is_result = matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*");
        let t = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if !t.is_empty() && !t.starts_with('$') && !is_result && !w.ends_with('.') {
            out.push(t.to_string());
        }
        w.clear();
    };
    let mut chars = text.chars().peekable();
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

/// A PGN move word as a UCI move string of the position: coordinates or SAN (check marks,
/// annotation marks and `0-0` for `O-O` tolerated).
pub fn find_move(session: &dyn Session, word: &str) -> Option<String> {
    // Annotation glyphs (`?!`, `??`) go first, on their own: a shogi promotion's `+` is part
    // of the move, a check mark's is not.
    for w in [word, word.trim_end_matches(['!', '?'])] {
        if let Ok(t) = session.move_text(w, Notation::Uci) {
            return Some(t.uci);
        }
    }
    let plain = |s: &str| {
        s.trim_end_matches(['+', '#', '!', '?'])
            .replace('0', "O")
            .to_string()
    };
    let want = plain(word);
    let legal = session.legal_moves(Notation::Uci);
    let texts: Vec<(String, String)> = legal
        .into_iter()
        .filter_map(|m| {
            session
                .move_text(&m, Notation::Uci)
                .ok()
                .map(|t| (m, t.pgn))
        })
        .collect();
    if let Some((m, _)) = texts.iter().find(|(_, pgn)| plain(pgn) == want) {
        return Some(m.clone());
    }
    // Another program's notation of the game (pychess-variants' Cannon Shogi), check marks
    // and annotation glyphs aside (a `+` or `=` at the end is the move's own there).
    let bare = word.trim_end_matches(['!', '?', '#']);
    if let Some(m) = session.move_from_alias(bare) {
        return Some(m);
    }
    short_form_move(&texts, &plain(word))
        .or_else(|| full_origin_move(session, &plain(word)))
        .or_else(|| gating_move(session, &plain(word)))
        .or_else(|| san_like_move(session, word.trim_end_matches(['!', '?', '#'])))
}

/// A move written the way XBoard's PGN writes a game whose own notation is coordinates
/// (Cannon Shogi): SAN with the FEN's piece letters, `+` before a promoted piece's letter, no
/// letter for a soldier (`d4`, `axa9=`), the origin only as far as needed, and a promotion
/// marked `+` (declined `=`, or nothing). A `+` after the move is a promotion here, never a
/// check (XBoard's shogi writes none). Only where exactly one legal move fits.
fn san_like_move(session: &dyn Session, word: &str) -> Option<String> {
    let (body, promotes) = match word.strip_suffix('+') {
        Some(b) => (b, Some(true)),
        None => match word.strip_suffix('=') {
            Some(b) => (b, Some(false)),
            None => (word, None),
        },
    };
    let (promoted, body) = match body.strip_prefix('+') {
        Some(b) => (true, b),
        None => (false, body),
    };
    let (letter, body) = match body.chars().next()? {
        c if c.is_ascii_uppercase() => (c, &body[1..]),
        _ => ('P', body),
    };
    let piece = format!("{}{letter}", if promoted { "+" } else { "" });
    let w = LongForm::parse(&format!("{letter}{body}"))?;
    if !w.tail.is_empty() {
        return None;
    }
    let fits: Vec<String> = session
        .move_facts()
        .into_iter()
        .filter(|f| {
            let Some((file, rank)) = f.from else {
                return false;
            };
            let is_promotion = f.text.uci.ends_with('+');
            f.piece.as_deref().map(str::to_ascii_uppercase).as_deref() == Some(piece.as_str())
                && f.legs.len() == 1
                && (f.to.0 as u32, f.to.1 as u32 + 1) == w.to
                && w.from_file.is_none_or(|x| x == file as u32)
                && w.from_rank.is_none_or(|x| x == rank as u32 + 1)
                && (!w.capture || f.capture)
                && match promotes {
                    Some(p) => p == is_promotion,
                    // No mark: the plain move, or a promotion the move cannot avoid.
                    None => !is_promotion || !f.promotion_choice,
                }
        })
        .map(|f| f.text.uci)
        .collect();
    match fits.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// A piece move written with its whole origin (`Cd8e6`, `Nb1xc3`) where the game's own SAN
/// gives less (`Ce6`): XBoard's PGN writer names the origin in full when its idea of a piece
/// the game defined for it leaves the move unclear (Cannonrider's cannons). Read as the
/// coordinates it names, when that is a legal move of a piece with that letter.
fn full_origin_move(session: &dyn Session, word: &str) -> Option<String> {
    let w = LongForm::parse(word)?;
    let (from, to) = (w.from?, w.to);
    if !w.tail.is_empty() {
        return None;
    }
    let square = |(file, rank): (u32, u32)| format!("{}{rank}", char::from(b'a' + file as u8));
    let uci = format!("{}{}", square(from), square(to));
    let text = session.move_text(&uci, Notation::Uci).ok()?;
    let letter = text.pgn.chars().next()?;
    (letter == w.piece && text.pgn.contains('x') == w.capture).then_some(text.uci)
}

/// A Swedish cannon's entry as XBoard's PGN writes it, as Seirawan gating (`Pe2e4=C`): the
/// move of the piece that makes way (the pawn from e2 to e4), then the piece coming in where
/// it stood. The engine's own form is the drop, `C@e2`.
fn gating_move(session: &dyn Session, word: &str) -> Option<String> {
    let (body, letter) = word.rsplit_once('=')?;
    let letter = letter
        .chars()
        .next()
        .filter(|_| letter.len() == 1)?
        .to_ascii_uppercase();
    let body = body.trim_start_matches(|c: char| c.is_ascii_uppercase());
    let square = |s: &str| -> Option<(usize, usize)> {
        let file = s.chars().next().filter(char::is_ascii_lowercase)?;
        let rank: usize = s[1..].parse().ok()?;
        Some(((file as u8 - b'a') as usize, rank.checked_sub(1)?))
    };
    let split = body.rfind(|c: char| c.is_ascii_lowercase() && c != 'x')?;
    let (from, to) = (body[..split].trim_end_matches('x'), &body[split..]);
    let (from, to) = (square(from)?, square(to)?);
    session
        .move_facts()
        .into_iter()
        .find(|f| f.drop == Some(letter) && f.to == from && f.displaced == Some(to))
        .map(|f| f.text.uci)
}

/// A move written in the long form (`Se1d2`, `Se3xe5-e3`) read from a shorter one: XBoard's
/// PGN writer names a piece of a game it does not know by the origin only as far as its own
/// idea of the piece needs (`Sa4`, `Sgh4`, `S1j2`, `Sxg5`), and its idea of a Cannon soldier is
/// a one-step mover. So where the short form fits several legal moves, the one-step one is
/// meant. Games whose PGN moves do not name the origin (SAN) are not read this way.
fn short_form_move(texts: &[(String, String)], word: &str) -> Option<String> {
    let w = LongForm::parse(word)?;
    let fits: Vec<(&String, LongForm)> = texts
        .iter()
        .filter_map(|(m, pgn)| Some((m, LongForm::parse(pgn)?)))
        .filter(|(_, c)| {
            c.from.is_some_and(|(f, r)| {
                w.piece == c.piece
                    && w.to == c.to
                    && w.capture == c.capture
                    && w.tail == c.tail
                    && w.from_file.is_none_or(|wf| wf == f)
                    && w.from_rank.is_none_or(|wr| wr == r)
            })
        })
        .collect();
    let step = |c: &LongForm| {
        c.from
            .is_some_and(|(f, r)| f.abs_diff(c.to.0) <= 1 && r.abs_diff(c.to.1) <= 1)
    };
    match fits.as_slice() {
        [(m, _)] => Some((*m).clone()),
        _ => {
            let mut steps = fits.iter().filter(|(_, c)| step(c));
            match (steps.next(), steps.next()) {
                (Some((m, _)), None) => Some((*m).clone()),
                _ => None,
            }
        }
    }
}

/// A piece move in long or short algebraic form: piece letter, what is given of the origin,
/// `x`, destination, and anything after it (a shot's way back, `-e3`). Squares are (file
/// letter index, rank number as written).
#[derive(Debug, PartialEq)]
struct LongForm {
    piece: char,
    from: Option<(u32, u32)>,
    from_file: Option<u32>,
    from_rank: Option<u32>,
    capture: bool,
    to: (u32, u32),
    tail: String,
}

impl LongForm {
    fn parse(s: &str) -> Option<LongForm> {
        let mut chars = s.chars();
        let piece = chars.next().filter(char::is_ascii_uppercase)?;
        let rest = chars.as_str();
        // The destination is the last square before the tail (`-` and what follows).
        let (body, tail) = match rest.find('-') {
            Some(i) => (&rest[..i], rest[i..].to_string()),
            None => (rest, String::new()),
        };
        let squares = |t: &str| -> Option<Vec<(Option<u32>, Option<u32>)>> {
            // Splits "e1f2", "gh4", "1j2", "h4" into parts: a file letter with or without its
            // rank, or a lone rank.
            let b = t.as_bytes();
            let mut out = Vec::new();
            let mut i = 0;
            while i < b.len() {
                let file = b[i].is_ascii_lowercase().then(|| u32::from(b[i] - b'a'));
                if file.is_some() {
                    i += 1;
                }
                let start = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let rank = t[start..i].parse().ok();
                if file.is_none() && rank.is_none() {
                    return None;
                }
                out.push((file, rank));
            }
            Some(out)
        };
        let (before, capture, after) = match body.split_once('x') {
            Some((a, b)) => (a, true, b),
            None => ("", false, body),
        };
        let mut parts = squares(before)?;
        parts.extend(squares(after)?);
        let (to_file, to_rank) = parts.pop()?;
        let to = (to_file?, to_rank?);
        let (from_file, from_rank) = match parts.as_slice() {
            [] => (None, None),
            [(f, r)] => (*f, *r),
            _ => return None,
        };
        if !capture && after.is_empty() {
            return None;
        }
        Some(LongForm {
            piece,
            from: from_file.zip(from_rank),
            from_file,
            from_rank,
            capture,
            to,
            tail,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::engine::registry;

    #[test]
    fn movetext_skips_comments_variations_and_numbers() {
        let t =
            movetext_tokens("1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 ; note\n3. Bb5 a6 1-0");
        assert_eq!(t, vec!["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!(movetext_tokens("12...Nf6 13.O-O"), vec!["Nf6", "O-O"]);
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
        let chess = registry::find("chess").unwrap().new_session();
        assert_eq!(
            games[0].moves(chess.as_ref(), None).unwrap(),
            vec!["e2e4", "e7e5", "d1h5", "b8c6", "h5f7"]
        );
        let split = read_games("[Event \"a\"]\n\n1. e4 {open *\n\n[Event \"b\"]\n\n1. d4 *\n");
        assert_eq!(split.len(), 2, "a comment left open ends with its game");
        assert_eq!(split[1].movetext.trim(), "1. d4 *");
    }

    #[test]
    fn wrapped_lines_never_start_with_a_bracket() {
        let comment = format!("{{{} [%eval 0.35] [%wdl 500 0 500]}}", "word ".repeat(14));
        let tokens: Vec<String> = (0..6).map(|_| comment.clone()).collect();
        let text = wrap_tokens(&tokens);
        assert!(text.lines().count() > 3);
        for line in text.lines() {
            assert!(!line.starts_with('[') && !line.starts_with('%'), "{line}");
        }
        assert_eq!(text.split_whitespace().count(), 6 * 20);
        assert!(!text.contains("[%eval\n"), "a command stays on one line");
    }

    /// XBoard writes a Swedish cannon's entry as gating: the pawn's move, then the cannon
    /// coming in behind it; the check mark is XBoard's own (docs/xboard.md).
    #[test]
    fn xboard_s_swedish_cannon_entries_read_as_drops() {
        let games = read_games("[Variant \"swedishcannon\"]\n\n1. Pe2e4=C e5 2. Pd2d4=C+ *\n");
        let sc = registry::find("swedishcannon").unwrap().new_session();
        assert_eq!(
            games[0].moves(sc.as_ref(), None).unwrap(),
            vec!["C@e2", "e7e5", "C@d2"]
        );
        // A pawn that cannot make that move, or a piece not in hand, is no entry.
        let bad = read_games("1. Pe2e5=C *\n");
        assert!(bad[0].moves(sc.as_ref(), None).is_err());
        let one = registry::find("swedishcannon1").unwrap().new_session();
        let twice = read_games("1. Pe2e4=C e5 2. Pd2d4=C *\n");
        assert!(twice[0].moves(one.as_ref(), None).is_err());
    }

    /// Cannonrider as XBoard's PGN writes a cannon's move: the whole origin (`Cd8e6+`), where
    /// the engine's SAN says `Ce6+`.
    #[test]
    fn xboard_s_full_origin_moves_read_as_coordinates() {
        let rider = registry::find("cannonrider").unwrap().new_session();
        let fen = "nrbckqcbrn/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/NRBCKQCBRN w KQkq - 0 1";
        let games = read_games(&format!(
            "[Variant \"cannonrider\"]\n[FEN \"{fen}\"]\n\n1. d4 g5 2. Nb3 Cd8e6+ *\n"
        ));
        let moves = games[0].moves(rider.as_ref(), None).unwrap();
        assert_eq!(moves.last().map(String::as_str), Some("d8e6"));
        // An origin with no piece of that letter on it is no move.
        let bad = read_games(&format!("[FEN \"{fen}\"]\n\n1. d4 g5 2. Nb3 Cc8e6 *\n"));
        assert!(bad[0].moves(rider.as_ref(), None).is_err());
    }

    /// Cannon Shogi as XBoard's PGN writes it: SAN with the FEN's letters (a soldier without
    /// one), `+` for a promotion and `=` for one declined, drops with `@`.
    #[test]
    fn xboard_s_cannon_shogi_san_reads_as_coordinates() {
        let shogi = registry::find("cannonshogi").unwrap().new_session();
        let games = read_games("[Variant \"cannonshogi\"]\n\n1. c4 c6 2. Rh3 g6 *\n");
        assert_eq!(
            games[0].moves(shogi.as_ref(), None).unwrap(),
            vec!["c3c4", "c7c6", "h2h3", "g7g6"]
        );
        let mut s = shogi.clone_session();
        s.set_position(
            Some("l3k3l/P7L/9/9/9/9/9/3U5/4K4[G] w - - 0 1"),
            &[],
            Notation::Uci,
        )
        .unwrap();
        let find = |w: &str| find_move(s.as_ref(), w);
        assert_eq!(find("Ud7+").as_deref(), Some("d2d7+"));
        assert_eq!(find("Ud7=").as_deref(), Some("d2d7"));
        assert_eq!(
            find("Ud7").as_deref(),
            Some("d2d7"),
            "no mark: not promoting"
        );
        assert_eq!(find("Ud3").as_deref(), Some("d2d3"));
        assert_eq!(find("Li9").as_deref(), Some("i8i9+"), "a forced promotion");
        // docs/xboard.md's example: the soldier takes the lance and stays a soldier.
        assert_eq!(find("axa9=").as_deref(), Some("a8a9"));
        assert_eq!(find("axa9+").as_deref(), Some("a8a9+"));
        assert_eq!(find("axb9"), None, "no soldier move goes there");
        assert_eq!(find("G@e5").as_deref(), Some("G@e5"));
    }

    #[test]
    fn long_forms_name_what_they_give_of_the_origin() {
        assert_eq!(LongForm::parse("Sgh4").unwrap().from_file, Some(6));
        assert_eq!(LongForm::parse("S5xh5").unwrap().from_rank, Some(5));
        assert_eq!(LongForm::parse("Se3xe5-e3").unwrap().tail, "-e3");
        assert_eq!(LongForm::parse("O-O"), None);
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
        let chess = registry::find("chess").unwrap().new_session();
        assert_eq!(
            games[0].moves(chess.as_ref(), None).unwrap(),
            vec!["e2e4", "e7e5"]
        );
        assert_eq!(
            games[1].moves(chess.as_ref(), Some(0)).unwrap(),
            Vec::<String>::new()
        );
    }
    /// A Cannon Shogi game as pychess-variants exports it: Fairy-Stockfish's shogi notation
    /// (the first 30 moves of the sample in the shogi module's tests).
    #[test]
    fn a_pychess_cannon_shogi_export_reads_back() {
        let text = "[Event \"PyChess casual game\"]\n[Site \"https://www.pychess.org/x\"]\n\
                    [Round \"-\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\
                    [Variant \"Cannonshogi\"]\n\n1. U-66 A-35 2. U-67 Ux49+ 3. K-58 G*55 4. P-36 R-87+ 5. A-74 S-42 6. P-47 P-54 7. P-16 P-44 8. L-18 I-84 9. P36-46 +Ux79 10. U-63+ S*56 11. +U-62 +R-96 12. G-59 +R-95 13. K-69 +U-78 14. P-36 S-67= 15. +U-65 S-56+ *\n";
        let games = read_games(text);
        let shogi = registry::find(games[0].tag("Variant").unwrap()).unwrap();
        let moves = games[0].moves(shogi.new_session().as_ref(), None).unwrap();
        assert_eq!(
            moves.join(" "),
            "d2d4 g8g5 d4d3 f8f1+ e1e2 G@e5 g3g4 b8b3+ c2c6 g9f8 e3f3 e7e6 i3i4 e6f6 i1i2 d8b6 g4f4 f1c1 d3d7+ S@e4 d7d8 b3a4 d1e1 a4a5 e2d1 c1c2 f4g4 e4d3 d8d5 d3e4+"
        );
    }
}
