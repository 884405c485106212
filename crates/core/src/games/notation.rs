//! How move strings are written, in one place for every game and adapter: the notation (UCI
//! or XBoard), the square names each uses, and the form of a move of several legs (a Cannon
//! shot, to its victim and back: `e3e5,e5e3`), which XBoard enters, writes and reads.

use super::{Move, MoveKind};
use crate::board::geometry::read_square_name;
use crate::board::Square;

/// A square as (file, rank), both counted from 0.
type Coord = (usize, usize);
use arrayvec::ArrayVec;

/// How a move string is written: UCI (1-based ranks, shots as one leg) or XBoard (0-based ranks
/// on boards with exactly ten ranks, shots as two legs).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Notation {
    Uci,
    XBoard,
}

impl Notation {
    /// Whether square names count ranks from 0 on a board of `ranks` ranks: XBoard does on
    /// boards with exactly ten ranks (its own coordinates stop at 9), nowhere else.
    pub fn ranks_from_zero(self, ranks: usize) -> bool {
        self == Notation::XBoard && ranks == 10
    }

    /// The name of the square at (file, rank from 0) on a board of `ranks` ranks (see
    /// [`Notation::ranks_from_zero`]).
    pub fn square_name(self, (file, rank): (usize, usize), ranks: usize) -> String {
        let shown = if self.ranks_from_zero(ranks) {
            rank
        } else {
            rank + 1
        };
        format!("{}{shown}", (b'a' + file as u8) as char)
    }

    /// Reads a square name as [`Notation::square_name`] writes it, at the start of `s`, on a
    /// board of `files` x `ranks`: (file, rank from 0) and the bytes used.
    pub fn parse_square(self, s: &str, files: usize, ranks: usize) -> Option<(Coord, usize)> {
        let (file, rank, used) = read_square_name(s, self.ranks_from_zero(ranks))?;
        (file < files && rank < ranks).then_some(((file, rank), used))
    }
}

/// What separates the legs of a move written in legs.
const LEG_SEPARATOR: char = ',';

/// Where each leg of `m` ends, in order: `[to]` for a move of one leg; a shot (a capture by a
/// piece that does not move) goes to its victim and back, `[to, from]`.
pub fn leg_ends(m: Move) -> ArrayVec<Square, 2> {
    let mut ends = ArrayVec::new();
    ends.push(m.to());
    if m.kind() == MoveKind::Shot {
        ends.push(m.from());
    }
    ends
}

/// A move from `from` written in legs, each leg its start and end square and the next leg
/// starting where it ended: `e3e5,e5e3` for `from` e3 and `ends` [e5, e3]; one leg is a plain
/// `e2e4`. `name` names a square.
pub fn write_legs<S: Copy>(from: S, ends: &[S], name: impl Fn(S) -> String) -> String {
    let mut s = String::new();
    let mut start = from;
    for &end in ends {
        if !s.is_empty() {
            s.push(LEG_SEPARATOR);
        }
        s += &name(start);
        s += &name(end);
        start = end;
    }
    s
}

/// The legs of a move string, in order (the whole string for a move of one leg).
pub fn split_legs(s: &str) -> impl Iterator<Item = &str> {
    s.split(LEG_SEPARATOR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_read_back() {
        for (notation, ranks) in [
            (Notation::Uci, 10),
            (Notation::XBoard, 10),
            (Notation::XBoard, 8),
        ] {
            for rank in 0..ranks {
                for file in 0..10 {
                    let name = notation.square_name((file, rank), ranks);
                    let read = notation.parse_square(&name, 10, ranks);
                    assert_eq!(read, Some(((file, rank), name.len())), "{name}");
                }
            }
        }
        assert_eq!(
            Notation::XBoard.parse_square("e0", 10, 10),
            Some(((4, 0), 2))
        );
        assert_eq!(Notation::XBoard.parse_square("e0", 8, 8), None);
        assert_eq!(Notation::Uci.parse_square("k1", 10, 10), None);
        assert_eq!(Notation::Uci.parse_square("a11", 10, 10), None);
    }

    #[test]
    fn a_shot_is_written_to_its_victim_and_back() {
        let name =
            |sq: Square| Notation::XBoard.square_name((sq.index() % 10, sq.index() / 10), 10);
        let shot = Move::new(Square::new(34), Square::new(54), MoveKind::Shot, 0);
        let ends = leg_ends(shot);
        assert_eq!(ends.as_slice(), [Square::new(54), Square::new(34)]);
        assert_eq!(write_legs(shot.from(), &ends, name), "e3e5,e5e3");
        assert_eq!(write_legs(shot.from(), &ends[..1], name), "e3e5");
        assert_eq!(
            split_legs("e3e5,e5e3").collect::<Vec<_>>(),
            ["e3e5", "e5e3"]
        );
        let step = Move::normal(Square::new(34), Square::new(44));
        assert_eq!(write_legs(step.from(), &leg_ends(step), name), "e3e4");
    }
}
