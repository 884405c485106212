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
    /// A fixed time per move (`movetime`): use all of it, don't stop early between iterations.
    pub fixed: bool,
}

/// The budgets for `limits`, or `None` when the search is not timed. `moves_left` is the guess
/// of moves still to play when the GUI sends no moves to go (sudden death, with or without an
/// increment): the search parameter `TimeMovesLeft`, which a game whose games are short tunes
/// lower (`tuned_search` in the registry). A constant guess spends a fixed share of what is left
/// on each move: more early, a reserve kept for the end.
///
/// The overhead is charged to every move still to play, not once: each move costs its thinking
/// time plus the delays outside the engine. So when the clock runs low the engine thinks less
/// than its increment and the clock recovers, instead of living on the increment with nothing in
/// reserve for a slow moment of the machine.
pub fn budget(limits: &Limits, overhead: Duration, moves_left: u32) -> Option<TimeBudget> {
    let limits = &limits.sanitized();
    let overhead = overhead.min(super::limits::MAX_TIME);
    let min = Duration::from_millis(1);
    if let Some(mt) = limits.move_time {
        let t = mt.saturating_sub(overhead).max(min);
        return Some(TimeBudget {
            soft: t,
            hard: t,
            fixed: true,
        });
    }
    let time = limits.time?;
    let mtg = limits.moves_to_go.unwrap_or(moves_left).clamp(1, 50);
    // Everything we may spend until the time control, delays of every move deducted.
    // Saturating throughout: a GUI may send any number (see `Limits::sanitized`).
    let total = time
        .saturating_add(limits.inc.saturating_mul(mtg - 1))
        .saturating_sub(overhead.saturating_mul(mtg + 2))
        .max(min);
    // Never more than this on one move: the clock less the delay of this move.
    let ceiling = time.saturating_sub(overhead).max(min);
    let soft = (total / mtg).min(ceiling).max(min);
    // The hard limit lets one iteration run long, but spends at most a third of the clock
    // (nearly all of it only on the last move before the control).
    let cap = if mtg == 1 { ceiling } else { ceiling / 3 };
    let hard = soft.saturating_mul(4).min(cap).max(soft);
    Some(TimeBudget {
        soft,
        hard,
        fixed: false,
    })
}

/// How much the share of the soft budget grows or shrinks by the best move's share of the
/// nodes searched below the root (`best` of `total`): `(1.5 − share) × factor / 100`, or 1 when
/// `factor` (the parameter `TimeNodeFactor`) is 0 or nothing was counted yet. A best move that
/// took nearly all the effort is rarely overturned (its rivals were refuted quickly); one that
/// took half of it has rivals that needed real work. The idea is Stockfish's `nodesEffort`,
/// the proportions those of many engines since.
pub fn effort_scale(factor: i32, best: u64, total: u64) -> f64 {
    if factor <= 0 || total == 0 {
        return 1.0;
    }
    let share = best.min(total) as f64 / total as f64;
    (1.5 - share) * f64::from(factor) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contested_best_move_gets_more_time() {
        assert_eq!(effort_scale(0, 10, 100), 1.0);
        assert_eq!(effort_scale(135, 0, 0), 1.0);
        let lone = effort_scale(135, 95, 100);
        let contested = effort_scale(135, 40, 100);
        assert!(lone < 1.0 && contested > 1.0, "{lone} {contested}");
        assert!((effort_scale(100, 50, 100) - 1.0).abs() < 1e-9);
        // A count that is off (a helper's result adopted) never gives a negative share.
        assert!(effort_scale(135, 200, 100) > 0.0);
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn untimed_searches_have_no_budget() {
        assert_eq!(budget(&Limits::default(), ms(10), 30), None);
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(budget(&depth, ms(10), 30), None);
    }

    #[test]
    fn movetime_keeps_the_overhead() {
        let l = Limits {
            move_time: Some(ms(1000)),
            ..Limits::default()
        };
        assert_eq!(budget(&l, ms(30), 30).unwrap().hard, ms(970));
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
                    let b = budget(&l, ms(10), 30).unwrap();
                    assert!(b.soft <= b.hard, "{l:?} {b:?}");
                    let room = ms(time).saturating_sub(ms(10)).max(ms(1));
                    assert!(b.hard <= room, "{l:?} {b:?}");
                    assert!(b.soft >= ms(1));
                }
            }
        }
    }

    #[test]
    fn a_low_clock_thinks_less_than_the_increment() {
        // 1 s + 10 ms with 30 ms of overhead: below the reserve the engine spends less than
        // the increment, so the clock grows back.
        let l = Limits {
            time: Some(ms(300)),
            inc: ms(10),
            ..Limits::default()
        };
        assert!(budget(&l, ms(30), 30).unwrap().soft < ms(10));
        let l = Limits {
            time: Some(ms(60_000)),
            inc: ms(1000),
            ..Limits::default()
        };
        let b = budget(&l, ms(30), 30).unwrap();
        assert!(b.soft > ms(2000) && b.soft < ms(4000), "{b:?}");
    }

    #[test]
    fn huge_values_neither_panic_nor_wrap() {
        let l = Limits {
            time: Some(Duration::MAX),
            inc: Duration::MAX,
            moves_to_go: Some(u32::MAX),
            ..Limits::default()
        };
        let b = budget(&l, Duration::MAX, 30).unwrap();
        assert!(b.soft >= ms(1) && b.soft <= b.hard);
        let l = Limits {
            time: Some(Duration::MAX),
            inc: Duration::MAX,
            ..Limits::default()
        };
        let b = budget(&l, ms(10), 30).unwrap();
        assert!(b.soft > Duration::from_secs(3600), "{b:?}");
        let l = Limits {
            move_time: Some(Duration::MAX),
            ..Limits::default()
        };
        assert!(budget(&l, ms(10), 30).is_some());
    }

    #[test]
    fn a_shorter_guess_spends_more_until_the_gui_says_moves_to_go() {
        let sudden = Limits {
            time: Some(ms(10_000)),
            inc: ms(100),
            ..Limits::default()
        };
        let short = budget(&sudden, ms(30), 20).unwrap();
        let long = budget(&sudden, ms(30), 30).unwrap();
        assert!(
            short.soft > long.soft && short.hard > long.hard,
            "{short:?} {long:?}"
        );
        // The GUI's moves to go is not a guess: it decides, whatever the game's.
        let told = Limits {
            moves_to_go: Some(40),
            ..sudden.clone()
        };
        assert_eq!(budget(&told, ms(30), 20), budget(&told, ms(30), 30));
        // Whatever the guess, the budgets stay inside the clock.
        for guess in [0, 1, 10, 50, u32::MAX] {
            let b = budget(&sudden, ms(30), guess).unwrap();
            assert!(b.soft <= b.hard && b.hard <= ms(9_970), "{guess} {b:?}");
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
                30,
            )
            .unwrap()
            .soft
        };
        assert!(at(60_000) > at(10_000));
        assert!(at(10_000) > at(1_000));
    }
}
