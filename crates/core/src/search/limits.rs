//! What a `go` command asks for: clocks, fixed limits, analysis modes.

use super::MAX_PLY;
use std::time::Duration;

/// The longest clock, increment or move time the search takes seriously: a year. A GUI may
/// send any number; longer values mean the same as this, so no arithmetic on them can overflow.
pub const MAX_TIME: Duration = Duration::from_secs(365 * 24 * 3600);
/// The deepest mate a `mate` limit asks for.
pub const MAX_MATE: u32 = 1000;

/// The limits of one search, as the protocol received them. Everything is optional; no limit
/// at all means "search until stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time left on the clock of the side to move, and its increment per move.
    pub time: Option<Duration>,
    pub inc: Duration,
    /// Moves until the next time control (sudden death when absent).
    pub moves_to_go: Option<u32>,
    pub move_time: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search until `stop` (analysis).
    pub infinite: bool,
    /// Search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves (move strings, as the protocol gave them); all when empty.
    pub search_moves: Vec<String>,
}

impl Limits {
    /// True when only `stop` (or reaching a fixed depth/node/mate limit) ends the search.
    pub fn is_timed(&self) -> bool {
        self.time.is_some() || self.move_time.is_some()
    }

    /// The same limits with every number brought into the range the search works in: times at
    /// most [`MAX_TIME`], a depth at most the deepest the search can go, a mate at most
    /// [`MAX_MATE`] moves. Nothing else changes: a depth of 10^12 is "as deep as possible",
    /// not a wrapped-around small depth.
    pub fn sanitized(&self) -> Limits {
        let cap = |d: Duration| d.min(MAX_TIME);
        Limits {
            time: self.time.map(cap),
            inc: cap(self.inc),
            move_time: self.move_time.map(cap),
            depth: self.depth.map(|d| d.min(MAX_PLY as u32)),
            mate: self.mate.map(|m| m.min(MAX_MATE)),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitized_caps_every_number() {
        let l = Limits {
            time: Some(Duration::MAX),
            inc: Duration::MAX,
            move_time: Some(Duration::MAX),
            depth: Some(u32::MAX),
            mate: Some(u32::MAX),
            nodes: Some(u64::MAX),
            moves_to_go: Some(u32::MAX),
            ..Limits::default()
        };
        let s = l.sanitized();
        assert_eq!(s.time, Some(MAX_TIME));
        assert_eq!(s.inc, MAX_TIME);
        assert_eq!(s.move_time, Some(MAX_TIME));
        assert_eq!(s.depth, Some(MAX_PLY as u32));
        assert_eq!(s.mate, Some(MAX_MATE));
        assert_eq!((s.nodes, s.moves_to_go), (l.nodes, l.moves_to_go));
        let small = Limits {
            time: Some(Duration::from_millis(5)),
            depth: Some(3),
            ..Limits::default()
        };
        assert_eq!(small.sanitized(), small);
    }
}
