//! What the program that embeds the core gives it: a clock, and threads where it has them.
//!
//! The core never asks the operating system for the time or for a thread itself: a native
//! program hands it a host with `std`'s clock and a pool of threads (the `cannonade-native`
//! crate), the WebAssembly build a host with the browser's clock and no threads
//! ([`SingleThread`]). Everything in the core that needs the time (a search's clock, `bench`'s
//! speed) or a thread (the search's Lazy SMP helpers, `perft` split over threads, long jobs)
//! asks the [`Host`] it was given.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Work for a thread of the host's.
pub type Task = Box<dyn FnOnce() + Send + 'static>;

/// A host as the parts of the core that keep it (a search's control, a job) hold it.
pub type SharedHost = Arc<dyn Host>;

/// The services the embedding program provides.
pub trait Host: Send + Sync + 'static {
    /// Time since a fixed moment of the host's choosing. It never goes back.
    fn now(&self) -> Duration;

    /// Runs `task` on a thread other than the caller's (with room on its stack for a search),
    /// or gives it back when the host has no thread to give (none at all, as in a browser
    /// without threads, or none left): the caller then runs it itself or does without.
    fn spawn(&self, task: Task) -> Result<(), Task>;

    /// Called now and then by a search that runs on the caller's own thread (a host without
    /// threads cannot read its input while the search runs): every few thousand nodes, and
    /// in a loop while an infinite or ponder search waits for `stop` or `ponderhit` (`idle`
    /// true; the host may then block for a short while, up to a few milliseconds). A host
    /// whose input arrives meanwhile hands it to the engine here. The default does nothing.
    fn poll(&self, idle: bool) {
        let _ = idle;
    }

    /// How many tasks [`Host::spawn`] can run at once besides the caller's thread; 0 for a
    /// host without threads (the default). It also tells a search how `stop` reaches it: with
    /// threads, from another thread while the search sleeps on a condition; without, only
    /// through [`Host::poll`].
    fn threads(&self) -> usize {
        0
    }
}

/// How a [`SingleThread`] host tells the time.
enum Clock {
    /// Moved only by [`SingleThread::advance`] (nanoseconds).
    Manual(AtomicU64),
    Given(Box<dyn Fn() -> Duration + Send + Sync>),
}

/// A host without threads: every task is given back, so searches run alone on the caller's
/// thread and learn of `stop` through [`Host::poll`]. Its clock is handed in (the browser's,
/// say) or moved by hand (tests).
pub struct SingleThread {
    clock: Clock,
    poll: Option<Box<dyn Fn(bool) + Send + Sync>>,
}

impl SingleThread {
    /// A host whose time is `clock()` (which must never go back).
    pub fn new(clock: impl Fn() -> Duration + Send + Sync + 'static) -> Self {
        SingleThread {
            clock: Clock::Given(Box::new(clock)),
            poll: None,
        }
    }

    /// A host whose clock stands at zero until [`SingleThread::advance`] moves it: a search
    /// on it is never out of time, so its work is fixed by its depth or node limit alone.
    pub fn manual() -> Self {
        SingleThread {
            clock: Clock::Manual(AtomicU64::new(0)),
            poll: None,
        }
    }

    /// The same host, calling `poll` where [`Host::poll`] is called.
    pub fn on_poll(self, poll: impl Fn(bool) + Send + Sync + 'static) -> Self {
        SingleThread {
            poll: Some(Box::new(poll)),
            ..self
        }
    }

    /// Moves a manual clock on by `by`; a given clock is not this host's to move.
    pub fn advance(&self, by: Duration) {
        if let Clock::Manual(nanos) = &self.clock {
            let by = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
            nanos
                .fetch_update(Relaxed, Relaxed, |n| Some(n.saturating_add(by)))
                .ok();
        }
    }
}

impl Host for SingleThread {
    fn now(&self) -> Duration {
        match &self.clock {
            Clock::Manual(nanos) => Duration::from_nanos(nanos.load(Relaxed)),
            Clock::Given(clock) => clock(),
        }
    }

    fn spawn(&self, task: Task) -> Result<(), Task> {
        Err(task)
    }

    fn poll(&self, idle: bool) {
        if let Some(poll) = &self.poll {
            poll(idle);
        }
    }
}

/// Tasks handed to a host's threads and waited for together: the helpers of one search, or of
/// one split perft. A task the host gives back is dropped unrun; dropping the group waits
/// (so even a caller that panics lets go of the data its tasks share only once they ended).
#[derive(Default)]
pub(crate) struct TaskGroup {
    count: Arc<Running>,
}

/// How many of a group's tasks are still running (or not yet started).
#[derive(Default)]
struct Running {
    count: Mutex<usize>,
    ended: Condvar,
}

/// Held by a task of a group; dropping it (when the task ends, panics or is dropped unrun)
/// counts the task out.
struct Member(Arc<Running>);

impl Member {
    fn join(running: &Arc<Running>) -> Member {
        *running.count.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        Member(Arc::clone(running))
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        let mut count = self.0.count.lock().unwrap_or_else(|e| e.into_inner());
        *count -= 1;
        if *count == 0 {
            self.0.ended.notify_all();
        }
    }
}

impl TaskGroup {
    /// Hands `task` to a thread of `host`; false when the host gave it back (it is dropped
    /// unrun).
    pub(crate) fn spawn(&self, host: &dyn Host, task: impl FnOnce() + Send + 'static) -> bool {
        let member = Member::join(&self.count);
        host.spawn(Box::new(move || {
            // The task's own data goes first, then the group hears that it ended.
            task();
            drop(member);
        }))
        .is_ok()
    }

    /// Waits until every task handed out has ended. Without running tasks (a host without
    /// threads) it returns at once, never waiting on the condition.
    pub(crate) fn wait(&self) {
        let mut count = self.count.count.lock().unwrap_or_else(|e| e.into_inner());
        while *count > 0 {
            count = self
                .count
                .ended
                .wait(count)
                .unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Drop for TaskGroup {
    fn drop(&mut self) {
        self.wait();
    }
}

/// Hosts for the core's own tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Host, Task};
    use std::time::{Duration, Instant};

    /// A thread of its own for every task, with a search's stack; `std`'s clock.
    pub(crate) struct ThreadPerTask {
        epoch: Instant,
    }

    impl Default for ThreadPerTask {
        fn default() -> Self {
            ThreadPerTask {
                epoch: Instant::now(),
            }
        }
    }

    impl Host for ThreadPerTask {
        fn now(&self) -> Duration {
            self.epoch.elapsed()
        }

        fn spawn(&self, task: Task) -> Result<(), Task> {
            std::thread::Builder::new()
                .stack_size(crate::search::smp::SEARCH_STACK_BYTES)
                .spawn(task)
                .expect("a thread for the test");
            Ok(())
        }

        fn threads(&self) -> usize {
            64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told() {
        let host = SingleThread::manual();
        assert_eq!(host.now(), Duration::ZERO);
        host.advance(Duration::from_millis(7));
        host.advance(Duration::from_micros(5));
        assert_eq!(host.now(), Duration::from_micros(7005));
    }

    #[test]
    fn a_host_without_threads_gives_tasks_back_and_a_group_does_not_wait_for_them() {
        let ran = Arc::new(AtomicU64::new(0));
        let host = SingleThread::manual();
        let group = TaskGroup::default();
        let r = Arc::clone(&ran);
        assert!(!group.spawn(&host, move || {
            r.fetch_add(1, Relaxed);
        }));
        group.wait();
        assert_eq!(ran.load(Relaxed), 0, "given back, dropped unrun");
        assert_eq!(Arc::strong_count(&ran), 1, "and its data let go");
        let polls = Arc::new(AtomicU64::new(0));
        let p = Arc::clone(&polls);
        let host = SingleThread::manual().on_poll(move |idle| {
            p.fetch_add(if idle { 10 } else { 1 }, Relaxed);
        });
        host.poll(false);
        host.poll(true);
        assert_eq!(polls.load(Relaxed), 11);
        assert_eq!(host.threads(), 0);
    }
}
