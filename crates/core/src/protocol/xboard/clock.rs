//! XBoard's time controls (`level`, `st`, `sd`, `nps`, `time`, `otim`) turned into search
//! limits.

use crate::protocol::{clip, parse_count};
use crate::search::limits::MAX_TIME;
use crate::search::Limits;
use std::time::Duration;

/// Everything the GUI said about time and depth for the current game.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    /// Moves per session of a conventional control (0: sudden death / incremental).
    pub moves_per_session: u32,
    pub base: Duration,
    pub inc: Duration,
    /// `st`: exact time per move; overrides `level`.
    pub per_move: Option<Duration>,
    /// `sd`: depth limit.
    pub depth: Option<u32>,
    /// `nps`: think for `nodes = seconds * nps` instead of reading the wall clock.
    pub nps: Option<u64>,
    /// `time` / `otim`: the engine's and the opponent's clocks as last reported.
    pub mine: Option<Duration>,
    pub theirs: Option<Duration>,
}

impl Default for Clock {
    /// Until the GUI sends `level`: five minutes for the game, as XBoard's own default.
    fn default() -> Self {
        Clock {
            moves_per_session: 0,
            base: Duration::from_secs(300),
            inc: Duration::ZERO,
            per_move: None,
            depth: None,
            nps: None,
            mine: None,
            theirs: None,
        }
    }
}

/// Why a `level` command was refused; the words quoted are shown clipped.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum LevelError {
    #[error("expected 'level MPS BASE INC'")]
    Shape,
    #[error("moves per session '{}' is not a whole number", clip(.0))]
    MovesPerSession(String),
    #[error("bad base time '{}'", clip(.0))]
    BaseTime(String),
    #[error("bad increment '{}'", clip(.0))]
    Increment(String),
}

/// Reads `MPS BASE INC` of a `level` command: BASE is minutes or `minutes:seconds`, INC
/// seconds (fractions allowed).
pub fn parse_level(args: &[&str]) -> Result<(u32, Duration, Duration), LevelError> {
    let [mps, base, inc] = args else {
        return Err(LevelError::Shape);
    };
    let mps = parse_count(mps)
        .filter(|_| !mps.starts_with('-'))
        .ok_or_else(|| LevelError::MovesPerSession(mps.to_string()))?;
    let bad_base = || LevelError::BaseTime(base.to_string());
    let base = match base.split_once(':') {
        Some((m, s)) => {
            let m = parse_count(m).filter(|_| !m.starts_with('-'));
            let s = parse_count(s).filter(|_| !s.starts_with('-'));
            let (m, s) = m.zip(s).ok_or_else(bad_base)?;
            Duration::from_secs(m.saturating_mul(60).saturating_add(s)).min(MAX_TIME)
        }
        None => seconds(base, 60.0).ok_or_else(bad_base)?,
    };
    let inc = seconds(inc, 1.0).ok_or_else(|| LevelError::Increment(inc.to_string()))?;
    Ok((mps.min(u64::from(u32::MAX)) as u32, base, inc))
}

/// A non-negative decimal number of `unit` seconds; values beyond [`MAX_TIME`] count as it.
pub fn seconds(s: &str, unit: f64) -> Option<Duration> {
    let v: f64 = s.parse().ok()?;
    if v.is_nan() || v < 0.0 {
        return None;
    }
    let secs = v * unit;
    Some(if secs >= MAX_TIME.as_secs_f64() {
        MAX_TIME
    } else {
        Duration::from_secs_f64(secs)
    })
}

/// Reads a centisecond clock value; a negative clock (flag fallen) counts as zero, and one
/// beyond [`MAX_TIME`] as `MAX_TIME` (never a wrapped-around small value).
pub fn centiseconds(s: &str) -> Option<Duration> {
    let cs = parse_count(s)?;
    Some(Duration::from_millis(cs.saturating_mul(10)).min(MAX_TIME))
}

impl Clock {
    /// Limits for the engine's next move; `moves_done` is how many moves the engine's side has
    /// made in this game (for the moves left until the next time control).
    pub fn limits(&self, moves_done: u32) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        if let Some(st) = self.per_move {
            l.move_time = Some(st);
        } else {
            l.time = Some(self.mine.unwrap_or(self.base));
            l.inc = self.inc;
            if self.moves_per_session > 0 {
                l.moves_to_go = Some(self.moves_per_session - moves_done % self.moves_per_session);
            }
        }
        if let Some(nps) = self.nps {
            // Node-count time: the same share of the clock, spent as nodes.
            let budget = match (l.move_time, l.time) {
                (Some(st), _) => st,
                (None, Some(t)) => (t / l.moves_to_go.unwrap_or(30).max(1)).saturating_add(l.inc),
                (None, None) => Duration::from_secs(1),
            };
            l.nodes = Some(((budget.as_secs_f64() * nps as f64) as u64).max(1));
            l.time = None;
            l.move_time = None;
            l.inc = Duration::ZERO;
            l.moves_to_go = None;
        }
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_forms() {
        assert_eq!(
            parse_level(&["40", "5", "0"]).unwrap(),
            (40, Duration::from_secs(300), Duration::ZERO)
        );
        assert_eq!(
            parse_level(&["0", "2:30", "1.5"]).unwrap(),
            (0, Duration::from_secs(150), Duration::from_millis(1500))
        );
        assert_eq!(
            parse_level(&["0", "x", "0"]),
            Err(LevelError::BaseTime("x".to_string()))
        );
        assert_eq!(
            parse_level(&["0", "x", "0"]).unwrap_err().to_string(),
            "bad base time 'x'"
        );
        assert_eq!(
            parse_level(&["0", "1"]).unwrap_err().to_string(),
            "expected 'level MPS BASE INC'"
        );
        assert!(parse_level(&["0", "1"]).is_err());
        assert!(parse_level(&["-1", "1", "0"]).is_err());
    }

    #[test]
    fn limits_follow_the_control() {
        let mut c = Clock {
            moves_per_session: 40,
            base: Duration::from_secs(300),
            ..Clock::default()
        };
        let l = c.limits(0);
        assert_eq!(l.time, Some(Duration::from_secs(300)));
        assert_eq!(l.moves_to_go, Some(40));
        assert_eq!(c.limits(41).moves_to_go, Some(39));
        c.mine = centiseconds("1234");
        assert_eq!(c.limits(0).time, Some(Duration::from_millis(12340)));
        c.per_move = Some(Duration::from_secs(2));
        let l = c.limits(0);
        assert_eq!((l.move_time, l.time), (Some(Duration::from_secs(2)), None));
        c.nps = Some(1000);
        let l = c.limits(0);
        assert_eq!((l.nodes, l.move_time), (Some(2000), None));
        assert_eq!(centiseconds("-50"), Some(Duration::ZERO));
    }

    #[test]
    fn huge_values_saturate() {
        let (_, base, _) = parse_level(&["1", "99999999999999999:0", "0"]).unwrap();
        assert_eq!(base, MAX_TIME);
        let (mps, base, inc) = parse_level(&["99999999999", "1e300", "1e300"]).unwrap();
        assert_eq!((mps, base, inc), (u32::MAX, MAX_TIME, MAX_TIME));
        assert_eq!(centiseconds("99999999999999999"), Some(MAX_TIME));
        assert_eq!(centiseconds("999999999999999999999999"), Some(MAX_TIME));
        assert_eq!(seconds("inf", 1.0), Some(MAX_TIME));
        assert_eq!(seconds("NaN", 1.0), None);
        let c = Clock {
            base: MAX_TIME,
            inc: MAX_TIME,
            nps: Some(u64::MAX),
            ..Clock::default()
        };
        assert!(c.limits(0).nodes.is_some());
    }
}
