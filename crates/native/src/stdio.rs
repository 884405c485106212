//! The protocol loop on standard input and output, as a GUI runs the engine: input is read on
//! a thread of its own (so that `stop` and `isready` are read while a search runs), the first
//! command chooses the protocol, each line goes to the protocol's adapter, and its answers go
//! out line by line.
//!
//! One channel carries everything the loop acts on, in the order it happened: the lines read,
//! the end of the input, and the adapter's wake-ups (a search or job ended: the adapter acts on
//! it on this thread, as XBoard plays its move). Nothing here polls or sleeps.

use cannonade_core::host::Host;
use cannonade_core::protocol::uci::Uci;
use cannonade_core::protocol::xboard::XBoard;
use cannonade_core::protocol::{Adapter, Output};
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// At the end of input a running search with a limit (or a `perft`) gets this long to finish
/// by itself (so a piped `go depth 5` still answers); then it is stopped, its move printed, and
/// the loop ends.
pub const END_OF_INPUT_GRACE: Duration = Duration::from_millis(500);

/// What the loop acts on.
enum Incoming {
    Line(String),
    /// The input ended (or could not be read any more).
    End,
    /// The adapter has something to act on.
    Wake,
}

/// The engine on this process's standard input and output, until `quit` or the end of input.
pub fn run(host: Arc<dyn Host>) {
    serve(host, std::io::stdin(), |line| {
        // A closed output (the GUI went away) is no reason to panic; the end of input follows.
        // Standard output is line-buffered: each line leaves at once.
        let _ = writeln!(std::io::stdout().lock(), "{line}");
    });
}

/// The protocol loop over any input, writing each line of output with `write` (from any
/// thread, one whole line at a time). Returns after `quit`, or after the end of input and what
/// it lets finish.
pub fn serve(
    host: Arc<dyn Host>,
    input: impl Read + Send + 'static,
    write: impl Fn(&str) + Send + Sync + 'static,
) {
    let (tx, rx) = mpsc::channel();
    read_lines(input, tx.clone());
    let out = Output::new(write, move || {
        let _ = tx.send(Incoming::Wake);
    });
    let Some((mut adapter, first)) = choose_protocol(&rx, host, out) else {
        return;
    };
    if !adapter.handle(&first) {
        return adapter.finish();
    }
    loop {
        match rx.recv() {
            Ok(Incoming::Line(line)) => {
                if !adapter.handle(&line) {
                    return adapter.finish();
                }
            }
            Ok(Incoming::Wake) => adapter.on_wake(),
            Ok(Incoming::End) | Err(_) => break,
        }
    }
    // End of input: the GUI is gone. Work that ends by itself gets a moment to do so (a piped
    // transcript gets its answer); then everything is stopped, and the answers owed are given.
    // The engine never outlives its input by much more than `END_OF_INPUT_GRACE`.
    let deadline = Instant::now() + END_OF_INPUT_GRACE;
    while adapter.working() {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Incoming::Wake) => adapter.on_wake(),
            Ok(_) => {}
            Err(_) => break,
        }
    }
    adapter.finish();
}

/// Reads `input` line by line on a thread of its own. Invalid UTF-8 is replaced rather than
/// ending the input; the end of input is sent as such.
fn read_lines(input: impl Read + Send + 'static, tx: Sender<Incoming>) {
    thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut input = BufReader::new(input);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(Incoming::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Incoming::End);
        })
        .expect("cannot start the input thread");
}

/// The first command picks the protocol: `xboard` the XBoard (CECP) adapter, any other (`uci`,
/// or another command, as UCI engines usually accept) UCI. `quit` or the end of input before
/// any command ends the loop. Returns the adapter and the line that chose it.
fn choose_protocol(
    rx: &Receiver<Incoming>,
    host: Arc<dyn Host>,
    out: Output,
) -> Option<(Box<dyn Adapter>, String)> {
    loop {
        let Ok(Incoming::Line(line)) = rx.recv() else {
            return None;
        };
        let adapter: Box<dyn Adapter> = match line.split_whitespace().next() {
            None => continue,
            Some("quit") => return None,
            Some("xboard") => Box::new(XBoard::new(host, out)),
            Some(_) => Box::new(Uci::new(host, out)),
        };
        return Some((adapter, line));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simple_host::SimpleHost;
    use std::io::Cursor;
    use std::sync::Mutex;

    /// Everything the loop writes for `input`, once it has returned.
    fn transcript(input: &str) -> Vec<String> {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let written = Arc::clone(&lines);
        serve(
            Arc::new(SimpleHost::new()),
            Cursor::new(input.to_string().into_bytes()),
            move |l| written.lock().unwrap().push(l.to_string()),
        );
        let out = lines.lock().unwrap().clone();
        out
    }

    #[test]
    fn the_first_command_chooses_the_protocol() {
        let xb = transcript("xboard\nprotover 2\nping 7\n");
        assert_eq!(xb.first().map(String::as_str), Some("feature done=0"));
        assert_eq!(xb.last().map(String::as_str), Some("pong 7"));
        let uci = transcript("uci\n");
        assert_eq!(uci.last().map(String::as_str), Some("uciok"));
        // Any other command speaks UCI; blank lines before it choose nothing.
        assert_eq!(transcript("\n  \nisready\n"), ["readyok"]);
        assert_eq!(transcript("ping 1\nisready\n").last().unwrap(), "readyok");
        // `quit` first, or no command at all: nothing is said.
        assert!(transcript("quit\nuci\n").is_empty());
        assert!(transcript("").is_empty());
    }

    #[test]
    fn quit_ends_the_loop_and_a_search_gives_its_move() {
        let out = transcript("uci\ngo infinite\nquit\nisready\n");
        assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
        assert!(!out.contains(&"readyok".to_string()), "nothing after quit");
        // XBoard drops the move of a search that `quit` interrupts.
        let out = transcript("xboard\nnew\nlevel 0 60 0\nusermove e2e4\nquit\nping 1\n");
        assert!(out.iter().all(|l| !l.starts_with("move ") && l != "pong 1"));
    }

    #[test]
    fn the_end_of_input_lets_a_search_with_a_limit_finish_and_stops_the_others() {
        let out = transcript("position startpos\ngo depth 3\n");
        assert!(
            out.iter().any(|l| l.starts_with("info depth 3 ")),
            "{out:?}"
        );
        assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
        // An infinite search is stopped at once, with its move.
        let out = transcript("uci\ngo infinite\n");
        assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
        // XBoard: the move thought about is played, and a search to a depth finishes first.
        let out = transcript("xboard\nnew\nforce\nsd 3\ngo\n");
        assert!(out.last().unwrap().starts_with("move "), "{out:?}");
        let out = transcript("xboard\nnew\nlevel 0 600 0\ntime 99999999\nusermove e2e4\n");
        assert!(out.last().unwrap().starts_with("move "), "{out:?}");
        // Analysis just stops; a perft finishes.
        let out = transcript("xboard\nnew\npost\nanalyze\n");
        assert!(out.iter().all(|l| !l.starts_with("move ")), "{out:?}");
        let out = transcript("xboard\nnew\nperft 2\n");
        assert_eq!(out.last().unwrap(), "perft 2: 400");
    }
}
