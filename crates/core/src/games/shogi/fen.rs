//! FEN reading and writing in Fairy-Stockfish's form for Cannon Shogi: `+X` for promoted
//! pieces, hands in brackets after the board (`[GPup]`, `[]` or `[-]` when empty), then side,
//! castling and en-passant fields (always `-`), halfmove clock and fullmove number. The short
//! variants.ini form (`...[-] w 0 1`) and SFEN (`sfen <board> b - 1`) are read too.

use super::piece::{Kind, Piece, Role, HAND_KINDS, HAND_ORDER, PIECES_IN_GAME};
use super::position::ShogiPosition;
use super::tables::{FILES, MAX_HAND, RANKS};
use crate::board::Color;
use crate::games::{FenError, FenField};

/// Reads the board part (ranks from the top, `+` before promoted pieces) onto `pos`.
fn parse_board(pos: &mut ShogiPosition, board: &str) -> Result<(), FenError> {
    let geo = &pos.t.geo;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != RANKS {
        return Err(FenError::board(format!(
            "FEN board has {} ranks, Cannon Shogi has {RANKS}",
            rows.len()
        )));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = RANKS - 1 - i;
        let mut file = 0usize;
        let mut promoted = false;
        for c in row.chars() {
            if promoted && !c.is_ascii_alphabetic() {
                return Err(FenError::board(format!(
                    "FEN rank {}: '+' must precede a piece",
                    rank + 1
                )));
            }
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(FenError::board(format!(
                        "FEN rank {} has an empty run of 0",
                        rank + 1
                    )));
                }
                file += d as usize;
            } else if c == '+' {
                promoted = true;
                continue;
            } else {
                let Some(role) = Role::from_letter(c) else {
                    return Err(FenError::board(format!(
                        "FEN has an unknown piece letter '{c}'"
                    )));
                };
                let role = if promoted {
                    if !role.can_promote() {
                        return Err(FenError::board(format!(
                            "FEN: '+{c}' is not a piece ({c} cannot promote)"
                        )));
                    }
                    role.promoted()
                } else {
                    role
                };
                promoted = false;
                if file >= FILES {
                    return Err(FenError::board(format!(
                        "FEN rank {} is too long",
                        rank + 1
                    )));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let sq = geo
                    .square(file as i32, rank as i32)
                    .expect("inside the board");
                pos.put(Piece::new(color, role), sq);
                file += 1;
            }
            if file > FILES {
                return Err(FenError::board(format!(
                    "FEN rank {} is too long",
                    rank + 1
                )));
            }
        }
        if promoted {
            return Err(FenError::board(format!(
                "FEN rank {} ends with '+'",
                rank + 1
            )));
        }
        if file != FILES {
            return Err(FenError::board(format!(
                "FEN rank {} has {file} squares, the board has {FILES} files",
                rank + 1
            )));
        }
    }
    Ok(())
}

/// Adds `count` pieces written as `c` to the right hand.
fn add_to_hand(pos: &mut ShogiPosition, c: char, count: usize) -> Result<(), FenError> {
    let Some(role) = Role::from_letter(c) else {
        return Err(FenError::hand(format!(
            "hand has an unknown piece letter '{c}'"
        )));
    };
    if role == Role::King {
        return Err(FenError::hand("a king cannot be in hand"));
    }
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let n = pos.hands[color.index()][role.index()] as usize + count;
    if n >= MAX_HAND {
        return Err(FenError::hand(format!("too many '{c}' in hand ({n})")));
    }
    pos.set_hand(color, role.index(), n as u8);
    Ok(())
}

/// Reads a hand: letters, each optionally preceded by a count (`2P` as in SFEN); `-` or
/// nothing for an empty hand.
fn parse_hand(pos: &mut ShogiPosition, hand: &str) -> Result<(), FenError> {
    if hand == "-" {
        return Ok(());
    }
    let mut count: Option<usize> = None;
    for c in hand.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d as usize;
            if n >= MAX_HAND {
                return Err(FenError::hand(format!("hand count {n} is too large")));
            }
            count = Some(n);
        } else {
            add_to_hand(pos, c, count.take().unwrap_or(1))?;
        }
    }
    if count.is_some() {
        return Err(FenError::hand("hand ends with a count and no piece"));
    }
    Ok(())
}

/// Checks what every position needs: one king each, and the side that just moved not left
/// in check.
fn finish(mut pos: ShogiPosition) -> Result<ShogiPosition, FenError> {
    for c in Color::BOTH {
        let kings = (pos.by_kind[Kind::King.index()] & pos.by_color[c.index()]).count();
        if kings != 1 {
            return Err(FenError::position(format!(
                "FEN must have exactly one {} king, it has {kings}",
                c.name().to_lowercase()
            )));
        }
    }
    let mut count = [0; HAND_KINDS];
    for sq in pos.occupied() {
        let role = Piece::from_code(pos.board[sq.index()]).role().unpromoted();
        if role != Role::King {
            count[role.index()] += 1;
        }
    }
    for (kind, n) in count.iter_mut().enumerate() {
        *n += pos.hands[0][kind] + pos.hands[1][kind];
        if *n > PIECES_IN_GAME[kind] {
            return Err(FenError::position(format!(
                "{n} pieces '{}' (on the board, promoted or not, and in hand), the game has {}",
                Role::from_index(kind).base_letter(),
                PIECES_IN_GAME[kind]
            )));
        }
    }
    if pos.king_attackers(!pos.side).any() {
        return Err(FenError::position("the side not to move is in check"));
    }
    pos.checkers = pos.king_attackers(pos.side);
    debug_assert_eq!(pos.key, pos.compute_key());
    Ok(pos)
}

fn parse_number(s: &str, field: FenField, what: &str) -> Result<u32, FenError> {
    s.parse()
        .map_err(|_| FenError::new(field, format!("FEN {what} '{s}' is not a number")))
}

impl ShogiPosition {
    /// Reads a FEN (Fairy-Stockfish's form), the variants.ini short form, or `sfen ...`.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        let fen = fen.trim();
        if let Some(rest) = fen.strip_prefix("sfen ") {
            return Self::from_sfen(rest);
        }
        let mut fields = fen.split_whitespace();
        let Some(first) = fields.next() else {
            return Err(FenError::empty());
        };
        let mut pos = ShogiPosition::empty();
        let (board, hand) = match first.find('[') {
            Some(i) => {
                let Some(hand) = first[i + 1..].strip_suffix(']') else {
                    return Err(FenError::hand(
                        "FEN hand must end with ']' right after the pieces",
                    ));
                };
                (&first[..i], hand)
            }
            None => (first, ""),
        };
        parse_board(&mut pos, board)?;
        if hand.contains(['[', ']']) {
            return Err(FenError::hand("FEN hand has a stray bracket"));
        }
        parse_hand(&mut pos, hand)?;
        match fields.next() {
            None | Some("w") => {}
            Some("b") => {
                pos.side = Color::Black;
                pos.key ^= pos.t.keys.side;
            }
            Some(s) => {
                return Err(FenError::side_to_move(format!(
                    "FEN side to move '{s}' is not w or b"
                )))
            }
        }
        // Castling and en passant never exist here: accept '-' in their place, or nothing
        // (the variants.ini form goes straight to the counters).
        let rest: Vec<&str> = fields.collect();
        let mut i = 0;
        while i < rest.len() && i < 2 && rest[i].parse::<u32>().is_err() {
            if rest[i] != "-" {
                let field = if i == 0 {
                    FenField::Castling
                } else {
                    FenField::EnPassant
                };
                return Err(FenError::new(
                    field,
                    format!(
                        "FEN field '{}': Cannon Shogi has no castling or en passant",
                        rest[i]
                    ),
                ));
            }
            i += 1;
        }
        let numbers = &rest[i..];
        if numbers.len() > 2 {
            return Err(FenError::new(
                FenField::Trailing,
                format!("FEN has extra fields: '{}'", numbers[2..].join(" ")),
            ));
        }
        let halfmove = numbers.first().map_or(Ok(0), |s| {
            parse_number(s, FenField::HalfmoveClock, "halfmove clock")
        })?;
        let fullmove = numbers.get(1).map_or(Ok(1), |s| {
            parse_number(s, FenField::FullmoveNumber, "fullmove number")
        })?;
        pos.halfmove = halfmove.min(u16::MAX as u32) as u16;
        pos.game_ply = 2 * (fullmove.clamp(1, 1 << 20) - 1) + u32::from(pos.side == Color::Black);
        finish(pos)
    }

    /// Reads an SFEN: board, side (`b` = sente = white), hand with counts, move number.
    pub fn from_sfen(sfen: &str) -> Result<Self, FenError> {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        if fields.len() < 3 || fields.len() > 4 {
            // Named by the first field missing, or the text after the last one.
            let field = match fields.len() {
                0 => FenField::Empty,
                1 => FenField::SideToMove,
                2 => FenField::Hand,
                _ => FenField::Trailing,
            };
            return Err(FenError::new(
                field,
                "SFEN needs board, side, hand and (optionally) the move number",
            ));
        }
        let mut pos = ShogiPosition::empty();
        parse_board(&mut pos, fields[0])?;
        match fields[1] {
            "b" => {}
            "w" => {
                pos.side = Color::Black;
                pos.key ^= pos.t.keys.side;
            }
            s => {
                return Err(FenError::side_to_move(format!(
                    "SFEN side to move '{s}' is not b or w"
                )))
            }
        }
        parse_hand(&mut pos, fields[2])?;
        let ply = fields.get(3).map_or(Ok(1), |s| {
            parse_number(s, FenField::FullmoveNumber, "move number")
        })?;
        // Fairy-Stockfish reads the SFEN move number as a ply count.
        pos.game_ply = ply.clamp(1, 1 << 20) - 1;
        finish(pos)
    }

    /// The FEN in Fairy-Stockfish's form.
    pub fn fen(&self) -> String {
        let geo = &self.t.geo;
        let mut s = String::new();
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let sq = geo
                    .square(file as i32, rank as i32)
                    .expect("inside the board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s += &p.fen();
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push('[');
        for c in Color::BOTH {
            for role in HAND_ORDER {
                let letter = Piece::new(c, role).fen();
                for _ in 0..self.hands[c.index()][role.index()] {
                    s += &letter;
                }
            }
        }
        s.push(']');
        let side = if self.side == Color::White { 'w' } else { 'b' };
        let black = u32::from(self.side == Color::Black);
        let fullmove = 1 + (self.game_ply.saturating_sub(black)) / 2;
        s += &format!(" {side} - - {} {fullmove}", self.halfmove);
        s
    }

    /// Total pieces of `c` in hand.
    pub fn hand_size(&self, c: Color) -> u32 {
        self.hands[c.index()][..HAND_KINDS]
            .iter()
            .map(|&n| n as u32)
            .sum()
    }
}
