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
mod entry;
mod game;
mod settings;
mod thinking;

use entry::Entry;
pub use settings::{feature_option, NATIVE_OPTIONS};
pub use thinking::{result_claim, thinking_line};
use thinking::{LastInfo, Purpose, Running};

use super::{clip, clip_message, parse_count, Input, END_OF_INPUT_GRACE};
use crate::board::Color;
use crate::engine::jobs::Job;
use crate::engine::options::{HASH, PONDER, THREADS};
use crate::engine::state::EngineState;
use crate::games::Notation;
use crate::host::SharedHost;
use clock::Clock;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How often the command loop looks for a finished search while one runs.
const POLL: Duration = Duration::from_millis(2);
pub(super) const NOTATION: Notation = Notation::XBoard;

pub(super) fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

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
    /// Options that replace the table or the game (`memory`, rule switches), received while
    /// the engine thinks about its move: set once the move is made, so that the search is not
    /// thrown away. With the command that sent each, for its error message.
    pending: Vec<(&'static str, String, String)>,
    job: Option<Job>,
    /// The clock and threads the searches and jobs are given.
    host: SharedHost,
    /// `pong`s held back until the running `perft` has printed its answer (a `pong` promises
    /// that every earlier command is done).
    held_pongs: Vec<String>,
}

impl XBoard {
    pub fn new(host: SharedHost, seed: u64) -> Self {
        XBoard {
            state: EngineState::new(seed),
            setup_fen: None,
            history: Vec::new(),
            clock: Clock::default(),
            force: false,
            engine_side: Color::Black,
            post: false,
            analyzing: false,
            game_over: false,
            excluded: Vec::new(),
            entry: None,
            running: None,
            last_info: Arc::new(Mutex::new(None)),
            pending: Vec::new(),
            job: None,
            host,
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
                || x.job.as_ref().is_some_and(|j| !j.is_finished())
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
                say(&format!("# {}", self.state.eval_chances_text()));
            }
            "memory" => self.option_command(HASH, rest, line),
            "cores" => self.option_command(THREADS, rest, line),
            "exclude" | "include" => self.cmd_exclude(cmd == "exclude", rest),
            "lift" | "hover" => self.cmd_lift(cmd, rest),
            "put" => self.cmd_put(rest),
            "option" => self.cmd_option(rest),
            "perft" | "bench" => self.start_job(cmd, rest),
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
            "hard" => self.option_command(PONDER, "1", cmd),
            "easy" => self.option_command(PONDER, "0", cmd),
            _ => {}
        }
    }
}
