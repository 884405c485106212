//! A spawned `cannonade` for protocol tests: commands on its stdin, answers read from its
//! stdout on a thread, every wait bounded. Failures come back as `Err` (the fuzzer reports
//! them with the seed and the transcript) rather than panics.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long an answer may take on a loaded machine before it counts as a hang.
pub const ANSWER: Duration = Duration::from_secs(10);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    pings: u64,
    /// Every command sent, for reports.
    pub sent: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::spawn(Command::new(engine_path()))
    }

    /// The engine with its address space limited to `mb` MB (`ulimit -v`), so that memory
    /// it asks for beyond that is refused as on a machine that has no more.
    pub fn start_with_address_space(mb: u64) -> Engine {
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg("ulimit -v \"$1\" && exec \"$0\"")
            .arg(engine_path())
            .arg((mb * 1024).to_string());
        Engine::spawn(c)
    }

    fn spawn(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let l = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            pings: 0,
            sent: Vec::new(),
        }
    }

    pub fn send(&mut self, cmd: &str) -> Result<(), String> {
        self.sent.push(cmd.to_string());
        let stdin = self.stdin.as_mut().ok_or("input already closed")?;
        writeln!(stdin, "{cmd}")
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("engine does not read its input any more ({e}): crashed?"))
    }

    /// Closes the engine's input (the GUI went away).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Every line up to and including the first that satisfies `done`, within `wait`.
    pub fn until(
        &mut self,
        wait: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + wait;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let stop = done(&l);
                    out.push(l);
                    if stop {
                        return Ok(out);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer within {wait:?}; lines so far: {out:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("engine closed its output (crash?); lines: {out:?}"))
                }
            }
        }
    }

    /// Lines printed within `wait` (none expected to end it).
    pub fn lines_for(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut out = Vec::new();
        while let Ok(l) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            out.push(l);
        }
        out
    }

    /// UCI: `isready`, and every line before `readyok`.
    pub fn sync_uci(&mut self) -> Result<Vec<String>, String> {
        self.send("isready")?;
        let mut l = self.until(ANSWER, |l| l == "readyok")?;
        l.pop();
        Ok(l)
    }

    /// XBoard: `ping N`, and every line before `pong N`.
    pub fn sync_xboard(&mut self) -> Result<Vec<String>, String> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings))?;
        let mut l = self.until(ANSWER, |l| l == pong)?;
        l.pop();
        Ok(l)
    }

    /// Waits for the process to end by itself within `wait`; true if it did.
    pub fn exits_within(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            thread::sleep(Duration::from_millis(5));
        }
        false
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Resident memory in MB (Linux), if it can be read.
    pub fn rss_mb(&self) -> Option<u64> {
        self.status_mb("VmRSS")
    }

    /// A size from `/proc/PID/status` in MB (Linux: `VmRSS` resident now, `VmHWM` its peak,
    /// `VmSize` address space now, `VmPeak` its peak), if it can be read.
    pub fn status_mb(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = status
            .lines()
            .find(|l| l.strip_prefix(field).is_some_and(|r| r.starts_with(':')))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb / 1024)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The engine binary: this build's, or `FUZZ_ENGINE` (to try another build, e.g. an older one,
/// with the same tests).
pub fn engine_path() -> String {
    std::env::var("FUZZ_ENGINE").unwrap_or_else(|_| env!("CARGO_BIN_EXE_cannonade").to_string())
}

/// The FEN from the output of `d` (UCI `Fen: ...`, XBoard `# Fen: ...`).
pub fn fen_in(lines: &[String]) -> Option<String> {
    lines.iter().find_map(|l| {
        l.strip_prefix("Fen: ")
            .or_else(|| l.strip_prefix("# Fen: "))
            .map(str::to_string)
    })
}
