//! Long jobs that are not a search for a move (`perft`, `bench`), run on their own thread so
//! that a protocol's command loop still answers while they count: one runner for both
//! protocols. A job reports [`JobEvent`]s; each protocol words them in its own form.

use crate::engine::bench::{self, BenchError, BenchResult};
use crate::engine::Session;
use crate::games::Notation;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// The deepest perft a protocol accepts (deeper counts would run for days).
pub const MAX_PERFT_DEPTH: u32 = 20;
/// The depths `bench` accepts.
pub const BENCH_DEPTHS: std::ops::RangeInclusive<u32> = 1..=64;

/// What to run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// Perft of the current position, split by root move.
    Perft { depth: u32 },
    /// The bench (every variant's bench positions) to a fixed depth.
    Bench { depth: u32 },
}

/// What a job tells, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobEvent {
    /// A root move and the leaves below it.
    PerftMove(String, u64),
    /// The perft's total, last.
    PerftTotal { depth: u32, total: u64 },
    /// One bench position searched, in words.
    BenchLine(String),
    /// The bench's result, last.
    BenchDone(BenchResult),
    /// Stopped before it finished (nothing more comes).
    Stopped,
    /// Failed (nothing more comes).
    Failed(String),
}

/// A job running on its own thread.
pub struct Job {
    kind: JobKind,
    cancel: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl Job {
    /// Starts `kind` on a copy of the game (`session`, searched with `threads` where the job
    /// uses threads), sending its events to `report` from the job's thread.
    pub fn start(
        kind: JobKind,
        session: Box<dyn Session>,
        threads: usize,
        notation: Notation,
        mut report: impl FnMut(JobEvent) + Send + 'static,
    ) -> std::io::Result<Job> {
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&cancel);
        let name = match kind {
            JobKind::Perft { .. } => "perft",
            JobKind::Bench { .. } => "bench",
        };
        let handle = thread::Builder::new()
            .name(name.into())
            .stack_size(crate::search::smp::SEARCH_STACK_BYTES)
            .spawn(move || match kind {
                JobKind::Perft { depth } => {
                    match session.perft_divide_until(depth, threads.max(1), notation, &stop) {
                        None => report(JobEvent::Stopped),
                        Some(d) => {
                            for (m, n) in d.moves {
                                report(JobEvent::PerftMove(m, n));
                            }
                            report(JobEvent::PerftTotal {
                                depth,
                                total: d.total,
                            });
                        }
                    }
                }
                JobKind::Bench { depth } => {
                    let r = bench::run_until(depth, &stop, |l| report(JobEvent::BenchLine(l)));
                    report(match r {
                        Ok(r) => JobEvent::BenchDone(r),
                        Err(BenchError::Stopped) => JobEvent::Stopped,
                        Err(e) => JobEvent::Failed(e.to_string()),
                    });
                }
            })?;
        Ok(Job {
            kind,
            cancel,
            handle,
        })
    }

    pub fn kind(&self) -> JobKind {
        self.kind
    }

    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Stops the job and waits for it (it reports [`JobEvent::Stopped`] unless it had ended).
    pub fn stop(self) {
        self.cancel.store(true, Relaxed);
        self.wait();
    }

    /// Waits for the job to end by itself.
    pub fn wait(self) {
        let _ = self.handle.join();
    }
}

/// A job's depth that is missing or out of its range.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
#[error("{job}: expected a depth from {} to {}", .depths.start(), .depths.end())]
pub struct DepthError {
    pub job: &'static str,
    pub depths: std::ops::RangeInclusive<u32>,
}

/// Reads a job's depth argument: `None` for the default (`bench` has one, `perft` not).
pub fn parse_depth(kind: &str, arg: Option<&str>) -> Result<JobKind, DepthError> {
    let depth = arg.map(str::parse::<u32>);
    if kind == "perft" {
        return match depth {
            Some(Ok(depth)) if depth <= MAX_PERFT_DEPTH => Ok(JobKind::Perft { depth }),
            _ => Err(DepthError {
                job: "perft",
                depths: 0..=MAX_PERFT_DEPTH,
            }),
        };
    }
    match depth {
        None => Ok(JobKind::Bench {
            depth: bench::DEFAULT_DEPTH,
        }),
        Some(Ok(depth)) if BENCH_DEPTHS.contains(&depth) => Ok(JobKind::Bench { depth }),
        _ => Err(DepthError {
            job: "bench",
            depths: BENCH_DEPTHS,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry;
    use std::sync::mpsc;

    fn events(kind: JobKind) -> Vec<JobEvent> {
        let (tx, rx) = mpsc::channel();
        let session = registry::find("chess").unwrap().new_session();
        let job = Job::start(kind, session, 1, Notation::Uci, move |e| {
            let _ = tx.send(e);
        })
        .unwrap();
        job.wait();
        rx.iter().collect()
    }

    #[test]
    fn perft_reports_each_move_then_the_total() {
        let ev = events(JobKind::Perft { depth: 2 });
        assert_eq!(ev.len(), 21);
        assert!(ev[..20]
            .iter()
            .all(|e| matches!(e, JobEvent::PerftMove(_, 20))));
        assert_eq!(
            ev[20],
            JobEvent::PerftTotal {
                depth: 2,
                total: 400
            }
        );
        assert_eq!(
            events(JobKind::Perft { depth: 0 }),
            vec![JobEvent::PerftTotal { depth: 0, total: 1 }]
        );
    }

    #[test]
    fn a_stopped_job_says_so() {
        let (tx, rx) = mpsc::channel();
        let session = registry::find("chess").unwrap().new_session();
        let job = Job::start(
            JobKind::Perft { depth: 9 },
            session,
            1,
            Notation::Uci,
            move |e| {
                let _ = tx.send(e);
            },
        )
        .unwrap();
        job.stop();
        assert_eq!(rx.iter().collect::<Vec<_>>(), vec![JobEvent::Stopped]);
    }

    #[test]
    fn depths_are_checked() {
        assert_eq!(
            parse_depth("perft", Some("3")),
            Ok(JobKind::Perft { depth: 3 })
        );
        assert!(parse_depth("perft", None).is_err());
        assert!(parse_depth("perft", Some("21")).is_err());
        assert_eq!(
            parse_depth("bench", None),
            Ok(JobKind::Bench {
                depth: bench::DEFAULT_DEPTH
            })
        );
        assert!(parse_depth("bench", Some("0")).is_err());
        assert!(parse_depth("bench", Some("x")).is_err());
    }
}
