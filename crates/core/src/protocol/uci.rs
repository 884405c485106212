//! The UCI adapter: turns UCI commands into calls of the engine facade ([`Engine`]) and its
//! reports into UCI answers.
//!
//! Hand-written for the variants: positions, FENs and moves are whatever the current game
//! accepts, so no chess-only parser touches the input. Bad input is answered with
//! `info string error: ...` and leaves the engine as it was.
//!
//! Which commands are answered while a search runs, and what they do to it, is decided in one
//! place, [`Uci::interim`], for every host: the native loop (each line goes through it first,
//! inside [`Uci::handle`]) and a host without threads, whose search runs on the thread that
//! called `go` (it hands the lines that arrive during the search to `interim` from its `poll`,
//! and keeps those `interim` leaves to be handled for [`Uci::handle`] once `go` has returned).

use super::{clip, clip_message, parse_count, Adapter, Output};
use crate::engine::jobs::{self, JobEvent, JobKind};
use crate::engine::options::{self, Changed, EngineOption, OptionType, EVAL_FILE};
use crate::engine::registry::VariantInfo;
use crate::engine::wdl::Wdl;
use crate::engine::{Engine, Listener, Remote, SearchId, Session};
use crate::games::Notation;
use crate::host::Host;
use crate::search::{Bound, Limits, PvInfo, SearchResult};
use std::sync::Arc;
use std::time::Duration;

/// The most bad `go` parameters named one by one; the rest are counted in one line.
const GO_ERRORS_NAMED: usize = 3;

/// What a line of input means to the search (or job) running now, as [`Uci::interim`] tells
/// it. The same answers hold when nothing runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Interim {
    /// Answered already (`isready`, `ponderhit`, a blank line): nothing more to do.
    Done,
    /// `stop`: the running search was told to end (it gives its move as it does); the
    /// command is done once it has ended.
    Stop,
    /// A command that needs the engine idle (`go`, `position`, `setoption`, `ucinewgame`,
    /// `bench`, `quit`): the running search was told to end; handle the line once it has.
    StopThenHandle,
    /// A command that leaves the search alone (`d`, `eval`, `uci`, an unknown word): handle
    /// it as usual, during the search where the host can, or after it.
    Handle,
}

/// The UCI engine: the facade and where the answers go.
pub struct Uci {
    engine: Engine,
    out: Output,
}

/// The facade's reports, worded for UCI.
struct Reports {
    out: Output,
}

impl Reports {
    fn error(&self, msg: &str) {
        self.out.say(&error_line(msg));
    }
}

impl Listener for Reports {
    fn info(&self, _: SearchId, info: &PvInfo<String>, wdl: Option<Wdl>) {
        self.out.say(&format_info(info, wdl));
    }

    fn best_move(&self, _: SearchId, r: &SearchResult<String>) {
        self.out.say(&match (&r.best, &r.ponder) {
            (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
            (Some(b), None) => format!("bestmove {b}"),
            (None, _) => "bestmove (none)".to_string(),
        });
    }

    fn job(&self, kind: JobKind, event: &JobEvent) {
        let say = |l: &str| self.out.say(l);
        match event {
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
            JobEvent::Failed(e) => self.error(&format!("{}: {e}", job_name(kind))),
        }
    }

    fn ended(&self) {
        self.out.wake();
    }
}

/// An error line; its text is cut to a length a GUI can show (see [`clip_message`]).
fn error_line(msg: &str) -> String {
    format!("info string error: {}", clip_message(msg))
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
    /// A UCI engine on `host`, answering through `out`; a weakened search's choices start
    /// from `seed`.
    pub fn new(host: Arc<dyn Host>, seed: u64, out: Output) -> Uci {
        let reports = Arc::new(Reports { out: out.clone() });
        Uci {
            engine: Engine::new(host, seed, Notation::Uci, reports),
            out,
        }
    }

    /// The engine behind the adapter.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// A handle on the running search, for [`Uci::interim`] where the adapter is busy.
    pub fn remote(&self) -> Remote {
        self.engine.remote()
    }

    fn say(&self, line: &str) {
        self.out.say(line);
    }

    fn error(&self, msg: impl AsRef<str>) {
        self.say(&error_line(msg.as_ref()));
    }

    /// What `line` means while a search or job runs, and what is done about it at once: the
    /// one rule of which commands are answered during a search. It answers `isready`, passes
    /// `ponderhit` to the search and tells it to stop for `stop` and for the commands that
    /// need the engine idle; the rest is left to [`Uci::handle`] (see [`Interim`]). It needs
    /// no access to the adapter, which may be busy running the search: `search` is the
    /// adapter's [`Uci::remote`], `out` its output.
    pub fn interim(line: &str, search: &Remote, out: &Output) -> Interim {
        match line.split_whitespace().next().unwrap_or("") {
            "" => Interim::Done,
            "isready" => {
                out.say("readyok");
                Interim::Done
            }
            "ponderhit" => {
                search.ponderhit();
                Interim::Done
            }
            "stop" => {
                search.stop();
                Interim::Stop
            }
            "go" | "position" | "setoption" | "ucinewgame" | "bench" | "quit" => {
                search.stop();
                Interim::StopThenHandle
            }
            _ => Interim::Handle,
        }
    }

    /// Handles one command; false means quit.
    pub fn handle(&mut self, line: &str) -> bool {
        match Uci::interim(line, &self.engine.remote(), &self.out) {
            Interim::Done => return true,
            Interim::Stop => {
                self.stop_all();
                return true;
            }
            Interim::StopThenHandle => self.stop_all(),
            Interim::Handle => {}
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        match cmd {
            "uci" => self.cmd_uci(),
            "ucinewgame" => self.engine.new_game(),
            "setoption" => self.cmd_setoption(args),
            "position" => self.cmd_position(args),
            "go" => self.cmd_go(args),
            "quit" => return false,
            "d" => {
                let session = self.engine.state().session();
                self.say(session.board_diagram().trim_end());
                self.say(&format!("Fen: {}", session.fen()));
                self.say(&format!("Key: {:016X}", session.key()));
            }
            "eval" => self.cmd_eval(),
            "bench" => self.start_job("bench", args.first().copied()),
            "debug" | "register" => {}
            _ => self.error(format!("unknown command '{}'", clip(cmd))),
        }
        true
    }

    /// Ends the running search and job, if any: their last answers are out when this returns.
    fn stop_all(&mut self) {
        self.engine.stop();
        self.engine.stop_job();
    }

    fn cmd_uci(&self) {
        self.say(&format!("id name Cannonade {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the Cannonade authors");
        for o in options::announced() {
            self.say(&option_line(o));
        }
        self.say("uciok");
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        // setoption name <words...> [value <words...>]
        if args.first() != Some(&"name") {
            return self.error("setoption: expected 'setoption name <name> [value <value>]'");
        }
        let rest = &args[1..];
        let vpos = rest.iter().position(|&t| t == "value");
        let (name_tokens, value) = match vpos {
            Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
            None => (rest, None),
        };
        let name = name_tokens.join(" ");
        if name.is_empty() {
            return self.error(
                "setoption: the option name is missing; expected 'setoption name <name> \
                 [value <value>]' with a name from the 'option name ...' lines of 'uci'",
            );
        }
        match self.engine.set_option(&name, value.as_deref()) {
            Err(e) => self.error(e.to_string()),
            Ok((_, Changed::Variant)) => {
                let state = self.engine.state();
                if let Some(line) = variant_line(state.variant()) {
                    self.say(&line);
                }
                if let Some(note) = state.nnue_missing() {
                    self.say(&format!("info string {note}"));
                }
            }
            Ok((_, Changed::Evaluator)) => self.tell_evaluator(),
            Ok((_, Changed::Net(net))) => {
                self.say(&format!("info string {EVAL_FILE}: {net}"));
                self.tell_evaluator();
            }
            // A rule switch takes effect from the next `position`; the rest need nothing more.
            Ok((_, Changed::Rules | Changed::Analysis | Changed::Nothing)) => {}
        }
    }

    /// After a change of the evaluation options: which evaluation the search will use.
    fn tell_evaluator(&self) {
        self.say(&format!(
            "info string {}",
            self.engine.state().evaluator_note()
        ));
    }

    /// `eval`: the hand-written evaluation, and the net's when the variant has one.
    fn cmd_eval(&self) {
        let state = self.engine.state();
        let session = state.session();
        self.say(&format!(
            "Static evaluation: {} cp (side to move)",
            session.evaluate()
        ));
        if let Some(v) = state.net().and_then(|net| session.evaluate_nnue(net)) {
            self.say(&format!(
                "NNUE evaluation: {v} cp (side to move), {}",
                state.net_description()
            ));
        }
        let used = if state.options().nnue.is_some() {
            "NNUE"
        } else if state.options().material_only {
            "material only"
        } else {
            "hand-written"
        };
        self.say(&format!("Search evaluation: {used}"));
        self.say(&state.eval_chances_text());
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
            Some((&"fen", _)) => return self.error("position fen: the FEN is missing"),
            _ => {
                return self.error(format!(
                    "position: expected 'startpos' or 'fen <FEN>', got '{}'",
                    setup.join(" ")
                ))
            }
        };
        if let Err(e) = self.engine.set_position(fen.as_deref(), moves) {
            self.error(format!("position: {e}; position unchanged"));
        }
    }

    fn cmd_go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            return self.start_job("perft", args.get(1).copied());
        }
        let (limits, errors) = parse_go(args, self.engine.state().session());
        for e in errors.iter().take(GO_ERRORS_NAMED) {
            self.error(e);
        }
        if errors.len() > GO_ERRORS_NAMED {
            self.error(format!(
                "go: {} more bad parameters ignored",
                errors.len() - GO_ERRORS_NAMED
            ));
        }
        self.engine.go(limits);
    }

    /// `go perft N` and `bench [DEPTH]`: the jobs both protocols run, beside the command loop,
    /// stopped by `stop`, `quit`, the end of input and any command that needs the engine idle.
    fn start_job(&mut self, command: &str, arg: Option<&str>) {
        let kind = match jobs::parse_depth(command, arg) {
            Ok(kind) => kind,
            Err(e) => {
                return self.error(format!(
                    "{}{e}",
                    if command == "perft" { "go " } else { "" }
                ))
            }
        };
        if let Err(e) = self.engine.start_job(kind) {
            self.error(format!("{command}: cannot start a thread: {e}"));
        }
    }
}

impl Adapter for Uci {
    fn handle(&mut self, line: &str) -> bool {
        Uci::handle(self, line)
    }

    /// Nothing waits for the owner: every answer was given where it was reported.
    fn on_wake(&mut self) {}

    fn working(&self) -> bool {
        (self.engine.is_searching() && !self.engine.waits_for_stop()) || self.engine.job_running()
    }

    fn finish(&mut self) {
        self.stop_all();
    }
}

/// Reads the `go` parameters of a position whose game is `session`: the limits, and the bad
/// parameters in words (each ignored: the search still runs, because the GUI waits for a
/// `bestmove`).
pub fn parse_go(args: &[&str], session: &dyn Session) -> (Limits, Vec<String>) {
    let mut l = Limits::default();
    let mut errors = Vec::new();
    let white = session.side_to_move() == crate::board::Color::White;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let takes_value = GO_VALUE_KEYWORDS.contains(&key);
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
        let value: Option<u64> = parse_count(raw)
            .filter(|_| !matches!(key, "depth" | "mate" | "movestogo") || !raw.starts_with('-'));
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
    (l, errors)
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

/// The `go` parameters followed by a number.
const GO_VALUE_KEYWORDS: [&str; 9] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
];

fn is_go_keyword(t: &str) -> bool {
    GO_VALUE_KEYWORDS.contains(&t) || matches!(t, "infinite" | "ponder" | "perft")
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
