//! The XBoard / CECP v2 adapter: turns XBoard commands into calls of the engine facade
//! ([`Engine`]) and its reports into XBoard answers.
//!
//! Moves are written in [`Notation::XBoard`] (ranks from 0 on ten-rank boards, shots as two
//! legs). The engine is the arbiter of the games XBoard cannot check: it refuses illegal moves
//! with `Illegal move: X` and claims every game end itself. A search runs beside the command
//! loop; when it ends, its result waits in the adapter's [`Reports`] until the owner's thread
//! acts on it ([`Adapter::on_wake`], and before each command): only there is the engine's move
//! printed and played, so a command handled after the move always sees the position after it.
//!
//! Pondering and analysis need a host with threads: a search on the owner's own thread would
//! wait there for a command that could not be read.

pub mod clock;
pub mod describe;
mod entry;
mod game;
mod settings;
mod thinking;

use entry::Entry;
pub use settings::{feature_option, NATIVE_OPTIONS};
pub use thinking::{result_claim, thinking_line};
use thinking::{Current, Reports};

use super::{clip, clip_message, parse_count, Adapter, Output};
use crate::board::Color;
use crate::engine::options::{HASH, PONDER, THREADS};
use crate::engine::{Engine, EngineState};
use crate::games::Notation;
use crate::host::Host;
use clock::Clock;
use std::sync::Arc;
use std::time::Duration;

pub(super) const NOTATION: Notation = Notation::XBoard;

/// The XBoard engine: the facade, where the answers go, and the protocol's own state.
pub struct XBoard {
    engine: Engine,
    out: Output,
    /// The facade's reports, shared with it: how the running search is shown, and the
    /// results of searches that ended.
    reports: Arc<Reports>,
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
    /// The search the adapter started and whose end it has not acted on yet.
    running: Option<Current>,
    /// Options received while the engine thinks about its move (any change of settings would
    /// stop the search): set once the move is made. With the command that sent each, for its
    /// error message.
    pending: Vec<(&'static str, String, String)>,
    /// `pong`s held back until the running `perft` has printed its answer (a `pong` promises
    /// that every earlier command is done).
    held_pongs: Vec<String>,
}

impl XBoard {
    /// An XBoard engine on `host`, answering through `out`.
    pub fn new(host: Arc<dyn Host>, out: Output) -> XBoard {
        let reports = Arc::new(Reports::new(out.clone()));
        XBoard {
            engine: Engine::new(host, NOTATION, Arc::clone(&reports) as _),
            out,
            reports,
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
            pending: Vec::new(),
            held_pongs: Vec::new(),
        }
    }

    /// The engine behind the adapter.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub(super) fn state(&self) -> &EngineState {
        self.engine.state()
    }

    pub(super) fn say(&self, line: &str) {
        self.out.say(line);
    }

    /// Handles one command; false means quit.
    pub fn handle(&mut self, line: &str) -> bool {
        // A search that ended is acted on first: the command sees the position after the
        // engine's move.
        self.collect_finished();
        // A search for the engine's move that ended some other way (`force`, `new`, ...)
        // leaves what it held back to be done now.
        self.apply_pending();
        let go_on = self.command(line);
        // And again: a search on the caller's own thread (a host without threads) has ended
        // by now.
        self.collect_finished();
        go_on
    }

    fn command(&mut self, line: &str) -> bool {
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
                self.engine_side = self.state().session().side_to_move();
                self.think();
            }
            "playother" => {
                self.stop_unless_analyzing();
                self.force = false;
                self.engine_side = !self.state().session().side_to_move();
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
                if self.thinking() {
                    self.engine.stop();
                    self.collect_finished();
                }
                self.cancel_job();
            }
            "ping" => {
                let pong = format!("pong {rest}");
                if self.engine.job_running() || !self.held_pongs.is_empty() {
                    self.held_pongs.push(pong);
                } else {
                    self.say(&pong);
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
                Err(e) => self.say(&format!("Error ({}): {}", clip(&e.to_string()), clip(line))),
            },
            "st" => match clock::seconds(rest, 1.0) {
                Some(d) if d > Duration::ZERO => self.clock.per_move = Some(d),
                _ => self.say(&format!("Error (bad time per move): {}", clip(line))),
            },
            "sd" => match parse_count(rest).filter(|_| !rest.starts_with('-')) {
                Some(d) if d > 0 => self.clock.depth = Some(d.min(u64::from(u32::MAX)) as u32),
                _ => self.say(&format!("Error (bad depth): {}", clip(line))),
            },
            "nps" => match parse_count(rest).filter(|_| !rest.starts_with('-')) {
                Some(0) => self.clock.nps = None,
                Some(n) => self.clock.nps = Some(n),
                None => self.say(&format!("Error (bad nps): {}", clip(line))),
            },
            "time" | "otim" => match clock::centiseconds(rest) {
                Some(t) if cmd == "time" => self.clock.mine = Some(t),
                Some(t) => self.clock.theirs = Some(t),
                None => self.say(&format!("Error (bad clock value): {}", clip(line))),
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
                for l in self.state().session().board_diagram().trim_end().lines() {
                    self.say(&format!("# {l}"));
                }
                self.say(&format!("# Fen: {}", self.state().session().fen()));
            }
            // Not XBoard's either: the evaluations, as UCI's `eval` gives them.
            "eval" => {
                let state = self.state();
                let session = state.session();
                self.say(&format!(
                    "# Static evaluation: {} cp (side to move)",
                    session.evaluate()
                ));
                if let Some(v) = state.net().and_then(|net| session.evaluate_nnue(net)) {
                    self.say(&format!(
                        "# NNUE evaluation: {v} cp (side to move), {}",
                        state.net_description()
                    ));
                }
                self.say(&format!("# {}", state.eval_chances_text()));
            }
            "memory" => self.option_command(HASH, rest, line),
            "cores" => self.option_command(THREADS, rest, line),
            "exclude" | "include" => self.cmd_exclude(cmd == "exclude", rest),
            "lift" | "hover" => self.cmd_lift(cmd, rest),
            "put" => self.cmd_put(rest),
            "option" => self.cmd_option(rest),
            "perft" | "bench" => self.start_job(cmd, rest),
            "quit" => {
                // The GUI is done with the game: a move being thought about is not wanted.
                self.stop_search();
                self.cancel_job();
                return false;
            }
            _ => {
                // A bare move (from a GUI that did not take `usermove=1`) is still a move, and
                // a bare string in the form of a move is an illegal move, not a command.
                if args.is_empty()
                    && describe::looks_like_move(
                        cmd,
                        self.state().variant().game.files,
                        self.state().variant().game.ranks,
                    )
                {
                    self.cmd_usermove(cmd);
                } else {
                    self.say(&format!("Error (unknown command): {}", clip(cmd)));
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

impl Adapter for XBoard {
    fn handle(&mut self, line: &str) -> bool {
        XBoard::handle(self, line)
    }

    fn on_wake(&mut self) {
        self.collect_finished();
    }

    fn working(&self) -> bool {
        (self.thinking() && self.engine.is_searching()) || self.engine.job_running()
    }

    /// A move being thought about is stopped and played, a `perft` stopped; analysis and
    /// pondering stop.
    fn finish(&mut self) {
        if self.thinking() {
            self.engine.stop();
        }
        self.cancel_job();
        self.collect_finished();
        // The move may have started a ponder search.
        self.stop_search();
    }
}
