//! Standard Algebraic Notation for the chess family, for PGN files: piece letter, the least
//! disambiguation that makes the move unique, `x` for captures, `=Q` for promotions, `O-O` /
//! `O-O-O` for castling and `+` / `#` for check and mate.

use super::piece::Role;
use super::position::ChessPosition;
use super::rules::ChessRules;
use crate::board::{BitWord, Square};
use crate::games::chess::ChessMoves;
use crate::games::{Move, MoveKind, Notation};

impl<W: BitWord, R: ChessRules> ChessPosition<W, R> {
    /// The SAN of a legal move of this position.
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_without_suffix(m);
        // The check and mate marks need the position after the move.
        let mut after = self.clone();
        after.make(m);
        if after.checkers().any() {
            let mut replies = ChessMoves::new();
            after.generate_legal(&mut replies);
            s.push(if replies.is_empty() { '#' } else { '+' });
        }
        s
    }

    fn san_without_suffix(&self, m: Move) -> String {
        let geo = &self.t.geo;
        let name = |sq: Square| geo.square_name(sq, false);
        let file_letter = |sq: Square| (b'a' + geo.file_of(sq) as u8) as char;
        match m.kind() {
            MoveKind::Castle => {
                return if m.to() > m.from() { "O-O" } else { "O-O-O" }.to_string();
            }
            MoveKind::Entry => {
                return format!(
                    "{}@{}",
                    Role::from_index(m.piece() as usize).letter(),
                    name(m.to())
                );
            }
            MoveKind::Shot => return self.move_string(m, Notation::Uci),
            _ => {}
        }
        let Some(mover) = self.piece_at(m.from()) else {
            return self.move_string(m, Notation::Uci);
        };
        let capture = m.kind() == MoveKind::EnPassant || self.piece_at(m.to()).is_some();
        let mut s = String::new();
        if mover.role() == Role::Pawn {
            if capture {
                s.push(file_letter(m.from()));
            }
        } else {
            s.push(mover.role().letter());
            s += &self.disambiguation(m, mover.role());
        }
        if capture {
            s.push('x');
        }
        s += &name(m.to());
        if m.kind() == MoveKind::Promotion {
            s.push('=');
            s.push(Role::from_index(m.piece() as usize).letter());
        }
        s
    }

    /// What must follow the piece letter so that no other legal move of the same kind of piece
    /// to the same square reads the same: nothing, the file, the rank, or the whole square.
    fn disambiguation(&self, m: Move, role: Role) -> String {
        let geo = &self.t.geo;
        let mut moves = ChessMoves::new();
        self.generate_legal(&mut moves);
        let rivals: Vec<Square> = moves
            .iter()
            .filter(|o| o.to() == m.to() && o.from() != m.from() && o.kind() == m.kind())
            .filter(|o| self.piece_at(o.from()).map(|p| p.role()) == Some(role))
            .map(|o| o.from())
            .collect();
        if rivals.is_empty() {
            return String::new();
        }
        let name = geo.square_name(m.from(), false);
        let (file, rank) = name.split_at(1);
        if rivals
            .iter()
            .all(|&r| geo.file_of(r) != geo.file_of(m.from()))
        {
            file.to_string()
        } else if rivals
            .iter()
            .all(|&r| geo.rank_of(r) != geo.rank_of(m.from()))
        {
            rank.to_string()
        } else {
            name
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::games::chess::Chess;
    use crate::games::{Game, Notation};

    /// The SAN of a UCI move string in a FEN.
    fn san(fen: &str, uci: &str) -> String {
        let pos = crate::engine::registry::new_game::<Chess>("chess")
            .unwrap()
            .with_fen(fen)
            .unwrap();
        let m = pos.parse_move(uci, Notation::Uci).expect("legal move");
        pos.move_to_pgn(m)
    }

    #[test]
    fn plain_moves_captures_and_pawns() {
        let start = crate::engine::registry::find("chess")
            .unwrap()
            .game
            .start_fen;
        assert_eq!(san(start, "e2e4"), "e4");
        assert_eq!(san(start, "g1f3"), "Nf3");
        let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
        assert_eq!(san(fen, "e4d5"), "exd5");
        // En passant is a pawn capture written with the file of departure.
        let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(san(ep, "e5f6"), "exf6");
    }

    #[test]
    fn disambiguation_by_file_rank_and_square() {
        // Knights on b1 and f1 both reach d2: the file decides.
        assert_eq!(san("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2"), "Nbd2");
        // Rooks on a1 and a5 both reach a3: same file, so the rank decides.
        assert_eq!(san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
        // Queens on a1, a3 and c1 all reach b2: neither file nor rank alone is unique for a1.
        assert_eq!(san("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2"), "Qa1b2");
        // A pinned rival does not count: the knight on c3 is pinned, so Ne2 needs nothing.
        assert_eq!(san("4k3/8/8/b7/8/2N5/8/4K1N1 w - - 0 1", "g1e2"), "Ne2");
        assert_eq!(san("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1", "g1e2"), "Nge2");
    }

    #[test]
    fn castling_promotion_check_and_mate() {
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(san(castle, "e1g1"), "O-O");
        assert_eq!(san(castle, "e1c1"), "O-O-O");
        assert_eq!(san("8/P6k/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), "a8=Q");
        assert_eq!(san("1r5k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n"), "axb8=N");
        assert_eq!(san("7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8r"), "a8=R+");
        assert_eq!(san("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), "Ra8#");
        // Castling that gives check.
        assert_eq!(san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
    }
}
