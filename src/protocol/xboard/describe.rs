//! What the engine tells XBoard about the games: the `setup` and `piece` lines that make it
//! draw a game it does not know, and the `highlight` boards that show legal destinations.
//! Everything game-specific comes from the registry.

use crate::engine::registry::{VariantInfo, XBoardSetup, XBoardSlot};
use crate::engine::Coord;
use crate::games::Notation;

/// XBoard's piece-to-char table for a game: our letters on their slots, `.` on unused ones,
/// the king slot last; black is the same in lower case.
pub fn piece_to_char(desc: &XBoardSetup) -> Option<String> {
    if desc.slots.is_empty() {
        return None;
    }
    let max = desc
        .slots
        .iter()
        .filter(|(_, s)| *s != XBoardSlot::King)
        .map(|(_, s)| *s as usize)
        .max()
        .unwrap_or(0);
    // XBoard wants at least six letters a side (five slots and the king).
    let mut white = vec!['.'; (max + 1).max(5)];
    let mut king = '.';
    for &(c, slot) in desc.slots {
        match slot {
            XBoardSlot::King => king = c,
            s => white[s as usize] = c,
        }
    }
    white.push(king);
    let white: String = white.into_iter().collect();
    let black = white.to_ascii_lowercase();
    Some(format!("{white}{black}"))
}

/// The `setup` line: `setup (TABLE) WxH+S_PARENT FEN`.
pub fn setup_line(info: &VariantInfo, desc: &XBoardSetup, fen: &str) -> String {
    let table = piece_to_char(desc)
        .map(|t| format!("({t}) "))
        .unwrap_or_default();
    format!(
        "setup {table}{}x{}+{}_{} {fen}",
        info.game.files, info.game.ranks, desc.holdings, desc.parent
    )
}

/// The `piece` lines (`piece X& BETZA`: the same moves for both colours).
pub fn piece_lines(desc: &XBoardSetup) -> Vec<String> {
    desc.pieces
        .iter()
        .map(|(c, betza)| format!("piece {c}& {betza}"))
        .collect()
}

/// A square name as XBoard writes it: file letter, then the rank (from 0 on boards with ten
/// ranks, from 1 otherwise). Returns (file, rank index from 0) and the bytes used.
pub fn parse_square(s: &str, files: usize, ranks: usize) -> Option<((usize, usize), usize)> {
    let b = s.as_bytes();
    let f = *b.first()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let r: usize = s[1..1 + digits].parse().ok()?;
    let r = if ranks == 10 { r } else { r.checked_sub(1)? };
    let file = (f - b'a') as usize;
    (file < files && r < ranks).then_some(((file, r), 1 + digits))
}

/// Whether `s` has the form of a move on a board of this size (whether or not it is legal):
/// `e2e4`, `e7e8q`, `P@e4`, a shot in legs `e3e5,e5e3`, with an optional trailing `=` or `+`.
pub fn looks_like_move(s: &str, files: usize, ranks: usize) -> bool {
    let s = s.strip_suffix('=').unwrap_or(s);
    !s.is_empty() && s.split(',').all(|leg| looks_like_leg(leg, files, ranks))
}

fn looks_like_leg(leg: &str, files: usize, ranks: usize) -> bool {
    if let Some((piece, target)) = leg.split_once('@') {
        return piece.len() <= 2
            && piece.chars().all(|c| c.is_ascii_alphabetic() || c == '+')
            && parse_square(target, files, ranks).is_some_and(|(_, n)| n == target.len());
    }
    let Some((_, n)) = parse_square(leg, files, ranks) else {
        return false;
    };
    let Some((_, m)) = parse_square(&leg[n..], files, ranks) else {
        return false;
    };
    let rest = &leg[n + m..];
    rest.len() <= 2 && rest.chars().all(|c| c.is_ascii_alphabetic() || c == '+')
}

/// The name of square (file, rank index from 0) as XBoard writes it.
pub fn square_name(square: Coord, ranks: usize) -> String {
    Notation::XBoard.square_name(square, ranks)
}

/// The `highlight` board: each mark is a legal destination and whether a piece stands on it
/// (red) or not (yellow).
pub fn highlight(marks: &[(Coord, bool)], files: usize, ranks: usize) -> String {
    let mut mark = vec![vec![None; files]; ranks];
    for &((f, r), occupied) in marks {
        if f < files && r < ranks {
            mark[r][f] = Some(if occupied { 'R' } else { 'Y' });
        }
    }
    let rows: Vec<String> = (0..ranks)
        .rev()
        .map(|r| {
            let mut s = String::new();
            let mut empty = 0;
            for m in &mark[r] {
                match *m {
                    Some(c) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            s
        })
        .collect();
    format!("highlight {}", rows.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry::find;

    #[test]
    fn tables_put_letters_on_their_slots() {
        let cannon = find("cannon").unwrap().xboard.as_ref().unwrap();
        // T on the rook slot (3), S on the man slot (10), K last.
        assert_eq!(piece_to_char(cannon).unwrap(), "...T......SK...t......sk");
        let sw = find("swedishcannon").unwrap().xboard.as_ref().unwrap();
        assert_eq!(
            piece_to_char(sw).unwrap(),
            ".NBRQ......C......PK.nbrq......c......pk"
        );
        assert!(find("chess").unwrap().xboard.is_none());
    }

    #[test]
    fn setup_line_has_size_holdings_parent_and_fen() {
        let info = find("cannonrider").unwrap();
        let d = info.xboard.as_ref().unwrap();
        let line = setup_line(info, d, info.game.start_fen);
        assert_eq!(
            line,
            format!(
                "setup (PNBRQ......CKpnbrq......ck) 10x8+0_fairy {}",
                info.game.start_fen
            )
        );
    }

    #[test]
    fn squares_use_zero_based_ranks_only_on_ten_rank_boards() {
        assert_eq!(parse_square("a0", 10, 10), Some(((0, 0), 2)));
        assert_eq!(parse_square("j9", 10, 10), Some(((9, 9), 2)));
        assert_eq!(parse_square("a0", 8, 8), None);
        assert_eq!(parse_square("h8", 8, 8), Some(((7, 7), 2)));
        assert_eq!(parse_square("i1", 8, 8), None);
        assert_eq!(square_name((1, 0), 10), "b0");
        assert_eq!(square_name((4, 3), 8), "e4");
    }

    #[test]
    fn highlight_marks_empty_targets_yellow_and_occupied_ones_red() {
        let marks = [((3, 1), true), ((4, 1), false), ((3, 0), false)];
        assert_eq!(highlight(&marks, 8, 8), "highlight 8/8/8/8/8/8/3RY3/3Y4");
        assert_eq!(highlight(&[], 8, 8), "highlight 8/8/8/8/8/8/8/8");
    }
}
