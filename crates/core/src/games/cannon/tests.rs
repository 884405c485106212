//! Rule tests for Cannon. Expected move sets are worked out by hand from the rules
//! (docs/rules/cannon.md), and a separate square-by-square reference generator, written
//! straight from the rules text, checks the bitboard generator on random games.

use super::*;
use crate::board::Color;
use crate::games::cannon::CannonMoves;
use crate::games::perft::perft;
use crate::games::{EndReason, FenError, FenField, Game, GameError, MoveKind, Notation, Outcome};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The start position, as the registry gives it to the game.
pub(super) fn start_fen() -> &'static str {
    crate::engine::registry::find("cannon")
        .unwrap()
        .game
        .start_fen
}

/// A FEN from a list like "Se3 Se4 st10 Tb1": letter then square, 1-based ranks.
pub(super) fn fen_of(pieces: &str, side: char) -> String {
    let mut grid = [['.'; 10]; 10];
    for p in pieces.split_whitespace() {
        let mut chars = p.chars();
        let letter = chars.next().unwrap();
        let sq: String = chars.collect();
        let file = (sq.as_bytes()[0] - b'a') as usize;
        let rank: usize = sq[1..].parse::<usize>().unwrap() - 1;
        assert_eq!(grid[rank][file], '.', "two pieces on {sq}");
        grid[rank][file] = letter;
    }
    let mut rows = Vec::new();
    for rank in (0..10).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for &cell in &grid[rank] {
            match cell {
                '.' => empty += 1,
                c => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row.push(c);
                }
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    format!("{}[] {side} - - 0 1", rows.join("/"))
}

pub(super) fn position(pieces: &str, side: char) -> CannonPosition {
    CannonPosition::from_fen(&fen_of(pieces, side), false).unwrap()
}

fn strings(p: &CannonPosition, notation: Notation) -> BTreeSet<String> {
    let mut list = CannonMoves::new();
    p.legal_moves(&mut list);
    let set: BTreeSet<String> = list
        .iter()
        .map(|&m| p.move_to_string(m, notation))
        .collect();
    assert_eq!(set.len(), list.len(), "two moves with one string");
    set
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

fn play(p: &mut CannonPosition, s: &str) {
    let m = p
        .parse_move(s, Notation::Uci)
        .unwrap_or_else(|| panic!("{s} is not legal in {}", p.to_fen()));
    p.make_move(m);
}

// ---------------------------------------------------------------------------------------
// Start, placement, perft

#[test]
fn start_position_places_towns_first() {
    let mut p = crate::engine::registry::new_game::<CannonPosition>("cannon").unwrap();
    assert_eq!(p.to_fen(), start_fen());
    let towns: Vec<String> = "bcdefghi".chars().map(|f| format!("T@{f}1")).collect();
    let towns: Vec<&str> = towns.iter().map(String::as_str).collect();
    assert_eq!(strings(&p, Notation::Uci), set(&towns));
    play(&mut p, "T@e1");
    assert_eq!(
        p.to_fen(),
        "10/1s1s1s1s1s/1s1s1s1s1s/1s1s1s1s1s/10/10/S1S1S1S1S1/S1S1S1S1S1/S1S1S1S1S1/4T5[t] b - - 0 1"
    );
    let black: Vec<String> = "bcdefghi".chars().map(|f| format!("T@{f}9")).collect();
    let black: Vec<&str> = black.iter().map(String::as_str).collect();
    // XBoard counts ranks from 0 on this ten-rank board.
    assert_eq!(strings(&p, Notation::XBoard), set(&black));
    assert!(p.parse_move("T@e9", Notation::XBoard).is_some());
    assert!(p.parse_move("T@a10", Notation::Uci).is_none(), "corner");
    play(&mut p, "T@f10");
    assert!(!p.town_in_hand(Color::White) && !p.town_in_hand(Color::Black));
    assert_eq!(p.side_to_move(), Color::White);
    assert!(p.to_fen().ends_with("[] w - - 0 2"));
}

#[test]
fn perft_matches_the_reference_numbers() {
    let mut p = crate::engine::registry::new_game::<CannonPosition>("cannon").unwrap();
    assert_eq!(perft(&mut p, 1), 8);
    assert_eq!(perft(&mut p, 2), 64);
    assert_eq!(perft(&mut p, 3), 2656);
    // d4 counted by hand in docs/rules/cannon.md; d5 agrees with the reference generator.
    assert_eq!(perft(&mut p, 4), 111_376);
    assert_eq!(perft(&mut p, 5), 4_615_160);
}

#[test]
fn first_moves_split_as_the_rules_file_counts() {
    // 42 moves with the town on b1 or h1; 41 on c1 or i1, where the town blocks the backward
    // shift c4c1 or i4i1.
    for (town, n) in [("b1", 42), ("c1", 41), ("h1", 42), ("i1", 41)] {
        let mut p = crate::engine::registry::new_game::<CannonPosition>("cannon").unwrap();
        play(&mut p, &format!("T@{town}"));
        play(&mut p, "T@e10");
        assert_eq!(strings(&p, Notation::Uci).len(), n, "town on {town}");
    }
}

// ---------------------------------------------------------------------------------------
// Soldiers: steps, captures, retreats

#[test]
fn white_and_black_soldiers_step_forward_and_diagonally_forward() {
    let p = position("Se5 Ti1 tb10", 'w');
    assert_eq!(strings(&p, Notation::Uci), set(&["e5e6", "e5d6", "e5f6"]));
    let p = position("se6 Ti1 tb10", 'b');
    assert_eq!(strings(&p, Notation::Uci), set(&["e6e5", "e6d5", "e6f5"]));
    // On the edge file only two steps; on the enemy's first rank none.
    let p = position("Sa5 Ti1 tb10", 'w');
    assert_eq!(strings(&p, Notation::Uci), set(&["a5a6", "a5b6"]));
    let p = position("Sa10 Ti1 tf10", 'w');
    assert_eq!(strings(&p, Notation::Uci), set(&[]));
}

#[test]
fn captures_forward_diagonal_and_sideways_never_backward() {
    // Black on d6 e6 f6 (ahead), f5 (side), d4 e4 (behind). e5 is next to enemies, so it may
    // also retreat: e3 is blocked at e4, c3 at d4, g3 is open through f4.
    let p = position("Se5 sd6 se6 sf6 sf5 sd4 se4 Tb1 ti10", 'w');
    assert_eq!(
        strings(&p, Notation::Uci),
        set(&["e5d6", "e5e6", "e5f6", "e5f5", "e5g3"])
    );
    // The same for black: forward is down the board.
    let p = position("se6 Sd5 Se5 Sf5 Sf6 Sd7 Se7 tb10 Ti1", 'b');
    assert_eq!(
        strings(&p, Notation::Uci),
        set(&["e6d5", "e6e5", "e6f5", "e6f6", "e6g8"])
    );
}

#[test]
fn retreat_needs_an_adjacent_enemy_and_two_empty_squares() {
    // An enemy soldier diagonally behind triggers all three retreats.
    let p = position("Se5 sf4 Tb1 ti10", 'w');
    // f4 is behind: not capturable. Retreats: e3 via e4, c3 via d4, g3 via f4 (blocked).
    assert_eq!(
        strings(&p, Notation::Uci),
        set(&["e5e6", "e5d6", "e5f6", "e5e3", "e5c3"])
    );
    // The landing square occupied (own soldier on e3) blocks too. That soldier is also next
    // to f4, so it steps or retreats to e1, c1 or g1.
    let p = position("Se5 Se3 sf4 Tb1 ti10", 'w');
    assert_eq!(
        strings(&p, Notation::Uci),
        set(&["e5e6", "e5d6", "e5f6", "e5c3", "e3e4", "e3d4", "e3f4", "e3e1", "e3c1", "e3g1"])
    );
    // No enemy next to it: no retreat, even with an enemy two squares away.
    let p = position("Se5 sg5 Tb1 ti10", 'w');
    assert_eq!(strings(&p, Notation::Uci), set(&["e5e6", "e5d6", "e5f6"]));
    // Near its own edge a retreat would leave the board.
    let p = position("Sa2 sb3 Tc1 ti10", 'w');
    assert_eq!(strings(&p, Notation::Uci), set(&["a2a3", "a2b3"]));
}

#[test]
fn an_enemy_town_next_to_a_soldier_triggers_its_retreat() {
    // Black soldier on d2 next to the white town on e1 (which it can also take diagonally).
    let p = position("sd2 Te1 tb10 Si5", 'b');
    assert_eq!(
        strings(&p, Notation::Uci),
        set(&["d2d1", "d2c1", "d2e1", "d2d4", "d2b4", "d2f4"])
    );
    // Town two files away: no retreat.
    let p = position("sd2 Tg1 tb10 Si5", 'b');
    assert_eq!(strings(&p, Notation::Uci), set(&["d2d1", "d2c1", "d2e1"]));
}

// ---------------------------------------------------------------------------------------
// Cannons: shifts and shots along every line, both ways

#[test]
fn vertical_cannon_shifts_and_shoots_both_ways() {
    let p = position("Se3 Se4 Se5 se7 se1 Tb1 ti10", 'w');
    assert_eq!(
        strings(&p, Notation::Uci),
        set(&[
            "e5e6", "e5d6", "e5f6", "e4d5", "e4f5", "e3d4", "e3f4", // steps
            "e3e6", "e5e2", // shifts
            "e5e7", "e3e1", // shots at the second square
        ])
    );
    let mut xb = strings(&p, Notation::XBoard);
    assert!(xb.remove("e4e6,e6e4") && xb.remove("e2e0,e0e2") && xb.remove("e2e5"));
}

#[test]
fn horizontal_cannon_shifts_and_shoots_both_ways() {
    let p = position("Sc5 Sd5 Se5 sg5 sa5 Tb1 ti10", 'w');
    assert_eq!(
        strings(&p, Notation::Uci),
        set(&[
            "c5c6", "c5b6", "c5d6", "d5d6", "d5c6", "d5e6", "e5e6", "e5d6", "e5f6", // steps
            "c5f5", "e5b5", // shifts
            "e5g5", "c5a5", // shots
        ])
    );
}

#[test]
fn rising_diagonal_cannon_shifts_and_shoots_both_ways() {
    // c3-d4-e5: the shot up-right hits h8 on the third square over an empty g7; the shot
    // down-left hits a1 on the second square.
    let p = position("Sc3 Sd4 Se5 sh8 sa1 Ti1 tb10", 'w');
    assert_eq!(
        strings(&p, Notation::Uci),
        set(&[
            "c3c4", "c3b4", "d4d5", "d4c5", "e5e6", "e5d6", "e5f6", // steps
            "c3f6", "e5b2", // shifts
            "e5h8", "c3a1", // shots
        ])
    );
}

#[test]
fn falling_diagonal_cannon_of_black_shifts_and_shoots_both_ways() {
    // g4-f5-e6 for black: up-left to c8 (second square), down-right to j1 (third square).
    let p = position("sg4 sf5 se6 Sc8 Sj1 Te1 tb10", 'b');
    assert_eq!(
        strings(&p, Notation::Uci),
        set(&[
            "e6e5", "e6d5", "f5f4", "f5e4", "g4g3", "g4f3", "g4h3", // steps
            "e6h3", "g4d7", // shifts
            "e6c8", "g4j1", // shots
        ])
    );
}

#[test]
fn black_cannons_shoot_along_ranks_and_files() {
    // Black file cannon b7-b8-b9 down at b4 (third square); rank cannon f9-g9-h9 both ways.
    let p = position("sb7 sb8 sb9 sf9 sg9 sh9 Sb4 Sj9 Sd9 Te1 tc10", 'b');
    let shots: BTreeSet<String> = {
        let mut list = CannonMoves::new();
        p.legal_moves(&mut list);
        list.iter()
            .filter(|m| m.kind() == MoveKind::Shot)
            .map(|&m| p.move_to_string(m, Notation::Uci))
            .collect()
    };
    // f9 shoots d9 over the empty e9; h9 shoots j9 over the empty i9.
    assert_eq!(shots, set(&["b7b4", "f9d9", "h9j9"]));
}

#[test]
fn a_shot_needs_the_first_square_empty() {
    // e6 is occupied by an enemy: no shot at e7 or e8, but e5 takes e6 directly.
    let p = position("Se3 Se4 Se5 se6 se7 se8 Tb1 ti10", 'w');
    let s = strings(&p, Notation::Uci);
    assert!(s.contains("e5e6"));
    assert!(!s.contains("e5e7") && !s.contains("e5e8") && !s.contains("e3e6"));
}

#[test]
fn third_square_shot_over_an_occupied_second_square_follows_the_switch() {
    // Enemy soldiers on the second (e7) and third (e8) squares past the front e5.
    let fen = fen_of("Se3 Se4 Se5 se7 se8 Tb1 ti10", 'w');
    let shots = |clear: bool| -> BTreeSet<String> {
        let mut p = crate::engine::registry::new_game::<CannonPosition>("cannon").unwrap();
        p.set_rule_option("CannonClearShot", clear).unwrap();
        let p = p.with_fen(&fen).unwrap();
        let mut list = CannonMoves::new();
        p.legal_moves(&mut list);
        list.iter()
            .filter(|m| m.kind() == MoveKind::Shot)
            .map(|&m| p.move_to_string(m, Notation::Uci))
            .collect()
    };
    assert_eq!(shots(false), set(&["e5e7", "e5e8"]));
    assert_eq!(shots(true), set(&["e5e7"]));

    // An own soldier on the second square: the third-square shot flies over it only when the
    // switch is off.
    let fen2 = fen_of("Se3 Se4 Se5 Se7 se8 Tb1 ti10", 'w');
    for (clear, expected) in [(false, set(&["e5e8"])), (true, set(&[]))] {
        let mut p = crate::engine::registry::new_game::<CannonPosition>("cannon").unwrap();
        p.set_rule_option("CannonClearShot", clear).unwrap();
        let p = p.with_fen(&fen2).unwrap();
        let mut list = CannonMoves::new();
        p.legal_moves(&mut list);
        let got: BTreeSet<String> = list
            .iter()
            .filter(|m| m.kind() == MoveKind::Shot)
            .map(|&m| p.move_to_string(m, Notation::Uci))
            .collect();
        assert_eq!(got, expected, "CannonClearShot={clear}");
    }
}

#[test]
fn a_line_of_four_holds_two_cannons() {
    // e3-e4-e5-e6: the lower cannon slides down (e5e2) and shoots down (e3e1); the upper one
    // slides up (e4e7) and shoots up over the empty e7, e8 to e9. Neither slides into the other.
    let p = position("Se3 Se4 Se5 Se6 se9 se1 Tb1 ti10", 'w');
    assert_eq!(
        strings(&p, Notation::Uci),
        set(&[
            "e6e7", "e6d7", "e6f7", "e5d6", "e5f6", "e4d5", "e4f5", "e3d4", "e3f4", // steps
            "e5e2", "e4e7", // shifts
            "e6e9", "e3e1", // shots
        ])
    );
}

#[test]
fn three_cannons_aiming_at_one_victim_are_three_moves() {
    // e8 is the second square of the file cannon e4-e5-e6, the rank cannon a8-b8-c8 and the
    // diagonal cannon a4-b5-c6.
    let p = position("Se4 Se5 Se6 Sa8 Sb8 Sc8 Sa4 Sb5 Sc6 se8 Tb1 ti10", 'w');
    let mut list = CannonMoves::new();
    p.legal_moves(&mut list);
    let shots: Vec<String> = list
        .iter()
        .filter(|m| m.kind() == MoveKind::Shot)
        .map(|&m| p.move_to_string(m, Notation::Uci))
        .collect();
    assert_eq!(shots.len(), 3);
    assert_eq!(
        shots.into_iter().collect::<BTreeSet<_>>(),
        set(&["e6e8", "c8e8", "c6e8"])
    );
}

// ---------------------------------------------------------------------------------------
// Notation

#[test]
fn shots_read_in_two_legs_and_in_uci_also_one() {
    let p = position("Se3 Se4 Se5 se7 Tb1 ti10", 'w');
    let one = p.parse_move("e5e7", Notation::Uci).unwrap();
    assert_eq!(one.kind(), MoveKind::Shot);
    assert_eq!(p.move_to_string(one, Notation::Uci), "e5e7");
    assert_eq!(p.move_to_string(one, Notation::XBoard), "e4e6,e6e4");
    assert_eq!(p.parse_move("e4e6,e6e4", Notation::XBoard), Some(one));
    // XBoard shows a one-leg `e4e6` as the soldier moving to e6: not a shot there.
    assert_eq!(p.parse_move("e4e6", Notation::XBoard), None);
    assert_eq!(p.parse_move("e5e7,e7e5", Notation::Uci), Some(one));
    // A second leg that is not the way back, or a second leg on a move that is not a shot.
    assert_eq!(p.parse_move("e4e6,e6e5", Notation::XBoard), None);
    assert_eq!(p.parse_move("e4e5,e5e4", Notation::XBoard), None);
    assert_eq!(
        p.parse_move("e5e7", Notation::XBoard),
        None,
        "1-based in XBoard"
    );
    assert_eq!(p.parse_move("", Notation::Uci), None);
    assert_eq!(p.parse_move("zz", Notation::XBoard), None);
    let step = p.parse_move("e4f5", Notation::XBoard).unwrap();
    assert_eq!(p.move_to_string(step, Notation::Uci), "e5f6");
}

// ---------------------------------------------------------------------------------------
// Game end

#[test]
fn taking_the_town_by_a_shot_ends_the_game() {
    let mut p = position("Se6 Se7 Se8 se2 Tb1 te10", 'w');
    assert_eq!(p.rule_outcome(), None);
    assert_eq!(p.decided_outcome(), None);
    play(&mut p, "e8e10");
    assert_eq!(p.rule_outcome(), Some(Outcome::Loss(EndReason::TownTaken)));
    // The search's quiescence asks this instead of the evaluation (a net cannot tell).
    assert_eq!(
        p.decided_outcome(),
        Some(Outcome::Loss(EndReason::TownTaken))
    );
    assert_eq!(p.outcome(), Some(Outcome::Loss(EndReason::TownTaken)));
    assert!(
        strings(&p, Notation::Uci).is_empty(),
        "no moves after the end"
    );
    // The finished position reads back (black, to move, has no town).
    let fen = p.to_fen();
    assert_eq!(fen, fen_of("Se6 Se7 Se8 se2 Tb1", 'b'));
    let q = p.with_fen(&fen).unwrap();
    assert_eq!(q.rule_outcome(), Some(Outcome::Loss(EndReason::TownTaken)));
    p.unmake_move();
    assert_eq!(p.to_fen(), fen_of("Se6 Se7 Se8 se2 Tb1 te10", 'w'));
}

#[test]
fn taking_the_town_by_a_soldier_ends_the_game() {
    let mut p = position("sd2 Te1 tb10 Si5", 'b');
    play(&mut p, "d2e1");
    assert_eq!(p.outcome(), Some(Outcome::Loss(EndReason::TownTaken)));
    assert_eq!(p.outcome().unwrap().result_string(p.side_to_move()), "0-1");
}

#[test]
fn a_side_without_a_move_loses() {
    // Black's only soldier stands on white's first rank with nothing around it.
    let p = position("sa1 Te1 tb10 Si5", 'b');
    assert!(strings(&p, Notation::Uci).is_empty());
    assert_eq!(p.outcome(), Some(Outcome::Loss(EndReason::NoLegalMove)));
    assert_eq!(p.outcome().unwrap().result_string(Color::Black), "1-0");
    // A town alone cannot move either.
    let p = position("Te1 tb10 Si5", 'b');
    assert_eq!(p.outcome(), Some(Outcome::Loss(EndReason::NoLegalMove)));
}

#[test]
fn the_third_occurrence_is_a_draw() {
    let mut p = position("Se3 Se4 Se5 sh7 sh8 sh9 Tb1 tc10", 'w');
    assert!(!p.is_repetition_within(100));
    for _ in 0..2 {
        assert_eq!(p.rule_outcome(), None);
        for m in ["e3e6", "h9h6", "e6e3", "h6h9"] {
            play(&mut p, m);
        }
        assert!(p.is_repetition_within(4));
        assert!(!p.is_repetition_within(3));
    }
    assert_eq!(p.rule_outcome(), Some(Outcome::Draw(EndReason::Repetition)));
    p.unmake_move();
    assert_eq!(p.rule_outcome(), None);
}

#[test]
fn cannon_has_no_check_and_null_moves_only_with_both_towns_and_soldiers() {
    let p = crate::engine::registry::new_game::<CannonPosition>("cannon").unwrap();
    assert!(!p.in_check());
    assert!(!p.null_move_ok(), "towns are being placed");
    let p = position("Se3 Se4 Se5 Sa2 Sc2 sh7 Tb1 tc10", 'w');
    assert!(p.null_move_ok());
    let p = position("Se3 Se4 Sa2 Sc2 sh7 Tb1 tc10", 'w');
    assert!(!p.null_move_ok(), "four soldiers: zugzwang is likely");
    // Even with the town attacked there is no check.
    let p = position("Sb9 Tb1 tc10", 'b');
    assert!(!p.in_check());
}

// ---------------------------------------------------------------------------------------
// FEN

#[test]
fn fens_round_trip() {
    for fen in [
        start_fen(),
        "10/1s1s1s1s1s/1s1s1s1s1s/1s1s1s1s1s/10/10/S1S1S1S1S1/S1S1S1S1S1/S1S1S1S1S1/4T5[t] b - - 0 1",
        "3t6/1s1s3s1s/1s1s1s4/3s1S1s2/2S7/10/S3S1S1S1/S1S3S3/S1S1S5/6T3[] w - - 7 12",
        "1t8/10/10/10/10/10/10/10/10/8T1[] b - - 3 40",
    ] {
        let p = CannonPosition::from_fen(fen, false).unwrap();
        assert_eq!(p.to_fen(), fen);
        assert_eq!(p.key(), p.compute_key());
    }
    // Short forms are read with defaults; "[-]" is an empty hand.
    let p = CannonPosition::from_fen("1t8/10/10/10/10/10/10/10/10/8T1[-] b", false).unwrap();
    assert_eq!(p.to_fen(), "1t8/10/10/10/10/10/10/10/10/8T1[] b - - 0 1");
}

#[test]
fn bad_fens_are_refused_with_a_reason() {
    let cases = [
        ("", "empty"),
        ("10/10/10/10/10/10/10/10/10[Tt] w - - 0 1", "9 ranks"),
        (
            "1t8/10/10/10/10/10/10/10/10/8K1[] w - - 0 1",
            "unknown piece",
        ),
        ("1t8/10/10/10/10/10/10/10/10/9T[] w - - 0 1", "first rank"),
        ("1t8/10/10/10/10/10/10/10/T9/10[] w - - 0 1", "first rank"),
        ("1t8/10/10/10/10/10/10/10/10/1T6T1[] w - - 0 1", "two towns"),
        (
            "1t8/10/10/10/10/10/10/10/10/8T1[T] w - - 0 1",
            "both on the board and in hand",
        ),
        ("1t8/10/10/10/10/10/10/10/10/8T1[S] w - - 0 1", "only towns"),
        ("1t8/10/10/10/10/10/10/10/10/8T1[ w - - 0 1", "end with"),
        (
            "10/10/10/10/10/10/10/10/10/10[Tt] b - - 0 1",
            "white is to move",
        ),
        (
            "1t8/10/10/10/10/10/10/10/10/10[T] w - - 0 1",
            "white places first",
        ),
        (
            "10/10/10/10/10/10/10/10/10/8T1[t] w - - 0 1",
            "must place it",
        ),
        (
            "10/10/10/10/10/10/10/10/10/8T1[] w - - 0 1",
            "only the side to move",
        ),
        ("10/10/10/10/10/10/10/10/10/10[] w - - 0 1", "both towns"),
        (
            "1t8/10/10/10/10/10/10/10/10/8T1[] x - - 0 1",
            "side to move",
        ),
        ("1t8/10/10/10/10/10/10/10/10/8T1[] w KQkq - 0 1", "castling"),
        ("1t8/10/10/10/10/10/10/10/10/8T1[] w - e3 0 1", "en-passant"),
        ("1t8/10/10/10/10/10/10/10/10/8T1[] w - - x 1", "halfmove"),
        ("1t8/10/10/10/10/10/10/10/10/8T1[] w - - 0 y", "fullmove"),
        (
            "1t8/10/10/10/10/10/10/10/10/8T1[] w - - 0 1 z",
            "unexpected",
        ),
        (
            "1t8/10/10/10/SSSSSSSSSS/SSSSSS4/10/10/10/8T1[] w - - 0 1",
            "16 soldiers",
        ),
    ];
    for (fen, needle) in cases {
        match CannonPosition::from_fen(fen, false) {
            Ok(_) => panic!("accepted {fen:?}"),
            Err(e) => assert!(e.reason.contains(needle), "{fen:?}: '{e}' lacks '{needle}'"),
        }
    }
}

#[test]
fn the_switch_is_an_option_and_survives_new_fens() {
    let mut p = crate::engine::registry::new_game::<CannonPosition>("cannon").unwrap();
    assert_eq!(CANNON_OPTIONS.len(), 2);
    assert_eq!(CANNON_OPTIONS[0].name, "CannonClearShot");
    assert!(!CANNON_OPTIONS[0].default);
    let e = p.set_rule_option("NoSuchRule", true).unwrap_err();
    assert!(matches!(&e, GameError::UnknownRuleOption { name, .. } if name == "NoSuchRule"));
    assert_eq!(
        e.to_string(),
        "unknown rule option 'NoSuchRule' (Cannon has CannonClearShot and CannonShiftLimit)"
    );
    p.set_rule_option("CannonClearShot", true).unwrap();
    assert!(p.with_fen(start_fen()).unwrap().clear_shot());
    let e = crate::engine::registry::new_game::<CannonPosition>("chess")
        .err()
        .expect("refused");
    assert!(
        matches!(
            e,
            GameError::Fen(FenError {
                field: FenField::Board,
                ..
            })
        ),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------
// Evaluation

#[test]
fn evaluation_is_symmetric_and_sees_the_obvious() {
    // A position and its mirror (colours and ranks swapped) score the same for the mover.
    let white = position("Se3 Se4 Se5 Sa2 sg7 sh8 Tb1 tc10", 'w');
    let black = position("se8 se7 se6 sa9 Sg4 Sh3 tb10 Tc1", 'b');
    assert_eq!(white.evaluate(), black.evaluate());
    // An extra soldier is worth about a soldier.
    let more = position("Se3 Se4 Se5 Sa2 sh8 Tb1 tc10", 'w');
    assert!(more.evaluate() > white.evaluate() + 50);
    // Being able to take the town now is close to a win; facing that threat is bad.
    let win = position("Se6 Se7 Se8 sa2 Tb1 te10", 'w');
    assert!(win.evaluate() > 2000);
    let lose = position("Se6 Se7 Se8 sa9 Tb1 te10", 'b');
    assert!(lose.evaluate() < -200);
    let start = crate::engine::registry::new_game::<CannonPosition>("cannon").unwrap();
    assert!(start.evaluate().abs() < 50);
    // Town-safety zones: a1 has 4, 9 and 25 squares within 1, 2 and 4 king steps; e5 has 9,
    // 25 and 81.
    let zones = &start.t.zones;
    let count = |sq: usize| zones.iter().map(|z| z[sq].count()).collect::<Vec<_>>();
    assert_eq!(count(0), [4, 9, 25]);
    assert_eq!(count(44), [9, 25, 81]);
}

#[test]
fn evaluation_finds_cannon_soldiers_and_threats() {
    // A line of four (all members), a diagonal cannon, a lone soldier and a pair (not members).
    let p = position("Se3 Se4 Se5 Se6 Sa2 Sb3 Sc4 Sg2 Sh2 Sh3 sd7 Tb1 tc10", 'w');
    let names = |bb: super::tables::Bb| -> BTreeSet<String> {
        bb.squares()
            .map(|sq| p.t.geo.square_name(sq, false))
            .collect()
    };
    assert_eq!(
        names(p.cannon_soldiers(Color::White)),
        set(&["e3", "e4", "e5", "e6", "a2", "b3", "c4"])
    );
    // Black's d7 can take e6 (diagonally forward for black); nothing else is in reach.
    assert_eq!(names(p.attacked_by(Color::Black)), set(&["e6"]));
    // White's e6 can take d7; the cannon e4-e5-e6 has no target past the empty e7 (e8, e9).
    assert_eq!(names(p.attacked_by(Color::White)), set(&["d7"]));
}

// ---------------------------------------------------------------------------------------
// A reference generator straight from the rules text, square by square.

mod reference {
    use super::CannonPosition;
    use crate::board::{Color, Square};
    use crate::games::Game;

    #[derive(Clone)]
    pub struct Board {
        /// `[rank][file]`, '.' for empty, FEN letters otherwise.
        cells: [[char; 10]; 10],
        hand: [bool; 2],
        white: bool,
        clear: bool,
    }

    #[derive(Clone, Copy)]
    pub enum Mv {
        Drop(i32, i32),
        Go(i32, i32, i32, i32),
        Shoot(i32, i32),
    }

    fn name(f: i32, r: i32) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    impl Board {
        pub fn from(p: &CannonPosition) -> Board {
            let mut cells = [['.'; 10]; 10];
            for (r, row) in cells.iter_mut().enumerate() {
                for (f, cell) in row.iter_mut().enumerate() {
                    *cell = p.letter_at(Square::new((r * 10 + f) as u8)).unwrap_or('.');
                }
            }
            Board {
                cells,
                hand: [p.town_in_hand(Color::White), p.town_in_hand(Color::Black)],
                white: p.side_to_move() == Color::White,
                clear: p.clear_shot(),
            }
        }

        fn at(&self, f: i32, r: i32) -> Option<char> {
            ((0..10).contains(&f) && (0..10).contains(&r))
                .then(|| self.cells[r as usize][f as usize])
        }
        fn empty(&self, f: i32, r: i32) -> bool {
            self.at(f, r) == Some('.')
        }
        fn mine(&self, c: char) -> bool {
            c != '.' && c.is_ascii_uppercase() == self.white
        }
        fn enemy(&self, f: i32, r: i32) -> bool {
            self.at(f, r).is_some_and(|c| c != '.' && !self.mine(c))
        }
        fn my_soldier(&self, f: i32, r: i32) -> bool {
            self.at(f, r) == Some(if self.white { 'S' } else { 's' })
        }

        pub fn moves(&self) -> Vec<(String, Mv)> {
            let mut out = Vec::new();
            let me = usize::from(!self.white);
            let town = if self.white { 'T' } else { 't' };
            let has_town = self.cells.iter().flatten().any(|&c| c == town);
            if self.hand[me] {
                let home = if self.white { 0 } else { 9 };
                for f in 1..9 {
                    if self.empty(f, home) {
                        out.push((format!("T@{}", name(f, home)), Mv::Drop(f, home)));
                    }
                }
                return out;
            }
            if !has_town {
                return out;
            }
            let fwd = if self.white { 1 } else { -1 };
            for r in 0..10 {
                for f in 0..10 {
                    if !self.my_soldier(f, r) {
                        continue;
                    }
                    let mut go = |tf: i32, tr: i32| {
                        out.push((name(f, r) + &name(tf, tr), Mv::Go(f, r, tf, tr)))
                    };
                    for df in -1..=1 {
                        if self.empty(f + df, r + fwd) {
                            go(f + df, r + fwd);
                        }
                    }
                    for (df, dr) in [(-1, fwd), (0, fwd), (1, fwd), (-1, 0), (1, 0)] {
                        if self.enemy(f + df, r + dr) {
                            go(f + df, r + dr);
                        }
                    }
                    let threatened = (-1..=1)
                        .flat_map(|df| (-1..=1).map(move |dr| (df, dr)))
                        .any(|(df, dr)| self.enemy(f + df, r + dr));
                    if threatened {
                        for df in -1..=1 {
                            if self.empty(f + df, r - fwd) && self.empty(f + 2 * df, r - 2 * fwd) {
                                go(f + 2 * df, r - 2 * fwd);
                            }
                        }
                    }
                    // This soldier as the front of a cannon pointing along (df, dr).
                    for (df, dr) in [
                        (0, 1),
                        (0, -1),
                        (1, 0),
                        (-1, 0),
                        (1, 1),
                        (-1, -1),
                        (1, -1),
                        (-1, 1),
                    ] {
                        if !(self.my_soldier(f - df, r - dr)
                            && self.my_soldier(f - 2 * df, r - 2 * dr))
                        {
                            continue;
                        }
                        if !self.empty(f + df, r + dr) {
                            continue;
                        }
                        let (bf, br) = (f - 2 * df, r - 2 * dr);
                        out.push((
                            name(bf, br) + &name(f + df, r + dr),
                            Mv::Go(bf, br, f + df, r + dr),
                        ));
                        let (sf, sr) = (f + 2 * df, r + 2 * dr);
                        if self.at(sf, sr).is_none() {
                            continue;
                        }
                        if self.enemy(sf, sr) {
                            out.push((name(f, r) + &name(sf, sr), Mv::Shoot(sf, sr)));
                        }
                        let (tf, tr) = (f + 3 * df, r + 3 * dr);
                        if self.enemy(tf, tr) && (!self.clear || self.empty(sf, sr)) {
                            out.push((name(f, r) + &name(tf, tr), Mv::Shoot(tf, tr)));
                        }
                    }
                }
            }
            out
        }

        pub fn play(&mut self, m: Mv) {
            match m {
                Mv::Drop(f, r) => {
                    self.cells[r as usize][f as usize] = if self.white { 'T' } else { 't' };
                    self.hand[usize::from(!self.white)] = false;
                }
                Mv::Go(f, r, tf, tr) => {
                    self.cells[tr as usize][tf as usize] = self.cells[r as usize][f as usize];
                    self.cells[r as usize][f as usize] = '.';
                }
                Mv::Shoot(f, r) => self.cells[r as usize][f as usize] = '.',
            }
            self.white = !self.white;
        }

        pub fn perft(&self, depth: u32) -> u64 {
            let moves = self.moves();
            if depth <= 1 {
                return if depth == 0 { 1 } else { moves.len() as u64 };
            }
            moves
                .iter()
                .map(|&(_, m)| {
                    let mut b = self.clone();
                    b.play(m);
                    b.perft(depth - 1)
                })
                .sum()
        }
    }
}

#[test]
fn reference_generator_agrees_on_perft() {
    let start = crate::engine::registry::new_game::<CannonPosition>("cannon").unwrap();
    let b = reference::Board::from(&start);
    assert_eq!(b.perft(3), 2656);
    assert_eq!(b.perft(4), 111_376);
    // A crowded middle game, both switch settings: both generators give the rules file's
    // counts (docs/rules/cannon.md), the engine's one deeper too.
    for (clear, d3, d4) in [(false, 59_841, 2_284_947), (true, 59_769, 2_280_171)] {
        let mut p = CannonPosition::from_fen(MIDDLE_GAME, clear).unwrap();
        let b = reference::Board::from(&p);
        assert_eq!(b.perft(3), d3, "CannonClearShot={clear}");
        assert_eq!(perft(&mut p, 3), d3, "CannonClearShot={clear}");
        assert_eq!(perft(&mut p, 4), d4, "CannonClearShot={clear}");
    }
}

/// A middle game with soldiers in contact, cannons on several lines and both towns placed.
pub const MIDDLE_GAME: &str =
    "3t6/1s1s3s1s/1s1s1s4/3s1S1s2/2S1s1S3/s2S2S3/S3S1S1S1/S1S3S3/S1S1s5/6T3[] w - - 0 12";

/// The FEN of the position seen from the other side: ranks flipped, colours swapped.
fn mirror_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let (board, hand) = fields[0].split_once('[').unwrap();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let board: Vec<String> = board
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap).collect())
        .collect();
    let hand: String = hand.chars().map(swap).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    format!("{}[{hand} {side} - - 0 1", board.join("/"))
}

/// Plays random games (moves chosen by the given indices) and checks every position on the
/// way: the bitboard generator against the reference, unique strings, keys, FEN round trips,
/// and make/unmake of every legal move.
fn check_random_game(start: &str, picks: &[u16], clear: bool) -> Result<(), TestCaseError> {
    let mut p = CannonPosition::from_fen(start, clear).unwrap();
    let start_fen = p.to_fen();
    let start_key = p.key();
    let mut played = 0;
    for &pick in picks {
        let mut list = CannonMoves::new();
        p.legal_moves(&mut list);
        let ours: BTreeSet<String> = list
            .iter()
            .map(|&m| p.move_to_string(m, Notation::Uci))
            .collect();
        prop_assert_eq!(
            ours.len(),
            list.len(),
            "duplicate strings in {}",
            p.to_fen()
        );
        let reference: BTreeSet<String> = reference::Board::from(&p)
            .moves()
            .into_iter()
            .map(|(s, _)| s)
            .collect();
        prop_assert_eq!(&ours, &reference, "move sets differ in {}", p.to_fen());

        let mut tactical = CannonMoves::new();
        p.tactical_moves(&mut tactical);
        let expected: Vec<_> = list.iter().copied().filter(|&m| p.is_tactical(m)).collect();
        prop_assert_eq!(tactical.to_vec(), expected);

        let fen = p.to_fen();
        let key = p.key();
        prop_assert_eq!(key, p.compute_key());
        let reread = p.with_fen(&fen).unwrap();
        prop_assert_eq!(reread.to_fen(), fen.clone());
        prop_assert_eq!(reread.key(), key);
        // The mirror image (ranks flipped, colours swapped) has as many moves and the same
        // evaluation for the side to move.
        if let Ok(mirror) = p.with_fen(&mirror_fen(&fen)) {
            let mut mirror_moves = CannonMoves::new();
            mirror.legal_moves(&mut mirror_moves);
            prop_assert_eq!(mirror_moves.len(), list.len());
            prop_assert_eq!(mirror.evaluate(), p.evaluate(), "mirror of {}", fen);
        } else {
            // Only the placement phase has no mirror (white always places first).
            prop_assert!(p.town_in_hand(Color::White) || p.town_in_hand(Color::Black));
        }
        for &m in &list {
            for notation in [Notation::Uci, Notation::XBoard] {
                prop_assert_eq!(
                    p.parse_move(&p.move_to_string(m, notation), notation),
                    Some(m)
                );
            }
            p.make_move(m);
            prop_assert_eq!(p.key(), p.compute_key(), "key after {:?}", m);
            p.unmake_move();
            prop_assert_eq!(p.to_fen(), fen.clone());
            prop_assert_eq!(p.key(), key);
        }
        if list.is_empty() || p.rule_outcome().is_some() {
            break;
        }
        p.make_move(list[pick as usize % list.len()]);
        played += 1;
    }
    for _ in 0..played {
        p.unmake_move();
    }
    prop_assert_eq!(p.to_fen(), start_fen);
    prop_assert_eq!(p.key(), start_key);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_games_from_the_start(picks in prop::collection::vec(any::<u16>(), 0..90),
                                   clear in any::<bool>()) {
        check_random_game(start_fen(), &picks, clear)?;
    }

    #[test]
    fn random_games_from_a_middle_game(picks in prop::collection::vec(any::<u16>(), 0..40),
                                       clear in any::<bool>()) {
        check_random_game(MIDDLE_GAME, &picks, clear)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Bad input is an error, never a panic: random text, and random edits of a good FEN.
    #[test]
    fn any_fen_or_move_text_is_refused_or_read_without_panic(
        text in "\\PC{0,80}",
        cut in 0usize..120,
        insert in "[0-9a-zT\\[\\]/ @,-]{0,4}",
    ) {
        let _ = CannonPosition::from_fen(&text, false);
        let mut edited: String = MIDDLE_GAME.chars().take(cut).collect();
        edited += &insert;
        edited.extend(MIDDLE_GAME.chars().skip(cut + 1));
        if let Ok(p) = CannonPosition::from_fen(&edited, false) {
            prop_assert_eq!(p.with_fen(&p.to_fen()).unwrap().to_fen(), p.to_fen());
        }
        let p = CannonPosition::from_fen(MIDDLE_GAME, false).unwrap();
        for notation in [Notation::Uci, Notation::XBoard] {
            let _ = p.parse_move(&text, notation);
            let _ = p.parse_move(&insert, notation);
        }
    }
}

#[test]
fn pgn_moves_use_xboards_square_names_and_long_form() {
    // XBoard numbers the ten ranks from 0: the rules' e5 is its e4. A step, a capture by
    // moving, a shot (there and back) and a town placement.
    let p = position("Se3 Se4 Se5 se6 sd9 sd8 sd7 Tb1 ti10", 'w');
    let pgn = |uci: &str| {
        let m = p.parse_move(uci, Notation::Uci).unwrap();
        p.move_to_pgn(m)
    };
    assert_eq!(pgn("e5f6"), "Se4f5");
    assert_eq!(pgn("e5e6"), "Se4xe5");
    let b = position("sb7 sb8 sb9 sf9 sg9 sh9 Sb4 Sj9 Sd9 Te1 tc10", 'b');
    let shot = b.parse_move("b7b4", Notation::Uci).unwrap();
    assert_eq!(shot.kind(), MoveKind::Shot);
    assert_eq!(b.move_to_pgn(shot), "Sb6xb3-b6");
    let start = CannonPosition::from_fen(start_fen(), false).unwrap();
    let drop = start.parse_move("T@b1", Notation::Uci).unwrap();
    assert_eq!(start.move_to_pgn(drop), "T@b0");
}
