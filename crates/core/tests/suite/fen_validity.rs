//! "Which positions are valid" (docs/rules/): every condition of each game's section, one FEN
//! that breaks only that condition, refused by the game's FEN reader with a message that names
//! the condition; and the positions just inside each condition accepted. Chess, Cannon Shogi
//! and Cannon have no such section: their readers' refusals are tested with the games
//! (crates/core/tests/suite/chess_rules.rs, crates/core/tests/suite/cannonshogi.rs, crates/core/src/games/cannon/tests.rs), and here only the
//! conditions every game with kings shares.

use cannonade_core::engine::registry;
use cannonade_core::games::Notation;

/// The error `variant`'s reader gives for `fen`, or `None` when it accepts it.
fn read(variant: &str, fen: &str) -> Option<String> {
    let mut s = registry::find(variant)
        .unwrap_or_else(|| panic!("variant {variant}"))
        .new_session();
    s.set_position(Some(fen), &[], Notation::Uci)
        .err()
        .map(|e| e.to_string())
}

/// `fen` is refused in `variant` with a message containing `says`.
fn refused(variant: &str, fen: &str, says: &str) {
    match read(variant, fen) {
        None => panic!("{variant}: accepted {fen}, which breaks '{says}'"),
        Some(e) => assert!(
            e.contains(says),
            "{variant}: {fen}: '{e}' does not say '{says}'"
        ),
    }
}

fn accepted(variant: &str, fen: &str) {
    if let Some(e) = read(variant, fen) {
        panic!("{variant}: refused {fen}: {e}");
    }
}

// ---- Swedish Cannon Chess ------------------------------------------------------------------

#[test]
fn swedish_cannon_positions() {
    for v in ["swedishcannon", "swedishcannon1"] {
        // Exactly one king each.
        refused(v, "4k3/8/8/8/8/8/8/8[] w - - 0 1", "White has 0 kings");
        refused(v, "4k3/8/8/8/8/8/8/3KK3[] w - - 0 1", "White has 2 kings");
        refused(v, "3kk3/8/8/8/8/8/8/4K3[] w - - 0 1", "Black has 2 kings");
        // Only K Q R B N P C, on the board and (cannons only) in reserve.
        refused(
            v,
            "4k3/8/8/8/8/8/8/3SK3[] w - - 0 1",
            "unknown piece letter 'S'",
        );
        refused(v, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", "only cannons");
        // No pawn on the first or last rank, either colour.
        refused(v, "4k2P/8/8/8/8/8/8/4K3[] w - - 0 1", "first or last rank");
        refused(v, "4k3/8/8/8/8/8/8/p3K3[] w - - 0 1", "first or last rank");
        // The side not to move is not in check: by a rook, and by a cannon over a screen.
        refused(
            v,
            "4k2R/8/8/8/8/8/8/4K3[] w - - 0 1",
            "not to move is in check",
        );
        refused(
            v,
            "4k3/8/8/8/4P3/8/8/2K1C3[] w - - 0 1",
            "not to move is in check",
        );
        // A cannon without a screen gives no check: accepted.
        accepted(v, "4k3/8/8/8/8/8/8/2K1C3[] w - - 0 1");
        // No bracket: empty reserves.
        accepted(
            v,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        );
    }
    // Cannons per side, board and reserve together: two, and one.
    accepted(
        "swedishcannon",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[CCcc] w KQkq - 0 1",
    );
    accepted(
        "swedishcannon",
        "rnbqkbnr/pppppppp/2c5/8/8/2C2C2/PPPPPPPP/RNBQKBNR[c] w KQkq - 0 1",
    );
    refused(
        "swedishcannon",
        "rnbqkbnr/pppppppp/8/8/8/2C5/PPPPPPPP/RNBQKBNR[CCcc] w KQkq - 0 1",
        "White has 3 cannons (board and reserve together), swedishcannon allows at most 2",
    );
    refused(
        "swedishcannon",
        "rnbqkbnr/pppppppp/2c2c2/8/8/8/PPPPPPPP/RNBQKBNR[CCc] w KQkq - 0 1",
        "Black has 3 cannons",
    );
    accepted(
        "swedishcannon1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1",
    );
    refused(
        "swedishcannon1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[CCc] w KQkq - 0 1",
        "White has 2 cannons (board and reserve together), swedishcannon1 allows at most 1",
    );
    refused(
        "swedishcannon1",
        "rnbqkbnr/pppppppp/2c5/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1",
        "Black has 2 cannons",
    );
}

// ---- Gustavian Cannonrider Chess -------------------------------------------------------------

const EMPTY_RANKS: &str = "*8*/*8*/*8*/*8*/*8*/*8*";

#[test]
fn cannonrider_positions() {
    for (v, pawn, other, no_other) in [
        (
            "cannonrider",
            'P',
            'S',
            "cannonrider has no Scorpions, only pawns",
        ),
        (
            "cannonriderscorpion",
            'S',
            'P',
            "cannonriderscorpion has no pawns, only Scorpions",
        ),
    ] {
        let lower = pawn.to_ascii_lowercase();
        // The start position, with its own kind of pawn.
        accepted(
            v,
            &format!(
                "nrbckqcbrn/*{}*/*8*/*8*/*8*/*8*/*{}*/NRBCKQCBRN w KQkq - 0 1",
                lower.to_string().repeat(8),
                pawn.to_string().repeat(8)
            ),
        );
        // Exactly one king each.
        refused(
            v,
            &format!("10/{EMPTY_RANKS}/4K5 w - - 0 1"),
            "Black has 0 kings",
        );
        refused(
            v,
            &format!("4k5/{EMPTY_RANKS}/3KK5 w - - 0 1"),
            "White has 2 kings",
        );
        // Only K Q R B N C and the game's own kind of pawn, never the other kind.
        refused(
            v,
            &format!("4k5/{EMPTY_RANKS}/3AK5 w - - 0 1"),
            "unknown piece letter 'A'",
        );
        refused(
            v,
            &format!("4k5/*8*/*8*/*8*/*8*/*8*/*{other}7*/4K5 w - - 0 1"),
            no_other,
        );
        refused(
            v,
            &format!(
                "4k5/*{}7*/*8*/*8*/*8*/*8*/*{pawn}{other}6*/4K5 w - - 0 1",
                lower
            ),
            no_other,
        );
        // No pawn on its side's first or last rank (the extra squares included).
        refused(
            v,
            &format!("4k5/{EMPTY_RANKS}/{pawn}3K5 w - - 0 1"),
            "first or last rank",
        );
        refused(
            v,
            &format!("4k4{pawn}/{EMPTY_RANKS}/4K5 w - - 0 1"),
            "first or last rank",
        );
        refused(
            v,
            &format!("4k5/{EMPTY_RANKS}/4K4{lower} w - - 0 1"),
            "first or last rank",
        );
        // Nothing on a hole.
        refused(
            v,
            &format!("4k5/{pawn}8*/*8*/*8*/*8*/*8*/*8*/4K5 w - - 0 1"),
            "on a hole (a7)",
        );
        refused(
            v,
            "4k5/*8*/*8*/*8*/*8*/*8*/*8N/4K5 w - - 0 1",
            "on a hole (j2)",
        );
        // The side not to move is not in check: by a rook; by a Cannonrider on a light square
        // (b2), a nightrider three leaps away; by one on a dark square (e2), a cannon over the
        // screen on e5.
        refused(
            v,
            &format!("4k4R/{EMPTY_RANKS}/4K5 w - - 0 1"),
            "not to move is in check",
        );
        refused(
            v,
            "4k5/*8*/*8*/*8*/*8*/*8*/*C7*/4K5 w - - 0 1",
            "not to move is in check",
        );
        refused(
            v,
            "4k5/*8*/*8*/*3N4*/*8*/*8*/*3C4*/5K4 w - - 0 1",
            "not to move is in check",
        );
        // The same Cannonriders with a piece on the line (nightrider) or no screen (cannon):
        // no check.
        accepted(v, "4k5/*8*/*8*/*8*/*1N6*/*8*/*C7*/4K5 w - - 0 1");
        accepted(v, "4k5/*8*/*8*/*8*/*8*/*8*/*3C4*/5K4 w - - 0 1");
    }
}

// ---- Cannons of Chesstonia -------------------------------------------------------------------

/// The start position of the rules file, rank by rank from rank 8 (files a..l).
const CHESSTONIA_START: [&str; 8] = [
    "1*rnbqkbnr**",
    "**pppppppp**",
    "pc9S",
    "w10F",
    "f10W",
    "s9CP",
    "**PPPPPPPP**",
    "**RNBQKBNR*1",
];

/// The start position with some ranks (index 0 = rank 8) replaced.
fn chesstonia(changes: &[(usize, &str)]) -> String {
    let mut ranks = CHESSTONIA_START;
    for &(i, r) in changes {
        ranks[i] = r;
    }
    format!("{} w KQkq - 0 1", ranks.join("/"))
}

#[test]
fn chesstonia_positions() {
    let v = "chesstonia";
    accepted(v, &chesstonia(&[]));
    // Every projectile loaded in turn, and the cannons elsewhere on their tracks.
    accepted(v, &chesstonia(&[(5, "s9C1"), (7, "**RNBQKBNR*P")]));
    accepted(
        v,
        &chesstonia(&[
            (0, "w*rnbqkbnr**"),
            (3, "1c9F"),
            (5, "s10P"),
            (4, "f9CW"),
            (2, "p10S"),
        ]),
    );
    // Each side has exactly one cannon, on its own track.
    refused(
        v,
        &chesstonia(&[(4, "f9CW")]),
        "White has 2 cannons on its track",
    );
    refused(
        v,
        &chesstonia(&[(2, "p10S")]),
        "Black has 0 cannons on its track",
    );
    refused(v, &chesstonia(&[(4, "fC9W")]), "'C' on a cannon track");
    refused(
        v,
        &chesstonia(&[(3, "w4c5F")]),
        "a cannon stands on the board",
    );
    // Storage squares hold nothing or their own side's projectile of their own kind.
    refused(
        v,
        &chesstonia(&[(5, "s9CW"), (4, "f11")]),
        "'W' on a storage square",
    );
    refused(
        v,
        &chesstonia(&[(2, "pc9s"), (5, "10CP")]),
        "'s' on a storage square",
    );
    refused(v, &chesstonia(&[(3, "n10F")]), "'n' on a storage square");
    // A load square holds nothing or one of its side's projectiles.
    refused(
        v,
        &chesstonia(&[(7, "**RNBQKBNR*s")]),
        "'s' on White's load square",
    );
    refused(
        v,
        &chesstonia(&[(7, "**RNBQKBN1*R")]).replace("KQkq", "Qkq"),
        "'R' on White's load square",
    );
    refused(
        v,
        &chesstonia(&[(0, "n*r1bqkbnr**")]),
        "'n' on Black's load square",
    );
    // At most one projectile of each kind off the board (stored and loaded together).
    refused(
        v,
        &chesstonia(&[(7, "**RNBQKBNR*W")]),
        "White has two 'W' off the board",
    );
    refused(
        v,
        &chesstonia(&[(0, "p*rnbqkbnr**")]),
        "Black has two 'p' off the board",
    );
    // No other piece outside files c..j: on a track, on a hole.
    refused(
        v,
        &chesstonia(&[(3, "w9NF"), (7, "**RNBQKB1R*1")]),
        "'N' on a cannon track",
    );
    refused(v, &chesstonia(&[(6, "**PPPPPPPP*P")]), "on a hole (l2)");
    refused(v, &chesstonia(&[(6, "P*PPPPPPPP**")]), "on a hole (a2)");
    // What every game with kings asks: one king each, no pawn on the first or last rank, the
    // side not to move not in check.
    refused(
        v,
        &chesstonia(&[(0, "1*rnbq1bnr**")]).replace("kq", ""),
        "Black has 0 kings",
    );
    refused(
        v,
        "1*4k3**/**8**/pc9S/w10F/f10W/s9CP/**8**/**P3K3*1 w - - 0 1",
        "first or last rank",
    );
    refused(
        v,
        "1*4k2R**/**8**/pc9S/w10F/f10W/s9CP/**8**/**4K3*1 w - - 0 1",
        "not to move is in check",
    );
}

// ---- The other games: the conditions every game with kings shares ----------------------------

#[test]
fn chess_and_cannon_shogi_refuse_what_no_game_can_have() {
    refused("chess", "8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has 0 kings");
    refused(
        "chess",
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "first or last rank",
    );
    refused(
        "chess",
        "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
        "not to move is in check",
    );
    refused(
        "chess",
        "4k3/8/8/8/8/8/8/4K3[C] w - - 0 1",
        "no pieces in hand",
    );
    refused(
        "cannonshogi",
        "9/9/9/9/9/9/9/9/4K4[] w - - 0 1",
        "exactly one black king",
    );
    refused(
        "cannonshogi",
        "4k4/9/9/9/9/9/9/9/4K4[K] w - - 0 1",
        "king cannot be in hand",
    );
    refused(
        "cannonshogi",
        "4k4/9/9/9/4R4/9/9/9/4K4[] w - - 0 1",
        "not to move is in check",
    );
}
