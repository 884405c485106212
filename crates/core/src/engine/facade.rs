//! The engine facade: one [`Engine`] owns the engine's state (game, options, table, nets) and
//! the work running on it (a search, a `perft` or `bench` job), and keeps the rules of
//! searching, so that each protocol adapter only turns lines into calls and reports into lines.
//!
//! The rules, in one place:
//! - A new search stops the running one first (whose move is still reported). So does every
//!   change of the engine's settings or game ([`Engine::set_option`], [`Engine::new_game`],
//!   [`Engine::select_variant`]); a position or move is checked first and, refused, changes
//!   nothing, not even the running search ([`Engine::set_position`], [`Engine::play`]).
//! - Every search reports its best move exactly once ([`Listener::best_move`]), however it
//!   ends: by a limit, by [`Engine::stop`] (an infinite or ponder search ends only so), or
//!   stopped by the next command.
//! - A ponder search is on the opponent's time until [`Engine::ponderhit`] turns the clock on.
//! - A job runs beside a search, on a copy of the position; a new job stops the running one.
//!
//! Where the [`Host`] has threads the search runs on one of them and [`Engine::go`] returns at
//! once. Where it has none (a browser build without threads) `go` runs the search on the
//! caller's thread and returns after the best move was reported; input arriving meanwhile
//! reaches the search through the host's `poll` and a [`Remote`].
//!
//! Reports go to a [`Listener`] given once, when the engine is made, and come from the thread
//! that runs the work.

use crate::engine::jobs::{Job, JobEvent, JobKind};
use crate::engine::options::{self, Changed, EngineOption, OptionError};
use crate::engine::registry::VariantInfo;
use crate::engine::state::EngineState;
use crate::engine::text::clip;
use crate::engine::wdl::Wdl;
use crate::games::{GameError, Notation};
use crate::host::{Host, Task};
use crate::search::{Limits, PvInfo, Report, SearchControl, SearchResult};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// Which search a report belongs to: searches are numbered from 1 in the order they started.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SearchId(u64);

/// Where an engine's reports go: given once, called from the thread that runs the work (a
/// host's thread, or the caller's own where the host has none), so an implementation keeps
/// what it shares with its owner behind locks.
pub trait Listener: Send + Sync {
    /// A line of analysis of search `search`, with its win chances when `UCI_ShowWDL` is on.
    fn info(&self, search: SearchId, info: &PvInfo<String>, wdl: Option<Wdl>);
    /// The result of search `search`: sent once per search, whatever ended it. `best` is
    /// `None` when the game is over in the position searched.
    fn best_move(&self, search: SearchId, result: &SearchResult<String>);
    /// What a job tells (see [`JobEvent`]), in order; its last event is the last of the job.
    fn job(&self, kind: JobKind, event: &JobEvent);
    /// A search or job has ended, after its last report, and the engine no longer counts it
    /// as running: the moment to tell the owner, whose thread may be waiting for it.
    fn ended(&self) {}
}

/// How far the running search has got, for progress reports (XBoard's `stat01`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Time since the search started.
    pub elapsed: Duration,
    /// The iteration being searched.
    pub depth: u32,
    /// Nodes searched so far, as last counted.
    pub nodes: u64,
}

/// A search the engine started, shared by the engine, the thread that runs it and the
/// [`Remote`]s.
struct Running {
    id: SearchId,
    ctl: Arc<SearchControl>,
    /// An infinite or ponder search: it ends only when stopped (or, pondering, when it
    /// becomes a search on the clock at `ponderhit`).
    waits_for_stop: AtomicBool,
    /// Set once the search has reported its move and let go of the table: then nothing of it
    /// runs any more.
    finished: Mutex<bool>,
    finished_now: Condvar,
}

impl Running {
    fn is_finished(&self) -> bool {
        *lock(&self.finished)
    }

    fn wait(&self) {
        let mut done = lock(&self.finished);
        while !*done {
            done = self
                .finished_now
                .wait(done)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn stop(&self) {
        self.ctl.stop();
    }

    fn ponderhit(&self) {
        self.ctl.ponderhit();
        self.waits_for_stop.store(false, Relaxed);
    }
}

/// A lock that a panic on another thread does not make unusable (what it guards stays
/// consistent: flags and queues written in one step).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Marks a search finished when the work that ran it is over, even by a panic, so that no one
/// waits for it forever.
struct Finish {
    running: Arc<Running>,
    listener: Arc<dyn Listener>,
}

impl Drop for Finish {
    fn drop(&mut self) {
        *lock(&self.running.finished) = true;
        self.running.finished_now.notify_all();
        self.listener.ended();
    }
}

/// A handle on the engine's running search for whoever cannot borrow the engine: a thread
/// other than its owner's, or a host whose `poll` runs while [`Engine::go`] searches on the
/// owner's own thread. It always acts on the search running now (the latest started), and
/// does nothing when none runs. Cheap to clone.
#[derive(Clone, Default)]
pub struct Remote(Arc<Mutex<Option<Arc<Running>>>>);

impl Remote {
    fn current(&self) -> Option<Arc<Running>> {
        lock(&self.0).clone().filter(|r| !r.is_finished())
    }

    fn set(&self, running: Arc<Running>) {
        *lock(&self.0) = Some(running);
    }

    /// Asks the running search to end as soon as it can; it reports its move as it ends.
    pub fn stop(&self) {
        if let Some(r) = self.current() {
            r.stop();
        }
    }

    /// The opponent played the move pondered on: the search goes on, on the engine's clock.
    pub fn ponderhit(&self) {
        if let Some(r) = self.current() {
            r.ponderhit();
        }
    }

    /// Whether a search runs.
    pub fn is_searching(&self) -> bool {
        self.current().is_some()
    }
}

/// A job the engine started, and whether its last event was reported.
struct RunningJob {
    job: Job,
    ended: Arc<AtomicBool>,
}

/// The engine facade (see the module documentation).
pub struct Engine {
    host: Arc<dyn Host>,
    state: EngineState,
    /// How moves are written in reports.
    notation: Notation,
    listener: Arc<dyn Listener>,
    /// The latest search started (finished or not), shared with [`Remote`]s.
    search: Option<Arc<Running>>,
    remote: Remote,
    job: Option<RunningJob>,
    searches: u64,
}

impl Engine {
    /// An engine in its initial state ([`EngineState::new`], a weakened search's choices
    /// starting from `seed`), writing moves in `notation`, reporting to `listener`.
    pub fn new(
        host: Arc<dyn Host>,
        seed: u64,
        notation: Notation,
        listener: Arc<dyn Listener>,
    ) -> Engine {
        Engine::with_state(host, EngineState::new(seed), notation, listener)
    }

    /// An engine over a state made elsewhere (a tool's, with its options set).
    pub fn with_state(
        host: Arc<dyn Host>,
        state: EngineState,
        notation: Notation,
        listener: Arc<dyn Listener>,
    ) -> Engine {
        Engine {
            host,
            state,
            notation,
            listener,
            search: None,
            remote: Remote::default(),
            job: None,
            searches: 0,
        }
    }

    /// The game, options, table and nets, to read.
    pub fn state(&self) -> &EngineState {
        &self.state
    }

    // ---- Settings and the game: each change stops the running search first -----------

    /// Sets the option `name` from its text (see [`EngineState::set_option`]), after stopping
    /// the running search. A name or value refused as such changes nothing, not even the
    /// running search; one refused when applied (a table the machine cannot give) leaves the
    /// option as it was.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(&'static EngineOption, Changed), OptionError> {
        let opt = options::find(name).ok_or_else(|| OptionError::Unknown(clip(name)))?;
        options::parse_value(opt, value)?;
        self.stop();
        self.state.set_option(name, value)
    }

    /// A new game: the running search stopped, the table emptied, and a weakened engine's
    /// choices drawn afresh.
    pub fn new_game(&mut self) {
        self.stop();
        self.state.clear_table();
        self.state.reseed(None);
    }

    /// A new game of `info` at its start (see [`EngineState::select_variant`]), after stopping
    /// the running search. On an error the current game goes on.
    pub fn select_variant(&mut self, info: &'static VariantInfo) -> Result<(), GameError> {
        self.stop();
        self.state.select_variant(info)
    }

    /// Sets the position from a FEN (or the start position) and moves in the engine's
    /// notation. Refused, nothing changes, not even a running search; taken, the running
    /// search is stopped first.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), GameError> {
        let mut next = self.state.session().clone_session();
        next.set_position(fen, moves, self.notation)?;
        self.stop();
        self.state
            .session_mut()
            .set_position(fen, moves, self.notation)
    }

    /// Plays one move (in the engine's notation) on the current position. Refused, nothing
    /// changes, not even a running search; taken, the running search is stopped first.
    pub fn play(&mut self, mv: &str) -> Result<(), GameError> {
        self.state.session().move_text(mv, self.notation)?;
        self.stop();
        self.state.session_mut().play(mv, self.notation)
    }

    // ---- Searching ----------------------------------------------------------------------

    /// Starts a search of the current position within `limits`, after stopping the running
    /// one. Its lines go to [`Listener::info`] and its result to [`Listener::best_move`].
    /// Returns at once where the host has a thread for it; otherwise the search runs here
    /// and `go` returns after its best move was reported.
    pub fn go(&mut self, limits: Limits) -> SearchId {
        self.stop();
        self.searches += 1;
        let id = SearchId(self.searches);
        let running = Arc::new(Running {
            id,
            ctl: Arc::new(SearchControl::new(Arc::clone(&self.host), limits.ponder)),
            waits_for_stop: AtomicBool::new(limits.infinite || limits.ponder),
            finished: Mutex::new(false),
            finished_now: Condvar::new(),
        });
        self.remote.set(Arc::clone(&running));
        self.search = Some(Arc::clone(&running));
        let task = self.search_task(running, limits);
        if let Err(task) = self.host.spawn(task) {
            task();
        }
        id
    }

    /// The work of one search, for a thread of the host's or the caller's own.
    fn search_task(&self, running: Arc<Running>, limits: Limits) -> Task {
        let session = self.state.session().clone_session();
        let tt = self.state.table();
        let opts = self.state.options().clone();
        let wdl_of = self.state.search_chances();
        let notation = self.notation;
        let listener = Arc::clone(&self.listener);
        Box::new(move || {
            // Marks the search finished when this ends, even if something here panics; and
            // only after the table is let go (declared before it, it is dropped after it): a
            // new size or an emptied table never has to be made beside it.
            let finish = Finish {
                running: Arc::clone(&running),
                listener: Arc::clone(&listener),
            };
            let (session, tt, opts) = (session, tt, opts);
            let id = running.id;
            let mut reported = false;
            let result =
                session.search(&limits, &opts, &tt, &running.ctl, notation, &mut |report| {
                    match report {
                        Report::Info(info) => {
                            listener.info(id, &info, wdl_of.as_ref().map(|f| f(info.score)))
                        }
                        Report::Done(r) => {
                            listener.best_move(id, &r);
                            reported = true;
                        }
                    }
                });
            // Only when the search's own thread died before it could report.
            if !reported {
                listener.best_move(id, &result);
            }
            drop(tt);
            drop(opts);
            drop(session);
            drop(finish);
        })
    }

    /// Stops the running search, if any, and waits for it: its best move has been reported
    /// when this returns. A job goes on ([`Engine::stop_job`]).
    pub fn stop(&mut self) {
        if let Some(r) = &self.search {
            r.stop();
            r.wait();
        }
    }

    /// The opponent played the move the search ponders on: from now on the search is on the
    /// engine's clock, and ends by itself.
    pub fn ponderhit(&self) {
        self.remote.ponderhit();
    }

    /// Waits for the running search to end by itself (an infinite or ponder search waits for
    /// a `stop` from elsewhere: a [`Remote`]).
    pub fn wait(&self) {
        if let Some(r) = &self.search {
            r.wait();
        }
    }

    /// Whether a search runs (its move not yet reported and its work not done).
    pub fn is_searching(&self) -> bool {
        self.search.as_ref().is_some_and(|r| !r.is_finished())
    }

    /// Whether the running search ends only when stopped (an infinite search, or a ponder
    /// search before `ponderhit`); false when none runs.
    pub fn waits_for_stop(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|r| !r.is_finished() && r.waits_for_stop.load(Relaxed))
    }

    /// How far the running search has got; `None` when none runs.
    pub fn progress(&self) -> Option<Progress> {
        let r = self.search.as_ref().filter(|r| !r.is_finished())?;
        let (depth, nodes) = r.ctl.progress();
        Some(Progress {
            elapsed: r.ctl.elapsed(),
            depth,
            nodes,
        })
    }

    /// A handle on the running search for whoever cannot borrow the engine (see [`Remote`]).
    pub fn remote(&self) -> Remote {
        self.remote.clone()
    }

    // ---- Jobs ---------------------------------------------------------------------------

    /// Starts `kind` on a copy of the current position (with the engine's thread count),
    /// after stopping a running job; a running search goes on. Its events go to
    /// [`Listener::job`].
    pub fn start_job(&mut self, kind: JobKind) -> std::io::Result<()> {
        self.stop_job();
        let session = self.state.session().clone_session();
        let threads = self.state.options().threads;
        let listener = Arc::clone(&self.listener);
        let ended = Arc::new(AtomicBool::new(false));
        let job_ended = Arc::clone(&ended);
        let job = Job::start(
            &self.host,
            kind,
            session,
            threads,
            self.notation,
            move |event| {
                let last = matches!(
                    event,
                    JobEvent::PerftTotal { .. }
                        | JobEvent::BenchDone(_)
                        | JobEvent::Stopped
                        | JobEvent::Failed(_)
                );
                listener.job(kind, &event);
                if last {
                    job_ended.store(true, Relaxed);
                    listener.ended();
                }
            },
        )?;
        self.job = Some(RunningJob { job, ended });
        Ok(())
    }

    /// Whether a job runs (its last event not yet reported).
    pub fn job_running(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.ended.load(Relaxed))
    }

    /// Stops the running job, if any, and waits for it; it reports [`JobEvent::Stopped`]
    /// unless it had ended.
    pub fn stop_job(&mut self) {
        if let Some(j) = self.job.take() {
            j.job.stop();
        }
    }

    /// Waits for the running job to end by itself.
    pub fn wait_job(&mut self) {
        if let Some(j) = self.job.take() {
            j.job.wait();
        }
    }
}

impl Drop for Engine {
    /// Nothing the engine started outlives it.
    fn drop(&mut self) {
        self.stop();
        self.stop_job();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::jobs::JobKind;
    use std::sync::mpsc::{self, Receiver, Sender};
    use std::time::Instant;

    /// A host with a thread for every task, as the native program's.
    struct Threads(Instant);

    impl Host for Threads {
        fn now(&self) -> Duration {
            self.0.elapsed()
        }
        fn spawn(&self, task: Task) -> Result<(), Task> {
            std::thread::Builder::new()
                .stack_size(crate::search::smp::SEARCH_STACK_BYTES)
                .spawn(task)
                .map(drop)
                .map_err(|_| unreachable!("a test thread starts"))
        }
    }

    /// A host without threads, as a browser build without them.
    struct NoThreads(Instant);

    impl Host for NoThreads {
        fn now(&self) -> Duration {
            self.0.elapsed()
        }
        fn spawn(&self, task: Task) -> Result<(), Task> {
            Err(task)
        }
    }

    #[derive(Debug, PartialEq)]
    enum Heard {
        Info(SearchId, u32),
        Best(SearchId, Option<String>),
        Job(JobEvent),
        Ended,
    }

    struct Ears(Mutex<Sender<Heard>>);

    impl Listener for Ears {
        fn info(&self, search: SearchId, info: &PvInfo<String>, _: Option<Wdl>) {
            let _ = lock(&self.0).send(Heard::Info(search, info.depth));
        }
        fn best_move(&self, search: SearchId, result: &SearchResult<String>) {
            let _ = lock(&self.0).send(Heard::Best(search, result.best.clone()));
        }
        fn job(&self, _: JobKind, event: &JobEvent) {
            let _ = lock(&self.0).send(Heard::Job(event.clone()));
        }
        fn ended(&self) {
            let _ = lock(&self.0).send(Heard::Ended);
        }
    }

    fn engine(host: impl Host) -> (Engine, Receiver<Heard>) {
        let (tx, rx) = mpsc::channel();
        let e = Engine::new(
            Arc::new(host),
            1,
            Notation::Uci,
            Arc::new(Ears(Mutex::new(tx))),
        );
        (e, rx)
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// What was heard up to and including the first `Ended`.
    fn until_ended(rx: &Receiver<Heard>) -> Vec<Heard> {
        let mut heard = Vec::new();
        loop {
            let h = rx
                .recv_timeout(Duration::from_secs(60))
                .expect("the work ends");
            let done = h == Heard::Ended;
            heard.push(h);
            if done {
                return heard;
            }
        }
    }

    #[test]
    fn a_search_reports_its_lines_then_its_move_once_then_ends() {
        let (mut e, rx) = engine(Threads(Instant::now()));
        let id = e.go(depth(3));
        let heard = until_ended(&rx);
        let depths: Vec<u32> = heard
            .iter()
            .filter_map(|h| match h {
                Heard::Info(s, d) if *s == id => Some(*d),
                _ => None,
            })
            .collect();
        assert_eq!(depths, [1, 2, 3], "{heard:?}");
        let bests: Vec<&Heard> = heard
            .iter()
            .filter(|h| matches!(h, Heard::Best(..)))
            .collect();
        assert_eq!(bests.len(), 1, "{heard:?}");
        assert!(matches!(bests[0], Heard::Best(s, Some(_)) if *s == id));
        assert_eq!(
            heard.len(),
            5,
            "nothing after the move but the end: {heard:?}"
        );
        e.wait();
        assert!(!e.is_searching());
    }

    #[test]
    fn stop_ends_an_infinite_search_with_its_move_before_it_returns() {
        let (mut e, rx) = engine(Threads(Instant::now()));
        let first = e.go(infinite());
        // It searches, and goes on after depth 2 (an infinite search waits for `stop`).
        while !matches!(rx.recv().unwrap(), Heard::Info(_, 2)) {}
        assert!(e.is_searching() && e.waits_for_stop());
        e.stop();
        assert!(!e.is_searching());
        let heard: Vec<Heard> = rx.try_iter().collect();
        assert!(
            heard
                .iter()
                .any(|h| matches!(h, Heard::Best(s, Some(_)) if *s == first)),
            "the move was reported before stop returned: {heard:?}"
        );
        // Its `ended` may come a moment after `stop` returned (the search counts as finished
        // first): wait for it, so that it is not taken for the next search's.
        if !heard.contains(&Heard::Ended) {
            until_ended(&rx);
        }
        // A new search stops the running one first: its move comes, then the new search's.
        let second = e.go(infinite());
        let third = e.go(depth(1));
        let heard = until_ended(&rx);
        let heard: Vec<Heard> = heard.into_iter().chain(until_ended(&rx)).collect();
        let bests: Vec<SearchId> = heard
            .iter()
            .filter_map(|h| match h {
                Heard::Best(s, _) => Some(*s),
                _ => None,
            })
            .collect();
        assert_eq!(bests, [second, third], "{heard:?}");
    }

    #[test]
    fn ponderhit_puts_a_ponder_search_on_the_clock() {
        let (mut e, rx) = engine(Threads(Instant::now()));
        e.set_position(None, &["e2e4"]).unwrap();
        e.go(Limits {
            ponder: true,
            depth: Some(2),
            ..Limits::default()
        });
        // The depth is reached, but a ponder search waits for the opponent's move.
        while !matches!(rx.recv().unwrap(), Heard::Info(_, 2)) {}
        assert!(e.waits_for_stop());
        let remote = e.remote();
        remote.ponderhit();
        assert!(!e.waits_for_stop());
        // Now it ends by itself.
        e.wait();
        assert!(!e.is_searching() && !remote.is_searching());
        assert!(rx.try_iter().any(|h| matches!(h, Heard::Best(_, Some(_)))));
    }

    #[test]
    fn refused_input_leaves_the_search_running_and_a_taken_position_stops_it() {
        let (mut e, rx) = engine(Threads(Instant::now()));
        e.go(infinite());
        assert!(e.set_position(Some("not a fen"), &[]).is_err());
        assert!(e.play("e2e5").is_err());
        assert!(e.set_option("Hash", Some("0")).is_err());
        assert!(e.set_option("No Such Option", Some("1")).is_err());
        assert!(e.is_searching());
        e.play("e2e4").unwrap();
        assert!(!e.is_searching());
        assert!(rx.try_iter().any(|h| matches!(h, Heard::Best(..))));
        assert!(e.state().session().fen().contains("4P3"));
    }

    #[test]
    fn a_host_without_threads_searches_on_the_callers_thread() {
        let (mut e, rx) = engine(NoThreads(Instant::now()));
        let id = e.go(depth(2));
        // Everything was reported before `go` returned.
        assert!(!e.is_searching());
        let heard: Vec<Heard> = rx.try_iter().collect();
        assert!(heard.contains(&Heard::Info(id, 2)), "{heard:?}");
        assert!(heard
            .iter()
            .any(|h| matches!(h, Heard::Best(s, Some(_)) if *s == id)));
        assert_eq!(heard.last(), Some(&Heard::Ended));
    }

    #[test]
    fn a_job_runs_beside_a_search_and_ends_with_its_last_event() {
        let (mut e, rx) = engine(Threads(Instant::now()));
        e.go(infinite());
        e.start_job(JobKind::Perft { depth: 2 }).unwrap();
        let heard = until_ended(&rx);
        assert!(
            heard.contains(&Heard::Job(JobEvent::PerftTotal {
                depth: 2,
                total: 400
            })),
            "{heard:?}"
        );
        assert!(!e.job_running() && e.is_searching());
        // A stopped job says so.
        e.start_job(JobKind::Perft { depth: 12 }).unwrap();
        assert!(e.job_running());
        e.stop_job();
        assert!(!e.job_running());
        let heard: Vec<Heard> = rx.try_iter().collect();
        assert!(heard.contains(&Heard::Job(JobEvent::Stopped)), "{heard:?}");
        e.stop();
    }

    #[test]
    fn the_table_is_let_go_before_the_search_counts_as_finished() {
        let (mut e, _rx) = engine(Threads(Instant::now()));
        e.go(depth(2));
        e.wait();
        // No search holds the table: a new size replaces it in place.
        let before = e.state().table();
        assert_eq!(Arc::strong_count(&before), 2);
    }
}
