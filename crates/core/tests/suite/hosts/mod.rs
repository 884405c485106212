//! Hosts for the tests: `std`'s clock, with or without threads.

#![allow(dead_code)]

use cannonade_core::host::{Host, SharedHost, SingleThread, Task};
use cannonade_core::search::smp::SEARCH_STACK_BYTES;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A thread of its own for every task, with the search's stack; counts them.
pub struct ThreadPerTask {
    epoch: Instant,
    pub started: AtomicUsize,
}

impl Host for ThreadPerTask {
    fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    fn spawn(&self, task: Task) -> Result<(), Task> {
        self.started.fetch_add(1, Relaxed);
        std::thread::Builder::new()
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(task)
            .expect("a thread for the test");
        Ok(())
    }

    fn threads(&self) -> usize {
        64
    }
}

pub fn thread_per_task() -> Arc<ThreadPerTask> {
    Arc::new(ThreadPerTask {
        epoch: Instant::now(),
        started: AtomicUsize::new(0),
    })
}

/// A host with threads.
pub fn threads() -> SharedHost {
    thread_per_task()
}

/// A host without threads, with `std`'s clock.
pub fn single_thread() -> SharedHost {
    let epoch = Instant::now();
    Arc::new(SingleThread::new(move || epoch.elapsed()))
}
