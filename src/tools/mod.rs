//! Tools built on the engine facade: bench, the match runner, openings, training data
//! (`datagen`) and the batch `legal` interface.

pub mod bench;
pub mod datagen;
pub mod legal;
pub mod r#match;
pub mod openings;
pub mod progress;
pub mod train;
pub mod tune;
