//! `cannonade wdl`: fits a game's win-chance model ([`cannonade_core::engine::wdl`]) to the results of
//! its self-play games (`cannonade datagen` files) and writes the model file and a picture of
//! the fit (see `docs/wdl.md`).
//!
//! [`fit`] does the maximum-likelihood fit, [`plot`] draws predicted against observed rates.

pub mod fit;
pub mod plot;

use crate::datagen::{DataError, DataReader, GameResult, SCORE_MATE};
use cannonade_core::engine::registry::VariantInfo;
use cannonade_core::engine::wdl::{self, Model};
use fit::{FitSummary, Sample};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Below this share of drawn games a game is taken to have no draws: its model is fitted with
/// `a = 0`, so that it gives no draw band (Cannon Shogi, Whitcher's Cannon), rather than a thin
/// band made of the few games that hit the ply cap.
pub const NO_DRAW_SHARE: f64 = 0.02;

/// The options of `cannonade wdl` (see `docs/wdl.md`).
#[derive(clap::Args, Clone, Debug)]
pub struct WdlArgs {
    /// Variant name (see `cannonade variants`).
    #[arg(long)]
    pub variant: String,
    /// A `cannonade datagen` file of the variant; may be repeated.
    #[arg(long = "data", required = true, value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// Where to write the model (`nets/VARIANT.wdl` is the one the build embeds).
    #[arg(long, value_name = "MODEL")]
    pub out: PathBuf,
    /// Where to draw the fit as SVG (predicted against observed win and draw rates).
    #[arg(long, value_name = "SVG")]
    pub svg: Option<PathBuf>,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
}

/// Why a model could not be fitted or written.
#[derive(thiserror::Error, Debug)]
pub enum WdlError {
    #[error(transparent)]
    UnknownVariant(#[from] crate::UnknownVariant),
    #[error("{file}: {error}")]
    Data { file: String, error: DataError },
    #[error("no positions with a centipawn score in the data: nothing to fit")]
    NoPositions,
    #[error("cannot write {file}: {error}")]
    Write { file: String, error: std::io::Error },
    #[error("cannot draw {file}: {error}")]
    Plot { file: String, error: String },
}

/// The positions of the data files, and what the games were.
pub struct Data {
    pub samples: Vec<Sample>,
    /// Games complete in the files, and how many of them were drawn.
    pub games: usize,
    pub drawn: usize,
    /// Positions left out for a mate score (the model gives mates their sure result).
    pub mates: usize,
}

impl Data {
    /// The share of drawn games, 0 when no game is complete.
    pub fn draw_share(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.drawn as f64 / self.games as f64
        }
    }
}

/// Reads the records of `files`, all of `variant`.
pub fn read(variant: &VariantInfo, files: &[PathBuf]) -> Result<Data, WdlError> {
    let mut data = Data {
        samples: Vec::new(),
        games: 0,
        drawn: 0,
        mates: 0,
    };
    let mut seen = HashSet::new();
    for (i, path) in files.iter().enumerate() {
        let err = |error| WdlError::Data {
            file: path.display().to_string(),
            error,
        };
        let reader = DataReader::open(path, Some(variant.game.name)).map_err(err)?;
        for record in reader {
            let r = record.map_err(err)?;
            // A game counts once, by its last kept position (which carries its result).
            if r.game_end && seen.insert((i, r.game)) {
                data.games += 1;
                data.drawn += usize::from(r.result == GameResult::Draw);
            }
            if r.score.unsigned_abs() >= SCORE_MATE.unsigned_abs() {
                data.mates += 1;
                continue;
            }
            data.samples.push(Sample {
                move_number: wdl::move_number_of(&r.fen),
                score: f64::from(r.score),
                result: r.result,
            });
        }
    }
    if data.samples.is_empty() {
        return Err(WdlError::NoPositions);
    }
    Ok(data)
}

fn say(quiet: bool, text: &str) {
    if !quiet {
        println!("{text}");
    }
}

/// The first comment line of a model: how it was made.
fn provenance(variant: &VariantInfo, data: &Data, files: &[PathBuf], fit: &FitSummary) -> String {
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    format!(
        "{}: fitted by `cannonade wdl` (maximum likelihood) on {} positions of {} games \
         ({} mate scores left out) from {}; mean log loss {:.4}",
        variant.game.name,
        data.samples.len(),
        data.games,
        data.mates,
        names.join(", "),
        fit.log_loss
    )
}

/// The comment line about draws, which the docs repeat.
fn draw_note(share: f64, no_draws: bool) -> String {
    if no_draws {
        format!(
            "draws: {:.1}% of games; the model gives no draw band (a = 0)",
            share * 100.0
        )
    } else {
        format!("draws: {:.1}% of games", share * 100.0)
    }
}

/// Fits `data` of `variant` and returns the model with its comment lines.
pub fn fit_model(variant: &VariantInfo, data: &Data, files: &[PathBuf]) -> (Model, FitSummary) {
    let no_draws = data.draw_share() < NO_DRAW_SHARE;
    let (mut model, summary) = fit::fit(variant.game.name, &data.samples, no_draws);
    model.comments = vec![
        provenance(variant, data, files, &summary),
        draw_note(data.draw_share(), no_draws),
        format!(
            "a(m), b(m): cubics in m = clamp(move, {}, {}) / {}, centipawns",
            model.moves.0,
            model.moves.1,
            wdl::MOVE_SCALE
        ),
    ];
    (model, summary)
}

fn write(path: &Path, text: &str) -> Result<(), WdlError> {
    std::fs::write(path, text).map_err(|error| WdlError::Write {
        file: path.display().to_string(),
        error,
    })
}

pub fn run(args: &WdlArgs) -> Result<(), String> {
    run_typed(args).map_err(|e| e.to_string())
}

fn run_typed(args: &WdlArgs) -> Result<(), WdlError> {
    let variant = crate::variant(&args.variant)?;
    let started = Instant::now();
    let data = read(variant, &args.data)?;
    say(
        args.quiet,
        &format!(
            "read {} positions of {} games of {} from {} file(s) in {:.1} s ({} mate scores \
             left out); draws: {:.1}% of games",
            data.samples.len(),
            data.games,
            variant.game.name,
            args.data.len(),
            started.elapsed().as_secs_f64(),
            data.mates,
            data.draw_share() * 100.0
        ),
    );
    let (model, summary) = fit_model(variant, &data, &args.data);
    // The file is read back before it is written: a model the engine could not read is an
    // error here, not a silent fallback in the engine.
    let text = model.to_string();
    Model::parse(&text).map_err(|e| WdlError::Write {
        file: args.out.display().to_string(),
        error: std::io::Error::other(e.to_string()),
    })?;
    write(&args.out, &text)?;
    let (a30, b30) = model.params(30);
    say(
        args.quiet,
        &format!(
            "fitted in {} steps, mean log loss {:.4} (the result shares alone: {:.4}); at move 30 \
             a = {a30:.0} cp, b = {b30:.0} cp; model written to {}",
            summary.steps,
            summary.log_loss,
            summary.baseline_log_loss,
            args.out.display()
        ),
    );
    if let Some(svg) = &args.svg {
        plot::draw(svg, variant, &model, &data.samples, data.draw_share()).map_err(|error| {
            WdlError::Plot {
                file: svg.display().to_string(),
                error,
            }
        })?;
        say(args.quiet, &format!("picture written to {}", svg.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{Header, Record};
    use cannonade_core::engine::registry;

    /// A datagen file of `variant` in the temporary directory, with positions at move 20 of
    /// two games: one won by White (from a +300 position), one drawn.
    fn data_file(name: &str, variant: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("cannonade-wdl-{}-{name}", std::process::id()));
        let mut bytes = Header {
            variant: variant.into(),
            settings: "test".into(),
        }
        .encode()
        .unwrap();
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 20";
        for (game, score, result) in [
            (0, 300, GameResult::Win),
            (0, 10_000, GameResult::Win),
            (1, 0, GameResult::Draw),
        ] {
            Record {
                fen: fen.into(),
                score,
                result,
                game,
                game_end: score != 300,
            }
            .encode_into(&mut bytes)
            .unwrap();
        }
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn the_data_is_read_with_its_games_and_without_mates() {
        let path = data_file("read", "chess");
        let data = read(
            registry::find("chess").unwrap(),
            std::slice::from_ref(&path),
        )
        .unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(data.samples.len(), 2);
        assert_eq!(data.mates, 1);
        assert_eq!((data.games, data.drawn), (2, 1));
        assert_eq!(data.samples[0].move_number, 20);
        assert_eq!(data.draw_share(), 0.5);
    }

    #[test]
    fn the_tool_writes_a_model_that_finds_the_curves_and_a_picture() {
        let truth = Model {
            variant: "swedishcannon".into(),
            moves: (1, wdl::MAX_MOVE),
            a: [120.0, 30.0, 0.0, 0.0],
            b: [90.0, 0.0, 0.0, 0.0],
            comments: vec![],
        };
        let mut bytes = Header {
            variant: "swedishcannon".into(),
            settings: "synthetic".into(),
        }
        .encode()
        .unwrap();
        // Results drawn from `truth`, one game each.
        for (game, sample) in (0u32..).zip(fit::synthetic(&truth, 8000, 7, 50, 1000.0)) {
            let mv = sample.move_number;
            let (score, result) = (sample.score.round() as i16, sample.result);
            Record {
                fen: format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w - - 0 {mv}"),
                score,
                result,
                game,
                game_end: true,
            }
            .encode_into(&mut bytes)
            .unwrap();
        }
        let dir = std::env::temp_dir();
        let stem = format!("cannonade-wdl-{}-e2e", std::process::id());
        let data = dir.join(format!("{stem}.bin"));
        let out = dir.join(format!("{stem}.wdl"));
        let svg = dir.join(format!("{stem}.svg"));
        std::fs::write(&data, bytes).unwrap();
        let result = run(&WdlArgs {
            variant: "swedishcannon".into(),
            data: vec![data.clone()],
            out: out.clone(),
            svg: Some(svg.clone()),
            quiet: true,
        });
        let text = std::fs::read_to_string(&out);
        let picture = std::fs::read_to_string(&svg);
        for f in [&data, &out, &svg] {
            let _ = std::fs::remove_file(f);
        }
        result.unwrap();
        let model = Model::parse(&text.unwrap()).unwrap();
        assert_eq!(model.variant, "swedishcannon");
        assert!(model.comments[0].contains("8000 positions of 8000 games"));
        for mv in [15, 30, 55] {
            let (a, b) = model.params(mv);
            let (ta, tb) = truth.params(mv);
            assert!((a - ta).abs() < 30.0, "move {mv}: a {a:.0}, truly {ta:.0}");
            assert!((b - tb).abs() < 25.0, "move {mv}: b {b:.0}, truly {tb:.0}");
        }
        let picture = picture.unwrap();
        assert!(picture.starts_with("<svg"));
        assert!(picture.contains("Swedish Cannon Chess (two cannons)"));
        assert!(picture.contains("draw rate"));
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        let args = |variant: &str, data: PathBuf| WdlArgs {
            variant: variant.into(),
            data: vec![data],
            out: std::env::temp_dir().join("cannonade-wdl-never-written.wdl"),
            svg: None,
            quiet: true,
        };
        let missing = std::env::temp_dir().join("cannonade-wdl-no-such-file.bin");
        let e = run(&args("chess", missing.clone())).unwrap_err();
        assert!(e.starts_with(&missing.display().to_string()), "{e}");
        let e = run(&args("nosuchgame", missing)).unwrap_err();
        assert!(e.contains("unknown variant 'nosuchgame'"), "{e}");
        let path = data_file("wrong", "chess");
        let e = run(&args("cannon", path.clone())).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(e.contains("'chess', not 'cannon'"), "{e}");
        assert!(!args("chess", PathBuf::new()).out.exists());
    }
}
