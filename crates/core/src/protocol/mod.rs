//! Protocol adapters: UCI and XBoard, thin translators between lines of text and the engine
//! facade ([`crate::engine`]).
//!
//! [`run_stdin`] reads standard input on its own thread (so commands such as `stop` and
//! `isready` are read while a search runs) and lets the first command choose the protocol.

pub mod uci;
pub mod xboard;

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

/// At the end of input a running search gets this long to finish by itself (so a piped
/// `go depth 5` still answers); then it is stopped, its move printed, and the engine exits.
pub const END_OF_INPUT_GRACE: Duration = Duration::from_millis(500);

/// Lines of input, read by a separate thread. The channel closes at end of input.
pub type Input = Receiver<String>;

pub use crate::engine::text::{clip, clip_message, ECHO_CHARS};

/// Reads a whole number as a GUI sends it (an optional sign, then digits), saturating at the
/// ends of `i64` instead of refusing numbers too long for it. `None` if it is not a number.
pub fn parse_int_saturating(s: &str) -> Option<i64> {
    let (negative, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match digits.parse::<i64>() {
        Ok(v) if negative => -v,
        Ok(v) => v,
        Err(_) if negative => i64::MIN,
        Err(_) => i64::MAX,
    })
}

/// [`parse_int_saturating`], with negative numbers read as zero (a clock that ran out).
pub fn parse_count(s: &str) -> Option<u64> {
    parse_int_saturating(s).map(|v| v.max(0) as u64)
}

/// Starts the reader thread. Invalid UTF-8 is replaced rather than ending the input.
pub fn spawn_stdin_reader() -> Input {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match lock.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        })
        .expect("cannot start the input thread");
    rx
}

/// The default command: reads stdin, and the first command picks the protocol. `uci` (or any
/// other command, as UCI engines usually accept) runs UCI; `xboard` runs the XBoard (CECP)
/// adapter.
pub fn run_stdin(host: crate::host::SharedHost, seed: u64) {
    let input = spawn_stdin_reader();
    while let Ok(line) = input.recv() {
        let first = line.split_whitespace().next().unwrap_or("");
        match first {
            "" => continue,
            "quit" => return,
            "xboard" => {
                xboard::XBoard::new(host, seed).run(Some(line), &input);
                return;
            }
            _ => {
                uci::Uci::new(host, seed).run(Some(line), &input);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_saturate() {
        assert_eq!(parse_int_saturating("42"), Some(42));
        assert_eq!(parse_int_saturating("-7"), Some(-7));
        assert_eq!(parse_int_saturating("+7"), Some(7));
        assert_eq!(
            parse_int_saturating("99999999999999999999999"),
            Some(i64::MAX)
        );
        assert_eq!(
            parse_int_saturating("-99999999999999999999"),
            Some(i64::MIN)
        );
        for bad in ["", "-", "1.5", "x", "1e3", " 1", "--1"] {
            assert_eq!(parse_int_saturating(bad), None, "{bad}");
        }
        assert_eq!(parse_count("-5"), Some(0));
    }

    #[test]
    fn echoes_are_clipped() {
        assert_eq!(clip("short"), "short");
        let long = "é".repeat(1000);
        let c = clip(&long);
        assert_eq!(c.chars().count(), ECHO_CHARS + 3);
        assert!(c.ends_with("..."));
    }
}
