//! The board field of a FEN on any geometry, for games whose pieces are one letter each:
//! ranks from the top, `/` between ranks, runs of empty squares as one- or two-digit numbers,
//! `*` for a hole. Games add their own hands and fields around it.

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::square::Square;
use super::word::BitWord;

/// A text diagram of the board for people (every game's `board_diagram`): ranks from the top,
/// numbered from 1, each square two characters wide as `cell` writes it, the file letters below.
pub fn diagram<W: BitWord>(geo: &Geometry<W>, mut cell: impl FnMut(Square) -> String) -> String {
    let mut s = String::new();
    for rank in (0..geo.ranks()).rev() {
        s += &format!("{:>2} ", rank + 1);
        for file in 0..geo.files() {
            let sq = geo
                .square(file as i32, rank as i32)
                .expect("inside the board");
            s += &cell(sq);
        }
        s.push('\n');
    }
    s += "   ";
    for file in 0..geo.files() {
        s.push(' ');
        s.push((b'a' + file as u8) as char);
    }
    s.push('\n');
    s
}

/// Why a board field was refused, as [`read_board`] finds it (ranks are counted from 1, squares
/// named as in the game's FEN).
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum BoardFieldError {
    #[error("FEN board has {found} ranks, this board has {ranks}")]
    RankCount { found: usize, ranks: usize },
    #[error("FEN rank {rank} has an empty run of 0")]
    EmptyRunOfZero { rank: usize },
    #[error("FEN rank {rank} is too long")]
    RankTooLong { rank: usize },
    #[error("FEN rank {rank} has {found} squares, the board has {files} files")]
    RankTooShort {
        rank: usize,
        found: usize,
        files: usize,
    },
    #[error("FEN has an empty square where the board has a hole ({square})")]
    EmptyOnHole { square: String },
    #[error("FEN has a hole on {square}, which exists on this board")]
    HoleOnSquare { square: String },
    #[error("FEN puts '{letter}' on a hole ({square})")]
    PieceOnHole { letter: char, square: String },
}

/// Reads a board field into `(square, letter)` pairs, checking the shape against `geo`: the
/// number of ranks, the length of each rank, and holes (`*`) exactly on the squares of the
/// rectangle that are not in `exists` (usually `geo.valid()`; a game with squares beside the
/// board, such as Chesstonia's cannon machinery, adds them).
pub fn read_board<W: BitWord>(
    geo: &Geometry<W>,
    exists: Bitboard<W>,
    board: &str,
) -> Result<Vec<(Square, char)>, BoardFieldError> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != geo.ranks() {
        return Err(BoardFieldError::RankCount {
            found: rows.len(),
            ranks: geo.ranks(),
        });
    }
    let mut pieces = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = geo.ranks() - 1 - i;
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d as usize;
                if let Some(d2) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n * 10 + d2 as usize;
                    chars.next();
                }
                if n == 0 {
                    return Err(BoardFieldError::EmptyRunOfZero { rank: rank + 1 });
                }
                if file + n > geo.files() {
                    return Err(BoardFieldError::RankTooLong { rank: rank + 1 });
                }
                for f in file..file + n {
                    let sq = geo
                        .square(f as i32, rank as i32)
                        .expect("inside the rectangle");
                    if !exists.contains(sq) {
                        return Err(BoardFieldError::EmptyOnHole {
                            square: geo.square_name(sq, false),
                        });
                    }
                }
                file += n;
                continue;
            }
            let Some(sq) = geo.square(file as i32, rank as i32) else {
                return Err(BoardFieldError::RankTooLong { rank: rank + 1 });
            };
            match (c == '*', exists.contains(sq)) {
                (true, true) => {
                    return Err(BoardFieldError::HoleOnSquare {
                        square: geo.square_name(sq, false),
                    })
                }
                (false, false) => {
                    return Err(BoardFieldError::PieceOnHole {
                        letter: c,
                        square: geo.square_name(sq, false),
                    })
                }
                (true, false) => {}
                (false, true) => pieces.push((sq, c)),
            }
            file += 1;
        }
        if file != geo.files() {
            return Err(BoardFieldError::RankTooShort {
                rank: rank + 1,
                found: file,
                files: geo.files(),
            });
        }
    }
    Ok(pieces)
}

/// Writes a board field: `letter(sq)` gives the piece letter on a square, `None` when empty;
/// squares of the rectangle not in `exists` are written as holes (`*`).
pub fn write_board<W: BitWord>(
    geo: &Geometry<W>,
    exists: Bitboard<W>,
    letter: impl Fn(Square) -> Option<char>,
) -> String {
    let mut s = String::new();
    for rank in (0..geo.ranks()).rev() {
        let mut empty = 0;
        for file in 0..geo.files() {
            let sq = geo
                .square(file as i32, rank as i32)
                .expect("inside the rectangle");
            let c = if exists.contains(sq) {
                letter(sq)
            } else {
                Some('*')
            };
            match c {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    s.push(c);
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
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_by_ten_board_round_trips_with_two_digit_runs() {
        let geo = Geometry::<u128>::new(10, 10, &[]);
        let board = "10/1s1s1s1s1s/1s1s1s1s1s/1s1s1s1s1s/10/10/S1S1S1S1S1/S1S1S1S1S1/S1S1S1S1S1/10";
        let pieces = read_board(&geo, geo.valid(), board).unwrap();
        assert_eq!(pieces.len(), 30);
        let a2 = geo.parse_square("a2", false).unwrap().0;
        let j9 = geo.parse_square("j9", false).unwrap().0;
        assert!(pieces.contains(&(a2, 'S')) && pieces.contains(&(j9, 's')));
        let written = write_board(&geo, geo.valid(), |sq| {
            pieces.iter().find(|(s, _)| *s == sq).map(|&(_, c)| c)
        });
        assert_eq!(written, board);
    }

    #[test]
    fn bad_shapes_are_refused_with_a_reason() {
        let geo = Geometry::<u128>::new(10, 10, &[]);
        let nine_ranks = "10/10/10/10/10/10/10/10/10";
        assert!(read_board(&geo, geo.valid(), nine_ranks)
            .unwrap_err()
            .to_string()
            .contains("9 ranks"));
        let long = "11/10/10/10/10/10/10/10/10/10";
        assert!(read_board(&geo, geo.valid(), long)
            .unwrap_err()
            .to_string()
            .contains("too long"));
        let short = "9/10/10/10/10/10/10/10/10/10";
        assert!(read_board(&geo, geo.valid(), short)
            .unwrap_err()
            .to_string()
            .contains("9 squares"));
        let hole = "*9/10/10/10/10/10/10/10/10/10";
        assert!(read_board(&geo, geo.valid(), hole)
            .unwrap_err()
            .to_string()
            .contains("hole"));
        let zero = "0/10/10/10/10/10/10/10/10/10";
        assert!(read_board(&geo, geo.valid(), zero)
            .unwrap_err()
            .to_string()
            .contains("run of 0"));
    }
}
