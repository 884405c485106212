//! Cannons of Chesstonia (rules: /work/shared/rules/chesstonia.md). Positions are written as
//! 12x8 diagrams (files a..l, rank 8 first; `*` a hole, `.` an empty square) and every expected
//! value is read off the diagram by hand, not taken from the engine.
//!
//! Reminder of the machinery: white's cannon track is k3-k6, its storage l3 (P), l4 (W), l5 (F),
//! l6 (S), its load square l1; black's track is b3-b6, storage a6 (p), a5 (w), a4 (f), a3 (s),
//! load square a8. The chess board is c..j.

use crate::chess_family_support::*;
use crate::hosts;
use cannonade_core::games::chess::{ChessMoves, ChesstoniaChess};
use cannonade_core::games::{Game, Outcome};
use proptest::prelude::*;

/// A FEN from a diagram of 8 rows of 12 squares (spaces ignored) and the remaining fields.
fn fen(rows: [&str; 8], rest: &str) -> String {
    let mut ranks = Vec::new();
    for row in rows {
        let mut s = String::new();
        let mut empty = 0;
        for c in row.chars().filter(|c| !c.is_whitespace()) {
            if c == '.' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s += &empty.to_string();
                empty = 0;
            }
            s.push(c);
        }
        if empty > 0 {
            s += &empty.to_string();
        }
        ranks.push(s);
    }
    format!("{} {rest}", ranks.join("/"))
}

fn pos(rows: [&str; 8], rest: &str) -> ChesstoniaChess {
    let f = fen(rows, rest);
    cannonade_core::engine::registry::new_game::<ChesstoniaChess>("chesstonia")
        .unwrap()
        .with_fen(&f)
        .unwrap_or_else(|e| panic!("{f}: {e:?}"))
}

fn strings(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn start_position_and_perft() {
    let mut p =
        cannonade_core::engine::registry::new_game::<ChesstoniaChess>("chesstonia").unwrap();
    let start = fen(
        [
            ". * r n b q k b n r * *",
            "* * p p p p p p p p * *",
            "p c . . . . . . . . . S",
            "w . . . . . . . . . . F",
            "f . . . . . . . . . . W",
            "s . . . . . . . . . C P",
            "* * P P P P P P P P * *",
            "* * R N B Q K B N R * .",
        ],
        "w KQkq - 0 1",
    );
    assert_eq!(p.to_fen(), start);
    // 20 chess moves, the cannon to k4, k5, k6, and four loads; the same for black.
    assert_eq!(perft(&mut p, 1), 27);
    assert_eq!(perft(&mut p, 2), 729);
    assert_eq!(moves_from(&p, "k3"), strings(&["k3k4", "k3k5", "k3k6"]));
    assert_eq!(
        all_moves(&p)
            .into_iter()
            .filter(|m| m.ends_with("l1"))
            .collect::<Vec<_>>(),
        strings(&["l3l1", "l4l1", "l5l1", "l6l1"])
    );
    // Orthodox squares shifted by two files: e2-e4 is g2g4, and castling is g1i1 / g1e1.
    play(&mut p, "g2g4 g7g5 i1h3 d8e6 h1e4 i8h6");
    assert!(moves_from(&p, "g1").contains(&"g1i1".to_string()));
    play(&mut p, "g1i1");
    assert!(p.to_fen().contains("RNBQ1RK1*"), "{}", p.to_fen());
}

#[test]
fn fire_lands_on_every_empty_square_between_the_screen_and_the_next_piece() {
    // White's cannon on k4 holds the Wazir. Flying left from k4: j4 and i4 are empty, h4 is the
    // screen, g4 and f4 are landing squares, e4 stops the flight (it is not passed).
    let p = pos(
        [
            ". * . . . . k . . . * *",
            "* * . . . . . . . . * *",
            ". c . . . . . . . . . S",
            ". . . . . . . . . . . F",
            ". . . . N . . p . . C .",
            ". . . . . . . . . . . P",
            "* * . . . . . . . . * *",
            "* * . . . . K . . . * W",
        ],
        "w - - 0 1",
    );
    assert_eq!(moves_from(&p, "l1"), strings(&["l1f4", "l1g4", "l1l4"]));
}

#[test]
fn no_fire_without_a_screen_or_without_room_after_it() {
    let rows = |rank4: &'static str| {
        [
            ". * . . . . k . . . * *",
            "* * . . . . . . . . * *",
            ". c . . . . . . . . . S",
            ". . . . . . . . . . . F",
            rank4,
            ". . . . . . . . . . . P",
            "* * . . . . . . . . * *",
            "* * . . . . K . . . * W",
        ]
    };
    // Nothing on the cannon's rank.
    let p = pos(rows(". . . . . . . . . . C ."), "w - - 0 1");
    assert_eq!(moves_from(&p, "l1"), strings(&["l1l4"]));
    // The screen on j4 is followed at once by i4.
    let p = pos(rows(". . . . . . . . N p C ."), "w - - 0 1");
    assert_eq!(moves_from(&p, "l1"), strings(&["l1l4"]));
    // The screen on the last file: nothing beyond it (the projectile never leaves c..j).
    let p = pos(rows(". . p . . . . . . . C ."), "w - - 0 1");
    assert_eq!(moves_from(&p, "l1"), strings(&["l1l4"]));
    // Black fires rightward from b4: screen d4, lands e4..i4, stops at j4.
    let p = pos(
        [
            "w * . . . . k . . . * *",
            "* * . . . . . . . . * *",
            "p . . . . . . . . . . .",
            ". . . . . . . . . . . .",
            ". c . P . . . . . N C .",
            ". . . . . . . . . . . .",
            "* * . . . . . . . . * *",
            "* * . . . . K . . . * .",
        ],
        "b - - 0 1",
    );
    assert_eq!(
        moves_from(&p, "a8"),
        strings(&["a8a5", "a8e4", "a8f4", "a8g4", "a8h4", "a8i4"])
    );
}

#[test]
fn a_fired_piece_can_give_check() {
    // White's cannon on k5 holds the Pawn; screen j5; black king e6. A pawn landing on f5
    // attacks e6 (and g6); one landing on g5 attacks f6 and h6 only.
    let mut p = pos(
        [
            ". * . . . . . . . . * *",
            "* * . . . . . . . . * *",
            ". c . . k . . . . . . .",
            ". . . . . . . . . N C F",
            ". . . . . . . . . . . .",
            ". . . . . . . . . . . .",
            "* * . . . . . . . . * *",
            "* * . . . . K . . . * P",
        ],
        "w - - 0 1",
    );
    play(&mut p, "l1f5");
    assert!(p.in_check());
    p.unmake_move();
    play(&mut p, "l1g5");
    assert!(!p.in_check());
    // The same with the Ferz loaded: on d5 it attacks e6.
    let mut p = pos(
        [
            ". * . . . . . . . . * *",
            "* * . . . . . . . . * *",
            ". c . . k . . . . . . .",
            ". . . . . . . . . N C .",
            ". . . . . . . . . . . .",
            ". . . . . . . . . . . .",
            "* * . . . . . . . . * *",
            "* * . . . . K . . . * F",
        ],
        "w - - 0 1",
    );
    play(&mut p, "l1d5");
    assert!(p.in_check());
    p.unmake_move();
    play(&mut p, "l1c5");
    assert!(!p.in_check());
}

#[test]
fn a_fired_stone_blocks_a_check_and_other_cannon_actions_cannot_parry_it() {
    // The black rook on g8 checks the white king on g1. White's cannon on k4 holds the Stone;
    // the screen is j4; only the landing square g4 blocks the check.
    let mut p = pos(
        [
            ". * k . . . r . . . * *",
            "* * . . . . . . . . * *",
            ". c . . . . . . . . . .",
            ". . . . . . . . . . . F",
            ". . . . . . . . . P C W",
            ". . . . . . . . . . . P",
            "* * . . . . . . . . * *",
            "* * . . . . K . . . * S",
        ],
        "w - - 0 1",
    );
    assert!(p.in_check());
    let king = ["g1f1", "g1f2", "g1h1", "g1h2"];
    let mut expected: Vec<&str> = king.to_vec();
    expected.push("l1g4");
    assert_eq!(all_moves(&p), strings(&expected));
    // Unloaded, nothing the cannon does helps: no loads, no cannon moves.
    let q = pos(
        [
            ". * k . . . r . . . * *",
            "* * . . . . . . . . * *",
            ". c . . . . . . . . . S",
            ". . . . . . . . . . . F",
            ". . . . . . . . . P C W",
            ". . . . . . . . . . . P",
            "* * . . . . . . . . * *",
            "* * . . . . K . . . * .",
        ],
        "w - - 0 1",
    );
    assert_eq!(all_moves(&q), strings(&king));
    // After the Stone lands, the rook cannot take it nor pass it.
    play(&mut p, "l1g4");
    assert_eq!(
        moves_from(&p, "g8")
            .into_iter()
            .filter(|m| m.as_bytes()[2] == b'g')
            .collect::<Vec<_>>(),
        strings(&["g8g5", "g8g6", "g8g7"])
    );
    // Nor can a white pawn or king take a black Stone.
    let p = pos(
        [
            ". * . . . . k . . . * *",
            "* * . . . . . . . . * *",
            ". c . . . . . . . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . . . . . C .",
            ". . . . . s . s . . . .",
            "* * . . . . P . . . * *",
            "* * . . . . K . . . * .",
        ],
        "w - - 0 1",
    );
    assert_eq!(moves_from(&p, "g2"), strings(&["g2g3", "g2g4"]));
    assert_eq!(
        moves_from(&p, "g1"),
        strings(&["g1f1", "g1f2", "g1h1", "g1h2"])
    );
}

#[test]
fn launched_wazir_and_ferz_move_and_a_pin_keeps_them_on_its_line() {
    // White Wazir g3 pinned by the rook g8 to the king g1: it may step to g2 or g4 only.
    // The Ferz f5 steps diagonally anywhere, taking the pawn on e6.
    let p = pos(
        [
            ". * k . . . r . . . * *",
            "* * . . . . . . . . * *",
            ". c . . p . . . . . . .",
            ". . . . . F . . . . . .",
            ". . . . . . . . . . C .",
            ". . . . . . W . . . . .",
            "* * . . . . . . . . * *",
            "* * . . . . K . . . * .",
        ],
        "w - - 0 1",
    );
    assert_eq!(moves_from(&p, "g3"), strings(&["g3g2", "g3g4"]));
    assert_eq!(
        moves_from(&p, "f5"),
        strings(&["f5e4", "f5e6", "f5g4", "f5g6"])
    );
    // A Ferz gives check diagonally, a Wazir orthogonally.
    let p = pos(
        [
            ". * . . . . . . . . * *",
            "* * . . . . . . . . * *",
            ". c . . . . . . . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . k . . . C .",
            ". . . . . F . . . . . .",
            "* * . . . . . . . . * *",
            "* * K . . . . . . . * .",
        ],
        "b - - 0 1",
    );
    assert!(p.in_check());
}

#[test]
fn unload_returns_the_projectile_to_its_home_square() {
    let mut p =
        cannonade_core::engine::registry::new_game::<ChesstoniaChess>("chesstonia").unwrap();
    play(&mut p, "l4l1");
    assert!(p
        .to_fen()
        .starts_with("1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f11/s9CP/"));
    assert!(p.to_fen().contains("**RNBQKBNR*W b"));
    // While loaded nothing else can be loaded; the only way back is home.
    play(&mut p, "a3a8");
    assert_eq!(moves_from(&p, "l1"), strings(&["l1l4"]));
    assert!(moves_from(&p, "l3").is_empty());
    play(&mut p, "l1l4 a8a3");
    assert_eq!(
        p.to_fen(),
        "1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f10W/s9CP/**PPPPPPPP**/**RNBQKBNR*1 w KQkq - 4 3"
    );
}

#[test]
fn the_cannon_freezes_once_its_projectiles_are_gone() {
    let rows = |l1: &'static str| {
        [
            ". * . . . . k . . . * *",
            "* * . . . . . . . . * *",
            ". c . . . . . . . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . . . . N C .",
            "* * . . . . . . . . * *",
            l1,
        ]
    };
    let p = pos(rows("* * . . . . K . . . * ."), "w - - 0 1");
    assert!(moves_from(&p, "k3").is_empty());
    // With the last projectile loaded it still moves, and after firing it is frozen.
    let mut p = pos(rows("* * . . . . K . . . * S"), "w - - 0 1");
    assert_eq!(moves_from(&p, "k3"), strings(&["k3k4", "k3k5", "k3k6"]));
    play(&mut p, "l1h3 g8g7");
    assert!(moves_from(&p, "k3").is_empty());
    assert!(moves_from(&p, "l1").is_empty());
}

#[test]
fn a_launched_pawn_promotes_and_captures_en_passant() {
    // White's cannon on k5 holds the Pawn, screen j5. Fired onto g5, it meets black's f7 pawn
    // double-stepping to f5 and takes it en passant on f6, then walks on to promote on f8.
    let mut p = pos(
        [
            ". * k . . . . . . . * *",
            "* * . . . p . . . . * *",
            ". c . . . . . . . . . .",
            ". . . . . . . . . N C .",
            ". . . . . . . . . . . .",
            ". . . . . . . . . . . .",
            "* * . . . . . . . . * *",
            "* * K . . . . . . . * P",
        ],
        "w - - 0 1",
    );
    play(&mut p, "l1g5 f7f5");
    assert_eq!(moves_from(&p, "g5"), strings(&["g5f6", "g5g6"]));
    play(&mut p, "g5f6");
    assert!(
        !p.to_fen().contains('p'),
        "the black pawn was taken en passant"
    );
    play(&mut p, "c8d8 f6f7 d8c8");
    assert_eq!(
        moves_from(&p, "f7"),
        strings(&["f7f8b", "f7f8n", "f7f8q", "f7f8r"])
    );
}

#[test]
fn stalemate_only_without_projectiles() {
    // Black king j8, white queen i6: no king move. With a Stone stored black can move its
    // cannon (three squares) or load: not stalemate.
    let rows = [
        ". * . . . . . . . k * *",
        "* * . . . . . . . . * *",
        ". c . . . . . . Q . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        "s . . . . . . . . . C .",
        "* * . . . . . . . . * *",
        "* * K . . . . . . . * .",
    ];
    let p = pos(rows, "b - - 0 1");
    assert_eq!(all_moves(&p), strings(&["a3a8", "b6b3", "b6b4", "b6b5"]));
    let mut rows = rows;
    rows[5] = ". . . . . . . . . . C .";
    let p = pos(rows, "b - - 0 1");
    assert!(all_moves(&p).is_empty());
    assert!(!p.in_check());
    assert!(matches!(p.no_moves_outcome(), Outcome::Draw(_)));
    assert!(matches!(p.outcome(), Some(Outcome::Draw(_))));
}

#[test]
fn fifty_move_counter_runs_through_cannon_actions_and_firing_resets_it() {
    let mut p =
        cannonade_core::engine::registry::new_game::<ChesstoniaChess>("chesstonia").unwrap();
    play(&mut p, "k3k4 b6b5 l4l1 a5a8 l1l4 a8a5");
    assert_eq!(p.halfmove_clock(), 6);
    // A pawn move resets it; so does firing (over the g4 pawn onto f4), but not a load.
    play(&mut p, "g2g4");
    assert_eq!(p.halfmove_clock(), 0);
    play(&mut p, "b5b6 k4k5 b6b5 k5k4 b5b6 l4l1 b6b5");
    assert_eq!(p.halfmove_clock(), 7);
    play(&mut p, "l1f4");
    assert_eq!(p.halfmove_clock(), 0);
}

#[test]
fn fen_validation() {
    let good =
        "1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f10W/s9CP/**PPPPPPPP**/**RNBQKBNR*1 w KQkq - 0 1";
    let g = cannonade_core::engine::registry::new_game::<ChesstoniaChess>("chesstonia").unwrap();
    assert!(g.with_fen(good).is_ok());
    for bad in [
        // Two white cannons.
        "1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f9CW/s9CP/**PPPPPPPP**/**RNBQKBNR*1 w KQkq - 0 1",
        // No black cannon.
        "1*rnbqkbnr**/**pppppppp**/p10S/w10F/f10W/s9CP/**PPPPPPPP**/**RNBQKBNR*1 w KQkq - 0 1",
        // White's cannon on black's track.
        "1*rnbqkbnr**/**pppppppp**/pc9S/w10F/fC9W/s10P/**PPPPPPPP**/**RNBQKBNR*1 w KQkq - 0 1",
        // A Wazir on the Pawn's storage square.
        "1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f11/s9CW/**PPPPPPPP**/**RNBQKBNR*1 w KQkq - 0 1",
        // A black Stone in white's storage.
        "1*rnbqkbnr**/**pppppppp**/pc9s/w10F/f10W/10CP/**PPPPPPPP**/**RNBQKBNR*1 w KQkq - 0 1",
        // A black projectile on white's load square.
        "1*rnbqkbnr**/**pppppppp**/pc10/w10F/f10W/s9CP/**PPPPPPPP**/**RNBQKBNR*s w KQkq - 0 1",
        // A Wazir both loaded and stored.
        "1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f10W/s9CP/**PPPPPPPP**/**RNBQKBNR*W w KQkq - 0 1",
        // A rook on the load square, a knight on a track, a cannon on the board.
        "1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f10W/s9CP/**PPPPPPPP**/**RNBQKBN1*R w Qkq - 0 1",
        "1*rnbqkbnr**/**pppppppp**/pc9S/w9NF/f10W/s9CP/**PPPPPPPP**/**RNBQKB1R*1 w KQkq - 0 1",
        "1*rnbqkbnr**/**pppppppp**/p10S/w4c5F/f10W/s9CP/**PPPPPPPP**/**RNBQKBNR*1 w KQkq - 0 1",
        // A piece on a hole.
        "1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f10W/s9CP/**PPPPPPPP*P/**RNBQKBNR*1 w KQkq - 0 1",
        "1*rnbqkbnr**/**pppppppp**/pc9S/w10F/f10W/s9CP/**PPPPPPPP**/**RNBQKBNR*1/ w KQkq - 0 1",
    ] {
        assert!(g.with_fen(bad).is_err(), "{bad}");
    }
}

#[test]
fn null_moves_only_while_the_cannon_can_move() {
    let p = cannonade_core::engine::registry::new_game::<ChesstoniaChess>("chesstonia").unwrap();
    assert!(p.null_move_ok());
    // King and pawns only, no projectiles: zugzwang is possible, no null move.
    let p = pos(
        [
            ". * . . . . k . . . * *",
            "* * . . . . p . . . * *",
            ". c . . . . . . . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . . . . . . .",
            ". . . . . . . . . . C .",
            "* * . . . . P . . . * *",
            "* * . . . . K . . . * .",
        ],
        "w - - 0 1",
    );
    assert!(!p.null_move_ok());
}

#[test]
fn random_games_agree_with_the_naive_generator() {
    // Random games from the start, checking keys, FEN round trips, in_check, the whole move
    // list against the naive square-walking generator (which has its own cannon machinery
    // written from the rules file), and that unmake restores the FEN.
    let start =
        cannonade_core::engine::registry::new_game::<ChesstoniaChess>("chesstonia").unwrap();
    random_playouts(&start, 12, 120);
    // A position where both cannons are busy and the projectiles are on the board.
    let mid = pos(
        [
            ". * r . b q k . n r * *",
            "* * p p . . b p p p * *",
            ". c . . n p . W . . . S",
            "w . . . p . . . . . . .",
            "f . . . . . P . . . C .",
            "s . . . . . F N . . . P",
            "* * P P P . . P P P * *",
            "* * R N B Q K B . R * .",
        ],
        "w KQkq - 0 1",
    );
    random_playouts(&mid, 8, 100);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn make_unmake_restores_fen_and_key(choices in proptest::collection::vec(any::<u16>(), 1..120)) {
        let mut p = cannonade_core::engine::registry::new_game::<ChesstoniaChess>("chesstonia").unwrap();
        let mut fens = vec![p.to_fen()];
        let mut keys = vec![p.key()];
        for c in choices {
            let mut moves = ChessMoves::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            p.make_move(moves[c as usize % moves.len()]);
            prop_assert_eq!(p.key(), p.compute_key());
            let fen = p.to_fen();
            let reread = p.with_fen(&fen).unwrap();
            prop_assert_eq!(reread.to_fen(), fen.clone());
            prop_assert_eq!(reread.key(), p.key());
            fens.push(fen);
            keys.push(p.key());
        }
        while fens.len() > 1 {
            p.unmake_move();
            fens.pop();
            keys.pop();
            prop_assert_eq!(&p.to_fen(), fens.last().unwrap());
            prop_assert_eq!(p.key(), *keys.last().unwrap());
        }
    }
}

/// The search's score (centipawns, side to move) at a fixed depth.
fn searched_score(p: &ChesstoniaChess, depth: u32) -> i32 {
    use cannonade_core::search::{
        self, Limits, Score, SearchControl, SearchOptions, TranspositionTable,
    };
    let tt = std::sync::Arc::new(TranspositionTable::new(16));
    let ctl = std::sync::Arc::new(SearchControl::new(hosts::single_thread(), false));
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = search::search(
        p,
        &limits,
        &SearchOptions::default(),
        &tt,
        &ctl,
        &mut |_| {},
    );
    match r.score {
        Score::Cp(cp) => cp,
        Score::Mate(n) => panic!("unexpected mate {n}"),
    }
}

#[test]
fn a_cannon_move_is_a_free_tempo_and_the_search_knows_who_has_one() {
    // King and pawn against king with the kings in opposition (chess's Kd5/Pd4 against Kd7,
    // on files f here): white to move cannot make progress, black to move would lose. With
    // no projectiles white has no waiting move, and the search must not invent one (a null
    // move would be exactly that). With a Stone in storage, a cannon action passes the move
    // to black, and the search must see the pawn promote.
    let rows = |white_storage: char| -> [String; 8] {
        [
            ". * . . . . . . . . * *".into(),
            "* * . . . k . . . . * *".into(),
            format!(". c . . . . . . . . . {white_storage}"),
            ". . . . . K . . . . . .".into(),
            ". . . . . P . . . . . .".into(),
            ". . . . . . . . . . C .".into(),
            "* * . . . . . . . . * *".into(),
            "* * . . . . . . . . * .".into(),
        ]
    };
    let board = |c: char| {
        let r = rows(c);
        pos(
            [&r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7]],
            "w - - 0 1",
        )
    };
    let without = board('.');
    let with_stone = board('S');
    assert!(!without.null_move_ok() && with_stone.null_move_ok());
    let drawn = searched_score(&without, 20);
    let won = searched_score(&with_stone, 20);
    // A pawn up but no way through: well short of a new queen.
    assert!(drawn < 400, "without a tempo move: {drawn}");
    // The pawn queens: the score counts a queen.
    assert!(won > 700, "with a tempo move: {won}");
}
