//! Protocol adapters and the engine facade they talk to.
//!
//! [`run_stdin`] reads standard input on its own thread (so commands such as `stop` and
//! `isready` are read while a search runs) and lets the first command choose the protocol.

pub mod engine;
pub mod uci;
pub mod xboard;

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver};
use std::thread;

/// Lines of input, read by a separate thread. The channel closes at end of input.
/// The engine option that switches evaluation to material alone: the baseline each game's
/// evaluation is measured against in matches (see `SearchOptions::material_only`).
pub const EVAL_MATERIAL_ONLY: &str = "EvalMaterialOnly";

pub type Input = Receiver<String>;

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
pub fn run_stdin() {
    let input = spawn_stdin_reader();
    while let Ok(line) = input.recv() {
        let first = line.split_whitespace().next().unwrap_or("");
        match first {
            "" => continue,
            "quit" => return,
            "xboard" => {
                xboard::XBoard::new().run(Some(line), &input);
                return;
            }
            _ => {
                uci::Uci::new().run(Some(line), &input);
                return;
            }
        }
    }
}
