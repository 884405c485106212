//! What a `go` command asks for: clocks, fixed limits, analysis modes.

use std::time::Duration;

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
}
