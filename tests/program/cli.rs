//! The command line, driven through the real binary: output formats and refusals.

use crate::tool_support;

use std::process::Output;
use tool_support::{cannonade as run, text};

fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

#[test]
fn perft_prints_one_line_per_root_move_then_the_total() {
    let o = run(&["perft", "--variant", "chess", "--depth", "3"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(lines.len(), 21, "20 moves and the total:\n{out}");
    let sum: u64 = lines[..20]
        .iter()
        .map(|l| l.rsplit(": ").next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 8902);
    assert!(lines.contains(&"e2e4: 600"), "{out}");
    assert_eq!(lines[20], "Nodes searched: 8902");
}

#[test]
fn perft_after_moves_and_with_threads() {
    // After 1.e4 e5 white has 29 legal moves.
    let o = run(&[
        "perft",
        "--depth",
        "1",
        "--moves",
        "e2e4 e7e5",
        "--threads",
        "2",
    ]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("Nodes searched: 29"), "{}", stdout(&o));
    // Stockfish's `go perft 3` from the start gives e2e4: 600.
    let o = run(&["perft", "--depth", "2", "--moves", "e2e4", "--threads", "2"]);
    assert!(stdout(&o).contains("Nodes searched: 600"), "{}", stdout(&o));
}

#[test]
fn perft_from_fen() {
    let o = run(&[
        "perft",
        "--depth",
        "2",
        "--fen",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("Nodes searched: 191"));
}

/// Cannon's tournament shift rule reaches perft through `--option`, with the count built by
/// `--moves`: after three shifts of white's a-file cannon its two shifts (`a5a8`, `a7a4`) are
/// gone with the switch on (docs/rules/cannon.md).
#[test]
fn perft_follows_the_cannon_shift_limit_switch() {
    let fen = "4t5/s6s1s/9s/9s/5ss3/4S5/S5S3/S5S3/S1S3S3/1T8[] w - - 0 1";
    for (value, nodes) in [("false", 25), ("true", 23)] {
        let option = format!("CannonShiftLimit={value}");
        let o = run(&[
            "perft",
            "--variant",
            "cannon",
            "--fen",
            fen,
            "--moves",
            "a2a5 h9h8 a3a6 h8h7 a4a7 h7h6",
            "--depth",
            "1",
            "--option",
            &option,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains(&format!("Nodes searched: {nodes}")),
            "{option}: {out}"
        );
        assert_eq!(out.contains("a5a8"), value == "false", "{option}: {out}");
    }
}

#[test]
fn bad_input_gives_a_message_and_a_failure_code() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "--depth", "2", "--fen", "not a fen"], "FEN"),
        (
            &["perft", "--depth", "2", "--moves", "e2e4 e2e4"],
            "not legal",
        ),
        (&["perft", "--depth", "2", "--moves", "zz99"], "not legal"),
        (
            &["perft", "--depth", "2", "--variant", "nosuch"],
            "unknown variant",
        ),
        (
            &["perft", "--depth", "2", "--option", "Nonsense=true"],
            "unknown option 'Nonsense'",
        ),
        (
            &["perft", "--depth", "2", "--option", "CannonClearShot=true"],
            "option CannonClearShot: not a rule of chess",
        ),
        (
            &[
                "perft",
                "--variant",
                "cannon",
                "--depth",
                "2",
                "--option",
                "CannonClearShot=perhaps",
            ],
            "option CannonClearShot: 'perhaps' is not true or false",
        ),
        (
            &["perft", "--depth", "2", "--option", "novalue"],
            "NAME=VALUE",
        ),
        (&["perft", "--depth", "x"], "invalid value"),
        (
            &[
                "wdl",
                "--variant",
                "chess",
                "--data",
                "no/such/file.bin",
                "--out",
                "never.wdl",
            ],
            "no/such/file.bin",
        ),
        (
            &[
                "wdl",
                "--variant",
                "nosuch",
                "--data",
                "x.bin",
                "--out",
                "x.wdl",
            ],
            "unknown variant 'nosuch'",
        ),
        (
            &[
                "wdl",
                "--variant",
                "chess",
                "--data",
                "Cargo.toml",
                "--out",
                "never.wdl",
            ],
            "Cargo.toml: not a cannonade datagen file",
        ),
        (
            &["wdl", "--variant", "chess", "--out", "never.wdl"],
            "--data",
        ),
    ];
    for (args, needle) in cases {
        let o = run(args);
        assert!(!o.status.success(), "{args:?} succeeded");
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn variants_lists_every_game_with_its_real_name_board_and_start() {
    let o = run(&["variants"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.contains(&"chess (8x8, XBoard: normal): Orthodox chess"),
        "{out}"
    );
    assert!(
        lines.contains(&"cannon (10x10, XBoard: cannon): Whitcher's Cannon"),
        "{out}"
    );
    assert!(
        lines.contains(
            &"swedishcannon1 (8x8, XBoard: swedishcannon1): Swedish Cannon Chess (one cannon)"
        ),
        "{out}"
    );
    // Every engine name is followed by its start position, which the engine accepts.
    for v in cannonade_core::engine::registry::VARIANTS {
        let at = lines
            .iter()
            .position(|l| l.starts_with(&format!("{} (", v.game.name)))
            .unwrap_or_else(|| panic!("{} missing: {out}", v.game.name));
        assert!(lines[at].ends_with(&format!(": {}", v.full_name)), "{out}");
        assert_eq!(lines[at + 1], format!("    start: {}", v.game.start_fen));
    }
    // The start of Whitcher's Cannon has both towns in hand.
    assert!(out.contains("[Tt] w - - 0 1"), "{out}");
}

#[test]
fn openings_writes_fens_the_engine_accepts_and_refuses_bad_input() {
    let o = run(&[
        "openings",
        "--variant",
        "cannonrider",
        "--count",
        "3",
        "--plies",
        "2",
        "--depth",
        "2",
        "--max-score",
        "300",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let fens: Vec<&str> = out.lines().collect();
    assert_eq!(fens.len(), 3, "{out}");
    for fen in fens {
        // Two plies from the start: White to move on move 2, and perft accepts the FEN.
        assert!(fen.contains(" w ") && fen.ends_with(" 2"), "{fen}");
        let p = run(&[
            "perft",
            "--variant",
            "cannonrider",
            "--depth",
            "1",
            "--fen",
            fen,
        ]);
        assert!(p.status.success(), "{fen}: {}", stderr(&p));
    }
    let bad = run(&["openings", "--variant", "tiddlywinks"]);
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("unknown variant"), "{}", stderr(&bad));
    let bad = run(&["openings", "--option", "NoSuchRule=true", "--count", "1"]);
    assert!(!bad.status.success());
}
