//! UCI transcripts driven through the real binary: a spawned `cannonade` process, commands on
//! its stdin, answers read from its stdout with timeouts.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cannonade"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// An engine after the `uci` handshake.
    fn uci() -> Engine {
        let mut e = Engine::start();
        e.send("uci");
        e.until(|l| l == "uciok");
        e
    }

    fn send(&mut self, cmd: &str) {
        writeln!(self.stdin, "{cmd}").expect("engine reads input");
        self.stdin.flush().unwrap();
    }

    fn next_line(&self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("engine closed its output"),
        }
    }

    /// Every line up to and including the first that satisfies `stop`.
    fn until(&mut self, stop: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .next_line(left)
                .unwrap_or_else(|| panic!("timed out; lines so far: {out:#?}"));
            let done = stop(&line);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// Sends `isready` and returns everything printed before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Runs `go ...` to its `bestmove`, returning all lines.
    fn go(&mut self, args: &str) -> Vec<String> {
        self.send(&format!("go {args}"));
        self.until(|l| l.starts_with("bestmove"))
    }

    fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until(|l| l.starts_with("Key: "));
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .expect("d prints the FEN")
            .to_string()
    }

    /// The legal moves of the current position, from `go perft 1`.
    fn legal_moves(&mut self) -> Vec<String> {
        self.send("go perft 1");
        let lines = self.until(|l| l.starts_with("Nodes searched"));
        lines
            .iter()
            .filter_map(|l| l.split_once(": ").map(|(m, _)| m.to_string()))
            .filter(|m| m != "Nodes searched")
            .collect()
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        panic!("engine did not quit");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn bestmove(lines: &[String]) -> String {
    let last = lines.last().expect("lines");
    last.split_whitespace()
        .nth(1)
        .expect("bestmove X")
        .to_string()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

#[test]
fn handshake_lists_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name Cannonade"));
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for opt in [
        "option name Hash type spin default 16 min 1 max",
        "option name Clear Hash type button",
        "option name Threads type spin default 1 min 1 max",
        "option name MultiPV type spin default 1 min 1 max",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default",
        "option name UCI_Variant type combo default chess",
        "option name EvalMaterialOnly type check default false",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(opt)),
            "missing '{opt}' in {lines:#?}"
        );
    }
    let variants = lines
        .iter()
        .find(|l| l.contains("name UCI_Variant"))
        .unwrap();
    for v in cannonade_core::engine::registry::VARIANTS {
        assert!(
            variants.contains(&format!(" var {}", v.game.name)),
            "{variants}"
        );
    }
    assert_eq!(e.sync(), Vec::<String>::new());
    e.quit();
}

#[test]
fn our_output_is_valid_uci_for_vampirc() {
    use vampirc_uci::{parse_one, UciMessage};
    let mut e = Engine::start();
    e.send("uci");
    let mut lines = e.until(|l| l == "uciok");
    e.send("setoption name MultiPV value 2");
    e.send("position startpos moves e2e4");
    lines.extend(e.go("depth 5"));
    e.send("position fen 6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1");
    lines.extend(e.go("depth 4"));
    for line in &lines {
        let msg = parse_one(line);
        let ok = match &msg {
            UciMessage::Id { .. } | UciMessage::UciOk | UciMessage::Option(_) => true,
            UciMessage::Info(attrs) => !attrs.is_empty(),
            UciMessage::BestMove { .. } => true,
            _ => false,
        };
        assert!(ok, "vampirc-uci did not understand '{line}': {msg:?}");
    }
}

#[test]
fn search_reports_every_iteration_and_plays_a_legal_move() {
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4 c7c5");
    let legal = e.legal_moves();
    let lines = e.go("depth 5");
    for d in 1..=5 {
        let prefix = format!("info depth {d} seldepth ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "no info for depth {d}: {lines:#?}"
        );
    }
    let info = &lines[lines.len() - 2];
    for word in [
        " multipv 1 ",
        " score cp ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(word), "'{word}' missing in {info}");
    }
    let best = bestmove(&lines);
    assert!(legal.contains(&best), "{best} not in {legal:?}");
    // The PV starts with the best move.
    assert!(info.contains(&format!(" pv {best}")), "{info}");
    e.quit();
}

#[test]
fn positions_with_moves_and_the_board_display() {
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4");
    assert!(e
        .fen()
        .starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq"));
    e.send("position fen 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1 moves e2e4 e5e4");
    assert_eq!(e.fen(), "8/8/8/8/4k3/8/8/4K3 w - - 0 2");
    e.send("d");
    let lines = e.until(|l| l.starts_with("Key: "));
    assert!(lines.iter().any(|l| l.contains('K') && l.contains('k')));
    let key = lines.last().unwrap().trim_start_matches("Key: ");
    assert_eq!(key.len(), 16);
    assert!(u64::from_str_radix(key, 16).is_ok(), "{key}");
    e.send("eval");
    let eval = e.until(|l| l.starts_with("Static evaluation"));
    assert!(eval[0].contains(" cp"), "{eval:?}");
    e.quit();
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut e = Engine::uci();
    let start = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq";
    e.send("position startpos moves e2e4 e7e5");
    assert!(e.fen().starts_with(start));

    let cases = [
        ("frobnicate", "unknown command"),
        ("position fen rnbqkbnr/pppppppp/8 w - - 0 1", "position"),
        ("position fen", "FEN"),
        ("position somewhere", "startpos"),
        ("position startpos moves e2e4 e7e5 e1e3 g1f3", "e1e3"),
        ("position startpos moves e2e5", "e2e5"),
        ("setoption name Hash value 0", "out of range"),
        ("setoption name Threads value lots", "not a whole number"),
        ("setoption name MultiPV value 100000", "out of range"),
        ("setoption name Ponder value maybe", "true or false"),
        (
            "setoption name EvalMaterialOnly value perhaps",
            "true or false",
        ),
        (
            "setoption name UCI_Variant value tiddlywinks",
            "'tiddlywinks' is not one of chess, cannon",
        ),
        ("setoption name No Such Option value 3", "unknown option"),
        ("setoption Hash 3", "setoption"),
        ("bench -3", "bench"),
        ("go perft x", "perft"),
    ];
    for (cmd, why) in cases {
        e.send(cmd);
        let lines = e.sync();
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "'{cmd}' gave {lines:?}");
        assert!(errs[0].contains(why), "'{cmd}' gave {}", errs[0]);
        assert!(
            e.fen().starts_with(start),
            "'{cmd}' changed the position to {}",
            e.fen()
        );
    }
    // Still fully working.
    let lines = e.go("depth 2");
    assert!(!bestmove(&lines).is_empty());
    e.quit();
}

#[test]
fn go_with_bad_parameters_still_answers() {
    let mut e = Engine::uci();
    e.send("position startpos");
    let lines = e.go("depth x wibble depth 2");
    assert_eq!(errors(&lines).len(), 2, "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 2 ")));
    assert!(!lines.iter().any(|l| l.starts_with("info depth 3 ")));
    e.quit();
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::uci();
    e.send("position startpos");
    let lines = e.go("depth 3 searchmoves a2a3 h2h4");
    let best = bestmove(&lines);
    assert!(best == "a2a3" || best == "h2h4", "{best}");
    // Move strings that are not legal are reported and ignored.
    let lines = e.go("searchmoves b1c3 zz99 depth 2");
    assert_eq!(bestmove(&lines), "b1c3");
    assert_eq!(errors(&lines).len(), 1);
    e.quit();
}

#[test]
fn options_are_case_insensitive_and_multipv_works() {
    let mut e = Engine::uci();
    e.send("setoption name multipv value 3");
    e.send("setoption name hAsH value 4");
    e.send("setoption name clear hash");
    e.send("setoption name move overhead value 50");
    e.send("setoption name ponder value TRUE");
    assert!(errors(&e.sync()).is_empty());
    e.send("position startpos");
    let lines = e.go("depth 4");
    let depth4: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    let mut firsts = Vec::new();
    for k in 1..=3 {
        let line = depth4
            .iter()
            .find(|l| l.contains(&format!(" multipv {k} ")))
            .unwrap_or_else(|| panic!("no multipv {k}: {lines:#?}"));
        firsts.push(
            line.split(" pv ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap(),
        );
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "MultiPV lines must start differently");
    e.quit();
}

#[test]
fn finished_games_answer_depth_zero_and_no_move() {
    let mut e = Engine::uci();
    // Fool's mate: white is checkmated.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let lines = e.go("depth 5");
    assert_eq!(lines, ["info depth 0 score mate 0", "bestmove (none)"]);
    // Stalemate.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let lines = e.go("movetime 100");
    assert_eq!(lines, ["info depth 0 score cp 0", "bestmove (none)"]);
    // Insufficient material.
    e.send("position fen 8/8/3k4/8/8/3K4/8/8 w - - 0 1");
    assert_eq!(
        e.go("depth 3"),
        ["info depth 0 score cp 0", "bestmove (none)"]
    );
    e.quit();
}

/// Mates from known sources, each with a single shortest mate (checked against
/// Fairy-Stockfish with MultiPV 2).
#[test]
fn mates_in_n_are_found() {
    let cases = [
        // Paul Morphy's problem: 1.Ra6! bxa6 2.b7#.
        ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2, "a1a6"),
        // Win At Chess #1: 1.Qg6! fxg6 2.Nxg6#.
        (
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            2,
            "g3g6",
        ),
        // A classic trap: 1.Nf6+ gxf6 2.Bxf7#.
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            2,
            "d5f6",
        ),
        // Black mates: 1...Rg1+ 2.Kxg1 Rxf1#.
        (
            "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
            2,
            "g2g1",
        ),
        // 1.Ra6! f6 2.Bxf6+ Rg7 3.Rxa8#.
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, "f6a6"),
    ];
    let mut e = Engine::uci();
    for (fen, n, first) in cases {
        e.send(&format!("position fen {fen}"));
        // `go mate n` deepens until the mate is proven.
        let lines = e.go(&format!("mate {n}"));
        let info = &lines[lines.len() - 2];
        assert!(info.contains(&format!(" score mate {n} ")), "{fen}: {info}");
        assert_eq!(bestmove(&lines), first, "{fen}");
        // The side being mated sees the mirror score.
        e.send(&format!("position fen {fen} moves {first}"));
        let lines = e.go(&format!("depth {}", 2 * n + 1));
        let info = &lines[lines.len() - 2];
        assert!(
            info.contains(&format!(" score mate -{} ", n - 1)),
            "{fen} after {first}: {info}"
        );
    }
    e.quit();
    // A plain fixed-depth search finds them too, from a fresh engine (no histories left by an
    // earlier search to order the sacrifice first). Morphy's problem is left out: after
    // 1.Ra6 Black is in zugzwang, which the null move cannot see (passing would hold), so a
    // plain search needs about depth 22 for it; `go mate` above proves it.
    for (fen, n, first) in &cases[2..] {
        let mut e = Engine::uci();
        e.send(&format!("position fen {fen}"));
        let lines = e.go(&format!("depth {}", 2 * n + 2));
        assert_eq!(bestmove(&lines), *first, "{fen}");
        assert!(
            lines[lines.len() - 2].contains(&format!(" score mate {n} ")),
            "{fen}"
        );
        e.quit();
    }
}

#[test]
fn stop_isready_and_quit_are_answered_during_search() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    let before = e.sync();
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "an infinite search must wait for stop"
    );
    let t = Instant::now();
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "stop took {:?}",
        t.elapsed()
    );
    // The last line shown is the result's line, and nothing else comes between it and
    // bestmove. It may have come before `stop`: a completed iteration is not shown twice.
    let all: Vec<&String> = before.iter().chain(&lines).collect();
    let last_info = all
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth "))
        .expect("an info line");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(last_info.contains(&format!(" pv {best}")), "{all:#?}");
    assert!(!last_info.contains("bound "), "{all:#?}");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info depth ")),
        "{lines:#?}"
    );
    // An infinite search that reaches its depth limit still waits for stop.
    e.send("go infinite depth 2");
    thread::sleep(Duration::from_millis(100));
    assert!(!e.sync().iter().any(|l| l.starts_with("bestmove")));
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    // quit in the middle of a search ends the process.
    e.send("go infinite");
    thread::sleep(Duration::from_millis(50));
    e.quit();
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Engine::uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 300 btime 300");
    thread::sleep(Duration::from_millis(600));
    assert!(
        !e.sync().iter().any(|l| l.starts_with("bestmove")),
        "no bestmove while pondering, whatever the clock says"
    );
    let t = Instant::now();
    e.send("ponderhit");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        t.elapsed() < Duration::from_millis(300),
        "{:?}",
        t.elapsed()
    );
    assert!(lines.last().unwrap().contains(" ponder "), "{lines:?}");
    // A ponder search can also be stopped (the opponent played something else).
    e.send("go ponder wtime 300 btime 300");
    thread::sleep(Duration::from_millis(100));
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    e.quit();
}

#[test]
fn node_time_and_clock_limits_are_kept() {
    let mut e = Engine::uci();
    e.send("position startpos");
    let lines = e.go("nodes 3000");
    let last_info = &lines[lines.len() - 2];
    let nodes: u64 = last_info
        .split(" nodes ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes <= 3000 + 2048, "{last_info}");

    // A fixed move time is used in full (less the move overhead, 30 ms by default).
    let t = Instant::now();
    e.go("movetime 150");
    let spent = t.elapsed();
    assert!(spent >= Duration::from_millis(110), "{spent:?}");
    assert!(spent < Duration::from_millis(400), "{spent:?}");

    let t = Instant::now();
    e.go("wtime 200 btime 200 winc 0 binc 0");
    assert!(
        t.elapsed() < Duration::from_millis(200),
        "{:?}",
        t.elapsed()
    );

    let t = Instant::now();
    e.go("wtime 10000 btime 10000 movestogo 1");
    assert!(t.elapsed() < Duration::from_millis(10_000));

    // Out of time (a GUI may send negative clocks): still a move, fast.
    let t = Instant::now();
    let lines = e.go("wtime -5 btime 100");
    assert!(t.elapsed() < Duration::from_millis(200));
    assert_ne!(bestmove(&lines), "(none)");
    e.quit();
}

#[test]
fn two_threads_search_correctly() {
    let mut e = Engine::uci();
    e.send("setoption name Threads value 2");
    e.send("position fen 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    let lines = e.go("mate 2");
    assert_eq!(bestmove(&lines), "g3g6");
    e.send("position startpos");
    let legal = e.legal_moves();
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(legal.contains(&bestmove(&lines)));
    e.quit();
}

#[test]
fn perft_through_uci_matches_the_reference() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 21);
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send("go perft 2");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 2039");
    e.quit();
}

fn bench_nodes(lines: &[String]) -> u64 {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .expect("node count")
        .parse()
        .unwrap()
}

#[test]
fn bench_is_deterministic_in_uci_and_on_the_command_line() {
    let mut e = Engine::uci();
    // Settings that must not matter to bench.
    e.send("setoption name Threads value 2");
    e.send("setoption name Hash value 2");
    e.send("bench 5");
    let a = e.until(|l| l.starts_with("Nodes/second"));
    e.send("position startpos moves e2e4");
    e.go("depth 4");
    e.send("bench 5");
    let b = e.until(|l| l.starts_with("Nodes/second"));
    assert_eq!(bench_nodes(&a), bench_nodes(&b));
    assert!(bench_nodes(&a) > 1000);
    e.quit();

    let out = Command::new(env!("CARGO_BIN_EXE_cannonade"))
        .args(["bench", "--depth", "5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<String> = text.lines().map(String::from).collect();
    assert_eq!(bench_nodes(&lines), bench_nodes(&a));
    assert!(lines.iter().any(|l| l.starts_with("Nodes/second: ")));
}

#[test]
fn ucinewgame_and_variant_selection() {
    let mut e = Engine::uci();
    e.send("ucinewgame");
    e.send("setoption name UCI_Variant value chess");
    // Orthodox chess prints no variant line.
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send("position startpos");
    let lines = e.go("depth 3");
    assert!(!bestmove(&lines).is_empty());
    e.quit();
}

#[test]
fn end_of_input_lets_a_fixed_search_finish() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cannonade"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"position startpos\ngo depth 3\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines().last().unwrap().starts_with("bestmove "),
        "{text}"
    );
}

/// The score of `go depth 1` in `position`.
fn depth_one_score(e: &mut Engine, position: &str) -> String {
    e.send(position);
    let lines = e.go("depth 1");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 1 "))
        .expect("an info line");
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score").unwrap();
    format!("{} {}", words[at + 1], words[at + 2])
}

#[test]
fn eval_material_only_scores_material_alone() {
    // After 1.e4 nothing can be captured at depth 1, so a material-only search scores exactly
    // level; the hand-written evaluation sees development and the centre. (Chess's net is
    // turned off to compare with the hand-written evaluation: it may score this level too.)
    let quiet = "position startpos moves e2e4";
    let mut e = Engine::uci();
    e.send("setoption name Use NNUE value false");
    let full = depth_one_score(&mut e, quiet);
    assert_ne!(full, "cp 0", "the full evaluation sees more than material");
    e.send("setoption name EvalMaterialOnly value true");
    assert_eq!(depth_one_score(&mut e, quiet), "cp 0");
    // Material only overrides the net as well.
    e.send("setoption name Use NNUE value true");
    assert_eq!(depth_one_score(&mut e, quiet), "cp 0");
    // White to move a queen up (black's queen removed): the queen's value, nothing else.
    let queen_up = "position fen rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let material = depth_one_score(&mut e, queen_up);
    assert_eq!(material, "cp 1025");
    e.quit();
}

/// The strength options in every game: at the weakest `UCI_Elo` and at `Skill Level` 3 the
/// engine plays a game's first moves legally and well within a short clock.
#[test]
fn weak_levels_play_legal_moves_in_time_in_every_game() {
    let mut e = Engine::uci();
    for info in cannonade_core::engine::VARIANTS {
        for (option, value) in [("UCI_LimitStrength", "true"), ("Skill Level", "3")] {
            e.send(&format!(
                "setoption name UCI_Variant value {}",
                info.game.name
            ));
            e.send("setoption name UCI_LimitStrength value false");
            e.send("setoption name UCI_Elo value 500");
            e.send(&format!("setoption name {option} value {value}"));
            e.send("ucinewgame");
            let mut moves: Vec<String> = Vec::new();
            for _ in 0..8 {
                e.send(&format!("position startpos moves {}", moves.join(" ")));
                let legal = e.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let t = Instant::now();
                let lines = e.go("wtime 400 btime 400 winc 5 binc 5");
                assert!(
                    t.elapsed() < Duration::from_millis(400),
                    "{}: {:?}",
                    info.game.name,
                    t.elapsed()
                );
                let m = bestmove(&lines);
                assert!(
                    legal.contains(&m),
                    "{}: {m} not in {legal:?}",
                    info.game.name
                );
                moves.push(m);
            }
        }
    }
    e.quit();
}

/// The `wdl W D L` of a score line, checked to follow the score (and its bound-free value)
/// and to sum to 1000; `None` without one.
fn wdl_of(line: &str) -> Option<[u32; 3]> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "wdl")?;
    let score = words.iter().position(|&w| w == "score").expect("a score");
    assert_eq!(at, score + 3, "wdl right after the score: {line}");
    let n = |i: usize| -> u32 { words[at + i].parse().expect("a per mille number") };
    let w = [n(1), n(2), n(3)];
    assert_eq!(w.iter().sum::<u32>(), 1000, "{line}");
    Some(w)
}

#[test]
fn show_wdl_puts_win_chances_on_every_score_line() {
    let mut e = Engine::uci();
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name MultiPV value 2");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let lines = e.go("depth 6");
    let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(scored.len() >= 6, "{lines:#?}");
    for l in &scored {
        assert!(wdl_of(l).is_some(), "no wdl: {l}");
    }
    // A mate found is a sure win.
    e.send("setoption name MultiPV value 1");
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30");
    let lines = e.go("depth 4");
    let last = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    assert!(last.contains("score mate 1"), "{last}");
    assert_eq!(wdl_of(last), Some([1000, 0, 0]));
    // Cannon Shogi has no draws, and its chances say so.
    e.send("setoption name UCI_Variant value cannonshogi");
    e.send("position startpos");
    for l in e.go("depth 3").iter().filter(|l| l.contains(" score ")) {
        assert_eq!(wdl_of(l).expect("wdl")[1], 0, "{l}");
    }
    // Off again: no line carries them.
    e.send("setoption name UCI_ShowWDL value false");
    let lines = e.go("depth 3");
    assert!(lines.iter().any(|l| l.contains(" score ")));
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:#?}");
    e.quit();
}

#[test]
fn eval_gives_the_win_chances_of_the_evaluation() {
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4");
    e.send("eval");
    let lines = e.until(|l| l.starts_with("Win chances"));
    let line = lines.last().unwrap();
    let wdl: Vec<u32> = line
        .rsplit_once("wdl ")
        .expect("wdl W D L")
        .1
        .trim_end_matches(')')
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(wdl.len(), 3, "{line}");
    assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
    // Black to move after 1.e4 in chess: not lost, and a draw is possible.
    assert!(wdl[1] > 0 && wdl[2] < 900, "{line}");
    e.quit();
}
