//! The core's integration tests, built as one binary: each test file here is a module, so the
//! core is linked (and, under the release profile's thin LTO, optimised) once for all of them
//! rather than once per file, which was most of `cargo test --release`'s time.
//!
//! - The rules of each game: `chess_rules`, `chess_perft`, `chess_properties`, `cannonshogi`,
//!   `swedishcannon`, `cannonrider`, `chesstonia`, `fen_validity`, `game_properties`.
//! - The search through the library API: `search`, `search_hosts`, `search_params`.
//! - The PGN reader and writer: `pgn`.
//! - The protocol adapters in-process: `protocols`.
//!
//! `hosts` and `chess_family_support` are what the modules share.

mod chess_family_support;
mod hosts;

mod cannonrider;
mod cannonshogi;
mod chess_perft;
mod chess_properties;
mod chess_rules;
mod chesstonia;
mod fen_validity;
mod game_properties;
mod pgn;
mod protocols;
mod search;
mod search_hosts;
mod search_params;
mod swedishcannon;
