//! The protocol adapters driven in-process, as the native loop drives them: each command handed
//! to the adapter's `handle`, its answers read from a recording output, its wake-ups (a search
//! or job ended) acted on in order with them, on a host with real threads. Every wait is
//! bounded, so a hang fails the test rather than stalling it; no test measures time.

use cannonade_core::host::{Host, Task};
use cannonade_core::protocol::uci::Uci;
use cannonade_core::protocol::xboard::XBoard;
use cannonade_core::protocol::{Adapter, Output};
use cannonade_core::search::smp::SEARCH_STACK_BYTES;
use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The seed every test engine gets: a weakened engine's choices repeat from run to run.
pub const SEED: u64 = 0x5eed;

/// How long an answer may take on a loaded machine before it counts as a hang.
pub const ANSWER: Duration = Duration::from_secs(30);

/// A host with `std`'s clock and a thread for every task, as the native program's.
pub struct TestHost(Instant);

impl Host for TestHost {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }

    fn spawn(&self, task: Task) -> Result<(), Task> {
        std::thread::Builder::new()
            .name("test-engine".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(task)
            .expect("a test thread starts");
        Ok(())
    }
}

pub fn host() -> Arc<dyn Host> {
    Arc::new(TestHost(Instant::now()))
}

/// A host without threads, as a browser build without them: every task is given back, and the
/// engine runs it on the caller's thread.
pub struct NoThreads(Instant);

impl Host for NoThreads {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }

    fn spawn(&self, task: Task) -> Result<(), Task> {
        Err(task)
    }
}

/// What the adapter's output carries.
pub enum Out {
    Line(String),
    Wake,
}

/// An output that records the lines and wake-ups, in order.
pub fn recording_output() -> (Output, Receiver<Out>) {
    let (tx, rx) = mpsc::channel();
    let wake = tx.clone();
    let out = Output::new(
        move |l| {
            let _ = tx.send(Out::Line(l.to_string()));
        },
        move || {
            let _ = wake.send(Out::Wake);
        },
    );
    (out, rx)
}

/// One adapter and its recorded output.
pub struct Engine {
    adapter: Box<dyn Adapter>,
    xboard: bool,
    out: Receiver<Out>,
    /// Lines read from the output and not yet returned.
    seen: VecDeque<String>,
    pings: u64,
    quit: bool,
}

impl Engine {
    /// A UCI adapter, before any command.
    pub fn uci_bare() -> Engine {
        let (out, rx) = recording_output();
        Engine::new(Box::new(Uci::new(host(), SEED, out)), false, rx)
    }

    /// A UCI adapter on a host without threads, before any command.
    pub fn uci_without_threads() -> Engine {
        let (out, rx) = recording_output();
        let host = Arc::new(NoThreads(Instant::now()));
        Engine::new(Box::new(Uci::new(host, SEED, out)), false, rx)
    }

    /// An XBoard adapter on a host without threads, after `xboard` and `new`.
    pub fn xboard_without_threads() -> Engine {
        let (out, rx) = recording_output();
        let host = Arc::new(NoThreads(Instant::now()));
        let mut e = Engine::new(Box::new(XBoard::new(host, SEED, out)), true, rx);
        e.send("xboard");
        e.send("new");
        e
    }

    /// A UCI adapter after the `uci` handshake.
    pub fn uci() -> Engine {
        let mut e = Engine::uci_bare();
        e.send("uci");
        e.until(|l| l == "uciok");
        e
    }

    /// An XBoard adapter after `xboard` and `protover 2`, with the feature lines.
    pub fn xboard_features() -> (Engine, Vec<String>) {
        let (out, rx) = recording_output();
        let mut e = Engine::new(Box::new(XBoard::new(host(), SEED, out)), true, rx);
        e.send("xboard");
        e.send("protover 2");
        let features = e.until(|l| l.contains("done=1"));
        (e, features)
    }

    /// An XBoard adapter after the handshake and `new`.
    pub fn xboard() -> Engine {
        let (mut e, _) = Engine::xboard_features();
        e.send("new");
        e
    }

    fn new(adapter: Box<dyn Adapter>, xboard: bool, out: Receiver<Out>) -> Engine {
        Engine {
            adapter,
            xboard,
            out,
            seen: VecDeque::new(),
            pings: 0,
            quit: false,
        }
    }

    /// Takes what the output holds now, acting on wake-ups as the loop would.
    fn pump(&mut self) {
        while let Ok(o) = self.out.try_recv() {
            self.take(o);
        }
    }

    fn take(&mut self, o: Out) {
        match o {
            Out::Line(l) => self.seen.push_back(l),
            Out::Wake => self.adapter.on_wake(),
        }
    }

    /// Hands one command to the adapter, after what the engine reported before it (as the
    /// loop reads them in the order they came). Returns false for `quit`.
    pub fn send(&mut self, cmd: &str) -> bool {
        assert!(!self.quit, "a command after quit: {cmd}");
        self.pump();
        let go_on = self.adapter.handle(cmd);
        if !go_on {
            self.adapter.finish();
            self.quit = true;
        }
        go_on
    }

    /// Every line up to and including the first that satisfies `done`; panics if none comes
    /// within [`ANSWER`].
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + ANSWER;
        let mut lines = Vec::new();
        loop {
            while let Some(l) = self.seen.pop_front() {
                let stop = done(&l);
                lines.push(l);
                if stop {
                    return lines;
                }
            }
            match self
                .out
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(o) => self.take(o),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no answer within {ANSWER:?}; lines so far: {lines:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => panic!("the output closed: {lines:#?}"),
            }
        }
    }

    /// The lines written so far, without waiting.
    pub fn lines_now(&mut self) -> Vec<String> {
        self.pump();
        self.seen.drain(..).collect()
    }

    /// UCI `isready` (or XBoard `ping N`), and every line before its answer.
    pub fn sync(&mut self) -> Vec<String> {
        let answer = if self.xboard {
            self.pings += 1;
            self.send(&format!("ping {}", self.pings));
            format!("pong {}", self.pings)
        } else {
            self.send("isready");
            "readyok".to_string()
        };
        let mut lines = self.until(|l| l == answer);
        lines.pop();
        lines
    }

    /// Sends the commands, then syncs: the output of exactly these commands.
    pub fn run(&mut self, cmds: &[&str]) -> Vec<String> {
        for c in cmds {
            self.send(c);
        }
        self.sync()
    }

    /// The FEN of the current position, from `d`.
    pub fn fen(&mut self) -> String {
        let lines = self.run(&["d"]);
        fen_in(&lines).unwrap_or_else(|| panic!("no FEN in {lines:?}"))
    }

    /// The adapter's `finish` (the end of input), and the lines it gave.
    pub fn finish(&mut self) -> Vec<String> {
        self.pump();
        self.adapter.finish();
        self.quit = true;
        self.lines_now()
    }
}

/// The FEN from the output of `d` (UCI `Fen: ...`, XBoard `# Fen: ...`).
pub fn fen_in(lines: &[String]) -> Option<String> {
    lines.iter().find_map(|l| {
        l.strip_prefix("Fen: ")
            .or_else(|| l.strip_prefix("# Fen: "))
            .map(str::to_string)
    })
}

/// The value after `key` in a line of words.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut w = line.split_whitespace();
    w.find(|x| *x == key)?;
    w.next()
}
