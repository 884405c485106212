//! The tournament shift rule (`CannonShiftLimit`), by hand-built games and by perft against a
//! count written separately: the switch-off generator with the rule applied on top, tracking
//! each side's cannon as a set of squares read off the board.

use super::*;
use crate::board::Square;
use crate::games::cannon::tests::fen_of;
use crate::games::cannon::CANNON_OPTIONS;
use crate::games::perft::perft;
use crate::games::{Game, Notation};
use std::collections::BTreeSet;

/// Both towns placed. White: a cannon on a2-a4, another on g2-g4, a lone soldier on c2 (to
/// step) and one on e5 next to black's f6 (to capture or retreat). Black: a cannon on j7-j9,
/// a soldier on h9 (to step), targets for white's cannons on a9 and g6.
const BASE: &str = "Tb1 Sa2 Sa3 Sa4 Sg2 Sg3 Sg4 Sc2 Se5 te10 sa9 sf6 sg6 sh9 sj7 sj8 sj9";

/// White's cannon shifted three times (a2-a4 to a5-a7); black only stepped.
const THREE_SHIFTS: &[&str] = &["a2a5", "h9h8", "a3a6", "h8h7", "a4a7", "h7h6"];

/// The two shifts of white's cannon on a5-a7: up past a7, down past a5.
const FOURTH: [&str; 2] = ["a5a8", "a7a4"];

fn base(limit: bool) -> CannonPosition {
    let mut p = CannonPosition::from_fen(&fen_of(BASE, 'w'), false).unwrap();
    p.set_rule_option("CannonShiftLimit", limit).unwrap();
    p
}

fn play(p: &mut CannonPosition, moves: &[&str]) {
    for s in moves {
        let m = p
            .parse_move(s, Notation::Uci)
            .unwrap_or_else(|| panic!("{s} is not legal in {}", p.to_fen()));
        p.make_move(m);
        assert_eq!(p.key(), p.compute_key(), "after {s}");
    }
}

fn legal(p: &CannonPosition, s: &str) -> bool {
    p.parse_move(s, Notation::Uci).is_some()
}

#[test]
fn the_switch_is_offered_like_the_clear_shot_switch() {
    assert_eq!(CANNON_OPTIONS[1].name, "CannonShiftLimit");
    assert!(!CANNON_OPTIONS[1].default);
    let mut p = base(false);
    assert!(!p.shift_limit());
    p.set_rule_option("cannonshiftlimit", true).unwrap();
    assert!(p.shift_limit());
    let fen = p.to_fen();
    assert!(p.with_fen(&fen).unwrap().shift_limit(), "kept by new FENs");
}

#[test]
fn a_fourth_shift_in_a_row_is_refused_with_the_switch_on_only() {
    for limit in [false, true] {
        let mut p = base(limit);
        play(&mut p, THREE_SHIFTS);
        assert_eq!(p.shifts_in_a_row(Color::White), if limit { 3 } else { 0 });
        for s in FOURTH {
            assert_eq!(legal(&p, s), !limit, "{s}, switch {limit}");
        }
        // The cannon's shot and every other move stay.
        assert!(legal(&p, "a7a9") && legal(&p, "g2g5") && legal(&p, "c2c3"));
        let mut off = p.clone();
        off.set_rule_option("CannonShiftLimit", false).unwrap();
        let count = |q: &CannonPosition| {
            let mut l = CannonMoves::new();
            q.legal_moves(&mut l);
            l.len()
        };
        assert_eq!(count(&p) + if limit { 2 } else { 0 }, count(&off));
        assert_eq!(off.key(), off.compute_key());
    }
    // Three shifts are allowed: after two, the third is legal.
    let mut p = base(true);
    play(&mut p, &THREE_SHIFTS[..4]);
    assert_eq!(p.shifts_in_a_row(Color::White), 2);
    assert!(legal(&p, "a4a7") && legal(&p, "a6a3"));
}

#[test]
fn a_shift_back_is_the_same_cannon() {
    // Up, down, up: three shifts of one cannon "regardless of the direction".
    let mut p = base(true);
    play(&mut p, &["a2a5", "h9h8", "a5a2", "h8h7", "a2a5", "h7h6"]);
    assert_eq!(p.shifts_in_a_row(Color::White), 3);
    assert!(!legal(&p, "a5a2") && !legal(&p, "a3a6"));
}

#[test]
fn the_count_starts_again_after_any_other_move_of_the_side() {
    // (the resetting move, then black's reply)
    let resets: &[(&str, &[&str])] = &[
        ("a soldier's step", &["c2c3", "j9j6"]),
        ("a capture", &["e5f6", "j9j6"]),
        ("a retreat", &["e5e3", "j9j6"]),
        ("a shift of another cannon", &["g2g5", "j9j6"]),
        ("a shot by another cannon", &["g4g6", "j9j6"]),
    ];
    for (what, moves) in resets {
        let mut p = base(true);
        play(&mut p, THREE_SHIFTS);
        play(&mut p, moves);
        let expected = usize::from(*what == "a shift of another cannon");
        assert_eq!(p.shifts_in_a_row(Color::White), expected, "{what}");
        for s in FOURTH {
            assert!(legal(&p, s), "{s} after {what}");
        }
        // ...and the cannon has three shifts again.
        play(&mut p, &["a5a8", "j8j5"]);
        assert_eq!(p.shifts_in_a_row(Color::White), 1, "{what}");
    }
    // A town placement is a side's first move, before any shift: the count is 0 then anyway.
}

#[test]
fn a_shot_by_the_same_cannon_keeps_the_count() {
    let mut p = base(true);
    play(&mut p, THREE_SHIFTS);
    play(&mut p, &["a7a9", "j9j6"]);
    assert_eq!(p.shifts_in_a_row(Color::White), 3);
    for s in FOURTH {
        assert!(!legal(&p, s), "{s} after the cannon's own shot");
    }
    // In the middle of a run too: shift, shot, shift, shift makes three.
    let mut p = base(true);
    play(&mut p, &["a2a5", "h9h8", "a3a6", "h8h7", "a6a9", "h7h6"]);
    assert_eq!(p.shifts_in_a_row(Color::White), 2);
    play(&mut p, &["a4a7", "j9j6"]);
    assert!(!legal(&p, "a5a8"));
}

#[test]
fn the_other_side_keeps_its_own_count() {
    let mut p = base(true);
    play(&mut p, &["a2a5", "j9j6", "a3a6", "j8j5", "a4a7", "j7j4"]);
    assert_eq!(p.shifts_in_a_row(Color::White), 3);
    assert_eq!(p.shifts_in_a_row(Color::Black), 3);
    play(&mut p, &["c2c3"]);
    assert_eq!(
        p.shifts_in_a_row(Color::Black),
        3,
        "white's move leaves black's run"
    );
    assert!(!legal(&p, "j4j7") && !legal(&p, "j6j3"));
    // Unmake gives each side's run back.
    p.unmake_move();
    assert_eq!(p.shifts_in_a_row(Color::White), 3);
    p.unmake_move();
    assert_eq!(p.shifts_in_a_row(Color::Black), 2);
    assert_eq!(p.key(), p.compute_key());
}

#[test]
fn the_count_is_in_the_key_and_not_in_the_fen() {
    // Up and down again with both sides: the board of the start, with runs of two.
    let mut p = base(true);
    let start = p.clone();
    play(&mut p, &["a2a5", "j9j6", "a5a2", "j6j9"]);
    assert_eq!(
        p.to_fen().split(' ').next(),
        start.to_fen().split(' ').next()
    );
    assert_ne!(p.key(), start.key(), "runs of two are another position");
    let reread = p.with_fen(&p.to_fen()).unwrap();
    assert_eq!(
        reread.shifts_in_a_row(Color::White),
        0,
        "a FEN starts every count at 0"
    );
    assert_eq!(reread.key(), start.key());
    // Without the switch the same moves give the start's key back.
    let mut off = base(false);
    play(&mut off, &["a2a5", "j9j6", "a5a2", "j6j9"]);
    assert_eq!(off.key(), start.key());

    // Positions differing only in a run, built directly: every count and cannon its own key.
    let mut keys = BTreeSet::new();
    let plain = base(true);
    keys.insert(plain.key());
    for c in Color::BOTH {
        for cannon in [0, 1, 57, CANNON_IDS - 1] {
            for count in 1..=MAX_SHIFTS {
                let mut q = plain.clone();
                q.runs[c.index()] = ShiftRun::new(count, cannon);
                q.key = q.compute_key();
                assert!(keys.insert(q.key), "{c:?} {cannon} {count}: a key twice");
                // Turning the switch off ends the run, key included.
                q.set_rule_option("CannonShiftLimit", false).unwrap();
                assert_eq!((q.key, q.compute_key()), (plain.key(), plain.key()));
            }
        }
    }
}

#[test]
fn a_board_that_comes_back_with_other_counts_is_no_repetition() {
    let cycle = ["a2a5", "j9j6", "a5a2", "j6j9"];
    let mut on = base(true);
    play(&mut on, &cycle);
    assert_eq!(
        on.repetitions(usize::MAX),
        0,
        "runs of two: not the start position"
    );
    let mut off = base(false);
    play(&mut off, &cycle);
    assert_eq!(off.repetitions(usize::MAX), 1);
}

/// One side's run as the reference sees it: the cannon's squares and the count.
type Run = Option<(BTreeSet<(i32, i32)>, usize)>;

fn coords(sq: Square) -> (i32, i32) {
    ((sq.index() % 10) as i32, (sq.index() / 10) as i32)
}

/// Counts the leaves of the tree under the rule with the switch-off position `p`: its legal
/// moves, less the shifts the rule forbids, with each side's run followed square by square.
fn reference_perft(p: &mut CannonPosition, runs: &mut [Run; 2], depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let us = p.side_to_move();
    let mut list = CannonMoves::new();
    p.legal_moves(&mut list);
    let mut total = 0;
    for &m in list.iter() {
        let (f, t) = (coords(m.from()), coords(m.to()));
        let (df, dr) = (t.0 - f.0, t.1 - f.1);
        let dist = df.abs().max(dr.abs());
        let unit = (df.signum(), dr.signum());
        let at = |k: i32, from: (i32, i32), u: (i32, i32)| (from.0 + k * u.0, from.1 + k * u.1);
        let run = &runs[us.index()];
        let same = |set: &BTreeSet<(i32, i32)>| run.as_ref().is_some_and(|(s, _)| s == set);
        let new: Run = match m.kind() {
            MoveKind::Shot => {
                // The front soldier and the two behind it, away from the victim.
                let back = (-unit.0, -unit.1);
                let cannon: BTreeSet<_> = (0..3).map(|k| at(k, f, back)).collect();
                if same(&cannon) {
                    run.clone()
                } else {
                    None
                }
            }
            MoveKind::Normal if dist == 3 => {
                let before: BTreeSet<_> = (0..3).map(|k| at(k, f, unit)).collect();
                for &(x, y) in &before {
                    let letter = p.letter_at(Square::new((y * 10 + x) as u8));
                    assert_eq!(
                        letter.map(|l| l.is_ascii_uppercase()),
                        Some(us == Color::White)
                    );
                }
                let after: BTreeSet<_> = (1..4).map(|k| at(k, f, unit)).collect();
                match run {
                    Some((_, 3)) if same(&before) => continue, // the fourth: forbidden
                    Some((_, n)) if same(&before) => Some((after, n + 1)),
                    _ => Some((after, 1)),
                }
            }
            _ => None,
        };
        let old = std::mem::replace(&mut runs[us.index()], new);
        p.make_move(m);
        total += reference_perft(p, runs, depth - 1);
        p.unmake_move();
        runs[us.index()] = old;
    }
    total
}

#[test]
fn perft_with_the_switch_matches_a_count_written_from_the_rule() {
    // Both sides have shifted one cannon twice: the rule bites from the third ply on.
    let opening = ["a2a5", "j9j6", "a3a6", "j8j5"];
    let mut on = base(true);
    play(&mut on, &opening);
    let mut off = base(false);
    play(&mut off, &opening);
    let two = |cells: &[(i32, i32)]| Some((cells.iter().copied().collect(), 2));
    let mut runs: [Run; 2] = [
        two(&[(0, 3), (0, 4), (0, 5)]), // a4 a5 a6
        two(&[(9, 4), (9, 5), (9, 6)]), // j5 j6 j7
    ];
    // docs/rules/cannon.md's table.
    let counts = [(25, 25), (497, 497), (11774, 11853), (223692, 227622)];
    for (depth, (with, without)) in (1..=4).zip(counts) {
        let expected = reference_perft(&mut off.clone(), &mut runs, depth);
        assert_eq!(perft(&mut on.clone(), depth), expected, "depth {depth}");
        assert_eq!((expected, perft(&mut off.clone(), depth)), (with, without));
    }
    // And from a position where the next shift is already the fourth.
    let mut on = base(true);
    play(&mut on, THREE_SHIFTS);
    let mut off = base(false);
    play(&mut off, THREE_SHIFTS);
    let mut runs: [Run; 2] = [
        Some(([(0, 4), (0, 5), (0, 6)].into_iter().collect(), 3)), // a5 a6 a7
        None,
    ];
    let counts = [(23, 25), (505, 549), (12098, 13202)];
    for (depth, (with, without)) in (1..=3).zip(counts) {
        let expected = reference_perft(&mut off.clone(), &mut runs, depth);
        assert_eq!(perft(&mut on.clone(), depth), expected, "depth {depth}");
        assert_eq!((expected, perft(&mut off.clone(), depth)), (with, without));
    }
}
