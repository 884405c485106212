//! Tools built on the engine facade: the match runner, game analysis (`analyse`), test suites
//! (`epd`), openings, training data (`datagen`), training and tuning (the evaluation: `tune`;
//! the search: `spsa`), and the batch `legal` interface. (`bench` lives in the engine: both protocols run it.)

pub mod analyse;
pub mod datagen;
pub mod epd;
pub mod legal;
pub mod r#match;
pub mod openings;
pub mod pgn;
pub mod progress;
pub mod search_args;
pub mod spsa;
pub mod train;
pub mod tune;
pub mod wdl;
