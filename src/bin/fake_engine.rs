//! A tiny engine for testing `cannonade match`: it speaks UCI or XBoard (whichever the first
//! command asks for), keeps the position with the cannonade library and plays a mating move if
//! it has one, else the first move of `--prefer` that is legal, else the first legal move. Flags
//! make it misbehave, from its `--after`-th move on:
//!
//! `--illegal` (plays a1a1), `--garbage` (plays "xyzzy"), `--nomove` (never answers),
//! `--crash` (exits), `--slow MS` (waits before answering), `--resign` (resigns, XBoard),
//! `--claim` (claims a draw before each move, XBoard), `--score CP` (reports this score; in UCI
//! as MultiPV line 1, followed by a line 2 with the opposite score, which a match must ignore),
//! `--prefer m1,m2,...`, `--name NAME`, `--after N`, `--novariants` (announces no variants),
//! `--variantpath` (announces its variants only after `setoption name VariantPath`, as
//! Fairy-Stockfish does for variants loaded from a file).

use cannonade_core::engine::registry::{self, VARIANTS};
use cannonade_core::engine::Session;
use cannonade_core::games::{Notation, Outcome};
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Default)]
struct Flags {
    illegal: bool,
    garbage: bool,
    nomove: bool,
    crash: bool,
    slow: u64,
    resign: bool,
    claim: bool,
    score: i32,
    prefer: Vec<String>,
    name: String,
    after: usize,
    novariants: bool,
    variantpath: bool,
}

fn parse_flags() -> Flags {
    let mut f = Flags {
        name: "fake".into(),
        ..Flags::default()
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--illegal" => f.illegal = true,
            "--garbage" => f.garbage = true,
            "--nomove" => f.nomove = true,
            "--crash" => f.crash = true,
            "--resign" => f.resign = true,
            "--claim" => f.claim = true,
            "--novariants" => f.novariants = true,
            "--variantpath" => f.variantpath = true,
            "--slow" => {
                f.slow = value.parse().unwrap_or(0);
                i += 1;
            }
            "--score" => {
                f.score = value.parse().unwrap_or(0);
                i += 1;
            }
            "--after" => {
                f.after = value.parse().unwrap_or(0);
                i += 1;
            }
            "--name" => {
                f.name = value;
                i += 1;
            }
            "--prefer" => {
                f.prefer = value.split(',').map(String::from).collect();
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    f
}

/// What the engine does when asked to move.
enum Action {
    Move(String),
    Resign,
    Silent,
}

struct Fake {
    flags: Flags,
    variant: String,
    session: Box<dyn Session>,
    notation: Notation,
    moves_made: usize,
    out: std::io::Stdout,
}

impl Fake {
    fn say(&mut self, line: &str) {
        let mut o = self.out.lock();
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    }

    fn reset(&mut self) {
        let info = registry::find(&self.variant).unwrap_or(&VARIANTS[0]);
        self.session = info.new_session();
    }

    fn choose(&mut self) -> Action {
        let misbehave = self.moves_made >= self.flags.after;
        self.moves_made += 1;
        if misbehave {
            if self.flags.crash {
                std::process::exit(3);
            }
            if self.flags.nomove {
                return Action::Silent;
            }
            if self.flags.slow > 0 {
                std::thread::sleep(Duration::from_millis(self.flags.slow));
            }
            if self.flags.resign {
                return Action::Resign;
            }
            if self.flags.illegal {
                return Action::Move("a1a1".into());
            }
            if self.flags.garbage {
                return Action::Move("xyzzy".into());
            }
        }
        let legal = self.session.legal_moves(self.notation);
        for m in &legal {
            let mut s = self.session_clone();
            if s.play(m, self.notation).is_ok() && matches!(s.outcome(), Some(Outcome::Loss(_))) {
                return Action::Move(m.clone());
            }
        }
        if let Some(p) = self.flags.prefer.iter().find(|p| legal.contains(p)) {
            return Action::Move(p.clone());
        }
        match legal.first() {
            Some(m) => Action::Move(m.clone()),
            None => Action::Resign,
        }
    }

    fn session_clone(&self) -> Box<dyn Session> {
        let info = registry::find(&self.variant).unwrap_or(&VARIANTS[0]);
        let mut s = info.new_session();
        s.set_position(Some(&self.session.fen()), &[], self.notation)
            .expect("own FEN");
        s
    }
}

fn main() {
    let flags = parse_flags();
    let mut fake = Fake {
        flags,
        variant: registry::DEFAULT_VARIANT.into(),
        session: VARIANTS[0].new_session(),
        notation: Notation::Uci,
        moves_made: 0,
        out: std::io::stdout(),
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let Some(Ok(first)) = lines.next() else {
        return;
    };
    match first.trim() {
        "uci" => uci(&mut fake, &mut lines),
        "xboard" => xboard(&mut fake, &mut lines),
        _ => {}
    }
}

type Lines<'a> = std::io::Lines<std::io::StdinLock<'a>>;

fn uci_identify(f: &mut Fake, variants_loaded: bool) {
    f.say(&format!("id name {}", f.flags.name));
    if f.flags.variantpath {
        f.say("option name VariantPath type string default <empty>");
    }
    if !f.flags.novariants && variants_loaded {
        let vars: Vec<String> = VARIANTS
            .iter()
            .map(|v| format!("var {}", v.game.name))
            .collect();
        f.say(&format!(
            "option name UCI_Variant type combo default {} {}",
            registry::DEFAULT_VARIANT,
            vars.join(" ")
        ));
    }
    f.say("uciok");
}

fn uci(f: &mut Fake, lines: &mut Lines) {
    let mut variants_loaded = !f.flags.variantpath;
    uci_identify(f, variants_loaded);
    for line in lines.map_while(Result::ok) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => uci_identify(f, variants_loaded),
            Some("isready") => f.say("readyok"),
            Some("setoption") if words.get(2) == Some(&"VariantPath") => variants_loaded = true,
            Some("setoption") if words.get(2) == Some(&"UCI_Variant") => {
                f.variant = words
                    .get(4)
                    .unwrap_or(&registry::DEFAULT_VARIANT)
                    .to_string();
                f.reset();
            }
            Some("ucinewgame") => f.reset(),
            Some("position") => {
                let moves_at = words.iter().position(|w| *w == "moves");
                let fen = if words.get(1) == Some(&"fen") {
                    Some(words[2..moves_at.unwrap_or(words.len())].join(" "))
                } else {
                    None
                };
                let moves: Vec<&str> = moves_at.map_or(Vec::new(), |i| words[i + 1..].to_vec());
                f.reset();
                if let Err(e) = f
                    .session
                    .set_position(fen.as_deref(), &moves, Notation::Uci)
                {
                    f.say(&format!("info string {e}"));
                }
            }
            Some("go") => match f.choose() {
                Action::Move(m) => {
                    f.say(&format!(
                        "info depth 1 multipv 1 score cp {} nodes 1 pv {m}",
                        f.flags.score
                    ));
                    f.say(&format!(
                        "info depth 1 multipv 2 score cp {} nodes 1 pv {m}",
                        -f.flags.score
                    ));
                    f.say(&format!("bestmove {m}"));
                }
                Action::Resign => f.say("bestmove (none)"),
                Action::Silent => {}
            },
            Some("quit") => return,
            _ => {}
        }
    }
}

fn xboard(f: &mut Fake, lines: &mut Lines) {
    f.notation = Notation::XBoard;
    let mut force = false;
    for line in lines.map_while(Result::ok) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut think = false;
        match words.first().copied() {
            Some("protover") => {
                let vars: Vec<&str> = VARIANTS.iter().map(|v| v.xboard_name).collect();
                let vars = if f.flags.novariants {
                    String::new()
                } else {
                    format!(" variants=\"{}\"", vars.join(","))
                };
                f.say(&format!(
                    "feature myname=\"{}\" usermove=1 setboard=1 ping=1 san=0{vars} done=1",
                    f.flags.name
                ));
            }
            Some("ping") => f.say(&format!("pong {}", words.get(1).unwrap_or(&"0"))),
            Some("new") => {
                f.variant = registry::DEFAULT_VARIANT.into();
                f.reset();
                force = false;
            }
            Some("variant") => {
                f.variant = words
                    .get(1)
                    .and_then(|w| registry::find(w))
                    .unwrap_or(registry::default_variant())
                    .game
                    .name
                    .to_string();
                f.reset();
            }
            Some("setboard") => {
                let fen = words[1..].join(" ");
                if let Err(e) = f.session.set_position(Some(&fen), &[], Notation::XBoard) {
                    f.say(&format!("tellusererror {e}"));
                }
            }
            Some("force") => force = true,
            Some("go") => {
                force = false;
                think = true;
            }
            Some("usermove") => {
                let m = words.get(1).unwrap_or(&"");
                if f.session.play(m, Notation::XBoard).is_err() {
                    f.say(&format!("Illegal move: {m}"));
                }
                think = !force;
            }
            Some("quit") => return,
            _ => {}
        }
        if think {
            if f.flags.claim {
                f.say("1/2-1/2 {I claim a draw}");
            }
            match f.choose() {
                Action::Move(m) => {
                    f.say(&format!("1 {} 0 1 {m}", f.flags.score));
                    let _ = f.session.play(&m, Notation::XBoard);
                    f.say(&format!("move {m}"));
                }
                Action::Resign => f.say("resign"),
                Action::Silent => {}
            }
        }
    }
}
