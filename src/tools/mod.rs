//! Tools built on the engine facade: bench, the match runner, openings and the batch `legal`
//! interface.

pub mod bench;
pub mod legal;
pub mod r#match;
pub mod openings;
pub mod train;
