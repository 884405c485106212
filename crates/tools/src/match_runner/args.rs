//! The command line of `cannonade match`, in cutechess-cli's single-dash style:
//! `-engine cmd=... name=... proto=uci option.Hash=16 tc=10+0.1 -each ... -games 2 -repeat ...`.
//! clap cannot express `-engine key=value...` groups, so the words are read here.

use super::stats::{llr, sprt_bounds, Pentanomial, Trinomial};
use std::path::PathBuf;
use std::time::Duration;

/// A time control that does not read as `[moves/]seconds[+increment]` or `inf`.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
#[error("bad time control '{0}' (want [moves/]seconds[+increment] or inf)")]
pub struct TimeControlError(pub String);

/// Why the words of `cannonade match` were refused. `option` is the option's name without its
/// dash.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum ArgsError {
    /// A word before the first option.
    #[error("'{0}' does not follow an option")]
    Stray(String),
    #[error("unknown option -{0}")]
    UnknownOption(String),
    /// An option that wants something it was not given (`one value`, `a file name`...).
    #[error("-{option} wants {what}")]
    Wants { option: String, what: &'static str },
    #[error("-{option}: '{word}' is not key=value")]
    NotKeyValue { option: String, word: String },
    #[error("-{option}: unknown key '{key}'")]
    UnknownKey { option: String, key: String },
    #[error("-{option}: '{word}' is not a number")]
    NotANumber { option: String, word: String },
    #[error("-{option}: {key}='{value}' is not a number")]
    KeyNotANumber {
        option: String,
        key: String,
        value: String,
    },
    /// A value the option does not take, or values that do not fit together: why, in words.
    #[error("-{option}: {reason}")]
    Invalid {
        option: &'static str,
        reason: String,
    },
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    /// An engine setting (`key=value` of `-engine` or `-each`) whose value is not `what`.
    #[error("{key}: '{value}' is not {what}")]
    EngineSetting {
        key: String,
        value: String,
        what: &'static str,
    },
    #[error("unknown engine setting '{0}'")]
    UnknownEngineSetting(String),
    #[error("an -engine has no cmd=")]
    NoCommand,
    /// The engine (by its name) has no limit on its thinking.
    #[error("engine {0} has no limit: give tc=, st=, depth= or nodes=")]
    NoLimit(String),
    #[error("a match needs at least two -engine")]
    TooFewEngines,
    #[error("-sprt needs exactly two engines")]
    SprtEngines,
    #[error("-games and -rounds must be at least 1")]
    NoGames,
}

/// `ArgsError::Invalid` for `-option`.
fn invalid(option: &'static str, reason: impl Into<String>) -> ArgsError {
    ArgsError::Invalid {
        option,
        reason: reason.into(),
    }
}

/// Which protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    XBoard,
}

/// A clock: `[moves/]time[+increment]` in seconds (`min:sec` allowed), or `inf`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TimeControl {
    /// Moves per period (the clock gets `base` again after them); `None` for sudden death.
    pub moves: Option<u32>,
    /// Time per period; `None` for an infinite clock.
    pub base: Option<Duration>,
    pub increment: Duration,
}

impl TimeControl {
    pub fn parse(s: &str) -> Result<TimeControl, TimeControlError> {
        let bad = || TimeControlError(s.to_string());
        if s.eq_ignore_ascii_case("inf") || s.eq_ignore_ascii_case("infinite") {
            return Ok(TimeControl {
                moves: None,
                base: None,
                increment: Duration::ZERO,
            });
        }
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (Some(m.parse::<u32>().map_err(|_| bad())?), r),
            None => (None, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base = if base.eq_ignore_ascii_case("inf") {
            None
        } else {
            Some(parse_clock_seconds(base).ok_or_else(bad)?)
        };
        let increment = match inc {
            Some(i) => parse_seconds(i).ok_or_else(bad)?,
            None => Duration::ZERO,
        };
        if moves == Some(0) {
            return Err(bad());
        }
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }

    /// The PGN `TimeControl` tag value ("40/300", "60+0.5", "-" for none).
    pub fn pgn(&self) -> String {
        let Some(base) = self.base else {
            return "-".to_string();
        };
        let mut s = String::new();
        if let Some(m) = self.moves {
            s += &format!("{m}/");
        }
        s += &fmt_secs(base);
        if !self.increment.is_zero() {
            s += &format!("+{}", fmt_secs(self.increment));
        }
        s
    }
}

/// Seconds without trailing zeros: "10", "0.1", "2.5".
pub fn fmt_secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", d.as_secs_f64());
        s.trim_end_matches('0').to_string()
    }
}

fn parse_seconds(s: &str) -> Option<Duration> {
    let v: f64 = s.parse().ok()?;
    (v.is_finite() && v >= 0.0).then(|| Duration::from_secs_f64(v))
}

/// Seconds, or `minutes:seconds`.
fn parse_clock_seconds(s: &str) -> Option<Duration> {
    match s.split_once(':') {
        Some((m, sec)) => {
            let m: u64 = m.parse().ok()?;
            Some(Duration::from_secs(m * 60) + parse_seconds(sec)?)
        }
        None => parse_seconds(s),
    }
}

/// One engine of the match, after `-each` has been applied.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: Option<String>,
    /// Program and arguments (split at white space).
    pub cmd: Vec<String>,
    pub dir: Option<PathBuf>,
    pub proto: Proto,
    /// `option.NAME=VALUE`, in the order given.
    pub options: Vec<(String, String)>,
    pub tc: Option<TimeControl>,
    /// Fixed time per move (`st=`).
    pub st: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// How far past its clock an engine may go before it loses on time.
    pub timemargin: Option<Duration>,
}

impl EngineSpec {
    fn empty() -> Self {
        EngineSpec {
            name: None,
            cmd: Vec::new(),
            dir: None,
            proto: Proto::Uci,
            options: Vec::new(),
            tc: None,
            st: None,
            depth: None,
            nodes: None,
            timemargin: None,
        }
    }

    /// Applies one `key=value` word.
    fn set(&mut self, key: &str, value: &str) -> Result<(), ArgsError> {
        let num = |what: &'static str| ArgsError::EngineSetting {
            key: key.to_string(),
            value: value.to_string(),
            what,
        };
        match key {
            "cmd" => self.cmd = value.split_whitespace().map(String::from).collect(),
            "arg" => self.cmd.push(value.to_string()),
            "name" => self.name = Some(value.to_string()),
            "dir" => self.dir = Some(PathBuf::from(value)),
            "proto" => {
                self.proto = match value {
                    "uci" => Proto::Uci,
                    "xboard" => Proto::XBoard,
                    _ => return Err(num("uci or xboard")),
                }
            }
            "tc" => self.tc = Some(TimeControl::parse(value)?),
            "st" => self.st = Some(parse_seconds(value).ok_or_else(|| num("seconds"))?),
            "depth" => self.depth = Some(value.parse().map_err(|_| num("a depth"))?),
            "nodes" => self.nodes = Some(value.parse().map_err(|_| num("a node count"))?),
            "timemargin" => {
                let ms: u64 = value.parse().map_err(|_| num("milliseconds"))?;
                self.timemargin = Some(Duration::from_millis(ms));
            }
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    self.options.retain(|(n, _)| n != name);
                    self.options.push((name.to_string(), value.to_string()));
                }
                _ => return Err(ArgsError::UnknownEngineSetting(key.to_string())),
            },
        }
        Ok(())
    }

    /// The name shown in scores and PGN: `name=`, else the program's file name.
    pub fn display_name(&self) -> String {
        self.name.clone().unwrap_or_else(|| {
            self.cmd
                .first()
                .map(|c| {
                    std::path::Path::new(c)
                        .file_name()
                        .map_or(c.clone(), |f| f.to_string_lossy().into_owned())
                })
                .unwrap_or_default()
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum OpeningFormat {
    Epd,
    Pgn,
}

/// Where game starts come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Openings {
    /// Every game from the variant's start position.
    None,
    File {
        path: PathBuf,
        format: OpeningFormat,
        random_order: bool,
        /// At most this many plies of each PGN opening are played.
        plies: Option<usize>,
        /// First opening to use (1-based), as cutechess's `start=`.
        start: usize,
    },
    /// `plies` random legal moves from the start position (seeded).
    Random { plies: usize },
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// Results of earlier parts of the same test (`prior=`), counted with this match's: a test
    /// stopped by a session's end or a lost machine goes on where it was, and stops at the
    /// bounds of the whole test rather than of this part.
    pub prior: Option<SprtPrior>,
}

/// `-sprt prior=`: the counts an earlier part of the test printed, in the form this match
/// counts in (pairs with `-repeat`, games without).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtPrior {
    /// `prior=a,b,c,d,e`: the `Ptnml(0-2)` counts.
    Pairs(Pentanomial),
    /// `prior=w,l,d`: the first engine's wins, losses and draws.
    Games(Trinomial),
}

impl SprtPrior {
    /// The counts from the words of `prior=`: five numbers are pairs, three are games.
    fn parse(v: &str) -> Result<SprtPrior, ArgsError> {
        let bad = || {
            invalid(
                "sprt",
                format!("prior '{v}' is not five pair counts a,b,c,d,e or three game counts w,l,d"),
            )
        };
        let n: Vec<u64> = v
            .split(',')
            .map(|x| x.trim().parse::<u64>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        match n[..] {
            [a, b, c, d, e] => Ok(SprtPrior::Pairs(Pentanomial([a, b, c, d, e]))),
            [wins, losses, draws] => Ok(SprtPrior::Games(Trinomial {
                wins,
                losses,
                draws,
            })),
            _ => Err(bad()),
        }
    }
}

/// `-draw`: a draw once both engines' scores stayed within `score` for `movecount` moves
/// each, from move `movenumber` on.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DrawAdjudication {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// `-resign`: a loss for an engine whose score stayed at or below `-score` for `movecount`
/// of its moves (and, with `twosided`, its opponent agreed with a score at or above `score`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ResignAdjudication {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TournamentKind {
    RoundRobin,
    Gauntlet,
}

/// Everything `cannonade match` was asked to do.
#[derive(Clone, Debug)]
pub struct Settings {
    pub engines: Vec<EngineSpec>,
    pub variant: String,
    /// Games per encounter per round.
    pub games: u32,
    pub rounds: u32,
    /// Each opening is played twice, colours reversed.
    pub repeat: bool,
    pub concurrency: usize,
    pub openings: Openings,
    pub pgnout: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub draw: Option<DrawAdjudication>,
    pub resign: Option<ResignAdjudication>,
    /// A draw once this many full moves have been played (0: no limit).
    pub maxmoves: u32,
    pub tournament: TournamentKind,
    pub seed: u64,
    pub event: String,
    /// Echo every line to and from the engines on stderr.
    pub debug: bool,
    /// How long an engine with no clock may think before it counts as silent.
    pub stall: Duration,
    /// Print the bar and scores (off in tests that read only the result).
    pub quiet: bool,
    /// Rule switches of the game, `NAME=VALUE` (`-rule`): the referee plays by them and every
    /// engine is sent them as options (before its own `option.` words, which win).
    pub rules: Vec<String>,
}

/// The default tolerance past the clock: like cutechess, a small allowance for the pipe.
pub const DEFAULT_MARGIN: Duration = Duration::from_millis(0);

/// Splits the words of one option group: the option and the words up to the next `-option`.
fn groups(args: &[String]) -> Result<Vec<(String, Vec<String>)>, ArgsError> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for a in args {
        // A word is a new option if it starts with '-' and is not a negative number or a
        // `key=value` word (values may start with '-', e.g. `score=-300` never needs it, but
        // `option.Contempt=-20` does).
        let is_option =
            a.starts_with('-') && a.len() > 1 && !a.contains('=') && a.parse::<f64>().is_err();
        if is_option {
            out.push((a.trim_start_matches('-').to_string(), Vec::new()));
        } else {
            match out.last_mut() {
                Some((_, words)) => words.push(a.clone()),
                None => return Err(ArgsError::Stray(a.clone())),
            }
        }
    }
    Ok(out)
}

fn key_values(option: &str, words: &[String]) -> Result<Vec<(String, String)>, ArgsError> {
    words
        .iter()
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| ArgsError::NotKeyValue {
                    option: option.to_string(),
                    word: w.clone(),
                })
        })
        .collect()
}

fn one_value<'a>(option: &str, words: &'a [String]) -> Result<&'a str, ArgsError> {
    match words {
        [w] => Ok(w),
        _ => Err(ArgsError::Wants {
            option: option.to_string(),
            what: "one value",
        }),
    }
}

fn number<T: std::str::FromStr>(option: &str, words: &[String]) -> Result<T, ArgsError> {
    let w = one_value(option, words)?;
    w.parse().map_err(|_| ArgsError::NotANumber {
        option: option.to_string(),
        word: w.to_string(),
    })
}

fn parse_f64(option: &str, key: &str, v: &str) -> Result<f64, ArgsError> {
    v.parse().map_err(|_| ArgsError::KeyNotANumber {
        option: option.to_string(),
        key: key.to_string(),
        value: v.to_string(),
    })
}

fn unknown_key(option: &str, key: &str) -> ArgsError {
    ArgsError::UnknownKey {
        option: option.to_string(),
        key: key.to_string(),
    }
}

pub fn parse(args: &[String]) -> Result<Settings, ArgsError> {
    let mut engines: Vec<Vec<(String, String)>> = Vec::new();
    let mut each: Vec<(String, String)> = Vec::new();
    let mut s = Settings {
        engines: Vec::new(),
        variant: cannonade_core::engine::registry::DEFAULT_VARIANT.to_string(),
        games: 1,
        rounds: 1,
        repeat: false,
        concurrency: 1,
        openings: Openings::None,
        pgnout: None,
        sprt: None,
        draw: None,
        resign: None,
        maxmoves: 0,
        tournament: TournamentKind::RoundRobin,
        seed: 0,
        event: "Cannonade match".to_string(),
        debug: false,
        stall: Duration::from_secs(60),
        quiet: false,
        rules: Vec::new(),
    };
    for (option, words) in groups(args)? {
        let o = option.as_str();
        match o {
            "engine" => engines.push(key_values(o, &words)?),
            "each" => each.extend(key_values(o, &words)?),
            "tc" => each.push(("tc".into(), one_value(o, &words)?.to_string())),
            "st" | "depth" | "nodes" => each.push((o.into(), one_value(o, &words)?.to_string())),
            "tolerance" | "timemargin" => {
                each.push(("timemargin".into(), one_value(o, &words)?.to_string()))
            }
            "variant" => s.variant = one_value(o, &words)?.to_string(),
            "rule" => {
                for (name, value) in key_values(o, &words)? {
                    each.push((format!("option.{name}"), value.clone()));
                    s.rules.push(format!("{name}={value}"));
                }
            }
            "games" => s.games = number(o, &words)?,
            "rounds" => s.rounds = number(o, &words)?,
            "repeat" => {
                // cutechess takes an optional count; only pairs (2) are supported here.
                if let Some(w) = words.first() {
                    if w != "2" {
                        return Err(invalid("repeat", "only pairs of games (2) are supported"));
                    }
                }
                s.repeat = true;
            }
            "concurrency" => s.concurrency = number::<usize>(o, &words)?.max(1),
            "maxmoves" => s.maxmoves = number(o, &words)?,
            "seed" | "srand" => s.seed = number(o, &words)?,
            "event" => s.event = words.join(" "),
            "debug" => s.debug = true,
            "quiet" => s.quiet = true,
            "stall" => {
                let secs: f64 = number(o, &words)?;
                s.stall = parse_seconds(&secs.to_string())
                    .ok_or_else(|| invalid("stall", "bad seconds"))?;
            }
            "pgnout" => {
                let f = words.first().ok_or_else(|| ArgsError::Wants {
                    option: o.to_string(),
                    what: "a file name",
                })?;
                s.pgnout = Some(PathBuf::from(f));
            }
            "tournament" => {
                s.tournament = match one_value(o, &words)? {
                    "round-robin" => TournamentKind::RoundRobin,
                    "gauntlet" => TournamentKind::Gauntlet,
                    t => {
                        return Err(invalid(
                            "tournament",
                            format!("'{t}' is not round-robin or gauntlet"),
                        ))
                    }
                }
            }
            "openings" => s.openings = parse_openings(&words)?,
            "sprt" => {
                let mut sprt = Sprt {
                    elo0: 0.0,
                    elo1: 5.0,
                    alpha: 0.05,
                    beta: 0.05,
                    prior: None,
                };
                for (k, v) in key_values(o, &words)? {
                    if k == "prior" {
                        sprt.prior = Some(SprtPrior::parse(&v)?);
                        continue;
                    }
                    let x = parse_f64(o, &k, &v)?;
                    match k.as_str() {
                        "elo0" => sprt.elo0 = x,
                        "elo1" => sprt.elo1 = x,
                        "alpha" => sprt.alpha = x,
                        "beta" => sprt.beta = x,
                        _ => return Err(unknown_key(o, &k)),
                    }
                }
                let ok = |p: f64| p > 0.0 && p < 0.5;
                if sprt.elo1 <= sprt.elo0 || !ok(sprt.alpha) || !ok(sprt.beta) {
                    return Err(invalid(
                        "sprt",
                        "want elo0 < elo1 and 0 < alpha, beta < 0.5",
                    ));
                }
                s.sprt = Some(sprt);
            }
            "draw" => {
                let mut d = DrawAdjudication {
                    movenumber: 0,
                    movecount: 1,
                    score: 0,
                };
                for (k, v) in key_values(o, &words)? {
                    let x = parse_f64(o, &k, &v)?;
                    match k.as_str() {
                        "movenumber" => d.movenumber = x as u32,
                        "movecount" => d.movecount = x as u32,
                        "score" => d.score = x as i32,
                        _ => return Err(unknown_key(o, &k)),
                    }
                }
                s.draw = Some(d);
            }
            "resign" => {
                let mut r = ResignAdjudication {
                    movecount: 1,
                    score: 0,
                    twosided: false,
                };
                for (k, v) in key_values(o, &words)? {
                    match k.as_str() {
                        "movecount" => r.movecount = parse_f64(o, &k, &v)? as u32,
                        "score" => r.score = parse_f64(o, &k, &v)? as i32,
                        "twosided" => r.twosided = v == "true",
                        _ => return Err(unknown_key(o, &k)),
                    }
                }
                if r.score <= 0 || r.movecount == 0 {
                    return Err(invalid("resign", "want movecount >= 1 and score > 0"));
                }
                s.resign = Some(r);
            }
            _ => return Err(ArgsError::UnknownOption(option)),
        }
    }
    for own in engines {
        // `-each` first, then the engine's own words so that they win.
        let mut e = EngineSpec::empty();
        for (k, v) in each.iter().chain(own.iter()) {
            e.set(k, v)?;
        }
        if e.cmd.is_empty() {
            return Err(ArgsError::NoCommand);
        }
        if e.tc.is_none() && e.st.is_none() && e.depth.is_none() && e.nodes.is_none() {
            return Err(ArgsError::NoLimit(e.display_name()));
        }
        s.engines.push(e);
    }
    if s.engines.len() < 2 {
        return Err(ArgsError::TooFewEngines);
    }
    // Engines that end up with the same name (given, reported by the engine, or from the file
    // name) are told apart once their handshakes are done: see `tournament::unique_names`.
    if s.sprt.is_some() && s.engines.len() != 2 {
        return Err(ArgsError::SprtEngines);
    }
    if let Some(sprt) = s.sprt {
        check_prior(&sprt, s.repeat)?;
    }
    if s.games == 0 || s.rounds == 0 {
        return Err(ArgsError::NoGames);
    }
    Ok(s)
}

/// The earlier counts must be of the kind this match counts (pairs only with `-repeat`, since
/// the test counts pairs then), and must not have decided the test already.
fn check_prior(sprt: &Sprt, repeat: bool) -> Result<(), ArgsError> {
    let dist = match (sprt.prior, repeat) {
        (None, _) => return Ok(()),
        (Some(SprtPrior::Pairs(p)), true) => p.distribution(),
        (Some(SprtPrior::Games(t)), false) => t.distribution(),
        (Some(SprtPrior::Pairs(_)), false) => return Err(invalid(
            "sprt",
            "a prior of five pair counts needs -repeat (without it the test counts games: w,l,d)",
        )),
        (Some(SprtPrior::Games(_)), true) => {
            return Err(invalid(
                "sprt",
                "with -repeat the test counts pairs: give the prior as five Ptnml counts",
            ))
        }
    };
    if dist.iter().all(|(_, c)| *c == 0.0) {
        return Ok(());
    }
    let l = llr(&dist, sprt.elo0, sprt.elo1);
    let (lo, hi) = sprt_bounds(sprt.alpha, sprt.beta);
    if l <= lo || l >= hi {
        return Err(invalid(
            "sprt",
            format!(
                "the prior alone has decided the test (llr {l:.3}, bounds {lo:.2} and {hi:.2})"
            ),
        ));
    }
    Ok(())
}

fn parse_openings(words: &[String]) -> Result<Openings, ArgsError> {
    let mut path = None;
    let mut format = None;
    let mut random_order = false;
    let mut plies = None;
    let mut start = 1usize;
    let mut random_moves = false;
    for w in words {
        if w == "random" {
            random_moves = true;
            continue;
        }
        let (k, v) = w.split_once('=').ok_or_else(|| ArgsError::NotKeyValue {
            option: "openings".to_string(),
            word: w.clone(),
        })?;
        match k {
            "file" => path = Some(PathBuf::from(v)),
            "format" => {
                format = Some(match v {
                    "epd" => OpeningFormat::Epd,
                    "pgn" => OpeningFormat::Pgn,
                    _ => {
                        return Err(invalid(
                            "openings",
                            format!("format '{v}' is not epd or pgn"),
                        ))
                    }
                })
            }
            "order" => {
                random_order = match v {
                    "random" => true,
                    "sequential" => false,
                    _ => {
                        return Err(invalid(
                            "openings",
                            format!("order '{v}' is not random or sequential"),
                        ))
                    }
                }
            }
            "plies" => {
                plies = Some(
                    v.parse()
                        .map_err(|_| invalid("openings", format!("plies '{v}' is not a number")))?,
                )
            }
            "start" => {
                start = v
                    .parse::<usize>()
                    .map_err(|_| invalid("openings", format!("start '{v}' is not a number")))?
                    .max(1)
            }
            "policy" => {}
            _ => return Err(unknown_key("openings", k)),
        }
    }
    if random_moves {
        return Ok(Openings::Random {
            plies: plies.unwrap_or(8),
        });
    }
    let path = path.ok_or_else(|| ArgsError::Wants {
        option: "openings".to_string(),
        what: "file=F or random",
    })?;
    let format = format.unwrap_or_else(|| {
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        {
            OpeningFormat::Pgn
        } else {
            OpeningFormat::Epd
        }
    });
    Ok(Openings::File {
        path,
        format,
        random_order,
        plies,
        start,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("40/60+0.5").unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.base, Some(Duration::from_secs(60)));
        assert_eq!(tc.increment, Duration::from_millis(500));
        assert_eq!(tc.pgn(), "40/60+0.5");
        let tc = TimeControl::parse("1:30").unwrap();
        assert_eq!(tc.base, Some(Duration::from_secs(90)));
        assert_eq!(tc.pgn(), "90");
        assert_eq!(TimeControl::parse("inf").unwrap().base, None);
        assert!(TimeControl::parse("x+1").is_err());
        assert!(TimeControl::parse("0/10").is_err());
    }

    #[test]
    fn sprt_prior_is_the_earlier_parts_counts() {
        let two = "-engine cmd=a -engine cmd=b -each depth=1 -sprt elo0=0 elo1=5";
        let prior = |w: &str| parse(&words(&format!("{two} {w}"))).map(|s| s.sprt.unwrap().prior);
        assert_eq!(
            prior("prior=606,1,1490,1,654 -games 2 -repeat").unwrap(),
            Some(SprtPrior::Pairs(Pentanomial([606, 1, 1490, 1, 654])))
        );
        assert_eq!(
            prior("prior=12,10,3").unwrap(),
            Some(SprtPrior::Games(Trinomial {
                wins: 12,
                losses: 10,
                draws: 3
            }))
        );
        assert_eq!(prior("").unwrap(), None);
        let said = |w: &str| prior(w).unwrap_err().to_string();
        // Pairs and games are not interchangeable: the test counts one or the other.
        assert!(said("prior=1,2,3,4,5").contains("needs -repeat"));
        assert!(said("prior=1,2,3 -games 2 -repeat").contains("counts pairs"));
        for bad in ["1,2", "1,2,3,4", "a,b,c", "1,-2,3", "1,,3"] {
            assert!(
                said(&format!("prior={bad}")).contains("is not five pair counts"),
                "{bad}"
            );
        }
        // Counts that already crossed a bound leave nothing to test.
        assert!(said("prior=0,0,10,0,990 -games 2 -repeat").contains("has decided"));
        assert!(said("prior=0,400,0").contains("has decided"));
    }

    #[test]
    fn engines_each_and_options() {
        let s = parse(&words(
            "-engine cmd=a name=A option.Hash=32 -engine cmd=b proto=xboard tc=5+0.05 \
             -each tc=10+0.1 option.Hash=16 timemargin=50 -games 2 -repeat -rounds 3 \
             -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -variant chess -concurrency 2",
        ))
        .unwrap();
        assert_eq!(s.engines.len(), 2);
        let (a, b) = (&s.engines[0], &s.engines[1]);
        assert_eq!(a.display_name(), "A");
        assert_eq!(b.display_name(), "b");
        assert_eq!(a.options, vec![("Hash".to_string(), "32".to_string())]);
        assert_eq!(b.options, vec![("Hash".to_string(), "16".to_string())]);
        assert_eq!(a.tc.unwrap().base, Some(Duration::from_secs(10)));
        assert_eq!(b.tc.unwrap().base, Some(Duration::from_secs(5)));
        assert_eq!(b.proto, Proto::XBoard);
        assert_eq!(a.timemargin, Some(Duration::from_millis(50)));
        assert!(s.repeat);
        assert_eq!((s.games, s.rounds, s.concurrency), (2, 3, 2));
        assert_eq!(s.sprt.unwrap().elo1, 5.0);
    }

    /// The words of the refusals, as `cannonade match` prints them.
    #[test]
    fn refusals_say_what_is_wrong() {
        let said = |w: &str| parse(&words(w)).unwrap_err().to_string();
        let two = "-engine cmd=a -engine cmd=b -each depth=1";
        // `{two}` stands for two engines with a limit.
        for (w, message) in [
            ("stray -engine cmd=a", "'stray' does not follow an option"),
            ("{two} -bogus", "unknown option -bogus"),
            ("{two} -games", "-games wants one value"),
            ("{two} -games x", "-games: 'x' is not a number"),
            ("{two} -sprt elo0", "-sprt: 'elo0' is not key=value"),
            ("{two} -sprt elo2=1", "-sprt: unknown key 'elo2'"),
            ("{two} -draw score=x", "-draw: score='x' is not a number"),
            (
                "{two} -tournament swiss",
                "-tournament: 'swiss' is not round-robin or gauntlet",
            ),
            ("{two} -pgnout", "-pgnout wants a file name"),
            (
                "{two} -openings order=x",
                "-openings: order 'x' is not random or sequential",
            ),
            (
                "{two} -openings plies=4",
                "-openings wants file=F or random",
            ),
            (
                "-engine cmd=a -engine cmd=b proto=cecp -each depth=1",
                "proto: 'cecp' is not uci or xboard",
            ),
            (
                "-engine cmd=a -engine cmd=b -each tc=x",
                "bad time control 'x' (want [moves/]seconds[+increment] or inf)",
            ),
            (
                "-engine cmd=a -engine cmd=b",
                "engine a has no limit: give tc=, st=, depth= or nodes=",
            ),
            (
                "-engine cmd=a -each depth=1",
                "a match needs at least two -engine",
            ),
        ] {
            assert_eq!(said(&w.replace("{two}", two)), message, "{w}");
        }
        assert_eq!(
            parse(&words(&format!("{two} -games 0"))).unwrap_err(),
            ArgsError::NoGames
        );
    }

    #[test]
    fn refusals() {
        assert!(parse(&words("-engine cmd=a tc=1")).is_err());
        assert!(
            parse(&words("-engine cmd=a -engine cmd=b")).is_err(),
            "no limit"
        );
        assert!(parse(&words("-engine cmd=a -engine cmd=b -each tc=1 -bogus")).is_err());
        assert!(parse(&words("stray -engine cmd=a")).is_err());
        assert!(parse(&words(
            "-engine cmd=a -engine cmd=b -engine cmd=c -each tc=1 -sprt elo0=0 elo1=5"
        ))
        .is_err());
    }

    #[test]
    fn openings_and_same_names() {
        let s = parse(&words(
            "-engine cmd=x -engine cmd=x -each depth=1 -openings random plies=6 -seed 7",
        ))
        .unwrap();
        assert_eq!(s.openings, Openings::Random { plies: 6 });
        // Same names are resolved after the handshake, from the names the engines report.
        assert_eq!(s.engines[1].display_name(), "x");
        let s = parse(&words(
            "-engine cmd=x -engine cmd=y -each depth=1 -openings file=o.pgn order=random plies=4",
        ))
        .unwrap();
        assert!(matches!(
            s.openings,
            Openings::File {
                format: OpeningFormat::Pgn,
                random_order: true,
                plies: Some(4),
                ..
            }
        ));
    }
}
