//! What the engine tells XBoard about the games: the `setup` and `piece` lines that make it
//! draw a game it does not know, and the `highlight` boards that show legal destinations.
//! Everything game-specific comes from the registry.

use crate::games::registry::{VariantInfo, XBoardSetup, XBoardSlot};

/// XBoard's piece-to-char table for a game: our letters on their slots, `.` on unused ones,
/// the king slot last; black is the same in lower case. A promoted piece is written `^X` on its
/// slot (X: the letter of the unpromoted piece), which XBoard reads as a `+` piece paired with
/// X for promotion and demotion.
pub fn piece_to_char(desc: &XBoardSetup) -> Option<String> {
    if desc.slots.is_empty() {
        return None;
    }
    let max = desc
        .slots
        .iter()
        .chain(desc.promoted)
        .filter(|(_, s)| *s != XBoardSlot::King)
        .map(|(_, s)| *s as usize)
        .max()
        .unwrap_or(0);
    // XBoard wants at least six letters a side (five slots and the king).
    let mut white = vec![".".to_string(); (max + 1).max(5)];
    let mut king = ".".to_string();
    for &(c, slot) in desc.slots {
        match slot {
            XBoardSlot::King => king = c.to_string(),
            s => white[s as usize] = c.to_string(),
        }
    }
    for &(c, slot) in desc.promoted {
        white[slot as usize] = format!("^{c}");
    }
    white.push(king);
    let white: String = white.concat();
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
        info.files, info.ranks, desc.holdings, desc.parent
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
pub fn square_name((file, rank): (usize, usize), ranks: usize) -> String {
    let shown = if ranks == 10 { rank } else { rank + 1 };
    format!("{}{shown}", (b'a' + file as u8) as char)
}

/// A board square as (file, rank index from 0).
pub type Coord = (usize, usize);

/// The origin (None for a drop) and first destination of a move string.
pub fn move_squares(mv: &str, files: usize, ranks: usize) -> Option<(Option<Coord>, Coord)> {
    if let Some((_, to)) = mv.split_once('@') {
        return parse_square(to, files, ranks).map(|(sq, _)| (None, sq));
    }
    let (from, n) = parse_square(mv, files, ranks)?;
    let (to, _) = parse_square(&mv[n..], files, ranks)?;
    Some((Some(from), to))
}

/// Which squares hold something, from the board part of a FEN: `occupied[rank][file]`.
pub fn occupancy(fen: &str, files: usize, ranks: usize) -> Vec<Vec<bool>> {
    let mut occ = vec![vec![false; files]; ranks];
    let board = fen.split([' ', '[']).next().unwrap_or("");
    for (i, row) in board.split('/').take(ranks).enumerate() {
        let rank = ranks - 1 - i;
        let mut file = 0;
        let mut num = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                num = num * 10 + d as usize;
                continue;
            }
            file += num;
            num = 0;
            if c == '*' {
                file += 1;
            } else if c.is_ascii_alphabetic() {
                if file < files {
                    occ[rank][file] = true;
                }
                file += 1;
            }
        }
    }
    occ
}

/// The squares a move goes through: its origin (None for a drop), then the destination of
/// each leg (`e3e5,e5e3`, a Cannon shot: origin e3, then e5 and e3).
pub fn move_path(mv: &str, files: usize, ranks: usize) -> Option<(Option<Coord>, Vec<Coord>)> {
    let mut legs = mv.split(',');
    let (origin, first) = move_squares(legs.next()?, files, ranks)?;
    let mut path = vec![first];
    for leg in legs {
        path.push(move_squares(leg, files, ranks)?.1);
    }
    Some((origin, path))
}

/// Whether some legal move from `from` goes through `entered` and then on from its last
/// square: the square is the end of a move's first leg, not of the move (a `put` there is
/// followed by a `lift` for the next leg).
pub fn goes_on_from(
    moves: &[String],
    from: Option<Coord>,
    entered: &[Coord],
    files: usize,
    ranks: usize,
) -> bool {
    moves.iter().any(|m| {
        move_path(m, files, ranks).is_some_and(|(origin, path)| {
            origin == from && path.len() > entered.len() && path.starts_with(entered)
        })
    })
}

/// The `highlight` board for the legal moves from `from` (all drops when `from` is None) whose
/// first legs went through `entered` (empty when the piece was just lifted): where the next
/// leg can go. Yellow marks a move to an empty square (or back to the origin), red a capture,
/// cyan a square a move passes through and goes on from (XBoard then waits for the next leg
/// instead of ending the move there: a Cannon shot is entered as the victim, then the shooter,
/// so that XBoard leaves the shooter where it stands). Magenta marks a square where the move
/// may promote or not (shogi's `+`, both forms legal): XBoard then asks the player, whatever
/// slot the piece sits on. With yellow and red alone XBoard 4.9.1 asked nothing for Cannon
/// Shogi's gold cannon or soldier (its shogi decides by its own slots), so they could not be
/// promoted by mouse (scripts/xboard_smoke.sh against the older build).
pub fn highlight(
    moves: &[String],
    from: Option<Coord>,
    entered: &[Coord],
    fen: &str,
    files: usize,
    ranks: usize,
) -> String {
    let occ = occupancy(fen, files, ranks);
    let mut mark = vec![vec![None; files]; ranks];
    for m in moves {
        let Some((origin, path)) = move_path(m, files, ranks) else {
            continue;
        };
        if origin != from || path.len() <= entered.len() || !path.starts_with(entered) {
            continue;
        }
        let (f, r) = path[entered.len()];
        let colour = if path.len() > entered.len() + 1 {
            'C'
        } else if promotion_choice(moves, m) {
            'M'
        } else if occ[r][f] && origin != Some((f, r)) {
            'R'
        } else {
            'Y'
        };
        // A square that ends one move and is passed through by another stays cyan: XBoard
        // ends the move there too when the square is clicked twice. A promotion choice stays
        // magenta whichever of its two moves comes last.
        if mark[r][f] != Some('C') && mark[r][f] != Some('M') {
            mark[r][f] = Some(colour);
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

/// Whether some legal move from `from` ends on the last square of `entered` with a choice of
/// promoting or not (a square `highlight` marks magenta).
pub fn promotion_choice_at(
    moves: &[String],
    from: Option<Coord>,
    entered: &[Coord],
    files: usize,
    ranks: usize,
) -> bool {
    moves.iter().any(|m| {
        promotion_choice(moves, m)
            && move_path(m, files, ranks)
                .is_some_and(|(origin, path)| origin == from && path == entered)
    })
}

/// Whether the move is one of a promoting / not promoting pair (`d6d7+` and `d6d7`), both legal.
fn promotion_choice(moves: &[String], m: &str) -> bool {
    match m.strip_suffix('+') {
        Some(plain) => moves.iter().any(|o| o == plain),
        None => moves.iter().any(|o| o.strip_suffix('+') == Some(m)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::registry::find;

    #[test]
    fn tables_put_letters_on_their_slots() {
        let cannon = find("cannon").unwrap().xboard_setup().unwrap();
        // T on the rook slot (3), S on the man slot (10), K last.
        assert_eq!(piece_to_char(&cannon).unwrap(), "...T......SK...t......sk");
        let sw = find("swedishcannon").unwrap().xboard_setup().unwrap();
        assert_eq!(
            piece_to_char(&sw).unwrap(),
            ".NBRQ......C......PK.nbrq......c......pk"
        );
        assert!(find("chess").unwrap().xboard_setup().is_none());
        // Promoted pieces are `^X` on their own slots: the promoted gold cannon on the
        // flying-dragon slot (30), not on the falcon slot that XBoard's shogi draws as a king.
        let shogi = find("cannonshogi").unwrap().xboard_setup().unwrap();
        let table = piece_to_char(&shogi).unwrap();
        let white = &table[..table.len() / 2];
        // One entry per slot: a letter, `.`, or `^` and a letter.
        let mut slots: Vec<String> = Vec::new();
        let mut chars = white.chars();
        while let Some(c) = chars.next() {
            slots.push(match c {
                '^' => format!("^{}", chars.next().unwrap()),
                c => c.to_string(),
            });
        }
        assert!(white.starts_with("PNBRLS...G.^P^N^B^R^L^S"), "{white}");
        let at = |i: usize| slots[i].as_str();
        assert_eq!(
            [at(17), at(22), at(30), at(34), at(36), at(37), at(40)],
            [".", "A", "^U", "^A", "C", "I", "U"]
        );
        assert_eq!(slots.last().map(String::as_str), Some("K"));
        assert_eq!(table[table.len() / 2..], white.to_ascii_lowercase());
    }

    #[test]
    fn setup_line_has_size_holdings_parent_and_fen() {
        let info = find("cannonrider").unwrap();
        let d = info.xboard_setup().unwrap();
        let line = setup_line(info, &d, info.start_fen);
        assert_eq!(
            line,
            format!(
                "setup (PNBRQ......CKpnbrq......ck) 10x8+0_fairy {}",
                info.start_fen
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
        assert_eq!(
            move_squares("e6e8,e8e6", 10, 10),
            Some((Some((4, 6)), (4, 8)))
        );
        assert_eq!(move_squares("T@b0", 10, 10), Some((None, (1, 0))));
        assert_eq!(square_name((1, 0), 10), "b0");
        assert_eq!(square_name((4, 3), 8), "e4");
    }

    #[test]
    fn highlight_marks_quiet_moves_yellow_and_captures_red() {
        let fen = "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1";
        let moves: Vec<String> = ["e1d2", "e1e2", "e1f2", "e1d1", "e1f1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            highlight(&moves, Some((4, 0)), &[], fen, 8, 8),
            "highlight 8/8/8/8/8/8/3RYY2/3Y1Y2"
        );
        assert_eq!(
            highlight(&moves, Some((0, 0)), &[], fen, 8, 8),
            "highlight 8/8/8/8/8/8/8/8"
        );
    }

    #[test]
    fn a_shot_is_entered_as_victim_then_shooter() {
        // White soldiers on e1-e3 (XBoard's 0-based ranks) shoot the black soldier on e5; e3
        // also steps to d4, e4 or f4.
        let fen = "4t5/10/10/10/4s5/10/4S5/4S5/4S5/4T5[] w - - 0 1";
        let moves: Vec<String> = ["e3e5,e5e3", "e3d4", "e3e4", "e3f4", "e1e4"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        // Lifted: the victim is cyan (XBoard waits for the next leg), the steps yellow.
        assert_eq!(
            highlight(&moves, Some((4, 3)), &[], fen, 10, 10),
            "highlight 10/10/10/10/4C5/3YYY4/10/10/10/10"
        );
        // After the victim: the way back to the shooter, and nothing else.
        assert_eq!(
            highlight(&moves, Some((4, 3)), &[(4, 5)], fen, 10, 10),
            "highlight 10/10/10/10/10/10/4Y5/10/10/10"
        );
        assert!(goes_on_from(&moves, Some((4, 3)), &[(4, 5)], 10, 10));
        assert!(!goes_on_from(&moves, Some((4, 3)), &[(4, 4)], 10, 10));
        assert!(!goes_on_from(
            &moves,
            Some((4, 3)),
            &[(4, 5), (4, 3)],
            10,
            10
        ));
        assert_eq!(
            move_path("e3e5,e5e3", 10, 10),
            Some((Some((4, 3)), vec![(4, 5), (4, 3)]))
        );
        assert_eq!(move_path("T@b0", 10, 10), Some((None, vec![(1, 0)])));
    }

    #[test]
    fn a_promotion_choice_is_magenta_and_a_forced_promotion_is_not() {
        // Cannon Shogi (1-based ranks): the gold cannon on d2 slides to d7 in the zone, with or
        // without promotion; a soldier on a8 takes on a9 (last rank) with or without (soldiers
        // are never forced); a lance on i8 must promote on i9 (only `i8i9+` is legal).
        let fen = "l7l/P7L/9/9/9/9/9/3U5/9[] w - - 0 1";
        let moves: Vec<String> = [
            "d2d3", "d2d7", "d2d7+", "d2d8", "d2d8+", "a8a9+", "a8a9", "a8b8", "i8i9+",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            highlight(&moves, Some((3, 1)), &[], fen, 9, 9),
            "highlight 9/3M5/3M5/9/9/9/3Y5/9/9"
        );
        // The capture on the last rank is a choice (magenta, not red), the sideways step not.
        assert_eq!(
            highlight(&moves, Some((0, 7)), &[], fen, 9, 9),
            "highlight M8/1Y7/9/9/9/9/9/9/9"
        );
        // The forced promotion stays red: XBoard promotes a lance (its queen slot) itself.
        assert_eq!(
            highlight(&moves, Some((8, 7)), &[], fen, 9, 9),
            "highlight 8R/9/9/9/9/9/9/9/9"
        );
        assert!(promotion_choice_at(&moves, Some((3, 1)), &[(3, 6)], 9, 9));
        assert!(!promotion_choice_at(&moves, Some((3, 1)), &[(3, 2)], 9, 9));
        assert!(!promotion_choice_at(&moves, Some((8, 7)), &[(8, 8)], 9, 9));
    }

    #[test]
    fn occupancy_reads_holes_and_two_digit_runs() {
        let occ = occupancy("n8n/*8*/*8*/*8*/*8*/*8*/*8*/N9 w - - 0 1", 10, 8);
        assert!(occ[7][0] && occ[7][9] && occ[0][0]);
        assert!(!occ[6][0] && !occ[0][9]);
        let occ = occupancy("10/10/10/10/10/10/10/10/10/9S[Tt] w - - 0 1", 10, 10);
        assert!(occ[0][9] && !occ[0][8]);
    }
}
