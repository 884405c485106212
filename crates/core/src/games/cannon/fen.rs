//! Cannon FENs: `S`/`s` soldiers and `T`/`t` towns on a 10x10 board, towns in hand in
//! brackets (`[Tt]`, `[t]`, `[]`), then side, `-` `-` (no castling, no en passant), the
//! halfmove clock (plies since the last capture, shot or town placement) and the move number.

use super::position::CannonPosition;
use crate::board::fen::{read_board, write_board};
use crate::board::Color;
use crate::games::{read_fen_clocks, FenError, FenField};

/// The most soldiers a side can have: the 15 it starts with (soldiers are never added).
pub const MAX_SOLDIERS: u32 = 15;

impl CannonPosition {
    /// Reads a FEN, refusing positions that cannot arise in a game.
    pub fn from_fen(fen: &str, clear_shot: bool) -> Result<Self, FenError> {
        let mut fields = fen.split_whitespace();
        let Some(board_field) = fields.next() else {
            return Err(FenError::empty());
        };
        let mut pos = CannonPosition::empty();
        pos.clear_shot = clear_shot;

        let (board, hand) = match board_field.find('[') {
            Some(i) => {
                let Some(hand) = board_field[i + 1..].strip_suffix(']') else {
                    return Err(FenError::hand(format!(
                        "the hand '{}' must end with ']'",
                        &board_field[i..]
                    )));
                };
                (&board_field[..i], hand)
            }
            None => (board_field, ""),
        };
        let geo = &pos.t.geo;
        for (sq, c) in read_board(geo, geo.valid(), board)? {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            match c.to_ascii_uppercase() {
                'S' => pos.soldiers[color.index()].set(sq),
                'T' => {
                    if pos.towns[color.index()].any() {
                        return Err(FenError::position(format!(
                            "{} has two towns on the board",
                            color.name()
                        )));
                    }
                    if !pos.t.town_squares[color.index()].contains(sq) {
                        return Err(FenError::position(format!(
                            "{}'s town on {} is not on its first rank between the corners",
                            color.name(),
                            geo.square_name(sq, false)
                        )));
                    }
                    pos.towns[color.index()].set(sq);
                }
                _ => {
                    return Err(FenError::board(format!(
                        "unknown piece letter '{c}' in a Cannon FEN"
                    )))
                }
            }
        }
        for c in hand.chars().filter(|&c| c != '-') {
            let color = match c {
                'T' => Color::White,
                't' => Color::Black,
                _ => {
                    return Err(FenError::hand(format!(
                        "only towns can be in hand, not '{c}' (the hand is like [Tt])"
                    )))
                }
            };
            if pos.in_hand[color.index()] {
                return Err(FenError::hand(format!(
                    "{} has two towns in hand",
                    color.name()
                )));
            }
            if pos.towns[color.index()].any() {
                return Err(FenError::position(format!(
                    "{} has a town both on the board and in hand",
                    color.name()
                )));
            }
            pos.in_hand[color.index()] = true;
        }
        for c in Color::BOTH {
            let n = pos.soldiers[c.index()].count();
            if n > MAX_SOLDIERS {
                return Err(FenError::position(format!(
                    "{} has {n} soldiers, at most {MAX_SOLDIERS}",
                    c.name()
                )));
            }
        }

        pos.side = match fields.next().unwrap_or("w") {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            s => {
                return Err(FenError::side_to_move(format!(
                    "side to move must be 'w' or 'b', not '{s}'"
                )))
            }
        };
        for (field, name, value) in [
            (FenField::Castling, "castling", fields.next()),
            (FenField::EnPassant, "en-passant", fields.next()),
        ] {
            if let Some(v) = value.filter(|v| *v != "-") {
                return Err(FenError::new(
                    field,
                    format!("Cannon has no {name} field; it must be '-', not '{v}'"),
                ));
            }
        }
        (pos.halfmove, pos.fullmove) = read_fen_clocks(&mut fields)?;
        if let Some(extra) = fields.next() {
            return Err(FenError::trailing(extra));
        }
        pos.check_town_order()?;
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// The towns' states must fit the order of play: white places first, then black, and a
    /// town can only be gone (taken) from the side to move, which has just lost.
    fn check_town_order(&self) -> Result<(), FenError> {
        let state = |c: Color| -> u8 {
            if self.in_hand[c.index()] {
                0 // in hand
            } else if self.towns[c.index()].any() {
                1 // on the board
            } else {
                2 // taken
            }
        };
        let (w, b) = (state(Color::White), state(Color::Black));
        let ok = matches!(
            (w, b, self.side),
            (0, 0, Color::White)
                | (1, 0, Color::Black)
                | (1, 1, _)
                | (2, 1, Color::White)
                | (1, 2, Color::Black)
        );
        if ok {
            return Ok(());
        }
        let msg = match (w, b) {
            (2, 2) => "both towns are missing (put a town in hand as [T] or [t])".to_string(),
            (2, _) | (_, 2) => {
                let lost = if w == 2 { Color::White } else { Color::Black };
                format!(
                    "{}'s town is missing, but only the side to move can have just lost it \
                     (put it in hand as [{}] if it is not yet placed)",
                    lost.name(),
                    if lost == Color::White { 'T' } else { 't' }
                )
            }
            (0, 1) => "White's town is in hand but Black's is placed: white places first".into(),
            (0, 0) => "both towns are in hand, so white is to move (it places first)".into(),
            _ => "Black's town is in hand: black must place it before white moves on".into(),
        };
        Err(FenError::position(msg))
    }

    pub fn fen(&self) -> String {
        let mut s = write_board(&self.t.geo, self.t.geo.valid(), |sq| self.letter_at(sq));
        s.push('[');
        if self.in_hand[Color::White.index()] {
            s.push('T');
        }
        if self.in_hand[Color::Black.index()] {
            s.push('t');
        }
        s.push(']');
        s.push_str(if self.side == Color::White {
            " w"
        } else {
            " b"
        });
        s.push_str(&format!(" - - {} {}", self.halfmove, self.fullmove));
        s
    }
}
