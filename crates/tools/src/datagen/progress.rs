//! Progress on stderr: a bar on a terminal, a plain line every few seconds otherwise.

use indicatif::ProgressBar;
use std::time::{Duration, Instant};

/// Plain progress lines (stderr not a terminal) come at most this often.
pub(super) const PLAIN_LINE_EVERY: Duration = Duration::from_secs(10);

/// Progress on stderr: an `indicatif` bar on a terminal, otherwise a plain line now and then.
pub(super) struct Progress {
    pub(super) bar: Option<ProgressBar>,
    pub(super) enabled: bool,
    pub(super) start: Instant,
    pub(super) from: u64,
    pub(super) target: u64,
    pub(super) last_line: Instant,
}

pub(super) fn duration_text(secs: f64) -> String {
    if !secs.is_finite() {
        return "?".into();
    }
    let s = secs.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

impl Progress {
    pub(super) fn new(enabled: bool, from: u64, target: u64) -> Self {
        let bar = crate::progress::terminal_bar(
            enabled,
            target,
            "[{bar:30.cyan/blue}] {pos}/{len} positions, {msg}, {elapsed_precise}",
        )
        .inspect(|bar| {
            bar.set_position(from);
            bar.set_message("starting");
        });
        let now = Instant::now();
        Progress {
            bar,
            enabled,
            start: now,
            from,
            target,
            last_line: now,
        }
    }

    /// Rate and estimated time left.
    pub(super) fn rates(&self, have: u64) -> (f64, f64) {
        let rate = (have - self.from) as f64 / self.start.elapsed().as_secs_f64().max(1e-9);
        let left = self.target.saturating_sub(have) as f64 / rate;
        (rate, left)
    }

    pub(super) fn update(&mut self, have: u64) {
        if !self.enabled {
            return;
        }
        let (rate, left) = self.rates(have);
        let text = format!("{rate:.0} positions/s, ETA {}", duration_text(left));
        match &self.bar {
            Some(bar) => {
                bar.set_position(have.min(self.target));
                bar.set_message(text);
            }
            None if self.last_line.elapsed() >= PLAIN_LINE_EVERY => {
                self.last_line = Instant::now();
                eprintln!("datagen: {have}/{} positions, {text}", self.target);
            }
            None => {}
        }
    }

    pub(super) fn end(&self) {
        if let Some(bar) = &self.bar {
            bar.finish();
            eprintln!();
        }
    }
}
