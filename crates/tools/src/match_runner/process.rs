//! One engine process and the two protocol drivers that talk to it (UCI and XBoard).
//!
//! A reader thread turns the engine's stdout into a channel of lines, so every wait has a
//! deadline: a silent engine is noticed by the clock, a crashed one by the channel closing.

use super::args::{EngineSpec, Proto, TimeControl};
use cannonade_core::engine::registry::VariantInfo;
use cannonade_core::games::Notation;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why an engine gave no usable answer.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process ended or closed its output.
    #[error("the process ended")]
    Disconnected,
    /// Nothing came before the deadline.
    #[error("no answer in time")]
    Timeout,
    /// The engine cannot do what was asked (e.g. does not know the variant).
    #[error("{0}")]
    Refused(String),
}

/// Why an engine could not be started.
#[derive(thiserror::Error, Debug)]
pub enum StartError {
    /// The program could not be run (`command` as given, its words joined).
    #[error("cannot start '{command}': {error}")]
    Spawn {
        command: String,
        error: std::io::Error,
    },
    /// The program ran but did not complete the protocol's handshake.
    #[error("{name} did not start: {failure}")]
    Handshake { name: String, failure: Failure },
}

/// An engine's evaluation, from its own point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Centipawns for adjudication; mates count as very large.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 100_000 - m,
            Score::Mate(m) => -100_000 - m,
        }
    }
}

/// What an engine answered when asked to move.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The move string as sent, or `None` if the engine resigned.
    pub mv: Option<String>,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub elapsed: Duration,
}

/// The clocks and limits for one move, as the referee sees them.
pub struct MoveRequest<'a> {
    /// `None` for the variant's start position.
    pub start_fen: Option<&'a str>,
    /// Every move of the game so far, in this engine's notation.
    pub moves: &'a [String],
    pub engine_is_white: bool,
    /// Remaining time of white and black (`None` without a clock).
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub inc: Duration,
    pub movestogo: Option<u32>,
    pub deadline: Duration,
}

enum Driver {
    Uci,
    XBoard {
        usermove: bool,
        ping: bool,
        /// Moves of the game already sent to the engine.
        sent: usize,
    },
}

/// A running engine process.
pub struct EngineProcess {
    pub name: String,
    spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    driver: Driver,
    debug: bool,
    /// Variants the engine says it plays (UCI_Variant's list or XBoard's `variants`).
    variants: Option<Vec<String>>,
    has_uci_variant: bool,
    ping_counter: u32,
}

const HANDSHAKE: Duration = Duration::from_secs(10);

impl EngineProcess {
    /// Starts the program and completes the protocol's handshake.
    pub fn start(spec: &EngineSpec, debug: bool) -> Result<EngineProcess, StartError> {
        let mut cmd = Command::new(&spec.cmd[0]);
        cmd.args(&spec.cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if debug {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|error| StartError::Spawn {
            command: spec.cmd.join(" "),
            error,
        })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = EngineProcess {
            name: spec.display_name(),
            spec: spec.clone(),
            child,
            stdin,
            lines,
            driver: match spec.proto {
                Proto::Uci => Driver::Uci,
                Proto::XBoard => Driver::XBoard {
                    usermove: false,
                    ping: false,
                    sent: 0,
                },
            },
            debug,
            variants: None,
            has_uci_variant: false,
            ping_counter: 0,
        };
        let handshake = match spec.proto {
            Proto::Uci => e.uci_handshake(),
            Proto::XBoard => e.xboard_handshake(),
        };
        if let Err(failure) = handshake {
            e.kill();
            return Err(StartError::Handshake {
                name: e.name.clone(),
                failure,
            });
        }
        Ok(e)
    }

    pub fn notation(&self) -> Notation {
        match self.driver {
            Driver::Uci => Notation::Uci,
            Driver::XBoard { .. } => Notation::XBoard,
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        if self.debug {
            eprintln!("{} < {line}", self.name);
        }
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| Failure::Disconnected)
    }

    /// The next line before `until`.
    fn recv(&mut self, until: Instant) -> Result<String, Failure> {
        let wait = until.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                if self.debug {
                    eprintln!("{} > {line}", self.name);
                }
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Failure::Disconnected),
        }
    }

    fn uci_handshake(&mut self) -> Result<(), Failure> {
        self.uci_identify()?;
        let options = self.spec.options.clone();
        for (n, v) in &options {
            self.send(&format!("setoption name {n} value {v}"))?;
        }
        if !options.is_empty() {
            // Options can change what the engine plays: Fairy-Stockfish lists the variants of
            // a `VariantPath` file only once it has read it. Asking again picks them up.
            self.uci_identify()?;
        }
        Ok(())
    }

    /// Sends `uci` and reads the engine's name and variant list up to `uciok`.
    fn uci_identify(&mut self) -> Result<(), Failure> {
        self.send("uci")?;
        let until = Instant::now() + HANDSHAKE;
        loop {
            let line = self.recv(until)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("uciok") => break,
                Some("id") if words.next() == Some("name") && self.spec.name.is_none() => {
                    let n: Vec<&str> = words.collect();
                    if !n.is_empty() {
                        self.name = n.join(" ");
                    }
                }
                Some("option") => {
                    let rest: Vec<&str> = words.collect();
                    if rest
                        .get(1)
                        .is_some_and(|n| n.eq_ignore_ascii_case("UCI_Variant"))
                    {
                        self.has_uci_variant = true;
                        let vars: Vec<String> = rest
                            .windows(2)
                            .filter(|w| w[0] == "var")
                            .map(|w| w[1].to_string())
                            .collect();
                        self.variants = Some(vars);
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn xboard_handshake(&mut self) -> Result<(), Failure> {
        self.send("xboard")?;
        self.send("protover 2")?;
        // Engines that speak protocol 1 never send features: two seconds of silence is the
        // protocol's own test. `done=0` asks for more time.
        let mut until = Instant::now() + Duration::from_secs(2);
        'lines: loop {
            let line = match self.recv(until) {
                Ok(l) => l,
                Err(Failure::Timeout) => break,
                Err(f) => return Err(f),
            };
            let Some(rest) = line.trim().strip_prefix("feature") else {
                continue;
            };
            for (k, v) in parse_features(rest) {
                let accept = match k.as_str() {
                    "done" => {
                        if v == "1" {
                            self.send("accepted done")?;
                            break 'lines;
                        }
                        until = Instant::now() + HANDSHAKE;
                        true
                    }
                    "usermove" => {
                        if let Driver::XBoard { usermove, .. } = &mut self.driver {
                            *usermove = v == "1";
                        }
                        true
                    }
                    "ping" => {
                        if let Driver::XBoard { ping, .. } = &mut self.driver {
                            *ping = v == "1";
                        }
                        true
                    }
                    "myname" => {
                        if self.spec.name.is_none() && !v.is_empty() {
                            self.name = v.clone();
                        }
                        true
                    }
                    "variants" => {
                        self.variants = Some(v.split(',').map(|s| s.trim().to_string()).collect());
                        true
                    }
                    // SAN input is not offered: coordinates are what every game here has.
                    "san" => v != "1",
                    _ => true,
                };
                let word = if accept { "accepted" } else { "rejected" };
                self.send(&format!("{word} {k}"))?;
            }
        }
        for (n, v) in self.spec.options.clone() {
            self.send(&format!("option {n}={v}"))?;
        }
        Ok(())
    }

    /// Checks the engine can play the variant (orthodox chess is assumed for every engine).
    pub fn supports(&self, variant: &VariantInfo) -> bool {
        if variant.standard {
            return true;
        }
        match (&self.variants, &self.driver) {
            (Some(list), Driver::Uci) => list.iter().any(|v| v == variant.game.name),
            (Some(list), Driver::XBoard { .. }) => list
                .iter()
                .any(|v| v == variant.xboard_name || v == variant.game.name),
            (None, _) => false,
        }
    }

    /// Makes sure the engine has read everything sent so far.
    fn sync(&mut self) -> Result<(), Failure> {
        let until = Instant::now() + HANDSHAKE;
        match self.driver {
            Driver::Uci => {
                self.send("isready")?;
                while self.recv(until)?.trim() != "readyok" {}
            }
            Driver::XBoard { ping: true, .. } => {
                self.ping_counter += 1;
                let want = format!("pong {}", self.ping_counter);
                self.send(&format!("ping {}", self.ping_counter))?;
                while self.recv(until)?.trim() != want {}
            }
            Driver::XBoard { ping: false, .. } => {}
        }
        Ok(())
    }

    /// Prepares a new game of `variant` from `start_fen` (the variant's start when `None`).
    pub fn new_game(
        &mut self,
        variant: &VariantInfo,
        start_fen: Option<&str>,
    ) -> Result<(), Failure> {
        if !self.supports(variant) {
            return Err(Failure::Refused(format!(
                "{} does not announce the variant {}",
                self.name, variant.game.name
            )));
        }
        match self.driver {
            Driver::Uci => {
                if self.has_uci_variant {
                    self.send(&format!(
                        "setoption name UCI_Variant value {}",
                        variant.game.name
                    ))?;
                }
                self.send("ucinewgame")?;
            }
            Driver::XBoard { .. } => {
                if let Driver::XBoard { sent, .. } = &mut self.driver {
                    *sent = 0;
                }
                self.send("new")?;
                if !variant.standard {
                    self.send(&format!("variant {}", variant.xboard_name))?;
                }
                self.send("force")?;
                if let Some(fen) = start_fen {
                    self.send(&format!("setboard {fen}"))?;
                }
                let spec = self.spec.clone();
                if let Some(tc) = spec.tc {
                    self.send(&xboard_level(&tc))?;
                }
                if let Some(st) = spec.st {
                    self.send(&format!("st {}", st.as_secs().max(1)))?;
                }
                if let Some(d) = spec.depth {
                    self.send(&format!("sd {d}"))?;
                }
                self.send("post")?;
                self.send("easy")?;
            }
        }
        self.sync()
    }

    /// Asks for a move in the position after `req.moves` and waits for it until the deadline.
    pub fn go(&mut self, req: &MoveRequest) -> Result<Reply, Failure> {
        match self.driver {
            Driver::Uci => self.uci_go(req),
            Driver::XBoard { .. } => self.xboard_go(req),
        }
    }

    fn uci_go(&mut self, req: &MoveRequest) -> Result<Reply, Failure> {
        let mut pos = match req.start_fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !req.moves.is_empty() {
            pos += " moves ";
            pos += &req.moves.join(" ");
        }
        self.send(&pos)?;
        let mut go = "go".to_string();
        if let (Some(w), Some(b)) = (req.wtime, req.btime) {
            let inc = req.inc.as_millis();
            go += &format!(
                " wtime {} btime {} winc {inc} binc {inc}",
                w.as_millis(),
                b.as_millis()
            );
            if let Some(m) = req.movestogo {
                go += &format!(" movestogo {m}");
            }
        }
        if let Some(st) = self.spec.st {
            go += &format!(" movetime {}", st.as_millis());
        }
        if let Some(d) = self.spec.depth {
            go += &format!(" depth {d}");
        }
        if let Some(n) = self.spec.nodes {
            go += &format!(" nodes {n}");
        }
        let start = Instant::now();
        self.send(&go)?;
        let until = start + req.deadline;
        let (mut score, mut depth) = (None, None);
        loop {
            let line = self.recv(until)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&"bestmove") => {
                    return Ok(Reply {
                        mv: Some(words.get(1).unwrap_or(&"").to_string()),
                        score,
                        depth,
                        elapsed: start.elapsed(),
                    })
                }
                // `info string` is free text that may contain any word.
                Some(&"info") if words.get(1) == Some(&"string") => {}
                Some(&"info") => {
                    // Bounds from a failed aspiration window are not the engine's opinion,
                    // and neither are MultiPV lines after the first (an engine may end with
                    // its last line, not its best).
                    let other_line = words.windows(2).any(|w| w[0] == "multipv" && w[1] != "1");
                    if words.contains(&"lowerbound") || words.contains(&"upperbound") || other_line
                    {
                        continue;
                    }
                    for w in words.windows(3) {
                        match (w[0], w[1]) {
                            ("score", "cp") => score = w[2].parse().ok().map(Score::Cp).or(score),
                            ("score", "mate") => {
                                score = w[2].parse().ok().map(Score::Mate).or(score)
                            }
                            _ => {}
                        }
                    }
                    if let Some(i) = words.iter().position(|w| *w == "depth") {
                        depth = words.get(i + 1).and_then(|d| d.parse().ok()).or(depth);
                    }
                }
                _ => {}
            }
        }
    }

    fn xboard_go(&mut self, req: &MoveRequest) -> Result<Reply, Failure> {
        let Driver::XBoard { usermove, sent, .. } = self.driver else {
            unreachable!("xboard driver")
        };
        // The engine sits in force mode between its moves: catch it up with the moves played
        // since, then let it think for the side to move.
        for mv in &req.moves[sent.min(req.moves.len())..] {
            let line = if usermove {
                format!("usermove {mv}")
            } else {
                mv.clone()
            };
            self.send(&line)?;
        }
        if let (Some(w), Some(b)) = (req.wtime, req.btime) {
            let (own, other) = if req.engine_is_white { (w, b) } else { (b, w) };
            self.send(&format!("time {}", own.as_millis() / 10))?;
            self.send(&format!("otim {}", other.as_millis() / 10))?;
        }
        let start = Instant::now();
        self.send("go")?;
        let until = start + req.deadline;
        let (mut score, mut depth) = (None, None);
        loop {
            let line = self.recv(until)?;
            let t = line.trim();
            let mv = if let Some(m) = t.strip_prefix("move ") {
                Some(m.trim().to_string())
            } else if t == "resign" || t.starts_with("tellics resign") {
                None
            } else {
                // Thinking output: "depth score time nodes pv...".
                let w: Vec<&str> = t.split_whitespace().collect();
                if w.len() >= 4 {
                    let d = w[0].trim_end_matches(|c: char| !c.is_ascii_digit());
                    if let (Ok(d), Ok(s)) = (d.parse::<u32>(), w[1].parse::<i32>()) {
                        depth = Some(d);
                        score = Some(xboard_score(s));
                    }
                }
                continue;
            };
            let elapsed = start.elapsed();
            if mv.is_some() {
                if let Driver::XBoard { sent, .. } = &mut self.driver {
                    *sent = req.moves.len() + 1;
                }
                self.send("force")?;
            }
            return Ok(Reply {
                mv,
                score,
                depth,
                elapsed,
            });
        }
    }

    /// Tells the engine the game is over (XBoard wants the result; UCI has no such command).
    pub fn game_over(&mut self, result: &str, reason: &str) {
        if let Driver::XBoard { .. } = self.driver {
            let _ = self.send(&format!("result {result} {{{reason}}}"));
        }
    }

    /// Asks the engine to quit, and kills it if it does not within a moment.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// An XBoard score: centipawns, with mates written as 100000 + N ("mate in N moves") or
/// -100000 - N, as the protocol asks.
fn xboard_score(s: i32) -> Score {
    if s.abs() >= 100_000 {
        Score::Mate(s.signum() * (s.abs() - 100_000).max(1))
    } else {
        Score::Cp(s)
    }
}

/// XBoard's `level MPS BASE INC`: BASE in minutes or `min:sec`, INC in seconds.
fn xboard_level(tc: &TimeControl) -> String {
    let mps = tc.moves.unwrap_or(0);
    let base = match tc.base {
        Some(b) => {
            let secs = b.as_secs();
            if secs % 60 == 0 && b.subsec_millis() == 0 {
                format!("{}", secs / 60)
            } else {
                format!("{}:{:02}", secs / 60, secs % 60)
            }
        }
        None => "0".to_string(),
    };
    format!("level {mps} {base} {}", super::args::fmt_secs(tc.increment))
}

/// The `key=value` pairs of an XBoard `feature` line; values may be "quoted strings".
fn parse_features(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        rest = &rest[eq + 1..];
        let value;
        if let Some(q) = rest.strip_prefix('"') {
            let end = q.find('"').unwrap_or(q.len());
            value = q[..end].to_string();
            rest = q.get(end + 1..).unwrap_or("");
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            value = rest[..end].to_string();
            rest = &rest[end..];
        }
        out.push((key, value));
        rest = rest.trim_start();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_lines() {
        let f = parse_features(
            r#" setboard=1 myname="Fairy-Max 5.0b" variants="normal,shatranj" done=0"#,
        );
        assert_eq!(
            f,
            vec![
                ("setboard".to_string(), "1".to_string()),
                ("myname".to_string(), "Fairy-Max 5.0b".to_string()),
                ("variants".to_string(), "normal,shatranj".to_string()),
                ("done".to_string(), "0".to_string()),
            ]
        );
    }

    #[test]
    fn xboard_mate_scores() {
        assert_eq!(xboard_score(31), Score::Cp(31));
        assert_eq!(xboard_score(100_003), Score::Mate(3));
        assert_eq!(xboard_score(-100_002), Score::Mate(-2));
    }

    #[test]
    fn level_commands() {
        let tc = TimeControl::parse("40/300+0").unwrap();
        assert_eq!(xboard_level(&tc), "level 40 5 0");
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(xboard_level(&tc), "level 0 0:10 0.1");
    }
}
