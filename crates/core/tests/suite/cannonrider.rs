//! Gustavian Cannonrider Chess (rules: /work/shared/rules/cannonrider.md). Every expected
//! value below is counted by hand from the diagram in the comment, not taken from the engine.

use crate::chess_family_support::*;
use cannonade_core::games::chess::{CannonriderChess, GustavianChess};
use cannonade_core::games::Game;

fn cannonrider(fen: &str) -> CannonriderChess {
    cannonade_core::engine::registry::new_game::<CannonriderChess>("cannonrider")
        .unwrap()
        .with_fen(fen)
        .unwrap()
}

fn scorpion(fen: &str) -> CannonriderChess {
    cannonade_core::engine::registry::new_game::<CannonriderChess>("cannonriderscorpion")
        .unwrap()
        .with_fen(fen)
        .unwrap()
}

fn strings(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

const GUSTAV3: &str = "1rnbqkbnr1/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/1RNBQKBNR1 w KQkq - 0 1";

#[test]
fn gustav3_reference_numbers_on_both_move_generators() {
    // The orthodox pin-mask generator and the test-each-move generator of the cannon variants
    // must both reproduce Fairy-Stockfish's gustav3 counts.
    let mut fast =
        GustavianChess::new_game(&cannonade_core::games::chess::GUSTAVIAN_CHESS).unwrap();
    let mut tested = cannonrider(GUSTAV3);
    for (depth, nodes) in [(1, 22), (2, 484), (3, 11684), (4, 281129)] {
        assert_eq!(perft(&mut fast, depth), nodes, "orthodox, depth {depth}");
        assert_eq!(perft(&mut tested, depth), nodes, "tested, depth {depth}");
    }
}

#[test]
fn start_position_moves() {
    // 16 pawn moves, Na1-b3, Nj1-i3; the d1 Cannonrider (dark: a cannon) hops its own d2 pawn
    // and takes d7; the g1 Cannonrider (light: a nightrider) goes f3, e5, d7 (capture), h3, i5.
    let mut pos =
        cannonade_core::engine::registry::new_game::<CannonriderChess>("cannonrider").unwrap();
    assert_eq!(moves_from(&pos, "d1"), strings(&["d1d7"]));
    assert_eq!(
        moves_from(&pos, "g1"),
        strings(&["g1f3", "g1e5", "g1d7", "g1h3", "g1i5"])
    );
    assert_eq!(perft(&mut pos, 1), 24);
    // With Scorpions, each also leaps (+-2,+1) onto the third rank where that square exists:
    // b2-d3, c2-e3 (a3 is a hole), d..g two each, h2-f3 (j3 is a hole), i2-g3: 12 more.
    let mut pos =
        cannonade_core::engine::registry::new_game::<CannonriderChess>("cannonriderscorpion")
            .unwrap();
    assert_eq!(moves_from(&pos, "c2"), strings(&["c2c3", "c2c4", "c2e3"]));
    assert_eq!(perft(&mut pos, 1), 36);
}

#[test]
fn cannonrider_on_a_dark_square_is_a_cannon() {
    //  8  . . . . r . . . k .     e4 is dark (4 + 3 odd): a cannon.
    //  6  * . . . P . . . . *     north: slides e5, hops the e6 pawn, takes the e8 rook
    //  4  * b p . C . n . . *     west: d4, hops c4, takes b4; east: f4 only (g4 has no
    //  1  . K . . . . . . . .     screen, and after it nothing before the hole on j4)
    let pos = cannonrider("4r3k1/*8*/*3P4*/*8*/*bp1C1n2*/*8*/*8*/1K8 w - - 0 1");
    assert_eq!(
        moves_from(&pos, "e4"),
        strings(&["e4e5", "e4e8", "e4d4", "e4b4", "e4f4", "e4e3", "e4e2", "e4e1"])
    );
    // The same cannon checks a king behind one screen, and not behind none or two.
    let check = "4k5/*8*/*3P4*/*8*/*bp1C1n2*/*8*/*8*/1K8 b - - 0 1";
    assert!(cannonrider(check).in_check());
    let no_screen = "4k5/*8*/*8*/*8*/*bp1C1n2*/*8*/*8*/1K8 b - - 0 1";
    assert!(!cannonrider(no_screen).in_check());
    let two_screens = "4k5/*8*/*3P4*/*3P4*/*bp1C1n2*/*8*/*8*/1K8 b - - 0 1";
    assert!(!cannonrider(two_screens).in_check());
    // A dark-square Cannonrider a knight's leap from the king does not check: f5 is dark.
    let leap = "10/*5k2*/*8*/*4C3*/*8*/*8*/*8*/1K8 b - - 0 1";
    assert!(!cannonrider(leap).in_check());
}

#[test]
fn cannonrider_on_a_light_square_is_a_nightrider() {
    //  8  . . . . . . . . . k     e5 is light (4 + 4 even): a nightrider.
    //  6  * . . . . . n . . *     g6 (enemy) is taken and stops that line before i7;
    //  5  * . . . C . . . . *     the own d3 pawn stops the line to c1; the lines to c6 and
    //  3  * . . P . . . . . *     c4 end at the holes a7 and a3.
    //  1  . K . . . . . . . .
    let pos = cannonrider("9k/*8*/*5n2*/*3C4*/*8*/*2P5*/*8*/1K8 w - - 0 1");
    assert_eq!(
        moves_from(&pos, "e5"),
        strings(&["e5f7", "e5d7", "e5c6", "e5g6", "e5f3", "e5g1", "e5g4", "e5i3", "e5c4"])
    );
    // It checks at a distance along an open line, not through a piece.
    let check = "10/*7k*/*8*/*3C4*/*8*/*2P5*/*8*/1K8 b - - 0 1";
    assert!(cannonrider(check).in_check());
    let blocked = "10/*7k*/*5p2*/*3C4*/*8*/*2P5*/*8*/1K8 b - - 0 1";
    assert!(!cannonrider(blocked).in_check());
    // A light-square Cannonrider does not check like a cannon: e5 with a screen on e6.
    let hop = "4k5/*8*/*3p4*/*3C4*/*8*/*8*/*8*/1K8 b - - 0 1";
    assert!(!cannonrider(hop).in_check());
}

#[test]
fn nightrider_lines_reach_extra_squares_and_end_at_holes() {
    // e3 is light: the (-2,-1) line goes c2, a1 (an extra square); the (-2,+1) line goes c4 and
    // ends at the hole a5; the (+2,+1) line goes g4, i5 and ends at k6 (off the board).
    let pos = cannonrider("4k5/*8*/*8*/*8*/*8*/*3C4*/*8*/5K4 w - - 0 1");
    let moves = moves_from(&pos, "e3");
    for m in [
        "e3c2", "e3a1", "e3c4", "e3g4", "e3i5", "e3d5", "e3c7", "e3f5", "e3g7",
    ] {
        assert!(moves.contains(&m.to_string()), "{m} in {moves:?}");
    }
    assert!(!moves.iter().any(|m| m.starts_with("e3a") && m != "e3a1"));
}

#[test]
fn a_hole_is_never_a_screen() {
    // a8 is dark (0 + 7): a cannon whose file is all holes down to a1. It cannot hop the holes
    // to take the knight on a1; along rank 8 it hops b8 and takes c8.
    let pos = cannonrider("Cnr1k5/*8*/*8*/*8*/*8*/*8*/*8*/n4K4 w - - 0 1");
    assert_eq!(moves_from(&pos, "a8"), strings(&["a8c8"]));
    // A screen right next to a hole: the d5 cannon (dark) hops b5 toward the hole a5 and finds
    // nothing; it only slides to c5 that way.
    let pos = cannonrider("4k5/*8*/*8*/*b1C5*/*8*/*8*/*8*/6K3 w - - 0 1");
    let moves = moves_from(&pos, "d5");
    assert!(moves.contains(&"d5c5".to_string()));
    assert!(!moves.contains(&"d5b5".to_string()));
}

#[test]
fn checks_through_screens_are_discovered_and_pins_hold() {
    // White cannon d1 (dark), knight d3, bishop d5; black king d8. Two screens: no check.
    let fen = "3k6/*8*/*8*/*2B5*/*8*/*2N5*/*8*/3C1K4 w - - 0 1";
    let mut pos = cannonrider(fen);
    assert!(!pos.in_check());
    // The knight leaves: one screen left, a discovered check.
    play(&mut pos, "d3f4");
    assert!(pos.in_check());
    // A piece stepping into an open line makes a screen: check.
    let mut pos = cannonrider("3k6/*8*/*8*/*8*/*8*/*8*/*5R2*/3C1K4 w - - 0 1");
    assert!(!pos.in_check());
    play(&mut pos, "g2d2");
    assert!(pos.in_check());
    // Black bishop d5 with a white knight on d3: if the bishop leaves the file, the knight is
    // the one screen between the cannon and the king, so the bishop cannot move at all.
    let pos = cannonrider("3k6/*8*/*8*/*2b5*/*8*/*2N5*/*8*/3C1K4 b - - 0 1");
    assert!(moves_from(&pos, "d5").is_empty());
    // A light Cannonrider pins along a nightrider line: c3 (light) -> d5 -> e7 (king). The
    // pinned knight may only take the pinner.
    let pos = cannonrider("10/*3k4*/*8*/*2n5*/*8*/*1C6*/*8*/5K4 b - - 0 1");
    assert_eq!(moves_from(&pos, "d5"), strings(&["d5c3"]));
}

#[test]
fn promotions_on_every_last_rank_square() {
    // b7 pawn takes the rook on the extra square a8 or pushes to b8: five pieces each.
    let pos = cannonrider("r3k5/*P7*/*8*/*8*/*8*/*8*/*8*/5K4 w - - 0 1");
    let promos = ["q", "c", "r", "b", "n"];
    let mut expected: Vec<String> = promos.iter().map(|p| format!("b7a8{p}")).collect();
    expected.extend(promos.iter().map(|p| format!("b7b8{p}")));
    expected.sort();
    assert_eq!(moves_from(&pos, "b7"), expected);
}

#[test]
fn scorpion_leaps_promote_and_neither_capture_nor_attack() {
    // White Scorpion e7; e8 is blocked; black knight on g8. The leap to c8 promotes (five
    // pieces), the leap to g8 does not exist (a leap never captures); the diagonal capture on
    // f8 promotes, d8 is empty (no capture).
    let mut pos = scorpion("4bnn2k/*3S4*/*8*/*8*/*8*/*8*/*8*/1K8 w - - 0 1");
    let promos = ["q", "c", "r", "b", "n"];
    let mut expected: Vec<String> = promos.iter().map(|p| format!("e7c8{p}")).collect();
    expected.extend(promos.iter().map(|p| format!("e7f8{p}")));
    expected.sort();
    assert_eq!(moves_from(&pos, "e7"), expected);
    // Unmaking a promotion puts a Scorpion back, not a pawn.
    let fen = pos.to_fen();
    play(&mut pos, "e7c8c");
    assert!(pos.to_fen().starts_with("2C1bnn2k/*8*"));
    pos.unmake_move();
    assert_eq!(pos.to_fen(), fen);
    // A Scorpion's leap squares are not attacked: the black king on g3 is not in check from
    // the e2 Scorpion; f3 is attacked (a pawn capture), f2 is not.
    let pos = scorpion("10/*8*/*8*/*8*/*8*/*5k2*/*3S4*/1K8 b - - 0 1");
    assert!(!pos.in_check());
    let king = moves_from(&pos, "g3");
    assert!(!king.contains(&"g3f3".to_string()));
    assert!(king.contains(&"g3f2".to_string()));
}

#[test]
fn scorpion_leap_is_not_a_double_step_and_scorpions_take_en_passant() {
    // After the leap e2-g3 no en-passant square is set, though a black Scorpion stands on h3
    // (a leap gains one rank only; it passes no square).
    let mut pos = scorpion("4k5/*8*/*8*/*8*/*8*/*6s1*/*3S4*/1K8 w - - 0 1");
    play(&mut pos, "e2g3");
    assert!(pos.to_fen().contains(" b - - "));
    // A Scorpion's double step can be taken en passant by a Scorpion.
    let mut pos = scorpion("4k5/*8*/*8*/*8*/*4s3*/*8*/*3S4*/1K8 w - - 0 1");
    play(&mut pos, "e2e4");
    assert!(pos.to_fen().contains(" b - e3 "));
    assert!(moves_from(&pos, "f4").contains(&"f4e3".to_string()));
    play(&mut pos, "f4e3");
    assert!(pos.to_fen().starts_with("4k5/*8*/*8*/*8*/*8*/*3s4*/*8*/"));
}

#[test]
fn castling_both_ways_and_its_conditions() {
    let fen = "nr2k3rn/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/NR2K3RN w KQkq - 0 1";
    let mut pos = cannonrider(fen);
    let king = moves_from(&pos, "e1");
    assert!(king.contains(&"e1g1".to_string()) && king.contains(&"e1c1".to_string()));
    play(&mut pos, "e1g1");
    assert!(pos
        .to_fen()
        .starts_with("nr2k3rn/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/NR3RK2N b kq"));
    play(&mut pos, "e8c8");
    assert!(pos.to_fen().starts_with("n1kr4rn/"));
    assert!(pos.to_fen().contains(" w - "));

    // A piece between king and rook stops that castling only.
    let pos = cannonrider("nr2k3rn/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/NRB1K3RN w KQkq - 0 1");
    let king = moves_from(&pos, "e1");
    assert!(king.contains(&"e1g1".to_string()) && !king.contains(&"e1c1".to_string()));

    // A black cannon on f7 (dark) hops the f2 pawn and attacks f1, the square the king passes.
    let pos = cannonrider("nr2k3rn/*ppppcppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/NR2K3RN w KQkq - 0 1");
    let king = moves_from(&pos, "e1");
    assert!(!king.contains(&"e1g1".to_string()) && king.contains(&"e1c1".to_string()));

    // A black cannon on g8 (dark, g7 open) hops the g2 pawn and attacks g1, where the king
    // would land.
    let pos = cannonrider("nr2k1c1rn/*ppppp1pp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/NR2K3RN w KQkq - 0 1");
    let king = moves_from(&pos, "e1");
    assert!(!king.contains(&"e1g1".to_string()) && king.contains(&"e1c1".to_string()));

    // In check from a rook on the open e-file: no castling at all.
    let pos = cannonrider("nr2k3rn/*ppprpppp*/*8*/*8*/*8*/*8*/*PPP1PPPP*/NR2K3RN w KQkq - 0 1");
    assert!(pos.in_check());
    let king = moves_from(&pos, "e1");
    assert!(!king.contains(&"e1g1".to_string()) && !king.contains(&"e1c1".to_string()));

    // A rook that moved loses its right; the other right stays.
    let mut pos = cannonrider(fen);
    play(&mut pos, "i1h1 b8c8 h1i1 c8b8");
    let king = moves_from(&pos, "e1");
    assert!(!king.contains(&"e1g1".to_string()) && king.contains(&"e1c1".to_string()));
}

#[test]
fn start_perft_agrees_with_the_naive_generator_at_every_node() {
    // The deeper start numbers have no outside reference; these are backed node by node by the
    // naive square-walking generator (which counts d1 = 24 and 36 as the hand count does).
    let mut pos =
        cannonade_core::engine::registry::new_game::<CannonriderChess>("cannonrider").unwrap();
    assert_eq!(perft_checked_by_naive(&mut pos, 3), 391652);
    let mut pos =
        cannonade_core::engine::registry::new_game::<CannonriderChess>("cannonriderscorpion")
            .unwrap();
    assert_eq!(perft_checked_by_naive(&mut pos, 2), 48050);
}

#[test]
fn random_games_agree_with_a_naive_attack_test() {
    let pos =
        cannonade_core::engine::registry::new_game::<CannonriderChess>("cannonrider").unwrap();
    random_playouts(&pos, 12, 120);
    let pos = cannonade_core::engine::registry::new_game::<CannonriderChess>("cannonriderscorpion")
        .unwrap();
    random_playouts(&pos, 12, 120);
}
