//! The XBoard / CECP v2 adapter: reads XBoard commands, drives the [`Session`] facade, prints
//! XBoard answers.
//!
//! Moves are written in [`Notation::XBoard`] (ranks from 0 on ten-rank boards, shots as two
//! legs). The engine is the arbiter of the games XBoard cannot check: it refuses illegal moves
//! with `Illegal move: X` and claims every game end itself. A search runs on its own thread;
//! its move is printed and played by the command loop, so a command that arrives after the
//! move always sees the position after it.

pub mod clock;
pub mod describe;

use super::{clip, clip_message, parse_count, Input, END_OF_INPUT_GRACE};
use crate::board::Color;
use crate::engine::registry::{self, VariantInfo, VARIANTS};
use crate::engine::state::{
    EngineState, EVAL_FILE, EVAL_MATERIAL_ONLY, MAX_MULTIPV, MAX_THREADS, USE_NNUE,
    USE_NNUE_DEFAULT,
};
use crate::engine::Coord;
#[cfg(test)]
use crate::games::EndReason;
use crate::games::{Notation, Outcome};
use crate::search::{Bound, Limits, PvInfo, Report, Score, SearchControl, SearchResult};
use clock::Clock;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The largest `memory` accepted (UCI's `Hash` has its own limit).
const MAX_HASH_MB: usize = 65_536;
/// How often the command loop looks for a finished search while one runs.
const POLL: Duration = Duration::from_millis(2);
const NOTATION: Notation = Notation::XBoard;

fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// What a running search is for.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Purpose {
    /// The engine's own move: printed and played when the search ends.
    Think,
    /// Searching on the opponent's time (filling the table); its result is dropped.
    Ponder,
    /// `analyze` mode: runs until stopped, result dropped.
    Analyze,
}

struct Running {
    purpose: Purpose,
    ctl: Arc<SearchControl>,
    handle: JoinHandle<SearchResult<String>>,
    /// The position key the search started from (a result for another position is stale).
    key: u64,
}

/// A `perft` running on its own thread (on a copy of the position), so that the command loop
/// still reads `?`, `quit` and the rest while it counts.
struct Job {
    cancel: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// A move being entered with the mouse: the square its piece was lifted from (None: the
/// holdings) and the squares its first legs went through. XBoard reports a multi-leg move
/// (a Cannon shot: to the victim, then back to the shooter) as `lift e3`, `put e5`, `lift e5`,
/// `put e3`; each `lift` is answered with where the next leg can go.
struct Entry {
    from: Option<Coord>,
    entered: Vec<Coord>,
}

/// The latest report of the running search, for `.` in analysis.
type LastInfo = Arc<Mutex<Option<PvInfo<String>>>>;

/// The XBoard engine state.
pub struct XBoard {
    /// Game, rule switches, table and search options, kept as the UCI adapter keeps them.
    state: EngineState,
    /// The position the game started from (`None`: the variant's start) and the moves since,
    /// so that `undo` can replay all but the last.
    setup_fen: Option<String>,
    history: Vec<String>,
    clock: Clock,
    /// `force` mode: play no moves, claim nothing.
    force: bool,
    /// The side the engine plays (when not in force mode).
    engine_side: Color,
    post: bool,
    ponder: bool,
    analyzing: bool,
    /// The game ended (`result` received or claimed): think no more until a new position.
    game_over: bool,
    /// Root moves `exclude`d by the user, as XBoard move strings.
    excluded: Vec<String>,
    /// The move the user is entering in the GUI (from `lift` and `put`), for `hover` and the
    /// next leg of a multi-leg move.
    entry: Option<Entry>,
    running: Option<Running>,
    last_info: LastInfo,
    /// `memory` and rule `option`s received while the engine thinks about its move: applied
    /// once the move is made, so that the search is not thrown away.
    pending_memory: Option<usize>,
    pending_rules: Vec<(&'static str, bool)>,
    job: Option<Job>,
    /// `pong`s held back until the running `perft` has printed its answer (a `pong` promises
    /// that every earlier command is done).
    held_pongs: Vec<String>,
}

impl Default for XBoard {
    fn default() -> Self {
        Self::new()
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
    pub fn new() -> Self {
        XBoard {
            state: EngineState::new(),
            setup_fen: None,
            history: Vec::new(),
            clock: Clock::default(),
            force: false,
            engine_side: Color::Black,
            post: false,
            ponder: false,
            analyzing: false,
            game_over: false,
            excluded: Vec::new(),
            entry: None,
            running: None,
            last_info: Arc::new(Mutex::new(None)),
            pending_memory: None,
            pending_rules: Vec::new(),
            job: None,
            held_pongs: Vec::new(),
        }
    }

    /// Runs until `quit` or the end of input. `first` is a line the dispatcher already read.
    pub fn run(&mut self, first: Option<String>, input: &Input) {
        if let Some(line) = first {
            if !self.handle(&line) {
                self.stop_search();
                return;
            }
        }
        loop {
            self.collect_finished();
            let line = if self.running.is_some() || self.job.is_some() {
                match input.recv_timeout(POLL) {
                    Ok(line) => line,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            } else {
                match input.recv() {
                    Ok(line) => line,
                    Err(_) => break,
                }
            };
            if !self.handle(&line) {
                self.stop_search();
                return;
            }
        }
        // End of input: the GUI is gone. A move being thought about and a `perft` get a moment
        // to finish by themselves (so piped transcripts get their answer), then they are
        // stopped and the move played; analysis and pondering stop at once. The engine never
        // outlives its input by more than about `END_OF_INPUT_GRACE`.
        let deadline = Instant::now() + END_OF_INPUT_GRACE;
        let busy = |x: &Self| {
            x.running
                .as_ref()
                .is_some_and(|r| r.purpose == Purpose::Think && !r.handle.is_finished())
                || x.job.as_ref().is_some_and(|j| !j.handle.is_finished())
        };
        while busy(self) && Instant::now() < deadline {
            thread::sleep(POLL);
        }
        if let Some(r) = &self.running {
            r.ctl.stop();
        }
        self.cancel_job();
        self.wait_for_search();
        // The move may have started a ponder search.
        self.stop_search();
    }

    /// Stops a running `perft` and prints the `pong`s held for it.
    fn cancel_job(&mut self) {
        if let Some(job) = self.job.take() {
            job.cancel.store(true, Relaxed);
            let _ = job.handle.join();
        }
        for pong in std::mem::take(&mut self.held_pongs) {
            say(&pong);
        }
    }

    /// True while a search for the engine's own move runs.
    fn thinking(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.purpose == Purpose::Think)
    }

    /// Applies the `memory` and rule `option`s held back while the engine thought.
    fn apply_pending(&mut self) {
        if self.thinking() {
            return;
        }
        if let Some(mb) = self.pending_memory.take() {
            self.resize_table(mb);
        }
        for (name, value) in std::mem::take(&mut self.pending_rules) {
            self.apply_rule_option(name, value);
        }
    }

    /// Plays the move of a finished search, if one has finished, and prints a finished
    /// `perft`'s held `pong`s.
    fn collect_finished(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
        {
            self.wait_for_search();
        }
        if self.job.as_ref().is_some_and(|j| j.handle.is_finished()) {
            self.cancel_job();
        }
    }

    /// Waits for the running search; a finished `Think` search's move is printed and played.
    fn wait_for_search(&mut self) {
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

    /// A move as XBoard is told it (see [`MoveFacts::gui`]).
    fn gui_form(&self, mv: &str) -> String {
        self.state
            .session()
            .facts_of(mv, NOTATION)
            .map_or_else(|_| mv.to_string(), |f| f.gui)
    }

    /// The engine's string of a move XBoard sent (see [`Self::gui_form`]; a trailing `=`, "no
    /// promotion", is dropped); unknown strings are returned unchanged, to be refused as illegal.
    fn engine_form(&self, s: &str) -> String {
        // In shogi-like games XBoard marks a move that could promote but does not with `=`.
        let s = s.strip_suffix('=').unwrap_or(s);
        let legal = self.state.session().legal_moves(NOTATION);
        if legal.iter().any(|m| m == s) {
            return s.to_string();
        }
        self.state
            .session()
            .move_facts()
            .into_iter()
            .find(|f| f.gui == s)
            .map_or_else(|| s.to_string(), |f| f.text.xboard)
    }

    /// Stops the running search and drops its result.
    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.ctl.stop();
            let _ = r.handle.join();
        }
    }

    /// Claims the result if the game is over (and not in force mode). True if it is over.
    fn claim_if_over(&mut self) -> bool {
        let Some(outcome) = self.state.session().outcome() else {
            return false;
        };
        if !self.force && !self.game_over {
            say(&result_claim(outcome, self.state.session().side_to_move()));
        }
        self.game_over = true;
        true
    }

    fn start_search(&mut self, purpose: Purpose, limits: Limits) {
        self.stop_search();
        let session = self.state.session().clone_session();
        let ctl = Arc::new(SearchControl::new(false));
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
                        // The search repeats its best line when it ends: a line already shown
                        // at this depth is not shown again. (With MultiPV every line of an
                        // iteration is shown, best first.)
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
    fn search_moves(&self) -> Vec<String> {
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
    fn think(&mut self) {
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
    fn start_ponder(&mut self) {
        if self.ponder && !self.force && !self.analyzing && !self.game_over {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.start_search(Purpose::Ponder, limits);
        }
    }

    fn start_analysis(&mut self) {
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
    fn position_changed(&mut self) {
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

    /// Handles one command; false means quit.
    pub fn handle(&mut self, line: &str) -> bool {
        self.collect_finished();
        // A search for the engine's move that ended some other way (`force`, `new`, ...)
        // leaves what it held back to be done now.
        self.apply_pending();
        let line = line.trim();
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let args: Vec<&str> = rest.split_whitespace().collect();
        match cmd {
            "" => {}
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "hint" | "bk" | "easy" | "hard" | "post" | "nopost" => self.cmd_flag(cmd),
            "protover" => self.cmd_protover(),
            "new" => self.cmd_new(),
            "variant" => self.cmd_variant(rest),
            "force" => {
                self.stop_unless_analyzing();
                self.force = true;
            }
            "go" => {
                self.force = false;
                self.game_over = false;
                self.engine_side = self.state.session().side_to_move();
                self.think();
            }
            "playother" => {
                self.stop_unless_analyzing();
                self.force = false;
                self.engine_side = !self.state.session().side_to_move();
                if !self.claim_if_over() {
                    self.start_ponder();
                }
            }
            "white" | "black" => {
                self.stop_unless_analyzing();
                self.engine_side = if cmd == "white" {
                    Color::Black
                } else {
                    Color::White
                };
            }
            "usermove" => self.cmd_usermove(rest),
            "?" => {
                // Move now: the move is printed before the next command is read.
                if let Some(r) = &self.running {
                    if r.purpose == Purpose::Think {
                        r.ctl.stop();
                        self.wait_for_search();
                    }
                }
                self.cancel_job();
            }
            "ping" => {
                let pong = format!("pong {rest}");
                if self.job.is_some() {
                    self.held_pongs.push(pong);
                } else {
                    say(&pong);
                }
            }
            "draw" => {}
            "result" => {
                self.stop_unless_analyzing();
                self.game_over = true;
            }
            "setboard" => self.cmd_setboard(rest),
            "undo" => self.cmd_undo(1),
            "remove" => self.cmd_undo(2),
            "level" => match clock::parse_level(&args) {
                Ok((mps, base, inc)) => {
                    self.clock.moves_per_session = mps;
                    self.clock.base = base;
                    self.clock.inc = inc;
                    self.clock.per_move = None;
                    self.clock.mine = None;
                    self.clock.theirs = None;
                }
                Err(e) => say(&format!("Error ({}): {}", clip(&e.to_string()), clip(line))),
            },
            "st" => match clock::seconds(rest, 1.0) {
                Some(d) if d > Duration::ZERO => self.clock.per_move = Some(d),
                _ => say(&format!("Error (bad time per move): {}", clip(line))),
            },
            "sd" => match parse_count(rest).filter(|_| !rest.starts_with('-')) {
                Some(d) if d > 0 => self.clock.depth = Some(d.min(u64::from(u32::MAX)) as u32),
                _ => say(&format!("Error (bad depth): {}", clip(line))),
            },
            "nps" => match parse_count(rest).filter(|_| !rest.starts_with('-')) {
                Some(0) => self.clock.nps = None,
                Some(n) => self.clock.nps = Some(n),
                None => say(&format!("Error (bad nps): {}", clip(line))),
            },
            "time" | "otim" => match clock::centiseconds(rest) {
                Some(t) if cmd == "time" => self.clock.mine = Some(t),
                Some(t) => self.clock.theirs = Some(t),
                None => say(&format!("Error (bad clock value): {}", clip(line))),
            },
            "analyze" => {
                self.stop_search();
                self.analyzing = true;
                self.start_analysis();
            }
            "exit" => {
                if self.analyzing {
                    self.stop_search();
                    self.analyzing = false;
                }
            }
            "." => self.cmd_stat(),
            // Not XBoard's: the board and FEN as comment lines (which GUIs ignore), for
            // people and tests at the console.
            "d" => {
                for l in self.state.session().board_diagram().trim_end().lines() {
                    say(&format!("# {l}"));
                }
                say(&format!("# Fen: {}", self.state.session().fen()));
            }
            // Not XBoard's either: the evaluations, as UCI's `eval` gives them.
            "eval" => {
                let session = self.state.session();
                say(&format!(
                    "# Static evaluation: {} cp (side to move)",
                    session.evaluate()
                ));
                if let Some(v) = self.state.net().and_then(|net| session.evaluate_nnue(net)) {
                    say(&format!(
                        "# NNUE evaluation: {v} cp (side to move), {}",
                        self.state.net_description()
                    ));
                }
            }
            "memory" => self.cmd_memory(rest),
            "cores" => match rest.parse::<usize>() {
                Ok(n) if self.state.set_threads(n).is_ok() => {}
                _ => say(&format!(
                    "Error (cores must be 1..{MAX_THREADS}): {}",
                    clip(line)
                )),
            },
            "exclude" | "include" => self.cmd_exclude(cmd == "exclude", rest),
            "lift" | "hover" => self.cmd_lift(cmd, rest),
            "put" => self.cmd_put(rest),
            "option" => self.cmd_option(rest),
            "perft" => self.cmd_perft(rest),
            "quit" => {
                self.cancel_job();
                return false;
            }
            _ => {
                // A bare move (from a GUI that did not take `usermove=1`) is still a move, and
                // a bare string in the form of a move is an illegal move, not a command.
                if args.is_empty()
                    && describe::looks_like_move(
                        cmd,
                        self.state.variant().game.files,
                        self.state.variant().game.ranks,
                    )
                {
                    self.cmd_usermove(cmd);
                } else {
                    say(&format!("Error (unknown command): {}", clip(cmd)));
                }
            }
        }
        true
    }

    fn cmd_flag(&mut self, cmd: &str) {
        match cmd {
            "post" => self.post = true,
            "nopost" => self.post = false,
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                if self.running.as_ref().map(|r| r.purpose) == Some(Purpose::Ponder) {
                    self.stop_search();
                }
            }
            _ => {}
        }
    }

    /// Stops any search but analysis (which commands such as `force` leave running).
    fn stop_unless_analyzing(&mut self) {
        if !self.analyzing {
            self.stop_search();
        }
    }

    fn cmd_protover(&self) {
        say("feature done=0");
        let variants: Vec<&str> = VARIANTS.iter().map(|v| v.xboard_name).collect();
        say(&format!(
            "feature ping=1 setboard=1 playother=1 usermove=1 draw=1 time=1 reuse=1 analyze=1 \
             exclude=1 highlight=1 memory=1 smp=1 nps=1 colors=0 sigint=0 sigterm=0 san=0 \
             pause=0 debug=1 myname=\"Cannonade {}\" variants=\"{}\"",
            env!("CARGO_PKG_VERSION"),
            variants.join(",")
        ));
        say(&format!(
            "feature option=\"MultiPV -spin {} 1 {MAX_MULTIPV}\"",
            self.state.options().multipv
        ));
        say(&format!("feature option=\"{EVAL_MATERIAL_ONLY} -check 0\""));
        say(&format!(
            "feature option=\"{USE_NNUE} -check {}\"",
            u8::from(USE_NNUE_DEFAULT)
        ));
        say(&format!("feature option=\"{EVAL_FILE} -file \""));
        for o in EngineState::all_rule_options() {
            say(&format!(
                "feature option=\"{} -check {}\"",
                o.name,
                u8::from(o.default)
            ));
        }
        say("feature done=1");
    }

    /// After a change of the evaluation options: which evaluation the search will use (a
    /// comment line; a popup when the net asked for is missing).
    fn tell_evaluator(&self) {
        if let Some(note) = self.state.nnue_missing() {
            say(&format!("telluser {note}"));
        } else if self.state.use_nnue() {
            say(&format!(
                "# NNUE evaluation with {}",
                self.state.net_description()
            ));
        } else {
            say("# hand-written evaluation (Use NNUE is off)");
        }
    }

    /// Starts a new game of `info` at its start position.
    fn reset_game(&mut self, info: &'static VariantInfo) -> Result<(), String> {
        let was = self.state.variant().game.name;
        self.state.select_variant(info)?;
        if was != info.game.name {
            if let Some(note) = self.state.nnue_missing() {
                say(&format!("telluser {note}"));
            }
        }
        self.setup_fen = None;
        self.history.clear();
        self.excluded.clear();
        self.game_over = false;
        Ok(())
    }

    fn cmd_new(&mut self) {
        self.stop_search();
        self.cancel_job();
        self.analyzing = false;
        self.force = false;
        self.engine_side = Color::Black;
        self.clock.depth = None;
        self.clock.mine = None;
        self.clock.theirs = None;
        self.state.clear_table();
        if let Err(e) = self.reset_game(registry::default_variant()) {
            say(&format!("Error ({e}): new"));
        }
    }

    fn cmd_variant(&mut self, name: &str) {
        let Some(info) = registry::find(name) else {
            return say(&format!("Error (unknown variant): {}", clip(name)));
        };
        self.stop_search();
        if let Err(e) = self.reset_game(info) {
            return say(&format!("Error ({e}): variant {}", clip(name)));
        }
        if let Some(desc) = &info.xboard {
            say(&describe::setup_line(
                info,
                desc,
                &self.state.session().fen(),
            ));
            for l in describe::piece_lines(desc) {
                say(&l);
            }
        }
    }

    fn cmd_usermove(&mut self, mv: &str) {
        if mv.is_empty() {
            return say("Error (no move given): usermove");
        }
        // An illegal move changes nothing: whatever search runs goes on (a move the engine
        // thinks about is not thrown away).
        let engine_mv = self.engine_form(mv);
        // (Read by the game, not looked up in the move list: a shot may come in two legs.)
        if self
            .state
            .session()
            .move_text(&engine_mv, NOTATION)
            .is_err()
        {
            return say(&self.illegal_move(&engine_mv, mv));
        }
        // A legal move stops the search: a ponder or analysis search is restarted for the
        // new position; the GUI moving for the side the engine thinks for overrides it.
        self.stop_search();
        match self.state.session_mut().play(&engine_mv, NOTATION) {
            Ok(()) => {
                self.history.push(engine_mv);
                self.position_changed();
            }
            Err(_) => {
                say(&format!("Illegal move: {}", clip(mv)));
                if self.analyzing {
                    self.start_analysis();
                }
            }
        }
    }

    /// The refusal of `mv`, with the reason when it is the first leg of a legal multi-leg
    /// move (a Cannon shot entered by clicking the victim twice, which XBoard would show as the
    /// soldier moving there). The reason avoids the words XBoard takes for other errors
    /// ("time", "draw", "board", ...).
    fn illegal_move(&self, engine_mv: &str, mv: &str) -> String {
        let facts = self.state.session().move_facts();
        let ranks = self.state.variant().game.ranks;
        match describe::first_leg_of(&facts, engine_mv, ranks) {
            Some(whole) => format!(
                "Illegal move (only the first leg of {}): {}",
                whole.text.xboard,
                clip(mv)
            ),
            None => format!("Illegal move: {}", clip(mv)),
        }
    }

    fn cmd_setboard(&mut self, fen: &str) {
        // A refused position changes nothing, not even a running search.
        let mut next = self.state.session().clone_session();
        if let Err(e) = next.set_position(Some(fen), &[], NOTATION) {
            return say(&format!(
                "tellusererror Illegal position: {}",
                clip_message(&e.to_string())
            ));
        }
        self.stop_search();
        match self
            .state
            .session_mut()
            .set_position(Some(fen), &[], NOTATION)
        {
            Ok(()) => {
                self.setup_fen = Some(fen.to_string());
                self.history.clear();
                self.game_over = false;
                if self.analyzing {
                    self.start_analysis();
                }
            }
            Err(e) => say(&format!(
                "tellusererror Illegal position: {}",
                clip_message(&e.to_string())
            )),
        }
    }

    fn cmd_undo(&mut self, plies: usize) {
        // Nothing to take back: an error that leaves any search running.
        if self.history.len() < plies {
            return say(&format!(
                "Error (no move to take back): {}",
                if plies == 1 { "undo" } else { "remove" }
            ));
        }
        self.stop_search();
        let keep = self.history.len() - plies;
        let moves: Vec<&str> = self.history[..keep].iter().map(String::as_str).collect();
        match self
            .state
            .session_mut()
            .set_position(self.setup_fen.as_deref(), &moves, NOTATION)
        {
            Ok(()) => {
                self.history.truncate(keep);
                self.game_over = false;
                self.excluded.clear();
                if self.analyzing {
                    self.start_analysis();
                }
            }
            Err(e) => say(&format!("Error (cannot take back: {e}): undo")),
        }
    }

    fn cmd_stat(&self) {
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

    /// `memory N`: the table's size in MB. While the engine thinks about its move the new
    /// size waits for the move.
    fn cmd_memory(&mut self, arg: &str) {
        match parse_count(arg).filter(|_| !arg.starts_with('-')) {
            Some(mb) if (1..=MAX_HASH_MB as u64).contains(&mb) => {
                if self.thinking() {
                    self.pending_memory = Some(mb as usize);
                } else {
                    self.resize_table(mb as usize);
                }
            }
            _ => say(&format!(
                "Error (memory must be 1..{MAX_HASH_MB} MB): memory {}",
                clip(arg)
            )),
        }
    }

    /// A table of `mb` MB in place of the current one (see [`EngineState::resize_table`]: the
    /// old memory goes back first, so two tables are never held at once); a size the machine
    /// cannot give is refused and the old size kept. The same size again changes nothing.
    fn resize_table(&mut self, mb: usize) {
        if mb == self.state.hash_mb() {
            return;
        }
        let was = self.running.as_ref().map(|r| r.purpose);
        self.stop_search();
        if let Err(e) = self.state.resize_table(mb) {
            say(&format!(
                "Error ({e}; the table stays at {} MB): memory {mb}",
                self.state.hash_mb()
            ));
        }
        self.resume(was);
    }

    /// Restarts the analysis or ponder search that a change of settings stopped.
    fn resume(&mut self, was: Option<Purpose>) {
        match was {
            Some(Purpose::Analyze) if self.analyzing => self.start_analysis(),
            Some(Purpose::Ponder) => self.start_ponder(),
            _ => {}
        }
    }

    fn cmd_exclude(&mut self, exclude: bool, arg: &str) {
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

    /// A board square named by `lift`/`put`/`hover`; None for a holdings square (which XBoard
    /// names with a file letter off the board).
    fn gui_square(&self, square: &str) -> Option<Coord> {
        let (files, ranks) = self.board_size();
        describe::parse_square(square, files, ranks)
            .filter(|(_, n)| *n == square.len())
            .map(|(sq, _)| sq)
    }

    /// The board's files and ranks.
    fn board_size(&self) -> (usize, usize) {
        let game = &self.state.variant().game;
        (game.files, game.ranks)
    }

    fn cmd_lift(&mut self, cmd: &str, square: &str) {
        let sq = self.gui_square(square);
        if cmd == "hover" {
            // Hovering over a destination changes nothing in the move being entered.
            if self.entry.is_none() {
                return;
            }
        } else {
            // A `lift` on the square the last leg reached (after its `put`) asks for the next
            // leg of the same move; any other `lift` starts a new move.
            let next_leg =
                matches!(&self.entry, Some(e) if sq.is_some() && e.entered.last() == sq.as_ref());
            if !next_leg {
                self.entry = Some(Entry {
                    from: sq,
                    entered: Vec::new(),
                });
            }
        }
        let Some(entry) = &self.entry else { return };
        let (files, ranks) = self.board_size();
        let facts = self.state.session().move_facts();
        let marks = describe::entry_marks(&facts, entry.from, &entry.entered);
        say(&describe::highlight(&marks, files, ranks));
    }

    fn cmd_put(&mut self, square: &str) {
        let sq = self.gui_square(square);
        if let (Some(entry), Some(sq)) = (&mut self.entry, sq) {
            let mut entered = entry.entered.clone();
            entered.push(sq);
            let facts = self.state.session().move_facts();
            if describe::goes_on_from(&facts, entry.from, &entered) {
                // The end of a first leg: XBoard asks for the next one with a `lift` here.
                entry.entered = entered;
                return;
            }
            if describe::promotion_choice_at(&facts, entry.from, &entered) {
                // A piece put on a magenta square: with sweep promotions XBoard sends this
                // `put` on the press and reads the square's colour again on the release, so
                // clearing the marks now would lose the promotion.
                return;
            }
        }
        // The move is complete (or abandoned): clear the marks.
        self.entry = None;
        let (files, ranks) = self.board_size();
        say(&describe::highlight(&[], files, ranks));
    }

    fn cmd_option(&mut self, arg: &str) {
        let (name, value) = match arg.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (arg.trim(), ""),
        };
        if name.is_empty() {
            return say(&format!(
                "Error (option needs a name: 'option NAME=VALUE', names as in the feature \
                 option lines): {}",
                clip(format!("option {arg}").trim_end())
            ));
        }
        if name.eq_ignore_ascii_case("MultiPV") {
            match value.parse::<usize>() {
                Ok(n) if self.state.set_multipv(n).is_ok() => {
                    // Analysis shows the new number of lines at once.
                    if self.analyzing {
                        self.start_analysis();
                    }
                }
                _ => say(&format!(
                    "Error (option MultiPV takes 1..{MAX_MULTIPV}): {}",
                    clip(value)
                )),
            }
            return;
        }
        if name.eq_ignore_ascii_case(USE_NNUE) {
            match value {
                "1" | "true" => self.state.set_use_nnue(true),
                "0" | "false" => self.state.set_use_nnue(false),
                _ => {
                    return say(&format!(
                        "Error (option {USE_NNUE} takes 0 or 1): {}",
                        clip(value)
                    ))
                }
            }
            return self.tell_evaluator();
        }
        if name.eq_ignore_ascii_case(EVAL_FILE) {
            // The next search uses it; one running now keeps the net it started with.
            return match self.state.load_eval_file(value) {
                Ok(net) => {
                    say(&format!("# {EVAL_FILE}: {net}"));
                    self.tell_evaluator();
                }
                Err(e) => say(&format!(
                    "Error ({}): option {EVAL_FILE}={}",
                    clip_message(&e),
                    clip(value)
                )),
            };
        }
        if name.eq_ignore_ascii_case(EVAL_MATERIAL_ONLY) {
            return match value {
                "1" | "true" => self.state.set_material_only(true),
                "0" | "false" => self.state.set_material_only(false),
                _ => say(&format!(
                    "Error (option {EVAL_MATERIAL_ONLY} takes 0 or 1): {}",
                    clip(value)
                )),
            };
        }
        let Some(opt) = EngineState::find_rule_option(name) else {
            return say(&format!("Error (unknown option): {}", clip(name)));
        };
        let b = match value {
            "1" | "true" => true,
            "0" | "false" => false,
            _ => {
                return say(&format!(
                    "Error (option {} takes 0 or 1): {}",
                    opt.name,
                    clip(value)
                ))
            }
        };
        if self.thinking() {
            // Changing the rules replays the game: done once the move is made.
            self.pending_rules.push((opt.name, b));
        } else {
            self.apply_rule_option(opt.name, b);
        }
    }

    /// Sets a rule switch and sets the game up again under it.
    fn apply_rule_option(&mut self, name: &'static str, b: bool) {
        if !self.state.plays_rule_option(name) {
            // Remembered for the games that have it; this one goes on undisturbed.
            if let Err(e) = self.state.set_rule_option(name, b) {
                say(&format!("Error ({e})"));
            }
            return;
        }
        let was = self.running.as_ref().map(|r| r.purpose);
        self.stop_search();
        if let Err(e) = self.state.set_rule_option(name, b) {
            say(&format!("Error ({e})"));
            return self.resume(was);
        }
        // The switch takes effect from the next position set up: set this one again.
        let moves: Vec<&str> = self.history.iter().map(String::as_str).collect();
        if let Err(e) =
            self.state
                .session_mut()
                .set_position(self.setup_fen.as_deref(), &moves, NOTATION)
        {
            say(&format!(
                "tellusererror The game so far is not legal with {name}={}: {}",
                u8::from(b),
                clip_message(&e.to_string())
            ));
        }
        self.resume(was);
    }

    /// `perft N` on its own thread, on a copy of the position: a running search goes on, and
    /// `?`, `new`, `variant`, `quit` or the end of input stop the count. `pong`s wait for it.
    fn cmd_perft(&mut self, arg: &str) {
        let depth = match arg.parse::<u32>() {
            Ok(d) if d <= 20 => d,
            _ => {
                return say(&format!(
                    "Error (perft depth must be 0..20): perft {}",
                    clip(arg)
                ))
            }
        };
        self.cancel_job();
        let session = self.state.session().clone_session();
        let threads = self.state.options().threads;
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&cancel);
        let spawned = thread::Builder::new().name("perft".into()).spawn(move || {
            let Some(split) = session.perft_divide_until(depth, threads, NOTATION, &stop) else {
                return say(&format!("Error (perft stopped): perft {depth}"));
            };
            let total: u64 = if depth == 0 {
                1
            } else {
                split.iter().map(|(_, n)| n).sum()
            };
            for (m, n) in &split {
                say(&format!("{m}: {n}"));
            }
            say(&format!("perft {depth}: {total}"));
        });
        match spawned {
            Ok(handle) => self.job = Some(Job { cancel, handle }),
            Err(e) => say(&format!("Error (cannot start perft: {e}): perft {depth}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
