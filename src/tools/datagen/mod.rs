//! `cannonade datagen`: training data for a learned evaluation, made by self-play.
//!
//! Games start from varied openings (random plies, kept when a shallow search finds the position
//! level, as `cannonade openings` does) and are played to their end by the game's own rules, or
//! adjudicated, with a fixed node count (or depth) per move. Every position whose side to move
//! is not in check and whose best move is quiet is kept with its search score and the game's
//! result. The file format, the rules above in numbers, resuming and sharding are described in
//! `docs/datagen.md`.
//!
//! A game depends only on the seed and its game index: each game thread plays with its own
//! table (emptied before every game, with the search's histories, which it keeps) and one search
//! thread, and games are written in index order, so the same command gives the same bytes with
//! any number of threads, and an interrupted file is resumed by playing on from the first game
//! it does not hold complete.

mod format;

pub use format::{
    DataError, DataReader, GameResult, Header, Record, FLAG_GAME_END, MAGIC, MAX_FEN_BYTES,
    RECORD_FIXED_BYTES, SCORE_MATE, VERSION,
};

use crate::board::zobrist::SplitMix64;
use crate::board::Color;
use crate::engine::registry::{self, VariantInfo};
use crate::engine::state::{EngineState, EVAL_FILE, EVAL_MATERIAL_ONLY, MAX_THREADS, USE_NNUE};
use crate::engine::Session;
use crate::games::Notation;
use crate::search::{Limits, Score, SearchControl, SearchOptions, TranspositionTable};
use crate::tools::openings::{is_level, random_walk};
use indicatif::ProgressBar;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Nodes searched per move when neither `--nodes` nor `--depth` is given.
pub const DEFAULT_NODES: u64 = 5000;
/// Random plies played from the start position before a game, fewest and most (each game
/// draws one, so that either side may move first in its opening).
pub const OPENING_PLIES: (usize, usize) = (8, 9);
/// Depth of the search that decides whether an opening is level.
pub const OPENING_DEPTH: u32 = 4;
/// An opening is kept when that search scores within this many centipawns of zero.
pub const OPENING_MAX_CP: i32 = 200;
/// Openings tried per game before giving up with an error.
pub const OPENING_TRIES: usize = 1000;
/// Positions before this ply of the game (counted from the variant's start position, random
/// plies included) are not kept.
pub const MIN_PLY: usize = 16;
/// Win adjudication: the side whose score (mates included) is at least `WIN_CP` in
/// `WIN_PLIES` searched positions in a row, whichever side was to move in them, wins. 1000 cp
/// (about a queen in chess) for four moves of each side ends won games before their long
/// conversion; with 2000 (before November 24) and draws from ply 160, 59% of the chess
/// positions had fewer than 16 pieces, with these values 55%, and datagen ran about 10%
/// faster. Most endgame positions come from games that stay within ±1000 cp; to train on
/// fewer of them, `cannonade train --thin` drops them.
pub const WIN_CP: i32 = 1000;
pub const WIN_PLIES: usize = 8;
/// Draw adjudication: from ply `DRAW_FROM_PLY` on, `DRAW_PLIES` searched positions in a row
/// scored within `DRAW_CP` of zero are a draw.
pub const DRAW_CP: i32 = 10;
pub const DRAW_PLIES: usize = 20;
pub const DRAW_FROM_PLY: usize = 100;
/// A game still going at this ply is a draw.
pub const MAX_PLIES: usize = 400;
/// Plain progress lines (stderr not a terminal) come at most this often.
const PLAIN_LINE_EVERY: Duration = Duration::from_secs(10);
/// The largest `Hash` accepted, in MB (the same as UCI's).
const MAX_HASH_MB: u64 = 1 << 20;

/// How long each move is searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    Nodes(u64),
    Depth(u32),
}

/// One of `count` disjoint parts of a job: game `g` belongs to shard `index` (counted from 1)
/// when `g % count == index - 1`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole job.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// The first game index of this shard.
    pub fn first_game(self) -> u64 {
        self.index - 1
    }

    pub fn contains(self, game: u64) -> bool {
        game % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with `1 <= I <= N`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("shard '{s}' is not I/N with 1 <= I <= N (e.g. 3/8)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct DatagenSpec {
    pub variant: String,
    /// Positions the file should hold when done (whole games are written, so it may hold a
    /// few more).
    pub positions: u64,
    /// Games played at once, one search thread each.
    pub threads: usize,
    pub limit: SearchLimit,
    pub seed: u64,
    pub shard: Shard,
    /// Engine options, `NAME=VALUE` (`Hash`, `EvalMaterialOnly`, the variant's rule switches).
    pub options: Vec<String>,
    /// Show progress on stderr.
    pub progress: bool,
}

impl DatagenSpec {
    /// The defaults of the command line, for `positions` positions of `variant`.
    pub fn new(variant: &str, positions: u64) -> Self {
        DatagenSpec {
            variant: variant.to_string(),
            positions,
            threads: 1,
            limit: SearchLimit::Nodes(DEFAULT_NODES),
            seed: 1,
            shard: Shard::ALL,
            options: Vec::new(),
            progress: false,
        }
    }
}

/// How the games of a run ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Endings {
    /// By the game's own rules (mate, repetition, move-count rules, a town taken...).
    pub rules: u64,
    /// Adjudicated as won on score.
    pub win_adjudicated: u64,
    /// Adjudicated as drawn on score.
    pub draw_adjudicated: u64,
    /// Drawn at the ply cap.
    pub ply_cap: u64,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Positions in the file at the end.
    pub positions: u64,
    /// Positions in the file before this run (those of complete games kept on resuming).
    pub resumed_from: u64,
    /// Games written by this run (games without a kept position included).
    pub games: u64,
    pub endings: Endings,
    pub elapsed: Duration,
}

impl Summary {
    /// Positions written by this run.
    pub fn written(&self) -> u64 {
        self.positions - self.resumed_from
    }

    pub fn positions_per_second(&self) -> f64 {
        self.written() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The search score as stored: centipawns clamped below [`SCORE_MATE`], mates at
/// `±SCORE_MATE`.
pub fn stored_score(score: Score) -> i16 {
    match score {
        Score::Cp(cp) => cp.clamp(-i32::from(SCORE_MATE) + 1, i32::from(SCORE_MATE) - 1) as i16,
        Score::Mate(n) if n > 0 => SCORE_MATE,
        Score::Mate(_) => -SCORE_MATE,
    }
}

/// Whether a searched position at `ply` whose best move is `best` (UCI) is kept: not too early
/// in the game, the side to move not in check, and `best` quiet (not a capture, promotion or
/// other move the game counts as tactical).
fn is_kept(session: &dyn Session, ply: usize, best: &str) -> Result<bool, String> {
    Ok(ply >= MIN_PLY
        && !session.in_check()
        && !session
            .is_tactical(best, Notation::Uci)
            .map_err(|e| e.to_string())?)
}

/// The engine as datagen runs it: the start position with the rule switches, the search
/// options, the table size, and the canonical text of all of them for the header.
struct Engine {
    start: Box<dyn Session>,
    opts: SearchOptions,
    hash_mb: usize,
    text: String,
}

fn parse_bool(name: &str, v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("option {name}: '{v}' is not true or false")),
    }
}

/// Applies `NAME=VALUE` options through the engine state the protocols share, with the same
/// checks: `Hash` (MB), `EvalMaterialOnly`, `Use NNUE`, `EvalFile` and the variant's rule
/// switches. Options that have no meaning here (`Threads`: one search thread per game;
/// `MultiPV`, `Ponder`, ...) are refused, as is a rule switch of another variant.
fn engine(info: &'static VariantInfo, options: &[String]) -> Result<Engine, String> {
    let mut state = EngineState::new();
    state.select_variant(info)?;
    let mut rules: Vec<(&'static str, bool)> = info
        .game
        .rule_options
        .iter()
        .map(|o| (o.name, o.default))
        .collect();
    for opt in options {
        let (name, value) = opt
            .split_once('=')
            .ok_or_else(|| format!("option '{opt}' is not NAME=VALUE"))?;
        let (name, value) = (name.trim(), value.trim());
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mb: u64 = value
                    .parse()
                    .ok()
                    .filter(|mb| (1..=MAX_HASH_MB).contains(mb))
                    .ok_or_else(|| {
                        format!("option Hash: '{value}' is not a whole number in 1..{MAX_HASH_MB}")
                    })?;
                state
                    .resize_table(mb as usize)
                    .map_err(|e| format!("option Hash: {e}"))?;
            }
            l if l.eq_ignore_ascii_case(EVAL_MATERIAL_ONLY) => {
                state.set_material_only(parse_bool(EVAL_MATERIAL_ONLY, value)?);
            }
            l if l.eq_ignore_ascii_case(USE_NNUE) => {
                state.set_use_nnue(parse_bool(USE_NNUE, value)?);
            }
            l if l.eq_ignore_ascii_case(EVAL_FILE) => {
                let said = state.load_eval_file(value)?;
                // The engine keeps a net of another game for later; datagen plays one game.
                if !value.is_empty() && !state.uses_net_from(value) {
                    return Err(format!(
                        "{EVAL_FILE} {value} is not a net of {}: {said}",
                        state.variant().game.name
                    ));
                }
            }
            "threads" => {
                return Err(
                    "option Threads: datagen searches with one thread per game; \
                            use --threads for games at once"
                        .into(),
                )
            }
            "uci_variant" => return Err("option UCI_Variant: use --variant".into()),
            "multipv" | "ponder" | "move overhead" | "clear hash" => {
                return Err(format!("option {name} has no use in datagen"))
            }
            _ => {
                let rule = EngineState::find_rule_option(name)
                    .ok_or_else(|| format!("unknown option '{name}'"))?;
                if !state.plays_rule_option(rule.name) {
                    return Err(format!(
                        "option {}: not a rule of {}",
                        rule.name, info.game.name
                    ));
                }
                let on = parse_bool(rule.name, value)?;
                state.set_rule_option(rule.name, on)?;
                if let Some(r) = rules.iter_mut().find(|(n, _)| *n == rule.name) {
                    r.1 = on;
                }
            }
        }
    }
    let mut start = state.session().clone_session();
    start
        .set_position(None, &[], Notation::Uci)
        .map_err(|e| e.to_string())?;
    let opts = SearchOptions {
        threads: 1,
        multipv: 1,
        ..state.options().clone()
    };
    let rules_text = if rules.is_empty() {
        "none".to_string()
    } else {
        let list: Vec<String> = rules.iter().map(|(n, v)| format!("{n}={v}")).collect();
        list.join(",")
    };
    // Which evaluation scored the data: the net is named by its description (the embedded
    // one, or the file given with EvalFile).
    let eval = if opts.material_only {
        "material only".to_string()
    } else if opts.nnue.is_some() {
        state.net_description()
    } else {
        "hand-written".to_string()
    };
    let text = format!(
        "hash {} MB; eval {eval}; rules {rules_text}",
        state.hash_mb()
    );
    Ok(Engine {
        start,
        opts,
        hash_mb: state.hash_mb(),
        text,
    })
}

/// The header's settings text: everything the data depends on, so that a resumed run can
/// check it continues the same job.
fn settings_text(spec: &DatagenSpec, engine: &Engine) -> String {
    let limit = match spec.limit {
        SearchLimit::Nodes(n) => format!("nodes {n}"),
        SearchLimit::Depth(d) => format!("depth {d}"),
    };
    format!(
        "cannonade {} datagen; {limit} per move; seed {}; shard {}/{}; {}; openings {}-{} \
         random plies, depth {OPENING_DEPTH} within {OPENING_MAX_CP} cp; kept from ply \
         {MIN_PLY}, not in check, best move quiet; adjudication: win at {WIN_CP} cp for \
         {WIN_PLIES} plies, draw within {DRAW_CP} cp for {DRAW_PLIES} plies from ply \
         {DRAW_FROM_PLY}, draw at ply {MAX_PLIES}",
        env!("CARGO_PKG_VERSION"),
        spec.seed,
        spec.shard.index,
        spec.shard.count,
        engine.text,
        OPENING_PLIES.0,
        OPENING_PLIES.1,
    )
}

/// The seed of game `game`'s random choices: a function of the job's seed and the game index
/// only.
fn game_seed(seed: u64, game: u64) -> u64 {
    SplitMix64::new(seed ^ game.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// How one game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ending {
    Rules,
    WinAdjudicated,
    DrawAdjudicated,
    PlyCap,
}

/// One finished game: its records' bytes, ready to write.
struct GameOut {
    bytes: Vec<u8>,
    positions: u64,
    ending: Ending,
}

/// A game's opening position, and its ply.
type Opening = (Box<dyn Session>, usize);

/// A game thread's tools: its own copy of the start position, its own table.
struct Player<'a> {
    start: Box<dyn Session>,
    opts: &'a SearchOptions,
    limits: &'a Limits,
    tt: TranspositionTable,
    seed: u64,
    stop: &'a Arc<AtomicBool>,
}

impl Player<'_> {
    fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// A level opening for game `game`, and its ply; `None` when stopped.
    fn opening(&self, game: u64) -> Result<Option<Opening>, String> {
        let mut rng = SplitMix64::new(game_seed(self.seed, game));
        let span = (OPENING_PLIES.1 - OPENING_PLIES.0 + 1) as u64;
        for _ in 0..OPENING_TRIES {
            if self.stopped() {
                return Ok(None);
            }
            let plies = OPENING_PLIES.0 + (rng.next_u64() % span) as usize;
            let Some(session) =
                random_walk(self.start.as_ref(), plies, &mut rng).map_err(|e| e.to_string())?
            else {
                continue;
            };
            // `is_level` empties the table first: the game starts with a fresh one.
            if is_level(
                session.as_ref(),
                OPENING_DEPTH,
                OPENING_MAX_CP,
                self.opts,
                &self.tt,
            ) {
                return Ok(Some((session, plies)));
            }
        }
        Err(format!(
            "game {game}: no level opening in {OPENING_TRIES} tries of {}-{} random plies",
            OPENING_PLIES.0, OPENING_PLIES.1
        ))
    }

    /// Plays game `game`; `None` when stopped before its end.
    fn play(&self, game: u64) -> Result<Option<GameOut>, String> {
        let index = u32::try_from(game)
            .map_err(|_| format!("game index {game} is beyond the format's {}", u32::MAX))?;
        let Some((mut session, mut ply)) = self.opening(game)? else {
            return Ok(None);
        };
        let mut kept: Vec<(String, i16, Color)> = Vec::new();
        let (mut white_run, mut black_run, mut draw_run) = (0, 0, 0);
        let (winner, ending) = loop {
            if self.stopped() {
                return Ok(None);
            }
            if let Some(outcome) = session.outcome() {
                break (outcome.winner(session.side_to_move()), Ending::Rules);
            }
            if ply >= MAX_PLIES {
                break (None, Ending::PlyCap);
            }
            let ctl = SearchControl::with_cancel(Arc::clone(self.stop));
            let r = session.search(
                self.limits,
                self.opts,
                &self.tt,
                &ctl,
                Notation::Uci,
                &mut |_| {},
            );
            if self.stopped() {
                return Ok(None);
            }
            let best = r
                .best
                .ok_or_else(|| format!("the search found no move in {}", session.fen()))?;
            let score = stored_score(r.score);
            let side = session.side_to_move();
            if is_kept(session.as_ref(), ply, &best)? {
                kept.push((session.fen(), score, side));
            }
            let white = i32::from(if side == Color::White { score } else { -score });
            white_run = if white >= WIN_CP { white_run + 1 } else { 0 };
            black_run = if white <= -WIN_CP { black_run + 1 } else { 0 };
            draw_run = if ply >= DRAW_FROM_PLY && white.abs() <= DRAW_CP {
                draw_run + 1
            } else {
                0
            };
            if white_run >= WIN_PLIES {
                break (Some(Color::White), Ending::WinAdjudicated);
            }
            if black_run >= WIN_PLIES {
                break (Some(Color::Black), Ending::WinAdjudicated);
            }
            if draw_run >= DRAW_PLIES {
                break (None, Ending::DrawAdjudicated);
            }
            session
                .play(&best, Notation::Uci)
                .map_err(|e| format!("the search's move was refused: {e}"))?;
            ply += 1;
        };
        let mut bytes = Vec::with_capacity(kept.len() * 80);
        let last = kept.len().saturating_sub(1);
        for (i, (fen, score, side)) in kept.iter().enumerate() {
            let result = match winner {
                None => GameResult::Draw,
                Some(c) if c == *side => GameResult::Win,
                Some(_) => GameResult::Loss,
            };
            Record {
                fen: fen.clone(),
                score: *score,
                result,
                game: index,
                game_end: i == last,
            }
            .encode_into(&mut bytes)
            .map_err(|e| e.to_string())?;
        }
        Ok(Some(GameOut {
            bytes,
            positions: kept.len() as u64,
            ending,
        }))
    }
}

/// The file opened for appending, after the part to keep: its positions and the number (within
/// the shard) of the first game it lacks.
struct Resumed {
    file: File,
    positions: u64,
    next: u64,
}

/// Opens `path` for the job of `header`: a new or empty file gets the header; an existing one
/// must hold this job's data (one header, the same settings), and is cut back to its last
/// complete game.
fn open_output(path: &Path, header: &Header, shard: Shard) -> Result<Resumed, String> {
    let shown = path.display();
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot open {shown}: {e}"))?;
    let header_bytes = header.encode().map_err(|e| e.to_string())?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read {shown}: {e}"))?
        .len();
    let fresh = |mut file: File| -> Result<Resumed, String> {
        file.set_len(0)
            .and_then(|_| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(&header_bytes))
            .map_err(|e| format!("cannot write {shown}: {e}"))?;
        Ok(Resumed {
            file,
            positions: 0,
            next: 0,
        })
    };
    if len == 0 {
        return fresh(file);
    }
    let mut reader = match DataReader::new(BufReader::new(&file), Some(&header.variant)) {
        Ok(r) => r,
        Err(DataError::NoHeader) => {
            // Interrupted while writing its header: start again if it is ours.
            let mut head = Vec::new();
            (&file)
                .seek(SeekFrom::Start(0))
                .map_err(|e| format!("cannot read {shown}: {e}"))?;
            (&file)
                .take(header_bytes.len() as u64)
                .read_to_end(&mut head)
                .map_err(|e| format!("cannot read {shown}: {e}"))?;
            if header_bytes.starts_with(&head) {
                return fresh(file);
            }
            return Err(format!("{shown}: {}", DataError::NoHeader));
        }
        Err(e) => return Err(format!("{shown}: {e}; it is left as it is")),
    };
    if reader.header().settings != header.settings {
        return Err(format!(
            "{shown} holds data made with other settings, so it cannot be resumed; run the \
             command that made it, or write to another file\n  file: {}\n  now:  {}",
            reader.header().settings,
            header.settings
        ));
    }
    let mut keep = reader.position();
    let (mut positions, mut in_game) = (0u64, 0u64);
    let mut last_game: Option<u64> = None;
    let mut previous: Option<u64> = None;
    while let Some(record) = reader.next() {
        let record = record.map_err(|e| format!("{shown}: {e}; it is left as it is"))?;
        if reader.headers().len() > 1 {
            break;
        }
        let game = u64::from(record.game);
        if !shard.contains(game) || previous.is_some_and(|p| game < p) {
            return Err(format!(
                "{shown}: game {game} does not belong here (shard {}/{}, after game {}); it \
                 is left as it is",
                shard.index,
                shard.count,
                previous.map_or("none".to_string(), |p| p.to_string())
            ));
        }
        previous = Some(game);
        in_game += 1;
        if record.game_end {
            positions += in_game;
            in_game = 0;
            keep = reader.position();
            last_game = Some(game);
        }
    }
    if reader.headers().len() > 1 {
        return Err(format!(
            "{shown} holds several files joined together; only one run's own file can be \
             resumed"
        ));
    }
    drop(reader);
    file.set_len(keep)
        .and_then(|_| file.seek(SeekFrom::End(0)).map(|_| ()))
        .map_err(|e| format!("cannot cut {shown} back to its last complete game: {e}"))?;
    Ok(Resumed {
        file,
        positions,
        next: last_game.map_or(0, |g| (g - shard.first_game()) / shard.count + 1),
    })
}

/// Progress on stderr: an `indicatif` bar on a terminal, otherwise a plain line now and then.
struct Progress {
    bar: Option<ProgressBar>,
    enabled: bool,
    start: Instant,
    from: u64,
    target: u64,
    last_line: Instant,
}

fn duration_text(secs: f64) -> String {
    if !secs.is_finite() {
        return "?".into();
    }
    let s = secs.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

impl Progress {
    fn new(enabled: bool, from: u64, target: u64) -> Self {
        let bar = crate::tools::progress::terminal_bar(
            enabled,
            target,
            "[{bar:30.cyan/blue}] {pos}/{len} positions, {msg}, {elapsed_precise}",
        )
        .inspect(|bar| {
            bar.set_position(from);
            bar.set_message("starting");
        });
        let now = Instant::now();
        Progress {
            bar,
            enabled,
            start: now,
            from,
            target,
            last_line: now,
        }
    }

    /// Rate and estimated time left.
    fn rates(&self, have: u64) -> (f64, f64) {
        let rate = (have - self.from) as f64 / self.start.elapsed().as_secs_f64().max(1e-9);
        let left = self.target.saturating_sub(have) as f64 / rate;
        (rate, left)
    }

    fn update(&mut self, have: u64) {
        if !self.enabled {
            return;
        }
        let (rate, left) = self.rates(have);
        let text = format!("{rate:.0} positions/s, ETA {}", duration_text(left));
        match &self.bar {
            Some(bar) => {
                bar.set_position(have.min(self.target));
                bar.set_message(text);
            }
            None if self.last_line.elapsed() >= PLAIN_LINE_EVERY => {
                self.last_line = Instant::now();
                eprintln!("datagen: {have}/{} positions, {text}", self.target);
            }
            None => {}
        }
    }

    fn end(&self) {
        if let Some(bar) = &self.bar {
            bar.finish();
            eprintln!();
        }
    }
}

/// Game numbers handed out and written: a game thread takes the next number, but stays at
/// most `window` games ahead of the writer, so that games finished early wait in memory only
/// for a few slower ones.
struct Schedule {
    next_claim: u64,
    next_write: u64,
}

/// Generates the data of `spec` into `out`, resuming it if it holds part of the same job.
pub fn run(spec: &DatagenSpec, out: &Path) -> Result<Summary, String> {
    let info = registry::find(&spec.variant).ok_or_else(|| {
        format!(
            "unknown variant '{}' (see `cannonade variants`)",
            spec.variant
        )
    })?;
    if spec.positions == 0 {
        return Err("--positions must be at least 1".into());
    }
    if !(1..=MAX_THREADS).contains(&spec.threads) {
        return Err(format!("--threads must be within 1..{MAX_THREADS}"));
    }
    let limits = match spec.limit {
        SearchLimit::Nodes(0) => return Err("--nodes must be at least 1".into()),
        SearchLimit::Depth(0) => return Err("--depth must be at least 1".into()),
        SearchLimit::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        SearchLimit::Depth(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
    };
    let engine = engine(info, &spec.options)?;
    let header = Header {
        variant: info.game.name.to_string(),
        settings: settings_text(spec, &engine),
    };
    let shard = spec.shard;
    let Resumed {
        mut file,
        positions: resumed_from,
        next,
    } = open_output(out, &header, shard)?;
    let started = Instant::now();
    let mut summary = Summary {
        positions: resumed_from,
        resumed_from,
        games: 0,
        endings: Endings::default(),
        elapsed: Duration::ZERO,
    };
    if spec.progress {
        eprintln!(
            "datagen: {} into {}: {} positions wanted, {resumed_from} there, from game {}",
            info.game.name,
            out.display(),
            spec.positions,
            shard.first_game() + next * shard.count,
        );
    }
    if resumed_from >= spec.positions {
        return Ok(summary);
    }
    let mut progress = Progress::new(spec.progress, resumed_from, spec.positions);
    let stop = Arc::new(AtomicBool::new(false));
    let window = 4 * spec.threads as u64;
    let schedule = Mutex::new(Schedule {
        next_claim: next,
        next_write: next,
    });
    let turn = Condvar::new();
    let lock = || schedule.lock().unwrap_or_else(|e| e.into_inner());
    let result = std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, Result<Option<GameOut>, String>)>();
        for _ in 0..spec.threads {
            let tx = tx.clone();
            let start = engine.start.clone_session();
            let (stop, schedule_ref, turn) = (&stop, &lock, &turn);
            let (opts, limits, hash_mb, seed) = (&engine.opts, &limits, engine.hash_mb, spec.seed);
            scope.spawn(move || {
                let tt = match TranspositionTable::try_new(hash_mb) {
                    Ok(tt) => tt,
                    Err(e) => {
                        let _ = tx.send((u64::MAX, Err(e.to_string())));
                        return;
                    }
                };
                let player = Player {
                    start,
                    opts,
                    limits,
                    tt,
                    seed,
                    stop,
                };
                loop {
                    let k = {
                        let mut s = schedule_ref();
                        while !stop.load(Relaxed) && s.next_claim >= s.next_write + window {
                            s = turn.wait(s).unwrap_or_else(|e| e.into_inner());
                        }
                        if stop.load(Relaxed) {
                            return;
                        }
                        s.next_claim += 1;
                        s.next_claim - 1
                    };
                    let game = shard.first_game() + k * shard.count;
                    match player.play(game) {
                        Ok(None) => return,
                        r => {
                            let failed = r.is_err();
                            if tx.send((k, r)).is_err() || failed {
                                return;
                            }
                        }
                    }
                }
            });
        }
        drop(tx);
        let mut waiting: BTreeMap<u64, GameOut> = BTreeMap::new();
        let mut next_write = next;
        let outcome = 'write: loop {
            let Ok((k, game)) = rx.recv() else {
                break Err("the game threads ended early".to_string());
            };
            match game {
                Err(e) => break Err(e),
                Ok(Some(g)) => {
                    waiting.insert(k, g);
                }
                Ok(None) => {}
            }
            while let Some(g) = waiting.remove(&next_write) {
                // One write per game: an interrupt leaves at most the game being written cut
                // off, which the next run removes.
                if let Err(e) = file.write_all(&g.bytes) {
                    break 'write Err(format!("cannot write {}: {e}", out.display()));
                }
                summary.positions += g.positions;
                summary.games += 1;
                let e = &mut summary.endings;
                match g.ending {
                    Ending::Rules => e.rules += 1,
                    Ending::WinAdjudicated => e.win_adjudicated += 1,
                    Ending::DrawAdjudicated => e.draw_adjudicated += 1,
                    Ending::PlyCap => e.ply_cap += 1,
                }
                next_write += 1;
                lock().next_write = next_write;
                turn.notify_all();
                progress.update(summary.positions);
                if summary.positions >= spec.positions {
                    break 'write Ok(());
                }
            }
        };
        stop.store(true, Relaxed);
        turn.notify_all();
        outcome
    });
    progress.end();
    summary.elapsed = started.elapsed();
    result?;
    file.sync_all()
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_counted_from_one() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/8", "9/8", "3", "a/b", "1/0", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!(s.first_game(), 1);
        assert!(s.contains(4) && !s.contains(3) && !s.contains(5));
    }

    #[test]
    fn scores_are_clamped_and_mates_bounded() {
        assert_eq!(stored_score(Score::Cp(37)), 37);
        assert_eq!(stored_score(Score::Cp(-50_000)), -SCORE_MATE + 1);
        assert_eq!(stored_score(Score::Cp(50_000)), SCORE_MATE - 1);
        assert_eq!(stored_score(Score::Mate(3)), SCORE_MATE);
        assert_eq!(stored_score(Score::Mate(-1)), -SCORE_MATE);
    }

    #[test]
    fn options_go_through_the_engine_state_and_bad_ones_are_refused() {
        let cannon = registry::find("cannon").unwrap();
        let e = engine(cannon, &["Hash=2".into(), "evalmaterialonly=true".into()]).unwrap();
        assert_eq!(e.hash_mb, 2);
        assert!(e.opts.material_only);
        assert!(
            e.text.contains("hash 2 MB; eval material only"),
            "{}",
            e.text
        );
        let rule = cannon.game.rule_options[0];
        let set = format!("{}={}", rule.name.to_ascii_lowercase(), !rule.default);
        let e = engine(cannon, &[set]).unwrap();
        assert!(
            e.text.contains(&format!("{}={}", rule.name, !rule.default)),
            "{}",
            e.text
        );
        for (bad, says) in [
            ("Hash=0", "not a whole number"),
            ("Hash=lots", "not a whole number"),
            ("Threads=2", "--threads"),
            ("MultiPV=2", "no use"),
            ("NoSuchOption=1", "unknown option"),
            ("EvalMaterialOnly=maybe", "not true or false"),
            ("Use NNUE=perhaps", "not true or false"),
            ("EvalFile=/no/such/net.nnue", "EvalFile"),
            ("Hash", "not NAME=VALUE"),
        ] {
            let e = engine(cannon, &[bad.into()]).err().unwrap();
            assert!(e.contains(says), "{bad}: {e}");
        }
        // The evaluation that scores the data is named in the settings: the hand-written one
        // where the game has no net or Use NNUE is off.
        let bare = registry::find("cannonshogi").unwrap().without_net();
        let e = engine(bare, &[]).unwrap();
        assert!(e.opts.nnue.is_none());
        assert!(e.text.contains("eval hand-written;"), "{}", e.text);
        let e = engine(cannon, &["use nnue=false".into()]).unwrap();
        assert!(e.opts.nnue.is_none());
        assert!(e.text.contains("eval hand-written;"), "{}", e.text);
        // Chess has an embedded net, used by default and named; Use NNUE=false turns it off.
        let chess = registry::find("chess").unwrap();
        let e = engine(chess, &[]).unwrap();
        assert!(e.opts.nnue.is_some());
        assert!(e.text.contains("eval net embedded for chess"), "{}", e.text);
        let e = engine(chess, &["Use NNUE=false".into()]).unwrap();
        assert!(e.opts.nnue.is_none() && e.text.contains("eval hand-written;"));
        // A net of another game is refused (the engine would keep it for that game and go on
        // with this one's), naming the game it is for.
        let dir = std::env::temp_dir().join(format!("cannonade-dg-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let chess_net = dir.join("chess.nnue");
        std::fs::write(&chess_net, chess.net.unwrap()).unwrap();
        let swedish = registry::find("swedishcannon").unwrap();
        let e = engine(swedish, &[format!("EvalFile={}", chess_net.display())])
            .err()
            .unwrap();
        assert!(
            e.contains("is not a net of swedishcannon") && e.contains("for chess"),
            "{e}"
        );
        let e = engine(chess, &[format!("EvalFile={}", chess_net.display())]).unwrap();
        assert!(e.text.contains("chess.nnue for chess"), "{}", e.text);
        std::fs::remove_dir_all(&dir).unwrap();
        // A rule switch of another game is not one of this game's rules.
        let e = engine(chess, &[format!("{}=true", rule.name)])
            .err()
            .unwrap();
        assert!(e.contains("not a rule of chess"), "{e}");
    }

    #[test]
    fn kept_positions_are_late_enough_quiet_and_not_in_check() {
        let at = |variant: &str, fen: &str| {
            let mut s = registry::find(variant).unwrap().new_session();
            s.set_position(Some(fen), &[], Notation::Uci).unwrap();
            s
        };
        let open = at(
            "chess",
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        );
        assert!(is_kept(open.as_ref(), MIN_PLY, "g1f3").unwrap());
        assert!(!is_kept(open.as_ref(), MIN_PLY - 1, "g1f3").unwrap());
        assert!(!is_kept(open.as_ref(), MIN_PLY, "e4d5").unwrap());
        assert!(is_kept(open.as_ref(), MIN_PLY, "e4d3").is_err());
        let check = at("chess", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 40");
        assert!(!is_kept(check.as_ref(), MIN_PLY, "e1f1").unwrap());
        let promotion = at("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 40");
        assert!(!is_kept(promotion.as_ref(), MIN_PLY, "a7a8q").unwrap());
        // A shogi promotion that captures nothing is tactical too.
        let shogi = at("cannonshogi", "l3k3l/P7L/9/9/9/9/9/3U5/4K4[] w - - 0 30");
        assert!(!is_kept(shogi.as_ref(), MIN_PLY, "d2d7+").unwrap());
        assert!(is_kept(shogi.as_ref(), MIN_PLY, "d2d7").unwrap());
    }

    /// The search score and the move choice behind a kept position, side to move's view: an
    /// extra queen is good for its owner whichever side is to move.
    #[test]
    fn a_material_edge_scores_for_its_owner() {
        let chess = registry::find("chess").unwrap();
        let e = engine(chess, &[]).unwrap();
        let tt = TranspositionTable::new(1);
        let limits = Limits {
            nodes: Some(2000),
            ..Limits::default()
        };
        let score = |fen: &str| {
            let mut s = e.start.clone_session();
            s.set_position(Some(fen), &[], Notation::Uci).unwrap();
            tt.clear();
            let ctl = SearchControl::new(false);
            let r = s.search(&limits, &e.opts, &tt, &ctl, Notation::Uci, &mut |_| {});
            stored_score(r.score)
        };
        assert!(score("3qk3/pppppppp/8/8/8/8/PPPPPPPP/4K3 b - - 0 1") > 500);
        assert!(score("3qk3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1") < -500);
        assert!(score("4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1") > 500);
    }
}
