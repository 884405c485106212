//! A protocol fuzzer: drives the real binary through UCI and XBoard with random and mutated
//! commands, FENs and moves in every variant, and fails on
//! - a crash (the engine stops reading or closes its output),
//! - a hang (no `readyok` / `pong` within `ANSWER` of asking),
//! - a changed position after a refused command (compared by the engine's own `d`),
//! - an illegal `bestmove` / `move` (not among the engine's own `perft 1` moves),
//! - a missing answer (`go` without `bestmove`, `go` / `?` without `move` or a result claim,
//!   an illegal move or a line that is no command without an error),
//! - a valid command refused, or a FEN it accepted that it does not read back the same,
//! - an engine that does not leave after `quit` or the end of its input.
//!
//! Seeded, so every run can be repeated (up to the timing of the searches). In CI it runs a
//! bounded number of lines, and always every variant in both protocols; for longer runs:
//! `scripts/protocol_fuzz.sh` (FUZZ_SEED, FUZZ_LINES, FUZZ_SECONDS; FUZZ_PROTOCOL=uci or xboard
//! for one protocol only; FUZZ_ENGINE=path to fuzz another build). A failure names the seed and
//! session, shows the last commands, and writes the whole session to a file in the temporary
//! directory.

use crate::protocol_support;

use protocol_support::{fen_in, Engine, ANSWER};
use std::collections::BTreeMap;
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

/// Lines and seconds of the CI run (the first bound reached ends it).
const CI_LINES: u64 = 6000;
const CI_SECONDS: u64 = 25;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// Numbers a hostile GUI sends.
fn wild_number(r: &mut Rng) -> String {
    let n = [
        "0",
        "1",
        "-1",
        "7",
        "100",
        "-100000",
        "2147483647",
        "2147483648",
        "4294967296",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551615",
        "1844674407370955162",
        "99999999999999999999999999",
        "-99999999999999999999999999",
        "1e300",
        "NaN",
        "inf",
        "-0",
        "0x10",
        "1.5",
        "",
        "abc",
        "99999999999999999:0",
        "1:99999999999999999999",
        "5:-3",
    ];
    if r.chance(30) {
        return r.below(3000).to_string();
    }
    r.pick(&n).to_string()
}

fn junk_token(r: &mut Rng) -> String {
    let alphabet: Vec<char> =
        "abcdefghijklmnopqrstuvwxyzKQRBNPCSTkqrbnpcst0123456789/@+=-_[]*:.,?!é\u{0}\t"
            .chars()
            .collect();
    let len = 1 + r.below(12);
    (0..len).map(|_| *r.pick(&alphabet)).collect()
}

/// A few random edits of `s`.
fn mutate(r: &mut Rng, s: &str) -> String {
    let mut c: Vec<char> = s.chars().collect();
    let pieces: Vec<char> = "KQRBNPCSTAUIGLkqrbnpcstaugil12345678910*/[]-+ wb"
        .chars()
        .collect();
    for _ in 0..1 + r.below(3) {
        let at = r.below(c.len() + 1);
        match r.below(8) {
            0 if !c.is_empty() => {
                c.remove(at.min(c.len() - 1));
            }
            1 => c.insert(at, *r.pick(&pieces)),
            2 if !c.is_empty() => {
                let i = at.min(c.len() - 1);
                c[i] = *r.pick(&pieces);
            }
            3 => c.truncate(at),
            4 => {
                let extra: Vec<char> = wild_number(r).chars().collect();
                c.splice(at..at, extra);
            }
            5 if c.len() > 2 => {
                let (i, j) = (r.below(c.len()), r.below(c.len()));
                c.swap(i, j);
            }
            6 => {
                let extra: Vec<char> = format!(" {}", junk_token(r)).chars().collect();
                c.splice(at..at, extra);
            }
            _ => {
                let from = r.below(c.len() + 1);
                let seg: Vec<char> = c[from..].iter().take(8).copied().collect();
                c.splice(at..at, seg);
            }
        }
    }
    c.into_iter().collect()
}

/// Words that are commands in either protocol: junk never starts with one.
const COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "debug",
    "register",
    "xboard",
    "protover",
    "accepted",
    "rejected",
    "new",
    "variant",
    "force",
    "playother",
    "white",
    "black",
    "usermove",
    "?",
    "ping",
    "draw",
    "result",
    "setboard",
    "undo",
    "remove",
    "level",
    "st",
    "sd",
    "nps",
    "time",
    "otim",
    "analyze",
    "exit",
    ".",
    "memory",
    "cores",
    "exclude",
    "include",
    "lift",
    "hover",
    "put",
    "option",
    "perft",
    "post",
    "nopost",
    "hard",
    "easy",
    "random",
    "computer",
    "name",
    "rating",
    "ics",
    "hint",
    "bk",
];

/// A line no GUI should send: junk, control characters, a megabyte of text. It never starts
/// with a command word (so it cannot, by chance, start a search or a new game).
fn junk_line(r: &mut Rng) -> String {
    let line = junk_line_raw(r);
    let first = line.split_whitespace().next().unwrap_or("");
    if COMMANDS.contains(&first) {
        format!("z{line}")
    } else {
        line
    }
}

fn junk_line_raw(r: &mut Rng) -> String {
    match r.below(6) {
        0 => "y".repeat(1 + r.below(200_000)),
        1 => (0..1 + r.below(6))
            .map(|_| junk_token(r))
            .collect::<Vec<_>>()
            .join(" "),
        2 => format!("{} {}", junk_token(r), wild_number(r)),
        3 => " \t ".to_string(),
        4 => "\u{feff}uci".to_string(),
        _ => junk_token(r),
    }
}

#[derive(Default)]
struct Stats {
    lines: u64,
    sessions: u64,
    refused: u64,
    accepted_mutants: u64,
    searches: u64,
    none_moves: u64,
    /// Thinks whose `undo` or "illegal" move arrived after the engine had moved.
    late_commands: u64,
    by_protocol: BTreeMap<&'static str, u64>,
    by_variant: BTreeMap<String, u64>,
}

struct Failure(String);

type Outcome<T> = Result<T, Failure>;

fn fail<T>(msg: impl Into<String>) -> Outcome<T> {
    Err(Failure(msg.into()))
}

impl From<String> for Failure {
    fn from(s: String) -> Self {
        Failure(s)
    }
}

/// One variant as the fuzzer knows it.
#[derive(Clone)]
struct Variant {
    name: String,
    xboard: String,
}

fn variants() -> Vec<Variant> {
    let out = Command::new(protocol_support::engine_path())
        .arg("variants")
        .output()
        .expect("cannonade variants");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            // "NAME (WxH, XBoard: XB): Full name"; the indented "start: FEN" lines are skipped.
            if l.starts_with(char::is_whitespace) {
                return None;
            }
            let name = l.split_whitespace().next()?.to_string();
            let xboard = l.split("XBoard: ").nth(1)?.split(')').next()?.to_string();
            Some(Variant { name, xboard })
        })
        .collect()
}

/// A fuzzing session with one engine process and one protocol.
struct Session<'a> {
    e: Engine,
    r: Rng,
    stats: &'a mut Stats,
    xboard: bool,
    variant: Variant,
    variants: &'a [Variant],
    /// FENs seen in any variant (mutation material).
    pool: &'a mut Vec<String>,
    fen: String,
    legal: Vec<String>,
    rule_options: Vec<String>,
    /// XBoard: moves that `undo` can take back.
    history: usize,
}

impl Session<'_> {
    fn send(&mut self, cmd: &str) -> Outcome<()> {
        self.stats.lines += 1;
        Ok(self.e.send(cmd)?)
    }

    fn sync(&mut self) -> Outcome<Vec<String>> {
        self.stats.lines += 1;
        Ok(if self.xboard {
            self.e.sync_xboard()?
        } else {
            self.e.sync_uci()?
        })
    }

    /// Sends one command and returns its answer (everything up to the sync).
    fn cmd(&mut self, cmd: &str) -> Outcome<Vec<String>> {
        self.send(cmd)?;
        self.sync()
    }

    fn is_error(&self, l: &str) -> bool {
        if self.xboard {
            l.starts_with("Error")
                || l.starts_with("Illegal move")
                || l.starts_with("tellusererror")
        } else {
            l.starts_with("info string error")
        }
    }

    fn refused(&self, out: &[String]) -> bool {
        out.iter().any(|l| self.is_error(l))
    }

    fn current_fen(&mut self) -> Outcome<String> {
        let out = self.cmd("d")?;
        fen_in(&out).ok_or_else(|| Failure(format!("no FEN in the output of d: {out:?}")))
    }

    fn legal_moves(&mut self) -> Outcome<Vec<String>> {
        let out = if self.xboard {
            self.send("perft 1")?;
            self.stats.lines += 1;
            self.e.until(ANSWER, |l| l.starts_with("perft 1:"))?
        } else {
            self.send("go perft 1")?;
            self.e.until(ANSWER, |l| l.starts_with("Nodes searched"))?
        };
        let moves: Vec<String> = out
            .iter()
            .filter(|l| {
                !l.starts_with("perft") && !l.starts_with("Nodes") && !l.starts_with("info")
            })
            .filter_map(|l| l.split_once(": ").map(|(m, _)| m.to_string()))
            .collect();
        let total: usize = out
            .last()
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(usize::MAX);
        if total != moves.len() {
            return fail(format!(
                "perft 1 total {total} but {} moves: {out:?}",
                moves.len()
            ));
        }
        Ok(moves)
    }

    /// Reads the position back from the engine after it changed.
    fn refresh(&mut self) -> Outcome<()> {
        self.fen = self.current_fen()?;
        self.legal = self.legal_moves()?;
        if self.pool.len() < 400 && !self.pool.contains(&self.fen) {
            self.pool.push(self.fen.clone());
        }
        Ok(())
    }

    /// After a refused command: the position must be the one before it.
    fn check_unchanged(&mut self, what: &str) -> Outcome<()> {
        self.stats.refused += 1;
        let now = self.current_fen()?;
        if now != self.fen {
            return fail(format!(
                "refused command '{}' changed the position: {} -> {now}",
                clip(what),
                self.fen
            ));
        }
        Ok(())
    }

    /// A command that may change the position: refused -> unchanged; accepted -> re-read.
    fn position_command(&mut self, cmd: &str, must_accept: bool) -> Outcome<bool> {
        let out = self.cmd(cmd)?;
        if self.refused(&out) {
            if must_accept {
                return fail(format!("valid command '{}' refused: {out:?}", clip(cmd)));
            }
            self.check_unchanged(cmd)?;
            return Ok(false);
        }
        self.refresh()?;
        Ok(true)
    }

    /// An accepted FEN must be read back as itself.
    fn round_trip(&mut self) -> Outcome<()> {
        let fen = self.fen.clone();
        let cmd = if self.xboard {
            format!("setboard {fen}")
        } else {
            format!("position fen {fen}")
        };
        let out = self.cmd(&cmd)?;
        if self.refused(&out) {
            return fail(format!("the engine's own FEN {fen} is refused: {out:?}"));
        }
        let again = self.current_fen()?;
        if again != fen {
            return fail(format!("FEN {fen} reads back as {again}"));
        }
        if self.xboard {
            self.history = 0;
        }
        Ok(())
    }

    fn some_fen(&mut self) -> String {
        if self.r.chance(70) || self.pool.is_empty() {
            self.fen.clone()
        } else {
            let i = self.r.below(self.pool.len());
            self.pool[i].clone()
        }
    }

    fn illegal_move(&mut self) -> String {
        loop {
            let base = if self.legal.is_empty() || self.r.chance(30) {
                junk_token(&mut self.r)
            } else {
                let m = self.r.pick(&self.legal).clone();
                mutate(&mut self.r, &m)
            };
            let m = base.split_whitespace().next().unwrap_or("").to_string();
            // Other spellings of legal moves (a trailing '=', a shot in two legs, the Swedish
            // cannon's gating form) are not illegal: keep clear of them.
            let other_spelling = m.contains('=')
                || m.contains(',')
                || (self.variant.name.starts_with("swedish") && m.len() == 5);
            if !m.is_empty()
                && !self.legal.contains(&m)
                && !other_spelling
                && !COMMANDS.contains(&m.as_str())
            {
                return m;
            }
        }
    }

    // ---- UCI ------------------------------------------------------------------------------

    fn uci_start(&mut self) -> Outcome<()> {
        self.send("uci")?;
        let out = self.e.until(ANSWER, |l| l == "uciok")?;
        self.rule_options = out
            .iter()
            .filter(|l| l.contains("type check") && !l.contains("Ponder"))
            .filter_map(|l| {
                l.strip_prefix("option name ")
                    .and_then(|s| s.split(" type").next())
                    .map(str::to_string)
            })
            .collect();
        let v = self.variant.name.clone();
        let out = self.cmd(&format!("setoption name UCI_Variant value {v}"))?;
        if self.refused(&out) {
            return fail(format!("variant {v} refused: {out:?}"));
        }
        self.refresh()
    }

    fn uci_step(&mut self) -> Outcome<()> {
        match self.r.below(100) {
            0..=14 => {
                // A valid position: a FEN of this game and some legal moves.
                let mut moves = Vec::new();
                let fen = self.fen.clone();
                let cmd = if self.r.chance(50) {
                    self.position_command("position startpos", true)?;
                    "position startpos".to_string()
                } else {
                    format!("position fen {fen}")
                };
                self.position_command(&cmd, true)?;
                for _ in 0..self.r.below(4) {
                    if self.legal.is_empty() {
                        break;
                    }
                    let m = self.r.pick(&self.legal).clone();
                    moves.push(m);
                    let full = format!("{cmd} moves {}", moves.join(" "));
                    self.position_command(&full, true)?;
                }
            }
            15..=34 => {
                // A mutated position command.
                let fen = self.some_fen();
                let mut cmd = format!("position fen {fen}");
                if !self.legal.is_empty() && self.r.chance(40) {
                    let m = self.r.pick(&self.legal).clone();
                    cmd += &format!(" moves {m}");
                    if self.r.chance(50) {
                        let bad = self.illegal_move();
                        cmd += &format!(" {bad}");
                    }
                }
                let cmd = if self.r.chance(80) {
                    mutate(&mut self.r, &cmd)
                } else {
                    cmd
                };
                if self.position_command(&cmd, false)? {
                    self.stats.accepted_mutants += 1;
                    self.round_trip()?;
                }
            }
            35..=54 => self.uci_go()?,
            55..=69 => {
                let cmd = self.uci_option();
                let out = self.cmd(&cmd)?;
                if self.refused(&out) {
                    self.check_unchanged(&cmd)?;
                } else {
                    if cmd.contains("UCI_Variant") {
                        let v = cmd.rsplit(' ').next().unwrap_or("").to_string();
                        if let Some(found) = self.variants.iter().find(|x| x.name == v) {
                            self.variant = found.clone();
                        }
                    }
                    // A rule switch may change the moves: re-read.
                    self.refresh()?;
                }
            }
            70..=79 => {
                let cmd = match self.r.below(8) {
                    0 => "ucinewgame".to_string(),
                    1 => format!("go perft {}", wild_number(&mut self.r)),
                    2 => "eval".to_string(),
                    3 => "debug on".to_string(),
                    4 => "stop".to_string(),
                    5 => "ponderhit".to_string(),
                    6 => format!("position {}", junk_token(&mut self.r)),
                    _ => "register later".to_string(),
                };
                let out = if cmd.starts_with("go perft") {
                    // A perft runs in the background: stop it, wait for its end.
                    self.send(&cmd)?;
                    self.send("stop")?;
                    self.sync()?
                } else {
                    self.cmd(&cmd)?
                };
                if self.refused(&out) {
                    self.check_unchanged(&cmd)?;
                }
            }
            _ => {
                let cmd = junk_line(&mut self.r);
                let out = self.cmd(&cmd)?;
                if out.iter().any(|l| l.len() > 400) {
                    return fail(format!(
                        "an answer of {} chars",
                        out.iter().map(String::len).max().unwrap_or(0)
                    ));
                }
                if self.refused(&out) {
                    self.check_unchanged(&cmd)?;
                } else if cmd.split_whitespace().next().is_some() {
                    // Never a command: it must be refused.
                    return fail(format!("no answer to '{}'", clip(&cmd)));
                }
            }
        }
        Ok(())
    }

    fn uci_option(&mut self) -> String {
        let r = &mut self.r;
        let name = match r.below(10) {
            0 => "Hash".to_string(),
            1 => "Threads".to_string(),
            2 => "MultiPV".to_string(),
            3 => "Move Overhead".to_string(),
            4 => "Clear Hash".to_string(),
            5 => "UCI_Variant".to_string(),
            6 => "Ponder".to_string(),
            7 if !self.rule_options.is_empty() => r.pick(&self.rule_options).clone(),
            8 => junk_token(r),
            _ => String::new(),
        };
        let value = match name.as_str() {
            "Hash" if r.chance(60) => (1 + r.below(64)).to_string(),
            "Threads" if r.chance(60) => (1 + r.below(2)).to_string(),
            "MultiPV" if r.chance(60) => (1 + r.below(3)).to_string(),
            "UCI_Variant" if r.chance(70) => r.pick(self.variants).name.clone(),
            "Ponder" | "EvalMaterialOnly" => r.pick(&["true", "false", "1", "maybe"]).to_string(),
            _ if r.chance(30) => r.pick(&["true", "false"]).to_string(),
            _ => wild_number(r),
        };
        let cmd = match r.below(10) {
            0 => format!("setoption name {name}"),
            1 => format!("setoption {name} value {value}"),
            2 => format!("setoption name {name} value"),
            _ => format!("setoption name {name} value {value}"),
        };
        if r.chance(10) {
            mutate(r, &cmd)
        } else {
            cmd
        }
    }

    fn uci_go(&mut self) -> Outcome<()> {
        let r = &mut self.r;
        // Limits that end by themselves quickly, or none (then `stop` ends the search).
        let bounded = [
            "depth 1".to_string(),
            "depth 2".to_string(),
            format!("nodes {}", 1 + r.below(3000)),
            format!("movetime {}", 1 + r.below(40)),
            format!(
                "wtime {} btime {} winc 10 binc 10",
                20 + r.below(300),
                20 + r.below(300)
            ),
        ];
        let mut args = r.pick(&bounded).clone();
        let mut waits = true;
        for _ in 0..r.below(3) {
            let key = r.pick(&[
                "wtime",
                "btime",
                "winc",
                "binc",
                "movestogo",
                "movetime",
                "depth",
                "nodes",
                "mate",
                "infinite",
                "ponder",
                "searchmoves",
                "bogus",
            ]);
            match *key {
                "infinite" | "ponder" => {
                    waits = false;
                    args += &format!(" {key}");
                }
                "searchmoves" => {
                    let m = if !self.legal.is_empty() && r.chance(60) {
                        r.pick(&self.legal).clone()
                    } else {
                        junk_token(r)
                    };
                    args += &format!(" searchmoves {m}");
                }
                _ => {
                    // A wild value may make the search unbounded: stop it then.
                    waits = false;
                    args += &format!(" {key} {}", wild_number(r));
                }
            }
        }
        let cmd = format!("go {args}");
        self.send(&cmd)?;
        self.stats.searches += 1;
        if !waits || self.r.chance(30) {
            thread::sleep(Duration::from_millis(self.r.below(30) as u64));
            self.send("stop")?;
        }
        let out = self.e.until(ANSWER, |l| l.starts_with("bestmove"))?;
        let best = out
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_string();
        if best == "(none)" {
            self.stats.none_moves += 1;
        } else if !self.legal.contains(&best) {
            return fail(format!(
                "'{cmd}' gave bestmove {best}, not legal in {} (legal: {:?})",
                self.fen, self.legal
            ));
        }
        self.sync()?;
        Ok(())
    }

    // ---- XBoard -----------------------------------------------------------------------------

    fn xb_start(&mut self) -> Outcome<()> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let out = self.e.until(ANSWER, |l| l.contains("done=1"))?;
        self.rule_options = out
            .iter()
            .filter_map(|l| l.strip_prefix("feature option=\""))
            .filter_map(|s| s.split(" -check").next())
            .map(str::to_string)
            .collect();
        let v = self.variant.xboard.clone();
        self.send("new")?;
        self.send("force")?;
        let out = self.cmd(&format!("variant {v}"))?;
        if self.refused(&out) {
            return fail(format!("variant {v} refused: {out:?}"));
        }
        self.cmd("force")?;
        self.history = 0;
        self.refresh()
    }

    fn xb_step(&mut self) -> Outcome<()> {
        match self.r.below(100) {
            0..=14 => {
                if self.legal.is_empty() {
                    return Ok(());
                }
                let m = self.r.pick(&self.legal).clone();
                let cmd = if self.r.chance(80) {
                    format!("usermove {m}")
                } else {
                    m
                };
                if self.position_command(&cmd, true)? {
                    self.history += 1;
                }
            }
            15..=27 => {
                let m = self.illegal_move();
                let cmd = if self.r.chance(70) {
                    format!("usermove {m}")
                } else {
                    m
                };
                let out = self.cmd(&cmd)?;
                if out.is_empty() {
                    // A string no move of this position: refused, or an unknown command.
                    return fail(format!("'{cmd}' got no answer"));
                }
                self.check_unchanged(&cmd)?;
            }
            28..=41 => {
                let fen = self.some_fen();
                let cmd = format!("setboard {fen}");
                let cmd = if self.r.chance(80) {
                    mutate(&mut self.r, &cmd)
                } else {
                    cmd
                };
                if self.position_command(&cmd, false)? {
                    self.history = 0;
                    self.stats.accepted_mutants += 1;
                    self.round_trip()?;
                }
            }
            42..=47 => {
                let cmd = if self.r.chance(70) { "undo" } else { "remove" };
                let need = if cmd == "undo" { 1 } else { 2 };
                let changed = self.position_command(cmd, self.history >= need)?;
                if changed {
                    self.history = self.history.checked_sub(need).ok_or_else(|| {
                        Failure(format!("{cmd} accepted with {} moves played", self.history))
                    })?;
                } else if self.history >= need {
                    return fail(format!("{cmd} refused with {} moves played", self.history));
                }
            }
            48..=64 => self.xb_think()?,
            65..=69 => self.xb_analyze()?,
            70..=84 => {
                let cmd = self.xb_setting();
                let out = self.cmd(&cmd)?;
                if self.refused(&out) {
                    self.check_unchanged(&cmd)?;
                } else if cmd.starts_with("variant ") || cmd == "new" {
                    if let Some(v) = self
                        .variants
                        .iter()
                        .find(|v| cmd == format!("variant {}", v.xboard))
                    {
                        self.variant = v.clone();
                    }
                    if cmd == "new" {
                        self.variant = self
                            .variants
                            .iter()
                            .find(|v| v.xboard == "normal")
                            .cloned()
                            .unwrap_or(self.variant.clone());
                    }
                    self.cmd("force")?;
                    self.history = 0;
                    self.refresh()?;
                } else if cmd.starts_with("option") {
                    self.refresh()?;
                }
            }
            _ => {
                let mut cmd = junk_line(&mut self.r);
                let first = cmd.split_whitespace().next().unwrap_or("");
                if self.legal.iter().any(|m| first.trim_end_matches('=') == m) {
                    cmd = format!("z{cmd}");
                }
                let out = self.cmd(&cmd)?;
                if out.iter().any(|l| l.len() > 400) {
                    return fail(format!(
                        "an answer of {} chars",
                        out.iter().map(String::len).max().unwrap_or(0)
                    ));
                }
                if self.refused(&out) {
                    self.check_unchanged(&cmd)?;
                } else if cmd.split_whitespace().next().is_some() {
                    // Never a command, so refused; unless, by a rare chance, another spelling
                    // of a legal move (a Cannon shot in one leg, a Swedish entry as gating),
                    // which the engine plays.
                    if self.current_fen()? == self.fen {
                        return fail(format!("no answer to '{}'", clip(&cmd)));
                    }
                    self.history += 1;
                    self.refresh()?;
                }
            }
        }
        Ok(())
    }

    fn xb_setting(&mut self) -> String {
        let r = &mut self.r;
        let cmd = match r.below(14) {
            0 => format!(
                "memory {}",
                if r.chance(60) {
                    (1 + r.below(64)).to_string()
                } else {
                    wild_number(r)
                }
            ),
            1 => format!(
                "cores {}",
                if r.chance(60) {
                    (1 + r.below(2)).to_string()
                } else {
                    wild_number(r)
                }
            ),
            2 => format!(
                "level {} {} {}",
                wild_number(r),
                wild_number(r),
                wild_number(r)
            ),
            3 => format!("st {}", wild_number(r)),
            4 => format!("sd {}", wild_number(r)),
            5 => format!("time {}", wild_number(r)),
            6 => format!("otim {}", wild_number(r)),
            7 => format!("nps {}", wild_number(r)),
            8 if !self.rule_options.is_empty() => {
                let o = r.pick(&self.rule_options).clone();
                format!("option {o}={}", r.pick(&["0", "1", "2", "", "true"]))
            }
            9 => format!("option {}", junk_token(r)),
            10 => format!(
                "variant {}",
                if r.chance(70) {
                    r.pick(self.variants).xboard.clone()
                } else {
                    junk_token(r)
                }
            ),
            11 => r
                .pick(&[
                    "post", "nopost", "hard", "easy", "random", "computer", "draw", "hint", "bk",
                    ".",
                ])
                .to_string(),
            12 => format!("perft {}", r.pick(&["0", "1", "2", "-1", "21", "x", ""])),
            _ => "new".to_string(),
        };
        if cmd != "new" && r.chance(10) {
            mutate(r, &cmd)
        } else {
            cmd
        }
    }

    /// `go` with a short limit, and a few commands that must not cost the move meanwhile.
    fn xb_think(&mut self) -> Outcome<()> {
        let limit = match self.r.below(4) {
            0 => "sd 2".to_string(),
            1 => format!("st {}", ["0.02", "0.05", "0.1"][self.r.below(3)]),
            2 => format!(
                "level 0 {} 0\ntime {}",
                wild_number(&mut self.r),
                wild_number(&mut self.r)
            ),
            _ => "level 40 1 0\ntime 500\notim 500".to_string(),
        };
        for l in limit.lines() {
            self.send(l)?;
        }
        // The engine moves for the side to move; the GUI's `?` makes it move now.
        let before = self.fen.clone();
        let legal = self.legal.clone();
        self.send("go")?;
        self.stats.searches += 1;
        let (mut undos, mut user_moves) = (0, 0);
        for _ in 0..self.r.below(4) {
            let harmless = match self.r.below(7) {
                0 => {
                    user_moves += 1;
                    format!("usermove {}", self.illegal_move())
                }
                1 => format!("memory {}", 1 + self.r.below(32)),
                2 => "perft 1".to_string(),
                3 if self.history == 0 => {
                    undos += 1;
                    "undo".to_string()
                }
                4 if !self.rule_options.is_empty() => {
                    let o = self.r.pick(&self.rule_options).clone();
                    format!("option {o}={}", self.r.below(2))
                }
                5 => format!("time {}", wild_number(&mut self.r)),
                _ => format!("z{}", junk_token(&mut self.r)),
            };
            self.send(&harmless)?;
        }
        thread::sleep(Duration::from_millis(self.r.below(40) as u64));
        self.send("?")?;
        let is_claim =
            |l: &str| l.starts_with("1-0") || l.starts_with("0-1") || l.starts_with("1/2-1/2");
        let mut out = self
            .e
            .until(ANSWER, |l| l.starts_with("move ") || is_claim(l))?;
        let last = out.last().unwrap().clone();
        self.send("force")?;
        out.extend(self.sync()?);
        // A short search may be over before the commands sent "while it thinks" arrive; they
        // then act on the position after the engine's move, where the `undo` takes that move
        // back and the "illegal" move may be legal (and the engine, to move again, thinks
        // again). The answers tell which: a refused `undo` or move says so, an applied one
        // says nothing.
        let count = |p: &str| out.iter().filter(|l| l.starts_with(p)).count();
        let undone = undos - count("Error (no move to take back)").min(undos);
        let played = user_moves - count("Illegal move").min(user_moves);
        let engine_moves = count("move ");
        if undone > 0 || played > 0 || engine_moves > 1 {
            self.stats.late_commands += 1;
        }
        if let Some(mv) = last.strip_prefix("move ") {
            // The move as XBoard reads it: take it back and give it as the GUI would (where
            // nothing else changed the game meanwhile).
            if !legal.contains(&mv.to_string()) && undone == 0 && played == 0 && engine_moves == 1 {
                self.cmd("undo")?;
                let out = self.cmd(&format!("usermove {mv}"))?;
                if self.refused(&out) {
                    return fail(format!(
                        "engine move {mv} is not legal in {before}: {out:?}"
                    ));
                }
            }
        } else if !legal.is_empty() && is_claim(&last) {
            // A claim with legal moves left: a draw or win by rule; fine.
            self.stats.none_moves += 1;
        }
        self.history = (self.history + engine_moves + played)
            .checked_sub(undone)
            .ok_or_else(|| {
                Failure(format!(
                    "{undone} undo(s) applied with no move to take back"
                ))
            })?;
        // A rule option sent meanwhile may have been applied after the move.
        self.refresh()
    }

    fn xb_analyze(&mut self) -> Outcome<()> {
        self.cmd("post")?;
        self.send("analyze")?;
        for _ in 0..1 + self.r.below(4) {
            let cmd = match self.r.below(5) {
                0 => ".".to_string(),
                1 => format!("exclude {}", self.illegal_move()),
                2 if !self.legal.is_empty() => format!("exclude {}", self.r.pick(&self.legal)),
                3 => format!("usermove {}", self.illegal_move()),
                _ => "include all".to_string(),
            };
            self.send(&cmd)?;
            thread::sleep(Duration::from_millis(self.r.below(10) as u64));
        }
        self.send("exit")?;
        self.sync()?;
        self.cmd("nopost")?;
        self.check_unchanged("analyze")?;
        self.stats.refused -= 1;
        Ok(())
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() > 120 {
        format!("{}...", s.chars().take(120).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Runs one engine through `steps` random commands; then it must leave on `quit` or at the
/// end of its input.
fn run_session(
    seed: u64,
    xboard: bool,
    variant: Variant,
    variants: &[Variant],
    pool: &mut Vec<String>,
    stats: &mut Stats,
    steps: usize,
) -> Result<(), (String, Vec<String>)> {
    let mut s = Session {
        e: Engine::start(),
        r: Rng(seed | 1),
        stats,
        xboard,
        variant,
        variants,
        pool,
        fen: String::new(),
        legal: Vec::new(),
        rule_options: Vec::new(),
        history: 0,
    };
    let result = (|| -> Outcome<()> {
        if xboard {
            s.xb_start()?;
        } else {
            s.uci_start()?;
        }
        for _ in 0..steps {
            if xboard {
                s.xb_step()?;
            } else {
                s.uci_step()?;
            }
        }
        // Leave: `quit`, or the GUI closing the pipe (in the middle of a search, too).
        if s.r.chance(50) {
            s.send("quit")?;
        } else {
            if s.r.chance(50) {
                s.send(if xboard { "analyze" } else { "go infinite" })?;
            }
            s.e.close_input();
        }
        if !s.e.exits_within(Duration::from_secs(3)) {
            return fail("the engine did not leave after quit / the end of its input");
        }
        Ok(())
    })();
    result.map_err(|Failure(msg)| {
        // The whole session, to replay (`cannonade < FILE`) or to cut down by hand.
        let path = std::env::temp_dir().join(format!("protocol_fuzz_{seed:016x}.txt"));
        let mut msg = msg;
        match std::fs::write(&path, s.e.sent.join("\n") + "\n") {
            Ok(()) => {
                msg += &format!(
                    "\nthe session's {} lines: {}",
                    s.e.sent.len(),
                    path.display()
                )
            }
            Err(e) => {
                msg += &format!(
                    "\n(the session could not be written to {}: {e})",
                    path.display()
                )
            }
        }
        let sent =
            s.e.sent
                .iter()
                .rev()
                .take(30)
                .rev()
                .map(|c| clip(c))
                .collect();
        (msg, sent)
    })
}

#[test]
fn protocol_fuzz() {
    let seed = env_u64("FUZZ_SEED").unwrap_or(16);
    let max_lines = env_u64("FUZZ_LINES").unwrap_or(CI_LINES);
    let max_time = Duration::from_secs(env_u64("FUZZ_SECONDS").unwrap_or(CI_SECONDS));
    let variants = variants();
    assert_eq!(
        variants.len(),
        cannonade_core::engine::registry::VARIANTS.len(),
        "the variants read from 'cannonade variants'"
    );
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut stats = Stats::default();
    let mut pool = Vec::new();
    let start = Instant::now();
    let mut n = 0u64;
    // Every variant in both protocols at least once, whatever the bounds.
    let everything = 2 * variants.len() as u64;
    while n < everything || (stats.lines < max_lines && start.elapsed() < max_time) {
        let session_seed = r.next();
        // Both protocols and every variant in turn, then at random (FUZZ_PROTOCOL=uci or
        // xboard keeps to one).
        let xboard = match std::env::var("FUZZ_PROTOCOL").as_deref() {
            Ok("uci") => false,
            Ok("xboard") => true,
            _ => n % 2 == 1,
        };
        let variant = if (n as usize) < 2 * variants.len() {
            variants[(n as usize / 2) % variants.len()].clone()
        } else {
            r.pick(&variants).clone()
        };
        let steps = 10 + r.below(30);
        let before = stats.lines;
        if let Err((msg, sent)) = run_session(
            session_seed,
            xboard,
            variant.clone(),
            &variants,
            &mut pool,
            &mut stats,
            steps,
        ) {
            panic!(
                "protocol fuzz failure (FUZZ_SEED={seed}, session {n}, {} in {}):\n{msg}\nlast commands:\n{}",
                if xboard { "XBoard" } else { "UCI" },
                variant.name,
                sent.join("\n")
            );
        }
        *stats
            .by_protocol
            .entry(if xboard { "xboard" } else { "uci" })
            .or_default() += stats.lines - before;
        *stats.by_variant.entry(variant.name.clone()).or_default() += stats.lines - before;
        stats.sessions += 1;
        n += 1;
    }
    eprintln!(
        "protocol fuzz: seed {seed}: {} lines in {} sessions ({:?}; {:?}) in {:.1} s; {} \
         refused commands checked, {} mutated positions accepted (and read back), {} searches \
         ({} without a move; {} with commands that came after the move), no failure",
        stats.lines,
        stats.sessions,
        stats.by_protocol,
        stats.by_variant,
        start.elapsed().as_secs_f64(),
        stats.refused,
        stats.accepted_mutants,
        stats.searches,
        stats.none_moves,
        stats.late_commands
    );
}
