//! `cannonade analyse` run as a user runs it: on games of every variant with a blunder made on
//! purpose (tests/data/analyse, written by examples/blunder_games.rs), on the PGN forms other
//! programs save, on files with broken games among good ones, and with bad arguments.

use crate::tool_support;

use cannonade_core::engine::registry;
use cannonade_core::pgn::{movetext_tokens, read_games, PgnGame};
use std::path::Path;
use std::process::Output;
use tool_support::{cannonade, refused, succeeded, text, TempDir};

fn temp_dir(test: &str) -> TempDir {
    TempDir::new("analyse", test)
}

fn analyse(args: &[&str]) -> Output {
    cannonade(&[&["analyse"], args].concat())
}

/// `cannonade analyse --pgn input --out out` with `more` arguments.
fn analyse_file(input: &Path, out: &Path, more: &[&str]) -> Output {
    let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
    analyse(&[&["--pgn", i, "--out", o], more].concat())
}

/// A game of players W and B with `movetext`.
fn between_w_and_b(movetext: &str) -> String {
    format!("[White \"W\"]\n[Black \"B\"]\n\n{movetext}")
}

/// The games of a PGN file.
fn games_in(path: &Path) -> Vec<PgnGame> {
    read_games(&std::fs::read_to_string(path).unwrap())
}

/// The moves (UCI) of a game as the match runner's reader reads them.
fn moves_of(game: &PgnGame) -> Vec<String> {
    let variant = registry::find(game.tag("Variant").unwrap_or("chess")).expect("known variant");
    game.moves(variant.new_session().as_ref(), None)
        .unwrap_or_else(|e| panic!("game {} reads back: {e}", game.number))
}

fn tag_number(game: &PgnGame, name: &str) -> usize {
    game.tag(name)
        .unwrap_or_else(|| panic!("tag {name}"))
        .parse()
        .unwrap()
}

/// Where examples/blunder_games.rs threw a game: the ply (counted from 0, in its tag
/// `ThrownPly`) and the side that threw it (the player named "Careless").
fn thrown(game: &PgnGame) -> (usize, &'static str) {
    let ply = tag_number(game, "ThrownPly");
    let side = if game.tag("White") == Some("Careless") {
        "White"
    } else {
        "Black"
    };
    assert_eq!(
        ply.is_multiple_of(2),
        side == "White",
        "the thrower moves at the thrown ply"
    );
    (ply, side)
}

fn blunder_is_found(variant: &str) {
    let dir = temp_dir(variant);
    let input = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/analyse")
        .join(format!("{variant}.pgn"));
    let out = dir.join("out.pgn");
    let o = analyse_file(&input, &out, &["--depth", "5"]);
    let stdout = succeeded(&o);

    let before = games_in(&input);
    let after = games_in(&out);
    assert_eq!(after.len(), 2);
    for (i, game) in after.iter().enumerate() {
        let (ply, careless) = &thrown(&before[i]);
        // The annotated game is the same game to the match runner's reader.
        assert_eq!(moves_of(game), moves_of(&before[i]), "game {}", i + 1);
        assert_eq!(game.tag("Variant"), before[i].tag("Variant"));
        let words = movetext_tokens(&game.movetext);
        assert!(
            words[*ply].ends_with('?'),
            "{variant} game {}: the thrown move is marked a mistake or blunder: {}",
            i + 1,
            words[*ply]
        );
        assert!(
            game.movetext.contains(" ( "),
            "a marked move shows the better line"
        );
        let bad = tag_number(game, &format!("{careless}Blunders"))
            + tag_number(game, &format!("{careless}Mistakes"));
        assert!(bad >= 1, "{variant} game {}: the totals count it", i + 1);
        assert!(game.movetext.contains("[%eval ") && game.movetext.contains("[%wdl "));
        // The summary printed when the game finished counts it too.
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("game {} ", i + 1)))
            .expect("a summary line per game");
        let (white, black) = line.split_once("Black:").unwrap();
        let part = if *careless == "White" { white } else { black };
        assert!(
            !part.contains(" 0 mistakes, 0 blunders"),
            "{variant}: {line}"
        );
        let svg = dir.join(format!("out-game{}.svg", i + 1));
        let svg = std::fs::read_to_string(&svg).expect("the graph is written beside the PGN");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(
            svg.contains("Careless") && svg.contains("Steady"),
            "the title"
        );
    }
}

#[test]
fn chess_blunder() {
    blunder_is_found("chess");
}

#[test]
fn cannonshogi_blunder() {
    blunder_is_found("cannonshogi");
}

#[test]
fn swedishcannon_blunder() {
    blunder_is_found("swedishcannon");
}

#[test]
fn swedishcannon1_blunder() {
    blunder_is_found("swedishcannon1");
}

#[test]
fn cannonrider_blunder() {
    blunder_is_found("cannonrider");
}

#[test]
fn cannonriderscorpion_blunder() {
    blunder_is_found("cannonriderscorpion");
}

#[test]
fn chesstonia_blunder() {
    blunder_is_found("chesstonia");
}

#[test]
fn cannon_blunder() {
    blunder_is_found("cannon");
}

/// Missing a mate in one: 2... Qh4# was there (after 1. f3 e5 2. g4), Black played a6.
#[test]
fn a_missed_mate_in_one_is_a_blunder_with_the_mate_as_the_better_line() {
    let dir = temp_dir("mate");
    let input = dir.write("in.pgn", &between_w_and_b("1. f3 e5 2. g4 a6 3. Nc3 *\n"));
    let out = dir.join("out.pgn");
    let svg = dir.join("pictures");
    let o = analyse_file(
        &input,
        &out,
        &["--nodes", "20000", "--svg", svg.to_str().unwrap()],
    );
    succeeded(&o);
    let pgn = std::fs::read_to_string(&out).unwrap();
    // Lines are wrapped at 80 characters: compare the movetext as one line.
    let pgn = pgn.replace('\n', " ");
    assert!(pgn.contains("2... a6??"), "{pgn}");
    assert!(pgn.contains("( 2... Qh4# )"), "{pgn}");
    // After 2. g4 Black mates in one: White's view. 3. Nc3 allows the same mate.
    assert!(pgn.contains("2. g4?? {[%eval #-1]"), "{pgn}");
    assert!(pgn.contains("3. Nc3?? {[%eval #-1]"), "{pgn}");
    let g = &games_in(&out)[0];
    assert_eq!(tag_number(g, "BlackBlunders"), 1);
    assert_eq!(tag_number(g, "WhiteBlunders"), 2);
    assert!(
        svg.join("out-game1.svg").exists(),
        "--svg puts the graphs there"
    );
}

/// A broken game among good ones is reported with its number and line and left out; the good
/// ones are analysed.
#[test]
fn malformed_games_are_reported_and_skipped() {
    let dir = temp_dir("malformed");
    let games = "[Event \"good\"]\n\n1. e4 e5 2. Nf3 *\n\n\
                 [Event \"illegal\"]\n\n1. e4 e4 *\n\n\
                 [Event \"bad fen\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n\
                 [Event \"no such game\"]\n[Variant \"fourplayer\"]\n\n1. e4 *\n\n\
                 [Event \"good too\"]\n[Variant \"cannon\"]\n\n1. T@b0 T@c9 *\n";
    let input = dir.write("in.pgn", games);
    let out = dir.join("out.pgn");
    let o = analyse_file(&input, &out, &["--depth", "2"]);
    let stderr = text(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("game 2 (line 5)") && stderr.contains("'e4'"),
        "{stderr}"
    );
    assert!(stderr.contains("game 3 (line 9)"), "{stderr}");
    assert!(
        stderr.contains("game 4 (line 14)") && stderr.contains("fourplayer"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"));
    let written = games_in(&out);
    let events: Vec<_> = written.iter().map(|g| g.tag("Event").unwrap()).collect();
    assert_eq!(events, ["good", "good too"]);
    assert!(text(&o.stdout).contains("2 of 5 games analysed"));
    assert!(dir.join("out-game5.svg").exists() && !dir.join("out-game2.svg").exists());
}

/// Games as other programs save them: XBoard's Cannon PGN (short soldier moves, `#` on every
/// move), its Swedish cannon entries (gating, `Pe2e4=C`) and Cannon Shogi (SAN), and
/// pychess-variants' Cannon Shogi export.
#[test]
fn xboard_and_pychess_games_are_read() {
    let dir = temp_dir("foreign");
    let games = "[Event \"xboard\"]\n[Variant \"cannon\"]\n\n\
                 1. T@b0# T@c9# 2. Sa4# Sfe5# 3. Se3xe5-e3# Sb5# 4. Se4# Sxa4# *\n\n\
                 [Event \"PyChess casual game\"]\n[Variant \"Cannonshogi\"]\n\n\
                 1. U-66 A-35 2. U-67 Ux49+ 3. K-58 G*55 *\n\n\
                 [Event \"xboard\"]\n[Variant \"swedishcannon\"]\n\n\
                 1. Pe2e4=C e5 2. Nf3 Pd7d5=C 3. Pd2d4=C+ Nc6 *\n\n\
                 [Event \"xboard\"]\n[Variant \"cannonshogi\"]\n\n\
                 1. c4 c6 2. Rh3 g6 *\n";
    let input = dir.write("in.pgn", games);
    let out = dir.join("out.pgn");
    let o = analyse_file(&input, &out, &["--depth", "2"]);
    succeeded(&o);
    let before = read_games(games);
    let after = games_in(&out);
    assert_eq!(after.len(), 4, "{}", text(&o.stderr));
    assert_eq!(moves_of(&after[0]), moves_of(&before[0]));
    assert_eq!(moves_of(&after[2])[..3], ["C@e2", "e7e5", "g1f3"]);
    assert_eq!(moves_of(&after[3]), ["c3c4", "c7c6", "h2h3", "g7g6"]);
    // The export's variant name is pychess's spelling; the moves read back the same.
    let shogi = registry::find("cannonshogi").unwrap().new_session();
    assert_eq!(
        after[1].moves(shogi.as_ref(), None).unwrap(),
        before[1].moves(shogi.as_ref(), None).unwrap()
    );
}

/// A game of a variant without a `Variant` tag is read as `--variant` says, and written with
/// the tag so that it reads back.
#[test]
fn the_variant_option_names_untagged_games() {
    let dir = temp_dir("variant");
    let input = dir.write("in.pgn", "1. T@b0 T@c9 2. Sg1f2 *\n");
    let out = dir.join("out.pgn");
    // `analyze` is the same command.
    let run = |v: &str| {
        let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
        cannonade(&[
            "analyze",
            "--pgn",
            i,
            "--out",
            o,
            "--depth",
            "2",
            "--variant",
            v,
        ])
    };
    let o = run("cannon");
    succeeded(&o);
    let g = &games_in(&out)[0];
    assert_eq!(g.tag("Variant"), Some("cannon"));
    assert_eq!(moves_of(g).len(), 3);
    // As chess the same game is broken: nothing to analyse is an error.
    let o = run("chess");
    refused(&o, "game 1 (line 1)");
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let dir = temp_dir("args");
    let input = dir.write("in.pgn", "1. e4 e5 *\n");
    let (i, o) = (input.to_str().unwrap(), dir.join("o.pgn"));
    let o = o.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["--pgn", "/no/such/file.pgn", "--out", o], "cannot read"),
        (
            &["--pgn", i, "--out", o, "--variant", "nope"],
            "unknown variant",
        ),
        (&["--pgn", i, "--out", o, "--depth", "0"], "--depth"),
        (
            &["--pgn", i, "--out", o, "--depth", "3", "--nodes", "9"],
            "cannot be used",
        ),
        (
            &["--pgn", i, "--out", o, "--option", "NoSuchOption=1"],
            "NoSuchOption",
        ),
        (&["--pgn", i, "--out", o, "--threads", "0"], "Threads"),
        (&["--pgn", i, "--out", i], "same file"),
        (&["--pgn", i], "--out"),
    ];
    for (args, message) in cases {
        refused(&analyse(args), message);
    }
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "1. e4 e5 *\n");
}

/// An annotated file analysed again keeps one set of the tool's tags and the same moves: the
/// old comments, marks and variations are read past and replaced.
#[test]
fn an_analysis_analysed_again_is_replaced_not_doubled() {
    let dir = temp_dir("again");
    let input = dir.write(
        "in.pgn",
        &between_w_and_b("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"),
    );
    let (once, twice) = (dir.join("once.pgn"), dir.join("twice.pgn"));
    for (from, to) in [(&input, &once), (&once, &twice)] {
        let o = analyse_file(from, to, &["--depth", "4"]);
        succeeded(&o);
    }
    let a = &games_in(&once)[0];
    let b = &games_in(&twice)[0];
    assert_eq!(a.tags, b.tags);
    assert_eq!(b.tags.iter().filter(|(n, _)| n == "Annotator").count(), 1);
    assert_eq!(moves_of(a), moves_of(b));
    assert_eq!(moves_of(b).len(), 7);
    assert!(b.movetext.contains("3... Nf6??"), "{}", b.movetext);
    assert_eq!(b.result(), "1-0");
}

/// `--movetime` is each search's whole time: 9 quiet positions at 40 ms take at least 360 ms,
/// where keeping back the engine's `Move Overhead` (30 ms) would leave 10 ms each. (A search
/// that finds a mate may stop early, so the game has none.)
#[test]
fn movetime_is_the_time_of_each_search() {
    let dir = temp_dir("movetime");
    let input = dir.write("in.pgn", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. d3 Be7 *\n");
    let out = dir.join("out.pgn");
    let start = std::time::Instant::now();
    let o = analyse_file(&input, &out, &["--movetime", "40"]);
    succeeded(&o);
    assert!(start.elapsed() >= std::time::Duration::from_millis(360));
    let g = &games_in(&out)[0];
    assert_eq!(
        g.tag("Annotator"),
        Some("cannonade analyse, 40 ms per position")
    );
}
