//! `cannonade train`: reads scored positions, turns them into the variant's NNUE features with
//! the game's own FEN reader, trains a net ([`crate::train::trainer`]) and writes the net file.
//!
//! Data files are `cannonade datagen`'s binary files (read with its `DataReader`) or a text
//! format, told apart by their first byte ([`open_records`]).
//!
//! [`features_for`] reads a variant's positions with the game type its registry entry names
//! (each type implements [`cannonade_core::nnue::NnueFeatures`], a supertrait of [`Game`]).
//!
//! Text format (one position per line; blank lines and lines starting with `#` are skipped):
//! `FEN | score | result`, the score in centipawns and the result (1 win, 0 draw, -1 loss) both
//! from the side to move's point of view, e.g.
//! `rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | -35 | 0`.

pub mod trainer;

use crate::datagen::DataError;
use crate::progress::Progress;
use cannonade_core::engine::registry::{self, GameVisitor, VariantInfo};
use cannonade_core::games::Game;
use cannonade_core::nnue::{
    FeatureMeaning, FloatNetwork, KingBuckets, NetError, Network, OutputBuckets, DEFAULT_HIDDEN,
    DEFAULT_SCALE, MAX_OUTPUT_BUCKETS,
};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use trainer::{
    Dataset, EpochReport, PositionFeatures, RecordError, TrainConfig, TrainError, TrainObserver,
    TrainingRecord,
};

/// The options of `cannonade train` (see `docs/nnue.md`).
#[derive(clap::Args, Clone, Debug)]
pub struct TrainArgs {
    /// Variant name (see `cannonade variants`).
    #[arg(long)]
    pub variant: String,
    /// A file of scored positions; may be repeated.
    #[arg(long = "data", required = true, value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// Where to write the net.
    #[arg(long, value_name = "NET")]
    pub out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = trainer::DEFAULT_EPOCHS)]
    pub epochs: usize,
    /// Hidden units per perspective (a multiple of 16).
    #[arg(long, default_value_t = DEFAULT_HIDDEN)]
    pub hidden: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = trainer::DEFAULT_BATCH)]
    pub batch: usize,
    /// Adam's initial learning rate (it decays along a cosine to 5% of it).
    #[arg(long, default_value_t = trainer::DEFAULT_LR)]
    pub lr: f32,
    /// λ, the weight of the game result in the loss (0: search score only).
    #[arg(long, default_value_t = trainer::DEFAULT_WDL)]
    pub wdl: f32,
    /// S, centipawns per unit of the net's output: the loss compares sigmoid(cp / S).
    #[arg(long, default_value_t = DEFAULT_SCALE)]
    pub scale: u32,
    /// Fraction of the positions held out to measure the validation loss.
    #[arg(long, default_value_t = trainer::DEFAULT_VALIDATION)]
    pub validation: f64,
    /// Read only the first N positions of the files (all by default): for learning curves,
    /// the same data cut shorter.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Keep positions with fewer than N active features (pieces, in most games) only with
    /// probability P, as `N:P` (e.g. `16:0.35`): shifts the training toward middle games.
    #[arg(long, value_name = "N:P", value_parser = parse_thin)]
    pub thin: Option<(usize, f64)>,
    /// Start from this net instead of random weights: a net of the same variant (to train on),
    /// or of another game, whose weights then start each feature meaning the same piece on the
    /// same square (e.g. a Swedish Cannon Chess net from the chess net; the rest start at zero).
    /// Its hidden size must be at most `--hidden`: a smaller net is widened to `--hidden` units
    /// computing the same evaluation (its units copied, the new ones with zero output weights).
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// King buckets of the net's input (`none`, `halves`, `zones4` or `mirror`; see
    /// `docs/nnue.md`, "King buckets"): one set of feature weights per bucket of the
    /// perspective's own king square, trained with a factoriser (weights shared by every bucket
    /// plus each bucket's own). With `--init` from a net of one bucket, every bucket starts as
    /// that net. `mirror` keeps one set and mirrors the board left to right for a perspective
    /// whose king is on the left half.
    #[arg(long, value_name = "LAYOUT", default_value_t = KingBuckets::None)]
    pub king_buckets: KingBuckets,
    /// Output buckets: N output layers (1 to 16), one per range of men on the board, the
    /// ranges sharing out the start position's men (see `docs/nnue.md`, "Output buckets").
    /// With `--init` from a net of one output, every bucket starts as its output layer.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u8).range(1..=MAX_OUTPUT_BUCKETS as i64))]
    pub output_buckets: u8,
    /// Seed of the split, the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: all the machine's cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
}

/// Why a line of the text format is not a record.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum TextRecordError {
    #[error("expected 'FEN | score | result', found {0} field(s)")]
    FieldCount(usize),
    #[error("empty FEN")]
    EmptyFen,
    #[error("score '{0}' is not a whole number of centipawns in i16")]
    Score(String),
    #[error("result '{0}' is not 1, 0 or -1")]
    Result(String),
}

/// Why a data file of scored positions, or a record in it, could not be read. `file` is the
/// path as given; lines are counted from 1.
#[derive(thiserror::Error, Debug)]
pub enum DataFileError {
    #[error("{file}: {error}")]
    Io { file: String, error: std::io::Error },
    /// A `cannonade datagen` file that is damaged or not one.
    #[error("{file}: {error}")]
    Data { file: String, error: DataError },
    /// The file holds positions of another variant than the one trained.
    #[error("{file}: the data is for variant '{found}', not '{wanted}'")]
    OtherVariant {
        file: String,
        found: String,
        wanted: &'static str,
    },
    #[error("{file} line {line}: {error}")]
    LineIo {
        file: String,
        line: usize,
        error: std::io::Error,
    },
    #[error("{file} line {line}: {error}")]
    Line {
        file: String,
        line: usize,
        error: TextRecordError,
    },
}

/// A registered variant that no game type with NNUE features plays.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
#[error("variant '{variant}' is played by no game type with NNUE features")]
pub struct NoFeaturesError {
    pub variant: &'static str,
}

/// Why the starting net of `--init` (at `file`) cannot start this training.
#[derive(thiserror::Error, Clone, Debug, PartialEq)]
pub enum InitError {
    #[error("--init {file}: {error}")]
    Load { file: String, error: NetError },
    /// The net has more hidden units than the training: a net can be widened, not narrowed.
    #[error(
        "--init {file} has {hidden} hidden units, more than --hidden {wanted}: train with \
         --hidden {hidden} or more (a net can be widened, not narrowed)"
    )]
    Hidden {
        file: String,
        hidden: usize,
        wanted: usize,
    },
    /// A net of another game starts a training of its own hidden size only: widening is for
    /// the nets of the variant trained.
    #[error(
        "--init {file} is a net of another game, with {hidden} hidden units: train with \
         --hidden {hidden} (only a net of the same variant is widened)"
    )]
    OtherGameHidden { file: String, hidden: usize },
    /// `--hidden` itself is not a size a net can have.
    #[error(transparent)]
    HiddenSize(TrainError),
    #[error("--init {file} is for variant '{variant}', unknown here")]
    UnknownVariant { file: String, variant: String },
    #[error(transparent)]
    NoFeatures(#[from] NoFeaturesError),
    /// The net's king buckets are not the training's.
    #[error(
        "--init {file} has king buckets '{found}', the training '{wanted}' (a net of one \
         bucket starts any layout; a bucketed net only its own)"
    )]
    KingBuckets {
        file: String,
        found: KingBuckets,
        wanted: KingBuckets,
    },
    /// The net's output buckets are not the training's.
    #[error(
        "--init {file} has {found}, the training {wanted} (a net of one output starts any \
         output buckets; a net with output buckets only its own)"
    )]
    Outputs {
        file: String,
        found: OutputBuckets,
        wanted: OutputBuckets,
    },
    #[error("--init {file} has {found} features, {game} has {expected}")]
    FeatureCount {
        file: String,
        found: usize,
        game: &'static str,
        expected: usize,
    },
}

/// Why `--thin N:P` was refused.
#[derive(thiserror::Error, Clone, Debug, PartialEq)]
pub enum ThinError {
    #[error("'{0}' is not N:P (for example 16:0.35)")]
    NotNP(String),
    #[error("'{0}' is not a feature count")]
    Count(String),
    #[error("'{0}' is not a probability")]
    Probability(String),
    #[error("{0} is not a probability from 0 to 1")]
    OutOfRange(f64),
}

/// Reads a FEN with the game's own reader and lists its features, in the king buckets of
/// `.1` (each feature `f` listed as `bucket * F + f`).
struct GameFeatures<G>(G, KingBuckets);

impl<G: Game> PositionFeatures for GameFeatures<G> {
    fn feature_count(&self) -> usize {
        self.0.feature_count() * self.1.count()
    }

    fn has_king_buckets(&self) -> bool {
        self.0.has_king_buckets()
    }

    fn start_men(&self) -> u32 {
        self.0.nnue_men()
    }

    fn features(
        &self,
        fen: &str,
        stm: &mut Vec<u32>,
        nstm: &mut Vec<u32>,
    ) -> Result<u32, RecordError> {
        self.features_and_reference(fen, stm, nstm)
            .map(|(men, _)| men)
    }

    fn features_and_reference(
        &self,
        fen: &str,
        stm: &mut Vec<u32>,
        nstm: &mut Vec<u32>,
    ) -> Result<(u32, Option<i32>), RecordError> {
        let pos = self
            .0
            .with_fen(fen)
            .map_err(|e| RecordError::BadPosition(e.to_string()))?;
        let side = pos.side_to_move();
        stm.clear();
        nstm.clear();
        pos.bucketed_features(self.1, side, stm);
        pos.bucketed_features(self.1, !side, nstm);
        Ok((pos.nnue_men(), Some(pos.evaluate())))
    }

    fn feature_meaning(&self, feature: u32) -> Option<FeatureMeaning> {
        // Meanings are for moving the weights of a net of one bucket (`--init` from another
        // game's net).
        if self.1.is_bucketed() {
            return None;
        }
        self.0.feature_meaning(feature)
    }
}

/// The starting net of `--init`: the net at `path`, for `variant` (whose features, in one
/// bucket, `target` lists) and the training `cfg` (its `hidden` units, its `scale`, its king
/// `buckets` and `outputs`), as a float net in units of the scale; with a line saying how much
/// of it carried over. `cfg.init` is not read. A net of this variant with fewer hidden units is
/// widened to `hidden` ([`FloatNetwork::widen`], the new units' feature weights drawn from
/// `cfg.seed` as the trainer draws a new net's). A training with king buckets starts from a net
/// of one bucket (the trainer then starts every bucket as it) or from a net of the same layout;
/// a bucketed net starts only a training of its own layout. Output buckets alike.
pub fn starting_net(
    path: &Path,
    variant: &'static VariantInfo,
    target: &dyn PositionFeatures,
    cfg: &TrainConfig,
) -> Result<(FloatNetwork, String), InitError> {
    let (hidden, scale, seed) = (cfg.hidden, cfg.scale, cfg.seed);
    let (buckets, outputs) = (cfg.buckets, cfg.outputs);
    trainer::check_hidden(hidden).map_err(InitError::HiddenSize)?;
    let name = path.display();
    let net = Network::load(path).map_err(|error| InitError::Load {
        file: name.to_string(),
        error,
    })?;
    let from = registry::find(net.variant()).ok_or_else(|| InitError::UnknownVariant {
        file: name.to_string(),
        variant: net.variant().to_string(),
    })?;
    // A net of this variant (or of one sharing its nets) has the target's own features.
    let source = if from.net_name() == variant.net_name() {
        None
    } else {
        Some(features_for(from)?)
    };
    if net.king_buckets().uses_king() && (source.is_some() || net.king_buckets() != buckets) {
        return Err(InitError::KingBuckets {
            file: name.to_string(),
            found: net.king_buckets(),
            wanted: buckets,
        });
    }
    if net.output_buckets().is_bucketed() && net.output_buckets() != outputs {
        return Err(InitError::Outputs {
            file: name.to_string(),
            found: net.output_buckets(),
            wanted: outputs,
        });
    }
    let expected = source
        .as_ref()
        .map_or(target.feature_count(), |s| s.feature_count());
    if net.feature_count() != expected {
        return Err(InitError::FeatureCount {
            file: name.to_string(),
            found: net.feature_count(),
            game: from.game.name,
            expected,
        });
    }
    if source.is_some() && net.hidden() != hidden {
        return Err(InitError::OtherGameHidden {
            file: name.to_string(),
            hidden: net.hidden(),
        });
    }
    if net.hidden() > hidden {
        return Err(InitError::Hidden {
            file: name.to_string(),
            hidden: net.hidden(),
            wanted: hidden,
        });
    }
    let float = FloatNetwork::from_quantised(&net, scale);
    let mut said = format!("starting from {name} (a net of {})", net.variant());
    if buckets.is_bucketed() && !net.king_buckets().is_bucketed() {
        said = format!(
            "{said}; every king bucket ({buckets}) starts as it: its weights are the shared \
             ones, the buckets' own start at zero"
        );
    }
    if outputs.is_bucketed() && !net.output_buckets().is_bucketed() {
        said = format!("{said}; each of the {outputs} starts as its output layer");
    }
    if let Some(source) = source {
        return Ok(remapped(float, source.as_ref(), target, said));
    }
    if net.hidden() == hidden {
        return Ok((float, said));
    }
    let widened = format!(
        "{said}; widened from {} to {hidden} hidden units (the new units' output weights start \
         at zero, so the net starts with the evaluation it had)",
        net.hidden()
    );
    Ok((float.widen(hidden, seed), widened))
}

/// A net of another game (whose features `source` lists) moved onto the features of `target`,
/// each feature taking the row of the source's feature of the same meaning; with `said` (the
/// line naming the net) completed by how many did.
fn remapped(
    float: FloatNetwork,
    source: &dyn PositionFeatures,
    target: &dyn PositionFeatures,
    said: String,
) -> (FloatNetwork, String) {
    let by_meaning: HashMap<FeatureMeaning, usize> = (0..source.feature_count())
        .filter_map(|j| source.feature_meaning(j as u32).map(|m| (m, j)))
        .collect();
    let source_of = |i: usize| {
        target
            .feature_meaning(i as u32)
            .and_then(|m| by_meaning.get(&m).copied())
    };
    let carried = (0..target.feature_count())
        .filter(|&i| source_of(i).is_some())
        .count();
    let remapped = float.remap(target.feature_count(), source_of);
    let said = format!(
        "{said}: {carried} of {} features take the weights of the same piece on the same \
         square, the others start at zero",
        target.feature_count()
    );
    (remapped, said)
}

/// The NNUE features of `variant`, read through the FEN reader of the game type that plays it.
pub fn features_for(
    variant: &'static VariantInfo,
) -> Result<Box<dyn PositionFeatures>, NoFeaturesError> {
    features_in_buckets(variant, KingBuckets::None)
}

/// [`features_for`] in the king buckets of `layout` (a game without king buckets lists its
/// features in bucket 0: check [`PositionFeatures::has_king_buckets`] first).
pub fn features_in_buckets(
    variant: &'static VariantInfo,
    layout: KingBuckets,
) -> Result<Box<dyn PositionFeatures>, NoFeaturesError> {
    struct Features(KingBuckets);
    impl GameVisitor for Features {
        type Output = Result<Box<dyn PositionFeatures>, NoFeaturesError>;
        fn visit<G: Game>(self, variant: &'static VariantInfo) -> Self::Output {
            let start = variant.new_game::<G>().map_err(|_| NoFeaturesError {
                variant: variant.game.name,
            })?;
            Ok(Box::new(GameFeatures(start, self.0)))
        }
    }
    variant.visit(Features(layout))
}

/// Reads one line of the text format: `None` for a blank or comment line.
pub fn parse_text_record(line: &str) -> Result<Option<TrainingRecord>, TextRecordError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = fields[..] else {
        return Err(TextRecordError::FieldCount(fields.len()));
    };
    if fen.is_empty() {
        return Err(TextRecordError::EmptyFen);
    }
    let score = score
        .parse::<i16>()
        .map_err(|_| TextRecordError::Score(score.to_string()))?;
    let result = match result {
        "1" => 1,
        "0" => 0,
        "-1" => -1,
        r => return Err(TextRecordError::Result(r.to_string())),
    };
    Ok(Some(TrainingRecord {
        fen: fen.to_string(),
        score,
        result,
    }))
}

/// One line of the text format (without the line end).
pub fn text_record(r: &TrainingRecord) -> String {
    format!("{} | {} | {}", r.fen, r.score, r.result)
}

/// The records of one data file, in order.
pub type Records = Box<dyn Iterator<Item = Result<TrainingRecord, DataFileError>> + Send>;

/// Opens a data file of scored positions of `variant`: a `cannonade datagen` file (it starts
/// with a zero byte, the first of its magic) or the text format. A datagen file of another
/// variant is accepted when the two share their nets ([`VariantInfo::net_name`]); the variant
/// the data is for comes back with the records (for the text format, `variant`), so that each
/// file is read by its own game's FEN reader.
pub fn open_records(
    path: &Path,
    variant: &'static VariantInfo,
) -> Result<(Records, &'static VariantInfo), DataFileError> {
    use crate::datagen::{DataReader, MAGIC};
    use std::io::Read;
    let name = path.display().to_string();
    let io = |error| DataFileError::Io {
        file: name.clone(),
        error,
    };
    let mut first = [0u8; 1];
    let mut file = std::fs::File::open(path).map_err(io)?;
    let read = file.read(&mut first).map_err(io)?;
    if read == 1 && first[0] == MAGIC[0] {
        let reader = DataReader::open(path, None).map_err(|error| DataFileError::Data {
            file: name.clone(),
            error,
        })?;
        let found = &reader.header().variant;
        let data_variant = registry::find(found)
            .filter(|v| v.net_name() == variant.net_name())
            .ok_or_else(|| DataFileError::OtherVariant {
                file: name.clone(),
                found: found.clone(),
                wanted: variant.game.name,
            })?;
        let records = Box::new(reader.map(move |r| {
            r.map(|r| TrainingRecord {
                fen: r.fen,
                score: r.score,
                result: r.result.to_i8(),
            })
            .map_err(|error| DataFileError::Data {
                file: name.clone(),
                error,
            })
        }));
        return Ok((records, data_variant));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let lines = BufReader::new(file).lines().enumerate();
    let records = Box::new(lines.filter_map(move |(i, line)| {
        let (file, line_no) = (name.clone(), i + 1);
        match line {
            Err(error) => Some(Err(DataFileError::LineIo {
                file,
                line: line_no,
                error,
            })),
            Ok(line) => parse_text_record(&line)
                .map_err(|error| DataFileError::Line {
                    file,
                    line: line_no,
                    error,
                })
                .transpose(),
        }
    }));
    Ok((records, variant))
}

/// Every record of several files of `variant` itself (not of the variants sharing its net), one
/// file after another.
pub fn open_all(
    paths: &[PathBuf],
    variant: &'static VariantInfo,
) -> Result<Records, DataFileError> {
    let files = paths
        .iter()
        .map(|p| match open_records(p, variant)? {
            (records, v) if std::ptr::eq(v, variant) => Ok(records),
            (_, v) => Err(DataFileError::OtherVariant {
                file: p.display().to_string(),
                found: v.game.name.to_string(),
                wanted: variant.game.name,
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Box::new(files.into_iter().flatten()))
}

/// Quick stand-in data without a search: positions from random games of `variant`
/// (from ply 8 on, one in three), each labelled with the hand-written static evaluation and
/// the random game's result (a draw after 300 plies), both from the side to move's view. Good
/// for exercising the trainer and measuring its speed in seconds (the net learns to imitate
/// the evaluation), not for a net worth playing with: that takes `cannonade datagen`. The same seed gives the same records.
pub fn random_play_records(
    variant: &'static VariantInfo,
    count: usize,
    seed: u64,
) -> Vec<TrainingRecord> {
    use cannonade_core::board::zobrist::SplitMix64;
    use cannonade_core::games::Notation;
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut session = variant.new_session();
        let mut kept = Vec::new();
        let mut winner = None;
        for ply in 0..300 {
            if let Some(o) = session.outcome() {
                winner = o.winner(session.side_to_move());
                break;
            }
            if ply >= 8 && rng.next_u64().is_multiple_of(3) {
                let score = session.evaluate().clamp(-3000, 3000) as i16;
                kept.push((session.fen(), score, session.side_to_move()));
            }
            let moves = session.legal_moves(Notation::Uci);
            let pick = &moves[(rng.next_u64() % moves.len() as u64) as usize];
            session.play(pick, Notation::Uci).expect("a legal move");
        }
        for (fen, score, side) in kept {
            let result = match winner {
                None => 0,
                Some(w) if w == side => 1,
                Some(_) => -1,
            };
            out.push(TrainingRecord { fen, score, result });
        }
    }
    out.truncate(count);
    out
}

/// At most this many features active in one perspective keep the `i16` accumulator safe with
/// weights within `±FT_CLIP` (1.98 * 255 = 505 per feature; 64 * 505 < 32,767).
const SAFE_ACTIVE: usize = 63;

fn duration(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}m{:02}s", s / 60, s % 60)
}

/// One epoch's line of the output.
pub fn epoch_line(r: &EpochReport) -> String {
    let width = r.epochs.to_string().len();
    let validation = r
        .validation_loss
        .map_or("-".to_string(), |l| format!("{l:.6}"));
    match r.train_loss {
        None => format!(
            "epoch {:>width$}/{}: validation loss {validation} (untrained)",
            r.epoch, r.epochs
        ),
        Some(train) => format!(
            "epoch {:>width$}/{}: train loss {train:.6}, validation loss {validation}, {:.0} \
             positions/s, {} elapsed, lr {:.2e}",
            r.epoch,
            r.epochs,
            r.positions_per_second,
            duration(r.elapsed),
            r.lr
        ),
    }
}

/// The run's output: lines on stdout and, on a terminal, a bar for the epoch in progress on
/// stderr.
struct Console(Progress);

impl Console {
    fn new(quiet: bool) -> Console {
        Console(Progress::new(
            quiet,
            0,
            "{msg} [{bar:30.cyan/blue}] {pos}/{len} positions, {per_sec}, ETA {eta}",
        ))
    }
}

impl TrainObserver for Console {
    fn batch(&mut self, epoch: usize, done: usize, total: usize) {
        if let Some(bar) = self.0.bar() {
            if bar.length() != Some(total as u64) || done < bar.position() as usize {
                bar.reset();
                bar.set_length(total as u64);
                bar.set_message(format!("epoch {epoch}"));
            }
            bar.set_position(done as u64);
        }
    }

    fn epoch(&mut self, report: &EpochReport) {
        self.0.say(&epoch_line(report));
    }
}

/// Runs `cannonade train`.
/// `--thin N:P`: a feature count and a probability from 0 to 1.
fn parse_thin(text: &str) -> Result<(usize, f64), ThinError> {
    let (n, p) = text
        .split_once(':')
        .ok_or_else(|| ThinError::NotNP(text.to_string()))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| ThinError::Count(n.to_string()))?;
    let p: f64 = p
        .trim()
        .parse()
        .map_err(|_| ThinError::Probability(p.to_string()))?;
    if !(0.0..=1.0).contains(&p) {
        return Err(ThinError::OutOfRange(p));
    }
    Ok((n, p))
}

pub fn run(args: &TrainArgs) -> Result<(), String> {
    let variant = crate::variant(&args.variant).map_err(|e| e.to_string())?;
    let layout = args.king_buckets;
    let plain = features_for(variant).map_err(|e| e.to_string())?;
    if layout.uses_king() && !plain.has_king_buckets() {
        return Err(format!(
            "variant '{}' has no king buckets: train it with --king-buckets none",
            variant.game.name
        ));
    }
    let source = features_in_buckets(variant, layout).map_err(|e| e.to_string())?;
    let outputs = OutputBuckets::for_game(usize::from(args.output_buckets), plain.start_men());
    let pool = crate::thread_pool(args.threads)?;
    let mut cfg = TrainConfig {
        hidden: args.hidden,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        wdl: args.wdl,
        scale: args.scale,
        validation: args.validation,
        seed: args.seed,
        init: None,
        buckets: layout,
        outputs,
    };
    let mut console = Console::new(args.quiet);
    if let Some(path) = &args.init {
        let (net, said) =
            starting_net(path, variant, plain.as_ref(), &cfg).map_err(|e| e.to_string())?;
        console.0.say(&said);
        cfg.init = Some(net);
    }
    pool.install(|| {
        let started = Instant::now();
        // Each file is read by the FEN reader (and scored by the hand-written evaluation) of
        // the variant its data is for: variants sharing a net may refuse each other's pieces.
        let files = args
            .data
            .iter()
            .map(|p| open_records(p, variant))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let mut data = Dataset::new(source.feature_count());
        let limit = args.limit.unwrap_or(usize::MAX);
        for (records, data_variant) in files {
            let reader = features_in_buckets(data_variant, layout).map_err(|e| e.to_string())?;
            let before = data.len();
            data.extend_from_records(records.take(limit - before), reader.as_ref(), |n| {
                if let Some(bar) = console.0.bar() {
                    bar.set_message(format!("read {} positions", before + n));
                    bar.tick();
                }
            })
            .map_err(|e| e.to_string())?;
        }
        console.0.say(&format!(
            "read {} positions of {} from {} file(s) in {:.1} s: {:.1} features per side on \
             average, at most {}; {} threads",
            data.len(),
            variant.game.name,
            args.data.len(),
            started.elapsed().as_secs_f64(),
            data.mean_active(),
            data.max_active(),
            pool.current_num_threads()
        ));
        let data = match args.thin {
            Some((below, keep)) => {
                let thinned = data.thin(below, keep, args.seed);
                console.0.say(&format!(
                    "thinned: kept {} of {} positions (all with at least {below} features, \
                     {:.0}% of the others)",
                    thinned.len(),
                    data.len(),
                    keep * 100.0
                ));
                thinned
            }
            None => data,
        };
        if data.max_active() > SAFE_ACTIVE {
            console.0.say(&format!(
                "warning: {} features active at once may overflow the i16 accumulator (safe \
                 up to {SAFE_ACTIVE})",
                data.max_active()
            ));
        }
        // The bar to clear: a net whose validation loss is not below the hand-written
        // evaluation's is unlikely to play better than it.
        let (_, validation) = trainer::split(data.len(), cfg.validation, cfg.seed);
        if let Some((loss, k)) = trainer::reference_loss(&data, &validation, cfg.wdl, cfg.scale) {
            console.0.say(&format!(
                "hand-written evaluation: validation loss {loss:.6} (as sigmoid(cp / {k:.0}), the \
                 scale that fits best); the net must get below it"
            ));
        }
        // The net carries the name of the variants it serves (`net_name`), so that each of them
        // loads it.
        let out = trainer::train(&data, &cfg, variant.net_name(), &mut console)
            .map_err(|e| e.to_string())?;
        console.0.clear();
        out.network.save(&args.out).map_err(|e| e.to_string())?;
        let q = &out.quantisation;
        console.0.say(&format!(
            "quantised {} values: {} clipped to their integer range, {} feature weights held \
             at the training clip",
            q.total, q.clipped, q.at_clip
        ));
        if let (Some(f), Some(q)) = (out.float_validation_loss, out.quantised_validation_loss) {
            console.0.say(&format!(
                "validation loss: float net {f:.6}, quantised net {q:.6}"
            ));
        }
        console.0.say(&format!(
            "wrote {} ({}, {} hidden, {}, {} training and {} validation positions, {})",
            args.out.display(),
            out.network.inputs_in_words(),
            out.network.hidden(),
            out.network.outputs_in_words(),
            out.train_positions,
            out.validation_positions,
            duration(started.elapsed())
        ));
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::engine::registry::VARIANTS;

    #[test]
    fn thin_takes_a_count_and_a_probability() {
        assert_eq!(parse_thin("16:0.35"), Ok((16, 0.35)));
        assert_eq!(parse_thin(" 8 : 1 "), Ok((8, 1.0)));
        for bad in ["16", "16:1.5", "x:0.5", "16:-0.1", "16:half"] {
            assert!(parse_thin(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn text_records_round_trip_and_bad_lines_are_named() {
        let r = TrainingRecord {
            fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
            score: -35,
            result: 0,
        };
        assert_eq!(parse_text_record(&text_record(&r)), Ok(Some(r)));
        assert_eq!(parse_text_record("  # a comment"), Ok(None));
        assert_eq!(parse_text_record(""), Ok(None));
        for (line, says) in [
            ("8/8/8/8/8/8/8/8 w - - 0 1 | 12", "2 field"),
            ("8/8/8/8/8/8/8/8 w - - 0 1 | x | 0", "score 'x'"),
            ("8/8/8/8/8/8/8/8 w - - 0 1 | 40000 | 0", "score '40000'"),
            ("8/8/8/8/8/8/8/8 w - - 0 1 | 1 | 0.5", "result '0.5'"),
        ] {
            let e = parse_text_record(line).unwrap_err().to_string();
            assert!(e.contains(says), "{line}: {e}");
        }
    }

    #[test]
    fn every_variant_has_the_features_of_the_type_that_plays_it() {
        for v in VARIANTS {
            let found = features_for(v).unwrap();
            // The trainer's type and the engine's agree on the count (a net trained with one
            // must load in the other), and the start position reads.
            let session = v.new_session();
            assert_eq!(
                found.feature_count(),
                session.nnue_feature_count(),
                "{}",
                v.game.name
            );
            let (mut a, mut b) = (Vec::new(), Vec::new());
            found.features(v.game.start_fen, &mut a, &mut b).unwrap();
            assert!(!a.is_empty() && a.len() == b.len(), "{}", v.game.name);
        }
        let chess = features_for(registry::find("chess").unwrap()).unwrap();
        assert_eq!(chess.feature_count(), 768);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        chess
            .features(
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                &mut a,
                &mut b,
            )
            .unwrap();
        assert_eq!((a.len(), b.len()), (32, 32));
        assert!(chess.features("not a fen", &mut a, &mut b).is_err());
    }

    #[test]
    fn variants_that_share_a_net_mean_the_same_by_every_feature() {
        let mut shared = 0;
        for v in VARIANTS {
            let Some(owner) = v.shares_net_of else {
                continue;
            };
            shared += 1;
            let owner = registry::find(owner).expect("a registered variant");
            assert_eq!(
                owner.net_name(),
                owner.game.name,
                "{} shares on",
                owner.game.name
            );
            let (mine, theirs) = (features_for(v).unwrap(), features_for(owner).unwrap());
            assert_eq!(mine.feature_count(), theirs.feature_count());
            let described = (0..mine.feature_count() as u32)
                .filter(|&f| {
                    let m = mine.feature_meaning(f);
                    assert_eq!(m, theirs.feature_meaning(f), "{}: {f}", v.game.name);
                    m.is_some()
                })
                .count();
            // The board's features at least are described: all but the counts in reserve and
            // the holes (Cannonrider's board has 12 of its word's 80 squares).
            assert!(described * 4 > mine.feature_count() * 3, "{}", v.game.name);
        }
        assert!(
            shared > 0,
            "no variant shares a net: the test tests nothing"
        );
    }

    #[test]
    fn the_yardstick_is_the_games_own_evaluation() {
        // The dataset keeps, for each record, the hand-written evaluation of its position from
        // the side to move's view: a queen up is worth a lot to the side that has it.
        let chess = features_for(registry::find("chess").unwrap()).unwrap();
        let fens = [
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        ];
        let records = fens.iter().map(|f| {
            Ok::<_, DataFileError>(TrainingRecord {
                fen: f.to_string(),
                score: 0,
                result: 0,
            })
        });
        let data = Dataset::from_records(records, chess.as_ref(), |_| {}).unwrap();
        let (white, black) = (data.reference(0).unwrap(), data.reference(1).unwrap());
        assert!(white > 600 && black < -600, "{white} {black}");
        let mut session = registry::find("chess").unwrap().new_session();
        session
            .set_position(Some(fens[1]), &[], cannonade_core::games::Notation::Uci)
            .unwrap();
        assert_eq!(i32::from(black), session.evaluate());
    }

    /// Positions of orthodox chess, openings to endgames, both sides to move.
    const CHESS_FENS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 b - - 3 9",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1",
    ];

    /// Both perspectives' features of each of [`CHESS_FENS`], read by the chess reader.
    fn chess_positions() -> Vec<(Vec<u32>, Vec<u32>)> {
        let chess = features_for(registry::find("chess").unwrap()).unwrap();
        CHESS_FENS
            .iter()
            .map(|fen| {
                let (mut stm, mut nstm) = (Vec::new(), Vec::new());
                chess.features(fen, &mut stm, &mut nstm).unwrap();
                (stm, nstm)
            })
            .collect()
    }

    /// A chess net of `hidden` units whose every value matters: the trainer's random start with
    /// nonzero biases (a fresh net's are zero, and a widening that lost them would go unseen).
    fn chess_float_net(hidden: usize, seed: u64) -> FloatNetwork {
        use cannonade_core::board::zobrist::SplitMix64;
        let mut net = FloatNetwork::new_random(768, hidden, seed);
        let mut rng = SplitMix64::new(seed);
        for b in &mut net.ft_bias {
            *b = (rng.next_u64() % 601) as f32 / 1000.0 - 0.3;
        }
        net.out_bias = vec![0.125];
        net
    }

    /// [`chess_float_net`] quantised and saved as file `name` of the scratch folder: the
    /// file and the net.
    fn saved_chess_net(name: &str, hidden: usize, seed: u64) -> (PathBuf, Network) {
        let path = scratch_file(name);
        let (q, _) = chess_float_net(hidden, seed)
            .quantise("chess", 255, 256, DEFAULT_SCALE)
            .unwrap();
        q.save(&path).unwrap();
        (path, q)
    }

    /// The start of a chess training of `hidden` units in king buckets `buckets` (one output
    /// bucket) from the net in `path`.
    fn start_chess(
        path: &Path,
        hidden: usize,
        buckets: KingBuckets,
        seed: u64,
    ) -> Result<(FloatNetwork, String), InitError> {
        let chess = registry::find("chess").unwrap();
        let cfg = TrainConfig {
            hidden,
            scale: 400,
            seed,
            buckets,
            outputs: OutputBuckets::ONE,
            ..TrainConfig::default()
        };
        starting_net(path, chess, features_for(chess).unwrap().as_ref(), &cfg)
    }

    fn scratch_file(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cannonade-widen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_widened_net_computes_what_the_narrow_net_computed() {
        let narrow = chess_float_net(16, 5);
        let wide = narrow.widen(32, 9);
        assert_eq!((wide.features, wide.hidden), (768, 32));
        // The new units are live (random feature weights) but silent (zero output weights).
        assert!(wide.out_weights[16..32].iter().all(|&w| w == 0.0));
        assert!(wide.out_weights[48..].iter().all(|&w| w == 0.0));
        assert!(wide.ft_weights[16..32].iter().any(|&w| w != 0.0));
        for (stm, nstm) in chess_positions() {
            let (before, after) = (narrow.forward(&stm, &nstm, 0), wide.forward(&stm, &nstm, 0));
            // The new units add exact zeros to the same sums: equal to the bit.
            assert_eq!(before, after, "{stm:?}");
            assert!(before.abs() > 0.01, "a near-zero output would prove little");
            // The two perspectives' halves are not interchangeable: swapping the sides
            // changes the output, so a half put in the other's place would have been seen.
            assert_ne!(before, narrow.forward(&nstm, &stm, 0));
        }
    }

    #[test]
    fn a_widened_net_quantises_to_the_same_evaluations() {
        use cannonade_core::nnue::{DEFAULT_QA, DEFAULT_QB};
        let narrow = chess_float_net(16, 6);
        let wide = narrow.widen(32, 2);
        // Through the file format and back, as the engine loads a net.
        let load = |net: &FloatNetwork| {
            let (q, report) = net
                .quantise("chess", DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
                .unwrap();
            assert_eq!(report.clipped, 0);
            Network::from_bytes(&q.to_bytes()).unwrap()
        };
        let (narrow_q, wide_q) = (load(&narrow), load(&wide));
        assert_eq!(wide_q.hidden(), 32);
        for (stm, nstm) in chess_positions() {
            // Exactly equal, not within rounding: the old units quantise to the same integers,
            // the new units' output weights to 0, and the integer sums are exact.
            let want = narrow_q.evaluate_features(&stm, &nstm, 0);
            assert_eq!(wide_q.evaluate_features(&stm, &nstm, 0), want);
            assert!(want != 0, "a zero evaluation would prove little");
        }
    }

    #[test]
    fn the_chess_net_widened_to_256_evaluates_as_it_did() {
        // The engine's own 128-unit net, widened to 256 the way `--init` does and quantised as
        // the trainer does: the engine's inference takes the wider net and scores every position
        // the same.
        let chess = registry::find("chess").unwrap();
        let net = Network::from_bytes(chess.net.unwrap()).unwrap();
        assert!(
            net.hidden() < 256,
            "the net is already {} wide",
            net.hidden()
        );
        let (qa, qb) = net.quantisation();
        let wide = FloatNetwork::from_quantised(&net, net.scale()).widen(256, 1);
        let (wide, report) = wide.quantise(net.variant(), qa, qb, net.scale()).unwrap();
        assert_eq!(report.clipped, 0);
        let wide = Network::from_bytes(&wide.to_bytes()).unwrap();
        assert_eq!(wide.hidden(), 256);
        for (stm, nstm) in chess_positions() {
            assert_eq!(
                wide.evaluate_features(&stm, &nstm, 0),
                net.evaluate_features(&stm, &nstm, 0)
            );
        }
    }

    #[test]
    fn init_widens_a_narrower_net_and_refuses_a_wider_one() {
        let (path, q) = saved_chess_net("refuse.nnue", 32, 3);
        let start = |hidden| start_chess(&path, hidden, KingBuckets::None, 1);
        // The same size: the net as it is.
        let (same, _) = start(32).unwrap();
        assert_eq!(same, FloatNetwork::from_quantised(&q, 400));
        let (wider, said) = start(64).unwrap();
        assert_eq!(wider.hidden, 64);
        assert!(said.contains("widened from 32 to 64"), "{said}");
        // Narrower than the net: refused, naming the sizes.
        let e = start(16).unwrap_err();
        assert!(
            matches!(
                e,
                InitError::Hidden {
                    hidden: 32,
                    wanted: 16,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("--hidden 32 or more"), "{e}");
        // Not a size a net can have.
        assert_eq!(
            start(40).unwrap_err(),
            InitError::HiddenSize(TrainError::Hidden(40))
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn training_from_a_widened_net_starts_at_the_narrow_nets_loss() {
        let chess = registry::find("chess").unwrap();
        let features = features_for(chess).unwrap();
        let records = random_play_records(chess, 800, 17);
        let data = Dataset::from_records(
            records.into_iter().map(Ok::<_, DataFileError>),
            features.as_ref(),
            |_| {},
        )
        .unwrap();
        let (path, _) = saved_chess_net("start.nnue", 16, 4);
        let run = |hidden| {
            let (init, _) = start_chess(&path, hidden, KingBuckets::None, 8).unwrap();
            let cfg = TrainConfig {
                hidden,
                epochs: 1,
                batch: 64,
                validation: 0.25,
                init: Some(init),
                ..TrainConfig::default()
            };
            trainer::train(&data, &cfg, "chess", &mut trainer::Silent).unwrap()
        };
        let (narrow, wide) = (run(16), run(32));
        std::fs::remove_file(&path).unwrap();
        let (before, after) = (
            narrow.epochs[0].validation_loss.unwrap(),
            wide.epochs[0].validation_loss.unwrap(),
        );
        // The same function on the same held-out positions: the same loss (to the bit, in
        // fact; the margin only allows for summation order).
        assert!(
            (before - after).abs() <= 1e-9 * before,
            "{before} vs {after}"
        );
        // And the widened net did train, at its new width: the new units' output weights,
        // zero at the start, took their first steps.
        assert_eq!(wide.network.hidden(), 32);
        assert!(wide.float.out_weights[16..32].iter().any(|&w| w != 0.0));
    }

    /// `features` moved to king bucket `bucket` of a game of `base` features.
    fn in_bucket(features: &[u32], bucket: usize, base: usize) -> Vec<u32> {
        features
            .iter()
            .map(|&f| f + (bucket * base) as u32)
            .collect()
    }

    #[test]
    fn a_net_of_one_bucket_starts_every_king_bucket_as_itself() {
        // The shipped chess net, as `--init` reads it, factorised as the trainer starts a
        // bucketed training: in every bucket, float and quantised, it evaluates every position
        // as the net did, to the bit.
        let chess = registry::find("chess").unwrap();
        let net = Network::from_bytes(chess.net.unwrap()).unwrap();
        let path = scratch_file("one-bucket.nnue");
        net.save(&path).unwrap();
        let plain = features_for(chess).unwrap();
        let (qa, qb) = net.quantisation();
        let old_float = FloatNetwork::from_quantised(&net, net.scale());
        for layout in [KingBuckets::Halves, KingBuckets::Zones4] {
            let (start, said) = starting_net(
                &path,
                chess,
                plain.as_ref(),
                &TrainConfig {
                    hidden: net.hidden(),
                    scale: net.scale(),
                    seed: 1,
                    buckets: layout,
                    outputs: net.output_buckets(),
                    ..TrainConfig::default()
                },
            )
            .unwrap();
            assert!(said.contains("every king bucket"), "{said}");
            let fact = start.factorised(layout, 768);
            let (q, report) = fact.quantise("chess", qa, qb, net.scale()).unwrap();
            assert_eq!(report.clipped, 0);
            let q = Network::from_bytes(&q.to_bytes()).unwrap();
            assert_eq!(q.king_buckets(), layout);
            let bucketed = features_in_buckets(chess, layout).unwrap();
            let mut seen = std::collections::HashSet::new();
            for (fen, (stm, nstm)) in CHESS_FENS.iter().zip(chess_positions()) {
                let (mut bs, mut bn) = (Vec::new(), Vec::new());
                bucketed.features(fen, &mut bs, &mut bn).unwrap();
                seen.insert(bs[0] as usize / 768);
                seen.insert(bn[0] as usize / 768);
                assert_eq!(fact.forward(&bs, &bn, 0), old_float.forward(&stm, &nstm, 0));
                assert_eq!(
                    q.evaluate_features(&bs, &bn, 0),
                    net.evaluate_features(&stm, &nstm, 0)
                );
                // Every bucket, not only the position's own, holds the old net.
                for b in 0..layout.count() {
                    let (s, n) = (in_bucket(&stm, b, 768), in_bucket(&nstm, b, 768));
                    assert_eq!(
                        q.evaluate_features(&s, &n, 0),
                        net.evaluate_features(&stm, &nstm, 0)
                    );
                }
            }
            assert!(seen.len() >= 2, "{layout}: the positions met one bucket");
        }
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_bucketed_net_starts_only_a_training_of_its_own_layout() {
        let mut float = chess_float_net(16, 2)
            .factorised(KingBuckets::Halves, 768)
            .merged();
        float.out_bias = vec![0.25];
        let (q, _) = float.quantise("chess", 255, 256, DEFAULT_SCALE).unwrap();
        let path = scratch_file("halves.nnue");
        q.save(&path).unwrap();
        let start = |layout| start_chess(&path, 16, layout, 1);
        let (same, _) = start(KingBuckets::Halves).unwrap();
        assert_eq!(same, FloatNetwork::from_quantised(&q, 400));
        for other in [KingBuckets::None, KingBuckets::Zones4] {
            let e = start(other).unwrap_err();
            assert!(
                matches!(
                    e,
                    InitError::KingBuckets {
                        found: KingBuckets::Halves,
                        ..
                    }
                ),
                "{e:?}"
            );
        }
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_bucketed_training_starts_at_the_nets_loss_and_its_net_round_trips() {
        let chess = registry::find("chess").unwrap();
        let records = random_play_records(chess, 800, 23);
        let read = |layout| {
            let features = features_in_buckets(chess, layout).unwrap();
            Dataset::from_records(
                records.iter().cloned().map(Ok::<_, DataFileError>),
                features.as_ref(),
                |_| {},
            )
            .unwrap()
        };
        let (path, _) = saved_chess_net("bucket-start.nnue", 16, 11);
        let run = |layout: KingBuckets| {
            let (init, _) = start_chess(&path, 16, layout, 8).unwrap();
            let cfg = TrainConfig {
                hidden: 16,
                epochs: 2,
                batch: 64,
                validation: 0.25,
                init: Some(init),
                buckets: layout,
                outputs: OutputBuckets::ONE,
                ..TrainConfig::default()
            };
            let data = read(layout);
            (
                trainer::train(&data, &cfg, "chess", &mut trainer::Silent).unwrap(),
                data,
            )
        };
        let (none, _) = run(KingBuckets::None);
        let (zones, data) = run(KingBuckets::Zones4);
        std::fs::remove_file(&path).unwrap();
        // Before any step, the same function on the same positions.
        let (before, after) = (
            none.epochs[0].validation_loss.unwrap(),
            zones.epochs[0].validation_loss.unwrap(),
        );
        assert_eq!(before, after);
        // It trained, and the buckets went their own ways.
        let last = zones.epochs.last().unwrap().validation_loss.unwrap();
        assert!(last < after, "{after} -> {last}");
        let net = &zones.network;
        assert_eq!(net.king_buckets(), KingBuckets::Zones4);
        assert_eq!((net.feature_count(), net.input_rows()), (768, 4 * 768));
        let h = net.hidden();
        let rows = |b: usize| &net.feature_weights()[b * 768 * h..(b + 1) * 768 * h];
        assert_ne!(rows(0), rows(1));
        // Through the file and back: the same net, the same evaluations, and the float net it
        // came from (merged) agrees with it within quantisation.
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(&back, net);
        assert_eq!(zones.float.features, 4 * 768);
        let mut buckets_seen = std::collections::HashSet::new();
        for i in 0..data.len() {
            let (stm, nstm) = data.features(i);
            let (s, n): (Vec<u32>, Vec<u32>) = (
                stm.iter().map(|&f| u32::from(f)).collect(),
                nstm.iter().map(|&f| u32::from(f)).collect(),
            );
            buckets_seen.insert(s[0] / 768);
            let q = back.evaluate_features(&s, &n, 0);
            assert_eq!(q, net.evaluate_features(&s, &n, 0));
            let f = zones.float.evaluate_cp(&s, &n, 0, DEFAULT_SCALE as f32);
            assert!((f - q as f32).abs() < 20.0, "{f} vs {q}");
        }
        assert!(buckets_seen.len() >= 3, "{buckets_seen:?}");
    }

    #[test]
    fn a_game_without_king_buckets_takes_no_bucketed_net() {
        use cannonade_core::nnue::{DEFAULT_QA, DEFAULT_QB};
        for (name, takes) in [("cannonshogi", true), ("cannon", false), ("chess", true)] {
            let v = registry::find(name).unwrap();
            let session = v.new_session();
            let f = session.nnue_feature_count();
            assert_eq!(session.nnue_has_king_buckets(), takes);
            let mut float = FloatNetwork::new_random(2 * f, 16, 1);
            float.buckets = KingBuckets::Halves;
            let (net, _) = float
                .quantise(v.net_name(), DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
                .unwrap();
            assert_eq!(session.evaluate_nnue(&net).is_some(), takes, "{name}");
            let plain = FloatNetwork::new_random(f, 16, 1)
                .quantise(v.net_name(), DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
                .unwrap()
                .0;
            assert!(session.evaluate_nnue(&plain).is_some(), "{name}");
        }
        // Every shipped net is one its game takes: bucketed only where the game has buckets.
        for v in cannonade_core::engine::registry::VARIANTS {
            if let Some(bytes) = v.net {
                let net = Network::from_bytes(bytes).unwrap();
                let has = v.new_session().nnue_has_king_buckets();
                assert!(net.check_king_buckets(has).is_ok(), "{}", v.game.name);
                assert!(
                    v.new_session().evaluate_nnue(&net).is_some(),
                    "{}",
                    v.game.name
                );
            }
        }
    }
}
