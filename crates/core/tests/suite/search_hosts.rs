//! The search on the hosts it may be given: one without threads (a browser), one with a thread
//! for every task, one that refuses every thread. The work of a fixed-depth search of one
//! thread does not depend on the host; helpers the host cannot give are done without; an
//! infinite search ends when `stop` reaches it, through the host's poll where there are no
//! threads.

use cannonade_core::games::chess::{Chess, ChessMoves};
use cannonade_core::games::{Game, Move};
use cannonade_core::host::{Host, SharedHost, SingleThread, Task};
use cannonade_core::search::{
    self, Limits, Report, SearchControl, SearchOptions, SearchResult, TranspositionTable,
};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{mpsc, Arc, OnceLock, Weak};
use std::time::Duration;

use crate::hosts;

const MIDDLE_GAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8";

fn position() -> Chess {
    cannonade_core::engine::registry::new_game::<Chess>("chess")
        .unwrap()
        .with_fen(MIDDLE_GAME)
        .unwrap()
}

/// A host that says it has threads and refuses every one (a pool that is full).
struct Refusing;

impl Host for Refusing {
    fn now(&self) -> Duration {
        Duration::ZERO
    }

    fn spawn(&self, task: Task) -> Result<(), Task> {
        Err(task)
    }

    fn threads(&self) -> usize {
        8
    }
}

/// Searches `pos` on `host` with `threads` threads and a fresh table; the result, as
/// reported and as returned (which must agree), and the lines reported.
fn run(
    host: SharedHost,
    pos: &Chess,
    limits: &Limits,
    threads: usize,
) -> (SearchResult<Move>, Vec<Vec<Move>>) {
    let tt = Arc::new(TranspositionTable::new(4));
    let ctl = Arc::new(SearchControl::new(host, false));
    let opts = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    let mut lines = Vec::new();
    let mut done = None;
    let r = search::search(pos, limits, &opts, &tt, &ctl, &mut |rep| match rep {
        Report::Info(i) => lines.push(i.pv),
        Report::Done(d) => done = Some(d),
    });
    assert_eq!(done.as_ref(), Some(&r));
    (r, lines)
}

/// The move is legal and heads the last line reported, every move of which is legal.
fn assert_searched(pos: &Chess, r: &SearchResult<Move>, lines: &[Vec<Move>]) {
    let best = r.best.expect("a move");
    let pv = lines.last().expect("a line reported");
    assert_eq!(pv.first(), Some(&best));
    let mut p = pos.clone();
    for &m in pv {
        let mut legal = ChessMoves::new();
        p.legal_moves(&mut legal);
        assert!(legal.contains(&m), "{m:?} illegal in {}", p.to_fen());
        p.make_move(m);
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn a_host_without_threads_searches_as_one_with_threads_at_one_thread() {
    let pos = position();
    let (alone, lines) = run(hosts::single_thread(), &pos, &depth(7), 1);
    assert_searched(&pos, &alone, &lines);
    let (threaded, _) = run(hosts::threads(), &pos, &depth(7), 1);
    assert_eq!(alone, threaded);
    assert!(alone.nodes > 1000, "{alone:?}");
    // Asked for four threads, a host without any searches with one: the same search.
    let (four, _) = run(hosts::single_thread(), &pos, &depth(7), 4);
    assert_eq!(alone, four);
}

#[test]
fn helpers_a_host_refuses_are_done_without() {
    let pos = position();
    let (one, _) = run(Arc::new(Refusing), &pos, &depth(6), 1);
    let (four, lines) = run(Arc::new(Refusing), &pos, &depth(6), 4);
    assert_searched(&pos, &four, &lines);
    // No helper ran: the main thread's own search, node for node.
    assert_eq!(one, four);
}

#[test]
fn helpers_run_on_the_hosts_threads_and_end_with_the_search() {
    let pos = position();
    let host = hosts::thread_per_task();
    let (r, lines) = run(host.clone(), &pos, &depth(7), 4);
    assert_searched(&pos, &r, &lines);
    assert_eq!(host.started.load(Relaxed), 3, "three helpers");
    assert_eq!(r.depth, 7);
}

/// What an infinite search on a host without threads saw: how often the host was polled
/// while it searched and while it waited, and whether `stop` was sent before the result.
#[derive(Default)]
struct Polls {
    busy: AtomicUsize,
    idle: AtomicUsize,
    stopped: AtomicBool,
}

/// An infinite search on a host without threads whose poll sends `stop` (as a browser's
/// input would) once `stop_when` says so.
fn infinite_without_threads(
    limits: Limits,
    stop_when: impl Fn(&Polls) -> bool + Send + Sync + 'static,
) -> (SearchResult<Move>, Vec<Vec<Move>>, Arc<Polls>) {
    let polls = Arc::new(Polls::default());
    let control: Arc<OnceLock<Weak<SearchControl>>> = Arc::new(OnceLock::new());
    let (p, c) = (Arc::clone(&polls), Arc::clone(&control));
    let host = SingleThread::manual().on_poll(move |idle| {
        let count = if idle { &p.idle } else { &p.busy };
        count.fetch_add(1, Relaxed);
        if stop_when(&p) {
            p.stopped.store(true, Relaxed);
            if let Some(ctl) = c.get().and_then(Weak::upgrade) {
                ctl.stop();
            }
        }
    });
    let ctl = Arc::new(SearchControl::new(Arc::new(host), false));
    control.set(Arc::downgrade(&ctl)).unwrap();
    let tt = Arc::new(TranspositionTable::new(4));
    let pos = position();
    let mut lines = Vec::new();
    let mut done = None;
    let limits = Limits {
        infinite: true,
        ..limits
    };
    let r = search::search(
        &pos,
        &limits,
        &SearchOptions::default(),
        &tt,
        &ctl,
        &mut |rep| match rep {
            Report::Info(i) => lines.push(i.pv),
            Report::Done(d) => {
                assert!(polls.stopped.load(Relaxed), "the result before `stop`");
                done = Some(d);
            }
        },
    );
    assert_eq!(done.as_ref(), Some(&r));
    assert_searched(&pos, &r, &lines);
    (r, lines, polls)
}

#[test]
fn an_infinite_search_without_threads_ends_when_its_poll_stops_it() {
    // Stopped while it searches: the host is polled every thousand nodes or so.
    let (r, _, polls) = infinite_without_threads(Limits::default(), |p| p.busy.load(Relaxed) >= 50);
    assert_eq!(polls.busy.load(Relaxed), 50);
    assert_eq!(polls.idle.load(Relaxed), 0);
    assert!(r.nodes >= 50 * 512, "{r:?}");
    // Done with its depth, it waits for `stop`, polling the host meanwhile.
    let (r, _, polls) = infinite_without_threads(depth(3), |p| p.idle.load(Relaxed) >= 3);
    assert_eq!(polls.idle.load(Relaxed), 3);
    assert_eq!(r.depth, 3);
}

#[test]
fn an_infinite_search_with_threads_waits_for_stop_from_another_thread() {
    let pos = position();
    let host = hosts::threads();
    let ctl = Arc::new(SearchControl::new(host, false));
    let stopped = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let (c, s) = (Arc::clone(&ctl), Arc::clone(&stopped));
    let search_thread = std::thread::Builder::new()
        .stack_size(search::smp::SEARCH_STACK_BYTES)
        .spawn(move || {
            let tt = Arc::new(TranspositionTable::new(4));
            let limits = Limits {
                infinite: true,
                depth: Some(3),
                ..Limits::default()
            };
            let opts = SearchOptions {
                threads: 2,
                ..SearchOptions::default()
            };
            search::search(&pos, &limits, &opts, &tt, &c, &mut |rep| match rep {
                Report::Info(i) => {
                    let _ = tx.send(i.depth);
                }
                Report::Done(_) => assert!(s.load(Relaxed), "the result before `stop`"),
            })
        })
        .unwrap();
    // Depth 3 reported: the search has nothing left to do but wait.
    while rx.recv().unwrap() < 3 {}
    stopped.store(true, Relaxed);
    ctl.stop();
    let r = search_thread.join().expect("no panic in the search");
    assert_eq!(r.depth, 3);
    assert!(r.best.is_some());
}
