//! UCI through the real binary, for what only the program shows: the protocol chosen by the
//! first command, output leaving line by line while the engine runs, `quit` ending the
//! process, the end of input, and `bench` giving the same count in UCI as on the command
//! line. The protocol's logic is tested in-process (crates/core/tests/suite/protocols).

use crate::protocol_support;

use protocol_support::{Engine, ANSWER};
use std::io::Write;
use std::process::{Command, Stdio};

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci").unwrap();
    e.until(ANSWER, |l| l == "uciok").unwrap();
    e
}

/// The whole output of the program for `input` on its standard input (closed after it).
fn transcript(input: &str) -> Vec<String> {
    let mut child = Command::new(protocol_support::engine_path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn any_first_command_but_xboard_speaks_uci() {
    let out = transcript("uci\n");
    assert!(out[0].starts_with("id name Cannonade"), "{out:?}");
    assert_eq!(out.last().unwrap(), "uciok");
    // Blank lines choose nothing; another command speaks UCI (and is answered in UCI).
    let out = transcript("\n\nfrobnicate\nisready\n");
    assert_eq!(
        out,
        ["info string error: unknown command 'frobnicate'", "readyok"]
    );
    // `quit` before any command: nothing said.
    assert!(transcript("quit\nuci\n").is_empty());
}

#[test]
fn answers_leave_at_once_while_the_engine_runs() {
    // Each answer arrives while the input is still open: nothing waits in a buffer.
    let mut e = uci();
    assert_eq!(e.sync_uci().unwrap(), Vec::<String>::new());
    e.send("position startpos").unwrap();
    e.send("go infinite").unwrap();
    e.until(ANSWER, |l| l.starts_with("info depth 2 ")).unwrap();
    e.send("stop").unwrap();
    e.until(ANSWER, |l| l.starts_with("bestmove ")).unwrap();
}

#[test]
fn quit_ends_the_process_even_in_a_search() {
    let mut e = uci();
    e.send("go infinite").unwrap();
    e.until(ANSWER, |l| l.starts_with("info depth 1 ")).unwrap();
    e.send("quit").unwrap();
    // The search's move is given, and the process ends.
    e.until(ANSWER, |l| l.starts_with("bestmove ")).unwrap();
    assert!(e.exits_within(ANSWER), "still running after quit");
}

#[test]
fn end_of_input_lets_a_fixed_search_finish() {
    let out = transcript("position startpos\ngo depth 3\n");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 3 ")),
        "{out:?}"
    );
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
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
fn bench_counts_the_same_in_uci_and_on_the_command_line() {
    let mut e = uci();
    e.send("bench 5").unwrap();
    let in_uci = e.until(ANSWER, |l| l.starts_with("Nodes/second")).unwrap();
    let out = Command::new(protocol_support::engine_path())
        .args(["bench", "--depth", "5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<String> = text.lines().map(String::from).collect();
    assert_eq!(bench_nodes(&lines), bench_nodes(&in_uci));
    assert!(lines.iter().any(|l| l.starts_with("Nodes/second: ")));
}
