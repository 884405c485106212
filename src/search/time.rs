//! Time management: how long to think about one move.
//!
//! Two budgets: the *soft* one is checked between iterations (don't start an iteration that
//! cannot finish), the *hard* one inside the search (stop at once). Both leave the move
//! overhead (the GUI's and the operating system's delay) unused, so the clock is never
//! exceeded.

use super::limits::Limits;
use std::time::Duration;

/// The budgets of one search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Duration,
    pub hard: Duration,
}

/// Moves still to play when the time control is sudden death: a guess that spends more per move
/// early and keeps a reserve.
const SUDDEN_DEATH_MOVES: u32 = 30;

/// The budgets for `limits`, or `None` when the search is not timed.
pub fn budget(limits: &Limits, overhead: Duration) -> Option<TimeBudget> {
    if let Some(mt) = limits.move_time {
        let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
        return Some(TimeBudget { soft: t, hard: t });
    }
    let time = limits.time?;
    // What we may spend at all: the clock less the overhead and a small safety margin.
    let usable = time
        .saturating_sub(overhead)
        .saturating_sub(time / 20)
        .max(Duration::from_millis(1));
    let mtg = limits
        .moves_to_go
        .unwrap_or(SUDDEN_DEATH_MOVES)
        .clamp(1, 50);
    let per_move = usable / mtg + limits.inc * 3 / 4;
    let soft = per_move.min(usable);
    // The hard limit lets one iteration run long, but never spends more than a fraction of the
    // clock (all of the usable time only when this is the last move before the control).
    let cap = if mtg == 1 { usable } else { usable / 3 };
    let hard = (soft * 4).min(cap).max(soft.min(usable));
    Some(TimeBudget { soft, hard })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn untimed_searches_have_no_budget() {
        assert_eq!(budget(&Limits::default(), ms(10)), None);
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(budget(&depth, ms(10)), None);
    }

    #[test]
    fn movetime_keeps_the_overhead() {
        let l = Limits {
            move_time: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(budget(&l, ms(30)).unwrap().hard, ms(970));
    }

    #[test]
    fn clock_budgets_stay_inside_the_clock() {
        for time in [1u64, 5, 20, 50, 100, 500, 1000, 10_000, 600_000] {
            for inc in [0u64, 10, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let l = Limits {
                        time: Some(ms(time)),
                        inc: ms(inc),
                        moves_to_go: mtg,
                        ..Limits::default()
                    };
                    let b = budget(&l, ms(10)).unwrap();
                    assert!(b.soft <= b.hard, "{l:?} {b:?}");
                    let room = ms(time).saturating_sub(ms(10)).max(ms(1));
                    assert!(b.hard <= room, "{l:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn more_time_gives_more_thinking() {
        let at = |t| {
            budget(
                &Limits {
                    time: Some(ms(t)),
                    ..Limits::default()
                },
                ms(10),
            )
            .unwrap()
            .soft
        };
        assert!(at(60_000) > at(10_000));
        assert!(at(10_000) > at(1_000));
    }
}
