//! Tools built on the games: perft, the match runner (and later bench).

pub mod bench;
pub mod legal;
pub mod r#match;
pub mod openings;
pub mod perft;
