//! What the engine tells XBoard about the games: the `setup` and `piece` lines that make it
//! draw a game it does not know, and the `highlight` boards that show legal destinations.
//! Everything game-specific comes from the registry.

use crate::engine::look::{BoardLook, HandStyle, PieceImage};
use crate::engine::registry::VariantInfo;
use crate::engine::{Coord, MoveFacts};
use crate::games::notation::{split_legs, write_legs};
use crate::games::Notation;

/// XBoard's piece slot for a picture: its place in XBoard's internal piece order, which fixes
/// the image it draws and the order of the holdings. `None` for the king, which always takes
/// the last slot of its colour.
fn slot(image: PieceImage) -> Option<usize> {
    use PieceImage::*;
    Some(match image {
        Pawn => 0,
        Knight => 1,
        Bishop => 2,
        Rook => 3,
        Queen => 4,
        Ferz => 5,
        Alfil => 6,
        Archbishop => 7,
        Chancellor => 8,
        Wazir => 9,
        Man => 10,
        Cannon => 11,
        Nightrider => 12,
        Cardinal => 13,
        Dragon => 14,
        Grasshopper => 15,
        Silver => 16,
        Falcon => 17,
        Lance => 18,
        Cobra => 19,
        Unicorn => 20,
        Sword => 22,
        Duck => 28,
        Flying => 30,
        Horse => 34,
        Copper => 36,
        Iron => 37,
        Axe => 40,
        Wheel => 44,
        Butterfly => 45,
        King => return None,
    })
}

/// XBoard's parent variant for a hand: `fairy` for none; `bughouse` (placed pieces only) or
/// `seirawan` (gating) for hands whose captures must not go to the captor's holdings, as
/// XBoard's crazyhouse would do; `shogi` for a shogi hand.
fn parent(hand: HandStyle) -> &'static str {
    match hand {
        HandStyle::None => "fairy",
        HandStyle::PlacedOnly => "bughouse",
        HandStyle::CapturesToHand => "shogi",
        HandStyle::Gating => "seirawan",
    }
}

/// XBoard's piece-to-char table for a game: our letters on their slots, `.` on unused ones,
/// the king slot last; black is the same in lower case. A promoted piece is written `^X` on its
/// slot (X: the letter of the unpromoted piece), which XBoard reads as a `+` piece paired with
/// X for promotion and demotion.
pub fn piece_to_char(look: &BoardLook) -> Option<String> {
    if look.images.is_empty() {
        return None;
    }
    let max = look
        .images
        .iter()
        .chain(look.promoted)
        .filter_map(|&(_, image)| slot(image))
        .max()
        .unwrap_or(0);
    // XBoard wants at least six letters a side (five slots and the king).
    let mut white = vec![".".to_string(); (max + 1).max(5)];
    let mut king = ".".to_string();
    for &(c, image) in look.images {
        match slot(image) {
            None => king = c.to_string(),
            Some(s) => white[s] = c.to_string(),
        }
    }
    for &(c, image) in look.promoted {
        if let Some(s) = slot(image) {
            white[s] = format!("^{c}");
        }
    }
    white.push(king);
    let white: String = white.concat();
    let black = white.to_ascii_lowercase();
    Some(format!("{white}{black}"))
}

/// The `setup` line: `setup (TABLE) WxH+S_PARENT FEN`.
pub fn setup_line(info: &VariantInfo, look: &BoardLook, fen: &str) -> String {
    let table = piece_to_char(look)
        .map(|t| format!("({t}) "))
        .unwrap_or_default();
    format!(
        "setup {table}{}x{}+{}_{} {fen}",
        info.game.files,
        info.game.ranks,
        look.hand_slots,
        parent(look.hand)
    )
}

/// The `piece` lines (`piece X& BETZA`: the same moves for both colours).
pub fn piece_lines(look: &BoardLook) -> Vec<String> {
    look.betza
        .iter()
        .map(|(piece, betza)| format!("piece {piece}& {betza}"))
        .collect()
}

/// A move as XBoard's board is told it: the XBoard string, except that a piece brought in
/// onto an occupied square whose piece moves on (the Swedish cannon's entry, `C@e2` with the
/// pawn going to e4), which XBoard cannot show as a drop, is written as Seirawan gating,
/// `e2e4c`: that piece's move, then the letter of the piece appearing where it stood; and a
/// move that could promote but does not ends with XBoard's mark of a declined promotion, `=`,
/// or with `kept` where XBoard would promote the piece anyway (see [`kept_letter`]).
pub fn gui_move(facts: &MoveFacts, ranks: usize, kept: Option<char>) -> String {
    match (facts.drop, facts.displaced) {
        (Some(letter), Some(dest)) => format!(
            "{}{}{}",
            square_name(facts.to, ranks),
            square_name(dest, ranks),
            letter.to_ascii_lowercase()
        ),
        _ if facts.promotion_choice && !facts.text.xboard.ends_with('+') => {
            format!("{}{}", facts.text.xboard, kept.unwrap_or('='))
        }
        _ => facts.text.xboard.clone(),
    }
}

/// Whether XBoard would promote a piece that may stay as it is: `piece` (as the FEN writes
/// it) moving to `to` for White or Black. XBoard (4.9.1) takes a piece on its pawn or lance
/// slot reaching its side's last rank for a pawn that must promote: told a bare move it
/// promotes it (and passes the promotion on to the other engine), told `=` it puts the piece
/// the `=` names, none, on the square. Told the piece's own letter it keeps the piece. That
/// letter, lower case as a promotion letter is written, or None where XBoard lets the move
/// stand. (Cannon Shogi's soldier reaching Black's last rank; White's last rank is not
/// XBoard's, whose board has two dead ranks above it for the 11-kind hand.)
pub fn kept_letter(
    look: &BoardLook,
    piece: &str,
    to: Coord,
    white: bool,
    ranks: usize,
) -> Option<char> {
    let letter = piece.chars().next().filter(char::is_ascii_alphabetic)?;
    let on_pawn_slot = look.images.iter().any(|&(c, image)| {
        c == letter.to_ascii_uppercase() && matches!(image, PieceImage::Pawn | PieceImage::Lance)
    });
    let last_rank = if white {
        // XBoard adds dead ranks above the board for a hand larger than it.
        (look.hand_slots <= ranks).then(|| ranks - 1)
    } else {
        Some(0)
    };
    (on_pawn_slot && last_rank == Some(to.1)).then(|| letter.to_ascii_lowercase())
}

/// A square name as XBoard writes it: file letter, then the rank (from 0 on boards with ten
/// ranks, from 1 otherwise). Returns (file, rank index from 0) and the bytes used.
pub fn parse_square(s: &str, files: usize, ranks: usize) -> Option<(Coord, usize)> {
    Notation::XBoard.parse_square(s, files, ranks)
}

/// Whether `s` has the form of a move on a board of this size (whether or not it is legal):
/// `e2e4`, `e7e8q`, `P@e4`, a shot in legs `e3e5,e5e3`, with an optional trailing `=` or `+`.
pub fn looks_like_move(s: &str, files: usize, ranks: usize) -> bool {
    let s = s.strip_suffix('=').unwrap_or(s);
    !s.is_empty() && split_legs(s).all(|leg| looks_like_leg(leg, files, ranks))
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

/// A colour of XBoard's `highlight` board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A move to an empty square (or back to the origin).
    Yellow,
    /// A move onto a piece.
    Red,
    /// A square a move passes through and goes on from: XBoard waits there for the next leg
    /// instead of ending the move (a Cannon shot is clicked as the shooter, the victim, then
    /// the shooter again: its legs go to the victim and back, so that XBoard leaves the
    /// shooter where it stands).
    Cyan,
    /// A square where the move may promote or not (shogi's `+`, both forms legal): XBoard
    /// then asks the player, whatever slot the piece sits on. With yellow and red alone
    /// XBoard 4.9.1 asked nothing for Cannon Shogi's gold cannon or soldier (its shogi decides
    /// by its own slots), so they could not be promoted by mouse (scripts/xboard_smoke.sh
    /// against the older build).
    Magenta,
    /// A square where the move gets its last letter from the engine: XBoard waits there for a
    /// `choice` and adds its letter to the move. A Swedish cannon's entry, entered as the
    /// cannon in hand, then the pawn it comes in on, then the pawn's square (the cannon comes
    /// in where the pawn stood, as Seirawan gating: `e2e4c`).
    Blue,
}

impl Mark {
    fn letter(self) -> char {
        match self {
            Mark::Yellow => 'Y',
            Mark::Red => 'R',
            Mark::Cyan => 'C',
            Mark::Magenta => 'M',
            Mark::Blue => 'B',
        }
    }
}

/// The legal moves (`facts`) from `from` (drops when `from` is None) whose first legs went
/// through `entered` (empty when the piece was just lifted), with more legs to come.
fn continuing<'a>(
    facts: &'a [MoveFacts],
    from: Option<Coord>,
    entered: &'a [Coord],
) -> impl Iterator<Item = &'a MoveFacts> {
    facts
        .iter()
        .filter(move |f| f.from == from && f.legs.len() > entered.len())
        .filter(move |f| f.legs.starts_with(entered))
}

/// Where the next leg of a move being entered can go, and in which colour: the legal moves
/// from `from` whose first legs went through `entered`. Yellow for a move to an empty square,
/// red onto a piece, cyan where a move goes on to another leg, magenta where it may promote
/// or not.
pub fn entry_marks(
    facts: &[MoveFacts],
    from: Option<Coord>,
    entered: &[Coord],
) -> Vec<(Coord, Mark)> {
    let mut marks: Vec<(Coord, Mark)> = Vec::new();
    // A piece lifted from the holdings: the pieces it can come in on (gating) are not marked,
    // so that clicking one lifts it (XBoard cannot drop onto an occupied square; see
    // `gating_marks`).
    for f in continuing(facts, from, entered).filter(|f| f.displaced.is_none()) {
        let square = f.legs[entered.len()];
        let mark = if f.legs.len() > entered.len() + 1 {
            Mark::Cyan
        } else if f.promotion_choice {
            Mark::Magenta
        } else if entered.is_empty() && f.to_occupied {
            Mark::Red
        } else {
            Mark::Yellow
        };
        match marks.iter_mut().find(|(sq, _)| *sq == square) {
            // A square that ends one move and is passed through by another stays cyan:
            // XBoard ends the move there too when the square is clicked twice. A promotion
            // choice stays magenta whichever of its two moves comes last.
            Some((_, old)) if matches!(*old, Mark::Cyan | Mark::Magenta) => {}
            Some((_, old)) => *old = mark,
            None => marks.push((square, mark)),
        }
    }
    marks
}

/// The entries by gating through the piece on `on`: the legal moves that bring a piece from
/// the holdings onto `on` while the piece standing there moves on (a Swedish cannon's entry,
/// `C@e2` with the pawn going to e4, which XBoard shows as Seirawan gating, `e2e4c`).
fn gating_through(facts: &[MoveFacts], on: Coord) -> impl Iterator<Item = &MoveFacts> {
    facts
        .iter()
        .filter(move |f| f.drop.is_some() && f.displaced.is_some() && f.to == on)
}

/// Whether a piece from the holdings can come in on `on` by gating (see [`gating_through`]).
pub fn gates_through(facts: &[MoveFacts], on: Coord) -> bool {
    gating_through(facts, on).next().is_some()
}

/// Where the piece on `on` goes when a piece from the holdings comes in on its square: each
/// marked blue. XBoard can gate by mouse only for its own Seirawan chess's back rank, but it
/// adds the letter the engine gives with `choice` to a move put on a blue square: a player
/// lifts the cannon in hand, then the pawn (which XBoard takes as a change of mind: the
/// pawn's square is not marked for the cannon), then puts the pawn on a blue square.
pub fn gating_marks(facts: &[MoveFacts], on: Coord) -> Vec<(Coord, Mark)> {
    let mut marks: Vec<(Coord, Mark)> = Vec::new();
    for dest in gating_through(facts, on).filter_map(|f| f.displaced) {
        if !marks.iter().any(|&(sq, _)| sq == dest) {
            marks.push((dest, Mark::Blue));
        }
    }
    marks
}

/// The letter XBoard adds to the move (its `choice`) when the piece on `on` goes to `dest` and
/// a piece from the holdings comes in where it stood: the gated piece's, lower case (`c` in
/// `e2e4c`).
pub fn gating_choice(facts: &[MoveFacts], on: Coord, dest: Coord) -> Option<char> {
    gating_through(facts, on)
        .find(|f| f.displaced == Some(dest))
        .and_then(|f| f.drop)
        .map(|c| c.to_ascii_lowercase())
}

/// Whether some legal move from `from` goes through `entered` and then on from its last
/// square: the square is the end of a move's first leg, not of the move (a `put` there is
/// followed by a `lift` for the next leg).
pub fn goes_on_from(facts: &[MoveFacts], from: Option<Coord>, entered: &[Coord]) -> bool {
    continuing(facts, from, entered).next().is_some()
}

/// Whether some legal move from `from` ends on the last square of `entered` with a choice of
/// promoting or not (a square [`entry_marks`] marks magenta).
pub fn promotion_choice_at(facts: &[MoveFacts], from: Option<Coord>, entered: &[Coord]) -> bool {
    facts
        .iter()
        .any(|f| f.promotion_choice && f.from == from && f.legs == entered)
}

/// The legal move whose first leg is `mv` (an XBoard string) when it has more legs (a Cannon
/// shot entered by clicking the victim twice), as XBoard writes the whole move.
pub fn first_leg_of<'a>(facts: &'a [MoveFacts], mv: &str, ranks: usize) -> Option<&'a MoveFacts> {
    facts.iter().find(|f| {
        f.legs.len() > 1
            && f.from.is_some_and(|from| {
                write_legs(from, &f.legs[..1], |sq| square_name(sq, ranks)) == mv
            })
    })
}

/// The `highlight` board: each mark a square and its colour.
pub fn highlight(marks: &[(Coord, Mark)], files: usize, ranks: usize) -> String {
    let mut mark = vec![vec![None; files]; ranks];
    for &((f, r), colour) in marks {
        if f < files && r < ranks {
            mark[r][f] = Some(colour.letter());
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
        let cannon = find("cannon").unwrap().look.as_ref().unwrap();
        // T on the rook slot (3), S on the man slot (10), K last.
        assert_eq!(piece_to_char(cannon).unwrap(), "...T......SK...t......sk");
        let sw = find("swedishcannon").unwrap().look.as_ref().unwrap();
        assert_eq!(
            piece_to_char(sw).unwrap(),
            ".NBRQ......C......PK.nbrq......c......pk"
        );
        assert!(find("chess").unwrap().look.is_none());
        // Promoted pieces are `^X` on their own slots: the promoted gold cannon on the
        // flying-dragon slot (30), not on the falcon slot that XBoard's shogi draws as a king.
        let shogi = find("cannonshogi").unwrap().look.as_ref().unwrap();
        let table = piece_to_char(shogi).unwrap();
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
    fn cannon_shogi_tells_the_moves_of_the_pieces_its_parent_does_not_know() {
        // XBoard's shogi moves the soldier (pawn slot) only forward and the cannons (borrowed
        // images) as the pieces of those images; told their moves, it writes every move of
        // theirs as a move (`Cb7+`), not as an unknown one (`Cb7=+`).
        let shogi = find("cannonshogi").unwrap().look.as_ref().unwrap();
        assert_eq!(
            piece_lines(shogi),
            [
                "piece P& fsW",
                "piece U& mRcpR",
                "piece A& pR",
                "piece C& mBcpB",
                "piece I& pB",
                "piece +U& mRpRmFpB2",
                "piece +A& mRpRmFpB2",
                "piece +C& mBpBmWpR2",
                "piece +I& mBpBmWpR2",
            ]
        );
        // Each described piece is one of the game's, and each promoted one has its image.
        for (piece, _) in shogi.betza {
            let letter = piece.trim_start_matches('+').chars().next().unwrap();
            assert!(shogi.images.iter().any(|&(c, _)| c == letter), "{piece}");
            if piece.starts_with('+') {
                assert!(shogi.promoted.iter().any(|&(c, _)| c == letter), "{piece}");
            }
        }
    }

    #[test]
    fn setup_line_has_size_holdings_parent_and_fen() {
        let info = find("cannonrider").unwrap();
        let d = info.look.as_ref().unwrap();
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
        let marks = [
            ((3, 1), Mark::Red),
            ((4, 1), Mark::Yellow),
            ((3, 0), Mark::Yellow),
            ((4, 4), Mark::Cyan),
        ];
        assert_eq!(highlight(&marks, 8, 8), "highlight 8/8/8/4C3/8/8/3RY3/3Y4");
        assert_eq!(highlight(&[], 8, 8), "highlight 8/8/8/8/8/8/8/8");
    }

    #[test]
    fn a_shot_is_entered_as_shooter_victim_shooter() {
        // White soldiers on e1-e3 (XBoard's 0-based ranks) shoot the black soldier on e5; e3
        // also steps to d4, e4 or f4.
        let mut s = find("cannon").unwrap().new_session();
        let fen = "4t5/10/10/10/4s5/10/4S5/4S5/4S5/4T5[] w - - 0 1";
        s.set_position(Some(fen), &[], Notation::XBoard).unwrap();
        let facts = s.move_facts();
        let e3 = Some((4, 3));
        // Lifted: the victim is cyan (XBoard waits for the next leg), the steps yellow.
        assert_eq!(
            highlight(&entry_marks(&facts, e3, &[]), 10, 10),
            "highlight 10/10/10/10/4C5/3YYY4/10/10/10/10"
        );
        // After the victim: the way back to the shooter, and nothing else.
        assert_eq!(
            highlight(&entry_marks(&facts, e3, &[(4, 5)]), 10, 10),
            "highlight 10/10/10/10/10/10/4Y5/10/10/10"
        );
        assert!(goes_on_from(&facts, e3, &[(4, 5)]));
        assert!(!goes_on_from(&facts, e3, &[(4, 4)]));
        assert!(!goes_on_from(&facts, e3, &[(4, 5), (4, 3)]));
        let shot = first_leg_of(&facts, "e3e5", 10).unwrap();
        assert_eq!(shot.text.xboard, "e3e5,e5e3");
        assert!(first_leg_of(&facts, "e3e4", 10).is_none());
    }

    #[test]
    fn xboard_keeps_a_soldier_on_blacks_last_rank_only_by_its_letter() {
        let shogi = find("cannonshogi").unwrap().look.as_ref().unwrap();
        // The moving piece comes with the move's facts, as the FEN writes it.
        let mut s = find("cannonshogi").unwrap().new_session();
        s.set_position(
            Some("4k4/9/9/9/9/9/9/6p1+p/K7P[P] b - - 0 1"),
            &[],
            Notation::Uci,
        )
        .unwrap();
        let piece = |mv: &str| s.facts_of(mv, Notation::Uci).unwrap().piece;
        assert_eq!(piece("g2g1").as_deref(), Some("p"));
        assert_eq!(piece("i2i1").as_deref(), Some("+p"));
        assert_eq!(piece("e9d9").as_deref(), Some("k"));
        // Black's soldier (XBoard's pawn slot) on rank 1: XBoard would promote it.
        assert_eq!(kept_letter(shogi, "p", (6, 0), false, 9), Some('p'));
        assert_eq!(kept_letter(shogi, "p", (6, 2), false, 9), None);
        // A promoted soldier, another piece, or White's soldier on rank 9 (below XBoard's dead
        // ranks): XBoard lets the move stand.
        assert_eq!(kept_letter(shogi, "+p", (6, 0), false, 9), None);
        assert_eq!(kept_letter(shogi, "b", (6, 0), false, 9), None);
        assert_eq!(kept_letter(shogi, "P", (0, 8), true, 9), None);
    }

    #[test]
    fn a_swedish_cannon_comes_in_through_its_pawn_on_blue_squares() {
        // White has a cannon in hand, pawns on e2 (free to advance two) and d2 (blocked by the
        // knight on d4), and a knight on g1.
        let mut s = find("swedishcannon").unwrap().new_session();
        let fen = "4k3/8/8/8/3N4/8/3PP3/4K1N1[C] w - - 0 1";
        s.set_position(Some(fen), &[], Notation::XBoard).unwrap();
        let facts = s.move_facts();
        // Lifted from the holdings: nothing marked, so that XBoard takes the click on the pawn
        // next as lifting the pawn (a drop onto a marked pawn it would refuse by itself).
        assert_eq!(
            highlight(&entry_marks(&facts, None, &[]), 8, 8),
            "highlight 8/8/8/8/8/8/8/8"
        );
        // The pawn lifted next: the square it goes to when the cannon comes in, blue (XBoard
        // asks the engine's `choice` there); e3, a plain step, is not an entry.
        let (e2, e3, e4, d2) = ((4, 1), (4, 2), (4, 3), (3, 1));
        assert!(gates_through(&facts, e2));
        assert_eq!(
            highlight(&gating_marks(&facts, e2), 8, 8),
            "highlight 8/8/8/8/4B3/8/8/8"
        );
        assert_eq!(gating_choice(&facts, e2, e4), Some('c'));
        assert_eq!(gating_choice(&facts, e2, e3), None);
        // No entry through the blocked pawn or the knight.
        assert!(!gates_through(&facts, d2));
        assert!(!gates_through(&facts, (6, 0)));
        assert!(gating_marks(&facts, d2).is_empty());
        // The pawn lifted alone keeps its plain moves, yellow.
        assert_eq!(
            highlight(&entry_marks(&facts, Some(e2), &[]), 8, 8),
            "highlight 8/8/8/8/4Y3/4Y3/8/8"
        );
    }

    #[test]
    fn a_promotion_choice_is_magenta_and_a_forced_promotion_is_not() {
        // Cannon Shogi (1-based ranks): the gold cannon on d2 slides along the rank and up the
        // file, into the zone (d7-d9) with or without promotion; a soldier on a8 takes on a9 (last rank) with or without (soldiers
        // are never forced); a lance on i8 must promote on i9 (only `i8i9+` is legal).
        let mut s = find("cannonshogi").unwrap().new_session();
        let fen = "l3k3l/P7L/9/9/9/9/9/3U5/4K4[] w - - 0 1";
        s.set_position(Some(fen), &[], Notation::XBoard).unwrap();
        let facts = s.move_facts();
        let d2 = Some((3, 1));
        assert_eq!(
            highlight(&entry_marks(&facts, d2, &[]), 9, 9),
            "highlight 3M5/3M5/3M5/3Y5/3Y5/3Y5/3Y5/YYY1YYYYY/3Y5"
        );
        // The capture on the last rank is a choice (magenta, not red), the sideways step,
        // starting in the zone, too.
        assert_eq!(
            highlight(&entry_marks(&facts, Some((0, 7)), &[]), 9, 9),
            "highlight M8/1M7/9/9/9/9/9/9/9"
        );
        // The forced promotion stays red: XBoard promotes a lance (its queen slot) itself.
        assert_eq!(
            highlight(&entry_marks(&facts, Some((8, 7)), &[]), 9, 9),
            "highlight 8R/9/9/9/9/9/9/9/9"
        );
        // Told to XBoard, the declined promotion carries XBoard's `=`; the promotion, and a
        // move that cannot promote, are as the engine writes them.
        let told =
            |mv: &str| gui_move(facts.iter().find(|f| f.text.xboard == mv).unwrap(), 9, None);
        assert_eq!(told("d2d7"), "d2d7=");
        assert_eq!(told("d2d7+"), "d2d7+");
        assert_eq!(told("a8a9"), "a8a9=");
        assert_eq!(told("d2d3"), "d2d3");
        assert_eq!(told("i8i9+"), "i8i9+");
        assert!(promotion_choice_at(&facts, d2, &[(3, 6)]));
        // Where XBoard would promote anyway, the piece's own letter keeps it.
        let a8a9 = facts.iter().find(|f| f.text.xboard == "a8a9").unwrap();
        assert_eq!(gui_move(a8a9, 9, Some('p')), "a8a9p");
        assert!(!promotion_choice_at(&facts, d2, &[(3, 2)]));
        assert!(!promotion_choice_at(&facts, Some((8, 7)), &[(8, 8)]));
    }
}
