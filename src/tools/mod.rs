//! Tools built on the games: perft (and later bench and the match runner).

pub mod bench;
pub mod legal;
pub mod perft;
