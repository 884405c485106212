//! The searches the adapter runs: for the engine's own move, on the opponent's time, and in
//! analysis; how their results are played and the game's end claimed; and how they are shown
//! (thinking lines, `stat01`).

use super::{clip, clip_message, XBoard, NOTATION};
use crate::board::Color;
use crate::engine::jobs::{JobEvent, JobKind};
use crate::engine::wdl::Wdl;
use crate::engine::{Listener, SearchId};
use crate::games::Outcome;
use crate::protocol::Output;
use crate::search::{Bound, Limits, PvInfo, Score, SearchResult};
use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// What a running search is for.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Purpose {
    /// The engine's own move: printed and played when the search ends.
    Think,
    /// Searching on the opponent's time (filling the table); its result is dropped.
    Ponder,
    /// `analyze` mode: runs until stopped, result dropped.
    Analyze,
}

/// The search the adapter started last and has not yet seen end.
#[derive(Copy, Clone, Debug)]
pub(super) struct Current {
    pub(super) purpose: Purpose,
    pub(super) id: SearchId,
    /// The position key the search started from (a result for another position is stale).
    pub(super) key: u64,
}

/// How the running search is shown.
#[derive(Default)]
struct Shown {
    /// Thinking lines are printed (`post`, or analysis; never for a ponder search).
    show: bool,
    /// Lines shown at the current depth: (depth, line number, moves).
    lines: Vec<(u32, u32, Vec<String>)>,
    /// The latest best line, for `stat01`.
    last: Option<PvInfo<String>>,
}

/// The facade's reports, worded for XBoard: thinking lines and job answers are printed from
/// the thread that reports them; the results of searches wait here for the adapter.
pub(super) struct Reports {
    out: Output,
    shown: Mutex<Shown>,
    ended: Mutex<VecDeque<(SearchId, SearchResult<String>)>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Reports {
    pub(super) fn new(out: Output) -> Reports {
        Reports {
            out,
            shown: Mutex::new(Shown::default()),
            ended: Mutex::new(VecDeque::new()),
        }
    }

    /// Before a search starts (none running): whether its lines are shown.
    fn begin(&self, show: bool) {
        *lock(&self.shown) = Shown {
            show,
            ..Shown::default()
        };
    }

    /// Runs `f` with the latest best line of the running search, under the lock that thinking
    /// lines are printed under: a line `f` prints comes after every thinking line it could
    /// know of and before every later one, so the output never contradicts itself.
    fn with_last<T>(&self, f: impl FnOnce(Option<&PvInfo<String>>) -> T) -> T {
        f(lock(&self.shown).last.as_ref())
    }

    /// The oldest result not yet acted on.
    fn take_ended(&self) -> Option<(SearchId, SearchResult<String>)> {
        lock(&self.ended).pop_front()
    }
}

impl Listener for Reports {
    fn info(&self, _: SearchId, info: &PvInfo<String>, _: Option<Wdl>) {
        // Only finished lines are shown; the result comes to the adapter.
        if info.depth == 0 || info.bound == Some(Bound::Lower) {
            return;
        }
        let mut shown = lock(&self.shown);
        // When it ends, the search sends its result's lines again if they differ from the
        // last ones sent (a helper thread's deeper line, say); a line already shown at this
        // depth is not shown twice. (With MultiPV every line of an iteration is shown, best
        // first.)
        let key = (info.depth, info.multipv, info.pv.clone());
        if info.bound.is_none() && shown.show && !shown.lines.contains(&key) {
            self.out.say(&thinking_line(info));
            shown.lines.retain(|k| k.0 == info.depth);
            shown.lines.push(key);
        }
        // The best line is the one `stat01` names.
        if info.multipv == 1 {
            shown.last = Some(info.clone());
        }
    }

    fn best_move(&self, search: SearchId, result: &SearchResult<String>) {
        lock(&self.ended).push_back((search, result.clone()));
    }

    fn job(&self, kind: JobKind, event: &JobEvent) {
        let say = |l: &str| self.out.say(l);
        match event {
            JobEvent::PerftMove(m, n) => say(&format!("{m}: {n}")),
            JobEvent::PerftTotal { depth, total } => say(&format!("perft {depth}: {total}")),
            // Not XBoard's: the bench as comment lines, which GUIs ignore.
            JobEvent::BenchLine(line) => say(&format!("# {line}")),
            JobEvent::BenchDone(r) => {
                say(&format!("# Nodes searched: {}", r.nodes));
                say(&format!("# Nodes/second: {}", r.nps()));
            }
            JobEvent::Stopped => match kind {
                JobKind::Perft { depth } => say(&format!("Error (perft stopped): perft {depth}")),
                JobKind::Bench { depth } => say(&format!("Error (bench stopped): bench {depth}")),
            },
            JobEvent::Failed(e) => say(&format!("Error ({}): {kind:?}", clip_message(e))),
        }
    }

    fn ended(&self) {
        self.out.wake();
    }
}

/// The score as XBoard reads it: centipawns, or ±(100000 + moves) for a mate.
fn xboard_score(score: Score) -> i64 {
    match score {
        Score::Cp(v) => i64::from(v),
        Score::Mate(n) if n > 0 => 100_000 + i64::from(n),
        Score::Mate(n) => -100_000 + i64::from(n),
    }
}

/// A thinking line: `depth score time(cs) nodes pv`.
pub fn thinking_line(info: &PvInfo<String>) -> String {
    format!(
        "{} {} {} {} {}",
        info.depth,
        xboard_score(info.score),
        info.time.as_millis() / 10,
        info.nodes,
        info.pv.join(" ")
    )
    .trim_end()
    .to_string()
}

/// The claim for a finished game, e.g. `1-0 {White mates}`.
pub fn result_claim(outcome: Outcome, side_to_move: Color) -> String {
    format!(
        "{} {{{}}}",
        outcome.result_string(side_to_move),
        outcome.comment(side_to_move)
    )
}

impl XBoard {
    /// True while a search for the engine's own move runs (or has ended and its move is not
    /// yet played).
    pub(super) fn thinking(&self) -> bool {
        self.running.is_some_and(|r| r.purpose == Purpose::Think)
    }

    /// Acts on the searches that ended (plays the move of the engine's own), and prints the
    /// `pong`s held for a `perft` that has ended.
    pub(super) fn collect_finished(&mut self) {
        while let Some((id, result)) = self.reports.take_ended() {
            self.search_ended(id, result);
        }
        if !self.engine.job_running() {
            for pong in std::mem::take(&mut self.held_pongs) {
                self.say(&pong);
            }
        }
    }

    /// A search ended: the move of a `Think` search is printed and played. A search the
    /// adapter stopped on purpose, or one of another position, leaves nothing to do.
    fn search_ended(&mut self, id: SearchId, result: SearchResult<String>) {
        let Some(r) = self.running.filter(|r| r.id == id) else {
            return;
        };
        self.running = None;
        if r.purpose != Purpose::Think || r.key != self.state().session().key() {
            return;
        }
        match result.best {
            Some(mv) => {
                let shown = self.gui_form(&mv);
                if self.engine.play(&mv).is_err() {
                    // Cannot happen (the search only returns legal moves); say so rather
                    // than play a move the position refuses.
                    self.say(&format!(
                        "Error (internal): search returned illegal move {mv}"
                    ));
                    return;
                }
                self.say(&format!("move {shown}"));
                self.history.push(mv);
                self.excluded.clear();
                self.apply_pending();
                if !self.claim_if_over() {
                    self.start_ponder();
                }
            }
            None => {
                self.claim_if_over();
            }
        }
    }

    /// Stops the running search and drops its result.
    pub(super) fn stop_search(&mut self) {
        self.running = None;
        self.engine.stop();
    }

    /// Claims the result if the game is over (and not in force mode). True if it is over.
    pub(super) fn claim_if_over(&mut self) -> bool {
        let Some(outcome) = self.state().session().outcome() else {
            return false;
        };
        if !self.force && !self.game_over {
            self.say(&result_claim(
                outcome,
                self.state().session().side_to_move(),
            ));
        }
        self.game_over = true;
        true
    }

    pub(super) fn start_search(&mut self, purpose: Purpose, limits: Limits) {
        self.stop_search();
        self.reports
            .begin((self.post || purpose == Purpose::Analyze) && purpose != Purpose::Ponder);
        let key = self.state().session().key();
        let id = self.engine.go(limits);
        self.running = Some(Current { purpose, id, key });
    }

    /// The UCI strings of the root moves still allowed after `exclude` (empty: all).
    pub(super) fn search_moves(&self) -> Vec<String> {
        if self.excluded.is_empty() {
            return Vec::new();
        }
        self.state()
            .session()
            .move_facts()
            .into_iter()
            .filter(|f| !self.excluded.contains(&f.text.xboard))
            .map(|f| f.text.uci)
            .collect()
    }

    /// Starts thinking about the engine's move, or claims the end if the game is over.
    pub(super) fn think(&mut self) {
        if self.claim_if_over() {
            return;
        }
        let side = self.state().session().side_to_move();
        let moves_done = match side {
            Color::White => self.history.len().div_ceil(2),
            Color::Black => self.history.len() / 2,
        } as u32;
        let mut limits = self.clock.limits(moves_done);
        limits.search_moves = self.search_moves();
        self.start_search(Purpose::Think, limits);
    }

    /// After the engine's move: searches on the opponent's time if pondering is on.
    pub(super) fn start_ponder(&mut self) {
        if self.state().ponder() && !self.force && !self.analyzing && !self.game_over {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.start_search(Purpose::Ponder, limits);
        }
    }

    pub(super) fn start_analysis(&mut self) {
        if self.state().session().outcome().is_some() {
            self.stop_search();
            return;
        }
        let limits = Limits {
            infinite: true,
            search_moves: self.search_moves(),
            ..Limits::default()
        };
        self.start_search(Purpose::Analyze, limits);
    }

    /// After the position changed: analysis restarts, or the engine moves if it is its turn.
    pub(super) fn position_changed(&mut self) {
        self.excluded.clear();
        if self.analyzing {
            self.start_analysis();
        } else if self.force || self.claim_if_over() {
            // Nothing to do: the GUI moves for both sides, or the game is over.
        } else if self.state().session().side_to_move() == self.engine_side {
            self.think();
        } else {
            self.start_ponder();
        }
    }

    pub(super) fn cmd_stat(&self) {
        if !self.analyzing {
            return;
        }
        let total = self.state().session().legal_moves(NOTATION).len();
        // The search now: time since it started, nodes so far, the depth being searched (the
        // iteration after the last finished one), and the best move found so far. Read and
        // printed while no thinking line can come between: the depth named is never below
        // that of a line printed before it.
        self.reports.with_last(|info| {
            let Some(now) = self.engine.progress().filter(|_| self.running.is_some()) else {
                return self.say(&format!("stat01: 0 0 0 {total} {total}"));
            };
            let best = info.and_then(|i| i.pv.first().cloned());
            // A finished line of depth d means iteration d + 1 is under way, even when the
            // search thread has not yet stored that depth (it reports the line first); an
            // upper bound is a line of the iteration still running.
            let depth = info.map_or(now.depth, |i| {
                now.depth.max(i.depth + u32::from(i.bound.is_none()))
            });
            self.say(&format!(
                "stat01: {} {} {} {} {} {}",
                now.elapsed.as_millis() / 10,
                now.nodes.max(info.map_or(0, |i| i.nodes)),
                depth,
                0,
                total,
                best.unwrap_or_default()
            ));
        });
    }

    /// Restarts the analysis or ponder search that a change of settings stopped.
    pub(super) fn resume(&mut self, was: Option<Purpose>) {
        match was {
            Some(Purpose::Analyze) if self.analyzing => self.start_analysis(),
            Some(Purpose::Ponder) => self.start_ponder(),
            _ => {}
        }
    }

    pub(super) fn cmd_exclude(&mut self, exclude: bool, arg: &str) {
        let legal = self.state().session().legal_moves(NOTATION);
        let arg = &self.engine_form(arg);
        if arg == "all" {
            self.excluded = if exclude { legal } else { Vec::new() };
        } else if legal.iter().any(|m| m == arg) {
            self.excluded.retain(|m| m != arg);
            if exclude {
                self.excluded.push(arg.to_string());
            }
        } else {
            return self.say(&format!("Illegal move: {}", clip(arg)));
        }
        if self.analyzing {
            self.start_analysis();
        }
    }

    /// Stops any search but analysis (which commands such as `force` leave running).
    pub(super) fn stop_unless_analyzing(&mut self) {
        if !self.analyzing {
            self.stop_search();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::EndReason;
    use std::time::Duration;

    #[test]
    fn scores_in_xboard_units() {
        assert_eq!(xboard_score(Score::Cp(-35)), -35);
        assert_eq!(xboard_score(Score::Mate(3)), 100_003);
        assert_eq!(xboard_score(Score::Mate(-2)), -100_002);
        assert_eq!(xboard_score(Score::Mate(0)), -100_000);
    }

    #[test]
    fn claims_name_the_winner() {
        assert_eq!(
            result_claim(Outcome::Loss(EndReason::Checkmate), Color::Black),
            "1-0 {White mates}"
        );
        assert_eq!(
            result_claim(Outcome::Loss(EndReason::Checkmate), Color::White),
            "0-1 {Black mates}"
        );
        assert_eq!(
            result_claim(Outcome::Loss(EndReason::TownTaken), Color::Black),
            "1-0 {Black's town is taken}"
        );
        assert_eq!(
            result_claim(Outcome::Draw(EndReason::Repetition), Color::White),
            "1/2-1/2 {Draw by repetition}"
        );
    }

    #[test]
    fn thinking_lines() {
        let info = PvInfo {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score: Score::Cp(21),
            bound: None,
            nodes: 1234,
            time: Duration::from_millis(1570),
            hashfull: 0,
            pv: vec!["e2e4".into(), "e7e5".into()],
        };
        assert_eq!(thinking_line(&info), "5 21 157 1234 e2e4 e7e5");
    }
}
