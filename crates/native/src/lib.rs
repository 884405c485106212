//! What a native program gives the engine core (see `cannonade_core::host`): `std`'s clock, a
//! seed drawn from the clock and the process id, and a pool of threads that lasts across
//! searches; and the protocol loop on standard input and output ([`stdio`]). The `cannonade`
//! program and the tools take the process-wide host, [`host`].

mod pool;
pub mod stdio;

pub use pool::Pool;

use cannonade_core::host::{Host, SharedHost, Task};
use cannonade_core::search::smp::SEARCH_STACK_BYTES;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The native host: time since the host was made, and the threads of its pool.
pub struct NativeHost {
    epoch: Instant,
    pool: Pool,
}

impl Default for NativeHost {
    fn default() -> Self {
        NativeHost::new()
    }
}

impl NativeHost {
    /// A host with a pool of its own (threads with the search's stack, [`SEARCH_STACK_BYTES`],
    /// at most [`MAX_THREADS`]). The program uses one, [`host`]; tests make their own to count
    /// its threads.
    pub fn new() -> Self {
        NativeHost {
            epoch: Instant::now(),
            pool: Pool::new(MAX_THREADS, SEARCH_STACK_BYTES),
        }
    }

    /// The pool, to see how many threads it has started.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }
}

/// The most threads the pool keeps: room for the most search threads a GUI may ask for
/// (`Threads` goes to 256) and a job beside them.
pub const MAX_THREADS: usize = 512;

impl Host for NativeHost {
    fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    fn spawn(&self, task: Task) -> Result<(), Task> {
        self.pool.spawn(task)
    }

    fn threads(&self) -> usize {
        self.pool.max_threads()
    }
}

/// The process's host, made on first use and kept to the end.
pub fn host() -> SharedHost {
    static HOST: OnceLock<Arc<NativeHost>> = OnceLock::new();
    HOST.get_or_init(|| Arc::new(NativeHost::new())).clone()
}

/// A seed that differs from run to run: the clock's nanoseconds and the process id.
pub fn seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

/// Runs `f` on a new thread with the search's stack and returns what it returns (a panic in
/// it goes on in the caller): for a program whose own thread may have too little stack for a
/// search it runs in place (the main thread has 8 MB on Linux, 1 MB on Windows).
pub fn with_search_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let handle = search_thread("main".into())
            .spawn_scoped(scope, f)
            .expect("cannot start a thread for the search");
        match handle.join() {
            Ok(v) => v,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// A thread builder named `name` with the search's stack, for tools that run searches on
/// threads of their own (each search runs on the thread that calls it).
pub fn search_thread(name: String) -> std::thread::Builder {
    std::thread::Builder::new()
        .name(name)
        .stack_size(SEARCH_STACK_BYTES)
}
