//! The progress bar every long-running tool shows (`match`, `datagen`, `train`): an
//! `indicatif` bar on stderr only when stderr is a terminal, and lines printed around it
//! without tearing it.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `len` steps drawn with `template`, or `None` when stderr is not a terminal (or
/// `enabled` is false): the tool then prints plain lines instead.
pub fn terminal_bar(enabled: bool, len: u64, template: &str) -> Option<ProgressBar> {
    (enabled && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(len);
        bar.set_style(
            ProgressStyle::with_template(template)
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar
    })
}

/// Prints a line on stdout, above the bar if there is one.
pub fn say(bar: Option<&ProgressBar>, text: &str) {
    match bar {
        Some(bar) => bar.suspend(|| println!("{text}")),
        None => println!("{text}"),
    }
}
