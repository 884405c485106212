//! Protocol adapters: UCI and XBoard, translators between lines of text and the engine
//! facade ([`crate::engine::Engine`]). They read no input and write no output of their own:
//! the program that embeds them hands each line to [`Adapter::handle`] and gives an
//! [`Output`] where their lines go. Reading input, choosing the protocol by the first command
//! and the end of input are the embedder's (the native program's `stdio` loop, a browser
//! build's worker).

pub mod uci;
pub mod xboard;

use std::sync::Arc;

/// Where an adapter's output goes, given by the program that embeds it. Both functions may be
/// called from any thread: the owner's, or the thread a search or job runs on.
#[derive(Clone)]
pub struct Output {
    line: Arc<dyn Fn(&str) + Send + Sync>,
    wake: Arc<dyn Fn() + Send + Sync>,
}

impl Output {
    /// `line` writes one line of output (without its line end, whole: lines from two threads
    /// must not interleave). `wake` tells the owner of the adapter that the engine has
    /// something for it to act on (a search or job ended): the owner then calls
    /// [`Adapter::on_wake`] on its own thread, soon. Where the work ran on the owner's own
    /// thread, `wake` comes before the call that ran it returns.
    pub fn new(
        line: impl Fn(&str) + Send + Sync + 'static,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> Output {
        Output {
            line: Arc::new(line),
            wake: Arc::new(wake),
        }
    }

    /// Writes one line.
    pub fn say(&self, line: &str) {
        (self.line)(line);
    }

    fn wake(&self) {
        (self.wake)();
    }
}

/// What the embedding program drives, whichever the protocol.
pub trait Adapter: Send {
    /// Acts on one line of input, answering through the [`Output`]; false when the line was
    /// `quit` (then [`Adapter::finish`] is due).
    fn handle(&mut self, line: &str) -> bool;

    /// Acts on what the engine reported since the last call (XBoard plays the move of a
    /// search that ended); called by the owner after [`Output`]'s `wake`.
    fn on_wake(&mut self);

    /// Whether work runs that ends by itself (a search with a limit, a `perft`): at the end of
    /// input it gets a moment to finish before [`Adapter::finish`] stops it.
    fn working(&self) -> bool;

    /// The end (`quit`, or the end of input): stops whatever runs, giving the answers owed
    /// (the move of a search stopped).
    fn finish(&mut self);
}

pub use crate::engine::text::{clip, clip_message, ECHO_CHARS};

/// Reads a whole number as a GUI sends it (an optional sign, then digits), saturating at the
/// ends of `i64` instead of refusing numbers too long for it. `None` if it is not a number.
pub fn parse_int_saturating(s: &str) -> Option<i64> {
    let (negative, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match digits.parse::<i64>() {
        Ok(v) if negative => -v,
        Ok(v) => v,
        Err(_) if negative => i64::MIN,
        Err(_) => i64::MAX,
    })
}

/// [`parse_int_saturating`], with negative numbers read as zero (a clock that ran out).
pub fn parse_count(s: &str) -> Option<u64> {
    parse_int_saturating(s).map(|v| v.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_saturate() {
        assert_eq!(parse_int_saturating("42"), Some(42));
        assert_eq!(parse_int_saturating("-7"), Some(-7));
        assert_eq!(parse_int_saturating("+7"), Some(7));
        assert_eq!(
            parse_int_saturating("99999999999999999999999"),
            Some(i64::MAX)
        );
        assert_eq!(
            parse_int_saturating("-99999999999999999999"),
            Some(i64::MIN)
        );
        for bad in ["", "-", "1.5", "x", "1e3", " 1", "--1"] {
            assert_eq!(parse_int_saturating(bad), None, "{bad}");
        }
        assert_eq!(parse_count("-5"), Some(0));
    }

    #[test]
    fn echoes_are_clipped() {
        assert_eq!(clip("short"), "short");
        let long = "é".repeat(1000);
        let c = clip(&long);
        assert_eq!(c.chars().count(), ECHO_CHARS + 3);
        assert!(c.ends_with("..."));
    }
}
