//! `cannonade epd`: running test suites of positions (see docs/epd.md). Each line of an EPD
//! file is a position of the game with what the search should do there (`bm`, `am`, `dm`);
//! every position is searched at a fixed depth, node count or time, and the misses and the
//! solved counts are printed, so a tactical regression shows without playing games.
//!
//! - [`parse`]: taking a line apart (no game in it).
//! - [`problem`]: reading a line's position and moves with the game's own code.
//! - [`judge`]: the search of a position and whether it solves the problem.
//! - [`run`] (here): the files, the misses and the counts.

pub mod judge;
pub mod parse;
pub mod problem;

use crate::progress::{Progress, POSITIONS};
use crate::search_args::SearchArgs;
use cannonade_core::engine::options::OptionError;
use cannonade_core::engine::{registry, EngineState};
use cannonade_core::games::Notation;
use problem::{read_problem, Problem};
use std::path::PathBuf;
use std::time::Duration;

/// Depth searched per position when no limit is given.
pub const DEFAULT_DEPTH: u32 = 8;

/// The options of `cannonade epd`.
#[derive(clap::Args, Clone, Debug)]
#[command(mut_arg("depth", |a| a.help("Depth searched per position [default: 8]")))]
pub struct EpdArgs {
    /// The suites to run (EPD: the game's FEN, then `bm`, `am`, `dm`, `id` operations).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The game of the positions (see `cannonade variants`).
    #[arg(long, default_value = registry::DEFAULT_VARIANT)]
    pub variant: String,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Exit with status 1 when fewer positions than this are solved (all files together);
    /// by default misses never change the exit status.
    #[arg(long, value_name = "N")]
    pub min_solved: Option<usize>,
}

/// Why the suites could not run, or (with `--min-solved`) did not pass.
#[derive(thiserror::Error, Debug)]
pub enum EpdError {
    #[error(transparent)]
    File(#[from] crate::FileError),
    #[error(transparent)]
    UnknownVariant(#[from] crate::UnknownVariant),
    #[error("{0}")]
    Option(#[from] OptionError),
    #[error("solved {solved} positions, fewer than --min-solved {wanted}")]
    TooFewSolved { solved: usize, wanted: usize },
}

/// The counts of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub solved: usize,
    pub positions: usize,
    /// Lines that are no problem of the game (reported and skipped).
    pub skipped: usize,
}

/// A file's problems, with a message for each line skipped.
fn read_file(state: &EngineState, name: &str, text: &str) -> (Vec<Problem>, Vec<String>) {
    let mut problems = Vec::new();
    let mut skipped = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        match read_problem(state.session(), t, i + 1) {
            Ok(p) => problems.push(p),
            Err(e) => skipped.push(format!("{name}:{}: skipped: {e}", i + 1)),
        }
    }
    (problems, skipped)
}

/// How a miss is printed: where, what was asked, what the search found.
fn miss_line(name: &str, p: &Problem, f: &judge::Found) -> String {
    let id = p.id.as_deref().map(|i| format!(" {i}")).unwrap_or_default();
    let chose = match (&f.pgn, &f.uci) {
        (Some(pgn), Some(uci)) if pgn != uci => format!("{pgn} ({uci})"),
        (_, Some(uci)) => uci.clone(),
        _ => "no move".to_string(),
    };
    format!(
        "{name}:{}{id}: missed: expected {}, found {chose}, score {}, depth {}",
        p.line,
        judge::expected(p),
        f.score,
        f.depth
    )
}

/// Runs `cannonade epd`: every file's problems, the misses as they happen, then the counts.
pub fn run(args: &EpdArgs) -> Result<Vec<Tally>, EpdError> {
    let variant = crate::variant(&args.variant)?;
    let mut state = EngineState::for_tool(variant, &args.search.engine_settings())?;
    // Every file is read before any search, so a missing one stops the run at once.
    let mut files = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let text = crate::FileError::read(path)?;
        let (problems, skipped) = read_file(&state, &name, &text);
        for s in &skipped {
            eprintln!("{s}");
        }
        files.push((name, problems, skipped.len()));
    }
    let (limits, limit_text) = args.search.limits(DEFAULT_DEPTH);
    // No GUI waits for these moves: the time kept back for communication would only shorten
    // every `--movetime` search.
    let opts = cannonade_core::search::SearchOptions {
        move_overhead: Duration::ZERO,
        ..state.options().clone()
    };
    let total: usize = files.iter().map(|(_, p, _)| p.len()).sum();
    let progress = Progress::new(false, total as u64, POSITIONS);
    let mut tallies = Vec::new();
    for (name, problems, skipped) in &files {
        if let Some(bar) = progress.bar() {
            bar.set_message(name.clone());
        }
        let mut tally = Tally {
            positions: problems.len(),
            skipped: *skipped,
            ..Tally::default()
        };
        for p in problems {
            // A fresh table for each position, so a result does not depend on the ones before.
            state.clear_table();
            let tt = state.table();
            let mut session = state.session().clone_session();
            session
                .set_position(Some(&p.fen), &[], Notation::Uci)
                .expect("the problem's position was read by this game");
            let found = judge::search(session.as_ref(), p, &limits, &opts, &tt);
            if judge::solved(p, &found) {
                tally.solved += 1;
            } else {
                progress.say(&miss_line(name, p, &found));
            }
            if let Some(bar) = progress.bar() {
                bar.inc(1);
            }
        }
        let skipped = match tally.skipped {
            0 => String::new(),
            1 => " (1 line skipped)".to_string(),
            n => format!(" ({n} lines skipped)"),
        };
        progress.say(&format!(
            "{name}: solved {} of {} at {limit_text}{skipped}",
            tally.solved, tally.positions
        ));
        tallies.push(tally);
    }
    progress.clear();
    let solved: usize = tallies.iter().map(|t| t.solved).sum();
    if tallies.len() > 1 {
        println!("total: solved {solved} of {total} at {limit_text}");
    }
    match args.min_solved {
        Some(wanted) if solved < wanted => Err(EpdError::TooFewSolved { solved, wanted }),
        _ => Ok(tallies),
    }
}
