//! The searches the adapter runs: for the engine's own move, on the opponent's time, and in
//! analysis; how their results are played and the game's end claimed; and how they are shown
//! (thinking lines, `stat01`).

use super::{clip, say, XBoard, NOTATION};
use crate::board::Color;
use crate::engine::jobs::Job;
use crate::games::Outcome;
use crate::search::{Bound, Limits, PvInfo, Report, Score, SearchControl, SearchResult};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

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

pub(super) struct Running {
    pub(super) purpose: Purpose,
    pub(super) ctl: Arc<SearchControl>,
    pub(super) handle: JoinHandle<SearchResult<String>>,
    /// The position key the search started from (a result for another position is stale).
    pub(super) key: u64,
}

/// The latest report of the running search, for `.` in analysis.
pub(super) type LastInfo = Arc<Mutex<Option<PvInfo<String>>>>;

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
    /// True while a search for the engine's own move runs.
    pub(super) fn thinking(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.purpose == Purpose::Think)
    }

    /// Plays the move of a finished search, if one has finished, and prints a finished
    /// `perft`'s held `pong`s.
    pub(super) fn collect_finished(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
        {
            self.wait_for_search();
        }
        if self.job.as_ref().is_some_and(Job::is_finished) {
            self.cancel_job();
        }
    }

    /// Waits for the running search; a finished `Think` search's move is printed and played.
    pub(super) fn wait_for_search(&mut self) {
        let Some(r) = self.running.take() else {
            return;
        };
        let result = r.handle.join();
        if r.purpose != Purpose::Think || r.key != self.state.session().key() {
            return;
        }
        match result.ok().and_then(|res| res.best) {
            Some(mv) => {
                let shown = self.gui_form(&mv);
                if self.state.session_mut().play(&mv, NOTATION).is_err() {
                    // Cannot happen (the search only returns legal moves); say so rather
                    // than play a move the position refuses.
                    say(&format!(
                        "Error (internal): search returned illegal move {mv}"
                    ));
                    return;
                }
                say(&format!("move {shown}"));
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
        if let Some(r) = self.running.take() {
            r.ctl.stop();
            let _ = r.handle.join();
        }
    }

    /// Claims the result if the game is over (and not in force mode). True if it is over.
    pub(super) fn claim_if_over(&mut self) -> bool {
        let Some(outcome) = self.state.session().outcome() else {
            return false;
        };
        if !self.force && !self.game_over {
            say(&result_claim(outcome, self.state.session().side_to_move()));
        }
        self.game_over = true;
        true
    }

    pub(super) fn start_search(&mut self, purpose: Purpose, limits: Limits) {
        self.stop_search();
        let session = self.state.session().clone_session();
        let ctl = Arc::new(SearchControl::new(Arc::clone(&self.host), false));
        let tt = self.state.table();
        let opts = self.state.options().clone();
        let thread_ctl = Arc::clone(&ctl);
        let post = self.post || purpose == Purpose::Analyze;
        let show = post && purpose != Purpose::Ponder;
        let last = Arc::clone(&self.last_info);
        if let Ok(mut l) = last.lock() {
            *l = None;
        }
        let spawned = thread::Builder::new()
            .name("xboard-search".into())
            .stack_size(crate::search::smp::SEARCH_STACK_BYTES)
            .spawn(move || {
                // Lines shown at the current depth: (depth, line number, moves).
                let mut shown: Vec<(u32, u32, Vec<String>)> = Vec::new();
                session.search(
                    &limits,
                    &opts,
                    &tt,
                    &thread_ctl,
                    NOTATION,
                    &mut |report: Report<String>| {
                        // The final result comes back from the thread itself; only lines of
                        // analysis are shown while it runs.
                        let Report::Info(info) = report else {
                            return;
                        };
                        if info.depth == 0 || info.bound == Some(Bound::Lower) {
                            return;
                        }
                        // When it ends, the search sends its result's lines again if they
                        // differ from the last ones sent (a helper thread's deeper line, say);
                        // a line already shown at this depth is not shown twice. (With MultiPV
                        // every line of an iteration is shown, best first.)
                        let key = (info.depth, info.multipv, info.pv.clone());
                        if info.bound.is_none() && show && !shown.contains(&key) {
                            say(&thinking_line(&info));
                            shown.retain(|k| k.0 == info.depth);
                            shown.push(key);
                        }
                        // The best line is the one `stat01` names.
                        if info.multipv == 1 {
                            if let Ok(mut l) = last.lock() {
                                *l = Some(info);
                            }
                        }
                    },
                )
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    purpose,
                    ctl,
                    handle,
                    key: self.state.session().key(),
                })
            }
            Err(e) => say(&format!("Error (cannot start search): {e}")),
        }
    }

    /// The UCI strings of the root moves still allowed after `exclude` (empty: all).
    pub(super) fn search_moves(&self) -> Vec<String> {
        if self.excluded.is_empty() {
            return Vec::new();
        }
        self.state
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
        let side = self.state.session().side_to_move();
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
        if self.state.ponder() && !self.force && !self.analyzing && !self.game_over {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.start_search(Purpose::Ponder, limits);
        }
    }

    pub(super) fn start_analysis(&mut self) {
        if self.state.session().outcome().is_some() {
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
        } else if self.state.session().side_to_move() == self.engine_side {
            self.think();
        } else {
            self.start_ponder();
        }
    }

    pub(super) fn cmd_stat(&self) {
        if !self.analyzing {
            return;
        }
        let total = self.state.session().legal_moves(NOTATION).len();
        let info = self.last_info.lock().ok().and_then(|l| l.clone());
        // The search now: time since it started, nodes so far, the depth being searched (the
        // iteration after the last finished one), and the best move found so far.
        let Some(run) = &self.running else {
            return say(&format!("stat01: 0 0 0 {total} {total}"));
        };
        let (depth, nodes) = run.ctl.progress();
        let best = info.as_ref().and_then(|i| i.pv.first().cloned());
        say(&format!(
            "stat01: {} {} {} {} {} {}",
            run.ctl.elapsed().as_millis() / 10,
            nodes.max(info.as_ref().map_or(0, |i| i.nodes)),
            depth,
            0,
            total,
            best.unwrap_or_default()
        ));
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
        let legal = self.state.session().legal_moves(NOTATION);
        let arg = &self.engine_form(arg);
        if arg == "all" {
            self.excluded = if exclude { legal } else { Vec::new() };
        } else if legal.iter().any(|m| m == arg) {
            self.excluded.retain(|m| m != arg);
            if exclude {
                self.excluded.push(arg.to_string());
            }
        } else {
            return say(&format!("Illegal move: {}", clip(arg)));
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
