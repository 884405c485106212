//! FEN reading and writing for the chess family, on any geometry (holes are `*`, ranks may have
//! two-digit runs of empty squares), with X-FEN castling rights.

use super::piece::{Piece, Role};
use super::position::{ChessPosition, BLACK_HIGH, BLACK_LOW, WHITE_HIGH, WHITE_LOW};
use super::rules::ChessRules;
use super::tables::ChessTables;
use super::CHESS_MOVES;
use crate::board::fen::{read_board, write_board};
use crate::board::{BitWord, Color};
use crate::games::{read_fen_clocks, FenError, Variant};

impl<W: BitWord, R: ChessRules> ChessPosition<W, R> {
    /// Reads a FEN. The bracketed holdings part is refused (orthodox chess has no hand).
    pub fn from_fen(
        t: &'static ChessTables<W>,
        variant: &'static Variant,
        fen: &str,
    ) -> Result<Self, FenError> {
        let geo = &t.geo;
        let mut fields = fen.split_whitespace();
        let Some(board_field) = fields.next() else {
            return Err(FenError::empty());
        };
        let (board_part, hand) = match board_field.find('[') {
            Some(i) => (&board_field[..i], &board_field[i..]),
            None => (board_field, "[]"),
        };
        let mut pos = ChessPosition::empty(t, variant);
        pos.read_reserve(hand)?;
        for (sq, c) in read_board(&t.geo, t.geo.valid() | t.extra, board_part)? {
            let Some(p) = Piece::from_letter_in(c, R::ROLES) else {
                return Err(FenError::board(format!(
                    "unknown piece letter '{c}' in FEN"
                )));
            };
            pos.put(p, sq);
        }
        R::validate_pieces(&pos)?;
        for c in Color::BOTH {
            let kings = pos.pieces(c, Role::King).count();
            if kings != 1 {
                return Err(FenError::position(format!(
                    "{} has {kings} kings, needs exactly one",
                    c.name()
                )));
            }
        }
        let promo_ranks = geo.rank_mask(0) | geo.rank_mask(geo.ranks() - 1);
        if (pos.pawn_like() & promo_ranks & geo.valid()).any() {
            return Err(FenError::position(
                "a pawn stands on the first or last rank",
            ));
        }
        R::validate_off_board(&pos)?;
        for c in Color::BOTH {
            let most = pos.most_moves_of_side(c);
            if most > CHESS_MOVES {
                return Err(FenError::position(format!(
                    "{} could have up to {most} moves, more than a move list holds \
                     ({CHESS_MOVES})",
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
        let castling = fields.next().unwrap_or("-");
        pos.read_castling(castling)?;

        if let Some(ep) = fields.next().filter(|s| *s != "-") {
            pos.read_en_passant(ep)?;
        }
        (pos.halfmove, pos.fullmove) = read_fen_clocks(&mut fields)?;
        if let Some(extra) = fields.next() {
            return Err(FenError::trailing(extra));
        }
        if pos.is_attacked(pos.king_square(!pos.side), pos.occupied(), pos.side) {
            return Err(FenError::position("the side not to move is in check"));
        }
        pos.key = pos.compute_key();
        pos.checkers = pos.compute_checkers();
        Ok(pos)
    }

    /// Reads the bracketed reserve (`[CCcc]`, `[]`, `[-]`); what may be in it is the variant's
    /// to say.
    fn read_reserve(&mut self, hand: &str) -> Result<(), FenError> {
        let Some(inner) = hand.strip_prefix('[').and_then(|h| h.strip_suffix(']')) else {
            return Err(FenError::hand(format!(
                "bad reserve '{hand}': expected [..] after the board"
            )));
        };
        if inner.is_empty() || inner == "-" {
            return Ok(());
        }
        R::read_reserve(self, hand, inner)
    }

    fn read_castling(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let geo = &self.t.geo;
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let back_rank = if color == Color::White {
                0
            } else {
                geo.ranks() - 1
            };
            let ksq = self.king_square(color);
            if geo.rank_of(ksq) != back_rank {
                return Err(FenError::castling(format!(
                    "castling right '{c}' but the king is not on its first rank"
                )));
            }
            let kf = geo.file_of(ksq);
            let rooks = self.pieces(color, Role::Rook) & geo.rank_mask(back_rank);
            let rook = match c.to_ascii_uppercase() {
                'K' => rooks.into_iter().filter(|&s| geo.file_of(s) > kf).last(),
                'Q' => rooks.into_iter().find(|&s| geo.file_of(s) < kf),
                f @ 'A'..='L' => {
                    let file = (f as u8 - b'A') as usize;
                    rooks.into_iter().find(|&s| geo.file_of(s) == file)
                }
                _ => return Err(FenError::castling(format!("bad castling character '{c}'"))),
            };
            let Some(rook) = rook else {
                return Err(FenError::castling(format!(
                    "castling right '{c}' has no rook to castle with"
                )));
            };
            let high = geo.file_of(rook) > kf;
            let bit = match (color, high) {
                (Color::White, true) => WHITE_HIGH,
                (Color::White, false) => WHITE_LOW,
                (Color::Black, true) => BLACK_HIGH,
                (Color::Black, false) => BLACK_LOW,
            };
            self.castling |= bit;
            self.castle_rooks[bit.trailing_zeros() as usize] = rook;
            let both = if color == Color::White {
                WHITE_HIGH | WHITE_LOW
            } else {
                BLACK_HIGH | BLACK_LOW
            };
            self.rights_mask[ksq.index()] &= !both;
            self.rights_mask[rook.index()] &= !bit;
        }
        Ok(())
    }

    fn read_en_passant(&mut self, field: &str) -> Result<(), FenError> {
        let geo = &self.t.geo;
        let Some((ep, _)) = geo
            .parse_square(field, false)
            .filter(|(_, n)| *n == field.len())
        else {
            return Err(FenError::en_passant(format!(
                "bad en-passant square '{field}'"
            )));
        };
        let us = self.side;
        let expected_rank = if us == Color::White {
            geo.ranks() - 3
        } else {
            2
        };
        if geo.rank_of(ep) != expected_rank {
            return Err(FenError::en_passant(format!(
                "en-passant square '{field}' is on the wrong rank"
            )));
        }
        let pawn_sq = geo.step(ep, self.t.forward(!us));
        let origin = geo.step(ep, self.t.forward(us));
        let pawn_there = pawn_sq.is_some_and(|s| (self.pawn_like() & self.ours(!us)).contains(s));
        // The pawn's origin is empty after a double step (unless the variant says otherwise).
        let clear = self.piece_at(ep).is_none()
            && origin.is_some_and(|s| {
                self.piece_at(s).is_none() || R::ep_origin_may_be_occupied(self, s, !us)
            });
        if !pawn_there || !clear {
            return Err(FenError::en_passant(format!(
                "en-passant square '{field}' does not follow a double step"
            )));
        }
        // Kept only if it could be used, as after a real double step.
        if self.ep_capturable(ep, us) {
            self.ep = Some(ep);
        }
        Ok(())
    }

    pub fn fen(&self) -> String {
        let geo = &self.t.geo;
        let mut s = write_board(geo, geo.valid() | self.t.extra, |sq| {
            self.piece_at(sq).map(Piece::letter)
        });
        R::write_reserve(self, &mut s);
        s.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        s.push_str(&self.castling_string());
        s.push(' ');
        match self.ep {
            Some(ep) => s.push_str(&geo.square_name(ep, false)),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    fn castling_string(&self) -> String {
        let geo = &self.t.geo;
        let mut s = String::new();
        for (bit, color, high) in [
            (WHITE_HIGH, Color::White, true),
            (WHITE_LOW, Color::White, false),
            (BLACK_HIGH, Color::Black, true),
            (BLACK_LOW, Color::Black, false),
        ] {
            if self.castling & bit == 0 {
                continue;
            }
            let rook = self.castle_rooks[bit.trailing_zeros() as usize];
            let kf = geo.file_of(self.king_square(color));
            let rank = geo.rank_mask(geo.rank_of(rook));
            let rooks = self.pieces(color, Role::Rook) & rank;
            // X-FEN: K/Q when the castling rook is the outermost one on that side, else its file.
            let outermost = if high {
                rooks.into_iter().filter(|&r| geo.file_of(r) > kf).last() == Some(rook)
            } else {
                rooks.into_iter().find(|&r| geo.file_of(r) < kf) == Some(rook)
            };
            let c = if outermost {
                if high {
                    'K'
                } else {
                    'Q'
                }
            } else {
                (b'A' + geo.file_of(rook) as u8) as char
            };
            s.push(if color == Color::White {
                c
            } else {
                c.to_ascii_lowercase()
            });
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}
