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
