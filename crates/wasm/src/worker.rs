//! The engine as the Web Worker runs it: the core's UCI adapter on a host without threads.
//!
//! A search runs on the worker's only thread, inside the call that handles `go`, so the worker
//! cannot take the page's next message until it returns. What the page sends meanwhile reaches
//! it through [`Host::poll`](cannonade_core::host::Host::poll), which the search calls every few
//! thousand nodes: the poll reads the lines the page wrote since (a SharedArrayBuffer ring,
//! read by the JavaScript the worker runs), and the core's rule of what is answered during a
//! search ([`Uci::interim`]) acts on each at once (`isready`, `stop`, `ponderhit`) or tells the
//! search to stop for it; the lines left to handle wait in a queue, in order, for the search to
//! return. Where the page has no shared memory there is no such input: the poll reads nothing,
//! and `web/engine/cannonade.js` stops a search by ending the worker (see docs/web.md).
//!
//! Everything here is plain Rust, tested natively; [`crate::bindings`] connects it to
//! JavaScript.

use cannonade_core::engine::Remote;
use cannonade_core::games::Notation;
use cannonade_core::host::{Host, Task};
use cannonade_core::protocol::uci::{Interim, Uci};
use cannonade_core::protocol::{Adapter, Output};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

/// Lines that arrived while the worker was busy: `wait` says whether the caller has nothing
/// else to do (the search waits for `stop` or `ponderhit`), so that a reader may block for a
/// moment. Returns whatever complete lines it has, possibly none.
pub type ReadLines = Box<dyn Fn(bool) -> Vec<String> + Send + Sync>;

/// What the engine shares with the host's `poll`, which runs while the engine is busy.
struct Shared {
    out: Output,
    input: Option<ReadLines>,
    /// The adapter's handle on its running search, set once the adapter exists.
    remote: OnceLock<Remote>,
    /// Lines to handle, in the order they came.
    pending: Mutex<VecDeque<String>>,
    /// The adapter asked to be woken (a search or job ended): `on_wake` is due.
    woke: Arc<AtomicBool>,
    /// Told once per line handled, when the line has started work (a search's first poll, a
    /// job given to the host): from then on, what the line had to refuse has been said.
    on_started: Option<Started>,
    /// Whether `on_started` was told for the line being handled.
    started: AtomicBool,
}

/// See [`WorkerEngine::new`].
pub type Started = Box<dyn Fn() + Send + Sync>;

impl Shared {
    fn push(&self, line: String) {
        self.pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(line);
    }

    fn pop(&self) -> Option<String> {
        self.pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front()
    }

    /// The host's poll: each line that came meanwhile goes through the core's rule of what
    /// is answered during a search; those it leaves to the adapter wait their turn.
    /// The line being handled has started its work.
    fn started(&self) {
        if let Some(f) = &self.on_started {
            if !self.started.swap(true, Relaxed) {
                f();
            }
        }
    }

    fn poll(&self, idle: bool) {
        self.started();
        let Some(read) = &self.input else { return };
        let Some(remote) = self.remote.get() else {
            return;
        };
        for line in read(idle) {
            match Uci::interim(&line, remote, &self.out) {
                Interim::Done | Interim::Stop => {}
                Interim::StopThenHandle | Interim::Handle => self.push(line),
            }
        }
    }
}

/// The worker's host: the page's clock, no threads (a task is given back, so the work runs
/// on the caller's thread), and a poll that reads the page's lines.
struct WebHost {
    now: Box<dyn Fn() -> Duration + Send + Sync>,
    shared: Arc<Shared>,
}

impl Host for WebHost {
    fn now(&self) -> Duration {
        (self.now)()
    }

    fn spawn(&self, task: Task) -> Result<(), Task> {
        // A job (perft, bench) is about to run, on the caller's thread.
        self.shared.started();
        Err(task)
    }

    fn poll(&self, idle: bool) {
        self.shared.poll(idle);
    }
}

/// The worker's engine: UCI lines in, UCI lines out through `print`.
pub struct WorkerEngine {
    uci: Uci,
    shared: Arc<Shared>,
    quit: bool,
}

impl WorkerEngine {
    /// An engine whose clock is `now`, writing its lines with `print`; `input`, where the page
    /// can write lines the worker reads while it is busy (a shared ring), is read by the
    /// searches' polls and by [`WorkerEngine::pump`]. A weakened search's choices start from
    /// `seed`. `on_started`, where given, is told when a line starts a search or a job, once
    /// the line's refusals (if any) are written: the page, which must answer `isready` itself
    /// while the worker is busy where the worker cannot read (docs/web.md), answers it from then
    /// on.
    pub fn new(
        now: impl Fn() -> Duration + Send + Sync + 'static,
        print: impl Fn(&str) + Send + Sync + 'static,
        input: Option<ReadLines>,
        on_started: Option<Started>,
        seed: u64,
    ) -> WorkerEngine {
        // The adapter's wake comes, on a host without threads, before the call that ran the
        // work returns: a flag read after each line is enough.
        let woke = Arc::new(AtomicBool::new(false));
        let set_woke = Arc::clone(&woke);
        // The adapter says some answers in one piece (`d`'s board): the page gets one line
        // at a time, as a pipe would deliver them.
        let each_line = move |text: &str| text.split('\n').for_each(&print);
        let out = Output::new(each_line, move || set_woke.store(true, Relaxed));
        let shared = Arc::new(Shared {
            out: out.clone(),
            input,
            remote: OnceLock::new(),
            pending: Mutex::new(VecDeque::new()),
            woke,
            on_started,
            started: AtomicBool::new(false),
        });
        let host = WebHost {
            now: Box::new(now),
            shared: Arc::clone(&shared),
        };
        let uci = Uci::new(Arc::new(host), seed, out);
        let _ = shared.remote.set(uci.remote());
        WorkerEngine {
            uci,
            shared,
            quit: false,
        }
    }

    /// Handles one line (several, if it holds line breaks, as a pipe would deliver them) and
    /// whatever arrived while it ran; false once `quit` was handled.
    pub fn command(&mut self, text: &str) -> bool {
        for line in split_lines(text) {
            self.shared.push(line);
        }
        self.run_pending()
    }

    /// Handles the lines of the input until it has no more; false once `quit` was handled.
    pub fn pump(&mut self) -> bool {
        loop {
            let Some(read) = &self.shared.input else {
                return !self.quit;
            };
            let lines = read(false);
            if lines.is_empty() {
                return !self.quit;
            }
            for line in lines {
                self.shared.push(line);
            }
            if !self.run_pending() {
                return false;
            }
        }
    }

    fn run_pending(&mut self) -> bool {
        while !self.quit {
            let Some(line) = self.shared.pop() else { break };
            self.shared.started.store(false, Relaxed);
            let go_on = self.uci.handle(&line);
            self.after_work();
            if !go_on {
                self.uci.finish();
                self.quit = true;
            }
        }
        !self.quit
    }

    fn after_work(&mut self) {
        if self.shared.woke.swap(false, Relaxed) {
            self.uci.on_wake();
        }
    }

    /// The first legal move of the current position (`None` when the game is over): the move
    /// the page gives as `bestmove` when it must stop a search that has not yet reported one
    /// and cannot reach it (no shared memory, see docs/web.md).
    pub fn first_legal_move(&self) -> Option<String> {
        self.uci
            .engine()
            .state()
            .session()
            .legal_moves(Notation::Uci)
            .into_iter()
            .next()
    }
}

/// The lines of a text as a pipe delivers them to the native engine (which reads up to each
/// line end and trims the end): split at `\n`, each trimmed at its end.
fn split_lines(text: &str) -> Vec<String> {
    text.split('\n').map(|l| l.trim_end().to_string()).collect()
}

/// What each UCI command means to a running search, by the core's rule ([`Uci::interim`]),
/// for the page of a worker without shared memory (which must act on lines itself while the
/// worker searches): `done` (answered at once, `isready` and `ponderhit`), `stop`,
/// `stopThenHandle` (a command that needs the engine idle) or `handle` (left until the search
/// ends). A word not listed is `handle`, as for the core.
pub fn interim_table() -> Vec<(&'static str, &'static str)> {
    const COMMANDS: [&str; 14] = [
        "uci",
        "debug",
        "isready",
        "setoption",
        "register",
        "ucinewgame",
        "position",
        "go",
        "stop",
        "ponderhit",
        "quit",
        "d",
        "eval",
        "bench",
    ];
    // Nothing runs, and the answers go nowhere: only the kind is wanted.
    let remote = Remote::default();
    let out = Output::new(|_| {}, || {});
    COMMANDS
        .iter()
        .map(|&word| {
            let kind = match Uci::interim(word, &remote, &out) {
                Interim::Done => "done",
                Interim::Stop => "stop",
                Interim::StopThenHandle => "stopThenHandle",
                Interim::Handle => "handle",
            };
            (word, kind)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Instant;

    /// A worker engine whose output is collected, with lines the "page" writes while it is
    /// busy: `input` hands out one batch per poll.
    fn engine(input: Vec<Vec<&'static str>>) -> (WorkerEngine, mpsc::Receiver<String>) {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let start = Instant::now();
        let batches = Mutex::new(VecDeque::from(input));
        let read: ReadLines = Box::new(move |_| {
            batches
                .lock()
                .unwrap()
                .pop_front()
                .unwrap_or_default()
                .into_iter()
                .map(String::from)
                .collect()
        });
        let e = WorkerEngine::new(
            move || start.elapsed(),
            move |l| {
                let _ = tx.lock().unwrap().send(l.to_string());
            },
            Some(read),
            None,
            1,
        );
        (e, rx)
    }

    fn lines(rx: &mpsc::Receiver<String>) -> Vec<String> {
        rx.try_iter().collect()
    }

    #[test]
    fn a_search_runs_in_the_call_and_hears_stop_through_the_poll() {
        // The page's lines, one batch per poll: `isready` answered during the search, `d`
        // left until it ends, then `stop`.
        let (mut e, rx) = engine(vec![vec![], vec!["isready", "d"], vec![], vec!["stop"]]);
        assert!(e.command("go infinite"));
        let out = lines(&rx);
        let ready = out.iter().position(|l| l == "readyok").expect("readyok");
        let best = out
            .iter()
            .position(|l| l.starts_with("bestmove "))
            .expect("bestmove");
        let fen = out.iter().position(|l| l.starts_with("Fen: ")).expect("d");
        assert!(ready < best && best < fen, "{out:?}");
        assert!(out.iter().all(|l| !l.contains('\n')), "one line at a time");
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    }

    #[test]
    fn a_command_that_needs_the_engine_stops_the_search_then_runs() {
        let (mut e, rx) = engine(vec![vec![], vec!["position startpos moves e2e4", "d"]]);
        assert!(e.command("go infinite"));
        let out = lines(&rx);
        let best = out.iter().position(|l| l.starts_with("bestmove ")).unwrap();
        let fen = out.iter().position(|l| l.starts_with("Fen: ")).unwrap();
        assert!(best < fen);
        assert_eq!(
            out[fen],
            "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
    }

    /// The page hears that a line started work after the line's refusals, and only then.
    #[test]
    fn started_is_told_once_work_runs_after_the_refusals() {
        let (tx, rx) = mpsc::channel();
        let (out, start) = (Mutex::new(tx.clone()), Mutex::new(tx));
        let mut e = WorkerEngine::new(
            Duration::default,
            move |l| {
                let _ = out.lock().unwrap().send(l.to_string());
            },
            None,
            Some(Box::new(move || {
                let _ = start.lock().unwrap().send("<started>".to_string());
            })),
            1,
        );
        e.command("bench 0\nisready");
        let refused = lines(&rx);
        assert_eq!(refused.len(), 2, "{refused:?}");
        assert!(refused[0].starts_with("info string error: "), "{refused:?}");
        e.command("go perft abc\ngo perft 2");
        let perft = lines(&rx);
        let at = perft.iter().position(|l| l == "<started>").unwrap();
        assert!(
            at > 0
                && perft[..at]
                    .iter()
                    .all(|l| l.starts_with("info string error")),
            "{perft:?}"
        );
        assert_eq!(perft.iter().filter(|l| *l == "<started>").count(), 1);
        e.command("position startpos\ngo depth 3");
        let search = lines(&rx);
        assert_eq!(
            search.iter().filter(|l| *l == "<started>").count(),
            1,
            "{search:?}"
        );
        assert!(search.last().unwrap().starts_with("bestmove"));
    }

    #[test]
    fn quit_ends_the_engine_and_the_lines_after_it_are_not_read() {
        let (mut e, rx) = engine(vec![]);
        assert!(!e.command("isready\nquit\nisready"));
        assert_eq!(lines(&rx), vec!["readyok"]);
        assert!(!e.command("isready"));
        assert!(lines(&rx).is_empty());
    }

    #[test]
    fn pump_handles_the_lines_of_the_input() {
        let (mut e, rx) = engine(vec![
            vec!["uci", "isready"],
            vec!["position startpos", "go depth 2"],
        ]);
        assert!(e.pump());
        let out = lines(&rx);
        assert!(out.contains(&"uciok".to_string()) && out.contains(&"readyok".to_string()));
        assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    }

    #[test]
    fn the_interim_table_is_the_cores_rule() {
        let t = interim_table();
        let kind = |w: &str| t.iter().find(|(c, _)| *c == w).unwrap().1;
        assert_eq!(kind("isready"), "done");
        assert_eq!(kind("stop"), "stop");
        assert_eq!(kind("go"), "stopThenHandle");
        assert_eq!(kind("d"), "handle");
    }
}
