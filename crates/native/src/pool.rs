//! A pool of threads that lasts across searches: a thread is started when a task finds none
//! idle, and waits, once its task is done, on a condition for the next one. A search then
//! costs no thread start (a fresh 64 MB stack, page faults and its unmapping) once the pool has
//! the threads it needs.
//!
//! A task tells whoever waits for it that it has ended from inside (a search's helpers count
//! themselves out as they end), so its thread goes idle a moment after: a task handed in
//! within that moment finds the thread still busy and gets a new one. Searches that follow
//! each other at once can so make the pool start a few threads more than one search needs;
//! they stay and serve later searches.

use cannonade_core::host::Task;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};

/// Threads started on demand, reused for task after task.
pub struct Pool {
    shared: Arc<Shared>,
    max_threads: usize,
    stack_bytes: usize,
}

struct Shared {
    state: Mutex<State>,
    /// Told when a task is queued.
    work: Condvar,
    /// Threads started so far, ended or not.
    started: AtomicUsize,
}

#[derive(Default)]
struct State {
    /// Tasks handed in and not yet taken: never more than there are idle threads to take them.
    queue: VecDeque<Task>,
    /// Threads waiting for a task.
    idle: usize,
    /// Threads alive.
    threads: usize,
    /// The pool was dropped: its threads end once the queue is empty.
    closing: bool,
}

impl Pool {
    /// An empty pool of at most `max_threads` threads, each with a stack of `stack_bytes`.
    pub fn new(max_threads: usize, stack_bytes: usize) -> Self {
        Pool {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
                work: Condvar::new(),
                started: AtomicUsize::new(0),
            }),
            max_threads,
            stack_bytes,
        }
    }

    pub fn max_threads(&self) -> usize {
        self.max_threads
    }

    /// How many threads the pool has started since it was made.
    pub fn threads_started(&self) -> usize {
        self.shared.started.load(Relaxed)
    }

    /// How many threads wait for a task now.
    pub fn idle_threads(&self) -> usize {
        self.shared.lock().idle
    }

    /// Runs `task` on an idle thread, or on a new one; gives it back when the pool is full or
    /// the system refuses a thread.
    pub fn spawn(&self, task: Task) -> Result<(), Task> {
        let mut state = self.shared.lock();
        if state.queue.len() < state.idle {
            state.queue.push_back(task);
            drop(state);
            self.shared.work.notify_one();
            return Ok(());
        }
        if state.threads >= self.max_threads {
            return Err(task);
        }
        // The new thread takes this task first; it counts as alive from now, so that spawns
        // meanwhile cannot overfill the pool.
        state.threads += 1;
        drop(state);
        let shared = Arc::clone(&self.shared);
        let first = Arc::new(Mutex::new(Some(task)));
        let handed = Arc::clone(&first);
        let id = self.shared.started.fetch_add(1, Relaxed);
        let started = std::thread::Builder::new()
            .name(format!("pool-{id}"))
            .stack_size(self.stack_bytes)
            .spawn(move || {
                let task = handed.lock().unwrap_or_else(|e| e.into_inner()).take();
                shared.serve(task);
            });
        if started.is_err() {
            self.shared.started.fetch_sub(1, Relaxed);
            self.shared.lock().threads -= 1;
            // The closure (and its handle on the task) was dropped with the refusal.
            let task = first.lock().unwrap_or_else(|e| e.into_inner()).take();
            return Err(task.expect("a task the thread never took"));
        }
        Ok(())
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A pool thread's life: `first`, then every task queued for it, forever.
    fn serve(&self, first: Option<Task>) {
        if let Some(task) = first {
            run(task);
        }
        let mut state = self.lock();
        loop {
            if let Some(task) = state.queue.pop_front() {
                drop(state);
                run(task);
                state = self.lock();
                continue;
            }
            if state.closing {
                state.threads -= 1;
                return;
            }
            state.idle += 1;
            state = self.work.wait(state).unwrap_or_else(|e| e.into_inner());
            state.idle -= 1;
        }
    }
}

impl Drop for Pool {
    /// Idle threads end now, busy ones when their task is done.
    fn drop(&mut self) {
        self.shared.lock().closing = true;
        self.shared.work.notify_all();
    }
}

/// Runs a task; a panic in it (a bug, already printed by the panic hook) ends the task, not
/// the thread. Whoever waits for the task learns of it by its own means (a search's helpers
/// count themselves out as they unwind).
fn run(task: Task) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(task));
}
