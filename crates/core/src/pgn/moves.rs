//! Reading the move words of a PGN game as legal moves of its game. Every form is matched
//! against what the game says about its legal moves (their strings, SAN and facts), so the
//! reader never knows a rule; what it knows is how other programs write moves:
//!
//! - the engine's own forms: coordinates, and the game's SAN (`Session::move_text`), check
//!   marks, annotation glyphs and `0-0` tolerated;
//! - the other names a game gives its moves (`Session::move_from_alias`: Fairy-Stockfish's
//!   shogi numbers, as older pychess-variants exports have them);
//! - XBoard's PGN of games it does not know: the origin only as far as its own idea of the
//!   piece needs (Cannon's soldiers), the whole origin where its idea of the piece leaves a
//!   move unclear (`Cd8e6`, a Swedish pawn's `Pe5xd6`), a Swedish cannon's entry as gating
//!   (`Pe2e4=C`), SAN with the FEN's letters for Cannon Shogi (`Ixd2=+`, a pawn-drawn piece
//!   without a letter: a Scorpion's `d4`);
//! - Fairy-Stockfish's SAN, as pychess-variants exports Cannon Shogi: promotions named with
//!   the promoted piece's letter (`Ud7=W+`), promoted pieces moving under that letter (`We8`).

use super::file::PgnGame;
use crate::engine::look::PieceImage;
use crate::engine::{registry, Coord, MoveFacts, Session};
use crate::games::{GameError, MoveError, Notation};

impl PgnGame {
    /// The game's moves as UCI strings, played from `start` (a game of the right variant; the
    /// game's `FEN` tag replaces its position): at most `plies` of them. An error names the
    /// move the game refuses and the position it was played in.
    pub fn moves(
        &self,
        start: &dyn Session,
        plies: Option<usize>,
    ) -> Result<Vec<String>, GameError> {
        self.play(start, plies).map(|(_, moves)| moves)
    }

    /// The game played from `start` as [`PgnGame::moves`] reads it: the position after its
    /// moves (at most `plies`), and the moves. A word that several legal moves fit (a short
    /// form whose writer's idea of the piece was not the game's) is read as the first of them
    /// after which the rest of the game reads.
    pub fn play(
        &self,
        start: &dyn Session,
        plies: Option<usize>,
    ) -> Result<(Box<dyn Session>, Vec<String>), GameError> {
        let mut session = start.clone_session();
        session.set_position(self.tag("FEN"), &[], Notation::Uci)?;
        let words: Vec<String> = self
            .move_words()
            .into_iter()
            .take(plies.unwrap_or(usize::MAX))
            .collect();
        let mut line = Line {
            words: &words,
            tries: MAX_TRIES,
            furthest: None,
        };
        let reader = MoveReader::new(session.as_ref());
        match line.read(session, reader, 0) {
            Some((end, moves)) => Ok((end, moves)),
            // Every way of not reading records its refusal.
            None => Err(line.furthest.map(|(_, e)| e).expect("a refusal")),
        }
    }
}

/// The refusal of `word`, which no legal move of `session`'s position fits, or several do.
fn unread(word: &str, session: &dyn Session) -> GameError {
    GameError::IllegalMove(MoveError {
        text: word.to_string(),
        fen: session.fen(),
        index: None,
    })
}

/// The readings of ambiguous words a game may try before it is refused.
const MAX_TRIES: usize = 256;

/// A game's move words being read, with its readings of ambiguous words.
struct Line<'a> {
    words: &'a [String],
    /// Readings of ambiguous words left to try.
    tries: usize,
    /// The refusal of the word furthest into the game (the one reported when no reading
    /// reads the whole game), with its index.
    furthest: Option<(usize, GameError)>,
}

impl Line<'_> {
    /// Reads words `i..` from `session`: the last position and the moves.
    fn read(
        &mut self,
        mut session: Box<dyn Session>,
        mut reader: MoveReader,
        mut i: usize,
    ) -> Option<(Box<dyn Session>, Vec<String>)> {
        let mut moves = Vec::new();
        while let Some(word) = self.words.get(i) {
            let readings = reader.read_all(session.as_ref(), word);
            if let [mv] = readings.as_slice() {
                if let Err(e) = session.play(mv, Notation::Uci) {
                    return self.refuse(i, e);
                }
                moves.push(mv.clone());
                i += 1;
                continue;
            }
            if readings.is_empty() {
                return self.refuse(i, unread(word, session.as_ref()));
            }
            // Every reading is tried: a game that reads to its end in two ways is refused
            // rather than read one way at random.
            let mut read = None;
            for mv in readings {
                if self.tries == 0 {
                    break;
                }
                self.tries -= 1;
                let mut s = session.clone_session();
                if s.play(&mv, Notation::Uci).is_err() {
                    continue;
                }
                if let Some((end, rest)) = self.read(s, reader.clone(), i + 1) {
                    if read.is_some() {
                        return self.refuse(i, unread(word, session.as_ref()));
                    }
                    read = Some((end, mv, rest));
                }
            }
            let Some((end, mv, rest)) = read else {
                return self.refuse(i, unread(word, session.as_ref()));
            };
            moves.push(mv);
            moves.extend(rest);
            return Some((end, moves));
        }
        Some((session, moves))
    }

    fn refuse<T>(&mut self, i: usize, e: GameError) -> Option<T> {
        if self.furthest.as_ref().is_none_or(|(j, _)| i > *j) {
            self.furthest = Some((i, e));
        }
        None
    }
}

/// A PGN move word as the UCI string of a legal move of `session`'s position, in any form
/// [`MoveReader`] reads; `None` if no legal move, or more than one, fits.
pub fn find_move(session: &dyn Session, word: &str) -> Option<String> {
    MoveReader::new(session).read(session, word)
}

/// A move in the game's own SAN (as `MoveText::pgn` writes it; check marks, annotation
/// glyphs and `0-0` for `O-O` tolerated) as its UCI string.
pub fn find_san(session: &dyn Session, word: &str) -> Option<String> {
    let plain = |s: &str| castling_letters(s.trim_end_matches(['+', '#', '!', '?']));
    let want = plain(word);
    let texts: Vec<_> = session
        .legal_moves(Notation::Uci)
        .into_iter()
        .filter_map(|m| session.move_text(&m, Notation::Uci).ok())
        .collect();
    // Written exactly as the game writes it first: a shogi promotion's `+` is the move's own.
    texts
        .iter()
        .find(|t| t.pgn == word)
        .or_else(|| texts.iter().find(|t| plain(&t.pgn) == want))
        .map(|t| t.uci.clone())
}

/// `0-0` and `0-0-0` written with letters, as SAN writes castling; other words as they are
/// (a zero is a rank in XBoard's notation of ten-rank boards: `S0b1`).
fn castling_letters(word: &str) -> String {
    if word.starts_with("0-0") {
        word.replace('0', "O")
    } else {
        word.to_string()
    }
}

/// Reads the move words of one game in turn: what it learns from one move (the letter
/// another program writes a promoted piece with) serves the moves after it.
#[derive(Clone, Debug, Default)]
pub struct MoveReader {
    /// The letters of the pieces GUIs draw as pawns (the registry's look of the game):
    /// XBoard writes their moves without a letter.
    pawns: Vec<char>,
    /// Letters a promotion named its piece with (`Ud7=W`), with the promoted piece as the
    /// FEN writes it (`+U`): Fairy-Stockfish's SAN moves that piece under that letter.
    promoted_names: Vec<(char, String)>,
}

impl MoveReader {
    pub fn new(session: &dyn Session) -> MoveReader {
        let mut pawns: Vec<char> = registry::find(session.variant())
            .and_then(|v| v.look.as_ref())
            .map(|look| {
                look.images
                    .iter()
                    .filter(|(_, image)| *image == PieceImage::Pawn)
                    .map(|(c, _)| *c)
                    .collect()
            })
            .unwrap_or_default();
        if pawns.is_empty() {
            pawns.push('P');
        }
        MoveReader {
            pawns,
            promoted_names: Vec::new(),
        }
    }

    /// `word` as the UCI string of a legal move of `session`'s position; `None` if no legal
    /// move, or more than one, fits.
    pub fn read(&mut self, session: &dyn Session, word: &str) -> Option<String> {
        match self.read_all(session, word).as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    /// The legal moves of `session`'s position that `word` may be, the likeliest first: one
    /// for a word that says what it means, several for a short form that does not.
    pub fn read_all(&mut self, session: &dyn Session, word: &str) -> Vec<String> {
        // Annotation glyphs (`?!`, `??`) go first, on their own: a shogi promotion's `+` is
        // part of the move, a check mark's is not.
        let glyphless = word.trim_end_matches(['!', '?']);
        for w in [word, glyphless] {
            if let Ok(t) = session.move_text(w, Notation::Uci) {
                return vec![t.uci];
            }
        }
        if let Some(m) = find_san(session, word) {
            return vec![m];
        }
        // Another program's notation of the game (see `Game::pgn_aliases`); a `+` or `=` at
        // the end is the move's own there.
        let bare = glyphless.trim_end_matches('#');
        if let Some(m) = session.move_from_alias(bare) {
            return vec![m];
        }
        let plain = castling_letters(glyphless.trim_end_matches(['+', '#']));
        let facts = session.move_facts();
        // The game's own long form first (Cannon's, in its own ranks), then forms read from
        // the moves' facts.
        let own_long = |f: &MoveFacts| LongForm::parse(&f.text.pgn).filter(|c| c.from.is_some());
        let short = short_form_moves(&facts, &plain, own_long);
        if !short.is_empty() {
            return short;
        }
        if let Some(m) = full_origin_move(&facts, &plain).or_else(|| gating_move(&facts, &plain)) {
            return vec![m];
        }
        let san = self.foreign_san(session, &facts, bare);
        if !san.is_empty() {
            return san;
        }
        short_form_moves(&facts, &plain, LongForm::of)
    }

    /// A move in the SAN of another program that writes the game's pieces with the FEN's
    /// letters: XBoard's Cannon Shogi (`+` after the move promotes, `=` declines, a `+` after
    /// either is a check) and Fairy-Stockfish's (`=W` promotes to the piece it calls `W`, a
    /// `+` is a check); a piece drawn as a pawn without a letter. A last `+` that may be
    /// either is read as the check where the move read so gives one and the game has named
    /// its promotions (Fairy-Stockfish's), else as the promotion (XBoard's check marks on
    /// promotions are not to be trusted: it writes none in some games).
    fn foreign_san(
        &mut self,
        session: &dyn Session,
        facts: &[MoveFacts],
        word: &str,
    ) -> Vec<String> {
        let as_promotion = self.fit_san(facts, word);
        let as_check = word.strip_suffix('+').and_then(|w| self.fit_san(facts, w));
        let gives_check = |m: &[String]| {
            let mut after = session.clone_session();
            matches!(m, [m] if after.play(m, Notation::Uci).is_ok() && after.in_check())
        };
        let fit = match (as_promotion, as_check) {
            (Some(p), Some(c)) if p.moves != c.moves => {
                if self.named_promotions() && gives_check(&c.moves) {
                    c
                } else {
                    p
                }
            }
            (Some(p), _) => p,
            (None, Some(c)) => c,
            (None, None) => return Vec::new(),
        };
        self.promoted_names.extend(fit.learned);
        fit.moves
    }

    /// Whether a promotion of this game has named its piece (`Ud7=W`): the writer's `+` is
    /// then a check.
    fn named_promotions(&self) -> bool {
        !self.promoted_names.is_empty()
    }

    /// The legal moves that SAN word `word` (no check mark) may name, and the promoted
    /// piece's name it teaches, if any.
    fn fit_san(&self, facts: &[MoveFacts], word: &str) -> Option<Fit> {
        let (body, promotes) = PromotionMark::split(word);
        let (promoted, body) = match body.strip_prefix('+') {
            Some(b) => (true, b),
            None => (false, body),
        };
        let letter = body.chars().next().filter(char::is_ascii_uppercase);
        let w = match letter {
            Some(_) => LongForm::parse(body)?,
            None => LongForm::parse(&format!("P{body}"))?,
        };
        if !w.tail.is_empty() {
            return None;
        }
        let moves_like = |f: &MoveFacts| {
            let Some((file, rank)) = f.from else {
                return false;
            };
            let is_promotion = f.text.uci.ends_with('+');
            f.legs.len() == 1
                && (f.to.0 as u32, f.to.1 as u32 + 1) == w.to
                && w.from_file.is_none_or(|x| x == file as u32)
                && w.from_rank.is_none_or(|x| x == rank as u32 + 1)
                && (!w.capture || f.capture)
                && match promotes {
                    // A shogi promotion, or a chess one to that piece (a Scorpion's `eg1=Q`).
                    PromotionMark::Named(c) => {
                        is_promotion || own_promotion(&f.text.pgn) == Some(c.to_string())
                    }
                    PromotionMark::Promotes => is_promotion,
                    PromotionMark::Declines => !is_promotion,
                    // No mark: the plain move, or a promotion the move cannot avoid.
                    PromotionMark::None => !is_promotion || !f.promotion_choice,
                }
        };
        let piece_of = |f: &MoveFacts| f.piece.as_deref().map(str::to_ascii_uppercase);
        // The pieces the word may mean, most likely first: the letter's own (and the promoted
        // pieces a promotion named so), then, for a letter no piece of the game has, any
        // promoted piece (whose letter the program's own; learned or not).
        let tiers: Vec<PieceTest> = match letter {
            _ if promoted => vec![Box::new(move |p: &str| {
                p.strip_prefix('+').and_then(|p| p.chars().next()) == letter
            })],
            None => vec![Box::new(|p: &str| {
                p.len() == 1 && p.chars().next().is_some_and(|c| self.pawns.contains(&c))
            })],
            Some(l) => vec![
                Box::new(move |p: &str| {
                    p.len() == 1 && p.starts_with(l)
                        || self.promoted_names.iter().any(|(n, q)| *n == l && q == p)
                }),
                Box::new(|p: &str| p.starts_with('+')),
            ],
        };
        for in_tier in tiers {
            let fits: Vec<&MoveFacts> = facts
                .iter()
                .filter(|f| moves_like(f) && piece_of(f).is_some_and(|p| in_tier(&p)))
                .collect();
            match fits.as_slice() {
                [] => continue,
                [one] => {
                    let learned = match (promotes, piece_of(one)) {
                        (PromotionMark::Named(n), Some(p)) if one.text.uci.ends_with('+') => {
                            Some((n, format!("+{p}")))
                        }
                        _ => None,
                    };
                    return Some(Fit {
                        moves: vec![one.text.uci.clone()],
                        learned,
                    });
                }
                // XBoard's idea of a piece drawn as a pawn steps: where one of the moves is
                // a step, it is meant.
                many => {
                    return Some(Fit {
                        moves: prefer_step(many.iter().map(|f| (&f.text.uci, f.from, f.to))),
                        learned: None,
                    })
                }
            }
        }
        None
    }
}

/// Whether a piece (as the FEN writes it, upper case) is one a word may mean.
type PieceTest<'a> = Box<dyn Fn(&str) -> bool + 'a>;

/// The moves a word may be, and what it teaches of the writer's letters.
struct Fit {
    moves: Vec<String>,
    learned: Option<(char, String)>,
}

/// Moves (UCI, origin, destination) a short form fits: the one step among them if there is
/// exactly one (the writer's idea of the piece is a stepper), else all of them.
fn prefer_step<'a>(fits: impl Iterator<Item = (&'a String, Option<Coord>, Coord)>) -> Vec<String> {
    let fits: Vec<_> = fits.collect();
    let step = |from: Option<Coord>, to: Coord| {
        from.is_some_and(|(f, r)| f.abs_diff(to.0) <= 1 && r.abs_diff(to.1) <= 1)
    };
    let steps: Vec<&String> = fits
        .iter()
        .filter(|(_, from, to)| step(*from, *to))
        .map(|(m, _, _)| *m)
        .collect();
    match steps.as_slice() {
        [one] => vec![(*one).clone()],
        _ => fits.into_iter().map(|(m, _, _)| m.clone()).collect(),
    }
}

/// How a SAN word marks a shogi-style promotion.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum PromotionMark {
    /// `=W`: promotes, to the piece the writer calls `W`.
    Named(char),
    /// `+`: promotes.
    Promotes,
    /// `=`: declines.
    Declines,
    None,
}

impl PromotionMark {
    /// `word` without its promotion mark, and the mark.
    fn split(word: &str) -> (&str, PromotionMark) {
        if let Some((body, name)) = word.rsplit_once('=') {
            let mut chars = name.chars();
            match (chars.next(), chars.next()) {
                (None, _) => return (body, PromotionMark::Declines),
                (Some(c), None) if c.is_ascii_uppercase() => {
                    return (body, PromotionMark::Named(c))
                }
                _ => {}
            }
        }
        match word.strip_suffix('+') {
            Some(body) => (body, PromotionMark::Promotes),
            None => (word, PromotionMark::None),
        }
    }
}

/// A move written with its piece's letter and whole origin (`Cd8e6`, `Pe5xd6`, `Pa7a8=Q`)
/// where the game's own SAN gives less: XBoard's PGN writer names the origin in full when its
/// idea of a piece the game defined for it leaves the move unclear (Cannonrider's cannons,
/// Swedish Cannon Chess's pawns on XBoard's lance). Read as the coordinates it names, when
/// those are a legal move of a piece with that letter.
fn full_origin_move(facts: &[MoveFacts], word: &str) -> Option<String> {
    let (body, promotion) = match word.split_once('=') {
        Some((b, p)) => (b, Some(p)),
        None => (word, None),
    };
    let w = LongForm::parse(body)?;
    let (from, to) = (w.from?, w.to);
    if !w.tail.is_empty() {
        return None;
    }
    facts
        .iter()
        .find(|f| {
            f.from
                .is_some_and(|(x, y)| (x as u32, y as u32 + 1) == from)
                && (f.to.0 as u32, f.to.1 as u32 + 1) == to
                && f.legs.len() == 1
                && f.capture == w.capture
                && f.piece
                    .as_deref()
                    .is_some_and(|p| p.eq_ignore_ascii_case(&w.piece.to_string()))
                && own_promotion(&f.text.pgn).as_deref() == promotion
        })
        .map(|f| f.text.uci.clone())
}

/// The piece a move of the game's own SAN promotes to (`a8=Q+`: `Q`).
fn own_promotion(pgn: &str) -> Option<String> {
    pgn.trim_end_matches(['+', '#'])
        .split_once('=')
        .map(|(_, p)| p.to_string())
}

/// A Swedish cannon's entry as XBoard's PGN writes it, as Seirawan gating (`Pe2e4=C`): the
/// move of the piece that makes way (the pawn from e2 to e4), then the piece coming in where
/// it stood. The engine's own form is the drop, `C@e2`.
fn gating_move(facts: &[MoveFacts], word: &str) -> Option<String> {
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
    facts
        .iter()
        .find(|f| f.drop == Some(letter) && f.to == from && f.displaced == Some(to))
        .map(|f| f.text.uci.clone())
}

/// The moves a short form (`Sa4`, `Sgh4`, `S1j2`, `Sxg5`, `Cg1`) of a piece move may be:
/// XBoard's PGN writer names a piece of a game it does not know by the origin only as far as
/// its own idea of the piece needs, so a short form may fit several legal moves (its idea of a
/// Cannonrider cannon does not make the cannon's leaps). Its idea of a Cannon soldier is a
/// one-step mover: where exactly one of the moves is a step, that one is meant. Each legal
/// move is taken in its long form by `long`: the game's own PGN where that names the whole
/// origin (Cannon's, with a shot's way back: `Se3xe5-e3`), or made from the move's facts.
fn short_form_moves(
    facts: &[MoveFacts],
    word: &str,
    long: impl Fn(&MoveFacts) -> Option<LongForm>,
) -> Vec<String> {
    let Some(w) = LongForm::parse(word) else {
        return Vec::new();
    };
    let fits: Vec<(&String, LongForm)> = facts
        .iter()
        .filter_map(|f| Some((&f.text.uci, long(f)?)))
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
    // Squares as (file, rank), both from 0: steps are measured the same whatever the ranks
    // are counted from.
    let square = |(f, r): (u32, u32)| (f as usize, r as usize);
    prefer_step(
        fits.iter()
            .map(|(m, c)| (*m, c.from.map(square), square(c.to))),
    )
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
    /// A one-leg move of a piece with a one-letter name, written in full from its facts
    /// (ranks from 1).
    fn of(f: &MoveFacts) -> Option<LongForm> {
        let (x, y) = f.from?;
        let mut letters = f.piece.as_deref()?.chars();
        let piece = letters.next()?.to_ascii_uppercase();
        let promotion = f.text.uci.ends_with('+') || own_promotion(&f.text.pgn).is_some();
        if letters.next().is_some() || f.legs.len() != 1 || promotion {
            return None;
        }
        let from = (x as u32, y as u32 + 1);
        Some(LongForm {
            piece,
            from: Some(from),
            from_file: Some(from.0),
            from_rank: Some(from.1),
            capture: f.capture,
            to: (f.to.0 as u32, f.to.1 as u32 + 1),
            tail: String::new(),
        })
    }

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

    #[test]
    fn long_forms_name_what_they_give_of_the_origin() {
        assert_eq!(LongForm::parse("Sgh4").unwrap().from_file, Some(6));
        assert_eq!(LongForm::parse("S5xh5").unwrap().from_rank, Some(5));
        assert_eq!(LongForm::parse("S0b1").unwrap().from_rank, Some(0));
        assert_eq!(LongForm::parse("Se3xe5-e3").unwrap().tail, "-e3");
        assert_eq!(LongForm::parse("O-O"), None);
    }

    #[test]
    fn promotion_marks_are_told_apart() {
        assert_eq!(
            PromotionMark::split("Axe7=W"),
            ("Axe7", PromotionMark::Named('W'))
        );
        assert_eq!(
            PromotionMark::split("Ixd2="),
            ("Ixd2", PromotionMark::Declines)
        );
        assert_eq!(
            PromotionMark::split("Ud7+"),
            ("Ud7", PromotionMark::Promotes)
        );
        assert_eq!(PromotionMark::split("Ud7"), ("Ud7", PromotionMark::None));
    }
}
