//! Cannonade's tools, built on the engine core's facade: the match runner, game analysis
//! (`analyse`), test suites (`epd`), openings, training data (`datagen`), training and tuning
//! (the net: `train`; the evaluation's weights: `tune`; the search: `spsa`), win-chance models
//! (`wdl`) and the batch `legal` interface. (`bench` lives in the core: both protocols run it.)

pub mod adjudicate;
pub mod analyse;
pub mod datagen;
pub mod epd;
pub mod legal;
pub mod match_runner;
pub mod openings;
pub mod progress;
pub mod search_args;
pub mod spsa;
pub mod train;
pub mod tune;
pub mod wdl;

use cannonade_core::engine::registry::{self, VariantInfo};

/// A variant name the registry does not know, as every tool refuses it.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
#[error("unknown variant '{0}' (see `cannonade variants`)")]
pub struct UnknownVariant(pub String);

/// The registered variant called `name` (its engine or XBoard name).
pub fn variant(name: &str) -> Result<&'static VariantInfo, UnknownVariant> {
    registry::find(name).ok_or_else(|| UnknownVariant(name.to_string()))
}

/// A file a tool could not read or write.
#[derive(thiserror::Error, Debug)]
pub enum FileError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
}

impl FileError {
    /// `read_to_string`, with the file named in the error.
    pub fn read(path: &std::path::Path) -> Result<String, FileError> {
        std::fs::read_to_string(path).map_err(|source| FileError::Read {
            path: path.display().to_string(),
            source,
        })
    }

    /// A write to `path` that failed with `source`.
    pub fn write(path: &std::path::Path, source: std::io::Error) -> FileError {
        FileError::Write {
            path: path.display().to_string(),
            source,
        }
    }
}

/// A pool of `threads` worker threads (by default one per core) for a tool's parallel work.
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}
