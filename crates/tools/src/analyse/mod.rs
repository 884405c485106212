//! `cannonade analyse`: annotating finished games (see docs/analyse.md). Every position of
//! each game is searched; each move is judged by the expected score (win + draw/2, from
//! `engine::wdl`) it gave away, marked as lichess marks moves, and the game is written back as
//! PGN with scores, win chances and better lines, with a graph of the game as SVG.
//!
//! The judging and the annotated PGN are the core's (`cannonade_core::review`), so the page
//! reviews a game as this tool does; the reading is the core's PGN reader.
//!
//! - [`game`]: searching the positions of one game.
//! - [`graph`]: the SVG picture.
//! - [`run`] (here): reading the file, skipping bad games, writing each game as it finishes.

pub mod game;
pub mod graph;

use crate::progress::{Progress, POSITIONS};
use crate::search_args::SearchArgs;
use crate::FileError;
use cannonade_core::engine::options::OptionError;
use cannonade_core::engine::registry::{self, VariantInfo};
use cannonade_core::engine::EngineState;
use cannonade_core::games::GameError;
use cannonade_core::pgn::{read_games, PgnGame};
use cannonade_core::review::{self, annotate};
use std::collections::HashMap;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Depth searched per position when no limit is given.
pub const DEFAULT_DEPTH: u32 = 10;

/// The options of `cannonade analyse`.
#[derive(clap::Args, Clone, Debug)]
#[command(mut_arg("depth", |a| a.help("Depth searched per position [default: 10]")))]
pub struct AnalyseArgs {
    /// The games to analyse (PGN, as `cannonade match`, XBoard or pychess-variants write it).
    #[arg(long, value_name = "FILE")]
    pub pgn: PathBuf,
    /// Where to write the annotated games (PGN; replaced).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The variant of games without a `Variant` tag [default: chess].
    #[arg(long)]
    pub variant: Option<String>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Folder for the graphs (one SVG per game) [default: beside --out].
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
}

/// Why the analysis could not run at all.
#[derive(thiserror::Error, Debug)]
pub enum AnalyseError {
    #[error(transparent)]
    File(#[from] crate::FileError),
    #[error(transparent)]
    UnknownVariant(#[from] crate::UnknownVariant),
    #[error("{0}")]
    Option(#[from] OptionError),
    #[error("--pgn and --out name the same file; the games would be overwritten")]
    SameFile,
    #[error("{0} holds no games")]
    NoGames(String),
    #[error("none of the {0} games could be analysed")]
    NothingAnalysed(usize),
    #[error(transparent)]
    Graph(#[from] graph::GraphError),
}

/// Why one game was skipped (the others are still analysed).
#[derive(thiserror::Error, Debug)]
pub enum GameSkip {
    #[error("unknown variant '{0}'")]
    UnknownVariant(String),
    #[error("{0}")]
    Engine(OptionError),
    #[error("{0}")]
    Game(#[from] GameError),
}

/// A game read and checked, ready to search.
struct Ready<'a> {
    raw: &'a PgnGame,
    variant: &'static VariantInfo,
    moves: Vec<String>,
}

/// The engines, one per game played in the file, made when first needed.
struct Engines {
    settings: Vec<String>,
    by_variant: HashMap<&'static str, EngineState>,
}

impl Engines {
    fn get(&mut self, v: &'static VariantInfo) -> Result<&mut EngineState, OptionError> {
        if !self.by_variant.contains_key(v.game.name) {
            let state = EngineState::for_tool(v, &self.settings)?;
            self.by_variant.insert(v.game.name, state);
        }
        Ok(self.by_variant.get_mut(v.game.name).expect("just made"))
    }
}

/// The game's variant (its `Variant` tag, else `default`), its engine, and its moves.
fn prepare<'a>(
    raw: &'a PgnGame,
    default: &'static VariantInfo,
    engines: &mut Engines,
) -> Result<Ready<'a>, GameSkip> {
    let variant = match raw.tag("Variant") {
        Some(name) => {
            registry::find(name).ok_or_else(|| GameSkip::UnknownVariant(name.to_string()))?
        }
        None => default,
    };
    let state = engines.get(variant).map_err(GameSkip::Engine)?;
    let moves = raw.moves(state.session(), None)?;
    Ok(Ready {
        raw,
        variant,
        moves,
    })
}

/// Where game `number`'s graph goes: `OUT-stem-gameN.svg` beside `out`, or in `dir`.
pub fn svg_path(out: &Path, dir: Option<&Path>, number: usize) -> PathBuf {
    let stem = out
        .file_stem()
        .map_or_else(|| "analysis".into(), |s| s.to_string_lossy().into_owned());
    let name = format!("{stem}-game{number}.svg");
    match dir {
        Some(d) => d.join(name),
        None => out.with_file_name(name),
    }
}

/// Runs `cannonade analyse`.
pub fn run(args: &AnalyseArgs) -> Result<(), AnalyseError> {
    let input = args.pgn.display().to_string();
    let out_name = args.out.display().to_string();
    let text = FileError::read(&args.pgn)?;
    let same = |a: &Path, b: &Path| {
        a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
    };
    if same(&args.pgn, &args.out) {
        return Err(AnalyseError::SameFile);
    }
    let default = match &args.variant {
        Some(name) => crate::variant(name)?,
        // A PGN without a Variant tag is the standard game's.
        None => registry::default_variant(),
    };
    let (limits, limit_text) = args.search.limits(DEFAULT_DEPTH);
    let mut engines = Engines {
        settings: args.search.engine_settings(),
        by_variant: HashMap::new(),
    };
    // Bad options are refused before anything is written.
    engines.get(default)?;

    let raws = read_games(&text);
    if raws.is_empty() {
        return Err(AnalyseError::NoGames(input));
    }
    let mut ready = Vec::new();
    for raw in &raws {
        match prepare(raw, default, &mut engines) {
            Ok(r) => ready.push(r),
            Err(e) => eprintln!(
                "{input}: game {} (line {}) skipped: {e}",
                raw.number, raw.line
            ),
        }
    }
    if ready.is_empty() {
        return Err(AnalyseError::NothingAnalysed(raws.len()));
    }
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir).map_err(|e| FileError::write(dir, e))?;
    }
    let write_err = |e| AnalyseError::from(FileError::write(&args.out, e));
    let mut out = File::create(&args.out).map_err(write_err)?;

    let total: u64 = ready.iter().map(|r| r.moves.len() as u64 + 1).sum();
    let mut progress = Progress::new(false, total, POSITIONS).with_plain_lines(Duration::ZERO);
    let mut done = 0u64;
    let mut analysed = 0;
    for r in &ready {
        let state = engines.get(r.variant)?;
        if let Some(bar) = progress.bar() {
            bar.set_message(format!("game {}", r.raw.number));
        }
        let analysis = game::analyse(state, r.raw.tag("FEN"), &r.moves, &limits, || {
            done += 1;
            if let Some(bar) = progress.bar() {
                bar.set_position(done);
            }
        });
        let analysis = match analysis {
            Ok(a) => a,
            Err(e) => {
                eprintln!(
                    "{input}: game {} (line {}) skipped: {e}",
                    r.raw.number, r.raw.line
                );
                continue;
            }
        };
        let verdicts = review::judge(&analysis);
        let summary = review::Summary::of(&verdicts);
        let variant_tag =
            (r.raw.tag("Variant").is_none() && !r.variant.standard).then_some(r.variant.game.name);
        let pgn = annotate::annotated_game(
            &annotate::Output {
                tags: &r.raw.tags,
                result: r.raw.result(),
                variant_tag,
                limit: &limit_text,
            },
            &analysis,
            &verdicts,
            &summary,
        );
        // Written and flushed at once: an interrupted run keeps every game finished.
        out.write_all(pgn.as_bytes()).map_err(write_err)?;
        out.flush().map_err(write_err)?;
        let svg = svg_path(&args.out, args.svg.as_deref(), r.raw.number);
        let title = format!(
            "{} - {} ({}, game {})",
            r.raw.tag("White").unwrap_or("?"),
            r.raw.tag("Black").unwrap_or("?"),
            r.variant.full_name,
            r.raw.number
        );
        graph::draw(&svg, &title, &analysis, &verdicts)?;
        analysed += 1;
        progress.say(&format!(
            "game {} ({} - {}, {}, {} moves): {} graph {}",
            r.raw.number,
            r.raw.tag("White").unwrap_or("?"),
            r.raw.tag("Black").unwrap_or("?"),
            r.variant.game.name,
            r.moves.len(),
            summary.sentence(),
            svg.display()
        ));
        progress.update(done, None, || format!("analyse: {done}/{total} positions"));
    }
    progress.clear();
    println!(
        "{analysed} of {} games analysed into {out_name}",
        raws.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graphs_go_beside_the_output_or_in_the_folder_given() {
        let out = Path::new("/tmp/x/games.pgn");
        assert_eq!(
            svg_path(out, None, 3),
            PathBuf::from("/tmp/x/games-game3.svg")
        );
        assert_eq!(
            svg_path(out, Some(Path::new("pics")), 1),
            PathBuf::from("pics/games-game1.svg")
        );
    }
}
