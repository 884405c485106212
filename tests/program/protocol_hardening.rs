//! Regression tests for issue 16 ("Protocol hardening") that need the real binary: the end of
//! input (the process must leave, giving the answers owed) and the memory the process holds
//! (tables the machine cannot give, tables never held twice). The other examples (huge
//! clocks, lost moves, blocking jobs, unhelpful answers, impossible positions) test the
//! protocols' logic and run in-process (crates/core/tests/suite/protocols).

use crate::protocol_support;

use protocol_support::{Engine, ANSWER};

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci").unwrap();
    e.until(ANSWER, |l| l == "uciok").unwrap();
    e
}

fn xboard() -> Engine {
    let mut e = Engine::start();
    e.send("xboard").unwrap();
    e.send("protover 2").unwrap();
    e.until(ANSWER, |l| l.contains("done=1")).unwrap();
    e.send("new").unwrap();
    e
}

fn run_xb(e: &mut Engine, cmds: &[&str]) -> Vec<String> {
    for c in cmds {
        e.send(c).unwrap();
    }
    e.sync_xboard().unwrap()
}

fn run_uci(e: &mut Engine, cmds: &[&str]) -> Vec<String> {
    for c in cmds {
        e.send(c).unwrap();
    }
    e.sync_uci().unwrap()
}

fn is_move(l: &str) -> bool {
    l.starts_with("move ")
}

/// Waits for the engine's `move` line (thinking lines are skipped).
fn xb_move(e: &mut Engine) -> String {
    let lines = e.until(ANSWER, is_move).unwrap();
    lines.last().unwrap()["move ".len()..].to_string()
}

/// Sends commands that start a search and waits for its move. No `ping` in between: a short
/// search can move before the engine reads the `ping`, and a sync would swallow the move.
fn xb_play(e: &mut Engine, cmds: &[&str]) -> String {
    for c in cmds {
        e.send(c).unwrap();
    }
    xb_move(e)
}

// ---- Crash: a table the machine cannot give -------------------------------------------

#[test]
fn xboard_memory_beyond_the_machine_is_refused_and_the_engine_plays_on() {
    let mut e = xboard();
    // 64 GB: refused on a machine that cannot give it, accepted (and not touched) on one that
    // can. Either way the engine lives on and plays.
    let out = run_xb(&mut e, &["memory 65536", "memory 65536"]);
    for l in &out {
        assert!(
            l.starts_with("Error (option Hash: cannot allocate"),
            "{out:?}"
        );
    }
    // Resident memory stays small whatever was granted: the table is touched only as used.
    if let Some(mb) = e.rss_mb() {
        assert!(mb < 200, "resident {mb} MB after memory 65536");
    }
    assert!(!xb_play(&mut e, &["sd 2", "usermove e2e4"]).is_empty());
}

#[test]
fn uci_hash_beyond_the_machine_is_refused_and_the_old_size_kept() {
    let mut e = uci();
    let out = run_uci(&mut e, &["setoption name Hash value 1048576"]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].contains("cannot allocate"), "{out:?}");
    e.send("go depth 3").unwrap();
    e.until(ANSWER, |l| l.starts_with("bestmove ")).unwrap();
}

// ---- No exit: end of input -------------------------------------------------------------

/// After the end of input the answer owed (`expect`) comes and the process leaves by itself.
/// (The grace a search with a limit gets, and what is stopped after it, is the native loop's:
/// crates/native/src/stdio.rs tests it; here the waits only tell a hang from an answer.)
fn exits_after_end_of_input(mut e: Engine, expect: &str) {
    e.close_input();
    let lines = e.until(ANSWER, |l| l.starts_with(expect));
    assert!(
        lines.is_ok(),
        "no '{expect}' after the end of input: {lines:?}"
    );
    assert!(e.exits_within(ANSWER), "still running");
}

#[test]
fn uci_end_of_input_ends_an_infinite_search() {
    let mut e = uci();
    run_uci(&mut e, &["position startpos"]);
    e.send("go infinite").unwrap();
    exits_after_end_of_input(e, "bestmove ");
}

#[test]
fn uci_end_of_input_ends_a_search_on_the_opponents_clock_only() {
    let mut e = uci();
    run_uci(&mut e, &["position startpos"]);
    e.send("go btime 100000 binc 1000").unwrap();
    exits_after_end_of_input(e, "bestmove ");
}

#[test]
fn uci_end_of_input_ends_a_long_perft() {
    let mut e = uci();
    e.send("go perft 9").unwrap();
    exits_after_end_of_input(e, "info string perft stopped");
}

#[test]
fn xboard_end_of_input_ends_thinking_and_analysis() {
    let mut e = xboard();
    run_xb(&mut e, &["level 0 600 0", "time 99999999", "usermove e2e4"]);
    exits_after_end_of_input(e, "move ");
    let mut e = xboard();
    run_xb(&mut e, &["post", "analyze"]);
    e.close_input();
    assert!(e.exits_within(ANSWER), "still running");
}

// ---- Memory: tables made, emptied and replaced -------------------------------------------

/// A big table is ready at once: fresh zeroed memory, never written with zeros, so it is not
/// resident until used (and emptying it gives the memory back rather than writing it).
#[test]
fn a_big_hash_is_ready_at_once_and_not_resident() {
    let mut e = uci();
    let out = run_uci(&mut e, &["setoption name Hash value 8192"]);
    // Refused only where the machine cannot give 8 GB at all.
    assert!(
        out.is_empty() || out[0].contains("cannot allocate"),
        "{out:?}"
    );
    run_uci(&mut e, &["ucinewgame", "setoption name Clear Hash"]);
    if let Some(mb) = e.rss_mb() {
        assert!(mb < 200, "resident {mb} MB");
    }
}

/// Before: a new table was built before the old one was freed (twice the memory for a while),
/// and a table was written with zeros when it was made. Now the old table's memory goes back
/// first, and a new one is fresh zeroed memory: neither the address space (`VmPeak`) ever holds
/// two tables nor does the resident memory (`VmHWM`) ever hold one that was not used. (The
/// search comes last: on Linux the table asks for 2 MB pages, so a search makes its table
/// resident 2 MB at a time, and even a shallow one touches hundreds of them.)
#[test]
fn xboard_memory_sent_again_does_not_double_the_memory() {
    let mut e = xboard();
    let out = run_xb(&mut e, &["memory 1024"]);
    assert!(out.iter().all(|l| !l.starts_with("Error")), "{out:?}");
    let Some(peak) = e.status_mb("VmPeak") else {
        return; // no /proc here
    };
    assert!(peak >= 1024, "VmPeak {peak} MB with a 1024 MB table");
    let out = run_xb(
        &mut e,
        &[
            "memory 1024",
            "memory 1024",
            "new",
            "memory 1000",
            "memory 1024",
            "new",
            "variant cannon",
            "memory 1024",
        ],
    );
    assert!(out.iter().all(|l| !l.starts_with("Error")), "{out:?}");
    let now = e.status_mb("VmPeak").unwrap();
    assert!(now < peak + 512, "VmPeak {peak} MB, then {now} MB");
    let hwm = e.status_mb("VmHWM").unwrap();
    assert!(hwm < 200, "resident at most {hwm} MB");
    xb_play(&mut e, &["force", "sd 3", "go"]);
}

#[test]
fn uci_hash_changes_never_hold_two_tables() {
    let mut e = uci();
    run_uci(&mut e, &["setoption name Hash value 1024"]);
    e.send("go depth 5").unwrap();
    e.until(ANSWER, |l| l.starts_with("bestmove")).unwrap();
    let Some(peak) = e.status_mb("VmPeak") else {
        return;
    };
    let out = run_uci(
        &mut e,
        &[
            "setoption name Hash value 1024",
            "setoption name Hash value 1000",
            "ucinewgame",
            "setoption name Clear Hash",
            "setoption name Hash value 1024",
            "setoption name UCI_Variant value cannonshogi",
        ],
    );
    assert!(out.iter().all(|l| !l.contains("error")), "{out:?}");
    let now = e.status_mb("VmPeak").unwrap();
    assert!(now < peak + 512, "VmPeak {peak} MB, then {now} MB");
    e.send("go depth 3").unwrap();
    e.until(ANSWER, |l| l.starts_with("bestmove")).unwrap();
}

/// The example exactly, on any machine: with the address space limited, `memory 30000`
/// and `Hash` 30000 cannot be had. They are refused, the engine plays on with the table it
/// had, and a size that fits alone is granted even where it would not fit beside the old one.
#[test]
fn a_table_the_address_space_cannot_hold_is_refused_in_both_protocols() {
    // Room for the program and one 1.3 GB table, not for two 1.2 GB ones.
    const LIMIT_MB: u64 = 2200;
    let mut e = Engine::start_with_address_space(LIMIT_MB);
    e.send("xboard").unwrap();
    e.send("protover 2").unwrap();
    e.until(ANSWER, |l| l.contains("done=1")).unwrap();
    let out = run_xb(&mut e, &["new", "memory 30000"]);
    assert_eq!(
        out,
        vec![
            "Error (option Hash: cannot allocate 30000 MB for the hash table; the table stays \
             at 16 MB): memory 30000"
        ]
    );
    assert!(!xb_play(&mut e, &["sd 3", "usermove e2e4"]).is_empty());
    let out = run_xb(
        &mut e,
        &["memory 1200", "memory 1300", "new", "memory 1300"],
    );
    assert!(out.is_empty(), "{out:?}");
    assert!(!xb_play(&mut e, &["sd 3", "usermove e2e4"]).is_empty());

    let mut e = Engine::start_with_address_space(LIMIT_MB);
    e.send("uci").unwrap();
    e.until(ANSWER, |l| l == "uciok").unwrap();
    let out = run_uci(&mut e, &["setoption name Hash value 30000"]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].contains("cannot allocate 30000 MB") && out[0].contains("stays at 16 MB"),
        "{out:?}"
    );
    let out = run_uci(
        &mut e,
        &[
            "setoption name Hash value 1200",
            "setoption name Hash value 1300",
            "ucinewgame",
            "setoption name Clear Hash",
        ],
    );
    assert!(out.is_empty(), "{out:?}");
    e.send("go depth 4").unwrap();
    e.until(ANSWER, |l| l.starts_with("bestmove ")).unwrap();
}
