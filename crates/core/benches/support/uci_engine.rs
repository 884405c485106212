//! A persistent external UCI engine, for timing its `go perft` side by side with ours. Only the
//! search is timed: the process is started and the variant set up before measuring.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl UciEngine {
    /// Starts `path` and sends `setup` commands (e.g. `setoption ...`), waiting for `readyok`.
    pub fn start(path: &str, setup: &[String]) -> std::io::Result<Self> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut e = UciEngine {
            child,
            stdin,
            stdout,
        };
        e.send("uci");
        e.wait_for("uciok");
        for cmd in setup {
            e.send(cmd);
        }
        e.send("isready");
        e.wait_for("readyok");
        Ok(e)
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine stdin");
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`; returns it.
    pub fn wait_for(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line).unwrap() == 0 {
                panic!("engine closed its output while waiting for '{prefix}'");
            }
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    }

    /// Runs `go perft depth` on `position` and returns the node count and the time it took.
    pub fn perft(&mut self, position: &str, depth: u32) -> (u64, Duration) {
        self.send(position);
        self.send("isready");
        self.wait_for("readyok");
        let start = Instant::now();
        self.send(&format!("go perft {depth}"));
        let line = self.wait_for("Nodes searched");
        let elapsed = start.elapsed();
        let nodes = line.rsplit(' ').next().unwrap().parse().unwrap();
        (nodes, elapsed)
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}
