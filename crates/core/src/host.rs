//! What the program that embeds the core gives it: a clock, and threads where it has them.
//!
//! The core never asks the operating system for the time or for a thread itself: a native
//! program hands it a host with `std`'s clock and a pool of threads (the `cannonade-native`
//! crate), the WebAssembly build a host with the browser's clock and no threads. Everything in
//! the core that needs the time (a search's clock, `bench`'s speed) or a thread (the search's
//! main thread and its Lazy SMP helpers, `perft` split over threads, long jobs) asks the
//! [`Host`] it was given.

use std::time::Duration;

/// Work for a thread of the host's.
pub type Task = Box<dyn FnOnce() + Send + 'static>;

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
}
