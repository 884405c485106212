//! Progress on stderr for every long-running tool (`match`, `datagen`, `train`, `analyse`,
//! `epd`, `spsa`): an `indicatif` bar only when stderr is a terminal, the tool's lines printed
//! around it without tearing it, plain progress lines where there is no bar, and durations
//! written as `01:02:03`.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The bar of the tools that search positions one by one (`analyse`, `epd`).
pub const POSITIONS: &str = "[{bar:30.cyan/blue}] {pos}/{len} positions, {msg}, {elapsed_precise}";

/// A tool's progress: a bar on a terminal (unless quiet), else plain lines now and then.
pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    /// How often plain lines come where there is no bar; `None`: never.
    plain_every: Option<Duration>,
    last_plain: Instant,
}

impl Progress {
    /// Progress over `len` steps, drawn with `template` (indicatif's) when stderr is a terminal
    /// and the tool is not `quiet`. No plain lines (see [`Progress::with_plain_lines`]).
    pub fn new(quiet: bool, len: u64, template: &str) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(len);
            bar.set_style(
                ProgressStyle::with_template(template)
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            bar
        });
        Progress {
            bar,
            quiet,
            plain_every: None,
            last_plain: Instant::now(),
        }
    }

    /// Where there is no bar, [`Progress::update`] prints a plain line at most this often
    /// (`Duration::ZERO`: at every update).
    pub fn with_plain_lines(mut self, every: Duration) -> Progress {
        self.plain_every = Some(every);
        self
    }

    /// The bar, when there is one.
    pub fn bar(&self) -> Option<&ProgressBar> {
        self.bar.as_ref()
    }

    /// Prints a line of the tool's output on stdout (unless quiet), above the bar.
    pub fn say(&self, text: &str) {
        if self.quiet {
            return;
        }
        match &self.bar {
            Some(bar) => bar.suspend(|| println!("{text}")),
            None => println!("{text}"),
        }
    }

    /// `pos` steps done: the bar moves (with `message`, if any), or a plain line (`plain`) goes
    /// to stderr when one is due.
    pub fn update(&mut self, pos: u64, message: Option<String>, plain: impl FnOnce() -> String) {
        if let Some(bar) = &self.bar {
            bar.set_position(pos);
            if let Some(m) = message {
                bar.set_message(m);
            }
            return;
        }
        match self.plain_every {
            Some(every) if !self.quiet && self.last_plain.elapsed() >= every => {
                self.last_plain = Instant::now();
                eprintln!("{}", plain());
            }
            _ => {}
        }
    }

    /// The end: the bar stays as the last word on progress, and what follows starts a new line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish();
            eprintln!();
        }
    }

    /// The end: the bar goes.
    pub fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A duration of whole seconds as hours, minutes and seconds: `01:02:03`.
pub fn hms(secs: u64) -> String {
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_hours_minutes_seconds() {
        assert_eq!(hms(3_723), "01:02:03");
        assert_eq!(hms(59), "00:00:59");
        assert_eq!(hms(100 * 3600), "100:00:00");
    }

    /// Off a terminal (as under `cargo test`) there is no bar: plain lines come as often as
    /// asked, and a quiet tool prints none.
    #[test]
    fn plain_lines_come_when_due() {
        let mut lines = 0;
        let mut p = Progress::new(false, 10, "{pos}").with_plain_lines(Duration::ZERO);
        assert!(p.bar().is_none());
        for i in 0..3 {
            p.update(i, None, || {
                lines += 1;
                String::new()
            });
        }
        assert_eq!(lines, 3);
        let mut slow =
            Progress::new(false, 10, "{pos}").with_plain_lines(Duration::from_secs(3600));
        let mut quiet = Progress::new(true, 10, "{pos}").with_plain_lines(Duration::ZERO);
        let mut none = Progress::new(false, 10, "{pos}");
        for p in [&mut slow, &mut quiet, &mut none] {
            p.update(1, None, || panic!("no line is due"));
        }
    }
}
