//! `cannonade tune`: fits the weights of a game's evaluation to scored positions
//! (Texel's method: the logistic of the evaluation should predict the game's result, here
//! blended with the search's score, as `cannonade train` does for nets).
//!
//! The evaluation is linear in its weights (`games::tuning`: the chess family's and Cannon
//! Shogi's are): each position is read once into the counts of its parameters, then full-batch
//! gradient descent (Adam) moves the weights. The result is a new `eval_weights.rs` for the
//! game, written to `--out` for review; nothing in the engine changes until it is copied over
//! and the games say it gains.

use crate::train::open_all;
use cannonade_core::engine::registry::{GameVisitor, VariantInfo};
use cannonade_core::games::tuning::{ParamTable, Trace};
use cannonade_core::games::{FenError, Game};
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// The options of `cannonade tune` (see `docs/evaluation.md`).
#[derive(clap::Args, Clone, Debug)]
pub struct TuneArgs {
    /// Variant name: a game with a tunable evaluation, the chess family or Cannon Shogi (see
    /// `cannonade variants`).
    #[arg(long)]
    pub variant: String,
    /// A file of scored positions (`cannonade datagen`, or the text format of `train`); may be
    /// repeated.
    #[arg(long = "data", required = true, value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// Where to write the tuned weights file (the format of the game's `eval_weights.rs`).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Gradient steps, each over all training positions.
    #[arg(long, default_value_t = 2000)]
    pub iterations: usize,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// λ, the weight of the game result in the target (0: search score only, 1: result only).
    #[arg(long, default_value_t = 0.5)]
    pub wdl: f64,
    /// Fraction of the positions held out to measure the validation loss.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Read at most this many positions.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Parameters to keep as they are, by name; may be repeated.
    #[arg(long = "freeze", value_name = "NAME")]
    pub freeze: Vec<String>,
    /// Weight of a penalty on each parameter's squared distance (in centipawns) from the
    /// weights in use, added to the loss: it keeps the weights that the data says little about
    /// (a rare piece, an end-game weight where few positions are end games) near where they
    /// were, rather than wherever noise takes them. 0: no penalty.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Threads (default: all the machine's cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Positions held out together for validation (see `run`).
const HOLD_OUT_BLOCK: usize = 1000;

/// One position: its nonzero parameter counts, with the phase blend folded in (a count for the
/// middle-game weight and one for the end-game weight), what no weight covers, and its target.
struct Sample {
    counts: Vec<(u16, f32, f32)>,
    offset: f64,
    /// The search's score and the game's result (1, ½, 0), both from White's view.
    score: f64,
    result: f64,
}

impl Sample {
    fn new(trace: &Trace, white_to_move: bool, score: i16, result: i8) -> Sample {
        let phase = trace.phase;
        let counts = trace
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != 0.0)
            .map(|(i, &c)| (i as u16, c * phase, c * (1.0 - phase)))
            .collect();
        let offset =
            trace.offset.mg as f64 * phase as f64 + trace.offset.eg as f64 * (1.0 - phase as f64);
        let sign = if white_to_move { 1.0 } else { -1.0 };
        Sample {
            counts,
            offset,
            score: sign * f64::from(score),
            result: 0.5 + sign * f64::from(result) / 2.0,
        }
    }

    fn evaluate(&self, w: &[[f64; 2]]) -> f64 {
        self.offset
            + self
                .counts
                .iter()
                .map(|&(i, mg, eg)| mg as f64 * w[i as usize][0] + eg as f64 * w[i as usize][1])
                .sum::<f64>()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The data set and the sigmoid scale, fitted once.
struct Problem {
    train: Vec<Sample>,
    valid: Vec<Sample>,
    /// sigmoid(k · cp) is the expected score.
    k: f64,
    wdl: f64,
    /// How many parameters the game's table has.
    count: usize,
}

impl Problem {
    fn target(&self, s: &Sample) -> f64 {
        self.wdl * s.result + (1.0 - self.wdl) * sigmoid(self.k * s.score)
    }

    fn loss(&self, set: &[Sample], w: &[[f64; 2]]) -> f64 {
        let sum: f64 = set
            .par_iter()
            .map(|s| (sigmoid(self.k * s.evaluate(w)) - self.target(s)).powi(2))
            .sum();
        sum / set.len().max(1) as f64
    }

    /// The mean squared error's gradient over the training set.
    fn gradient(&self, w: &[[f64; 2]]) -> Vec<[f64; 2]> {
        let mut g = self
            .train
            .par_chunks(4096)
            .map(|chunk| {
                let mut g = vec![[0.0f64; 2]; self.count];
                for s in chunk {
                    let p = sigmoid(self.k * s.evaluate(w));
                    let d = 2.0 * (p - self.target(s)) * p * (1.0 - p) * self.k;
                    for &(i, mg, eg) in &s.counts {
                        g[i as usize][0] += d * mg as f64;
                        g[i as usize][1] += d * eg as f64;
                    }
                }
                g
            })
            .reduce(
                || vec![[0.0f64; 2]; self.count],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        x[0] += y[0];
                        x[1] += y[1];
                    }
                    a
                },
            );
        let n = self.train.len().max(1) as f64;
        for x in &mut g {
            x[0] /= n;
            x[1] /= n;
        }
        g
    }

    /// The scale k that makes the current evaluation predict the results best (a golden-section
    /// search: the loss is unimodal in k).
    fn fit_k(train: &[Sample], w: &[[f64; 2]]) -> f64 {
        let loss = |k: f64| -> f64 {
            train
                .par_iter()
                .map(|s| (sigmoid(k * s.evaluate(w)) - s.result).powi(2))
                .sum::<f64>()
        };
        let (mut a, mut b) = (0.0001f64, 0.05f64);
        let r = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..40 {
            let c = b - r * (b - a);
            let d = a + r * (b - a);
            if loss(c) < loss(d) {
                b = d;
            } else {
                a = c;
            }
        }
        (a + b) / 2.0
    }
}

/// Reads a FEN with the game's own reader and takes its evaluation apart.
type TraceFn = Box<dyn Fn(&str) -> Result<(Trace, bool), FenError> + Sync>;

/// A variant whose game type has no evaluation taken apart for the tuner.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
#[error("variant '{variant}' has no tunable evaluation (the chess family and Cannon Shogi have)")]
pub struct NotTunable {
    pub variant: &'static str,
}

/// The tracer of `variant`'s game type and its weights table, where its evaluation is
/// tunable ([`Game::eval_tuning`]).
fn tracer_for(variant: &'static VariantInfo) -> Result<(TraceFn, &'static ParamTable), NotTunable> {
    struct Tracer;
    impl GameVisitor for Tracer {
        type Output = Option<(TraceFn, &'static ParamTable)>;
        fn visit<G: Game>(self, variant: &'static VariantInfo) -> Self::Output {
            let tuning = G::eval_tuning()?;
            let start = variant.new_game::<G>().ok()?;
            let trace = tuning.trace;
            let tracer: TraceFn = Box::new(move |fen: &str| {
                let pos = start.with_fen(fen)?;
                let white = pos.side_to_move() == cannonade_core::board::Color::White;
                Ok((trace(&pos), white))
            });
            Some((tracer, tuning.params))
        }
    }
    variant.visit(Tracer).ok_or(NotTunable {
        variant: variant.game.name,
    })
}

/// Adam over the full training set; prints the losses as it goes. Returns the tuned weights.
fn optimise(
    problem: &Problem,
    start: &[[f64; 2]],
    frozen: &[bool],
    args: &TuneArgs,
) -> Vec<[f64; 2]> {
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut w = start.to_vec();
    let count = start.len();
    let mut m = vec![[0.0f64; 2]; count];
    let mut v = vec![[0.0f64; 2]; count];
    let started = Instant::now();
    for t in 1..=args.iterations {
        let mut g = problem.gradient(&w);
        for ((g, w), s) in g.iter_mut().zip(&w).zip(start) {
            for j in 0..2 {
                g[j] += 2.0 * args.l2 * (w[j] - s[j]);
            }
        }
        for i in 0..count {
            if frozen[i] {
                continue;
            }
            for j in 0..2 {
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * g[i][j];
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * g[i][j] * g[i][j];
                let mh = m[i][j] / (1.0 - b1.powi(t as i32));
                let vh = v[i][j] / (1.0 - b2.powi(t as i32));
                w[i][j] -= args.lr * mh / (vh.sqrt() + eps);
            }
        }
        if t % 100 == 0 || t == args.iterations {
            println!(
                "step {t:5}: train loss {:.6}, validation loss {:.6} ({:.0} s)",
                problem.loss(&problem.train, &w),
                problem.loss(&problem.valid, &w),
                started.elapsed().as_secs_f64()
            );
        }
    }
    w
}

pub fn run(args: &TuneArgs) -> Result<(), String> {
    let variant = crate::variant(&args.variant).map_err(|e| e.to_string())?;
    let (tracer, table) = tracer_for(variant).map_err(|e| e.to_string())?;
    if !(0.0..=1.0).contains(&args.wdl) || !(0.0..1.0).contains(&args.validation) {
        return Err("--wdl must be within 0..1 and --validation within 0..1".into());
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err("--l2 must be a number of at least 0".into());
    }
    let mut frozen = vec![false; table.names.len()];
    for &i in table.fixed {
        frozen[i] = true;
    }
    for name in &args.freeze {
        let i = table
            .names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| format!("--freeze: no parameter named '{name}'"))?;
        frozen[i] = true;
    }
    let pool = crate::thread_pool(args.threads)?;
    pool.install(|| {
        let started = Instant::now();
        let records: Vec<_> = open_all(&args.data, variant)
            .map_err(|e| e.to_string())?
            .take(args.limit.unwrap_or(usize::MAX))
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        let samples: Vec<Sample> = records
            .par_iter()
            .map(|r| {
                let (trace, white) = tracer(&r.fen).map_err(|e| format!("{}: {e}", r.fen))?;
                Ok(Sample::new(&trace, white, r.score, r.result))
            })
            .collect::<Result<_, String>>()?;
        // Every n-th block of positions held out. Datagen's files are in game order, and the
        // positions of one game share its result, so holding out single positions would let
        // the training set see the held-out games: a block is about ten games.
        let every = if args.validation > 0.0 {
            (1.0 / args.validation).round() as usize
        } else {
            usize::MAX
        };
        let (mut train, mut valid) = (Vec::new(), Vec::new());
        for (i, s) in samples.into_iter().enumerate() {
            if (i / HOLD_OUT_BLOCK) % every == every - 1 {
                valid.push(s);
            } else {
                train.push(s);
            }
        }
        let start: Vec<[f64; 2]> = table
            .current()
            .iter()
            .map(|w| [f64::from(w[0]), f64::from(w[1])])
            .collect();
        let k = Problem::fit_k(&train, &start);
        println!(
            "{} training and {} validation positions read in {:.1} s; sigmoid scale k = {k:.6} (1 / k = {:.0} cp)",
            train.len(),
            valid.len(),
            started.elapsed().as_secs_f64(),
            0.0 + 1.0 / k,
        );
        let problem = Problem {
            train,
            valid,
            k,
            wdl: args.wdl,
            count: table.names.len(),
        };
        println!(
            "start: train loss {:.6}, validation loss {:.6}",
            problem.loss(&problem.train, &start),
            problem.loss(&problem.valid, &start)
        );
        let tuned = optimise(&problem, &start, &frozen, args);
        let rounded: Vec<[f32; 2]> = tuned
            .iter()
            .map(|w| [w[0].round() as f32, w[1].round() as f32])
            .collect();
        let as_f64: Vec<[f64; 2]> = rounded
            .iter()
            .map(|w| [f64::from(w[0]), f64::from(w[1])])
            .collect();
        println!(
            "rounded to whole centipawns: train loss {:.6}, validation loss {:.6}",
            problem.loss(&problem.train, &as_f64),
            problem.loss(&problem.valid, &as_f64)
        );
        println!("{:<22} {:>12} {:>12}", "parameter", "before", "after");
        for (i, name) in table.names.iter().enumerate() {
            if start[i] != as_f64[i] {
                println!(
                    "{name:<22} {:>5}, {:>5} {:>5}, {:>5}",
                    start[i][0], start[i][1], as_f64[i][0], as_f64[i][1]
                );
            }
        }
        std::fs::write(&args.out, table.file(&rounded))
            .map_err(|e| format!("{}: {e}", args.out.display()))?;
        println!("wrote {}", args.out.display());
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::random_play_records;
    use cannonade_core::engine::registry;

    /// Positions labelled with the engine's own evaluation, and a start far from the engine's
    /// weights: tuning on the score alone must find weights that give those scores back, and
    /// the value of `piece` (a parameter that every position with that piece counts) close to
    /// the truth, after `iterations` steps.
    fn tuning_recovers_the_weights_that_made_the_scores(
        name: &str,
        piece: &str,
        iterations: usize,
    ) {
        let variant = registry::find(name).unwrap();
        let (tracer, table) = tracer_for(variant).unwrap();
        let records = random_play_records(variant, 6000, 3);
        let samples: Vec<Sample> = records
            .iter()
            // Positions a piece or more out of balance teach little through the sigmoid.
            .filter(|r| r.score.abs() < 600)
            .map(|r| {
                let (trace, white) = tracer(&r.fen).unwrap();
                Sample::new(&trace, white, r.score, r.result)
            })
            .collect();
        let (train, valid): (Vec<_>, Vec<_>) = samples
            .into_iter()
            .enumerate()
            .partition(|(i, _)| i % 10 != 0);
        let strip = |v: Vec<(usize, Sample)>| v.into_iter().map(|(_, s)| s).collect::<Vec<_>>();
        let problem = Problem {
            train: strip(train),
            valid: strip(valid),
            k: 1.0 / 170.0,
            wdl: 0.0,
            count: table.names.len(),
        };
        let truth: Vec<[f64; 2]> = table
            .current()
            .iter()
            .map(|w| [f64::from(w[0]), f64::from(w[1])])
            .collect();
        // Every weight halved: material and positional terms alike are far off.
        let start: Vec<[f64; 2]> = truth.iter().map(|w| [w[0] / 2.0, w[1] / 2.0]).collect();
        let args = TuneArgs {
            variant: name.into(),
            data: Vec::new(),
            out: PathBuf::new(),
            iterations,
            lr: 2.0,
            wdl: 0.0,
            validation: 0.1,
            limit: None,
            freeze: Vec::new(),
            l2: 0.0,
            threads: None,
        };
        let mut frozen = vec![false; table.names.len()];
        for &i in table.fixed {
            frozen[i] = true;
        }
        let before = problem.loss(&problem.valid, &start);
        let tuned = optimise(&problem, &start, &frozen, &args);
        let after = problem.loss(&problem.valid, &tuned);
        assert!(after < before / 20.0, "validation loss {before} -> {after}");
        // The held-out positions' evaluations come back within a few centipawns on average.
        let error: f64 = problem
            .valid
            .iter()
            .map(|s| (s.evaluate(&tuned) - s.score).abs())
            .sum::<f64>()
            / problem.valid.len() as f64;
        assert!(error < 10.0, "mean error {error} cp");
        let p = table.names.iter().position(|n| *n == piece).unwrap();
        assert!(
            (tuned[p][0] - truth[p][0]).abs() < 30.0,
            "{piece}: {:?} {:?}",
            tuned[p],
            truth[p]
        );
    }

    /// Every game but Whitcher's Cannon (whose evaluation is not written as weighted terms)
    /// reaches the tuner through its registered type, and each tracer reads its game's FENs.
    #[test]
    fn every_weighted_evaluation_is_reachable_from_the_registry() {
        for v in registry::VARIANTS {
            let found = tracer_for(v);
            assert_eq!(
                found.is_ok(),
                v.game_type != registry::GameType::Cannon,
                "{}",
                v.game.name
            );
            if let Ok((tracer, table)) = found {
                assert!(!table.names.is_empty());
                let (_, white) = tracer(v.game.start_fen).unwrap();
                assert!(white, "{}", v.game.name);
                assert!(tracer("not a fen").is_err());
            }
        }
    }

    #[test]
    fn tuning_recovers_the_chess_weights_that_made_the_scores() {
        tuning_recovers_the_weights_that_made_the_scores("chess", "ValueKnight", 600);
    }

    #[test]
    fn tuning_recovers_the_cannon_shogi_weights_that_made_the_scores() {
        // More parameters, and random play leaves larger scores, where the sigmoid is flatter.
        tuning_recovers_the_weights_that_made_the_scores("cannonshogi", "ValueSilver", 1500);
    }
}
