//! The UCI adapter: reads UCI commands, drives the [`Session`] facade, prints UCI answers.
//!
//! Hand-written for the variants: positions, FENs and moves are whatever the current game
//! accepts, so no chess-only parser touches the input. Bad input is answered with
//! `info string error: ...` and leaves the engine as it was.

use super::{clip, clip_message, parse_count, Input, END_OF_INPUT_GRACE};
use crate::engine::jobs::{self, Job, JobEvent, JobKind};
use crate::engine::options::{self, Changed, EngineOption, OptionType, EVAL_FILE};
use crate::engine::registry::VariantInfo;
use crate::engine::state::EngineState;
use crate::engine::wdl::Wdl;
use crate::games::Notation;
use crate::host::SharedHost;
use crate::search::{Bound, Limits, PvInfo, Report, SearchControl, SearchResult};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The most bad `go` parameters named one by one; the rest are counted in one line.
const GO_ERRORS_NAMED: usize = 3;

/// A search running on its own thread, so that the command loop still answers `isready`,
/// `stop` and `quit`.
struct Running {
    ctl: Arc<SearchControl>,
    /// Infinite and ponder searches end only on `stop`/`ponderhit`.
    waits_for_stop: bool,
    handle: JoinHandle<()>,
}

/// The UCI engine state.
pub struct Uci {
    /// The clock and threads the searches and jobs are given.
    host: SharedHost,
    /// Game, rule switches, table and options, kept as the XBoard adapter keeps them.
    state: EngineState,
    running: Option<Running>,
    /// A `go perft` or `bench` running on its own thread.
    job: Option<Job>,
}

/// Prints one line of output (stdout is line-buffered, so each line leaves at once).
/// A closed stdout (the GUI went away) is ignored rather than a panic.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// An error line; its text is cut to a length a GUI can show (see [`clip_message`]).
fn error(msg: impl AsRef<str>) {
    say(&format!(
        "info string error: {}",
        clip_message(msg.as_ref())
    ));
}

/// The `info` line of a search report; with `wdl` (`UCI_ShowWDL`), the win chances of its
/// score follow the score, as Stockfish writes them.
pub fn format_info(info: &PvInfo<String>, wdl: Option<Wdl>) -> String {
    let chances = wdl.map_or_else(String::new, |w| format!(" wdl {w}"));
    if info.depth == 0 {
        return format!("info depth 0 score {}{chances}", info.score);
    }
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}{}{} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        chances,
        bound,
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time.as_millis()
    );
    if !info.pv.is_empty() {
        s += " pv ";
        s += &info.pv.join(" ");
    }
    s
}

/// The `option` line of the `uci` answer for one entry of the option table.
pub fn option_line(o: &EngineOption) -> String {
    let name = o.name;
    match &o.kind {
        OptionType::Check { default } => format!("option name {name} type check default {default}"),
        OptionType::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionType::Combo { default, choices } => {
            let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        OptionType::Text { default } if !default.is_empty() => {
            format!("option name {name} type string default {default}")
        }
        OptionType::Text { .. } | OptionType::File => {
            format!("option name {name} type string default <empty>")
        }
        OptionType::Button => format!("option name {name} type button"),
    }
}

impl Uci {
    pub fn new(host: SharedHost, seed: u64) -> Self {
        Uci {
            host,
            state: EngineState::new(seed),
            running: None,
            job: None,
        }
    }

    /// Runs until `quit` or the end of input. `first` is a line already read by the dispatcher.
    pub fn run(&mut self, first: Option<String>, input: &Input) {
        if let Some(line) = first {
            if !self.handle(&line) {
                self.finish(true);
                return;
            }
        }
        while let Ok(line) = input.recv() {
            if !self.handle(&line) {
                self.finish(true);
                return;
            }
        }
        // End of input: the GUI is gone. A search with a limit gets a moment to finish (so a
        // piped `go depth 5` still answers); then, and at once for an infinite or ponder search,
        // it is stopped and its move printed. The engine never outlives its input by more than
        // about `END_OF_INPUT_GRACE`.
        let deadline = Instant::now() + END_OF_INPUT_GRACE;
        let busy = |u: &Self| {
            u.running
                .as_ref()
                .is_some_and(|r| !r.waits_for_stop && !r.handle.is_finished())
                || u.job.as_ref().is_some_and(|j| !j.is_finished())
        };
        while busy(self) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(2));
        }
        self.finish(true);
    }

    /// Ends the running search or job, if any: stops it when `stop` is set or it would never
    /// end.
    fn finish(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop || r.waits_for_stop {
                r.ctl.stop();
            }
            let _ = r.handle.join();
        }
        if let Some(job) = self.job.take() {
            if stop {
                job.stop();
            } else {
                job.wait();
            }
        }
    }

    fn stop_search(&mut self) {
        self.finish(true);
    }

    /// Handles one command; false means quit.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        // A finished search or job thread is collected before anything else.
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
            || self.job.as_ref().is_some_and(Job::is_finished)
        {
            self.finish(false);
        }
        match cmd {
            "uci" => self.cmd_uci(),
            "isready" => say("readyok"),
            "ucinewgame" => {
                self.stop_search();
                self.state.clear_table();
                // A weakened engine chooses afresh in each game.
                self.state.reseed(None);
            }
            "setoption" => {
                self.stop_search();
                self.cmd_setoption(args);
            }
            "position" => {
                self.stop_search();
                self.cmd_position(args);
            }
            "go" => {
                self.stop_search();
                self.cmd_go(args);
            }
            "stop" => self.stop_search(),
            "ponderhit" => {
                if let Some(r) = &mut self.running {
                    r.ctl.ponderhit();
                    r.waits_for_stop = false;
                }
            }
            "quit" => return false,
            "d" => {
                let session = self.state.session();
                say(session.board_diagram().trim_end());
                say(&format!("Fen: {}", session.fen()));
                say(&format!("Key: {:016X}", session.key()));
            }
            "eval" => self.cmd_eval(),
            "bench" => {
                self.stop_search();
                self.start_job("bench", args.first().copied());
            }
            "debug" | "register" => {}
            _ => error(format!("unknown command '{}'", clip(cmd))),
        }
        true
    }

    fn cmd_uci(&self) {
        say(&format!("id name Cannonade {}", env!("CARGO_PKG_VERSION")));
        say("id author the Cannonade authors");
        for o in options::announced() {
            say(&option_line(o));
        }
        say("uciok");
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        // setoption name <words...> [value <words...>]
        if args.first() != Some(&"name") {
            return error("setoption: expected 'setoption name <name> [value <value>]'");
        }
        let rest = &args[1..];
        let vpos = rest.iter().position(|&t| t == "value");
        let (name_tokens, value) = match vpos {
            Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
            None => (rest, None),
        };
        let name = name_tokens.join(" ");
        if name.is_empty() {
            return error(
                "setoption: the option name is missing; expected 'setoption name <name> \
                 [value <value>]' with a name from the 'option name ...' lines of 'uci'",
            );
        }
        match self.state.set_option(&name, value.as_deref()) {
            Err(e) => error(e.to_string()),
            Ok((_, Changed::Variant)) => {
                if let Some(line) = variant_line(self.state.variant()) {
                    say(&line);
                }
                if let Some(note) = self.state.nnue_missing() {
                    say(&format!("info string {note}"));
                }
            }
            Ok((_, Changed::Evaluator)) => self.tell_evaluator(),
            Ok((_, Changed::Net(net))) => {
                say(&format!("info string {EVAL_FILE}: {net}"));
                self.tell_evaluator();
            }
            // A rule switch takes effect from the next `position`; the rest need nothing more.
            Ok((_, Changed::Rules | Changed::Analysis | Changed::Nothing)) => {}
        }
    }

    /// After a change of the evaluation options: which evaluation the search will use.
    fn tell_evaluator(&self) {
        say(&format!("info string {}", self.state.evaluator_note()));
    }

    /// `eval`: the hand-written evaluation, and the net's when the variant has one.
    fn cmd_eval(&self) {
        let session = self.state.session();
        say(&format!(
            "Static evaluation: {} cp (side to move)",
            session.evaluate()
        ));
        if let Some(v) = self.state.net().and_then(|net| session.evaluate_nnue(net)) {
            say(&format!(
                "NNUE evaluation: {v} cp (side to move), {}",
                self.state.net_description()
            ));
        }
        let used = if self.state.options().nnue.is_some() {
            "NNUE"
        } else if self.state.options().material_only {
            "material only"
        } else {
            "hand-written"
        };
        say(&format!("Search evaluation: {used}"));
        say(&self.state.eval_chances_text());
    }

    fn cmd_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &args[args.len()..]),
        };
        let fen = match setup.split_first() {
            Some((&"startpos", [])) => None,
            Some((&"fen", fields)) if !fields.is_empty() => Some(fields.join(" ")),
            Some((&"fen", _)) => return error("position fen: the FEN is missing"),
            _ => {
                return error(format!(
                    "position: expected 'startpos' or 'fen <FEN>', got '{}'",
                    setup.join(" ")
                ))
            }
        };
        if let Err(e) = self
            .state
            .session_mut()
            .set_position(fen.as_deref(), moves, Notation::Uci)
        {
            error(format!("position: {e}; position unchanged"));
        }
    }

    fn cmd_go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            return self.start_job("perft", args.get(1).copied());
        }
        let limits = self.parse_go(args);
        let session = self.state.session().clone_session();
        let ctl = Arc::new(SearchControl::new(Arc::clone(&self.host), limits.ponder));
        let tt = self.state.table();
        let opts = self.state.options().clone();
        let wdl_of = self.state.search_chances();
        let thread_ctl = Arc::clone(&ctl);
        let thread_limits = limits.clone();
        let spawned = thread::Builder::new()
            .name("go".into())
            .stack_size(crate::search::smp::SEARCH_STACK_BYTES)
            .spawn(move || {
                let print_best = |r: &SearchResult<String>| match (&r.best, &r.ponder) {
                    (Some(b), Some(p)) => say(&format!("bestmove {b} ponder {p}")),
                    (Some(b), None) => say(&format!("bestmove {b}")),
                    (None, _) => say("bestmove (none)"),
                };
                let mut answered = false;
                let r = session.search(
                    &thread_limits,
                    &opts,
                    &tt,
                    &thread_ctl,
                    Notation::Uci,
                    &mut |report| match report {
                        Report::Info(info) => {
                            let chances = wdl_of.as_ref().map(|f| f(info.score));
                            say(&format_info(&info, chances))
                        }
                        Report::Done(r) => {
                            print_best(&r);
                            answered = true;
                        }
                    },
                );
                // Only when the search thread died before it could report.
                if !answered {
                    print_best(&r);
                }
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    ctl,
                    waits_for_stop: limits.infinite || limits.ponder,
                    handle,
                })
            }
            Err(e) => {
                error(format!("go: cannot start the search thread: {e}"));
                say("bestmove (none)");
            }
        }
    }

    /// Reads the `go` parameters. Bad ones are reported and ignored; the search still runs,
    /// because the GUI waits for a `bestmove`. The first few bad ones are named, the rest
    /// counted: a line of a million bad tokens is not answered with a million lines.
    fn parse_go(&self, args: &[&str]) -> Limits {
        let mut l = Limits::default();
        let mut errors = Vec::new();
        let session = self.state.session();
        let white = session.side_to_move() == crate::board::Color::White;
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            let takes_value = matches!(
                key,
                "wtime"
                    | "btime"
                    | "winc"
                    | "binc"
                    | "movestogo"
                    | "movetime"
                    | "depth"
                    | "nodes"
                    | "mate"
            );
            if !takes_value {
                match key {
                    "infinite" => l.infinite = true,
                    "ponder" => l.ponder = true,
                    "searchmoves" => {
                        let legal = session.legal_moves(Notation::Uci);
                        while i + 1 < args.len() && !is_go_keyword(args[i + 1]) {
                            i += 1;
                            if legal.iter().any(|m| m == args[i]) {
                                l.search_moves.push(args[i].to_string());
                            } else {
                                errors.push(format!(
                                    "go searchmoves: '{}' is not a legal move here, ignored",
                                    clip(args[i])
                                ));
                            }
                        }
                    }
                    _ => errors.push(format!("go: unknown parameter '{}' ignored", clip(key))),
                }
                i += 1;
                continue;
            }
            let Some(raw) = args.get(i + 1) else {
                errors.push(format!("go: '{key}' needs a value"));
                break;
            };
            i += 2;
            // Clocks may be negative when a GUI lets the time run out; treat that as zero.
            // Numbers too big for the engine saturate (see `Limits::sanitized`).
            let value: Option<u64> = parse_count(raw).filter(|_| {
                !matches!(key, "depth" | "mate" | "movestogo") || !raw.starts_with('-')
            });
            let Some(v) = value else {
                errors.push(format!(
                    "go: '{key} {}': not a valid number, ignored",
                    clip(raw)
                ));
                continue;
            };
            let ms = Duration::from_millis(v);
            match key {
                "wtime" if white => l.time = Some(ms),
                "btime" if !white => l.time = Some(ms),
                "winc" if white => l.inc = ms,
                "binc" if !white => l.inc = ms,
                "movestogo" => l.moves_to_go = (v > 0).then_some(v.min(u64::from(u32::MAX)) as u32),
                "movetime" => l.move_time = Some(ms),
                "depth" => l.depth = Some(v.min(u64::from(u32::MAX)) as u32),
                "nodes" => l.nodes = Some(v),
                "mate" => l.mate = Some(v.min(1000) as u32),
                _ => {} // the other side's clock
            }
        }
        for e in errors.iter().take(GO_ERRORS_NAMED) {
            error(e);
        }
        if errors.len() > GO_ERRORS_NAMED {
            error(format!(
                "go: {} more bad parameters ignored",
                errors.len() - GO_ERRORS_NAMED
            ));
        }
        l
    }

    /// `go perft N` and `bench [DEPTH]`: on their own thread (the jobs both protocols run),
    /// stopped by `stop`, `quit`, the end of input and any command that needs the engine idle.
    fn start_job(&mut self, command: &str, arg: Option<&str>) {
        let kind = match jobs::parse_depth(command, arg) {
            Ok(kind) => kind,
            Err(e) => {
                return error(format!(
                    "{}{e}",
                    if command == "perft" { "go " } else { "" }
                ))
            }
        };
        let session = self.state.session().clone_session();
        let threads = self.state.options().threads;
        let started = Job::start(
            &self.host,
            kind,
            session,
            threads,
            Notation::Uci,
            move |event| match event {
                JobEvent::PerftMove(m, n) => say(&format!("{m}: {n}")),
                JobEvent::PerftTotal { total, .. } => {
                    say("");
                    say(&format!("Nodes searched: {total}"));
                }
                JobEvent::BenchLine(line) => say(&format!("info string {line}")),
                JobEvent::BenchDone(r) => {
                    say(&format!("Nodes searched: {}", r.nodes));
                    say(&format!("Nodes/second: {}", r.nps()));
                }
                JobEvent::Stopped => say(&format!("info string {} stopped", job_name(kind))),
                JobEvent::Failed(e) => error(format!("{}: {e}", job_name(kind))),
            },
        );
        match started {
            Ok(job) => self.job = Some(job),
            Err(e) => error(format!("{command}: cannot start a thread: {e}")),
        }
    }
}

fn job_name(kind: JobKind) -> &'static str {
    match kind {
        JobKind::Perft { .. } => "perft",
        JobKind::Bench { .. } => "bench",
    }
}

/// What Fairy-Stockfish prints when a variant is selected, so GUIs that know it (e.g. for
/// board size and start position) can set up the board; nothing for orthodox chess.
pub fn variant_line(info: &VariantInfo) -> Option<String> {
    (!info.standard).then(|| {
        format!(
            "info string variant {} files {} ranks {} pocket {} template {} startpos {}",
            info.game.name,
            info.game.files,
            info.game.ranks,
            info.game.hand,
            info.gui_template,
            info.game.start_fen
        )
    })
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "movetime"
            | "depth"
            | "nodes"
            | "mate"
            | "infinite"
            | "ponder"
            | "perft"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry::{self, VARIANTS};
    use crate::search::Score;

    #[test]
    fn variant_lines_follow_fairy_stockfish() {
        // Spelled out for each real variant: the line GUIs read to set up the board.
        let expected = [
            ("chess", None),
            ("cannon", Some("files 10 ranks 10 pocket 1 template fairy")),
            (
                "cannonrider",
                Some("files 10 ranks 8 pocket 0 template fairy"),
            ),
            (
                "cannonriderscorpion",
                Some("files 10 ranks 8 pocket 0 template fairy"),
            ),
            (
                "swedishcannon",
                Some("files 8 ranks 8 pocket 1 template fairy"),
            ),
            (
                "swedishcannon1",
                Some("files 8 ranks 8 pocket 1 template fairy"),
            ),
            (
                "cannonshogi",
                Some("files 9 ranks 9 pocket 11 template shogi"),
            ),
            (
                "chesstonia",
                Some("files 12 ranks 8 pocket 0 template fairy"),
            ),
        ];
        assert_eq!(expected.len(), VARIANTS.len());
        for (name, shape) in expected {
            let info = registry::find(name).unwrap();
            assert_eq!(
                variant_line(info),
                shape.map(|s| format!(
                    "info string variant {name} {s} startpos {}",
                    info.game.start_fen
                )),
                "{name}"
            );
        }
    }

    #[test]
    fn info_lines() {
        let info = PvInfo {
            depth: 7,
            seldepth: 12,
            multipv: 2,
            score: Score::Mate(-3),
            bound: Some(Bound::Upper),
            nodes: 5000,
            time: Duration::from_millis(250),
            hashfull: 17,
            pv: vec!["e2e4".to_string(), "e7e5".to_string()],
        };
        assert_eq!(
            format_info(&info, None),
            "info depth 7 seldepth 12 multipv 2 score mate -3 upperbound nodes 5000 nps 20000 \
             hashfull 17 time 250 pv e2e4 e7e5"
        );
        let over = PvInfo {
            depth: 0,
            score: Score::Cp(0),
            pv: vec![],
            ..info
        };
        assert_eq!(format_info(&over, None), "info depth 0 score cp 0");
        let even = Wdl {
            win: 120,
            draw: 760,
            loss: 120,
        };
        assert_eq!(
            format_info(&over, Some(even)),
            "info depth 0 score cp 0 wdl 120 760 120"
        );
        let bounded = PvInfo {
            score: Score::Cp(35),
            pv: vec![],
            ..info
        };
        assert!(format_info(&bounded, Some(even))
            .contains(" score cp 35 wdl 120 760 120 upperbound nodes "));
    }
}
