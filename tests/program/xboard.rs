//! XBoard (CECP v2) through the real binary, for what only the program shows: `xboard` as the
//! first command choosing the protocol, and `quit` ending the process. The protocol's logic
//! is tested in-process (crates/core/tests/suite/protocols); the end of input in
//! tests/program/protocol_hardening.rs.

use crate::protocol_support;

use protocol_support::{Engine, ANSWER};

#[test]
fn xboard_first_chooses_the_protocol() {
    let mut e = Engine::start();
    e.send("xboard").unwrap();
    e.send("protover 2").unwrap();
    let features = e.until(ANSWER, |l| l == "feature done=1").unwrap();
    assert_eq!(features[0], "feature done=0", "{features:?}");
    assert!(
        features.iter().any(|l| l.contains(" ping=1 ")),
        "{features:?}"
    );
    // Answered in XBoard's form, not UCI's.
    e.send("frobnicate").unwrap();
    assert_eq!(
        e.sync_xboard().unwrap(),
        ["Error (unknown command): frobnicate"]
    );
}

#[test]
fn quit_ends_the_process_even_while_thinking() {
    let mut e = Engine::start();
    for cmd in ["xboard", "protover 2", "new", "post", "level 0 600 0"] {
        e.send(cmd).unwrap();
    }
    e.send("usermove e2e4").unwrap();
    // Thinking: its lines come (thinking lines begin with the depth).
    e.until(ANSWER, |l| l.starts_with("2 ")).unwrap();
    e.send("quit").unwrap();
    assert!(e.exits_within(ANSWER), "still running after quit");
}
