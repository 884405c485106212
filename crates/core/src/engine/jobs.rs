//! Long jobs that are not a search for a move (`perft`, `bench`), run on a thread of the host's
//! so that a protocol's command loop still answers while they count (on the caller's thread,
//! to the end, where the host has none): one runner for both protocols. A job reports
//! [`JobEvent`]s; each protocol words them in its own form.

use crate::engine::bench::{self, BenchError, BenchResult};
use crate::engine::Session;
use crate::games::Notation;
use crate::host::SharedHost;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};

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

/// A job running on a thread of the host's (or one that ran on the caller's and has ended).
pub struct Job {
    kind: JobKind,
    cancel: Arc<AtomicBool>,
    ended: Arc<Ended>,
}

/// Whether a job has ended, told by the job's thread.
#[derive(Default)]
struct Ended {
    yes: Mutex<bool>,
    told: Condvar,
}

/// Held by the job's task: dropped when the job ends (or panics), it says so.
struct EndsJob(Arc<Ended>);

impl Drop for EndsJob {
    fn drop(&mut self) {
        *self.0.yes.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.0.told.notify_all();
    }
}

impl Job {
    /// Starts `kind` on a copy of the game (`session`, searched with `threads` where the job
    /// uses threads), sending its events to `report` from the job's thread: one of `host`'s,
    /// or, where the host has none to give, the caller's (the job has then ended when this
    /// returns). It does not fail today; the `Result` stays for hosts that may.
    pub fn start(
        host: &SharedHost,
        kind: JobKind,
        session: Box<dyn Session>,
        threads: usize,
        notation: Notation,
        report: impl FnMut(JobEvent) + Send + 'static,
    ) -> std::io::Result<Job> {
        let cancel = Arc::new(AtomicBool::new(false));
        let ended = Arc::new(Ended::default());
        let stop = Arc::clone(&cancel);
        let ends = EndsJob(Arc::clone(&ended));
        let job_host = Arc::clone(host);
        let task = move || {
            // Said last, once the job's report (and what it holds) has gone.
            let _ends = ends;
            let mut report = report;
            match kind {
                JobKind::Perft { depth } => {
                    match session.perft_divide_until(
                        &*job_host,
                        depth,
                        threads.max(1),
                        notation,
                        &stop,
                    ) {
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
                    let r = bench::run_until(&job_host, depth, &stop, |l| {
                        report(JobEvent::BenchLine(l))
                    });
                    report(match r {
                        Ok(r) => JobEvent::BenchDone(r),
                        Err(BenchError::Stopped) => JobEvent::Stopped,
                        Err(e) => JobEvent::Failed(e.to_string()),
                    });
                }
            }
        };
        if let Err(task) = host.spawn(Box::new(task)) {
            task();
        }
        Ok(Job {
            kind,
            cancel,
            ended,
        })
    }

    pub fn kind(&self) -> JobKind {
        self.kind
    }

    pub fn is_finished(&self) -> bool {
        *self.ended.yes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stops the job and waits for it (it reports [`JobEvent::Stopped`] unless it had ended).
    pub fn stop(self) {
        self.cancel.store(true, Relaxed);
        self.wait();
    }

    /// Waits for the job to end by itself.
    pub fn wait(self) {
        let mut ended = self.ended.yes.lock().unwrap_or_else(|e| e.into_inner());
        while !*ended {
            ended = self
                .ended
                .told
                .wait(ended)
                .unwrap_or_else(|e| e.into_inner());
        }
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
    use crate::host::testing::ThreadPerTask;
    use crate::host::SingleThread;
    use std::sync::mpsc;

    fn events(host: SharedHost, kind: JobKind) -> Vec<JobEvent> {
        let (tx, rx) = mpsc::channel();
        let session = registry::find("chess").unwrap().new_session();
        let job = Job::start(&host, kind, session, 1, Notation::Uci, move |e| {
            let _ = tx.send(e);
        })
        .unwrap();
        job.wait();
        rx.iter().collect()
    }

    #[test]
    fn perft_reports_each_move_then_the_total() {
        let threads: SharedHost = Arc::new(ThreadPerTask::default());
        let ev = events(threads, JobKind::Perft { depth: 2 });
        // Where the host has no thread, the job runs on the caller's, with the same events.
        let caller: SharedHost = Arc::new(SingleThread::manual());
        assert_eq!(events(caller, JobKind::Perft { depth: 2 }), ev);
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
            events(
                Arc::new(ThreadPerTask::default()),
                JobKind::Perft { depth: 0 }
            ),
            vec![JobEvent::PerftTotal { depth: 0, total: 1 }]
        );
    }

    #[test]
    fn a_stopped_job_says_so() {
        let (tx, rx) = mpsc::channel();
        let session = registry::find("chess").unwrap().new_session();
        let host: SharedHost = Arc::new(ThreadPerTask::default());
        let job = Job::start(
            &host,
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
