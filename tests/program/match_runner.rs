//! `cannonade match` against the fake engine (src/bin/fake_engine.rs): every way a game can
//! end, misbehaving engines, adjudication, SPRT stopping, PGN output, and every registered
//! variant played through both protocols.

use cannonade_core::engine::registry::VARIANTS;
use cannonade_tools::match_runner::args::parse;
use cannonade_tools::match_runner::game::{GameResult, Termination};
use cannonade_tools::match_runner::{run_match, MatchSummary, SprtDecision};
use std::path::PathBuf;
use std::process::Command;

const FAKE: &str = env!("CARGO_BIN_EXE_fake_engine");

/// A file in a fresh temporary directory for this test.
fn temp_file(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cannonade-match-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

/// `-engine` words for a fake engine with flags (flags separated by spaces become `arg=`s).
fn fake(name: &str, proto: &str, flags: &str) -> String {
    let mut s = format!("-engine cmd={FAKE} name={name} proto={proto}");
    for f in flags.split_whitespace() {
        s += &format!(" arg={f}");
    }
    s
}

/// A match between fake engines A (white first) and B, each `(protocol, flags)`, with the
/// other words given.
fn fakes(a: (&str, &str), b: (&str, &str), words: &str) -> MatchSummary {
    run(&format!(
        "{} {} {words}",
        fake("A", a.0, a.1),
        fake("B", b.0, b.1)
    ))
}

fn run(words: &str) -> MatchSummary {
    let mut args: Vec<String> = words.split_whitespace().map(String::from).collect();
    args.push("-quiet".into());
    let settings = parse(&args).expect("arguments parse");
    run_match(&settings).expect("match runs")
}

/// One game from `fen` between two fake engines.
fn one_game(test: &str, fen: &str, white: &str, black: &str, extra: &str) -> MatchSummary {
    let epd = temp_file(test, "o.epd", &format!("{fen}\n"));
    let summary = run(&format!(
        "{white} {black} -each tc=10+0.1 -openings file={} {extra}",
        epd.display()
    ));
    // The opening file is read when the match starts; its folder goes with the game.
    let _ = std::fs::remove_dir_all(epd.parent().unwrap());
    summary
}

#[test]
fn checkmate_ends_the_game_and_pgn_has_san() {
    let pgn = std::env::temp_dir().join(format!("cannonade-mate-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let s = one_game(
        "mate",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        &fake("A", "uci", "--score 250"),
        &fake("B", "uci", ""),
        &format!("-pgnout {}", pgn.display()),
    );
    let r = &s.games[0].record;
    assert_eq!(r.result, GameResult::WhiteWins);
    assert_eq!(r.reason, "White mates");
    assert_eq!(r.termination, Termination::Normal);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let _ = std::fs::remove_file(&pgn);
    for want in [
        "[White \"A\"]",
        "[Black \"B\"]",
        "[Result \"1-0\"]",
        "[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]",
        "[SetUp \"1\"]",
        "[TimeControl \"10+0.1\"]",
        "[Termination \"normal\"]",
        "1. Ra8# {+2.50/1 ",
        "{White mates} 1-0",
        "[GameStartTime \"20",
        "[GameEndTime \"20",
        "[GameDuration \"00:00:0",
    ] {
        assert!(text.contains(want), "{want} missing from\n{text}");
    }
    // The start and end are real times of this game (UTC, milliseconds), the end not before
    // the start.
    let tag = |name: &str| {
        let from = text.find(&format!("[{name} \"")).unwrap() + name.len() + 3;
        text[from..from + 27].to_string()
    };
    let (start, end) = (tag("GameStartTime"), tag("GameEndTime"));
    assert!(
        start.ends_with(" UTC") && start.as_bytes()[10] == b'T',
        "{start}"
    );
    assert!(start <= end, "{start} {end}");
    assert!(
        !text.contains("[Variant"),
        "orthodox chess has no Variant tag"
    );
}

#[test]
fn stalemate_repetition_fifty_moves_and_material_are_draws() {
    let cases = [
        (
            "stalemate",
            "k7/8/8/2Q5/8/8/8/7K w - - 0 1",
            "c5b6",
            "",
            "Draw by stalemate",
        ),
        (
            "repetition",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "g1f3,f3g1",
            "g8f6,f6g8",
            "Draw by repetition",
        ),
        (
            "fifty",
            "4k3/8/8/8/8/8/8/R3K3 w - - 99 80",
            "a1a2",
            "",
            "Draw by fifty-move rule",
        ),
        (
            "material",
            "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
            "e1d2",
            "",
            "Draw by insufficient material",
        ),
    ];
    for (test, fen, wp, bp, reason) in cases {
        let prefer = |p: &str| {
            if p.is_empty() {
                String::new()
            } else {
                format!("--prefer {p}")
            }
        };
        let s = one_game(
            test,
            fen,
            &fake("A", "uci", &prefer(wp)),
            &fake("B", "xboard", &prefer(bp)),
            "",
        );
        let r = &s.games[0].record;
        assert_eq!(r.result, GameResult::Draw, "{test}: {r:?}");
        assert_eq!(r.reason, reason, "{test}");
    }
}

#[test]
fn illegal_and_unparsable_moves_lose() {
    for (proto, flag, mv) in [
        ("uci", "--illegal", "a1a1"),
        ("xboard", "--garbage", "xyzzy"),
    ] {
        let s = fakes(
            ("uci", ""),
            (proto, &format!("{flag} --after 1")),
            "-each tc=10+0.1 -games 2",
        );
        assert_eq!(s.games.len(), 2);
        for g in &s.games {
            let b_is_white = g.job.white == 1;
            let r = &g.record;
            assert_eq!(r.termination, Termination::RulesInfraction, "{r:?}");
            let side = if b_is_white { "White" } else { "Black" };
            assert_eq!(r.reason, format!("{side} makes an illegal move: {mv}"));
            let want = if b_is_white {
                GameResult::BlackWins
            } else {
                GameResult::WhiteWins
            };
            assert_eq!(r.result, want);
            // B's first move was fine (`--after 1`).
            assert!(!r.moves.is_empty());
        }
    }
}

#[test]
fn a_crashing_engine_loses_and_is_restarted_for_the_next_game() {
    let s = fakes(
        ("uci", ""),
        ("xboard", "--crash --after 2"),
        "-each tc=10+0.1 -games 3",
    );
    assert_eq!(s.games.len(), 3, "the match goes on after a crash");
    for g in &s.games {
        let r = &g.record;
        assert!(r.reason.ends_with("disconnects"), "{r:?}");
        // A restarted engine plays its first two moves again before crashing.
        assert!(r.moves.len() >= 4, "{r:?}");
        assert_eq!(r.broken, vec![1]);
    }
}

#[test]
fn silent_and_slow_engines_lose_on_time_unless_within_the_margin() {
    let s = fakes(("uci", ""), ("uci", "--nomove"), "-each tc=0.3");
    let r = &s.games[0].record;
    assert_eq!(r.reason, "Black loses on time");
    assert_eq!(r.termination, Termination::TimeForfeit);

    let s = fakes(("xboard", "--slow 400"), ("uci", ""), "-each tc=0.2");
    assert_eq!(s.games[0].record.reason, "White loses on time");

    // The same slowness inside a generous margin is not a loss; the move limit ends the game.
    let s = fakes(
        ("uci", "--slow 300"),
        ("uci", ""),
        "-each tc=0.2 timemargin=2000 -maxmoves 1",
    );
    let r = &s.games[0].record;
    assert_eq!(r.reason, "Draw by move limit");
    assert_eq!(r.termination, Termination::Adjudication);

    // Fixed time per move.
    let s = fakes(("uci", "--slow 400"), ("uci", ""), "-each st=0.1");
    assert_eq!(s.games[0].record.reason, "White loses on time");
}

#[test]
fn resignation_counts_but_claims_do_not() {
    let s = fakes(
        ("uci", ""),
        ("xboard", "--resign --after 1"),
        "-each tc=10+0.1",
    );
    let r = &s.games[0].record;
    assert_eq!(
        (r.result, r.reason.as_str()),
        (GameResult::WhiteWins, "Black resigns")
    );

    let s = fakes(
        ("xboard", "--claim"),
        ("uci", ""),
        "-each tc=10+0.1 -maxmoves 3",
    );
    let r = &s.games[0].record;
    assert_eq!(
        r.reason, "Draw by move limit",
        "the claimed draw was ignored"
    );
    assert_eq!(r.moves.len(), 6);
}

#[test]
fn score_adjudication() {
    // B thinks it is lost for three moves running: resign adjudication; both quiet from
    // move 5 for 2 moves each: draw adjudication.
    for (a, b, rule, result, reason, plies) in [
        (
            ("uci", "--score 600"),
            ("uci", "--score -700"),
            "-resign movecount=3 score=500",
            GameResult::WhiteWins,
            "White wins by adjudication",
            6,
        ),
        (
            ("uci", "--score 3"),
            ("xboard", "--score -5"),
            "-draw movenumber=5 movecount=2 score=10",
            GameResult::Draw,
            "Draw by adjudication",
            10,
        ),
    ] {
        let s = fakes(a, b, &format!("-each tc=10+0.1 {rule}"));
        let r = &s.games[0].record;
        assert_eq!((r.result, r.reason.as_str()), (result, reason));
        assert_eq!(r.moves.len(), plies, "{rule}");
    }
}

#[test]
fn sprt_stops_the_match_when_a_bound_is_crossed() {
    let s = fakes(
        ("uci", ""),
        ("uci", "--illegal"),
        "-each tc=10+0.1 -games 200 -sprt elo0=0 elo1=20 alpha=0.05 beta=0.05",
    );
    assert_eq!(s.sprt, Some(SprtDecision::H1));
    assert!(s.games.len() < 200, "stopped after {} games", s.games.len());
}

#[test]
fn sprt_prior_counts_toward_the_bounds() {
    // A wins every game; the earlier parts' counts move the point where the whole test stops.
    let games = |prior: &str| {
        let s = run(&format!(
            "{} {} -each tc=10+0.1 -games 200 -sprt elo0=0 elo1=20 {prior}",
            fake("A", "uci", ""),
            fake("B", "uci", "--illegal"),
        ));
        assert_eq!(s.sprt, Some(SprtDecision::H1), "{prior}");
        s.games.len()
    };
    let alone = games("");
    let after_gains = games("prior=30,20,0");
    let after_losses = games("prior=20,30,0");
    assert!(
        after_gains < alone && alone < after_losses,
        "{after_gains} {alone} {after_losses}"
    );
}

#[test]
fn round_robin_with_concurrency_through_the_binary() {
    let out = Command::new(env!("CARGO_BIN_EXE_cannonade"))
        .args(["match"])
        .args(fake("A", "uci", "").split_whitespace())
        .args(fake("B", "xboard", "").split_whitespace())
        .args(fake("C", "uci", "--illegal --after 3").split_whitespace())
        .args("-each tc=10+0.1 -games 2 -repeat -concurrency 2 -maxmoves 20 -openings random plies=4 -seed 1".split_whitespace())
        .output()
        .expect("binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.matches("Finished game").count(), 6, "{stdout}");
    assert!(stdout.contains("Score of A vs B: "), "{stdout}");
    assert!(stdout.contains("Ptnml(0-2): ["), "{stdout}");
    assert!(stdout.contains("Rank Name"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("] 6/6"));
}

#[test]
fn one_game_at_a_time_finishes_before_the_next_starts_and_same_names_are_told_apart() {
    // Two copies of one engine without names: both report "Fake Engine ...", and every line
    // and PGN tag must use the same two names.
    let pgn = std::env::temp_dir().join(format!("cannonade-names-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let out = Command::new(env!("CARGO_BIN_EXE_cannonade"))
        .args(["match", "-engine", &format!("cmd={FAKE}"), "-engine"])
        .arg(format!("cmd={FAKE}"))
        .args("-each tc=10+0.1 -games 3 -maxmoves 5 -concurrency 1 -pgnout".split_whitespace())
        .arg(&pgn)
        .output()
        .expect("binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let events: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("Started game") || l.starts_with("Finished game"))
        .map(|l| &l[..l.find(" (").unwrap()])
        .collect();
    assert_eq!(
        events,
        [
            "Started game 1 of 3",
            "Finished game 1",
            "Started game 2 of 3",
            "Finished game 2",
            "Started game 3 of 3",
            "Finished game 3"
        ],
        "{stdout}"
    );
    let first = stdout.lines().next().unwrap();
    let names = &first[first.find('(').unwrap() + 1..first.len() - 1];
    let (a, b) = names.split_once(" vs ").unwrap();
    assert_eq!(b, format!("{a}-2"), "{stdout}");
    assert!(
        stdout.contains(&format!("Score of {a} vs {b}: ")),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let _ = std::fs::remove_file(&pgn);
    assert_eq!(
        text.matches(&format!("[White \"{a}\"]")).count(),
        2,
        "{text}"
    );
    assert_eq!(
        text.matches(&format!("[Black \"{b}\"]")).count(),
        2,
        "{text}"
    );
    assert_eq!(
        text.matches(&format!("[White \"{b}\"]")).count(),
        1,
        "{text}"
    );
    // Not a terminal here: plain progress lines, one per game.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("] 1/3\n") && stderr.contains("] 3/3\n"),
        "{stderr}"
    );
}

#[test]
fn every_registered_variant_plays_through_both_protocols() {
    for v in VARIANTS {
        let s = run(&format!(
            "{} {} -each tc=20+0.1 -variant {} -games 2 -maxmoves 30 -openings random plies=2",
            fake("A", "uci", ""),
            fake("B", "xboard", ""),
            v.game.name
        ));
        assert_eq!(s.games.len(), 2, "{}", v.game.name);
        for g in &s.games {
            let r = &g.record;
            assert!(
                matches!(
                    r.termination,
                    Termination::Normal | Termination::Adjudication
                ),
                "{}: {r:?}",
                v.game.name
            );
        }
    }
}

#[test]
fn unknown_variant_and_missing_engine_are_refused() {
    let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    let st = parse(&args(&format!(
        "{} {} -each tc=1 -variant nosuchgame",
        fake("A", "uci", ""),
        fake("B", "uci", "")
    )))
    .unwrap();
    assert!(run_match(&st)
        .unwrap_err()
        .to_string()
        .contains("unknown variant"));
    let st = parse(&args(
        "-engine cmd=/no/such/engine -engine cmd=/no/such/other -each tc=1",
    ))
    .unwrap();
    assert!(run_match(&st)
        .unwrap_err()
        .to_string()
        .contains("cannot start"));
}

#[test]
fn variants_announced_only_after_an_option_are_found() {
    // Fairy-Stockfish lists the variants of a VariantPath file only after reading it: the
    // runner sets the options and asks again before deciding whether the engine can play.
    let words = |a_options: &str| {
        format!(
            "{} {a_options} {} -variant cannonshogi -each depth=1 -games 2 -maxmoves 4 -quiet",
            fake("A", "uci", "--variantpath"),
            fake("B", "uci", ""),
        )
    };
    let args = |w: String| -> Vec<String> { w.split_whitespace().map(String::from).collect() };
    let without = run_match(&parse(&args(words(""))).unwrap());
    let err = match without {
        Err(e) => e.to_string(),
        Ok(_) => panic!("A announces no variant without its file"),
    };
    assert!(
        err.contains("does not announce the variant cannonshogi"),
        "{err}"
    );
    let with = run_match(&parse(&args(words("option.VariantPath=/some/file.ini"))).unwrap())
        .expect("with the option set, A plays cannonshogi");
    assert_eq!(with.games.len(), 2);
}
