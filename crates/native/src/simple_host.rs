//! A plain [`Host`]: `std`'s clock and a fresh thread for every task.
//!
//! A stand-in until the native crate's own host (with its pool of threads) is merged: the
//! protocol loop needs some host to run on.

use cannonade_core::host::{Host, Task};
use cannonade_core::search::smp::SEARCH_STACK_BYTES;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// `std`'s clock, and a thread (with a search's stack) for each task.
pub struct SimpleHost {
    start: Instant,
}

impl SimpleHost {
    pub fn new() -> SimpleHost {
        SimpleHost {
            start: Instant::now(),
        }
    }
}

impl Default for SimpleHost {
    fn default() -> Self {
        SimpleHost::new()
    }
}

impl Host for SimpleHost {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }

    fn spawn(&self, task: Task) -> Result<(), Task> {
        // A thread that cannot be started drops the closure it was given: the task waits in
        // a slot the caller keeps, to be given back then.
        let slot = Arc::new(Mutex::new(Some(task)));
        let theirs = Arc::clone(&slot);
        let started = thread::Builder::new()
            .name("engine".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let task = theirs.lock().unwrap_or_else(PoisonError::into_inner).take();
                if let Some(task) = task {
                    task();
                }
            });
        match started {
            Ok(_) => Ok(()),
            Err(_) => slot
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
                .map_or(Ok(()), Err),
        }
    }
}
